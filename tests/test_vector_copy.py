"""``VectorGame(copy=False)``: the outputs are the VectorGame's own arrays, overwritten in place by every
``step`` and ``reset``, and hold exactly what ``copy=True`` returns."""

from __future__ import annotations

import numpy as np
import pytest

import meeplex
from meeplex.errors import IllegalActionError, InvalidStateError


@pytest.mark.parametrize("game_id", meeplex.games())
@pytest.mark.parametrize("mode", ["next_step", "same_step"])
def test_vector_copy_false_returns_the_same_values_in_owned_arrays(game_id: str, mode: str) -> None:
    game = meeplex.make(game_id)
    fresh = meeplex.VectorGame(game, 6, seed=3, autoreset_mode=mode)
    owned = meeplex.VectorGame(game, 6, seed=3, autoreset_mode=mode, copy=False)
    assert fresh.copy and not owned.copy
    obs_a, info_a = fresh.reset()
    obs_b, info_b = owned.reset()
    first = (obs_b, info_b["action_mask"], info_b["current_player"])
    np.testing.assert_array_equal(obs_a, obs_b)
    rng = np.random.default_rng(1)
    kept = None
    for step in range(200):
        mask = info_a["action_mask"].astype(np.float64)
        actions = (mask * rng.random(mask.shape)).argmax(axis=1)
        out_a = fresh.step(actions)
        out_b = owned.step(actions)
        for x, y in zip(out_a[:4], out_b[:4], strict=True):
            np.testing.assert_array_equal(x, y)
        for key in ("action_mask", "current_player"):
            np.testing.assert_array_equal(out_a[4][key], out_b[4][key])
        # The same objects every call, written in place.
        assert out_b[0] is first[0] and out_b[4]["action_mask"] is first[1]
        assert out_b[4]["current_player"] is first[2]
        if kept is None:
            kept = out_b[1:4]
        assert all(x is y for x, y in zip(out_b[1:4], kept, strict=True))
        info_a = out_a[4]
        if step == 10:
            # A refused batch changes neither the games nor the owned arrays.
            before = [a.copy() for a in out_b[:4]]
            bad = actions.copy()
            bad[0] = game.num_distinct_actions() + 5
            with pytest.raises(IllegalActionError):
                owned.step(bad)
            for x, y in zip(before, out_b[:4], strict=True):
                np.testing.assert_array_equal(x, y)
            with pytest.raises(IllegalActionError):
                fresh.step(bad)
    # A fresh reset writes into the same observation array.
    obs_c, _ = owned.reset(9)
    assert obs_c is first[0]
    np.testing.assert_array_equal(obs_c, fresh.reset(9)[0])


def test_vector_copy_false_arrays_must_stay_writeable() -> None:
    owned = meeplex.VectorGame(meeplex.make("flip_city"), 2, seed=0, copy=False)
    obs, info = owned.reset()
    obs.flags.writeable = False
    with pytest.raises(InvalidStateError):
        owned.step(np.argmax(info["action_mask"], axis=1))
    obs.flags.writeable = True
    owned.step(np.argmax(info["action_mask"], axis=1))
