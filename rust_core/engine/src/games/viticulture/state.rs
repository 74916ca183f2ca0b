//! The rules: state, phase driver, tasks (docs/rules/viticulture.md §5–§11, §15).
//!
//! Flow control is a fixed stack of small `Task`s. The top task is the current node (a decision or a
//! chance draw); automatic tasks run in `advance()` until a node is reached. When the stack is empty the
//! phase driver (`drive`) pushes the next unit of the year.

use super::data::*;
use super::notation::*;
use super::Rules;

pub const MAXP: usize = 6;
pub const STACK: usize = 64;
pub const NONE: u8 = 255;
pub const HAND_LIMIT: u32 = 7;
pub const SEASON_CAP: u8 = 14;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Setup,
    Spring,
    Summer,
    Fall,
    Winter,
    YearEnd,
    Over,
}

pub const PHASE_NAMES: [&str; 7] = [
    "setup", "spring", "summer", "fall", "winter", "year_end", "over",
];

impl Phase {
    pub fn index(self) -> usize {
        self as usize
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AskKind {
    Vendor,
    Banker,
    Swindler,
    Motivator,
    GuestSpeaker,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Task {
    // chance nodes
    First,
    DealMama(u8),
    DealPapa(u8),
    Draw {
        seat: u8,
        deck: u8,
        reveal: bool,
    },
    // setup and year decisions
    KeepMama(u8),
    KeepPapa(u8),
    PapaChoice(u8),
    Wake(u8),
    Row5(u8),
    Turn(u8),
    FallChoice {
        seat: u8,
        first: u8,
    },
    HandLimit(u8),
    // board actions
    AcceptDraw {
        seat: u8,
        deck: u8,
    },
    PlayVisitor {
        seat: u8,
        season: u8,
        again: bool,
    },
    Sell {
        seat: u8,
        sold: bool,
    },
    Plant {
        seat: u8,
        left: u8,
        need: u8,
        flags: u8,
    },
    Harvest {
        seat: u8,
        left: u8,
        need: u8,
    },
    Make {
        seat: u8,
        left: u8,
        need: u8,
        min_value: u8,
        ignore_cellar: bool,
    },
    Build {
        seat: u8,
        discount: u8,
        free: bool,
        allowed: u8,
    },
    Fill {
        seat: u8,
        bonus_vp: u8,
        order: u8,
        req: u8,
    },
    Yoke(u8),
    GainLira {
        seat: u8,
        n: u8,
    },
    GainVp {
        seat: u8,
        n: u8,
    },
    ResolvePlan(u8),
    // visitors
    Finish(u8),
    Choose {
        seat: u8,
        card: u8,
        stage: u8,
        first: u8,
    },
    Steps {
        seat: u8,
        card: u8,
        opt: u8,
        idx: u8,
    },
    Overseer {
        seat: u8,
        card: u8,
    },
    DiscardCards {
        seat: u8,
        left: u8,
        visitor: bool,
    },
    DiscardWine {
        seat: u8,
        min_value: u8,
    },
    DiscardGrape(u8),
    DiscardGrapeOrWine(u8),
    PlaceGrape(u8),
    Switch {
        seat: u8,
        first: u8,
    },
    Uproot {
        seat: u8,
        left: u8,
        stage: u8,
    },
    AgeWine(u8),
    Piles {
        seat: u8,
        left: u8,
        used: u8,
    },
    Reveals {
        seat: u8,
        left: u8,
    },
    RevealsDone,
    Plan(u8),
    /// `taken`: workers retrieved so far; "up to" needs at least one (§14.17), so `done` comes after the first.
    Retrieve {
        seat: u8,
        left: u8,
        taken: u8,
    },
    Rooster(u8),
    Take(u8),
    // interactions
    Ask {
        kind: AskKind,
        asker: u8,
        seat: u8,
    },
    HandyBuild {
        asker: u8,
        seat: u8,
    },
    Crew {
        asker: u8,
        seat: u8,
    },
    MentorMake {
        asker: u8,
        seat: u8,
        made: u8,
    },
    MentorDraw {
        seat: u8,
        left: u8,
    },
    Wedding {
        seat: u8,
        chosen: u8,
        count: u8,
    },
    Governor {
        seat: u8,
        chosen: u8,
    },
    GovGive {
        asker: u8,
        seat: u8,
    },
    Importer {
        asker: u8,
        seat: u8,
    },
    ImporterEnd(u8),
    /// Organizer's "then pass", after the row's bonus
    PassAfter(u8),
    Queen {
        asker: u8,
        seat: u8,
    },
    QueenGive {
        asker: u8,
        seat: u8,
        left: u8,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Field {
    pub owned: bool,
    pub vines: [u8; VINES],
    pub harvested: bool,
    pub over: bool,
}

impl Field {
    pub fn total(&self) -> u32 {
        let d = data();
        (0..VINES)
            .map(|v| self.vines[v] as u32 * d.vine_value(v) as u32)
            .sum()
    }
    pub fn count(&self) -> u32 {
        self.vines.iter().map(|&c| c as u32).sum()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seat {
    pub vp: i32,
    pub lira: i32,
    pub residual: i32,
    pub regular: u8,
    pub trained: u8,
    pub grande_placed: bool,
    pub regular_placed: u8,
    pub structures: u8,
    pub fields: [Field; 3],
    /// bit v-1: a token of value v (red, white)
    pub crush: [u16; 2],
    /// red, white, blush, sparkling
    pub cellar: [u16; 4],
    pub hand: [u8; KINDS],
    pub known: [[u8; KINDS]; MAXP],
    pub windmill_used: bool,
    pub tasting_used: bool,
    pub yoke_used: bool,
    pub yoke_kind: u8,
    pub cart: u8,
    pub cart_grande: bool,
    pub dealt_mamas: [u8; 2],
    pub dealt_papas: [u8; 2],
    pub mama: u8,
    pub papa: u8,
    /// 0 before the choice, 1 lira, 2 gift
    pub gift: u8,
}

impl Seat {
    fn new() -> Self {
        let field = |_| Field {
            owned: true,
            ..Field::default()
        };
        Seat {
            vp: 0,
            lira: 0,
            residual: 0,
            regular: 2,
            trained: 0,
            grande_placed: false,
            regular_placed: 0,
            structures: 0,
            fields: [field(0), field(1), field(2)],
            crush: [0; 2],
            cellar: [0; 4],
            hand: [0; KINDS],
            known: [[0; KINDS]; MAXP],
            windmill_used: false,
            tasting_used: false,
            yoke_used: false,
            yoke_kind: 0,
            cart: 0,
            cart_grande: false,
            dealt_mamas: [NONE; 2],
            dealt_papas: [NONE; 2],
            mama: NONE,
            papa: NONE,
            gift: 0,
        }
    }
    #[inline]
    pub fn has(&self, s: usize) -> bool {
        self.structures & (1 << s) != 0
    }
    pub fn hand_size(&self) -> u32 {
        self.hand.iter().map(|&c| c as u32).sum()
    }
    pub fn hand_of(&self, deck: usize) -> u32 {
        kinds_of(deck).map(|k| self.hand[k] as u32).sum()
    }
    pub fn cellar_top(&self) -> u8 {
        if self.has(LARGE) {
            9
        } else if self.has(MEDIUM) {
            6
        } else {
            3
        }
    }
    pub fn any_wine(&self) -> bool {
        self.cellar.iter().any(|&c| c != 0)
    }
    pub fn any_grape(&self) -> bool {
        self.crush.iter().any(|&c| c != 0)
    }
    pub fn wine_total(&self) -> i64 {
        let mut t = 0;
        for c in self.cellar {
            for v in 1..=9 {
                if c & (1 << (v - 1)) != 0 {
                    t += v as i64;
                }
            }
        }
        t
    }
    pub fn grape_total(&self) -> i64 {
        let mut t = 0;
        for c in self.crush {
            for v in 1..=9 {
                if c & (1 << (v - 1)) != 0 {
                    t += v as i64;
                }
            }
        }
        t
    }
    pub fn built_count(&self) -> u32 {
        self.structures.count_ones()
    }
    pub fn planted_vines(&self) -> u32 {
        self.fields.iter().map(|f| f.count()).sum()
    }
}

/// The highest free slot at or below v and at or above lo (bits: bit x-1 = slot x taken).
#[inline]
pub fn free_slot(bits: u16, v: u8, lo: u8) -> Option<u8> {
    let mut x = v.min(9);
    while x >= lo.max(1) {
        if bits & (1 << (x - 1)) == 0 {
            return Some(x);
        }
        x -= 1;
    }
    None
}

fn tier_top(v: u8) -> u8 {
    if v <= 3 {
        3
    } else if v <= 6 {
        6
    } else {
        9
    }
}

/// Equality is of the game: the live parts of the fixed arrays (up to their lengths), not the stale entries past
/// them; not `base` (where the history's known prefix was read from: two states read from different snapshots
/// of one game are the same state) nor the replay's halt flags.
#[derive(Clone, Debug)]
pub struct VitState {
    pub rules: Rules,
    pub phase: Phase,
    pub stage: u8,
    pub idx: u8,
    pub year: u16,
    pub first: u8,
    pub turn_seat: i8,
    pub rows: [u8; MAXP],
    pub passed: [bool; MAXP],
    pub placements: [u8; MAXP],
    pub temp: i8,
    pub decks: [[u8; KINDS]; 4],
    pub discards: [[u8; 42]; 4],
    pub discard_len: [u8; 4],
    /// per action: entries seat | space << 3 | kind << 5 | planned << 6
    pub board: [[u8; 12]; 12],
    pub board_len: [u8; 12],
    /// (seat, action, space, kind)
    pub planned: [[u8; 4]; 12],
    pub planned_len: u8,
    pub end_flag: bool,
    pub mama_dealt: u32,
    pub papa_dealt: u32,
    pub seats: [Seat; MAXP],
    pub stack: [Task; STACK],
    pub sp: u8,
    // scratch of the step in progress
    pub last_planted: u8,
    pub last_built: u8,
    pub harvested_step: u8,
    pub made_sparkling: u8,
    pub made_types: u8,
    pub discarded_strict: bool,
    pub tally: u8,
    pub reveal: [u8; 4],
    pub escrow: [[u8; 2]; 3],
    pub escrow_len: u8,
    /// set when a unit starts at the current node (§15.4)
    pub fresh_unit: bool,
    /// set only on serial.rs' replay states: stop `advance` where the winter reservations' unit starts, so that
    /// its snapshot is taken before any reservation resolves; `halted` says it stopped there
    pub halt_at_reservations: bool,
    pub halted: bool,
    /// the snapshot this state was read from when its history does not replay from the start (§15.7)
    pub base: Option<std::sync::Arc<super::serial::Base>>,
}

impl PartialEq for VitState {
    fn eq(&self, o: &Self) -> bool {
        let discards = (0..4).all(|d| {
            let l = self.discard_len[d] as usize;
            self.discard_len[d] == o.discard_len[d] && self.discards[d][..l] == o.discards[d][..l]
        });
        let board = (0..12).all(|a| {
            let l = (self.board_len[a] as usize).min(12);
            self.board_len[a] == o.board_len[a] && self.board[a][..l] == o.board[a][..l]
        });
        let (pl, sp, el) = (
            self.planned_len as usize,
            self.sp as usize,
            self.escrow_len as usize,
        );
        self.rules == o.rules
            && self.phase == o.phase
            && self.stage == o.stage
            && self.idx == o.idx
            && self.year == o.year
            && self.first == o.first
            && self.turn_seat == o.turn_seat
            && self.rows == o.rows
            && self.passed == o.passed
            && self.placements == o.placements
            && self.temp == o.temp
            && self.decks == o.decks
            && discards
            && board
            && self.planned_len == o.planned_len
            && self.planned[..pl.min(12)] == o.planned[..pl.min(12)]
            && self.end_flag == o.end_flag
            && self.mama_dealt == o.mama_dealt
            && self.papa_dealt == o.papa_dealt
            && self.seats == o.seats
            && self.sp == o.sp
            && self.stack[..sp.min(STACK)] == o.stack[..sp.min(STACK)]
            && self.last_planted == o.last_planted
            && self.last_built == o.last_built
            && self.harvested_step == o.harvested_step
            && self.made_sparkling == o.made_sparkling
            && self.made_types == o.made_types
            && self.discarded_strict == o.discarded_strict
            && self.tally == o.tally
            && self.reveal == o.reveal
            && self.escrow_len == o.escrow_len
            && self.escrow[..el.min(3)] == o.escrow[..el.min(3)]
            && self.fresh_unit == o.fresh_unit
    }
}

impl Eq for VitState {}

impl VitState {
    /// At a unit start: the scratch of the steps before it is of no further use, and a state read from this
    /// unit's snapshot starts with it clear, so the live state clears it too (equal states compare equal).
    pub(crate) fn clear_scratch(&mut self) {
        self.last_planted = NONE;
        self.last_built = NONE;
        self.harvested_step = 0;
        self.made_sparkling = 0;
        self.made_types = 0;
        self.discarded_strict = false;
        self.tally = 0;
    }

    pub fn new(rules: Rules) -> Self {
        let d = data();
        let mut decks = [[0u8; KINDS]; 4];
        for k in 0..KINDS {
            decks[deck_of(k)][k] = d.copies(k);
        }
        if !rules.queen {
            if let Some(q) = d.visitors.iter().position(|v| v.key == "queen") {
                decks[D_WINTER][SUMMER0 + q] = 0;
            }
        }
        let mut s = VitState {
            rules,
            phase: Phase::Setup,
            stage: 0,
            idx: 0,
            year: 1,
            first: 0,
            turn_seat: -1,
            rows: [0; MAXP],
            passed: [false; MAXP],
            placements: [0; MAXP],
            temp: -1,
            decks,
            discards: [[0; 42]; 4],
            discard_len: [0; 4],
            board: [[0; 12]; 12],
            board_len: [0; 12],
            planned: [[0; 4]; 12],
            planned_len: 0,
            end_flag: false,
            mama_dealt: 0,
            papa_dealt: 0,
            seats: [Seat::new(); MAXP],
            stack: [Task::First; STACK],
            sp: 0,
            last_planted: NONE,
            last_built: NONE,
            harvested_step: 0,
            made_sparkling: 0,
            made_types: 0,
            discarded_strict: false,
            tally: 0,
            reveal: [NONE; 4],
            escrow: [[0; 2]; 3],
            escrow_len: 0,
            fresh_unit: false,
            halt_at_reservations: false,
            halted: false,
            base: None,
        };
        s.advance();
        s
    }

    #[inline]
    pub fn n(&self) -> usize {
        self.rules.players as usize
    }

    // ---------------------------------------------------------------- stack

    #[inline]
    pub fn top(&self) -> Option<Task> {
        if self.sp == 0 {
            None
        } else {
            Some(self.stack[self.sp as usize - 1])
        }
    }
    /// Push a task (the serial reader sets up the node of a unit).
    pub(super) fn push_task(&mut self, t: Task) {
        self.push(t);
    }
    #[inline]
    fn push(&mut self, t: Task) {
        if (self.sp as usize) < STACK {
            self.stack[self.sp as usize] = t;
            self.sp += 1;
        }
    }
    #[inline]
    fn pop(&mut self) {
        if self.sp > 0 {
            self.sp -= 1;
        }
    }
    #[inline]
    fn set_top(&mut self, t: Task) {
        if self.sp > 0 {
            self.stack[self.sp as usize - 1] = t;
        }
    }
    /// Push tasks so that the first of the list runs first.
    fn push_seq(&mut self, ts: &[Task]) {
        for t in ts.iter().rev() {
            self.push(*t);
        }
    }

    // ---------------------------------------------------------------- orders of seats

    /// Seats in wake-up order (ascending row; seats without a row after, in index order).
    pub fn wake_order(&self) -> ([u8; MAXP], usize) {
        let n = self.n();
        let mut out = [0u8; MAXP];
        let mut len = 0;
        for row in 1..=7u8 {
            for q in 0..n {
                if self.rows[q] == row {
                    out[len] = q as u8;
                    len += 1;
                }
            }
        }
        for q in 0..n {
            if self.rows[q] == 0 {
                out[len] = q as u8;
                len += 1;
            }
        }
        (out, len)
    }

    /// Every seat in wake-up order starting with `seat` (include) or just after it.
    fn order_from(&self, seat: u8, include: bool) -> ([u8; MAXP], usize) {
        let (w, len) = self.wake_order();
        let pos = w[..len].iter().position(|&q| q == seat).unwrap_or(0);
        let mut out = [0u8; MAXP];
        let mut m = 0;
        for i in 0..len {
            let q = w[(pos + i) % len];
            if q == seat && !include {
                continue;
            }
            out[m] = q;
            m += 1;
        }
        (out, m)
    }

    // ---------------------------------------------------------------- cards

    pub fn can_draw(&self, deck: usize) -> bool {
        self.deck_size(deck) + self.discard_len[deck] as u32 > 0
    }
    pub fn deck_size(&self, deck: usize) -> u32 {
        kinds_of(deck).map(|k| self.decks[deck][k] as u32).sum()
    }
    fn discard(&mut self, k: usize) {
        let d = deck_of(k);
        let l = self.discard_len[d] as usize;
        if l < 42 {
            self.discards[d][l] = k as u8;
            self.discard_len[d] += 1;
        }
    }
    /// A card joins q's hand; `public`: every other seat now knows it.
    fn hand_add(&mut self, q: usize, k: usize, public: bool) {
        if k >= KINDS {
            return;
        }
        self.seats[q].hand[k] = self.seats[q].hand[k].saturating_add(1);
        if public {
            for p in 0..self.n() {
                if p != q {
                    self.seats[p].known[q][k] = self.seats[p].known[q][k].saturating_add(1);
                }
            }
        }
    }
    /// A card leaves q's hand publicly.
    fn hand_remove(&mut self, q: usize, k: usize) {
        if k >= KINDS {
            return;
        }
        self.seats[q].hand[k] = self.seats[q].hand[k].saturating_sub(1);
        for p in 0..self.n() {
            self.seats[p].known[q][k] = self.seats[p].known[q][k].saturating_sub(1);
        }
    }
    /// q gives card k to r, seen only by the two of them.
    fn give(&mut self, q: usize, r: usize, k: usize) {
        if k >= KINDS || self.seats[q].hand[k] == 0 {
            return;
        }
        self.seats[q].hand[k] -= 1;
        let deck = deck_of(k);
        for p in 0..self.n() {
            if p == q || p == r {
                self.seats[p].known[q][k] = self.seats[p].known[q][k].saturating_sub(1);
            } else {
                for kk in kinds_of(deck) {
                    self.seats[p].known[q][kk] = 0;
                }
            }
        }
        self.seats[r].hand[k] = self.seats[r].hand[k].saturating_add(1);
        self.seats[q].known[r][k] = self.seats[q].known[r][k].saturating_add(1);
        self.clamp_known(r);
        self.clamp_known(q);
    }
    fn clamp_known(&mut self, q: usize) {
        for p in 0..self.n() {
            for k in 0..KINDS {
                if self.seats[p].known[q][k] > self.seats[q].hand[k] {
                    self.seats[p].known[q][k] = self.seats[q].hand[k];
                }
            }
        }
        for k in 0..KINDS {
            self.seats[q].known[q][k] = 0;
        }
    }

    // ---------------------------------------------------------------- gains

    fn gain_vp(&mut self, q: usize, n: i32) {
        let s = &mut self.seats[q];
        s.vp = (s.vp + n).max(-5);
    }
    fn gain_residual(&mut self, q: usize, n: i32) {
        let s = &mut self.seats[q];
        s.residual = (s.residual + n).clamp(0, 5);
    }
    fn gain_lira(&mut self, q: usize, n: i32) {
        let s = &mut self.seats[q];
        s.lira = (s.lira + n).max(0);
    }

    // ---------------------------------------------------------------- workers

    pub fn regular_avail(&self, q: usize) -> u8 {
        let s = &self.seats[q];
        (s.regular + (self.temp == q as i8) as u8).saturating_sub(s.regular_placed)
    }
    pub fn grande_avail(&self, q: usize) -> bool {
        !self.seats[q].grande_placed
    }
    fn has_worker(&self, q: usize) -> bool {
        self.regular_avail(q) > 0 || self.grande_avail(q)
    }
    fn plain_spaces(&self) -> u8 {
        if self.n() >= 5 {
            2
        } else {
            1
        }
    }
    fn bonus_spaces(&self) -> u8 {
        if self.n() >= 3 {
            1
        } else {
            0
        }
    }
    fn occupied(&self, a: usize, space: u8) -> u8 {
        let mut c = 0;
        for i in 0..self.board_len[a] as usize {
            if (self.board[a][i] >> 3) & 3 == space {
                c += 1;
            }
        }
        c
    }
    fn plain_free(&self, a: usize) -> bool {
        self.occupied(a, 0) < self.plain_spaces()
    }
    fn bonus_free(&self, a: usize) -> bool {
        self.bonus_spaces() > 0 && self.occupied(a, 1) < self.bonus_spaces()
    }
    fn board_add(&mut self, a: usize, seat: usize, space: u8, kind: u8, planned: bool) {
        let l = self.board_len[a] as usize;
        if l < 12 {
            self.board[a][l] = seat as u8 | (space << 3) | (kind << 5) | ((planned as u8) << 6);
            self.board_len[a] += 1;
        }
    }
    fn put_worker(&mut self, q: usize, kind: u8) {
        if kind == 1 {
            self.seats[q].grande_placed = true;
        } else {
            self.seats[q].regular_placed += 1;
        }
    }
    /// Index of a retrievable (not planned) worker of q of this kind on action a: the latest placed, so a
    /// seat with workers on two spaces of one action frees the space it took last (reading 18).
    fn find_worker(&self, a: usize, q: usize, kind: u8) -> Option<usize> {
        (0..self.board_len[a] as usize).rev().find(|&i| {
            let e = self.board[a][i];
            (e & 7) as usize == q && (e >> 5) & 1 == kind && (e >> 6) & 1 == 0
        })
    }
    fn board_remove(&mut self, a: usize, i: usize) {
        let l = self.board_len[a] as usize;
        if i >= l {
            return;
        }
        for j in i..l - 1 {
            self.board[a][j] = self.board[a][j + 1];
        }
        self.board_len[a] -= 1;
    }
    /// Producer's retrieve: space 0..11 action, 12 lira, 13 yoke.
    fn can_retrieve(&self, q: usize, space: usize, kind: u8) -> bool {
        let s = &self.seats[q];
        match space {
            3 => false,
            0..=11 => self.find_worker(space, q, kind).is_some(),
            12 => {
                if kind == 1 {
                    s.cart_grande
                } else {
                    s.cart > s.cart_grande as u8
                }
            }
            13 => s.yoke_used && s.yoke_kind == kind,
            _ => false,
        }
    }
    fn retrieve(&mut self, q: usize, space: usize, kind: u8) {
        match space {
            0..=11 => {
                if let Some(i) = self.find_worker(space, q, kind) {
                    self.board_remove(space, i);
                } else {
                    return;
                }
            }
            12 => {
                let s = &mut self.seats[q];
                s.cart = s.cart.saturating_sub(1);
                if kind == 1 {
                    s.cart_grande = false;
                }
            }
            13 => (self.seats[q].yoke_used, self.seats[q].yoke_kind) = (false, 0),
            _ => return,
        }
        let s = &mut self.seats[q];
        if kind == 1 {
            s.grande_placed = false;
        } else {
            s.regular_placed = s.regular_placed.saturating_sub(1);
        }
    }
    fn grande_retrievable(&self, q: usize) -> bool {
        if !self.seats[q].grande_placed {
            return false;
        }
        (0..12).any(|a| self.find_worker(a, q, 1).is_some())
            || self.seats[q].cart_grande
            || (self.seats[q].yoke_used && self.seats[q].yoke_kind == 1)
    }
    fn retrieve_grande(&mut self, q: usize) {
        for a in 0..12 {
            if self.find_worker(a, q, 1).is_some() {
                self.retrieve(q, a, 1);
                return;
            }
        }
        if self.seats[q].cart_grande {
            self.retrieve(q, 12, 1);
        } else if self.seats[q].yoke_used && self.seats[q].yoke_kind == 1 {
            self.retrieve(q, 13, 1);
        }
    }

    // ---------------------------------------------------------------- feasibility of rules pieces

    fn struct_cost(
        &self,
        q: usize,
        st: usize,
        discount: i32,
        free: bool,
        allowed: u8,
    ) -> Option<i32> {
        let d = data();
        let s = &self.seats[q];
        if st >= STRUCTURES || s.has(st) {
            return None;
        }
        if st == LARGE && !s.has(MEDIUM) {
            return None;
        }
        let printed = d.structure_cost[st];
        if allowed != 0 && (!(0..=7).contains(&printed) || allowed & (1 << printed) == 0) {
            return None;
        }
        let cost = if free { 0 } else { (printed - discount).max(0) };
        if cost > s.lira {
            return None;
        }
        Some(cost)
    }
    fn any_build(&self, q: usize, discount: i32, free: bool, allowed: u8) -> bool {
        (0..STRUCTURES).any(|st| self.struct_cost(q, st, discount, free, allowed).is_some())
    }
    pub fn plant_ok(&self, q: usize, v: usize, f: usize, flags: u8) -> bool {
        let d = data();
        let s = &self.seats[q];
        if v >= VINES || f >= 3 || s.hand[v] == 0 {
            return false;
        }
        let field = &s.fields[f];
        if !field.owned || field.over {
            return false;
        }
        if flags & 1 == 0 && (d.vines[v].requires & !s.structures) != 0 {
            return false;
        }
        if flags & 2 == 0 && field.total() + d.vine_value(v) as u32 > d.fields[f] as u32 {
            return false;
        }
        true
    }
    fn any_plant(&self, q: usize, flags: u8) -> bool {
        (0..VINES).any(|v| (0..3).any(|f| self.plant_ok(q, v, f, flags)))
    }
    fn harvest_ok(&self, q: usize, f: usize) -> bool {
        let field = &self.seats[q].fields[f];
        field.owned && !field.harvested && field.count() > 0
    }
    fn any_harvest(&self, q: usize) -> bool {
        (0..3).any(|f| self.harvest_ok(q, f))
    }
    /// The wine a recipe makes: (type, value), if legal.
    pub fn make_result(
        &self,
        q: usize,
        id: u32,
        min_value: u8,
        ignore_cellar: bool,
    ) -> Option<(usize, u8)> {
        let s = &self.seats[q];
        let has = |c: usize, v: u8| (1..=9).contains(&v) && s.crush[c] & (1 << (v - 1)) != 0;
        let (t, sum, lo) = match id {
            479..=487 => {
                let v = (id - 478) as u8;
                if !has(0, v) {
                    return None;
                }
                (0, v, 1)
            }
            488..=496 => {
                let v = (id - 487) as u8;
                if !has(1, v) {
                    return None;
                }
                (1, v, 1)
            }
            497..=577 => {
                let i = id - 497;
                let (r, w) = ((i / 9 + 1) as u8, (i % 9 + 1) as u8);
                if !has(0, r) || !has(1, w) || !s.has(MEDIUM) || r + w < 4 {
                    return None;
                }
                (2, r + w, 4)
            }
            578..=901 => {
                let i = id - 578;
                let (r1, r2) = spark_pair(i / 9);
                let w = (i % 9 + 1) as u8;
                if !has(0, r1) || !has(0, r2) || !has(1, w) || !s.has(LARGE) || r1 + r2 + w < 7 {
                    return None;
                }
                (3, r1 + r2 + w, 7)
            }
            _ => return None,
        };
        let mut value = sum.min(9);
        if !ignore_cellar {
            value = value.min(s.cellar_top());
        }
        let slot = free_slot(s.cellar[t], value, lo.max(min_value))?;
        Some((t, slot))
    }
    fn any_make(&self, q: usize, min_value: u8, ignore_cellar: bool) -> bool {
        let s = &self.seats[q];
        if !s.any_grape() {
            return false;
        }
        (479..=901).any(|id| self.make_result(q, id, min_value, ignore_cellar).is_some())
    }
    /// Can the requirements `reqs` be met from `cellar` with distinct tokens?
    fn fillable(cellar: [u16; 4], reqs: &[(u8, u8)]) -> bool {
        let Some(&(t, min)) = reqs.first() else {
            return true;
        };
        let t = t as usize;
        if t >= 4 {
            return false;
        }
        for v in min.max(1)..=9 {
            if cellar[t] & (1 << (v - 1)) != 0 {
                let mut c = cellar;
                c[t] &= !(1 << (v - 1));
                if Self::fillable(c, &reqs[1..]) {
                    return true;
                }
            }
        }
        false
    }
    fn order_fillable(&self, q: usize, o: usize) -> bool {
        let d = data();
        o < ORDERS
            && self.seats[q].hand[ORDER0 + o] > 0
            && Self::fillable(self.seats[q].cellar, &d.orders[o].requires)
    }
    fn any_fill(&self, q: usize) -> bool {
        (0..ORDERS).any(|o| self.order_fillable(q, o))
    }
    fn visitor_card(k: usize) -> bool {
        (SUMMER0..KINDS).contains(&k)
    }
    fn any_planted(&self, q: usize) -> bool {
        self.seats[q].fields.iter().any(|f| f.count() > 0)
    }
    fn switch_ok(&self, q: usize, v1: usize, f1: usize, v2: usize, f2: usize) -> bool {
        let d = data();
        let s = &self.seats[q];
        if f1 == f2 || f1 >= 3 || f2 >= 3 || v1 >= VINES || v2 >= VINES {
            return false;
        }
        if s.fields[f1].vines[v1] == 0 || s.fields[f2].vines[v2] == 0 {
            return false;
        }
        let a = s.fields[f1].total() as i32 - d.vine_value(v1) as i32 + d.vine_value(v2) as i32;
        let b = s.fields[f2].total() as i32 - d.vine_value(v2) as i32 + d.vine_value(v1) as i32;
        a <= d.fields[f1] as i32 && b <= d.fields[f2] as i32
    }
    fn switch_first_ok(&self, q: usize, v1: usize, f1: usize) -> bool {
        (0..VINES).any(|v2| (0..3).any(|f2| self.switch_ok(q, v1, f1, v2, f2)))
    }
    fn cellar_price(&self, q: usize, price: CellarPrice) -> Option<i32> {
        let d = data();
        let s = &self.seats[q];
        let next = if !s.has(MEDIUM) {
            MEDIUM
        } else if !s.has(LARGE) {
            LARGE
        } else {
            return None;
        };
        let p = match price {
            CellarPrice::Regular => d.structure_cost[next],
            CellarPrice::RegularMinus2 => (d.structure_cost[next] - 2).max(0),
            CellarPrice::Fixed(x) => x,
        };
        Some(p)
    }
    fn can_train(&self, q: usize, price: i32) -> bool {
        let s = &self.seats[q];
        s.regular + s.trained < 5 && s.lira >= price
    }
    fn any_retrieve(&self, q: usize) -> bool {
        (0..14).any(|sp| (0..2).any(|k| self.can_retrieve(q, sp, k)))
    }
    fn plan_ok(&self, q: usize, a: usize, j: u32) -> bool {
        if !(6..12).contains(&a) {
            return false;
        }
        let kind_g = matches!(j, 1 | 3 | 4);
        if kind_g && !self.grande_avail(q) || !kind_g && self.regular_avail(q) == 0 {
            return false;
        }
        match j {
            0 | 1 => self.plain_free(a),
            2 | 3 => self.bonus_free(a) && self.friendly_ok(a),
            _ => !self.plain_free(a) && !self.bonus_free(a),
        }
    }
    fn any_plan(&self, q: usize) -> bool {
        (6..12).any(|a| (0..5).any(|j| self.plan_ok(q, a, j)))
    }
    fn friendly_ok(&self, a: usize) -> bool {
        !self.rules.friendly || !self.plain_free(a)
    }
    fn queen_ok(&self, q: usize) -> bool {
        let r = self.right_of(q);
        let s = &self.seats[r];
        s.vp >= -4 || s.hand_size() >= 2 || s.lira >= 3
    }
    fn right_of(&self, q: usize) -> usize {
        (q + self.n() - 1) % self.n()
    }

    /// Is a step feasible (§15.3)?
    pub fn step_ok(&self, q: usize, card: usize, st: &Step) -> bool {
        let s = &self.seats[q];
        let d = data();
        let special = d.visitors.get(card).map_or(Special::None, |v| v.special);
        match special {
            Special::WeddingParty => return s.lira >= 2,
            Special::Queen => return self.queen_ok(q),
            Special::None => {}
            _ => return true,
        }
        match *st {
            Step::Gain { .. } | Step::Draw(_) | Step::If { .. } | Step::AgeAll { .. } => true,
            Step::Pay { lira, vp, residual } => {
                s.lira >= lira && s.vp - vp >= -5 && s.residual >= residual
            }
            Step::Plant {
                min,
                ignore_structures,
                ignore_field_limit,
                ..
            } => {
                min == 0
                    || self.any_plant(
                        q,
                        ignore_structures as u8 | ((ignore_field_limit as u8) << 1),
                    )
            }
            Step::Build {
                n,
                discount,
                free,
                allowed,
                optional,
            } => {
                if optional {
                    return true;
                }
                if !self.any_build(q, discount, free, allowed) {
                    return false;
                }
                n < 2 || (STRUCTURES as u32 - s.built_count()) >= 2
            }
            Step::BuildSpecific { structure, price } => {
                !s.has(structure as usize) && s.lira >= price
            }
            Step::Harvest { .. } => self.any_harvest(q),
            Step::MakeWine {
                min,
                min_value,
                ignore_cellar,
                ..
            } => min == 0 || self.any_make(q, min_value, ignore_cellar),
            Step::FillOrder { .. } => self.any_fill(q),
            Step::DiscardCards { n, visitor } => {
                let c: u32 = (0..KINDS)
                    .filter(|&k| !visitor || Self::visitor_card(k))
                    .map(|k| s.hand[k] as u32)
                    .sum();
                // the card in play is not in hand (one copy of each visitor)
                c - self.holds_card(q, card) >= n as u32
            }
            Step::DiscardHand => s.hand_size() - self.holds_card(q, card) >= 1,
            Step::DiscardWine { min_value } => s
                .cellar
                .iter()
                .any(|&c| (min_value.max(1)..=9).any(|v| c & (1 << (v - 1)) != 0)),
            Step::DiscardGrape => s.any_grape(),
            Step::DiscardGrapeOrWine => s.any_grape() || s.any_wine(),
            Step::PlaceGrape { color } => match color {
                0 => s.crush[0] & 1 == 0,
                1 => s.crush[1] & 1 == 0,
                _ => s.crush[0] & 1 == 0 || s.crush[1] & 1 == 0,
            },
            Step::SwitchVines => (0..VINES).any(|v| (0..3).any(|f| self.switch_first_ok(q, v, f))),
            Step::UprootDiscard { n } => s.planted_vines() >= n as u32,
            Step::Train { price, .. } => self.can_train(q, price),
            Step::UpgradeCellar { price } => {
                self.cellar_price(q, price).is_some_and(|p| s.lira >= p)
            }
            Step::AgeWine => s.any_wine(),
            Step::TakeDiscardTops => self.discard_len.iter().filter(|&&l| l > 0).count() >= 2,
            Step::RevealKeep => (0..4).filter(|&dk| self.can_draw(dk)).count() >= 2,
            Step::Plan => self.any_plan(q),
            Step::Retrieve { .. } => self.any_retrieve(q),
            Step::MoveRooster => (1..=7u8).any(|r| !self.rows[..self.n()].contains(&r)),
            Step::TakePrevious => (0..6).any(|a| self.action_ok(q, a, false)),
            Step::Importer | Step::Swindle | Step::RetrieveGrande | Step::Governor => true,
            Step::PayOpponents => s.lira >= 2,
            Step::Queen => self.queen_ok(q),
        }
    }
    /// 1 if q still holds visitor `card` (playability is checked before the card leaves the hand).
    fn holds_card(&self, q: usize, card: usize) -> u32 {
        (card < SUMMER + WINTER && self.seats[q].hand[SUMMER0 + card] > 0) as u32
    }
    fn option_ok(&self, q: usize, card: usize, opt: usize) -> bool {
        let d = data();
        let Some(v) = d.visitors.get(card) else {
            return false;
        };
        let Some(steps) = v.options.get(opt) else {
            return false;
        };
        steps.iter().all(|st| self.step_ok(q, card, st))
    }
    fn harvest_expert_both(&self, card: usize) -> bool {
        self.rules.harvest_both
            && data()
                .visitors
                .get(card)
                .is_some_and(|v| v.key == "harvest_expert")
    }
    pub fn playable(&self, q: usize, card: usize) -> bool {
        let d = data();
        let Some(v) = d.visitors.get(card) else {
            return false;
        };
        if self.harvest_expert_both(card) {
            return self.any_harvest(q);
        }
        let nopt = v.options.len();
        let ok = (0..nopt).filter(|&o| self.option_ok(q, card, o)).count();
        match v.mode {
            Mode::All => nopt > 0 && self.option_ok(q, card, 0),
            Mode::Choose1 | Mode::OrBoth => ok >= 1,
            Mode::Choose2 => ok >= 2,
        }
    }
    fn any_playable(&self, q: usize, season: usize) -> bool {
        let range = if season == 0 {
            0..SUMMER
        } else {
            SUMMER..SUMMER + WINTER
        };
        range
            .into_iter()
            .any(|c| self.seats[q].hand[SUMMER0 + c] > 0 && self.playable(q, c))
    }
    /// Can action a be carried out (§9.1)? a 12 = lira, 13 = yoke.
    pub fn action_ok(&self, q: usize, a: usize, bonus: bool) -> bool {
        let s = &self.seats[q];
        match a {
            0 => self.can_draw(D_VINE),
            1 => true,
            2 => self.any_build(q, bonus as i32, false, 0),
            3 => self.any_playable(q, 0),
            4 => {
                let d = data();
                s.any_grape()
                    || (0..3).any(|f| {
                        let fl = &s.fields[f];
                        (fl.owned && fl.count() == 0) || (!fl.owned && d.fields[f] as i32 <= s.lira)
                    })
            }
            5 => self.any_plant(q, 0),
            6 => self.can_draw(D_ORDER),
            7 => self.any_harvest(q),
            8 => s.lira + bonus as i32 >= 4 && s.regular + s.trained < 5,
            9 => self.any_playable(q, 1),
            10 => self.any_make(q, 1, false),
            11 => self.any_fill(q),
            12 => true,
            13 => s.has(YOKE) && !s.yoke_used && (self.any_planted(q) || self.any_harvest(q)),
            _ => false,
        }
    }

    // ---------------------------------------------------------------- effects

    fn do_plant(&mut self, q: usize, v: usize, f: usize) {
        let d = data();
        if v >= VINES || f >= 3 {
            return;
        }
        self.hand_remove(q, v);
        let s = &mut self.seats[q];
        s.fields[f].vines[v] += 1;
        if s.fields[f].total() > d.fields[f] as u32 {
            s.fields[f].over = true;
        }
        if s.has(WINDMILL) && !s.windmill_used {
            s.windmill_used = true;
            self.gain_vp(q, 1);
        }
        self.last_planted = (v * 3 + f) as u8;
    }
    fn do_uproot(&mut self, q: usize, v: usize, f: usize) {
        let d = data();
        if v >= VINES || f >= 3 || self.seats[q].fields[f].vines[v] == 0 {
            return;
        }
        self.seats[q].fields[f].vines[v] -= 1;
        let fl = &mut self.seats[q].fields[f];
        if fl.over && fl.total() <= d.fields[f] as u32 {
            fl.over = false;
        }
        self.hand_add(q, v, true);
    }
    pub(crate) fn do_harvest(&mut self, q: usize, f: usize) {
        let d = data();
        if f >= 3 {
            return;
        }
        let fl = self.seats[q].fields[f];
        let mut r = 0u32;
        let mut w = 0u32;
        for v in 0..VINES {
            r += fl.vines[v] as u32 * d.vines[v].red as u32;
            w += fl.vines[v] as u32 * d.vines[v].white as u32;
        }
        let s = &mut self.seats[q];
        for (c, val) in [(0usize, r), (1usize, w)] {
            if val > 0 {
                if let Some(x) = free_slot(s.crush[c], val.min(9) as u8, 1) {
                    s.crush[c] |= 1 << (x - 1);
                }
            }
        }
        s.fields[f].harvested = true;
        self.harvested_step += 1;
    }
    fn do_build(&mut self, q: usize, st: usize, cost: i32) {
        let s = &mut self.seats[q];
        s.lira = (s.lira - cost).max(0);
        s.structures |= 1 << st;
        self.last_built = st as u8;
    }
    fn do_make(&mut self, q: usize, id: u32, t: usize, value: u8) {
        let s = &mut self.seats[q];
        let take = |s: &mut Seat, c: usize, v: u32| s.crush[c] &= !(1u16 << (v - 1));
        match id {
            479..=487 => take(s, 0, id - 478),
            488..=496 => take(s, 1, id - 487),
            497..=577 => {
                let i = id - 497;
                take(s, 0, i / 9 + 1);
                take(s, 1, i % 9 + 1);
            }
            _ => {
                let i = id - 578;
                let (r1, r2) = spark_pair(i / 9);
                take(s, 0, r1 as u32);
                take(s, 0, r2 as u32);
                take(s, 1, i % 9 + 1);
            }
        }
        s.cellar[t] |= 1 << (value - 1);
        if t == 3 {
            self.made_sparkling += 1;
        }
        self.made_types |= 1 << t;
    }
    pub(crate) fn age_wines(&mut self, q: usize) {
        let s = &mut self.seats[q];
        let top = s.cellar_top();
        for t in 0..4 {
            for v in (1..=8u8).rev() {
                let bit = 1u16 << (v - 1);
                if s.cellar[t] & bit != 0 {
                    let cap = top.max(tier_top(v));
                    if v < cap && s.cellar[t] & (bit << 1) == 0 {
                        s.cellar[t] &= !bit;
                        s.cellar[t] |= bit << 1;
                    }
                }
            }
        }
    }
    fn age_one_wine(&mut self, q: usize, t: usize, v: u8) {
        let s = &mut self.seats[q];
        let top = s.cellar_top();
        if !(1..=8).contains(&v) || t >= 4 {
            return;
        }
        let bit = 1u16 << (v - 1);
        let cap = top.max(tier_top(v));
        if s.cellar[t] & bit != 0 && v < cap && s.cellar[t] & (bit << 1) == 0 {
            s.cellar[t] &= !bit;
            s.cellar[t] |= bit << 1;
        }
    }
    pub(crate) fn age_grapes(&mut self, q: usize) {
        let s = &mut self.seats[q];
        for c in 0..2 {
            for v in (1..=8u8).rev() {
                let bit = 1u16 << (v - 1);
                if s.crush[c] & bit != 0 && s.crush[c] & (bit << 1) == 0 {
                    s.crush[c] &= !bit;
                    s.crush[c] |= bit << 1;
                }
            }
        }
    }
    fn amount(&self, q: usize, a: Amount) -> i32 {
        let s = &self.seats[q];
        match a {
            Amount::Fixed(x) => x,
            Amount::EmptyOwnedFields2 => {
                2 * s
                    .fields
                    .iter()
                    .filter(|f| f.owned && f.count() == 0)
                    .count() as i32
            }
            Amount::PlantedOwnedFields => {
                s.fields.iter().filter(|f| f.owned && f.count() > 0).count() as i32
            }
            Amount::CardsInHand => s.hand_size() as i32,
            Amount::BuiltCost4 => {
                let d = data();
                (0..STRUCTURES)
                    .filter(|&i| s.has(i) && d.structure_cost[i] == 4)
                    .count() as i32
            }
            Amount::Opponents6Workers => (0..self.n())
                .filter(|&p| p != q && self.seats[p].regular + self.seats[p].trained + 1 == 6)
                .count() as i32,
            Amount::SparklingMade => self.made_sparkling as i32,
            Amount::DistinctTypesMade => self.made_types.count_ones() as i32,
        }
    }
    fn cond(&self, q: usize, c: Cond) -> bool {
        let d = data();
        let s = &self.seats[q];
        match c {
            Cond::BuiltCostGe5 => {
                self.last_built != NONE && d.structure_cost[(self.last_built as usize).min(7)] >= 5
            }
            Cond::DiscardedStrictlyHighest => self.discarded_strict,
            Cond::Harvested3 => self.harvested_step >= 3,
            Cond::VpNegative => s.vp < 0,
            Cond::VpNonnegative => s.vp >= 0,
            Cond::StructuresGe6 => s.built_count() >= 6,
            Cond::WorkersEq6 => s.regular + s.trained + 1 == 6,
            Cond::PlantedValue4 => {
                self.last_planted != NONE && d.vine_value(self.last_planted as usize / 3) == 4
            }
            Cond::Field3Kinds => {
                self.last_planted != NONE && {
                    let f = (self.last_planted % 3) as usize;
                    s.fields[f].vines.iter().filter(|&&c| c > 0).count() >= 3
                }
            }
            Cond::PlantedVinesGe6 => s.planted_vines() >= 6,
        }
    }
    fn push_draws(&mut self, q: usize, counts: [u8; 4]) {
        let mut list = [Task::First; 16];
        let mut m = 0;
        for (deck, &c) in counts.iter().enumerate() {
            for _ in 0..c {
                if m < 16 {
                    list[m] = Task::Draw {
                        seat: q as u8,
                        deck: deck as u8,
                        reveal: false,
                    };
                    m += 1;
                }
            }
        }
        self.push_seq(&list[..m]);
    }

    /// Run one visitor step: apply it or push its decision; skip it when impossible.
    fn exec_step(&mut self, q: usize, card: usize, st: &Step) {
        let d = data();
        let special = d.visitors.get(card).map_or(Special::None, |v| v.special);
        let qs = q as u8;
        if !matches!(st, Step::If { .. }) && !self.step_ok(q, card, st) {
            return;
        }
        match special {
            Special::Vendor => {
                if let Step::Draw(c) = st {
                    let (opp, m) = self.order_from(qs, false);
                    for i in (0..m).rev() {
                        self.push(Task::Ask {
                            kind: AskKind::Vendor,
                            asker: qs,
                            seat: opp[i],
                        });
                    }
                    self.push_draws(q, *c);
                }
                return;
            }
            Special::Handyman => {
                let (all, m) = self.order_from(qs, true);
                for i in (0..m).rev() {
                    self.push(Task::HandyBuild {
                        asker: qs,
                        seat: all[i],
                    });
                }
                return;
            }
            Special::Banker => {
                self.gain_lira(q, 5);
                let (opp, m) = self.order_from(qs, false);
                for i in (0..m).rev() {
                    self.push(Task::Ask {
                        kind: AskKind::Banker,
                        asker: qs,
                        seat: opp[i],
                    });
                }
                return;
            }
            Special::Swindler => {
                let (opp, m) = self.order_from(qs, false);
                for i in (0..m).rev() {
                    self.push(Task::Ask {
                        kind: AskKind::Swindler,
                        asker: qs,
                        seat: opp[i],
                    });
                }
                return;
            }
            Special::VolunteerCrew => {
                let (all, m) = self.order_from(qs, true);
                for i in (0..m).rev() {
                    self.push(Task::Crew {
                        asker: qs,
                        seat: all[i],
                    });
                }
                return;
            }
            Special::Mentor => {
                self.tally = 0;
                self.push(Task::MentorDraw {
                    seat: qs,
                    left: NONE,
                });
                let (all, m) = self.order_from(qs, true);
                for i in (0..m).rev() {
                    self.push(Task::MentorMake {
                        asker: qs,
                        seat: all[i],
                        made: 0,
                    });
                }
                return;
            }
            Special::Motivator => {
                let (all, m) = self.order_from(qs, true);
                for i in (0..m).rev() {
                    let p = all[i] as usize;
                    if !self.passed[p] && self.seats[p].grande_placed {
                        self.push(Task::Ask {
                            kind: AskKind::Motivator,
                            asker: qs,
                            seat: all[i],
                        });
                    }
                }
                return;
            }
            Special::GuestSpeaker => {
                let (all, m) = self.order_from(qs, true);
                for i in (0..m).rev() {
                    self.push(Task::Ask {
                        kind: AskKind::GuestSpeaker,
                        asker: qs,
                        seat: all[i],
                    });
                }
                return;
            }
            Special::WeddingParty => {
                self.push(Task::Wedding {
                    seat: qs,
                    chosen: 0,
                    count: 0,
                });
                return;
            }
            Special::Queen => {
                let r = self.right_of(q) as u8;
                self.push(Task::Queen { asker: qs, seat: r });
                return;
            }
            Special::Governor => {
                self.push(Task::Governor {
                    seat: qs,
                    chosen: 0,
                });
                return;
            }
            Special::Importer => {
                if self.rules.importer_draw {
                    self.push_draws(q, [0, 0, 0, 3]);
                } else {
                    self.escrow_len = 0;
                    self.push(Task::ImporterEnd(qs));
                    let (opp, m) = self.order_from(qs, false);
                    for i in (0..m).rev() {
                        self.push(Task::Importer {
                            asker: qs,
                            seat: opp[i],
                        });
                    }
                }
                return;
            }
            Special::None => {}
        }
        match st {
            Step::Gain { lira, vp, residual } => {
                let l = self.amount(q, *lira);
                let v = self.amount(q, *vp);
                let mut r = self.amount(q, *residual);
                if self.rules.promoter_vp_only
                    && d.visitors.get(card).is_some_and(|x| x.key == "promoter")
                {
                    r = 0;
                }
                self.gain_lira(q, l);
                self.gain_vp(q, v);
                self.gain_residual(q, r);
            }
            Step::Pay { lira, vp, residual } => {
                let s = &mut self.seats[q];
                s.lira -= lira;
                s.vp = (s.vp - vp).max(-5);
                s.residual = (s.residual - residual).clamp(0, 5);
            }
            Step::Draw(c) => self.push_draws(q, *c),
            Step::Plant {
                max,
                min,
                ignore_structures,
                ignore_field_limit,
            } => {
                self.last_planted = NONE;
                self.push(Task::Plant {
                    seat: qs,
                    left: *max,
                    need: *min,
                    flags: *ignore_structures as u8 | ((*ignore_field_limit as u8) << 1),
                });
            }
            Step::Build {
                n,
                discount,
                free,
                allowed,
                ..
            } => {
                self.last_built = NONE;
                for _ in 0..*n {
                    self.push(Task::Build {
                        seat: qs,
                        discount: (*discount).clamp(0, 9) as u8,
                        free: *free,
                        allowed: *allowed,
                    });
                }
            }
            Step::BuildSpecific { structure, price } => {
                self.do_build(q, (*structure as usize).min(7), *price);
            }
            Step::Harvest { max, min } => {
                self.harvested_step = 0;
                self.push(Task::Harvest {
                    seat: qs,
                    left: *max,
                    need: *min,
                });
            }
            Step::MakeWine {
                max,
                min,
                min_value,
                ignore_cellar,
            } => {
                self.made_sparkling = 0;
                self.made_types = 0;
                self.push(Task::Make {
                    seat: qs,
                    left: *max,
                    need: *min,
                    min_value: *min_value,
                    ignore_cellar: *ignore_cellar,
                });
            }
            Step::FillOrder { bonus_vp } => {
                self.push(Task::Fill {
                    seat: qs,
                    bonus_vp: (*bonus_vp).clamp(0, 9) as u8,
                    order: NONE,
                    req: 0,
                });
            }
            Step::DiscardCards { n, visitor } => {
                self.push(Task::DiscardCards {
                    seat: qs,
                    left: *n,
                    visitor: *visitor,
                });
            }
            Step::DiscardHand => {
                for k in 0..KINDS {
                    while self.seats[q].hand[k] > 0 {
                        self.hand_remove(q, k);
                        self.discard(k);
                    }
                }
            }
            Step::DiscardWine { min_value } => {
                self.push(Task::DiscardWine {
                    seat: qs,
                    min_value: *min_value,
                });
            }
            Step::DiscardGrape => self.push(Task::DiscardGrape(qs)),
            Step::DiscardGrapeOrWine => self.push(Task::DiscardGrapeOrWine(qs)),
            Step::PlaceGrape { color } => match color {
                0 | 1 => self.seats[q].crush[*color as usize] |= 1,
                _ => self.push(Task::PlaceGrape(qs)),
            },
            Step::SwitchVines => self.push(Task::Switch {
                seat: qs,
                first: NONE,
            }),
            Step::UprootDiscard { n } => self.push(Task::Uproot {
                seat: qs,
                left: *n,
                stage: 0,
            }),
            Step::Train { price, this_year } => {
                let s = &mut self.seats[q];
                s.lira -= price;
                if *this_year {
                    s.regular += 1;
                } else {
                    s.trained += 1;
                }
            }
            Step::UpgradeCellar { price } => {
                if let Some(p) = self.cellar_price(q, *price) {
                    let st = if self.seats[q].has(MEDIUM) {
                        LARGE
                    } else {
                        MEDIUM
                    };
                    self.do_build(q, st, p);
                }
            }
            Step::AgeAll { times } => {
                for _ in 0..*times {
                    self.age_wines(q);
                }
            }
            Step::AgeWine => self.push(Task::AgeWine(qs)),
            Step::TakeDiscardTops => self.push(Task::Piles {
                seat: qs,
                left: 2,
                used: 0,
            }),
            Step::RevealKeep => {
                self.reveal = [NONE; 4];
                self.push(Task::RevealsDone);
                self.push(Task::Reveals { seat: qs, left: 2 });
                for deck in (0..4u8).rev() {
                    self.push(Task::Draw {
                        seat: qs,
                        deck,
                        reveal: true,
                    });
                }
            }
            Step::Plan => self.push(Task::Plan(qs)),
            Step::Retrieve { max } => self.push(Task::Retrieve {
                seat: qs,
                left: *max,
                taken: 0,
            }),
            Step::MoveRooster => self.push(Task::Rooster(qs)),
            Step::TakePrevious => self.push(Task::Take(qs)),
            Step::If { cond, then } => {
                if self.cond(q, *cond) {
                    for t in then.iter().rev() {
                        self.exec_step(q, card, t);
                    }
                }
            }
            Step::Importer
            | Step::Swindle
            | Step::PayOpponents
            | Step::RetrieveGrande
            | Step::Queen
            | Step::Governor => {}
        }
    }

    fn play_visitor(&mut self, q: usize, card: usize) {
        let d = data();
        let Some(v) = d.visitors.get(card) else {
            return;
        };
        let qs = q as u8;
        let c = card as u8;
        self.hand_remove(q, SUMMER0 + card);
        self.push(Task::Finish(c));
        if self.harvest_expert_both(card) {
            self.push(Task::Choose {
                seat: qs,
                card: c,
                stage: 3,
                first: 0,
            });
            self.harvested_step = 0;
            self.push(Task::Harvest {
                seat: qs,
                left: 1,
                need: 1,
            });
            return;
        }
        match v.mode {
            Mode::All => {
                if v.key == "overseer" {
                    self.push(Task::Overseer { seat: qs, card: c });
                } else {
                    self.push(Task::Steps {
                        seat: qs,
                        card: c,
                        opt: 0,
                        idx: 0,
                    });
                }
            }
            _ => self.push(Task::Choose {
                seat: qs,
                card: c,
                stage: 0,
                first: NONE,
            }),
        }
    }

    /// Place worker / Manager: carry out action a (12 lira, 13 yoke).
    fn exec_action(&mut self, q: usize, a: usize, bonus: bool, placed: bool) {
        let qs = q as u8;
        match a {
            0 => {
                if bonus {
                    self.push(Task::AcceptDraw {
                        seat: qs,
                        deck: D_VINE as u8,
                    });
                }
                self.push(Task::Draw {
                    seat: qs,
                    deck: D_VINE as u8,
                    reveal: false,
                });
            }
            1 => {
                if bonus {
                    self.gain_lira(q, 1);
                }
                self.gain_lira(q, 2);
                let s = &mut self.seats[q];
                if placed && s.has(TASTING) && !s.tasting_used && s.any_wine() {
                    s.tasting_used = true;
                    self.gain_vp(q, 1);
                }
            }
            2 => {
                if bonus {
                    self.gain_lira(q, 1);
                }
                self.last_built = NONE;
                self.push(Task::Build {
                    seat: qs,
                    discount: 0,
                    free: false,
                    allowed: 0,
                });
            }
            3 | 9 => {
                let season = (a == 9) as u8;
                if bonus {
                    self.push(Task::PlayVisitor {
                        seat: qs,
                        season,
                        again: true,
                    });
                }
                self.push(Task::PlayVisitor {
                    seat: qs,
                    season,
                    again: false,
                });
            }
            4 => {
                if bonus {
                    self.push(Task::GainVp { seat: qs, n: 1 });
                }
                self.push(Task::Sell {
                    seat: qs,
                    sold: false,
                });
            }
            5 => {
                self.last_planted = NONE;
                self.push(Task::Plant {
                    seat: qs,
                    left: 1 + bonus as u8,
                    need: 1,
                    flags: 0,
                });
            }
            6 => {
                if bonus {
                    self.push(Task::AcceptDraw {
                        seat: qs,
                        deck: D_ORDER as u8,
                    });
                }
                self.push(Task::Draw {
                    seat: qs,
                    deck: D_ORDER as u8,
                    reveal: false,
                });
            }
            7 => {
                self.harvested_step = 0;
                self.push(Task::Harvest {
                    seat: qs,
                    left: 1 + bonus as u8,
                    need: 1,
                });
            }
            8 => {
                if bonus {
                    self.gain_lira(q, 1);
                }
                let s = &mut self.seats[q];
                s.lira = (s.lira - 4).max(0);
                s.trained += 1;
            }
            10 => {
                self.made_sparkling = 0;
                self.made_types = 0;
                self.push(Task::Make {
                    seat: qs,
                    left: 2 + bonus as u8,
                    need: 1,
                    min_value: 1,
                    ignore_cellar: false,
                });
            }
            11 => {
                if bonus {
                    self.push(Task::GainVp { seat: qs, n: 1 });
                }
                self.push(Task::Fill {
                    seat: qs,
                    bonus_vp: 0,
                    order: NONE,
                    req: 0,
                });
            }
            12 => self.gain_lira(q, 1),
            13 => self.push(Task::Yoke(qs)),
            _ => {}
        }
    }

    fn wake_bonus(&mut self, q: usize, row: u8, organizer: bool) {
        let qs = q as u8;
        match row {
            2 => self.push(Task::Draw {
                seat: qs,
                deck: D_VINE as u8,
                reveal: false,
            }),
            3 => self.push(Task::Draw {
                seat: qs,
                deck: D_ORDER as u8,
                reveal: false,
            }),
            4 => self.gain_lira(q, 1),
            5 if self.can_draw(D_SUMMER) || self.can_draw(D_WINTER) => self.push(Task::Row5(qs)),
            6 => self.gain_vp(q, 1),
            7 if !organizer || self.temp < 0 => self.temp = q as i8,
            _ => {}
        }
    }

    // ---------------------------------------------------------------- the driver

    /// Run automatic tasks and the phase driver until a node (decision or chance) or the end.
    pub fn advance(&mut self) {
        for _ in 0..100_000 {
            if self.rules.end_reached() && !self.end_flag {
                let n = self.n();
                if self.seats[..n].iter().any(|s| s.vp >= self.rules.target_vp) {
                    self.end_flag = true;
                }
            }
            match self.top() {
                None => {
                    if self.phase == Phase::Over {
                        self.turn_seat = -1;
                        self.fresh_unit = true;
                        return;
                    }
                    self.drive();
                    if self.halted {
                        return;
                    }
                }
                Some(t) => {
                    if !self.run_auto(t) {
                        return;
                    }
                }
            }
        }
    }

    /// An automatic task: run it and return true; a node: return false.
    fn run_auto(&mut self, t: Task) -> bool {
        let d = data();
        match t {
            Task::Draw { deck, .. } => {
                let deck = deck as usize & 3;
                if self.deck_size(deck) == 0 {
                    let l = self.discard_len[deck] as usize;
                    for i in 0..l {
                        let k = self.discards[deck][i] as usize;
                        if k < KINDS {
                            self.decks[deck][k] += 1;
                        }
                    }
                    self.discard_len[deck] = 0;
                }
                if self.deck_size(deck) == 0 {
                    self.pop();
                    return true;
                }
                false
            }
            Task::GainVp { seat, n } => {
                self.pop();
                self.gain_vp(seat as usize, n as i32);
                true
            }
            Task::GainLira { seat, n } => {
                self.pop();
                self.gain_lira(seat as usize, n as i32);
                true
            }
            Task::Finish(c) => {
                self.pop();
                self.discard(SUMMER0 + c as usize);
                true
            }
            Task::Steps {
                seat,
                card,
                opt,
                idx,
            } => {
                let steps = d
                    .visitors
                    .get(card as usize)
                    .and_then(|v| v.options.get(opt as usize));
                match steps.and_then(|s| s.get(idx as usize)) {
                    None => self.pop(),
                    Some(st) => {
                        self.set_top(Task::Steps {
                            seat,
                            card,
                            opt,
                            idx: idx + 1,
                        });
                        self.exec_step(seat as usize, card as usize, st);
                    }
                }
                true
            }
            Task::ResolvePlan(_) => {
                self.pop();
                // The first reservation left (`planned` is in resolution order). It leaves the list as it
                // resolves, so the observation counts only the reservations still to come.
                let m = self.planned_len as usize;
                if m > 0 {
                    let [seat, a, space, kind] = self.planned[0];
                    self.planned.copy_within(1..m, 0);
                    self.planned_len -= 1;
                    // Its worker is an ordinary one from now on (§15.8 ruling 5): a Motivator it plays may
                    // send it home like any other.
                    let want = seat | (space << 3) | (kind << 5) | (1 << 6);
                    let l = (self.board_len[a as usize] as usize).min(12);
                    if let Some(e) = self.board[a as usize][..l].iter_mut().find(|e| **e == want) {
                        *e &= !(1 << 6);
                    }
                    let (q, a) = (seat as usize, a as usize);
                    let bonus = space == 1;
                    if q < self.n() && self.action_ok(q, a, bonus) {
                        self.exec_action(q, a, bonus, true);
                    }
                }
                true
            }
            Task::PassAfter(q) => {
                self.pop();
                self.passed[q as usize] = true;
                true
            }
            Task::RevealsDone => {
                self.pop();
                for dk in 0..4 {
                    let k = self.reveal[dk];
                    if k != NONE {
                        self.discard(k as usize);
                    }
                }
                self.reveal = [NONE; 4];
                true
            }
            Task::ImporterEnd(asker) => {
                self.pop();
                let q = asker as usize;
                let m = self.escrow_len as usize;
                if m >= 3 {
                    for i in 0..3 {
                        let [g, k] = self.escrow[i];
                        self.hand_add(q, k as usize, false);
                        let g = g as usize;
                        if g < self.n() {
                            self.seats[g].known[q][k as usize] =
                                self.seats[g].known[q][k as usize].saturating_add(1);
                        }
                    }
                } else {
                    for i in 0..m {
                        let [g, k] = self.escrow[i];
                        let g = g as usize;
                        if g < self.n() {
                            self.hand_add(g, k as usize, false);
                            self.seats[q].known[g][k as usize] =
                                self.seats[q].known[g][k as usize].saturating_add(1);
                        }
                    }
                    self.push_draws(q, [0, 0, 0, 3]);
                }
                self.escrow_len = 0;
                true
            }
            Task::MentorDraw { seat, left } => {
                if left == NONE {
                    self.set_top(Task::MentorDraw {
                        seat,
                        left: self.tally,
                    });
                    return true;
                }
                if left == 0 || !(self.can_draw(D_VINE) || self.can_draw(D_SUMMER)) {
                    self.pop();
                    return true;
                }
                false
            }
            Task::GovGive { asker, seat } => {
                let q = seat as usize;
                if self.seats[q].hand_of(D_SUMMER) == 0 {
                    self.pop();
                    self.gain_vp(asker as usize, 1);
                    return true;
                }
                false
            }
            Task::Importer { .. } if self.escrow_len >= 3 => {
                self.pop();
                true
            }
            Task::HandLimit(q) if self.seats[q as usize].hand_size() <= HAND_LIMIT => {
                self.pop();
                true
            }
            Task::Make { left: 0, .. }
            | Task::Plant { left: 0, .. }
            | Task::Harvest { left: 0, .. } => {
                self.pop();
                true
            }
            Task::Retrieve { left: 0, .. }
            | Task::Piles { left: 0, .. }
            | Task::Uproot { left: 0, .. } => {
                self.pop();
                true
            }
            Task::DiscardCards { left: 0, .. } => {
                self.pop();
                true
            }
            Task::Reveals { left, .. } if left == 0 || self.reveal.iter().all(|&k| k == NONE) => {
                self.pop();
                true
            }
            Task::Piles { .. } if self.discard_len.iter().all(|&l| l == 0) => {
                self.pop();
                true
            }
            Task::MentorMake { made: 2, .. } => {
                self.pop();
                true
            }
            // The bonus space's second card is a repeat offer (§9.1, §15.7): with nothing left to draw it
            // ends without a decision.
            Task::AcceptDraw { deck, .. } if !self.can_draw(deck as usize) => {
                self.pop();
                true
            }
            // §15.7: a repeat offer with nothing more legal ends without a decision
            t if self.repeat_offer(t) => {
                let mut buf = Vec::new();
                self.legal(&mut buf);
                if buf[..] == [A_DONE] {
                    self.apply_task(t, A_DONE);
                    return true;
                }
                false
            }
            _ => false,
        }
    }

    /// A "then more or `done`" offer (§15.7): `done` is offered only with at least one more legal id, so when
    /// `done` alone would be legal the sequence ends without a decision (a first offer of an "up to" step with
    /// min 0 included: its `done` too needs another legal id).
    fn repeat_offer(&self, t: Task) -> bool {
        match t {
            Task::PlayVisitor { again, .. } => again,
            Task::Sell { sold, .. } => sold,
            Task::Wedding { count, .. } => count >= 1,
            Task::Governor { chosen, .. } => chosen != 0,
            // Mentor's "make up to 2": after the first wine, more or `done`
            Task::MentorMake { made, .. } => made >= 1,
            Task::Plant { .. }
            | Task::Harvest { .. }
            | Task::Make { .. }
            | Task::Retrieve { .. }
            | Task::Importer { .. } => true,
            _ => false,
        }
    }

    fn start_season(&mut self, phase: Phase) {
        self.phase = phase;
        self.stage = 0;
        self.passed = [false; MAXP];
        self.placements = [0; MAXP];
    }

    fn drive(&mut self) {
        let d = data();
        let n = self.n();
        match self.phase {
            Phase::Setup => match self.stage {
                0 => self.push(Task::First),
                1 => {
                    let pd = self.rules.parents_dealt as usize;
                    let total = n * 2 * pd;
                    let i = self.idx as usize;
                    if i >= total {
                        self.stage = 2;
                        self.idx = 0;
                        return;
                    }
                    let seat = ((self.first as usize + i / (2 * pd)) % n) as u8;
                    self.idx += 1;
                    if i % (2 * pd) < pd {
                        self.push(Task::DealMama(seat));
                    } else {
                        self.push(Task::DealPapa(seat));
                    }
                }
                2 => {
                    let i = self.idx as usize;
                    if i >= 2 * n {
                        self.stage = 3;
                        self.idx = 0;
                        return;
                    }
                    let seat = ((self.first as usize + i / 2) % n) as u8;
                    self.idx += 1;
                    if i % 2 == 0 {
                        self.push(Task::KeepMama(seat));
                    } else {
                        self.push(Task::KeepPapa(seat));
                    }
                }
                3 => {
                    let i = self.idx as usize;
                    if i >= n {
                        self.stage = 4;
                        self.idx = 0;
                        return;
                    }
                    let q = (self.first as usize + i) % n;
                    self.idx += 1;
                    let m = self.seats[q].mama as usize;
                    if let Some(mama) = d.mamas.get(m) {
                        // the cards first, then the lira (§5 step 4)
                        self.push(Task::GainLira {
                            seat: q as u8,
                            n: mama.lira.clamp(0, 9) as u8,
                        });
                        self.push_draws(q, mama.draws);
                    }
                }
                4 => {
                    let i = self.idx as usize;
                    if i >= n {
                        self.start_year();
                        return;
                    }
                    if i == 0 {
                        // Every papa's base lira before the first choice (§5 step 5; RB "Do this before
                        // gaining resources from your papa card": the resources come together, then the choices).
                        for q in 0..n {
                            if let Some(papa) = d.papas.get(self.seats[q].papa as usize) {
                                self.gain_lira(q, papa.lira);
                            }
                        }
                    }
                    let q = (self.first as usize + i) % n;
                    self.idx += 1;
                    self.push(Task::PapaChoice(q as u8));
                }
                _ => self.start_year(),
            },
            Phase::Spring => {
                let i = self.idx as usize;
                if i >= n {
                    self.start_season(Phase::Summer);
                    return;
                }
                let q = (self.first as usize + i) % n;
                self.idx += 1;
                self.turn_seat = q as i8;
                self.fresh_unit = true;
                self.push(Task::Wake(q as u8));
            }
            Phase::Summer | Phase::Winter => self.drive_season(),
            Phase::Fall => {
                let (w, len) = self.wake_order();
                let i = self.idx as usize;
                if i >= len {
                    self.start_season(Phase::Winter);
                    return;
                }
                self.idx += 1;
                let q = w[i];
                if self.can_draw(D_SUMMER) || self.can_draw(D_WINTER) {
                    self.turn_seat = q as i8;
                    self.fresh_unit = true;
                    self.push(Task::FallChoice {
                        seat: q,
                        first: NONE,
                    });
                }
            }
            Phase::YearEnd => self.drive_year_end(),
            Phase::Over => {}
        }
    }

    fn start_year(&mut self) {
        self.phase = Phase::Spring;
        self.stage = 0;
        self.idx = 0;
        self.rows = [0; MAXP];
    }

    fn drive_season(&mut self) {
        let n = self.n();
        if self.stage == 0 {
            // season start; `idx` (the spring and fall drivers' place in the wake-up order) is unused in
            // placement seasons, and a state read from a snapshot has it 0
            self.stage = 2;
            self.idx = 0;
            if self.phase == Phase::Winter && self.planned_len > 0 {
                // `planned` in resolution order (§15.4): wake-up order of owners, then order placed (stable).
                let (w, len) = self.wake_order();
                let rank = |q: u8| w[..len].iter().position(|&x| x == q).unwrap_or(MAXP);
                let m = self.planned_len as usize;
                self.planned[..m].sort_by_key(|e| rank(e[0]));
                let mut list = [Task::First; 12];
                for (i, t) in list[..m].iter_mut().enumerate() {
                    *t = Task::ResolvePlan(i as u8);
                }
                self.push_seq(&list[..m]);
                self.turn_seat = -1;
                self.stage = 1;
                self.clear_scratch();
                // The reservations' unit starts here, before any of them resolves, not at a node: serial.rs'
                // replay stops here to take its snapshot (a live state goes on; `fresh_unit` marks nodes only).
                self.halted = self.halt_at_reservations;
                return;
            }
            let (w, _) = self.wake_order();
            self.turn_seat = -1;
            self.next_turn(w[0] as usize, true);
            return;
        }
        if self.stage == 1 {
            self.stage = 2;
            // Every reservation is resolved: they are ordinary workers now, and `planned` is empty.
            self.planned_len = 0;
            for a in 0..12 {
                for e in self.board[a].iter_mut() {
                    *e &= !(1 << 6);
                }
            }
            let (w, _) = self.wake_order();
            self.turn_seat = -1;
            self.next_turn(w[0] as usize, true);
            return;
        }
        // a turn just ended
        let from = self.turn_seat.max(0) as usize;
        let _ = n;
        self.next_turn(from, false);
    }

    /// Start the turn of the next seat in wake-up order from `from` (inclusive or not) that has not passed.
    fn next_turn(&mut self, from: usize, include: bool) {
        let (w, len) = self.wake_order();
        let pos = w[..len]
            .iter()
            .position(|&q| q as usize == from)
            .unwrap_or(0);
        for i in 0..len {
            let off = if include { i } else { i + 1 };
            let q = w[(pos + off) % len] as usize;
            if self.passed[q] {
                continue;
            }
            if !self.has_worker(q) || self.placements[q] >= SEASON_CAP {
                self.passed[q] = true;
                continue;
            }
            self.turn_seat = q as i8;
            self.fresh_unit = true;
            self.push(Task::Turn(q as u8));
            return;
        }
        // everybody passed: the season ends (§15.7: `passed` is per season, all false in fall and at year end)
        self.turn_seat = -1;
        self.passed = [false; MAXP];
        if self.phase == Phase::Summer {
            self.phase = Phase::Fall;
            self.stage = 0;
            self.idx = 0;
        } else {
            self.phase = Phase::YearEnd;
            self.stage = 0;
            self.idx = 0;
        }
    }

    fn drive_year_end(&mut self) {
        let n = self.n();
        match self.stage {
            0 => {
                for q in 0..n {
                    self.age_grapes(q);
                    self.age_wines(q);
                }
                for q in 0..n {
                    let s = &mut self.seats[q];
                    s.regular = (s.regular + s.trained).min(5);
                    s.trained = 0;
                    s.regular_placed = 0;
                    s.grande_placed = false;
                    s.cart = 0;
                    s.cart_grande = false;
                    s.yoke_used = false;
                    s.yoke_kind = 0; // an empty Yoke reads back with kind 0
                }
                self.board_len = [0; 12];
                self.planned_len = 0;
                for q in 0..n {
                    let r = self.seats[q].residual;
                    self.gain_lira(q, r);
                }
                self.stage = 1;
                self.idx = 0;
            }
            1 => {
                let (w, len) = self.wake_order();
                let i = self.idx as usize;
                if i >= len {
                    self.stage = 2;
                    return;
                }
                self.idx += 1;
                let q = w[i];
                if self.seats[q as usize].hand_size() > HAND_LIMIT {
                    self.turn_seat = q as i8;
                    self.fresh_unit = true;
                    self.push(Task::HandLimit(q));
                }
            }
            _ => {
                self.first = ((self.first as usize + n - 1) % n) as u8;
                self.rows = [0; MAXP];
                // §15.7: `temp` is the seat on row 7, −1 once the rows are cleared
                self.temp = -1;
                for q in 0..n {
                    let s = &mut self.seats[q];
                    for f in 0..3 {
                        s.fields[f].harvested = false;
                    }
                    s.windmill_used = false;
                    s.tasting_used = false;
                    s.yoke_used = false;
                    s.yoke_kind = 0; // an empty Yoke reads back with kind 0
                }
                self.passed = [false; MAXP];
                self.placements = [0; MAXP];
                let mut over = self.end_flag || self.year >= self.rules.max_years;
                if !self.rules.end_reached()
                    && self.seats[..n].iter().any(|s| s.vp >= self.rules.target_vp)
                {
                    // §15.7: `end_flag` is only ever set under end_rule=reached; this rule ends at once.
                    over = true;
                }
                if over {
                    self.phase = Phase::Over;
                    (self.stage, self.idx) = (0, 0); // as a state read from the final snapshot
                    self.turn_seat = -1;
                } else {
                    self.year += 1;
                    self.start_year();
                }
            }
        }
    }

    // ---------------------------------------------------------------- nodes

    pub fn current(&self) -> i32 {
        if self.phase == Phase::Over && self.sp == 0 {
            return crate::TERMINAL;
        }
        match self.top() {
            None => crate::TERMINAL,
            Some(t) => match t {
                Task::First | Task::DealMama(_) | Task::DealPapa(_) | Task::Draw { .. } => {
                    crate::CHANCE
                }
                _ => deciding_seat(t) as i32,
            },
        }
    }

    pub fn chance(&self, out: &mut Vec<(u32, u64)>) {
        out.clear();
        let n = self.n();
        match self.top() {
            Some(Task::First) => {
                for q in 0..n {
                    out.push((C_FIRST + q as u32, 1));
                }
            }
            Some(Task::DealMama(_)) => {
                for m in 0..MAMAS {
                    if self.mama_dealt & (1 << m) == 0 {
                        out.push((C_MAMA + m as u32, 1));
                    }
                }
            }
            Some(Task::DealPapa(_)) => {
                for p in 0..PAPAS {
                    if self.papa_dealt & (1 << p) == 0 {
                        out.push((C_PAPA + p as u32, 1));
                    }
                }
            }
            Some(Task::Draw { deck, .. }) => {
                let deck = deck as usize & 3;
                for k in kinds_of(deck) {
                    let c = self.decks[deck][k];
                    if c > 0 {
                        out.push((k as u32, c as u64));
                    }
                }
            }
            _ => {}
        }
    }

    fn place_ok(&self, q: usize, a: usize, j: u32) -> bool {
        let kind_g = matches!(j, 1 | 3 | 4);
        if kind_g && !self.grande_avail(q) || !kind_g && self.regular_avail(q) == 0 {
            return false;
        }
        let space_ok = match j {
            0 | 1 => self.plain_free(a),
            2 | 3 => self.bonus_free(a) && self.friendly_ok(a),
            _ => !self.plain_free(a) && !self.bonus_free(a),
        };
        if !space_ok {
            return false;
        }
        if a == 3 || a == 9 {
            // the visitor is played after the worker stands on the space (Planner needs another worker)
            let mut after = self.clone();
            after.put_worker(q, kind_g as u8);
            let space = if j <= 1 {
                0
            } else if j <= 3 {
                1
            } else {
                2
            };
            after.board_add(a, q, space, kind_g as u8, false);
            return after.action_ok(q, a, j == 2 || j == 3);
        }
        self.action_ok(q, a, j == 2 || j == 3)
    }

    /// The legal decision ids, ascending.
    pub fn legal(&self, out: &mut Vec<u32>) {
        out.clear();
        let Some(t) = self.top() else { return };
        let d = data();
        let n = self.n();
        match t {
            Task::First | Task::DealMama(_) | Task::DealPapa(_) | Task::Draw { .. } => {
                let mut w = Vec::new();
                self.chance(&mut w);
                out.extend(w.iter().map(|x| x.0));
            }
            Task::KeepMama(q) => {
                let mut v: Vec<u32> = self.seats[q as usize]
                    .dealt_mamas
                    .iter()
                    .filter(|&&m| m != NONE)
                    .map(|&m| A_MAMA + m as u32)
                    .collect();
                v.sort();
                out.extend(v);
            }
            Task::KeepPapa(q) => {
                let mut v: Vec<u32> = self.seats[q as usize]
                    .dealt_papas
                    .iter()
                    .filter(|&&m| m != NONE)
                    .map(|&m| A_PAPA + m as u32)
                    .collect();
                v.sort();
                out.extend(v);
            }
            Task::PapaChoice(_) => out.extend([A_GIFT, A_LIRA]),
            Task::Wake(_) | Task::Rooster(_) => {
                for r in 1..=7u8 {
                    if !self.rows[..n].contains(&r) {
                        out.push(A_WAKE + r as u32 - 1);
                    }
                }
            }
            Task::Row5(_) => {
                if self.can_draw(D_SUMMER) {
                    out.push(A_DRAW + 1);
                }
                if self.can_draw(D_WINTER) {
                    out.push(A_DRAW + 3);
                }
            }
            Task::FallChoice { first, .. } => {
                for (deck, id) in [(D_SUMMER, A_DRAW + 1), (D_WINTER, A_DRAW + 3)] {
                    let avail = self.deck_size(deck) + self.discard_len[deck] as u32;
                    let used = (first == deck as u8) as u32;
                    if avail > used {
                        out.push(id);
                    }
                }
            }
            Task::Turn(q) => {
                let q = q as usize;
                let acts = if self.phase == Phase::Summer {
                    0..6
                } else {
                    6..12
                };
                for a in acts {
                    for j in 0..5u32 {
                        if self.place_ok(q, a, j) {
                            out.push(A_PLACE + 5 * a as u32 + j);
                        }
                    }
                }
                if self.regular_avail(q) > 0 {
                    out.push(A_PLACE_LIRA);
                }
                if self.grande_avail(q) {
                    out.push(A_PLACE_LIRA + 1);
                }
                if self.action_ok(q, 13, false) {
                    if self.regular_avail(q) > 0 {
                        out.push(A_PLACE_YOKE);
                    }
                    if self.grande_avail(q) {
                        out.push(A_PLACE_YOKE + 1);
                    }
                }
                out.push(A_PASS);
            }
            Task::HandLimit(q)
            | Task::DiscardCards {
                seat: q,
                visitor: false,
                ..
            } => {
                for k in 0..KINDS {
                    if self.seats[q as usize].hand[k] > 0 {
                        out.push(A_CARD + k as u32);
                    }
                }
            }
            Task::DiscardCards {
                seat: q,
                visitor: true,
                ..
            } => {
                for k in SUMMER0..KINDS {
                    if self.seats[q as usize].hand[k] > 0 {
                        out.push(A_CARD + k as u32);
                    }
                }
            }
            Task::AcceptDraw { deck, .. } => {
                if self.can_draw(deck as usize) {
                    out.push(A_ACCEPT);
                }
                out.push(A_DECLINE);
            }
            Task::PlayVisitor {
                seat,
                season,
                again,
            } => {
                if again {
                    out.push(A_DONE);
                }
                let q = seat as usize;
                let range = if season == 0 {
                    0..SUMMER
                } else {
                    SUMMER..SUMMER + WINTER
                };
                for c in range {
                    if self.seats[q].hand[SUMMER0 + c] > 0 && self.playable(q, c) {
                        out.push(A_PLAY + c as u32);
                    }
                }
            }
            Task::Sell { seat, sold } => {
                let q = seat as usize;
                let s = &self.seats[q];
                if sold {
                    out.push(A_DONE);
                }
                if !sold {
                    for f in 0..3 {
                        let fl = &s.fields[f];
                        if fl.owned && fl.count() == 0 {
                            out.push(A_SELL_FIELD + f as u32);
                        }
                    }
                    for f in 0..3 {
                        if !s.fields[f].owned && d.fields[f] as i32 <= s.lira {
                            out.push(A_BUY_FIELD + f as u32);
                        }
                    }
                }
                for c in 0..2 {
                    for v in 0..9 {
                        if s.crush[c] & (1 << v) != 0 {
                            out.push(A_GRAPE + 9 * c as u32 + v);
                        }
                    }
                }
                out.sort_unstable();
            }
            Task::Plant {
                seat, need, flags, ..
            } => {
                if need == 0 {
                    out.push(A_DONE);
                }
                self.plant_ids(seat as usize, flags, out);
            }
            Task::Crew { seat, .. } => {
                out.push(A_DECLINE);
                self.plant_ids(seat as usize, 0, out);
                out.sort_unstable();
            }
            Task::Harvest { seat, need, .. } => {
                if need == 0 {
                    out.push(A_DONE);
                }
                for f in 0..3 {
                    if self.harvest_ok(seat as usize, f) {
                        out.push(A_HARVEST + f as u32);
                    }
                }
            }
            Task::Make {
                seat,
                need,
                min_value,
                ignore_cellar,
                ..
            } => {
                if need == 0 {
                    out.push(A_DONE);
                }
                self.make_ids(seat as usize, min_value, ignore_cellar, out);
            }
            Task::MentorMake { seat, made, .. } => {
                out.push(if made == 0 { A_DECLINE } else { A_DONE });
                self.make_ids(seat as usize, 1, false, out);
                out.sort_unstable();
            }
            Task::Build {
                seat,
                discount,
                free,
                allowed,
            } => {
                for st in 0..STRUCTURES {
                    if self
                        .struct_cost(seat as usize, st, discount as i32, free, allowed)
                        .is_some()
                    {
                        out.push(A_BUILD + st as u32);
                    }
                }
            }
            Task::HandyBuild { seat, .. } => {
                out.push(A_DECLINE);
                for st in 0..STRUCTURES {
                    if self.struct_cost(seat as usize, st, 2, false, 0).is_some() {
                        out.push(A_BUILD + st as u32);
                    }
                }
                out.sort_unstable();
            }
            Task::Fill {
                seat, order, req, ..
            } => {
                let q = seat as usize;
                if order == NONE {
                    for o in 0..ORDERS {
                        if self.order_fillable(q, o) {
                            out.push(A_FILL + o as u32);
                        }
                    }
                } else if let Some(ord) = d.orders.get(order as usize) {
                    let cellar = self.seats[q].cellar;
                    if let Some(&(t, min)) = ord.requires.get(req as usize) {
                        let t = (t as usize).min(3);
                        for v in min.max(1)..=9u8 {
                            if cellar[t] & (1 << (v - 1)) != 0 {
                                let mut c = cellar;
                                c[t] &= !(1 << (v - 1));
                                if Self::fillable(c, &ord.requires[req as usize + 1..]) {
                                    out.push(A_WINE + 9 * t as u32 + v as u32 - 1);
                                }
                            }
                        }
                    }
                }
            }
            Task::Yoke(q) => {
                let q = q as usize;
                for f in 0..3 {
                    if self.harvest_ok(q, f) {
                        out.push(A_HARVEST + f as u32);
                    }
                }
                for v in 0..VINES {
                    for f in 0..3 {
                        if self.seats[q].fields[f].vines[v] > 0 {
                            out.push(A_VINE + 3 * v as u32 + f as u32);
                        }
                    }
                }
                out.sort_unstable();
            }
            Task::Choose {
                seat,
                card,
                stage,
                first,
            } => {
                let q = seat as usize;
                let c = card as usize;
                let nopt = d.visitors.get(c).map_or(0, |v| v.options.len());
                match stage {
                    0 => {
                        for o in 0..nopt.min(3) {
                            if self.option_ok(q, c, o) {
                                out.push(A_OPTION + o as u32);
                            }
                        }
                        let mode = d.visitors[c].mode;
                        if mode == Mode::OrBoth
                            && nopt >= 2
                            && self.option_ok(q, c, 0)
                            && self.option_ok(q, c, 1)
                            && self.seats[q].vp > -5
                        {
                            out.push(A_BOTH);
                        }
                    }
                    1 => {
                        for o in 0..nopt.min(3) {
                            if o as u8 != first && self.option_ok(q, c, o) {
                                out.push(A_OPTION + o as u32);
                            }
                        }
                    }
                    2 => out.extend([A_OPTION, A_OPTION + 1]),
                    _ => {
                        out.push(A_OPTION);
                        if !self.seats[q].has(YOKE) && self.seats[q].lira >= 1 {
                            out.push(A_OPTION + 1);
                        }
                    }
                }
            }
            Task::Overseer { seat, .. } => {
                let q = seat as usize;
                for st in 0..STRUCTURES {
                    if self.struct_cost(q, st, 0, false, 0).is_some() {
                        out.push(A_BUILD + st as u32);
                    }
                }
                self.plant_ids(q, 0, out);
                out.sort_unstable();
            }
            Task::DiscardWine { seat, min_value } => {
                let s = &self.seats[seat as usize];
                for t in 0..4 {
                    for v in min_value.max(1)..=9u8 {
                        if s.cellar[t] & (1 << (v - 1)) != 0 {
                            out.push(A_WINE + 9 * t as u32 + v as u32 - 1);
                        }
                    }
                }
            }
            Task::AgeWine(q) => {
                let s = &self.seats[q as usize];
                for t in 0..4 {
                    for v in 0..9 {
                        if s.cellar[t] & (1 << v) != 0 {
                            out.push(A_WINE + 9 * t as u32 + v);
                        }
                    }
                }
            }
            Task::DiscardGrape(q) | Task::DiscardGrapeOrWine(q) => {
                let s = &self.seats[q as usize];
                for c in 0..2 {
                    for v in 0..9 {
                        if s.crush[c] & (1 << v) != 0 {
                            out.push(A_GRAPE + 9 * c as u32 + v);
                        }
                    }
                }
                if matches!(t, Task::DiscardGrapeOrWine(_)) {
                    for tt in 0..4 {
                        for v in 0..9 {
                            if s.cellar[tt] & (1 << v) != 0 {
                                out.push(A_WINE + 9 * tt as u32 + v);
                            }
                        }
                    }
                }
            }
            Task::PlaceGrape(q) => {
                let s = &self.seats[q as usize];
                if s.crush[0] & 1 == 0 {
                    out.push(A_GRAPE);
                }
                if s.crush[1] & 1 == 0 {
                    out.push(A_GRAPE + 9);
                }
            }
            Task::Switch { seat, first } => {
                let q = seat as usize;
                for v in 0..VINES {
                    for f in 0..3 {
                        let ok = if first == NONE {
                            self.switch_first_ok(q, v, f)
                        } else {
                            self.switch_ok(q, first as usize / 3, first as usize % 3, v, f)
                        };
                        if ok {
                            out.push(A_VINE + 3 * v as u32 + f as u32);
                        }
                    }
                }
            }
            Task::Uproot { seat, stage, .. } => {
                let q = seat as usize;
                if stage == 0 {
                    for v in 0..VINES {
                        for f in 0..3 {
                            if self.seats[q].fields[f].vines[v] > 0 {
                                out.push(A_VINE + 3 * v as u32 + f as u32);
                            }
                        }
                    }
                } else {
                    for v in 0..VINES {
                        if self.seats[q].hand[v] > 0 {
                            out.push(A_CARD + v as u32);
                        }
                    }
                }
            }
            Task::Piles { used, .. } => {
                for dk in 0..4 {
                    if self.discard_len[dk] > 0 && used & (1 << dk) == 0 {
                        out.push(A_PILE + dk as u32);
                    }
                }
            }
            Task::Reveals { .. } => {
                let mut v: Vec<u32> = self
                    .reveal
                    .iter()
                    .filter(|&&k| k != NONE)
                    .map(|&k| A_CARD + k as u32)
                    .collect();
                v.sort_unstable();
                v.dedup();
                out.extend(v);
            }
            Task::Plan(q) => {
                for a in 6..12 {
                    for j in 0..5u32 {
                        if self.plan_ok(q as usize, a, j) {
                            out.push(A_PLACE + 5 * a as u32 + j);
                        }
                    }
                }
            }
            Task::Retrieve { seat, taken, .. } => {
                if taken > 0 {
                    out.push(A_DONE);
                }
                for sp in 0..14u32 {
                    for k in 0..2u8 {
                        if self.can_retrieve(seat as usize, sp as usize, k) {
                            out.push(A_RETRIEVE + 2 * sp + k as u32);
                        }
                    }
                }
            }
            Task::Take(q) => {
                for a in 0..6 {
                    if self.action_ok(q as usize, a, false) {
                        out.push(A_TAKE + a as u32);
                    }
                }
            }
            Task::Ask { kind, seat, .. } => {
                let q = seat as usize;
                let s = &self.seats[q];
                let ok = match kind {
                    AskKind::Vendor => self.can_draw(D_SUMMER),
                    AskKind::Banker => s.vp >= -4,
                    AskKind::Swindler => s.lira >= 2,
                    AskKind::Motivator => self.grande_retrievable(q),
                    AskKind::GuestSpeaker => self.can_train(q, 1),
                };
                if ok {
                    out.push(A_ACCEPT);
                }
                out.push(A_DECLINE);
            }
            Task::MentorDraw { .. } => {
                if self.can_draw(D_VINE) {
                    out.push(A_DRAW);
                }
                if self.can_draw(D_SUMMER) {
                    out.push(A_DRAW + 1);
                }
            }
            Task::Wedding {
                seat,
                chosen,
                count,
            } => {
                if count >= 1 {
                    out.push(A_DONE);
                }
                if count < 3 && self.seats[seat as usize].lira >= 2 {
                    for p in 0..n {
                        if p != seat as usize && chosen & (1 << p) == 0 {
                            out.push(A_SEAT + p as u32);
                        }
                    }
                }
            }
            Task::Governor { seat, chosen } => {
                let count = chosen.count_ones();
                if count >= 1 {
                    out.push(A_DONE);
                }
                if count < 3 {
                    for p in 0..n {
                        if p != seat as usize && chosen & (1 << p) == 0 {
                            out.push(A_SEAT + p as u32);
                        }
                    }
                }
            }
            Task::GovGive { seat, .. } => {
                for k in SUMMER0..WINTER0 {
                    if self.seats[seat as usize].hand[k] > 0 {
                        out.push(A_CARD + k as u32);
                    }
                }
            }
            Task::Importer { seat, .. } => {
                out.push(A_DONE);
                for k in SUMMER0..KINDS {
                    if self.seats[seat as usize].hand[k] > 0 {
                        out.push(A_CARD + k as u32);
                    }
                }
                out.sort_unstable();
            }
            Task::Queen { seat, .. } => {
                let s = &self.seats[seat as usize];
                if s.vp >= -4 {
                    out.push(A_OPTION);
                }
                if s.hand_size() >= 2 {
                    out.push(A_OPTION + 1);
                }
                if s.lira >= 3 {
                    out.push(A_OPTION + 2);
                }
            }
            Task::QueenGive { seat, .. } => {
                for k in 0..KINDS {
                    if self.seats[seat as usize].hand[k] > 0 {
                        out.push(A_CARD + k as u32);
                    }
                }
            }
            Task::GainVp { .. }
            | Task::GainLira { .. }
            | Task::Finish(_)
            | Task::Steps { .. }
            | Task::ResolvePlan(_)
            | Task::RevealsDone
            | Task::ImporterEnd(_)
            | Task::PassAfter(_) => {}
        }
    }

    fn plant_ids(&self, q: usize, flags: u8, out: &mut Vec<u32>) {
        for v in 0..VINES {
            for f in 0..3 {
                if self.plant_ok(q, v, f, flags) {
                    out.push(A_PLANT + 3 * v as u32 + f as u32);
                }
            }
        }
    }
    fn make_ids(&self, q: usize, min_value: u8, ignore: bool, out: &mut Vec<u32>) {
        if !self.seats[q].any_grape() {
            return;
        }
        for id in 479..=901u32 {
            if self.make_result(q, id, min_value, ignore).is_some() {
                out.push(id);
            }
        }
    }

    /// Who learns the identity of this action (the `seen` mask of §15.4): 0 = public.
    pub fn visibility(&self, action: u32) -> u8 {
        match self.top() {
            Some(Task::Draw {
                seat,
                reveal: false,
                ..
            }) => 1 << seat,
            Some(Task::QueenGive { asker, seat, .. }) | Some(Task::GovGive { asker, seat }) => {
                (1 << asker) | (1 << seat)
            }
            Some(Task::Importer { asker, seat }) if action != A_DONE => (1 << asker) | (1 << seat),
            _ => 0,
        }
    }

    /// Apply a legal action (chance outcome or decision).
    pub fn apply(&mut self, action: u32) {
        let Some(t) = self.top() else { return };
        self.fresh_unit = false;
        self.apply_task(t, action);
        self.advance();
        if self.fresh_unit {
            self.clear_scratch();
        }
    }

    fn apply_task(&mut self, t: Task, a: u32) {
        let d = data();
        let n = self.n();
        match t {
            Task::First => {
                self.pop();
                self.first = (a.saturating_sub(C_FIRST) as usize % n) as u8;
                self.stage = 1;
                self.idx = 0;
            }
            Task::DealMama(q) => {
                self.pop();
                let m = a.saturating_sub(C_MAMA) as usize;
                if m < MAMAS {
                    self.mama_dealt |= 1 << m;
                    let s = &mut self.seats[q as usize];
                    if let Some(slot) = s.dealt_mamas.iter_mut().find(|x| **x == NONE) {
                        *slot = m as u8;
                    }
                    // ascending, as the snapshot writes them (NONE last), so a state read back is equal
                    s.dealt_mamas.sort_unstable();
                }
            }
            Task::DealPapa(q) => {
                self.pop();
                let p = a.saturating_sub(C_PAPA) as usize;
                if p < PAPAS {
                    self.papa_dealt |= 1 << p;
                    let s = &mut self.seats[q as usize];
                    if let Some(slot) = s.dealt_papas.iter_mut().find(|x| **x == NONE) {
                        *slot = p as u8;
                    }
                    // ascending, as the snapshot writes them (NONE last), so a state read back is equal
                    s.dealt_papas.sort_unstable();
                }
            }
            Task::Draw { seat, deck, reveal } => {
                self.pop();
                let k = a as usize;
                let deck = deck as usize & 3;
                if k < KINDS && self.decks[deck][k] > 0 {
                    self.decks[deck][k] -= 1;
                    if reveal {
                        self.reveal[deck] = k as u8;
                    } else {
                        self.hand_add(seat as usize, k, false);
                    }
                }
            }
            Task::KeepMama(q) => {
                self.pop();
                self.seats[q as usize].mama = a.saturating_sub(A_MAMA) as u8;
            }
            Task::KeepPapa(q) => {
                self.pop();
                self.seats[q as usize].papa = a.saturating_sub(A_PAPA) as u8;
            }
            Task::PapaChoice(q) => {
                self.pop();
                let q = q as usize;
                let Some(papa) = d.papas.get(self.seats[q].papa as usize) else {
                    return;
                };
                if a == A_GIFT {
                    self.seats[q].gift = 2;
                    match papa.gift {
                        Gift::Structure(st) => self.seats[q].structures |= 1 << st,
                        Gift::Worker => self.seats[q].regular += 1,
                        Gift::Vp => self.gain_vp(q, 1),
                    }
                } else {
                    self.seats[q].gift = 1;
                    self.gain_lira(q, papa.gift_lira);
                }
            }
            Task::Wake(q) => {
                self.pop();
                let row = (a - A_WAKE + 1) as u8;
                self.rows[q as usize] = row;
                self.wake_bonus(q as usize, row, false);
            }
            Task::Rooster(q) => {
                self.pop();
                let row = (a - A_WAKE + 1) as u8;
                self.rows[q as usize] = row;
                // the seat passes after the bonus (the step's "take the bonus, then pass")
                self.push(Task::PassAfter(q));
                // A seat leaving row 7 keeps the temporary worker it took (it may stand on the board already);
                // `temp` is who holds it this year (§15.7 as amended, interpretation 28).
                self.wake_bonus(q as usize, row, true);
            }
            Task::Row5(q) => {
                self.pop();
                let deck = if a == A_DRAW + 1 { D_SUMMER } else { D_WINTER };
                self.push(Task::Draw {
                    seat: q,
                    deck: deck as u8,
                    reveal: false,
                });
            }
            Task::FallChoice { seat, first } => {
                self.pop();
                let deck = if a == A_DRAW + 1 {
                    D_SUMMER as u8
                } else {
                    D_WINTER as u8
                };
                if first == NONE {
                    let q = seat as usize;
                    let second_possible = [D_SUMMER, D_WINTER].iter().any(|&dk| {
                        self.deck_size(dk) + self.discard_len[dk] as u32 > (dk as u8 == deck) as u32
                    });
                    if self.seats[q].has(COTTAGE) && second_possible {
                        self.push(Task::FallChoice { seat, first: deck });
                    } else {
                        self.push(Task::Draw {
                            seat,
                            deck,
                            reveal: false,
                        });
                    }
                } else {
                    self.push_seq(&[
                        Task::Draw {
                            seat,
                            deck: first,
                            reveal: false,
                        },
                        Task::Draw {
                            seat,
                            deck,
                            reveal: false,
                        },
                    ]);
                }
            }
            Task::Turn(q) => {
                self.pop();
                let q = q as usize;
                if a == A_PASS {
                    self.passed[q] = true;
                    return;
                }
                self.placements[q] = self.placements[q].saturating_add(1);
                match a {
                    45..=104 => {
                        let i = a - A_PLACE;
                        let (act, j) = ((i / 5) as usize, i % 5);
                        let kind = matches!(j, 1 | 3 | 4) as u8;
                        let space = match j {
                            0 | 1 => 0,
                            2 | 3 => 1,
                            _ => 2,
                        };
                        self.board_add(act, q, space, kind, false);
                        self.put_worker(q, kind);
                        self.exec_action(q, act, space == 1, true);
                    }
                    105 | 106 => {
                        let kind = (a - 105) as u8;
                        self.put_worker(q, kind);
                        self.seats[q].cart += 1;
                        if kind == 1 {
                            self.seats[q].cart_grande = true;
                        }
                        self.exec_action(q, 12, false, true);
                    }
                    107 | 108 => {
                        let kind = (a - 107) as u8;
                        self.put_worker(q, kind);
                        self.seats[q].yoke_used = true;
                        self.seats[q].yoke_kind = kind;
                        self.exec_action(q, 13, false, true);
                    }
                    _ => {}
                }
            }
            Task::HandLimit(q) | Task::DiscardCards { seat: q, .. } => {
                let k = (a - A_CARD) as usize;
                self.hand_remove(q as usize, k);
                self.discard(k);
                if let Task::DiscardCards {
                    seat,
                    left,
                    visitor,
                } = t
                {
                    self.set_top(Task::DiscardCards {
                        seat,
                        left: left - 1,
                        visitor,
                    });
                }
            }
            Task::AcceptDraw { seat, deck } => {
                self.pop();
                if a == A_ACCEPT {
                    self.push(Task::Draw {
                        seat,
                        deck,
                        reveal: false,
                    });
                }
            }
            Task::PlayVisitor { seat, .. } => {
                self.pop();
                if a != A_DONE {
                    self.play_visitor(seat as usize, (a - A_PLAY) as usize);
                }
            }
            Task::Sell { seat, .. } => {
                let q = seat as usize;
                self.pop();
                match a {
                    425..=442 => {
                        let i = a - A_GRAPE;
                        let (c, v) = ((i / 9) as usize, i % 9 + 1);
                        self.seats[q].crush[c] &= !(1 << (v - 1));
                        self.gain_lira(q, v.div_ceil(3) as i32);
                        self.push(Task::Sell { seat, sold: true });
                    }
                    411..=413 => {
                        let f = (a - A_SELL_FIELD) as usize;
                        self.seats[q].fields[f].owned = false;
                        self.gain_lira(q, d.fields[f] as i32);
                    }
                    414..=416 => {
                        let f = (a - A_BUY_FIELD) as usize;
                        self.seats[q].fields[f].owned = true;
                        self.seats[q].lira -= d.fields[f] as i32;
                    }
                    _ => {}
                }
            }
            Task::Plant {
                seat,
                left,
                need,
                flags,
                ..
            } => {
                if a == A_DONE {
                    self.pop();
                    return;
                }
                let i = a - A_PLANT;
                self.do_plant(seat as usize, (i / 3) as usize, (i % 3) as usize);
                self.set_top(Task::Plant {
                    seat,
                    left: left - 1,
                    need: need.saturating_sub(1),
                    flags,
                });
            }
            Task::Crew { asker, seat } => {
                self.pop();
                if a != A_DECLINE {
                    let i = a - A_PLANT;
                    self.do_plant(seat as usize, (i / 3) as usize, (i % 3) as usize);
                    if seat != asker {
                        self.gain_lira(asker as usize, 2);
                    }
                }
            }
            Task::Harvest {
                seat, left, need, ..
            } => {
                if a == A_DONE {
                    self.pop();
                    return;
                }
                self.do_harvest(seat as usize, (a - A_HARVEST) as usize);
                self.set_top(Task::Harvest {
                    seat,
                    left: left - 1,
                    need: need.saturating_sub(1),
                });
            }
            Task::Make {
                seat,
                left,
                need,
                min_value,
                ignore_cellar,
                ..
            } => {
                if a == A_DONE {
                    self.pop();
                    return;
                }
                let q = seat as usize;
                if let Some((tt, v)) = self.make_result(q, a, min_value, ignore_cellar) {
                    self.do_make(q, a, tt, v);
                }
                self.set_top(Task::Make {
                    seat,
                    left: left - 1,
                    need: need.saturating_sub(1),
                    min_value,
                    ignore_cellar,
                });
            }
            Task::MentorMake { asker, seat, made } => {
                if a == A_DONE || a == A_DECLINE {
                    self.pop();
                    return;
                }
                let q = seat as usize;
                if let Some((tt, v)) = self.make_result(q, a, 1, false) {
                    self.do_make(q, a, tt, v);
                }
                if made == 0 && seat != asker {
                    self.tally += 1;
                }
                self.set_top(Task::MentorMake {
                    asker,
                    seat,
                    made: made + 1,
                });
            }
            Task::MentorDraw { seat, left } => {
                self.set_top(Task::MentorDraw {
                    seat,
                    left: left.saturating_sub(1),
                });
                let deck = if a == A_DRAW { D_VINE } else { D_SUMMER };
                self.push(Task::Draw {
                    seat,
                    deck: deck as u8,
                    reveal: false,
                });
            }
            Task::Build {
                seat,
                discount,
                free,
                allowed,
            } => {
                self.pop();
                let st = (a - A_BUILD) as usize;
                if let Some(c) = self.struct_cost(seat as usize, st, discount as i32, free, allowed)
                {
                    self.do_build(seat as usize, st, c);
                }
            }
            Task::HandyBuild { asker, seat } => {
                self.pop();
                if a != A_DECLINE {
                    let st = (a - A_BUILD) as usize;
                    if let Some(c) = self.struct_cost(seat as usize, st, 2, false, 0) {
                        self.do_build(seat as usize, st, c);
                        if seat != asker {
                            self.gain_vp(asker as usize, 1);
                        }
                    }
                }
            }
            Task::Overseer { seat, card } => {
                self.pop();
                let q = seat as usize;
                let c = card as usize;
                // the other step, then the `if` (step 2)
                self.push(Task::Steps {
                    seat,
                    card,
                    opt: 0,
                    idx: 2,
                });
                if (A_BUILD..A_BUILD + 8).contains(&a) {
                    let st = (a - A_BUILD) as usize;
                    if let Some(cost) = self.struct_cost(q, st, 0, false, 0) {
                        self.do_build(q, st, cost);
                    }
                    self.last_planted = NONE;
                    if let Some(step) = d.visitors[c].options[0].get(1) {
                        self.exec_step(q, c, step);
                    }
                } else {
                    let i = a - A_PLANT;
                    self.do_plant(q, (i / 3) as usize, (i % 3) as usize);
                    if let Some(step) = d.visitors[c].options[0].first() {
                        self.exec_step(q, c, step);
                    }
                }
            }
            Task::Fill {
                seat,
                bonus_vp,
                order,
                req,
            } => {
                let q = seat as usize;
                if order == NONE {
                    // the order is revealed and out of the hand while its wines are chosen (as a visitor in
                    // play, §15.3)
                    self.hand_remove(q, ORDER0 + (a - A_FILL) as usize);
                    self.set_top(Task::Fill {
                        seat,
                        bonus_vp,
                        order: (a - A_FILL) as u8,
                        req: 0,
                    });
                    return;
                }
                let i = a - A_WINE;
                let (tt, v) = ((i / 9) as usize, i % 9 + 1);
                self.seats[q].cellar[tt] &= !(1 << (v - 1));
                let o = order as usize;
                let nreq = d.orders.get(o).map_or(0, |x| x.requires.len());
                if req as usize + 1 >= nreq {
                    self.pop();
                    let ord = &d.orders[o];
                    self.discard(ORDER0 + o);
                    self.gain_vp(q, ord.vp + bonus_vp as i32);
                    self.gain_residual(q, ord.residual);
                } else {
                    self.set_top(Task::Fill {
                        seat,
                        bonus_vp,
                        order,
                        req: req + 1,
                    });
                }
            }
            Task::Yoke(q) => {
                self.pop();
                let q = q as usize;
                if (A_HARVEST..A_HARVEST + 3).contains(&a) {
                    self.do_harvest(q, (a - A_HARVEST) as usize);
                } else {
                    let i = a - A_VINE;
                    self.do_uproot(q, (i / 3) as usize, (i % 3) as usize);
                }
            }
            Task::Choose {
                seat,
                card,
                stage,
                first,
            } => {
                self.pop();
                let q = seat as usize;
                if stage == 3 {
                    if a == A_OPTION {
                        self.push(Task::Draw {
                            seat,
                            deck: D_VINE as u8,
                            reveal: false,
                        });
                    } else {
                        self.do_build(q, YOKE, 1);
                    }
                    return;
                }
                if a == A_BOTH {
                    self.gain_vp(q, -1);
                    self.push(Task::Choose {
                        seat,
                        card,
                        stage: 2,
                        first: NONE,
                    });
                    return;
                }
                let o = (a - A_OPTION) as u8;
                match stage {
                    0 => {
                        let mode = d.visitors.get(card as usize).map_or(Mode::All, |v| v.mode);
                        if mode == Mode::Choose2 {
                            self.push(Task::Choose {
                                seat,
                                card,
                                stage: 1,
                                first: o,
                            });
                        }
                        self.push(Task::Steps {
                            seat,
                            card,
                            opt: o,
                            idx: 0,
                        });
                    }
                    1 => self.push(Task::Steps {
                        seat,
                        card,
                        opt: o,
                        idx: 0,
                    }),
                    _ => {
                        let _ = first;
                        self.push_seq(&[
                            Task::Steps {
                                seat,
                                card,
                                opt: o,
                                idx: 0,
                            },
                            Task::Steps {
                                seat,
                                card,
                                opt: 1 - o.min(1),
                                idx: 0,
                            },
                        ]);
                    }
                }
            }
            Task::DiscardWine { seat, .. } => {
                self.pop();
                let q = seat as usize;
                let i = a - A_WINE;
                let (tt, v) = ((i / 9) as usize, (i % 9 + 1) as u8);
                // Taster: strictly above every other wine of every cellar
                let mut strict = true;
                for p in 0..n {
                    for t2 in 0..4 {
                        for v2 in v..=9 {
                            if (p != q || t2 != tt || v2 != v)
                                && self.seats[p].cellar[t2] & (1 << (v2 - 1)) != 0
                            {
                                strict = false;
                            }
                        }
                    }
                }
                self.discarded_strict = strict;
                self.seats[q].cellar[tt] &= !(1 << (v - 1));
            }
            Task::DiscardGrape(q) | Task::DiscardGrapeOrWine(q) => {
                self.pop();
                let q = q as usize;
                if (A_GRAPE..A_WINE).contains(&a) {
                    let i = a - A_GRAPE;
                    self.seats[q].crush[(i / 9) as usize] &= !(1 << (i % 9));
                } else {
                    let i = a - A_WINE;
                    self.seats[q].cellar[(i / 9) as usize] &= !(1 << (i % 9));
                }
            }
            Task::PlaceGrape(q) => {
                self.pop();
                let c = if a == A_GRAPE { 0 } else { 1 };
                self.seats[q as usize].crush[c] |= 1;
            }
            Task::Switch { seat, first } => {
                self.pop();
                let i = (a - A_VINE) as u8;
                if first == NONE {
                    self.push(Task::Switch { seat, first: i });
                } else {
                    let q = seat as usize;
                    let (v1, f1) = ((first / 3) as usize, (first % 3) as usize);
                    let (v2, f2) = ((i / 3) as usize, (i % 3) as usize);
                    let s = &mut self.seats[q];
                    s.fields[f1].vines[v1] -= 1;
                    s.fields[f2].vines[v2] -= 1;
                    s.fields[f1].vines[v2] += 1;
                    s.fields[f2].vines[v1] += 1;
                    for f in [f1, f2] {
                        if s.fields[f].over && s.fields[f].total() <= d.fields[f] as u32 {
                            s.fields[f].over = false;
                        }
                    }
                }
            }
            Task::Uproot { seat, left, stage } => {
                let q = seat as usize;
                if stage == 0 {
                    let i = a - A_VINE;
                    self.do_uproot(q, (i / 3) as usize, (i % 3) as usize);
                    self.set_top(Task::Uproot {
                        seat,
                        left,
                        stage: 1,
                    });
                } else {
                    let k = (a - A_CARD) as usize;
                    self.hand_remove(q, k);
                    self.discard(k);
                    self.set_top(Task::Uproot {
                        seat,
                        left: left - 1,
                        stage: 0,
                    });
                }
            }
            Task::AgeWine(q) => {
                self.pop();
                let i = a - A_WINE;
                self.age_one_wine(q as usize, (i / 9) as usize, (i % 9 + 1) as u8);
            }
            Task::Piles { seat, left, used } => {
                let dk = (a - A_PILE) as usize;
                let l = self.discard_len[dk] as usize;
                if l > 0 {
                    let k = self.discards[dk][l - 1] as usize;
                    self.discard_len[dk] -= 1;
                    self.hand_add(seat as usize, k, true);
                }
                self.set_top(Task::Piles {
                    seat,
                    left: left - 1,
                    used: used | (1 << dk),
                });
                // a second pile must differ from the first; none left: done
                let any =
                    (0..4).any(|x| self.discard_len[x] > 0 && (used | (1 << dk)) & (1 << x) == 0);
                if !any {
                    self.pop();
                }
            }
            Task::Reveals { seat, left } => {
                let k = (a - A_CARD) as u8;
                if let Some(dk) = self.reveal.iter().position(|&x| x == k) {
                    self.reveal[dk] = NONE;
                    self.hand_add(seat as usize, k as usize, true);
                }
                self.set_top(Task::Reveals {
                    seat,
                    left: left - 1,
                });
            }
            Task::Plan(q) => {
                self.pop();
                let q = q as usize;
                let i = a - A_PLACE;
                let (act, j) = ((i / 5) as usize, i % 5);
                let kind = matches!(j, 1 | 3 | 4) as u8;
                let space = match j {
                    0 | 1 => 0,
                    2 | 3 => 1,
                    _ => 2,
                };
                self.board_add(act, q, space, kind, true);
                self.put_worker(q, kind);
                let l = self.planned_len as usize;
                if l < 12 {
                    self.planned[l] = [q as u8, act as u8, space, kind];
                    self.planned_len += 1;
                }
            }
            Task::Retrieve { seat, left, taken } => {
                if a == A_DONE {
                    self.pop();
                    return;
                }
                let i = a - A_RETRIEVE;
                self.retrieve(seat as usize, (i / 2) as usize, (i % 2) as u8);
                self.set_top(Task::Retrieve {
                    seat,
                    left: left - 1,
                    taken: taken + 1,
                });
            }
            Task::Take(q) => {
                self.pop();
                self.exec_action(q as usize, (a - A_TAKE) as usize, false, false);
            }
            Task::Ask { kind, asker, seat } => {
                self.pop();
                let q = seat as usize;
                let p = asker as usize;
                if a == A_DECLINE {
                    if kind == AskKind::Swindler {
                        self.gain_vp(p, 1);
                    }
                    return;
                }
                match kind {
                    AskKind::Vendor => self.push(Task::Draw {
                        seat,
                        deck: D_SUMMER as u8,
                        reveal: false,
                    }),
                    AskKind::Banker => {
                        self.gain_vp(q, -1);
                        self.gain_lira(q, 3);
                    }
                    AskKind::Swindler => {
                        self.seats[q].lira -= 2;
                        self.gain_lira(p, 2);
                    }
                    AskKind::Motivator => {
                        self.retrieve_grande(q);
                        if q != p {
                            self.gain_vp(p, 1);
                        }
                    }
                    AskKind::GuestSpeaker => {
                        self.seats[q].lira -= 1;
                        self.seats[q].trained += 1;
                        if q != p {
                            self.gain_vp(p, 1);
                        }
                    }
                }
            }
            Task::Wedding {
                seat,
                chosen,
                count,
            } => {
                self.pop();
                if a == A_DONE {
                    return;
                }
                let o = (a - A_SEAT) as usize;
                let q = seat as usize;
                self.seats[q].lira -= 2;
                self.gain_lira(o, 2);
                self.gain_vp(q, 1);
                self.push(Task::Wedding {
                    seat,
                    chosen: chosen | (1 << o),
                    count: count + 1,
                });
            }
            Task::Governor { seat, chosen } => {
                self.pop();
                if a == A_DONE {
                    let (opp, m) = self.order_from(seat, false);
                    for i in (0..m).rev() {
                        if chosen & (1 << opp[i]) != 0 {
                            self.push(Task::GovGive {
                                asker: seat,
                                seat: opp[i],
                            });
                        }
                    }
                    return;
                }
                let o = a - A_SEAT;
                self.push(Task::Governor {
                    seat,
                    chosen: chosen | (1 << o),
                });
            }
            Task::GovGive { asker, seat } => {
                self.pop();
                self.give(seat as usize, asker as usize, (a - A_CARD) as usize);
            }
            Task::Importer { asker, seat } => {
                if a == A_DONE {
                    self.pop();
                    return;
                }
                let k = (a - A_CARD) as usize;
                let q = seat as usize;
                if self.seats[q].hand[k] > 0 && (self.escrow_len as usize) < 3 {
                    // leaves q's hand, seen by q and the asker
                    self.seats[q].hand[k] -= 1;
                    let deck = deck_of(k);
                    for p in 0..n {
                        if p == q || p == asker as usize {
                            self.seats[p].known[q][k] = self.seats[p].known[q][k].saturating_sub(1);
                        } else {
                            for kk in kinds_of(deck) {
                                self.seats[p].known[q][kk] = 0;
                            }
                        }
                    }
                    self.escrow[self.escrow_len as usize] = [seat, k as u8];
                    self.escrow_len += 1;
                }
                if self.escrow_len >= 3 {
                    self.pop();
                }
            }
            Task::Queen { asker, seat } => {
                self.pop();
                let q = seat as usize;
                let p = asker as usize;
                match a - A_OPTION {
                    0 => self.gain_vp(q, -1),
                    1 => self.push(Task::QueenGive {
                        asker,
                        seat,
                        left: 2,
                    }),
                    _ => {
                        self.seats[q].lira -= 3;
                        self.gain_lira(p, 3);
                    }
                }
            }
            Task::QueenGive { asker, seat, left } => {
                self.pop();
                self.give(seat as usize, asker as usize, (a - A_CARD) as usize);
                if left > 1 {
                    self.push(Task::QueenGive {
                        asker,
                        seat,
                        left: left - 1,
                    });
                }
            }
            Task::GainVp { .. }
            | Task::GainLira { .. }
            | Task::Finish(_)
            | Task::Steps { .. }
            | Task::ResolvePlan(_)
            | Task::RevealsDone
            | Task::ImporterEnd(_)
            | Task::PassAfter(_) => {}
        }
    }

    // ---------------------------------------------------------------- end

    pub fn returns(&self, out: &mut [f64]) {
        let n = self.n();
        for x in out.iter_mut() {
            *x = 0.0;
        }
        if self.phase != Phase::Over {
            return;
        }
        let key = |q: usize| {
            let s = &self.seats[q];
            (s.vp as i64, s.lira as i64, s.wine_total(), s.grape_total())
        };
        let best = (0..n).map(key).max().unwrap_or((0, 0, 0, 0));
        let winners: Vec<usize> = (0..n).filter(|&q| key(q) == best).collect();
        let share = 1.0 / winners.len().max(1) as f64;
        for q in winners {
            if q < out.len() {
                out[q] = share;
            }
        }
    }

    /// The visitor in play (innermost), as a visitor index 0..75.
    pub fn in_play(&self) -> Option<usize> {
        (0..self.sp as usize)
            .rev()
            .find_map(|i| match self.stack[i] {
                Task::Finish(c) => Some(c as usize),
                _ => None,
            })
    }
}

/// The seat deciding at a decision task.
pub fn deciding_seat(t: Task) -> u8 {
    match t {
        Task::KeepMama(q)
        | Task::KeepPapa(q)
        | Task::PapaChoice(q)
        | Task::Wake(q)
        | Task::Row5(q)
        | Task::Turn(q)
        | Task::HandLimit(q) => q,
        Task::FallChoice { seat, .. }
        | Task::AcceptDraw { seat, .. }
        | Task::PlayVisitor { seat, .. }
        | Task::Sell { seat, .. }
        | Task::Plant { seat, .. }
        | Task::Harvest { seat, .. }
        | Task::Make { seat, .. }
        | Task::Build { seat, .. }
        | Task::Fill { seat, .. }
        | Task::Choose { seat, .. }
        | Task::Overseer { seat, .. }
        | Task::DiscardCards { seat, .. }
        | Task::DiscardWine { seat, .. }
        | Task::Switch { seat, .. }
        | Task::Uproot { seat, .. }
        | Task::Piles { seat, .. }
        | Task::Reveals { seat, .. }
        | Task::Retrieve { seat, .. }
        | Task::Ask { seat, .. }
        | Task::HandyBuild { seat, .. }
        | Task::Crew { seat, .. }
        | Task::MentorMake { seat, .. }
        | Task::MentorDraw { seat, .. }
        | Task::Wedding { seat, .. }
        | Task::Governor { seat, .. }
        | Task::GovGive { seat, .. }
        | Task::Importer { seat, .. }
        | Task::Queen { seat, .. }
        | Task::QueenGive { seat, .. }
        | Task::GainVp { seat, .. }
        | Task::GainLira { seat, .. }
        | Task::Steps { seat, .. }
        | Task::Draw { seat, .. } => seat,
        Task::Yoke(q)
        | Task::DiscardGrape(q)
        | Task::DiscardGrapeOrWine(q)
        | Task::PlaceGrape(q)
        | Task::AgeWine(q)
        | Task::Plan(q)
        | Task::Rooster(q)
        | Task::Take(q)
        | Task::ImporterEnd(q)
        | Task::PassAfter(q) => q,
        Task::First
        | Task::DealMama(_)
        | Task::DealPapa(_)
        | Task::Finish(_)
        | Task::ResolvePlan(_)
        | Task::RevealsDone => 0,
    }
}
