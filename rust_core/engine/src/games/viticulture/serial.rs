//! Serialization (§15.4): the snapshot at the start of the current unit and the turn so far.
//!
//! `serialize` replays the history from the initial state to find the unit starts and the `seen` masks.
//! `deserialize` replays the given history (every action must be legal) and refuses the text unless it is
//! exactly what this engine writes for that history (see VITRUST_NOTES.md).

use super::data::*;
use super::notation::ACTION_KEYS;
use super::notation::NUM_ACTIONS;
use super::state::{Phase, Task, VitState, HAND_LIMIT, MAXP, NONE, PHASE_NAMES, SEASON_CAP, STACK};
use super::{Rules, ID};
use crate::error::invalid;
use crate::json::Fields;
use crate::Result;
use serde_json::{json, Value};
use std::sync::Arc;

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

/// The snapshot a state was read from when its history does not replay from the initial state (a position
/// set up by hand, §15.7): the state at that unit start, where in the history it starts, the `seen` masks of
/// the history before it, and the snapshot's text as read (written back as it is). `chance` says which entries
/// before it were chance outcomes when that is known (a resampled state, §10); a text read says nothing, and
/// its hidden entries below `A_CARD` are then taken for draws.
#[derive(Debug, PartialEq, Eq)]
pub struct Base {
    pub start: VitState,
    pub at: usize,
    pub seen: Vec<u8>,
    pub value: Value,
    pub chance: Option<Vec<bool>>,
}

type Replayed = (Option<(VitState, usize)>, Vec<u8>, VitState);

struct Cache {
    rules: Rules,
    base: Option<Arc<Base>>,
    history: Vec<u32>,
    state: VitState,
    snap: Option<(VitState, usize)>,
    seen: Vec<u8>,
    chance: Vec<bool>,
}

thread_local! {
    static CACHE: std::cell::RefCell<Option<Cache>> = const { std::cell::RefCell::new(None) };
}

fn same_base(a: &Option<Arc<Base>>, b: &Option<Arc<Base>>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(x), Some(y)) => Arc::ptr_eq(x, y),
        _ => false,
    }
}

/// Replay `history` from the initial state, or from `s`'s base snapshot when it has one (resuming from the
/// last replay of this thread when it is a prefix): the snapshot and its index (None: setup), the seen
/// masks, whether each entry was a chance outcome, and the replayed state.
pub(crate) fn replay_full(
    s: &VitState,
    history: &[u32],
) -> std::result::Result<(Replayed, Vec<bool>), String> {
    let rules = s.rules;
    let base = s.base.clone();
    let cached = CACHE.with(|c| {
        let mut c = c.borrow_mut();
        match c.take() {
            Some(x)
                if x.rules == rules
                    && same_base(&x.base, &base)
                    && x.history.len() <= history.len()
                    && x.history[..] == history[..x.history.len()] =>
            {
                Some(x)
            }
            _ => None,
        }
    });
    let mut cache = match cached {
        Some(c) => c,
        None => match &base {
            None => Cache {
                rules,
                base: None,
                history: Vec::new(),
                state: VitState::new(rules),
                snap: None,
                seen: Vec::new(),
                chance: Vec::new(),
            },
            Some(b) => {
                if history.len() < b.at {
                    return Err("history shorter than the snapshot's".into());
                }
                // Before the snapshot: a hidden entry below A_CARD is a draw (a chance outcome); the others
                // cannot be told apart and are read as decisions.
                let chance = match &b.chance {
                    Some(known) => known.clone(),
                    None => (0..b.at)
                        .map(|i| b.seen[i] != 0 && history[i] < super::notation::A_CARD)
                        .collect(),
                };
                Cache {
                    rules,
                    base: base.clone(),
                    history: history[..b.at].to_vec(),
                    state: b.start.clone(),
                    // the base is a unit start even where it is not at a node (the reservations' unit)
                    snap: Some((b.start.clone(), b.at)),
                    seen: b.seen.clone(),
                    chance,
                }
            }
        },
    };
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
        r.halt_at_reservations = true;
        r.apply(a);
        if r.halted {
            // The winter reservations' unit: its snapshot is the state before any of them resolves.
            r.halted = false;
            r.halt_at_reservations = false;
            cache.snap = Some((r.clone(), i + 1));
            r.fresh_unit = false;
            r.advance();
        }
        r.halt_at_reservations = false;
        cache.history.push(a);
    }
    let r = &cache.state;
    let mut snap = cache.snap.clone();
    if r.fresh_unit {
        snap = Some((r.clone(), history.len()));
    }
    if r.phase == Phase::Setup {
        snap = None;
    }
    let out = ((snap, cache.seen.clone(), r.clone()), cache.chance.clone());
    CACHE.with(|c| *c.borrow_mut() = Some(cache));
    Ok(out)
}

