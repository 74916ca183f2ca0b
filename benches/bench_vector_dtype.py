"""``VectorGame.step`` from Python at n games, ``copy=False``, float32 and (where the build and the game
allow it) uint8 observations, on one thread or more: the step calls alone are timed, the actions (a random
legal one per game, from the mask) chosen outside the timed call.

    python benches/bench_vector_dtype.py [--n 1024] [--steps 300] [--games flip_city,flipology]
        [--threads 1,2]

Prints one line per game, dtype and thread count: ``game dtype threads M-steps/s(CPU) M-steps/s(wall)``. CPU
time (``time.process_time_ns``, every thread of the process) does not count time the process spent
preempted, so it is the steadier figure on a loaded machine, but it cannot show what a second thread gains:
read the wall figure for that. Runs under any build: one without ``observation_dtype`` (before issue 14's
compact observations) measures float32 only, one without ``threads`` one thread only.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import meeplex

GAMES = "flip_city,flip_city_wilderness,flipology,flip_pick_towers"


def rate(game_id: str, n: int, steps: int, dtype: str | None, threads: int) -> tuple[float, float] | None:
    game = meeplex.make(game_id)
    kwargs: dict[str, object] = {} if dtype is None else {"observation_dtype": dtype}
    if threads != 1:
        kwargs["threads"] = threads
    try:
        vector = meeplex.VectorGame(game, n, 1, copy=False, **kwargs)
    except (TypeError, meeplex.InvalidStateError):
        return None
    _, info = vector.reset()
    picker = np.random.default_rng(0)
    cpu = wall = 0
    for _ in range(steps):
        mask = info["action_mask"]
        actions = (mask * picker.random(mask.shape)).argmax(axis=1)
        start_cpu, start_wall = time.process_time_ns(), time.perf_counter_ns()
        _, _, _, _, info = vector.step(actions)
        wall += time.perf_counter_ns() - start_wall
        cpu += time.process_time_ns() - start_cpu
    return n * steps / cpu * 1e3, n * steps / wall * 1e3


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=1024)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--games", default=GAMES)
    parser.add_argument("--threads", default="1")
    args = parser.parse_args()
    for game_id in args.games.split(","):
        for dtype in (None, "uint8"):
            for threads in map(int, args.threads.split(",")):
                r = rate(game_id, args.n, args.steps, dtype, threads)
                if r is not None:
                    print(f"{game_id} {dtype or 'float32'} {threads} {r[0]:.3f} {r[1]:.3f}", flush=True)


if __name__ == "__main__":
    main()
