//! meeplex-engine: exact rules engines for tabletop games, in pure Rust.
//!
//! Every game implements [`Game`] and [`State`] (OpenSpiel's vocabulary: dense action ids, chance as a
//! pseudo-player with exact integer weights). [`registry`] lists the games behind one enum, which is what the
//! Python bindings, the benchmarks and the generic tests iterate over. A state carries no history and no
//! random generator, so that `clone` is a plain copy; [`Tracked`] adds the history where callers want it.

// Card counts are parallel arrays indexed by face id; an index loop says that more plainly than zips.
#![allow(clippy::needless_range_loop)]

pub mod error;
pub mod games;
pub mod json;
pub mod notation;
pub mod outcome;
pub mod params;
pub mod playout;
pub mod registry;
pub mod rng;
pub mod search;
pub mod vector;

pub use error::{GameError, Result};
pub use params::{ParamValue, Params};
pub use registry::{AnyGame, AnyState};
pub use rng::Rng;

/// A seat (0..n-1), or one of the pseudo-players below.
pub type Player = i32;
/// `current_player()` at a chance node.
pub const CHANCE: Player = -1;
/// `current_player()` when the game is over.
pub const TERMINAL: Player = -4;

/// Where a rules generator writes actions: a list, or a search for one action (legality without allocation).
pub trait ActionSink {
    fn push(&mut self, action: u32);
    /// The actions `base + i` for every set bit i of `bits`, in rising order: how a generator that keeps its
    /// options as bitsets hands over up to 64 at once. A bitset sink takes the word whole.
    #[inline]
    fn push_bits(&mut self, base: u32, mut bits: u64) {
        while bits != 0 {
            self.push(base + bits.trailing_zeros());
            bits &= bits - 1;
        }
    }
}

/// An [`ActionSink`] that sets bit `a % 64` of word `a / 64` (an action beyond the words is dropped): the
/// bitset [`State::legal_bits`] writes, with [`ActionSink::push_bits`] one shifted OR instead of a bit at a time.
pub struct BitsetSink<'a>(pub &'a mut [u64]);

impl ActionSink for BitsetSink<'_> {
    #[inline]
    fn push(&mut self, action: u32) {
        if let Some(word) = self.0.get_mut(action as usize / 64) {
            *word |= 1 << (action % 64);
        }
    }

    #[inline]
    fn push_bits(&mut self, base: u32, bits: u64) {
        let (w, b) = (base as usize / 64, base % 64);
        if let Some(x) = self.0.get_mut(w) {
            *x |= bits << b;
        }
        if b != 0 {
            if let Some(x) = self.0.get_mut(w + 1) {
                *x |= bits >> (64 - b);
            }
        }
    }
}

impl ActionSink for Vec<u32> {
    fn push(&mut self, action: u32) {
        Vec::push(self, action)
    }
}

/// An [`ActionSink`] that only records whether `target` was generated.
pub struct Finder {
    pub target: u32,
    pub found: bool,
}

impl Finder {
    pub fn new(target: u32) -> Self {
        Finder {
            target,
            found: false,
        }
    }
}

impl ActionSink for Finder {
    fn push(&mut self, action: u32) {
        self.found |= action == self.target;
    }
}

/// A game with fixed parameters: a factory of states and the bounds of its spaces.
pub trait Game: Clone + Send + Sync + 'static {
    type State: State;

    fn id(&self) -> &'static str;
    /// The full, normalised parameter map.
    fn params(&self) -> &Params;
    fn num_players(&self) -> usize;
    fn num_distinct_actions(&self) -> usize;
    fn max_chance_outcomes(&self) -> usize;
    /// A true bound on the number of actions (chance outcomes included) in one game.
    fn max_game_length(&self) -> u64;
    fn observation_shape(&self) -> Vec<usize>;
    /// Whether every value of `observation_tensor` is an integer in 0..=255 in every reachable state of this
    /// game (with these parameters), so that a uint8 copy of it is exact (`VectorGame(...,
    /// observation_dtype="uint8")`). A game says true only when its rules document's layout is counts and flags
    /// with a bound it can prove from its parameters; the default is false.
    fn observation_fits_u8(&self) -> bool {
        false
    }
    fn new_initial_state(&self) -> Self::State;
    /// Parse the canonical text of [`State::serialize`], validating it fully; returns the state and its history.
    fn deserialize_state(&self, text: &str) -> Result<(Self::State, Vec<u32>)>;
}

