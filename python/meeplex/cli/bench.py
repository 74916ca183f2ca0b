"""``meeplex bench``: the Python benchmark rows of one game (the same code as ``benches/bench_python.py``)."""

from __future__ import annotations

import argparse
import json

from rich.console import Console

import meeplex
from meeplex import _bench
from meeplex._params import game_string

from .common import requested_params, write_text


def cmd_bench(args: argparse.Namespace, console: Console) -> int:
    name, params = requested_params(args.game, args.params)
    game = meeplex.make(name, **params)  # bad parameters fail here, before any timing
    plan = _bench.QUICK if args.quick else _bench.FULL
    text = game_string(game.name, params)  # only what was asked: the row reads "flip_city" for the defaults
    with console.status(f"benchmarking {text}"):
        row = _bench.bench_game(text, plan)
    console.print(_bench.table([row], plan))
    if args.json:
        write_text(args.json, json.dumps(_bench.report([row], plan), indent=2) + "\n")
    if not row.same_games:
        console.print("[bold red]the loops did not play the same games: the figures do not compare[/]")
        return 1
    return 0
