//! The shared PRNG, exposed so that Python code draws the same numbers as the Rust loops.

use meeplex_engine::Rng;
use pyo3::prelude::*;

/// Reduce any Python int to 64 bits (mod 2**64), as the oracle's `Rng` does.
pub fn seed_from(seed: &Bound<'_, PyAny>) -> PyResult<u64> {
    // A bool is an int to Python but never a seed anyone meant; the oracle refuses it too.
    if !seed.is_instance_of::<pyo3::types::PyInt>() || seed.is_instance_of::<pyo3::types::PyBool>()
    {
        return Err(pyo3::exceptions::PyTypeError::new_err(
            "a seed must be an int",
        ));
    }
    seed.bitand(u64::MAX)?.extract::<u64>()
}

/// A seed given as an optional keyword: 0 when absent.
pub fn optional_seed(seed: Option<&Bound<'_, PyAny>>) -> PyResult<u64> {
    seed.map_or(Ok(0), seed_from)
}

/// SplitMix64, bit for bit the same as ``meeplex.oracle.Rng``.
#[pyclass(name = "Rng", module = "meeplex._core")]
#[derive(Clone)]
pub struct PyRng {
    pub inner: Rng,
}

#[pymethods]
impl PyRng {
    #[new]
    fn new(seed: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PyRng {
            inner: Rng::new(seed_from(seed)?),
        })
    }

    fn next_u64(&mut self) -> u64 {
        self.inner.next_u64()
    }

    /// ``next_u64() % n``; n must be at least 1.
    fn below(&mut self, n: u64) -> PyResult<u64> {
        if n == 0 {
            return Err(pyo3::exceptions::PyValueError::new_err(
                "below(n) needs n >= 1",
            ));
        }
        Ok(self.inner.below(n))
    }

    #[getter]
    fn state(&self) -> u64 {
        self.inner.state()
    }

    fn __repr__(&self) -> String {
        format!("Rng(state={})", self.inner.state())
    }
}
