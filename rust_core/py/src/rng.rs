//! The shared PRNG, exposed so that Python code draws the same numbers as the Rust loops.

use crate::convert::{index, short, type_name, IntArg};
use meeplex_engine::Rng;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyInt;

/// Reduce any int (docs/architecture.md, "Input policy": a numpy integer too, not a bool) to 64 bits (mod
/// 2**64), as the oracle's `Rng` does. Anything else is a TypeError, in both engines.
pub fn seed_from(seed: &Bound<'_, PyAny>) -> PyResult<u64> {
    if seed.is_exact_instance_of::<PyInt>() {
        if let Ok(v) = seed.extract::<u64>() {
            return Ok(v);
        }
    }
    match index(seed)? {
        IntArg::Int(int) => int.bitand(u64::MAX)?.extract::<u64>(),
        IntArg::NotInt => Err(PyTypeError::new_err(format!(
            "a seed must be an int, not {}",
            type_name(seed)
        ))),
    }
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

    /// ``next_u64() % n`` for any int n >= 1 (a bound of 2**64 or more gives next_u64() itself); n < 1 is a
    /// ValueError and a value that is not an int a TypeError, as in the oracle.
    fn below(&mut self, n: &Bound<'_, PyAny>) -> PyResult<u64> {
        if n.is_exact_instance_of::<PyInt>() {
            if let Ok(n @ 1..) = n.extract::<u64>() {
                return Ok(self.inner.below(n));
            }
        }
        let int = match index(n)? {
            IntArg::Int(int) => int,
            IntArg::NotInt => {
                return Err(PyTypeError::new_err(format!(
                    "below(n) needs an int n, not {}",
                    type_name(n)
                )))
            }
        };
        match int.extract::<u64>() {
            Ok(0) => Err(PyValueError::new_err("below(n) needs n >= 1, got 0")),
            Ok(n) => Ok(self.inner.below(n)),
            // Beyond u64: every draw is below n.
            Err(_) if int.gt(0)? => Ok(self.inner.next_u64()),
            Err(_) => Err(PyValueError::new_err(format!(
                "below(n) needs n >= 1, got {}",
                short(&int)
            ))),
        }
    }

    #[getter]
    fn state(&self) -> u64 {
        self.inner.state()
    }

    fn __repr__(&self) -> String {
        format!("Rng(state={})", self.inner.state())
    }
}
