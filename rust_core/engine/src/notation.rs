//! What every game's notation reader and writer share (docs/architecture.md, "Input policy"): readers are
//! relaxed in the same way in every game, so the folding lives here once (the oracle's twin is
//! `python/meeplex/oracle/_text.py`).

use crate::GameError;

/// ASCII lower case, surrounding white space dropped and each inner run of white space folded to one space.
/// White space is Unicode's White_Space property (`char::is_whitespace`).
pub fn fold_white_space(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_ascii_lowercase()
}

/// The error of `action_to_string` for an id outside `0..n`.
pub fn out_of_range(action: u32, n: u32) -> GameError {
    GameError::IllegalAction(format!("action {action} is out of range 0..{n}"))
}
