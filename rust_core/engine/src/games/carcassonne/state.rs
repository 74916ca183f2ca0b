//! The rules (docs/rules/carcassonne.md §4-§6, §11, §12): phases, placements, figures and scoring (the
//! Princess and the Dragon's own rules are in `princess_dragon.rs`).

use super::board::{Board, DX, DY};
use super::features::Segs;
use super::princess_dragon::Pd;
use super::tiles::{
    self, is_land, TileType, CLOISTER, FCITY, FFIELD, FROAD, K, LAKE, LAND, NONE, RIVER, T, TMAX,
};
use super::Config;

pub const MAX_PLAYERS: usize = 6;
pub const FOLLOWERS: u8 = 7;

/// Figure kinds (§11.1), the top two bits of `Placed::figure`.
pub const FOLLOWER: u8 = 0;
pub const LARGE: u8 = 1;
pub const BUILDER: u8 = 2;
pub const PIG: u8 = 3;
pub const FIGURE_NAMES: [&str; 4] = ["follower", "large", "builder", "pig"];

/// The figure byte of a figure of `kind` on feature k of a tile, owned by `seat`.
#[inline]
pub fn figure(kind: u8, k: usize, seat: usize) -> u8 {
    kind << 6 | (k as u8) << 3 | seat as u8
}
#[inline]
pub fn fig_kind(f: u8) -> u8 {
    f >> 6
}
#[inline]
pub fn fig_k(f: u8) -> u8 {
    (f >> 3) & 7
}
#[inline]
pub fn fig_seat(f: u8) -> usize {
    (f & 7) as usize
}
/// What a figure counts in a majority: a follower 1, the large follower 2 (§11.1), builders and pigs 0.
#[inline]
pub fn fig_weight(f: u8) -> u8 {
    match fig_kind(f) {
        FOLLOWER => 1,
        LARGE => 2,
        _ => 0,
    }
}
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
    /// The dragon's move (P&D, §12.3); not one of the six phases of the §8.1 one-hot.
    Dragon,
}

pub const PHASES: [&str; 7] = [
    "deal", "draw", "select", "place", "follower", "over", "dragon",
];

impl Phase {
    pub fn index(self) -> usize {
        self as usize
    }
    pub fn name(self) -> &'static str {
        PHASES[self as usize]
    }
    pub fn from_name(s: &str) -> Option<Phase> {
        use Phase::*;
        [Deal, Draw, Select, Place, Follower, Over, Dragon]
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
            CurrentPile::Land => is_land(t),
            CurrentPile::River => !is_land(t) && t != LAKE as usize,
            CurrentPile::Lake => t == LAKE as usize,
        }
    }
}

