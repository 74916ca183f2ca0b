//! Observations (docs/rules/carcassonne.md §8, §11.6, §12.9): the tensor, the text views, the information
//! state and the resampling of hidden hands.

use super::princess_dragon::{MAX_EXTRA, NO_SLOT};
use super::state::{
    fig_k, fig_kind, fig_seat, CarcassonneState, Phase, BUILDER, FIGURE_NAMES, LARGE, PIG,
};
use super::tiles::{is_land, K, NONE, TMAX};
use super::Config;
use crate::{Rng, State};

/// The per-slot values the expansions add (§11.6, §12.9): the large-follower flag, the builder and pig
/// flags; the dragon, the fairy and the dragon's visit.
fn slot_extra(cfg: &Config) -> usize {
    cfg.ic as usize + 2 * cfg.tb as usize + 3 * cfg.pd as usize
}

/// The size of one extra-figure entry of §12.9: present, slot, large, feature (K), owner (n).
fn extra_entry(cfg: &Config) -> usize {
    3 + K + cfg.players
}

/// The global values the expansions add (§11.6, §12.9).
fn global_extra(cfg: &Config) -> usize {
    let n = cfg.players;
    cfg.ic as usize * n
        + cfg.tb as usize * (5 * n + 2)
        + cfg.pd as usize * (3 + n + K + MAX_EXTRA * extra_entry(cfg))
}

pub fn len(cfg: &Config) -> usize {
    let n = cfg.players;
    let t = cfg.nt;
    (cfg.r as usize + 1) * (7 + t + K + n + slot_extra(cfg)) + 4 * n + 6 + 4 * t + global_extra(cfg)
}

/// Per type: the tiles unseen by p (the pile and the other seats' hands).
pub fn unseen(s: &CarcassonneState, p: usize) -> [u32; TMAX] {
    let mut u = [0u32; TMAX];
    for t in 0..s.cfg.nt {
        u[t] = s.pile[t] as u32;
        for q in 0..s.n() {
            if q != p {
                u[t] += s.hand(q)[t] as u32;
            }
        }
    }
    u
}

pub fn tensor(s: &CarcassonneState, p: usize, out: &mut [f32]) {
    let cfg = s.cfg;
    let n = cfg.players;
    out.iter_mut().for_each(|v| *v = 0.0);
    let rel = |seat: usize| (seat + n - p % n) % n;
    let t_n = cfg.nt;
    let per = 7 + t_n + K + n + slot_extra(cfg);
    // P&D: a slot's values show the figure on its lowest feature; the others are listed globally.
    let figures = if cfg.pd && s.pd.n_extra > 0 {
        s.figures_sorted()
    } else {
        Vec::new()
    };
    let lowest = |i: usize, byte: u8| {
        figures
            .iter()
            .find(|&&(slot, _)| slot == i)
            .map_or(byte, |&(_, f)| f)
    };
    for (i, pl) in s.board.slots.iter().enumerate().take(cfg.r as usize + 1) {
        let o = &mut out[i * per..(i + 1) * per];
        o[0] = 1.0;
        o[1] = pl.x as f32;
        o[2] = pl.y as f32;
        o[3 + pl.typ as usize] = 1.0;
        o[3 + t_n + pl.rot as usize] = 1.0;
        let f = lowest(i, pl.figure);
        if cfg.pd {
            let e = per - 3;
            o[e] = (s.pd.dragon as usize == i) as u8 as f32;
            o[e + 1] = (s.pd.fairy as usize == i) as u8 as f32;
            o[e + 2] = s.pd.visited().contains(&(i as u16)) as u8 as f32;
        }
        if f != NONE {
            o[7 + t_n + fig_k(f) as usize] = 1.0;
            o[7 + t_n + K + rel(fig_seat(f))] = 1.0;
            let mut e = 7 + t_n + K + n;
            if cfg.ic {
                o[e] = (fig_kind(f) == LARGE) as u8 as f32;
                e += 1;
            }
            if cfg.tb {
                o[e] = (fig_kind(f) == BUILDER) as u8 as f32;
                o[e + 1] = (fig_kind(f) == PIG) as u8 as f32;
            }
        }
    }
    let mut g = (cfg.r as usize + 1) * per;
    for q in 0..n {
        let i = rel(q);
        out[g + i] = s.scores[q] as f32;
        out[g + n + i] = s.supply[q] as f32;
        if cfg.strategic {
            out[g + 2 * n + i] = s.hand_size(q) as f32;
        }
    }
    let cp = match s.phase {
        Phase::Select | Phase::Place | Phase::Follower | Phase::Dragon => s.current as i32,
        _ => -1,
    };
    if cp >= 0 {
        out[g + 3 * n + rel(cp as usize)] = 1.0;
    }
    g += 4 * n;
    if s.phase != Phase::Dragon {
        out[g + s.phase.index()] = 1.0;
    }
    g += 6;
    if s.phase == Phase::Place && s.tile != NONE {
        out[g + s.tile as usize] = 1.0;
    }
    g += t_n;
    let u = unseen(s, p);
    for t in 0..t_n {
        out[g + t] = u[t] as f32;
        out[g + t_n + t] = s.set_aside[t] as f32;
        out[g + 2 * t_n + t] = s.hand(p)[t] as f32;
    }
    g += 3 * t_n;
    if cfg.ic {
        for q in 0..n {
            out[g + rel(q)] = s.large_supply[q] as f32;
        }
        g += n;
    }
    if cfg.tb {
        for q in 0..n {
            let i = rel(q);
            out[g + i] = s.builder_supply[q] as f32;
            out[g + n + i] = s.pig_supply[q] as f32;
            for k in 0..3 {
                out[g + 2 * n + 3 * i + k] = s.goods[q][k] as f32;
            }
        }
        g += 5 * n;
        out[g] = s.bonus as u8 as f32;
        out[g + 1] = s.again as u8 as f32;
        g += 2;
    }
    if cfg.pd {
        let dragon_phase = s.phase == Phase::Dragon;
        out[g] = dragon_phase as u8 as f32;
        out[g + 1] = s.dragon_steps_left() as f32;
        out[g + 2] = s.volcano_on_board() as u8 as f32;
        g += 3;
        let turn = match s.phase {
            Phase::Dragon => s.pd.turn as i32,
            _ => cp,
        };
        if turn >= 0 {
            out[g + rel(turn as usize)] = 1.0;
        }
        g += n;
        if s.pd.fairy != NO_SLOT && s.pd.fairy_k != NONE {
            out[g + s.pd.fairy_k as usize] = 1.0;
        }
        g += K;
        // The figures on a slot that holds another figure on a lower feature, in (slot, k) order.
        let mut e = 0;
        for (j, &(slot, f)) in figures.iter().enumerate() {
            if j == 0 || figures[j - 1].0 != slot || e >= MAX_EXTRA {
                continue;
            }
            let o = &mut out[g + e * extra_entry(cfg)..g + (e + 1) * extra_entry(cfg)];
            o[0] = 1.0;
            o[1] = slot as f32;
            o[2] = (fig_kind(f) == LARGE) as u8 as f32;
            o[3 + fig_k(f) as usize] = 1.0;
            o[3 + K + rel(fig_seat(f))] = 1.0;
            e += 1;
        }
    }
}

