//! Canonical JSON of a whole state and its strict reader (docs/rules/flip_city.md §7; the family layout's
//! extra keys and checks in docs/rules/flip_city_wilderness.md §7).

use super::cards::*;
use super::state::{FlipState, KnownCards, Pending, Phase, Seat, MAX_COUNTER};
use super::Rules;
use crate::error::{invalid, Result};
use crate::json::Fields;
use crate::params::{params_to_json, Params};
use serde_json::{json, Value};

/// 2: `discount` is the fee reduction (an int), and `played`, `store_played`, `shuffled` are new.
const VERSION: i64 = 2;

const PHASES: [(Phase, &str); 3] = [
    (Phase::Play, "play"),
    (Phase::Build, "build"),
    (Phase::Over, "over"),
];
/// The pending steps by name; the base layout knows the first six (FC §7), the family layout all (W §4).
const PENDINGS: [(Pending, &str); 11] = [
    (Pending::None, "none"),
    (Pending::Shuffle, "shuffle"),
    (Pending::GiveApartment, "give_apartment"),
    (Pending::GiveResidential, "give_residential"),
    (Pending::Remove, "remove"),
    (Pending::Bottom, "bottom"),
    (Pending::GiveResort, "give_resort"),
    (Pending::Market, "market"),
    (Pending::Airport, "airport"),
    (Pending::AirportCard, "airport_card"),
    (Pending::AirportAside, "airport_aside"),
];
const BASE_PENDINGS: usize = 6;

fn family<const F: usize>() -> bool {
    F > BASE_FACES
}

