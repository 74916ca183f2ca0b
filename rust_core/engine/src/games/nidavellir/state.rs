//! The rules (docs/rules/nidavellir.md §4, §5): the turn's flow, the effect queue and its settling, scoring.

use super::data::*;
use super::notation::*;
use super::Rules;
use crate::outcome::share_the_win;
use crate::{ActionSink, Player, Result, Rng, State, CHANCE, TERMINAL};

/// Entries a column can hold (24 Dwarves, the Pioneer's card, heroes and the rest fit with room to spare).
pub const COL_CAP: usize = 32;
pub const QUEUE_CAP: usize = 32;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    Gems,
    Fill,
    Bid,
    UlineBid,
    Take,
    Transform,
    Hero,
    Discard,
    Thrud,
    Ylud,
    UlineTrade,
    PioneerDraw,
    PioneerKeep,
    PioneerBurn,
    Over,
}

pub const PHASES: [Phase; 15] = [
    Phase::Gems,
    Phase::Fill,
    Phase::Bid,
    Phase::UlineBid,
    Phase::Take,
    Phase::Transform,
    Phase::Hero,
    Phase::Discard,
    Phase::Thrud,
    Phase::Ylud,
    Phase::UlineTrade,
    Phase::PioneerDraw,
    Phase::PioneerKeep,
    Phase::PioneerBurn,
    Phase::Over,
];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Word {
    Recruit,
    Transform,
    Trade,
    Thrud,
    Discard,
    Ylud,
    Distinction,
    Pioneer,
    Burn,
    Age2,
    ThrudHome,
    End,
}

/// One queue item `[word, seat, arg]` (§5.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Item {
    pub word: Word,
    pub seat: i8,
    pub arg: i8,
}

impl Item {
    pub const fn new(word: Word, seat: usize, arg: i8) -> Item {
        Item {
            word,
            seat: seat as i8,
            arg,
        }
    }
    pub const fn global(word: Word, arg: i8) -> Item {
        Item {
            word,
            seat: -1,
            arg,
        }
    }
}

const EMPTY_ITEM: Item = Item::global(Word::End, 0);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Seat {
    pub gem: u8,
    /// Coins in hand, counts per code.
    pub hand: [u8; COINS],
    pub shown_hand: [u8; COINS],
    /// A code or NONE.
    pub bids: [u8; 3],
    pub shown_bids: [bool; 3],
    pub cols: [[u8; COL_CAP]; CLASSES],
    pub col_len: [u8; CLASSES],
    pub heroes: [u8; HEROES],
    /// −1 not owned, 0..4 a column, 5 in hand, 6 the Command Zone.
    pub thrud: i8,
    pub ylud: i8,
}

impl Seat {
    fn new() -> Seat {
        let mut hand = [0u8; COINS];
        for c in 0..5 {
            hand[c] = 1;
        }
        Seat {
            gem: 0,
            hand,
            shown_hand: [0; COINS],
            bids: [NONE; 3],
            shown_bids: [false; 3],
            cols: [[0; COL_CAP]; CLASSES],
            col_len: [0; CLASSES],
            heroes: [0; HEROES],
            thrud: -1,
            ylud: -1,
        }
    }

    #[inline]
    pub fn col(&self, j: usize) -> &[u8] {
        &self.cols[j][..(self.col_len[j] as usize).min(COL_CAP)]
    }

    pub fn hand_count(&self) -> usize {
        self.hand.iter().map(|&c| c as usize).sum()
    }

    /// Every coin owned (hand and bid slots), counts per code.
    pub fn owned(&self) -> [u8; COINS] {
        let mut out = self.hand;
        for &b in &self.bids {
            if (b as usize) < COINS {
                out[b as usize] += 1;
            }
        }
        out
    }

    pub fn highest_coin(&self) -> u32 {
        let owned = self.owned();
        (0..COINS)
            .filter(|&c| owned[c] > 0)
            .map(|c| coin_value(c as u8))
            .max()
            .unwrap_or(0)
    }

    pub fn coin_sum(&self) -> u32 {
        let owned = self.owned();
        (0..COINS)
            .map(|c| owned[c] as u32 * coin_value(c as u8))
            .sum()
    }

    pub fn hero_count(&self) -> u32 {
        self.heroes.iter().map(|&h| h as u32).sum()
    }

    /// The ranks of column j (Thrud's included unless `without_thrud`).
    pub fn col_ranks(&self, j: usize, without_thrud: bool) -> u32 {
        self.col(j)
            .iter()
            .map(|&e| {
                if without_thrud && e == THRUD_ENTRY {
                    0
                } else {
                    entry_ranks(e)
                }
            })
            .sum()
    }

    pub fn col_points(&self, j: usize) -> u32 {
        self.col(j).iter().map(|&e| entry_points(e, j)).sum()
    }

    pub fn lines(&self) -> u32 {
        (0..CLASSES)
            .map(|j| self.col_ranks(j, false))
            .min()
            .unwrap_or(0)
    }

    /// The column's top card is a Dwarf card: what Dagda and Bonfur may discard (interpretation 3).
    fn has_dwarf(&self, j: usize) -> bool {
        self.col(j)
            .last()
            .is_some_and(|&e| (e as usize) < DWARF_KINDS)
    }

