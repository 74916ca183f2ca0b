//! `Mcts::policy` (the root's visit distribution) over every registered game: a distribution over the legal
//! actions, and the same search as `choose`, whose action is the policy's first maximum.

use meeplex_engine::playout::{random_action, Scratch};
use meeplex_engine::registry::GAME_IDS;
use meeplex_engine::search::{Mcts, MctsConfig};
use meeplex_engine::{AnyGame, Params, Rng, State};

#[test]
fn policy_is_the_distribution_of_the_search_that_choose_runs() {
    for id in GAME_IDS {
        let game = AnyGame::new(id, &Params::new()).expect("the default game");
        let mut rng = Rng::new(7);
        let mut scratch = Scratch::default();
        let mut state = game.new_initial_state();
        let mut legal = Vec::new();
        let mut decisions = 0;
        while !state.is_terminal() && decisions < 6 {
            if state.current_player() >= 0 {
                state.legal_actions(&mut legal);
                for information_sets in [false, true] {
                    let config = MctsConfig {
                        simulations: 30,
                        max_rollout_steps: 20,
                        information_sets,
                        ..MctsConfig::default()
                    };
                    let players = game.num_players();
                    let policy = Mcts::new(config.clone())
                        .policy(&state, players, &mut Rng::new(3))
                        .expect("a decision node");
                    let chosen = Mcts::new(config).choose(&state, players, &mut Rng::new(3));
                    let actions: Vec<u32> = policy.iter().map(|&(a, _)| a).collect();
                    assert_eq!(
                        actions, legal,
                        "{id}: the policy covers exactly the legal actions"
                    );
                    let total: f64 = policy.iter().map(|&(_, p)| p).sum();
                    assert!(
                        (total - 1.0).abs() < 1e-9,
                        "{id}: the shares sum to {total}"
                    );
                    let best = policy
                        .iter()
                        .map(|&(_, p)| p)
                        .fold(f64::NEG_INFINITY, f64::max);
                    let first_max = policy.iter().find(|&&(_, p)| p == best).map(|&(a, _)| a);
                    assert_eq!(
                        chosen, first_max,
                        "{id}: choose is the policy's first maximum"
                    );
                }
                decisions += 1;
            }
            match random_action(&state, &mut rng, &mut scratch) {
                Some(action) => state.apply_unchecked(action),
                None => break,
            }
        }
        assert!(decisions > 0, "{id}: no decision reached");
    }
}
