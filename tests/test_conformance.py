"""The conformance suite on every registered game, a few parameter sets each, both engines, seeded.

Also checks the checker: a state broken on purpose must be caught, or a passing run would prove nothing.
"""

from __future__ import annotations

import numpy as np
import pytest

import meeplex
import meeplex.oracle
from meeplex.testing import ConformanceError, check_state, effort, run_conformance
from meeplex.testing.strategies import seeded_variants

# Games whose rules document says they have no hidden facts, so a resample must equal the state
# (docs/rules/<game>.md). A game missing here still gets the observation no-leak check.
PERFECT_INFORMATION = {
    "flip_city": True,
    "flip_city_wilderness": True,
    "forbidden_island": True,
    "lineit": True,
}

# A long random game under full checks costs seconds on the oracle: long games are cut after MAX_STEPS
# actions, and games with a short turn limit are played to the end to reach terminal states. The
# hypothesis profile scales the work (meeplex.testing.effort: ci 1, dev 3, long 20).
EFFORT = effort()
MAX_STEPS = 150 * EFFORT
SHORT_TURNS = 2

# Every game of either registry: the oracle of a game the Rust core does not have yet is checked too.
GAMES = sorted(set(meeplex.games()) | set(meeplex.oracle.games()))
CASES = [(g, variant) for g in GAMES for variant in seeded_variants(g, EFFORT)]
# Flip City supplies mixing both sets (docs/rules/flip_city_wilderness.md §1.1), which the probed variants
# never reach: Wilderness piles under the base id, base piles under the Wilderness id (solo).
CASES += [("flip_city", {"supply": "cs+park+market+wind+camp"})]
CASES += [
    ("flip_city_wilderness", {"supply": "cs+market+wind+camp", "players": 1, "logging_text": "printed"})
]
# Memoir '44's second scenario (docs/rules/memoir44.md §8), a word that probing cannot find.
CASES += [("memoir44", {"scenario": "home_hills"})]
# Viticulture's card readings (docs/rules/viticulture.md §3), words that probing cannot find.
CASES += [
    (
        "viticulture",
        {"players": 4, "max_years": 3, "end_rule": "year_end", "harvest_expert": "harvest_both",
         "importer": "draw", "promoter": "vp_only", "queen": "off"},
    )
]  # fmt: skip
# Thingvellir (docs/rules/thingvellir.md), whose keys ``game.params`` lists only when it is on.
CASES += [
    ("nidavellir", {"thingvellir": True}),
    (
        "nidavellir",
        {"thingvellir": True, "players": 5, "enlist_each_turn": True, "enlist_chooser": "lowest_gem"},
    ),
]


def _make(engine, game_id: str, **params):
    if engine.name == "rust" and game_id not in meeplex.games():
        pytest.skip(f"the Rust core has no {game_id} yet")
    if engine.name == "oracle" and game_id not in meeplex.oracle.games():
        pytest.skip(f"the oracle has no {game_id} yet")
    return engine.make(game_id, **params)


def _ids(case) -> str:
    game_id, variant = case
    return meeplex.game_string(game_id, variant)


@pytest.mark.parametrize("case", CASES, ids=[_ids(c) for c in CASES])
def test_conformance_prefix(engine, case):
    """Every state of the first MAX_STEPS actions of seeded random games under each parameter set."""
    game_id, variant = case
    game = _make(engine, game_id, **variant)
    seeds = range(1, 1 + EFFORT)
    report = run_conformance(
        game, seeds=seeds, max_steps=MAX_STEPS, perfect_information=PERFECT_INFORMATION.get(game_id)
    )
    assert report.games == len(seeds)
    assert report.chance_nodes > 0 or report.steps == 0