fn counts_text(s: &CarcassonneState, c: &[u8]) -> String {
    let parts: Vec<String> = (0..s.cfg.nt)
        .filter(|&t| c[t] > 0)
        .map(|t| format!("{}x{}", s.tt(t as u8).name, c[t]))
        .collect();
    if parts.is_empty() {
        "-".into()
    } else {
        parts.join(" ")
    }
}

/// `viewer` None: everything (to_text).
pub fn text(s: &CarcassonneState, viewer: Option<usize>) -> String {
    let n = s.n();
    let mut out = String::new();
    if let Some(p) = viewer {
        out.push_str(&format!("seat {p}\n"));
    }
    out.push_str(&format!(
        "phase {} current {} tile {}\n",
        s.phase.name(),
        s.current,
        if s.tile == NONE {
            "-"
        } else {
            &s.tt(s.tile).name
        }
    ));
    for q in 0..n {
        let hand = if !s.cfg.strategic {
            String::new()
        } else if viewer.is_none() || viewer == Some(q) {
            format!(" hand {}", counts_text(s, s.hand(q)))
        } else {
            format!(" hand {} hidden", s.hand_size(q))
        };
        let mut more = String::new();
        if s.cfg.ic {
            more.push_str(&format!(" large {}", s.large_supply[q]));
        }
        if s.cfg.tb {
            let g = s.goods[q];
            more.push_str(&format!(
                " builder {} pig {} goods wine {} grain {} cloth {}",
                s.builder_supply[q], s.pig_supply[q], g[0], g[1], g[2]
            ));
        }
        out.push_str(&format!(
            "seat {q}: score {} followers {}{more}{hand}\n",
            s.scores[q], s.supply[q]
        ));
    }
    if s.bonus || s.again {
        out.push_str(&format!(
            "second tile: {}\n",
            if s.bonus { "this turn" } else { "next" }
        ));
    }
    if s.cfg.pd {
        let at = |slot: u16| {
            if slot == NO_SLOT {
                "off the board".to_string()
            } else {
                let p = s.board.slots[slot as usize];
                format!("at {},{}", p.x, p.y)
            }
        };
        let next_to = if s.pd.fairy_k == NONE {
            String::new()
        } else {
            format!(" next to #{}", s.pd.fairy_k)
        };
        out.push_str(&format!(
            "dragon {}{} fairy {}{next_to}\n",
            at(s.pd.dragon),
            if s.phase == Phase::Dragon {
                format!(" steps left {} turn {}", s.dragon_steps_left(), s.pd.turn)
            } else {
                String::new()
            },
            at(s.pd.fairy)
        ));
    }
    let figures = s.figures_sorted();
    for (i, pl) in s.board.slots.iter().enumerate() {
        let mut fol = String::new();
        for &(_, f) in figures.iter().filter(|&&(slot, _)| slot == i) {
            fol.push_str(&format!(
                " {} #{} seat {}",
                FIGURE_NAMES[fig_kind(f) as usize],
                fig_k(f),
                fig_seat(f)
            ));
        }
        out.push_str(&format!(
            "{} at {},{} r{}{fol}\n",
            s.tt(pl.typ).name,
            pl.x,
            pl.y,
            90 * pl.rot as u32
        ));
    }
    out.push_str(&format!("set aside {}\n", counts_text(s, &s.set_aside)));
    match viewer {
        None => out.push_str(&format!("pile {}\n", counts_text(s, &s.pile))),
        Some(p) => {
            let u = unseen(s, p);
            let total: u32 = u.iter().sum();
            out.push_str(&format!("unseen {total}\n"));
        }
    }
    out
}

