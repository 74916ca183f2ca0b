//! Action ids and their canonical text (docs/rules/flip_city.md §5). Writers are canonical; the reader is
//! relaxed about case and spacing.

use super::cards::{FACES, NUM_FACES};
use super::FlipCityState;
use crate::{GameError, Result, State};

pub const PLAY: u32 = 0;
pub const STOP: u32 = 1;
pub const END: u32 = 2;
pub const SHUFFLE: u32 = 3;
pub const MAX_ASIDE: u32 = 10;
pub const RECYCLE: u32 = SHUFFLE + MAX_ASIDE + 1;
pub const BUY: u32 = RECYCLE + NUM_FACES as u32;
pub const DEVELOP: u32 = BUY + NUM_FACES as u32;
pub const FLIP: u32 = DEVELOP + NUM_FACES as u32;
pub const TARGET: u32 = FLIP + NUM_FACES as u32;
pub const REMOVE: u32 = TARGET + super::MAX_PLAYERS as u32;
pub const NUM_ACTIONS: u32 = REMOVE + NUM_FACES as u32;

const FACE_VERBS: [(&str, u32); 5] = [
    ("recycle", RECYCLE),
    ("buy", BUY),
    ("develop", DEVELOP),
    ("flip", FLIP),
    ("remove", REMOVE),
];

pub fn action_to_string(state: &FlipCityState, action: u32) -> Result<String> {
    if state.is_chance_node() {
        let face = FACES
            .get(action as usize)
            .ok_or_else(|| out_of_range(action, NUM_FACES as u32))?;
        let kind = if state.chance_is_bottom() {
            "bottom"
        } else {
            "reveal"
        };
        return Ok(format!("{kind} {}", face.name));
    }
    Ok(match action {
        PLAY => "play".into(),
        STOP => "stop".into(),
        END => "end".into(),
        SHUFFLE => "shuffle".into(),
        a if a < RECYCLE => format!("shuffle aside {}", a - SHUFFLE),
        a if (TARGET..REMOVE).contains(&a) => format!("target {}", a - TARGET),
        a if a < NUM_ACTIONS => {
            let (verb, base) = FACE_VERBS
                .iter()
                .rev()
                .find(|(_, base)| a >= *base)
                .copied()
                .unwrap_or(("", 0));
            format!("{verb} {}", FACES[(a - base) as usize].name)
        }
        a => return Err(out_of_range(a, NUM_ACTIONS)),
    })
}

fn out_of_range(action: u32, n: u32) -> GameError {
    GameError::IllegalAction(format!("action {action} is out of range 0..{n}"))
}

/// Lower case, apostrophes dropped, runs of white space folded to one space.
fn normalise(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
        .replace(['\'', '\u{2019}'], "")
}

fn face_by_name(name: &str) -> Option<u32> {
    FACES
        .iter()
        .position(|f| normalise(f.name) == name)
        .map(|i| i as u32)
}

pub fn string_to_action(state: &FlipCityState, text: &str) -> Result<u32> {
    let t = normalise(text);
    let bad = || GameError::InvalidNotation(format!("not a flip_city action here: {text:?}"));
    if state.is_chance_node() {
        let name = t
            .strip_prefix("reveal ")
            .or_else(|| t.strip_prefix("bottom "))
            .unwrap_or(&t);
        return face_by_name(name).ok_or_else(bad);
    }
    match t.as_str() {
        "play" => return Ok(PLAY),
        "stop" => return Ok(STOP),
        "end" => return Ok(END),
        "shuffle" => return Ok(SHUFFLE),
        _ => {}
    }
    if let Some(k) = t.strip_prefix("shuffle aside ") {
        return match k.parse::<u32>() {
            Ok(k) if k <= MAX_ASIDE => Ok(SHUFFLE + k),
            _ => Err(bad()),
        };
    }
    if let Some(seat) = t.strip_prefix("target ") {
        return match seat.parse::<u32>() {
            Ok(s) if (s as usize) < super::MAX_PLAYERS => Ok(TARGET + s),
            _ => Err(bad()),
        };
    }
    let (verb, rest) = t.split_once(' ').ok_or_else(bad)?;
    let base = FACE_VERBS
        .iter()
        .find(|(v, _)| *v == verb)
        .map(|(_, b)| *b)
        .ok_or_else(bad)?;
    face_by_name(rest).map(|f| base + f).ok_or_else(bad)
}
