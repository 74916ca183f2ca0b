//! Turning per-seat scores into `returns()` and `heuristic_value()`: the arithmetic every score-race game
//! shares (DESIGN, "Returns": a shared victory splits 1.0 equally).

/// `returns()` at the end of a game won by the highest score: 1.0 split equally among the seats with the
/// best score, 0.0 elsewhere. `out` beyond the `n` seats is zeroed too.
pub fn share_the_win(out: &mut [f64], n: usize, score: impl Fn(usize) -> i64) {
    out.iter_mut().for_each(|o| *o = 0.0);
    let Some(best) = (0..n).map(&score).max() else {
        return;
    };
    let winners = (0..n).filter(|&s| score(s) == best).count();
    for (s, o) in out.iter_mut().enumerate().take(n) {
        if score(s) == best {
            *o = 1.0 / winners as f64;
        }
    }
}

/// A heuristic share of the win from projected scores: a softmax with `temperature` points, so that a lead
/// of a few points counts for much and a lead of a few tenths for little. `values` holds the n seats.
pub fn softmax_shares(out: &mut [f64], values: &[f64], temperature: f64) {
    let best = values.iter().copied().fold(f64::MIN, f64::max);
    let weights = values.iter().map(|v| ((v - best) / temperature).exp());
    let total: f64 = weights.clone().sum();
    for (o, w) in out.iter_mut().zip(weights) {
        *o = w / total;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tie_splits_the_win() {
        let mut out = [9.0; 4];
        share_the_win(&mut out, 3, |s| [5, 7, 7][s]);
        assert_eq!(out, [0.0, 0.5, 0.5, 0.0]);
    }

    #[test]
    fn softmax_favours_the_leader_and_sums_to_one() {
        let mut out = [0.0; 2];
        softmax_shares(&mut out, &[10.0, 4.0], 3.0);
        assert!(out[0] > 0.8 && (out[0] + out[1] - 1.0).abs() < 1e-12);
    }
}
