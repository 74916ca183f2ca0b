//! Canonical JSON of a whole state and its strict reader (docs/rules/flip_city.md §7).

use super::cards::{APARTMENT, FACES, NUM_FACES, RESIDENTIAL_AREA};
use super::notation::NUM_ACTIONS;
use super::state::{FlipCityState, Pending, Phase, Seat, KNOWN_CAPACITY};
use super::{Rules, ID, MAX_PLAYERS};
use crate::error::{invalid, Result};
use crate::params::{params_to_json, Params};
use serde_json::{json, Map, Value};

const VERSION: i64 = 1;
const MAX_COUNTER: u64 = 10_000;

const PHASES: [(Phase, &str); 3] = [
    (Phase::Play, "play"),
    (Phase::Build, "build"),
    (Phase::Over, "over"),
];
const PENDINGS: [(Pending, &str); 6] = [
    (Pending::None, "none"),
    (Pending::Shuffle, "shuffle"),
    (Pending::GiveApartment, "give_apartment"),
    (Pending::GiveResidential, "give_residential"),
    (Pending::Remove, "remove"),
    (Pending::Bottom, "bottom"),
];

pub fn serialize(s: &FlipCityState, history: &[u32]) -> String {
    let params = Params::from([
        (
            "players".to_string(),
            crate::ParamValue::Int(s.rules.players as i64),
        ),
        (
            "office".to_string(),
            crate::ParamValue::Bool(s.rules.office),
        ),
        (
            "max_turns".to_string(),
            crate::ParamValue::Int(s.rules.max_turns as i64),
        ),
        (
            "apartment_unhappiness".to_string(),
            crate::ParamValue::Int(s.rules.apartment_unhappiness as i64),
        ),
        (
            "hospital_cash".to_string(),
            crate::ParamValue::Int(s.rules.hospital_cash as i64),
        ),
        (
            "mall_recycle".to_string(),
            crate::ParamValue::Bool(s.rules.mall_recycle),
        ),
        (
            "station_recycle".to_string(),
            crate::ParamValue::Bool(s.rules.station_recycle),
        ),
    ]);
    let seats: Vec<Value> = s.seats[..s.players()]
        .iter()
        .map(|seat| {
            json!({
                "best": seat.best,
                "deck_known": seat.known.top_first().collect::<Vec<_>>(),
                "deck_unknown": seat.unknown.to_vec(),
                "discard": seat.discard.to_vec(),
            })
        })
        .collect();
    let value = json!({
        "cash": s.cash,
        "current": s.current,
        "discount": s.discount,
        "extra_buys": s.extra_buys,
        "extra_flips": s.extra_flips,
        "forced": s.forced,
        "game": ID,
        "history": history,
        "limit_bonus": s.limit_bonus,
        "main": s.main,
        "params": params_to_json(&params),
        "pending": PENDINGS.iter().find(|(p, _)| *p == s.pending).map(|(_, n)| *n).unwrap_or("none"),
        "phase": PHASES.iter().find(|(p, _)| *p == s.phase).map(|(_, n)| *n).unwrap_or("play"),
        "play_area": s.play_area.to_vec(),
        "points": s.points,
        "removed": s.removed.to_vec(),
        "seats": seats,
        "supply": s.supply.to_vec(),
        "turn": s.turn,
        "unhappiness": s.unhappiness,
        "version": VERSION,
        "winner": s.winner.map(|w| w as i64).unwrap_or(-1),
    });
    value.to_string()
}

/// Typed access to a JSON object that insists on exactly the expected keys.
struct Obj<'a> {
    map: &'a Map<String, Value>,
    what: &'static str,
}

impl<'a> Obj<'a> {
    fn new(value: &'a Value, what: &'static str, keys: &[&str]) -> Result<Self> {
        let Some(map) = value.as_object() else {
            return invalid(format!("flip_city state: {what} must be an object"));
        };
        for key in keys {
            if !map.contains_key(*key) {
                return invalid(format!("flip_city state: {what} lacks the key {key:?}"));
            }
        }
        if let Some(extra) = map.keys().find(|k| !keys.contains(&k.as_str())) {
            return invalid(format!(
                "flip_city state: {what} has an unknown key {extra:?}"
            ));
        }
        Ok(Obj { map, what })
    }

