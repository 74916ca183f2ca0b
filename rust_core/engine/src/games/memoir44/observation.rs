//! The observation tensor (§6.7), the map (§6.8) and the text views.

use super::cards::{AMBUSH, KEYS, SECTIONS, TYPES};
use super::hex::NUM_HEXES;
use super::rules::{geo, hex_name, Kind, Ter};
use super::state::*;
use std::fmt::Write;

pub const LEN: usize = NUM_HEXES * 24 + 718;

pub fn tensor(s: &Memoir44State, p: usize, out: &mut [f32]) {
    let p = p & 1;
    let o = 1 - p;
    for x in out.iter_mut() {
        *x = 0.0;
    }
    let mut w = Writer { out, at: 0 };
    let r = &s.rules;
    for i in 0..NUM_HEXES {
        let t = r.terrain[i];
        w.flag(t == Ter::Village);
        w.flag(t == Ter::Forest);
        w.flag(t == Ter::Hedgerow);
        w.flag(t == Ter::Hill);
        w.flag(t == Ter::River);
        w.flag(t == Ter::Bridge);
        w.flag(s.has_wire(i));
        w.flag(s.has_sand(i));
        w.val(r.medal_tags[i][p] as f32);
        w.val(r.medal_tags[i][o] as f32);
        let u = s.unit_at(i);
        for side in [p, o] {
            match u.filter(|u| u.seat as usize == side) {
                Some(u) => {
                    w.flag(u.kind == Kind::Infantry);
                    w.flag(u.kind == Kind::Armor);
                    w.flag(u.kind == Kind::Artillery);
                    w.val(u.figures as f32);
                    w.flag(u.special);
                }
                None => w.skip(5),
            }
        }
        match u {
            Some(u) => {
                w.flag(u.ordered);
                w.val(u.moved as f32);
                w.val(u.battles as f32);
                w.flag(u.no_battle);
            }
            None => w.skip(4),
        }
    }
    w.one_hot(22, Some(s.phase.index()));
    w.flag(s.active as usize == p);
    w.flag(p == 1);
    w.flag(s.current() == p as i32);
    for k in 0..TYPES {
        w.val(s.hands[p][k] as f32);
    }
    w.val(hand_size(&s.hands[o]) as f32);
    w.val(hand_size(&s.deck) as f32);
    for k in 0..TYPES {
        w.val(s.discard[k] as f32);
    }
    w.one_hot(30, s.played.map(|k| k as usize));
    w.one_hot(30, s.card.map(|k| k as usize));
    w.one_hot(3, s.section.map(|k| k as usize));
    w.flag(s.fallback);
    let rolled = s.roll.map(|r| r.rolled).unwrap_or([0; 5]);
    for f in rolled {
        w.val(f as f32);
    }
    w.one_hot(30, s.last[p].map(|(k, _)| k as usize));
    w.one_hot(30, s.last[o].map(|(k, _)| k as usize));
    w.val(s.score(p) as f32);
    w.val(s.score(o) as f32);
    w.val(r.victory[p] as f32);
    w.val(r.victory[o] as f32);
    w.val(s.turns[p] as f32);
    w.val(s.turns[o] as f32);
    w.one_hot(NUM_HEXES, s.unit.map(|h| h as usize));
    let b = s.battle.map(|b| b.cur);
    w.one_hot(NUM_HEXES, b.map(|b| b.target as usize));
    w.one_hot(NUM_HEXES, b.and_then(|b| b.attacker.map(|a| a as usize)));
    w.one_hot(4, b.map(|b| b.kind.index()));
    w.val(b.map_or(0.0, |b| b.dice as f32));
    for f in b.map(|b| b.rolled).unwrap_or([0; 5]) {
        w.val(f as f32);
    }
    w.val(b.map_or(0.0, |b| b.flags as f32));
    w.flag(b.is_some_and(|b| b.close));
    let mut picks = [0.0f32; NUM_HEXES];
    for &h in s.targets.as_slice() {
        if let Some(x) = picks.get_mut(h as usize) {
            *x = 1.0;
        }
    }
    for x in picks {
        w.val(x);
    }
    let mut rc = [0.0f32; TYPES];
    if s.drawer == Some(p as u8) {
        for &k in s.recon.as_slice() {
            if let Some(x) = rc.get_mut(k as usize) {
                *x += 1.0;
            }
        }
    }
    for x in rc {
        w.val(x);
    }
    w.flag(s.ambush == Some(p as u8));
    w.flag(s.ambush == Some(o as u8));
}

struct Writer<'a> {
    out: &'a mut [f32],
    at: usize,
}

impl Writer<'_> {
    fn val(&mut self, v: f32) {
        if let Some(x) = self.out.get_mut(self.at) {
            *x = v;
        }
        self.at += 1;
    }
    fn flag(&mut self, b: bool) {
        self.val(if b { 1.0 } else { 0.0 });
    }
    fn skip(&mut self, n: usize) {
        self.at += n;
    }
    fn one_hot(&mut self, n: usize, k: Option<usize>) {
        if let Some(k) = k.filter(|&k| k < n) {
            if let Some(x) = self.out.get_mut(self.at + k) {
                *x = 1.0;
            }
        }
        self.at += n;
    }
}

fn hand_text(h: &[u8; TYPES]) -> String {
    let mut v = Vec::new();
    for k in 0..TYPES {
        for _ in 0..h[k] {
            v.push(KEYS[k]);
        }
    }
    if v.is_empty() {
        "-".into()
    } else {
        v.join(" ")
    }
}

