"""``meeplex arena``: a seeded tournament between any number of agents, in this process, in local worker
processes or on Ray.

Game ``i`` of a run is a pure function of (game string, agent list, run seed, i): its seating is entry ``i``
of a fixed schedule (see :func:`schedule`) and its chance and agent streams derive from (seed, i). So the
backend and ``--jobs`` change only the wall time, never a result, and every recorded game can be replayed or
re-derived. Next to the win rates, each agent gets an OpenSkill rating (Plackett-Luce, the multiplayer model)
with its uncertainty, updated game by game in index order.
"""

from __future__ import annotations

import argparse
import functools
import itertools
import json
import math
import time
from collections.abc import Callable, Iterator, Sequence
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
    number,
    open_for_writing,
    positive,
    probe,
    progress_bar,
    requested_params,
    short_game_string,
    write_text,
)
from .parallel import Backend, Task, execute, fault_point, in_order, open_backend
from .records import GameRecord

_Z95 = 1.959963984540054  # the standard normal quantile of 0.975


@functools.cache
def _rating_model() -> Any:
    from openskill.models import PlackettLuce

    return PlackettLuce()


@dataclass
class ArenaResult:
    """Everything the arena table shows; ``seconds`` and ``wall_seconds`` are the only fields that vary
    between equal runs. ``seconds`` is the time spent in games, ``wall_seconds`` the run's duration.

    Per agent (its position in ``agents``): games played, wins, scores and the OpenSkill rating (``mu`` and
    its uncertainty ``sigma``); per seat (``seats`` of them): wins."""

    game: str
    seed: int
    agents: list[str]
    seats: int = 0
    games: int = 0
    agent_games: list[int] = field(default_factory=list)
    agent_wins: list[float] = field(default_factory=list)
    seat_wins: list[float] = field(default_factory=list)
    agent_scores: list[float] = field(default_factory=list)
    agent_score_lists: list[list[float]] = field(default_factory=list)
    rating_mu: list[float] = field(default_factory=list)
    rating_sigma: list[float] = field(default_factory=list)
    decisive: int = 0
    shared: int = 0
    no_winner: int = 0
    total_length: int = 0
    seconds: float = 0.0
    wall_seconds: float = 0.0
    interrupted: bool = False

    def __post_init__(self) -> None:
        n = len(self.agents)
        self.seats = self.seats or n
        self.agent_games = self.agent_games or [0] * n
        self.agent_wins = self.agent_wins or [0.0] * n
        self.seat_wins = self.seat_wins or [0.0] * self.seats
        self.agent_scores = self.agent_scores or [0.0] * n
        self.agent_score_lists = self.agent_score_lists or [[] for _ in range(n)]
        model = _rating_model()
        self.rating_mu = self.rating_mu or [float(model.mu)] * n
        self.rating_sigma = self.rating_sigma or [float(model.sigma)] * n

    def record(self, game: GameRecord) -> None:
        """Count one finished game (in index order, for the ratings to come out the same every time)."""
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
            self.agent_games[agent] += 1
            self.agent_wins[agent] += credit
            self.seat_wins[seat] += credit
            self.agent_scores[agent] += game.scores[seat]
            self.agent_score_lists[agent].append(game.scores[seat])
        self._rate(game.seating, returns)
        self.games += 1
        self.total_length += game.length
        self.seconds += game.seconds

    def _rate(self, seating: Sequence[int], returns: Sequence[float]) -> None:
        """One Plackett-Luce update: each seat a team of one, ranked by its return (equal returns tie, so a
        game without a winner is a draw between all seats). A solo game rates nothing."""
        if len(seating) < 2 or len(set(seating)) < len(seating):
            return
        model = _rating_model()
        teams = [[model.rating(mu=self.rating_mu[a], sigma=self.rating_sigma[a])] for a in seating]
        rated = model.rate(teams, scores=[float(r) for r in returns])
        for agent, (player,) in zip(seating, rated, strict=True):
            self.rating_mu[agent] = float(player.mu)
            self.rating_sigma[agent] = float(player.sigma)

    def win_interval(self, agent: int) -> tuple[float, float]:
        return wilson_interval(self.agent_wins[agent], self.agent_games[agent])

    def win_rate(self, agent: int) -> float:
        played = self.agent_games[agent]
        return self.agent_wins[agent] / played if played else 0.0

    def ordinal(self, agent: int) -> float:
        """The conservative rating ``mu - 3 sigma`` that leaderboards sort by."""
        return self.rating_mu[agent] - 3.0 * self.rating_sigma[agent]

    def summary(self) -> dict[str, Any]:
        """The JSON of ``--json``: the counts plus rates, intervals and ratings, without the score lists."""
        data = asdict(self)
        data.pop("agent_score_lists")
        n = len(self.agents)
        data["win_rate"] = [self.win_rate(k) for k in range(n)]
        data["win_ci95"] = [list(self.win_interval(k)) for k in range(n)]
        data["mean_score"] = [
            s / g if g else 0.0 for s, g in zip(self.agent_scores, self.agent_games, strict=True)
        ]
        data["rating_ordinal"] = [self.ordinal(k) for k in range(n)]
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