/// A position. Everything here is deterministic: randomness enters only as chance actions.
pub trait State: Clone + Send + Sync + 'static {
    fn current_player(&self) -> Player;
    fn is_terminal(&self) -> bool {
        self.current_player() == TERMINAL
    }
    fn is_chance_node(&self) -> bool {
        self.current_player() == CHANCE
    }
    /// The legal actions, sorted, written into a reused buffer (cleared first). At a chance node, the outcomes.
    fn legal_actions(&self, out: &mut Vec<u32>);
    /// The same actions in any order, repeats allowed (`VectorCore` keeps them as a bitset); a game whose
    /// `legal_actions` sorts may skip it here.
    fn legal_actions_unordered(&self, out: &mut Vec<u32>) {
        self.legal_actions(out)
    }
    /// The same actions as a bitset, bit `a % 64` of `out[a / 64]` (`out` is overwritten; an action beyond it is
    /// dropped), which is how `VectorCore` keeps them. The default sets the bits of
    /// [`State::legal_actions_unordered`] listed into `scratch`; a game whose lists are made from bitsets
    /// overrides it to skip the list.
    fn legal_bits(&self, out: &mut [u64], scratch: &mut Vec<u32>) {
        out.fill(0);
        self.legal_actions_unordered(scratch);
        let mut bits = BitsetSink(out);
        scratch.iter().for_each(|&a| bits.push(a));
    }
    /// At a chance node, `(outcome, weight)` sorted by outcome with positive integer weights; else empty.
    fn chance_weights(&self, out: &mut Vec<(u32, u64)>);
    /// At a chance node, the outcome DESIGN's random step draws: with the weights sorted by outcome summing to
    /// `W`, `r = rng.below(W)` and the first outcome whose running total exceeds `r`; `None` (and no draw)
    /// elsewhere or when `W` is 0. The default goes through [`State::chance_weights`] (`scratch` is its
    /// buffer); a game overrides it to draw from its counts without building the list, and must draw the
    /// same outcome with the same single `below` call.
    fn sample_chance(&self, rng: &mut Rng, scratch: &mut Vec<(u32, u64)>) -> Option<u32> {
        self.chance_weights(scratch);
        pick_weighted(scratch.iter().copied(), rng)
    }
    /// Apply an action known to be legal. Calling it with anything else is a logic error of the caller;
    /// it must still not panic, but the resulting state is unspecified.
    fn apply_unchecked(&mut self, action: u32);

    fn is_legal(&self, action: u32) -> bool {
        let mut buf = Vec::new();
        self.legal_actions(&mut buf);
        buf.binary_search(&action).is_ok()
    }

    /// Apply an action, or refuse it with [`GameError::IllegalAction`] and leave the state untouched.
    fn apply_action(&mut self, action: u32) -> Result<()> {
        if self.is_legal(action) {
            self.apply_unchecked(action);
            Ok(())
        } else {
            let who = match self.current_player() {
                TERMINAL => "the game is over".to_string(),
                CHANCE => "at a chance node".to_string(),
                p => format!("for seat {p}"),
            };
            Err(GameError::IllegalAction(format!(
                "action {action} is not legal {who}"
            )))
        }
    }

    fn action_to_string(&self, action: u32) -> Result<String>;
    fn string_to_action(&self, text: &str) -> Result<u32>;
    /// Each seat's share of the win at the end (0.0 before it).
    fn returns(&self, out: &mut [f64]);
    /// The game's own score per seat, for people and reports; never a reward (`returns()` is). Before the end
    /// it shows only what the table can see (a game with hidden information never counts a hidden card);
    /// each game's rules document says what it means mid-game.
    fn scores(&self, out: &mut [f64]);
    /// What `player` sees now, written into a buffer of `observation_shape()`'s size.
    fn observation_tensor(&self, player: usize, out: &mut [f32]);
    /// [`State::observation_tensor`] as u8, for a game whose [`Game::observation_fits_u8`] is true (elsewhere
    /// the values are unspecified). `scratch` is an f32 buffer of the same size. The default writes the f32
    /// row into `scratch` (small enough to stay in cache) and converts it; a game with a cheaper direct writer
    /// overrides it, and must write the same values.
    fn observation_tensor_u8(&self, player: usize, out: &mut [u8], scratch: &mut [f32]) {
        self.observation_tensor(player, scratch);
        f32_row_to_u8(scratch, out);
    }
    fn observation_string(&self, player: usize) -> String;
    fn information_state_string(&self, player: usize, history: &[u32]) -> String;
    fn serialize(&self, history: &[u32]) -> String;
    /// A full state consistent with what `player` knows, drawn with the right probabilities.
    fn resample_from_infostate(&self, player: usize, rng: &mut Rng) -> Self;
    /// [`State::resample_from_infostate`] with the history that leads to the drawn state (a game whose hidden
    /// facts are chance outcomes must rewrite them, or the history would replay to the true state).
    fn resample_with_history(
        &self,
        player: usize,
        history: &[u32],
        rng: &mut Rng,
    ) -> (Self, Vec<u32>) {
        (self.resample_from_infostate(player, rng), history.to_vec())
    }

    /// A readable multi-line picture of the whole state.
    fn to_text(&self) -> String;

    /// An estimate of `returns()` for a game cut short (search rollouts that stop early). The default is the
    /// true returns, which are all zero before the end; games with a meaningful measure of progress override it.
    fn heuristic_value(&self, out: &mut [f64]) {
        self.returns(out)
    }
}

