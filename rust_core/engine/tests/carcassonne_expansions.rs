//! Carcassonne's expansions (docs/rules/carcassonne.md §11): Inns & Cathedrals and Traders & Builders, one
//! scenario per rule, and random games with every combination.

use meeplex_engine::games::carcassonne::{CarcassonneGame, CarcassonneState, Phase};
mod common;

use common::{act, assert_round_trips, draw, legal, scores, turn};
use meeplex_engine::playout::{random_action, Scratch};
use meeplex_engine::{Game, ParamValue, Params, Rng, State, CHANCE};
use serde_json::{json, Value};

fn params(players: i64, ic: bool, tb: bool, tiles: &str) -> Params {
    let mut p = Params::new();
    p.insert("players".into(), ParamValue::Int(players));
    p.insert("inns_cathedrals".into(), ParamValue::Bool(ic));
    p.insert("traders_builders".into(), ParamValue::Bool(tb));
    p.insert("tiles".into(), ParamValue::Str(tiles.into()));
    p
}

fn game(players: i64, ic: bool, tb: bool, tiles: &str) -> CarcassonneGame {
    CarcassonneGame::new(&params(players, ic, tb, tiles)).unwrap()
}

fn end(s: &CarcassonneState) -> Vec<u32> {
    s.end_points()[..s.cfg.players].to_vec()
}

fn legal_texts(s: &CarcassonneState) -> Vec<String> {
    let b = Box::new(s.clone());
    let mut out = Vec::new();
    b.legal_actions(&mut out);
    out.iter()
        .map(|&a| b.action_to_string(a).unwrap())
        .collect()
}

// ----- §2, §3, §11.5: the game's types and ids -----

#[test]
fn the_types_ids_and_sizes_follow_the_expansions() {
    let base = game(2, false, false, "standard");
    assert_eq!(base.num_distinct_actions(), 81_843);
    assert_eq!(base.max_chance_outcomes(), 34);
    assert_eq!(base.observation_shape(), [4_110]);
    assert_eq!(base.config().r, 71);
    for (ic, tb, t, r) in [
        (true, false, 51, 71 + 18),
        (false, true, 58, 71 + 24),
        (true, true, 75, 71 + 42),
    ] {
        let g = game(2, ic, tb, "standard");
        let c = g.config();
        assert_eq!((c.nt, c.r), (t, r));
        assert_eq!(g.max_chance_outcomes(), t);
        assert_eq!(g.max_game_length(), 4 * r as u64);
        let w = 2 * r as usize + 1;
        let figures = 12 * (ic as usize + 2 * tb as usize);
        assert_eq!(g.num_distinct_actions(), w * w * 4 + 1 + 12 + t + figures);
        let (e, extra) = (
            ic as usize + 2 * tb as usize,
            2 * ic as usize + (5 * 2 + 2) * tb as usize,
        );
        assert_eq!(
            g.observation_shape(),
            [(r as usize + 1) * (7 + t + 12 + 2 + e) + 4 * 2 + 6 + 4 * t + extra]
        );
    }
    // With Traders & Builders alone its types are ids 34..57.
    let g = game(2, false, true, "standard");
    let s = g.new_initial_state();
    assert_eq!(s.action_to_string(34).unwrap(), "draw tb_cc_g");
    assert_eq!(s.action_to_string(57).unwrap(), "draw tb_rrrr");
    assert!(s.action_to_string(58).is_err());
    assert_eq!(s.string_to_action("tb_ccrr_w").unwrap(), 34 + 7);
    assert!(s.string_to_action("ic_cccc_c").is_err());
    let g = game(2, true, true, "standard");
    let s = g.new_initial_state();
    assert_eq!(s.string_to_action("draw IC_CCCC_C").unwrap(), 34);
    assert_eq!(s.string_to_action("tb_cc_g").unwrap(), 51);
    // The expansions' tiles are in the pile in full, whatever `tiles` says (§1, interpretation 11.8.7).
    let g = game(2, true, true, "E1");
    assert_eq!(g.config().r, 1 + 18 + 24);
    assert_eq!(g.new_initial_state().pile_total(), 43);
}

#[test]
fn parameters_players_and_params() {
    assert!(CarcassonneGame::new(&params(6, false, true, "standard")).is_err());
    assert!(CarcassonneGame::new(&params(7, true, true, "standard")).is_err());
    let g = game(6, true, false, "standard");
    assert_eq!(g.num_players(), 6);
    // `params` lists an expansion only when it is enabled: the base game's params are unchanged.
    let base = game(2, false, false, "standard");
    let keys: Vec<&String> = base.params().keys().collect();
    assert_eq!(keys, ["players", "river", "strategic", "tiles"]);
    let tb = game(2, false, true, "standard");
    assert_eq!(
        tb.params().get("traders_builders"),
        Some(&ParamValue::Bool(true))
    );
    assert_eq!(tb.params().get("inns_cathedrals"), None);
    let mut p = params(2, true, false, "standard");
    p.insert("inns".into(), ParamValue::Bool(true));
    assert!(CarcassonneGame::new(&p).is_err());
    let mut p = params(2, true, false, "standard");
    p.insert("traders_builders".into(), ParamValue::Int(1));
    assert!(CarcassonneGame::new(&p).is_err());
}

