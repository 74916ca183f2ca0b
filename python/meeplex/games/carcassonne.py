"""Carcassonne for Python users: tile and action ids (docs/rules/carcassonne.md §2, §7, §11)."""

from __future__ import annotations

import math
from collections.abc import Mapping
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
#: The types Inns & Cathedrals and Traders & Builders add after them, in the data file's order (§2): a game's
#: types are ``TILE_NAMES`` and those of its enabled expansions (``tile_names``).
IC_TILE_NAMES: tuple[str, ...] = (
    "ic_cccc_c", "ic_lrfr", "ic_cccc", "ic_ccc", "ic_crcr", "ic_cccp", "ic_cx", "ic_cfr", "ic_ccr",
    "ic_crcrp", "ic_rcc_i", "ic_rrc_i", "ic_ccrrp_i", "ic_rrr_i", "ic_rfr_i", "ic_rr_i", "ic_rrrr",
)  # fmt: skip
TB_TILE_NAMES: tuple[str, ...] = (
    "tb_cc_g", "tb_cc_w", "tb_ccc_c", "tb_ccc_w", "tb_ccc_g", "tb_cccc_c", "tb_ccrrx_c", "tb_ccrr_w",
    "tb_ccrc_c", "tb_ccrc_g", "tb_ccr_c", "tb_ccrx_w", "tb_cccr_w", "tb_cccc_w", "tb_cfc_w", "tb_cr",
    "tb_crc_g", "tb_crc_w", "tb_crcr_w", "tb_lrrr", "tb_rcc_g", "tb_rccx_g", "tb_rrc", "tb_rrrr",
)  # fmt: skip
#: Feature slots of a follower action.
K = 12
START_TILE = TILE_IDS["D"]
SPRING = TILE_IDS["river_spring"]
LAKE = TILE_IDS["river_lake"]


class _Game(Protocol):
    def num_distinct_actions(self) -> int: ...


def _expansions(game: _Game | None) -> tuple[bool, bool]:
    """(inns_cathedrals, traders_builders) of a game (its ``params`` list each only when it is on)."""
    params = getattr(game, "params", None)
    if not isinstance(params, Mapping):
        return False, False
    return params.get("inns_cathedrals") is True, params.get("traders_builders") is True


def tile_names(game: _Game | None = None) -> tuple[str, ...]:
    """A game's tile type names by id (§2): the base and river types, then the enabled expansions' (so with
    Traders & Builders alone its types are ids 34..57); the base game's without a game."""
    ic, tb = _expansions(game)
    return TILE_NAMES + (IC_TILE_NAMES if ic else ()) + (TB_TILE_NAMES if tb else ())


def _tile_id(game: _Game | None, tile: int | str) -> int:
    return tile_names(game).index(tile) if isinstance(tile, str) else tile


def window(game: _Game) -> int:
    """R: every tile lies within |x| <= R and |y| <= R (§3)."""
    ic, tb = _expansions(game)
    p = game.num_distinct_actions() - 1 - K - len(tile_names(game)) - K * (ic + 2 * tb)
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


def _slot(k: int) -> None:
    if not 0 <= k < K:
        raise ValueError(f"feature slot {k} is outside 0..{K - 1}")


def follower_action(game: _Game, k: int) -> int:
    """A follower on feature k of the tile just placed."""
    _slot(k)
    return no_follower(game) + 1 + k


def select_action(game: _Game, tile: int | str) -> int:
    """Select a tile type from the hand (strategic)."""
    return no_follower(game) + 1 + K + _tile_id(game, tile)


def _figure_base(game: _Game) -> int:
    """B, where the base ids end and the expansions' figure ids begin (§11.5)."""
    return no_follower(game) + 1 + K + len(tile_names(game))


def large_action(game: _Game, k: int) -> int:
    """The large follower on feature k (Inns & Cathedrals)."""
    _slot(k)
    if not _expansions(game)[0]:
        raise ValueError("the large follower needs inns_cathedrals=true")
    return _figure_base(game) + k


def builder_action(game: _Game, k: int) -> int:
    """The builder on feature k (Traders & Builders)."""
    _slot(k)
    ic, tb = _expansions(game)
    if not tb:
        raise ValueError("the builder needs traders_builders=true")
    return _figure_base(game) + K * ic + k


def pig_action(game: _Game, k: int) -> int:
    """The pig on feature k (Traders & Builders)."""
    return builder_action(game, k) + K


def draw_outcome(tile: int | str, game: _Game | None = None) -> int:
    """The chance outcome of drawing a tile type (a name is looked up among ``game``'s types)."""
    return _tile_id(game, tile)


#: The standard base game's no-follower id (R = 71).
NO_FOLLOWER = 4 * 143 * 143

VARIANTS: dict[str, dict[str, object]] = {
    "base": {},
    "river": {"river": True},
    "strategic": {"strategic": True},
    "river_strategic": {"river": True, "strategic": True},
    "short": {"tiles": "B2D2E3K2U3V3"},
    "expansions": {"inns_cathedrals": True, "traders_builders": True},
    "expansions_6p": {"inns_cathedrals": True, "players": 6, "traders_builders": True},
}
