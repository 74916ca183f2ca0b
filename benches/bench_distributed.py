"""Games per second of ``arena`` and ``selfplay`` on 1 and 2 workers, local processes and Ray, and the cost of
one task on each backend (issue 22). The figures go to benches/RESULTS.md ("Distributed runs").

    python benches/bench_distributed.py [--quick]

Every configuration plays the same seeded games (the results are checked to be identical); only the wall time
differs. Ray is started once, locally, with 2 CPUs; its start-up time is reported on its own.
"""

from __future__ import annotations

import argparse
import logging
import os
import time
from collections.abc import Callable

import meeplex
from meeplex.cli import arena, parallel, selfplay


def _wall(fn: Callable[[], object]) -> tuple[float, object]:
    start = time.perf_counter()
    value = fn()
    return time.perf_counter() - start, value


def bench_arena(backend: parallel.Backend, games: int, chunk: int) -> tuple[float, object]:
    game = meeplex.make("flip_city")
    names = ["mcts:sims=400", "random"]

    def run() -> object:
        result = arena.run_arena(game, names, games, 1, backend=backend, chunk=chunk, keep_history=False)
        return (result.agent_wins, result.total_length, result.rating_mu)

    return _wall(run)


def bench_selfplay(backend: parallel.Backend, games: int, chunk: int) -> tuple[float, object]:
    text = "flip_city"
    tasks = [
        (key, (text, "mcts:sims=200", 1, start, min(games, start + chunk), 0.0))
        for key, start in enumerate(range(0, games, chunk))
    ]

    def run() -> object:
        shards = dict(parallel.execute(selfplay.selfplay_shard, tasks, backend))
        return [int(shards[k]["policy"].sum() * 1000) for k in sorted(shards)]

    return _wall(run)


def bench_task_cost(backend: parallel.Backend, tasks: int) -> tuple[float, float]:
    """(the wall time of a run of 2 empty tasks, the cost of each further task)."""

    def run(n: int) -> float:
        keyed = ((i, (i,)) for i in range(n))
        return _wall(lambda: list(parallel.execute(parallel.noop, keyed, backend)))[0]

    small = run(2)
    return small, (run(tasks) - small) / (tasks - 2)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    games, chunk = (8, 2) if args.quick else (64, 8)
    sp_games, sp_chunk = (4, 1) if args.quick else (32, 4)
    print(f"load average before: {os.getloadavg()}")
    import ray

    start_ray, _ = _wall(
        lambda: ray.init(
            address="local",
            num_cpus=2,
            include_dashboard=False,
            logging_level=logging.ERROR,
            log_to_driver=False,
        )
    )
    print(f"ray.init (local, 2 CPUs): {start_ray:.1f} s")
    backends = {
        "local, 1 process (in this process)": parallel.Backend("local", 1),
        "local, 2 processes": parallel.Backend("local", 2),
        "ray, 1 task in flight": parallel.Backend("ray", 1),
        "ray, 2 tasks in flight": parallel.Backend("ray", 2),
    }
    # Warm the Ray workers (their first task imports meeplex) so that a start-up is not timed as a game.
    list(parallel.execute(parallel.noop, ((i, (i,)) for i in range(4)), backends["ray, 2 tasks in flight"]))
    reference: dict[str, object] = {}
    print(
        f"| backend | arena games/s ({games} games, {chunk}/task) | selfplay games/s ({sp_games} games,"
        f" {sp_chunk}/task) | a run of 2 empty tasks | each further task |"
    )
    print("|---|---|---|---|---|")
    for label, backend in backends.items():
        arena_s, arena_value = bench_arena(backend, games, chunk)
        sp_s, sp_value = bench_selfplay(backend, sp_games, sp_chunk)
        assert reference.setdefault("arena", arena_value) == arena_value, f"{label}: arena results differ"
        assert reference.setdefault("selfplay", sp_value) == sp_value, f"{label}: selfplay results differ"
        start, cost = bench_task_cost(backend, 202)
        print(
            f"| {label} | {games / arena_s:.2f} ({arena_s:.1f} s) | {sp_games / sp_s:.2f} ({sp_s:.1f} s)"
            f" | {1e3 * start:.0f} ms | {1e3 * cost:.2f} ms |",
            flush=True,
        )
    ray.shutdown()
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
