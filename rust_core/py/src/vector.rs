//! `VectorGame`: n games stepped by one call per step, the loop in Rust without the GIL.

use crate::convert::{count_in, index, type_name, IntArg};
use crate::errors::{illegal, invalid_state, to_py};
use crate::game::PyGame;
use crate::rng::{optional_seed, seed_from};
use crate::state::PyState;
use meeplex_engine::vector::{AutoReset, ObsElem, ObserveOutputs, StepOutputs, VectorCore};
use numpy::{
    PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadwriteArray1, PyReadwriteArray2,
    PyUntypedArrayMethods,
};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use std::sync::Arc;

/// The most games one vector holds.
const MAX_ENVS: usize = 1 << 20;
/// The most threads one vector may ask for (more than any machine has cores for; a typo, not a setting).
const MAX_THREADS: usize = 1024;

/// n independent games of one kind. Chance is resolved inside (game i uses ``Rng(seed + i)``), so every
/// observation is taken at a decision of the seat to move (or at the end, of the seat that moved last).
///
/// ``step`` returns ``(obs, rewards, terminations, truncations, info)``: ``obs`` float32 (n, *shape),
/// ``rewards`` float32 (n, players) holding each seat's return in the games that ended on this step,
/// ``terminations`` bool (n,), ``truncations`` bool (n,) (always false: every game ends by its own rules), and
/// ``info`` with ``action_mask`` int8 (n, num_distinct_actions) and ``current_player`` int32 (n,).
///
/// ``copy`` follows Gymnasium's vector environments (``SyncVectorEnv(copy=...)``): with ``copy=True`` (the
/// default) every ``step`` and ``reset`` returns new arrays. With ``copy=False`` they return arrays owned by
/// the VectorGame, the same objects on every call, which the next ``step`` or ``reset`` overwrites in place
/// (all of them: observations, rewards, terminations, truncations, ``action_mask`` and ``current_player``);
/// copy what must be kept. That saves allocating and clearing the outputs on every step. The owned arrays
/// must stay writeable and must not be in use by another thread during a call (else InvalidStateError).
/// The GIL is released while the games are stepped and the outputs written.
///
/// ``observation_dtype`` is ``"float32"`` (the default) or ``"uint8"`` (a string or a numpy dtype): with uint8
/// the observations are the same values as uint8, a quarter of the bytes to write. Only a game whose every
/// observation value is an integer in 0..255 in every reachable state allows it (``Game::observation_fits_u8``
/// in the core; the Flip City family with its default cards and 1-2 seats); asking another raises
/// InvalidStateError.
///
/// ``threads`` (default 1) steps the games on that many threads: the caller's and ``threads - 1`` of the
/// VectorGame's own, each taking runs of consecutive games in turn (at most one thread per game). Every game draws its chance from its own
/// ``Rng(seed + i)``, so the outputs are the same whatever the number of threads.
#[pyclass(name = "VectorGame", module = "meeplex._core")]
pub struct PyVectorGame {
    game: Arc<meeplex_engine::AnyGame>,
    core: VectorCore,
    /// The arrays `step` and `reset` write into with `copy=False`.
    owned: Option<Outputs>,
    /// Observations as uint8 rather than float32.
    compact: bool,
}

/// The observation array of one call, of the VectorGame's dtype.
enum ObsArray {
    F32(Py<PyArray2<f32>>),
    U8(Py<PyArray2<u8>>),
}

impl ObsArray {
    fn clone_ref(&self, py: Python<'_>) -> ObsArray {
        match self {
            ObsArray::F32(a) => ObsArray::F32(a.clone_ref(py)),
            ObsArray::U8(a) => ObsArray::U8(a.clone_ref(py)),
        }
    }

