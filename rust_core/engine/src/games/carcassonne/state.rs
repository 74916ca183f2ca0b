//! The rules (docs/rules/carcassonne.md §4-§6): phases, placements, followers and scoring.

use super::board::{Board, DX, DY};
use super::features::Segs;
use super::tiles::{
    self, tile, TileType, CLOISTER, FCITY, FFIELD, FROAD, K, LAKE, LAND, NONE, RIVER, T,
};
use super::Config;

pub const MAX_PLAYERS: usize = 5;
pub const FOLLOWERS: u8 = 7;
pub const RIGHT: u8 = 1;
pub const LEFT: u8 = 2;
const N8: [(i32, i32); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Deal,
    Draw,
    Select,
    Place,
    Follower,
    Over,
}

pub const PHASES: [&str; 6] = ["deal", "draw", "select", "place", "follower", "over"];

impl Phase {
    pub fn index(self) -> usize {
        self as usize
    }
    pub fn name(self) -> &'static str {
        PHASES[self as usize]
    }
    pub fn from_name(s: &str) -> Option<Phase> {
        use Phase::*;
        [Deal, Draw, Select, Place, Follower, Over]
            .into_iter()
            .find(|p| p.name() == s)
    }
}

/// Which pile is drawn from (§4.1): the land tiles, the river tiles but the lake, or the lake.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CurrentPile {
    Land,
    River,
    Lake,
}

impl CurrentPile {
    #[inline]
    pub fn contains(self, t: usize) -> bool {
        match self {
            CurrentPile::Land => t < LAND,
            CurrentPile::River => t >= LAND && t != LAKE as usize,
            CurrentPile::Lake => t == LAKE as usize,
        }
    }
}

#[derive(Clone, Debug)]
pub struct CarcassonneState {
    pub cfg: &'static Config,
    pub phase: Phase,
    pub current: u8,
    /// The type to place in phase `place`, else NONE.
    pub tile: u8,
    pub to_draw: u8,
    /// The direction of the river's last turn (0 none yet, RIGHT, LEFT).
    pub last_turn: u8,
    /// The river's open end: the cell in front of it and the direction from the last river tile to it.
    pub river_end: Option<(i32, i32, u8)>,
    pub pile: [u8; T],
    pub set_aside: [u8; T],
    pub hands: [[u8; T]; MAX_PLAYERS],
    pub scores: [u32; MAX_PLAYERS],
    pub supply: [u8; MAX_PLAYERS],
    pub board: Board,
    pub segs: Segs,
    /// The slots of the 8 cells around the last placed tile (order of N8), u16::MAX where empty: what
    /// scoring looks at for completed cloisters, found once when the tile is put.
    pub last_nb: [u16; 8],
}

/// Positions are equal when their facts are: the board, hash and features are derived from the placements
/// (their internal layout, such as union-find paths, depends on the order of finds, not on the position).
impl PartialEq for CarcassonneState {
    fn eq(&self, o: &Self) -> bool {
        std::ptr::eq(self.cfg, o.cfg)
            && self.phase == o.phase
            && self.current == o.current
            && self.tile == o.tile
            && self.to_draw == o.to_draw
            && self.last_turn == o.last_turn
            && self.river_end == o.river_end
            && self.pile == o.pile
            && self.set_aside == o.set_aside
            && self.hands == o.hands
            && self.scores == o.scores
            && self.supply == o.supply
            && self.board.slots == o.board.slots
    }
}

impl Eq for CarcassonneState {}

impl CarcassonneState {
    /// The state after the first tile, before anything is dealt or drawn.
    pub fn empty(cfg: &'static Config) -> CarcassonneState {
        let mut s = CarcassonneState {
            cfg,
            phase: Phase::Draw,
            current: 0,
            tile: NONE,
            to_draw: 0,
            last_turn: 0,
            river_end: None,
            pile: cfg.pile,
            set_aside: [0; T],
            hands: [[0; T]; MAX_PLAYERS],
            scores: [0; MAX_PLAYERS],
            supply: [0; MAX_PLAYERS],
            board: Board::new(cfg.r),
            segs: Segs::with_capacity(cfg.r as usize + 1),
            last_nb: [u16::MAX; 8],
        };
        for p in 0..cfg.players {
            s.supply[p] = FOLLOWERS;
        }
        s.put(cfg.start, 0, 0, 0);
        s
    }

