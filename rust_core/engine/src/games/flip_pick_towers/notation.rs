//! Action ids and their canonical text (docs/rules/flip_pick_towers.md §8).

use super::sheet::FILE_RESOURCES;
use super::state::{
    FlipPickTowersState, Step, CELL, MAGIC, NO_MAGIC, STABILITY_MINUS, STABILITY_PLUS,
};
use crate::notation::fold_white_space;
use crate::{GameError, Result};

pub const FEATURE_NAMES: [&str; 20] = [
    "floor 1", "floor 2", "floor 3", "floor 4", "floor 5", "floor 6", "floor 7", "floor 8",
    "floor 9", "bridge", "roof", "Queen", "King", "Princess", "dragon", "Derwen", "Bwca", "Ji-Ji",
    "Sosban", "Mab",
];
pub const RESOURCE_NAMES: [&str; 5] = ["fabric", "beans", "gold", "glass", "wild"];
pub const CREATURE_NAMES: [&str; 5] = ["Derwen", "Bwca", "Ji-Ji", "Sosban", "Mab"];
const COLUMN_LETTERS: &[u8] = b"abcdefghijkl";

/// `reveal <feature> <resource>` without the verb.
pub fn kind_text(kind: usize) -> String {
    format!(
        "{} {}",
        FEATURE_NAMES[(kind / 5).min(19)],
        RESOURCE_NAMES[kind % 5]
    )
}

pub fn cell_text(cols: usize, id: usize) -> String {
    let (r, c) = (id / cols, id % cols);
    format!("{}{}", COLUMN_LETTERS[c.min(11)] as char, r + 1)
}

fn illegal(action: u32, what: &str) -> GameError {
    GameError::IllegalAction(format!("action {action} is not {what}"))
}

pub fn action_to_string(s: &FlipPickTowersState, action: u32) -> Result<String> {
    let sh = s.sheet();
    match s.step {
        Step::Deal => {
            return if (action as usize) < sh.cards.len() {
                Ok(format!("deal {}", action + 1))
            } else {
                Err(illegal(action, "a scoring card index"))
            }
        }
        Step::Flip => {
            return if (action as usize) < super::sheet::NUM_KINDS {
                Ok(format!("reveal {}", kind_text(action as usize)))
            } else {
                Err(illegal(action, "a card kind"))
            }
        }
        _ => {}
    }
    let n = sh.cells() as u32;
    let a = action;
    Ok(match a {
        0..=2 => format!("pick {}", a + 1),
        NO_MAGIC => "no magic".to_string(),
        MAGIC..=8 => format!("magic {}", CREATURE_NAMES[(a - MAGIC) as usize]),
        STABILITY_MINUS => "stability -1".to_string(),
        STABILITY_PLUS => "stability +1".to_string(),
        _ if a >= CELL && a < CELL + n => cell_text(sh.cols, (a - CELL) as usize),
        _ if a >= CELL + n && ((a - CELL - n) as usize) < sh.stall_columns() => {
            let j = (a - CELL - n) as usize;
            let r = sh.stall_resource[j] as usize;
            format!("{} {}", FILE_RESOURCES[r], j - sh.stall_first[r] + 1)
        }
        _ => return Err(illegal(action, "an action id of this game")),
    })
}

/// A positive decimal number in canonical form (no sign, no leading zero).
fn number(t: &str) -> Option<usize> {
    if t.is_empty() || t.len() > 6 || !t.bytes().all(|b| b.is_ascii_digit()) || t.starts_with('0') {
        return None;
    }
    t.parse().ok()
}

pub fn string_to_action(s: &FlipPickTowersState, text: &str) -> Result<u32> {
    let t = fold_white_space(text);
    let bad =
        || GameError::InvalidNotation(format!("not a flip_pick_towers action here: {text:?}"));
    let sh = s.sheet();
    match s.step {
        Step::Deal => {
            let n = t.strip_prefix("deal ").unwrap_or(&t);
            return match number(n) {
                Some(i) if (1..=sh.cards.len()).contains(&i) => Ok(i as u32 - 1),
                _ => Err(bad()),
            };
        }
        Step::Flip => {
            let k = t.strip_prefix("reveal ").unwrap_or(&t);
            return (0..super::sheet::NUM_KINDS)
                .find(|&kind| kind_text(kind).to_ascii_lowercase() == k)
                .map(|kind| kind as u32)
                .ok_or_else(bad);
        }
        _ => {}
    }
    match t.as_str() {
        "no magic" => return Ok(NO_MAGIC),
        "stability -1" => return Ok(STABILITY_MINUS),
        "stability +1" => return Ok(STABILITY_PLUS),
        _ => {}
    }
    if let Some(k) = t.strip_prefix("pick ") {
        return match number(k) {
            Some(k @ 1..=3) => Ok(k as u32 - 1),
            _ => Err(bad()),
        };
    }
    if let Some(name) = t.strip_prefix("magic ") {
        return CREATURE_NAMES
            .iter()
            .position(|c| c.to_ascii_lowercase() == name)
            .map(|c| MAGIC + c as u32)
            .ok_or_else(bad);
    }
    if let Some((res, k)) = t.split_once(' ') {
        let r = FILE_RESOURCES
            .iter()
            .position(|n| *n == res)
            .ok_or_else(bad)?;
        let columns = sh.stall_first[r + 1] - sh.stall_first[r];
        return match number(k) {
            Some(k) if (1..=columns).contains(&k) => {
                Ok(CELL + (sh.cells() + sh.stall_first[r] + k - 1) as u32)
            }
            _ => Err(bad()),
        };
    }
    // A cell: a column letter, then the row number from 1.
    let mut chars = t.chars();
    let letter = chars.next().ok_or_else(bad)?;
    let c = COLUMN_LETTERS
        .iter()
        .position(|&l| l as char == letter)
        .filter(|&c| c < sh.cols)
        .ok_or_else(bad)?;
    match number(chars.as_str()) {
        Some(r) if (1..=sh.rows).contains(&r) => Ok(CELL + ((r - 1) * sh.cols + c) as u32),
        _ => Err(bad()),
    }
}
