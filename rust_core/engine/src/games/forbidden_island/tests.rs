//! Unit tests of the rules (docs/rules/forbidden_island.md): movement by role, the special plays and windows,
//! the draws and reshuffles, the hand limit, the end of the game, the notation and the serialization.

use super::data::{data, ALL, HELI, TILES, WATERS_RISE};
use super::*;
use crate::playout::{random_action, Scratch};
use crate::{GameError, ParamValue, Params, Rng, State, CHANCE, TERMINAL};
use serde_json::Value;

fn params(players: i64, difficulty: &str, layout: &str) -> Params {
    let mut p = Params::new();
    p.insert("players".into(), ParamValue::Int(players));
    p.insert("difficulty".into(), ParamValue::Str(difficulty.into()));
    p.insert("layout".into(), ParamValue::Str(layout.into()));
    p
}

fn game(players: i64) -> ForbiddenIslandGame {
    ForbiddenIslandGame::new(&params(players, "novice", "standard")).unwrap()
}

fn role(name: &str) -> u8 {
    data().role_keys.iter().position(|r| r == name).unwrap() as u8
}

fn kind(name: &str) -> usize {
    data().card_keys.iter().position(|k| k == name).unwrap()
}

/// The standard layout's position named `name`.
fn pos(name: &str) -> u8 {
    game(2)
        .new_initial_state()
        .layout()
        .names
        .iter()
        .position(|n| n == name)
        .unwrap() as u8
}

/// A state in phase `actions`, turn of seat 0 with 3 actions, level 1: tile q on position q (so Fools' Landing
/// is on c1, the Earth Stone's temples on a3 and b3, the Wind's gardens c3 d3, the Fire's caves e3 f3, the
/// Ocean's palaces a4 b4), every tile dry, the flood pile one layer of all 24, every card in the treasure pile.
/// `seats`: each seat's role and position.
fn board(seats: &[(&str, &str)]) -> ForbiddenIslandState {
    let g = game(seats.len() as i64);
    let mut s = g.new_initial_state();
    for q in 0..TILES {
        s.tiles[q] = q as u8;
        s.pos_of[q] = q as u8;
    }
    s.placed = ALL;
    for (i, (r, p)) in seats.iter().enumerate() {
        s.seats[i].role = role(r);
        s.seats[i].pawn = pos(p);
    }
    s.stage = Stage::Actions;
    s.phase = Phase::Actions;
    s.actions_left = 3;
    assert_valid(&s);
    s
}

fn flood(s: &mut ForbiddenIslandState, name: &str) {
    let q = pos(name);
    s.flooded |= 1 << q;
    let t = s.tiles[q as usize];
    for l in 0..s.num_layers as usize {
        s.layers[l] &= !(1 << t);
    }
    s.flood_discard |= 1 << t;
}

fn sink(s: &mut ForbiddenIslandState, name: &str) {
    let q = pos(name);
    s.flooded &= !(1 << q);
    s.sunk |= 1 << q;
    let t = s.tiles[q as usize];
    for l in 0..s.num_layers as usize {
        s.layers[l] &= !(1 << t);
    }
    s.flood_discard &= !(1 << t);
}

/// Move `count` cards of kind `k` from the treasure pile to seat's hand.
fn deal(s: &mut ForbiddenIslandState, seat: usize, k: &str, count: u8) {
    let k = kind(k);
    s.pile[k] -= count;
    s.seats[seat].hand[k] += count;
}

fn game_of(s: &ForbiddenIslandState) -> ForbiddenIslandGame {
    ForbiddenIslandGame::new(&params(
        s.rules.players as i64,
        s.rules.difficulty(),
        &s.layout().key,
    ))
    .unwrap()
}

fn assert_valid(s: &ForbiddenIslandState) {
    let text = s.serialize(&[]);
    let (back, _) = game_of(s)
        .deserialize_state(&text)
        .unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(&back, s);
    assert_eq!(back.serialize(&[]), text);
}

fn legal(s: &ForbiddenIslandState) -> Vec<String> {
    let mut v = Vec::new();
    s.legal_actions(&mut v);
    v.iter().map(|&a| s.action_to_string(a).unwrap()).collect()
}

/// The legal texts that start with `prefix` (`"move "`), with the prefix dropped.
fn legal_with(s: &ForbiddenIslandState, prefix: &str) -> Vec<String> {
    legal(s)
        .into_iter()
        .filter_map(|t| t.strip_prefix(prefix).map(str::to_string))
        .collect()
}

fn sorted(names: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    v.sort_by_key(|n| pos(n));
    v
}

