"""Python-side speed of a game: the measuring code of ``benches/bench_python.py`` and ``meeplex bench``.

For one game (a game id or a game string):
  - Rust playout ns/step: ``meeplex.play_random`` (the whole loop in Rust) over many seeds, divided by the
    total history length (chance steps included);
  - Python per-call µs/step: the same random games driven from Python, one engine call at a time on the
    Rust state: ``current_player``, then ``legal_actions`` + ``apply_action`` at a decision or
    ``random_step`` at a chance node (what a Python agent pays);
  - oracle µs/step: ``meeplex.oracle.play_random``, the pure-Python reference (absent if the oracle does not
    have the game yet);
  - clone ns: ``state.clone()`` on a mid-game state (the Python call included);
  - MCTS simulations/s: ``MctsAgent(simulations=N).step`` on that mid-game state (the whole search in Rust,
    rollouts included), and ISMCTS (``information_sets=True``, a resample per simulation) likewise;
  - ratios per-call/playout and oracle/playout.
Every figure is the median of repeated runs. All the loops play the same seeded games (DESIGN's random step),
which is checked, so the per-step figures are comparable. Benchmarks measure; nothing here asserts on time.
"""

from __future__ import annotations

import platform
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from rich.console import Group
from rich.table import Table

import meeplex
from meeplex import _core
from meeplex._params import parse_game_string


@dataclass(frozen=True)
class Plan:
    """How much work one repeat does; --quick shrinks it to a smoke run."""

    repeats: int
    playout_seeds: int
    loop_seeds: int
    oracle_seeds: int
    clones: int
    simulations: int


FULL = Plan(repeats=7, playout_seeds=1000, loop_seeds=50, oracle_seeds=10, clones=100_000, simulations=2000)
QUICK = Plan(repeats=3, playout_seeds=50, loop_seeds=5, oracle_seeds=2, clones=5_000, simulations=200)


@dataclass
class Row:
    game: str
    mean_steps: float
    playout_ns_per_step: float
    per_call_us_per_step: float
    oracle_us_per_step: float | None
    clone_ns: float
    mcts_sims_per_s: float
    ismcts_sims_per_s: float
    per_call_over_playout: float
    oracle_over_playout: float | None
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
    """DESIGN's random step from Python, one engine call at a time: what a Python agent's loop costs.

    Per step ``current_player()``, then at a decision the agent's part (``legal_actions()``, ``Rng.below``,
    ``apply_action``) and at a chance node ``random_step(rng)``, the engine's own weighted draw (the same
    outcome as ``resolve_chance``'s pick over ``chance_weights()``, without building the list in Python).
    Until 2026-12 chance was drawn in Python from ``chance_weights()``; benches/RESULTS.md gives both.
    """
    rng = meeplex.Rng(seed)
    below = rng.below
    state = game.new_initial_state()
    while True:
        player = state.current_player()
        if player >= 0:
            # random_legal_action inlined: a Python function call per step would be measured too.
            legal = state.legal_actions()
            state.apply_action(legal[below(len(legal))])
        elif player == meeplex.CHANCE:
            state.random_step(rng)
        else:
            return state


def mid_game_state(game: meeplex.Game) -> meeplex.State:
    """A seat's decision halfway through random game 0: a typical position for a search agent."""
    history = meeplex.play_random(game, 0).history()
    state = game.new_initial_state()
    half = len(history) // 2
    for action in history[:half]:
        state.apply_action(action)
    for action in history[half:]:
        if not state.is_chance_node():
            break
        state.apply_action(action)
    return state


def oracle_game(text: str) -> Any | None:
    """The oracle's twin of the game, or None while the oracle does not have it."""
    import meeplex.oracle

    name = parse_game_string(text)[0]
    if name not in meeplex.oracle.games():
        return None
    return meeplex.oracle.make(text)


def same_games(game: meeplex.Game, oracle: Any | None, seed: int) -> bool:
    """The loops must play the same game, or their per-step times would not compare."""
    import meeplex.oracle

    rust = meeplex.play_random(game, seed).history()
    if rust != python_loop(game, seed).history():
        return False
    return oracle is None or rust == meeplex.oracle.play_random(oracle, seed).history()


