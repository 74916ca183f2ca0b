//! The rules of Line-it (docs/rules/lineit.md §4, §5): the state, the legal actions and their effects.

use super::cards::{bet_value, bits, is_bet, ALL_NUMBERS, BET0, BET_COPIES, KINDS};
use super::notation::{self, CLOSE, HAND, LINE, NUM_ACTIONS, PASS, PLAY};
use super::{observation, serial, Rules, MAX_PLAYERS};
use crate::{ActionSink, Finder, Player, Result, Rng, State, CHANCE, TERMINAL};

/// An empty hand slot.
pub const NONE: u8 = u8::MAX;

/// Line directions.
pub const UNDEFINED: u8 = 0;
pub const ASCENDING: u8 = 1;
pub const DESCENDING: u8 = 2;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    Deal,
    Turn,
    Final,
    Over,
}

/// One seat: its line (number cards as bits, the direction, the bet), its hand, its score pile and tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Seat {
    pub line: u128,
    /// `UNDEFINED` while the line holds fewer than 2 number cards.
    pub dir: u8,
    /// The bet card's value (3..5), 0 if none.
    pub bet: u8,
    /// Number cards before the bet card.
    pub before: u8,
    /// Two kinds, ascending, `NONE` for an empty slot (so empty slots come last).
    pub hand: [u8; 2],
    pub pile: u8,
    /// Tokens +3, +4, +5, -3, -4, -5.
    pub tokens: [u8; 6],
}

impl Default for Seat {
    fn default() -> Self {
        Seat {
            line: 0,
            dir: UNDEFINED,
            bet: 0,
            before: 0,
            hand: [NONE; 2],
            pile: 0,
            tokens: [0; 6],
        }
    }
}

