//! The tile types as static tables (docs/rules/carcassonne.md §2), parsed once from the JSON file both engines
//! read, with everything the rules need per rotation precomputed.

use serde_json::Value;
use std::sync::OnceLock;

pub const TILES_TEXT: &str =
    include_str!("../../../../../python/meeplex/data/carcassonne_tiles.json");

/// The tile types of the base game and The River: ids 0..23 are the base letters, 24..33 the river tiles.
pub const T: usize = 34;
/// The types of Inns & Cathedrals and of Traders & Builders (the data file's entries 34..50 and 51..74).
pub const T_IC: usize = 17;
pub const T_TB: usize = 24;
/// The types of The Princess and the Dragon (entries 75..103).
pub const T_PD: usize = 29;
/// The most types a game has (every expansion): the size of the per-type arrays of a state.
pub const TMAX: usize = T + T_IC + T_TB + T_PD;
/// K, the feature slots of a follower action.
pub const K: usize = 12;
pub const LAND: usize = 24;
pub const START: u8 = 3;
pub const SPRING: u8 = 24;
pub const LAKE: u8 = 25;
/// The most features a tile type has: a figure records its feature in 3 bits.
pub const MAX_FEATURES: usize = 8;

/// Whether a game's type id is a land tile (a base letter or an expansion type; 24..33 are the river).
#[inline]
pub fn is_land(t: usize) -> bool {
    !(LAND..T).contains(&t)
}

/// Goods kinds (Traders & Builders), as a city feature's `goods`: none, then wine, grain, cloth.
pub const GOODS_NAMES: [&str; 3] = ["wine", "grain", "cloth"];

/// Edge letters.
pub const CITY: u8 = 0;
pub const ROAD: u8 = 1;
pub const FIELD: u8 = 2;
pub const RIVER: u8 = 3;

/// Feature kinds.
pub const CLOISTER: u8 = 0;
pub const FCITY: u8 = 1;
pub const FROAD: u8 = 2;
pub const FFIELD: u8 = 3;

pub const NONE: u8 = u8::MAX;
/// The constraint codes of an open position (5 states per direction: no neighbour or one of 4 letters).
pub const CODES: usize = 625;
pub const POW5: [u16; 4] = [1, 5, 25, 125];
pub const EDGE_NAMES: [&str; 4] = ["N", "E", "S", "W"];
pub const HALF_NAMES: [&str; 8] = ["NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR"];
pub const KIND_NAMES: [&str; 4] = ["cloister", "city", "road", "field"];

#[derive(Clone, Debug)]
pub struct Feature {
    pub kind: u8,
    /// Data edges (bit e) of a city or road.
    pub edges: u8,
    /// Data halves (bit h) of a field.
    pub halves: u8,
    pub pennant: bool,
    /// The feature indices of the cities a field touches (bit k).
    pub cities: u16,
    /// A road with an inn (Inns & Cathedrals).
    pub inn: bool,
    /// A city with a cathedral (Inns & Cathedrals).
    pub cathedral: bool,
    /// A city's goods symbol (Traders & Builders): 0 none, else 1 + the index in GOODS_NAMES.
    pub goods: u8,
    /// A city segment with the princess (The Princess and the Dragon, §12.4).
    pub princess: bool,
}

#[derive(Clone, Debug)]
pub struct TileType {
    pub name: String,
    pub count: u8,
    pub edges: [u8; 4],
    pub features: Vec<Feature>,
    /// Per rotation: the board edges packed 2 bits per direction (d at bits 2d..2d+1).
    pub pattern: [u8; 4],
    /// Per open-position constraint code (`Σ c_d 5^d`, c_d 0 for no neighbour in direction d, else the
    /// neighbour's letter + 1): the rotations (bit r) that fit it.
    pub fit: [u8; CODES],
    /// Per rotation and board edge: the city or road feature on it, else NONE.
    pub edge_feature: [[u8; 4]; 4],
    /// Per rotation and board half: the field feature on it, else NONE.
    pub half_feature: [[u8; 8]; 4],
    /// The data edges that are river.
    pub river_edges: u8,
    pub cloister: bool,
    /// The tile marks of The Princess and the Dragon (§12.1).
    pub volcano: bool,
    pub dragon: bool,
    pub portal: bool,
}

impl TileType {
    /// The letter on board edge d with rotation r.
    #[inline]
    pub fn edge(&self, r: usize, d: usize) -> u8 {
        self.edges[(d + 4 - r) % 4]
    }
    pub fn is_river(&self) -> bool {
        self.river_edges != 0
    }
    /// The first board edge (city, road) or half (field) of feature k with rotation r.
    pub fn first_where(&self, k: usize, r: usize) -> Option<&'static str> {
        let f = &self.features[k];
        match f.kind {
            FCITY | FROAD => (0..4)
                .find(|&d| f.edges & (1 << ((d + 4 - r) % 4)) != 0)
                .map(|d| EDGE_NAMES[d]),
            FFIELD => (0..8)
                .find(|&h| f.halves & (1 << ((h + 8 - 2 * r) % 8)) != 0)
                .map(|h| HALF_NAMES[h]),
            _ => None,
        }
    }
}

fn letter(c: char) -> u8 {
    match c {
        'C' => CITY,
        'R' => ROAD,
        'F' => FIELD,
        _ => RIVER,
    }
}

