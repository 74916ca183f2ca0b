//! Nidavellir (docs/rules/nidavellir.md): positions played through the notation from the start, or built by
//! editing a state's public fields and settling its queue, each checking one rule of the contract.

mod mutate;
use meeplex_engine::games::nidavellir::data::*;
use meeplex_engine::games::nidavellir::{Item, NidavellirGame, NidavellirState, Phase, Word};
use meeplex_engine::{Game, GameError, ParamValue, Params, Rng, State, CHANCE};

fn game(n: i64) -> NidavellirGame {
    game_with(n, false, false)
}

fn game_with(n: i64, first_game: bool, wbaz: bool) -> NidavellirGame {
    let mut p = Params::new();
    p.insert("players".into(), ParamValue::Int(n));
    p.insert("first_game".into(), ParamValue::Bool(first_game));
    p.insert("warrior_bonus_at_zero".into(), ParamValue::Bool(wbaz));
    NidavellirGame::new(&p).unwrap()
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

/// Deal the gems in seat order.
fn dealt(g: &NidavellirGame, gems: &[u8]) -> NidavellirState {
    let mut s = g.new_initial_state();
    // Room for the all-Blacksmith taverns of these tests.
    s.decks[0][0] = 40;
    for v in gems {
        act(&mut s, &format!("gem {v}"));
    }
    s
}

fn fill(s: &mut NidavellirState, cards: &[&str]) {
    for c in cards {
        assert_eq!(s.phase, Phase::Fill);
        act(s, &format!("card {c}"));
    }
}

/// Every bidder's three coins, in seat order.
fn bid(s: &mut NidavellirState, coins: &[[&str; 3]]) {
    for three in coins {
        for c in three {
            act(s, &format!("bid {c}"));
        }
    }
}

fn put(s: &mut NidavellirState, seat: usize, entries: &[u8]) {
    let d = data();
    for &e in entries {
        let j = if (e as usize) < DWARF_KINDS {
            d.kind_class[e as usize] as usize
        } else if (30..40).contains(&e) {
            d.hero_class[(e - HERO_ENTRY) as usize] as usize
        } else {
            BLACKSMITH
        };
        let st = &mut s.seats[seat];
        let len = st.col_len[j] as usize;
        st.cols[j][len] = e;
        st.col_len[j] += 1;
    }
}

fn hand(s: &NidavellirState, seat: usize) -> Vec<String> {
    let d = data();
    (0..COINS)
        .flat_map(|c| std::iter::repeat_n(d.coin_keys[c].clone(), s.seats[seat].hand[c] as usize))
        .collect()
}

fn kind(name: &str) -> u8 {
    data().kind_keys.iter().position(|k| k == name).unwrap() as u8
}

const B: u8 = 0; // blacksmith
const H: u8 = 1; // hunter
const E5: u8 = 2;
const M1: u8 = 11;
const W3: u8 = 13;

#[test]
fn setup_and_gem_deal() {
    for (n, gems) in [
        (2, vec![4, 5]),
        (3, vec![3, 4, 5]),
        (4, vec![2, 3, 4, 5]),
        (5, vec![1, 2, 3, 4, 5]),
    ] {
        let g = game(n);
        let s = g.new_initial_state();
        assert_eq!(s.current_player(), CHANCE);
        let mut acts = Vec::new();
        s.legal_actions(&mut acts);
        assert_eq!(acts, gems.iter().map(|&v| v as u32).collect::<Vec<_>>());
        let tre: u32 = s.treasure.iter().map(|&c| c as u32).sum();
        assert_eq!(tre, if n <= 3 { 28 } else { 34 });
        let d1: u32 = s.decks[0].iter().map(|&c| c as u32).sum();
        let d2: u32 = s.decks[1].iter().map(|&c| c as u32).sum();
        assert_eq!((d1, d2), if n == 5 { (45, 46) } else { (36, 37) });
        for q in 0..n as usize {
            assert_eq!(hand(&s, q), ["b0", "b2", "b3", "b4", "b5"]);
        }
        let mut s2 = s;
        act(&mut s2, &format!("gem {}", gems[0]));
        let mut left = Vec::new();
        s2.legal_actions(&mut left);
        assert_eq!(left.len(), gems.len() - 1);
        assert!(!left.contains(&(gems[0] as u32)));
    }
    let g = game(2);
    let s = dealt(&g, &[5, 4]);
    assert_eq!(s.phase, Phase::Fill);
    assert_eq!((s.seats[0].gem, s.seats[1].gem), (5, 4));
    let fg = game_with(3, true, false);
    let s = fg.new_initial_state();
    assert_eq!(
        s.heroes_left[THRUD] + s.heroes_left[YLUD] + s.heroes_left[ULINE],
        0
    );
    assert_eq!(g.max_game_length(), 453);
}

#[test]
fn bid_order_gem_ties_and_gem_trade() {
    // 3 players, all tie on goblin with b3: order by gem, then the gems 5 and 3 swap, 4 keeps.
    let g = game(3);
    let mut s = dealt(&g, &[3, 5, 4]);
    fill(
        &mut s,
        &[
            "blacksmith",
            "hunter",
            "miner0",
            "blacksmith",
            "hunter",
            "miner1",
            "blacksmith",
            "hunter",
            "miner2",
        ],
    );
    assert_eq!(s.phase, Phase::Bid);
    assert_eq!(s.current_player(), 0);
    bid(
        &mut s,
        &[["b3", "b4", "b5"], ["b3", "b5", "b2"], ["b3", "b2", "b4"]],
    );
    assert_eq!(s.phase, Phase::Take);
    assert_eq!(&s.order[..3], &[1, 2, 0]);
    assert_eq!(s.current_player(), 1);
    act(&mut s, "take blacksmith");
    act(&mut s, "take hunter");
    act(&mut s, "take miner0");
    assert_eq!((s.seats[0].gem, s.seats[1].gem, s.seats[2].gem), (5, 3, 4));
    // Dragon: b4 (seat 0) > b5? no: seat 1 b5 first, then seat 0 b4, then seat 2 b2; no tie.
    assert_eq!(&s.order[..3], &[1, 0, 2]);
}

#[test]
fn gem_trade_of_four_and_gem_six_excluded() {
    let g = game(4);
    let mut s = dealt(&g, &[2, 3, 4, 5]);
    let cards = ["blacksmith"; 12];
    fill(&mut s, &cards);
    bid(&mut s, &[["b2", "b3", "b4"]; 4]);
    for _ in 0..4 {
        act(&mut s, "take blacksmith");
    }
    let gems: Vec<u8> = (0..4).map(|q| s.seats[q].gem).collect();
    assert_eq!(gems, [5, 4, 3, 2]);
    // Gem 6 takes no part: seats 1..3 tie with 6 at seat 0; 4 and 2 swap, 3 keeps.
    s.seats[0].gem = 6;
    for _ in 0..4 {
        act(&mut s, "take blacksmith");
    }
    let gems: Vec<u8> = (0..4).map(|q| s.seats[q].gem).collect();
    assert_eq!(gems, [6, 2, 3, 4]);
    assert_eq!(s.order[0], 0, "gem 6 wins the tie");
}

#[test]
fn coin_trade_with_b0_and_with_s3() {
    let g = game(2);
    let mut s = dealt(&g, &[5, 4]);
    fill(&mut s, &["blacksmith"; 9]);
    bid(&mut s, &[["b0", "b4", "b5"], ["b2", "b3", "b4"]]);
    // Seat 1 (b2) first, then seat 0 with b0: trades b2 + b3 = 5 -> t5, b3 leaves.
    act(&mut s, "take blacksmith");
    act(&mut s, "take blacksmith");
    assert_eq!(hand(&s, 0), ["b2", "t5"]);
    assert_eq!(s.seats[0].shown_hand, s.seats[0].hand);
    assert_eq!(s.treasure[0], 1);
    // s3 trades the same way: seat 1 gets s3 in place of its b0 (the Hunting Master), bids it.
    let mut s = dealt(&g, &[5, 4]);
    s.seats[1].hand[B0 as usize] = 0;
    s.seats[1].hand[S3 as usize] = 1;
    fill(&mut s, &["blacksmith"; 9]);
    bid(&mut s, &[["b2", "b3", "b4"], ["s3", "b2", "b3"]]);
    // Goblin: s3 (3) vs b2: seat 1 first; its pouch b4 b5 -> 9: t9, b5 leaves.
    assert_eq!(s.current_player(), 1);
    act(&mut s, "take blacksmith");
    assert_eq!(hand(&s, 1), ["b4", "t9"]);
    // Equal values: b5 and t5 trade for 10 and the basic b5 leaves (interpretation 4).
    let mut s = dealt(&g, &[5, 4]);
    s.seats[0].hand[2] = 0; // b3 -> t5
    s.seats[0].hand[6] = 1;
    s.treasure[0] -= 1;
    fill(&mut s, &["blacksmith"; 9]);
    bid(&mut s, &[["b0", "b2", "b4"], ["b2", "b3", "b4"]]);
    act(&mut s, "take blacksmith");
    act(&mut s, "take blacksmith");
    assert_eq!(hand(&s, 0), ["t5", "t10"]);
}

/// Taverns with a Royal Offering +3 first on the Laughing Goblin.
const OFFERING_FIRST: [&str; 9] = [
    "offering3",
    "blacksmith",
    "hunter",
    "blacksmith",
    "hunter",
    "hunter",
    "blacksmith",
    "hunter",
    "miner1",
];

#[test]
fn transform_takes_the_next_higher_else_the_highest() {
    let g = game(2);
    let mut s = dealt(&g, &[5, 4]);
    fill(&mut s, &OFFERING_FIRST);
    bid(&mut s, &[["b5", "b2", "b3"], ["b2", "b3", "b4"]]);
    act(&mut s, "take offering3");
    assert_eq!(s.phase, Phase::Transform);
    // Any non-trading coin: the three bid slots and hand b3 b4 (b0 is not offered).
    assert_eq!(
        legal(&s),
        [
            "transform goblin",
            "transform dragon",
            "transform horse",
            "transform b4"
        ]
    );
    // b5 + 3 = 8; with no 8 left, the 9.
    s.treasure[8 - 5] = 0;
    act(&mut s, "transform goblin");
    assert_eq!(s.seats[0].bids[0], 9 + 1);
    assert!(s.seats[0].shown_bids[0]);
    // Highest left when nothing above: a +7 (Grid) on t25's neighbour.
    let mut t = s;
    for v in 0..TREASURE_VALUES {
        t.treasure[v] = 0;
    }
    t.treasure[12 - 5] = 1;
    t.seats[0].hand[3] = 1;
    t.enqueue(Item::new(Word::Transform, 0, 7));
    // Only at a quiet moment: apply the take first.
    act(&mut t, "take blacksmith");
    assert_eq!(t.phase, Phase::Transform);
    act(&mut t, "transform b4");
    assert_eq!(
        t.seats[0].hand[12 + 1],
        1,
        "b4 + 7 = 11 is gone: the highest left, t12"
    );
}

#[test]
fn royal_offering_keeps_the_tie_status() {
    let g = game(2);
    let mut s = dealt(&g, &[5, 4]);
    fill(&mut s, &OFFERING_FIRST);
    bid(&mut s, &[["b4", "b2", "b3"], ["b4", "b3", "b2"]]);
    assert_eq!(s.current_player(), 0);
    act(&mut s, "take offering3");
    act(&mut s, "transform goblin");
    assert_eq!(s.seats[0].bids[0], 7 + 1);
    act(&mut s, "take blacksmith");
    // The tie at 4 stands: the gems trade.
    assert_eq!((s.seats[0].gem, s.seats[1].gem), (4, 5));
}

/// A 2-player state at seat 0's take on goblin, with the given taverns' first cards.
fn at_take(first: &str) -> NidavellirState {
    let g = game(2);
    let mut s = dealt(&g, &[5, 4]);
    fill(
        &mut s,
        &[
            first,
            "hunter",
            "hunter",
            "blacksmith",
            "hunter",
            "hunter",
            "blacksmith",
            "hunter",
            "miner1",
        ],
    );
    bid(&mut s, &[["b5", "b2", "b3"], ["b2", "b3", "b4"]]);
    assert_eq!(s.current_player(), 0);
    s
}

#[test]
fn heroes_by_lines_two_at_once_and_hourya() {
    let mut s = at_take("warrior3");
    put(&mut s, 0, &[B, H, E5, M1]);
    act(&mut s, "take warrior3");
    assert_eq!(s.phase, Phase::Hero);
    assert!(!has(&s, "hero hourya"));
    assert!(!has(&s, "hero dagda") && !has(&s, "hero bonfur") || has(&s, "hero bonfur"));
    act(&mut s, "hero skaa");
    assert_eq!(s.phase, Phase::Take, "one line, one hero");
    // Two lines at once.
    let mut s = at_take("warrior3");
    put(&mut s, 0, &[B, B, H, H, E5, E5, M1, M1, W3]);
    act(&mut s, "take warrior3");
    act(&mut s, "hero skaa");
    assert_eq!(s.phase, Phase::Hero);
    act(&mut s, "hero astrid");
    assert_eq!(s.phase, Phase::Take);
    // Hourya with 5 Explorer ranks.
    let mut s = at_take("warrior3");
    put(&mut s, 0, &[B, H, E5, E5, E5, E5, E5, M1]);
    act(&mut s, "take warrior3");
    assert!(has(&s, "hero hourya"));
    act(&mut s, "hero hourya");
    assert_eq!(s.seats[0].col_ranks(EXPLORER, false), 6);
}

#[test]
fn dagda_bonfur_discards_and_feasibility() {
    let mut s = at_take("warrior3");
    put(&mut s, 0, &[B, H, 30 + 6, 30 + 9]);
    s.heroes_left[6] = 0;
    s.heroes_left[9] = 0;
    s.seats[0].heroes[6] = 1;
    s.seats[0].heroes[9] = 1;
    put(&mut s, 0, &[B, B, H, H, E5, E5, M1, W3, W3]);
    act(&mut s, "take warrior3");
    assert_eq!(s.phase, Phase::Hero);
    assert!(has(&s, "hero dagda") && has(&s, "hero bonfur"));
    act(&mut s, "hero dagda");
    assert_eq!(s.phase, Phase::Discard);
    assert_eq!(
        legal(&s),
        [
            "discard blacksmith",
            "discard explorer",
            "discard miner",
            "discard warrior"
        ]
    );
    act(&mut s, "discard warrior");
    assert_eq!(
        legal(&s),
        ["discard blacksmith", "discard explorer", "discard miner"]
    );
    act(&mut s, "discard explorer");
    assert_eq!(s.discard[W3 as usize], 1);
    assert_eq!(s.discard[E5 as usize], 1);
    assert_eq!(
        s.seats[0].col(EXPLORER),
        &[39, E5],
        "the last Dwarf, under Idunn"
    );
    // Bonfur is not recruitable with Dwarves among the Blacksmiths only.
    let mut s = at_take("blacksmith");
    // Heroes in every other column, counted as not owned so that the line calls for a hero.
    put(&mut s, 0, &[B, 30 + 2, 30 + 9, 30 + 6, 30]);
    act(&mut s, "take blacksmith");
    assert_eq!(s.phase, Phase::Hero, "{}", s.to_text());
    assert!(!has(&s, "hero bonfur") && !has(&s, "hero dagda"));
}

#[test]
fn grid_and_thrud() {
    let mut s = at_take("warrior3");
    put(&mut s, 0, &[B, H, E5, M1]);
    act(&mut s, "take warrior3");
    act(&mut s, "hero grid");
    assert_eq!(s.phase, Phase::Transform);
    act(&mut s, "transform b4");
    assert_eq!(hand(&s, 0), ["b0", "t11"]);
    // Thrud: placed, then pushed off by a card entering her column.
    let mut s = at_take("warrior3");
    put(&mut s, 0, &[B, H, E5, M1]);
    act(&mut s, "take warrior3");
    act(&mut s, "hero thrud");
    assert_eq!(s.phase, Phase::Thrud);
    assert_eq!(legal(&s).len(), 5);
    act(&mut s, "column hunter");
    assert_eq!(s.seats[0].thrud, HUNTER as i8);
    assert_eq!(s.seats[0].col(HUNTER), &[H, 41]);
    // Seat 1 takes on goblin; on dragon seat 1 (b3) before seat 0 (b2), whose Hunter pushes Thrud off.
    act(&mut s, "take hunter");
    act(&mut s, "take blacksmith");
    act(&mut s, "take hunter");
    assert_eq!(s.phase, Phase::Thrud, "{}", s.to_text());
    assert_eq!(s.seats[0].thrud, 5);
    act(&mut s, "column hunter");
    assert_eq!(s.seats[0].col(HUNTER), &[H, H, 41]);
}

#[test]
fn ylud_at_both_age_ends() {
    let g = game(2);
    let mut s = dealt(&g, &[5, 4]);
    s.heroes_left[YLUD] = 0;
    s.seats[0].heroes[YLUD] = 1;
    s.seats[0].ylud = 6;
    s.enqueue(Item::new(Word::Ylud, 0, 0));
    s.settle();
    assert_eq!(s.phase, Phase::Ylud);
    act(&mut s, "column explorer");
    assert_eq!(s.seats[0].col(EXPLORER), &[42]);
    assert_eq!(s.seats[0].col_points(EXPLORER), 11);
    let v_explorer = s.value(0);
    put(&mut s, 0, &[E5]);
    s.enqueue(Item::new(Word::Ylud, 0, 0));
    s.settle();
    act(&mut s, "column warrior");
    assert_eq!(s.seats[0].col(EXPLORER), &[E5]);
    assert_eq!(s.seats[0].col(WARRIOR), &[42]);
    assert_eq!(s.seats[0].ylud, WARRIOR as i8);
    // 11 explorer points gone, 5 + 7 come, and the Warrior majority bonus (highest coin 5).
    assert_eq!(s.value(0), v_explorer - 11 + 5 + 7 + 5);
}

#[test]
fn uline_bids_face_up_and_chooses_her_trade() {
    let g = game(3);
    let mut s = dealt(&g, &[3, 4, 5]);
    s.heroes_left[ULINE] = 0;
    s.seats[1].heroes[ULINE] = 1;
    fill(&mut s, &["blacksmith"; 9]);
    assert_eq!(s.uline_bidder, 1);
    bid(&mut s, &[["b2", "b3", "b4"], ["b2", "b3", "b4"]]);
    assert_eq!(s.phase, Phase::UlineBid);
    assert_eq!(s.current_player(), 1);
    assert_eq!(
        legal(&s),
        ["bid b0", "bid b2", "bid b3", "bid b4", "bid b5"]
    );
    act(&mut s, "bid b0");
    // b0 is lowest: seats 2 (gem 5) and 0 take first.
    act(&mut s, "take blacksmith");
    act(&mut s, "take blacksmith");
    act(&mut s, "take blacksmith");
    assert_eq!(s.phase, Phase::UlineTrade);
    assert_eq!(legal(&s), ["sum b2", "sum b3", "sum b4", "sum b5"]);
    act(&mut s, "sum b5");
    assert_eq!(legal(&s), ["sum b2", "sum b3", "sum b4"]);
    act(&mut s, "sum b4");
    assert_eq!(hand(&s, 1), ["b2", "b3", "b4", "t9"]);
}

/// A 3-player state at the start with armies set and a queue of distinctions to settle.
fn distinctions(armies: [&[u8]; 3], which: &[usize]) -> NidavellirState {
    let g = game(3);
    let mut s = dealt(&g, &[3, 4, 5]);
    for (q, a) in armies.iter().enumerate() {
        put(&mut s, q, a);
    }
    for &j in which {
        s.enqueue(Item::global(Word::Distinction, j as i8));
    }
    s.settle();
    s
}

#[test]
fn each_distinction_and_ties() {
    let s = distinctions([&[W3, W3], &[W3], &[]], &[WARRIOR]);
    assert_eq!(s.distinctions[0], 0);
    assert_eq!(s.phase, Phase::Transform);
    assert_eq!(s.front().unwrap().arg, 5);
    let s = distinctions([&[W3], &[W3], &[]], &[WARRIOR, HUNTER, MINER]);
    assert_eq!(
        &s.distinctions[..3],
        &[-1, -1, -1],
        "ties and zeros give nobody"
    );
    let s = distinctions([&[H], &[], &[]], &[HUNTER]);
    assert_eq!(hand(&s, 0), ["b2", "b3", "b4", "b5", "s3"]);
    let s = distinctions([&[], &[M1], &[]], &[MINER]);
    assert_eq!(s.seats[1].gem, 6);
    assert_eq!(s.value(1), 14 + 1 + 3);
    let s = distinctions([&[], &[], &[B]], &[BLACKSMITH]);
    assert_eq!(s.seats[2].col(BLACKSMITH), &[B, 40]);
    assert_eq!(s.seats[2].col_ranks(BLACKSMITH, false), 3);
    // The Pioneer: three private draws, keep one, the two others go back.
    let mut s = distinctions([&[], &[], &[E5]], &[EXPLORER]);
    assert_eq!(s.phase, Phase::PioneerDraw);
    let before = s.decks[1];
    act(&mut s, "card warrior3");
    act(&mut s, "card hunter");
    act(&mut s, "card blacksmith");
    assert_eq!(s.phase, Phase::PioneerKeep);
    assert_eq!(
        legal(&s),
        ["keep blacksmith", "keep hunter", "keep warrior3"]
    );
    let hist: Vec<u32> = vec![0; s.steps as usize];
    let seen = s.information_state_string(0, &hist);
    assert!(seen.ends_with("?,?,?"), "{seen}");
    assert!(!s.information_state_string(2, &hist).contains('?'));
    act(&mut s, "keep warrior3");
    assert_eq!(s.seats[2].col(WARRIOR), &[W3]);
    let mut after = s.decks[1];
    after[W3 as usize] += 1;
    assert_eq!(after, before);
    // Nobody: one card burnt, in the open.
    let mut s = distinctions([&[E5], &[E5], &[]], &[EXPLORER]);
    assert_eq!(s.distinctions[4], -1);
    assert_eq!(s.phase, Phase::PioneerBurn);
    act(&mut s, "card miner2");
    assert_eq!(s.discard[12], 1);
}

#[test]
fn final_scoring_formulas() {
    let g = game(2);
    let mut s = dealt(&g, &[5, 4]);
    let base = 14; // b0 + b2 + b3 + b4 + b5
    put(&mut s, 0, &[B, B, B]);
    assert_eq!(s.value(0), base + 3 * 8 / 2);
    put(&mut s, 0, &[H, H]);
    assert_eq!(s.value(0), base + 12 + 4);
    put(&mut s, 1, &[kind("miner2"), kind("miner1"), kind("miner0")]);
    assert_eq!(s.value(1), base + 3 * 3);
    // Warriors: points, plus the highest coin for the majority; a tie gives both.
    put(&mut s, 1, &[kind("warrior7")]);
    assert_eq!(s.value(1), base + 9 + 7 + 5);
    put(&mut s, 0, &[W3]);
    assert_eq!(s.value(0), base + 16 + 3 + 5);
    assert_eq!(s.value(1), base + 9 + 7 + 5);
    // Idunn: 7 and 2 per Explorer rank.
    let mut s = dealt(&g, &[5, 4]);
    put(&mut s, 0, &[kind("explorer8"), 39]);
    s.seats[0].heroes[IDUNN] = 1;
    assert_eq!(s.value(0), base + 8 + 7 + 4);
    // Dwerg brothers, Astrid, Skaa, gem 6.
    for (k, pts) in [(1, 13), (2, 40), (3, 81), (4, 108), (5, 135)] {
        s.seats[1].heroes[DWERG] = k;
        assert_eq!(s.value(1), base + pts);
    }
    s.seats[1].heroes[DWERG] = 0;
    s.seats[1].heroes[ASTRID] = 1;
    s.seats[1].heroes[SKAA] = 1;
    s.seats[1].gem = 6;
    assert_eq!(s.value(1), base + 5 + 17 + 3);
    // The Warrior bonus at zero ranks only with the parameter.
    let s = dealt(&game_with(2, false, true), &[5, 4]);
    assert_eq!(s.value(0), base + 5);
}

#[test]
fn returns_share_a_tie() {
    let g = game(3);
    let mut s = dealt(&g, &[3, 4, 5]);
    s.phase = Phase::Over;
    put(&mut s, 2, &[H]);
    let mut r = [0.0; 3];
    s.returns(&mut r);
    assert_eq!(r, [0.0, 0.0, 1.0]);
    put(&mut s, 1, &[H]);
    s.returns(&mut r);
    assert_eq!(r, [0.0, 0.5, 0.5]);
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
        let a = if s.is_chance_node() {
            s.sample_chance(&mut rng, &mut scratch).unwrap()
        } else {
            acts[rng.below(acts.len() as u64) as usize]
        };
        s.apply_action(a).unwrap();
        hist.push(a);
    }
    out.push((s, hist));
    out
}

