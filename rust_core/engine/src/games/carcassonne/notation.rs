//! Action ids and their text (docs/rules/carcassonne.md §7, §11.5, §12.8).

use super::princess_dragon::{PdFigure, DIRECTION_NAMES};
use super::state::{CarcassonneState, Phase, BUILDER, FIGURE_NAMES, FOLLOWER, LARGE, PIG};
use super::tiles::{type_by_name, TileType, EDGE_NAMES, HALF_NAMES, K, KIND_NAMES};
use crate::notation::{fold_white_space, out_of_range};
use crate::{GameError, Result};

const ROTS: [&str; 4] = ["r0", "r90", "r180", "r270"];

fn bad(text: &str) -> GameError {
    GameError::InvalidNotation(format!("not a Carcassonne action: {text:?}"))
}

/// The tile just placed and its rotation, in phase `follower`.
fn just_placed(s: &CarcassonneState) -> Option<(u8, usize)> {
    if s.phase != Phase::Follower {
        return None;
    }
    let p = s.board.slots[s.last_slot()];
    Some((p.typ, p.rot as usize))
}

/// The text of a figure of `kind` on feature k (§7 follower texts, §11.5): `<figure> <kind> <where>` when k
/// is a feature of the tile just placed (no `<where>` for a cloister, nor for a field on no edge), else
/// `<figure> #<k>`.
fn figure_text(s: &CarcassonneState, kind: u8, k: usize) -> String {
    let name = FIGURE_NAMES[kind as usize];
    if let Some((t, r)) = just_placed(s) {
        let tt = s.tt(t);
        if k < tt.features.len() {
            let fk = KIND_NAMES[tt.features[k].kind as usize];
            return match tt.first_where(k, r) {
                Some(w) => format!("{name} {fk} {w}"),
                None => format!("{name} {fk}"),
            };
        }
    }
    format!("{name} #{k}")
}

/// `<kind> <where>` of feature k of a tile of type tt with rotation r (no `<where>` for a cloister or a field
/// on no edge), if k is one of its features.
fn feature_text(tt: &TileType, k: usize, r: usize) -> Option<String> {
    let f = tt.features.get(k)?;
    let kind = KIND_NAMES[f.kind as usize];
    Some(match tt.first_where(k, r) {
        Some(w) => format!("{kind} {w}"),
        None => kind.to_string(),
    })
}

/// The text of a P&D figure id (§12.8): `<figure> <x>,<y> <kind> <where>`, or `<figure> @<s> #<k>`.
fn pd_figure_text(s: &CarcassonneState, fig: PdFigure, slot: usize, k: usize) -> String {
    let name = fig.name();
    let portal = matches!(fig, PdFigure::Portal | PdFigure::PortalLarge);
    let ordinary = portal && s.phase == Phase::Follower && slot == s.last_slot();
    if let (Some(p), false) = (s.board.slots.get(slot), ordinary) {
        if let Some(ft) = feature_text(s.tt(p.typ), k, p.rot as usize) {
            return format!("{name} {},{} {ft}", p.x, p.y);
        }
    }
    format!("{name} @{slot} #{k}")
}

pub fn action_to_string(s: &CarcassonneState, a: u32) -> Result<String> {
    let nt = s.cfg.nt;
    if matches!(s.phase, Phase::Deal | Phase::Draw) {
        if (a as usize) < nt {
            return Ok(format!("draw {}", s.tt(a as u8).name));
        }
        return Err(out_of_range(a, nt as u32));
    }
    let p = s.cfg.p();
    let n = s.cfg.num_actions() as u32;
    if a >= n {
        return Err(out_of_range(a, n));
    }
    if a < p {
        let (x, y) = s.board.xy(a / 4);
        return Ok(format!("place {x},{y} {}", ROTS[(a % 4) as usize]));
    }
    if a == p {
        return Ok("no follower".into());
    }
    if let Some((kind, k)) = s.figure_action(a) {
        return Ok(figure_text(s, kind, k));
    }
    if let Some((fig, slot, k)) = s.pd_action(a) {
        return Ok(pd_figure_text(s, fig, slot, k));
    }
    if s.cfg.pd && a >= s.cfg.dragon_base() {
        return Ok(format!(
            "dragon {}",
            DIRECTION_NAMES[(a - s.cfg.dragon_base()) as usize]
        ));
    }
    Ok(format!("tile {}", s.tt((a - p - 1 - K as u32) as u8).name))
}

