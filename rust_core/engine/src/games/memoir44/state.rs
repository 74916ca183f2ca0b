//! The state and the rules of a turn (§6.4, §6.9).

use super::board::{sections_for, Side};
use super::cards::*;
use super::hex::{los_clear, NUM_HEXES};
use super::rules::{geo, Kind, Rules, Ter, Unit};
use std::sync::Arc;

/// The phases, in the tensor's order (§6.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    Deal,
    Play,
    Section,
    Order,
    Move,
    MoveTo,
    Battle,
    Target,
    Ambush,
    Dice,
    Ignore,
    Retreat,
    Advance,
    Overrun,
    MoveAgain,
    AirTarget,
    BarrageTarget,
    MedicsTarget,
    Roll,
    Draw,
    Keep,
    Over,
}

pub const PHASES: [(Phase, &str); 22] = [
    (Phase::Deal, "deal"),
    (Phase::Play, "play"),
    (Phase::Section, "section"),
    (Phase::Order, "order"),
    (Phase::Move, "move"),
    (Phase::MoveTo, "move_to"),
    (Phase::Battle, "battle"),
    (Phase::Target, "target"),
    (Phase::Ambush, "ambush"),
    (Phase::Dice, "dice"),
    (Phase::Ignore, "ignore"),
    (Phase::Retreat, "retreat"),
    (Phase::Advance, "advance"),
    (Phase::Overrun, "overrun"),
    (Phase::MoveAgain, "move_again"),
    (Phase::AirTarget, "air_target"),
    (Phase::BarrageTarget, "barrage_target"),
    (Phase::MedicsTarget, "medics_target"),
    (Phase::Roll, "roll"),
    (Phase::Draw, "draw"),
    (Phase::Keep, "keep"),
    (Phase::Over, "over"),
];

