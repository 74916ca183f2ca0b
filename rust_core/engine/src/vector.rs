//! Many independent games stepped together (the engine half of `meeplex.VectorGame`). Chance is resolved by a
//! per-game SplitMix64 seeded `seed + i`, so game i of a vector is "random game seed+i" everywhere.
//!
//! Speed (issue 6). The games are stored unwrapped, `Vec<S>` of the game's own state type, so the loop over
//! them is compiled once per game with every call inlined (no per-call dispatch on `AnyState`, and states sit
//! at their own size rather than the largest variant's). One pass per step does everything to a game while it
//! is in cache: the action, chance, the reset, the rewards, the observation, the mask and the seat to move.
//! The legal actions of each game are kept as a bitset, computed once when the game changes; it fills the
//! mask and lets `validate` check an action with one bit test instead of generating the legal actions again.
//! Nothing is allocated per step, and every output is written exactly once (observations are written by the
//! game, which clears its own slice first, so the caller's buffer needs no clearing).

use crate::playout::Scratch;
use crate::{AnyGame, AnyState, GameError, Player, Result, Rng, State, Tracked, CHANCE, TERMINAL};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AutoReset {
    /// Gymnasium's default: the step after a game ends resets it, and that step's action is ignored.
    NextStep,
    /// A game that ends is reset within the same step; the returned observation is the new game's.
    SameStep,
    /// Games are never reset; stepping a finished game is an error.
    Disabled,
}

/// The element type of the observation rows: `f32` (the observation tensor itself) or `u8`, for a game whose
/// [`crate::Game::observation_fits_u8`] is true, the same values converted exactly. A u8 row is written by the
/// game into a reused f32 row (which stays in L1 cache) and converted from there, so no game needs a u8 writer.
pub trait ObsElem: Copy + Default + Send + Sync + 'static {
    /// Write the observation of `state` for `viewer` into `out`; `scratch` is an f32 row of `out.len()`.
    fn write<S: State>(state: &S, viewer: usize, out: &mut [Self], scratch: &mut [f32]);
    #[doc(hidden)]
    fn step(batch: &mut dyn Batch, actions: &[i64], out: StepOutputs<'_, Self>);
    #[doc(hidden)]
    fn observe(batch: &dyn Batch, out: ObserveOutputs<'_, Self>);
}

impl ObsElem for f32 {
    #[inline]
    fn write<S: State>(state: &S, viewer: usize, out: &mut [f32], _: &mut [f32]) {
        state.observation_tensor(viewer, out);
    }
    fn step(batch: &mut dyn Batch, actions: &[i64], out: StepOutputs<'_, f32>) {
        batch.step(actions, out)
    }
    fn observe(batch: &dyn Batch, out: ObserveOutputs<'_, f32>) {
        batch.observe(out)
    }
}

impl ObsElem for u8 {
    #[inline]
    fn write<S: State>(state: &S, viewer: usize, out: &mut [u8], scratch: &mut [f32]) {
        state.observation_tensor_u8(viewer, out, scratch);
    }
    fn step(batch: &mut dyn Batch, actions: &[i64], out: StepOutputs<'_, u8>) {
        batch.step_u8(actions, out)
    }
    fn observe(batch: &dyn Batch, out: ObserveOutputs<'_, u8>) {
        batch.observe_u8(out)
    }
}

/// Where a step writes, row i for game i: `observations` n x `observation_len`, `masks` n x
/// `num_distinct_actions` (1 for a legal action of the seat to move, else 0), `rewards` n x players (every
/// seat's return in the games that ended on this step, else 0), `terminated` n flags, `players` n seats to move
/// (`CHANCE`/`TERMINAL` as in `State::current_player`). Every element is overwritten, whatever it held.
pub struct StepOutputs<'a, T = f32> {
    pub observations: &'a mut [T],
    pub masks: &'a mut [i8],
    pub rewards: &'a mut [f32],
    pub terminated: &'a mut [bool],
    pub players: &'a mut [i32],
}

/// What describes the games as they are (after a reset, or any time): observations, masks and seats to move.
pub struct ObserveOutputs<'a, T = f32> {
    pub observations: &'a mut [T],
    pub masks: &'a mut [i8],
    pub players: &'a mut [i32],
}

