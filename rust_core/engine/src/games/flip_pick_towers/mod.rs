//! Flip Pick Towers: the flip-and-write castle game (docs/rules/flip_pick_towers.md).
//!
//! The castle sheet, the cards' resources and the scoring cards are data (`sheet.rs`, §3): a game parses its
//! sheet once into a `Config` that is interned for the life of the process (one per distinct parameter set,
//! see [`intern`]), and every state holds a `&'static` to it. A state is the game's dynamic facts only, in
//! fixed-size arrays sized for the largest sheet §3 allows (16 x 12 cells, 32 stall columns, 6 seats), with no
//! heap data: it is `Copy`, and cloning it is a memcpy that never copies the sheet. Royal scoring cards are expressions of a small language
//! (`royal.rs`, §3.2). The only hidden information is the picks made this turn before every seat has picked.

pub mod bits;
mod notation;
mod observation;
pub mod royal;
mod serial;
pub mod sheet;
pub mod state;

pub use sheet::Sheet;
pub use state::{Deco, FlipPickTowersState, Seat, Step, Task};

use crate::error::invalid;
use crate::params::{get_bool, get_int, normalise, ParamSpec, ParamValue, Params};
use crate::{Game, Result};
use bits::{Cells, Deck};
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

pub const ID: &str = "flip_pick_towers";
pub const MAX_PLAYERS: usize = 6;

/// The int and bool parameters (§1); `sheet` and `target` are words, read by hand.
pub const SCHEMA: &[ParamSpec] = &[
    ParamSpec::Int {
        name: "players",
        default: 2,
        min: 1,
        max: MAX_PLAYERS as i64,
    },
    ParamSpec::Bool {
        name: "competitive",
        default: false,
    },
    ParamSpec::Bool {
        name: "dragon_per_card",
        default: false,
    },
    ParamSpec::Bool {
        name: "garden_towers",
        default: true,
    },
];

pub const TARGETS: [&str; 3] = ["diamond", "star", "rosette"];
const WORD_KEYS: [&str; 2] = ["sheet", "target"];

/// Everything fixed for a game: the parameters as the rules read them and the sheet. Shared by the game and
/// all its states.
#[derive(PartialEq, Eq)]
pub struct Config {
    pub players: usize,
    pub competitive: bool,
    pub dragon_per_card: bool,
    pub garden_towers: bool,
    /// The solo target's shape: 0 diamond, 1 star, 2 rosette.
    pub shape: usize,
    pub sheet: Sheet,
    pub params: Params,
    /// Cell sets and the full deck derived from the sheet, for the rules' hot paths.
    pub masks: Masks,
}

/// Sets of cell ids derived from the sheet (ids `0..N`, row-major; ids past `N` are in none of them).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Masks {
    /// The cells that exist (`bottom[c] <= r <= top[c]`).
    pub exists: Cells,
    /// The bottom cell of each tower column: a foundation lies under it.
    pub tower_bottom: Cells,
    /// The existing cells not in column 0, and not in the last column.
    pub not_first_col: Cells,
    pub not_last_col: Cells,
    /// `full_deck` as a packed deck.
    pub full_deck: Deck,
}

impl Masks {
    pub fn new(sh: &Sheet) -> Masks {
        let mut m = Masks {
            exists: Cells::NONE,
            tower_bottom: Cells::NONE,
            not_first_col: Cells::NONE,
            not_last_col: Cells::NONE,
            full_deck: Deck::from_counts(&sh.full_deck),
        };
        for r in 0..sh.rows {
            for c in 0..sh.cols {
                let id = r * sh.cols + c;
                let exists = sh.exists(r, c);
                m.exists.put(id, exists);
                m.tower_bottom
                    .put(id, exists && sh.tower[c] && r == sh.bottom[c]);
                m.not_first_col.put(id, c > 0);
                m.not_last_col.put(id, c + 1 < sh.cols);
            }
        }
        m
    }
}

/// The one `Config` of a parameter set, for the life of the process. A `Config` is immutable and fully
/// determined by its normalised parameters (the sheet is one of them), so equal parameters share one; states
/// hold a `&'static Config` (no reference count to touch on clone or drop). Each distinct parameter set is
/// kept once: the memory is bounded by the number of distinct games a process makes.
pub fn intern(cfg: Config) -> &'static Config {
    static TABLE: OnceLock<Mutex<HashMap<String, &'static Config>>> = OnceLock::new();
    let key = format!("{:?}", cfg.params);
    let mut table = TABLE
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    table.entry(key).or_insert_with(|| Box::leak(Box::new(cfg)))
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Config({ID}, sheet {:?}, {:?})",
            self.sheet.name, self.params
        )
    }
}

