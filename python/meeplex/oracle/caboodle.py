"""Caboodle (2 to 4 players; the 2023 and 2024 BGA rules): the pure-Python reference oracle.

Written from the BGA game-help page (``shared/rules/bga_caboodle.txt``) and the contract
``docs/rules/caboodle.md``; section numbers (§) refer to that contract, "interp. N" to its numbered
interpretations, and the page by its headings (Setup, On Your Turn, Scoring, Ending the Game, Final Scoring).

Plain and slow on purpose: the board is a dict of cells, legal placements are found by trying every empty
cell next to the board in every rotation, and the groups of a placement are found by a flood fill over the
tiles' regions. Nothing is kept incrementally, so that each rule can be checked by eye.

The faces of the 40 tiles are data (§3): the shipped, unverified placeholder
``python/meeplex/data/caboodle_tiles.json`` or a file the player supplies with ``tiles="b64_..."`` (see
``encode_tiles``).

Places where the contract had to be read one way among several are marked ``READING:`` in comments.
"""

from __future__ import annotations

import functools
import json
import operator
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources as importlib_resources
from typing import Any, SupportsIndex, TypeGuard, cast

import numpy as np
import numpy.typing as npt

from meeplex._params import game_string
from meeplex._protocols import RngLike
from meeplex.errors import IllegalActionError, InvalidNotationError, InvalidStateError
from meeplex.oracle._datafile import decode_data_file, encode_data_file
from meeplex.oracle._text import fold_white_space
from meeplex.oracle.rng import random_step

GAME_NAME = "caboodle"
SERIAL_VERSION = 1
TILES_FORMAT = "meeplex caboodle tiles"
TILES_VERSION = 1
PLACEHOLDER_FILE = "data/caboodle_tiles.json"

CHANCE = -1
TERMINAL = -4

# §2 Components
NUM_TILES = 40  # T: "There are 40 tiles in the game"
HAND_SIZE = 6  # "Each player will then draw 6 tiles"
PENALTY = 4  # a pass (2024) or a tile left in hand at the end (2023) costs 4 points
REMOVALS = {2: 1, 3: 0, 4: 3}  # page, Setup

# §4 Coordinates: every tile lies within |x|, |y| <= R of the start tile.
RADIUS = NUM_TILES - 1  # R = 39
WIDTH = 2 * RADIUS + 1  # W = 79
SIDES = ("N", "E", "S", "W")
STEP = ((0, 1), (1, 0), (0, -1), (-1, 0))  # the neighbour across board side d
ROTATION_DEGREES = (0, 90, 180, 270)

# §7 Actions
NUM_PLACEMENTS = WIDTH * WIDTH * 4  # P = 24,964
SELECT_BASE = NUM_PLACEMENTS  # P + t: select tile t
PASS_ACTION = NUM_PLACEMENTS + NUM_TILES  # P + 40
NUM_ACTIONS = PASS_ACTION + 1  # 25,005

# §5 Phases, in the order of the observation's one-hot.
PHASES = ("remove", "start", "deal", "select", "place", "draw", "over")
CHANCE_PHASES = ("remove", "start", "deal", "draw")

LINKS = ("adjacent", "all", "none")

# ---------------------------------------------------------------------------------------------------------
# §3 The tile file
# ---------------------------------------------------------------------------------------------------------

_TILE_KEYS = frozenset({"format", "version", "name", "verified", "notes", "shapes", "links", "tiles"})
_SHAPE_NAME = re.compile(r"[a-z][a-z0-9_]{0,15}")


@dataclass(frozen=True)
class TileSet:
    """A valid tile file: the shape names, the linking rule inside a tile, and each tile's four shapes (as
    shape ids) on its file sides N, E, S, W."""

    name: str
    verified: bool
    shapes: tuple[str, ...]
    links: str
    faces: tuple[tuple[int, int, int, int], ...]