#[test]
fn serialization_round_trips_and_refusals() {
    for n in 2..=5 {
        let g = game(n);
        for (i, (s, h)) in random_game(&g, n as u64).into_iter().enumerate() {
            if i % 7 != 0 && !s.is_terminal() {
                continue;
            }
            let text = s.serialize(&h);
            let (back, h2) = g.deserialize_state(&text).unwrap();
            assert_eq!(back.serialize(&h2), text);
        }
    }
    let g = game(2);
    let s = dealt(&g, &[5, 4]);
    let text = s.serialize(&[4, 5]);
    let bad = [
        "[]".to_string(),
        "{".to_string(),
        text.replace("\"version\":1", "\"version\":2"),
        text.replace("\"age\":1", "\"age\":true"),
        text.replace("\"age\":1", "\"age\":3"),
        text.replace("\"age\":1,", ""),
        text.replace("\"age\":1,", "\"age\":1,\"age\":1,"),
        text.replace("\"gem\":5", "\"gem\":7"),
        text.replace("\"hand\":[0,1,2,3,4]", "\"hand\":[0,1,2,3,4,4]"),
        text.replace("\"hand\":[0,1,2,3,4]", "\"hand\":[4,1,2,3,0]"),
        text.replace("\"hand\":[0,1,2,3,4]", "\"hand\":[0,1,2,3,26]"),
        text.replace("\"phase\":\"fill\"", "\"phase\":\"bid\""),
        text.replace("\"phase\":\"fill\"", "\"phase\":\"nope\""),
        text.replace("\"thrud\":-1", "\"thrud\":2"),
        text.replace("\"queue\":[]", "\"queue\":[[\"recruit\",0,0]]"),
        text.replace("\"queue\":[]", "\"queue\":[[\"fly\",0,0]]"),
        text.replace("\"army\":[[]", "\"army\":[[13]"),
        text.replace("\"army\":[[]", "\"army\":[[99]"),
        text.replace("\"players\":2", "\"players\":3"),
        text.replace("\"heroes_left\":[1", "\"heroes_left\":[0"),
    ];
    for b in bad {
        assert_ne!(b, text);
        match g.deserialize_state(&b) {
            Err(GameError::InvalidState(_)) => {}
            other => panic!("{b}\naccepted: {:?}", other.map(|_| ())),
        }
    }
}

