//! Unit tests of the rules (§6), with small positions built by deserializing JSON.

use super::cards::*;
use super::state::*;
use super::*;
use crate::params::{ParamValue, Params};

fn game() -> Memoir44Game {
    Memoir44Game::new(&Params::new()).unwrap()
}

fn random_game(g: &Memoir44Game, seed: u64, check: bool) -> (Memoir44State, usize) {
    let mut rng = Rng::new(seed);
    let mut s = g.new_initial_state();
    let mut buf = Vec::new();
    let mut scratch = Vec::new();
    let mut steps = 0usize;
    let mut tensor = vec![0f32; observation::LEN];
    while !s.is_terminal() {
        steps += 1;
        assert!((steps as u64) <= g.max_game_length(), "too long");
        if check {
            let text = s.serialize(&[]);
            let (back, _) = g
                .deserialize_state(&text)
                .unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(back, s, "{text}");
            assert_eq!(back.serialize(&[]), text);
            s.observation_tensor(0, &mut tensor);
            s.observation_tensor(1, &mut tensor);
            let _ = s.observation_string(0);
        }
        if s.is_chance_node() {
            let a = s
                .sample_chance(&mut rng, &mut scratch)
                .expect("chance outcome");
            s.apply_action(a).unwrap();
        } else {
            s.legal_actions(&mut buf);
            assert!(!buf.is_empty(), "no legal action in {}", s.serialize(&[]));
            if check {
                assert!(buf.windows(2).all(|w| w[0] < w[1]));
                if s.phase != Phase::Target && s.phase != Phase::MoveTo && s.phase != Phase::Retreat
                {
                    assert!(buf != [A_DONE], "a lone done in {}", s.serialize(&[]));
                }
                for &a in &buf {
                    let t = s.action_to_string(a).unwrap();
                    assert_eq!(s.string_to_action(&t).unwrap(), a, "{t}");
                }
            }
            let a = buf[rng.below(buf.len() as u64) as usize];
            s.apply_action(a).unwrap();
        }
    }
    (s, steps)
}

#[test]
fn card_table_matches_the_file() {
    let text = include_str!("../../../../../python/meeplex/data/memoir44_cards.json");
    let v: serde_json::Value = serde_json::from_str(text).unwrap();
    let list = v.as_array().unwrap();
    assert_eq!(list.len(), TYPES);
    for (k, c) in list.iter().enumerate() {
        assert_eq!(c["key"].as_str().unwrap(), KEYS[k]);
        assert_eq!(c["count"].as_u64().unwrap(), COUNTS[k] as u64);
    }
    assert_eq!(COUNTS.iter().map(|&c| c as u32).sum::<u32>(), DECK);
}

#[test]
fn shape_and_ids() {
    let g = game();
    assert_eq!(g.num_distinct_actions(), 409);
    assert_eq!(g.observation_shape(), vec![3430]);
    assert_eq!(g.max_chance_outcomes(), 30);
    assert_eq!(g.max_game_length(), 8 + 80 * (40 + 80 * 15));
}

#[test]
fn random_playouts_end() {
    let g = game();
    let mut over_by_medals = 0;
    for seed in 0..60 {
        let (s, _) = random_game(&g, seed, seed < 12);
        let mut r = [0.0; 2];
        s.returns(&mut r);
        assert!((r[0] + r[1] - 1.0).abs() < 1e-9);
        if s.winner != Some(-1) && s.turns[0] + s.turns[1] < 80 {
            over_by_medals += 1;
        }
    }
    assert!(over_by_medals >= 0);
}

