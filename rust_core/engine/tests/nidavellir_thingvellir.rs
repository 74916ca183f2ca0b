//! Thingvellir (docs/rules/thingvellir.md): the expansion's parameters and components in the Rust core.

mod mutate;
use meeplex_engine::games::nidavellir::data::*;
use meeplex_engine::games::nidavellir::{Item, NidavellirGame, NidavellirState, Phase, Word};
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
            for _ in 0..60 {
                let mutated = mutate::one_int(&text, &mut rng, 60);
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

fn act(s: &mut NidavellirState, text: &str) {
    let a = s
        .string_to_action(text)
        .unwrap_or_else(|e| panic!("{text}: {e}\n{}", s.to_text()));
    s.apply_action(a)
        .unwrap_or_else(|e| panic!("{text}: {e}\n{}", s.to_text()));
}

fn legal(s: &NidavellirState) -> Vec<String> {
    let mut out = Vec::new();
    s.legal_actions(&mut out);
    out.into_iter()
        .map(|a| s.action_to_string(a).unwrap())
        .collect()
}

fn has(s: &NidavellirState, text: &str) -> bool {
    legal(s).iter().any(|t| t == text)
}

fn camp_id(key: &str) -> usize {
    data().tv.camp_keys.iter().position(|k| k == key).unwrap()
}

/// n seats (gems 1.. in seat order, the highest last), taverns of Blacksmiths, the camp of `camp`, and the
/// bids: seat q bids `bids[q]`.
fn start(g: &NidavellirGame, camp: &[&str], bids: &[[&str; 3]]) -> NidavellirState {
    let n = g.num_players();
    let mut s = g.new_initial_state();
    s.decks[0][0] = 40;
    let gems = &data().gems[n];
    for v in gems {
        act(&mut s, &format!("gem {v}"));
    }
    let c = data().cards[n] as usize;
    for _ in 0..3 * c {
        assert_eq!(s.phase, Phase::Fill);
        act(&mut s, "card blacksmith");
    }
    for m in camp {
        assert_eq!(s.phase, Phase::CampFill);
        act(&mut s, &format!("camp {m}"));
    }
    // The rest of the camp from the deck's first cards.
    while s.phase == Phase::CampFill {
        let mut acts = Vec::new();
        s.legal_actions(&mut acts);
        s.apply_action(acts[0]).unwrap();
    }
    for three in bids {
        for c in three {
            act(&mut s, &format!("bid {c}"));
        }
    }
    s
}

const HIGH: [[&str; 3]; 3] = [["b5", "b4", "b3"], ["b4", "b5", "b2"], ["b3", "b2", "b5"]];

#[test]
fn camp_fill_and_visit_rights() {
    let g = tv_game(3, &[]);
    let mut s = start(&g, &["draupnir", "svalinn"], &HIGH);
    assert_eq!(s.camp.count_ones(), 5);
    assert_eq!(s.camp_deck.count_ones(), 7);
    assert_eq!(s.phase, Phase::Take);
    assert_eq!(s.current, 0);
    assert!(has(&s, "camp draupnir"));
    act(&mut s, "camp draupnir");
    assert!(s.camp_visited);
    assert!(s.seats[0].has_camp(camp_id("draupnir")));
    // Seat 1 (no Fafnir) may not visit.
    assert_eq!(s.current, 1);
    assert!(!legal(&s).iter().any(|t| t.starts_with("camp")));
    act(&mut s, "take blacksmith");
    act(&mut s, "take blacksmith");
    // The leftover goes to the discard pile (3 players, a camp take).
    assert_eq!(s.discard[0], 1);
    assert!(!s.camp_visited);
    // Dragon: seat 1 first; seat 0 (Fafnir owner) second may visit if seat 1 did not.
    s.seats[0].camp_cards |= 1 << FAFNIR;
    assert_eq!(s.current, 1);
    act(&mut s, "take blacksmith");
    assert_eq!(s.current, 0);
    assert!(has(&s, "camp svalinn"));
    act(&mut s, "camp svalinn");
    assert!(s.camp_visited);
    act(&mut s, "take blacksmith");
    // Horse: seat 2 first visits; then the Fafnir owner may not.
    assert_eq!(s.current, 2);
    let first = legal(&s)
        .into_iter()
        .find(|t| t.starts_with("camp"))
        .unwrap();
    act(&mut s, &first);
    assert_eq!(s.current, 0);
    assert!(!legal(&s).iter().any(|t| t.starts_with("camp")));
}

#[test]
fn two_player_tavern_discard() {
    for discard in [true, false] {
        let g = tv_game(2, &[("two_player_camp_discard", ParamValue::Bool(discard))]);
        let mut s = start(&g, &["draupnir"], &[["b5", "b4", "b3"], ["b4", "b5", "b2"]]);
        act(&mut s, "camp draupnir");
        if discard {
            assert_eq!(s.phase, Phase::TavernDiscard);
            assert_eq!(s.current, 0);
            assert_eq!(legal(&s), ["drop blacksmith"]);
            act(&mut s, "drop blacksmith");
            assert_eq!(s.discard[0], 1);
        }
        assert_eq!(s.phase, Phase::Take);
        assert_eq!(s.current, 1);
        act(&mut s, "take blacksmith");
        // The tavern's leftovers to the discard pile.
        assert_eq!(s.discard[0], 2);
    }
}

fn give_mercs(s: &mut NidavellirState, q: usize, keys: &[&str]) {
    for k in keys {
        let m = camp_id(k);
        s.camp_deck &= !(1 << m);
        s.camp &= !(1 << m);
        s.seats[q].camp_cards |= 1 << m;
    }
}

#[test]
fn enlistment_order_both_ways() {
    for (chooser, choice, want) in [
        ("most", "enlist first", vec![1u8, 2, 0]),
        ("most", "enlist last", vec![2, 0, 1]),
        ("lowest_gem", "enlist first", vec![0, 1, 2]),
        ("lowest_gem", "enlist last", vec![1, 2, 0]),
    ] {
        let g = tv_game(3, &[("enlist_chooser", ParamValue::Str(chooser.into()))]);
        let mut s = start(&g, &[], &HIGH);
        s.camp = 0;
        s.camp_deck = 0;
        // Seat 1 has two, seats 0 and 2 one each (seat 2's gem is the higher).
        give_mercs(&mut s, 1, &["w6e8", "hm1"]);
        give_mercs(&mut s, 0, &["bm1"]);
        give_mercs(&mut s, 2, &["w6b"]);
        s.enqueue(Item::global(Word::EnlistOrder, 0));
        s.settle();
        assert_eq!(s.phase, Phase::EnlistOrder);
        let chooser_seat = if chooser == "most" { 1 } else { 0 };
        assert_eq!(s.current, chooser_seat);
        assert_eq!(legal(&s), ["enlist first", "enlist last"]);
        act(&mut s, choice);
        assert_eq!(s.enlist_order(), &want[..]);
        for &q in &want {
            while s.phase == Phase::Enlist && s.current == q as i8 {
                let first = legal(&s)[0].clone();
                act(&mut s, &first);
                while s.phase == Phase::Hero || s.phase == Phase::Thrud {
                    let l = legal(&s)[0].clone();
                    act(&mut s, &l);
                }
            }
        }
        assert_eq!(s.enlist_order(), &[] as &[u8]);
        assert!((0..3).all(|q| s.seats[q].unplaced() == 0));
        // w6e8 enlisted as a Warrior 6 by seat 1.
        assert!(s.seats[1].col(WARRIOR).contains(&(MERCENARY_ENTRY)));
    }
}

#[test]
fn enlist_texts_and_points() {
    let g = tv_game(2, &[]);
    let mut s = start(&g, &[], &[["b5", "b4", "b3"], ["b4", "b5", "b2"]]);
    s.camp = 0;
    s.camp_deck = 0;
    give_mercs(&mut s, 0, &["he8"]);
    let before = s.value(0);
    s.enqueue(Item::global(Word::EnlistOrder, 0));
    s.settle();
    act(&mut s, "enlist first");
    assert_eq!(legal(&s), ["enlist he8 hunter", "enlist he8 explorer"]);
    act(&mut s, "enlist he8 explorer");
    assert_eq!(s.value(0), before + 8);
    assert_eq!(s.seats[0].col_ranks(EXPLORER, false), 1);
}

/// Take camp card `key` as the first seat of the goblin (3 players).
fn take_camp(key: &str) -> NidavellirState {
    let g = tv_game(3, &[]);
    let mut s = start(&g, &[key], &HIGH);
    act(&mut s, &format!("camp {key}"));
    s
}

#[test]
fn vegvisir_enters_the_explorer_column() {
    let s = take_camp("vegvisir");
    assert_eq!(s.seats[0].col(EXPLORER), &[VEGVISIR_ENTRY]);
    assert!(!s.seats[0].has_camp(VEGVISIR));
    assert_eq!(s.seats[0].col_ranks(EXPLORER, false), 1);
    assert_eq!(s.value(0), 13 + 14);
}

#[test]
fn scoring_artefacts() {
    for (key, points) in [("megingjord", 28), ("svalinn", 0), ("draupnir", 0)] {
        let s = take_camp(key);
        assert_eq!(s.value(0), 14 + points, "{key}");
    }
    let mut s = take_camp("svalinn");
    s.seats[0].heroes[SKAA] = 1;
    s.seats[0].tv_heroes = 1;
    assert_eq!(s.value(0), 14 + 17 + 12 + 10);
}

#[test]
fn vidofnir_two_and_three() {
    let g = tv_game(3, &[]);
    // Bids b5 b4 b3, pouch b0 b2: one non-trading coin, +5.
    let mut s = start(&g, &["vidofnir"], &HIGH);
    act(&mut s, "camp vidofnir");
    assert_eq!(s.phase, Phase::Vidofnir);
    assert_eq!(legal(&s), ["vidofnir b2"]);
    act(&mut s, "vidofnir b2");
    assert_eq!(s.seats[0].hand[8], 1); // t7
                                       // Two non-trading coins: +2 then +3 on the other.
    let mut s = start(
        &g,
        &["vidofnir"],
        &[["b5", "b0", "b4"], ["b4", "b5", "b2"], ["b3", "b2", "b5"]],
    );
    act(&mut s, "camp vidofnir");
    assert_eq!(legal(&s), ["vidofnir b2", "vidofnir b3"]);
    act(&mut s, "vidofnir b3");
    assert_eq!(legal(&s), ["vidofnir b2"]);
    act(&mut s, "vidofnir b2");
    let h = s.seats[0].hand;
    assert_eq!((h[1], h[2], h[6]), (0, 0, 2)); // b3 + 2 and b2 + 3: two t5
}

#[test]
fn jarnglofi_discards_the_trading_coin() {
    let g = tv_game(3, &[]);
    let mut s = start(
        &g,
        &[],
        &[["b5", "b4", "b0"], ["b4", "b5", "b2"], ["b3", "b2", "b5"]],
    );
    // Age II's Jarnglofi put in the camp by hand.
    s.camp |= 1 << JARNGLOFI;
    act(&mut s, "camp jarnglofi");
    assert_eq!(s.seats[0].owned().iter().sum::<u8>(), 4);
    assert_eq!(s.seats[0].bids[2], NONE);
    assert_eq!(s.value(0), 24 + 14);
    // At the horse, seat 0 is left out of the order.
    act(&mut s, "take blacksmith");
    act(&mut s, "take blacksmith");
    for _ in 0..3 {
        let t = legal(&s)[0].clone();
        act(&mut s, &t);
    }
    assert_eq!(s.tavern, 2);
    assert_eq!(&s.order[..s.order_len as usize], &[2, 1]);
    assert_eq!(s.reveal[0], -1);
}

#[test]
fn hofud_each_other_seat_discards_a_warrior() {
    let g = tv_game(3, &[]);
    let mut s = start(&g, &[], &HIGH);
    s.seats[1].cols[WARRIOR][0] = 13;
    s.seats[1].col_len[WARRIOR] = 1;
    s.camp |= 1 << HOFUD;
    act(&mut s, "camp hofud");
    // Seat 1 discards; seat 2 has none and is skipped.
    assert_eq!(s.phase, Phase::Hofud);
    assert_eq!(s.current, 1);
    assert_eq!(legal(&s), ["remove warrior3"]);
    act(&mut s, "remove warrior3");
    assert_eq!(s.discard[13], 1);
    assert_eq!(s.phase, Phase::Take);
    assert_eq!(s.current, 1);
}

#[test]
fn gjallarhorn_forces_a_hero_and_megingjord_blocks_lines() {
    let g = tv_game(3, &[]);
    let mut s = start(&g, &[], &HIGH);
    s.camp |= 1 << GJALLARHORN;
    act(&mut s, "camp gjallarhorn");
    assert_eq!(s.phase, Phase::Hero);
    assert!(!has(&s, "hero andumia")); // the discard pile is empty
    assert!(has(&s, "hero holda"));
    act(&mut s, "hero jarika");
    assert!(s.seats[0].has_tv_hero(JARIKA));
    // Megingjord: lines do not recruit.
    let mut s = take_camp("megingjord");
    for j in 0..CLASSES {
        s.seats[0].cols[j][0] = [0, 1, 2, 10, 13][j];
        s.seats[0].col_len[j] = 1;
    }
    s.enqueue(Item::new(Word::Recruit, 0, 0));
    s.settle();
    assert_ne!(s.phase, Phase::Hero);
}

#[test]
fn thingvellir_heroes() {
    let g = tv_game(3, &[]);
    // Andumia picks from the discard pile; Holda from the camp; Khrad +10 on the lowest coin; Olwyn twice.
    let mut s = start(&g, &["draupnir"], &HIGH);
    s.discard[13] = 1;
    s.enqueue(Item::new(Word::ForcedHero, 0, 0));
    s.settle();
    act(&mut s, "hero andumia");
    assert_eq!(s.phase, Phase::Andumia);
    act(&mut s, "pick warrior3");
    assert_eq!(s.seats[0].col(WARRIOR), &[13]);
    s.enqueue(Item::new(Word::ForcedHero, 0, 0));
    s.settle();
    act(&mut s, "hero holda");
    assert_eq!(s.phase, Phase::Holda);
    act(&mut s, "camp draupnir");
    assert!(s.seats[0].has_camp(DRAUPNIR));
    s.enqueue(Item::new(Word::ForcedHero, 0, 0));
    s.settle();
    act(&mut s, "hero khrad");
    assert_eq!(s.phase, Phase::Khrad);
    // Seat 0's non-trading coins: b5 b4 b3 bid, b2 in hand: the lowest is b2.
    assert_eq!(legal(&s), ["transform b2"]);
    act(&mut s, "transform b2");
    assert_eq!(s.seats[0].hand[13], 1); // t12
    s.enqueue(Item::new(Word::ForcedHero, 0, 0));
    s.settle();
    act(&mut s, "hero olwyn");
    assert_eq!(s.phase, Phase::Olwyn);
    act(&mut s, "column hunter");
    assert!(!has(&s, "column hunter"));
    act(&mut s, "column miner");
    assert_eq!(s.seats[0].col(HUNTER), &[OLWYN_ENTRY]);
    assert_eq!(s.seats[0].col(MINER), &[OLWYN_ENTRY + 1]);
    assert_eq!(s.seats[0].hero_count(), 4);
    s.enqueue(Item::new(Word::ForcedHero, 0, 0));
    s.settle();
    act(&mut s, "hero zolkur");
    assert!(s.seats[0].zolkur);
    let text = s.serialize(&[]);
    assert!(text.contains("\"zolkur\":true"));
}

#[test]
fn zolkur_and_jarika_on_a_trade() {
    let g = tv_game(3, &[]);
    let mut s = start(
        &g,
        &[],
        &[["b0", "b4", "b3"], ["b4", "b5", "b2"], ["b3", "b2", "b5"]],
    );
    s.seats[0].zolkur = true;
    s.seats[0].tv_heroes = 1 << (ZOLKUR - HEROES) | 1 << (JARIKA - HEROES);
    s.tv_heroes_left &= !s.seats[0].tv_heroes;
    // Goblin: seat 1 (b4), seat 2 (b3), seat 0 (b0) trades b2 + b5 (+2): t9; Zolkur drops b2.
    act(&mut s, "take blacksmith");
    act(&mut s, "take blacksmith");
    act(&mut s, "take blacksmith");
    let h = s.seats[0].hand;
    assert_eq!((h[1], h[4], h[10]), (0, 1, 1));
    assert!(!s.seats[0].zolkur);
}

#[test]
fn brisingamens_picks_and_end_discard() {
    let g = tv_game(3, &[]);
    let mut s = start(&g, &[], &HIGH);
    s.discard[13] = 1;
    s.discard[2] = 1;
    s.camp |= 1 << BRISINGAMENS;
    act(&mut s, "camp brisingamens");
    assert_eq!(s.phase, Phase::Brisingamens);
    act(&mut s, "pick warrior3");
    assert_eq!(s.phase, Phase::Brisingamens);
    act(&mut s, "pick explorer5");
    assert_eq!(s.discard.iter().sum::<u8>(), 0);
    s.enqueue(Item::new(Word::BrisEnd, 0, 0));
    // Not settled here: the queue holds other items first; play them out.
    while s.phase != Phase::BrisColumn {
        let t = legal(&s)[0].clone();
        act(&mut s, &t);
        if s.phase == Phase::Over {
            panic!("no bris_column");
        }
    }
    assert_eq!(s.current, 0);
    assert!(has(&s, "discard warrior"));
    act(&mut s, "discard warrior");
    assert_eq!(legal(&s), ["remove warrior3"]);
    act(&mut s, "remove warrior3");
    assert!(!s.seats[0].col(WARRIOR).contains(&13));
}

#[test]
fn camp_clear_at_age_two() {
    let g = tv_game(2, &[]);
    let states = random_game(&g, 77);
    let i = states.iter().position(|(s, _)| s.age == 2).unwrap();
    let (s, _) = &states[i];
    assert_eq!(s.camp & AGE1_MASK, 0);
    assert_eq!(s.camp_deck & AGE1_MASK, 0);
}

const AGE1_MASK: u32 = 0xFFF;

#[test]
fn camp_take_refused_to_others() {
    let g = tv_game(3, &[]);
    let mut s = start(&g, &["draupnir"], &HIGH);
    act(&mut s, "take blacksmith");
    assert_eq!(s.current, 1);
    let a = s.string_to_action("camp draupnir").unwrap();
    let before = s.serialize(&[]);
    assert!(matches!(
        s.apply_action(a),
        Err(GameError::IllegalAction(_))
    ));
    assert_eq!(s.serialize(&[]), before);
    // The base game knows no camp.
    let base = NidavellirGame::new(&params(&[])).unwrap();
    let b = base.new_initial_state();
    assert!(b.string_to_action("camp draupnir").is_err());
}

#[test]
fn thrud_lifted_by_a_mercenary() {
    let g = tv_game(2, &[]);
    let mut s = start(&g, &[], &[["b5", "b4", "b3"], ["b4", "b5", "b2"]]);
    s.camp = 0;
    s.camp_deck = 0;
    give_mercs(&mut s, 0, &["w6e8"]);
    s.seats[0].heroes[THRUD] = 1;
    s.heroes_left[THRUD] = 0;
    s.seats[0].thrud = WARRIOR as i8;
    s.seats[0].cols[WARRIOR][0] = THRUD_ENTRY;
    s.seats[0].col_len[WARRIOR] = 1;
    s.enqueue(Item::global(Word::EnlistOrder, 0));
    s.settle();
    act(&mut s, "enlist first");
    act(&mut s, "enlist w6e8 warrior");
    assert_eq!(s.phase, Phase::Thrud);
    act(&mut s, "column warrior");
    assert_eq!(s.seats[0].col(WARRIOR), &[MERCENARY_ENTRY, THRUD_ENTRY]);
}

#[test]
fn jarnglofi_through_holda_drops_the_current_trade() {
    let g = tv_game(3, &[]);
    let mut s = start(
        &g,
        &[],
        &[["b0", "b4", "b3"], ["b4", "b5", "b2"], ["b3", "b2", "b5"]],
    );
    s.camp |= 1 << JARNGLOFI;
    act(&mut s, "take blacksmith");
    act(&mut s, "take blacksmith");
    // Seat 0, last at the goblin with b0: its take queues a trade; Holda (forced here) takes Jarnglofi first.
    assert_eq!(s.current, 0);
    s.enqueue(Item::new(Word::ForcedHero, 0, 0));
    act(&mut s, "take blacksmith");
    act(&mut s, "hero holda");
    act(&mut s, "camp jarnglofi");
    let owned = s.seats[0].owned();
    assert_eq!(owned.iter().sum::<u8>(), 4);
    // No trade: the pouch (b2 b5) is unchanged.
    assert_eq!((owned[1], owned[4]), (1, 1));
}

#[test]
fn gjallarhorn_overrides_megingjord_and_jarika_adds_two() {
    let g = tv_game(3, &[]);
    let mut s = start(&g, &[], &HIGH);
    s.seats[0].camp_cards |= 1 << MEGINGJORD;
    s.camp |= 1 << GJALLARHORN;
    act(&mut s, "camp gjallarhorn");
    assert_eq!(s.phase, Phase::Hero);
    act(&mut s, "hero jarika");
    // Jarika: a Royal Offering +3 becomes +5 (b2 in hand → t7).
    s.enqueue(Item::new(Word::Transform, 0, 3));
    s.settle();
    assert_eq!(s.phase, Phase::Transform);
    act(&mut s, "transform b2");
    assert_eq!(s.seats[0].hand[8], 1);
}

#[test]
fn deserialization_refuses_misplaced_camp_entries() {
    let g = tv_game(2, &[]);
    let states = random_game(&g, 5);
    let (s, h) = &states[12];
    let text = s.serialize(h);
    for bad in [
        // Vegvisir outside the Explorer column; a mercenary (w6e8: Warrior or Explorer) in the Hunters.
        text.replacen("\"army\":[[", "\"army\":[[43,", 1),
        text.replacen("\"army\":[[]", "\"army\":[[46]", 1),
        // Olwyn's doubles without Olwyn.
        text.replacen("\"army\":[[]", "\"army\":[[44]", 1),
        // More than five cards in the camp.
        text.replace("\"camp\":[", "\"camp\":[6,7,8,9,10,11,"),
    ] {
        assert_ne!(bad, text);
        assert!(
            matches!(g.deserialize_state(&bad), Err(GameError::InvalidState(_))),
            "{bad}"
        );
    }
}
