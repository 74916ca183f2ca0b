//! Python values to Rust numbers, by one rule for every argument (docs/architecture.md, "Input policy"): an
//! int is anything `operator.index` takes (a Python int, a numpy integer scalar, a 0-d integer array) except
//! a bool. The oracle applies the same rule (its `_as_int`), so the two engines give the same verdicts.
//!
//! Each caller decides which error a refusal is (IllegalActionError for an action, InvalidStateError for a
//! seat or a count, TypeError for a seed): this module only says what the value is.

use crate::errors::invalid_state;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt};

/// What an argument that should be an int turned out to be.
pub enum IntArg<'py> {
    /// An int (the value of `operator.index`), of any size.
    Int(Bound<'py, PyInt>),
    /// Not an int: no `__index__`, or a bool.
    NotInt,
}

/// The int `value` stands for. An exact Python int is taken as is (the hot path costs one type check);
/// anything else goes through `operator.index`, whose TypeError means "not an int". Another exception from a
/// user-defined `__index__` propagates, as it does in the oracle.
pub fn index<'py>(value: &Bound<'py, PyAny>) -> PyResult<IntArg<'py>> {
    if let Ok(int) = value.cast_exact::<PyInt>() {
        return Ok(IntArg::Int(int.clone()));
    }
    if value.is_instance_of::<PyBool>() {
        return Ok(IntArg::NotInt);
    }
    let py = value.py();
    // SAFETY: PyNumber_Index takes a valid object pointer and returns a new reference or NULL with an error
    // set, which is what from_owned_ptr_or_err expects.
    let result =
        unsafe { Bound::from_owned_ptr_or_err(py, pyo3::ffi::PyNumber_Index(value.as_ptr())) };
    match result {
        Ok(int) => Ok(int.cast_into::<PyInt>().map_or(IntArg::NotInt, IntArg::Int)),
        Err(e) if e.is_instance_of::<PyTypeError>(py) => Ok(IntArg::NotInt),
        Err(e) => Err(e),
    }
}

/// Why a value is not an int in the range asked for.
pub enum Refused {
    NotInt,
    OutOfRange,
}

/// `value` as an int in `lo..=hi`.
pub fn int_in(value: &Bound<'_, PyAny>, lo: i64, hi: i64) -> PyResult<Result<i64, Refused>> {
    Ok(match index(value)? {
        IntArg::NotInt => Err(Refused::NotInt),
        IntArg::Int(int) => match int.extract::<i64>() {
            Ok(v) if (lo..=hi).contains(&v) => Ok(v),
            _ => Err(Refused::OutOfRange),
        },
    })
}

/// A value for a message: its str, cut to 40 characters (an int of thousands of digits has none: Python
/// refuses to print it, and then its type stands in).
pub fn short(value: &Bound<'_, PyAny>) -> String {
    match value.str().and_then(|s| s.to_str().map(str::to_owned)) {
        Ok(s) if s.chars().count() > 40 => format!("{}...", s.chars().take(37).collect::<String>()),
        Ok(s) => s,
        Err(_) => format!("<a {} too long to print>", type_name(value)),
    }
}

/// The name of a value's type, for messages.
pub fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".to_string())
}

/// A count or an index (``num_envs``, ``simulations``, ``VectorGame.state(i)``): an int in `lo..=hi`. A value
/// that is not an int is a TypeError (the stub types it ``int``), an int out of range an InvalidStateError.
pub fn count_in(value: &Bound<'_, PyAny>, what: &str, lo: i64, hi: i64) -> PyResult<i64> {
    match int_in(value, lo, hi)? {
        Ok(v) => Ok(v),
        Err(Refused::NotInt) => Err(PyTypeError::new_err(format!(
            "{what} must be an int, not {}",
            type_name(value)
        ))),
        Err(Refused::OutOfRange) => Err(invalid_state(format!(
            "{what} must be in {lo}..={hi}, not {}",
            short(value)
        ))),
    }
}

/// A real number (``uct_c``): an int or anything with ``__float__`` (a float, a numpy float), not a bool. Not
/// a number is a TypeError; an int too large for a float an InvalidStateError (the caller checks the range).
pub fn real(value: &Bound<'_, PyAny>, what: &str) -> PyResult<f64> {
    let not_a_number =
        || PyTypeError::new_err(format!("{what} must be a number, not {}", type_name(value)));
    // A bool, or numpy's bool (whose type is also called "bool"), is not a number here.
    if value.is_instance_of::<PyBool>() || type_name(value) == "bool" {
        return Err(not_a_number());
    }
    if let IntArg::Int(int) = index(value)? {
        return int
            .extract::<f64>()
            .map_err(|_| invalid_state(format!("{what} = {} is out of range", short(value))));
    }
    value.extract::<f64>().map_err(|_| not_a_number())
}

/// An argument kept as the Python object and checked by the function itself (so that a wrong value is the
/// documented error, not pyo3's conversion error), with a literal default for the signature.
pub enum Arg {
    Int(i64),
    Float(f64),
    Given(Py<PyAny>),
}

impl Arg {
    pub fn bind<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(match self {
            Arg::Int(v) => v.into_pyobject(py)?.into_any(),
            Arg::Float(v) => v.into_pyobject(py)?.into_any(),
            Arg::Given(obj) => obj.bind(py).clone(),
        })
    }
}

impl<'a, 'py> FromPyObject<'a, 'py> for Arg {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        Ok(Arg::Given(obj.to_owned().unbind()))
    }
}
