//! Tuning aid for Forbidden Island's `heuristic_value` (docs/rules/forbidden_island.md, "Agents"): whole games
//! with one agent at every decision, chance drawn by DESIGN's random step; prints the wins and how the games end.
//!
//! `cargo run --release -p meeplex-engine --example fi_agents -- GAMES SIMS [C] [DIFFICULTY] [PLAYERS]`
//! SIMS 0: random play; 1: greedy (the legal action whose next state the heuristic likes best); more: the
//! engine's UCT search (`search::Mcts`) with SIMS simulations, exploration C (default 1.4) and no rollout.
use meeplex_engine::games::forbidden_island::data::data;
use meeplex_engine::games::forbidden_island::{ForbiddenIslandGame, Outcome};
use meeplex_engine::playout::{random_action, Scratch};
use meeplex_engine::search::{Mcts, MctsConfig};
use meeplex_engine::{Game, ParamValue, Params, Rng, State, CHANCE};
use std::collections::BTreeMap;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |i: usize, d: &str| args.get(i).cloned().unwrap_or_else(|| d.to_string());
    let games: u64 = arg(1, "20").parse().expect("GAMES");
    let sims: u32 = arg(2, "300").parse().expect("SIMS");
    let c: f64 = arg(3, "1.4").parse().expect("C");
    let difficulty = arg(4, "novice");
    let players: i64 = arg(5, "2").parse().expect("PLAYERS");
    let mut p = Params::new();
    p.insert("players".into(), ParamValue::Int(players));
    p.insert("difficulty".into(), ParamValue::Str(difficulty.clone()));
    let game = ForbiddenIslandGame::new(&p).expect("parameters");
    let mut mcts = Mcts::new(MctsConfig {
        simulations: sims,
        uct_c: c,
        max_rollout_steps: 0,
        information_sets: false,
    });
    let (mut wins, mut captured) = (0, 0u32);
    let mut endings: BTreeMap<&str, u32> = BTreeMap::new();
    let start = std::time::Instant::now();
    for g in 0..games {
        let mut s = game.new_initial_state();
        let (mut rng, mut agent_rng) = (Rng::new(g), Rng::new(1 << 32 | g));
        let mut scratch = Scratch::default();
        let mut legal = Vec::new();
        while !s.is_terminal() {
            let a = if s.current_player() == CHANCE || sims == 0 {
                random_action(&s, &mut rng, &mut scratch).expect("an action")
            } else if sims == 1 {
                s.legal_actions(&mut legal);
                let mut best = (f64::MIN, legal[0]);
                for &b in &legal {
                    let mut t = s;
                    t.apply_unchecked(b);
                    let mut v = [0.0; 4];
                    t.heuristic_value(&mut v);
                    if v[0] > best.0 {
                        best = (v[0], b);
                    }
                }
                best.1
            } else {
                mcts.choose(&s, players as usize, &mut agent_rng)
                    .expect("a decision")
            };
            s.apply_unchecked(a);
        }
        let d = data();
        let sunk = |t: u8| s.sunk >> s.pos_of[t as usize] & 1 == 1;
        let ending = if s.outcome == Outcome::Won {
            wins += 1;
            "won"
        } else if s.level >= d.skull {
            "skull"
        } else if sunk(0) {
            "fools_landing"
        } else if (0..4)
            .any(|t| s.captured >> t & 1 == 0 && d.treasure_tiles[t].iter().all(|&x| sunk(x)))
        {
            "treasure"
        } else {
            "drowned"
        };
        *endings.entry(ending).or_insert(0) += 1;
        captured += s.captured.count_ones();
    }
    println!(
        "{difficulty} {players}p sims={sims} c={c}: won {wins}/{games}, mean captured {:.2}, {:.1} s; {endings:?}",
        captured as f64 / games as f64,
        start.elapsed().as_secs_f64()
    );
}
