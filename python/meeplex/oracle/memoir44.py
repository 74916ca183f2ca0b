"""Memoir '44: the board layer of the pure-Python reference implementation of ``memoir44`` (issue 19).

Written from the game-help page (``shared/rules/bga_memoir44.txt``, "the page"), the core facts
(``shared/rules/facts/memoir44_core.json``) and the Pegasus Bridge scenario as BGA ships it
(``meeplex/data/memoir44_pegasus_bridge.json``, a byte copy of ``shared/rules/facts/``). This module is only
the foundation the rules are built on: hexes and their neighbours, distances, line of sight, the three
sections and the scenario reader. Turns, cards, dice and battles come later.

Coordinates are the BGA scenario files' own: a hex is ``(row, col)``, row 0 (the top player's edge) to 8 (the
bottom player's), col 0 to 24 "doubled", so that row + col is even: even rows hold cols 0, 2, .., 24 (13
hexes), odd rows cols 1, 3, .., 23 (12 hexes). Hexes are pointy-topped and laid in horizontal rows.

Everything is exact (ints and ``fractions.Fraction``); nothing here is fast on purpose. Places where the page
had to be read one way among several are marked ``READING:``.
"""

from __future__ import annotations

import functools
import itertools
import json
import operator
import re
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from importlib import resources as importlib_resources
from typing import Any, NamedTuple, cast

import numpy as np
import numpy.typing as npt

from meeplex._params import game_string
from meeplex._protocols import RngLike
from meeplex.errors import IllegalActionError, InvalidNotationError, InvalidStateError
from meeplex.oracle._datafile import decode_data_file
from meeplex.oracle._json import StrictFields, is_int, no_duplicate_keys, same_params
from meeplex.oracle._text import fold_white_space
from meeplex.oracle.rng import random_step

GAME_NAME = "memoir44"

# ---------------------------------------------------------------------------------------------------------
# Hexes
# ---------------------------------------------------------------------------------------------------------

ROWS = 9
MAX_COL = 24  # cols 0..24, doubled


class Hex(NamedTuple):
    """A hex of the board, ``(row, col)`` in BGA's doubled coordinates (row + col even).

    A NamedTuple, so that hexes sort row-major, compare equal to plain tuples and print as ``Hex(row=2,
    col=6)``."""

    row: int
    col: int


def on_board(h: Hex) -> bool:
    """``h`` is one of the 113 hexes of the standard board."""
    return 0 <= h.row < ROWS and 0 <= h.col <= MAX_COL and (h.row + h.col) % 2 == 0


ALL_HEXES: tuple[Hex, ...] = tuple(
    Hex(row, col) for row in range(ROWS) for col in range(MAX_COL + 1) if (row + col) % 2 == 0
)
"""The 113 hexes (5 rows of 13, 4 of 12), row-major: row 0 left to right, then row 1, ..."""

# The six steps to a neighbour: along the row, and the four diagonals.
_STEPS: tuple[tuple[int, int], ...] = ((0, 2), (0, -2), (1, 1), (1, -1), (-1, 1), (-1, -1))


def neighbours(h: Hex) -> list[Hex]:
    """The hexes on the board that share a side with ``h``, sorted row-major (2 in a corner, 6 inside)."""
    return list(_neighbours(h))


@functools.cache
def _neighbours(h: Hex) -> tuple[Hex, ...]:
    return tuple(
        sorted(Hex(h.row + dr, h.col + dc) for dr, dc in _STEPS if on_board(Hex(h.row + dr, h.col + dc)))
    )


