"""The uniform random agent and the shared chance step, both exactly DESIGN.md's "random step".

Because both draw from the shared PRNG in the documented way, a game driven by one ``Rng`` through
``resolve_chance`` and ``RandomAgent``-style choices reproduces ``meeplex.play_random`` bit for bit.
"""

from __future__ import annotations

from meeplex import Rng
from meeplex._protocols import StateLike


def random_legal_action(state: StateLike, rng: Rng) -> int:
    """``legal_actions()[rng.below(len)]``: the decision half of the shared random step."""
    legal = state.legal_actions()
    if not legal:
        raise ValueError("no legal action: the state is terminal")
    return legal[rng.below(len(legal))]


def resolve_chance(state: StateLike, rng: Rng) -> int:
    """Pick a chance outcome with the shared PRNG: outcomes sorted by id, ``r = below(W)``, first running
    total above ``r``. Integer weights (not float probabilities) so that every engine picks the same one."""
    outcomes = sorted(state.chance_weights())
    total = sum(weight for _, weight in outcomes)
    if total <= 0:
        raise ValueError("not a chance node: no outcome has a positive weight")
    r = rng.below(total)
    running = 0
    for action, weight in outcomes:
        running += weight
        if running > r:
            return action
    raise AssertionError("unreachable: r < total")  # the loop always returns since r < total


class RandomAgent:
    """Plays a uniformly random legal action, seeded, with the shared PRNG."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.rng = Rng(seed)

    def step(self, state: StateLike) -> int:
        return random_legal_action(state, self.rng)

    def __repr__(self) -> str:
        return f"RandomAgent(seed={self.seed})"
