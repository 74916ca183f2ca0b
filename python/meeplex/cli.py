"""The ``meeplex`` command: ``list``, ``arena`` (seeded tournaments) and ``fuzz`` (Rust core vs oracle).

Every run is a pure function of its arguments and seed, so a table or a failure can always be reproduced.
Errors a user can cause (unknown game, agent or parameter) end in one red line and exit code 2.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

import meeplex
from meeplex._params import game_string, parse_game_string
from meeplex.agents import agent_names, make_agent, resolve_chance
from meeplex.errors import GameError

_MASK64 = (1 << 64) - 1
# Player counts tried when probing which ones a game accepts; no tabletop game here seats more.
_PLAYER_PROBE = range(1, 13)
# Small values tried for every other int parameter: the extreme, short or degenerate games find bugs.
_INT_PROBE = (0, 1)


# ---------------------------------------------------------------------------------------------------------
# Games and parameters from the command line


def _parse_pairs(pairs: Sequence[str]) -> dict[str, Any]:
    """``["office=true", "players=3"]`` -> typed dict, with values parsed exactly as in game strings."""
    params: dict[str, Any] = {}
    for item in pairs:
        if "=" not in item:
            raise ValueError(f"bad parameter {item!r}: expected key=value")
        # The game-string parser types ints/bools/strings exactly as meeplex.make("g(k=v)") would.
        _, parsed = parse_game_string(f"p({item})")
        for key, value in parsed.items():
            if key in params:
                raise ValueError(f"parameter {key!r} given twice")
            params[key] = value
    return params


def _check_game_name(name: str) -> None:
    known = meeplex.games()
    if name not in known:
        raise ValueError(f"unknown game {name!r} (known: {', '.join(known)})")


def _requested_params(game_arg: str, pairs: Sequence[str]) -> tuple[str, dict[str, Any]]:
    """The game id and the parameters the user asked for (from ``g(k=v)`` and/or ``k=v`` arguments)."""
    name, from_string = parse_game_string(game_arg)
    _check_game_name(name)
    params = dict(from_string)
    for key, value in _parse_pairs(pairs).items():
        if key in params:
            raise ValueError(f"parameter {key!r} given twice")
        params[key] = value
    return name, params


def _probe(name: str, **overrides: Any) -> meeplex.Game | None:
    """The game with these parameters, or None if the game rejects them."""
    try:
        return meeplex.make(name, **overrides)
    except (GameError, ValueError):
        return None


def _accepted_players(name: str) -> list[int]:
    if "players" not in meeplex.make(name).params:
        return []
    return [n for n in _PLAYER_PROBE if _probe(name, players=n) is not None]


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _mix64(value: int) -> int:
    """SplitMix64's output function: spreads nearby inputs (seed, seed+1) over unrelated 64-bit seeds."""
    z = (value + 0x9E3779B97F4A7C15) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


def derive_seed(seed: int, *parts: int) -> int:
    """The seed of one sub-stream (game i, agent k) of a run seeded with ``seed``.

    Mixed rather than ``seed + i`` so that one game's chance stream is never another game's agent stream.
    """
    value = _mix64(seed & _MASK64)
    for part in parts:
        value = _mix64(value ^ (part & _MASK64))
    return value


# ---------------------------------------------------------------------------------------------------------
# meeplex list


def cmd_list(args: argparse.Namespace, console: Console) -> int:
    table = Table(title="meeplex games", title_justify="left")
    table.add_column("game", style="bold cyan")
    table.add_column("parameter")
    table.add_column("type", style="dim")
    table.add_column("default", justify="right")
    for name in meeplex.games():
        params = meeplex.make(name).params
        players = _accepted_players(name)
        first = True
        for key in sorted(params):
            value = params[key]
            kind = type(value).__name__
            if key == "players" and players:
                kind = f"int {players[0]}..{players[-1]}"
            table.add_row(name if first else "", key, kind, _show(value))
            first = False
        if first:  # a game without parameters still gets its row
            table.add_row(name, "-", "", "")
        table.add_section()
    console.print(table)
    console.print(f"agents: {', '.join(agent_names())}")
    return 0


# ---------------------------------------------------------------------------------------------------------
# meeplex arena