// ----- §11.2 Inns & Cathedrals -----

#[test]
fn an_inn_doubles_a_completed_road() {
    let g = game(2, true, false, "A2");
    let mut s = g.new_initial_state();
    turn(&mut s, "ic_rfr_i", "1,0 r0", "follower road E");
    turn(&mut s, "A", "2,0 r90", "no follower");
    assert_eq!(scores(&s), [0, 0]);
    turn(&mut s, "A", "-1,0 r270", "no follower");
    // D, the inn tile and two A: 4 tiles, 2 each.
    assert_eq!(scores(&s), [8, 0]);
    assert_eq!(s.supply[0], 7);
}

#[test]
fn an_incomplete_road_with_an_inn_scores_nothing_at_the_end() {
    let g = game(2, true, false, "U1");
    let mut s = g.new_initial_state();
    turn(&mut s, "ic_rfr_i", "1,0 r0", "follower road W");
    assert_eq!(end(&s), [0, 0]);
    // Without the inn: 1 a tile.
    let mut s = g.new_initial_state();
    turn(&mut s, "U", "1,0 r0", "follower road W");
    assert_eq!(end(&s), [2, 0]);
}

#[test]
fn a_cathedral_triples_a_completed_city() {
    let g = game(2, true, false, "E3F1");
    let mut s = g.new_initial_state();
    turn(&mut s, "ic_cccc_c", "0,1 r0", "follower city N");
    turn(&mut s, "E", "0,2 r180", "no follower");
    turn(&mut s, "E", "1,1 r270", "no follower");
    assert_eq!(scores(&s), [0, 0]);
    assert_eq!(end(&s), [0, 0], "an incomplete city with a cathedral");
    turn(&mut s, "E", "-1,1 r90", "no follower");
    // D, the cathedral and three E: 5 tiles, 3 each.
    assert_eq!(scores(&s), [15, 0]);
    // A pennant counts 3 as well: F (pennant) in the same kind of city.
    let mut s = g.new_initial_state();
    turn(&mut s, "ic_cccc_c", "0,1 r0", "large city N");
    turn(&mut s, "F", "0,2 r90", "no follower");
    turn(&mut s, "E", "1,1 r270", "no follower");
    turn(&mut s, "E", "-1,1 r90", "no follower");
    assert_eq!(scores(&s), [0, 0], "F's north edge is still open");
    turn(&mut s, "E", "0,3 r180", "no follower");
    // D, cathedral, F, E, E, E: 6 tiles and a pennant.
    assert_eq!(scores(&s), [21, 0]);
    assert_eq!(s.large_supply[0], 1);
}

#[test]
fn an_incomplete_city_with_a_cathedral_scores_nothing_at_the_end() {
    let g = game(2, true, false, "E1F1");
    let mut s = g.new_initial_state();
    turn(&mut s, "ic_cccc_c", "0,1 r0", "follower city N");
    assert_eq!(end(&s), [0, 0]);
    // A city without a cathedral: 1 a tile and a pennant (D and F).
    let mut s = g.new_initial_state();
    turn(&mut s, "F", "0,1 r90", "follower city N");
    assert_eq!(end(&s), [3, 0]);
}

#[test]
fn the_large_follower_breaks_a_tie_in_a_city() {
    let g = game(2, true, false, "E1F1N2");
    for (second, want) in [("follower city N", [12, 12]), ("large city N", [0, 12])] {
        let mut s = g.new_initial_state();
        turn(&mut s, "F", "0,1 r90", "follower city S");
        turn(&mut s, "E", "1,1 r0", second);
        turn(&mut s, "N", "0,2 r180", "no follower");
        turn(&mut s, "N", "1,2 r270", "no follower");
        assert_eq!(scores(&s), want, "{second}");
        assert_eq!((s.supply[1], s.large_supply[1]), (7, 1));
    }
}

#[test]
fn the_large_follower_counts_two_in_a_field() {
    let g = game(2, true, false, "A1B1E1U1");
    for (second, want) in [("follower field NL", [3, 3]), ("large field NL", [0, 3])] {
        let mut s = g.new_initial_state();
        turn(&mut s, "B", "0,-1 r0", "follower field NL");
        turn(&mut s, "U", "1,0 r0", second);
        // A's field goes round its road's end: the fields north and south of the road join.
        turn(&mut s, "A", "2,0 r90", "no follower");
        turn(&mut s, "E", "0,1 r180", "no follower");
        assert_eq!(end(&s), want, "{second}");
    }
}

