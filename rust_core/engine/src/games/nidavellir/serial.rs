//! Canonical JSON of a whole state and its reader (docs/rules/nidavellir.md §8). The reader rebuilds the state
//! from the fields and refuses every inconsistency the contract lists; the history is only range-checked.

use super::data::*;
use super::notation::{NUM_ACTIONS, TV_NUM_ACTIONS};
use super::state::{
    valid_entry, Item, NidavellirState, Phase, Word, AGE1_CAMP, AGE2_CAMP, COL_CAP, QUEUE_CAP,
};
use super::{Rules, ID};
use crate::error::{invalid, Result};
use crate::json::Fields;
use crate::params::{params_to_json, Params};
use serde_json::{json, Value};

const VERSION: i64 = 1;
const PREFIX: &str = "nidavellir state: ";

const KEYS: [&str; 25] = [
    "age",
    "bid_start",
    "current",
    "decks",
    "discard",
    "distinctions",
    "drawn",
    "game",
    "heroes_left",
    "history",
    "order",
    "order_pos",
    "params",
    "phase",
    "pioneer_at",
    "queue",
    "reveal",
    "revealed",
    "seats",
    "tavern",
    "taverns",
    "treasure",
    "turn",
    "uline_bidder",
    "version",
];
const SEAT_KEYS: [&str; 9] = [
    "army",
    "bids",
    "gem",
    "hand",
    "heroes",
    "shown_bids",
    "shown_hand",
    "thrud",
    "ylud",
];

const TV_KEYS: [&str; 5] = ["camp", "camp_deck", "camp_visited", "enlist", "enlist_pos"];
const TV_SEAT_KEYS: [&str; 2] = ["camp_cards", "zolkur"];

pub const PHASE_NAMES: [(Phase, &str); 27] = [
    (Phase::Gems, "gems"),
    (Phase::Fill, "fill"),
    (Phase::Bid, "bid"),
    (Phase::UlineBid, "uline_bid"),
    (Phase::Take, "take"),
    (Phase::Transform, "transform"),
    (Phase::Hero, "hero"),
    (Phase::Discard, "discard"),
    (Phase::Thrud, "thrud"),
    (Phase::Ylud, "ylud"),
    (Phase::UlineTrade, "uline_trade"),
    (Phase::PioneerDraw, "pioneer_draw"),
    (Phase::PioneerKeep, "pioneer_keep"),
    (Phase::PioneerBurn, "pioneer_burn"),
    (Phase::Over, "over"),
    (Phase::CampFill, "camp_fill"),
    (Phase::TavernDiscard, "tavern_discard"),
    (Phase::EnlistOrder, "enlist_order"),
    (Phase::Enlist, "enlist"),
    (Phase::Andumia, "andumia"),
    (Phase::Holda, "holda"),
    (Phase::Khrad, "khrad"),
    (Phase::Olwyn, "olwyn"),
    (Phase::Vidofnir, "vidofnir"),
    (Phase::Brisingamens, "brisingamens"),
    (Phase::BrisColumn, "bris_column"),
    (Phase::Hofud, "hofud"),
];

pub const WORD_NAMES: [(Word, &str); 25] = [
    (Word::Recruit, "recruit"),
    (Word::Transform, "transform"),
    (Word::Trade, "trade"),
    (Word::Thrud, "thrud"),
    (Word::Discard, "discard"),
    (Word::Ylud, "ylud"),
    (Word::Distinction, "distinction"),
    (Word::Pioneer, "pioneer"),
    (Word::Burn, "burn"),
    (Word::Age2, "age2"),
    (Word::ThrudHome, "thrud_home"),
    (Word::End, "end"),
    (Word::CampPick, "camp_pick"),
    (Word::Andumia, "andumia"),
    (Word::Brisingamens, "brisingamens"),
    (Word::BrisEnd, "bris_end"),
    (Word::Vidofnir, "vidofnir"),
    (Word::Khrad, "khrad"),
    (Word::Olwyn, "olwyn"),
    (Word::Hofud, "hofud"),
    (Word::ForcedHero, "forced_hero"),
    (Word::TavernDrop, "tavern_drop"),
    (Word::EnlistOrder, "enlist_order"),
    (Word::Enlist, "enlist"),
    (Word::CampClear, "camp_clear"),
];

fn bits(b: u32) -> Vec<u32> {
    (0..32).filter(|&m| b >> m & 1 == 1).collect()
}

