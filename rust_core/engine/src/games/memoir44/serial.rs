//! The canonical JSON of a state (§6.6) and its strict reader. The writer follows the contract's reading
//! order (so that it can be checked against §6.6 line by line); the canonical form, keys sorted as for every
//! game (architecture decision 2), comes from one pass through serde's sorted map at the end.

use super::cards::{AMBUSH, COUNTS, INFANTRY_ASSAULT, TYPES};
use super::hex::NUM_HEXES;
use super::rules::{hex_name, parse_hex, Kind, Rules, Ter, Unit};
use super::state::*;
use crate::error::{invalid, Result};
use crate::json::{self, Fields};
use serde_json::Value;
use std::fmt::Write;
use std::sync::Arc;

const PREFIX: &str = "memoir44 state: ";

const VERSION: i64 = 1;

const KEYS: [&str; 29] = [
    "game",
    "params",
    "version",
    "phase",
    "active",
    "turns",
    "units",
    "wire",
    "sandbags",
    "hands",
    "deck",
    "discard",
    "played",
    "card",
    "section",
    "fallback",
    "roll",
    "last",
    "medals",
    "ambush",
    "unit",
    "battle",
    "targets",
    "recon",
    "recon_draws",
    "draws",
    "drawer",
    "winner",
    "history",
];
const UNIT_KEYS: [&str; 11] = [
    "hex",
    "seat",
    "kind",
    "special",
    "figures",
    "start",
    "ordered",
    "moved",
    "battles",
    "no_battle",
    "overrun",
];
const FIGHT_KEYS: [&str; 11] = [
    "kind",
    "attacker",
    "target",
    "origin",
    "dice",
    "rolled",
    "flags",
    "retreated",
    "close",
    "overrun",
    "pending",
];

fn counts(out: &mut String, c: &[u8]) {
    out.push('[');
    for (i, x) in c.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "{x}");
    }
    out.push(']');
}

fn opt_int(out: &mut String, v: Option<impl std::fmt::Display>) {
    match v {
        Some(x) => {
            let _ = write!(out, "{x}");
        }
        None => out.push_str("null"),
    }
}

fn opt_hex(out: &mut String, v: Option<u8>) {
    match v {
        Some(h) => {
            let _ = write!(out, "\"{}\"", hex_name(h as usize));
        }
        None => out.push_str("null"),
    }
}

fn hexes(out: &mut String, hs: impl Iterator<Item = usize>) {
    out.push('[');
    for (i, h) in hs.enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "\"{}\"", hex_name(h));
    }
    out.push(']');
}

fn fight(out: &mut String, f: &Fight, pending: Option<&Fight>) {
    let kind = BKINDS[f.kind.index()].1;
    let _ = write!(out, "{{\"kind\":\"{kind}\",\"attacker\":");
    opt_hex(out, f.attacker);
    let _ = write!(
        out,
        ",\"target\":\"{}\",\"origin\":\"{}\",\"dice\":{},\"rolled\":",
        hex_name(f.target as usize),
        hex_name(f.origin as usize),
        f.dice
    );
    counts(out, &f.rolled);
    let _ = write!(
        out,
        ",\"flags\":{},\"retreated\":{},\"close\":{},\"overrun\":{}",
        f.flags, f.retreated, f.close, f.overrun
    );
    if let Some(p) = pending {
        out.push_str(",\"pending\":");
        fight(out, p, None);
    }
    out.push('}');
}

/// The game's parameters as `Game::params` gives them (the state keeps only the rules they made).
fn params_json(s: &Memoir44State) -> Value {
    params_json_of(&s.rules)
}

