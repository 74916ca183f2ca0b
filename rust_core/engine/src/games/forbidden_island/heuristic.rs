//! `heuristic_value` for Forbidden Island: one estimate of the team's chance to win, the same for every seat.

use super::state::ForbiddenIslandState;

/// A value in 0..1 (a win is 1, a loss 0).
pub fn value(s: &ForbiddenIslandState) -> f64 {
    let captured = s.captured.count_ones() as f64;
    (0.1 + 0.2 * captured - 0.02 * s.level as f64).clamp(0.01, 0.99)
}
