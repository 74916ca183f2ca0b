//! The rules of Forbidden Island (docs/rules/forbidden_island.md §4 to §7): the state, the legal actions and
//! their effects, and the automatic steps between decisions (draws, windows, swims).
//!
//! Positions are bits of a `u32` (bit q = position q of the layout); the flood pile is a stack of layers, each a
//! bit set of tile ids (bit x = the flood card of tile x), stored bottom first. A seat that is stranded is not
//! stored: it is a seat whose pawn stands on a sunk position, which happens only between a sinking and its
//! swims.

use super::data::{
    bits, data, Layout, ALL, DIVER, ENGINEER, EXPLORER, FOOLS_LANDING, HAND_KINDS, HELI, KINDS,
    MESSENGER, NAVIGATOR, NONE, PILOT, ROLES, SANDBAGS, TILES, WATERS_RISE,
};
use super::notation::{
    self, CAPTURE, DISCARD, GIVE, HELI_LIFT, LIFTOFF, MOVE, NAVIGATE, NUM_ACTIONS, PASS, SANDBAG,
    SHORE, SWIM,
};
use super::{observation, serial, Rules, MAX_PLAYERS};
use crate::{ActionSink, Finder, Player, Result, Rng, State, CHANCE, TERMINAL};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    Layout,
    SetupFlood,
    Roles,
    Deal,
    Actions,
    Engineer,
    Treasure,
    Flood,
    Discard,
    Swim,
    Window,
    Over,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    Setup,
    Actions,
    Treasure,
    Flood,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Window {
    None,
    Act,
    End,
    Treasure,
    Rescue,
    Flood,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    None,
    Won,
    Lost,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Seat {
    /// 0..5, NONE before the roles are dealt to this seat.
    pub role: u8,
    /// A position, NONE before the roles are dealt to this seat.
    pub pawn: u8,
    /// Counts of kinds 0..5.
    pub hand: [u8; HAND_KINDS],
}

impl Default for Seat {
    fn default() -> Self {
        Seat {
            role: NONE,
            pawn: NONE,
            hand: [0; HAND_KINDS],
        }
    }
}

impl Seat {
    #[inline]
    pub fn held(&self) -> u32 {
        self.hand.iter().map(|&c| c as u32).sum()
    }
}

/// The bit of position (or tile) q; 0 for NONE, so that a missing pawn or tile is nowhere.
#[inline]
pub fn bit(q: u8) -> u32 {
    if (q as usize) < TILES {
        1 << q
    } else {
        0
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ForbiddenIslandState {
    pub rules: Rules,
    /// The tile on each position, NONE before it is placed.
    pub tiles: [u8; TILES],
    /// The position of each tile, NONE before it is placed.
    pub pos_of: [u8; TILES],
    /// Positions holding a tile, flooded ones, sunk ones.
    pub placed: u32,
    pub flooded: u32,
    pub sunk: u32,
    pub seats: [Seat; MAX_PLAYERS],
    /// Bit T: treasure T captured.
    pub captured: u8,
    pub level: u8,
    pub outcome: Outcome,
    pub pile: [u8; KINDS],
    pub discard: [u8; KINDS],
    /// The flood pile's layers, bottom first (`layers[num_layers - 1]` is the top), as bit sets of tiles.
    pub layers: [u32; TILES],
    pub num_layers: u8,
    pub flood_discard: u32,
    pub turn: u8,
    pub stage: Stage,
    pub actions_left: u8,
    pub pilot_flown: bool,
    pub treasure_left: u8,
    pub flood_left: u8,
    pub phase: Phase,
    pub window: Window,
    /// The window's pending seats in asking order (`pending[..pending_len]`).
    pub pending: [u8; MAX_PLAYERS],
    pub pending_len: u8,
}

impl ForbiddenIslandState {
    pub fn new(rules: Rules) -> Self {
        let mut layers = [0u32; TILES];
        layers[0] = ALL;
        ForbiddenIslandState {
            rules,
            tiles: [NONE; TILES],
            pos_of: [NONE; TILES],
            placed: 0,
            flooded: 0,
            sunk: 0,
            seats: [Seat::default(); MAX_PLAYERS],
            captured: 0,
            level: rules.start_level,
            outcome: Outcome::None,
            pile: data().card_counts,
            discard: [0; KINDS],
            layers,
            num_layers: 1,
            flood_discard: 0,
            turn: 0,
            stage: Stage::Setup,
            actions_left: 0,
            pilot_flown: false,
            treasure_left: 0,
            flood_left: 0,
            phase: Phase::Layout,
            window: Window::None,
            pending: [0; MAX_PLAYERS],
            pending_len: 0,
        }
    }

    #[inline]
    pub fn n(&self) -> usize {
        self.rules.n()
    }

    #[inline]
    pub fn layout(&self) -> &'static Layout {
        self.rules.layout()
    }

    #[inline]
    fn orth(&self, p: u8) -> u32 {
        self.layout().orth.get(p as usize).copied().unwrap_or(0)
    }

    #[inline]
    fn diag(&self, p: u8) -> u32 {
        self.layout().diag.get(p as usize).copied().unwrap_or(0)
    }

    /// Positions a pawn may stand on: placed and not sunk.
    #[inline]
    pub fn open(&self) -> u32 {
        self.placed & !self.sunk
    }

    pub fn pending_seats(&self) -> &[u8] {
        &self.pending[..self.pending_len as usize]
    }

    /// Seats whose pawn stands on a sunk position (bit s).
    pub fn stranded(&self) -> u32 {
        let mut m = 0;
        for s in 0..self.n() {
            if bit(self.seats[s].pawn) & self.sunk != 0 {
                m |= 1 << s;
            }
        }
        m
    }

    /// The seats in seat order from the turn seat (t, t + 1, ... mod n).
    fn seats_from_turn(&self) -> impl Iterator<Item = usize> {
        let (n, t) = (self.n(), self.turn as usize);
        (0..n).map(move |i| (t + i) % n)
    }

    /// The seat holding more than the hand limit (the first from the turn seat), if any.
    pub fn over_limit(&self) -> Option<usize> {
        let limit = data().hand_limit as u32;
        self.seats_from_turn()
            .find(|&s| self.seats[s].held() > limit)
    }

    /// The stranded seat that swims next (the first from the turn seat).
    pub fn next_swimmer(&self) -> Option<usize> {
        let m = self.stranded();
        self.seats_from_turn().find(|&s| m >> s & 1 == 1)
    }

    /// The seat to act at a decision node, None at chance and terminal nodes (and in a phase with nobody to
    /// act, which only a hand-made state could hold).
    pub fn acting(&self) -> Option<usize> {
        match self.phase {
            Phase::Actions | Phase::Engineer => Some(self.turn as usize),
            Phase::Discard => self.over_limit(),
            Phase::Swim => self.next_swimmer(),
            Phase::Window => self.pending_seats().first().map(|&s| s as usize),
            _ => None,
        }
    }

    pub fn is_chance(&self) -> bool {
        matches!(
            self.phase,
            Phase::Layout
                | Phase::SetupFlood
                | Phase::Roles
                | Phase::Deal
                | Phase::Treasure
                | Phase::Flood
        )
    }

    // --- Movement (§7) ---------------------------------------------------------------------------------------

    /// The Diver's reach from p (§7.1): positions at the end of an orthogonal path whose inner positions are
    /// all flooded or sunk (p itself excluded; the status of the ends is the caller's).
    fn diver_reach(&self, p: u8) -> u32 {
        let through = self.flooded | self.sunk;
        let (mut seen, mut frontier, mut reach) = (bit(p), bit(p), 0u32);
        while frontier != 0 {
            let mut next = 0;
            for x in bits(frontier) {
                next |= self.orth(x as u8);
            }
            next &= !seen;
            reach |= next;
            seen |= next;
            frontier = next & through;
        }
        reach & !bit(p)
    }

    /// Where seat s may `move` (§7.1).
    pub fn move_targets(&self, s: usize) -> u32 {
        let seat = &self.seats[s];
        let p = seat.pawn;
        let near = match seat.role {
            EXPLORER => self.orth(p) | self.diag(p),
            DIVER => self.diver_reach(p),
            PILOT if !self.pilot_flown && p != NONE => ALL,
            _ => self.orth(p),
        };
        near & self.open() & !bit(p)
    }

    /// What seat s may `shore` (§5.3): flooded, its own position or an adjacent one.
    pub fn shore_targets(&self, s: usize) -> u32 {
        let seat = &self.seats[s];
        let p = seat.pawn;
        let mut zone = bit(p) | self.orth(p);
        if seat.role == EXPLORER {
            zone |= self.diag(p);
        }
        zone & self.flooded
    }

    /// Where the Navigator may move seat s's pawn (§7.2): one or two of that pawn's own steps.
    pub fn navigate_targets(&self, s: usize) -> u32 {
        let seat = &self.seats[s];
        let p = seat.pawn;
        let step = |x: u8| {
            if seat.role == EXPLORER {
                self.orth(x) | self.diag(x)
            } else {
                self.orth(x)
            }
        };
        let one = step(p);
        let mids = if seat.role == DIVER {
            one
        } else {
            one & self.open()
        };
        let mut reach = one;
        for m in bits(mids) {
            reach |= step(m as u8);
        }
        reach & self.open() & !bit(p)
    }

    /// Where seat s's stranded pawn may swim (§7.3).
    pub fn swim_targets(&self, s: usize) -> u32 {
        let seat = &self.seats[s];
        let p = seat.pawn;
        let open = self.open() & !bit(p);
        match seat.role {
            EXPLORER => (self.orth(p) | self.diag(p)) & open,
            PILOT if p != NONE => open,
            DIVER => {
                // The nearest open positions by orthogonal steps through the layout, whatever their status.
                let (mut seen, mut frontier) = (bit(p), bit(p));
                while frontier != 0 {
                    let mut next = 0;
                    for x in bits(frontier) {
                        next |= self.orth(x as u8);
                    }
                    next &= !seen;
                    if next & open != 0 {
                        return next & open;
                    }
                    seen |= next;
                    frontier = next;
                }
                0
            }
            _ => self.orth(p) & open,
        }
    }

    // --- Special plays (§5.8) ------------------------------------------------------------------------------------

    /// Every pawn on Fools' Landing with all four treasures captured.
    fn liftoff_ready(&self) -> bool {
        let fl = self.pos_of[FOOLS_LANDING as usize];
        self.captured == 0xF && fl != NONE && (0..self.n()).all(|s| self.seats[s].pawn == fl)
    }

    /// The position shared by every pawn of mask m (non-empty, seats < n), if they share one.
    fn mask_position(&self, m: u32) -> Option<u8> {
        let n = self.n();
        if m == 0 || m >> n != 0 {
            return None;
        }
        let first = m.trailing_zeros() as usize;
        let p = self.seats[first].pawn;
        if p == NONE {
            return None;
        }
        bits(m).all(|s| self.seats[s].pawn == p).then_some(p)
    }

    /// Has seat s a special play now (§6's settle)?
    pub fn has_special(&self, s: usize) -> bool {
        let hand = &self.seats[s].hand;
        if hand[SANDBAGS] > 0 && self.flooded != 0 {
            return true;
        }
        if hand[HELI] > 0 {
            if self.liftoff_ready() {
                return true;
            }
            let open = self.open();
            return (0..self.n()).any(|t| {
                let p = self.seats[t].pawn;
                p != NONE && open & !bit(p) != 0
            });
        }
        false
    }

    fn push_specials<S: ActionSink>(&self, s: usize, out: &mut S) {
        let hand = &self.seats[s].hand;
        if hand[SANDBAGS] > 0 {
            for q in bits(self.flooded) {
                out.push(SANDBAG + q as u32);
            }
        }
        if hand[HELI] > 0 {
            let open = self.open();
            for m in 1..(1u32 << self.n()) {
                if let Some(p) = self.mask_position(m) {
                    for q in bits(open & !bit(p)) {
                        out.push(HELI_LIFT + 24 * (m - 1) + q as u32);
                    }
                }
            }
            if self.liftoff_ready() {
                out.push(LIFTOFF);
            }
        }
    }

    // --- Legal decisions -----------------------------------------------------------------------------------------

    pub(super) fn legal_decisions<S: ActionSink>(&self, out: &mut S) {
        let Some(c) = self.acting() else {
            return;
        };
        let n = self.n();
        match self.phase {
            Phase::Actions => {
                for q in bits(self.move_targets(c)) {
                    out.push(MOVE + q as u32);
                }
                for q in bits(self.shore_targets(c)) {
                    out.push(SHORE + q as u32);
                }
                let me = &self.seats[c];
                for s in 0..n {
                    if s != c && (me.role == MESSENGER || self.seats[s].pawn == me.pawn) {
                        for k in 0..4 {
                            if me.hand[k] > 0 {
                                out.push(GIVE + 4 * s as u32 + k as u32);
                            }
                        }
                    }
                }
                if self.capture_ready(c).is_some() {
                    out.push(CAPTURE);
                }
                if me.role == NAVIGATOR {
                    for s in 0..n {
                        if s != c {
                            for q in bits(self.navigate_targets(s)) {
                                out.push(NAVIGATE + 24 * s as u32 + q as u32);
                            }
                        }
                    }
                }
                self.push_specials(c, out);
                out.push(PASS);
            }
            Phase::Engineer => {
                for q in bits(self.shore_targets(c)) {
                    out.push(SHORE + q as u32);
                }
                out.push(PASS);
            }
            Phase::Discard => {
                self.push_specials(c, out);
                for k in 0..HAND_KINDS {
                    if self.seats[c].hand[k] > 0 {
                        out.push(DISCARD + k as u32);
                    }
                }
            }
            Phase::Swim => {
                for q in bits(self.swim_targets(c)) {
                    out.push(SWIM + q as u32);
                }
            }
            Phase::Window => {
                self.push_specials(c, out);
                out.push(PASS);
            }
            _ => {}
        }
    }

    /// The treasure seat c may capture now (§5.3), if any.
    fn capture_ready(&self, c: usize) -> Option<usize> {
        let seat = &self.seats[c];
        let tile = *self.tiles.get(seat.pawn as usize)?;
        let t = *data().tile_treasure.get(tile as usize)? as usize;
        (t < 4 && self.captured >> t & 1 == 0 && seat.hand[t] >= 4).then_some(t)
    }

    /// The acting seat's decisions other than `pass` (for the deserializer's "settled" check).
    pub(super) fn has_decision_besides_pass(&self) -> bool {
        let mut v = Vec::new();
        self.legal_decisions(&mut v);
        v.iter().any(|&a| a != PASS)
    }

    // --- The automatic steps -------------------------------------------------------------------------------------

    fn set_pending(&mut self, seats: impl Iterator<Item = usize>) {
        self.pending_len = 0;
        for s in seats {
            if (self.pending_len as usize) < MAX_PLAYERS {
                self.pending[self.pending_len as usize] = s as u8;
                self.pending_len += 1;
            }
        }
    }

    fn drop_first_pending(&mut self) {
        let len = self.pending_len as usize;
        if len > 0 {
            self.pending.copy_within(1..len, 0);
            self.pending_len -= 1;
            self.pending[self.pending_len as usize] = 0;
        }
    }

    /// Open a window of `kind` for `seats` (in asking order) and settle it (§6).
    fn open_window(&mut self, kind: Window, seats: impl Iterator<Item = usize>) {
        self.window = kind;
        self.set_pending(seats);
        self.settle_window();
    }

    /// A window for every seat, from the turn seat.
    fn open_window_all(&mut self, kind: Window) {
        let (n, t) = (self.n(), self.turn as usize);
        self.open_window(kind, (0..n).map(move |i| (t + i) % n));
    }

    /// A window for the seats other than the turn seat, from the next one.
    fn open_window_others(&mut self, kind: Window) {
        let (n, t) = (self.n(), self.turn as usize);
        self.open_window(kind, (1..n).map(move |i| (t + i) % n));
    }

    /// §6: drop pending seats without a special play; close the window when none is left.
    fn settle_window(&mut self) {
        while let Some(&s) = self.pending_seats().first() {
            if self.has_special(s as usize) {
                self.phase = Phase::Window;
                return;
            }
            self.drop_first_pending();
        }
        let kind = self.window;
        self.window = Window::None;
        self.pending = [0; MAX_PLAYERS];
        match kind {
            Window::Act => self.phase = Phase::Actions,
            Window::End | Window::Treasure => self.treasure_step(),
            Window::Rescue => self.start_swims(),
            Window::Flood => self.flood_step(),
            Window::None => {}
        }
    }

    fn end_game(&mut self, outcome: Outcome) {
        self.outcome = outcome;
        self.phase = Phase::Over;
        self.window = Window::None;
        self.pending = [0; MAX_PLAYERS];
        self.pending_len = 0;
    }

    /// §5.2.
    pub(super) fn begin_turn(&mut self, t: usize) {
        self.turn = t as u8;
        self.stage = Stage::Actions;
        self.actions_left = data().actions_per_turn;
        self.pilot_flown = false;
        self.open_window_others(Window::Act);
    }

    /// §5.3 "After an action": the hand limit first, then the `act` window or the end of the actions.
    fn after_action(&mut self) {
        if self.over_limit().is_some() {
            self.phase = Phase::Discard;
            return;
        }
        self.after_action_rest();
    }

    fn after_action_rest(&mut self) {
        if self.actions_left > 0 {
            self.open_window_others(Window::Act);
        } else {
            self.end_of_actions(false);
        }
    }

    /// §5.3 "End of the actions".
    fn end_of_actions(&mut self, after_pass: bool) {
        self.stage = Stage::Treasure;
        self.treasure_left = data().treasure_per_turn;
        if after_pass {
            self.open_window_others(Window::End);
        } else {
            self.open_window_all(Window::End);
        }
    }

    /// §5.7: the hand limit is met again; play goes on where it was.
    fn discard_done(&mut self) {
        if self.over_limit().is_some() {
            self.phase = Phase::Discard;
            return;
        }
        match self.stage {
            Stage::Actions => self.after_action_rest(),
            Stage::Flood => self.open_window_all(Window::Flood),
            Stage::Treasure | Stage::Setup => self.open_window_all(Window::Treasure),
        }
    }

    fn pile_total(&self) -> u32 {
        self.pile.iter().map(|&c| c as u32).sum()
    }

    /// The treasure discard becomes the pile.
    fn reshuffle_treasure(&mut self) {
        for k in 0..KINDS {
            self.pile[k] = self.pile[k].saturating_add(self.discard[k]);
        }
        self.discard = [0; KINDS];
    }

    /// §5.4: the next treasure draw, or the flood draws when none is left.
    fn treasure_step(&mut self) {
        loop {
            if self.treasure_left == 0 {
                self.stage = Stage::Flood;
                self.flood_left = data().flood_cards[(self.level as usize).min(10)];
                return self.flood_step();
            }
            if self.pile_total() == 0 {
                self.reshuffle_treasure();
            }
            if self.pile_total() == 0 {
                self.treasure_left -= 1;
                continue;
            }
            self.phase = Phase::Treasure;
            return;
        }
    }

    /// The flood discard becomes a new top layer of the flood pile (also the only one, on an empty pile).
    fn push_flood_discard(&mut self) {
        if self.flood_discard == 0 {
            return;
        }
        if (self.num_layers as usize) < TILES {
            self.layers[self.num_layers as usize] = self.flood_discard;
            self.num_layers += 1;
        } else if let Some(top) = self.layers.last_mut() {
            *top |= self.flood_discard;
        }
        self.flood_discard = 0;
    }

    /// §5.5: the next flood draw, or the end of the turn (of the setup's flood) when none is left.
    fn flood_step(&mut self) {
        loop {
            if self.flood_left == 0 {
                if self.stage == Stage::Setup {
                    self.phase = Phase::Roles;
                    return;
                }
                let next = (self.turn as usize + 1) % self.n();
                return self.begin_turn(next);
            }
            if self.num_layers == 0 {
                self.push_flood_discard();
            }
            if self.num_layers == 0 {
                self.flood_left -= 1;
                continue;
            }
            self.phase = if self.stage == Stage::Setup {
                Phase::SetupFlood
            } else {
                Phase::Flood
            };
            return;
        }
    }

    /// §5.6: the swims after the `rescue` window, or the loss when a stranded pawn cannot swim.
    fn start_swims(&mut self) {
        let stranded = self.stranded();
        if stranded == 0 {
            return self.open_window_all(Window::Flood);
        }
        if bits(stranded).any(|s| self.swim_targets(s) == 0) {
            return self.end_game(Outcome::Lost);
        }
        self.phase = Phase::Swim;
    }

    // --- Chance outcomes -----------------------------------------------------------------------------------------

    /// The top layer of the flood pile (tiles), 0 if none.
    pub fn top_layer(&self) -> u32 {
        match self.num_layers {
            0 => 0,
            l => self.layers[l as usize - 1],
        }
    }

    /// The chance outcomes as a bit set (layout, flood, roles) or counts (deal, treasure).
    fn chance_set(&self) -> u32 {
        match self.phase {
            Phase::Layout => {
                let mut unplaced = ALL;
                for &t in &self.tiles {
                    unplaced &= !bit(t);
                }
                unplaced
            }
            Phase::SetupFlood | Phase::Flood => self.top_layer(),
            Phase::Roles => {
                let mut left = (1u32 << ROLES) - 1;
                for s in &self.seats[..self.n()] {
                    if (s.role as usize) < ROLES {
                        left &= !(1 << s.role);
                    }
                }
                left
            }
            _ => 0,
        }
    }

    /// The counts a deal or treasure draw is weighted by.
    fn chance_counts(&self) -> Option<&[u8]> {
        match self.phase {
            Phase::Deal => Some(&self.pile[..HAND_KINDS]),
            Phase::Treasure => Some(&self.pile[..]),
            _ => None,
        }
    }

    fn apply_chance(&mut self, a: u32) {
        if a as usize >= TILES {
            return;
        }
        let x = a as u8;
        match self.phase {
            Phase::Layout => {
                if self.pos_of[x as usize] != NONE {
                    return;
                }
                let Some(q) = (0..TILES).find(|&q| self.tiles[q] == NONE) else {
                    return;
                };
                self.tiles[q] = x;
                self.pos_of[x as usize] = q as u8;
                self.placed |= 1 << q;
                if self.placed == ALL {
                    self.phase = Phase::SetupFlood;
                    self.flood_left = data().initial_flood;
                    self.flood_step();
                }
            }
            Phase::SetupFlood | Phase::Flood => self.apply_flood(x),
            Phase::Roles => {
                let Some(s) = (0..self.n()).find(|&s| self.seats[s].role == NONE) else {
                    return;
                };
                if x as usize >= ROLES {
                    return;
                }
                self.seats[s].role = x;
                self.seats[s].pawn = self.pos_of[data().role_start[x as usize] as usize];
                if (0..self.n()).all(|s| self.seats[s].role != NONE) {
                    self.phase = Phase::Deal;
                }
            }
            Phase::Deal => {
                let k = x as usize;
                if k >= HAND_KINDS || self.pile[k] == 0 {
                    return;
                }
                let dealt: u32 = (0..self.n()).map(|s| self.seats[s].held()).sum();
                let per = data().cards_per_player as u32;
                let s = ((dealt / per) as usize).min(self.n() - 1);
                self.pile[k] -= 1;
                self.seats[s].hand[k] += 1;
                if dealt + 1 >= per * self.n() as u32 {
                    self.level = self.rules.start_level;
                    self.begin_turn(0);
                }
            }
            Phase::Treasure => self.apply_treasure(x as usize),
            _ => {}
        }
    }

    /// §5.4 steps 1 to 4.
    fn apply_treasure(&mut self, k: usize) {
        if k >= KINDS || self.pile[k] == 0 {
            return;
        }
        self.pile[k] -= 1;
        self.treasure_left = self.treasure_left.saturating_sub(1);
        if self.pile_total() == 0 {
            self.reshuffle_treasure();
        }
        if k == WATERS_RISE {
            self.level = self.level.saturating_add(1);
            self.discard[k] += 1;
            if self.level >= data().skull {
                return self.end_game(Outcome::Lost);
            }
            self.push_flood_discard();
        } else {
            let c = self.turn as usize;
            self.seats[c].hand[k] += 1;
            if self.over_limit().is_some() {
                self.phase = Phase::Discard;
                return;
            }
        }
        self.open_window_all(Window::Treasure);
    }

    /// §5.5 steps 1 to 4 (and the setup's flood draws).
    fn apply_flood(&mut self, x: u8) {
        let b = bit(x);
        if self.top_layer() & b == 0 {
            return;
        }
        let top = self.num_layers as usize - 1;
        self.layers[top] &= !b;
        if self.layers[top] == 0 {
            self.num_layers -= 1;
        }
        self.flood_left = self.flood_left.saturating_sub(1);
        if self.num_layers == 0 {
            self.push_flood_discard();
        }
        let q = self.pos_of[x as usize];
        let qb = bit(q);
        if self.flooded & qb == 0 {
            self.flooded |= qb;
            self.flood_discard |= b;
        } else {
            self.flooded &= !qb;
            self.sunk |= qb;
            if x == FOOLS_LANDING {
                return self.end_game(Outcome::Lost);
            }
            let d = data();
            let t = d.tile_treasure[x as usize] as usize;
            if t < 4 && self.captured >> t & 1 == 0 {
                let [a, b2] = d.treasure_tiles[t];
                let other = if a == x { b2 } else { a };
                if bit(self.pos_of[other as usize]) & self.sunk != 0 {
                    return self.end_game(Outcome::Lost);
                }
            }
            if (0..self.n()).any(|s| self.seats[s].pawn == q) {
                return self.open_window_all(Window::Rescue);
            }
        }
        if self.stage == Stage::Setup {
            self.flood_step();
        } else {
            self.open_window_all(Window::Flood);
        }
    }

    // --- Decisions -----------------------------------------------------------------------------------------------

    /// A special play by seat s (§5.8); false if `a` is none.
    fn apply_special(&mut self, s: usize, a: u32) -> bool {
        match a {
            a if (SANDBAG..HELI_LIFT).contains(&a) => {
                let q = (a - SANDBAG) as u8;
                self.flooded &= !bit(q);
                self.seats[s].hand[SANDBAGS] = self.seats[s].hand[SANDBAGS].saturating_sub(1);
                self.discard[SANDBAGS] += 1;
            }
            a if (HELI_LIFT..LIFTOFF).contains(&a) => {
                let m = (a - HELI_LIFT) / 24 + 1;
                let q = ((a - HELI_LIFT) % 24) as u8;
                for t in bits(m & ((1 << self.n()) - 1)) {
                    self.seats[t].pawn = q;
                }
                self.seats[s].hand[HELI] = self.seats[s].hand[HELI].saturating_sub(1);
                self.discard[HELI] += 1;
            }
            LIFTOFF => {
                self.seats[s].hand[HELI] = self.seats[s].hand[HELI].saturating_sub(1);
                self.discard[HELI] += 1;
                self.end_game(Outcome::Won);
            }
            _ => return false,
        }
        true
    }

    fn apply_decision(&mut self, a: u32) {
        let Some(c) = self.acting() else {
            return;
        };
        match self.phase {
            Phase::Actions => self.apply_action_phase(c, a),
            Phase::Engineer => {
                if (SHORE..GIVE).contains(&a) {
                    self.flooded &= !bit((a - SHORE) as u8);
                }
                self.after_action();
            }
            Phase::Discard => {
                if (DISCARD..SWIM).contains(&a) {
                    let k = (a - DISCARD) as usize;
                    self.seats[c].hand[k] = self.seats[c].hand[k].saturating_sub(1);
                    self.discard[k] += 1;
                } else {
                    self.apply_special(c, a);
                }
                if self.phase != Phase::Over && self.over_limit().is_none() {
                    self.discard_done();
                }
            }
            Phase::Swim => {
                if (SWIM..PASS).contains(&a) {
                    self.seats[c].pawn = (a - SWIM) as u8;
                }
                if self.stranded() == 0 {
                    self.open_window_all(Window::Flood);
                }
            }
            Phase::Window => {
                if a == PASS {
                    self.drop_first_pending();
                    self.settle_window();
                } else if self.apply_special(c, a) && self.phase != Phase::Over {
                    self.settle_window();
                }
            }
            _ => {}
        }
    }

    fn apply_action_phase(&mut self, c: usize, a: u32) {
        match a {
            a if a < SHORE => {
                let q = (a - MOVE) as u8;
                let seat = self.seats[c];
                if seat.role == PILOT && self.orth(seat.pawn) & bit(q) == 0 {
                    self.pilot_flown = true;
                }
                self.seats[c].pawn = q;
                self.spend();
                self.after_action();
            }
            a if a < GIVE => {
                self.flooded &= !bit((a - SHORE) as u8);
                self.spend();
                if self.seats[c].role == ENGINEER && self.shore_targets(c) != 0 {
                    self.phase = Phase::Engineer;
                } else {
                    self.after_action();
                }
            }
            a if a < CAPTURE => {
                let (s, k) = (((a - GIVE) / 4) as usize, ((a - GIVE) % 4) as usize);
                if self.seats[c].hand[k] > 0 {
                    self.seats[c].hand[k] -= 1;
                    self.seats[s].hand[k] += 1;
                }
                self.spend();
                self.after_action();
            }
            CAPTURE => {
                if let Some(t) = self.capture_ready(c) {
                    self.seats[c].hand[t] -= 4;
                    self.discard[t] += 4;
                    self.captured |= 1 << t;
                }
                self.spend();
                self.after_action();
            }
            a if a < SANDBAG => {
                let (s, q) = (((a - NAVIGATE) / 24) as usize, ((a - NAVIGATE) % 24) as u8);
                self.seats[s].pawn = q;
                self.spend();
                self.after_action();
            }
            PASS => self.end_of_actions(true),
            a => {
                self.apply_special(c, a);
            }
        }
    }

    fn spend(&mut self) {
        self.actions_left = self.actions_left.saturating_sub(1);
    }

    /// `scores()` (§5.9): `10 x captured + (10 - level) + (50 if won)`.
    pub fn score(&self) -> f64 {
        let won = if self.outcome == Outcome::Won { 50 } else { 0 };
        (10 * self.captured.count_ones() as i32 + 10 - self.level as i32 + won) as f64
    }
}

impl State for ForbiddenIslandState {
    fn current_player(&self) -> Player {
        match self.phase {
            Phase::Over => TERMINAL,
            _ if self.is_chance() => CHANCE,
            _ => self.acting().unwrap_or(self.turn as usize) as Player,
        }
    }

    fn legal_actions(&self, out: &mut Vec<u32>) {
        out.clear();
        if self.is_chance() {
            if let Some(counts) = self.chance_counts() {
                out.extend(
                    (0..counts.len())
                        .filter(|&k| counts[k] > 0)
                        .map(|k| k as u32),
                );
            } else {
                out.extend(bits(self.chance_set()).map(|x| x as u32));
            }
        } else if self.phase != Phase::Over {
            self.legal_decisions(out);
        }
    }

    fn chance_weights(&self, out: &mut Vec<(u32, u64)>) {
        out.clear();
        if !self.is_chance() {
            return;
        }
        if let Some(counts) = self.chance_counts() {
            out.extend(
                (0..counts.len())
                    .filter(|&k| counts[k] > 0)
                    .map(|k| (k as u32, counts[k] as u64)),
            );
        } else {
            out.extend(bits(self.chance_set()).map(|x| (x as u32, 1)));
        }
    }

    fn sample_chance(&self, rng: &mut Rng, _scratch: &mut Vec<(u32, u64)>) -> Option<u32> {
        if !self.is_chance() {
            return None;
        }
        if let Some(counts) = self.chance_counts() {
            return crate::pick_by_count(counts, rng);
        }
        let set = self.chance_set();
        if set == 0 {
            return None;
        }
        let mut r = rng.below(set.count_ones() as u64);
        let mut rest = set;
        while r > 0 {
            rest &= rest - 1;
            r -= 1;
        }
        Some(rest.trailing_zeros())
    }

    fn is_legal(&self, action: u32) -> bool {
        if self.is_chance() {
            return match self.chance_counts() {
                Some(counts) => counts.get(action as usize).is_some_and(|&c| c > 0),
                None => action < 32 && self.chance_set() >> action & 1 == 1,
            };
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
            self.apply_chance(action);
        } else if self.phase != Phase::Over {
            self.apply_decision(action);
        }
    }

    fn action_to_string(&self, action: u32) -> Result<String> {
        notation::action_to_string(self, action)
    }

    fn string_to_action(&self, text: &str) -> Result<u32> {
        notation::string_to_action(self, text)
    }

    fn returns(&self, out: &mut [f64]) {
        let v = if self.outcome == Outcome::Won {
            1.0
        } else {
            0.0
        };
        for o in out.iter_mut().take(self.n()) {
            *o = v;
        }
    }

    fn scores(&self, out: &mut [f64]) {
        let v = self.score();
        for o in out.iter_mut().take(self.n()) {
            *o = v;
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

    /// Nothing is hidden (§3, §9.3): a clone, `rng` unused.
    fn resample_from_infostate(&self, _player: usize, _rng: &mut Rng) -> Self {
        *self
    }

    fn to_text(&self) -> String {
        observation::text(self, None)
    }

    fn heuristic_value(&self, out: &mut [f64]) {
        let v = if self.phase == Phase::Over {
            if self.outcome == Outcome::Won {
                1.0
            } else {
                0.0
            }
        } else {
            super::heuristic::value(self)
        };
        for o in out.iter_mut().take(self.n()) {
            *o = v;
        }
    }
}
