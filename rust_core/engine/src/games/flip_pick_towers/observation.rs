//! What a seat sees (docs/rules/flip_pick_towers.md §9): the tensor, the readable view and the information
//! state. The only hidden facts are the picks other seats made this turn while the Pick is under way.

use super::notation::{cell_text, kind_text, CREATURE_NAMES};
use super::sheet::{FILE_RESOURCES, NUM_KINDS};
use super::state::{cell, Deco, FlipPickTowersState, Step, Task};
use super::Config;
use crate::State;

/// Values per cell: floor, stability, 6 contents, bridge, roof, flags, dragon, banner, beanstalk.
const PER_CELL: usize = 14;

/// Values per seat: `14N + S + 19`.
pub fn seat_len(cfg: &Config) -> usize {
    PER_CELL * cfg.sheet.cells() + cfg.sheet.stall_columns() + 19
}

/// `players x (14N + S + 21) + 3M + 210`.
pub fn len(cfg: &Config) -> usize {
    cfg.players * (seat_len(cfg) + 2) + 3 * cfg.sheet.cards.len() + 210
}

/// Whether seat `s`'s pick is hidden from `viewer` (None: the whole state is shown).
fn pick_hidden(st: &FlipPickTowersState, s: usize, viewer: Option<usize>) -> bool {
    st.step == Step::Pick && viewer.is_some_and(|p| p != s)
}

/// The stores of one cell's block, by the cell's 7-bit code (see `state::PLANES`): three (offset, value)
/// pairs, the unused ones writing 0.0 where this code writes nothing else. A table, so that a cell costs three
/// stores and no branch on what it holds (the kind of cell is as good as random from one cell to the next).
#[derive(Clone, Copy)]
struct CellStores {
    at: [u8; 3],
    val: [f32; 3],
}

const CELL_STORES: [CellStores; 128] = {
    let mut t = [CellStores {
        at: [0, 1, 2],
        val: [0.0; 3],
    }; 128];
    let mut code = 0;
    while code < 128 {
        let (k, s) = (code & 7, code >> 3);
        t[code] = if k != 0 {
            // A floor: content k - 1, shown at 1 + content for contents 1..=6 (position 2 is free for k = 1).
            CellStores {
                at: [0, 1, if k >= 2 { k as u8 } else { 2 }],
                val: [1.0, s as f32, if k >= 2 { 1.0 } else { 0.0 }],
            }
        } else {
            // Not a floor: positions 0 and 1 are never set, so they take the unused stores.
            let (at, v, at2, v2) = match s as u8 {
                cell::BRIDGE => (8, 1.0, 1, 0.0),
                cell::DRAGON => (11, 1.0, 1, 0.0),
                cell::BANNER_TOP | cell::BANNER_BOTTOM => (12, 1.0, 1, 0.0),
                cell::BEANSTALK => (13, 1.0, 1, 0.0),
                6..=9 => (9, 1.0, 10, (s - 6) as f32),
                _ => (1, 0.0, 1, 0.0),
            };
            CellStores {
                at: [0, at, at2],
                val: [0.0, v, v2],
            }
        };
        code += 1;
    }
    t
};

/// A byte's two nibbles as two values (low first): two packed counts in one 8-byte store.
const NIBBLE_PAIRS: [[f32; 2]; 256] = {
    let mut t = [[0.0; 2]; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = [(b & 15) as f32, (b >> 4) as f32];
        b += 1;
    }
    t
};

