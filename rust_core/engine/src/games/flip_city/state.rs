//! The state of a Flip City family game and its rules of play (docs/rules/flip_city.md §3-4,
//! docs/rules/flip_city_wilderness.md §3-4).
//!
//! Generic over `F` (faces in the layout) and `CAP` (a deck's room for known cards). In the base layout
//! (`F` = 12) no Wilderness face exists, so every Wilderness rule below is unreachable there (the face tests
//! never match, the deck's bottom part stays empty, `limit_next`, `flip_cash`, `digs` stay 0) and the game
//! plays exactly as flip_city.md says.

use super::cards::*;
use super::notation::{END, PLAY, STOP};
use super::{ReservoirRecycle, Rules};
use crate::{pick_by_count, ActionSink, Finder, Player, Rng, State, CHANCE, TERMINAL};

/// The known cards of a deck (W §3): the top part `deck_known` and the bottom part `deck_bottom`, sharing
/// one array so that a deck costs no more room than the game has cards (a deck's known cards never exceed
/// the cards of the game, which `CAP` holds).
///
/// The top part is `cards[..top_len]`, stored bottom-up so that the top card is the last and playing it is
/// a pop. The bottom part is `cards[CAP - bottom_len..]`, whose first element is the deck's bottom card, so
/// that putting a card at the bottom and the Factory taking it are both O(1).
#[derive(Clone, Copy)]
pub struct KnownCards<const CAP: usize> {
    cards: [u8; CAP],
    top_len: u8,
    bottom_len: u8,
}

// Only the live cards count: bytes outside the two parts are leftovers.
impl<const CAP: usize> PartialEq for KnownCards<CAP> {
    fn eq(&self, other: &Self) -> bool {
        self.top_part() == other.top_part() && self.bottom_part() == other.bottom_part()
    }
}

impl<const CAP: usize> Eq for KnownCards<CAP> {}

impl<const CAP: usize> std::fmt::Debug for KnownCards<CAP> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KnownCards")
            .field("top", &self.top_first().collect::<Vec<_>>())
            .field("bottom", &self.bottom_top_first().collect::<Vec<_>>())
            .finish()
    }
}

impl<const CAP: usize> Default for KnownCards<CAP> {
    fn default() -> Self {
        KnownCards {
            cards: [0; CAP],
            top_len: 0,
            bottom_len: 0,
        }
    }
}

