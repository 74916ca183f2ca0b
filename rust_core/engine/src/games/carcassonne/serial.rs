//! Canonical JSON (docs/rules/carcassonne.md §9, §11.7, §12.10). The reader rebuilds the state from the snapshot (the
//! board is replayed placement by placement, which checks each entry's legality and rebuilds the features),
//! and refuses every case §9 and §11.7 list.

use super::princess_dragon::{DRAGON_STEPS, MAX_EXTRA, NO_SLOT};
use super::state::{
    fig_k, fig_kind, fig_seat, fig_weight, CarcassonneState, Phase, BUILDER, FOLLOWER, FOLLOWERS,
    LARGE, PIG,
};
use super::tiles::{is_land, CLOISTER, FCITY, FFIELD, FROAD, LAND, NONE, T, TMAX};
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

/// The keys of the expansions (§11.7), present exactly when the expansion is enabled.
const IC_KEYS: [&str; 2] = ["large", "large_supply"];
const TB_KEYS: [&str; 7] = [
    "again",
    "bonus",
    "builder_supply",
    "builders",
    "goods",
    "pig_supply",
    "pigs",
];
const PD_KEYS: [&str; 4] = ["dragon", "dragon_visited", "fairy", "turn"];

/// `[[slot, k, seat], ...]` of the figures of `kind`, by (slot, k).
fn figures(s: &CarcassonneState, kind: u8) -> Vec<Value> {
    s.figures_sorted()
        .into_iter()
        .filter(|&(_, f)| fig_kind(f) == kind)
        .map(|(i, f)| json!([i, fig_k(f), fig_seat(f)]))
        .collect()
}

fn slot_or_minus_one(slot: u16) -> i64 {
    if slot == NO_SLOT {
        -1
    } else {
        slot as i64
    }
}

pub fn serialize(s: &CarcassonneState, history: &[u32]) -> String {
    let n = s.n();
    let nt = s.cfg.nt;
    let board: Vec<Value> = s
        .board
        .slots
        .iter()
        .map(|p| json!([p.typ, p.x, p.y, p.rot]))
        .collect();
    let hands: Vec<Value> = (0..n).map(|q| json!(s.hand(q))).collect();
    let mut v = json!({
        "board": board,
        "current": s.current,
        "followers": figures(s, FOLLOWER),
        "game": ID,
        "hands": hands,
        "history": history,
        "params": params_to_json(&s.cfg.params),
        "phase": s.phase.name(),
        "pile": s.pile[..nt].to_vec(),
        "scores": s.scores[..n].to_vec(),
        "set_aside": s.set_aside[..nt].to_vec(),
        "supply": s.supply[..n].to_vec(),
        "tile": if s.tile == NONE { -1 } else { s.tile as i64 },
        "to_draw": s.to_draw,
        "version": VERSION,
    });
    let o = v.as_object_mut().expect("an object");
    if s.cfg.ic {
        o.insert("large".into(), json!(figures(s, LARGE)));
        o.insert("large_supply".into(), json!(s.large_supply[..n].to_vec()));
    }
    if s.cfg.tb {
        o.insert("builders".into(), json!(figures(s, BUILDER)));
        o.insert("pigs".into(), json!(figures(s, PIG)));
        o.insert(
            "builder_supply".into(),
            json!(s.builder_supply[..n].to_vec()),
        );
        o.insert("pig_supply".into(), json!(s.pig_supply[..n].to_vec()));
        let goods: Vec<Value> = (0..n).map(|q| json!(s.goods[q].to_vec())).collect();
        o.insert("goods".into(), json!(goods));
        o.insert("bonus".into(), json!(s.bonus));
        o.insert("again".into(), json!(s.again));
    }
    if s.cfg.pd {
        let pd = &s.pd;
        o.insert("dragon".into(), json!(slot_or_minus_one(pd.dragon)));
        o.insert("dragon_visited".into(), json!(pd.visited().to_vec()));
        let k = if pd.fairy_k == NONE {
            -1
        } else {
            pd.fairy_k as i64
        };
        o.insert("fairy".into(), json!([slot_or_minus_one(pd.fairy), k]));
        let turn = if s.phase == Phase::Dragon {
            pd.turn
        } else {
            s.current
        };
        o.insert("turn".into(), json!(turn));
    }
    v.to_string()
}

const PREFIX: &str = "carcassonne: ";

