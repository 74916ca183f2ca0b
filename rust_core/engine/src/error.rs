//! Errors of the engine. Each maps to one Python exception class in the bindings (one place).

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// An action that is not legal now; the state was not changed.
    IllegalAction(String),
    /// A serialized state or a parameter set that is malformed or inconsistent.
    InvalidState(String),
    /// Text that does not parse.
    InvalidNotation(String),
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::IllegalAction(m)
            | GameError::InvalidState(m)
            | GameError::InvalidNotation(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for GameError {}

pub type Result<T> = std::result::Result<T, GameError>;

pub(crate) fn invalid<T>(msg: impl Into<String>) -> Result<T> {
    Err(GameError::InvalidState(msg.into()))
}
