"""Lockstep differential testing: the Rust core against the pure-Python oracle (DESIGN.md, "Testing").

Both engines are built from the same game string and fed the same actions; after every action (and at the
start) everything the contract makes comparable is compared: the serialized state, the current player,
legal actions, chance weights, action strings, returns, scores and every seat's observation tensor.
The first difference is returned as a ``Divergence`` that prints the history reproducing it.

``meeplex fuzz`` calls ``compare_random_game``, ``replay_and_compare`` and ``shrink``: keep their signatures.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TypeVar, cast

import numpy as np

from .._protocols import GameLike, StateLike
from ..errors import GameError, IllegalActionError
from .conformance import random_action

_T = TypeVar("_T")

_MAX_DIFFS = 8  # differing JSON paths shown in one report; more would bury the first one
_GAME_ERROR_NAMES = {GameError.__name__} | {cls.__name__ for cls in GameError.__subclasses__()}


@dataclass
class Divergence:
    """The first point where the two engines disagree, with the actions that lead there."""

    game: str
    seed: int | None
    actions: list[int]
    what: str
    rust: object
    oracle: object
    start: str | None = None  # the serialized position the actions start from, if not the initial state

    def replay_snippet(self) -> str:
        """A one-line shell command that replays the history and prints the divergence again."""
        start = "" if self.start is None else f", start={self.start!r}"
        code = (
            "from meeplex.testing.differential import replay_and_compare; "
            f"print(replay_and_compare({self.game!r}, {list(self.actions)!r}{start}))"
        )
        return f"python -c {shlex.quote(code)}"

    def __str__(self) -> str:
        seed = "" if self.seed is None else f" (random game, seed {self.seed})"
        return "\n".join(
            [
                f"rust and oracle diverge on {self.game}{seed} after {len(self.actions)} actions:"
                f" {self.what}",
                f"  rust:    {self.rust!r}",
                f"  oracle:  {self.oracle!r}",
                f"  history: {list(self.actions)}",
                f"  replay:  {self.replay_snippet()}",
            ]
        )


@dataclass(frozen=True)
class _Raised:
    """A call that raised, compared by exception class only (the messages are free text)."""

    kind: str
    message: str = field(compare=False)

    def __repr__(self) -> str:
        return f"raised {self.kind}({self.message!r})"


def _call(fn: Callable[..., _T], *args: object) -> _T | _Raised:
    try:
        return fn(*args)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:  # noqa: BLE001 - a pyo3 PanicException is a BaseException and a finding
        return _Raised(type(exc).__name__, str(exc))


def _json_diffs(rust: object, oracle: object, path: str = "") -> list[tuple[str, object, object]]:
    """The paths where two decoded JSON values differ (dict keys, list indices), the first few only."""
    if isinstance(rust, dict) and isinstance(oracle, dict):
        out: list[tuple[str, object, object]] = []
        for key in sorted(set(rust) | set(oracle)):
            sub = f"{path}.{key}" if path else key
            out += _json_diffs(rust.get(key, "<missing>"), oracle.get(key, "<missing>"), sub)
        return out
    if isinstance(rust, list) and isinstance(oracle, list) and len(rust) == len(oracle):
        out = []
        for i, (a, b) in enumerate(zip(rust, oracle, strict=True)):
            out += _json_diffs(a, b, f"{path}[{i}]")
        return out
    # type() too: JSON true and 1 are different values though Python calls them equal.
    if type(rust) is type(oracle) and rust == oracle:
        return []
    return [(path or "<root>", rust, oracle)]


def _serialize_divergence(rust_text: object, oracle_text: object) -> tuple[str, object, object] | None:
    if rust_text == oracle_text:
        return None
    if isinstance(rust_text, str) and isinstance(oracle_text, str):
        try:
            diffs = _json_diffs(json.loads(rust_text), json.loads(oracle_text))
        except ValueError:
            diffs = []
        if diffs:
            shown = diffs[:_MAX_DIFFS]
            paths = ", ".join(p for p, _, _ in shown) + (" ..." if len(diffs) > _MAX_DIFFS else "")
            return (
                f"serialize() differs at {paths}",
                {p: r for p, r, _ in shown},
                {p: o for p, _, o in shown},
            )
        return "serialize() differs only in formatting", rust_text, oracle_text
    return "serialize()", rust_text, oracle_text


def _array_divergence(name: str, rust: object, oracle: object) -> tuple[str, object, object] | None:
    if isinstance(rust, _Raised) or isinstance(oracle, _Raised):
        return None if rust == oracle else (name, rust, oracle)
    a, b = np.asarray(rust), np.asarray(oracle)
    if a.shape != b.shape or a.dtype != b.dtype:
        return f"{name} shape/dtype", (a.shape, str(a.dtype)), (b.shape, str(b.dtype))
    if np.array_equal(a, b):
        return None
    idx = np.flatnonzero(a.reshape(-1) != b.reshape(-1))[:_MAX_DIFFS].tolist()
    flat_a, flat_b = a.reshape(-1), b.reshape(-1)
    return (
        f"{name} differs at flat indices {idx}",
        {i: float(flat_a[i]) for i in idx},
        {i: float(flat_b[i]) for i in idx},
    )


def _normalise(value: object) -> object:
    """Plain Python values, so that a tuple from one engine equals a list from the other."""
    if isinstance(value, _Raised):
        return value
    if isinstance(value, (list, tuple)):
        return [_normalise(v) for v in value]
    if isinstance(value, (np.generic, np.ndarray)):
        return value.tolist()
    return value


def compare_games(rust_game: GameLike, oracle_game: GameLike) -> tuple[str, object, object] | None:
    """The first difference between two game objects' sizes and parameters, or None."""
    for name in ("num_players", "num_distinct_actions", "max_chance_outcomes", "max_game_length"):
        a, b = _call(getattr(rust_game, name)), _call(getattr(oracle_game, name))
        if a != b:
            return f"game.{name}()", a, b
    a, b = _call(rust_game.observation_shape), _call(oracle_game.observation_shape)
    if _normalise(a) != _normalise(b):
        return "game.observation_shape()", a, b
    for name in ("name", "params"):
        a, b = getattr(rust_game, name, None), getattr(oracle_game, name, None)
        if a != b:
            return f"game.{name}", a, b
    return None


