//! The static part of a game: the scenario's board as the rules read it (§6.1, §6.2), per seat, plus the
//! parameters. Shared by every state of a game behind an `Arc`.

use super::board::{ObstacleKind, RectKind, Scenario, Side, TerrainKind, UnitKind};
use super::hex::{Hex, NUM_HEXES};
use crate::error::{invalid, Result};
use crate::json;
use std::sync::OnceLock;

/// A hex's terrain as the rules use it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ter {
    Open,
    Village,
    Forest,
    Hedgerow,
    Hill,
    /// River or river bend without a bridge: impassable.
    River,
    /// River with a bridge: passable, no effect.
    Bridge,
}

impl Ter {
    /// Village, forest, hedgerow: stop on entering, no battle after entering, 1 / 2 / 0.
    pub fn is_cover(self) -> bool {
        matches!(self, Ter::Village | Ter::Forest | Ter::Hedgerow)
    }
    pub fn blocks_los(self) -> bool {
        matches!(self, Ter::Village | Ter::Forest | Ter::Hedgerow | Ter::Hill)
    }
}

/// Unit kinds as serialized: `infantry` / `armor` / `artillery`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Infantry,
    Armor,
    Artillery,
}

impl Kind {
    pub fn index(self) -> usize {
        match self {
            Kind::Infantry => 0,
            Kind::Armor => 1,
            Kind::Artillery => 2,
        }
    }
    pub fn name(self) -> &'static str {
        ["infantry", "armor", "artillery"][self.index()]
    }
    /// Figures at full strength.
    pub fn start(self, special: bool) -> u8 {
        match (self, special) {
            (Kind::Infantry, _) => 4,
            (Kind::Armor, false) => 3,
            (Kind::Armor, true) => 4,
            (Kind::Artillery, _) => 2,
        }
    }
}

/// A unit on the board, with its turn flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Unit {
    pub seat: u8,
    pub kind: Kind,
    pub special: bool,
    pub figures: u8,
    pub start: u8,
    pub ordered: bool,
    pub moved: u8,
    pub battles: u8,
    pub no_battle: bool,
    pub overrun: bool,
}

impl Unit {
    pub fn new(seat: u8, kind: Kind, special: bool) -> Unit {
        let start = kind.start(special);
        Unit {
            seat,
            kind,
            special,
            figures: start,
            start,
            ordered: false,
            moved: 0,
            battles: 0,
            no_battle: false,
            overrun: false,
        }
    }
}

/// The rules of one game: scenario and parameters. Index by seat (0 bottom, 1 top).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    pub scenario: String,
    pub turn_limit: u32,
    pub terrain: [Ter; NUM_HEXES],
    /// Temporary medal tags per hex: how many for each seat's side.
    pub medal_tags: [[u8; 2]; NUM_HEXES],
    /// Connected group of hill hexes (`u8::MAX` for no hill).
    pub hill_group: [u8; NUM_HEXES],
    pub sides: [Side; 2],
    pub cards: [u8; 2],
    pub victory: [u8; 2],
    pub starting: u8,
    pub extra_draws: [Vec<u8>; 2],
    pub init_units: [Option<Unit>; NUM_HEXES],
    pub init_wire: u128,
    pub init_sand: u128,
    pub num_units: usize,
}

/// Geometry tables: the hex of each index, the neighbours of each index.
pub struct Geo {
    pub hexes: [Hex; NUM_HEXES],
    pub nbrs: [[u8; 6]; NUM_HEXES],
    pub n_nbrs: [u8; NUM_HEXES],
    pub dist: Vec<u8>,
}

