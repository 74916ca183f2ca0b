//! The observation tensor (docs/rules/flip_city.md §6; docs/rules/flip_city_wilderness.md §6 for the family
//! layout) and the text views.

use super::cards::{BASE_FACES, FACES};
use super::state::{FlipState, Pending, Phase};
use super::Rules;
use std::fmt::Write;

fn family<const F: usize>() -> bool {
    F > BASE_FACES
}

/// Values per seat: deck, top card, discard (FC §6); and the deck's bottom part and `limit_next` (W §6).
fn seat_len<const F: usize>() -> usize {
    if family::<F>() {
        4 * F + 1
    } else {
        3 * F
    }
}

/// The deck-order block (FC §6, appended): for each seat, `C` slots, each the face code (1 + face, 0 for none)
/// of a known card of its deck in order (`deck_known` top first, then `deck_bottom` top first), then its
/// `best`; and `played`, `store_played`, `shuffled`. One code per slot rather than a one-hot of F: the block is
/// almost always empty below the top card (which the seat block already gives one-hot), and F values per slot
/// made it nine tenths of the row, so most of the cost of every `VectorGame` step (architecture decision 17).
fn order_len(players: usize, cards: usize) -> usize {
    players * (cards + 1) + 3
}

pub fn len<const F: usize>(rules: &Rules) -> usize {
    head_len::<F>(rules.players) + order_len(rules.players, rules.total_cards() as usize)
}

fn head_len<const F: usize>(players: usize) -> usize {
    if family::<F>() {
        // (4F + 3) x players + 3F + 25: the seats, two seat one-hots, supply, play area, removed, 12 scalars,
        // 3 phases, 10 pending steps.
        players * (seat_len::<F>() + 2) + 3 * F + 12 + 3 + 10
    } else {
        players * seat_len::<F>() + 2 * F + players + 10 + 3 + 5
    }
}

/// An element of an observation row: f32 (the tensor) or u8 (the same values, for `VectorGame`'s uint8 rows,
/// exact when `Rules::observation_bound` is at most 255).
pub trait Value: Copy + std::ops::AddAssign {
    const ZERO: Self;
    const ONE: Self;
    fn of(v: u32) -> Self;
}

impl Value for f32 {
    const ZERO: f32 = 0.0;
    const ONE: f32 = 1.0;
    #[inline]
    fn of(v: u32) -> f32 {
        v as f32
    }
}

impl Value for u8 {
    const ZERO: u8 = 0;
    const ONE: u8 = 1;
    #[inline]
    fn of(v: u32) -> u8 {
        v as u8
    }
}

/// Everything in the Flip City family is public, so every seat's tensor is the same facts rotated to its
/// point of view.
pub fn write<const F: usize, const CAP: usize, T: Value>(
    s: &FlipState<F, CAP>,
    player: usize,
    out: &mut [T],
) {
    let n = s.players();
    let fam = family::<F>();
    // The card count once (it is summed from the piles): the length and the deck-order slots.
    let slots = s.rules.total_cards() as usize;
    let total = head_len::<F>(n) + order_len(n, slots);
    if out.len() < total || player >= n {
        out.iter_mut().for_each(|x| *x = T::ZERO);
        return;
    }
    let out = &mut out[..total];
    out.fill(T::ZERO);
    let mut at = 0;
    for k in 0..n {
        let seat = &s.seats[(player + k) % n];
        let block = &mut out[at..at + seat_len::<F>()];
        for f in 0..F {
            block[f] = T::of(seat.unknown[f] as u32);
            block[2 * F + f] = T::of(seat.discard[f] as u32);
        }
        for f in seat.known.all() {
            block[f] += T::ONE;
        }
        if let Some(top) = seat.known.top() {
            block[F + top] = T::ONE;
        }
        if fam {
            for f in seat.known.bottom_top_first() {
                block[3 * F + f] += T::ONE;
            }
            block[4 * F] = T::of(seat.limit_next);
        }
        at += seat_len::<F>();
    }
    for f in 0..F {
        out[at + f] = T::of(s.supply[f] as u32);
        out[at + F + f] = T::of(s.play_area[f] as u32);
    }
    at += 2 * F;
    if fam {
        for f in 0..F {
            out[at + f] = T::of(s.removed[f] as u32);
        }
        at += F;
    }
    if s.phase != Phase::Over {
        out[at + (s.current + n - player) % n] = T::ONE;
    }
    at += n;
    let scalars = [
        s.cash,
        s.points,
        s.unhappiness,
        s.limit(),
        s.forced as u32,
        s.main as u32,
        s.extra_buys,
        s.extra_flips,
        s.discount,
        s.turn,
        s.flip_cash,
        s.digs,
    ]
    .map(T::of);
    let scalars = if fam { &scalars[..] } else { &scalars[..10] };
    out[at..at + scalars.len()].copy_from_slice(scalars);
    at += scalars.len();
    let phase = match s.phase {
        Phase::Play => 0,
        Phase::Build => 1,
        Phase::Over => 2,
    };
    out[at + phase] = T::ONE;
    at += 3;
    let pending = match s.pending {
        Pending::None => None,
        Pending::Shuffle => Some(0),
        Pending::GiveApartment => Some(1),
        Pending::GiveResidential => Some(2),
        Pending::Remove => Some(3),
        Pending::Bottom => Some(4),
        Pending::GiveResort => Some(5),
        Pending::Market => Some(6),
        Pending::Airport => Some(7),
        Pending::AirportCard => Some(8),
        Pending::AirportAside => Some(9),
    };
    let pendings = if fam { 10 } else { 5 };
    if let Some(i) = pending.filter(|&i| i < pendings) {
        out[at + i] = T::ONE;
    }
    at += pendings;
    if fam {
        if let Some(c) = s.chosen.filter(|&c| c < n) {
            out[at + (c + n - player) % n] = T::ONE;
        }
        at += n;
    }
    for k in 0..n {
        let seat = &s.seats[(player + k) % n];
        let known = seat.known.top_first().chain(seat.known.bottom_top_first());
        for (i, f) in known.take(slots).enumerate() {
            out[at + i] = T::of(f as u32 + 1);
        }
        at += slots;
        out[at] = T::of(seat.best);
        at += 1;
    }
    out[at] = T::of(s.played);
    out[at + 1] = T::of(s.store_played as u32);
    out[at + 2] = T::of(s.shuffled as u32);
}