    pub fn new(cfg: &'static Config) -> CarcassonneState {
        let mut s = Self::empty(cfg);
        if cfg.strategic && s.land_left() > 0 {
            s.phase = Phase::Deal;
        } else {
            s.advance_from(0);
        }
        s
    }

    #[inline]
    pub fn n(&self) -> usize {
        self.cfg.players
    }

    pub fn land_left(&self) -> u32 {
        self.pile[..LAND].iter().map(|&c| c as u32).sum()
    }
    pub fn river_left(&self) -> bool {
        self.pile[LAND..].iter().any(|&c| c > 0)
    }
    pub fn pile_total(&self) -> u32 {
        self.pile.iter().map(|&c| c as u32).sum()
    }
    pub fn hand_size(&self, s: usize) -> u32 {
        self.hands[s].iter().map(|&c| c as u32).sum()
    }
    fn hands_empty(&self) -> bool {
        (0..self.n()).all(|s| self.hand_size(s) == 0)
    }

    /// Whether type t belongs to the pile drawn from now (§4.1).
    pub fn in_current_pile(&self, t: usize) -> bool {
        self.current_pile().contains(t)
    }

    /// The pile drawn from now (§4.1), worked out once for a pass over the types.
    pub fn current_pile(&self) -> CurrentPile {
        if self.phase == Phase::Deal || !self.river_left() {
            return CurrentPile::Land;
        }
        if (LAND..T).any(|u| u != LAKE as usize && self.pile[u] > 0) {
            CurrentPile::River
        } else {
            CurrentPile::Lake
        }
    }

