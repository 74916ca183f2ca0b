"""``VectorGame.step`` from Python at n games, ``copy=False``, float32 and (where the build and the game
allow it) uint8 observations: CPU time (``time.process_time_ns``) of the step calls alone, the actions (a
random legal one per game, from the mask) chosen outside the timed call.

    python benches/bench_vector_dtype.py [--n 1024] [--steps 300] [--games flip_city,flipology]

Prints one line per game and dtype: ``game dtype M-steps/s``. Runs under any build: one without
``observation_dtype`` (before issue 14's compact observations) measures float32 only.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import meeplex

GAMES = "flip_city,flip_city_wilderness,flipology,flip_pick_towers"


def rate(game_id: str, n: int, steps: int, dtype: str | None) -> float | None:
    game = meeplex.make(game_id)
    kwargs = {} if dtype is None else {"observation_dtype": dtype}
    try:
        vector = meeplex.VectorGame(game, n, 1, copy=False, **kwargs)
    except (TypeError, meeplex.InvalidStateError):
        return None
    _, info = vector.reset()
    picker = np.random.default_rng(0)
    spent = 0
    for _ in range(steps):
        mask = info["action_mask"]
        actions = (mask * picker.random(mask.shape)).argmax(axis=1)
        start = time.process_time_ns()
        _, _, _, _, info = vector.step(actions)
        spent += time.process_time_ns() - start
    return n * steps / spent * 1e3


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=1024)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--games", default=GAMES)
    args = parser.parse_args()
    for game_id in args.games.split(","):
        for dtype in (None, "uint8"):
            r = rate(game_id, args.n, args.steps, dtype)
            if r is not None:
                print(f"{game_id} {dtype or 'float32'} {r:.3f}", flush=True)


if __name__ == "__main__":
    main()