/// Byte b of `SPREAD[x]` is bit b of x: a byte of the legal-action bitset as eight mask bytes.
const SPREAD: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut x = 0;
    while x < 256 {
        let mut b = 0;
        while b < 8 {
            if x >> b & 1 == 1 {
                table[x] |= 1 << (8 * b);
            }
            b += 1;
        }
        x += 1;
    }
    table
};

/// The batch of one game type; `VectorCore` holds it behind one virtual call per batch.
#[doc(hidden)]
#[allow(clippy::len_without_is_empty)]
pub trait Batch: Send + Sync {
    fn len(&self) -> usize;
    fn reset(&mut self, seed: u64);
    fn validate(&self, actions: &[i64]) -> Result<()>;
    fn step(&mut self, actions: &[i64], out: StepOutputs<'_>);
    fn step_u8(&mut self, actions: &[i64], out: StepOutputs<'_, u8>);
    fn observe(&self, out: ObserveOutputs<'_>);
    fn observe_u8(&self, out: ObserveOutputs<'_, u8>);
    fn state(&self, i: usize) -> Option<Tracked<AnyState>>;
    fn needs_reset(&self, i: usize) -> bool;
}

struct Lanes<S: State> {
    /// The index in the whole vector of this batch's game 0 (a vector stepped by several threads is cut into
    /// one batch per thread); game i here is game `first + i` there, seeded `seed + first + i`.
    first: usize,
    states: Vec<S>,
    /// The state every game starts from (before its chance), cloned at each reset.
    initial: S,
    wrap: fn(S) -> AnyState,
    /// Each game's actions since its reset, chance included: a game whose serialization must agree with its
    /// history (Flipology's reader checks it) reads back only as a `Tracked` state. A push per step.
    histories: Vec<Vec<u32>>,
    rngs: Vec<Rng>,
    needs_reset: Vec<bool>,
    /// The seat whose point of view the observation takes: the seat to move, or at the end the last mover.
    viewer: Vec<usize>,
    /// `current_player()` of each game, kept up to date.
    player: Vec<Player>,
    /// The legal actions of the seat to move in each game, `words` u64 per game (empty when nobody moves).
    legal: Vec<u64>,
    words: usize,
    autoreset: AutoReset,
    max_length: u64,
    obs_len: usize,
    num_actions: usize,
    num_players: usize,
    scratch: Scratch,
    /// The f32 row a u8 observation is written through.
    obs_row: Vec<f32>,
    returns: Vec<f64>,
}

impl<S: State + Send + Sync> Lanes<S> {
    fn new(
        game: &AnyGame,
        initial: S,
        wrap: fn(S) -> AnyState,
        first: usize,
        n: usize,
        autoreset: AutoReset,
    ) -> Self {
        let num_actions = game.num_distinct_actions();
        let words = num_actions.div_ceil(64);
        Lanes {
            first,
            states: vec![initial.clone(); n],
            initial,
            wrap,
            histories: vec![Vec::new(); n],
            rngs: Vec::with_capacity(n),
            needs_reset: vec![false; n],
            viewer: vec![0; n],
            player: vec![CHANCE; n],
            legal: vec![0; n * words],
            words,
            autoreset,
            max_length: game.max_game_length(),
            obs_len: game.observation_len(),
            num_actions,
            num_players: game.num_players(),
            scratch: Scratch::default(),
            obs_row: vec![0.0; game.observation_len()],
            returns: vec![0.0; game.num_players()],
        }
    }

    /// Start game i afresh from the initial state (its Rng goes on where it was).
    #[inline]
    fn reset_one(&mut self, i: usize) {
        self.states[i].clone_from(&self.initial);
        self.histories[i].clear();
        self.needs_reset[i] = false;
        self.settle(i);
    }

    /// Resolve chance until game i waits for a seat or is over, with DESIGN.md's random step (the outcomes
    /// sorted by id, `r = below(total weight)`, the first whose running total exceeds `r`); then record who
    /// moves and what they may do.
    #[inline]
    fn settle(&mut self, i: usize) {
        let state = &mut self.states[i];
        let rng = &mut self.rngs[i];
        let weights = &mut self.scratch.weights;
        let mut steps = 0;
        let mut p = state.current_player();
        while p == CHANCE && steps < self.max_length {
            let Some(outcome) = state.sample_chance(rng, weights) else {
                break;
            };
            state.apply_unchecked(outcome);
            self.histories[i].push(outcome);
            steps += 1;
            p = state.current_player();
        }
        self.player[i] = p;
        if let Ok(seat) = usize::try_from(p) {
            self.viewer[i] = seat;
        }
        let row = &mut self.legal[i * self.words..(i + 1) * self.words];
        if p >= 0 {
            state.legal_bits(row, &mut self.scratch.actions);
        } else {
            row.fill(0);
        }
    }

    #[inline]
    fn is_marked_legal(&self, i: usize, action: i64) -> bool {
        if action < 0 || action as u64 >= self.num_actions as u64 {
            return false;
        }
        let a = action as usize;
        self.legal[i * self.words + a / 64] >> (a % 64) & 1 == 1
    }

    /// Observation, mask and seat to move of game i.
    #[inline]
    fn emit<T: ObsElem>(
        &self,
        i: usize,
        obs: &mut [T],
        row: &mut [f32],
        mask: &mut [i8],
        player: &mut i32,
    ) {
        T::write(&self.states[i], self.viewer[i], obs, row);
        // Cleared in one memset (most of a large action space is one zero word after another), then eight mask
        // bytes per table look-up in the words that hold a legal action: one 8-byte store per bitset byte.
        mask.fill(0);
        let legal = &self.legal[i * self.words..(i + 1) * self.words];
        for (chunk, &word) in mask.chunks_mut(64).zip(legal) {
            if word == 0 {
                continue;
            }
            let done = chunk.len() / 8 * 8;
            let mut eights = chunk.chunks_exact_mut(8);
            for (k, eight) in (&mut eights).enumerate() {
                let spread = SPREAD[(word >> (8 * k)) as u8 as usize].to_le_bytes();
                for (slot, b) in eight.iter_mut().zip(spread) {
                    *slot = b as i8;
                }
            }
            for (b, slot) in eights.into_remainder().iter_mut().enumerate() {
                *slot = (word >> (done + b) & 1) as i8;
            }
        }
        *player = self.player[i];
    }

    fn step_into<T: ObsElem>(&mut self, actions: &[i64], out: StepOutputs<'_, T>) {
        let n = self.states.len();
        let (p, o, a) = (self.num_players, self.obs_len, self.num_actions);
        assert!(
            actions.len() >= n
                && out.observations.len() >= n * o
                && out.masks.len() >= n * a
                && out.rewards.len() >= n * p
                && out.terminated.len() >= n
                && out.players.len() >= n,
            "VectorCore::step: a buffer is too small"
        );
        let mut row = std::mem::take(&mut self.obs_row);
        for i in 0..n {
            let rewards = &mut out.rewards[i * p..(i + 1) * p];
            rewards.fill(0.0);
            let mut ended = false;
            if self.needs_reset[i] {
                self.reset_one(i);
            } else {
                self.states[i].apply_unchecked(actions[i] as u32);
                self.histories[i].push(actions[i] as u32);
                self.settle(i);
                if self.player[i] == TERMINAL {
                    ended = true;
                    self.states[i].returns(&mut self.returns);
                    for (r, &v) in rewards.iter_mut().zip(&self.returns) {
                        *r = v as f32;
                    }
                    match self.autoreset {
                        AutoReset::NextStep => self.needs_reset[i] = true,
                        AutoReset::SameStep => self.reset_one(i),
                        AutoReset::Disabled => {}
                    }
                }
            }
            out.terminated[i] = ended;
            self.emit(
                i,
                &mut out.observations[i * o..(i + 1) * o],
                &mut row,
                &mut out.masks[i * a..(i + 1) * a],
                &mut out.players[i],
            );
        }
        self.obs_row = row;
    }

    fn observe_into<T: ObsElem>(&self, out: ObserveOutputs<'_, T>) {
        let n = self.states.len();
        let (o, a) = (self.obs_len, self.num_actions);
        assert!(
            out.observations.len() >= n * o && out.masks.len() >= n * a && out.players.len() >= n,
            "VectorCore::observe: a buffer is too small"
        );
        let mut row = vec![0.0; o];
        for i in 0..n {
            self.emit(
                i,
                &mut out.observations[i * o..(i + 1) * o],
                &mut row,
                &mut out.masks[i * a..(i + 1) * a],
                &mut out.players[i],
            );
        }
    }
}

impl<S: State + Send + Sync> Batch for Lanes<S> {
    fn len(&self) -> usize {
        self.states.len()
    }

    fn reset(&mut self, seed: u64) {
        let n = self.states.len();
        self.rngs.clear();
        self.rngs
            .extend((0..n).map(|i| Rng::new(seed.wrapping_add((self.first + i) as u64))));
        for i in 0..n {
            self.reset_one(i);
        }
    }

    fn validate(&self, actions: &[i64]) -> Result<()> {
        if actions.len() != self.states.len() {
            return Err(GameError::IllegalAction(format!(
                "{} actions for {} games",
                actions.len(),
                self.states.len()
            )));
        }
        for (i, &a) in actions.iter().enumerate() {
            if self.needs_reset[i] || self.is_marked_legal(i, a) {
                continue;
            }
            let game = self.first + i;
            // Not in the bitset: the game itself decides, and names the reason.
            let state = &self.states[i];
            if state.is_terminal() {
                return Err(GameError::IllegalAction(format!(
                    "game {game} is over and autoreset is disabled"
                )));
            }
            if a < 0 || a > u32::MAX as i64 || !state.is_legal(a as u32) {
                return Err(GameError::IllegalAction(format!(
                    "action {a} is not legal in game {game} (seat {})",
                    state.current_player()
                )));
            }
        }
        Ok(())
    }

    fn step(&mut self, actions: &[i64], out: StepOutputs<'_>) {
        self.step_into(actions, out)
    }

    fn step_u8(&mut self, actions: &[i64], out: StepOutputs<'_, u8>) {
        self.step_into(actions, out)
    }

    fn observe(&self, out: ObserveOutputs<'_>) {
        self.observe_into(out)
    }

    fn observe_u8(&self, out: ObserveOutputs<'_, u8>) {
        self.observe_into(out)
    }

    fn state(&self, i: usize) -> Option<Tracked<AnyState>> {
        self.states.get(i).map(|s| Tracked {
            state: (self.wrap)(s.clone()),
            history: self.histories[i].clone(),
        })
    }

    fn needs_reset(&self, i: usize) -> bool {
        self.needs_reset.get(i).copied().unwrap_or(false)
    }
}

/// How many runs of games a vector on several threads is cut into, per thread.
const BATCHES_PER_THREAD: usize = 8;

pub struct VectorCore {
    game: AnyGame,
    /// The games in consecutive runs of `chunk`: one batch on one thread, several per thread on more.
    batches: Vec<Box<dyn Batch>>,
    chunk: usize,
    /// The `threads - 1` threads that step the batches with the caller's; `None` on one thread, or if the
    /// threads could not be started (then the batches are stepped one after another).
    pool: Option<rayon::ThreadPool>,
    threads: usize,
    seed: u64,
    autoreset: AutoReset,
    /// Observation length, actions, players: the row widths of the outputs.
    widths: (usize, usize, usize),
}

/// The batch of games `first..first + n`, compiled for the game's own state type.
fn new_batch(game: &AnyGame, first: usize, n: usize, autoreset: AutoReset) -> Box<dyn Batch> {
    let g = game;
    // One arm per engine type: the batch is compiled for each.
    match game.new_initial_state() {
        AnyState::Carcassonne(s) => {
            Box::new(Lanes::new(g, s, AnyState::Carcassonne, first, n, autoreset))
        }
        AnyState::Caboodle(s) => Box::new(Lanes::new(
            g,
            *s,
            |s| AnyState::Caboodle(Box::new(s)),
            first,
            n,
            autoreset,
        )),
        AnyState::FlipCity(s) => {
            Box::new(Lanes::new(g, s, AnyState::FlipCity, first, n, autoreset))
        }
        AnyState::FlipFamily(s) => {
            Box::new(Lanes::new(g, s, AnyState::FlipFamily, first, n, autoreset))
        }
        AnyState::FlipPickTowers(s) => Box::new(Lanes::new(
            g,
            s,
            AnyState::FlipPickTowers,
            first,
            n,
            autoreset,
        )),
        AnyState::Flipology(s) => {
            Box::new(Lanes::new(g, s, AnyState::Flipology, first, n, autoreset))
        }
        AnyState::ForbiddenIsland(s) => Box::new(Lanes::new(
            g,
            s,
            AnyState::ForbiddenIsland,
            first,
            n,
            autoreset,
        )),
        AnyState::LineIt(s) => Box::new(Lanes::new(g, s, AnyState::LineIt, first, n, autoreset)),
        AnyState::Memoir44(s) => Box::new(Lanes::new(
            g,
            *s,
            |s| AnyState::Memoir44(Box::new(s)),
            first,
            n,
            autoreset,
        )),
        AnyState::Nidavellir(s) => Box::new(Lanes::new(
            g,
            *s,
            |s| AnyState::Nidavellir(Box::new(s)),
            first,
            n,
            autoreset,
        )),
        AnyState::Viticulture(s) => Box::new(Lanes::new(
            g,
            *s,
            |s| AnyState::Viticulture(Box::new(s)),
            first,
            n,
            autoreset,
        )),
    }
}

impl<'a, T> StepOutputs<'a, T> {
    /// The rows of the first `games` games, and the rows of the rest.
    fn split_games(self, games: usize, (o, a, p): (usize, usize, usize)) -> (Self, Self) {
        let (obs, obs_rest) = self.observations.split_at_mut(games * o);
        let (masks, masks_rest) = self.masks.split_at_mut(games * a);
        let (rewards, rewards_rest) = self.rewards.split_at_mut(games * p);
        let (terminated, terminated_rest) = self.terminated.split_at_mut(games);
        let (players, players_rest) = self.players.split_at_mut(games);
        (
            StepOutputs {
                observations: obs,
                masks,
                rewards,
                terminated,
                players,
            },
            StepOutputs {
                observations: obs_rest,
                masks: masks_rest,
                rewards: rewards_rest,
                terminated: terminated_rest,
                players: players_rest,
            },
        )
    }
}

impl<'a, T> ObserveOutputs<'a, T> {
    /// The rows of the first `games` games, and the rows of the rest.
    fn split_games(self, games: usize, (o, a, _): (usize, usize, usize)) -> (Self, Self) {
        let (obs, obs_rest) = self.observations.split_at_mut(games * o);
        let (masks, masks_rest) = self.masks.split_at_mut(games * a);
        let (players, players_rest) = self.players.split_at_mut(games);
        (
            ObserveOutputs {
                observations: obs,
                masks,
                players,
            },
            ObserveOutputs {
                observations: obs_rest,
                masks: masks_rest,
                players: players_rest,
            },
        )
    }
}

impl VectorCore {
    /// `n` games stepped on the caller's thread.
    pub fn new(game: AnyGame, n: usize, seed: u64, autoreset: AutoReset) -> Self {
        Self::with_threads(game, n, seed, autoreset, 1)
    }

    /// `n` games stepped by `threads` threads (the caller's and `threads - 1` of the vector's own, at most one
    /// per game), each stepping its own consecutive run of games. Every game draws its chance from its own
    /// Rng, so the outputs are the same whatever the number of threads.
    pub fn with_threads(
        game: AnyGame,
        n: usize,
        seed: u64,
        autoreset: AutoReset,
        threads: usize,
    ) -> Self {
        let threads = threads.clamp(1, n.max(1));
        // Several batches a thread, taken in turn, so that threads that start late still share the work.
        let pieces = if threads == 1 {
            1
        } else {
            threads * BATCHES_PER_THREAD
        };
        let chunk = n.div_ceil(pieces).max(1);
        let mut batches: Vec<Box<dyn Batch>> = (0..n.max(1))
            .step_by(chunk)
            .map(|first| new_batch(&game, first, chunk.min(n - first.min(n)), autoreset))
            .collect();
        let pool = (threads > 1)
            .then(|| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads - 1)
                    .thread_name(|i| format!("meeplex-vector-{i}"))
                    .build()
                    .ok()
            })
            .flatten();
        for batch in &mut batches {
            batch.reset(seed);
        }
        let widths = (
            game.observation_len(),
            game.num_distinct_actions(),
            game.num_players(),
        );
        VectorCore {
            game,
            batches,
            chunk,
            threads: if pool.is_some() { threads } else { 1 },
            pool,
            seed,
            autoreset,
            widths,
        }
    }

    pub fn game(&self) -> &AnyGame {
        &self.game
    }

    pub fn autoreset(&self) -> AutoReset {
        self.autoreset
    }

    /// How many threads step the games: the caller's and the vector's own.
    pub fn threads(&self) -> usize {
        self.threads
    }

    pub fn len(&self) -> usize {
        self.batches.iter().map(|b| b.len()).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Run `work` on every batch with its share of `items`: on the vector's threads when it has them. The
    /// caller starts on the first batch at once and each thread takes the next batch not yet taken, so a
    /// thread that wakes late (or shares its core with another process) just takes fewer batches.
    fn each_batch<I: Send>(
        batches: &mut [Box<dyn Batch>],
        pool: Option<&rayon::ThreadPool>,
        items: Vec<I>,
        work: impl Fn(&mut dyn Batch, I) + Send + Sync,
    ) {
        let jobs = batches.iter_mut().zip(items);
        let Some(pool) = pool else {
            return jobs.for_each(|(batch, item)| work(&mut **batch, item));
        };
        let jobs: Vec<Mutex<Option<_>>> = jobs.map(|job| Mutex::new(Some(job))).collect();
        let next = AtomicUsize::new(0);
        let drain = || {
            while let Some(job) = jobs.get(next.fetch_add(1, Ordering::Relaxed)) {
                let taken = job
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner())
                    .take();
                if let Some((batch, item)) = taken {
                    work(&mut **batch, item);
                }
            }
        };
        pool.in_place_scope(|scope| {
            for _ in 0..pool.current_num_threads() {
                scope.spawn(|_| drain());
            }
            drain();
        });
    }

    /// Start every game afresh: game i draws its chance with `Rng::new(seed + i)`.
    pub fn reset(&mut self, seed: u64) {
        self.seed = seed;
        let items = vec![(); self.batches.len()];
        Self::each_batch(&mut self.batches, self.pool.as_ref(), items, |b, ()| {
            b.reset(seed)
        });
    }

    /// Check a whole batch before touching any game, so a bad action changes nothing.
    pub fn validate(&self, actions: &[i64]) -> Result<()> {
        let n = self.len();
        if actions.len() != n {
            return Err(GameError::IllegalAction(format!(
                "{} actions for {n} games",
                actions.len()
            )));
        }
        self.batches
            .iter()
            .zip(actions.chunks(self.chunk))
            .try_for_each(|(batch, actions)| batch.validate(actions))
    }

    /// Apply one validated batch and write everything the step returns (see [`StepOutputs`]). A game waiting
    /// for its reset ignores its action and is reset.
    pub fn step<T: ObsElem>(&mut self, actions: &[i64], out: StepOutputs<'_, T>) {
        if self.batches.len() == 1 {
            return T::step(&mut *self.batches[0], actions, out);
        }
        let mut items = Vec::with_capacity(self.batches.len());
        let mut rest = out;
        for (batch, actions) in self.batches.iter().zip(actions.chunks(self.chunk)) {
            let (mine, others) = rest.split_games(batch.len(), self.widths);
            items.push((actions, mine));
            rest = others;
        }
        Self::each_batch(
            &mut self.batches,
            self.pool.as_ref(),
            items,
            |b, (actions, out)| T::step(b, actions, out),
        );
    }

    /// [`VectorCore::validate`], then [`VectorCore::step`].
    pub fn try_step<T: ObsElem>(&mut self, actions: &[i64], out: StepOutputs<'_, T>) -> Result<()> {
        self.validate(actions)?;
        self.step(actions, out);
        Ok(())
    }

    /// Observations, masks and seats to move of the games as they are.
    pub fn observe<T: ObsElem>(&mut self, out: ObserveOutputs<'_, T>) {
        if self.batches.len() == 1 {
            return T::observe(&*self.batches[0], out);
        }
        let mut items = Vec::with_capacity(self.batches.len());
        let mut rest = out;
        for batch in &self.batches {
            let (mine, others) = rest.split_games(batch.len(), self.widths);
            items.push(mine);
            rest = others;
        }
        Self::each_batch(&mut self.batches, self.pool.as_ref(), items, |b, out| {
            T::observe(b, out)
        });
    }

    /// The batch holding game i, and i's index in it.
    fn locate(&self, i: usize) -> Option<(&dyn Batch, usize)> {
        self.batches
            .get(i / self.chunk)
            .map(|b| (&**b, i % self.chunk))
    }

    /// A copy of game i.
    pub fn state(&self, i: usize) -> Option<Tracked<AnyState>> {
        self.locate(i).and_then(|(b, j)| b.state(j))
    }

    /// Whether game i ended and waits for its reset (`AutoReset::NextStep`).
    pub fn needs_reset(&self, i: usize) -> bool {
        self.locate(i).is_some_and(|(b, j)| b.needs_reset(j))
    }

    pub fn seed_of(&self, i: usize) -> u64 {
        self.seed.wrapping_add(i as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::playout::random_action;
    use crate::registry::GAME_IDS;
    use crate::Params;

    /// Game i of a vector is the single game whose chance is drawn by `Rng(seed + i)` with DESIGN.md's random
    /// step; the outputs are that game's observation, mask, seat and returns; a refused batch changes nothing.
    #[test]
    fn games_match_single_games_and_outputs_match_states() {
        for id in GAME_IDS {
            let game = AnyGame::new(id, &Params::new()).unwrap();
            // Three threads cut the five games into runs of 2, 2 and 1: game i must not notice.
            for (mode, threads) in [
                (AutoReset::NextStep, 1),
                (AutoReset::SameStep, 1),
                (AutoReset::NextStep, 3),
            ] {
                let (n, seed) = (5, 40);
                let (o, a, p) = (
                    game.observation_len(),
                    game.num_distinct_actions(),
                    game.num_players(),
                );
                let mut core = VectorCore::with_threads(game.clone(), n, seed, mode, threads);
                assert_eq!(core.threads(), threads);
                let mut singles: Vec<(AnyState, Rng)> = (0..n as u64)
                    .map(|i| (game.new_initial_state(), Rng::new(seed + i)))
                    .collect();
                let mut scratch = Scratch::default();
                let settle = |s: &mut AnyState, rng: &mut Rng, scratch: &mut Scratch| {
                    while s.is_chance_node() {
                        let outcome = random_action(s, rng, scratch).unwrap();
                        s.apply_unchecked(outcome);
                    }
                };
                for (s, rng) in singles.iter_mut() {
                    settle(s, rng, &mut scratch);
                }
                let (mut obs, mut masks) = (vec![9.0; n * o], vec![9i8; n * a]);
                let (mut rewards, mut done, mut seats) =
                    (vec![9.0; n * p], vec![true; n], vec![9; n]);
                core.observe(ObserveOutputs {
                    observations: &mut obs,
                    masks: &mut masks,
                    players: &mut seats,
                });
                let mut pick = Rng::new(7);
                let mut waiting = vec![false; n];
                for _ in 0..300 {
                    let mut actions = vec![0i64; n];
                    for i in 0..n {
                        let legal: Vec<i64> = (0..a)
                            .filter(|&k| masks[i * a + k] == 1)
                            .map(|k| k as i64)
                            .collect();
                        if !legal.is_empty() {
                            actions[i] = legal[pick.below(legal.len() as u64) as usize];
                        }
                    }
                    let mut bad = actions.clone();
                    bad[n - 1] = a as i64 + 1;
                    if !waiting[n - 1] {
                        let before = core.state(n - 1);
                        let refusal = core.validate(&bad).unwrap_err().to_string();
                        assert!(refusal.contains(&format!("game {}", n - 1)), "{refusal}");
                        assert_eq!(core.state(n - 1).map(|t| t.state), before.map(|t| t.state));
                    }
                    core.try_step(
                        &actions,
                        StepOutputs {
                            observations: &mut obs,
                            masks: &mut masks,
                            rewards: &mut rewards,
                            terminated: &mut done,
                            players: &mut seats,
                        },
                    )
                    .unwrap();
                    for i in 0..n {
                        let (s, rng) = &mut singles[i];
                        let mut expected_rewards = vec![0.0; p];
                        if waiting[i] {
                            *s = game.new_initial_state();
                            settle(s, rng, &mut scratch);
                            waiting[i] = false;
                        } else {
                            let mover = s.current_player() as usize;
                            s.apply_action(actions[i] as u32).unwrap();
                            settle(s, rng, &mut scratch);
                            assert_eq!(done[i], s.is_terminal());
                            if s.is_terminal() {
                                let mut r = vec![0.0; p];
                                s.returns(&mut r);
                                expected_rewards = r.iter().map(|&x| x as f32).collect();
                                let mut last = vec![0.0; o];
                                s.observation_tensor(mover, &mut last);
                                if mode == AutoReset::NextStep {
                                    assert_eq!(&obs[i * o..(i + 1) * o], &last[..]);
                                    waiting[i] = true;
                                } else {
                                    *s = game.new_initial_state();
                                    settle(s, rng, &mut scratch);
                                }
                            }
                        }
                        assert_eq!(&rewards[i * p..(i + 1) * p], &expected_rewards[..]);
                        assert_eq!(core.state(i).map(|t| t.state).as_ref(), Some(&*s));
                        assert_eq!(seats[i], s.current_player());
                        if let Ok(seat) = usize::try_from(s.current_player()) {
                            let mut want = vec![0.0; o];
                            s.observation_tensor(seat, &mut want);
                            assert_eq!(&obs[i * o..(i + 1) * o], &want[..]);
                            let mut legal = Vec::new();
                            s.legal_actions(&mut legal);
                            let want: Vec<i8> =
                                (0..a as u32).map(|k| legal.contains(&k) as i8).collect();
                            assert_eq!(&masks[i * a..(i + 1) * a], &want[..]);
                        }
                    }
                }
            }
        }
    }

    /// Every game that declares `observation_fits_u8` (the ids with each player count): random games whose
    /// every observation value is an integer in 0..=255, and a u8 vector whose rows are the f32 vector's cast.
    #[test]
    fn u8_observations_are_exact() {
        let mut declared = 0;
        for id in GAME_IDS {
            for players in [None, Some(1), Some(2), Some(3), Some(4)] {
                let mut params = Params::new();
                if let Some(p) = players {
                    params.insert("players".into(), crate::ParamValue::Int(p));
                }
                let Ok(game) = AnyGame::new(id, &params) else {
                    continue;
                };
                if !game.observation_fits_u8() {
                    continue;
                }
                declared += 1;
                let (n, o, a, p) = (
                    16,
                    game.observation_len(),
                    game.num_distinct_actions(),
                    game.num_players(),
                );
                let mut f = VectorCore::new(game.clone(), n, 3, AutoReset::SameStep);
                let mut u = VectorCore::new(game.clone(), n, 3, AutoReset::SameStep);
                let (mut of, mut ou) = (vec![0f32; n * o], vec![0u8; n * o]);
                let (mut mf, mut mu) = (vec![0i8; n * a], vec![0i8; n * a]);
                let (mut rf, mut ru) = (vec![0f32; n * p], vec![0f32; n * p]);
                let (mut tf, mut tu) = (vec![false; n], vec![false; n]);
                let (mut sf, mut su) = (vec![0; n], vec![0; n]);
                f.observe(ObserveOutputs {
                    observations: &mut of,
                    masks: &mut mf,
                    players: &mut sf,
                });
                u.observe(ObserveOutputs {
                    observations: &mut ou,
                    masks: &mut mu,
                    players: &mut su,
                });
                let mut pick = Rng::new(11);
                for _ in 0..3000 {
                    assert!(of
                        .iter()
                        .all(|&x| x.fract() == 0.0 && (0.0..=255.0).contains(&x)));
                    assert!(of.iter().zip(&ou).all(|(&x, &y)| x == y as f32));
                    assert_eq!((&mf, &sf), (&mu, &su));
                    let actions: Vec<i64> = (0..n)
                        .map(|i| {
                            let legal: Vec<usize> =
                                (0..a).filter(|&k| mf[i * a + k] == 1).collect();
                            legal[pick.below(legal.len() as u64) as usize] as i64
                        })
                        .collect();
                    f.try_step(
                        &actions,
                        StepOutputs {
                            observations: &mut of,
                            masks: &mut mf,
                            rewards: &mut rf,
                            terminated: &mut tf,
                            players: &mut sf,
                        },
                    )
                    .unwrap();
                    u.try_step(
                        &actions,
                        StepOutputs {
                            observations: &mut ou,
                            masks: &mut mu,
                            rewards: &mut ru,
                            terminated: &mut tu,
                            players: &mut su,
                        },
                    )
                    .unwrap();
                    assert_eq!((&rf, &tf), (&ru, &tu));
                }
            }
        }
        assert!(declared > 0);
    }
}
