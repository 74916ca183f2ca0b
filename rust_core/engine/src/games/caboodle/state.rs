//! The rules of Caboodle (docs/rules/caboodle.md §5, §6) and the `State` implementation.

use super::tiles::{Links, T};
use super::{notation, observation, serial, Config, HAND};
use crate::{Player, Rng, State, CHANCE, TERMINAL};

/// §4: the window is |x|, |y| <= R.
pub const R: i32 = T as i32 - 1;
pub const W: i32 = 2 * R + 1;
/// Placement ids `0..P` (§7).
pub const P: u32 = (W * W * 4) as u32;
pub const SELECT: u32 = P;
pub const PASS: u32 = P + T as u32;
pub const NUM_ACTIONS: u32 = PASS + 1;
/// At most 4 + 2 x 39 open cells (each placement closes one and opens at most three).
pub const MAX_OPEN: usize = 84;
/// `max_game_length()` for 4 players.
pub const MAX_HISTORY: usize = T * 6;
const NONE: u8 = u8::MAX;
/// The recipient codes of chance entries of the history (a seat is 0..3).
pub const TO_REMOVED: u8 = 4;
pub const TO_BOARD: u8 = 5;
pub const DECISION: u8 = 6;

pub const PHASES: [&str; 7] = ["remove", "start", "deal", "select", "place", "draw", "over"];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Remove,
    Start,
    Deal,
    Select,
    Place,
    Draw,
    Over,
}

impl Phase {
    pub fn index(self) -> usize {
        self as usize
    }
    pub fn name(self) -> &'static str {
        PHASES[self.index()]
    }
}

/// A placed tile: its id, cell, rotation and the shapes it shows on its board sides N, E, S, W.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Placed {
    pub tile: u8,
    pub x: i8,
    pub y: i8,
    pub r: u8,
    pub shown: [u8; 4],
}

/// An empty cell next to the board, with the shape each of its sides must show (`NONE`: no neighbour there).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Open {
    pub x: i8,
    pub y: i8,
    pub req: [u8; 4],
}

const NO_OPEN: Open = Open {
    x: 0,
    y: 0,
    req: [NONE; 4],
};

pub const DX: [i32; 4] = [0, 1, 0, -1];
pub const DY: [i32; 4] = [1, 0, -1, 0];

#[inline]
pub fn place_id(x: i32, y: i32, r: u32) -> u32 {
    (((y + R) * W + (x + R)) as u32) * 4 + r
}

/// (x, y, r) of a placement id below `P`.
#[inline]
pub fn decode_place(a: u32) -> (i32, i32, u32) {
    let cell = (a / 4) as i32;
    (cell % W - R, cell / W - R, a % 4)
}

#[inline]
fn bits(mask: u64) -> impl Iterator<Item = usize> {
    let mut m = mask;
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let t = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(t)
        }
    })
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CaboodleState {
    pub cfg: &'static Config,
    pub phase: Phase,
    pub current: u8,
    pub final_round: bool,
    pub n_board: u8,
    pub n_open: u8,
    /// The selected tile in phase `place`, else `NONE`.
    pub selected: u8,
    pub board: [Placed; T],
    pub open: [Open; MAX_OPEN],
    /// Union-find over regions `slot x 4 + board side`.
    pub parent: [u8; 4 * T],
    pub size: [u8; 4 * T],
    pub hands: [u64; 4],
    pub bag: u64,
    pub removed: u64,
    pub scores: [i32; 4],
    pub n_hist: u8,
    pub hist: [u16; MAX_HISTORY],
    /// Per history entry: the recipient of a chance outcome (seat, `TO_REMOVED`, `TO_BOARD`) or `DECISION`.
    pub who: [u8; MAX_HISTORY],
}

impl CaboodleState {
    pub fn new(cfg: &'static Config) -> Self {
        CaboodleState {
            cfg,
            phase: if cfg.removals > 0 {
                Phase::Remove
            } else {
                Phase::Start
            },
            current: 0,
            final_round: false,
            n_board: 0,
            n_open: 0,
            selected: NONE,
            board: [Placed::default(); T],
            open: [NO_OPEN; MAX_OPEN],
            parent: [0; 4 * T],
            size: [0; 4 * T],
            hands: [0; 4],
            bag: (1u64 << T) - 1,
            removed: 0,
            scores: [0; 4],
            n_hist: 0,
            hist: [0; MAX_HISTORY],
            who: [DECISION; MAX_HISTORY],
        }
    }