@functools.cache
def schedule(num_agents: int, seats: int) -> tuple[tuple[int, ...], ...]:
    """The seatings a run cycles through: ``schedule[j][seat]`` = the agent in that seat.

    With as many agents as seats, the rotations of ``0..n-1``. With more agents, every set of ``seats`` agents
    (in lexicographic order), each in all its rotations: over one cycle every agent meets every other, and in
    each meeting both take every seat equally often. ``len(schedule)`` games make one full cycle."""
    if not 1 <= seats <= num_agents:
        raise ValueError(f"{num_agents} agents cannot fill {seats} seats")
    groups = (
        [tuple(range(num_agents))]
        if seats == num_agents
        else itertools.combinations(range(num_agents), seats)
    )
    return tuple(
        tuple(group[(turn + seat) % seats] for seat in range(seats))
        for group in groups
        for turn in range(seats)
    )


def seating(game_index: int, num_agents: int, seats: int | None = None) -> list[int]:
    """``seating[seat]`` = the agent in that seat for game ``game_index`` (entry ``game_index`` of the
    cyclic :func:`schedule`). With one seat per agent (the default) it is rotated by one seat per game, so
    over a multiple of ``num_agents`` games every agent plays every seat equally often."""
    if seats is None or seats == num_agents:
        return [(game_index + seat) % num_agents for seat in range(num_agents)]
    cycle = schedule(num_agents, seats)
    return list(cycle[game_index % len(cycle)])


# ---------------------------------------------------------------------------------------------------------
# Playing games (in this process or a worker)


def play_arena_game(game: meeplex.Game, names: Sequence[str], seed: int, index: int) -> GameRecord:
    """Play game ``index`` of an arena run."""
    start = time.perf_counter()
    seats = seating(index, len(names), game.num_players())
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


def play_chunk(text: str, names: list[str], seed: int, start: int, stop: int, keep: bool) -> list[GameRecord]:
    """Games ``start..stop`` of a run (one task, on any backend); histories are dropped unless asked for
    (they are the bulk of what a worker sends back)."""
    game = _worker_games.get(text)
    if game is None:
        game = _worker_games[text] = meeplex.make(text)
    records = []
    for i in range(start, stop):
        if i == (start + stop) // 2:
            fault_point()
        records.append(play_arena_game(game, names, seed, i))
    if not keep:
        for record in records:
            record.history = []
    return records


