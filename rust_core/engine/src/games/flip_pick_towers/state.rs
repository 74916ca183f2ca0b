//! The state of a Flip Pick Towers game and its rules of play (docs/rules/flip_pick_towers.md §4-7).
//!
//! The sheet is static data behind the game's interned `&'static Config`; a state holds that pointer and, per
//! seat, fixed-size values sized for the largest sheet §3 allows (16 x 12 cells, 32 stall columns): the grid
//! as seven bit planes (a 7-bit code per cell, so that the cell sets of §6 are a few word operations), stall
//! fills and creature marks four bits each. Entries past the sheet's sizes and past a list's length stay at
//! their defaults, so the derived equality compares live data only. The state is `Copy`: cloning is a memcpy.

use super::bits::{Cells, Deck};
use super::royal::{clamp, Castle, Royal};
use super::sheet::{Sheet, MAX_CELLS, MAX_STALL_COLUMNS, NUM_KINDS};
use super::{Config, MAX_PLAYERS};
use crate::{ActionSink, BitsetSink, Finder, Player, Rng, State, CHANCE, TERMINAL};

/// Cell values of a seat's grid.
pub mod cell {
    pub const EMPTY: u8 = 0;
    pub const BRIDGE: u8 = 1;
    pub const DRAGON: u8 = 2;
    pub const BANNER_TOP: u8 = 3;
    pub const BANNER_BOTTOM: u8 = 4;
    pub const BEANSTALK: u8 = 5;
    /// A roof with f flags is `ROOF + f` (f 0..3).
    pub const ROOF: u8 = 6;
    /// A floor of stability v (0..10) and content k is `FLOOR + 8 v + k`.
    pub const FLOOR: u8 = 16;
    /// A cell that does not exist on the sheet.
    pub const NONE_CELL: u8 = 0xFF;

    // Floor contents.
    pub const NONE: u8 = 0;
    pub const QUEEN: u8 = 1;
    pub const KING: u8 = 2;
    pub const PRINCESS: u8 = 3;
    pub const GOLD: u8 = 4;
    pub const CROSSED: u8 = 5;
    pub const WINDOW: u8 = 6;

    #[inline]
    pub fn is_floor(v: u8) -> bool {
        (FLOOR..NONE_CELL).contains(&v)
    }
    #[inline]
    pub fn floor(stability: u8, content: u8) -> u8 {
        FLOOR + 8 * stability + content
    }
    #[inline]
    pub fn stability(v: u8) -> u8 {
        (v - FLOOR) / 8
    }
    #[inline]
    pub fn content(v: u8) -> u8 {
        (v - FLOOR) % 8
    }
    #[inline]
    pub fn with_content(v: u8, content: u8) -> u8 {
        if is_floor(v) {
            floor(stability(v), content)
        } else {
            v
        }
    }
    #[inline]
    pub fn is_roof(v: u8) -> bool {
        (ROOF..ROOF + 4).contains(&v)
    }
    #[inline]
    pub fn flags(v: u8) -> u8 {
        v - ROOF
    }
}

pub const NUM_FEATURES: usize = 20;
pub const BRIDGE_F: u8 = 9;
pub const ROOF_F: u8 = 10;
pub const QUEEN_F: u8 = 11;
pub const PRINCESS_F: u8 = 13;
pub const DRAGON_F: u8 = 14;
pub const CREATURE_F: u8 = 15;
pub const WILD: u8 = 4;

pub const DERWEN: i8 = 0;
pub const BWCA: i8 = 1;
pub const JIJI: i8 = 2;
pub const SOSBAN: i8 = 3;
pub const MAB: i8 = 4;