def compare_states(rust: StateLike, oracle: StateLike, num_players: int) -> tuple[str, object, object] | None:
    """The first difference between two states, as (what, rust value, oracle value), or None.

    Any exception from a query is a finding too, even when both engines raise the same one.
    """
    found = _serialize_divergence(_call(rust.serialize), _call(oracle.serialize))
    if found:
        return found
    simple = [
        ("current_player()", "current_player"),
        ("is_terminal()", "is_terminal"),
        ("is_chance_node()", "is_chance_node"),
        ("legal_actions()", "legal_actions"),
    ]
    for what, method in simple:
        a, b = _normalise(_call(getattr(rust, method))), _normalise(_call(getattr(oracle, method)))
        if a != b or isinstance(a, _Raised):
            return what, a, b
    # legal_actions() was compared above and did not raise: a list (or whatever iterable the engine gave).
    legal = cast("Iterable[object]", _normalise(_call(rust.legal_actions)))
    if _call(rust.is_chance_node) is True:
        a, b = _normalise(_call(rust.chance_weights)), _normalise(_call(oracle.chance_weights))
        if a != b or isinstance(a, _Raised):
            return "chance_weights()", a, b
    for action in legal:
        a, b = _call(rust.action_to_string, action), _call(oracle.action_to_string, action)
        if a != b or isinstance(a, _Raised):
            return f"action_to_string({action})", a, b
    for what, method in (("returns()", "returns"), ("scores()", "scores")):
        a, b = _normalise(_call(getattr(rust, method))), _normalise(_call(getattr(oracle, method)))
        if a != b or isinstance(a, _Raised):
            return what, a, b
    for seat in range(num_players):
        name = f"observation_tensor({seat})"
        a, b = _call(rust.observation_tensor, seat), _call(oracle.observation_tensor, seat)
        if isinstance(a, _Raised) and a == b:
            return name, a, b
        found = _array_divergence(name, a, b)
        if found:
            return found
    return None