    #[inline]
    pub fn n(&self) -> usize {
        self.cfg.players
    }

    pub fn history(&self) -> Vec<u32> {
        self.hist[..self.n_hist as usize]
            .iter()
            .map(|&a| a as u32)
            .collect()
    }

    pub fn board(&self) -> &[Placed] {
        &self.board[..self.n_board as usize]
    }

    pub fn selected(&self) -> Option<usize> {
        (self.selected != NONE).then_some(self.selected as usize)
    }

    fn slot_at(&self, x: i32, y: i32) -> Option<usize> {
        self.board()
            .iter()
            .position(|p| p.x as i32 == x && p.y as i32 == y)
    }

    #[inline]
    fn fits(&self, o: &Open, t: usize, r: usize) -> bool {
        let s = &self.cfg.shown[t][r];
        (0..4).all(|d| o.req[d] == NONE || o.req[d] == s[d])
    }

    #[inline]
    fn in_window(o: &Open) -> bool {
        (o.x as i32).abs() <= R && (o.y as i32).abs() <= R
    }

    /// Whether tile t has a legal placement (§5.2).
    pub fn has_placement(&self, t: usize) -> bool {
        self.open[..self.n_open as usize]
            .iter()
            .any(|o| Self::in_window(o) && (0..4).any(|r| self.fits(o, t, r)))
    }

    /// The legal placement ids of tile t, ascending.
    pub fn placements(&self, t: usize, out: &mut Vec<u32>) {
        out.clear();
        for o in &self.open[..self.n_open as usize] {
            if Self::in_window(o) {
                for r in 0..4 {
                    if self.fits(o, t, r) {
                        out.push(place_id(o.x as i32, o.y as i32, r as u32));
                    }
                }
            }
        }
        out.sort_unstable();
    }

    /// §5.3.
    pub fn can_place(&self, seat: usize) -> bool {
        bits(self.hands[seat]).any(|t| self.has_placement(t))
    }

    fn anyone_can_place(&self) -> bool {
        (0..self.n()).any(|s| self.can_place(s))
    }

    fn find(&mut self, mut a: usize) -> usize {
        while self.parent[a] as usize != a {
            let g = self.parent[self.parent[a] as usize];
            self.parent[a] = g;
            a = g as usize;
        }
        a
    }

    fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            let (big, small) = if self.size[ra] >= self.size[rb] {
                (ra, rb)
            } else {
                (rb, ra)
            };
            self.parent[small] = big as u8;
            self.size[big] += self.size[small];
        }
    }

    /// Puts tile t at (x, y) rotation r, makes the joins of §6.1 and returns the points of §6.2.
    fn put(&mut self, t: usize, x: i32, y: i32, r: usize) -> i32 {
        let slot = self.n_board as usize;
        if slot >= T {
            return 0;
        }
        let shown = self.cfg.shown[t % T][r % 4];
        self.board[slot] = Placed {
            tile: t as u8,
            x: x as i8,
            y: y as i8,
            r: r as u8,
            shown,
        };
        self.n_board += 1;
        for d in 0..4 {
            self.parent[slot * 4 + d] = (slot * 4 + d) as u8;
            self.size[slot * 4 + d] = 1;
        }
        match self.cfg.tiles.links {
            Links::Adjacent => {
                for d in 0..4 {
                    if shown[d] == shown[(d + 1) % 4] {
                        self.union(slot * 4 + d, slot * 4 + (d + 1) % 4);
                    }
                }
            }
            Links::All => {
                for a in 0..4 {
                    for b in a + 1..4 {
                        if shown[a] == shown[b] {
                            self.union(slot * 4 + a, slot * 4 + b);
                        }
                    }
                }
            }
            Links::None => {}
        }
        if let Some(k) = self.open[..self.n_open as usize]
            .iter()
            .position(|o| o.x as i32 == x && o.y as i32 == y)
        {
            self.n_open -= 1;
            self.open[k] = self.open[self.n_open as usize];
        }
        let mut touching = [false; 4];
        for d in 0..4 {
            let (nx, ny) = (x + DX[d], y + DY[d]);
            if let Some(ns) = self.slot_at(nx, ny) {
                self.union(slot * 4 + d, ns * 4 + (d + 2) % 4);
                touching[d] = true;
            } else if let Some(o) = self.open[..self.n_open as usize]
                .iter_mut()
                .find(|o| o.x as i32 == nx && o.y as i32 == ny)
            {
                o.req[(d + 2) % 4] = shown[d];
            } else if (self.n_open as usize) < MAX_OPEN {
                let mut req = [NONE; 4];
                req[(d + 2) % 4] = shown[d];
                self.open[self.n_open as usize] = Open {
                    x: nx as i8,
                    y: ny as i8,
                    req,
                };
                self.n_open += 1;
            }
        }
        let mut roots = [usize::MAX; 4];
        let mut points = 0;
        for d in 0..4 {
            if touching[d] {
                let root = self.find(slot * 4 + d);
                if !roots.contains(&root) {
                    roots[d] = root;
                    points += self.size[root] as i32;
                }
            }
        }
        points
    }

    /// The size of the group holding region (slot, side), for views and tests.
    pub fn group_size(&self, slot: usize, side: usize) -> u32 {
        let mut a = slot * 4 + side;
        while self.parent[a] as usize != a {
            a = self.parent[a] as usize;
        }
        self.size[a] as u32
    }

    /// §5.1 step 4 and §5.4: `from` is the seat whose turn ended, or `None` at the start of play.
    fn next_turn(&mut self, from: Option<usize>) {
        let n = self.n();
        let mut q = match from {
            Some(s) => {
                if self.hands[s] == 0 {
                    self.final_round = true;
                }
                s
            }
            None => {
                if !self.anyone_can_place() {
                    return self.finish(0);
                }
                self.current = 0;
                self.phase = Phase::Select;
                return;
            }
        };
        let s = q;
        let mut checked = None;
        loop {
            q = (q + 1) % n;
            if self.final_round && q == 0 {
                return self.finish(s);
            }
            let able = *checked.get_or_insert_with(|| self.anyone_can_place());
            if !able {
                return self.finish(s);
            }
            if self.hands[q] == 0 {
                continue;
            }
            self.current = q as u8;
            self.phase = Phase::Select;
            return;
        }
    }

    fn finish(&mut self, last: usize) {
        self.phase = Phase::Over;
        self.current = last as u8;
        if !self.cfg.rules2024 {
            for s in 0..self.n() {
                self.scores[s] -= 4 * self.hands[s].count_ones() as i32;
            }
        }
    }

    fn record(&mut self, action: u32, who: u8) {
        let i = self.n_hist as usize;
        if i < MAX_HISTORY {
            self.hist[i] = action as u16;
            self.who[i] = who;
            self.n_hist += 1;
        }
    }

    fn legal_into(&self, out: &mut Vec<u32>) {
        out.clear();
        match self.phase {
            Phase::Remove | Phase::Start | Phase::Deal | Phase::Draw => {
                out.extend(bits(self.bag).map(|t| t as u32));
            }
            Phase::Select => {
                let s = self.current as usize;
                out.extend(
                    bits(self.hands[s])
                        .filter(|&t| self.has_placement(t))
                        .map(|t| SELECT + t as u32),
                );
                if out.is_empty() {
                    out.push(PASS);
                }
            }
            Phase::Place => self.placements(self.selected as usize, out),
            Phase::Over => {}
        }
    }

    /// The seats' final-share estimate for cut-off rollouts: a logistic of each seat's lead over the best other
    /// seat, the 2023 end penalty counted as if the game ended now.
    fn estimate(&self, out: &mut [f64]) {
        let n = self.n();
        let mut proj = [0f64; 4];
        for s in 0..n {
            proj[s] = self.scores[s] as f64;
            if !self.cfg.rules2024 {
                proj[s] -= 4.0 * self.hands[s].count_ones() as f64;
            }
        }
        let mut total = 0.0;
        for s in 0..n {
            let best_other = (0..n)
                .filter(|&o| o != s)
                .map(|o| proj[o])
                .fold(f64::MIN, f64::max);
            out[s] = 1.0 / (1.0 + (-(proj[s] - best_other) / 6.0).exp());
            total += out[s];
        }
        if total > 0.0 {
            for o in out.iter_mut().take(n) {
                *o /= total;
            }
        }
    }

    /// Which chance entries of the history seat p does not see (§8.2).
    #[inline]
    pub fn hidden_from(&self, i: usize, p: usize) -> bool {
        let w = self.who[i];
        w == TO_REMOVED || ((w as usize) < 4 && w as usize != p)
    }

    /// §8.3: the resampled state (with its history inside).
    fn resample(&self, p: usize, rng: &mut Rng) -> CaboodleState {
        let len = self.n_hist as usize;
        let slots: Vec<usize> = (0..len).filter(|&i| self.hidden_from(i, p)).collect();
        let mut known = 0u64;
        for i in 0..len {
            if self.who[i] != DECISION && !self.hidden_from(i, p) {
                known |= 1u64 << self.hist[i];
            }
        }
        let m: Vec<u8> = (0..T as u8).filter(|&t| known >> t & 1 == 0).collect();
        // The `tile t` decisions of other seats: (position, seat, tile).
        let mut selects: Vec<(usize, u8, u8)> = Vec::new();
        {
            let mut seat_of_turn = CaboodleState::new(self.cfg);
            for i in 0..len {
                let a = self.hist[i] as u32;
                if self.who[i] == DECISION
                    && (SELECT..PASS).contains(&a)
                    && seat_of_turn.current as usize != p
                {
                    selects.push((i, seat_of_turn.current, (a - SELECT) as u8));
                }
                seat_of_turn.apply_unchecked(a);
            }
        }
        for _attempt in 0..100 {
            let mut pool = m.clone();
            let mut got: Vec<u8> = vec![NONE; slots.len()];
            for &(j, q, t) in &selects {
                let eligible: Vec<usize> = (0..slots.len())
                    .filter(|&k| slots[k] < j && self.who[slots[k]] == q && got[k] == NONE)
                    .collect();
                if eligible.is_empty() {
                    return *self;
                }
                let k = eligible[rng.below(eligible.len() as u64) as usize];
                got[k] = t;
                if let Some(pos) = pool.iter().position(|&x| x == t) {
                    pool.remove(pos);
                }
            }
            for g in got.iter_mut() {
                if *g == NONE {
                    if pool.is_empty() {
                        return *self;
                    }
                    let x = rng.below(pool.len() as u64) as usize;
                    *g = pool.remove(x);
                }
            }
            let mut hist: Vec<u32> = self.history();
            for (k, &i) in slots.iter().enumerate() {
                hist[i] = got[k] as u32;
            }
            let mut state = CaboodleState::new(self.cfg);
            let mut ok = true;
            for &a in &hist {
                if state.apply_action(a).is_err() {
                    ok = false;
                    break;
                }
            }
            if ok && state.phase == self.phase && state.current == self.current {
                return state;
            }
        }
        *self
    }
}