/// Decision ids (§8).
pub const PICK: u32 = 0;
pub const NO_MAGIC: u32 = 3;
pub const MAGIC: u32 = 4;
pub const STABILITY_MINUS: u32 = 9;
pub const STABILITY_PLUS: u32 = 10;
pub const CELL: u32 = 11;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Step {
    Deal,
    Flip,
    Dragon,
    Pick,
    Sketch,
    Over,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Task {
    None,
    Magic,
    Bwca,
    Feature,
    Derwen,
    Box,
    Decoration,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Deco {
    None,
    Banner,
    Beanstalk,
    Gold,
    Window,
}

impl Deco {
    /// The decoration a completed column of stall `resource` gives (§2.2).
    pub fn of_stall(resource: u8) -> Deco {
        match resource {
            0 => Deco::Banner,
            1 => Deco::Beanstalk,
            2 => Deco::Gold,
            _ => Deco::Window,
        }
    }
}

/// The grid's bit planes: a cell's 7-bit code is `k + 8 s` with `k = 0` for a cell that is not a floor and
/// `k = 1 + content` for a floor, and `s` the floor's stability, or for any other cell its value in [`cell`]
/// (0 empty .. 5 beanstalk, 6..9 a roof with 0..3 flags). Plane `i` holds bit `i` of every cell's code; a cell
/// that does not exist is all zero (read back as `NONE_CELL` through the sheet).
pub const PLANES: usize = 7;
const NO_ROOF: u8 = 0xFF;

/// One seat's sheet and markers.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Seat {
    planes: [Cells; PLANES],
    /// Stall column fills (0..9), four bits each.
    stalls: [u8; MAX_STALL_COLUMNS / 2],
    /// Per creature: gained in the low four bits, used in the high four.
    creatures: [u8; 5],
    pub crest: u8,
    /// -1 or a display slot.
    pub pick: i8,
    /// `NO_ROOF` or the cell of the first roof this seat added this turn.
    roof: u8,
    pub round_scores: [i32; 2],
}

/// The 7-bit code of a cell value of [`cell`] (`NONE_CELL` is 0, like an empty cell).
#[inline]
fn code_of(v: u8) -> u8 {
    if cell::is_floor(v) {
        1 + cell::content(v) + 8 * cell::stability(v)
    } else if v < cell::FLOOR {
        8 * v
    } else {
        0
    }
}

/// The cell value of a 7-bit code.
#[inline]
fn decode(code: u8) -> u8 {
    let (k, s) = (code & 7, code >> 3);
    if k == 0 {
        s
    } else {
        cell::floor(s, k - 1)
    }
}

impl Seat {
    pub fn new(_sheet: &Sheet) -> Seat {
        Seat {
            planes: [Cells::NONE; PLANES],
            stalls: [0; MAX_STALL_COLUMNS / 2],
            creatures: [0; 5],
            crest: 0,
            pick: -1,
            roof: NO_ROOF,
            round_scores: [0; 2],
        }
    }

    /// The value (in [`cell`] terms) of cell `id`, `NONE_CELL` where the sheet has no cell.
    #[inline]
    pub fn cell(&self, sh: &Sheet, id: usize) -> u8 {
        if id >= sh.cells() || !sh.exists(id / sh.cols, id % sh.cols) {
            return cell::NONE_CELL;
        }
        let mut code = 0u8;
        for (i, p) in self.planes.iter().enumerate() {
            code |= (p.has(id) as u8) << i;
        }
        decode(code)
    }

    /// The value of cell `id`, known to exist on the sheet (no sheet lookup; an id past the grid reads as
    /// empty).
    #[inline]
    pub fn existing_cell(&self, id: usize) -> u8 {
        let mut code = 0u8;
        for (i, p) in self.planes.iter().enumerate() {
            code |= (p.has(id) as u8) << i;
        }
        decode(code)
    }

    /// The 7-bit codes of the cells of word `w` of the grid's bit sets, bit-sliced: plane `i` of the codes.
    #[inline]
    pub fn code_planes(&self, w: usize) -> [u64; PLANES] {
        self.planes.map(|p| p.0[w])
    }

    /// The nibble-packed stall fills, two columns to a byte (column `2j` in the low nibble).
    #[inline]
    pub fn stall_bytes(&self) -> &[u8; MAX_STALL_COLUMNS / 2] {
        &self.stalls
    }

    /// Set cell `id` to a value of [`cell`] (`NONE_CELL` clears it).
    #[inline]
    pub fn set_cell(&mut self, id: usize, v: u8) {
        let code = code_of(v);
        for (i, p) in self.planes.iter_mut().enumerate() {
            p.put(id, (code >> i) & 1 != 0);
        }
    }

    /// The whole grid as cell values, `rows x C` of them, row-major (the rest `NONE_CELL`).
    pub fn grid(&self, sh: &Sheet) -> [u8; MAX_CELLS] {
        let mut g = [cell::NONE_CELL; MAX_CELLS];
        let mut id = 0;
        for r in 0..sh.rows {
            for c in 0..sh.cols {
                if sh.bottom[c] <= r && r <= sh.top[c] {
                    let (w, b) = (id >> 6, id & 63);
                    let mut code = 0u8;
                    for (i, p) in self.planes.iter().enumerate() {
                        code |= (((p.0[w] >> b) & 1) as u8) << i;
                    }
                    g[id] = decode(code);
                }
                id += 1;
            }
        }
        g
    }

    /// The cells whose code's low three bits (`k`) equal `k`.
    #[inline]
    fn k_is(&self, k: u8) -> Cells {
        let p = &self.planes;
        let bit = |i: usize| if (k >> i) & 1 != 0 { p[i] } else { !p[i] };
        bit(0) & bit(1) & bit(2)
    }

    /// The cells whose code's high four bits (`s`) equal `s`.
    #[inline]
    fn s_is(&self, s: u8) -> Cells {
        let p = &self.planes;
        let bit = |i: usize| {
            if (s >> i) & 1 != 0 {
                p[3 + i]
            } else {
                !p[3 + i]
            }
        };
        bit(0) & bit(1) & bit(2) & bit(3)
    }

    /// Floors (of any content).
    #[inline]
    pub fn floors(&self) -> Cells {
        self.planes[0] | self.planes[1] | self.planes[2]
    }

    /// Existing cells that are not empty (a non-zero code).
    #[inline]
    pub fn occupied(&self, exists: Cells) -> Cells {
        let p = &self.planes;
        exists & (p[0] | p[1] | p[2] | p[3] | p[4] | p[5] | p[6])
    }

    /// Existing empty cells.
    #[inline]
    pub fn empty(&self, exists: Cells) -> Cells {
        let p = &self.planes;
        exists & !(p[0] | p[1] | p[2] | p[3] | p[4] | p[5] | p[6])
    }

    /// Floors holding `content`.
    #[inline]
    pub fn floors_with(&self, content: u8) -> Cells {
        self.k_is(1 + content)
    }

    /// Cells that are not floors and hold the value `v` (< `cell::FLOOR`, not empty).
    #[inline]
    pub fn cells_of(&self, v: u8) -> Cells {
        self.k_is(0) & self.s_is(v)
    }

    /// Floors of stability greater than `v` (bit-sliced comparison of the stability planes).
    #[inline]
    pub fn floors_above(&self, v: u8) -> Cells {
        let mut gt = Cells::NONE;
        let mut eq = !Cells::NONE;
        for b in (0..4).rev() {
            let p = self.planes[3 + b];
            if (v >> b) & 1 == 0 {
                gt = gt | (eq & p);
                eq = eq & !p;
            } else {
                eq = eq & p;
            }
        }
        gt & self.floors()
    }

    #[inline]
    pub fn stall(&self, j: usize) -> u8 {
        self.stalls
            .get(j / 2)
            .map_or(0, |b| (b >> (4 * (j % 2))) & 15)
    }

    /// Set a stall column's fill (clamped to 15); columns past 32 are ignored.
    #[inline]
    pub fn set_stall(&mut self, j: usize, fill: u8) {
        if let Some(b) = self.stalls.get_mut(j / 2) {
            let shift = 4 * (j % 2);
            *b = (*b & !(15 << shift)) | (fill.min(15) << shift);
        }
    }

    #[inline]
    pub fn gained(&self, c: usize) -> u8 {
        self.creatures.get(c).map_or(0, |b| b & 15)
    }

    #[inline]
    pub fn used(&self, c: usize) -> u8 {
        self.creatures.get(c).map_or(0, |b| b >> 4)
    }

    /// Set a creature's marks (each clamped to 15).
    #[inline]
    pub fn set_creature(&mut self, c: usize, gained: u8, used: u8) {
        if let Some(b) = self.creatures.get_mut(c) {
            *b = gained.min(15) | (used.min(15) << 4);
        }
    }

    /// -1 or the cell of the first roof this seat added this turn.
    #[inline]
    pub fn roof(&self) -> i16 {
        if self.roof == NO_ROOF {
            -1
        } else {
            self.roof as i16
        }
    }

    /// Set the roof of this turn (-1: none; ids that do not fit a sheet are stored as none).
    #[inline]
    pub fn set_roof(&mut self, id: i16) {
        self.roof = u8::try_from(id)
            .ok()
            .filter(|&r| r != NO_ROOF)
            .unwrap_or(NO_ROOF);
    }
}

/// A set of cells of one seat's grid (§6).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum CellSet {
    /// `floor_cells(s, v, sosban)`.
    Floor {
        v: u8,
        sosban: bool,
    },
    Bridge,
    /// Roof and dragon cells: empty, directly above a floor.
    OnFloor,
    /// Floors with no content (royals, bags of gold, windows).
    BareFloor,
    /// `dragon_options`: `OnFloor` plus floors holding a bag of gold.
    DragonOptions,
    Banner,
    Beanstalk(u8),
}

