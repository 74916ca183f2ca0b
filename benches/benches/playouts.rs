//! Random playouts and clone cost of every registered game (default parameters), in ns per step.
//! Run: `cargo bench -p meeplex-benches --bench playouts` (or `make bench`).

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use meeplex_engine::playout::{random_playout, Scratch};
use meeplex_engine::registry::GAME_IDS;
use meeplex_engine::{AnyGame, Params, Rng};
use std::hint::black_box;

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

fn playouts(c: &mut Criterion) {
    for id in GAME_IDS {
        let game = AnyGame::new(id, &Params::new()).expect("default parameters");
        let steps = steps_per_game(&game, 50);
        let mut group = c.benchmark_group(format!("{id}/playout"));
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

        // A mid-game state: the cost of clone where search spends it.
        let mut mid = game.new_initial_state();
        random_playout(&mut mid, &mut Rng::new(7), &mut scratch, 200);
        c.bench_function(&format!("{id}/clone"), |b| {
            b.iter_batched_ref(
                || mid.clone(),
                |s| black_box(s.clone()),
                BatchSize::SmallInput,
            )
        });
        println!(
            "{id}: state size {} bytes, {steps} steps per random game",
            std::mem::size_of_val(&mid)
        );
    }
}

// ----- Flipology: its variants and seat counts (issue 6), through the registry like the rows above ----------

/// Flipology's default game (Nature, two seats) is short and mostly deal; these cover the longer games.
const FLIPOLOGY_CASES: &[(&str, &[(&str, i64)])] = &[
    ("nature_4p", &[("players", 4)]),
    ("nature_6p", &[("players", 6)]),
    ("variant_2p", &[("variant", 1)]),
    ("great_tree_4p", &[("variant", 2), ("players", 4)]),
];

fn flipology(c: &mut Criterion) {
    println!(
        "flipology: FlipologyState {} bytes, AnyState {} bytes",
        std::mem::size_of::<meeplex_engine::games::flipology::FlipologyState>(),
        std::mem::size_of::<meeplex_engine::AnyState>()
    );
    for (name, params) in FLIPOLOGY_CASES {
        let mut p = Params::new();
        for &(k, v) in params.iter() {
            p.insert(k.to_string(), meeplex_engine::ParamValue::Int(v));
        }
        let game = AnyGame::new("flipology", &p).expect("valid parameters");
        let steps = steps_per_game(&game, 50);
        let mut group = c.benchmark_group(format!("flipology_{name}/playout"));
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
        c.bench_function(&format!("flipology_{name}/clone"), |b| {
            b.iter_batched_ref(
                || mid.clone(),
                |s| black_box(s.clone()),
                BatchSize::SmallInput,
            )
        });
        println!("flipology_{name}: {steps} steps per random game");
    }
}

/// Clone of each game's bare state (next to `{id}/clone` above, the same clone through the registry's
/// `AnyState`), and the sizes
/// of every state type and of `AnyState` (the registry enum is as large as its largest variant).
fn clone_sizes(c: &mut Criterion) {
    use meeplex_engine::registry::AnyState;
    use std::mem::size_of;

    fn bare<S: Clone>(c: &mut Criterion, name: &str, s: &S) {
        c.bench_function(name, |b| {
            b.iter_batched_ref(
                || s.clone(),
                |s| black_box(s.clone()),
                BatchSize::SmallInput,
            )
        });
    }

    println!("AnyState: {} bytes", size_of::<AnyState>());
    let mut scratch = Scratch::default();
    for id in GAME_IDS {
        let game = AnyGame::new(id, &Params::new()).expect("default parameters");
        let mut mid = game.new_initial_state();
        random_playout(&mut mid, &mut Rng::new(7), &mut scratch, 200);
        let name = format!("{id}/clone_bare");
        #[allow(unreachable_patterns)]
        let size = match &mid {
            AnyState::FlipCity(s) => (bare(c, &name, s), size_of_val(s)).1,
            AnyState::FlipFamily(s) => (bare(c, &name, s), size_of_val(s)).1,
            AnyState::FlipPickTowers(s) => (bare(c, &name, s), size_of_val(s)).1,
            AnyState::Flipology(s) => (bare(c, &name, s), size_of_val(s)).1,
            _ => 0,
        };
        println!(
            "{id}: bare state {size} bytes, AnyState {} bytes",
            size_of_val(&mid)
        );
    }
}

criterion_group!(benches, playouts, flipology);
criterion_group!(sizes, clone_sizes);
criterion_main!(benches, sizes);
