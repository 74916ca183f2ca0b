//! Carcassonne scenarios (docs/rules/carcassonne.md) and random games.

use meeplex_engine::games::carcassonne::{CarcassonneGame, CarcassonneState, Phase};
use meeplex_engine::playout::{random_action, Scratch};
use meeplex_engine::{Game, ParamValue, Params, Rng, State, CHANCE};

fn game(players: i64, river: bool, strategic: bool, tiles: &str) -> CarcassonneGame {
    let mut p = Params::new();
    p.insert("players".into(), ParamValue::Int(players));
    p.insert("river".into(), ParamValue::Bool(river));
    p.insert("strategic".into(), ParamValue::Bool(strategic));
    p.insert("tiles".into(), ParamValue::Str(tiles.into()));
    CarcassonneGame::new(&p).unwrap()
}

fn act(s: &mut Box<CarcassonneState>, text: &str) {
    let a = s.string_to_action(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    s.apply_action(a).unwrap_or_else(|e| panic!("{text}: {e}\n{}", s.to_text()));
}

fn scores(s: &Box<CarcassonneState>) -> Vec<f64> {
    let mut v = vec![0.0; s.cfg.players];
    s.scores(&mut v);
    v
}

#[test]
fn random_games_never_panic_and_end() {
    for (players, river, strategic) in [(2, false, false), (4, true, false), (3, false, true), (5, true, true)] {
        let g = game(players, river, strategic, "standard");
        for seed in 0..30 {
            let mut s = g.new_initial_state();
            let mut rng = Rng::new(seed);
            let mut sc = Scratch::default();
            let mut steps = 0;
            let mut history = Vec::new();
            while let Some(a) = random_action(&s, &mut rng, &mut sc) {
                s.apply_action(a).unwrap();
                history.push(a);
                steps += 1;
                assert!(steps <= g.max_game_length());
                if seed < 3 && steps % 17 == 0 {
                    let text = s.serialize(&history);
                    let (back, h) = g.deserialize_state(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
                    assert_eq!(back.serialize(&h), text);
                    let mut t = vec![0f32; g.observation_shape()[0]];
                    s.observation_tensor(0, &mut t);
                }
            }
            assert!(s.is_terminal());
            assert_eq!(s.pile_total(), 0);
            // Every tile was placed or set aside.
            let placed = s.board.slots.len() as u32;
            let aside: u32 = s.set_aside.iter().map(|&c| c as u32).sum();
            assert_eq!(placed + aside, g.config().r as u32 + 1);
        }
    }
}