pub fn serialize(s: &Memoir44State, history: &[u32]) -> String {
    let mut o = String::with_capacity(4096);
    let _ = write!(
        o,
        "{{\"game\":\"{}\",\"params\":{},\"version\":{VERSION},\"phase\":\"{}\",\"active\":{},\"turns\":[{},{}],\"units\":[",
        super::ID,
        params_json(s),
        s.phase.name(),
        s.active,
        s.turns[0],
        s.turns[1]
    );
    let mut first = true;
    for i in 0..NUM_HEXES {
        if let Some(u) = s.unit_at(i) {
            if !first {
                o.push(',');
            }
            first = false;
            let _ = write!(
                o,
                "{{\"hex\":\"{}\",\"seat\":{},\"kind\":\"{}\",\"special\":{},\"figures\":{},\"start\":{},\"ordered\":{},\"moved\":{},\"battles\":{},\"no_battle\":{},\"overrun\":{}}}",
                hex_name(i), u.seat, u.kind.name(), u.special, u.figures, u.start, u.ordered, u.moved, u.battles, u.no_battle, u.overrun
            );
        }
    }
    o.push_str("],\"wire\":");
    hexes(&mut o, (0..NUM_HEXES).filter(|&i| s.has_wire(i)));
    o.push_str(",\"sandbags\":");
    hexes(&mut o, (0..NUM_HEXES).filter(|&i| s.has_sand(i)));
    o.push_str(",\"hands\":[");
    counts(&mut o, &s.hands[0]);
    o.push(',');
    counts(&mut o, &s.hands[1]);
    o.push_str("],\"deck\":");
    counts(&mut o, &s.deck);
    o.push_str(",\"discard\":");
    counts(&mut o, &s.discard);
    o.push_str(",\"played\":");
    opt_int(&mut o, s.played);
    o.push_str(",\"card\":");
    opt_int(&mut o, s.card);
    o.push_str(",\"section\":");
    opt_int(&mut o, s.section);
    let _ = write!(o, ",\"fallback\":{},\"roll\":", s.fallback);
    match &s.roll {
        Some(r) => {
            let _ = write!(o, "{{\"dice\":{},\"rolled\":", r.dice);
            counts(&mut o, &r.rolled);
            o.push('}');
        }
        None => o.push_str("null"),
    }
    o.push_str(",\"last\":[");
    for p in 0..2 {
        if p > 0 {
            o.push(',');
        }
        match s.last[p] {
            Some((k, sec)) => {
                let _ = write!(o, "[{k},");
                opt_int(&mut o, sec);
                o.push(']');
            }
            None => o.push_str("null"),
        }
    }
    let _ = write!(
        o,
        "],\"medals\":[{},{}],\"ambush\":",
        s.medals[0], s.medals[1]
    );
    opt_int(&mut o, s.ambush);
    o.push_str(",\"unit\":");
    opt_hex(&mut o, s.unit);
    o.push_str(",\"battle\":");
    match &s.battle {
        Some(b) => fight(&mut o, &b.cur, b.pending.as_ref()),
        None => o.push_str("null"),
    }
    o.push_str(",\"targets\":");
    hexes(&mut o, s.targets.as_slice().iter().map(|&h| h as usize));
    o.push_str(",\"recon\":");
    counts(&mut o, s.recon.as_slice());
    let _ = write!(
        o,
        ",\"recon_draws\":{},\"draws\":{},\"drawer\":",
        s.recon_draws, s.draws
    );
    opt_int(&mut o, s.drawer);
    o.push_str(",\"winner\":");
    opt_int(&mut o, s.winner);
    o.push_str(",\"history\":[");
    for (i, a) in history.iter().enumerate() {
        if i > 0 {
            o.push(',');
        }
        let _ = write!(o, "{a}");
    }
    o.push_str("]}");
    match serde_json::from_str::<Value>(&o) {
        Ok(v) => v.to_string(),
        Err(_) => o, // cannot happen: the writer above only writes valid JSON
    }
}

fn params_json_of(rules: &Rules) -> Value {
    serde_json::json!({"scenario": rules.scenario, "turn_limit": rules.turn_limit})
}