    fn add_shown(&mut self, c: u8) {
        self.shown_hand[c as usize] = self.shown_hand[c as usize].saturating_add(1);
    }

    fn drop_shown(&mut self, c: u8) {
        self.shown_hand[c as usize] = self.shown_hand[c as usize].saturating_sub(1);
    }

    /// Remove the last occurrence of `entry` from column j.
    fn remove_entry(&mut self, j: usize, entry: u8) -> bool {
        let len = (self.col_len[j] as usize).min(COL_CAP);
        if let Some(i) = self.cols[j][..len].iter().rposition(|&e| e == entry) {
            self.cols[j].copy_within(i + 1..len, i);
            self.cols[j][len - 1] = 0;
            self.col_len[j] = (len - 1) as u8;
            true
        } else {
            false
        }
    }
}

/// The ranks of a column entry (§3).
pub fn entry_ranks(e: u8) -> u32 {
    match e {
        e if (e as usize) < DWARF_KINDS => 1,
        30..=39 => data().hero_ranks[(e - HERO_ENTRY) as usize] as u32,
        SPECIAL_BLACKSMITH => 2,
        THRUD_ENTRY | YLUD_ENTRY => 1,
        _ => 0,
    }
}

/// The points of a column entry in column j (§3).
pub fn entry_points(e: u8, j: usize) -> u32 {
    let d = data();
    match e {
        e if (e as usize) < DWARF_KINDS => d.kind_points[e as usize] as u32,
        30..=39 => d.hero_points[(e - HERO_ENTRY) as usize] as u32,
        YLUD_ENTRY => match j {
            EXPLORER => 11,
            WARRIOR => 7,
            MINER => 1,
            _ => 0,
        },
        _ => 0,
    }
}

/// Whether `e` may stand in a column (Dwarf cards, class heroes, the special Blacksmith, Thrud, Ylud).
pub fn valid_entry(e: i64) -> bool {
    (0..DWARF_KINDS as i64).contains(&e) || (30..40).contains(&e) || (40..43).contains(&e)
}

/// Distinction index (warrior hunter miner blacksmith explorer) of each class.
pub const DISTINCTION_OF_CLASS: [usize; CLASSES] = [3, 1, 4, 2, 0];
/// Class of each distinction index.
pub const CLASS_OF_DISTINCTION: [usize; CLASSES] = [WARRIOR, HUNTER, MINER, BLACKSMITH, EXPLORER];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NidavellirState {
    pub rules: Rules,
    pub phase: Phase,
    /// The acting seat at a decision node, −1 otherwise.
    pub current: i8,
    pub age: u8,
    pub turn: u8,
    pub tavern: i8,
    pub revealed: u8,
    pub decks: [[u8; KINDS]; 2],
    pub taverns: [[u8; KINDS]; TAVERNS],
    pub discard: [u8; KINDS],
    pub treasure: [u8; TREASURE_VALUES],
    pub heroes_left: [u8; HEROES],
    pub seats: [Seat; 5],
    pub order: [u8; 5],
    pub order_len: u8,
    pub order_pos: u8,
    pub reveal: [i8; 5],
    pub uline_bidder: i8,
    pub queue: [Item; QUEUE_CAP],
    pub queue_len: u8,
    pub drawn: [u8; KINDS],
    /// Per distinction index: −2 not yet awarded, −1 nobody, else the seat.
    pub distinctions: [i8; CLASSES],
    pub bid_start: i32,
    pub pioneer_at: i32,
    /// The history's length (actions applied).
    pub steps: u32,
}

impl NidavellirState {
    pub fn new(rules: Rules) -> NidavellirState {
        let d = data();
        let n = rules.n();
        let five = (n == 5) as usize;
        let mut heroes_left = d.hero_copies;
        if rules.first_game {
            heroes_left[THRUD] = 0;
            heroes_left[YLUD] = 0;
            heroes_left[ULINE] = 0;
        }
        NidavellirState {
            rules,
            phase: Phase::Gems,
            current: -1,
            age: 1,
            turn: 0,
            tavern: -1,
            revealed: 0,
            decks: d.decks[five],
            taverns: [[0; KINDS]; TAVERNS],
            discard: [0; KINDS],
            treasure: d.treasure[(n >= 4) as usize],
            heroes_left,
            seats: [Seat::new(); 5],
            order: [0; 5],
            order_len: 0,
            order_pos: 0,
            reveal: [-1; 5],
            uline_bidder: -1,
            queue: [EMPTY_ITEM; QUEUE_CAP],
            queue_len: 0,
            drawn: [0; KINDS],
            distinctions: [-2; CLASSES],
            bid_start: -1,
            pioneer_at: -1,
            steps: 0,
        }
    }

    #[inline]
    pub fn n(&self) -> usize {
        self.rules.n()
    }

    pub fn queue(&self) -> &[Item] {
        &self.queue[..(self.queue_len as usize).min(QUEUE_CAP)]
    }

    pub fn front(&self) -> Option<Item> {
        self.queue().first().copied()
    }

    fn pop(&mut self) {
        let len = self.queue().len();
        if len > 0 {
            self.queue.copy_within(1..len, 0);
            self.queue[len - 1] = EMPTY_ITEM;
            self.queue_len = (len - 1) as u8;
        }
    }