    fn get(&self, key: &str) -> &'a Value {
        &self.map[key]
    }

    fn uint(&self, key: &str, max: u64) -> Result<u64> {
        match self.get(key).as_u64() {
            Some(v) if v <= max => Ok(v),
            _ => invalid(format!(
                "flip_city state: {}.{key} must be an int in 0..={max}",
                self.what
            )),
        }
    }

    fn flag(&self, key: &str) -> Result<bool> {
        self.get(key).as_bool().map_or_else(
            || {
                invalid(format!(
                    "flip_city state: {}.{key} must be a bool",
                    self.what
                ))
            },
            Ok,
        )
    }

    fn text(&self, key: &str) -> Result<&'a str> {
        self.get(key).as_str().map_or_else(
            || {
                invalid(format!(
                    "flip_city state: {}.{key} must be a string",
                    self.what
                ))
            },
            Ok,
        )
    }

    fn counts(&self, key: &str) -> Result<[u8; NUM_FACES]> {
        let bad = || {
            invalid(format!(
                "flip_city state: {}.{key} must be {NUM_FACES} counts in 0..=255",
                self.what
            ))
        };
        let Some(list) = self.get(key).as_array() else {
            return bad();
        };
        if list.len() != NUM_FACES {
            return bad();
        }
        let mut out = [0u8; NUM_FACES];
        for (o, v) in out.iter_mut().zip(list) {
            match v.as_u64() {
                Some(c) if c <= 255 => *o = c as u8,
                _ => return bad(),
            }
        }
        Ok(out)
    }
}

const STATE_KEYS: [&str; 22] = [
    "cash",
    "current",
    "discount",
    "extra_buys",
    "extra_flips",
    "forced",
    "game",
    "history",
    "limit_bonus",
    "main",
    "params",
    "pending",
    "phase",
    "play_area",
    "points",
    "removed",
    "seats",
    "supply",
    "turn",
    "unhappiness",
    "version",
    "winner",
];
const SEAT_KEYS: [&str; 4] = ["best", "deck_known", "deck_unknown", "discard"];

pub fn deserialize(
    rules: &Rules,
    params: &Params,
    text: &str,
) -> Result<(FlipCityState, Vec<u32>)> {
    let value: Value = match crate::json::parse(text) {
        Ok(v) => v,
        Err(e) => return invalid(format!("flip_city state: not JSON ({e})")),
    };
    let o = Obj::new(&value, "state", &STATE_KEYS)?;
    if o.get("game").as_str() != Some(ID) {
        return invalid("flip_city state: \"game\" must be \"flip_city\"");
    }
    if o.get("version").as_i64() != Some(VERSION) || o.get("version").is_boolean() {
        return invalid(format!(
            "flip_city state: unsupported version (expected {VERSION})"
        ));
    }
    if o.get("params") != &params_to_json(params) {
        return invalid("flip_city state: its params differ from this game's");
    }
    let mut s = FlipCityState::new(*rules);
    let players = rules.players;

    let Some(seats) = o.get("seats").as_array() else {
        return invalid("flip_city state: seats must be a list");
    };
    if seats.len() != players {
        return invalid(format!(
            "flip_city state: {players} seats expected, found {}",
            seats.len()
        ));
    }
    for (seat, value) in s.seats.iter_mut().zip(seats) {
        let so = Obj::new(value, "seat", &SEAT_KEYS)?;
        *seat = Seat::default();
        seat.best = so.uint("best", MAX_COUNTER)? as u32;
        seat.unknown = so.counts("deck_unknown")?;
        seat.discard = so.counts("discard")?;
        let Some(known) = so.get("deck_known").as_array() else {
            return invalid("flip_city state: seat.deck_known must be a list of face ids");
        };
        if known.len() > KNOWN_CAPACITY {
            return invalid("flip_city state: seat.deck_known is longer than the game has cards");
        }
        for face in known.iter().rev() {
            match face.as_u64() {
                Some(f) if (f as usize) < NUM_FACES => {
                    seat.known.push_top(f as usize);
                }
                _ => {
                    return invalid("flip_city state: seat.deck_known holds a face id out of range")
                }
            }
        }
    }
    s.supply = o.counts("supply")?;
    s.removed = o.counts("removed")?;
    s.play_area = o.counts("play_area")?;
    s.current = o.uint("current", players as u64 - 1)? as usize;
    s.turn = o.uint("turn", rules.max_turns as u64 * players as u64)? as u32;
    s.cash = o.uint("cash", MAX_COUNTER)? as u32;
    s.points = o.uint("points", MAX_COUNTER)? as u32;
    s.unhappiness = o.uint("unhappiness", MAX_COUNTER)? as u32;
    s.limit_bonus = o.uint("limit_bonus", MAX_COUNTER)? as u32;
    s.extra_buys = o.uint("extra_buys", MAX_COUNTER)? as u32;
    s.extra_flips = o.uint("extra_flips", MAX_COUNTER)? as u32;
    s.forced = o.flag("forced")?;
    s.main = o.flag("main")?;
    s.discount = o.flag("discount")?;
    let phase = o.text("phase")?;
    s.phase = match PHASES.iter().find(|(_, n)| *n == phase) {
        Some((p, _)) => *p,
        None => return invalid(format!("flip_city state: unknown phase {phase:?}")),
    };
    let pending = o.text("pending")?;
    s.pending = match PENDINGS.iter().find(|(_, n)| *n == pending) {
        Some((p, _)) => *p,
        None => return invalid(format!("flip_city state: unknown pending step {pending:?}")),
    };
    s.winner = match o.get("winner").as_i64() {
        Some(-1) if !o.get("winner").is_boolean() => None,
        Some(w) if w >= 0 && (w as usize) < players => Some(w as usize),
        _ => return invalid("flip_city state: winner must be -1 or a seat"),
    };
    let Some(list) = o.get("history").as_array() else {
        return invalid("flip_city state: history must be a list");
    };
    let mut history = Vec::with_capacity(list.len());
    for a in list {
        match a.as_u64() {
            Some(a) if a < NUM_ACTIONS as u64 => history.push(a as u32),
            _ => {
                return invalid(format!(
                    "flip_city state: history holds an id out of 0..{NUM_ACTIONS}"
                ))
            }
        }
    }
    check_consistency(&s)?;
    Ok((s, history))
}