/// The counts at `key` (or the list `v` at `sub`): one per tile type of the game, each in 0..=255.
fn counts(o: &Fields, nt: usize, sub: &str, v: &Value) -> Result<[u8; TMAX]> {
    let list = o.list_at(sub, v, nt..=nt)?;
    let mut out = [0u8; TMAX];
    for t in 0..nt {
        out[t] = o.int_at(&format!("{sub}[{t}]"), &list[t], 0, 255)? as u8;
    }
    Ok(out)
}

pub fn deserialize(cfg: &'static Config, text: &str) -> Result<(CarcassonneState, Vec<u32>)> {
    let v = match crate::json::parse(text) {
        Ok(v) => v,
        Err(e) => return invalid(format!("{PREFIX}bad JSON: {e}")),
    };
    let mut keys: Vec<&str> = KEYS.to_vec();
    if cfg.ic {
        keys.extend(IC_KEYS);
    }
    if cfg.tb {
        keys.extend(TB_KEYS);
    }
    if cfg.pd {
        keys.extend(PD_KEYS);
    }
    let m = Fields::new(&v, PREFIX, "", &keys)?;
    m.envelope(ID, VERSION, &params_to_json(&cfg.params))?;
    let n = cfg.players;
    let nt = cfg.nt;
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
        let t = m.int_at(&format!("{at}[0]"), &e[0], 0, nt as i64 - 1)? as u8;
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
        if !matches!(phase, Phase::Follower | Phase::Dragon) || slots == 1 {
            return false;
        }
        if cloister {
            let p = s.board.slots[slot];
            return (p.x as i32 - lx).abs() <= 1 && (p.y as i32 - ly).abs() <= 1;
        }
        let n = s.tt(s.board.slots[last].typ).features.len();
        (0..n).any(|k| s.segs.root(s.seg(last, k)) == root)
    };

    // Figures: the followers, the large followers, then the builders and pigs (which need a follower of
    // their seat in their feature), each list by slot; one figure a tile over all four lists.
    let lists: &[(&str, &str, u8, u8)] = &[
        ("followers", "supply", FOLLOWER, FOLLOWERS),
        ("large", "large_supply", LARGE, 1),
        ("builders", "builder_supply", BUILDER, 1),
        ("pigs", "pig_supply", PIG, 1),
    ];
    for &(key, supply_key, fig, most) in lists {
        let on = match fig {
            FOLLOWER => true,
            LARGE => cfg.ic,
            _ => cfg.tb,
        };
        if !on {
            continue;
        }
        let fl = m.list(key, ..)?;
        let mut per_seat = [0u32; super::state::MAX_PLAYERS];
        let mut prev: (i64, i64) = (-1, -1);
        for (i, f) in fl.iter().enumerate() {
            let at = format!("{key}[{i}]");
            let f = m.list_at(&at, f, 3..=3)?;
            let slot = m.int_at(&format!("{at}[0]"), &f[0], 0, slots as i64 - 1)?;
            let tt = s.tt(s.board.slots[slot as usize].typ);
            let features = tt.features.len() as i64;
            let k = m.int_at(&format!("{at}[1]"), &f[1], 0, features - 1)?;
            // Without P&D one figure a tile, so (slot, k) ascending is slot ascending (§9).
            let key_now = if cfg.pd { (slot, k) } else { (slot, 0) };
            if key_now <= prev {
                return invalid(format!("{ID}: {key} must be sorted by slot"));
            }
            prev = key_now;
            let (slot, k) = (slot as usize, k as usize);
            let seat = m.int_at(&format!("{at}[2]"), &f[2], 0, n as i64 - 1)? as usize;
            if s.fig_at(slot, k as u8) != NONE {
                return invalid(format!("{ID}: two figures on feature {k} of slot {slot}"));
            }
            if s.board.slots[slot].figure != NONE {
                if !cfg.pd {
                    return invalid(format!("{ID}: slot {slot} holds two figures"));
                }
                let byte = s.board.slots[slot].figure;
                if fig >= BUILDER && fig_weight(byte) == 0 {
                    return invalid(format!("{ID}: slot {slot} holds two builders or pigs"));
                }
                if s.pd.n_extra as usize >= MAX_EXTRA {
                    return invalid(format!(
                        "{ID}: more than {MAX_EXTRA} figures beyond their tile's first"
                    ));
                }
            }
            let root = s.segs.root(s.seg(slot, k));
            let kind = tt.features[k].kind;
            let fits = match fig {
                BUILDER => kind == FCITY || kind == FROAD,
                PIG => kind == FFIELD,
                _ => true,
            };
            if !fits {
                return invalid(format!(
                    "{ID}: {key}[{i}] is on a feature of the wrong kind"
                ));
            }
            let complete = match kind {
                CLOISTER => s.board.slots[slot].nb8 == 8,
                FFIELD => false,
                _ => s.segs.segs[root].open == 0,
            };
            if complete && !just_completed(&s, slot, root, kind == CLOISTER) {
                return invalid(format!(
                    "{ID}: a figure on a completed feature (slot {slot})"
                ));
            }
            if fig >= BUILDER && !s.holds_follower_of(root, seat) {
                return invalid(format!(
                    "{ID}: {key}[{i}] has no follower of its seat in its feature"
                ));
            }
            per_seat[seat] += 1;
            if per_seat[seat] > most as u32 {
                return invalid(format!("{ID}: seat {seat} has too many {key}"));
            }
            s.set_figure(slot, k, seat, fig);
        }
        let supply = m.ints(supply_key, n..=n, 0, most as i64)?;
        for q in 0..n {
            let v = supply[q];
            if v != most as i64 - per_seat[q] as i64 {
                return invalid(format!(
                    "{ID}: {supply_key} of seat {q} does not match its figures"
                ));
            }
            let to = match fig {
                FOLLOWER => &mut s.supply[q],
                LARGE => &mut s.large_supply[q],
                BUILDER => &mut s.builder_supply[q],
                _ => &mut s.pig_supply[q],
            };
            *to = v as u8;
        }
    }

    // Counts.
    s.pile = counts(&m, nt, "pile", m.get("pile"))?;
    s.set_aside = counts(&m, nt, "set_aside", m.get("set_aside"))?;
    let hands = m.list("hands", n..=n)?;
    for q in 0..n {
        let hand = counts(&m, nt, &format!("hands[{q}]"), &hands[q])?;
        if !cfg.strategic {
            if hand.iter().any(|&c| c > 0) {
                return invalid(format!("{ID}: hands without the strategic variant"));
            }
            continue;
        }
        if hand[LAND..T].iter().any(|&c| c > 0) {
            return invalid(format!("{ID}: a river tile in a hand"));
        }
        s.hand_mut(q).copy_from_slice(&hand[..nt]);
    }
    let scores = m.ints("scores", n..=n, 0, 100_000)?;
    for q in 0..n {
        s.scores[q] = scores[q] as u32;
    }
    let tile_v = m.int("tile", -1, nt as i64 - 1)?;
    s.phase = phase;
    s.current = m.int("current", 0, n as i64 - 1)? as u8;
    let to_draw = m.int("to_draw", 0, 4)?;
    if to_draw != 0 && !cfg.strategic {
        return invalid(format!("{ID}: to_draw without the strategic variant"));
    }
    s.to_draw = to_draw as u8;
    for t in 0..nt {
        let mut c = s.board.slots.iter().filter(|p| p.typ as usize == t).count() as u32;
        c += s.pile[t] as u32 + s.set_aside[t] as u32;
        c += (0..n).map(|q| s.hand(q)[t] as u32).sum::<u32>();
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
            if is_land(t as usize) && s.river_left() {
                return invalid(format!("{ID}: a land tile while river tiles remain"));
            }
            s.tile = t;
        }
        _ if tile_v != -1 => return invalid(format!("{ID}: tile must be -1 outside phase place")),
        Phase::Dragon => {
            if !cfg.pd || slots == 1 || !s.tt(s.board.slots[last].typ).dragon {
                return invalid(format!(
                    "{ID}: phase dragon without P&D or after a tile that is not a dragon tile"
                ));
            }
        }
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
            if s.land_types()
                .any(|t| s.hand(q)[t] > 0 && !s.placeable(t as u8))
            {
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
    if cfg.tb {
        // Goods (§11.7): per kind, no more tokens over all seats than symbols on the board.
        let mut symbols = [0u32; 3];
        for p in &s.board.slots {
            for f in &s.tt(p.typ).features {
                if f.goods > 0 {
                    symbols[f.goods as usize - 1] += 1;
                }
            }
        }
        let goods = m.list("goods", n..=n)?;
        let mut held = [0u32; 3];
        for q in 0..n {
            let at = format!("goods[{q}]");
            let g = m.list_at(&at, &goods[q], 3..=3)?;
            for k in 0..3 {
                let v = m.int_at(&format!("{at}[{k}]"), &g[k], 0, 255)?;
                s.goods[q][k] = v as u8;
                held[k] += v as u32;
            }
        }
        if (0..3).any(|k| held[k] > symbols[k]) {
            return invalid(format!(
                "{ID}: more goods tokens than goods symbols on the board"
            ));
        }
        s.bonus = m.bool("bonus")?;
        s.again = m.bool("again")?;
        let again_phase = phase == Phase::Follower || phase == Phase::Dragon;
        if s.again && (!again_phase || s.bonus) {
            return invalid(format!("{ID}: again outside phase follower or with bonus"));
        }
        if s.bonus && matches!(phase, Phase::Deal | Phase::Over) {
            return invalid(format!("{ID}: bonus in phase {}", phase.name()));
        }
    }
    if cfg.pd {
        read_pd(&m, &mut s)?;
    }
    Ok((s, history))
}

