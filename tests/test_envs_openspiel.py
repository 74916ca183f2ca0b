"""The OpenSpiel adapter, checked by OpenSpiel's own ``random_sim_test`` and by its MCTSBot playing every game
and variant (from the registry) through ``evaluate_bots``, plus the GameType/GameInfo facts, observations,
clone/serialize, resampling and the missing-extra error."""

from __future__ import annotations

import importlib
import subprocess
import sys

import numpy as np
import pytest

import meeplex

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import mcts  # noqa: E402
from open_spiel.python.algorithms.evaluate_bots import evaluate_bots  # noqa: E402

from meeplex.envs import MissingExtraError, game_variants  # noqa: E402
from meeplex.envs import openspiel as adapter  # noqa: E402

SHORT_GAME = 5  # turns per seat where a game has max_turns: whole games stay fast enough for CI
CASES = game_variants(max_turns=SHORT_GAME)


def one_per_seat_count(games: list[str]) -> list[str]:
    """The first variant of each game with each seat count."""
    chosen: dict[tuple[str, int], str] = {}
    for game in games:
        core = meeplex.make(game)
        chosen.setdefault((core.name, core.num_players()), game)
    return list(chosen.values())


# MCTS from Python is slow: every game with each of its seat counts, in games of at most two turns per seat.
MCTS_CASES = one_per_seat_count(game_variants(max_turns=2))
NAMES = adapter.register()


def load(game: str) -> pyspiel.Game:
    """The OpenSpiel game for a meeplex game string (parameters as a dict, typed as meeplex has them)."""
    core = meeplex.make(game)
    return pyspiel.load_game(adapter.short_name(core.name), dict(core.params))


def fresh(game: str) -> adapter.MeeplexGame:
    """A new game object, not one from OpenSpiel's cache of loaded games: safe for a test to modify."""
    core = meeplex.make(game)
    return adapter.game_class(core.name)(dict(core.params))


