//! A Memoir '44 scenario as the BGA scenario files write it (`bga-devs/bga-memoir`
//! `modules/php/Scenarios/*.php`, here in the JSON form of `python/meeplex/data/memoir44_pegasus_bridge.json`):
//! per hex its terrain, rectangular terrain (bridge), obstacle, unit and tags (medals), plus the game info
//! (sides, cards, victory medals, who starts), and the sections of the board.
//!
//! Reading is strict: an unknown key, an unknown name, a hex off the board or given twice is an
//! `InvalidState` error naming the place (`memoir44 scenario: board.hexagons[3].terrain.name ...`), never a
//! panic. Names are mapped as the BGA code maps them (classes cited at each table); only the names the base
//! game needs are known so far.

use super::hex::{Hex, NUM_HEXES};
use crate::error::{invalid, Result};
use crate::json::{self, kind};
use serde_json::{Map, Value};

/// The Pegasus Bridge scenario file (BGA scenario 2), as both engines read it.
pub const PEGASUS_BRIDGE_TEXT: &str =
    include_str!("../../../../../python/meeplex/data/memoir44_pegasus_bridge.json");
/// The home-made scenario of docs/rules/memoir44.md §8 (not a published scenario).
pub const HOME_HILLS_TEXT: &str =
    include_str!("../../../../../python/meeplex/data/memoir44_home_hills.json");

const PREFIX: &str = "memoir44 scenario: ";

/// A side of the war (BGA `AXIS` / `ALLIES`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    Axis,
    Allies,
}

/// Terrain tiles (the `terrain` of a hex). Names as BGA's `Terrains/*.php` `isTileOfType` read them:
/// `buildings` is a Village (Towns & Villages), `woods` a Forest, `hedgerow` a Hedgerow, `hills` a Hill,
/// `river` a straight river and `curve` a river bend (both `River.php`; Pegasus Bridge's impassable pond
/// is drawn with four `curve` tiles).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TerrainKind {
    Village,
    Forest,
    Hedgerow,
    Hill,
    River,
    RiverCurve,
}

const TERRAINS: &[(&str, TerrainKind)] = &[
    ("buildings", TerrainKind::Village),
    ("woods", TerrainKind::Forest),
    ("hedgerow", TerrainKind::Hedgerow),
    ("hills", TerrainKind::Hill),
    ("river", TerrainKind::River),
    ("curve", TerrainKind::RiverCurve),
];

impl TerrainKind {
    /// Whether the terrain blocks line of sight (facts §7.2). A hill blocks except between hexes of the same
    /// plateau, which is for the game layer to decide; here it counts as blocking.
    pub fn blocks_los(self) -> bool {
        matches!(
            self,
            TerrainKind::Village | TerrainKind::Forest | TerrainKind::Hedgerow | TerrainKind::Hill
        )
    }

    /// River and river bend: impassable unless bridged.
    pub fn is_river(self) -> bool {
        matches!(self, TerrainKind::River | TerrainKind::RiverCurve)
    }
}

/// A terrain tile with its orientation (1..=6 in the scenario editor's convention, kept as read).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Terrain {
    pub kind: TerrainKind,
    pub orientation: Option<u8>,
}

/// Rectangular terrain laid over a hex (`rect_terrain`): `bridge` (BGA `Bridge.php`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RectKind {
    Bridge,
}

const RECTS: &[(&str, RectKind)] = &[("bridge", RectKind::Bridge)];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RectTerrain {
    pub kind: RectKind,
    pub orientation: Option<u8>,
}

/// Obstacles (`obstacle`): `wire` (BGA `Wire.php`), `sand` = sandbags (BGA `Sandbag.php`). Neither blocks
/// line of sight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ObstacleKind {
    Wire,
    Sandbags,
}

const OBSTACLES: &[(&str, ObstacleKind)] = &[
    ("wire", ObstacleKind::Wire),
    ("sand", ObstacleKind::Sandbags),
];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Obstacle {
    pub kind: ObstacleKind,
    pub orientation: Option<u8>,
}

/// Unit types. A unit name is a type then a nation (`infger`, `infus`), as BGA's
/// `Units::getTypeAndNation` reads `TROOP_CLASSES` (constants.inc.php): `inf2` special forces, `tank2` elite
/// armor, `inf` infantry, `tank` armor, `gun` artillery, tried in that order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnitKind {
    SpecialForces,
    EliteArmor,
    Infantry,
    Armor,
    Artillery,
}

