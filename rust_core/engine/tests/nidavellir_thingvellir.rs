//! Thingvellir (docs/rules/thingvellir.md): the expansion's parameters and components in the Rust core.

use meeplex_engine::games::nidavellir::data::*;
use meeplex_engine::games::nidavellir::NidavellirGame;
use meeplex_engine::{Game, GameError, ParamValue, Params};

fn params(pairs: &[(&str, ParamValue)]) -> Params {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect()
}

fn refused(pairs: &[(&str, ParamValue)]) -> bool {
    matches!(
        NidavellirGame::new(&params(pairs)),
        Err(GameError::InvalidState(_))
    )
}

#[test]
fn base_params_unchanged_without_thingvellir() {
    let g = NidavellirGame::new(&params(&[("thingvellir", ParamValue::Bool(false))])).unwrap();
    let keys: Vec<&str> = g.params().keys().map(|k| k.as_str()).collect();
    assert_eq!(keys, ["first_game", "players", "warrior_bonus_at_zero"]);
    assert_eq!(g.num_distinct_actions(), 157);
    assert_eq!(g.max_chance_outcomes(), 23);
    assert_eq!(g.observation_shape(), vec![225 + 216 * 2]);
    // The interpretation keys at their defaults are accepted.
    assert!(NidavellirGame::new(&params(&[
        ("enlist_each_turn", ParamValue::Bool(false)),
        ("enlist_chooser", ParamValue::Str("most".into())),
        ("two_player_camp_discard", ParamValue::Bool(true)),
    ]))
    .is_ok());
}

#[test]
fn interpretation_keys_refused_without_thingvellir() {
    assert!(refused(&[("enlist_each_turn", ParamValue::Bool(true))]));
    assert!(refused(&[(
        "enlist_chooser",
        ParamValue::Str("lowest_gem".into())
    )]));
    assert!(refused(&[(
        "two_player_camp_discard",
        ParamValue::Bool(false)
    )]));
    assert!(refused(&[(
        "enlist_chooser",
        ParamValue::Str("bogus".into())
    )]));
    assert!(refused(&[("enlist_chooser", ParamValue::Int(1))]));
    assert!(refused(&[("thingvellir", ParamValue::Int(1))]));
    assert!(refused(&[("enlist_each_turn", ParamValue::Int(0))]));
    assert!(refused(&[("thingvelir", ParamValue::Bool(true))]));
}

#[test]
fn thingvellir_data() {
    let tv = &data().tv;
    assert_eq!(tv.camp_keys.len(), CAMP_CARDS);
    assert_eq!(tv.camp_keys[0], "draupnir");
    assert_eq!(tv.camp_keys[6], "w6e8");
    assert_eq!(tv.camp_keys[23], "w9e11b");
    assert_eq!(tv.camp_size, 5);
    for m in 0..CAMP_CARDS {
        assert_eq!(tv.camp_age[m], if m < 12 { 1 } else { 2 });
        let is_merc = (6..12).contains(&m) || m >= 18;
        assert_eq!(tv.camp_mercenary[m] != NONE, is_merc, "{m}");
    }
    // he8: Hunter or Explorer 8 (T15).
    let he8 = tv.camp_mercenary[8] as usize;
    assert_eq!(tv.merc_class[he8], [HUNTER as u8, EXPLORER as u8]);
    assert_eq!(tv.merc_points[he8], [0, 8]);
    assert_eq!(tv.merc_card[11], 23);
    assert_eq!(
        tv.hero_keys,
        ["andumia", "holda", "khrad", "jarika", "olwyn", "zolkur"]
    );
    assert_eq!(tv.hero_points, [12, 12, 4, 8, 9, 10]);
}
