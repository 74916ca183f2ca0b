//! `State`: a position with its history. Every method checks its input before the engine sees it, so that
//! nothing from Python can reach an engine precondition.

use crate::convert::{index, int_in, short, type_name, IntArg, Refused};
use crate::errors::{illegal, invalid_state, to_py};
use crate::game::PyGame;
use crate::rng::PyRng;
use meeplex_engine::playout::{random_playout_recorded, random_step, Scratch};
use meeplex_engine::{AnyGame, AnyState, State, Tracked, CHANCE};
use numpy::{PyArray1, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyList};
use std::cell::RefCell;
use std::sync::Arc;

// The read methods take `&self` so that threads reading one shared state never collide on pyo3's borrow flag
// (a `&mut self` reader fails with "Already borrowed" when another thread holds a shared borrow across a GIL
// switch). Their scratch buffers are per thread instead of per state.
thread_local! {
    static ACTIONS: RefCell<Vec<u32>> = const { RefCell::new(Vec::new()) };
    static WEIGHTS: RefCell<Vec<(u32, u64)>> = const { RefCell::new(Vec::new()) };
}

/// `f` with this thread's buffer, or a fresh one if this thread is already inside (a finaliser re-entering).
fn with_buffer<T: 'static, R>(
    key: &'static std::thread::LocalKey<RefCell<Vec<T>>>,
    f: impl FnOnce(&mut Vec<T>) -> R,
) -> R {
    key.with(|cell| match cell.try_borrow_mut() {
        Ok(mut buffer) => f(&mut buffer),
        Err(_) => f(&mut Vec::new()),
    })
}

#[pyclass(name = "State", module = "meeplex._core")]
pub struct PyState {
    pub(crate) game: Arc<AnyGame>,
    pub(crate) inner: Tracked<AnyState>,
    scratch: Scratch,
}

impl PyState {
    pub fn new(game: Arc<AnyGame>, inner: Tracked<AnyState>) -> Self {
        PyState {
            game,
            inner,
            scratch: Scratch::default(),
        }
    }

    fn state(&self) -> &AnyState {
        &self.inner.state
    }

    /// An action id from any Python object: an int (docs/architecture.md, "Input policy") in range.
    fn action_from(&self, action: &Bound<'_, PyAny>) -> PyResult<u32> {
        // The hot path: an exact int that fits.
        if action.is_exact_instance_of::<PyInt>() {
            if let Ok(a) = action.extract::<u32>() {
                return Ok(a);
            }
        }
        match index(action)? {
            IntArg::NotInt => Err(illegal(format!(
                "an action is an int, not {}",
                type_name(action)
            ))),
            IntArg::Int(int) => int
                .extract::<u32>()
                .map_err(|_| illegal(format!("action {} is out of range", short(&int)))),
        }
    }

    /// A seat from any Python object: an int in 0..num_players.
    fn seat_from(&self, player: &Bound<'_, PyAny>) -> PyResult<usize> {
        let n = self.game.num_players();
        match int_in(player, 0, n as i64 - 1)? {
            Ok(p) => Ok(p as usize),
            Err(Refused::NotInt) => Err(invalid_state(format!(
                "a seat is an int in 0..{n}, not {}",
                type_name(player)
            ))),
            Err(Refused::OutOfRange) => Err(invalid_state(format!(
                "seat {} out of range 0..{n}",
                short(player)
            ))),
        }
    }

    fn mask_len(&self) -> usize {
        if self.state().current_player() == CHANCE {
            self.game.max_chance_outcomes()
        } else {
            self.game.num_distinct_actions()
        }
    }

    fn fill_mask(&self, out: &mut [i8]) {
        out.iter_mut().for_each(|x| *x = 0);
        with_buffer(&ACTIONS, |actions| {
            self.state().legal_actions(actions);
            for &a in actions.iter() {
                if let Some(slot) = out.get_mut(a as usize) {
                    *slot = 1;
                }
            }
        });
    }
}

fn check_len(got: usize, want: usize) -> PyResult<()> {
    if got == want {
        Ok(())
    } else {
        Err(invalid_state(format!(
            "out must have length {want}, not {got}"
        )))
    }
}

#[pymethods]
impl PyState {
    fn current_player(&self) -> i32 {
        self.state().current_player()
    }
    fn is_terminal(&self) -> bool {
        self.state().is_terminal()
    }
    fn is_chance_node(&self) -> bool {
        self.state().is_chance_node()
    }

