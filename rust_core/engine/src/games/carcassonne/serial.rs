//! Canonical JSON (docs/rules/carcassonne.md §9). The reader rebuilds the state from the snapshot (the board
//! is replayed placement by placement, which checks each entry's legality and rebuilds the features), and
//! refuses every case §9 lists.

use super::state::{CarcassonneState, Phase, FOLLOWERS};
use super::tiles::{tile, LAND, NONE, T};
use super::{Config, ID};
use crate::error::{invalid, Result};
use crate::json::Fields;
use crate::params::params_to_json;
use serde_json::{json, Value};

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

const PREFIX: &str = "carcassonne: ";

/// The counts at `key` (or the list `v` at `sub`): one per tile type, each in 0..=255.
fn counts(o: &Fields, sub: &str, v: &Value) -> Result<[u8; T]> {
    let list = o.list_at(sub, v, T..=T)?;
    let mut out = [0u8; T];
    for t in 0..T {
        out[t] = o.int_at(&format!("{sub}[{t}]"), &list[t], 0, 255)? as u8;
    }
    Ok(out)
}

pub fn deserialize(cfg: &'static Config, text: &str) -> Result<(CarcassonneState, Vec<u32>)> {
    let v = match crate::json::parse(text) {
        Ok(v) => v,
        Err(e) => return invalid(format!("{PREFIX}bad JSON: {e}")),
    };
    let m = Fields::new(&v, PREFIX, "", &KEYS)?;
    m.envelope(ID, VERSION, &params_to_json(&cfg.params))?;
    let n = cfg.players;
    let nact = cfg.num_actions() as i64;
    let history: Vec<u32> = m
        .ints("history", .., 0, nact - 1)?
        .into_iter()
        .map(|x| x as u32)
        .collect();

    // The board, replayed.
    let board = m.list("board", 1..)?;
    let mut s = CarcassonneState::empty(cfg);
    let big_r = cfg.r as i64;
    for (i, e) in board.iter().enumerate() {
        let at = format!("board[{i}]");
        let e = m.list_at(&at, e, 4..=4)?;
        let t = m.int_at(&format!("{at}[0]"), &e[0], 0, T as i64 - 1)? as u8;
        let x = m.int_at(&format!("{at}[1]"), &e[1], -big_r, big_r)?;
        let y = m.int_at(&format!("{at}[2]"), &e[2], -big_r, big_r)?;
        let r = m.int_at(&format!("{at}[3]"), &e[3], 0, 3)? as u8;
        if cfg.total[t as usize] == 0 {
            return invalid(format!("{ID}: tile type {t} is not in this game"));
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

    let phase_name = m.str("phase")?;
    let Some(phase) = Phase::from_name(phase_name) else {
        return m.fail("phase", format!("{phase_name:?} is not a phase"));
    };
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
    let fl = m.list("followers", ..)?;
    let mut per_seat = [0u32; 5];
    let mut prev: i64 = -1;
    for (i, f) in fl.iter().enumerate() {
        let at = format!("followers[{i}]");
        let f = m.list_at(&at, f, 3..=3)?;
        let slot = m.int_at(&format!("{at}[0]"), &f[0], 0, slots as i64 - 1)?;
        if slot <= prev {
            return invalid(format!("{ID}: follower slots must be ascending"));
        }
        prev = slot;
        let slot = slot as usize;
        let tt = tile(s.board.slots[slot].typ);
        let features = tt.features.len() as i64;
        let k = m.int_at(&format!("{at}[1]"), &f[1], 0, features - 1)? as usize;
        let seat = m.int_at(&format!("{at}[2]"), &f[2], 0, n as i64 - 1)? as usize;
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
    let supply = m.ints("supply", n..=n, 0, 7)?;
    for q in 0..n {
        let v = supply[q];
        if v != FOLLOWERS as i64 - per_seat[q] as i64 {
            return invalid(format!(
                "{ID}: supply of seat {q} does not match its followers"
            ));
        }
        s.supply[q] = v as u8;
    }

    // Counts.
    s.pile = counts(&m, "pile", m.get("pile"))?;
    s.set_aside = counts(&m, "set_aside", m.get("set_aside"))?;
    let hands = m.list("hands", n..=n)?;
    for q in 0..n {
        s.hands[q] = counts(&m, &format!("hands[{q}]"), &hands[q])?;
        if !cfg.strategic && s.hands[q].iter().any(|&c| c > 0) {
            return invalid(format!("{ID}: hands without the strategic variant"));
        }
        if s.hands[q][LAND..].iter().any(|&c| c > 0) {
            return invalid(format!("{ID}: a river tile in a hand"));
        }
    }
    let scores = m.ints("scores", n..=n, 0, 100_000)?;
    for q in 0..n {
        s.scores[q] = scores[q] as u32;
    }
    let tile_v = m.int("tile", -1, T as i64 - 1)?;
    s.phase = phase;
    s.current = m.int("current", 0, n as i64 - 1)? as u8;
    let to_draw = m.int("to_draw", 0, 4)?;
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