fn parse() -> Vec<TileType> {
    let v: Value = serde_json::from_str(TILES_TEXT).expect("the shipped tile table parses");
    let mut out = Vec::new();
    for t in v["tiles"].as_array().expect("tiles") {
        let edges_s: Vec<char> = t["edges"].as_str().expect("edges").chars().collect();
        let edges = [
            letter(edges_s[0]),
            letter(edges_s[1]),
            letter(edges_s[2]),
            letter(edges_s[3]),
        ];
        let mut features = Vec::new();
        for f in t["features"].as_array().expect("features") {
            let kind = match f["kind"].as_str().expect("kind") {
                "cloister" => CLOISTER,
                "city" => FCITY,
                "road" => FROAD,
                _ => FFIELD,
            };
            let mut e = 0u8;
            for name in f["edges"].as_array().into_iter().flatten() {
                let i = EDGE_NAMES.iter().position(|n| Some(*n) == name.as_str());
                e |= 1 << i.expect("edge name");
            }
            let mut h = 0u8;
            for name in f["halves"].as_array().into_iter().flatten() {
                let i = HALF_NAMES.iter().position(|n| Some(*n) == name.as_str());
                h |= 1 << i.expect("half name");
            }
            let mut cities = 0u16;
            for c in f["cities"].as_array().into_iter().flatten() {
                cities |= 1 << c.as_u64().expect("city index");
            }
            features.push(Feature {
                kind,
                edges: e,
                halves: h,
                pennant: f["pennant"].as_bool().unwrap_or(false),
                cities,
                inn: f["inn"].as_bool().unwrap_or(false),
                cathedral: f["cathedral"].as_bool().unwrap_or(false),
                goods: match f["goods"].as_str() {
                    None => 0,
                    Some(g) => {
                        1 + GOODS_NAMES
                            .iter()
                            .position(|&n| n == g)
                            .expect("a goods kind") as u8
                    }
                },
                princess: f["princess"].as_bool().unwrap_or(false),
            });
        }
        assert!(features.len() <= MAX_FEATURES, "at most 8 features a tile");
        let set = t["set"].as_str().unwrap_or("base");
        let want = match out.len() {
            i if i < LAND => "base",
            i if i < T => "river",
            i if i < T + T_IC => "inns_cathedrals",
            i if i < T + T_IC + T_TB => "traders_builders",
            _ => "princess_dragon",
        };
        assert_eq!(set, want, "the data file's types in set order");
        let mut tt = TileType {
            name: t["name"].as_str().expect("name").to_string(),
            count: t["count"].as_u64().expect("count") as u8,
            edges,
            features,
            pattern: [0; 4],
            fit: [0; CODES],
            edge_feature: [[NONE; 4]; 4],
            half_feature: [[NONE; 8]; 4],
            river_edges: (0..4)
                .filter(|&e| edges[e] == RIVER)
                .fold(0, |m, e| m | 1 << e),
            cloister: false,
            volcano: t["volcano"].as_bool().unwrap_or(false),
            dragon: t["dragon"].as_bool().unwrap_or(false),
            portal: t["portal"].as_bool().unwrap_or(false),
        };
        tt.cloister = tt.features.iter().any(|f| f.kind == CLOISTER);
        for r in 0..4 {
            for d in 0..4 {
                tt.pattern[r] |= tt.edge(r, d) << (2 * d);
            }
            for (k, f) in tt.features.iter().enumerate() {
                for e in 0..4 {
                    if f.edges & (1 << e) != 0 {
                        tt.edge_feature[r][(e + r) % 4] = k as u8;
                    }
                }
                for h in 0..8 {
                    if f.halves & (1 << h) != 0 {
                        tt.half_feature[r][(h + 2 * r) % 8] = k as u8;
                    }
                }
            }
        }
        for code in 0..CODES {
            for r in 0..4 {
                let ok = (0..4).all(|d| {
                    let c = (code / POW5[d] as usize % 5) as u8;
                    c == 0 || tt.edge(r, d) == c - 1
                });
                if ok {
                    tt.fit[code] |= 1 << r;
                }
            }
        }
        out.push(tt);
    }
    assert_eq!(out.len(), TMAX);
    out
}

/// Every type of the data file, in its order (104 entries).
pub fn all_tiles() -> &'static [TileType] {
    static TABLE: OnceLock<Vec<TileType>> = OnceLock::new();
    TABLE.get_or_init(parse)
}

/// A game's types (§2): the base and river entries, then those of the enabled expansions, in the file's
/// order; a game's type id is the position in this list.
pub fn game_tiles(ic: bool, tb: bool, pd: bool) -> &'static [TileType] {
    static TABLES: [OnceLock<Vec<TileType>>; 8] = [const { OnceLock::new() }; 8];
    TABLES[ic as usize | (tb as usize) << 1 | (pd as usize) << 2].get_or_init(|| {
        let all = all_tiles();
        let mut v = all[..T].to_vec();
        if ic {
            v.extend_from_slice(&all[T..T + T_IC]);
        }
        if tb {
            v.extend_from_slice(&all[T + T_IC..T + T_IC + T_TB]);
        }
        if pd {
            v.extend_from_slice(&all[T + T_IC + T_TB..]);
        }
        v
    })
}

/// The type id of a name among a game's types (ASCII case folded).
pub fn type_by_name(types: &[TileType], name: &str) -> Option<u8> {
    types
        .iter()
        .position(|t| t.name.eq_ignore_ascii_case(name))
        .map(|i| i as u8)
}
