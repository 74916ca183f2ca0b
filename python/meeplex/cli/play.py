"""``meeplex play``: a whole game in the terminal, people against agents.

Each human seat sees only its own view (``observation_string``), never the full state, and move lines are
filtered through ``telling.move_line`` so that nothing hidden from the humans at the table is printed.
Chance is resolved with the shared PRNG exactly as in ``arena`` (game 0 of a run with the same seed), so
``play --seats random,random --seed S`` is the first game of ``arena --agents random,random --seed S``.
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Callable, Sequence
from typing import Any

from rich.columns import Columns
from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.text import Text

import meeplex
from meeplex.agents import make_agent, resolve_chance
from meeplex.errors import GameError

from .common import (
    MASK64,
    agent_list,
    agent_seed,
    chance_seed,
    check_agents,
    game_for_seats,
    short_game_string,
)
from .telling import move_line, outcome_line, result_table

HUMAN = "human"

HELP = """\
[bold]Your move[/]: type the number of a move from the list, or the move itself in the game's notation
(for example [cyan]play[/] or [cyan]buy Hospital[/]); [cyan]!TEXT[/] reads TEXT as notation even if it is
a number.
[bold]Commands[/]:
  [cyan]help[/]         this text
  [cyan]moves[/]        show the position and the moves again
  [cyan]save FILE[/]    write the game so far to FILE (JSON)
  [cyan]load FILE[/]    continue from a game saved with save
  [cyan]quit[/]         leave the game"""


class _Quit(Exception):
    """The person asked to leave."""


class _Reloaded(Exception):
    """A saved game replaced the current one: whose turn it is must be asked again."""


def load_state(game: meeplex.Game, text: str) -> tuple[meeplex.Game, Any]:
    """A saved state for ``game``; a state saved with other parameters of the same game and seat count is
    accepted too (the serialized state names its game and parameters), so a saved variant reloads as saved."""
    try:
        return game, game.deserialize_state(text)
    except (GameError, ValueError) as first:
        try:
            data = json.loads(text)
            other = meeplex.make(data["game"], **data["params"])
        except Exception:
            raise first from None
        if other.name != game.name or other.num_players() != game.num_players():
            raise first from None
        return other, other.deserialize_state(text)


class PlaySession:
    """One game at the terminal. ``read_line(prompt)`` is the input (``console.input`` in real use)."""

    def __init__(
        self,
        game: meeplex.Game,
        seats: Sequence[str],
        seed: int,
        console: Console,
        read_line: Callable[[str], str] | None = None,
    ) -> None:
        self.game = game
        self.seats = list(seats)
        self.console = console
        self.read_line = read_line or console.input
        self.state = game.new_initial_state()
        self.humans = [seat for seat, kind in enumerate(self.seats) if kind == HUMAN]
        self.names = [
            ("you" if len(self.humans) == 1 else "human") if kind == HUMAN else kind for kind in self.seats
        ]
        # The same streams as arena game 0: an agent's seed follows its position in the list.
        self.agents = {
            seat: make_agent(kind, agent_seed(seed, 0, seat))
            for seat, kind in enumerate(self.seats)
            if kind != HUMAN
        }
        self.chance = meeplex.Rng(chance_seed(seed, 0))
        self.viewer: int | None = None  # the human seat whose view is on screen (hot seat)
        self.log: list[str] = []  # every move line so far, each one fit for every human at the table
        self.read_up_to: dict[int, int] = {}  # per human seat: how much of the log it has seen

    # -- the game loop ----------------------------------------------------------------------------------

    def run(self) -> int:
        while not self.state.is_terminal():
            try:
                action = self._next_action()
            except _Reloaded:
                continue
            except _Quit:
                self.console.print("game abandoned")
                return 0
            self.log.append("  " + move_line(self.state, action, self.humans, self.names))
            self.console.print(self.log[-1], highlight=False)
            self.state.apply_action(action)
        self._show_end()
        return 0

    def _next_action(self) -> int:
        if self.state.is_chance_node():
            return resolve_chance(self.state, self.chance)
        seat = self.state.current_player()
        if seat in self.agents:
            return self.agents[seat].step(self.state)
        return self._ask(seat)

    # -- a human's turn ---------------------------------------------------------------------------------

    def _hand_over(self, seat: int) -> None:
        """With several people at one terminal, hide one seat's view before the next one looks."""
        if len(self.humans) > 1 and self.viewer != seat:
            if self.viewer is not None:
                self.read_up_to[self.viewer] = len(self.log)
            self.console.rule(f"seat {seat}'s turn")
            self.read_line(f"seat {seat}: press enter when only you can see the screen ")
            self.console.clear()
            # The clear took the moves made since this seat last looked off the screen: show them again.
            for line in self.log[self.read_up_to.get(seat, 0) :]:
                self.console.print(line, highlight=False)
        self.viewer = seat

    def draw(self, seat: int) -> None:
        """The seat's own view of the position and its numbered legal moves."""
        view = Text(self.state.observation_string(seat).rstrip())
        title = f"{escape(short_game_string(self.game))}: seat {seat} ({escape(self.names[seat])}) to move"
        self.console.print(Panel(view, title=title, title_align="left", expand=False))
        moves = [
            Text.assemble((f"{i:>2} ", "bold magenta"), self.state.action_to_string(action))
            for i, action in enumerate(self.state.legal_actions(), 1)
        ]
        self.console.print(Columns(moves, padding=(0, 3)))

    def _ask(self, seat: int) -> int:
        self._hand_over(seat)
        self.draw(seat)
        while True:
            try:
                text = self.read_line(f"seat {seat} > ").strip()
            except EOFError:
                raise _Quit from None
            if not text:
                continue
            try:
                action = self._command_or_move(text)
            except (GameError, ValueError, OSError) as exc:
                self.console.print(f"[red]{escape(str(exc))}[/]", highlight=False)
                continue
            if action is not None:
                return action

    def _command_or_move(self, text: str) -> int | None:
        """The action the text names, or None after a command that keeps the prompt (help, save)."""
        word, _, rest = text.partition(" ")
        command, argument = word.lower(), rest.strip()
        if command in ("help", "?"):
            self.console.print(HELP)
            return None
        if command in ("quit", "exit", "q"):
            raise _Quit
        if command in ("moves", "show"):
            self.draw(self.state.current_player())
            return None
        if command in ("save", "load"):
            if not argument:
                raise ValueError(f"{command} needs a file name: {command} FILE")
            (self._save if command == "save" else self._load)(argument)
            return None
        return self._parse_move(text)

    def _parse_move(self, text: str) -> int:
        legal = self.state.legal_actions()
        if text.isdigit():
            number = int(text)
            if 1 <= number <= len(legal):
                return legal[number - 1]
            raise ValueError(f"no move {number}: choose 1..{len(legal)}, a move in notation, or help")
        notation = text[1:] if text.startswith("!") else text
        try:
            action = self.state.string_to_action(notation)
        except (GameError, ValueError):
            raise ValueError(f"not a move here: {notation!r} (a number 1..{len(legal)}, or help)") from None
        if action not in legal:
            raise ValueError(f"{notation!r} is not legal now (a number 1..{len(legal)}, or help)")
        return action

    def _save(self, path: str) -> None:
        with open(path, "w", encoding="utf-8") as out:
            out.write(self.state.serialize() + "\n")
        self.console.print(f"saved to {escape(path)}", highlight=False)

    def _load(self, path: str) -> None:
        with open(path, encoding="utf-8") as source:
            text = source.read().strip()
        game, state = load_state(self.game, text)
        self.game, self.state = game, state
        self.console.print(
            f"loaded {escape(path)}: {escape(short_game_string(game))}, "
            f"{len(state.history())} actions played",
            highlight=False,
        )
        raise _Reloaded

    # -- the end ----------------------------------------------------------------------------------------

    def _show_end(self) -> None:
        self.console.rule("game over")
        if self.humans:
            for seat in self.humans:
                title = f"seat {seat} ({self.names[seat]}): final view"
                view = Text(self.state.observation_string(seat).rstrip())
                self.console.print(Panel(view, title=title, title_align="left", expand=False))
        else:  # nobody is playing, so nothing is hidden from anyone at the terminal
            self.console.print(
                Panel(Text(str(self.state).rstrip()), title="final state", title_align="left", expand=False)
            )
        self.console.print(result_table(self.state, self.names))
        self.console.print(outcome_line(self.state, self.names), highlight=False)


def _seed(args: argparse.Namespace) -> int:
    # People want a new game each time; the seed is printed, so any game can be played again.
    return args.seed if args.seed is not None else int.from_bytes(os.urandom(8), "little") & MASK64


def cmd_play(args: argparse.Namespace, console: Console) -> int:
    seats = agent_list(args.seats)
    game = game_for_seats(args.game, args.params, seats)
    if not seats:
        seats = [HUMAN] + ["random"] * (game.num_players() - 1)
    check_agents(seats, allowed_extra=(HUMAN,))
    seed = _seed(args)
    session = PlaySession(game, seats, seed, console)
    listed = ", ".join(f"{seat} {name}" for seat, name in enumerate(session.names))
    console.print(
        f"[bold]meeplex play {escape(short_game_string(game))}[/], seed {seed} (seats: {listed})",
        highlight=False,
    )
    console.print("type [cyan]help[/] for commands", highlight=False)
    return session.run()
