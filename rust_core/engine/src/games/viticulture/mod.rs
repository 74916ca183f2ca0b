//! Viticulture Essential Edition (docs/rules/viticulture.md): 2 to 6 winemakers place workers over the
//! seasons of a year, plant vines, harvest, make wine and fill orders; first to 20 VP ends the game at the
//! year's end.
//!
//! The components are data (`data.rs`, the shared JSON file). The state is fixed arrays plus a fixed stack
//! of small tasks (`state.rs`); the registry boxes it.

pub mod data;
mod heuristic;
pub mod notation;
mod observation;
mod serial;
pub mod state;
#[cfg(test)]
mod tests;

pub use state::{Phase, VitState};

use crate::error::invalid;
use crate::params::{get_bool, get_int, normalise, ParamSpec, ParamValue, Params};
use crate::{Game, GameError, Player, Result, Rng, State};

pub const ID: &str = "viticulture";
pub const OBS_LEN: usize = 3002;

pub const SCHEMA: &[ParamSpec] = &[
    ParamSpec::Bool {
        name: "friendly_bonus",
        default: false,
    },
    ParamSpec::Int {
        name: "max_years",
        default: 20,
        min: 1,
        max: 100,
    },
    ParamSpec::Int {
        name: "parents_dealt",
        default: 2,
        min: 1,
        max: 2,
    },
    ParamSpec::Int {
        name: "players",
        default: 2,
        min: 2,
        max: 6,
    },
    ParamSpec::Int {
        name: "target_vp",
        default: 20,
        min: 10,
        max: 40,
    },
];

/// The word parameters: (name, allowed values, default first).
pub const WORDS: &[(&str, [&str; 2])] = &[
    ("end_rule", ["reached", "year_end"]),
    ("harvest_expert", ["record", "harvest_both"]),
    ("importer", ["escrow", "draw"]),
    ("promoter", ["vp_residual", "vp_only"]),
    ("queen", ["on", "off"]),
];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    pub players: u8,
    pub parents_dealt: u8,
    pub end_year_end: bool,
    pub target_vp: i32,
    pub max_years: u16,
    pub friendly: bool,
    pub harvest_both: bool,
    pub promoter_vp_only: bool,
    pub queen: bool,
    pub importer_draw: bool,
}

impl Rules {
    pub fn end_reached(&self) -> bool {
        !self.end_year_end
    }
    /// §15.6.
    pub fn max_game_length(&self) -> u64 {
        let p = self.players as u64;
        self.max_years as u64 * (1700 * p + 150) + 10 * p + 10
    }
}

#[derive(Clone, Debug)]
pub struct ViticultureGame {
    params: Params,
    rules: Rules,
}

impl ViticultureGame {
    pub fn new(given: &Params) -> Result<Self> {
        let is_word = |k: &str| WORDS.iter().any(|w| w.0 == k);
        let base: Params = given
            .iter()
            .filter(|(k, _)| !is_word(k))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        for key in base.keys() {
            if !SCHEMA.iter().any(|s| match s {
                ParamSpec::Int { name, .. } | ParamSpec::Bool { name, .. } => name == key,
            }) {
                return invalid(format!(
                    "{ID}: unknown parameter {key:?} (known: end_rule, friendly_bonus, harvest_expert, importer, \
                     max_years, parents_dealt, players, promoter, queen, target_vp)"
                ));
            }
        }
        let mut params = normalise(ID, SCHEMA, &base)?;
        let mut chosen = [0usize; 5];
        for (i, (name, values)) in WORDS.iter().enumerate() {
            match given.get(*name) {
                None => {}
                Some(ParamValue::Str(s)) => match values.iter().position(|v| v == s) {
                    Some(j) => chosen[i] = j,
                    None => {
                        return invalid(format!(
                            "{ID}: parameter {name}={s:?} is not one of {}",
                            values.join(", ")
                        ))
                    }
                },
                Some(other) => {
                    return invalid(format!("{ID}: parameter {name} must be a str, not {other}"))
                }
            }
            params.insert(
                name.to_string(),
                ParamValue::Str(values[chosen[i]].to_string()),
            );
        }
        let rules = Rules {
            players: get_int(&params, "players") as u8,
            parents_dealt: get_int(&params, "parents_dealt") as u8,
            end_year_end: chosen[0] == 1,
            target_vp: get_int(&params, "target_vp") as i32,
            max_years: get_int(&params, "max_years") as u16,
            friendly: get_bool(&params, "friendly_bonus"),
            harvest_both: chosen[1] == 1,
            importer_draw: chosen[2] == 1,
            promoter_vp_only: chosen[3] == 1,
            queen: chosen[4] == 0,
        };
        Ok(ViticultureGame { params, rules })
    }
    pub fn rules(&self) -> &Rules {
        &self.rules
    }
}

