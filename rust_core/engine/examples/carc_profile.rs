//! Profiling aid: N random Carcassonne games and clones (for callgrind).
use meeplex_engine::playout::{random_playout, Scratch};
use meeplex_engine::{AnyGame, Params, Rng};
use std::hint::black_box;

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(200);
    let game = AnyGame::new("carcassonne", &Params::new()).unwrap();
    let mut scratch = Scratch::default();
    let mut steps = 0;
    let t = std::time::Instant::now();
    for seed in 0..n {
        let mut s = game.new_initial_state();
        steps += random_playout(
            &mut s,
            &mut Rng::new(seed),
            &mut scratch,
            game.max_game_length(),
        );
        black_box(&s);
    }
    let dt = t.elapsed();
    let mut mid = game.new_initial_state();
    random_playout(&mut mid, &mut Rng::new(7), &mut scratch, 106);
    let t2 = std::time::Instant::now();
    for _ in 0..n * 10 {
        black_box(black_box(&mid).clone());
    }
    println!(
        "{n} games, {steps} steps, {:.1} us/game; clone {:.0} ns",
        dt.as_secs_f64() * 1e6 / n as f64,
        t2.elapsed().as_secs_f64() * 1e9 / (n * 10) as f64
    );
}
