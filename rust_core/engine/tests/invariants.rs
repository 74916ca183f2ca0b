//! Invariants every registered game must keep over many seeded random games: legal actions sorted and
//! applicable, everything else refused without change, chance weights positive, serialization round trips,
//! games ending within max_game_length. Generic over the registry.

use meeplex_engine::playout::{random_action, Scratch};
use meeplex_engine::registry::GAME_IDS;
use meeplex_engine::{pick_weighted, AnyGame, ParamValue, Params, Rng, State, CHANCE};

fn variants(id: &str) -> Vec<AnyGame> {
    let mut out = Vec::new();
    if id == "carcassonne" {
        // Every id is tried at every step below: the standard game's 81,843 ids would take hours, so short
        // custom piles (the same rules; a few hundred ids) with each seat count and option.
        // The expansions last (the largest variant, which `garbage_never_panics` mangles): their 42 tiles
        // always join the pile, so those games are longer and their ids are sampled.
        for (players, river, strategic, ic, tb) in [
            (2, false, false, false, false),
            (3, true, false, false, false),
            (2, false, true, false, false),
            (5, true, true, false, false),
            (3, false, false, true, false),
            (2, false, true, false, true),
            (6, true, true, true, true),
        ] {
            let mut p = Params::new();
            p.insert("players".into(), ParamValue::Int(players));
            p.insert("river".into(), ParamValue::Bool(river));
            p.insert("strategic".into(), ParamValue::Bool(strategic));
            p.insert("inns_cathedrals".into(), ParamValue::Bool(ic));
            p.insert("traders_builders".into(), ParamValue::Bool(tb));
            p.insert("tiles".into(), ParamValue::Str("B1D2E2K1U1V2".into()));
            out.push(AnyGame::new(id, &p).expect("a carcassonne variant"));
        }
        return out;
    }
    for players in 1..=4 {
        for office in [false, true] {
            let mut p = Params::new();
            p.insert("players".into(), ParamValue::Int(players));
            p.insert("office".into(), ParamValue::Bool(office));
            p.insert("max_turns".into(), ParamValue::Int(20));
            if let Ok(g) = AnyGame::new(id, &p) {
                out.push(g);
            }
        }
    }
    if id == "viticulture" {
        // Random play runs to the year limit (20 years, some 600 actions a seat): two years at each seat count
        // keep every id at every step affordable; the card readings moved in the 3-seat game.
        for (players, readings) in [(2, false), (3, true), (4, false), (6, false)] {
            let mut p = Params::new();
            p.insert("players".into(), ParamValue::Int(players));
            p.insert("max_years".into(), ParamValue::Int(2));
            if readings {
                for (key, word) in [
                    ("end_rule", "year_end"),
                    ("harvest_expert", "harvest_both"),
                    ("importer", "draw"),
                    ("promoter", "vp_only"),
                    ("queen", "off"),
                ] {
                    p.insert(key.into(), ParamValue::Str(word.into()));
                }
            }
            out.push(AnyGame::new(id, &p).expect("a viticulture variant"));
        }
        return out;
    }
    if id == "memoir44" {
        // Memoir '44 has no seat count: a short turn limit, so that games end by the limit as well as by medals.
        for turn_limit in [12, 80] {
            let mut p = Params::new();
            p.insert("turn_limit".into(), ParamValue::Int(turn_limit));
            out.push(AnyGame::new(id, &p).expect("a memoir44 variant"));
        }
        return out;
    }
    if out.is_empty() {
        // A game without those parameters: each seat count it accepts, other parameters at their defaults.
        for players in 1..=6 {
            let mut p = Params::new();
            p.insert("players".into(), ParamValue::Int(players));
            if let Ok(g) = AnyGame::new(id, &p) {
                out.push(g);
            }
        }
    }
    assert!(!out.is_empty(), "{id}: no variant could be built");
    out
}

/// The ids `random_games_keep_the_invariants` tries at one step: all of them where there are few.
fn candidate_ids(limit: u32, legal: &[u32], probe: &mut Rng) -> Vec<u32> {
    const ALL_BELOW: u32 = 4096;
    if limit <= ALL_BELOW || std::env::var_os("MEEPLEX_EXHAUSTIVE").is_some() {
        return (0..limit).collect();
    }
    let mut ids: Vec<u32> = vec![0, limit - 1];
    for &a in legal {
        ids.extend([a.saturating_sub(1), a + 1]);
    }
    ids.extend((0..512).map(|_| probe.below(limit as u64) as u32));
    ids.sort_unstable();
    ids.dedup();
    ids
}

