//! Action ids and their canonical text (docs/rules/forbidden_island.md §8). Writers are canonical; the reader is
//! relaxed about ASCII case and spacing, and about the order of the seats of a Helicopter Lift.

use super::data::{data, HAND_KINDS, KINDS, ROLES, TILES};
use super::state::{ForbiddenIslandState, Phase};
use crate::notation::{fold_white_space, out_of_range};
use crate::{GameError, Result};

/// `move <pos>`: 0 + q.
pub const MOVE: u32 = 0;
/// `shore <pos>`: 24 + q.
pub const SHORE: u32 = 24;
/// `give <s> <kind>`: 48 + 4 s + k.
pub const GIVE: u32 = 48;
pub const CAPTURE: u32 = 64;
/// `navigate <s> <pos>`: 65 + 24 s + q.
pub const NAVIGATE: u32 = 65;
/// `sandbag <pos>`: 161 + q.
pub const SANDBAG: u32 = 161;
/// `heli <seats> <pos>`: 185 + 24 (m - 1) + q.
pub const HELI_LIFT: u32 = 185;
pub const LIFTOFF: u32 = 545;
/// `discard <kind>`: 546 + k.
pub const DISCARD: u32 = 546;
/// `swim <pos>`: 552 + q.
pub const SWIM: u32 = 552;
pub const PASS: u32 = 576;
pub const NUM_ACTIONS: u32 = 577;

/// The chance text's word and the number of outcomes of a chance phase.
fn chance_word(phase: Phase) -> Option<(&'static str, u32)> {
    match phase {
        Phase::Layout => Some(("tile", TILES as u32)),
        Phase::SetupFlood | Phase::Flood => Some(("flood", TILES as u32)),
        Phase::Roles => Some(("role", ROLES as u32)),
        Phase::Deal | Phase::Treasure => Some(("card", KINDS as u32)),
        _ => None,
    }
}

fn seats_text(m: u32) -> String {
    (0..4)
        .filter(|s| m >> s & 1 == 1)
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join("+")
}

pub fn action_to_string(state: &ForbiddenIslandState, action: u32) -> Result<String> {
    let d = data();
    if let Some((word, count)) = chance_word(state.phase) {
        if action >= count {
            return Err(out_of_range(action, count));
        }
        let a = action as usize;
        let arg = match state.phase {
            Phase::Roles => &d.role_keys[a],
            Phase::Deal | Phase::Treasure => &d.card_keys[a],
            _ => &d.tile_keys[a],
        };
        return Ok(format!("{word} {arg}"));
    }
    let pos = |q: u32| state.layout().names[q as usize].as_str();
    let kind = |k: u32| d.card_keys[k as usize].as_str();
    Ok(match action {
        a if a < SHORE => format!("move {}", pos(a)),
        a if a < GIVE => format!("shore {}", pos(a - SHORE)),
        a if a < CAPTURE => format!("give {} {}", (a - GIVE) / 4, kind((a - GIVE) % 4)),
        CAPTURE => "capture".into(),
        a if a < SANDBAG => format!(
            "navigate {} {}",
            (a - NAVIGATE) / 24,
            pos((a - NAVIGATE) % 24)
        ),
        a if a < HELI_LIFT => format!("sandbag {}", pos(a - SANDBAG)),
        a if a < LIFTOFF => format!(
            "heli {} {}",
            seats_text((a - HELI_LIFT) / 24 + 1),
            pos((a - HELI_LIFT) % 24)
        ),
        LIFTOFF => "liftoff".into(),
        a if a < SWIM => format!("discard {}", kind(a - DISCARD)),
        a if a < PASS => format!("swim {}", pos(a - SWIM)),
        PASS => "pass".into(),
        a => return Err(out_of_range(a, NUM_ACTIONS)),
    })
}

/// A seat number `0`..`3`.
fn parse_seat(text: &str) -> Option<u32> {
    match text {
        "0" => Some(0),
        "1" => Some(1),
        "2" => Some(2),
        "3" => Some(3),
        _ => None,
    }
}

/// `<seats>`: seats joined by `+`, any order, none twice; the mask.
fn parse_seats(text: &str) -> Option<u32> {
    let mut m = 0u32;
    for part in text.split('+') {
        let s = parse_seat(part)?;
        if m >> s & 1 == 1 {
            return None;
        }
        m |= 1 << s;
    }
    (m != 0).then_some(m)
}

pub fn string_to_action(state: &ForbiddenIslandState, text: &str) -> Result<u32> {
    let d = data();
    let folded = fold_white_space(text);
    let bad = || GameError::InvalidNotation(format!("forbidden_island: cannot read {text:?} here"));
    if let Some((word, _)) = chance_word(state.phase) {
        let arg = folded
            .strip_prefix(word)
            .and_then(|r| r.strip_prefix(' '))
            .unwrap_or(&folded);
        let table = match state.phase {
            Phase::Roles => &d.role_keys,
            Phase::Deal | Phase::Treasure => &d.card_keys,
            _ => &d.tile_keys,
        };
        return table
            .iter()
            .position(|k| k == arg)
            .map(|i| i as u32)
            .ok_or_else(bad);
    }
    let names = &state.layout().names;
    let pos = |t: &str| names.iter().position(|n| n == t).map(|q| q as u32);
    let kind = |t: &str, below: usize| {
        d.card_keys[..below]
            .iter()
            .position(|k| k == t)
            .map(|k| k as u32)
    };
    let words: Vec<&str> = folded.split(' ').collect();
    let id = match words.as_slice() {
        ["capture"] => Some(CAPTURE),
        ["liftoff"] => Some(LIFTOFF),
        ["pass"] => Some(PASS),
        ["move", q] => pos(q).map(|q| MOVE + q),
        ["shore", q] => pos(q).map(|q| SHORE + q),
        ["sandbag", q] => pos(q).map(|q| SANDBAG + q),
        ["swim", q] => pos(q).map(|q| SWIM + q),
        ["give", s, k] => parse_seat(s).zip(kind(k, 4)).map(|(s, k)| GIVE + 4 * s + k),
        ["navigate", s, q] => parse_seat(s)
            .zip(pos(q))
            .map(|(s, q)| NAVIGATE + 24 * s + q),
        ["heli", m, q] => parse_seats(m)
            .zip(pos(q))
            .map(|(m, q)| HELI_LIFT + 24 * (m - 1) + q),
        ["discard", k] => kind(k, HAND_KINDS).map(|k| DISCARD + k),
        _ => None,
    };
    id.ok_or_else(bad)
}
