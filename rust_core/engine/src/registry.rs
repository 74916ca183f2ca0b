//! Every game behind one enum: the list the bindings, benchmarks and generic tests iterate over.
//! Adding a game is one variant here and one line in each `dispatch!` list.
//!
//! A variant is an engine type, not an id: the Flip City family's two ids share one engine in two layouts
//! (`FlipCity`, the base layout of `flip_city`; `FlipFamily`, every game with Wilderness cards), and
//! `AnyGame::new` picks the layout from the parameters.

use crate::games::caboodle::{self, CaboodleGame, CaboodleState};
use crate::games::carcassonne::{self, CarcassonneGame, CarcassonneState};
use crate::games::flip_city::{self, Configured, FlipCityGame, FlipCityState};
use crate::games::flip_city::{FlipFamilyGame, FlipFamilyState};
use crate::games::flip_pick_towers::{self, FlipPickTowersGame, FlipPickTowersState};
use crate::games::flipology::{self, FlipologyGame, FlipologyState};
use crate::games::forbidden_island::{self, ForbiddenIslandGame, ForbiddenIslandState};
use crate::games::lineit::{self, LineItGame, LineItState};
use crate::games::memoir44::{self, Memoir44Game, Memoir44State};
use crate::games::nidavellir::{self, NidavellirGame, NidavellirState};
use crate::games::viticulture::{self, VitState, ViticultureGame};
use crate::{Game, GameError, Params, Player, Result, Rng, State};

/// The ids of all registered games, sorted.
pub const GAME_IDS: &[&str] = &[
    caboodle::ID,
    carcassonne::ID,
    flip_city::ID,
    flip_city::WILDERNESS_ID,
    flip_pick_towers::ID,
    flipology::ID,
    forbidden_island::ID,
    lineit::ID,
    memoir44::ID,
    nidavellir::ID,
    viticulture::ID,
];

#[derive(Clone, Debug)]
pub enum AnyGame {
    Carcassonne(CarcassonneGame),
    Caboodle(CaboodleGame),
    FlipCity(FlipCityGame),
    FlipFamily(FlipFamilyGame),
    FlipPickTowers(FlipPickTowersGame),
    Flipology(FlipologyGame),
    ForbiddenIsland(ForbiddenIslandGame),
    LineIt(LineItGame),
    Memoir44(Memoir44Game),
    Nidavellir(NidavellirGame),
    Viticulture(ViticultureGame),
}

// The variants differ in size (each game's state is as big as its rules need), and boxing the big ones would
// put states on the heap, which DESIGN.md rules out for search; clones copy only the live variant anyway.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyState {
    /// Boxed: a Carcassonne state holds a board (kilobytes); the enum must not grow for the other games.
    Carcassonne(Box<CarcassonneState>),
    Caboodle(Box<CaboodleState>),
    FlipCity(FlipCityState),
    FlipFamily(FlipFamilyState),
    FlipPickTowers(FlipPickTowersState),
    Flipology(FlipologyState),
    ForbiddenIsland(ForbiddenIslandState),
    LineIt(LineItState),
    /// Boxed: a Memoir '44 state holds 113 hexes of units (over a kilobyte).
    Memoir44(Box<Memoir44State>),
    /// Boxed: a Nidavellir state holds five armies of fixed columns (over a kilobyte).
    Nidavellir(Box<NidavellirState>),
    /// Boxed: a Viticulture state holds six seats of hands and known cards (kilobytes).
    Viticulture(Box<VitState>),
}

/// `$V` names the variant matched, so that a body can wrap a new state in the same variant.
macro_rules! game_dispatch {
    ($self:expr, $g:ident => $body:expr) => {
        game_dispatch!($self, _V, $g => $body)
    };
    ($self:expr, $V:ident, $g:ident => $body:expr) => {
        match $self {
            AnyGame::Carcassonne($g) => {
                #[allow(unused_imports)]
                use AnyState::Carcassonne as $V;
                $body
            }
            AnyGame::Caboodle($g) => {
                #[allow(non_snake_case, unused_variables)]
                let $V = |s: CaboodleState| AnyState::Caboodle(Box::new(s));
                $body
            }
            AnyGame::FlipCity($g) => {
                #[allow(unused_imports)]
                use AnyState::FlipCity as $V;
                $body
            }
            AnyGame::FlipFamily($g) => {
                #[allow(unused_imports)]
                use AnyState::FlipFamily as $V;
                $body
            }
            AnyGame::FlipPickTowers($g) => {
                #[allow(unused_imports)]
                use AnyState::FlipPickTowers as $V;
                $body
            }
            AnyGame::Flipology($g) => {
                #[allow(unused_imports)]
                use AnyState::Flipology as $V;
                $body
            }
            AnyGame::ForbiddenIsland($g) => {
                #[allow(unused_imports)]
                use AnyState::ForbiddenIsland as $V;
                $body
            }
            AnyGame::LineIt($g) => {
                #[allow(unused_imports)]
                use AnyState::LineIt as $V;
                $body
            }
            AnyGame::Memoir44($g) => {
                #[allow(non_snake_case, unused_variables)]
                let $V = |s: Memoir44State| AnyState::Memoir44(Box::new(s));
                $body
            }
            AnyGame::Nidavellir($g) => {
                #[allow(non_snake_case, unused_variables)]
                let $V = |s: NidavellirState| AnyState::Nidavellir(Box::new(s));
                $body
            }
            AnyGame::Viticulture($g) => {
                #[allow(non_snake_case, unused_variables)]
                let $V = |s: VitState| AnyState::Viticulture(Box::new(s));
                $body
            }
        }
    };
}