/// A seat's heroes (17 counts, then with Thingvellir its six heroes as 0 / 1).
fn heroes_list(s: &NidavellirState, counts: &[u8; HEROES], tv: u8) -> Vec<u8> {
    let mut out = counts.to_vec();
    if s.tv() {
        out.extend((0..TV_HEROES).map(|h| tv >> h & 1));
    }
    out
}

pub fn phase_name(p: Phase) -> &'static str {
    PHASE_NAMES
        .iter()
        .find(|(q, _)| *q == p)
        .map_or("over", |(_, n)| n)
}

fn word_name(w: Word) -> &'static str {
    WORD_NAMES
        .iter()
        .find(|(q, _)| *q == w)
        .map_or("end", |(_, n)| n)
}

fn codes(counts: &[u8; COINS]) -> Vec<u8> {
    (0..COINS)
        .flat_map(|c| std::iter::repeat_n(c as u8, counts[c] as usize))
        .collect()
}

fn signed(v: u8) -> i64 {
    if v == NONE {
        -1
    } else {
        v as i64
    }
}

pub fn to_value(s: &NidavellirState, history: &[u32]) -> Value {
    let n = s.n();
    let seats: Vec<Value> = (0..n)
        .map(|q| {
            let seat = &s.seats[q];
            let army: Vec<Vec<u8>> = (0..CLASSES).map(|j| seat.col(j).to_vec()).collect();
            let mut v = json!({
                "army": army,
                "bids": seat.bids.iter().map(|&b| signed(b)).collect::<Vec<_>>(),
                "gem": seat.gem,
                "hand": codes(&seat.hand),
                "heroes": heroes_list(s, &seat.heroes, seat.tv_heroes),
                "shown_bids": seat.shown_bids.to_vec(),
                "shown_hand": codes(&seat.shown_hand),
                "thrud": seat.thrud,
                "ylud": seat.ylud,
            });
            if s.tv() {
                v["camp_cards"] = json!(bits(seat.camp_cards));
                v["zolkur"] = json!(seat.zolkur);
            }
            v
        })
        .collect();
    let queue: Vec<Value> = s
        .queue()
        .iter()
        .map(|it| json!([word_name(it.word), it.seat, it.arg]))
        .collect();
    let order: Vec<u8> = s.order[..(s.order_len as usize).min(5)].to_vec();
    let mut v = json!({
        "age": s.age,
        "bid_start": s.bid_start,
        "current": if s.phase == Phase::Over { -1 } else { s.current },
        "decks": [s.decks[0].to_vec(), s.decks[1].to_vec()],
        "discard": s.discard.to_vec(),
        "distinctions": s.distinctions.to_vec(),
        "drawn": s.drawn.to_vec(),
        "game": ID,
        "heroes_left": heroes_list(s, &s.heroes_left, s.tv_heroes_left),
        "history": history,
        "order": order,
        "order_pos": s.order_pos,
        "params": rules_json(&s.rules),
        "phase": phase_name(s.phase),
        "pioneer_at": s.pioneer_at,
        "queue": queue,
        "reveal": s.reveal[..n].to_vec(),
        "revealed": s.revealed,
        "seats": seats,
        "tavern": s.tavern,
        "taverns": s.taverns.iter().map(|t| t.to_vec()).collect::<Vec<_>>(),
        "treasure": s.treasure.to_vec(),
        "turn": s.turn,
        "uline_bidder": s.uline_bidder,
        "version": VERSION,
    });
    if s.tv() {
        v["camp"] = json!(bits(s.camp));
        v["camp_deck"] = json!(bits(s.camp_deck));
        v["camp_visited"] = json!(s.camp_visited);
        v["enlist"] = json!(s.enlist_order());
        v["enlist_pos"] = json!(s.enlist_pos);
    }
    v
}

fn rules_json(r: &Rules) -> Value {
    if r.thingvellir {
        return json!({
            "enlist_chooser": r.enlist_chooser.key(),
            "enlist_each_turn": r.enlist_each_turn,
            "first_game": r.first_game,
            "players": r.players,
            "thingvellir": r.thingvellir,
            "two_player_camp_discard": r.two_player_camp_discard,
            "warrior_bonus_at_zero": r.warrior_bonus_at_zero,
        });
    }
    json!({
        "first_game": r.first_game,
        "players": r.players,
        "warrior_bonus_at_zero": r.warrior_bonus_at_zero,
    })
}

