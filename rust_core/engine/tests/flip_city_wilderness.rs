//! Flip City: Wilderness and mixed supplies (docs/rules/flip_city_wilderness.md): parameters, the layouts,
//! invariants over many random games, and rules scenarios from positions written in the family-layout
//! serialization. Ids and fields are written from the contract's formulas, not from the engine's constants.

use meeplex_engine::playout::{random_action, Scratch};
use meeplex_engine::{AnyGame, AnyState, ParamValue, Params, Rng, State, CHANCE, TERMINAL};
use serde_json::{json, Value};

// W §2.1 face ids.
const RA: usize = 0;
const CS: usize = 2;
const FACTORY: usize = 10;
const TRAILER: usize = 12;
const RESORT: usize = 13;
const LOGGING: usize = 14;
const ARCH: usize = 15;
const MARKET: usize = 16;
const INTERCHANGE: usize = 17;
const WIND: usize = 18;
const AIRPORT: usize = 19;
const CAMP: usize = 20;
const RESERVOIR: usize = 21;
const F: usize = 22;

// W §5 action ids (F = 22).
const PLAY: u32 = 0;
const STOP: u32 = 1;
const END: u32 = 2;
const SHUFFLE: u32 = 3;
fn recycle(f: usize) -> u32 {
    14 + f as u32
}
fn buy(f: usize) -> u32 {
    14 + F as u32 + f as u32
}
fn develop(f: usize) -> u32 {
    14 + 2 * F as u32 + f as u32
}
fn flip(f: usize) -> u32 {
    14 + 3 * F as u32 + f as u32
}
fn target(t: usize) -> u32 {
    14 + 4 * F as u32 + t as u32
}
fn remove(f: usize) -> u32 {
    18 + 4 * F as u32 + f as u32
}
fn select(f: usize) -> u32 {
    18 + 5 * F as u32 + f as u32
}
const EXCAVATE: u32 = 150;

// ----- helpers ------------------------------------------------------------------------------------------

/// Parse a game string's parameter list: `"players=1,supply=cs+log"` (ints, bools, words).
fn params(text: &str) -> Params {
    let mut p = Params::new();
    for item in text.split(',').filter(|s| !s.is_empty()) {
        let (k, v) = item.split_once('=').expect("key=value");
        let value = match v {
            "true" => ParamValue::Bool(true),
            "false" => ParamValue::Bool(false),
            _ => match v.parse::<i64>() {
                Ok(i) => ParamValue::Int(i),
                Err(_) => ParamValue::Str(v.to_string()),
            },
        };
        p.insert(k.to_string(), value);
    }
    p
}

fn make(id: &str, text: &str) -> AnyGame {
    AnyGame::new(id, &params(text)).unwrap_or_else(|e| panic!("{id}({text}): {e}"))
}

fn refused(id: &str, text: &str) -> bool {
    AnyGame::new(id, &params(text)).is_err()
}

fn wild(text: &str) -> AnyGame {
    make("flip_city_wilderness", text)
}

fn json_of(state: &AnyState) -> Value {
    serde_json::from_str(&state.serialize(&[])).unwrap()
}

fn legal(state: &AnyState) -> Vec<u32> {
    let mut out = Vec::new();
    state.legal_actions(&mut out);
    out
}

fn counts(faces: &[usize]) -> Value {
    let mut c = vec![0u32; F];
    for &f in faces {
        c[f] += 1;
    }
    json!(c)
}

