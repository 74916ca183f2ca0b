use super::state::Phase;
use super::*;
use crate::{Game, Rng, State};

fn game(extra: &[(&str, ParamValue)]) -> ViticultureGame {
    let mut p = Params::new();
    for (k, v) in extra {
        p.insert(k.to_string(), v.clone());
    }
    ViticultureGame::new(&p).unwrap()
}

fn random_play(g: &ViticultureGame, seed: u64, check_serial: bool) -> (VitState, Vec<u32>) {
    let mut s = g.new_initial_state();
    let mut rng = Rng::new(seed);
    let mut hist = Vec::new();
    let mut buf = Vec::new();
    let mut w = Vec::new();
    let mut obs = vec![0f32; OBS_LEN];
    while !s.is_terminal() {
        assert!((hist.len() as u64) < g.max_game_length(), "too long");
        let a = if s.is_chance_node() {
            s.sample_chance(&mut rng, &mut w).expect("chance outcome")
        } else {
            s.legal_actions(&mut buf);
            assert!(!buf.is_empty(), "no legal action at {:?}", s.top());
            assert!(
                buf.windows(2).all(|x| x[0] < x[1]),
                "unsorted {:?} at {:?}",
                buf,
                s.top()
            );
            buf[rng.below(buf.len() as u64) as usize]
        };
        let text = s.action_to_string(a).unwrap();
        assert_eq!(s.string_to_action(&text).unwrap(), a, "{text}");
        s.apply_action(a).unwrap();
        hist.push(a);
        if check_serial {
            let t = s.serialize(&hist);
            let (s2, h2) = g
                .deserialize_state(&t)
                .unwrap_or_else(|e| panic!("{e}\n{t}"));
            assert_eq!(s2, s);
            assert_eq!(h2, hist);
        }
        for p in 0..g.num_players() {
            s.observation_tensor(p, &mut obs);
        }
        check_invariants(&s);
    }
    (s, hist)
}

#[test]
fn data_parses() {
    let d = data::data();
    assert_eq!(d.kind_names.len(), 121);
    assert_eq!(d.vines.iter().map(|v| v.count as u32).sum::<u32>(), 42);
}

#[test]
fn notation_round_trip() {
    for a in 0..notation::NUM_ACTIONS {
        let t = notation::action_text(a).unwrap();
        assert_eq!(notation::parse_text(&t, false).unwrap(), a, "{t}");
        assert_eq!(notation::parse_text(&t.to_uppercase(), false).unwrap(), a);
    }
    for a in 0..notation::NUM_CHANCE {
        let t = notation::chance_text(a).unwrap();
        assert_eq!(notation::parse_text(&t, true).unwrap(), a, "{t}");
    }
    assert_eq!(notation::action_text(578).unwrap(), "make s2+1+1");
    assert_eq!(notation::action_text(901).unwrap(), "make s9+8+9");
}