/// The state's pointer to its game's interned `Config`: equal when it is the same `Config` (or an equal one).
#[derive(Clone, Copy)]
pub struct CfgRef(pub &'static Config);

impl PartialEq for CfgRef {
    fn eq(&self, o: &Self) -> bool {
        std::ptr::eq(self.0, o.0) || self.0 == o.0
    }
}

impl Eq for CfgRef {}

impl std::ops::Deref for CfgRef {
    type Target = Config;
    #[inline]
    fn deref(&self) -> &Config {
        self.0
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub struct FlipPickTowersState {
    pub(crate) cfg: CfgRef,
    pub step: Step,
    pub round: u8,
    pub turn: u8,
    pub flags_taken: u8,
    /// Bit s: seat s has taken one of this round's flag bonuses ("The first player to add a roof in each
    /// round ... The second player ...": players, not turns; §5.7).
    pub flagged: u8,
    pub final_turn: bool,
    pub royal_cards: [i8; 3],
    pub deck: Deck,
    pub display: [u8; 3],
    pub display_len: u8,
    pub seat: u8,
    pub dragons_left: u8,
    pub task: Task,
    pub magic: i8,
    pub delta: i8,
    pub pass: u8,
    pub queue: [u8; 3],
    pub queue_len: u8,
    pub decoration: Deco,
    pub bean_height: u8,
    pub seats: [Seat; MAX_PLAYERS],
}

impl std::fmt::Debug for FlipPickTowersState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_text())
    }
}

/// Records whether anything was generated.
struct Any(bool);

impl ActionSink for Any {
    fn push(&mut self, _action: u32) {
        self.0 = true;
    }
}

impl FlipPickTowersState {
    pub fn new(cfg: &'static Config) -> Self {
        let seat = Seat::new(&cfg.sheet);
        let deck = cfg.masks.full_deck;
        let mut s = FlipPickTowersState {
            cfg: CfgRef(cfg),
            step: Step::Deal,
            round: 1,
            turn: 0,
            flags_taken: 0,
            flagged: 0,
            final_turn: false,
            royal_cards: [-1; 3],
            deck,
            display: [0; 3],
            display_len: 0,
            seat: 0,
            dragons_left: 0,
            task: Task::None,
            magic: -1,
            delta: 0,
            pass: 0,
            queue: [0; 3],
            queue_len: 0,
            decoration: Deco::None,
            bean_height: 0,
            seats: [seat; MAX_PLAYERS],
        };
        // Seats past the game's count are kept at the sheet's empty grid too: equal in every state.
        s.settle();
        s
    }

