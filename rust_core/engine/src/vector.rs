//! Many independent games stepped together (the engine half of `meeplex.VectorGame`). Chance is resolved by a
//! per-game SplitMix64 seeded `seed + i`, so game i of a vector is "random game seed+i" everywhere.

use crate::playout::{random_action, Scratch};
use crate::{AnyGame, AnyState, GameError, Result, Rng, State, CHANCE};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AutoReset {
    /// Gymnasium's default: the step after a game ends resets it, and that step's action is ignored.
    NextStep,
    /// A game that ends is reset within the same step; the returned observation is the new game's.
    SameStep,
    /// Games are never reset; stepping a finished game is an error.
    Disabled,
}

pub struct VectorCore {
    pub game: AnyGame,
    pub states: Vec<AnyState>,
    rngs: Vec<Rng>,
    seeds: Vec<u64>,
    pub needs_reset: Vec<bool>,
    /// The seat whose point of view the observation takes: the seat to move, or at the end the last mover.
    pub viewer: Vec<usize>,
    pub autoreset: AutoReset,
    max_length: u64,
    scratch: Scratch,
    legal: Vec<u32>,
    returns: Vec<f64>,
}

impl VectorCore {
    pub fn new(game: AnyGame, n: usize, seed: u64, autoreset: AutoReset) -> Self {
        let state = game.new_initial_state();
        let p = game.num_players();
        let mut v = VectorCore {
            states: vec![state; n],
            rngs: Vec::with_capacity(n),
            seeds: Vec::with_capacity(n),
            needs_reset: vec![false; n],
            viewer: vec![0; n],
            autoreset,
            max_length: game.max_game_length(),
            scratch: Scratch::default(),
            legal: Vec::new(),
            returns: vec![0.0; p],
            game,
        };
        v.reset(seed);
        v
    }

    pub fn len(&self) -> usize {
        self.states.len()
    }

    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    /// Start every game afresh: game i draws its chance with `Rng::new(seed + i)`.
    pub fn reset(&mut self, seed: u64) {
        let n = self.states.len();
        self.rngs = (0..n as u64)
            .map(|i| Rng::new(seed.wrapping_add(i)))
            .collect();
        self.seeds = (0..n as u64).map(|i| seed.wrapping_add(i)).collect();
        for i in 0..n {
            self.reset_one(i);
        }
    }

    fn reset_one(&mut self, i: usize) {
        self.states[i] = self.game.new_initial_state();
        self.needs_reset[i] = false;
        self.settle(i);
    }

    /// Resolve chance until game i waits for a seat or is over.
    fn settle(&mut self, i: usize) {
        let mut steps = 0;
        while self.states[i].current_player() == CHANCE && steps < self.max_length {
            match random_action(&self.states[i], &mut self.rngs[i], &mut self.scratch) {
                Some(a) => self.states[i].apply_unchecked(a),
                None => break,
            }
            steps += 1;
        }
        if let Ok(p) = usize::try_from(self.states[i].current_player()) {
            self.viewer[i] = p;
        }
    }

    /// Check a whole batch before touching any game, so a bad action changes nothing.
    pub fn validate(&self, actions: &[i64]) -> Result<()> {
        if actions.len() != self.states.len() {
            return Err(GameError::IllegalAction(format!(
                "{} actions for {} games",
                actions.len(),
                self.states.len()
            )));
        }
        for (i, (&a, state)) in actions.iter().zip(&self.states).enumerate() {
            if self.needs_reset[i] {
                continue;
            }
            if state.is_terminal() {
                return Err(GameError::IllegalAction(format!(
                    "game {i} is over and autoreset is disabled"
                )));
            }
            if a < 0 || a > u32::MAX as i64 || !state.is_legal(a as u32) {
                return Err(GameError::IllegalAction(format!(
                    "action {a} is not legal in game {i} (seat {})",
                    state.current_player()
                )));
            }
        }
        Ok(())
    }

    /// Apply one validated batch. `rewards` is n x players (the returns when a game ends this step),
    /// `terminated` n flags.
    pub fn step(&mut self, actions: &[i64], rewards: &mut [f32], terminated: &mut [bool]) {
        let p = self.game.num_players();
        rewards.iter_mut().for_each(|r| *r = 0.0);
        for i in 0..self.states.len() {
            terminated[i] = false;
            if self.needs_reset[i] {
                self.reset_one(i);
                continue;
            }
            self.states[i].apply_unchecked(actions[i] as u32);
            self.settle(i);
            if self.states[i].is_terminal() {
                terminated[i] = true;
                self.states[i].returns(&mut self.returns);
                for (r, &v) in rewards[i * p..(i + 1) * p].iter_mut().zip(&self.returns) {
                    *r = v as f32;
                }
                match self.autoreset {
                    AutoReset::NextStep => self.needs_reset[i] = true,
                    AutoReset::SameStep => self.reset_one(i),
                    AutoReset::Disabled => {}
                }
            }
        }
    }

    pub fn write_observations(&self, out: &mut [f32]) {
        let len = self.game.observation_len();
        for (i, chunk) in out.chunks_mut(len).enumerate().take(self.states.len()) {
            self.states[i].observation_tensor(self.viewer[i], chunk);
        }
    }

    pub fn write_masks(&mut self, out: &mut [i8]) {
        let a = self.game.num_distinct_actions();
        out.iter_mut().for_each(|x| *x = 0);
        for i in 0..self.states.len() {
            if self.states[i].current_player() < 0 {
                continue;
            }
            self.states[i].legal_actions(&mut self.legal);
            for &action in &self.legal {
                if let Some(slot) = out.get_mut(i * a + action as usize) {
                    *slot = 1;
                }
            }
        }
    }

    pub fn current_players(&self, out: &mut [i32]) {
        for (o, s) in out.iter_mut().zip(&self.states) {
            *o = s.current_player();
        }
    }

    pub fn seed_of(&self, i: usize) -> u64 {
        self.seeds[i]
    }
}
