"""``meeplex fuzz``: the Rust core against the oracle, in lockstep, over many seeded random games.

It stops at the first disagreement, shrinks its history to the shortest one that still disagrees, and prints a
``meeplex fuzz GAME --history ...`` command that replays exactly that history on both engines.

Game ``i`` of a run is variant ``i mod len(variants)`` with seed ``seed + i``, whatever runs it: with ``--jobs
J`` or ``--backend ray`` chunks of games go to the workers, the results are put back in game order, and the
first disagreement *in that order* is the one reported (with ``--games N`` the same one as in one process).
"""

from __future__ import annotations

import argparse
import json
import shlex
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from rich.console import Console
from rich.markup import escape
from rich.table import Table

import meeplex
from meeplex._params import game_string

from .common import MASK64, PLAYER_PROBE, open_for_writing, probe, progress_bar, requested_params
from .parallel import Backend, Task, execute, fault_point, in_order, open_backend

# Small values tried for every int parameter but players: the extreme, short or degenerate games find bugs.
_INT_PROBE = (0, 1)


def variants(name: str, capped: bool = False) -> list[str]:
    """Game strings covering one game generically: its defaults, each boolean flipped, every accepted player
    count, and small values (0, 1) of the other int parameters, keeping those the game accepts. ``capped``
    holds each variant to the test suites' caps (``meeplex.testing.strategies.CI_CAPS``: Viticulture's
    games at most 3 years), for a quick pass."""
    from meeplex.testing.strategies import CI_CAPS

    caps = CI_CAPS.get(name, {}) if capped else {}
    defaults = meeplex.make(name).params
    candidates: list[dict[str, Any]] = [{}]
    for key in sorted(defaults):
        value = defaults[key]
        if isinstance(value, bool):
            candidates.append({key: not value})
        elif isinstance(value, int):
            values = PLAYER_PROBE if key == "players" else _INT_PROBE
            candidates += [{key: v} for v in values if v != value]
    found: list[str] = []
    for overrides in candidates:
        overrides = {**overrides, **{k: min(overrides.get(k, cap), cap) for k, cap in caps.items()}}
        text = game_string(name, overrides)
        if probe(name, **overrides) is not None and text not in found:
            found.append(text)
    return found


def games_to_compare() -> list[str]:
    """The games ``all`` walks: those both engines register (a game whose oracle is still to come has no twin
    to compare with)."""
    from meeplex.testing.strategies import games_of_both_engines

    return games_of_both_engines()


def _fuzz_targets(args: argparse.Namespace) -> list[str]:
    if args.game == "all":
        if args.params:
            raise ValueError("parameters need a single game, not 'all'")
        return [
            text for name in games_to_compare() for text in variants(name, getattr(args, "capped", False))
        ]
    if getattr(args, "capped", False):
        raise ValueError("--capped is for 'all'; give a single game its parameters instead")
    name, params = requested_params(args.game, args.params)
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
        if self.seconds is not None:
            return self.seconds
        assert self.games is not None, "a budget has a number of games or minutes"
        return float(self.games)

    def done(self, played: int) -> float:
        return float(played) if self.seconds is None else min(self.elapsed(), self.seconds)

    def elapsed(self) -> float:
        return time.monotonic() - self.start

    def more(self, played: int) -> bool:
        if self.seconds is not None:
            return self.elapsed() < self.seconds
        assert self.games is not None, "a budget has a number of games or minutes"
        return played < self.games


def _fuzz_runs(targets: list[str], seed: int, budget: _Budget) -> Iterator[tuple[int, str, int]]:
    """(game number, game string, seed): variants in turn, seeds counting up from ``seed``."""
    index = 0
    while budget.more(index):
        yield index, targets[index % len(targets)], (seed + index) & MASK64
        index += 1


def _steps_of(target: str, seed: int, cache: dict[str, meeplex.Game]) -> int:
    """Steps in the random game that ``compare_random_game(target, seed)`` drove in lockstep: the shared
    random game of that seed, replayed by the Rust core (cheap next to the oracle)."""
    game = cache.get(target)
    if game is None:
        game = cache[target] = meeplex.make(target)
    return len(meeplex.play_random(game, seed).history())


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