macro_rules! state_dispatch {
    ($self:expr, $s:ident => $body:expr) => {
        state_dispatch!($self, _V, $s => $body)
    };
    ($self:expr, $V:ident, $s:ident => $body:expr) => {
        match $self {
            AnyState::Carcassonne($s) => {
                #[allow(unused_imports)]
                use AnyState::Carcassonne as $V;
                $body
            }
            AnyState::Caboodle($s) => {
                #[allow(non_snake_case, unused_variables)]
                let $V = |s: CaboodleState| AnyState::Caboodle(Box::new(s));
                $body
            }
            AnyState::FlipCity($s) => {
                #[allow(unused_imports)]
                use AnyState::FlipCity as $V;
                $body
            }
            AnyState::FlipFamily($s) => {
                #[allow(unused_imports)]
                use AnyState::FlipFamily as $V;
                $body
            }
            AnyState::FlipPickTowers($s) => {
                #[allow(unused_imports)]
                use AnyState::FlipPickTowers as $V;
                $body
            }
            AnyState::Flipology($s) => {
                #[allow(unused_imports)]
                use AnyState::Flipology as $V;
                $body
            }
            AnyState::ForbiddenIsland($s) => {
                #[allow(unused_imports)]
                use AnyState::ForbiddenIsland as $V;
                $body
            }
            AnyState::LineIt($s) => {
                #[allow(unused_imports)]
                use AnyState::LineIt as $V;
                $body
            }
            AnyState::Memoir44($s) => {
                #[allow(non_snake_case, unused_variables)]
                let $V = |s: Memoir44State| AnyState::Memoir44(Box::new(s));
                $body
            }
            AnyState::Nidavellir($s) => {
                #[allow(non_snake_case, unused_variables)]
                let $V = |s: NidavellirState| AnyState::Nidavellir(Box::new(s));
                $body
            }
            AnyState::Viticulture($s) => {
                #[allow(non_snake_case, unused_variables)]
                let $V = |s: VitState| AnyState::Viticulture(Box::new(s));
                $body
            }
        }
    };
}

impl AnyGame {
    pub fn new(id: &str, params: &Params) -> Result<Self> {
        match id {
            caboodle::ID => Ok(AnyGame::Caboodle(CaboodleGame::new(params)?)),
            flip_city::ID | flip_city::WILDERNESS_ID => {
                Ok(match flip_city::configure(id, params)? {
                    Configured::Base(g) => AnyGame::FlipCity(g),
                    Configured::Family(g) => AnyGame::FlipFamily(g),
                })
            }
            carcassonne::ID => Ok(AnyGame::Carcassonne(CarcassonneGame::new(params)?)),
            flip_pick_towers::ID => Ok(AnyGame::FlipPickTowers(FlipPickTowersGame::new(params)?)),
            flipology::ID => Ok(AnyGame::Flipology(FlipologyGame::new(params)?)),
            forbidden_island::ID => Ok(AnyGame::ForbiddenIsland(ForbiddenIslandGame::new(params)?)),
            lineit::ID => Ok(AnyGame::LineIt(LineItGame::new(params)?)),
            memoir44::ID => Ok(AnyGame::Memoir44(Memoir44Game::new(params)?)),
            nidavellir::ID => Ok(AnyGame::Nidavellir(NidavellirGame::new(params)?)),
            viticulture::ID => Ok(AnyGame::Viticulture(ViticultureGame::new(params)?)),
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
    pub fn observation_fits_u8(&self) -> bool {
        game_dispatch!(self, g => g.observation_fits_u8())
    }
    pub fn observation_len(&self) -> usize {
        self.observation_shape().iter().product()
    }
    pub fn new_initial_state(&self) -> AnyState {
        game_dispatch!(self, V, g => V(g.new_initial_state()))
    }
    pub fn deserialize_state(&self, text: &str) -> Result<(AnyState, Vec<u32>)> {
        game_dispatch!(self, V, g => g.deserialize_state(text).map(|(s, h)| (V(s), h)))
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
    fn sample_chance(&self, rng: &mut Rng, scratch: &mut Vec<(u32, u64)>) -> Option<u32> {
        state_dispatch!(self, s => s.sample_chance(rng, scratch))
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
    fn observation_tensor_u8(&self, player: usize, out: &mut [u8], scratch: &mut [f32]) {
        state_dispatch!(self, s => s.observation_tensor_u8(player, out, scratch))
    }
    fn legal_actions_unordered(&self, out: &mut Vec<u32>) {
        state_dispatch!(self, s => s.legal_actions_unordered(out))
    }
    fn legal_bits(&self, out: &mut [u64], scratch: &mut Vec<u32>) {
        state_dispatch!(self, s => s.legal_bits(out, scratch))
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
        state_dispatch!(self, V, s => V(s.resample_from_infostate(player, rng)))
    }
    fn resample_with_history(
        &self,
        player: usize,
        history: &[u32],
        rng: &mut Rng,
    ) -> (Self, Vec<u32>) {
        state_dispatch!(self, V, s => {
            let (state, history) = s.resample_with_history(player, history, rng);
            (V(state), history)
        })
    }
    fn to_text(&self) -> String {
        state_dispatch!(self, s => s.to_text())
    }
    fn heuristic_value(&self, out: &mut [f64]) {
        state_dispatch!(self, s => s.heuristic_value(out))
    }
}