impl<const CAP: usize> KnownCards<CAP> {
    fn top_part(&self) -> &[u8] {
        &self.cards[..self.len()]
    }
    fn bottom_part(&self) -> &[u8] {
        &self.cards[CAP - self.bottom_len()..]
    }
    fn is_full(&self) -> bool {
        self.len() + self.bottom_len() >= CAP
    }
    /// Cards in the top part (`deck_known`).
    pub fn len(&self) -> usize {
        self.top_len as usize
    }
    pub fn is_empty(&self) -> bool {
        self.top_len == 0
    }
    /// Cards in the bottom part (`deck_bottom`).
    pub fn bottom_len(&self) -> usize {
        self.bottom_len as usize
    }
    pub fn top(&self) -> Option<usize> {
        self.top_part().last().map(|&f| f as usize)
    }
    /// Put a card on top; false (and no change) when full, which card conservation rules out.
    pub fn push_top(&mut self, face: usize) -> bool {
        if self.is_full() {
            return false;
        }
        self.cards[self.len()] = face as u8;
        self.top_len += 1;
        true
    }
    pub fn pop_top(&mut self) -> Option<usize> {
        let top = self.top()?;
        self.top_len -= 1;
        Some(top)
    }
    /// Take the last card of the top part (the Factory, when the deck has no unknown or bottom part).
    pub fn take_last_of_top(&mut self) -> Option<usize> {
        let len = self.len();
        let bottom = *self.top_part().first()? as usize;
        self.cards.copy_within(1..len, 0);
        self.top_len -= 1;
        Some(bottom)
    }
    /// Put a card below the top part (a card put at the bottom of a deck with no unknown cards, W §3).
    pub fn push_under_top(&mut self, face: usize) -> bool {
        if self.is_full() {
            return false;
        }
        let len = self.len();
        self.cards.copy_within(0..len, 1);
        self.cards[0] = face as u8;
        self.top_len += 1;
        true
    }
    /// Append a card to `deck_bottom`: it becomes the deck's bottom card.
    pub fn push_bottom(&mut self, face: usize) -> bool {
        if self.is_full() {
            return false;
        }
        self.bottom_len += 1;
        self.cards[CAP - self.bottom_len()] = face as u8;
        true
    }
    /// Take the deck's bottom card from `deck_bottom`, if it is known there.
    pub fn take_bottom(&mut self) -> Option<usize> {
        let bottom = *self.bottom_part().first()? as usize;
        self.bottom_len -= 1;
        Some(bottom)
    }
    /// The unknown cards are gone: `deck_bottom` joins the end of `deck_known` in order (W §3).
    pub fn merge_bottom(&mut self) {
        let (top, bottom) = (self.len(), self.bottom_len());
        if bottom == 0 {
            return;
        }
        let mut moved = [0u8; CAP];
        moved[..bottom].copy_from_slice(self.bottom_part());
        self.cards.copy_within(0..top, bottom);
        self.cards[..bottom].copy_from_slice(&moved[..bottom]);
        self.top_len += self.bottom_len;
        self.bottom_len = 0;
    }
    /// `deck_known`, top card first, as the serialization lists it.
    pub fn top_first(&self) -> impl Iterator<Item = usize> + '_ {
        self.top_part().iter().rev().map(|&f| f as usize)
    }
    /// `deck_bottom`, from the top down (its last element is the bottom card).
    pub fn bottom_top_first(&self) -> impl Iterator<Item = usize> + '_ {
        self.bottom_part().iter().rev().map(|&f| f as usize)
    }
    /// Every known card, in no particular order.
    pub fn all(&self) -> impl Iterator<Item = usize> + '_ {
        self.top_part()
            .iter()
            .chain(self.bottom_part())
            .map(|&f| f as usize)
    }
    pub fn clear(&mut self) {
        self.top_len = 0;
        self.bottom_len = 0;
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Seat<const F: usize, const CAP: usize> {
    pub known: KnownCards<CAP>,
    pub unknown: [u8; F],
    pub discard: [u8; F],
    pub best: u32,
    /// Camping Grounds: the limit bonus of this seat's next turn (W 12).
    pub limit_next: u32,
}

impl<const F: usize, const CAP: usize> Default for Seat<F, CAP> {
    fn default() -> Self {
        Seat {
            known: KnownCards::default(),
            unknown: [0; F],
            discard: [0; F],
            best: 0,
            limit_next: 0,
        }
    }
}

impl<const F: usize, const CAP: usize> Seat<F, CAP> {
    fn has_unknown(&self) -> bool {
        // An OR over the bytes rather than `any`: no early exit, so it compiles to a few vector instructions.
        self.unknown.iter().fold(0, |acc, &c| acc | c) != 0
    }
    pub fn deck_is_empty(&self) -> bool {
        self.known.is_empty() && self.known.bottom_len() == 0 && !self.has_unknown()
    }
    fn needs_reveal(&self) -> bool {
        self.known.is_empty() && self.has_unknown()
    }
    /// Put a card at the bottom of the deck (W §3): below the unknown cards when there are any.
    fn put_at_bottom(&mut self, face: usize) {
        if self.has_unknown() {
            self.known.push_bottom(face);
        } else {
            self.known.push_under_top(face);
        }
    }
    /// A card of `face` left `unknown`: when it was the last, `deck_bottom` joins `deck_known` (W §3).
    fn take_unknown(&mut self, face: usize) {
        dec(&mut self.unknown[face]);
        if !self.has_unknown() {
            self.known.merge_bottom();
        }
    }
    /// Cards of `face` in the deck, known or not.
    pub fn in_deck(&self, face: usize) -> u32 {
        self.unknown.get(face).map_or(0, |&c| c as u32)
            + self.known.all().filter(|&f| f == face).count() as u32
    }
    /// Shuffle the deck: every card of it becomes unknown (W §3; a reveal follows).
    fn shuffle_deck(&mut self) {
        for f in self.known.all() {
            if let Some(c) = self.unknown.get_mut(f) {
                *c += 1;
            }
        }
        self.known.clear();
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Phase {
    Play,
    Build,
    Over,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Pending {
    None,
    Shuffle,
    GiveApartment,
    GiveResidential,
    Remove,
    Bottom,
    /// A flipped Country Resort, now a Trailer Park, waits for the opponent whose deck it joins (W 4).
    GiveResort,
    /// A bought or developed Farmer's Market: choose a played card to remove from the game (W 8).
    Market,
    /// A recycled Airport: choose the seat whose discard pile gives a card (W 11).
    Airport,
    /// ... and the card of seat `chosen`'s discard pile.
    AirportCard,
    /// An Airport shuffled a card into the current seat's own deck: how many of its Office to set aside
    /// (W 20: "When you would shuffle this card" -- the owner shuffling its own deck).
    AirportAside,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct FlipState<const F: usize, const CAP: usize> {
    pub rules: Rules,
    pub seats: [Seat<F, CAP>; super::MAX_PLAYERS],
    pub supply: [u8; F],
    pub removed: [u8; F],
    pub play_area: [u8; F],
    pub current: usize,
    pub turn: u32,
    pub phase: Phase,
    pub pending: Pending,
    pub cash: u32,
    pub points: u32,
    pub unhappiness: u32,
    pub limit_bonus: u32,
    pub forced: bool,
    pub main: bool,
    pub extra_buys: u32,
    pub extra_flips: u32,
    /// Station: how much less every flip fee is this Building phase (FC interp. 14).
    pub discount: u32,
    pub winner: Option<usize>,
    /// Water Reservoir: cash that pays only Flip and Develop prices, lost at the end of the turn (W 13).
    pub flip_cash: u32,
    /// Archaeology Site: 20-for-3 purchases left this Building phase (W 7).
    pub digs: u32,
    /// The seat an Airport chose, while its card is being chosen (W 11).
    pub chosen: Option<usize>,
    /// Cards played this turn (FC interp. 20, W 8): a card removed by a Farmer's Market was still played.
    pub played: u32,
    /// A Convenience Store was played this turn (its victory condition, W 8).
    pub store_played: bool,
    /// The seat shuffled its discard pile this Play Cards phase ("After shuffling, you again have the
    /// option to ... stop", FC interp. 20).
    pub shuffled: bool,
}

/// The most a counter may hold (FC §7): the reader refuses more, so every gain stops here.
pub const MAX_COUNTER: u32 = 10_000;

/// Add `by` to a counter that the reader bounds by `MAX_COUNTER` (cash, points, unhappiness, limit_bonus,
/// extra_flips, flip_cash, limit_next), stopping at the cap: a representation limit that no real game comes
/// near, so that every state reached from a readable one reads back (FC §7). The sum cannot overflow: the
/// counter is at most the cap and `by` is a card's or a parameter's small number, or another capped counter.
#[inline]
fn gain(counter: &mut u32, by: u32) {
    *counter = (*counter + by).min(MAX_COUNTER);
}

fn total(counts: &[u8]) -> u32 {
    counts.iter().map(|&c| c as u32).sum()
}

/// Decrement a count. Legal actions never take a card that is not there; `apply_unchecked` with an
/// illegal action must still not panic, so this saturates instead of overflowing.
fn dec(count: &mut u8) {
    *count = count.saturating_sub(1);
}

/// The faces of a mask (`Rules::recyclable` and the like) below `F`, in increasing order.
fn faces<const F: usize>(mask: u32) -> impl Iterator<Item = usize> {
    let mut m = if F >= 32 { mask } else { mask & ((1 << F) - 1) };
    std::iter::from_fn(move || {
        if m == 0 {
            return None;
        }
        let f = m.trailing_zeros() as usize;
        m &= m - 1;
        Some(f)
    })
}

/// `counts[face]`, or 0 for a face outside the layout (a Wilderness face in the base layout).
fn count<const F: usize>(counts: &[u8; F], face: usize) -> u8 {
    counts.get(face).copied().unwrap_or(0)
}

impl<const F: usize, const CAP: usize> FlipState<F, CAP> {
    pub fn new(rules: Rules) -> Self {
        let mut seats = [Seat::default(); super::MAX_PLAYERS];
        for seat in seats.iter_mut().take(rules.players) {
            seat.unknown = rules.starting_deck::<F>();
        }
        FlipState {
            rules,
            seats,
            supply: rules.initial_supply::<F>(),
            removed: [0; F],
            play_area: [0; F],
            current: 0,
            turn: 0,
            phase: Phase::Play,
            pending: Pending::None,
            cash: 0,
            points: 0,
            unhappiness: 0,
            limit_bonus: 0,
            forced: false,
            main: false,
            extra_buys: 0,
            extra_flips: 0,
            discount: 0,
            winner: None,
            flip_cash: 0,
            digs: 0,
            chosen: None,
            played: 0,
            store_played: false,
            shuffled: false,
        }
    }

    pub fn players(&self) -> usize {
        self.rules.players
    }

    pub fn limit(&self) -> u32 {
        2 + self.limit_bonus
    }

    /// The seat whose deck top a chance node reveals next, if any (the lowest such seat).
    pub fn seat_to_reveal(&self) -> Option<usize> {
        (0..self.players()).find(|&s| self.seats[s].needs_reveal())
    }

    fn me(&mut self) -> &mut Seat<F, CAP> {
        &mut self.seats[self.current]
    }

    /// `fee'(f)`: the flip fee with the Station's discount (FC §4.3, FC interp. 14).
    fn fee(&self, face: usize) -> Option<u32> {
        self.rules
            .flip_fee(face)
            .map(|fee| fee.saturating_sub(self.discount))
    }

    /// Pay a Flip or Develop price: the Water Reservoir's flip-only cash first (W §4.3).
    fn pay_flip(&mut self, price: u32) {
        let used = self.flip_cash.min(price);
        self.flip_cash -= used;
        self.cash = self.cash.saturating_sub(price - used);
    }

    /// Play is forced by a must-play card on top (Residential Area, Trailer Park) or the Mall obligation.
    fn play_is_forced(&self) -> bool {
        let seat = &self.seats[self.current];
        self.forced || seat.known.top().is_some_and(|f| FACES[f].must_play)
    }

    fn push_recycles(&self, out: &mut impl ActionSink) {
        let seat = &self.seats[self.current];
        for f in faces::<F>(self.rules.recyclable) {
            if seat.discard[f] == 0 {
                continue;
            }
            if self.rules.recycle(f) != Recycle::None {
                out.push(Self::RECYCLE + f as u32);
            }
        }
    }

    /// `shuffle k` for k = 0 .. the Office among the cards shuffled: the discard pile's and, at a Trade
    /// Center's shuffle, the deck's (FC interp. 6: "When you would shuffle this card" holds for every one).
    fn push_shuffles(&self, out: &mut impl ActionSink) {
        let seat = &self.seats[self.current];
        let offices = (seat.discard[OFFICE] as u32 + seat.in_deck(OFFICE)).min(10);
        for k in 0..=offices {
            out.push(Self::SHUFFLE + k);
        }
    }

    fn push_targets(&self, out: &mut impl ActionSink) {
        for t in 0..self.players() {
            if t != self.current {
                out.push(Self::TARGET + t as u32);
            }
        }
    }

    fn push_selects(&self, counts: &[u8; F], out: &mut impl ActionSink) {
        for f in 0..F {
            if counts[f] > 0 {
                out.push(Self::SELECT + f as u32);
            }
        }
    }

    fn legal_decisions(&self, out: &mut impl ActionSink) {
        let seat = &self.seats[self.current];
        match (self.phase, self.pending) {
            (Phase::Over, _) => {}
            (_, Pending::Shuffle) => self.push_shuffles(out),
            (_, Pending::AirportAside) => {
                for k in 0..=seat.in_deck(OFFICE).min(10) {
                    out.push(Self::SHUFFLE + k);
                }
            }
            (_, Pending::GiveApartment | Pending::GiveResidential | Pending::GiveResort) => {
                self.push_targets(out)
            }
            (_, Pending::Remove) => {
                for f in 0..F {
                    if self.supply[f] > 0 {
                        out.push(Self::REMOVE + f as u32);
                    }
                }
            }
            (_, Pending::Market) => self.push_selects(&self.play_area, out),
            (_, Pending::Airport) => {
                for t in 0..self.players() {
                    if total(&self.seats[t].discard) > 0 {
                        out.push(Self::TARGET + t as u32);
                    }
                }
            }
            (_, Pending::AirportCard) => {
                if let Some(c) = self.chosen {
                    self.push_selects(&self.seats[c].discard, out);
                }
            }
            // A chance node: never asked for decisions.
            (_, Pending::Bottom) => {}
            (Phase::Play, Pending::None) => {
                if !seat.deck_is_empty() {
                    out.push(Self::PLAY);
                    // FC interp. 20: "After you play each card, you must decide whether to play an
                    // additional card, or stop" -- the first card is played (or the deck shuffled) first.
                    let may_stop = self.played > 0 || self.shuffled || self.rules.stop_before_play;
                    if may_stop && !self.play_is_forced() {
                        out.push(Self::STOP);
                    }
                } else {
                    out.push(Self::STOP);
                    // FC interp. 13, W 9: only a shuffle that moves a card (Interchanges stay behind).
                    if (0..F).any(|f| f != INTERCHANGE && seat.discard[f] > 0) {
                        self.push_shuffles(out);
                    }
                }
                self.push_recycles(out);
            }
            (Phase::Build, Pending::None) => {
                out.push(Self::END);
                let flip_money = self.cash + self.flip_cash;
                let can_buy = self.extra_buys > 0 || self.main;
                let can_flip = self.extra_flips > 0 || self.main;
                // Only the faces that can take part (the game's piles, the faces with a flip fee): a playout
                // spends much of its time here, and most faces of the table are neither.
                for f in faces::<F>(self.rules.pile_faces) {
                    if self.supply[f] == 0 {
                        continue;
                    }
                    let cost = FACES[f].cost.unwrap_or(0);
                    if can_buy && cost <= self.cash {
                        out.push(Self::BUY + f as u32);
                    }
                    if let (true, Some(fee)) = (self.main, self.fee(f)) {
                        if cost + fee <= flip_money {
                            out.push(Self::DEVELOP + f as u32);
                        }
                    }
                }
                if can_flip {
                    for f in faces::<F>(self.rules.flippable) {
                        if seat.discard[f] > 0 && self.fee(f).is_some_and(|fee| fee <= flip_money) {
                            out.push(Self::FLIP + f as u32);
                        }
                    }
                }
                if Self::FAMILY && self.digs > 0 && self.cash >= 20 {
                    out.push(Self::EXCAVATE);
                }
                // W 7 (`dig=recycle`): "Recycle Ability: Pay 20 cash to gain 3 points" of an Archaeology
                // Site in the discard pile, "during the Building phase".
                if !self.rules.dig_played
                    && count(&seat.discard, ARCHAEOLOGY_SITE) > 0
                    && self.cash >= 20
                {
                    out.push(Self::RECYCLE + ARCHAEOLOGY_SITE as u32);
                }
            }
        }
    }

    // ----- transitions ---------------------------------------------------------------------------------

    /// The end of a turn (FC §4.4, W §4.5), by `end`, by going over the limit, or by a solo loss.
    fn end_turn(&mut self, solo_lost: bool) {
        let played = self.play_area;
        let seat = self.me();
        for f in 0..F {
            seat.discard[f] += played[f];
        }
        self.play_area = [0; F];
        self.cash = 0;
        self.points = 0;
        self.unhappiness = 0;
        self.limit_bonus = 0;
        self.extra_buys = 0;
        self.extra_flips = 0;
        self.forced = false;
        self.main = false;
        self.discount = 0;
        self.played = 0;
        self.store_played = false;
        self.shuffled = false;
        self.pending = Pending::None;
        self.flip_cash = 0;
        self.digs = 0;
        self.chosen = None;
        // No cap needed: the game is over at `max_turns x players`, the reader's bound for `turn`.
        self.turn += 1;
        let limit_reached = self.turn >= self.rules.max_turns * self.players() as u32;
        if self.winner.is_some() || solo_lost || limit_reached {
            self.phase = Phase::Over;
        } else {
            self.current = (self.current + 1) % self.players();
            self.phase = Phase::Play;
            // Camping Grounds bought on this seat's previous turn (W 12).
            let seat = self.me();
            let bonus = std::mem::take(&mut seat.limit_next);
            self.limit_bonus = bonus;
        }
    }

    fn supply_is_empty(&self) -> bool {
        total(&self.supply) == 0
    }

    fn play_top_card(&mut self) {
        let Some(face) = self.me().known.pop_top() else {
            return;
        };
        self.forced = false;
        self.play_area[face] += 1;
        // No cap needed: while cards are played, `played` is the play area's card count (FC §7).
        self.played += 1;
        self.store_played |= face == CONVENIENCE_STORE;
        gain(&mut self.cash, self.rules.cash(face));
        gain(&mut self.points, self.rules.points(face));
        gain(&mut self.unhappiness, self.rules.unhappiness(face));
        if self.unhappiness > self.limit() {
            // Rule A.3: the turn ends at once; the card's effect does not happen.
            self.end_turn(false);
            return;
        }
        match face {
            SHOPPING_MALL => self.forced = !self.me().deck_is_empty(),
            HOSPITAL => gain(&mut self.cash, self.unhappiness),
            CHURCH => gain(&mut self.limit_bonus, 1),
            FACTORY => {
                let seat = self.me();
                // W §4.1: a known bottom card goes without a chance node; an unknown one is a chance node.
                if let Some(bottom) = seat.known.take_bottom() {
                    seat.discard[bottom] += 1;
                } else if seat.has_unknown() {
                    self.pending = Pending::Bottom;
                } else if let Some(bottom) = seat.known.take_last_of_top() {
                    seat.discard[bottom] += 1;
                }
            }
            TRADE_CENTER => {
                dec(&mut self.play_area[TRADE_CENTER]);
                self.play_area[OFFICE] += 1;
                self.pending = Pending::Shuffle;
            }
            POWER_PLANT if self.players() > 1 && self.me().discard[APARTMENT] > 0 => {
                self.pending = Pending::GiveApartment;
            }
            _ => {}
        }
    }

    /// Shuffle the discard pile into the deck, setting `aside` Office on top (FC §4.1, W §4.1 "shuffle k"):
    /// the Interchanges stay in the discard pile (W 9).
    fn shuffle(&mut self, aside: usize) {
        let seat = self.me();
        seat.shuffle_deck();
        for f in 0..F {
            if f != INTERCHANGE {
                seat.unknown[f] += seat.discard[f];
                seat.discard[f] = 0;
            }
        }
        let aside = aside.min(seat.unknown[OFFICE] as usize);
        seat.unknown[OFFICE] -= aside as u8;
        for _ in 0..aside {
            seat.known.push_top(OFFICE);
        }
        self.shuffled = true;
        self.pending = if self.rules.solo() {
            Pending::Remove
        } else {
            Pending::None
        };
    }

    fn recycle(&mut self, face: usize) {
        let recycle = self.rules.recycle(face);
        let seat = self.me();
        dec(&mut seat.discard[face]);
        match recycle {
            Recycle::ToDeckTop => {
                seat.known.push_top(face ^ 1);
            }
            Recycle::ToDeckBottom => seat.put_at_bottom(face ^ 1),
            _ => seat.discard[face ^ 1] += 1,
        }
        match recycle {
            Recycle::Cash => gain(&mut self.cash, 1),
            Recycle::Point => gain(&mut self.points, 1),
            Recycle::Limit => gain(&mut self.limit_bonus, 1),
            Recycle::Interchange => gain(&mut self.cash, self.rules.interchange_cash as u32),
            Recycle::Airport => self.pending = Pending::Airport,
            Recycle::Reservoir => {
                let r = self.rules.reservoir_recycle;
                if r != ReservoirRecycle::Cash {
                    gain(&mut self.limit_bonus, 1);
                }
                if r != ReservoirRecycle::Limit {
                    gain(&mut self.flip_cash, 3);
                }
            }
            Recycle::ToDeckTop | Recycle::ToDeckBottom | Recycle::None => {}
        }
    }

    fn stop(&mut self) {
        self.forced = false;
        self.phase = Phase::Build;
        self.main = true;
        self.extra_buys = self.play_area[CENTRAL_PARK] as u32;
        self.extra_flips = self.play_area[STATION] as u32;
        // FC interp. 14: "Flip fees are 1 less this turn", for each Station (`station_stack`).
        let stations = self.play_area[STATION] as u32;
        self.discount = if self.rules.station_stack {
            stations
        } else {
            stations.min(1)
        };
        self.shuffled = false;
        // W 7: one 20-for-3 per Archaeology Site played, under `dig=played` only.
        self.digs = if self.rules.dig_played {
            count(&self.play_area, ARCHAEOLOGY_SITE) as u32
        } else {
            0
        };
    }

    /// A card of pile `face` to the discard pile as `as_face`, then the solo loss or the on-buy effect.
    fn take_from_supply(&mut self, face: usize, as_face: usize) {
        dec(&mut self.supply[face]);
        self.me().discard[as_face] += 1;
        if self.rules.solo() && self.supply_is_empty() {
            // FC interp. 16, W 22: lost at once, before any on-buy effect.
            self.end_turn(true);
            return;
        }
        match face {
            FARMERS_MARKET if total(&self.play_area) > 0 => self.pending = Pending::Market,
            WIND_FARM => gain(&mut self.extra_flips, 1),
            CAMPING_GROUNDS => gain(&mut self.me().limit_next, 1),
            _ => {}
        }
    }

    fn buy(&mut self, face: usize) {
        if self.extra_buys > 0 {
            self.extra_buys -= 1;
        } else {
            self.main = false;
        }
        let cost = FACES[face].cost.unwrap_or(0);
        self.cash = self.cash.saturating_sub(cost);
        self.take_from_supply(face, face);
    }

    fn develop(&mut self, face: usize) {
        self.main = false;
        let price = FACES[face].cost.unwrap_or(0) + self.fee(face).unwrap_or(0);
        self.pay_flip(price);
        self.take_from_supply(face, face ^ 1);
    }

    fn flip(&mut self, face: usize) {
        if self.extra_flips > 0 {
            self.extra_flips -= 1;
        } else {
            self.main = false;
        }
        let fee = self.fee(face).unwrap_or(0);
        self.pay_flip(fee);
        let cur = self.current;
        dec(&mut self.seats[cur].discard[face]);
        match face {
            // FC interp. 9, W 4 and Solo 4: the card leaves its owner; removed in solo.
            APARTMENT | COUNTRY_RESORT if self.rules.solo() => self.removed[face] += 1,
            APARTMENT => self.pending = Pending::GiveResidential,
            COUNTRY_RESORT => self.pending = Pending::GiveResort,
            _ => self.seats[cur].discard[face ^ 1] += 1,
        }
    }

    /// The Archaeology Site's recycle in the Building phase (W 7, `dig=recycle`): pay 20 cash, gain 3 points;
    /// the card turns over to a Logging Site and stays in the discard pile. Not the Building action.
    fn dig_recycle(&mut self, face: usize) {
        let seat = self.me();
        if face != ARCHAEOLOGY_SITE || count(&seat.discard, ARCHAEOLOGY_SITE) == 0 {
            return;
        }
        dec(&mut seat.discard[ARCHAEOLOGY_SITE]);
        seat.discard[LOGGING_SITE] += 1;
        self.cash = self.cash.saturating_sub(20);
        gain(&mut self.points, 3);
    }

    /// The Archaeology Site's 20 cash for 3 points (W 7, `dig=played`): not the Building action.
    fn excavate(&mut self) {
        self.cash = self.cash.saturating_sub(20);
        gain(&mut self.points, 3);
        self.digs = self.digs.saturating_sub(1);
    }

    fn end_building(&mut self) {
        let points = self.points;
        let seat = self.me();
        seat.best = seat.best.max(points);
        // W 14: 8 points, or the condition printed on a played Convenience Store: "If you play 18 or more
        // cards this turn, you win!" counts the cards played, removed ones included (W 8).
        if points >= 8 || (self.store_played && self.played >= 18) {
            self.winner = Some(self.current);
        }
        self.end_turn(false);
    }

    fn target(&mut self, seat: usize) {
        if seat >= self.players() {
            return;
        }
        match self.pending {
            Pending::GiveApartment => {
                dec(&mut self.me().discard[APARTMENT]);
                self.seats[seat].discard[APARTMENT] += 1;
            }
            Pending::GiveResidential => self.seats[seat].discard[RESIDENTIAL_AREA] += 1,
            Pending::GiveResort => {
                // W 4: the Trailer Park joins the opponent's draw deck, which is shuffled.
                let target = &mut self.seats[seat];
                target.shuffle_deck();
                if let Some(c) = target.unknown.get_mut(TRAILER_PARK) {
                    *c += 1;
                }
            }
            Pending::Airport => {
                self.chosen = Some(seat);
                self.pending = Pending::AirportCard;
                return;
            }
            _ => {}
        }
        self.pending = Pending::None;
    }

    fn select(&mut self, face: usize) {
        match (self.pending, self.chosen) {
            (Pending::Market, _) => {
                // W 8: what the card provided stays provided.
                dec(&mut self.play_area[face]);
                self.removed[face] += 1;
                self.pending = Pending::None;
            }
            (Pending::AirportCard, Some(c)) => {
                let seat = &mut self.seats[c];
                dec(&mut seat.discard[face]);
                seat.shuffle_deck();
                seat.unknown[face] += 1;
                self.chosen = None;
                self.pending = Pending::None;
                if c == self.current && self.seats[c].in_deck(OFFICE) > 0 {
                    // W 20: the seat shuffles its own deck, so its Office may be set aside.
                    self.pending = Pending::AirportAside;
                } else {
                    self.after_airport_shuffle();
                }
            }
            _ => {}
        }
    }

    /// W 19: a shuffle of the seat's own deck, so a removal in solo.
    fn after_airport_shuffle(&mut self) {
        if self.rules.solo() {
            self.pending = Pending::Remove;
        }
    }

    /// W 20: `aside` Office of the deck the Airport just shuffled go on top of it ("placing it on top
    /// afterwards"); the rest stays unknown.
    fn airport_aside(&mut self, aside: usize) {
        let seat = self.me();
        let aside = aside.min(seat.unknown[OFFICE] as usize);
        seat.unknown[OFFICE] -= aside as u8;
        for _ in 0..aside {
            seat.known.push_top(OFFICE);
        }
        self.pending = Pending::None;
        self.after_airport_shuffle();
    }

    fn remove(&mut self, face: usize) {
        dec(&mut self.supply[face]);
        self.removed[face] += 1;
        self.pending = Pending::None;
        if self.supply_is_empty() {
            self.end_turn(true);
        }
    }

    fn apply_chance(&mut self, face: usize) {
        if self.pending == Pending::Bottom {
            self.pending = Pending::None;
            let seat = self.me();
            seat.take_unknown(face);
            seat.discard[face] += 1;
        } else if let Some(s) = self.seat_to_reveal() {
            let seat = &mut self.seats[s];
            seat.known.push_top(face);
            seat.take_unknown(face);
        }
    }

    fn apply_decision(&mut self, action: u32) {
        let arg = |base: u32| (action - base) as usize;
        match action {
            PLAY => self.play_top_card(),
            STOP => self.stop(),
            END => self.end_building(),
            a if a < Self::RECYCLE && self.pending == Pending::AirportAside => {
                self.airport_aside(arg(Self::SHUFFLE))
            }
            a if a < Self::RECYCLE => self.shuffle(arg(Self::SHUFFLE)),
            a if a < Self::BUY && self.phase == Phase::Build => {
                self.dig_recycle(arg(Self::RECYCLE))
            }
            a if a < Self::BUY => self.recycle(arg(Self::RECYCLE)),
            a if a < Self::DEVELOP => self.buy(arg(Self::BUY)),
            a if a < Self::FLIP => self.develop(arg(Self::DEVELOP)),
            a if a < Self::TARGET => self.flip(arg(Self::FLIP)),
            a if a < Self::REMOVE => self.target(arg(Self::TARGET)),
            a if a < Self::SELECT => self.remove(arg(Self::REMOVE)),
            a if Self::FAMILY && a < Self::EXCAVATE => self.select(arg(Self::SELECT)),
            a if Self::FAMILY && a == Self::EXCAVATE => self.excavate(),
            _ => {}
        }
    }

    /// The chance kind of this node, for notation: the Factory's bottom card or a revealed top card.
    pub fn chance_is_bottom(&self) -> bool {
        self.pending == Pending::Bottom
    }

    fn chance_counts(&self) -> Option<&[u8; F]> {
        if self.phase == Phase::Over {
            None
        } else if self.pending == Pending::Bottom {
            Some(&self.seats[self.current].unknown)
        } else if self.pending == Pending::AirportAside {
            // The Office is set aside before the shuffled deck's top card is revealed.
            None
        } else {
            self.seat_to_reveal().map(|s| &self.seats[s].unknown)
        }
    }
}

impl<const F: usize, const CAP: usize> State for FlipState<F, CAP> {
    fn current_player(&self) -> Player {
        if self.phase == Phase::Over {
            TERMINAL
        } else if self.chance_counts().is_some() {
            CHANCE
        } else {
            self.current as Player
        }
    }

    fn legal_actions(&self, out: &mut Vec<u32>) {
        out.clear();
        if let Some(counts) = self.chance_counts() {
            out.extend((0..F).filter(|&f| counts[f] > 0).map(|f| f as u32));
        } else if self.phase != Phase::Over {
            self.legal_decisions(out);
            out.sort_unstable();
        }
    }

    fn chance_weights(&self, out: &mut Vec<(u32, u64)>) {
        out.clear();
        if let Some(counts) = self.chance_counts() {
            out.extend(
                (0..F)
                    .filter(|&f| counts[f] > 0)
                    .map(|f| (f as u32, counts[f] as u64)),
            );
        }
    }

    /// The unknown deck's counts are the weights (face ids ascending): one draw over them, no list built.
    #[inline]
    fn sample_chance(&self, rng: &mut Rng, _scratch: &mut Vec<(u32, u64)>) -> Option<u32> {
        pick_by_count(self.chance_counts()?, rng)
    }

    fn is_legal(&self, action: u32) -> bool {
        if let Some(counts) = self.chance_counts() {
            return (action as usize) < F && counts[action as usize] > 0;
        }
        if self.phase == Phase::Over || action >= Self::NUM_ACTIONS {
            return false;
        }
        let mut finder = Finder::new(action);
        self.legal_decisions(&mut finder);
        finder.found
    }

    fn apply_unchecked(&mut self, action: u32) {
        if self.chance_counts().is_some() {
            if (action as usize) < F {
                self.apply_chance(action as usize);
            }
        } else if self.phase != Phase::Over && action < Self::NUM_ACTIONS {
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
        if let Some(w) = self.winner {
            if let Some(r) = out.get_mut(w) {
                *r = 1.0;
            }
        }
    }

    fn scores(&self, out: &mut [f64]) {
        for (o, seat) in out.iter_mut().zip(&self.seats[..self.players()]) {
            *o = seat.best as f64;
        }
    }

    fn observation_tensor(&self, player: usize, out: &mut [f32]) {
        super::observation::write(self, player, out)
    }

    /// The same writer, generic over the element: u8 rows are written directly (a quarter of the zeroing and
    /// no conversion pass).
    fn observation_tensor_u8(&self, player: usize, out: &mut [u8], _: &mut [f32]) {
        super::observation::write(self, player, out)
    }

    fn legal_actions_unordered(&self, out: &mut Vec<u32>) {
        out.clear();
        if let Some(counts) = self.chance_counts() {
            out.extend((0..F).filter(|&f| counts[f] > 0).map(|f| f as u32));
        } else if self.phase != Phase::Over {
            self.legal_decisions(out);
        }
    }

    fn observation_string(&self, player: usize) -> String {
        super::observation::text(self, Some(player))
    }

    fn information_state_string(&self, player: usize, history: &[u32]) -> String {
        let ids: Vec<String> = history.iter().map(|a| a.to_string()).collect();
        format!("seat={player} history={}", ids.join(","))
    }

    fn serialize(&self, history: &[u32]) -> String {
        super::serial::serialize(self, history)
    }

    /// The Flip City family has no private information (FC §3, W §3): every seat knows the whole state.
    fn resample_from_infostate(&self, _player: usize, _rng: &mut Rng) -> Self {
        *self
    }

    fn to_text(&self) -> String {
        super::observation::text(self, None)
    }

    /// For a game cut short: each seat's progress toward a winning turn (heuristic.rs).
    fn heuristic_value(&self, out: &mut [f64]) {
        if self.phase == Phase::Over {
            return self.returns(out);
        }
        out.iter_mut().for_each(|o| *o = 0.0);
        self.progress_values(out);
    }
}
