"""Bounds (issue 9): every game ends within ``max_game_length()``, and absurd parameters are refused at once.

- Over seeded random games of every registered game and variant, on both engines (many seeds on the Rust core,
  a few on the oracle), every game reaches its end and no game is longer than ``max_game_length()``; so do
  games played to the end from a random point (``rollout``) and from an agent's choices.
- Absurd parameters (no players or a million, negative or astronomical counts and limits, unknown keys and
  variants, values of the wrong type, a megabyte of text) are refused with ``InvalidStateError`` (or
  ``InvalidNotationError`` for a game string that does not parse), by both engines, quickly and without an
  allocation proportional to the parameter: the peak resident memory of the process does not move and every
  refusal takes well under a second (a loose bound on purpose: a loop or an allocation proportional to a
  million or 2**63 would blow it by orders of magnitude).

Nothing here names a game; the games and parameters come from each engine's registry.
"""

from __future__ import annotations

import resource
import sys
import time

import pytest

import meeplex
import meeplex.oracle
from meeplex import _core
from meeplex.errors import InvalidNotationError, InvalidStateError
from meeplex.testing import random_action
from parameter_variants import accepts, named_variants

MAKE = {"rust": meeplex.make, "oracle": meeplex.oracle.make}
PLAY = {"rust": meeplex.play_random, "oracle": meeplex.oracle.play_random}
GAMES = {"rust": meeplex.games(), "oracle": meeplex.oracle.games()}
CASES = [(engine, game_id) for engine in ("rust", "oracle") for game_id in GAMES[engine]]
SEEDS = {"rust": range(120), "oracle": range(2)}
_INT_PROBE = (0, 1, 2, 3, 4, 5, 6, 8, 10)


def _ids(case: tuple[str, str]) -> str:
    return "-".join(case)


def variants(make, game_id: str) -> list[dict]:
    """The defaults; each bool flipped; each int parameter at every accepted probe value (0..10 and the
    default's neighbours); the named variants. Only what the engine accepts."""
    defaults = make(game_id).params
    found: list[dict] = [{}]
    for key, default in sorted(defaults.items()):
        if isinstance(default, bool):
            values = [not default]
        elif isinstance(default, int):
            values = sorted({*_INT_PROBE, default - 1, default + 1, 2 * default} - {default})
        else:
            values = []
        found += [{key: v} for v in values if accepts(make, game_id, {key: v})]
    found += [v for v in named_variants(game_id) if accepts(make, game_id, v)]
    unique: dict[str, dict] = {}
    for params in found:
        unique.setdefault(meeplex.game_string(game_id, params), params)
    return list(unique.values())


# --- max_game_length --------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_seeded_games_end_within_max_game_length(case):
    engine, game_id = case
    longest = (0, None)
    for params in variants(MAKE[engine], game_id):
        game = MAKE[engine](game_id, **params)
        bound = game.max_game_length()
        assert isinstance(bound, int) and 0 < bound < 2**63, f"{game}: max_game_length() = {bound!r}"
        for seed in SEEDS[engine]:
            state = PLAY[engine](game, seed)
            length = len(state.history())
            # The Rust loop stops at the bound: a game that has not ended there is caught by is_terminal.
            assert state.is_terminal(), f"{game} seed {seed}: not over after {length} actions (bound {bound})"
            assert length <= bound, f"{game} seed {seed}: {length} actions > max_game_length() = {bound}"
            longest = max(longest, (length / bound, f"{meeplex.game_string(game_id, params)} seed {seed}"))
    print(
        f"bounds: {engine} {game_id}: longest game used {longest[0]:.2%} of max_game_length() ({longest[1]})"
    )


@pytest.mark.parametrize("game_id", GAMES["rust"])
def test_rollouts_and_agents_end_within_max_game_length(game_id):
    """Games finished by ``rollout`` from random points, and games whose decisions an agent makes."""
    for params in variants(meeplex.make, game_id):
        game = meeplex.make(game_id, **params)
        bound = game.max_game_length()
        for seed in range(6):
            rng = meeplex.Rng(seed)
            state = game.new_initial_state()
            for _ in range(seed * 7):
                if state.is_terminal():
                    break
                state.apply_action(random_action(state, rng))
            state.rollout(rng)
            assert state.is_terminal() and len(state.history()) <= bound, f"{game} rollout, seed {seed}"
        agent = _core.MctsAgent(simulations=2, max_rollout_steps=5, seed=1)
        state, rng = game.new_initial_state(), meeplex.Rng(1)
        while not state.is_terminal():
            assert len(state.history()) < bound, f"{game}: an agent's game passed max_game_length()"
            state.apply_action(random_action(state, rng) if state.is_chance_node() else agent.step(state))


# --- Absurd parameters ------------------------------------------------------------------------------------

