//! The castle sheet as data (docs/rules/flip_pick_towers.md §3): the file format, its validation, the
//! `sheet` parameter (`placeholder` or `b64_<base64url>`, §3.1) and the static tables derived from it.
//!
//! A sheet is read once per game and shared by every state of the game through an `Arc`; states never copy
//! it. Everything here is validated before a game exists, so the rules code may index the tables freely.

use super::royal::{parse_expr, Expr};
use crate::error::{invalid, GameError, Result};
use crate::json::Fields;
use std::sync::{Arc, OnceLock};

/// §3: `rows` 1..16, 1..12 columns, 1..8 stall columns per resource, 3..64 scoring cards.
pub const MAX_ROWS: usize = 16;
pub const MAX_COLS: usize = 12;
pub const MAX_CELLS: usize = MAX_ROWS * MAX_COLS;
pub const MAX_STALL_COLUMNS: usize = 4 * 8;
pub const MAX_BEANSTALK: usize = 16;
pub const MAX_CARDS: usize = 64;
/// Card kinds: `5 x feature + resource` (§2.1).
pub const NUM_KINDS: usize = 100;
pub const DECK_SIZE: u32 = 63;

pub const FORMAT: &str = "meeplex flip_pick_towers sheet";

/// The file shipped with meeplex, the same bytes the oracle reads.
pub const PLACEHOLDER_TEXT: &str =
    include_str!("../../../../../python/meeplex/data/flip_pick_towers_sheet.json");

/// The resource names of the file, in resource-id order (`wild` is never written in a file).
pub const FILE_RESOURCES: [&str; 4] = ["fabric", "beans", "gold", "glass"];

/// The `resources` keys, with their feature ids and copies.
const RESOURCE_KEYS: [(&str, usize, usize); 15] = [
    ("floor 1", 0, 4),
    ("floor 2", 1, 4),
    ("floor 3", 2, 4),
    ("floor 4", 3, 4),
    ("floor 5", 4, 4),
    ("floor 6", 5, 4),
    ("floor 7", 6, 4),
    ("floor 8", 7, 4),
    ("floor 9", 8, 4),
    ("bridge", 9, 4),
    ("roof", 10, 4),
    ("queen", 11, 4),
    ("king", 12, 4),
    ("princess", 13, 4),
    ("dragon", 14, 2),
];

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoringCard {
    pub name: String,
    pub targets: [i64; 3],
    pub score: Expr,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sheet {
    pub name: String,
    pub verified: bool,
    pub rows: usize,
    /// `C`, the number of grid columns.
    pub cols: usize,
    pub tower: Vec<bool>,
    pub bottom: Vec<usize>,
    pub top: Vec<usize>,
    pub tower_height_points: Vec<i64>,
    pub beanstalk_points: Vec<i64>,
    /// Boxes of each stall column, in box-action order (fabric's, beans', gold's, glass's).
    pub stall_boxes: Vec<u8>,
    /// The resource (0..3) of each stall column.
    pub stall_resource: Vec<u8>,
    /// The first stall column of each resource; `stall_first[4] == S`.
    pub stall_first: [usize; 5],
    /// The beanstalk height each beans stall column gives.
    pub bean_heights: Vec<u8>,
    pub creature_spaces: [u8; 5],
    /// Copies of each card kind in the 63-card deck.
    pub full_deck: [u8; NUM_KINDS],
    /// The kinds with `full_deck[kind] > 0`, ascending.
    pub kinds: Vec<u8>,
    pub cards: Vec<ScoringCard>,
}

impl Sheet {
    /// `N = rows x C`, the number of cell ids.
    #[inline]
    pub fn cells(&self) -> usize {
        self.rows * self.cols
    }

    /// `S`, the number of stall columns.
    #[inline]
    pub fn stall_columns(&self) -> usize {
        self.stall_boxes.len()
    }

    #[inline]
    pub fn exists(&self, r: usize, c: usize) -> bool {
        r < self.rows && c < self.cols && self.bottom[c] <= r && r <= self.top[c]
    }

    /// The beanstalk height stall column `j` gives (0 unless it is a beans column).
    pub fn bean_height_of(&self, j: usize) -> u8 {
        let first = self.stall_first[1];
        if (first..self.stall_first[2]).contains(&j) {
            self.bean_heights[j - first]
        } else {
            0
        }
    }
}

/// The sheet named by the `sheet` parameter: the shipped placeholder or a player's file (§3.1).
pub fn from_param(value: &str) -> Result<Arc<Sheet>> {
    if value == "placeholder" {
        return placeholder();
    }
    let Some(b) = value.strip_prefix("b64_") else {
        return invalid(format!(
            "sheet must be \"placeholder\" or \"b64_\" followed by the file in base64url, not {:?}",
            value.chars().take(40).collect::<String>()
        ));
    };
    let bytes = decode_base64url(b).map_err(GameError::InvalidState)?;
    let Ok(text) = String::from_utf8(bytes) else {
        return invalid("the sheet file is not UTF-8");
    };
    parse(&text).map(Arc::new)
}

/// The placeholder, parsed once per process.
pub fn placeholder() -> Result<Arc<Sheet>> {
    static SHEET: OnceLock<Result<Arc<Sheet>>> = OnceLock::new();
    SHEET
        .get_or_init(|| parse(PLACEHOLDER_TEXT).map(Arc::new))
        .clone()
}

fn b64_value(b: u8) -> Option<u32> {
    Some(match b {
        b'A'..=b'Z' => b - b'A',
        b'a'..=b'z' => b - b'a' + 26,
        b'0'..=b'9' => b - b'0' + 52,
        b'-' => 62,
        b'_' => 63,
        _ => return None,
    } as u32)
}

/// Strict base64url without padding (§3.1): non-empty, only the alphabet, and canonical (re-encoding the bytes
/// gives back the text: no length of 1 mod 4, unused trailing bits zero).
pub fn decode_base64url(text: &str) -> std::result::Result<Vec<u8>, String> {
    let bad = |why: &str| Err(format!("the sheet's base64url text is invalid: {why}"));
    let s = text.as_bytes();
    if s.is_empty() {
        return bad("it is empty");
    }
    if s.len() % 4 == 1 {
        return bad("its length is 1 more than a multiple of 4");
    }
    let mut values = Vec::with_capacity(s.len());
    for &b in s {
        match b64_value(b) {
            Some(v) => values.push(v),
            None => return bad("a character outside A-Z a-z 0-9 - _"),
        }
    }
    let mut out = Vec::with_capacity(s.len() / 4 * 3 + 2);
    for chunk in values.chunks(4) {
        let mut acc = 0u32;
        for (k, v) in chunk.iter().enumerate() {
            acc |= v << (18 - 6 * k);
        }
        let bytes = [(acc >> 16) as u8, (acc >> 8) as u8, acc as u8];
        let n = chunk.len() - 1; // 4 chars -> 3 bytes, 3 -> 2, 2 -> 1
                                 // The bits below the last whole byte must be zero for the text to be canonical.
        let unused = match chunk.len() {
            2 => acc & 0xFFFF,
            3 => acc & 0xFF,
            _ => 0,
        };
        if unused != 0 {
            return bad("nonzero unused trailing bits");
        }
        out.extend_from_slice(&bytes[..n]);
    }
    Ok(out)
}

/// The base64url text (no padding) of `bytes`: how a player's file becomes a `sheet` value.
pub fn encode_base64url(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let mut acc = 0u32;
        for (k, b) in chunk.iter().enumerate() {
            acc |= (*b as u32) << (16 - 8 * k);
        }
        for k in 0..=chunk.len() {
            out.push(ALPHABET[((acc >> (18 - 6 * k)) & 63) as usize] as char);
        }
    }
    out
}

