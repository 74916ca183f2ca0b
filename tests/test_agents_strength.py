"""MCTS must beat random clearly (issue 6): short seeded arena games, seats rotated, MCTS's points ahead.

The games are cut at 40 turns (60 for Wilderness, whose cities start with no points) and the searches at 300
simulations to keep the file fast; the full-strength check is ``meeplex arena <game> --agents mcts,random
--games 20 --seed 1`` (benches/RESULTS.md: MCTS wins 16-20 of 20 on every game, random none). A heuristic
that stops measuring progress (the cause of issue 6: MCTS scored 0.3 points a game on Wilderness) leaves MCTS
level with random and fails these margins.
"""

from __future__ import annotations

import pytest

import meeplex
from meeplex.cli.arena import play_arena_game

AGENTS = ["mcts:sims=300", "random"]
GAMES = 4  # two per seat


def _mean_scores(text: str, seed: int) -> tuple[float, float]:
    """Mean best-turn points of MCTS and of random over GAMES seeded games, seats rotating."""
    game = meeplex.make(text)
    totals = [0.0, 0.0]
    for index in range(GAMES):
        record = play_arena_game(game, AGENTS, seed, index)
        for seat, agent in enumerate(record.seating):
            totals[agent] += record.scores[seat]
    return totals[0] / GAMES, totals[1] / GAMES


@pytest.mark.parametrize(
    ("text", "margin"),
    [
        ("flip_city_wilderness(max_turns=60)", 2.5),
        ("flip_city(max_turns=40)", 1.0),
        ("flip_city(max_turns=40,supply=cs+park+market+wind+camp)", 1.0),
        # Whole games (about 90 decisions a seat): MCTS 20/20 at 1,000 simulations (docs/rules/nidavellir.md
        # §10); at 300 it leads by about 50 Bravery points a game.
        ("nidavellir", 25.0),
        # Medals, 20 turns a side: MCTS 1.5 a game against random's 0 at 300 simulations; whole games at
        # 1,000 simulations, 20 of 20 (docs/rules/memoir44.md §9).
        ("memoir44(turn_limit=40)", 0.75),
    ],
)
def test_mcts_outscores_random(text: str, margin: float) -> None:
    mcts, rand = _mean_scores(text, seed=1)
    assert mcts >= rand + margin, f"{text}: MCTS {mcts:.2f} points a game, random {rand:.2f}"
