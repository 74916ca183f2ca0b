//! The state of a Flipology game and its rules of play (docs/rules/flipology.md §3-6).
//!
//! Everything is in fixed-size arrays sized for the largest game (six seats, 60 positions), so a state is
//! `Copy` and cloning it in search is a memcpy. Entries past a list's length are kept at their default value,
//! so that the derived equality compares only live data.
//!
//! Search clones states millions of times, and the registry's `AnyState` is as large as the largest game's
//! state, so the layout is kept small (about 600 bytes): one byte per field of a record, draw numbers counted
//! from the current deal's first draw, facing as a bitset, and every list sized by the true maximum the rules
//! allow (see the constants).

use super::cards::{self, kind, Kind, CLEARING, MIMIC_KINDS, MOON, NUM_CARDS};
use super::notation::{KEEP, MIMIC, NUM_ACTIONS, PASS, PLACE, REGROW};
use super::{Rules, MAX_PLAYERS, NATURE, NATURE_VARIANT};
use crate::{pick_by_count, ActionSink, BitsetSink, Finder, Player, Rng, State, CHANCE, TERMINAL};

/// Position ids used by any game: `S x n` is 42 in Nature (7 x 6) and 60 in the Great Tree (15 x 4).
pub const MAX_POSITIONS: usize = 60;
/// The most cards a hand holds (Nature's deal of nine).
pub const MAX_HAND: usize = 9;
/// A Great Tree hand, the size of a given-back hand.
pub const TREE_HAND: usize = 5;
/// Seats in a Great Tree game (2 to 4), the only variant with given-back hands.
pub const TREE_PLAYERS: usize = 4;
/// The most records the discard pile can hold. A Hunter discards at most one card a turn (its removal ends the
/// turn), and Nature also discards the two cards left over in each hand: a Nature round (the pile is emptied
/// between Nature-variant rounds) has 3n turns, so at most 3n + 2n = 30 records with six seats; a Great Tree
/// game has 2n turns in each of three rounds and no leftovers, so at most 6n = 24 with four seats.
pub const MAX_DISCARD: usize = 30;

/// `card` of an empty position.
pub const EMPTY: u8 = u8::MAX;
/// `draw` of a Clearing record (`-1` in the serialization).
pub const NO_DRAW: u16 = u16::MAX;
/// The stored (deal-relative) `draw` of a Clearing record. Deal-relative draw numbers are below 80: a Nature
/// deal is 9n <= 54 draws, a Great Tree game 5n per round plus 5 per Regrowth, at most 20n = 80.
pub const NO_LOCAL_DRAW: u8 = u8::MAX;
/// `origin` of a record never placed by an arrangement (a Clearing).
pub const NO_ORIGIN: u8 = u8::MAX;
/// `origin` of a card left over in a Nature hand and discarded: `LEFTOVER + seat`.
pub const LEFTOVER: u8 = 64;

/// A card in a row or in the discard pile (§3.1): identity, draw number, who knows it. Its facing is the
/// state's `up` bitset (a discarded card is face down). `origin` is the position where the arrangement placed
/// it (or `LEFTOVER + seat`); it is not part of the contract's serialization (it is determined by the history)
/// and lets the resampling replay the placements (§9 step 6). Four bytes, so that a row of 60 stays small.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Record {
    pub card: u8,
    pub known: u8,
    pub origin: u8,
    /// The draw number counted from the state's `deal_start` (`NO_LOCAL_DRAW` for a Clearing); read the
    /// contract's draw number with [`FlipologyState::draw_number`].
    pub draw: u8,
}

impl Record {
    pub const NONE: Record = Record {
        card: EMPTY,
        known: 0,
        origin: 0,
        draw: 0,
    };

    #[inline]
    pub fn is_present(&self) -> bool {
        self.card != EMPTY
    }

    /// The Clearing a Hunter leaves (interpretation 3); the caller turns it face up.
    pub fn clearing(all: u8) -> Record {
        Record {
            card: CLEARING,
            known: all,
            origin: NO_ORIGIN,
            draw: NO_LOCAL_DRAW,
        }
    }
}

/// A card in a hand or a given-back hand: identity and draw number counted from `deal_start` (the owner knows
/// it, nobody else).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct HandCard {
    pub card: u8,
    pub draw: u8,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Phase {
    Deal,
    Regrow,
    Redeal,
    Arrange,
    Play,
    Over,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Step {
    None,
    Flip,
    Target,
    Monkey,
    Choose,
    Mimic,
    Peek,
    SunFlip,
    Rain,
}

/// The effect being resolved (§5.1). `Wind` never pends (it has no decision) but has an observation slot.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Effect {
    None,
    Dog,
    Snake,
    Frog,
    Monkey,
    Hawk,
    Mole,
    Parrot,
    Hunter,
    Rain,
    Sun,
    Wind,
}

impl Effect {
    pub fn of(kind: Kind) -> Effect {
        match kind {
            Kind::Dog => Effect::Dog,
            Kind::Snake => Effect::Snake,
            Kind::Frog => Effect::Frog,
            Kind::Monkey => Effect::Monkey,
            Kind::Hawk => Effect::Hawk,
            Kind::Mole => Effect::Mole,
            Kind::Parrot => Effect::Parrot,
            Kind::Hunter => Effect::Hunter,
            Kind::Rain => Effect::Rain,
            Kind::Sun => Effect::Sun,
            Kind::Wind => Effect::Wind,
            _ => Effect::None,
        }
    }
}

/// The bits of the dealable card ids.
const CARD_IDS: u64 = (1 << NUM_CARDS) - 1;

/// The bit of a position id (none beyond 63, which no game reaches).
#[inline]
fn bit(pos: usize) -> u64 {
    1u64.checked_shl(pos as u32).unwrap_or(0)
}

/// The bits of a range of position ids.
#[inline]
fn range_mask(r: std::ops::Range<usize>) -> u64 {
    let below = |p: usize| if p >= 64 { u64::MAX } else { (1u64 << p) - 1 };
    below(r.end) & !below(r.start)
}

