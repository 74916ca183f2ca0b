"""``meeplex arena``: a seeded tournament between agents, optionally in parallel processes.

Game ``i`` of a run is a pure function of (game string, agent list, run seed, i): its seating rotates with
``i`` and its chance and agent streams derive from (seed, i). So ``--jobs`` changes only the wall time, never
a result, and every recorded game can be replayed or re-derived.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import signal
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass, field
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

import meeplex
from meeplex._params import game_string
from meeplex.agents import make_agent

from .common import (
    agent_list,
    agent_seed,
    chance_seed,
    check_agents,
    game_for_seats,
    number,
    open_for_writing,
    progress_bar,
    short_game_string,
    write_text,
)
from .records import GameRecord

_Z95 = 1.959963984540054  # the standard normal quantile of 0.975


@dataclass
class ArenaResult:
    """Everything the arena table shows; ``seconds`` and ``wall_seconds`` are the only fields that vary
    between equal runs. ``seconds`` is the time spent in games, ``wall_seconds`` the run's duration."""

    game: str
    seed: int
    agents: list[str]
    games: int = 0
    agent_wins: list[float] = field(default_factory=list)
    seat_wins: list[float] = field(default_factory=list)
    agent_scores: list[float] = field(default_factory=list)
    agent_score_lists: list[list[float]] = field(default_factory=list)
    decisive: int = 0
    shared: int = 0
    no_winner: int = 0
    total_length: int = 0
    seconds: float = 0.0
    wall_seconds: float = 0.0

    def __post_init__(self) -> None:
        n = len(self.agents)
        self.agent_wins = self.agent_wins or [0.0] * n
        self.seat_wins = self.seat_wins or [0.0] * n
        self.agent_scores = self.agent_scores or [0.0] * n
        self.agent_score_lists = self.agent_score_lists or [[] for _ in range(n)]

    def record(self, game: GameRecord) -> None:
        """Count one finished game."""
        returns = game.returns
        total = sum(returns)
        winners = sum(1 for r in returns if r > 0)
        if winners == 0:
            self.no_winner += 1
        elif winners == 1:
            self.decisive += 1
        else:
            self.shared += 1
        for seat, agent in enumerate(game.seating):
            # A win is worth 1 game in total: a shared victory (or a co-operative one) is split by returns.
            credit = returns[seat] / total if total > 0 else 0.0
            self.agent_wins[agent] += credit
            self.seat_wins[seat] += credit
            self.agent_scores[agent] += game.scores[seat]
            self.agent_score_lists[agent].append(game.scores[seat])
        self.games += 1
        self.total_length += game.length
        self.seconds += game.seconds

    def win_interval(self, agent: int) -> tuple[float, float]:
        return wilson_interval(self.agent_wins[agent], self.games)

    def summary(self) -> dict[str, Any]:
        """The JSON of ``--json``: the counts plus rates and intervals, without the per-game score lists."""
        data = asdict(self)
        data.pop("agent_score_lists")
        data["win_rate"] = [w / self.games if self.games else 0.0 for w in self.agent_wins]
        data["win_ci95"] = [list(self.win_interval(k)) for k in range(len(self.agents))]
        data["mean_score"] = [s / self.games if self.games else 0.0 for s in self.agent_scores]
        return data