pub fn geo() -> &'static Geo {
    static G: OnceLock<Geo> = OnceLock::new();
    G.get_or_init(|| {
        let mut hexes = [Hex::new(0, 0); NUM_HEXES];
        for (i, h) in Hex::all().enumerate().take(NUM_HEXES) {
            hexes[i] = h;
        }
        let mut nbrs = [[0u8; 6]; NUM_HEXES];
        let mut n_nbrs = [0u8; NUM_HEXES];
        let mut dist = vec![0u8; NUM_HEXES * NUM_HEXES];
        for i in 0..NUM_HEXES {
            let mut ns: Vec<u8> = hexes[i]
                .neighbours()
                .filter_map(|n| n.index())
                .map(|n| n as u8)
                .collect();
            ns.sort_unstable();
            for (j, &n) in ns.iter().enumerate().take(6) {
                nbrs[i][j] = n;
            }
            n_nbrs[i] = ns.len().min(6) as u8;
            for j in 0..NUM_HEXES {
                dist[i * NUM_HEXES + j] = hexes[i].distance(hexes[j]).clamp(0, 255) as u8;
            }
        }
        Geo {
            hexes,
            nbrs,
            n_nbrs,
            dist,
        }
    })
}

impl Geo {
    #[inline]
    pub fn d(&self, a: usize, b: usize) -> u8 {
        self.dist.get(a * NUM_HEXES + b).copied().unwrap_or(u8::MAX)
    }
    #[inline]
    pub fn neighbours(&self, i: usize) -> &[u8] {
        match (self.nbrs.get(i), self.n_nbrs.get(i)) {
            (Some(n), Some(&k)) => &n[..k as usize],
            _ => &[],
        }
    }
}

pub fn hex_name(i: usize) -> String {
    match geo().hexes.get(i) {
        Some(h) => format!("{},{}", h.row, h.col),
        None => format!("?{i}"),
    }
}

pub fn parse_hex(s: &str) -> Option<usize> {
    let (r, c) = s.split_once(',')?;
    if r.is_empty() || c.is_empty() || r.len() > 2 || c.len() > 2 {
        return None;
    }
    if !r.bytes().all(|b| b.is_ascii_digit()) || !c.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let r: i8 = r.parse().ok()?;
    let c: i8 = c.parse().ok()?;
    // canonical: no leading zeros
    if format!("{r},{c}") != s {
        return None;
    }
    Hex::new(r, c).index()
}