/// Convert an f32 row whose values are integers in 0..=255 to u8, exactly. For such an x, x + 2^23 is exact and
/// its low mantissa bits are x: an add and a truncation per value, which vectorizes (a saturating `x as u8`
/// compiles to scalar NaN and range checks). Other values give unspecified bytes.
#[inline]
pub fn f32_row_to_u8(row: &[f32], out: &mut [u8]) {
    const SHIFT: f32 = 8_388_608.0;
    let mut o = out.chunks_exact_mut(16);
    let mut r = row.chunks_exact(16);
    for (o16, r16) in (&mut o).zip(&mut r) {
        for k in 0..16 {
            o16[k] = (r16[k] + SHIFT).to_bits() as u8;
        }
    }
    for (x, y) in o.into_remainder().iter_mut().zip(r.remainder()) {
        *x = (y + SHIFT).to_bits() as u8;
    }
}

/// DESIGN's weighted draw over `(outcome, weight)` sorted by outcome: `r = rng.below(W)`, then the first
/// outcome whose running total exceeds `r`. `None`, without drawing, when the weights sum to 0.
pub fn pick_weighted<I>(weights: I, rng: &mut Rng) -> Option<u32>
where
    I: IntoIterator<Item = (u32, u64)> + Clone,
{
    let total: u64 = weights.clone().into_iter().map(|(_, w)| w).sum();
    if total == 0 {
        return None;
    }
    let r = rng.below(total);
    let mut running = 0u64;
    weights.into_iter().find_map(|(outcome, weight)| {
        running += weight;
        (running > r).then_some(outcome)
    })
}

/// [`pick_weighted`] where outcome `i` has weight `counts[i]` (zero counts are not outcomes): the draw a
/// game whose chance weights are the counts of a pile makes, without building the list.
#[inline]
pub fn pick_by_count(counts: &[u8], rng: &mut Rng) -> Option<u32> {
    let total: u64 = counts.iter().map(|&c| c as u64).sum();
    if total == 0 {
        return None;
    }
    let r = rng.below(total);
    let mut running = 0u64;
    for (i, &c) in counts.iter().enumerate() {
        running += c as u64;
        if running > r {
            return Some(i as u32);
        }
    }
    None
}

/// A state together with the actions that led to it.
#[derive(Clone, Debug)]
pub struct Tracked<S> {
    pub state: S,
    pub history: Vec<u32>,
}

impl<S: State> Tracked<S> {
    pub fn new(state: S) -> Self {
        Tracked {
            state,
            history: Vec::new(),
        }
    }

    pub fn apply_action(&mut self, action: u32) -> Result<()> {
        self.state.apply_action(action)?;
        self.history.push(action);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{ActionSink, BitsetSink, Rng};

    /// A whole word pushed into a bitset sets the same bits as its actions pushed one at a time, across a word
    /// boundary and past the end of the bitset (dropped), and a list receives them in rising order.
    #[test]
    fn push_bits_matches_pushing_each_action() {
        let mut rng = Rng::new(7);
        for _ in 0..2_000 {
            let base = rng.below(200) as u32;
            let bits = rng.next_u64() & rng.next_u64();
            let (mut whole, mut single) = ([0u64; 3], [0u64; 3]);
            BitsetSink(&mut whole).push_bits(base, bits);
            let mut list = Vec::new();
            list.push_bits(base, bits);
            let mut one = BitsetSink(&mut single);
            list.iter().for_each(|&a| one.push(a));
            assert_eq!(whole, single, "base {base}, bits {bits:#x}");
            assert_eq!(list.len(), bits.count_ones() as usize);
            assert!(list.windows(2).all(|w| w[0] < w[1]));
        }
    }
}
