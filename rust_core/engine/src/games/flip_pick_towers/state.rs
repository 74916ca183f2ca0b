//! The state of a Flip Pick Towers game and its rules of play (docs/rules/flip_pick_towers.md §4-7).
//!
//! The sheet is static data behind the game's `Arc<Config>`; a state holds a pointer to it and, per seat,
//! fixed-size arrays sized for the largest sheet §3 allows (16 x 12 cells, 32 stall columns). Entries past the
//! sheet's sizes and past a list's length stay at their defaults, so the derived equality compares live data
//! only. Cloning copies the arrays and bumps the `Arc`'s count: it never copies the sheet.

use super::royal::{clamp, Castle, Royal};
use super::sheet::{Sheet, MAX_CELLS, MAX_STALL_COLUMNS, NUM_KINDS};
use super::{Config, MAX_PLAYERS};
use crate::{ActionSink, Finder, Player, Rng, State, CHANCE, TERMINAL};
use std::sync::Arc;

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

/// One seat's sheet and markers.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Seat {
    pub grid: [u8; MAX_CELLS],
    pub stalls: [u8; MAX_STALL_COLUMNS],
    pub gained: [u8; 5],
    pub used: [u8; 5],
    pub crest: u8,
    /// -1 or a display slot.
    pub pick: i8,
    /// -1 or the cell of the first roof this seat added this turn.
    pub roof: i16,
    pub round_scores: [i32; 2],
}