#[test]
fn long_random_playouts_reach_medals() {
    let mut p = Params::new();
    p.insert("turn_limit".into(), ParamValue::Int(1000));
    let g = Memoir44Game::new(&p).unwrap();
    let mut by_medals = 0;
    let mut total_turns = 0;
    for seed in 0..20 {
        let (s, _) = random_game(&g, 1000 + seed, false);
        total_turns += s.turns[0] as u32 + s.turns[1] as u32;
        if (s.turns[0] as u32 + s.turns[1] as u32) < 1000 {
            by_medals += 1;
            let w = s.winner.unwrap() as usize;
            assert!(s.score(w) >= s.rules.victory[w] as u32);
        }
    }
    eprintln!("by medals {by_medals}/20, mean turns {}", total_turns / 20);
    assert!(by_medals > 10);
}

// ---- small positions ----

fn h(r: i8, c: i8) -> usize {
    Hex::new(r, c).index().unwrap()
}

/// A play-phase position of Pegasus Bridge's board with only the given units, seat 0 to play `hand0`.
fn pos(units: &[(usize, u8, rules::Kind, bool)], hand0: &[u8], hand1: &[u8]) -> Memoir44State {
    let g = game();
    let mut s = g.new_initial_state();
    s.units = [None; NUM_HEXES];
    for &(i, seat, kind, special) in units {
        s.units[i] = Some(rules::Unit::new(seat, kind, special));
    }
    s.wire = 0;
    s.sand = 0;
    s.deck = COUNTS;
    s.hands = [[0; TYPES]; 2];
    for (p, hand) in [hand0, hand1].iter().enumerate() {
        for &k in hand.iter() {
            s.deck[k as usize] -= 1;
            s.hands[p][k as usize] += 1;
        }
    }
    s.phase = Phase::Play;
    s.active = 0;
    s.turns = [1, 0];
    roundtrip(&g, &s)
}

fn roundtrip(g: &Memoir44Game, s: &Memoir44State) -> Memoir44State {
    let text = s.serialize(&[]);
    let (back, _) = g
        .deserialize_state(&text)
        .unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(&back, s);
    back
}

fn legal(s: &Memoir44State) -> Vec<u32> {
    let mut v = Vec::new();
    s.legal_actions(&mut v);
    v
}

fn act(s: &mut Memoir44State, text: &str) {
    let a = s.string_to_action(text).unwrap();
    s.apply_action(a)
        .unwrap_or_else(|e| panic!("{text}: {e}\n{}", s.serialize(&[])));
}

use rules::Kind::{Armor, Artillery, Infantry};

#[test]
fn dice_weights() {
    let mut s = pos(
        &[
            (h(6, 16), 0, Infantry, false),
            (h(5, 15), 1, Infantry, false),
        ],
        &[4, 3],
        &[4],
    );
    act(&mut s, "play probe_center");
    // the only centre unit is ordered automatically? No: order is a decision.
    act(&mut s, "order 6,16");
    // move phase: the unit may move; it stays (done), then battles.
    act(&mut s, "done");
    assert_eq!(s.phase, Phase::Battle);
    act(&mut s, "unit 6,16");
    act(&mut s, "to 5,15");
    // Ambush is in the deck (not discarded, not played): the window opens for the defender.
    assert_eq!(s.phase, Phase::Ambush);
    assert_eq!(s.current_player(), 1);
    assert_eq!(legal(&s), vec![A_PASS]);
    act(&mut s, "pass");
    assert_eq!(s.phase, Phase::Dice);
    let mut w = Vec::new();
    s.chance_weights(&mut w);
    assert_eq!(w, vec![(0, 2), (1, 1), (2, 1), (3, 1), (4, 1)]);
    assert_eq!(s.battle.unwrap().cur.dice, 3);
}