#[test]
fn random_games_keep_the_invariants() {
    for id in GAME_IDS {
        for game in variants(id) {
            for seed in 0..12u64 {
                let mut state = game.new_initial_state();
                let mut history = Vec::new();
                let mut rng = Rng::new(seed);
                let mut scratch = Scratch::default();
                let mut legal = Vec::new();
                let mut probe = Rng::new(seed ^ 0x5EED);
                while let Some(action) = random_action(&state, &mut rng, &mut scratch) {
                    state.legal_actions(&mut legal);
                    assert!(
                        legal.windows(2).all(|w| w[0] < w[1]),
                        "legal actions not sorted"
                    );
                    if state.current_player() == CHANCE {
                        let mut weights = Vec::new();
                        state.chance_weights(&mut weights);
                        assert!(weights.iter().all(|&(_, w)| w > 0));
                        let ids: Vec<u32> = weights.iter().map(|&(a, _)| a).collect();
                        assert_eq!(ids, legal);
                    }
                    // Every id that is not legal is refused and changes nothing. A board game has tens of
                    // thousands of ids: there, the neighbours of each legal id, both ends and a seeded sample
                    // of 512 (MEEPLEX_EXHAUSTIVE=1 tries them all, for long runs).
                    let limit =
                        game.num_distinct_actions().max(game.max_chance_outcomes()) as u32 + 3;
                    for a in candidate_ids(limit, &legal, &mut probe) {
                        if legal.binary_search(&a).is_err() {
                            let before = state.clone();
                            assert!(state.apply_action(a).is_err(), "{id}: illegal {a} accepted");
                            assert_eq!(before, state);
                        }
                    }
                    for &a in &legal {
                        assert!(state.action_to_string(a).is_ok());
                        assert_eq!(
                            state
                                .string_to_action(&state.action_to_string(a).unwrap())
                                .unwrap(),
                            a
                        );
                    }
                    let text = state.serialize(&history);
                    let (back, back_history) = game.deserialize_state(&text).expect("round trip");
                    assert_eq!(back, state);
                    assert_eq!(back_history, history);
                    state.apply_action(action).expect("a legal action applies");
                    history.push(action);
                    assert!(history.len() as u64 <= game.max_game_length());
                }
                assert!(state.is_terminal());
                let mut returns = vec![0.0; game.num_players()];
                state.returns(&mut returns);
                let sum: f64 = returns.iter().sum();
                assert!(sum == 0.0 || (sum - 1.0).abs() < 1e-12);
            }
        }
    }
}

/// Each game's own `sample_chance` (drawn from its counts) is DESIGN's draw over `chance_weights()`: the
/// same outcome and the same generator state after it, at every chance node of many random games; nothing is
/// drawn at a decision or at the end.
#[test]
fn sample_chance_is_the_weighted_draw_over_chance_weights() {
    for id in GAME_IDS {
        for game in variants(id) {
            for seed in 0..40u64 {
                let mut state = game.new_initial_state();
                let mut rng = Rng::new(seed);
                let mut scratch = Scratch::default();
                let mut weights = Vec::new();
                loop {
                    let mut own = rng.clone();
                    let mut by_list = rng.clone();
                    state.chance_weights(&mut weights);
                    let want = pick_weighted(weights.iter().copied(), &mut by_list);
                    let got = state.sample_chance(&mut own, &mut Vec::new());
                    assert_eq!(got, want, "{id} seed {seed}: a different outcome");
                    assert_eq!(own, by_list, "{id} seed {seed}: a different draw");
                    if state.current_player() != CHANCE {
                        assert_eq!(got, None);
                        assert_eq!(own, rng, "{id}: sample_chance drew at a decision");
                    }
                    match random_action(&state, &mut rng, &mut scratch) {
                        Some(a) => state.apply_unchecked(a),
                        None => break,
                    }
                }
                assert!(state.is_terminal());
            }
        }
    }
}

/// Bytes that make mangled serializations interesting: JSON punctuation, literals' letters, and the letters,
/// signs and separators the games' own fields use.
const MANGLE: &[u8] = b"0123456789[]{}\",:-tfnFRBDSN#. ";

/// A serialized mid-game state of every game (its largest variant, history included), mangled thousands of
/// times: a refusal is fine, a panic is not, and whatever is accepted must play to its end within
/// `max_game_length()`. Illegal ids through `apply_unchecked` must not panic either.
#[test]
fn garbage_never_panics() {
    for id in GAME_IDS {
        let game = variants(id).pop().expect("a variant");
        let mut rng = Rng::new(99);
        let mut scratch = Scratch::default();
        let (mut mid, mut history) = (game.new_initial_state(), Vec::new());
        for _ in 0..120 {
            let Some(a) = random_action(&mid, &mut rng, &mut scratch) else {
                break;
            };
            mid.apply_action(a).unwrap();
            history.push(a);
        }
        let good = mid.serialize(&history);
        for _ in 0..1500 {
            let mut bytes = good.clone().into_bytes();
            for _ in 0..1 + rng.below(4) {
                if bytes.is_empty() {
                    break;
                }
                let i = rng.below(bytes.len() as u64) as usize;
                match rng.below(3) {
                    0 => bytes[i] = MANGLE[rng.below(MANGLE.len() as u64) as usize],
                    1 => {
                        bytes.remove(i);
                    }
                    _ => bytes.truncate(i),
                }
            }
            let text = String::from_utf8_lossy(&bytes);
            if let Ok((mut s, _)) = game.deserialize_state(&text) {
                let mut steps = 0;
                while let Some(a) = random_action(&s, &mut rng, &mut scratch) {
                    s.apply_action(a).unwrap();
                    steps += 1;
                    assert!(steps <= game.max_game_length(), "{id}: {text}");
                }
            }
        }
        for a in 0..game.num_distinct_actions() as u32 + 50 {
            mid.clone().apply_unchecked(a);
        }
    }
}

#[test]
fn unknown_games_and_parameters_are_refused() {
    assert!(AnyGame::new("no_such_game", &Params::new()).is_err());
    for (key, value) in [
        ("players", ParamValue::Int(0)),
        ("players", ParamValue::Int(1_000_000)),
        ("players", ParamValue::Bool(true)),
        ("office", ParamValue::Int(1)),
        ("max_turns", ParamValue::Int(-5)),
        ("colour", ParamValue::Str("red".into())),
    ] {
        let mut p = Params::new();
        p.insert(key.into(), value);
        assert!(AnyGame::new("flip_city", &p).is_err(), "{key} accepted");
    }
}
