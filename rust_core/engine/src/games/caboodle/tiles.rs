//! The tile set as data (docs/rules/caboodle.md §3): the file format, its validation and the `tiles`
//! parameter (`placeholder` or `b64_<base64url>`, §3.1). The faces are not public: the shipped file is an
//! unverified placeholder, and an owner of the game can supply the real set in the same format.

use crate::games::flip_pick_towers::sheet::decode_base64url;
use serde_json::Value;

/// Tiles in a set (page: "There are 40 tiles in the game").
pub const T: usize = 40;
pub const MAX_SHAPES: usize = 8;
pub const FORMAT: &str = "meeplex caboodle tiles";

/// The file shipped with meeplex, the same bytes the oracle reads.
pub const PLACEHOLDER_TEXT: &str =
    include_str!("../../../../../python/meeplex/data/caboodle_tiles.json");

/// How the regions of one tile join (§6.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Links {
    Adjacent,
    All,
    None,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tiles {
    pub name: String,
    pub verified: bool,
    pub shapes: Vec<String>,
    pub links: Links,
    /// The shape ids of each tile's sides N, E, S, W as drawn.
    pub edges: [[u8; 4]; T],
}

/// The tile set named by the `tiles` parameter.
pub fn from_param(value: &str) -> Result<Tiles, String> {
    if value == "placeholder" {
        return parse(PLACEHOLDER_TEXT);
    }
    let Some(b) = value.strip_prefix("b64_") else {
        return Err(format!(
            "tiles must be \"placeholder\" or \"b64_\" followed by the file in base64url, not {:?}",
            value.chars().take(40).collect::<String>()
        ));
    };
    let bytes = decode_base64url(b).map_err(|e| e.replace("sheet", "tile file"))?;
    let text = String::from_utf8(bytes).map_err(|_| "the tile file is not UTF-8".to_string())?;
    parse(&text)
}

fn shape_name_ok(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b.len() <= 16
        && b[0].is_ascii_lowercase()
        && b.iter()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'_')
}

/// Parse and validate a tile file (§3).
pub fn parse(text: &str) -> Result<Tiles, String> {
    let value = crate::json::parse(text).map_err(|e| format!("the tile file is not JSON ({e})"))?;
    let Some(obj) = value.as_object() else {
        return Err("the tile file is not a JSON object".into());
    };
    const KEYS: [&str; 8] = [
        "format", "links", "name", "notes", "shapes", "tiles", "verified", "version",
    ];
    for key in obj.keys() {
        if !KEYS.contains(&key.as_str()) {
            return Err(format!("the tile file has an unknown key {key:?}"));
        }
    }
    for key in KEYS {
        if !obj.contains_key(key) {
            return Err(format!("the tile file has no key {key:?}"));
        }
    }
    if obj["format"].as_str() != Some(FORMAT) {
        return Err(format!("the tile file's format must be {FORMAT:?}"));
    }
    if !(obj["version"].is_i64() && obj["version"].as_i64() == Some(1)) {
        return Err("the tile file's version must be 1".into());
    }
    let name = match obj["name"].as_str() {
        Some(s) if (1..=64).contains(&s.chars().count()) => s.to_string(),
        _ => return Err("the tile file's name must be a string of 1..64 characters".into()),
    };
    let Some(verified) = obj["verified"].as_bool() else {
        return Err("the tile file's verified must be true or false".into());
    };
    match obj["notes"].as_array() {
        Some(list) if list.iter().all(Value::is_string) => {}
        _ => return Err("the tile file's notes must be a list of strings".into()),
    }
    let Some(shape_list) = obj["shapes"].as_array() else {
        return Err("the tile file's shapes must be a list".into());
    };
    if !(2..=MAX_SHAPES).contains(&shape_list.len()) {
        return Err("the tile file must name 2..8 shapes".into());
    }
    let mut shapes: Vec<String> = Vec::new();
    for s in shape_list {
        match s.as_str() {
            Some(s) if shape_name_ok(s) && !shapes.iter().any(|t| t == s) => shapes.push(s.into()),
            _ => return Err(
                "each shape must be a distinct name of 1..16 characters a-z 0-9 _, starting a-z"
                    .into(),
            ),
        }
    }
    let links = match obj["links"].as_str() {
        Some("adjacent") => Links::Adjacent,
        Some("all") => Links::All,
        Some("none") => Links::None,
        _ => return Err("the tile file's links must be \"adjacent\", \"all\" or \"none\"".into()),
    };
    let Some(tile_list) = obj["tiles"].as_array() else {
        return Err("the tile file's tiles must be a list".into());
    };
    if tile_list.len() != T {
        return Err(format!("the tile file must list exactly {T} tiles"));
    }
    let mut edges = [[0u8; 4]; T];
    for (i, t) in tile_list.iter().enumerate() {
        let sides = match t.as_array() {
            Some(a) if a.len() == 4 => a,
            _ => return Err(format!("tile {i} must be a list of 4 shape names")),
        };
        for (d, s) in sides.iter().enumerate() {
            match s.as_str().and_then(|s| shapes.iter().position(|x| x == s)) {
                Some(k) => edges[i][d] = k as u8,
                None => return Err(format!("tile {i} side {d} is not one of the shapes")),
            }
        }
    }
    Ok(Tiles {
        name,
        verified,
        shapes,
        links,
        edges,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_placeholder_is_valid() {
        let t = parse(PLACEHOLDER_TEXT).unwrap();
        assert!(!t.verified);
        assert_eq!(t.shapes.len(), 4);
        assert_eq!(t.links, Links::Adjacent);
        assert_eq!(t.edges[0], [0, 0, 1, 2]);
    }
}