def search_rate(state: meeplex.State, plan: Plan, *, information_sets: bool) -> float:
    """Simulations per second of one MCTS (or ISMCTS) decision on ``state``, the median of plan.repeats."""
    agent = _core.MctsAgent(simulations=plan.simulations, seed=1, information_sets=information_sets)
    return plan.simulations * 1e9 / median_ns(lambda: agent.step(state), plan.repeats)


def bench_game(text: str, plan: Plan) -> Row:
    """The benchmark row of one game: a game id (default parameters) or a full game string."""
    import meeplex.oracle

    game = meeplex.make(text)
    oracle = oracle_game(text)
    # The loops play the same games (checked below), so the fast Rust playout counts the steps for all.
    most = max(plan.playout_seeds, plan.loop_seeds, plan.oracle_seeds)
    lengths = [len(meeplex.play_random(game, seed).history()) for seed in range(most)]

    def per_step(play: Callable[[int], object], seeds: range, scale: float) -> float:
        ns = median_ns(lambda: [play(seed) for seed in seeds], plan.repeats)
        return ns / sum(lengths[: len(seeds)]) / scale

    playout = per_step(lambda s: meeplex.play_random(game, s), range(plan.playout_seeds), 1.0)
    per_call = per_step(lambda s: python_loop(game, s), range(plan.loop_seeds), 1000.0)
    oracle_us = None
    if oracle is not None:
        oracle_us = per_step(
            lambda s: meeplex.oracle.play_random(oracle, s), range(plan.oracle_seeds), 1000.0
        )

    state = mid_game_state(game)
    clones = range(plan.clones)

    def clone_many() -> None:
        # Each clone is dropped at once: a list of 100,000 kept states would measure page faults instead.
        for _ in clones:
            state.clone()

    clone_ns = median_ns(clone_many, plan.repeats) / plan.clones
    mcts = search_rate(state, plan, information_sets=False)
    ismcts = search_rate(state, plan, information_sets=True)

    return Row(
        game=text,
        mean_steps=sum(lengths[: plan.playout_seeds]) / plan.playout_seeds,
        playout_ns_per_step=playout,
        per_call_us_per_step=per_call,
        oracle_us_per_step=oracle_us,
        clone_ns=clone_ns,
        mcts_sims_per_s=mcts,
        ismcts_sims_per_s=ismcts,
        per_call_over_playout=per_call * 1000.0 / playout,
        oracle_over_playout=None if oracle_us is None else oracle_us * 1000.0 / playout,
        same_games=same_games(game, oracle, 1),
    )


def table(rows: Sequence[Row], plan: Plan) -> Group:
    """The loops' table, then the search table (two, so that each fits an 80-column terminal)."""
    return Group(loops_table(rows, plan), search_table(rows, plan))


def search_table(rows: Sequence[Row], plan: Plan) -> Table:
    out = Table(
        title=f"search: one {plan.simulations}-simulation decision on a mid-game state",
        title_justify="left",
    )
    out.add_column("game", no_wrap=True)
    out.add_column("MCTS\nsims/s", justify="right")
    out.add_column("ISMCTS\nsims/s", justify="right")
    for r in rows:
        out.add_row(r.game, f"{r.mcts_sims_per_s:,.0f}", f"{r.ismcts_sims_per_s:,.0f}")
    return out


def loops_table(rows: Sequence[Row], plan: Plan) -> Table:
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
            "-" if r.oracle_us_per_step is None else f"{r.oracle_us_per_step:.1f}",
            f"{r.clone_ns:.0f}",
            f"{r.per_call_over_playout:.1f}x",
            "-" if r.oracle_over_playout is None else f"{r.oracle_over_playout:.0f}x",
            "[green]yes[/]" if r.same_games else "[bold red]NO[/]",
        )
    return out


def report(rows: Sequence[Row], plan: Plan) -> dict[str, Any]:
    """The figures as JSON, with what a reader needs to compare two runs."""
    meta = {
        "statistic": "median",
        "plan": asdict(plan),
        "meeplex": meeplex.__version__,
        "python": platform.python_version(),
        "machine": platform.machine(),
    }
    return {"meta": meta, "games": [asdict(r) for r in rows]}


__all__ = [
    "FULL",
    "QUICK",
    "Plan",
    "Row",
    "bench_game",
    "median_ns",
    "mid_game_state",
    "python_loop",
    "report",
    "same_games",
    "table",
]
