//! The Princess and the Dragon (docs/rules/carcassonne.md §12): one scenario per rule, and random games with
//! the other expansions and variants.

use meeplex_engine::games::carcassonne::{CarcassonneGame, CarcassonneState, Phase};
mod common;

use common::{act, assert_round_trips, draw, legal, scores, turn};
use meeplex_engine::playout::{random_action, Scratch};
use meeplex_engine::{Game, GameError, ParamValue, Params, Rng, State, CHANCE};
use serde_json::{json, Value};

fn params(text: &str) -> Params {
    let mut p = Params::new();
    p.insert("princess_dragon".into(), ParamValue::Bool(true));
    for kv in text.split(',').filter(|kv| !kv.is_empty()) {
        let (k, v) = kv.split_once('=').unwrap();
        let value = match v {
            "true" | "false" => ParamValue::Bool(v == "true"),
            _ => v
                .parse()
                .map_or_else(|_| ParamValue::Str(v.to_string()), ParamValue::Int),
        };
        p.insert(k.into(), value);
    }
    p
}

fn game(text: &str) -> CarcassonneGame {
    CarcassonneGame::new(&params(text)).unwrap()
}

fn legal_texts(s: &CarcassonneState) -> Vec<String> {
    let b = Box::new(s.clone());
    let mut out = Vec::new();
    b.legal_actions(&mut out);
    out.iter()
        .map(|&a| b.action_to_string(a).unwrap())
        .collect()
}

fn round_trip(g: &CarcassonneGame, s: &CarcassonneState) -> Value {
    let text = Box::new(s.clone()).serialize(&[]);
    let (back, _) = g
        .deserialize_state(&text)
        .unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(back.serialize(&[]), text);
    assert_eq!(*back, *s);
    serde_json::from_str(&text).unwrap()
}

// ----- random games -----

#[test]
fn random_games_with_the_princess_and_the_dragon_end_and_round_trip() {
    for text in [
        "players=2",
        "players=3,inns_cathedrals=true",
        "players=4,traders_builders=true",
        "players=6,inns_cathedrals=true,traders_builders=true,river=true,strategic=true",
        "players=2,strategic=true",
        "players=5,river=true,inns_cathedrals=true,traders_builders=true",
    ] {
        let g = game(text);
        let players = g.num_players();
        let mut moves = 0;
        for seed in 0..10 {
            let mut s = g.new_initial_state();
            let (mut rng, mut sc, mut history) = (Rng::new(seed), Scratch::default(), Vec::new());
            let mut obs = vec![0f32; g.observation_shape()[0]];
            let mut legal = Vec::new();
            while let Some(a) = random_action(&s, &mut rng, &mut sc) {
                if s.current_player() != CHANCE {
                    s.legal_actions(&mut legal);
                    assert!(legal.windows(2).all(|w| w[0] < w[1]), "{legal:?}");
                    for &b in &legal {
                        let t = s.action_to_string(b).unwrap();
                        assert_eq!(s.string_to_action(&t).unwrap(), b, "{t}");
                    }
                }
                moves += (s.phase == Phase::Dragon) as u32;
                s.apply_action(a).unwrap();
                history.push(a);
                assert!(history.len() as u64 <= g.max_game_length());
                if seed < 3 && history.len() % 7 == 0 {
                    assert_round_trips(&g, &s, &history);
                    s.observation_tensor(history.len() % players, &mut obs);
                    let _ = s.resample_from_infostate(0, &mut rng);
                }
            }
            assert!(s.is_terminal());
            assert_eq!(s.pile_total(), 0);
            let placed = s.board.slots.len() as u32;
            let aside: u32 = s.set_aside.iter().map(|&c| c as u32).sum();
            assert_eq!(placed + aside, g.config().r as u32 + 1);
        }
        assert!(moves > 0, "{text}: no dragon step in 10 random games");
    }
}