    fn push_back(&mut self, item: Item) {
        let len = self.queue().len();
        if len < QUEUE_CAP {
            self.queue[len] = item;
            self.queue_len = (len + 1) as u8;
        }
    }

    /// Put `items` at the front, in the order given.
    fn push_front(&mut self, items: &[Item]) {
        let len = self.queue().len();
        let k = items.len().min(QUEUE_CAP - len);
        if k == 0 {
            return;
        }
        self.queue.copy_within(0..len, k);
        self.queue[..k].copy_from_slice(&items[..k]);
        self.queue_len = (len + k) as u8;
    }

    pub fn uline_owner(&self) -> i8 {
        (0..self.n())
            .find(|&s| self.seats[s].heroes[ULINE] > 0)
            .map_or(-1, |s| s as i8)
    }

    /// The Pioneer of the Kingdom, if awarded to a seat.
    pub fn pioneer(&self) -> Option<usize> {
        let w = self.distinctions[4];
        (w >= 0).then_some(w as usize)
    }

    fn bidders(&self) -> impl Iterator<Item = usize> + '_ {
        let u = self.uline_bidder;
        (0..self.n()).filter(move |&s| s as i8 != u)
    }

    /// The next seat to bid and the slot, if any.
    pub fn next_bid(&self) -> Option<(usize, usize)> {
        self.bidders().find_map(|s| {
            self.seats[s]
                .bids
                .iter()
                .position(|&b| b == NONE)
                .map(|t| (s, t))
        })
    }

    fn tavern_total(&self, t: usize) -> u32 {
        self.taverns[t].iter().map(|&c| c as u32).sum()
    }

    fn deck2_total(&self) -> u32 {
        self.decks[1].iter().map(|&c| c as u32).sum()
    }

    fn drawn_total(&self) -> u32 {
        self.drawn.iter().map(|&c| c as u32).sum()
    }

    /// The tavern the next card goes to.
    fn fill_target(&self) -> Option<usize> {
        (0..TAVERNS).find(|&t| self.tavern_total(t) < self.rules.cards() as u32)
    }

    /// §5.6: the coin of value v, else the lowest above, else the highest left.
    fn take_coin(&mut self, v: u32) -> Option<u8> {
        let start = (v.max(5) - 5) as usize;
        let i = (start..TREASURE_VALUES)
            .find(|&i| self.treasure[i] > 0)
            .or_else(|| (0..TREASURE_VALUES).rev().find(|&i| self.treasure[i] > 0))?;
        self.treasure[i] -= 1;
        Some((i + 6) as u8)
    }

    /// A coin leaving a seat: a Treasure coin goes back, a basic or special one leaves the game.
    fn return_coin(&mut self, c: u8) {
        if c >= 6 && (c as usize) < COINS {
            self.treasure[c as usize - 6] = self.treasure[c as usize - 6].saturating_add(1);
        }
    }

    /// Put `entry` on top of column j of seat s (§5.5); true when Thrud was taken out.
    fn place(&mut self, s: usize, j: usize, entry: u8) -> bool {
        let seat = &mut self.seats[s];
        let len = (seat.col_len[j] as usize).min(COL_CAP);
        let mut thrud_out = false;
        let mut len = len;
        if len > 0 && seat.cols[j][len - 1] == THRUD_ENTRY && entry != THRUD_ENTRY {
            len -= 1;
            seat.cols[j][len] = 0;
            seat.thrud = 5;
            thrud_out = true;
        }
        if len < COL_CAP {
            seat.cols[j][len] = entry;
            len += 1;
        }
        seat.col_len[j] = len as u8;
        thrud_out
    }

    pub fn recruitable(&self, s: usize, h: usize) -> bool {
        if self.heroes_left[h] == 0 {
            return false;
        }
        let seat = &self.seats[s];
        match h {
            HOURYA => seat.col_ranks(EXPLORER, false) >= 5,
            DAGDA => {
                (0..CLASSES)
                    .filter(|&j| j != HUNTER && seat.has_dwarf(j))
                    .count()
                    >= 2
            }
            BONFUR => (0..CLASSES).any(|j| j != BLACKSMITH && seat.has_dwarf(j)),
            _ => true,
        }
    }

    fn can_recruit(&self, s: usize) -> bool {
        let seat = &self.seats[s];
        seat.lines() > seat.hero_count() && (0..HEROES).any(|h| self.recruitable(s, h))
    }

    fn has_transformable(&self, s: usize) -> bool {
        let seat = &self.seats[s];
        seat.bids
            .iter()
            .any(|&b| (b as usize) < COINS && !is_trading(b))
            || (0..COINS).any(|c| seat.hand[c] > 0 && !is_trading(c as u8))
    }

    fn discard_columns(&self, s: usize, mask: i8) -> impl Iterator<Item = usize> + '_ {
        let seat = &self.seats[s];
        (0..CLASSES).filter(move |&j| (mask >> j) & 1 == 0 && seat.has_dwarf(j))
    }

    fn set(&mut self, phase: Phase, seat: i8) {
        self.phase = phase;
        self.current = seat;
    }

    /// The phase and acting seat the main flow gives with an empty queue (§5.2, §5.3); None when the fields
    /// say the flow should already have moved on.
    pub fn main_flow(&self) -> Option<(Phase, i8)> {
        let n = self.n();
        if (0..n).any(|s| self.seats[s].gem == 0) {
            return Some((Phase::Gems, -1));
        }
        if self.tavern < 0 {
            if self.fill_target().is_some() {
                let clean = self.revealed == 0
                    && (0..n).all(|s| self.seats[s].bids.iter().all(|&b| b == NONE));
                return clean.then_some((Phase::Fill, -1));
            }
            return self.next_bid().map(|(s, _)| (Phase::Bid, s as i8));
        }
        let t = self.tavern as usize;
        if let Some(s) = (0..n).find(|&s| self.seats[s].bids[t] == NONE) {
            return (self.order_len == 0).then_some((Phase::UlineBid, s as i8));
        }
        if self.order_pos < self.order_len {
            return Some((Phase::Take, self.order[self.order_pos as usize] as i8));
        }
        None
    }

    /// What the front item asks for, if it needs a decision or a chance node (None: automatic or dropped).
    pub fn front_phase(&self, it: Item) -> Option<(Phase, i8)> {
        let s = it.seat;
        let su = s.max(0) as usize;
        match it.word {
            Word::Recruit => self.can_recruit(su).then_some((Phase::Hero, s)),
            Word::Transform => self.has_transformable(su).then_some((Phase::Transform, s)),
            Word::Trade => (self.seats[su].hand_count() > 2).then_some((Phase::UlineTrade, s)),
            Word::Thrud => (self.seats[su].thrud == 5).then_some((Phase::Thrud, s)),
            Word::Discard => self
                .discard_columns(su, it.arg)
                .next()
                .map(|_| (Phase::Discard, s)),
            Word::Ylud => (self.seats[su].ylud >= 0).then_some((Phase::Ylud, s)),
            Word::Pioneer => {
                if self.drawn_total() < 3 && self.deck2_total() > 0 {
                    Some((Phase::PioneerDraw, -1))
                } else if self.drawn_total() > 0 {
                    Some((Phase::PioneerKeep, s))
                } else {
                    None
                }
            }
            Word::Burn => (self.deck2_total() > 0).then_some((Phase::PioneerBurn, -1)),
            _ => None,
        }
    }

    /// Put an item at the back of the queue (for tests and tools that build positions; follow with `settle`).
    pub fn enqueue(&mut self, item: Item) {
        self.push_back(item);
    }

    /// Carry out automatic items and the main flow until a decision or a chance node (§5.4). Public for tests
    /// and tools that edit a position's fields.
    pub fn settle(&mut self) {
        loop {
            if let Some(it) = self.front() {
                if let Some((phase, seat)) = self.front_phase(it) {
                    if phase == Phase::PioneerDraw && self.pioneer_at < 0 {
                        self.pioneer_at = self.steps as i32;
                    }
                    self.set(phase, seat);
                    return;
                }
                self.pop();
                let s = it.seat.max(0) as usize;
                match it.word {
                    Word::Trade => {
                        let hand = self.seats[s].hand;
                        let mut two =
                            (0..COINS).flat_map(|c| std::iter::repeat_n(c as u8, hand[c] as usize));
                        if let (Some(a), Some(b)) = (two.next(), two.next()) {
                            self.trade(s, a, b);
                        }
                    }
                    Word::Distinction => self.award(it.arg.clamp(0, 4) as usize),
                    Word::Age2 => {
                        self.age = 2;
                        self.turn = 0;
                    }
                    Word::ThrudHome => {
                        for q in 0..self.n() {
                            let seat = &mut self.seats[q];
                            if (0..5).contains(&seat.thrud) {
                                seat.remove_entry(seat.thrud as usize, THRUD_ENTRY);
                            }
                            if seat.thrud >= 0 {
                                seat.thrud = 6;
                            }
                        }
                    }
                    Word::End => {
                        self.queue = [EMPTY_ITEM; QUEUE_CAP];
                        self.queue_len = 0;
                        self.set(Phase::Over, -1);
                        return;
                    }
                    _ => {}
                }
                continue;
            }
            if self.phase == Phase::Over {
                return;
            }
            if self.tavern >= 0 && self.order_len > 0 && self.order_pos >= self.order_len {
                self.end_tavern();
                continue;
            }
            match self.main_flow() {
                Some((phase, seat)) => self.set(phase, seat),
                None => self.set(Phase::Over, -1),
            }
            return;
        }
    }

    fn start_tavern(&mut self, t: usize) {
        self.tavern = t as i8;
        self.revealed = (t + 1) as u8;
        self.order_len = 0;
        self.order_pos = 0;
        if (0..self.n()).all(|s| self.seats[s].bids[t] != NONE) {
            self.compute_order();
        }
    }

    fn compute_order(&mut self) {
        let n = self.n();
        let t = self.tavern.clamp(0, 2) as usize;
        for s in 0..n {
            let b = self.seats[s].bids[t];
            self.reveal[s] = if (b as usize) < COINS {
                coin_value(b) as i8
            } else {
                0
            };
        }
        let mut order: Vec<u8> = (0..n as u8).collect();
        order.sort_by_key(|&s| {
            (
                std::cmp::Reverse(self.reveal[s as usize]),
                std::cmp::Reverse(self.seats[s as usize].gem),
            )
        });
        self.order[..n].copy_from_slice(&order);
        self.order_len = n as u8;
        self.order_pos = 0;
    }

    fn end_tavern(&mut self) {
        let n = self.n();
        let t = self.tavern.clamp(0, 2) as usize;
        for k in 0..KINDS {
            self.discard[k] = self.discard[k].saturating_add(self.taverns[t][k]);
            self.taverns[t][k] = 0;
        }
        // Gem trade.
        let mut done = [false; 5];
        for s in 0..n {
            if done[s] {
                continue;
            }
            let group: Vec<usize> = (0..n)
                .filter(|&q| self.reveal[q] == self.reveal[s])
                .collect();
            for &q in &group {
                done[q] = true;
            }
            if group.len() < 2 {
                continue;
            }
            let mut g: Vec<usize> = group
                .into_iter()
                .filter(|&q| self.seats[q].gem != 6)
                .collect();
            g.sort_by_key(|&q| std::cmp::Reverse(self.seats[q].gem));
            let k = g.len();
            for i in 0..k / 2 {
                let (a, b) = (g[i], g[k - 1 - i]);
                let ga = self.seats[a].gem;
                self.seats[a].gem = self.seats[b].gem;
                self.seats[b].gem = ga;
            }
        }
        self.tavern = -1;
        self.order = [0; 5];
        self.order_len = 0;
        self.order_pos = 0;
        self.reveal = [-1; 5];
        if t < 2 {
            self.start_tavern(t + 1);
        } else {
            self.end_turn();
        }
    }

    fn end_turn(&mut self) {
        let n = self.n();
        for s in 0..n {
            let seat = &mut self.seats[s];
            for t in 0..3 {
                let b = seat.bids[t];
                if (b as usize) < COINS {
                    seat.hand[b as usize] += 1;
                }
                seat.bids[t] = NONE;
                seat.shown_bids[t] = false;
            }
            seat.shown_hand = [0; COINS];
        }
        self.revealed = 0;
        self.bid_start = -1;
        self.uline_bidder = -1;
        if self.turn + 1 >= self.rules.turns() {
            if self.age == 1 {
                if let Some(s) = (0..n).find(|&s| self.seats[s].ylud == 6) {
                    self.push_back(Item::new(Word::Ylud, s, 0));
                }
                for j in [WARRIOR, HUNTER, MINER, BLACKSMITH, EXPLORER] {
                    self.push_back(Item::global(Word::Distinction, j as i8));
                }
                self.push_back(Item::global(Word::Age2, 0));
            } else {
                if let Some(s) = (0..n).find(|&s| self.seats[s].ylud >= 0) {
                    self.push_back(Item::new(Word::Ylud, s, 0));
                }
                self.push_back(Item::global(Word::ThrudHome, 0));
                self.push_back(Item::global(Word::End, 0));
            }
        } else {
            self.turn += 1;
        }
    }

    /// §5.9: award the distinction of class j.
    fn award(&mut self, j: usize) {
        let n = self.n();
        let ranks: Vec<u32> = (0..n).map(|s| self.seats[s].col_ranks(j, false)).collect();
        let best = ranks.iter().copied().max().unwrap_or(0);
        let winners: Vec<usize> = (0..n).filter(|&s| ranks[s] == best).collect();
        let di = DISTINCTION_OF_CLASS[j];
        if winners.len() != 1 {
            self.distinctions[di] = -1;
            if j == EXPLORER {
                self.push_front(&[Item::global(Word::Burn, 0)]);
            }
            return;
        }
        let w = winners[0];
        self.distinctions[di] = w as i8;
        match j {
            WARRIOR => self.push_front(&[Item::new(Word::Transform, w, 5)]),
            HUNTER => {
                let seat = &mut self.seats[w];
                if seat.hand[B0 as usize] > 0 {
                    seat.hand[B0 as usize] -= 1;
                    seat.hand[S3 as usize] += 1;
                }
            }
            MINER => self.seats[w].gem = 6,
            BLACKSMITH => {
                let out = self.place(w, BLACKSMITH, SPECIAL_BLACKSMITH);
                let mut items = Vec::with_capacity(2);
                if out {
                    items.push(Item::new(Word::Thrud, w, 0));
                }
                items.push(Item::new(Word::Recruit, w, 0));
                self.push_front(&items);
            }
            _ => self.push_front(&[Item::new(Word::Pioneer, w, 0)]),
        }
    }

    /// §5.6: seat s trades coins a and b of its hand.
    fn trade(&mut self, s: usize, a: u8, b: u8) {
        let v = coin_value(a) + coin_value(b);
        if let Some(new) = self.take_coin(v) {
            let (va, vb) = (coin_value(a), coin_value(b));
            let out = if va > vb {
                a
            } else if vb > va || b < 5 {
                // Equal values: the basic coin leaves (interpretation 4).
                b
            } else {
                a
            };
            let seat = &mut self.seats[s];
            seat.hand[new as usize] += 1;
            seat.hand[out as usize] = seat.hand[out as usize].saturating_sub(1);
            self.return_coin(out);
        }
        self.seats[s].shown_hand = self.seats[s].hand;
    }

    /// §5.4: seat s recruits hero h.
    fn recruit(&mut self, s: usize, h: usize) {
        let d = data();
        self.heroes_left[h] -= 1;
        self.seats[s].heroes[h] += 1;
        let mut items: Vec<Item> = Vec::with_capacity(5);
        let class = d.hero_class[h];
        if (class as usize) < CLASSES && self.place(s, class as usize, HERO_ENTRY + h as u8) {
            items.push(Item::new(Word::Thrud, s, 0));
        }
        match h {
            DAGDA => {
                items.push(Item::new(Word::Discard, s, 1 << HUNTER));
                items.push(Item::new(Word::Discard, s, 1 << HUNTER));
            }
            BONFUR => items.push(Item::new(Word::Discard, s, 1 << BLACKSMITH)),
            GRID => items.push(Item::new(Word::Transform, s, 7)),
            THRUD => {
                self.seats[s].thrud = 5;
                items.push(Item::new(Word::Thrud, s, 0));
            }
            YLUD => self.seats[s].ylud = 6,
            _ => {}
        }
        items.push(Item::new(Word::Recruit, s, 0));
        self.push_front(&items);
    }

    fn transform_slot(&mut self, s: usize, t: usize, x: u32) {
        let old = self.seats[s].bids[t];
        if (old as usize) >= COINS {
            return;
        }
        if let Some(new) = self.take_coin(coin_value(old) + x) {
            self.seats[s].bids[t] = new;
            self.seats[s].shown_bids[t] = true;
            self.return_coin(old);
        }
    }

    fn transform_hand(&mut self, s: usize, c: u8, x: u32) {
        if self.seats[s].hand[c as usize] == 0 {
            return;
        }
        if let Some(new) = self.take_coin(coin_value(c) + x) {
            let seat = &mut self.seats[s];
            seat.hand[c as usize] -= 1;
            // Item 12: a shown copy leaves even if a hidden coin of that value stays, since which copy was
            // transformed is not public (keeping it shown would reveal the hidden coin's value).
            if seat.shown_hand[c as usize] > 0 {
                seat.drop_shown(c);
            }
            seat.hand[new as usize] += 1;
            seat.add_shown(new);
            self.return_coin(c);
        }
    }

    /// Every Dwarf card or offering of kind k entering seat s's army outside a take: the items it brings, put
    /// at the front.
    fn gain_front(&mut self, s: usize, k: usize) {
        let d = data();
        let class = d.kind_class[k];
        if (class as usize) < CLASSES {
            let mut items = Vec::with_capacity(2);
            if self.place(s, class as usize, k as u8) {
                items.push(Item::new(Word::Thrud, s, 0));
            }
            items.push(Item::new(Word::Recruit, s, 0));
            self.push_front(&items);
        } else {
            self.push_front(&[Item::new(Word::Transform, s, d.kind_offering[k] as i8)]);
        }
    }

    fn do_action(&mut self, a: u32) {
        let d = data();
        let cur = self.current.max(0) as usize;
        match self.phase {
            Phase::Gems => {
                if let Some(s) = (0..self.n()).find(|&s| self.seats[s].gem == 0) {
                    self.seats[s].gem = a as u8;
                }
            }
            Phase::Fill => {
                let k = a as usize;
                if let Some(t) = self.fill_target() {
                    let deck = &mut self.decks[(self.age as usize - 1).min(1)];
                    deck[k] = deck[k].saturating_sub(1);
                    self.taverns[t][k] += 1;
                }
                if self.fill_target().is_none() {
                    self.bid_start = self.steps as i32;
                    self.uline_bidder = self.uline_owner();
                }
            }
            Phase::Bid => {
                let c = a as usize;
                if let Some((s, t)) = self.next_bid() {
                    self.seats[s].hand[c] -= 1;
                    self.seats[s].bids[t] = c as u8;
                }
                if self.next_bid().is_none() {
                    self.start_tavern(0);
                }
            }
            Phase::UlineBid => {
                let t = self.tavern.clamp(0, 2) as usize;
                self.seats[cur].hand[a as usize] -= 1;
                self.seats[cur].bids[t] = a as u8;
                if (0..self.n()).all(|s| self.seats[s].bids[t] != NONE) {
                    self.compute_order();
                }
            }
            Phase::Take => {
                let k = (a - TAKE) as usize;
                let t = self.tavern.clamp(0, 2) as usize;
                self.taverns[t][k] -= 1;
                self.order_pos += 1;
                let class = d.kind_class[k];
                if (class as usize) < CLASSES {
                    if self.place(cur, class as usize, k as u8) {
                        self.push_back(Item::new(Word::Thrud, cur, 0));
                    }
                    self.push_back(Item::new(Word::Recruit, cur, 0));
                } else {
                    self.push_back(Item::new(Word::Transform, cur, d.kind_offering[k] as i8));
                }
                let b = self.seats[cur].bids[t];
                if (b as usize) < COINS && is_trading(b) {
                    self.push_back(Item::new(Word::Trade, cur, -1));
                }
            }
            Phase::Transform => {
                let x = self.front().map_or(0, |it| it.arg.max(0) as u32);
                self.pop();
                if a < TRANSFORM_HAND {
                    self.transform_slot(cur, (a - TRANSFORM_SLOT) as usize, x);
                } else {
                    self.transform_hand(cur, (a - TRANSFORM_HAND) as u8, x);
                }
            }
            Phase::Hero => {
                self.pop();
                self.recruit(cur, (a - HERO) as usize);
            }
            Phase::Thrud => {
                self.pop();
                let j = (a - COLUMN) as usize;
                self.place(cur, j, THRUD_ENTRY);
                self.seats[cur].thrud = j as i8;
            }
            Phase::Ylud => {
                self.pop();
                let j = (a - COLUMN) as usize;
                let at = self.seats[cur].ylud;
                let mut items = Vec::with_capacity(2);
                if at as usize != j {
                    if (0..5).contains(&at) {
                        self.seats[cur].remove_entry(at as usize, YLUD_ENTRY);
                    }
                    if self.place(cur, j, YLUD_ENTRY) {
                        items.push(Item::new(Word::Thrud, cur, 0));
                    }
                    self.seats[cur].ylud = j as i8;
                }
                items.push(Item::new(Word::Recruit, cur, 0));
                self.push_front(&items);
            }
            Phase::Discard => {
                self.pop();
                let j = (a - DISCARD) as usize;
                let seat = &mut self.seats[cur];
                let len = (seat.col_len[j] as usize).min(COL_CAP);
                // The top card (interpretation 3); legality made sure it is a Dwarf card.
                if let Some(&top) = seat.cols[j][..len]
                    .last()
                    .filter(|&&e| (e as usize) < DWARF_KINDS)
                {
                    let k = top as usize;
                    seat.cols[j][len - 1] = 0;
                    seat.col_len[j] = (len - 1) as u8;
                    self.discard[k] = self.discard[k].saturating_add(1);
                }
                if let Some(next) = self.queue.first_mut().filter(|_| self.queue_len > 0) {
                    if next.word == Word::Discard && next.seat == cur as i8 {
                        next.arg |= 1 << j;
                    }
                }
            }
            Phase::UlineTrade => {
                let c = (a - SUM) as u8;
                let f = self.front().map_or(-1, |it| it.arg);
                if f < 0 {
                    if let Some(front) = self.queue.first_mut() {
                        front.arg = c as i8;
                    }
                } else {
                    self.pop();
                    self.trade(cur, f as u8, c);
                }
            }
            Phase::PioneerDraw => {
                let k = a as usize;
                self.decks[1][k] = self.decks[1][k].saturating_sub(1);
                self.drawn[k] += 1;
            }
            Phase::PioneerKeep => {
                let k = (a - KEEP) as usize;
                self.drawn[k] -= 1;
                for i in 0..KINDS {
                    self.decks[1][i] = self.decks[1][i].saturating_add(self.drawn[i]);
                }
                self.drawn = [0; KINDS];
                self.pop();
                self.gain_front(cur, k);
            }
            Phase::PioneerBurn => {
                let k = a as usize;
                self.decks[1][k] = self.decks[1][k].saturating_sub(1);
                self.discard[k] = self.discard[k].saturating_add(1);
                self.pop();
            }
            Phase::Over => return,
        }
        self.settle();
    }

    /// The legal actions (or chance outcomes) into `out`, ascending.
    pub fn gen_actions(&self, out: &mut impl ActionSink) {
        let d = data();
        let cur = self.current.max(0) as usize;
        let seat = &self.seats[cur];
        match self.phase {
            Phase::Gems => {
                let n = self.n();
                for &g in &d.gems[n] {
                    if !(0..n).any(|s| self.seats[s].gem == g) {
                        out.push(g as u32);
                    }
                }
            }
            Phase::Fill => {
                let deck = &self.decks[(self.age as usize - 1).min(1)];
                for k in 0..KINDS {
                    if deck[k] > 0 {
                        out.push(k as u32);
                    }
                }
            }
            Phase::PioneerDraw | Phase::PioneerBurn => {
                for k in 0..KINDS {
                    if self.decks[1][k] > 0 {
                        out.push(k as u32);
                    }
                }
            }
            Phase::Bid | Phase::UlineBid => {
                for c in 0..COINS {
                    if seat.hand[c] > 0 {
                        out.push(BID + c as u32);
                    }
                }
            }
            Phase::Take => {
                let t = self.tavern.clamp(0, 2) as usize;
                for k in 0..KINDS {
                    if self.taverns[t][k] > 0 {
                        out.push(TAKE + k as u32);
                    }
                }
            }
            Phase::Transform => {
                for t in 0..3 {
                    let b = seat.bids[t];
                    if (b as usize) < COINS && !is_trading(b) {
                        out.push(TRANSFORM_SLOT + t as u32);
                    }
                }
                for c in 0..COINS {
                    if seat.hand[c] > 0 && !is_trading(c as u8) {
                        out.push(TRANSFORM_HAND + c as u32);
                    }
                }
            }
            Phase::Hero => {
                for h in 0..HEROES {
                    if self.recruitable(cur, h) {
                        out.push(HERO + h as u32);
                    }
                }
            }
            Phase::Thrud | Phase::Ylud => {
                for j in 0..CLASSES {
                    out.push(COLUMN + j as u32);
                }
            }
            Phase::Discard => {
                let mask = self.front().map_or(0, |it| it.arg);
                for j in self.discard_columns(cur, mask) {
                    out.push(DISCARD + j as u32);
                }
            }
            Phase::PioneerKeep => {
                for k in 0..KINDS {
                    if self.drawn[k] > 0 {
                        out.push(KEEP + k as u32);
                    }
                }
            }
            Phase::UlineTrade => {
                let f = self.front().map_or(-1, |it| it.arg);
                for c in 0..COINS {
                    let have = seat.hand[c] as i32 - (f == c as i8) as i32;
                    if have > 0 {
                        out.push(SUM + c as u32);
                    }
                }
            }
            Phase::Over => {}
        }
    }

    /// §5.10: the Final Bravery Value of seat s on the position as it stands.
    pub fn value(&self, s: usize) -> i64 {
        let d = data();
        let n = self.n();
        let seat = &self.seats[s];
        let r = |j: usize| seat.col_ranks(j, true) as i64;
        let mut v = 0i64;
        let rb = r(BLACKSMITH);
        v += rb * (rb + 5) / 2;
        let rh = r(HUNTER);
        v += rh * rh;
        v += seat.col_points(EXPLORER) as i64;
        if seat.heroes[IDUNN] > 0 {
            v += 2 * r(EXPLORER);
        }
        v += seat.col_points(MINER) as i64 * r(MINER);
        v += seat.col_points(WARRIOR) as i64;
        let rw = r(WARRIOR);
        let best = (0..n)
            .map(|q| self.seats[q].col_ranks(WARRIOR, true))
            .max()
            .unwrap_or(0) as i64;
        if rw == best && (rw >= 1 || self.rules.warrior_bonus_at_zero) {
            v += seat.highest_coin() as i64;
        }
        v += d.dwerg_points[(seat.heroes[DWERG] as usize).min(5)] as i64;
        for h in [SKAA, GRID, ULINE, THRUD] {
            if seat.heroes[h] > 0 {
                v += d.hero_points[h] as i64;
            }
        }
        if seat.heroes[ASTRID] > 0 {
            v += seat.highest_coin() as i64;
        }
        v += seat.coin_sum() as i64;
        if seat.gem == 6 {
            v += 3;
        }
        v
    }
}