#[test]
fn the_large_follower_on_a_cloister_and_its_supply() {
    let g = game(2, true, false, "B6U2");
    let mut s = g.new_initial_state();
    draw(&mut s, "B");
    act(&mut s, "place 0,-1 r0");
    assert!(legal(&s, "large cloister"));
    act(&mut s, "large cloister");
    assert_eq!(s.large_supply[0], 0);
    // One large follower a seat: no `large` in the next follower steps of seat 0.
    turn(&mut s, "U", "-1,0 r0", "no follower");
    draw(&mut s, "U");
    act(&mut s, "place 1,0 r0");
    assert!(!legal(&s, "large road E"));
    assert!(legal(&s, "follower field NL"));
    act(&mut s, "no follower");
    assert_eq!(end(&s), [4, 0], "an incomplete cloister: 1 + 3 neighbours");
    for at in ["-1,-1", "1,-1", "-1,-2", "0,-2"] {
        turn(&mut s, "B", &format!("{at} r0"), "no follower");
    }
    turn(&mut s, "B", "1,-2 r0", "no follower");
    assert_eq!(scores(&s), [9, 0]);
    assert_eq!(s.large_supply[0], 1);
}

#[test]
fn six_players_with_inns_and_cathedrals() {
    let g = game(6, true, false, "standard");
    let mut s = g.new_initial_state();
    let (mut rng, mut sc) = (Rng::new(1), Scratch::default());
    let mut seats = std::collections::BTreeSet::new();
    let mut history = Vec::new();
    while let Some(a) = random_action(&s, &mut rng, &mut sc) {
        if s.current_player() >= 0 {
            seats.insert(s.current_player());
        }
        s.apply_action(a).unwrap();
        history.push(a);
    }
    assert_eq!(seats.len(), 6);
    let text = s.serialize(&history);
    let (back, _) = g.deserialize_state(&text).unwrap();
    assert_eq!(back, s);
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["large_supply"].as_array().unwrap().len(), 6);
}

// ----- §11.3 Traders & Builders -----

#[test]
fn goods_go_to_the_completer_without_a_follower() {
    let g = game(2, false, true, "E2");
    let mut s = g.new_initial_state();
    turn(&mut s, "tb_cfc_w", "0,1 r90", "no follower");
    turn(&mut s, "E", "0,2 r180", "no follower");
    assert_eq!(scores(&s), [0, 0]);
    assert_eq!(s.goods[1], [1, 0, 0]);
    assert_eq!(s.goods[0], [0, 0, 0]);
    // With seat 0's follower in it: seat 0 scores the city, seat 1 (who completed it) takes the wine.
    let mut s = g.new_initial_state();
    turn(&mut s, "tb_cfc_w", "0,1 r90", "follower city N");
    turn(&mut s, "E", "0,2 r180", "no follower");
    assert_eq!(scores(&s), [6, 0]);
    assert_eq!((s.goods[0], s.goods[1]), ([0, 0, 0], [1, 0, 0]));
    // A city left incomplete gives none.
    let mut s = g.new_initial_state();
    turn(&mut s, "tb_cfc_w", "0,1 r90", "follower city N");
    assert_eq!(end(&s), [2, 0]);
    assert_eq!(s.goods[0], [0, 0, 0]);
}

#[test]
fn goods_majorities_at_the_end_tie_in_full() {
    let g = game(3, false, true, "E2");
    let mut s = g.new_initial_state();
    assert_eq!(end(&s), [0, 0, 0], "no tokens, no majority");
    s.goods[0] = [1, 0, 2];
    s.goods[1] = [1, 0, 1];
    s.goods[2] = [0, 0, 0];
    // Wine tied between seats 0 and 1 (both 10), nobody has grain, cloth to seat 0.
    assert_eq!(end(&s), [20, 10, 0]);
    // And the end of the game adds them to the scores.
    let g = game(2, false, true, "E1");
    let mut s = g.new_initial_state();
    turn(&mut s, "tb_cfc_w", "0,1 r90", "no follower");
    turn(&mut s, "E", "0,2 r180", "no follower");
    let (mut rng, mut sc) = (Rng::new(4), Scratch::default());
    while let Some(a) = random_action(&s, &mut rng, &mut sc) {
        // No more figures: what changes the scores after this is the goods.
        let text = s.action_to_string(a).unwrap();
        let a = if s.phase == Phase::Follower && text != "no follower" {
            s.string_to_action("no follower").unwrap()
        } else {
            a
        };
        s.apply_action(a).unwrap();
    }
    assert!(s.is_terminal());
    assert!(s.goods[1][0] >= 1);
    let mut want = [0u32; 2];
    for k in 0..3 {
        let best = s.goods[0][k].max(s.goods[1][k]);
        for (q, w) in want.iter_mut().enumerate() {
            if best > 0 && s.goods[q][k] == best {
                *w += 10;
            }
        }
    }
    assert_eq!(scores(&s), want, "{}", s.to_text());
}