@pytest.mark.parametrize("case", CASES, ids=[_ids(c) for c in CASES])
def test_conformance_whole_games(engine, case):
    """Whole games (to the terminal state) with a short turn limit where the game has one (at the lowest
    effort every third state is checked, and always the last)."""
    game_id, variant = case
    params = dict(variant)
    for key in ("max_turns", "turn_limit", "max_years"):  # flip_city, memoir44, viticulture
        if key in _make(engine, game_id).params:
            params[key] = min(params.get(key, SHORT_TURNS), SHORT_TURNS)
    game = _make(engine, game_id, **params)
    seeds = range(100, 100 + EFFORT)
    report = run_conformance(
        game,
        seeds=seeds,
        check_every=1 if EFFORT > 1 else 3,  # the prefix test checks every early state already
        perfect_information=PERFECT_INFORMATION.get(game_id),
    )
    assert report.terminal == len(seeds)
    assert max(report.lengths) <= game.max_game_length()


@pytest.mark.parametrize("game_id", GAMES)
def test_conformance_full_default_game(engine, game_id):
    """One whole game with the default parameters (checked at every third state at the lowest effort)."""
    report = run_conformance(
        _make(engine, game_id),
        seeds=[5],
        check_every=1 if EFFORT > 1 else 3,
        perfect_information=PERFECT_INFORMATION.get(game_id),
    )
    assert report.terminal == 1


# --- The checker catches broken states --------------------------------------------------------------------


class Broken:
    """An oracle state with one method replaced, to show that ``check_state`` notices."""

    def __init__(self, state, **overrides):
        self._state = state
        self._overrides = overrides

    def __getattr__(self, name):
        if name in self._overrides:
            return self._overrides[name]
        return getattr(self._state, name)


def _midgame():
    game = meeplex.oracle.make("flip_city")
    state = game.new_initial_state()
    for action in meeplex.oracle.play_random(game, 9).history():
        if len(state.history()) > 20 and not state.is_chance_node() and len(state.legal_actions()) > 2:
            return game, state
        state.apply_action(action)
    raise AssertionError("no mid-game decision with three choices in this game")


BREAKAGES = {
    "unsorted legal actions": lambda s: {"legal_actions": lambda: s.legal_actions()[::-1]},
    "duplicate legal action": lambda s: {"legal_actions": lambda: s.legal_actions()[:1] * 2},
    "mask disagrees": lambda s: {"legal_actions_mask": lambda: np.zeros(78, dtype=np.int8)},
    "mask dtype": lambda s: {"legal_actions_mask": lambda: s.legal_actions_mask().astype(np.int64)},
    "ambiguous strings": lambda s: {"action_to_string": lambda a: "play"},
    "no round trip of strings": lambda s: {"string_to_action": lambda t: 0},
    "returns before the end": lambda s: {"returns": lambda: [1.0, 0.0]},
    "wrong observation shape": lambda s: {"observation_tensor": lambda p: np.zeros(3, dtype=np.float32)},
    "non-finite observation": lambda s: {
        "observation_tensor": lambda p: np.full(s.game.observation_shape(), np.nan, dtype=np.float32)
    },
    "clone shares state": lambda s: {"clone": lambda: s},
    "accepts illegal action": lambda s: {"apply_action": lambda a: None},
    "leaky resample": lambda s: {"resample_from_infostate": lambda p, rng: s.game.new_initial_state()},
}


@pytest.mark.parametrize("breakage", sorted(BREAKAGES))
def test_check_state_catches(breakage):
    game, state = _midgame()
    check_state(state, game, perfect_information=True)  # the unbroken state passes
    with pytest.raises(ConformanceError):
        check_state(Broken(state, **BREAKAGES[breakage](state)), game, perfect_information=True)


def test_check_state_catches_bad_chance_weights():
    game = meeplex.oracle.make("flip_city")
    state = game.new_initial_state()
    assert state.is_chance_node()
    check_state(state, game)
    bad = {
        "zero weight": {"chance_weights": lambda: [(a, 0) for a, _ in state.chance_weights()]},
        "float weight": {"chance_weights": lambda: [(a, float(w)) for a, w in state.chance_weights()]},
        "inconsistent probability": {
            "chance_outcomes": lambda: [(a, 1 / 6) for a, _ in state.chance_weights()]
        },
    }
    for name, overrides in bad.items():
        with pytest.raises(ConformanceError):
            check_state(Broken(state, **overrides), game)
            pytest.fail(f"not caught: {name}")
