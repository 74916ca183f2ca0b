"""Python-side speed of every registered game, side by side in one run.

The measuring code lives in ``meeplex._bench`` (shared with ``meeplex bench <game>``); this script runs it
over the whole registry. See that module for what each column means.

    python benches/bench_python.py [--quick] [--json out.json] [--game ID ...]
"""

from __future__ import annotations

import argparse
import json
import sys

from rich.console import Console

import meeplex
from meeplex._bench import FULL, QUICK, bench_game, report, table

# Game strings measured besides every game's defaults: a Flip City supply mixing both sets (issue 3).
EXTRA = ["flip_city(supply=cs+park+market+wind+camp)"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a fast smoke run (fewer seeds and repeats)")
    parser.add_argument("--json", metavar="PATH", help="also write the figures as JSON")
    parser.add_argument(
        "--game", action="append", help="only this game string (repeatable; default: all, and EXTRA)"
    )
    args = parser.parse_args(argv)
    plan = QUICK if args.quick else FULL
    # Wide enough for the nine columns when the output goes to a file or a CI log (rich's default is 80).
    console = Console() if sys.stdout.isatty() else Console(width=140)
    rows = []
    with console.status("benchmarking") as status:
        for name in args.game or [*meeplex.games(), *EXTRA]:
            status.update(f"benchmarking {name}")
            rows.append(bench_game(name, plan))
    console.print(table(rows, plan))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(report(rows, plan), out, indent=2)
    return 0 if all(r.same_games for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