@dataclass
class ArenaResult:
    """Everything the arena table shows; ``seconds`` is the only field that varies between equal runs."""

    game: str
    seed: int
    agents: list[str]
    games: int = 0
    agent_wins: list[float] = field(default_factory=list)
    seat_wins: list[float] = field(default_factory=list)
    agent_scores: list[float] = field(default_factory=list)
    decisive: int = 0
    shared: int = 0
    no_winner: int = 0
    total_length: int = 0
    seconds: float = 0.0

    def __post_init__(self) -> None:
        n = len(self.agents)
        self.agent_wins = self.agent_wins or [0.0] * n
        self.seat_wins = self.seat_wins or [0.0] * n
        self.agent_scores = self.agent_scores or [0.0] * n


def seating(game_index: int, num_agents: int) -> list[int]:
    """``seating[seat]`` = the agent in that seat for game ``game_index``: rotated by one seat per game, so
    over a multiple of ``num_agents`` games every agent plays every seat equally often."""
    return [(game_index + seat) % num_agents for seat in range(num_agents)]


def play_arena_game(game: meeplex.Game, names: Sequence[str], seed: int, index: int) -> tuple[list[int], Any]:
    """Play game ``index`` of an arena; return the seating and the terminal state."""
    seats = seating(index, len(names))
    # An agent's seed depends on the agent (not the seat), a fresh agent per game keeps games independent.
    agents = [make_agent(names[a], derive_seed(seed, index, 1 + a)) for a in seats]
    chance = meeplex.Rng(derive_seed(seed, index, 0))
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            action = resolve_chance(state, chance)
        else:
            action = agents[state.current_player()].step(state)
        state.apply_action(action)
    return seats, state


def _record(result: ArenaResult, seats: list[int], state: Any) -> None:
    returns = state.returns()
    scores = state.scores()
    total = sum(returns)
    winners = sum(1 for r in returns if r > 0)
    if winners == 0:
        result.no_winner += 1
    elif winners == 1:
        result.decisive += 1
    else:
        result.shared += 1
    for seat, agent in enumerate(seats):
        # A win is worth 1 game in total: a shared victory (or a co-operative one) is split by returns.
        credit = returns[seat] / total if total > 0 else 0.0
        result.agent_wins[agent] += credit
        result.seat_wins[seat] += credit
        result.agent_scores[agent] += scores[seat]
    result.games += 1
    result.total_length += len(state.history())


def _progress(console: Console, *, count: bool = True) -> Progress:
    columns: list[Any] = [TextColumn("[progress.description]{task.description}"), BarColumn()]
    columns.append(MofNCompleteColumn() if count else TaskProgressColumn())
    columns += [TimeElapsedColumn(), TimeRemainingColumn()]
    return Progress(*columns, console=console, transient=True)


def run_arena(
    game: meeplex.Game, names: Sequence[str], games: int, seed: int, on_game: Callable[[], None] | None = None
) -> ArenaResult:
    result = ArenaResult(game=game_string(game.name, game.params), seed=seed, agents=list(names))
    start = time.perf_counter()
    for index in range(games):
        seats, state = play_arena_game(game, names, seed, index)
        _record(result, seats, state)
        if on_game is not None:
            on_game()
    result.seconds = time.perf_counter() - start
    return result


def _arena_game(args: argparse.Namespace) -> tuple[meeplex.Game, list[str]]:
    """The game and the agent list, with ``players`` defaulting to the number of agents given."""
    name, params = _requested_params(args.game, args.params)
    names = [a.strip() for a in args.agents.split(",")] if args.agents else []
    if names and "players" not in params and "players" in meeplex.make(name).params:
        params["players"] = len(names)
    game = meeplex.make(name, **params)
    if not names:
        names = ["random"] * game.num_players()
    if len(names) != game.num_players():
        raise ValueError(f"{len(names)} agents given for a {game.num_players()}-player game")
    for agent in names:
        make_agent(agent, 0)  # fail on an unknown name before the run starts
    return game, names


def _agent_labels(names: Sequence[str]) -> list[str]:
    """Agent names, numbered when the same agent plays more than once (random#0, random#1)."""
    return [f"{n}#{i}" if names.count(n) > 1 else n for i, n in enumerate(names)]


def _share(part: float, whole: int) -> str:
    return f"{100.0 * part / whole:.1f}%" if whole else "-"


