//! The components of Forbidden Island (docs/rules/forbidden_island.md §2) as static tables, parsed once from
//! the data file both engines read, with each layout's adjacency precomputed as bit sets of positions.

use serde_json::Value;
use std::sync::OnceLock;

pub const DATA_TEXT: &str =
    include_str!("../../../../../python/meeplex/data/forbidden_island.json");

/// Tiles, positions, flood cards.
pub const TILES: usize = 24;
pub const ROLES: usize = 6;
/// Card kinds of the treasure deck: 0..3 treasures, 4 heli, 5 sandbags, 6 waters_rise.
pub const KINDS: usize = 7;
/// Kinds a hand may hold (never Waters Rise!).
pub const HAND_KINDS: usize = 6;
pub const HELI: usize = 4;
pub const SANDBAGS: usize = 5;
pub const WATERS_RISE: usize = 6;
pub const FOOLS_LANDING: u8 = 0;
pub const NONE: u8 = u8::MAX;

pub const DIVER: u8 = 0;
pub const ENGINEER: u8 = 1;
pub const EXPLORER: u8 = 2;
pub const MESSENGER: u8 = 3;
pub const NAVIGATOR: u8 = 4;
pub const PILOT: u8 = 5;

/// Every position of a layout, as a bit set.
pub const ALL: u32 = (1 << TILES) - 1;

pub struct Layout {
    pub key: String,
    /// Each position's name: its column letter and row digit (`c1`).
    pub names: Vec<String>,
    /// Orthogonal and diagonal neighbours of each position, as bit sets of positions.
    pub orth: [u32; TILES],
    pub diag: [u32; TILES],
}

pub struct Data {
    pub tile_keys: Vec<String>,
    pub tile_names: Vec<String>,
    /// The treasure (0..3) of each tile, NONE for most.
    pub tile_treasure: [u8; TILES],
    /// The two tiles of each treasure.
    pub treasure_tiles: [[u8; 2]; 4],
    pub treasure_names: Vec<String>,
    /// The tile each role starts on.
    pub role_start: [u8; ROLES],
    pub role_keys: Vec<String>,
    pub card_keys: Vec<String>,
    pub card_counts: [u8; KINDS],
    pub layouts: Vec<Layout>,
    /// Flood cards drawn per turn, indexed by level (0 at the skull and beyond).
    pub flood_cards: [u8; 11],
    pub skull: u8,
    /// (difficulty, start level), in the data file's order.
    pub start_levels: Vec<(String, u8)>,
    pub initial_flood: u8,
    pub cards_per_player: u8,
    pub hand_limit: u8,
    pub actions_per_turn: u8,
    pub treasure_per_turn: u8,
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .expect("a list")
        .iter()
        .map(|s| s.as_str().expect("a str").to_string())
        .collect()
}

fn int(v: &Value) -> u8 {
    v.as_u64().expect("an int") as u8
}

fn parse() -> Data {
    let v: Value = serde_json::from_str(DATA_TEXT).expect("the shipped data file parses");
    let treasure_keys: Vec<String> = v["treasures"]
        .as_array()
        .expect("treasures")
        .iter()
        .map(|t| t["key"].as_str().expect("key").to_string())
        .collect();
    let treasure_names = v["treasures"]
        .as_array()
        .expect("treasures")
        .iter()
        .map(|t| t["name"].as_str().expect("name").to_string())
        .collect();
    let role_keys = strings(&v["roles"]);
    let tiles = v["tiles"].as_array().expect("tiles");
    assert_eq!(tiles.len(), TILES);
    let mut tile_treasure = [NONE; TILES];
    let mut treasure_tiles = [[NONE; 2]; 4];
    let mut role_start = [NONE; ROLES];
    let (mut tile_keys, mut tile_names) = (Vec::new(), Vec::new());
    for (i, t) in tiles.iter().enumerate() {
        tile_keys.push(t["key"].as_str().expect("key").to_string());
        tile_names.push(t["name"].as_str().expect("name").to_string());
        if let Some(k) = t["treasure"].as_str() {
            let tr = treasure_keys.iter().position(|x| x == k).expect("treasure");
            tile_treasure[i] = tr as u8;
            let slot = usize::from(treasure_tiles[tr][0] != NONE);
            treasure_tiles[tr][slot] = i as u8;
        }
        if let Some(r) = t["start_of"].as_str() {
            let r = role_keys.iter().position(|x| x == r).expect("role");
            role_start[r] = i as u8;
        }
    }
    assert_eq!(tiles[FOOLS_LANDING as usize]["key"], "fools_landing");
    let cards = v["cards"].as_array().expect("cards");
    assert_eq!(cards.len(), KINDS);
    let mut card_counts = [0u8; KINDS];
    let mut card_keys = Vec::new();
    for (k, c) in cards.iter().enumerate() {
        card_keys.push(c["key"].as_str().expect("key").to_string());
        card_counts[k] = int(&c["count"]);
    }
    let mut layouts = Vec::new();
    for (key, cells) in v["layouts"].as_object().expect("layouts") {
        let cells: Vec<(i64, i64)> = cells
            .as_array()
            .expect("cells")
            .iter()
            .map(|c| (c[0].as_i64().expect("x"), c[1].as_i64().expect("y")))
            .collect();
        assert_eq!(cells.len(), TILES);
        let names = cells
            .iter()
            .map(|&(x, y)| format!("{}{}", (b'a' + (x - 1) as u8) as char, y))
            .collect();
        let (mut orth, mut diag) = ([0u32; TILES], [0u32; TILES]);
        for (p, &(x, y)) in cells.iter().enumerate() {
            for (q, &(u, w)) in cells.iter().enumerate() {
                let (dx, dy) = ((x - u).abs(), (y - w).abs());
                if dx + dy == 1 {
                    orth[p] |= 1 << q;
                } else if dx == 1 && dy == 1 {
                    diag[p] |= 1 << q;
                }
            }
        }
        layouts.push(Layout {
            key: key.clone(),
            names,
            orth,
            diag,
        });
    }
    let mut flood_cards = [0u8; 11];
    for (l, c) in v["flood_cards_by_level"]
        .as_array()
        .expect("flood cards")
        .iter()
        .enumerate()
    {
        flood_cards[l] = int(c);
    }
    let start_levels = v["start_level"]
        .as_object()
        .expect("start levels")
        .iter()
        .map(|(k, l)| (k.clone(), int(l)))
        .collect();
    let setup = &v["setup"];
    Data {
        tile_keys,
        tile_names,
        tile_treasure,
        treasure_tiles,
        treasure_names,
        role_start,
        role_keys,
        card_keys,
        card_counts,
        layouts,
        flood_cards,
        skull: int(&v["skull_level"]),
        start_levels,
        initial_flood: int(&setup["initial_flood_cards"]),
        cards_per_player: int(&setup["cards_per_player"]),
        hand_limit: int(&setup["hand_limit"]),
        actions_per_turn: int(&setup["actions_per_turn"]),
        treasure_per_turn: int(&setup["treasure_cards_per_turn"]),
    }
}

pub fn data() -> &'static Data {
    static TABLE: OnceLock<Data> = OnceLock::new();
    TABLE.get_or_init(parse)
}

/// The bits of a set, ascending.
#[inline]
pub fn bits(mut set: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if set == 0 {
            None
        } else {
            let i = set.trailing_zeros() as usize;
            set &= set - 1;
            Some(i)
        }
    })
}
