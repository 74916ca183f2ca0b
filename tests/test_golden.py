"""Golden playthroughs (DESIGN.md, "Testing"): a few seeded random games per game and variant, stored as text.

Each file in ``tests/golden/`` holds one game: a header with the game string and the seed, one line per step
(``<step> <current player> <action id> <action string>``), then the returns, the scores and the final
serialized state. Both engines must reproduce every file exactly.

Regenerate after an intended rules change with ``python tests/test_golden.py --regen`` (written from the
Rust engine, or ``--engine oracle``; refused while the other engine disagrees, unless ``--force``), then
review the diff.
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import sys
from pathlib import Path

import pytest

import meeplex
import meeplex.oracle
from meeplex.testing import random_action
from meeplex.testing.strategies import combined_variants

GOLDEN_DIR = Path(__file__).parent / "golden"

# (game string, seeds), chosen by hand where a game is listed here. Small max_turns keep the files readable;
# the default game is there once in full.
CHOSEN: dict[str, list[tuple[str, tuple[int, ...]]]] = {
    # A whole standard game, short custom piles (fields reached at the end), The River, the strategic hands;
    # a whole game with both expansions, and both with six seats, The River and hands on a short base pile.
    "carcassonne": [
        ("carcassonne", (1,)),
        ("carcassonne(players=3,tiles=A1B2D2E3K1U3V3)", (1, 2)),
        ("carcassonne(river=true,tiles=E2U2V2)", (1,)),
        ("carcassonne(players=3,strategic=true,tiles=A1C1E2F1K2R1U3V3X1)", (1,)),
        ("carcassonne(players=5,river=true,strategic=true)", (1,)),
        ("carcassonne(inns_cathedrals=true,traders_builders=true)", (1,)),
        (
            "carcassonne(inns_cathedrals=true,players=6,river=true,strategic=true,tiles=B2E3K2U3V3,"
            "traders_builders=true)",
            (1,),
        ),
        ("carcassonne(princess_dragon=true)", (1,)),
        (
            "carcassonne(inns_cathedrals=true,players=4,princess_dragon=true,river=true,strategic=true,"
            "tiles=B2E3K2U3V3,traders_builders=true)",
            (1,),
        ),
    ],
    "caboodle": [
        ("caboodle", (1, 2)),
        ("caboodle(rules=2023)", (1,)),
        ("caboodle(players=3)", (1,)),
        ("caboodle(players=4,rules=2023)", (1,)),
    ],
    # Whole games: two seats (two seeds), three with the first-game heroes, four, and five with the BGA
    # reading of the Warrior bonus; Thingvellir with two and four seats.
    "nidavellir": [
        ("nidavellir", (1, 2)),
        ("nidavellir(first_game=true,players=3)", (1,)),
        ("nidavellir(players=4)", (1,)),
        ("nidavellir(players=5,warrior_bonus_at_zero=true)", (1,)),
        ("nidavellir(thingvellir=true)", (1,)),
        ("nidavellir(players=4,thingvellir=true)", (1,)),
    ],
    # Pegasus Bridge whole (random games end by medals or the 80-turn limit), the home-made scenario of
    # docs/rules/memoir44.md §8 whole, and a 12-turn game.
    "memoir44": [
        ("memoir44", (1, 2)),
        ("memoir44(scenario=home_hills)", (1,)),
        ("memoir44(turn_limit=12)", (1,)),
    ],
    # A whole default game (random play runs to the 20-year limit), short games at three to six seats, and
    # every card reading moved with the other end rule.
    "viticulture": [
        ("viticulture", (1,)),
        ("viticulture(max_years=3)", (1, 2)),
        ("viticulture(max_years=2,players=4)", (1,)),
        ("viticulture(max_years=1,players=6)", (1,)),
        (
            "viticulture(end_rule=year_end,harvest_expert=harvest_both,importer=draw,max_years=2,players=3,"
            "promoter=vp_only,queen=off)",
            (1,),
        ),
    ],
    # Random games are short (a few turns): the default game, both layouts, every difficulty and seat count.
    "forbidden_island": [
        ("forbidden_island", (1, 2)),
        ("forbidden_island(difficulty=elite,layout=treasure_island)", (1,)),
        ("forbidden_island(difficulty=legendary,layout=treasure_island,players=3)", (1,)),
        ("forbidden_island(difficulty=normal,players=4)", (1,)),
    ],
    "flip_city": [
        ("flip_city", (1, 2)),
        ("flip_city(max_turns=6,players=3)", (1, 2)),
        ("flip_city(max_turns=6,office=true,players=2)", (1, 2, 3)),
        ("flip_city(max_turns=4,office=true,players=4)", (1,)),
        ("flip_city(max_turns=10,players=1)", (1, 2)),
        ("flip_city(max_turns=10,office=true,players=1)", (3,)),
        (
            "flip_city(apartment_unhappiness=0,hospital_cash=0,mall_recycle=false,max_turns=6,"
            "station_recycle=false)",
            (1, 2),
        ),
        # A supply mixing both sets (docs/rules/flip_city_wilderness.md §1.1): the base starting deck with
        # Wilderness piles, and the other colour table with the printed Logging Site texts.
        ("flip_city(max_turns=8,supply=cs+park+market+wind+camp)", (1, 2)),
        ("flip_city(colours=size,logging_text=printed,max_turns=6,players=3,supply=log+hosp+fac+park)", (1,)),
    ],
    "flip_city_wilderness": [
        ("flip_city_wilderness", (1,)),
        (
            "flip_city_wilderness(airport_points=0,apartment_unhappiness=0,hospital_cash=0,interchange_cash=0,"
            "mall_recycle=false,max_turns=1,players=1,reservoir_points=0,resort_unhappiness=1,"
            "station_recycle=false,trailer_cash=0)",
            (1, 2),
        ),
        (
            "flip_city_wilderness(airport_points=3,apartment_unhappiness=0,hospital_cash=0,interchange_cash=0,"
            "max_turns=6,players=4,reservoir_points=3,resort_unhappiness=1,trailer_cash=0)",
            (1, 2),
        ),
        # Mixed supplies: base piles (Office included) with the Wilderness starting deck, and a solo game.
        ("flip_city_wilderness(max_turns=8,reservoir_recycle=both,supply=log+off+hosp+fac+park)", (1, 2)),
        (
            "flip_city_wilderness(max_turns=12,players=1,reservoir_recycle=cash,supply=cs+market+wind+camp)",
            (1,),
        ),
    ],
}


def golden_sets() -> list[tuple[str, tuple[int, ...]]]:
    """The chosen sets, and for any other registered game its default game and its two combined variants
    (``combined_variants``, turn limit at most 6), so that a new game gets golden playthroughs from
    ``--regen`` without editing this file."""
    sets: list[tuple[str, tuple[int, ...]]] = []
    for game_id in meeplex.games():
        if game_id in CHOSEN:
            sets += CHOSEN[game_id]
            continue
        for variant in combined_variants(game_id):
            if variant and "max_turns" in meeplex.make(game_id).params:
                variant = dict(variant, max_turns=min(variant.get("max_turns", 6), 6))
            sets.append((meeplex.game_string(game_id, variant), (1, 2) if variant else (1,)))
    return sets


GOLDEN_SETS = golden_sets()

ENGINES = {
    "rust": (meeplex.make, meeplex.Rng),
    "oracle": (meeplex.oracle.make, meeplex.oracle.Rng),
}


def file_name(game_string: str, seed: int) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", game_string.lower()).strip("-")
    return f"{slug}--seed{seed}.txt"


def playthrough(engine: str, game_string: str, seed: int) -> str:
    """The golden text of one random game (DESIGN's random step with the engine's own Rng)."""
    make, rng_cls = ENGINES[engine]
    state = make(game_string).new_initial_state()
    rng = rng_cls(seed)
    lines = [f"# game: {game_string}", f"# seed: {seed}", "# step player action text"]
    step = 0
    while not state.is_terminal():
        player = state.current_player()
        action = random_action(state, rng)
        lines.append(f"{step} {player} {action} {state.action_to_string(action)}")
        state.apply_action(action)
        step += 1
    lines.append(f"# returns: {json.dumps(list(state.returns()))}")
    lines.append(f"# scores: {json.dumps(list(state.scores()))}")
    lines.append(f"# final: {state.serialize()}")
    return "\n".join(lines) + "\n"


def _header(text: str) -> tuple[str, int]:
    """The game string and the seed a golden text was made from."""
    first, second = text.splitlines()[:2]
    return first.removeprefix("# game: "), int(second.removeprefix("# seed: "))


def _first_difference(expected: str, actual: str) -> str:
    diff = difflib.unified_diff(
        expected.splitlines(), actual.splitlines(), "golden", "engine", n=2, lineterm=""
    )
    return "\n".join(list(diff)[:20])


GOLDEN_FILES = sorted(GOLDEN_DIR.glob("*.txt"))


@pytest.mark.parametrize("engine", ["rust", "oracle"])
@pytest.mark.parametrize("path", GOLDEN_FILES, ids=[p.stem for p in GOLDEN_FILES])
def test_golden_playthrough(path: Path, engine: str):
    expected = path.read_text()
    game_string, seed = _header(expected)
    if engine == "oracle" and meeplex.make(game_string).name not in meeplex.oracle.games():
        pytest.skip("the oracle does not have this game yet")
    actual = playthrough(engine, game_string, seed)
    assert actual == expected, f"{engine} departs from {path.name}:\n{_first_difference(expected, actual)}"


def test_golden_files_match_the_list():
    """Every listed playthrough has its file and no file is stale, so ``--regen`` reproduces the directory."""
    wanted = {file_name(g, s) for g, seeds in GOLDEN_SETS for s in seeds}
    assert {p.name for p in GOLDEN_FILES} == wanted


def test_every_registered_game_has_golden_playthroughs():
    """A newly registered game fails here until ``--regen`` has written its playthroughs."""
    covered = {meeplex.make(_header(p.read_text())[0]).name for p in GOLDEN_FILES}
    assert covered == set(meeplex.games())


def regenerate(engine: str, force: bool) -> int:
    GOLDEN_DIR.mkdir(exist_ok=True)
    other = "oracle" if engine == "rust" else "rust"
    texts = {file_name(g, s): playthrough(engine, g, s) for g, seeds in GOLDEN_SETS for s in seeds}
    others = {"rust": meeplex.games(), "oracle": meeplex.oracle.games()}[other]
    unchecked = sorted(
        name for name, text in texts.items() if meeplex.make(_header(text)[0]).name not in others
    )
    if unchecked:
        print(f"{other} does not have the game of {unchecked} yet: written unchecked", file=sys.stderr)
    disagree = [
        name
        for name, text in texts.items()
        if name not in unchecked and playthrough(other, *_header(text)) != text
    ]
    if disagree:
        print(f"{other} disagrees with {engine} on {disagree}", file=sys.stderr)
        if not force:
            print("nothing written (--force writes anyway)", file=sys.stderr)
            return 1
    for stale in GOLDEN_DIR.glob("*.txt"):
        if stale.name not in texts:
            stale.unlink()
    for name, text in texts.items():
        (GOLDEN_DIR / name).write_text(text)
    print(f"wrote {len(texts)} playthroughs to {GOLDEN_DIR}")
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--regen", action="store_true", help="rewrite tests/golden/ from an engine")
    parser.add_argument("--engine", choices=sorted(ENGINES), default="rust")
    parser.add_argument("--force", action="store_true", help="write even if the other engine disagrees")
    args = parser.parse_args()
    if not args.regen:
        sys.exit(pytest.main([__file__, "-q"]))
    sys.exit(regenerate(args.engine, args.force))
