//! The observation tensor (docs/rules/flip_city.md §6) and the text views.

use super::cards::{FACES, NUM_FACES};
use super::state::{FlipCityState, Pending, Phase};
use std::fmt::Write;

const F: usize = NUM_FACES;

pub fn len(players: usize) -> usize {
    players * 3 * F + 2 * F + players + 10 + 3 + 5
}

/// Everything in Flip City is public, so every seat's tensor is the same facts rotated to its point of view.
pub fn write(s: &FlipCityState, player: usize, out: &mut [f32]) {
    let n = s.players();
    if out.len() < len(n) || player >= n {
        out.iter_mut().for_each(|x| *x = 0.0);
        return;
    }
    let out = &mut out[..len(n)];
    out.fill(0.0);
    let mut at = 0;
    for k in 0..n {
        let seat = &s.seats[(player + k) % n];
        let block = &mut out[at..at + 3 * F];
        for f in 0..F {
            block[f] = seat.unknown[f] as f32;
            block[2 * F + f] = seat.discard[f] as f32;
        }
        for f in seat.known.top_first() {
            block[f] += 1.0;
        }
        if let Some(top) = seat.known.top() {
            block[F + top] = 1.0;
        }
        at += 3 * F;
    }
    for f in 0..F {
        out[at + f] = s.supply[f] as f32;
        out[at + F + f] = s.play_area[f] as f32;
    }
    at += 2 * F;
    if s.phase != Phase::Over {
        out[at + (s.current + n - player) % n] = 1.0;
    }
    at += n;
    let scalars = [
        s.cash as f32,
        s.points as f32,
        s.unhappiness as f32,
        s.limit() as f32,
        s.forced as u8 as f32,
        s.main as u8 as f32,
        s.extra_buys as f32,
        s.extra_flips as f32,
        s.discount as u8 as f32,
        s.turn as f32,
    ];
    out[at..at + 10].copy_from_slice(&scalars);
    at += 10;
    let phase = match s.phase {
        Phase::Play => 0,
        Phase::Build => 1,
        Phase::Over => 2,
    };
    out[at + phase] = 1.0;
    at += 3;
    let pending = match s.pending {
        Pending::None => None,
        Pending::Shuffle => Some(0),
        Pending::GiveApartment => Some(1),
        Pending::GiveResidential => Some(2),
        Pending::Remove => Some(3),
        Pending::Bottom => Some(4),
    };
    if let Some(i) = pending {
        out[at + i] = 1.0;
    }
}

fn counts_text(counts: &[u8; F]) -> String {
    let parts: Vec<String> = (0..F)
        .filter(|&f| counts[f] > 0)
        .map(|f| format!("{} x{}", FACES[f].name, counts[f]))
        .collect();
    if parts.is_empty() {
        "-".into()
    } else {
        parts.join(", ")
    }
}

/// A readable picture; with `Some(p)`, seats are named from p's point of view (the facts are all public).
pub fn text(s: &FlipCityState, viewer: Option<usize>) -> String {
    let mut t = String::new();
    let phase = match s.phase {
        Phase::Play => "Play Cards",
        Phase::Build => "Building",
        Phase::Over => "game over",
    };
    let _ = writeln!(
        t,
        "Flip City - turn {} - seat {} - {phase}",
        s.turn + 1,
        s.current
    );
    if let Some(p) = viewer {
        let _ = writeln!(t, "you are seat {p}");
    }
    for (i, seat) in s.seats[..s.players()].iter().enumerate() {
        let unknown: u32 = seat.unknown.iter().map(|&c| c as u32).sum();
        let top = seat.known.top().map(|f| FACES[f].name).unwrap_or("-");
        let _ = writeln!(
            t,
            "seat {i}: deck {} (top: {top}), discard: {}, best turn: {} points",
            seat.known.len() as u32 + unknown,
            counts_text(&seat.discard),
            seat.best
        );
    }
    let _ = writeln!(t, "supply: {}", counts_text(&s.supply));
    if s.phase != Phase::Over {
        let _ = writeln!(t, "played: {}", counts_text(&s.play_area));
        let _ = writeln!(
            t,
            "cash {}, points {}, unhappiness {}/{}",
            s.cash,
            s.points,
            s.unhappiness,
            s.limit()
        );
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