impl Seat {
    /// N: the number cards in the line.
    #[inline]
    pub fn numbers(&self) -> u32 {
        self.line.count_ones()
    }
    #[inline]
    pub fn line_is_empty(&self) -> bool {
        self.line == 0 && self.bet == 0
    }
    #[inline]
    pub fn hand_len(&self) -> usize {
        self.hand.iter().filter(|&&k| k != NONE).count()
    }
    /// The last number card's kind (for N >= 2; for N == 1 the only one).
    #[inline]
    pub fn last(&self) -> Option<u8> {
        if self.line == 0 {
            None
        } else if self.dir == DESCENDING {
            Some(self.line.trailing_zeros() as u8)
        } else if self.dir == ASCENDING {
            Some(127 - self.line.leading_zeros() as u8)
        } else {
            Some(self.line.trailing_zeros() as u8)
        }
    }
    /// §5.3: does kind k fit this line?
    pub fn fits(&self, k: u8) -> bool {
        if is_bet(k) {
            return self.bet == 0;
        }
        if self.numbers() < 2 {
            return true;
        }
        match self.dir {
            ASCENDING => k as u32 > 127 - self.line.leading_zeros(),
            _ => (k as u32) < self.line.trailing_zeros(),
        }
    }
    pub fn hand_add(&mut self, k: u8) {
        if self.hand[0] == NONE {
            self.hand[0] = k;
        } else {
            self.hand[1] = k;
        }
        if self.hand[0] > self.hand[1] {
            self.hand.swap(0, 1);
        }
    }
    pub fn hand_remove(&mut self, k: u8) {
        if self.hand[0] == k {
            self.hand[0] = self.hand[1];
            self.hand[1] = NONE;
        } else if self.hand[1] == k {
            self.hand[1] = NONE;
        }
    }
    #[inline]
    pub fn has_in_hand(&self, k: u8) -> bool {
        self.hand[0] == k || self.hand[1] == k
    }
    /// Some hand card fits the line.
    pub fn able(&self) -> bool {
        self.hand.iter().any(|&k| k != NONE && self.fits(k))
    }
    /// §5.8: pile plus the token points.
    pub fn score(&self) -> i32 {
        let t = |i: usize| self.tokens[i] as i32;
        self.pile as i32 + 3 * (t(0) - t(3)) + 4 * (t(1) - t(4)) + 5 * (t(2) - t(5))
    }
    /// The line in play order (number kinds in the line's order, the bet kind at its position).
    pub fn line_cards(&self) -> Vec<u8> {
        let mut out: Vec<u8> = bits(self.line).collect();
        if self.dir == DESCENDING {
            out.reverse();
        }
        if self.bet != 0 {
            let at = (self.before as usize).min(out.len());
            out.insert(at, BET0 + self.bet - 3);
        }
        out
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LineItState {
    pub rules: Rules,
    pub phase: Phase,
    pub round: u8,
    pub first: u8,
    pub done: u8,
    pub final_pass: u8,
    pub taken: bool,
    pub played: bool,
    pub closed: bool,
    pub deck: u128,
    pub deck_bets: [u8; 3],
    pub market: u128,
    pub market_bets: [u8; 3],
    pub jackpot: u128,
    pub seats: [Seat; MAX_PLAYERS],
}

impl LineItState {
    pub fn new(rules: Rules) -> Self {
        LineItState {
            rules,
            phase: Phase::Deal,
            round: 1,
            first: 0,
            done: 0,
            final_pass: 0,
            taken: false,
            played: false,
            closed: false,
            deck: ALL_NUMBERS,
            deck_bets: [BET_COPIES; 3],
            market: 0,
            market_bets: [0; 3],
            jackpot: 0,
            seats: [Seat::default(); MAX_PLAYERS],
        }
    }

    #[inline]
    pub fn n(&self) -> usize {
        self.rules.n()
    }

    /// The seat to act in `turn` and `final`.
    #[inline]
    pub fn current(&self) -> usize {
        (self.first as usize + self.done as usize) % self.n()
    }

    pub fn deck_len(&self) -> u32 {
        self.deck.count_ones() + self.deck_bets.iter().map(|&b| b as u32).sum::<u32>()
    }

    pub fn market_len(&self) -> u32 {
        self.market.count_ones() + self.market_bets.iter().map(|&b| b as u32).sum::<u32>()
    }

    pub fn in_market(&self, k: u8) -> bool {
        if is_bet(k) {
            self.market_bets[(k - BET0) as usize] > 0
        } else {
            self.market >> k & 1 == 1
        }
    }

    /// The decisions of §5.4 / §5.7, ascending.
    pub(super) fn legal_decisions<S: ActionSink>(&self, out: &mut S) {
        let c = self.current();
        let seat = &self.seats[c];
        match self.phase {
            Phase::Turn => {
                if !self.taken {
                    for k in self.market_kinds() {
                        if seat.fits(k) {
                            out.push(LINE + k as u32);
                        }
                    }
                    if seat.hand_len() < 2 {
                        for k in self.market_kinds() {
                            out.push(HAND + k as u32);
                        }
                    }
                }
                if !self.played {
                    self.push_plays(seat, out);
                }
                if !self.closed && !seat.line_is_empty() {
                    out.push(CLOSE);
                }
                if self.taken {
                    out.push(PASS);
                }
            }
            Phase::Final => {
                self.push_plays(seat, out);
                out.push(PASS);
            }
            Phase::Deal | Phase::Over => {}
        }
    }

    fn push_plays<S: ActionSink>(&self, seat: &Seat, out: &mut S) {
        let [a, b] = seat.hand;
        if a != NONE && seat.fits(a) {
            out.push(PLAY + a as u32);
        }
        if b != NONE && b != a && seat.fits(b) {
            out.push(PLAY + b as u32);
        }
    }

    /// The market's kinds, ascending, each once.
    pub fn market_kinds(&self) -> impl Iterator<Item = u8> + '_ {
        bits(self.market).chain(
            (0..3u8)
                .filter(|&i| self.market_bets[i as usize] > 0)
                .map(|i| BET0 + i),
        )
    }

    /// In a turn after the take, is some `play` or `close` legal?
    fn more_to_do(&self) -> bool {
        let seat = &self.seats[self.current()];
        (!self.played && seat.able()) || (!self.closed && !seat.line_is_empty())
    }

    /// §5.3: place kind k in seat s's line, winning a jackpot on the third card of a colour.
    fn place(&mut self, s: usize, k: u8) {
        let rules = self.rules;
        let seat = &mut self.seats[s];
        if is_bet(k) {
            seat.bet = bet_value(k);
            seat.before = seat.numbers() as u8;
            return;
        }
        if seat.numbers() == 1 {
            let existing = seat.line.trailing_zeros() as u8;
            seat.dir = if k > existing { ASCENDING } else { DESCENDING };
        }
        seat.line |= 1u128 << k;
        let mask = rules.colour_masks()[rules.colour(k)];
        if (seat.line & mask).count_ones() == 3 {
            seat.pile = seat
                .pile
                .saturating_add((self.jackpot & mask).count_ones() as u8);
            self.jackpot &= !mask;
        }
    }

    /// §5.5: close seat s's line.
    pub(super) fn close_line(&mut self, s: usize) {
        let seat = &mut self.seats[s];
        let n = seat.numbers();
        if seat.bet != 0 {
            let v = seat.bet;
            let after = n.saturating_sub(seat.before as u32);
            let i = (v - 3) as usize + if after >= v as u32 { 0 } else { 3 };
            seat.tokens[i] = seat.tokens[i].saturating_add(1);
        }
        seat.pile = seat.pile.saturating_add(n.saturating_sub(3) as u8);
        seat.line = 0;
        seat.dir = UNDEFINED;
        seat.bet = 0;
        seat.before = 0;
    }

    fn end_turn(&mut self) {
        self.taken = false;
        self.played = false;
        self.closed = false;
        self.done += 1;
        if self.done as usize == self.n() {
            self.end_round();
        }
    }

    /// §5.6.
    fn end_round(&mut self) {
        self.jackpot |= self.market;
        self.market = 0;
        self.market_bets = [0; 3];
        self.done = 0;
        if self.deck_len() < self.rules.market_size() {
            self.jackpot |= self.deck;
            self.deck = 0;
            self.deck_bets = [0; 3];
            self.phase = Phase::Final;
            self.final_pass = 1;
        } else {
            self.first = ((self.first as usize + 1) % self.n()) as u8;
            self.round += 1;
            self.phase = Phase::Deal;
        }
    }

    /// Run the automatic steps until a chance node, a decision or the end (§5.2, §5.4, §5.7).
    pub(super) fn settle(&mut self) {
        loop {
            match self.phase {
                Phase::Deal => {
                    if self.market_len() < self.rules.market_size() {
                        return;
                    }
                    self.phase = Phase::Turn;
                    self.done = 0;
                }
                Phase::Turn => {
                    if self.taken && !self.more_to_do() {
                        self.end_turn();
                    } else {
                        return;
                    }
                }
                Phase::Final => {
                    if self.done as usize == self.n() {
                        if self.final_pass == 1 {
                            self.final_pass = 2;
                            self.done = 0;
                        } else {
                            for s in 0..self.n() {
                                self.close_line(s);
                            }
                            self.phase = Phase::Over;
                            self.final_pass = 0;
                            self.done = 0;
                        }
                    } else if !self.seats[self.current()].able() {
                        self.done += 1;
                    } else {
                        return;
                    }
                }
                Phase::Over => return,
            }
        }
    }

    fn apply_chance(&mut self, k: u8) {
        if k as usize >= KINDS {
            return;
        }
        if is_bet(k) {
            let i = (k - BET0) as usize;
            if self.deck_bets[i] > 0 {
                self.deck_bets[i] -= 1;
                self.market_bets[i] += 1;
            }
        } else if k < 100 {
            self.deck &= !(1u128 << k);
            self.market |= 1u128 << k;
        }
    }

    fn take_from_market(&mut self, k: u8) {
        if is_bet(k) {
            let i = (k - BET0) as usize;
            self.market_bets[i] = self.market_bets[i].saturating_sub(1);
        } else {
            self.market &= !(1u128 << k);
        }
    }

    fn apply_decision(&mut self, a: u32) {
        let c = self.current();
        if self.phase == Phase::Final {
            if (PLAY..CLOSE).contains(&a) {
                let k = (a - PLAY) as u8;
                self.seats[c].hand_remove(k);
                self.place(c, k);
            }
            self.done += 1;
            return;
        }
        match a {
            a if a < HAND => {
                let k = a as u8;
                self.take_from_market(k);
                self.place(c, k);
                self.taken = true;
            }
            a if a < PLAY => {
                let k = (a - HAND) as u8;
                self.take_from_market(k);
                self.seats[c].hand_add(k);
                self.taken = true;
            }
            a if a < CLOSE => {
                let k = (a - PLAY) as u8;
                self.seats[c].hand_remove(k);
                self.place(c, k);
                self.played = true;
            }
            CLOSE => {
                self.close_line(c);
                self.closed = true;
            }
            _ => self.end_turn(),
        }
    }

    /// Each seat's projected score: the score, what closing the line now would add, and a little for a line that
    /// can still grow (used by `heuristic_value`).
    fn projected(&self, s: usize) -> f64 {
        let seat = &self.seats[s];
        let n = seat.numbers() as f64;
        let mut x = seat.score() as f64 + (n - 3.0).max(0.0);
        if seat.bet != 0 {
            let v = seat.bet as f64;
            let after = n - seat.before as f64;
            x += if after >= v {
                v
            } else {
                -v * (1.0 - after / v)
            };
        }
        // Room left in the line: how far the last number is from the end it runs towards.
        if let Some(last) = seat.last() {
            if seat.numbers() >= 2 {
                let room = if seat.dir == ASCENDING {
                    99 - last as i32
                } else {
                    last as i32
                };
                x += 0.03 * room as f64;
            }
        }
        // Hand cards that still fit are worth part of a point.
        for &k in &seat.hand {
            if k != NONE && seat.fits(k) {
                x += 0.5;
            }
        }
        x
    }
}

impl State for LineItState {
    fn current_player(&self) -> Player {
        match self.phase {
            Phase::Deal => CHANCE,
            Phase::Over => TERMINAL,
            _ => self.current() as Player,
        }
    }

