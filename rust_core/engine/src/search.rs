//! Search agents generic over [`State`]: UCT Monte Carlo tree search with chance nodes sampled by their exact
//! weights, and single-observer information-set MCTS (each iteration searches one determinization drawn by
//! `resample_from_infostate`, and a child's prior is its availability count, not its parent's visits).

use crate::playout::{random_action, Scratch};
use crate::{Rng, State, CHANCE, TERMINAL};

#[derive(Clone, Debug)]
pub struct MctsConfig {
    pub simulations: u32,
    pub uct_c: f64,
    /// Random steps a rollout may take before it stops and asks the game for `heuristic_value`.
    pub max_rollout_steps: u32,
    /// Resample hidden facts from the searching seat's information state at every iteration (ISMCTS).
    pub information_sets: bool,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            simulations: 200,
            uct_c: 1.4,
            max_rollout_steps: 200,
            information_sets: false,
        }
    }
}

const NONE: u32 = u32::MAX;

struct Node {
    action: u32,
    /// The seat that chose `action` (CHANCE for an outcome), whose return this node accumulates.
    mover: i32,
    first_child: u32,
    next_sibling: u32,
    visits: u32,
    available: u32,
    reward: f64,
}

impl Node {
    fn new(action: u32, mover: i32) -> Self {
        Node {
            action,
            mover,
            first_child: NONE,
            next_sibling: NONE,
            visits: 0,
            available: 0,
            reward: 0.0,
        }
    }
}

/// A reusable searcher: keeps its buffers between moves.
pub struct Mcts {
    pub config: MctsConfig,
    nodes: Vec<Node>,
    scratch: Scratch,
    legal: Vec<u32>,
    path: Vec<u32>,
    returns: Vec<f64>,
    /// The lowest and highest mean return of any node of this search, which UCT rescales to 0..1.
    q_low: f64,
    q_high: f64,
}

impl Mcts {
    pub fn new(config: MctsConfig) -> Self {
        Mcts {
            config,
            nodes: Vec::new(),
            scratch: Scratch::default(),
            legal: Vec::new(),
            path: Vec::new(),
            returns: Vec::new(),
            q_low: f64::INFINITY,
            q_high: f64::NEG_INFINITY,
        }
    }

    fn child(&self, node: u32, action: u32) -> u32 {
        let mut c = self.nodes[node as usize].first_child;
        while c != NONE && self.nodes[c as usize].action != action {
            c = self.nodes[c as usize].next_sibling;
        }
        c
    }

    fn add_child(&mut self, node: u32, action: u32, mover: i32) -> u32 {
        let id = self.nodes.len() as u32;
        let mut n = Node::new(action, mover);
        n.next_sibling = self.nodes[node as usize].first_child;
        self.nodes.push(n);
        self.nodes[node as usize].first_child = id;
        id
    }

    /// The action the searching seat should take at `root` (a decision node of that seat), or None if the
    /// state is not a decision node: the most visited root action, ties to the lowest id (for determinism).
    pub fn choose<S: State>(&mut self, root: &S, num_players: usize, rng: &mut Rng) -> Option<u32> {
        let visits = self.root_visits(root, num_players, rng)?;
        visits
            .iter()
            .max_by_key(|&&(a, n)| (n, std::cmp::Reverse(a)))
            .map(|&(a, _)| a)
    }

    /// The search policy at `root`: each legal action with its share of the root's visits (summing to 1),
    /// sorted by action id; None if the state is not a decision node. It is the same search as `choose`
    /// (same random draws), so the action `choose` would take is the first one with the highest share.
    /// A root with a single legal action is not searched and gets all of the mass.
    pub fn policy<S: State>(
        &mut self,
        root: &S,
        num_players: usize,
        rng: &mut Rng,
    ) -> Option<Vec<(u32, f64)>> {
        let visits = self.root_visits(root, num_players, rng)?;
        let total: u64 = visits.iter().map(|&(_, n)| n as u64).sum();
        let uniform = 1.0 / visits.len().max(1) as f64;
        Some(
            visits
                .iter()
                .map(|&(a, n)| {
                    let share = if total == 0 {
                        uniform
                    } else {
                        n as f64 / total as f64
                    };
                    (a, share)
                })
                .collect(),
        )
    }