/// A position: the initial state of `game` with every deck emptied, then `edit` places what the scenario
/// needs; every card not placed goes to `removed` (a wilderness game has Farmer's Market cards, so removal
/// is possible in any player count, W 8), where it changes nothing. `played`, `store_played` and
/// `shuffled` are derived from the play area unless `edit` sets them (FC §7: outside the Building phase
/// `played` is the play area's card count, `store_played` whether a Convenience Store is there).
fn position(game: &AnyGame, edit: impl FnOnce(&mut Value)) -> AnyState {
    let initial = json_of(&game.new_initial_state());
    let mut totals = [0i64; F];
    let add = |totals: &mut [i64; F], v: &Value, sign: i64| {
        for (f, c) in v.as_array().unwrap().iter().enumerate() {
            totals[f & !1] += sign * c.as_i64().unwrap();
        }
    };
    for seat in initial["seats"].as_array().unwrap() {
        add(&mut totals, &seat["deck_unknown"], 1);
    }
    add(&mut totals, &initial["supply"], 1);
    let mut v = initial.clone();
    for seat in v["seats"].as_array_mut().unwrap() {
        seat["deck_unknown"] = counts(&[]);
    }
    for key in ["played", "store_played", "shuffled"] {
        v[key] = Value::Null;
    }
    edit(&mut v);
    let table: Vec<u64> = v["play_area"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .collect();
    if v["played"].is_null() {
        v["played"] = json!(table.iter().sum::<u64>());
    }
    if v["store_played"].is_null() {
        v["store_played"] = json!(table[CS] > 0);
    }
    if v["shuffled"].is_null() {
        v["shuffled"] = json!(false);
    }
    let mut seen = [0i64; F];
    for seat in v["seats"].as_array().unwrap() {
        for key in ["deck_unknown", "discard"] {
            add(&mut seen, &seat[key], 1);
        }
        for key in ["deck_known", "deck_bottom"] {
            for f in seat[key].as_array().unwrap() {
                seen[f.as_u64().unwrap() as usize & !1] += 1;
            }
        }
    }
    for key in ["supply", "removed", "play_area"] {
        add(&mut seen, &v[key], 1);
    }
    let mut removed: Vec<i64> = v["removed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_i64().unwrap())
        .collect();
    for f in (0..F).step_by(2) {
        let left = totals[f] - seen[f];
        assert!(left >= 0, "the scenario places too many cards of type {f}");
        removed[f] += left;
    }
    v["removed"] = json!(removed);
    let (state, _) = game
        .deserialize_state(&v.to_string())
        .unwrap_or_else(|e| panic!("position refused: {e}\n{v}"));
    state
}

fn apply(state: &mut AnyState, actions: &[u32]) {
    for &a in actions {
        state
            .apply_action(a)
            .unwrap_or_else(|e| panic!("{e}; legal: {:?}", legal(state)));
    }
}

/// Every id is legal or refused, and the state keeps the family invariants; used along random games.
fn check_state(game: &AnyGame, state: &AnyState, history: &[u32]) {
    let mut legal = Vec::new();
    state.legal_actions(&mut legal);
    assert!(legal.windows(2).all(|w| w[0] < w[1]));
    let limit = game.num_distinct_actions() as u32 + 3;
    for a in 0..limit {
        assert_eq!(state.is_legal(a), legal.binary_search(&a).is_ok(), "{a}");
    }
    for &a in &legal {
        let text = state.action_to_string(a).unwrap();
        assert_eq!(state.string_to_action(&text).unwrap(), a, "{text}");
    }
    let text = state.serialize(history);
    let (back, back_history) = game.deserialize_state(&text).expect("round trip");
    assert_eq!(&back, state);
    assert_eq!(back_history, history);
    let v: Value = serde_json::from_str(&text).unwrap();
    for seat in v["seats"].as_array().unwrap() {
        let unknown: u64 = seat["deck_unknown"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_u64().unwrap())
            .sum();
        if unknown == 0 {
            assert!(seat["deck_bottom"].as_array().unwrap().is_empty(), "W §3");
        }
    }
    let mut obs = vec![f32::NAN; game.observation_len()];
    for p in 0..game.num_players() {
        state.observation_tensor(p, &mut obs);
        assert!(obs.iter().all(|x| x.is_finite()));
    }
}

// ----- parameters and layouts ---------------------------------------------------------------------------

#[test]
fn parameters_normalise_as_the_contract_says() {
    let g = wild("");
    // W §1: the nineteen keys of the table (FC's nine, `stop_before_play` and `station_stack` among them,
    // and the ten extension keys, `dig` among them).
    assert_eq!(g.params().len(), 19);
    for (key, value) in [
        ("stop_before_play", ParamValue::Bool(false)),
        ("station_stack", ParamValue::Bool(true)),
        ("dig", ParamValue::Str("recycle".into())),
        ("trailer_cash", ParamValue::Int(0)),
        ("mall_recycle", ParamValue::Bool(false)),
        ("station_recycle", ParamValue::Bool(false)),
        ("reservoir_recycle", ParamValue::Str("both".into())),
    ] {
        assert_eq!(g.params()[key], value, "{key}");
    }
    assert_eq!(
        g.params()["supply"],
        ParamValue::Str("log+market+wind+camp".into())
    );
    assert_eq!(g.num_distinct_actions(), 151);
    assert_eq!(g.max_chance_outcomes(), 22);
    // W §6: (4F + 3) x players + 3F + 25, then the deck-order block: per seat C slots of one face code each and
    // the best, and `played`, `store_played`, `shuffled`; C = 9 x players + the supply (W §2.3).
    let c = 9 * 2 + (12 + 12 + 8 + 8);
    assert_eq!(g.observation_shape(), vec![91 * 2 + 91 + 2 * (c + 1) + 3]);

    // flip_city keeps its seven keys whenever the extension keys are at their defaults.
    let base = make("flip_city", "");
    for text in [
        "colours=cost",
        "supply=hosp+cs+fac+park",
        "supply=CS+Park+HOSP+fac",
    ] {
        assert_eq!(make("flip_city", text).params(), base.params(), "{text}");
    }
    assert_eq!(
        make("flip_city", "supply=cs+park+hosp+fac+off").params(),
        make("flip_city", "office=true").params()
    );
    let mixed = make("flip_city", "supply=cs+park+market+wind+camp");
    assert_eq!(mixed.params().len(), 8);
    assert_eq!(
        mixed.params()["supply"],
        ParamValue::Str("cs+park+market+wind+camp".into())
    );
    assert_eq!(mixed.num_distinct_actions(), 151);
    let g = wild("supply=off+log+hosp+fac+park");
    assert_eq!(
        g.params()["supply"],
        ParamValue::Str("park+hosp+off+fac+log".into())
    );
    assert_eq!(g.params()["office"], ParamValue::Bool(true));
    // Normalising normalised parameters changes nothing.
    for game in [&base, &mixed, &g, &wild("players=1,colours=size")] {
        let again = AnyGame::new(game.id(), game.params()).unwrap();
        assert_eq!(again.params(), game.params());
    }
    // An extension key away from its default shows in flip_city's params, and keeps the base layout
    // (the default `trailer_cash` is now 0, the printed card, W 2: so 1 is the key away from it).
    let b = make("flip_city", "trailer_cash=1,colours=size");
    assert_eq!(b.params().len(), 9);
    assert_eq!(b.num_distinct_actions(), 78);
    // The two new FC keys show only when they differ from their defaults (FC §1), and keep the base layout.
    assert_eq!(
        make(
            "flip_city",
            "stop_before_play=false,station_stack=true,dig=recycle"
        )
        .params(),
        base.params()
    );
    let h = make("flip_city", "stop_before_play=true,station_stack=false");
    assert_eq!(h.params().len(), 9);
    assert_eq!(h.params()["stop_before_play"], ParamValue::Bool(true));
    assert_eq!(h.params()["station_stack"], ParamValue::Bool(false));
    assert_eq!(h.num_distinct_actions(), 78);
}

#[test]
fn bad_parameters_are_refused() {
    for (id, text) in [
        ("flip_city", "supply=cs+log+hosp+fac"), // cost-2 twice
        ("flip_city_wilderness", "office=true"), // Office and Farmer's Market
        ("flip_city_wilderness", "supply=log+market+wind+camp+cs"),
        ("flip_city", "supply=cs+hosp+market,colours=size"),
        ("flip_city", "supply=cs++hosp"),
        ("flip_city", "supply=cs+hosp+"),
        ("flip_city", "supply=cs+cs"),
        ("flip_city", "supply=cs+CS"),
        ("flip_city", "supply=mall"),
        ("flip_city", "supply=5"),
        ("flip_city", "supply=true"),
        ("flip_city", "colours=red"),
        ("flip_city", "colours=1"),
        ("flip_city_wilderness", "logging_text=garbled"),
        ("flip_city_wilderness", "reservoir_recycle=none"),
        ("flip_city_wilderness", "trailer_cash=2"),
        ("flip_city_wilderness", "trailer_cash=true"),
        ("flip_city_wilderness", "airport_points=4"),
        ("flip_city_wilderness", "reservoir_points=-1"),
        ("flip_city_wilderness", "interchange_cash=2"),
        ("flip_city_wilderness", "resort_unhappiness=2"),
        ("flip_city_wilderness", "colour=cost"),
    ] {
        assert!(refused(id, text), "{id}({text}) accepted");
    }
    let mut p = Params::new();
    p.insert("supply".into(), ParamValue::Str(String::new()));
    assert!(AnyGame::new("flip_city", &p).is_err());
    // Every table accepts both default supplies; `none` lifts the rule.
    for colours in ["cost", "size", "none"] {
        make("flip_city", &format!("colours={colours}"));
        wild(&format!("colours={colours}"));
    }
    let all = "supply=cs+park+hosp+off+fac+log+market+wind+camp,colours=none";
    make("flip_city", all);
    wild(all);
    assert!(refused(
        "flip_city",
        "supply=cs+park+hosp+off+fac+log+market+wind+camp"
    ));
}

#[test]
fn base_layout_is_unchanged() {
    let g = make("flip_city", "");
    assert_eq!(g.num_distinct_actions(), 78);
    assert_eq!(g.max_chance_outcomes(), 12);
    // FC §6: 37 x players + 42, then the deck-order block (per seat C slots of face codes and the best) and
    // `played`, `store_played`, `shuffled`; C = 9 x players + the supply (FC §5).
    let c = 9 * 2 + (12 + 12 + 8 + 8);
    assert_eq!(g.observation_shape(), vec![37 * 2 + 42 + 2 * (c + 1) + 3]);
    let v = json_of(&g.new_initial_state());
    // FC §7, version 2: the 22 keys of version 1 and `played`, `store_played`, `shuffled`.
    assert_eq!(v.as_object().unwrap().len(), 25);
    assert_eq!(v["version"], 2);
    assert_eq!(
        (
            &v["played"],
            &v["store_played"],
            &v["shuffled"],
            &v["discount"]
        ),
        (&json!(0), &json!(false), &json!(false), &json!(0))
    );
    assert_eq!(v["seats"][0].as_object().unwrap().len(), 4);
    assert_eq!(v["params"].as_object().unwrap().len(), 7);
    assert_eq!(v["supply"], json!([0, 0, 12, 0, 8, 0, 12, 0, 0, 0, 8, 0]));
    let s = g.new_initial_state();
    assert!(s.string_to_action("excavate").is_err());
    assert!(s.string_to_action("buy logging site").is_err());
}

// ----- random games -------------------------------------------------------------------------------------

const VARIANTS: [(&str, &str); 15] = [
    ("flip_city_wilderness", ""),
    ("flip_city_wilderness", "players=1"),
    ("flip_city_wilderness", "players=3,max_turns=15"),
    ("flip_city_wilderness", "players=4,max_turns=10"),
    ("flip_city_wilderness", "logging_text=printed,reservoir_recycle=limit"),
    ("flip_city_wilderness", "players=1,logging_text=printed,reservoir_recycle=cash"),
    (
        "flip_city_wilderness",
        "trailer_cash=1,resort_unhappiness=1,interchange_cash=0,airport_points=3,reservoir_points=3",
    ),
    ("flip_city_wilderness", "supply=cs+park+hosp+fac,max_turns=30"),
    ("flip_city", "supply=cs+park+market+wind+camp"),
    ("flip_city", "supply=log+park+off+fac,players=3,max_turns=20"),
    ("flip_city", "supply=cs+park+hosp+off+fac+log+market+wind+camp,colours=none,players=4,max_turns=10"),
    (
        "flip_city_wilderness",
        "supply=cs+park+hosp+off+fac+log+market+wind+camp,colours=none,players=1",
    ),
    ("flip_city", "supply=park+hosp+off+fac+log,colours=cost,players=1"),
    ("flip_city", "supply=cs+hosp+wind+camp,colours=size,apartment_unhappiness=0"),
    // The house and former readings away from the defaults (FC interp. 5, 14, 20; W 7).
    (
        "flip_city",
        "supply=park+hosp+off+fac+log,dig=played,stop_before_play=true,station_stack=false,mall_recycle=true,station_recycle=true,players=3,max_turns=20",
    ),
];

#[test]
fn random_games_keep_the_invariants() {
    for (id, text) in VARIANTS {
        let game = make(id, text);
        for seed in 0..6u64 {
            let mut state = game.new_initial_state();
            let mut history = Vec::new();
            let mut rng = Rng::new(seed);
            let mut scratch = Scratch::default();
            while let Some(action) = random_action(&state, &mut rng, &mut scratch) {
                check_state(&game, &state, &history);
                if state.current_player() == CHANCE {
                    let mut w = Vec::new();
                    state.chance_weights(&mut w);
                    assert!(w.iter().all(|&(_, w)| w > 0));
                }
                state.apply_action(action).expect("legal");
                history.push(action);
                assert!(history.len() as u64 <= game.max_game_length());
            }
            assert_eq!(state.current_player(), TERMINAL);
            let mut r = vec![0.0; game.num_players()];
            state.returns(&mut r);
            let sum: f64 = r.iter().sum();
            assert!(sum == 0.0 || (sum - 1.0).abs() < 1e-12);
        }
    }
}

/// Random games reach the Wilderness rules: a tally over many default games, so that a rule that never
/// fires (an illegal-by-mistake action) shows up here.
#[test]
fn random_games_reach_every_wilderness_action() {
    let mut seen = std::collections::BTreeSet::new();
    for (id, text) in VARIANTS {
        let game = make(id, text);
        for seed in 0..40u64 {
            let mut state = game.new_initial_state();
            let mut rng = Rng::new(seed);
            let mut scratch = Scratch::default();
            while let Some(a) = random_action(&state, &mut rng, &mut scratch) {
                if state.current_player() >= 0 && game.num_distinct_actions() == 151 {
                    let text = state.action_to_string(a).unwrap();
                    seen.insert(
                        text.split(' ').next().unwrap().to_string()
                            + " "
                            + &{
                                let rest: Vec<&str> = text.split(' ').skip(1).collect();
                                rest.join(" ")
                            },
                    );
                }
                state.apply_unchecked(a);
            }
        }
    }
    for wanted in [
        "recycle Archaeology Site",
        "recycle Logging Site",
        "recycle Interchange",
        "recycle Airport",
        "recycle Water Reservoir",
        "flip Country Resort",
        "target 1",
        "select Trailer Park",
        "buy Camping Grounds",
        "develop Wind Farm",
    ] {
        assert!(
            seen.contains(wanted),
            "never played: {wanted} (played: {seen:?})"
        );
    }
}

// ----- rules scenarios ----------------------------------------------------------------------------------

#[test]
fn a_wind_farm_provides_two_cash() {
    let game = wild("");
    let mut s = position(&game, |v| {
        v["seats"][0]["deck_known"] = json!([WIND]);
    });
    apply(&mut s, &[PLAY]);
    assert_eq!(json_of(&s)["cash"], 2);
}

#[test]
fn a_trailer_park_on_top_must_be_played_but_recycling_comes_first() {
    let game = wild("");
    let mut s = position(&game, |v| {
        v["seats"][0]["deck_known"] = json!([TRAILER]);
        v["seats"][0]["deck_unknown"] = counts(&[LOGGING]);
        v["seats"][0]["discard"] = counts(&[RESERVOIR]);
        v["play_area"] = counts(&[TRAILER, TRAILER]);
        v["unhappiness"] = json!(2);
        v["cash"] = json!(0); // two Trailer Parks played: no cash as printed (W 2, `trailer_cash = 0`)
    });
    assert_eq!(legal(&s), vec![PLAY, recycle(RESERVOIR)]);
    // At the limit: playing it goes over, and the turn ends at once (A.3).
    let mut over = s.clone();
    apply(&mut over, &[PLAY]);
    let v = json_of(&over);
    assert_eq!(v["current"], 1);
    assert_eq!(v["seats"][0]["discard"][TRAILER], 3);
    // The Water Reservoir recycled first raises the limit (A.3 note; W 13 default `both`: the limit and
    // 3 flip-only cash).
    apply(&mut s, &[recycle(RESERVOIR), PLAY]);
    let v = json_of(&s);
    assert_eq!(v["current"], 0);
    assert_eq!(v["unhappiness"], 3);
    assert_eq!(v["limit_bonus"], 1);
    assert_eq!(v["flip_cash"], 3);
    assert_eq!(v["cash"], 0);
    assert_eq!(v["seats"][0]["discard"][CAMP], 1);
}

#[test]
fn water_reservoir_cash_pays_flip_and_develop_but_not_buy() {
    let game = wild("reservoir_recycle=cash");
    let mut s = position(&game, |v| {
        v["seats"][0]["discard"] = counts(&[RESERVOIR, LOGGING]);
    });
    apply(&mut s, &[recycle(RESERVOIR)]);
    let v = json_of(&s);
    assert_eq!(
        (v["flip_cash"].clone(), v["limit_bonus"].clone()),
        (json!(3), json!(0))
    );
    apply(&mut s, &[STOP]);
    let l = legal(&s);
    assert!(l.contains(&flip(LOGGING)));
    assert!(!l.contains(&buy(LOGGING)));
    assert!(!l.contains(&develop(LOGGING))); // 2 + 2 > 3
    apply(&mut s, &[flip(LOGGING)]);
    let v = json_of(&s);
    assert_eq!(
        (v["flip_cash"].clone(), v["cash"].clone()),
        (json!(1), json!(0))
    );
    assert_eq!(v["seats"][0]["discard"][ARCH], 1);
    // `both`: the limit and the cash.
    let game = wild("reservoir_recycle=both");
    let mut s = position(&game, |v| {
        v["seats"][0]["discard"] = counts(&[RESERVOIR]);
        v["cash"] = json!(1);
    });
    apply(&mut s, &[recycle(RESERVOIR), STOP]);
    assert!(legal(&s).contains(&develop(LOGGING))); // 2 + 2 <= 1 + 3
    apply(&mut s, &[develop(LOGGING)]);
    let v = json_of(&s);
    assert_eq!(
        (v["flip_cash"].clone(), v["cash"].clone()),
        (json!(0), json!(0))
    );
}

#[test]
fn interchanges_stay_behind_at_a_shuffle() {
    let game = wild("");
    let s = position(&game, |v| {
        v["seats"][0]["discard"] = counts(&[INTERCHANGE, INTERCHANGE]);
    });
    // Only Interchanges would move: no shuffle (W 9); they can be recycled for 1 cash.
    assert_eq!(legal(&s), vec![STOP, recycle(INTERCHANGE)]);
    let mut r = s.clone();
    apply(&mut r, &[recycle(INTERCHANGE)]);
    let v = json_of(&r);
    assert_eq!(v["cash"], 1);
    assert_eq!(v["seats"][0]["discard"][MARKET], 1);
    assert!(legal(&r).contains(&SHUFFLE));
    apply(&mut r, &[SHUFFLE]);
    let v = json_of(&r);
    assert_eq!(v["seats"][0]["discard"], counts(&[INTERCHANGE]));
    assert_eq!(v["seats"][0]["deck_unknown"], counts(&[MARKET]));
    assert_eq!(r.current_player(), CHANCE);
}

#[test]
fn archaeology_site_goes_to_the_bottom_and_the_factory_takes_it() {
    let game = make("flip_city", "supply=park+fac+log+market");
    let mut s = position(&game, |v| {
        v["seats"][0]["deck_known"] = json!([FACTORY]);
        v["seats"][0]["deck_unknown"] = counts(&[RA, RA]);
        v["seats"][0]["discard"] = counts(&[ARCH]);
        v["supply"][LOGGING] = json!(11);
    });
    apply(&mut s, &[recycle(ARCH)]);
    let v = json_of(&s);
    assert_eq!(v["seats"][0]["deck_bottom"], json!([LOGGING]));
    assert_eq!(v["seats"][0]["discard"], counts(&[]));
    // The Factory's bottom card is known: it goes without a "bottom" chance node (W 6); the chance node
    // that follows reveals the new top card.
    apply(&mut s, &[PLAY]);
    let v = json_of(&s);
    assert_eq!(v["pending"], "none");
    assert_eq!(v["seats"][0]["discard"], counts(&[LOGGING]));
    assert_eq!(v["seats"][0]["deck_bottom"], json!([]));
    assert_eq!(
        s.action_to_string(RA as u32).unwrap(),
        "reveal Residential Area"
    );
}

#[test]
fn a_card_put_at_the_bottom_of_an_empty_deck_is_the_whole_deck() {
    let game = wild("");
    let mut s = position(&game, |v| {
        v["seats"][0]["discard"] = counts(&[ARCH]);
    });
    apply(&mut s, &[recycle(ARCH)]);
    let v = json_of(&s);
    assert_eq!(v["seats"][0]["deck_known"], json!([LOGGING]));
    assert!(legal(&s).contains(&PLAY));
}

#[test]
fn the_bottom_part_joins_the_known_part_when_the_unknown_cards_are_gone() {
    let game = wild("");
    let mut s = position(&game, |v| {
        v["seats"][0]["deck_unknown"] = counts(&[WIND]);
        v["seats"][0]["deck_bottom"] = json!([CAMP, LOGGING]);
    });
    assert_eq!(s.current_player(), CHANCE);
    apply(&mut s, &[WIND as u32]);
    let v = json_of(&s);
    assert_eq!(v["seats"][0]["deck_known"], json!([WIND, CAMP, LOGGING]));
    assert_eq!(v["seats"][0]["deck_bottom"], json!([]));
    // Observation: the bottom counts of seat 0 (W §6: after deck, top, discard).
    let mut s = position(&game, |v| {
        v["seats"][0]["deck_unknown"] = counts(&[WIND, WIND]);
        v["seats"][0]["deck_known"] = json!([TRAILER]);
        v["seats"][0]["deck_bottom"] = json!([CAMP]);
        v["seats"][1]["limit_next"] = json!(2);
    });
    let mut obs = vec![0.0; game.observation_len()];
    s.observation_tensor(0, &mut obs);
    assert_eq!(obs[CAMP], 1.0);
    assert_eq!(obs[WIND], 2.0);
    assert_eq!(obs[F + TRAILER], 1.0);
    assert_eq!(obs[3 * F + CAMP], 1.0);
    assert_eq!(obs[4 * F], 0.0);
    assert_eq!(obs[(4 * F + 1) + 4 * F], 2.0);
    s.observation_tensor(1, &mut obs);
    assert_eq!(obs[4 * F], 2.0);
    apply(&mut s, &[PLAY]);
}

#[test]
fn logging_site_as_printed() {
    let game = wild("logging_text=printed");
    let mut s = position(&game, |v| {
        v["seats"][0]["deck_unknown"] = counts(&[WIND]);
        v["seats"][0]["deck_known"] = json!([TRAILER]);
        v["seats"][0]["discard"] = counts(&[LOGGING, ARCH]);
        v["cash"] = json!(19);
    });
    // The Logging Site recycles to the bottom as an Archaeology Site; the Archaeology Site has no Play Cards
    // phase recycle (W 7, W §4.2: its "Pay 20 cash to gain 3 points" is a Building-phase recycle).
    assert_eq!(legal(&s), vec![PLAY, recycle(LOGGING)]);
    apply(&mut s, &[recycle(LOGGING)]);
    assert_eq!(json_of(&s)["seats"][0]["deck_bottom"], json!([ARCH]));
    let mut s = position(&game, |v| {
        v["seats"][0]["discard"] = counts(&[ARCH]);
        v["cash"] = json!(21);
    });
    assert!(!legal(&s).contains(&recycle(ARCH))); // not during Play Cards, even with 20 cash
    apply(&mut s, &[STOP, recycle(ARCH)]);
    let v = json_of(&s);
    assert_eq!(
        (v["cash"].clone(), v["points"].clone()),
        (json!(1), json!(3))
    );
    assert_eq!(v["seats"][0]["discard"], counts(&[LOGGING]));
    assert_eq!(v["main"], true); // not the Building action (W 7)
                                 // The Archaeology Site needs 20 cash.
    let mut s = position(&game, |v| {
        v["seats"][0]["discard"] = counts(&[ARCH]);
        v["cash"] = json!(19);
    });
    apply(&mut s, &[STOP]);
    assert!(!legal(&s).contains(&recycle(ARCH)));
    // No fee on the Logging Site, fee 2 on the Archaeology Site; no excavate.
    let mut s = position(&game, |v| {
        v["seats"][0]["discard"] = counts(&[LOGGING, ARCH]);
        v["play_area"] = counts(&[ARCH]);
        v["supply"][LOGGING] = json!(5);
        v["cash"] = json!(30);
    });
    apply(&mut s, &[STOP]);
    let l = legal(&s);
    assert!(l.contains(&flip(ARCH)) && !l.contains(&flip(LOGGING)));
    assert!(!l.contains(&develop(LOGGING)) && !l.contains(&EXCAVATE));
    assert!(l.contains(&recycle(ARCH))); // the discard pile's site, 30 cash (W 7)
}

/// W 7, `dig = played` (the former reading, now named): once per Archaeology Site played, `excavate`.
#[test]
fn archaeology_site_twenty_cash_for_three_points_wins() {
    let game = wild("dig=played");
    let mut s = position(&game, |v| {
        v["play_area"] = counts(&[ARCH, AIRPORT, AIRPORT, TRAILER]);
        v["cash"] = json!(24);
        v["points"] = json!(4);
        v["unhappiness"] = json!(1);
    });
    apply(&mut s, &[STOP]);
    assert_eq!(json_of(&s)["digs"], 1);
    // After the Building action too (W 7): the dig is not the action.
    apply(&mut s, &[buy(LOGGING)]);
    assert!(legal(&s).contains(&EXCAVATE));
    apply(&mut s, &[EXCAVATE]);
    let v = json_of(&s);
    assert_eq!(
        (v["cash"].clone(), v["points"].clone(), v["digs"].clone()),
        (json!(2), json!(7), json!(0))
    );
    assert!(!legal(&s).contains(&EXCAVATE));
    apply(&mut s, &[END]);
    assert!(!s.is_terminal()); // 7 points do not win
    let mut s = position(&game, |v| {
        v["play_area"] = counts(&[ARCH, ARCH, AIRPORT]);
        v["cash"] = json!(40);
        v["points"] = json!(2);
    });
    apply(&mut s, &[STOP, EXCAVATE, EXCAVATE, END]);
    assert!(s.is_terminal());
    let mut r = [0.0; 2];
    s.returns(&mut r);
    assert_eq!(r, [1.0, 0.0]);
}

/// W 7, `dig = recycle` (default): "Recycle Ability: Pay 20 cash to gain 3 points" is a Building-phase
/// recycle of an Archaeology Site in the discard pile, once per site there, not the Building action.
#[test]
fn archaeology_site_twenty_cash_for_three_points_is_a_building_phase_recycle() {
    let game = wild("");
    let mut s = position(&game, |v| {
        v["seats"][0]["discard"] = counts(&[ARCH]);
        v["play_area"] = counts(&[AIRPORT, AIRPORT, TRAILER]);
        v["cash"] = json!(24);
        v["points"] = json!(4);
        v["unhappiness"] = json!(1);
    });
    // During Play Cards the site's recycle is the other one (`logging_text = proposed`, W 5): to the bottom
    // of the deck, no cash paid, no points.
    let mut early = s.clone();
    apply(&mut early, &[recycle(ARCH)]);
    let v = json_of(&early);
    assert_eq!((&v["cash"], &v["points"]), (&json!(24), &json!(4)));
    assert_eq!(v["seats"][0]["deck_known"], json!([LOGGING]));
    apply(&mut s, &[STOP]);
    assert_eq!(json_of(&s)["digs"], 0);
    assert!(legal(&s).contains(&recycle(ARCH)) && !legal(&s).contains(&EXCAVATE));
    // After the Building action too: the recycle is not the action.
    apply(&mut s, &[buy(LOGGING), recycle(ARCH)]);
    let v = json_of(&s);
    assert_eq!(
        (v["cash"].clone(), v["points"].clone()),
        (json!(2), json!(7))
    );
    assert_eq!(v["seats"][0]["discard"], counts(&[LOGGING, LOGGING]));
    assert!(!legal(&s).contains(&recycle(ARCH)));
    apply(&mut s, &[END]);
    assert!(!s.is_terminal()); // 7 points do not win
                               // Two sites in the discard pile: two recycles, and 8 points win.
    let mut s = position(&game, |v| {
        v["seats"][0]["discard"] = counts(&[ARCH, ARCH]);
        v["play_area"] = counts(&[AIRPORT]);
        v["cash"] = json!(40);
        v["points"] = json!(2);
    });
    apply(&mut s, &[STOP, recycle(ARCH), recycle(ARCH), END]);
    assert!(s.is_terminal());
    let mut r = [0.0; 2];
    s.returns(&mut r);
    assert_eq!(r, [1.0, 0.0]);
    // A played site gives nothing under this reading.
    let mut s = position(&game, |v| {
        v["play_area"] = counts(&[ARCH]);
        v["cash"] = json!(25);
    });
    apply(&mut s, &[STOP]);
    let l = legal(&s);
    assert!(!l.contains(&recycle(ARCH)) && !l.contains(&EXCAVATE));
}

#[test]
fn eighteen_cards_win_only_with_a_convenience_store() {
    let mut many = vec![TRAILER; 8];
    many.extend([MARKET; 6]);
    many.extend([WIND; 4]);
    let game = wild("");
    let mut s = position(&game, |v| {
        v["play_area"] = counts(&many);
        v["supply"] = counts(&[]);
    });
    apply(&mut s, &[STOP, END]);
    assert!(!s.is_terminal());
    let game = wild("supply=cs+park+market+wind+camp");
    let mut with_cs = many.to_vec();
    with_cs[2] = CS;
    let mut s = position(&game, |v| {
        v["play_area"] = counts(&with_cs);
        v["supply"] = counts(&[]);
    });
    apply(&mut s, &[STOP, END]);
    assert!(s.is_terminal());
}

#[test]
fn farmers_market_removes_a_played_card() {
    let game = wild("");
    let mut s = position(&game, |v| {
        v["play_area"] = counts(&[WIND, TRAILER]);
        v["cash"] = json!(3);
    });
    apply(&mut s, &[STOP, buy(MARKET)]);
    assert_eq!(legal(&s), vec![select(TRAILER), select(WIND)]);
    apply(&mut s, &[select(TRAILER)]);
    let v = json_of(&s);
    assert_eq!(v["play_area"], counts(&[WIND]));
    assert_eq!(v["pending"], "none");
    apply(&mut s, &[END]);
    let v = json_of(&s);
    assert_eq!(v["seats"][0]["discard"], counts(&[WIND, MARKET]));
    // Nothing played: no removal.
    let mut s = position(&game, |v| v["cash"] = json!(7));
    apply(&mut s, &[STOP, develop(MARKET)]);
    assert_eq!(json_of(&s)["pending"], "none");
    assert_eq!(json_of(&s)["seats"][0]["discard"], counts(&[INTERCHANGE]));
}

#[test]
fn wind_farm_gives_an_extra_flip() {
    let game = wild("");
    let mut s = position(&game, |v| v["cash"] = json!(11));
    apply(&mut s, &[STOP, buy(WIND)]);
    let v = json_of(&s);
    assert_eq!(
        (v["extra_flips"].clone(), v["main"].clone()),
        (json!(1), json!(false))
    );
    assert_eq!(legal(&s), vec![END, flip(WIND)]);
    apply(&mut s, &[flip(WIND)]);
    assert_eq!(json_of(&s)["seats"][0]["discard"], counts(&[AIRPORT]));
}

#[test]
fn airport_shuffles_a_card_into_any_seats_deck() {
    let game = wild("");
    let mut s = position(&game, |v| {
        v["seats"][0]["discard"] = counts(&[AIRPORT]);
        v["seats"][0]["deck_known"] = json!([WIND]);
        v["seats"][1]["discard"] = counts(&[CAMP, INTERCHANGE]);
        v["seats"][1]["deck_known"] = json!([CAMP]);
        v["seats"][1]["deck_unknown"] = counts(&[LOGGING]);
        v["seats"][1]["deck_bottom"] = json!([TRAILER]);
    });
    apply(&mut s, &[recycle(AIRPORT)]);
    assert_eq!(legal(&s), vec![target(0), target(1)]);
    apply(&mut s, &[target(1)]);
    assert_eq!(json_of(&s)["chosen"], 1);
    assert_eq!(legal(&s), vec![select(INTERCHANGE), select(CAMP)]);
    let mut s2 = s.clone();
    apply(&mut s2, &[select(INTERCHANGE)]);
    let v = json_of(&s2);
    assert_eq!(v["chosen"], -1);
    assert_eq!(v["seats"][1]["deck_known"], json!([]));
    assert_eq!(v["seats"][1]["deck_bottom"], json!([]));
    assert_eq!(
        v["seats"][1]["deck_unknown"],
        counts(&[CAMP, LOGGING, TRAILER, INTERCHANGE])
    );
    assert_eq!(v["seats"][1]["discard"], counts(&[CAMP]));
    assert_eq!(s2.current_player(), CHANCE);
    let mut w = Vec::new();
    s2.chance_weights(&mut w);
    assert_eq!(w.iter().map(|&(_, w)| w).sum::<u64>(), 4);
}

#[test]
fn camping_grounds_raise_the_limit_next_turn() {
    let game = wild("");
    let mut s = position(&game, |v| v["cash"] = json!(8));
    apply(&mut s, &[STOP, buy(CAMP), END]);
    let v = json_of(&s);
    assert_eq!(v["seats"][0]["limit_next"], 1);
    assert_eq!(v["limit_bonus"], 0);
    apply(&mut s, &[STOP, END]);
    let v = json_of(&s);
    assert_eq!(v["current"], 0);
    assert_eq!(v["limit_bonus"], 1);
    assert_eq!(v["seats"][0]["limit_next"], 0);
}

#[test]
fn country_resort_goes_into_an_opponents_deck() {
    let game = wild("players=3");
    let mut s = position(&game, |v| {
        v["seats"][0]["discard"] = counts(&[RESORT]);
        v["seats"][2]["deck_known"] = json!([WIND]);
        v["seats"][2]["deck_unknown"] = counts(&[CAMP]);
        v["seats"][2]["deck_bottom"] = json!([LOGGING]);
        v["cash"] = json!(9);
    });
    apply(&mut s, &[STOP, flip(RESORT)]);
    assert_eq!(json_of(&s)["pending"], "give_resort");
    assert_eq!(legal(&s), vec![target(1), target(2)]);
    apply(&mut s, &[target(2)]);
    let v = json_of(&s);
    assert_eq!(
        v["seats"][2]["deck_unknown"],
        counts(&[WIND, CAMP, LOGGING, TRAILER])
    );
    assert_eq!(v["seats"][2]["deck_known"], json!([]));
    assert_eq!(v["seats"][0]["discard"], counts(&[]));
    assert_eq!(s.current_player(), CHANCE);
    // Solo: removed from the game (Solo 4).
    let game = wild("players=1");
    let mut s = position(&game, |v| {
        v["seats"][0]["discard"] = counts(&[RESORT]);
        v["cash"] = json!(9);
    });
    let before = json_of(&s)["removed"][RESORT].as_u64().unwrap();
    apply(&mut s, &[STOP, flip(RESORT)]);
    assert_eq!(json_of(&s)["removed"][RESORT].as_u64().unwrap(), before + 1);
}

#[test]
fn solo_removes_a_card_after_an_airport() {
    let game = wild("players=1");
    let mut s = position(&game, |v| {
        v["seats"][0]["discard"] = counts(&[AIRPORT]);
        v["seats"][0]["deck_known"] = json!([WIND]);
        v["supply"][WIND] = json!(2);
    });
    apply(&mut s, &[recycle(AIRPORT), target(0), select(WIND)]);
    assert_eq!(json_of(&s)["pending"], "remove");
    assert_eq!(s.current_player(), CHANCE);
    apply(&mut s, &[WIND as u32]);
    assert_eq!(
        legal(&s),
        vec![remove(LOGGING), remove(MARKET), remove(WIND), remove(CAMP)]
    );
    // The loss when the supply runs out.
    let mut s = position(&game, |v| {
        v["supply"] = counts(&[LOGGING]);
        v["seats"][0]["discard"] = counts(&[WIND]);
    });
    assert_eq!(legal(&s), vec![STOP, SHUFFLE]);
    apply(&mut s, &[SHUFFLE, WIND as u32, remove(LOGGING)]);
    assert!(s.is_terminal());
    // A purchase emptying the supply loses before its on-buy effect (W 22).
    let mut s = position(&game, |v| {
        v["supply"] = counts(&[CAMP]);
        v["cash"] = json!(9);
        v["points"] = json!(9);
    });
    apply(&mut s, &[STOP, buy(CAMP)]);
    assert!(s.is_terminal());
    let v = json_of(&s);
    assert_eq!(v["winner"], -1);
    assert_eq!(v["seats"][0]["limit_next"], 0);
}

#[test]
fn inconsistent_family_states_are_refused() {
    let game = wild("");
    let good = json_of(&position(&game, |v| {
        v["seats"][0]["deck_known"] = json!([WIND]);
        v["seats"][0]["deck_unknown"] = counts(&[CAMP]);
        v["seats"][0]["deck_bottom"] = json!([LOGGING]);
        v["seats"][1]["discard"] = counts(&[CAMP]);
    }));
    assert!(game.deserialize_state(&good.to_string()).is_ok());
    type Edit = Box<dyn Fn(&mut Value)>;
    let edits: Vec<(&str, Edit)> = vec![
        (
            "bottom without unknown",
            Box::new(|v| {
                v["seats"][0]["deck_unknown"] = counts(&[]);
                v["seats"][0]["deck_known"] = json!([WIND, CAMP]);
            }),
        ),
        (
            "chosen without airport_card",
            Box::new(|v| v["chosen"] = json!(1)),
        ),
        (
            "airport_card without chosen",
            Box::new(|v| v["pending"] = json!("airport_card")),
        ),
        (
            "chosen out of range",
            Box::new(|v| {
                v["pending"] = json!("airport_card");
                v["chosen"] = json!(2);
            }),
        ),
        (
            "airport_card at an empty discard",
            Box::new(|v| {
                v["pending"] = json!("airport_card");
                v["chosen"] = json!(0);
            }),
        ),
        (
            "market in play",
            Box::new(|v| v["pending"] = json!("market")),
        ),
        (
            "give_resort in play",
            Box::new(|v| v["pending"] = json!("give_resort")),
        ),
        ("digs in play", Box::new(|v| v["digs"] = json!(1))),
        (
            "flip_cash too big",
            Box::new(|v| v["flip_cash"] = json!(10001)),
        ),
        (
            "limit_next bool",
            Box::new(|v| v["seats"][0]["limit_next"] = json!(true)),
        ),
        (
            "deck_bottom face out of range",
            Box::new(|v| v["seats"][0]["deck_bottom"] = json!([22])),
        ),
        (
            "deck_bottom not a list",
            Box::new(|v| v["seats"][0]["deck_bottom"] = json!(3)),
        ),
        (
            "missing key",
            Box::new(|v| {
                v.as_object_mut().unwrap().remove("digs");
            }),
        ),
        ("history id 151", Box::new(|v| v["history"] = json!([151]))),
        (
            "a Factory's chance node above a known bottom",
            Box::new(|v| v["pending"] = json!("bottom")),
        ),
        (
            "supply on a face that is no pile",
            Box::new(|v| {
                v["supply"][CS] = json!(1);
            }),
        ),
        ("a game id", Box::new(|v| v["game"] = json!("flip_city"))),
        // FC §7, version 2.
        ("version 1", Box::new(|v| v["version"] = json!(1))),
        (
            "discount a bool",
            Box::new(|v| v["discount"] = json!(false)),
        ),
        (
            "played with nothing on the table",
            Box::new(|v| v["played"] = json!(1)),
        ),
        ("played a bool", Box::new(|v| v["played"] = json!(false))),
        (
            "store_played with no Convenience Store",
            Box::new(|v| v["store_played"] = json!(true)),
        ),
        ("shuffled an int", Box::new(|v| v["shuffled"] = json!(0))),
        (
            "missing key played",
            Box::new(|v| {
                v.as_object_mut().unwrap().remove("played");
            }),
        ),
    ];
    for (what, edit) in edits {
        let mut v = good.clone();
        edit(&mut v);
        assert!(
            game.deserialize_state(&v.to_string()).is_err(),
            "{what} accepted"
        );
    }
    let mut v = good.clone();
    v["pending"] = json!("airport_card");
    v["chosen"] = json!(1);
    assert!(game.deserialize_state(&v.to_string()).is_ok());
    let mut v = good.clone();
    v["pending"] = json!("bottom");
    v["seats"][0]["deck_bottom"] = json!([]);
    v["removed"][LOGGING] = json!(v["removed"][LOGGING].as_u64().unwrap() + 1);
    assert!(game.deserialize_state(&v.to_string()).is_ok());
    // Removal outside solo needs Farmer's Market cards.
    let game = make("flip_city", "supply=cs+park+hosp+wind");
    let mut v = json_of(&game.new_initial_state());
    v["supply"][CS] = json!(11);
    v["removed"][CS] = json!(1);
    assert!(game.deserialize_state(&v.to_string()).is_err());
}