    fn legal_actions(&self, out: &mut Vec<u32>) {
        out.clear();
        match self.phase {
            Phase::Deal => {
                out.extend(bits(self.deck).map(|k| k as u32));
                for i in 0..3u8 {
                    if self.deck_bets[i as usize] > 0 {
                        out.push((BET0 + i) as u32);
                    }
                }
            }
            _ => self.legal_decisions(out),
        }
    }

    fn chance_weights(&self, out: &mut Vec<(u32, u64)>) {
        out.clear();
        if self.phase == Phase::Deal {
            out.extend(bits(self.deck).map(|k| (k as u32, 1)));
            for i in 0..3u8 {
                let w = self.deck_bets[i as usize];
                if w > 0 {
                    out.push(((BET0 + i) as u32, w as u64));
                }
            }
        }
    }

    fn is_legal(&self, action: u32) -> bool {
        match self.phase {
            Phase::Deal => {
                if action as usize >= KINDS {
                    false
                } else if action >= BET0 as u32 {
                    self.deck_bets[(action - BET0 as u32) as usize] > 0
                } else {
                    self.deck >> action & 1 == 1
                }
            }
            Phase::Over => false,
            _ => {
                if action >= NUM_ACTIONS {
                    return false;
                }
                let mut finder = Finder::new(action);
                self.legal_decisions(&mut finder);
                finder.found
            }
        }
    }

