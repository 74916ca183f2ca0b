//! Flip City: the base set, the Office expansion and the solo variant (docs/rules/flip_city.md).

pub mod cards;
mod notation;
mod observation;
mod serial;
mod state;

pub use state::{FlipCityState, Pending, Phase};

use crate::params::{get_bool, get_int, normalise, ParamSpec, Params};
use crate::{Game, Result};
use cards::{Recycle, FACES, NUM_FACES, OFFICE, OFFICE_SUPPLY, SOLO_PILE, STARTING_DECK, SUPPLY};

pub const ID: &str = "flip_city";
pub const MAX_PLAYERS: usize = 4;

pub const SCHEMA: &[ParamSpec] = &[
    ParamSpec::Int {
        name: "players",
        default: 2,
        min: 1,
        max: MAX_PLAYERS as i64,
    },
    ParamSpec::Bool {
        name: "office",
        default: false,
    },
    ParamSpec::Int {
        name: "max_turns",
        default: 100,
        min: 1,
        max: 1000,
    },
    ParamSpec::Int {
        name: "apartment_unhappiness",
        default: 1,
        min: 0,
        max: 1,
    },
    ParamSpec::Int {
        name: "hospital_cash",
        default: 1,
        min: 0,
        max: 1,
    },
    ParamSpec::Bool {
        name: "mall_recycle",
        default: true,
    },
    ParamSpec::Bool {
        name: "station_recycle",
        default: true,
    },
];

/// The parameters in the form the rules read them; small and `Copy`, so every state carries its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    pub players: usize,
    pub office: bool,
    pub max_turns: u32,
    pub apartment_unhappiness: u32,
    pub hospital_cash: u32,
    pub mall_recycle: bool,
    pub station_recycle: bool,
}

impl Rules {
    pub fn solo(&self) -> bool {
        self.players == 1
    }

    pub fn cash(&self, face: usize) -> u32 {
        if face == cards::HOSPITAL {
            self.hospital_cash
        } else {
            FACES[face].cash
        }
    }

    pub fn unhappiness(&self, face: usize) -> u32 {
        if face == cards::APARTMENT {
            self.apartment_unhappiness
        } else {
            FACES[face].unhappiness
        }
    }

    /// What recycling `face` gives under these parameters (`Recycle::None`: it cannot be recycled).
    pub fn recycle(&self, face: usize) -> Recycle {
        match FACES[face].recycle {
            Recycle::Cash if !self.mall_recycle => Recycle::None,
            Recycle::Point if !self.station_recycle => Recycle::None,
            r => r,
        }
    }

    /// The starting supply: Preparation 2, or four of each pile in solo.
    pub fn initial_supply(&self) -> [u8; NUM_FACES] {
        let mut supply = SUPPLY;
        if self.office {
            supply[OFFICE] = OFFICE_SUPPLY;
        }
        if self.solo() {
            for count in supply.iter_mut().filter(|c| **c > 0) {
                *count = SOLO_PILE;
            }
        }
        supply
    }

    /// Cards of each double-sided type (indexed by the front face) in this game: the conservation law.
    pub fn type_totals(&self) -> [u32; NUM_FACES] {
        let supply = self.initial_supply();
        let mut totals = [0u32; NUM_FACES];
        for f in 0..NUM_FACES {
            totals[f & !1] += STARTING_DECK[f] as u32 * self.players as u32 + supply[f] as u32;
        }
        totals
    }

    pub fn total_cards(&self) -> u64 {
        self.type_totals().iter().map(|&t| t as u64).sum()
    }
}

#[derive(Clone, Debug)]
pub struct FlipCityGame {
    params: Params,
    rules: Rules,
}

impl FlipCityGame {
    pub fn new(given: &Params) -> Result<Self> {
        let params = normalise(ID, SCHEMA, given)?;
        let rules = Rules {
            players: get_int(&params, "players") as usize,
            office: get_bool(&params, "office"),
            max_turns: get_int(&params, "max_turns") as u32,
            apartment_unhappiness: get_int(&params, "apartment_unhappiness") as u32,
            hospital_cash: get_int(&params, "hospital_cash") as u32,
            mall_recycle: get_bool(&params, "mall_recycle"),
            station_recycle: get_bool(&params, "station_recycle"),
        };
        Ok(FlipCityGame { params, rules })
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }
}

impl Game for FlipCityGame {
    type State = FlipCityState;

    fn id(&self) -> &'static str {
        ID
    }

    fn params(&self) -> &Params {
        &self.params
    }

    fn num_players(&self) -> usize {
        self.rules.players
    }

    fn num_distinct_actions(&self) -> usize {
        notation::NUM_ACTIONS as usize
    }

    fn max_chance_outcomes(&self) -> usize {
        NUM_FACES
    }

    fn max_game_length(&self) -> u64 {
        let n = self.rules.players as u64;
        n + self.rules.max_turns as u64 * n * (12 * self.rules.total_cards() + 16)
    }

    fn observation_shape(&self) -> Vec<usize> {
        vec![observation::len(self.rules.players)]
    }

    fn new_initial_state(&self) -> FlipCityState {
        FlipCityState::new(self.rules)
    }

    fn deserialize_state(&self, text: &str) -> Result<(FlipCityState, Vec<u32>)> {
        serial::deserialize(&self.rules, &self.params, text)
    }
}
