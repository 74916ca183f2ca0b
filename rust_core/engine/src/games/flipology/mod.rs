//! Flipology: Nature, the Nature variant and the Great Tree (docs/rules/flipology.md).
//!
//! A game of hidden information: every card is dealt face down, a seat knows its own cards and what the game
//! has shown it. Each card in play is a *record* that carries the set of seats knowing it, so that the views
//! (observation.rs) and the resampling (resample.rs) read knowledge off the state instead of re-deriving it.

pub mod cards;
mod notation;
mod observation;
mod resample;
mod serial;
mod state;

pub use state::{Effect, FlipologyState, HandCard, Phase, Record, Step};

use crate::error::invalid;
use crate::params::{get_bool, get_int, normalise, ParamSpec, Params};
use crate::{Game, Result};
use cards::{CARDS, MOON, NUM_CARDS, RAIN};

pub const ID: &str = "flipology";
pub const MAX_PLAYERS: usize = 6;

pub const NATURE: u8 = 0;
pub const NATURE_VARIANT: u8 = 1;
pub const GREAT_TREE: u8 = 2;

pub const SCHEMA: &[ParamSpec] = &[
    ParamSpec::Int {
        name: "players",
        default: 2,
        min: 2,
        max: MAX_PLAYERS as i64,
    },
    ParamSpec::Int {
        name: "variant",
        default: 0,
        min: 0,
        max: 2,
    },
    ParamSpec::Bool {
        name: "moon",
        default: false,
    },
    ParamSpec::Int {
        name: "target",
        default: 50,
        min: 1,
        max: 1000,
    },
    ParamSpec::Int {
        name: "max_rounds",
        default: 10,
        min: 1,
        max: 100,
    },
];

/// The parameters as the rules read them, with the derived constants of §1; small (six bytes: the schema caps
/// `target` at 1000 and `max_rounds` at 100) and `Copy`, so every state carries its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    pub players: u8,
    pub variant: u8,
    pub moon: bool,
    pub target: u16,
    pub max_rounds: u8,
}

impl Rules {
    #[inline]
    pub fn n(&self) -> usize {
        self.players as usize
    }
    #[inline]
    pub fn great_tree(&self) -> bool {
        self.variant == GREAT_TREE
    }
    /// `HAND`: cards dealt per seat per round.
    #[inline]
    pub fn hand(&self) -> usize {
        if self.great_tree() {
            5
        } else {
            9
        }
    }
    /// Cards in one row (Nature: the seat's row; Great Tree: one tier), which is also `ROW`.
    #[inline]
    pub fn row_len(&self) -> usize {
        if self.great_tree() {
            5
        } else {
            7
        }
    }
    /// `TURNS`: turns per seat per round.
    #[inline]
    pub fn turns(&self) -> u32 {
        if self.great_tree() {
            2
        } else {
            3
        }
    }
    /// `S`: positions per seat.
    #[inline]
    pub fn slots(&self) -> usize {
        if self.great_tree() {
            15
        } else {
            7
        }
    }
    /// Position ids in use: `S x n` (at most 60 in every variant).
    #[inline]
    pub fn positions(&self) -> usize {
        self.slots() * self.n()
    }
    /// The bitmask of every seat (`ALL`).
    #[inline]
    pub fn all(&self) -> u8 {
        ((1u32 << self.players) - 1) as u8
    }

    /// `DECK` (§2): all 76 cards, without the Moon unless `moon`, without the Rain in the Great Tree.
    pub fn deck(&self) -> [u8; NUM_CARDS] {
        let mut deck = [0u8; NUM_CARDS];
        for (d, c) in deck.iter_mut().zip(CARDS.iter()) {
            *d = c.copies;
        }
        if !self.moon {
            deck[MOON as usize] = 0;
        }
        if self.great_tree() {
            deck[RAIN as usize] = 0;
        }
        deck
    }

    /// §7: a true bound on the length of a game (per turn, the flip plus at most one effect per card in the rows,
    /// each with at most `n + 4` decisions).
    pub fn max_game_length(&self) -> u64 {
        let n = self.players as u64;
        let nature = 9 * n + 7 * n + 3 * n * (1 + 7 * n * (n + 4));
        let great = 5 * n + n + 5 * n + 5 * n + 2 * n * (1 + 15 * n * (n + 4));
        match self.variant {
            NATURE => nature,
            NATURE_VARIANT => self.max_rounds as u64 * nature,
            _ => 3 * great,
        }
    }
}

#[derive(Clone, Debug)]
pub struct FlipologyGame {
    params: Params,
    rules: Rules,
}

impl FlipologyGame {
    pub fn new(given: &Params) -> Result<Self> {
        let params = normalise(ID, SCHEMA, given)?;
        let rules = Rules {
            players: get_int(&params, "players") as u8,
            variant: get_int(&params, "variant") as u8,
            moon: get_bool(&params, "moon"),
            target: get_int(&params, "target") as u16,
            max_rounds: get_int(&params, "max_rounds") as u8,
        };
        if rules.great_tree() && rules.n() > 4 {
            return invalid(format!(
                "{ID}: the Great Tree (variant=2) is for 2 to 4 players, not {}",
                rules.players
            ));
        }
        if rules.variant == NATURE_VARIANT && rules.moon {
            return invalid(format!(
                "{ID}: the Nature variant (variant=1) removes the Moon card, so moon must be false"
            ));
        }
        Ok(FlipologyGame { params, rules })
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }
}

impl Game for FlipologyGame {
    type State = FlipologyState;

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
        notation::NUM_ACTIONS as usize
    }

    fn max_chance_outcomes(&self) -> usize {
        NUM_CARDS
    }

    fn max_game_length(&self) -> u64 {
        self.rules.max_game_length()
    }

    fn observation_shape(&self) -> Vec<usize> {
        vec![observation::len(&self.rules)]
    }

    fn new_initial_state(&self) -> FlipologyState {
        FlipologyState::new(self.rules)
    }

    fn deserialize_state(&self, text: &str) -> Result<(FlipologyState, Vec<u32>)> {
        serial::deserialize(&self.rules, &self.params, text)
    }
}