pub fn serialize(s: &NidavellirState, history: &[u32]) -> String {
    to_value(s, history).to_string()
}

fn err<T>(msg: impl std::fmt::Display) -> Result<T> {
    invalid(format!("{PREFIX}{msg}"))
}

fn counts<const N: usize>(o: &Fields, key: &str, v: &Value) -> Result<[u8; N]> {
    let items = o.list_at(key, v, N..=N)?;
    let mut out = [0u8; N];
    for (i, x) in items.iter().enumerate() {
        out[i] = o.int_at(&format!("{key}[{i}]"), x, 0, 255)? as u8;
    }
    Ok(out)
}

/// An ascending list of coin codes, as counts.
fn coin_list(o: &Fields, key: &str) -> Result<[u8; COINS]> {
    let list = o.ints(key, 0..=32, 0, COINS as i64 - 1)?;
    if list.windows(2).any(|w| w[0] > w[1]) {
        return o.fail(key, "must be in ascending order");
    }
    let mut out = [0u8; COINS];
    for c in list {
        out[c as usize] += 1;
    }
    Ok(out)
}

/// A list of camp cards (ascending, at most `max`), as bits.
fn camp_bits(o: &Fields, key: &str, max: usize) -> Result<u32> {
    let list = o.ints(key, 0..=max, 0, CAMP_CARDS as i64 - 1)?;
    if list.windows(2).any(|w| w[0] >= w[1]) {
        return o.fail(key, "must be in strictly ascending order");
    }
    Ok(list.iter().fold(0u32, |b, &m| b | 1 << m))
}

/// thingvellir.md §7: each camp card in one place at most, the decks of the current Age, the heroes once.
fn tv_checks(s: &NidavellirState) -> Result<()> {
    let d = data();
    let n = s.n();
    let age_cards = if s.age == 1 { AGE1_CAMP } else { AGE2_CAMP };
    if s.camp_deck & !age_cards != 0 || s.camp & !age_cards != 0 {
        return err("the camp or its deck holds a card of the other Age");
    }
    let mut seen = s.camp & s.camp_deck;
    let mut all = s.camp | s.camp_deck;
    for q in 0..n {
        let seat = &s.seats[q];
        let mut army = 0u32;
        for j in 0..CLASSES {
            for &e in seat.col(j) {
                let m = match e {
                    VEGVISIR_ENTRY => VEGVISIR,
                    46..=57 => d.tv.merc_card[(e - MERCENARY_ENTRY) as usize] as usize,
                    _ => continue,
                };
                seen |= army & 1 << m;
                army |= 1 << m;
            }
        }
        for set in [seat.camp_cards, army] {
            seen |= all & set;
            all |= set;
        }
    }
    if seen != 0 {
        return err("a camp card is in two places");
    }
    if s.age == 1 && all & AGE2_CAMP != 0 {
        return err("an Age II camp card is out in Age I");
    }
    for h in 0..TV_HEROES {
        let held = (0..n)
            .filter(|&q| s.seats[q].tv_heroes >> h & 1 == 1)
            .count();
        if held + (s.tv_heroes_left >> h & 1) as usize != 1 {
            return err(format!("hero {}: held + left is not 1", d.tv.hero_keys[h]));
        }
    }
    if s.camp_visited && s.tavern < 0 {
        return err("camp_visited is set outside a tavern");
    }
    let enlisting = s
        .queue()
        .iter()
        .any(|i| matches!(i.word, Word::EnlistOrder | Word::Enlist));
    if s.enlist_len > 0 && !enlisting {
        return err("enlist is set outside the enlistment");
    }
    Ok(())
}

/// Item 20: the order is the revealed values' order, the gems breaking ties (§5.3). The reveal is not compared
/// with the bids: a Royal Offering may transform the bid coin after the reveal.
fn order_as_revealed(s: &NidavellirState) -> bool {
    let n = s.rules.n();
    let t = s.tavern.clamp(0, 2) as usize;
    // Thingvellir: a seat left out of the tavern by Jarnglofi (T8) has no order place and reveal −1; a seat
    // whose coin Jarnglofi took after the reveal keeps its place.
    let (order, len) = s.revealed_order();
    (0..n).all(|q| s.reveal[q] >= 0 || s.out_of_tavern(q, t))
        && s.order[..s.order_len as usize] == order[..len]
}