    #[inline]
    pub fn cfg(&self) -> &'static Config {
        self.cfg.0
    }

    #[inline]
    pub fn sheet(&self) -> &'static Sheet {
        &self.cfg.0.sheet
    }

    #[inline]
    pub fn n(&self) -> usize {
        self.cfg.players
    }

    /// The number of dragon cards in the display.
    pub fn dragons_in_display(&self) -> u8 {
        self.display[..self.display_len as usize]
            .iter()
            .filter(|&&k| k / 5 == DRAGON_F)
            .count() as u8
    }

    fn dragon_resolutions(&self) -> u8 {
        if self.cfg.dragon_per_card {
            self.dragons_in_display()
        } else {
            1
        }
    }

    pub fn deck_total(&self) -> u32 {
        self.deck.total()
    }

    /// The card the sketching seat picked.
    #[inline]
    pub fn sketch_card(&self) -> u8 {
        let p = self.seats[self.seat as usize].pick;
        self.display[(p.max(0) as usize).min(2)]
    }

    // ----- cells --------------------------------------------------------------------------------------------

    /// The cells of seat `seat`'s grid in `set` (§6), as bit-set operations on the grid's planes: "directly
    /// above X" is X moved up one row (`up(C)`), "a floor to the left" is the floors moved one id up, outside
    /// column 0.
    pub fn cells_in(&self, seat: usize, set: CellSet) -> Cells {
        let sh = self.sheet();
        let m = &self.cfg.masks;
        let g = &self.seats[seat];
        let cols = sh.cols;
        let empty = g.empty(m.exists);
        let floors = g.floors();
        let beside = || (floors.up(1) & m.not_first_col) | (floors.down(1) & m.not_last_col);
        match set {
            CellSet::Floor { v, sosban } => {
                let holders = if sosban { floors } else { g.floors_above(v) };
                let support = (holders | g.cells_of(cell::BRIDGE)).up(cols);
                empty & (m.tower_bottom | support)
            }
            CellSet::Bridge => {
                empty & floors.up(1) & m.not_first_col & floors.down(1) & m.not_last_col
            }
            CellSet::OnFloor => empty & floors.up(cols),
            CellSet::BareFloor => g.floors_with(cell::NONE),
            CellSet::DragonOptions => (empty & floors.up(cols)) | g.floors_with(cell::GOLD),
            CellSet::Banner => empty & empty.up(cols) & beside(),
            CellSet::Beanstalk(h) => {
                let h = h as usize;
                let mut out = Cells::NONE;
                if h >= 1 {
                    for c in 0..cols {
                        let bottom = sh.bottom[c];
                        if !sh.tower[c]
                            && bottom + h - 1 <= sh.top[c]
                            && (0..h).all(|k| empty.has((bottom + k) * cols + c))
                        {
                            out.put(bottom * cols + c, true);
                        }
                    }
                }
                out
            }
        }
    }

    /// The cell actions of `set`, a word of the cell bitset at a time.
    pub fn emit_cells<K: ActionSink>(&self, seat: usize, set: CellSet, sink: &mut K) {
        for (w, &word) in self.cells_in(seat, set).0.iter().enumerate() {
            sink.push_bits(CELL + 64 * w as u32, word);
        }
    }

    pub fn any_cell(&self, seat: usize, set: CellSet) -> bool {
        !self.cells_in(seat, set).is_empty()
    }

    /// The cells the sketching seat's pending feature may take (None for a creature).
    fn feature_set(&self) -> Option<CellSet> {
        let f = self.sketch_card() / 5;
        Some(match f {
            0..=8 => CellSet::Floor {
                v: (f as i8 + 1 + self.delta).clamp(0, 10) as u8,
                sosban: self.magic == SOSBAN && self.pass == 1,
            },
            BRIDGE_F => CellSet::Bridge,
            ROOF_F | DRAGON_F => CellSet::OnFloor,
            QUEEN_F..=PRINCESS_F => CellSet::BareFloor,
            _ => return None,
        })
    }

    fn decoration_set(&self) -> CellSet {
        match self.decoration {
            Deco::Banner => CellSet::Banner,
            Deco::Beanstalk => CellSet::Beanstalk(self.bean_height),
            _ => CellSet::BareFloor,
        }
    }

    // ----- the sketch's choices -----------------------------------------------------------------------------

    /// Creatures the sketching seat may use now (§5.6 `magic`).
    fn usable(&self, c: usize) -> bool {
        let seat = &self.seats[self.seat as usize];
        let floor = self.sketch_card() / 5 <= 8;
        seat.gained(c) >= 1 && (floor || (c as i8 != BWCA && c as i8 != SOSBAN))
    }

    /// Bwca's sign `delta` is allowed unless it leaves the floor no cell while the other sign gives it one
    /// (FAQ 2: "You must add a feature if you are able"; §5.6). One sign is always allowed.
    fn bwca_sign_allowed(&self, delta: i8) -> bool {
        let f = self.sketch_card() / 5;
        let fits = |d: i8| {
            let v = (f as i8 + 1 + d).clamp(0, 10) as u8;
            self.any_cell(self.seat as usize, CellSet::Floor { v, sosban: false })
        };
        fits(delta) || !fits(-delta)
    }

    /// The stall columns `j` (bit `j`) the head of the queue may fill.
    fn open_boxes(&self) -> u64 {
        let sh = self.sheet();
        let q = self.queue[0];
        let seat = &self.seats[self.seat as usize];
        let (lo, hi) = if q == WILD {
            (0, sh.stall_columns())
        } else {
            (sh.stall_first[q as usize], sh.stall_first[q as usize + 1])
        };
        let mut open = 0u64;
        for j in lo..hi {
            open |= ((seat.stall(j) < sh.stall_boxes[j]) as u64) << j;
        }
        open
    }

    fn emit_boxes<K: ActionSink>(&self, sink: &mut K) {
        sink.push_bits(CELL + self.sheet().cells() as u32, self.open_boxes());
    }

    pub fn legal_decisions<K: ActionSink>(&self, sink: &mut K) {
        if self.seat as usize >= self.n() {
            return;
        }
        match self.step {
            Step::Dragon => self.emit_cells(self.seat as usize, CellSet::DragonOptions, sink),
            Step::Pick => sink.push_bits(PICK, 0b111),
            Step::Sketch => match self.task {
                Task::Magic => {
                    sink.push(NO_MAGIC);
                    let usable = (0..5).fold(0, |bits, c| bits | (self.usable(c) as u64) << c);
                    sink.push_bits(MAGIC, usable);
                }
                Task::Bwca => {
                    if self.bwca_sign_allowed(-1) {
                        sink.push(STABILITY_MINUS);
                    }
                    if self.bwca_sign_allowed(1) {
                        sink.push(STABILITY_PLUS);
                    }
                }
                Task::Feature => {
                    if let Some(set) = self.feature_set() {
                        self.emit_cells(self.seat as usize, set, sink)
                    }
                }
                Task::Derwen => self.emit_cells(
                    self.seat as usize,
                    CellSet::Floor {
                        v: 1,
                        sosban: false,
                    },
                    sink,
                ),
                Task::Box => {
                    if self.queue_len > 0 {
                        self.emit_boxes(sink)
                    }
                }
                Task::Decoration => {
                    self.emit_cells(self.seat as usize, self.decoration_set(), sink)
                }
                Task::None => {}
            },
            _ => {}
        }
    }

    // ----- settle (§5.3) and the task machine (§5.6) ----------------------------------------------------------

    fn scribble(&mut self, s: usize) {
        let seat = &mut self.seats[s];
        seat.crest = (seat.crest + 1).min(3);
    }

    fn begin_sketch(&mut self) {
        self.task = Task::Magic;
        self.magic = -1;
        self.delta = 0;
        self.pass = 1;
        self.queue_len = 0;
        self.queue = [0; 3];
        self.decoration = Deco::None;
        self.bean_height = 0;
    }

    fn clear_sketch(&mut self) {
        self.begin_sketch();
        self.task = Task::None;
        self.pass = 0;
    }

    fn load_queue(&mut self) {
        let k = self.sketch_card();
        self.queue = [k % 5, 0, 0];
        self.queue_len = 1;
        if self.pass == 1 && self.magic == JIJI {
            let pick = self.seats[self.seat as usize].pick as usize;
            for slot in 0..self.display_len as usize {
                if slot != pick && self.queue_len < 3 {
                    self.queue[self.queue_len as usize] = self.display[slot] % 5;
                    self.queue_len += 1;
                }
            }
        }
    }

    fn pop_queue(&mut self) {
        self.queue = [self.queue[1], self.queue[2], 0];
        self.queue_len = self.queue_len.saturating_sub(1);
    }

    fn after_feature(&mut self) {
        if self.pass == 1 && self.magic == DERWEN {
            self.task = Task::Derwen;
        } else {
            self.load_queue();
            self.task = Task::Box;
        }
    }

    /// One automatic step of the task machine; false when it stops at a decision.
    fn machine_step(&mut self) -> bool {
        let s = self.seat as usize;
        match self.task {
            Task::Magic => {
                if (0..5).any(|c| self.usable(c)) {
                    return false;
                }
                self.task = Task::Bwca;
            }
            Task::Bwca => {
                if self.magic == BWCA {
                    return false;
                }
                self.task = Task::Feature;
            }
            Task::Feature => match self.feature_set() {
                None => {
                    let c = (self.sketch_card() / 5).saturating_sub(CREATURE_F).min(4) as usize;
                    let spaces = self.sheet().creature_spaces[c];
                    let seat = &mut self.seats[s];
                    let (gained, used) = (seat.gained(c), seat.used(c));
                    if (gained as u32 + used as u32) < spaces as u32 {
                        seat.set_creature(c, gained + 1, used);
                    } else {
                        self.scribble(s);
                    }
                    self.after_feature();
                }
                Some(set) => {
                    if self.any_cell(s, set) {
                        return false;
                    }
                    self.scribble(s);
                    self.after_feature();
                }
            },
            Task::Derwen => {
                if self.any_cell(
                    s,
                    CellSet::Floor {
                        v: 1,
                        sosban: false,
                    },
                ) {
                    return false;
                }
                self.load_queue();
                self.task = Task::Box;
            }
            Task::Box => {
                if self.queue_len == 0 {
                    if self.pass == 1 && self.magic == MAB {
                        self.pass = 2;
                        self.task = Task::Feature;
                    } else {
                        self.seat += 1;
                        if (self.seat as usize) < self.n() {
                            self.begin_sketch();
                        } else {
                            self.clear_sketch();
                        }
                    }
                } else {
                    let mut any = Any(false);
                    self.emit_boxes(&mut any);
                    if any.0 {
                        return false;
                    }
                    self.pop_queue();
                }
            }
            Task::Decoration => {
                if self.any_cell(s, self.decoration_set()) {
                    return false;
                }
                self.decoration = Deco::None;
                self.bean_height = 0;
                self.task = Task::Box;
            }
            Task::None => return false,
        }
        true
    }

    pub(crate) fn settle(&mut self) {
        loop {
            match self.step {
                Step::Over => return,
                Step::Deal => {
                    if self.royal_cards.iter().any(|&c| c < 0) {
                        return;
                    }
                    self.step = Step::Flip;
                }
                Step::Flip => {
                    if self.display_len == 0 && self.deck_total() < 3 {
                        self.end_round();
                    } else if self.display_len < 3 {
                        return;
                    } else if self.dragons_in_display() == 0 {
                        self.step = Step::Pick;
                        self.seat = 0;
                    } else {
                        self.step = Step::Dragon;
                        self.seat = 0;
                        self.dragons_left = self.dragon_resolutions();
                    }
                }
                Step::Dragon => {
                    if self.seat as usize >= self.n() {
                        self.step = Step::Pick;
                        self.seat = 0;
                        self.dragons_left = 0;
                    } else if self.dragons_left == 0 {
                        self.seat += 1;
                        if (self.seat as usize) < self.n() {
                            self.dragons_left = self.dragon_resolutions();
                        }
                    } else if self.any_cell(self.seat as usize, CellSet::DragonOptions) {
                        return;
                    } else {
                        self.scribble(self.seat as usize);
                        self.dragons_left -= 1;
                    }
                }
                Step::Pick => {
                    if self.seat as usize >= self.n() {
                        self.step = Step::Sketch;
                        self.seat = 0;
                        self.begin_sketch();
                    } else {
                        return;
                    }
                }
                Step::Sketch => {
                    if self.seat as usize >= self.n() {
                        self.end_turn();
                    } else if !self.machine_step() {
                        return;
                    }
                }
            }
        }
    }

    fn end_turn(&mut self) {
        let n = self.n();
        // The bonuses go to players, not turns: a seat that took one this round takes no other.
        let roofers = (0..n)
            .filter(|&s| self.seats[s].roof() >= 0 && self.flagged & (1 << s) == 0)
            .fold(0u8, |m, s| m | 1 << s);
        if roofers != 0 && self.flags_taken < 3 {
            let flags = [3u8, 2, 1][self.flags_taken as usize];
            for (s, seat) in self.seats[..n].iter_mut().enumerate() {
                if roofers & (1 << s) != 0 {
                    seat.set_cell(seat.roof() as usize, cell::ROOF + flags);
                }
            }
            self.flagged |= roofers;
            self.flags_taken += 1;
        }
        self.display_len = 0;
        self.display = [0; 3];
        for seat in self.seats[..n].iter_mut() {
            seat.pick = -1;
            seat.set_roof(-1);
        }
        self.turn += 1;
        self.seat = 0;
        self.clear_sketch();
        if self.final_turn {
            self.end_round();
        } else {
            if self.seats[..n].iter().any(|s| s.crest >= 3) {
                self.final_turn = true;
            }
            self.step = Step::Flip;
        }
    }

    fn end_round(&mut self) {
        let scores = self.sheet_scores();
        let r = (self.round as usize).clamp(1, 2) - 1;
        let n = self.n();
        for (seat, score) in self.seats[..n].iter_mut().zip(scores) {
            seat.round_scores[r] = score as i32;
        }
        if self.round == 2 || self.final_turn {
            self.step = Step::Over;
            self.display_len = 0;
            self.display = [0; 3];
            self.seat = 0;
        } else {
            self.round = 2;
            self.turn = 0;
            self.flags_taken = 0;
            self.flagged = 0;
            self.deck = self.cfg.masks.full_deck;
            self.step = Step::Flip;
        }
    }

    // ----- scoring (§7) ------------------------------------------------------------------------------------

    pub fn windows(&self, s: usize) -> u32 {
        self.seats[s].floors_with(cell::WINDOW).len()
    }

    /// Every seat's End of Round score of its sheet as it stands (§7), clamped.
    pub fn sheet_scores(&self) -> [i64; MAX_PLAYERS] {
        let n = self.n();
        let mut windows = [0u32; MAX_PLAYERS];
        for (s, w) in windows.iter_mut().enumerate().take(n) {
            *w = self.windows(s);
        }
        let m1 = windows[..n].iter().copied().max().unwrap_or(0);
        let m2 = windows[..n].iter().copied().filter(|&w| w < m1).max();
        let mut out = [0i64; MAX_PLAYERS];
        for s in 0..n {
            let w = windows[s];
            let window_points = if n == 1 {
                3 * w as i64
            } else if w >= 1 && w == m1 {
                12
            } else if w >= 1 && Some(w) == m2 {
                6
            } else {
                0
            };
            out[s] = clamp(self.base_score(s) + window_points);
        }
        out
    }

    /// Parts 1-4, 6 and 7 of §7 for seat s (windows are added by the caller).
    fn base_score(&self, s: usize) -> i64 {
        let sh = self.sheet();
        let seat = &self.seats[s];
        let cols = sh.cols;
        let floors = seat.floors();
        let mut total: i64 = 0;
        // 1. Highest floor of each tower (and garden column, with garden_towers).
        for c in 0..cols {
            if !sh.tower[c] && !self.cfg.garden_towers {
                continue;
            }
            if let Some(r) = (sh.bottom[c]..=sh.top[c])
                .rev()
                .find(|&r| floors.has(r * cols + c))
            {
                total += sh.tower_height_points[r];
            }
        }
        // 2-4. Flags, banners, bags of gold.
        for f in 1..4u8 {
            total += 2 * f as i64 * seat.cells_of(cell::ROOF + f).len() as i64;
        }
        total += 2 * seat.cells_of(cell::BANNER_TOP).len() as i64;
        total += 4 * seat.floors_with(cell::GOLD).len() as i64;
        // 6. Beanstalks: the run of beanstalk cells from the bottom of each garden column.
        let beanstalks = seat.cells_of(cell::BEANSTALK);
        if !beanstalks.is_empty() {
            for c in 0..cols {
                if sh.tower[c] {
                    continue;
                }
                let h = (sh.bottom[c]..=sh.top[c])
                    .take_while(|&r| beanstalks.has(r * cols + c))
                    .count();
                if h > 0 {
                    total += sh.beanstalk_points.get(h - 1).copied().unwrap_or(0);
                }
            }
        }
        // 7. Royals.
        total + self.royal_points(s)
    }

    pub fn royal_points(&self, s: usize) -> i64 {
        let seat = &self.seats[s];
        let royals = seat.floors_with(cell::QUEEN)
            | seat.floors_with(cell::KING)
            | seat.floors_with(cell::PRINCESS);
        if royals.is_empty() {
            return 0;
        }
        self.royal_points_of(&seat.grid(self.sheet()))
    }

    fn royal_points_of(&self, grid: &[u8; MAX_CELLS]) -> i64 {
        let sh = self.sheet();
        let castle = Castle {
            grid,
            rows: sh.rows,
            cols: sh.cols,
            tower: &sh.tower,
        };
        let mut total = 0i64;
        for (t, &card) in self.royal_cards.iter().enumerate() {
            let Some(card) = sh.cards.get(card.max(0) as usize).filter(|_| card >= 0) else {
                continue;
            };
            let want = cell::QUEEN + t as u8;
            let mut sum: i64 = 0;
            for (id, &v) in grid[..sh.cells()].iter().enumerate() {
                if cell::is_floor(v) && cell::content(v) == want {
                    let royal = Royal {
                        r: id / sh.cols,
                        c: id % sh.cols,
                        stability: cell::stability(v) as i64,
                    };
                    sum += card.score.eval(&castle, &royal);
                }
            }
            total += clamp(sum);
        }
        total
    }

    /// Each seat's total (§5.8 `scores()`).
    pub fn total(&self, s: usize) -> i64 {
        let seat = &self.seats[s];
        seat.round_scores[0] as i64 + seat.round_scores[1] as i64
    }

    /// The solo target: the sum of the three royal cards' `targets[shape]`.
    pub fn target(&self) -> i64 {
        let sh = self.sheet();
        self.royal_cards
            .iter()
            .filter(|&&c| c >= 0)
            .filter_map(|&c| sh.cards.get(c as usize))
            .map(|card| card.targets[self.cfg.shape])
            .sum()
    }

    // ----- applying actions -----------------------------------------------------------------------------------

    fn is_chance(&self) -> bool {
        matches!(self.step, Step::Deal | Step::Flip)
    }

    fn apply_chance(&mut self, action: u32) {
        match self.step {
            Step::Deal => {
                let fresh = (action as usize) < self.sheet().cards.len()
                    && !self.royal_cards.contains(&(action as i8));
                if let Some(slot) = self.royal_cards.iter_mut().find(|c| **c < 0) {
                    if fresh {
                        *slot = action as i8;
                    }
                }
            }
            Step::Flip => {
                let k = action as usize;
                let left = self.deck.get(k);
                if k < NUM_KINDS && left > 0 && self.display_len < 3 {
                    self.deck.set(k, left - 1);
                    self.display[self.display_len as usize] = k as u8;
                    self.display_len += 1;
                }
            }
            _ => return,
        }
        self.settle();
    }

    fn place_feature(&mut self, id: usize) {
        let s = self.seat as usize;
        let f = self.sketch_card() / 5;
        let delta = self.delta;
        let sh = self.sheet();
        let seat = &mut self.seats[s];
        match f {
            0..=8 => {
                let v = (f as i8 + 1 + delta).clamp(0, 10) as u8;
                seat.set_cell(id, cell::floor(v, cell::NONE));
            }
            BRIDGE_F => seat.set_cell(id, cell::BRIDGE),
            ROOF_F => {
                seat.set_cell(id, cell::ROOF);
                if seat.roof() < 0 {
                    seat.set_roof(id as i16);
                }
            }
            QUEEN_F..=PRINCESS_F => seat.set_cell(
                id,
                cell::with_content(seat.cell(sh, id), cell::QUEEN + (f - QUEEN_F)),
            ),
            _ => seat.set_cell(id, cell::DRAGON),
        }
    }

    fn place_decoration(&mut self, id: usize) {
        let s = self.seat as usize;
        let cols = self.sheet().cols;
        let h = self.bean_height as usize;
        let sh = self.sheet();
        let cells = sh.cells();
        let seat = &mut self.seats[s];
        match self.decoration {
            // The bounds checks only matter for an illegal id given to apply_unchecked.
            Deco::Banner if id >= cols => {
                seat.set_cell(id, cell::BANNER_TOP);
                seat.set_cell(id - cols, cell::BANNER_BOTTOM);
            }
            Deco::Beanstalk => {
                for k in 0..h {
                    if id + k * cols < cells {
                        seat.set_cell(id + k * cols, cell::BEANSTALK);
                    }
                }
            }
            Deco::Gold => seat.set_cell(id, cell::with_content(seat.cell(sh, id), cell::GOLD)),
            Deco::Window => seat.set_cell(id, cell::with_content(seat.cell(sh, id), cell::WINDOW)),
            _ => {}
        }
        self.decoration = Deco::None;
        self.bean_height = 0;
        self.task = Task::Box;
    }

    fn apply_decision(&mut self, action: u32) {
        let s = self.seat as usize;
        let cells = self.sheet().cells();
        let cell_id = (action as usize).wrapping_sub(CELL as usize);
        match self.step {
            Step::Dragon => {
                if cell_id >= cells {
                    return;
                }
                let sh = self.sheet();
                let seat = &mut self.seats[s];
                let v = seat.cell(sh, cell_id);
                if cell::is_floor(v) {
                    seat.set_cell(cell_id, cell::with_content(v, cell::CROSSED));
                } else {
                    seat.set_cell(cell_id, cell::DRAGON);
                }
                self.dragons_left = self.dragons_left.saturating_sub(1);
            }
            Step::Pick => {
                self.seats[s].pick = (action.min(2)) as i8;
                self.seat += 1;
            }
            Step::Sketch => match self.task {
                Task::Magic => {
                    if action >= MAGIC {
                        let c = ((action - MAGIC) as usize).min(4);
                        let seat = &mut self.seats[s];
                        let (gained, used) = (seat.gained(c), seat.used(c));
                        seat.set_creature(c, gained.saturating_sub(1), used.saturating_add(1));
                        self.magic = c as i8;
                    }
                    self.task = Task::Bwca;
                }
                Task::Bwca => {
                    self.delta = if action == STABILITY_MINUS { -1 } else { 1 };
                    self.task = Task::Feature;
                }
                Task::Feature => {
                    if cell_id >= cells {
                        return;
                    }
                    self.place_feature(cell_id);
                    self.after_feature();
                }
                Task::Derwen => {
                    if cell_id >= cells {
                        return;
                    }
                    self.seats[s].set_cell(cell_id, cell::floor(1, cell::NONE));
                    self.load_queue();
                    self.task = Task::Box;
                }
                Task::Box => {
                    let sh = self.sheet();
                    let j = (action as usize).wrapping_sub(CELL as usize + cells);
                    if j >= sh.stall_columns() {
                        return;
                    }
                    let (boxes, resource, bean) = (
                        sh.stall_boxes[j],
                        sh.stall_resource[j],
                        sh.bean_height_of(j),
                    );
                    let fill = self.seats[s].stall(j).saturating_add(1);
                    self.seats[s].set_stall(j, fill);
                    self.pop_queue();
                    if fill >= boxes {
                        self.decoration = Deco::of_stall(resource);
                        self.bean_height = bean;
                        self.task = Task::Decoration;
                    }
                }
                Task::Decoration => {
                    if cell_id >= cells {
                        return;
                    }
                    self.place_decoration(cell_id);
                }
                Task::None => return,
            },
            _ => return,
        }
        self.settle();
    }

    // ----- hidden picks (§9.2, §9.3) -------------------------------------------------------------------------

    /// The history positions of this turn's picks by seats other than `p` while `step == "pick"` (§9.2).
    pub fn hidden_positions(&self, p: usize, history_len: usize) -> impl Iterator<Item = usize> {
        let seat = if self.step == Step::Pick {
            self.seat as usize
        } else {
            0
        };
        (0..seat)
            .filter(move |&s| s != p)
            .filter_map(move |s| (history_len + s).checked_sub(seat))
    }

    /// §9.3, with the history: every hidden pick redrawn with `rng.below(3)` in increasing seat order, in the
    /// state and at its history position.
    pub fn resample_rewriting(&self, p: usize, rng: &mut Rng, history: &mut [u32]) -> Self {
        let mut out = *self;
        if self.step != Step::Pick {
            return out;
        }
        let seat = self.seat as usize;
        for s in 0..seat.min(self.n()) {
            if s == p {
                continue;
            }
            let pick = rng.below(3) as u32;
            out.seats[s].pick = pick as i8;
            if let Some(pos) = (history.len() + s).checked_sub(seat) {
                if let Some(h) = history.get_mut(pos) {
                    *h = PICK + pick;
                }
            }
        }
        out
    }
}

