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
    // Thingvellir (thingvellir.md §7), in the contract's order.
    CampFill,
    TavernDiscard,
    EnlistOrder,
    Enlist,
    Andumia,
    Holda,
    Khrad,
    Olwyn,
    Vidofnir,
    Brisingamens,
    BrisColumn,
    Hofud,
}

/// Thingvellir's phases, in the tensor's order.
pub const TV_PHASES: [Phase; 12] = [
    Phase::CampFill,
    Phase::TavernDiscard,
    Phase::EnlistOrder,
    Phase::Enlist,
    Phase::Andumia,
    Phase::Holda,
    Phase::Khrad,
    Phase::Olwyn,
    Phase::Vidofnir,
    Phase::Brisingamens,
    Phase::BrisColumn,
    Phase::Hofud,
];

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
    // Thingvellir (thingvellir.md §7).
    CampPick,
    Andumia,
    Brisingamens,
    BrisEnd,
    Vidofnir,
    Khrad,
    Olwyn,
    Hofud,
    ForcedHero,
    TavernDrop,
    EnlistOrder,
    Enlist,
    CampClear,
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
    /// Thingvellir: camp cards held (artefacts; mercenaries not yet placed), bit m.
    pub camp_cards: u32,
    /// Zolkur recruited and not yet used.
    pub zolkur: bool,
    /// Thingvellir heroes owned, bit h − 17.
    pub tv_heroes: u8,
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
            camp_cards: 0,
            zolkur: false,
            tv_heroes: 0,
        }
    }

    #[inline]
    pub fn has_camp(&self, m: usize) -> bool {
        self.camp_cards >> m & 1 == 1
    }

    #[inline]
    pub fn has_tv_hero(&self, h: usize) -> bool {
        h >= HEROES && self.tv_heroes >> (h - HEROES) & 1 == 1
    }

    /// Unplaced mercenaries held (camp card bits).
    pub fn unplaced(&self) -> u32 {
        self.camp_cards & MERCENARY_MASK
    }

    /// The number of mercenaries placed in the army.
    pub fn placed_mercenaries(&self) -> u32 {
        (0..CLASSES)
            .map(|j| {
                self.col(j)
                    .iter()
                    .filter(|&&e| (MERCENARY_ENTRY..MERCENARY_ENTRY + 12).contains(&e))
                    .count() as u32
            })
            .sum()
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
        self.heroes.iter().map(|&h| h as u32).sum::<u32>() + self.tv_heroes.count_ones()
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
        self.col(j).last().is_some_and(|&e| discardable(e))
    }

    /// The entries of column j that Hofud or Brisingamens may remove (T9), as an entry bitmask.
    pub fn removable(&self, j: usize) -> u64 {
        self.col(j)
            .iter()
            .filter(|&&e| discardable(e))
            .fold(0u64, |m, &e| m | 1 << e)
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

/// The camp cards that are mercenaries (bits 6..11, 18..23).
pub const MERCENARY_MASK: u32 = 0x00FC_0FC0;
pub const AGE1_CAMP: u32 = 0x0000_0FFF;
pub const AGE2_CAMP: u32 = 0x00FF_F000;

/// What Bonfur, Dagda, Hofud and Brisingamens may discard (thingvellir.md T9): a Dwarf card, a placed mercenary,
/// one of Olwyn's doubles.
#[inline]
pub fn discardable(e: u8) -> bool {
    (e as usize) < DWARF_KINDS || (OLWYN_ENTRY..MERCENARY_ENTRY + 12).contains(&e)
}

/// The ranks of a column entry (§3).
pub fn entry_ranks(e: u8) -> u32 {
    match e {
        e if (e as usize) < DWARF_KINDS => 1,
        30..=39 => data().hero_ranks[(e - HERO_ENTRY) as usize] as u32,
        SPECIAL_BLACKSMITH => 2,
        THRUD_ENTRY | YLUD_ENTRY => 1,
        43..=57 => 1,
        _ => 0,
    }
}

/// The points of mercenary m' in column j (0 if j is not one of its classes).
pub fn mercenary_points(mp: usize, j: usize) -> u32 {
    let tv = &data().tv;
    (0..2)
        .find(|&o| tv.merc_class[mp][o] as usize == j)
        .map_or(0, |o| tv.merc_points[mp][o] as u32)
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
        VEGVISIR_ENTRY => 13,
        46..=57 => mercenary_points((e - MERCENARY_ENTRY) as usize, j),
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
    // Thingvellir (thingvellir.md §3); all zero without it.
    /// The camp cards lying in the camp, bit m.
    pub camp: u32,
    /// The current Age's camp deck (not yet dealt), bit m.
    pub camp_deck: u32,
    pub camp_visited: bool,
    /// The Thingvellir heroes left, bit h − 17.
    pub tv_heroes_left: u8,
    /// The enlistment order and the position in it.
    pub enlist: [u8; 5],
    pub enlist_len: u8,
    pub enlist_pos: u8,
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
            camp: 0,
            camp_deck: if rules.thingvellir { AGE1_CAMP } else { 0 },
            camp_visited: false,
            tv_heroes_left: if rules.thingvellir { 0x3F } else { 0 },
            enlist: [0; 5],
            enlist_len: 0,
            enlist_pos: 0,
        }
    }

    #[inline]
    pub fn tv(&self) -> bool {
        self.rules.thingvellir
    }

    pub fn enlist_order(&self) -> &[u8] {
        &self.enlist[..(self.enlist_len as usize).min(5)]
    }

    /// The owner of camp card m (artefact in a Command Zone), if any.
    pub fn camp_owner(&self, m: usize) -> Option<usize> {
        (0..self.n()).find(|&s| self.seats[s].has_camp(m))
    }

    /// Whether the acting seat may take from the camp now (§4.2).
    pub fn may_visit_camp(&self, s: usize) -> bool {
        self.tv()
            && self.camp != 0
            && !self.camp_visited
            && (self.order_pos == 0 || self.seats[s].has_camp(FAFNIR))
    }

    /// T8: Jarnglofi discarded seat s's trading coin from the current tavern, so its trade is dropped.
    fn trade_dropped(&self, s: usize) -> bool {
        self.tv() && self.tavern >= 0 && {
            let b = self.seats[s].bids[self.tavern.clamp(0, 2) as usize];
            !((b as usize) < COINS && is_trading(b))
        }
    }

    /// The +2 of Jarika on s's trades and transformations.
    fn jarika(&self, s: usize) -> u32 {
        if self.seats[s].has_tv_hero(JARIKA) {
            2
        } else {
            0
        }
    }

    fn discard_total(&self) -> u32 {
        self.discard.iter().map(|&c| c as u32).sum()
    }

    /// The lowest value of s's non-trading coins (bid slots and hand), if any.
    fn lowest_coin(&self, s: usize) -> Option<u32> {
        let seat = &self.seats[s];
        let slots = seat
            .bids
            .iter()
            .filter(|&&b| (b as usize) < COINS && !is_trading(b));
        let hand = (0..COINS as u8).filter(|&c| seat.hand[c as usize] > 0 && !is_trading(c));
        slots.copied().chain(hand).map(coin_value).min()
    }

    /// Whether seat s's bid slot t is out of tavern t (Jarnglofi discarded the coin there, T8).
    pub fn out_of_tavern(&self, s: usize, t: usize) -> bool {
        self.tv() && self.seats[s].bids[t] == NONE && s as i8 != self.uline_bidder
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
        if h >= HEROES {
            return h < ALL_HEROES
                && self.tv_heroes_left >> (h - HEROES) & 1 == 1
                && (h != ANDUMIA || self.discard_total() > 0);
        }
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
        !seat.has_camp(MEGINGJORD) && seat.lines() > seat.hero_count() && self.any_recruitable(s)
    }

    fn any_recruitable(&self, s: usize) -> bool {
        let top = if self.tv() { ALL_HEROES } else { HEROES };
        (0..top).any(|h| self.recruitable(s, h))
    }

    /// The distinct non-trading hand codes seat s may give Vidofnir's bonus to (the second time, without one
    /// copy of the coin that got +2).
    fn vidofnir_coins(&self, s: usize, f: i8) -> [u8; COINS] {
        let mut hand = self.seats[s].hand;
        hand[B0 as usize] = 0;
        hand[S3 as usize] = 0;
        if (0..COINS as i8).contains(&f) {
            hand[f as usize] = hand[f as usize].saturating_sub(1);
        }
        hand
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
            if self.camp_filling() {
                return Some((Phase::CampFill, -1));
            }
            return self.next_bid().map(|(s, _)| (Phase::Bid, s as i8));
        }
        let t = self.tavern as usize;
        if let Some(s) =
            (0..n).find(|&s| self.seats[s].bids[t] == NONE && !self.out_of_tavern(s, t))
        {
            if self.order_len == 0 {
                return Some((Phase::UlineBid, s as i8));
            }
            // Thingvellir: Jarnglofi may take Uline's owner's coin off the current tavern after the order
            // is made; the tavern goes on (the oracle agrees). Without it, an empty slot here is unreachable.
            if !self.tv() {
                return None;
            }
        }
        if self.order_pos < self.order_len {
            return Some((Phase::Take, self.order[self.order_pos as usize] as i8));
        }
        None
    }

    /// The camp is being filled: the turn's taverns are full, no bid is placed, the camp has room and the deck
    /// cards (§4.1).
    pub fn camp_filling(&self) -> bool {
        self.tv()
            && self.camp.count_ones() < data().tv.camp_size as u32
            && self.camp_deck != 0
            && self.revealed == 0
            && (0..self.n()).all(|s| self.seats[s].bids.iter().all(|&b| b == NONE))
    }

    /// What the front item asks for, if it needs a decision or a chance node (None: automatic or dropped).
    pub fn front_phase(&self, it: Item) -> Option<(Phase, i8)> {
        let s = it.seat;
        let su = s.max(0) as usize;
        let seat = &self.seats[su];
        match it.word {
            Word::Recruit => self.can_recruit(su).then_some((Phase::Hero, s)),
            Word::CampPick => (self.camp != 0).then_some((Phase::Holda, s)),
            Word::Andumia => (self.discard_total() > 0).then_some((Phase::Andumia, s)),
            Word::Brisingamens => (self.discard_total() > 0).then_some((Phase::Brisingamens, s)),
            Word::BrisEnd => {
                let any = if it.arg > 0 {
                    seat.removable((it.arg as usize - 1).min(4)) != 0
                } else {
                    (0..CLASSES).any(|j| seat.removable(j) != 0)
                };
                any.then_some((Phase::BrisColumn, s))
            }
            Word::Vidofnir => self
                .vidofnir_coins(su, it.arg)
                .iter()
                .any(|&c| c > 0)
                .then_some((Phase::Vidofnir, s)),
            Word::Khrad => self.lowest_coin(su).map(|_| (Phase::Khrad, s)),
            Word::Olwyn => Some((Phase::Olwyn, s)),
            Word::Hofud => (seat.removable(WARRIOR) != 0).then_some((Phase::Hofud, s)),
            Word::ForcedHero => self.any_recruitable(su).then_some((Phase::Hero, s)),
            Word::TavernDrop => {
                let t = self.tavern.clamp(0, 2) as usize;
                (self.tavern >= 0 && self.tavern_total(t) == self.rules.cards() as u32)
                    .then_some((Phase::TavernDiscard, s))
            }
            Word::EnlistOrder => {
                (self.enlist_len > 0).then(|| (Phase::EnlistOrder, self.enlist[0] as i8))
            }
            Word::Enlist => (seat.unplaced() != 0).then_some((Phase::Enlist, s)),
            Word::Transform => self.has_transformable(su).then_some((Phase::Transform, s)),
            Word::Trade => (self.seats[su].hand_count() > 2 && !self.trade_dropped(su))
                .then_some((Phase::UlineTrade, s)),
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
                if it.word == Word::EnlistOrder && self.enlist_len == 0 {
                    self.make_enlist_order();
                }
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
                    Word::Trade if self.trade_dropped(s) => {}
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
                    Word::Enlist => {
                        self.enlist_pos += 1;
                        if self.enlist_pos >= self.enlist_len {
                            self.enlist = [0; 5];
                            self.enlist_len = 0;
                            self.enlist_pos = 0;
                        }
                    }
                    Word::CampClear => {
                        self.camp = 0;
                        self.camp_deck = AGE2_CAMP;
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
        self.camp_visited = false;
        if (0..self.n()).all(|s| self.seats[s].bids[t] != NONE || self.out_of_tavern(s, t)) {
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
            } else if self.out_of_tavern(s, t) {
                -1
            } else {
                0
            };
        }
        let (order, len) = self.revealed_order();
        self.order = order;
        self.order_len = len as u8;
        self.order_pos = 0;
    }

    /// §5.3 step 2: the seats with a revealed value (a seat out of the tavern has −1), highest first, equal
    /// values by gem, highest first; a fixed array, since this runs at every tavern of every playout.
    pub fn revealed_order(&self) -> ([u8; 5], usize) {
        let mut order = [0u8; 5];
        let mut len = 0;
        for s in 0..self.n() {
            if self.reveal[s] >= 0 {
                order[len] = s as u8;
                len += 1;
            }
        }
        order[..len].sort_by_key(|&s| {
            (
                std::cmp::Reverse(self.reveal[s as usize]),
                std::cmp::Reverse(self.seats[s as usize].gem),
            )
        });
        (order, len)
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
            if group.len() < 2 || self.reveal[s] < 0 {
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
        self.camp_visited = false;
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
        let tv = self.tv();
        if self.turn + 1 >= self.rules.turns() {
            if tv {
                self.push_back(Item::global(Word::EnlistOrder, 0));
            }
            if self.age == 1 {
                if let Some(s) = (0..n).find(|&s| self.seats[s].ylud == 6) {
                    self.push_back(Item::new(Word::Ylud, s, 0));
                }
                for j in [WARRIOR, HUNTER, MINER, BLACKSMITH, EXPLORER] {
                    self.push_back(Item::global(Word::Distinction, j as i8));
                }
                if tv {
                    self.push_back(Item::global(Word::CampClear, 0));
                }
                self.push_back(Item::global(Word::Age2, 0));
            } else {
                if let Some(s) = (0..n).find(|&s| self.seats[s].ylud >= 0) {
                    self.push_back(Item::new(Word::Ylud, s, 0));
                }
                self.push_back(Item::global(Word::ThrudHome, 0));
                if let Some(s) = tv.then(|| self.camp_owner(BRISINGAMENS)).flatten() {
                    self.push_back(Item::new(Word::BrisEnd, s, 0));
                }
                self.push_back(Item::global(Word::End, 0));
            }
        } else {
            if tv && self.rules.enlist_each_turn {
                self.push_back(Item::global(Word::EnlistOrder, 0));
            }
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
        let v = coin_value(a) + coin_value(b) + self.jarika(s);
        let zolkur = self.seats[s].zolkur;
        self.seats[s].zolkur = false;
        if let Some(new) = self.take_coin(v) {
            let (va, vb) = (coin_value(a), coin_value(b));
            let out = if zolkur && va != vb {
                // Zolkur: the lower coin is discarded instead of the higher.
                if va < vb {
                    a
                } else {
                    b
                }
            } else if va > vb {
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
        if h >= HEROES {
            let bit = 1u8 << (h - HEROES);
            self.tv_heroes_left &= !bit;
            self.seats[s].tv_heroes |= bit;
            let mut items: Vec<Item> = Vec::with_capacity(2);
            match h {
                ANDUMIA => items.push(Item::new(Word::Andumia, s, 0)),
                HOLDA => items.push(Item::new(Word::CampPick, s, 0)),
                KHRAD => items.push(Item::new(Word::Khrad, s, 0)),
                OLWYN => items.push(Item::new(Word::Olwyn, s, -1)),
                ZOLKUR => self.seats[s].zolkur = true,
                _ => {}
            }
            items.push(Item::new(Word::Recruit, s, 0));
            self.push_front(&items);
            return;
        }
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

    /// §4.5: the seats with unplaced mercenaries, most first (ties: higher gem); the chooser first.
    pub(super) fn make_enlist_order(&mut self) {
        let n = self.n();
        let mut order: Vec<u8> = (0..n as u8)
            .filter(|&s| self.seats[s as usize].unplaced() != 0)
            .collect();
        order.sort_by_key(|&s| {
            let seat = &self.seats[s as usize];
            (
                std::cmp::Reverse(seat.unplaced().count_ones()),
                std::cmp::Reverse(seat.gem),
            )
        });
        if self.rules.enlist_chooser == super::EnlistChooser::LowestGem {
            if let Some(i) = (0..order.len()).min_by_key(|&i| self.seats[order[i] as usize].gem) {
                let c = order.remove(i);
                order.insert(0, c);
            }
        }
        self.enlist = [0; 5];
        self.enlist[..order.len()].copy_from_slice(&order);
        self.enlist_len = order.len() as u8;
        self.enlist_pos = 0;
    }

    /// The items camp card m brings to seat s when taken (§5), its effect done at once where automatic.
    fn camp_effect(&mut self, s: usize, m: usize, items: &mut Vec<Item>) {
        self.seats[s].camp_cards |= 1 << m;
        match m {
            VEGVISIR => {
                self.seats[s].camp_cards &= !(1 << m);
                if self.place(s, EXPLORER, VEGVISIR_ENTRY) {
                    items.push(Item::new(Word::Thrud, s, 0));
                }
            }
            VIDOFNIR => items.push(Item::new(Word::Vidofnir, s, -1)),
            BRISINGAMENS => items.push(Item::new(Word::Brisingamens, s, 2)),
            GJALLARHORN => items.push(Item::new(Word::ForcedHero, s, 0)),
            HOFUD => {
                let n = self.n();
                for i in 1..n {
                    items.push(Item::new(Word::Hofud, (s + i) % n, 0));
                }
            }
            JARNGLOFI => {
                let seat = &mut self.seats[s];
                for c in [B0, S3] {
                    if seat.hand[c as usize] > 0 {
                        seat.hand[c as usize] -= 1;
                        if seat.shown_hand[c as usize] > 0 {
                            seat.drop_shown(c);
                        }
                    }
                    for t in 0..3 {
                        if seat.bids[t] == c {
                            seat.bids[t] = NONE;
                            seat.shown_bids[t] = false;
                        }
                    }
                }
            }
            _ => {}
        }
    }

    /// Put mercenary m' (its class o) into the army of seat s.
    fn enlist_mercenary(&mut self, s: usize, mp: usize, o: usize) {
        let tv = &data().tv;
        let m = tv.merc_card[mp] as usize;
        self.seats[s].camp_cards &= !(1 << m);
        let j = tv.merc_class[mp][o] as usize;
        let mut items = Vec::with_capacity(2);
        if self.place(s, j, MERCENARY_ENTRY + mp as u8) {
            items.push(Item::new(Word::Thrud, s, 0));
        }
        items.push(Item::new(Word::Recruit, s, 0));
        self.push_front(&items);
    }

    /// Remove the topmost entry e of column j of seat s (Hofud, Brisingamens, T9): a Dwarf card goes to the
    /// discard pile, a mercenary or a double leaves the game.
    fn remove_topmost(&mut self, s: usize, j: usize, e: u8) {
        if self.seats[s].remove_entry(j, e) && (e as usize) < DWARF_KINDS {
            self.discard[e as usize] = self.discard[e as usize].saturating_add(1);
        }
    }

    /// The end of a fill step: set the bid bookkeeping once the taverns (and the camp) are filled.
    fn after_fill(&mut self) {
        if self.fill_target().is_none() && !self.camp_filling() {
            self.bid_start = self.steps as i32;
            self.uline_bidder = self.uline_owner();
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
                self.after_fill();
            }
            Phase::CampFill => {
                self.camp_deck &= !(1 << a);
                self.camp |= 1 << a;
                self.after_fill();
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
                if (0..self.n()).all(|s| self.seats[s].bids[t] != NONE || self.out_of_tavern(s, t))
                {
                    self.compute_order();
                }
            }
            Phase::Take if a >= CAMP => {
                let m = (a - CAMP) as usize;
                let t = self.tavern.clamp(0, 2) as usize;
                self.camp &= !(1 << m);
                self.camp_visited = true;
                self.order_pos += 1;
                let mut items = Vec::with_capacity(6);
                self.camp_effect(cur, m, &mut items);
                items.push(Item::new(Word::Recruit, cur, 0));
                let b = self.seats[cur].bids[t];
                if (b as usize) < COINS && is_trading(b) {
                    items.push(Item::new(Word::Trade, cur, -1));
                }
                if self.n() == 2 && self.rules.two_player_camp_discard && self.order_pos == 1 {
                    items.push(Item::new(Word::TavernDrop, cur, 0));
                }
                for it in items {
                    self.push_back(it);
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
                let x = self.front().map_or(0, |it| it.arg.max(0) as u32) + self.jarika(cur);
                self.pop();
                if a < TRANSFORM_HAND {
                    self.transform_slot(cur, (a - TRANSFORM_SLOT) as usize, x);
                } else {
                    self.transform_hand(cur, (a - TRANSFORM_HAND) as u8, x);
                }
            }
            Phase::Hero => {
                self.pop();
                let h = if a >= TV_HERO {
                    (a - TV_HERO) as usize + HEROES
                } else {
                    (a - HERO) as usize
                };
                self.recruit(cur, h);
            }
            Phase::Holda => {
                self.pop();
                let m = (a - CAMP) as usize;
                self.camp &= !(1 << m);
                let mut items = Vec::with_capacity(6);
                self.camp_effect(cur, m, &mut items);
                items.push(Item::new(Word::Recruit, cur, 0));
                self.push_front(&items);
            }
            Phase::Andumia => {
                self.pop();
                let k = (a - PICK) as usize;
                self.discard[k] = self.discard[k].saturating_sub(1);
                self.gain_front(cur, k);
            }
            Phase::Brisingamens => {
                let left = self.front().map_or(1, |it| it.arg);
                self.pop();
                if left > 1 {
                    self.push_front(&[Item::new(Word::Brisingamens, cur, left - 1)]);
                }
                let k = (a - PICK) as usize;
                self.discard[k] = self.discard[k].saturating_sub(1);
                self.gain_front(cur, k);
            }
            Phase::Khrad => {
                self.pop();
                let x = 10 + self.jarika(cur);
                if a < TRANSFORM_HAND {
                    self.transform_slot(cur, (a - TRANSFORM_SLOT) as usize, x);
                } else {
                    self.transform_hand(cur, (a - TRANSFORM_HAND) as u8, x);
                }
            }
            Phase::Vidofnir => {
                let f = self.front().map_or(-1, |it| it.arg);
                let c = (a - VIDOFNIR_COIN) as u8;
                let j = self.jarika(cur);
                let others = self
                    .vidofnir_coins(cur, -1)
                    .iter()
                    .map(|&x| x as u32)
                    .sum::<u32>();
                if f < 0 && others == 1 {
                    self.pop();
                    self.transform_hand(cur, c, 5 + j);
                } else if f < 0 {
                    let before = self.seats[cur].hand;
                    self.transform_hand(cur, c, 2 + j);
                    let after = self.seats[cur].hand;
                    let new = (0..COINS)
                        .find(|&x| after[x] > before[x])
                        .unwrap_or(c as usize);
                    if let Some(front) = self.queue.first_mut() {
                        front.arg = new as i8;
                    }
                } else {
                    self.pop();
                    self.transform_hand(cur, c, 3 + j);
                }
            }
            Phase::Olwyn => {
                let f = self.front().map_or(-1, |it| it.arg);
                let j = (a - COLUMN) as usize;
                let mut items = Vec::with_capacity(2);
                if f < 0 {
                    if let Some(front) = self.queue.first_mut() {
                        front.arg = j as i8;
                    }
                    if self.place(cur, j, OLWYN_ENTRY) {
                        items.push(Item::new(Word::Thrud, cur, 0));
                    }
                } else {
                    self.pop();
                    if self.place(cur, j, OLWYN_ENTRY + 1) {
                        items.push(Item::new(Word::Thrud, cur, 0));
                    }
                }
                items.push(Item::new(Word::Recruit, cur, 0));
                self.push_front(&items);
            }
            Phase::Hofud => {
                self.pop();
                self.remove_topmost(cur, WARRIOR, (a - REMOVE) as u8);
            }
            Phase::BrisColumn => {
                let arg = self.front().map_or(0, |it| it.arg);
                if arg <= 0 {
                    if let Some(front) = self.queue.first_mut() {
                        front.arg = (a - DISCARD) as i8 + 1;
                    }
                } else {
                    self.pop();
                    self.remove_topmost(cur, (arg as usize - 1).min(4), (a - REMOVE) as u8);
                }
            }
            Phase::TavernDiscard => {
                self.pop();
                let t = self.tavern.clamp(0, 2) as usize;
                let k = (a - DROP) as usize;
                self.taverns[t][k] = self.taverns[t][k].saturating_sub(1);
                self.discard[k] = self.discard[k].saturating_add(1);
            }
            Phase::EnlistOrder => {
                self.pop();
                let len = self.enlist_len as usize;
                if a == ENLIST_LAST && len > 1 {
                    self.enlist[..len].rotate_left(1);
                }
                let items: Vec<Item> = self
                    .enlist_order()
                    .iter()
                    .map(|&q| Item::new(Word::Enlist, q as usize, 0))
                    .collect();
                self.enlist_pos = 0;
                self.push_front(&items);
            }
            Phase::Enlist => {
                let x = (a - ENLIST) as usize;
                self.enlist_mercenary(cur, x / 2, x % 2);
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
                if let Some(&top) = seat.cols[j][..len].last().filter(|&&e| discardable(e)) {
                    let k = top as usize;
                    seat.cols[j][len - 1] = 0;
                    seat.col_len[j] = (len - 1) as u8;
                    if k < DWARF_KINDS {
                        self.discard[k] = self.discard[k].saturating_add(1);
                    }
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
                if self.may_visit_camp(cur) {
                    out.push_bits(CAMP, self.camp as u64);
                }
            }
            Phase::CampFill => {
                for m in 0..CAMP_CARDS {
                    if self.camp_deck >> m & 1 == 1 {
                        out.push(m as u32);
                    }
                }
            }
            Phase::Holda => out.push_bits(CAMP, self.camp as u64),
            Phase::Andumia | Phase::Brisingamens => {
                for k in 0..KINDS {
                    if self.discard[k] > 0 {
                        out.push(PICK + k as u32);
                    }
                }
            }
            Phase::Khrad => {
                if let Some(low) = self.lowest_coin(cur) {
                    for t in 0..3 {
                        let b = seat.bids[t];
                        if (b as usize) < COINS && !is_trading(b) && coin_value(b) == low {
                            out.push(TRANSFORM_SLOT + t as u32);
                        }
                    }
                    for c in 0..COINS {
                        if seat.hand[c] > 0 && !is_trading(c as u8) && coin_value(c as u8) == low {
                            out.push(TRANSFORM_HAND + c as u32);
                        }
                    }
                }
            }
            Phase::Vidofnir => {
                let f = self.front().map_or(-1, |it| it.arg);
                let coins = self.vidofnir_coins(cur, f);
                for (c, &k) in coins.iter().enumerate() {
                    if k > 0 {
                        out.push(VIDOFNIR_COIN + c as u32);
                    }
                }
            }
            Phase::Olwyn => {
                let f = self.front().map_or(-1, |it| it.arg);
                for j in 0..CLASSES {
                    if j as i8 != f {
                        out.push(COLUMN + j as u32);
                    }
                }
            }
            Phase::Hofud => out.push_bits(REMOVE, seat.removable(WARRIOR)),
            Phase::BrisColumn => {
                let arg = self.front().map_or(0, |it| it.arg);
                if arg <= 0 {
                    for j in 0..CLASSES {
                        if seat.removable(j) != 0 {
                            out.push(DISCARD + j as u32);
                        }
                    }
                } else {
                    out.push_bits(REMOVE, seat.removable((arg as usize - 1).min(4)));
                }
            }
            Phase::TavernDiscard => {
                let t = self.tavern.clamp(0, 2) as usize;
                for k in 0..KINDS {
                    if self.taverns[t][k] > 0 {
                        out.push(DROP + k as u32);
                    }
                }
            }
            Phase::EnlistOrder => {
                out.push(ENLIST_FIRST);
                out.push(ENLIST_LAST);
            }
            Phase::Enlist => {
                let tv = &data().tv;
                for mp in 0..MERCENARIES {
                    if seat.has_camp(tv.merc_card[mp] as usize) {
                        out.push(ENLIST + 2 * mp as u32);
                        out.push(ENLIST + 2 * mp as u32 + 1);
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
                if self.tv() {
                    for h in HEROES..ALL_HEROES {
                        if self.recruitable(cur, h) {
                            out.push(TV_HERO + (h - HEROES) as u32);
                        }
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
        if self.tv() {
            v += self.tv_value(s);
        }
        v
    }

    /// Thingvellir's points of seat s: its heroes and artefacts (§5).
    fn tv_value(&self, s: usize) -> i64 {
        let d = data();
        let seat = &self.seats[s];
        let mut v = 0i64;
        for h in HEROES..ALL_HEROES {
            if seat.has_tv_hero(h) {
                v += d.tv.hero_points[h - HEROES] as i64;
            }
        }
        if seat.has_camp(DRAUPNIR) {
            let owned = seat.owned();
            let big: u32 = (0..COINS)
                .filter(|&c| coin_value(c as u8) >= 15)
                .map(|c| owned[c] as u32)
                .sum();
            v += 6 * big as i64;
        }
        if seat.has_camp(MEGINGJORD) {
            v += 28;
        }
        if seat.has_camp(SVALINN) {
            v += 5 * seat.hero_count() as i64;
        }
        if seat.has_camp(HRAFNSMERKI) {
            v += 5 * (seat.unplaced().count_ones() + seat.placed_mercenaries()) as i64;
        }
        if seat.has_camp(JARNGLOFI) {
            v += 24;
        }
        if seat.has_camp(MJOLLNIR) {
            let best = (0..CLASSES)
                .map(|j| seat.col_ranks(j, true))
                .max()
                .unwrap_or(0);
            v += 2 * best as i64;
        }
        v
    }
}

impl State for NidavellirState {
    fn current_player(&self) -> Player {
        match self.phase {
            Phase::Over => TERMINAL,
            Phase::Gems
            | Phase::Fill
            | Phase::PioneerDraw
            | Phase::PioneerBurn
            | Phase::CampFill => CHANCE,
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
            Phase::Gems | Phase::CampFill => {
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