/// Item 20: each tavern holds what the turn leaves in it: c cards until it is resolved, c less the cards taken
/// while it is (2 players: one left over), none once resolved; outside a turn (the gems, an Age's end) none;
/// while filling, the taverns are filled in order.
fn taverns_as_played(s: &NidavellirState) -> bool {
    let c = s.rules.cards() as u32;
    let sizes: Vec<u32> = s
        .taverns
        .iter()
        .map(|t| t.iter().map(|&k| k as u32).sum())
        .collect();
    if s.phase == Phase::Fill {
        return sizes.windows(2).all(|w| w[0] >= w[1]);
    }
    if s.phase == Phase::CampFill {
        return sizes.iter().all(|&z| z == c);
    }
    let want: Vec<u32> = match s.tavern {
        t if t >= 0 => (0..3)
            .map(|k| match k.cmp(&(t as usize)) {
                std::cmp::Ordering::Less => 0,
                // Thingvellir: camp takes, the 2-player discard and Jarnglofi change the count.
                std::cmp::Ordering::Equal if s.tv() => sizes[k].min(c),
                std::cmp::Ordering::Equal => c.saturating_sub(s.order_pos as u32),
                std::cmp::Ordering::Greater => c,
            })
            .collect(),
        _ if s.phase == Phase::Bid => vec![c; 3],
        _ => vec![0; 3],
    };
    sizes == want
}

/// Item 20: the end of an Age is all in the queue: `distinction`, `pioneer`, `burn` and `age2` only in Age I,
/// `thrud_home` and `end` only in Age II, `age2` and `end` last; once Age I's distinctions have begun, `age2` is queued; `thrud_home` comes before an
/// `end`. Otherwise the flow would run past an Age's end into a turn that has no cards.
fn ages_end_queued(s: &NidavellirState) -> bool {
    let queue = s.queue();
    let has = |w: Word| queue.iter().any(|i| i.word == w);
    let age1 = s.age == 1;
    let age2_words = [Word::ThrudHome, Word::End, Word::BrisEnd];
    let age1_words = [
        Word::Age2,
        Word::Distinction,
        Word::Pioneer,
        Word::Burn,
        Word::CampClear,
    ];
    if (if age1 {
        &age2_words[..]
    } else {
        &age1_words[..]
    })
    .iter()
    .any(|&w| has(w))
    {
        return false;
    }
    let last = queue.len().saturating_sub(1);
    if queue[..last]
        .iter()
        .any(|i| matches!(i.word, Word::Age2 | Word::End))
    {
        return false;
    }
    if age1 && s.distinctions.iter().any(|&d| d != -2) && !has(Word::Age2) {
        return false;
    }
    // Outside a tavern, effects wait only at an Age's end, whose last item is `age2` or `end`.
    let enlisting = s.rules.enlist_each_turn && (has(Word::EnlistOrder) || has(Word::Enlist));
    if s.tavern < 0 && !queue.is_empty() && !has(Word::Age2) && !has(Word::End) && !enlisting {
        return false;
    }
    if has(Word::Age2) && s.tv() && !has(Word::CampClear) {
        return false;
    }
    match queue.iter().position(|i| i.word == Word::ThrudHome) {
        Some(k) => queue[k..].iter().any(|i| i.word == Word::End),
        None => true,
    }
}

/// Item 20: the decks hold at least the cards the rest of the game will draw (3c a turn, and in Age I the
/// Age II deck also a card for each Pioneer or burn still to come: the explorer distinction not yet awarded,
/// or a queued `pioneer` / `burn`).
fn decks_last(s: &NidavellirState, rules: &Rules) -> bool {
    let per_turn = 3 * rules.cards() as u32;
    let later_turns = (rules.turns() - 1 - s.turn) as u32;
    let this_turn = match s.phase {
        Phase::Gems => per_turn,
        Phase::Fill => {
            per_turn
                - s.taverns
                    .iter()
                    .flatten()
                    .map(|&c| c as u32)
                    .sum::<u32>()
                    .min(per_turn)
        }
        _ => 0,
    };
    let total = |deck: &[u8]| deck.iter().map(|&c| c as u32).sum::<u32>();
    if total(&s.decks[(s.age - 1) as usize]) < later_turns * per_turn + this_turn {
        return false;
    }
    if s.age == 2 {
        return true;
    }
    let queue = s.queue();
    let extra = (s.distinctions[4] == -2) as u32
        + queue
            .iter()
            .filter(|i| matches!(i.word, Word::Pioneer | Word::Burn))
            .count() as u32;
    total(&s.decks[1]) + total(&s.drawn) >= rules.turns() as u32 * per_turn + extra
}

