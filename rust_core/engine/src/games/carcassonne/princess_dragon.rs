//! The Princess and the Dragon (docs/rules/carcassonne.md §12): the dragon and its move, the fairy, the
//! princess, the magic portal and the figures beyond a tile's first.
//!
//! The per-slot figure byte of `Placed` keeps a tile's first figure, so the base game and the other
//! expansions read one byte as before; only the portal puts a second figure on a tile, and there are 6 portal
//! tiles, so the extra figures fit a small inline array here (a clone copies it with the state).

use super::board::{DX, DY};
use super::state::{
    fig_k, fig_seat, fig_weight, CarcassonneState, Phase, FOLLOWER, LARGE, MAX_PLAYERS,
};
use super::tiles::{CLOISTER, FCITY, FFIELD, FROAD, K, NONE};

/// No slot (the dragon or the fairy off the board).
pub const NO_SLOT: u16 = u16::MAX;
/// The most figures beyond a tile's first (§12.9): one per portal tile.
pub const MAX_EXTRA: usize = 6;
/// The dragon's steps in one move (§12.3).
pub const DRAGON_STEPS: usize = 6;
pub const DIRECTION_NAMES: [&str; 4] = ["N", "E", "S", "W"];

/// What a P&D id of the follower step does (§12.8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PdFigure {
    Portal,
    PortalLarge,
    Princess,
    Fairy,
}

pub const PD_FIGURE_NAMES: [&str; 4] = ["follower", "large", "princess", "fairy"];

impl PdFigure {
    pub fn name(self) -> &'static str {
        PD_FIGURE_NAMES[self as usize]
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pd {
    /// The figures on a slot besides the one in its `Placed::figure` byte: (slot, figure byte), sorted by
    /// (slot, k) so that equal positions compare equal.
    pub extra: [(u16, u8); MAX_EXTRA],
    pub n_extra: u8,
    /// The dragon's slot (NO_SLOT until a volcano is placed; it never leaves the board then).
    pub dragon: u16,
    /// The fairy's slot (NO_SLOT off the board) and the feature of the figure it is next to (NONE: nobody).
    pub fairy: u16,
    pub fairy_k: u8,
    /// Phase `dragon`: the slots visited in this move, the start first and the dragon's slot last.
    pub visited: [u16; DRAGON_STEPS + 1],
    pub n_visited: u8,
    /// Phase `dragon`: the seat whose turn it is (`current` is the seat choosing the step).
    pub turn: u8,
}

impl Default for Pd {
    fn default() -> Pd {
        Pd {
            extra: [(NO_SLOT, NONE); MAX_EXTRA],
            n_extra: 0,
            dragon: NO_SLOT,
            fairy: NO_SLOT,
            fairy_k: NONE,
            visited: [NO_SLOT; DRAGON_STEPS + 1],
            n_visited: 0,
            turn: 0,
        }
    }
}

impl Pd {
    pub fn extras(&self) -> &[(u16, u8)] {
        &self.extra[..self.n_extra as usize]
    }
    pub fn visited(&self) -> &[u16] {
        &self.visited[..self.n_visited as usize]
    }
}

impl CarcassonneState {
    /// The extra figure on feature k of `slot` (the byte did not hold it), else NONE.
    #[cold]
    pub fn extra_at(&self, slot: usize, k: u8) -> u8 {
        self.pd
            .extras()
            .iter()
            .find(|&&(s, f)| s as usize == slot && fig_k(f) == k)
            .map_or(NONE, |&(_, f)| f)
    }

    /// Every figure on the board as (slot, figure byte), the bytes by slot first, then the extras.
    pub fn each_figure(&self) -> impl Iterator<Item = (usize, u8)> + '_ {
        let bytes = self
            .board
            .slots
            .iter()
            .enumerate()
            .filter(|(_, p)| p.figure != NONE)
            .map(|(i, p)| (i, p.figure));
        bytes.chain(self.pd.extras().iter().map(|&(s, f)| (s as usize, f)))
    }