def _tiles_error(message: str) -> InvalidStateError:
    return InvalidStateError(f"{GAME_NAME}: bad tile file: {message}")


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_strings(value: object, error: Any) -> None:
    """§3: no string (key or value) may hold a lone surrogate (``"\\ud800"``); strict readers refuse it."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise error("a string holds a lone surrogate") from None
    elif isinstance(value, list):
        for item in value:
            _check_strings(item, error)
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_strings(key, error)
            _check_strings(item, error)


def _strict_json(text: str, error: Any) -> object:
    """One JSON value read strictly: no key twice, no ``NaN`` / ``Infinity``, no lone surrogates; any failure
    is ``error(message)``."""

    def pairs(items: list[tuple[str, object]]) -> dict[str, object]:
        result: dict[str, object] = {}
        for key, value in items:
            if key in result:
                raise error(f"key {key!r} given twice")
            result[key] = value
        return result

    def constant(name: str) -> object:
        raise error(f"{name} is not JSON")

    try:
        obj = json.loads(text, object_pairs_hook=pairs, parse_constant=constant)
    except InvalidStateError:
        raise
    except Exception as exc:  # JSONDecodeError, RecursionError, an int too long to convert, ...
        raise error(f"not valid JSON ({type(exc).__name__})") from None
    _check_strings(obj, error)
    return obj


def parse_tiles(text: str) -> TileSet:
    """Read and validate a tile file (§3); anything wrong raises ``InvalidStateError`` naming the rule."""
    obj = _strict_json(text, _tiles_error)
    if not isinstance(obj, dict):
        raise _tiles_error("the file must hold one JSON object")
    if obj.keys() != _TILE_KEYS:
        missing = sorted(_TILE_KEYS - obj.keys())
        extra = sorted(obj.keys() - _TILE_KEYS)
        raise _tiles_error(
            f"the keys must be exactly {sorted(_TILE_KEYS)} (missing {missing}, extra {extra})"
        )
    if not isinstance(obj["format"], str) or obj["format"] != TILES_FORMAT:
        raise _tiles_error(f"format must be {TILES_FORMAT!r}")
    if not _is_int(obj["version"]) or obj["version"] != TILES_VERSION:
        raise _tiles_error(f"version must be the int {TILES_VERSION}")
    name = obj["name"]
    if not isinstance(name, str) or not 1 <= len(name) <= 64:
        raise _tiles_error("name must be a str of 1..64 characters")
    verified = obj["verified"]
    if not isinstance(verified, bool):
        raise _tiles_error("verified must be a bool")
    notes = obj["notes"]
    if not isinstance(notes, list) or not all(isinstance(note, str) for note in notes):
        raise _tiles_error("notes must be a list of str")
    shapes = obj["shapes"]
    if not isinstance(shapes, list) or not 2 <= len(shapes) <= 8:
        raise _tiles_error("shapes must be a list of 2..8 names")
    for shape in shapes:
        if not isinstance(shape, str) or not _SHAPE_NAME.fullmatch(shape):
            raise _tiles_error(
                f"shape {shape!r} must be 1..16 characters of a-z, 0-9, _, the first a letter a-z"
            )
    if len(set(shapes)) != len(shapes):
        raise _tiles_error("the shapes must be pairwise different")
    links = obj["links"]
    if not isinstance(links, str) or links not in LINKS:
        raise _tiles_error(f"links must be one of {list(LINKS)}")
    tiles = obj["tiles"]
    if not isinstance(tiles, list) or len(tiles) != NUM_TILES:
        raise _tiles_error(f"tiles must be a list of exactly {NUM_TILES} tiles")
    faces: list[tuple[int, int, int, int]] = []
    for index, tile in enumerate(tiles):
        if not isinstance(tile, list) or len(tile) != 4:
            raise _tiles_error(f"tile {index} must be a list of exactly 4 shapes (N, E, S, W)")
        ids = []
        for side in tile:
            if not isinstance(side, str) or side not in shapes:
                raise _tiles_error(f"tile {index} shows {side!r}, which is not one of the shapes")
            ids.append(shapes.index(side))
        faces.append((ids[0], ids[1], ids[2], ids[3]))
    return TileSet(name, verified, tuple(shapes), links, tuple(faces))


def encode_tiles(text: str) -> str:
    """The ``tiles`` parameter for a tile file given as text (§3.1): ``"b64_"`` + base64url, no padding."""
    return encode_data_file(text)


def placeholder_text() -> str:
    """The shipped, unverified placeholder tile file."""
    return importlib_resources.files("meeplex").joinpath(PLACEHOLDER_FILE).read_text(encoding="utf-8")


@functools.lru_cache(maxsize=32)
def load_tiles(value: str) -> TileSet:
    """§3.1: the tile set named by the ``tiles`` parameter."""
    return parse_tiles(decode_data_file(value, f"{GAME_NAME}: tiles", placeholder_text))


# ---------------------------------------------------------------------------------------------------------
# §1 Parameters
# ---------------------------------------------------------------------------------------------------------

DEFAULT_PARAMS: dict[str, int | str] = {"players": 2, "rules": 2024, "tiles": "placeholder"}


def normalize_params(given: Mapping[str, object]) -> dict[str, Any]:
    for key in given:
        if key not in DEFAULT_PARAMS:
            raise InvalidStateError(f"{GAME_NAME}: unknown parameter {key!r}")
    params: dict[str, Any] = {}
    for key, default in DEFAULT_PARAMS.items():
        value = given.get(key, default)
        if isinstance(default, int):
            if not _is_int(value):
                raise InvalidStateError(f"{GAME_NAME}: parameter {key!r} must be an int, got {value!r:.60}")
            params[key] = int(value)
        else:
            if not isinstance(value, str):
                raise InvalidStateError(f"{GAME_NAME}: parameter {key!r} must be a str, got {value!r:.60}")
            params[key] = value
    if not 2 <= params["players"] <= 4:
        raise InvalidStateError(f"{GAME_NAME}: players must be in 2..4, got {params['players']}")
    if params["rules"] not in (2023, 2024):
        raise InvalidStateError(f"{GAME_NAME}: rules must be 2023 or 2024, got {params['rules']}")
    load_tiles(params["tiles"])  # validates it
    return params


# ---------------------------------------------------------------------------------------------------------
# §7 Action ids and notation
# ---------------------------------------------------------------------------------------------------------


def place_action(x: int, y: int, rotation: int) -> int:
    """``((y + R) x W + (x + R)) x 4 + r`` for rotation ``r`` in quarter turns."""
    return ((y + RADIUS) * WIDTH + (x + RADIUS)) * 4 + rotation


def placement_of(action: int) -> tuple[int, int, int]:
    """The (x, y, r) of a placement id."""
    cell, rotation = divmod(action, 4)
    row, column = divmod(cell, WIDTH)
    return column - RADIUS, row - RADIUS, rotation


def decision_text(action: int) -> str:
    if action < NUM_PLACEMENTS:
        x, y, rotation = placement_of(action)
        return f"place {x},{y} r{ROTATION_DEGREES[rotation]}"
    if action < PASS_ACTION:
        return f"tile {action - SELECT_BASE}"
    return "pass"


_DRAW_TEXT = re.compile(r"draw ([0-9]+)")
_TILE_TEXT = re.compile(r"tile ([0-9]+)")
_PLACE_TEXT = re.compile(r"place ([+-]?[0-9]+) ?, ?([+-]?[0-9]+) r(0|90|180|270)")


def _number(digits: str) -> int:
    """An unsigned run of ASCII digits with any leading zeros, as an int; a long run is made huge without
    converting it (Python refuses to convert more than 4300 digits)."""
    significant = digits.lstrip("0")
    if len(significant) > 6:
        return 10**6
    return int(significant or "0")


def _signed(text: str) -> int:
    if text[0] in "+-":
        value = _number(text[1:])
        return -value if text[0] == "-" else value
    return _number(text)


def _as_int(value: object) -> int | None:
    """An int-like value as an int (anything ``operator.index`` takes); None for anything else, bools too."""
    if isinstance(value, (bool, np.bool_)):
        return None
    try:
        return operator.index(cast(SupportsIndex, value))
    except TypeError:
        return None


# ---------------------------------------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------------------------------------


class CaboodleGame:
    """Caboodle with one set of parameters (§1) and its tile file (§3)."""

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
        self.tiles: TileSet = load_tiles(self._params["tiles"])
        self.players: int = self._params["players"]
        self.rules: int = self._params["rules"]
        self.removals: int = REMOVALS[self.players]

    @property
    def params(self) -> dict[str, Any]:
        return dict(self._params)

    @property
    def num_shapes(self) -> int:
        return len(self.tiles.shapes)

    def num_players(self) -> int:
        return self.players

    def num_distinct_actions(self) -> int:
        """§7: ``P + 41 = 25,005``."""
        return NUM_ACTIONS

    def max_chance_outcomes(self) -> int:
        return NUM_TILES

    def max_game_length(self) -> int:
        """§7: ``40 x (players + 2)``."""
        return NUM_TILES * (self.players + 2)

    def slot_size(self) -> int:
        """§8.1: ``B = 7 + T + 4S`` values per board slot."""
        return 7 + NUM_TILES + 4 * self.num_shapes

    def observation_shape(self) -> tuple[int, ...]:
        """§8.1: ``T x B + 3n + 10 + 3T``."""
        return (NUM_TILES * self.slot_size() + 3 * self.players + 10 + 3 * NUM_TILES,)

    def shape_shown(self, tile: int, rotation: int, side: int) -> int:
        """§4: with rotation r, board side d shows the shape of file side (d - r) mod 4."""
        return self.tiles.faces[tile][(side - rotation) % 4]

    def new_initial_state(self) -> CaboodleState:
        """§5.1: every tile in the bag; the removals (if any) come first."""
        return CaboodleState(
            game=self,
            bag=set(range(NUM_TILES)),
            hands=[set() for _ in range(self.players)],
            phase="remove" if self.removals > 0 else "start",
        )

    def deserialize_state(self, text: object) -> CaboodleState:
        """§9: the state the text's history leads to, if every field agrees; else ``InvalidStateError``."""
        return _deserialize(self, text)

    def __str__(self) -> str:
        return game_string(GAME_NAME, self._params)

    def __repr__(self) -> str:
        return f"CaboodleGame({str(self)[:120]!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CaboodleGame) and other._params == self._params

    def __hash__(self) -> int:
        return hash(str(self))


