//! Line-it (docs/rules/lineit.md): rules from positions written in the serialization format, the notation,
//! serialization round trips and refusals, and random games that never panic.

#![allow(clippy::needless_range_loop)]

use meeplex_engine::games::lineit::{self, LineItGame, LineItState, CLOSE, HAND, LINE, PASS, PLAY};
use meeplex_engine::playout::{random_action, Scratch};
use meeplex_engine::registry::AnyState;
use meeplex_engine::{Game, GameError, ParamValue, Params, Rng, State, CHANCE, TERMINAL};
use serde_json::{json, Value};

fn game(players: i64) -> LineItGame {
    let mut p = Params::new();
    p.insert("players".into(), ParamValue::Int(players));
    LineItGame::new(&p).unwrap()
}

fn blocks_game() -> LineItGame {
    let mut p = Params::new();
    p.insert("colour_blocks".into(), ParamValue::Bool(true));
    LineItGame::new(&p).unwrap()
}

/// Number card x's kind.
fn k(x: u32) -> u32 {
    x - 1
}

const BET3: u32 = 100;
const BET4: u32 = 101;
const BET5: u32 = 102;

fn legal(s: &LineItState) -> Vec<u32> {
    let mut v = Vec::new();
    s.legal_actions(&mut v);
    v
}

fn score(s: &LineItState, seat: usize) -> f64 {
    let mut out = vec![0.0; 5];
    s.scores(&mut out);
    out[seat]
}

/// A 2-player position in `turn` at round 1, seat 0 to play, built from a serialized state: `market` the four
/// market cards, the rest of the number cards in the deck (minus those given elsewhere).
fn position(
    g: &LineItGame,
    market: &[u32],
    seats: Value,
    jackpot: &[u32],
    round: u32,
) -> LineItState {
    let mut used: Vec<u32> = market.to_vec();
    used.extend_from_slice(jackpot);
    for s in seats.as_array().unwrap() {
        for key in ["hand", "line"] {
            for x in s[key].as_array().unwrap() {
                used.push(x.as_u64().unwrap() as u32);
            }
        }
    }
    let mut bets = [2i32; 3];
    for &u in &used {
        if u >= 100 {
            bets[(u - 100) as usize] -= 1;
        }
    }
    for s in seats.as_array().unwrap() {
        for i in 0..3 {
            bets[i] -=
                (s["tokens"][i].as_i64().unwrap() + s["tokens"][i + 3].as_i64().unwrap()) as i32;
        }
    }
    let m = g.rules().market_size();
    let target = 106 - m * round;
    let mut deck: Vec<u32> = Vec::new();
    for x in 0..100 {
        if !used.contains(&x) && deck.len() < target as usize {
            deck.push(x);
        }
    }
    for i in 0..3 {
        for _ in 0..bets[i] {
            if deck.len() < target as usize {
                deck.push(100 + i as u32);
            }
        }
    }
    let mut market = market.to_vec();
    market.sort();
    let mut jackpot = jackpot.to_vec();
    jackpot.sort();
    let text = json!({
        "closed": false, "deck": deck, "done": 0, "final_pass": 0, "first": 0, "game": "lineit",
        "history": [], "jackpot": jackpot, "market": market,
        "params": {"colour_blocks": g.rules().colour_blocks, "players": g.rules().players},
        "phase": "turn", "played": false, "round": round, "seats": seats, "taken": false, "version": 1,
    })
    .to_string();
    g.deserialize_state(&text).unwrap().0
}

fn seat(hand: &[u32], line: &[u32]) -> Value {
    json!({"hand": hand, "line": line, "pile": 0, "tokens": [0, 0, 0, 0, 0, 0]})
}