    /// Every figure sorted by (slot, k): what serialization and the observation list.
    pub fn figures_sorted(&self) -> Vec<(usize, u8)> {
        let mut v: Vec<(usize, u8)> = self.each_figure().collect();
        v.sort_unstable_by_key(|&(s, f)| (s, fig_k(f)));
        v
    }

    /// Equal P&D positions (the board included): which of a tile's figures sits in its byte depends on the
    /// order they came in, so the figures are compared as sorted lists.
    pub fn pd_position_eq(&self, o: &CarcassonneState) -> bool {
        let bare = |s: &CarcassonneState| {
            s.board
                .slots
                .iter()
                .map(|p| (p.typ, p.rot, p.nb8, p.x, p.y))
                .collect::<Vec<_>>()
        };
        let (a, b) = (&self.pd, &o.pd);
        (a.dragon, a.fairy, a.fairy_k, a.visited, a.n_visited, a.turn)
            == (b.dragon, b.fairy, b.fairy_k, b.visited, b.n_visited, b.turn)
            && bare(self) == bare(o)
            && self.figures_sorted() == o.figures_sorted()
    }

    /// A figure beyond the slot's first (the caller checked there is room).
    pub fn push_extra(&mut self, slot: usize, f: u8) {
        let n = self.pd.n_extra as usize;
        if n >= MAX_EXTRA {
            return;
        }
        let key = (slot as u16, fig_k(f));
        let at = (0..n)
            .find(|&i| (self.pd.extra[i].0, fig_k(self.pd.extra[i].1)) > key)
            .unwrap_or(n);
        self.pd.extra.copy_within(at..n, at + 1);
        self.pd.extra[at] = (slot as u16, f);
        self.pd.n_extra += 1;
    }

    /// After the figure on feature k of `slot` left the board: the byte takes the slot's extra figure if
    /// there is one (so an empty byte still means an empty tile), and the fairy next to it stays next to
    /// nobody (§12.6).
    pub fn figure_left(&mut self, slot: usize, k: u8) {
        let byte_empty = self.board.slots[slot].figure == NONE;
        let pd = &mut self.pd;
        if pd.fairy as usize == slot && pd.fairy_k == k {
            pd.fairy_k = NONE;
        }
        let n = pd.n_extra as usize;
        // The byte emptied: the slot's extra figure (if any) moves into it; else the figure was an extra.
        if let Some(i) = (0..n).find(|&i| {
            let (s, f) = pd.extra[i];
            s as usize == slot && (byte_empty || fig_k(f) == k)
        }) {
            let (_, f) = pd.extra[i];
            pd.extra.copy_within(i + 1..n, i);
            pd.extra[n - 1] = (NO_SLOT, NONE);
            pd.n_extra -= 1;
            if byte_empty {
                self.board.slots[slot].figure = f;
            }
        }
    }

    /// Take the figure on feature k of `slot` off the board, back to its owner's supply (no scoring).
    pub fn remove_figure(&mut self, slot: usize, k: u8) {
        let f = self.fig_at(slot, k);
        if f == NONE {
            return;
        }
        self.give_back(f);
        if fig_weight(f) > 0 {
            let root = self.segs.find(self.seg(slot, k as usize));
            let nf = &mut self.segs.segs[root].nfol;
            *nf = nf.saturating_sub(1);
        }
        self.clear_fig(slot, k);
    }

    /// §12.7: builders and pigs whose component no longer holds a follower of their owner go home.
    pub fn return_orphans(&mut self) {
        for slot in 0..self.board.slots.len() {
            let f = self.board.slots[slot].figure;
            if f == NONE || fig_weight(f) > 0 {
                continue;
            }
            let root = self.segs.root(self.seg(slot, fig_k(f) as usize));
            if !self.holds_follower_of(root, fig_seat(f)) {
                self.remove_figure(slot, fig_k(f));
            }
        }
    }

    #[inline]
    pub fn volcano_on_board(&self) -> bool {
        self.pd.dragon != NO_SLOT
    }

