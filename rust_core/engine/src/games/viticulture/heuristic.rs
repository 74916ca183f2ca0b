//! `heuristic_value` for Viticulture (docs/rules/viticulture.md §16): the true returns at the end; before it,
//! a softmax over each seat's victory points plus what its table is worth towards more, with a temperature of
//! 3 points, so the shares say how far each seat leads or trails; they sum to 1.
//!
//! Random play rarely reaches 20 points, so without this a search would see only the year limit's draws. The
//! weights are rough exchange rates of the game, not tuned: 4 lira buy about a point (a tour gives 2 lira,
//! selling a grape 1-3, a 1-point order needs a wine of 2-4); a point of residual pays a lira every year left;
//! wine and grapes are halfway to an order; a structure or a trained worker makes every later year better.

use super::state::{Phase, VitState};
use crate::outcome::softmax_shares;

pub const TEMPERATURE: f64 = 3.0;

/// What a seat's table is worth in victory points, its points included (public facts only).
pub fn worth(s: &VitState, q: usize) -> f64 {
    let seat = &s.seats[q];
    let wine: u32 = seat.cellar.iter().map(|&bits| token_values(bits)).sum();
    let grapes: u32 = seat.crush.iter().map(|&bits| token_values(bits)).sum();
    seat.vp as f64
        + seat.lira as f64 / 4.0
        + seat.residual as f64 * 0.5
        + wine as f64 / 6.0
        + grapes as f64 / 12.0
        + seat.structures.count_ones() as f64 * 0.5
        + (seat.regular + seat.trained) as f64 * 0.5
}

/// The sum of the values of the tokens of one colour (bit v-1 set: a token of value v).
fn token_values(bits: u16) -> u32 {
    (0..9).filter(|v| bits & (1 << v) != 0).map(|v| v + 1).sum()
}

pub fn heuristic_value(s: &VitState, out: &mut [f64]) {
    if s.phase == Phase::Over {
        s.returns(out);
        return;
    }
    out.iter_mut().for_each(|o| *o = 0.0);
    let n = s.n();
    let values: Vec<f64> = (0..n).map(|q| worth(s, q)).collect();
    let m = n.min(out.len());
    softmax_shares(&mut out[..m], &values[..m], TEMPERATURE);
}