pub fn information_state(s: &CarcassonneState, p: usize, history: &[u32]) -> String {
    let mut tokens: Vec<String> = Vec::with_capacity(history.len());
    let mut r = Box::new(CarcassonneState::new(s.cfg));
    for &a in history {
        let hidden = s.cfg.strategic
            && (r.phase == Phase::Deal || (r.phase == Phase::Draw && !r.river_left()))
            && r.current as usize != p;
        tokens.push(if hidden { "?".into() } else { a.to_string() });
        r.apply_unchecked(a);
    }
    format!("seat={p} history={}", tokens.join(","))
}

pub fn resample(s: &CarcassonneState, p: usize, rng: &mut Rng) -> CarcassonneState {
    let mut out = s.clone();
    if !s.cfg.strategic {
        return out;
    }
    let n = s.n();
    let nt = s.cfg.nt;
    // The land types only (river tiles are never in a hand: their pool entries stay 0).
    let mut pool = [0u32; TMAX];
    // §12.9: before the first volcano a hand cannot hold a dragon tile (those stay in the pile).
    let held_back = s.cfg.pd && !s.volcano_on_board();
    let mut kept = [0u32; TMAX];
    for t in (0..nt).filter(|&t| is_land(t)) {
        pool[t] = s.pile[t] as u32;
        for q in 0..n {
            if q != p {
                pool[t] += s.hand(q)[t] as u32;
            }
        }
        if held_back && s.tt(t as u8).dragon {
            kept[t] = std::mem::take(&mut pool[t]);
        }
    }
    let need: u32 = (0..n).filter(|&q| q != p).map(|q| s.hand_size(q)).sum();
    if pool.iter().sum::<u32>() < need {
        // Only dragon tiles were left to deal (§12.1): they are in the hands, so they go back in the pool.
        for t in 0..nt {
            pool[t] += std::mem::take(&mut kept[t]);
        }
    }
    // §8.3: in phase select the seat to move holds placeable tiles only (every other one was set aside), so
    // its hand is dealt first, from the placeable types; the other seats follow in increasing order.
    let to_move =
        (s.phase == Phase::Select && s.current as usize != p).then_some(s.current as usize);
    let order = to_move
        .into_iter()
        .chain((0..n).filter(|&q| q != p && Some(q) != to_move));
    for q in order {
        let size = s.hand_size(q);
        out.hand_mut(q).fill(0);
        for _ in 0..size {
            // (If no placeable type is left in the pool, a corner of §12.1's held-back dragon tiles, the
            // whole pool: a resample must always deal the hand.)
            let only_placeable =
                Some(q) == to_move && (0..nt).any(|t| pool[t] > 0 && s.placeable(t as u8));
            let weight = |t: usize| {
                if only_placeable && !s.placeable(t as u8) {
                    0
                } else {
                    pool[t]
                }
            };
            let total: u32 = (0..nt).map(weight).sum();
            let r = rng.below(total as u64) as u32;
            let mut run = 0;
            for t in 0..nt {
                run += weight(t);
                if run > r {
                    pool[t] -= 1;
                    out.hand_mut(q)[t] += 1;
                    break;
                }
            }
        }
    }
    for t in (0..nt).filter(|&t| is_land(t)) {
        out.pile[t] = (pool[t] + kept[t]) as u8;
    }
    out
}
