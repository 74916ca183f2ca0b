//! Observations (docs/rules/carcassonne.md §8): the tensor, the text views, the information state and the
//! resampling of hidden hands.

use super::state::{CarcassonneState, Phase};
use super::tiles::{tiles, K, LAND, NONE, T};
use super::Config;
use crate::{Rng, State};

pub fn len(cfg: &Config) -> usize {
    let n = cfg.players;
    (cfg.r as usize + 1) * (7 + T + K + n) + 4 * n + 6 + 4 * T
}

/// Per type: the tiles unseen by p (the pile and the other seats' hands).
pub fn unseen(s: &CarcassonneState, p: usize) -> [u32; T] {
    let mut u = [0u32; T];
    for t in 0..T {
        u[t] = s.pile[t] as u32;
        for q in 0..s.n() {
            if q != p {
                u[t] += s.hands[q][t] as u32;
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
    let per = 7 + T + K + n;
    for (i, pl) in s.board.slots.iter().enumerate().take(cfg.r as usize + 1) {
        let o = &mut out[i * per..(i + 1) * per];
        o[0] = 1.0;
        o[1] = pl.x as f32;
        o[2] = pl.y as f32;
        o[3 + pl.typ as usize] = 1.0;
        o[3 + T + pl.rot as usize] = 1.0;
        let f = s.board.slots[i].follower;
        if f != NONE {
            o[7 + T + (f / 8) as usize] = 1.0;
            o[7 + T + K + rel((f % 8) as usize)] = 1.0;
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
        Phase::Select | Phase::Place | Phase::Follower => s.current as i32,
        _ => -1,
    };
    if cp >= 0 {
        out[g + 3 * n + rel(cp as usize)] = 1.0;
    }
    g += 4 * n;
    out[g + s.phase.index()] = 1.0;
    g += 6;
    if s.phase == Phase::Place && s.tile != NONE {
        out[g + s.tile as usize] = 1.0;
    }
    g += T;
    let u = unseen(s, p);
    for t in 0..T {
        out[g + t] = u[t] as f32;
        out[g + T + t] = s.set_aside[t] as f32;
        out[g + 2 * T + t] = s.hands[p][t] as f32;
    }
}

fn counts_text(c: &[u8; T]) -> String {
    let parts: Vec<String> = (0..T)
        .filter(|&t| c[t] > 0)
        .map(|t| format!("{}x{}", tiles()[t].name, c[t]))
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
            &tiles()[s.tile as usize].name
        }
    ));
    for q in 0..n {
        let hand = if !s.cfg.strategic {
            String::new()
        } else if viewer.is_none() || viewer == Some(q) {
            format!(" hand {}", counts_text(&s.hands[q]))
        } else {
            format!(" hand {} hidden", s.hand_size(q))
        };
        out.push_str(&format!(
            "seat {q}: score {} followers {}{hand}\n",
            s.scores[q], s.supply[q]
        ));
    }
    for (i, pl) in s.board.slots.iter().enumerate() {
        let f = s.board.slots[i].follower;
        let fol = if f == NONE {
            String::new()
        } else {
            format!(" follower #{} seat {}", f / 8, f % 8)
        };
        out.push_str(&format!(
            "{} at {},{} r{}{fol}\n",
            tiles()[pl.typ as usize].name,
            pl.x,
            pl.y,
            90 * pl.rot as u32
        ));
    }
    out.push_str(&format!("set aside {}\n", counts_text(&s.set_aside)));
    match viewer {
        None => out.push_str(&format!("pile {}\n", counts_text(&s.pile))),
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
    let mut pool = [0u32; LAND];
    for t in 0..LAND {
        pool[t] = s.pile[t] as u32;
        for q in 0..n {
            if q != p {
                pool[t] += s.hands[q][t] as u32;
            }
        }
    }
    for q in 0..n {
        if q == p {
            continue;
        }
        let size = s.hand_size(q);
        out.hands[q] = [0; T];
        for _ in 0..size {
            let total: u32 = pool.iter().sum();
            let r = rng.below(total as u64) as u32;
            let mut run = 0;
            for t in 0..LAND {
                run += pool[t];
                if run > r {
                    pool[t] -= 1;
                    out.hands[q][t] += 1;
                    break;
                }
            }
        }
    }
    for t in 0..LAND {
        out.pile[t] = pool[t] as u8;
    }
    out
}