#[test]
fn random_playouts_all_counts() {
    for players in 2..=6 {
        let g = game(&[("players", ParamValue::Int(players))]);
        for seed in 0..12 {
            let (s, _) = random_play(&g, seed * 31 + players as u64, false);
            assert_eq!(s.phase, Phase::Over);
            let mut r = vec![0.0; players as usize];
            s.returns(&mut r);
            assert!((r.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        }
    }
}

#[test]
fn random_playouts_variants() {
    let g = game(&[
        ("players", ParamValue::Int(3)),
        ("parents_dealt", ParamValue::Int(1)),
        ("end_rule", ParamValue::Str("year_end".into())),
        ("harvest_expert", ParamValue::Str("harvest_both".into())),
        ("promoter", ParamValue::Str("vp_only".into())),
        ("queen", ParamValue::Str("off".into())),
        ("importer", ParamValue::Str("draw".into())),
        ("friendly_bonus", ParamValue::Bool(true)),
    ]);
    for seed in 0..10 {
        random_play(&g, seed, false);
    }
}

#[test]
fn serialize_round_trip_every_step() {
    for (players, seed) in [(2, 1u64), (3, 2), (5, 3)] {
        let g = game(&[
            ("players", ParamValue::Int(players)),
            ("max_years", ParamValue::Int(3)),
        ]);
        random_play(&g, seed, true);
    }
}

#[test]
fn setup_sequence() {
    let g = game(&[]);
    let mut s = g.new_initial_state();
    assert!(s.is_chance_node());
    let mut w = Vec::new();
    s.chance_weights(&mut w);
    assert_eq!(w, vec![(157, 1), (158, 1)]);
    s.apply_action(158).unwrap(); // first = seat 1
                                  // deal: seat 1 two mamas, two papas, then seat 0
    s.chance_weights(&mut w);
    assert_eq!(w.len(), 18);
    s.apply_action(121).unwrap();
    s.apply_action(122).unwrap();
    s.apply_action(139).unwrap();
    s.apply_action(140).unwrap();
    s.apply_action(123).unwrap();
    s.apply_action(124).unwrap();
    s.apply_action(141).unwrap();
    s.apply_action(142).unwrap();
    assert_eq!(s.current_player(), 1);
    let mut buf = Vec::new();
    s.legal_actions(&mut buf);
    assert_eq!(buf, vec![0, 1]);
    assert!(s.apply_action(5).is_err());
    s.apply_action(0).unwrap(); // alanea: vine, summer, order
    s.apply_action(18 + 1).unwrap(); // christian
    s.apply_action(2).unwrap(); // deann
    s.apply_action(18 + 3).unwrap(); // josh
                                     // mama draws: seat 1 draws vine first
    assert!(s.is_chance_node());
    s.chance_weights(&mut w);
    assert_eq!(w.iter().map(|x| x.1).sum::<u64>(), 42);
}

#[test]
fn bad_inputs_do_not_panic() {
    let g = game(&[]);
    let s = g.new_initial_state();
    for t in ["", "{}", "[]", "null", "{\"game\":1}", "x"] {
        assert!(g.deserialize_state(t).is_err());
    }
    let mut s2 = s.clone();
    assert!(s2.apply_action(100000).is_err());
    assert!(s.action_to_string(100000).is_err());
    assert!(s.string_to_action("nonsense").is_err());
    let text = s.serialize(&[]);
    assert!(g.deserialize_state(&text).is_ok());
    let bad = text.replace("\"history\":[]", "\"history\":[3]");
    assert!(g.deserialize_state(&bad).is_err());
}

#[test]
fn wine_values_and_aging() {
    let g = game(&[]);
    let mut s = g.new_initial_state();
    let q = 0;
    s.seats[q].crush = [0b1_0000, 0b10]; // red 5, white 2
                                         // small cellar: red 5 makes a red 3; blush needs a medium cellar
    assert_eq!(s.make_result(q, 479 + 4, 1, false), Some((0, 3)));
    assert_eq!(s.make_result(q, 497 + 9 * 4 + 1, 1, false), None);
    s.seats[q].structures |= 1 << data::MEDIUM;
    assert_eq!(s.make_result(q, 497 + 9 * 4 + 1, 1, false), Some((2, 6)));
    s.seats[q].cellar[2] = 1 << 5; // blush 6 taken -> 5
    assert_eq!(s.make_result(q, 497 + 9 * 4 + 1, 1, false), Some((2, 5)));
    // harvest collisions
    assert_eq!(state::free_slot(0b111, 3, 1), None);
    assert_eq!(state::free_slot(0b100, 3, 1), Some(2));
}

#[test]
#[ignore]
fn stats() {
    use std::collections::BTreeMap;
    let mut tasks: BTreeMap<String, u64> = BTreeMap::new();
    let mut plays = [0u32; 76];
    let mut lens = Vec::new();
    let mut years = Vec::new();
    let t0 = std::time::Instant::now();
    for players in 2i64..=6 {
        let g = game(&[("players", ParamValue::Int(players))]);
        for seed in 0..400 {
            let mut s = g.new_initial_state();
            let mut rng = Rng::new(seed);
            let mut buf = Vec::new();
            let mut w = Vec::new();
            let mut n = 0;
            while !s.is_terminal() {
                let name = format!("{:?}", s.top())
                    .replace("Some(", "")
                    .split([' ', '(', '{', ')'])
                    .next()
                    .unwrap_or("")
                    .to_string();
                *tasks.entry(name).or_default() += 1;
                let a = if s.is_chance_node() {
                    s.sample_chance(&mut rng, &mut w).unwrap()
                } else {
                    s.legal_actions(&mut buf);
                    if buf.is_empty() {
                        panic!(
                            "empty at {:?} players {players} seed {seed}\n{}",
                            s.top(),
                            s.to_text()
                        );
                    }
                    buf[rng.below(buf.len() as u64) as usize]
                };
                if !s.is_chance_node() && (242..318).contains(&a) {
                    plays[(a - 242) as usize] += 1;
                }
                s.apply_action(a).unwrap();
                check_invariants(&s);
                n += 1;
            }
            lens.push(n);
            years.push(s.year);
        }
    }
    println!("time {:?} for {} games", t0.elapsed(), lens.len());
    println!(
        "len max {} mean {}",
        lens.iter().max().unwrap(),
        lens.iter().sum::<usize>() / lens.len()
    );
    println!(
        "years max {} mean {}",
        years.iter().max().unwrap(),
        years.iter().map(|&y| y as usize).sum::<usize>() / years.len()
    );
    println!("{tasks:?}");
    let d = data::data();
    let never: Vec<&str> = (0..76)
        .filter(|&i| plays[i] == 0)
        .map(|i| d.visitors[i].key.as_str())
        .collect();
    println!("never played: {never:?}");
    println!("plays: {:?}", plays);
}

fn check_invariants(s: &VitState) {
    let d = data::data();
    let n = s.n();
    let mut count = [0u32; 121];
    for deck in 0..4 {
        for k in 0..121 {
            count[k] += s.decks[deck][k] as u32;
        }
        for i in 0..s.discard_len[deck] as usize {
            count[s.discards[deck][i] as usize] += 1;
        }
    }
    for q in 0..n {
        for k in 0..121 {
            count[k] += s.seats[q].hand[k] as u32;
            for p in 0..n {
                assert!(s.seats[p].known[q][k] <= s.seats[q].hand[k], "known > hand");
            }
        }
        for f in 0..3 {
            for v in 0..9 {
                count[v] += s.seats[q].fields[f].vines[v] as u32;
            }
        }
        let st = &s.seats[q];
        assert!(st.vp >= -5 && st.lira >= 0 && (0..=5).contains(&st.residual));
        assert!(st.regular + st.trained <= 5 && st.regular >= 2);
    }
    for k in s.reveal {
        if k != state::NONE {
            count[k as usize] += 1;
        }
    }
    for i in 0..s.escrow_len as usize {
        count[s.escrow[i][1] as usize] += 1;
    }
    for i in 0..s.sp as usize {
        match s.stack[i] {
            state::Task::Finish(c) => count[45 + c as usize] += 1,
            // an order chosen to fill is out of the hand while its wines are chosen
            state::Task::Fill { order, .. } if order != state::NONE => {
                count[9 + order as usize] += 1
            }
            _ => {}
        }
    }
    for k in 0..121 {
        let total = if k == 83 + 10 && !s.rules.queen {
            0
        } else {
            d.copies(k) as u32
        };
        assert_eq!(count[k], total, "kind {k}");
    }
}

#[test]
fn planting_limit_and_harvest_collision() {
    let g = game(&[]);
    let mut s = g.new_initial_state();
    let q = 0;
    s.seats[q].hand[7] = 2; // cabernet sauvignon (red 4), needs trellis + irrigation
    assert!(!s.plant_ok(q, 7, 0, 0));
    s.seats[q].structures |= 0b11;
    assert!(s.plant_ok(q, 7, 0, 0)); // 4 <= 5
    s.seats[q].fields[0].vines[7] = 1;
    assert!(!s.plant_ok(q, 7, 0, 0)); // 8 > 5
    assert!(s.plant_ok(q, 7, 0, 2)); // Cultivator ignores the limit
    s.seats[q].fields[0].over = true;
    assert!(!s.plant_ok(q, 7, 0, 2)); // no more on an over field
                                      // harvest: red 4 lands on 4, a second red 4 slides to 3
    s.seats[q].fields[0].over = false;
    s.seats[q].crush = [0; 2];
    s.do_harvest(q, 0);
    assert_eq!(s.seats[q].crush[0], 1 << 3);
    s.seats[q].fields[0].harvested = false;
    s.do_harvest(q, 0);
    assert_eq!(s.seats[q].crush[0], (1 << 3) | (1 << 2));
}

#[test]
fn year_end_aging_caps() {
    let g = game(&[]);
    let mut s = g.new_initial_state();
    let q = 0;
    s.seats[q].cellar[0] = 0b110; // red 2, red 3 with a small cellar
    s.age_wines(q);
    assert_eq!(s.seats[q].cellar[0], 0b110, "blocked at 3, 2 cannot pass 3");
    s.seats[q].cellar[0] = 0b010; // red 2
    s.age_wines(q);
    assert_eq!(s.seats[q].cellar[0], 0b100);
    s.seats[q].crush[1] = 1 << 8 | 1 << 7; // white 8, 9: stay
    s.age_grapes(q);
    assert_eq!(s.seats[q].crush[1], 1 << 8 | 1 << 7);
    s.seats[q].structures |= 1 << data::MEDIUM;
    s.seats[q].cellar[0] = 1 << 5; // red 6 stays at 6 without a large cellar
    s.age_wines(q);
    assert_eq!(s.seats[q].cellar[0], 1 << 5);
}

#[test]
fn end_trigger_and_hand_limit() {
    // play at random until the end flag rises; the game must end at that year's end
    let g = game(&[("target_vp", ParamValue::Int(10))]);
    for seed in 0..40 {
        let mut s = g.new_initial_state();
        let mut rng = Rng::new(seed);
        let mut buf = Vec::new();
        let mut w = Vec::new();
        let mut flag_year = None;
        let mut prev = Phase::Setup;
        while !s.is_terminal() {
            if s.end_flag && flag_year.is_none() {
                flag_year = Some(s.year);
            }
            if s.phase == Phase::Spring && prev == Phase::YearEnd {
                for q in 0..2 {
                    assert!(s.seats[q].hand_size() <= 7, "hand limit");
                }
            }
            prev = s.phase;
            let a = if s.is_chance_node() {
                s.sample_chance(&mut rng, &mut w).unwrap()
            } else {
                s.legal_actions(&mut buf);
                buf[rng.below(buf.len() as u64) as usize]
            };
            s.apply_action(a).unwrap();
        }
        if let Some(y) = flag_year {
            assert_eq!(s.year, y);
        } else {
            assert_eq!(s.year, 20);
        }
    }
}
