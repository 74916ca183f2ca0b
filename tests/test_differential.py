"""The Rust core against the oracle, in lockstep (DESIGN.md, "Differential tests").

Hypothesis draws the game string (every registered game, varied parameters) and the action choices; a
seeded batch plays whole random games. Any difference fails with the history that reproduces it and a
one-line command to replay it.
"""

from __future__ import annotations

import shlex

import pytest
from hypothesis import event, given, note
from hypothesis import strategies as st

import meeplex
import meeplex.oracle
from flip_city_positions import CS, STOP, dump, position, positions, seat, view
from meeplex.testing import check_state, compare_random_game, effort, replay_and_compare, shrink
from meeplex.testing.differential import Divergence, Lockstep
from meeplex.testing.strategies import (
    action_choices,
    draw_action,
    game_strings,
    games_of_both_engines,
    pick,
    seeded_variants,
)

MAX_STEPS = 400


def _report(lock: Lockstep) -> str:
    return str(lock.divergence) if lock.divergence else ""


@given(game_string=game_strings(), choices=action_choices(max_steps=MAX_STEPS))
def test_lockstep_choices(game_string, choices):
    """Both engines follow the same drawn choices (an index into the Rust state's legal actions)."""
    lock = Lockstep(game_string)
    for choice in choices:
        if not lock.live:
            break
        lock.step(pick(lock.rust, choice))
    note(f"history: {lock.actions}")
    assert lock.divergence is None, _report(lock)


@given(game_string=game_strings(), data=st.data())
def test_lockstep_with_illegal_attempts(game_string, data):
    """Drawn actions, now and then an arbitrary id instead: both engines must refuse or accept it alike,
    and a refusal must leave both states as they were (compared right after)."""
    lock = Lockstep(game_string)
    for _ in range(MAX_STEPS):
        if not lock.live:
            break
        if data.draw(st.integers(0, 9), label="try an arbitrary id") == 0:
            limit = lock.rust_game.num_distinct_actions()
            lock.step(data.draw(st.integers(-2, limit + 2), label="arbitrary id"))
        else:
            lock.step(draw_action(data, lock.rust))
    note(f"history: {lock.actions}")
    assert lock.divergence is None, _report(lock)


@given(pos=positions(), choices=action_choices(max_steps=120, min_steps=30))
def test_lockstep_from_random_positions(pos, choices):
    """Both engines read the same hand-built position (both accept it or both refuse it), then follow the
    same choices from there: wins, empty supplies and big turns, which random play never reaches."""
    note(f"start: {dump(pos)}")
    lock = Lockstep(meeplex.game_string("flip_city", pos["params"]), start=dump(pos))
    for choice in choices:
        if not lock.live:
            break
        lock.step(pick(lock.rust, choice))
        if lock.divergence is None:
            # The conformance rules hold away from the states random play reaches too (round trip included).
            check_state(lock.rust, lock.rust_game, perfect_information=True)
            check_state(lock.oracle, lock.oracle_game, perfect_information=True)
    note(f"history: {lock.actions}")
    if lock.rust is not None and lock.rust.is_terminal():
        event("ended with a winner" if sum(lock.rust.returns()) > 0 else "ended without a winner")
    assert lock.divergence is None, _report(lock)
    assert not lock.rejected, "a generated position was refused by both engines: fix the generator"


def test_stop_clears_the_mall_obligation():
    """§4.1 "stop: `forced` is cleared": from a position with the obligation set and an empty deck (accepted
    by both deserializers), both engines agree after ``stop`` and can read back what they wrote. (Found by
    ``test_lockstep_from_random_positions``: the Rust core used to keep ``forced`` into the Building
    phase.)"""
    pos = position(2, seats=[seat(discard=[CS]), seat(deck_known=[CS])], forced=True)
    assert replay_and_compare("flip_city", [STOP], start=dump(pos)) is None
    for make in (meeplex.make, meeplex.oracle.make):
        game = make("flip_city")
        state = game.deserialize_state(dump(pos))
        state.apply_action(STOP)
        assert view(state)["forced"] is False
        game.deserialize_state(state.serialize())


