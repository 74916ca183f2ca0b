"""Search agents whose loops run in Rust without the GIL (``meeplex._core.MctsAgent``).

``MCTSAgent`` is UCT with chance nodes sampled by their exact weights and random rollouts cut after
``rollout`` steps, where the game's heuristic stands in for the returns. ``ISMCTSAgent`` is single-observer
information-set MCTS: every iteration searches a state drawn by ``resample_from_infostate`` for the seat
to move, so it never looks at facts that seat cannot know.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from .. import _core


class MCTSAgent:
    """UCT Monte Carlo tree search: ``sims`` simulations per move, exploration constant ``c``."""

    information_sets = False

    def __init__(self, seed: int = 0, sims: int = 1000, c: float = 1.4, rollout: int = 100) -> None:
        self._search = _core.MctsAgent(
            simulations=sims,
            uct_c=c,
            max_rollout_steps=rollout,
            seed=seed,
            information_sets=self.information_sets,
        )

    def step(self, state: _core.State) -> int:
        if not isinstance(state, _core.State):
            raise TypeError("search agents play the Rust engines' states (meeplex.make), not oracle states")
        return self._search.step(state)

    def policy(self, state: _core.State) -> npt.NDArray[np.float32]:
        """The search policy for the seat to move: the root's visit distribution, float32 of length
        ``game.num_distinct_actions()``, summing to 1 over the legal actions (0 elsewhere).

        It runs the same search as ``step`` and draws the same random numbers, so
        ``int(policy(state).argmax())`` is the action ``step(state)`` would have taken (the most visited,
        ties to the lowest id), and an agent can record the policy and play that action from one search.
        A state with a single legal action is not searched: that action gets all of the mass.
        """
        if not isinstance(state, _core.State):
            raise TypeError("search agents play the Rust engines' states (meeplex.make), not oracle states")
        return self._search.policy(state)


class ISMCTSAgent(MCTSAgent):
    """Single-observer ISMCTS over ``resample_from_infostate`` (for games with hidden information)."""

    information_sets = True
