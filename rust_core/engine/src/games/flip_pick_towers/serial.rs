//! Canonical JSON of a whole state and its strict reader (docs/rules/flip_pick_towers.md §10).

use super::bits::Deck;
use super::observation::grid_token;
use super::pyjson::{self, J};
use super::sheet::{DECK_SIZE, MAX_CELLS, NUM_KINDS};
use super::state::{
    cell, Deco, FlipPickTowersState, Seat, Step, Task, BWCA, DERWEN, JIJI, MAB, SOSBAN,
};
use super::{Config, ID};
use crate::error::{invalid, Result};
use crate::params::{params_to_json, ParamValue};
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

fn bad<T>(what: impl std::fmt::Display) -> Result<T> {
    invalid(format!("{ID} state: {what}"))
}

/// One JSON object with exactly the expected keys.
struct Obj<'a> {
    items: &'a [(String, J)],
    what: &'static str,
}

impl<'a> Obj<'a> {
    fn new(j: &'a J, what: &'static str, keys: &[&str]) -> Result<Self> {
        let Some(items) = j.as_obj() else {
            return bad(format!("{what} must be an object"));
        };
        for k in keys {
            if !items.iter().any(|(key, _)| key == k) {
                return bad(format!("{what} lacks the key {k:?}"));
            }
        }
        if let Some((extra, _)) = items.iter().find(|(k, _)| !keys.contains(&k.as_str())) {
            return bad(format!(
                "{what} has an unknown key {:?}",
                extra.chars().take(40).collect::<String>()
            ));
        }
        Ok(Obj { items, what })
    }

