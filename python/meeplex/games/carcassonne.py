"""Carcassonne for Python users: tile ids and names, and action ids (docs/rules/carcassonne.md §2, §7, §11,
§12).

A game's tile types depend on its expansions (§2): the base letters and the river tiles always, then the
Inns & Cathedrals, Traders & Builders and Princess & Dragon types when enabled. ``TILE_NAMES`` /
``TILE_IDS`` / ``T`` are the base game's (no expansion); ``tile_names(game)`` gives any game's.
"""

from __future__ import annotations

import json
import math
from importlib import resources
from typing import Any, Protocol

_TABLE = json.loads(resources.files("meeplex").joinpath("data/carcassonne_tiles.json").read_text())["tiles"]
#: The expansion parameters; each adds the tile-table set of the same name (§2, §11).
EXPANSIONS: tuple[str, ...] = ("inns_cathedrals", "traders_builders", "princess_dragon")

#: Tile type ids of the base game by position (§2): the base letters A..X, then the river tiles.
TILE_NAMES: tuple[str, ...] = tuple(t["name"] for t in _TABLE if t["set"] in ("base", "river"))
TILE_IDS: dict[str, int] = {name: i for i, name in enumerate(TILE_NAMES)}
T = len(TILE_NAMES)
#: Feature slots of a follower action.
K = 12
START_TILE = TILE_IDS["D"]
SPRING = TILE_IDS["river_spring"]
LAKE = TILE_IDS["river_lake"]


class _Game(Protocol):
    @property
    def params(self) -> dict[str, Any]: ...

    def num_distinct_actions(self) -> int: ...


def tile_names(game: _Game) -> tuple[str, ...]:
    """The game's tile types by id (§2): base and river, then each enabled expansion's, in table order."""
    sets = {"base", "river"} | {key for key in EXPANSIONS if game.params.get(key)}
    return tuple(t["name"] for t in _TABLE if t["set"] in sets)


def _extra_ids(game: _Game) -> int:
    """The expansions' figure ids after the select block (§11.5): K (large followers), 2K (builders, pigs)."""
    return K * (1 if game.params.get("inns_cathedrals") else 0) + 2 * K * (
        1 if game.params.get("traders_builders") else 0
    )


def _pd_blocks(game: _Game) -> int:
    """The number of slot-by-feature blocks of The Princess and the Dragon (§12.8): portal follower, portal
    large follower (with Inns & Cathedrals), princess, fairy; 0 without the expansion."""
    if not game.params.get("princess_dragon"):
        return 0
    return 4 if game.params.get("inns_cathedrals") else 3


