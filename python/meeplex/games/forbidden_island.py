"""Forbidden Island for Python users: tiles, roles, card kinds, positions and action ids
(docs/rules/forbidden_island.md §2, §8).

The component tables are read from the data file both engines read (``meeplex/data/forbidden_island.json``),
so nothing here can drift from them.
"""

from __future__ import annotations

import json
from importlib import resources

_DATA = json.loads(resources.files("meeplex").joinpath("data/forbidden_island.json").read_text())

#: Tile ids 0..23 (§2) by their keys, and the keys by id.
TILE_KEYS: tuple[str, ...] = tuple(tile["key"] for tile in _DATA["tiles"])
TILE_IDS: dict[str, int] = {key: i for i, key in enumerate(TILE_KEYS)}
FOOLS_LANDING = TILE_IDS["fools_landing"]
#: Role ids 0..5 and card kinds 0..6 (§2).
ROLES: tuple[str, ...] = tuple(_DATA["roles"])
KINDS: tuple[str, ...] = tuple(card["key"] for card in _DATA["cards"])
EARTH, WIND, FIRE, OCEAN, HELI, SANDBAGS, WATERS_RISE = range(7)
DIFFICULTIES: dict[str, int] = dict(_DATA["start_level"])
LAYOUTS: tuple[str, ...] = tuple(_DATA["layouts"])

# Action ids (§8): a base plus a position q (0..23), a seat s, a kind k or a seat mask m.
MOVE, SHORE, GIVE, CAPTURE, NAVIGATE, SANDBAG, HELI_LIFT = 0, 24, 48, 64, 65, 161, 185
LIFTOFF, DISCARD, SWIM, PASS = 545, 546, 552, 576
NUM_ACTIONS = 577

# Named variants: parameter sets for `meeplex list` and `meeplex.make("forbidden_island", **VARIANTS[name])`.
VARIANTS: dict[str, dict[str, object]] = {
    "legendary": {"difficulty": "legendary"},
    "four_players": {"players": 4, "difficulty": "normal"},
    "treasure_island": {"players": 3, "layout": "treasure_island"},
}


def positions(layout: str = "standard") -> tuple[str, ...]:
    """The names of positions 0..23 of a layout (§2): column letter and row digit, ``c1`` first."""
    return tuple(f"{chr(ord('a') + x - 1)}{y}" for x, y in _DATA["layouts"][layout])


def position(name: str, layout: str = "standard") -> int:
    """The position id of a name such as ``c1``."""
    names = positions(layout)
    if name not in names:
        raise ValueError(f"{name!r} is not a position of the {layout} layout: {' '.join(names)}")
    return names.index(name)


def give(seat: int, kind: int) -> int:
    """The id of giving a treasure card of ``kind`` (0..3) to ``seat`` (0..3)."""
    if not (0 <= seat < 4 and 0 <= kind < 4):
        raise ValueError("give takes a seat 0..3 and a treasure kind 0..3")
    return GIVE + 4 * seat + kind


def navigate(seat: int, q: int) -> int:
    """The id of the Navigator moving ``seat``'s pawn to position ``q``."""
    if not (0 <= seat < 4 and 0 <= q < 24):
        raise ValueError("navigate takes a seat 0..3 and a position 0..23")
    return NAVIGATE + 24 * seat + q


def heli(seats: list[int] | tuple[int, ...], q: int) -> int:
    """The id of a Helicopter Lift taking the pawns of ``seats`` (all on one tile) to position ``q``."""
    mask = 0
    for s in seats:
        if not 0 <= s < 4 or mask & (1 << s):
            raise ValueError("heli takes distinct seats 0..3")
        mask |= 1 << s
    if mask == 0 or not 0 <= q < 24:
        raise ValueError("heli takes at least one seat and a position 0..23")
    return HELI_LIFT + 24 * (mask - 1) + q
