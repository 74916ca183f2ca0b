//! The tile types as static tables (docs/rules/carcassonne.md §2), parsed once from the JSON file both engines
//! read, with everything the rules need per rotation precomputed.

use serde_json::Value;
use std::sync::OnceLock;

pub const TILES_TEXT: &str =
    include_str!("../../../../../python/meeplex/data/carcassonne_tiles.json");

/// T, the number of tile types; ids 0..23 are the base letters, 24.. the river tiles.
pub const T: usize = 34;
/// K, the feature slots of a follower action.
pub const K: usize = 12;
pub const LAND: usize = 24;
pub const START: u8 = 3;
pub const SPRING: u8 = 24;
pub const LAKE: u8 = 25;

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

#[derive(Debug)]
pub struct Feature {
    pub kind: u8,
    /// Data edges (bit e) of a city or road.
    pub edges: u8,
    /// Data halves (bit h) of a field.
    pub halves: u8,
    pub pennant: bool,
    /// The feature indices of the cities a field touches (bit k).
    pub cities: u16,
}

#[derive(Debug)]
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
            });
        }
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
    assert_eq!(out.len(), T);
    out
}

pub fn tiles() -> &'static [TileType] {
    static TABLE: OnceLock<Vec<TileType>> = OnceLock::new();
    TABLE.get_or_init(parse)
}

#[inline]
pub fn tile(t: u8) -> &'static TileType {
    &tiles()[t as usize]
}

pub fn type_by_name(name: &str) -> Option<u8> {
    tiles()
        .iter()
        .position(|t| t.name.eq_ignore_ascii_case(name))
        .map(|i| i as u8)
}
