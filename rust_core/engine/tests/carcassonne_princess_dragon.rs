//! The Princess and the Dragon (docs/rules/carcassonne.md §12): one scenario per rule, and random games with
//! the other expansions and variants.

use meeplex_engine::games::carcassonne::{CarcassonneGame, CarcassonneState, Phase};
mod common;

use common::{act, draw};
use meeplex_engine::playout::{random_action, Scratch};
use meeplex_engine::{Game, GameError, ParamValue, Params, Rng, State, CHANCE};
use serde_json::{json, Value};

fn params(text: &str) -> Params {
    let mut p = Params::new();
    p.insert("princess_dragon".into(), ParamValue::Bool(true));
    for kv in text.split(',').filter(|kv| !kv.is_empty()) {
        let (k, v) = kv.split_once('=').unwrap();
        let value = match v {
            "true" | "false" => ParamValue::Bool(v == "true"),
            _ => v
                .parse()
                .map_or_else(|_| ParamValue::Str(v.to_string()), ParamValue::Int),
        };
        p.insert(k.into(), value);
    }
    p
}

fn game(text: &str) -> CarcassonneGame {
    CarcassonneGame::new(&params(text)).unwrap()
}

/// Draw `name`, place it, then the follower step's `figure`.
fn turn(s: &mut Box<CarcassonneState>, name: &str, place: &str, figure: &str) {
    draw(s, name);
    act(s, &format!("place {place}"));
    act(s, figure);
}

fn legal_texts(s: &CarcassonneState) -> Vec<String> {
    let b = Box::new(s.clone());
    let mut out = Vec::new();
    b.legal_actions(&mut out);
    out.iter()
        .map(|&a| b.action_to_string(a).unwrap())
        .collect()
}

fn legal(s: &CarcassonneState, text: &str) -> bool {
    let b = Box::new(s.clone());
    let a = b
        .string_to_action(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    b.is_legal(a)
}

fn scores(s: &CarcassonneState) -> Vec<u32> {
    s.scores[..s.cfg.players].to_vec()
}

fn round_trip(g: &CarcassonneGame, s: &CarcassonneState) -> Value {
    let text = Box::new(s.clone()).serialize(&[]);
    let (back, _) = g
        .deserialize_state(&text)
        .unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(back.serialize(&[]), text);
    assert_eq!(*back, *s);
    serde_json::from_str(&text).unwrap()
}

// ----- random games -----

#[test]
fn random_games_with_the_princess_and_the_dragon_end_and_round_trip() {
    for text in [
        "players=2",
        "players=3,inns_cathedrals=true",
        "players=4,traders_builders=true",
        "players=6,inns_cathedrals=true,traders_builders=true,river=true,strategic=true",
        "players=2,strategic=true",
        "players=5,river=true,inns_cathedrals=true,traders_builders=true",
    ] {
        let g = game(text);
        let players = g.num_players();
        let mut moves = 0;
        for seed in 0..10 {
            let mut s = g.new_initial_state();
            let (mut rng, mut sc, mut history) = (Rng::new(seed), Scratch::default(), Vec::new());
            let mut obs = vec![0f32; g.observation_shape()[0]];
            let mut legal = Vec::new();
            while let Some(a) = random_action(&s, &mut rng, &mut sc) {
                if s.current_player() != CHANCE {
                    s.legal_actions(&mut legal);
                    assert!(legal.windows(2).all(|w| w[0] < w[1]), "{legal:?}");
                    for &b in &legal {
                        let t = s.action_to_string(b).unwrap();
                        assert_eq!(s.string_to_action(&t).unwrap(), b, "{t}");
                    }
                }
                moves += (s.phase == Phase::Dragon) as u32;
                s.apply_action(a).unwrap();
                history.push(a);
                assert!(history.len() as u64 <= g.max_game_length());
                if seed < 3 && history.len() % 7 == 0 {
                    let text = s.serialize(&history);
                    let (back, h) = g
                        .deserialize_state(&text)
                        .unwrap_or_else(|e| panic!("{e}\n{text}"));
                    assert_eq!(back.serialize(&h), text);
                    assert_eq!(*back, *s);
                    s.observation_tensor(history.len() % players, &mut obs);
                    let _ = s.resample_from_infostate(0, &mut rng);
                }
            }
            assert!(s.is_terminal());
            assert_eq!(s.pile_total(), 0);
            let placed = s.board.slots.len() as u32;
            let aside: u32 = s.set_aside.iter().map(|&c| c as u32).sum();
            assert_eq!(placed + aside, g.config().r as u32 + 1);
        }
        assert!(moves > 0, "{text}: no dragon step in 10 random games");
    }
}
