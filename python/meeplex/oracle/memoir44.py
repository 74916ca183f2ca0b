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
import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from importlib import resources as importlib_resources
from typing import Any, NamedTuple

from meeplex.errors import InvalidStateError
from meeplex.oracle._json import no_duplicate_keys

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


__all__ = [
    "ALL_HEXES",
    "ALLIES",
    "AXIS",
    "Hex",
    "HexSetup",
    "Label",
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
