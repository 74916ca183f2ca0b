//! Action ids and their text (docs/rules/carcassonne.md §7).

use super::state::{CarcassonneState, Phase};
use super::tiles::{tile, tiles, type_by_name, EDGE_NAMES, HALF_NAMES, K, KIND_NAMES, T};
use crate::notation::{fold_white_space, out_of_range};
use crate::{GameError, Result};

const ROTS: [&str; 4] = ["r0", "r90", "r180", "r270"];

fn bad(text: &str) -> GameError {
    GameError::InvalidNotation(format!("not a Carcassonne action: {text:?}"))
}

/// The tile just placed and its rotation, in phase `follower`.
fn just_placed(s: &CarcassonneState) -> Option<(u8, usize)> {
    if s.phase != Phase::Follower {
        return None;
    }
    let p = s.board.slots[s.last_slot()];
    Some((p.typ, p.rot as usize))
}

pub fn action_to_string(s: &CarcassonneState, a: u32) -> Result<String> {
    if matches!(s.phase, Phase::Deal | Phase::Draw) {
        if (a as usize) < T {
            return Ok(format!("draw {}", tiles()[a as usize].name));
        }
        return Err(out_of_range(a, T as u32));
    }
    let p = s.cfg.p();
    let n = s.cfg.num_actions() as u32;
    if a >= n {
        return Err(out_of_range(a, n));
    }
    if a < p {
        let (x, y) = s.board.xy(a / 4);
        return Ok(format!("place {x},{y} {}", ROTS[(a % 4) as usize]));
    }
    if a == p {
        return Ok("no follower".into());
    }
    if a <= p + K as u32 {
        let k = (a - p - 1) as usize;
        if let Some((t, r)) = just_placed(s) {
            let tt = tile(t);
            if k < tt.features.len() {
                let kind = KIND_NAMES[tt.features[k].kind as usize];
                return Ok(match tt.first_where(k, r) {
                    Some(w) => format!("follower {kind} {w}"),
                    None => format!("follower {kind}"),
                });
            }
        }
        return Ok(format!("follower #{k}"));
    }
    Ok(format!(
        "tile {}",
        tiles()[(a - p - 1 - K as u32) as usize].name
    ))
}

fn int(text: &str) -> Option<i64> {
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    if digits.is_empty() || digits.len() > 12 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.strip_prefix('+').unwrap_or(text).parse().ok()
}

pub fn string_to_action(s: &CarcassonneState, text: &str) -> Result<u32> {
    let f = fold_white_space(text);
    if matches!(s.phase, Phase::Deal | Phase::Draw) {
        let name = f.strip_prefix("draw ").unwrap_or(&f);
        return type_by_name(name)
            .map(|t| t as u32)
            .ok_or_else(|| bad(text));
    }
    let p = s.cfg.p();
    if let Some(rest) = f.strip_prefix("place ") {
        let rest = rest.replace(" ,", ",").replace(", ", ",");
        let (xy, rot) = rest.split_once(' ').ok_or_else(|| bad(text))?;
        let (xs, ys) = xy.split_once(',').ok_or_else(|| bad(text))?;
        let (x, y) = (
            int(xs).ok_or_else(|| bad(text))?,
            int(ys).ok_or_else(|| bad(text))?,
        );
        let r = ROTS
            .iter()
            .position(|&q| q == rot)
            .ok_or_else(|| bad(text))?;
        let big_r = s.cfg.r as i64;
        if x.abs() > big_r || y.abs() > big_r {
            return Err(GameError::InvalidNotation(format!(
                "{text:?}: ({x}, {y}) is outside the board window |x|, |y| <= {big_r}"
            )));
        }
        return Ok(s.board.cell(x as i32, y as i32) * 4 + r as u32);
    }
    if f == "no follower" {
        return Ok(p);
    }
    if let Some(rest) = f.strip_prefix("follower ") {
        if let Some(k) = rest.strip_prefix('#') {
            if !k.is_empty() && k.len() <= 3 && k.bytes().all(|b| b.is_ascii_digit()) {
                let k: u32 = k.parse().unwrap_or(u32::MAX);
                if (k as usize) < K {
                    return Ok(p + 1 + k);
                }
            }
            return Err(bad(text));
        }
        let (kind, place) = match rest.split_once(' ') {
            Some((a, b)) => (a, Some(b)),
            None => (rest, None),
        };
        let kind = KIND_NAMES
            .iter()
            .position(|&n| n == kind)
            .ok_or_else(|| bad(text))? as u8;
        let (t, r) = just_placed(s).ok_or_else(|| bad(text))?;
        let tt = tile(t);
        for (k, feat) in tt.features.iter().enumerate() {
            if feat.kind != kind {
                continue;
            }
            let ok = match (kind, place) {
                (0, None) => true,
                (1 | 2, Some(w)) => (0..4).any(|d| {
                    EDGE_NAMES[d].eq_ignore_ascii_case(w)
                        && feat.edges & (1 << ((d + 4 - r) % 4)) != 0
                }),
                (3, Some(w)) => (0..8).any(|h| {
                    HALF_NAMES[h].eq_ignore_ascii_case(w)
                        && feat.halves & (1 << ((h + 8 - 2 * r) % 8)) != 0
                }),
                _ => false,
            };
            if ok {
                return Ok(p + 1 + k as u32);
            }
        }
        return Err(bad(text));
    }
    if let Some(name) = f.strip_prefix("tile ") {
        if let Some(t) = type_by_name(name) {
            return Ok(p + 1 + K as u32 + t as u32);
        }
    }
    Err(bad(text))
}