fn check_consistency(s: &FlipCityState) -> Result<()> {
    let rules = &s.rules;
    let players = rules.players;
    // Card conservation, per double-sided type (§2).
    let mut seen = [0u32; NUM_FACES];
    let mut add = |counts: &[u8; NUM_FACES]| {
        for f in 0..NUM_FACES {
            seen[f & !1] += counts[f] as u32;
        }
    };
    for seat in &s.seats[..players] {
        add(&seat.unknown);
        add(&seat.discard);
        let mut known = [0u8; NUM_FACES];
        for f in seat.known.top_first() {
            known[f] += 1;
        }
        add(&known);
    }
    add(&s.supply);
    add(&s.removed);
    add(&s.play_area);
    let mut totals = rules.type_totals();
    if s.pending == Pending::GiveResidential {
        // The flipped Apartment is in the flipper's hand on its way to another discard pile.
        totals[RESIDENTIAL_AREA] -= 1;
    }
    for f in (0..NUM_FACES).step_by(2) {
        if seen[f] != totals[f] {
            return invalid(format!(
                "flip_city state: {} cards of the {}/{} type, the game has {}",
                seen[f],
                FACES[f].name,
                FACES[f + 1].name,
                totals[f]
            ));
        }
    }
    let initial = rules.initial_supply();
    for f in 0..NUM_FACES {
        if s.supply[f] > initial[f] {
            return invalid(format!(
                "flip_city state: the {} pile holds more than it starts with",
                FACES[f].name
            ));
        }
        if s.removed[f] > 0 && !rules.solo() {
            return invalid("flip_city state: cards are removed from the game only in solo");
        }
    }
    use Pending::*;
    let pending_ok = match (s.phase, s.pending) {
        (_, None) => true,
        (Phase::Play, Bottom | Shuffle | GiveApartment) => true,
        (Phase::Play, Remove) => rules.solo(),
        (Phase::Build, GiveResidential) => true,
        _ => false,
    };
    if !pending_ok {
        return invalid("flip_city state: that pending step is impossible in that phase");
    }
    if matches!(s.pending, GiveApartment | GiveResidential) && players < 2 {
        return invalid("flip_city state: nobody to give a card to in solo");
    }
    if s.pending == GiveApartment && s.seats[s.current].discard[APARTMENT] == 0 {
        return invalid(
            "flip_city state: a Power Plant gift with no Apartment in the discard pile",
        );
    }
    if rules.solo() && s.phase != Phase::Over && s.supply.iter().all(|&c| c == 0) {
        return invalid("flip_city state: a solo game with an empty supply is lost, so over");
    }
    if s.pending == Bottom && s.seats[s.current].unknown.iter().all(|&c| c == 0) {
        return invalid("flip_city state: a pending bottom card with no unknown cards in the deck");
    }
    let building_fields = s.main || s.extra_buys > 0 || s.extra_flips > 0 || s.discount;
    if s.phase != Phase::Build && building_fields {
        return invalid("flip_city state: building fields set outside the Building phase");
    }
    if s.phase != Phase::Play && s.forced {
        return invalid("flip_city state: a forced play outside the Play Cards phase");
    }
    let turn_fields = s.cash > 0 || s.points > 0 || s.unhappiness > 0 || s.limit_bonus > 0;
    if s.phase == Phase::Over && (turn_fields || s.play_area.iter().any(|&c| c > 0)) {
        return invalid("flip_city state: a finished game with a turn still in progress");
    }
    if s.phase != Phase::Over && s.winner.is_some() {
        return invalid("flip_city state: a winner while the game goes on");
    }
    if s.phase != Phase::Over && s.turn >= rules.max_turns * players as u32 {
        return invalid("flip_city state: the turn limit is passed but the game goes on");
    }
    debug_assert!(players <= MAX_PLAYERS);
    Ok(())
}
