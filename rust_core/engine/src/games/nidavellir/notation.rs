//! Action ids and their canonical text (docs/rules/nidavellir.md §6). Writers are canonical; the reader is
//! relaxed about ASCII case and spacing.

use super::data::{data, CAMP_CARDS, CLASSES, COINS, HEROES, KINDS, TAVERNS};
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
// Thingvellir (thingvellir.md §6).
/// `camp <card>`: 157 + m.
pub const CAMP: u32 = 157;
/// `pick <kind>`: 181 + k.
pub const PICK: u32 = 181;
/// `hero <hero>` for h 17..22: 204 + (h − 17).
pub const TV_HERO: u32 = 204;
/// `enlist <mercenary> <class>`: 210 + 2m' + o.
pub const ENLIST: u32 = 210;
pub const ENLIST_FIRST: u32 = 234;
pub const ENLIST_LAST: u32 = 235;
/// `drop <kind>`: 236 + k.
pub const DROP: u32 = 236;
/// `vidofnir <coin>`: 259 + c.
pub const VIDOFNIR_COIN: u32 = 259;
/// `remove <entry>`: 286 + e.
pub const REMOVE: u32 = 286;
pub const TV_NUM_ACTIONS: u32 = 356;

/// The name of a column entry in `remove <entry>` and the strings.
pub fn entry_name(e: u32) -> String {
    let d = data();
    match e {
        e if e < KINDS as u32 => d.kind_keys[e as usize].clone(),
        30..=39 if ((e - 30) as usize) < d.hero_keys.len() => {
            d.hero_keys[(e - 30) as usize].clone()
        }
        40 => "special_blacksmith".into(),
        41 => "thrud".into(),
        42 => "ylud".into(),
        43 => "vegvisir".into(),
        44 => "double1".into(),
        45 => "double2".into(),
        46..=57 => d.tv.camp_keys[d.tv.merc_card[(e - 46) as usize] as usize].clone(),
        e => e.to_string(),
    }
}

fn is_chance(phase: Phase) -> bool {
    matches!(
        phase,
        Phase::Gems | Phase::Fill | Phase::PioneerDraw | Phase::PioneerBurn
    )
}

fn tv_action_to_string(action: u32) -> Result<String> {
    let d = data();
    let tv = &d.tv;
    let camp = |m: u32| tv.camp_keys[m as usize].as_str();
    let kind = |k: u32| d.kind_keys[k as usize].as_str();
    Ok(match action {
        a if a < PICK => format!("camp {}", camp(a - CAMP)),
        a if a < TV_HERO => format!("pick {}", kind(a - PICK)),
        a if a < ENLIST => format!("hero {}", tv.hero_keys[(a - TV_HERO) as usize]),
        a if a < ENLIST_FIRST => {
            let (mp, o) = (((a - ENLIST) / 2) as usize, ((a - ENLIST) % 2) as usize);
            format!(
                "enlist {} {}",
                camp(tv.merc_card[mp] as u32),
                d.class_keys[tv.merc_class[mp][o] as usize]
            )
        }
        ENLIST_FIRST => "enlist first".into(),
        ENLIST_LAST => "enlist last".into(),
        a if a < VIDOFNIR_COIN => format!("drop {}", kind(a - DROP)),
        a if a < REMOVE => format!("vidofnir {}", d.coin_keys[(a - VIDOFNIR_COIN) as usize]),
        a if a < TV_NUM_ACTIONS => format!("remove {}", entry_name(a - REMOVE)),
        a => return Err(out_of_range(a, TV_NUM_ACTIONS)),
    })
}

fn tv_string_to_action(words: &[&str]) -> Option<u32> {
    let d = data();
    let tv = &d.tv;
    match words {
        ["camp", m] => find(&tv.camp_keys, m).map(|m| CAMP + m),
        ["pick", k] => find(&d.kind_keys, k).map(|k| PICK + k),
        ["hero", h] => find(&tv.hero_keys, h).map(|h| TV_HERO + h),
        ["enlist", "first"] => Some(ENLIST_FIRST),
        ["enlist", "last"] => Some(ENLIST_LAST),
        ["enlist", m, j] => {
            let m = find(&tv.camp_keys, m)? as usize;
            let mp = tv.camp_mercenary[m];
            let j = find(&d.class_keys, j)? as u8;
            let o =
                (0..2usize).find(|&o| tv.merc_class.get(mp as usize).is_some_and(|c| c[o] == j))?;
            Some(ENLIST + 2 * mp as u32 + o as u32)
        }
        ["drop", k] => find(&d.kind_keys, k).map(|k| DROP + k),
        ["vidofnir", c] => find(&d.coin_keys, c).map(|c| VIDOFNIR_COIN + c),
        ["remove", e] => (0..70u32)
            .find(|&x| entry_name(x) == *e)
            .map(|x| REMOVE + x),
        _ => None,
    }
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
    if state.phase == Phase::CampFill {
        if action >= CAMP_CARDS as u32 {
            return Err(out_of_range(action, CAMP_CARDS as u32));
        }
        return Ok(format!("camp {}", d.tv.camp_keys[action as usize]));
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
        a if state.rules.thingvellir => return tv_action_to_string(a),
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
    if state.phase == Phase::CampFill {
        let arg = folded
            .strip_prefix("camp")
            .and_then(|r| r.strip_prefix(' '))
            .unwrap_or(&folded);
        return find(&d.tv.camp_keys, arg).ok_or_else(bad);
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
    let id = match id {
        None if state.rules.thingvellir => tv_string_to_action(&words),
        id => id,
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
