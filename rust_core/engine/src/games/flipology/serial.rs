//! Canonical JSON of a whole state and its reader (docs/rules/flipology.md §10).
//!
//! Every field is determined by the parameters and the history, so the reader checks the envelope (game,
//! version, parameters, history), replays the history with legality checks, and accepts the text only if the
//! canonical form of what it was given equals the serialization of the replayed state: every count, list
//! length and piece of knowledge is then exactly what the history produces.

use super::state::{Effect, FlipologyState, HandCard, Phase, Record, Step, NO_DRAW};
use super::{Rules, ID};
use crate::error::{invalid, Result};
use crate::json::Fields;
use crate::params::{params_to_json, Params};
use crate::State;
use serde_json::{json, Value};

const VERSION: i64 = 1;
const PREFIX: &str = "flipology state: ";
/// The keys of [`to_value`]'s object (a key it wrote and this list lacked would refuse every state).
const KEYS: [&str; 20] = [
    "current", "discard", "draws", "effect", "game", "history", "marks", "params", "phase", "pile",
    "rain", "round", "seats", "source", "start", "step", "turn", "used", "version", "winners",
];

pub fn phase_name(phase: Phase) -> &'static str {
    match phase {
        Phase::Deal => "deal",
        Phase::Regrow => "regrow",
        Phase::Redeal => "redeal",
        Phase::Arrange => "arrange",
        Phase::Play => "play",
        Phase::Over => "over",
    }
}

pub fn step_name(step: Step) -> &'static str {
    match step {
        Step::None => "none",
        Step::Flip => "flip",
        Step::Target => "target",
        Step::Monkey => "monkey",
        Step::Choose => "choose",
        Step::Mimic => "mimic",
        Step::Peek => "peek",
        Step::SunFlip => "sunflip",
        Step::Rain => "rain",
    }
}

pub fn effect_name(effect: Effect) -> &'static str {
    match effect {
        Effect::None => "",
        Effect::Dog => "Dog",
        Effect::Snake => "Snake",
        Effect::Frog => "Frog",
        Effect::Monkey => "Monkey",
        Effect::Hawk => "Hawk",
        Effect::Mole => "Mole",
        Effect::Parrot => "Parrot",
        Effect::Hunter => "Hunter",
        Effect::Rain => "Rain",
        Effect::Sun => "Sun",
        Effect::Wind => "Wind",
    }
}

fn draw_json(draw: u16) -> i64 {
    if draw == NO_DRAW {
        -1
    } else {
        draw as i64
    }
}

fn hand_json(s: &FlipologyState, cards: &[HandCard]) -> Value {
    Value::Array(
        cards
            .iter()
            .map(|h| json!([h.card, draw_json(s.draw_number(h.draw))]))
            .collect(),
    )
}

fn game_params(rules: &Rules) -> Value {
    json!({
        "max_rounds": rules.max_rounds,
        "moon": rules.moon,
        "players": rules.players,
        "target": rules.target,
        "variant": rules.variant,
    })
}

pub fn to_value(s: &FlipologyState, history: &[u32]) -> Value {
    let rules = &s.rules;
    let slots = rules.slots();
    let seats: Vec<Value> = (0..rules.n())
        .map(|seat| {
            let row: Vec<Value> = (slots * seat..slots * seat + slots)
                .map(|pos| {
                    let r: &Record = &s.rows[pos];
                    if r.is_present() {
                        let draw = draw_json(s.draw_number(r.draw));
                        json!([r.card, draw, r.known, s.is_up(pos) as u8])
                    } else {
                        Value::Null
                    }
                })
                .collect();
            json!({
                "hand": hand_json(s, s.hand(seat)),
                "regrown": s.regrown[seat],
                "returned": hand_json(s, s.returned_hand(seat)),
                "row": row,
                "total": s.total[seat],
            })
        })
        .collect();
    let discard: Vec<Value> = s
        .discards()
        .iter()
        .map(|r| json!([r.card, draw_json(s.draw_number(r.draw)), r.known]))
        .collect();
    let used: Vec<usize> = (0..s.positions())
        .filter(|&p| s.used & (1 << p) != 0)
        .collect();
    let winners: Vec<usize> = s.winner_seats().collect();
    json!({
        "current": s.current,
        "discard": discard,
        "draws": s.draws,
        "effect": effect_name(s.effect),
        "game": ID,
        "history": history,
        "marks": &s.marks[..s.marks_len as usize],
        "params": game_params(rules),
        "phase": phase_name(s.phase),
        "pile": s.pile.to_vec(),
        "rain": s.rain,
        "round": s.round,
        "seats": seats,
        "source": s.source,
        "start": s.start,
        "step": step_name(s.step),
        "turn": s.turn,
        "used": used,
        "version": VERSION,
        "winners": winners,
    })
}

/// serde_json's maps are sorted and `to_string` is compact: this is the canonical JSON of §10.
pub fn serialize(s: &FlipologyState, history: &[u32]) -> String {
    to_value(s, history).to_string()
}

pub fn deserialize(
    rules: &Rules,
    params: &Params,
    text: &str,
) -> Result<(FlipologyState, Vec<u32>)> {
    let value: Value = match crate::json::parse(text) {
        Ok(v) => v,
        Err(e) => return invalid(format!("{PREFIX}not JSON ({e})")),
    };
    let obj = Fields::new(&value, PREFIX, "", &KEYS)?;
    obj.envelope(ID, VERSION, &params_to_json(params))?;
    let max_length = rules.max_game_length() as usize;
    let list = obj.list("history", ..=max_length)?;
    let mut history = Vec::with_capacity(list.len());
    let mut state = FlipologyState::new(*rules);
    for (i, a) in list.iter().enumerate() {
        let action = obj.int_at(&format!("history[{i}]"), a, 0, u32::MAX as i64)? as u32;
        if state.apply_action(action).is_err() {
            return obj.fail(
                &format!("history[{i}]"),
                format!("= {action} is not legal there"),
            );
        }
        history.push(action);
    }
    if value != to_value(&state, &history) {
        return invalid(format!(
            "{PREFIX}the fields are not those its history produces"
        ));
    }
    Ok((state, history))
}