#[test]
fn reach_and_terrain() {
    let s = pos(&[(h(8, 2), 0, Infantry, false)], &[3], &[4]);
    // Open ground: 2 hexes for infantry.
    let r = s.reach(h(6, 6), 2, false);
    assert_eq!(r[h(4, 6)], 2);
    assert_eq!(r[h(8, 6)], 2);
    assert_eq!(r[h(6, 10)], u8::MAX); // a river bend
    assert_eq!(r[h(3, 5)], u8::MAX);
    // Pegasus Bridge: 4,0 is a village: entered, never left.
    let r = s.reach(h(5, 1), 2, false);
    assert_eq!(r[h(4, 0)], 1);
    // the river 4,4 is impassable
    let r = s.reach(h(5, 5), 3, false);
    assert_eq!(r[h(4, 4)], u8::MAX);
    // the bridge 2,6 is passable
    let r = s.reach(h(3, 7), 1, false);
    assert_eq!(r[h(2, 6)], 1);
}

#[test]
fn stops_block_the_search() {
    let mut s = pos(&[(h(8, 2), 0, Infantry, false)], &[3], &[4]);
    s.wire = 1u128 << h(6, 8);
    let r = s.reach(h(7, 7), 2, false);
    assert_eq!(r[h(6, 8)], 1);
    assert_eq!(r[h(5, 9)], u8::MAX); // only through the wire on 6,8 (6,10 is a river bend)
    let r2 = s.reach(h(7, 7), 2, true);
    assert_eq!(r2[h(5, 9)], 2);
    let _ = r;
}

#[test]
fn infantry_dice_by_range_and_cover() {
    // Infantry on 6,6 shooting: 3,2,1 at range 1,2,3 on open ground.
    let s = pos(
        &[(h(6, 6), 0, Infantry, false), (h(3, 9), 1, Infantry, false)],
        &[3],
        &[4],
    );
    let mut t = s.clone();
    t.units[h(6, 6)].as_mut().unwrap().ordered = true;
    t.card = Some(4);
    t.played = Some(4);
    t.phase = Phase::Battle;
    // range 3 at 3,9: 1 die.
    assert_eq!(t.clone().declare_for_test(h(6, 6), h(3, 9)), 1);
    let mut u = t.clone();
    u.units[h(3, 9)] = None;
    u.units[h(4, 8)] = Some(rules::Unit::new(1, Infantry, false));
    assert_eq!(u.declare_for_test(h(6, 6), h(4, 8)), 2);
    // armor at range 2 against a forest (3,19): 3 - 2 = 1
    let mut a = pos(
        &[(h(5, 19), 0, Armor, false), (h(3, 19), 1, Infantry, false)],
        &[3],
        &[4],
    );
    a.units[h(5, 19)].as_mut().unwrap().ordered = true;
    a.card = Some(4);
    assert_eq!(a.declare_for_test(h(5, 19), h(3, 19)), 1);
    // artillery needs no line of sight, range 6 -> 1
    let mut g = pos(
        &[
            (h(8, 12), 0, Artillery, false),
            (h(2, 12), 1, Infantry, false),
            (h(5, 9), 1, Infantry, false),
        ],
        &[3],
        &[4],
    );
    g.units[h(8, 12)].as_mut().unwrap().ordered = true;
    g.card = Some(4);
    assert_eq!(g.declare_for_test(h(8, 12), h(2, 12)), 1);
}