#[test]
fn sizes_and_constants() {
    let g = game(2);
    assert_eq!(g.num_distinct_actions(), 311);
    assert_eq!(g.max_chance_outcomes(), 103);
    assert_eq!(g.max_game_length(), 316);
    assert_eq!(g.observation_shape(), vec![868]);
    assert_eq!(game(5).observation_shape(), vec![424 + 222 * 5]);
    // The registry's enum must not grow for this game.
    let lineit_size = std::mem::size_of::<LineItState>();
    println!(
        "LineItState {lineit_size} bytes, AnyState {}",
        std::mem::size_of::<AnyState>()
    );
    assert!(lineit_size + 16 <= std::mem::size_of::<AnyState>());
}

#[test]
fn the_market_is_players_plus_two_and_chance_weights_count_cards() {
    let g = game(3);
    let mut s = g.new_initial_state();
    assert_eq!(s.current_player(), CHANCE);
    let mut w = Vec::new();
    s.chance_weights(&mut w);
    assert_eq!(w.len(), 103);
    assert_eq!(w.iter().map(|x| x.1).sum::<u64>(), 106);
    assert_eq!(w[100], (100, 2));
    for a in [k(10), BET3, BET3, k(50), k(60)] {
        assert_eq!(s.current_player(), CHANCE);
        s.apply_action(a).unwrap();
    }
    assert_eq!(s.current_player(), 0);
    let mut w = Vec::new();
    s.chance_weights(&mut w);
    assert!(w.is_empty());
    assert_eq!(s.market_len(), 5);
    // Bet +3 is one kind: both cards dealt, so none left.
    assert_eq!(s.deck_bets[0], 0);
}

#[test]
fn direction_is_fixed_by_the_second_number_card() {
    let g = game(2);
    // Seat 0's line: bet, then 40; the bet does not count for the direction.
    let s = position(
        &g,
        &[k(30), k(50), k(20), k(60)],
        json!([seat(&[], &[BET4, k(40)]), seat(&[], &[])]),
        &[],
        5,
    );
    let l = legal(&s);
    for x in [20, 30, 50, 60] {
        assert!(
            l.contains(&(LINE + k(x))),
            "{x} fits a line of one number card"
        );
    }
    let mut s2 = s;
    s2.apply_action(LINE + k(30)).unwrap(); // descending now
    s2.apply_action(PASS).unwrap();
    // Seat 1's turn; then round back to seat 0 is next round. Check seat 0's line directly.
    assert!(s2.seats[0].fits(k(20) as u8));
    assert!(!s2.seats[0].fits(k(35) as u8));
    assert!(!s2.seats[0].fits(BET3 as u8), "one bet per line");
}

#[test]
fn hand_limit_and_forced_close() {
    let g = game(2);
    // Ascending line ending at 90, full hand of two cards that do not fit; the market has nothing that fits.
    let s = position(
        &g,
        &[k(10), k(20), k(30), k(40)],
        json!([seat(&[k(5), k(6)], &[k(80), k(90)]), seat(&[], &[])]),
        &[],
        5,
    );
    assert_eq!(legal(&s), vec![CLOSE], "must close");
    // With a hand card that fits, playing it first makes room.
    let s = position(
        &g,
        &[k(10), k(20), k(30), k(40)],
        json!([seat(&[k(5), k(95)], &[k(80), k(90)]), seat(&[], &[])]),
        &[],
        5,
    );
    assert_eq!(legal(&s), vec![PLAY + k(95), CLOSE]);
    let mut s2 = s;
    s2.apply_action(PLAY + k(95)).unwrap();
    let l = legal(&s2);
    assert!(l.contains(&(HAND + k(10))) && l.contains(&CLOSE) && !l.contains(&PASS));
    assert!(
        !l.iter().any(|&a| (PLAY..CLOSE).contains(&a)),
        "one hand card per turn"
    );
    s2.apply_action(HAND + k(10)).unwrap();
    assert_eq!(legal(&s2), vec![CLOSE, PASS]);
    s2.apply_action(CLOSE).unwrap();
    // Closed: 80, 90, 95 -> 3 number cards, 0 points; nothing else to do, so the turn ended.
    assert_eq!(s2.current_player(), 1);
    assert_eq!(score(&s2, 0), 0.0);
}

