"""``meeplex replay``: step through a recorded game (``arena --out``) forwards and backwards.

A replay is for watching, not playing, so it shows the full state (``str(state)``), hidden cards included.
The recorded returns are checked against the replayed game: a difference means the engine has changed since
the game was recorded (or the file was edited), and is reported.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.text import Text

import meeplex
from meeplex.errors import GameError

from .common import CliError, short_game_string
from .records import read_record
from .telling import move_line, outcome_line, result_table

KEYS = "n or enter: next, p: previous, g N: go to step N, q: quit"


def replay_states(record: dict[str, Any], where: str) -> tuple[meeplex.Game, list[Any]]:
    """The game and every state of the recorded history, the initial one first."""
    try:
        game = meeplex.make(record["game"])
    except (GameError, ValueError) as exc:
        raise CliError(f"{where}: bad game {record['game']!r}: {exc}") from None
    states = [game.new_initial_state()]
    for step, action in enumerate(record["history"], 1):
        state = states[-1].clone()
        try:
            state.apply_action(action)
        except (GameError, ValueError) as exc:
            raise CliError(f"{where}: action {action} at step {step} does not replay: {exc}") from None
        states.append(state)
    return game, states


def _seat_names(record: dict[str, Any], players: int) -> list[str]:
    agents = record.get("agents")
    if isinstance(agents, list) and len(agents) == players and all(isinstance(a, str) for a in agents):
        return agents
    return [f"seat {seat}" for seat in range(players)]


class Replay:
    def __init__(self, record: dict[str, Any], where: str, console: Console) -> None:
        self.record = record
        self.console = console
        self.game, self.states = replay_states(record, where)
        self.history: list[int] = record["history"]
        self.names = _seat_names(record, self.game.num_players())
        self.last = len(self.history)

    def show(self, step: int) -> None:
        """The state after ``step`` actions, with the action that led to it."""
        state = self.states[step]
        title = f"{escape(short_game_string(self.game))}: step {step} of {self.last}"
        if step == 0:
            played = "the initial state"
        else:
            played = move_line(self.states[step - 1], self.history[step - 1], [], self.names)
        self.console.print(
            Panel(Text(str(state).rstrip()), title=title, title_align="left", subtitle=played, expand=False)
        )
        if state.is_terminal():
            self.show_result(state)

    def show_result(self, state: Any) -> None:
        self.console.print(result_table(state, self.names))
        self.console.print(outcome_line(state, self.names), highlight=False)

    def mismatch(self) -> str | None:
        """How the recorded returns and scores differ from the replayed ones, if they do."""
        final = self.states[-1]
        for key, replayed in (("returns", final.returns()), ("scores", final.scores())):
            recorded = self.record.get(key)
            if recorded is not None and list(recorded) != list(replayed):
                return f"recorded {key} {recorded} but the replay gives {list(replayed)}"
        return None

    def interact(self, read_line: Callable[[str], str]) -> None:
        step = 0
        self.show(step)
        self.console.print(f"[dim]{KEYS}[/]")
        while True:
            try:
                command = read_line(f"step {step}/{self.last} > ").strip().lower()
            except EOFError:
                return
            if command in ("q", "quit", "exit"):
                return
            try:
                target = self._target(command, step)
            except ValueError as exc:
                self.console.print(f"[red]{escape(str(exc))}[/]", highlight=False)
                continue
            if target == step and command in ("", "n", "next", "p", "prev", "previous"):
                self.console.print(f"[yellow]already at {'the end' if step == self.last else 'the start'}[/]")
                continue
            step = target
            self.show(step)

    def _target(self, command: str, step: int) -> int:
        """The step a command leads to; ``ValueError`` for a command that makes no sense."""
        if command in ("", "n", "next"):
            return min(step + 1, self.last)
        if command in ("p", "prev", "previous"):
            return max(step - 1, 0)
        word, _, rest = command.partition(" ")
        if word in ("g", "go") and rest.strip().isdigit():
            wanted = int(rest)
            if wanted > self.last:
                raise ValueError(f"no step {wanted}: steps are 0..{self.last}")
            return wanted
        raise ValueError(f"unknown command {command!r} ({KEYS})")


def cmd_replay(args: argparse.Namespace, console: Console) -> int:
    record = read_record(args.file, args.index)
    replay = Replay(record, f"{args.file} game {args.index}", console)
    if args.to_end:
        replay.show(replay.last)
    else:
        replay.interact(console.input)
    problem = replay.mismatch()
    if problem:
        console.print(f"[bold red]warning:[/] {escape(problem)}: the engine has changed since the recording")
        return 1
    return 0