def _num(value: float) -> str:
    return f"{value:g}" if value == int(value) else f"{value:.2f}"


def print_arena(result: ArenaResult, console: Console) -> None:
    n = result.games
    labels = _agent_labels(result.agents)
    console.print(f"arena: {n} games of [bold]{escape(result.game)}[/], seed {result.seed}", soft_wrap=True)
    agents = Table()
    for column in ("agent", "wins", "share", "mean score"):
        agents.add_column(column, justify="left" if column == "agent" else "right")
    for k, label in enumerate(labels):
        mean_score = result.agent_scores[k] / n if n else 0.0
        agents.add_row(
            label, _num(result.agent_wins[k]), _share(result.agent_wins[k], n), f"{mean_score:.2f}"
        )
    agents.add_row("no winner", str(result.no_winner), _share(result.no_winner, n), "", style="dim")
    console.print(agents)

    seats = Table(title="wins by seat", title_justify="left")
    for column in ("seat", "wins", "share"):
        seats.add_column(column, justify="right")
    for seat, wins in enumerate(result.seat_wins):
        seats.add_row(str(seat), _num(wins), _share(wins, n))
    console.print(seats)

    summary = Table(show_header=False, box=None, padding=(0, 2))
    summary.add_column(no_wrap=True)
    summary.add_column(overflow="fold")
    summary.add_row("games (seats rotate each game)", str(n))
    outcomes = f"{result.decisive} / {result.shared} / {result.no_winner}"
    summary.add_row("won by one seat / shared / no winner", outcomes)
    summary.add_row("mean length (actions incl. chance)", f"{result.total_length / n:.1f}" if n else "-")
    summary.add_row("time per game", f"{1000.0 * result.seconds / n:.2f} ms" if n else "-")
    console.print(summary)


def cmd_arena(args: argparse.Namespace, console: Console) -> int:
    game, names = _arena_game(args)
    with _progress(console) as progress:
        task = progress.add_task(f"arena {game.name}", total=args.games)
        result = run_arena(game, names, args.games, args.seed, lambda: progress.advance(task))
    print_arena(result, console)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(asdict(result), out, indent=2)
    return 0


# ---------------------------------------------------------------------------------------------------------
# meeplex fuzz


def variants(name: str) -> list[str]:
    """Game strings covering one game generically: its defaults, each boolean flipped, every accepted player
    count, and small values (0, 1) of the other int parameters, keeping those the game accepts."""
    defaults = meeplex.make(name).params
    candidates: list[dict[str, Any]] = [{}]
    for key in sorted(defaults):
        value = defaults[key]
        if isinstance(value, bool):
            candidates.append({key: not value})
        elif isinstance(value, int):
            probe = _PLAYER_PROBE if key == "players" else _INT_PROBE
            candidates += [{key: v} for v in probe if v != value]
    found: list[str] = []
    for overrides in candidates:
        text = game_string(name, overrides)
        if _probe(name, **overrides) is not None and text not in found:
            found.append(text)
    return found


def _fuzz_targets(args: argparse.Namespace) -> list[str]:
    if args.game == "all":
        if args.params:
            raise ValueError("parameters need a single game, not 'all'")
        return [text for name in meeplex.games() for text in variants(name)]
    name, params = _requested_params(args.game, args.params)
    meeplex.make(name, **params)  # reject bad parameters now, with the game's own message
    return [game_string(name, params)]


@dataclass
class FuzzStats:
    games: int = 0
    steps: int = 0
    disagreements: int = 0


class _Budget:
    """How long the fuzz runs: a number of games, or minutes of wall time."""

    def __init__(self, games: int | None, minutes: float | None) -> None:
        self.games = games
        self.seconds = None if minutes is None else 60.0 * minutes
        self.start = time.monotonic()

    @property
    def total(self) -> float:
        return float(self.games) if self.seconds is None else self.seconds

    def done(self, played: int) -> float:
        return float(played) if self.seconds is None else min(self.elapsed(), self.seconds)

    def elapsed(self) -> float:
        return time.monotonic() - self.start

    def more(self, played: int) -> bool:
        return played < self.games if self.seconds is None else self.elapsed() < self.seconds


