//! Nidavellir (docs/rules/nidavellir.md): 2 to 5 players bid coins on three taverns for Dwarf cards over two
//! Ages, recruit heroes by completing lines of the five classes, and score their army.
//!
//! The components are data (`data.rs`). Piles are multisets of counts drawn through chance nodes; a seat's
//! army is five fixed columns of entries; effects wait in a small fixed queue (§5.4), settled after every
//! action. The state is fixed arrays only (`Copy`); the registry boxes it (it is over a kilobyte).

pub mod data;
mod heuristic;
mod notation;
mod observation;
mod serial;
pub mod state;
#[cfg(test)]
mod tests;

pub use notation::*;
pub use state::{Item, NidavellirState, Phase, Seat, Word};

use crate::params::{get_bool, get_int, normalise, ParamSpec, Params};
use crate::{Game, Result};
use data::data;

pub const ID: &str = "nidavellir";
pub const MAX_PLAYERS: usize = 5;

pub const SCHEMA: &[ParamSpec] = &[
    ParamSpec::Bool {
        name: "first_game",
        default: false,
    },
    ParamSpec::Int {
        name: "players",
        default: 2,
        min: 2,
        max: MAX_PLAYERS as i64,
    },
    ParamSpec::Bool {
        name: "warrior_bonus_at_zero",
        default: false,
    },
];

/// The parameters as the rules read them (§1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    pub players: u8,
    pub first_game: bool,
    pub warrior_bonus_at_zero: bool,
}

impl Rules {
    #[inline]
    pub fn n(&self) -> usize {
        self.players as usize
    }
    /// Turns per Age.
    #[inline]
    pub fn turns(&self) -> u8 {
        data().turns[self.n()]
    }
    /// Cards per tavern.
    #[inline]
    pub fn cards(&self) -> u8 {
        data().cards[self.n()]
    }
    /// §6: `n + 115 + 6T(c + 4n + 3)`.
    pub fn max_game_length(&self) -> u64 {
        let (n, t, c) = (self.n() as u64, self.turns() as u64, self.cards() as u64);
        n + 115 + 6 * t * (c + 4 * n + 3)
    }
}

#[derive(Clone, Debug)]
pub struct NidavellirGame {
    params: Params,
    rules: Rules,
}

impl NidavellirGame {
    pub fn new(given: &Params) -> Result<Self> {
        let params = normalise(ID, SCHEMA, given)?;
        let rules = Rules {
            players: get_int(&params, "players") as u8,
            first_game: get_bool(&params, "first_game"),
            warrior_bonus_at_zero: get_bool(&params, "warrior_bonus_at_zero"),
        };
        Ok(NidavellirGame { params, rules })
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }
}

impl Game for NidavellirGame {
    type State = NidavellirState;

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
        data::KINDS
    }
    fn max_game_length(&self) -> u64 {
        self.rules.max_game_length()
    }
    fn observation_shape(&self) -> Vec<usize> {
        vec![observation::len(self.rules.n())]
    }
    fn new_initial_state(&self) -> NidavellirState {
        NidavellirState::new(self.rules)
    }
    fn deserialize_state(&self, text: &str) -> Result<(NidavellirState, Vec<u32>)> {
        serial::deserialize(&self.rules, &self.params, text)
    }
}