#[test]
fn closing_scores_cards_beyond_three_and_settles_the_bet() {
    let g = game(2);
    // Bet +4 after two cards, then 4 more: won (+4); 6 number cards -> 3 points.
    let s = position(
        &g,
        &[k(10), k(20), k(30), k(40)],
        json!([
            seat(&[], &[k(50), k(52), BET4, k(60), k(61), k(62), k(63)]),
            seat(&[], &[])
        ]),
        &[],
        5,
    );
    let mut a = s;
    a.apply_action(CLOSE).unwrap();
    assert_eq!(score(&a, 0), 3.0 + 4.0);
    assert_eq!(a.seats[0].tokens, [0, 1, 0, 0, 0, 0]);
    // Bet +5 with 4 after: lost (-5).
    let s = position(
        &g,
        &[k(10), k(20), k(30), k(40)],
        json!([
            seat(&[], &[k(50), BET5, k(60), k(61), k(62), k(63)]),
            seat(&[], &[])
        ]),
        &[],
        5,
    );
    let mut b = s;
    b.apply_action(CLOSE).unwrap();
    assert_eq!(score(&b, 0), 2.0 - 5.0);
    // After the close, the empty line takes anything, and the close is not offered again.
    let l = legal(&b);
    assert!(l.contains(&(LINE + k(10))) && !l.contains(&CLOSE));
}

#[test]
fn jackpots_on_the_third_card_of_a_colour_once_per_line() {
    let g = game(2);
    // Red (cycle): 1, 5, 9, 13, ... Line 1, 5 ascending; red jackpot holds 17, 21, 25.
    let s = position(
        &g,
        &[k(9), k(29), k(30), k(40)],
        json!([seat(&[k(33)], &[k(1), k(5)]), seat(&[], &[])]),
        &[k(17), k(21), k(25), k(2)],
        5,
    );
    let mut a = s;
    a.apply_action(LINE + k(9)).unwrap();
    assert_eq!(a.seats[0].pile, 3, "red jackpot won");
    assert_eq!(a.jackpot.count_ones(), 1, "blue 2 stays");
    a.apply_action(PLAY + k(33)).unwrap(); // a fourth red: nothing more
    assert_eq!(a.seats[0].pile, 3);
    // Blocks: 1..25 red, so 1, 5, 9 are red too; 29, 30 blue.
    let gb = blocks_game();
    let s = position(
        &gb,
        &[k(9), k(29), k(30), k(40)],
        json!([seat(&[], &[k(26), k(27)]), seat(&[], &[])]),
        &[k(31), k(32), k(2)],
        5,
    );
    let mut b = s;
    b.apply_action(LINE + k(29)).unwrap();
    assert_eq!(b.seats[0].pile, 2, "blue jackpot (31, 32) won with blocks");
}

#[test]
fn end_of_round_feeds_jackpots_and_passes_the_first_player() {
    let g = game(2);
    let mut s = g.new_initial_state();
    for a in [k(1), k(2), BET3, k(3)] {
        s.apply_action(a).unwrap();
    }
    s.apply_action(LINE + k(1)).unwrap();
    s.apply_action(PASS).unwrap();
    assert_eq!(s.current_player(), 1);
    s.apply_action(HAND + k(2)).unwrap();
    // The hand card 2 could still be played into the empty line: the turn goes on until pass.
    s.apply_action(PASS).unwrap();
    assert_eq!(s.current_player(), CHANCE);
    assert_eq!(s.first, 1);
    assert_eq!(s.round, 2);
    assert_eq!(s.jackpot, 1u128 << k(3));
    assert_eq!(s.market_len(), 0);
    assert_eq!(s.deck_bets[0], 1, "the market's bet card was discarded");
}