def wilson_interval(wins: float, games: int, z: float = _Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate: unlike the normal approximation it stays inside [0, 1] and
    is sound for small samples and rates near 0 or 1. Fractional wins (shared victories) count as given."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    denominator = 1.0 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1.0 - p) / games + z * z / (4 * games * games)) / denominator
    # At 0 or all wins the bound is exactly 0 or 1: pin it, rounding would leave 1e-18 outside the rate.
    low = 0.0 if wins <= 0 else max(0.0, centre - half)
    high = 1.0 if wins >= games else min(1.0, centre + half)
    return low, high


def seating(game_index: int, num_agents: int) -> list[int]:
    """``seating[seat]`` = the agent in that seat for game ``game_index``: rotated by one seat per game, so
    over a multiple of ``num_agents`` games every agent plays every seat equally often."""
    return [(game_index + seat) % num_agents for seat in range(num_agents)]


# ---------------------------------------------------------------------------------------------------------
# Playing games (in this process or a worker)


def play_arena_game(game: meeplex.Game, names: Sequence[str], seed: int, index: int) -> GameRecord:
    """Play game ``index`` of an arena run."""
    start = time.perf_counter()
    seats = seating(index, len(names))
    # An agent's seed depends on the agent (not the seat); a fresh agent per game keeps games independent.
    agents = [make_agent(names[a], agent_seed(seed, index, a)) for a in seats]
    chance = meeplex.Rng(chance_seed(seed, index))
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.random_step(chance)  # resolve_chance's outcome, drawn in the engine
        else:
            state.apply_action(agents[state.current_player()].step(state))
    history = state.history()
    return GameRecord(
        game=game_string(game.name, game.params),
        seed=seed,
        index=index,
        agents=[names[a] for a in seats],
        seating=seats,
        history=history,
        returns=list(state.returns()),
        scores=list(state.scores()),
        length=len(history),
        seconds=time.perf_counter() - start,
    )


_worker_games: dict[str, meeplex.Game] = {}


def _ignore_interrupts() -> None:
    # Ctrl-C reaches the whole process group: the parent cancels the run; workers must not print tracebacks.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _play_chunk(text: str, names: list[str], seed: int, indices: range, keep: bool) -> list[GameRecord]:
    """Games ``indices`` in a worker process; histories are dropped unless asked for (they are the bulk)."""
    game = _worker_games.get(text)
    if game is None:
        game = _worker_games[text] = meeplex.make(text)
    records = [play_arena_game(game, names, seed, i) for i in indices]
    if not keep:
        for record in records:
            record.history = []
    return records


def _chunks(games: int, jobs: int) -> Iterator[range]:
    # Small enough to balance the workers and move the progress bar, large enough to amortise the pickling.
    size = max(1, min(64, games // (jobs * 8) or 1))
    for start in range(0, games, size):
        yield range(start, min(games, start + size))


def _parallel(
    text: str, names: list[str], games: int, seed: int, jobs: int, keep: bool
) -> Iterator[list[GameRecord]]:
    """Chunks of finished games in completion order, at most a few chunks per worker in flight."""
    context = multiprocessing.get_context("spawn")  # no fork of a process that runs rich's refresh thread
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_ignore_interrupts)
    pending: set[Future[list[GameRecord]]] = set()
    chunks = _chunks(games, jobs)
    try:
        for chunk in chunks:
            pending.add(pool.submit(_play_chunk, text, names, seed, chunk, keep))
            if len(pending) >= 4 * jobs:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                yield from (future.result() for future in done)
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            yield from (future.result() for future in done)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def run_arena(
    game: meeplex.Game,
    names: Sequence[str],
    games: int,
    seed: int,
    *,
    jobs: int = 1,
    on_game: Callable[[GameRecord], None] | None = None,
    keep_history: bool = True,
) -> ArenaResult:
    """Play the run and count it; ``on_game`` sees every game in index order (whatever ``jobs`` is)."""
    text = game_string(game.name, game.params)
    names = list(names)
    result = ArenaResult(game=text, seed=seed, agents=names)
    start = time.perf_counter()

    def finish(record: GameRecord) -> None:
        result.record(record)
        if on_game is not None:
            on_game(record)

    if jobs <= 1:
        for index in range(games):
            finish(play_arena_game(game, names, seed, index))
    else:
        # Workers finish out of order: hold games back until every earlier one is in, so that the counts,
        # the float sums and the --out file come out exactly as with --jobs 1.
        waiting: dict[int, GameRecord] = {}
        next_index = 0
        for chunk in _parallel(text, names, games, seed, jobs, keep_history):
            waiting.update((record.index, record) for record in chunk)
            while next_index in waiting:
                finish(waiting.pop(next_index))
                next_index += 1
    result.wall_seconds = time.perf_counter() - start
    return result


# ---------------------------------------------------------------------------------------------------------
# Output


def _labels(names: Sequence[str]) -> list[str]:
    """Agent names, numbered when the same agent plays more than once (random#0, random#1)."""
    return [f"{n}#{i}" if names.count(n) > 1 else n for i, n in enumerate(names)]


def _share(part: float, whole: int) -> str:
    return f"{100.0 * part / whole:.1f}%" if whole else "-"


def print_arena(result: ArenaResult, console: Console, jobs: int = 1) -> None:
    n = result.games
    title = short_game_string(meeplex.make(result.game))
    console.print(f"arena: {n} games of [bold]{escape(title)}[/], seed {result.seed}", soft_wrap=True)
    agents = Table()
    agents.add_column("agent")
    for column in ("wins", "win rate", "95% CI (Wilson)", "mean score"):
        agents.add_column(column, justify="right", no_wrap=True)
    for k, label in enumerate(_labels(result.agents)):
        low, high = result.win_interval(k)
        mean_score = result.agent_scores[k] / n if n else 0.0
        interval = f"{100 * low:.1f}-{100 * high:.1f}%" if n else "-"
        agents.add_row(
            escape(label),
            number(result.agent_wins[k]),
            _share(result.agent_wins[k], n),
            interval,
            f"{mean_score:.2f}",
        )
    agents.add_row("no winner", str(result.no_winner), _share(result.no_winner, n), "", "", style="dim")
    console.print(agents)

    seats = Table(title="wins by seat", title_justify="left")
    for column in ("seat", "wins", "win rate"):
        seats.add_column(column, justify="right")
    for seat, wins in enumerate(result.seat_wins):
        seats.add_row(str(seat), number(wins), _share(wins, n))
    console.print(seats)

    summary = Table(show_header=False, box=None, padding=(0, 2))
    summary.add_column(no_wrap=True)
    summary.add_column(overflow="fold")
    summary.add_row("games (seats rotate each game)", str(n))
    summary.add_row(
        "won by one seat / shared / no winner", f"{result.decisive} / {result.shared} / {result.no_winner}"
    )
    summary.add_row("mean length (actions incl. chance)", f"{result.total_length / n:.1f}" if n else "-")
    summary.add_row("time per game", f"{1000.0 * result.seconds / n:.2f} ms" if n else "-")
    summary.add_row("wall time", f"{result.wall_seconds:.2f} s with {jobs} job{'s' if jobs > 1 else ''}")
    console.print(summary)


def cmd_arena(args: argparse.Namespace, console: Console) -> int:
    names = agent_list(args.agents)
    game = game_for_seats(args.game, args.params, names, "agents")
    names = names or ["random"] * game.num_players()
    check_agents(names)
    if args.plot:
        from .arena_plot import require_matplotlib

        require_matplotlib()  # before the run, not after an hour of games
    out = open_for_writing(args.out) if args.out else None  # a bad path fails before the run
    try:
        with progress_bar(console) as progress:
            task = progress.add_task(f"arena {game.name}", total=args.games)

            def on_game(record: GameRecord) -> None:
                if out is not None:
                    out.write(record.to_json() + "\n")
                progress.advance(task)

            result = run_arena(
                game,
                names,
                args.games,
                args.seed,
                jobs=args.jobs,
                on_game=on_game,
                keep_history=out is not None,
            )
    finally:
        if out is not None:
            out.close()
    print_arena(result, console, args.jobs)
    if args.json:
        write_text(args.json, json.dumps(result.summary(), indent=2) + "\n")
    if args.out:
        console.print(f"games written to {escape(args.out)} (meeplex replay {escape(args.out)} --index K)")
    if args.plot:
        from .arena_plot import plot_arena

        plot_arena(result, args.plot)
        console.print(f"plot written to {escape(args.plot)}")
    return 0


__all__ = ["ArenaResult", "play_arena_game", "print_arena", "run_arena", "seating", "wilson_interval"]
