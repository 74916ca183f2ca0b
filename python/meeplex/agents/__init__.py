"""Agents: objects with ``step(state) -> action`` for the seat to move.

A new agent is one line in ``_REGISTRY``: a name and a constructor ``factory(seed, **options)``. Its
keyword options (with defaults) are what a user may set by name: ``make_agent("mcts:sims=200,c=1.4", seed)``.
The CLI's ``arena``, ``play`` and ``list`` and anything that takes an agent by name pick it up from there.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from typing import Any, Protocol

from .random_agent import RandomAgent, random_legal_action, resolve_chance
from .search import ISMCTSAgent, MCTSAgent


class Agent(Protocol):
    def step(self, state: Any) -> int:
        """The action to apply for the seat to move (never called at a chance or terminal node)."""
        ...


_REGISTRY: dict[str, Callable[..., Agent]] = {
    "random": RandomAgent,
    "mcts": MCTSAgent,
    "ismcts": ISMCTSAgent,
}

_NAME = re.compile(r"^[a-z_][a-z0-9_]*$")
_INT = re.compile(r"^[+-]?\d+$")
_FLOAT = re.compile(r"^[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?$")


def agent_names() -> list[str]:
    """The registered agent names, sorted."""
    return sorted(_REGISTRY)


def _factory(name: str) -> Callable[..., Agent]:
    try:
        return _REGISTRY[name]
    except KeyError:
        raise ValueError(f"unknown agent {name!r} (known: {', '.join(agent_names())})") from None


def agent_options(name: str) -> dict[str, Any]:
    """The options an agent accepts, with their defaults (``inspect.Parameter.empty`` if required)."""
    params = list(inspect.signature(_factory(name)).parameters.values())[1:]  # the first one is the seed
    return {p.name: p.default for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}


def _option_value(text: str) -> int | float | bool | str:
    """Typed like a game string's values, plus floats (an exploration constant is one)."""
    low = text.strip().lower()
    if low in ("true", "false"):
        return low == "true"
    if _INT.match(low):
        return int(low)
    if _FLOAT.match(low):
        return float(low)
    return text.strip()


def parse_agent_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"mcts:sims=200,c=1.4"`` -> ``("mcts", {"sims": 200, "c": 1.4})``; a bare name has no options."""
    name, _, body = spec.strip().partition(":")
    name = name.strip()
    if not _NAME.match(name):
        raise ValueError(f"bad agent {spec!r}: expected name or name:key=value,...")
    options: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in body.split(","))):
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not _NAME.match(key) or not value.strip():
            raise ValueError(f"bad agent option {item!r} in {spec!r}: expected key=value")
        if key in options:
            raise ValueError(f"agent option {key!r} given twice in {spec!r}")
        options[key] = _option_value(value)
    return name, options


def _check_option_type(spec: str, key: str, value: object, default: object) -> None:
    """A value must have its default's type (an int is a fine float), so that ``sims=40:c=2`` (a str)
    is a usage error here rather than a TypeError from inside the agent."""
    if default is inspect.Parameter.empty or default is None:
        return
    want: tuple[type, ...] = (int, float) if type(default) is float else (type(default),)
    if type(value) not in want:
        raise ValueError(f"agent option {key}={value!r} in {spec!r}: expected {type(default).__name__}")


def make_agent(spec: str, seed: int) -> Agent:
    """A fresh agent from a registered name with optional options (``"random"``, ``"mcts:sims=200"``).

    An unknown name or option raises ``ValueError`` naming the known ones; the options are checked against
    the constructor's signature first, so a ``TypeError`` raised inside a constructor is never disguised.
    """
    name, options = parse_agent_spec(spec)
    factory = _factory(name)
    known = agent_options(name)
    for key in options:
        if key not in known:
            accepted = ", ".join(known) or "none"
            raise ValueError(f"agent {name!r} has no option {key!r} (options: {accepted})")
    for key, value in options.items():
        _check_option_type(spec, key, value, known[key])
    try:
        inspect.signature(factory).bind(seed, **options)
    except TypeError as exc:
        raise ValueError(f"agent {spec!r}: {exc}") from None
    return factory(seed, **options)


def split_agent_list(text: str) -> list[str]:
    """Split a comma-separated agent list whose entries may carry comma-separated options:
    ``"mcts:sims=200,c=1.4,random"`` -> ``["mcts:sims=200,c=1.4", "random"]``.

    An item with ``=`` but no ``:`` continues the options of the agent before it (names never hold ``=``).
    """
    specs: list[str] = []
    for item in (part.strip() for part in text.split(",")):
        if "=" in item and ":" not in item and specs and ":" in specs[-1]:
            specs[-1] += "," + item
        else:
            specs.append(item)
    if not all(specs):
        raise ValueError(f"empty agent name in {text!r}")
    return specs


__all__ = [
    "Agent",
    "ISMCTSAgent",
    "MCTSAgent",
    "RandomAgent",
    "agent_names",
    "agent_options",
    "make_agent",
    "parse_agent_spec",
    "random_legal_action",
    "resolve_chance",
    "split_agent_list",
]
