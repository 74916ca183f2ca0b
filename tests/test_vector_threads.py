"""``VectorGame(threads=k)``: the games are stepped by k threads, which take runs of consecutive games in
turn, and every output is what one thread gives, since every game draws its chance from its own
``Rng(seed + i)``."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import meeplex
from meeplex.errors import IllegalActionError, InvalidStateError


def _play(vector: meeplex.VectorGame, steps: int, bad_game: int | None = None) -> list[Any]:
    """Everything the vector returns over `steps` random steps (copied), and the states at the end."""
    obs, info = vector.reset()
    seen: list[Any] = [np.array(obs), np.array(info["action_mask"]), np.array(info["current_player"])]
    rng = np.random.default_rng(5)
    for step in range(steps):
        mask = info["action_mask"].astype(np.float64)
        actions = (mask * rng.random(mask.shape)).argmax(axis=1)
        if bad_game is not None and step == steps // 2 and info["current_player"][bad_game] >= 0:
            # An action no game offers, in one game only: refused whole, naming that game, nothing changed.
            wrong = actions.copy()
            wrong[bad_game] = vector.game.num_distinct_actions()
            before = vector.state(bad_game).serialize()
            with pytest.raises(IllegalActionError, match=f"game {bad_game}\\b"):
                vector.step(wrong)
            assert vector.state(bad_game).serialize() == before
        obs, rewards, terminated, truncated, info = vector.step(actions)
        seen += [np.array(x) for x in (obs, rewards, terminated, truncated)]
        seen += [np.array(info["action_mask"]), np.array(info["current_player"])]
    seen += [vector.state(i).serialize() for i in range(vector.num_envs)]
    return seen


def _assert_same(a: list[Any], b: list[Any]) -> None:
    assert len(a) == len(b)
    for x, y in zip(a, b, strict=True):
        if isinstance(x, np.ndarray):
            assert x.dtype == y.dtype
            np.testing.assert_array_equal(x, y)
        else:
            assert x == y


@pytest.mark.parametrize("game_id", meeplex.games())
def test_threads_give_the_outputs_of_one_thread(game_id: str) -> None:
    game = meeplex.make(game_id)
    steps = 60 if game_id in ("carcassonne", "caboodle", "viticulture", "memoir44") else 150
    one = meeplex.VectorGame(game, 7, seed=11)
    assert one.threads == 1
    expected = _play(one, steps)
    for threads, mode, copy in [(2, "next_step", True), (3, "same_step", False)]:
        several = meeplex.VectorGame(game, 7, seed=11, autoreset_mode=mode, copy=copy, threads=threads)
        assert several.threads == threads
        got = _play(several, steps, bad_game=6)
        if mode == "next_step":
            _assert_same(got, expected)
        else:
            reference = _play(meeplex.VectorGame(game, 7, seed=11, autoreset_mode=mode), steps)
            _assert_same(got, reference)


def test_threads_with_uint8_observations_and_more_threads_than_games() -> None:
    game = meeplex.make("flip_city_wilderness")
    expected = _play(meeplex.VectorGame(game, 5, seed=2, observation_dtype="uint8"), 200)
    several = meeplex.VectorGame(game, 5, seed=2, observation_dtype="uint8", threads=8)
    assert several.threads == 5  # at most one thread per game
    _assert_same(_play(several, 200), expected)


def test_reset_with_a_seed_on_several_threads_seeds_game_i_with_seed_plus_i() -> None:
    game = meeplex.make("flipology")
    several = meeplex.VectorGame(game, 6, seed=0, threads=2)
    several.reset(seed=100)
    for i in range(6):
        single = meeplex.VectorGame(game, 1, seed=100 + i)
        assert several.state(i).serialize() == single.state(0).serialize()


@pytest.mark.parametrize("threads", [0, -1, 1025, 2**64])
def test_threads_out_of_range_are_refused(threads: int) -> None:
    with pytest.raises(InvalidStateError, match="threads"):
        meeplex.VectorGame(meeplex.make("flip_city"), 4, threads=threads)


@pytest.mark.parametrize("threads", ["2", 2.0, True])
def test_threads_not_an_int_is_a_type_error(threads: object) -> None:
    with pytest.raises(TypeError, match="threads"):
        meeplex.VectorGame(meeplex.make("flip_city"), 4, threads=threads)  # type: ignore[arg-type]


def test_gymnasium_vector_env_passes_threads_to_the_core() -> None:
    from meeplex.envs.gymnasium import VectorGameEnv

    env = VectorGameEnv("flip_city", 4, threads=2)
    assert env.vector.threads == 2
    reference = VectorGameEnv("flip_city", 4)
    obs_a, _ = env.reset(seed=3)
    obs_b, _ = reference.reset(seed=3)
    np.testing.assert_array_equal(obs_a, obs_b)
