//! What a seat sees (docs/rules/nidavellir.md §7): the tensor, the strings, and the redeal of hidden coins.

use super::data::*;
use super::state::{NidavellirState, Phase, Word, PHASES, TV_PHASES};
use crate::Rng;
use std::fmt::Write;

pub const GLOBAL: usize = 225;
/// Values per seat (§7.1).
pub const PER_SEAT: usize = 214;
const _: () = assert!(GLOBAL + 2 + PER_SEAT == 441);

pub fn len(n: usize) -> usize {
    GLOBAL + 216 * n
}

/// Thingvellir's global values and values per seat (thingvellir.md §7).
pub const TV_GLOBAL: usize = 12 + 24 + 24 + 1 + 6;
pub const TV_PER_SEAT: usize = 24 + 1 + 6 + 12 + 1 + 5;
const _: () = assert!(GLOBAL + TV_GLOBAL == 292 && 216 + TV_PER_SEAT == 265);

/// The tensor's length for these rules.
pub fn len_for(rules: &super::Rules) -> usize {
    let n = rules.n();
    len(n)
        + if rules.thingvellir {
            TV_GLOBAL + TV_PER_SEAT * n
        } else {
            0
        }
}

fn write_tv(s: &NidavellirState, p: usize, out: &mut [f32]) {
    let n = s.n();
    let mut i = 0usize;
    if let Some(k) = TV_PHASES.iter().position(|&q| q == s.phase) {
        out[i + k] = 1.0;
    }
    i += 12;
    for m in 0..CAMP_CARDS {
        out[i + m] = (s.camp >> m & 1) as f32;
        out[i + 24 + m] = (s.camp_deck >> m & 1) as f32;
    }
    i += 48;
    out[i] = s.camp_visited as u8 as f32;
    i += 1;
    for h in 0..TV_HEROES {
        out[i + h] = (s.tv_heroes_left >> h & 1) as f32;
    }
    i += TV_HEROES;
    for r in 0..n {
        let seat = &s.seats[(p + r) % n];
        for m in 0..CAMP_CARDS {
            out[i + m] = (seat.camp_cards >> m & 1) as f32;
        }
        i += CAMP_CARDS;
        out[i] = seat.zolkur as u8 as f32;
        i += 1;
        for h in 0..TV_HEROES {
            out[i + h] = (seat.tv_heroes >> h & 1) as f32;
        }
        i += TV_HEROES;
        for j in 0..CLASSES {
            for &e in seat.col(j) {
                match e {
                    46..=57 => out[i + (e - MERCENARY_ENTRY) as usize] = 1.0,
                    VEGVISIR_ENTRY => out[i + MERCENARIES] = 1.0,
                    44 | 45 => out[i + MERCENARIES + 1 + j] += 1.0,
                    _ => {}
                }
            }
        }
        i += MERCENARIES + 1 + CLASSES;
    }
    debug_assert_eq!(i, TV_GLOBAL + TV_PER_SEAT * n);
}

pub fn phase_index(p: Phase) -> Option<usize> {
    PHASES.iter().position(|&q| q == p)
}

/// Whether observer p sees seat q's bid slot t.
pub fn slot_visible(s: &NidavellirState, p: usize, q: usize, t: usize) -> bool {
    q == p || t < s.revealed as usize || s.seats[q].shown_bids[t]
}