impl State for FlipPickTowersState {
    fn current_player(&self) -> Player {
        match self.step {
            Step::Over => TERMINAL,
            Step::Deal | Step::Flip => CHANCE,
            Step::Dragon if self.cfg.competitive => ((self.seat as usize + 1) % self.n()) as Player,
            _ => self.seat as Player,
        }
    }

    fn legal_actions(&self, out: &mut Vec<u32>) {
        out.clear();
        match self.step {
            Step::Deal => {
                let m = self.sheet().cards.len();
                out.extend((0..m as u32).filter(|&i| !self.royal_cards.contains(&(i as i8))));
            }
            Step::Flip => self.deck.write_present(out, |k, _| k),
            _ => self.legal_decisions(out),
        }
    }

    /// At a decision, [`Self::legal_decisions`] straight into the bitset: its cell sets are bitsets already,
    /// and go in a word at a time. Chance and the end list theirs first, as the default does.
    fn legal_bits(&self, out: &mut [u64], scratch: &mut Vec<u32>) {
        out.fill(0);
        let mut bits = BitsetSink(out);
        if self.is_chance() || self.step == Step::Over {
            self.legal_actions(scratch);
            scratch.iter().for_each(|&a| bits.push(a));
        } else {
            self.legal_decisions(&mut bits);
        }
    }

