"""Carcassonne (base game, The River, the strategic variant): the pure-Python reference implementation.

Written from the game-help page (``shared/rules/bga_carcassonne.txt``), the rule facts
(``shared/rules/facts/bga_games.md`` §1) and the contract ``docs/rules/carcassonne.md``; section numbers (§)
refer to that contract, "interp. N" to its numbered interpretations. The tile table is read from
``meeplex/data/carcassonne_tiles.json``.

Plain and slow on purpose: the board is a dict of placed tiles and every feature (city, road, field) is
found by a flood fill over the board when it is needed.

Places where the contract had to be read one way among several are marked ``READING:`` in comments.
"""

from __future__ import annotations

import json
import operator
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources as importlib_resources
from typing import Any, SupportsIndex, TypeGuard, cast

import numpy as np

from meeplex._params import game_string
from meeplex._protocols import RngLike
from meeplex.errors import IllegalActionError, InvalidNotationError, InvalidStateError
from meeplex.oracle._json import no_duplicate_keys, same_params
from meeplex.oracle._text import fold_white_space
from meeplex.oracle.rng import random_step

GAME_NAME = "carcassonne"
SERIAL_VERSION = 1

CHANCE = -1
TERMINAL = -4

K = 12  # feature slots per tile (§7)
FOLLOWERS = 7  # followers per seat
MAX_SCORE = 100000
PHASES = ("deal", "draw", "select", "place", "follower", "over")
EDGE_NAMES = ("N", "E", "S", "W")
HALF_NAMES = ("NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR")
ROTATION_NAMES = ("r0", "r90", "r180", "r270")
# Board edge d leads to the cell (x + DX[d], y + DY[d]) (§2 Adjacency).
DX = (0, 1, 0, -1)
DY = (1, 0, -1, 0)
NEIGHBOURS_8 = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


# ---------------------------------------------------------------------------------------------------------
# §2 Tile data
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Feature:
    kind: str  # cloister, city, road, field
    edges: tuple[int, ...] = ()  # data edges (city, road)
    halves: tuple[int, ...] = ()  # data halves (field); empty for an inner farm (§2)
    pennant: bool = False
    cities: tuple[int, ...] = ()  # field: the feature indices of the cities of this tile it touches
    inn: bool = False  # road (Inns & Cathedrals, §11.2)
    cathedral: bool = False  # city (Inns & Cathedrals, §11.2)
    goods: str = ""  # city: wine, grain or cloth (Traders & Builders, §11.3); "" for none


@dataclass(frozen=True)
class TileType:
    name: str
    set: str  # base, river, inns_cathedrals or traders_builders
    count: int
    edges: str  # N E S W as drawn
    features: tuple[Feature, ...]


def _load_tiles() -> tuple[tuple[TileType, ...], str, str, str]:
    text = importlib_resources.files("meeplex").joinpath("data/carcassonne_tiles.json").read_text("utf-8")
    data = json.loads(text)
    tiles = []
    for entry in data["tiles"]:
        features = []
        for f in entry["features"]:
            features.append(
                Feature(
                    kind=f["kind"],
                    edges=tuple(EDGE_NAMES.index(e) for e in f.get("edges", [])),
                    halves=tuple(HALF_NAMES.index(h) for h in f.get("halves", [])),
                    pennant=bool(f.get("pennant", False)),
                    cities=tuple(f.get("cities", [])),
                    inn=bool(f.get("inn", False)),
                    cathedral=bool(f.get("cathedral", False)),
                    goods=str(f.get("goods", "")),
                )
            )
        tiles.append(TileType(entry["name"], entry["set"], entry["count"], entry["edges"], tuple(features)))
    return tuple(tiles), data["start_tile"], data["spring"], data["lake"]


# Every entry of the data file, in its order. A game's tile type ids are positions in ``game.tiles`` (the
# base and river entries, then the enabled expansions' entries, §2); the base and river ids 0..33 are the
# same in every game, and so are the data file's positions.
TILES, _START_NAME, _SPRING_NAME, _LAKE_NAME = _load_tiles()
TILE_NAMES = tuple(tile.name for tile in TILES)
START = TILE_NAMES.index(_START_NAME)
SPRING = TILE_NAMES.index(_SPRING_NAME)
LAKE = TILE_NAMES.index(_LAKE_NAME)
BASE_SETS = ("base", "river")
EXPANSIONS = ("inns_cathedrals", "traders_builders")  # parameter = the data file's set name (§1, §2)
LAND = tuple(t for t in range(len(TILES)) if TILES[t].set == "base")  # the base letters A..X
RIVER = tuple(t for t in range(len(TILES)) if TILES[t].set == "river")
LAND_LETTERS = {TILE_NAMES[t]: t for t in LAND}
assert max(LAND + RIVER) < min(t for t in range(len(TILES)) if TILES[t].set not in BASE_SETS)


@dataclass(frozen=True)
class Placed:
    """A tile type seen with rotation r on the board (§2 Rotation)."""

    edges: tuple[str, ...]  # letter on board edge d
    edge_feature: tuple[int, ...]  # feature (city or road) on board edge d, or -1
    half_feature: tuple[int, ...]  # field feature on board half h, or -1
    feature_edges: tuple[tuple[int, ...], ...]  # board edges of feature k
    feature_halves: tuple[tuple[int, ...], ...]  # board halves of feature k


@cache
def placed(t: int, r: int) -> Placed:
    tile = TILES[t]
    edges = tuple(tile.edges[(d - r) % 4] for d in range(4))
    edge_feature = [-1] * 4
    half_feature = [-1] * 8
    feature_edges = []
    feature_halves = []
    for k, feat in enumerate(tile.features):
        board_edges = tuple(sorted((e + r) % 4 for e in feat.edges))
        board_halves = tuple(sorted((h + 2 * r) % 8 for h in feat.halves))
        for d in board_edges:
            edge_feature[d] = k
        for h in board_halves:
            half_feature[h] = k
        feature_edges.append(board_edges)
        feature_halves.append(board_halves)
    return Placed(
        edges, tuple(edge_feature), tuple(half_feature), tuple(feature_edges), tuple(feature_halves)
    )


# ---------------------------------------------------------------------------------------------------------
# §1 Parameters
# ---------------------------------------------------------------------------------------------------------

_TILES_TEXT = re.compile(r"(?:[A-X][0-9]+)+")


STANDARD_COUNTS = tuple(TILES[t].count for t in LAND)