def _fuzz_runs(targets: list[str], seed: int, budget: _Budget) -> Iterator[tuple[int, str, int]]:
    """(game number, game string, seed): variants in turn, seeds counting up from ``seed``."""
    index = 0
    while budget.more(index):
        yield index, targets[index % len(targets)], (seed + index) & _MASK64
        index += 1


def _steps_of(target: str, seed: int, cache: dict[str, meeplex.Game]) -> int:
    """Steps in the random game that ``compare_random_game(target, seed)`` drove in lockstep: the shared
    random game of that seed, replayed by the Rust core (cheap next to the oracle)."""
    game = cache.get(target)
    if game is None:
        game = cache[target] = meeplex.make(target)
    return len(meeplex.play_random(game, seed).history())


def _divergence_actions(divergence: Any) -> list[int]:
    """The history that reproduces a ``Divergence`` (empty if it was found before any action)."""
    return list(getattr(divergence, "actions", None) or [])


def _notation(target: str, actions: Sequence[int]) -> list[str]:
    """The actions in canonical notation, replayed on the oracle (the reference); ids where it fails."""
    try:
        import meeplex.oracle

        state = meeplex.oracle.make(target).new_initial_state()
    except Exception:  # the listing is a courtesy: never let it hide the failure being reported
        return [str(a) for a in actions]
    texts = []
    for action in actions:
        try:
            texts.append(f"{action}:{state.action_to_string(action)}")
            state.apply_action(action)
        except Exception:
            texts.append(str(action))
    return texts


def _replay_command(target: str, actions: Sequence[int]) -> str:
    code = (
        "from meeplex.testing.differential import replay_and_compare; "
        f"print(replay_and_compare({target!r}, {list(actions)!r}))"
    )
    return f'python -c "{code}"'


def _report_disagreement(console: Console, target: str, seed: int, divergence: Any) -> None:
    from meeplex.testing.differential import shrink

    # soft_wrap everywhere: histories and replay commands must stay copy-pasteable, not cut at 80 columns.
    console.print(f"[bold red]disagreement[/] in {escape(target)}, seed {seed}:", soft_wrap=True)
    console.print(escape(str(divergence)), highlight=False, soft_wrap=True)
    actions = _divergence_actions(divergence)
    if not actions:
        return
    shrunk = list(shrink(target, actions))
    console.print(f"[bold]shrunk history[/] ({len(shrunk)} of {len(actions)} actions):", soft_wrap=True)
    console.print(escape(repr(shrunk)), highlight=False, soft_wrap=True)
    console.print(escape(", ".join(_notation(target, shrunk))), highlight=False, soft_wrap=True)
    console.print("replay: " + escape(_replay_command(target, shrunk)), highlight=False, soft_wrap=True)


def _report_crash(console: Console, target: str, seed: int, exc: BaseException) -> None:
    console.print(f"[bold red]crash[/] comparing {escape(target)}, seed {seed}:", soft_wrap=True)
    console.print(escape(f"{type(exc).__name__}: {exc}"), highlight=False, soft_wrap=True)


def _fuzz_table(stats: dict[str, FuzzStats], seconds: float) -> Table:
    table = Table(title=f"fuzz: Rust core vs oracle ({seconds:.1f} s)", title_justify="left")
    table.add_column("game", no_wrap=True)
    for column in ("games\ncompared", "steps\ncompared", "disagreements"):
        table.add_column(column, justify="right", no_wrap=True)
    total = FuzzStats()
    for target, s in stats.items():
        table.add_row(target, str(s.games), str(s.steps), str(s.disagreements))
        total.games += s.games
        total.steps += s.steps
        total.disagreements += s.disagreements
    table.add_section()
    style = "bold red" if total.disagreements else "bold green"
    table.add_row("total", str(total.games), str(total.steps), str(total.disagreements), style=style)
    return table


