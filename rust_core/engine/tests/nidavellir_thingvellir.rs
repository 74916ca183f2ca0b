//! Thingvellir (docs/rules/thingvellir.md): the expansion's parameters and components in the Rust core.

use meeplex_engine::games::nidavellir::data::*;
use meeplex_engine::games::nidavellir::{NidavellirGame, NidavellirState, Phase};
use meeplex_engine::{Game, GameError, ParamValue, Params, Rng, State};

fn tv_game(n: i64, extra: &[(&str, ParamValue)]) -> NidavellirGame {
    let mut p = params(extra);
    p.insert("players".into(), ParamValue::Int(n));
    p.insert("thingvellir".into(), ParamValue::Bool(true));
    NidavellirGame::new(&p).unwrap()
}

fn random_game(g: &NidavellirGame, seed: u64) -> Vec<(NidavellirState, Vec<u32>)> {
    let mut s = g.new_initial_state();
    let mut rng = Rng::new(seed);
    let mut hist = Vec::new();
    let mut out = Vec::new();
    let mut acts = Vec::new();
    let mut scratch = Vec::new();
    while !s.is_terminal() {
        out.push((s, hist.clone()));
        s.legal_actions(&mut acts);
        assert!(!acts.is_empty(), "no legal action\n{}", s.to_text());
        let a = if s.is_chance_node() {
            s.sample_chance(&mut rng, &mut scratch).unwrap()
        } else {
            acts[rng.below(acts.len() as u64) as usize]
        };
        s.apply_action(a).unwrap();
        hist.push(a);
        assert!(
            hist.len() as u64 <= g.max_game_length(),
            "longer than max_game_length"
        );
    }
    out.push((s, hist));
    out
}

fn params(pairs: &[(&str, ParamValue)]) -> Params {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect()
}

fn refused(pairs: &[(&str, ParamValue)]) -> bool {
    matches!(
        NidavellirGame::new(&params(pairs)),
        Err(GameError::InvalidState(_))
    )
}

#[test]
fn base_params_unchanged_without_thingvellir() {
    let g = NidavellirGame::new(&params(&[("thingvellir", ParamValue::Bool(false))])).unwrap();
    let keys: Vec<&str> = g.params().keys().map(|k| k.as_str()).collect();
    assert_eq!(keys, ["first_game", "players", "warrior_bonus_at_zero"]);
    assert_eq!(g.num_distinct_actions(), 157);
    assert_eq!(g.max_chance_outcomes(), 23);
    assert_eq!(g.observation_shape(), vec![225 + 216 * 2]);
    // The interpretation keys at their defaults are accepted.
    assert!(NidavellirGame::new(&params(&[
        ("enlist_each_turn", ParamValue::Bool(false)),
        ("enlist_chooser", ParamValue::Str("most".into())),
        ("two_player_camp_discard", ParamValue::Bool(true)),
    ]))
    .is_ok());
}

#[test]
fn interpretation_keys_refused_without_thingvellir() {
    assert!(refused(&[("enlist_each_turn", ParamValue::Bool(true))]));
    assert!(refused(&[(
        "enlist_chooser",
        ParamValue::Str("lowest_gem".into())
    )]));
    assert!(refused(&[(
        "two_player_camp_discard",
        ParamValue::Bool(false)
    )]));
    assert!(refused(&[(
        "enlist_chooser",
        ParamValue::Str("bogus".into())
    )]));
    assert!(refused(&[("enlist_chooser", ParamValue::Int(1))]));
    assert!(refused(&[("thingvellir", ParamValue::Int(1))]));
    assert!(refused(&[("enlist_each_turn", ParamValue::Int(0))]));
    assert!(refused(&[("thingvelir", ParamValue::Bool(true))]));
}

#[test]
fn thingvellir_data() {
    let tv = &data().tv;
    assert_eq!(tv.camp_keys.len(), CAMP_CARDS);
    assert_eq!(tv.camp_keys[0], "draupnir");
    assert_eq!(tv.camp_keys[6], "w6e8");
    assert_eq!(tv.camp_keys[23], "w9e11b");
    assert_eq!(tv.camp_size, 5);
    for m in 0..CAMP_CARDS {
        assert_eq!(tv.camp_age[m], if m < 12 { 1 } else { 2 });
        let is_merc = (6..12).contains(&m) || m >= 18;
        assert_eq!(tv.camp_mercenary[m] != NONE, is_merc, "{m}");
    }
    // he8: Hunter or Explorer 8 (T15).
    let he8 = tv.camp_mercenary[8] as usize;
    assert_eq!(tv.merc_class[he8], [HUNTER as u8, EXPLORER as u8]);
    assert_eq!(tv.merc_points[he8], [0, 8]);
    assert_eq!(tv.merc_card[11], 23);
    assert_eq!(
        tv.hero_keys,
        ["andumia", "holda", "khrad", "jarika", "olwyn", "zolkur"]
    );
    assert_eq!(tv.hero_points, [12, 12, 4, 8, 9, 10]);
}