impl State for CaboodleState {
    fn current_player(&self) -> Player {
        match self.phase {
            Phase::Remove | Phase::Start | Phase::Deal | Phase::Draw => CHANCE,
            Phase::Select | Phase::Place => self.current as Player,
            Phase::Over => TERMINAL,
        }
    }

    fn legal_actions(&self, out: &mut Vec<u32>) {
        self.legal_into(out)
    }

    fn chance_weights(&self, out: &mut Vec<(u32, u64)>) {
        out.clear();
        if self.current_player() == CHANCE {
            out.extend(bits(self.bag).map(|t| (t as u32, 1)));
        }
    }

    fn is_legal(&self, action: u32) -> bool {
        match self.phase {
            Phase::Remove | Phase::Start | Phase::Deal | Phase::Draw => {
                (action as usize) < T && self.bag >> action & 1 == 1
            }
            Phase::Select => {
                let hand = self.hands[self.current as usize];
                if action == PASS {
                    !self.can_place(self.current as usize)
                } else if (SELECT..PASS).contains(&action) {
                    let t = (action - SELECT) as usize;
                    hand >> t & 1 == 1 && self.has_placement(t)
                } else {
                    false
                }
            }
            Phase::Place => {
                if action >= P {
                    return false;
                }
                let (x, y, r) = decode_place(action);
                self.open[..self.n_open as usize].iter().any(|o| {
                    o.x as i32 == x
                        && o.y as i32 == y
                        && Self::in_window(o)
                        && self.fits(o, self.selected as usize, r as usize)
                })
            }
            Phase::Over => false,
        }
    }