#[test]
fn retreat_and_elimination_medal() {
    let g = game();
    let mut s = pos(
        &[
            (h(6, 16), 0, Infantry, false),
            (h(5, 15), 1, Infantry, false),
        ],
        &[4],
        &[4],
    );
    s.discard[AMBUSH as usize] = 1;
    s.deck[AMBUSH as usize] = 0;
    let mut s = roundtrip(&g, &s);
    act(&mut s, "play probe_center");
    act(&mut s, "order 6,16");
    act(&mut s, "done");
    act(&mut s, "unit 6,16");
    act(&mut s, "to 5,15");
    assert_eq!(s.phase, Phase::Dice); // Ambush is discarded: no window
    act(&mut s, "die flag");
    act(&mut s, "die star");
    act(&mut s, "die infantry");
    // one hit, one flag: the top seat retreats toward row 0.
    assert_eq!(s.phase, Phase::Retreat);
    assert_eq!(s.current_player(), 1);
    assert_eq!(
        legal(&s),
        vec![A_TO + h(4, 14) as u32, A_TO + h(4, 16) as u32]
    );
    let s_mid = roundtrip(&g, &s);
    act(&mut s, "to 4,16");
    assert_eq!(s.unit_at(h(4, 16)).unwrap().figures, 3);
    // take ground: the hex 5,7 is empty
    assert_eq!(s.phase, Phase::Advance);
    act(&mut s, "advance");
    assert!(s.unit_at(h(5, 15)).is_some());
    let _ = s_mid;
    // now an elimination: a 1-figure unit hit once gives a medal
    let mut e = pos(
        &[
            (h(6, 16), 0, Infantry, false),
            (h(5, 15), 1, Infantry, false),
        ],
        &[4],
        &[4],
    );
    e.units[h(5, 15)].as_mut().unwrap().figures = 1;
    e.discard[AMBUSH as usize] = 1;
    e.deck[AMBUSH as usize] = 0;
    let mut e = roundtrip(&g, &e);
    act(&mut e, "play probe_center");
    act(&mut e, "order 6,16");
    act(&mut e, "done");
    act(&mut e, "unit 6,16");
    act(&mut e, "to 5,15");
    act(&mut e, "die grenade");
    act(&mut e, "die star");
    act(&mut e, "die star");
    assert_eq!(e.medals, [1, 0]);
    assert!(e.unit_at(h(5, 15)).is_none());
}

#[test]
fn no_retreat_costs_a_figure() {
    let g = game();
    // A bottom-seat unit on row 8 cannot retreat.
    let mut s = pos(
        &[
            (h(7, 11), 1, Infantry, false),
            (h(8, 12), 0, Infantry, false),
        ],
        &[4],
        &[4],
    );
    s.active = 1;
    s.turns = [1, 1];
    s.hands = [[0; TYPES]; 2];
    s.deck = COUNTS;
    s.deck[4] -= 1;
    s.hands[1][4] = 1;
    s.deck[3] -= 1;
    s.hands[0][3] = 1;
    s.discard[AMBUSH as usize] = 1;
    s.deck[AMBUSH as usize] -= 1;
    let mut s = roundtrip(&g, &s);
    act(&mut s, "play probe_center");
    act(&mut s, "order 7,11");
    act(&mut s, "done");
    act(&mut s, "unit 7,11");
    act(&mut s, "to 8,12");
    act(&mut s, "die flag");
    act(&mut s, "die flag");
    act(&mut s, "die star");
    assert_eq!(s.unit_at(h(8, 12)).unwrap().figures, 2);
}

#[test]
fn counter_attack_mirrors() {
    let mut s = pos(
        &[
            (h(6, 22), 0, Infantry, false),
            (h(1, 21), 1, Infantry, false),
        ],
        &[COUNTER_ATTACK, 3],
        &[4],
    );
    s.last[1] = Some((0, None)); // recon_left
    let g = game();
    let mut s = roundtrip(&g, &s);
    act(&mut s, "play counter_attack");
    assert_eq!(s.card, Some(2));
    assert_eq!(legal(&s), vec![A_ORDER + h(6, 22) as u32, A_DONE]);
    act(&mut s, "done");
    // the turn ends with Recon's draw of two
    assert_eq!(s.phase, Phase::Draw);
    assert_eq!(s.recon_draws, 2);
    act(&mut s, "draw probe_center");
    act(&mut s, "draw attack_left");
    assert_eq!(s.phase, Phase::Keep);
    assert_eq!(legal(&s), vec![A_KEEP + 4, A_KEEP + 6]);
    act(&mut s, "keep attack_left");
    assert_eq!(s.discard[4], 1);
    assert_eq!(s.discard[COUNTER_ATTACK as usize], 1);
    assert_eq!(s.phase, Phase::Play);
    assert_eq!(s.active, 1);
    assert_eq!(s.last[0], Some((2, None)));
    // nothing to copy: the turn goes to its end
    let mut t = pos(
        &[
            (h(6, 22), 0, Infantry, false),
            (h(1, 21), 1, Infantry, false),
        ],
        &[COUNTER_ATTACK, 3],
        &[4],
    );
    act(&mut t, "play counter_attack");
    assert_eq!(t.phase, Phase::Draw);
    assert_eq!(t.draws, 1);
    assert_eq!(t.card, None);
    act(&mut t, "draw probe_left");
    assert_eq!(t.last[0], None);
}