const UNIT_TYPES: &[(&str, UnitKind)] = &[
    ("inf2", UnitKind::SpecialForces),
    ("tank2", UnitKind::EliteArmor),
    ("inf", UnitKind::Infantry),
    ("tank", UnitKind::Armor),
    ("gun", UnitKind::Artillery),
];

/// Nations and their sides (BGA `Units::$nations`).
const NATIONS: &[(&str, Side)] = &[
    ("fr", Side::Allies),
    ("gb", Side::Allies),
    ("us", Side::Allies),
    ("ru", Side::Allies),
    ("ch", Side::Allies),
    ("brit", Side::Allies),
    ("ger", Side::Axis),
    ("jp", Side::Axis),
    ("it", Side::Axis),
];

impl UnitKind {
    /// Figures at full strength (facts §7.1 and the page: special forces as infantry, elite armor 4).
    pub fn figures(self) -> u8 {
        match self {
            UnitKind::Infantry | UnitKind::SpecialForces => 4,
            UnitKind::Armor => 3,
            UnitKind::EliteArmor => 4,
            UnitKind::Artillery => 2,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Unit {
    pub kind: UnitKind,
    pub side: Side,
    /// The nation code of the name (`ger`, `us`, ...).
    pub nation: &'static str,
}

/// Medal tags (BGA `Tokens::extractMedalDatas`): `medal1`, `medal4`, `medal6` are Allied medals, the others
/// Axis ones; a tag without further data is a temporary medal worth 1 while a unit of that side holds the
/// hex. Only these four names are known here.
const MEDALS: &[(&str, Side)] = &[
    ("medal1", Side::Allies),
    ("medal4", Side::Allies),
    ("medal6", Side::Allies),
    ("medal2", Side::Axis),
];

/// Everything a hex of the scenario holds at the start.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HexData {
    pub terrain: Option<Terrain>,
    pub rect_terrain: Option<RectTerrain>,
    pub obstacle: Option<Obstacle>,
    pub unit: Option<Unit>,
    /// The sides of the (temporary) medals on this hex.
    pub medals: Vec<Side>,
}

impl HexData {
    /// Whether the hex blocks line of sight as set up: a unit, or terrain that blocks.
    pub fn blocks_los(&self) -> bool {
        self.unit.is_some() || self.terrain.is_some_and(|t| t.kind.blocks_los())
    }
}

/// The board's face (`board.face`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Face {
    Country,
    Beach,
    Winter,
    Desert,
}

const FACES: &[(&str, Face)] = &[
    ("COUNTRY", Face::Country),
    ("BEACH", Face::Beach),
    ("WINTER", Face::Winter),
    ("DESERT", Face::Desert),
];

/// The game info. Index 0 is player 1, who sits at the top (row 0; BGA `Scenario::getTopTeam` is
/// `side_player1`), index 1 player 2 at the bottom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameInfo {
    pub sides: [Side; 2],
    /// Command cards in hand at the start.
    pub cards: [u8; 2],
    /// Medals needed to win.
    pub victory: [u8; 2],
    /// The player (0 or 1) who plays first (`starting`: `PLAYER1` / `PLAYER2`).
    pub starting: usize,
    /// `extra_draws_player1` / `_player2` (a field of this project, docs/rules/memoir44.md §6.1): entry t is
    /// the number of cards the player draws in addition at the end of its own turn t + 1 (Pegasus Bridge's
    /// Axis hand growing from 2 to 4).
    pub extra_draws: [Vec<u8>; 2],
}

/// A scenario: the game info and every hex of the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scenario {
    pub info: GameInfo,
    pub face: Face,
    /// One entry per hex, by `Hex::index`.
    hexes: Vec<HexData>,
    /// Map labels (`board.labels`): the hex and its lines of text.
    pub labels: Vec<(Hex, Vec<String>)>,
}

// ---- the three sections ----

/// Index of the left section in [`sections`].
pub const LEFT: usize = 0;
pub const CENTER: usize = 1;
pub const RIGHT: usize = 2;

/// The bounds of the sections in columns (BGA `Units::$sections[STANDARD_DECK]` = `[0, 7, 17, 24]`; section
/// `i` holds cols `bounds[i]..=bounds[i + 1]`, so cols 7 and 17 belong to two).
const SECTION_BOUNDS: [i8; 4] = [0, 7, 17, 24];

