//! Action ids and their canonical text (docs/rules/lineit.md §6). Writers are canonical; the reader is relaxed
//! about ASCII case and spacing.

use super::cards::{card_text, parse_card, KINDS};
use super::state::LineItState;
use crate::notation::{fold_white_space, out_of_range};
use crate::{GameError, Result, State};

/// `line <card>`: take market card k into the line.
pub const LINE: u32 = 0;
/// `hand <card>`: take market card k into the hand.
pub const HAND: u32 = 103;
/// `play <card>`: play hand card k into the line.
pub const PLAY: u32 = 206;
pub const CLOSE: u32 = 309;
pub const PASS: u32 = 310;
pub const NUM_ACTIONS: u32 = 311;

pub fn action_to_string(state: &LineItState, action: u32) -> Result<String> {
    if state.is_chance_node() {
        if (action as usize) < KINDS {
            return Ok(format!("deal {}", card_text(action as u8)));
        }
        return Err(out_of_range(action, KINDS as u32));
    }
    Ok(match action {
        a if a < HAND => format!("line {}", card_text(a as u8)),
        a if a < PLAY => format!("hand {}", card_text((a - HAND) as u8)),
        a if a < CLOSE => format!("play {}", card_text((a - PLAY) as u8)),
        CLOSE => "close".into(),
        PASS => "pass".into(),
        a => return Err(out_of_range(a, NUM_ACTIONS)),
    })
}

pub fn string_to_action(state: &LineItState, text: &str) -> Result<u32> {
    let folded = fold_white_space(text);
    let bad = || GameError::InvalidNotation(format!("lineit: cannot read {text:?} here"));
    if state.is_chance_node() {
        let card = folded.strip_prefix("deal ").unwrap_or(&folded);
        return parse_card(card).map(|k| k as u32).ok_or_else(bad);
    }
    match folded.as_str() {
        "close" => return Ok(CLOSE),
        "pass" => return Ok(PASS),
        _ => {}
    }
    let (verb, card) = folded.split_once(' ').ok_or_else(bad)?;
    let base = match verb {
        "line" => LINE,
        "hand" => HAND,
        "play" => PLAY,
        _ => return Err(bad()),
    };
    parse_card(card).map(|k| base + k as u32).ok_or_else(bad)
}
