"""The shared PRNG of meeplex (DESIGN.md, "The shared PRNG"): SplitMix64, bit for bit, and the random step.

The Rust core has the same generator, so that "random game number 7" is the same game in both engines.
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING

from meeplex.errors import IllegalActionError

if TYPE_CHECKING:
    from meeplex._protocols import RngLike, StateLike

_MASK64 = (1 << 64) - 1
_GOLDEN_GAMMA = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB


class Rng:
    """SplitMix64: ``Rng(seed)`` starts with ``state = seed mod 2**64``.

    >>> rng = Rng(0)
    >>> hex(rng.next_u64())
    '0xe220a8397b1dcdaf'
    """

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        # Any int as operator.index reads it (numpy integers too), except a bool: the Rust Rng does the same.
        if isinstance(seed, bool):
            raise TypeError("the seed must be an int, not bool")
        self.state = operator.index(seed) & _MASK64

    def next_u64(self) -> int:
        """The next 64-bit output."""
        self.state = (self.state + _GOLDEN_GAMMA) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * _MIX1) & _MASK64
        z = ((z ^ (z >> 27)) * _MIX2) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """``next_u64() % n`` (no rejection step, exactly as the contract says); ``n`` must be >= 1.

        ``n`` is an int as ``operator.index`` reads it, except a bool (docs/architecture.md, "Input policy"):
        anything else is a TypeError, ``n < 1`` a ValueError; the Rust ``Rng`` does the same.
        """
        if isinstance(n, bool):
            raise TypeError("below(n) needs an int n, not bool")
        n = operator.index(n)
        if n < 1:
            raise ValueError(f"below(n) needs n >= 1, got {n}")
        return self.next_u64() % n

    def clone(self) -> Rng:
        """An independent generator in the same state."""
        other = Rng(0)
        other.state = self.state
        return other

    def __repr__(self) -> str:
        return f"Rng(state={self.state:#018x})"


def random_step(state: StateLike, rng: RngLike) -> int:
    """Apply one random step (DESIGN.md, "The shared PRNG") and return the action taken.

    At a chance node: the outcomes sorted by action id, with integer weights summing to ``W``; draw
    ``r = rng.below(W)`` and take the first outcome whose running total exceeds ``r``. At a decision node:
    ``legal_actions()[rng.below(len(legal_actions()))]``. At the end of the game: IllegalActionError, and
    nothing is drawn. Every oracle state's ``random_step(rng)`` method is this function.
    """
    if state.is_terminal():
        raise IllegalActionError("random_step on a terminal state")
    if state.is_chance_node():
        outcomes = sorted(state.chance_weights())
        total = sum(weight for _, weight in outcomes)
        r = rng.below(total)
        running = 0
        for action, weight in outcomes:
            running += weight
            if running > r:
                state.apply_action(action)
                return action
        raise AssertionError("chance weights do not add up")  # pragma: no cover
    legal = state.legal_actions()
    action = legal[rng.below(len(legal))]
    state.apply_action(action)
    return action


__all__ = ["Rng", "random_step"]