impl Config {
    /// `num_distinct_actions() = 11 + N + S` (§8).
    pub fn num_actions(&self) -> usize {
        11 + self.sheet.cells() + self.sheet.stall_columns()
    }

    /// `max_chance_outcomes() = max(100, M)`.
    pub fn max_chance_outcomes(&self) -> usize {
        sheet::NUM_KINDS.max(self.sheet.cards.len())
    }

    /// `3 + 42 x (3 + 14 x players)` (§8).
    pub fn max_game_length(&self) -> u64 {
        3 + 42 * (3 + 14 * self.players as u64)
    }
}

#[derive(Clone, Debug)]
pub struct FlipPickTowersGame {
    cfg: &'static Config,
}

impl FlipPickTowersGame {
    pub fn new(given: &Params) -> Result<Self> {
        let mut numeric = Params::new();
        for (key, value) in given {
            if !WORD_KEYS.contains(&key.as_str()) {
                numeric.insert(key.clone(), value.clone());
            }
        }
        if let Some(key) = numeric.keys().find(|k| {
            !SCHEMA.iter().any(|s| match s {
                ParamSpec::Int { name, .. } | ParamSpec::Bool { name, .. } => name == k,
            })
        }) {
            return invalid(format!(
                "{ID}: unknown parameter {key:?} (known: competitive, dragon_per_card, \
                 garden_towers, players, sheet, target)"
            ));
        }
        let p = normalise(ID, SCHEMA, &numeric)?;
        let word = |key: &str, default: &str| -> Result<String> {
            match given.get(key) {
                None => Ok(default.to_string()),
                Some(ParamValue::Str(s)) => Ok(s.clone()),
                Some(other) => invalid(format!("{ID}: parameter {key} must be a str, not {other}")),
            }
        };
        let target = word("target", "star")?;
        let Some(shape) = TARGETS.iter().position(|t| *t == target) else {
            return invalid(format!(
                "{ID}: parameter target={target:?} is not one of {}",
                TARGETS.join(", ")
            ));
        };
        let sheet_value = word("sheet", "placeholder")?;
        let sheet = sheet::from_param(&sheet_value)
            .map_err(|e| crate::GameError::InvalidState(format!("{ID}: parameter sheet: {e}")))?;
        let players = get_int(&p, "players") as usize;
        let competitive = get_bool(&p, "competitive");
        if competitive && players < 2 {
            return invalid(format!(
                "{ID}: the competitive variant needs 2 or more players"
            ));
        }
        let mut params = p;
        params.insert("sheet".into(), ParamValue::Str(sheet_value));
        params.insert("target".into(), ParamValue::Str(target));
        let sheet = Sheet::clone(&sheet);
        Ok(FlipPickTowersGame {
            cfg: intern(Config {
                players,
                competitive,
                dragon_per_card: get_bool(&params, "dragon_per_card"),
                garden_towers: get_bool(&params, "garden_towers"),
                shape,
                masks: Masks::new(&sheet),
                sheet,
                params,
            }),
        })
    }

    pub fn config(&self) -> &'static Config {
        self.cfg
    }
}

impl Game for FlipPickTowersGame {
    type State = FlipPickTowersState;

    fn id(&self) -> &'static str {
        ID
    }

    fn params(&self) -> &Params {
        &self.cfg.params
    }

    fn num_players(&self) -> usize {
        self.cfg.players
    }

    fn num_distinct_actions(&self) -> usize {
        self.cfg.num_actions()
    }

    fn max_chance_outcomes(&self) -> usize {
        self.cfg.max_chance_outcomes()
    }

    fn max_game_length(&self) -> u64 {
        self.cfg.max_game_length()
    }

    fn observation_shape(&self) -> Vec<usize> {
        vec![observation::len(self.cfg)]
    }

    fn new_initial_state(&self) -> FlipPickTowersState {
        FlipPickTowersState::new(self.cfg)
    }

    fn deserialize_state(&self, text: &str) -> Result<(FlipPickTowersState, Vec<u32>)> {
        serial::deserialize(self.cfg, text)
    }
}
