//! Every game behind one enum: the list the bindings, benchmarks and generic tests iterate over.
//! Adding a game is one variant here and one line in each `dispatch!` list.

use crate::games::flip_city::{FlipCityGame, FlipCityState};
use crate::{Game, GameError, Params, Player, Result, Rng, State};

/// The ids of all registered games, sorted.
pub const GAME_IDS: &[&str] = &[crate::games::flip_city::ID];

#[derive(Clone, Debug)]
pub enum AnyGame {
    FlipCity(FlipCityGame),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyState {
    FlipCity(FlipCityState),
}

macro_rules! game_dispatch {
    ($self:expr, $g:ident => $body:expr) => {
        match $self {
            AnyGame::FlipCity($g) => $body,
        }
    };
}

macro_rules! state_dispatch {
    ($self:expr, $s:ident => $body:expr) => {
        match $self {
            AnyState::FlipCity($s) => $body,
        }
    };
}

impl AnyGame {
    pub fn new(id: &str, params: &Params) -> Result<Self> {
        match id {
            crate::games::flip_city::ID => Ok(AnyGame::FlipCity(FlipCityGame::new(params)?)),
            _ => Err(GameError::InvalidState(format!(
                "unknown game {id:?} (known: {})",
                GAME_IDS.join(", ")
            ))),
        }
    }

    pub fn id(&self) -> &'static str {
        game_dispatch!(self, g => g.id())
    }
    pub fn params(&self) -> &Params {
        game_dispatch!(self, g => g.params())
    }
    pub fn num_players(&self) -> usize {
        game_dispatch!(self, g => g.num_players())
    }
    pub fn num_distinct_actions(&self) -> usize {
        game_dispatch!(self, g => g.num_distinct_actions())
    }
    pub fn max_chance_outcomes(&self) -> usize {
        game_dispatch!(self, g => g.max_chance_outcomes())
    }
    pub fn max_game_length(&self) -> u64 {
        game_dispatch!(self, g => g.max_game_length())
    }
    pub fn observation_shape(&self) -> Vec<usize> {
        game_dispatch!(self, g => g.observation_shape())
    }
    pub fn observation_len(&self) -> usize {
        self.observation_shape().iter().product()
    }
    pub fn new_initial_state(&self) -> AnyState {
        game_dispatch!(self, g => AnyState::FlipCity(g.new_initial_state()))
    }
    pub fn deserialize_state(&self, text: &str) -> Result<(AnyState, Vec<u32>)> {
        game_dispatch!(self, g => g.deserialize_state(text).map(|(s, h)| (AnyState::FlipCity(s), h)))
    }
}

impl State for AnyState {
    fn current_player(&self) -> Player {
        state_dispatch!(self, s => s.current_player())
    }
    fn legal_actions(&self, out: &mut Vec<u32>) {
        state_dispatch!(self, s => s.legal_actions(out))
    }
    fn chance_weights(&self, out: &mut Vec<(u32, u64)>) {
        state_dispatch!(self, s => s.chance_weights(out))
    }
    fn apply_unchecked(&mut self, action: u32) {
        state_dispatch!(self, s => s.apply_unchecked(action))
    }
    fn is_legal(&self, action: u32) -> bool {
        state_dispatch!(self, s => s.is_legal(action))
    }
    fn apply_action(&mut self, action: u32) -> Result<()> {
        state_dispatch!(self, s => s.apply_action(action))
    }
    fn action_to_string(&self, action: u32) -> Result<String> {
        state_dispatch!(self, s => s.action_to_string(action))
    }
    fn string_to_action(&self, text: &str) -> Result<u32> {
        state_dispatch!(self, s => s.string_to_action(text))
    }
    fn returns(&self, out: &mut [f64]) {
        state_dispatch!(self, s => s.returns(out))
    }
    fn scores(&self, out: &mut [f64]) {
        state_dispatch!(self, s => s.scores(out))
    }
    fn observation_tensor(&self, player: usize, out: &mut [f32]) {
        state_dispatch!(self, s => s.observation_tensor(player, out))
    }
    fn observation_string(&self, player: usize) -> String {
        state_dispatch!(self, s => s.observation_string(player))
    }
    fn information_state_string(&self, player: usize, history: &[u32]) -> String {
        state_dispatch!(self, s => s.information_state_string(player, history))
    }
    fn serialize(&self, history: &[u32]) -> String {
        state_dispatch!(self, s => s.serialize(history))
    }
    fn resample_from_infostate(&self, player: usize, rng: &mut Rng) -> Self {
        state_dispatch!(self, s => AnyState::FlipCity(s.resample_from_infostate(player, rng)))
    }
    fn to_text(&self) -> String {
        state_dispatch!(self, s => s.to_text())
    }
    fn heuristic_value(&self, out: &mut [f64]) {
        state_dispatch!(self, s => s.heuristic_value(out))
    }
}
