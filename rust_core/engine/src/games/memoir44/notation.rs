//! Action texts (§6.5).

use super::cards::{FACES, KEYS, SECTIONS, TYPES};
use super::hex::NUM_HEXES;
use super::rules::{hex_name, parse_hex};
use super::state::*;
use crate::error::{GameError, Result};

fn bad<T>(msg: String) -> Result<T> {
    Err(GameError::InvalidNotation(msg))
}

fn illegal<T>(msg: String) -> Result<T> {
    Err(GameError::IllegalAction(msg))
}

/// The text of `action` in the state's phase (chance outcomes: `draw <key>` or `die <face>`).
pub fn action_to_string(s: &Memoir44State, action: u32) -> Result<String> {
    if action >= NUM_ACTIONS {
        return illegal(format!(
            "memoir44: action {action} is out of range 0..{NUM_ACTIONS}"
        ));
    }
    let a = action as usize;
    match s.phase {
        Phase::Deal | Phase::Draw => {
            return match KEYS.get(a) {
                Some(k) => Ok(format!("draw {k}")),
                None => illegal(format!("memoir44: {action} is not a card type")),
            }
        }
        Phase::Dice | Phase::Roll => {
            return match FACES.get(a) {
                Some(f) => Ok(format!("die {f}")),
                None => illegal(format!("memoir44: {action} is not a die face")),
            }
        }
        _ => {}
    }
    Ok(plain_text(action))
}

/// The text of a player action, whatever the phase.
pub fn plain_text(action: u32) -> String {
    let a = action as usize;
    match action {
        0..=29 => format!("play {}", KEYS[a]),
        30..=32 => format!("section {}", SECTIONS[a - 30]),
        33..=145 => format!("order {}", hex_name(a - 33)),
        146 => "done".into(),
        147..=259 => format!("unit {}", hex_name(a - 147)),
        260..=372 => format!("to {}", hex_name(a - 260)),
        373 => "ignore".into(),
        374 => "take".into(),
        375 => "advance".into(),
        376 => "ambush".into(),
        377 => "pass".into(),
        378..=407 => format!("keep {}", KEYS[a - 378]),
        408 => "clear".into(),
        _ => format!("?{action}"),
    }
}

pub fn string_to_action(text: &str) -> Result<u32> {
    let folded = crate::notation::fold_white_space(text);
    let t = folded.as_str();
    let key = |k: &str| KEYS.iter().position(|x| *x == k);
    let hex = |h: &str| parse_hex(h).filter(|&i| i < NUM_HEXES);
    let fail = || {
        bad(format!(
            "memoir44: cannot read the action {:?}",
            t.chars().take(60).collect::<String>()
        ))
    };
    match t {
        "done" => return Ok(A_DONE),
        "ignore" => return Ok(A_IGNORE),
        "take" => return Ok(A_TAKE),
        "advance" => return Ok(A_ADVANCE),
        "ambush" => return Ok(A_AMBUSH),
        "pass" => return Ok(A_PASS),
        "clear" => return Ok(A_CLEAR),
        _ => {}
    }
    let Some((verb, arg)) = t.split_once(' ') else {
        return fail();
    };
    let r = match verb {
        "play" => key(arg).map(|k| k as u32),
        "draw" => key(arg).map(|k| k as u32),
        "keep" => key(arg).map(|k| A_KEEP + k as u32),
        "section" => SECTIONS
            .iter()
            .position(|x| *x == arg)
            .map(|s| A_SECTION + s as u32),
        "order" => hex(arg).map(|i| A_ORDER + i as u32),
        "unit" => hex(arg).map(|i| A_UNIT + i as u32),
        "to" => hex(arg).map(|i| A_TO + i as u32),
        "die" => FACES.iter().position(|x| *x == arg).map(|f| f as u32),
        _ => None,
    };
    let _ = TYPES;
    r.map_or_else(fail, Ok)
}