fn opt<'a>(f: &Fields<'a>, key: &str) -> Option<&'a Value> {
    let v = f.get(key);
    (!v.is_null()).then_some(v)
}

fn hex_at(f: &Fields, sub: &str, v: &Value) -> Result<usize> {
    match v.as_str().and_then(parse_hex) {
        Some(i) => Ok(i),
        None => f.fail(sub, "must be a hex \"r,c\" on the board"),
    }
}

fn opt_hex_of(f: &Fields, key: &str) -> Result<Option<u8>> {
    match opt(f, key) {
        None => Ok(None),
        Some(v) => Ok(Some(hex_at(f, key, v)? as u8)),
    }
}

fn counts_of(f: &Fields, sub: &str, v: &Value, n: usize, hi: i64) -> Result<Vec<u8>> {
    let items = f.list_at(sub, v, n..=n)?;
    items
        .iter()
        .enumerate()
        .map(|(i, x)| f.int_at(&format!("{sub}[{i}]"), x, 0, hi).map(|x| x as u8))
        .collect()
}

fn hex_list(f: &Fields, key: &str, max: usize) -> Result<Vec<usize>> {
    let items = f.list(key, 0..=max)?;
    let mut out = Vec::new();
    for (i, v) in items.iter().enumerate() {
        let h = hex_at(f, &format!("{key}[{i}]"), v)?;
        if out.last().is_some_and(|&l| l >= h) {
            return f.fail(key, "must be in hex index order without repeats");
        }
        out.push(h);
    }
    Ok(out)
}

fn read_fight(
    f: &Fields,
    sub: &str,
    v: &Value,
    with_pending: bool,
) -> Result<(Fight, Option<Value>)> {
    let has_pending = v.as_object().is_some_and(|m| m.contains_key("pending"));
    let keys: &[&str] = if with_pending && has_pending {
        &FIGHT_KEYS
    } else {
        &FIGHT_KEYS[..FIGHT_KEYS.len() - 1]
    };
    let b = f.object_at(sub, v, keys)?;
    let kind = b.name("kind", &BKINDS)?;
    let attacker = opt_hex_of(&b, "attacker")?;
    let target = hex_at(&b, "target", b.get("target"))? as u8;
    let origin = hex_at(&b, "origin", b.get("origin"))? as u8;
    let dice = b.int("dice", 0, 255)? as u8;
    let rolled: Vec<u8> = counts_of(&b, "rolled", b.get("rolled"), 5, 255)?;
    let flags = b.int("flags", 0, 255)? as u8;
    let retreated = b.int("retreated", 0, 255)? as u8;
    let close = b.bool("close")?;
    let overrun = b.bool("overrun")?;
    let mut r = [0u8; 5];
    r.copy_from_slice(&rolled);
    let pending = if with_pending && has_pending {
        Some(b.get("pending").clone())
    } else {
        None
    };
    Ok((
        Fight {
            kind,
            attacker,
            target,
            origin,
            dice,
            rolled: r,
            flags,
            retreated,
            close,
            overrun,
        },
        pending,
    ))
}

