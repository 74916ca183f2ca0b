//! Flip Pick Towers (docs/rules/flip_pick_towers.md): the rulebook's FAQ answers and examples as scenarios
//! from positions written in the serialization format (§10) on the placeholder sheet (10 rows; columns a, c, e,
//! g are tower columns and b, d, f garden columns), and the invariants: hidden picks never leak, the
//! resampling draws exactly as §9.3 says, the sheet is shared and never copied, custom sheets play, and no
//! input (sheet text, serialized state, action id) makes the engine panic. Ids are written from the contract's
//! formulas, not from the engine's constants.

use meeplex_engine::games::flip_pick_towers::{sheet, FlipPickTowersGame, FlipPickTowersState};
use meeplex_engine::playout::{random_action, Scratch};
use meeplex_engine::{AnyGame, Game, ParamValue, Params, Rng, State, CHANCE, TERMINAL};
use serde_json::{json, Value};

const GAME: &str = "flip_pick_towers";
const WIDTH: usize = 7;
const ROWS: usize = 10;
const N: u32 = (WIDTH * ROWS) as u32;

// §8 action ids on the placeholder sheet (N = 70 cells, S = 16 stall columns).
const PICK1: u32 = 0;
const PICK2: u32 = 1;
const PICK3: u32 = 2;
const NO_MAGIC: u32 = 3;
const DERWEN: u32 = 4;
const BWCA: u32 = 5;
const JIJI: u32 = 6;
const SOSBAN: u32 = 7;
const MAB: u32 = 8;
const MINUS: u32 = 9;
const RESOURCES: [&str; 5] = ["fabric", "beans", "gold", "glass", "wild"];
const STALLS: [[u8; 4]; 4] = [[2, 2, 3, 3], [2, 3, 3, 4], [2, 2, 3, 3], [2, 2, 3, 3]];
const FEATURES: [&str; 20] = [
    "floor 1", "floor 2", "floor 3", "floor 4", "floor 5", "floor 6", "floor 7", "floor 8",
    "floor 9", "bridge", "roof", "Queen", "King", "Princess", "dragon", "Derwen", "Bwca", "Ji-Ji",
    "Sosban", "Mab",
];

fn cell_id(name: &str) -> usize {
    let c = "abcdefg".find(&name[..1]).expect("column");
    let r: usize = name[1..].parse().expect("row");
    (r - 1) * WIDTH + c
}

fn at(name: &str) -> u32 {
    11 + cell_id(name) as u32
}

fn cells(names: &[&str]) -> Vec<u32> {
    let mut v: Vec<u32> = names.iter().map(|n| at(n)).collect();
    v.sort_unstable();
    v
}

fn bx(resource: &str, number: u32) -> u32 {
    let r = RESOURCES.iter().position(|x| *x == resource).unwrap();
    let offset: u32 = STALLS[..r].iter().map(|s| s.len() as u32).sum();
    11 + N + offset + number - 1
}

fn boxes(resource: &str) -> Vec<u32> {
    let r = RESOURCES.iter().position(|x| *x == resource).unwrap();
    (1..=STALLS[r].len() as u32)
        .map(|k| bx(resource, k))
        .collect()
}

fn all_boxes() -> Vec<u32> {
    (0..16).map(|j| 11 + N + j).collect()
}

/// Card kind `5 x feature + resource` (creatures are always wild).
fn kind(feature: &str, resource: &str) -> usize {
    let f = FEATURES.iter().position(|x| *x == feature).unwrap();
    let r = if f >= 15 {
        4
    } else {
        RESOURCES.iter().position(|x| *x == resource).unwrap()
    };
    5 * f + r
}

fn k(feature: &str) -> usize {
    kind(feature, "fabric")
}

/// Picking any of these changes no cell, and with full stalls the wild resource is lost.
fn quiet() -> [usize; 3] {
    [k("Derwen"), k("Bwca"), k("Ji-Ji")]
}

fn card_index(name: &str) -> i64 {
    let v: Value = serde_json::from_str(sheet::PLACEHOLDER_TEXT).unwrap();
    v["scoring_cards"]
        .as_array()
        .unwrap()
        .iter()
        .position(|c| c["name"] == name)
        .unwrap() as i64
}

fn game(players: i64, extra: &[(&str, ParamValue)]) -> AnyGame {
    let mut p = Params::new();
    p.insert("players".into(), ParamValue::Int(players));
    for (key, v) in extra {
        p.insert((*key).into(), v.clone());
    }
    AnyGame::new(GAME, &p).expect("parameters")
}

fn grid(layout: &[(&str, &str)]) -> Value {
    let mut rows = vec![vec!["."; WIDTH]; ROWS];
    for (name, token) in layout {
        let id = cell_id(name);
        rows[id / WIDTH][id % WIDTH] = token;
    }
    json!(rows)
}

fn full_stalls() -> Value {
    json!(STALLS)
}

fn seat(layout: &[(&str, &str)]) -> Value {
    json!({
        "creatures": [[0, 0], [0, 0], [0, 0], [0, 0], [0, 0]],
        "crest": 0,
        "flagged": false,
        "grid": grid(layout),
        "pick": -1,
        "roof": -1,
        "round_scores": [0, 0],
        "stalls": [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]],
    })
}

fn with(mut seat: Value, key: &str, value: Value) -> Value {
    seat[key] = value;
    seat
}

fn gained(creature: u32) -> Value {
    let mut c = vec![[0, 0]; 5];
    c[(creature - DERWEN) as usize] = [1, 0];
    json!(c)
}

