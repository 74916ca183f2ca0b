//! Canonical JSON (docs/rules/carcassonne.md §9). The reader rebuilds the state from the snapshot (the board
//! is replayed placement by placement, which checks each entry's legality and rebuilds the features), and
//! refuses every case §9 lists.

use super::state::{CarcassonneState, Phase, FOLLOWERS};
use super::tiles::{tile, LAND, NONE, T};
use super::{Config, ID};
use crate::error::{invalid, Result};
use crate::params::params_to_json;
use serde_json::{json, Map, Value};

const VERSION: i64 = 1;
const KEYS: [&str; 15] = [
    "board",
    "current",
    "followers",
    "game",
    "hands",
    "history",
    "params",
    "phase",
    "pile",
    "scores",
    "set_aside",
    "supply",
    "tile",
    "to_draw",
    "version",
];

pub fn serialize(s: &CarcassonneState, history: &[u32]) -> String {
    let n = s.n();
    let board: Vec<Value> = s
        .board
        .slots
        .iter()
        .map(|p| json!([p.typ, p.x, p.y, p.rot]))
        .collect();
    let followers: Vec<Value> = (0..s.board.slots.len())
        .filter(|&i| s.board.slots[i].follower != NONE)
        .map(|i| {
            json!([
                i,
                s.board.slots[i].follower / 8,
                s.board.slots[i].follower % 8
            ])
        })
        .collect();
    let hands: Vec<Value> = (0..n).map(|q| json!(s.hands[q].to_vec())).collect();
    let v = json!({
        "board": board,
        "current": s.current,
        "followers": followers,
        "game": ID,
        "hands": hands,
        "history": history,
        "params": params_to_json(&s.cfg.params),
        "phase": s.phase.name(),
        "pile": s.pile.to_vec(),
        "scores": s.scores[..n].to_vec(),
        "set_aside": s.set_aside.to_vec(),
        "supply": s.supply[..n].to_vec(),
        "tile": if s.tile == NONE { -1 } else { s.tile as i64 },
        "to_draw": s.to_draw,
        "version": VERSION,
    });
    v.to_string()
}

fn int(v: &Value, what: &str) -> Result<i64> {
    match v {
        Value::Number(n) if n.is_i64() => Ok(n.as_i64().unwrap_or(0)),
        Value::Number(n) if n.is_u64() => invalid(format!("{ID}: {what} is out of range")),
        _ => invalid(format!("{ID}: {what} must be an int, not {v}")),
    }
}

fn ranged(v: &Value, what: &str, lo: i64, hi: i64) -> Result<i64> {
    let x = int(v, what)?;
    if x < lo || x > hi {
        return invalid(format!("{ID}: {what}={x} is outside {lo}..{hi}"));
    }
    Ok(x)
}

fn list<'a>(v: &'a Value, what: &str, len: Option<usize>) -> Result<&'a Vec<Value>> {
    let Value::Array(a) = v else {
        return invalid(format!("{ID}: {what} must be a list"));
    };
    if let Some(l) = len {
        if a.len() != l {
            return invalid(format!(
                "{ID}: {what} must have {l} entries, not {}",
                a.len()
            ));
        }
    }
    Ok(a)
}

fn counts(v: &Value, what: &str) -> Result<[u8; T]> {
    let a = list(v, what, Some(T))?;
    let mut out = [0u8; T];
    for t in 0..T {
        out[t] = ranged(&a[t], what, 0, 255)? as u8;
    }
    Ok(out)
}