pub fn deserialize(rules: &Arc<Rules>, text: &str) -> Result<(Memoir44State, Vec<u32>)> {
    let v = match json::parse(text) {
        Ok(v) => v,
        Err(e) => return invalid(format!("{PREFIX}not valid JSON: {e}")),
    };
    let f = Fields::new(&v, PREFIX, "", &KEYS)?;
    f.envelope(super::ID, VERSION, &params_json_of(rules))?;
    let history: Vec<u32> = f
        .ints("history", .., 0, NUM_ACTIONS as i64 - 1)?
        .into_iter()
        .map(|a| a as u32)
        .collect();
    let phase = f.name("phase", &PHASES)?;
    let active = f.int("active", 0, 1)? as u8;
    let turns = f.ints("turns", 2..=2, 0, 1000)?;
    let turns = [turns[0] as u16, turns[1] as u16];
    let mut units: [Option<Unit>; NUM_HEXES] = [None; NUM_HEXES];
    for (i, uv) in f.list("units", 0..=NUM_HEXES)?.iter().enumerate() {
        let sub = format!("units[{i}]");
        let u = f.object_at(&sub, uv, &UNIT_KEYS)?;
        let h = hex_at(&u, "hex", u.get("hex"))?;
        if units[h].is_some() {
            return u.fail("hex", "holds two units");
        }
        if i > 0 && units[h + 1..].iter().any(|x| x.is_some()) {
            return u.fail("hex", "units must be in hex index order");
        }
        if rules.terrain[h] == Ter::River {
            return u.fail("hex", "is impassable");
        }
        let seat = u.int("seat", 0, 1)? as u8;
        let kind = match u.str("kind")? {
            "infantry" => Kind::Infantry,
            "armor" => Kind::Armor,
            "artillery" => Kind::Artillery,
            _ => return u.fail("kind", "must be infantry, armor or artillery"),
        };
        let special = u.bool("special")?;
        if special && kind == Kind::Artillery {
            return u.fail("special", "artillery has no special forces");
        }
        let start = kind.start(special);
        if u.int("start", 0, 255)? as u8 != start {
            return u.fail("start", format!("must be {start}"));
        }
        let figures = u.int("figures", 1, start as i64)? as u8;
        units[h] = Some(Unit {
            seat,
            kind,
            special,
            figures,
            start,
            ordered: u.bool("ordered")?,
            moved: u.int("moved", 0, 6)? as u8,
            battles: u.int("battles", 0, 2)? as u8,
            no_battle: u.bool("no_battle")?,
            overrun: u.bool("overrun")?,
        });
    }
    let mut wire = 0u128;
    for h in hex_list(&f, "wire", NUM_HEXES)? {
        wire |= 1u128 << h;
    }
    let mut sand = 0u128;
    for h in hex_list(&f, "sandbags", NUM_HEXES)? {
        sand |= 1u128 << h;
    }
    let hl = f.list("hands", 2..=2)?;
    let mut hands = [[0u8; TYPES]; 2];
    for p in 0..2 {
        let c = counts_of(&f, &format!("hands[{p}]"), &hl[p], TYPES, 60)?;
        hands[p].copy_from_slice(&c);
    }
    let mut deck = [0u8; TYPES];
    deck.copy_from_slice(&counts_of(&f, "deck", f.get("deck"), TYPES, 60)?);
    let mut discard = [0u8; TYPES];
    discard.copy_from_slice(&counts_of(&f, "discard", f.get("discard"), TYPES, 60)?);
    let card_of = |key: &str| -> Result<Option<u8>> {
        match opt(&f, key) {
            None => Ok(None),
            Some(v) => Ok(Some(f.int_at(key, v, 0, 29)? as u8)),
        }
    };
    let played = card_of("played")?;
    let card = card_of("card")?;
    let section = match opt(&f, "section") {
        None => None,
        Some(v) => Some(f.int_at("section", v, 0, 2)? as u8),
    };
    let fallback = f.bool("fallback")?;
    let roll = match opt(&f, "roll") {
        None => None,
        Some(v) => {
            let r = f.object_at("roll", v, &["dice", "rolled"])?;
            let dice = r.int("dice", 0, 61)? as u8;
            let mut rolled = [0u8; 5];
            rolled.copy_from_slice(&counts_of(&r, "rolled", r.get("rolled"), 5, 61)?);
            Some(Roll { dice, rolled })
        }
    };
    let ll = f.list("last", 2..=2)?;
    let mut last = [None, None];
    for p in 0..2 {
        if ll[p].is_null() {
            continue;
        }
        let sub = format!("last[{p}]");
        let pair = f.list_at(&sub, &ll[p], 2..=2)?;
        let k = f.int_at(&format!("{sub}[0]"), &pair[0], 0, 29)? as u8;
        let s = if pair[1].is_null() {
            None
        } else {
            Some(f.int_at(&format!("{sub}[1]"), &pair[1], 0, 2)? as u8)
        };
        if s.is_some() != (k == INFANTRY_ASSAULT) {
            return f.fail(&sub, "has a section exactly for infantry_assault");
        }
        last[p] = Some((k, s));
    }
    let m = f.ints("medals", 2..=2, 0, 60)?;
    let medals = [m[0] as u8, m[1] as u8];
    let seat_of = |key: &str| -> Result<Option<u8>> {
        match opt(&f, key) {
            None => Ok(None),
            Some(v) => Ok(Some(f.int_at(key, v, 0, 1)? as u8)),
        }
    };
    let ambush = seat_of("ambush")?;
    let unit = opt_hex_of(&f, "unit")?;
    let battle = match opt(&f, "battle") {
        None => None,
        Some(bv) => {
            let (cur, pend) = read_fight(&f, "battle", bv, true)?;
            let pending = match pend {
                Some(pv) => {
                    if cur.kind != BKind::Ambush {
                        return f.fail("battle", "has a pending attack only for an ambush");
                    }
                    let (p, _) = read_fight(&f, "battle.pending", &pv, false)?;
                    if p.kind != BKind::Attack {
                        return f.fail("battle.pending", "must be an attack");
                    }
                    Some(p)
                }
                None => {
                    if cur.kind == BKind::Ambush {
                        return f.fail("battle", "an ambush needs its pending attack");
                    }
                    None
                }
            };
            Some(Battle { cur, pending })
        }
    };
    let mut targets = Picks::default();
    for h in {
        let items = f.list("targets", 0..=4)?;
        let mut v = Vec::new();
        for (i, x) in items.iter().enumerate() {
            let h = hex_at(&f, &format!("targets[{i}]"), x)?;
            if v.contains(&h) {
                return f.fail("targets", "repeats a hex");
            }
            v.push(h);
        }
        v
    } {
        targets.push(h as u8);
    }
    let rc = f.ints("recon", 0..=2, 0, 29)?;
    let mut recon = Picks::default();
    for (i, &k) in rc.iter().enumerate() {
        if i > 0 && rc[i - 1] > k {
            return f.fail("recon", "must be ascending");
        }
        recon.push(k as u8);
    }
    let recon_draws = f.int("recon_draws", 0, 2)? as u8;
    let draws = f.int("draws", 0, 40)? as u8;
    let drawer = seat_of("drawer")?;
    let winner = match opt(&f, "winner") {
        None => None,
        Some(v) => Some(f.int_at("winner", v, -1, 1)? as i8),
    };

    // Card counts per type add up to the deck.
    for k in 0..TYPES {
        let mut n = hands[0][k] as u32 + hands[1][k] as u32 + deck[k] as u32 + discard[k] as u32;
        n += u32::from(played == Some(k as u8));
        n += recon
            .as_slice()
            .iter()
            .filter(|&&c| c as usize == k)
            .count() as u32;
        if k == AMBUSH as usize && ambush.is_some() {
            n += 1;
        }
        if n != COUNTS[k] as u32 {
            return f.fail(
                "hands",
                format!("the cards of type {k} add up to {n}, not {}", COUNTS[k]),
            );
        }
    }
    let s = Memoir44State {
        rules: rules.clone(),
        phase,
        active,
        turns,
        units,
        wire,
        sand,
        hands,
        deck,
        discard,
        played,
        card,
        section,
        fallback,
        roll,
        last,
        medals,
        ambush,
        unit,
        battle,
        targets,
        recon,
        recon_draws,
        draws,
        drawer,
        winner,
    };
    check_context(&s, &f)?;
    Ok((s, history))
}