def replay_command(target: str, actions: Sequence[int]) -> str:
    """The shell command that compares the engines on exactly this history."""
    history = ",".join(map(str, actions)) if actions else "''"
    return f"meeplex fuzz {shlex.quote(target)} --history {history}"


def _report_disagreement(console: Console, target: str, seed: int, divergence: Any) -> None:
    from meeplex.testing.differential import shrink

    # soft_wrap everywhere: histories and replay commands must stay copy-pasteable, not cut at 80 columns.
    console.print(f"[bold red]disagreement[/] in {escape(target)}, seed {seed}:", soft_wrap=True)
    console.print(escape(str(divergence)), highlight=False, soft_wrap=True)
    actions = list(getattr(divergence, "actions", None) or [])
    shrunk = list(shrink(target, actions)) if actions else []
    console.print(f"[bold]shrunk history[/] ({len(shrunk)} of {len(actions)} actions):", soft_wrap=True)
    console.print(escape(repr(shrunk)), highlight=False, soft_wrap=True)
    if shrunk:
        console.print(escape(", ".join(_notation(target, shrunk))), highlight=False, soft_wrap=True)
    console.print("replay: " + escape(replay_command(target, shrunk)), highlight=False, soft_wrap=True)


def _report_crash(console: Console, target: str, seed: int, exc: BaseException | str) -> None:
    console.print(f"[bold red]crash[/] comparing {escape(target)}, seed {seed}:", soft_wrap=True)
    text = exc if isinstance(exc, str) else f"{type(exc).__name__}: {exc}"
    console.print(escape(text), highlight=False, soft_wrap=True)


def _fuzz_table(stats: dict[str, FuzzStats], seconds: float) -> Table:
    table = Table(title=f"fuzz: Rust core vs oracle ({seconds:.1f} s)", title_justify="left")
    table.add_column("game", no_wrap=True)
    for column in ("games\ncompared", "steps\ncompared", "disagreements"):
        table.add_column(column, justify="right", no_wrap=True)
    total = FuzzStats()
    for target, s in stats.items():
        table.add_row(escape(target), str(s.games), str(s.steps), str(s.disagreements))
        total.games += s.games
        total.steps += s.steps
        total.disagreements += s.disagreements
    table.add_section()
    style = "bold red" if total.disagreements else "bold green"
    table.add_row("total", str(total.games), str(total.steps), str(total.disagreements), style=style)
    return table


def parse_history(text: str) -> list[int]:
    """``--history 3,0,12`` (spaces allowed; empty for the initial state) as action ids."""
    try:
        return [int(part) for part in text.replace(" ", ",").split(",") if part.strip()]
    except ValueError:
        raise ValueError(f"bad --history {text!r}: expected comma-separated action ids") from None


def _replay_history(args: argparse.Namespace, console: Console) -> int:
    """``fuzz GAME --history ...``: compare the engines on one given history."""
    from meeplex.testing.differential import replay_and_compare

    if args.game == "all":
        raise ValueError("--history needs a single game, not 'all'")
    (target,) = _fuzz_targets(args)
    actions = parse_history(args.history)
    divergence = replay_and_compare(target, actions)
    if divergence is None:
        console.print(f"[green]the engines agree[/] on {escape(target)} over these {len(actions)} actions")
        return 0
    console.print(escape(str(divergence)), highlight=False, soft_wrap=True)
    return 1


# One compared game, as a worker reports it: (index, game string, seed, steps, failure), the failure being
# None, ("disagreement", Divergence) or ("crash", "Type: message").
Outcome = tuple[int, str, int, int, tuple[str, Any] | None]


def _compare(target: str, seed: int, cache: dict[str, meeplex.Game]) -> tuple[int, tuple[str, Any] | None]:
    from meeplex.testing import differential

    try:
        divergence = differential.compare_random_game(target, seed)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:  # a Rust panic is a BaseException: still a finding, not a traceback
        return 0, ("crash", exc)
    if divergence is not None:
        return 0, ("disagreement", divergence)
    return _steps_of(target, seed, cache), None