#[test]
fn final_plays_then_every_line_closes() {
    let g = game(2);
    let mut s = g.new_initial_state();
    let mut rng = Rng::new(3);
    let mut scratch = Scratch::default();
    let mut seen_final = false;
    while let Some(a) = random_action(&s, &mut rng, &mut scratch) {
        if s.phase == lineit::Phase::Final {
            seen_final = true;
            assert_eq!(s.deck_len(), 0);
            assert!(s.seats[s.current()].able());
            assert!(legal(&s).contains(&PASS));
        }
        s.apply_action(a).unwrap();
    }
    assert!(s.is_terminal());
    assert_eq!(s.current_player(), TERMINAL);
    let _ = seen_final;
    for q in 0..2 {
        assert!(s.seats[q].line_is_empty());
    }
    let mut r = vec![0.0; 2];
    s.returns(&mut r);
    assert!((r.iter().sum::<f64>() - 1.0).abs() < 1e-9);
}

#[test]
fn final_plays_from_a_position() {
    let g = game(2);
    // Final phase, pass 1, first 0: seat 0 holds 70 (fits its ascending line 60, 65) and 10 (does not).
    let text = json!({
        "closed": false, "deck": [], "done": 0, "final_pass": 1, "first": 0, "game": "lineit",
        "history": [], "jackpot": [k(13)], "market": [],
        "params": {"colour_blocks": false, "players": 2}, "phase": "final", "played": false, "round": 26,
        "seats": [
            {"hand": [k(10), k(69)], "line": [k(61), k(65)], "pile": 4, "tokens": [0, 0, 0, 0, 0, 0]},
            {"hand": [], "line": [k(1), k(2), k(3), k(4), k(5)], "pile": 0, "tokens": [0, 0, 0, 0, 0, 0]}
        ],
        "taken": false, "version": 1,
    })
    .to_string();
    let (mut s, _) = g.deserialize_state(&text).unwrap();
    assert_eq!(s.current_player(), 0);
    assert_eq!(legal(&s), vec![PLAY + k(69), PASS]);
    // 61, 65, 69 are red (cycle): the third red wins the red jackpot (13).
    s.apply_action(PLAY + k(69)).unwrap();
    // Seat 1 has no card, pass 2: seat 0 has 10 only, which does not fit: the game ends.
    assert!(s.is_terminal());
    // Seat 0: pile 4 + jackpot 1 + (3 - 3) = 5; seat 1: 5 - 3 = 2.
    assert_eq!(score(&s, 0), 5.0);
    assert_eq!(score(&s, 1), 2.0);
    let mut r = vec![0.0; 2];
    s.returns(&mut r);
    assert_eq!(r, vec![1.0, 0.0]);
}

#[test]
fn ties_share_the_win() {
    let g = game(3);
    let text = json!({
        "closed": false, "deck": [], "done": 0, "final_pass": 0, "first": 1, "game": "lineit",
        "history": [], "jackpot": [], "market": [],
        "params": {"colour_blocks": false, "players": 3}, "phase": "over", "played": false, "round": 21,
        "seats": [
            {"hand": [], "line": [], "pile": 7, "tokens": [0, 0, 0, 0, 0, 0]},
            {"hand": [k(3)], "line": [], "pile": 4, "tokens": [1, 0, 0, 0, 0, 0]},
            {"hand": [], "line": [], "pile": 11, "tokens": [0, 0, 0, 0, 0, 1]}
        ],
        "taken": false, "version": 1,
    })
    .to_string();
    let (s, _) = g.deserialize_state(&text).unwrap();
    let mut r = vec![0.0; 3];
    s.returns(&mut r);
    // 7; 4 + 3 = 7; 11 - 5 = 6.
    assert_eq!(r, vec![0.5, 0.5, 0.0]);
}