pub fn write(s: &NidavellirState, p: usize, out: &mut [f32]) {
    let n = s.n();
    let total = len(n);
    let full = len_for(&s.rules);
    out.iter_mut().take(full).for_each(|o| *o = 0.0);
    if out.len() < full || p >= n {
        return;
    }
    if s.tv() {
        write_tv(s, p, &mut out[total..full]);
    }
    let mut i = 0usize;
    if let Some(k) = phase_index(s.phase) {
        out[i + k] = 1.0;
    }
    i += 15;
    out[i + (s.age as usize).clamp(1, 2) - 1] = 1.0;
    i += 2;
    out[i + (s.turn as usize).min(3)] = 1.0;
    i += 4;
    if s.tavern >= 0 {
        out[i + (s.tavern as usize).min(2)] = 1.0;
    }
    i += 3;
    for t in 0..TAVERNS {
        for k in 0..KINDS {
            out[i + k] = s.taverns[t][k] as f32;
        }
        i += KINDS;
    }
    // Interpretation 11: the Pioneer's drawn cards count in the Age II deck for everyone else.
    let hide_drawn = s.pioneer() != Some(p);
    for a in 0..2 {
        for k in 0..KINDS {
            let extra = if a == 1 && hide_drawn { s.drawn[k] } else { 0 };
            out[i + k] = (s.decks[a][k] + extra) as f32;
        }
        i += KINDS;
    }
    for k in 0..KINDS {
        out[i + k] = s.discard[k] as f32;
    }
    i += KINDS;
    for v in 0..TREASURE_VALUES {
        out[i + v] = s.treasure[v] as f32;
    }
    i += TREASURE_VALUES;
    for h in 0..HEROES {
        out[i + h] = s.heroes_left[h] as f32;
    }
    i += HEROES;
    if s.phase == Phase::Transform {
        out[i] = s.front().map_or(0, |it| it.arg.max(0)) as f32;
    }
    i += 1;
    if s.phase == Phase::Discard {
        let seat = s.current;
        out[i] = s
            .queue()
            .iter()
            .take_while(|it| it.word == Word::Discard && it.seat == seat)
            .count() as f32;
    }
    i += 1;
    if s.pioneer() == Some(p) {
        for k in 0..KINDS {
            out[i + k] = s.drawn[k] as f32;
        }
    }
    i += KINDS;
    let rel = |q: usize| (q + n - p) % n;
    let cur = s.current;
    if cur >= 0 && !matches!(s.phase, Phase::Over) && (cur as usize) < n {
        let is_chance = matches!(
            s.phase,
            Phase::Gems | Phase::Fill | Phase::PioneerDraw | Phase::PioneerBurn
        );
        if !is_chance {
            out[i + rel(cur as usize)] = 1.0;
        }
    }
    i += n;
    for k in 0..(s.order_pos as usize).min(s.order_len as usize).min(5) {
        let q = s.order[k] as usize;
        if q < n {
            out[i + rel(q)] = 1.0;
        }
    }
    i += n;
    debug_assert_eq!(i, GLOBAL + 2 * n);
    for r in 0..n {
        let q = (p + r) % n;
        let seat = &s.seats[q];
        if (1..=6).contains(&seat.gem) {
            out[i + seat.gem as usize - 1] = 1.0;
        }
        i += 6;
        let owned = seat.owned();
        for c in 0..COINS {
            out[i + c] = owned[c] as f32;
        }
        i += COINS;
        for t in 0..3 {
            let b = seat.bids[t];
            if (b as usize) < COINS {
                if slot_visible(s, p, q, t) {
                    out[i + b as usize] = 1.0;
                } else {
                    out[i + COINS] = 1.0;
                }
            }
            i += COINS + 1;
        }
        let visible = if q == p { &seat.hand } else { &seat.shown_hand };
        for c in 0..COINS {
            out[i + c] = visible[c] as f32;
        }
        i += COINS;
        out[i] = seat.hand_count() as f32;
        i += 1;
        for j in 0..CLASSES {
            for &e in seat.col(j) {
                if (e as usize) < DWARF_KINDS {
                    out[i + e as usize] += 1.0;
                }
            }
        }
        i += KINDS;
        for j in 0..CLASSES {
            out[i + j] = seat.col_ranks(j, false) as f32;
        }
        i += CLASSES;
        for j in 0..CLASSES {
            out[i + j] = seat.col_points(j) as f32;
        }
        i += CLASSES;
        for h in 0..HEROES {
            out[i + h] = seat.heroes[h] as f32;
        }
        i += HEROES;
        out[i] = (0..CLASSES).any(|j| seat.col(j).contains(&SPECIAL_BLACKSMITH)) as u8 as f32;
        i += 1;
        for at in [seat.thrud, seat.ylud] {
            match at {
                0..=4 => out[i + at as usize] = 1.0,
                6 => out[i + 5] = 1.0,
                _ => {}
            }
            i += 6;
        }
        for di in 0..CLASSES {
            out[i + di] = (s.distinctions[di] == q as i8) as u8 as f32;
        }
        i += CLASSES;
        out[i] = s.value(q) as f32;
        i += 1;
    }
    debug_assert_eq!(i, total);
}