def parse_tiles(text: str) -> tuple[int, ...]:
    """The base letters' pile counts of a ``tiles`` value (§1), indexed by the letter's type id; anything
    malformed is an ``InvalidStateError``."""
    upper = "".join(chr(ord(c) - 32) if "a" <= c <= "z" else c for c in text)
    if upper == "STANDARD":
        return STANDARD_COUNTS
    if not _TILES_TEXT.fullmatch(upper):
        raise InvalidStateError(f"{GAME_NAME}: tiles {text!r} is not 'standard' nor letters A..X with counts")
    counts = [0] * len(LAND)
    last = ""
    for letter, digits in re.findall(r"([A-X])([0-9]+)", upper):
        if letter <= last:
            raise InvalidStateError(f"{GAME_NAME}: tiles {text!r}: letter {letter} twice or out of order")
        last = letter
        # READING: a count is its decimal value (leading zeros allowed); it must be 1..99.
        if len(digits) > 3 or not 1 <= int(digits) <= 99:
            raise InvalidStateError(f"{GAME_NAME}: tiles {text!r}: count of {letter} must be 1..99")
        counts[LAND_LETTERS[letter]] = int(digits)
    return tuple(counts)


def canonical_tiles(counts: tuple[int, ...]) -> str:
    if counts == STANDARD_COUNTS:
        return "standard"
    return "".join(f"{TILE_NAMES[t]}{counts[t]}" for t in LAND if counts[t] > 0)


def normalize_params(given: Mapping[str, object]) -> dict[str, Any]:
    """§1: every key checked and defaults filled in.

    READING (§9, §11.7): an expansion's key is in ``params`` only when it is true, so that the base game's
    ``params`` (and with it its serialization and game string) stay exactly as they were."""
    params: dict[str, Any] = {"players": 2, "river": False, "strategic": False, "tiles": "standard"}
    for key in given:
        if key not in params and key not in EXPANSIONS:
            raise InvalidStateError(f"{GAME_NAME}: unknown parameter {key!r}")
    for key in ("river", "strategic") + EXPANSIONS:
        if key in given:
            value = given[key]
            if not isinstance(value, bool):
                raise InvalidStateError(f"{GAME_NAME}: parameter {key!r} must be a bool, got {value!r}")
            if key in params or value:
                params[key] = bool(value)
    if "players" in given:
        value = given["players"]
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidStateError(f"{GAME_NAME}: parameter 'players' must be an int, got {value!r}")
        most = 6 if params.get("inns_cathedrals", False) else 5  # §11.2: a 6th seat with Inns & Cathedrals
        if not 2 <= value <= most:
            raise InvalidStateError(f"{GAME_NAME}: parameter 'players' must be in 2..{most}, got {value}")
        params["players"] = int(value)
    if "tiles" in given:
        value = given["tiles"]
        if not isinstance(value, str):
            raise InvalidStateError(f"{GAME_NAME}: parameter 'tiles' must be a word, got {value!r}")
        params["tiles"] = canonical_tiles(parse_tiles(value))
    return params


def _as_int(value: object) -> int | None:
    """An int-like value as an int; ``None`` for anything else, bools included (input policy)."""
    if isinstance(value, (bool, np.bool_)):
        return None
    try:
        return operator.index(cast(SupportsIndex, value))
    except TypeError:
        return None


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


# ---------------------------------------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------------------------------------


class CarcassonneGame:
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
        self.players: int = self._params["players"]
        self.river: bool = self._params["river"]
        self.strategic: bool = self._params["strategic"]
        self.inns_cathedrals: bool = self._params.get("inns_cathedrals", False)
        self.traders_builders: bool = self._params.get("traders_builders", False)
        # The game's tile types (§2): the base and river entries, then the enabled expansions', in the data
        # file's order; a type id is a position in this list (``data_ids`` maps it back to the file).
        sets = BASE_SETS + tuple(key for key in EXPANSIONS if self._params.get(key, False))
        self.data_ids: tuple[int, ...] = tuple(i for i, tile in enumerate(TILES) if tile.set in sets)
        self.tiles: tuple[TileType, ...] = tuple(TILES[i] for i in self.data_ids)
        self.tile_names: tuple[str, ...] = tuple(tile.name for tile in self.tiles)
        self.T: int = len(self.tiles)
        # The land types: the base letters and the expansions' tiles (every type but the river's).
        self.land: tuple[int, ...] = tuple(t for t in range(self.T) if self.tiles[t].set != "river")
        letters = parse_tiles(self._params["tiles"])
        # The draw piles' counts per type, and the first tile on the board (§2, §3, interp. 5). The
        # expansions' tiles are all in the pile whatever ``tiles`` says (interp. 11.7).
        self.initial_pile: list[int] = []
        for t, tile in enumerate(self.tiles):
            if tile.set == "base":
                self.initial_pile.append(letters[t])
            elif tile.set == "river":
                self.initial_pile.append(tile.count if self.river else 0)
            else:
                self.initial_pile.append(tile.count)
        self.first_tile: int = SPRING if self.river else START
        self.totals: list[int] = list(self.initial_pile)
        self.totals[self.first_tile] += 1
        self.R: int = sum(self.initial_pile)
        self.W: int = 2 * self.R + 1
        self.P: int = self.W * self.W * 4
        self.NO_FOLLOWER: int = self.P
        self.FOLLOWER: int = self.P + 1
        self.SELECT: int = self.P + 1 + K
        self._num_actions: int = self.P + 1 + K + self.T
        self.types: frozenset[int] = frozenset(self.land + (RIVER if self.river else ()))

    def geo(self, t: int, r: int) -> Placed:
        """Tile type t of this game seen with rotation r."""
        return placed(self.data_ids[t], r)

    @property
    def params(self) -> dict[str, Any]:
        return dict(self._params)

    def num_players(self) -> int:
        return self.players

    def num_distinct_actions(self) -> int:
        return self._num_actions

    def max_chance_outcomes(self) -> int:
        return self.T

    def max_game_length(self) -> int:
        return 4 * self.R

    def observation_shape(self) -> tuple[int, ...]:
        n = self.players
        return ((self.R + 1) * (7 + self.T + K + n) + 4 * n + 6 + 4 * self.T,)

    def place_id(self, x: int, y: int, r: int) -> int:
        return ((y + self.R) * self.W + (x + self.R)) * 4 + r

    def place_of(self, action: int) -> tuple[int, int, int]:
        cell, r = divmod(action, 4)
        row, col = divmod(cell, self.W)
        return col - self.R, row - self.R, r

    def in_window(self, x: int, y: int) -> bool:
        return abs(x) <= self.R and abs(y) <= self.R

    def new_initial_state(self) -> CarcassonneState:
        n = self.players
        state = CarcassonneState(
            game=self,
            board=[(self.first_tile, 0, 0, 0)],
            cells={(0, 0): 0},
            followers={},
            pile=list(self.initial_pile),
            set_aside=[0] * self.T,
            hands=[[0] * self.T for _ in range(n)],
            scores_=[0] * n,
            supply=[FOLLOWERS] * n,
            phase="deal" if self.strategic else "draw",
            hidden=[],
        )
        return state

    def deserialize_state(self, text: object) -> CarcassonneState:
        return _deserialize(self, text)

    def __str__(self) -> str:
        return game_string(self.name, self._params)

    def __repr__(self) -> str:
        return f"CarcassonneGame({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CarcassonneGame) and other._params == self._params

    def __hash__(self) -> int:
        return hash(str(self))