def random_states(game: pyspiel.Game, seed: int) -> list[pyspiel.State]:
    """Every state of one random playout, the terminal one included."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    states = [state.clone()]
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
        states.append(state.clone())
    return states


def test_register_is_idempotent_and_covers_the_registry() -> None:
    assert NAMES == [adapter.short_name(g) for g in meeplex.games()] == adapter.register()
    assert set(NAMES) <= set(pyspiel.registered_names())


@pytest.mark.parametrize("game_id", meeplex.games())
def test_game_type(game_id: str) -> None:
    core = meeplex.make(game_id)
    kind = pyspiel.load_game(adapter.short_name(game_id)).get_type()
    info = pyspiel.GameType.Information
    assert kind.short_name == adapter.short_name(game_id)
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC  # every game so far has chance
    expected = info.PERFECT_INFORMATION if adapter.perfect_information(core) else info.IMPERFECT_INFORMATION
    assert kind.information == expected
    sums = pyspiel.GameType.Utility
    assert kind.utility == (sums.CONSTANT_SUM if game_id in adapter.CONSTANT_SUM else sums.GENERAL_SUM)
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert kind.provides_observation_tensor and kind.provides_information_state_string
    assert kind.parameter_specification == core.params
    for seats in (kind.min_num_players, kind.max_num_players):
        if "players" in core.params:
            assert meeplex.make(game_id, players=seats).num_players() == seats


def test_flip_city_is_perfect_information_general_sum() -> None:
    """docs/rules/flip_city.md §3 (nothing hidden but a shuffled order nobody knows) and §4.5 (the turn limit
    ends the game with no winner, returns summing to 0)."""
    if "flip_city" not in meeplex.games():
        pytest.skip("flip_city is not registered")
    kind = pyspiel.load_game("meeplex_flip_city").get_type()
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.GENERAL_SUM


@pytest.mark.parametrize("game", CASES)
def test_game_info(game: str) -> None:
    core, spiel = meeplex.make(game), load(game)
    assert spiel.num_distinct_actions() == core.num_distinct_actions()
    assert spiel.max_chance_outcomes() == core.max_chance_outcomes()
    assert spiel.num_players() == core.num_players()
    assert (spiel.min_utility(), spiel.max_utility()) == (0.0, 1.0)
    assert spiel.max_game_length() == core.max_game_length()
    assert spiel.observation_tensor_shape() == list(core.observation_shape())
    assert spiel.get_parameters() == core.params


@pytest.mark.parametrize("game", CASES)
def test_random_sim_test(game: str) -> None:
    pyspiel.random_sim_test(load(game), num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize("game", MCTS_CASES)
def test_mcts_bot_plays_through_evaluate_bots(game: str) -> None:
    spiel = load(game)
    rng = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [
        mcts.MCTSBot(spiel, uct_c=2.0, max_simulations=8, evaluator=evaluator, random_state=rng)
        for _ in range(spiel.num_players())
    ]
    returns = evaluate_bots(spiel.new_initial_state(), bots, rng)
    assert len(returns) == spiel.num_players() and all(0.0 <= r <= 1.0 for r in returns)


@pytest.mark.parametrize("game", CASES[:3])
def test_views_are_the_cores(game: str) -> None:
    spiel = load(game)
    for state in random_states(spiel, seed=1):
        core = state.meeplex_state
        assert state.history() == core.history()
        assert state.current_player() == core.current_player()
        assert state.returns() == core.returns()
        for seat in range(spiel.num_players()):
            assert np.array_equal(state.observation_tensor(seat), core.observation_tensor(seat).ravel())
            assert state.observation_string(seat) == core.observation_string(seat)
            assert state.information_state_string(seat) == core.information_state_string(seat)


@pytest.mark.parametrize("game", CASES[:3])
def test_clone_and_serialize(game: str) -> None:
    spiel = load(game)
    states = random_states(spiel, seed=2)
    state = states[len(states) // 2]
    clone = state.clone()
    assert clone.meeplex_state == state.meeplex_state and clone.history() == state.history()
    if not clone.is_terminal():
        clone.apply_action(clone.legal_actions()[0])
        assert clone.history() != state.history()  # independent
    again = spiel.deserialize_state(state.serialize())
    assert again.meeplex_state == state.meeplex_state and again.history() == state.history()


@pytest.mark.parametrize("game", CASES[:3])
def test_resample_from_infostate(game: str) -> None:
    spiel = fresh(game)
    state = random_states(spiel, seed=3)[-2]
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for seat in range(spiel.num_players()):
        world = state.resample_from_infostate(seat, sampler)
        assert world.information_state_string(seat) == state.information_state_string(seat)
        if spiel.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION:
            assert world.meeplex_state == state.meeplex_state
    # The path for games with hidden facts: the core's world, replayed so OpenSpiel's history is its history.
    spiel.perfect_information = False
    world = state.resample_from_infostate(0, sampler)
    assert world.history() == world.meeplex_state.history()
    assert world.information_state_string(0) == state.information_state_string(0)


def test_observers() -> None:
    spiel = fresh(CASES[0])
    state = random_states(spiel, seed=4)[5]
    info_state = spiel.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    assert info_state.tensor is None and info_state.string_from(state, 1) == state.information_state_string(1)
    with pytest.raises(ValueError, match="no parameters"):
        spiel.make_py_observer(None, {"x": 1})
    public = pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE)
    if spiel.perfect_information:  # every fact is public: the public view is the whole observation
        assert spiel.make_py_observer(public).string_from(state, 0) == state.observation_string(0)
    spiel.perfect_information = False
    with pytest.raises(ValueError, match="own view"):
        spiel.make_py_observer(public)


def test_registered_games_exit_cleanly() -> None:
    """OpenSpiel keeps creators past interpreter shutdown; the adapter must not make Python abort at exit."""
    script = (
        "import pyspiel\nfrom meeplex.envs import openspiel\nnames = openspiel.register()\n"
        "print(pyspiel.load_game(names[0]).new_initial_state().is_chance_node())"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_missing_extra_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # makes `import pyspiel` fail
    monkeypatch.delitem(sys.modules, "meeplex.envs.openspiel")
    with pytest.raises(MissingExtraError, match=r"pip install 'meeplex\[openspiel\]'"):
        importlib.import_module("meeplex.envs.openspiel")