#[test]
fn the_builder_needs_a_follower_of_its_seat_in_a_road_or_city() {
    let g = game(2, false, true, "U8");
    let mut s = g.new_initial_state();
    turn(&mut s, "U", "1,0 r0", "follower road W");
    draw(&mut s, "U");
    act(&mut s, "place -1,0 r0");
    assert!(!legal(&s, "builder road E"), "seat 1 has no follower there");
    assert!(!legal(&s, "follower road E"), "the road is claimed");
    assert!(!legal(&s, "pig field NL"), "seat 1 has no farmer there");
    act(&mut s, "no follower");
    draw(&mut s, "U");
    act(&mut s, "place 2,0 r0");
    assert!(!s.again, "the builder was in the supply");
    assert!(legal(&s, "builder road W"));
    assert!(!legal(&s, "builder field NL"), "a field");
    assert!(
        !legal(&s, "pig field NL"),
        "no farmer of seat 0 in that field"
    );
    assert!(!legal(&s, "follower road W"));
    assert_eq!(
        legal_texts(&s),
        [
            "no follower",
            "follower field NL",
            "follower field ER",
            "builder road E"
        ]
    );
    act(&mut s, "builder road W");
    assert_eq!(s.builder_supply[0], 0);
    assert_eq!(s.supply[0], 6, "a builder is not a follower");
    // A builder does not claim: seat 1 still cannot claim the road, and may not put its builder there.
    draw(&mut s, "U");
    act(&mut s, "place -2,0 r0");
    assert!(!legal(&s, "follower road E"));
    assert!(!legal(&s, "builder road E"));
    act(&mut s, "no follower");
}

#[test]
fn a_builder_on_a_city_and_the_large_follower_as_its_follower() {
    let g = game(2, true, true, "E2");
    let mut s = g.new_initial_state();
    turn(&mut s, "ic_cccc_c", "0,1 r0", "large city N");
    draw(&mut s, "E");
    act(&mut s, "place 0,2 r180");
    assert!(!legal(&s, "builder city S"), "seat 1 has no follower there");
    act(&mut s, "no follower");
    draw(&mut s, "E");
    act(&mut s, "place 1,1 r270");
    assert!(legal(&s, "builder city W"));
    assert!(!legal(&s, "builder field NL"));
    act(&mut s, "builder city W");
    let v: Value = serde_json::from_str(&s.serialize(&[])).unwrap();
    assert_eq!(v["large"], json!([[1, 0, 0]]));
    assert_eq!(v["builders"], json!([[3, 0, 0]]));
    assert_eq!(v["followers"], json!([]));
}

#[test]
fn the_second_tile_and_never_a_third() {
    let g = game(2, false, true, "U8");
    let mut s = g.new_initial_state();
    turn(&mut s, "U", "1,0 r0", "follower road W");
    turn(&mut s, "U", "-1,0 r0", "no follower");
    turn(&mut s, "U", "2,0 r0", "builder road W");
    turn(&mut s, "U", "-2,0 r0", "no follower");
    assert!(!s.again, "seat 1 has no builder on the board");
    assert_eq!(s.current, 0);
    draw(&mut s, "U");
    act(&mut s, "place 3,0 r0");
    assert!(s.again && !s.bonus);
    let mut obs = vec![0f32; g.observation_shape()[0]];
    s.observation_tensor(0, &mut obs);
    assert_eq!(obs[obs.len() - 2..], [0.0, 1.0]);
    act(&mut s, "no follower");
    // The same seat again, marked as its second tile.
    assert_eq!(s.current_player(), CHANCE);
    assert_eq!((s.current, s.bonus, s.again), (0, true, false));
    s.observation_tensor(0, &mut obs);
    assert_eq!(obs[obs.len() - 2..], [1.0, 0.0]);
    draw(&mut s, "U");
    act(&mut s, "place 4,0 r0");
    assert!(!s.again, "a second tile never grants another");
    act(&mut s, "no follower");
    assert_eq!((s.current, s.bonus, s.again), (1, false, false));
    turn(&mut s, "U", "-3,0 r0", "no follower");
    assert_eq!((s.current, s.bonus), (0, false));
    // On a later turn the builder (still on its open road) grants a second tile again.
    draw(&mut s, "U");
    act(&mut s, "place 5,0 r0");
    assert!(s.again);
}

#[test]
fn the_second_tile_is_kept_when_it_completes_the_builders_road() {
    let g = game(2, false, true, "A2B1U4");
    let mut s = g.new_initial_state();
    turn(&mut s, "U", "1,0 r0", "follower road W");
    turn(&mut s, "A", "-1,0 r270", "no follower");
    turn(&mut s, "U", "2,0 r0", "builder road W");
    turn(&mut s, "B", "0,-1 r0", "no follower");
    draw(&mut s, "A");
    act(&mut s, "place 3,0 r90");
    assert!(s.again);
    act(&mut s, "no follower");
    // A, D, U, U, A: 5 points; the follower and the builder return; seat 0 plays again.
    assert_eq!(scores(&s), [5, 0]);
    assert_eq!((s.supply[0], s.builder_supply[0]), (7, 1));
    assert_eq!((s.current, s.bonus), (0, true));
    assert_eq!(s.phase, Phase::Draw);
}