#[test]
fn notation_round_trips_and_relaxed_reading() {
    let g = game(2);
    let mut s = g.new_initial_state();
    assert_eq!(s.action_to_string(99).unwrap(), "deal 100");
    assert_eq!(s.action_to_string(BET4).unwrap(), "deal bet4");
    assert_eq!(s.string_to_action("  DEAL   Bet5 ").unwrap(), BET5);
    assert_eq!(s.string_to_action("007").unwrap(), 6);
    assert!(matches!(
        s.string_to_action("deal 0"),
        Err(GameError::InvalidNotation(_))
    ));
    assert!(matches!(
        s.string_to_action("deal 101"),
        Err(GameError::InvalidNotation(_))
    ));
    assert!(matches!(
        s.string_to_action("deal +5"),
        Err(GameError::InvalidNotation(_))
    ));
    assert!(s.action_to_string(103).is_err());
    for a in [k(1), k(2), k(3), k(4)] {
        s.apply_action(a).unwrap();
    }
    for a in 0..311 {
        let t = s.action_to_string(a).unwrap();
        assert_eq!(s.string_to_action(&t).unwrap(), a, "{t}");
    }
    assert_eq!(s.action_to_string(LINE + k(37)).unwrap(), "line 37");
    assert_eq!(s.action_to_string(HAND + BET4).unwrap(), "hand bet4");
    assert_eq!(s.action_to_string(PLAY + k(12)).unwrap(), "play 12");
    assert_eq!(s.string_to_action("Close").unwrap(), CLOSE);
    assert!(s.action_to_string(311).is_err());
    assert!(matches!(
        s.string_to_action("deal 5"),
        Err(GameError::InvalidNotation(_))
    ));
}

fn refuse(g: &LineItGame, v: &Value, why: &str) {
    match g.deserialize_state(&v.to_string()) {
        Err(GameError::InvalidState(_)) => {}
        other => panic!("{why}: expected a refusal, got {other:?}"),
    }
}