fn to_value(s: &VitState, history: &[u32]) -> std::result::Result<Value, String> {
    let ((snap, seen, _), _) = replay_full(s, history)?;
    let (state, turn) = match snap {
        None => (Value::Null, history.to_vec()),
        Some((x, i)) => match &s.base {
            Some(b) if i == b.at => (b.value.clone(), history[i..].to_vec()),
            _ => (snapshot(&x), history[i..].to_vec()),
        },
    };
    Ok(json!({
        "game": ID,
        "params": params_json(&s.rules),
        "version": VERSION,
        "history": history,
        "seen": seen,
        "state": state,
        "turn": turn,
    }))
}

pub fn serialize(s: &VitState, history: &[u32]) -> String {
    match to_value(s, history) {
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

/// Redeals tried by [`resample_with_history`] before it gives the state itself (§10).
pub const RESAMPLE_TRIES: usize = 32;

/// §10: a state consistent with what `p` knows, with the history that leads to it. Each try redeals the live
/// table ([`super::observation::resample`]), rewrites the unit's hidden draws backwards so that the unit start
/// holds what the redeal implies ([`rewind`]), and reads that snapshot and turn back; the first try that
/// reads back to the redealt hands and decks, at the same node and with the same observation for `p`, is the
/// answer. After [`RESAMPLE_TRIES`] tries, the state itself. A history that does not lead to the state gives
/// the first redeal with the history unchanged (it cannot be written as a unit anyway).
pub fn resample_with_history(
    s: &VitState,
    p: usize,
    history: &[u32],
    rng: &mut crate::Rng,
) -> (VitState, Vec<u32>) {
    let replayed = match replay_full(s, history) {
        Ok(((snap, seen, _), chance)) => (snap, seen, chance),
        Err(_) => return (super::observation::resample(s, p, rng), history.to_vec()),
    };
    if p >= s.n() {
        return (s.clone(), history.to_vec());
    }
    let mut want = vec![0f32; super::OBS_LEN];
    super::observation::tensor(s, p, &mut want);
    let mut got = vec![0f32; super::OBS_LEN];
    for _ in 0..RESAMPLE_TRIES {
        let table = super::observation::resample(s, p, rng);
        if let Some((x, h)) = rewind(s, p, history, &replayed, &table) {
            super::observation::tensor(&x, p, &mut got);
            if x.current() == s.current()
                && (0..s.n()).all(|q| x.seats[q].hand == table.seats[q].hand)
                && x.decks == table.decks
                && got == want
            {
                return (x, h);
            }
        }
    }
    (s.clone(), history.to_vec())
}

/// §10: the unit rewritten to reach `table`'s hands, read back from its text (None if refused). `delta[q][k]`
/// is how many more k the redealt hand of q holds than the true one. Walking the turn backwards, a draw of k
/// hidden from p by q with `delta[q][k] < 0` becomes a draw of the lowest kind k' of the same deck with
/// `delta[q][k'] > 0`; other ids are kept. The unit start gets hands + delta, decks − the deltas, and every
/// `known` count capped by the holder's new hand; during the setup the deltas must come back to zero.
fn rewind(
    s: &VitState,
    p: usize,
    history: &[u32],
    (snap, seen, chance): &(Option<(VitState, usize)>, Vec<u8>, Vec<bool>),
    table: &VitState,
) -> Option<(VitState, Vec<u32>)> {
    let n = s.n();
    let mut delta = [[0i32; KINDS]; MAXP];
    for q in 0..n {
        for k in 0..KINDS {
            delta[q][k] = table.seats[q].hand[k] as i32 - s.seats[q].hand[k] as i32;
        }
    }
    let at = snap.as_ref().map_or(0, |(_, i)| *i);
    let mut turn = history[at..].to_vec();
    for i in (0..turn.len()).rev() {
        let (a, m) = (turn[i], seen[at + i]);
        if m == 0 || (m >> p) & 1 == 1 || a >= super::notation::A_CARD {
            continue;
        }
        let q = 7 - m.leading_zeros() as usize;
        let k = a as usize;
        if q < n && delta[q][k] < 0 {
            let other = kinds_of(deck_of(k)).find(|&j| delta[q][j] > 0)?;
            turn[i] = other as u32;
            delta[q][k] += 1;
            delta[q][other] -= 1;
        }
    }
    let state = match snap {
        None => {
            if delta.iter().any(|row| row.iter().any(|&d| d != 0)) {
                return None;
            }
            Value::Null
        }
        Some((x, _)) => {
            let mut start = x.clone();
            let mut decks = [[0i32; KINDS]; 4];
            for (d, deck) in decks.iter_mut().enumerate() {
                for k in kinds_of(d) {
                    deck[k] = start.decks[d][k] as i32;
                }
            }
            for q in 0..n {
                for k in 0..KINDS {
                    let hand = start.seats[q].hand[k] as i32 + delta[q][k];
                    if !(0..=255).contains(&hand) {
                        return None;
                    }
                    start.seats[q].hand[k] = hand as u8;
                    decks[deck_of(k)][k] -= delta[q][k];
                }
            }
            for (d, deck) in decks.iter().enumerate() {
                for k in kinds_of(d) {
                    if !(0..=255).contains(&deck[k]) {
                        return None;
                    }
                    start.decks[d][k] = deck[k] as u8;
                }
            }
            for r in 0..n {
                for q in 0..n {
                    for k in 0..KINDS {
                        let cap = start.seats[q].hand[k];
                        let known = &mut start.seats[r].known[q][k];
                        *known = (*known).min(cap);
                    }
                }
            }
            snapshot(&start)
        }
    };
    let mut rewritten = history[..at].to_vec();
    rewritten.extend_from_slice(&turn);
    let text = json!({
        "game": ID,
        "params": params_json(&s.rules),
        "version": VERSION,
        "history": rewritten,
        "seen": seen,
        "state": state,
        "turn": turn,
    })
    .to_string();
    deserialize_with(&s.rules, &text, Some(chance[..at].to_vec())).ok()
}

const PREFIX: &str = "viticulture state: ";

fn err<T>(msg: impl std::fmt::Display) -> Result<T> {
    invalid(format!("{PREFIX}{msg}"))
}

pub fn deserialize(rules: &Rules, text: &str) -> Result<(VitState, Vec<u32>)> {
    deserialize_with(rules, text, None)
}

/// [`deserialize`]; `chance` (which entries before the snapshot are chance outcomes) skips the first attempt
/// (replaying the whole history from the initial state), for a text whose snapshot is known not to be the
/// one that history leads to, and is kept in the state's [`Base`].
fn deserialize_with(
    rules: &Rules,
    text: &str,
    chance: Option<Vec<bool>>,
) -> Result<(VitState, Vec<u32>)> {
    let v = match crate::json::parse(text) {
        Ok(v) => v,
        Err(e) => return err(format!("not JSON ({e})")),
    };
    let top = Fields::new(
        &v,
        PREFIX,
        "",
        &[
            "game", "history", "params", "seen", "state", "turn", "version",
        ],
    )?;
    top.envelope(ID, VERSION, &params_json(rules))?;
    let max = rules.max_game_length() as usize;
    let history: Vec<u32> = top
        .ints("history", 0..=max, 0, NUM_ACTIONS as i64 - 1)?
        .into_iter()
        .map(|x| x as u32)
        .collect();
    let seen_list = top.list("seen", ..)?;
    if seen_list.len() != history.len() {
        return top.fail("seen", "must be as long as history");
    }
    let seen: Vec<u8> = top
        .ints("seen", .., 0, (1 << MAXP) - 1)?
        .into_iter()
        .map(|x| x as u8)
        .collect();
    let turn: Vec<u32> = top
        .ints("turn", 0..=history.len(), 0, NUM_ACTIONS as i64 - 1)?
        .into_iter()
        .map(|x| x as u32)
        .collect();
    let at = history.len() - turn.len();
    if history[at..] != turn[..] {
        return top.fail("turn", "must be a suffix of history");
    }
    let given = top.get("state");
    // The text of a game played from the start: replay it and accept exactly what this engine writes.
    let plain = VitState::new(*rules);
    if chance.is_some() && !given.is_null() {
        // the caller knows the history does not lead to this snapshot
    } else if let Ok(((_, _, state), _)) = replay_full(&plain, &history) {
        if let Ok(expect) = to_value(&plain, &history) {
            if expect["seen"] == *top.get("seen")
                && expect["turn"] == *top.get("turn")
                && expect["state"] == *given
            {
                return Ok((state, history));
            }
        }
    }
    if given.is_null() {
        // the setup replays from the initial state (§15.4)
        if at != 0 {
            return top.fail(
                "turn",
                "must be the whole history while the snapshot is null",
            );
        }
        if let Err(e) = replay_full(&plain, &history) {
            return err(e);
        }
        return err("a null snapshot is only for the setup; the history leaves it");
    }
    let mut state = read_snapshot(rules, &top)?;
    if state.phase == Phase::Over && !turn.is_empty() {
        return top.fail("turn", "must be empty at the end of the game");
    }
    let base = Arc::new(Base {
        start: state.clone(),
        at,
        seen: seen[..at].to_vec(),
        value: given.clone(),
        // which entries before the snapshot were chance outcomes: given, or found by replaying them from the
        // initial state when they replay (as the oracle does), else guessed by `replay_full`
        chance: chance.filter(|c| c.len() == at).or_else(|| {
            replay_full(&plain, &history[..at])
                .ok()
                .map(|(_, chance)| chance)
        }),
    });
    state.base = Some(base.clone());
    let mut buf = Vec::new();
    for (i, &a) in turn.iter().enumerate() {
        if i > 0 && state.fresh_unit {
            return top.fail(
                &format!("turn[{i}]"),
                "starts a new unit (the snapshot must be taken there)",
            );
        }
        state.legal(&mut buf);
        if state.current() == crate::TERMINAL || !buf.contains(&a) {
            return top.fail(&format!("turn[{i}]"), format!("({a}) is not legal"));
        }
        if state.visibility(a) != seen[at + i] {
            return top.fail(
                &format!("seen[{}]", at + i),
                "is not the visibility of that action",
            );
        }
        state.apply(a);
    }
    if !turn.is_empty() && state.fresh_unit {
        return top.fail(
            "turn",
            "ends at the start of a unit (the snapshot must be taken there)",
        );
    }
    Ok((state, history))
}

const SEAT_KEYS: [&str; 20] = [
    "cellar",
    "crush",
    "dealt",
    "fields",
    "gift_taken",
    "grande_placed",
    "hand",
    "known",
    "lira",
    "mama",
    "papa",
    "regular",
    "regular_placed",
    "residual",
    "structures",
    "tasting_used",
    "trained",
    "vp",
    "windmill_used",
    "yoke",
];

fn bools9(f: &Fields, key: &str) -> Result<u16> {
    let list = f.list(key, 9..=9)?;
    let mut b = 0u16;
    for (i, x) in list.iter().enumerate() {
        match x.as_bool() {
            Some(true) => b |= 1 << i,
            Some(false) => {}
            None => return f.fail(&format!("{key}[{i}]"), "must be a bool"),
        }
    }
    Ok(b)
}

fn counts121(f: &Fields, sub: &str, v: &Value) -> Result<[u8; KINDS]> {
    let list = f.list_at(sub, v, KINDS..=KINDS)?;
    let mut out = [0u8; KINDS];
    for (k, x) in list.iter().enumerate() {
        out[k] = f.int_at(&format!("{sub}[{k}]"), x, 0, data().copies(k) as i64)? as u8;
    }
    Ok(out)
}

/// The §15.4 snapshot (with §15.7's changes) as a state at the start of its unit, every check of §15.4's
/// last bullet made.
fn read_snapshot(rules: &Rules, top: &Fields) -> Result<VitState> {
    let d = data();
    let n = rules.players as usize;
    let ni = n as i64;
    let f = top.object(
        "state",
        &[
            "board",
            "cart",
            "decks",
            "discards",
            "end_flag",
            "first",
            "passed",
            "phase",
            "placements",
            "planned",
            "rows",
            "seats",
            "temp",
            "turn_seat",
            "year",
        ],
    )?;
    let mut s = VitState::new(*rules);
    let totals: Vec<u32> = (0..KINDS)
        .map(|k| (0..4).map(|dk| s.decks[dk][k] as u32).sum())
        .collect();
    s.stack = [Task::First; STACK];
    s.sp = 0;
    s.phase = match f.str("phase")? {
        "setup" => return f.fail("phase", "is setup: the snapshot must be null"),
        "spring" => Phase::Spring,
        "summer" => Phase::Summer,
        "fall" => Phase::Fall,
        "winter" => Phase::Winter,
        "year_end" => Phase::YearEnd,
        "over" => Phase::Over,
        _ => {
            return f.fail(
                "phase",
                format!("must be one of {}", PHASE_NAMES.join(", ")),
            )
        }
    };
    s.year = f.int("year", 1, rules.max_years as i64)? as u16;
    s.first = f.int("first", 0, ni - 1)? as u8;
    s.turn_seat = f.int("turn_seat", -1, ni - 1)? as i8;
    let rows = f.ints("rows", n..=n, 0, 7)?;
    for q in 0..n {
        s.rows[q] = rows[q] as u8;
        if rows[q] != 0 && rows[..q].contains(&rows[q]) {
            return f.fail(&format!("rows[{q}]"), "is another seat's row");
        }
    }
    let passed = f.list("passed", n..=n)?;
    for (q, x) in passed.iter().enumerate() {
        s.passed[q] = match x.as_bool() {
            Some(b) => b,
            None => return f.fail(&format!("passed[{q}]"), "must be a bool"),
        };
    }
    let placements = f.ints("placements", n..=n, 0, SEASON_CAP as i64)?;
    for q in 0..n {
        s.placements[q] = placements[q] as u8;
    }
    s.temp = f.int("temp", -1, ni - 1)? as i8;
    let on7 = (0..n).find(|&q| s.rows[q] == 7).map_or(-1, |q| q as i8);
    if on7 >= 0 && s.temp < 0 {
        return f.fail(
            "temp",
            "must be a seat when a seat is on row 7 (whoever holds the temporary worker)",
        );
    }
    // cards
    let mut count = vec![0u32; KINDS];
    let decks = f.list("decks", 4..=4)?;
    for (dk, v) in decks.iter().enumerate() {
        let c = counts121(&f, &format!("decks[{dk}]"), v)?;
        for k in 0..KINDS {
            if c[k] > 0 && deck_of(k) != dk {
                return f.fail(&format!("decks[{dk}][{k}]"), "is a card of another deck");
            }
            count[k] += c[k] as u32;
        }
        s.decks[dk] = c;
    }
    let discards = f.list("discards", 4..=4)?;
    for (dk, v) in discards.iter().enumerate() {
        let sub = format!("discards[{dk}]");
        let list = f.list_at(&sub, v, 0..=42)?;
        for (i, x) in list.iter().enumerate() {
            let k = f.int_at(&format!("{sub}[{i}]"), x, 0, KINDS as i64 - 1)? as usize;
            if deck_of(k) != dk {
                return f.fail(&format!("{sub}[{i}]"), "is a card of another deck");
            }
            s.discards[dk][i] = k as u8;
            count[k] += 1;
        }
        s.discard_len[dk] = list.len() as u8;
    }
    // the board
    let board = f.list("board", 12..=12)?;
    for (a, v) in board.iter().enumerate() {
        let sub = format!("board[{a}]");
        let list = f.list_at(&sub, v, 0..=12)?;
        for (i, x) in list.iter().enumerate() {
            let sub = format!("{sub}[{i}]");
            let e = f.list_at(&sub, x, 3..=3)?;
            let q = f.int_at(&format!("{sub}[0]"), &e[0], 0, ni - 1)? as u8;
            let space = f.int_at(&format!("{sub}[1]"), &e[1], 0, 2)? as u8;
            let kind = f.int_at(&format!("{sub}[2]"), &e[2], 0, 1)? as u8;
            s.board[a][i] = q | (space << 3) | (kind << 5);
        }
        s.board_len[a] = list.len() as u8;
    }
    let cart = f.list("cart", n..=n)?;
    let mut carts = [[0u8; 2]; MAXP];
    for (q, x) in cart.iter().enumerate() {
        let sub = format!("cart[{q}]");
        let e = f.list_at(&sub, x, 2..=2)?;
        carts[q][0] = f.int_at(&format!("{sub}[0]"), &e[0], 0, 6)? as u8;
        carts[q][1] = f.int_at(&format!("{sub}[1]"), &e[1], 0, 1)? as u8;
    }
    let planned = f.list("planned", 0..=12)?;
    for (i, x) in planned.iter().enumerate() {
        let sub = format!("planned[{i}]");
        let e = f.list_at(&sub, x, 4..=4)?;
        let q = f.int_at(&format!("{sub}[0]"), &e[0], 0, ni - 1)? as u8;
        let Some(a) = e[1]
            .as_str()
            .and_then(|k| ACTION_KEYS.iter().position(|x| *x == k))
            .filter(|&a| a >= 6)
        else {
            return f.fail(&format!("{sub}[1]"), "must be a winter action key");
        };
        let space = f.int_at(&format!("{sub}[2]"), &e[2], 0, 2)? as u8;
        let kind = f.int_at(&format!("{sub}[3]"), &e[3], 0, 1)? as u8;
        s.planned[i] = [q, a as u8, space, kind];
        // the reserved worker stands on its action, marked as planned
        let entry = q | (space << 3) | (kind << 5);
        match (0..s.board_len[a] as usize).find(|&j| s.board[a][j] == entry) {
            Some(j) => s.board[a][j] |= 1 << 6,
            None => return f.fail(&sub, "has no worker on the board"),
        }
    }
    s.planned_len = planned.len() as u8;
    s.end_flag = f.bool("end_flag")?;
    if s.end_flag && !rules.end_reached() {
        return f.fail("end_flag", "is only set under end_rule = reached");
    }
    // seats
    let seats = f.list("seats", n..=n)?;
    let mut mama_seen = 0u32;
    let mut papa_seen = 0u32;
    for (q, x) in seats.iter().enumerate() {
        let g = f.object_at(&format!("seats[{q}]"), x, &SEAT_KEYS)?;
        let st = &mut s.seats[q];
        st.vp = g.int("vp", -5, 10_000)? as i32;
        st.lira = g.int("lira", 0, 100_000)? as i32;
        st.residual = g.int("residual", 0, 5)? as i32;
        st.regular = g.int("regular", 2, 5)? as u8;
        st.trained = g.int("trained", 0, 5 - st.regular as i64)? as u8;
        st.grande_placed = g.bool("grande_placed")?;
        let own = st.regular as i64 + (s.temp == q as i8) as i64;
        st.regular_placed = g.int("regular_placed", 0, own)? as u8;
        let structs = g.list("structures", STRUCTURES..=STRUCTURES)?;
        st.structures = 0;
        for (i, b) in structs.iter().enumerate() {
            match b.as_bool() {
                Some(true) => st.structures |= 1 << i,
                Some(false) => {}
                None => return g.fail(&format!("structures[{i}]"), "must be a bool"),
            }
        }
        if st.has(LARGE) && !st.has(MEDIUM) {
            return g.fail("structures", "have the large cellar without the medium");
        }
        let fields = g.list("fields", 3..=3)?;
        for (i, fv) in fields.iter().enumerate() {
            let h = g.object_at(
                &format!("fields[{i}]"),
                fv,
                &["harvested", "over", "owned", "vines"],
            )?;
            let fl = &mut st.fields[i];
            fl.owned = h.bool("owned")?;
            fl.harvested = h.bool("harvested")?;
            fl.over = h.bool("over")?;
            let vines = h.ints("vines", VINES..=VINES, 0, 9)?;
            for v in 0..VINES {
                fl.vines[v] = vines[v] as u8;
                count[v] += vines[v] as u32;
            }
            if !fl.owned && fl.count() > 0 {
                return h.fail("vines", "are planted on a field not owned");
            }
            if fl.total() > d.fields[i] as u32 && !fl.over {
                return h.fail("over", "must be true: the vines are over the field's value");
            }
        }
        let crush = g.object("crush", &["red", "white"])?;
        st.crush = [bools9(&crush, "red")?, bools9(&crush, "white")?];
        let cellar = g.object("cellar", &["blush", "red", "sparkling", "white"])?;
        st.cellar = [
            bools9(&cellar, "red")?,
            bools9(&cellar, "white")?,
            bools9(&cellar, "blush")?,
            bools9(&cellar, "sparkling")?,
        ];
        st.hand = counts121(&g, "hand", g.get("hand"))?;
        for k in 0..KINDS {
            count[k] += st.hand[k] as u32;
        }
        let known = g.list("known", n..=n)?;
        for (r, kv) in known.iter().enumerate() {
            st.known[r] = counts121(&g, &format!("known[{r}]"), kv)?;
            if r == q && st.known[r].iter().any(|&c| c != 0) {
                return g.fail(
                    &format!("known[{r}]"),
                    "must be all zero (the seat's own entry)",
                );
            }
        }
        st.windmill_used = g.bool("windmill_used")?;
        st.tasting_used = g.bool("tasting_used")?;
        let yoke = g.int("yoke", -1, 1)?;
        st.yoke_used = yoke >= 0;
        st.yoke_kind = yoke.max(0) as u8;
        if st.yoke_used && !st.has(YOKE) {
            return g.fail("yoke", "holds a worker without the Yoke built");
        }
        st.cart = carts[q][0] + carts[q][1];
        st.cart_grande = carts[q][1] == 1;
        let dealt = g.list("dealt", 2..=2)?;
        let pd = rules.parents_dealt as usize;
        let mut lists = [[NONE; 2]; 2];
        for (j, lv) in dealt.iter().enumerate() {
            let sub = format!("dealt[{j}]");
            let hi = if j == 0 { MAMAS } else { PAPAS } as i64 - 1;
            let list = g.list_at(&sub, lv, pd..=pd)?;
            for (i, x) in list.iter().enumerate() {
                let m = g.int_at(&format!("{sub}[{i}]"), x, 0, hi)? as u8;
                if i > 0 && m <= lists[j][i - 1] {
                    return g.fail(&sub, "must be ascending, without repeats");
                }
                let seen = if j == 0 {
                    &mut mama_seen
                } else {
                    &mut papa_seen
                };
                if *seen & (1 << m) != 0 {
                    return g.fail(&format!("{sub}[{i}]"), "is dealt to another seat too");
                }
                *seen |= 1 << m;
                lists[j][i] = m;
            }
        }
        st.dealt_mamas = lists[0];
        st.dealt_papas = lists[1];
        for (key, j) in [("mama", 0usize), ("papa", 1)] {
            let m = match g.get(key) {
                Value::Null => NONE,
                v => g.int_at(key, v, 0, 17)? as u8,
            };
            if m != NONE && !lists[j].contains(&m) {
                return g.fail(key, "is not one of the dealt cards");
            }
            if j == 0 {
                st.mama = m;
            } else {
                st.papa = m;
            }
        }
        if st.mama == NONE || st.papa == NONE {
            return g.fail("mama", "and papa must be kept after the setup");
        }
        st.gift = match g.get("gift_taken") {
            Value::Bool(false) => 1,
            Value::Bool(true) => 2,
            _ => return g.fail("gift_taken", "must be a bool after the setup"),
        };
    }
    s.mama_dealt = mama_seen;
    s.papa_dealt = papa_seen;
    for k in 0..KINDS {
        if count[k] != totals[k] {
            return err(format!(
                "the cards of kind {k} add up to {} (decks, discards, hands, fields), not {}",
                count[k], totals[k]
            ));
        }
    }
    for p in 0..n {
        for q in 0..n {
            for k in 0..KINDS {
                if s.seats[p].known[q][k] > s.seats[q].hand[k] {
                    return f.fail(
                        &format!("seats[{p}].known[{q}][{k}]"),
                        "is above that seat's hand",
                    );
                }
            }
        }
    }
    // workers placed: the ones standing on the board (reservations included), in the cart or on the Yoke
    for q in 0..n {
        let seat = &s.seats[q];
        let mut on = [
            (seat.cart - seat.cart_grande as u8) as u32,
            seat.cart_grande as u32,
        ];
        if seat.yoke_used {
            on[seat.yoke_kind as usize & 1] += 1;
        }
        for a in 0..12 {
            for &e in &s.board[a][..s.board_len[a] as usize] {
                if (e & 7) as usize == q {
                    on[(e >> 5) as usize & 1] += 1;
                }
            }
        }
        if on[1] != seat.grande_placed as u32 {
            return f.fail(
                &format!("seats[{q}].grande_placed"),
                "does not match the board, cart and Yoke",
            );
        }
        if on[0] != seat.regular_placed as u32 {
            return f.fail(
                &format!("seats[{q}].regular_placed"),
                "does not match the board, cart and Yoke",
            );
        }
    }
    // the node of the unit
    let q = s.turn_seat;
    let need_seat = |s: &VitState| -> Result<usize> {
        if q < 0 {
            return f.fail("turn_seat", "must be a seat in this phase");
        }
        let _ = s;
        Ok(q as usize)
    };
    let pos_in_wake = |s: &VitState, q: usize| -> usize {
        let (w, len) = s.wake_order();
        w[..len].iter().position(|&x| x as usize == q).unwrap_or(0)
    };
    let mut check = true;
    match s.phase {
        Phase::Spring => {
            let q = need_seat(&s)?;
            if s.rows[q] != 0 {
                return f.fail("turn_seat", "has already chosen its row");
            }
            s.stage = 0;
            s.idx = ((q + n - s.first as usize) % n + 1) as u8;
            s.push_task(Task::Wake(q as u8));
        }
        Phase::Summer | Phase::Winter => {
            if q < 0 && s.phase == Phase::Winter && s.planned_len > 0 {
                s.stage = 0;
                s.idx = 0;
                s.fresh_unit = false;
                check = false;
                // the reservations' unit: compare before they resolve
                if snapshot(&s) != *top.get("state") {
                    let what = first_difference(top.get("state"), &snapshot(&s), "state");
                    return err(format!(
                        "{what} is not consistent with the rest of the snapshot"
                    ));
                }
                s.advance();
                // Reservations that resolve by themselves into the next unit (no one asked, as when a seat's
                // hand cannot pay for its planned visit) mean that the snapshot is not the latest unit start:
                // play takes its snapshot there. The oracle refuses the same text.
                if s.fresh_unit {
                    return err("the snapshot is not at a unit start (its reservations resolve by themselves)");
                }
            } else {
                let q = need_seat(&s)?;
                if s.passed[q] {
                    return f.fail("turn_seat", "has passed");
                }
                s.stage = 2;
                s.idx = 0;
                s.push_task(Task::Turn(q as u8));
            }
        }
        Phase::Fall => {
            let q = need_seat(&s)?;
            s.idx = (pos_in_wake(&s, q) + 1) as u8;
            s.push_task(Task::FallChoice {
                seat: q as u8,
                first: NONE,
            });
        }
        Phase::YearEnd => {
            let q = need_seat(&s)?;
            if s.seats[q].hand_size() <= HAND_LIMIT {
                return f.fail("turn_seat", "has no more than 7 cards at year end");
            }
            s.stage = 1;
            s.idx = (pos_in_wake(&s, q) + 1) as u8;
            s.push_task(Task::HandLimit(q as u8));
        }
        Phase::Over => {
            if q >= 0 {
                return f.fail("turn_seat", "must be -1 at the end of the game");
            }
        }
        Phase::Setup => unreachable!(),
    }
    // A live state inside the reservations' unit is at a node that is not the unit's start (advance has set
    // the flag if the reservations ran through to the next unit).
    if check {
        s.fresh_unit = true;
    }
    if check && snapshot(&s) != *top.get("state") {
        let expect = snapshot(&s);
        let what = first_difference(top.get("state"), &expect, "state");
        return err(format!(
            "{what} is not consistent with the rest of the snapshot"
        ));
    }
    Ok(s)
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