/// The sections (left, centre, right) a hex belongs to, from the viewpoint of the player at the bottom.
pub fn sections(hex: Hex) -> [bool; 3] {
    let b = SECTION_BOUNDS;
    [0, 1, 2].map(|i| b[i] <= hex.col && hex.col <= b[i + 1])
}

/// The sections (left, centre, right) of a hex from the viewpoint of the player at the top (`top`) or the
/// bottom. The top player faces the other way, so left and right swap: BGA's `Units::cast` gives a unit of
/// the top team section `2 - i` where the bottom player's is `i`.
pub fn sections_for(hex: Hex, top: bool) -> [bool; 3] {
    let [l, c, r] = sections(hex);
    if top {
        [r, c, l]
    } else {
        [l, c, r]
    }
}

// ---- reading ----

fn fail<T>(path: &str, what: impl std::fmt::Display) -> Result<T> {
    invalid(format!("{PREFIX}{path} {what}"))
}

fn sub(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// `v` as an object whose keys are all in `required` (each present) or `optional`.
fn object<'a>(
    v: &'a Value,
    path: &str,
    required: &[&str],
    optional: &[&str],
) -> Result<&'a Map<String, Value>> {
    let Some(map) = v.as_object() else {
        return fail(path, format!("must be an object, not {}", kind(v)));
    };
    let at = if path.is_empty() { "(top)" } else { path };
    if let Some(k) = required.iter().find(|k| !map.contains_key(**k)) {
        return fail(at, format!("is missing the key {k:?}"));
    }
    if let Some(k) = map
        .keys()
        .find(|k| !required.contains(&k.as_str()) && !optional.contains(&k.as_str()))
    {
        let k: String = k.chars().take(40).collect();
        return fail(at, format!("has an unknown key {k:?}"));
    }
    Ok(map)
}

fn string<'a>(map: &'a Map<String, Value>, path: &str, key: &str) -> Result<&'a str> {
    let v = &map[key];
    v.as_str().map_or_else(
        || fail(&sub(path, key), format!("must be a str, not {}", kind(v))),
        Ok,
    )
}

fn int(map: &Map<String, Value>, path: &str, key: &str, lo: i64, hi: i64) -> Result<i64> {
    json::int_in(&map[key], lo, hi).map_or_else(
        || fail(&sub(path, key), format!("must be an int in {lo}..={hi}")),
        Ok,
    )
}

fn list<'a>(map: &'a Map<String, Value>, path: &str, key: &str) -> Result<&'a [Value]> {
    let v = &map[key];
    v.as_array().map_or_else(
        || fail(&sub(path, key), format!("must be a list, not {}", kind(v))),
        |a| Ok(a.as_slice()),
    )
}

fn lookup<T: Copy>(table: &[(&str, T)], name: &str, path: &str, what: &str) -> Result<T> {
    match table.iter().find(|(n, _)| *n == name) {
        Some(&(_, t)) => Ok(t),
        None => unknown(table, name, path, what),
    }
}

/// The refusal of `name`, not one of `table`'s.
fn unknown<T, U>(table: &[(&str, T)], name: &str, path: &str, what: &str) -> Result<U> {
    let known: Vec<String> = table.iter().map(|(n, _)| format!("{n:?}")).collect();
    let name: String = name.chars().take(40).collect();
    fail(
        path,
        format!(
            "is an unknown {what} {name:?} (known: {})",
            known.join(", ")
        ),
    )
}

/// A `{"name": ..., "orientation"?: 1..=6}` object, its name looked up in `table`.
fn named<T: Copy>(
    v: &Value,
    path: &str,
    table: &[(&str, T)],
    what: &str,
) -> Result<(T, Option<u8>)> {
    let map = object(v, path, &["name"], &["orientation"])?;
    let t = lookup(table, string(map, path, "name")?, &sub(path, "name"), what)?;
    let orientation = if map.contains_key("orientation") {
        Some(int(map, path, "orientation", 1, 6)? as u8)
    } else {
        None
    };
    Ok((t, orientation))
}

fn unit(v: &Value, path: &str) -> Result<Unit> {
    let map = object(v, path, &["name"], &[])?;
    let name = string(map, path, "name")?;
    let path = sub(path, "name");
    let Some(&(ty, kind)) = UNIT_TYPES.iter().find(|(t, _)| name.starts_with(t)) else {
        let short: String = name.chars().take(40).collect();
        return fail(
            &path,
            format!("is an unknown unit {short:?} (a type inf2, tank2, inf, tank or gun, then a nation)"),
        );
    };
    let rest = &name[ty.len()..];
    let Some(&(nation, side)) = NATIONS.iter().find(|(n, _)| *n == rest) else {
        return unknown(NATIONS, rest, &path, "nation in the unit name");
    };
    Ok(Unit { kind, side, nation })
}

