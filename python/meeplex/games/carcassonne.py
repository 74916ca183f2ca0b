"""Carcassonne for Python users: tile ids and names, and action ids (docs/rules/carcassonne.md §2, §7)."""

from __future__ import annotations

import math
from typing import Protocol

#: Tile type ids by position (§2): the base letters A..X, then the river tiles.
TILE_NAMES: tuple[str, ...] = (
    *"ABCDEFGHIJKLMNOPQRSTUVWX",
    "river_spring",
    "river_lake",
    "river_curve",
    "river_straight",
    "river_cities",
    "river_city_road",
    "river_cloister_road",
    "river_bridge",
    "river_city_curve",
    "river_road_curve",
)
TILE_IDS: dict[str, int] = {name: i for i, name in enumerate(TILE_NAMES)}
T = len(TILE_NAMES)
#: Feature slots of a follower action.
K = 12
START_TILE = TILE_IDS["D"]
SPRING = TILE_IDS["river_spring"]
LAKE = TILE_IDS["river_lake"]


class _Game(Protocol):
    def num_distinct_actions(self) -> int: ...


def window(game: _Game) -> int:
    """R: every tile lies within |x| <= R and |y| <= R (§3)."""
    p = game.num_distinct_actions() - 1 - K - T
    w = math.isqrt(p // 4)
    return (w - 1) // 2


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
    t = TILE_IDS[tile] if isinstance(tile, str) else tile
    return no_follower(game) + 1 + K + t


def draw_outcome(tile: int | str) -> int:
    """The chance outcome of drawing a tile type."""
    return TILE_IDS[tile] if isinstance(tile, str) else tile


#: The standard base game's no-follower id (R = 71).
NO_FOLLOWER = 4 * 143 * 143

VARIANTS: dict[str, dict[str, object]] = {
    "base": {},
    "river": {"river": True},
    "strategic": {"strategic": True},
    "river_strategic": {"river": True, "strategic": True},
    "short": {"tiles": "B2D2E3K2U3V3"},
}