    /// The types drawable now, with their counts (ascending by type).
    #[inline]
    pub fn drawable(&self) -> impl Iterator<Item = (usize, u8)> + '_ {
        let cp = self.current_pile();
        let range = match cp {
            CurrentPile::Land => 0..LAND,
            CurrentPile::River => LAND..T,
            CurrentPile::Lake => LAKE as usize..LAKE as usize + 1,
        };
        let river = cp == CurrentPile::River;
        range
            .filter(move |&t| self.pile[t] > 0 && !(river && t == LAKE as usize))
            .map(|t| (t, self.pile[t]))
    }

    pub fn current_pile_empty(&self) -> bool {
        self.drawable().next().is_none()
    }

    // ----- placements -----

    /// Whether a river tile with rotation r entering through board edge e_in respects the turn rule.
    fn river_ok(&self, tt: &TileType, r: usize, e_in: usize) -> bool {
        if tt.edge(r, e_in) != RIVER {
            return false;
        }
        let flow = (e_in + 2) % 4;
        for d in 0..4 {
            if d != e_in && tt.edge(r, d) == RIVER {
                if d == flow {
                    return true;
                }
                let turn = if d == (flow + 1) % 4 { RIGHT } else { LEFT };
                return turn != self.last_turn;
            }
        }
        true
    }

    /// The open position at the river's end and the rotations (bit r) a river tile of type tt may take there.
    fn river_fits(&self, tt: &TileType) -> Option<(u32, u32)> {
        let (x, y, d) = self.river_end?;
        let o = &self.board.open[self.board.open_at(x, y)?];
        let e_in = (d as usize + 2) % 4;
        let mut bits = Board::fitting(o, tt);
        for r in 0..4 {
            if bits & (1 << r) != 0 && !self.river_ok(tt, r, e_in) {
                bits &= !(1 << r);
            }
        }
        Some((o.cell, bits))
    }

    /// Every legal placement of type t as action ids in ascending order, appended to `out`.
    pub fn placements(&self, t: u8, out: &mut Vec<u32>) {
        let tt = tile(t);
        if tt.is_river() {
            if let Some((cell, bits)) = self.river_fits(tt) {
                for r in 0..4 {
                    if bits & (1 << r) != 0 {
                        out.push(cell * 4 + r);
                    }
                }
            }
            return;
        }
        // The open positions that take the tile, as cell << 4 | rotations, sorted by cell; then each
        // expanded in place from the back (an entry's placements start at or after its own index).
        let start = out.len();
        let mut total = 0usize;
        for o in &self.board.open {
            let bits = Board::fitting(o, tt);
            if bits != 0 {
                out.push(o.cell << 4 | bits);
                total += bits.count_ones() as usize;
            }
        }
        let found = out.len() - start;
        out[start..].sort_unstable();
        out.resize(start + total, 0);
        let mut end = start + total;
        for i in (start..start + found).rev() {
            let e = out[i];
            let (cell, bits) = (e >> 4, e & 15);
            for r in (0..4).rev() {
                if bits & (1 << r) != 0 {
                    end -= 1;
                    out[end] = cell * 4 + r;
                }
            }
        }
    }

    pub fn placeable(&self, t: u8) -> bool {
        let tt = tile(t);
        if tt.is_river() {
            return self.river_fits(tt).is_some_and(|(_, bits)| bits != 0);
        }
        self.board.open.iter().any(|o| Board::fitting(o, tt) != 0)
    }

    pub fn placement_legal(&self, t: u8, action: u32) -> bool {
        let (cell, r) = (action / 4, (action % 4) as usize);
        let (x, y) = self.board.xy(cell);
        let Some(o) = self.board.open_at(x, y) else {
            return false;
        };
        let tt = tile(t);
        if !Board::fits(&self.board.open[o], tt, r) {
            return false;
        }
        if tt.is_river() {
            match self.river_end {
                Some((ex, ey, d)) if ex == x && ey == y => {
                    self.river_ok(tt, r, (d as usize + 2) % 4)
                }
                _ => false,
            }
        } else {
            true
        }
    }

    /// Put a tile on the board and join its features (no scoring); returns its slot.
    pub fn put(&mut self, t: u8, r: u8, x: i32, y: i32) -> usize {
        let tt = tile(t);
        let base = self.segs.add_slot(
            self.board.slots.len(),
            tt.features.iter().map(|f| match f.kind {
                FCITY | FROAD => f.edges.count_ones() as u16,
                _ => 0,
            }),
        );
        let (slot, nb) = self.board.place(t, r, x, y, base);
        let ru = r as usize;
        for (i, (dx, dy)) in N8.into_iter().enumerate() {
            self.last_nb[i] = u16::MAX;
            if let Some(s) = self.board.slot_at(x + dx, y + dy) {
                self.last_nb[i] = s as u16;
                self.board.slots[s].nb8 += 1;
                self.board.slots[slot].nb8 += 1;
            }
        }
        for d in 0..4 {
            let Some(n) = nb[d] else { continue };
            let p = self.board.slots[n];
            let nt = tile(p.typ);
            let nr = p.rot as usize;
            let back = (d + 2) % 4;
            let letter = tt.edge(ru, d);
            if letter == tiles::CITY || letter == tiles::ROAD {
                let (f, g) = (tt.edge_feature[ru][d], nt.edge_feature[nr][back]);
                if f != NONE && g != NONE {
                    let a = self.seg(slot, f as usize);
                    let b = self.seg(n, g as usize);
                    let root = self.segs.union(a, b);
                    let o = &mut self.segs.segs[root].open;
                    *o = o.saturating_sub(2);
                }
            }
            if letter != tiles::CITY {
                for h in [2 * d, 2 * d + 1] {
                    let nh = ((h ^ 1) + 4) % 8;
                    let (f, g) = (tt.half_feature[ru][h], nt.half_feature[nr][nh]);
                    if f != NONE && g != NONE {
                        let a = self.seg(slot, f as usize);
                        let b = self.seg(n, g as usize);
                        self.segs.union(a, b);
                    }
                }
            }
        }
        if tt.is_river() {
            let mut end = None;
            for d in 0..4 {
                if tt.edge(ru, d) == RIVER && nb[d].is_none() {
                    end = Some((x + DX[d], y + DY[d], d as u8));
                }
            }
            if let (Some((_, _, dprev)), Some((_, _, dout))) = (self.river_end, end) {
                let flow = dprev;
                if dout == (flow + 1) % 4 {
                    self.last_turn = RIGHT;
                } else if dout == (flow + 3) % 4 {
                    self.last_turn = LEFT;
                }
            }
            self.river_end = end;
        }
        slot
    }

    // ----- followers -----

    /// The segment of feature k of the tile in `slot`.
    #[inline]
    pub fn seg(&self, slot: usize, k: usize) -> usize {
        self.board.slots[slot].base as usize + k
    }

    pub fn last_slot(&self) -> usize {
        self.board.slots.len() - 1
    }

    /// The number of features of the last tile a follower may go on now (0 if none may), checked once for a
    /// pass over the features.
    fn follower_candidates(&self) -> usize {
        let seat = self.current as usize;
        let slot = self.last_slot();
        if self.phase != Phase::Follower
            || slot == 0 && self.board.slots.len() == 1
            || self.supply[seat] == 0
            || self.board.slots[slot].follower != NONE
        {
            return 0;
        }
        tile(self.board.slots[slot].typ).features.len()
    }

    /// Whether feature k of the last tile, below `follower_candidates`, has no follower yet.
    #[inline]
    fn feature_free(&self, k: usize) -> bool {
        let root = self.segs.root(self.seg(self.last_slot(), k));
        self.segs.segs[root].nfol == 0
    }

    pub fn follower_legal(&self, k: usize) -> bool {
        k < self.follower_candidates() && self.feature_free(k)
    }

    pub fn set_follower(&mut self, slot: usize, k: usize, seat: usize) {
        self.board.slots[slot].follower = (8 * k + seat) as u8;
        self.supply[seat] = self.supply[seat].saturating_sub(1);
        let root = self.segs.find(self.seg(slot, k));
        self.segs.segs[root].nfol += 1;
    }

    // ----- scoring -----

    fn kind_of_seg(&self, seg: usize) -> u8 {
        let s = self.segs.segs[seg];
        tile(self.board.slots[s.slot as usize].typ).features[s.k as usize].kind
    }

    /// Followers per seat, distinct tiles and pennants of the component of root r.
    fn census(&self, root: usize) -> ([u8; MAX_PLAYERS], u32, u32) {
        let mut counts = [0u8; MAX_PLAYERS];
        let (mut tiles_n, mut pennants) = (0u32, 0u32);
        for m in self.segs.members(root) {
            let sg = self.segs.segs[m];
            let slot = sg.slot as usize;
            let tt = tile(self.board.slots[slot].typ);
            let f = &tt.features[sg.k as usize];
            if f.pennant {
                pennants += 1;
            }
            let dup = (0..sg.k as usize).any(|k2| {
                tt.features[k2].kind == f.kind && self.segs.root(self.seg(slot, k2)) == root
            });
            if !dup {
                tiles_n += 1;
            }
            let fo = self.board.slots[slot].follower;
            if fo != NONE && fo / 8 == sg.k {
                counts[(fo % 8) as usize] += 1;
            }
        }
        (counts, tiles_n, pennants)
    }

    fn award(&self, counts: &[u8; MAX_PLAYERS], points: u32, out: &mut [u32; MAX_PLAYERS]) {
        let best = *counts.iter().max().unwrap_or(&0);
        if best == 0 {
            return;
        }
        for s in 0..self.n() {
            if counts[s] == best {
                out[s] += points;
            }
        }
    }

    /// Return the followers of the component of root r to their owners.
    fn release(&mut self, root: usize) {
        for m in self.segs.members(root) {
            let sg = self.segs.segs[m];
            let slot = sg.slot as usize;
            let fo = self.board.slots[slot].follower;
            if fo != NONE && fo / 8 == sg.k {
                self.supply[(fo % 8) as usize] += 1;
                self.board.slots[slot].follower = NONE;
            }
        }
        self.segs.segs[root].nfol = 0;
    }

    /// §4.1 step 4: score what the tile in `slot` completed.
    pub fn score_completed(&mut self, slot: usize) {
        let p = self.board.slots[slot];
        let tt = tile(p.typ);
        let mut done: [usize; 8] = [usize::MAX; 8];
        for k in 0..tt.features.len() {
            let kind = tt.features[k].kind;
            if kind != FCITY && kind != FROAD {
                continue;
            }
            let root = self.segs.find(self.seg(slot, k));
            if self.segs.segs[root].open != 0 || done.contains(&root) {
                continue;
            }
            done[k.min(7)] = root;
            if self.segs.segs[root].nfol == 0 {
                continue;
            }
            let (counts, n, pen) = self.census(root);
            let points = if kind == FCITY { 2 * n + 2 * pen } else { n };
            let mut sc = self.scores;
            self.award(&counts, points, &mut sc);
            self.scores = sc;
            self.release(root);
        }
        let (x, y) = (p.x as i32, p.y as i32);
        let around = |i: usize| {
            if slot == self.last_slot() {
                Some(self.last_nb[i])
                    .filter(|&s| s != u16::MAX)
                    .map(|s| s as usize)
            } else {
                let (dx, dy) = N8[i];
                self.board.slot_at(x + dx, y + dy)
            }
        };
        let mut cells = [None; 9];
        cells[0] = Some(slot);
        for (i, c) in cells[1..].iter_mut().enumerate() {
            *c = around(i);
        }
        for s in cells {
            let Some(s) = s else {
                continue;
            };
            if !tile(self.board.slots[s].typ).cloister || self.board.slots[s].nb8 != 8 {
                continue;
            }
            let fo = self.board.slots[s].follower;
            if fo != NONE && fo / 8 == 0 {
                self.scores[(fo % 8) as usize] += 9;
                self.supply[(fo % 8) as usize] += 1;
                self.board.slots[s].follower = NONE;
                let seg = self.seg(s, 0);
                self.segs.segs[seg].nfol = 0;
            }
        }
    }

    /// The points the end of the game would add now (§6.2), per seat.
    pub fn end_points(&self) -> [u32; MAX_PLAYERS] {
        let mut out = [0u32; MAX_PLAYERS];
        let mut seen: Vec<usize> = Vec::new();
        for slot in 0..self.board.slots.len() {
            let fo = self.board.slots[slot].follower;
            if fo == NONE {
                continue;
            }
            let k = (fo / 8) as usize;
            let root = self.segs.root(self.seg(slot, k));
            if seen.contains(&root) {
                continue;
            }
            seen.push(root);
            match self.kind_of_seg(root) {
                CLOISTER if self.board.slots[slot].nb8 < 8 => {
                    out[(fo % 8) as usize] += 1 + self.board.slots[slot].nb8 as u32;
                }
                FCITY | FROAD => {
                    if self.segs.segs[root].open == 0 {
                        continue;
                    }
                    let (counts, n, pen) = self.census(root);
                    let city = self.kind_of_seg(root) == FCITY;
                    self.award(&counts, if city { n + pen } else { n }, &mut out);
                }
                FFIELD => {
                    let (counts, _, _) = self.census(root);
                    let mut cities: Vec<usize> = Vec::new();
                    for m in self.segs.members(root) {
                        let sg = self.segs.segs[m];
                        let slot = sg.slot as usize;
                        let f = &tile(self.board.slots[slot].typ).features[sg.k as usize];
                        for c in 0..K {
                            if f.cities & (1 << c) != 0 {
                                let rc = self.segs.root(self.seg(slot, c));
                                if self.segs.segs[rc].open == 0 && !cities.contains(&rc) {
                                    cities.push(rc);
                                }
                            }
                        }
                    }
                    self.award(&counts, 3 * cities.len() as u32, &mut out);
                }
                _ => {}
            }
        }
        out
    }

    fn end_game(&mut self) {
        let extra = self.end_points();
        for s in 0..self.n() {
            self.scores[s] += extra[s];
        }
        self.phase = Phase::Over;
        self.tile = NONE;
        self.to_draw = 0;
    }

    // ----- the sequence of play -----

    /// Set aside every unplaceable tile of seat s's hand; returns how many.
    fn set_aside_hand(&mut self, s: usize) -> u8 {
        let mut n = 0;
        for t in 0..LAND {
            if self.hands[s][t] > 0 && !self.placeable(t as u8) {
                n += self.hands[s][t];
                self.set_aside[t] += self.hands[s][t];
                self.hands[s][t] = 0;
            }
        }
        n
    }

    /// Strategic: give seat s its turn if it has one; false if its turn ends at once.
    fn begin(&mut self, s: usize) -> bool {
        if self.river_left() || self.land_left() > 0 {
            self.current = s as u8;
            self.phase = Phase::Draw;
            self.to_draw = 0;
            return true;
        }
        if self.hand_size(s) == 0 {
            return false;
        }
        self.current = s as u8;
        self.set_aside_hand(s);
        self.to_draw = 0;
        if self.hand_size(s) > 0 {
            self.phase = Phase::Select;
            true
        } else {
            false
        }
    }

    /// The next turn, starting with seat `first` (§4.1 step 5, §4.3).
    fn advance_from(&mut self, first: usize) {
        let n = self.n();
        let first = first % n;
        if !self.cfg.strategic {
            if self.pile_total() == 0 {
                self.end_game();
            } else {
                self.current = first as u8;
                self.phase = Phase::Draw;
            }
            return;
        }
        for i in 0..n {
            if self.pile_total() == 0 && self.hands_empty() {
                break;
            }
            if self.begin((first + i) % n) {
                return;
            }
        }
        self.end_game();
    }

    /// After a tile went into the current seat's hand (or was set aside): §4.3's check.
    fn hand_check(&mut self) {
        let s = self.current as usize;
        let n = self.set_aside_hand(s);
        self.to_draw = self.to_draw.saturating_add(n);
        if self.land_left() == 0 {
            self.to_draw = 0;
        }
        if self.to_draw > 0 {
            self.phase = Phase::Draw;
        } else if self.hand_size(s) == 0 {
            self.advance_from(s + 1);
        } else {
            self.phase = Phase::Select;
        }
    }

    pub fn draw(&mut self, t: u8) {
        let tu = t as usize;
        self.pile[tu] -= 1;
        if self.phase == Phase::Deal {
            let s = self.current as usize;
            self.hands[s][tu] += 1;
            let dealt: u32 = (0..self.n()).map(|p| self.hand_size(p)).sum();
            if dealt as usize >= 3 * self.n() || self.land_left() == 0 {
                self.advance_from(0);
            } else {
                self.current = (dealt / 3) as u8;
            }
            return;
        }
        if !self.cfg.strategic || tu >= LAND {
            if self.placeable(t) {
                self.tile = t;
                self.phase = Phase::Place;
            } else {
                self.set_aside[tu] += 1;
                if !self.cfg.strategic {
                    if self.pile_total() == 0 {
                        self.end_game();
                    }
                } else {
                    let s = self.current as usize;
                    if !self.begin(s) {
                        self.advance_from(s + 1);
                    }
                }
            }
            return;
        }
        let s = self.current as usize;
        self.hands[s][tu] += 1;
        if self.to_draw > 0 {
            self.to_draw -= 1;
            if self.to_draw > 0 && self.land_left() > 0 {
                // §4.3: the hand is checked again only once every replacement is drawn.
                return;
            }
        }
        self.hand_check();
    }

    pub fn apply(&mut self, action: u32) {
        let p = self.cfg.p();
        match self.phase {
            Phase::Deal | Phase::Draw => self.draw(action as u8),
            Phase::Select => {
                let t = (action - p - 1 - K as u32) as usize;
                self.hands[self.current as usize][t] -= 1;
                self.tile = t as u8;
                self.phase = Phase::Place;
            }
            Phase::Place => {
                let (x, y) = self.board.xy(action / 4);
                self.put(self.tile, (action % 4) as u8, x, y);
                self.tile = NONE;
                self.phase = Phase::Follower;
            }
            Phase::Follower => {
                let slot = self.last_slot();
                if action > p {
                    self.set_follower(slot, (action - p - 1) as usize, self.current as usize);
                }
                self.score_completed(slot);
                self.advance_from(self.current as usize + 1);
            }
            Phase::Over => {}
        }
    }

    pub fn is_legal_action(&self, a: u32) -> bool {
        let p = self.cfg.p();
        match self.phase {
            Phase::Deal | Phase::Draw => {
                (a as usize) < T && self.pile[a as usize] > 0 && self.in_current_pile(a as usize)
            }
            Phase::Place => a < p && self.tile != NONE && self.placement_legal(self.tile, a),
            Phase::Follower => {
                a == p || (a > p && a <= p + K as u32 && self.follower_legal((a - p - 1) as usize))
            }
            Phase::Select => {
                let lo = p + 1 + K as u32;
                a >= lo
                    && a < lo + T as u32
                    && self.hands[self.current as usize][(a - lo) as usize] > 0
            }
            Phase::Over => false,
        }
    }

    pub fn legal(&self, out: &mut Vec<u32>) {
        out.clear();
        let p = self.cfg.p();
        match self.phase {
            Phase::Deal | Phase::Draw => out.extend(self.drawable().map(|(t, _)| t as u32)),
            Phase::Place => {
                if self.tile != NONE {
                    self.placements(self.tile, out);
                }
            }
            Phase::Follower => {
                out.push(p);
                for k in 0..self.follower_candidates().min(K) {
                    if self.feature_free(k) {
                        out.push(p + 1 + k as u32);
                    }
                }
            }
            Phase::Select => {
                let lo = p + 1 + K as u32;
                for t in 0..T {
                    if self.hands[self.current as usize][t] > 0 {
                        out.push(lo + t as u32);
                    }
                }
            }
            Phase::Over => {}
        }
    }
}
