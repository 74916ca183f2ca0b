"""The conformance suite (DESIGN.md, "Testing"): invariants every state of every game must satisfy.

``check_state(state, game)`` checks one state; ``run_conformance(game, seeds)`` plays seeded random games
(DESIGN's "random step" with the shared PRNG) and checks every state along the way. Nothing here knows a
particular game: everything comes from the state API, so a new game is covered by registering it.

Works for both engines: the Rust-backed states and the oracle's states, as long as each is given its own
game object (the engine's ``Rng`` class is found from the game's module).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import numpy as np

from .. import CHANCE, TERMINAL
from .._protocols import GameLike, RngLike, StateLike
from ..errors import IllegalActionError

# Probabilities are floats computed from integer weights; anything looser than this is a real mismatch.
_PROB_TOL = 1e-9


class ConformanceError(AssertionError):
    """A state broke a conformance rule. The message names the rule, the game, the seed and the history."""


@dataclass
class ConformanceReport:
    """What ``run_conformance`` covered, so that a test can insist that terminal states were reached."""

    games: int = 0
    steps: int = 0
    terminal: int = 0
    chance_nodes: int = 0
    lengths: list[int] = field(default_factory=list)


def rng_class_for(game: object) -> Callable[[int], RngLike]:
    """The ``Rng`` class of the engine that made ``game`` (an engine's methods may insist on its own type)."""
    module = type(game).__module__ or ""
    if module.startswith("meeplex.oracle"):
        from .. import oracle

        return oracle.Rng
    import meeplex

    return meeplex.Rng


def random_action(state: StateLike, rng: RngLike) -> int | None:
    """DESIGN's random step: the action it takes from ``state`` with ``rng``, or None at the end.

    At a chance node: ``r = below(W)`` over the outcomes sorted by id, the first whose running total of
    weights exceeds ``r``. At a decision: ``legal_actions()[below(len(legal_actions()))]``.
    """
    if state.is_terminal():
        return None
    if state.is_chance_node():
        weights = sorted(state.chance_weights())
        r = rng.below(sum(w for _, w in weights))
        running = 0
        for action, weight in weights:
            running += weight
            if running > r:
                return action
        raise AssertionError("unreachable: r < W")
    legal = state.legal_actions()
    return legal[rng.below(len(legal))]


def _fail(message: str) -> None:
    raise ConformanceError(message)


def _check(cond: bool, message: str) -> None:
    if not cond:
        raise ConformanceError(message)


def _is_int(x: object) -> bool:
    # bool is an int subclass but never a valid action, weight or player.
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def _check_player(state: StateLike, game: GameLike) -> int:
    player = state.current_player()
    n = game.num_players()
    _check(_is_int(player), f"current_player() is {player!r}, not an int")
    _check(player in (CHANCE, TERMINAL) or 0 <= player < n, f"current_player() {player} out of range")
    _check(state.is_terminal() == (player == TERMINAL), "is_terminal() disagrees with current_player()")
    _check(state.is_chance_node() == (player == CHANCE), "is_chance_node() disagrees with current_player()")
    return int(player)


def _check_legal_actions(state: StateLike, game: GameLike, player: int) -> list[int]:
    legal = state.legal_actions()
    _check(all(_is_int(a) for a in legal), f"legal_actions() holds a non-int: {legal!r}")
    _check(list(legal) == sorted(set(legal)), f"legal_actions() not sorted or has duplicates: {legal}")
    if player == TERMINAL:
        _check(len(legal) == 0, f"legal actions at a terminal state: {legal}")
        return []
    _check(len(legal) > 0, "no legal action at a non-terminal state")
    bound = game.max_chance_outcomes() if player == CHANCE else game.num_distinct_actions()
    _check(0 <= legal[0] and legal[-1] < bound, f"legal action out of 0..{bound}: {legal}")
    return [int(a) for a in legal]


def _check_mask(state: StateLike, game: GameLike, player: int, legal: list[int]) -> None:
    mask = np.asarray(state.legal_actions_mask())
    _check(mask.dtype == np.int8, f"legal_actions_mask() dtype is {mask.dtype}, not int8")
    size = game.max_chance_outcomes() if player == CHANCE else game.num_distinct_actions()
    _check(mask.shape == (size,), f"legal_actions_mask() shape {mask.shape}, expected ({size},)")
    _check(set(np.unique(mask).tolist()) <= {0, 1}, "legal_actions_mask() holds values other than 0/1")
    _check(np.flatnonzero(mask).tolist() == legal, "legal_actions_mask() disagrees with legal_actions()")


def _check_notation(state: StateLike, legal: list[int]) -> None:
    texts = [state.action_to_string(a) for a in legal]
    _check(all(isinstance(t, str) and t for t in texts), f"action_to_string gave a non-string: {texts!r}")
    _check(len(set(texts)) == len(texts), f"action strings not unique: {texts}")
    for action, text in zip(legal, texts, strict=True):
        back = state.string_to_action(text)
        _check(back == action, f"string_to_action({text!r}) = {back!r}, expected {action}")


def _check_chance(state: StateLike, legal: list[int]) -> None:
    weights = state.chance_weights()
    outcomes = state.chance_outcomes()
    _check([a for a, _ in weights] == legal, f"chance_weights() actions {weights} differ from {legal}")
    _check([a for a, _ in outcomes] == legal, f"chance_outcomes() actions {outcomes} differ from {legal}")
    _check(all(_is_int(w) and w > 0 for _, w in weights), f"chance weights not positive ints: {weights}")
    total = sum(int(w) for _, w in weights)
    probs = [p for _, p in outcomes]
    _check(
        all(isinstance(p, float) and p > 0 for p in probs), f"chance probabilities not floats > 0: {probs}"
    )
    _check(abs(sum(probs) - 1.0) < _PROB_TOL, f"chance probabilities sum to {sum(probs)}, not 1")
    for (action, w), p in zip(weights, probs, strict=True):
        _check(abs(p - w / total) < _PROB_TOL, f"outcome {action}: probability {p} but weight {w}/{total}")


def _illegal_candidates(game: GameLike, player: int, legal: list[int]) -> list[int]:
    """A few ids the state must refuse: in range but not legal, just out of range, negative."""
    bound = game.max_chance_outcomes() if player == CHANCE else game.num_distinct_actions()
    legal_set = set(legal)  # once: a board game has tens of thousands of ids
    first = next((a for a in range(bound) if a not in legal_set), None)
    last = next((a for a in range(bound - 1, -1, -1) if a not in legal_set), None)
    picks = [a for a in dict.fromkeys((first, last)) if a is not None]
    return picks + [game.num_distinct_actions(), -1]


def _check_illegal_refused(
    state: StateLike, game: GameLike, player: int, legal: list[int], before: str
) -> None:
    for action in _illegal_candidates(game, player, legal):
        try:
            state.apply_action(action)
        except IllegalActionError:
            pass
        except BaseException as exc:  # noqa: BLE001 - a panic or TypeError here is exactly what we look for
            _fail(f"apply_action({action}) raised {type(exc).__name__}: {exc}, not IllegalActionError")
        else:
            _fail(f"apply_action({action}) accepted an illegal action (legal: {legal})")
        _check(state.serialize() == before, f"a refused apply_action({action}) changed the state")


def _check_clone(state: StateLike, legal: list[int], before: str) -> None:
    copy = state.clone()
    _check(copy is not state, "clone() returned the same object")
    _check(copy.serialize() == before, "clone().serialize() differs from the original")
    _check(list(copy.history()) == list(state.history()), "clone().history() differs from the original")
    if legal:
        copy.apply_action(legal[-1])
        _check(state.serialize() == before, "applying an action to a clone changed the original")
        _check(copy.serialize() != before, "apply_action on the clone left its serialization unchanged")


def _check_round_trip(state: StateLike, game: GameLike, before: str) -> None:
    _check(isinstance(before, str), f"serialize() returned {type(before).__name__}, not str")
    again = game.deserialize_state(before)
    _check(again.serialize() == before, "serialize -> deserialize_state -> serialize changed the text")
    _check(list(again.history()) == list(state.history()), "deserialize_state lost the history")
    _check(again.current_player() == state.current_player(), "deserialize_state changed current_player()")
    _check(
        list(again.legal_actions()) == list(state.legal_actions()), "deserialize_state changed legal_actions"
    )


def _check_observations(state: StateLike, game: GameLike) -> None:
    shape = tuple(game.observation_shape())
    for seat in range(game.num_players()):
        obs = np.asarray(state.observation_tensor(seat))
        _check(obs.shape == shape, f"observation_tensor({seat}) shape {obs.shape}, expected {shape}")
        _check(obs.dtype == np.float32, f"observation_tensor({seat}) dtype {obs.dtype}, not float32")
        _check(bool(np.all(np.isfinite(obs))), f"observation_tensor({seat}) is not finite")
        _check(isinstance(state.observation_string(seat), str), f"observation_string({seat}) not a str")
        _check(isinstance(state.information_state_string(seat), str), f"information_state_string({seat})")


def _check_returns(state: StateLike, game: GameLike, player: int) -> None:
    n = game.num_players()
    returns = list(state.returns())
    scores = list(state.scores())
    _check(len(returns) == n, f"returns() has {len(returns)} entries for {n} seats")
    _check(len(scores) == n, f"scores() has {len(scores)} entries for {n} seats")
    _check(all(math.isfinite(s) for s in scores), f"scores() not finite: {scores}")
    if player != TERMINAL:
        _check(all(r == 0.0 for r in returns), f"returns() before the end: {returns}")
        return
    _check(all(0.0 <= r <= 1.0 for r in returns), f"returns() out of [0, 1]: {returns}")
    total = sum(returns)
    _check(abs(total - 1.0) < _PROB_TOL or abs(total) < _PROB_TOL, f"returns() sum to {total}, not 1 or 0")


def _observation_view(state: StateLike, seat: int) -> tuple[bytes, str, str]:
    return (
        np.asarray(state.observation_tensor(seat)).tobytes(),
        state.observation_string(seat),
        state.information_state_string(seat),
    )


def _check_no_leak(state: StateLike, game: GameLike, perfect_information: bool | None, seed: int) -> None:
    """Two resamples for seat p must look the same to p as the real state does (DESIGN: no leak)."""
    rng_cls = rng_class_for(game)
    before = state.serialize()
    for seat in range(game.num_players()):
        view = _observation_view(state, seat)
        first = state.resample_from_infostate(seat, rng_cls(seed))
        second = state.resample_from_infostate(seat, rng_cls(seed + 1))
        for which, other in (("first", first), ("second", second)):
            _check(
                _observation_view(other, seat) == view,
                f"resample_from_infostate({seat}) ({which}) gives seat {seat} a different observation",
            )
            _check(other.current_player() == state.current_player(), "a resample changed current_player()")
            if perfect_information:
                _check(other.serialize() == before, f"perfect information, yet resample({seat}) differs")
        _check(state.serialize() == before, f"resample_from_infostate({seat}) changed the original state")


def perfect_information_of(game: object) -> bool | None:
    """The game's own claim of perfect information, where it makes one (attribute or method); else None."""
    claim = getattr(game, "perfect_information", None)
    if callable(claim):
        claim = claim()
    return claim if isinstance(claim, bool) else None


def check_state(
    state: StateLike, game: GameLike, *, perfect_information: bool | None = None, seed: int = 0
) -> None:
    """Check every conformance rule on one state; raise ``ConformanceError`` naming the first broken rule.

    ``perfect_information``: True makes the no-leak check also insist that a resample equals the state
    (DESIGN: "games with no hidden facts return a clone"); None asks the game (``perfect_information_of``).
    ``seed`` seeds the resampling generators.
    """
    if perfect_information is None:
        perfect_information = perfect_information_of(game)
    before = state.serialize()
    player = _check_player(state, game)
    legal = _check_legal_actions(state, game, player)
    _check_mask(state, game, player, legal)
    if player == CHANCE:
        _check_chance(state, legal)
    _check_notation(state, legal)
    _check_returns(state, game, player)
    _check_observations(state, game)
    _check_clone(state, legal, before)
    _check_round_trip(state, game, before)
    _check_illegal_refused(state, game, player, legal, before)
    _check_no_leak(state, game, perfect_information, seed)
    _check(state.serialize() == before, "the checks themselves changed the state (a getter mutates it)")


def _describe(game: GameLike) -> str:
    from .._params import game_string

    return game_string(game.name, game.params)


def run_conformance(
    game: GameLike,
    seeds: Iterable[int],
    *,
    max_steps: int | None = None,
    check_every: int = 1,
    perfect_information: bool | None = None,
) -> ConformanceReport:
    """Play one random game per seed (DESIGN's random step) and ``check_state`` along the way.

    ``max_steps`` stops a game early (to bound the time of long games); ``check_every`` checks only every
    k-th state (the last state of a game is always checked). Also checks that ``history()`` records every
    applied action and that a whole game stays within ``max_game_length()``. Raises ``ConformanceError``
    with the game string, the seed and the history that reproduces the failure.
    """
    report = ConformanceReport()
    rng_cls = rng_class_for(game)
    bound = game.max_game_length()
    for seed in seeds:
        state = game.new_initial_state()
        rng = rng_cls(seed)
        applied: list[int] = []
        try:
            _check(list(state.history()) == [], "a new initial state has a non-empty history")
            while True:
                done = state.is_terminal() or (max_steps is not None and len(applied) >= max_steps)
                if done or len(applied) % check_every == 0:
                    check_state(state, game, perfect_information=perfect_information, seed=seed)
                report.chance_nodes += state.is_chance_node()
                if done:
                    break
                action = random_action(state, rng)
                assert action is not None, "a random step from a state that is not terminal"
                state.apply_action(action)
                applied.append(action)
                _check(list(state.history()) == applied, "history() is not the list of applied actions")
                _check(len(applied) <= bound, f"the game is longer than max_game_length() = {bound}")
        except Exception as exc:  # noqa: BLE001 - any failure is reported with its reproducing history
            raise ConformanceError(
                f"{_describe(game)} seed={seed} after {len(applied)} actions: {exc}\n  history={applied}"
            ) from exc
        report.games += 1
        report.steps += len(applied)
        report.terminal += state.is_terminal()
        report.lengths.append(len(applied))
    return report


__all__ = [
    "CHANCE",
    "TERMINAL",
    "ConformanceError",
    "ConformanceReport",
    "check_state",
    "perfect_information_of",
    "random_action",
    "rng_class_for",
    "run_conformance",
]