struct Setup {
    players: i64,
    params: Vec<(&'static str, ParamValue)>,
    royal_cards: [i64; 3],
    round: i64,
    turn: i64,
    fields: Vec<(&'static str, Value)>,
}

impl Default for Setup {
    fn default() -> Self {
        Setup {
            players: 1,
            params: vec![],
            royal_cards: [0, 1, 2],
            round: 1,
            turn: 0,
            fields: vec![],
        }
    }
}

/// A position just after `display` is flipped (its last card through the chance node).
fn load(
    display: [usize; 3],
    seats: Vec<Value>,
    setup: Setup,
) -> (AnyGame, meeplex_engine::AnyState) {
    let g = game(setup.players, &setup.params);
    let mut state = g.new_initial_state();
    for card in 0..3 {
        state.apply_action(card).unwrap();
    }
    let mut obj: Value = serde_json::from_str(&state.serialize(&[0, 1, 2])).unwrap();
    let mut deck: Vec<i64> = serde_json::from_value(obj["deck"].clone()).unwrap();
    for &kd in &display {
        deck[kd] -= 1;
    }
    let mut gone = 3 * setup.turn;
    for d in deck.iter_mut() {
        let take = gone.min(*d);
        *d -= take;
        gone -= take;
    }
    deck[display[2]] += 1;
    obj["display"] = json!(display[..2]);
    obj["deck"] = json!(deck);
    obj["royal_cards"] = json!(setup.royal_cards);
    obj["round"] = json!(setup.round);
    obj["turn"] = json!(setup.turn);
    obj["step"] = json!("flip");
    obj["seats"] = Value::Array(seats);
    for (key, v) in setup.fields {
        obj[key] = v;
    }
    let (mut state, _) = g
        .deserialize_state(&obj.to_string())
        .expect("a valid position");
    state.apply_action(display[2] as u32).unwrap();
    (g, state)
}

fn view(state: &impl State) -> Value {
    serde_json::from_str(&state.serialize(&[])).unwrap()
}

fn token(state: &impl State, name: &str, player: usize) -> String {
    let id = cell_id(name);
    view(state)["seats"][player]["grid"][id / WIDTH][id % WIDTH]
        .as_str()
        .unwrap()
        .to_string()
}

fn legal(state: &impl State) -> Vec<u32> {
    let mut v = Vec::new();
    state.legal_actions(&mut v);
    v
}

fn apply(state: &mut impl State, actions: &[u32]) {
    for &a in actions {
        state
            .apply_action(a)
            .unwrap_or_else(|e| panic!("action {a}: {e}"));
    }
}

fn scores(state: &impl State, n: usize) -> Vec<f64> {
    let mut v = vec![0.0; n];
    state.scores(&mut v);
    v
}

fn returns(state: &impl State, n: usize) -> Vec<f64> {
    let mut v = vec![0.0; n];
    state.returns(&mut v);
    v
}

/// The last turn of round 2 (deck empty, quiet display, full stalls): after every seat picks slot 1 the game
/// ends and scores the grids as given.
fn final_turn(seats: Vec<Value>, mut setup: Setup) -> meeplex_engine::AnyState {
    let players = seats.len();
    setup.players = players as i64;
    setup.round = 2;
    setup.turn = 20;
    let seats = seats
        .into_iter()
        .map(|s| with(s, "stalls", full_stalls()))
        .collect();
    let (_, mut state) = load(quiet(), seats, setup);
    for _ in 0..players {
        state.apply_action(PICK1).unwrap();
    }
    assert!(state.is_terminal());
    state
}

// ----- FAQ ------------------------------------------------------------------------------------------------

#[test]
fn faq1_duplicate_royals_all_score() {
    let royals = [card_index("High Society"), 1, 2];
    let state = final_turn(
        vec![seat(&[("a1", "F9q"), ("a2", "F8q")])],
        Setup {
            royal_cards: royals,
            ..Setup::default()
        },
    );
    // Highest floor a2 (row 2): 2 points; queens at heights 1 and 2: 3 points.
    assert_eq!(scores(&state, 1), vec![5.0]);
    let (_, mut state) = load(
        [k("Queen"), k("King"), k("Princess")],
        vec![seat(&[("a1", "F9q"), ("a2", "F8-")])],
        Setup::default(),
    );
    apply(&mut state, &[PICK1]);
    assert_eq!(legal(&state), cells(&["a2"]));
}

#[test]
fn faq2_must_add_the_feature_when_able() {
    let display = [
        kind("floor 5", "fabric"),
        kind("floor 5", "beans"),
        kind("floor 5", "gold"),
    ];
    let (_, mut state) = load(display, vec![seat(&[])], Setup::default());
    apply(&mut state, &[PICK1]);
    assert_eq!(legal(&state), cells(&["a1", "c1", "e1", "g1"]));
    apply(&mut state, &[at("a1")]);
    assert_eq!(token(&state, "a1", 0), "F5-");
    assert_eq!(legal(&state), boxes("fabric"));
    let blocked = [("a1", "F3-"), ("c1", "F3-"), ("e1", "F3-"), ("g1", "F3-")];
    let (_, mut state) = load(display, vec![seat(&blocked)], Setup::default());
    apply(&mut state, &[PICK1]);
    assert_eq!(view(&state)["seats"][0]["crest"], 1);
    assert_eq!(legal(&state), boxes("fabric")); // the resource is still gained
}

#[test]
fn faq3_market_boxes_in_any_order_and_wild_creatures() {
    let (_, mut state) = load(
        [kind("floor 5", "glass"), k("Derwen"), k("roof")],
        vec![seat(&[])],
        Setup::default(),
    );
    apply(&mut state, &[PICK1, at("a1")]);
    assert_eq!(legal(&state), boxes("glass"));
    apply(&mut state, &[bx("glass", 4)]);
    assert_eq!(view(&state)["seats"][0]["stalls"][3], json!([0, 0, 0, 1]));
    let (_, mut state) = load(
        [k("Derwen"), k("floor 5"), k("roof")],
        vec![seat(&[])],
        Setup::default(),
    );
    apply(&mut state, &[PICK1]);
    assert_eq!(view(&state)["seats"][0]["creatures"][0], json!([1, 0]));
    assert_eq!(legal(&state), all_boxes());
}

#[test]
fn faq4_nothing_outside_the_grid() {
    let names: Vec<String> = (1..=10).map(|r| format!("a{r}")).collect();
    let tokens: Vec<String> = (1..=10).map(|r| format!("F{}-", 11 - r)).collect();
    let tower: Vec<(&str, &str)> = names
        .iter()
        .zip(&tokens)
        .map(|(n, t)| (n.as_str(), t.as_str()))
        .collect();
    let (_, mut state) = load(
        [k("roof"), k("bridge"), k("floor 1")],
        vec![seat(&tower)],
        Setup::default(),
    );
    apply(&mut state, &[PICK1]);
    assert_eq!(view(&state)["seats"][0]["crest"], 1);
    // A banner cannot hang below the bottom row: lost.
    let stalls = json!([[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]);
    let display = [kind("Queen", "fabric"), k("roof"), k("bridge")];
    let (_, mut state) = load(
        display,
        vec![with(seat(&[("a1", "F5-")]), "stalls", stalls.clone())],
        Setup::default(),
    );
    apply(&mut state, &[PICK1, at("a1"), bx("fabric", 1)]);
    assert_eq!(state.current_player(), CHANCE);
    assert!(!state.serialize(&[]).contains("\"N\""));
    let (_, mut state) = load(
        display,
        vec![with(
            seat(&[("a1", "F9-"), ("a2", "F8-")]),
            "stalls",
            stalls,
        )],
        Setup::default(),
    );
    apply(&mut state, &[PICK1, at("a1"), bx("fabric", 1)]);
    assert_eq!(legal(&state), cells(&["b2"]));
    apply(&mut state, &[at("b2")]);
    assert_eq!(
        (token(&state, "b2", 0), token(&state, "b1", 0)),
        ("N".into(), "n".into())
    );
}

#[test]
fn faq4_beanstalk_needs_room() {
    let layout = [("b5", "B"), ("d5", "B"), ("f5", "B")];
    for (column, filled, ok) in [(4u32, 3, false), (3, 2, true)] {
        let mut stalls = [[0u8; 4]; 4];
        stalls[1][column as usize - 1] = filled;
        let (_, mut state) = load(
            [kind("floor 9", "beans"), k("roof"), k("bridge")],
            vec![with(seat(&layout), "stalls", json!(stalls))],
            Setup::default(),
        );
        apply(&mut state, &[PICK1, at("a1"), bx("beans", column)]);
        if !ok {
            assert_eq!(state.current_player(), CHANCE); // a height-6 beanstalk is lost
            continue;
        }
        assert_eq!(legal(&state), cells(&["b1", "d1", "f1"]));
        apply(&mut state, &[at("d1")]);
        let col: Vec<String> = (1..=5)
            .map(|r| token(&state, &format!("d{r}"), 0))
            .collect();
        assert_eq!(col, ["S", "S", "S", "S", "B"]);
    }
}

#[test]
fn faq5_to_8_roofs_dragons_and_what_they_stand_on() {
    // Q5: not on a foundation (an empty sheet: roof, revealed dragon and picked dragon all scribble).
    let (_, mut state) = load(
        [k("roof"), k("floor 9"), k("bridge")],
        vec![seat(&[])],
        Setup::default(),
    );
    apply(&mut state, &[PICK1]);
    assert_eq!(view(&state)["seats"][0]["crest"], 1);
    let (_, mut state) = load(
        [kind("dragon", "gold"), k("floor 9"), k("bridge")],
        vec![seat(&[])],
        Setup::default(),
    );
    assert_eq!(view(&state)["seats"][0]["crest"], 1);
    assert_eq!(legal(&state), vec![PICK1, PICK2, PICK3]);
    apply(&mut state, &[PICK1]);
    assert_eq!(view(&state)["seats"][0]["crest"], 2);
    // Q6: not on a bridge.
    let layout = [("a1", "F9-"), ("b1", "B"), ("c1", "F9-")];
    let (_, mut state) = load(
        [k("roof"), k("floor 9"), k("bridge")],
        vec![seat(&layout)],
        Setup::default(),
    );
    apply(&mut state, &[PICK1]);
    assert_eq!(legal(&state), cells(&["a2", "c2"]));
    let (_, state) = load(
        [kind("dragon", "beans"), k("floor 9"), k("bridge")],
        vec![seat(&layout)],
        Setup::default(),
    );
    assert_eq!(legal(&state), cells(&["a2", "c2"]));
    // Q7: below a bridge, on a floor: yes.
    let layout = [
        ("a1", "F9-"),
        ("a2", "F8-"),
        ("a3", "F7-"),
        ("a4", "F6-"),
        ("c1", "F9-"),
        ("c2", "F8-"),
        ("c3", "F7-"),
        ("c4", "F6-"),
        ("b1", "B"),
        ("b2", "F5-"),
        ("b4", "B"),
    ];
    let (_, mut state) = load(
        [k("roof"), k("floor 9"), k("bridge")],
        vec![seat(&layout)],
        Setup::default(),
    );
    apply(&mut state, &[PICK1]);
    assert_eq!(legal(&state), cells(&["a5", "b3", "c5"]));
    apply(&mut state, &[at("b3")]);
    assert_eq!(token(&state, "b3", 0), "R0");
    // Q8: no floor on a roof or a dragon.
    let layout = [
        ("a1", "F9-"),
        ("a2", "R0"),
        ("c1", "F9-"),
        ("c2", "D"),
        ("e1", "F9-"),
    ];
    let (_, mut state) = load(
        [k("floor 1"), k("floor 9"), k("bridge")],
        vec![seat(&layout)],
        Setup::default(),
    );
    apply(&mut state, &[PICK1]);
    assert_eq!(legal(&state), cells(&["e2", "g1"]));
}

#[test]
fn floors_and_bridges() {
    for (stability, expect) in [
        ("floor 5", vec!["a1", "c1", "g1"]),
        ("floor 4", vec!["a1", "c1", "e2", "g1"]),
    ] {
        let (_, mut state) = load(
            [k(stability), k("roof"), k("bridge")],
            vec![seat(&[("e1", "F5-")])],
            Setup::default(),
        );
        apply(&mut state, &[PICK1]);
        assert_eq!(legal(&state), cells(&expect));
    }
    let (_, mut state) = load(
        [k("floor 9"), k("roof"), k("bridge")],
        vec![seat(&[("a1", "F1-"), ("b1", "B"), ("c1", "F1-")])],
        Setup::default(),
    );
    apply(&mut state, &[PICK1]);
    assert_eq!(legal(&state), cells(&["b2", "e1", "g1"]));
    let (_, mut state) = load(
        [k("bridge"), k("roof"), k("floor 9")],
        vec![seat(&[
            ("a1", "F9-"),
            ("c1", "F9-"),
            ("e1", "F9-"),
            ("e2", "F8-"),
        ])],
        Setup::default(),
    );
    apply(&mut state, &[PICK1]);
    assert_eq!(legal(&state), cells(&["b1", "d1"]));
}

#[test]
fn gold_column_gives_a_bag_of_gold_and_full_stalls_lose() {
    let stalls = json!([[0, 0, 0, 0], [0, 0, 0, 0], [1, 0, 0, 0], [0, 0, 0, 0]]);
    let (_, mut state) = load(
        [kind("floor 5", "gold"), k("roof"), k("bridge")],
        vec![with(
            seat(&[("a1", "F9-"), ("c1", "F8w")]),
            "stalls",
            stalls,
        )],
        Setup::default(),
    );
    apply(&mut state, &[PICK1, at("e1")]);
    assert_eq!(legal(&state), boxes("gold"));
    apply(&mut state, &[bx("gold", 1)]);
    assert_eq!(legal(&state), cells(&["a1", "e1"]));
    apply(&mut state, &[at("a1")]);
    assert_eq!(token(&state, "a1", 0), "F9g");
    let stalls = json!([[0, 0, 0, 0], [0, 0, 0, 0], [2, 2, 3, 3], [0, 0, 0, 0]]);
    let (_, mut state) = load(
        [kind("floor 5", "gold"), k("roof"), k("bridge")],
        vec![with(seat(&[]), "stalls", stalls)],
        Setup::default(),
    );
    apply(&mut state, &[PICK1, at("a1")]);
    assert_eq!(state.current_player(), CHANCE);
    // A window with no empty floor is lost.
    let stalls = json!([[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [1, 0, 0, 0]]);
    let (_, mut state) = load(
        [kind("roof", "glass"), k("floor 9"), k("bridge")],
        vec![with(seat(&[("a1", "F9q")]), "stalls", stalls)],
        Setup::default(),
    );
    apply(&mut state, &[PICK1, at("a2"), bx("glass", 1)]);
    assert_eq!(state.current_player(), CHANCE);
    assert_eq!(view(&state)["seats"][0]["stalls"][3], json!([2, 0, 0, 0]));
}

#[test]
fn flags_for_roofs_added_in_the_same_turn() {
    for (taken, flags) in [(0, 3), (1, 2), (2, 1), (3, 0)] {
        let seats = vec![seat(&[("a1", "F9-")]); 3];
        let (_, mut state) = load(
            [kind("roof", "fabric"), kind("roof", "beans"), k("floor 9")],
            seats,
            Setup {
                players: 3,
                fields: vec![("flags_taken", json!(taken))],
                ..Setup::default()
            },
        );
        apply(
            &mut state,
            &[PICK1, PICK2, PICK3, at("a2"), bx("fabric", 3), at("a2")],
        );
        apply(&mut state, &[bx("beans", 3), at("c1"), bx("fabric", 3)]);
        assert_eq!(state.current_player(), CHANCE);
        assert_eq!(token(&state, "a2", 0), format!("R{flags}"));
        assert_eq!(token(&state, "a2", 1), format!("R{flags}"));
        assert_eq!(view(&state)["flags_taken"], json!((taken + 1).min(3)));
    }
}

#[test]
fn mab_two_roofs_only_one_gets_flags() {
    let mab = json!([[0, 0], [0, 0], [0, 0], [0, 0], [1, 0]]);
    let (_, mut state) = load(
        [k("roof"), k("floor 9"), k("bridge")],
        vec![with(
            seat(&[("a1", "F9-"), ("c1", "F9-")]),
            "creatures",
            mab,
        )],
        Setup::default(),
    );
    apply(&mut state, &[PICK1]);
    assert_eq!(legal(&state), vec![NO_MAGIC, MAB]);
    apply(&mut state, &[MAB, at("a2"), bx("fabric", 1)]);
    assert_eq!(legal(&state), cells(&["c2"]));
    apply(&mut state, &[at("c2"), bx("fabric", 2)]);
    assert_eq!(state.current_player(), CHANCE);
    assert_eq!(
        (token(&state, "a2", 0), token(&state, "c2", 0)),
        ("R3".into(), "R0".into())
    );
    assert_eq!(view(&state)["seats"][0]["creatures"][4], json!([0, 1]));
}

#[test]
fn dragons_floor_or_bag_of_gold_and_variants() {
    let layout = [("a1", "F9g"), ("c1", "F9-")];
    let display = [kind("dragon", "gold"), k("Queen"), k("floor 9")];
    let (_, mut state) = load(display, vec![seat(&layout)], Setup::default());
    assert_eq!(state.current_player(), 0);
    assert_eq!(legal(&state), cells(&["a1", "a2", "c2"]));
    apply(&mut state, &[at("a1")]);
    assert_eq!(token(&state, "a1", 0), "F9x");
    assert_eq!(legal(&state), vec![PICK1, PICK2, PICK3]);
    apply(&mut state, &[PICK2]);
    assert_eq!(legal(&state), cells(&["c1"])); // the crossed-out floor takes nothing more
                                               // Two dragons: once per display, or once per card with dragon_per_card.
    for per_card in [false, true] {
        let (_, mut state) = load(
            [
                kind("dragon", "gold"),
                kind("dragon", "beans"),
                k("floor 9"),
            ],
            vec![seat(&[("a1", "F9-"), ("c1", "F9-")])],
            Setup {
                params: vec![("dragon_per_card", ParamValue::Bool(per_card))],
                ..Setup::default()
            },
        );
        apply(&mut state, &[at("a2")]);
        if per_card {
            assert_eq!(legal(&state), cells(&["c2"]));
            apply(&mut state, &[at("c2")]);
        }
        assert_eq!(legal(&state), vec![PICK1, PICK2, PICK3]);
    }
    // Competitive: the seat to the left decides.
    let seats = vec![
        seat(&[("a1", "F9g")]),
        seat(&[("c1", "F9-")]),
        seat(&[("e1", "F9g")]),
    ];
    let (_, mut state) = load(
        [kind("dragon", "gold"), k("floor 9"), k("roof")],
        seats,
        Setup {
            players: 3,
            params: vec![("competitive", ParamValue::Bool(true))],
            ..Setup::default()
        },
    );
    assert_eq!(state.current_player(), 1);
    assert_eq!(legal(&state), cells(&["a1", "a2"]));
    apply(&mut state, &[at("a2")]);
    assert_eq!(state.current_player(), 2);
    assert_eq!(legal(&state), cells(&["c2"]));
    apply(&mut state, &[at("c2")]);
    assert_eq!(state.current_player(), 0);
    apply(&mut state, &[at("e1")]);
    assert_eq!(
        [
            token(&state, "a2", 0),
            token(&state, "c2", 1),
            token(&state, "e1", 2)
        ],
        ["D", "D", "F9x"]
    );
    assert_eq!(legal(&state), vec![PICK1, PICK2, PICK3]);
}

#[test]
fn creatures_and_their_magic() {
    // Picking a creature strokes an X space; with none blank, the crest.
    let (_, mut state) = load(
        [k("Mab"), k("roof"), k("bridge")],
        vec![seat(&[])],
        Setup::default(),
    );
    apply(&mut state, &[PICK1]);
    assert_eq!(view(&state)["seats"][0]["creatures"][4], json!([1, 0]));
    let full = json!([[0, 0], [0, 0], [0, 0], [0, 0], [0, 2]]);
    let (_, mut state) = load(
        [k("Mab"), k("roof"), k("bridge")],
        vec![with(seat(&[]), "creatures", full)],
        Setup::default(),
    );
    apply(&mut state, &[PICK1]);
    assert_eq!(view(&state)["seats"][0]["crest"], 1);
    // Derwen: also a stability 1 floor.
    let (_, mut state) = load(
        [k("floor 5"), k("roof"), k("bridge")],
        vec![with(seat(&[]), "creatures", gained(DERWEN))],
        Setup::default(),
    );
    apply(&mut state, &[PICK1]);
    assert_eq!(legal(&state), vec![NO_MAGIC, DERWEN]);
    apply(&mut state, &[DERWEN, at("a1")]);
    assert_eq!(legal(&state), cells(&["a2", "c1", "e1", "g1"]));
    apply(&mut state, &[at("a2")]);
    assert_eq!(token(&state, "a2", 0), "F1-");
    assert_eq!(legal(&state), boxes("fabric"));
    assert_eq!(view(&state)["seats"][0]["creatures"][0], json!([0, 1]));
    // Bwca: +/- 1, floors only.
    let (_, mut state) = load(
        [k("floor 5"), k("roof"), k("bridge")],
        vec![with(seat(&[("e1", "F5-")]), "creatures", gained(BWCA))],
        Setup::default(),
    );
    apply(&mut state, &[PICK1, BWCA]);
    assert_eq!(legal(&state), vec![MINUS, MINUS + 1]);
    apply(&mut state, &[MINUS, at("e2")]);
    assert_eq!(token(&state, "e2", 0), "F4-");
    let (_, mut state) = load(
        [k("roof"), k("floor 5"), k("bridge")],
        vec![with(seat(&[("e1", "F5-")]), "creatures", gained(BWCA))],
        Setup::default(),
    );
    apply(&mut state, &[PICK1]);
    assert_eq!(legal(&state), cells(&["e2"]));
    // Ji-Ji: the other resources of the display, in slot order.
    let (_, mut state) = load(
        [
            kind("floor 5", "fabric"),
            kind("floor 6", "gold"),
            k("Derwen"),
        ],
        vec![with(seat(&[]), "creatures", gained(JIJI))],
        Setup::default(),
    );
    apply(&mut state, &[PICK1, JIJI, at("a1")]);
    assert_eq!(legal(&state), boxes("fabric"));
    apply(&mut state, &[bx("fabric", 3)]);
    assert_eq!(legal(&state), boxes("gold"));
    apply(&mut state, &[bx("gold", 3)]);
    assert_eq!(legal(&state), all_boxes());
    apply(&mut state, &[bx("glass", 3)]);
    assert_eq!(state.current_player(), CHANCE);
    // Sosban: on any floor.
    for (magic, expect) in [
        (NO_MAGIC, vec!["a1", "c1", "g1"]),
        (SOSBAN, vec!["a1", "c1", "e2", "g1"]),
    ] {
        let (_, mut state) = load(
            [k("floor 5"), k("roof"), k("bridge")],
            vec![with(seat(&[("e1", "F3-")]), "creatures", gained(SOSBAN))],
            Setup::default(),
        );
        apply(&mut state, &[PICK1, magic]);
        assert_eq!(legal(&state), cells(&expect));
    }
    // Mab: the same card again, feature and resource.
    let (_, mut state) = load(
        [kind("floor 5", "beans"), k("roof"), k("bridge")],
        vec![with(seat(&[]), "creatures", gained(MAB))],
        Setup::default(),
    );
    apply(&mut state, &[PICK1, MAB, at("a1"), bx("beans", 4)]);
    assert_eq!(legal(&state), cells(&["c1", "e1", "g1"]));
    apply(&mut state, &[at("g1"), bx("beans", 4)]);
    assert_eq!(view(&state)["seats"][0]["stalls"][1], json!([0, 0, 0, 2]));
}

#[test]
fn third_crest_section_gives_one_final_turn() {
    let seats = vec![with(seat(&[]), "crest", json!(2)), seat(&[])];
    let (_, mut state) = load(
        [kind("roof", "fabric"), kind("roof", "beans"), k("bridge")],
        seats,
        Setup {
            players: 2,
            ..Setup::default()
        },
    );
    apply(
        &mut state,
        &[PICK1, PICK1, bx("fabric", 1), bx("fabric", 1)],
    );
    let v = view(&state);
    assert_eq!(
        (
            v["seats"][0]["crest"].clone(),
            v["seats"][1]["crest"].clone()
        ),
        (json!(3), json!(1))
    );
    assert_eq!(
        (
            v["final_turn"].clone(),
            v["step"].clone(),
            v["turn"].clone()
        ),
        (json!(true), json!("flip"), json!(1))
    );
    while state.current_player() != TERMINAL {
        let a = legal(&state)[0];
        state.apply_action(a).unwrap();
    }
    let v = view(&state);
    assert_eq!(
        (v["turn"].clone(), v["round"].clone()),
        (json!(2), json!(1))
    );
}

#[test]
fn round_two_reshuffles_and_scores_again() {
    let seats = vec![with(seat(&[("a1", "F9g")]), "stalls", full_stalls())];
    let (_, mut state) = load(
        quiet(),
        seats,
        Setup {
            turn: 20,
            ..Setup::default()
        },
    );
    apply(&mut state, &[PICK1]);
    let v = view(&state);
    assert_eq!(
        (v["round"].clone(), v["turn"].clone(), v["step"].clone()),
        (json!(2), json!(0), json!("flip"))
    );
    assert_eq!(
        v["deck"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_i64().unwrap())
            .sum::<i64>(),
        63
    );
    assert_eq!(v["seats"][0]["round_scores"], json!([5, 0]));
}

#[test]
fn end_of_round_scoring_in_order() {
    let layout = [
        ("a1", "F9-"),
        ("a2", "F8q"),
        ("a3", "F7q"),
        ("a4", "R3"),
        ("c1", "F9g"),
        ("c2", "F6k"),
        ("c3", "R1"),
        ("e1", "F9x"),
        ("e2", "F5w"),
        ("d1", "S"),
        ("d2", "S"),
        ("d3", "S"),
        ("d4", "S"),
        ("f2", "N"),
        ("f1", "n"),
        ("g1", "F7p"),
    ];
    let royals = [
        card_index("High Society"),
        card_index("Steady Footing"),
        card_index("Window Shopper"),
    ];
    let state = final_turn(
        vec![with(seat(&layout), "round_scores", json!([10, 0]))],
        Setup {
            royal_cards: royals,
            ..Setup::default()
        },
    );
    let (heights, flags, banners, gold, windows, beanstalk) = (3 + 2 + 2 + 1, 8, 2, 4, 3, 9);
    let royal = (2 + 3) + 6 + 1;
    let round2 = heights + flags + banners + gold + windows + beanstalk + royal;
    assert_eq!(
        view(&state)["seats"][0]["round_scores"],
        json!([10, round2])
    );
    assert_eq!(scores(&state, 1), vec![10.0 + round2 as f64]);
}

#[test]
fn garden_towers_windows_tiebreak_and_solo_target() {
    for (garden, points) in [(true, 4.0), (false, 2.0)] {
        let state = final_turn(
            vec![seat(&[
                ("a1", "F9-"),
                ("b1", "B"),
                ("c1", "F9-"),
                ("b2", "F5-"),
            ])],
            Setup {
                params: vec![("garden_towers", ParamValue::Bool(garden))],
                ..Setup::default()
            },
        );
        assert_eq!(scores(&state, 1), vec![points]);
    }
    for (windows, points) in [
        ([2, 2, 1], [12.0, 12.0, 6.0]),
        ([3, 1, 1], [12.0, 6.0, 6.0]),
        ([0, 0, 0], [0.0, 0.0, 0.0]),
        ([2, 0, 0], [12.0, 0.0, 0.0]),
    ] {
        let seats = windows
            .iter()
            .map(|&w| {
                let layout: Vec<(&str, &str)> = ["a1", "c1", "e1"]
                    .iter()
                    .enumerate()
                    .map(|(i, n)| (*n, if i < w { "F9w" } else { "F9-" }))
                    .collect();
                seat(&layout)
            })
            .collect();
        let state = final_turn(seats, Setup::default());
        assert_eq!(scores(&state, 3), points.map(|p| p + 3.0).to_vec());
    }
    let seats = vec![
        with(
            seat(&[("a1", "F9-"), ("c1", "F9g")]),
            "round_scores",
            json!([10, 0]),
        ),
        with(
            seat(&[("a1", "F9-"), ("c1", "F9-"), ("e1", "F9-"), ("g1", "F9-")]),
            "round_scores",
            json!([12, 0]),
        ),
    ];
    let state = final_turn(seats, Setup::default());
    assert_eq!(scores(&state, 2), vec![16.0, 16.0]);
    assert_eq!(returns(&state, 2), vec![1.0, 0.0]);
    let seats = vec![
        with(seat(&[("a1", "F9-")]), "round_scores", json!([3, 0])),
        with(seat(&[("c1", "F9-")]), "round_scores", json!([3, 0])),
    ];
    assert_eq!(
        returns(&final_turn(seats, Setup::default()), 2),
        vec![0.5, 0.5]
    );
    let royals = [
        card_index("High Society"),
        card_index("Steady Footing"),
        card_index("Window Shopper"),
    ];
    for (round1, target, won) in [
        (59, "diamond", 0.0),
        (60, "diamond", 1.0),
        (83, "star", 0.0),
        (84, "star", 1.0),
    ] {
        let state = final_turn(
            vec![with(
                seat(&[("a1", "F9w"), ("c1", "F9-")]),
                "round_scores",
                json!([round1, 0]),
            )],
            Setup {
                royal_cards: royals,
                params: vec![("target", ParamValue::Str(target.into()))],
                ..Setup::default()
            },
        );
        assert_eq!(scores(&state, 1), vec![round1 as f64 + 5.0]);
        assert_eq!(returns(&state, 1), vec![won]);
    }
}

// ----- hidden picks ---------------------------------------------------------------------------------------

/// A 3-seat pick step where seats 0 and 1 have picked.
fn mid_pick(first: u32, second: u32) -> (AnyGame, meeplex_engine::AnyState, Vec<u32>) {
    let (g, mut state) = load(
        [k("floor 5"), k("floor 6"), k("floor 7")],
        vec![seat(&[]), seat(&[]), seat(&[])],
        Setup {
            players: 3,
            ..Setup::default()
        },
    );
    apply(&mut state, &[first, second]);
    (g, state, vec![0, 1, 2, 20, 25, 30, first, second])
}

#[test]
fn hidden_picks_do_not_leak() {
    let (g, a, ha) = mid_pick(PICK1, PICK2);
    let (_, b, hb) = mid_pick(PICK3, PICK1);
    let len = g.observation_len();
    for p in 0..3 {
        let (mut oa, mut ob) = (vec![0f32; len], vec![0f32; len]);
        a.observation_tensor(p, &mut oa);
        b.observation_tensor(p, &mut ob);
        let (sa, sb) = (a.observation_string(p), b.observation_string(p));
        let (ia, ib) = (
            a.information_state_string(p, &ha),
            b.information_state_string(p, &hb),
        );
        if p == 2 {
            // Seat 2 has not picked: it sees neither pick.
            assert_eq!(oa, ob);
            assert_eq!(sa, sb);
            assert_eq!(ia, ib);
            assert_eq!(ia, "seat=2 history=0,1,2,20,25,30,?,?");
        } else {
            // A seat sees its own pick, so the two states differ to it.
            assert_ne!(oa, ob);
            assert_ne!(ia, ib);
        }
    }
    assert_eq!(
        a.information_state_string(0, &ha),
        "seat=0 history=0,1,2,20,25,30,0,?"
    );
    // Same own pick, different hidden pick: identical views.
    let (_, c, hc) = mid_pick(PICK1, PICK3);
    let (mut oa, mut oc) = (vec![0f32; len], vec![0f32; len]);
    a.observation_tensor(0, &mut oa);
    c.observation_tensor(0, &mut oc);
    assert_eq!(oa, oc);
    assert_eq!(a.observation_string(0), c.observation_string(0));
    assert_eq!(
        a.information_state_string(0, &ha),
        c.information_state_string(0, &hc)
    );
}

#[test]
fn resample_redraws_hidden_picks_in_seat_order() {
    let (g, state, history) = mid_pick(PICK1, PICK2);
    let AnyGame::FlipPickTowers(_) = &g else {
        panic!("registered as its own variant");
    };
    let meeplex_engine::AnyState::FlipPickTowers(s) = &state else {
        panic!("state variant");
    };
    for seed in 0..20 {
        // Seat 2 resamples seats 0 then 1; seat 0 resamples seat 1 only.
        let mut rng = Rng::new(seed);
        let mut h = history.clone();
        let twin = s.resample_rewriting(2, &mut rng, &mut h);
        let mut check = Rng::new(seed);
        let (p0, p1) = (check.below(3), check.below(3));
        assert_eq!(rng, check);
        assert_eq!(
            (twin.seats[0].pick as u64, twin.seats[1].pick as u64),
            (p0, p1)
        );
        assert_eq!(&h[6..], &[p0 as u32, p1 as u32]);
        let mut rng = Rng::new(seed);
        let twin = s.resample_from_infostate(0, &mut rng);
        let mut check = Rng::new(seed);
        assert_eq!(twin.seats[0].pick, 0);
        assert_eq!(twin.seats[1].pick as u64, check.below(3));
        // Out of the pick step a resample is a clone and draws nothing.
        let mut rng = Rng::new(seed);
        let mut done = *s;
        done.apply_action(PICK3).unwrap();
        assert_eq!(done.resample_from_infostate(1, &mut rng), done);
        assert_eq!(rng, Rng::new(seed));
    }
}

// ----- the sheet as data ------------------------------------------------------------------------------------

fn b64(text: &str) -> String {
    format!("b64_{}", sheet::encode_base64url(text.as_bytes()))
}

#[test]
fn clone_shares_the_sheet() {
    let g = FlipPickTowersGame::new(&Params::new()).unwrap();
    let mut s: FlipPickTowersState = g.new_initial_state();
    let mut rng = Rng::new(3);
    let mut scratch = Scratch::default();
    for _ in 0..40 {
        if let Some(a) = random_action(&s, &mut rng, &mut scratch) {
            s.apply_unchecked(a);
        }
    }
    let t = s; // a plain `Copy` value: cloning is a memcpy
    assert!(std::ptr::eq(s.sheet(), t.sheet()));
    assert!(std::ptr::eq(s.sheet(), &g.config().sheet));
    assert_eq!(s, t);
    // The state itself is a fixed-size value with no heap data: the sheet is not in it. Each seat's grid is 7 bit
    // planes of the largest grid (192 cells), so 6 seats cost 1008 bytes at the contract's maxima. The bound
    // is the layout's size: 1288 bytes, plus one word since the state records which seats took a flag bonus
    // this round (§5.7; the byte fell just past a word boundary).
    fn is_copy<T: Copy>() {}
    is_copy::<FlipPickTowersState>();
    assert!(std::mem::size_of::<FlipPickTowersState>() <= 1296);
    // One interned configuration per parameter set.
    let again = FlipPickTowersGame::new(&Params::new()).unwrap();
    assert!(std::ptr::eq(g.config(), again.config()));
}

fn custom_sheet() -> String {
    let mut v: Value = serde_json::from_str(sheet::PLACEHOLDER_TEXT).unwrap();
    v["name"] = json!("a small castle");
    v["rows"] = json!(4);
    v["columns"] = json!([
        {"kind": "garden", "bottom": 0, "top": 3},
        {"kind": "tower", "bottom": 1, "top": 3},
        {"kind": "garden", "bottom": 2, "top": 3},
        {"kind": "tower", "bottom": 0, "top": 2},
    ]);
    v["tower_height_points"] = json!([1, 3, 6, 10]);
    v["beanstalk_points"] = json!([2, 5]);
    v["stalls"] = json!({"fabric": [1], "beans": [1, 2], "gold": [2], "glass": [9, 1]});
    v["bean_heights"] = json!([1, 2]);
    v["scoring_cards"] = json!([
        {"name": "x", "targets": [1, 2, 3], "score": ["mul", ["height"], ["count", "around", "any"]]},
        {"name": "y", "targets": [1, 2, 3], "score": ["lookup", ["stability"], [-5, 0, 5]]},
        {"name": "z", "targets": [1, 2, 3], "score": ["if", ["not", ["eq", ["tower"], 1]], 10, -1]},
    ]);
    v.to_string()
}

#[test]
fn a_custom_sheet_plays_and_round_trips() {
    let value = b64(&custom_sheet());
    let g = game(3, &[("sheet", ParamValue::Str(value.clone()))]);
    assert_eq!(g.params().get("sheet"), Some(&ParamValue::Str(value)));
    // N = 16, S = 6, M = 3: 11 + 16 + 6 actions, 100 chance outcomes.
    assert_eq!(
        (g.num_distinct_actions(), g.max_chance_outcomes()),
        (33, 100)
    );
    assert_eq!(
        g.observation_shape(),
        vec![3 * (14 * 16 + 6 + 21) + 9 + 210]
    );
    for seed in 0..30 {
        let mut s = g.new_initial_state();
        let mut history = Vec::new();
        let mut rng = Rng::new(seed);
        let mut scratch = Scratch::default();
        while let Some(a) = random_action(&s, &mut rng, &mut scratch) {
            s.apply_action(a).unwrap();
            history.push(a);
            let text = s.serialize(&history);
            let (back, h) = g.deserialize_state(&text).expect("round trip");
            assert_eq!(back, s);
            assert_eq!(h, history);
        }
        assert!(s.is_terminal());
    }
}

#[test]
fn bad_sheets_are_refused_without_panic() {
    let good: Value = serde_json::from_str(&custom_sheet()).unwrap();
    let mut cases: Vec<String> = vec![
        String::new(),
        "b64_".into(),
        "b64_YQ=".into(),
        "b64_YR".into(),
        "Placeholder".into(),
        b64("\u{feff}{}"),
        b64("{}"),
        b64("[]"),
        b64("null"),
        b64(&custom_sheet().replace("\"version\":1", "\"version\":true")),
        b64(&custom_sheet().replace("\"version\":1", "\"version\":1.0")),
        b64(&custom_sheet().replace("\"rows\":4", "\"rows\":4,\"rows\":4")),
        b64(&format!("{} x", custom_sheet())),
    ];
    let mutations: Vec<(&str, Value)> = vec![
        ("rows", json!(17)),
        ("rows", json!(0)),
        ("columns", json!([])),
        ("columns", json!([{"kind": "tower", "bottom": 3, "top": 2}])),
        ("columns", json!([{"kind": "moat", "bottom": 0, "top": 2}])),
        ("tower_height_points", json!([1, 2, 3])),
        ("beanstalk_points", json!([])),
        (
            "stalls",
            json!({"fabric": [10], "beans": [1, 2], "gold": [2], "glass": [9, 1]}),
        ),
        ("bean_heights", json!([1, 3])),
        ("creature_spaces", json!([1, 1, 1, 1])),
        ("notes", json!([1])),
        ("name", json!("")),
        ("verified", json!(0)),
        ("scoring_cards", json!([])),
        (
            "scoring_cards",
            json!([
                {"name": "a", "targets": [1, 2, 3], "score": 1},
                {"name": "a", "targets": [1, 2, 3], "score": 1},
                {"name": "b", "targets": [1, 2, 3], "score": 1},
            ]),
        ),
        (
            "scoring_cards",
            json!([
                {"name": "a", "targets": [1, 2, 3], "score": 1001},
                {"name": "b", "targets": [1, 2, 3], "score": 1},
                {"name": "c", "targets": [1, 2, 3], "score": 1},
            ]),
        ),
        (
            "scoring_cards",
            json!([
                {"name": "a", "targets": [1, 2, 3], "score": ["count", "nowhere", "any"]},
                {"name": "b", "targets": [1, 2, 3], "score": 1},
                {"name": "c", "targets": [1, 2, 3], "score": 1},
            ]),
        ),
        (
            "scoring_cards",
            json!([
                {"name": "a", "targets": [1, 2, 3], "score": ["sum"]},
                {"name": "b", "targets": [1, 2, 3], "score": ["lookup", 1, []]},
                {"name": "c", "targets": [1, 2, 3], "score": 1},
            ]),
        ),
    ];
    for (key, v) in mutations {
        let mut s = good.clone();
        s[key] = v;
        cases.push(b64(&s.to_string()));
    }
    // Too deep (11 levels) and too many nodes (101).
    let mut deep = json!(1);
    for _ in 0..10 {
        deep = json!(["sum", deep]);
    }
    let wide = Value::Array(
        std::iter::once(json!("sum"))
            .chain(std::iter::repeat_n(json!(1), 100))
            .collect(),
    );
    for expr in [deep, wide] {
        let mut s = good.clone();
        s["scoring_cards"][0]["score"] = expr;
        cases.push(b64(&s.to_string()));
    }
    for value in cases {
        let mut p = Params::new();
        p.insert("sheet".into(), ParamValue::Str(value.clone()));
        assert!(AnyGame::new(GAME, &p).is_err(), "accepted {value:.80}");
    }
    // Exactly at the limits: 10 levels, 100 nodes.
    let mut deep = json!(1);
    for _ in 0..9 {
        deep = json!(["sum", deep]);
    }
    let wide = Value::Array(
        std::iter::once(json!("sum"))
            .chain(std::iter::repeat_n(json!(1), 99))
            .collect(),
    );
    for expr in [deep, wide] {
        let mut s = good.clone();
        s["scoring_cards"][0]["score"] = expr;
        let mut p = Params::new();
        p.insert("sheet".into(), ParamValue::Str(b64(&s.to_string())));
        assert!(AnyGame::new(GAME, &p).is_ok());
    }
    // Byte-level garbage: never a panic.
    let text = custom_sheet();
    let mut rng = Rng::new(5);
    for _ in 0..3000 {
        let mut bytes = text.clone().into_bytes();
        for _ in 0..1 + rng.below(4) {
            let i = rng.below(bytes.len() as u64) as usize;
            match rng.below(3) {
                0 => bytes[i] = b"0123456789[]{}\",:-tfn\\u"[rng.below(23) as usize],
                1 => {
                    bytes.remove(i);
                }
                _ => bytes.insert(i, b"[{\"-1e.9"[rng.below(8) as usize]),
            }
        }
        let mut p = Params::new();
        p.insert(
            "sheet".into(),
            ParamValue::Str(format!("b64_{}", sheet::encode_base64url(&bytes))),
        );
        if let Ok(g) = AnyGame::new(GAME, &p) {
            let mut s = g.new_initial_state();
            let mut scratch = Scratch::default();
            while let Some(a) = random_action(&s, &mut rng, &mut scratch) {
                s.apply_action(a).unwrap();
            }
        }
    }
}

#[test]
fn bad_parameters_are_refused() {
    let bad: Vec<(&str, ParamValue)> = vec![
        ("players", ParamValue::Int(0)),
        ("players", ParamValue::Int(7)),
        ("players", ParamValue::Bool(true)),
        ("target", ParamValue::Str("Star".into())),
        ("target", ParamValue::Int(1)),
        ("sheet", ParamValue::Bool(false)),
        ("garden_towers", ParamValue::Int(1)),
        ("office", ParamValue::Bool(true)),
    ];
    for (key, v) in bad {
        let mut p = Params::new();
        p.insert(key.into(), v);
        assert!(AnyGame::new(GAME, &p).is_err(), "{key}");
    }
    let mut p = Params::new();
    p.insert("players".into(), ParamValue::Int(1));
    p.insert("competitive".into(), ParamValue::Bool(true));
    assert!(AnyGame::new(GAME, &p).is_err());
    let g = game(2, &[]);
    let keys: Vec<&String> = g.params().keys().collect();
    assert_eq!(
        keys,
        [
            "competitive",
            "dragon_per_card",
            "garden_towers",
            "players",
            "sheet",
            "target"
        ]
    );
}

// ----- invariants over random games ---------------------------------------------------------------------------

#[test]
fn random_games_keep_the_invariants() {
    let variants: Vec<AnyGame> = (1..=6)
        .flat_map(|players| {
            let mut v = vec![game(players, &[])];
            if players > 1 {
                v.push(game(
                    players,
                    &[
                        ("competitive", ParamValue::Bool(true)),
                        ("dragon_per_card", ParamValue::Bool(true)),
                        ("garden_towers", ParamValue::Bool(false)),
                    ],
                ));
            }
            v
        })
        .collect();
    for g in &variants {
        let len = g.observation_len();
        let limit = g.num_distinct_actions().max(g.max_chance_outcomes()) as u32 + 3;
        for seed in 0..5u64 {
            let mut s = g.new_initial_state();
            let mut history = Vec::new();
            let mut rng = Rng::new(seed);
            let mut scratch = Scratch::default();
            let mut obs = vec![0f32; len];
            while let Some(a) = random_action(&s, &mut rng, &mut scratch) {
                let actions = legal(&s);
                assert!(actions.windows(2).all(|w| w[0] < w[1]));
                // Every id at one step in seven (the refusals of all ids are also in invariants.rs).
                let every = history.len() % 7 == 0;
                for x in (0..limit).filter(|x| every || actions.binary_search(x).is_ok()) {
                    if actions.binary_search(&x).is_err() {
                        let before = s.clone();
                        assert!(s.apply_action(x).is_err());
                        assert_eq!(before, s);
                    }
                    // Every id prints where the contract says it does (decisions: all ids; flips: all kinds).
                    let flip = s.action_to_string(0).is_ok_and(|t| t.starts_with("reveal"));
                    let printable = match s.current_player() {
                        CHANCE if flip => x < 100,
                        CHANCE => x < 33,
                        _ => (x as usize) < g.num_distinct_actions(),
                    };
                    assert_eq!(s.action_to_string(x).is_ok(), printable, "{x}");
                    if printable {
                        let t = s.action_to_string(x).unwrap();
                        assert_eq!(s.string_to_action(&t).unwrap(), x, "{t}");
                        assert_eq!(
                            s.string_to_action(&format!("  {}  ", t.to_uppercase()))
                                .unwrap(),
                            x
                        );
                    }
                }
                for p in 0..g.num_players() {
                    s.observation_tensor(p, &mut obs);
                    assert!(obs.iter().all(|x| x.is_finite()));
                }
                let mut h = vec![0.0; g.num_players()];
                s.heuristic_value(&mut h);
                assert!(h.iter().all(|x| (0.0..=1.0).contains(x)));
                let (back, bh) = g.deserialize_state(&s.serialize(&history)).unwrap();
                assert_eq!(back, s);
                assert_eq!(bh, history);
                s.apply_action(a).unwrap();
                history.push(a);
                assert!(history.len() as u64 <= g.max_game_length());
            }
            assert!(s.is_terminal());
            let r = returns(&s, g.num_players());
            let sum: f64 = r.iter().sum();
            assert!(sum == 0.0 || (sum - 1.0).abs() < 1e-12);
        }
    }
}

#[test]
fn apply_unchecked_never_panics() {
    // "Calling it with anything else is a logic error of the caller; it must still not panic."
    for players in [1, 3] {
        let g = game(players, &[("dragon_per_card", ParamValue::Bool(true))]);
        let limit = g.num_distinct_actions().max(g.max_chance_outcomes()) as u32 + 3;
        for seed in 0..20 {
            let mut s = g.new_initial_state();
            let mut rng = Rng::new(seed);
            let mut scratch = Scratch::default();
            let mut steps = 0;
            while let Some(a) = random_action(&s, &mut rng, &mut scratch) {
                for _ in 0..3 {
                    let mut t = s.clone();
                    t.apply_unchecked(rng.below(limit as u64) as u32);
                    let _ = t.serialize(&[]);
                }
                s.apply_unchecked(a);
                steps += 1;
                assert!(steps <= g.max_game_length());
            }
        }
    }
}

#[test]
fn notation_folds_any_white_space() {
    // §8: the reader is as relaxed as Flip City's: case, surrounding white space and every run of inner white
    // space (spaces, tabs, newlines, in any mix) are folded; the writer stays canonical (single spaces).
    const RUNS: [&str; 5] = ["\t", "\n", " \t ", "\r\n", "  \t\n  "];
    let g = game(3, &[("dragon_per_card", ParamValue::Bool(true))]);
    let mut seen_spaced = [false; 2]; // a chance text and a decision text with inner spaces
    for seed in 0..4u64 {
        let mut s = g.new_initial_state();
        let mut rng = Rng::new(seed);
        let mut scratch = Scratch::default();
        let mut k = 0usize;
        while let Some(a) = random_action(&s, &mut rng, &mut scratch) {
            for x in legal(&s) {
                let t = s.action_to_string(x).unwrap();
                assert!(!t.contains("  ") && t.trim() == t && !t.contains(['\t', '\n']));
                let mut relaxed = String::from(RUNS[k % RUNS.len()]);
                for (i, word) in t.split(' ').enumerate() {
                    if i > 0 {
                        relaxed.push_str(RUNS[(k + i) % RUNS.len()]);
                    }
                    relaxed.push_str(&word.to_uppercase());
                }
                relaxed.push_str(RUNS[(k + 3) % RUNS.len()]);
                k += 1;
                assert_eq!(s.string_to_action(&relaxed).unwrap(), x, "{relaxed:?}");
                if t.contains(' ') {
                    seen_spaced[(s.current_player() != CHANCE) as usize] = true;
                }
            }
            s.apply_action(a).unwrap();
        }
    }
    assert_eq!(seen_spaced, [true, true]);
    // White space never joins or splits a word: these still do not parse.
    let s = g.new_initial_state();
    for bad in ["de al 1", "deal\u{0}1", "deal_1", "deal\t\t", ""] {
        assert!(s.string_to_action(bad).is_err(), "{bad:?}");
    }
}