def chunk_size(games: int, workers: int, chunk: int | None = None) -> int:
    """Games per task: ``chunk`` if given, else small enough to balance the workers and move the progress bar,
    large enough to amortise the cost of a task."""
    if chunk is not None:
        return chunk
    return max(1, min(64, games // (workers * 8) or 1))


def _tasks(text: str, names: list[str], games: int, seed: int, size: int, keep: bool) -> Iterator[Task]:
    for key, start in enumerate(range(0, games, size)):
        yield key, (text, names, seed, start, min(games, start + size), keep)


def run_arena(
    game: meeplex.Game,
    names: Sequence[str],
    games: int,
    seed: int,
    *,
    jobs: int = 1,
    backend: Backend | None = None,
    chunk: int | None = None,
    on_game: Callable[[GameRecord], None] | None = None,
    keep_history: bool = True,
) -> ArenaResult:
    """Play the run and count it; ``on_game`` sees every game in index order (whatever the backend).

    An interrupt (Ctrl-C) stops the run: the result then counts the games finished before the first one that
    did not (so it is still a prefix of the run) and has ``interrupted`` set."""
    text = game_string(game.name, game.params)
    names = list(names)
    backend = backend or Backend("local", jobs)
    result = ArenaResult(game=text, seed=seed, agents=names, seats=game.num_players())
    start = time.perf_counter()

    def finish(record: GameRecord) -> None:
        result.record(record)
        if on_game is not None:
            on_game(record)

    try:
        if backend.name == "local" and backend.jobs <= 1 and chunk is None:
            for index in range(games):
                finish(play_arena_game(game, names, seed, index))
        else:
            # Tasks finish out of order: hold them back until every earlier one is in, so that the counts,
            # the float sums, the ratings and the --out file come out exactly as in one process.
            size = chunk_size(games, backend.jobs, chunk)
            tasks = _tasks(text, names, games, seed, size, keep_history)
            for _, records in in_order(execute(play_chunk, tasks, backend)):
                for record in records:
                    finish(record)
    except KeyboardInterrupt:
        result.interrupted = True
    result.wall_seconds = time.perf_counter() - start
    return result


# ---------------------------------------------------------------------------------------------------------
# Output


def _labels(names: Sequence[str]) -> list[str]:
    """Agent names, numbered when the same agent plays more than once (random#0, random#1)."""
    return [f"{n}#{i}" if names.count(n) > 1 else n for i, n in enumerate(names)]


def _share(part: float, whole: int) -> str:
    return f"{100.0 * part / whole:.1f}%" if whole else "-"


def print_arena(result: ArenaResult, console: Console, how: str = "1 job") -> None:
    n = result.games
    title = short_game_string(meeplex.make(result.game))
    console.print(f"arena: {n} games of [bold]{escape(title)}[/], seed {result.seed}", soft_wrap=True)
    several = len(result.agents) > result.seats  # then agents play different numbers of games
    agents = Table()
    agents.add_column("agent", overflow="fold")
    columns = (["games"] if several else []) + [
        "wins",
        "win rate",
        "95% CI (Wilson)",
        "mean score",
    ]
    for column in columns:
        agents.add_column(column, justify="right", no_wrap=True)
    for k, label in enumerate(_labels(result.agents)):
        played = result.agent_games[k]
        low, high = result.win_interval(k)
        mean_score = result.agent_scores[k] / played if played else 0.0
        interval = f"{100 * low:.1f}-{100 * high:.1f}%" if played else "-"
        row = [escape(label)] + ([str(played)] if several else [])
        row += [
            number(result.agent_wins[k]),
            _share(result.agent_wins[k], played),
            interval,
            f"{mean_score:.2f}",
        ]
        agents.add_row(*row)
    blank = [""] * (len(columns) - 2 - (1 if several else 0))
    no_winner = ([""] if several else []) + [str(result.no_winner), _share(result.no_winner, n)] + blank
    agents.add_row("no winner", *no_winner, style="dim")
    console.print(agents)

    ratings = Table(title="ratings (OpenSkill, Plackett-Luce)", title_justify="left")
    ratings.add_column("agent")
    for column in ("rating μ", "uncertainty σ", "μ - 3σ", "rank"):
        ratings.add_column(column, justify="right", no_wrap=True)
    order = sorted(range(len(result.agents)), key=lambda k: (-result.ordinal(k), k))
    rank = {agent: place + 1 for place, agent in enumerate(order)}
    for k, label in enumerate(_labels(result.agents)):
        ratings.add_row(
            escape(label),
            f"{result.rating_mu[k]:.2f}",
            f"{result.rating_sigma[k]:.2f}",
            f"{result.ordinal(k):.2f}",
            str(rank[k]),
        )
    console.print(ratings)

    seats = Table(title="wins by seat", title_justify="left")
    for column in ("seat", "wins", "win rate"):
        seats.add_column(column, justify="right")
    for seat, wins in enumerate(result.seat_wins):
        seats.add_row(str(seat), number(wins), _share(wins, n))
    console.print(seats)

    summary = Table(show_header=False, box=None, padding=(0, 2))
    summary.add_column(no_wrap=True)
    summary.add_column(overflow="fold")
    cycle = len(schedule(len(result.agents), result.seats))
    rotation = "seats rotate each game" if not several else f"a schedule of {cycle} seatings"
    summary.add_row(f"games ({rotation})", str(n))
    if several and n < cycle:
        summary.add_row(
            "", f"fewer than the {cycle} games that meet every agent with every other in every seat"
        )
    summary.add_row(
        "won by one seat / shared / no winner", f"{result.decisive} / {result.shared} / {result.no_winner}"
    )
    summary.add_row("mean length (actions incl. chance)", f"{result.total_length / n:.1f}" if n else "-")
    summary.add_row("time per game", f"{1000.0 * result.seconds / n:.2f} ms" if n else "-")
    summary.add_row("wall time", f"{result.wall_seconds:.2f} s with {how}")
    console.print(summary)


def add_backend_options(parser: argparse.ArgumentParser, what: str = "tasks") -> None:
    """``--backend``, ``--address`` and ``--jobs``, shared by arena, selfplay and fuzz."""
    parser.add_argument(
        "--backend",
        choices=("local", "ray"),
        default="local",
        help="local processes, or Ray (a local Ray unless --address joins a cluster); same results",
    )
    parser.add_argument(
        "--address", metavar="ADDR", help="join the Ray cluster at ADDR (HOST:PORT, ray://HOST:PORT or auto)"
    )
    parser.add_argument(
        "--jobs",
        type=positive,
        help=f"parallel {what}: local processes (default 1), or Ray tasks in flight (default: the cluster's"
        " CPUs)",
    )


def arena_game(game_arg: str, pairs: Sequence[str], names: Sequence[str]) -> meeplex.Game:
    """The game of an arena run: ``players`` defaults to the number of agents (when the game has that
    parameter); more agents than seats play a schedule, fewer cannot fill a game."""
    name, params = requested_params(game_arg, pairs)
    if names and "players" not in params and "players" in meeplex.make(name).params:
        if probe(name, **{**params, "players": len(names)}) is None:
            raise ValueError(
                f"{name} does not seat {len(names)} players: give players=K to play {len(names)} agents "
                "K at a time"
            )
        params["players"] = len(names)
    game = meeplex.make(name, **params)
    if names and len(names) < game.num_players():
        raise ValueError(f"{len(names)} agents given for a {game.num_players()}-player game")
    return game


def cmd_arena(args: argparse.Namespace, console: Console) -> int:
    names = agent_list(args.agents)
    game = arena_game(args.game, args.params, names)
    names = names or ["random"] * game.num_players()
    check_agents(names)
    if args.plot:
        from .arena_plot import require_matplotlib

        require_matplotlib()  # before the run, not after an hour of games
    out = open_for_writing(args.out) if args.out else None  # a bad path fails before the run
    backend = open_backend(args.backend, args.jobs, args.address)
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
                backend=backend,
                chunk=args.chunk,
                on_game=on_game,
                keep_history=out is not None,
            )
    finally:
        backend.close()
        if out is not None:
            out.close()
    print_arena(result, console, backend.describe())
    if result.interrupted:
        console.print(
            f"[bold red]interrupted:[/] these are the first {result.games} of {args.games} games"
            + (f", all of them in {escape(args.out)}" if args.out else "")
        )
        return 130
    if args.json:
        write_text(args.json, json.dumps(result.summary(), indent=2) + "\n")
    if args.out:
        console.print(f"games written to {escape(args.out)} (meeplex replay {escape(args.out)} --index K)")
    if args.plot:
        from .arena_plot import plot_arena

        plot_arena(result, args.plot)
        console.print(f"plot written to {escape(args.plot)}")
    return 0


__all__ = [
    "ArenaResult",
    "add_backend_options",
    "play_arena_game",
    "print_arena",
    "run_arena",
    "schedule",
    "seating",
    "wilson_interval",
]
