//! Carcassonne scenarios (docs/rules/carcassonne.md) and random games.

use meeplex_engine::games::carcassonne::{CarcassonneGame, CarcassonneState, Phase};
mod common;

use common::{act, draw};
use meeplex_engine::playout::{random_action, Scratch};
use meeplex_engine::{Game, ParamValue, Params, Rng, State};

fn game(players: i64, river: bool, strategic: bool, tiles: &str) -> CarcassonneGame {
    let mut p = Params::new();
    p.insert("players".into(), ParamValue::Int(players));
    p.insert("river".into(), ParamValue::Bool(river));
    p.insert("strategic".into(), ParamValue::Bool(strategic));
    p.insert("tiles".into(), ParamValue::Str(tiles.into()));
    CarcassonneGame::new(&p).unwrap()
}

fn scores(s: &CarcassonneState) -> Vec<f64> {
    s.scores[..s.cfg.players]
        .iter()
        .map(|&v| v as f64)
        .collect()
}

#[test]
fn random_games_never_panic_and_end() {
    for (players, river, strategic) in [
        (2, false, false),
        (4, true, false),
        (3, false, true),
        (5, true, true),
    ] {
        let g = game(players, river, strategic, "standard");
        for seed in 0..30 {
            let mut s = g.new_initial_state();
            let mut rng = Rng::new(seed);
            let mut sc = Scratch::default();
            let mut steps = 0;
            let mut history = Vec::new();
            while let Some(a) = random_action(&s, &mut rng, &mut sc) {
                s.apply_action(a).unwrap();
                history.push(a);
                steps += 1;
                assert!(steps <= g.max_game_length());
                if seed < 3 && steps % 17 == 0 {
                    let text = s.serialize(&history);
                    let (back, h) = g
                        .deserialize_state(&text)
                        .unwrap_or_else(|e| panic!("{e}\n{text}"));
                    assert_eq!(back.serialize(&h), text);
                    let mut t = vec![0f32; g.observation_shape()[0]];
                    s.observation_tensor(0, &mut t);
                }
            }
            assert!(s.is_terminal());
            assert_eq!(s.pile_total(), 0);
            // Every tile was placed or set aside.
            let placed = s.board.slots.len() as u32;
            let aside: u32 = s.set_aside.iter().map(|&c| c as u32).sum();
            assert_eq!(placed + aside, g.config().r as u32 + 1);
        }
    }
}

#[test]
fn edges_must_match() {
    let g = game(2, false, false, "C1E1");
    let mut s = g.new_initial_state();
    draw(&mut s, "C");
    let mut legal = Vec::new();
    s.legal_actions(&mut legal);
    let texts: Vec<String> = legal
        .iter()
        .map(|&a| s.action_to_string(a).unwrap())
        .collect();
    assert_eq!(
        texts,
        [
            "place 0,1 r0",
            "place 0,1 r90",
            "place 0,1 r180",
            "place 0,1 r270"
        ]
    );
    assert!(s.string_to_action("place 1,0 r0").is_ok());
    assert!(!s.is_legal(s.string_to_action("place 1 , 0 r0").unwrap()));
    assert!(s.string_to_action("place 999,0 r0").is_err());
}

#[test]
fn a_completed_city_with_a_pennant() {
    let g = game(2, false, false, "E1F1");
    let mut s = g.new_initial_state();
    draw(&mut s, "F");
    act(&mut s, "place 0,1 r90");
    act(&mut s, "follower city N");
    assert_eq!(s.supply[0], 6);
    draw(&mut s, "E");
    act(&mut s, "place 0,2 r180");
    act(&mut s, "no follower");
    // D + F + E, one pennant: 2 x 3 + 2.
    assert_eq!(scores(&s), [8.0, 0.0]);
    assert_eq!(s.supply[0], 7);
    assert!(s.is_terminal());
}

