//! Canonical JSON of a whole state and its reader (docs/rules/lineit.md §8). The reader rebuilds the state from
//! the fields and refuses every inconsistency the contract lists; the history is only range-checked.

use super::cards::{bet_value, bits, is_bet, BET0, BET_COPIES, DECK_SIZE, KINDS};
use super::notation::NUM_ACTIONS;
use super::state::{LineItState, Phase, Seat, ASCENDING, DESCENDING, NONE};
use super::{Rules, ID};
use crate::error::{invalid, Result};
use crate::json::Fields;
use crate::params::{params_to_json, Params};
use crate::State;
use serde_json::{json, Value};

const VERSION: i64 = 1;

pub fn phase_name(phase: Phase) -> &'static str {
    match phase {
        Phase::Deal => "deal",
        Phase::Turn => "turn",
        Phase::Final => "final",
        Phase::Over => "over",
    }
}

fn with_bets(set: u128, bets: &[u8; 3]) -> Vec<u8> {
    let mut out: Vec<u8> = bits(set).collect();
    for i in 0..3u8 {
        for _ in 0..bets[i as usize] {
            out.push(BET0 + i);
        }
    }
    out
}

pub fn to_value(s: &LineItState, history: &[u32]) -> Value {
    let seats: Vec<Value> = (0..s.n())
        .map(|q| {
            let seat = &s.seats[q];
            let hand: Vec<u8> = seat.hand.iter().copied().filter(|&k| k != NONE).collect();
            json!({
                "hand": hand,
                "line": seat.line_cards(),
                "pile": seat.pile,
                "tokens": seat.tokens.to_vec(),
            })
        })
        .collect();
    json!({
        "closed": s.closed,
        "deck": with_bets(s.deck, &s.deck_bets),
        "done": s.done,
        "final_pass": s.final_pass,
        "first": s.first,
        "game": ID,
        "history": history,
        "jackpot": bits(s.jackpot).collect::<Vec<u8>>(),
        "market": with_bets(s.market, &s.market_bets),
        "params": params_to_json_rules(s),
        "phase": phase_name(s.phase),
        "played": s.played,
        "round": s.round,
        "seats": seats,
        "taken": s.taken,
        "version": VERSION,
    })
}

fn params_to_json_rules(s: &LineItState) -> Value {
    json!({"colour_blocks": s.rules.colour_blocks, "players": s.rules.players})
}

/// serde_json's maps are sorted and `to_string` is compact: the canonical JSON of §8.
pub fn serialize(s: &LineItState, history: &[u32]) -> String {
    to_value(s, history).to_string()
}

fn err<T>(msg: impl std::fmt::Display) -> Result<T> {
    invalid(format!("{PREFIX}{msg}"))
}

const PREFIX: &str = "lineit state: ";

/// The card kinds at `key`, each in 0..=`max`, ascending if `sorted`.
fn kinds(o: &Fields, key: &str, max: i64, sorted: bool) -> Result<Vec<u8>> {
    let out: Vec<u8> = o
        .ints(key, .., 0, max)?
        .into_iter()
        .map(|k| k as u8)
        .collect();
    if sorted && out.windows(2).any(|w| w[0] > w[1]) {
        return o.fail(key, "must be in ascending order");
    }
    Ok(out)
}

/// Collects where each card is, refusing a number card in two places or a bet value with too many cards.
struct Ledger {
    numbers: u128,
    bets: [u32; 3],
}

impl Ledger {
    fn add(&mut self, k: u8, what: &str) -> Result<()> {
        if is_bet(k) {
            self.bets[(k - BET0) as usize] += 1;
        } else {
            let bit = 1u128 << k;
            if self.numbers & bit != 0 {
                return err(format!(
                    "the number card {} is in two places ({what})",
                    k + 1
                ));
            }
            self.numbers |= bit;
        }
        Ok(())
    }
}

