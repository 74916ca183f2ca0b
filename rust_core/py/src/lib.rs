//! `meeplex._core`: the pyo3 bindings of meeplex-engine. Only translation lives here: Python values in,
//! engine calls, Python values out, and engine errors mapped to Python classes in one place (`errors`).

mod agents;
mod convert;
mod errors;
mod game;
mod rng;
mod state;
mod vector;

use pyo3::prelude::*;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<game::PyGame>()?;
    m.add_class::<state::PyState>()?;
    m.add_class::<rng::PyRng>()?;
    m.add_class::<vector::PyVectorGame>()?;
    m.add_class::<agents::PyRandomAgent>()?;
    m.add_class::<agents::PyMctsAgent>()?;
    m.add_function(wrap_pyfunction!(game_ids, m)?)?;
    m.add_function(wrap_pyfunction!(_restore_state, m)?)?;
    Ok(())
}

/// The ids of the registered games, sorted.
#[pyfunction]
fn game_ids() -> Vec<&'static str> {
    let mut ids = meeplex_engine::registry::GAME_IDS.to_vec();
    ids.sort_unstable();
    ids
}

/// The inverse of ``State.__reduce__``.
#[pyfunction]
fn _restore_state(game: &game::PyGame, text: &Bound<'_, PyAny>) -> PyResult<state::PyState> {
    game.deserialize_state(text)
}
