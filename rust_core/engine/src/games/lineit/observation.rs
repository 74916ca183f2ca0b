//! The observation tensor and the text views (docs/rules/lineit.md §7). Everything is public: the tensor is the
//! whole state, with the seats written relative to the observer.

use super::cards::{bits, card_text, BET0, COLOUR_NAMES};
use super::state::{LineItState, Phase, ASCENDING, DESCENDING, NONE, UNDEFINED};
use crate::State;
use std::fmt::Write;

/// §7.1: `424 + 222 n`.
pub fn len(n: usize) -> usize {
    100 * (4 + 2 * n) + 3 * (3 + 2 * n) + 14 * n + 15 + 2 * n
}

pub fn tensor(s: &LineItState, p: usize, out: &mut [f32]) {
    let n = s.n();
    for o in out.iter_mut() {
        *o = 0.0;
    }
    if out.len() < len(n) || p >= n {
        return;
    }
    let rel = |seat: usize| (seat + n - p) % n;
    // 1. Number cards: deck, market, jackpot, out, hands (n), lines (n).
    let per = 4 + 2 * n;
    for k in 0..100usize {
        let bit = 1u128 << k;
        let base = k * per;
        let slot = if s.deck & bit != 0 {
            0
        } else if s.market & bit != 0 {
            1
        } else if s.jackpot & bit != 0 {
            2
        } else if let Some(seat) = (0..n).find(|&q| s.seats[q].has_in_hand(k as u8)) {
            4 + rel(seat)
        } else if let Some(seat) = (0..n).find(|&q| s.seats[q].line & bit != 0) {
            4 + n + rel(seat)
        } else {
            3
        };
        out[base + slot] = 1.0;
    }
    // 2. Bet cards: deck, market, out, hands (n), lines (n).
    let mut at = 100 * per;
    for i in 0..3usize {
        let k = BET0 + i as u8;
        let v = 3 + i as u8;
        let mut held = 0u32;
        out[at] = s.deck_bets[i] as f32;
        out[at + 1] = s.market_bets[i] as f32;
        held += s.deck_bets[i] as u32 + s.market_bets[i] as u32;
        for q in 0..n {
            let seat = &s.seats[q];
            let in_hand = seat.hand.iter().filter(|&&h| h == k).count() as u32;
            let in_line = (seat.bet == v) as u32;
            out[at + 3 + rel(q)] = in_hand as f32;
            out[at + 3 + n + rel(q)] = in_line as f32;
            held += in_hand + in_line;
        }
        out[at + 2] = 2u32.saturating_sub(held) as f32;
        at += 3 + 2 * n;
    }
    // 3. Seats.
    let masks = s.rules.colour_masks();
    for q in 0..n {
        let seat = &s.seats[q];
        let o = at + 14 * rel(q);
        let numbers = seat.numbers();
        out[o] = seat.pile as f32;
        out[o + 1] = (seat.score() - seat.pile as i32) as f32;
        out[o + 2] = numbers as f32;
        let d = match seat.dir {
            ASCENDING => 1,
            DESCENDING => 2,
            _ => 0,
        };
        out[o + 3 + d] = 1.0;
        out[o + 6] = seat.last().map_or(0.0, |k| k as f32 + 1.0);
        out[o + 7] = seat.bet as f32;
        if seat.bet != 0 {
            out[o + 8] = (numbers - seat.before as u32) as f32;
        }
        for c in 0..4 {
            out[o + 9 + c] = (seat.line & masks[c]).count_ones() as f32;
        }
        out[o + 13] = seat.hand_len() as f32;
    }
    at += 14 * n;
    // 4. Global.
    for c in 0..4 {
        out[at + c] = (s.jackpot & masks[c]).count_ones() as f32;
    }
    out[at + 4] = s.deck_len() as f32;
    out[at + 5] = s.round as f32;
    let phase = match s.phase {
        Phase::Deal => 0,
        Phase::Turn => 1,
        Phase::Final => 2,
        Phase::Over => 3,
    };
    out[at + 6 + phase] = 1.0;
    out[at + 10 + rel(s.first as usize)] = 1.0;
    if matches!(s.phase, Phase::Turn | Phase::Final) {
        out[at + 10 + n + rel(s.current())] = 1.0;
    }
    let g = at + 10 + 2 * n;
    out[g] = s.taken as u8 as f32;
    out[g + 1] = s.played as u8 as f32;
    out[g + 2] = s.closed as u8 as f32;
    out[g + 3] = s.final_pass as f32;
    out[g + 4] = s.done as f32;
}

fn list(kinds: impl Iterator<Item = u8>) -> String {
    let v: Vec<String> = kinds.map(card_text).collect();
    if v.is_empty() {
        "-".into()
    } else {
        v.join(" ")
    }
}

/// A readable picture of the state (everything is public, so every viewer sees the same facts).
pub fn text(s: &LineItState, viewer: Option<usize>) -> String {
    let mut t = String::new();
    let n = s.n();
    let phase = match s.phase {
        Phase::Deal => "deal",
        Phase::Turn => "turn",
        Phase::Final => "final",
        Phase::Over => "over",
    };
    if let Some(p) = viewer {
        let _ = writeln!(t, "viewer: seat {p}");
    }
    let _ = writeln!(
        t,
        "phase {phase}, round {}/{}, first player {}, current {}",
        s.round,
        s.rules.rounds(),
        s.first,
        s.current_player()
    );
    if s.phase == Phase::Turn {
        let _ = writeln!(
            t,
            "turn: taken {}, played {}, closed {}",
            s.taken, s.played, s.closed
        );
    }
    if s.phase == Phase::Final {
        let _ = writeln!(t, "final pass {}", s.final_pass);
    }
    let bets = |counts: [u8; 3]| {
        (0..3u8).flat_map(move |i| std::iter::repeat_n(BET0 + i, counts[i as usize] as usize))
    };
    let _ = writeln!(t, "deck: {} cards", s.deck_len());
    let _ = writeln!(
        t,
        "market: {}",
        list(bits(s.market).chain(bets(s.market_bets)))
    );
    let masks = s.rules.colour_masks();
    let jack: Vec<String> = (0..4)
        .map(|c| {
            format!(
                "{} {}",
                COLOUR_NAMES[c],
                (s.jackpot & masks[c]).count_ones()
            )
        })
        .collect();
    let _ = writeln!(t, "jackpots: {}", jack.join(", "));
    for q in 0..n {
        let seat = &s.seats[q];
        let dir = match seat.dir {
            UNDEFINED => "",
            ASCENDING => " (ascending)",
            _ => " (descending)",
        };
        let _ = writeln!(
            t,
            "seat {q}: score {} (pile {}), hand [{}], line [{}]{dir}",
            seat.score(),
            seat.pile,
            list(seat.hand.iter().copied().filter(|&k| k != NONE)),
            list(seat.line_cards().into_iter()),
        );
    }
    t
}
