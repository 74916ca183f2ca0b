//! Observation tensor (§15.5), texts, information state (§15.4) and resampling (§10).

use super::data::*;
use super::notation::*;
use super::state::{Phase, VitState, MAXP, NONE, PHASE_NAMES};
use super::OBS_LEN;
use crate::Rng;

pub const SEAT_LEN: usize = 279;

struct W<'a> {
    out: &'a mut [f32],
    i: usize,
}

impl W<'_> {
    #[inline]
    fn put(&mut self, x: f32) {
        if self.i < self.out.len() {
            self.out[self.i] = x;
        }
        self.i += 1;
    }
    fn b(&mut self, x: bool) {
        self.put(x as u8 as f32);
    }
    fn one_hot(&mut self, n: usize, at: Option<usize>) {
        for j in 0..n {
            self.b(at == Some(j));
        }
    }
    fn bits(&mut self, bits: u16) {
        for v in 0..9 {
            self.b(bits & (1 << v) != 0);
        }
    }
}

pub fn tensor(s: &VitState, p: usize, out: &mut [f32]) {
    for x in out.iter_mut() {
        *x = 0.0;
    }
    let n = s.n();
    if p >= n {
        return;
    }
    let mut w = W { out, i: 0 };
    for j in 0..MAXP {
        let start = j * SEAT_LEN;
        w.i = start;
        if j >= n {
            continue;
        }
        let q = (p + j) % n;
        let st = &s.seats[q];
        w.put(st.vp as f32);
        w.put(st.lira as f32);
        w.put(st.residual as f32);
        w.put(st.regular as f32);
        w.put(st.trained as f32);
        w.b(s.temp == q as i8);
        w.put(s.regular_avail(q) as f32);
        w.b(s.grande_avail(q));
        for i in 0..STRUCTURES {
            w.b(st.has(i));
        }
        for f in 0..3 {
            let fl = &st.fields[f];
            w.b(fl.owned);
            w.b(fl.harvested);
            w.b(fl.over);
            for v in 0..VINES {
                w.put(fl.vines[v] as f32);
            }
        }
        w.bits(st.crush[0]);
        w.bits(st.crush[1]);
        for t in 0..4 {
            w.bits(st.cellar[t]);
        }
        for deck in 0..4 {
            w.put(st.hand_of(deck) as f32);
        }
        let row = s.rows[q];
        w.one_hot(
            7,
            if row == 0 {
                None
            } else {
                Some(row as usize - 1)
            },
        );
        w.b(s.passed[q]);
        w.b(st.windmill_used);
        w.b(st.tasting_used);
        w.b(st.yoke_used);
        w.one_hot(18, (st.mama != NONE).then_some(st.mama as usize));
        w.one_hot(18, (st.papa != NONE).then_some(st.papa as usize));
        for k in 0..KINDS {
            let c = if q == p {
                st.hand[k]
            } else {
                s.seats[p].known[q][k]
            };
            w.put(c as f32);
        }
        // The listed parts add to 278: the seat's placements this season close the block (§15.5 as amended).
        w.put(s.placements[q] as f32);
    }
    w.i = MAXP * SEAT_LEN;
    w.put(s.year as f32);
    w.one_hot(7, Some(s.phase.index()));
    w.one_hot(6, Some((s.first as usize + n - p) % n));
    for deck in 0..4 {
        w.put(s.deck_size(deck) as f32);
    }
    for deck in 0..4 {
        let mut c = [0u8; KINDS];
        for i in 0..s.discard_len[deck] as usize {
            let k = s.discards[deck][i] as usize;
            if k < KINDS {
                c[k] += 1;
            }
        }
        for k in 0..KINDS {
            w.put(c[k] as f32);
        }
    }
    for deck in 0..4 {
        let l = s.discard_len[deck] as usize;
        let top = (l > 0).then(|| s.discards[deck][l - 1] as usize);
        w.one_hot(KINDS, top);
    }
    for a in 0..12 {
        let mut c = [[0u8; 3]; MAXP];
        for i in 0..s.board_len[a] as usize {
            let e = s.board[a][i];
            let q = (e & 7) as usize;
            let space = ((e >> 3) & 3) as usize;
            if q < n && space < 3 {
                c[(q + n - p) % n][space] += 1;
            }
        }
        for row in c {
            for x in row {
                w.put(x as f32);
            }
        }
    }
    for j in 0..MAXP {
        w.put(if j < n {
            s.seats[(p + j) % n].cart as f32
        } else {
            0.0
        });
    }
    let mut res = [[0u8; 6]; MAXP];
    for i in 0..s.planned_len as usize {
        let [q, a, _, _] = s.planned[i];
        let (q, a) = (q as usize, a as usize);
        if q < n && (6..12).contains(&a) {
            res[(q + n - p) % n][a - 6] += 1;
        }
    }
    for row in res {
        for x in row {
            w.put(x as f32);
        }
    }
    let cur = s.current();
    w.one_hot(6, (cur >= 0).then(|| (cur as usize + n - p) % n));
    w.b(cur == crate::CHANCE);
    w.one_hot(76, s.in_play());
    w.b(s.end_flag);
    debug_assert_eq!(w.i, OBS_LEN);
}