fn supply(s: &CarcassonneState) -> Vec<u8> {
    s.supply[..s.cfg.players].to_vec()
}

/// The types drawable now, by name.
fn drawable(s: &CarcassonneState) -> Vec<String> {
    let b = Box::new(s.clone());
    let mut w = Vec::new();
    b.chance_weights(&mut w);
    w.iter().map(|&(t, _)| s.tt(t as u8).name.clone()).collect()
}

// ----- §12.1, §12.2: tiles, the volcano -----

#[test]
fn ids_sizes_and_parameters() {
    let g = game("players=2,tiles=E2U4");
    let cfg = g.config();
    assert_eq!(cfg.nt, 34 + 29);
    assert_eq!(cfg.r, 6 + 30);
    let (s, k, n, t) = (cfg.r as usize + 1, 12, 2, cfg.nt);
    let p = (cfg.w * cfg.w * 4) as usize;
    assert_eq!(g.num_distinct_actions(), p + 1 + k + t + 3 * s * k + 4);
    assert_eq!(g.max_game_length(), 4 * cfg.r as u64 + 72);
    let size = s * (7 + t + k + n + 3) + 4 * n + 6 + 4 * t + 3 + n + k + 6 * (3 + k + n);
    assert_eq!(g.observation_shape(), vec![size]);
    let all = game("players=6,inns_cathedrals=true,traders_builders=true");
    let cfg = all.config();
    assert_eq!(cfg.nt, 34 + 17 + 24 + 29);
    let s = cfg.r as usize + 1;
    let base = (cfg.w * cfg.w * 4) as usize + 1 + k + cfg.nt + 3 * k;
    assert_eq!(all.num_distinct_actions(), base + 4 * s * k + 4);
    assert_eq!(
        g.params().get("princess_dragon"),
        Some(&ParamValue::Bool(true))
    );
    let off = CarcassonneGame::new(&Params::new()).unwrap();
    assert_eq!(off.params().get("princess_dragon"), None);
    let s = off.new_initial_state();
    for text in [
        "dragon N",
        "princess 0,0 city N",
        "fairy @0 #0",
        "follower 0,0 city N",
    ] {
        assert!(matches!(
            s.string_to_action(text),
            Err(GameError::InvalidNotation(_))
        ));
    }
}

#[test]
fn dragon_tiles_are_not_drawn_before_a_volcano() {
    let g = game("players=2,tiles=E2U4");
    let mut s = g.new_initial_state();
    let names = drawable(&s);
    assert!(names.contains(&"pd_f_v".to_string()) && names.contains(&"U".to_string()));
    assert!(!names.iter().any(|n| n.ends_with("_d")), "{names:?}");
    let a = s.string_to_action("draw pd_rr_d").unwrap();
    assert!(!s.is_legal(a));
    turn(&mut s, "pd_f_v", "0,-1 r0", "no follower");
    assert!(drawable(&s).contains(&"pd_rr_d".to_string()));
    // Only dragon tiles left: they are drawn.
    let s = g.new_initial_state();
    let mut v: Value = serde_json::from_str(&s.serialize(&[])).unwrap();
    let cfg = g.config();
    for t in 0..cfg.nt {
        if !cfg.types[t].dragon {
            let c = v["pile"][t].as_i64().unwrap();
            v["pile"][t] = json!(0);
            v["set_aside"][t] = json!(c);
        }
    }
    let (only, _) = g.deserialize_state(&v.to_string()).unwrap();
    let names = drawable(&only);
    assert_eq!(names.len(), 11, "{names:?}");
    assert!(names.iter().all(|n| n.ends_with("_d")));
}

