//! Serialization (§15.4): the snapshot at the start of the current unit and the turn so far.
//!
//! `serialize` replays the history from the initial state to find the unit starts and the `seen` masks.
//! `deserialize` replays the given history (every action must be legal) and refuses the text unless it is
//! exactly what this engine writes for that history (see VITRUST_NOTES.md).

use super::data::*;
use super::notation::ACTION_KEYS;
use super::state::{VitState, MAXP, NONE, PHASE_NAMES};
use super::{Rules, ID};
use crate::error::invalid;
use crate::Result;
use serde_json::{json, Value};

pub const VERSION: i64 = 1;

fn bits9(b: u16) -> Vec<bool> {
    (0..9).map(|v| b & (1 << v) != 0).collect()
}

pub fn params_json(r: &Rules) -> Value {
    json!({
        "end_rule": if r.end_year_end { "year_end" } else { "reached" },
        "friendly_bonus": r.friendly,
        "harvest_expert": if r.harvest_both { "harvest_both" } else { "record" },
        "importer": if r.importer_draw { "draw" } else { "escrow" },
        "max_years": r.max_years,
        "parents_dealt": r.parents_dealt,
        "players": r.players,
        "promoter": if r.promoter_vp_only { "vp_only" } else { "vp_residual" },
        "queen": if r.queen { "on" } else { "off" },
        "target_vp": r.target_vp,
    })
}

pub fn snapshot(s: &VitState) -> Value {
    let n = s.n();
    let seats: Vec<Value> = (0..n)
        .map(|q| {
            let st = &s.seats[q];
            let mut mamas: Vec<u8> = st.dealt_mamas.iter().copied().filter(|&m| m != NONE).collect();
            mamas.sort_unstable();
            let mut papas: Vec<u8> = st.dealt_papas.iter().copied().filter(|&m| m != NONE).collect();
            papas.sort_unstable();
            json!({
                "vp": st.vp,
                "lira": st.lira,
                "residual": st.residual,
                "regular": st.regular,
                "trained": st.trained,
                "grande_placed": st.grande_placed,
                "regular_placed": st.regular_placed,
                "structures": (0..STRUCTURES).map(|i| st.has(i)).collect::<Vec<_>>(),
                "fields": st.fields.iter().map(|f| json!({
                    "owned": f.owned,
                    "vines": f.vines.to_vec(),
                    "harvested": f.harvested,
                    "over": f.over,
                })).collect::<Vec<_>>(),
                "crush": {"red": bits9(st.crush[0]), "white": bits9(st.crush[1])},
                "cellar": {
                    "red": bits9(st.cellar[0]),
                    "white": bits9(st.cellar[1]),
                    "blush": bits9(st.cellar[2]),
                    "sparkling": bits9(st.cellar[3]),
                },
                "hand": st.hand.to_vec(),
                "known": (0..n).map(|r| st.known[r].to_vec()).collect::<Vec<_>>(),
                "windmill_used": st.windmill_used,
                "tasting_used": st.tasting_used,
                // §15.7: which worker stands on the Yoke, −1 none.
                "yoke": if st.yoke_used { st.yoke_kind as i64 } else { -1 },
                "dealt": [mamas, papas],
                "mama": if st.mama == NONE { Value::Null } else { json!(st.mama) },
                "papa": if st.papa == NONE { Value::Null } else { json!(st.papa) },
                "gift_taken": match st.gift { 0 => Value::Null, 1 => json!(false), _ => json!(true) },
            })
        })
        .collect();
    let board: Vec<Value> = (0..12)
        .map(|a| {
            Value::Array(
                (0..s.board_len[a] as usize)
                    .map(|i| {
                        let e = s.board[a][i];
                        json!([e & 7, (e >> 3) & 3, (e >> 5) & 1])
                    })
                    .collect(),
            )
        })
        .collect();
    let planned: Vec<Value> = (0..s.planned_len as usize)
        .map(|i| {
            let [q, a, sp, k] = s.planned[i];
            json!([q, ACTION_KEYS[(a as usize).min(11)], sp, k])
        })
        .collect();
    json!({
        "phase": PHASE_NAMES[s.phase.index()],
        "year": s.year,
        "first": s.first,
        "turn_seat": s.turn_seat,
        "rows": s.rows[..n].to_vec(),
        "passed": s.passed[..n].to_vec(),
        "placements": s.placements[..n].to_vec(),
        "temp": s.temp,
        "decks": (0..4).map(|d| s.decks[d].to_vec()).collect::<Vec<_>>(),
        "discards": (0..4).map(|d| s.discards[d][..s.discard_len[d] as usize].to_vec()).collect::<Vec<_>>(),
        "board": board,
        // §15.7: regular workers, then the grande, on the lira cart.
        "cart": (0..n)
            .map(|q| {
                let g = s.seats[q].cart_grande as u8;
                vec![s.seats[q].cart - g, g]
            })
            .collect::<Vec<_>>(),
        "planned": planned,
        "end_flag": s.end_flag,
        "seats": seats,
    })
}

type Replayed = (Option<(VitState, usize)>, Vec<u8>, VitState);

struct Cache {
    rules: Rules,
    history: Vec<u32>,
    state: VitState,
    snap: Option<(VitState, usize)>,
    seen: Vec<u8>,
    chance: Vec<bool>,
}

thread_local! {
    static CACHE: std::cell::RefCell<Option<Cache>> = const { std::cell::RefCell::new(None) };
}