/// A legal list under construction, on the stack: pushing into the caller's `Vec` directly would reload and
/// store its length for every action; this keeps it in a register and hands the `Vec` one copy. Action ids
/// are below 100, so a byte each.
struct ActionBuf {
    items: [u8; NUM_ACTIONS as usize],
    len: usize,
}

impl ActionBuf {
    fn new() -> Self {
        ActionBuf {
            items: [0; NUM_ACTIONS as usize],
            len: 0,
        }
    }

    fn as_slice(&self) -> &[u8] {
        &self.items[..self.len]
    }
}

impl ActionSink for ActionBuf {
    #[inline]
    fn push(&mut self, action: u32) {
        // Distinct ids below NUM_ACTIONS always fit; anything more is dropped rather than panicking.
        debug_assert!(action < NUM_ACTIONS);
        if let Some(slot) = self.items.get_mut(self.len) {
            *slot = action as u8;
            self.len += 1;
        }
    }
}

/// A legal list as a bitset of action ids (all below 128), built in registers: `VectorCore` keeps the legal
/// actions so, and setting a bit in its row in memory per action would chain every store to the next load.
struct BitSink([u64; 2]);

impl ActionSink for BitSink {
    #[inline]
    fn push(&mut self, action: u32) {
        debug_assert!(action < NUM_ACTIONS);
        if let Some(word) = self.0.get_mut(action as usize / 64) {
            *word |= 1 << (action % 64);
        }
    }

    #[inline]
    fn push_bits(&mut self, base: u32, bits: u64) {
        BitsetSink(&mut self.0).push_bits(base, bits);
    }
}