fn int(text: &str) -> Option<i64> {
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    if digits.is_empty() || digits.len() > 12 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.strip_prefix('+').unwrap_or(text).parse().ok()
}

pub fn string_to_action(s: &CarcassonneState, text: &str) -> Result<u32> {
    let f = fold_white_space(text);
    if matches!(s.phase, Phase::Deal | Phase::Draw) {
        let name = f.strip_prefix("draw ").unwrap_or(&f);
        return type_by_name(s.cfg.types, name)
            .map(|t| t as u32)
            .ok_or_else(|| bad(text));
    }
    let p = s.cfg.p();
    if let Some(rest) = f.strip_prefix("place ") {
        let rest = rest.replace(" ,", ",").replace(", ", ",");
        let (xy, rot) = rest.split_once(' ').ok_or_else(|| bad(text))?;
        let (xs, ys) = xy.split_once(',').ok_or_else(|| bad(text))?;
        let (x, y) = (
            int(xs).ok_or_else(|| bad(text))?,
            int(ys).ok_or_else(|| bad(text))?,
        );
        let r = ROTS
            .iter()
            .position(|&q| q == rot)
            .ok_or_else(|| bad(text))?;
        let big_r = s.cfg.r as i64;
        if x.abs() > big_r || y.abs() > big_r {
            return Err(GameError::InvalidNotation(format!(
                "{text:?}: ({x}, {y}) is outside the board window |x|, |y| <= {big_r}"
            )));
        }
        return Ok(s.board.cell(x as i32, y as i32) * 4 + r as u32);
    }
    if f == "no follower" {
        return Ok(p);
    }
    if s.cfg.pd {
        if let Some(a) = pd_string_to_action(s, &f, text)? {
            return Ok(a);
        }
    }
    // A figure (§7, §11.5): `large` only with Inns & Cathedrals, `builder` and `pig` only with Traders &
    // Builders.
    let figure = [FOLLOWER, LARGE, BUILDER, PIG]
        .into_iter()
        .find_map(|kind| {
            let on = match kind {
                FOLLOWER => true,
                LARGE => s.cfg.ic,
                _ => s.cfg.tb,
            };
            let rest = f
                .strip_prefix(FIGURE_NAMES[kind as usize])?
                .strip_prefix(' ')?;
            on.then_some((kind, rest))
        });
    if let Some((figure, rest)) = figure {
        if let Some(k) = rest.strip_prefix('#') {
            if !k.is_empty() && k.len() <= 3 && k.bytes().all(|b| b.is_ascii_digit()) {
                let k: u32 = k.parse().unwrap_or(u32::MAX);
                if (k as usize) < K {
                    return Ok(s.figure_id(figure, k as usize));
                }
            }
            return Err(bad(text));
        }
        let (kind, place) = match rest.split_once(' ') {
            Some((a, b)) => (a, Some(b)),
            None => (rest, None),
        };
        let kind = KIND_NAMES
            .iter()
            .position(|&n| n == kind)
            .ok_or_else(|| bad(text))? as u8;
        let (t, r) = just_placed(s).ok_or_else(|| bad(text))?;
        let k = find_feature(s.tt(t), r, kind, place).ok_or_else(|| bad(text))?;
        return Ok(s.figure_id(figure, k));
    }
    if let Some(name) = f.strip_prefix("tile ") {
        if let Some(t) = type_by_name(s.cfg.types, name) {
            return Ok(p + 1 + K as u32 + t as u32);
        }
    }
    Err(bad(text))
}