#[test]
fn a_volcano_brings_the_dragon_and_takes_no_figure() {
    let g = game("players=2,tiles=E2U4");
    let mut s = g.new_initial_state();
    turn(&mut s, "U", "1,0 r0", "follower road E");
    draw(&mut s, "pd_f_v");
    act(&mut s, "place 0,-1 r0");
    assert_eq!(s.pd.dragon, 2);
    assert_eq!(legal_texts(&s), vec!["no follower"]);
    act(&mut s, "no follower");
    let v = round_trip(&g, &s);
    assert_eq!(v["dragon"], json!(2));
    assert_eq!(v["fairy"], json!([-1, -1]));
    assert_eq!(v["dragon_visited"], json!([]));
    assert_eq!(v["turn"], json!(0));
}

// ----- §12.3: the dragon's move -----

#[test]
fn the_dragon_makes_six_steps_and_removes_every_figure_it_meets() {
    let g = game("players=2,tiles=E2U6");
    let mut s = g.new_initial_state();
    turn(&mut s, "U", "1,0 r0", "follower road E");
    turn(&mut s, "U", "2,0 r0", "follower field NL");
    turn(&mut s, "pd_f_v", "0,-1 r0", "no follower");
    turn(&mut s, "U", "3,0 r0", "follower field SL");
    turn(&mut s, "U", "4,0 r0", "no follower");
    assert_eq!(supply(&s), vec![6, 5]);
    draw(&mut s, "pd_rfr_d");
    act(&mut s, "place 5,0 r0");
    act(&mut s, "no follower");
    // Seat 1 placed the dragon tile: it steps first, then the seats alternate.
    assert_eq!((s.phase, s.current), (Phase::Dragon, 1));
    assert_eq!(legal_texts(&s), vec!["dragon N"]);
    let v = round_trip(&g, &s);
    assert_eq!(v["dragon_visited"], json!([3]));
    assert_eq!(v["turn"], json!(1));
    act(&mut s, "dragon N");
    assert_eq!(s.current, 0);
    assert_eq!(legal_texts(&s), vec!["dragon E"]);
    act(&mut s, "dragon E");
    assert_eq!(supply(&s), vec![7, 5]);
    for (seat, want) in [(1, vec![7, 6]), (0, vec![7, 7]), (1, vec![7, 7])] {
        assert_eq!(s.current, seat);
        act(&mut s, "dragon e");
        assert_eq!(supply(&s), want);
    }
    let v = round_trip(&g, &s);
    assert_eq!(v["dragon_visited"], json!([3, 0, 1, 2, 4, 5]));
    assert_eq!(v["current"], json!(0));
    act(&mut s, "dragon E");
    // Six steps: the move is over, seat 0's turn begins.
    assert_eq!(supply(&s), vec![7, 7]);
    assert_eq!((s.phase, s.current), (Phase::Draw, 0));
    assert_eq!(s.board.slots[s.pd.dragon as usize].x, 5);
    assert!(s.pd.visited().is_empty());
}

#[test]
fn the_dragon_stops_when_it_blocks_itself() {
    let g = game("players=2,tiles=E2U4");
    let mut s = g.new_initial_state();
    turn(&mut s, "pd_f_v", "0,-1 r0", "no follower");
    turn(&mut s, "pd_rfr_d", "-1,0 r0", "follower road W");
    assert_eq!((s.phase, s.current), (Phase::Dragon, 1));
    act(&mut s, "dragon N");
    assert_eq!(legal_texts(&s), vec!["dragon W"]);
    act(&mut s, "dragon W");
    // No unvisited tile next to -1,0: the move ends after two steps, without a decision.
    assert_eq!((s.phase, s.current), (Phase::Draw, 0));
    assert_eq!(supply(&s), vec![7, 7]);
    assert_eq!(s.pd.dragon, 2);
}

// ----- §12.6: the fairy -----