    fn into_any(self, py: Python<'_>) -> Bound<'_, PyAny> {
        match self {
            ObsArray::F32(a) => a.into_bound(py).into_any(),
            ObsArray::U8(a) => a.into_bound(py).into_any(),
        }
    }
}

/// The output arrays of one call.
struct Outputs {
    obs: ObsArray,
    masks: Py<PyArray2<i8>>,
    players: Py<PyArray1<i32>>,
    rewards: Py<PyArray2<f32>>,
    terminated: Py<PyArray1<bool>>,
    truncated: Py<PyArray1<bool>>,
}

impl Outputs {
    fn new(py: Python<'_>, game: &meeplex_engine::AnyGame, n: usize, compact: bool) -> Outputs {
        let shape = [n, game.observation_len()];
        Outputs {
            obs: if compact {
                ObsArray::U8(PyArray2::zeros(py, shape, false).unbind())
            } else {
                ObsArray::F32(PyArray2::zeros(py, shape, false).unbind())
            },
            masks: PyArray2::zeros(py, [n, game.num_distinct_actions()], false).unbind(),
            players: PyArray1::zeros(py, n, false).unbind(),
            rewards: PyArray2::zeros(py, [n, game.num_players()], false).unbind(),
            terminated: PyArray1::zeros(py, n, false).unbind(),
            truncated: PyArray1::zeros(py, n, false).unbind(),
        }
    }
}

fn busy(_: numpy::BorrowError) -> PyErr {
    invalid_state("a VectorGame output array (copy=False) is read-only or in use elsewhere")
}

impl PyVectorGame {
    /// The arrays this call writes: fresh ones, or with `copy=False` the VectorGame's own.
    fn arrays(&self, py: Python<'_>) -> Outputs {
        match &self.owned {
            Some(o) => Outputs {
                obs: o.obs.clone_ref(py),
                masks: o.masks.clone_ref(py),
                players: o.players.clone_ref(py),
                rewards: o.rewards.clone_ref(py),
                terminated: o.terminated.clone_ref(py),
                truncated: o.truncated.clone_ref(py),
            },
            None => Outputs::new(py, &self.game, self.core.len(), self.compact),
        }
    }

    fn info<'py>(py: Python<'py>, out: &Outputs) -> PyResult<Bound<'py, PyDict>> {
        let info = PyDict::new(py);
        info.set_item("action_mask", out.masks.bind(py))?;
        info.set_item("current_player", out.players.bind(py))?;
        Ok(info)
    }

    /// Observations, masks and seats to move of the games as they are, written without the GIL.
    fn observe<'py>(
        &mut self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyDict>)> {
        let out = self.arrays(py);
        match &out.obs {
            ObsArray::F32(obs) => self.observe_into(py, obs.bind(py), &out)?,
            ObsArray::U8(obs) => self.observe_into(py, obs.bind(py), &out)?,
        }
        let info = Self::info(py, &out)?;
        Ok((out.obs.into_any(py), info))
    }

    /// The arrays both `step` and `observe` write, borrowed for writing (InvalidStateError if in use).
    #[allow(clippy::type_complexity)]
    fn borrow_rows<'py, T: numpy::Element>(
        py: Python<'py>,
        obs: &Bound<'py, PyArray2<T>>,
        out: &Outputs,
    ) -> PyResult<(
        PyReadwriteArray2<'py, T>,
        PyReadwriteArray2<'py, i8>,
        PyReadwriteArray1<'py, i32>,
    )> {
        Ok((
            obs.try_readwrite().map_err(busy)?,
            out.masks.bind(py).try_readwrite().map_err(busy)?,
            out.players.bind(py).try_readwrite().map_err(busy)?,
        ))
    }

    fn observe_into<T: ObsElem + numpy::Element>(
        &mut self,
        py: Python<'_>,
        obs: &Bound<'_, PyArray2<T>>,
        out: &Outputs,
    ) -> PyResult<()> {
        let (mut o, mut m, mut p) = Self::borrow_rows(py, obs, out)?;
        let out = ObserveOutputs {
            observations: o.as_slice_mut()?,
            masks: m.as_slice_mut()?,
            players: p.as_slice_mut()?,
        };
        let core = &mut self.core;
        py.detach(|| core.observe(out));
        Ok(())
    }

    /// Validation, the step and every output in one call without the GIL; a refused batch changes neither the
    /// games nor the arrays.
    fn step_into<T: ObsElem + numpy::Element>(
        &mut self,
        py: Python<'_>,
        actions: &[i64],
        obs: &Bound<'_, PyArray2<T>>,
        out: &Outputs,
    ) -> PyResult<()> {
        let (mut o, mut m, mut p) = Self::borrow_rows(py, obs, out)?;
        let mut r = out.rewards.bind(py).try_readwrite().map_err(busy)?;
        let mut t = out.terminated.bind(py).try_readwrite().map_err(busy)?;
        let mut u = out.truncated.bind(py).try_readwrite().map_err(busy)?;
        let truncated = u.as_slice_mut()?;
        let step = StepOutputs {
            observations: o.as_slice_mut()?,
            masks: m.as_slice_mut()?,
            players: p.as_slice_mut()?,
            rewards: r.as_slice_mut()?,
            terminated: t.as_slice_mut()?,
        };
        let core = &mut self.core;
        py.detach(|| {
            core.try_step(actions, step)?;
            truncated.fill(false);
            Ok(())
        })
        .map_err(to_py)
    }
}