#[test]
fn a_shared_city_and_a_refused_follower() {
    let g = game(2, false, false, "E1F1N2");
    let mut s = g.new_initial_state();
    draw(&mut s, "F");
    act(&mut s, "place 0,1 r90");
    act(&mut s, "follower city S");
    draw(&mut s, "E");
    act(&mut s, "place 1,1 r0");
    act(&mut s, "follower city N");
    draw(&mut s, "N");
    act(&mut s, "place 0,2 r180");
    // Its city joins seat 0's: no follower there (one's own included); its field is free.
    let city = s.string_to_action("follower city S").unwrap();
    assert!(!s.is_legal(city));
    assert!(s.apply_action(city).is_err());
    assert!(s.is_legal(s.string_to_action("follower field NL").unwrap()));
    act(&mut s, "no follower");
    draw(&mut s, "N");
    act(&mut s, "place 1,2 r270");
    act(&mut s, "no follower");
    // Five tiles, one pennant; one follower each: both score in full.
    assert_eq!(scores(&s), [12.0, 12.0]);
    assert_eq!(&s.supply[..2], &[7, 7]);
}

#[test]
fn a_cloister_completed_by_its_eighth_neighbour() {
    let g = game(2, false, false, "B6U2");
    let mut s = g.new_initial_state();
    draw(&mut s, "B");
    act(&mut s, "place 0,-1 r0");
    act(&mut s, "follower cloister");
    for (name, at) in [
        ("U", "-1,0"),
        ("U", "1,0"),
        ("B", "-1,-1"),
        ("B", "1,-1"),
        ("B", "-1,-2"),
        ("B", "0,-2"),
    ] {
        draw(&mut s, name);
        act(&mut s, &format!("place {at} r0"));
        act(&mut s, "no follower");
        assert_eq!(scores(&s), [0.0, 0.0]);
    }
    draw(&mut s, "B");
    act(&mut s, "place 1,-2 r0");
    act(&mut s, "no follower");
    assert!(s.is_terminal());
    assert_eq!(scores(&s), [9.0, 0.0]);
    assert_eq!(s.supply[0], 7);
}

#[test]
fn fields_score_completed_cities_at_the_end() {
    let g = game(2, false, false, "E1");
    let mut s = g.new_initial_state();
    draw(&mut s, "E");
    act(&mut s, "place 0,1 r180");
    assert_eq!(
        s.action_to_string(s.string_to_action("follower field NL").unwrap())
            .unwrap(),
        "follower field NL"
    );
    act(&mut s, "follower field ER");
    assert!(s.is_terminal());
    assert_eq!(scores(&s), [3.0, 0.0]);
    let mut r = [0.0; 2];
    s.returns(&mut r);
    assert_eq!(r, [1.0, 0.0]);
}

#[test]
fn an_unplaceable_tile_is_set_aside() {
    let g = game(2, false, false, "C1E1");
    let mut s = g.new_initial_state();
    draw(&mut s, "E");
    act(&mut s, "place 0,1 r180");
    act(&mut s, "no follower");
    draw(&mut s, "C");
    assert!(s.is_terminal());
    assert_eq!(s.set_aside[2], 1);
}

#[test]
fn the_river_may_not_turn_twice_the_same_way() {
    let g = game(2, true, false, "standard");
    let mut s = g.new_initial_state();
    let mut legal = Vec::new();
    s.legal_actions(&mut legal);
    assert!(!legal.contains(&25), "the lake comes last");
    draw(&mut s, "river_curve");
    s.legal_actions(&mut legal);
    let texts: Vec<String> = legal
        .iter()
        .map(|&a| s.action_to_string(a).unwrap())
        .collect();
    assert_eq!(texts, ["place 1,0 r0", "place 1,0 r90"]);
    act(&mut s, "place 1,0 r0"); // a right turn, to the south
    act(&mut s, "no follower");
    draw(&mut s, "river_curve");
    s.legal_actions(&mut legal);
    let texts: Vec<String> = legal
        .iter()
        .map(|&a| s.action_to_string(a).unwrap())
        .collect();
    assert_eq!(texts, ["place 1,-1 r180"]); // only the left turn
}