class Lockstep:
    """A Rust state and an oracle state of the same game, advanced together and compared after each step.

    ``Lockstep(game_string)`` builds both games and initial states; ``divergence`` is set (and stays set)
    at the first difference. ``step(action)`` applies one action to both and returns the divergence or None.
    ``start``: a serialized state to begin from instead (each engine deserializes it; both refusing it with
    InvalidStateError leaves ``rejected`` set and no states).
    """

    def __init__(self, game_string: str, seed: int | None = None, start: str | None = None) -> None:
        import meeplex
        import meeplex.oracle

        self.game_string = game_string
        self.seed = seed
        self.start = start
        self.actions: list[int] = []
        self.divergence: Divergence | None = None
        self.rust: StateLike | None = None
        self.oracle: StateLike | None = None
        self.rejected = False
        self.rust_game = _call(meeplex.make, game_string)
        self.oracle_game = _call(meeplex.oracle.make, game_string)
        a, b = self.rust_game, self.oracle_game
        if isinstance(a, _Raised) or isinstance(b, _Raised):
            # Both refusing the same game string with a GameError is agreement, not a divergence.
            if not (isinstance(a, _Raised) and a == b and a.kind in _GAME_ERROR_NAMES):
                self._diverge("make(game_string)", a, b)
            return
        found = compare_games(a, b)
        if found:
            self._diverge(*found)
            return
        self.num_players = a.num_players()
        if start is None:
            what, rust, oracle = "new_initial_state()", _call(a.new_initial_state), _call(b.new_initial_state)
        else:
            what, rust, oracle = (
                "deserialize_state(start)",
                _call(a.deserialize_state, start),
                _call(b.deserialize_state, start),
            )
        if isinstance(rust, _Raised) or isinstance(oracle, _Raised):
            if (
                isinstance(rust, _Raised)
                and rust == oracle
                and rust.kind == "InvalidStateError"
                and start is not None
            ):
                self.rejected = True
            else:
                self._diverge(what, rust, oracle)
            return
        self.rust, self.oracle = rust, oracle
        self._compare()

    @property
    def live(self) -> bool:
        """Both engines built, no divergence yet, and the game not over."""
        return self.divergence is None and self.rust is not None and self.rust.is_terminal() is False

    def _diverge(self, what: str, rust: object, oracle: object) -> Divergence:
        self.divergence = Divergence(
            self.game_string, self.seed, list(self.actions), what, rust, oracle, self.start
        )
        return self.divergence

    def _compare(self) -> Divergence | None:
        assert self.rust is not None and self.oracle is not None, "compared only once both states exist"
        found = compare_states(self.rust, self.oracle, self.num_players)
        return self._diverge(*found) if found else None

    def step(self, action: int) -> Divergence | None:
        """Apply ``action`` to both states and compare. Both refusing it (IllegalActionError) is fine."""
        if self.divergence is not None or self.rust is None:
            return self.divergence
        assert self.oracle is not None, "the two states are set together"
        self.actions.append(action)
        a = _call(self.rust.apply_action, action)
        b = _call(self.oracle.apply_action, action)
        if a != b:
            return self._diverge(f"apply_action({action})", a, b)
        if isinstance(a, _Raised):
            self.actions.pop()  # refused by both: not part of the history
            if a.kind != IllegalActionError.__name__:
                return self._diverge(f"apply_action({action}) raised an unexpected exception", a, b)
        return self._compare()


def compare_random_game(game_string: str, seed: int) -> Divergence | None:
    """Play one random game (DESIGN's random step with ``meeplex.Rng(seed)``, chosen on the Rust state)
    on both engines in lockstep; return the first divergence, or None if they agree to the end."""
    import meeplex

    lock = Lockstep(game_string, seed)
    if not lock.live:
        return lock.divergence
    assert not isinstance(lock.rust_game, _Raised), "a live lockstep has both games"
    rng = meeplex.Rng(seed)
    bound = lock.rust_game.max_game_length()
    while lock.live:
        if len(lock.actions) >= bound:
            return lock._diverge("the game did not end within max_game_length()", bound, bound)
        action = _call(random_action, lock.rust, rng)
        if isinstance(action, _Raised):
            return lock._diverge("a random step failed on the Rust state", action, None)
        assert action is not None, "a live lockstep is not at the end of the game"
        lock.step(action)
    return lock.divergence


def replay_and_compare(game_string: str, actions: list[int], start: str | None = None) -> Divergence | None:
    """Apply ``actions`` to both engines in lockstep, comparing after each; the first divergence or None.
    ``start``: a serialized state to begin from instead of the initial state."""
    lock = Lockstep(game_string, start=start)
    for action in actions:
        if lock.divergence is not None or lock.rust is None:
            break
        lock.step(action)
    return lock.divergence


def shrink(game_string: str, actions: list[int], start: str | None = None) -> list[int]:
    """The shortest prefix of ``actions`` on which the engines still diverge.

    The comparison runs after every action, so a diverging prefix keeps diverging when extended: the first
    divergence of the whole history is the shortest such prefix. The prefix search below confirms it (and
    copes with an engine that fails only sometimes). If nothing diverges, ``actions`` comes back unchanged.
    """
    actions = list(actions)
    found = replay_and_compare(game_string, actions, start)
    if found is None:
        return actions
    best = list(found.actions)
    lo, hi = 0, len(best)  # invariant: best[:hi] diverges
    while lo < hi:
        mid = (lo + hi) // 2
        if replay_and_compare(game_string, best[:mid], start) is not None:
            hi = mid
        else:
            lo = mid + 1
    return best[:hi]


__all__ = [
    "Divergence",
    "Lockstep",
    "compare_games",
    "compare_random_game",
    "compare_states",
    "replay_and_compare",
    "shrink",
]
