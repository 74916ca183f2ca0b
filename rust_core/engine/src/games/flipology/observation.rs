//! What a seat sees (docs/rules/flipology.md §8): the observation tensor, the text views and the information
//! state string. A card's identity is shown to seat p only when the card is face up or its record says p knows
//! it; everything else shown is public.

use super::cards::{CARDS, CLEARING, NUM_IDS};
use super::notation::position_text;
use super::state::{Effect, FlipologyState, Phase, Record, Step};
use super::Rules;
use crate::State;
use std::fmt::Write;

/// Values per position in block 1: present, face up, identity one-hot (31), in `used`, `= source`, in `marks`.
const PER_POSITION: usize = 36;

pub fn len(rules: &Rules) -> usize {
    let n = rules.n();
    PER_POSITION * n * rules.slots() + 7 * n + 91
}

fn phase_index(phase: Phase) -> usize {
    match phase {
        Phase::Deal => 0,
        Phase::Regrow => 1,
        Phase::Redeal => 2,
        Phase::Arrange => 3,
        Phase::Play => 4,
        Phase::Over => 5,
    }
}

fn step_index(step: Step) -> Option<usize> {
    match step {
        Step::None => None,
        Step::Flip => Some(0),
        Step::Target => Some(1),
        Step::Monkey => Some(2),
        Step::Choose => Some(3),
        Step::Mimic => Some(4),
        Step::Peek => Some(5),
        Step::SunFlip => Some(6),
        Step::Rain => Some(7),
    }
}

fn effect_index(effect: Effect) -> Option<usize> {
    match effect {
        Effect::None => None,
        Effect::Dog => Some(0),
        Effect::Snake => Some(1),
        Effect::Frog => Some(2),
        Effect::Monkey => Some(3),
        Effect::Hawk => Some(4),
        Effect::Mole => Some(5),
        Effect::Parrot => Some(6),
        Effect::Hunter => Some(7),
        Effect::Rain => Some(8),
        Effect::Sun => Some(9),
        Effect::Wind => Some(10),
    }
}

/// Whether seat p may see the identity of a record: face up, or known to p.
#[inline]
fn visible(r: &Record, up: bool, p: usize) -> bool {
    r.is_present() && (up || r.known & (1 << p) != 0)
}

/// `x mod n` for the seat arithmetic: a comparison in every reachable state (seats are below `n`), the division
/// only for a state read from bad data.
#[inline]
fn seat_mod(x: usize, n: usize) -> usize {
    if x < n {
        x
    } else {
        x % n
    }
}