/// One bit per byte of `word` (bit i for byte i, little-endian): set if the byte is not zero. The classic
/// SWAR test puts each answer in the byte's top bit (adding 0x7f to the low seven bits carries into it
/// unless they are all zero), and the multiplication gathers the eight top bits into the high byte.
#[inline]
fn nonzero_bytes(word: u64) -> u8 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let top = (((word & LOW7) + LOW7) | word) & !LOW7;
    ((top >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
}

/// The sum of the eight bytes of `word`, exact whatever they hold: pairs summed into 16-bit lanes, then the
/// lanes gathered by one multiplication. LLVM sums a byte array one byte at a time.
#[inline]
fn byte_sum(word: u64) -> u64 {
    const EVEN: u64 = 0x00ff_00ff_00ff_00ff;
    let pairs = (word & EVEN) + (word >> 8 & EVEN);
    pairs.wrapping_mul(0x0001_0001_0001_0001) >> 48
}

/// `x mod m` for `x < 2m`, without a division.
#[inline]
fn wrap(x: usize, m: usize) -> usize {
    if x >= m {
        x - m
    } else {
        x
    }
}

/// Up to four positions, sorted ascending and distinct: an adjacency or two-away list (§3.2).
#[derive(Clone, Copy, Debug, Default)]
pub struct PosList {
    items: [u8; 4],
    len: u8,
}

impl PosList {
    fn insert(&mut self, pos: usize) {
        let p = pos as u8;
        let len = self.len as usize;
        if self.items[..len].contains(&p) || len == 4 {
            return;
        }
        let mut i = len;
        while i > 0 && self.items[i - 1] > p {
            self.items[i] = self.items[i - 1];
            i -= 1;
        }
        self.items[i] = p;
        self.len += 1;
    }
    pub fn as_slice(&self) -> &[u8] {
        &self.items[..self.len as usize]
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct FlipologyState {
    pub rules: Rules,
    pub phase: Phase,
    pub step: Step,
    pub effect: Effect,
    pub round: u8,
    pub start: u8,
    pub current: u8,
    pub turn: u8,
    /// The position whose effect is being resolved, or -1.
    pub source: i8,
    /// The seat whose row the Rain flips in next, or -1.
    pub rain: i8,
    pub marks: [u8; 3],
    pub marks_len: u8,
    /// Positions whose card applied its effect this turn (interpretation 8), as a bitset over position ids.
    pub used: u64,
    /// Positions whose card is face up, as a bitset over position ids (only present positions).
    pub up: u64,
    /// Bitset of winning seats, once the game is over.
    pub winners: u8,
    /// Chance draws made so far in the whole game: the next record's draw number.
    pub draws: u16,
    /// The draw number of the current deal's first card (a Nature-variant round deals afresh; otherwise 0):
    /// records store their draw numbers relative to it, in one byte.
    pub deal_start: u16,
    pub pile: [u8; NUM_CARDS],
    pub rows: [Record; MAX_POSITIONS],
    pub hands: [[HandCard; MAX_HAND]; MAX_PLAYERS],
    pub hand_len: [u8; MAX_PLAYERS],
    /// Given-back hands exist only in the Great Tree, for at most four seats.
    pub returned: [[HandCard; TREE_HAND]; TREE_PLAYERS],
    pub returned_len: [u8; TREE_PLAYERS],
    /// The round in which the seat used Regrowth, or -1.
    pub regrown: [i8; MAX_PLAYERS],
    /// Banked points: at most 100 rounds of seven cards worth at most 9 each, well within an `i16`.
    pub total: [i16; MAX_PLAYERS],
    pub discard: [Record; MAX_DISCARD],
    pub discard_len: u8,
    /// Set only on scratch states by `information_state_string`: stop a Nature-variant round after its final
    /// reveal instead of emptying the rows at once, so that the reveal can be read (§8.2 "before a new round").
    pub(crate) hold_reset: bool,
    pub(crate) held: bool,
}

impl FlipologyState {
    pub fn new(rules: Rules) -> Self {
        FlipologyState {
            rules,
            phase: Phase::Deal,
            step: Step::None,
            effect: Effect::None,
            round: 0,
            start: 0,
            current: 0,
            turn: 0,
            source: -1,
            rain: -1,
            marks: [0; 3],
            marks_len: 0,
            used: 0,
            up: 0,
            winners: 0,
            draws: 0,
            deal_start: 0,
            pile: rules.deck(),
            rows: [Record::NONE; MAX_POSITIONS],
            hands: [[HandCard::default(); MAX_HAND]; MAX_PLAYERS],
            hand_len: [0; MAX_PLAYERS],
            returned: [[HandCard::default(); TREE_HAND]; TREE_PLAYERS],
            returned_len: [0; TREE_PLAYERS],
            regrown: [-1; MAX_PLAYERS],
            total: [0; MAX_PLAYERS],
            discard: [Record::NONE; MAX_DISCARD],
            discard_len: 0,
            hold_reset: false,
            held: false,
        }
    }

    // ----- geometry (§3.2) ---------------------------------------------------------------------------------

    #[inline]
    pub fn n(&self) -> usize {
        self.rules.n()
    }

    #[inline]
    pub fn positions(&self) -> usize {
        self.rules.positions()
    }

    #[inline]
    pub fn present(&self, pos: usize) -> bool {
        pos < self.positions() && self.rows[pos].is_present()
    }

    /// Whether the card at `pos` is face up (false for an empty position).
    #[inline]
    pub fn is_up(&self, pos: usize) -> bool {
        pos < 64 && self.up & (1 << pos) != 0
    }

    #[inline]
    fn set_up(&mut self, pos: usize, up: bool) {
        if up {
            self.up |= 1 << pos;
        } else {
            self.up &= !(1 << pos);
        }
    }

    /// The bitset of present positions (`card != EMPTY`).
    pub(super) fn present_mask(&self) -> u64 {
        let mut mask = 0u64;
        for (pos, r) in self.rows[..self.positions()].iter().enumerate() {
            mask |= (r.is_present() as u64) << pos;
        }
        mask
    }

    /// The contract's draw number of a stored (deal-relative) one; `NO_DRAW` for a Clearing.
    #[inline]
    pub fn draw_number(&self, local: u8) -> u16 {
        if local == NO_LOCAL_DRAW {
            NO_DRAW
        } else {
            self.deal_start + local as u16
        }
    }

    /// The stored form of a draw number of the current deal (the inverse of `draw_number`).
    #[inline]
    pub fn local_draw(&self, draw: u16) -> u8 {
        if draw == NO_DRAW {
            NO_LOCAL_DRAW
        } else {
            draw.wrapping_sub(self.deal_start) as u8
        }
    }

    /// The seat after `seat` clockwise. Seats wrap with a comparison rather than `%`: an integer division is the
    /// slowest instruction on the step path, and the seat count is not a constant.
    #[inline]
    fn next_seat(&self, seat: usize) -> usize {
        wrap(seat + 1, self.n())
    }

    /// The positions of the row `pos` is in: a seat's row in Nature, a seat's tier in the Great Tree. Both are
    /// runs of `row_len` consecutive ids (a Great Tree seat's 15 slots are its three tiers of five in order).
    #[inline]
    pub fn row_range(&self, pos: usize) -> std::ops::Range<usize> {
        // Division by a constant (five or seven) compiles to a multiplication.
        let first = if self.rules.great_tree() {
            pos / 5 * 5
        } else {
            pos / 7 * 7
        };
        first..first + self.rules.row_len()
    }

    /// The Great Tree id of `(seat, tier, column)`.
    #[inline]
    fn tree_pos(seat: usize, tier: usize, column: usize) -> usize {
        15 * seat + 5 * tier + column
    }

    /// The positions next to `pos`: its two neighbours on the circle and, in the Great Tree, the present cards
    /// above and below it.
    pub fn adjacent(&self, pos: usize) -> PosList {
        self.neighbours(pos, 1)
    }

    /// The positions two spaces from `pos` in a straight line (interpretation 14).
    pub fn two_away(&self, pos: usize) -> PosList {
        self.neighbours(pos, 2)
    }

    fn neighbours(&self, pos: usize, d: usize) -> PosList {
        let mut out = PosList::default();
        let n = self.n();
        if !self.rules.great_tree() {
            let m = 7 * n;
            out.insert(wrap(pos + m - d, m));
            out.insert(wrap(pos + d, m));
        } else {
            // Divisions by the constants 15 and 5 compile to multiplications.
            let (seat, slot) = (pos / 15, pos % 15);
            let (tier, column) = (slot / 5, slot % 5);
            let m = 5 * n;
            let h = 5 * seat + column;
            for hh in [wrap(h + m - d, m), wrap(h + d, m)] {
                out.insert(Self::tree_pos(hh / 5, tier, hh % 5));
            }
            if tier >= d {
                let below = Self::tree_pos(seat, tier - d, column);
                if self.present(below) {
                    out.insert(below);
                }
            }
            if tier + d <= 2 {
                let above = Self::tree_pos(seat, tier + d, column);
                if self.present(above) {
                    out.insert(above);
                }
            }
        }
        out
    }

    /// The positions the active seat may flip at the start of its turn: its row (Great Tree: its current tier).
    fn own_row(&self) -> std::ops::Range<usize> {
        let s = self.rules.slots() * self.current as usize;
        if self.rules.great_tree() {
            let first = s + 5 * self.round as usize;
            first..first + 5
        } else {
            s..s + 7
        }
    }

    /// The Hawk's targets (interpretation 13): present cards outside the row it acts from and, in Nature,
    /// outside the active seat's row too ("a card in an opponent's row"; only the Great Tree lets "you ...
    /// play the hawk on yourself"). Empty for a Hawk in an opponent's row in a two-seat Nature game.
    fn hawk_targets(&self, src: usize) -> u64 {
        let mut out = self.present_mask() & !range_mask(self.row_range(src));
        if !self.rules.great_tree() {
            out &= !range_mask(self.own_row());
        }
        out
    }

    fn marks_mask(&self) -> u64 {
        self.marks[..self.marks_len as usize]
            .iter()
            .fold(0, |m, &p| m | bit(p as usize))
    }

    /// The Sun's peeks (interpretation 13): present, face-down cards not yet peeked at this turn.
    fn peekable(&self) -> u64 {
        self.present_mask() & !self.up & !self.marks_mask()
    }

    fn clear_marks(&mut self) {
        self.marks = [0; 3];
        self.marks_len = 0;
    }

    /// Bitset over mimic indices of the kinds a Parrot may mimic now: face-up cards anywhere (interp. 12).
    fn mimic_mask(&self) -> u8 {
        let mut mask = 0u8;
        let mut up = self.up;
        while up != 0 {
            let pos = up.trailing_zeros() as usize;
            up &= up - 1;
            if let Some(k) = kind(self.rows[pos].card).mimic_index() {
                mask |= 1 << k;
            }
        }
        mask
    }

    fn any_face_down(&self) -> bool {
        self.present_mask() & !self.up != 0
    }

    // ----- scores (§6) ---------------------------------------------------------------------------------------

    /// The seat's positions with their facing.
    fn seat_rows(&self, seat: usize) -> impl Iterator<Item = (&Record, bool)> + '_ {
        let s = self.rules.slots();
        (s * seat..s * seat + s).map(move |pos| (&self.rows[pos], self.is_up(pos)))
    }

    /// The value of the seat's row now, hidden cards included.
    pub fn row_score(&self, seat: usize) -> i32 {
        self.seat_rows(seat)
            .filter(|(r, _)| r.is_present())
            .map(|(r, up)| cards::score(r.card, up))
            .sum()
    }

    /// The same over face-up cards only: what the table can see.
    pub fn showing(&self, seat: usize) -> i32 {
        // From the facing bitset: the observation asks for every seat's on every step, and most cards are down.
        let s = self.rules.slots();
        let mut up = self.up & range_mask(s * seat..s * seat + s);
        let mut sum = 0;
        while up != 0 {
            let r = &self.rows[up.trailing_zeros() as usize];
            up &= up - 1;
            if r.is_present() {
                sum += cards::score(r.card, true);
            }
        }
        sum
    }

    /// Distinct card ids among the seat's face-up animals (the tiebreak, interpretation 4).
    pub fn types(&self, seat: usize) -> u32 {
        let mut ids = 0u32;
        for (r, up) in self.seat_rows(seat) {
            if r.is_present() && up && kind(r.card).animal() {
                ids |= 1 << r.card;
            }
        }
        ids.count_ones()
    }

    fn moon_up(&self) -> bool {
        let mut up = self.up;
        while up != 0 {
            let pos = up.trailing_zeros() as usize;
            up &= up - 1;
            if self.rows[pos].card == MOON {
                return true;
            }
        }
        false
    }

    pub fn hand(&self, seat: usize) -> &[HandCard] {
        &self.hands[seat][..self.hand_len[seat] as usize]
    }

    /// Empty for a seat beyond the Great Tree's four.
    pub fn returned_hand(&self, seat: usize) -> &[HandCard] {
        match (self.returned.get(seat), self.returned_len.get(seat)) {
            (Some(cards), Some(&len)) => &cards[..len as usize],
            _ => &[],
        }
    }

    pub fn discards(&self) -> &[Record] {
        &self.discard[..self.discard_len as usize]
    }

    /// The pile's counts as four words of eight, zero-padded past the last card.
    fn pile_words(&self) -> [u64; 4] {
        let mut bytes = [0u8; 32];
        bytes[..NUM_CARDS].copy_from_slice(&self.pile);
        std::array::from_fn(|w| u64::from_le_bytes(std::array::from_fn(|j| bytes[8 * w + j])))
    }

    pub fn pile_size(&self) -> u32 {
        self.pile_words()
            .into_iter()
            .map(|w| byte_sum(w) as u32)
            .sum()
    }

    // ----- legal actions ---------------------------------------------------------------------------------

    fn legal_decisions(&self, out: &mut impl ActionSink) {
        match self.phase {
            Phase::Regrow => {
                out.push(KEEP);
                out.push(REGROW);
            }
            Phase::Arrange => {
                let mut seen = 0u32;
                for hc in self.hand(self.current as usize) {
                    seen |= 1 << hc.card;
                }
                out.push_bits(PLACE, seen as u64 & CARD_IDS);
            }
            Phase::Play => self.legal_play(out),
            _ => {}
        }
    }

    fn legal_play(&self, out: &mut impl ActionSink) {
        let src = self.source.max(0) as usize;
        match self.step {
            Step::Flip => {
                for pos in self.own_row() {
                    if self.present(pos) {
                        out.push(pos as u32);
                    }
                }
            }
            Step::Target => match self.effect {
                Effect::Dog => self
                    .adjacent(src)
                    .as_slice()
                    .iter()
                    .for_each(|&p| out.push(p as u32)),
                Effect::Frog => self
                    .two_away(src)
                    .as_slice()
                    .iter()
                    .for_each(|&p| out.push(p as u32)),
                Effect::Snake => {
                    let row = range_mask(self.row_range(src));
                    out.push_bits(0, self.present_mask() & row & !bit(src));
                }
                Effect::Hawk => out.push_bits(0, self.hawk_targets(src)),
                Effect::Mole => out.push_bits(0, self.present_mask() & !bit(src)),
                Effect::Hunter => out.push_bits(0, self.present_mask()),
                _ => {}
            },
            Step::Monkey => {
                let adj = self.adjacent(src);
                let adj = adj.as_slice();
                if self.marks_len == 0 {
                    for &p in &adj[..adj.len().saturating_sub(1)] {
                        out.push(p as u32);
                    }
                } else {
                    let a = self.marks[0];
                    for &p in adj.iter().filter(|&&p| p > a) {
                        out.push(p as u32);
                    }
                }
            }
            Step::Choose => {
                for &p in &self.marks[..self.marks_len as usize] {
                    out.push(p as u32);
                }
            }
            Step::Mimic => {
                let mask = self.mimic_mask();
                for k in 0..MIMIC_KINDS.len() as u32 {
                    if mask & (1 << k) != 0 {
                        out.push(MIMIC + k);
                    }
                }
            }
            Step::Peek => out.push_bits(0, self.peekable()),
            Step::SunFlip => {
                let mut m = self.marks;
                let m = &mut m[..self.marks_len as usize];
                m.sort_unstable();
                for &p in m.iter() {
                    out.push(p as u32);
                }
                out.push(PASS);
            }
            Step::Rain => {
                let s = self.rules.slots() * self.rain.max(0) as usize;
                out.push_bits(
                    0,
                    self.present_mask() & range_mask(s..s + self.rules.slots()),
                );
            }
            Step::None => {}
        }
    }

    // ----- setup (§4.2) ----------------------------------------------------------------------------------

    fn apply_chance(&mut self, card: usize) {
        let seat = self.current as usize;
        let len = self.hand_len[seat] as usize;
        if card >= NUM_CARDS || self.pile[card] == 0 || len >= MAX_HAND {
            return;
        }
        self.pile[card] -= 1;
        self.hands[seat][len] = HandCard {
            card: card as u8,
            draw: self.local_draw(self.draws),
        };
        self.hand_len[seat] += 1;
        self.draws = self.draws.saturating_add(1);
        match self.phase {
            Phase::Deal => self.next_deal(),
            Phase::Redeal => self.next_redeal(),
            _ => {}
        }
    }

    /// In order from the start seat.
    fn order(&self) -> impl Iterator<Item = usize> {
        let (n, start) = (self.n(), self.start as usize);
        (0..n).map(move |k| wrap(start + k, n))
    }

    fn next_deal(&mut self) {
        let hand = self.rules.hand();
        if let Some(s) = self.order().find(|&s| (self.hand_len[s] as usize) < hand) {
            self.current = s as u8;
            return;
        }
        if self.rules.great_tree() {
            if let Some(s) = self.order().find(|&s| self.regrown[s] < 0) {
                self.phase = Phase::Regrow;
                self.current = s as u8;
                return;
            }
        }
        self.phase = Phase::Arrange;
        self.current = self.start;
    }

    fn next_redeal(&mut self) {
        let round = self.round as i8;
        if let Some(s) = self
            .order()
            .find(|&s| self.regrown[s] == round && (self.hand_len[s] as usize) < TREE_HAND)
        {
            self.current = s as u8;
            return;
        }
        self.phase = Phase::Arrange;
        self.current = self.start;
    }

    fn apply_regrow(&mut self, regrow: bool) {
        let (n, cur, start) = (self.n(), self.current as usize, self.start as usize);
        let round = self.round as i8;
        if regrow {
            self.regrown[cur] = round;
        }
        // The next undecided seat after this one in the order from the start seat (no wrapping).
        let k = wrap(cur + n - start, n);
        if let Some(s) = (k + 1..n)
            .map(|j| wrap(start + j, n))
            .find(|&s| self.regrown[s] < 0)
        {
            self.current = s as u8;
            return;
        }
        // Every decision is made: all given-back hands go into the pile together (interpretation 30).
        let mut first = None;
        for j in 0..n {
            let s = wrap(start + j, n);
            if self.regrown[s] != round {
                continue;
            }
            let len = self.hand_len[s] as usize;
            for i in 0..len {
                let hc = self.hands[s][i];
                if let Some(c) = self.pile.get_mut(hc.card as usize) {
                    *c += 1;
                }
                if i < TREE_HAND {
                    self.returned[s][i] = hc;
                }
                self.hands[s][i] = HandCard::default();
            }
            self.returned_len[s] = len.min(TREE_HAND) as u8;
            self.hand_len[s] = 0;
            first.get_or_insert(s);
        }
        match first {
            Some(s) => {
                self.phase = Phase::Redeal;
                self.current = s as u8;
            }
            None => {
                self.phase = Phase::Arrange;
                self.current = self.start;
            }
        }
    }

    fn place(&mut self, card: u8) {
        let seat = self.current as usize;
        let len = self.hand_len[seat] as usize;
        // Hands are sorted by draw number, so the first match is the copy with the lowest draw number. Both
        // searches collect a bitset and take its lowest bit: where they stop is as good as random, and a loop
        // exit there is mispredicted on most placements.
        let mut matches = 0u32;
        for (j, h) in self.hands[seat][..len].iter().enumerate() {
            matches |= ((h.card == card) as u32) << j;
        }
        if matches == 0 {
            return;
        }
        let i = matches.trailing_zeros() as usize;
        let base = self.rules.slots() * seat
            + if self.rules.great_tree() {
                5 * self.round as usize
            } else {
                0
            };
        let row_len = self.rules.row_len();
        let mut empty = 0u32;
        for (c, r) in self.rows.iter().skip(base).take(row_len).enumerate() {
            empty |= (!r.is_present() as u32) << c;
        }
        if empty == 0 {
            return;
        }
        let column = empty.trailing_zeros() as usize;
        let hc = self.hands[seat][i];
        self.hands[seat].copy_within(i + 1..len, i);
        self.hands[seat][len - 1] = HandCard::default();
        self.hand_len[seat] -= 1;
        let pos = base + column;
        self.rows[pos] = Record {
            card: hc.card,
            known: 1 << seat,
            origin: pos as u8,
            draw: hc.draw,
        };
        self.set_up(pos, false);
        if column + 1 < row_len {
            return;
        }
        // The row is full: in Nature the two cards left over are discarded face down, in draw order.
        for i in 0..self.hand_len[seat] as usize {
            let hc = self.hands[seat][i];
            self.push_discard(Record {
                card: hc.card,
                known: 1 << seat,
                origin: LEFTOVER + seat as u8,
                draw: hc.draw,
            });
            self.hands[seat][i] = HandCard::default();
        }
        self.hand_len[seat] = 0;
        self.current = self.next_seat(seat) as u8;
        if self.current == self.start {
            self.phase = Phase::Play;
            self.step = Step::Flip;
        }
    }

    fn push_discard(&mut self, record: Record) {
        debug_assert!(
            (self.discard_len as usize) < MAX_DISCARD,
            "MAX_DISCARD is a true bound"
        );
        if let Some(slot) = self.discard.get_mut(self.discard_len as usize) {
            *slot = record;
            self.discard_len += 1;
        }
    }

    // ----- turns and effects (§4.4, §5) --------------------------------------------------------------------

    /// Turn the card at `pos` over; true if it turned face up. A face-up Cat flipped by an effect stays up.
    fn flip(&mut self, pos: usize, by_effect: bool) -> bool {
        let all = self.rules.all();
        let up = self.is_up(pos);
        let Some(r) = self.rows.get_mut(pos) else {
            return false;
        };
        if !r.is_present() {
            return false;
        }
        if !up {
            r.known = all;
            self.set_up(pos, true);
            true
        } else {
            if !(by_effect && kind(r.card) == Kind::Cat) {
                self.set_up(pos, false);
            }
            false
        }
    }

    /// The Monkey "flips two cards faceup": a face-down card turns face up, a face-up one stays as it is.
    /// True if it turned face up.
    fn monkey_flip(&mut self, pos: usize) -> bool {
        !self.is_up(pos) && self.flip(pos, true)
    }

    /// §5.3: just turned face up, an active kind, not yet used this turn.
    fn triggers(&self, pos: usize, turned_up: bool) -> bool {
        turned_up && kind(self.rows[pos].card).active() && self.used & (1 << pos) == 0
    }

    fn trigger(&mut self, pos: usize) {
        self.used |= 1 << pos;
        self.start_effect(kind(self.rows[pos].card), pos);
    }

    fn target(&mut self, effect: Effect, pos: usize) {
        self.step = Step::Target;
        self.effect = effect;
        self.source = pos as i8;
        self.clear_marks();
    }

    /// The table of §5.3: start the effect of `kind` acting from position `q`.
    fn start_effect(&mut self, kind: Kind, q: usize) {
        match kind {
            // A Hawk with no card to flip does nothing (interpretation 7).
            Kind::Hawk if self.hawk_targets(q) == 0 => self.end_turn(),
            Kind::Dog | Kind::Snake | Kind::Frog | Kind::Hawk | Kind::Mole | Kind::Hunter => {
                self.target(Effect::of(kind), q)
            }
            Kind::Monkey => {
                let adj = self.adjacent(q);
                if let [a, b] = *adj.as_slice() {
                    // The Monkey is the pending effect while it resolves, so a `choose` shows it as the source
                    // (the contract's "(effect Monkey, source unchanged)" read as the Monkey's own).
                    self.effect = Effect::Monkey;
                    self.source = q as i8;
                    let (a, b) = (a as usize, b as usize);
                    let up_a = self.monkey_flip(a);
                    let up_b = self.monkey_flip(b);
                    self.resolve_monkey(a, up_a, b, up_b);
                } else {
                    self.step = Step::Monkey;
                    self.effect = Effect::Monkey;
                    self.source = q as i8;
                    self.clear_marks();
                }
            }
            Kind::Parrot => {
                if self.mimic_mask() == 0 {
                    self.end_turn();
                } else {
                    // The table of §5.3 does not say; a Great Tree Monkey's first pick must not linger in
                    // `marks` once its cascade has moved on (the oracle clears it too).
                    self.step = Step::Mimic;
                    self.effect = Effect::Parrot;
                    self.source = q as i8;
                    self.clear_marks();
                }
            }
            Kind::Sun => {
                if self.any_face_down() {
                    self.step = Step::Peek;
                    self.effect = Effect::Sun;
                    self.source = q as i8;
                    self.clear_marks();
                } else {
                    self.end_turn();
                }
            }
            Kind::Wind => {
                for pos in self.row_range(q) {
                    if pos != q && self.present(pos) {
                        self.flip(pos, true);
                    }
                }
                self.end_turn();
            }
            Kind::Rain => {
                self.step = Step::Rain;
                self.effect = Effect::Rain;
                self.source = q as i8;
                self.rain = self.current as i8;
            }
            _ => self.end_turn(),
        }
    }

    /// After a Monkey flipped a < b: the cards it turned face up that trigger; the active seat chooses between
    /// two (interpretation 11).
    fn resolve_monkey(&mut self, a: usize, up_a: bool, b: usize, up_b: bool) {
        match (self.triggers(a, up_a), self.triggers(b, up_b)) {
            (true, true) => {
                self.step = Step::Choose;
                self.effect = Effect::Monkey;
                self.marks = [a as u8, b as u8, 0];
                self.marks_len = 2;
            }
            (true, false) => self.trigger(a),
            (false, true) => self.trigger(b),
            (false, false) => self.end_turn(),
        }
    }

    /// After a flip by a Dog, Snake, Frog or Hawk.
    fn continue_after(&mut self, pos: usize, turned_up: bool) {
        if self.triggers(pos, turned_up) {
            self.trigger(pos);
        } else {
            self.end_turn();
        }
    }

    fn apply_play(&mut self, action: u32) {
        let a = action as usize;
        match self.step {
            Step::Flip => {
                if a < self.positions() {
                    let up = self.flip(a, false);
                    self.continue_after(a, up);
                }
            }
            Step::Target => {
                if a >= self.positions() {
                    return;
                }
                match self.effect {
                    Effect::Dog | Effect::Snake | Effect::Frog | Effect::Hawk => {
                        let up = self.flip(a, true);
                        self.continue_after(a, up);
                    }
                    Effect::Mole => self.swap(self.source.max(0) as usize, a),
                    Effect::Hunter => self.remove(a),
                    _ => {}
                }
            }
            Step::Monkey => {
                if a >= self.positions() {
                    return;
                }
                if self.marks_len == 0 {
                    self.marks[0] = a as u8;
                    self.marks_len = 1;
                } else {
                    let first = self.marks[0] as usize;
                    let up_a = self.monkey_flip(first);
                    let up_b = self.monkey_flip(a);
                    self.resolve_monkey(first, up_a, a, up_b);
                }
            }
            Step::Choose => {
                if a < self.positions() {
                    self.clear_marks();
                    self.trigger(a);
                }
            }
            Step::Mimic => {
                if let Some(&(kind, _)) = MIMIC_KINDS.get(a.wrapping_sub(MIMIC as usize)) {
                    self.effect = Effect::of(kind);
                    self.clear_marks();
                    self.start_effect(kind, self.source.max(0) as usize);
                }
            }
            Step::Peek => {
                if a >= self.positions() {
                    return;
                }
                if (self.marks_len as usize) < self.marks.len() {
                    self.marks[self.marks_len as usize] = a as u8;
                    self.marks_len += 1;
                }
                self.rows[a].known |= 1 << self.current;
                let more = self.peekable() != 0;
                if self.marks_len == 3 || !more {
                    self.step = Step::SunFlip;
                }
            }
            Step::SunFlip => {
                if action != PASS {
                    self.flip(a, true);
                }
                self.end_turn();
            }
            Step::Rain => {
                self.flip(a, true);
                self.rain = self.next_seat(self.rain.max(0) as usize) as i8;
                if self.rain == self.current as i8 {
                    self.end_turn();
                }
            }
            Step::None => {}
        }
    }

    /// The Mole: exchange the records, each keeping its facing and knowledge; a seat may peek at a face-down
    /// card arriving in its row.
    fn swap(&mut self, a: usize, b: usize) {
        if a >= self.positions() || b >= self.positions() {
            return;
        }
        self.rows.swap(a, b);
        let (up_a, up_b) = (self.is_up(a), self.is_up(b));
        self.set_up(a, up_b);
        self.set_up(b, up_a);
        let slots = self.rules.slots();
        for pos in [a, b] {
            let up = self.is_up(pos);
            let r = &mut self.rows[pos];
            if r.is_present() && !up {
                r.known |= 1 << (pos / slots);
            }
        }
        self.end_turn();
    }

    /// The Hunter: the card goes to the discard pile (a Clearing just leaves) and a Clearing takes its place.
    fn remove(&mut self, pos: usize) {
        let r = self.rows[pos];
        if r.card != CLEARING {
            self.push_discard(r);
        }
        self.rows[pos] = Record::clearing(self.rules.all());
        self.set_up(pos, true);
        self.end_turn();
    }

    fn end_turn(&mut self) {
        self.used = 0;
        self.step = Step::Flip;
        self.effect = Effect::None;
        self.source = -1;
        self.clear_marks();
        self.rain = -1;
        self.turn += 1;
        if self.turn as u32 >= self.rules.turns() * self.n() as u32 {
            self.end_round();
        } else {
            self.current = self.next_seat(self.current as usize) as u8;
        }
    }

    fn end_round(&mut self) {
        let scored = !self.rules.great_tree() || self.round >= 2;
        if scored {
            let (all, npos) = (self.rules.all(), self.positions());
            for r in self.rows[..npos].iter_mut() {
                if r.is_present() {
                    r.known = all;
                }
            }
            for s in 0..self.n() {
                self.total[s] += self.row_score(s) as i16;
            }
        }
        match self.rules.variant {
            NATURE => self.game_over(),
            NATURE_VARIANT => {
                let reached = self.total[..self.n()]
                    .iter()
                    .any(|&t| t as i32 >= self.rules.target as i32);
                if reached || self.round as u32 + 1 >= self.rules.max_rounds as u32 {
                    self.game_over();
                } else if self.hold_reset {
                    self.held = true;
                } else {
                    self.next_variant_round();
                }
            }
            _ => {
                if self.round >= 2 {
                    self.game_over();
                } else {
                    self.next_tree_round();
                }
            }
        }
    }

    /// A new Nature-variant round: a fresh deal of the whole deck, the start seat one seat clockwise (interp. 27).
    pub(crate) fn next_variant_round(&mut self) {
        let n = self.n();
        self.round += 1;
        self.start = wrap(self.start as usize + 1, n) as u8;
        self.deal_start = self.draws;
        self.pile = self.rules.deck();
        self.hands = [[HandCard::default(); MAX_HAND]; MAX_PLAYERS];
        self.hand_len = [0; MAX_PLAYERS];
        self.rows = [Record::NONE; MAX_POSITIONS];
        self.up = 0;
        self.discard = [Record::NONE; MAX_DISCARD];
        self.discard_len = 0;
        self.used = 0;
        self.begin_round();
    }

    /// The next Great Tree round: the start seat goes to the highest showing score, staying on a tie
    /// (interpretation 29); dealt from what is left of the pile.
    fn next_tree_round(&mut self) {
        let n = self.n();
        let start = self.start as usize;
        let mut showing = [0i32; MAX_PLAYERS];
        for (s, x) in showing.iter_mut().enumerate().take(n) {
            *x = self.showing(s);
        }
        let best = showing[..n].iter().copied().max().unwrap_or(0);
        if showing[start] != best {
            if let Some(s) = (1..n)
                .map(|k| wrap(start + k, n))
                .find(|&s| showing[s] == best)
            {
                self.start = s as u8;
            }
        }
        self.round += 1;
        self.begin_round();
    }

    fn begin_round(&mut self) {
        self.phase = Phase::Deal;
        self.current = self.start;
        self.turn = 0;
        self.step = Step::None;
    }

    fn game_over(&mut self) {
        self.phase = Phase::Over;
        self.step = Step::None;
        self.effect = Effect::None;
        self.source = -1;
        self.rain = -1;
        self.used = 0;
        self.clear_marks();
        let n = self.n();
        let totals = &self.total[..n];
        // A face-up Moon anywhere: the lowest score wins (interpretation 24).
        let best = if self.moon_up() {
            totals.iter().copied().min()
        } else {
            totals.iter().copied().max()
        }
        .unwrap_or(0);
        // The tied seats as a bitset; among several, the most types of animals win.
        let candidates = (0..n)
            .filter(|&s| totals[s] == best)
            .fold(0u8, |m, s| m | 1 << s);
        let seats = || (0..n).filter(move |&s| candidates & (1 << s) != 0);
        let most = seats().map(|s| self.types(s)).max().unwrap_or(0);
        self.winners = 0;
        for s in seats() {
            if candidates.count_ones() == 1 || self.types(s) == most {
                self.winners |= 1 << s;
            }
        }
    }

    fn apply_decision(&mut self, action: u32) {
        match self.phase {
            Phase::Regrow => self.apply_regrow(action == REGROW),
            Phase::Arrange if (PLACE..PLACE + NUM_CARDS as u32).contains(&action) => {
                self.place((action - PLACE) as u8)
            }
            Phase::Play => self.apply_play(action),
            _ => {}
        }
    }

    /// The bitset of card ids left in the pile: the chance outcomes. Read eight counts at a time: this runs on
    /// every chance step, the most frequent kind of step in a random game.
    #[inline]
    fn pile_mask(&self) -> u64 {
        let mut bytes = [0u8; 32];
        bytes[..NUM_CARDS].copy_from_slice(&self.pile);
        let mut mask = 0u64;
        for (i, chunk) in bytes.chunks_exact(8).enumerate() {
            let word = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
            mask |= (nonzero_bytes(word) as u64) << (8 * i);
        }
        mask
    }

    /// The deal and redeal are chance nodes; everything else but the end is a seat's decision.
    #[inline]
    fn is_chance(&self) -> bool {
        matches!(self.phase, Phase::Deal | Phase::Redeal)
    }

    pub fn winner_seats(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.n()).filter(move |&s| self.winners & (1 << s) != 0)
    }
}

impl State for FlipologyState {
    fn current_player(&self) -> Player {
        match self.phase {
            Phase::Over => TERMINAL,
            Phase::Deal | Phase::Redeal => CHANCE,
            _ => self.current as Player,
        }
    }

    fn legal_actions(&self, out: &mut Vec<u32>) {
        out.clear();
        let mut buf = ActionBuf::new();
        if self.is_chance() {
            buf.push_bits(0, self.pile_mask());
        } else {
            self.legal_decisions(&mut buf);
        }
        out.extend(buf.as_slice().iter().map(|&a| a as u32));
        // Every list is generated in ascending order without repeats; sort only if that ever fails.
        if !out.is_sorted_by(|a, b| a < b) {
            out.sort_unstable();
            out.dedup();
        }
    }

    fn legal_bits(&self, out: &mut [u64], _scratch: &mut Vec<u32>) {
        let mut bits = BitSink([0; 2]);
        if self.is_chance() {
            bits.0[0] = self.pile_mask();
        } else {
            self.legal_decisions(&mut bits);
        }
        out.fill(0);
        for (o, w) in out.iter_mut().zip(bits.0) {
            *o = w;
        }
    }

    fn chance_weights(&self, out: &mut Vec<(u32, u64)>) {
        out.clear();
        if self.is_chance() {
            let mut ids = ActionBuf::new();
            ids.push_bits(0, self.pile_mask());
            out.extend(
                ids.as_slice()
                    .iter()
                    .map(|&c| (c as u32, self.pile[c as usize] as u64)),
            );
        }
    }

    /// The pile's counts are the weights (card ids ascending): one draw over them, no list built.
    #[inline]
    fn sample_chance(&self, rng: &mut Rng, _scratch: &mut Vec<(u32, u64)>) -> Option<u32> {
        if !self.is_chance() {
            return None;
        }
        // `pick_by_count`'s draw, eight counts at a time: one multiplication puts in byte k of a word the
        // running total of its bytes 0..=k, and the card drawn is the number of running totals at most `r` (they
        // rise), counted without a loop over the cards or an unpredictable exit. Exact while the total is below
        // 128 (a deck has 76 cards), so that no byte overflows; the plain search past that.
        const ONES: u64 = 0x0101_0101_0101_0101;
        const HIGH: u64 = 0x8080_8080_8080_8080;
        let counts = self.pile_words();
        let total: u64 = counts.iter().map(|&w| byte_sum(w)).sum();
        if total >= 128 {
            return pick_by_count(&self.pile, rng);
        }
        if total == 0 {
            return None;
        }
        let running = counts.map(|w| w.wrapping_mul(ONES));
        let r = rng.below(total);
        let mut card = 0u32;
        let mut before = 0u64;
        for w in running {
            if let Some(t) = r.checked_sub(before) {
                // Byte k of `w | HIGH` minus `t + 1` keeps its high bit exactly when the running total is above t.
                let above = ((w | HIGH).wrapping_sub((t.min(127) + 1) * ONES) & HIGH).count_ones();
                card += 8 - above;
            }
            before += w >> 56;
        }
        Some(card)
    }

    fn is_legal(&self, action: u32) -> bool {
        if self.is_chance() {
            return (action as usize) < NUM_CARDS && self.pile[action as usize] > 0;
        }
        if self.phase == Phase::Over || action >= NUM_ACTIONS {
            return false;
        }
        let mut finder = Finder::new(action);
        self.legal_decisions(&mut finder);
        finder.found
    }

    fn apply_unchecked(&mut self, action: u32) {
        if self.is_chance() {
            self.apply_chance(action as usize);
        } else {
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
        if self.phase != Phase::Over || self.winners == 0 {
            return;
        }
        let share = 1.0 / self.winners.count_ones() as f64;
        for s in self.winner_seats() {
            if let Some(r) = out.get_mut(s) {
                *r = share;
            }
        }
    }

    /// §6: while the game runs, what the table can see (the banked totals plus the face-up cards' value,
    /// sloths negative); face-down cards never count before the end. The totals once it is over.
    fn scores(&self, out: &mut [f64]) {
        for (s, o) in out.iter_mut().enumerate().take(self.n()) {
            *o = if self.phase == Phase::Over {
                self.total[s] as f64
            } else {
                (self.total[s] as i32 + self.showing(s)) as f64
            };
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

    fn resample_from_infostate(&self, player: usize, rng: &mut Rng) -> Self {
        super::resample::resample(self, player, rng)
            .map(|r| r.state)
            .unwrap_or(*self)
    }

    fn resample_with_history(
        &self,
        player: usize,
        history: &[u32],
        rng: &mut Rng,
    ) -> (Self, Vec<u32>) {
        super::resample::resample_with_history(self, player, history, rng)
    }

    fn to_text(&self) -> String {
        super::observation::text(self, None)
    }

    /// For a game cut short: each seat's share of the win estimated from the scores as they stand (the banked
    /// totals plus what the table can see of the rows: a face-down Sloth's value is hidden, and a search on the
    /// true state must not read it), a softmax with a temperature of a few points, so that the leader
    /// gets most of the share but a close race stays open. A face-up Moon turns the order round.
    fn heuristic_value(&self, out: &mut [f64]) {
        if self.phase == Phase::Over {
            return self.returns(out);
        }
        const TEMPERATURE: f64 = 4.0;
        let n = self.n();
        let sign = if self.moon_up() { -1.0 } else { 1.0 };
        let mut scores = [0f64; MAX_PLAYERS];
        for (s, x) in scores.iter_mut().enumerate().take(n) {
            *x = sign * (self.total[s] as i32 + self.showing(s)) as f64;
        }
        crate::outcome::softmax_shares(out, &scores[..n], TEMPERATURE);
    }
}