    fn get(&self, key: &str) -> &'a J {
        self.items
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
            .unwrap_or(&J::Null)
    }

    fn int(&self, key: &str, lo: i64, hi: i64) -> Result<i64> {
        int_in(self.get(key), lo, hi, self.what, key)
    }

    fn list(&self, key: &str) -> Result<&'a [J]> {
        self.get(key)
            .as_arr()
            .map_or_else(|| bad(format!("{}.{key} must be a list", self.what)), Ok)
    }

    fn flag(&self, key: &str) -> Result<bool> {
        match self.get(key) {
            J::Bool(b) => Ok(*b),
            _ => bad(format!("{}.{key} must be a bool", self.what)),
        }
    }

    fn word<T: Copy>(&self, key: &str, table: &[(T, &'static str)]) -> Result<T> {
        let s = self.get(key).as_str();
        table
            .iter()
            .find(|(_, n)| Some(*n) == s)
            .map(|(t, _)| *t)
            .map_or_else(
                || bad(format!("{}.{key} is not a known name", self.what)),
                Ok,
            )
    }
}

fn int_in(j: &J, lo: i64, hi: i64, what: &str, key: &str) -> Result<i64> {
    match j {
        J::Int(v) if (lo as i128..=hi as i128).contains(v) => Ok(*v as i64),
        _ => bad(format!("{what}.{key} must be an int in {lo}..{hi}")),
    }
}

fn ints(list: &[J], lo: i64, hi: i64, what: &str) -> Result<Vec<i64>> {
    list.iter()
        .map(|j| int_in(j, lo, hi, what, "entries"))
        .collect()
}

fn param_matches(value: &ParamValue, j: &J) -> bool {
    match (value, j) {
        (ParamValue::Int(a), J::Int(b)) => *a as i128 == *b,
        (ParamValue::Bool(a), J::Bool(b)) => a == b,
        (ParamValue::Str(a), J::Str(b)) => a == b,
        _ => false,
    }
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
    let root = match pyjson::parse(text) {
        Ok(j) => j,
        Err(e) => return bad(format!("not valid JSON: {e}")),
    };
    let o = Obj::new(
        &root,
        "the state",
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
    if o.get("game").as_str() != Some(ID) {
        return bad(format!("game must be {ID:?}"));
    }
    o.int("version", VERSION, VERSION)?;
    let Some(params) = o.get("params").as_obj() else {
        return bad("params must be an object");
    };
    if params.len() != cfg.params.len()
        || !cfg.params.iter().all(|(k, v)| {
            params
                .iter()
                .find(|(pk, _)| pk == k)
                .is_some_and(|(_, j)| param_matches(v, j))
        })
    {
        return bad("params differ from the game's");
    }
    let sh = &cfg.sheet;
    let n = cfg.players;
    let max_id = cfg.num_actions().max(cfg.max_chance_outcomes()) as i64 - 1;
    let history: Vec<u32> = ints(o.list("history")?, 0, max_id, "history")?
        .into_iter()
        .map(|a| a as u32)
        .collect();

    let mut st = FlipPickTowersState::new(cfg);
    st.step = o.word("step", &STEPS)?;
    st.task = o.word("task", &TASKS)?;
    st.decoration = o.word("decoration", &DECOS)?;
    st.round = o.int("round", 1, 2)? as u8;
    st.turn = o.int("turn", 0, 21)? as u8;
    st.flags_taken = o.int("flags_taken", 0, 3)? as u8;
    st.final_turn = o.flag("final_turn")?;
    st.seat = o.int("seat", 0, n as i64 - 1)? as u8;
    st.dragons_left = o.int("dragons_left", 0, 2)? as u8;
    st.magic = o.int("magic", -1, 4)? as i8;
    st.delta = o.int("delta", -1, 1)? as i8;
    st.pass = o.int("pass", 0, 2)? as u8;
    st.bean_height = o.int("bean_height", 0, sh.beanstalk_points.len() as i64)? as u8;

    let m = sh.cards.len() as i64;
    let royal = o.list("royal_cards")?;
    if royal.len() != 3 {
        return bad("royal_cards must hold 3 entries");
    }
    let royal = ints(royal, -1, m - 1, "royal_cards")?;
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

    let deck = o.list("deck")?;
    if deck.len() != NUM_KINDS {
        return bad(format!("deck must hold {NUM_KINDS} counts"));
    }
    let mut counts = [0u8; NUM_KINDS];
    for (k, v) in ints(deck, 0, DECK_SIZE as i64, "deck")?
        .into_iter()
        .enumerate()
    {
        counts[k] = v as u8;
    }
    let display = o.list("display")?;
    if display.len() > 3 {
        return bad("display holds at most 3 cards");
    }
    for (slot, k) in ints(display, 0, NUM_KINDS as i64 - 1, "display")?
        .into_iter()
        .enumerate()
    {
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
    let queue = o.list("queue")?;
    if queue.len() > 3 {
        return bad("queue holds at most 3 resources");
    }
    for (i, q) in ints(queue, 0, 4, "queue")?.into_iter().enumerate() {
        st.queue[i] = q as u8;
    }
    st.queue_len = queue.len() as u8;

    let seats = o.list("seats")?;
    if seats.len() != n {
        return bad(format!("seats must hold {n} seats"));
    }
    for (s, sj) in seats.iter().enumerate() {
        let (seat, flagged) = read_seat(cfg, sj)?;
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

/// A seat and its `flagged` (kept in the state's bit set).
fn read_seat(cfg: &Config, j: &J) -> Result<(Seat, bool)> {
    let sh = &cfg.sheet;
    let o = Obj::new(
        j,
        "a seat",
        &[
            "creatures",
            "crest",
            "flagged",
            "grid",
            "pick",
            "roof",
            "round_scores",
            "stalls",
        ],
    )?;
    let mut seat = Seat::new(sh);
    seat.crest = o.int("crest", 0, 3)? as u8;
    let flagged = o.flag("flagged")?;
    seat.pick = o.int("pick", -1, 2)? as i8;
    seat.set_roof(o.int("roof", -1, sh.cells() as i64 - 1)? as i16);
    let rs = o.list("round_scores")?;
    if rs.len() != 2 {
        return bad("round_scores must hold 2 ints");
    }
    let rs = ints(rs, -1_000_000_000, 1_000_000_000, "round_scores")?;
    seat.round_scores = [rs[0] as i32, rs[1] as i32];
    let creatures = o.list("creatures")?;
    if creatures.len() != 5 {
        return bad("creatures must hold 5 pairs");
    }
    for (c, pair) in creatures.iter().enumerate() {
        let spaces = sh.creature_spaces[c] as i64;
        let pair = match pair.as_arr() {
            Some(p) if p.len() == 2 => ints(p, 0, spaces, "creatures")?,
            _ => return bad("a creature entry must be a pair [gained, used]"),
        };
        if pair[0] + pair[1] > spaces {
            return bad("a creature's gained + used exceeds its X spaces");
        }
        seat.set_creature(c, pair[0] as u8, pair[1] as u8);
    }
    let stalls = o.list("stalls")?;
    if stalls.len() != 4 {
        return bad("stalls must hold 4 lists");
    }
    for (r, list) in stalls.iter().enumerate() {
        let (lo, hi) = (sh.stall_first[r], sh.stall_first[r + 1]);
        let list = match list.as_arr() {
            Some(l) if l.len() == hi - lo => l,
            _ => return bad("a stall's list must match the sheet's stall columns"),
        };
        for (k, v) in list.iter().enumerate() {
            let j = lo + k;
            seat.set_stall(
                j,
                int_in(v, 0, sh.stall_boxes[j] as i64, "stalls", "fills")? as u8,
            );
        }
    }
    let rows = o.list("grid")?;
    if rows.len() != sh.rows {
        return bad(format!("grid must hold {} rows", sh.rows));
    }
    let mut grid = [cell::NONE_CELL; MAX_CELLS];
    for (r, row) in rows.iter().enumerate() {
        let row = match row.as_arr() {
            Some(row) if row.len() == sh.cols => row,
            _ => return bad(format!("every grid row must hold {} tokens", sh.cols)),
        };
        for (c, t) in row.iter().enumerate() {
            let Some(v) = t.as_str().and_then(parse_token) else {
                return bad("a grid token does not parse");
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
