"""Agents: objects with ``step(state) -> action`` for the seat to move.

A new agent is one line in ``_REGISTRY``: a name and a constructor taking a seed. The CLI's arena and
anything else that takes an agent by name pick it up from there.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from .random_agent import RandomAgent, random_legal_action, resolve_chance


class Agent(Protocol):
    def step(self, state: Any) -> int:
        """The action to apply for the seat to move (never called at a chance or terminal node)."""
        ...


_REGISTRY: dict[str, Callable[[int], Agent]] = {
    "random": RandomAgent,
}


def agent_names() -> list[str]:
    """The registered agent names, sorted."""
    return sorted(_REGISTRY)


def make_agent(name: str, seed: int) -> Agent:
    """A fresh agent by registered name; an unknown name raises ``ValueError`` listing the known ones."""
    try:
        factory = _REGISTRY[name]
    except KeyError:
        raise ValueError(f"unknown agent {name!r} (known: {', '.join(agent_names())})") from None
    return factory(seed)


__all__ = ["Agent", "RandomAgent", "agent_names", "make_agent", "random_legal_action", "resolve_chance"]