    /// §12.1: while no volcano is on the board the dragon tiles wait, unless nothing else is left.
    pub fn dragon_tiles_held_back(&self) -> bool {
        self.cfg.pd
            && !self.volcano_on_board()
            && self
                .land_types()
                .any(|t| self.pile[t] > 0 && !self.tt(t as u8).dragon)
    }

    /// Whether no figure may go on `slot`: a volcano tile or the dragon's tile (§12.2).
    pub fn figure_barred(&self, slot: usize) -> bool {
        self.tt(self.board.slots[slot].typ).volcano || self.pd.dragon as usize == slot
    }

    /// The fairy's 1 point when seat s's turn begins (§12.6).
    pub fn fairy_turn_point(&mut self, s: usize) {
        if self.pd.fairy_k == NONE {
            return;
        }
        let f = self.fig_at(self.pd.fairy as usize, self.pd.fairy_k);
        if f != NONE && fig_seat(f) == s {
            self.scores[s] += 1;
        }
    }

    /// The fairy's 3 points when the component of root `root` is scored during play (§12.6): its follower
    /// is one of the component's figures. Called before the figures leave.
    pub fn fairy_scoring_bonus(&mut self, root: usize) {
        if self.pd.fairy_k == NONE {
            return;
        }
        let (slot, k) = (self.pd.fairy as usize, self.pd.fairy_k);
        let f = self.fig_at(slot, k);
        if f != NONE && self.segs.root(self.seg(slot, k as usize)) == root {
            self.scores[fig_seat(f)] += 3;
        }
    }

    /// `out` with the fairy's 3 for the owner of the follower it is next to, if any (§12.6: the final scoring).
    pub fn fairy_final_bonus(&self, mut out: [u32; MAX_PLAYERS]) -> [u32; MAX_PLAYERS] {
        if self.pd.fairy_k != NONE {
            let f = self.fig_at(self.pd.fairy as usize, self.pd.fairy_k);
            if f != NONE {
                out[fig_seat(f)] += 3;
            }
        }
        out
    }

    // ----- the follower step's P&D options (§12.4-§12.6) -----

    /// The P&D figure, slot and feature of a follower-step id, if it is one (§12.8).
    pub fn pd_action(&self, a: u32) -> Option<(PdFigure, usize, usize)> {
        let cfg = self.cfg;
        if !cfg.pd || a < cfg.portal_base() || a >= cfg.dragon_base() {
            return None;
        }
        let (fig, off) = if a >= cfg.fairy_base() {
            (PdFigure::Fairy, a - cfg.fairy_base())
        } else if a >= cfg.princess_base() {
            (PdFigure::Princess, a - cfg.princess_base())
        } else if a >= cfg.portal_large_base() {
            (PdFigure::PortalLarge, a - cfg.portal_large_base())
        } else {
            (PdFigure::Portal, a - cfg.portal_base())
        };
        Some((fig, (off / K as u32) as usize, (off % K as u32) as usize))
    }

    pub fn pd_id(&self, fig: PdFigure, slot: usize, k: usize) -> u32 {
        let base = match fig {
            PdFigure::Portal => self.cfg.portal_base(),
            PdFigure::PortalLarge => self.cfg.portal_large_base(),
            PdFigure::Princess => self.cfg.princess_base(),
            PdFigure::Fairy => self.cfg.fairy_base(),
        };
        base + (slot * K + k) as u32
    }

    /// Whether feature k of the earlier tile `slot` takes a follower through the portal (§12.5): a free,
    /// incomplete feature of a tile that is neither a volcano nor the dragon's, with room for the figure.
    fn portal_target(&self, slot: usize, k: usize) -> bool {
        if slot >= self.last_slot() || self.figure_barred(slot) {
            return false;
        }
        let p = self.board.slots[slot];
        let tt = self.tt(p.typ);
        if k >= tt.features.len() {
            return false;
        }
        if p.figure != NONE && self.pd.n_extra as usize >= MAX_EXTRA {
            return false;
        }
        let root = self.segs.root(self.seg(slot, k));
        let sg = &self.segs.segs[root];
        if sg.nfol > 0 {
            return false;
        }
        match tt.features[k].kind {
            CLOISTER => p.nb8 < 8,
            FCITY | FROAD => sg.open > 0,
            FFIELD => true,
            _ => false,
        }
    }