SEEDED = [
    (meeplex.game_string(g, variant), seed)
    for g in games_of_both_engines()
    for variant in seeded_variants(g, effort())
    for seed in range(11, 13 + effort())
]
# Flip City supplies mixing both sets (docs/rules/flip_city_wilderness.md §1.1), the word parameters moved.
SEEDED += [
    ("flip_city(max_turns=30,supply=cs+park+market+wind+camp)", seed) for seed in range(11, 12 + effort())
]
SEEDED += [("flip_city(colours=size,logging_text=printed,max_turns=20,supply=log+hosp+fac+park)", 11)]
SEEDED += [
    ("flip_city_wilderness(max_turns=15,players=3,reservoir_recycle=both,supply=log+off+hosp+fac+park)", 11)
]
SEEDED += [
    ("flip_city_wilderness(colours=none,players=1,supply=cs+park+hosp+off+fac+log+market+wind+camp)", 11)
]
# Memoir '44's home-made scenario (docs/rules/memoir44.md §8): hills, hedgerows, armor and artillery.
SEEDED += [("memoir44(scenario=home_hills)", seed) for seed in range(11, 12 + effort())]
# Viticulture's card readings (docs/rules/viticulture.md §3) and the other end rule.
SEEDED += [
    (
        "viticulture(end_rule=year_end,harvest_expert=harvest_both,importer=draw,max_years=4,players=4,"
        "promoter=vp_only,queen=off)",
        seed,
    )
    for seed in range(11, 12 + effort())
]


@pytest.mark.parametrize(("game_string", "seed"), SEEDED)
def test_seeded_random_games_agree(game_string, seed):
    """Whole random games (DESIGN's random step, ``meeplex.Rng(seed)``), compared after every action."""
    divergence = compare_random_game(game_string, seed)
    assert divergence is None, str(divergence)


def test_both_engines_refuse_the_same_game_strings():
    assert compare_random_game("flip_city(players=9)", 1) is None
    assert compare_random_game("no_such_game", 1) is None
    assert compare_random_game("flip_city(supply=cs+log+hosp+fac)", 1) is None  # FAQ Q4: one colour twice
    assert compare_random_game("flip_city_wilderness(office=true)", 1) is None  # Office and Farmer's Market
    assert compare_random_game("flip_city(supply=cs++hosp)", 1) is None


# --- The harness itself finds and shrinks a divergence ------------------------------------------------------


class _Skewed:
    """An oracle state that hides its last legal action once the history is ``at`` long: a planted bug."""

    def __init__(self, state, at: int):
        self._state, self._at = state, at

    def __getattr__(self, name):
        return getattr(self._state, name)

    def legal_actions(self):
        legal = self._state.legal_actions()
        return legal[:-1] if len(self._state.history()) == self._at and len(legal) > 1 else legal

    def clone(self):
        return _Skewed(self._state.clone(), self._at)


class _SkewedGame:
    def __init__(self, game, at: int):
        self._game, self._at = game, at

    def __getattr__(self, name):
        return getattr(self._game, name)

    def new_initial_state(self):
        return _Skewed(self._game.new_initial_state(), self._at)


def _plant_bug(monkeypatch, at: int) -> None:
    """Make ``meeplex.make`` (the Rust side of the harness) an oracle with a bug after ``at`` actions."""
    monkeypatch.setattr(meeplex, "make", lambda s: _SkewedGame(meeplex.oracle.make(s), at))


def _history_with_a_choice_at_least(start: int) -> tuple[list[int], int]:
    """A random game's history and a step >= ``start`` where the seat has several choices."""
    game = meeplex.oracle.make("flip_city")
    history = list(meeplex.oracle.play_random(game, 3).history())
    state = game.new_initial_state()
    for i, action in enumerate(history):
        if i >= start and len(state.legal_actions()) > 1:
            return history[: i + 40], i
        state.apply_action(action)
    raise AssertionError("no step with a choice")


def test_harness_reports_and_shrinks_a_planted_divergence(monkeypatch):
    history, at = _history_with_a_choice_at_least(30)
    _plant_bug(monkeypatch, at)
    found = replay_and_compare("flip_city", history)
    assert isinstance(found, Divergence)
    assert found.what == "legal_actions()" and found.actions == history[:at]
    assert shrink("flip_city", history) == history[:at]
    text = str(found)
    assert str(history[:at]) in text and found.replay_snippet() in text
    # The printed one-liner reproduces the same divergence.
    python, flag, code = shlex.split(found.replay_snippet())
    assert (python, flag) == ("python", "-c")
    statement, call = code.split("; ", 1)
    scope: dict = {}
    exec(statement, scope)
    assert eval(call.removeprefix("print(").removesuffix(")"), scope) == found


def test_harness_finds_a_planted_divergence_in_a_random_game(monkeypatch):
    _plant_bug(monkeypatch, 5)
    found = compare_random_game("flip_city", 1)
    assert found is not None and found.seed == 1 and len(found.actions) == 5
    assert shrink("flip_city", found.actions + [0, 0, 0]) == found.actions


def test_shrink_returns_a_history_without_divergence_unchanged():
    history = list(meeplex.play_random(meeplex.make("flip_city(max_turns=2)"), 4).history())
    assert replay_and_compare("flip_city(max_turns=2)", history) is None
    assert shrink("flip_city(max_turns=2)", history) == history