/// Bit set and bet counts of a list of kinds.
fn split(list: &[u8]) -> (u128, [u8; 3]) {
    let mut set = 0u128;
    let mut bets = [0u8; 3];
    for &k in list {
        if is_bet(k) {
            bets[(k - BET0) as usize] += 1;
        } else {
            set |= 1u128 << k;
        }
    }
    (set, bets)
}

fn read_seat(obj: &Fields, q: usize, ledger: &mut Ledger) -> Result<Seat> {
    let what = format!("seats[{q}]");
    let hand = kinds(obj, "hand", KINDS as i64 - 1, true)?;
    if hand.len() > 2 {
        return obj.fail("hand", "holds more than 2 cards");
    }
    let line = kinds(obj, "line", KINDS as i64 - 1, false)?;
    let pile = obj.int("pile", 0, 100)? as u8;
    let mut tokens = [0u8; 6];
    for (d, t) in tokens.iter_mut().zip(obj.ints("tokens", 6..=6, 0, 2)?) {
        *d = t as u8;
    }
    let mut seat = Seat {
        pile,
        tokens,
        ..Seat::default()
    };
    for &k in &hand {
        ledger.add(k, &format!("{what}.hand"))?;
        seat.hand_add(k);
    }
    let mut numbers: Vec<u8> = Vec::new();
    for &k in &line {
        ledger.add(k, &format!("{what}.line"))?;
        if is_bet(k) {
            if seat.bet != 0 {
                return err(format!("{what}.line holds more than one bet card"));
            }
            seat.bet = bet_value(k);
            seat.before = numbers.len() as u8;
        } else {
            numbers.push(k);
            seat.line |= 1u128 << k;
        }
    }
    if numbers.len() >= 2 {
        let up = numbers[1] > numbers[0];
        let monotone = numbers
            .windows(2)
            .all(|w| if up { w[1] > w[0] } else { w[1] < w[0] });
        if !monotone {
            return err(format!(
                "{what}.line: its number cards are not strictly monotone"
            ));
        }
        seat.dir = if up { ASCENDING } else { DESCENDING };
    }
    for i in 0..3 {
        ledger.bets[i] += tokens[i] as u32 + tokens[i + 3] as u32;
    }
    Ok(seat)
}