#[test]
fn the_second_tile_in_the_strategic_variant() {
    let mut p = params(2, false, true, "U12");
    p.insert("strategic".into(), ParamValue::Bool(true));
    let g = CarcassonneGame::new(&p).unwrap();
    let mut s = g.new_initial_state();
    for _ in 0..6 {
        draw(&mut s, "U");
    }
    fn seat(s: &mut Box<CarcassonneState>, at: &str, figure: &str) {
        draw(s, "U");
        act(s, "tile U");
        act(s, &format!("place {at}"));
        act(s, figure);
    }
    seat(&mut s, "1,0 r0", "follower road W");
    seat(&mut s, "-1,0 r0", "no follower");
    seat(&mut s, "2,0 r0", "builder road W");
    seat(&mut s, "-2,0 r0", "no follower");
    seat(&mut s, "3,0 r0", "no follower");
    // Seat 0's second tile: a draw into its hand, then a select.
    assert_eq!((s.current, s.bonus, s.phase), (0, true, Phase::Draw));
    draw(&mut s, "U");
    assert_eq!(s.phase, Phase::Select);
    act(&mut s, "tile U");
    act(&mut s, "place 4,0 r0");
    assert!(!s.again);
    act(&mut s, "no follower");
    assert_eq!((s.current, s.bonus), (1, false));
}

#[test]
fn the_pig_scores_four_a_city_for_its_winning_owner() {
    let g = game(2, false, true, "E1U3");
    let mut s = g.new_initial_state();
    turn(&mut s, "U", "1,0 r0", "follower field NL");
    turn(&mut s, "E", "0,1 r180", "no follower");
    draw(&mut s, "U");
    act(&mut s, "place 2,0 r0");
    assert!(legal(&s, "pig field NL"));
    assert!(
        !legal(&s, "pig field SL"),
        "no farmer of seat 0 south of the road"
    );
    assert!(
        !legal(&s, "builder road W"),
        "no follower of seat 0 on the road"
    );
    assert_eq!(end(&s), [3, 0]);
    act(&mut s, "pig field NL");
    assert_eq!(s.pig_supply[0], 0);
    assert_eq!(end(&s), [4, 0]);
    // A pig does not claim and does not count: seat 1 may still farm the field south of the road ...
    draw(&mut s, "U");
    act(&mut s, "place -1,0 r0");
    assert!(legal(&s, "follower field SL"));
    assert!(!legal(&s, "follower field NL"), "seat 0's field");
    assert!(!legal(&s, "pig field NL"), "not seat 1's field");
    act(&mut s, "no follower");
    assert_eq!(end(&s), [4, 0]);
}

#[test]
fn the_pig_owner_must_win_the_field() {
    let g = game(2, true, true, "A1B1E1U1");
    let mut s = g.new_initial_state();
    turn(&mut s, "B", "0,-1 r0", "follower field NL");
    turn(&mut s, "U", "1,0 r0", "large field NL");
    draw(&mut s, "A");
    act(&mut s, "place 2,0 r90");
    // The fields join through A: seat 0 has a farmer there, so its pig may go in.
    act(&mut s, "pig field NL");
    turn(&mut s, "E", "0,1 r180", "no follower");
    // Seat 1's large follower wins: seat 0's pig changes nothing.
    assert_eq!(end(&s), [0, 3]);
}

#[test]
fn an_inner_farm_is_on_no_edge_and_counts_its_cities() {
    let g = game(2, false, true, "E1");
    let mut s = g.new_initial_state();
    draw(&mut s, "tb_cccc_c");
    act(&mut s, "place 0,1 r0");
    let inner = s.string_to_action("follower field").unwrap();
    assert_eq!(s.action_to_string(inner).unwrap(), "follower field");
    assert!(s.is_legal(inner));
    assert!(s.string_to_action("follower field NL").is_err());
    assert!(s.string_to_action("pig field").is_ok());
    assert_eq!(
        legal_texts(&s),
        [
            "no follower",
            "follower city N",
            "follower city S",
            "follower city E",
            "follower field"
        ]
    );
    act(&mut s, "follower field");
    // Its south city and D's made a 2-tile city at once (no follower there); the inner farm touches it.
    assert_eq!(end(&s), [3, 0]);
    // A tile next to it does not join the inner farm (its field is free).
    draw(&mut s, "E");
    act(&mut s, "place 1,1 r270");
    assert!(legal(&s, "follower field NL"));
    act(&mut s, "no follower");
    // E closed the one-edge east city: 2 completed cities touch the inner farm now.
    assert_eq!(end(&s), [6, 0]);
}

// ----- §11.4, §11.5 the follower step and the notation -----

#[test]
fn the_follower_step_offers_every_figure_in_id_order() {
    let g = game(2, true, true, "U3");
    let mut s = g.new_initial_state();
    turn(&mut s, "U", "1,0 r0", "follower road W");
    turn(&mut s, "U", "-1,0 r0", "no follower");
    draw(&mut s, "U");
    act(&mut s, "place 2,0 r0");
    assert_eq!(
        legal_texts(&s),
        [
            "no follower",
            "follower field NL",
            "follower field ER",
            "large field NL",
            "large field ER",
            "builder road E",
        ]
    );
    let mut ids = Vec::new();
    s.legal_actions(&mut ids);
    let c = g.config();
    let b = c.p() + 1 + 12 + 75;
    assert_eq!(ids[3..], [b + 1, b + 2, b + 12]);
    // Without a follower in supply, only the large follower claims.
    let mut t = s.clone();
    t.supply[0] = 0;
    assert_eq!(
        legal_texts(&t),
        [
            "no follower",
            "large field NL",
            "large field ER",
            "builder road E"
        ]
    );
}