/// The map (§6.8): nine rows, odd rows indented by two, each hex four characters: terrain, obstacle, unit
/// (`A` seat 0 / `X` seat 1 infantry, `T`/`Y` armor, `G`/`Z` artillery, lower case when special), figures.
/// What the map's letters mean, printed under it (§6.8).
const LEGEND: &str = "\
terrain . open V village F forest H hedgerow ^ hill ~ river = bridge
marks # wire s sandbags * medal hex
units A T G infantry armor artillery of seat 0 (bottom), X Y Z of seat 1
(top), lower case for special forces, then the figures
";

/// The hex map, four characters a hex (terrain, obstacle or medal, unit, figures), each row under its
/// number and each hex under its column, so that a hex's notation `r,c` can be read off the picture.
pub fn map(s: &Memoir44State) -> String {
    let g = geo();
    let mut out = String::from("   ");
    for c in (0..=crate::games::memoir44::MAX_COL).step_by(2) {
        let _ = write!(out, "{c:<4}");
    }
    let mut row = -1i8;
    for i in 0..NUM_HEXES {
        let h = g.hexes[i];
        if h.row != row {
            row = h.row;
            let _ = write!(out, "\n{row:>2} ");
            if row % 2 == 1 {
                out.push_str("  ");
            }
        }
        let t = match s.rules.terrain[i] {
            Ter::Village => 'V',
            Ter::Forest => 'F',
            Ter::Hedgerow => 'H',
            Ter::Hill => '^',
            Ter::River => '~',
            Ter::Bridge => '=',
            Ter::Open => '.',
        };
        let ob = if s.has_wire(i) {
            '#'
        } else if s.has_sand(i) {
            's'
        } else if s.rules.medal_tags[i].iter().any(|&m| m > 0) {
            '*'
        } else {
            ' '
        };
        let (uc, fc) = match s.unit_at(i) {
            Some(u) => {
                let c = match (u.kind, u.seat) {
                    (Kind::Infantry, 0) => 'A',
                    (Kind::Infantry, _) => 'X',
                    (Kind::Armor, 0) => 'T',
                    (Kind::Armor, _) => 'Y',
                    (Kind::Artillery, 0) => 'G',
                    (Kind::Artillery, _) => 'Z',
                };
                let c = if u.special { c.to_ascii_lowercase() } else { c };
                (c, char::from(b'0' + u.figures.min(9)))
            }
            None => (' ', ' '),
        };
        let _ = write!(out, "{t}{ob}{uc}{fc}");
    }
    out.push('\n');
    out.push_str(LEGEND);
    out
}

fn common(s: &Memoir44State, hands: [Option<usize>; 2]) -> String {
    let mut out = map(s);
    let _ = writeln!(
        out,
        "phase {} active {} turns {},{} medals {},{} (need {},{})",
        s.phase.name(),
        s.active,
        s.turns[0],
        s.turns[1],
        s.score(0),
        s.score(1),
        s.rules.victory[0],
        s.rules.victory[1]
    );
    for p in 0..2 {
        match hands[p] {
            Some(_) => {
                let _ = writeln!(out, "hand {p}: {}", hand_text(&s.hands[p]));
            }
            None => {
                let _ = writeln!(out, "hand {p}: {} cards", hand_size(&s.hands[p]));
            }
        }
    }
    let _ = writeln!(
        out,
        "deck {} discard {}",
        hand_size(&s.deck),
        hand_text(&s.discard)
    );
    let name = |k: Option<u8>| k.map_or("-", |k| KEYS.get(k as usize).copied().unwrap_or("?"));
    let _ = write!(out, "played {} card {}", name(s.played), name(s.card));
    if let Some(sec) = s.section {
        let _ = write!(out, " section {}", SECTIONS[sec as usize % 3]);
    }
    if s.fallback {
        out.push_str(" fallback");
    }
    out.push('\n');
    if let Some(r) = s.roll {
        let _ = writeln!(out, "roll dice {} rolled {:?}", r.dice, r.rolled);
    }
    if let Some(u) = s.unit {
        let _ = writeln!(out, "unit {}", hex_name(u as usize));
    }
    if let Some(b) = s.battle {
        let f = b.cur;
        let _ = writeln!(
            out,
            "battle {} {} -> {} dice {} rolled {:?} flags {}",
            BKINDS[f.kind.index()].1,
            f.attacker.map_or("-".into(), |a| hex_name(a as usize)),
            hex_name(f.target as usize),
            f.dice,
            f.rolled,
            f.flags
        );
    }
    if s.targets.n > 0 {
        let t: Vec<String> = s
            .targets
            .as_slice()
            .iter()
            .map(|&h| hex_name(h as usize))
            .collect();
        let _ = writeln!(out, "targets {}", t.join(" "));
    }
    if let Some(w) = s.winner {
        let _ = writeln!(out, "winner {w}");
    }
    let _ = AMBUSH;
    out
}

/// The Recon pair awaiting `keep`, if any (seen by its drawer only).
fn recon_line(out: &mut String, s: &Memoir44State) {
    if s.recon.n > 0 {
        let r: Vec<&str> = s
            .recon
            .as_slice()
            .iter()
            .map(|&k| KEYS[k as usize % TYPES])
            .collect();
        let _ = writeln!(out, "recon {}", r.join(" "));
    }
}

pub fn observation_string(s: &Memoir44State, p: usize) -> String {
    let p = p & 1;
    let mut hands = [None, None];
    hands[p] = Some(p);
    let mut out = common(s, hands);
    if s.drawer == Some(p as u8) {
        recon_line(&mut out, s);
    }
    let _ = writeln!(out, "you are seat {p}");
    out
}

pub fn to_text(s: &Memoir44State) -> String {
    let mut out = common(s, [Some(0), Some(1)]);
    recon_line(&mut out, s);
    out
}