fn wines(bits: u16, letter: char) -> String {
    let v: Vec<String> = (1..=9)
        .filter(|v| bits & (1 << (v - 1)) != 0)
        .map(|v| format!("{letter}{v}"))
        .collect();
    v.join(" ")
}

fn seat_line(s: &VitState, q: usize, p: Option<usize>) -> String {
    let d = data();
    let st = &s.seats[q];
    let mut t = format!(
        "seat {q}: vp {} lira {} residual {} workers {}+{} grande {} row {} {}",
        st.vp,
        st.lira,
        st.residual,
        st.regular,
        st.trained,
        if st.grande_placed { "placed" } else { "home" },
        s.rows[q],
        if s.passed[q] { "passed" } else { "" }
    );
    let built: Vec<&str> = (0..STRUCTURES)
        .filter(|&i| st.has(i))
        .map(|i| d.structure_keys[i].as_str())
        .collect();
    t += &format!("\n  structures: {}", built.join(" "));
    for f in 0..3 {
        let fl = &st.fields[f];
        let vines: Vec<String> = (0..VINES)
            .filter(|&v| fl.vines[v] > 0)
            .map(|v| format!("{}x{}", d.vines[v].key, fl.vines[v]))
            .collect();
        t += &format!(
            "\n  field {}: {}{}{} {}",
            d.fields[f],
            if fl.owned { "owned" } else { "sold" },
            if fl.harvested { " harvested" } else { "" },
            if fl.over { " over" } else { "" },
            vines.join(" ")
        );
    }
    t += &format!(
        "\n  crush: {} | {}",
        wines(st.crush[0], 'r'),
        wines(st.crush[1], 'w')
    );
    t += &format!(
        "\n  cellar: {} | {} | {} | {}",
        wines(st.cellar[0], 'r'),
        wines(st.cellar[1], 'w'),
        wines(st.cellar[2], 'b'),
        wines(st.cellar[3], 's')
    );
    t += &format!(
        "\n  hand: {} vine {} summer {} order {} winter",
        st.hand_of(0),
        st.hand_of(1),
        st.hand_of(2),
        st.hand_of(3)
    );
    let show = |counts: &[u8; KINDS]| -> String {
        (0..KINDS)
            .filter(|&k| counts[k] > 0)
            .map(|k| format!("{}x{}", d.kind_names[k], counts[k]))
            .collect::<Vec<_>>()
            .join(" ")
    };
    match p {
        Some(p) if p == q => t += &format!("\n  cards: {}", show(&st.hand)),
        Some(p) => {
            let k = show(&s.seats[p].known[q]);
            if !k.is_empty() {
                t += &format!("\n  known: {k}");
            }
        }
        None => t += &format!("\n  cards: {}", show(&st.hand)),
    }
    t
}