ABSURD_INTS = (-(10**9), -1, 10**6, 10**9, 2**31, 2**63 - 1, 2**63, 2**64, 10**100, -(2**64))
WRONG_TYPES = (None, 1.5, float("nan"), [2], {"a": 1}, b"2", object())
MEGA = "x" * 2**20


def absurd_params(make, game_id: str) -> list[tuple[str, dict]]:
    """(label, params) each of which must be refused: every int parameter at absurd values (and players at 0
    and a million), every parameter with values of the wrong type, every text parameter unknown words and a
    megabyte, unknown keys."""
    defaults = make(game_id).params
    cases: list[tuple[str, dict]] = []
    for key, default in sorted(defaults.items()):
        if isinstance(default, bool):
            wrong: tuple = (0, 1, "true", "yes") + WRONG_TYPES
        elif isinstance(default, int):
            values = ABSURD_INTS + ((0,) if key == "players" else ())
            cases += [(f"{key}={v}", {key: v}) for v in values]
            wrong = (True, False, "2", str(default)) + WRONG_TYPES
        else:
            wrong = (0, True, "", "no_such_variant", "\x00", MEGA) + WRONG_TYPES
        cases += [(f"{key}={v!r}"[:60], {key: v}) for v in wrong]
    cases += [
        ("unknown key", {"no_such_parameter": 1}),
        ("variant", {"variant": "no_such_variant"}) if "variant" not in defaults else ("", {}),
        ("megabyte key", {MEGA: 1}),
        ("empty key", {"": 1}),
    ]
    return [(label, params) for label, params in cases if params]


def peak_rss_mb() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20 if sys.platform == "darwin" else peak / 2**10


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_absurd_parameters_are_refused_at_once(case):
    engine, game_id = case
    make = MAKE[engine]
    cases = absurd_params(make, game_id)
    peak = peak_rss_mb()
    slowest = (0.0, "")
    for label, params in cases:
        start = time.perf_counter()
        try:
            game = make(game_id, **params)
        except InvalidStateError:
            pass
        except BaseException as exc:  # noqa: BLE001 - a panic is a BaseException, and a finding
            pytest.fail(f"make({game_id!r}, {label}) raised {type(exc).__name__}: {str(exc)[:200]}")
        else:
            pytest.fail(f"make({game_id!r}, {label}) was accepted: {game}")
        slowest = max(slowest, (time.perf_counter() - start, label))
    grown = peak_rss_mb() - peak
    print(
        f"bounds: {engine} {game_id}: {len(cases)} absurd parameter sets refused;"
        f" slowest {slowest[0] * 1e3:.1f} ms"
        f" ({slowest[1]}), peak RSS {grown:+.1f} MB"
    )
    assert slowest[0] < 1.0, f"refusing {slowest[1]} took {slowest[0]:.2f} s"
    assert grown < 64, f"the peak resident memory grew {grown:.0f} MB while refusing absurd parameters"


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_absurd_game_strings_are_refused(case):
    """The same through game strings, where values are text: InvalidStateError, or InvalidNotationError for
    text that does not parse."""
    engine, game_id = case
    make = MAKE[engine]
    defaults = make(game_id).params
    texts = [f"{game_id}(no_such_parameter=1)", f"{game_id}(players=1000000)", f"{game_id}(players=0)"]
    for key, default in sorted(defaults.items()):
        if isinstance(default, int) and not isinstance(default, bool):
            texts += [f"{game_id}({key}={v})" for v in (-1, -(10**9), 10**9, 2**64, 10**100)]
        texts += [f"{game_id}({key}=)", f"{game_id}({key}=1.5)", f"{game_id}({key}={key})"]
    for text in texts:
        try:
            game = make(text)
        except (InvalidStateError, InvalidNotationError):
            continue
        except BaseException as exc:  # noqa: BLE001 - see above
            pytest.fail(f"make({text!r}) raised {type(exc).__name__}: {str(exc)[:200]}")
        pytest.fail(f"make({text!r}) was accepted: {game}")


@pytest.mark.parametrize("engine", ["rust", "oracle"])
def test_finding_huge_int_in_a_game_string(engine):
    """An int of more than 4300 digits in a game string comes out as Python's plain ValueError ("Exceeds the
    limit (4300 digits) for integer string conversion") from ``meeplex._params``, shared by both engines:
    it is text that does not parse as a parameter value, so InvalidNotationError (or InvalidStateError)."""
    game_id = GAMES[engine][0]
    text = f"{game_id}(players={'9' * 5000})"
    try:
        MAKE[engine](text)
    except (InvalidNotationError, InvalidStateError):
        pass
    except ValueError as exc:
        pytest.fail(f"make({game_id}(players=<5000 digits>)) raised a plain ValueError: {str(exc)[:100]}")