# ---------------------------------------------------------------------------------------------------------
# The state
# ---------------------------------------------------------------------------------------------------------

Node = tuple[int, int]  # (board slot, feature index)


@dataclass
class CarcassonneState:
    game: CarcassonneGame
    board: list[tuple[int, int, int, int]]  # (type, x, y, r) in placement order
    cells: dict[tuple[int, int], int]  # (x, y) -> slot
    followers: dict[int, tuple[int, int]]  # slot -> (feature, seat)
    pile: list[int]
    set_aside: list[int]
    hands: list[list[int]]
    scores_: list[int]
    supply: list[int]
    phase: str = "draw"
    current: int = 0
    tile: int = -1
    to_draw: int = 0
    actions: list[int] = field(default_factory=list)
    # Per history entry: the seat a chance outcome put a hidden tile to, or -1; None until recomputed
    # (after deserialization, §8.2).
    hidden: list[int] | None = None

    # ----- whose move -----

    def current_player(self) -> int:
        if self.phase == "over":
            return TERMINAL
        if self.phase in ("deal", "draw"):
            return CHANCE
        return self.current

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def is_chance_node(self) -> bool:
        return self.phase in ("deal", "draw")

    # ----- piles (§4.1 the current pile) -----

    def _river_left(self) -> int:
        return sum(self.pile[t] for t in RIVER if t != LAKE)

    def _current_pile(self) -> list[int]:
        """The counts a draw comes from: river tiles, then the lake, then the land tiles."""
        pile = [0] * self.game.T
        if self.phase == "deal":
            for t in self.game.land:
                pile[t] = self.pile[t]
            return pile
        if self._river_left() > 0:
            for t in RIVER:
                if t != LAKE:
                    pile[t] = self.pile[t]
        elif self.pile[LAKE] > 0:
            pile[LAKE] = self.pile[LAKE]
        else:
            for t in self.game.land:
                pile[t] = self.pile[t]
        return pile

    def _land_left(self) -> int:
        return sum(self.pile[t] for t in self.game.land)

    def chance_weights(self) -> list[tuple[int, int]]:
        if not self.is_chance_node():
            return []
        pile = self._current_pile()
        return [(t, pile[t]) for t in range(self.game.T) if pile[t] > 0]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        weights = self.chance_weights()
        total = sum(w for _, w in weights)
        return [(a, w / total) for a, w in weights]

    def random_step(self, rng: RngLike) -> int:
        """DESIGN's random step with ``rng`` (either engine's Rng), applied; returns the action taken."""
        return random_step(self, rng)

    # ----- placement (§5.1, §4.2) -----

    def _edges_match(self, t: int, x: int, y: int, r: int) -> bool:
        """The cell is empty, in the window, has a neighbour, and every touching edge has the same letter."""
        if (x, y) in self.cells or not self.game.in_window(x, y):
            return False
        mine = self.game.geo(t, r).edges
        neighbours = 0
        for d in range(4):
            slot = self.cells.get((x + DX[d], y + DY[d]))
            if slot is None:
                continue
            neighbours += 1
            nt, _, _, nr = self.board[slot]
            if self.game.geo(nt, nr).edges[(d + 2) % 4] != mine[d]:
                return False
        return neighbours > 0

    def _river_status(self) -> tuple[tuple[int, int, int] | None, int]:
        """The river's open end (x, y, board edge) or None, and its previous turn (+1 right, -1 left, 0)."""
        open_end: tuple[int, int, int] | None = None
        last_turn = 0
        for t, x, y, r in self.board:
            if self.game.tiles[t].set != "river":
                continue
            river_edges = [d for d in range(4) if self.game.geo(t, r).edges[d] == "W"]
            if t == SPRING or open_end is None:
                open_end = (x, y, river_edges[0])
                continue
            in_edge = (open_end[2] + 2) % 4
            others = [d for d in river_edges if d != in_edge]
            if not others:
                open_end = None  # the lake
                continue
            turn = _turn_of(in_edge, others[0])
            if turn != 0:
                last_turn = turn
            open_end = (x, y, others[0])
        return open_end, last_turn

    def _river_ok(
        self, t: int, x: int, y: int, r: int, status: tuple[tuple[int, int, int] | None, int]
    ) -> bool:
        """§4.2: a river tile continues the river at its open end and does not turn the same way twice."""
        open_end, last_turn = status
        if open_end is None:
            return False
        ox, oy, od = open_end
        if (x, y) != (ox + DX[od], oy + DY[od]):
            return False
        edges = self.game.geo(t, r).edges
        in_edge = (od + 2) % 4
        if edges[in_edge] != "W":
            return False
        others = [d for d in range(4) if edges[d] == "W" and d != in_edge]
        if others:
            turn = _turn_of(in_edge, others[0])
            if turn != 0 and turn == last_turn:
                return False
        return self._edges_match(t, x, y, r)

    def placements(self, t: int) -> list[int]:
        """The legal placement action ids of tile type t, sorted."""
        game = self.game
        result = []
        if self.game.tiles[t].set == "river":
            status = self._river_status()
            if status[0] is None:
                return []
            ox, oy, od = status[0]
            x, y = ox + DX[od], oy + DY[od]
            for r in range(4):
                if self._river_ok(t, x, y, r, status):
                    result.append(game.place_id(x, y, r))
            return result
        candidates: set[tuple[int, int]] = set()
        for x, y in self.cells:
            for d in range(4):
                cell = (x + DX[d], y + DY[d])
                if cell not in self.cells:
                    candidates.add(cell)
        for x, y in candidates:
            for r in range(4):
                if self._edges_match(t, x, y, r):
                    result.append(game.place_id(x, y, r))
        return sorted(result)

    def _placeable(self, t: int) -> bool:
        return bool(self.placements(t))

    # ----- features (§5.2) -----

    def component(self, slot: int, k: int) -> tuple[set[Node], bool]:
        """The feature joined across tiles from feature k of the tile in ``slot``, and whether it is complete
        (city, road: no segment edge faces an empty cell; a field is never complete)."""
        kind = self.game.tiles[self.board[slot][0]].features[k].kind
        seen = {(slot, k)}
        stack = [(slot, k)]
        complete = kind in ("city", "road")
        while stack:
            s, f = stack.pop()
            t, x, y, r = self.board[s]
            geo = self.game.geo(t, r)
            if kind in ("city", "road"):
                for d in geo.feature_edges[f]:
                    ns = self.cells.get((x + DX[d], y + DY[d]))
                    if ns is None:
                        complete = False
                        continue
                    nt, _, _, nr = self.board[ns]
                    nf = self.game.geo(nt, nr).edge_feature[(d + 2) % 4]
                    if nf >= 0 and (ns, nf) not in seen:
                        seen.add((ns, nf))
                        stack.append((ns, nf))
            elif kind == "field":
                for h in geo.feature_halves[f]:
                    d = h // 2
                    ns = self.cells.get((x + DX[d], y + DY[d]))
                    if ns is None:
                        continue
                    nt, _, _, nr = self.board[ns]
                    nf = self.game.geo(nt, nr).half_feature[((h ^ 1) + 4) % 8]
                    if nf >= 0 and (ns, nf) not in seen:
                        seen.add((ns, nf))
                        stack.append((ns, nf))
        return seen, complete

    def _cloister_neighbours(self, slot: int) -> int:
        _, x, y, _ = self.board[slot]
        return sum(1 for dx, dy in NEIGHBOURS_8 if (x + dx, y + dy) in self.cells)

    def _owners(self, nodes: set[Node]) -> list[int]:
        """§6.1: the seats with the most followers (a positive count) on these nodes."""
        counts = [0] * self.game.players
        for slot, (k, seat) in self.followers.items():
            if (slot, k) in nodes:
                counts[seat] += 1
        best = max(counts)
        if best == 0:
            return []
        return [seat for seat in range(self.game.players) if counts[seat] == best]

    def _feature_points(self, nodes: set[Node], kind: str, complete: bool) -> int:
        tiles = len({slot for slot, _ in nodes})
        if kind == "road":
            return tiles
        pennants = sum(1 for slot, k in nodes if self.game.tiles[self.board[slot][0]].features[k].pennant)
        return (2 if complete else 1) * (tiles + pennants)

    def _award(self, nodes: set[Node], points: int, release: bool) -> None:
        for seat in self._owners(nodes):
            self.scores_[seat] += points
        if release:
            for slot in [s for s, (k, _) in self.followers.items() if (s, k) in nodes]:
                _, seat = self.followers.pop(slot)
                self.supply[seat] += 1

    def _score_placement(self) -> None:
        """§4.1 step 4: completed cities and roads through the new tile, completed cloisters around it."""
        slot = len(self.board) - 1
        t, x, y, _ = self.board[slot]
        done: set[Node] = set()
        for k, feat in enumerate(self.game.tiles[t].features):
            if feat.kind not in ("city", "road") or (slot, k) in done:
                continue
            nodes, complete = self.component(slot, k)
            done |= nodes
            if complete:
                self._award(nodes, self._feature_points(nodes, feat.kind, True), release=True)
        for dx, dy in ((0, 0),) + NEIGHBOURS_8:
            s = self.cells.get((x + dx, y + dy))
            if s is None:
                continue
            for k, feat in enumerate(self.game.tiles[self.board[s][0]].features):
                if feat.kind == "cloister" and self._cloister_neighbours(s) == 8:
                    self._award({(s, k)}, 9, release=True)

    def _final_scoring(self) -> None:
        """§6.2: incomplete cities, roads, cloisters with followers, then fields with farmers.

        READING: the followers stay on the board at the end (the contract returns them only on completion;
        the page says farmers stay on the board)."""
        done: set[Node] = set()
        fields: list[set[Node]] = []
        for slot in sorted(self.followers):
            k, _ = self.followers[slot]
            if (slot, k) in done:
                continue
            kind = self.game.tiles[self.board[slot][0]].features[k].kind
            if kind == "cloister":
                done.add((slot, k))
                self._award({(slot, k)}, 1 + self._cloister_neighbours(slot), release=False)
                continue
            nodes, complete = self.component(slot, k)
            done |= nodes
            if kind == "field":
                fields.append(nodes)
            elif not complete:
                self._award(nodes, self._feature_points(nodes, kind, False), release=False)
        city_of: dict[Node, tuple[frozenset[Node], bool]] = {}
        for nodes in fields:
            touched: set[frozenset[Node]] = set()
            for slot, k in nodes:
                for c in self.game.tiles[self.board[slot][0]].features[k].cities:
                    if (slot, c) not in city_of:
                        city_nodes, complete = self.component(slot, c)
                        frozen = frozenset(city_nodes)
                        for node in city_nodes:
                            city_of[node] = (frozen, complete)
                    frozen, complete = city_of[(slot, c)]
                    if complete:
                        touched.add(frozen)
            self._award(nodes, 3 * len(touched), release=False)

    # ----- legal actions -----

    def _follower_ok(self, k: int) -> bool:
        slot = len(self.board) - 1
        if self.supply[self.current] == 0 or k >= len(self.game.tiles[self.board[slot][0]].features):
            return False
        nodes, _ = self.component(slot, k)
        return not any((s, f) in nodes for s, (f, _) in self.followers.items())

    def legal_actions(self) -> list[int]:
        game = self.game
        if self.phase == "over":
            return []
        if self.is_chance_node():
            return [t for t, _ in self.chance_weights()]
        if self.phase == "select":
            return [game.SELECT + t for t in range(self.game.T) if self.hands[self.current][t] > 0]
        if self.phase == "place":
            return self.placements(self.tile)
        # follower
        features = len(self.game.tiles[self.board[-1][0]].features)
        return [game.NO_FOLLOWER] + [game.FOLLOWER + k for k in range(features) if self._follower_ok(k)]

    def legal_actions_mask(self) -> np.ndarray:
        size = self.game.max_chance_outcomes() if self.is_chance_node() else self.game.num_distinct_actions()
        mask = np.zeros(size, dtype=np.int8)
        for action in self.legal_actions():
            mask[action] = 1
        return mask

    # ----- applying actions -----

    def apply_action(self, action: object) -> None:
        player = self.current_player()
        value = _as_int(action)
        if value is None or player == TERMINAL or value not in self.legal_actions():
            raise IllegalActionError(
                f"{GAME_NAME}: action {action!r} is not legal for seat {player} ({_label(player)}) now"
            )
        hidden = self._hidden_list()
        if player == CHANCE:
            receiver = self._apply_chance(value)
        else:
            receiver = -1
            self._apply_decision(value)
        self.actions.append(value)
        hidden.append(receiver)
        self.hidden = hidden

    def _apply_chance(self, t: int) -> int:
        """Returns the seat the tile went to, hidden from the others, or -1."""
        game = self.game
        self.pile[t] -= 1
        if self.phase == "deal":
            seat = self.current
            self.hands[seat][t] += 1
            if sum(self.hands[seat]) == 3 or self._land_left() == 0:
                if seat == game.players - 1 or self._land_left() == 0:
                    # READING: with fewer land tiles than 3 per seat, the deal stops when the pile is empty.
                    self._begin_turn(0)
                else:
                    self.current = seat + 1
            return seat
        if game.strategic and self.game.tiles[t].set != "river":
            seat = self.current
            self.hands[seat][t] += 1
            if self.to_draw > 0:
                self.to_draw -= 1
            if self._land_left() == 0:
                self.to_draw = 0
            if self.to_draw == 0:
                self._check_hand()
            return seat
        # A tile placed at once (base game, or a river tile): §4.1 step 1.
        if self._placeable(t):
            self.tile = t
            self.phase = "place"
        else:
            self.set_aside[t] += 1
            if game.strategic and self._river_left() == 0 and self.pile[LAKE] == 0:
                # READING: the river is used up by a set-aside tile: the seat goes on with a land turn.
                self._begin_land_turn(self.current)
            elif sum(self.pile) == 0:
                self._end_game()
        return -1

    def _apply_decision(self, action: int) -> None:
        game = self.game
        if self.phase == "select":
            t = action - game.SELECT
            self.hands[self.current][t] -= 1
            self.tile = t
            self.phase = "place"
        elif self.phase == "place":
            x, y, r = game.place_of(action)
            self.board.append((self.tile, x, y, r))
            self.cells[(x, y)] = len(self.board) - 1
            self.tile = -1
            self.phase = "follower"
        else:
            if action != game.NO_FOLLOWER:
                self.followers[len(self.board) - 1] = (action - game.FOLLOWER, self.current)
                self.supply[self.current] -= 1
            self._score_placement()
            self._end_turn()

    def _check_hand(self) -> None:
        """§4.3: set aside the unplaceable tiles of the hand and draw replacements, then select."""
        hand = self.hands[self.current]
        for t in range(self.game.T):
            if hand[t] > 0 and not self._placeable(t):
                self.set_aside[t] += hand[t]
                self.to_draw += hand[t]
                hand[t] = 0
        if self._land_left() == 0:
            self.to_draw = 0
        if self.to_draw > 0:
            self.phase = "draw"
        elif sum(hand) == 0:
            self._end_turn()
        else:
            self.phase = "select"

    def _begin_land_turn(self, seat: int) -> None:
        self.current = seat
        self.to_draw = 0
        if self._land_left() > 0:
            self.phase = "draw"
        else:
            self._check_hand()

    def _begin_turn(self, seat: int) -> None:
        self.current = seat
        if not self.game.strategic or self._river_left() > 0 or self.pile[LAKE] > 0:
            self.phase = "draw"
        else:
            self._begin_land_turn(seat)

    def _end_turn(self) -> None:
        game = self.game
        n = game.players
        if not game.strategic:
            if sum(self.pile) == 0:
                self._end_game()
            else:
                self._begin_turn((self.current + 1) % n)
            return
        if sum(self.pile) == 0 and not any(any(hand) for hand in self.hands):
            self._end_game()
            return
        nxt = (self.current + 1) % n
        while sum(self.pile) == 0 and not any(self.hands[nxt]):
            nxt = (nxt + 1) % n
        self._begin_turn(nxt)

    def _end_game(self) -> None:
        self.tile = -1
        self.to_draw = 0
        self._final_scoring()
        self.phase = "over"

    # ----- results -----

    def returns(self) -> list[float]:
        n = self.game.players
        if self.phase != "over":
            return [0.0] * n
        best = max(self.scores_)
        winners = [s for s in range(n) if self.scores_[s] == best]
        return [1.0 / len(winners) if s in winners else 0.0 for s in range(n)]

    def scores(self) -> list[float]:
        return [float(s) for s in self.scores_]

    def history(self) -> list[int]:
        return list(self.actions)

    def clone(self) -> CarcassonneState:
        return CarcassonneState(
            game=self.game,
            board=list(self.board),
            cells=dict(self.cells),
            followers=dict(self.followers),
            pile=list(self.pile),
            set_aside=list(self.set_aside),
            hands=[list(h) for h in self.hands],
            scores_=list(self.scores_),
            supply=list(self.supply),
            phase=self.phase,
            current=self.current,
            tile=self.tile,
            to_draw=self.to_draw,
            actions=list(self.actions),
            hidden=None if self.hidden is None else list(self.hidden),
        )

    # ----- hidden information (§8) -----

    def _hidden_list(self) -> list[int]:
        """Who received each history entry as a hidden tile. After deserialization it is recomputed by
        replaying the history (the serialization does not hold it)."""
        if self.hidden is not None:
            return self.hidden
        if not self.game.strategic:
            self.hidden = [-1] * len(self.actions)
            return self.hidden
        replay = self.game.new_initial_state()
        try:
            for action in self.actions:
                replay.apply_action(action)
            ok = replay.serialize() == self.serialize()
        except IllegalActionError:
            ok = False
        if ok and replay.hidden is not None:
            self.hidden = list(replay.hidden)
        else:
            # READING: a hand-made history that does not replay: every token that could be a land tile is
            # hidden from everyone (nothing leaks).
            self.hidden = [-2 if a < self.game.T else -1 for a in self.actions]
        return self.hidden

    def unseen(self, p: int) -> list[int]:
        """§8.1: per type, the tiles p cannot see: the pile plus the other seats' hands."""
        return [
            self.pile[t] + sum(self.hands[s][t] for s in range(self.game.players) if s != p)
            for t in range(self.game.T)
        ]

    def resample_from_infostate(self, player: object, rng: object = None) -> CarcassonneState:
        p = self._check_seat(player)
        twin = self.clone()
        if not self.game.strategic:
            return twin
        below = getattr(rng, "below", None)
        if not callable(below):
            raise TypeError("resample_from_infostate needs an Rng")
        # READING: the pool is p's unseen *land* tiles; the river tiles left stay in the pile (a hand holds
        # land tiles only; the river pile is no secret). Identical to §8.3 once the river is placed.
        pool = [self.pile[t] if t in self.game.land else 0 for t in range(self.game.T)]
        for s in range(self.game.players):
            if s != p:
                for t in self.game.land:
                    pool[t] += self.hands[s][t]
        for s in range(self.game.players):
            if s == p:
                continue
            size = sum(self.hands[s])
            new_hand = [0] * self.game.T
            for _ in range(size):
                r = int(below(sum(pool)))
                running = 0
                for t in range(self.game.T):
                    running += pool[t]
                    if running > r:
                        new_hand[t] += 1
                        pool[t] -= 1
                        break
            twin.hands[s] = new_hand
        for t in self.game.land:
            twin.pile[t] = pool[t]
        return twin

    # ----- notation (§7) -----

    def _follower_text(self, k: int) -> str:
        if self.phase == "follower" and k < len(self.game.tiles[self.board[-1][0]].features):
            t, _, _, r = self.board[-1]
            feat = self.game.tiles[t].features[k]
            geo = self.game.geo(t, r)
            if feat.kind == "cloister":
                return "follower cloister"
            if feat.kind == "field":
                return f"follower field {HALF_NAMES[geo.feature_halves[k][0]]}"
            return f"follower {feat.kind} {EDGE_NAMES[geo.feature_edges[k][0]]}"
        return f"follower #{k}"

    def action_to_string(self, action: object) -> str:
        game = self.game
        value = _as_int(action)
        if self.is_chance_node():
            if value is None or not 0 <= value < self.game.T:
                raise IllegalActionError(
                    f"{GAME_NAME}: chance outcome {action!r} is out of range 0..{self.game.T - 1}"
                )
            return f"draw {self.game.tile_names[value]}"
        if value is None or not 0 <= value < game.num_distinct_actions():
            raise IllegalActionError(
                f"{GAME_NAME}: action {action!r} is out of range 0..{game.num_distinct_actions() - 1} "
                f"(seat {self.current_player()})"
            )
        if value < game.P:
            x, y, r = game.place_of(value)
            return f"place {x},{y} {ROTATION_NAMES[r]}"
        if value == game.NO_FOLLOWER:
            return "no follower"
        if value < game.SELECT:
            return self._follower_text(value - game.FOLLOWER)
        return f"tile {self.game.tile_names[value - game.SELECT]}"

    def string_to_action(self, text: object) -> int:
        if not isinstance(text, str):
            raise InvalidNotationError(
                f"{GAME_NAME}: an action text must be a str, not {type(text).__name__}"
            )
        key = fold_white_space(text)
        game = self.game
        names = {name.lower(): t for t, name in enumerate(game.tile_names)}
        bad = InvalidNotationError(f"{GAME_NAME}: cannot parse action {text!r}")
        if self.is_chance_node():
            name = key[5:] if key.startswith("draw ") else key
            if name in names:
                return names[name]
            raise bad
        match = re.fullmatch(r"place ([+-]?[0-9]+) ?, ?([+-]?[0-9]+) r(0|90|180|270)", key)
        if match:
            xs, ys = match.group(1), match.group(2)
            if len(xs) > 12 or len(ys) > 12 or not game.in_window(int(xs), int(ys)):
                raise InvalidNotationError(f"{GAME_NAME}: {text!r} lies outside the board window")
            return game.place_id(int(xs), int(ys), ("0", "90", "180", "270").index(match.group(3)))
        if key == "no follower":
            return game.NO_FOLLOWER
        match = re.fullmatch(r"follower #([+-]?[0-9]+)", key)
        if match:
            digits = match.group(1)
            if len(digits) <= 4 and 0 <= int(digits) < K:
                return game.FOLLOWER + int(digits)
            raise bad
        match = re.fullmatch(r"follower (city|road|field|cloister)(?: ([a-z]+))?", key)
        if match and self.phase == "follower":
            kind, where = match.group(1), match.group(2)
            t, _, _, r = self.board[-1]
            geo = self.game.geo(t, r)
            for k, feat in enumerate(self.game.tiles[t].features):
                if feat.kind != kind:
                    continue
                if kind == "cloister" and where is None:
                    return game.FOLLOWER + k
                if kind in ("city", "road") and where is not None:
                    if (
                        where.upper() in EDGE_NAMES
                        and EDGE_NAMES.index(where.upper()) in geo.feature_edges[k]
                    ):
                        return game.FOLLOWER + k
                if kind == "field" and where is not None:
                    if (
                        where.upper() in HALF_NAMES
                        and HALF_NAMES.index(where.upper()) in geo.feature_halves[k]
                    ):
                        return game.FOLLOWER + k
            raise bad
        if key.startswith("tile ") and key[5:] in names:
            return game.SELECT + names[key[5:]]
        raise bad

    # ----- observations (§8) -----

    def _check_seat(self, player: object) -> int:
        value = _as_int(player)
        if value is None or not 0 <= value < self.game.players:
            raise InvalidStateError(f"seat {player!r} out of range 0..{self.game.players - 1}")
        return value

    def observation_tensor(self, player: object) -> np.ndarray:
        p = self._check_seat(player)
        game = self.game
        n = game.players

        def rel(seat: int) -> int:
            return (seat - p) % n

        per_slot = 7 + self.game.T + K + n
        board = np.zeros(((game.R + 1), per_slot), dtype=np.float32)
        for slot, (t, x, y, r) in enumerate(self.board):
            row = board[slot]
            row[0], row[1], row[2] = 1, x, y
            row[3 + t] = 1
            row[3 + self.game.T + r] = 1
            if slot in self.followers:
                k, seat = self.followers[slot]
                row[7 + self.game.T + k] = 1
                row[7 + self.game.T + K + rel(seat)] = 1
        values: list[float] = []
        values.extend(self.scores_[(p + i) % n] for i in range(n))
        values.extend(self.supply[(p + i) % n] for i in range(n))
        values.extend(sum(self.hands[(p + i) % n]) if game.strategic else 0 for i in range(n))
        now = [0.0] * n
        if self.current_player() >= 0:
            now[rel(self.current)] = 1
        values.extend(now)
        values.extend(1.0 if self.phase == ph else 0.0 for ph in PHASES)
        values.extend(1.0 if self.phase == "place" and self.tile == t else 0.0 for t in range(self.game.T))
        values.extend(self.unseen(p))
        values.extend(self.set_aside)
        values.extend(self.hands[p])
        return np.concatenate([board.reshape(-1), np.asarray(values, dtype=np.float32)])

    def observation_string(self, player: object) -> str:
        p = self._check_seat(player)
        lines = [
            f"phase {self.phase}, {_label(self.current_player())}, turn of seat {self.current}",
            "scores "
            + " ".join(str(s) for s in self.scores_)
            + ", followers "
            + " ".join(map(str, self.supply)),
        ]
        if self.phase == "place":
            lines.append(f"tile to place: {self.game.tile_names[self.tile]}")
        for slot, (t, x, y, r) in enumerate(self.board):
            text = f"  {slot}: {self.game.tile_names[t]} at {x},{y} {ROTATION_NAMES[r]}"
            if slot in self.followers:
                k, seat = self.followers[slot]
                text += f", follower of seat {seat} on #{k} ({self.game.tiles[t].features[k].kind})"
            lines.append(text)
        if self.game.strategic:
            lines.append("hand sizes " + " ".join(str(sum(h)) for h in self.hands))
            lines.append("your hand: " + _describe(self.game.tile_names, self.hands[p]))
        lines.append("set aside: " + _describe(self.game.tile_names, self.set_aside))
        lines.append("unseen: " + _describe(self.game.tile_names, self.unseen(p)))
        return "\n".join(lines)

    def information_state_string(self, player: object) -> str:
        p = self._check_seat(player)
        hidden = self._hidden_list()
        tokens = ["?" if h != -1 and h != p else str(a) for a, h in zip(self.actions, hidden, strict=True)]
        return f"seat={p} history=" + ",".join(tokens)

    # ----- serialization (§9) -----

    def to_json_object(self) -> dict[str, object]:
        return {
            "board": [list(entry) for entry in self.board],
            "current": self.current,
            "followers": [[slot, k, seat] for slot, (k, seat) in sorted(self.followers.items())],
            "game": GAME_NAME,
            "hands": [list(h) for h in self.hands],
            "history": list(self.actions),
            "params": self.game.params,
            "phase": self.phase,
            "pile": list(self.pile),
            "scores": list(self.scores_),
            "set_aside": list(self.set_aside),
            "supply": list(self.supply),
            "tile": self.tile,
            "to_draw": self.to_draw,
            "version": SERIAL_VERSION,
        }

    def serialize(self) -> str:
        return json.dumps(self.to_json_object(), sort_keys=True, separators=(",", ":"))

    def __str__(self) -> str:
        return self.observation_string(self.current)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CarcassonneState) and other.serialize() == self.serialize()

    __hash__ = None  # type: ignore[assignment]