/// The phase's context fields are present and coherent (enough that every phase has its moves).
fn check_context(s: &Memoir44State, f: &Fields) -> Result<()> {
    let bad = |what: &str| f.fail::<()>("phase", format!("{}: {what}", s.phase.name()));
    let a = s.active as usize;
    let own_unit = |h: Option<u8>| {
        h.and_then(|h| s.unit_at(h as usize))
            .is_some_and(|u| u.seat == s.active)
    };
    let in_turn = !matches!(s.phase, Phase::Deal | Phase::Play | Phase::Over);
    if s.winner.is_some() != (s.phase == Phase::Over) {
        return bad("winner is set exactly when the game is over");
    }
    if s.phase != Phase::Over && (0..2).any(|p| s.score(p) >= s.rules.victory[p] as u32) {
        return bad("a seat holds its victory medals but the game is not over");
    }
    if s.turns[a] == 0 && !matches!(s.phase, Phase::Deal) {
        return bad("the active seat has not started a turn");
    }
    // §6.9 step 5 clears every unit's marks before the other seat's turn, and only the active seat's units
    // are ordered, moved or battle during it.
    let marked = |u: &Unit| u.ordered || u.moved > 0 || u.battles > 0 || u.no_battle || u.overrun;
    if s.units
        .iter()
        .flatten()
        .any(|u| u.seat != s.active && marked(u))
    {
        return bad("a unit not the active seat's carries this turn's marks");
    }
    if s.turns[0] as u32 + s.turns[1] as u32 > s.rules.turn_limit {
        return bad("more turns than the turn limit");
    }
    if s.battle.is_some_and(|b| {
        s.unit_at(b.cur.target as usize).is_none()
            && matches!(
                s.phase,
                Phase::Ambush | Phase::Dice | Phase::Ignore | Phase::Retreat
            )
    }) {
        return bad("the battle's target is not a unit");
    }
    let needs_card = in_turn && !matches!(s.phase, Phase::Draw | Phase::Keep);
    if needs_card && (s.card.is_none() || s.played.is_none()) {
        return bad("a turn in progress needs played and card");
    }
    if matches!(s.phase, Phase::Draw | Phase::Keep) && s.drawer.is_none() {
        return bad("a draw needs its drawer");
    }
    if matches!(s.phase, Phase::Draw | Phase::Keep)
        && s.played.is_none() != (s.drawer == Some(s.active))
    {
        // §6.9: the Ambush player's draw (steps 1, 4) comes before step 2 discards the card in play.
        return bad("a card is in play exactly while the other seat (who played Ambush) draws");
    }
    match s.phase {
        Phase::Deal => {
            if s.turns != [0, 0] || hand_size(&s.deck) == 0 {
                return bad("the deal needs turns [0,0] and cards in the deck");
            }
            let size = |p: usize| hand_size(&s.hands[p]);
            let dealt = |p: usize| s.rules.cards[p] as u32;
            if (0..2).all(|p| size(p) >= dealt(p)) {
                return bad("the hands are dealt");
            }
            if (0..2).any(|p| size(p) > dealt(p)) {
                return bad("a hand holds more cards than the scenario deals");
            }
            if size(1) > 0 && size(0) < dealt(0) {
                return bad("seat 0's hand is dealt before seat 1's");
            }
            if s.played.is_some() || s.card.is_some() {
                return bad("the deal comes before any turn");
            }
        }
        Phase::Play => {
            if hand_size(&s.hands[a]) == 0 || s.played.is_some() || s.battle.is_some() {
                return bad("a hand to play from, nothing played");
            }
        }
        Phase::Section => {
            if s.card != Some(INFANTRY_ASSAULT) {
                return bad("only for infantry_assault");
            }
        }
        Phase::Order | Phase::Move | Phase::Battle => {
            if s.unit.is_some() || s.battle.is_some() {
                return bad("no unit or battle in hand between steps");
            }
        }
        Phase::MoveTo | Phase::Target => {
            if !own_unit(s.unit) {
                return bad("unit must be an own unit");
            }
        }
        Phase::Ambush | Phase::Dice | Phase::Ignore | Phase::Retreat => {
            let Some(b) = s.battle else {
                return bad("needs a battle");
            };
            if s.phase == Phase::Dice && b.cur.dice == 0 {
                return bad("no dice left to roll");
            }
            if matches!(s.phase, Phase::Ignore | Phase::Retreat) && b.cur.dice != 0 {
                return bad("dice are still to roll");
            }
            if s.phase == Phase::Ambush && (b.cur.kind != BKind::Attack || b.cur.attacker.is_none())
            {
                return bad("an ambush answers an attack");
            }
            if matches!(s.phase, Phase::Ignore | Phase::Retreat) && b.cur.flags == 0 {
                return bad("no flag to resolve");
            }
            if matches!(b.cur.kind, BKind::Attack | BKind::Ambush) && b.cur.attacker.is_none() {
                return bad("an attack needs its attacker");
            }
            if b.cur
                .attacker
                .is_some_and(|h| s.unit_at(h as usize).is_none())
            {
                return bad("the battle's attacker is not on the board");
            }
        }
        Phase::Advance => {
            let Some(b) = s
                .battle
                .filter(|b| b.cur.kind == BKind::Attack && b.cur.close)
            else {
                return bad("needs the close attack that took the ground");
            };
            if !own_unit(s.unit) || s.unit != b.cur.attacker {
                return bad("needs the attacker");
            }
            if s.unit_at(b.cur.origin as usize).is_some() {
                return bad("the hex to take is occupied");
            }
        }
        Phase::Overrun | Phase::MoveAgain => {
            if !own_unit(s.unit) || s.battle.is_some() {
                return bad("needs its unit");
            }
        }
        Phase::AirTarget => {
            if s.battle.is_some() || s.targets.n >= 4 {
                return bad("picking with no battle, under 4 picks");
            }
        }
        Phase::BarrageTarget | Phase::MedicsTarget => {
            if s.battle.is_some() {
                return bad("no battle yet");
            }
        }
        Phase::Roll => {
            if s.roll.is_none_or(|r| r.dice == 0) {
                return bad("needs dice to roll");
            }
            if !matches!(
                s.card,
                Some(super::cards::MEDICS | super::cards::THEIR_FINEST_HOUR)
            ) {
                return bad("only for medics_and_mechanics or their_finest_hour");
            }
            if s.card == Some(super::cards::MEDICS) && !own_unit(s.unit) {
                return bad("medics needs its unit");
            }
        }
        Phase::Draw => {
            if (s.recon_draws == 0 && s.draws == 0) || hand_size(&s.deck) == 0 {
                return bad("needs a draw due and a deck");
            }
        }
        Phase::Keep => {
            if s.recon.n == 0 || s.recon_draws > 0 || s.draws > 0 {
                return bad("needs Recon's cards and nothing else due");
            }
        }
        Phase::Over => {
            let w = s.winner.unwrap_or(-1);
            let sc = [s.score(0), s.score(1)];
            let won = |p: usize| sc[p] >= s.rules.victory[p] as u32;
            let at_limit = s.turns[0] as u32 + s.turns[1] as u32 >= s.rules.turn_limit;
            let ok = match w {
                -1 => at_limit && sc[0] == sc[1],
                p => {
                    let p = p as usize;
                    won(p) || (at_limit && sc[p] > sc[1 - p])
                }
            };
            if !ok {
                return f.fail("winner", "is not what the medals say");
            }
        }
    }
    if !matches!(s.phase, Phase::Draw | Phase::Keep)
        && (!s.recon.as_slice().is_empty())
        && s.phase != Phase::Over
    {
        return bad("Recon's cards outside the draw");
    }
    Ok(())
}
