//! Canonical JSON of a whole state and its reader (docs/rules/forbidden_island.md §10). The reader rebuilds the
//! state from the fields and refuses every inconsistency the contract lists; the history is only range-checked.

use super::data::{bits, data, HAND_KINDS, KINDS, NONE, ROLES, TILES};
use super::notation::NUM_ACTIONS;
use super::observation::{outcome_name, phase_name, stage_name, window_name};
use super::state::{bit, ForbiddenIslandState, Outcome, Phase, Seat, Stage, Window};
use super::{Rules, ID};
use crate::error::{invalid, Result};
use crate::json::Fields;
use crate::params::{params_to_json, Params};
use serde_json::{json, Value};

const VERSION: i64 = 1;
const PREFIX: &str = "forbidden_island state: ";

const KEYS: [&str; 23] = [
    "actions_left",
    "captured",
    "flood_discard",
    "flood_left",
    "flood_pile",
    "game",
    "history",
    "level",
    "outcome",
    "params",
    "pending",
    "phase",
    "pilot_flown",
    "seats",
    "stage",
    "status",
    "tiles",
    "treasure_discard",
    "treasure_left",
    "treasure_pile",
    "turn",
    "version",
    "window",
];
const SEAT_KEYS: [&str; 3] = ["hand", "pawn", "role"];

const PHASES: [(Phase, &str); 12] = [
    (Phase::Layout, "layout"),
    (Phase::SetupFlood, "setup_flood"),
    (Phase::Roles, "roles"),
    (Phase::Deal, "deal"),
    (Phase::Actions, "actions"),
    (Phase::Engineer, "engineer"),
    (Phase::Treasure, "treasure"),
    (Phase::Flood, "flood"),
    (Phase::Discard, "discard"),
    (Phase::Swim, "swim"),
    (Phase::Window, "window"),
    (Phase::Over, "over"),
];
const STAGES: [(Stage, &str); 4] = [
    (Stage::Setup, "setup"),
    (Stage::Actions, "actions"),
    (Stage::Treasure, "treasure"),
    (Stage::Flood, "flood"),
];
const WINDOWS: [(Window, &str); 6] = [
    (Window::None, "none"),
    (Window::Act, "act"),
    (Window::End, "end"),
    (Window::Treasure, "treasure"),
    (Window::Rescue, "rescue"),
    (Window::Flood, "flood"),
];
const OUTCOMES: [(Outcome, &str); 3] = [
    (Outcome::None, "none"),
    (Outcome::Won, "won"),
    (Outcome::Lost, "lost"),
];
/// Position statuses: 0 none, 1 dry, 2 flooded, 3 sunk.
const STATUSES: [(u8, &str); 4] = [(0, "none"), (1, "dry"), (2, "flooded"), (3, "sunk")];

fn tile_list(set: u32) -> Vec<u8> {
    bits(set).map(|t| t as u8).collect()
}

fn signed(v: u8) -> i64 {
    if v == NONE {
        -1
    } else {
        v as i64
    }
}

pub fn to_value(s: &ForbiddenIslandState, history: &[u32]) -> Value {
    let n = s.n();
    let seats: Vec<Value> = (0..n)
        .map(|q| {
            let seat = &s.seats[q];
            json!({
                "hand": seat.hand.to_vec(),
                "pawn": signed(seat.pawn),
                "role": signed(seat.role),
            })
        })
        .collect();
    let status: Vec<&str> = (0..TILES)
        .map(|q| {
            let qb = 1u32 << q;
            if s.tiles[q] == NONE {
                "none"
            } else if s.sunk & qb != 0 {
                "sunk"
            } else if s.flooded & qb != 0 {
                "flooded"
            } else {
                "dry"
            }
        })
        .collect();
    let tiles: Vec<i64> = s.tiles.iter().map(|&t| signed(t)).collect();
    let layers: Vec<Vec<u8>> = (0..s.num_layers as usize)
        .rev()
        .map(|l| tile_list(s.layers[l]))
        .collect();
    let captured: Vec<bool> = (0..4).map(|t| s.captured >> t & 1 == 1).collect();
    let pending: Vec<u8> = if s.phase == Phase::Window {
        s.pending_seats().to_vec()
    } else {
        Vec::new()
    };
    json!({
        "actions_left": s.actions_left,
        "captured": captured,
        "flood_discard": tile_list(s.flood_discard),
        "flood_left": s.flood_left,
        "flood_pile": layers,
        "game": ID,
        "history": history,
        "level": s.level,
        "outcome": outcome_name(s.outcome),
        "params": rules_json(&s.rules),
        "pending": pending,
        "phase": phase_name(s.phase),
        "pilot_flown": s.pilot_flown,
        "seats": seats,
        "stage": stage_name(s.stage),
        "status": status,
        "tiles": tiles,
        "treasure_discard": s.discard.to_vec(),
        "treasure_left": s.treasure_left,
        "treasure_pile": s.pile.to_vec(),
        "turn": s.turn,
        "version": VERSION,
        "window": if s.phase == Phase::Window { window_name(s.window) } else { "none" },
    })
}