fn table_text(s: &VitState) -> String {
    let d = data();
    let mut t = format!(
        "year {} {} first {} decks {} {} {} {}",
        s.year,
        PHASE_NAMES[s.phase.index()],
        s.first,
        s.deck_size(0),
        s.deck_size(1),
        s.deck_size(2),
        s.deck_size(3)
    );
    for deck in 0..4 {
        let l = s.discard_len[deck] as usize;
        let pile: Vec<&str> = (0..l)
            .map(|i| d.kind_names[(s.discards[deck][i] as usize).min(KINDS - 1)].as_str())
            .collect();
        t += &format!("\ndiscard {}: {}", DECK_NAMES[deck], pile.join(" "));
    }
    for a in 0..12 {
        if s.board_len[a] > 0 {
            let e: Vec<String> = (0..s.board_len[a] as usize)
                .map(|i| {
                    let e = s.board[a][i];
                    format!(
                        "{}{}{}",
                        e & 7,
                        ["p", "b", "o"][(((e >> 3) & 3) as usize).min(2)],
                        if (e >> 5) & 1 == 1 { "g" } else { "r" }
                    )
                })
                .collect();
            t += &format!("\n{}: {}", ACTION_KEYS[a], e.join(" "));
        }
    }
    if let Some(c) = s.in_play() {
        t += &format!("\nin play: {}", d.visitors[c].key);
    }
    if s.end_flag {
        t += "\nend flag";
    }
    t
}

pub fn text(s: &VitState, p: usize) -> String {
    let mut t = table_text(s);
    for q in 0..s.n() {
        t += "\n";
        t += &seat_line(s, q, Some(p));
    }
    t
}

pub fn full_text(s: &VitState) -> String {
    let mut t = table_text(s);
    for q in 0..s.n() {
        t += "\n";
        t += &seat_line(s, q, None);
    }
    t
}

pub fn info_string(s: &VitState, p: usize, history: &[u32]) -> String {
    let mut t = text(s, p);
    t += "\nhistory:";
    let Ok(((_, seen, _), chance)) = super::serial::replay_full(s, history) else {
        return t;
    };
    for (i, &a) in history.iter().enumerate() {
        let (mask, chance) = (seen[i], chance[i]);
        let word = if mask == 0 || mask & (1 << p) != 0 {
            if chance {
                chance_text(a)
            } else {
                action_text(a)
            }
            .unwrap_or_else(|_| "?".into())
        } else {
            let k = if chance {
                a as usize
            } else {
                a.saturating_sub(A_CARD) as usize
            };
            format!(
                "{} {}",
                if chance { "draws" } else { "gives" },
                type_word(k)
            )
        };
        t += "\n";
        t += &word;
    }
    t
}

/// §10: deal the unknown cards again, per deck type.
pub fn resample(s: &VitState, p: usize, rng: &mut Rng) -> VitState {
    let mut out = s.clone();
    let n = s.n();
    if p >= n {
        return out;
    }
    for deck in 0..4 {
        let kinds = kinds_of(deck);
        let mut pool = [0u32; KINDS];
        let mut slots = [0u32; MAXP];
        for k in kinds.clone() {
            pool[k] += s.decks[deck][k] as u32;
        }
        for j in 1..n {
            let q = (p + j) % n;
            for k in kinds.clone() {
                let held = s.seats[q].hand[k];
                let known = s.seats[p].known[q][k].min(held);
                let unknown = (held - known) as u32;
                pool[k] += unknown;
                slots[q] += unknown;
                out.seats[q].hand[k] = known;
            }
        }
        for j in 1..n {
            let q = (p + j) % n;
            for _ in 0..slots[q] {
                let total: u32 = kinds.clone().map(|k| pool[k]).sum();
                if total == 0 {
                    break;
                }
                let r = rng.below(total as u64) as u32;
                let mut run = 0;
                for k in kinds.clone() {
                    run += pool[k];
                    if run > r {
                        pool[k] -= 1;
                        out.seats[q].hand[k] += 1;
                        break;
                    }
                }
            }
        }
        for k in kinds {
            out.decks[deck][k] = pool[k] as u8;
        }
    }
    let _ = Phase::Over;
    out
}