impl Rules {
    /// The rules of `scenario` (its parsed file and its text, for the medal tag names) at `turn_limit`.
    pub fn new(name: &str, text: &str, turn_limit: u32) -> Result<Rules> {
        let sc = Scenario::parse(text)?;
        // Medal tags other than medal1 / medal2 are refused (§6.1); the board reader keeps only sides.
        if let Ok(v) = json::parse(text) {
            if let Some(hexes) = v
                .get("board")
                .and_then(|b| b.get("hexagons"))
                .and_then(|h| h.as_array())
            {
                for (i, h) in hexes.iter().enumerate() {
                    if let Some(tags) = h.get("tags").and_then(|t| t.as_array()) {
                        for t in tags {
                            let n = t.get("name").and_then(|n| n.as_str()).unwrap_or("");
                            if n != "medal1" && n != "medal2" {
                                return invalid(format!(
                                    "memoir44 scenario: board.hexagons[{i}].tags: the medal tag {n:?} is not supported (only medal1, medal2)"
                                ));
                            }
                        }
                    }
                }
            }
        }
        let info = &sc.info;
        // Seat 0 is player 2 (bottom), seat 1 player 1 (top).
        let sides = [info.sides[1], info.sides[0]];
        let cards = [info.cards[1], info.cards[0]];
        let victory = [info.victory[1], info.victory[0]];
        let starting = if info.starting == 1 { 0 } else { 1 };
        let extra_draws = [info.extra_draws[1].clone(), info.extra_draws[0].clone()];
        if cards.contains(&0) || cards[0] as u32 + cards[1] as u32 > 40 {
            return invalid(
                "memoir44 scenario: each side needs 1 or more cards, 40 at most together",
            );
        }
        if victory.contains(&0) {
            return invalid("memoir44 scenario: victory medals must be at least 1");
        }
        let mut terrain = [Ter::Open; NUM_HEXES];
        let mut medal_tags = [[0u8; 2]; NUM_HEXES];
        let mut init_units = [None; NUM_HEXES];
        let mut init_wire = 0u128;
        let mut init_sand = 0u128;
        let mut num_units = 0;
        let mut per_seat = [0usize; 2];
        for (i, (_h, d)) in sc.hexes().enumerate() {
            let bridged = d.rect_terrain.is_some_and(|r| r.kind == RectKind::Bridge);
            terrain[i] = match d.terrain.map(|t| t.kind) {
                None => {
                    if bridged {
                        Ter::Bridge
                    } else {
                        Ter::Open
                    }
                }
                Some(TerrainKind::Village) => Ter::Village,
                Some(TerrainKind::Forest) => Ter::Forest,
                Some(TerrainKind::Hedgerow) => Ter::Hedgerow,
                Some(TerrainKind::Hill) => Ter::Hill,
                Some(TerrainKind::River) | Some(TerrainKind::RiverCurve) => {
                    if bridged {
                        Ter::Bridge
                    } else {
                        Ter::River
                    }
                }
            };
            for &s in &d.medals {
                let seat = usize::from(sides[0] != s);
                medal_tags[i][seat] = medal_tags[i][seat].saturating_add(1);
            }
            if let Some(o) = d.obstacle {
                match o.kind {
                    ObstacleKind::Wire => init_wire |= 1u128 << i,
                    ObstacleKind::Sandbags => init_sand |= 1u128 << i,
                }
            }
            if let Some(u) = d.unit {
                let seat = usize::from(sides[0] != u.side);
                if sides[0] == sides[1] {
                    return invalid("memoir44 scenario: both players have the same side");
                }
                let (kind, special) = match u.kind {
                    UnitKind::Infantry => (Kind::Infantry, false),
                    UnitKind::SpecialForces => (Kind::Infantry, true),
                    UnitKind::Armor => (Kind::Armor, false),
                    UnitKind::EliteArmor => (Kind::Armor, true),
                    UnitKind::Artillery => (Kind::Artillery, false),
                };
                if terrain[i] == Ter::River {
                    return invalid(format!(
                        "memoir44 scenario: a unit on the impassable hex {}",
                        hex_name(i)
                    ));
                }
                init_units[i] = Some(Unit::new(seat as u8, kind, special));
                num_units += 1;
                per_seat[seat] += 1;
            }
        }
        if per_seat.contains(&0) {
            return invalid("memoir44 scenario: a side has no unit");
        }
        // Hill groups.
        let g = geo();
        let mut hill_group = [u8::MAX; NUM_HEXES];
        let mut next = 0u8;
        for i in 0..NUM_HEXES {
            if terrain[i] != Ter::Hill || hill_group[i] != u8::MAX {
                continue;
            }
            let mut stack = vec![i];
            hill_group[i] = next;
            while let Some(h) = stack.pop() {
                for &n in g.neighbours(h) {
                    let n = n as usize;
                    if terrain[n] == Ter::Hill && hill_group[n] == u8::MAX {
                        hill_group[n] = next;
                        stack.push(n);
                    }
                }
            }
            next = next.saturating_add(1);
        }
        Ok(Rules {
            scenario: name.to_string(),
            turn_limit,
            terrain,
            medal_tags,
            hill_group,
            sides,
            cards,
            victory,
            starting,
            extra_draws,
            init_units,
            init_wire,
            init_sand,
            num_units,
        })
    }

    /// Extra cards seat `s` draws at the end of its own turn `t` (1-based).
    pub fn extra(&self, s: usize, t: u32) -> u8 {
        if t == 0 {
            return 0;
        }
        self.extra_draws
            .get(s)
            .and_then(|l| l.get(t as usize - 1))
            .copied()
            .unwrap_or(0)
    }
}
