//! Caboodle: edge-matching shape tiles, the 2023 and 2024 BGA rules (docs/rules/caboodle.md).
//!
//! The tile faces are data (`tiles.rs`, §3): a game parses its tile file once into a `Config` interned for the
//! life of the process, and every state holds a `&'static` to it. A state is `Copy` with no heap data: the
//! board is the list of placed tiles with the open cells around them and a union-find over the tiles' regions
//! (incremental, never a flood fill). A state also keeps its own history (at most `max_game_length()` ids), since
//! resampling the hidden hands rewrites and replays it (§8.3) and search resamples bare states.

mod notation;
mod observation;
mod serial;
pub mod state;
pub mod tiles;

pub use state::{CaboodleState, Phase};
pub use tiles::{Links, Tiles, T};

use crate::error::invalid;
use crate::params::{get_int, normalise, ParamSpec, ParamValue, Params};
use crate::{Game, Result};
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

pub const ID: &str = "caboodle";
pub const MAX_PLAYERS: usize = 4;
pub const HAND: u32 = 6;

pub const SCHEMA: &[ParamSpec] = &[
    ParamSpec::Int {
        name: "players",
        default: 2,
        min: 2,
        max: MAX_PLAYERS as i64,
    },
    ParamSpec::Int {
        name: "rules",
        default: 2024,
        min: 2023,
        max: 2024,
    },
];

/// Everything fixed for a game, shared by the game and all its states.
pub struct Config {
    pub players: usize,
    /// `rules=2024`: draw after placing, passing costs 4, no end penalty.
    pub rules2024: bool,
    /// Tiles removed at the start (§2): 2p 1, 3p 0, 4p 3.
    pub removals: u32,
    pub tiles: Tiles,
    /// `shown[t][r][d]`: the shape tile t shows on board side d at rotation r (§4).
    pub shown: [[[u8; 4]; 4]; T],
    pub params: Params,
}

impl PartialEq for Config {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other) || self.params == other.params
    }
}
impl Eq for Config {}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Config({ID}, tiles {:?}, {:?})",
            self.tiles.name, self.params
        )
    }
}

impl Config {
    /// `max_game_length() = 40 x (players + 2)` (§7).
    pub fn max_game_length(&self) -> u64 {
        (T * (self.players + 2)) as u64
    }
}

fn intern(cfg: Config) -> &'static Config {
    static TABLE: OnceLock<Mutex<HashMap<String, &'static Config>>> = OnceLock::new();
    let key = format!("{:?}", cfg.params);
    let mut table = TABLE
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    table.entry(key).or_insert_with(|| Box::leak(Box::new(cfg)))
}

#[derive(Clone, Debug)]
pub struct CaboodleGame {
    cfg: &'static Config,
}

impl CaboodleGame {
    pub fn new(given: &Params) -> Result<Self> {
        let mut numeric = Params::new();
        for (key, value) in given {
            if key != "tiles" {
                numeric.insert(key.clone(), value.clone());
            }
        }
        if let Some(key) = numeric.keys().find(|k| *k != "players" && *k != "rules") {
            return invalid(format!(
                "{ID}: unknown parameter {key:?} (known: players, rules, tiles)"
            ));
        }
        let mut params = normalise(ID, SCHEMA, &numeric)?;
        let tiles_value = match given.get("tiles") {
            None => "placeholder".to_string(),
            Some(ParamValue::Str(s)) => s.clone(),
            Some(other) => {
                return invalid(format!("{ID}: parameter tiles must be a str, not {other}"))
            }
        };
        let tiles = tiles::from_param(&tiles_value)
            .map_err(|e| crate::GameError::InvalidState(format!("{ID}: parameter tiles: {e}")))?;
        let players = get_int(&params, "players") as usize;
        let rules2024 = get_int(&params, "rules") == 2024;
        params.insert("tiles".into(), ParamValue::Str(tiles_value));
        let mut shown = [[[0u8; 4]; 4]; T];
        for t in 0..T {
            for r in 0..4 {
                for d in 0..4 {
                    shown[t][r][d] = tiles.edges[t][(d + 4 - r) % 4];
                }
            }
        }
        let removals = match players {
            2 => 1,
            3 => 0,
            _ => 3,
        };
        Ok(CaboodleGame {
            cfg: intern(Config {
                players,
                rules2024,
                removals,
                tiles,
                shown,
                params,
            }),
        })
    }

    pub fn config(&self) -> &'static Config {
        self.cfg
    }
}

impl Game for CaboodleGame {
    type State = CaboodleState;

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
        state::NUM_ACTIONS as usize
    }
    fn max_chance_outcomes(&self) -> usize {
        T
    }
    fn max_game_length(&self) -> u64 {
        self.cfg.max_game_length()
    }
    fn observation_shape(&self) -> Vec<usize> {
        vec![observation::len(self.cfg)]
    }
    fn new_initial_state(&self) -> CaboodleState {
        CaboodleState::new(self.cfg)
    }
    fn deserialize_state(&self, text: &str) -> Result<(CaboodleState, Vec<u32>)> {
        serial::deserialize(self.cfg, text)
    }
}
