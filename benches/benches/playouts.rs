//! Random playouts and clone cost of every registered game (default parameters, plus the extra parameter sets
//! below), in ns per step; and each game's state size, bare and as the registry's `AnyState`.
//! Run: `cargo bench -p meeplex-benches --bench playouts` (or `make bench`).

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use meeplex_engine::playout::{random_action, random_playout, Scratch};
use meeplex_engine::registry::{AnyState, GAME_IDS};
use meeplex_engine::{AnyGame, ParamValue, Params, Rng, State};
use std::hint::black_box;
use std::mem::size_of_val;

/// Parameter sets measured besides every game's defaults, as (label, game id, parameters): Carcassonne with
/// its options, with two expansions, with The Princess and the Dragon and with all three; Flipology's default game (Nature, two seats) is short and mostly
/// deal, so its longer games; and a Flip City supply mixing piles of both sets (issue 3).
const EXTRA: &[(&str, &str, &str)] = &[
    (
        "carcassonne_river_strategic",
        "carcassonne",
        "river=true,strategic=true",
    ),
    (
        "carcassonne_expansions",
        "carcassonne",
        "inns_cathedrals=true,traders_builders=true",
    ),
    (
        "carcassonne_princess_dragon",
        "carcassonne",
        "princess_dragon=true",
    ),
    (
        "carcassonne_all_expansions",
        "carcassonne",
        "inns_cathedrals=true,traders_builders=true,princess_dragon=true",
    ),
    ("flipology_nature_4p", "flipology", "players=4"),
    ("flipology_nature_6p", "flipology", "players=6"),
    ("flipology_variant_2p", "flipology", "variant=1"),
    (
        "flipology_great_tree_4p",
        "flipology",
        "variant=2,players=4",
    ),
    ("lineit_5p", "lineit", "players=5"),
    ("memoir44_home_hills", "memoir44", "scenario=home_hills"),
    ("nidavellir_5p", "nidavellir", "players=5"),
    ("nidavellir_thingvellir", "nidavellir", "thingvellir=true"),
    (
        "nidavellir_thingvellir_5p",
        "nidavellir",
        "thingvellir=true,players=5",
    ),
    ("viticulture_4p", "viticulture", "players=4"),
    ("viticulture_6p", "viticulture", "players=6"),
    (
        "flip_city_mixed",
        "flip_city",
        "supply=cs+park+market+wind+camp",
    ),
];

/// `"k=v,k=v"` with int or word values (no game string parser in the engine crate: that lives in Python).
fn params(text: &str) -> Params {
    text.split(',')
        .filter_map(|kv| kv.split_once('='))
        .map(|(k, v)| {
            let value = match v {
                "true" | "false" => ParamValue::Bool(v == "true"),
                _ => v
                    .parse()
                    .map_or_else(|_| ParamValue::Str(v.to_string()), ParamValue::Int),
            };
            (k.to_string(), value)
        })
        .collect()
}

fn steps_per_game(game: &AnyGame, games: u64) -> u64 {
    let mut scratch = Scratch::default();
    (0..games)
        .map(|seed| {
            let mut s = game.new_initial_state();
            random_playout(
                &mut s,
                &mut Rng::new(seed),
                &mut scratch,
                game.max_game_length(),
            )
        })
        .sum::<u64>()
        / games
}

fn clone_bench<S: Clone>(c: &mut Criterion, name: &str, s: &S) {
    c.bench_function(name, |b| {
        b.iter_batched_ref(
            || s.clone(),
            |s| black_box(s.clone()),
            BatchSize::SmallInput,
        )
    });
}

/// `{label}/playout/random`, `{label}/clone` (through the registry) and `{label}/clone_bare` (the game's own
/// state type) on a state halfway through a random game: the cost of clone where search spends it.
fn measure(c: &mut Criterion, label: &str, game: &AnyGame) {
    let steps = steps_per_game(game, 50);
    let mut group = c.benchmark_group(format!("{label}/playout"));
    group.throughput(Throughput::Elements(steps));
    let mut seed = 0u64;
    let mut scratch = Scratch::default();
    group.bench_function("random", |b| {
        b.iter(|| {
            seed += 1;
            let mut s = game.new_initial_state();
            black_box(random_playout(
                &mut s,
                &mut Rng::new(seed),
                &mut scratch,
                game.max_game_length(),
            ))
        })
    });
    group.finish();

    let mut mid = game.new_initial_state();
    random_playout(&mut mid, &mut Rng::new(7), &mut scratch, steps / 2);
    clone_bench(c, &format!("{label}/clone"), &mid);
    let bare = format!("{label}/clone_bare");
    #[allow(unreachable_patterns)]
    let size = match &mid {
        AnyState::Carcassonne(s) => (clone_bench(c, &bare, s), size_of_val(&**s)).1,
        AnyState::Caboodle(s) => (clone_bench(c, &bare, &**s), size_of_val(&**s)).1,
        AnyState::FlipCity(s) => (clone_bench(c, &bare, s), size_of_val(s)).1,
        AnyState::FlipFamily(s) => (clone_bench(c, &bare, s), size_of_val(s)).1,
        AnyState::FlipPickTowers(s) => (clone_bench(c, &bare, s), size_of_val(s)).1,
        AnyState::Flipology(s) => (clone_bench(c, &bare, s), size_of_val(s)).1,
        AnyState::ForbiddenIsland(s) => (clone_bench(c, &bare, s), size_of_val(s)).1,
        AnyState::LineIt(s) => (clone_bench(c, &bare, s), size_of_val(s)).1,
        AnyState::Memoir44(s) => (clone_bench(c, &bare, &**s), size_of_val(&**s)).1,
        AnyState::Nidavellir(s) => (clone_bench(c, &bare, &**s), size_of_val(&**s)).1,
        _ => 0,
    };
    if let AnyState::Carcassonne(_) = &mid {
        // Legal placements of a state in phase place, halfway through a random game.
        let mut at = mid.clone();
        while at.current_player() < 0 && !at.is_terminal() {
            let a = random_action(&at, &mut Rng::new(1), &mut scratch).expect("an outcome");
            at.apply_unchecked(a);
        }
        let mut out = Vec::new();
        c.bench_function(&format!("{label}/legal_actions"), |b| {
            b.iter(|| {
                at.legal_actions(&mut out);
                black_box(out.len())
            })
        });
    }
    println!(
        "{label}: {steps} steps per random game; state {size} bytes, AnyState {} bytes",
        size_of_val(&mid)
    );
}

fn playouts(c: &mut Criterion) {
    for id in GAME_IDS {
        let game = AnyGame::new(id, &Params::new()).expect("default parameters");
        measure(c, id, &game);
    }
    for (label, id, text) in EXTRA {
        let game = AnyGame::new(id, &params(text)).expect("valid parameters");
        measure(c, label, &game);
    }
}

criterion_group!(benches, playouts);
criterion_main!(benches);