#[test]
fn figure_notation_round_trips_and_is_refused_without_its_expansion() {
    let g = game(2, true, true, "U3");
    let mut s = g.new_initial_state();
    draw(&mut s, "tb_ccrrx_c");
    act(&mut s, "place 0,1 r270");
    let n = g.num_distinct_actions() as u32;
    let p = g.config().p();
    for a in p..n {
        let text = s.action_to_string(a).unwrap();
        assert_eq!(s.string_to_action(&text).unwrap(), a, "{text}");
    }
    assert!(s.action_to_string(n).is_err());
    let b = p + 1 + 12 + 75;
    assert_eq!(s.action_to_string(b + 11).unwrap(), "large #11");
    assert_eq!(s.action_to_string(b + 24).unwrap(), "pig city S");
    assert_eq!(s.action_to_string(b + 12 + 1).unwrap(), "builder road E");
    assert_eq!(s.string_to_action("  PIG   #3 ").unwrap(), b + 24 + 3);
    assert_eq!(s.string_to_action("builder road n").unwrap(), b + 12 + 2);
    assert_eq!(s.string_to_action("pig city w").unwrap(), b + 24);
    assert!(
        s.string_to_action("builder road s").is_err(),
        "S is the city"
    );
    assert!(s.string_to_action("large #12").is_err());
    assert!(s.string_to_action("pig field").is_err(), "no inner farm");
    assert!(s.string_to_action("builder").is_err());
    // Outside the follower phase: the `#k` forms.
    let mut t = g.new_initial_state();
    assert!(t.action_to_string(b).is_err(), "a chance node");
    draw(&mut t, "U");
    assert_eq!(t.action_to_string(b + 5).unwrap(), "large #5");
    assert_eq!(t.action_to_string(b + 12 + 5).unwrap(), "builder #5");
    assert!(t.string_to_action("builder road W").is_err());
    // Each word only with its expansion.
    let ic = game(2, true, false, "U3");
    let mut s = ic.new_initial_state();
    draw(&mut s, "U");
    act(&mut s, "place 1,0 r0");
    assert!(s.string_to_action("large road E").is_ok());
    assert!(s.string_to_action("builder road E").is_err());
    assert!(s.string_to_action("pig #0").is_err());
    let tb = game(2, false, true, "U3");
    let mut s = tb.new_initial_state();
    draw(&mut s, "U");
    act(&mut s, "place 1,0 r0");
    assert!(s.string_to_action("large road E").is_err());
    assert_eq!(
        s.string_to_action("builder road E").unwrap(),
        tb.config().p() + 1 + 12 + 58
    );
    let base = game(2, false, false, "U3");
    let mut s = base.new_initial_state();
    draw(&mut s, "U");
    act(&mut s, "place 1,0 r0");
    for w in ["large road E", "builder road E", "pig field NL"] {
        assert!(s.string_to_action(w).is_err(), "{w}");
    }
}

// ----- §11.6, §11.7 observation and serialization -----

#[test]
fn the_observation_marks_figures_supplies_and_goods() {
    let g = game(2, true, true, "E1U3");
    let mut s = g.new_initial_state();
    turn(&mut s, "U", "1,0 r0", "large road W");
    turn(&mut s, "tb_cfc_w", "0,1 r90", "no follower");
    turn(&mut s, "E", "0,2 r180", "no follower");
    let c = g.config();
    let (t, n) = (75, 2);
    let per = 7 + t + 12 + n + 3;
    let mut obs = vec![0f32; g.observation_shape()[0]];
    s.observation_tensor(1, &mut obs);
    let u = &obs[per..2 * per];
    let k = (0..12).find(|&k| u[7 + t + k] == 1.0).unwrap();
    assert_eq!(k, 0);
    assert_eq!(
        u[7 + t + 12..7 + t + 12 + n],
        [0.0, 1.0],
        "seat 0 seen by seat 1"
    );
    assert_eq!(u[7 + t + 12 + n..], [1.0, 0.0, 0.0], "a large follower");
    let g0 = (c.r as usize + 1) * per + 4 * n + 6 + 4 * t;
    assert_eq!(obs[g0..g0 + n], [1.0, 0.0], "large in supply, seat 1 first");
    assert_eq!(obs[g0 + n..g0 + 2 * n], [1.0, 1.0], "builders");
    assert_eq!(obs[g0 + 2 * n..g0 + 3 * n], [1.0, 1.0], "pigs");
    // Seat 0 completed the wine city: seat 1's goods first, then seat 0's.
    assert_eq!(
        obs[g0 + 3 * n..g0 + 3 * n + 6],
        [0.0, 0.0, 0.0, 1.0, 0.0, 0.0]
    );
    assert_eq!(obs.len(), g0 + n + 5 * n + 2);
}