#[test]
fn the_fairy_protects_scores_one_at_turn_start_and_three_at_the_end() {
    let g = game("players=2,tiles=E2U4");
    let mut s = g.new_initial_state();
    turn(&mut s, "U", "1,0 r0", "follower road E");
    turn(&mut s, "pd_f_v", "0,-1 r0", "no follower");
    draw(&mut s, "U");
    act(&mut s, "place 2,0 r0");
    assert!(legal_texts(&s).contains(&"fairy 1,0 road E".to_string()));
    act(&mut s, "fairy 1,0 road W");
    assert_eq!((s.pd.fairy, s.pd.fairy_k), (1, 0));
    assert_eq!(scores(&s), vec![0, 0]);
    assert!(!legal_texts(&s).contains(&"fairy 1,0 road E".to_string()));
    // Seat 1's turn: no point; the dragon cannot enter the fairy's tile.
    turn(&mut s, "pd_rfr_d", "-1,0 r0", "no follower");
    act(&mut s, "dragon N");
    assert_eq!(legal_texts(&s), vec!["dragon W"]);
    act(&mut s, "dragon W");
    // Seat 0's turn begins with the fairy next to its follower: 1 point.
    assert_eq!(s.current, 0);
    assert_eq!(scores(&s), vec![1, 0]);
    assert_eq!(supply(&s), vec![6, 7]);
    // The end would score the road (1,0 and 2,0 and D, and -1,0), and the fairy's 3 with it (§12.6: the
    // final scoring is a scoring too).
    assert_eq!(s.end_points()[..2], [4 + 3, 0]);
}

#[test]
fn the_fairy_gives_three_at_scoring_then_stays_next_to_nobody() {
    let g = game("players=2,tiles=A2E2U4");
    let mut s = g.new_initial_state();
    turn(&mut s, "A", "1,0 r90", "follower road W");
    turn(&mut s, "E", "0,1 r180", "no follower");
    turn(&mut s, "pd_f_v", "0,-1 r0", "fairy 1,0 road W");
    assert_eq!(scores(&s), vec![0, 0]);
    // Seat 1 closes the road (3 tiles): seat 0 scores 3 and the fairy's 3.
    turn(&mut s, "A", "-1,0 r270", "no follower");
    assert_eq!(scores(&s), vec![6, 0]);
    assert_eq!((s.pd.fairy, s.pd.fairy_k), (1, 255));
    let v = round_trip(&g, &s);
    assert_eq!(v["fairy"], json!([1, -1]));
    // Its follower left: no point at the start of seat 0's turn.
    assert_eq!(s.current, 0);
    assert_eq!(scores(&s), vec![6, 0]);
}

// ----- §12.4: the princess, §12.7: orphans -----

#[test]
fn the_princess_returns_another_seats_follower_or_ones_own() {
    for own in [false, true] {
        let g = game("players=2,tiles=E2U4");
        let mut s = g.new_initial_state();
        turn(&mut s, "pd_cc_p", "0,1 r180", "follower city S");
        if own {
            turn(&mut s, "U", "1,0 r0", "no follower");
        }
        draw(&mut s, "pd_ccx_p");
        act(&mut s, "place 1,1 r0");
        let texts = legal_texts(&s);
        assert!(
            texts.contains(&"princess 0,1 city E".to_string()),
            "{texts:?}"
        );
        assert!(!texts.iter().any(|t| t.starts_with("follower city")));
        act(&mut s, "princess 0,1 city E");
        assert_eq!(supply(&s), vec![7, 7]);
        assert_eq!(s.fig_at(1, 0), 255);
    }
}

#[test]
fn an_orphaned_builder_returns_when_the_princess_takes_its_follower() {
    let g = game("players=2,tiles=E2U4,traders_builders=true");
    let mut s = g.new_initial_state();
    turn(&mut s, "pd_cc_p", "0,1 r180", "follower city S");
    turn(&mut s, "U", "1,0 r0", "no follower");
    turn(&mut s, "pd_ccx_p", "1,1 r0", "builder city W");
    assert_eq!(s.builder_supply[0], 0);
    turn(&mut s, "pd_ccrr_p", "1,2 r180", "princess 0,1 city S");
    assert_eq!((s.supply[0], s.builder_supply[0]), (7, 1));
    round_trip(&g, &s);
}

