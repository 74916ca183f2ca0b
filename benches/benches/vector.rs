//! VectorCore throughput: one step of n games as `VectorGame.step` does it (validate the actions, step, write
//! observations, masks, rewards, terminations and seats to move into reused buffers).
//! Run: `cargo bench -p meeplex-benches --bench vector`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use meeplex_engine::registry::GAME_IDS;
use meeplex_engine::vector::{AutoReset, ObsElem, ObserveOutputs, StepOutputs, VectorCore};
use meeplex_engine::{AnyGame, Params};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// The index of the first 1 of a 0/1 mask row (0 if none), eight bytes at a time. The picking is the agent's
/// work and runs on the caller's thread alone (scanned a byte at a time it was 13-15% of a Flipology step,
/// whose legal ids start at 60 in its arrangement phase, when the rows timed it with the step).
fn first_legal(row: &[i8]) -> usize {
    let mut eights = row.chunks_exact(8);
    for (k, eight) in (&mut eights).enumerate() {
        let word = u64::from_le_bytes(std::array::from_fn(|j| eight[j] as u8));
        if word != 0 {
            return k * 8 + word.trailing_zeros() as usize / 8;
        }
    }
    let done = row.len() / 8 * 8;
    eights
        .remainder()
        .iter()
        .position(|&m| m != 0)
        .map_or(0, |j| done + j)
}

/// One VectorCore at n games of `game` on `threads` threads, stepped with the first legal action of each game,
/// observations as `T`.
fn bench_one<T: ObsElem>(c: &mut Criterion, game: &AnyGame, n: usize, threads: usize, label: &str) {
    let mut core = VectorCore::with_threads(game.clone(), n, 1, AutoReset::NextStep, threads);
    let (obs_len, acts, players) = (
        game.observation_len(),
        game.num_distinct_actions(),
        game.num_players(),
    );
    let mut obs = vec![T::default(); n * obs_len];
    let mut masks = vec![0i8; n * acts];
    let mut rewards = vec![0f32; n * players];
    let mut done = vec![false; n];
    let mut seats = vec![0i32; n];
    let mut actions = vec![0i64; n];
    core.observe(ObserveOutputs {
        observations: &mut obs,
        masks: &mut masks,
        players: &mut seats,
    });
    let mut group = c.benchmark_group(format!("{}/vector{label}", game.id()));
    group.throughput(Throughput::Elements(n as u64));
    group.bench_function(format!("{n}"), |b| {
        // Only the step is timed, as `bench_vector_dtype.py` times only `VectorGame.step`: choosing the actions
        // is the agent's work, on the caller's thread while the vector's own threads wait.
        b.iter_custom(|iters| {
            let mut timed = Duration::ZERO;
            for _ in 0..iters {
                // The first legal action of each game: a fixed, cheap policy.
                for i in 0..n {
                    actions[i] = first_legal(&masks[i * acts..(i + 1) * acts]) as i64;
                }
                let start = Instant::now();
                core.try_step(
                    &actions,
                    StepOutputs {
                        observations: &mut obs,
                        masks: &mut masks,
                        rewards: &mut rewards,
                        terminated: &mut done,
                        players: &mut seats,
                    },
                )
                .expect("the first legal action is legal");
                timed += start.elapsed();
                black_box(&obs);
            }
            timed
        })
    });
    group.finish();
}

/// The stores alone of one step's observations: every row of an (n x len) buffer cleared and one value
/// written, as a game's writer does at the least, on `threads` threads (rayon, as `VectorCore` uses). No
/// `VectorGame` of `len`-value rows can step faster than this on the machine: `ceiling/<id>/<threads>t`.
fn bench_ceiling<T: Copy + Default + From<u8> + Send>(
    c: &mut Criterion,
    id: &str,
    len: usize,
    threads: usize,
) {
    let n = 1024;
    let mut rows = vec![T::default(); n * len];
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool");
    let mut group = c.benchmark_group(format!("ceiling/{id}"));
    group.throughput(Throughput::Elements(n as u64));
    group.bench_function(format!("{threads}t"), |b| {
        b.iter(|| {
            let chunk = n.div_ceil(threads * 8) * len;
            pool.in_place_scope(|scope| {
                for part in rows.chunks_mut(chunk) {
                    scope.spawn(move |_| {
                        for row in part.chunks_mut(len) {
                            row.fill(T::default());
                            row[len / 2] = T::from(1);
                        }
                    });
                }
            });
            black_box(&rows);
        })
    });
    group.finish();
}

fn vector(c: &mut Criterion) {
    for id in GAME_IDS {
        let game = AnyGame::new(id, &Params::new()).expect("default parameters");
        for n in [1usize, 64, 1024] {
            bench_one::<f32>(c, &game, n, 1, "");
            // `<id>/vector_u8/<n>`: uint8 observations, for the games whose default parameters allow them.
            if game.observation_fits_u8() {
                bench_one::<u8>(c, &game, n, 1, "_u8");
            }
        }
        // Issue 14's games: `<id>/vector_2threads/1024`, the same step on two threads (wall time; the machine
        // has two cores), and the ceiling the stores of their observations set.
        if !id.starts_with("flip") {
            continue;
        }
        bench_one::<f32>(c, &game, 1024, 2, "_2threads");
        if game.observation_fits_u8() {
            bench_one::<u8>(c, &game, 1024, 2, "_u8_2threads");
        }
        for threads in [1, 2] {
            bench_ceiling::<f32>(c, id, game.observation_len(), threads);
            if game.observation_fits_u8() {
                bench_ceiling::<u8>(c, &format!("{id}_u8"), game.observation_len(), threads);
            }
        }
    }
}

criterion_group!(benches, vector);
criterion_main!(benches);
