"""The ``meeplex`` command: list, play, arena, selfplay, replay, fuzz and bench, generic over the game
registry.

Every run is a pure function of its arguments and seed, so a table or a failure can always be reproduced.
Errors a user can cause (unknown game, agent or parameter, a bad file) end in one red line and exit code 2;
set MEEPLEX_DEBUG=1 to see the traceback instead.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence

from rich.console import Console
from rich.markup import escape

import meeplex
from meeplex.errors import GameError

from .arena import (
    ArenaResult,
    add_backend_options,
    play_arena_game,
    run_arena,
    schedule,
    seating,
    wilson_interval,
)
from .common import CliError, derive_seed, natural, positive
from .fuzz import variants

_DESCRIPTION = "Play, watch, compare and fuzz meeplex's tabletop games from the terminal."
_EXAMPLES = """examples:
  meeplex list
  meeplex play flip_city --seats human,random
  meeplex arena flip_city --agents random,random --games 200 --seed 1 --jobs 2 --out games.jsonl
  meeplex arena flip_city players=2 --agents random,mcts:sims=50,mcts:sims=200 --games 60 --backend ray
  meeplex selfplay flip_city --agent mcts:sims=100 --games 200 --out data/ --backend ray
  meeplex replay games.jsonl --index 3
  meeplex fuzz all --minutes 5 --backend ray
  meeplex bench flip_city --quick"""

_PARAMS_HELP = "game parameters, e.g. players=3 office=true (also accepted as 'game(k=v,...)')"
_GAME_HELP = "game id, or a game string such as 'flip_city(players=3)'"


def _add_game(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help=_GAME_HELP)
    parser.add_argument("params", nargs="*", metavar="key=value", help=_PARAMS_HELP)


def _parser() -> argparse.ArgumentParser:
    from .arena import cmd_arena
    from .bench import cmd_bench
    from .catalog import cmd_list
    from .fuzz import cmd_fuzz
    from .play import cmd_play
    from .replay import cmd_replay
    from .selfplay import add_selfplay_parser

    parser = argparse.ArgumentParser(
        prog="meeplex",
        description=_DESCRIPTION,
        epilog=_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"meeplex {meeplex.__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="command")

    p_list = sub.add_parser("list", help="the games, their variants and parameters, and the agents")
    p_list.add_argument("game", nargs="?", help="only this game")
    p_list.set_defaults(func=cmd_list)

    p_play = sub.add_parser("play", help="play a game in the terminal against agents")
    _add_game(p_play)
    p_play.add_argument(
        "--seats",
        help="who sits where, e.g. human,random or random,human,mcts:sims=200 (default: you at seat 0)",
    )
    p_play.add_argument("--seed", type=natural, help="seed for chance and the agents (default: a new one)")
    p_play.set_defaults(func=cmd_play)

    p_arena = sub.add_parser("arena", help="a seeded tournament between agents")
    _add_game(p_arena)
    p_arena.add_argument(
        "--agents",
        help="agents, e.g. random,mcts:sims=200; more agents than seats (players=K) play a schedule in which "
        "every agent meets every other in every seat (default: all random, one per seat)",
    )
    p_arena.add_argument("--games", type=positive, default=100, help="number of games (default 100)")
    p_arena.add_argument("--seed", type=natural, default=0, help="run seed (default 0)")
    add_backend_options(p_arena, "games")
    p_arena.add_argument(
        "--chunk", type=positive, metavar="G", help="games per task (default: a few tasks per worker)"
    )
    p_arena.add_argument("--out", metavar="FILE", help="write every game as a JSON line (for meeplex replay)")
    p_arena.add_argument(
        "--plot", metavar="PNG", help="draw win rates and score distributions (needs matplotlib)"
    )
    p_arena.add_argument("--json", metavar="FILE", help="also write the results table as JSON")
    p_arena.set_defaults(func=cmd_arena)

    add_selfplay_parser(sub, _add_game, add_backend_options)

    p_replay = sub.add_parser("replay", help="step through a game recorded by arena --out")
    p_replay.add_argument("file", help="a JSON-lines file of games")
    p_replay.add_argument("--index", type=natural, default=0, help="which game of the file (default 0)")
    p_replay.add_argument(
        "--to-end", action="store_true", help="print the final state and result, no stepping"
    )
    p_replay.set_defaults(func=cmd_replay)

    p_fuzz = sub.add_parser("fuzz", help="compare the Rust core with the oracle over many seeded games")
    p_fuzz.add_argument(
        "game",
        help="game id or game string, or 'all' for every game both engines have, and its variants",
    )
    p_fuzz.add_argument("params", nargs="*", metavar="key=value", help="game parameters (single game only)")
    amount = p_fuzz.add_mutually_exclusive_group()
    amount.add_argument("--games", type=natural, default=200, help="number of games (default 200)")
    amount.add_argument("--minutes", type=float, help="run for this many minutes instead")
    amount.add_argument("--history", help="compare the engines on this history only (comma-separated ids)")
    p_fuzz.add_argument("--seed", type=natural, default=0, help="first seed; game i uses seed+i (default 0)")
    p_fuzz.add_argument(
        "--out", metavar="FILE", help="write every compared game's seed and result (JSON lines)"
    )
    add_backend_options(p_fuzz, "games")
    p_fuzz.add_argument("--chunk", type=positive, metavar="G", help="games per task (default 4)")
    p_fuzz.add_argument(
        "--capped",
        action="store_true",
        help="with 'all': hold each variant to the test suites' caps (Viticulture at most 3 years)",
    )
    p_fuzz.set_defaults(func=cmd_fuzz)

    p_bench = sub.add_parser("bench", help="the Python benchmark rows of one game")
    _add_game(p_bench)
    p_bench.add_argument("--quick", action="store_true", help="a fast smoke run (fewer seeds and repeats)")
    p_bench.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    p_bench.set_defaults(func=cmd_bench)
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


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = _parse(argv)
    except SystemExit as exc:  # argparse's usage errors (exit 2) and --help / --version (exit 0)
        return exc.code if isinstance(exc.code, int) else 2
    console = Console()
    errors = Console(stderr=True, highlight=False, soft_wrap=True)
    command: Callable[[argparse.Namespace, Console], int] = args.func
    try:
        return command(args, console)
    except BrokenPipeError:  # `meeplex list | head`: the reader left, nothing is wrong
        sys.stderr.close()
        return 0
    except (CliError, GameError, ValueError, OSError) as exc:
        if os.environ.get("MEEPLEX_DEBUG"):
            raise
        errors.print(f"[bold red]error:[/] [red]{escape(_one_line(exc))}[/]")
        return 2
    except KeyboardInterrupt:
        errors.print("[red]interrupted[/]")
        return 130


__all__ = [
    "ArenaResult",
    "derive_seed",
    "main",
    "play_arena_game",
    "run_arena",
    "schedule",
    "seating",
    "variants",
    "wilson_interval",
]
