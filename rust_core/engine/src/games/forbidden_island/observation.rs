//! The observation tensor and the text views (docs/rules/forbidden_island.md §9). Everything is public: the
//! tensor is the whole state, with the seats written relative to the observer.

use super::data::{bits, data, HAND_KINDS, KINDS, NONE, ROLES, TILES};
use super::state::{bit, ForbiddenIslandState, Outcome, Phase, Stage, Window};
use std::fmt::Write;

/// §9.1: `787 + 40 n`.
pub fn len(n: usize) -> usize {
    TILES * (31 + n) + 12 * n + 43 + 4 * n
}

pub fn phase_index(phase: Phase) -> usize {
    phase as usize
}

pub fn tensor(s: &ForbiddenIslandState, p: usize, out: &mut [f32]) {
    let n = s.n();
    for o in out.iter_mut() {
        *o = 0.0;
    }
    if out.len() < len(n) || p >= n {
        return;
    }
    let rel = |seat: usize| (seat + n - p) % n;
    // The flood pile: each layer's size, and the cards above each layer (layers are stored bottom first).
    let nl = s.num_layers as usize;
    let mut above = [0u32; TILES];
    let mut running = 0u32;
    for l in (0..nl).rev() {
        above[l] = running;
        running += s.layers[l].count_ones();
    }
    // 1. Positions.
    let per = 31 + n;
    for q in 0..TILES {
        let o = q * per;
        let tile = s.tiles[q];
        if tile == NONE {
            continue;
        }
        out[o + tile as usize] = 1.0;
        let qb = 1u32 << q;
        let status = if s.sunk & qb != 0 {
            2
        } else if s.flooded & qb != 0 {
            1
        } else {
            0
        };
        out[o + 24 + status] = 1.0;
        for seat in 0..n {
            if s.seats[seat].pawn as usize == q {
                out[o + 27 + rel(seat)] = 1.0;
            }
        }
        let c = o + 27 + n;
        let tb = bit(tile);
        if let Some(l) = (0..nl).find(|&l| s.layers[l] & tb != 0) {
            out[c] = 1.0;
            out[c + 1] = above[l] as f32;
            out[c + 2] = s.layers[l].count_ones() as f32;
        }
        if s.flood_discard & tb != 0 {
            out[c + 3] = 1.0;
        }
    }
    // 2. Seats.
    let mut at = TILES * per;
    for seat in 0..n {
        let o = at + 12 * rel(seat);
        let st = &s.seats[seat];
        if (st.role as usize) < ROLES {
            out[o + st.role as usize] = 1.0;
        }
        for k in 0..HAND_KINDS {
            out[o + 6 + k] = st.hand[k] as f32;
        }
    }
    at += 12 * n;
    // 3. Global.
    out[at] = s.level as f32;
    out[at + 1] = data().flood_cards[(s.level as usize).min(10)] as f32;
    for t in 0..4 {
        out[at + 2 + t] = (s.captured >> t & 1) as f32;
    }
    for k in 0..KINDS {
        out[at + 6 + k] = s.pile[k] as f32;
        out[at + 13 + k] = s.discard[k] as f32;
    }
    out[at + 20] = s.actions_left as f32;
    out[at + 21] = s.pilot_flown as u8 as f32;
    out[at + 22 + phase_index(s.phase)] = 1.0;
    if s.phase == Phase::Window {
        let w = match s.window {
            Window::Act => Some(0),
            Window::End => Some(1),
            Window::Treasure => Some(2),
            Window::Rescue => Some(3),
            Window::Flood => Some(4),
            Window::None => None,
        };
        if let Some(w) = w {
            out[at + 34 + w] = 1.0;
        }
    }
    out[at + 39] = s.treasure_left as f32;
    out[at + 40] = s.flood_left as f32;
    out[at + 41] = (s.outcome == Outcome::Won) as u8 as f32;
    out[at + 42] = (s.outcome == Outcome::Lost) as u8 as f32;
    let g = at + 43;
    if (s.turn as usize) < n {
        out[g + rel(s.turn as usize)] = 1.0;
    }
    if let Some(a) = s.acting() {
        out[g + n + rel(a)] = 1.0;
    }
    if s.phase == Phase::Window {
        for &q in s.pending_seats() {
            if (q as usize) < n {
                out[g + 2 * n + rel(q as usize)] = 1.0;
            }
        }
    }
    for seat in bits(s.stranded()) {
        out[g + 3 * n + rel(seat)] = 1.0;
    }
}

pub fn phase_name(phase: Phase) -> &'static str {
    match phase {
        Phase::Layout => "layout",
        Phase::SetupFlood => "setup_flood",
        Phase::Roles => "roles",
        Phase::Deal => "deal",
        Phase::Actions => "actions",
        Phase::Engineer => "engineer",
        Phase::Treasure => "treasure",
        Phase::Flood => "flood",
        Phase::Discard => "discard",
        Phase::Swim => "swim",
        Phase::Window => "window",
        Phase::Over => "over",
    }
}

