//! Unit tests of the rules (docs/rules/forbidden_island.md).

use super::*;
use crate::playout::{random_action, Scratch};
use crate::{ParamValue, Params, Rng, State};

fn game(players: i64, difficulty: &str, layout: &str) -> ForbiddenIslandGame {
    let mut p = Params::new();
    p.insert("players".into(), ParamValue::Int(players));
    p.insert("difficulty".into(), ParamValue::Str(difficulty.into()));
    p.insert("layout".into(), ParamValue::Str(layout.into()));
    ForbiddenIslandGame::new(&p).unwrap()
}

#[test]
fn random_games_end() {
    for players in 2..=4 {
        let g = game(players, "novice", "standard");
        let mut lengths = Vec::new();
        let mut wins = 0;
        for seed in 0..200u64 {
            let mut s = g.new_initial_state();
            let mut rng = Rng::new(seed);
            let mut scratch = Scratch::default();
            let mut steps = 0u64;
            let mut history = Vec::new();
            while let Some(a) = random_action(&s, &mut rng, &mut scratch) {
                assert!(s.is_legal(a));
                s.apply_unchecked(a);
                history.push(a);
                steps += 1;
                assert!(steps <= g.max_game_length());
                let text = s.serialize(&history);
                let (back, h) = g
                    .deserialize_state(&text)
                    .unwrap_or_else(|e| panic!("{e}\n{text}"));
                assert_eq!(back, s, "{text}");
                assert_eq!(h, history);
            }
            assert!(s.is_terminal());
            if s.outcome == Outcome::Won {
                wins += 1;
            }
            lengths.push(steps);
        }
        println!(
            "{players}p: wins {wins}, mean length {}",
            lengths.iter().sum::<u64>() / lengths.len() as u64
        );
    }
}

#[test]
fn the_state_is_small_and_does_not_grow_the_registry() {
    let size = std::mem::size_of::<ForbiddenIslandState>();
    println!(
        "ForbiddenIslandState {size} bytes, AnyState {}",
        std::mem::size_of::<crate::AnyState>()
    );
    assert!(size <= 256);
    assert!(std::mem::size_of::<crate::AnyState>() <= 1296);
}