# ---------------------------------------------------------------------------------------------------------
# The state
# ---------------------------------------------------------------------------------------------------------

# What each history entry was, for the hiding of §8.2 and the resampling of §8.3: (kind, seat), kind one of
# "remove", "start", "deal", "draw" (chance; seat = the receiving seat, -1 for remove and start) or
# "decision" (seat = the seat that decided).
Entry = tuple[str, int]


@dataclass
class CaboodleState:
    """A Caboodle position: the fields of §9, with the game it belongs to."""

    game: CaboodleGame
    bag: set[int]
    hands: list[set[int]]
    phase: str
    removed: list[int] = field(default_factory=list)
    board: list[tuple[int, int, int, int]] = field(default_factory=list)  # (tile, x, y, r), placement order
    cells: dict[tuple[int, int], tuple[int, int]] = field(default_factory=dict)  # (x, y) -> (tile, r)
    current: int = 0
    final: bool = False
    points: list[int] = field(default_factory=list)
    selected: int = -1
    actions: list[int] = field(default_factory=list)
    entries: list[Entry] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.points:
            self.points = [0] * self.game.players

    # ----- whose move (§5) -----

    def current_player(self) -> int:
        if self.phase == "over":
            return TERMINAL
        if self.phase in CHANCE_PHASES:
            return CHANCE
        return self.current

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def is_chance_node(self) -> bool:
        return self.phase in CHANCE_PHASES

    # ----- the board (§4, §5.2) -----

    def shown(self, x: int, y: int, side: int) -> int:
        """The shape the tile at (x, y) shows on its board side ``side``."""
        tile, rotation = self.cells[(x, y)]
        return self.game.shape_shown(tile, rotation, side)

    def open_cells(self) -> list[tuple[int, int]]:
        """Empty cells within the window with at least one neighbour holding a tile."""
        found: set[tuple[int, int]] = set()
        for x, y in self.cells:
            for dx, dy in STEP:
                cell = (x + dx, y + dy)
                if cell not in self.cells and abs(cell[0]) <= RADIUS and abs(cell[1]) <= RADIUS:
                    found.add(cell)
        return sorted(found)

    def fits(self, tile: int, x: int, y: int, rotation: int) -> bool:
        """§5.2: every side of (x, y) whose neighbour holds a tile shows the shape the neighbour shows on its
        touching side ("You must match up the shapes on all sides touching other tiles")."""
        touching = 0
        for side, (dx, dy) in enumerate(STEP):
            neighbour = (x + dx, y + dy)
            if neighbour in self.cells:
                touching += 1
                if self.game.shape_shown(tile, rotation, side) != self.shown(*neighbour, (side + 2) % 4):
                    return False
        return touching > 0

    def placements(self, tile: int) -> list[int]:
        """Every legal placement of ``tile`` as action ids, ascending."""
        out = []
        for x, y in self.open_cells():
            for rotation in range(4):  # interp. 4: all four rotations, even where two look the same
                if self.fits(tile, x, y, rotation):
                    out.append(place_action(x, y, rotation))
        return sorted(out)

    def can_place(self, seat: int) -> bool:
        """§5.3: some tile of the seat's hand has a legal placement."""
        return any(self.placements(tile) for tile in self.hands[seat])

    # ----- scoring (§6) -----

    def _joined(self, region: tuple[int, int, int]) -> list[tuple[int, int, int]]:
        """§6.1: the regions joined directly to ``region`` (x, y, side)."""
        x, y, side = region
        out = []
        dx, dy = STEP[side]
        if (x + dx, y + dy) in self.cells:  # across tiles: the touching side of the neighbour
            out.append((x + dx, y + dy, (side + 2) % 4))
        links = self.game.tiles.links
        shape = self.shown(x, y, side)
        for other in range(4):
            if other == side or self.shown(x, y, other) != shape:
                continue
            adjacent = (other - side) % 4 in (1, 3)
            if links == "all" or (links == "adjacent" and adjacent):
                out.append((x, y, other))
        return out

    def group(self, region: tuple[int, int, int]) -> set[tuple[int, int, int]]:
        """The group (§6.1) of a region: a flood fill over the joins."""
        seen = {region}
        todo = [region]
        while todo:
            for other in self._joined(todo.pop()):
                if other not in seen:
                    seen.add(other)
                    todo.append(other)
        return seen

    def placement_points(self, x: int, y: int) -> int:
        """§6.2: the sizes of the distinct groups the tile at (x, y) connects to, each group once."""
        counted: set[tuple[int, int, int]] = set()
        points = 0
        for side, (dx, dy) in enumerate(STEP):
            if (x + dx, y + dy) not in self.cells or (x, y, side) in counted:
                continue
            members = self.group((x, y, side))
            counted |= members
            points += len(members)
        return points

    # ----- chance -----

    def chance_weights(self) -> list[tuple[int, int]]:
        """Every tile left in the bag, weight 1 each (§2: the bag's order is never fixed)."""
        if not self.is_chance_node():
            return []
        return [(tile, 1) for tile in sorted(self.bag)]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        weights = self.chance_weights()
        total = sum(w for _, w in weights)
        return [(a, w / total) for a, w in weights]

    def random_step(self, rng: RngLike) -> int:
        """DESIGN's random step with ``rng`` (either engine's Rng), applied; returns the action taken."""
        return random_step(self, rng)

    # ----- legal actions -----

    def legal_actions(self) -> list[int]:
        if self.phase == "over":
            return []
        if self.is_chance_node():
            return sorted(self.bag)
        if self.phase == "select":
            hand = self.hands[self.current]
            choices = [SELECT_BASE + tile for tile in sorted(hand) if self.placements(tile)]
            return choices or [PASS_ACTION]  # interp. 6, 7: the forced pass is the only action
        return self.placements(self.selected)

    def legal_actions_mask(self) -> npt.NDArray[np.int8]:
        size = self.game.max_chance_outcomes() if self.is_chance_node() else self.game.num_distinct_actions()
        mask = np.zeros(size, dtype=np.int8)
        for action in self.legal_actions():
            mask[action] = 1
        return mask

    # ----- applying actions (§5) -----

    def apply_action(self, action: object) -> None:
        """Apply a legal action or chance outcome; anything else raises ``IllegalActionError`` and changes
        nothing."""
        player = self.current_player()
        value = _as_int(action)
        if value is None or value not in self.legal_actions():
            raise IllegalActionError(
                f"{GAME_NAME}: action {action!r:.60} is not legal for seat {player} in this state"
            )
        self.actions.append(value)
        if player == CHANCE:
            self._apply_chance(value)
        else:
            self.entries.append(("decision", self.current))
            self._apply_decision(value)

    def _apply_chance(self, tile: int) -> None:
        game = self.game
        self.bag.remove(tile)
        if self.phase == "remove":
            self.entries.append(("remove", -1))
            self.removed.append(tile)
            if len(self.removed) == game.removals:
                self.phase = "start"
        elif self.phase == "start":
            self.entries.append(("start", -1))
            self._put(tile, 0, 0, 0)  # interp. 2: the start tile, face up at (0, 0), scoring nothing
            self.phase = "deal"
            self.current = 0
        elif self.phase == "deal":
            self.entries.append(("deal", self.current))
            self.hands[self.current].add(tile)
            if len(self.hands[self.current]) == HAND_SIZE:
                if self.current + 1 < game.players:
                    self.current += 1
                else:
                    self._next_turn(0, at_start=True)  # §5.1 step 4
        else:  # draw (2024): the placer's new tile
            self.entries.append(("draw", self.current))
            self.hands[self.current].add(tile)
            self._end_turn(self.current)

    def _apply_decision(self, action: int) -> None:
        seat = self.current
        if self.phase == "select":
            if action == PASS_ACTION:
                if self.game.rules == 2024:
                    self.points[seat] -= PENALTY  # interp. 12: every pass costs 4 points
                self._end_turn(seat)  # nothing is drawn after a pass
                return
            tile = action - SELECT_BASE
            self.hands[seat].remove(tile)
            self.selected = tile
            self.phase = "place"
            return
        x, y, rotation = placement_of(action)
        tile = self.selected
        self.selected = -1
        self._put(tile, x, y, rotation)
        self.points[seat] += self.placement_points(x, y)
        if self.game.rules == 2024 and self.bag:
            self.phase = "draw"  # "after placing, draw a tile from the bag"
            return
        self._end_turn(seat)

    def _put(self, tile: int, x: int, y: int, rotation: int) -> None:
        self.board.append((tile, x, y, rotation))
        self.cells[(x, y)] = (tile, rotation)

    def _end_turn(self, seat: int) -> None:
        """§5.4: "When a person plays their last tile, play continues until that round has completed"."""
        if not self.hands[seat]:
            self.final = True
        self._next_turn(seat, at_start=False)

    def _next_turn(self, q: int, at_start: bool) -> None:
        """§5.4's loop from seat ``q`` (at the start of play it begins at the "no seat can place" test)."""
        players = self.game.players
        first = at_start
        self.current = q
        while True:
            if not first:
                q = (q + 1) % players
                if self.final and q == 0:
                    self._end_game()  # the round is complete: seat 0 began it
                    return
            first = False
            if not any(self.can_place(s) for s in range(players)):
                self._end_game()  # "The game also ends if none of the players can place a tile"
                return
            if not self.hands[q]:
                continue  # interp. 11: an empty hand takes no turn
            self.current = q
            self.phase = "select"
            return

    def _end_game(self) -> None:
        """The game ends; ``current`` stays the seat whose turn ended last. Under 2023 "any tile still in a
        players hand is -4 per tile"."""
        self.phase = "over"
        self.selected = -1
        if self.game.rules == 2023:
            for seat, hand in enumerate(self.hands):
                self.points[seat] -= PENALTY * len(hand)

    # ----- results (§6.3) -----

    def returns(self) -> list[float]:
        players = self.game.players
        if self.phase != "over":
            return [0.0] * players
        best = max(self.points)
        winners = [seat for seat in range(players) if self.points[seat] == best]  # interp. 13: ties share
        return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(players)]

    def scores(self) -> list[float]:
        return [float(p) for p in self.points]

    def history(self) -> list[int]:
        return list(self.actions)

    def clone(self) -> CaboodleState:
        return CaboodleState(
            game=self.game,
            bag=set(self.bag),
            hands=[set(hand) for hand in self.hands],
            phase=self.phase,
            removed=list(self.removed),
            board=list(self.board),
            cells=dict(self.cells),
            current=self.current,
            final=self.final,
            points=list(self.points),
            selected=self.selected,
            actions=list(self.actions),
            entries=list(self.entries),
        )

    # ----- hidden information (§8.2, §8.3) -----

    def _hidden_from(self, observer: int, entry: Entry) -> bool:
        """A removal is hidden from everyone; a deal or a draw from every seat but its receiver."""
        kind, seat = entry
        return kind == "remove" or (kind in ("deal", "draw") and seat != observer)

    def resample_from_infostate(self, player: object, rng: object = None) -> CaboodleState:
        """§8.3: the hidden chance outcomes drawn again, uniformly among the histories that stay legal."""
        observer = self._check_seat(player)
        if not callable(getattr(rng, "below", None)):
            raise TypeError("resample_from_infostate needs an Rng")
        below = cast(Any, rng).below
        hidden = [i for i, entry in enumerate(self.entries) if self._hidden_from(observer, entry)]
        recipient = {i: self.entries[i][1] for i in hidden}  # -1 for a removal
        start_tile = [a for a, e in zip(self.actions, self.entries, strict=True) if e[0] == "start"]
        mine = {
            a
            for a, e in zip(self.actions, self.entries, strict=True)
            if e[0] in ("deal", "draw") and e[1] == observer
        }
        pool_all = [t for t in range(NUM_TILES) if t not in start_tile and t not in mine]
        selections = [
            (j, self.actions[j] - SELECT_BASE)
            for j, (kind, seat) in enumerate(self.entries)
            if kind == "decision" and seat != observer and SELECT_BASE <= self.actions[j] < PASS_ACTION
        ]
        for _attempt in range(100):
            pool = list(pool_all)
            assigned: dict[int, int] = {}
            for j, (tile) in selections:
                seat = self.entries[j][1]
                eligible = [i for i in hidden if i < j and recipient[i] == seat and i not in assigned]
                k = below(len(eligible))
                assigned[eligible[k]] = tile
                pool.remove(tile)
            for i in hidden:
                if i not in assigned:
                    x = below(len(pool))
                    assigned[i] = pool.pop(x)
            history = list(self.actions)
            for i, tile in assigned.items():
                history[i] = tile
            replayed = self.game.new_initial_state()
            try:
                for action in history:
                    replayed.apply_action(action)
            except IllegalActionError:
                continue
            if replayed.phase == self.phase and replayed.current == self.current:
                return replayed
        return self.clone()  # interp. 14

    # ----- notation (§7) -----

    def action_to_string(self, action: object) -> str:
        value = _as_int(action)
        if self.is_chance_node():
            if value is None or not 0 <= value < NUM_TILES:
                raise IllegalActionError(f"{GAME_NAME}: chance outcome {action!r:.60} is out of range 0..39")
            return f"draw {value}"
        if value is None or not 0 <= value < NUM_ACTIONS:
            raise IllegalActionError(
                f"{GAME_NAME}: action {action!r:.60} is out of range 0..{NUM_ACTIONS - 1} "
                f"(seat {self.current_player()})"
            )
        return decision_text(value)

    def string_to_action(self, text: object) -> int:
        if not isinstance(text, str):
            raise InvalidNotationError(
                f"{GAME_NAME}: an action text must be a str, not {type(text).__name__}"
            )
        key = fold_white_space(text)
        if self.is_chance_node():
            match = _DRAW_TEXT.fullmatch(key)
            if match and _number(match.group(1)) < NUM_TILES:
                return _number(match.group(1))
            raise InvalidNotationError(
                f"{GAME_NAME}: cannot read {text[:60]!r} as a chance outcome (draw <t>)"
            )
        if key == "pass":
            return PASS_ACTION
        match = _TILE_TEXT.fullmatch(key)
        if match and _number(match.group(1)) < NUM_TILES:
            return SELECT_BASE + _number(match.group(1))
        match = _PLACE_TEXT.fullmatch(key)
        if match:
            x, y = _signed(match.group(1)), _signed(match.group(2))
            if abs(x) <= RADIUS and abs(y) <= RADIUS:
                return place_action(x, y, ROTATION_DEGREES.index(int(match.group(3))))
        raise InvalidNotationError(f"{GAME_NAME}: cannot read action {text[:60]!r}")

    # ----- observations (§8) -----

    def _check_seat(self, player: object) -> int:
        value = _as_int(player)
        if value is None or not 0 <= value < self.game.players:
            raise InvalidStateError(
                f"{GAME_NAME}: seat {player!r:.60} out of range 0..{self.game.players - 1}"
            )
        return value

    def observation_tensor(self, player: object) -> npt.NDArray[np.float32]:
        observer = self._check_seat(player)
        game = self.game
        players = game.players
        shapes = game.num_shapes
        values: list[float] = []
        for slot in range(NUM_TILES):
            block = [0.0] * game.slot_size()
            if slot < len(self.board):
                tile, x, y, rotation = self.board[slot]
                block[0] = 1.0
                block[1] = float(x)
                block[2] = float(y)
                block[3 + rotation] = 1.0
                block[7 + tile] = 1.0
                for side in range(4):
                    block[7 + NUM_TILES + side * shapes + game.shape_shown(tile, rotation, side)] = 1.0
            values.extend(block)
        seats = [(observer + i) % players for i in range(players)]
        values.extend(float(self.points[s]) for s in seats)
        values.extend(float(len(self.hands[s])) for s in seats)
        acting = self.current_player()
        values.extend(1.0 if s == acting else 0.0 for s in seats)
        values.extend(1.0 if self.phase == name else 0.0 for name in PHASES)
        values.append(1.0 if self.final else 0.0)
        values.append(1.0 if game.rules == 2024 else 0.0)
        values.append(float(len(self.bag)))
        values.extend(1.0 if t == self.selected else 0.0 for t in range(NUM_TILES))
        hand = self.hands[observer]
        values.extend(1.0 if t in hand else 0.0 for t in range(NUM_TILES))
        placed = {tile for tile, _, _, _ in self.board}
        values.extend(
            0.0 if t in placed or t in hand or t == self.selected else 1.0 for t in range(NUM_TILES)
        )
        tensor = np.asarray(values, dtype=np.float32)
        assert tensor.shape == game.observation_shape(), (tensor.shape, game.observation_shape())
        return tensor

    def _tile_text(self, tile: int, rotation: int = 0) -> str:
        shapes = self.game.tiles.shapes
        return f"{tile}[" + " ".join(shapes[self.game.shape_shown(tile, rotation, d)] for d in range(4)) + "]"

    def observation_string(self, player: object) -> str:
        """A readable picture of what seat ``player`` sees (§8.2), with the same hiding as the tensor."""
        observer = self._check_seat(player)
        game = self.game
        tiles = game.tiles
        lines = [
            f"Caboodle ({tiles.name}{'' if tiles.verified else ', unverified tiles'}, rules {game.rules}), "
            f"seen by seat {observer}: phase {self.phase}"
            + (f", seat {self.current} to play" if self.phase in ("select", "place") else "")
            + (" (final round)" if self.final else "")
        ]
        lines.append(f"bag: {len(self.bag)} tiles; removed: {len(self.removed)} tiles")
        for seat in range(game.players):
            mine = seat == observer
            hand = ", ".join(self._tile_text(t) for t in sorted(self.hands[seat])) if mine else "hidden"
            lines.append(
                f"seat {seat}{' (you)' if mine else ''}: {self.points[seat]} points, "
                f"{len(self.hands[seat])} tiles in hand: {hand}"
            )
        if self.selected >= 0:
            lines.append(f"selected: {self._tile_text(self.selected)}")
        lines.append("board (tile [N E S W as shown] at x,y rotation):")
        for tile, x, y, rotation in self.board:
            lines.append(f"  {self._tile_text(tile, rotation)} at {x},{y} r{ROTATION_DEGREES[rotation]}")
        if self.phase == "over":
            lines.append(f"scores {self.points}, returns {self.returns()}")
        return "\n".join(lines)

    def information_state_string(self, player: object) -> str:
        """§8.2: the history with the outcomes hidden from ``player`` written ``?``."""
        observer = self._check_seat(player)
        tokens = [
            "?" if self._hidden_from(observer, entry) else str(action)
            for action, entry in zip(self.actions, self.entries, strict=True)
        ]
        return f"seat={observer} history=" + ",".join(tokens)

    # ----- serialization (§9) -----

    def to_json_object(self) -> dict[str, object]:
        return {
            "bag": sorted(self.bag),
            "board": [[tile, x, y, rotation] for tile, x, y, rotation in self.board],
            "current": self.current,
            "final": self.final,
            "game": GAME_NAME,
            "hands": [sorted(hand) for hand in self.hands],
            "history": list(self.actions),
            "params": self.game.params,
            "phase": self.phase,
            "removed": sorted(self.removed),
            "scores": list(self.points),
            "selected": self.selected,
            "version": SERIAL_VERSION,
        }

    def serialize(self) -> str:
        return json.dumps(self.to_json_object(), sort_keys=True, separators=(",", ":"))

    def __str__(self) -> str:
        player = self.current_player()
        label = "chance" if player == CHANCE else "terminal" if player == TERMINAL else f"seat {player}"
        return f"[{label}] " + self.observation_string(self.current)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CaboodleState) and other.serialize() == self.serialize()

    __hash__ = None  # type: ignore[assignment]  # mutable, so unhashable