fn hex_at(map: &Map<String, Value>, path: &str) -> Result<Hex> {
    let row = int(map, path, "row", 0, 8)? as i8;
    let col = int(map, path, "col", 0, 24)? as i8;
    let h = Hex::new(row, col);
    if !h.on_board() {
        return fail(
            path,
            format!("({row}, {col}) is not a hex: row + col must be even"),
        );
    }
    Ok(h)
}

fn side_name(map: &Map<String, Value>, path: &str, key: &str) -> Result<Side> {
    lookup(
        &[("AXIS", Side::Axis), ("ALLIES", Side::Allies)],
        string(map, path, key)?,
        &sub(path, key),
        "side",
    )
}

fn game_info(v: &Value) -> Result<GameInfo> {
    let path = "game_info";
    let required = [
        "starting",
        "side_player1",
        "side_player2",
        "cards_player1",
        "cards_player2",
        "victory_player1",
        "victory_player2",
    ];
    // Descriptive keys, read by no rule (`options` changes rules, so it is refused until supported).
    let descriptive = [
        "front",
        "operationID",
        "date_begin",
        "date_end",
        "type",
        "country_player1",
        "country_player2",
        "victory_conditions",
        "expert_mode",
        "extra_draws_player1",
        "extra_draws_player2",
    ];
    let map = object(v, path, &required, &descriptive)?;
    let sides = [
        side_name(map, path, "side_player1")?,
        side_name(map, path, "side_player2")?,
    ];
    if sides[0] == sides[1] {
        return fail(path, "gives both players the same side");
    }
    let starting = lookup(
        &[("PLAYER1", 0usize), ("PLAYER2", 1usize)],
        string(map, path, "starting")?,
        &sub(path, "starting"),
        "starting player",
    )?;
    let cards = [
        int(map, path, "cards_player1", 0, 10)? as u8,
        int(map, path, "cards_player2", 0, 10)? as u8,
    ];
    let victory = [
        int(map, path, "victory_player1", 1, 20)? as u8,
        int(map, path, "victory_player2", 1, 20)? as u8,
    ];
    let mut extra_draws: [Vec<u8>; 2] = Default::default();
    for (p, key) in ["extra_draws_player1", "extra_draws_player2"]
        .iter()
        .enumerate()
    {
        if !map.contains_key(*key) {
            continue;
        }
        let items = list(map, path, key)?;
        if items.len() > 20 {
            return fail(&sub(path, key), "may list at most 20 turns");
        }
        for (t, item) in items.iter().enumerate() {
            match json::int_in(item, 0, 10) {
                Some(n) => extra_draws[p].push(n as u8),
                None => {
                    return fail(
                        &format!("{}[{t}]", sub(path, key)),
                        "must be an int in 0..=10",
                    )
                }
            }
        }
    }
    Ok(GameInfo {
        sides,
        cards,
        victory,
        starting,
        extra_draws,
    })
}