    fn apply_unchecked(&mut self, action: u32) {
        let bit = 1u64 << (action as usize % T);
        match self.phase {
            Phase::Remove => {
                self.record(action, TO_REMOVED);
                self.bag &= !bit;
                self.removed |= bit;
                if self.removed.count_ones() >= self.cfg.removals {
                    self.phase = Phase::Start;
                }
            }
            Phase::Start => {
                self.record(action, TO_BOARD);
                self.bag &= !bit;
                self.put(action as usize % T, 0, 0, 0);
                self.phase = Phase::Deal;
                self.current = 0;
            }
            Phase::Deal => {
                let s = self.current as usize;
                self.record(action, s as u8);
                self.bag &= !bit;
                self.hands[s] |= bit;
                if self.hands[s].count_ones() >= HAND {
                    if s + 1 == self.n() {
                        self.next_turn(None);
                    } else {
                        self.current += 1;
                    }
                }
            }
            Phase::Draw => {
                let s = self.current as usize;
                self.record(action, s as u8);
                self.bag &= !bit;
                self.hands[s] |= bit;
                self.next_turn(Some(s));
            }
            Phase::Select => {
                self.record(action, DECISION);
                let s = self.current as usize;
                if action == PASS {
                    if self.cfg.rules2024 {
                        self.scores[s] -= 4;
                    }
                    self.next_turn(Some(s));
                } else {
                    let t = (action.saturating_sub(SELECT) as usize) % T;
                    self.hands[s] &= !(1u64 << t);
                    self.selected = t as u8;
                    self.phase = Phase::Place;
                }
            }
            Phase::Place => {
                self.record(action, DECISION);
                let s = self.current as usize;
                let (x, y, r) = decode_place(action % P);
                let t = self.selected as usize % T;
                self.selected = NONE;
                let points = self.put(t, x, y, r as usize);
                self.scores[s] += points;
                if self.cfg.rules2024 && self.bag != 0 {
                    self.phase = Phase::Draw;
                } else {
                    self.next_turn(Some(s));
                }
            }
            Phase::Over => {}
        }
    }

    fn action_to_string(&self, action: u32) -> crate::Result<String> {
        notation::action_to_string(self, action)
    }

    fn string_to_action(&self, text: &str) -> crate::Result<u32> {
        notation::string_to_action(self, text)
    }

    fn returns(&self, out: &mut [f64]) {
        let n = if self.phase == Phase::Over {
            self.n()
        } else {
            0
        };
        crate::outcome::share_the_win(out, n, |s| self.scores[s] as i64);
    }

    fn scores(&self, out: &mut [f64]) {
        for (s, o) in out.iter_mut().enumerate().take(self.n()) {
            *o = self.scores[s] as f64;
        }
    }

    fn observation_tensor(&self, player: usize, out: &mut [f32]) {
        observation::tensor(self, player, out)
    }

    fn observation_string(&self, player: usize) -> String {
        observation::text(self, Some(player))
    }

    fn information_state_string(&self, player: usize, _history: &[u32]) -> String {
        let tokens: Vec<String> = (0..self.n_hist as usize)
            .map(|i| {
                if self.hidden_from(i, player) {
                    "?".to_string()
                } else {
                    self.hist[i].to_string()
                }
            })
            .collect();
        format!("seat={player} history={}", tokens.join(","))
    }

    fn serialize(&self, _history: &[u32]) -> String {
        serial::serialize(self)
    }

    fn resample_from_infostate(&self, player: usize, rng: &mut Rng) -> Self {
        self.resample(player, rng)
    }

    fn resample_with_history(
        &self,
        player: usize,
        _history: &[u32],
        rng: &mut Rng,
    ) -> (Self, Vec<u32>) {
        let s = self.resample(player, rng);
        let h = s.history();
        (s, h)
    }

    fn to_text(&self) -> String {
        observation::text(self, None)
    }

    fn heuristic_value(&self, out: &mut [f64]) {
        if self.phase == Phase::Over {
            self.returns(out)
        } else {
            out.iter_mut().for_each(|o| *o = 0.0);
            self.estimate(out)
        }
    }
}