#[test]
fn extra_draws_grow_the_axis_hand() {
    let g = game();
    let mut s = g.new_initial_state();
    let mut rng = Rng::new(7);
    let mut scratch = Vec::new();
    while s.phase == Phase::Deal {
        let a = s.sample_chance(&mut rng, &mut scratch).unwrap();
        s.apply_action(a).unwrap();
    }
    assert_eq!(state::hand_size(&s.hands[0]), 6);
    assert_eq!(state::hand_size(&s.hands[1]), 2);
    assert_eq!(s.active, 0);
    assert_eq!(s.turns, [1, 0]);
}

#[test]
fn ambush_voids_a_beaten_attack() {
    let g = game();
    let mut s = pos(
        &[
            (h(6, 16), 0, Infantry, false),
            (h(5, 15), 1, Infantry, false),
        ],
        &[4],
        &[AMBUSH],
    );
    s = roundtrip(&g, &s);
    act(&mut s, "play probe_center");
    act(&mut s, "order 6,16");
    act(&mut s, "done");
    act(&mut s, "unit 6,16");
    act(&mut s, "to 5,15");
    assert_eq!(legal(&s), vec![A_AMBUSH, A_PASS]);
    act(&mut s, "ambush");
    assert_eq!(s.ambush, Some(1));
    let b = s.battle.unwrap();
    assert_eq!(b.cur.kind, state::BKind::Ambush);
    assert_eq!(b.cur.target as usize, h(6, 16));
    assert_eq!(b.cur.dice, 3);
    let mid = roundtrip(&g, &s);
    let _ = mid;
    act(&mut s, "die flag");
    act(&mut s, "die star");
    act(&mut s, "die star");
    // the attacker retreats (its own seat chooses), and its attack is void
    assert_eq!(s.phase, Phase::Retreat);
    assert_eq!(s.current_player(), 0);
    act(&mut s, "to 7,15");
    // back to battle; nothing else can battle: the turn ends; the ambusher draws first
    assert_eq!(s.phase, Phase::Draw);
    assert_eq!(s.drawer, Some(1));
    assert_eq!(s.discard[AMBUSH as usize], 1);
}

#[test]
fn their_finest_hour_reshuffles() {
    let g = game();
    let mut s = pos(
        &[
            (h(6, 6), 0, Infantry, false),
            (h(1, 21), 1, Infantry, false),
        ],
        &[THEIR_FINEST_HOUR, 3],
        &[4],
    );
    s.discard[5] = 2;
    s.deck[5] -= 2;
    let mut s = roundtrip(&g, &s);
    act(&mut s, "play their_finest_hour");
    assert_eq!(s.phase, Phase::Roll);
    assert_eq!(s.roll.unwrap().dice, 2);
    act(&mut s, "die infantry");
    act(&mut s, "die flag");
    // one infantry face: one infantry unit may be ordered
    assert_eq!(legal(&s), vec![A_ORDER + h(6, 6) as u32, A_DONE]);
    act(&mut s, "order 6,6");
    act(&mut s, "unit 6,6");
    act(&mut s, "to 5,7");
    // no battle possible: the turn ends, the discard pile (TFH included) goes back into the deck
    assert_eq!(s.phase, Phase::Draw);
    assert_eq!(s.discard, [0; TYPES]);
    assert_eq!(s.deck[THEIR_FINEST_HOUR as usize], 1);
}

