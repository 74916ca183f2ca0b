//! `VectorGame`: n games stepped by one call per step, the loop in Rust without the GIL.

use crate::errors::{invalid_state, to_py};
use crate::game::PyGame;
use crate::rng::{optional_seed, seed_from};
use crate::state::PyState;
use meeplex_engine::vector::{AutoReset, VectorCore};
use meeplex_engine::Tracked;
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::Arc;

/// n independent games of one kind. Chance is resolved inside (game i uses ``Rng(seed + i)``), so every
/// observation is taken at a decision of the seat to move (or at the end, of the seat that moved last).
///
/// ``step`` returns ``(obs, rewards, terminations, truncations, info)``: ``obs`` float32 (n, *shape),
/// ``rewards`` float32 (n, players) holding each seat's return in the games that ended on this step,
/// ``terminations`` bool (n,), ``truncations`` bool (n,) (always false: every game ends by its own rules), and
/// ``info`` with ``action_mask`` int8 (n, num_distinct_actions) and ``current_player`` int32 (n,).
#[pyclass(name = "VectorGame", module = "meeplex._core")]
pub struct PyVectorGame {
    game: Arc<meeplex_engine::AnyGame>,
    core: VectorCore,
}

impl PyVectorGame {
    fn outputs<'py>(
        &mut self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyArray2<f32>>, Bound<'py, PyDict>)> {
        let n = self.core.len();
        let obs = PyArray2::<f32>::zeros(py, [n, self.game.observation_len()], false);
        let masks = PyArray2::<i8>::zeros(py, [n, self.game.num_distinct_actions()], false);
        let players = PyArray1::<i32>::zeros(py, n, false);
        {
            let mut o = obs.readwrite();
            let mut m = masks.readwrite();
            let mut p = players.readwrite();
            let (o, m, p) = (o.as_slice_mut()?, m.as_slice_mut()?, p.as_slice_mut()?);
            let core = &mut self.core;
            py.detach(|| {
                core.write_observations(o);
                core.write_masks(m);
                core.current_players(p);
            });
        }
        let info = PyDict::new(py);
        info.set_item("action_mask", masks)?;
        info.set_item("current_player", players)?;
        Ok((obs, info))
    }
}

#[pymethods]
impl PyVectorGame {
    #[new]
    #[pyo3(signature = (game, num_envs, seed=None, autoreset_mode="next_step"))]
    fn new(
        game: &PyGame,
        num_envs: &Bound<'_, PyAny>,
        seed: Option<&Bound<'_, PyAny>>,
        autoreset_mode: &str,
    ) -> PyResult<Self> {
        // Any Python int is accepted here and checked below, so a huge one is an InvalidStateError, not an
        // OverflowError from the conversion.
        let num_envs = match num_envs.extract::<i64>() {
            Ok(n)
                if (1..=1 << 20).contains(&n)
                    && !num_envs.is_instance_of::<pyo3::types::PyBool>() =>
            {
                n as usize
            }
            _ => {
                return Err(invalid_state(format!(
                    "num_envs must be an int in 1..={}",
                    1 << 20
                )))
            }
        };
        let mode = match autoreset_mode.to_ascii_lowercase().as_str() {
            "next_step" => AutoReset::NextStep,
            "same_step" => AutoReset::SameStep,
            "disabled" => AutoReset::Disabled,
            other => return Err(invalid_state(format!("unknown autoreset_mode {other:?}"))),
        };
        if num_envs == 0 || num_envs > 1 << 20 {
            return Err(invalid_state(format!(
                "num_envs must be in 1..={}",
                1 << 20
            )));
        }
        let seed = optional_seed(seed)?;
        let g = game.inner.clone();
        Ok(PyVectorGame {
            core: VectorCore::new((*g).clone(), num_envs, seed, mode),
            game: g,
        })
    }

    #[getter]
    fn num_envs(&self) -> usize {
        self.core.len()
    }

    #[getter]
    fn game(&self) -> PyGame {
        PyGame {
            inner: self.game.clone(),
        }
    }

    /// Start every game afresh (game i with ``Rng(seed + i)``); returns ``(obs, info)``.
    #[pyo3(signature = (seed=None))]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<(Bound<'py, PyArray2<f32>>, Bound<'py, PyDict>)> {
        let seed = match seed {
            Some(s) => seed_from(s)?,
            None => self.core.seed_of(0),
        };
        let core = &mut self.core;
        py.detach(|| core.reset(seed));
        self.outputs(py)
    }

    /// One action per game (ignored for a game that is being auto-reset). An illegal action raises
    /// IllegalActionError naming the game, and no game is changed.
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<(
        Bound<'py, PyArray2<f32>>,
        Bound<'py, PyArray2<f32>>,
        Bound<'py, PyArray1<bool>>,
        Bound<'py, PyArray1<bool>>,
        Bound<'py, PyDict>,
    )> {
        let np = py.import("numpy")?;
        let array = np
            .call_method1("asarray", (actions, np.getattr("int64")?))
            .map_err(|_| crate::errors::illegal("actions must be an array of ints"))?;
        let array: PyReadonlyArray1<i64> = array
            .extract()
            .map_err(|_| crate::errors::illegal("actions must be a 1-d array of ints"))?;
        let actions = array
            .as_slice()
            .map_err(|_| crate::errors::illegal("actions must be contiguous"))?;
        self.core.validate(actions).map_err(to_py)?;
        let n = self.core.len();
        let rewards = PyArray2::<f32>::zeros(py, [n, self.game.num_players()], false);
        let terminated = PyArray1::<bool>::zeros(py, n, false);
        let truncated = PyArray1::<bool>::zeros(py, n, false);
        {
            let mut r = rewards.readwrite();
            let mut t = terminated.readwrite();
            let (r, t) = (r.as_slice_mut()?, t.as_slice_mut()?);
            let core = &mut self.core;
            py.detach(|| core.step(actions, r, t));
        }
        let (obs, info) = self.outputs(py)?;
        Ok((obs, rewards, terminated, truncated, info))
    }

    /// A copy of game i as a ``State`` (its history is not kept by the vector).
    fn state(&self, i: usize) -> PyResult<PyState> {
        let s = self
            .core
            .states
            .get(i)
            .ok_or_else(|| invalid_state(format!("no game {i}")))?;
        Ok(PyState::new(self.game.clone(), Tracked::new(s.clone())))
    }
}
