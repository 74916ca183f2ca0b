//! Action ids and their canonical text (docs/rules/caboodle.md §7).

use super::state::{decode_place, CaboodleState, NUM_ACTIONS, P, PASS, R, SELECT};
use super::tiles::T;
use crate::notation::{fold_white_space, out_of_range};
use crate::{GameError, Result, State};

pub fn action_to_string(s: &CaboodleState, a: u32) -> Result<String> {
    if s.is_chance_node() {
        if (a as usize) < T {
            return Ok(format!("draw {a}"));
        }
        return Err(out_of_range(a, T as u32));
    }
    if a >= NUM_ACTIONS {
        return Err(out_of_range(a, NUM_ACTIONS));
    }
    Ok(if a < P {
        let (x, y, r) = decode_place(a);
        format!("place {x},{y} r{}", r * 90)
    } else if a < PASS {
        format!("tile {}", a - SELECT)
    } else {
        "pass".to_string()
    })
}

fn bad(text: &str) -> GameError {
    GameError::InvalidNotation(format!("{text:?} is not a caboodle action here"))
}

/// Decimal digits, leading zeros allowed; `None` when not digits or too large.
fn digits(s: &str) -> Option<i64> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let trimmed = s.trim_start_matches('0');
    if trimmed.len() > 6 {
        return None;
    }
    Some(trimmed.parse::<i64>().unwrap_or(0))
}

fn coordinate(s: &str) -> Option<i32> {
    let (neg, rest) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let v = digits(rest)?;
    let v = if neg { -v } else { v };
    (v.abs() <= R as i64).then_some(v as i32)
}

pub fn string_to_action(s: &CaboodleState, text: &str) -> Result<u32> {
    let folded = fold_white_space(text);
    let err = || bad(text);
    if s.is_chance_node() {
        let rest = folded.strip_prefix("draw ").ok_or_else(err)?;
        let t = digits(rest).filter(|&t| (t as usize) < T).ok_or_else(err)?;
        return Ok(t as u32);
    }
    if folded == "pass" {
        return Ok(PASS);
    }
    if let Some(rest) = folded.strip_prefix("tile ") {
        let t = digits(rest).filter(|&t| (t as usize) < T).ok_or_else(err)?;
        return Ok(SELECT + t as u32);
    }
    if let Some(rest) = folded.strip_prefix("place ") {
        let compact = rest.replace(" ,", ",").replace(", ", ",");
        let (cell, rot) = compact.split_once(' ').ok_or_else(err)?;
        let (xs, ys) = cell.split_once(',').ok_or_else(err)?;
        let x = coordinate(xs).ok_or_else(err)?;
        let y = coordinate(ys).ok_or_else(err)?;
        let r = match rot {
            "r0" => 0,
            "r90" => 1,
            "r180" => 2,
            "r270" => 3,
            _ => return Err(err()),
        };
        return Ok(super::state::place_id(x, y, r));
    }
    Err(err())
}