fn coins_text(counts: &[u8; COINS]) -> String {
    let d = data();
    let mut parts = Vec::new();
    for c in 0..COINS {
        for _ in 0..counts[c] {
            parts.push(d.coin_keys[c].as_str());
        }
    }
    parts.join(" ")
}

fn entry_text(e: u8) -> String {
    let d = data();
    match e {
        e if (e as usize) < KINDS => d.kind_keys[e as usize].clone(),
        30..=39 => d.hero_keys[(e - HERO_ENTRY) as usize].clone(),
        SPECIAL_BLACKSMITH => "armorer".into(),
        THRUD_ENTRY => "thrud".into(),
        YLUD_ENTRY => "ylud".into(),
        43..=57 => super::notation::entry_name(e as u32),
        _ => "?".into(),
    }
}

fn picture(s: &NidavellirState, p: Option<usize>) -> String {
    let d = data();
    let n = s.n();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "age {} turn {} tavern {} phase {:?} current {}",
        s.age, s.turn, s.tavern, s.phase, s.current
    );
    for t in 0..TAVERNS {
        let cards: Vec<String> = (0..KINDS)
            .flat_map(|k| std::iter::repeat_n(d.kind_keys[k].clone(), s.taverns[t][k] as usize))
            .collect();
        let _ = writeln!(out, "{}: {}", d.tavern_keys[t], cards.join(" "));
    }
    for q in 0..n {
        let seat = &s.seats[q];
        let bids: Vec<String> = (0..3)
            .map(|t| {
                let b = seat.bids[t];
                if (b as usize) >= COINS {
                    "-".into()
                } else if p.is_none_or(|p| slot_visible(s, p, q, t)) {
                    d.coin_keys[b as usize].clone()
                } else {
                    "?".into()
                }
            })
            .collect();
        let hand = if p.is_none_or(|p| p == q) {
            coins_text(&seat.hand)
        } else {
            format!(
                "{} coins, shown: {}",
                seat.hand_count(),
                coins_text(&seat.shown_hand)
            )
        };
        let _ = writeln!(
            out,
            "seat {q}: gem {} bids [{}] hand [{}] score {}",
            seat.gem,
            bids.join(" "),
            hand,
            s.value(q)
        );
        for j in 0..CLASSES {
            let col: Vec<String> = seat.col(j).iter().map(|&e| entry_text(e)).collect();
            let _ = writeln!(out, "  {}: {}", d.class_keys[j], col.join(" "));
        }
        let heroes: Vec<String> = (0..HEROES)
            .filter(|&h| seat.heroes[h] > 0)
            .map(|h| format!("{}x{}", d.hero_keys[h], seat.heroes[h]))
            .collect();
        let _ = writeln!(out, "  heroes: {}", heroes.join(" "));
        if s.tv() {
            let tv = &d.tv;
            let tvh: Vec<&str> = (HEROES..ALL_HEROES)
                .filter(|&h| seat.has_tv_hero(h))
                .map(|h| tv.hero_keys[h - HEROES].as_str())
                .collect();
            let zone: Vec<&str> = (0..CAMP_CARDS)
                .filter(|&m| seat.has_camp(m))
                .map(|m| tv.camp_keys[m].as_str())
                .collect();
            let _ = writeln!(
                out,
                "  thingvellir heroes: {} command zone: {}{}",
                tvh.join(" "),
                zone.join(" "),
                if seat.zolkur { " (zolkur pending)" } else { "" }
            );
        }
    }
    if s.tv() {
        let tv = &d.tv;
        let camp: Vec<&str> = (0..CAMP_CARDS)
            .filter(|&m| s.camp >> m & 1 == 1)
            .map(|m| tv.camp_keys[m].as_str())
            .collect();
        let _ = writeln!(
            out,
            "camp: {} (deck {}, visited {})",
            camp.join(" "),
            s.camp_deck.count_ones(),
            s.camp_visited
        );
    }
    let queue: Vec<String> = s
        .queue()
        .iter()
        .map(|it| format!("{:?} {} {}", it.word, it.seat, it.arg))
        .collect();
    let _ = writeln!(out, "queue: {}", queue.join(", "));
    out
}