fn mid_game(g: &CarcassonneGame) -> (Box<CarcassonneState>, Value) {
    let mut s = g.new_initial_state();
    turn(&mut s, "U", "1,0 r0", "follower road W");
    turn(&mut s, "ic_cccc_c", "0,1 r0", "large city N");
    turn(&mut s, "U", "2,0 r0", "builder road W");
    turn(&mut s, "E", "-1,1 r90", "no follower");
    // This tile continues the road of seat 0's builder: seat 0 plays a second tile (with its pig).
    turn(&mut s, "U", "-1,0 r0", "follower field NL");
    assert!(s.bonus);
    turn(&mut s, "U", "-2,0 r0", "pig field NL");
    assert_eq!((s.current, s.bonus), (1, false));
    let v: Value = serde_json::from_str(&s.serialize(&[])).unwrap();
    (s, v)
}

#[test]
fn serialization_keys_round_trip_and_refusals() {
    let g = game(2, true, true, "E1U4");
    let (s, v) = mid_game(&g);
    let text = s.serialize(&[]);
    let (back, _) = g.deserialize_state(&text).unwrap();
    assert_eq!(back.serialize(&[]), text);
    assert_eq!(*back, *s);
    assert_eq!(v["followers"], json!([[1, 0, 0], [5, 1, 0]]));
    assert_eq!(v["supply"], json!([5, 7]));
    assert_eq!(v["large"], json!([[2, 0, 1]]));
    assert_eq!(v["builders"], json!([[3, 0, 0]]));
    assert_eq!(v["pigs"], json!([[6, 1, 0]]));
    assert_eq!(v["large_supply"], json!([1, 0]));
    assert_eq!(v["builder_supply"], json!([0, 1]));
    assert_eq!(v["pig_supply"], json!([0, 1]));
    assert_eq!(v["goods"], json!([[0, 0, 0], [0, 0, 0]]));
    assert_eq!(
        (v["bonus"].clone(), v["again"].clone()),
        (json!(false), json!(false))
    );
    assert_eq!(
        v["params"],
        json!({"inns_cathedrals": true, "players": 2, "river": false, "strategic": false,
               "tiles": "E1U4", "traders_builders": true})
    );
    assert_eq!(v["pile"].as_array().unwrap().len(), 75);
    let refuse = |why: &str, f: &dyn Fn(&mut Value)| {
        let mut w = v.clone();
        f(&mut w);
        let t = w.to_string();
        assert!(g.deserialize_state(&t).is_err(), "{why}: accepted {t}");
    };
    for key in [
        "large",
        "large_supply",
        "builders",
        "pigs",
        "builder_supply",
        "pig_supply",
        "goods",
        "bonus",
        "again",
    ] {
        refuse(key, &|w| {
            w.as_object_mut().unwrap().remove(key);
        });
    }
    refuse("two figures a slot", &|w| w["large"] = json!([[1, 0, 1]]));
    refuse("two figures a slot", &|w| w["pigs"] = json!([[1, 1, 0]]));
    refuse("two figures a slot", &|w| {
        w["builders"] = json!([[2, 0, 0]])
    });
    refuse("a builder on a field", &|w| {
        w["builders"] = json!([[3, 1, 0]])
    });
    refuse("a pig on a road", &|w| w["pigs"] = json!([[6, 0, 0]]));
    refuse("large supply", &|w| w["large_supply"] = json!([1, 1]));
    refuse("large supply", &|w| w["large_supply"] = json!([0, 0]));
    refuse("builder supply", &|w| w["builder_supply"] = json!([1, 1]));
    refuse("pig supply", &|w| w["pig_supply"] = json!([0, 0]));
    refuse("two large", &|w| {
        w["large"] = json!([[2, 0, 1], [4, 0, 1]]);
    });
    refuse("a builder without a follower of its seat", &|w| {
        w["builders"] = json!([[3, 0, 1]]);
        w["builder_supply"] = json!([1, 0]);
    });
    refuse("a pig without a farmer of its seat", &|w| {
        w["pigs"] = json!([[6, 1, 1]]);
        w["pig_supply"] = json!([1, 0]);
    });
    refuse("a figure's feature out of range", &|w| {
        w["builders"] = json!([[3, 3, 0]])
    });
    refuse("a figure's seat out of range", &|w| {
        w["pigs"] = json!([[6, 1, 2]])
    });
    refuse("goods above the symbols", &|w| w["goods"][0][0] = 1.into());
    refuse("a negative goods count", &|w| {
        w["goods"][1][2] = (-1).into()
    });
    refuse("goods of 2 kinds", &|w| w["goods"][0] = json!([0, 0]));
    refuse("again outside follower", &|w| w["again"] = true.into());
    refuse("bonus a bool", &|w| w["bonus"] = 1.into());
    refuse("the base game's params", &|w| {
        w["params"]
            .as_object_mut()
            .unwrap()
            .remove("inns_cathedrals");
    });
    refuse("75 types", &|w| w["set_aside"] = json!(vec![0; 58]));
    refuse("ascending", &|w| {
        w["followers"] = json!([[5, 1, 0], [1, 0, 0]])
    });
}