    fn chance_weights(&self, out: &mut Vec<(u32, u64)>) {
        out.clear();
        match self.step {
            Step::Deal => {
                let m = self.sheet().cards.len();
                out.extend(
                    (0..m as u32)
                        .filter(|&i| !self.royal_cards.contains(&(i as i8)))
                        .map(|i| (i, 1)),
                );
            }
            Step::Flip => self.deck.write_present(out, |k, n| (k, n as u64)),
            _ => {}
        }
    }

    /// The same draw as over [`State::chance_weights`], without the list: at the Flip the deck's packed
    /// counts are walked a word at a time; at the Deal the weights are all 1 (the cards not yet dealt).
    #[inline]
    fn sample_chance(&self, rng: &mut Rng, _scratch: &mut Vec<(u32, u64)>) -> Option<u32> {
        match self.step {
            Step::Flip => {
                let total = self.deck.total();
                if total == 0 {
                    return None;
                }
                self.deck.nth_card(rng.below(total as u64) as u32)
            }
            Step::Deal => {
                let m = self.sheet().cards.len() as u32;
                let dealt = |i: u32| self.royal_cards.contains(&(i as i8));
                let total = (0..m).filter(|&i| !dealt(i)).count() as u64;
                if total == 0 {
                    return None;
                }
                let r = rng.below(total) as usize;
                (0..m).filter(|&i| !dealt(i)).nth(r)
            }
            _ => None,
        }
    }