impl State for NidavellirState {
    fn current_player(&self) -> Player {
        match self.phase {
            Phase::Over => TERMINAL,
            Phase::Gems | Phase::Fill | Phase::PioneerDraw | Phase::PioneerBurn => CHANCE,
            _ => self.current as Player,
        }
    }

    fn legal_actions(&self, out: &mut Vec<u32>) {
        out.clear();
        self.gen_actions(out);
    }

    fn chance_weights(&self, out: &mut Vec<(u32, u64)>) {
        out.clear();
        match self.phase {
            Phase::Gems => {
                let mut acts = Vec::new();
                self.gen_actions(&mut acts);
                out.extend(acts.into_iter().map(|a| (a, 1)));
            }
            Phase::Fill => {
                let deck = &self.decks[(self.age as usize - 1).min(1)];
                out.extend(
                    (0..KINDS)
                        .filter(|&k| deck[k] > 0)
                        .map(|k| (k as u32, deck[k] as u64)),
                );
            }
            Phase::PioneerDraw | Phase::PioneerBurn => {
                let deck = &self.decks[1];
                out.extend(
                    (0..KINDS)
                        .filter(|&k| deck[k] > 0)
                        .map(|k| (k as u32, deck[k] as u64)),
                );
            }
            _ => {}
        }
    }