pub fn stage_name(stage: Stage) -> &'static str {
    match stage {
        Stage::Setup => "setup",
        Stage::Actions => "actions",
        Stage::Treasure => "treasure",
        Stage::Flood => "flood",
    }
}

pub fn window_name(window: Window) -> &'static str {
    match window {
        Window::None => "none",
        Window::Act => "act",
        Window::End => "end",
        Window::Treasure => "treasure",
        Window::Rescue => "rescue",
        Window::Flood => "flood",
    }
}

pub fn outcome_name(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::None => "none",
        Outcome::Won => "won",
        Outcome::Lost => "lost",
    }
}

fn tiles_list(set: u32) -> String {
    let d = data();
    let v: Vec<&str> = bits(set).map(|t| d.tile_keys[t].as_str()).collect();
    if v.is_empty() {
        "-".into()
    } else {
        v.join(" ")
    }
}

fn counts_list(counts: &[u8]) -> String {
    let d = data();
    let v: Vec<String> = (0..counts.len())
        .filter(|&k| counts[k] > 0)
        .map(|k| format!("{} {}", d.card_keys[k], counts[k]))
        .collect();
    if v.is_empty() {
        "-".into()
    } else {
        v.join(", ")
    }
}

/// A readable picture of the state (everything is public, so every viewer sees the same facts).
pub fn text(s: &ForbiddenIslandState, viewer: Option<usize>) -> String {
    let d = data();
    let layout = s.layout();
    let n = s.n();
    let mut t = String::new();
    if let Some(p) = viewer {
        let _ = writeln!(t, "viewer: seat {p}");
    }
    let _ = write!(
        t,
        "phase {}, stage {}, turn of seat {}, actions left {}",
        phase_name(s.phase),
        stage_name(s.stage),
        s.turn,
        s.actions_left
    );
    if s.pilot_flown {
        t.push_str(", the Pilot has flown");
    }
    t.push('\n');
    if s.phase == Phase::Window {
        let pending: Vec<String> = s.pending_seats().iter().map(|q| q.to_string()).collect();
        let _ = writeln!(
            t,
            "window {}: pending seats {}",
            window_name(s.window),
            pending.join(", ")
        );
    }
    if s.outcome != Outcome::None {
        let _ = writeln!(t, "the game is {}", outcome_name(s.outcome));
    }
    let captured: Vec<&str> = (0..4)
        .filter(|&k| s.captured >> k & 1 == 1)
        .map(|k| d.card_keys[k].as_str())
        .collect();
    let _ = writeln!(
        t,
        "water level {} ({} flood cards a turn); treasures captured: {}",
        s.level,
        d.flood_cards[(s.level as usize).min(10)],
        if captured.is_empty() {
            "none".to_string()
        } else {
            captured.join(", ")
        }
    );
    // The island, one row of the layout per line.
    let mut rows: Vec<(u8, Vec<usize>)> = Vec::new();
    for (q, name) in layout.names.iter().enumerate() {
        let row: u8 = name[1..].parse().unwrap_or(0);
        match rows.last_mut() {
            Some((r, qs)) if *r == row => qs.push(q),
            _ => rows.push((row, vec![q])),
        }
    }
    for (_, qs) in rows {
        let cells: Vec<String> = qs
            .iter()
            .map(|&q| {
                let qb = 1u32 << q;
                let tile = s.tiles[q];
                let name = if tile == NONE {
                    "?".to_string()
                } else {
                    d.tile_keys[tile as usize].clone()
                };
                let status = if tile == NONE {
                    ""
                } else if s.sunk & qb != 0 {
                    " (sunk)"
                } else if s.flooded & qb != 0 {
                    " (flooded)"
                } else {
                    ""
                };
                let pawns: Vec<String> = (0..n)
                    .filter(|&seat| s.seats[seat].pawn as usize == q)
                    .map(|seat| format!("P{seat}"))
                    .collect();
                let pawns = if pawns.is_empty() {
                    String::new()
                } else {
                    format!(" [{}]", pawns.join(" "))
                };
                format!("{}:{name}{status}{pawns}", layout.names[q])
            })
            .collect();
        let _ = writeln!(t, "  {}", cells.join(" | "));
    }
    for seat in 0..n {
        let st = &s.seats[seat];
        let role = if (st.role as usize) < ROLES {
            d.role_keys[st.role as usize].as_str()
        } else {
            "-"
        };
        let _ = writeln!(t, "seat {seat}: {role}, hand {}", counts_list(&st.hand));
    }
    let _ = writeln!(
        t,
        "treasure pile: {}; discard: {}",
        counts_list(&s.pile),
        counts_list(&s.discard)
    );
    let layers: Vec<String> = (0..s.num_layers as usize)
        .rev()
        .map(|l| format!("[{}]", tiles_list(s.layers[l])))
        .collect();
    let _ = writeln!(
        t,
        "flood pile (top first): {}; discard: {}",
        if layers.is_empty() {
            "-".to_string()
        } else {
            layers.join(" ")
        },
        tiles_list(s.flood_discard)
    );
    t
}
