//! The observation tensor and the text views (docs/rules/caboodle.md §8).

use super::state::{CaboodleState, Phase};
use super::tiles::T;
use super::Config;
use std::fmt::Write;

fn slot_len(cfg: &Config) -> usize {
    7 + T + 4 * cfg.tiles.shapes.len()
}

/// `T x B + 3n + 10 + 3T`.
pub fn len(cfg: &Config) -> usize {
    T * slot_len(cfg) + 3 * cfg.players + 10 + 3 * T
}

pub fn tensor(s: &CaboodleState, p: usize, out: &mut [f32]) {
    let cfg = s.cfg;
    let n = cfg.players;
    let sh = cfg.tiles.shapes.len();
    let b = slot_len(cfg);
    out.iter_mut().for_each(|o| *o = 0.0);
    for (i, pl) in s.board().iter().enumerate() {
        let o = &mut out[i * b..(i + 1) * b];
        o[0] = 1.0;
        o[1] = pl.x as f32;
        o[2] = pl.y as f32;
        o[3 + pl.r as usize] = 1.0;
        o[7 + pl.tile as usize] = 1.0;
        for d in 0..4 {
            o[7 + T + d * sh + pl.shown[d] as usize] = 1.0;
        }
    }
    let mut k = T * b;
    let rel = |i: usize| (p + i) % n;
    for i in 0..n {
        out[k + i] = s.scores[rel(i)] as f32;
        out[k + n + i] = s.hands[rel(i)].count_ones() as f32;
    }
    if matches!(s.phase, Phase::Select | Phase::Place) {
        out[k + 2 * n + (s.current as usize + n - p) % n] = 1.0;
    }
    k += 3 * n;
    out[k + s.phase.index()] = 1.0;
    k += 7;
    out[k] = s.final_round as u8 as f32;
    out[k + 1] = cfg.rules2024 as u8 as f32;
    out[k + 2] = s.bag.count_ones() as f32;
    k += 3;
    if let Some(t) = s.selected() {
        out[k + t] = 1.0;
    }
    k += T;
    let mut seen = s.hands[p];
    for pl in s.board() {
        seen |= 1u64 << pl.tile;
    }
    if let Some(t) = s.selected() {
        seen |= 1u64 << t;
    }
    for t in 0..T {
        out[k + t] = (s.hands[p] >> t & 1) as f32;
        out[k + T + t] = (seen >> t & 1 == 0) as u8 as f32;
    }
}

fn tile_list(mask: u64) -> String {
    let v: Vec<String> = (0..T)
        .filter(|t| mask >> t & 1 == 1)
        .map(|t| t.to_string())
        .collect();
    if v.is_empty() {
        "-".into()
    } else {
        v.join(" ")
    }
}

/// A readable picture; `viewer` None shows everything (`to_text`).
pub fn text(s: &CaboodleState, viewer: Option<usize>) -> String {
    let cfg = s.cfg;
    let n = cfg.players;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "caboodle rules={} phase={} current={} final={} bag={}",
        if cfg.rules2024 { 2024 } else { 2023 },
        s.phase.name(),
        s.current,
        s.final_round,
        s.bag.count_ones()
    );
    for seat in 0..n {
        let hand = if viewer.is_none() || viewer == Some(seat) {
            tile_list(s.hands[seat])
        } else {
            format!("{} hidden", s.hands[seat].count_ones())
        };
        let _ = writeln!(out, "seat {seat}: score {} hand {hand}", s.scores[seat]);
    }
    if let Some(t) = s.selected() {
        let _ = writeln!(out, "selected: tile {t}");
    }
    if viewer.is_none() {
        let _ = writeln!(out, "removed: {}", tile_list(s.removed));
        let _ = writeln!(out, "bag: {}", tile_list(s.bag));
    }
    for pl in s.board() {
        let names: Vec<&str> = pl
            .shown
            .iter()
            .map(|&k| cfg.tiles.shapes[k as usize].as_str())
            .collect();
        let _ = writeln!(
            out,
            "tile {} at {},{} r{}: N {} E {} S {} W {}",
            pl.tile,
            pl.x,
            pl.y,
            pl.r as u32 * 90,
            names[0],
            names[1],
            names[2],
            names[3]
        );
    }
    out
}
