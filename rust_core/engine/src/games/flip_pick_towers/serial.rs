//! Canonical JSON of a whole state and its strict reader (docs/rules/flip_pick_towers.md §10).

use super::bits::Deck;
use super::observation::grid_token;
use super::sheet::{DECK_SIZE, MAX_CELLS, NUM_KINDS};
use super::state::{
    cell, Deco, FlipPickTowersState, Seat, Step, Task, BWCA, DERWEN, JIJI, MAB, SOSBAN,
};
use super::{Config, ID};
use crate::error::{invalid, Result};
use crate::json::Fields;
use crate::params::params_to_json;
use serde_json::{json, Value};

const VERSION: i64 = 1;

const STEPS: [(Step, &str); 6] = [
    (Step::Deal, "deal"),
    (Step::Flip, "flip"),
    (Step::Dragon, "dragon"),
    (Step::Pick, "pick"),
    (Step::Sketch, "sketch"),
    (Step::Over, "over"),
];
const TASKS: [(Task, &str); 7] = [
    (Task::None, "none"),
    (Task::Magic, "magic"),
    (Task::Bwca, "bwca"),
    (Task::Feature, "feature"),
    (Task::Derwen, "derwen"),
    (Task::Box, "box"),
    (Task::Decoration, "decoration"),
];
const DECOS: [(Deco, &str); 5] = [
    (Deco::None, "none"),
    (Deco::Banner, "banner"),
    (Deco::Beanstalk, "beanstalk"),
    (Deco::Gold, "gold"),
    (Deco::Window, "window"),
];

