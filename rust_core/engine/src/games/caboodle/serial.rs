//! Canonical JSON of a whole state and its reader (docs/rules/caboodle.md §9).
//!
//! Every field is determined by the parameters and the history: the reader checks the envelope, replays the
//! history with legality checks and accepts the text only if it equals (as JSON values) the serialization of the
//! replayed state.

use super::state::CaboodleState;
use super::tiles::T;
use super::{Config, ID};
use crate::error::{invalid, Result};
use crate::params::params_to_json;
use crate::State;
use serde_json::{json, Value};

const VERSION: i64 = 1;

fn ids(mask: u64) -> Vec<usize> {
    (0..T).filter(|t| mask >> t & 1 == 1).collect()
}

pub fn to_value(s: &CaboodleState) -> Value {
    let n = s.cfg.players;
    let board: Vec<Value> = s
        .board()
        .iter()
        .map(|p| json!([p.tile, p.x, p.y, p.r]))
        .collect();
    let hands: Vec<Value> = (0..n).map(|q| json!(ids(s.hands[q]))).collect();
    json!({
        "bag": ids(s.bag),
        "board": board,
        "current": s.current,
        "final": s.final_round,
        "game": ID,
        "hands": hands,
        "history": s.history(),
        "params": params_to_json(&s.cfg.params),
        "phase": s.phase.name(),
        "removed": ids(s.removed),
        "scores": &s.scores[..n],
        "selected": s.selected().map_or(-1, |t| t as i64),
        "version": VERSION,
    })
}

pub fn serialize(s: &CaboodleState) -> String {
    to_value(s).to_string()
}

pub fn deserialize(cfg: &'static Config, text: &str) -> Result<(CaboodleState, Vec<u32>)> {
    let value: Value = match crate::json::parse(text) {
        Ok(v) => v,
        Err(e) => return invalid(format!("{ID} state: not JSON ({e})")),
    };
    let Some(obj) = value.as_object() else {
        return invalid(format!("{ID} state: not a JSON object"));
    };
    if obj.get("game").and_then(Value::as_str) != Some(ID) {
        return invalid(format!("{ID} state: \"game\" must be \"{ID}\""));
    }
    match obj.get("version") {
        Some(v) if v.is_i64() && v.as_i64() == Some(VERSION) => {}
        _ => {
            return invalid(format!(
                "{ID} state: unsupported version (expected {VERSION})"
            ))
        }
    }
    if obj.get("params") != Some(&params_to_json(&cfg.params)) {
        return invalid(format!("{ID} state: its params differ from this game's"));
    }
    let Some(list) = obj.get("history").and_then(Value::as_array) else {
        return invalid(format!("{ID} state: history must be a list of action ids"));
    };
    if list.len() as u64 > cfg.max_game_length() {
        return invalid(format!(
            "{ID} state: the history is longer than max_game_length()"
        ));
    }
    let mut state = CaboodleState::new(cfg);
    for (i, a) in list.iter().enumerate() {
        let action = match a.as_u64() {
            Some(a) if a < super::state::NUM_ACTIONS as u64 => a as u32,
            _ => return invalid(format!("{ID} state: history[{i}] is not an action id")),
        };
        if state.apply_action(action).is_err() {
            return invalid(format!(
                "{ID} state: history[{i}] = {action} is not legal there"
            ));
        }
    }
    if value != to_value(&state) {
        return invalid(format!(
            "{ID} state: the fields are not those its history produces"
        ));
    }
    let history = state.history();
    Ok((state, history))
}