impl Scenario {
    /// Read a scenario file.
    pub fn parse(text: &str) -> Result<Scenario> {
        let v = match json::parse(text) {
            Ok(v) => v,
            Err(e) => return invalid(format!("{PREFIX}not JSON: {e}")),
        };
        let top = object(
            &v,
            "",
            &["game_info", "board"],
            &["source", "meta_data", "text"],
        )?;
        let info = game_info(&top["game_info"])?;
        let board = object(
            &top["board"],
            "board",
            &["type", "face", "hexagons"],
            &["labels"],
        )?;
        let ty = string(board, "board", "type")?;
        if ty != "STANDARD" {
            let ty: String = ty.chars().take(40).collect();
            return fail(
                "board.type",
                format!("is {ty:?}: only the STANDARD 13 x 9 board is supported"),
            );
        }
        let face = lookup(FACES, string(board, "board", "face")?, "board.face", "face")?;
        let mut hexes = vec![HexData::default(); NUM_HEXES];
        let mut seen = [false; NUM_HEXES];
        for (i, item) in list(board, "board", "hexagons")?.iter().enumerate() {
            let path = format!("board.hexagons[{i}]");
            let map = object(
                item,
                &path,
                &["row", "col"],
                &["terrain", "rect_terrain", "obstacle", "unit", "tags"],
            )?;
            let h = hex_at(map, &path)?;
            let idx = h.index().unwrap_or(0);
            if seen[idx] {
                return fail(
                    &path,
                    format!("gives the hex ({}, {}) a second time", h.row, h.col),
                );
            }
            seen[idx] = true;
            let d = &mut hexes[idx];
            if let Some(t) = map.get("terrain") {
                let (kind, orientation) = named(t, &sub(&path, "terrain"), TERRAINS, "terrain")?;
                d.terrain = Some(Terrain { kind, orientation });
            }
            if let Some(t) = map.get("rect_terrain") {
                let (kind, orientation) =
                    named(t, &sub(&path, "rect_terrain"), RECTS, "rect_terrain")?;
                d.rect_terrain = Some(RectTerrain { kind, orientation });
            }
            if let Some(t) = map.get("obstacle") {
                let (kind, orientation) = named(t, &sub(&path, "obstacle"), OBSTACLES, "obstacle")?;
                d.obstacle = Some(Obstacle { kind, orientation });
            }
            if let Some(u) = map.get("unit") {
                d.unit = Some(unit(u, &sub(&path, "unit"))?);
            }
            if map.contains_key("tags") {
                for (j, tag) in list(map, &path, "tags")?.iter().enumerate() {
                    let tpath = format!("{path}.tags[{j}]");
                    let tmap = object(tag, &tpath, &["name"], &[])?;
                    let name = string(tmap, &tpath, "name")?;
                    d.medals
                        .push(lookup(MEDALS, name, &sub(&tpath, "name"), "tag")?);
                }
            }
        }
        let mut labels = Vec::new();
        if board.contains_key("labels") {
            for (i, item) in list(board, "board", "labels")?.iter().enumerate() {
                let path = format!("board.labels[{i}]");
                let map = object(item, &path, &["row", "col", "text"], &[])?;
                let h = hex_at(map, &path)?;
                let mut lines = Vec::new();
                for (j, line) in list(map, &path, "text")?.iter().enumerate() {
                    match line.as_str() {
                        Some(s) => lines.push(s.to_string()),
                        None => return fail(&format!("{path}.text[{j}]"), "must be a str"),
                    }
                }
                labels.push((h, lines));
            }
        }
        Ok(Scenario {
            info,
            face,
            hexes,
            labels,
        })
    }

    /// What the hex holds at the start; `None` off the board.
    pub fn hex(&self, h: Hex) -> Option<&HexData> {
        h.index().map(|i| &self.hexes[i])
    }

    /// Every hex with what it holds, in index order.
    pub fn hexes(&self) -> impl Iterator<Item = (Hex, &HexData)> {
        Hex::all().zip(self.hexes.iter())
    }

    /// The units of `side`, in index order.
    pub fn units(&self, side: Side) -> Vec<(Hex, Unit)> {
        self.hexes()
            .filter_map(|(h, d)| d.unit.filter(|u| u.side == side).map(|u| (h, u)))
            .collect()
    }

    /// The medals on the board: `(hex, side)`, in index order.
    pub fn medals(&self) -> Vec<(Hex, Side)> {
        self.hexes()
            .flat_map(|(h, d)| d.medals.iter().map(move |&s| (h, s)))
            .collect()
    }

    /// The player (0 = player 1 at the top, 1 = player 2 at the bottom) of `side`.
    pub fn player_of(&self, side: Side) -> usize {
        usize::from(self.info.sides[0] != side)
    }

    /// The side at the top of the board (row 0).
    pub fn top_side(&self) -> Side {
        self.info.sides[0]
    }

    /// The side at the bottom of the board (row 8).
    pub fn bottom_side(&self) -> Side {
        self.info.sides[1]
    }

    /// The side that plays first.
    pub fn starting_side(&self) -> Side {
        self.info.sides[self.info.starting]
    }

    /// Whether line of sight is clear between two hexes as the board is set up (units and blocking terrain
    /// obstruct).
    pub fn los_clear(&self, from: Hex, to: Hex) -> bool {
        super::hex::los_clear(from, to, |h| self.hex(h).is_some_and(HexData::blocks_los))
    }
}

/// The Pegasus Bridge scenario, read from [`PEGASUS_BRIDGE_TEXT`].
pub fn pegasus_bridge() -> Result<Scenario> {
    Scenario::parse(PEGASUS_BRIDGE_TEXT)
}
