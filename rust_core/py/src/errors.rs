//! The one place where engine errors become Python exceptions. The classes are defined in Python
//! (`meeplex.errors`) so that the oracle raises exactly the same ones.

use meeplex_engine::GameError;
use pyo3::prelude::*;

pyo3::import_exception!(meeplex.errors, IllegalActionError);
pyo3::import_exception!(meeplex.errors, InvalidStateError);
pyo3::import_exception!(meeplex.errors, InvalidNotationError);

pub fn to_py(e: GameError) -> PyErr {
    match e {
        GameError::IllegalAction(m) => IllegalActionError::new_err(m),
        GameError::InvalidState(m) => InvalidStateError::new_err(m),
        GameError::InvalidNotation(m) => InvalidNotationError::new_err(m),
    }
}

pub fn illegal(msg: impl Into<String>) -> PyErr {
    IllegalActionError::new_err(msg.into())
}

pub fn invalid_state(msg: impl Into<String>) -> PyErr {
    InvalidStateError::new_err(msg.into())
}

pub fn invalid_notation(msg: impl Into<String>) -> PyErr {
    InvalidNotationError::new_err(msg.into())
}