#[test]
fn fuzz_mutations_never_panic() {
    let g = game();
    let mut rng = Rng::new(99);
    let mut texts = Vec::new();
    for seed in 0..4 {
        let mut s = g.new_initial_state();
        let mut r = Rng::new(seed);
        let mut buf = Vec::new();
        let mut scratch = Vec::new();
        let mut n = 0;
        while !s.is_terminal() && n < 3000 {
            if n % 50 == 0 {
                texts.push(s.serialize(&[]));
            }
            n += 1;
            if s.is_chance_node() {
                let a = s.sample_chance(&mut r, &mut scratch).unwrap();
                s.apply_action(a).unwrap();
            } else {
                s.legal_actions(&mut buf);
                let a = buf[r.below(buf.len() as u64) as usize];
                s.apply_action(a).unwrap();
            }
        }
    }
    let repl = [
        "0", "1", "2", "null", "true", "\"3,7\"", "[]", "-1", "7", "\"over\"",
    ];
    let mut accepted = 0;
    for t in &texts {
        for _ in 0..40 {
            let bytes: Vec<char> = t.chars().collect();
            let i = rng.below(bytes.len() as u64) as usize;
            // replace a token: find the value boundary after position i
            let start = i;
            let end = (start + 1 + rng.below(6) as usize).min(bytes.len());
            let r = repl[rng.below(repl.len() as u64) as usize];
            let m: String = bytes[..start].iter().collect::<String>()
                + r
                + &bytes[end..].iter().collect::<String>();
            if let Ok((s, _)) = g.deserialize_state(&m) {
                accepted += 1;
                // play a few random steps without panicking
                let mut s = s;
                let mut buf = Vec::new();
                let mut scratch = Vec::new();
                let mut rr = Rng::new(1);
                let mut tensor = vec![0f32; observation::LEN];
                s.observation_tensor(0, &mut tensor);
                let _ = s.observation_string(1);
                for _ in 0..200 {
                    if s.is_terminal() {
                        break;
                    }
                    if s.is_chance_node() {
                        match s.sample_chance(&mut rr, &mut scratch) {
                            Some(a) => s.apply_unchecked(a),
                            None => break,
                        }
                    } else {
                        s.legal_actions(&mut buf);
                        if buf.is_empty() {
                            break;
                        }
                        let a = buf[rr.below(buf.len() as u64) as usize];
                        s.apply_unchecked(a);
                    }
                }
            }
        }
    }
    eprintln!("accepted {accepted} mutations");
}

#[test]
fn resample_keeps_what_p_knows() {
    let g = game();
    let (s, _) = {
        let mut s = g.new_initial_state();
        let mut r = Rng::new(3);
        let mut scratch = Vec::new();
        let mut buf = Vec::new();
        for _ in 0..200 {
            if s.is_terminal() {
                break;
            }
            if s.is_chance_node() {
                let a = s.sample_chance(&mut r, &mut scratch).unwrap();
                s.apply_action(a).unwrap();
            } else {
                s.legal_actions(&mut buf);
                let a = buf[r.below(buf.len() as u64) as usize];
                s.apply_action(a).unwrap();
            }
        }
        (s, 0)
    };
    let mut rng = Rng::new(5);
    for p in 0..2 {
        let t = s.resample_from_infostate(p, &mut rng);
        assert_eq!(t.hands[p], s.hands[p]);
        assert_eq!(
            state::hand_size(&t.hands[1 - p]),
            state::hand_size(&s.hands[1 - p])
        );
        let mut a = vec![0f32; observation::LEN];
        let mut b = vec![0f32; observation::LEN];
        s.observation_tensor(p, &mut a);
        t.observation_tensor(p, &mut b);
        assert_eq!(a, b);
        g.deserialize_state(&t.serialize(&[])).unwrap();
    }
}