pub fn write(st: &FlipPickTowersState, p: usize, out: &mut [f32]) {
    let cfg = st.cfg();
    let sh = &cfg.sheet;
    let n = cfg.players;
    let total = len(cfg);
    if out.len() < total {
        return;
    }
    let out = &mut out[..total];
    out.iter_mut().for_each(|x| *x = 0.0);
    let p = p % n.max(1);
    let mut i = 0;
    let grid_len = PER_CELL * sh.cells();
    for k in 0..n {
        let s = (p + k) % n;
        let seat = &st.seats[s];
        // Only the cells with something on them: an empty cell, or one the sheet lacks, is all zeros, and
        // the buffer was zeroed above.
        let grid = &mut out[i..i + grid_len];
        for (w, &word) in seat.occupied(cfg.masks.exists).0.iter().enumerate() {
            let planes = seat.code_planes(w);
            let mut bits = word;
            while bits != 0 {
                let b = bits.trailing_zeros();
                bits &= bits - 1;
                let mut code = 0;
                for (j, plane) in planes.iter().enumerate() {
                    code |= ((plane >> b) & 1) << j;
                }
                let e = &CELL_STORES[code as usize];
                let at = (64 * w + b as usize) * PER_CELL;
                let o = &mut grid[at..at + PER_CELL];
                for (&a, &v) in e.at.iter().zip(&e.val) {
                    o[a as usize] = v;
                }
            }
        }
        i += grid_len;
        let columns = sh.stall_columns();
        let stalls = seat.stall_bytes();
        for (pair, &b) in out[i..i + columns / 2 * 2].chunks_exact_mut(2).zip(stalls) {
            pair.copy_from_slice(&NIBBLE_PAIRS[b as usize]);
        }
        if columns % 2 == 1 {
            out[i + columns - 1] = seat.stall(columns - 1) as f32;
        }
        i += columns;
        for c in 0..5 {
            out[i + c] = seat.gained(c) as f32;
            out[i + 5 + c] = seat.used(c) as f32;
        }
        i += 10;
        out[i] = seat.crest as f32;
        out[i + 1] = seat.round_scores[0] as f32;
        out[i + 2] = seat.round_scores[1] as f32;
        out[i + 3] = (seat.roof() >= 0) as u8 as f32;
        out[i + 4] = (seat.pick >= 0) as u8 as f32;
        if seat.pick >= 0 && !pick_hidden(st, s, Some(p)) {
            out[i + 5 + (seat.pick as usize).min(2)] = 1.0;
        }
        out[i + 8] = (st.flagged & (1 << s) != 0) as u8 as f32;
        i += 9;
    }
    // The display: feature one-hot (20) then resource one-hot (5) per slot.
    for slot in 0..3 {
        if slot < st.display_len as usize {
            let k = st.display[slot] as usize;
            out[i + (k / 5).min(19)] = 1.0;
            out[i + 20 + k % 5] = 1.0;
        }
        i += 25;
    }
    for (j, pair) in out[i..i + NUM_KINDS].chunks_exact_mut(2).enumerate() {
        let b = (st.deck.0[j / 8] >> (8 * (j % 8))) as u8;
        pair.copy_from_slice(&NIBBLE_PAIRS[b as usize]);
    }
    i += NUM_KINDS;
    let m = sh.cards.len();
    for t in 0..3 {
        let c = st.royal_cards[t];
        if c >= 0 && (c as usize) < m {
            out[i + c as usize] = 1.0;
        }
        i += m;
    }
    out[i + (st.round as usize).clamp(1, 2) - 1] = 1.0;
    out[i + 2] = st.turn as f32;
    out[i + 3] = st.flags_taken as f32;
    out[i + 4] = st.final_turn as u8 as f32;
    i += 5;
    let step = match st.step {
        Step::Deal => 0,
        Step::Flip => 1,
        Step::Dragon => 2,
        Step::Pick => 3,
        Step::Sketch => 4,
        Step::Over => 5,
    };
    out[i + step] = 1.0;
    i += 6;
    if matches!(st.step, Step::Dragon | Step::Pick | Step::Sketch) && (st.seat as usize) < n {
        out[i + (st.seat as usize + n - p) % n] = 1.0;
    }
    i += n;
    let cp = st.current_player();
    if cp >= 0 {
        out[i + (cp as usize + n - p) % n] = 1.0;
    }
    i += n;
    let task = match st.task {
        Task::None => None,
        Task::Magic => Some(0),
        Task::Bwca => Some(1),
        Task::Feature => Some(2),
        Task::Derwen => Some(3),
        Task::Box => Some(4),
        Task::Decoration => Some(5),
    };
    if let Some(t) = task {
        out[i + t] = 1.0;
    }
    i += 6;
    if (0..5).contains(&st.magic) {
        out[i + st.magic as usize] = 1.0;
    }
    i += 5;
    out[i] = st.delta as f32;
    out[i + 1] = st.pass as f32;
    i += 2;
    for q in &st.queue[..st.queue_len as usize] {
        out[i + (*q as usize).min(4)] += 1.0;
    }
    i += 5;
    let deco = match st.decoration {
        Deco::None => None,
        Deco::Banner => Some(0),
        Deco::Beanstalk => Some(1),
        Deco::Gold => Some(2),
        Deco::Window => Some(3),
    };
    if let Some(d) = deco {
        out[i + d] = 1.0;
    }
    i += 4;
    out[i] = st.bean_height as f32;
    out[i + 1] = st.dragons_left as f32;
}

pub fn grid_token(v: u8) -> String {
    match v {
        cell::NONE_CELL => "#".into(),
        cell::EMPTY => ".".into(),
        cell::BRIDGE => "B".into(),
        cell::DRAGON => "D".into(),
        cell::BANNER_TOP => "N".into(),
        cell::BANNER_BOTTOM => "n".into(),
        cell::BEANSTALK => "S".into(),
        v if cell::is_roof(v) => format!("R{}", cell::flags(v)),
        v if cell::is_floor(v) => format!(
            "F{}{}",
            cell::stability(v),
            ['-', 'q', 'k', 'p', 'g', 'x', 'w', '?'][cell::content(v) as usize]
        ),
        _ => "?".into(),
    }
}