#[test]
fn notation_round_trip_and_junk() {
    let g = game(4);
    for (s, _) in random_game(&g, 9) {
        let mut acts = Vec::new();
        s.legal_actions(&mut acts);
        for a in acts {
            let t = s.action_to_string(a).unwrap();
            assert_eq!(s.string_to_action(&t).unwrap(), a);
            assert_eq!(
                s.string_to_action(&format!("  {}  ", t.to_uppercase()))
                    .unwrap(),
                a
            );
        }
        for junk in [
            "",
            "bid",
            "bid b1",
            "take dragon",
            "hero nobody",
            "xyzzy",
            "column 9",
            "\u{0}",
        ] {
            assert!(matches!(
                s.string_to_action(junk),
                Err(GameError::InvalidNotation(_))
            ));
        }
        for a in [157, 1000, u32::MAX] {
            assert!(s.clone().apply_action(a).is_err());
            if !s.is_chance_node() {
                assert!(s.action_to_string(a).is_err());
            }
        }
    }
    let s = game(2).new_initial_state();
    assert_eq!(s.string_to_action("4").unwrap(), 4);
    assert!(s.action_to_string(0).is_err());
}

/// Every integer of serialized positions replaced by nearby values: accepted states play on without a panic.
#[test]
fn no_panic_on_mutated_states() {
    let mut rng = Rng::new(3);
    for n in [2, 5] {
        let g = game(n);
        let states = random_game(&g, 40 + n as u64);
        for (s, h) in states.iter().step_by(23) {
            let text = s.serialize(h);
            for _ in 0..60 {
                let mutated = mutate::one_int(&text, &mut rng, 45);
                if let Ok((mut m, _)) = g.deserialize_state(&mutated) {
                    let mut acts = Vec::new();
                    let mut obs = vec![0f32; g.observation_shape()[0]];
                    for _ in 0..200 {
                        if m.is_terminal() {
                            break;
                        }
                        m.legal_actions(&mut acts);
                        for p in 0..n as usize {
                            m.observation_tensor(p, &mut obs);
                            let _ = m.resample_from_infostate(p, &mut rng);
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