fn rules_json(r: &Rules) -> Value {
    json!({
        "difficulty": r.difficulty(),
        "layout": r.layout().key,
        "players": r.players,
    })
}

/// serde_json's maps are sorted and `to_string` is compact and ASCII-safe for these values: §10's canonical JSON.
pub fn serialize(s: &ForbiddenIslandState, history: &[u32]) -> String {
    to_value(s, history).to_string()
}

fn err<T>(msg: impl std::fmt::Display) -> Result<T> {
    invalid(format!("{PREFIX}{msg}"))
}

/// A strictly ascending list of tile ids at `sub` (found in `o`), as a bit set.
fn tile_set(o: &Fields, sub: &str, v: &Value) -> Result<u32> {
    let items = o.list_at(sub, v, ..)?;
    let mut set = 0u32;
    let mut last = -1i64;
    for (i, item) in items.iter().enumerate() {
        let t = o.int_at(&format!("{sub}[{i}]"), item, 0, TILES as i64 - 1)?;
        if t <= last {
            return o.fail(sub, "must be in ascending order (each tile once)");
        }
        last = t;
        set |= 1 << t;
    }
    Ok(set)
}

/// Counts of 7 kinds at `key`, each non-negative.
fn counts(o: &Fields, key: &str, len: usize) -> Result<Vec<i64>> {
    o.ints(key, len..=len, 0, i64::MAX)
}

