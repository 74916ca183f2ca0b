//! The state of a Flip City game and its rules of play (docs/rules/flip_city.md §3-4).

use super::cards::*;
use super::notation::*;
use super::Rules;
use crate::{ActionSink, Finder, Player, Rng, State, CHANCE, TERMINAL};

/// Room for every card of the game in one deck's known part, so no legal sequence can overflow it.
pub const KNOWN_CAPACITY: usize = 96;

/// The known top part of a deck. Stored bottom-up, so the top card is the last element and playing it is a pop.
#[derive(Clone, Copy)]
pub struct KnownCards {
    cards: [u8; KNOWN_CAPACITY],
    len: u8,
}

// Only the live cards count: bytes past `len` are leftovers.
impl PartialEq for KnownCards {
    fn eq(&self, other: &Self) -> bool {
        self.cards[..self.len()] == other.cards[..other.len()]
    }
}

impl Eq for KnownCards {}

impl std::fmt::Debug for KnownCards {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.top_first()).finish()
    }
}

impl Default for KnownCards {
    fn default() -> Self {
        KnownCards {
            cards: [0; KNOWN_CAPACITY],
            len: 0,
        }
    }
}

impl KnownCards {
    pub fn len(&self) -> usize {
        self.len as usize
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn top(&self) -> Option<usize> {
        self.len
            .checked_sub(1)
            .map(|i| self.cards[i as usize] as usize)
    }
    /// Put a card on top; false (and no change) when full, which card conservation rules out.
    pub fn push_top(&mut self, face: usize) -> bool {
        if self.len() == KNOWN_CAPACITY {
            return false;
        }
        self.cards[self.len()] = face as u8;
        self.len += 1;
        true
    }
    pub fn pop_top(&mut self) -> Option<usize> {
        let top = self.top()?;
        self.len -= 1;
        Some(top)
    }
    pub fn take_bottom(&mut self) -> Option<usize> {
        if self.len == 0 {
            return None;
        }
        let bottom = self.cards[0] as usize;
        let len = self.len();
        self.cards.copy_within(1..len, 0);
        self.len -= 1;
        Some(bottom)
    }
    /// Top card first, as the serialization lists them.
    pub fn top_first(&self) -> impl Iterator<Item = usize> + '_ {
        self.cards[..self.len()].iter().rev().map(|&f| f as usize)
    }
    pub fn clear(&mut self) {
        self.len = 0;
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Seat {
    pub known: KnownCards,
    pub unknown: [u8; NUM_FACES],
    pub discard: [u8; NUM_FACES],
    pub best: u32,
}

impl Seat {
    pub fn deck_is_empty(&self) -> bool {
        self.known.is_empty() && self.unknown.iter().all(|&c| c == 0)
    }
    fn needs_reveal(&self) -> bool {
        self.known.is_empty() && self.unknown.iter().any(|&c| c > 0)
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
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct FlipCityState {
    pub rules: Rules,
    pub seats: [Seat; super::MAX_PLAYERS],
    pub supply: [u8; NUM_FACES],
    pub removed: [u8; NUM_FACES],
    pub play_area: [u8; NUM_FACES],
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
    pub discount: bool,
    pub winner: Option<usize>,
}

fn total(counts: &[u8; NUM_FACES]) -> u32 {
    counts.iter().map(|&c| c as u32).sum()
}

impl FlipCityState {
    pub fn new(rules: Rules) -> Self {
        let mut seats = [Seat::default(); super::MAX_PLAYERS];
        for seat in seats.iter_mut().take(rules.players) {
            seat.unknown = STARTING_DECK;
        }
        FlipCityState {
            rules,
            seats,
            supply: rules.initial_supply(),
            removed: [0; NUM_FACES],
            play_area: [0; NUM_FACES],
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
            discount: false,
            winner: None,
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

    fn me(&mut self) -> &mut Seat {
        &mut self.seats[self.current]
    }

    fn fee(&self, face: usize) -> Option<u32> {
        FACES[face].flip_fee.map(|fee| {
            if self.discount {
                fee.saturating_sub(1)
            } else {
                fee
            }
        })
    }

    fn play_is_forced(&self) -> bool {
        let seat = &self.seats[self.current];
        self.forced || seat.known.top() == Some(RESIDENTIAL_AREA)
    }

    fn push_recycles(&self, out: &mut impl ActionSink) {
        let seat = &self.seats[self.current];
        for f in (1..NUM_FACES).step_by(2) {
            if seat.discard[f] > 0 && self.rules.recycle(f) != Recycle::None {
                out.push(RECYCLE + f as u32);
            }
        }
    }

    fn push_shuffles(&self, out: &mut impl ActionSink) {
        let offices = self.seats[self.current].discard[OFFICE].min(10) as u32;
        for k in 0..=offices {
            out.push(SHUFFLE + k);
        }
    }

    fn push_targets(&self, out: &mut impl ActionSink) {
        for t in 0..self.players() {
            if t != self.current {
                out.push(TARGET + t as u32);
            }
        }
    }

    fn legal_decisions(&self, out: &mut impl ActionSink) {
        let seat = &self.seats[self.current];
        match (self.phase, self.pending) {
            (_, Pending::Shuffle) => self.push_shuffles(out),
            (_, Pending::GiveApartment) | (_, Pending::GiveResidential) => self.push_targets(out),
            (_, Pending::Remove) => {
                for f in 0..NUM_FACES {
                    if self.supply[f] > 0 {
                        out.push(REMOVE + f as u32);
                    }
                }
            }
            (Phase::Play, _) => {
                if !seat.deck_is_empty() {
                    out.push(PLAY);
                    if !self.play_is_forced() {
                        out.push(STOP);
                    }
                } else {
                    out.push(STOP);
                    if total(&seat.discard) > 0 {
                        self.push_shuffles(out);
                    }
                }
                self.push_recycles(out);
            }
            (Phase::Build, _) => {
                out.push(END);
                for f in 0..NUM_FACES {
                    if let Some(cost) = FACES[f].cost {
                        if self.supply[f] > 0
                            && cost <= self.cash
                            && (self.extra_buys > 0 || self.main)
                        {
                            out.push(BUY + f as u32);
                        }
                    }
                }
                if self.main {
                    for f in 0..NUM_FACES {
                        if let (Some(cost), Some(fee)) = (FACES[f].cost, self.fee(f)) {
                            if self.supply[f] > 0 && cost + fee <= self.cash {
                                out.push(DEVELOP + f as u32);
                            }
                        }
                    }
                }
                if self.extra_flips > 0 || self.main {
                    for f in 0..NUM_FACES {
                        if let Some(fee) = self.fee(f) {
                            if seat.discard[f] > 0 && fee <= self.cash {
                                out.push(FLIP + f as u32);
                            }
                        }
                    }
                }
            }
            (Phase::Over, _) => {}
        }
    }

    // ----- transitions ---------------------------------------------------------------------------------

    /// The end of a turn (§4.4), by `end`, by going over the limit, or by a solo loss.
    fn end_turn(&mut self, solo_lost: bool) {
        let played = self.play_area;
        let seat = self.me();
        for f in 0..NUM_FACES {
            seat.discard[f] += played[f];
        }
        self.play_area = [0; NUM_FACES];
        self.cash = 0;
        self.points = 0;
        self.unhappiness = 0;
        self.limit_bonus = 0;
        self.extra_buys = 0;
        self.extra_flips = 0;
        self.forced = false;
        self.main = false;
        self.discount = false;
        self.pending = Pending::None;
        self.turn += 1;
        let limit_reached = self.turn >= self.rules.max_turns * self.players() as u32;
        if self.winner.is_some() || solo_lost || limit_reached {
            self.phase = Phase::Over;
        } else {
            self.current = (self.current + 1) % self.players();
            self.phase = Phase::Play;
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
        self.cash += self.rules.cash(face);
        self.points += FACES[face].points;
        self.unhappiness += self.rules.unhappiness(face);
        if self.unhappiness > self.limit() {
            // Rule A.3: the turn ends at once; the card's effect does not happen.
            self.end_turn(false);
            return;
        }
        match face {
            SHOPPING_MALL => self.forced = !self.me().deck_is_empty(),
            HOSPITAL => self.cash += self.unhappiness,
            CHURCH => self.limit_bonus += 1,
            FACTORY => {
                let seat = self.me();
                if seat.unknown.iter().any(|&c| c > 0) {
                    self.pending = Pending::Bottom;
                } else if let Some(bottom) = seat.known.take_bottom() {
                    seat.discard[bottom] += 1;
                }
            }
            TRADE_CENTER => {
                self.play_area[TRADE_CENTER] -= 1;
                self.play_area[OFFICE] += 1;
                self.pending = Pending::Shuffle;
            }
            POWER_PLANT if self.players() > 1 && self.me().discard[APARTMENT] > 0 => {
                self.pending = Pending::GiveApartment;
            }
            _ => {}
        }
    }

    /// Shuffle the discard pile into the deck, setting `aside` Office on top (§4.1 "shuffle k").
    fn shuffle(&mut self, aside: usize) {
        let seat = self.me();
        let mut deck = seat.unknown;
        while let Some(face) = seat.known.pop_top() {
            deck[face] += 1;
        }
        for f in 0..NUM_FACES {
            deck[f] += seat.discard[f];
        }
        deck[OFFICE] -= aside as u8;
        for _ in 0..aside {
            seat.known.push_top(OFFICE);
        }
        seat.unknown = deck;
        seat.discard = [0; NUM_FACES];
        self.pending = if self.rules.solo() {
            Pending::Remove
        } else {
            Pending::None
        };
    }

    fn recycle(&mut self, face: usize) {
        let recycle = self.rules.recycle(face);
        let seat = self.me();
        seat.discard[face] -= 1;
        match recycle {
            Recycle::ToDeckTop => {
                seat.known.push_top(face ^ 1);
            }
            _ => seat.discard[face ^ 1] += 1,
        }
        match recycle {
            Recycle::Cash => self.cash += 1,
            Recycle::Point => self.points += 1,
            Recycle::Limit => self.limit_bonus += 1,
            Recycle::ToDeckTop | Recycle::None => {}
        }
    }

    fn stop(&mut self) {
        self.forced = false;
        self.phase = Phase::Build;
        self.main = true;
        self.extra_buys = self.play_area[CENTRAL_PARK] as u32;
        self.extra_flips = self.play_area[STATION] as u32;
        self.discount = self.play_area[STATION] > 0;
    }

    fn take_from_supply(&mut self, face: usize, as_face: usize, price: u32) {
        self.cash -= price;
        self.supply[face] -= 1;
        self.me().discard[as_face] += 1;
        if self.rules.solo() && self.supply_is_empty() {
            self.end_turn(true);
        }
    }

    fn buy(&mut self, face: usize) {
        if self.extra_buys > 0 {
            self.extra_buys -= 1;
        } else {
            self.main = false;
        }
        let cost = FACES[face].cost.unwrap_or(0);
        self.take_from_supply(face, face, cost);
    }

    fn develop(&mut self, face: usize) {
        self.main = false;
        let price = FACES[face].cost.unwrap_or(0) + self.fee(face).unwrap_or(0);
        self.take_from_supply(face, face ^ 1, price);
    }

    fn flip(&mut self, face: usize) {
        if self.extra_flips > 0 {
            self.extra_flips -= 1;
        } else {
            self.main = false;
        }
        self.cash -= self.fee(face).unwrap_or(0);
        let cur = self.current;
        self.seats[cur].discard[face] -= 1;
        if face != APARTMENT {
            self.seats[cur].discard[face ^ 1] += 1;
        } else if self.rules.solo() {
            self.removed[APARTMENT] += 1;
        } else {
            self.pending = Pending::GiveResidential;
        }
    }

    fn end_building(&mut self) {
        let points = self.points;
        let seat = self.me();
        seat.best = seat.best.max(points);
        let played: u32 = total(&self.play_area);
        if points >= 8 || (self.play_area[CONVENIENCE_STORE] > 0 && played >= 18) {
            self.winner = Some(self.current);
        }
        self.end_turn(false);
    }

    fn target(&mut self, seat: usize) {
        match self.pending {
            Pending::GiveApartment => {
                self.me().discard[APARTMENT] -= 1;
                self.seats[seat].discard[APARTMENT] += 1;
            }
            Pending::GiveResidential => self.seats[seat].discard[RESIDENTIAL_AREA] += 1,
            _ => {}
        }
        self.pending = Pending::None;
    }

    fn remove(&mut self, face: usize) {
        self.supply[face] -= 1;
        self.removed[face] += 1;
        self.pending = Pending::None;
        if self.supply_is_empty() {
            self.end_turn(true);
        }
    }

    fn apply_chance(&mut self, face: usize) {
        if self.pending == Pending::Bottom {
            let seat = self.me();
            seat.unknown[face] -= 1;
            seat.discard[face] += 1;
            self.pending = Pending::None;
        } else if let Some(s) = self.seat_to_reveal() {
            let seat = &mut self.seats[s];
            seat.unknown[face] -= 1;
            seat.known.push_top(face);
        }
    }

    fn apply_decision(&mut self, action: u32) {
        let arg = |base: u32| (action - base) as usize;
        match action {
            PLAY => self.play_top_card(),
            STOP => self.stop(),
            END => self.end_building(),
            a if a < RECYCLE => self.shuffle(arg(SHUFFLE)),
            a if a < BUY => self.recycle(arg(RECYCLE)),
            a if a < DEVELOP => self.buy(arg(BUY)),
            a if a < FLIP => self.develop(arg(DEVELOP)),
            a if a < TARGET => self.flip(arg(FLIP)),
            a if a < REMOVE => self.target(arg(TARGET)),
            a if a < NUM_ACTIONS => self.remove(arg(REMOVE)),
            _ => {}
        }
    }

    /// The chance kind of this node, for notation: the Factory's bottom card or a revealed top card.
    pub fn chance_is_bottom(&self) -> bool {
        self.pending == Pending::Bottom
    }

    fn chance_counts(&self) -> Option<&[u8; NUM_FACES]> {
        if self.phase == Phase::Over {
            None
        } else if self.pending == Pending::Bottom {
            Some(&self.seats[self.current].unknown)
        } else {
            self.seat_to_reveal().map(|s| &self.seats[s].unknown)
        }
    }
}

impl State for FlipCityState {
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
            out.extend((0..NUM_FACES).filter(|&f| counts[f] > 0).map(|f| f as u32));
        } else if self.phase != Phase::Over {
            self.legal_decisions(out);
            out.sort_unstable();
        }
    }

    fn chance_weights(&self, out: &mut Vec<(u32, u64)>) {
        out.clear();
        if let Some(counts) = self.chance_counts() {
            out.extend(
                (0..NUM_FACES)
                    .filter(|&f| counts[f] > 0)
                    .map(|f| (f as u32, counts[f] as u64)),
            );
        }
    }

    fn is_legal(&self, action: u32) -> bool {
        if let Some(counts) = self.chance_counts() {
            return (action as usize) < NUM_FACES && counts[action as usize] > 0;
        }
        if self.phase == Phase::Over || action >= NUM_ACTIONS {
            return false;
        }
        let mut finder = Finder::new(action);
        self.legal_decisions(&mut finder);
        finder.found
    }

    fn apply_unchecked(&mut self, action: u32) {
        if self.chance_counts().is_some() {
            if (action as usize) < NUM_FACES {
                self.apply_chance(action as usize);
            }
        } else if self.phase != Phase::Over {
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

    /// Flip City has no private information (rules doc §3): every seat knows the whole state.
    fn resample_from_infostate(&self, _player: usize, _rng: &mut Rng) -> Self {
        *self
    }

    fn to_text(&self) -> String {
        super::observation::text(self, None)
    }

    /// For a game cut short: each seat's share of the points printed on the cards it owns (a city's capacity
    /// to provide the 8 points that win), so that search prefers building toward a win over drifting.
    fn heuristic_value(&self, out: &mut [f64]) {
        if self.phase == Phase::Over {
            return self.returns(out);
        }
        let mut potential = [0f64; super::MAX_PLAYERS];
        for (s, seat) in self.seats[..self.players()].iter().enumerate() {
            let mut owned = seat.unknown;
            for f in 0..NUM_FACES {
                owned[f] += seat.discard[f];
            }
            for f in seat.known.top_first() {
                owned[f] += 1;
            }
            if s == self.current {
                for f in 0..NUM_FACES {
                    owned[f] += self.play_area[f];
                }
            }
            potential[s] = (0..NUM_FACES)
                .map(|f| owned[f] as f64 * FACES[f].points as f64)
                .sum();
        }
        // A share of the table's points, but never of fewer than 16 (two winning turns' worth), so that a solo
        // city is measured too; half weight, because a promising city is not yet a won game.
        let total: f64 = potential.iter().sum::<f64>().max(16.0);
        for (o, p) in out.iter_mut().zip(potential) {
            *o = 0.5 * p / total;
        }
    }
}