    /// The legal actions, sorted; at a chance node, the possible outcomes.
    fn legal_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        with_buffer(&ACTIONS, |actions| {
            self.state().legal_actions(actions);
            PyList::new(py, actions.iter())
        })
    }

    /// int8 mask of length num_distinct_actions (max_chance_outcomes at a chance node), or written into `out`.
    #[pyo3(signature = (out=None))]
    fn legal_actions_mask<'py>(
        &self,
        py: Python<'py>,
        out: Option<Bound<'py, PyArray1<i8>>>,
    ) -> PyResult<Bound<'py, PyArray1<i8>>> {
        let n = self.mask_len();
        match out {
            Some(array) => {
                check_len(array.len(), n)?;
                {
                    let mut rw = array
                        .try_readwrite()
                        .map_err(|_| invalid_state("out is not writable"))?;
                    let slice = rw
                        .as_slice_mut()
                        .map_err(|_| invalid_state("out must be contiguous"))?;
                    self.fill_mask(slice);
                }
                Ok(array)
            }
            None => {
                let mut mask = vec![0i8; n];
                self.fill_mask(&mut mask);
                Ok(PyArray1::from_vec(py, mask))
            }
        }
    }

    /// ``[(outcome, probability)]`` at a chance node, empty elsewhere.
    fn chance_outcomes(&self) -> Vec<(u32, f64)> {
        with_buffer(&WEIGHTS, |weights| {
            self.state().chance_weights(weights);
            let total: u64 = weights.iter().map(|&(_, w)| w).sum();
            weights
                .iter()
                .map(|&(a, w)| (a, w as f64 / total as f64))
                .collect()
        })
    }

    /// ``[(outcome, weight)]`` with exact integer weights: probability = weight / sum of weights.
    fn chance_weights(&self) -> Vec<(u32, u64)> {
        with_buffer(&WEIGHTS, |weights| {
            self.state().chance_weights(weights);
            weights.clone()
        })
    }

    /// Apply an action; an illegal one raises IllegalActionError and changes nothing.
    fn apply_action(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let a = self.action_from(action)?;
        self.inner.apply_action(a).map_err(to_py)
    }

    /// DESIGN's random step with `rng`, applied: at a chance node the weighted draw over the chance weights,
    /// at a decision `legal_actions()[rng.below(len)]`. Returns the action; at the end of the game it raises
    /// IllegalActionError and draws nothing.
    fn random_step(&mut self, rng: &mut PyRng) -> PyResult<u32> {
        let inner = &mut self.inner;
        match random_step(&mut inner.state, &mut rng.inner, &mut self.scratch) {
            Some(action) => {
                inner.history.push(action);
                Ok(action)
            }
            None => Err(illegal("random_step on a terminal state")),
        }
    }

    fn action_to_string(&self, action: &Bound<'_, PyAny>) -> PyResult<String> {
        let a = self.action_from(action)?;
        self.state().action_to_string(a).map_err(to_py)
    }

    fn string_to_action(&self, text: &Bound<'_, PyAny>) -> PyResult<u32> {
        let text: String = text
            .extract()
            .map_err(|_| crate::errors::invalid_notation("notation must be a str"))?;
        self.state().string_to_action(&text).map_err(to_py)
    }

    fn returns(&self) -> Vec<f64> {
        let mut out = vec![0.0; self.game.num_players()];
        self.state().returns(&mut out);
        out
    }

    fn scores(&self) -> Vec<f64> {
        let mut out = vec![0.0; self.game.num_players()];
        self.state().scores(&mut out);
        out
    }

    fn history(&self) -> Vec<u32> {
        self.inner.history.clone()
    }

    fn clone(&self) -> PyState {
        PyState::new(self.game.clone(), self.inner.clone())
    }

    fn __copy__(&self) -> PyState {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyState {
        self.clone()
    }

    fn serialize(&self) -> String {
        self.state().serialize(&self.inner.history)
    }

    /// float32 of observation_shape(): what `player` sees now; written into `out` when given.
    #[pyo3(signature = (player, out=None))]
    fn observation_tensor<'py>(
        &self,
        py: Python<'py>,
        player: &Bound<'_, PyAny>,
        out: Option<Bound<'py, PyArray1<f32>>>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let p = self.seat_from(player)?;
        let n = self.game.observation_len();
        match out {
            Some(array) => {
                check_len(array.len(), n)?;
                {
                    let mut rw = array
                        .try_readwrite()
                        .map_err(|_| invalid_state("out is not writable"))?;
                    let slice = rw
                        .as_slice_mut()
                        .map_err(|_| invalid_state("out must be contiguous"))?;
                    self.state().observation_tensor(p, slice);
                }
                Ok(array)
            }
            None => {
                let mut v = vec![0f32; n];
                self.state().observation_tensor(p, &mut v);
                Ok(PyArray1::from_vec(py, v))
            }
        }
    }

    fn observation_string(&self, player: &Bound<'_, PyAny>) -> PyResult<String> {
        let p = self.seat_from(player)?;
        Ok(self.state().observation_string(p))
    }

    fn information_state_string(&self, player: &Bound<'_, PyAny>) -> PyResult<String> {
        let p = self.seat_from(player)?;
        Ok(self
            .state()
            .information_state_string(p, &self.inner.history))
    }

    /// A full state consistent with what `player` knows (a clone for games without private facts).
    fn resample_from_infostate(
        &self,
        player: &Bound<'_, PyAny>,
        rng: &mut PyRng,
    ) -> PyResult<PyState> {
        let p = self.seat_from(player)?;
        let (state, history) =
            self.state()
                .resample_with_history(p, &self.inner.history, &mut rng.inner);
        Ok(PyState::new(self.game.clone(), Tracked { state, history }))
    }

    /// Play to the end in place with the shared PRNG's random steps (in Rust, without the GIL).
    fn rollout(&mut self, py: Python<'_>, rng: &mut PyRng) {
        let limit = self.game.max_game_length();
        let inner = &mut self.inner;
        let rng = &mut rng.inner;
        py.detach(|| {
            let remaining = limit.saturating_sub(inner.history.len() as u64);
            random_playout_recorded(&mut inner.state, rng, &mut inner.history, remaining)
        });
    }

    fn __str__(&self) -> String {
        self.state().to_text()
    }

    /// Pickling: the game and the canonical serialization (history included).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (PyGame, String))> {
        let restore = py.import("meeplex._core")?.getattr("_restore_state")?;
        Ok((
            restore,
            (
                PyGame {
                    inner: self.game.clone(),
                },
                self.serialize(),
            ),
        ))
    }

    fn __repr__(&self) -> String {
        format!(
            "<meeplex State of {} after {} actions>",
            self.game.id(),
            self.inner.history.len()
        )
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<PyState>() {
            Ok(o) => {
                let o = o.borrow();
                o.inner.state == self.inner.state && o.inner.history == self.inner.history
            }
            Err(_) => false,
        }
    }
}