impl Seat {
    pub fn new(sheet: &Sheet) -> Seat {
        let mut grid = [0u8; MAX_CELLS];
        for r in 0..sheet.rows {
            for c in 0..sheet.cols {
                grid[r * sheet.cols + c] = if sheet.exists(r, c) {
                    cell::EMPTY
                } else {
                    cell::NONE_CELL
                };
            }
        }
        Seat {
            grid,
            stalls: [0; MAX_STALL_COLUMNS],
            gained: [0; 5],
            used: [0; 5],
            crest: 0,
            pick: -1,
            roof: -1,
            round_scores: [0; 2],
        }
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

#[derive(Clone)]
pub struct FlipPickTowersState {
    pub(crate) cfg: Arc<Config>,
    pub step: Step,
    pub round: u8,
    pub turn: u8,
    pub flags_taken: u8,
    pub final_turn: bool,
    pub royal_cards: [i8; 3],
    pub deck: [u8; NUM_KINDS],
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

impl PartialEq for FlipPickTowersState {
    fn eq(&self, o: &Self) -> bool {
        (Arc::ptr_eq(&self.cfg, &o.cfg) || self.cfg == o.cfg)
            && self.step == o.step
            && self.round == o.round
            && self.turn == o.turn
            && self.flags_taken == o.flags_taken
            && self.final_turn == o.final_turn
            && self.royal_cards == o.royal_cards
            && self.deck == o.deck
            && self.display == o.display
            && self.display_len == o.display_len
            && self.seat == o.seat
            && self.dragons_left == o.dragons_left
            && self.task == o.task
            && self.magic == o.magic
            && self.delta == o.delta
            && self.pass == o.pass
            && self.queue == o.queue
            && self.queue_len == o.queue_len
            && self.decoration == o.decoration
            && self.bean_height == o.bean_height
            && self.seats == o.seats
    }
}

impl Eq for FlipPickTowersState {}

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
    pub fn new(cfg: Arc<Config>) -> Self {
        let seat = Seat::new(&cfg.sheet);
        let deck = cfg.sheet.full_deck;
        let mut s = FlipPickTowersState {
            cfg,
            step: Step::Deal,
            round: 1,
            turn: 0,
            flags_taken: 0,
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
    pub fn cfg(&self) -> &Config {
        &self.cfg
    }

    #[inline]
    pub fn sheet(&self) -> &Sheet {
        &self.cfg.sheet
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
        self.deck.iter().map(|&c| c as u32).sum()
    }

    /// The card the sketching seat picked.
    #[inline]
    pub fn sketch_card(&self) -> u8 {
        let p = self.seats[self.seat as usize].pick;
        self.display[(p.max(0) as usize).min(2)]
    }

    // ----- cells --------------------------------------------------------------------------------------------

    #[inline(always)]
    fn supports_floor(
        &self,
        grid: &[u8],
        id: usize,
        r: usize,
        c: usize,
        v: u8,
        sosban: bool,
    ) -> bool {
        let sh = self.sheet();
        if r == sh.bottom[c] {
            return sh.tower[c];
        }
        let below = grid[id - sh.cols];
        below == cell::BRIDGE || (cell::is_floor(below) && (sosban || cell::stability(below) > v))
    }

    /// Whether cell `id` = `(r, c)` of `grid` belongs to `set` (§6).
    #[inline(always)]
    pub fn fits(&self, grid: &[u8], set: CellSet, id: usize, r: usize, c: usize) -> bool {
        let sh = self.sheet();
        let v = grid[id];
        let cols = sh.cols;
        let on_floor = || r > sh.bottom[c] && cell::is_floor(grid[id - cols]);
        let floor_left = || c > 0 && cell::is_floor(grid[id - 1]);
        let floor_right = || c + 1 < cols && cell::is_floor(grid[id + 1]);
        match set {
            CellSet::Floor { v: stab, sosban } => {
                v == cell::EMPTY && self.supports_floor(grid, id, r, c, stab, sosban)
            }
            CellSet::Bridge => v == cell::EMPTY && floor_left() && floor_right(),
            CellSet::OnFloor => v == cell::EMPTY && on_floor(),
            CellSet::BareFloor => cell::is_floor(v) && cell::content(v) == cell::NONE,
            CellSet::DragonOptions => {
                (v == cell::EMPTY && on_floor())
                    || (cell::is_floor(v) && cell::content(v) == cell::GOLD)
            }
            CellSet::Banner => {
                v == cell::EMPTY
                    && r > sh.bottom[c]
                    && grid[id - cols] == cell::EMPTY
                    && (floor_left() || floor_right())
            }
            CellSet::Beanstalk(h) => {
                let h = h as usize;
                !sh.tower[c]
                    && h >= 1
                    && r == sh.bottom[c]
                    && r + h - 1 <= sh.top[c]
                    && (0..h).all(|k| grid[id + k * cols] == cell::EMPTY)
            }
        }
    }

    /// Visit the cells of `set` in id order (row-major) until `f` returns true; returns whether it did.
    /// One loop per kind of set, so that the set's test is inlined into its loop.
    fn scan(&self, seat: usize, set: CellSet, f: impl FnMut(usize) -> bool) -> bool {
        match set {
            CellSet::Floor { v, sosban } => self.scan_by(seat, CellSet::Floor { v, sosban }, f),
            CellSet::Bridge => self.scan_by(seat, CellSet::Bridge, f),
            CellSet::OnFloor => self.scan_by(seat, CellSet::OnFloor, f),
            CellSet::BareFloor => self.scan_by(seat, CellSet::BareFloor, f),
            CellSet::DragonOptions => self.scan_by(seat, CellSet::DragonOptions, f),
            CellSet::Banner => self.scan_by(seat, CellSet::Banner, f),
            CellSet::Beanstalk(h) => self.scan_by(seat, CellSet::Beanstalk(h), f),
        }
    }

    #[inline(always)]
    fn scan_by(&self, seat: usize, set: CellSet, mut f: impl FnMut(usize) -> bool) -> bool {
        let sh = self.sheet();
        let grid = &self.seats[seat].grid;
        let mut id = 0;
        for r in 0..sh.rows {
            for c in 0..sh.cols {
                if self.fits(grid, set, id, r, c) && f(id) {
                    return true;
                }
                id += 1;
            }
        }
        false
    }

    pub fn emit_cells<K: ActionSink>(&self, seat: usize, set: CellSet, sink: &mut K) {
        self.scan(seat, set, |id| {
            sink.push(CELL + id as u32);
            false
        });
    }

    pub fn any_cell(&self, seat: usize, set: CellSet) -> bool {
        self.scan(seat, set, |_| true)
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
        seat.gained[c] >= 1 && (floor || (c as i8 != BWCA && c as i8 != SOSBAN))
    }

    fn emit_boxes<K: ActionSink>(&self, sink: &mut K) {
        let sh = self.sheet();
        let q = self.queue[0];
        let seat = &self.seats[self.seat as usize];
        let (lo, hi) = if q == WILD {
            (0, sh.stall_columns())
        } else {
            (sh.stall_first[q as usize], sh.stall_first[q as usize + 1])
        };
        let base = CELL + sh.cells() as u32;
        for j in lo..hi {
            if seat.stalls[j] < sh.stall_boxes[j] {
                sink.push(base + j as u32);
            }
        }
    }

    pub fn legal_decisions<K: ActionSink>(&self, sink: &mut K) {
        if self.seat as usize >= self.n() {
            return;
        }
        match self.step {
            Step::Dragon => self.emit_cells(self.seat as usize, CellSet::DragonOptions, sink),
            Step::Pick => {
                for a in PICK..PICK + 3 {
                    sink.push(a)
                }
            }
            Step::Sketch => match self.task {
                Task::Magic => {
                    sink.push(NO_MAGIC);
                    for c in 0..5 {
                        if self.usable(c) {
                            sink.push(MAGIC + c as u32);
                        }
                    }
                }
                Task::Bwca => {
                    sink.push(STABILITY_MINUS);
                    sink.push(STABILITY_PLUS);
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
                    if (seat.gained[c] as u32 + seat.used[c] as u32) < spaces as u32 {
                        seat.gained[c] += 1;
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
        let roofers = self.seats[..n].iter().any(|s| s.roof >= 0);
        if roofers && self.flags_taken < 3 {
            let flags = [3u8, 2, 1][self.flags_taken as usize];
            for seat in self.seats[..n].iter_mut() {
                if seat.roof >= 0 {
                    seat.grid[seat.roof as usize] = cell::ROOF + flags;
                }
            }
            self.flags_taken += 1;
        }
        self.display_len = 0;
        self.display = [0; 3];
        for seat in self.seats[..n].iter_mut() {
            seat.pick = -1;
            seat.roof = -1;
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
            self.deck = self.sheet().full_deck;
            self.step = Step::Flip;
        }
    }

    // ----- scoring (§7) ------------------------------------------------------------------------------------

    pub fn windows(&self, s: usize) -> u32 {
        let grid = &self.seats[s].grid;
        grid[..self.sheet().cells()]
            .iter()
            .filter(|&&v| cell::is_floor(v) && cell::content(v) == cell::WINDOW)
            .count() as u32
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
        let grid = &self.seats[s].grid;
        let cols = sh.cols;
        let mut total: i64 = 0;
        // 1. Highest floor of each tower (and garden column, with garden_towers).
        for c in 0..cols {
            if !sh.tower[c] && !self.cfg.garden_towers {
                continue;
            }
            if let Some(r) = (sh.bottom[c]..=sh.top[c])
                .rev()
                .find(|&r| cell::is_floor(grid[r * cols + c]))
            {
                total += sh.tower_height_points[r];
            }
        }
        // 2-4. Flags, banners, bags of gold.
        for &v in &grid[..sh.cells()] {
            if cell::is_roof(v) {
                total += 2 * cell::flags(v) as i64;
            } else if v == cell::BANNER_TOP {
                total += 2;
            } else if cell::is_floor(v) && cell::content(v) == cell::GOLD {
                total += 4;
            }
        }
        // 6. Beanstalks: the run of beanstalk cells from the bottom of each garden column.
        for c in 0..cols {
            if sh.tower[c] {
                continue;
            }
            let h = (sh.bottom[c]..=sh.top[c])
                .take_while(|&r| grid[r * cols + c] == cell::BEANSTALK)
                .count();
            if h > 0 {
                total += sh.beanstalk_points.get(h - 1).copied().unwrap_or(0);
            }
        }
        // 7. Royals.
        total + self.royal_points(s)
    }

    pub fn royal_points(&self, s: usize) -> i64 {
        let sh = self.sheet();
        let grid = &self.seats[s].grid;
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
                if k < NUM_KINDS && self.deck[k] > 0 && self.display_len < 3 {
                    self.deck[k] -= 1;
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
        let seat = &mut self.seats[s];
        match f {
            0..=8 => {
                let v = (f as i8 + 1 + delta).clamp(0, 10) as u8;
                seat.grid[id] = cell::floor(v, cell::NONE);
            }
            BRIDGE_F => seat.grid[id] = cell::BRIDGE,
            ROOF_F => {
                seat.grid[id] = cell::ROOF;
                if seat.roof < 0 {
                    seat.roof = id as i16;
                }
            }
            QUEEN_F..=PRINCESS_F => {
                seat.grid[id] = cell::with_content(seat.grid[id], cell::QUEEN + (f - QUEEN_F))
            }
            _ => seat.grid[id] = cell::DRAGON,
        }
    }

    fn place_decoration(&mut self, id: usize) {
        let s = self.seat as usize;
        let cols = self.sheet().cols;
        let h = self.bean_height as usize;
        let cells = self.sheet().cells();
        let seat = &mut self.seats[s];
        match self.decoration {
            // The bounds checks only matter for an illegal id given to apply_unchecked.
            Deco::Banner if id >= cols => {
                seat.grid[id] = cell::BANNER_TOP;
                seat.grid[id - cols] = cell::BANNER_BOTTOM;
            }
            Deco::Beanstalk => {
                for k in 0..h {
                    if let Some(g) = seat.grid[..cells].get_mut(id + k * cols) {
                        *g = cell::BEANSTALK;
                    }
                }
            }
            Deco::Gold => seat.grid[id] = cell::with_content(seat.grid[id], cell::GOLD),
            Deco::Window => seat.grid[id] = cell::with_content(seat.grid[id], cell::WINDOW),
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
                let g = &mut self.seats[s].grid[cell_id];
                if cell::is_floor(*g) {
                    *g = cell::with_content(*g, cell::CROSSED);
                } else {
                    *g = cell::DRAGON;
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
                        seat.gained[c] = seat.gained[c].saturating_sub(1);
                        seat.used[c] = seat.used[c].saturating_add(1);
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
                    self.seats[s].grid[cell_id] = cell::floor(1, cell::NONE);
                    self.load_queue();
                    self.task = Task::Box;
                }
                Task::Box => {
                    let sh = &self.cfg.sheet;
                    let j = (action as usize).wrapping_sub(CELL as usize + cells);
                    if j >= sh.stall_columns() {
                        return;
                    }
                    let (boxes, resource, bean) = (
                        sh.stall_boxes[j],
                        sh.stall_resource[j],
                        sh.bean_height_of(j),
                    );
                    let fill = self.seats[s].stalls[j].saturating_add(1);
                    self.seats[s].stalls[j] = fill;
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
    pub fn resample_with_history(&self, p: usize, rng: &mut Rng, history: &mut [u32]) -> Self {
        let mut out = self.clone();
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
            Step::Flip => out.extend(
                self.sheet()
                    .kinds
                    .iter()
                    .filter(|&&k| self.deck[k as usize] > 0)
                    .map(|&k| k as u32),
            ),
            _ => self.legal_decisions(out),
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
            Step::Flip => {
                let kinds = &self.sheet().kinds;
                out.reserve(kinds.len());
                for &k in kinds {
                    let n = self.deck[k as usize];
                    if n > 0 {
                        out.push((k as u32, n as u64));
                    }
                }
            }
            _ => {}
        }
    }

    fn is_legal(&self, action: u32) -> bool {
        match self.step {
            Step::Deal => {
                (action as usize) < self.sheet().cards.len()
                    && !self.royal_cards.contains(&(action as i8))
            }
            Step::Flip => (action as usize) < NUM_KINDS && self.deck[action as usize] > 0,
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
    /// state; [`FlipPickTowersState::resample_with_history`] also rewrites it).
    fn resample_from_infostate(&self, player: usize, rng: &mut Rng) -> Self {
        self.resample_with_history(player, rng, &mut [])
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
        let best = est[..n].iter().copied().fold(f64::MIN, f64::max);
        let mut sum = 0.0;
        for x in est[..n].iter_mut() {
            *x = ((*x - best) / TEMPERATURE).exp();
            sum += *x;
        }
        for (o, x) in out.iter_mut().zip(&est[..n]) {
            *o = x / sum;
        }
    }
}