#[test]
fn deserialize_refuses_inconsistencies() {
    let g = game(2);
    let s = position(
        &g,
        &[k(30), k(50), k(20), k(60)],
        json!([seat(&[k(7)], &[BET4, k(40)]), seat(&[], &[])]),
        &[k(9)],
        5,
    );
    let base: Value = serde_json::from_str(&s.serialize(&[])).unwrap();
    assert!(g.deserialize_state(&base.to_string()).is_ok());
    let edit = |f: &dyn Fn(&mut Value)| {
        let mut v = base.clone();
        f(&mut v);
        v
    };
    refuse(
        &g,
        &edit(&|v| {
            v.as_object_mut().unwrap().remove("done");
        }),
        "missing key",
    );
    refuse(
        &g,
        &edit(&|v| {
            v["extra"] = json!(1);
        }),
        "extra key",
    );
    refuse(
        &g,
        &edit(&|v| {
            v["taken"] = json!(0);
        }),
        "int for bool",
    );
    refuse(
        &g,
        &edit(&|v| {
            v["done"] = json!(false);
        }),
        "bool for int",
    );
    refuse(
        &g,
        &edit(&|v| {
            v["version"] = json!(2);
        }),
        "version",
    );
    refuse(
        &g,
        &edit(&|v| {
            v["params"]["players"] = json!(3);
        }),
        "params",
    );
    refuse(
        &g,
        &edit(&|v| {
            v["seats"][0]["line"] = json!([k(40), k(30), k(35)]);
        }),
        "not monotone",
    );
    refuse(
        &g,
        &edit(&|v| {
            v["seats"][0]["line"] = json!([BET4, k(40), BET3]);
        }),
        "two bets",
    );
    refuse(
        &g,
        &edit(&|v| {
            v["seats"][1]["hand"] = json!([k(30)]);
        }),
        "a card in two places",
    );
    refuse(
        &g,
        &edit(&|v| {
            v["seats"][1]["hand"] = json!([k(2), k(1)]);
        }),
        "hand not sorted",
    );
    refuse(
        &g,
        &edit(&|v| {
            v["seats"][1]["hand"] = json!([BET4, BET4]);
        }),
        "three +4 cards",
    );
    refuse(
        &g,
        &edit(&|v| {
            v["seats"][1]["tokens"] = json!([0, 1, 0, 0, 1, 0]);
        }),
        "bet +4 cards and tokens above 2",
    );
    refuse(
        &g,
        &edit(&|v| {
            v["jackpot"] = json!([BET3]);
        }),
        "a bet in the jackpot",
    );
    refuse(
        &g,
        &edit(&|v| {
            v["market"] = json!([k(20), k(30), k(50)]);
        }),
        "market count",
    );
    refuse(
        &g,
        &edit(&|v| {
            v["phase"] = json!("deal");
        }),
        "deal with a full market",
    );
    refuse(
        &g,
        &edit(&|v| {
            v["phase"] = json!("final");
        }),
        "final with a deck",
    );
    refuse(
        &g,
        &edit(&|v| {
            v["final_pass"] = json!(1);
        }),
        "final_pass outside final",
    );
    refuse(
        &g,
        &edit(&|v| {
            v["round"] = json!(27);
        }),
        "round range",
    );
    refuse(
        &g,
        &edit(&|v| {
            v["history"] = json!([311]);
        }),
        "history id",
    );
    refuse(
        &g,
        &edit(&|v| {
            v["seats"][0]["pile"] = json!(101);
        }),
        "pile range",
    );
    refuse(
        &g,
        &edit(&|v| {
            v["first"] = json!(2);
        }),
        "first range",
    );
    refuse(
        &g,
        &edit(&|v| {
            v["game"] = json!("flipology");
        }),
        "game",
    );
    // Not settled: taken, nothing but pass left (line empty after a close, no hand card that fits... here: played and closed).
    refuse(
        &g,
        &edit(&|v| {
            v["taken"] = json!(true);
            v["played"] = json!(true);
            v["closed"] = json!(true);
            v["market"] = json!([k(20), k(30), k(50)]);
        }),
        "not settled",
    );
    assert!(g.deserialize_state("{\"a\":1,\"a\":1}").is_err());
    assert!(g.deserialize_state("[]").is_err());
}

#[test]
fn random_games_never_panic_and_round_trip() {
    for players in 2..=5 {
        for blocks in [false, true] {
            let mut p = Params::new();
            p.insert("players".into(), ParamValue::Int(players));
            p.insert("colour_blocks".into(), ParamValue::Bool(blocks));
            let g = LineItGame::new(&p).unwrap();
            for seed in 0..20u64 {
                let mut s = g.new_initial_state();
                let mut history = Vec::new();
                let mut rng = Rng::new(seed);
                let mut scratch = Scratch::default();
                let mut obs = vec![0f32; g.observation_shape()[0]];
                while let Some(a) = random_action(&s, &mut rng, &mut scratch) {
                    if seed % 5 == 0 {
                        let text = s.serialize(&history);
                        let (back, h) = g.deserialize_state(&text).unwrap();
                        assert_eq!(back, s);
                        assert_eq!(h, history);
                        for q in 0..players as usize {
                            s.observation_tensor(q, &mut obs);
                            assert!(obs.iter().all(|x| x.is_finite()));
                            let ones = obs[..100 * (4 + 2 * players as usize)].iter().sum::<f32>();
                            assert_eq!(ones, 100.0, "each number card in one place");
                        }
                        let mut hv = vec![0.0; players as usize];
                        s.heuristic_value(&mut hv);
                        assert!((hv.iter().sum::<f64>() - 1.0).abs() < 1e-9);
                    }
                    s.apply_action(a).unwrap();
                    history.push(a);
                }
                assert!(s.is_terminal());
                assert!(history.len() as u64 <= g.max_game_length());
                let text = s.serialize(&history);
                assert_eq!(g.deserialize_state(&text).unwrap().0, s);
            }
        }
    }
}