#[pymethods]
impl PyVectorGame {
    #[new]
    #[pyo3(signature = (game, num_envs, seed=None, autoreset_mode="next_step", *, copy=true, observation_dtype=None, threads=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        game: &PyGame,
        num_envs: &Bound<'_, PyAny>,
        seed: Option<&Bound<'_, PyAny>>,
        autoreset_mode: &str,
        copy: bool,
        observation_dtype: Option<&Bound<'_, PyAny>>,
        threads: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let num_envs = count_in(num_envs, "num_envs", 1, MAX_ENVS as i64)? as usize;
        let threads = match threads {
            None => 1,
            Some(t) => count_in(t, "threads", 1, MAX_THREADS as i64)? as usize,
        };
        let mode = match autoreset_mode.to_ascii_lowercase().as_str() {
            "next_step" => AutoReset::NextStep,
            "same_step" => AutoReset::SameStep,
            "disabled" => AutoReset::Disabled,
            other => return Err(invalid_state(format!("unknown autoreset_mode {other:?}"))),
        };
        let seed = optional_seed(seed)?;
        let g = game.inner.clone();
        let compact = match observation_dtype {
            None => false,
            Some(dtype) => compact_dtype(py, dtype)?,
        };
        if compact && !g.observation_fits_u8() {
            return Err(invalid_state(format!(
                "observation_dtype uint8 is not exact for {} with these parameters (its observation may hold \
                 values outside the integers 0..255); use float32",
                g.id()
            )));
        }
        let owned = (!copy).then(|| Outputs::new(py, &g, num_envs, compact));
        let core = VectorCore::with_threads((*g).clone(), num_envs, seed, mode, threads);
        Ok(PyVectorGame {
            core,
            game: g,
            owned,
            compact,
        })
    }

    #[getter]
    fn num_envs(&self) -> usize {
        self.core.len()
    }

    /// How many threads step the games (``threads``, at most one per game).
    #[getter]
    fn threads(&self) -> usize {
        self.core.threads()
    }

    /// False when ``step`` and ``reset`` return the VectorGame's own arrays, overwritten by the next call.
    #[getter]
    fn copy(&self) -> bool {
        self.owned.is_none()
    }

    /// The dtype of the observations, ``numpy.float32`` or ``numpy.uint8``.
    #[getter]
    fn observation_dtype<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let name = if self.compact { "uint8" } else { "float32" };
        py.import("numpy")?.call_method1("dtype", (name,))
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
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyDict>)> {
        let seed = match seed {
            Some(s) => seed_from(s)?,
            None => self.core.seed_of(0),
        };
        let core = &mut self.core;
        py.detach(|| core.reset(seed));
        self.observe(py)
    }

    /// One action per game (ignored for a game that is being auto-reset): a 1-d array of an integer dtype, or a
    /// list or tuple of ints. Another dtype, a non-int element or an illegal action raises IllegalActionError
    /// naming the game, and no game is changed.
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<(
        Bound<'py, PyAny>,
        Bound<'py, PyArray2<f32>>,
        Bound<'py, PyArray1<bool>>,
        Bound<'py, PyArray1<bool>>,
        Bound<'py, PyDict>,
    )> {
        let owned;
        let vec_holder;
        let actions: &[i64] = match actions.cast::<PyArray1<i64>>() {
            // The hot path: a contiguous int64 array, read in place.
            Ok(array) if array.is_c_contiguous() => {
                owned = array
                    .try_readonly()
                    .map_err(|_| illegal("actions are being written elsewhere"))?;
                owned
                    .as_slice()
                    .map_err(|_| illegal("actions must be contiguous"))?
            }
            _ => {
                vec_holder = actions_from(py, actions)?;
                &vec_holder
            }
        };
        let out = self.arrays(py);
        match &out.obs {
            ObsArray::F32(obs) => self.step_into(py, actions, obs.bind(py), &out)?,
            ObsArray::U8(obs) => self.step_into(py, actions, obs.bind(py), &out)?,
        }
        let info = Self::info(py, &out)?;
        Ok((
            out.obs.into_any(py),
            out.rewards.into_bound(py),
            out.terminated.into_bound(py),
            out.truncated.into_bound(py),
            info,
        ))
    }

    /// A copy of game i as a ``State``, with its history since its last reset (chance outcomes included).
    fn state(&self, i: &Bound<'_, PyAny>) -> PyResult<PyState> {
        let i = count_in(i, "the game index", 0, self.core.len() as i64 - 1)? as usize;
        let s = self
            .core
            .state(i)
            .ok_or_else(|| invalid_state(format!("no game {i}")))?;
        Ok(PyState::new(self.game.clone(), s))
    }
}

