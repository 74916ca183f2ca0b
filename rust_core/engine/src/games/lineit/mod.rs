//! Line-it (docs/rules/lineit.md): lines of ascending or descending number cards, bets and jackpots.
//!
//! Everything in the game is public (the market is dealt face up), so the state is a handful of bit sets and
//! counts, `Copy`, and `resample_from_infostate` is a clone.

pub mod cards;
mod notation;
mod observation;
mod serial;
mod state;

pub use notation::{CLOSE, HAND, LINE, NUM_ACTIONS, PASS, PLAY};
pub use state::{LineItState, Phase, Seat};

use crate::params::{get_bool, get_int, normalise, ParamSpec, Params};
use crate::{Game, Result};
use cards::{BLOCK_MASKS, CYCLE_MASKS, DECK_SIZE, KINDS};

pub const ID: &str = "lineit";
pub const MAX_PLAYERS: usize = 5;

pub const SCHEMA: &[ParamSpec] = &[
    ParamSpec::Int {
        name: "players",
        default: 2,
        min: 2,
        max: MAX_PLAYERS as i64,
    },
    ParamSpec::Bool {
        name: "colour_blocks",
        default: false,
    },
];

/// The parameters as the rules read them (§1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    pub players: u8,
    pub colour_blocks: bool,
}

impl Rules {
    #[inline]
    pub fn n(&self) -> usize {
        self.players as usize
    }
    /// `M`: the market size.
    #[inline]
    pub fn market_size(&self) -> u32 {
        self.players as u32 + 2
    }
    /// `R`: the number of rounds.
    #[inline]
    pub fn rounds(&self) -> u32 {
        DECK_SIZE / self.market_size()
    }
    #[inline]
    pub fn colour_masks(&self) -> &'static [u128; 4] {
        if self.colour_blocks {
            &BLOCK_MASKS
        } else {
            &CYCLE_MASKS
        }
    }
    /// The colour 0..3 of a number kind.
    #[inline]
    pub fn colour(&self, k: u8) -> usize {
        if self.colour_blocks {
            k as usize / 25
        } else {
            k as usize % 4
        }
    }
    /// §6: `R x M + 4 x R x n + 2 x n`.
    pub fn max_game_length(&self) -> u64 {
        let (r, m, n) = (
            self.rounds() as u64,
            self.market_size() as u64,
            self.n() as u64,
        );
        r * m + 4 * r * n + 2 * n
    }
}

#[derive(Clone, Debug)]
pub struct LineItGame {
    params: Params,
    rules: Rules,
}

impl LineItGame {
    pub fn new(given: &Params) -> Result<Self> {
        let params = normalise(ID, SCHEMA, given)?;
        let rules = Rules {
            players: get_int(&params, "players") as u8,
            colour_blocks: get_bool(&params, "colour_blocks"),
        };
        Ok(LineItGame { params, rules })
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }
}

impl Game for LineItGame {
    type State = LineItState;

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
        KINDS
    }
    fn max_game_length(&self) -> u64 {
        self.rules.max_game_length()
    }
    fn observation_shape(&self) -> Vec<usize> {
        vec![observation::len(self.rules.n())]
    }
    fn new_initial_state(&self) -> LineItState {
        LineItState::new(self.rules)
    }
    fn deserialize_state(&self, text: &str) -> Result<(LineItState, Vec<u32>)> {
        serial::deserialize(&self.rules, &self.params, text)
    }
}