#[test]
fn an_orphaned_pig_returns_when_the_dragon_takes_its_farmer() {
    let g = game("players=2,tiles=E2U4,traders_builders=true");
    let mut s = g.new_initial_state();
    turn(&mut s, "U", "1,0 r0", "follower field NL");
    draw(&mut s, "U");
    act(&mut s, "place -1,0 r0");
    assert!(!legal(&s, "pig field NL"), "seat 1 has no farmer there");
    act(&mut s, "no follower");
    turn(&mut s, "U", "2,0 r0", "pig field NL");
    assert_eq!(s.pig_supply[0], 0);
    turn(&mut s, "pd_f_v", "0,-1 r0", "no follower");
    turn(&mut s, "pd_rfr_d", "-2,0 r0", "no follower");
    // Seat 1 steps N to D, seat 0 E to 1,0 (the farmer), seat 1 E to 2,0 (the pig, already gone home).
    act(&mut s, "dragon N");
    act(&mut s, "dragon E");
    assert_eq!((s.supply[0], s.pig_supply[0]), (7, 1));
    round_trip(&g, &s);
}

// ----- §12.5: the magic portal -----

#[test]
fn the_portal_reaches_free_incomplete_features_of_earlier_tiles() {
    let g = game("players=2,tiles=E2U4,inns_cathedrals=true");
    let mut s = g.new_initial_state();
    turn(&mut s, "E", "0,1 r180", "no follower");
    turn(&mut s, "pd_f_v", "0,-1 r0", "no follower");
    draw(&mut s, "pd_rrrr_g");
    act(&mut s, "place 1,0 r0");
    // D's city is complete, the volcano takes no figure, D's road is free.
    assert!(!legal(&s, "follower 0,0 city N"));
    assert!(!legal(&s, "follower 0,-1 field NL"));
    assert!(legal(&s, "follower 0,0 road W"));
    assert!(legal(&s, "large 0,0 field EL"));
    // On the tile just placed the text names the ordinary id.
    assert_eq!(
        s.string_to_action("follower 1,0 road N").unwrap(),
        s.string_to_action("follower road N").unwrap()
    );
    act(&mut s, "follower 0,0 road W");
    assert_eq!(s.fig_at(0, 1), 1 << 3);
    draw(&mut s, "pd_rrc_g");
    act(&mut s, "place -1,0 r180");
    assert!(!legal(&s, "follower 0,0 road E"), "the road is taken");
    act(&mut s, "follower 0 , 0 field EL");
    let v = round_trip(&g, &s);
    assert_eq!(v["followers"], json!([[0, 1, 0], [0, 2, 1]]));
    let mut obs = vec![0f32; g.observation_shape()[0]];
    s.observation_tensor(0, &mut obs);
    let n = 2;
    let extra = 3 + 12 + n;
    let entries = &obs[obs.len() - 6 * extra..];
    assert_eq!(&entries[..3], &[1.0, 0.0, 0.0]);
    assert_eq!(entries[3 + 2], 1.0);
    assert_eq!(entries[3 + 12 + 1], 1.0);
    assert!(entries[extra..].iter().all(|&x| x == 0.0));
}

// ----- §12.8: notation -----