/// A readable picture; `viewer` hides the other seats' picks during the Pick (None: everything).
pub fn text(st: &FlipPickTowersState, viewer: Option<usize>) -> String {
    let cfg = st.cfg();
    let sh = &cfg.sheet;
    let mut t = String::new();
    let step = format!("{:?}", st.step).to_lowercase();
    t.push_str(&format!(
        "Flip Pick Towers ({} seat(s), sheet {:?}) round {} turn {} step {step}{}\n",
        cfg.players,
        sh.name,
        st.round,
        st.turn,
        if st.final_turn { " (final turn)" } else { "" }
    ));
    if let Some(p) = viewer {
        t.push_str(&format!("viewer: seat {p}\n"));
    }
    let royals: Vec<String> = ["queen", "king", "princess"]
        .iter()
        .zip(st.royal_cards)
        .map(
            |(r, c)| match sh.cards.get(c.max(0) as usize).filter(|_| c >= 0) {
                Some(card) => format!("{r}: {}", card.name),
                None => format!("{r}: -"),
            },
        )
        .collect();
    t.push_str(&format!("royal cards: {}\n", royals.join(", ")));
    let display: Vec<String> = st.display[..st.display_len as usize]
        .iter()
        .map(|&k| kind_text(k as usize))
        .collect();
    t.push_str(&format!(
        "display: [{}]  deck: {} cards  flags taken: {}\n",
        display.join(", "),
        st.deck_total(),
        st.flags_taken
    ));
    if st.step == Step::Sketch {
        let queue: Vec<&str> = st.queue[..st.queue_len as usize]
            .iter()
            .map(|&q| ["fabric", "beans", "gold", "glass", "wild"][(q as usize).min(4)])
            .collect();
        t.push_str(&format!(
            "sketch: seat {} task {:?} magic {} delta {} pass {} queue [{}] decoration {:?} height {}\n",
            st.seat,
            st.task,
            if st.magic >= 0 {
                CREATURE_NAMES[(st.magic as usize).min(4)]
            } else {
                "-"
            },
            st.delta,
            st.pass,
            queue.join(", "),
            st.decoration,
            st.bean_height
        ));
    }
    if st.step == Step::Dragon {
        t.push_str(&format!(
            "dragon: seat {} ({} left)\n",
            st.seat, st.dragons_left
        ));
    }
    for s in 0..cfg.players {
        let seat = &st.seats[s];
        let pick = if seat.pick < 0 {
            "-".to_string()
        } else if pick_hidden(st, s, viewer) {
            "?".to_string()
        } else {
            format!("{}", seat.pick + 1)
        };
        let stalls: Vec<String> = (0..4)
            .map(|r| {
                let cols: Vec<String> = (sh.stall_first[r]..sh.stall_first[r + 1])
                    .map(|j| format!("{}/{}", seat.stall(j), sh.stall_boxes[j]))
                    .collect();
                format!("{} {}", FILE_RESOURCES[r], cols.join(" "))
            })
            .collect();
        let creatures: Vec<String> = (0..5)
            .map(|c| format!("{} {}+{}", CREATURE_NAMES[c], seat.gained(c), seat.used(c)))
            .collect();
        t.push_str(&format!(
            "seat {s}: crest {} scores {:?} pick {pick}{}{}\n  stalls: {}\n  creatures: {}\n",
            seat.crest,
            seat.round_scores,
            if seat.roof() >= 0 {
                format!(" roof {}", cell_text(sh.cols, seat.roof() as usize))
            } else {
                String::new()
            },
            if st.flagged & (1 << s) != 0 {
                " flag bonus taken"
            } else {
                ""
            },
            stalls.join("; "),
            creatures.join(", ")
        ));
        for r in (0..sh.rows).rev() {
            let row: Vec<String> = (0..sh.cols)
                .map(|c| format!("{:>4}", grid_token(seat.cell(sh, r * sh.cols + c))))
                .collect();
            t.push_str(&format!("  {:>2} {}\n", r + 1, row.join("")));
        }
    }
    if st.step == Step::Over {
        let mut r = vec![0.0; cfg.players];
        st.returns(&mut r);
        t.push_str(&format!("game over: returns {r:?}\n"));
    }
    t
}

/// `seat=<p> history=<ids>`, with the other seats' picks of this turn written `?` during the Pick (§9.2).
pub fn information_state(st: &FlipPickTowersState, p: usize, history: &[u32]) -> String {
    let mut tokens: Vec<String> = history.iter().map(|a| a.to_string()).collect();
    for pos in st.hidden_positions(p, history.len()) {
        if let Some(t) = tokens.get_mut(pos) {
            *t = "?".to_string();
        }
    }
    format!("seat={p} history={}", tokens.join(","))
}