impl Phase {
    pub fn index(self) -> usize {
        PHASES.iter().position(|(p, _)| *p == self).unwrap_or(0)
    }
    pub fn name(self) -> &'static str {
        PHASES[self.index()].1
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BKind {
    Attack,
    Ambush,
    Air,
    Barrage,
}

pub const BKINDS: [(BKind, &str); 4] = [
    (BKind::Attack, "attack"),
    (BKind::Ambush, "ambush"),
    (BKind::Air, "air"),
    (BKind::Barrage, "barrage"),
];

impl BKind {
    pub fn index(self) -> usize {
        match self {
            BKind::Attack => 0,
            BKind::Ambush => 1,
            BKind::Air => 2,
            BKind::Barrage => 3,
        }
    }
}

/// One battle (§6.6 `battle`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Fight {
    pub kind: BKind,
    pub attacker: Option<u8>,
    pub target: u8,
    /// The hex the target stood on when the battle was declared: the hex take ground moves into.
    pub origin: u8,
    pub dice: u8,
    pub rolled: [u8; 5],
    pub flags: u8,
    pub retreated: u8,
    pub close: bool,
    pub overrun: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Battle {
    pub cur: Fight,
    /// The attack an ambush suspended.
    pub pending: Option<Fight>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Roll {
    pub dice: u8,
    pub rolled: [u8; 5],
}

/// A short list of hexes (Air Power's picks; the take-ground hex, see the readings).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Picks {
    pub h: [u8; 4],
    pub n: u8,
}

impl Picks {
    pub fn as_slice(&self) -> &[u8] {
        &self.h[..(self.n as usize).min(4)]
    }
    pub fn push(&mut self, x: u8) {
        if (self.n as usize) < 4 {
            self.h[self.n as usize] = x;
            self.n += 1;
        }
    }
    pub fn contains(&self, x: u8) -> bool {
        self.as_slice().contains(&x)
    }
    pub fn remove_first(&mut self) {
        let n = (self.n as usize).min(4);
        if n == 0 {
            return;
        }
        for i in 1..n {
            self.h[i - 1] = self.h[i];
        }
        self.h[n - 1] = 0;
        self.n = n as u8 - 1;
    }
    pub fn clear(&mut self) {
        *self = Picks::default();
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Memoir44State {
    pub rules: Arc<Rules>,
    pub phase: Phase,
    pub active: u8,
    pub turns: [u16; 2],
    pub units: [Option<Unit>; NUM_HEXES],
    pub wire: u128,
    pub sand: u128,
    pub hands: [[u8; TYPES]; 2],
    pub deck: [u8; TYPES],
    pub discard: [u8; TYPES],
    pub played: Option<u8>,
    pub card: Option<u8>,
    pub section: Option<u8>,
    pub fallback: bool,
    pub roll: Option<Roll>,
    pub last: [Option<(u8, Option<u8>)>; 2],
    pub medals: [u8; 2],
    pub ambush: Option<u8>,
    pub unit: Option<u8>,
    pub battle: Option<Battle>,
    pub targets: Picks,
    /// Recon's pair, ascending.
    pub recon: Picks,
    pub recon_draws: u8,
    pub draws: u8,
    pub drawer: Option<u8>,
    /// A seat, or -1 for a draw.
    pub winner: Option<i8>,
}

// ---- action ids (§6.5) ----
pub const A_SECTION: u32 = 30;
pub const A_ORDER: u32 = 33;
pub const A_DONE: u32 = 146;
pub const A_UNIT: u32 = 147;
pub const A_TO: u32 = 260;
pub const A_IGNORE: u32 = 373;
pub const A_TAKE: u32 = 374;
pub const A_ADVANCE: u32 = 375;
pub const A_AMBUSH: u32 = 376;
pub const A_PASS: u32 = 377;
pub const A_KEEP: u32 = 378;
pub const A_CLEAR: u32 = 408;
pub const NUM_ACTIONS: u32 = 409;

#[inline]
fn bit(i: usize) -> u128 {
    if i < 128 {
        1u128 << i
    } else {
        0
    }
}

pub fn hand_size(h: &[u8; TYPES]) -> u32 {
    h.iter().map(|&c| c as u32).sum()
}

impl Memoir44State {
    pub fn new(rules: Arc<Rules>) -> Memoir44State {
        let mut s = Memoir44State {
            phase: Phase::Deal,
            active: rules.starting,
            turns: [0, 0],
            units: rules.init_units,
            wire: rules.init_wire,
            sand: rules.init_sand,
            hands: [[0; TYPES]; 2],
            deck: COUNTS,
            discard: [0; TYPES],
            played: None,
            card: None,
            section: None,
            fallback: false,
            roll: None,
            last: [None, None],
            medals: [0, 0],
            ambush: None,
            unit: None,
            battle: None,
            targets: Picks::default(),
            recon: Picks::default(),
            recon_draws: 0,
            draws: 0,
            drawer: None,
            winner: None,
            rules,
        };
        s.deal_next();
        s
    }

    // ---- board queries ----

    #[inline]
    pub fn ter(&self, i: usize) -> Ter {
        self.rules.terrain.get(i).copied().unwrap_or(Ter::River)
    }
    #[inline]
    pub fn unit_at(&self, i: usize) -> Option<&Unit> {
        self.units.get(i).and_then(|u| u.as_ref())
    }
    #[inline]
    fn unit_mut(&mut self, i: usize) -> Option<&mut Unit> {
        self.units.get_mut(i).and_then(|u| u.as_mut())
    }
    #[inline]
    pub fn has_wire(&self, i: usize) -> bool {
        self.wire & bit(i) != 0
    }
    #[inline]
    pub fn has_sand(&self, i: usize) -> bool {
        self.sand & bit(i) != 0
    }
    fn other(&self) -> u8 {
        1 - (self.active & 1)
    }
    fn nf(&self) -> bool {
        !self.fallback
    }
    fn card_is(&self, k: u8) -> bool {
        self.card == Some(k)
    }
    pub fn side_of(&self, seat: usize) -> Side {
        self.rules.sides[seat & 1]
    }

    /// Temporary medals seat `s` holds now.
    pub fn temp_medals(&self, s: usize) -> u32 {
        let mut n = 0;
        for i in 0..NUM_HEXES {
            if let Some(u) = self.unit_at(i) {
                if u.seat as usize == s {
                    n += self.rules.medal_tags[i][s] as u32;
                }
            }
        }
        n
    }

    pub fn score(&self, s: usize) -> u32 {
        self.medals[s & 1] as u32 + self.temp_medals(s & 1)
    }

    /// Ends the game at once if a seat has its medals; true if it did.
    fn check_win(&mut self) -> bool {
        let a = self.active as usize & 1;
        for s in [a, 1 - a] {
            if self.score(s) >= self.rules.victory[s] as u32 {
                self.phase = Phase::Over;
                self.winner = Some(s as i8);
                return true;
            }
        }
        false
    }

    fn sections(&self, i: usize, seat: u8) -> [bool; 3] {
        match geo().hexes.get(i) {
            Some(&h) => sections_for(h, seat == 1),
            None => [false; 3],
        }
    }

    fn adjacent_enemy(&self, i: usize, seat: u8) -> bool {
        geo()
            .neighbours(i)
            .iter()
            .any(|&n| self.unit_at(n as usize).is_some_and(|u| u.seat != seat))
    }

    fn has_unit_of(&self, seat: u8, kind: Kind) -> bool {
        self.units
            .iter()
            .flatten()
            .any(|u| u.seat == seat && u.kind == kind)
    }

    fn any_enemy(&self) -> bool {
        let o = self.other();
        self.units.iter().flatten().any(|u| u.seat == o)
    }

    // ---- orders ----

    /// Whether the set of hexes `set` (own units) keeps the card's limit (§6.3).
    fn order_ok(&self, set: &[usize]) -> bool {
        let Some(card) = self.card else { return false };
        let seat = self.active;
        // No allocation: `legal` asks this once for every candidate unit of every `order` step.
        if set.iter().any(|&i| self.unit_at(i).is_none()) {
            return false;
        }
        let kind_of = |i: usize| self.unit_at(i).map(|u| u.kind);
        let in_section = |s: u8| set.iter().all(|&i| self.sections(i, seat)[s as usize % 3]);
        let all_kind = |k: Kind| set.iter().all(|&i| kind_of(i) == Some(k));
        if self.fallback {
            if set.len() > 1 {
                return false;
            }
            if card == INFANTRY_ASSAULT {
                return self.section.is_some_and(in_section);
            }
            return true;
        }
        match card {
            0..=11 => {
                let lim = [1usize, 2, 3, usize::MAX][(card / 3) as usize];
                set.len() <= lim && in_section(card % 3)
            }
            GENERAL_ADVANCE | PINCER_MOVE | RECON_IN_FORCE => {
                let caps = match card {
                    GENERAL_ADVANCE => [2u8, 2, 2],
                    PINCER_MOVE => [2, 0, 2],
                    _ => [1, 1, 1],
                };
                let mut secs = [[false; 3]; 6];
                if set.len() > secs.len() {
                    return false; // the caps add up to 6 at most
                }
                for (slot, &i) in secs.iter_mut().zip(set) {
                    *slot = self.sections(i, seat);
                }
                assign(&secs[..set.len()], caps)
            }
            DIRECT_FROM_HQ => set.len() <= 4,
            MOVE_OUT | DIG_IN => set.len() <= 4 && all_kind(Kind::Infantry),
            ARMOR_ASSAULT => set.len() <= 4 && all_kind(Kind::Armor),
            BEHIND_ENEMY_LINES => set.len() <= 1 && all_kind(Kind::Infantry),
            ARTILLERY_BOMBARD => all_kind(Kind::Artillery),
            INFANTRY_ASSAULT => all_kind(Kind::Infantry) && self.section.is_some_and(in_section),
            CLOSE_ASSAULT => {
                set.iter().all(|&i| kind_of(i) != Some(Kind::Artillery))
                    && set.iter().all(|&i| self.adjacent_enemy(i, seat))
            }
            FIREFIGHT => set.len() <= 4 && set.iter().all(|&i| !self.adjacent_enemy(i, seat)),
            THEIR_FINEST_HOUR => {
                let r = self.roll.map(|r| r.rolled).unwrap_or([0; 5]);
                let count = |k: Kind| set.iter().filter(|&&i| kind_of(i) == Some(k)).count() as i32;
                let i = count(Kind::Infantry);
                let a = count(Kind::Armor);
                let g = count(Kind::Artillery);
                (i - r[F_INF] as i32).max(0) + (a - r[F_ARMOR] as i32).max(0) + g
                    <= r[F_STAR] as i32
            }
            _ => false,
        }
    }

    fn ordered_set(&self) -> Vec<usize> {
        (0..NUM_HEXES)
            .filter(|&i| {
                self.unit_at(i)
                    .is_some_and(|u| u.seat == self.active && u.ordered)
            })
            .collect()
    }

    fn can_order(&self, i: usize, base: &[usize]) -> bool {
        match self.unit_at(i) {
            // A stack copy for the usual few ordered units (asked for every candidate of every `order` step).
            Some(u) if u.seat == self.active && !u.ordered && base.len() < 16 => {
                let mut set = [0usize; 16];
                set[..base.len()].copy_from_slice(base);
                set[base.len()] = i;
                self.order_ok(&set[..=base.len()])
            }
            Some(u) if u.seat == self.active && !u.ordered => {
                let mut set = base.to_vec();
                set.push(i);
                self.order_ok(&set)
            }
            _ => false,
        }
    }

    fn orderable(&self) -> Vec<usize> {
        let base = self.ordered_set();
        (0..NUM_HEXES)
            .filter(|&i| self.can_order(i, &base))
            .collect()
    }

    // ---- movement ----

    /// The unit's movement: (max hexes, ignore terrain movement rules).
    fn move_rule(&self, u: &Unit) -> (u8, bool) {
        let nf = self.nf();
        match u.kind {
            Kind::Infantry => {
                if nf && self.card_is(BEHIND_ENEMY_LINES) {
                    (3, true)
                } else if nf && self.card_is(INFANTRY_ASSAULT) {
                    (3, false)
                } else {
                    (2, false)
                }
            }
            Kind::Armor => (3, false),
            Kind::Artillery => {
                if nf && self.card_is(ARTILLERY_BOMBARD) {
                    (3, false)
                } else {
                    (1, false)
                }
            }
        }
    }

    fn is_stop(&self, i: usize) -> bool {
        self.ter(i).is_cover() || self.has_wire(i)
    }

    /// Breadth-first reach from `from`: the distance of every reachable hex (`u8::MAX` elsewhere; 0 at
    /// `from`, which is not a destination).
    pub fn reach(&self, from: usize, max: u8, ignore: bool) -> [u8; NUM_HEXES] {
        let mut dist = [u8::MAX; NUM_HEXES];
        if from >= NUM_HEXES {
            return dist;
        }
        let max = if !ignore && self.ter(from) == Ter::Hedgerow {
            max.min(1)
        } else {
            max
        };
        dist[from] = 0;
        let mut queue = [0u8; NUM_HEXES];
        let (mut head, mut tail) = (0usize, 1usize);
        queue[0] = from as u8;
        let g = geo();
        while head < tail {
            let h = queue[head] as usize;
            head += 1;
            let d = dist[h];
            if d >= max {
                continue;
            }
            if h != from && !ignore && self.is_stop(h) {
                continue;
            }
            for &n in g.neighbours(h) {
                let n = n as usize;
                if dist[n] != u8::MAX || self.unit_at(n).is_some() || self.ter(n) == Ter::River {
                    continue;
                }
                if !ignore && self.ter(n) == Ter::Hedgerow && d != 0 {
                    continue;
                }
                dist[n] = d + 1;
                if tail < NUM_HEXES {
                    queue[tail] = n as u8;
                    tail += 1;
                }
            }
        }
        dist[from] = u8::MAX;
        dist
    }

    fn unit_reach(&self, i: usize) -> [u8; NUM_HEXES] {
        match self.unit_at(i) {
            Some(u) => {
                let (m, ig) = self.move_rule(u);
                self.reach(i, m, ig)
            }
            None => [u8::MAX; NUM_HEXES],
        }
    }

    fn bel_reach(&self, i: usize) -> [u8; NUM_HEXES] {
        self.reach(i, 3, true)
    }

    /// Whether the unit on `i` may move and has somewhere to go. `reach` finds a hex exactly when it finds
    /// a first step (every hex it reaches is reached through a neighbour it reaches at distance 1), so this
    /// checks the first step alone instead of walking the whole reach.
    fn can_move(&self, i: usize) -> bool {
        let Some(u) = self.unit_at(i) else {
            return false;
        };
        if u.seat != self.active || !u.ordered || u.moved != 0 || self.move_rule(u).0 == 0 {
            return false;
        }
        geo().neighbours(i).iter().any(|&n| {
            let n = n as usize;
            self.unit_at(n).is_none() && self.ter(n) != Ter::River
        })
    }

    // ---- battle ----

    fn may_battle(&self, u: &Unit) -> bool {
        let nf = self.nf();
        let max_b = if nf && self.card_is(ARTILLERY_BOMBARD) && u.kind == Kind::Artillery {
            2
        } else {
            1
        };
        if u.battles >= max_b || u.no_battle || (nf && self.card_is(DIG_IN)) {
            return false;
        }
        match u.kind {
            Kind::Infantry => {
                let lim = if nf && self.card_is(BEHIND_ENEMY_LINES) {
                    u8::MAX
                } else if nf && self.card_is(INFANTRY_ASSAULT) {
                    if u.special {
                        3
                    } else {
                        2
                    }
                } else if u.special {
                    2
                } else {
                    1
                };
                u.moved <= lim
            }
            Kind::Armor => true,
            Kind::Artillery => u.moved == 0,
        }
    }

    /// Protection of the hex `t` against an attacker of `kind` standing on `a`.
    fn protection(&self, t: usize, kind: Kind, a: usize) -> i32 {
        let k = kind.index();
        let ter = match self.ter(t) {
            Ter::Village | Ter::Forest | Ter::Hedgerow => [1, 2, 0][k],
            Ter::Hill if self.ter(a) != Ter::Hill => [1, 1, 0][k],
            _ => 0,
        };
        let obs = if self.has_sand(t) { [1, 1, 0][k] } else { 0 };
        ter.max(obs)
    }

    /// The penalty of a unit of `kind` battling from its own hex `a`.
    fn own_penalty(&self, a: usize, kind: Kind) -> i32 {
        match kind {
            Kind::Infantry if self.has_wire(a) => 1,
            Kind::Armor if self.ter(a) == Ter::Village => 2,
            _ => 0,
        }
    }

    pub fn los(&self, a: usize, t: usize) -> bool {
        let g = geo();
        let (Some(&ha), Some(&ht)) = (g.hexes.get(a), g.hexes.get(t)) else {
            return false;
        };
        let hg = &self.rules.hill_group;
        let plateau_a = hg[a];
        let plateau = plateau_a != u8::MAX && plateau_a == hg[t];
        los_clear(ha, ht, |h| {
            let Some(i) = h.index() else { return false };
            if i == a || i == t {
                return false;
            }
            if self.unit_at(i).is_some() {
                return true;
            }
            match self.ter(i) {
                Ter::Hill => !(plateau && hg[i] == plateau_a),
                t => t.blocks_los(),
            }
        })
    }

    /// The dice the unit on `a` rolls at the enemy on `t` (0 when it may not battle it).
    fn attack_dice(&self, a: usize, t: usize, overrun: bool) -> i32 {
        let (Some(u), Some(_)) = (self.unit_at(a), self.unit_at(t)) else {
            return 0;
        };
        let d = geo().d(a, t) as usize;
        let base = match u.kind {
            Kind::Infantry => match d {
                1 => 3,
                2 => 2,
                3 => 1,
                _ => return 0,
            },
            Kind::Armor => {
                if (1..=3).contains(&d) {
                    3
                } else {
                    return 0;
                }
            }
            Kind::Artillery => match d {
                1 | 2 => 3,
                3 | 4 => 2,
                5 | 6 => 1,
                _ => return 0,
            },
        };
        if u.kind != Kind::Artillery && !self.los(a, t) {
            return 0;
        }
        let mut bonus = 0;
        if self.nf() && u.ordered {
            match self.card {
                Some(ARMOR_ASSAULT) if u.kind == Kind::Armor && d == 1 => bonus += 1,
                Some(BEHIND_ENEMY_LINES) | Some(FIREFIGHT) | Some(THEIR_FINEST_HOUR) => bonus += 1,
                Some(CLOSE_ASSAULT) if u.battles == 0 && !overrun => bonus += 1,
                _ => {}
            }
        }
        base + bonus - self.protection(t, u.kind, a) - self.own_penalty(a, u.kind)
    }

    /// The targets of the unit on `a` (hex indices), by §6.4 step 5.
    fn targets_of(&self, a: usize, overrun: bool) -> Vec<usize> {
        let Some(u) = self.unit_at(a) else {
            return Vec::new();
        };
        let seat = u.seat;
        let g = geo();
        let adjacent = self.adjacent_enemy(a, seat);
        let nf = self.nf();
        let mut out = Vec::new();
        for t in 0..NUM_HEXES {
            if self.unit_at(t).is_none_or(|e| e.seat == seat) {
                continue;
            }
            let d = g.d(a, t);
            if adjacent && d != 1 {
                continue;
            }
            if nf && self.card_is(CLOSE_ASSAULT) && d != 1 {
                continue;
            }
            if nf && self.card_is(FIREFIGHT) && d < 2 {
                continue;
            }
            if self.attack_dice(a, t, overrun) >= 1 {
                out.push(t);
            }
        }
        out
    }

    fn can_clear(&self, a: usize) -> bool {
        self.unit_at(a).is_some_and(|u| u.kind == Kind::Infantry) && self.has_wire(a)
    }

    fn can_battle(&self, i: usize) -> bool {
        match self.unit_at(i) {
            Some(u) if u.seat == self.active && u.ordered && self.may_battle(u) => {
                self.can_clear(i) || !self.targets_of(i, false).is_empty()
            }
            _ => false,
        }
    }

    /// Dice the target on `t` could roll back at the attacker on `a` (the ambush window).
    fn back_dice(&self, a: usize, t: usize) -> i32 {
        match self.unit_at(t) {
            Some(e) => 3 - self.protection(a, e.kind, t) - self.own_penalty(t, e.kind),
            None => 0,
        }
    }

    fn retreat_hexes(&self, t: usize) -> Vec<usize> {
        let g = geo();
        let (Some(u), Some(&h)) = (self.unit_at(t), g.hexes.get(t)) else {
            return Vec::new();
        };
        let dr = if u.seat == 0 { 1 } else { -1 };
        let mut out = Vec::new();
        for dc in [-1i8, 1] {
            let n = super::hex::Hex::new(h.row + dr, h.col + dc);
            if let Some(i) = n.index() {
                if self.unit_at(i).is_none() && self.ter(i) != Ter::River {
                    out.push(i);
                }
            }
        }
        out.sort_unstable();
        out
    }

    fn air_can_pick(&self, h: usize) -> bool {
        if self.targets.n >= 4 || self.targets.contains(h as u8) {
            return false;
        }
        if self.unit_at(h).is_none_or(|u| u.seat == self.active) {
            return false;
        }
        self.targets.n == 0
            || self
                .targets
                .as_slice()
                .iter()
                .any(|&p| geo().d(p as usize, h) == 1)
    }

    // ---- legal actions ----

    pub fn legal(&self, out: &mut Vec<u32>) {
        out.clear();
        let a = self.active as usize & 1;
        match self.phase {
            Phase::Over => {}
            Phase::Deal | Phase::Draw => {
                for k in 0..TYPES {
                    if self.deck[k] > 0 {
                        out.push(k as u32);
                    }
                }
            }
            Phase::Dice | Phase::Roll => out.extend(0..5),
            Phase::Play => {
                let hand = &self.hands[a];
                let only_ambush = hand_size(hand) == hand[AMBUSH as usize] as u32;
                for k in 0..TYPES {
                    if hand[k] > 0 && (k != AMBUSH as usize || only_ambush) {
                        out.push(k as u32);
                    }
                }
            }
            Phase::Section => {
                for s in self.section_choices() {
                    out.push(A_SECTION + s as u32);
                }
            }
            Phase::Order => {
                for i in self.orderable() {
                    out.push(A_ORDER + i as u32);
                }
                out.push(A_DONE);
            }
            Phase::Move => {
                out.push(A_DONE); // below every unit id
                for i in 0..NUM_HEXES {
                    if self.can_move(i) {
                        out.push(A_UNIT + i as u32);
                    }
                }
            }
            Phase::MoveTo => {
                if let Some(u) = self.unit {
                    let r = self.unit_reach(u as usize);
                    for (x, &d) in r.iter().enumerate() {
                        if d != u8::MAX {
                            out.push(A_TO + x as u32);
                        }
                    }
                }
            }
            Phase::Battle => {
                out.push(A_DONE);
                for i in 0..NUM_HEXES {
                    if self.can_battle(i) {
                        out.push(A_UNIT + i as u32);
                    }
                }
            }
            Phase::Target => {
                if let Some(u) = self.unit {
                    for t in self.targets_of(u as usize, false) {
                        out.push(A_TO + t as u32);
                    }
                    if self.can_clear(u as usize) {
                        out.push(A_CLEAR);
                    }
                }
            }
            Phase::Ambush => {
                if let Some(b) = &self.battle {
                    let def = self
                        .unit_at(b.cur.target as usize)
                        .map(|u| u.seat as usize & 1);
                    if def.is_some_and(|d| self.hands[d][AMBUSH as usize] > 0) {
                        out.push(A_AMBUSH);
                    }
                }
                out.push(A_PASS);
            }
            Phase::Ignore => {
                out.push(A_IGNORE);
                out.push(A_TAKE);
            }
            Phase::Retreat => {
                if let Some(b) = &self.battle {
                    for x in self.retreat_hexes(b.cur.target as usize) {
                        out.push(A_TO + x as u32);
                    }
                }
            }
            Phase::Advance => {
                out.push(A_DONE);
                out.push(A_ADVANCE);
            }
            Phase::Overrun => {
                out.push(A_DONE);
                if let Some(u) = self.unit {
                    for t in self.targets_of(u as usize, true) {
                        out.push(A_TO + t as u32);
                    }
                }
            }
            Phase::MoveAgain => {
                out.push(A_DONE);
                if let Some(u) = self.unit {
                    for (x, &d) in self.bel_reach(u as usize).iter().enumerate() {
                        if d != u8::MAX {
                            out.push(A_TO + x as u32);
                        }
                    }
                }
            }
            Phase::AirTarget => {
                if self.targets.n >= 1 {
                    out.push(A_DONE);
                }
                for h in 0..NUM_HEXES {
                    if self.air_can_pick(h) {
                        out.push(A_TO + h as u32);
                    }
                }
            }
            Phase::BarrageTarget => {
                for h in 0..NUM_HEXES {
                    if self.unit_at(h).is_some_and(|u| u.seat != self.active) {
                        out.push(A_TO + h as u32);
                    }
                }
            }
            Phase::MedicsTarget => {
                for h in 0..NUM_HEXES {
                    if self
                        .unit_at(h)
                        .is_some_and(|u| u.seat == self.active && u.figures < u.start)
                    {
                        out.push(A_ORDER + h as u32);
                    }
                }
            }
            Phase::Keep => {
                for &k in self.recon.as_slice() {
                    let id = A_KEEP + k as u32;
                    if out.last() != Some(&id) {
                        out.push(id);
                    }
                }
            }
        }
    }

    fn section_choices(&self) -> Vec<usize> {
        let seat = self.active;
        let mut with_inf = [false; 3];
        let mut with_any = [false; 3];
        for i in 0..NUM_HEXES {
            if let Some(u) = self.unit_at(i) {
                if u.seat == seat {
                    let s = self.sections(i, seat);
                    for k in 0..3 {
                        if s[k] {
                            with_any[k] = true;
                            if u.kind == Kind::Infantry {
                                with_inf[k] = true;
                            }
                        }
                    }
                }
            }
        }
        let pick = if with_inf.iter().any(|&b| b) {
            with_inf
        } else if with_any.iter().any(|&b| b) {
            with_any
        } else {
            [true; 3]
        };
        (0..3).filter(|&k| pick[k]).collect()
    }

    pub fn chance_weights(&self, out: &mut Vec<(u32, u64)>) {
        out.clear();
        match self.phase {
            Phase::Deal | Phase::Draw => {
                for k in 0..TYPES {
                    if self.deck[k] > 0 {
                        out.push((k as u32, self.deck[k] as u64));
                    }
                }
            }
            Phase::Dice | Phase::Roll => {
                for f in 0..5 {
                    out.push((f as u32, FACE_WEIGHTS[f]));
                }
            }
            _ => {}
        }
    }

    pub fn is_chance(&self) -> bool {
        matches!(
            self.phase,
            Phase::Deal | Phase::Draw | Phase::Dice | Phase::Roll
        )
    }

    pub fn current(&self) -> i32 {
        match self.phase {
            Phase::Over => crate::TERMINAL,
            Phase::Deal | Phase::Draw | Phase::Dice | Phase::Roll => crate::CHANCE,
            Phase::Ambush | Phase::Ignore | Phase::Retreat => self
                .battle
                .and_then(|b| self.unit_at(b.cur.target as usize).map(|u| u.seat as i32))
                .unwrap_or(self.active as i32),
            _ => self.active as i32,
        }
    }

    // ---- applying ----

    pub fn apply(&mut self, action: u32) {
        let a = self.active as usize & 1;
        match self.phase {
            Phase::Over => {}
            Phase::Deal => {
                let k = action as usize;
                if k < TYPES && self.deck[k] > 0 {
                    self.deck[k] -= 1;
                    let s = if hand_size(&self.hands[0]) < self.rules.cards[0] as u32 {
                        0
                    } else {
                        1
                    };
                    self.hands[s][k] += 1;
                }
                self.deal_next();
            }
            Phase::Draw => {
                let k = action as usize;
                if k < TYPES && self.deck[k] > 0 {
                    self.deck[k] -= 1;
                    if self.recon_draws > 0 {
                        self.recon.push(k as u8);
                        let n = self.recon.n as usize;
                        self.recon.h[..n.min(4)].sort_unstable();
                        self.recon_draws -= 1;
                    } else {
                        let d = self.drawer.unwrap_or(self.active) as usize & 1;
                        self.hands[d][k] += 1;
                        self.draws = self.draws.saturating_sub(1);
                    }
                }
                self.next_draw();
            }
            Phase::Keep => {
                let k = action.wrapping_sub(A_KEEP) as usize;
                let d = self.drawer.unwrap_or(self.active) as usize & 1;
                let mut kept = false;
                for &c in self.recon.as_slice() {
                    if !kept && c as usize == k {
                        self.hands[d][k] += 1;
                        kept = true;
                    } else if let Some(x) = self.discard.get_mut(c as usize) {
                        *x += 1;
                    }
                }
                self.recon.clear();
                self.next_draw();
            }
            Phase::Dice => self.roll_die(action as usize),
            Phase::Roll => self.roll_card_die(action as usize),
            Phase::Play => self.play(action as u8),
            Phase::Section => {
                self.section = Some(action.wrapping_sub(A_SECTION).min(2) as u8);
                self.enter_order();
            }
            Phase::Order => {
                if action == A_DONE {
                    self.order_done();
                } else {
                    let i = action.wrapping_sub(A_ORDER) as usize;
                    if let Some(u) = self.unit_mut(i) {
                        u.ordered = true;
                    }
                    self.enter_order();
                }
            }
            Phase::Move => {
                if action == A_DONE {
                    self.enter_battle();
                } else {
                    self.unit = Some(action.wrapping_sub(A_UNIT) as u8);
                    self.phase = Phase::MoveTo;
                }
            }
            Phase::MoveTo => {
                let from = self.unit.unwrap_or(0) as usize;
                let x = action.wrapping_sub(A_TO) as usize;
                let d = self.unit_reach(from).get(x).copied().unwrap_or(1);
                self.unit = None;
                self.phase = Phase::Move;
                if self.relocate(from, x, d) {
                    return;
                }
                self.enter_move();
            }
            Phase::Battle => {
                if action == A_DONE {
                    self.battle_done();
                } else {
                    self.unit = Some(action.wrapping_sub(A_UNIT) as u8);
                    self.phase = Phase::Target;
                }
            }
            Phase::Target => {
                let u = self.unit.unwrap_or(0) as usize;
                if action == A_CLEAR {
                    self.wire &= !bit(u);
                    if let Some(x) = self.unit_mut(u) {
                        x.battles += 1;
                    }
                    self.enter_battle();
                } else {
                    self.declare(u, action.wrapping_sub(A_TO) as usize, false);
                }
            }
            Phase::Ambush => {
                if action == A_AMBUSH {
                    self.play_ambush();
                } else {
                    self.phase = Phase::Dice;
                }
            }
            Phase::Ignore => {
                if action == A_IGNORE {
                    if let Some(b) = &mut self.battle {
                        b.cur.flags = b.cur.flags.saturating_sub(1);
                    }
                }
                self.resolve_flags();
            }
            Phase::Retreat => self.retreat(action.wrapping_sub(A_TO) as usize),
            Phase::Advance => {
                if action == A_ADVANCE {
                    self.advance();
                } else {
                    self.enter_battle();
                }
            }
            Phase::Overrun => {
                if action == A_DONE {
                    self.enter_battle();
                } else {
                    let u = self.unit.unwrap_or(0) as usize;
                    self.declare(u, action.wrapping_sub(A_TO) as usize, true);
                }
            }
            Phase::MoveAgain => {
                if action != A_DONE {
                    let from = self.unit.unwrap_or(0) as usize;
                    let x = action.wrapping_sub(A_TO) as usize;
                    let d = self.bel_reach(from).get(x).copied().unwrap_or(1);
                    self.unit = Some(x as u8); // `unit` follows the unit to its new hex (§6.6)
                    if self.relocate(from, x, d) {
                        return;
                    }
                }
                self.end_turn();
            }
            Phase::AirTarget => {
                if action == A_DONE {
                    self.start_air();
                } else {
                    self.targets.push(action.wrapping_sub(A_TO) as u8);
                    if self.targets.n >= 4 || !(0..NUM_HEXES).any(|h| self.air_can_pick(h)) {
                        self.start_air();
                    }
                }
            }
            Phase::BarrageTarget => {
                let t = action.wrapping_sub(A_TO) as u8;
                self.battle = Some(Battle {
                    cur: Fight {
                        kind: BKind::Barrage,
                        attacker: None,
                        target: t,
                        origin: t,
                        dice: 4,
                        rolled: [0; 5],
                        flags: 0,
                        retreated: 0,
                        close: false,
                        overrun: false,
                    },
                    pending: None,
                });
                self.phase = Phase::Dice;
            }
            Phase::MedicsTarget => {
                let h = action.wrapping_sub(A_ORDER) as u8;
                self.unit = Some(h);
                let n = hand_size(&self.hands[a]) + 1;
                self.roll = Some(Roll {
                    dice: n.min(255) as u8,
                    rolled: [0; 5],
                });
                self.phase = Phase::Roll;
            }
        }
    }

    fn deal_next(&mut self) {
        let full = |s: usize, st: &Self| hand_size(&st.hands[s]) >= st.rules.cards[s] as u32;
        if (full(0, self) && full(1, self)) || hand_size(&self.deck) == 0 {
            let s = self.rules.starting as usize & 1;
            self.active = s as u8;
            self.turns[s] = 1;
            self.phase = Phase::Play;
        } else {
            self.phase = Phase::Deal;
        }
    }

    fn play(&mut self, k: u8) {
        let a = self.active as usize & 1;
        let ku = k as usize;
        if ku >= TYPES || self.hands[a][ku] == 0 {
            return;
        }
        self.hands[a][ku] -= 1;
        self.played = Some(k);
        let mut copied = false;
        if k == COUNTER_ATTACK {
            match self.last[1 - a] {
                Some((c, s)) => {
                    self.card = Some(mirror(c));
                    if c == INFANTRY_ASSAULT {
                        self.section = s.map(|s| 2 - s.min(2));
                    }
                    copied = true;
                }
                None => {
                    self.card = None;
                    self.end_turn();
                    return;
                }
            }
        } else {
            self.card = Some(k);
        }
        let card = self.card.unwrap_or(k);
        let seat = self.active;
        let fb_kind = match card {
            MOVE_OUT | DIG_IN | BEHIND_ENEMY_LINES | INFANTRY_ASSAULT => Some(Kind::Infantry),
            ARMOR_ASSAULT => Some(Kind::Armor),
            ARTILLERY_BOMBARD => Some(Kind::Artillery),
            _ => None,
        };
        self.fallback = fb_kind.is_some_and(|kd| !self.has_unit_of(seat, kd));
        match card {
            0..=14
            | ARMOR_ASSAULT
            | ARTILLERY_BOMBARD
            | BEHIND_ENEMY_LINES
            | CLOSE_ASSAULT
            | DIG_IN
            | DIRECT_FROM_HQ
            | FIREFIGHT
            | MOVE_OUT => self.enter_order(),
            INFANTRY_ASSAULT => {
                if copied && self.section.is_some() {
                    self.enter_order();
                } else {
                    self.phase = Phase::Section;
                }
            }
            AIR_POWER => {
                if self.any_enemy() {
                    self.targets.clear();
                    self.phase = Phase::AirTarget;
                } else {
                    self.end_turn();
                }
            }
            BARRAGE => {
                if self.any_enemy() {
                    self.phase = Phase::BarrageTarget;
                } else {
                    self.end_turn();
                }
            }
            MEDICS => {
                if self
                    .units
                    .iter()
                    .flatten()
                    .any(|u| u.seat == seat && u.figures < u.start)
                {
                    self.phase = Phase::MedicsTarget;
                } else {
                    self.end_turn();
                }
            }
            THEIR_FINEST_HOUR => {
                let n = hand_size(&self.hands[a]) + 1;
                self.roll = Some(Roll {
                    dice: n.min(255) as u8,
                    rolled: [0; 5],
                });
                self.phase = Phase::Roll;
            }
            _ => self.end_turn(),
        }
    }

    fn enter_order(&mut self) {
        self.phase = Phase::Order;
        if self.orderable().is_empty() {
            self.order_done();
        }
    }

    fn order_done(&mut self) {
        let nf = self.nf();
        match self.card {
            Some(DIG_IN) if nf => {
                for i in self.ordered_set() {
                    if self.unit_at(i).is_some_and(|u| u.kind == Kind::Infantry) {
                        self.sand |= bit(i);
                    }
                }
                self.end_turn();
            }
            Some(CLOSE_ASSAULT) | Some(FIREFIGHT) => self.enter_battle(),
            _ => self.enter_move(),
        }
    }

    fn enter_move(&mut self) {
        self.phase = Phase::Move;
        self.unit = None;
        if !(0..NUM_HEXES).any(|i| self.can_move(i)) {
            self.enter_battle();
        }
    }

    fn enter_battle(&mut self) {
        self.phase = Phase::Battle;
        self.unit = None;
        self.battle = None;
        self.targets.clear();
        if !(0..NUM_HEXES).any(|i| self.can_battle(i)) {
            self.battle_done();
        }
    }

    fn battle_done(&mut self) {
        if self.nf() && self.card_is(BEHIND_ENEMY_LINES) {
            if let Some(&h) = self.ordered_set().first() {
                if self.bel_reach(h).iter().any(|&d| d != u8::MAX) {
                    self.unit = Some(h as u8);
                    self.phase = Phase::MoveAgain;
                    return;
                }
            }
        }
        self.end_turn();
    }

    /// Moves the unit on `from` to `to` by `d` hexes and applies the arrival (step 4); true if the game ended.
    fn relocate(&mut self, from: usize, to: usize, d: u8) -> bool {
        if from == to || from >= NUM_HEXES || to >= NUM_HEXES {
            return false;
        }
        let Some(mut u) = self.units[from].take() else {
            return false;
        };
        u.moved = u.moved.saturating_add(d);
        self.arrive(from, to, u)
    }

    /// The unit `u` leaves `from` and arrives on `to`: sandbags, wire, cover, medals.
    fn arrive(&mut self, from: usize, to: usize, mut u: Unit) -> bool {
        self.sand &= !bit(from);
        if u.kind == Kind::Armor && self.has_wire(to) {
            self.wire &= !bit(to);
        }
        if self.ter(to).is_cover() {
            u.no_battle = true;
        }
        self.units[to] = Some(u);
        self.check_win()
    }

    /// The dice of a first battle of `a` at `t`, or 0 when `t` is not one of its targets (tests).
    #[cfg(test)]
    pub fn declare_for_test(&self, a: usize, t: usize) -> i32 {
        if self.targets_of(a, false).contains(&t) {
            self.attack_dice(a, t, false)
        } else {
            0
        }
    }

    fn declare(&mut self, a: usize, t: usize, overrun: bool) {
        let dice = self.attack_dice(a, t, overrun).max(0);
        if let Some(u) = self.unit_mut(a) {
            if overrun {
                u.overrun = true;
            } else {
                u.battles += 1;
            }
        }
        let close = geo().d(a, t) == 1;
        self.unit = Some(a as u8);
        self.targets.clear();
        self.battle = Some(Battle {
            cur: Fight {
                kind: BKind::Attack,
                attacker: Some(a as u8),
                target: t as u8,
                origin: t as u8,
                dice: dice.min(255) as u8,
                rolled: [0; 5],
                flags: 0,
                retreated: 0,
                close,
                overrun,
            },
            pending: None,
        });
        if close
            && self.discard[AMBUSH as usize] == 0
            && self.ambush.is_none()
            && self.back_dice(a, t) >= 1
        {
            self.phase = Phase::Ambush;
        } else {
            self.phase = Phase::Dice;
        }
    }

    fn play_ambush(&mut self) {
        let Some(b) = self.battle else {
            self.phase = Phase::Dice;
            return;
        };
        let a = b.cur.attacker.unwrap_or(0) as usize;
        let t = b.cur.target as usize;
        let Some(def) = self.unit_at(t).map(|u| u.seat) else {
            self.phase = Phase::Dice;
            return;
        };
        let d = def as usize & 1;
        self.hands[d][AMBUSH as usize] = self.hands[d][AMBUSH as usize].saturating_sub(1);
        self.ambush = Some(def);
        let dice = self.back_dice(a, t).max(0);
        self.battle = Some(Battle {
            cur: Fight {
                kind: BKind::Ambush,
                attacker: Some(t as u8),
                target: a as u8,
                origin: a as u8,
                dice: dice.min(255) as u8,
                rolled: [0; 5],
                flags: 0,
                retreated: 0,
                close: true,
                overrun: false,
            },
            pending: Some(b.cur),
        });
        self.phase = Phase::Dice;
    }

    fn roll_die(&mut self, f: usize) {
        let Some(b) = &mut self.battle else {
            self.enter_battle();
            return;
        };
        if f < 5 {
            b.cur.rolled[f] = b.cur.rolled[f].saturating_add(1);
        }
        b.cur.dice = b.cur.dice.saturating_sub(1);
        if b.cur.dice == 0 {
            self.resolve_hits();
        }
    }

    fn resolve_hits(&mut self) {
        let Some(b) = self.battle else { return };
        let f = b.cur;
        let t = f.target as usize;
        let Some(u) = self.unit_at(t).copied() else {
            self.finish_battle();
            return;
        };
        let r = f.rolled;
        let mut hits = r[F_GRENADE] as u32;
        hits += match u.kind {
            Kind::Infantry => r[F_INF] as u32,
            Kind::Armor => r[F_ARMOR] as u32,
            Kind::Artillery => 0,
        };
        if f.kind == BKind::Air {
            hits += r[F_STAR] as u32;
        }
        if hits >= u.figures as u32 {
            if self.eliminate(t) {
                return;
            }
            self.finish_battle();
            return;
        }
        if let Some(x) = self.unit_mut(t) {
            x.figures -= hits as u8;
        }
        let flags = r[F_FLAG];
        if let Some(b) = &mut self.battle {
            b.cur.flags = flags;
        }
        if flags >= 1 && self.has_sand(t) && matches!(f.kind, BKind::Attack | BKind::Ambush) {
            self.phase = Phase::Ignore;
            return;
        }
        self.resolve_flags();
    }

    /// The unit on `t` is eliminated; true if the game ended.
    fn eliminate(&mut self, t: usize) -> bool {
        let Some(u) = self.units.get_mut(t).and_then(|u| u.take()) else {
            return false;
        };
        self.sand &= !bit(t);
        let m = 1 - (u.seat as usize & 1);
        self.medals[m] = self.medals[m].saturating_add(1);
        self.check_win()
    }

    fn resolve_flags(&mut self) {
        let Some(b) = self.battle else { return };
        let t = b.cur.target as usize;
        if b.cur.flags == 0 || self.unit_at(t).is_none() {
            self.finish_battle();
            return;
        }
        if self.retreat_hexes(t).is_empty() {
            if let Some(b) = &mut self.battle {
                b.cur.flags -= 1;
            }
            let dead = match self.unit_mut(t) {
                Some(u) => {
                    u.figures = u.figures.saturating_sub(1);
                    u.figures == 0
                }
                None => true,
            };
            if dead {
                if self.eliminate(t) {
                    return;
                }
                self.finish_battle();
                return;
            }
            self.resolve_flags();
            return;
        }
        self.phase = Phase::Retreat;
    }

    fn retreat(&mut self, x: usize) {
        let Some(b) = self.battle else { return };
        let t = b.cur.target as usize;
        if x >= NUM_HEXES || t >= NUM_HEXES || self.units[x].is_some() {
            return;
        }
        let Some(u) = self.units[t].take() else {
            return;
        };
        self.units[x] = Some(u);
        self.sand &= !bit(t);
        if let Some(b) = &mut self.battle {
            b.cur.target = x as u8;
            b.cur.retreated = b.cur.retreated.saturating_add(1);
            b.cur.flags = b.cur.flags.saturating_sub(1);
            if b.cur.kind == BKind::Air && self.targets.n > 0 && self.targets.h[0] as usize == t {
                self.targets.h[0] = x as u8;
            }
        }
        if self.unit == Some(t as u8) {
            self.unit = Some(x as u8);
        }
        if self.check_win() {
            return;
        }
        self.resolve_flags();
    }

    fn finish_battle(&mut self) {
        let Some(b) = self.battle else {
            self.enter_battle();
            return;
        };
        let f = b.cur;
        match f.kind {
            BKind::Attack => {
                let a = f.attacker.unwrap_or(0) as usize;
                let alive = self
                    .unit_at(a)
                    .is_some_and(|u| u.seat == self.active && u.kind != Kind::Artillery);
                if f.close && alive && self.unit_at(f.origin as usize).is_none() {
                    self.unit = Some(a as u8);
                    self.phase = Phase::Advance;
                    return;
                }
                self.enter_battle();
            }
            BKind::Ambush => {
                let orig = f.target as usize;
                let void = f.retreated >= 1 || self.unit_at(orig).is_none();
                match b.pending {
                    Some(p) if !void => {
                        self.battle = Some(Battle {
                            cur: p,
                            pending: None,
                        });
                        self.unit = p.attacker;
                        self.phase = Phase::Dice;
                    }
                    _ => self.enter_battle(),
                }
            }
            BKind::Air => {
                self.targets.remove_first();
                self.next_air();
            }
            BKind::Barrage => self.end_turn(),
        }
    }

    fn advance(&mut self) {
        let Some(a) = self.unit.map(|u| u as usize) else {
            self.enter_battle();
            return;
        };
        let Some(v) = self.battle.map(|b| b.cur.origin as usize) else {
            self.enter_battle();
            return;
        };
        self.battle = None;
        if a >= NUM_HEXES || v >= NUM_HEXES || self.units[v].is_some() {
            self.enter_battle();
            return;
        }
        let Some(u) = self.units[a].take() else {
            self.enter_battle();
            return;
        };
        self.unit = Some(v as u8);
        if self.arrive(a, v, u) {
            return;
        }
        let u = self.units[v];
        if u.is_some_and(|u| u.kind == Kind::Armor && !u.overrun && !u.no_battle) {
            self.phase = Phase::Overrun;
            if self.targets_of(v, true).is_empty() {
                self.enter_battle();
            }
        } else {
            self.enter_battle();
        }
    }

    fn start_air(&mut self) {
        self.next_air();
    }

    fn next_air(&mut self) {
        while self.targets.n > 0 {
            let t = self.targets.h[0] as usize;
            if self.unit_at(t).is_some_and(|u| u.seat != self.active) {
                let dice = if self.side_of(self.active as usize) == Side::Allies {
                    2
                } else {
                    1
                };
                self.battle = Some(Battle {
                    cur: Fight {
                        kind: BKind::Air,
                        attacker: None,
                        target: t as u8,
                        origin: t as u8,
                        dice,
                        rolled: [0; 5],
                        flags: 0,
                        retreated: 0,
                        close: false,
                        overrun: false,
                    },
                    pending: None,
                });
                self.phase = Phase::Dice;
                return;
            }
            self.targets.remove_first();
        }
        // §6.9: the last air battle stays in `battle` until step 5 clears it, as every battle does.
        self.end_turn();
    }

    fn roll_card_die(&mut self, f: usize) {
        let Some(r) = &mut self.roll else {
            self.end_turn();
            return;
        };
        if f < 5 {
            r.rolled[f] = r.rolled[f].saturating_add(1);
        }
        r.dice = r.dice.saturating_sub(1);
        if r.dice > 0 {
            return;
        }
        let rolled = r.rolled;
        if self.card_is(MEDICS) {
            let h = self.unit.unwrap_or(0) as usize;
            let mut got = 0;
            if let Some(u) = self.unit_mut(h) {
                let gain = match u.kind {
                    Kind::Infantry => rolled[F_INF],
                    Kind::Armor => rolled[F_ARMOR],
                    Kind::Artillery => 0,
                } as u32
                    + rolled[F_STAR] as u32;
                let new = (u.figures as u32 + gain).min(u.start as u32) as u8;
                got = new.saturating_sub(u.figures);
                u.figures = new;
                if got >= 1 {
                    u.ordered = true;
                }
            }
            if got >= 1 {
                self.enter_move();
            } else {
                self.end_turn();
            }
        } else {
            self.enter_order();
        }
    }

    // ---- the end of the turn (§6.9) ----

    pub fn end_turn(&mut self) {
        if let Some(s) = self.ambush {
            self.discard[AMBUSH as usize] = self.discard[AMBUSH as usize].saturating_add(1);
            self.drawer = Some(s);
            self.draws = 1;
            self.ambush = None;
        } else {
            self.step2();
        }
        self.next_draw();
    }

    fn step2(&mut self) {
        if let Some(p) = self.played {
            if let Some(x) = self.discard.get_mut(p as usize) {
                *x = x.saturating_add(1);
            }
            if p == THEIR_FINEST_HOUR {
                for k in 0..TYPES {
                    self.deck[k] = self.deck[k].saturating_add(self.discard[k]);
                    self.discard[k] = 0;
                }
            }
        }
        self.played = None;
        self.drawer = Some(self.active);
        self.recon_draws = if self.card.is_some_and(is_recon) {
            2
        } else {
            0
        };
        let a = self.active as usize & 1;
        let extra = self.rules.extra(a, self.turns[a] as u32);
        self.draws = u8::from(self.recon_draws == 0).saturating_add(extra);
    }

    fn next_draw(&mut self) {
        for _ in 0..8 {
            if self.recon_draws > 0 || self.draws > 0 {
                if hand_size(&self.deck) == 0 {
                    self.deck = self.discard;
                    self.discard = [0; TYPES];
                    if hand_size(&self.deck) == 0 {
                        self.recon_draws = 0;
                        self.draws = 0;
                        continue;
                    }
                }
                self.phase = Phase::Draw;
                return;
            }
            if self.recon.n > 0 {
                self.phase = Phase::Keep;
                return;
            }
            if self.drawer != Some(self.active) {
                self.step2();
                continue;
            }
            break;
        }
        self.step5();
    }

    fn step5(&mut self) {
        for u in self.units.iter_mut().flatten() {
            u.ordered = false;
            u.moved = 0;
            u.battles = 0;
            u.no_battle = false;
            u.overrun = false;
        }
        let a = self.active as usize & 1;
        self.last[a] = self.card.map(|c| (c, self.section));
        self.card = None;
        self.section = None;
        self.roll = None;
        self.unit = None;
        self.battle = None;
        self.drawer = None;
        self.fallback = false;
        self.targets.clear();
        if self.turns[0] as u32 + self.turns[1] as u32 >= self.rules.turn_limit {
            self.phase = Phase::Over;
            let (s0, s1) = (self.score(0), self.score(1));
            self.winner = Some(match s0.cmp(&s1) {
                std::cmp::Ordering::Greater => 0,
                std::cmp::Ordering::Less => 1,
                std::cmp::Ordering::Equal => -1,
            });
        } else {
            let o = 1 - a;
            self.active = o as u8;
            self.turns[o] = self.turns[o].saturating_add(1);
            self.phase = Phase::Play;
        }
    }
}

/// Whether units with these sections can each take an order of one of their sections within `caps`.
fn assign(secs: &[[bool; 3]], mut caps: [u8; 3]) -> bool {
    fn go(secs: &[[bool; 3]], caps: &mut [u8; 3]) -> bool {
        let Some((first, rest)) = secs.split_first() else {
            return true;
        };
        for s in 0..3 {
            if first[s] && caps[s] > 0 {
                caps[s] -= 1;
                let ok = go(rest, caps);
                caps[s] += 1;
                if ok {
                    return true;
                }
            }
        }
        false
    }
    if secs.len() > 6 {
        return false;
    }
    go(secs, &mut caps)
}