    /// Search `root` and return each root legal action (sorted) with its visit count; a root with at most
    /// one legal action is not searched (its count is 0).
    fn root_visits<S: State>(
        &mut self,
        root: &S,
        num_players: usize,
        rng: &mut Rng,
    ) -> Option<Vec<(u32, u32)>> {
        let me = root.current_player();
        if me < 0 {
            return None;
        }
        root.legal_actions(&mut self.legal);
        let root_legal = self.legal.clone();
        if root_legal.len() <= 1 {
            return Some(root_legal.iter().map(|&a| (a, 0)).collect());
        }
        self.nodes.clear();
        self.nodes.push(Node::new(NONE, TERMINAL));
        self.returns.resize(num_players, 0.0);
        self.q_low = f64::INFINITY;
        self.q_high = f64::NEG_INFINITY;
        for _ in 0..self.config.simulations {
            let mut state = if self.config.information_sets {
                root.resample_from_infostate(me as usize, rng)
            } else {
                root.clone()
            };
            self.simulate(&mut state, rng);
        }
        Some(
            root_legal
                .iter()
                .map(|&a| {
                    let c = self.child(0, a);
                    (
                        a,
                        if c == NONE {
                            0
                        } else {
                            self.nodes[c as usize].visits
                        },
                    )
                })
                .collect(),
        )
    }

    fn simulate<S: State>(&mut self, state: &mut S, rng: &mut Rng) {
        self.path.clear();
        self.path.push(0);
        let mut node = 0u32;
        loop {
            let player = state.current_player();
            if player == TERMINAL {
                break;
            }
            if player == CHANCE {
                let Some(outcome) = random_action(state, rng, &mut self.scratch) else {
                    break;
                };
                let mut c = self.child(node, outcome);
                if c == NONE {
                    c = self.add_child(node, outcome, CHANCE);
                }
                state.apply_unchecked(outcome);
                node = c;
                self.path.push(node);
                continue;
            }
            state.legal_actions(&mut self.legal);
            let mut untried = 0usize;
            for &a in &self.legal {
                let c = self.child(node, a);
                if c == NONE {
                    untried += 1;
                } else {
                    self.nodes[c as usize].available += 1;
                }
            }
            if untried > 0 {
                // Expand one untried action, chosen at random, then roll out from it.
                let pick = rng.below(untried as u64) as usize;
                let action = self
                    .legal
                    .iter()
                    .copied()
                    .filter(|&a| self.child(node, a) == NONE)
                    .nth(pick)
                    .unwrap_or(self.legal[0]);
                let c = self.add_child(node, action, player);
                self.nodes[c as usize].available += 1;
                state.apply_unchecked(action);
                self.path.push(c);
                break;
            }
            let c_uct = self.config.uct_c;
            // Mean returns rescaled by the spread seen in this search (as MuZero does): a game's heuristic
            // may move a seat's estimate by a few hundredths per good move, which an exploration term sized
            // for returns of 0..1 would drown. With one value seen so far, the means are used as they are.
            let (low, spread) = if self.q_high > self.q_low {
                (self.q_low, self.q_high - self.q_low)
            } else {
                (0.0, 1.0)
            };
            let mut best = NONE;
            let mut best_score = f64::NEG_INFINITY;
            for &a in &self.legal {
                let c = self.child(node, a);
                let n = &self.nodes[c as usize];
                let visits = n.visits.max(1) as f64;
                let q = (n.reward / visits - low) / spread;
                let score = q + c_uct * ((n.available.max(1) as f64).ln() / visits).sqrt();
                if score > best_score {
                    best_score = score;
                    best = c;
                }
            }
            let action = self.nodes[best as usize].action;
            state.apply_unchecked(action);
            node = best;
            self.path.push(node);
        }
        self.rollout(state, rng);
        for &n in &self.path {
            let node = &mut self.nodes[n as usize];
            node.visits += 1;
            if node.mover >= 0 {
                node.reward += self
                    .returns
                    .get(node.mover as usize)
                    .copied()
                    .unwrap_or(0.0);
                let q = node.reward / node.visits as f64;
                self.q_low = self.q_low.min(q);
                self.q_high = self.q_high.max(q);
            }
        }
    }

    fn rollout<S: State>(&mut self, state: &mut S, rng: &mut Rng) {
        let mut steps = 0;
        while steps < self.config.max_rollout_steps {
            match random_action(state, rng, &mut self.scratch) {
                Some(a) => state.apply_unchecked(a),
                None => break,
            }
            steps += 1;
        }
        if state.is_terminal() {
            state.returns(&mut self.returns);
        } else {
            state.heuristic_value(&mut self.returns);
        }
    }
}