_worker_games: dict[str, meeplex.Game] = {}


def fuzz_chunk(targets: list[str], seed: int, start: int, stop: int) -> list[Outcome]:
    """Games ``start..stop`` of a fuzz run (one task, on any backend); it stops at its first failure."""
    outcomes: list[Outcome] = []
    for index in range(start, stop):
        if index == (start + stop) // 2:
            fault_point()
        target, game_seed = targets[index % len(targets)], (seed + index) & MASK64
        steps, failure = _compare(target, game_seed, _worker_games)
        if failure is not None and failure[0] == "crash":
            exc = failure[1]
            failure = ("crash", f"{type(exc).__name__}: {exc}")  # exceptions of Rust may not pickle
        outcomes.append((index, target, game_seed, steps, failure))
        if failure is not None:
            break
    return outcomes


def _chunk_tasks(targets: list[str], seed: int, budget: _Budget, size: int) -> Iterator[Task]:
    """Chunks of game indices for as long as the budget lasts (read lazily, so --minutes stops on time)."""
    key = 0
    while budget.more(key * size):
        start = key * size
        stop = start + size if budget.games is None else min(budget.games, start + size)
        yield key, (targets, seed, start, stop)
        key += 1


def _outcomes(
    targets: list[str], args: argparse.Namespace, budget: _Budget, backend: Backend
) -> Iterator[Outcome]:
    """Every compared game in index order, one process or many."""
    if backend.name == "local" and backend.jobs <= 1:
        cache: dict[str, meeplex.Game] = {}
        for index, target, seed in _fuzz_runs(targets, args.seed, budget):
            steps, failure = _compare(target, seed, cache)
            yield index, target, seed, steps, failure
        return
    size = args.chunk or 4
    for _, outcomes in in_order(execute(fuzz_chunk, _chunk_tasks(targets, args.seed, budget, size), backend)):
        yield from outcomes


def _log_line(out: TextIO, outcome: Outcome) -> None:
    index, target, seed, steps, failure = outcome
    result = "agree" if failure is None else failure[0]
    record = {"index": index, "game": target, "seed": seed, "steps": steps, "result": result}
    out.write(json.dumps(record, separators=(",", ":")) + "\n")


def cmd_fuzz(args: argparse.Namespace, console: Console) -> int:
    if args.minutes is not None and not args.minutes > 0:
        raise ValueError("--minutes must be > 0")
    if args.history is not None:
        return _replay_history(args, console)
    targets = _fuzz_targets(args)
    stats = {target: FuzzStats() for target in targets}
    log = open_for_writing(args.out) if args.out else None
    budget = _Budget(None if args.minutes is not None else args.games, args.minutes)
    failure: tuple[str, int, tuple[str, Any]] | None = None
    interrupted = False
    backend = open_backend(args.backend, args.jobs, args.address)
    budget.start = time.monotonic()  # joining a cluster is not fuzzing time
    try:
        with progress_bar(console, count=args.minutes is None) as progress:
            task = progress.add_task("fuzz", total=budget.total)
            played = 0
            try:
                for outcome in _outcomes(targets, args, budget, backend):
                    index, target, seed, steps, found = outcome
                    played = index + 1
                    progress.update(task, description=f"fuzz {target}", completed=budget.done(played))
                    if log is not None:
                        _log_line(log, outcome)
                    stats[target].games += 1
                    stats[target].steps += steps
                    if found is not None:
                        stats[target].disagreements += 1
                        failure = (target, seed, found)
                        break
            except KeyboardInterrupt:
                interrupted = True
    finally:
        backend.close()
        if log is not None:
            log.close()
    console.print(_fuzz_table(stats, budget.elapsed()))
    if log is not None:
        console.print(f"every game's seed and result written to {escape(args.out)}")
    if failure is not None:
        target, seed, (kind, detail) = failure
        if kind == "crash":
            _report_crash(console, target, seed, detail)
        else:
            _report_disagreement(console, target, seed, detail)
        return 1
    if interrupted:
        games = sum(s.games for s in stats.values())
        console.print(f"[bold red]interrupted:[/] {games} games compared (the table above), no disagreement")
        return 130
    return 0