def distance(a: Hex, b: Hex) -> int:
    """The number of steps from ``a`` to ``b``: every step changes the row by at most 1 and the column by at
    most 2, and a diagonal step changes both, so ``dr`` diagonal steps cover ``dr`` columns and the rest of
    the columns take one row step per 2 columns."""
    dr = abs(a.row - b.row)
    dc = abs(a.col - b.col)
    return dr + max(0, (dc - dr) // 2)


# ---------------------------------------------------------------------------------------------------------
# Sections
# ---------------------------------------------------------------------------------------------------------

# BGA columns, from the bottom player's view (facts: core.board.sections_bga_col); cols 7 and 17 straddle.
SECTION_COLS: tuple[tuple[int, int], tuple[int, int], tuple[int, int]] = ((0, 7), (7, 17), (17, 24))


def sections(h: Hex) -> tuple[bool, bool, bool]:
    """Whether ``h`` is in the (left, centre, right) section, as the bottom player sees the board.

    The hexes of cols 7 and 17 (odd rows only) are cut by the dotted line and belong to both sections they
    straddle: "Units on a hex straddling sections may be ordered from either section" (the page). The top
    player's left is the bottom player's right: callers that need his view reverse the triple."""
    return (
        SECTION_COLS[0][0] <= h.col <= SECTION_COLS[0][1],
        SECTION_COLS[1][0] <= h.col <= SECTION_COLS[1][1],
        SECTION_COLS[2][0] <= h.col <= SECTION_COLS[2][1],
    )


# ---------------------------------------------------------------------------------------------------------
# Line of sight
# ---------------------------------------------------------------------------------------------------------
#
# The page: "Draw a line between the centres of the hexes; LOS is blocked if any part of a hex containing an
# obstruction or unit crosses this line. If the line runs along the edge of one or more hexes it is only
# blocked if they stand along both sides of the line segment."
#
# Line of sight only asks which hexes a straight segment meets, and an affine map keeps straight lines,
# convexity and "which side": so the hexes need not be regular. With the centre of (row, col) at
# X = col, Y = 3 * row, a pointy-top hex's corners fall on integers: (X, Y - 2) at the top, (X + 1, Y - 1),
# (X + 1, Y + 1), (X, Y + 2) at the bottom, (X - 1, Y + 1), (X - 1, Y - 1). Neighbouring hexes share exactly
# two corners, which are the ends of their common side.

Point = tuple[int, int]


def centre(h: Hex) -> Point:
    """The centre of ``h`` in the integer plane (X = col, Y = 3 * row; Y grows downwards)."""
    return (h.col, 3 * h.row)


@functools.cache
def corners(h: Hex) -> tuple[Point, ...]:
    """The six corners of ``h``, clockwise on the screen (Y downwards) from the top one."""
    x, y = centre(h)
    return ((x, y - 2), (x + 1, y - 1), (x + 1, y + 1), (x, y + 2), (x - 1, y + 1), (x - 1, y - 1))


def _cross(u: Point, v: Point) -> int:
    return u[0] * v[1] - u[1] * v[0]


def _sub(p: Point, q: Point) -> Point:
    return (p[0] - q[0], p[1] - q[1])


def _side_lines(h: Hex, start: Point, step: Point) -> list[tuple[int, int]]:
    """For each side of ``h``, ``(at_start, rate)``: the point ``start + t * step`` lies on the inner side
    of that side's line when ``at_start + t * rate > 0``, on the line when it is 0 (the value is the cross
    product of the side, taken clockwise on the screen, with the point; positive towards the centre)."""
    cs = corners(h)
    lines = []
    for i in range(6):
        p, q = cs[i], cs[(i + 1) % 6]
        edge = _sub(q, p)
        lines.append((_cross(edge, _sub(start, p)), _cross(edge, step)))
    return lines


def _clip(h: Hex, start: Point, step: Point) -> tuple[Fraction, Fraction] | None:
    """The parameters ``[lo, hi]`` (within [0, 1]) of the part of the segment ``start + t * step`` that lies
    in the closed hex ``h``, or ``None`` if the two do not meet. Each side of the hex bounds a half-plane, and
    the segment meets a half-plane in an interval of ``t``: intersect them all."""
    lo, hi = Fraction(0), Fraction(1)
    for at_start, rate in _side_lines(h, start, step):
        if rate == 0:
            if at_start < 0:
                return None  # parallel to this side and outside it
        elif rate > 0:
            lo = max(lo, Fraction(-at_start, rate))
        else:
            hi = min(hi, Fraction(-at_start, rate))
    return (lo, hi) if lo <= hi else None


def _meets_interior(h: Hex, start: Point, step: Point) -> bool:
    """The segment passes through the inside of ``h``, not only along its sides or through a corner.

    The part of the segment in the closed hex is one piece ``[lo, hi]``. A single point touches the
    boundary only. A longer piece lies inside the hex except perhaps at its ends, unless all of it lies on
    one side of the hex (a line that meets a convex polygon's boundary at a piece's middle point supports
    the polygon there, so the whole piece lies on that line): so the piece's middle decides."""
    turns = [_cross(step, _sub(p, start)) for p in corners(h)]
    if all(turn > 0 for turn in turns) or all(turn < 0 for turn in turns):
        return False  # a shortcut: every corner lies strictly on one side of the line, which misses the hex
    piece = _clip(h, start, step)
    if piece is None or piece[0] == piece[1]:
        return False
    middle = (piece[0] + piece[1]) / 2
    return all(at_start + middle * rate > 0 for at_start, rate in _side_lines(h, start, step))


def _runs_along(side: tuple[Point, Point], start: Point, step: Point) -> bool:
    """The segment ``start + t * step`` (0 <= t <= 1) shares a piece of positive length with ``side``: both
    ends of the side lie on the segment's line and their parameters overlap [0, 1] by more than a point."""
    p, q = side
    if _cross(step, _sub(p, start)) != 0 or _cross(step, _sub(q, start)) != 0:
        return False
    length2 = step[0] * step[0] + step[1] * step[1]
    tp = Fraction(step[0] * (p[0] - start[0]) + step[1] * (p[1] - start[1]), length2)
    tq = Fraction(step[0] * (q[0] - start[0]) + step[1] * (q[1] - start[1]), length2)
    return max(Fraction(0), min(tp, tq)) < min(Fraction(1), max(tp, tq))


@functools.cache
def shared_side(a: Hex, b: Hex) -> tuple[Point, Point]:
    """The two corners that neighbouring hexes ``a`` and ``b`` have in common, in row-major order."""
    common = sorted(set(corners(a)) & set(corners(b)))
    if len(common) != 2:
        raise ValueError(f"{a} and {b} are not neighbours")
    return (common[0], common[1])


def hexes_crossed(a: Hex, b: Hex) -> tuple[list[Hex], list[tuple[Hex, Hex]]]:
    """What the segment from the centre of ``a`` to the centre of ``b`` meets, other than ``a`` and ``b``.

    Returns ``(interior, edge_pairs)``: the board hexes whose inside the segment passes through, row-major;
    and the pairs of neighbouring board hexes whose common side the segment runs along for a positive
    length, each pair row-major and the list sorted. A hex the segment touches only at a corner is in
    neither. The segment never runs along a side of ``a`` or ``b`` (it starts inside them).

    READING: on the board's left and right rims, the odd rows' outer sides border no hex (the real board's
    half hexes, where nothing stands); a segment down such a side (e.g. (0,0) to (2,0) along the left side of
    (1,1)) has one side only, so it gives no pair and cannot be blocked there.

    Plain on purpose: every board hex near the segment, and every pair of neighbours among them, is tried."""
    start = centre(a)
    step = _sub(centre(b), start)
    if step == (0, 0):
        return ([], [])
    # Only a shortcut: a hex lies within 1 of its centre across and 2 up and down, so one whose box misses
    # the segment's box cannot meet the segment.
    x_low, x_high = sorted((a.col, b.col))
    y_low, y_high = sorted((3 * a.row, 3 * b.row))
    near = [h for h in ALL_HEXES if x_low - 1 <= h.col <= x_high + 1 and y_low - 2 <= 3 * h.row <= y_high + 2]
    interior = [h for h in near if h not in (a, b) and _meets_interior(h, start, step)]
    edge_pairs = [
        (h, n) for h in near for n in _neighbours(h) if h < n and _runs_along(shared_side(h, n), start, step)
    ]
    return (interior, edge_pairs)


def side_of_line(a: Hex, b: Hex, h: Hex) -> int:
    """Which side of the line from the centre of ``a`` to the centre of ``b`` the centre of ``h`` is on: +1
    or -1 (the same sign for every hex on the same side), 0 on the line."""
    turn = _cross(_sub(centre(b), centre(a)), _sub(centre(h), centre(a)))
    return (turn > 0) - (turn < 0)


def los_clear(a: Hex, b: Hex, blocks: Callable[[Hex], bool]) -> bool:
    """Line of sight from ``a`` to ``b`` by the page's rule, where ``blocks(h)`` says whether hex ``h``
    holds a unit or an obstruction (``a`` and ``b`` themselves are never asked).

    Blocked if a blocking hex lies across the line. Where the line runs along sides, the hexes flanking it
    block only if blocking hexes stand on both sides of the line: one side alone never blocks, and neither
    does a hex touched at a corner only.

    READING: "only blocked if they stand along both sides of the line segment" (the page) is taken over the
    whole segment, as the rulebook words it ("unless the obstructions stand somewhere along both sides of the
    line segment", borisyankov/rulespal memoir-44-rulebook.md) and as BGA computes it (``Board.php``
    ``isInLineOfSight`` collects a left and a right flag along the line): a blocker beside one side on the
    left and another beside a different side on the right block together.

    READING: a hex the line only touches at a corner does not "cross" it (the page), so it never blocks.
    BGA's ``Board.php`` counts such a hex as blocking (``LINE_CORNER``); see the module's tests."""
    interior, edge_pairs = hexes_crossed(a, b)
    if any(blocks(h) for h in interior):
        return False
    blocked_sides = {side_of_line(a, b, h) for pair in edge_pairs for h in pair if blocks(h)}
    return len(blocked_sides) < 2


# ---------------------------------------------------------------------------------------------------------
# Scenarios
# ---------------------------------------------------------------------------------------------------------
#
# A scenario is BGA's scenario array, as JSON: {"game_info": {...}, "board": {"type", "face", "hexagons",
# "labels"}} (and an optional "source" string). Only what the base game needs is accepted; any other key or
# name is refused, so that a scenario using a rule this engine does not know fails loudly instead of being
# played wrong.

AXIS = "AXIS"
ALLIES = "ALLIES"
SIDES = (AXIS, ALLIES)

# The BGA names of base-game terrain, by the hex key they go under, and the terrain they stand for
# (memoir44_core.json's names). From bga-devs/bga-memoir ``modules/php/Scenario.php`` ``validateTerrain``.
TERRAIN_NAMES: Mapping[str, str] = {
    "woods": "forest",
    "buildings": "town",
    "river": "river",
    "curve": "river",  # a river bend; Pegasus Bridge also uses it for the pond (impassable either way)
    "pond": "river",
    "hills": "hill",
    "hedgerow": "hedgerow",
    "beach": "beach",
}
RECT_TERRAIN_NAMES: Mapping[str, str] = {"bridge": "bridge"}
OBSTACLE_NAMES: Mapping[str, str] = {
    "wire": "wire",
    "sand": "sandbags",
    "hedgehog": "hedgehog",
    "bunker": "bunker",
}

# BGA unit names are a type then a nation (``Managers/Troops.php``): "infger" is German infantry. Longest
# type first, since "inf2" begins with "inf".
UNIT_TYPES: Mapping[str, tuple[str, bool]] = {
    "inf2": ("infantry", True),  # special forces
    "tank2": ("armor", True),  # elite armor
    "inf": ("infantry", False),
    "tank": ("armor", False),
    "gun": ("artillery", False),
}
NATION_SIDE: Mapping[str, str] = {
    "fr": ALLIES,
    "gb": ALLIES,
    "us": ALLIES,
    "ru": ALLIES,
    "ch": ALLIES,
    "ger": AXIS,
    "jp": AXIS,
    "it": AXIS,
}
# Figures a unit starts with (the page; memoir44_core.json). READING: the page gives elite armor 4 figures;
# BGA's TROOP_FIGURES says 3 for "tank2". The page wins here.
FIGURES: Mapping[tuple[str, bool], int] = {
    ("infantry", False): 4,
    ("infantry", True): 4,
    ("armor", False): 3,
    ("armor", True): 4,
    ("artillery", False): 2,
}

_MEDAL_TAG = re.compile(r"medal[0-9]+")

_TOP_KEYS = {"game_info", "board"}
_TOP_OPTIONAL = {"source"}
_GAME_INFO_KEYS = {"starting", "side_player1", "side_player2", "cards_player1", "cards_player2"}
_GAME_INFO_KEYS |= {"victory_player1", "victory_player2"}
# Descriptive fields, kept as given and not interpreted.
_GAME_INFO_OPTIONAL = {"front", "operationID", "date_begin", "date_end", "type", "country_player1"}
_GAME_INFO_OPTIONAL |= {"country_player2", "victory_conditions", "expert_mode"}
# A field of this project (docs/rules/memoir44.md §6.1), not BGA's: extra cards after a side's own turns.
_GAME_INFO_OPTIONAL |= {"extra_draws_player1", "extra_draws_player2"}
_BOARD_KEYS = {"type", "face", "hexagons"}
_BOARD_OPTIONAL = {"labels"}
_HEX_KEYS = {"row", "col"}
_HEX_OPTIONAL = {"terrain", "rect_terrain", "obstacle", "unit", "tags"}


@dataclass(frozen=True)
class Unit:
    """A unit as the scenario places it."""

    name: str  # BGA's name, "infger"
    kind: str  # "infantry", "armor" or "artillery"
    elite: bool  # special forces ("inf2") or elite armor ("tank2")
    nation: str  # "ger", "us", ...
    side: str  # AXIS or ALLIES
    figures: int  # figures it starts with


@dataclass(frozen=True)
class Piece:
    """A terrain, rect_terrain or obstacle tile: BGA's name, the base terrain it stands for, and BGA's
    orientation (1..6, the editor's convention; ``None`` when the file gives none)."""

    name: str
    kind: str
    orientation: int | None


@dataclass(frozen=True)
class HexSetup:
    """What the scenario puts on one hex. A hex the file does not name is open countryside."""

    terrain: Piece | None = None
    rect_terrain: Piece | None = None  # a tile over the terrain: the bridge over the river
    obstacle: Piece | None = None
    unit: Unit | None = None
    tags: tuple[str, ...] = ()  # "medal1": a medal that the hex's holder scores


@dataclass(frozen=True)
class Label:
    """A place name printed on the map (for display only)."""

    hex: Hex
    text: tuple[str, ...]


@dataclass(frozen=True)
class Scenario:
    """A scenario read by ``load_scenario``.

    ``top_side`` is BGA's player 1, whose edge is row 0; ``bottom_side`` is player 2 (row 8). ``hexes``
    holds, row-major, every hex the file names."""

    top_side: str
    bottom_side: str
    starting_side: str
    cards: Mapping[str, int]  # command cards in hand at the start, by side
    victory: Mapping[str, int]  # medals that win, by side
    hexes: Mapping[Hex, HexSetup]
    labels: tuple[Label, ...]
    game_info: Mapping[str, Any]  # the file's game_info, as given
    # Entry t: the cards a side draws in addition at the end of its own turn t + 1 (§6.1 of the rules).
    extra_draws: Mapping[str, tuple[int, ...]] = field(default_factory=dict)

    def setup(self, h: Hex) -> HexSetup:
        """What stands on ``h`` at the start (an empty ``HexSetup`` for open countryside)."""
        return self.hexes.get(h, HexSetup())

    def units(self, side: str) -> list[Hex]:
        """The hexes of ``side``'s units at the start, row-major."""
        return [h for h, s in self.hexes.items() if s.unit is not None and s.unit.side == side]

    def medal_hexes(self) -> list[Hex]:
        """The hexes that carry a medal tag, row-major."""
        return [h for h, s in self.hexes.items() if any(_MEDAL_TAG.fullmatch(t) for t in s.tags)]


def _refuse(message: str) -> InvalidStateError:
    return InvalidStateError(f"memoir44 scenario: {message}")


def _check_keys(obj: object, required: set[str], optional: set[str], where: str) -> dict[str, Any]:
    if not isinstance(obj, dict):
        raise _refuse(f"{where} must be an object")
    missing = required - obj.keys()
    if missing:
        raise _refuse(f"{where} lacks {sorted(missing)}")
    unknown = obj.keys() - required - optional
    if unknown:
        raise _refuse(f"{where} has unknown fields {sorted(unknown)}")
    return obj


def _int(value: object, where: str, low: int, high: int) -> int:
    # bool is an int in Python; JSON's true is not a number.
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise _refuse(f"{where} must be an integer in {low}..{high}, got {value!r}")
    return value


def _piece(obj: object, names: Mapping[str, str], where: str) -> Piece:
    fields = _check_keys(obj, {"name"}, {"orientation"}, where)
    name = fields["name"]
    if name not in names:
        raise _refuse(f"{where} name {name!r} is not one this engine knows ({sorted(names)})")
    orientation = None
    if "orientation" in fields:
        orientation = _int(fields["orientation"], f"{where}.orientation", 1, 6)
    return Piece(name=name, kind=names[name], orientation=orientation)


def parse_unit_name(name: object, where: str = "unit") -> Unit:
    """The unit a BGA unit name stands for ("infger", "tankus", "gunbrit" is refused: the nation is "gb")."""
    if not isinstance(name, str):
        raise _refuse(f"{where} name must be a string")
    for prefix, (kind, elite) in UNIT_TYPES.items():
        if name.startswith(prefix) and name[len(prefix) :] in NATION_SIDE:
            nation = name[len(prefix) :]
            return Unit(name, kind, elite, nation, NATION_SIDE[nation], FIGURES[(kind, elite)])
    raise _refuse(f"{where} name {name!r} is not a known unit (type {sorted(UNIT_TYPES)} + nation)")


def _hex_setup(obj: dict[str, Any], where: str) -> HexSetup:
    terrain = _piece(obj["terrain"], TERRAIN_NAMES, f"{where}.terrain") if "terrain" in obj else None
    rect = None
    if "rect_terrain" in obj:
        rect = _piece(obj["rect_terrain"], RECT_TERRAIN_NAMES, f"{where}.rect_terrain")
    obstacle = _piece(obj["obstacle"], OBSTACLE_NAMES, f"{where}.obstacle") if "obstacle" in obj else None
    unit = None
    if "unit" in obj:
        unit_fields = _check_keys(obj["unit"], {"name"}, set(), f"{where}.unit")
        unit = parse_unit_name(unit_fields["name"], f"{where}.unit")
    tags: list[str] = []
    if "tags" in obj:
        if not isinstance(obj["tags"], list):
            raise _refuse(f"{where}.tags must be a list")
        for i, tag in enumerate(obj["tags"]):
            tag_name = _check_keys(tag, {"name"}, set(), f"{where}.tags[{i}]")["name"]
            if not isinstance(tag_name, str) or not _MEDAL_TAG.fullmatch(tag_name):
                raise _refuse(f"{where}.tags[{i}] name {tag_name!r} is not a known tag (medal<n>)")
            tags.append(tag_name)
    if rect is not None and terrain is None:
        raise _refuse(f"{where} has a rect_terrain without a terrain under it")
    return HexSetup(terrain, rect, obstacle, unit, tuple(tags))


def load_scenario(text: str) -> Scenario:
    """Read a scenario from BGA's scenario array written as JSON (the shape of
    ``meeplex/data/memoir44_pegasus_bridge.json``), refusing with ``InvalidStateError`` any key, name or
    value it does not know, a hex off the board or named twice, and a duplicated JSON key."""
    try:
        top = json.loads(text, object_pairs_hook=no_duplicate_keys("memoir44 scenario: "))
    except json.JSONDecodeError as error:
        raise _refuse(f"not JSON ({error})") from None
    top = _check_keys(top, _TOP_KEYS, _TOP_OPTIONAL, "the file")
    if "source" in top and not isinstance(top["source"], str):
        raise _refuse("source must be a string")

    info = _check_keys(top["game_info"], _GAME_INFO_KEYS, _GAME_INFO_OPTIONAL, "game_info")
    top_side, bottom_side = info["side_player1"], info["side_player2"]
    if {top_side, bottom_side} != set(SIDES):
        raise _refuse(f"side_player1/side_player2 must be AXIS and ALLIES, got {top_side!r}, {bottom_side!r}")
    if info["starting"] not in ("PLAYER1", "PLAYER2"):
        raise _refuse(f"starting must be PLAYER1 or PLAYER2, got {info['starting']!r}")
    starting_side = top_side if info["starting"] == "PLAYER1" else bottom_side
    cards = {
        top_side: _int(info["cards_player1"], "game_info.cards_player1", 1, 60),
        bottom_side: _int(info["cards_player2"], "game_info.cards_player2", 1, 60),
    }
    victory = {
        top_side: _int(info["victory_player1"], "game_info.victory_player1", 1, 99),
        bottom_side: _int(info["victory_player2"], "game_info.victory_player2", 1, 99),
    }
    if info.get("victory_conditions", [{"standard": []}]) != [{"standard": []}]:
        raise _refuse("only the standard victory condition (medals) is known")
    if info.get("expert_mode", 0) != 0:
        raise _refuse("expert_mode is not known")
    extra_draws: dict[str, tuple[int, ...]] = {}
    for player, side in (("player1", top_side), ("player2", bottom_side)):
        key = f"extra_draws_{player}"
        items = info.get(key, [])
        if not isinstance(items, list) or len(items) > 20:
            raise _refuse(f"game_info.{key} must be a list of at most 20 ints")
        extra_draws[side] = tuple(_int(n, f"game_info.{key}[{t}]", 0, 10) for t, n in enumerate(items))

    board = _check_keys(top["board"], _BOARD_KEYS, _BOARD_OPTIONAL, "board")
    if board["type"] != "STANDARD":
        raise _refuse(f"board type {board['type']!r}: only STANDARD is known")
    # READING: the face only changes the printed background, except that BEACH and the others bring rules
    # (ocean rows, desert) this engine does not know: only the countryside face is accepted.
    if board["face"] != "COUNTRY":
        raise _refuse(f"board face {board['face']!r}: only COUNTRY is known")
    if not isinstance(board["hexagons"], list):
        raise _refuse("board.hexagons must be a list")
    hexes: dict[Hex, HexSetup] = {}
    for i, obj in enumerate(board["hexagons"]):
        where = f"hexagons[{i}]"
        fields = _check_keys(obj, _HEX_KEYS, _HEX_OPTIONAL, where)
        h = Hex(
            _int(fields["row"], f"{where}.row", 0, ROWS - 1), _int(fields["col"], f"{where}.col", 0, MAX_COL)
        )
        if not on_board(h):
            raise _refuse(f"{where} ({h.row},{h.col}) is not a hex (row + col must be even)")
        if h in hexes:
            raise _refuse(f"{where} ({h.row},{h.col}) is given twice")
        hexes[h] = _hex_setup(fields, where)

    labels: list[Label] = []
    for i, obj in enumerate(board.get("labels", [])):
        where = f"labels[{i}]"
        fields = _check_keys(obj, {"row", "col", "text"}, set(), where)
        h = Hex(
            _int(fields["row"], f"{where}.row", 0, ROWS - 1), _int(fields["col"], f"{where}.col", 0, MAX_COL)
        )
        if not on_board(h):
            raise _refuse(f"{where} ({h.row},{h.col}) is not a hex")
        text_lines = fields["text"]
        if not isinstance(text_lines, list) or not all(isinstance(line, str) for line in text_lines):
            raise _refuse(f"{where}.text must be a list of strings")
        labels.append(Label(h, tuple(text_lines)))

    return Scenario(
        top_side=top_side,
        bottom_side=bottom_side,
        starting_side=starting_side,
        cards=cards,
        victory=victory,
        hexes=dict(sorted(hexes.items())),
        labels=tuple(labels),
        game_info=info,
        extra_draws=extra_draws,
    )


def pegasus_bridge_text() -> str:
    """The text of the shipped Pegasus Bridge scenario."""
    path = importlib_resources.files("meeplex").joinpath("data/memoir44_pegasus_bridge.json")
    return path.read_text("utf-8")


def pegasus_bridge() -> Scenario:
    """Pegasus Bridge (BGA scenario 2), the scenario of issue 19."""
    return load_scenario(pegasus_bridge_text())


def blockers_from(hexes: Iterable[Hex]) -> Callable[[Hex], bool]:
    """A ``blocks`` function for ``los_clear`` from a collection of blocking hexes."""
    blocking = frozenset(hexes)
    return lambda h: h in blocking


# =========================================================================================================
# The game (docs/rules/memoir44.md §6, "the contract"; §6.n cited below)
# =========================================================================================================
#
# Plain and slow on purpose: the state is a dict of units by hex and lists of card counts; every legal action
# is found by asking each rule in turn; the flow of a turn is a handful of small functions, each saying where
# play goes next. Places where the contract had to be read one way among several are marked ``READING:``.

CHANCE = -1
TERMINAL = -4


def _load_cards() -> list[dict[str, Any]]:
    text = importlib_resources.files("meeplex").joinpath("data/memoir44_cards.json").read_text("utf-8")
    cards: list[dict[str, Any]] = json.loads(text)
    return cards


_CARDS = _load_cards()
CARD_KEYS: tuple[str, ...] = tuple(card["key"] for card in _CARDS)  # the card type index k (§6.3)
CARD_COUNTS: tuple[int, ...] = tuple(int(card["count"]) for card in _CARDS)
NUM_CARD_TYPES = len(CARD_KEYS)  # 30
DECK_SIZE = sum(CARD_COUNTS)  # 60
_K = {key: k for k, key in enumerate(CARD_KEYS)}
RECON_CARDS = frozenset(_K[f"recon_{s}"] for s in ("left", "center", "right"))
GENERAL_ADVANCE, PINCER_MOVE, RECON_IN_FORCE = _K["general_advance"], _K["pincer_move"], _K["recon_in_force"]
AIR_POWER, AMBUSH_CARD, ARMOR_ASSAULT = _K["air_power"], _K["ambush"], _K["armor_assault"]
ARTILLERY_BOMBARD, BARRAGE, BEHIND_ENEMY_LINES = (
    _K["artillery_bombard"],
    _K["barrage"],
    _K["behind_enemy_lines"],
)
CLOSE_ASSAULT, COUNTER_ATTACK, DIG_IN = _K["close_assault"], _K["counter_attack"], _K["dig_in"]
DIRECT_FROM_HQ, FIREFIGHT, INFANTRY_ASSAULT = _K["direct_from_hq"], _K["firefight"], _K["infantry_assault"]
MEDICS, MOVE_OUT, FINEST_HOUR = _K["medics_and_mechanics"], _K["move_out"], _K["their_finest_hour"]

SECTION_NAMES = ("left", "center", "right")
# The section cards recon/probe/attack/assault x left/center/right: (section, limit); None is "any number".
SECTION_CARDS: dict[int, tuple[int, int | None]] = {}
for _word_, _limit_ in (("recon", 1), ("probe", 2), ("attack", 3), ("assault", None)):
    for _s_, _name_ in enumerate(SECTION_NAMES):
        SECTION_CARDS[_K[f"{_word_}_{_name_}"]] = (_s_, _limit_)
# Per-section orders of the three multi-section cards (§6.3).
PER_SECTION: dict[int, tuple[int, int, int]] = {
    GENERAL_ADVANCE: (2, 2, 2),
    PINCER_MOVE: (2, 0, 2),
    RECON_IN_FORCE: (1, 1, 1),
}
# The cards whose "If you do not command any X units, issue an order to 1 unit of your choice" applies.
FALLBACK_TYPE: dict[int, str] = {
    MOVE_OUT: "infantry",
    ARMOR_ASSAULT: "armor",
    ARTILLERY_BOMBARD: "artillery",
    BEHIND_ENEMY_LINES: "infantry",
    DIG_IN: "infantry",
    INFANTRY_ASSAULT: "infantry",
}
ORDER_CARDS = frozenset(SECTION_CARDS) | frozenset(PER_SECTION) | {DIRECT_FROM_HQ, MOVE_OUT, ARMOR_ASSAULT}
ORDER_CARDS |= {ARTILLERY_BOMBARD, BEHIND_ENEMY_LINES, CLOSE_ASSAULT, FIREFIGHT, DIG_IN}

# Dice faces (§6.4 step 5): ids and weights of a battle die (2 infantry faces of 6).
FACES = ("infantry", "armor", "grenade", "star", "flag")
INF_FACE, ARMOR_FACE, GRENADE, STAR, FLAG = range(5)
FACE_WEIGHTS = (2, 1, 1, 1, 1)

PHASES = (
    "deal play section order move move_to battle target ambush dice ignore retreat advance overrun "
    "move_again air_target barrage_target medics_target roll draw keep over"
).split()
CHANCE_PHASES = frozenset({"deal", "dice", "roll", "draw"})
# §6.4 "General rule": in these phases a lone ``done`` is applied automatically.
AUTO_DONE_PHASES = frozenset({"order", "move", "battle", "overrun", "move_again", "air_target"})
KINDS = ("infantry", "armor", "artillery")
BATTLE_KINDS = ("attack", "ambush", "air", "barrage")

# Action ids (§6.5).
PLAY = 0
SECTION = 30
ORDER = 33
DONE = 146
UNIT = 147
TO = 260
IGNORE = 373
TAKE = 374
ADVANCE = 375
AMBUSH = 376
PASS = 377
KEEP = 378
CLEAR = 408
NUM_DISTINCT_ACTIONS = 409
SERIAL_VERSION = 1
MAX_CHANCE_OUTCOMES = 30
NUM_HEXES = len(ALL_HEXES)  # 113
HEX_INDEX: dict[Hex, int] = {h: i for i, h in enumerate(ALL_HEXES)}
OBSERVATION_SIZE = 3430

# §6.2 Dice by range.
RANGE_DICE: dict[str, tuple[int, ...]] = {
    "infantry": (3, 2, 1),
    "armor": (3, 3, 3),
    "artillery": (3, 3, 2, 2, 1, 1),
}
# §6.2 protection of a target's hex against infantry / armor / artillery.
PROTECTION: dict[str, tuple[int, int, int]] = {
    "town": (1, 2, 0),
    "forest": (1, 2, 0),
    "hedgerow": (1, 2, 0),
    "hill": (1, 1, 0),
}
SANDBAG_PROTECTION = (1, 1, 0)
STOP_TERRAIN = frozenset({"town", "forest", "hedgerow"})  # plus wire, which is dynamic
LOS_TERRAIN = frozenset({"town", "forest", "hedgerow", "hill"})

DEFAULT_PARAMS: dict[str, Any] = {"scenario": "pegasus_bridge", "turn_limit": 80}


def hex_text(h: Hex) -> str:
    return f"{h.row},{h.col}"


_HEX_TEXT = re.compile(r"(0|[1-9][0-9]*),(0|[1-9][0-9]*)")


def read_hex(text: object) -> Hex | None:
    """The hex of ``"r,c"`` (canonical digits), or None."""
    if not isinstance(text, str):
        return None
    match = _HEX_TEXT.fullmatch(text)
    if match is None:
        return None
    h = Hex(int(match.group(1)), int(match.group(2)))
    return h if on_board(h) else None


def _as_int(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


def _home_hills_text() -> str:
    path = importlib_resources.files("meeplex").joinpath("data/memoir44_home_hills.json")
    if not path.is_file():
        raise InvalidStateError(f"{GAME_NAME}: the home_hills scenario file is not shipped in this tree")
    return path.read_text("utf-8")


def scenario_text(value: str) -> str:
    """The scenario file a ``scenario`` parameter names (§6.1)."""
    if value == "pegasus_bridge":
        return pegasus_bridge_text()
    if value == "home_hills":
        return _home_hills_text()
    if value.startswith("b64_"):
        return decode_data_file(value, f"{GAME_NAME}: scenario", pegasus_bridge_text)
    raise InvalidStateError(
        f"{GAME_NAME}: scenario must be pegasus_bridge, home_hills or b64_<base64url>, got {value[:40]!r}"
    )


def normalize_params(given: Mapping[str, object]) -> dict[str, Any]:
    for key in given:
        if key not in DEFAULT_PARAMS:
            raise InvalidStateError(f"{GAME_NAME}: unknown parameter {key!r}")
    scenario = given.get("scenario", DEFAULT_PARAMS["scenario"])
    if not isinstance(scenario, str):
        raise InvalidStateError(f"{GAME_NAME}: parameter 'scenario' must be a str, got {scenario!r}")
    limit = given.get("turn_limit", DEFAULT_PARAMS["turn_limit"])
    if not is_int(limit) or not 1 <= limit <= 1000:
        raise InvalidStateError(f"{GAME_NAME}: turn_limit must be an int in 1..1000, got {limit!r}")
    return {"scenario": scenario, "turn_limit": int(limit)}


class Memoir44Game:
    """Memoir '44 on one scenario (§6.1): the fixed board (terrain, bridges, medal tags), the seats' sides,
    hands, victory medals and extra draws, and the starting position."""

    name = GAME_NAME

    def __init__(self, params: Mapping[str, object] | None = None, **keywords: object) -> None:
        if params is not None and not isinstance(params, Mapping):
            raise InvalidStateError(f"{GAME_NAME}: parameters must be a mapping, not {type(params).__name__}")
        given = dict(params or {})
        for key, value in keywords.items():
            if key in given:
                raise InvalidStateError(f"{GAME_NAME}: parameter {key!r} given twice")
            given[key] = value
        self._params = normalize_params(given)
        self.turn_limit: int = self._params["turn_limit"]
        scenario = load_scenario(scenario_text(self._params["scenario"]))
        self.scenario = scenario
        # §6.1 Seats: seat 0 is the bottom side (player 2), seat 1 the top side (player 1).
        self.sides: tuple[str, str] = (scenario.bottom_side, scenario.top_side)
        self.cards: tuple[int, int] = (scenario.cards[self.sides[0]], scenario.cards[self.sides[1]])
        self.victory: tuple[int, int] = (scenario.victory[self.sides[0]], scenario.victory[self.sides[1]])
        self.extra_draws: tuple[tuple[int, ...], tuple[int, ...]] = (
            scenario.extra_draws.get(self.sides[0], ()),
            scenario.extra_draws.get(self.sides[1], ()),
        )
        self.starting_seat: int = 0 if scenario.starting_side == self.sides[0] else 1
        # The fixed board: terrain kind per hex ("open" when none), bridges, medal tags by seat.
        self.terrain: dict[Hex, str] = {}
        self.bridge: set[Hex] = set()
        self.medal_seat: dict[Hex, list[int]] = {}
        wire: set[Hex] = set()
        sandbags: set[Hex] = set()
        self.initial_units: dict[Hex, tuple[int, str, bool, int]] = {}
        for h in ALL_HEXES:
            setup = scenario.setup(h)
            kind = setup.terrain.kind if setup.terrain is not None else "open"
            # READING: beach (and hedgehogs below) have no line in §6.2's table; rather than play them as open
            # ground, the game refuses them, as it refuses bunkers.
            if kind == "beach":
                raise InvalidStateError(f"{GAME_NAME}: scenario hex {hex_text(h)}: beach is not modelled")
            self.terrain[h] = kind
            if setup.rect_terrain is not None:
                self.bridge.add(h)
            if setup.obstacle is not None:
                if setup.obstacle.kind in ("bunker", "hedgehog"):
                    raise InvalidStateError(
                        f"{GAME_NAME}: scenario hex {hex_text(h)}: obstacle {setup.obstacle.name}"
                        " is not modelled"
                    )
                (wire if setup.obstacle.kind == "wire" else sandbags).add(h)
            for tag in setup.tags:
                if tag not in ("medal1", "medal2"):
                    raise InvalidStateError(
                        f"{GAME_NAME}: scenario hex {hex_text(h)}: tag {tag} is not known"
                    )
                # medal1: the Allies' temporary medal, medal2: the Axis' (§6.1).
                side = ALLIES if tag == "medal1" else AXIS
                self.medal_seat.setdefault(h, []).append(self.sides.index(side))
            if setup.unit is not None:
                u = setup.unit
                self.initial_units[h] = (self.sides.index(u.side), u.kind, u.elite, u.figures)
        for seat in (0, 1):
            if not any(v[0] == seat for v in self.initial_units.values()):
                raise InvalidStateError(f"{GAME_NAME}: scenario has no unit of {self.sides[seat]}")
        self.initial_wire = frozenset(wire)
        self.initial_sandbags = frozenset(sandbags)
        # §6.2 Plateau: the connected groups of hill hexes.
        self.hill_group: dict[Hex, int] = {}
        for h in ALL_HEXES:
            if self.terrain[h] == "hill" and h not in self.hill_group:
                group = len(set(self.hill_group.values()))
                stack = [h]
                self.hill_group[h] = group
                while stack:
                    x = stack.pop()
                    for n in _neighbours(x):
                        if self.terrain[n] == "hill" and n not in self.hill_group:
                            self.hill_group[n] = group
                            stack.append(n)
        self.num_units = len(self.initial_units)

    def impassable(self, h: Hex) -> bool:
        """§6.2: a river hex without a bridge."""
        return self.terrain[h] == "river" and h not in self.bridge

    @property
    def params(self) -> dict[str, Any]:
        return dict(self._params)

    def num_players(self) -> int:
        return 2

    def num_distinct_actions(self) -> int:
        return NUM_DISTINCT_ACTIONS

    def max_chance_outcomes(self) -> int:
        return MAX_CHANCE_OUTCOMES

    def max_game_length(self) -> int:
        """§6.5: ``cards_player1 + cards_player2 + turn_limit x (40 + 80 U)``."""
        return self.cards[0] + self.cards[1] + self.turn_limit * (40 + 80 * self.num_units)

    def observation_shape(self) -> tuple[int, ...]:
        return (OBSERVATION_SIZE,)

    def new_initial_state(self) -> Memoir44State:
        """§6.1 Setup: the whole deck in the draw pile, phase ``deal``."""
        units = {
            h: UnitState(seat, kind, special, figures, figures)
            for h, (seat, kind, special, figures) in self.initial_units.items()
        }
        # READING: during the deal, ``active`` is the starting seat (the contract's example shows only play).
        return Memoir44State(
            game=self,
            phase="deal",
            active=self.starting_seat,
            units=units,
            wire=set(self.initial_wire),
            sandbags=set(self.initial_sandbags),
            deck=list(CARD_COUNTS),
        )

    def deserialize_state(self, text: object) -> Memoir44State:
        return _deserialize(self, text)

    def __str__(self) -> str:
        return game_string(GAME_NAME, self._params)

    def __repr__(self) -> str:
        return f"Memoir44Game({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Memoir44Game) and other._params == self._params

    def __hash__(self) -> int:
        return hash(str(self))


@dataclass
class UnitState:
    """A unit on the board (§6.6 ``units``)."""

    seat: int
    kind: str  # infantry / armor / artillery
    special: bool  # special forces (inf2) or elite armor (tank2)
    figures: int
    start: int
    ordered: bool = False
    moved: int = 0
    battles: int = 0
    no_battle: bool = False
    overrun: bool = False

    def copy(self) -> UnitState:
        return UnitState(**self.__dict__)


@dataclass
class Battle:
    """A battle being resolved (§6.6 ``battle``). ``origin`` is the target's hex when the battle was
    declared, the hex taken by ``advance``."""

    kind: str
    attacker: Hex | None
    target: Hex
    dice: int
    rolled: list[int]
    flags: int = 0
    retreated: int = 0
    close: bool = False
    overrun: bool = False
    pending: Battle | None = None
    origin: Hex | None = None  # set at every declaration; None only while a Battle is being built

    def copy(self) -> Battle:
        return Battle(
            self.kind,
            self.attacker,
            self.target,
            self.dice,
            list(self.rolled),
            self.flags,
            self.retreated,
            self.close,
            self.overrun,
            self.pending.copy() if self.pending is not None else None,
            self.origin,
        )


def _zeros() -> list[int]:
    return [0] * NUM_CARD_TYPES


@dataclass(eq=False)
class Memoir44State:
    """A position of Memoir '44 (§6.6, field for field)."""

    game: Memoir44Game
    phase: str
    active: int
    units: dict[Hex, UnitState]
    wire: set[Hex]
    sandbags: set[Hex]
    deck: list[int]
    turns: list[int] = field(default_factory=lambda: [0, 0])
    hands: list[list[int]] = field(default_factory=lambda: [_zeros(), _zeros()])
    discard: list[int] = field(default_factory=_zeros)
    played: int | None = None
    card: int | None = None
    section: int | None = None
    fallback: bool = False
    roll: tuple[int, list[int]] | None = None  # (dice still to roll, faces so far)
    last: list[tuple[int, int | None] | None] = field(default_factory=lambda: [None, None])
    medals: list[int] = field(default_factory=lambda: [0, 0])
    ambush: int | None = None
    unit: Hex | None = None
    battle: Battle | None = None
    targets: list[Hex] = field(default_factory=list)
    recon: list[int] = field(default_factory=list)
    recon_draws: int = 0
    draws: int = 0
    drawer: int | None = None
    winner: int | None = None
    # The actions since the initial state, each with the seat that alone saw it (None: public); not
    # serialized.
    actions: list[tuple[int, int | None]] = field(default_factory=list)

    # ----- who acts -----

    def _actor(self) -> int:
        if self.phase == "ambush":
            assert self.battle is not None
            return self.units[self.battle.target].seat
        if self.phase in ("ignore", "retreat"):
            assert self.battle is not None
            return self.units[self.battle.target].seat
        return self.active

    def current_player(self) -> int:
        if self.phase == "over":
            return TERMINAL
        if self.phase in CHANCE_PHASES:
            return CHANCE
        return self._actor()

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def is_chance_node(self) -> bool:
        return self.phase in CHANCE_PHASES

    # ----- the board -----

    def _terrain(self, h: Hex) -> str:
        return self.game.terrain[h]

    def _own_sections(self, seat: int, h: Hex) -> tuple[bool, bool, bool]:
        """§6.3: sections in the acting seat's own view; seat 1 sees col ``24 - col``."""
        return sections(h) if seat == 0 else sections(Hex(h.row, MAX_COL - h.col))

    def _enemies(self, seat: int) -> list[Hex]:
        return [h for h in sorted(self.units) if self.units[h].seat != seat]

    def _adjacent_enemy(self, h: Hex, seat: int) -> bool:
        return any(n in self.units and self.units[n].seat != seat for n in _neighbours(h))

    def score(self, seat: int) -> int:
        """§6.1, §6.4 step 7: elimination medals plus the temporary medals held (a unit of the seat on a hex
        tagged with the seat's side's medal)."""
        held = sum(
            1
            for h, seats in self.game.medal_seat.items()
            for s in seats
            if s == seat and h in self.units and self.units[h].seat == seat
        )
        return self.medals[seat] + held

    def _check_win(self) -> bool:
        """The game ends at once when a seat has its victory medals (§6.4 step 7). Only ``phase`` and
        ``winner`` change (§6.6).

        READING: should both seats reach their medals at once (only a hand-built state can), the active seat
        wins."""
        for seat in (self.active, 1 - self.active):
            if self.score(seat) >= self.game.victory[seat]:
                self.winner = seat
                self.phase = "over"
                return True
        return False

    # ----- the card in play -----

    def _effective(self, card: int) -> bool:
        """The effect of ``card`` applies (it is the card in play and not a fallback)."""
        return self.card == card and not self.fallback

    def _card_unit_type_absent(self, card: int) -> bool:
        kind = FALLBACK_TYPE[card]
        return not any(u.seat == self.active and u.kind == kind for u in self.units.values())

    def _set_ok(self, hexes: list[Hex]) -> bool:
        """§6.3 Order limits: ``hexes`` (own units) may be ordered together under the card in play."""
        card = self.card
        assert card is not None
        seat = self.active
        units = [self.units[h] for h in hexes]
        if self.fallback:
            if len(hexes) > 1:
                return False
            if card == INFANTRY_ASSAULT:
                return all(self._own_sections(seat, h)[self.section or 0] for h in hexes)
            return True
        if card in SECTION_CARDS:
            s, limit = SECTION_CARDS[card]
            if not all(self._own_sections(seat, h)[s] for h in hexes):
                return False
            return limit is None or len(hexes) <= limit
        if card in PER_SECTION:
            caps = PER_SECTION[card]
            # A straddling unit uses an order of one of its sections: legal when an assignment exists.
            options = [[s for s in range(3) if self._own_sections(seat, h)[s]] for h in hexes]
            return any(
                all(choice.count(s) <= caps[s] for s in range(3)) for choice in itertools.product(*options)
            )
        if card == DIRECT_FROM_HQ:
            return len(hexes) <= 4
        if card in (MOVE_OUT, DIG_IN):
            return len(hexes) <= 4 and all(u.kind == "infantry" for u in units)
        if card == ARMOR_ASSAULT:
            return len(hexes) <= 4 and all(u.kind == "armor" for u in units)
        if card == BEHIND_ENEMY_LINES:
            return len(hexes) <= 1 and all(u.kind == "infantry" for u in units)
        if card == ARTILLERY_BOMBARD:
            return all(u.kind == "artillery" for u in units)
        if card == INFANTRY_ASSAULT:
            s = self.section if self.section is not None else 0
            return all(
                u.kind == "infantry" and self._own_sections(seat, h)[s]
                for h, u in zip(hexes, units, strict=True)
            )
        if card == CLOSE_ASSAULT:
            return all(
                u.kind in ("infantry", "armor") and self._adjacent_enemy(h, seat)
                for h, u in zip(hexes, units, strict=True)
            )
        if card == FIREFIGHT:
            return len(hexes) <= 4 and not any(self._adjacent_enemy(h, seat) for h in hexes)
        if card == FINEST_HOUR:
            assert self.roll is not None
            rolled = self.roll[1]
            i = sum(1 for u in units if u.kind == "infantry")
            a = sum(1 for u in units if u.kind == "armor")
            g = sum(1 for u in units if u.kind == "artillery")
            return max(0, i - rolled[INF_FACE]) + max(0, a - rolled[ARMOR_FACE]) + g <= rolled[STAR]
        return False

    # ----- movement (§6.4 step 4) -----

    def _ignores_terrain(self, u: UnitState) -> bool:
        return self._effective(BEHIND_ENEMY_LINES) and u.kind == "infantry" and u.ordered

    def _max_move(self, u: UnitState) -> int:
        if u.kind == "infantry":
            if self._ignores_terrain(u):
                return 3
            return 3 if self._effective(INFANTRY_ASSAULT) else 2
        if u.kind == "armor":
            return 3
        return 3 if self._effective(ARTILLERY_BOMBARD) else 1

    def _is_stop(self, h: Hex) -> bool:
        return self._terrain(h) in STOP_TERRAIN or h in self.wire

    def _reach(self, start: Hex, steps: int | None = None) -> dict[Hex, int]:
        """The hexes the unit on ``start`` may move to, with the search's distance (the shortest legal path):
        at most M steps; a step enters a board hex with no unit that is not impassable; a hedgerow only as
        the first step; a stop hex (village, forest, hedgerow, wire) is not left again; from a hedgerow only
        the first step. Behind Enemy Lines ignores the stop, hedgerow entry and hedgerow exit rules."""
        u = self.units[start]
        limit = self._max_move(u) if steps is None else steps
        free = self._ignores_terrain(u)
        on_hedgerow = self._terrain(start) == "hedgerow" and not free
        dist = {start: 0}
        queue = deque([start])
        while queue:
            x = queue.popleft()
            d = dist[x]
            if d >= limit:
                continue
            if x != start and not free and self._is_stop(x):
                continue  # "stop on entering"
            if on_hedgerow and d >= 1:
                continue  # "a unit that starts on it moves at most 1 hex"
            for n in _neighbours(x):
                if n in dist or n in self.units or self.game.impassable(n):
                    continue
                if not free and self._terrain(n) == "hedgerow" and d != 0:
                    continue  # "enter only as the first hex of a move"
                dist[n] = d + 1
                queue.append(n)
        del dist[start]
        return dist

    def _arrive(self, old: Hex, new: Hex) -> bool:
        """A unit moves from ``old`` to ``new`` by a move, a take ground or a second move (§6.4 step 4 "On
        arriving"); returns True if the game ended."""
        u = self.units.pop(old)
        self.units[new] = u
        self.sandbags.discard(old)  # "removed when its unit leaves the hex"
        if u.kind == "armor":
            self.wire.discard(new)  # "armor entering removes it"
        if self._terrain(new) in STOP_TERRAIN:
            u.no_battle = True  # "no battle this turn after entering"
        return self._check_win()

    # ----- battle (§6.2, §6.4 step 5) -----

    def _protection(self, target: Hex, attacker_kind: str, attacker_hex: Hex) -> int:
        """§6.2: the best of the target hex's terrain and obstacle protection against the attacker's type;
        a hill protects only when the attacker's own hex is not a hill."""
        column = KINDS.index(attacker_kind)
        terrain = self._terrain(target)
        value = 0
        if terrain in PROTECTION and not (terrain == "hill" and self._terrain(attacker_hex) == "hill"):
            value = PROTECTION[terrain][column]
        if target in self.sandbags:
            value = max(value, SANDBAG_PROTECTION[column])
        return value

    def _own_hex_penalty(self, h: Hex, kind: str) -> int:
        """§6.2: infantry on wire rolls 1 less; armor in a village 2 less."""
        if kind == "infantry" and h in self.wire:
            return 1
        if kind == "armor" and self._terrain(h) == "town":
            return 2
        return 0

    def _bonus(self, u: UnitState, d: int, overrun: bool) -> int:
        """§6.3 Effects: the card's extra dice for an ordered, non-fallback unit."""
        if not u.ordered or self.fallback:
            return 0
        card = self.card
        if card == ARMOR_ASSAULT and u.kind == "armor" and d == 1:
            return 1
        if card == BEHIND_ENEMY_LINES and u.kind == "infantry":
            return 1
        if card == CLOSE_ASSAULT and not overrun and u.battles == 0:
            return 1
        if card in (FIREFIGHT, FINEST_HOUR):
            return 1
        return 0

    def _blocks(self, a: Hex, b: Hex, h: Hex) -> bool:
        """§6.2 Line of sight: units, villages, forests, hedgerows and hills block; a hill does not when the
        shooter, the target and it are hills of one connected group (the plateau)."""
        if h in self.units:
            return True
        terrain = self._terrain(h)
        if terrain == "hill":
            groups = self.game.hill_group
            return not (a in groups and b in groups and groups[a] == groups[h] == groups[b])
        return terrain in LOS_TERRAIN

    def _dice(self, a: Hex, t: Hex, overrun: bool) -> int:
        """The dice the unit on ``a`` rolls against ``t``: by range, plus the card's bonus, less the target's
        protection and the attacker's own-hex penalty; 0 when out of range."""
        u = self.units[a]
        d = distance(a, t)
        table = RANGE_DICE[u.kind]
        if not 1 <= d <= len(table):
            return 0
        n = table[d - 1] + self._bonus(u, d, overrun)
        return max(0, n - self._protection(t, u.kind, a) - self._own_hex_penalty(a, u.kind))

    def _targets(self, a: Hex, overrun: bool = False) -> list[Hex]:
        """§6.4 step 5 Targets of the unit on ``a``.

        READING: "If any enemy unit is adjacent, only adjacent enemy units (with >= 1 die) are targets" is
        taken literally: with an adjacent enemy that it cannot roll a die against, a unit has no target
        beyond it."""
        u = self.units[a]
        enemies = self._enemies(u.seat)
        found = []
        for t in enemies:
            if self._dice(a, t, overrun) < 1:
                continue
            if u.kind != "artillery" and not los_clear(a, t, functools.partial(self._blocks, a, t)):
                continue
            found.append(t)
        if any(distance(a, t) == 1 for t in enemies):
            found = [t for t in found if distance(a, t) == 1]
        if self._effective(CLOSE_ASSAULT):
            found = [t for t in found if distance(a, t) == 1]
        if self._effective(FIREFIGHT):
            found = [t for t in found if distance(a, t) >= 2]
        return found

    def _may_battle(self, h: Hex) -> bool:
        u = self.units[h]
        most = 2 if u.kind == "artillery" and self._effective(ARTILLERY_BOMBARD) else 1
        if u.battles >= most or u.no_battle or self._effective(DIG_IN):
            return False
        if u.kind == "infantry":
            if self._ignores_terrain(u):
                return True
            limit = 1
            if u.special or self._effective(INFANTRY_ASSAULT):
                limit = 2
            # READING: §6.3's table gives special forces under Infantry Assault "3 and battles", which the
            # "May battle" list (<= 2) does not; the card's own line is taken.
            if u.special and self._effective(INFANTRY_ASSAULT):
                limit = 3
            return u.moved <= limit
        if u.kind == "armor":
            return True
        return u.moved == 0

    def _can_clear(self, h: Hex) -> bool:
        return self.units[h].kind == "infantry" and h in self.wire

    def _battle_ready(self, h: Hex) -> bool:
        return self._may_battle(h) and (bool(self._targets(h)) or self._can_clear(h))

    def _ambush_back(self, attacker: Hex, target: Hex) -> int:
        """The dice the target could roll back at the attacker: 3 less the attacker's hex protection against
        the target's type and the target's own-hex penalty."""
        t = self.units[target]
        return max(0, 3 - self._protection(attacker, t.kind, target) - self._own_hex_penalty(target, t.kind))

    def _retreat_hexes(self, h: Hex) -> list[Hex]:
        """One row toward the unit's own edge, col +- 1, on the board, empty and passable."""
        u = self.units[h]
        row = h.row + (1 if u.seat == 0 else -1)
        found = [Hex(row, h.col - 1), Hex(row, h.col + 1)]
        return [x for x in found if on_board(x) and x not in self.units and not self.game.impassable(x)]

    # ----- legal actions -----

    def legal_actions(self) -> list[int]:
        if self.phase == "over":
            return []
        if self.is_chance_node():
            return [action for action, _ in self.chance_weights()]
        return sorted(self._decisions())

    def _decisions(self) -> list[int]:
        phase = self.phase
        seat = self.active
        if phase == "play":
            hand = self.hands[seat]
            held = [k for k in range(NUM_CARD_TYPES) if hand[k] > 0]
            # Ambush is never played on one's own turn, except when it is the only card held.
            playable = [k for k in held if k != AMBUSH_CARD] or held
            return [PLAY + k for k in playable]
        if phase == "section":
            return [SECTION + s for s in self._sections_offered()]
        if phase == "order":
            ordered = [h for h in sorted(self.units) if self.units[h].ordered]
            found = [
                ORDER + HEX_INDEX[h]
                for h in sorted(self.units)
                if self.units[h].seat == seat and not self.units[h].ordered and self._set_ok(ordered + [h])
            ]
            return found + [DONE]
        if phase == "medics_target":
            return [
                ORDER + HEX_INDEX[h]
                for h in sorted(self.units)
                if self.units[h].seat == seat and self.units[h].figures < self.units[h].start
            ]
        if phase == "move":
            found = [
                UNIT + HEX_INDEX[h]
                for h in sorted(self.units)
                if self.units[h].seat == seat
                and self.units[h].ordered
                and self.units[h].moved == 0
                and self._reach(h)
            ]
            return found + [DONE]
        if phase in ("move_to", "move_again"):
            assert self.unit is not None
            reach = self._reach(self.unit, 3 if phase == "move_again" else None)
            extra = [DONE] if phase == "move_again" else []
            return [TO + HEX_INDEX[x] for x in sorted(reach)] + extra
        if phase == "battle":
            found = [
                UNIT + HEX_INDEX[h]
                for h in sorted(self.units)
                if self.units[h].seat == seat and self.units[h].ordered and self._battle_ready(h)
            ]
            return found + [DONE]
        if phase == "target":
            assert self.unit is not None
            found = [TO + HEX_INDEX[t] for t in self._targets(self.unit)]
            return found + ([CLEAR] if self._can_clear(self.unit) else [])
        if phase == "ambush":
            assert self.battle is not None
            defender = self.units[self.battle.target].seat
            return ([AMBUSH] if self.hands[defender][AMBUSH_CARD] > 0 else []) + [PASS]
        if phase == "ignore":
            return [IGNORE, TAKE]
        if phase == "retreat":
            assert self.battle is not None
            return [TO + HEX_INDEX[x] for x in self._retreat_hexes(self.battle.target)]
        if phase == "advance":
            return [ADVANCE, DONE]
        if phase == "overrun":
            assert self.unit is not None
            return [TO + HEX_INDEX[t] for t in self._targets(self.unit, overrun=True)] + [DONE]
        if phase == "air_target":
            return [TO + HEX_INDEX[h] for h in self._air_picks()] + ([DONE] if self.targets else [])
        if phase == "barrage_target":
            return [TO + HEX_INDEX[h] for h in self._enemies(seat)]
        if phase == "keep":
            return [KEEP + k for k in sorted(set(self.recon))]
        return []

    def _sections_offered(self) -> list[int]:
        """§6.4 step 1, infantry_assault: the sections holding an infantry unit of the seat; with no infantry,
        those holding a unit of the seat; with no unit at all, all three."""
        own = [(h, u) for h, u in self.units.items() if u.seat == self.active]
        infantry = [(h, u) for h, u in own if u.kind == "infantry"]
        pool = infantry or own
        if not pool:
            return [0, 1, 2]
        return [s for s in range(3) if any(self._own_sections(self.active, h)[s] for h, _ in pool)]

    def _air_picks(self) -> list[Hex]:
        if len(self.targets) >= 4:
            return []
        enemies = self._enemies(self.active)
        if not self.targets:
            return enemies
        return [
            h for h in enemies if h not in self.targets and any(distance(h, p) == 1 for p in self.targets)
        ]

    def legal_actions_mask(self) -> npt.NDArray[np.int8]:
        size = MAX_CHANCE_OUTCOMES if self.is_chance_node() else NUM_DISTINCT_ACTIONS
        mask = np.zeros(size, dtype=np.int8)
        for action in self.legal_actions():
            mask[action] = 1
        return mask

    # ----- chance -----

    def chance_weights(self) -> list[tuple[int, int]]:
        if self.phase in ("deal", "draw"):
            return [(k, self.deck[k]) for k in range(NUM_CARD_TYPES) if self.deck[k] > 0]
        if self.phase in ("dice", "roll"):
            return list(enumerate(FACE_WEIGHTS))
        return []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        weights = self.chance_weights()
        total = sum(w for _, w in weights)
        return [(a, w / total) for a, w in weights]

    def random_step(self, rng: RngLike) -> int:
        return random_step(self, rng)

    # ----- applying -----

    def apply_action(self, action: object) -> None:
        """Apply a legal action or chance outcome; anything else raises IllegalActionError, changing
        nothing."""
        value = _as_int(action)
        if value is None or value not in self.legal_actions():
            raise IllegalActionError(
                f"{GAME_NAME}: action {action!r} is not legal for seat {self.current_player()} in this state"
            )
        self.actions.append((value, self._private_to(value)))
        handler = getattr(self, "_on_" + self.phase)
        handler(value)
        self._auto_done()

    def _private_to(self, value: int) -> int | None:
        """The seat that alone sees this action (a card drawn into a hand or a Recon pair, a card kept)."""
        if self.phase == "deal":
            return self._deal_seat()
        if self.phase == "draw" or self.phase == "keep":
            return self.drawer
        return None

    def _auto_done(self) -> None:
        """§6.4 General rule: a lone ``done`` is applied automatically."""
        while self.phase in AUTO_DONE_PHASES and self._decisions() == [DONE]:
            getattr(self, "_on_" + self.phase)(DONE)

    # deal (§6.1)

    def _deal_seat(self) -> int:
        return 0 if sum(self.hands[0]) < self.game.cards[0] else 1

    def _on_deal(self, k: int) -> None:
        seat = self._deal_seat()
        self.deck[k] -= 1
        self.hands[seat][k] += 1
        if sum(self.hands[1]) == self.game.cards[1]:
            self.active = self.game.starting_seat
            self.turns[self.active] = 1
            self.phase = "play"

    # play (§6.4 step 1)

    def _on_play(self, value: int) -> None:
        k = value - PLAY
        self.hands[self.active][k] -= 1
        self.played = k
        self.card = k
        if k == COUNTER_ATTACK:
            copied = self.last[1 - self.active]
            if copied is None:
                self.card = None  # nothing to copy: the turn goes to its end
                self._end_turn()
                return
            self.card, self.section = _mirror(copied)
        self._begin_card()

    def _begin_card(self) -> None:
        card = self.card
        assert card is not None
        if card in FALLBACK_TYPE:
            # "If you do not command any X units, issue an order to 1 unit of your choice."
            self.fallback = self._card_unit_type_absent(card)
        if card == INFANTRY_ASSAULT:
            # A copied Infantry Assault arrives with its mirrored section and goes straight to the orders.
            self.phase = "order" if self.section is not None else "section"
        elif card in ORDER_CARDS:
            self.phase = "order"
        elif card == AIR_POWER:
            if not self._enemies(self.active):
                self._end_turn()
                return
            self.phase = "air_target"
        elif card == BARRAGE:
            # READING: with no enemy unit Barrage has no target; the turn goes to its end (as Air Power).
            if not self._enemies(self.active):
                self._end_turn()
                return
            self.phase = "barrage_target"
        elif card == MEDICS:
            if not any(u.seat == self.active and u.figures < u.start for u in self.units.values()):
                self._end_turn()
                return
            self.phase = "medics_target"
        elif card == FINEST_HOUR:
            self.roll = (sum(self.hands[self.active]) + 1, [0] * 5)
            self.phase = "roll"
        else:  # ambush (played as the only card), counter_attack copying nothing
            self._end_turn()

    # section, order (§6.4 steps 2, 3)

    def _on_section(self, value: int) -> None:
        self.section = value - SECTION
        self.phase = "order"

    def _on_order(self, value: int) -> None:
        if value != DONE:
            self.units[ALL_HEXES[value - ORDER]].ordered = True
            return
        if self._effective(DIG_IN):
            # "a sandbag is placed on each ordered infantry unit's hex that has none"
            for h, u in self.units.items():
                if u.ordered and u.seat == self.active and u.kind == "infantry":
                    self.sandbags.add(h)
            self._end_turn()
        elif self.card in (CLOSE_ASSAULT, FIREFIGHT):
            self.phase = "battle"
        else:
            self.phase = "move"

    def _on_medics_target(self, value: int) -> None:
        self.unit = ALL_HEXES[value - ORDER]
        self.roll = (sum(self.hands[self.active]) + 1, [0] * 5)
        self.phase = "roll"

    def _on_roll(self, face: int) -> None:
        assert self.roll is not None
        dice, rolled = self.roll
        rolled[face] += 1
        self.roll = (dice - 1, rolled)
        if dice - 1 > 0:
            return
        if self.card == FINEST_HOUR:
            self.phase = "order"
            return
        assert self.unit is not None
        u = self.units[self.unit]
        matching = (
            rolled[INF_FACE] if u.kind == "infantry" else rolled[ARMOR_FACE] if u.kind == "armor" else 0
        )
        gained = min(matching + rolled[STAR], u.start - u.figures)
        if gained < 1:
            self._end_turn()  # `unit` stays until §6.9 step 5 clears it
            return
        self.unit = None
        u.figures += gained
        u.ordered = True
        self.phase = "move"

    # move (§6.4 step 4)

    def _on_move(self, value: int) -> None:
        if value == DONE:
            self.phase = "battle"
            return
        self.unit = ALL_HEXES[value - UNIT]
        self.phase = "move_to"

    def _on_move_to(self, value: int) -> None:
        assert self.unit is not None
        new = ALL_HEXES[value - TO]
        distance_moved = self._reach(self.unit)[new]
        self.units[self.unit].moved = distance_moved
        old, self.unit = self.unit, None
        self.phase = "move"
        self._arrive(old, new)

    def _on_move_again(self, value: int) -> None:
        assert self.unit is not None
        if value == DONE:
            self._end_turn()
            return
        new = ALL_HEXES[value - TO]
        self.units[self.unit].moved += self._reach(self.unit, 3)[new]
        old = self.unit
        self.unit = new
        if not self._arrive(old, new):
            self._end_turn()

    # battle (§6.4 step 5)

    def _on_battle(self, value: int) -> None:
        if value != DONE:
            self.unit = ALL_HEXES[value - UNIT]
            self.phase = "target"
            return
        if self._effective(BEHIND_ENEMY_LINES):
            for h in sorted(self.units):
                u = self.units[h]
                if u.ordered and u.seat == self.active and self._reach(h, 3):
                    self.unit = h
                    self.phase = "move_again"
                    return
        self._end_turn()

    def _on_target(self, value: int) -> None:
        assert self.unit is not None
        a = self.unit
        u = self.units[a]
        if value == CLEAR:
            # "an infantry unit on wire: the wire is removed, and that is its battle"
            self.wire.discard(a)
            u.battles += 1
            self._back_to_battle()
            return
        t = ALL_HEXES[value - TO]
        dice = self._dice(a, t, overrun=False)
        u.battles += 1
        self._declare(a, t, dice, overrun=False)

    def _declare(self, a: Hex, t: Hex, dice: int, overrun: bool) -> None:
        close = distance(a, t) == 1
        self.battle = Battle("attack", a, t, dice, [0] * 5, close=close, overrun=overrun, origin=t)
        ambush_out = self.discard[AMBUSH_CARD] > 0 or self.ambush is not None
        if close and not ambush_out and self._ambush_back(a, t) >= 1:
            self.phase = "ambush"  # the window depends on public facts only (interpretation 8)
        else:
            self.phase = "dice"

    def _on_ambush(self, value: int) -> None:
        attack = self.battle
        assert attack is not None and attack.attacker is not None
        if value == PASS:
            self.phase = "dice"
            return
        defender = self.units[attack.target].seat
        self.hands[defender][AMBUSH_CARD] -= 1
        self.ambush = defender
        dice = self._ambush_back(attack.attacker, attack.target)
        self.battle = Battle(
            "ambush",
            attack.target,
            attack.attacker,
            dice,
            [0] * 5,
            close=True,
            pending=attack,
            origin=attack.attacker,
        )
        self.phase = "dice"

    def _on_dice(self, face: int) -> None:
        b = self.battle
        assert b is not None
        b.rolled[face] += 1
        b.dice -= 1
        if b.dice > 0:
            return
        target = self.units[b.target]
        hits = b.rolled[GRENADE]
        if target.kind == "infantry":
            hits += b.rolled[INF_FACE]
        elif target.kind == "armor":
            hits += b.rolled[ARMOR_FACE]
        if b.kind == "air":
            hits += b.rolled[STAR]
        target.figures -= hits
        if target.figures <= 0:
            if self._eliminate(b.target):
                return
            self._battle_over()
            return
        b.flags = b.rolled[FLAG]
        if b.flags >= 1 and b.target in self.sandbags and b.kind in ("attack", "ambush"):
            self.phase = "ignore"
            return
        self._next_flag()

    def _eliminate(self, h: Hex) -> bool:
        """The unit on ``h`` leaves the board with its sandbags; the attacking side gets a medal. True if the
        game ended."""
        owner = self.units.pop(h).seat
        self.sandbags.discard(h)
        self.medals[1 - owner] += 1
        return self._check_win()

    def _on_ignore(self, value: int) -> None:
        assert self.battle is not None
        if value == IGNORE:
            self.battle.flags -= 1
        self._next_flag()

    def _next_flag(self) -> None:
        """One retreat per flag; with no hex to retreat to, a figure is lost instead."""
        b = self.battle
        assert b is not None
        while b.flags > 0:
            if self._retreat_hexes(b.target):
                self.phase = "retreat"
                return
            b.flags -= 1
            u = self.units[b.target]
            u.figures -= 1
            if u.figures <= 0:
                if self._eliminate(b.target):
                    return
                break
        self._battle_over()

    def _on_retreat(self, value: int) -> None:
        b = self.battle
        assert b is not None
        new = ALL_HEXES[value - TO]
        old = b.target
        self.units[new] = self.units.pop(old)
        self.sandbags.discard(old)
        b.target = new
        b.retreated += 1
        b.flags -= 1
        if b.kind == "air" and self.targets:
            self.targets[0] = new
        if self.unit == old:
            self.unit = new  # the attacker retreating from an ambush
        if self._check_win():
            return
        self._next_flag()

    def _battle_over(self) -> None:
        b = self.battle
        assert b is not None
        if b.kind == "ambush":
            assert b.pending is not None
            if b.target not in self.units or b.retreated >= 1:
                self._back_to_battle()  # the attack is void; its battle is spent
            else:
                self.battle = b.pending
                self.phase = "dice"
            return
        if b.kind == "attack":
            assert b.attacker is not None and b.origin is not None
            attacker = self.units.get(b.attacker)
            if (
                attacker is not None
                and b.close
                and attacker.kind in ("infantry", "armor")
                and b.origin not in self.units
            ):
                self.phase = "advance"
                return
            self._back_to_battle()
            return
        if b.kind == "air":
            self.targets.pop(0)
            self.targets = [h for h in self.targets if h in self.units]
            if self.targets:
                self._air_battle()
                return
        self._end_turn()

    def _back_to_battle(self) -> None:
        self.battle = None
        self.unit = None
        self.phase = "battle"

    def _on_advance(self, value: int) -> None:
        b = self.battle
        assert b is not None and b.attacker is not None and b.origin is not None
        if value == DONE:
            self._back_to_battle()
            return
        # Take ground: as arriving (sandbags, wire, no_battle, medals); ``moved`` does not change.
        new = b.origin
        self.battle = None  # the attack is over before its unit arrives (a win on arrival keeps no battle)
        if self._arrive(b.attacker, new):
            return
        u = self.units[new]
        self.battle = None
        if u.kind == "armor" and not u.overrun and not u.no_battle:
            self.unit = new
            self.phase = "overrun"
            return
        self._back_to_battle()

    def _on_overrun(self, value: int) -> None:
        assert self.unit is not None
        if value == DONE:
            self._back_to_battle()
            return
        a = self.unit
        t = ALL_HEXES[value - TO]
        # READING: the overrun battle is an extra battle: it does not count in ``battles``.
        self.units[a].overrun = True
        self._declare(a, t, self._dice(a, t, overrun=True), overrun=True)

    # air power, barrage (§6.4 step 1)

    def _on_air_target(self, value: int) -> None:
        if value != DONE:
            self.targets.append(ALL_HEXES[value - TO])
            if self._air_picks():
                return
        self._air_battle()

    def _air_battle(self) -> None:
        # "2 dice for the Allies, 1 for the Axis, no modifier"
        dice = 2 if self.game.sides[self.active] == ALLIES else 1
        self.battle = Battle("air", None, self.targets[0], dice, [0] * 5, origin=self.targets[0])
        self.phase = "dice"

    def _on_barrage_target(self, value: int) -> None:
        t = ALL_HEXES[value - TO]
        self.battle = Battle("barrage", None, t, 4, [0] * 5, origin=t)
        self.phase = "dice"

    # the end of the turn (§6.4 step 6, §6.9)

    def _end_turn(self) -> None:
        if self.ambush is not None:
            self.discard[AMBUSH_CARD] += 1
            self.drawer = self.ambush
            self.draws = 1
            self.ambush = None
            self._next_draw()
            return
        self._end_step2()

    def _end_step2(self) -> None:
        assert self.played is not None
        self.discard[self.played] += 1
        if self.played == FINEST_HOUR:
            for k in range(NUM_CARD_TYPES):
                self.deck[k] += self.discard[k]
            self.discard = _zeros()
        self.played = None
        self.drawer = self.active
        self.recon_draws = 2 if self.card in RECON_CARDS else 0
        extra_table = self.game.extra_draws[self.active]
        t = self.turns[self.active] - 1
        extra = extra_table[t] if 0 <= t < len(extra_table) else 0
        self.draws = (1 if self.recon_draws == 0 else 0) + extra
        self._next_draw()

    def _next_draw(self) -> None:
        """§6.9 step 4.

        READING: the step's sentences are read as a chain in the order written: a draw still due (Recon's or
        a plain one, extras included) comes before the ``keep``; ``keep`` is asked when ``recon`` holds cards
        (two, or one if the piles ran out) and nothing is left to draw."""
        if self.recon_draws > 0 or self.draws > 0:
            if sum(self.deck) == 0:
                self.deck = self.discard
                self.discard = _zeros()
            if sum(self.deck) > 0:
                self.phase = "draw"
                return
            self.recon_draws = self.draws = 0
        if self.recon:
            self.phase = "keep"
            return
        if self.drawer != self.active:
            self._end_step2()
            return
        self._end_step5()

    def _on_draw(self, k: int) -> None:
        self.deck[k] -= 1
        if self.recon_draws > 0:
            self.recon.append(k)
            self.recon.sort()
            self.recon_draws -= 1
        else:
            assert self.drawer is not None
            self.hands[self.drawer][k] += 1
            self.draws -= 1
        self._next_draw()

    def _on_keep(self, value: int) -> None:
        k = value - KEEP
        assert self.drawer is not None
        self.recon.remove(k)
        self.hands[self.drawer][k] += 1
        for other in self.recon:
            self.discard[other] += 1
        self.recon = []
        self._next_draw()

    def _end_step5(self) -> None:
        for u in self.units.values():
            u.ordered, u.moved, u.battles, u.no_battle, u.overrun = False, 0, 0, False, False
        self.last[self.active] = (self.card, self.section) if self.card is not None else None
        self.card = self.section = self.roll = self.unit = self.battle = self.drawer = None
        self.fallback = False
        self.targets = []
        if self.turns[0] + self.turns[1] >= self.game.turn_limit:
            s0, s1 = self.score(0), self.score(1)
            self.winner = 0 if s0 > s1 else 1 if s1 > s0 else -1
            self.phase = "over"
            return
        self.active = 1 - self.active
        self.turns[self.active] += 1
        self.phase = "play"

    # ----- results -----

    def returns(self) -> list[float]:
        if self.phase != "over" or self.winner is None:
            return [0.0, 0.0]
        if self.winner == -1:
            return [0.5, 0.5]
        return [1.0 if s == self.winner else 0.0 for s in (0, 1)]

    def scores(self) -> list[float]:
        return [float(self.score(0)), float(self.score(1))]

    def history(self) -> list[int]:
        return [a for a, _ in self.actions]

    def clone(self) -> Memoir44State:
        return Memoir44State(
            game=self.game,
            phase=self.phase,
            active=self.active,
            units={h: u.copy() for h, u in self.units.items()},
            wire=set(self.wire),
            sandbags=set(self.sandbags),
            deck=list(self.deck),
            turns=list(self.turns),
            hands=[list(h) for h in self.hands],
            discard=list(self.discard),
            played=self.played,
            card=self.card,
            section=self.section,
            fallback=self.fallback,
            roll=(self.roll[0], list(self.roll[1])) if self.roll is not None else None,
            last=list(self.last),
            medals=list(self.medals),
            ambush=self.ambush,
            unit=self.unit,
            battle=self.battle.copy() if self.battle is not None else None,
            targets=list(self.targets),
            recon=list(self.recon),
            recon_draws=self.recon_draws,
            draws=self.draws,
            drawer=self.drawer,
            winner=self.winner,
            actions=list(self.actions),
        )

    def _check_seat(self, player: object) -> int:
        value = _as_int(player)
        if value is None or not 0 <= value < 2:
            raise InvalidStateError(f"{GAME_NAME}: seat {player!r} out of range 0..1")
        return value

    def _recon_hidden_from(self, observer: int) -> bool:
        return bool(self.recon) and self.drawer is not None and self.drawer != observer

    def resample_from_infostate(self, player: object, rng: object = None) -> Memoir44State:
        """§6.7: the other hand (and its Recon pair) redrawn from the cards ``player`` has not seen (the deck,
        that hand and that pair), keeping their sizes; the deck takes the rest."""
        observer = self._check_seat(player)
        other = 1 - observer
        twin = self.clone()
        pool = [twin.deck[k] + twin.hands[other][k] for k in range(NUM_CARD_TYPES)]
        recon_hidden = self._recon_hidden_from(observer)
        if recon_hidden:
            for k in twin.recon:
                pool[k] += 1
        hand_size = sum(twin.hands[other])
        recon_size = len(twin.recon) if recon_hidden else 0
        if hand_size + recon_size == 0:
            return twin
        if not callable(getattr(rng, "below", None)):
            raise TypeError("resample_from_infostate needs an Rng to redraw the hidden hand")
        generator = cast(RngLike, rng)

        def take() -> int:
            r = generator.below(sum(pool))
            running = 0
            for k in range(NUM_CARD_TYPES):
                running += pool[k]
                if running > r:
                    pool[k] -= 1
                    return k
            raise AssertionError("unreachable")  # pragma: no cover

        hand = _zeros()
        for _ in range(hand_size):
            hand[take()] += 1
        twin.hands[other] = hand
        if recon_hidden:
            twin.recon = sorted(take() for _ in range(recon_size))
        twin.deck = pool
        return twin

    # ----- notation (§6.5) -----

    def action_to_string(self, action: object) -> str:
        value = _as_int(action)
        if self.is_chance_node():
            if self.phase in ("deal", "draw"):
                if value is None or not 0 <= value < NUM_CARD_TYPES:
                    raise IllegalActionError(f"{GAME_NAME}: chance outcome {action!r} out of range")
                return f"draw {CARD_KEYS[value]}"
            if value is None or not 0 <= value < len(FACES):
                raise IllegalActionError(f"{GAME_NAME}: chance outcome {action!r} out of range")
            return f"die {FACES[value]}"
        if value is None or not 0 <= value < NUM_DISTINCT_ACTIONS:
            raise IllegalActionError(f"{GAME_NAME}: action {action!r} is out of range 0..408")
        return action_text(value)

    def string_to_action(self, text: object) -> int:
        if not isinstance(text, str):
            raise InvalidNotationError(
                f"{GAME_NAME}: an action text must be a str, not {type(text).__name__}"
            )
        folded = fold_white_space(text)
        if self.is_chance_node():
            words = folded.split(" ")
            if self.phase in ("deal", "draw") and len(words) == 2 and words[0] == "draw" and words[1] in _K:
                return _K[words[1]]
            if self.phase in ("dice", "roll") and len(words) == 2 and words[0] == "die" and words[1] in FACES:
                return FACES.index(words[1])
            raise InvalidNotationError(f"{GAME_NAME}: cannot read chance outcome {text!r} ({self.phase})")
        value = _TEXT_TO_ACTION.get(folded)
        if value is None:
            raise InvalidNotationError(f"{GAME_NAME}: cannot read action {text!r}")
        return value

    # ----- observations (§6.7, §6.8) -----

    def observation_tensor(self, player: object) -> npt.NDArray[np.float32]:
        p = self._check_seat(player)
        o = 1 - p
        out: list[float] = []
        game = self.game
        for h in ALL_HEXES:
            terrain = game.terrain[h]
            out += [
                float(terrain == "town"),
                float(terrain == "forest"),
                float(terrain == "hedgerow"),
                float(terrain == "hill"),
                float(game.impassable(h)),
                float(h in game.bridge),
                float(h in self.wire),
                float(h in self.sandbags),
                float(p in game.medal_seat.get(h, [])),
                float(o in game.medal_seat.get(h, [])),
            ]
            u = self.units.get(h)
            for seat in (p, o):
                if u is not None and u.seat == seat:
                    out += [float(u.kind == k) for k in KINDS] + [float(u.figures), float(u.special)]
                else:
                    out += [0.0] * 5
            if u is not None:
                out += [float(u.ordered), float(u.moved), float(u.battles), float(u.no_battle)]
            else:
                out += [0.0] * 4
        out += [float(self.phase == ph) for ph in PHASES]
        out += [float(self.active == p), float(p == 1), float(self.current_player() == p)]
        out += [float(n) for n in self.hands[p]]
        out += [float(sum(self.hands[o])), float(sum(self.deck))]
        out += [float(n) for n in self.discard]
        out += _one_hot(self.played, NUM_CARD_TYPES) + _one_hot(self.card, NUM_CARD_TYPES)
        out += _one_hot(self.section, 3) + [float(self.fallback)]
        out += [float(n) for n in self.roll[1]] if self.roll is not None else [0.0] * 5
        for seat in (p, o):
            entry = self.last[seat]
            out += _one_hot(entry[0] if entry is not None else None, NUM_CARD_TYPES)
        out += [float(self.score(p)), float(self.score(o))]
        out += [float(game.victory[p]), float(game.victory[o])]
        out += [float(self.turns[p]), float(self.turns[o])]
        out += _one_hot(HEX_INDEX[self.unit] if self.unit is not None else None, NUM_HEXES)
        b = self.battle
        out += _one_hot(HEX_INDEX[b.target] if b is not None else None, NUM_HEXES)
        out += _one_hot(
            HEX_INDEX[b.attacker] if b is not None and b.attacker is not None else None, NUM_HEXES
        )
        out += _one_hot(BATTLE_KINDS.index(b.kind) if b is not None else None, 4)
        if b is not None:
            out += [float(b.dice)] + [float(n) for n in b.rolled] + [float(b.flags), float(b.close)]
        else:
            out += [0.0] * 8
        picks = [0.0] * NUM_HEXES
        for h in self.targets:
            picks[HEX_INDEX[h]] = 1.0
        out += picks
        recon = _zeros()
        if self.drawer == p:
            for k in self.recon:
                recon[k] += 1
        out += [float(n) for n in recon]
        out += [float(self.ambush == p), float(self.ambush == o)]
        assert len(out) == OBSERVATION_SIZE
        return np.array(out, dtype=np.float32)

    def map_text(self) -> str:
        """§6.8: nine rows, odd rows indented by two, four characters a hex: terrain, obstacle, then the
        unit's letter (I infantry, T armor, G artillery; upper case for seat 0 at the bottom, lower case for
        seat 1 at the top) and its figures."""
        letters = {"town": "V", "forest": "F", "hedgerow": "H", "hill": "^", "river": "~", "open": "."}
        lines = []
        for row in range(ROWS):
            cells = []
            for col in range(row % 2, MAX_COL + 1, 2):
                h = Hex(row, col)
                terrain = "=" if h in self.game.bridge else letters.get(self.game.terrain[h], ".")
                obstacle = "#" if h in self.wire else "s" if h in self.sandbags else " "
                u = self.units.get(h)
                if u is None:
                    unit = "  "
                else:
                    letter = {"infantry": "I", "armor": "T", "artillery": "G"}[u.kind]
                    unit = (letter if u.seat == 0 else letter.lower()) + str(u.figures)
                cells.append(terrain + obstacle + unit)
            lines.append(("  " if row % 2 else "") + "".join(cells).rstrip())
        return "\n".join(lines)

    def observation_string(self, player: object) -> str:
        p = self._check_seat(player)
        o = 1 - p
        hand = " ".join(
            f"{CARD_KEYS[k]}x{n}" if n > 1 else CARD_KEYS[k] for k, n in enumerate(self.hands[p]) if n
        )
        lines = [
            self.map_text(),
            f"seat {p} ({self.game.sides[p]}); phase {self.phase}; active {self.active}; turns {self.turns}",
            f"medals {self.score(p)}/{self.game.victory[p]} vs {self.score(o)}/{self.game.victory[o]}",
            f"hand: {hand or '-'}; other hand: {sum(self.hands[o])} cards; deck {sum(self.deck)};"
            f" discard {sum(self.discard)}",
            f"played: {CARD_KEYS[self.played] if self.played is not None else '-'};"
            f" card: {CARD_KEYS[self.card] if self.card is not None else '-'}",
        ]
        if self.recon and self.drawer == p:
            lines.append("recon: " + " ".join(CARD_KEYS[k] for k in self.recon))
        if self.phase == "over":
            lines.append(f"winner: {self.winner}")
        return "\n".join(lines)

    def information_state_string(self, player: object) -> str:
        """The observation string plus the public history (a private draw or keep of the other seat shows as
        ``?``)."""
        p = self._check_seat(player)
        history = ",".join(str(a) if seen in (None, p) else "?" for a, seen in self.actions)
        return self.observation_string(p) + "\nhistory: " + history

    # ----- serialization (§6.6) -----

    def to_json_object(self) -> dict[str, object]:
        return {
            "game": GAME_NAME,
            "history": self.history(),
            "params": self.game.params,
            "version": SERIAL_VERSION,
            "phase": self.phase,
            "active": self.active,
            "turns": list(self.turns),
            "units": [_unit_json(h, self.units[h]) for h in sorted(self.units)],
            "wire": [hex_text(h) for h in sorted(self.wire)],
            "sandbags": [hex_text(h) for h in sorted(self.sandbags)],
            "hands": [list(h) for h in self.hands],
            "deck": list(self.deck),
            "discard": list(self.discard),
            "played": self.played,
            "card": self.card,
            "section": self.section,
            "fallback": self.fallback,
            "roll": {"dice": self.roll[0], "rolled": list(self.roll[1])} if self.roll is not None else None,
            "last": [list(entry) if entry is not None else None for entry in self.last],
            "medals": list(self.medals),
            "ambush": self.ambush,
            "unit": hex_text(self.unit) if self.unit is not None else None,
            "battle": _battle_json(self.battle) if self.battle is not None else None,
            "targets": [hex_text(h) for h in self.targets],
            "recon": list(self.recon),
            "recon_draws": self.recon_draws,
            "draws": self.draws,
            "drawer": self.drawer,
            "winner": self.winner,
        }

    def serialize(self) -> str:
        return json.dumps(self.to_json_object(), sort_keys=True, separators=(",", ":"))

    def __str__(self) -> str:
        mover = self.current_player()
        return self.observation_string(mover if mover >= 0 else self.active)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Memoir44State) and other.serialize() == self.serialize()

    __hash__ = None  # type: ignore[assignment]


def _one_hot(index: int | None, size: int) -> list[float]:
    out = [0.0] * size
    if index is not None:
        out[index] = 1.0
    return out


def _mirror(entry: tuple[int, int | None]) -> tuple[int, int | None]:
    """§6.3 Counter-Attack: a ``_left`` card becomes ``_right`` and the reverse; Infantry Assault's section s
    becomes 2 - s; every other card is itself."""
    k, section = entry
    key = CARD_KEYS[k]
    if key.endswith("_left"):
        return _K[key[: -len("left")] + "right"], section
    if key.endswith("_right"):
        return _K[key[: -len("right")] + "left"], section
    if k == INFANTRY_ASSAULT and section is not None:
        return k, 2 - section
    return k, section


def action_text(value: int) -> str:
    """The text of decision id ``value`` (§6.5)."""
    if value < SECTION:
        return f"play {CARD_KEYS[value - PLAY]}"
    if value < ORDER:
        return f"section {SECTION_NAMES[value - SECTION]}"
    if value < DONE:
        return f"order {hex_text(ALL_HEXES[value - ORDER])}"
    if value == DONE:
        return "done"
    if value < TO:
        return f"unit {hex_text(ALL_HEXES[value - UNIT])}"
    if value < IGNORE:
        return f"to {hex_text(ALL_HEXES[value - TO])}"
    simple = {
        IGNORE: "ignore",
        TAKE: "take",
        ADVANCE: "advance",
        AMBUSH: "ambush",
        PASS: "pass",
        CLEAR: "clear",
    }
    if value in simple:
        return simple[value]
    return f"keep {CARD_KEYS[value - KEEP]}"


_TEXT_TO_ACTION: dict[str, int] = {action_text(a): a for a in range(NUM_DISTINCT_ACTIONS)}


def _unit_json(h: Hex, u: UnitState) -> dict[str, object]:
    return {
        "hex": hex_text(h),
        "seat": u.seat,
        "kind": u.kind,
        "special": u.special,
        "figures": u.figures,
        "start": u.start,
        "ordered": u.ordered,
        "moved": u.moved,
        "battles": u.battles,
        "no_battle": u.no_battle,
        "overrun": u.overrun,
    }


def _battle_json(b: Battle) -> dict[str, object]:
    out: dict[str, object] = {
        "kind": b.kind,
        "attacker": hex_text(b.attacker) if b.attacker is not None else None,
        "target": hex_text(b.target),
        "origin": hex_text(b.origin) if b.origin is not None else None,
        "dice": b.dice,
        "rolled": list(b.rolled),
        "flags": b.flags,
        "retreated": b.retreated,
        "close": b.close,
        "overrun": b.overrun,
    }
    if b.pending is not None:
        out["pending"] = _battle_json(b.pending)
    return out


# ---------------------------------------------------------------------------------------------------------
# Deserialization (§6.6): every key, type, range and the consistency the contract lists
# ---------------------------------------------------------------------------------------------------------

_FIELDS = StrictFields(f"{GAME_NAME}: bad serialized state: ")
_STATE_KEYS = (
    "game history params version phase active turns units wire sandbags hands deck discard played card "
    "section fallback roll last medals ambush unit battle targets recon recon_draws draws drawer winner"
).split()
_UNIT_KEYS = "hex seat kind special figures start ordered moved battles no_battle overrun".split()
_BATTLE_KEYS = "kind attacker target origin dice rolled flags retreated close overrun".split()


def _exact_keys(obj: object, keys: list[str], what: str) -> dict[str, object]:
    return _FIELDS.keys(obj, frozenset(keys), what)


def _hex_field(value: object, what: str) -> Hex:
    h = read_hex(value)
    if h is None:
        raise _FIELDS.bad(f'{what} must be a hex "r,c" on the board, got {value!r}')
    return h


def _optional_int(value: object, low: int, high: int, what: str) -> int | None:
    return None if value is None else _FIELDS.int_in(value, low, high, what)


def _counts_field(value: object, what: str) -> list[int]:
    items = _FIELDS.list(value, what, NUM_CARD_TYPES)
    return [_FIELDS.int_in(n, 0, CARD_COUNTS[k], f"{what}[{k}]") for k, n in enumerate(items)]


def _faces_field(value: object, what: str) -> list[int]:
    items = _FIELDS.list(value, what, 5)
    return [_FIELDS.int_in(n, 0, 99, f"{what}[{f}]") for f, n in enumerate(items)]


def _battle_field(value: object, what: str, allow_pending: bool) -> Battle:
    if isinstance(value, dict) and allow_pending and value.get("kind") == "ambush":
        obj = _exact_keys(value, _BATTLE_KEYS + ["pending"], what)
    else:
        obj = _exact_keys(value, _BATTLE_KEYS, what)
    kind = obj["kind"]
    if kind not in BATTLE_KINDS:
        raise _FIELDS.bad(f"{what}.kind must be one of {BATTLE_KINDS}")
    attacker = None if obj["attacker"] is None else _hex_field(obj["attacker"], f"{what}.attacker")
    if (attacker is None) != (kind in ("air", "barrage")):
        raise _FIELDS.bad(f"{what}.attacker must be null exactly for air and barrage")
    battle = Battle(
        kind=str(kind),
        attacker=attacker,
        target=_hex_field(obj["target"], f"{what}.target"),
        origin=_hex_field(obj["origin"], f"{what}.origin"),
        dice=_FIELDS.int_in(obj["dice"], 0, 20, f"{what}.dice"),
        rolled=_faces_field(obj["rolled"], f"{what}.rolled"),
        flags=_FIELDS.int_in(obj["flags"], 0, 20, f"{what}.flags"),
        retreated=_FIELDS.int_in(obj["retreated"], 0, 20, f"{what}.retreated"),
        close=_FIELDS.boolean(obj["close"], f"{what}.close"),
        overrun=_FIELDS.boolean(obj["overrun"], f"{what}.overrun"),
    )
    if "pending" in obj:
        battle.pending = _battle_field(obj["pending"], f"{what}.pending", allow_pending=False)
        if battle.pending.kind != "attack":
            raise _FIELDS.bad(f"{what}.pending must be an attack")
    return battle


def _deserialize(game: Memoir44Game, text: object) -> Memoir44State:
    if not isinstance(text, str):
        raise InvalidStateError(f"{GAME_NAME}: a serialized state must be a str, not {type(text).__name__}")
    try:
        obj = json.loads(text, object_pairs_hook=_FIELDS.pairs)
    except InvalidStateError:
        raise
    except Exception as error:  # JSONDecodeError, RecursionError, ...
        raise _FIELDS.bad(f"not valid JSON ({type(error).__name__})") from None
    obj = _exact_keys(obj, _STATE_KEYS, "the state")
    if obj["game"] != GAME_NAME:
        raise _FIELDS.bad(f"game {obj['game']!r} is not {GAME_NAME!r}")
    if not is_int(obj["version"]) or obj["version"] != SERIAL_VERSION:
        raise _FIELDS.bad(f"version {obj['version']!r} is not {SERIAL_VERSION}")
    if not same_params(obj["params"], game.params):
        raise _FIELDS.bad("params differ from this game's")
    history = [
        _FIELDS.int_in(a, 0, NUM_DISTINCT_ACTIONS - 1, f"history[{i}]")
        for i, a in enumerate(_FIELDS.list(obj["history"], "history"))
    ]
    phase = obj["phase"]
    if phase not in PHASES:
        raise _FIELDS.bad(f"phase must be one of {PHASES}, got {phase!r}")
    active = _FIELDS.int_in(obj["active"], 0, 1, "active")
    turns_list = _FIELDS.list(obj["turns"], "turns", 2)
    turns = [_FIELDS.int_in(n, 0, 1000, f"turns[{i}]") for i, n in enumerate(turns_list)]

    units: dict[Hex, UnitState] = {}
    previous = -1
    for i, raw in enumerate(_FIELDS.list(obj["units"], "units")):
        what = f"units[{i}]"
        u = _exact_keys(raw, _UNIT_KEYS, what)
        h = _hex_field(u["hex"], f"{what}.hex")
        if HEX_INDEX[h] <= previous:
            raise _FIELDS.bad(f"{what}: units must be in hex order, one a hex")
        previous = HEX_INDEX[h]
        if game.impassable(h):
            raise _FIELDS.bad(f"{what} stands on an impassable hex")
        kind = u["kind"]
        if kind not in KINDS:
            raise _FIELDS.bad(f"{what}.kind must be one of {KINDS}")
        special = _FIELDS.boolean(u["special"], f"{what}.special")
        if (str(kind), special) not in FIGURES:
            raise _FIELDS.bad(f"{what}: artillery has no special kind")
        start = _FIELDS.int_in(u["start"], 1, 4, f"{what}.start")
        if start != FIGURES[(str(kind), special)]:
            raise _FIELDS.bad(f"{what}.start must be {FIGURES[(str(kind), special)]}")
        units[h] = UnitState(
            seat=_FIELDS.int_in(u["seat"], 0, 1, f"{what}.seat"),
            kind=str(kind),
            special=special,
            figures=_FIELDS.int_in(u["figures"], 1, start, f"{what}.figures"),
            start=start,
            ordered=_FIELDS.boolean(u["ordered"], f"{what}.ordered"),
            moved=_FIELDS.int_in(u["moved"], 0, 6, f"{what}.moved"),
            battles=_FIELDS.int_in(u["battles"], 0, 2, f"{what}.battles"),
            no_battle=_FIELDS.boolean(u["no_battle"], f"{what}.no_battle"),
            overrun=_FIELDS.boolean(u["overrun"], f"{what}.overrun"),
        )

    def hex_set(value: object, what: str) -> set[Hex]:
        hexes = [_hex_field(x, f"{what}[{i}]") for i, x in enumerate(_FIELDS.list(value, what))]
        if [HEX_INDEX[h] for h in hexes] != sorted({HEX_INDEX[h] for h in hexes}):
            raise _FIELDS.bad(f"{what} must be in hex order, each hex once")
        return set(hexes)

    wire = hex_set(obj["wire"], "wire")
    sandbags = hex_set(obj["sandbags"], "sandbags")
    hands_list = _FIELDS.list(obj["hands"], "hands", 2)
    hands = [_counts_field(x, f"hands[{i}]") for i, x in enumerate(hands_list)]
    deck = _counts_field(obj["deck"], "deck")
    discard = _counts_field(obj["discard"], "discard")
    played = _optional_int(obj["played"], 0, NUM_CARD_TYPES - 1, "played")
    card = _optional_int(obj["card"], 0, NUM_CARD_TYPES - 1, "card")
    section = _optional_int(obj["section"], 0, 2, "section")
    fallback = _FIELDS.boolean(obj["fallback"], "fallback")
    roll: tuple[int, list[int]] | None = None
    if obj["roll"] is not None:
        r = _exact_keys(obj["roll"], ["dice", "rolled"], "roll")
        roll = (_FIELDS.int_in(r["dice"], 0, 61, "roll.dice"), _faces_field(r["rolled"], "roll.rolled"))
    last: list[tuple[int, int | None] | None] = []
    for i, entry in enumerate(_FIELDS.list(obj["last"], "last", 2)):
        if entry is None:
            last.append(None)
            continue
        pair = _FIELDS.list(entry, f"last[{i}]", 2)
        last_card = _FIELDS.int_in(pair[0], 0, NUM_CARD_TYPES - 1, f"last[{i}][0]")
        last_section = _optional_int(pair[1], 0, 2, f"last[{i}][1]")
        if (last_section is not None) != (last_card == INFANTRY_ASSAULT):
            # §6.9 step 5 keeps the section of the card that took one, and only Infantry Assault does.
            raise _FIELDS.bad(f"last[{i}] has a section exactly for infantry_assault")
        last.append((last_card, last_section))
    medals_list = _FIELDS.list(obj["medals"], "medals", 2)
    medals = [_FIELDS.int_in(n, 0, 99, f"medals[{i}]") for i, n in enumerate(medals_list)]
    ambush = _optional_int(obj["ambush"], 0, 1, "ambush")
    unit = None if obj["unit"] is None else _hex_field(obj["unit"], "unit")
    battle = None if obj["battle"] is None else _battle_field(obj["battle"], "battle", allow_pending=True)
    targets = [_hex_field(x, f"targets[{i}]") for i, x in enumerate(_FIELDS.list(obj["targets"], "targets"))]
    if len(targets) > 4 or len(set(targets)) != len(targets):
        raise _FIELDS.bad("targets must hold at most 4 distinct hexes")
    recon_items = _FIELDS.list(obj["recon"], "recon")
    recon = [_FIELDS.int_in(k, 0, NUM_CARD_TYPES - 1, f"recon[{i}]") for i, k in enumerate(recon_items)]
    if len(recon) > 2 or recon != sorted(recon):
        raise _FIELDS.bad("recon must hold at most 2 card types, ascending")
    recon_draws = _FIELDS.int_in(obj["recon_draws"], 0, 2, "recon_draws")
    draws = _FIELDS.int_in(obj["draws"], 0, 20, "draws")
    drawer = _optional_int(obj["drawer"], 0, 1, "drawer")
    winner = _optional_int(obj["winner"], -1, 1, "winner")

    # The cards add up to the deck, type by type: hands, deck, discard, the card in play, Ambush in flight and
    # the Recon pair.
    for k in range(NUM_CARD_TYPES):
        total = hands[0][k] + hands[1][k] + deck[k] + discard[k] + recon.count(k)
        total += int(played == k) + int(ambush is not None and k == AMBUSH_CARD)
        if total != CARD_COUNTS[k]:
            raise _FIELDS.bad(f"the {CARD_KEYS[k]} cards add up to {total}, not {CARD_COUNTS[k]}")

    state = Memoir44State(
        game=game,
        phase=str(phase),
        active=active,
        units=units,
        wire=wire,
        sandbags=sandbags,
        deck=deck,
        turns=turns,
        hands=hands,
        discard=discard,
        played=played,
        card=card,
        section=section,
        fallback=fallback,
        roll=roll,
        last=last,
        medals=medals,
        ambush=ambush,
        unit=unit,
        battle=battle,
        targets=targets,
        recon=recon,
        recon_draws=recon_draws,
        draws=draws,
        drawer=drawer,
        winner=winner,
    )
    _check_context(state)
    state.actions = _tagged_history(game, history)
    return state


def _tagged_history(game: Memoir44Game, history: list[int]) -> list[tuple[int, int | None]]:
    """The history with the seat that alone saw each action, found by replaying it from the start (the
    serialization keeps only the ids); past an id the replay cannot apply, the rest count as public."""
    replay = game.new_initial_state()
    tagged: list[tuple[int, int | None]] = []
    for i, action in enumerate(history):
        if action not in replay.legal_actions():
            return tagged + [(a, None) for a in history[i:]]
        seen = replay._private_to(action)
        replay.apply_action(action)
        tagged.append((action, seen))
    return tagged


def _check_context(s: Memoir44State) -> None:
    """A phase's context fields are present and name what they should (§6.6)."""
    bad = _FIELDS.bad
    phase = s.phase
    if (s.winner is not None) != (phase == "over"):
        raise bad("winner is set exactly when the phase is over")
    for h, u in s.units.items():
        if u.seat != s.active and (u.ordered or u.moved or u.battles or u.no_battle or u.overrun):
            # §6.9 step 5 clears every unit's marks before the other seat's turn, and only the active
            # seat's units are ordered, moved or battle during it.
            raise bad(f"the unit on {hex_text(h)} is not the active seat's but carries this turn's marks")
    if phase == "over":
        assert s.winner is not None
        scores = [s.score(0), s.score(1)]
        reached = [scores[i] >= s.game.victory[i] for i in (0, 1)]
        at_limit = s.turns[0] + s.turns[1] >= s.game.turn_limit
        if s.winner == -1:
            ok = at_limit and scores[0] == scores[1] and not any(reached)
        else:
            w = s.winner
            ok = reached[w] or (at_limit and scores[w] > scores[1 - w])
        if not ok:
            raise bad(f"winner {s.winner} is denied by the medals")
        return
    if any(s.score(i) >= s.game.victory[i] for i in (0, 1)):
        raise bad("a seat holds its victory medals but the game is not over")
    if phase == "deal":
        if s.turns != [0, 0] or s.played is not None or s.card is not None:
            raise bad("the deal comes before any turn")
        if sum(s.hands[0]) > s.game.cards[0] or sum(s.hands[1]) > s.game.cards[1]:
            raise bad("a hand holds more cards than the scenario deals")
        if sum(s.hands[1]) > 0 and sum(s.hands[0]) < s.game.cards[0]:
            raise bad("seat 0's hand is dealt before seat 1's")
        if sum(s.hands[0]) == s.game.cards[0] and sum(s.hands[1]) == s.game.cards[1]:
            raise bad("the hands are dealt: the deal is over")
        return
    if s.turns[s.active] < 1:
        raise bad("the active seat has not begun a turn")
    in_turn = phase not in ("draw", "keep", "play")
    if in_turn and (s.played is None or s.card is None):
        raise bad(f"phase {phase} needs a played card and the card it counts as")
    needs_unit = {"move_to", "target", "overrun", "move_again"}
    if phase in needs_unit and (s.unit is None or s.unit not in s.units or s.units[s.unit].seat != s.active):
        raise bad(f"phase {phase} needs the active seat's unit in 'unit'")
    if phase in ("section", "order", "move", "battle") and s.card is None:
        raise bad(f"phase {phase} needs a card")
    if phase == "section" and s.card != INFANTRY_ASSAULT:
        raise bad("phase section is Infantry Assault's")
    if phase in ("ambush", "dice", "ignore", "retreat", "advance"):
        b = s.battle
        if b is None or (b.target not in s.units and phase != "advance"):
            raise bad(f"phase {phase} needs a battle with its target on the board")
        if b.attacker is not None and b.attacker not in s.units and phase != "advance":
            raise bad("the battle's attacker is not on the board")
        if phase == "dice" and b.dice < 1:
            raise bad("phase dice needs dice to roll")
        if phase in ("ignore", "retreat") and b.flags < 1:
            raise bad(f"phase {phase} needs a flag to resolve")
        if phase in ("ignore", "retreat") and b.dice != 0:
            raise bad(f"phase {phase} comes after every die is rolled")
        if phase == "ambush" and (b.kind != "attack" or not b.close):
            raise bad("phase ambush follows a close attack")
        if b.kind == "air" and (not s.targets or s.targets[0] != b.target):
            raise bad("an air battle's target leads 'targets'")
    if phase == "advance":
        b = s.battle
        if b is None or b.attacker is None or b.attacker not in s.units:
            raise bad("phase advance needs the attacker on the board")
    if phase == "roll" and (s.roll is None or s.roll[0] < 1):
        raise bad("phase roll needs dice to roll")
    if phase == "roll" and s.card not in (MEDICS, FINEST_HOUR):
        raise bad("phase roll is Medics & Mechanics' or Their Finest Hour's")
    if (
        phase == "roll"
        and s.card == MEDICS
        and (s.unit is None or s.unit not in s.units or s.units[s.unit].seat != s.active)
    ):
        raise bad("Medics' roll needs the healed unit, the active seat's")
    if phase == "draw" and (s.drawer is None or (s.recon_draws == 0 and s.draws == 0) or sum(s.deck) == 0):
        raise bad("phase draw needs a drawer, a draw due and a card in the deck")
    if phase == "keep" and (s.drawer is None or not s.recon or s.recon_draws > 0):
        raise bad("phase keep needs the Recon cards")
    if phase in ("draw", "keep") and (s.played is None) != (s.drawer == s.active):
        # §6.9: the Ambush player's draw (steps 1, 4) comes before step 2 discards the card in play.
        raise bad("a card is in play exactly while the other seat (who played Ambush) draws")
    if phase == "play" and (s.played is not None or s.card is not None or s.battle is not None):
        raise bad("phase play begins a turn: no card in play")


__all__ = [
    "ALL_HEXES",
    "ALLIES",
    "AXIS",
    "CARD_KEYS",
    "Hex",
    "HexSetup",
    "Label",
    "Memoir44Game",
    "Memoir44State",
    "Piece",
    "Scenario",
    "Unit",
    "blockers_from",
    "centre",
    "corners",
    "distance",
    "hexes_crossed",
    "load_scenario",
    "los_clear",
    "neighbours",
    "on_board",
    "parse_unit_name",
    "pegasus_bridge",
    "pegasus_bridge_text",
    "sections",
    "shared_side",
    "side_of_line",
]