pub fn deserialize(cfg: &'static Config, text: &str) -> Result<(CarcassonneState, Vec<u32>)> {
    let v = crate::json::parse(text)
        .map_err(|e| crate::GameError::InvalidState(format!("{ID}: bad JSON: {e}")))?;
    let Value::Object(m) = &v else {
        return invalid(format!("{ID}: a serialized state is a JSON object"));
    };
    check_keys(m)?;
    if m["game"] != json!(ID) {
        return invalid(format!("{ID}: game must be {ID:?}"));
    }
    if m["version"] != json!(VERSION) || !m["version"].is_i64() {
        return invalid(format!("{ID}: version must be {VERSION}"));
    }
    if m["params"] != params_to_json(&cfg.params) {
        return invalid(format!("{ID}: params are not this game's"));
    }
    let n = cfg.players;
    let nact = cfg.num_actions() as i64;
    let history: Vec<u32> = list(&m["history"], "history", None)?
        .iter()
        .map(|a| ranged(a, "a history id", 0, nact - 1).map(|x| x as u32))
        .collect::<Result<_>>()?;

    // The board, replayed.
    let board = list(&m["board"], "board", None)?;
    if board.is_empty() {
        return invalid(format!("{ID}: the board is empty"));
    }
    let mut s = CarcassonneState::empty(cfg);
    let big_r = cfg.r as i64;
    for (i, e) in board.iter().enumerate() {
        let e = list(e, "a board entry", Some(4))?;
        let t = ranged(&e[0], "a board type", 0, T as i64 - 1)? as u8;
        let x = int(&e[1], "x")?;
        let y = int(&e[2], "y")?;
        let r = ranged(&e[3], "a rotation", 0, 3)? as u8;
        if cfg.total[t as usize] == 0 {
            return invalid(format!("{ID}: tile type {t} is not in this game"));
        }
        if x.abs() > big_r || y.abs() > big_r {
            return invalid(format!("{ID}: board cell {x},{y} is outside the window"));
        }
        if i == 0 {
            if t != cfg.start || x != 0 || y != 0 || r != 0 {
                return invalid(format!(
                    "{ID}: the first board entry must be the start tile at 0,0 r0"
                ));
            }
            continue;
        }
        let (x, y) = (x as i32, y as i32);
        if s.board.slot_at(x, y).is_some() {
            return invalid(format!("{ID}: board cell {x},{y} is taken twice"));
        }
        if !s.placement_legal(t, s.board.cell(x, y) * 4 + r as u32) {
            return invalid(format!("{ID}: board entry {i} is not a legal placement"));
        }
        s.put(t, r, x, y);
    }
    let slots = s.board.slots.len();

    let Value::String(phase_name) = &m["phase"] else {
        return invalid(format!("{ID}: phase must be a str"));
    };
    let phase = Phase::from_name(phase_name).ok_or_else(|| {
        crate::GameError::InvalidState(format!("{ID}: unknown phase {phase_name:?}"))
    })?;
    // In phase follower, what the last tile completed is scored only after the follower decision.
    let last = slots - 1;
    let (lx, ly) = (s.board.slots[last].x as i32, s.board.slots[last].y as i32);
    let just_completed = |s: &CarcassonneState, slot: usize, root: usize, cloister: bool| {
        if phase != Phase::Follower || slots == 1 {
            return false;
        }
        if cloister {
            let p = s.board.slots[slot];
            return (p.x as i32 - lx).abs() <= 1 && (p.y as i32 - ly).abs() <= 1;
        }
        let n = tile(s.board.slots[last].typ).features.len();
        (0..n).any(|k| s.segs.root(s.seg(last, k)) == root)
    };

    // Followers.
    let fl = list(&m["followers"], "followers", None)?;
    let mut per_seat = [0u32; 5];
    let mut prev: i64 = -1;
    for f in fl {
        let f = list(f, "a follower", Some(3))?;
        let slot = ranged(&f[0], "a follower slot", 0, slots as i64 - 1)?;
        if slot <= prev {
            return invalid(format!("{ID}: follower slots must be ascending"));
        }
        prev = slot;
        let slot = slot as usize;
        let tt = tile(s.board.slots[slot].typ);
        let k = ranged(&f[1], "a follower feature", 0, tt.features.len() as i64 - 1)? as usize;
        let seat = ranged(&f[2], "a follower seat", 0, n as i64 - 1)? as usize;
        let root = s.segs.root(s.seg(slot, k));
        let kind = tt.features[k].kind;
        let complete = match kind {
            super::tiles::CLOISTER => s.board.slots[slot].nb8 == 8,
            super::tiles::FFIELD => false,
            _ => s.segs.segs[root].open == 0,
        };
        if complete && !just_completed(&s, slot, root, kind == super::tiles::CLOISTER) {
            return invalid(format!(
                "{ID}: a follower on a completed feature (slot {slot})"
            ));
        }
        per_seat[seat] += 1;
        if per_seat[seat] > FOLLOWERS as u32 {
            return invalid(format!("{ID}: seat {seat} has more than 7 followers"));
        }
        s.set_follower(slot, k, seat);
    }
    let supply = list(&m["supply"], "supply", Some(n))?;
    for q in 0..n {
        let v = ranged(&supply[q], "supply", 0, 7)?;
        if v != FOLLOWERS as i64 - per_seat[q] as i64 {
            return invalid(format!(
                "{ID}: supply of seat {q} does not match its followers"
            ));
        }
        s.supply[q] = v as u8;
    }

    // Counts.
    s.pile = counts(&m["pile"], "pile")?;
    s.set_aside = counts(&m["set_aside"], "set_aside")?;
    let hands = list(&m["hands"], "hands", Some(n))?;
    for q in 0..n {
        s.hands[q] = counts(&hands[q], "a hand")?;
        if !cfg.strategic && s.hands[q].iter().any(|&c| c > 0) {
            return invalid(format!("{ID}: hands without the strategic variant"));
        }
        if s.hands[q][LAND..].iter().any(|&c| c > 0) {
            return invalid(format!("{ID}: a river tile in a hand"));
        }
    }
    let scores = list(&m["scores"], "scores", Some(n))?;
    for q in 0..n {
        s.scores[q] = ranged(&scores[q], "a score", 0, 100_000)? as u32;
    }
    let tile_v = ranged(&m["tile"], "tile", -1, T as i64 - 1)?;
    s.phase = phase;
    s.current = ranged(&m["current"], "current", 0, n as i64 - 1)? as u8;
    let to_draw = ranged(&m["to_draw"], "to_draw", 0, 4)?;
    if to_draw != 0 && !cfg.strategic {
        return invalid(format!("{ID}: to_draw without the strategic variant"));
    }
    s.to_draw = to_draw as u8;
    for t in 0..T {
        let mut c = s.board.slots.iter().filter(|p| p.typ as usize == t).count() as u32;
        c += s.pile[t] as u32 + s.set_aside[t] as u32;
        c += (0..n).map(|q| s.hands[q][t] as u32).sum::<u32>();
        c += (tile_v == t as i64) as u32;
        if c != cfg.total[t] as u32 {
            return invalid(format!("{ID}: the copies of tile type {t} do not add up"));
        }
    }
    match phase {
        Phase::Place => {
            if tile_v < 0 {
                return invalid(format!("{ID}: phase place without a tile"));
            }
            let t = tile_v as u8;
            if !s.placeable(t) {
                return invalid(format!("{ID}: the tile to place has no legal placement"));
            }
            if (t as usize) < LAND && s.river_left() {
                return invalid(format!("{ID}: a land tile while river tiles remain"));
            }
            s.tile = t;
        }
        _ if tile_v != -1 => return invalid(format!("{ID}: tile must be -1 outside phase place")),
        Phase::Deal => {
            if !cfg.strategic || slots > 1 {
                return invalid(format!(
                    "{ID}: phase deal outside the strategic variant or after play"
                ));
            }
            if s.land_left() == 0 {
                return invalid(format!("{ID}: phase deal with the land pile empty"));
            }
        }
        Phase::Draw => {
            if s.current_pile_empty() {
                return invalid(format!("{ID}: phase draw with the current pile empty"));
            }
        }
        Phase::Select => {
            let q = s.current as usize;
            if !cfg.strategic || s.hand_size(q) == 0 {
                return invalid(format!(
                    "{ID}: phase select outside the strategic variant or with an empty hand"
                ));
            }
            if (0..LAND).any(|t| s.hands[q][t] > 0 && !s.placeable(t as u8)) {
                return invalid(format!(
                    "{ID}: phase select with an unplaceable tile in the hand"
                ));
            }
        }
        Phase::Follower => {
            if slots == 1 {
                return invalid(format!("{ID}: phase follower with only the first tile"));
            }
        }
        Phase::Over => {
            if s.pile_total() > 0 || (0..n).any(|q| s.hand_size(q) > 0) {
                return invalid(format!("{ID}: phase over with tiles left"));
            }
        }
    }
    Ok((s, history))
}

fn check_keys(m: &Map<String, Value>) -> Result<()> {
    for k in KEYS {
        if !m.contains_key(k) {
            return invalid(format!("{ID}: key {k:?} is missing"));
        }
    }
    if let Some(k) = m.keys().find(|k| !KEYS.contains(&k.as_str())) {
        return invalid(format!("{ID}: unknown key {k:?}"));
    }
    Ok(())
}