fn name_of<T: PartialEq + Copy>(table: &[(T, &'static str)], v: T) -> &'static str {
    table
        .iter()
        .find(|(t, _)| *t == v)
        .map(|(_, n)| *n)
        .unwrap_or("none")
}

pub fn serialize(s: &FlipPickTowersState, history: &[u32]) -> String {
    let cfg = s.cfg();
    let sh = &cfg.sheet;
    let seats: Vec<Value> = s.seats[..cfg.players]
        .iter()
        .enumerate()
        .map(|(i, seat)| {
            let grid: Vec<Vec<String>> = (0..sh.rows)
                .map(|r| {
                    (0..sh.cols)
                        .map(|c| grid_token(seat.cell(sh, r * sh.cols + c)))
                        .collect()
                })
                .collect();
            let stalls: Vec<Vec<u8>> = (0..4)
                .map(|r| {
                    (sh.stall_first[r]..sh.stall_first[r + 1])
                        .map(|j| seat.stall(j))
                        .collect()
                })
                .collect();
            let creatures: Vec<[u8; 2]> = (0..5).map(|c| [seat.gained(c), seat.used(c)]).collect();
            json!({
                "creatures": creatures,
                "crest": seat.crest,
                "flagged": s.flagged & (1 << i) != 0,
                "grid": grid,
                "pick": seat.pick,
                "roof": seat.roof(),
                "round_scores": seat.round_scores,
                "stalls": stalls,
            })
        })
        .collect();
    json!({
        "bean_height": s.bean_height,
        "decoration": name_of(&DECOS, s.decoration),
        "deck": s.deck.counts().to_vec(),
        "delta": s.delta,
        "display": s.display[..s.display_len as usize].to_vec(),
        "dragons_left": s.dragons_left,
        "final_turn": s.final_turn,
        "flags_taken": s.flags_taken,
        "game": ID,
        "history": history,
        "magic": s.magic,
        "params": params_to_json(&cfg.params),
        "pass": s.pass,
        "queue": s.queue[..s.queue_len as usize].to_vec(),
        "round": s.round,
        "royal_cards": s.royal_cards,
        "seat": s.seat,
        "seats": seats,
        "step": name_of(&STEPS, s.step),
        "task": name_of(&TASKS, s.task),
        "turn": s.turn,
        "version": VERSION,
    })
    .to_string()
}

const PREFIX: &str = "flip_pick_towers state: ";

fn bad<T>(what: impl std::fmt::Display) -> Result<T> {
    invalid(format!("{PREFIX}{what}"))
}

/// A grid token (§10) as a cell value; None if it does not parse.
fn parse_token(t: &str) -> Option<u8> {
    Some(match t {
        "#" => cell::NONE_CELL,
        "." => cell::EMPTY,
        "B" => cell::BRIDGE,
        "D" => cell::DRAGON,
        "N" => cell::BANNER_TOP,
        "n" => cell::BANNER_BOTTOM,
        "S" => cell::BEANSTALK,
        "R0" | "R1" | "R2" | "R3" => cell::ROOF + (t.as_bytes()[1] - b'0'),
        _ => {
            if !t.is_ascii() {
                return None;
            }
            let rest = t.strip_prefix('F')?;
            let (digits, content) = rest.split_at(rest.len().checked_sub(1)?);
            let v: u8 = match digits {
                "0" | "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9" | "10" => {
                    digits.parse().ok()?
                }
                _ => return None,
            };
            if content.len() != 1 {
                return None;
            }
            let c = "-qkpgxw".find(content)? as u8;
            cell::floor(v, c)
        }
    })
}

pub fn deserialize(cfg: &'static Config, text: &str) -> Result<(FlipPickTowersState, Vec<u32>)> {
    let root = match crate::json::parse(text) {
        Ok(j) => j,
        Err(e) => return bad(format!("not valid JSON: {e}")),
    };
    let o = Fields::new(
        &root,
        PREFIX,
        "",
        &[
            "bean_height",
            "decoration",
            "deck",
            "delta",
            "display",
            "dragons_left",
            "final_turn",
            "flags_taken",
            "game",
            "history",
            "magic",
            "params",
            "pass",
            "queue",
            "round",
            "royal_cards",
            "seat",
            "seats",
            "step",
            "task",
            "turn",
            "version",
        ],
    )?;
    o.envelope(ID, VERSION, &params_to_json(&cfg.params))?;
    let sh = &cfg.sheet;
    let n = cfg.players;
    let max_id = cfg.num_actions().max(cfg.max_chance_outcomes()) as i64 - 1;
    let history: Vec<u32> = o
        .ints("history", .., 0, max_id)?
        .into_iter()
        .map(|a| a as u32)
        .collect();

    let mut st = FlipPickTowersState::new(cfg);
    st.step = o.name("step", &STEPS)?;
    st.task = o.name("task", &TASKS)?;
    st.decoration = o.name("decoration", &DECOS)?;
    st.round = o.int("round", 1, 2)? as u8;
    st.turn = o.int("turn", 0, 21)? as u8;
    st.flags_taken = o.int("flags_taken", 0, 3)? as u8;
    st.final_turn = o.bool("final_turn")?;
    st.seat = o.int("seat", 0, n as i64 - 1)? as u8;
    st.dragons_left = o.int("dragons_left", 0, 2)? as u8;
    st.magic = o.int("magic", -1, 4)? as i8;
    st.delta = o.int("delta", -1, 1)? as i8;
    st.pass = o.int("pass", 0, 2)? as u8;
    st.bean_height = o.int("bean_height", 0, sh.beanstalk_points.len() as i64)? as u8;

    let m = sh.cards.len() as i64;
    let royal = o.ints("royal_cards", 3..=3, -1, m - 1)?;
    for t in 0..3 {
        st.royal_cards[t] = royal[t] as i8;
        if royal[t] >= 0 && royal[..t].contains(&royal[t]) {
            return bad("royal_cards repeats a card");
        }
        if royal[t] >= 0 && t > 0 && royal[t - 1] < 0 {
            return bad("royal_cards: the -1 entries must come last");
        }
        if royal[t] < 0 && st.step != Step::Deal {
            return bad("royal_cards: every card is dealt outside the deal step");
        }
    }

    let mut counts = [0u8; NUM_KINDS];
    for (k, v) in o
        .ints("deck", NUM_KINDS..=NUM_KINDS, 0, DECK_SIZE as i64)?
        .into_iter()
        .enumerate()
    {
        counts[k] = v as u8;
    }
    let display = o.ints("display", ..=3, 0, NUM_KINDS as i64 - 1)?;
    for (slot, &k) in display.iter().enumerate() {
        if sh.full_deck[k as usize] == 0 {
            return bad(format!("display card kind {k} is not in this deck"));
        }
        st.display[slot] = k as u8;
    }
    st.display_len = display.len() as u8;
    let mut total = 0u32;
    for k in 0..NUM_KINDS {
        let shown = st.display[..st.display_len as usize]
            .iter()
            .filter(|&&d| d as usize == k)
            .count() as u32;
        if counts[k] as u32 + shown > sh.full_deck[k] as u32 {
            return bad(format!("more cards of kind {k} than the deck has"));
        }
        total += counts[k] as u32;
    }
    st.deck = Deck::from_counts(&counts);
    if total + st.display_len as u32 != DECK_SIZE - 3 * st.turn as u32 {
        return bad("deck and display do not add up to 63 - 3 x turn");
    }
    let queue = o.ints("queue", ..=3, 0, 4)?;
    for (i, &q) in queue.iter().enumerate() {
        st.queue[i] = q as u8;
    }
    st.queue_len = queue.len() as u8;

    let seats = o.list("seats", n..=n)?;
    for (s, sj) in seats.iter().enumerate() {
        let (seat, flagged) = read_seat(cfg, o.object_at(&format!("seats[{s}]"), sj, &SEAT_KEYS)?)?;
        st.seats[s] = seat;
        st.flagged |= u8::from(flagged) << s;
    }

    check_consistency(&st)?;

    let mut settled = st;
    settled.settle();
    if settled != st {
        return bad("not settled: the automatic steps (§5.3) would change it");
    }
    Ok((st, history))
}

const SEAT_KEYS: [&str; 8] = [
    "creatures",
    "crest",
    "flagged",
    "grid",
    "pick",
    "roof",
    "round_scores",
    "stalls",
];

/// A seat and its `flagged` (kept in the state's bit set).
fn read_seat(cfg: &Config, o: Fields) -> Result<(Seat, bool)> {
    let sh = &cfg.sheet;
    let mut seat = Seat::new(sh);
    seat.crest = o.int("crest", 0, 3)? as u8;
    let flagged = o.bool("flagged")?;
    seat.pick = o.int("pick", -1, 2)? as i8;
    seat.set_roof(o.int("roof", -1, sh.cells() as i64 - 1)? as i16);
    let rs = o.ints("round_scores", 2..=2, -1_000_000_000, 1_000_000_000)?;
    seat.round_scores = [rs[0] as i32, rs[1] as i32];
    for (c, pair) in o.list("creatures", 5..=5)?.iter().enumerate() {
        let spaces = sh.creature_spaces[c] as i64;
        let at = format!("creatures[{c}]");
        let pair = o.list_at(&at, pair, 2..=2)?;
        let gained = o.int_at(&format!("{at}[0]"), &pair[0], 0, spaces)?;
        let used = o.int_at(&format!("{at}[1]"), &pair[1], 0, spaces)?;
        if gained + used > spaces {
            return o.fail(&at, "has gained + used beyond the creature's X spaces");
        }
        seat.set_creature(c, gained as u8, used as u8);
    }
    for (r, list) in o.list("stalls", 4..=4)?.iter().enumerate() {
        let (lo, hi) = (sh.stall_first[r], sh.stall_first[r + 1]);
        let at = format!("stalls[{r}]");
        for (k, v) in o.list_at(&at, list, hi - lo..=hi - lo)?.iter().enumerate() {
            let j = lo + k;
            let boxes = sh.stall_boxes[j] as i64;
            seat.set_stall(j, o.int_at(&format!("{at}[{k}]"), v, 0, boxes)? as u8);
        }
    }
    let rows = o.list("grid", sh.rows..=sh.rows)?;
    let mut grid = [cell::NONE_CELL; MAX_CELLS];
    for (r, row) in rows.iter().enumerate() {
        let row = o.list_at(&format!("grid[{r}]"), row, sh.cols..=sh.cols)?;
        for (c, t) in row.iter().enumerate() {
            let Some(v) = t.as_str().and_then(parse_token) else {
                return o.fail(&format!("grid[{r}][{c}]"), "is not a grid token");
            };
            if (v == cell::NONE_CELL) == sh.exists(r, c) {
                return bad("'#' must mark exactly the cells the sheet does not have");
            }
            grid[r * sh.cols + c] = v;
            seat.set_cell(r * sh.cols + c, v);
        }
    }
    // Banners in whole pairs; beanstalks only as the bottom run of a garden column.
    let cols = sh.cols;
    for r in 0..sh.rows {
        for c in 0..cols {
            let v = grid[r * cols + c];
            if v == cell::BANNER_TOP && (r == 0 || grid[(r - 1) * cols + c] != cell::BANNER_BOTTOM)
            {
                return bad("a banner's top half without its bottom half below");
            }
            if v == cell::BANNER_BOTTOM
                && (r + 1 >= sh.rows || grid[(r + 1) * cols + c] != cell::BANNER_TOP)
            {
                return bad("a banner's bottom half without its top half above");
            }
        }
    }
    for c in 0..cols {
        let run = (sh.bottom[c]..=sh.top[c])
            .take_while(|&r| grid[r * cols + c] == cell::BEANSTALK)
            .count();
        let all = (0..sh.rows)
            .filter(|&r| grid[r * cols + c] == cell::BEANSTALK)
            .count();
        if all > 0 && (sh.tower[c] || run != all || run > sh.beanstalk_points.len()) {
            return bad("beanstalk cells must be one run from the bottom of a garden column");
        }
    }
    if seat.roof() >= 0 && grid[seat.roof() as usize] != cell::ROOF {
        return bad("the roof cell named by roof must hold R0");
    }
    if flagged && !grid.iter().any(|&v| cell::is_roof(v) && cell::flags(v) > 0) {
        return bad("a seat flagged for a flag bonus with no roof holding flags");
    }
    Ok((seat, flagged))
}

fn check_consistency(st: &FlipPickTowersState) -> Result<()> {
    let cfg = st.cfg();
    let sh = &cfg.sheet;
    let n = cfg.players;
    let seats = &st.seats[..n];
    let seat = st.seat as usize;
    let display = st.display_len;
    let sketch_defaults = st.task == Task::None
        && st.magic == -1
        && st.delta == 0
        && st.pass == 0
        && st.queue_len == 0
        && st.decoration == Deco::None
        && st.bean_height == 0;
    match st.step {
        Step::Deal => {
            if display != 0 || st.deck != cfg.masks.full_deck || st.round != 1 || st.turn != 0 {
                return bad("the deal step comes before anything else");
            }
        }
        Step::Flip => {
            if display == 3 {
                return bad("a full display in the flip step");
            }
        }
        Step::Dragon | Step::Pick | Step::Sketch => {
            if display != 3 {
                return bad("the dragon, pick and sketch steps need a display of 3 cards");
            }
        }
        Step::Over => {
            if display != 0 {
                return bad("a display after the end of the game");
            }
        }
    }
    if st.step == Step::Dragon {
        let d = st.dragons_in_display();
        let most = if cfg.dragon_per_card { d } else { 1 };
        if d == 0 || st.dragons_left == 0 || st.dragons_left > most {
            return bad("dragon step without a dragon, or with a wrong dragons_left");
        }
    } else if st.dragons_left != 0 {
        return bad("dragons_left outside the dragon step");
    }
    for (s, x) in seats.iter().enumerate() {
        let picked = x.pick >= 0;
        let ok = match st.step {
            Step::Pick => picked == (s < seat),
            Step::Sketch => picked,
            _ => !picked,
        };
        if !ok {
            return bad(format!("seat {s}'s pick does not fit the step"));
        }
        if st.flagged & (1 << s) != 0 && st.flags_taken == 0 {
            return bad(format!(
                "seat {s} took a flag bonus but no bonus is crossed out this round"
            ));
        }
        if x.roof() >= 0 && (st.step != Step::Sketch || s > seat) {
            return bad(format!(
                "seat {s} has a roof of this turn outside its sketch"
            ));
        }
    }
    if st.step != Step::Sketch && !sketch_defaults {
        return bad("sketch fields outside the sketch step");
    }
    if st.step == Step::Sketch && (st.task == Task::None || st.pass == 0) {
        return bad("the sketch step needs a task and a pass");
    }
    if (st.decoration != Deco::None) != (st.task == Task::Decoration) {
        return bad("a decoration is pending exactly in the decoration task");
    }
    if st.decoration == Deco::Beanstalk {
        if !sh.bean_heights.contains(&st.bean_height) {
            return bad("bean_height must be one of the sheet's bean heights");
        }
    } else if st.bean_height > 0 {
        return bad("bean_height without a beanstalk");
    }
    if st.final_turn && !seats.iter().any(|x| x.crest >= 3) {
        return bad("final_turn without a full crest");
    }
    if st.step == Step::Sketch {
        let f = st.sketch_card() / 5;
        let x = &seats[seat];
        if st.task == Task::Magic && st.magic != -1 {
            return bad("magic chosen while the magic task is pending");
        }
        if st.magic >= 0 && x.used(st.magic as usize) == 0 {
            return bad("magic of a creature never used");
        }
        if (st.magic == BWCA || st.magic == SOSBAN) && f > 8 {
            return bad("Bwca or Sosban for a card that is not a floor");
        }
        let bwca_set = st.magic == BWCA && !matches!(st.task, Task::Magic | Task::Bwca);
        if bwca_set != (st.delta != 0) {
            return bad("delta does not fit Bwca's state");
        }
        if st.task == Task::Bwca && st.magic != BWCA {
            return bad("the bwca task without Bwca");
        }
        if st.pass == 2 && st.magic != MAB {
            return bad("a second pass without Mab");
        }
        if st.task == Task::Derwen && !(st.magic == DERWEN && st.pass == 1) {
            return bad("the derwen task without Derwen in pass 1");
        }
        let most = if st.magic == JIJI && st.pass == 1 {
            3
        } else {
            1
        };
        if st.queue_len > most {
            return bad("a queue longer than the sketch allows");
        }
    }
    Ok(())
}
