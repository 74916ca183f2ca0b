"""Memoir '44 for Python users: card keys, faces, phases and action ids (docs/rules/memoir44.md §6.3-§6.5).

The card table is read from the data file both engines read (``meeplex/data/memoir44_cards.json``), so nothing
here can drift from it.
"""

from __future__ import annotations

import json
from importlib import resources

_CARDS = json.loads(resources.files("meeplex").joinpath("data/memoir44_cards.json").read_text())

#: Card types 0..29 (§6.3) by their keys, in the file's order, and the count of each in the 60-card deck.
CARD_KEYS: tuple[str, ...] = tuple(card["key"] for card in _CARDS)
CARD_IDS: dict[str, int] = {key: k for k, key in enumerate(CARD_KEYS)}
CARD_COUNTS: tuple[int, ...] = tuple(card["count"] for card in _CARDS)
#: Dice faces 0..4 and their weights (§6.4 step 5).
FACES: tuple[str, ...] = ("infantry", "armor", "grenade", "star", "flag")
FACE_WEIGHTS: tuple[int, ...] = (2, 1, 1, 1, 1)
SECTIONS: tuple[str, ...] = ("left", "center", "right")
#: The serialized phases, in the observation's one-hot order (§6.4).
PHASES: tuple[str, ...] = tuple(
    "deal play section order move move_to battle target ambush dice ignore retreat advance overrun "
    "move_again air_target barrage_target medics_target roll draw keep over".split()
)
SCENARIOS: tuple[str, ...] = ("pegasus_bridge", "home_hills")

# Action ids (§6.5): a base plus a card type k, a section s or a hex index i (row by row, §1).
PLAY, SECTION, ORDER, DONE, UNIT, TO = 0, 30, 33, 146, 147, 260
IGNORE, TAKE, ADVANCE, AMBUSH, PASS, KEEP, CLEAR = 373, 374, 375, 376, 377, 378, 408
NUM_ACTIONS = 409
NUM_HEXES = 113
OBSERVATION_SIZE = 3430


def hex_index(row: int, col: int) -> int:
    """The index 0..112 of hex ``(row, col)`` (BGA's doubled coordinates, row + col even)."""
    if not (0 <= row <= 8 and 0 <= col <= 24 and (row + col) % 2 == 0):
        raise ValueError(f"({row}, {col}) is not a hex of the board")
    return sum(13 if r % 2 == 0 else 12 for r in range(row)) + col // 2


def play(key: str) -> int:
    """The id of playing the card type ``key``."""
    return PLAY + CARD_IDS[key]


def order(row: int, col: int) -> int:
    return ORDER + hex_index(row, col)


def unit(row: int, col: int) -> int:
    return UNIT + hex_index(row, col)


def to(row: int, col: int) -> int:
    return TO + hex_index(row, col)


def keep(key: str) -> int:
    return KEEP + CARD_IDS[key]
