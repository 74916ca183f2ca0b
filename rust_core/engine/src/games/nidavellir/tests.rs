//! Unit tests: random games end, with the invariants the contract states at every step.

use super::state::*;
use super::*;
use crate::params::ParamValue;
use crate::{Game, Rng, State};

pub fn game(n: i64, first: bool) -> NidavellirGame {
    let mut p = Params::new();
    p.insert("players".into(), ParamValue::Int(n));
    p.insert("first_game".into(), ParamValue::Bool(first));
    NidavellirGame::new(&p).unwrap()
}

fn play(g: &NidavellirGame, seed: u64, check: bool) -> (NidavellirState, Vec<u32>) {
    let mut s = g.new_initial_state();
    let mut rng = Rng::new(seed);
    let mut hist = Vec::new();
    let mut acts = Vec::new();
    let mut scratch = Vec::new();
    while !s.is_terminal() {
        assert!(
            (hist.len() as u64) < g.max_game_length(),
            "too long\n{}",
            s.to_text()
        );
        s.legal_actions(&mut acts);
        assert!(!acts.is_empty(), "no actions\n{}", s.to_text());
        let a = if s.is_chance_node() {
            s.sample_chance(&mut rng, &mut scratch).unwrap()
        } else {
            acts[rng.below(acts.len() as u64) as usize]
        };
        if check {
            let text = s.serialize(&hist);
            let (back, h) = g
                .deserialize_state(&text)
                .unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(back.serialize(&hist), text);
            assert!(back == s, "{text}");
            assert_eq!(h, hist);
            let txt = s.action_to_string(a).unwrap();
            assert_eq!(s.string_to_action(&txt).unwrap(), a, "{txt}");
            let mut obs = vec![0f32; g.observation_shape()[0]];
            for p in 0..g.num_players() {
                s.observation_tensor(p, &mut obs);
                let r = s.resample_from_infostate(p, &mut rng);
                let mut obs2 = vec![0f32; obs.len()];
                r.observation_tensor(p, &mut obs2);
                assert_eq!(obs, obs2, "resample leaks for seat {p}\n{}", s.to_text());
                assert_eq!(
                    s.information_state_string(p, &hist),
                    r.information_state_string(p, &hist)
                );
            }
        }
        s.apply_action(a).unwrap();
        hist.push(a);
        assert_eq!(s.steps as usize, hist.len());
    }
    (s, hist)
}

#[test]
fn random_games_end_for_every_seat_count() {
    for n in 2..=5 {
        for first in [false, true] {
            let g = game(n, first);
            for seed in 0..20 {
                let (s, h) = play(&g, seed, seed < 3);
                let mut r = vec![0.0; n as usize];
                s.returns(&mut r);
                assert!((r.iter().sum::<f64>() - 1.0).abs() < 1e-9);
                assert!((h.len() as u64) <= g.max_game_length());
            }
        }
    }
}

#[test]
fn state_size() {
    let size = std::mem::size_of::<NidavellirState>();
    assert!(size < 4096, "{size}");
    assert_eq!(std::mem::size_of::<crate::AnyState>(), 1296);
}