/// Whether `observation_dtype` asks for uint8 observations: ``"float32"``/``"uint8"`` (any case) or anything
/// ``numpy.dtype`` reads as one of them (``numpy.uint8``, ``numpy.dtype("float32")``, ...). Any other dtype or
/// value is an InvalidStateError.
fn compact_dtype(py: Python<'_>, dtype: &Bound<'_, PyAny>) -> PyResult<bool> {
    let refuse = || {
        invalid_state(format!(
            "observation_dtype must be \"float32\" or \"uint8\", not {}",
            dtype
                .repr()
                .map_or_else(|_| "?".to_string(), |r| r.to_string())
        ))
    };
    if let Ok(text) = dtype.extract::<String>() {
        match text.to_ascii_lowercase().as_str() {
            "float32" => return Ok(false),
            "uint8" => return Ok(true),
            _ => {}
        }
    }
    let parsed = py
        .import("numpy")?
        .call_method1("dtype", (dtype,))
        .map_err(|_| refuse())?;
    match parsed.getattr("name")?.extract::<String>()?.as_str() {
        "float32" => Ok(false),
        "uint8" => Ok(true),
        _ => Err(refuse()),
    }
}

/// The actions of one step from anything but a contiguous int64 array (docs/architecture.md, "Input policy"):
/// a list or tuple of ints (each read as an action, so a bool, a float or a str is refused), or a 1-d numpy
/// array (or array-like) of an integer dtype, cast to int64. Anything else is an IllegalActionError: a float
/// policy output is never silently truncated to an action.
fn actions_from(py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<Vec<i64>> {
    if actions.is_instance_of::<PyList>() || actions.is_instance_of::<PyTuple>() {
        let mut out = Vec::with_capacity(actions.len()?);
        for (i, item) in actions.try_iter()?.enumerate() {
            let item = item?;
            out.push(match index(&item)? {
                // Beyond i64 cannot be legal: saturated, it is refused with the other out-of-range ids (or
                // ignored, as any action is, by a game being auto-reset).
                IntArg::Int(int) => match int.extract::<i64>() {
                    Ok(a) => a,
                    Err(_) if int.gt(0)? => i64::MAX,
                    Err(_) => i64::MIN,
                },
                IntArg::NotInt => {
                    return Err(illegal(format!(
                        "actions[{i}] is not an int but {}",
                        type_name(&item)
                    )))
                }
            });
        }
        return Ok(out);
    }
    let np = py.import("numpy")?;
    let array = np
        .call_method1("asarray", (actions,))
        .map_err(|_| illegal("actions must be a 1-d array of ints"))?;
    let dtype = array.getattr("dtype")?;
    let kind: String = dtype.getattr("kind")?.extract()?;
    let ndim: usize = array.getattr("ndim")?.extract()?;
    if ndim != 1 || (kind != "i" && kind != "u") {
        return Err(illegal(format!(
            "actions must be a 1-d array of ints, not a {ndim}-d array of {dtype}"
        )));
    }
    if let Ok(big) = array.cast::<PyArray1<u64>>() {
        // uint64 ids beyond i64 would wrap negative in a cast: saturate them (out of range all the same).
        let big = big
            .try_readonly()
            .map_err(|_| illegal("actions are being written elsewhere"))?;
        return Ok(big
            .as_array()
            .iter()
            .map(|&a| i64::try_from(a).unwrap_or(i64::MAX))
            .collect());
    }
    let cast = np.call_method1("ascontiguousarray", (array, np.getattr("int64")?))?;
    let cast: PyReadonlyArray1<i64> = cast.extract()?;
    Ok(cast.as_slice()?.to_vec())
}