/// The P&D keys (§12.10), once the board, the figures and the phase are read.
fn read_pd(m: &Fields, s: &mut CarcassonneState) -> Result<()> {
    let slots = s.board.slots.len() as i64;
    let n = s.n();
    let dragon = m.int("dragon", -1, slots - 1)?;
    let volcano = s.board.slots.iter().any(|p| s.tt(p.typ).volcano);
    if (dragon >= 0) != volcano {
        return invalid(format!(
            "{ID}: dragon must be on the board exactly when a volcano tile is"
        ));
    }
    s.pd.dragon = if dragon < 0 { NO_SLOT } else { dragon as u16 };
    if let Some((slot, _)) = s.each_figure().find(|&(slot, _)| s.figure_barred(slot)) {
        return invalid(format!(
            "{ID}: a figure on a volcano tile or the dragon's tile (slot {slot})"
        ));
    }
    let fairy = m.list("fairy", 2..=2)?;
    let fs = m.int_at("fairy[0]", &fairy[0], -1, slots - 1)?;
    let fk = m.int_at("fairy[1]", &fairy[1], -1, super::tiles::K as i64 - 1)?;
    if fs < 0 && fk >= 0 {
        return invalid(format!("{ID}: the fairy is next to a figure on no slot"));
    }
    if fs >= 0 {
        if fs == dragon {
            return invalid(format!("{ID}: the fairy is on the dragon's slot"));
        }
        if fk >= 0 {
            let f = s.fig_at(fs as usize, fk as u8);
            if f == NONE || fig_weight(f) == 0 {
                return invalid(format!(
                    "{ID}: the fairy is next to no follower (slot {fs}, feature {fk})"
                ));
            }
        }
    }
    s.pd.fairy = if fs < 0 { NO_SLOT } else { fs as u16 };
    s.pd.fairy_k = if fk < 0 { NONE } else { fk as u8 };
    let turn = m.int("turn", 0, n as i64 - 1)? as u8;
    let visited = m.ints("dragon_visited", ..=DRAGON_STEPS + 1, 0, slots - 1)?;
    if s.phase != Phase::Dragon {
        if !visited.is_empty() {
            return invalid(format!("{ID}: dragon_visited outside phase dragon"));
        }
        if turn != s.current {
            return invalid(format!("{ID}: turn is not current outside phase dragon"));
        }
        return Ok(());
    }
    let chain_ok = !visited.is_empty()
        && visited.last() == Some(&dragon)
        && visited.iter().enumerate().all(|(i, &v)| {
            !visited[..i].contains(&v)
                && v as u16 != s.pd.fairy
                && (i == 0 || {
                    let (a, b) = (
                        s.board.slots[visited[i - 1] as usize],
                        s.board.slots[v as usize],
                    );
                    (a.x - b.x).abs() + (a.y - b.y).abs() == 1
                })
        });
    if !chain_ok {
        return invalid(format!(
            "{ID}: dragon_visited is not a move of the dragon ending at its slot"
        ));
    }
    for (i, &v) in visited.iter().enumerate() {
        s.pd.visited[i] = v as u16;
    }
    s.pd.n_visited = visited.len() as u8;
    s.pd.turn = turn;
    if !s.dragon_can_step() {
        return invalid(format!("{ID}: phase dragon with no legal step left"));
    }
    let steps = visited.len() - 1;
    if s.current as usize != (turn as usize + steps) % n {
        return invalid(format!(
            "{ID}: current is not the seat choosing the dragon's step"
        ));
    }
    Ok(())
}