    fn sample_chance(&self, rng: &mut Rng, scratch: &mut Vec<(u32, u64)>) -> Option<u32> {
        match self.phase {
            Phase::Fill => crate::pick_by_count(&self.decks[(self.age as usize - 1).min(1)], rng),
            Phase::PioneerDraw | Phase::PioneerBurn => crate::pick_by_count(&self.decks[1], rng),
            _ => {
                self.chance_weights(scratch);
                crate::pick_weighted(scratch.iter().copied(), rng)
            }
        }
    }

    fn is_legal(&self, action: u32) -> bool {
        let mut f = crate::Finder::new(action);
        self.gen_actions(&mut f);
        f.found
    }

    fn apply_unchecked(&mut self, action: u32) {
        if !self.is_legal(action) {
            return;
        }
        self.steps += 1;
        self.do_action(action);
    }

    fn action_to_string(&self, action: u32) -> Result<String> {
        action_to_string(self, action)
    }

    fn string_to_action(&self, text: &str) -> Result<u32> {
        string_to_action(self, text)
    }

    fn returns(&self, out: &mut [f64]) {
        if self.phase == Phase::Over {
            share_the_win(out, self.n(), |s| self.value(s));
        } else {
            out.iter_mut().for_each(|o| *o = 0.0);
        }
    }

    fn scores(&self, out: &mut [f64]) {
        for (s, o) in out.iter_mut().enumerate().take(self.n()) {
            *o = self.value(s) as f64;
        }
    }

    fn observation_tensor(&self, player: usize, out: &mut [f32]) {
        super::observation::write(self, player, out)
    }

    fn observation_string(&self, player: usize) -> String {
        super::observation::observation_string(self, player)
    }

    fn information_state_string(&self, player: usize, history: &[u32]) -> String {
        super::observation::information_state_string(self, player, history)
    }

    fn serialize(&self, history: &[u32]) -> String {
        super::serial::serialize(self, history)
    }

    fn resample_from_infostate(&self, player: usize, rng: &mut Rng) -> Self {
        super::observation::resample(self, player, rng)
    }

    fn to_text(&self) -> String {
        super::observation::to_text(self)
    }

    fn heuristic_value(&self, out: &mut [f64]) {
        super::heuristic::heuristic_value(self, out)
    }
}