    fn portal_open(&self, large: bool) -> bool {
        let seat = self.current as usize;
        let last = self.last_slot();
        self.phase == Phase::Follower
            && last > 0
            && self.tt(self.board.slots[last].typ).portal
            && if large {
                self.cfg.ic && self.large_supply[seat] > 0
            } else {
                self.supply[seat] > 0
            }
    }

    /// Whether the follower on feature k of `slot` is in a princess city of the tile just placed (§12.4).
    fn princess_target(&self, slot: usize, k: usize) -> bool {
        if self.phase != Phase::Follower || slot >= self.board.slots.len() || k >= K {
            return false;
        }
        let f = self.fig_at(slot, k as u8);
        if f == NONE || fig_weight(f) == 0 {
            return false;
        }
        let root = self.segs.root(self.seg(slot, k));
        let last = self.last_slot();
        let tt = self.tt(self.board.slots[last].typ);
        (0..tt.features.len())
            .any(|j| tt.features[j].princess && self.segs.root(self.seg(last, j)) == root)
    }

    /// Whether the fairy may go next to the follower on feature k of `slot` (§12.6).
    fn fairy_target(&self, slot: usize, k: usize) -> bool {
        if self.phase != Phase::Follower || slot >= self.board.slots.len() || k >= K {
            return false;
        }
        let f = self.fig_at(slot, k as u8);
        f != NONE
            && fig_weight(f) > 0
            && fig_seat(f) == self.current as usize
            && !(self.pd.fairy as usize == slot && self.pd.fairy_k as usize == k)
    }

    pub fn pd_figure_legal(&self, a: u32) -> bool {
        let Some((fig, slot, k)) = self.pd_action(a) else {
            return false;
        };
        match fig {
            PdFigure::Portal => self.portal_open(false) && self.portal_target(slot, k),
            PdFigure::PortalLarge => self.portal_open(true) && self.portal_target(slot, k),
            PdFigure::Princess => self.princess_target(slot, k),
            PdFigure::Fairy => self.fairy_target(slot, k),
        }
    }

    /// The P&D options of the follower step, appended in ascending id order.
    pub fn pd_follower_options(&self, out: &mut Vec<u32>) {
        let last = self.last_slot();
        for (fig, large) in [(PdFigure::Portal, false), (PdFigure::PortalLarge, true)] {
            if !self.portal_open(large) {
                continue;
            }
            for slot in 0..last {
                for k in 0..self.tt(self.board.slots[slot].typ).features.len() {
                    if self.portal_target(slot, k) {
                        out.push(self.pd_id(fig, slot, k));
                    }
                }
            }
        }
        let start = out.len();
        let tt = self.tt(self.board.slots[last].typ);
        let mut roots = [usize::MAX; 8];
        for j in 0..tt.features.len() {
            if !tt.features[j].princess {
                continue;
            }
            let root = self.segs.root(self.seg(last, j));
            if self.segs.segs[root].nfol == 0 || roots.contains(&root) {
                continue;
            }
            roots[j] = root;
            for m in self.segs.members(root) {
                let sg = self.segs.segs[m];
                let f = self.fig_at(sg.slot as usize, sg.k);
                if f != NONE && fig_weight(f) > 0 {
                    out.push(self.pd_id(PdFigure::Princess, sg.slot as usize, sg.k as usize));
                }
            }
        }
        out[start..].sort_unstable();
        let start = out.len();
        let seat = self.current as usize;
        for (slot, f) in self.each_figure() {
            let k = fig_k(f) as usize;
            if fig_weight(f) > 0 && fig_seat(f) == seat && self.fairy_target(slot, k) {
                out.push(self.pd_id(PdFigure::Fairy, slot, k));
            }
        }
        out[start..].sort_unstable();
    }