/// Replay `history` (resuming from the last replay of this thread when it is a prefix): the snapshot and its
/// index (None: setup), the seen masks, whether each entry was a chance outcome, and the replayed state.
pub(crate) fn replay_full(
    rules: Rules,
    history: &[u32],
) -> std::result::Result<(Replayed, Vec<bool>), String> {
    let cached = CACHE.with(|c| {
        let mut c = c.borrow_mut();
        match c.take() {
            Some(x)
                if x.rules == rules
                    && x.history.len() <= history.len()
                    && x.history[..] == history[..x.history.len()] =>
            {
                Some(x)
            }
            _ => None,
        }
    });
    let mut cache = cached.unwrap_or_else(|| Cache {
        rules,
        history: Vec::new(),
        state: VitState::new(rules),
        snap: None,
        seen: Vec::new(),
        chance: Vec::new(),
    });
    let mut buf = Vec::new();
    let start = cache.history.len();
    for (i, &a) in history.iter().enumerate().skip(start) {
        let r = &mut cache.state;
        if r.fresh_unit {
            cache.snap = Some((r.clone(), i));
        }
        r.legal(&mut buf);
        if r.current() == crate::TERMINAL || !buf.contains(&a) {
            return Err(format!("history action {i} ({a}) is not legal"));
        }
        cache.seen.push(r.visibility(a));
        cache.chance.push(r.current() == crate::CHANCE);
        r.apply(a);
        cache.history.push(a);
    }
    let r = &cache.state;
    let mut snap = cache.snap.clone();
    if r.fresh_unit {
        snap = Some((r.clone(), history.len()));
    }
    if r.phase == super::Phase::Setup {
        snap = None;
    }
    let out = ((snap, cache.seen.clone(), r.clone()), cache.chance.clone());
    CACHE.with(|c| *c.borrow_mut() = Some(cache));
    Ok(out)
}

fn replay(rules: Rules, history: &[u32]) -> std::result::Result<Replayed, String> {
    replay_full(rules, history).map(|x| x.0)
}

fn to_value(rules: Rules, history: &[u32]) -> std::result::Result<Value, String> {
    let (snap, seen, _) = replay(rules, history)?;
    let (state, turn) = match snap {
        None => (Value::Null, history.to_vec()),
        Some((s, i)) => (snapshot(&s), history[i..].to_vec()),
    };
    Ok(json!({
        "game": ID,
        "params": params_json(&rules),
        "version": VERSION,
        "history": history,
        "seen": seen,
        "state": state,
        "turn": turn,
    }))
}

pub fn serialize(s: &VitState, history: &[u32]) -> String {
    match to_value(s.rules, history) {
        Ok(v) => v.to_string(),
        // a history that does not lead here: the state alone, as a unit of its own
        Err(_) => json!({
            "game": ID,
            "params": params_json(&s.rules),
            "version": VERSION,
            "history": history,
            "seen": vec![0; history.len()],
            "state": snapshot(s),
            "turn": Vec::<u32>::new(),
        })
        .to_string(),
    }
}

fn err<T>(msg: impl std::fmt::Display) -> Result<T> {
    invalid(format!("viticulture state: {msg}"))
}

pub fn deserialize(rules: &Rules, text: &str) -> Result<(VitState, Vec<u32>)> {
    let v = match crate::json::parse(text) {
        Ok(v) => v,
        Err(e) => return err(format!("not JSON ({e})")),
    };
    let Some(obj) = v.as_object() else {
        return err("not a JSON object");
    };
    const KEYS: [&str; 7] = [
        "game", "history", "params", "seen", "state", "turn", "version",
    ];
    for k in obj.keys() {
        if !KEYS.contains(&k.as_str()) {
            return err(format!("unknown key {k:?}"));
        }
    }
    for k in KEYS {
        if !obj.contains_key(k) {
            return err(format!("missing key {k:?}"));
        }
    }
    if obj["game"].as_str() != Some(ID) {
        return err("game must be \"viticulture\"");
    }
    if obj["version"].as_i64() != Some(VERSION)
        || !obj["version"].is_i64() && !obj["version"].is_u64()
    {
        return err("version must be 1");
    }
    if obj["params"] != params_json(rules) {
        return err("params differ from the game's");
    }
    let Some(hist) = obj["history"].as_array() else {
        return err("history must be a list");
    };
    if hist.len() as u64 > rules.max_game_length() {
        return err("history longer than max_game_length");
    }
    let mut history = Vec::with_capacity(hist.len());
    for (i, a) in hist.iter().enumerate() {
        match a.as_u64() {
            Some(x) if x < 946 => history.push(x as u32),
            _ => return err(format!("history[{i}] is not an action id")),
        }
    }
    let (_, _, state) = match replay(*rules, &history) {
        Ok(x) => x,
        Err(e) => return err(e),
    };
    let expect = match to_value(*rules, &history) {
        Ok(x) => x,
        Err(e) => return err(e),
    };
    for k in ["seen", "turn", "state"] {
        if obj[k] != expect[k] {
            let what = if k == "state" {
                first_difference(&obj[k], &expect[k], "state")
            } else {
                k.to_string()
            };
            return err(format!("{what} is not what the history gives"));
        }
    }
    let _ = MAXP;
    Ok((state, history))
}

fn first_difference(a: &Value, b: &Value, path: &str) -> String {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, vb) in y {
                match x.get(k) {
                    None => return format!("{path}.{k} (missing)"),
                    Some(va) if va != vb => {
                        return first_difference(va, vb, &format!("{path}.{k}"))
                    }
                    _ => {}
                }
            }
            for k in x.keys() {
                if !y.contains_key(k) {
                    return format!("{path}.{k} (extra)");
                }
            }
            path.to_string()
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (va, vb)) in x.iter().zip(y).enumerate() {
                if va != vb {
                    return first_difference(va, vb, &format!("{path}[{i}]"));
                }
            }
            path.to_string()
        }
        _ => path.to_string(),
    }
}
