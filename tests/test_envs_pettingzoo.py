"""The PettingZoo adapter, checked by PettingZoo's own ``api_test`` and ``seed_test`` on every game and
variant with two or more seats (from the registry), plus what those tests do not cover: chance resolved with
the shared PRNG, determinism across processes, illegal actions, rendering and the missing-extra error."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

import meeplex

pytest.importorskip("pettingzoo")

with warnings.catch_warnings():
    # pettingzoo.test loads PettingZoo's own classic games through a loader that warns of its deprecation.
    warnings.simplefilter("ignore", DeprecationWarning)
    from pettingzoo.test import api_test, seed_test

from meeplex.agents import random_legal_action  # noqa: E402
from meeplex.envs import MissingExtraError, game_variants  # noqa: E402
from meeplex.envs.pettingzoo import ILLEGAL_REWARD, env, raw_env  # noqa: E402

SHORT_GAME = 5  # turns per seat where a game has max_turns: whole games stay fast enough for CI
CASES = game_variants(min_seats=2, max_turns=SHORT_GAME)

# PettingZoo's api_test names its classic games when it excuses dict observations; any other warning fails.
pytestmark = [
    pytest.mark.filterwarnings("error"),
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be"),
]


@pytest.mark.parametrize("game", CASES)
def test_api(game: str) -> None:
    api_test(env(game), num_cycles=1000)


@pytest.mark.parametrize("game", CASES)
def test_seed(game: str) -> None:
    seed_test(lambda: env(game), num_cycles=500)


@pytest.mark.parametrize("game", CASES)
def test_chance_is_the_shared_random_step(game: str) -> None:
    """Deciding with the env's own generator, as ``play_random`` does, replays ``play_random``'s game
    exactly: the env resolves chance with DESIGN.md's random step, from the generator that ``reset(seed)``
    seeded."""
    raw = raw_env(game)
    raw.reset(seed=11)
    assert raw.rng is not None and raw.game_state is not None
    for agent in raw.agent_iter():
        if raw.terminations[agent]:
            raw.step(None)
        else:
            raw.step(random_legal_action(raw.game_state, raw.rng))
    expected = meeplex.play_random(raw.game, 11)
    assert raw.game_state.history() == expected.history()


def _play_in_subprocess(game: str, seed: int, hash_seed: str) -> dict:
    script = textwrap.dedent(
        f"""
        import json
        from meeplex.envs.pettingzoo import env
        e = env({game!r})
        e.reset(seed={seed})
        for i, agent in enumerate(e.possible_agents):
            e.action_space(agent).seed(100 + i)
        total = dict.fromkeys(e.possible_agents, 0.0)
        for agent in e.agent_iter():
            obs, reward, term, trunc, info = e.last()
            total[agent] += reward
            e.step(None if term or trunc else int(e.action_space(agent).sample(obs["action_mask"])))
        print(json.dumps({{"history": e.unwrapped.game_state.history(), "rewards": total}}))
        """
    )
    env_vars = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env_vars, check=True
    )
    return json.loads(done.stdout)


def test_same_seed_same_game_in_two_processes() -> None:
    game = CASES[0]
    first = _play_in_subprocess(game, seed=2024, hash_seed="1")
    second = _play_in_subprocess(game, seed=2024, hash_seed="2")
    assert first == second
    assert first["history"]  # a game was played
    assert _play_in_subprocess(game, seed=2025, hash_seed="1")["history"] != first["history"]


def _illegal_action(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask == 0)[0])


@pytest.mark.parametrize("game", CASES[:1])
def test_illegal_action_ends_the_game_as_in_classic_envs(game: str, caplog: pytest.LogCaptureFixture) -> None:
    e = env(game)
    e.reset(seed=3)
    offender = e.agent_selection
    obs, *_ = e.last()
    e.step(_illegal_action(obs["action_mask"]))
    assert "Illegal move" in caplog.text  # PettingZoo logs it (a logging warning, not a Python warning)
    assert all(e.terminations.values()) and all(e.truncations.values())
    assert e.rewards[offender] == ILLEGAL_REWARD
    assert all(reward == 0 for agent, reward in e.rewards.items() if agent != offender)
    for _ in e.agent_iter():
        e.step(None)
    assert e.agents == []


@pytest.mark.parametrize("game", CASES[:1])
def test_raw_env_refuses_an_illegal_action_and_keeps_the_state(game: str) -> None:
    e = raw_env(game)
    e.reset(seed=3)
    assert e.game_state is not None
    before = e.game_state.serialize()
    with pytest.raises(meeplex.IllegalActionError):
        e.step(_illegal_action(e.observe(e.agent_selection)["action_mask"]))
    assert e.game_state.serialize() == before


@pytest.mark.parametrize("game", CASES)
def test_observations_and_flags(game: str) -> None:
    """Fresh arrays of the declared dtypes, a mask only for the agent to move, Python bools."""
    e = raw_env(game)
    e.reset(seed=5)
    first = e.observe(e.agent_selection)
    second = e.observe(e.agent_selection)
    assert first["observation"].dtype == np.float32 and first["action_mask"].dtype == np.int8
    assert not np.shares_memory(first["observation"], second["observation"])
    assert not np.shares_memory(first["action_mask"], second["action_mask"])
    for agent in e.agents:
        mask = e.observe(agent)["action_mask"]
        assert mask.any() == (agent == e.agent_selection)
        assert type(e.terminations[agent]) is bool and type(e.truncations[agent]) is bool


def test_render(capsys: pytest.CaptureFixture[str]) -> None:
    game = CASES[0]
    e = env(game, render_mode="ansi")
    e.reset(seed=1)
    assert e.render() == str(e.unwrapped.game_state)
    human = env(game, render_mode="human")
    human.reset(seed=1)
    assert human.render() is None
    assert capsys.readouterr().out == str(human.unwrapped.game_state) + "\n"
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(game, render_mode="rgb_array")


def test_solo_variants_are_refused() -> None:
    solo = [text for text in game_variants(max_turns=SHORT_GAME) if meeplex.make(text).num_players() == 1]
    if not solo:
        pytest.skip("no registered game has a one-seat variant")
    with pytest.raises(ValueError, match="gymnasium"):
        raw_env(solo[0])


def test_missing_extra_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pettingzoo", None)  # makes `import pettingzoo` fail
    monkeypatch.delitem(sys.modules, "meeplex.envs.pettingzoo")
    with pytest.raises(MissingExtraError, match=r"pip install 'meeplex\[pettingzoo\]'"):
        importlib.import_module("meeplex.envs.pettingzoo")