def _turn_of(in_edge: int, out_edge: int) -> int:
    """+1 for a right turn, -1 for a left turn, 0 straight on (§4.2)."""
    flow = (in_edge + 2) % 4
    if out_edge == (flow + 1) % 4:
        return 1
    if out_edge == (flow + 3) % 4:
        return -1
    return 0


def _label(player: int) -> str:
    if player == CHANCE:
        return "chance"
    if player == TERMINAL:
        return "terminal"
    return f"seat {player}"


def _describe(names: tuple[str, ...], counts: list[int]) -> str:
    parts = [f"{names[t]}x{c}" for t, c in enumerate(counts) if c > 0]
    return " ".join(parts) if parts else "-"


# ---------------------------------------------------------------------------------------------------------
# Deserialization (§9)
# ---------------------------------------------------------------------------------------------------------

_KEYS = frozenset(
    {
        "board",
        "current",
        "followers",
        "game",
        "hands",
        "history",
        "params",
        "phase",
        "pile",
        "scores",
        "set_aside",
        "supply",
        "tile",
        "to_draw",
        "version",
    }
)


_no_duplicate_keys = no_duplicate_keys(f"{GAME_NAME}: bad serialized state: ")


def _bad(message: str) -> InvalidStateError:
    return InvalidStateError(f"{GAME_NAME}: bad serialized state: {message}")