/// §8.1, block by block. A bad seat or a short buffer gives zeros (the bindings check both first).
///
/// This runs once per `VectorGame` step for every game, so it is written from the state's bitsets: only the
/// values that are not zero are visited, and the seats' relative order is a subtraction, not a division.
pub fn write(s: &FlipologyState, p: usize, out: &mut [f32]) {
    let rules = &s.rules;
    let n = rules.n();
    let size = len(rules);
    if out.len() < size || p >= n {
        out.iter_mut().for_each(|x| *x = 0.0);
        return;
    }
    let out = &mut out[..size];
    out.fill(0.0);
    let slots = rules.slots();
    let npos = n * slots;
    // Seats are listed from p on, so position `pos` is the `(pos - slots * p) mod npos`-th of block 1.
    let shift = npos - slots * p;
    let block = |pos: usize| {
        let k = pos + shift;
        PER_POSITION * if k >= npos { k - npos } else { k }
    };
    let rel = |seat: usize| {
        let k = seat + n - p;
        if k >= n {
            k - n
        } else {
            k
        }
    };
    // 1. Positions, seats in relative order.
    let all = if npos >= 64 {
        u64::MAX
    } else {
        (1u64 << npos) - 1
    };
    let present = s.present_mask();
    let mut bits = present;
    while bits != 0 {
        let pos = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        let base = block(pos);
        let r = &s.rows[pos];
        let up = s.is_up(pos);
        // Stored whether 0 or 1 (the row is cleared and these slots are this position's alone): facing and
        // knowledge are as good as random, and a branch on them is mispredicted half the time.
        out[base] = 1.0;
        out[base + 1] = up as u8 as f32;
        if (r.card as usize) < NUM_IDS {
            out[base + 2 + r.card as usize] = visible(r, up, p) as u8 as f32;
        }
    }
    let mut bits = s.used & all;
    while bits != 0 {
        let pos = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        out[block(pos) + 33] = 1.0;
    }
    if let Ok(pos) = usize::try_from(s.source) {
        if pos < npos {
            out[block(pos) + 34] = 1.0;
        }
    }
    for &m in &s.marks[..s.marks_len as usize] {
        if (m as usize) < npos {
            out[block(m as usize) + 35] = 1.0;
        }
    }
    let mut at = PER_POSITION * npos;
    // 2. Own hand.
    for hc in s.hand(p) {
        out[at + hc.card as usize] += 1.0;
    }
    at += NUM_IDS;
    // 3. Hand sizes.
    for seat in 0..n {
        out[at + rel(seat)] = s.hand_len[seat] as f32;
    }
    at += n;
    // 4. Known discards.
    for r in s.discards() {
        if r.known & (1 << p) != 0 && (r.card as usize) < NUM_IDS {
            out[at + r.card as usize] += 1.0;
        }
    }
    at += NUM_IDS;
    // 5. Discard size, pile size.
    out[at] = s.discard_len as f32;
    out[at + 1] = s.pile_size() as f32;
    at += 2;
    // 6. Per seat: total, showing, Regrowth used.
    for seat in 0..n {
        let b = at + 3 * rel(seat);
        out[b] = s.total[seat] as f32;
        out[b + 1] = s.showing(seat) as f32;
        out[b + 2] = (s.regrown[seat] >= 0) as u8 as f32;
    }
    at += 3 * n;
    // 7. Current seat (none once the game is over).
    if s.phase != Phase::Over {
        out[at + rel(seat_mod(s.current as usize, n))] = 1.0;
    }
    at += n;
    // 8. Start seat.
    out[at + rel(seat_mod(s.start as usize, n))] = 1.0;
    at += n;
    // 9. Phase.
    out[at + phase_index(s.phase)] = 1.0;
    at += 6;
    // 10. Step.
    if let Some(i) = step_index(s.step) {
        out[at + i] = 1.0;
    }
    at += 8;
    // 11. Effect.
    if let Some(i) = effect_index(s.effect) {
        out[at + i] = 1.0;
    }
    at += 11;
    // 12. Rain seat.
    if s.rain >= 0 {
        out[at + rel(seat_mod(s.rain as usize, n))] = 1.0;
    }
    at += n;
    // 13. Round, turn.
    out[at] = s.round as f32;
    out[at + 1] = s.turn as f32;
}

fn card_name(card: u8) -> &'static str {
    CARDS.get(card as usize).map_or("?", |c| c.name)
}