fn counts_text(counts: &[u8]) -> String {
    let parts: Vec<String> = counts
        .iter()
        .enumerate()
        .filter(|(_, &c)| c > 0)
        .map(|(f, c)| format!("{} x{c}", FACES[f].name))
        .collect();
    if parts.is_empty() {
        "-".into()
    } else {
        parts.join(", ")
    }
}

/// A readable picture; with `Some(p)`, seats are named from p's point of view (the facts are all public).
pub fn text<const F: usize, const CAP: usize>(
    s: &FlipState<F, CAP>,
    viewer: Option<usize>,
) -> String {
    let mut t = String::new();
    let phase = match s.phase {
        Phase::Play => "Play Cards",
        Phase::Build => "Building",
        Phase::Over => "game over",
    };
    let title = if s.rules.wilderness {
        "Flip City: Wilderness"
    } else {
        "Flip City"
    };
    let _ = writeln!(
        t,
        "{title} - turn {} - seat {} - {phase}",
        s.turn + 1,
        s.current
    );
    if let Some(p) = viewer {
        let _ = writeln!(t, "you are seat {p}");
    }
    for (i, seat) in s.seats[..s.players()].iter().enumerate() {
        let unknown: u32 = seat.unknown.iter().map(|&c| c as u32).sum();
        let top = seat.known.top().map(|f| FACES[f].name).unwrap_or("-");
        let size = seat.known.len() as u32 + seat.known.bottom_len() as u32 + unknown;
        let _ = write!(t, "seat {i}: deck {size} (top: {top}");
        let names = |it: &mut dyn Iterator<Item = usize>| -> Vec<&str> {
            it.map(|f| FACES[f].name).collect()
        };
        if seat.known.len() > 1 {
            let _ = write!(
                t,
                ", known from the top: {}",
                names(&mut seat.known.top_first()).join(", ")
            );
        }
        if let Some(bottom) = seat.known.bottom_top_first().last() {
            let _ = write!(t, ", bottom: {}", FACES[bottom].name);
            if seat.known.bottom_len() > 1 {
                let _ = write!(
                    t,
                    ", known at the bottom (top down): {}",
                    names(&mut seat.known.bottom_top_first()).join(", ")
                );
            }
        }
        let _ = write!(
            t,
            "), discard: {}, best turn: {} points",
            counts_text(&seat.discard),
            seat.best
        );
        if seat.limit_next > 0 {
            let _ = write!(t, ", +{} limit next turn", seat.limit_next);
        }
        let _ = writeln!(t);
    }
    let _ = writeln!(t, "supply: {}", counts_text(&s.supply));
    if s.removed.iter().any(|&c| c > 0) {
        let _ = writeln!(t, "removed: {}", counts_text(&s.removed));
    }
    if s.phase != Phase::Over {
        let _ = writeln!(
            t,
            "played: {} ({} cards played this turn{}{})",
            counts_text(&s.play_area),
            s.played,
            if s.store_played {
                ", a Convenience Store among them"
            } else {
                ""
            },
            if s.shuffled { ", shuffled" } else { "" }
        );
        let _ = write!(
            t,
            "cash {}, points {}, unhappiness {}/{}",
            s.cash,
            s.points,
            s.unhappiness,
            s.limit()
        );
        if s.phase == Phase::Build {
            let _ = write!(
                t,
                ", main action {}, extra buys {}, extra flips {}, flip fees {} less",
                if s.main { "left" } else { "used" },
                s.extra_buys,
                s.extra_flips,
                s.discount
            );
            if s.digs > 0 {
                let _ = write!(t, ", digs {}", s.digs);
            }
        }
        if s.forced {
            let _ = write!(t, ", must play");
        }
        if s.flip_cash > 0 {
            let _ = write!(t, ", {} cash for Flip and Develop only", s.flip_cash);
        }
        let _ = writeln!(t);
        let pending = match s.pending {
            Pending::None => None,
            Pending::Shuffle => Some("shuffle"),
            Pending::GiveApartment => Some("give_apartment"),
            Pending::GiveResidential => Some("give_residential"),
            Pending::Remove => Some("remove"),
            Pending::Bottom => Some("bottom"),
            Pending::GiveResort => Some("give_resort"),
            Pending::Market => Some("market"),
            Pending::Airport => Some("airport"),
            Pending::AirportCard => Some("airport_card"),
            Pending::AirportAside => Some("airport_aside"),
        };
        if let Some(p) = pending {
            let _ = write!(t, "pending: {p}");
            if let Some(c) = s.chosen {
                let _ = write!(t, " (seat {c})");
            }
            let _ = writeln!(t);
        }
    } else {
        match s.winner {
            Some(w) => {
                let _ = writeln!(t, "winner: seat {w}");
            }
            None => {
                let _ = writeln!(t, "no winner");
            }
        }
    }
    t
}
