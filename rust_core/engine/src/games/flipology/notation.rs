//! Action ids and their canonical text (docs/rules/flipology.md §7). Writers are canonical; the reader is
//! relaxed about ASCII case and spacing and accepts a position with any verb (or none).

use super::cards::{CARDS, MIMIC_KINDS, NUM_CARDS};
use super::state::{Effect, FlipologyState, Step};
use crate::notation::{fold_white_space, out_of_range};
use crate::{GameError, Result, State};

/// Ids 0..59 are positions.
pub const POSITIONS: u32 = 60;
pub const PLACE: u32 = 60;
pub const MIMIC: u32 = 90;
pub const KEEP: u32 = 97;
pub const REGROW: u32 = 98;
pub const PASS: u32 = 99;
pub const NUM_ACTIONS: u32 = 100;

const VERBS: [&str; 5] = ["flip", "swap", "remove", "use", "peek"];

/// The text of a position id (every id 0..59, even one beyond this game's seats).
pub fn position_text(great_tree: bool, q: u32) -> String {
    if great_tree {
        format!("{}.{}.{}", q / 15, (q % 15) / 5, q % 5)
    } else {
        format!("{}.{}", q / 7, q % 7)
    }
}

fn verb(state: &FlipologyState) -> &'static str {
    match state.step {
        Step::Target => match state.effect {
            Effect::Mole => "swap",
            Effect::Hunter => "remove",
            _ => "flip",
        },
        Step::Choose => "use",
        Step::Peek => "peek",
        _ => "flip",
    }
}

pub fn action_to_string(state: &FlipologyState, action: u32) -> Result<String> {
    if state.is_chance_node() {
        return CARDS[..NUM_CARDS]
            .get(action as usize)
            .map(|c| format!("deal {}", c.name))
            .ok_or_else(|| out_of_range(action, NUM_CARDS as u32));
    }
    Ok(match action {
        a if a < POSITIONS => format!(
            "{} {}",
            verb(state),
            position_text(state.rules.great_tree(), a)
        ),
        a if a < MIMIC => format!("place {}", CARDS[(a - PLACE) as usize].name),
        a if a < KEEP => format!("mimic {}", MIMIC_KINDS[(a - MIMIC) as usize].1),
        KEEP => "keep".into(),
        REGROW => "regrow".into(),
        PASS => "pass".into(),
        a => return Err(out_of_range(a, NUM_ACTIONS)),
    })
}

fn card_by_name(name: &str) -> Option<u32> {
    CARDS[..NUM_CARDS]
        .iter()
        .position(|c| c.name.to_ascii_lowercase() == name)
        .map(|i| i as u32)
}

/// A small decimal made of ASCII digits only (no sign, no spaces), at most three digits.
fn number(text: &str) -> Option<u32> {
    if text.is_empty() || text.len() > 3 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

fn parse_position(great_tree: bool, text: &str) -> Option<u32> {
    let parts: Vec<Option<u32>> = text.split('.').map(number).collect();
    let pos = match (great_tree, parts.as_slice()) {
        (false, [Some(s), Some(c)]) if *c < 7 => 7 * s + c,
        (true, [Some(s), Some(t), Some(c)]) if *t < 3 && *c < 5 => 15 * s + 5 * t + c,
        _ => return None,
    };
    (pos < POSITIONS).then_some(pos)
}

pub fn string_to_action(state: &FlipologyState, text: &str) -> Result<u32> {
    let t = fold_white_space(text);
    let bad = || GameError::InvalidNotation(format!("not a flipology action here: {text:?}"));
    if state.is_chance_node() {
        let name = t.strip_prefix("deal ").unwrap_or(&t);
        return card_by_name(name).ok_or_else(bad);
    }
    match t.as_str() {
        "keep" => return Ok(KEEP),
        "regrow" => return Ok(REGROW),
        "pass" => return Ok(PASS),
        _ => {}
    }
    if let Some(name) = t.strip_prefix("place ") {
        return card_by_name(name).map(|c| PLACE + c).ok_or_else(bad);
    }
    if let Some(name) = t.strip_prefix("mimic ") {
        return MIMIC_KINDS
            .iter()
            .position(|(_, k)| k.to_ascii_lowercase() == name)
            .map(|k| MIMIC + k as u32)
            .ok_or_else(bad);
    }
    let pos = match t.split_once(' ') {
        Some((v, rest)) if VERBS.contains(&v) => rest,
        Some(_) => return Err(bad()),
        None => t.as_str(),
    };
    parse_position(state.rules.great_tree(), pos).ok_or_else(bad)
}