fn act(s: &mut ForbiddenIslandState, text: &str) {
    let a = s
        .string_to_action(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    s.apply_action(a)
        .unwrap_or_else(|e| panic!("{text}: {e}; legal {:?}", legal(s)));
    assert_valid(s);
}

fn refused(s: &ForbiddenIslandState, text: &str) {
    let a = s.string_to_action(text).unwrap();
    let mut t = *s;
    assert!(
        matches!(t.apply_action(a), Err(GameError::IllegalAction(_))),
        "{text}"
    );
    assert_eq!(&t, s);
}

// --- Movement ----------------------------------------------------------------------------------------------

#[test]
fn ordinary_pawns_move_orthogonally_onto_tiles_that_are_not_sunk() {
    for r in ["engineer", "messenger", "navigator"] {
        let mut s = board(&[(r, "c3"), ("diver", "a4")]);
        sink(&mut s, "c4");
        flood(&mut s, "d3");
        assert_eq!(legal_with(&s, "move "), sorted(&["c2", "b3", "d3"]), "{r}");
    }
    // At the edge: c1 has only d1 and c2 (b1 is open ocean).
    let s = board(&[("engineer", "c1"), ("diver", "a4")]);
    assert_eq!(legal_with(&s, "move "), sorted(&["d1", "c2"]));
}

#[test]
fn the_explorer_moves_and_shores_diagonally() {
    let mut s = board(&[("explorer", "c3"), ("diver", "a4")]);
    flood(&mut s, "d4");
    flood(&mut s, "b2");
    flood(&mut s, "c3");
    flood(&mut s, "a3");
    assert_eq!(
        legal_with(&s, "move "),
        sorted(&["b2", "c2", "d2", "b3", "d3", "b4", "c4", "d4"])
    );
    assert_eq!(legal_with(&s, "shore "), sorted(&["b2", "c3", "d4"]));
    // Anyone else shores its own tile and the orthogonal ones only.
    let mut e = board(&[("engineer", "c3"), ("diver", "a4")]);
    flood(&mut e, "d4");
    flood(&mut e, "c2");
    assert_eq!(legal_with(&e, "shore "), sorted(&["c2"]));
}

#[test]
fn the_diver_moves_through_flooded_and_sunk_tiles_but_not_through_the_ocean() {
    let mut s = board(&[("diver", "c3"), ("engineer", "a4")]);
    flood(&mut s, "d3");
    sink(&mut s, "e3");
    sink(&mut s, "c4");
    // Orthogonal neighbours: c2, b3, d3 (flooded: an end, and a way through); c4 and e3 sunk (ways through).
    // Through d3: d2, d4 and e3 (sunk); through e3: e2, f3, e4; through c4: b4, d4, c5.
    assert_eq!(
        legal_with(&s, "move "),
        sorted(&["c2", "d2", "e2", "b3", "d3", "f3", "b4", "d4", "e4", "c5"])
    );
    // A dry tile stops the path: from c1, d1 is dry, so e2 is out of reach (b1 is ocean, never a way).
    let mut t = board(&[("diver", "c1"), ("engineer", "a4")]);
    flood(&mut t, "c2");
    assert_eq!(
        legal_with(&t, "move "),
        sorted(&["d1", "c2", "b2", "d2", "c3"])
    );
}

#[test]
fn the_pilot_flies_once_per_turn() {
    let mut s = board(&[("pilot", "c1"), ("engineer", "a4")]);
    sink(&mut s, "f4");
    let all: Vec<String> = (0..TILES as u8)
        .map(|q| s.layout().names[q as usize].clone())
        .filter(|n| n != "c1" && n != "f4")
        .collect();
    assert_eq!(legal_with(&s, "move "), all);
    act(&mut s, "move d1"); // adjacent: not the flight
    assert!(!s.pilot_flown);
    act(&mut s, "move f3"); // the flight
    assert!(s.pilot_flown);
    assert_eq!(s.actions_left, 1);
    assert_eq!(legal_with(&s, "move "), sorted(&["e3"])); // f2 is ocean, f4 sunk
    refused(&s, "move a3");
    // The next turn of the Pilot may fly again.
    act(&mut s, "pass");
    assert_eq!(s.phase, Phase::Treasure);
    s.begin_turn(0);
    assert!(!s.pilot_flown);
    assert_eq!(legal_with(&s, "move ").len(), 22);
}

#[test]
fn the_navigator_moves_another_pawn_one_or_two_of_its_own_steps() {
    // An ordinary pawn: two orthogonal steps, the middle not sunk.
    let mut s = board(&[("navigator", "a4"), ("engineer", "c3")]);
    sink(&mut s, "d3");
    flood(&mut s, "c2");
    let got = legal_with(&s, "navigate 1 ");
    assert_eq!(
        got,
        sorted(&["c1", "b2", "c2", "d2", "a3", "b3", "b4", "c4", "d4", "c5"])
    );
    act(&mut s, "navigate 1 c5");
    assert_eq!(s.seats[1].pawn, pos("c5"));
    assert_eq!(s.actions_left, 2);
    // The Diver's middle step may be sunk.
    let mut d = board(&[("navigator", "a4"), ("diver", "c3")]);
    sink(&mut d, "d3");
    assert!(legal_with(&d, "navigate 1 ").contains(&"e3".to_string()));
    // The Explorer steps diagonally.
    let e = board(&[("navigator", "a4"), ("explorer", "c3")]);
    let got = legal_with(&e, "navigate 1 ");
    assert!(got.contains(&"e5".to_string()) && got.contains(&"a3".to_string()));
    // The Pilot does not fly when moved.
    let p = board(&[("navigator", "a4"), ("pilot", "c1")]);
    assert_eq!(
        legal_with(&p, "navigate 1 "),
        sorted(&["d1", "b2", "c2", "d2", "c3"])
    );
    // Only the Navigator navigates.
    let o = board(&[("engineer", "a4"), ("pilot", "c1")]);
    assert!(legal_with(&o, "navigate ").is_empty());
}

#[test]
fn the_engineer_shores_two_tiles_for_one_action() {
    let mut s = board(&[("engineer", "c3"), ("diver", "a4")]);
    flood(&mut s, "c3");
    flood(&mut s, "d3");
    flood(&mut s, "f4");
    act(&mut s, "shore c3");
    assert_eq!(s.phase, Phase::Engineer);
    assert_eq!(s.actions_left, 2);
    assert_eq!(legal(&s), vec!["shore d3", "pass"]);
    act(&mut s, "shore d3");
    assert_eq!(s.phase, Phase::Actions);
    assert_eq!(s.actions_left, 2);
    // No second tile in reach: no engineer phase.
    flood(&mut s, "c2");
    act(&mut s, "shore c2");
    assert_eq!(s.phase, Phase::Actions);
    assert_eq!(s.actions_left, 1);
    // The second tile may be declined; the special plays are not offered between the two.
    flood(&mut s, "c2");
    flood(&mut s, "b3");
    deal(&mut s, 0, "sandbags", 1);
    act(&mut s, "shore c2");
    assert_eq!(legal(&s), vec!["shore b3", "pass"]);
    act(&mut s, "pass");
    // That was the last action: the end window (seat 0 holds Sandbags and a tile is flooded).
    assert_eq!(s.phase, Phase::Window);
    assert_eq!(s.window, Window::End);
    assert_eq!(s.current_player(), 0);
}

#[test]
fn only_ordinary_shoring_for_the_others() {
    let mut s = board(&[("messenger", "c3"), ("diver", "a4")]);
    flood(&mut s, "c3");
    flood(&mut s, "d3");
    act(&mut s, "shore c3");
    assert_eq!(s.phase, Phase::Actions);
    assert_eq!(s.actions_left, 2);
}

#[test]
fn giving_and_capturing() {
    let mut s = board(&[("engineer", "c3"), ("diver", "c3"), ("explorer", "a4")]);
    deal(&mut s, 0, "wind", 3);
    deal(&mut s, 0, "heli", 1);
    deal(&mut s, 1, "wind", 1);
    // Seat 1 shares the tile, seat 2 does not; Special Action cards cannot be given.
    assert_eq!(legal_with(&s, "give "), vec!["1 wind"]);
    act(&mut s, "give 1 wind");
    assert_eq!(s.seats[1].hand[kind("wind")], 2);
    // A Messenger gives to anyone, anywhere.
    let mut m = board(&[("messenger", "c1"), ("diver", "c3"), ("explorer", "a4")]);
    deal(&mut m, 0, "fire", 1);
    deal(&mut m, 0, "earth", 1);
    assert_eq!(
        legal_with(&m, "give "),
        vec!["1 earth", "1 fire", "2 earth", "2 fire"]
    );
    // Capture: on a tile of the treasure (flooded is fine), with 4 cards.
    let mut c = board(&[("engineer", "d3"), ("diver", "a4")]);
    deal(&mut c, 0, "wind", 4);
    flood(&mut c, "d3");
    assert!(legal(&c).contains(&"capture".to_string()));
    act(&mut c, "capture");
    assert_eq!(c.captured, 0b0010);
    assert_eq!(c.seats[0].hand[kind("wind")], 0);
    assert_eq!(c.discard[kind("wind")], 4);
    assert!(!legal(&c).contains(&"capture".to_string()));
    // Three cards, or the wrong tile: no capture.
    let mut w = board(&[("engineer", "e3"), ("diver", "a4")]);
    deal(&mut w, 0, "wind", 4);
    assert!(!legal(&w).contains(&"capture".to_string()));
}

// --- Windows -------------------------------------------------------------------------------------------------

#[test]
fn nobody_is_asked_when_nobody_holds_a_usable_card() {
    let mut s = board(&[("engineer", "c3"), ("diver", "a4"), ("pilot", "c1")]);
    // Sandbags without a flooded tile is not usable.
    deal(&mut s, 1, "sandbags", 1);
    act(&mut s, "move c2");
    assert_eq!(s.phase, Phase::Actions);
    assert_eq!(s.current_player(), 0);
    act(&mut s, "pass");
    assert_eq!(s.phase, Phase::Treasure);
    assert_eq!(s.current_player(), CHANCE);
    // Once a tile is flooded, the Sandbags holder is asked after each card.
    flood(&mut s, "f4");
    act(&mut s, "card earth");
    assert_eq!((s.phase, s.window), (Phase::Window, Window::Treasure));
    // Only the first pending seat is settled: seat 2 (nothing to play) waits behind seat 1.
    assert_eq!(s.pending_seats(), &[1, 2]);
    assert_eq!(legal(&s), vec!["sandbag f4", "pass"]);
    act(&mut s, "sandbag f4");
    assert_eq!((s.phase, s.treasure_left), (Phase::Treasure, 1));
}

#[test]
fn windows_ask_the_holders_in_seat_order_from_the_turn_seat() {
    let mut s = board(&[("engineer", "c3"), ("diver", "a4"), ("pilot", "c1")]);
    s.turn = 1;
    deal(&mut s, 0, "heli", 1);
    deal(&mut s, 1, "heli", 1);
    deal(&mut s, 2, "heli", 1);
    assert_valid(&s);
    // Before each action of seat 1: the others, from seat 2.
    act(&mut s, "move b4");
    assert_eq!((s.phase, s.window), (Phase::Window, Window::Act));
    assert_eq!(s.pending_seats(), &[2, 0]);
    assert_eq!(s.current_player(), 2);
    act(&mut s, "pass");
    assert_eq!(s.current_player(), 0);
    // A play keeps the seat first while it can play again; a pass drops it for the rest of the window.
    act(&mut s, "heli 2 d6");
    assert_eq!(s.seats[2].pawn, pos("d6"));
    assert_eq!(s.phase, Phase::Actions); // seat 0 has no card left: the window closes
    assert_eq!(s.current_player(), 1);
    // The turn seat's own cards are among its actions.
    assert!(legal(&s).contains(&"heli 1 c1".to_string()));
    // After a pass: the end window for the others; after the last action: for everyone, from the turn seat.
    let mut p = s;
    act(&mut p, "pass");
    assert_eq!((p.phase, p.window), (Phase::Window, Window::End));
    assert_eq!(p.pending_seats(), &[2, 0]);
    act(&mut s, "move a4");
    act(&mut s, "pass"); // seat 2 passes in the act window
    act(&mut s, "move b4");
    assert_eq!((s.phase, s.window), (Phase::Window, Window::End));
    assert_eq!(s.pending_seats(), &[1, 2, 0]); // seat 0 (no card) waits to be dropped
    act(&mut s, "pass");
    act(&mut s, "pass");
    assert_eq!(
        (s.phase, s.stage, s.treasure_left),
        (Phase::Treasure, Stage::Treasure, 2)
    );
    // After each treasure card and each flood card: everyone from the turn seat.
    act(&mut s, "card earth");
    assert_eq!(
        (s.window, s.pending_seats()),
        (Window::Treasure, &[1u8, 2, 0][..])
    );
    act(&mut s, "pass");
    act(&mut s, "pass");
    act(&mut s, "card fire");
    act(&mut s, "pass");
    act(&mut s, "pass");
    assert_eq!(
        (s.phase, s.stage, s.flood_left),
        (Phase::Flood, Stage::Flood, 2)
    );
    act(&mut s, "flood watchtower");
    assert_eq!(
        (s.window, s.pending_seats()),
        (Window::Flood, &[1u8, 2, 0][..])
    );
    act(&mut s, "pass");
    act(&mut s, "pass");
    act(&mut s, "flood observatory");
    act(&mut s, "pass");
    act(&mut s, "pass");
    // The next turn: seat 2, with an act window for seats 0 (no card: dropped) and 1.
    assert_eq!((s.turn, s.stage, s.actions_left), (2, Stage::Actions, 3));
    assert_eq!(
        (s.phase, s.window, s.pending_seats()),
        (Phase::Window, Window::Act, &[1u8][..])
    );
}

#[test]
fn a_helicopter_lift_moves_pawns_from_one_tile() {
    let mut s = board(&[("engineer", "c3"), ("diver", "c3"), ("pilot", "a4")]);
    deal(&mut s, 0, "heli", 1);
    sink(&mut s, "f4");
    let helis = legal_with(&s, "heli ");
    // Masks 1 (seat 0), 2 (seat 1), 3 (both, on c3), 4 (seat 2): 23 targets, 22 for seat 2 ... minus f4.
    assert_eq!(helis.len(), 22 + 22 + 22 + 22);
    assert!(!helis
        .iter()
        .any(|h| h.starts_with("0+2") || h.ends_with(" f4") || h == "0 c3"));
    act(&mut s, "heli 0+1 c1");
    assert_eq!((s.seats[0].pawn, s.seats[1].pawn), (pos("c1"), pos("c1")));
    assert_eq!(s.seats[0].hand[HELI], 0);
    assert_eq!(s.discard[HELI], 1);
    assert_eq!(s.actions_left, 3); // free
                                   // Sandbags anywhere.
    let mut b = board(&[("engineer", "c3"), ("diver", "c3")]);
    deal(&mut b, 1, "sandbags", 1);
    flood(&mut b, "d6");
    act(&mut b, "move c2");
    assert_eq!(legal(&b), vec!["sandbag d6", "pass"]);
    act(&mut b, "sandbag d6");
    assert_eq!(b.flooded, 0);
    assert_eq!(b.phase, Phase::Actions);
}

// --- The draws -------------------------------------------------------------------------------------------------

fn to_treasure(s: &mut ForbiddenIslandState) {
    act(s, "pass");
    assert_eq!(s.phase, Phase::Treasure);
}

#[test]
fn waters_rise_puts_the_flood_discard_on_top_as_a_new_layer() {
    let mut s = board(&[("engineer", "a4"), ("diver", "a4")]);
    flood(&mut s, "c3");
    flood(&mut s, "d6");
    to_treasure(&mut s);
    act(&mut s, "card waters_rise");
    assert_eq!(s.level, 2);
    assert_eq!(s.num_layers, 2);
    assert_eq!(s.top_layer(), (1 << 8) | (1 << 23));
    assert_eq!(s.flood_discard, 0);
    assert_eq!(s.discard[WATERS_RISE], 1);
    // A second Waters Rise! in a row: the level rises again, the flood discard is empty (no new layer).
    act(&mut s, "card waters_rise");
    assert_eq!((s.level, s.num_layers), (3, 2));
    // Level 3 draws 3 flood cards, from the top layer first (the two known cards), then the layer below.
    assert_eq!((s.phase, s.flood_left), (Phase::Flood, 3));
    let mut v = Vec::new();
    s.legal_actions(&mut v);
    assert_eq!(v, vec![8, 23]);
    act(&mut s, "flood whispering_garden"); // its tile is flooded: it sinks
    assert_eq!(s.sunk, 1 << 8);
    act(&mut s, "flood watchtower");
    assert_eq!(s.num_layers, 1);
    assert_eq!(s.sunk, (1 << 8) | (1 << 23));
    s.legal_actions(&mut v);
    assert_eq!(v.len(), 22);
    // The serialized pile lists the layers top first.
    let mut w = board(&[("engineer", "a4"), ("diver", "a4")]);
    flood(&mut w, "c3");
    to_treasure(&mut w);
    act(&mut w, "card waters_rise");
    let j: Value = serde_json::from_str(&w.serialize(&[])).unwrap();
    assert_eq!(j["flood_pile"][0], serde_json::json!([8]));
    assert_eq!(j["flood_pile"][1].as_array().unwrap().len(), 23);
}

#[test]
fn an_emptied_treasure_pile_is_rebuilt_at_once_without_the_card_just_drawn() {
    let mut s = board(&[("engineer", "a4"), ("diver", "a4")]);
    // Only one card left in the pile (an earth), the rest in the discard.
    let d = data();
    for k in 0..7 {
        s.discard[k] = s.pile[k];
        s.pile[k] = 0;
    }
    s.pile[0] = 1;
    s.discard[0] -= 1;
    assert_valid(&s);
    to_treasure(&mut s);
    act(&mut s, "card earth");
    assert_eq!(s.seats[0].hand[0], 1);
    assert_eq!(s.pile[0], d.card_counts[0] - 1);
    assert_eq!(s.pile.iter().map(|&c| c as u32).sum::<u32>(), 27);
    assert_eq!(s.discard, [0; 7]);
    // The same when the last card is a Waters Rise!: it goes to the new discard, not into the new pile.
    let mut w = board(&[("engineer", "a4"), ("diver", "a4")]);
    for k in 0..7 {
        w.discard[k] = w.pile[k];
        w.pile[k] = 0;
    }
    w.pile[WATERS_RISE] = 1;
    w.discard[WATERS_RISE] -= 1;
    to_treasure(&mut w);
    act(&mut w, "card waters_rise");
    assert_eq!(w.pile[WATERS_RISE], 2);
    assert_eq!(w.discard, [0, 0, 0, 0, 0, 0, 1]);
}

#[test]
fn an_emptied_flood_pile_is_rebuilt_at_once_without_the_card_just_drawn() {
    let mut s = board(&[("engineer", "a4"), ("diver", "a4")]);
    // Every card in the flood discard but d6's.
    for name in s.layout().names.clone() {
        if name != "d6" {
            flood(&mut s, &name);
        }
    }
    assert_eq!(s.top_layer(), 1 << 23);
    s.stage = Stage::Flood;
    s.phase = Phase::Flood;
    s.flood_left = 2;
    s.actions_left = 0;
    assert_valid(&s);
    act(&mut s, "flood watchtower");
    assert_eq!(s.num_layers, 1);
    assert_eq!(s.top_layer(), ALL & !(1 << 23));
    assert_eq!(s.flood_discard, 1 << 23);
    // A flood card of a flooded tile sinks it (Whispering Garden on c3; nobody on it).
    act(&mut s, "flood whispering_garden");
    assert_eq!(s.sunk, 1 << 8);
    assert_eq!(s.top_layer() & (1 << 8), 0);
    assert_eq!(s.flood_discard & (1 << 8), 0);
    // Flood cards drawn: the turn ends; seat 1's turn begins.
    assert_eq!(
        (s.turn, s.phase, s.stage),
        (1, Phase::Actions, Stage::Actions)
    );
}

// --- The hand limit ----------------------------------------------------------------------------------------------

#[test]
fn the_hand_limit_with_a_helicopter_lift_played_instead_of_a_discard() {
    let mut s = board(&[("engineer", "a4"), ("diver", "c1")]);
    deal(&mut s, 0, "earth", 3);
    deal(&mut s, 0, "heli", 1);
    deal(&mut s, 0, "fire", 1);
    to_treasure(&mut s);
    act(&mut s, "card ocean");
    assert_eq!(s.phase, Phase::Discard);
    assert_eq!(s.current_player(), 0);
    let l = legal(&s);
    assert!(l.contains(&"heli 0 b4".to_string()));
    assert_eq!(
        legal_with(&s, "discard "),
        vec!["earth", "fire", "ocean", "heli"]
    );
    assert!(!l.contains(&"pass".to_string()));
    act(&mut s, "heli 0 b4");
    // Back to five: the treasure window (nobody holds a usable card), then the second draw.
    assert_eq!((s.phase, s.treasure_left), (Phase::Treasure, 1));
    assert_eq!(s.discard[HELI], 1);
    // A give over the limit: the receiver discards at once, then the act window / the actions go on.
    let mut g = board(&[("engineer", "a4"), ("diver", "a4")]);
    deal(&mut g, 0, "earth", 1);
    deal(&mut g, 1, "fire", 5);
    act(&mut g, "give 1 earth");
    assert_eq!((g.phase, g.current_player()), (Phase::Discard, 1));
    assert_eq!(legal(&g), vec!["discard earth", "discard fire"]);
    act(&mut g, "discard fire");
    assert_eq!(
        (g.phase, g.current_player(), g.actions_left),
        (Phase::Actions, 0, 2)
    );
    assert_eq!(g.discard[kind("fire")], 1);
}

#[test]
fn sandbags_in_the_discard_phase() {
    let mut s = board(&[("engineer", "a4"), ("diver", "c1")]);
    deal(&mut s, 0, "earth", 4);
    deal(&mut s, 0, "sandbags", 1);
    flood(&mut s, "d6");
    // After a pass, the end window is for the others: seat 0 is not asked.
    to_treasure(&mut s);
    act(&mut s, "card earth");
    assert_eq!(s.phase, Phase::Discard);
    act(&mut s, "sandbag d6");
    assert_eq!(s.flooded, 0);
    assert_eq!(s.phase, Phase::Treasure);
}

// --- The end -----------------------------------------------------------------------------------------------------

#[test]
fn the_skull_loses() {
    let mut s = board(&[("engineer", "a4"), ("diver", "a4")]);
    s.level = 9;
    to_treasure(&mut s);
    act(&mut s, "card waters_rise");
    assert_eq!(
        (s.phase, s.outcome, s.level),
        (Phase::Over, Outcome::Lost, 10)
    );
    assert_eq!(s.current_player(), TERMINAL);
    assert_eq!(s.discard[WATERS_RISE], 1);
    let mut r = [9.0; 2];
    s.returns(&mut r);
    assert_eq!(r, [0.0, 0.0]);
    s.scores(&mut r);
    assert_eq!(r, [0.0, 0.0]);
}

fn to_flood(s: &mut ForbiddenIslandState, cards: u8) {
    s.stage = Stage::Flood;
    s.phase = Phase::Flood;
    s.flood_left = cards;
    s.actions_left = 0;
    assert_valid(s);
}

#[test]
fn fools_landing_sinking_loses() {
    let mut s = board(&[("engineer", "a4"), ("diver", "a4")]);
    flood(&mut s, "c1");
    s.layers[0] |= 1; // its card back in the pile
    s.flood_discard = 0;
    to_flood(&mut s, 2);
    act(&mut s, "flood fools_landing");
    assert_eq!((s.phase, s.outcome), (Phase::Over, Outcome::Lost));
}

#[test]
fn both_tiles_of_an_uncaptured_treasure_sinking_loses() {
    let mut s = board(&[("engineer", "a4"), ("diver", "a4")]);
    sink(&mut s, "a3"); // Temple of the Moon
    flood(&mut s, "b3"); // Temple of the Sun
    s.layers[0] |= 1 << 7;
    s.flood_discard = 0;
    to_flood(&mut s, 2);
    let mut captured = s;
    act(&mut s, "flood temple_sun");
    assert_eq!((s.phase, s.outcome), (Phase::Over, Outcome::Lost));
    // Once the Earth Stone is captured, its temples may sink.
    captured.captured = 0b0001;
    for k in 0..4 {
        captured.pile[0] -= 1;
        captured.discard[0] += 1;
        let _ = k;
    }
    act(&mut captured, "flood temple_sun");
    assert_eq!(
        (captured.phase, captured.outcome),
        (Phase::Flood, Outcome::None)
    );
}

#[test]
fn a_stranded_pawn_swims_or_the_game_is_lost() {
    // The Engineer on e5 (Phantom Rock): its orthogonal neighbours e4 and d5.
    let mut s = board(&[("engineer", "e5"), ("diver", "d6")]);
    flood(&mut s, "e5");
    s.layers[0] |= 1 << 21;
    s.flood_discard &= !(1 << 21);
    to_flood(&mut s, 2);
    let mut lost = s;
    act(&mut s, "flood phantom_rock");
    // Nobody holds a Helicopter Lift: no rescue window; the Engineer swims.
    assert_eq!(s.phase, Phase::Swim);
    assert_eq!(s.current_player(), 0);
    assert_eq!(s.stranded(), 0b01);
    assert_eq!(legal(&s), vec!["swim e4", "swim d5"]);
    act(&mut s, "swim d5");
    assert_eq!((s.phase, s.flood_left), (Phase::Flood, 1));
    // With e4 and d5 sunk, nowhere to swim: lost (the pawn stays where it drowned).
    sink(&mut lost, "e4");
    sink(&mut lost, "d5");
    act(&mut lost, "flood phantom_rock");
    assert_eq!((lost.phase, lost.outcome), (Phase::Over, Outcome::Lost));
    assert_eq!(lost.stranded(), 0b01);
}

#[test]
fn a_helicopter_lift_rescues_before_the_swims() {
    let mut s = board(&[("engineer", "b4"), ("diver", "b4"), ("pilot", "d6")]);
    flood(&mut s, "b4");
    s.layers[0] |= 1 << 13;
    s.flood_discard &= !(1 << 13);
    deal(&mut s, 2, "heli", 1);
    s.turn = 1;
    to_flood(&mut s, 2);
    act(&mut s, "flood tidal_palace");
    assert_eq!((s.phase, s.window), (Phase::Window, Window::Rescue));
    assert_eq!(s.pending_seats(), &[2, 0]);
    assert_eq!(s.stranded(), 0b011);
    // The mask of the stranded pawns may leave the sunk tile.
    assert!(legal(&s).contains(&"heli 0+1 c1".to_string()));
    act(&mut s, "heli 0 c1");
    // Seat 2 has no card left and seat 0 none at all: the window closes.
    // Seat 1 (the Diver) still swims; the turn seat swims first, and here is the only one.
    assert_eq!(s.phase, Phase::Swim);
    assert_eq!(s.current_player(), 1);
    // The Diver swims to the nearest tiles: a4, c4, b3, b5 are one step away.
    assert_eq!(legal_with(&s, "swim "), sorted(&["b3", "a4", "c4", "b5"]));
    act(&mut s, "swim a4");
    assert_eq!(s.phase, Phase::Flood);
}

#[test]
fn the_swims_go_in_seat_order_from_the_turn_seat_and_the_diver_swims_to_the_nearest_tile() {
    let mut s = board(&[("diver", "d4"), ("pilot", "d4"), ("explorer", "d4")]);
    flood(&mut s, "d4");
    s.layers[0] |= 1 << 15;
    s.flood_discard &= !(1 << 15);
    for name in ["c4", "e4", "d3", "d5", "c5", "e5"] {
        sink(&mut s, name);
    }
    s.turn = 2;
    to_flood(&mut s, 2);
    act(&mut s, "flood cliffs_abandon");
    assert_eq!((s.phase, s.current_player()), (Phase::Swim, 2));
    // The Explorer: the diagonals left, c3 and e3.
    assert_eq!(legal_with(&s, "swim "), sorted(&["c3", "e3"]));
    act(&mut s, "swim c3");
    assert_eq!(s.current_player(), 0);
    // The Diver: every tile at the least distance (2 steps) that is not sunk.
    assert_eq!(
        legal_with(&s, "swim "),
        sorted(&["d2", "c3", "e3", "b4", "f4", "d6"])
    );
    act(&mut s, "swim b4");
    assert_eq!(s.current_player(), 1);
    // The Pilot: anywhere not sunk.
    assert_eq!(legal_with(&s, "swim ").len(), 24 - 7);
    act(&mut s, "swim d6");
    assert_eq!(s.phase, Phase::Flood);
}

#[test]
fn liftoff_wins_from_a_window() {
    let mut s = board(&[("engineer", "c1"), ("diver", "c1")]);
    s.captured = 0b1111;
    for t in 0..4 {
        s.pile[t] -= 4;
        s.discard[t] += 4;
    }
    deal(&mut s, 1, "heli", 1);
    flood(&mut s, "c1"); // "You may win if Fools' Landing is flooded."
    act(&mut s, "move c2");
    // Not everyone on Fools' Landing: no liftoff in the act window.
    assert!(!legal(&s).contains(&"liftoff".to_string()));
    act(&mut s, "pass");
    act(&mut s, "move c1");
    assert_eq!(s.current_player(), 1);
    assert!(legal(&s).contains(&"liftoff".to_string()));
    act(&mut s, "liftoff");
    assert_eq!((s.phase, s.outcome), (Phase::Over, Outcome::Won));
    let mut r = [0.0; 2];
    s.returns(&mut r);
    assert_eq!(r, [1.0, 1.0]);
    s.scores(&mut r);
    assert_eq!(r, [40.0 + 9.0 + 50.0; 2]);
}

// --- Setup ---------------------------------------------------------------------------------------------------

#[test]
fn the_setup_deals_the_island_floods_six_deals_roles_and_cards() {
    let g = ForbiddenIslandGame::new(&params(3, "elite", "treasure_island")).unwrap();
    let mut s = g.new_initial_state();
    assert_eq!((s.phase, s.level, s.flood_left), (Phase::Layout, 3, 0));
    let mut v = Vec::new();
    let mut w = Vec::new();
    for q in 0..24u32 {
        s.legal_actions(&mut v);
        assert_eq!(v.len(), 24 - q as usize);
        let x = 23 - q; // tile 23 on position 0, ...
        assert_eq!(
            s.action_to_string(x).unwrap(),
            format!("tile {}", data().tile_keys[x as usize])
        );
        s.apply_action(x).unwrap();
    }
    assert_eq!((s.phase, s.flood_left), (Phase::SetupFlood, 6));
    for x in 0..6 {
        s.chance_weights(&mut w);
        assert_eq!(w.len(), 24 - x);
        s.apply_action(x as u32).unwrap();
    }
    assert_eq!((s.phase, s.flood_left), (Phase::Roles, 0));
    assert_eq!(s.flood_discard, 0b111111);
    assert_eq!(s.flooded.count_ones(), 6);
    s.apply_action(5).unwrap(); // seat 0: the Pilot, on Fools' Landing (tile 0, at position 23)
    assert_eq!(s.seats[0].pawn, 23);
    s.apply_action(0).unwrap();
    s.apply_action(3).unwrap();
    assert_eq!(s.phase, Phase::Deal);
    s.chance_weights(&mut w);
    assert_eq!(w, vec![(0, 5), (1, 5), (2, 5), (3, 5), (4, 3), (5, 2)]);
    for _ in 0..6 {
        s.apply_action(4)
            .unwrap_or_else(|_| s.apply_action(0).unwrap());
    }
    assert_eq!(
        (s.phase, s.turn, s.stage, s.actions_left),
        (Phase::Window, 0, Stage::Actions, 3)
    );
    assert_eq!(s.window, Window::Act);
    assert_valid(&s);
}

// --- Notation -----------------------------------------------------------------------------------------------

#[test]
fn every_id_prints_and_reads_back() {
    let s = board(&[("engineer", "a4"), ("diver", "a4")]);
    for a in 0..NUM_ACTIONS {
        let text = s.action_to_string(a).unwrap();
        assert_eq!(s.string_to_action(&text).unwrap(), a, "{text}");
        assert_eq!(
            s.string_to_action(&format!("  {} ", text.to_uppercase()))
                .unwrap(),
            a
        );
    }
    assert!(matches!(
        s.action_to_string(NUM_ACTIONS),
        Err(GameError::IllegalAction(_))
    ));
    assert_eq!(s.action_to_string(185 + 24 * 4).unwrap(), "heli 0+2 c1");
    assert_eq!(s.string_to_action("heli 2+0 c1").unwrap(), 185 + 24 * 4);
    assert_eq!(s.string_to_action("give  1\tfire").unwrap(), 48 + 4 + 2);
    for bad in [
        "move a1",
        "give 4 fire",
        "give 1 heli",
        "heli 0+0 c1",
        "heli 4 c1",
        "heli  c1",
        "discard waters_rise",
        "jump",
        "move",
        "capture now",
        "navigate 01 c1",
        "heli 0+ c1",
        "tile fools_landing",
    ] {
        assert!(
            matches!(s.string_to_action(bad), Err(GameError::InvalidNotation(_))),
            "{bad}"
        );
    }
    // At chance nodes: the phase's texts, or the bare argument.
    let g = game(2);
    let c = g.new_initial_state();
    assert_eq!(c.string_to_action("tile watchtower").unwrap(), 23);
    assert_eq!(c.string_to_action("WATCHTOWER").unwrap(), 23);
    assert!(c.string_to_action("flood watchtower").is_err());
    assert!(c.string_to_action("move c1").is_err());
    assert!(matches!(
        c.action_to_string(24),
        Err(GameError::IllegalAction(_))
    ));
    let mut t = board(&[("engineer", "a4"), ("diver", "a4")]);
    act(&mut t, "pass");
    assert_eq!(t.action_to_string(6).unwrap(), "card waters_rise");
    assert_eq!(t.string_to_action("waters_rise").unwrap(), 6);
    assert!(t.action_to_string(7).is_err());
    // The other layout's names.
    let ti = ForbiddenIslandGame::new(&params(2, "novice", "treasure_island")).unwrap();
    let mut u = ti.new_initial_state();
    u.phase = Phase::Actions;
    assert_eq!(u.action_to_string(0).unwrap(), "move a1");
    assert_eq!(u.action_to_string(23).unwrap(), "move g6");
    assert!(u.string_to_action("move c1").is_err());
}

// --- Parameters and serialization ---------------------------------------------------------------------------

#[test]
fn parameters_are_checked() {
    let g = game(2);
    assert_eq!(g.max_game_length(), 3477);
    assert_eq!(g.observation_shape(), vec![867]);
    assert_eq!(g.num_distinct_actions(), 577);
    assert_eq!(g.max_chance_outcomes(), 24);
    let defaults = ForbiddenIslandGame::new(&Params::new()).unwrap();
    assert_eq!(defaults.params(), g.params());
    for (k, v) in [
        ("players", ParamValue::Int(1)),
        ("players", ParamValue::Int(5)),
        ("players", ParamValue::Bool(true)),
        ("difficulty", ParamValue::Str("hard".into())),
        ("difficulty", ParamValue::Int(1)),
        ("layout", ParamValue::Str("Standard".into())),
        ("layout", ParamValue::Bool(false)),
        ("seed", ParamValue::Int(1)),
    ] {
        let mut p = Params::new();
        p.insert(k.into(), v);
        assert!(
            matches!(
                ForbiddenIslandGame::new(&p),
                Err(GameError::InvalidState(_))
            ),
            "{k}"
        );
    }
}

#[test]
fn random_games_round_trip_and_end_within_the_bound() {
    for (players, difficulty, layout) in [
        (2, "novice", "standard"),
        (3, "legendary", "treasure_island"),
        (4, "normal", "standard"),
    ] {
        let g = ForbiddenIslandGame::new(&params(players, difficulty, layout)).unwrap();
        for seed in 0..60u64 {
            let mut s = g.new_initial_state();
            let mut rng = Rng::new(seed);
            let mut scratch = Scratch::default();
            let mut history = Vec::new();
            let mut obs = vec![0f32; g.observation_shape()[0]];
            while let Some(a) = random_action(&s, &mut rng, &mut scratch) {
                assert!(s.is_legal(a));
                s.apply_action(a).unwrap();
                history.push(a);
                assert!(history.len() as u64 <= g.max_game_length());
                let text = s.serialize(&history);
                let (back, h) = g
                    .deserialize_state(&text)
                    .unwrap_or_else(|e| panic!("{e}\n{text}"));
                assert_eq!(back, s, "{text}");
                assert_eq!(h, history);
                s.observation_tensor(history.len() % players as usize, &mut obs);
            }
            assert!(s.is_terminal());
        }
    }
}

/// The serialized object of a mid-game state, for the refusal tests.
fn sample() -> (ForbiddenIslandGame, Value) {
    let mut s = board(&[("engineer", "c3"), ("diver", "a4")]);
    flood(&mut s, "d3");
    deal(&mut s, 0, "fire", 2);
    deal(&mut s, 1, "heli", 1);
    act(&mut s, "move c2");
    assert_eq!(s.phase, Phase::Window);
    (
        game(2),
        serde_json::from_str(&s.serialize(&[1, 2])).unwrap(),
    )
}

fn refuse(g: &ForbiddenIslandGame, v: &Value, why: &str) {
    let text = v.to_string();
    assert!(
        matches!(g.deserialize_state(&text), Err(GameError::InvalidState(_))),
        "{why}: accepted {text}"
    );
}

#[test]
fn the_reader_refuses_every_listed_inconsistency() {
    let (g, base) = sample();
    assert!(g.deserialize_state(&base.to_string()).is_ok());
    let with = |f: &dyn Fn(&mut Value)| {
        let mut v = base.clone();
        f(&mut v);
        v
    };
    refuse(&g, &Value::from(3), "not an object");
    refuse(
        &g,
        &with(&|v| {
            v.as_object_mut().unwrap().remove("turn");
        }),
        "missing key",
    );
    refuse(
        &g,
        &with(&|v| {
            v["extra"] = 1.into();
        }),
        "extra key",
    );
    refuse(
        &g,
        &with(&|v| {
            v["seats"][0]["x"] = 1.into();
        }),
        "extra seat key",
    );
    assert!(g
        .deserialize_state(&base.to_string().replacen("{", "{\"turn\":0,", 1))
        .is_err());
    refuse(
        &g,
        &with(&|v| {
            v["turn"] = true.into();
        }),
        "bool for an int",
    );
    refuse(
        &g,
        &with(&|v| {
            v["pilot_flown"] = 0.into();
        }),
        "int for a bool",
    );
    refuse(
        &g,
        &with(&|v| {
            v["game"] = "lineit".into();
        }),
        "game",
    );
    refuse(
        &g,
        &with(&|v| {
            v["version"] = 2.into();
        }),
        "version",
    );
    refuse(
        &g,
        &with(&|v| {
            v["params"]["players"] = 3.into();
        }),
        "params",
    );
    refuse(
        &g,
        &with(&|v| {
            v["seats"].as_array_mut().unwrap().pop();
        }),
        "seats length",
    );
    refuse(
        &g,
        &with(&|v| {
            v["seats"][0]["hand"].as_array_mut().unwrap().push(0.into());
        }),
        "hand length",
    );
    refuse(
        &g,
        &with(&|v| {
            v["status"].as_array_mut().unwrap().pop();
        }),
        "status length",
    );
    refuse(
        &g,
        &with(&|v| {
            v["tiles"].as_array_mut().unwrap().pop();
        }),
        "tiles length",
    );
    refuse(
        &g,
        &with(&|v| {
            v["captured"].as_array_mut().unwrap().pop();
        }),
        "captured length",
    );
    refuse(
        &g,
        &with(&|v| {
            v["treasure_pile"].as_array_mut().unwrap().pop();
        }),
        "pile length",
    );
    refuse(
        &g,
        &with(&|v| {
            v["tiles"][3] = 24.into();
        }),
        "tile id",
    );
    refuse(
        &g,
        &with(&|v| {
            v["flood_discard"] = serde_json::json!([-1]);
        }),
        "flood tile id",
    );
    refuse(
        &g,
        &with(&|v| {
            v["seats"][0]["pawn"] = 24.into();
        }),
        "pawn",
    );
    refuse(
        &g,
        &with(&|v| {
            v["seats"][0]["role"] = 6.into();
        }),
        "role",
    );
    refuse(
        &g,
        &with(&|v| {
            v["seats"][0]["hand"][2] = (-1).into();
        }),
        "negative count",
    );
    refuse(
        &g,
        &with(&|v| {
            v["level"] = 11.into();
        }),
        "level",
    );
    refuse(
        &g,
        &with(&|v| {
            v["level"] = 0.into();
        }),
        "level",
    );
    refuse(
        &g,
        &with(&|v| {
            v["actions_left"] = 4.into();
        }),
        "actions_left",
    );
    refuse(
        &g,
        &with(&|v| {
            v["treasure_left"] = 3.into();
        }),
        "treasure_left",
    );
    refuse(
        &g,
        &with(&|v| {
            v["flood_left"] = 7.into();
        }),
        "flood_left",
    );
    refuse(
        &g,
        &with(&|v| {
            v["turn"] = 2.into();
        }),
        "turn",
    );
    refuse(
        &g,
        &with(&|v| {
            v["pending"] = serde_json::json!([2]);
        }),
        "pending seat",
    );
    refuse(
        &g,
        &with(&|v| {
            v["phase"] = "setup".into();
        }),
        "phase word",
    );
    refuse(
        &g,
        &with(&|v| {
            v["stage"] = "swim".into();
        }),
        "stage word",
    );
    refuse(
        &g,
        &with(&|v| {
            v["window"] = "rescue!".into();
        }),
        "window word",
    );
    refuse(
        &g,
        &with(&|v| {
            v["outcome"] = "draw".into();
        }),
        "outcome word",
    );
    refuse(
        &g,
        &with(&|v| {
            v["status"][0] = "wet".into();
        }),
        "status word",
    );
    refuse(
        &g,
        &with(&|v| {
            v["history"] = serde_json::json!([577]);
        }),
        "history id",
    );
    // Conservation.
    refuse(
        &g,
        &with(&|v| {
            v["tiles"][0] = 1.into();
        }),
        "a tile placed twice",
    );
    refuse(
        &g,
        &with(&|v| {
            v["seats"][1]["role"] = 1.into();
        }),
        "a role dealt twice",
    );
    refuse(
        &g,
        &with(&|v| {
            v["flood_discard"] = serde_json::json!([9, 9]);
        }),
        "not ascending",
    );
    refuse(
        &g,
        &with(&|v| {
            v["flood_pile"]
                .as_array_mut()
                .unwrap()
                .push(serde_json::json!([]));
        }),
        "empty layer",
    );
    refuse(
        &g,
        &with(&|v| {
            v["treasure_pile"][2] = 4.into();
        }),
        "a card too few",
    );
    refuse(
        &g,
        &with(&|v| {
            v["treasure_discard"][6] = 1.into();
        }),
        "a card too many",
    );
    refuse(
        &g,
        &with(&|v| {
            v["flood_discard"] = serde_json::json!([0, 9]);
        }),
        "a card in two places",
    );
    refuse(
        &g,
        &with(&|v| {
            v["flood_discard"] = serde_json::json!([]);
        }),
        "a card nowhere",
    );
    refuse(
        &g,
        &with(&|v| {
            v["status"][9] = "sunk".into();
        }),
        "a sunk tile's card in play",
    );
    refuse(
        &g,
        &with(&|v| {
            v["tiles"][0] = (-1).into();
        }),
        "status none exactly for unplaced",
    );
    // Consistency.
    refuse(
        &g,
        &with(&|v| {
            v["window"] = "none".into();
            v["pending"] = serde_json::json!([]);
        }),
        "window none in a window",
    );
    refuse(
        &g,
        &with(&|v| {
            v["phase"] = "actions".into();
        }),
        "a window outside phase window",
    );
    refuse(
        &g,
        &with(&|v| {
            v["outcome"] = "lost".into();
        }),
        "an outcome before the end",
    );
    refuse(
        &g,
        &with(&|v| {
            v["seats"][1]["hand"][4] = 0.into();
            v["treasure_pile"][4] = 3.into();
        }),
        "not settled",
    );
    refuse(
        &g,
        &with(&|v| {
            v["pending"] = serde_json::json!([1, 1]);
        }),
        "a seat pending twice",
    );
    refuse(
        &g,
        &with(&|v| {
            v["seats"][0]["pawn"] = (-1).into();
        }),
        "a role without a pawn",
    );
    // A pawn on a sunk position outside the rescue window and the swims.
    refuse(
        &g,
        &with(&|v| {
            v["status"][7] = "sunk".into();
            let pile = v["flood_pile"][0].as_array_mut().unwrap();
            pile.retain(|t| t != 7);
            v["seats"][0]["pawn"] = 7.into();
        }),
        "a pawn on a sunk position",
    );
}

// --- The heuristic -----------------------------------------------------------------------------------------

fn value(s: &ForbiddenIslandState) -> Vec<f64> {
    let mut v = vec![9.0; s.n()];
    s.heuristic_value(&mut v);
    v
}

#[test]
fn the_heuristic_is_one_value_for_the_team_and_rewards_progress() {
    let mut s = board(&[("engineer", "d3"), ("diver", "a4"), ("pilot", "c1")]);
    let v = value(&s);
    assert!(v.iter().all(|&x| x == v[0] && x > 0.0 && x < 1.0), "{v:?}");
    // A capture is progress.
    deal(&mut s, 0, "wind", 4);
    let before = value(&s)[0];
    let mut c = s;
    act(&mut c, "capture");
    assert!(value(&c)[0] > before);
    // Fools' Landing flooded with its card on top of the flood pile is a danger; shoring it is worth much.
    let mut f = board(&[("engineer", "c2"), ("diver", "a4")]);
    let safe = value(&f)[0];
    flood(&mut f, "c1");
    f.layers[1] = f.flood_discard;
    f.num_layers = 2;
    f.flood_discard = 0;
    assert_valid(&f);
    let danger = value(&f)[0];
    assert!(danger < 0.7 * safe, "{danger} vs {safe}");
    act(&mut f, "shore c1");
    assert!(value(&f)[0] > danger);
    // At the end, the returns.
    let mut w = board(&[("engineer", "a4"), ("diver", "a4")]);
    w.level = 9;
    act(&mut w, "pass");
    act(&mut w, "card waters_rise");
    assert_eq!(value(&w), vec![0.0, 0.0]);
}