def window(game: _Game) -> int:
    """R: every tile lies within |x| <= R and |y| <= R (§3)."""
    rest = game.num_distinct_actions() - 1 - K - len(tile_names(game)) - _extra_ids(game)
    blocks = _pd_blocks(game)
    if blocks == 0:
        w = math.isqrt(rest // 4)
        return (w - 1) // 2
    # With P&D the id count is 4 (2R + 1)^2 + blocks (R + 1) K + 4, increasing in R: find that R.
    r = 0
    while 4 * (2 * r + 1) ** 2 + blocks * (r + 1) * K + 4 < rest:
        r += 1
    return r


def place_action(game: _Game, x: int, y: int, rot: int) -> int:
    """The id of placing the tile at (x, y) with rotation ``rot`` quarter turns clockwise (0..3)."""
    r = window(game)
    if abs(x) > r or abs(y) > r or not 0 <= rot < 4:
        raise ValueError(f"({x}, {y}) r{rot} is outside the window |x|, |y| <= {r}, rotations 0..3")
    w = 2 * r + 1
    return ((y + r) * w + (x + r)) * 4 + rot


def place_of(game: _Game, action: int) -> tuple[int, int, int]:
    """(x, y, rot) of a place id."""
    r = window(game)
    w = 2 * r + 1
    cell, rot = divmod(action, 4)
    return cell % w - r, cell // w - r, rot


def no_follower(game: _Game) -> int:
    return 4 * (2 * window(game) + 1) ** 2


def follower_action(game: _Game, k: int) -> int:
    """A follower on feature k of the tile just placed."""
    if not 0 <= k < K:
        raise ValueError(f"feature slot {k} is outside 0..{K - 1}")
    return no_follower(game) + 1 + k


def select_action(game: _Game, tile: int | str) -> int:
    """Select a tile type from the hand (strategic)."""
    t = tile_names(game).index(tile) if isinstance(tile, str) else tile
    return no_follower(game) + 1 + K + t


def draw_outcome(tile: int | str, game: _Game | None = None) -> int:
    """The chance outcome of drawing a tile type (an expansion tile's name needs its ``game``)."""
    if isinstance(tile, int):
        return tile
    return TILE_IDS[tile] if game is None else tile_names(game).index(tile)


def large_action(game: _Game, k: int) -> int:
    """The large follower on feature k of the tile just placed (Inns & Cathedrals, §11.5)."""
    if not game.params.get("inns_cathedrals") or not 0 <= k < K:
        raise ValueError("a large follower needs inns_cathedrals and a feature slot 0..11")
    return no_follower(game) + 1 + K + len(tile_names(game)) + k


def builder_action(game: _Game, k: int) -> int:
    """The builder on feature k of the tile just placed (Traders & Builders, §11.5)."""
    if not game.params.get("traders_builders") or not 0 <= k < K:
        raise ValueError("a builder needs traders_builders and a feature slot 0..11")
    large = K if game.params.get("inns_cathedrals") else 0
    return no_follower(game) + 1 + K + len(tile_names(game)) + large + k


def pig_action(game: _Game, k: int) -> int:
    """The pig on feature k of the tile just placed (Traders & Builders, §11.5)."""
    return builder_action(game, k) + K


def _pd_base(game: _Game) -> int:
    """PF, the first id of The Princess and the Dragon (§12.8): the end of the ids of §7 and §11.5."""
    if not game.params.get("princess_dragon"):
        raise ValueError("this action needs princess_dragon=true")
    return no_follower(game) + 1 + K + len(tile_names(game)) + _extra_ids(game)


def _slot_block(game: _Game, block: int, slot: int, k: int) -> int:
    slots = window(game) + 1
    if not 0 <= slot < slots or not 0 <= k < K:
        raise ValueError(f"slot {slot} / feature {k} outside 0..{slots - 1} / 0..{K - 1}")
    return _pd_base(game) + block * slots * K + slot * K + k


def portal_action(game: _Game, slot: int, k: int, large: bool = False) -> int:
    """The magic portal (§12.5): a follower (or the large follower) on feature k of the tile in ``slot`` (the
    slot-th tile placed, 0 the start tile)."""
    if large and not game.params.get("inns_cathedrals"):
        raise ValueError("a large follower needs inns_cathedrals")
    return _slot_block(game, 1 if large else 0, slot, k)


def princess_action(game: _Game, slot: int, k: int) -> int:
    """The princess returns the follower on feature k of the tile in ``slot`` (§12.4)."""
    return _slot_block(game, _pd_blocks(game) - 2, slot, k)


def fairy_action(game: _Game, slot: int, k: int) -> int:
    """The fairy goes next to the follower on feature k of the tile in ``slot`` (§12.6)."""
    return _slot_block(game, _pd_blocks(game) - 1, slot, k)


#: Dragon step directions, in id order (§12.8).
DRAGON_DIRECTIONS = ("N", "E", "S", "W")


def dragon_action(game: _Game, direction: int | str) -> int:
    """The dragon steps N, E, S or W (0..3) (§12.3)."""
    d = DRAGON_DIRECTIONS.index(direction.upper()) if isinstance(direction, str) else direction
    if not 0 <= d < 4:
        raise ValueError(f"direction {direction!r} is not one of N, E, S, W")
    return _pd_base(game) + _pd_blocks(game) * (window(game) + 1) * K + d


#: The standard base game's no-follower id (R = 71).
NO_FOLLOWER = 4 * 143 * 143

VARIANTS: dict[str, dict[str, object]] = {
    "base": {},
    "river": {"river": True},
    "strategic": {"strategic": True},
    "river_strategic": {"river": True, "strategic": True},
    "short": {"tiles": "B2D2E3K2U3V3"},
    "inns_cathedrals": {"inns_cathedrals": True},
    "traders_builders": {"traders_builders": True},
    "expansions": {"inns_cathedrals": True, "traders_builders": True, "players": 4},
    "princess_dragon": {"princess_dragon": True},
    "all_expansions": {
        "inns_cathedrals": True,
        "traders_builders": True,
        "princess_dragon": True,
        "players": 3,
    },
}