fn name_ok(s: &str) -> bool {
    (1..=64).contains(&s.chars().count())
}

/// The key path of a refusal is enough: `from_param`'s caller says it is the sheet parameter.
const PREFIX: &str = "";

const SHEET_KEYS: [&str; 14] = [
    "format",
    "version",
    "name",
    "verified",
    "notes",
    "rows",
    "columns",
    "tower_height_points",
    "beanstalk_points",
    "stalls",
    "bean_heights",
    "creature_spaces",
    "resources",
    "scoring_cards",
];

/// A name of 1..64 characters at `key`.
fn name_at(f: &Fields, key: &str) -> Result<String> {
    match f.get(key).as_str() {
        Some(s) if name_ok(s) => Ok(s.to_string()),
        _ => f.fail(key, "must be a str of 1..64 characters"),
    }
}

/// Read and validate a sheet file (§3). The error says what is wrong.
pub fn parse(text: &str) -> Result<Sheet> {
    let root = match crate::json::parse(text) {
        Ok(v) => v,
        Err(e) => return invalid(format!("the sheet file is not valid JSON: {e}")),
    };
    let f = Fields::new(&root, PREFIX, "", &SHEET_KEYS)?;
    if f.get("format").as_str() != Some(FORMAT) {
        return f.fail("format", format!("must be {FORMAT:?}"));
    }
    f.int("version", 1, 1)?;
    let name = name_at(&f, "name")?;
    let verified = f.bool("verified")?;
    for (i, note) in f.list("notes", ..)?.iter().enumerate() {
        if !note.is_string() {
            return f.fail(&format!("notes[{i}]"), "must be a str");
        }
    }
    let rows = f.int("rows", 1, MAX_ROWS as i64)? as usize;
    let columns = f.list("columns", 1..=MAX_COLS)?;
    let (mut tower, mut bottom, mut top) = (Vec::new(), Vec::new(), Vec::new());
    for (i, col) in columns.iter().enumerate() {
        let at = format!("columns[{i}]");
        let cf = f.object_at(&at, col, &["kind", "bottom", "top"])?;
        tower.push(match cf.get("kind").as_str() {
            Some("tower") => true,
            Some("garden") => false,
            _ => return cf.fail("kind", "must be \"tower\" or \"garden\""),
        });
        let b = cf.int("bottom", 0, rows as i64 - 1)? as usize;
        let t = cf.int("top", 0, rows as i64 - 1)? as usize;
        if b > t {
            return f.fail(&at, format!("has its bottom {b} above its top {t}"));
        }
        bottom.push(b);
        top.push(t);
    }
    let tower_height_points = f.ints("tower_height_points", rows..=rows, 0, 1000)?;
    let beanstalk_points = f.ints("beanstalk_points", 1..=MAX_BEANSTALK, 0, 1000)?;
    let sf = f.object("stalls", &FILE_RESOURCES)?;
    let (mut stall_boxes, mut stall_resource, mut stall_first) = (Vec::new(), Vec::new(), [0; 5]);
    for (r, res) in FILE_RESOURCES.iter().enumerate() {
        stall_first[r] = stall_boxes.len();
        for b in sf.ints(res, 1..=8, 1, 9)? {
            stall_boxes.push(b as u8);
            stall_resource.push(r as u8);
        }
    }
    stall_first[4] = stall_boxes.len();
    let beans_columns = stall_first[2] - stall_first[1];
    let bean_heights: Vec<u8> = f
        .ints(
            "bean_heights",
            beans_columns..=beans_columns,
            1,
            beanstalk_points.len() as i64,
        )?
        .into_iter()
        .map(|h| h as u8)
        .collect();
    let spaces = f.ints("creature_spaces", 5..=5, 1, 9)?;
    let mut creature_spaces = [0u8; 5];
    for (d, s) in creature_spaces.iter_mut().zip(&spaces) {
        *d = *s as u8;
    }
    let keys: Vec<&str> = RESOURCE_KEYS.iter().map(|(k, _, _)| *k).collect();
    let rf = f.object("resources", &keys)?;
    let mut full_deck = [0u8; NUM_KINDS];
    for (key, feature, copies) in RESOURCE_KEYS {
        for (i, j) in rf.list(key, copies..=copies)?.iter().enumerate() {
            let Some(r) = j
                .as_str()
                .and_then(|s| FILE_RESOURCES.iter().position(|n| *n == s))
            else {
                return rf.fail(
                    &format!("{key}[{i}]"),
                    "must be fabric, beans, gold or glass",
                );
            };
            full_deck[5 * feature + r] += 1;
        }
    }
    for creature in 15..20 {
        full_deck[5 * creature + 4] = 1;
    }
    let card_list = f.list("scoring_cards", 3..=MAX_CARDS)?;
    let mut cards: Vec<ScoringCard> = Vec::with_capacity(card_list.len());
    for (i, c) in card_list.iter().enumerate() {
        let cf = f.object_at(
            &format!("scoring_cards[{i}]"),
            c,
            &["name", "targets", "score"],
        )?;
        let name = name_at(&cf, "name")?;
        if cards.iter().any(|k| k.name == name) {
            return cf.fail("name", format!("{name:?} is the name of an earlier card"));
        }
        let t = cf.ints("targets", 3..=3, 0, 1000)?;
        let score = match parse_expr(cf.get("score")) {
            Ok(score) => score,
            Err(e) => return cf.fail("score", format!("is not a valid expression: {e}")),
        };
        cards.push(ScoringCard {
            name,
            targets: [t[0], t[1], t[2]],
            score,
        });
    }
    Ok(Sheet {
        name,
        verified,
        rows,
        cols: tower.len(),
        tower,
        bottom,
        top,
        tower_height_points,
        beanstalk_points,
        stall_boxes,
        stall_resource,
        stall_first,
        bean_heights,
        creature_spaces,
        full_deck,
        kinds: (0..NUM_KINDS as u8)
            .filter(|&k| full_deck[k as usize] > 0)
            .collect(),
        cards,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholder_reads() {
        let s = placeholder().unwrap();
        assert_eq!(
            (s.rows, s.cols, s.stall_columns(), s.cards.len()),
            (10, 7, 16, 33)
        );
        assert_eq!(
            s.full_deck.iter().map(|&c| c as u32).sum::<u32>(),
            DECK_SIZE
        );
        assert!(!s.verified);
    }

    #[test]
    fn base64url_is_strict() {
        for text in ["", "a", "abcde", "ab=", "ab+c", "ab/c"] {
            assert!(decode_base64url(text).is_err(), "{text}");
        }
        assert_eq!(decode_base64url("YQ").unwrap(), b"a");
        assert!(decode_base64url("YR").is_err()); // nonzero unused bits
        assert_eq!(decode_base64url("YWI").unwrap(), b"ab");
        assert!(decode_base64url("YWJ").is_err());
        for n in 0..40usize {
            let bytes: Vec<u8> = (0..n as u8).map(|b| b.wrapping_mul(37)).collect();
            let text = encode_base64url(&bytes);
            if n > 0 {
                assert_eq!(decode_base64url(&text).unwrap(), bytes);
            }
        }
    }
}