# ---------------------------------------------------------------------------------------------------------
# §9 Reading a serialized state
# ---------------------------------------------------------------------------------------------------------

_STATE_KEYS = frozenset(
    {
        "bag",
        "board",
        "current",
        "final",
        "game",
        "hands",
        "history",
        "params",
        "phase",
        "removed",
        "scores",
        "selected",
        "version",
    }
)


def _bad(message: str) -> InvalidStateError:
    return InvalidStateError(f"{GAME_NAME}: bad serialized state: {message}")


def _same_json(a: object, b: object) -> bool:
    """Equal as JSON values of the same types (a bool is not an int, an int not a float)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        assert isinstance(b, list)
        return len(a) == len(b) and all(_same_json(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        assert isinstance(b, dict)
        return a.keys() == b.keys() and all(_same_json(a[k], b[k]) for k in a)
    return a == b


def _deserialize(game: CaboodleGame, text: object) -> CaboodleState:
    if not isinstance(text, str):
        raise InvalidStateError(f"{GAME_NAME}: a serialized state must be a str, not {type(text).__name__}")
    obj = _strict_json(text, _bad)
    if not isinstance(obj, dict):
        raise _bad("not one JSON object")
    if obj.keys() != _STATE_KEYS:
        missing = sorted(_STATE_KEYS - obj.keys())
        extra = sorted(obj.keys() - _STATE_KEYS)
        raise _bad(f"keys missing {missing} or extra {extra}")
    if not _same_json(obj["game"], GAME_NAME):
        raise _bad(f"game {obj['game']!r:.60} is not {GAME_NAME!r}")
    if not _same_json(obj["version"], SERIAL_VERSION):
        raise _bad(f"version {obj['version']!r:.60} is not {SERIAL_VERSION}")
    if not _same_json(obj["params"], game.params):
        raise _bad("params differ from this game's")
    history = obj["history"]
    if not isinstance(history, list):
        raise _bad("history must be a list")
    if len(history) > game.max_game_length():
        raise _bad(f"history longer than max_game_length() = {game.max_game_length()}")
    for action in history:
        if not _is_int(action) or not 0 <= action < NUM_ACTIONS:
            raise _bad(f"history holds {action!r:.60}, not an action id")
    state = game.new_initial_state()
    for index, action in enumerate(history):
        try:
            state.apply_action(action)
        except IllegalActionError:
            raise _bad(f"history entry {index} ({action}) is not legal where it stands") from None
    replayed = state.to_json_object()
    for key in sorted(_STATE_KEYS):
        if not _same_json(obj[key], replayed[key]):
            raise _bad(f"{key} does not agree with the replayed history")
    return state


__all__ = [
    "CaboodleGame",
    "CaboodleState",
    "TileSet",
    "encode_tiles",
    "load_tiles",
    "parse_tiles",
    "placeholder_text",
]
