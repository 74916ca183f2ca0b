"""The anchors of issue 6, measured side by side with meeplex in one run.

OpenSpiel's pyspiel per-call loop and its C++ playouts (``evaluate_bots`` with uniform random bots) on its
card games, and PettingZoo's AEC loop on connect_four, next to meeplex's per-call loop, Rust playouts and
VectorGame.

Every Python loop has the same shape (legal actions, one choice with ``meeplex.Rng``, apply), so the columns
compare the libraries, not the loops. Figures are medians of repeated runs. Needs the benchmark extras:
``pip install open_spiel pettingzoo`` (``make bench`` installs them).

    python benches/bench_anchors.py [--quick] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import numpy as np
from rich.console import Console
from rich.table import Table

import meeplex


def median_of(repeats: int, run) -> float:
    """Median over repeats of run() -> (seconds, steps), as seconds per step."""
    samples = []
    for _ in range(repeats):
        seconds, steps = run()
        samples.append(seconds / max(steps, 1))
    return statistics.median(samples)


def pick_chance(outcomes, rng) -> int:
    """A chance outcome by its probability, drawn with the shared PRNG (53-bit uniform)."""
    u = rng.below(1 << 53) / float(1 << 53)
    running = 0.0
    for action, p in outcomes:
        running += p
        if running > u:
            return action
    return outcomes[-1][0]


def pick_weighted(weights, rng) -> int:
    """DESIGN's random step at a chance node: exact integer weights."""
    r = rng.below(sum(w for _, w in weights))
    for outcome, w in weights:
        r -= w
        if r < 0:
            return outcome
    return weights[-1][0]


def openspiel_per_call(game, games: int) -> tuple[float, int]:
    rng = meeplex.Rng(1)
    steps = 0
    start = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(pick_chance(state.chance_outcomes(), rng))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.below(len(legal))])
            steps += 1
    return time.perf_counter() - start, steps


def openspiel_cpp_playouts(pyspiel, game, games: int, steps_per_game: float) -> tuple[float, int]:
    bots = [pyspiel.make_uniform_random_bot(p, 7 + p) for p in range(game.num_players())]
    start = time.perf_counter()
    for seed in range(games):
        pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
    return time.perf_counter() - start, int(games * steps_per_game)


def meeplex_per_call(game, games: int) -> tuple[float, int]:
    rng = meeplex.Rng(1)
    steps = 0
    start = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(pick_weighted(state.chance_weights(), rng))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.below(len(legal))])
            steps += 1
    return time.perf_counter() - start, steps


def meeplex_playouts(game, games: int) -> tuple[float, int]:
    start = time.perf_counter()
    steps = sum(len(meeplex.play_random(game, seed).history()) for seed in range(games))
    return time.perf_counter() - start, steps


def meeplex_vector(game, n: int, calls: int) -> tuple[float, int]:
    # copy=False: step writes into the VectorGame's own arrays (as Gymnasium's copy=False), no allocation.
    vector = meeplex.VectorGame(game, n, seed=1, copy=False)
    _, info = vector.reset()
    rng = np.random.default_rng(0)
    elapsed = 0.0
    for _ in range(calls):
        # A random legal action per game, chosen outside the timed call.
        mask = info["action_mask"].astype(np.float64)
        actions = (mask * rng.random(mask.shape)).argmax(axis=1)
        start = time.perf_counter()
        _, _, _, _, info = vector.step(actions)
        elapsed += time.perf_counter() - start
    return elapsed, n * calls


def pettingzoo_aec(games: int) -> tuple[float, int]:
    from pettingzoo.classic import connect_four_v3

    rng = meeplex.Rng(1)
    env = connect_four_v3.env()
    steps = 0
    start = time.perf_counter()
    for seed in range(games):
        env.reset(seed=seed)
        for _agent in env.agent_iter():
            observation, reward, termination, truncation, info = env.last()
            if termination or truncation:
                action = None
            else:
                legal = np.flatnonzero(observation["action_mask"])
                action = int(legal[rng.below(len(legal))])
            env.step(action)
            steps += 1
    return time.perf_counter() - start, steps


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games and repeats (a smoke run)")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)
    repeats, games = (3, 20) if args.quick else (7, 200)
    rows: list[dict] = []

    try:
        import pyspiel
    except ImportError:
        pyspiel = None
    if pyspiel is not None:
        for name in ("hearts", "euchre", "crazy_eights"):
            game = pyspiel.load_game(name)
            _, steps = openspiel_per_call(game, games)
            per_game = steps / games
            cpp = median_of(repeats, lambda g=game, n=per_game: openspiel_cpp_playouts(pyspiel, g, games, n))
            rows.append(
                {
                    "library": "OpenSpiel",
                    "game": name,
                    "per_call_us": 1e6 * median_of(repeats, lambda g=game: openspiel_per_call(g, games)),
                    "playout_ns": 1e9 * cpp,
                }
            )
    rows.append(
        {
            "library": "PettingZoo",
            "game": "connect_four (AEC)",
            "per_call_us": 1e6 * median_of(repeats, lambda: pettingzoo_aec(max(games // 4, 5))),
        }
    )
    for game_id in meeplex.games():
        game = meeplex.make(game_id)
        row = {
            "library": "meeplex",
            "game": game_id,
            "per_call_us": 1e6 * median_of(repeats, lambda g=game: meeplex_per_call(g, max(games // 10, 3))),
            "playout_ns": 1e9 * median_of(repeats, lambda g=game: meeplex_playouts(g, games)),
        }
        for n in (1, 64, 1024):
            calls = max(20, 20000 // n) if not args.quick else 20
            per_step = median_of(repeats, lambda g=game, n=n, c=calls: meeplex_vector(g, n, c))
            row[f"vector_{n}_msteps"] = 1e-6 / per_step
        rows.append(row)

    table = Table(title=f"meeplex next to its anchors (medians of {repeats} runs, one process, one core)")
    columns = [
        ("library", "library", "{}"),
        ("game", "game", "{}"),
        ("per_call_us", "Python per-call µs/step", "{:.2f}"),
        ("playout_ns", "native playout ns/step", "{:.0f}"),
        ("vector_1_msteps", "VectorGame(copy=False) n=1 M steps/s", "{:.2f}"),
        ("vector_64_msteps", "n=64", "{:.2f}"),
        ("vector_1024_msteps", "n=1024", "{:.2f}"),
    ]
    for _, title, _ in columns:
        table.add_column(title, justify="right")
    for row in rows:
        table.add_row(*[fmt.format(row[key]) if key in row else "-" for key, _, fmt in columns])
    Console().print(table)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