pub fn deserialize(
    rules: &Rules,
    params: &Params,
    text: &str,
) -> Result<(ForbiddenIslandState, Vec<u32>)> {
    let value: Value = match crate::json::parse(text) {
        Ok(v) => v,
        Err(e) => return err(format!("not JSON ({e})")),
    };
    let obj = Fields::new(&value, PREFIX, "", &KEYS)?;
    obj.envelope(ID, VERSION, &params_to_json(params))?;
    let n = rules.n();
    let d = data();

    let history: Vec<u32> = obj
        .ints("history", .., 0, NUM_ACTIONS as i64 - 1)?
        .into_iter()
        .map(|a| a as u32)
        .collect();

    // Types and ranges.
    let phase = obj.name("phase", &PHASES)?;
    let stage = obj.name("stage", &STAGES)?;
    let window = obj.name("window", &WINDOWS)?;
    let outcome = obj.name("outcome", &OUTCOMES)?;
    let level = obj.int("level", 1, 10)? as u8;
    let actions_left = obj.int("actions_left", 0, 3)? as u8;
    let treasure_left = obj.int("treasure_left", 0, 2)? as u8;
    let flood_left = obj.int("flood_left", 0, 6)? as u8;
    let turn = obj.int("turn", 0, n as i64 - 1)? as u8;
    let pilot_flown = obj.bool("pilot_flown")?;
    let pending: Vec<u8> = obj
        .ints("pending", .., 0, n as i64 - 1)?
        .into_iter()
        .map(|s| s as u8)
        .collect();
    let mut captured = 0u8;
    for (t, v) in obj.list("captured", 4..=4)?.iter().enumerate() {
        match v.as_bool() {
            Some(b) => captured |= (b as u8) << t,
            None => return obj.fail(&format!("captured[{t}]"), "must be a bool"),
        }
    }
    let tiles_in = obj.ints("tiles", TILES..=TILES, -1, TILES as i64 - 1)?;
    let status_list = obj.list("status", TILES..=TILES)?;
    let mut status = [0u8; TILES];
    for (q, v) in status_list.iter().enumerate() {
        match STATUSES.iter().find(|(_, w)| Some(*w) == v.as_str()) {
            Some(&(code, _)) => status[q] = code,
            None => {
                return obj.fail(
                    &format!("status[{q}]"),
                    "must be one of \"none\", \"dry\", \"flooded\", \"sunk\"",
                )
            }
        }
    }
    let pile_in = counts(&obj, "treasure_pile", KINDS)?;
    let discard_in = counts(&obj, "treasure_discard", KINDS)?;
    let flood_discard = tile_set(&obj, "flood_discard", obj.get("flood_discard"))?;
    let layer_list = obj.list("flood_pile", ..)?;
    let mut layers_top_first = Vec::new();
    for (i, v) in layer_list.iter().enumerate() {
        let set = tile_set(&obj, &format!("flood_pile[{i}]"), v)?;
        if set == 0 {
            return err(format!("flood_pile[{i}] is an empty layer"));
        }
        layers_top_first.push(set);
    }
    let seat_list = obj.list("seats", n..=n)?;
    let mut seats = [Seat::default(); super::MAX_PLAYERS];
    let mut hands_in = vec![[0i64; HAND_KINDS]; n];
    for (q, v) in seat_list.iter().enumerate() {
        let so = obj.object_at(&format!("seats[{q}]"), v, &SEAT_KEYS)?;
        let hand = counts(&so, "hand", HAND_KINDS)?;
        let pawn = so.int("pawn", -1, TILES as i64 - 1)?;
        let role = so.int("role", -1, ROLES as i64 - 1)?;
        if (pawn == -1) != (role == -1) {
            return err(format!(
                "seats[{q}]: a pawn and a role are -1 exactly before the roles are dealt"
            ));
        }
        seats[q].pawn = if pawn < 0 { NONE } else { pawn as u8 };
        seats[q].role = if role < 0 { NONE } else { role as u8 };
        hands_in[q].copy_from_slice(&hand);
    }

    // Conservation.
    let mut state = ForbiddenIslandState::new(*rules);
    let mut tiles_seen = 0u32;
    for q in 0..TILES {
        let t = tiles_in[q];
        if (t == -1) != (status[q] == 0) {
            return err(format!(
                "status[{q}] must be \"none\" exactly when tiles[{q}] is -1"
            ));
        }
        if t >= 0 {
            if tiles_seen >> t & 1 == 1 {
                return err(format!("the tile {t} is placed twice"));
            }
            tiles_seen |= 1 << t;
            state.tiles[q] = t as u8;
            state.pos_of[t as usize] = q as u8;
            state.placed |= 1 << q;
            match status[q] {
                2 => state.flooded |= 1 << q,
                3 => state.sunk |= 1 << q,
                _ => {}
            }
        }
    }
    let mut roles_seen = 0u32;
    for q in 0..n {
        let r = seats[q].role;
        if r != NONE {
            if roles_seen >> r & 1 == 1 {
                return err(format!("the role {r} is dealt twice"));
            }
            roles_seen |= 1 << r;
        }
    }
    for k in 0..KINDS {
        let mut total = pile_in[k] as i128 + discard_in[k] as i128;
        if k < HAND_KINDS {
            total += hands_in.iter().map(|h| h[k] as i128).sum::<i128>();
        }
        if total != d.card_counts[k] as i128 {
            return err(format!(
                "the {} cards (pile, discard and hands) are {total}, not {}",
                d.card_keys[k], d.card_counts[k]
            ));
        }
        state.pile[k] = pile_in[k] as u8;
        state.discard[k] = discard_in[k] as u8;
    }
    for q in 0..n {
        for k in 0..HAND_KINDS {
            seats[q].hand[k] = hands_in[q][k] as u8;
        }
    }
    let mut cards_seen = flood_discard;
    for (i, &set) in layers_top_first.iter().enumerate() {
        if cards_seen & set != 0 {
            return err(format!(
                "flood_pile[{i}] holds a flood card that is in another place too"
            ));
        }
        cards_seen |= set;
    }
    let in_pile: u32 = layers_top_first.iter().fold(0, |a, &s| a | s);
    for t in 0..TILES as u8 {
        let q = state.pos_of[t as usize];
        let tb = bit(t);
        if q == NONE {
            if in_pile & tb == 0 {
                return err(format!(
                    "the flood card of the unplaced tile {t} is not in the flood pile"
                ));
            }
        } else if state.sunk & bit(q) != 0 {
            if cards_seen & tb != 0 {
                return err(format!(
                    "the flood card of the sunk tile {t} is still in play"
                ));
            }
        } else if cards_seen & tb == 0 {
            return err(format!("the flood card of the tile {t} is nowhere"));
        }
    }
    state.num_layers = layers_top_first.len() as u8;
    for (l, &set) in layers_top_first.iter().rev().enumerate() {
        state.layers[l] = set;
    }
    state.flood_discard = flood_discard;

    // Consistency.
    if (window != Window::None) != (phase == Phase::Window) {
        return err("window must be \"none\" exactly when the phase is not \"window\"");
    }
    if (outcome != Outcome::None) != (phase == Phase::Over) {
        return err("outcome must be \"none\" exactly when the phase is not \"over\"");
    }
    if phase != Phase::Window && !pending.is_empty() {
        return err("pending must be empty outside a window");
    }
    if pending.len() > n || (1..pending.len()).any(|i| pending[..i].contains(&pending[i])) {
        return err("pending names a seat twice");
    }
    state.seats = seats;
    state.captured = captured;
    state.level = level;
    state.outcome = outcome;
    state.turn = turn;
    state.stage = stage;
    state.actions_left = actions_left;
    state.pilot_flown = pilot_flown;
    state.treasure_left = treasure_left;
    state.flood_left = flood_left;
    state.phase = phase;
    state.window = window;
    state.pending_len = pending.len() as u8;
    state.pending[..pending.len()].copy_from_slice(&pending);

    let rescue = phase == Phase::Window && window == Window::Rescue;
    if state.stranded() != 0 && !(rescue || phase == Phase::Swim || phase == Phase::Over) {
        return err("a pawn stands on a sunk position outside the rescue window and the swims");
    }
    if matches!(
        phase,
        Phase::Window | Phase::Discard | Phase::Swim | Phase::Engineer
    ) && !state.has_decision_besides_pass()
    {
        return err(format!(
            "not settled: the acting seat has nothing to do in phase {}",
            phase_name(phase)
        ));
    }
    // §5.3: the actions phase is there only while an action is left; the last one ends the actions at once.
    if phase == Phase::Actions && actions_left == 0 {
        return err("not settled: phase actions with no action left");
    }
    Ok((state, history))
}