def _int_list(value: object, size: int | None, what: str) -> list[int]:
    if not isinstance(value, list) or (size is not None and len(value) != size):
        raise _bad(f"{what} must be a list" + (f" of {size} ints" if size is not None else ""))
    for item in value:
        if not _is_int(item):
            raise _bad(f"{what} holds {item!r}, not an int")
    return list(value)


def _get_int(obj: dict[str, object], key: str, low: int, high: int) -> int:
    value = obj[key]
    if not _is_int(value):
        raise _bad(f"{key} must be an int, got {value!r}")
    if not low <= value <= high:
        raise _bad(f"{key} = {value} is out of range {low}..{high}")
    return value


def _deserialize(game: CarcassonneGame, text: object) -> CarcassonneState:
    if not isinstance(text, str):
        raise InvalidStateError(f"{GAME_NAME}: a serialized state must be a str, not {type(text).__name__}")
    try:
        obj = json.loads(text, object_pairs_hook=_no_duplicate_keys)
    except InvalidStateError:
        raise
    except Exception as error:  # JSONDecodeError, huge int literals, deep nesting, ...
        raise _bad(f"not valid JSON ({type(error).__name__})") from None
    if not isinstance(obj, dict):
        raise _bad("the state must be a JSON object")
    if obj.keys() != _KEYS:
        raise _bad(f"keys missing {sorted(_KEYS - obj.keys())} or extra {sorted(obj.keys() - _KEYS)}")
    if obj["game"] != GAME_NAME:
        raise _bad(f"game {obj['game']!r} is not {GAME_NAME!r}")
    if not _is_int(obj["version"]) or obj["version"] != SERIAL_VERSION:
        raise _bad(f"version {obj['version']!r} is not {SERIAL_VERSION}")
    if not same_params(obj["params"], game.params):
        raise _bad(f"params {obj['params']!r} differ from the game's {game.params!r}")
    n = game.players

    history = _int_list(obj["history"], None, "history")
    for action in history:
        if not 0 <= action < game.num_distinct_actions():
            raise _bad(f"history holds {action}, not an action id")
    current = _get_int(obj, "current", 0, n - 1)
    tile = _get_int(obj, "tile", -1, game.T - 1)
    to_draw = _get_int(obj, "to_draw", 0, 4)
    phase = obj["phase"]
    if not isinstance(phase, str) or phase not in PHASES:
        raise _bad(f"phase {phase!r} is not one of {PHASES}")
    pile = _int_list(obj["pile"], game.T, "pile")
    set_aside = _int_list(obj["set_aside"], game.T, "set_aside")
    scores = _int_list(obj["scores"], n, "scores")
    supply = _int_list(obj["supply"], n, "supply")
    hands_obj = obj["hands"]
    if not isinstance(hands_obj, list) or len(hands_obj) != n:
        raise _bad(f"hands must be a list of {n} lists")
    hands = [_int_list(h, game.T, "a hand") for h in hands_obj]
    for what, counts in [("pile", pile), ("set_aside", set_aside)] + [("a hand", h) for h in hands]:
        if any(c < 0 for c in counts):
            raise _bad(f"{what} holds a negative count")
    if any(not 0 <= s <= MAX_SCORE for s in scores):
        raise _bad(f"scores {scores} outside 0..{MAX_SCORE}")

    # The board, entry by entry, each a legal placement on the board before it.
    board_obj = obj["board"]
    if not isinstance(board_obj, list) or not board_obj:
        raise _bad("board must be a non-empty list")
    state = CarcassonneState(
        game=game,
        board=[],
        cells={},
        followers={},
        pile=pile,
        set_aside=set_aside,
        hands=hands,
        scores_=scores,
        supply=supply,
        phase=phase,
        current=current,
        tile=tile,
        to_draw=to_draw,
        actions=history,
        hidden=None,
    )
    for index, entry in enumerate(board_obj):
        t, x, y, r = _int_list(entry, 4, "a board entry")
        if t not in game.types:
            raise _bad(f"board entry {index}: type {t} is not of this game's sets")
        if not 0 <= r <= 3:
            raise _bad(f"board entry {index}: rotation {r} outside 0..3")
        if not game.in_window(x, y):
            raise _bad(f"board entry {index}: cell {x},{y} outside the window")
        if (x, y) in state.cells:
            raise _bad(f"board entry {index}: cell {x},{y} taken twice")
        if index == 0:
            if (t, x, y, r) != (game.first_tile, 0, 0, 0):
                raise _bad("the first board entry is not the start tile at 0,0 r0")
        elif game.tiles[t].set == "river":
            if t == SPRING or not state._river_ok(t, x, y, r, state._river_status()):
                raise _bad(f"board entry {index} does not continue the river (§4.2)")
        elif not state._edges_match(t, x, y, r):
            raise _bad(f"board entry {index} is not a legal placement (§5.1)")
        state.board.append((t, x, y, r))
        state.cells[(x, y)] = index

    # Followers.
    followers_obj = obj["followers"]
    if not isinstance(followers_obj, list):
        raise _bad("followers must be a list")
    last = -1
    on_board = [0] * n
    for entry in followers_obj:
        slot, k, seat = _int_list(entry, 3, "a follower")
        if not last < slot < len(state.board):
            raise _bad(f"follower slot {slot} out of range or not ascending")
        last = slot
        features = game.tiles[state.board[slot][0]].features
        if not 0 <= k < len(features):
            raise _bad(f"follower feature {k} is not a feature of tile {slot}")
        if not 0 <= seat < n:
            raise _bad(f"follower seat {seat} out of range")
        kind = features[k].kind
        # READING: in phase follower the tile just placed is not scored yet (§4.1 step 4 comes after the
        # follower decision), so a feature it completes may still hold followers.
        newest = len(state.board) - 1
        _, nx, ny, _ = state.board[newest]
        _, fx, fy, _ = state.board[slot]
        pending = phase == "follower"
        if kind == "cloister" and state._cloister_neighbours(slot) == 8:
            if not (pending and abs(fx - nx) <= 1 and abs(fy - ny) <= 1):
                raise _bad(f"a follower on the completed cloister of tile {slot}")
        if kind in ("city", "road"):
            nodes, complete = state.component(slot, k)
            if complete and not (pending and any(s == newest for s, _ in nodes)):
                raise _bad(f"a follower on a completed {kind} (tile {slot})")
        state.followers[slot] = (k, seat)
        on_board[seat] += 1
    for s in range(n):
        if on_board[s] > FOLLOWERS:
            raise _bad(f"seat {s} has more than {FOLLOWERS} followers on the board")
        if supply[s] != FOLLOWERS - on_board[s]:
            raise _bad(f"supply of seat {s} is not {FOLLOWERS} - its followers on the board")

    # Conservation of tiles.
    placed_counts = [0] * game.T
    for t, _, _, _ in state.board:
        placed_counts[t] += 1
    for t in range(game.T):
        found = placed_counts[t] + pile[t] + set_aside[t] + sum(h[t] for h in hands) + (1 if tile == t else 0)
        if found != game.totals[t]:
            raise _bad(f"{game.tile_names[t]}: {found} tiles where there are {game.totals[t]}")
    if not game.strategic and any(any(h) for h in hands):
        raise _bad("hands hold tiles without the strategic variant")

    # Phases.
    if phase != "place" and tile != -1:
        raise _bad("tile is set outside the place phase")
    if phase == "place":
        if tile == -1 or not state._placeable(tile):
            raise _bad("the tile to place has no legal placement")
        if game.tiles[tile].set != "river" and (state._river_left() > 0 or pile[LAKE] > 0):
            raise _bad("a land tile to place while river tiles remain in the pile")
    if to_draw != 0 and not game.strategic:
        raise _bad("to_draw is set outside the strategic variant")
    if phase == "deal" and (not game.strategic or len(state.board) > 1):
        raise _bad("a deal outside the strategic variant or after the first tile")
    if phase in ("deal", "draw") and not state.chance_weights():
        # READING: a deal with an empty land pile is refused like a draw from an empty pile.
        raise _bad(f"phase {phase} with the current pile empty")
    if phase == "select":
        hand = hands[current]
        if (
            not game.strategic
            or not any(hand)
            or any(hand[t] and not state._placeable(t) for t in range(game.T))
        ):
            raise _bad("select outside the strategic variant, or with an empty hand or an unplaceable tile")
    if phase == "follower" and len(state.board) == 1:
        raise _bad("the follower phase with only the first tile on the board")
    if phase == "over" and (any(pile) or any(any(h) for h in hands)):
        raise _bad("the game is over with tiles left in the pile or a hand")
    return state


__all__ = ["TILE_NAMES", "TILES", "CarcassonneGame", "CarcassonneState", "placed"]