    fn apply_unchecked(&mut self, action: u32) {
        match self.phase {
            Phase::Deal => self.apply_chance(action.min(255) as u8),
            Phase::Over => return,
            _ => self.apply_decision(action),
        }
        self.settle();
    }

    fn action_to_string(&self, action: u32) -> Result<String> {
        notation::action_to_string(self, action)
    }

    fn string_to_action(&self, text: &str) -> Result<u32> {
        notation::string_to_action(self, text)
    }

    fn returns(&self, out: &mut [f64]) {
        let n = if self.phase == Phase::Over {
            self.n()
        } else {
            0
        };
        crate::outcome::share_the_win(out, n, |s| self.seats[s].score() as i64);
    }

    fn scores(&self, out: &mut [f64]) {
        for (s, o) in out.iter_mut().enumerate().take(self.n()) {
            *o = self.seats[s].score() as f64;
        }
    }

    fn observation_tensor(&self, player: usize, out: &mut [f32]) {
        observation::tensor(self, player, out)
    }

    fn observation_string(&self, player: usize) -> String {
        observation::text(self, Some(player))
    }

    fn information_state_string(&self, player: usize, history: &[u32]) -> String {
        let tokens: Vec<String> = history.iter().map(|a| a.to_string()).collect();
        format!("seat={player} history={}", tokens.join(","))
    }

    fn serialize(&self, history: &[u32]) -> String {
        serial::serialize(self, history)
    }

    /// Nothing is hidden (docs/rules/lineit.md §7.3): a clone, `rng` unused.
    fn resample_from_infostate(&self, _player: usize, _rng: &mut Rng) -> Self {
        *self
    }

    fn to_text(&self) -> String {
        observation::text(self, None)
    }

    /// The seats' projected scores (§5.8 plus what the lines in front of them promise), turned into shares of the
    /// win by a softmax with a temperature of a few points.
    fn heuristic_value(&self, out: &mut [f64]) {
        if self.phase == Phase::Over {
            return self.returns(out);
        }
        const TEMPERATURE: f64 = 3.0;
        let n = self.n();
        let mut x = [0f64; MAX_PLAYERS];
        for (s, v) in x.iter_mut().enumerate().take(n) {
            *v = self.projected(s);
        }
        crate::outcome::softmax_shares(out, &x[..n], TEMPERATURE);
    }
}