#[test]
fn pd_texts_read_and_write() {
    let g = game("players=2,tiles=E2U4");
    let mut s = g.new_initial_state();
    turn(&mut s, "U", "1,0 r0", "follower road E");
    draw(&mut s, "U");
    act(&mut s, "place 2,0 r0");
    let cfg = g.config();
    let fa = cfg.fairy_base();
    assert_eq!(s.action_to_string(fa + 12).unwrap(), "fairy 1,0 road E");
    assert_eq!(s.string_to_action("FAIRY  1, 0 road w").unwrap(), fa + 12);
    assert_eq!(s.string_to_action("fairy @1 #0").unwrap(), fa + 12);
    assert_eq!(s.action_to_string(fa + 5 * 12).unwrap(), "fairy @5 #0");
    assert_eq!(s.action_to_string(fa + 12 + 9).unwrap(), "fairy @1 #9");
    assert_eq!(
        s.string_to_action("dragon s").unwrap(),
        cfg.dragon_base() + 2
    );
    assert_eq!(
        s.action_to_string(cfg.dragon_base() + 3).unwrap(),
        "dragon W"
    );
    for bad in [
        "fairy 5,5 road E",
        "princess 1,0 city N",
        "fairy @99 #0",
        "fairy @1 #12",
        "large 1,0 road E",
        "dragon X",
    ] {
        assert!(
            matches!(s.string_to_action(bad), Err(GameError::InvalidNotation(_))),
            "{bad}"
        );
    }
    assert!(s.action_to_string(g.num_distinct_actions() as u32).is_err());
}

// ----- §12.10: serialization refusals -----

#[test]
fn serialization_refuses_what_section_12_10_lists() {
    let g = game("players=2,tiles=E2U4");
    let mut s = g.new_initial_state();
    turn(&mut s, "U", "1,0 r0", "follower road E");
    turn(&mut s, "pd_f_v", "0,-1 r0", "no follower");
    turn(&mut s, "U", "2,0 r0", "fairy 1,0 road E");
    let v = round_trip(&g, &s);
    let refuse = |f: &dyn Fn(&mut Value)| {
        let mut w = v.clone();
        f(&mut w);
        match g.deserialize_state(&w.to_string()) {
            Err(GameError::InvalidState(_)) => {}
            other => panic!("{w}: {:?}", other.map(|_| ())),
        }
    };
    refuse(&|w| w["dragon"] = json!(-1));
    refuse(&|w| w["dragon"] = json!(99));
    refuse(&|w| w["fairy"] = json!([1, 1]));
    refuse(&|w| w["fairy"] = json!([-1, 0]));
    refuse(&|w| w["fairy"] = json!([2, -1]));
    refuse(&|w| w["dragon_visited"] = json!([2]));
    refuse(&|w| w["turn"] = json!(0));
    refuse(&|w| w["again"] = json!(false));
    refuse(&|w| {
        w.as_object_mut().unwrap().remove("turn");
    });
    refuse(&|w| w["followers"] = json!([[1, 0, 0], [2, 0, 1]]));
    refuse(&|w| w["followers"] = json!([[1, 0, 0], [1, 0, 1]]));
    refuse(&|w| w["phase"] = json!("dragon"));
    // Phase dragon: current must be the stepping seat, the record a chain ending at the dragon.
    let mut s = g.new_initial_state();
    turn(&mut s, "pd_f_v", "0,-1 r0", "no follower");
    turn(&mut s, "pd_rfr_d", "-1,0 r0", "no follower");
    let v = round_trip(&g, &s);
    assert_eq!(
        (v["phase"].clone(), v["current"].clone()),
        (json!("dragon"), json!(1))
    );
    let refuse = |f: &dyn Fn(&mut Value)| {
        let mut w = v.clone();
        f(&mut w);
        assert!(matches!(
            g.deserialize_state(&w.to_string()),
            Err(GameError::InvalidState(_))
        ));
    };
    refuse(&|w| w["current"] = json!(0));
    refuse(&|w| w["dragon_visited"] = json!([]));
    refuse(&|w| w["dragon_visited"] = json!([0, 1]));
    refuse(&|w| w["dragon_visited"] = json!([1, 1]));
    refuse(&|w| w["phase"] = json!("follower"));
    // The base game knows no phase dragon and no P&D keys.
    let base = CarcassonneGame::new(&Params::new()).unwrap();
    let b = base.new_initial_state();
    let mut w: Value = serde_json::from_str(&b.serialize(&[])).unwrap();
    w["phase"] = json!("dragon");
    assert!(base.deserialize_state(&w.to_string()).is_err());
}