pub fn deserialize(
    rules: &Rules,
    params: &Params,
    text: &str,
) -> Result<(NidavellirState, Vec<u32>)> {
    let value: Value = match crate::json::parse(text) {
        Ok(v) => v,
        Err(e) => return err(format!("not JSON ({e})")),
    };
    let tv = rules.thingvellir;
    let mut keys: Vec<&str> = KEYS.to_vec();
    let mut seat_keys: Vec<&str> = SEAT_KEYS.to_vec();
    if tv {
        keys.extend(TV_KEYS);
        seat_keys.extend(TV_SEAT_KEYS);
    }
    let obj = Fields::new(&value, PREFIX, "", &keys)?;
    obj.envelope(ID, VERSION, &params_to_json(params))?;
    let d = data();
    let n = rules.n();
    let nl = n as i64;
    let history: Vec<u32> = obj
        .ints(
            "history",
            ..,
            0,
            if tv { TV_NUM_ACTIONS } else { NUM_ACTIONS } as i64 - 1,
        )?
        .into_iter()
        .map(|a| a as u32)
        .collect();
    let hl = history.len() as i64;
    let mut s = NidavellirState::new(*rules);
    s.steps = history.len() as u32;
    s.phase = obj.name("phase", &PHASE_NAMES)?;
    s.age = obj.int("age", 1, 2)? as u8;
    s.turn = obj.int("turn", 0, rules.turns() as i64 - 1)? as u8;
    s.tavern = obj.int("tavern", -1, 2)? as i8;
    s.revealed = obj.int("revealed", 0, 3)? as u8;
    s.bid_start = obj.int("bid_start", -1, hl)? as i32;
    s.pioneer_at = obj.int("pioneer_at", -1, hl)? as i32;
    s.current = obj.int("current", -1, nl - 1)? as i8;
    s.uline_bidder = obj.int("uline_bidder", -1, nl - 1)? as i8;
    let decks = obj.list("decks", 2..=2)?;
    for a in 0..2 {
        s.decks[a] = counts(&obj, &format!("decks[{a}]"), &decks[a])?;
    }
    let taverns = obj.list("taverns", 3..=3)?;
    for t in 0..3 {
        s.taverns[t] = counts(&obj, &format!("taverns[{t}]"), &taverns[t])?;
    }
    s.discard = counts(&obj, "discard", obj.get("discard"))?;
    s.drawn = counts(&obj, "drawn", obj.get("drawn"))?;
    s.treasure = counts(&obj, "treasure", obj.get("treasure"))?;
    let hl_len = if tv { ALL_HEROES } else { HEROES };
    let left = obj.ints("heroes_left", hl_len..=hl_len, 0, 255)?;
    for h in 0..HEROES {
        s.heroes_left[h] = left[h] as u8;
    }
    s.tv_heroes_left = 0;
    for h in HEROES..hl_len {
        if left[h] > 1 {
            return obj.fail("heroes_left", "holds a Thingvellir hero more than once");
        }
        s.tv_heroes_left |= (left[h] as u8) << (h - HEROES);
    }
    if tv {
        s.camp = camp_bits(&obj, "camp", 5)?;
        s.camp_deck = camp_bits(&obj, "camp_deck", CAMP_CARDS)?;
        s.camp_visited = obj.bool("camp_visited")?;
        let enlist = obj.ints("enlist", 0..=n, 0, nl - 1)?;
        for (i, &q) in enlist.iter().enumerate() {
            if enlist[..i].contains(&q) {
                return obj.fail("enlist", "names a seat twice");
            }
            s.enlist[i] = q as u8;
        }
        s.enlist_len = enlist.len() as u8;
        // The order is emptied after its last seat (state.rs), so a position past the end is unreachable.
        s.enlist_pos = obj.int("enlist_pos", 0, (enlist.len() as i64 - 1).max(0))? as u8;
    }
    let dist = obj.ints("distinctions", 5..=5, -2, nl - 1)?;
    for i in 0..5 {
        s.distinctions[i] = dist[i] as i8;
    }
    let reveal = obj.ints("reveal", n..=n, -1, 25)?;
    for i in 0..n {
        s.reveal[i] = reveal[i] as i8;
    }
    let order = obj.ints("order", 0..=n, 0, nl - 1)?;
    if !order.is_empty() {
        let mut seen = [false; 5];
        // Thingvellir: Jarnglofi may leave a seat out of the order (T8).
        if order.len() != n && !tv {
            return obj.fail("order", format!("must be empty or list all {n} seats"));
        }
        for &q in &order {
            if seen[q as usize] {
                return obj.fail("order", "names a seat twice");
            }
            seen[q as usize] = true;
        }
        for (i, &q) in order.iter().enumerate() {
            s.order[i] = q as u8;
        }
    }
    s.order_len = order.len() as u8;
    s.order_pos = obj.int("order_pos", 0, order.len() as i64)? as u8;
    if s.tavern < 0 && (!order.is_empty() || reveal.iter().any(|&r| r != -1)) {
        return err("order and reveal must be empty when tavern is -1");
    }
    // The queue.
    let queue = obj.list("queue", 0..=QUEUE_CAP)?;
    for (i, item) in queue.iter().enumerate() {
        let sub = format!("queue[{i}]");
        let parts = obj.list_at(&sub, item, 3..=3)?;
        let word = match WORD_NAMES
            .iter()
            .find(|(_, w)| Some(*w) == parts[0].as_str())
        {
            Some(&(w, _)) => w,
            None => return obj.fail(&format!("{sub}[0]"), "must be a queue word"),
        };
        let seated = !matches!(
            word,
            Word::Distinction | Word::Burn | Word::Age2 | Word::ThrudHome | Word::End
        );
        let seated = seated && !matches!(word, Word::EnlistOrder | Word::CampClear);
        let tv_word = WORD_NAMES[12..].iter().any(|&(w, _)| w == word);
        if tv_word && !tv {
            return obj.fail(&format!("{sub}[0]"), "must be a queue word");
        }
        let (lo, hi) = if seated { (0, nl - 1) } else { (-1, -1) };
        let seat = obj.int_at(&format!("{sub}[1]"), &parts[1], lo, hi)?;
        let (alo, ahi) = match word {
            Word::Transform => (1, 25),
            Word::Trade => (-1, COINS as i64 - 1),
            Word::Discard => (0, 31),
            Word::Distinction => (0, 4),
            Word::Brisingamens => (1, 2),
            Word::BrisEnd => (0, 5),
            Word::Vidofnir => (-1, COINS as i64 - 1),
            Word::Olwyn => (-1, 4),
            _ => (0, 0),
        };
        let arg = obj.int_at(&format!("{sub}[2]"), &parts[2], alo, ahi)?;
        s.queue[i] = Item {
            word,
            seat: seat as i8,
            arg: arg as i8,
        };
    }
    s.queue_len = queue.len() as u8;
    // Seats.
    let seats = obj.list("seats", n..=n)?;
    for (q, sv) in seats.iter().enumerate() {
        let so = obj.object_at(&format!("seats[{q}]"), sv, &seat_keys)?;
        let seat = &mut s.seats[q];
        seat.gem = so.int("gem", 0, 6)? as u8;
        seat.hand = coin_list(&so, "hand")?;
        seat.shown_hand = coin_list(&so, "shown_hand")?;
        let bids = so.ints("bids", 3..=3, -1, COINS as i64 - 1)?;
        for t in 0..3 {
            seat.bids[t] = if bids[t] < 0 { NONE } else { bids[t] as u8 };
        }
        let shown = so.list("shown_bids", 3..=3)?;
        for t in 0..3 {
            match shown[t].as_bool() {
                Some(b) => seat.shown_bids[t] = b,
                None => return so.fail(&format!("shown_bids[{t}]"), "must be a bool"),
            }
        }
        let hs = so.ints("heroes", hl_len..=hl_len, 0, 255)?;
        for h in 0..HEROES {
            seat.heroes[h] = hs[h] as u8;
        }
        for h in HEROES..hl_len {
            if hs[h] > 1 {
                return so.fail("heroes", "holds a Thingvellir hero more than once");
            }
            seat.tv_heroes |= (hs[h] as u8) << (h - HEROES);
        }
        if tv {
            seat.camp_cards = camp_bits(&so, "camp_cards", CAMP_CARDS)?;
            seat.zolkur = so.bool("zolkur")?;
            if seat.zolkur && !seat.has_tv_hero(ZOLKUR) {
                return so.fail("zolkur", "is set without Zolkur");
            }
            if seat.has_camp(VEGVISIR) {
                return so.fail("camp_cards", "holds Vegvisir (it is an army entry)");
            }
        }
        seat.thrud = so.int("thrud", -1, 6)? as i8;
        seat.ylud = so.int("ylud", -1, 6)? as i8;
        if seat.ylud == 5 {
            return so.fail("ylud", "must be -1, 0..4 or 6");
        }
        let army = so.list("army", 5..=5)?;
        for j in 0..CLASSES {
            let sub = format!("army[{j}]");
            let col = so.list_at(&sub, &army[j], 0..=COL_CAP)?;
            for (i, e) in col.iter().enumerate() {
                let e = so.int_at(&format!("{sub}[{i}]"), e, 0, if tv { 57 } else { 42 })?;
                let fits = (valid_entry(e) || (tv && (43..58).contains(&e)))
                    && match e as u8 {
                        e if (e as usize) < DWARF_KINDS => d.kind_class[e as usize] as usize == j,
                        e @ 30..=39 => d.hero_class[(e - HERO_ENTRY) as usize] as usize == j,
                        SPECIAL_BLACKSMITH => j == BLACKSMITH,
                        VEGVISIR_ENTRY => j == EXPLORER,
                        e @ 46..=57 => {
                            d.tv.merc_class[(e - MERCENARY_ENTRY) as usize].contains(&(j as u8))
                        }
                        _ => true,
                    };
                if !fits {
                    return so.fail(
                        &format!("{sub}[{i}]"),
                        "is not a valid entry of this column",
                    );
                }
                seat.cols[j][i] = e as u8;
            }
            seat.col_len[j] = col.len() as u8;
        }
        // Thrud and Ylud.
        for (h, entry, at, key) in [
            (THRUD, THRUD_ENTRY, seat.thrud, "thrud"),
            (YLUD, YLUD_ENTRY, seat.ylud, "ylud"),
        ] {
            if (at >= 0) != (seat.heroes[h] > 0) {
                return so.fail(key, "does not match the heroes owned");
            }
            for j in 0..CLASSES {
                let k = seat.col(j).iter().filter(|&&e| e == entry).count();
                let want = (at == j as i8) as usize;
                if k != want {
                    return so.fail(key, "does not match the columns");
                }
            }
        }
        if (0..CLASSES as i8).contains(&seat.thrud)
            && seat.col(seat.thrud as usize).last() != Some(&THRUD_ENTRY)
        {
            return so.fail("thrud", "is covered (Thrud must never be covered)");
        }
        for (h, entry) in (0..10).map(|h| (h, HERO_ENTRY + h as u8)) {
            let k: usize = (0..CLASSES)
                .map(|j| seat.col(j).iter().filter(|&&e| e == entry).count())
                .sum();
            if k != seat.heroes[h] as usize {
                return so.fail("army", format!("holds hero {} {k} times", d.hero_keys[h]));
            }
        }
        let armorer: usize = (0..CLASSES)
            .map(|j| {
                seat.col(j)
                    .iter()
                    .filter(|&&e| e == SPECIAL_BLACKSMITH)
                    .count()
            })
            .sum();
        if armorer > 1 {
            return so.fail("army", "holds the special Blacksmith twice");
        }
        if tv {
            let mut double_at = [None; 2];
            for j in 0..CLASSES {
                for (k, at) in double_at.iter_mut().enumerate() {
                    let c = seat
                        .col(j)
                        .iter()
                        .filter(|&&e| e == OLWYN_ENTRY + k as u8)
                        .count();
                    if c > 1 || (c == 1 && at.is_some()) {
                        return so.fail("army", "holds one of Olwyn's doubles twice");
                    }
                    if c == 1 {
                        *at = Some(j);
                    }
                }
            }
            if double_at[0].is_some() && double_at[0] == double_at[1] {
                return so.fail("army", "holds Olwyn's doubles in one column");
            }
            if double_at.iter().any(|a| a.is_some()) && !seat.has_tv_hero(OLWYN) {
                return so.fail("army", "holds Olwyn's doubles without Olwyn");
            }
        }
        let owned = seat.owned();
        // Thingvellir: Jarnglofi discards its owner's trading coin (T8).
        let coins = 5 - (tv && seat.has_camp(JARNGLOFI)) as u32;
        if s.phase != Phase::Over && owned.iter().map(|&c| c as u32).sum::<u32>() != coins {
            return so.fail("hand", "and bids must hold exactly five coins");
        }
        // T8 discards the trading coin (b0, or s3 in its place) for good: an owner holding one is unreachable.
        let trading = owned[B0 as usize] > 0 || owned[S3 as usize] > 0;
        if s.phase != Phase::Over && tv && seat.has_camp(JARNGLOFI) && trading {
            return so.fail("hand", "holds a trading coin with Jarnglofi");
        }
        if (0..6).any(|c| owned[c] > 1) {
            return so.fail("hand", "holds a basic or special coin twice");
        }
    }
    // Conservation. The Hunting Master's s3 exists once (item 18).
    if (0..n)
        .filter(|&q| s.seats[q].owned()[S3 as usize] > 0)
        .count()
        > 1
    {
        return err("s3 is held by two seats");
    }
    let base = d.treasure[(n >= 4) as usize];
    for v in 0..TREASURE_VALUES {
        let held: u32 = (0..n).map(|q| s.seats[q].owned()[v + 6] as u32).sum();
        if held + s.treasure[v] as u32 > base[v] as u32 {
            return err(format!(
                "the Treasure coin t{} is held more often than it exists",
                v + 5
            ));
        }
    }
    for h in 0..HEROES {
        let copies = if rules.first_game && d.hero_advanced[h] {
            0
        } else {
            d.hero_copies[h]
        };
        let held: u32 = (0..n).map(|q| s.seats[q].heroes[h] as u32).sum();
        if held + s.heroes_left[h] as u32 != copies as u32 {
            return err(format!(
                "hero {}: held + left is not {copies}",
                d.hero_keys[h]
            ));
        }
    }
    if tv {
        tv_checks(&s)?;
    }
    if s.drawn.iter().map(|&c| c as u32).sum::<u32>() > 3 {
        return err("drawn holds more than three cards");
    }
    if s.taverns
        .iter()
        .any(|t| t.iter().map(|&c| c as u32).sum::<u32>() > rules.cards() as u32)
    {
        return err("a tavern holds more cards than it has places");
    }
    // The phase.
    let expected = if let Some(front) = s.front() {
        s.front_phase(front)
    } else if s.phase == Phase::Over {
        (s.age == 2).then_some((Phase::Over, -1))
    } else {
        s.main_flow()
    };
    let expected = expected.map(|(p, c)| (p, if p == Phase::Over { -1 } else { c }));
    if expected != Some((s.phase, s.current)) {
        return err("the phase and current seat do not match the queue and the flow");
    }
    // Before its decision the enlistment order is the one the mercenaries held make (TV §4.5).
    if s.phase == Phase::EnlistOrder {
        let mut fresh = s;
        fresh.make_enlist_order();
        if fresh.enlist_order() != s.enlist_order() {
            return err("the enlistment order is not the one the unplaced mercenaries make");
        }
    }
    if s.revealed as i8 != s.tavern + 1 {
        return err("revealed must be the current tavern + 1 (0 outside a tavern)");
    }
    if s.phase != Phase::Gems && s.seats[..s.n()].iter().any(|seat| seat.gem == 0) {
        return err("a seat has no gem outside the gem deal");
    }
    if (s.bid_start >= 0) != (s.phase == Phase::Bid || s.tavern >= 0) {
        return err("bid_start must be set exactly from the turn's bids to its end");
    }
    if s.order_len > 0 && !order_as_revealed(&s) {
        return err("order is not the revealed values' order, the gems breaking ties");
    }
    for it in s.queue() {
        let hand = &s.seats[it.seat.max(0) as usize].hand;
        if it.word == Word::Trade && it.arg >= 0 && hand[it.arg as usize] == 0 {
            return err("a trade has chosen a coin that is not in its seat's hand");
        }
    }
    if !taverns_as_played(&s) {
        return err("the taverns do not hold the cards the turn has left in them");
    }
    if !ages_end_queued(&s) {
        return err("the queue does not end the Age as the Age's end requires");
    }
    if !decks_last(&s, rules) {
        return err("the decks cannot fill the taverns for the rest of the game");
    }
    if matches!(s.phase, Phase::Bid | Phase::UlineBid)
        && s.seats[s.current.max(0) as usize].hand_count() == 0
    {
        return err("the bidder has no coin");
    }
    Ok((s, history))
}