pub fn serialize<const F: usize, const CAP: usize>(
    s: &FlipState<F, CAP>,
    history: &[u32],
) -> String {
    let fam = family::<F>();
    let seats: Vec<Value> = s.seats[..s.players()]
        .iter()
        .map(|seat| {
            let mut o = json!({
                "best": seat.best,
                "deck_known": seat.known.top_first().collect::<Vec<_>>(),
                "deck_unknown": seat.unknown.to_vec(),
                "discard": seat.discard.to_vec(),
            });
            if fam {
                o["deck_bottom"] = json!(seat.known.bottom_top_first().collect::<Vec<_>>());
                o["limit_next"] = json!(seat.limit_next);
            }
            o
        })
        .collect();
    let mut value = json!({
        "cash": s.cash,
        "current": s.current,
        "discount": s.discount,
        "extra_buys": s.extra_buys,
        "extra_flips": s.extra_flips,
        "forced": s.forced,
        "game": s.rules.id(),
        "history": history,
        "limit_bonus": s.limit_bonus,
        "main": s.main,
        "params": params_to_json(&s.rules.params()),
        "played": s.played,
        "store_played": s.store_played,
        "shuffled": s.shuffled,
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
    if fam {
        value["chosen"] = json!(s.chosen.map(|c| c as i64).unwrap_or(-1));
        value["digs"] = json!(s.digs);
        value["flip_cash"] = json!(s.flip_cash);
    }
    value.to_string()
}

/// The counts at `key`: one per face, each in 0..=255.
fn counts<const F: usize>(o: &Fields, key: &str) -> Result<[u8; F]> {
    let mut out = [0u8; F];
    for (d, c) in out.iter_mut().zip(o.ints(key, F..=F, 0, 255)?) {
        *d = c as u8;
    }
    Ok(out)
}

/// The face ids at `key` (`deck_known`, `deck_bottom`), top first, at most `cap` of them.
fn faces<const F: usize>(o: &Fields, key: &str, cap: usize) -> Result<Vec<usize>> {
    let faces = o.ints(key, ..=cap, 0, F as i64 - 1)?;
    Ok(faces.into_iter().map(|f| f as usize).collect())
}

const STATE_KEYS: [&str; 25] = [
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
    "played",
    "points",
    "removed",
    "seats",
    "shuffled",
    "store_played",
    "supply",
    "turn",
    "unhappiness",
    "version",
    "winner",
];
const FAMILY_STATE_KEYS: [&str; 3] = ["chosen", "digs", "flip_cash"];
const SEAT_KEYS: [&str; 4] = ["best", "deck_known", "deck_unknown", "discard"];
const FAMILY_SEAT_KEYS: [&str; 2] = ["deck_bottom", "limit_next"];

fn keys(base: &[&'static str], extra: &[&'static str], fam: bool) -> Vec<&'static str> {
    let mut keys = base.to_vec();
    if fam {
        keys.extend_from_slice(extra);
    }
    keys
}

pub fn deserialize<const F: usize, const CAP: usize>(
    rules: &Rules,
    params: &Params,
    text: &str,
) -> Result<(FlipState<F, CAP>, Vec<u32>)> {
    let game = rules.id();
    let fam = family::<F>();
    let prefix = format!("{game} state: ");
    let value: Value = match crate::json::parse(text) {
        Ok(v) => v,
        Err(e) => return invalid(format!("{prefix}not JSON ({e})")),
    };
    let o = Fields::new(
        &value,
        &prefix,
        "",
        &keys(&STATE_KEYS, &FAMILY_STATE_KEYS, fam),
    )?;
    o.envelope(game, VERSION, &params_to_json(params))?;
    let mut s = FlipState::<F, CAP>::new(*rules);
    let players = rules.players;
    let (counter, seat_max) = (MAX_COUNTER as i64, players as i64 - 1);

    let seats = o.list("seats", players..=players)?;
    let seat_keys = keys(&SEAT_KEYS, &FAMILY_SEAT_KEYS, fam);
    for (i, (seat, value)) in s.seats.iter_mut().zip(seats).enumerate() {
        let so = o.object_at(&format!("seats[{i}]"), value, &seat_keys)?;
        *seat = Seat::default();
        seat.best = so.int("best", 0, counter)? as u32;
        seat.unknown = counts::<F>(&so, "deck_unknown")?;
        seat.discard = counts::<F>(&so, "discard")?;
        let known = faces::<F>(&so, "deck_known", CAP)?;
        let bottom = if fam {
            seat.limit_next = so.int("limit_next", 0, counter)? as u32;
            faces::<F>(&so, "deck_bottom", CAP)?
        } else {
            Vec::new()
        };
        if known.len() + bottom.len() > CAP {
            return invalid(format!(
                "{game} state: a deck holds more known cards than the game has cards"
            ));
        }
        seat.known = KnownCards::default();
        for &f in known.iter().rev() {
            seat.known.push_top(f);
        }
        for &f in &bottom {
            seat.known.push_bottom(f);
        }
    }
    s.supply = counts::<F>(&o, "supply")?;
    s.removed = counts::<F>(&o, "removed")?;
    s.play_area = counts::<F>(&o, "play_area")?;
    s.current = o.int("current", 0, seat_max)? as usize;
    s.turn = o.int("turn", 0, rules.max_turns as i64 * players as i64)? as u32;
    s.cash = o.int("cash", 0, counter)? as u32;
    s.points = o.int("points", 0, counter)? as u32;
    s.unhappiness = o.int("unhappiness", 0, counter)? as u32;
    s.limit_bonus = o.int("limit_bonus", 0, counter)? as u32;
    s.extra_buys = o.int("extra_buys", 0, counter)? as u32;
    s.extra_flips = o.int("extra_flips", 0, counter)? as u32;
    s.forced = o.bool("forced")?;
    s.main = o.bool("main")?;
    s.discount = o.int("discount", 0, counter)? as u32;
    s.played = o.int("played", 0, counter)? as u32;
    s.store_played = o.bool("store_played")?;
    s.shuffled = o.bool("shuffled")?;
    // -1 for none, or a seat.
    let seat_or_none = |key: &str| -> Result<Option<usize>> {
        let v = o.int(key, -1, seat_max)?;
        Ok((v >= 0).then_some(v as usize))
    };
    if fam {
        s.flip_cash = o.int("flip_cash", 0, counter)? as u32;
        s.digs = o.int("digs", 0, counter)? as u32;
        s.chosen = seat_or_none("chosen")?;
    }
    s.phase = o.name("phase", &PHASES)?;
    let known_pendings = if fam {
        &PENDINGS[..]
    } else {
        &PENDINGS[..BASE_PENDINGS]
    };
    s.pending = o.name("pending", known_pendings)?;
    s.winner = seat_or_none("winner")?;
    let num_actions = FlipState::<F, CAP>::NUM_ACTIONS as i64;
    let history = o
        .ints("history", .., 0, num_actions - 1)?
        .into_iter()
        .map(|a| a as u32)
        .collect();
    check_consistency(&s)?;
    Ok((s, history))
}

fn check_consistency<const F: usize, const CAP: usize>(s: &FlipState<F, CAP>) -> Result<()> {
    let rules = &s.rules;
    let game = rules.id();
    let players = rules.players;
    let fail = |msg: &str| invalid(format!("{game} state: {msg}"));
    // Card conservation, per double-sided type (FC §2, W §2.3).
    let mut seen = [0u32; F];
    let mut add = |counts: &[u8; F]| {
        for f in 0..F {
            seen[f & !1] += counts[f] as u32;
        }
    };
    for seat in &s.seats[..players] {
        add(&seat.unknown);
        add(&seat.discard);
        let mut known = [0u8; F];
        for f in seat.known.all() {
            known[f] += 1;
        }
        add(&known);
    }
    add(&s.supply);
    add(&s.removed);
    add(&s.play_area);
    let mut totals = rules.type_totals::<F>();
    // A card on its way to another seat: the flipped Apartment (a Residential Area for a discard pile) or
    // the flipped Country Resort (a Trailer Park for a deck).
    match s.pending {
        Pending::GiveResidential => {
            totals[RESIDENTIAL_AREA] = totals[RESIDENTIAL_AREA].wrapping_sub(1)
        }
        Pending::GiveResort if TRAILER_PARK < F => {
            totals[TRAILER_PARK] = totals[TRAILER_PARK].wrapping_sub(1)
        }
        _ => {}
    }
    for f in (0..F).step_by(2) {
        if seen[f] != totals[f] {
            return invalid(format!(
                "{game} state: {} cards of the {}/{} type, the game has {}",
                seen[f],
                FACES[f].name,
                FACES[f + 1].name,
                totals[f]
            ));
        }
    }
    let initial = rules.initial_supply::<F>();
    // Removal outside solo: only by a Farmer's Market (W 8), so only in a game that has one.
    let markets = totals.get(FARMERS_MARKET).is_some_and(|&t| t > 0);
    for f in 0..F {
        if s.supply[f] > initial[f] {
            return invalid(format!(
                "{game} state: the {} pile holds more than it starts with",
                FACES[f].name
            ));
        }
        if s.removed[f] > 0 && !rules.solo() && !markets {
            return fail("cards are removed from the game only in solo or by a Farmer's Market");
        }
    }
    use Pending::*;
    let pending_ok = match (s.phase, s.pending) {
        (_, None) => true,
        (Phase::Play, Bottom | Shuffle | GiveApartment | Airport | AirportCard) => true,
        (Phase::Play, AirportAside) => {
            let deck = &s.seats[s.current];
            deck.known.all().next().is_none() && deck.unknown.get(OFFICE).is_some_and(|&c| c > 0)
        }
        (Phase::Play, Remove) => rules.solo(),
        (Phase::Build, GiveResidential | GiveResort | Market) => true,
        _ => false,
    };
    if !pending_ok {
        return fail("that pending step is impossible in that phase");
    }
    if matches!(s.pending, GiveApartment | GiveResidential | GiveResort) && players < 2 {
        return fail("nobody to give a card to in solo");
    }
    if s.pending == GiveApartment && s.seats[s.current].discard[APARTMENT] == 0 {
        return fail("a Power Plant gift with no Apartment in the discard pile");
    }
    if rules.solo() && s.phase != Phase::Over && s.supply.iter().all(|&c| c == 0) {
        return fail("a solo game with an empty supply is lost, so over");
    }
    if s.pending == Bottom && s.seats[s.current].unknown.iter().all(|&c| c == 0) {
        return fail("a pending bottom card with no unknown cards in the deck");
    }
    let building_fields = s.main || s.extra_buys > 0 || s.extra_flips > 0 || s.discount > 0;
    if s.phase != Phase::Build && building_fields {
        return fail("building fields set outside the Building phase");
    }
    if s.phase != Phase::Play && s.forced {
        return fail("a forced play outside the Play Cards phase");
    }
    if s.phase != Phase::Play && s.shuffled {
        return fail("shuffled set outside the Play Cards phase");
    }
    // `played` counts the play area's cards and those a Farmer's Market removed from it (Building phase).
    let on_table = s.play_area.iter().map(|&c| c as u32).sum::<u32>();
    let removed = s.removed.iter().map(|&c| c as u32).sum::<u32>();
    let store_on_table = s.play_area[CONVENIENCE_STORE] > 0;
    if s.played < on_table
        || (s.phase != Phase::Build && s.played != on_table)
        || s.played - on_table > removed
    {
        return fail("played does not match the cards played this turn");
    }
    if (store_on_table && !s.store_played)
        || (s.store_played && !store_on_table && s.played == on_table)
    {
        return fail("store_played does not match the cards played this turn");
    }
    if s.phase == Phase::Over && (s.played > 0 || s.store_played) {
        return fail("a finished game with a turn still in progress");
    }

    let turn_fields = s.cash > 0 || s.points > 0 || s.unhappiness > 0 || s.limit_bonus > 0;
    if s.phase == Phase::Over && (turn_fields || s.play_area.iter().any(|&c| c > 0)) {
        return fail("a finished game with a turn still in progress");
    }
    if s.phase != Phase::Over && s.winner.is_some() {
        return fail("a winner while the game goes on");
    }
    if s.phase != Phase::Over && s.turn >= rules.max_turns * players as u32 {
        return fail("the turn limit is passed but the game goes on");
    }
    if family::<F>() {
        check_family(s)?;
    }
    Ok(())
}

/// The checks of W §7 beyond FC §7.
fn check_family<const F: usize, const CAP: usize>(s: &FlipState<F, CAP>) -> Result<()> {
    let game = s.rules.id();
    let fail = |msg: &str| invalid(format!("{game} state: {msg}"));
    let players = s.players();
    let seats = &s.seats[..players];
    if seats
        .iter()
        .any(|seat| seat.known.bottom_len() > 0 && seat.unknown.iter().all(|&c| c == 0))
    {
        return fail("a deck_bottom below no unknown cards (it would be part of deck_known)");
    }
    // W §7 "a pending bottom with a known deck_bottom": the Factory takes a known bottom card at once (W §4.1),
    // so its chance node never waits above one.
    if s.pending == Pending::Bottom && s.seats[s.current].known.bottom_len() > 0 {
        return fail("a pending bottom card while the bottom card is known");
    }
    if s.chosen.is_some() != (s.pending == Pending::AirportCard) {
        return fail("chosen is set exactly while an Airport's card is being chosen");
    }
    if let Some(c) = s.chosen {
        if s.seats[c].discard.iter().all(|&n| n == 0) {
            return fail("an Airport chose a seat with an empty discard pile");
        }
    }
    let discards_empty = seats
        .iter()
        .all(|seat| seat.discard.iter().all(|&n| n == 0));
    if s.pending == Pending::Airport && discards_empty {
        return fail("an Airport with every discard pile empty");
    }
    if s.pending == Pending::Market && s.play_area.iter().all(|&n| n == 0) {
        return fail("a Farmer's Market removal with nothing played");
    }
    if s.phase != Phase::Build && s.digs != 0 {
        return fail("digs left outside the Building phase");
    }
    if s.phase == Phase::Over && s.flip_cash != 0 {
        return fail("flip-only cash in a finished game");
    }
    Ok(())
}
