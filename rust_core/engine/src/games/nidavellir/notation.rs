//! Action ids and their canonical text (docs/rules/nidavellir.md §6). Writers are canonical; the reader is
//! relaxed about ASCII case and spacing.

use super::data::{data, CLASSES, COINS, HEROES, KINDS, TAVERNS};
use super::state::{NidavellirState, Phase};
use crate::notation::{fold_white_space, out_of_range};
use crate::{GameError, Result};

/// `bid <coin>`: 0 + c.
pub const BID: u32 = 0;
/// `take <kind>`: 27 + k.
pub const TAKE: u32 = 27;
/// `transform <tavern>`: 50 + t.
pub const TRANSFORM_SLOT: u32 = 50;
/// `transform <coin>`: 53 + c.
pub const TRANSFORM_HAND: u32 = 53;
/// `hero <hero>`: 80 + h.
pub const HERO: u32 = 80;
/// `column <class>`: 97 + j.
pub const COLUMN: u32 = 97;
/// `discard <class>`: 102 + j.
pub const DISCARD: u32 = 102;
/// `keep <kind>`: 107 + k.
pub const KEEP: u32 = 107;
/// `sum <coin>`: 130 + c.
pub const SUM: u32 = 130;
pub const NUM_ACTIONS: u32 = 157;

fn is_chance(phase: Phase) -> bool {
    matches!(
        phase,
        Phase::Gems | Phase::Fill | Phase::PioneerDraw | Phase::PioneerBurn
    )
}

pub fn action_to_string(state: &NidavellirState, action: u32) -> Result<String> {
    let d = data();
    if state.phase == Phase::Gems {
        if !(1..=5).contains(&action) {
            return Err(GameError::IllegalAction(format!(
                "action {action} is not a gem (1..5)"
            )));
        }
        return Ok(format!("gem {action}"));
    }
    if is_chance(state.phase) {
        if action >= KINDS as u32 {
            return Err(out_of_range(action, KINDS as u32));
        }
        return Ok(format!("card {}", d.kind_keys[action as usize]));
    }
    let coin = |c: u32| d.coin_keys[c as usize].as_str();
    let kind = |k: u32| d.kind_keys[k as usize].as_str();
    let class = |j: u32| d.class_keys[j as usize].as_str();
    Ok(match action {
        a if a < TAKE => format!("bid {}", coin(a - BID)),
        a if a < TRANSFORM_SLOT => format!("take {}", kind(a - TAKE)),
        a if a < TRANSFORM_HAND => {
            format!("transform {}", d.tavern_keys[(a - TRANSFORM_SLOT) as usize])
        }
        a if a < HERO => format!("transform {}", coin(a - TRANSFORM_HAND)),
        a if a < COLUMN => format!("hero {}", d.hero_keys[(a - HERO) as usize]),
        a if a < DISCARD => format!("column {}", class(a - COLUMN)),
        a if a < KEEP => format!("discard {}", class(a - DISCARD)),
        a if a < SUM => format!("keep {}", kind(a - KEEP)),
        a if a < NUM_ACTIONS => format!("sum {}", coin(a - SUM)),
        a => return Err(out_of_range(a, NUM_ACTIONS)),
    })
}

fn find(table: &[String], word: &str) -> Option<u32> {
    table.iter().position(|k| k == word).map(|i| i as u32)
}

pub fn string_to_action(state: &NidavellirState, text: &str) -> Result<u32> {
    let d = data();
    let folded = fold_white_space(text);
    let bad = || GameError::InvalidNotation(format!("nidavellir: cannot read {text:?} here"));
    if state.phase == Phase::Gems {
        let arg = folded
            .strip_prefix("gem")
            .and_then(|r| r.strip_prefix(' '))
            .unwrap_or(&folded);
        return match arg {
            "1" => Ok(1),
            "2" => Ok(2),
            "3" => Ok(3),
            "4" => Ok(4),
            "5" => Ok(5),
            _ => Err(bad()),
        };
    }
    if is_chance(state.phase) {
        let arg = folded
            .strip_prefix("card")
            .and_then(|r| r.strip_prefix(' '))
            .unwrap_or(&folded);
        return find(&d.kind_keys, arg).ok_or_else(bad);
    }
    let words: Vec<&str> = folded.split(' ').collect();
    let id = match words.as_slice() {
        ["bid", c] => find(&d.coin_keys, c).map(|c| BID + c),
        ["take", k] => find(&d.kind_keys, k).map(|k| TAKE + k),
        ["transform", x] => find(&d.tavern_keys, x)
            .map(|t| TRANSFORM_SLOT + t)
            .or_else(|| find(&d.coin_keys, x).map(|c| TRANSFORM_HAND + c)),
        ["hero", h] => find(&d.hero_keys, h).map(|h| HERO + h),
        ["column", j] => find(&d.class_keys, j).map(|j| COLUMN + j),
        ["discard", j] => find(&d.class_keys, j).map(|j| DISCARD + j),
        ["keep", k] => find(&d.kind_keys, k).map(|k| KEEP + k),
        ["sum", c] => find(&d.coin_keys, c).map(|c| SUM + c),
        _ => None,
    };
    id.ok_or_else(bad)
}

// The tables' sizes, checked against the ids above at compile time.
const _: () = assert!(TAKE == BID + COINS as u32);
const _: () = assert!(TRANSFORM_SLOT == TAKE + KINDS as u32);
const _: () = assert!(TRANSFORM_HAND == TRANSFORM_SLOT + TAVERNS as u32);
const _: () = assert!(HERO == TRANSFORM_HAND + COINS as u32);
const _: () = assert!(COLUMN == HERO + HEROES as u32);
const _: () = assert!(DISCARD == COLUMN + CLASSES as u32);
const _: () = assert!(KEEP == DISCARD + CLASSES as u32);
const _: () = assert!(SUM == KEEP + KINDS as u32);
const _: () = assert!(NUM_ACTIONS == SUM + COINS as u32);