def cmd_fuzz(args: argparse.Namespace, console: Console) -> int:
    if args.minutes is not None and not args.minutes > 0:
        raise ValueError("--minutes must be > 0")
    from meeplex.testing.differential import compare_random_game

    targets = _fuzz_targets(args)
    stats = {target: FuzzStats() for target in targets}
    games_cache: dict[str, meeplex.Game] = {}
    budget = _Budget(None if args.minutes is not None else args.games, args.minutes)
    failure: tuple[str, int, Any, BaseException | None] | None = None
    with _progress(console, count=args.minutes is None) as progress:
        task = progress.add_task("fuzz", total=budget.total)
        for index, target, seed in _fuzz_runs(targets, args.seed, budget):
            progress.update(task, description=f"fuzz {target}", completed=budget.done(index))
            try:
                divergence = compare_random_game(target, seed)
            except (KeyboardInterrupt, SystemExit):
                raise
            except BaseException as exc:  # a Rust panic is a BaseException: still a finding, not a traceback
                failure = (target, seed, None, exc)
            else:
                if divergence is not None:
                    failure = (target, seed, divergence, None)
            stats[target].games += 1
            if failure is not None:
                stats[target].disagreements += 1
                break
            stats[target].steps += _steps_of(target, seed, games_cache)
    console.print(_fuzz_table(stats, budget.elapsed()))
    if failure is None:
        return 0
    target, seed, divergence, exc = failure
    if exc is not None:
        _report_crash(console, target, seed, exc)
    else:
        _report_disagreement(console, target, seed, divergence)
    return 1


# ---------------------------------------------------------------------------------------------------------
# Entry point


def _natural(text: str) -> int:
    """argparse type for counts and seeds: the shared PRNG takes unsigned 64-bit seeds."""
    value = int(text)
    if not 0 <= value <= _MASK64:
        raise argparse.ArgumentTypeError(f"must be an integer in 0..2^64-1, not {text}")
    return value


_natural.__name__ = "non-negative integer"  # argparse names the type in "invalid <type> value: 'x'"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="meeplex", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"meeplex {meeplex.__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="command")

    p_list = sub.add_parser("list", help="the registered games, their parameters and defaults")
    p_list.set_defaults(func=cmd_list)

    p_arena = sub.add_parser("arena", help="a seeded tournament between agents")
    p_arena.add_argument("game", help="game id, or a game string such as 'flip_city(players=3)'")
    p_arena.add_argument("params", nargs="*", metavar="key=value", help="game parameters")
    p_arena.add_argument("--agents", help="comma-separated agent names, one per seat (default: all random)")
    p_arena.add_argument("--games", type=_natural, default=100, help="number of games (default 100)")
    p_arena.add_argument("--seed", type=_natural, default=0, help="run seed (default 0)")
    p_arena.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    p_arena.set_defaults(func=cmd_arena)

    p_fuzz = sub.add_parser("fuzz", help="compare the Rust core with the oracle over many seeded games")
    p_fuzz.add_argument("game", help="game id or game string, or 'all' for every game and its variants")
    p_fuzz.add_argument("params", nargs="*", metavar="key=value", help="game parameters (single game only)")
    amount = p_fuzz.add_mutually_exclusive_group()
    amount.add_argument("--games", type=_natural, default=200, help="number of games (default 200)")
    amount.add_argument("--minutes", type=float, help="run for this many minutes instead")
    p_fuzz.add_argument("--seed", type=_natural, default=0, help="first seed; game i uses seed+i (default 0)")
    p_fuzz.set_defaults(func=cmd_fuzz)
    return parser


def _parse(argv: Sequence[str] | None) -> argparse.Namespace:
    """Parse, letting ``key=value`` parameters sit anywhere among the options."""
    parser = _parser()
    args, extra = parser.parse_known_args(argv)
    # argparse fills the key=value list once, at the first positional: those after an option come back here.
    stray = [item for item in extra if item.startswith("-")]
    if stray or (extra and not hasattr(args, "params")):
        parser.error(f"unrecognized arguments: {' '.join(stray or extra)}")
    if extra:
        args.params = list(args.params) + extra
    return args


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = _parse(argv)
    except SystemExit as exc:  # argparse's usage errors (exit 2) and --help (exit 0)
        return exc.code if isinstance(exc.code, int) else 2
    console = Console()
    errors = Console(stderr=True, highlight=False, soft_wrap=True)
    try:
        return args.func(args, console)
    except (GameError, ValueError) as exc:
        message = " ".join(str(exc).split()) or type(exc).__name__
        errors.print(f"[bold red]error:[/] [red]{escape(message)}[/]")
        return 2
    except KeyboardInterrupt:
        errors.print("[red]interrupted[/]")
        return 130


if __name__ == "__main__":
    sys.exit(main())
