//! Agents whose loops run in Rust: ``agent.step(state) -> action``, the search without the GIL.

use crate::convert::{count_in, real, Arg};
use crate::errors::{illegal, invalid_state};
use crate::rng::optional_seed;
use crate::state::PyState;
use meeplex_engine::playout::{random_action, Scratch};
use meeplex_engine::search::{Mcts, MctsConfig};
use meeplex_engine::{Rng, State};
use numpy::PyArray1;
use pyo3::prelude::*;

/// Uniform over the legal actions, drawn with the shared PRNG (``legal[rng.below(len)]``).
#[pyclass(name = "RandomAgent", module = "meeplex._core")]
pub struct PyRandomAgent {
    rng: Rng,
    scratch: Scratch,
}

#[pymethods]
impl PyRandomAgent {
    #[new]
    #[pyo3(signature = (seed=None))]
    fn new(seed: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        Ok(PyRandomAgent {
            rng: Rng::new(optional_seed(seed)?),
            scratch: Scratch::default(),
        })
    }

    fn step(&mut self, state: &PyState) -> PyResult<u32> {
        if state.inner.state.current_player() < 0 {
            return Err(illegal("an agent moves only at a seat's decision"));
        }
        random_action(&state.inner.state, &mut self.rng, &mut self.scratch)
            .ok_or_else(|| illegal("no legal action"))
    }
}

/// UCT Monte Carlo tree search (``information_sets=True``: single-observer ISMCTS, each iteration on a state
/// drawn by ``resample_from_infostate``). Chance nodes are sampled by their exact weights; rollouts are random
/// and stop after ``max_rollout_steps``, where the game's heuristic value stands in for the returns.
#[pyclass(name = "MctsAgent", module = "meeplex._core")]
pub struct PyMctsAgent {
    search: Mcts,
    rng: Rng,
}

#[pymethods]
impl PyMctsAgent {
    #[new]
    #[pyo3(
        signature = (simulations=Arg::Int(1000), uct_c=Arg::Float(1.4), max_rollout_steps=Arg::Int(100), seed=None, information_sets=false),
        text_signature = "(simulations=1000, uct_c=1.4, max_rollout_steps=100, seed=None, information_sets=False)"
    )]
    fn new(
        py: Python<'_>,
        simulations: Arg,
        uct_c: Arg,
        max_rollout_steps: Arg,
        seed: Option<&Bound<'_, PyAny>>,
        information_sets: bool,
    ) -> PyResult<Self> {
        // Counts by the one rule of docs/architecture.md, "Input policy": not an int -> TypeError, out of
        // range -> InvalidStateError (never an OverflowError from the conversion).
        let simulations = count_in(&simulations.bind(py)?, "simulations", 1, 10_000_000)? as u32;
        let max_rollout_steps = count_in(
            &max_rollout_steps.bind(py)?,
            "max_rollout_steps",
            0,
            u32::MAX as i64,
        )? as u32;
        let uct_c = real(&uct_c.bind(py)?, "uct_c")?;
        if !uct_c.is_finite() || uct_c < 0.0 {
            return Err(invalid_state("uct_c must be a finite number >= 0"));
        }
        let config = MctsConfig {
            simulations,
            uct_c,
            max_rollout_steps,
            information_sets,
        };
        Ok(PyMctsAgent {
            search: Mcts::new(config),
            rng: Rng::new(optional_seed(seed)?),
        })
    }

    fn step(&mut self, py: Python<'_>, state: &PyState) -> PyResult<u32> {
        if state.inner.state.current_player() < 0 {
            return Err(illegal("an agent moves only at a seat's decision"));
        }
        let root = state.inner.state.clone();
        let players = state.game.num_players();
        let (search, rng) = (&mut self.search, &mut self.rng);
        py.detach(|| search.choose(&root, players, rng))
            .ok_or_else(|| invalid_state("no legal action"))
    }

    /// The search policy at ``state``: float32 of length ``num_distinct_actions``, each legal action's share
    /// of the root's visits (summing to 1), 0 elsewhere. One search, drawing from the agent's stream exactly
    /// as ``step`` does: ``int(policy(s).argmax())`` is the action ``step(s)`` would have taken instead.
    fn policy<'py>(
        &mut self,
        py: Python<'py>,
        state: &PyState,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        if state.inner.state.current_player() < 0 {
            return Err(illegal("an agent moves only at a seat's decision"));
        }
        let root = state.inner.state.clone();
        let players = state.game.num_players();
        let width = state.game.num_distinct_actions();
        let (search, rng) = (&mut self.search, &mut self.rng);
        let shares = py
            .detach(|| search.policy(&root, players, rng))
            .ok_or_else(|| invalid_state("no legal action"))?;
        if shares.is_empty() {
            return Err(invalid_state("no legal action"));
        }
        let mut out = vec![0f32; width];
        for (action, share) in shares {
            out[action as usize] = share as f32;
        }
        Ok(PyArray1::from_vec(py, out))
    }

    #[getter]
    fn simulations(&self) -> u32 {
        self.search.config.simulations
    }
}
