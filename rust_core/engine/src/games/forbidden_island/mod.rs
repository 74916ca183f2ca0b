//! Forbidden Island (docs/rules/forbidden_island.md): 2 to 4 players against a sinking island, co-operative.
//!
//! The components are data (`data.rs`, parsed once from the JSON both engines read). Everything is public and
//! every pile is an unordered multiset drawn through chance nodes, so a state is a few fixed arrays and bit sets
//! (positions as bits of a `u32`, the flood pile as one bit set of tiles per layer), `Copy`, with no heap data;
//! `resample_from_infostate` is a clone. "Any time" cards are played in windows (§6), each a short list of
//! pending seats.

pub mod data;
mod heuristic;
mod notation;
mod observation;
mod serial;
pub mod state;
#[cfg(test)]
mod tests;

pub use notation::*;
pub use state::{ForbiddenIslandState, Outcome, Phase, Seat, Stage, Window};

use crate::error::invalid;
use crate::params::{get_int, normalise, ParamSpec, ParamValue, Params};
use crate::{Game, Result};
use data::data;

pub const ID: &str = "forbidden_island";
pub const MAX_PLAYERS: usize = 4;

pub const SCHEMA: &[ParamSpec] = &[ParamSpec::Int {
    name: "players",
    default: 2,
    min: 2,
    max: MAX_PLAYERS as i64,
}];

/// The word parameters (§1), with their defaults.
const WORDS: [(&str, &str); 2] = [("difficulty", "novice"), ("layout", "standard")];

/// The parameters as the rules read them (§1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    pub players: u8,
    /// The difficulty's start level (1..4).
    pub start_level: u8,
    /// The layout's index in `data().layouts`.
    pub layout: u8,
}

impl Rules {
    #[inline]
    pub fn n(&self) -> usize {
        self.players as usize
    }
    #[inline]
    pub fn layout(&self) -> &'static data::Layout {
        &data().layouts[self.layout as usize]
    }
    /// The difficulty's name.
    pub fn difficulty(&self) -> &'static str {
        data()
            .start_levels
            .iter()
            .find(|(_, l)| *l == self.start_level)
            .map_or("novice", |(k, _)| k.as_str())
    }
    /// §8: `55 + 3 n + 56 (19 + 21 n)`.
    pub fn max_game_length(&self) -> u64 {
        let n = self.n() as u64;
        55 + 3 * n + 56 * (19 + 21 * n)
    }
}

#[derive(Clone, Debug)]
pub struct ForbiddenIslandGame {
    params: Params,
    rules: Rules,
}

impl ForbiddenIslandGame {
    pub fn new(given: &Params) -> Result<Self> {
        let numeric: Params = given
            .iter()
            .filter(|(k, _)| !WORDS.iter().any(|(w, _)| w == k))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        if let Some(key) = numeric.keys().find(|k| k.as_str() != "players") {
            return invalid(format!(
                "{ID}: unknown parameter {key:?} (known: difficulty, layout, players)"
            ));
        }
        let mut params = normalise(ID, SCHEMA, &numeric)?;
        let mut words = [String::new(), String::new()];
        for (i, (key, default)) in WORDS.iter().enumerate() {
            words[i] = match given.get(*key) {
                None => default.to_string(),
                Some(ParamValue::Str(s)) => s.clone(),
                Some(other) => {
                    return invalid(format!("{ID}: parameter {key} must be a str, not {other}"))
                }
            };
        }
        let d = data();
        let Some(&(_, start_level)) = d.start_levels.iter().find(|(k, _)| *k == words[0]) else {
            return invalid(format!(
                "{ID}: parameter difficulty={:?} is not one of novice, normal, elite, legendary",
                words[0]
            ));
        };
        let Some(layout) = d.layouts.iter().position(|l| l.key == words[1]) else {
            let known: Vec<&str> = d.layouts.iter().map(|l| l.key.as_str()).collect();
            return invalid(format!(
                "{ID}: parameter layout={:?} is not one of {}",
                words[1],
                known.join(", ")
            ));
        };
        let rules = Rules {
            players: get_int(&params, "players") as u8,
            start_level,
            layout: layout as u8,
        };
        let [difficulty, layout] = words;
        params.insert("difficulty".into(), ParamValue::Str(difficulty));
        params.insert("layout".into(), ParamValue::Str(layout));
        Ok(ForbiddenIslandGame { params, rules })
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }
}

impl Game for ForbiddenIslandGame {
    type State = ForbiddenIslandState;

    fn id(&self) -> &'static str {
        ID
    }
    fn params(&self) -> &Params {
        &self.params
    }
    fn num_players(&self) -> usize {
        self.rules.n()
    }
    fn num_distinct_actions(&self) -> usize {
        NUM_ACTIONS as usize
    }
    fn max_chance_outcomes(&self) -> usize {
        data::TILES
    }
    fn max_game_length(&self) -> u64 {
        self.rules.max_game_length()
    }
    fn observation_shape(&self) -> Vec<usize> {
        vec![observation::len(self.rules.n())]
    }
    fn new_initial_state(&self) -> ForbiddenIslandState {
        ForbiddenIslandState::new(self.rules)
    }
    fn deserialize_state(&self, text: &str) -> Result<(ForbiddenIslandState, Vec<u32>)> {
        serial::deserialize(&self.rules, &self.params, text)
    }
}