/// The feature of a tile of type tt with rotation r that `<kind> [<where>]` names (any of its edges or
/// halves), if any.
fn find_feature(tt: &TileType, r: usize, kind: u8, place: Option<&str>) -> Option<usize> {
    tt.features.iter().position(|feat| {
        feat.kind == kind
            && match (kind, place) {
                (0, None) => true,
                // A field on no edge (an inner farm, §2) is written without `<where>`.
                (3, None) => feat.halves == 0,
                (1 | 2, Some(w)) => (0..4).any(|d| {
                    EDGE_NAMES[d].eq_ignore_ascii_case(w)
                        && feat.edges & (1 << ((d + 4 - r) % 4)) != 0
                }),
                (3, Some(w)) => (0..8).any(|h| {
                    HALF_NAMES[h].eq_ignore_ascii_case(w)
                        && feat.halves & (1 << ((h + 8 - 2 * r) % 8)) != 0
                }),
                _ => false,
            }
    })
}

/// The P&D texts (§12.8), `f` already folded: `dragon <d>`, `<figure> @<s> #<k>` and `<figure> <x>,<y>
/// <kind> [<where>]`; Ok(None) when `f` is none of these forms (the ordinary figure texts).
fn pd_string_to_action(s: &CarcassonneState, f: &str, text: &str) -> Result<Option<u32>> {
    let cfg = s.cfg;
    if let Some(d) = f.strip_prefix("dragon ") {
        let d = DIRECTION_NAMES
            .iter()
            .position(|n| n.eq_ignore_ascii_case(d))
            .ok_or_else(|| bad(text))?;
        return Ok(Some(cfg.dragon_base() + d as u32));
    }
    let Some((word, rest)) = f.split_once(' ') else {
        return Ok(None);
    };
    let fig = match word {
        "follower" => PdFigure::Portal,
        "large" if cfg.ic => PdFigure::PortalLarge,
        "princess" => PdFigure::Princess,
        "fairy" => PdFigure::Fairy,
        _ => return Ok(None),
    };
    let rest = rest.replace(" ,", ",").replace(", ", ",");
    if let Some(at) = rest.strip_prefix('@') {
        let (sl, k) = at.split_once(" #").ok_or_else(|| bad(text))?;
        let small = |v: &str| {
            (!v.is_empty() && v.len() <= 6 && v.bytes().all(|b| b.is_ascii_digit()))
                .then(|| v.parse::<usize>().ok())
                .flatten()
        };
        let (sl, k) = (
            small(sl).ok_or_else(|| bad(text))?,
            small(k).ok_or_else(|| bad(text))?,
        );
        if sl > cfg.r as usize || k >= K {
            return Err(bad(text));
        }
        return Ok(Some(s.pd_id(fig, sl, k)));
    }
    let mut parts = rest.splitn(3, ' ');
    let xy = parts.next().unwrap_or("");
    let Some((xs, ys)) = xy.split_once(',') else {
        if matches!(fig, PdFigure::Princess | PdFigure::Fairy) {
            return Err(bad(text));
        }
        return Ok(None);
    };
    let (x, y) = (
        int(xs).ok_or_else(|| bad(text))?,
        int(ys).ok_or_else(|| bad(text))?,
    );
    let big_r = cfg.r as i64;
    if x.abs() > big_r || y.abs() > big_r {
        return Err(bad(text));
    }
    let slot = s
        .board
        .slot_at(x as i32, y as i32)
        .ok_or_else(|| bad(text))?;
    let kind_word = parts.next();
    let kind = KIND_NAMES
        .iter()
        .position(|&n| Some(n) == kind_word)
        .ok_or_else(|| bad(text))? as u8;
    let p = s.board.slots[slot];
    let k =
        find_feature(s.tt(p.typ), p.rot as usize, kind, parts.next()).ok_or_else(|| bad(text))?;
    // The tile just placed names the ordinary ids (§7, §11.5).
    if s.phase == Phase::Follower && slot == s.last_slot() {
        match fig {
            PdFigure::Portal => return Ok(Some(s.figure_id(FOLLOWER, k))),
            PdFigure::PortalLarge => return Ok(Some(s.figure_id(LARGE, k))),
            _ => {}
        }
    }
    Ok(Some(s.pd_id(fig, slot, k)))
}