    /// Carry out a P&D follower-step option (the caller checked it is legal).
    pub fn apply_pd_figure(&mut self, a: u32) {
        let Some((fig, slot, k)) = self.pd_action(a) else {
            return;
        };
        let seat = self.current as usize;
        match fig {
            PdFigure::Portal => self.set_figure(slot, k, seat, FOLLOWER),
            PdFigure::PortalLarge => self.set_figure(slot, k, seat, LARGE),
            PdFigure::Princess => {
                self.remove_figure(slot, k as u8);
                self.return_orphans();
            }
            PdFigure::Fairy => {
                self.pd.fairy = slot as u16;
                self.pd.fairy_k = k as u8;
            }
        }
    }

    // ----- the dragon (§12.2, §12.3) -----

    /// The slot the dragon would enter with a step in direction d, if the step is legal now.
    pub fn dragon_step_target(&self, d: usize) -> Option<usize> {
        if d >= 4 || self.pd.n_visited == 0 {
            return None;
        }
        let p = self.board.slots[self.pd.dragon as usize];
        let to = self.board.slot_at(p.x as i32 + DX[d], p.y as i32 + DY[d])?;
        let to16 = to as u16;
        (to16 != self.pd.fairy && !self.pd.visited().contains(&to16)).then_some(to)
    }

    pub fn dragon_can_step(&self) -> bool {
        (self.pd.n_visited as usize) <= DRAGON_STEPS
            && (0..4).any(|d| self.dragon_step_target(d).is_some())
    }

    /// After the follower step of a dragon tile with the dragon on the board: phase `dragon` if it can
    /// move (true), else nothing happens.
    pub fn start_dragon_move(&mut self) -> bool {
        let last = self.last_slot();
        if !self.tt(self.board.slots[last].typ).dragon || !self.volcano_on_board() {
            return false;
        }
        self.pd.visited = [NO_SLOT; DRAGON_STEPS + 1];
        self.pd.visited[0] = self.pd.dragon;
        self.pd.n_visited = 1;
        self.pd.turn = self.current;
        if self.dragon_can_step() {
            self.phase = Phase::Dragon;
            return true;
        }
        self.end_dragon_move();
        false
    }

    /// The move's record is cleared, so that positions compare equal whatever move led to them.
    fn end_dragon_move(&mut self) {
        self.pd.n_visited = 0;
        self.pd.visited = [NO_SLOT; DRAGON_STEPS + 1];
        self.current = self.pd.turn;
        self.pd.turn = 0;
    }

    /// One step (the caller checked it is legal); returns true when the move is over.
    pub fn dragon_step(&mut self, d: usize) -> bool {
        let Some(to) = self.dragon_step_target(d) else {
            return false;
        };
        self.pd.dragon = to as u16;
        self.pd.visited[self.pd.n_visited as usize] = to as u16;
        self.pd.n_visited += 1;
        let mut ks = [NONE; 8];
        let mut n = 0;
        for (slot, f) in self.each_figure() {
            if slot == to && n < ks.len() {
                ks[n] = fig_k(f);
                n += 1;
            }
        }
        for &k in &ks[..n] {
            self.remove_figure(to, k);
        }
        if n > 0 {
            self.return_orphans();
        }
        let steps = self.pd.n_visited as usize - 1;
        if steps >= DRAGON_STEPS || !self.dragon_can_step() {
            self.end_dragon_move();
            return true;
        }
        self.current = ((self.pd.turn as usize + steps) % self.n()) as u8;
        false
    }

    /// The steps the dragon has left in this move (0 outside phase `dragon`).
    pub fn dragon_steps_left(&self) -> usize {
        if self.phase == Phase::Dragon {
            DRAGON_STEPS + 1 - self.pd.n_visited as usize
        } else {
            0
        }
    }
}