pub fn deserialize(rules: &Rules, params: &Params, text: &str) -> Result<(LineItState, Vec<u32>)> {
    let value: Value = match crate::json::parse(text) {
        Ok(v) => v,
        Err(e) => return err(format!("not JSON ({e})")),
    };
    let obj = Fields::new(
        &value,
        PREFIX,
        "",
        &[
            "closed",
            "deck",
            "done",
            "final_pass",
            "first",
            "game",
            "history",
            "jackpot",
            "market",
            "params",
            "phase",
            "played",
            "round",
            "seats",
            "taken",
            "version",
        ],
    )?;
    obj.envelope(ID, VERSION, &params_to_json(params))?;
    let n = rules.n();
    let m = rules.market_size() as i64;
    let r = rules.rounds() as i64;

    let history: Vec<u32> = obj
        .ints("history", .., 0, NUM_ACTIONS as i64 - 1)?
        .into_iter()
        .map(|a| a as u32)
        .collect();

    const PHASES: [(Phase, &str); 4] = [
        (Phase::Deal, "deal"),
        (Phase::Turn, "turn"),
        (Phase::Final, "final"),
        (Phase::Over, "over"),
    ];
    let phase = obj.name("phase", &PHASES)?;
    let round = obj.int("round", 1, r)?;
    let first = obj.int("first", 0, n as i64 - 1)?;
    let done = obj.int("done", 0, i64::MAX)?;
    let final_pass = obj.int("final_pass", 0, 2)?;
    let taken = obj.bool("taken")?;
    let played = obj.bool("played")?;
    let closed = obj.bool("closed")?;

    let deck = kinds(&obj, "deck", KINDS as i64 - 1, true)?;
    let market = kinds(&obj, "market", KINDS as i64 - 1, true)?;
    if market.len() as i64 > m {
        return err(format!("the market holds more than {m} cards"));
    }
    let jackpot = kinds(&obj, "jackpot", 99, true)?;
    let seat_list = obj.list("seats", n..=n)?;

    let mut ledger = Ledger {
        numbers: 0,
        bets: [0; 3],
    };
    for &k in &deck {
        ledger.add(k, "deck")?;
    }
    for &k in &market {
        ledger.add(k, "market")?;
    }
    for &k in &jackpot {
        ledger.add(k, "jackpot")?;
    }
    let mut state = LineItState::new(*rules);
    const SEAT_KEYS: [&str; 4] = ["hand", "line", "pile", "tokens"];
    for (q, v) in seat_list.iter().enumerate() {
        let so = obj.object_at(&format!("seats[{q}]"), v, &SEAT_KEYS)?;
        state.seats[q] = read_seat(&so, q, &mut ledger)?;
    }
    for i in 0..3 {
        if ledger.bets[i] > BET_COPIES as u32 {
            return err(format!(
                "more than {BET_COPIES} bet cards of value {} (cards and tokens)",
                i + 3
            ));
        }
    }
    let (deck_set, deck_bets) = split(&deck);
    let (market_set, market_bets) = split(&market);
    state.phase = phase;
    state.round = round as u8;
    state.first = first as u8;
    state.final_pass = final_pass as u8;
    state.taken = taken;
    state.played = played;
    state.closed = closed;
    state.deck = deck_set;
    state.deck_bets = deck_bets;
    state.market = market_set;
    state.market_bets = market_bets;
    state.jackpot = split(&jackpot).0;

    let (deck_len, market_len) = (deck.len() as i64, market.len() as i64);
    if phase != Phase::Turn && (taken || played || closed) {
        return err("the turn flags must be false outside the turn phase");
    }
    if phase != Phase::Final && final_pass != 0 {
        return err("final_pass must be 0 outside the final phase");
    }
    match phase {
        Phase::Deal => {
            if market_len >= m {
                return err("a full market in the deal phase");
            }
            if deck_len + market_len != DECK_SIZE as i64 - m * (round - 1) {
                return err("deck and market do not add up to the cards left for this round");
            }
            if done != 0 {
                return err("done must be 0 in the deal phase");
            }
        }
        Phase::Turn => {
            if done >= n as i64 {
                return err(format!("done = {done} is outside 0..{}", n - 1));
            }
            if deck_len != DECK_SIZE as i64 - m * round {
                return err("the deck does not hold the cards left after this round's market");
            }
            if market_len != m - done - taken as i64 {
                return err("the market does not hold the cards the turns so far leave");
            }
        }
        Phase::Final => {
            if deck_len != 0 || market_len != 0 {
                return err("the deck and the market must be empty in the final phase");
            }
            if round != r {
                return err("the final phase comes after the last round");
            }
            if final_pass == 0 {
                return err("final_pass must be 1 or 2 in the final phase");
            }
            if done >= n as i64 {
                return err(format!("done = {done} is outside 0..{}", n - 1));
            }
        }
        Phase::Over => {
            if deck_len != 0 || market_len != 0 {
                return err("the deck and the market must be empty at the end");
            }
            if round != r {
                return err("the game ends after the last round");
            }
            if (0..n).any(|q| !state.seats[q].line_is_empty()) {
                return err("every line is closed at the end");
            }
            if done != 0 {
                return err("done must be 0 at the end");
            }
        }
    }
    state.done = done as u8;
    match phase {
        Phase::Turn => {
            let mut legal = Vec::new();
            state.legal_actions(&mut legal);
            if legal.is_empty() {
                return err("the current seat has no legal action");
            }
            if taken && legal == [super::notation::PASS] {
                return err("not settled: only pass is left, so the turn would have ended");
            }
        }
        Phase::Final if !state.seats[state.current()].able() => {
            return err("not settled: the current seat has no card to play");
        }
        _ => {}
    }
    Ok((state, history))
}