/// What scoring reads of a component, found by walking its members (§6.1, §11).
#[derive(Clone, Copy, Debug, Default)]
pub struct Census {
    /// Per seat, its followers, the large follower counting 2.
    pub counts: [u8; MAX_PLAYERS],
    /// Distinct tiles, and segments with a pennant.
    pub tiles: u32,
    pub pennants: u32,
    pub inn: bool,
    pub cathedral: bool,
    /// Segments with each goods symbol (wine, grain, cloth).
    pub goods: [u8; 3],
    /// The seats with their pig on the component (bit s).
    pub pigs: u8,
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
    /// Per type (the game's `cfg.nt` first entries; the rest stay 0).
    pub pile: [u8; TMAX],
    pub set_aside: [u8; TMAX],
    /// Strategic: each seat's hand, `nt` counts a seat (seat q's at `q * nt..`; see `hand`); empty without
    /// the strategic variant, so that the other games' clones copy no hands.
    pub hands: Vec<u8>,
    pub scores: [u32; MAX_PLAYERS],
    /// Followers in supply; with the expansions the large follower, the builder and the pig (0 or 1 each).
    pub supply: [u8; MAX_PLAYERS],
    pub large_supply: [u8; MAX_PLAYERS],
    pub builder_supply: [u8; MAX_PLAYERS],
    pub pig_supply: [u8; MAX_PLAYERS],
    /// Goods tokens per seat: wine, grain, cloth (T&B).
    pub goods: [[u8; 3]; MAX_PLAYERS],
    /// The current turn is a builder's second tile; a second tile follows this turn (§11.3).
    pub bonus: bool,
    pub again: bool,
    pub board: Board,
    pub segs: Segs,
    /// The slots of the 8 cells around the last placed tile (order of N8), u16::MAX where empty: what
    /// scoring looks at for completed cloisters, found once when the tile is put.
    pub last_nb: [u16; 8],
    /// The Princess and the Dragon (§12): the dragon, the fairy, the extra figures (default otherwise).
    pub pd: Pd,
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
            && self.large_supply == o.large_supply
            && self.builder_supply == o.builder_supply
            && self.pig_supply == o.pig_supply
            && self.goods == o.goods
            && self.bonus == o.bonus
            && self.again == o.again
            && if self.cfg.pd {
                self.pd_position_eq(o)
            } else {
                self.board.slots == o.board.slots
            }
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
            set_aside: [0; TMAX],
            hands: if cfg.strategic {
                vec![0; cfg.players * cfg.nt]
            } else {
                Vec::new()
            },
            scores: [0; MAX_PLAYERS],
            supply: [0; MAX_PLAYERS],
            large_supply: [0; MAX_PLAYERS],
            builder_supply: [0; MAX_PLAYERS],
            pig_supply: [0; MAX_PLAYERS],
            goods: [[0; 3]; MAX_PLAYERS],
            bonus: false,
            again: false,
            board: Board::new(cfg.r),
            segs: Segs::with_capacity(cfg.r as usize + 1),
            last_nb: [u16::MAX; 8],
            pd: Pd::default(),
        };
        for p in 0..cfg.players {
            s.supply[p] = FOLLOWERS;
            s.large_supply[p] = cfg.ic as u8;
            s.builder_supply[p] = cfg.tb as u8;
            s.pig_supply[p] = cfg.tb as u8;
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

    /// The game's tile type t.
    #[inline(always)]
    pub fn tt(&self, t: u8) -> &'static TileType {
        self.cfg.tile(t)
    }

    /// The land type ids of the game in ascending order: the base letters, then the expansions' types.
    #[inline]
    pub fn land_types(&self) -> impl Iterator<Item = usize> + Clone {
        (0..LAND).chain(T..self.cfg.nt)
    }

    // The pile's entries from `nt` on are always 0: the sums run over fixed ranges, which compile to a few
    // vector additions.
    pub fn land_left(&self) -> u32 {
        self.pile_total() - self.pile[LAND..T].iter().map(|&c| c as u32).sum::<u32>()
    }
    pub fn river_left(&self) -> bool {
        self.pile[LAND..T].iter().any(|&c| c > 0)
    }
    pub fn pile_total(&self) -> u32 {
        self.pile.iter().map(|&c| c as u32).sum()
    }
    /// Seat q's hand: a count per type (all zero without the strategic variant).
    #[inline]
    pub fn hand(&self, q: usize) -> &[u8] {
        static NO_HAND: [u8; TMAX] = [0; TMAX];
        let nt = self.cfg.nt;
        if self.hands.is_empty() {
            &NO_HAND[..nt]
        } else {
            &self.hands[q * nt..(q + 1) * nt]
        }
    }
    /// Seat q's hand, to change (strategic only).
    #[inline]
    pub fn hand_mut(&mut self, q: usize) -> &mut [u8] {
        let nt = self.cfg.nt;
        &mut self.hands[q * nt..(q + 1) * nt]
    }
    pub fn hand_size(&self, s: usize) -> u32 {
        self.hand(s).iter().map(|&c| c as u32).sum()
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

    /// The types drawable now with their counts, in ascending order, each given to `f`: plain loops over
    /// the base letters and then the expansions' land types (an iterator chain cost the playout 4%).
    #[inline]
    pub fn each_drawable(&self, mut f: impl FnMut(usize, u8)) {
        let pile = &self.pile;
        let mut run = |lo: usize, hi: usize, skip: usize| {
            for t in lo..hi {
                if pile[t] > 0 && t != skip {
                    f(t, pile[t])
                }
            }
        };
        match self.current_pile() {
            CurrentPile::Land if self.dragon_tiles_held_back() => {
                let types = self.cfg.types;
                for t in self.land_types() {
                    if pile[t] > 0 && !types[t].dragon {
                        f(t, pile[t])
                    }
                }
            }
            CurrentPile::Land => {
                run(0, LAND, usize::MAX);
                run(T, self.cfg.nt, usize::MAX);
            }
            CurrentPile::River => run(LAND, T, LAKE as usize),
            CurrentPile::Lake => run(LAKE as usize, LAKE as usize + 1, usize::MAX),
        }
    }

    /// Whether type t may be drawn now (§4.1, §12.1).
    pub fn drawable(&self, t: usize) -> bool {
        t < self.cfg.nt
            && self.pile[t] > 0
            && self.in_current_pile(t)
            && !(self.cfg.pd && self.tt(t as u8).dragon && self.dragon_tiles_held_back())
    }

    pub fn current_pile_empty(&self) -> bool {
        let mut empty = true;
        self.each_drawable(|_, _| empty = false);
        empty
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
        let tt = self.tt(t);
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
        let tt = self.tt(t);
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
        let tt = self.tt(t);
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
        let tt = self.tt(t);
        let base = self.segs.add_slot(
            self.board.slots.len(),
            tt.features.iter().map(|f| match f.kind {
                FCITY | FROAD => f.edges.count_ones() as u16,
                _ => 0,
            }),
        );
        let (slot, nb) = self.board.place(tt, t, r, x, y, base);
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
            let nt = self.tt(p.typ);
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

    // ----- figures -----

    /// The segment of feature k of the tile in `slot`.
    #[inline]
    pub fn seg(&self, slot: usize, k: usize) -> usize {
        self.board.slots[slot].base as usize + k
    }

    pub fn last_slot(&self) -> usize {
        self.board.slots.len() - 1
    }

    /// In phase `follower`, the number of features of the last tile a figure may go on (0 when none may:
    /// only the first tile is on the board, or the tile already holds a figure), checked once for a pass
    /// over the features.
    fn step_features(&self) -> usize {
        let slot = self.last_slot();
        if self.phase != Phase::Follower
            || slot == 0 && self.board.slots.len() == 1
            || self.board.slots[slot].figure != NONE
            || self.cfg.pd && self.figure_barred(slot)
        {
            return 0;
        }
        self.tt(self.board.slots[slot].typ).features.len()
    }

    /// Whether feature k of the last tile, below `step_features`, has no follower yet.
    #[inline]
    fn feature_free(&self, k: usize) -> bool {
        let root = self.segs.root(self.seg(self.last_slot(), k));
        self.segs.segs[root].nfol == 0
    }

    /// The figure on feature k of `slot`, else NONE: the slot's byte, or (P&D portals) an extra figure.
    #[inline(always)]
    pub fn fig_at(&self, slot: usize, k: u8) -> u8 {
        let f = self.board.slots[slot].figure;
        if f != NONE && fig_k(f) == k {
            return f;
        }
        if self.pd.n_extra == 0 {
            return NONE;
        }
        self.extra_at(slot, k)
    }

    /// Take the figure on feature k of `slot` off the board (no supply or count changes).
    #[inline]
    pub fn clear_fig(&mut self, slot: usize, k: u8) {
        let b = &mut self.board.slots[slot].figure;
        if *b != NONE && fig_k(*b) == k {
            *b = NONE;
        }
        if self.cfg.pd {
            self.figure_left(slot, k);
        }
    }

    /// Whether the component of root `root` holds a follower (normal or large) of `seat`.
    pub fn holds_follower_of(&self, root: usize, seat: usize) -> bool {
        self.segs.segs[root].nfol > 0
            && self.segs.members(root).any(|m| {
                let sg = self.segs.segs[m];
                let f = self.fig_at(sg.slot as usize, sg.k);
                f != NONE && fig_weight(f) > 0 && fig_seat(f) == seat
            })
    }

    /// Whether a figure of `kind` may go on feature k of the last tile now (§4.1 step 3, §11.4).
    pub fn figure_legal(&self, kind: u8, k: usize) -> bool {
        let seat = self.current as usize;
        let in_supply = match kind {
            FOLLOWER => self.supply[seat] > 0,
            LARGE => self.cfg.ic && self.large_supply[seat] > 0,
            BUILDER => self.cfg.tb && self.builder_supply[seat] > 0,
            _ => self.cfg.tb && self.pig_supply[seat] > 0,
        };
        if !in_supply || k >= self.step_features() {
            return false;
        }
        if kind <= LARGE {
            return self.feature_free(k);
        }
        let slot = self.last_slot();
        let fk = self.tt(self.board.slots[slot].typ).features[k].kind;
        let fits = if kind == BUILDER {
            fk == FCITY || fk == FROAD
        } else {
            fk == FFIELD
        };
        fits && self.holds_follower_of(self.segs.root(self.seg(slot, k)), seat)
    }

    pub fn follower_legal(&self, k: usize) -> bool {
        self.figure_legal(FOLLOWER, k)
    }

    /// The figure kind and feature of a follower-step id above `no follower` (§7, §11.5), if it is one.
    pub fn figure_action(&self, a: u32) -> Option<(u8, usize)> {
        let p = self.cfg.p();
        if a > p && a <= p + K as u32 {
            return Some((FOLLOWER, (a - p - 1) as usize));
        }
        let b = self.cfg.base_actions();
        if a < b {
            return None;
        }
        let mut off = a - b;
        if self.cfg.ic {
            if off < K as u32 {
                return Some((LARGE, off as usize));
            }
            off -= K as u32;
        }
        if self.cfg.tb && off < 2 * K as u32 {
            let kind = if off < K as u32 { BUILDER } else { PIG };
            return Some((kind, (off % K as u32) as usize));
        }
        None
    }

    /// The id of a figure of `kind` on feature k.
    pub fn figure_id(&self, kind: u8, k: usize) -> u32 {
        let k = k as u32;
        match kind {
            FOLLOWER => self.cfg.p() + 1 + k,
            LARGE => self.cfg.base_actions() + k,
            BUILDER => self.cfg.builder_base() + k,
            _ => self.cfg.builder_base() + K as u32 + k,
        }
    }

    /// Put a figure of `kind` on feature k of the tile in `slot` (the caller checked it may go there).
    pub fn set_figure(&mut self, slot: usize, k: usize, seat: usize, kind: u8) {
        let f = figure(kind, k, seat);
        let byte = self.board.slots[slot].figure;
        if byte == NONE {
            self.board.slots[slot].figure = f;
        } else if fig_weight(f) == 0 {
            // Builders and pigs stay in the byte (what the second tile and the orphans look at).
            self.board.slots[slot].figure = f;
            self.push_extra(slot, byte);
        } else {
            // A second figure on the tile: only through the portal (§12.5).
            self.push_extra(slot, f);
        }
        let supply = match kind {
            FOLLOWER => &mut self.supply[seat],
            LARGE => &mut self.large_supply[seat],
            BUILDER => &mut self.builder_supply[seat],
            _ => &mut self.pig_supply[seat],
        };
        *supply = supply.saturating_sub(1);
        if fig_weight(f) > 0 {
            let root = self.segs.find(self.seg(slot, k));
            self.segs.segs[root].nfol += 1;
        }
    }

    pub fn set_follower(&mut self, slot: usize, k: usize, seat: usize) {
        self.set_figure(slot, k, seat, FOLLOWER)
    }

    /// Whether the tile just put in `slot` joins the road or city component of `seat`'s builder (already on
    /// the board before it): the condition of the second tile (§11.3).
    fn joins_builder(&self, slot: usize, seat: usize) -> bool {
        let Some(b) = (0..slot).find(|&i| {
            let f = self.board.slots[i].figure;
            f != NONE && fig_kind(f) == BUILDER && fig_seat(f) == seat
        }) else {
            return false;
        };
        let rb = self
            .segs
            .root(self.seg(b, fig_k(self.board.slots[b].figure) as usize));
        let tt = self.tt(self.board.slots[slot].typ);
        (0..tt.features.len()).any(|k| {
            matches!(tt.features[k].kind, FCITY | FROAD) && self.segs.root(self.seg(slot, k)) == rb
        })
    }

    // ----- scoring -----

    fn kind_of_seg(&self, seg: usize) -> u8 {
        let s = self.segs.segs[seg];
        self.tt(self.board.slots[s.slot as usize].typ).features[s.k as usize].kind
    }

    /// Followers per seat (the large one counting 2), distinct tiles, pennants, inns, cathedrals, goods and
    /// pigs of the component of root r.
    fn census(&self, root: usize) -> Census {
        let mut c = Census::default();
        for m in self.segs.members(root) {
            let sg = self.segs.segs[m];
            let slot = sg.slot as usize;
            let tt = self.tt(self.board.slots[slot].typ);
            let f = &tt.features[sg.k as usize];
            c.pennants += f.pennant as u32;
            c.inn |= f.inn;
            c.cathedral |= f.cathedral;
            if f.goods > 0 {
                c.goods[f.goods as usize - 1] += 1;
            }
            let dup = (0..sg.k as usize).any(|k2| {
                tt.features[k2].kind == f.kind && self.segs.root(self.seg(slot, k2)) == root
            });
            if !dup {
                c.tiles += 1;
            }
            let fo = self.fig_at(slot, sg.k);
            if fo != NONE {
                c.counts[fig_seat(fo)] += fig_weight(fo);
                if fig_kind(fo) == PIG {
                    c.pigs |= 1 << fig_seat(fo);
                }
            }
        }
        c
    }

    /// The seats with the highest positive count (bit s).
    fn winners(&self, counts: &[u8; MAX_PLAYERS]) -> u8 {
        let best = *counts.iter().max().unwrap_or(&0);
        if best == 0 {
            return 0;
        }
        (0..self.n())
            .filter(|&s| counts[s] == best)
            .fold(0, |m, s| m | 1 << s)
    }

    fn award(&self, counts: &[u8; MAX_PLAYERS], points: u32, out: &mut [u32; MAX_PLAYERS]) {
        let w = self.winners(counts);
        for s in 0..self.n() {
            if w & (1 << s) != 0 {
                out[s] += points;
            }
        }
    }

    /// Return a figure to its owner's supply.
    pub fn give_back(&mut self, f: u8) {
        let seat = fig_seat(f);
        match fig_kind(f) {
            FOLLOWER => self.supply[seat] += 1,
            LARGE => self.large_supply[seat] += 1,
            BUILDER => self.builder_supply[seat] += 1,
            _ => self.pig_supply[seat] += 1,
        }
    }

    /// Return the figures of the component of root r (followers, large followers, builders) to their owners.
    fn release(&mut self, root: usize) {
        let mut m = root;
        loop {
            let sg = self.segs.segs[m];
            let slot = sg.slot as usize;
            let fo = self.fig_at(slot, sg.k);
            if fo != NONE {
                self.give_back(fo);
                self.clear_fig(slot, sg.k);
            }
            m = sg.next as usize;
            if m == root {
                break;
            }
        }
        self.segs.segs[root].nfol = 0;
    }

    /// §4.1 step 4: score what the tile in `slot` completed; with Traders & Builders the seat whose turn it
    /// is takes the goods of every city completed (§11.3).
    pub fn score_completed(&mut self, slot: usize) {
        let p = self.board.slots[slot];
        let tt = self.tt(p.typ);
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
            let goods = self.cfg.tb && kind == FCITY;
            if self.segs.segs[root].nfol == 0 && !goods {
                continue;
            }
            let c = self.census(root);
            if goods {
                let seat = self.current as usize;
                for g in 0..3 {
                    self.goods[seat][g] += c.goods[g];
                }
            }
            let points = if kind == FCITY {
                (if c.cathedral { 3 } else { 2 }) * (c.tiles + c.pennants)
            } else if c.inn {
                2 * c.tiles
            } else {
                c.tiles
            };
            let mut sc = self.scores;
            self.award(&c.counts, points, &mut sc);
            self.scores = sc;
            if self.cfg.pd {
                self.fairy_scoring_bonus(root);
            }
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
            if !self.tt(self.board.slots[s].typ).cloister || self.board.slots[s].nb8 != 8 {
                continue;
            }
            let fo = self.fig_at(s, 0);
            if fo != NONE && fig_weight(fo) > 0 {
                self.scores[fig_seat(fo)] += 9;
                let seg = self.seg(s, 0);
                if self.cfg.pd {
                    self.fairy_scoring_bonus(seg);
                }
                self.give_back(fo);
                self.clear_fig(s, 0);
                self.segs.segs[seg].nfol = 0;
            }
        }
    }

    /// The points the end of the game would add now (§6.2, §11), per seat.
    pub fn end_points(&self) -> [u32; MAX_PLAYERS] {
        let mut out = [0u32; MAX_PLAYERS];
        let mut seen: Vec<usize> = Vec::new();
        for (slot, fo) in self.each_figure() {
            if fig_weight(fo) == 0 {
                continue;
            }
            let k = fig_k(fo) as usize;
            let root = self.segs.root(self.seg(slot, k));
            if seen.contains(&root) {
                continue;
            }
            seen.push(root);
            match self.kind_of_seg(root) {
                CLOISTER if self.board.slots[slot].nb8 < 8 => {
                    out[fig_seat(fo)] += 1 + self.board.slots[slot].nb8 as u32;
                }
                FCITY | FROAD => {
                    if self.segs.segs[root].open == 0 {
                        continue;
                    }
                    let c = self.census(root);
                    let city = self.kind_of_seg(root) == FCITY;
                    // An incomplete city with a cathedral, or road with an inn, scores nothing (§11.2).
                    let points = match (city, c.cathedral, c.inn) {
                        (true, true, _) | (false, _, true) => 0,
                        (true, false, _) => c.tiles + c.pennants,
                        (false, _, false) => c.tiles,
                    };
                    self.award(&c.counts, points, &mut out);
                }
                FFIELD => {
                    let c = self.census(root);
                    let mut cities: Vec<usize> = Vec::new();
                    for m in self.segs.members(root) {
                        let sg = self.segs.segs[m];
                        let slot = sg.slot as usize;
                        let f = &self.tt(self.board.slots[slot].typ).features[sg.k as usize];
                        for ci in 0..K {
                            if f.cities & (1 << ci) != 0 {
                                let rc = self.segs.root(self.seg(slot, ci));
                                if self.segs.segs[rc].open == 0 && !cities.contains(&rc) {
                                    cities.push(rc);
                                }
                            }
                        }
                    }
                    // A winner with its pig in the field: 4 a city instead of 3 (§11.3).
                    let w = self.winners(&c.counts);
                    for s in 0..self.n() {
                        if w & (1 << s) != 0 {
                            let each = if c.pigs & (1 << s) != 0 { 4 } else { 3 };
                            out[s] += each * cities.len() as u32;
                        }
                    }
                }
                _ => {}
            }
        }
        if self.cfg.pd {
            // The fairy's follower is on an unfinished feature (a finished one sent it home), and every such
            // feature is scored now: its owner gets the fairy's 3 (§12.6, the final scoring included).
            out = self.fairy_final_bonus(out);
        }
        if self.cfg.tb {
            // Goods majorities (§11.3): 10 to every seat with the most tokens of a kind.
            for g in 0..3 {
                let best = (0..self.n()).map(|s| self.goods[s][g]).max().unwrap_or(0);
                if best > 0 {
                    for s in 0..self.n() {
                        if self.goods[s][g] == best {
                            out[s] += 10;
                        }
                    }
                }
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
        self.bonus = false;
        self.again = false;
    }

    // ----- the sequence of play -----

    /// Set aside every unplaceable tile of seat s's hand; returns how many.
    fn set_aside_hand(&mut self, s: usize) -> u8 {
        let mut n = 0;
        for t in self.land_types() {
            let c = self.hand(s)[t];
            if c > 0 && !self.placeable(t as u8) {
                n += c;
                self.set_aside[t] += c;
                self.hand_mut(s)[t] = 0;
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
        self.bonus = false;
        if !self.cfg.strategic {
            if self.pile_total() == 0 {
                self.end_game();
            } else {
                self.current = first as u8;
                self.phase = Phase::Draw;
                if self.cfg.pd {
                    self.fairy_turn_point(first);
                }
            }
            return;
        }
        for i in 0..n {
            if self.pile_total() == 0 && self.hands_empty() {
                break;
            }
            if self.begin((first + i) % n) {
                if self.cfg.pd {
                    self.fairy_turn_point((first + i) % n);
                }
                return;
            }
        }
        self.end_game();
    }

    /// The builder's second tile (§11.3): seat s takes one more turn, marked `bonus`, unless the game has
    /// ended (the pile empty and, strategic, s's hand empty); false if it does not.
    fn second_tile(&mut self, s: usize) -> bool {
        if !self.cfg.strategic {
            if self.pile_total() == 0 {
                return false;
            }
            self.current = s as u8;
            self.phase = Phase::Draw;
            self.bonus = true;
            return true;
        }
        self.bonus = true;
        if self.begin(s) {
            return true;
        }
        self.bonus = false;
        false
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
            self.hand_mut(s)[tu] += 1;
            let dealt: u32 = (0..self.n()).map(|p| self.hand_size(p)).sum();
            if dealt as usize >= 3 * self.n() || self.land_left() == 0 {
                self.advance_from(0);
            } else {
                self.current = (dealt / 3) as u8;
            }
            return;
        }
        if !self.cfg.strategic || !is_land(tu) {
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
        self.hand_mut(s)[tu] += 1;
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
                self.hand_mut(self.current as usize)[t] -= 1;
                self.tile = t as u8;
                self.phase = Phase::Place;
            }
            Phase::Place => {
                let (x, y) = self.board.xy(action / 4);
                let slot = self.put(self.tile, (action % 4) as u8, x, y);
                if self.cfg.pd && self.tt(self.tile).volcano {
                    // §12.2: the dragon appears on the volcano.
                    self.pd.dragon = slot as u16;
                }
                self.tile = NONE;
                self.phase = Phase::Follower;
                let seat = self.current as usize;
                if self.cfg.tb {
                    // §11.3: the seat's builder, on the board before this placement, in a road or city
                    // this tile joins; never for a second tile.
                    self.again = !self.bonus
                        && self.builder_supply[seat] == 0
                        && self.joins_builder(slot, seat);
                }
            }
            Phase::Follower => {
                let slot = self.last_slot();
                let seat = self.current as usize;
                if let Some((kind, k)) = self.figure_action(action) {
                    self.set_figure(slot, k, seat, kind);
                } else if self.cfg.pd && action > p {
                    self.apply_pd_figure(action);
                }
                // §12.3: the dragon moves after the follower step and before the scoring.
                if self.cfg.pd && self.start_dragon_move() {
                    return;
                }
                self.end_turn(seat);
            }
            Phase::Dragon => {
                let d = action.wrapping_sub(self.cfg.dragon_base()) as usize;
                if self.dragon_step(d) {
                    self.end_turn(self.current as usize);
                }
            }
            Phase::Over => {}
        }
    }

    /// §4.1 steps 4-5: score what the last tile completed, then the second tile or the next seat's turn.
    fn end_turn(&mut self, seat: usize) {
        self.score_completed(self.last_slot());
        if std::mem::take(&mut self.again) && self.second_tile(seat) {
            return;
        }
        self.advance_from(seat + 1);
    }

    pub fn is_legal_action(&self, a: u32) -> bool {
        let p = self.cfg.p();
        let nt = self.cfg.nt;
        match self.phase {
            Phase::Deal | Phase::Draw => self.drawable(a as usize),
            Phase::Place => a < p && self.tile != NONE && self.placement_legal(self.tile, a),
            Phase::Follower => {
                a == p
                    || self
                        .figure_action(a)
                        .is_some_and(|(kind, k)| self.figure_legal(kind, k))
                    || self.cfg.pd && self.pd_figure_legal(a)
            }
            Phase::Dragon => {
                let d = a.wrapping_sub(self.cfg.dragon_base()) as usize;
                self.dragon_step_target(d).is_some()
            }
            Phase::Select => {
                let lo = p + 1 + K as u32;
                a >= lo
                    && a < lo + nt as u32
                    && self.hand(self.current as usize)[(a - lo) as usize] > 0
            }
            Phase::Over => false,
        }
    }

    pub fn legal(&self, out: &mut Vec<u32>) {
        out.clear();
        let p = self.cfg.p();
        match self.phase {
            Phase::Deal | Phase::Draw => self.each_drawable(|t, _| out.push(t as u32)),
            Phase::Place => {
                if self.tile != NONE {
                    self.placements(self.tile, out);
                }
            }
            Phase::Follower => {
                out.push(p);
                self.ordinary_figures(out);
                if self.cfg.pd {
                    self.pd_follower_options(out);
                }
            }
            Phase::Dragon => {
                for d in 0..4 {
                    if self.dragon_step_target(d).is_some() {
                        out.push(self.cfg.dragon_base() + d as u32);
                    }
                }
            }
            Phase::Select => {
                let lo = p + 1 + K as u32;
                let hand = self.hand(self.current as usize);
                for t in 0..self.cfg.nt {
                    if hand[t] > 0 {
                        out.push(lo + t as u32);
                    }
                }
            }
            Phase::Over => {}
        }
    }

    /// The follower step's figures on the tile just placed (§4.1 step 3, §11.4), in id order.
    fn ordinary_figures(&self, out: &mut Vec<u32>) {
        let p = self.cfg.p();
        let nf = self.step_features().min(K);
        if nf == 0 {
            return;
        }
        let seat = self.current as usize;
        if self.supply[seat] > 0 {
            for k in 0..nf {
                if self.feature_free(k) {
                    out.push(p + 1 + k as u32);
                }
            }
        }
        if self.cfg.ic && self.large_supply[seat] > 0 {
            let l = self.cfg.base_actions();
            for k in 0..nf {
                if self.feature_free(k) {
                    out.push(l + k as u32);
                }
            }
        }
        if self.cfg.tb {
            for kind in [BUILDER, PIG] {
                for k in 0..nf {
                    if self.figure_legal(kind, k) {
                        out.push(self.figure_id(kind, k));
                    }
                }
            }
        }
    }
}
