//! `Game`: a registered game with fixed parameters.

use crate::errors::{invalid_state, to_py};
use crate::rng::seed_from;
use crate::state::PyState;
use meeplex_engine::playout::random_playout_recorded;
use meeplex_engine::{AnyGame, ParamValue, Params, Rng, Tracked};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyString, PyTuple};
use std::sync::Arc;

#[pyclass(name = "Game", module = "meeplex._core", frozen)]
pub struct PyGame {
    pub inner: Arc<AnyGame>,
}

fn to_param(key: &str, value: &Bound<'_, PyAny>) -> PyResult<ParamValue> {
    // bool before int: Python's bool is an int subclass, and the engine keeps the two apart.
    if value.is_instance_of::<PyBool>() {
        Ok(ParamValue::Bool(value.extract()?))
    } else if value.is_instance_of::<PyInt>() {
        value
            .extract::<i64>()
            .map(ParamValue::Int)
            .map_err(|_| invalid_state(format!("parameter {key}: {value} is out of range")))
    } else if value.is_instance_of::<PyString>() {
        Ok(ParamValue::Str(value.extract()?))
    } else {
        Err(invalid_state(format!(
            "parameter {key}: {} is not an int, bool or str",
            value.get_type().name()?
        )))
    }
}

pub fn param_to_py<'py>(py: Python<'py>, value: &ParamValue) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        ParamValue::Int(i) => i.into_pyobject(py)?.into_any(),
        ParamValue::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        ParamValue::Str(s) => PyString::new(py, s).into_any(),
    })
}

impl PyGame {
    pub fn game_string(&self) -> String {
        let params: Vec<String> = self
            .inner
            .params()
            .iter()
            .map(|(k, v)| match v {
                ParamValue::Int(i) => format!("{k}={i}"),
                ParamValue::Bool(b) => format!("{k}={b}"),
                ParamValue::Str(s) => format!("{k}={s}"),
            })
            .collect();
        format!("{}({})", self.inner.id(), params.join(","))
    }
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(signature = (name, params=None))]
    fn new(name: &str, params: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let mut given = Params::new();
        if let Some(dict) = params {
            for (key, value) in dict.iter() {
                let key: String = key
                    .extract()
                    .map_err(|_| invalid_state("parameter names must be strings"))?;
                let v = to_param(&key, &value)?;
                given.insert(key, v);
            }
        }
        let game = AnyGame::new(name, &given).map_err(to_py)?;
        Ok(PyGame {
            inner: Arc::new(game),
        })
    }

    #[getter]
    fn name(&self) -> &'static str {
        self.inner.id()
    }

    /// The full, normalised parameters (a fresh dict each call).
    #[getter]
    pub fn params<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (k, v) in self.inner.params() {
            dict.set_item(k, param_to_py(py, v)?)?;
        }
        Ok(dict)
    }

    fn num_players(&self) -> usize {
        self.inner.num_players()
    }
    fn num_distinct_actions(&self) -> usize {
        self.inner.num_distinct_actions()
    }
    fn max_chance_outcomes(&self) -> usize {
        self.inner.max_chance_outcomes()
    }
    fn max_game_length(&self) -> u64 {
        self.inner.max_game_length()
    }
    fn observation_shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.inner.observation_shape())
    }

    fn new_initial_state(&self) -> PyState {
        PyState::new(
            self.inner.clone(),
            Tracked::new(self.inner.new_initial_state()),
        )
    }

    /// Read a state written by ``State.serialize()``; anything malformed or inconsistent raises InvalidStateError.
    pub fn deserialize_state(&self, text: &Bound<'_, PyAny>) -> PyResult<PyState> {
        let text: String = text
            .extract()
            .map_err(|_| invalid_state("a serialized state must be a str"))?;
        let (state, history) = self.inner.deserialize_state(&text).map_err(to_py)?;
        Ok(PyState::new(self.inner.clone(), Tracked { state, history }))
    }

    /// One whole game by the shared PRNG's random steps, run in Rust without the GIL.
    fn play_random(&self, py: Python<'_>, seed: &Bound<'_, PyAny>) -> PyResult<PyState> {
        let seed = seed_from(seed)?;
        let game = self.inner.clone();
        let tracked = py.detach(move || {
            let mut tracked = Tracked::new(game.new_initial_state());
            let mut rng = Rng::new(seed);
            random_playout_recorded(
                &mut tracked.state,
                &mut rng,
                &mut tracked.history,
                game.max_game_length(),
            );
            tracked
        });
        Ok(PyState::new(self.inner.clone(), tracked))
    }

    fn __str__(&self) -> String {
        self.game_string()
    }

    /// Pickling (multiprocessing, OpenSpiel's Python games): rebuilt from the id and the parameters.
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (&'static str, Bound<'py, PyDict>))> {
        let this = slf.get();
        Ok((
            slf.get_type().into_any(),
            (this.inner.id(), this.params(slf.py())?),
        ))
    }

    fn __repr__(&self) -> String {
        format!("meeplex.make({:?})", self.game_string())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<PyGame>() {
            Ok(o) => o.get().game_string() == self.game_string(),
            Err(_) => false,
        }
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.game_string().hash(&mut h);
        h.finish()
    }
}