#[test]
fn serialization_refuses_figures_on_completed_features_and_bonus_flags() {
    let g = game(2, true, true, "E3U3");
    let mut s = g.new_initial_state();
    turn(&mut s, "ic_cccc_c", "0,1 r0", "large city N");
    turn(&mut s, "E", "0,2 r180", "no follower");
    turn(&mut s, "E", "1,1 r270", "no follower");
    draw(&mut s, "E");
    act(&mut s, "place -1,1 r90");
    // Phase follower: the large follower is on the city the last tile completed (scored after this step).
    let text = s.serialize(&[]);
    let v: Value = serde_json::from_str(&text).unwrap();
    assert!(g.deserialize_state(&text).is_ok());
    let mut w = v.clone();
    w["phase"] = "draw".into();
    assert!(
        g.deserialize_state(&w.to_string()).is_err(),
        "completed city"
    );
    // A builder in the same city (with the large follower as its seat's follower), likewise.
    let mut w = v.clone();
    w["builders"] = json!([[3, 0, 1]]);
    w["builder_supply"] = json!([1, 0]);
    w["large"] = json!([[1, 0, 1]]);
    w["large_supply"] = json!([1, 0]);
    assert!(g.deserialize_state(&w.to_string()).is_ok());
    w["phase"] = "draw".into();
    assert!(g.deserialize_state(&w.to_string()).is_err());
    // again: only in phase follower and without bonus; bonus never in deal or over.
    let mut w = v.clone();
    w["again"] = true.into();
    assert!(g.deserialize_state(&w.to_string()).is_ok());
    w["bonus"] = true.into();
    assert!(g.deserialize_state(&w.to_string()).is_err());
    let mut w = v.clone();
    w["bonus"] = true.into();
    assert!(g.deserialize_state(&w.to_string()).is_ok());
    // No goods tile on this board: no goods tokens.
    let mut w = v.clone();
    w["goods"][1][1] = 1.into();
    assert!(g.deserialize_state(&w.to_string()).is_err());
    // The base game has none of the expansions' keys.
    let base = game(2, false, false, "E3U3");
    let mut b = base.new_initial_state();
    draw(&mut b, "E");
    let bt = b.serialize(&[]);
    let bv: Value = serde_json::from_str(&bt).unwrap();
    assert!(bv.get("large").is_none() && bv.get("goods").is_none());
    let mut w = bv.clone();
    w["bonus"] = false.into();
    assert!(base.deserialize_state(&w.to_string()).is_err());
    // bonus in phase over.
    let tb = game(2, false, true, "E1");
    let mut s = tb.new_initial_state();
    turn(&mut s, "E", "0,1 r180", "no follower");
    let (mut rng, mut sc) = (Rng::new(2), Scratch::default());
    while let Some(a) = random_action(&s, &mut rng, &mut sc) {
        s.apply_action(a).unwrap();
    }
    let mut w: Value = serde_json::from_str(&s.serialize(&[])).unwrap();
    assert!(tb.deserialize_state(&w.to_string()).is_ok());
    w["bonus"] = true.into();
    assert!(tb.deserialize_state(&w.to_string()).is_err());
}

// ----- random games -----

#[test]
fn random_games_with_the_expansions_end_and_round_trip() {
    for (players, river, strategic, ic, tb) in [
        (2, false, false, true, true),
        (3, false, false, true, false),
        (4, false, false, false, true),
        (6, true, true, true, true),
        (2, false, true, false, true),
        (5, true, false, true, true),
    ] {
        let mut p = params(players, ic, tb, "standard");
        p.insert("river".into(), ParamValue::Bool(river));
        p.insert("strategic".into(), ParamValue::Bool(strategic));
        let g = CarcassonneGame::new(&p).unwrap();
        let mut seconds = 0;
        for seed in 0..12 {
            let mut s = g.new_initial_state();
            let (mut rng, mut sc, mut history) = (Rng::new(seed), Scratch::default(), Vec::new());
            let mut obs = vec![0f32; g.observation_shape()[0]];
            while let Some(a) = random_action(&s, &mut rng, &mut sc) {
                seconds += s.bonus as u32 * (s.phase == Phase::Place) as u32;
                s.apply_action(a).unwrap();
                history.push(a);
                assert!(history.len() as u64 <= g.max_game_length());
                if seed < 2 && history.len() % 13 == 0 {
                    assert_round_trips(&g, &s, &history);
                    s.observation_tensor(history.len() % players as usize, &mut obs);
                    let mut h = [0.0; 6];
                    s.heuristic_value(&mut h[..players as usize]);
                    let sum: f64 = h.iter().sum();
                    assert!((sum - 1.0).abs() < 1e-9);
                }
            }
            assert!(s.is_terminal());
            assert_eq!(s.pile_total(), 0);
            let placed = s.board.slots.len() as u32;
            let aside: u32 = s.set_aside.iter().map(|&c| c as u32).sum();
            assert_eq!(placed + aside, g.config().r as u32 + 1);
            for q in 0..players as usize {
                assert!(s.large_supply[q] <= ic as u8 && s.builder_supply[q] <= tb as u8);
            }
        }
        if tb {
            assert!(seconds > 0, "no second tile in 12 random games");
        }
    }
}
