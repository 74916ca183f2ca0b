//! Helpers shared by the Carcassonne integration tests (a `tests/common` module is compiled into each test
//! crate that declares it, not as a test of its own).

use meeplex_engine::games::carcassonne::{CarcassonneGame, CarcassonneState};
use meeplex_engine::{Game, State, CHANCE};

/// Apply the action `text` names, failing the test with the state when it does not read or is not legal.
pub fn act(s: &mut Box<CarcassonneState>, text: &str) {
    let a = s
        .string_to_action(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    s.apply_action(a)
        .unwrap_or_else(|e| panic!("{text}: {e}\n{}", s.to_text()));
}

/// The chance outcome that draws tile `name` (the state must be at a chance node).
pub fn draw(s: &mut Box<CarcassonneState>, name: &str) {
    assert_eq!(s.current_player(), CHANCE, "{}", s.to_text());
    act(s, &format!("draw {name}"));
}

/// Draw `name`, place it, then the follower step's `figure` (the expansion test files).
#[allow(dead_code)] // each test crate compiles its own copy and uses part of it
pub fn turn(s: &mut Box<CarcassonneState>, name: &str, place: &str, figure: &str) {
    draw(s, name);
    act(s, &format!("place {place}"));
    act(s, figure);
}

/// Whether `text` names a legal action now.
#[allow(dead_code)]
pub fn legal(s: &CarcassonneState, text: &str) -> bool {
    let b = Box::new(s.clone());
    let a = b
        .string_to_action(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    b.is_legal(a)
}

/// The points of the seats in play.
#[allow(dead_code)]
pub fn scores(s: &CarcassonneState) -> Vec<u32> {
    s.scores[..s.cfg.players].to_vec()
}

/// Serialize `s` with its history, read it back, and check that the text and the state both survive.
#[allow(dead_code)]
pub fn assert_round_trips(g: &CarcassonneGame, s: &CarcassonneState, history: &[u32]) {
    let text = Box::new(s.clone()).serialize(history);
    let (back, h) = g
        .deserialize_state(&text)
        .unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(back.serialize(&h), text);
    assert_eq!(*back, *s);
}
