"""What every subcommand shares: games and agents from the command line, seeds, consoles and progress bars."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any, TextIO

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

import meeplex
from meeplex._params import game_string, parse_game_string
from meeplex.agents import make_agent, split_agent_list
from meeplex.errors import GameError

MASK64 = (1 << 64) - 1
# Player counts tried when probing which ones a game accepts; no tabletop game here seats more.
PLAYER_PROBE = range(1, 13)


class CliError(Exception):
    """A mistake the user can fix (a missing file, a missing optional extra): printed as one red line."""


# ---------------------------------------------------------------------------------------------------------
# Games and parameters


def parse_pairs(pairs: Sequence[str]) -> dict[str, Any]:
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


def check_game_name(name: str) -> None:
    known = meeplex.games()
    if name not in known:
        raise ValueError(f"unknown game {name!r} (known: {', '.join(known)})")


def requested_params(game_arg: str, pairs: Sequence[str]) -> tuple[str, dict[str, Any]]:
    """The game id and the parameters the user asked for (from ``g(k=v)`` and/or ``k=v`` arguments)."""
    name, from_string = parse_game_string(game_arg)
    check_game_name(name)
    params = dict(from_string)
    for key, value in parse_pairs(pairs).items():
        if key in params:
            raise ValueError(f"parameter {key!r} given twice")
        params[key] = value
    return name, params


def probe(name: str, **overrides: Any) -> meeplex.Game | None:
    """The game with these parameters, or None if the game rejects them."""
    try:
        return meeplex.make(name, **overrides)
    except (GameError, ValueError):
        return None


def accepted_players(name: str) -> list[int]:
    """The player counts a game accepts (empty if it has no ``players`` parameter)."""
    if "players" not in meeplex.make(name).params:
        return []
    return [n for n in PLAYER_PROBE if probe(name, players=n) is not None]


def game_for_seats(
    game_arg: str, pairs: Sequence[str], seats: Sequence[str] | None, what: str = "seats"
) -> meeplex.Game:
    """The game, with ``players`` defaulting to the number of seats given (when the game has that parameter),
    checked to seat exactly that many; ``what`` names them in the error (agents, seats)."""
    name, params = requested_params(game_arg, pairs)
    if seats and "players" not in params and "players" in meeplex.make(name).params:
        params["players"] = len(seats)
    game = meeplex.make(name, **params)
    if seats and len(seats) != game.num_players():
        raise ValueError(f"{len(seats)} {what} given for a {game.num_players()}-player game")
    return game


def agent_list(text: str | None) -> list[str]:
    """``--agents`` / ``--seats`` as a list of agent specs (``None`` and ``""`` give an empty list)."""
    return split_agent_list(text) if text else []


def check_agents(specs: Sequence[str], allowed_extra: Sequence[str] = ()) -> None:
    """Fail on an unknown agent or option before anything runs (``allowed_extra``: seats like 'human')."""
    for spec in specs:
        if spec not in allowed_extra:
            make_agent(spec, 0)


def open_for_writing(path: str) -> TextIO:
    try:
        return open(path, "w", encoding="utf-8")
    except OSError as exc:
        raise CliError(f"cannot write {path}: {exc.strerror or exc}") from None


def write_text(path: str, text: str) -> None:
    with open_for_writing(path) as out:
        out.write(text)


def short_game_string(game: meeplex.Game) -> str:
    """The game string with only the parameters that differ from the defaults: ``flip_city(max_turns=2)``
    reads better in a title than all seven. Records keep the full string, which survives a changed default."""
    defaults = meeplex.make(game.name).params
    return game_string(game.name, {k: v for k, v in game.params.items() if defaults.get(k) != v})


def show_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


# ---------------------------------------------------------------------------------------------------------
# Seeds


def _mix64(value: int) -> int:
    """SplitMix64's output function: spreads nearby inputs (seed, seed+1) over unrelated 64-bit seeds."""
    z = (value + 0x9E3779B97F4A7C15) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def derive_seed(seed: int, *parts: int) -> int:
    """The seed of one sub-stream (game i, agent k) of a run seeded with ``seed``.

    Mixed rather than ``seed + i`` so that one game's chance stream is never another game's agent stream.
    """
    value = _mix64(seed & MASK64)
    for part in parts:
        value = _mix64(value ^ (part & MASK64))
    return value


def chance_seed(seed: int, index: int) -> int:
    """The seed of game ``index``'s chance stream (shared by ``arena`` and ``play``)."""
    return derive_seed(seed, index, 0)


def agent_seed(seed: int, index: int, agent: int) -> int:
    """The seed of agent number ``agent`` (its position in the agent list) in game ``index``."""
    return derive_seed(seed, index, 1 + agent)


def natural(text: str) -> int:
    """argparse type for counts and seeds: the shared PRNG takes unsigned 64-bit seeds."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, not {text!r}") from None
    if not 0 <= value <= MASK64:
        raise argparse.ArgumentTypeError(f"must be an integer in 0..2^64-1, not {text}")
    return value


def positive(text: str) -> int:
    value = natural(text)
    if value == 0:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


# ---------------------------------------------------------------------------------------------------------
# Output


def progress_bar(console: Console, *, count: bool = True) -> Progress:
    """The progress bar of long runs; transient, so that only the results stay on screen."""
    columns: list[Any] = [TextColumn("[progress.description]{task.description}"), BarColumn()]
    columns.append(MofNCompleteColumn() if count else TaskProgressColumn())
    columns += [TimeElapsedColumn(), TimeRemainingColumn()]
    return Progress(*columns, console=console, transient=True)


def number(value: float) -> str:
    """Whole numbers without decimals (wins are fractional only after shared victories)."""
    return f"{value:g}" if value == int(value) else f"{value:.2f}"
