//! Random steps and whole random games with the shared PRNG (DESIGN.md, "A random step").

use crate::{Rng, State, CHANCE, TERMINAL};

/// Reused buffers, so that a playout allocates nothing per step.
#[derive(Default)]
pub struct Scratch {
    pub actions: Vec<u32>,
    pub weights: Vec<(u32, u64)>,
}

/// The action a random step takes: at a chance node, `r = below(W)` over the outcomes sorted by id and the
/// first whose running total exceeds `r` ([`State::sample_chance`]); at a decision, `legal[below(len)]`.
/// `None` at the end of the game.
#[inline]
pub fn random_action<S: State>(state: &S, rng: &mut Rng, scratch: &mut Scratch) -> Option<u32> {
    match state.current_player() {
        TERMINAL => None,
        CHANCE => state.sample_chance(rng, &mut scratch.weights),
        _ => {
            state.legal_actions(&mut scratch.actions);
            if scratch.actions.is_empty() {
                return None;
            }
            let i = rng.below(scratch.actions.len() as u64) as usize;
            Some(scratch.actions[i])
        }
    }
}

/// One random step applied: the action taken, or `None` (nothing drawn or changed) at the end of the game.
#[inline]
pub fn random_step<S: State>(state: &mut S, rng: &mut Rng, scratch: &mut Scratch) -> Option<u32> {
    let action = random_action(state, rng, scratch)?;
    state.apply_unchecked(action);
    Some(action)
}

/// Play to the end; returns the number of actions applied. `max_steps` guards against a rules bug looping.
pub fn random_playout<S: State>(
    state: &mut S,
    rng: &mut Rng,
    scratch: &mut Scratch,
    max_steps: u64,
) -> u64 {
    let mut steps = 0;
    while steps < max_steps {
        match random_action(state, rng, scratch) {
            Some(a) => state.apply_unchecked(a),
            None => break,
        }
        steps += 1;
    }
    steps
}

/// Like [`random_playout`], recording every action.
pub fn random_playout_recorded<S: State>(
    state: &mut S,
    rng: &mut Rng,
    history: &mut Vec<u32>,
    max_steps: u64,
) {
    let mut scratch = Scratch::default();
    let mut steps = 0;
    while steps < max_steps {
        match random_action(state, rng, &mut scratch) {
            Some(a) => {
                state.apply_unchecked(a);
                history.push(a);
            }
            None => break,
        }
        steps += 1;
    }
}