#[test]
fn random_games_finish_and_texts_round_trip() {
    let variants: Vec<Vec<(&str, ParamValue)>> = vec![
        vec![],
        vec![("enlist_each_turn", ParamValue::Bool(true))],
        vec![("enlist_chooser", ParamValue::Str("lowest_gem".into()))],
        vec![("two_player_camp_discard", ParamValue::Bool(false))],
        vec![("first_game", ParamValue::Bool(true))],
    ];
    let mut camp_takes = 0;
    for n in 2..=5 {
        for (vi, v) in variants.iter().enumerate() {
            let g = tv_game(n, v);
            assert_eq!(g.num_distinct_actions(), 356);
            assert_eq!(g.max_chance_outcomes(), 24);
            assert_eq!(g.observation_shape(), vec![292 + 265 * n as usize]);
            for seed in 0..4u64 {
                let states = random_game(&g, seed * 31 + vi as u64 * 7 + n as u64);
                let mut obs = vec![0f32; g.observation_shape()[0]];
                for (s, h) in &states {
                    let mut acts = Vec::new();
                    s.legal_actions(&mut acts);
                    for &a in &acts {
                        let t = s.action_to_string(a).unwrap();
                        assert_eq!(s.string_to_action(&t).unwrap(), a, "{t}");
                        if t.starts_with("camp") && s.phase == Phase::Take {
                            camp_takes += 1;
                        }
                    }
                    for p in 0..n as usize {
                        s.observation_tensor(p, &mut obs);
                    }
                    let _ = s.observation_string(0);
                    let _ = h;
                }
                let last = &states.last().unwrap().0;
                assert!(last.is_terminal());
                assert_eq!(last.camp_deck & 0xFFF, 0);
            }
        }
    }
    assert!(camp_takes > 0);
}

#[test]
fn serialization_round_trips_and_refusals() {
    for n in 2..=5 {
        for v in [vec![], vec![("enlist_each_turn", ParamValue::Bool(true))]] {
            let g = tv_game(n, &v);
            for (i, (s, h)) in random_game(&g, 100 + n as u64).into_iter().enumerate() {
                if i % 3 != 0 && !s.is_terminal() {
                    continue;
                }
                let text = s.serialize(&h);
                let (back, h2) = g
                    .deserialize_state(&text)
                    .unwrap_or_else(|e| panic!("{e}\n{text}\n{}", s.to_text()));
                assert_eq!(back.serialize(&h2), text);
                assert_eq!(back, s);
            }
        }
    }
    let g = tv_game(2, &[]);
    let base = NidavellirGame::new(&params(&[])).unwrap();
    let states = random_game(&g, 5);
    let (s, h) = &states[10];
    let text = s.serialize(h);
    assert!(text.contains("\"camp_deck\":["));
    assert!(text.contains("\"zolkur\":false"));
    // A Thingvellir state is not a base game's, nor the reverse.
    assert!(base.deserialize_state(&text).is_err());
    let b = random_game(&base, 5);
    assert!(g.deserialize_state(&b[10].0.serialize(&b[10].1)).is_err());
    let bad = [
        text.replace("\"camp_visited\":false", "\"camp_visited\":true"),
        text.replace("\"camp_visited\":false", "\"camp_visited\":0"),
        text.replace("\"zolkur\":false", "\"zolkur\":true"),
        text.replace("\"camp_deck\":[", "\"camp_deck\":[12,"),
        text.replace("\"camp_deck\":[", "\"camp_deck\":[0,0,"),
        text.replace("\"camp_cards\":[]", "\"camp_cards\":[4]"),
        text.replace("\"enlist\":[]", "\"enlist\":[0]"),
        text.replace("\"enlist_pos\":0", "\"enlist_pos\":1"),
        text.replace("\"army\":[[]", "\"army\":[[43]"),
        text.replace("\"army\":[[]", "\"army\":[[44,45]"),
        text.replace("\"army\":[[]", "\"army\":[[58]"),
        text.replace(",\"enlist_pos\":0", ""),
    ];
    for b in bad {
        assert_ne!(b, text);
        match g.deserialize_state(&b) {
            Err(GameError::InvalidState(_)) => {}
            other => panic!("{b}\naccepted: {:?}", other.map(|_| ())),
        }
    }
}

/// Every integer of serialized positions replaced by nearby values: accepted states play on without a panic.
#[test]
fn no_panic_on_mutated_states() {
    let mut rng = Rng::new(3);
    for n in [2, 3, 5] {
        let g = tv_game(n, &[]);
        let states = random_game(&g, 40 + n as u64);
        for (s, h) in states.iter().step_by(17) {
            let text = s.serialize(h);
            let bytes = text.as_bytes();
            let starts: Vec<usize> = (1..bytes.len())
                .filter(|&i| {
                    matches!(bytes[i - 1], b'[' | b',' | b':')
                        && (bytes[i].is_ascii_digit() || bytes[i] == b'-')
                })
                .collect();
            for _ in 0..60 {
                let i = starts[rng.below(starts.len() as u64) as usize];
                let mut j = i + 1;
                while j < bytes.len() && bytes[j].is_ascii_digit() {
                    j += 1;
                }
                let v = rng.below(60) as i64 - 2;
                let mutated = format!("{}{}{}", &text[..i], v, &text[j..]);
                if let Ok((mut m, _)) = g.deserialize_state(&mutated) {
                    let mut acts = Vec::new();
                    let mut obs = vec![0f32; g.observation_shape()[0]];
                    for _ in 0..300 {
                        if m.is_terminal() {
                            break;
                        }
                        m.legal_actions(&mut acts);
                        for p in 0..n as usize {
                            m.observation_tensor(p, &mut obs);
                            let _ = m.resample_from_infostate(p, &mut rng);
                            let _ = m.observation_string(p);
                        }
                        if acts.is_empty() {
                            break;
                        }
                        let a = acts[rng.below(acts.len() as u64) as usize];
                        m.apply_action(a).unwrap();
                        let _ = m.serialize(&[]);
                    }
                }
            }
        }
    }
}