/// A readable picture: with `Some(p)`, what seat p sees (face-up cards in brackets, cards p knows face down in
/// parentheses, the others as `??`); with `None`, everything.
pub fn text(s: &FlipologyState, viewer: Option<usize>) -> String {
    let rules = &s.rules;
    let n = rules.n();
    let mut t = String::new();
    let variant = match rules.variant {
        0 => "Nature",
        1 => "Nature variant",
        _ => "Great Tree",
    };
    let phase = match s.phase {
        Phase::Deal => "deal",
        Phase::Regrow => "regrowth",
        Phase::Redeal => "redeal",
        Phase::Arrange => "arrangement",
        Phase::Play => "play",
        Phase::Over => "game over",
    };
    let _ = writeln!(
        t,
        "Flipology ({variant}) - round {} - turn {} - {phase} - start seat {} - seat {}",
        s.round + 1,
        s.turn as u32 + 1,
        s.start,
        s.current
    );
    if let Some(p) = viewer {
        let _ = writeln!(t, "you are seat {p}");
    }
    if s.phase == Phase::Play {
        let _ = writeln!(
            t,
            "step {:?}, effect {:?}, source {}, marks {:?}, rain {}",
            s.step,
            s.effect,
            s.source,
            &s.marks[..s.marks_len as usize],
            s.rain
        );
    }
    let show = |r: &Record, up: bool| -> String {
        let seen = viewer.is_none_or(|p| visible(r, up, p));
        match (up, seen) {
            (true, _) => format!("[{}]", card_name(r.card)),
            (false, true) => format!("({})", card_name(r.card)),
            (false, false) => "??".into(),
        }
    };
    for seat in 0..n {
        let _ = write!(
            t,
            "seat {seat}: total {}, showing {}",
            s.total[seat],
            s.showing(seat)
        );
        if rules.great_tree() {
            let _ = write!(
                t,
                ", regrowth {}",
                if s.regrown[seat] >= 0 {
                    "used"
                } else {
                    "unused"
                }
            );
        }
        let _ = writeln!(t);
        let hand = s.hand(seat);
        if !hand.is_empty() {
            let names: Vec<&str> = if viewer.is_none_or(|p| p == seat) {
                hand.iter().map(|h| card_name(h.card)).collect()
            } else {
                hand.iter().map(|_| "??").collect()
            };
            let _ = writeln!(t, "  hand: {}", names.join(", "));
        }
        let row_len = rules.row_len();
        let slots = rules.slots();
        for first in (slots * seat..slots * seat + slots).step_by(row_len) {
            let cells: Vec<String> = (first..first + row_len)
                .filter(|&pos| s.rows[pos].is_present())
                .map(|pos| {
                    format!(
                        "{} {}",
                        position_text(rules.great_tree(), pos as u32),
                        show(&s.rows[pos], s.is_up(pos))
                    )
                })
                .collect();
            if !cells.is_empty() {
                let _ = writeln!(t, "  {}", cells.join("  "));
            }
        }
    }
    let discards: Vec<String> = s
        .discards()
        .iter()
        .map(|r| {
            if viewer.is_none_or(|p| r.known & (1 << p) != 0) {
                format!("({})", card_name(r.card))
            } else {
                "??".into()
            }
        })
        .collect();
    let _ = writeln!(
        t,
        "pile: {} cards; discards: {}",
        s.pile_size(),
        if discards.is_empty() {
            "-".into()
        } else {
            discards.join(", ")
        }
    );
    if s.phase == Phase::Over {
        let winners: Vec<String> = s.winner_seats().map(|w| w.to_string()).collect();
        let _ = writeln!(t, "winners: seat {}", winners.join(", seat "));
    }
    t
}

/// Does seat p know the record that was at `pos` before, or in p's hand, with this draw number?
fn known_before(before: &FlipologyState, p: usize, pos: usize, draw: u16) -> bool {
    let bit = 1u8 << p;
    let r = &before.rows[pos];
    if r.is_present() && before.draw_number(r.draw) == draw {
        return r.known & bit != 0;
    }
    let npos = before.positions();
    if let Some(r) = before.rows[..npos]
        .iter()
        .find(|r| r.is_present() && r.card != CLEARING && before.draw_number(r.draw) == draw)
    {
        return r.known & bit != 0;
    }
    before
        .hand(p)
        .iter()
        .any(|h| before.draw_number(h.draw) == draw)
}

/// §8.2: the public actions, p's own cards, and every card p learned, where and when. Replays the history from
/// the initial state, comparing what p knows of the rows before and after each action.
pub fn information_state(s: &FlipologyState, p: usize, history: &[u32]) -> String {
    let mut out = format!("seat={p} history=");
    if p >= s.n() {
        return out;
    }
    let bit = 1u8 << p;
    let mut state = FlipologyState::new(s.rules);
    state.hold_reset = true;
    for (i, &action) in history.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let hidden = if state.is_chance_node() {
            state.current as usize != p
        } else {
            state.phase == Phase::Arrange
                && state.current as usize != p
                && (super::notation::PLACE..super::notation::MIMIC).contains(&action)
        };
        if hidden {
            out.push('?');
        } else {
            let _ = write!(out, "{action}");
        }
        if !state.is_legal(action) {
            continue;
        }
        let before = state;
        state.apply_unchecked(action);
        for pos in 0..state.positions() {
            let r = state.rows[pos];
            if r.is_present()
                && r.card != CLEARING
                && r.known & bit != 0
                && !known_before(&before, p, pos, state.draw_number(r.draw))
            {
                let _ = write!(out, "/{pos}:{}", r.card);
            }
        }
        if state.held {
            state.held = false;
            state.next_variant_round();
        }
    }
    out
}