impl Game for ViticultureGame {
    type State = VitState;

    fn id(&self) -> &'static str {
        ID
    }
    fn params(&self) -> &Params {
        &self.params
    }
    fn num_players(&self) -> usize {
        self.rules.players as usize
    }
    fn num_distinct_actions(&self) -> usize {
        notation::NUM_ACTIONS as usize
    }
    fn max_chance_outcomes(&self) -> usize {
        notation::NUM_CHANCE as usize
    }
    fn max_game_length(&self) -> u64 {
        self.rules.max_game_length()
    }
    fn observation_shape(&self) -> Vec<usize> {
        vec![OBS_LEN]
    }
    fn new_initial_state(&self) -> VitState {
        VitState::new(self.rules)
    }
    fn deserialize_state(&self, text: &str) -> Result<(VitState, Vec<u32>)> {
        serial::deserialize(&self.rules, text)
    }
}

impl State for VitState {
    fn current_player(&self) -> Player {
        self.current()
    }
    fn legal_actions(&self, out: &mut Vec<u32>) {
        if self.current() == crate::TERMINAL {
            out.clear();
            return;
        }
        self.legal(out);
    }
    fn chance_weights(&self, out: &mut Vec<(u32, u64)>) {
        if self.current() == crate::CHANCE {
            self.chance(out);
        } else {
            out.clear();
        }
    }
    fn is_legal(&self, action: u32) -> bool {
        let mut buf = Vec::new();
        self.legal_actions(&mut buf);
        buf.contains(&action)
    }
    fn apply_unchecked(&mut self, action: u32) {
        // The task handlers read an id as an offset into its kind's range (a row, a field, a card), so an id
        // the current node does not offer could index out of range: it is checked first, into a reused buffer
        // (one more legal-action pass a step; the hot loops pass legal ids).
        thread_local!(static LEGAL: std::cell::RefCell<Vec<u32>> = const { std::cell::RefCell::new(Vec::new()) });
        let legal = LEGAL.with(|buf| {
            let mut buf = buf.borrow_mut();
            buf.clear();
            self.legal_actions(&mut buf);
            buf.contains(&action)
        });
        if legal {
            self.apply(action);
        }
    }
    fn action_to_string(&self, action: u32) -> Result<String> {
        if self.current() == crate::CHANCE {
            notation::chance_text(action)
        } else {
            notation::action_text(action)
        }
    }
    fn string_to_action(&self, text: &str) -> Result<u32> {
        notation::parse_text(text, self.current() == crate::CHANCE)
    }
    fn returns(&self, out: &mut [f64]) {
        VitState::returns(self, out)
    }
    fn scores(&self, out: &mut [f64]) {
        for (q, x) in out.iter_mut().enumerate() {
            *x = if q < self.n() {
                self.seats[q].vp as f64
            } else {
                0.0
            };
        }
    }
    fn observation_tensor(&self, player: usize, out: &mut [f32]) {
        observation::tensor(self, player, out)
    }
    fn observation_string(&self, player: usize) -> String {
        observation::text(self, player)
    }
    fn information_state_string(&self, player: usize, history: &[u32]) -> String {
        observation::info_string(self, player, history)
    }
    fn serialize(&self, history: &[u32]) -> String {
        serial::serialize(self, history)
    }
    /// The live redeal of §10 alone (what the search loops use: they never write their determinizations).
    fn resample_from_infostate(&self, player: usize, rng: &mut Rng) -> Self {
        observation::resample(self, player, rng)
    }
    /// §10 in full: the redeal with the unit's hidden draws rewritten, so that the state serializes as itself.
    fn resample_with_history(
        &self,
        player: usize,
        history: &[u32],
        rng: &mut Rng,
    ) -> (Self, Vec<u32>) {
        serial::resample_with_history(self, player, history, rng)
    }
    fn to_text(&self) -> String {
        observation::full_text(self)
    }
    fn heuristic_value(&self, out: &mut [f64]) {
        heuristic::heuristic_value(self, out)
    }
}

#[allow(dead_code)]
fn _unused(_: GameError) {}