    fn is_legal(&self, action: u32) -> bool {
        match self.step {
            Step::Deal => {
                (action as usize) < self.sheet().cards.len()
                    && !self.royal_cards.contains(&(action as i8))
            }
            Step::Flip => (action as usize) < NUM_KINDS && self.deck.get(action as usize) > 0,
            Step::Over => false,
            _ => {
                if action as usize >= self.cfg.num_actions() {
                    return false;
                }
                let mut finder = Finder::new(action);
                self.legal_decisions(&mut finder);
                finder.found
            }
        }
    }

    fn apply_unchecked(&mut self, action: u32) {
        if self.is_chance() {
            self.apply_chance(action);
        } else if self.step != Step::Over {
            self.apply_decision(action);
        }
    }

    fn action_to_string(&self, action: u32) -> crate::Result<String> {
        super::notation::action_to_string(self, action)
    }

    fn string_to_action(&self, text: &str) -> crate::Result<u32> {
        super::notation::string_to_action(self, text)
    }

    fn returns(&self, out: &mut [f64]) {
        out.iter_mut().for_each(|r| *r = 0.0);
        if self.step != Step::Over {
            return;
        }
        let n = self.n();
        if n == 1 {
            if let Some(o) = out.first_mut() {
                *o = if self.total(0) > self.target() {
                    1.0
                } else {
                    0.0
                };
            }
            return;
        }
        let best = (0..n).map(|s| self.total(s)).max().unwrap_or(0);
        let best_r2 = (0..n)
            .filter(|&s| self.total(s) == best)
            .map(|s| self.seats[s].round_scores[1])
            .max()
            .unwrap_or(0);
        let winners: Vec<usize> = (0..n)
            .filter(|&s| self.total(s) == best && self.seats[s].round_scores[1] == best_r2)
            .collect();
        let share = 1.0 / winners.len() as f64;
        for s in winners {
            if let Some(o) = out.get_mut(s) {
                *o = share;
            }
        }
    }

