//! `heuristic_value` for Nidavellir (docs/rules/nidavellir.md §10): the true returns at the end; before it, a
//! softmax over the seats' current Final Bravery Values (`scores()`, public facts only) with a temperature of
//! 12 points, so each seat's share says how far it leads or trails the others; the shares sum to 1.

use super::state::{NidavellirState, Phase};
use crate::outcome::softmax_shares;
use crate::State;

pub const TEMPERATURE: f64 = 12.0;

pub fn heuristic_value(s: &NidavellirState, out: &mut [f64]) {
    if s.phase == Phase::Over {
        s.returns(out);
        return;
    }
    out.iter_mut().for_each(|o| *o = 0.0);
    let n = s.n();
    let values: Vec<f64> = (0..n).map(|q| s.value(q) as f64).collect();
    let m = n.min(out.len());
    softmax_shares(&mut out[..m], &values, TEMPERATURE);
}
