"""Python-side speed of every registered game, side by side in one run.

For each game with default parameters:
  - Rust playout ns/step: ``meeplex.play_random`` (the whole loop in Rust) over many seeds, divided by the
    total history length (chance steps included);
  - Python per-call µs/step: the same random games driven from Python, one ``legal_actions`` /
    ``chance_weights`` + ``apply_action`` call per step on the Rust state (what a Python agent pays);
  - oracle µs/step: ``meeplex.oracle.play_random``, the pure-Python reference;
  - clone ns: ``state.clone()`` on a mid-game state (the Python call included);
  - ratios per-call/playout and oracle/playout.
Every figure is the median of repeated runs. All three loops play the same seeded games (DESIGN's random
step), which the script checks, so the per-step figures are comparable.

    python benches/bench_python.py [--quick] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass

from rich.console import Console
from rich.table import Table

import meeplex
import meeplex.oracle
from meeplex.agents import random_legal_action, resolve_chance


@dataclass(frozen=True)
class Plan:
    """How much work one repeat does; --quick shrinks it to a smoke run."""

    repeats: int
    playout_seeds: int
    loop_seeds: int
    oracle_seeds: int
    clones: int


FULL = Plan(repeats=7, playout_seeds=1000, loop_seeds=50, oracle_seeds=10, clones=100_000)
QUICK = Plan(repeats=3, playout_seeds=50, loop_seeds=5, oracle_seeds=2, clones=5_000)


@dataclass
class Row:
    game: str
    mean_steps: float
    playout_ns_per_step: float
    per_call_us_per_step: float
    oracle_us_per_step: float
    clone_ns: float
    per_call_over_playout: float
    oracle_over_playout: float
    same_games: bool


def median_ns(fn: Callable[[], object], repeats: int) -> float:
    """The median wall time of ``fn()`` in ns; one untimed call first warms caches and lazy imports."""
    fn()
    times = []
    for _ in range(repeats):
        start = time.perf_counter_ns()
        fn()
        times.append(time.perf_counter_ns() - start)
    return statistics.median(times)


def python_loop(game: meeplex.Game, seed: int) -> meeplex.State:
    """DESIGN's random step from Python, one engine call at a time: what a Python agent's loop costs."""
    rng = meeplex.Rng(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        step = resolve_chance if state.is_chance_node() else random_legal_action
        state.apply_action(step(state, rng))
    return state


def mid_game_state(game: meeplex.Game) -> meeplex.State:
    """The state halfway through random game 0: a typical position for a search agent to clone."""
    history = meeplex.play_random(game, 0).history()
    state = game.new_initial_state()
    for action in history[: len(history) // 2]:
        state.apply_action(action)
    return state


def same_games(game: meeplex.Game, oracle_game: object, seed: int) -> bool:
    """The three loops must play the same game, or their per-step times would not compare."""
    rust = meeplex.play_random(game, seed).history()
    oracle = meeplex.oracle.play_random(oracle_game, seed).history()
    return rust == python_loop(game, seed).history() == oracle


def bench_game(name: str, plan: Plan) -> Row:
    game = meeplex.make(name)
    oracle_game = meeplex.oracle.make(name)
    # The three loops play the same games (checked below), so the fast Rust playout counts the steps for all.
    most = max(plan.playout_seeds, plan.loop_seeds, plan.oracle_seeds)
    lengths = [len(meeplex.play_random(game, seed).history()) for seed in range(most)]

    def per_step(play: Callable[[int], object], seeds: range, scale: float) -> float:
        ns = median_ns(lambda: [play(seed) for seed in seeds], plan.repeats)
        return ns / sum(lengths[: len(seeds)]) / scale

    playout = per_step(lambda s: meeplex.play_random(game, s), range(plan.playout_seeds), 1.0)
    per_call = per_step(lambda s: python_loop(game, s), range(plan.loop_seeds), 1000.0)
    oracle = per_step(lambda s: meeplex.oracle.play_random(oracle_game, s), range(plan.oracle_seeds), 1000.0)

    state = mid_game_state(game)
    clones = range(plan.clones)
    clone_ns = median_ns(lambda: [state.clone() for _ in clones], plan.repeats) / plan.clones

    return Row(
        game=name,
        mean_steps=sum(lengths[: plan.playout_seeds]) / plan.playout_seeds,
        playout_ns_per_step=playout,
        per_call_us_per_step=per_call,
        oracle_us_per_step=oracle,
        clone_ns=clone_ns,
        per_call_over_playout=per_call * 1000.0 / playout,
        oracle_over_playout=oracle * 1000.0 / playout,
        same_games=same_games(game, oracle_game, 1),
    )


def table(rows: list[Row], plan: Plan) -> Table:
    out = Table(
        title=f"meeplex Python benchmark: medians of {plan.repeats} repeats",
        title_justify="left",
        caption=(
            f"playout: {plan.playout_seeds} seeds, per-call: {plan.loop_seeds}, oracle: {plan.oracle_seeds}; "
            f"clone: {plan.clones} calls on a mid-game state. A step is any action, chance included."
        ),
        caption_justify="left",
    )
    out.add_column("game", no_wrap=True)
    for column in ("steps/game", "playout\nns/step", "per-call\nµs/step", "oracle\nµs/step", "clone\nns"):
        out.add_column(column, justify="right")
    out.add_column("per-call /\nplayout", justify="right", style="cyan")
    out.add_column("oracle /\nplayout", justify="right", style="cyan")
    out.add_column("same\ngames", justify="center")
    for r in rows:
        out.add_row(
            r.game,
            f"{r.mean_steps:.0f}",
            f"{r.playout_ns_per_step:.0f}",
            f"{r.per_call_us_per_step:.2f}",
            f"{r.oracle_us_per_step:.1f}",
            f"{r.clone_ns:.0f}",
            f"{r.per_call_over_playout:.1f}x",
            f"{r.oracle_over_playout:.0f}x",
            "[green]yes[/]" if r.same_games else "[bold red]NO[/]",
        )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a fast smoke run (fewer seeds and repeats)")
    parser.add_argument("--json", metavar="PATH", help="also write the figures as JSON")
    parser.add_argument("--game", action="append", help="only this game (repeatable; default: all)")
    args = parser.parse_args(argv)
    plan = QUICK if args.quick else FULL
    # Wide enough for the nine columns when the output goes to a file or a CI log (rich's default is 80).
    console = Console() if sys.stdout.isatty() else Console(width=140)
    names = args.game or meeplex.games()
    rows = []
    with console.status("benchmarking") as status:
        for name in names:
            status.update(f"benchmarking {name}")
            rows.append(bench_game(name, plan))
    console.print(table(rows, plan))
    if args.json:
        meta = {
            "statistic": "median",
            "plan": asdict(plan),
            "meeplex": meeplex.__version__,
            "python": platform.python_version(),
            "machine": platform.machine(),
        }
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"meta": meta, "games": [asdict(r) for r in rows]}, out, indent=2)
    return 0 if all(r.same_games for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
