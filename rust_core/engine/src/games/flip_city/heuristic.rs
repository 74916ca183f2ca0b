//! `heuristic_value` for the Flip City family: how close each seat's city is to a winning turn.
//!
//! A seat wins by providing 8 points in one turn (FC §4.5, W §4.6), so a city is measured by what one turn of
//! it is expected to provide. A turn plays the seat's cards in a random order until the unhappiness goes over
//! the limit (a city can be played through once per turn: a shuffle brings the discard pile back), so a card
//! without unhappiness is reached with probability about `(L + 1) / (U + 1)` (U the unhappiness of the whole
//! city, L the limit) and an unhappy one about `L / U`. The expected points of a turn, the points the city's
//! flippable cards could gain when flipped (weighted by how affordable the flip fee is from a turn's expected
//! cash), and a little of that expected cash, make a score that rises with every step a good player takes
//! (points cards, fewer unhappy cards, a stronger economy). The score is read as a fraction of the 8 points.

use super::state::FlipState;

/// Points a winning turn provides (FC §4.5, W §4.6).
const TARGET: f64 = 8.0;
/// What a flippable card's better side counts for when its flip fee is within a turn's expected cash.
const FLIP_WEIGHT: f64 = 0.3;
/// What one coin of a turn's expected cash counts for, in points, up to `CASH_CAP` coins.
const CASH_WEIGHT: f64 = 0.1;
const CASH_CAP: f64 = 10.0;
/// The largest share of the points a city still misses that its promise (flips, cash) may stand for.
const PROMISE_SHARE: f64 = 0.5;
/// The heuristic of a city whose score reaches `TARGET`: a near-certain win, but not yet a win.
const SCALE: f64 = 0.8;

impl<const F: usize, const CAP: usize> FlipState<F, CAP> {
    /// Every card the seat owns (deck, discard pile, and the play area for the seat whose turn it is).
    fn owned(&self, s: usize) -> [u32; F] {
        let seat = &self.seats[s];
        let mut owned = [0u32; F];
        for f in 0..F {
            owned[f] = seat.unknown[f] as u32 + seat.discard[f] as u32;
            if s == self.current {
                owned[f] += self.play_area[f] as u32;
            }
        }
        for f in seat.known.all() {
            if let Some(c) = owned.get_mut(f) {
                *c += 1;
            }
        }
        owned
    }

    /// The seat's progress toward a winning turn, in 0..=1.
    pub(super) fn progress(&self, s: usize) -> f64 {
        let owned = self.owned(s);
        let unhappiness: f64 = (0..F)
            .map(|f| owned[f] as f64 * self.rules.unhappiness(f) as f64)
            .sum();
        let limit = 2.0 + self.seats[s].limit_next.min(4) as f64;
        let reach_happy = ((limit + 1.0) / (unhappiness + 1.0)).min(1.0);
        let reach_unhappy = if unhappiness > 0.0 {
            (limit / unhappiness).min(1.0)
        } else {
            1.0
        };
        let reach = |f: usize| {
            if self.rules.unhappiness(f) > 0 {
                reach_unhappy
            } else {
                reach_happy
            }
        };
        let mut points = 0.0;
        let mut cash = 0.0;
        for f in 0..F {
            let n = owned[f] as f64;
            points += n * self.rules.points(f) as f64 * reach(f);
            cash += n * self.rules.cash(f) as f64 * reach(f);
        }
        let mut potential = 0.0;
        for f in 0..F {
            let other = f ^ 1;
            if owned[f] == 0 || other >= F {
                continue;
            }
            let Some(fee) = self.rules.flip_fee(f) else {
                continue;
            };
            let gain = self.rules.points(other) as f64 * reach(other)
                - self.rules.points(f) as f64 * reach(f);
            if gain > 0.0 {
                let affordable = (cash / fee.max(1) as f64).min(1.0);
                potential += owned[f] as f64 * FLIP_WEIGHT * affordable * gain;
            }
        }
        // Promise counts for less and less as it grows, never for more than half of the points still
        // missing: a city full of unflipped cards is not a winning city, yet each card bought adds a little,
        // and turning promise into points always raises the score.
        let promise = potential + CASH_WEIGHT * cash.min(CASH_CAP);
        let room = PROMISE_SHARE * (TARGET - points).max(0.0);
        let score = if room > 0.0 {
            points + room * (1.0 - (-promise / room).exp())
        } else {
            points
        };
        (score / TARGET).clamp(0.0, 1.0)
    }

    /// Each seat's progress, scaled below a win's return of 1.
    pub(super) fn progress_values(&self, out: &mut [f64]) {
        for (s, o) in out.iter_mut().enumerate().take(self.players()) {
            *o = SCALE * self.progress(s);
        }
    }
}
