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

use crate::error::invalid;
use crate::params::{get_bool, get_int, normalise, ParamSpec, ParamValue, Params};
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

/// Thingvellir's boolean parameters (docs/rules/thingvellir.md §1); `enlist_chooser` is a str, read apart.
pub const TV_SCHEMA: &[ParamSpec] = &[
    ParamSpec::Bool {
        name: "enlist_each_turn",
        default: false,
    },
    ParamSpec::Bool {
        name: "thingvellir",
        default: false,
    },
    ParamSpec::Bool {
        name: "two_player_camp_discard",
        default: true,
    },
];

const BASE_KEYS: [&str; 3] = ["first_game", "players", "warrior_bonus_at_zero"];
const TV_KEYS: [&str; 4] = [
    "enlist_chooser",
    "enlist_each_turn",
    "thingvellir",
    "two_player_camp_discard",
];

/// thingvellir.md §1 T2: who chooses to enlist first or last.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EnlistChooser {
    /// The seat with the most unplaced mercenaries (ties: higher gem).
    Most,
    /// The seat with the lowest gem among those with mercenaries.
    LowestGem,
}

impl EnlistChooser {
    pub fn key(self) -> &'static str {
        match self {
            EnlistChooser::Most => "most",
            EnlistChooser::LowestGem => "lowest_gem",
        }
    }
}

/// The parameters as the rules read them (§1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    pub players: u8,
    pub first_game: bool,
    pub warrior_bonus_at_zero: bool,
    /// Thingvellir (thingvellir.md §1) and its three interpretation keys (at their defaults when it is off).
    pub thingvellir: bool,
    pub enlist_each_turn: bool,
    pub enlist_chooser: EnlistChooser,
    pub two_player_camp_discard: bool,
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
    /// §6: `n + 115 + 6T(c + 4n + 3)`; Thingvellir adds `116 + 10T + 2n` (thingvellir.md §6, a bound): 24
    /// camp fills, 12 placements, a 2-player tavern discard per tavern (6T), two enlistment orders a turn at
    /// most (4T), and 80 + 2n for the artefacts' and the six heroes' decisions and the recruits they bring.
    pub fn max_game_length(&self) -> u64 {
        let (n, t, c) = (self.n() as u64, self.turns() as u64, self.cards() as u64);
        let base = n + 115 + 6 * t * (c + 4 * n + 3);
        if self.thingvellir {
            base + 116 + 10 * t + 2 * n
        } else {
            base
        }
    }
}

#[derive(Clone, Debug)]
pub struct NidavellirGame {
    params: Params,
    rules: Rules,
}

impl NidavellirGame {
    pub fn new(given: &Params) -> Result<Self> {
        let is_tv = |k: &str| TV_KEYS.contains(&k);
        let base: Params = given
            .iter()
            .filter(|(k, _)| !is_tv(k))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let tv_given: Params = given
            .iter()
            .filter(|(k, _)| is_tv(k) && k.as_str() != "enlist_chooser")
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        if let Some(key) = base.keys().find(|k| !BASE_KEYS.contains(&k.as_str())) {
            return invalid(format!(
                "{ID}: unknown parameter {key:?} (known: enlist_chooser, enlist_each_turn, first_game, \
                 players, thingvellir, two_player_camp_discard, warrior_bonus_at_zero)"
            ));
        }
        let mut params = normalise(ID, SCHEMA, &base)?;
        let tv = normalise(ID, TV_SCHEMA, &tv_given)?;
        let chooser = match given.get("enlist_chooser") {
            None => EnlistChooser::Most,
            Some(ParamValue::Str(s)) if s == "most" => EnlistChooser::Most,
            Some(ParamValue::Str(s)) if s == "lowest_gem" => EnlistChooser::LowestGem,
            Some(ParamValue::Str(s)) => {
                return invalid(format!(
                    "{ID}: parameter enlist_chooser={s:?} is not one of most, lowest_gem"
                ))
            }
            Some(other) => {
                return invalid(format!(
                    "{ID}: parameter enlist_chooser must be a str, not {other}"
                ))
            }
        };
        let rules = Rules {
            players: get_int(&params, "players") as u8,
            first_game: get_bool(&params, "first_game"),
            warrior_bonus_at_zero: get_bool(&params, "warrior_bonus_at_zero"),
            thingvellir: get_bool(&tv, "thingvellir"),
            enlist_each_turn: get_bool(&tv, "enlist_each_turn"),
            enlist_chooser: chooser,
            two_player_camp_discard: get_bool(&tv, "two_player_camp_discard"),
        };
        if !rules.thingvellir {
            // §1: one game, one game string: the interpretation keys only at their defaults.
            if rules.enlist_each_turn
                || rules.enlist_chooser != EnlistChooser::Most
                || !rules.two_player_camp_discard
            {
                return invalid(format!(
                    "{ID}: enlist_each_turn, enlist_chooser and two_player_camp_discard need thingvellir=true"
                ));
            }
        }
        if rules.thingvellir {
            for (k, v) in tv {
                params.insert(k, v);
            }
            params.insert(
                "enlist_chooser".into(),
                ParamValue::Str(chooser.key().to_string()),
            );
        }
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
        if self.rules.thingvellir {
            TV_NUM_ACTIONS as usize
        } else {
            NUM_ACTIONS as usize
        }
    }
    fn max_chance_outcomes(&self) -> usize {
        if self.rules.thingvellir {
            data::CAMP_CARDS
        } else {
            data::KINDS
        }
    }
    fn max_game_length(&self) -> u64 {
        self.rules.max_game_length()
    }
    fn observation_shape(&self) -> Vec<usize> {
        vec![observation::len_for(&self.rules)]
    }
    fn new_initial_state(&self) -> NidavellirState {
        NidavellirState::new(self.rules)
    }
    fn deserialize_state(&self, text: &str) -> Result<(NidavellirState, Vec<u32>)> {
        serial::deserialize(&self.rules, &self.params, text)
    }
}