    fn scores(&self, out: &mut [f64]) {
        for (s, o) in out.iter_mut().enumerate().take(self.n()) {
            *o = self.total(s) as f64;
        }
    }

    fn observation_tensor(&self, player: usize, out: &mut [f32]) {
        super::observation::write(self, player, out)
    }

    fn observation_string(&self, player: usize) -> String {
        super::observation::text(self, Some(player))
    }

    fn information_state_string(&self, player: usize, history: &[u32]) -> String {
        super::observation::information_state(self, player, history)
    }

    fn serialize(&self, history: &[u32]) -> String {
        super::serial::serialize(self, history)
    }

    /// §9.3: the picks other seats made this turn are redrawn uniformly (the history is not part of a bare
    /// state; [`FlipPickTowersState::resample_rewriting`] also rewrites it).
    fn resample_from_infostate(&self, player: usize, rng: &mut Rng) -> Self {
        self.resample_rewriting(player, rng, &mut [])
    }

    fn resample_with_history(
        &self,
        player: usize,
        history: &[u32],
        rng: &mut Rng,
    ) -> (Self, Vec<u32>) {
        let mut history = history.to_vec();
        let state = self.resample_rewriting(player, rng, &mut history);
        (state, history)
    }

    fn to_text(&self) -> String {
        super::observation::text(self, None)
    }

    /// For a game cut short: the score each seat would have if its sheet were scored as it stands (banked
    /// rounds plus the current sheet, counted twice in round 1, since round 2 scores the sheet again), turned
    /// into shares of the win by a softmax over a few points; solo, the chance of beating the target.
    fn heuristic_value(&self, out: &mut [f64]) {
        if self.step == Step::Over {
            return self.returns(out);
        }
        const TEMPERATURE: f64 = 6.0;
        let n = self.n();
        let now = self.sheet_scores();
        let times = if self.round == 1 && !self.final_turn {
            2.0
        } else {
            1.0
        };
        let mut est = [0f64; MAX_PLAYERS];
        for s in 0..n {
            est[s] = self.total(s) as f64 + times * now[s] as f64;
        }
        if n == 1 {
            if let Some(o) = out.first_mut() {
                let x = (est[0] - self.target() as f64) / TEMPERATURE;
                *o = 1.0 / (1.0 + (-x).exp());
            }
            return;
        }
        crate::outcome::softmax_shares(out, &est[..n], TEMPERATURE);
    }
}