pub fn observation_string(s: &NidavellirState, p: usize) -> String {
    format!("seat {p}\n{}", picture(s, Some(p)))
}

pub fn to_text(s: &NidavellirState) -> String {
    picture(s, None)
}

pub fn information_state_string(s: &NidavellirState, p: usize, history: &[u32]) -> String {
    let n = s.n();
    let mut hidden = vec![false; history.len()];
    if s.bid_start >= 0 {
        let bidders: Vec<usize> = (0..n).filter(|&q| q as i8 != s.uline_bidder).collect();
        for k in 0..3 * bidders.len() {
            let pos = s.bid_start as usize + k;
            if pos >= hidden.len() {
                break;
            }
            let q = bidders[k / 3];
            if q != p && k % 3 >= s.revealed as usize {
                hidden[pos] = true;
            }
        }
    }
    if s.pioneer_at >= 0 && s.pioneer() != Some(p) {
        for pos in s.pioneer_at as usize..s.pioneer_at as usize + 3 {
            if pos < hidden.len() {
                hidden[pos] = true;
            }
        }
    }
    let ids: Vec<String> = history
        .iter()
        .zip(&hidden)
        .map(|(a, &h)| if h { "?".to_string() } else { a.to_string() })
        .collect();
    format!("seat={p} history={}", ids.join(","))
}

pub fn resample(s: &NidavellirState, p: usize, rng: &mut Rng) -> NidavellirState {
    let mut out = *s;
    let n = s.n();
    for q in 0..n {
        if q == p {
            continue;
        }
        let seat = &mut out.seats[q];
        let slots: Vec<usize> = (0..3)
            .filter(|&t| {
                t >= s.revealed as usize && (seat.bids[t] as usize) < COINS && !seat.shown_bids[t]
            })
            .collect();
        let mut pool: Vec<u8> = slots.iter().map(|&t| seat.bids[t]).collect();
        let mut kept = [0u8; COINS];
        for c in 0..COINS {
            kept[c] = seat.shown_hand[c].min(seat.hand[c]);
            for _ in kept[c]..seat.hand[c] {
                pool.push(c as u8);
            }
        }
        pool.sort_unstable();
        for &t in &slots {
            let i = rng.below(pool.len() as u64) as usize;
            seat.bids[t] = pool.remove(i);
        }
        let mut hand = kept;
        for c in pool {
            hand[c as usize] += 1;
        }
        seat.hand = hand;
    }
    if matches!(s.phase, Phase::PioneerDraw | Phase::PioneerKeep) && s.pioneer() != Some(p) {
        let k: u32 = out.drawn.iter().map(|&c| c as u32).sum();
        for i in 0..KINDS {
            out.decks[1][i] += out.drawn[i];
        }
        out.drawn = [0; KINDS];
        for _ in 0..k {
            let total: u64 = out.decks[1].iter().map(|&c| c as u64).sum();
            if total == 0 {
                break;
            }
            let r = rng.below(total);
            let mut run = 0u64;
            for i in 0..KINDS {
                run += out.decks[1][i] as u64;
                if run > r {
                    out.decks[1][i] -= 1;
                    out.drawn[i] += 1;
                    break;
                }
            }
        }
    }
    out
}
