"""``VectorGame(observation_dtype="uint8")``: allowed only for a game whose every observation value is an
integer in 0..255 in every reachable state (``observation_fits_u8`` in the core), and then exactly the float32
values."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import meeplex
from meeplex.errors import InvalidStateError

# Every game, and the Flip City family at each seat count (whether it fits depends on the parameters).
_CONFIGS: list[tuple[str, dict[str, Any]]] = [(g, {}) for g in meeplex.games()] + [
    (g, {"players": p}) for g in ("flip_city", "flip_city_wilderness") for p in (1, 2, 3, 4)
]


def _allows_uint8(game: meeplex.Game) -> bool:
    try:
        meeplex.VectorGame(game, 1, observation_dtype="uint8")
    except InvalidStateError:
        return False
    return True


_DECLARED = [
    (g, p) for g, p in _CONFIGS if _allows_uint8(meeplex.make(g, **p))
]  # evaluated once, at collection


def test_the_declared_games() -> None:
    declared = {(g, tuple(sorted(p.items()))) for g, p in _DECLARED}
    assert ("flip_city_wilderness", ()) in declared
    assert ("flip_city_wilderness", (("players", 2),)) in declared
    assert ("flip_city", (("players", 1),)) in declared
    # Flip City with two seats: its proven bound (the Hospitals' cash) exceeds 255, so float32 only.
    assert ("flip_city", ()) not in declared
    # Negative values: Flipology's face-up Sloths, Flip Pick Towers' `delta`.
    assert ("flipology", ()) not in declared
    assert ("flip_pick_towers", ()) not in declared


@pytest.mark.parametrize(("game_id", "params"), _DECLARED)
def test_every_observation_value_of_a_declared_game_fits(game_id: str, params: dict[str, Any]) -> None:
    """Random games, every seat's observation at every state: integers in 0..255."""
    game = meeplex.make(game_id, **params)
    rng = meeplex.Rng(5)
    for _ in range(4):
        state = game.new_initial_state()
        while not state.is_terminal():
            for seat in range(game.num_players()):
                obs = np.asarray(state.observation_tensor(seat))
                assert np.all(obs == np.floor(obs)), (game_id, seat)
                assert obs.min() >= 0 and obs.max() <= 255, (game_id, seat, obs.min(), obs.max())
            state.random_step(rng)


@pytest.mark.parametrize(("game_id", "params"), _DECLARED)
@pytest.mark.parametrize("copy", [True, False])
@pytest.mark.parametrize("mode", ["next_step", "same_step"])
def test_uint8_observations_equal_the_float32_ones(
    game_id: str, params: dict[str, Any], copy: bool, mode: str
) -> None:
    game = meeplex.make(game_id, **params)
    wide = meeplex.VectorGame(game, 8, seed=2, autoreset_mode=mode)
    small = meeplex.VectorGame(game, 8, seed=2, autoreset_mode=mode, copy=copy, observation_dtype=np.uint8)
    assert wide.observation_dtype == np.float32 and small.observation_dtype == np.uint8
    obs_w, info = wide.reset()
    obs_s, info_s = small.reset()
    assert obs_s.dtype == np.uint8 and obs_s.shape == obs_w.shape
    np.testing.assert_array_equal(obs_s, obs_w.astype(np.uint8))
    picker = np.random.default_rng(3)
    for _ in range(400):
        assert np.all(obs_w == np.floor(obs_w)) and obs_w.min() >= 0 and obs_w.max() <= 255
        mask = info["action_mask"].astype(np.float64)
        actions = (mask * picker.random(mask.shape)).argmax(axis=1)
        obs_w, rewards_w, done_w, _, info = wide.step(actions)
        obs_s, rewards_s, done_s, _, info_s = small.step(actions)
        assert obs_s.dtype == np.uint8
        np.testing.assert_array_equal(obs_s.astype(np.float32), obs_w)
        np.testing.assert_array_equal(rewards_s, rewards_w)
        np.testing.assert_array_equal(done_s, done_w)
        np.testing.assert_array_equal(info_s["action_mask"], info["action_mask"])
        np.testing.assert_array_equal(info_s["current_player"], info["current_player"])


@pytest.mark.parametrize("dtype", ["uint8", "UINT8", np.uint8, np.dtype("uint8"), "u1"])
def test_uint8_is_asked_by_name_or_numpy_dtype(dtype: Any) -> None:
    vector = meeplex.VectorGame(meeplex.make("flip_city_wilderness"), 2, observation_dtype=dtype)
    assert vector.observation_dtype == np.uint8
    assert vector.reset()[0].dtype == np.uint8


@pytest.mark.parametrize("dtype", ["float32", np.float32, np.dtype("float32"), None])
def test_float32_is_the_default_and_accepted_for_every_game(dtype: Any) -> None:
    for game_id in ("flip_city", "flipology", "flip_pick_towers"):
        vector = meeplex.VectorGame(meeplex.make(game_id), 2, observation_dtype=dtype)
        assert vector.observation_dtype == np.float32
        assert vector.reset()[0].dtype == np.float32


@pytest.mark.parametrize("dtype", ["int16", "float64", np.int8, "bogus", 3])
def test_other_dtypes_are_refused(dtype: Any) -> None:
    with pytest.raises(InvalidStateError):
        meeplex.VectorGame(meeplex.make("flip_city_wilderness"), 2, observation_dtype=dtype)


@pytest.mark.parametrize(("game_id", "params"), [(g, p) for g, p in _CONFIGS if (g, p) not in _DECLARED])
def test_uint8_is_refused_where_not_declared(game_id: str, params: dict[str, Any]) -> None:
    with pytest.raises(InvalidStateError, match="uint8"):
        meeplex.VectorGame(meeplex.make(game_id, **params), 2, observation_dtype="uint8", copy=False)