#[test]
fn strategic_deal_and_hidden_hands() {
    let g = game(2, false, true, "standard");
    let mut s = g.new_initial_state();
    let mut history = Vec::new();
    for (i, name) in ["U", "V", "E", "D", "D", "X"].iter().enumerate() {
        assert_eq!(s.phase, Phase::Deal);
        assert_eq!(s.current as usize, i / 3);
        let a = s.string_to_action(name).unwrap();
        s.apply_action(a).unwrap();
        history.push(a);
    }
    assert_eq!(s.phase, Phase::Draw);
    assert_eq!(s.current, 0);
    let info = s.information_state_string(1, &history);
    assert!(info.starts_with("seat=1 history=?,?,?,3,3,23"), "{info}");
    let mut obs = vec![0f32; g.observation_shape()[0]];
    s.observation_tensor(1, &mut obs);
    let hand = &obs[obs.len() - 34..];
    assert_eq!(hand[3], 2.0);
    assert_eq!(hand[20], 0.0);
    let mut rng = Rng::new(5);
    let r = s.resample_from_infostate(1, &mut rng);
    assert_eq!(r.hand(1), s.hand(1));
    assert_eq!(r.hand_size(0), 3);
    assert_eq!(
        r.pile_total() + r.hand_size(0),
        s.pile_total() + s.hand_size(0)
    );
    // Seat 0 draws a fourth tile, then selects one.
    draw(&mut s, "K");
    assert_eq!(s.phase, Phase::Select);
    act(&mut s, "tile K");
    assert_eq!(s.phase, Phase::Place);
}

#[test]
fn serialization_round_trips_and_refuses() {
    let g = game(3, false, false, "standard");
    let mut s = g.new_initial_state();
    let (mut rng, mut sc, mut history) = (Rng::new(3), Scratch::default(), Vec::new());
    for _ in 0..60 {
        let a = random_action(&s, &mut rng, &mut sc).unwrap();
        s.apply_action(a).unwrap();
        history.push(a);
    }
    let text = s.serialize(&history);
    let (back, h) = g.deserialize_state(&text).unwrap();
    assert_eq!(back.serialize(&h), text);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let refuse = |f: &dyn Fn(&mut serde_json::Value)| {
        let mut w = v.clone();
        f(&mut w);
        let t = w.to_string();
        assert!(g.deserialize_state(&t).is_err(), "accepted {t}");
    };
    refuse(&|w| {
        w.as_object_mut().unwrap().remove("pile");
    });
    refuse(&|w| {
        w["extra"] = 1.into();
    });
    refuse(&|w| w["current"] = true.into());
    refuse(&|w| w["current"] = 3.into());
    refuse(&|w| w["version"] = 2.into());
    refuse(&|w| w["board"] = serde_json::json!([]));
    refuse(&|w| w["board"][0][3] = 1.into());
    refuse(&|w| {
        w["board"][1][1] = 0.into();
        w["board"][1][2] = 0.into();
    });
    refuse(&|w| w["board"][1][1] = 72.into());
    refuse(&|w| w["board"][1][3] = 4.into());
    refuse(&|w| w["pile"][20] = 99.into());
    refuse(&|w| w["supply"][0] = 7.into());
    refuse(&|w| w["phase"] = "nowhere".into());
    refuse(&|w| w["tile"] = 3.into());
    refuse(&|w| w["to_draw"] = 1.into());
    refuse(&|w| w["hands"][0][3] = 1.into());
    refuse(&|w| w["scores"][0] = 100_001.into());
    refuse(&|w| w["history"][0] = (-1).into());
    refuse(&|w| w["params"]["players"] = 2.into());
    assert!(g
        .deserialize_state(&text.replacen("{", "{\"board\":[],", 1))
        .is_err());
}
