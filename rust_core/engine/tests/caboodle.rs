//! Caboodle (docs/rules/caboodle.md): the worked example of §6.2, passes and the end under both rule sets,
//! serialization round trips and refusals, resampling, and many seeded random games.

use meeplex_engine::games::caboodle::state::{NUM_ACTIONS, PASS};
use meeplex_engine::games::caboodle::{CaboodleGame, CaboodleState, Phase};
use meeplex_engine::games::flip_pick_towers::sheet::encode_base64url;
use meeplex_engine::playout::{random_action, Scratch};
use meeplex_engine::{Game, ParamValue, Params, Rng, State, CHANCE, TERMINAL};

fn game(players: i64, rules: i64, tiles: Option<&str>) -> CaboodleGame {
    let mut p = Params::new();
    p.insert("players".into(), ParamValue::Int(players));
    p.insert("rules".into(), ParamValue::Int(rules));
    if let Some(t) = tiles {
        p.insert("tiles".into(), ParamValue::Str(t.into()));
    }
    CaboodleGame::new(&p).expect("valid parameters")
}

fn play(s: &mut CaboodleState, text: &str) {
    let a = s
        .string_to_action(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    s.apply_action(a)
        .unwrap_or_else(|e| panic!("{text}: {e}\n{}", s.to_text()));
}

fn draws(s: &mut CaboodleState, tiles: &[u32]) {
    for t in tiles {
        assert_eq!(s.current_player(), CHANCE);
        play(s, &format!("draw {t}"));
    }
}

#[test]
fn the_worked_example_scores_4_2_4() {
    let g = game(2, 2024, None);
    let mut s = g.new_initial_state();
    assert_eq!(s.phase, Phase::Remove);
    draws(&mut s, &[39, 0]); // removal, start tile 0
    draws(&mut s, &[1, 3, 10, 11, 12, 13]); // seat 0
    draws(&mut s, &[2, 20, 21, 22, 23, 24]); // seat 1
    assert_eq!(s.current_player(), 0);
    play(&mut s, "tile 1");
    play(&mut s, "place 0,1 r90");
    assert_eq!(s.scores[0], 4);
    draws(&mut s, &[30]);
    assert_eq!(s.current_player(), 1);
    play(&mut s, "tile 2");
    play(&mut s, "place -1,1 r180");
    assert_eq!(s.scores[1], 2);
    draws(&mut s, &[31]);
    play(&mut s, "tile 3");
    play(&mut s, "place -2,1 r0");
    assert_eq!(s.scores[0], 8);
    assert_eq!(s.board().len(), 4);
}

#[test]
fn mismatched_sides_are_illegal() {
    let g = game(2, 2024, None);
    let mut s = g.new_initial_state();
    draws(
        &mut s,
        &[39, 0, 1, 3, 10, 11, 12, 13, 2, 20, 21, 22, 23, 24],
    );
    play(&mut s, "tile 1");
    // r0 at (0,1) shows S square against the start's N circle.
    let a = s.string_to_action("place 0,1 r0").unwrap();
    assert!(s.apply_action(a).is_err());
    // not adjacent to any tile
    let a = s.string_to_action("place 5,5 r90").unwrap();
    assert!(s.apply_action(a).is_err());
}

/// Tiles 0..19 show `a` on every side, 20..39 `b`: with an `a` start tile no `b` tile can ever be placed.
fn two_colour_file() -> String {
    let mut tiles = Vec::new();
    for i in 0..40 {
        let s = if i < 20 { "a" } else { "b" };
        tiles.push(format!("[\"{s}\",\"{s}\",\"{s}\",\"{s}\"]"));
    }
    let text = format!(
        "{{\"format\":\"meeplex caboodle tiles\",\"version\":1,\"name\":\"test\",\"verified\":false,\
         \"notes\":[],\"shapes\":[\"a\",\"b\"],\"links\":\"adjacent\",\"tiles\":[{}]}}",
        tiles.join(",")
    );
    format!("b64_{}", encode_base64url(text.as_bytes()))
}

#[test]
fn passes_and_the_end_under_2023() {
    let word = two_colour_file();
    let g = game(2, 2023, Some(&word));
    let mut s = g.new_initial_state();
    draws(&mut s, &[39, 0, 1, 2, 3, 4, 5, 6, 20, 21, 22, 23, 24, 25]);
    for turn in 0..6 {
        assert_eq!(s.current_player(), 0, "turn {turn}");
        let mut legal = Vec::new();
        s.legal_actions(&mut legal);
        s.apply_action(legal[0]).unwrap();
        s.legal_actions(&mut legal);
        s.apply_action(legal[0]).unwrap();
        if turn < 5 {
            assert_eq!(s.current_player(), 1);
            s.legal_actions(&mut legal);
            assert_eq!(legal, vec![PASS]);
            s.apply_action(PASS).unwrap();
        }
    }
    // Seat 0 played its last tile; seat 1 could still have a turn in the round, but nobody can place.
    assert!(s.final_round);
    assert_eq!(s.current_player(), TERMINAL);
    assert_eq!(s.scores[1], -24, "2023: -4 per tile left, passing free");
    let mut r = [0.0; 2];
    s.returns(&mut r);
    assert_eq!(r, [1.0, 0.0]);
}

#[test]
fn passes_cost_4_under_2024_and_nobody_able_ends_the_game() {
    let word = two_colour_file();
    let g = game(2, 2024, Some(&word));
    let mut s = g.new_initial_state();
    draws(&mut s, &[39, 0, 1, 2, 3, 4, 5, 6, 20, 21, 22, 23, 24, 25]);
    let mut legal = Vec::new();
    s.legal_actions(&mut legal);
    s.apply_action(legal[0]).unwrap();
    s.legal_actions(&mut legal);
    s.apply_action(legal[0]).unwrap();
    draws(&mut s, &[26]); // seat 0 draws a b tile after placing
    s.legal_actions(&mut legal);
    assert_eq!(legal, vec![PASS]);
    s.apply_action(PASS).unwrap();
    assert_eq!(s.scores[1], -4);
    assert_eq!(s.current_player(), 0);
    assert_eq!(s.hands[0].count_ones(), 6);
    // Seat 0 plays its five a tiles drawing b tiles; seat 1 passes each time; then nobody can place.
    let mut passes = 1;
    let mut next_b = 27;
    while s.current_player() != TERMINAL {
        match s.current_player() {
            CHANCE => {
                play(&mut s, &format!("draw {next_b}"));
                next_b += 1;
            }
            1 => {
                s.apply_action(PASS).unwrap();
                passes += 1;
            }
            _ => {
                s.legal_actions(&mut legal);
                s.apply_action(legal[0]).unwrap();
            }
        }
    }
    assert_eq!(passes, 5);
    assert_eq!(s.scores[1], -20);
    assert!(!s.final_round);
    assert_eq!(s.hands[0].count_ones(), 6, "no end penalty under 2024");
}

#[test]
fn parameters_are_checked() {
    let mut p = Params::new();
    p.insert("rules".into(), ParamValue::Int(2025));
    assert!(CaboodleGame::new(&p).is_err());
    let mut p = Params::new();
    p.insert("players".into(), ParamValue::Int(5));
    assert!(CaboodleGame::new(&p).is_err());
    for bad in ["b64_", "b64_A", "b64_e30", "nope", "b64_!!"] {
        let mut p = Params::new();
        p.insert("tiles".into(), ParamValue::Str(bad.into()));
        assert!(CaboodleGame::new(&p).is_err(), "{bad}");
    }
    let mut p = Params::new();
    p.insert("rules".into(), ParamValue::Bool(true));
    assert!(CaboodleGame::new(&p).is_err());
    let g = CaboodleGame::new(&Params::new()).unwrap();
    assert_eq!(g.num_distinct_actions(), 25005);
    assert_eq!(g.observation_shape(), vec![2656]);
    assert_eq!(g.max_game_length(), 160);
}

fn random_game(g: &CaboodleGame, seed: u64) -> Vec<CaboodleState> {
    let mut rng = Rng::new(seed);
    let mut scratch = Scratch::default();
    let mut s = g.new_initial_state();
    let mut states = vec![s];
    while !s.is_terminal() {
        let a = random_action(&s, &mut rng, &mut scratch).expect("an action");
        s.apply_action(a).unwrap();
        states.push(s);
        assert!(states.len() as u64 <= g.max_game_length() + 1);
    }
    states
}

#[test]
fn random_games_round_trip_and_never_panic() {
    let obs = |g: &CaboodleGame| vec![0f32; g.observation_shape()[0]];
    for players in 2..=4 {
        for rules in [2023, 2024] {
            let g = game(players, rules, None);
            for seed in 0..6 {
                let states = random_game(&g, seed);
                let last = states.last().unwrap();
                let mut r = vec![0.0; players as usize];
                last.returns(&mut r);
                assert!((r.iter().sum::<f64>() - 1.0).abs() < 1e-9);
                for s in states.iter().step_by(7) {
                    let text = s.serialize(&[]);
                    let (back, h) = g.deserialize_state(&text).unwrap();
                    assert_eq!(back, *s);
                    assert_eq!(h, s.history());
                    let mut o = obs(&g);
                    s.observation_tensor(0, &mut o);
                    assert!(o.iter().all(|v| v.is_finite()));
                    for a in [0, 1, 39, 40, PASS, NUM_ACTIONS, u32::MAX] {
                        let mut c = *s;
                        let _ = c.apply_action(a);
                        let _ = s.action_to_string(a);
                    }
                }
            }
        }
    }
}

#[test]
fn tampered_serializations_are_refused() {
    let g = game(3, 2024, None);
    let states = random_game(&g, 3);
    let s = states[states.len() / 2];
    let text = s.serialize(&[]);
    let sc = format!("\"scores\":[{},", s.scores[0]);
    let tampered = [
        text.replace("\"final\":false", "\"final\":0"),
        text.replace(&sc, &format!("\"scores\":[{},", s.scores[0] + 1)),
        text.replace("\"version\":1", "\"version\":2"),
        text.replace("{\"bag\"", "{\"extra\":1,\"bag\""),
        text.replace("\"version\":1", "\"version\":1,\"version\":1"),
        text.replace("\"history\":[", "\"history\":[true,"),
        text[..text.len() - 1].to_string(),
        text.replace("\"rules\":2024", "\"rules\":2023"),
    ];
    for t in &tampered {
        assert_ne!(t, &text);
        assert!(g.deserialize_state(t).is_err(), "accepted {t}");
    }
}

#[test]
fn resampling_keeps_what_the_seat_knows() {
    for players in [2, 4] {
        let g = game(players, 2024, None);
        for seed in 0..4 {
            let states = random_game(&g, seed);
            for s in states.iter().step_by(5) {
                for p in 0..players as usize {
                    let mut rng = Rng::new(seed * 31 + p as u64);
                    let (r, h) = s.resample_with_history(p, &s.history(), &mut rng);
                    assert_eq!(
                        r.information_state_string(p, &h),
                        s.information_state_string(p, &[])
                    );
                    let mut a = vec![0f32; g.observation_shape()[0]];
                    let mut b = a.clone();
                    s.observation_tensor(p, &mut a);
                    r.observation_tensor(p, &mut b);
                    assert_eq!(a, b);
                    assert_eq!(r.current_player(), s.current_player());
                    assert_eq!(h.len(), s.history().len());
                    let mut replay = g.new_initial_state();
                    for &x in &h {
                        replay.apply_action(x).unwrap();
                    }
                    assert_eq!(replay, r);
                }
            }
        }
    }
}

#[test]
fn the_state_is_boxed_in_the_registry() {
    use meeplex_engine::games::flip_pick_towers::FlipPickTowersState;
    use meeplex_engine::AnyState;
    assert!(std::mem::size_of::<AnyState>() <= std::mem::size_of::<FlipPickTowersState>() + 8);
}
