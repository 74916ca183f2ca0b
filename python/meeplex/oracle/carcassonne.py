"""Carcassonne (base game, The River, the strategic variant, Inns & Cathedrals, Traders & Builders, The
Princess and the Dragon): the pure-Python reference implementation.

Written from the game-help page (``shared/rules/bga_carcassonne.txt``), the rule facts
(``shared/rules/facts/bga_games.md`` §1) and the contract ``docs/rules/carcassonne.md``; section numbers (§)
refer to that contract, "interp. N" to its numbered interpretations. The tile table is read from
``meeplex/data/carcassonne_tiles.json``.

Plain and slow on purpose: the board is a dict of placed tiles and every feature (city, road, field) is
found by a flood fill over the board when it is needed. Figures are kept by (slot, feature): with the magic
portal of The Princess and the Dragon a tile may hold several, one per feature (§12.5).

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
GOODS = ("wine", "grain", "cloth")  # Traders & Builders goods kinds, in the order of §11.6 and §11.7
GOODS_POINTS = 10  # §11.3: the most tokens of a kind
FIGURES = ("follower", "large", "builder", "pig")  # in the order of their id blocks (§7, §11.5)
_FIGURE_WORDS = {"follower": "follower", "large": "large follower", "builder": "builder", "pig": "pig"}
MAX_SCORE = 100000
DRAGON_STEPS = 6  # §12.3: the dragon makes up to 6 steps per move
EXTRA_FIGURES = 6  # §12.9: the observation's table of extra figures (one per portal tile at most)
FAIRY_TURN_POINTS = 1  # §12.6: at the start of the turn of the fairy's follower's owner
FAIRY_SCORE_POINTS = 3  # §12.6: when the fairy's follower's feature is scored (the final scoring too)
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
    princess: bool = False  # city (The Princess and the Dragon, §12.4)


@dataclass(frozen=True)
class TileType:
    name: str
    set: str  # base, river, inns_cathedrals, traders_builders or princess_dragon
    count: int
    edges: str  # N E S W as drawn
    features: tuple[Feature, ...]
    # The Princess and the Dragon's tile marks (§12.1).
    volcano: bool = False
    dragon: bool = False
    portal: bool = False


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
                    princess=bool(f.get("princess", False)),
                )
            )
        tiles.append(
            TileType(
                entry["name"],
                entry["set"],
                entry["count"],
                entry["edges"],
                tuple(features),
                volcano=bool(entry.get("volcano", False)),
                dragon=bool(entry.get("dragon", False)),
                portal=bool(entry.get("portal", False)),
            )
        )
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
# An expansion's parameter is the data file's set name (§1, §2).
EXPANSIONS = ("inns_cathedrals", "traders_builders", "princess_dragon")
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
        self.princess_dragon: bool = self._params.get("princess_dragon", False)
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
        # §11.5: the expansions' blocks follow the base ids, each present only with its expansion (-1 when
        # absent, never an id).
        base_end = self.P + 1 + K + self.T
        self.LARGE: int = base_end if self.inns_cathedrals else -1
        self.BUILDER: int = base_end + (K if self.inns_cathedrals else 0) if self.traders_builders else -1
        self.PIG: int = self.BUILDER + K if self.traders_builders else -1
        end = base_end + (K if self.inns_cathedrals else 0) + (2 * K if self.traders_builders else 0)
        # §12.8: the P&D blocks follow, over the S = R + 1 board slots: portal followers, portal large
        # followers (I&C only), the princess, the fairy, then the dragon's 4 steps (-1 when absent).
        self.S: int = self.R + 1
        pd = self.princess_dragon
        block = self.S * K
        self.PF: int = end if pd else -1
        self.PL: int = end + block if pd and self.inns_cathedrals else -1
        self.PR: int = end + block * (2 if self.inns_cathedrals else 1) if pd else -1
        self.FA: int = self.PR + block if pd else -1
        self.DR: int = self.FA + block if pd else -1
        if pd:
            end = self.DR + 4
        self._num_actions: int = end
        # The dragon types of the game (§12.1), and the volcano types.
        self.dragon_types: frozenset[int] = frozenset(t for t in range(self.T) if self.tiles[t].dragon)
        self.volcano_types: frozenset[int] = frozenset(t for t in range(self.T) if self.tiles[t].volcano)
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
        # §12.8: 12 dragon tiles of at most 6 steps each.
        return 4 * self.R + (72 if self.princess_dragon else 0)

    def slot_size(self) -> int:
        """Values per board slot of the observation (§8.1, §11.6)."""
        extra = (1 if self.inns_cathedrals else 0) + (2 if self.traders_builders else 0)
        extra += 3 if self.princess_dragon else 0  # §12.9: dragon, fairy, visited
        return 7 + self.T + K + self.players + extra

    def observation_shape(self) -> tuple[int, ...]:
        n = self.players
        extra = (n if self.inns_cathedrals else 0) + (5 * n + 2 if self.traders_builders else 0)
        if self.princess_dragon:
            # §12.9: phase dragon, steps left, volcano, the turn's seat, the fairy's feature, 6 extra figures.
            extra += 3 + n + K + EXTRA_FIGURES * (3 + K + n)
        return ((self.R + 1) * self.slot_size() + 4 * n + 6 + 4 * self.T + extra,)

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
            large_supply=[1 if self.inns_cathedrals else 0] * n,
            builder_supply=[1 if self.traders_builders else 0] * n,
            pig_supply=[1 if self.traders_builders else 0] * n,
            goods=[[0] * len(GOODS) for _ in range(n)],
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
    # The figures on the board, (slot, feature) -> seat. A tile holds one figure, except with the magic
    # portal of The Princess and the Dragon: then one per feature at most (§12.5).
    followers: dict[Node, int]
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
    # The expansions' figures (§11.1), (slot, feature) -> seat as ``followers``, and their supplies (0 or 1
    # per seat; all 0 without the expansion).
    large: dict[Node, int] = field(default_factory=dict)
    builders: dict[Node, int] = field(default_factory=dict)
    pigs: dict[Node, int] = field(default_factory=dict)
    large_supply: list[int] = field(default_factory=list)
    builder_supply: list[int] = field(default_factory=list)
    pig_supply: list[int] = field(default_factory=list)
    goods: list[list[int]] = field(default_factory=list)  # per seat: wine, grain, cloth tokens (§11.3)
    bonus: bool = False  # the current turn is a second tile (§11.3)
    again: bool = False  # a second tile follows this turn (set at placement, phase follower only)
    # The Princess and the Dragon (§12): the dragon's slot (-1 off the board); the slots visited in the
    # current move (phase dragon only, the start first); the fairy (slot, feature of the follower it is next
    # to), (slot, -1) next to nobody, (-1, -1) off the board; the seat whose turn it is, which differs from
    # ``current`` only in phase dragon (§12.3: each seat in turn chooses a step).
    dragon: int = -1
    dragon_visited: list[int] = field(default_factory=list)
    fairy: tuple[int, int] = (-1, -1)
    turn: int = 0

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
            return self._land_pile()
        if self._river_left() > 0:
            for t in RIVER:
                if t != LAKE:
                    pile[t] = self.pile[t]
        elif self.pile[LAKE] > 0:
            pile[LAKE] = self.pile[LAKE]
        else:
            return self._land_pile()
        return pile

    def _land_pile(self) -> list[int]:
        """The land tiles a land draw (deal, draw, replacement) comes from. §12.1: while no volcano is on
        the board the dragon tiles are not drawn, unless the land pile holds dragon tiles only."""
        game = self.game
        pile = [self.pile[t] if t in game.land else 0 for t in range(game.T)]
        if game.princess_dragon and not self._volcano_on_board():
            others = [0 if t in game.dragon_types else pile[t] for t in range(game.T)]
            if any(others):
                return others
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

    # ----- figures (§4.1 step 3, §11.1) -----

    def _claims(self) -> list[tuple[int, int, int, int]]:
        """The followers that claim features, normal and large: (slot, feature, seat, weight), by slot. A
        large follower counts as two in every majority (§11.1)."""
        claims = [(slot, k, seat, 1) for (slot, k), seat in self.followers.items()]
        claims += [(slot, k, seat, 2) for (slot, k), seat in self.large.items()]
        return sorted(claims)

    def _claimed(self, nodes: set[Node]) -> bool:
        """A follower (normal or large) is on these nodes; builders and pigs never claim (§11.1)."""
        return any((slot, k) in nodes for slot, k, _, _ in self._claims())

    def _has_follower_of(self, nodes: set[Node], seat: int) -> bool:
        return any((slot, k) in nodes and owner == seat for slot, k, owner, _ in self._claims())

    def _owners(self, nodes: set[Node]) -> list[int]:
        """§6.1: the seats with the most followers (a positive count) on these nodes."""
        counts = [0] * self.game.players
        for slot, k, seat, weight in self._claims():
            if (slot, k) in nodes:
                counts[seat] += weight
        best = max(counts)
        if best == 0:
            return []
        return [seat for seat in range(self.game.players) if counts[seat] == best]

    def _feature_points(self, nodes: set[Node], kind: str, complete: bool) -> int:
        """§6.1, with §11.2: a road with an inn scores 2 per tile complete and nothing incomplete; a city with
        a cathedral 3 per tile and pennant complete and nothing incomplete."""
        tiles = len({slot for slot, _ in nodes})
        features = [self.game.tiles[self.board[slot][0]].features[k] for slot, k in nodes]
        if kind == "road":
            if any(feat.inn for feat in features):
                return 2 * tiles if complete else 0
            return tiles
        pennants = sum(1 for feat in features if feat.pennant)
        if any(feat.cathedral for feat in features):
            return 3 * (tiles + pennants) if complete else 0
        return (2 if complete else 1) * (tiles + pennants)

    def _award(self, nodes: set[Node], points: int, release: bool) -> None:
        for seat in self._owners(nodes):
            self.scores_[seat] += points
        self._fairy_bonus(nodes)
        if release:
            # A completed feature: its followers and builders go back to their owners (§4.1 step 4, §11.3).
            for figures, supply in (
                (self.followers, self.supply),
                (self.large, self.large_supply),
                (self.builders, self.builder_supply),
            ):
                for node in [node for node in figures if node in nodes]:
                    supply[figures.pop(node)] += 1
            # §12.6: the fairy's follower has left; the fairy stays on its tile, next to nobody.
            if self.fairy[1] >= 0 and self.fairy not in self.followers and self.fairy not in self.large:
                self.fairy = (self.fairy[0], -1)

    def _fairy_bonus(self, nodes: set[Node]) -> None:
        """§12.6: a feature scored (during play or in the final scoring) holding the follower the fairy is
        next to gives that follower's owner 3 more, majority or not.
        READING: a feature is "scored" whenever it holds followers, so the fairy's follower in it always
        gives the 3 (its owner may still lose the majority and get nothing else)."""
        fairy_seat = self._fairy_seat()
        if fairy_seat >= 0 and self.fairy in nodes:
            self.scores_[fairy_seat] += FAIRY_SCORE_POINTS

    def _score_placement(self) -> None:
        """§4.1 step 4: completed cities and roads through the new tile, completed cloisters around it. The
        seat whose turn it is takes the goods of every city it completes (§11.3)."""
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
                if feat.kind == "city":
                    for node_slot, f in nodes:
                        goods = self.game.tiles[self.board[node_slot][0]].features[f].goods
                        if goods:
                            self.goods[self.current][GOODS.index(goods)] += 1
        for dx, dy in ((0, 0),) + NEIGHBOURS_8:
            s = self.cells.get((x + dx, y + dy))
            if s is None:
                continue
            for k, feat in enumerate(self.game.tiles[self.board[s][0]].features):
                if feat.kind == "cloister" and self._cloister_neighbours(s) == 8:
                    self._award({(s, k)}, 9, release=True)

    def _final_scoring(self) -> None:
        """§6.2: incomplete cities, roads, cloisters with followers, then fields with farmers, then the goods
        majorities (§11.3).

        READING: the followers stay on the board at the end (the contract returns them only on completion;
        the page says farmers stay on the board)."""
        done: set[Node] = set()
        fields: list[set[Node]] = []
        for slot, k, _, _ in self._claims():
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
            # §11.3: a seat winning the field with its pig in it scores 4 per city instead of 3.
            pig_seats = {seat for node, seat in self.pigs.items() if node in nodes}
            for seat in self._owners(nodes):
                self.scores_[seat] += (4 if seat in pig_seats else 3) * len(touched)
            self._fairy_bonus(nodes)
        for g in range(len(GOODS)):
            best = max(tokens[g] for tokens in self.goods)
            if best > 0:
                for seat in range(self.game.players):
                    if self.goods[seat][g] == best:
                        self.scores_[seat] += GOODS_POINTS

    # ----- legal actions -----

    def _figure_ok(self, figure: str, k: int) -> bool:
        """§4.1 step 3 and §11.4: may the seat put this figure on feature k of the tile just placed?"""
        game = self.game
        slot = len(self.board) - 1
        features = game.tiles[self.board[slot][0]].features
        if not 0 <= k < len(features):
            return False
        if game.princess_dragon and self._no_figure_slot(slot):
            return False  # §12.2: nothing on a volcano tile
        seat = self.current
        kind = features[k].kind
        if figure == "follower":
            if self.supply[seat] == 0:
                return False
        elif figure == "large":
            if not game.inns_cathedrals or self.large_supply[seat] == 0:
                return False
        elif figure == "builder":
            if not game.traders_builders or self.builder_supply[seat] == 0 or kind not in ("city", "road"):
                return False
        elif not game.traders_builders or self.pig_supply[seat] == 0 or kind != "field":  # pig
            return False
        nodes, _ = self.component(slot, k)
        if figure in ("follower", "large"):
            return not self._claimed(nodes)
        # A builder joins a road or city, a pig a field, holding a follower of the seat (§11.3).
        return self._has_follower_of(nodes, seat)

    def _figure_base(self, figure: str) -> int:
        """The first id of a figure's block (§7, §11.5)."""
        game = self.game
        return {"follower": game.FOLLOWER, "large": game.LARGE, "builder": game.BUILDER, "pig": game.PIG}[
            figure
        ]

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
        if self.phase == "dragon":
            return [game.DR + d for d in self._dragon_steps()]
        # follower: the blocks are in id order (§11.5, §12.8), so the list is sorted
        actions = [game.NO_FOLLOWER]
        for figure in FIGURES:
            actions += [self._figure_base(figure) + k for k in range(K) if self._figure_ok(figure, k)]
        if game.princess_dragon:
            actions += self._pd_actions()
        return actions

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
            if game.tiles[self.tile].volcano:
                self.dragon = len(self.board) - 1  # §12.2: the dragon appears on the volcano at once
            self.tile = -1
            self.phase = "follower"
            self.again = self._continues_builder()
        elif self.phase == "dragon":
            self._dragon_step(action - game.DR)
            if self._move_goes_on():
                # §12.3: the next seat in turn chooses the next step.
                self.current = (self.turn + len(self.dragon_visited) - 1) % game.players
            else:
                self._finish_turn()
        else:
            self._apply_follower_step(action)
            self.turn = self.current
            if game.tiles[self.board[-1][0]].dragon and self.dragon >= 0:
                # §12.3: a dragon tile with the dragon on the board: the move comes before the scoring,
                # and the placer chooses the first step.
                self.dragon_visited = [self.dragon]
                if self._move_goes_on():
                    self.phase = "dragon"
                    return
            self._finish_turn()

    def _apply_follower_step(self, action: int) -> None:
        """§11.4 and §12.4-§12.6: the one option of the follower step."""
        if action == self.game.NO_FOLLOWER:
            return
        word, slot, k = self._pd_of(action)
        if word in ("follower", "large"):  # the portal (§12.5)
            figures, supply = self._figures(word)
            figures[(slot, k)] = self.current
            supply[self.current] -= 1
        elif word == "princess":  # §12.4: the follower returns, then §12.7
            self._remove_figure((slot, k))
            self._return_orphans()
        elif word == "fairy":  # §12.6
            self.fairy = (slot, k)
        else:
            figure, k = self._figure_of(action)
            figures, supply = self._figures(figure)
            figures[(len(self.board) - 1, k)] = self.current
            supply[self.current] -= 1

    def _figures(self, figure: str) -> tuple[dict[Node, int], list[int]]:
        """A figure kind's board entries and supply."""
        return {
            "follower": (self.followers, self.supply),
            "large": (self.large, self.large_supply),
            "builder": (self.builders, self.builder_supply),
            "pig": (self.pigs, self.pig_supply),
        }[figure]

    def _figure_of(self, action: int) -> tuple[str, int]:
        """(figure, feature) of a follower-step id other than ``no follower``; ("", -1) for any other id."""
        for figure in FIGURES:
            base = self._figure_base(figure)
            if base >= 0 and base <= action < base + K:
                return figure, action - base
        return "", -1

    def _continues_builder(self) -> bool:
        """§11.3 the second tile: before this placement the seat's builder was in a road or city that a
        segment of the new tile joins, and this tile is not itself a second tile. Checked on the board after
        the placement: the builder's component reaches the new tile exactly when the new tile joined it."""
        if not self.game.traders_builders or self.bonus:
            return False
        newest = len(self.board) - 1
        for (slot, k), seat in self.builders.items():
            if seat == self.current:
                nodes, _ = self.component(slot, k)
                return any(s == newest for s, _ in nodes)
        return False

    # ----- The Princess and the Dragon (§12) -----

    def _volcano_on_board(self) -> bool:
        return any(self.game.tiles[t].volcano for t, _, _, _ in self.board)

    def _no_figure_slot(self, slot: int) -> bool:
        """§12.2: no figure is ever placed on a volcano tile, nor on the tile where the dragon stands."""
        return self.game.tiles[self.board[slot][0]].volcano or slot == self.dragon

    def _fairy_seat(self) -> int:
        """The owner of the follower (normal or large) the fairy is next to, or -1 (§12.6)."""
        if self.fairy[1] < 0:
            return -1
        if self.fairy in self.followers:
            return self.followers[self.fairy]
        return self.large.get(self.fairy, -1)

    def _open_feature(self, slot: int, k: int) -> bool:
        """§12.5: feature k of ``slot`` is not complete and its component holds no follower (normal or
        large). A field is never complete; a cloister is complete with its 8 neighbours."""
        kind = self.game.tiles[self.board[slot][0]].features[k].kind
        if kind == "cloister":
            return self._cloister_neighbours(slot) < 8 and not self._claimed({(slot, k)})
        nodes, complete = self.component(slot, k)
        return not complete and not self._claimed(nodes)

    def _portal_ok(self, figure: str, slot: int, k: int) -> bool:
        """§12.5: a follower (or large follower) from the supply through the portal of the tile just placed,
        on a free, incomplete feature of an earlier tile that is neither a volcano nor the dragon's tile."""
        game = self.game
        newest = len(self.board) - 1
        if not game.princess_dragon or self.phase != "follower":
            return False
        if not game.tiles[self.board[newest][0]].portal:
            return False
        if not 0 <= slot < newest or not 0 <= k < len(game.tiles[self.board[slot][0]].features):
            return False
        if figure == "follower" and self.supply[self.current] == 0:
            return False
        if figure == "large" and (not game.inns_cathedrals or self.large_supply[self.current] == 0):
            return False
        return not self._no_figure_slot(slot) and self._open_feature(slot, k)

    def _princess_targets(self) -> list[Node]:
        """§12.4: the followers (normal or large, any seat's) in the city of a princess segment of the tile
        just placed, as joined by this placement."""
        newest = len(self.board) - 1
        targets: set[Node] = set()
        for k, feat in enumerate(self.game.tiles[self.board[newest][0]].features):
            if feat.kind == "city" and feat.princess:
                nodes, _ = self.component(newest, k)
                targets |= {node for node in nodes if node in self.followers or node in self.large}
        return sorted(targets)

    def _fairy_targets(self) -> list[Node]:
        """§12.6: next to any follower (normal or large) of the seat, except the one the fairy is next to."""
        seat = self.current
        nodes = [node for node, owner in self.followers.items() if owner == seat]
        nodes += [node for node, owner in self.large.items() if owner == seat]
        return sorted(node for node in nodes if node != self.fairy)

    def _dragon_steps(self) -> list[int]:
        """§12.3: the directions to an orthogonally adjacent tile not yet visited in this move and without
        the fairy."""
        _, x, y, _ = self.board[self.dragon]
        steps = []
        for d in range(4):
            slot = self.cells.get((x + DX[d], y + DY[d]))
            if slot is not None and slot not in self.dragon_visited and slot != self.fairy[0]:
                steps.append(d)
        return steps

    def _pd_actions(self) -> list[int]:
        """The P&D options of the follower step (§12.4-§12.6), in id order."""
        game = self.game
        actions = []
        newest = len(self.board) - 1
        if game.tiles[self.board[newest][0]].portal:
            for figure, base in (("follower", game.PF), ("large", game.PL)):
                if base < 0:
                    continue
                for slot in range(newest):
                    for k in range(len(game.tiles[self.board[slot][0]].features)):
                        if self._portal_ok(figure, slot, k):
                            actions.append(base + slot * K + k)
        actions += [game.PR + slot * K + k for slot, k in self._princess_targets()]
        actions += [game.FA + slot * K + k for slot, k in self._fairy_targets()]
        return actions

    def _pd_of(self, action: int) -> tuple[str, int, int]:
        """(word, slot, feature) of a P&D id of §12.8 (word follower, large, princess or fairy), or
        ("dragon", d, -1); ("", -1, -1) for any other id."""
        game = self.game
        if not game.princess_dragon or action < game.PF:
            return "", -1, -1
        if action >= game.DR:
            return "dragon", action - game.DR, -1
        blocks = (("fairy", game.FA), ("princess", game.PR), ("large", game.PL), ("follower", game.PF))
        for word, base in blocks:
            if 0 <= base <= action:
                slot, k = divmod(action - base, K)
                return word, slot, k
        return "", -1, -1

    def _remove_figure(self, node: Node) -> None:
        """A figure leaves the board without scoring (the dragon, the princess): back to its owner."""
        for figure in FIGURES:
            figures, supply = self._figures(figure)
            if node in figures:
                supply[figures.pop(node)] += 1
        if self.fairy == node:
            self.fairy = (node[0], -1)  # §12.6: the fairy stays on the tile, next to nobody

    def _return_orphans(self) -> None:
        """§12.7: a builder or pig whose component no longer holds a follower of its owner returns."""
        for figures, supply in ((self.builders, self.builder_supply), (self.pigs, self.pig_supply)):
            for node in sorted(figures):
                nodes, _ = self.component(*node)
                if not self._has_follower_of(nodes, figures[node]):
                    supply[figures.pop(node)] += 1

    def _dragon_step(self, d: int) -> None:
        """§12.3: the dragon enters the neighbouring tile in direction d; every figure on it returns."""
        _, x, y, _ = self.board[self.dragon]
        slot = self.cells[(x + DX[d], y + DY[d])]
        self.dragon = slot
        self.dragon_visited.append(slot)
        for node in sorted(set(self.followers) | set(self.large) | set(self.builders) | set(self.pigs)):
            if node[0] == slot:
                self._remove_figure(node)
        self._return_orphans()

    def _move_goes_on(self) -> bool:
        """The dragon's move asks for another step: fewer than 6 made and a legal step left (§12.3)."""
        return len(self.dragon_visited) - 1 < DRAGON_STEPS and bool(self._dragon_steps())

    def _finish_turn(self) -> None:
        """§4.1 steps 4-5: the scoring of the placement, then the next turn."""
        self.dragon_visited = []
        self.current = self.turn
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
        """§4.1 step 5, §4.3 the next seat, and §11.3 the second tile: the same seat takes one more turn when
        ``again`` was set at this turn's placement, unless the game has ended."""
        game = self.game
        n = game.players
        again = self.again
        self.again = False
        self.bonus = False
        if not game.strategic:
            if sum(self.pile) == 0:
                self._end_game()
            elif again:
                self.bonus = True
                self._begin_turn(self.current)
            else:
                self._new_turn((self.current + 1) % n)
            return
        if sum(self.pile) == 0 and not any(any(hand) for hand in self.hands):
            self._end_game()
            return
        if again and (sum(self.pile) > 0 or any(self.hands[self.current])):
            # READING: with the pile empty, a seat with an empty hand has no second tile to play (its turn
            # would end at once, as a skipped seat's does).
            self.bonus = True
            self._begin_turn(self.current)
            return
        nxt = (self.current + 1) % n
        while sum(self.pile) == 0 and not any(self.hands[nxt]):
            nxt = (nxt + 1) % n
        self._new_turn(nxt)

    def _new_turn(self, seat: int) -> None:
        """The turn passes to another seat. §12.6: if the fairy is next to a follower of that seat, it
        scores 1 as its turn begins (not at a second tile, which is the same turn)."""
        if self._fairy_seat() == seat:
            self.scores_[seat] += FAIRY_TURN_POINTS
        self._begin_turn(seat)

    def _end_game(self) -> None:
        self.tile = -1
        self.to_draw = 0
        self.bonus = False
        self.again = False
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
            large=dict(self.large),
            builders=dict(self.builders),
            pigs=dict(self.pigs),
            large_supply=list(self.large_supply),
            builder_supply=list(self.builder_supply),
            pig_supply=list(self.pig_supply),
            goods=[list(tokens) for tokens in self.goods],
            bonus=self.bonus,
            again=self.again,
            dragon=self.dragon,
            dragon_visited=list(self.dragon_visited),
            fairy=self.fairy,
            turn=self.turn,
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
        # §12.9: while no volcano is on the board the dragon types stay out of the pool (in the new pile).
        held = [0] * self.game.T
        if self.game.princess_dragon and not self._volcano_on_board():
            for t in self.game.dragon_types:
                held[t], pool[t] = pool[t], 0
        # §8.3: in phase select the seat to move holds placeable tiles only (the others were set aside), so
        # its hand is dealt first, from the placeable types alone; then the other seats in increasing order.
        to_move = self.current if self.phase == "select" and self.current != p else None
        others = [s for s in range(self.game.players) if s != p and s != to_move]
        for s in ([to_move] if to_move is not None else []) + others:
            size = sum(self.hands[s])
            new_hand = [0] * self.game.T
            for _ in range(size):
                if sum(pool) == 0:
                    # READING: only dragon tiles are left unseen (a hand took one when only dragon tiles
                    # remained, §12.1): they are drawn then, as the game's own draw does.
                    pool, held = held, [0] * self.game.T
                weights = [
                    0 if s == to_move and not self._placeable(t) else pool[t] for t in range(self.game.T)
                ]
                if sum(weights) == 0:  # no placeable type left unseen (a §12.1 corner): the whole pool
                    weights = list(pool)
                r = int(below(sum(weights)))
                running = 0
                for t in range(self.game.T):
                    running += weights[t]
                    if running > r:
                        new_hand[t] += 1
                        pool[t] -= 1
                        break
            twin.hands[s] = new_hand
        pool = [pool[t] + held[t] for t in range(self.game.T)]
        for t in self.game.land:
            twin.pile[t] = pool[t]
        return twin

    # ----- notation (§7) -----

    def _figure_text(self, figure: str, k: int) -> str:
        """§7, §11.5: ``<figure> <kind> <where>`` for a feature of the tile just placed in the follower phase,
        else ``<figure> #<k>``.

        An inner farm (a field on no edge half, §2) has no ``<where>`` to name: like a cloister it is written
        without one (``follower field``, §11.5). A builder or pig id on a feature of the tile it may not take
        is named like a follower's (``pig road E``, §11.5)."""
        if self.phase == "follower":
            named = self._feature_text(len(self.board) - 1, k)
            if named is not None:
                return f"{figure} {named}"
        return f"{figure} #{k}"

    def _feature_text(self, slot: int, k: int) -> str | None:
        """``<kind> <where>`` of feature k of the tile in ``slot`` (§7: its first board edge or half after
        rotation; none for a cloister or an inner farm), or None when there is no such feature."""
        if not 0 <= slot < len(self.board):
            return None
        t, _, _, r = self.board[slot]
        if not 0 <= k < len(self.game.tiles[t].features):
            return None
        feat = self.game.tiles[t].features[k]
        geo = self.game.geo(t, r)
        if feat.kind == "cloister":
            return "cloister"
        if feat.kind == "field" and not geo.feature_halves[k]:
            return "field"
        if feat.kind == "field":
            return f"field {HALF_NAMES[geo.feature_halves[k][0]]}"
        return f"{feat.kind} {EDGE_NAMES[geo.feature_edges[k][0]]}"

    def _pd_text(self, word: str, slot: int, k: int) -> str:
        """§12.8: ``<word> <x>,<y> <kind> <where>``, or ``<word> @<s> #<k>`` when slot s holds no tile or
        k is not one of its features, and for a portal id on the tile just placed in phase follower (that
        text would read as the ordinary id)."""
        named = self._feature_text(slot, k)
        newest = self.phase == "follower" and slot == len(self.board) - 1
        if named is None or (word in ("follower", "large") and newest):
            return f"{word} @{slot} #{k}"
        _, x, y, _ = self.board[slot]
        return f"{word} {x},{y} {named}"

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
            return self._figure_text("follower", value - game.FOLLOWER)
        if value < game.SELECT + game.T:
            return f"tile {self.game.tile_names[value - game.SELECT]}"
        word, slot, k = self._pd_of(value)
        if word == "dragon":
            return f"dragon {EDGE_NAMES[slot]}"
        if word:
            return self._pd_text(word, slot, k)
        figure, k = self._figure_of(value)
        return self._figure_text(figure, k)

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
        if game.princess_dragon:
            pd = self._read_pd(key)
            if pd is not None:
                return pd
        # §7, §11.5: a figure's texts; ``large`` only with Inns & Cathedrals, ``builder`` and ``pig`` only
        # with Traders & Builders.
        match = re.fullmatch(r"(follower|large|builder|pig) (.*)", key)
        if match and self._figure_base(match.group(1)) >= 0:
            base = self._figure_base(match.group(1))
            rest = match.group(2)
            number = re.fullmatch(r"#([+-]?[0-9]+)", rest)
            if number:
                digits = number.group(1)
                if len(digits) <= 4 and 0 <= int(digits) < K:
                    return base + int(digits)
                raise bad
            k = self._feature_named(rest)
            if k is None:
                raise bad
            return base + k
        if key.startswith("tile ") and key[5:] in names:
            return game.SELECT + names[key[5:]]
        raise bad

    def _read_pd(self, key: str) -> int | None:
        """§12.8: the P&D texts (``key`` already folded), in any phase; None when ``key`` is none of them.
        Coordinates with no tile, or no such feature there, are an ``InvalidNotationError``."""
        game = self.game
        bad = InvalidNotationError(f"{GAME_NAME}: cannot parse action {key!r}")
        match = re.fullmatch(r"dragon (n|e|s|w)", key)
        if match:
            return game.DR + "nesw".index(match.group(1))
        words = "follower|large|princess|fairy" if game.inns_cathedrals else "follower|princess|fairy"
        match = re.fullmatch(rf"({words}) @([+-]?[0-9]+) #([+-]?[0-9]+)", key)
        if match:
            word, ss, ks = match.groups()
            if len(ss) > 12 or len(ks) > 4 or not 0 <= int(ss) < game.S or not 0 <= int(ks) < K:
                raise bad
            return self._pd_base(word) + int(ss) * K + int(ks)
        match = re.fullmatch(rf"({words}) ([+-]?[0-9]+) ?, ?([+-]?[0-9]+) (.*)", key)
        if not match:
            return None
        word, xs, ys, rest = match.groups()
        if len(xs) > 12 or len(ys) > 12:
            raise bad
        slot = self.cells.get((int(xs), int(ys)))
        k = None if slot is None else self._feature_named(rest, slot)
        if slot is None or k is None:
            raise bad
        if word in ("follower", "large") and self.phase == "follower" and slot == len(self.board) - 1:
            return self._figure_base(word) + k  # the tile just placed: the ordinary id (§7, §11.5)
        return self._pd_base(word) + slot * K + k

    def _pd_base(self, word: str) -> int:
        game = self.game
        return {"follower": game.PF, "large": game.PL, "princess": game.PR, "fairy": game.FA}[word]

    def _feature_named(self, text: str, slot: int | None = None) -> int | None:
        """The feature of the tile in ``slot`` that ``<kind> [<where>]`` names (any of its board edges or
        halves, §7); without ``slot`` the tile just placed, in the follower phase only. None when there is
        none."""
        match = re.fullmatch(r"(city|road|field|cloister)(?: ([a-z]+))?", text)
        if not match or (slot is None and self.phase != "follower"):
            return None
        kind, where = match.group(1), match.group(2)
        where = where.upper() if where is not None else None
        t, _, _, r = self.board[-1 if slot is None else slot]
        geo = self.game.geo(t, r)
        for k, feat in enumerate(self.game.tiles[t].features):
            if feat.kind != kind:
                continue
            if kind == "cloister" and where is None:
                return k
            if kind == "field" and where is None and not geo.feature_halves[k]:
                return k  # the inner farm (§11.5)
            if kind in ("city", "road") and where in EDGE_NAMES:
                if EDGE_NAMES.index(where) in geo.feature_edges[k]:
                    return k
            if kind == "field" and where in HALF_NAMES:
                if HALF_NAMES.index(where) in geo.feature_halves[k]:
                    return k
        return None

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

        T = game.T
        board = np.zeros(((game.R + 1), game.slot_size()), dtype=np.float32)
        # §11.6: the expansions' per-slot flags follow the §8.1 values: large (I&C), builder, pig (T&B).
        flag = 7 + T + K + n
        flags: dict[str, int] = {}
        if game.inns_cathedrals:
            flags["large"] = flag
            flag += 1
        if game.traders_builders:
            flags["builder"], flags["pig"] = flag, flag + 1
            flag += 2
        # §12.9: every figure, by (slot, feature); a slot's row describes its lowest one, the others are
        # the extra figures of the global table.
        all_figures = sorted(
            (slot, k, figure, seat)
            for figure in FIGURES
            for (slot, k), seat in self._figures(figure)[0].items()
        )
        extras: list[tuple[int, int, str, int]] = []
        described: set[int] = set()
        for slot, k, figure, seat in all_figures:
            if slot in described:
                extras.append((slot, k, figure, seat))
                continue
            described.add(slot)
            row = board[slot]
            # The feature and owner one-hots describe every figure (§11.6).
            row[7 + T + k] = 1
            row[7 + T + K + rel(seat)] = 1
            if figure in flags:
                row[flags[figure]] = 1
        for slot, (t, x, y, r) in enumerate(self.board):
            row = board[slot]
            row[0], row[1], row[2] = 1, x, y
            row[3 + t] = 1
            row[3 + T + r] = 1
            if game.princess_dragon:
                row[flag] = 1 if self.dragon == slot else 0
                row[flag + 1] = 1 if self.fairy[0] == slot else 0
                row[flag + 2] = 1 if self.phase == "dragon" and slot in self.dragon_visited else 0
        values: list[float] = []
        values.extend(self.scores_[(p + i) % n] for i in range(n))
        values.extend(self.supply[(p + i) % n] for i in range(n))
        values.extend(sum(self.hands[(p + i) % n]) if game.strategic else 0 for i in range(n))
        now = [0.0] * n
        if self.current_player() >= 0:
            now[rel(self.current)] = 1
        values.extend(now)
        values.extend(1.0 if self.phase == ph else 0.0 for ph in PHASES)
        values.extend(1.0 if self.phase == "place" and self.tile == t else 0.0 for t in range(T))
        values.extend(self.unseen(p))
        values.extend(self.set_aside)
        values.extend(self.hands[p])
        if game.inns_cathedrals:
            values.extend(self.large_supply[(p + i) % n] for i in range(n))
        if game.traders_builders:
            values.extend(self.builder_supply[(p + i) % n] for i in range(n))
            values.extend(self.pig_supply[(p + i) % n] for i in range(n))
            for i in range(n):
                values.extend(self.goods[(p + i) % n])
            values.append(1.0 if self.bonus else 0.0)
            values.append(1.0 if self.again else 0.0)
        if game.princess_dragon:
            in_move = self.phase == "dragon"
            values.append(1.0 if in_move else 0.0)
            values.append(float(DRAGON_STEPS - (len(self.dragon_visited) - 1)) if in_move else 0.0)
            values.append(1.0 if self._volcano_on_board() else 0.0)
            turn = [0.0] * n
            if self.current_player() >= 0:
                turn[rel(self.turn if in_move else self.current)] = 1
            values.extend(turn)
            values.extend(1.0 if self.fairy[1] == k else 0.0 for k in range(K))
            for i in range(EXTRA_FIGURES):
                entry = [0.0] * (3 + K + n)
                if i < len(extras):
                    slot, k, figure, seat = extras[i]
                    entry[0], entry[1], entry[2] = 1, slot, 1 if figure == "large" else 0
                    entry[3 + k] = 1
                    entry[3 + K + rel(seat)] = 1
                values.extend(entry)
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
        game = self.game
        if game.inns_cathedrals:
            lines.append("large followers " + " ".join(map(str, self.large_supply)))
        if game.traders_builders:
            lines.append("builders " + " ".join(map(str, self.builder_supply)))
            lines.append("pigs " + " ".join(map(str, self.pig_supply)))
            lines.append("goods (wine grain cloth) " + ", ".join(" ".join(map(str, g)) for g in self.goods))
            if self.bonus:
                lines.append("this turn is a second tile")
            if self.again:
                lines.append("a second tile follows this turn")
        if self.phase == "place":
            lines.append(f"tile to place: {self.game.tile_names[self.tile]}")
        if self.phase == "dragon":
            lines.append(
                f"the dragon's move of seat {self.turn}'s turn: visited slots "
                + " ".join(map(str, self.dragon_visited))
            )
        for slot, (t, x, y, r) in enumerate(self.board):
            text = f"  {slot}: {self.game.tile_names[t]} at {x},{y} {ROTATION_NAMES[r]}"
            for figure in FIGURES:
                figures, _ = self._figures(figure)
                for (s, k), seat in sorted(figures.items()):
                    if s == slot:
                        kind = self.game.tiles[t].features[k].kind
                        text += f", {_FIGURE_WORDS[figure]} of seat {seat} on #{k} ({kind})"
            if self.dragon == slot:
                text += ", the dragon"
            if self.fairy[0] == slot:
                text += ", the fairy" + (f" next to #{self.fairy[1]}" if self.fairy[1] >= 0 else "")
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
        obj: dict[str, object] = {
            "board": [list(entry) for entry in self.board],
            "current": self.current,
            "followers": [[slot, k, seat] for (slot, k), seat in sorted(self.followers.items())],
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
        # §11.7: each expansion's keys, present exactly when it is enabled.
        if self.game.inns_cathedrals:
            obj["large"] = [[slot, k, seat] for (slot, k), seat in sorted(self.large.items())]
            obj["large_supply"] = list(self.large_supply)
        if self.game.traders_builders:
            obj["builders"] = [[slot, k, seat] for (slot, k), seat in sorted(self.builders.items())]
            obj["pigs"] = [[slot, k, seat] for (slot, k), seat in sorted(self.pigs.items())]
            obj["builder_supply"] = list(self.builder_supply)
            obj["pig_supply"] = list(self.pig_supply)
            obj["goods"] = [list(tokens) for tokens in self.goods]
            obj["bonus"] = self.bonus
            obj["again"] = self.again
        # §12.10: the P&D keys, present exactly when it is enabled.
        if self.game.princess_dragon:
            obj["dragon"] = self.dragon
            obj["dragon_visited"] = list(self.dragon_visited) if self.phase == "dragon" else []
            obj["fairy"] = list(self.fairy)
            obj["turn"] = self.turn if self.phase == "dragon" else self.current
        return obj

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


# §11.7: the expansions' keys, present exactly when the expansion is enabled.
_LARGE_KEYS = frozenset({"large", "large_supply"})
_TRADERS_KEYS = frozenset({"builders", "pigs", "builder_supply", "pig_supply", "goods", "bonus", "again"})
_PD_KEYS = frozenset({"dragon", "dragon_visited", "fairy", "turn"})  # §12.10


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


def _read_figures(state: CarcassonneState, value: object, what: str) -> dict[Node, int]:
    """A list of ``[slot, k, seat]``: slots ascending on the board (with P&D (slot, k) ascending, §12.10),
    k a feature of that tile's type, the seat in range (§9, §11.7)."""
    if not isinstance(value, list):
        raise _bad(f"the {what} list must be a list")
    figures: dict[Node, int] = {}
    last = (-1, K)
    for entry in value:
        slot, k, seat = _int_list(entry, 3, f"a {what}")
        if not 0 <= slot < len(state.board):
            raise _bad(f"{what} slot {slot} out of range")
        if not 0 <= k < len(state.game.tiles[state.board[slot][0]].features):
            raise _bad(f"{what} feature {k} is not a feature of tile {slot}")
        if not (last < (slot, k) if state.game.princess_dragon else last[0] < slot):
            raise _bad(f"{what} {slot},{k} not ascending (or twice on a tile)")
        last = (slot, k)
        if not 0 <= seat < state.game.players:
            raise _bad(f"{what} seat {seat} out of range")
        figures[(slot, k)] = seat
    return figures


def _on_completed(state: CarcassonneState, slot: int, k: int, pending: bool) -> bool:
    """Feature k of ``slot`` is a completed city, road or cloister, and not one the last tile completed in
    phase follower.

    READING: in phase follower the tile just placed is not scored yet (§4.1 step 4 comes after the follower
    decision), so a feature it completes may still hold figures."""
    kind = state.game.tiles[state.board[slot][0]].features[k].kind
    newest = len(state.board) - 1
    _, nx, ny, _ = state.board[newest]
    _, fx, fy, _ = state.board[slot]
    if kind == "cloister" and state._cloister_neighbours(slot) == 8:
        return not (pending and abs(fx - nx) <= 1 and abs(fy - ny) <= 1)
    if kind in ("city", "road"):
        nodes, complete = state.component(slot, k)
        return complete and not (pending and any(s == newest for s, _ in nodes))
    return False


def _check_supply(supply: list[int], figures: dict[Node, int], each: int, what: str, n: int) -> None:
    """Each seat has ``each`` figures of a kind: those on the board and its supply.

    READING (§11.7): more figures of a kind on the board than a seat has is refused for the large follower,
    the builder and the pig as §9 refuses an eighth follower (their supply would have to be negative)."""
    on_board = [0] * n
    for seat in figures.values():
        on_board[seat] += 1
    for s in range(n):
        if on_board[s] > each:
            raise _bad(f"seat {s} has more than {each} {what} on the board")
        if supply[s] != each - on_board[s]:
            raise _bad(f"supply of {what} of seat {s} is not {each} - its {what} on the board")


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
    keys = _KEYS | (_LARGE_KEYS if game.inns_cathedrals else frozenset())
    keys |= _TRADERS_KEYS if game.traders_builders else frozenset()
    keys |= _PD_KEYS if game.princess_dragon else frozenset()
    if obj.keys() != keys:
        raise _bad(f"keys missing {sorted(keys - obj.keys())} or extra {sorted(obj.keys() - keys)}")
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
    phases = PHASES + (("dragon",) if game.princess_dragon else ())  # §12.10: phase dragon with P&D only
    if not isinstance(phase, str) or phase not in phases:
        raise _bad(f"phase {phase!r} is not one of {phases}")
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

    if game.princess_dragon:
        _read_dragon(state, obj)

    # Figures (§9, §11.7, §12.10).
    # READING: in phase dragon the tile just placed is not scored yet either (§12.3: the move comes before
    # the scoring), so the features it completes may still hold figures, as in phase follower.
    pending = phase in ("follower", "dragon")
    followers = _read_figures(state, obj["followers"], "follower")
    large = _read_figures(state, obj["large"], "large follower") if game.inns_cathedrals else {}
    builders = _read_figures(state, obj["builders"], "builder") if game.traders_builders else {}
    pigs = _read_figures(state, obj["pigs"], "pig") if game.traders_builders else {}
    taken: set[Node] = set()
    for figures in (followers, large, builders, pigs):
        for slot, k in figures:
            if (slot, k) in taken:
                raise _bad(f"two figures on feature {k} of tile {slot}")
            if not game.princess_dragon and any(s == slot for s, _ in taken):
                raise _bad(f"tile {slot} holds two figures")
            taken.add((slot, k))
    if game.princess_dragon:
        extra = len(taken) - len({slot for slot, _ in taken})
        if extra > EXTRA_FIGURES:
            raise _bad(f"{extra} extra figures (tiles holding a second figure), more than {EXTRA_FIGURES}")
        for slot, _ in taken:
            if state._no_figure_slot(slot):
                raise _bad(f"a figure on tile {slot}, a volcano tile or the dragon's tile (§12.2)")
    for what, figures in (("follower", followers), ("large follower", large), ("builder", builders)):
        for slot, k in figures:
            kind = game.tiles[state.board[slot][0]].features[k].kind
            if what == "builder" and kind not in ("city", "road"):
                raise _bad(f"a builder on a {kind} (tile {slot}), not a road or city")
            if _on_completed(state, slot, k, pending):
                raise _bad(f"a {what} on a completed {kind} (tile {slot})")
    for slot, k in pigs:
        kind = game.tiles[state.board[slot][0]].features[k].kind
        if kind != "field":
            raise _bad(f"a pig on a {kind} (tile {slot}), not a field")
    state.followers, state.large, state.builders, state.pigs = followers, large, builders, pigs
    for what, figures in (("builder", builders), ("pig", pigs)):
        for (slot, k), seat in figures.items():
            nodes, _ = state.component(slot, k)
            if not state._has_follower_of(nodes, seat):
                raise _bad(f"the {what} of seat {seat} (tile {slot}) is with no follower of its seat")
    _check_supply(supply, followers, FOLLOWERS, "followers", n)
    if game.inns_cathedrals:
        state.large_supply = _int_list(obj["large_supply"], n, "large_supply")
        _check_supply(state.large_supply, large, 1, "large followers", n)
    else:
        state.large_supply = [0] * n
    state.goods = [[0] * len(GOODS) for _ in range(n)]
    if game.traders_builders:
        state.builder_supply = _int_list(obj["builder_supply"], n, "builder_supply")
        _check_supply(state.builder_supply, builders, 1, "builders", n)
        state.pig_supply = _int_list(obj["pig_supply"], n, "pig_supply")
        _check_supply(state.pig_supply, pigs, 1, "pigs", n)
        goods_obj = obj["goods"]
        if not isinstance(goods_obj, list) or len(goods_obj) != n:
            raise _bad(f"goods must be a list of {n} lists")
        state.goods = [_int_list(tokens, len(GOODS), "a seat's goods") for tokens in goods_obj]
        # READING: a negative token count is refused as every negative count is (§9).
        if any(c < 0 for tokens in state.goods for c in tokens):
            raise _bad("goods holds a negative count")
        symbols = [0] * len(GOODS)
        for t, _, _, _ in state.board:
            for feat in game.tiles[t].features:
                if feat.goods:
                    symbols[GOODS.index(feat.goods)] += 1
        for g, name in enumerate(GOODS):
            if sum(tokens[g] for tokens in state.goods) > symbols[g]:
                raise _bad(f"{name}: more tokens than {name} symbols on the board")
        for key in ("bonus", "again"):
            if not isinstance(obj[key], bool):
                raise _bad(f"{key} must be a bool, got {obj[key]!r}")
        state.bonus, state.again = bool(obj["bonus"]), bool(obj["again"])
        # §12.10: a second tile earned by a dragon tile is still pending during the dragon's move.
        if state.again and (phase not in ("follower", "dragon") or state.bonus):
            raise _bad("again is set outside the follower and dragon phases, or during a second tile")
        if state.bonus and phase in ("deal", "over"):
            raise _bad(f"bonus is set in phase {phase}")
    else:
        state.builder_supply = [0] * n
        state.pig_supply = [0] * n

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
    if game.princess_dragon:
        _check_fairy_and_move(state, obj)
    return state


def _read_dragon(state: CarcassonneState, obj: dict[str, object]) -> None:
    """§12.10 ``dragon``: -1 exactly when no volcano tile is on the board, else a slot."""
    dragon = _get_int(obj, "dragon", -1, len(state.board) - 1)
    if (dragon == -1) != (not state._volcano_on_board()):
        raise _bad("the dragon must be on the board exactly when a volcano tile is (§12.2)")
    state.dragon = dragon


def _check_fairy_and_move(state: CarcassonneState, obj: dict[str, object]) -> None:
    """§12.10: ``fairy``, ``turn`` and ``dragon_visited``, once the figures and the phase are read."""
    game = state.game
    n = game.players
    fairy = _int_list(obj["fairy"], 2, "fairy")
    slot, k = fairy
    if not -1 <= slot < len(state.board):
        raise _bad(f"the fairy's slot {slot} is out of range")
    if slot == -1 and k != -1:
        raise _bad("the fairy is next to a follower on no slot")
    if slot >= 0 and k != -1 and (slot, k) not in state.followers and (slot, k) not in state.large:
        raise _bad(f"the fairy is next to feature {k} of tile {slot}, which holds no follower")
    if slot >= 0 and slot == state.dragon:
        raise _bad("the fairy is on the dragon's tile")
    state.fairy = (slot, k)
    state.turn = _get_int(obj, "turn", 0, n - 1)
    visited = _int_list(obj["dragon_visited"], None, "dragon_visited")
    if state.phase != "dragon":
        if state.turn != state.current:
            raise _bad("turn is not current outside phase dragon")
        if visited:
            raise _bad("dragon_visited is not empty outside phase dragon")
        return
    if not game.tiles[state.board[-1][0]].dragon:
        raise _bad("phase dragon when the last tile placed is not a dragon tile")
    # READING: "longer than 6 steps (7 entries)": a move of 6 steps has ended, so phase dragon holds at most
    # 6 entries (5 steps made, one left).
    if not visited or len(visited) > DRAGON_STEPS:
        raise _bad(f"dragon_visited must hold 1..{DRAGON_STEPS} slots in phase dragon")
    if len(set(visited)) != len(visited) or any(not 0 <= s < len(state.board) for s in visited):
        raise _bad("dragon_visited holds a slot twice or out of range")
    for a, b in zip(visited, visited[1:], strict=False):
        (_, ax, ay, _), (_, bx, by, _) = state.board[a], state.board[b]
        if abs(ax - bx) + abs(ay - by) != 1:
            raise _bad("dragon_visited is not a chain of orthogonal neighbours")
    if visited[-1] != state.dragon:
        raise _bad("dragon_visited does not end at the dragon's slot")
    if state.fairy[0] in visited:
        raise _bad("dragon_visited goes through the fairy's slot")
    state.dragon_visited = visited
    if not state._dragon_steps():
        raise _bad("phase dragon with no legal step left (the move would have ended)")
    if state.current != (state.turn + len(visited) - 1) % n:
        raise _bad("current is not the seat choosing the next step: (turn + steps made) mod n")


__all__ = ["TILE_NAMES", "TILES", "CarcassonneGame", "CarcassonneState", "placed"]
