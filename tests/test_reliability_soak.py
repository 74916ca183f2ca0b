"""Differential soak (issue 9): ``meeplex fuzz all`` over a fixed set of seeded games, as a user runs it.

``meeplex fuzz all --games N`` walks every registered game and each of its variants in turn
(``cli.variants``), game k with seed ``seed + k``, driving the Rust core and the oracle in lockstep and
comparing everything after every action; it stops at the first disagreement and prints the shrunk history
with a replay command. Here it plays ``MEEPLEX_SOAK_GAMES`` (default 1) seeded games per game and variant and
must find no disagreement; it also checks the ``max_game_length()`` bound of every game it plays
(``compare_random_game`` reports a game that does not end within it). The table is printed (``pytest -s`` or
``-rA`` shows it). A long soak is the same command with ``--minutes`` (``make fuzz``).
"""

from __future__ import annotations

import os

from meeplex import cli
from meeplex.cli import fuzz

SEED = 900  # fixed: the same games every run, so a failure reproduces with the printed command


def test_fuzz_all_finds_no_disagreement(capsys):
    # The suites' caps (Viticulture at 3 years: whole 20-year games at 3-6 seats were most of this test's
    # time); MEEPLEX_SOAK_FULL=1 plays every variant's whole game, as `meeplex fuzz all` does.
    capped = os.environ.get("MEEPLEX_SOAK_FULL", "") != "1"
    targets = [text for name in fuzz.games_to_compare() for text in cli.variants(name, capped)]
    per_variant = int(os.environ.get("MEEPLEX_SOAK_GAMES", "1"))
    games = per_variant * len(targets)
    command = ["fuzz", "all", "--games", str(games), "--seed", str(SEED)] + (["--capped"] if capped else [])
    status = cli.main(command)
    out = capsys.readouterr().out
    print(out)
    print(f"soak: {games} seeded games over {len(targets)} game variants compared, exit status {status}")
    assert status == 0, f"meeplex {' '.join(command)} found a disagreement:\n{out}"
    total = [line.split() for line in out.splitlines() if " total " in line]
    assert total and str(games) in total[-1], f"the table's total row does not count {games} games:\n{out}"
