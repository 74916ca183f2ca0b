"""Forbidden Island: the pure-Python reference implementation of ``forbidden_island`` (2 to 4 players,
co-operative).

Written from the rulebook (``borisyankov/rulespal data/rulebooks/forbidden-island-rulebook.md``), the
game-help page (``shared/rules/bga_forbidden_island.txt``) and the contract ``docs/rules/forbidden_island.md``
(cited "§n" for its sections and "interp. n" for its interpretations). The components are read from
``meeplex/data/forbidden_island.json``.

Plain and slow on purpose: the piles are lists of counts and sets, every legal action is found by trying every
id, and the flow of a turn is a handful of small functions that each say where play goes next.

Places where the contract had to be read one way among several are marked ``READING:`` in comments.
"""

from __future__ import annotations

import json
import operator
import re
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources as importlib_resources
from typing import Any, SupportsIndex, cast

import numpy as np
import numpy.typing as npt

from meeplex._params import game_string
from meeplex._protocols import RngLike
from meeplex.errors import IllegalActionError, InvalidNotationError, InvalidStateError
from meeplex.oracle._json import StrictFields, same_params
from meeplex.oracle._json import is_int as _is_int
from meeplex.oracle._text import fold_white_space
from meeplex.oracle.rng import random_step

GAME_NAME = "forbidden_island"
SERIAL_VERSION = 1

# current_player() at a chance node / once the game is over (DESIGN.md; OpenSpiel's ids).
CHANCE = -1
TERMINAL = -4

# ---------------------------------------------------------------------------------------------------------
# §2 Components, from the data file
# ---------------------------------------------------------------------------------------------------------


def _load_data() -> dict[str, Any]:
    text = importlib_resources.files("meeplex").joinpath("data/forbidden_island.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


_DATA = _load_data()

TILE_KEYS: tuple[str, ...] = tuple(tile["key"] for tile in _DATA["tiles"])
TILE_NAMES: tuple[str, ...] = tuple(tile["name"] for tile in _DATA["tiles"])
NUM_TILES = len(TILE_KEYS)  # 24
NUM_POSITIONS = NUM_TILES
TREASURE_KEYS: tuple[str, ...] = tuple(t["key"] for t in _DATA["treasures"])  # earth wind fire ocean
TREASURE_NAMES: tuple[str, ...] = tuple(t["name"] for t in _DATA["treasures"])
ROLE_NAMES: tuple[str, ...] = tuple(_DATA["roles"])  # diver engineer explorer messenger navigator pilot
KIND_NAMES: tuple[str, ...] = tuple(card["key"] for card in _DATA["cards"])  # 7 card kinds
KIND_COUNTS: tuple[int, ...] = tuple(card["count"] for card in _DATA["cards"])
NUM_KINDS = len(KIND_NAMES)  # 7
HELD_KINDS = NUM_KINDS - 1  # 0..5 can be held; Waters Rise! never is

# Each tile's treasure (0..3) or None, and the role (0..5) that starts on it or None.
TILE_TREASURE: tuple[int | None, ...] = tuple(
    None if tile["treasure"] is None else TREASURE_KEYS.index(tile["treasure"]) for tile in _DATA["tiles"]
)
TILE_START_OF: tuple[int | None, ...] = tuple(
    None if tile["start_of"] is None else ROLE_NAMES.index(tile["start_of"]) for tile in _DATA["tiles"]
)
# The two tiles of each treasure (the rulebook's capture table).
TREASURE_TILES: tuple[tuple[int, ...], ...] = tuple(
    tuple(x for x in range(NUM_TILES) if TILE_TREASURE[x] == t) for t in range(len(TREASURE_KEYS))
)
START_TILE_OF_ROLE: tuple[int, ...] = tuple(TILE_START_OF.index(r) for r in range(len(ROLE_NAMES)))
FOOLS_LANDING = TILE_KEYS.index("fools_landing")

# Card kinds (the action ids below are named after the plays: HELI, SANDBAG, ...).
CARD_HELI = KIND_NAMES.index("heli")
CARD_SANDBAGS = KIND_NAMES.index("sandbags")
CARD_WATERS_RISE = KIND_NAMES.index("waters_rise")
DIVER, ENGINEER, EXPLORER, MESSENGER, NAVIGATOR, PILOT = range(len(ROLE_NAMES))

FLOOD_CARDS_BY_LEVEL: tuple[int, ...] = tuple(_DATA["flood_cards_by_level"])  # index: the level (1..9)
SKULL_LEVEL: int = _DATA["skull_level"]  # 10
START_LEVEL: dict[str, int] = dict(_DATA["start_level"])
SETUP = _DATA["setup"]
INITIAL_FLOOD_CARDS: int = SETUP["initial_flood_cards"]  # 6
CARDS_PER_PLAYER: int = SETUP["cards_per_player"]  # 2
HAND_LIMIT: int = SETUP["hand_limit"]  # 5
ACTIONS_PER_TURN: int = SETUP["actions_per_turn"]  # 3
TREASURE_CARDS_PER_TURN: int = SETUP["treasure_cards_per_turn"]  # 2
LAYOUTS: dict[str, tuple[tuple[int, int], ...]] = {
    name: tuple((int(x), int(y)) for x, y in cells) for name, cells in _DATA["layouts"].items()
}

# ---------------------------------------------------------------------------------------------------------
# §8 Action ids
# ---------------------------------------------------------------------------------------------------------

MOVE = 0  # + q
SHORE = 24  # + q
GIVE = 48  # + 4 s + k
CAPTURE = 64
NAVIGATE = 65  # + 24 s + q
SANDBAG = 161  # + q
HELI = 185  # + 24 (m - 1) + q, m 1..15
LIFTOFF = 545
DISCARD = 546  # + k, k 0..5
SWIM = 552  # + q
PASS = 576
NUM_DISTINCT_ACTIONS = 577
MAX_CHANCE_OUTCOMES = 24
MAX_SEATS = 4  # seats 0..3 in the notation and the ids

PHASES = (
    "layout",
    "setup_flood",
    "roles",
    "deal",
    "actions",
    "engineer",
    "treasure",
    "flood",
    "discard",
    "swim",
    "window",
    "over",
)
CHANCE_PHASES = ("layout", "setup_flood", "roles", "deal", "treasure", "flood")
STAGES = ("setup", "actions", "treasure", "flood")
WINDOWS = ("act", "end", "treasure", "rescue", "flood")
OUTCOMES = ("none", "won", "lost")
STATUSES = ("dry", "flooded", "sunk")  # and "none" before a tile is placed

DEFAULT_PARAMS: dict[str, Any] = {"difficulty": "novice", "layout": "standard", "players": 2}


def _as_int(value: object) -> int | None:
    """An int-like value (Python int or numpy integer) as an int; ``None`` for anything else, bools included
    (docs/architecture.md, "Input policy")."""
    if isinstance(value, (bool, np.bool_)):
        return None
    try:
        return operator.index(cast(SupportsIndex, value))
    except TypeError:
        return None


def normalize_params(given: Mapping[str, object]) -> dict[str, Any]:
    """§1: ``players`` an int 2..4, ``difficulty`` and ``layout`` words of their tables."""
    for key in given:
        if key not in DEFAULT_PARAMS:
            raise InvalidStateError(f"{GAME_NAME}: unknown parameter {key!r}")
    params: dict[str, Any] = {}
    players = given.get("players", DEFAULT_PARAMS["players"])
    if not _is_int(players):
        raise InvalidStateError(f"{GAME_NAME}: parameter 'players' must be an int, got {players!r}")
    if not 2 <= players <= 4:
        raise InvalidStateError(f"{GAME_NAME}: players must be in 2..4, got {players}")
    params["players"] = int(players)
    for key, table in (("difficulty", START_LEVEL), ("layout", LAYOUTS)):
        value = given.get(key, DEFAULT_PARAMS[key])
        if not isinstance(value, str):
            raise InvalidStateError(f"{GAME_NAME}: parameter {key!r} must be a str, got {value!r}")
        if value not in table:
            raise InvalidStateError(f"{GAME_NAME}: {key} must be one of {sorted(table)}, got {value!r}")
        params[key] = value
    return params


def flood_cards_at(level: int) -> int:
    """§2 water meter: flood cards drawn per turn at ``level`` (0 at the skull)."""
    if 1 <= level < len(FLOOD_CARDS_BY_LEVEL):
        return FLOOD_CARDS_BY_LEVEL[level]
    return 0


def mask_seats(mask: int) -> list[int]:
    """The seats of a Helicopter Lift mask, ascending."""
    return [s for s in range(MAX_SEATS) if mask >> s & 1]


# ---------------------------------------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------------------------------------


class ForbiddenIslandGame:
    """Forbidden Island with one set of parameters (§1), and the geometry of its layout (§2 Positions)."""

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
        self.difficulty: str = self._params["difficulty"]
        self.layout: str = self._params["layout"]
        self.start_level: int = START_LEVEL[self.difficulty]
        # Position q is the q-th cell of the layout's list; its name is column letter + row digit.
        self.cells: tuple[tuple[int, int], ...] = LAYOUTS[self.layout]
        self.position_names: tuple[str, ...] = tuple(chr(ord("a") + x - 1) + str(y) for x, y in self.cells)
        self.position_of_name: dict[str, int] = {name: q for q, name in enumerate(self.position_names)}
        at = {cell: q for q, cell in enumerate(self.cells)}
        self.orthogonal: tuple[tuple[int, ...], ...] = tuple(
            tuple(
                at[(x + dx, y + dy)]
                for dx, dy in ((0, -1), (-1, 0), (1, 0), (0, 1))
                if (x + dx, y + dy) in at
            )
            for x, y in self.cells
        )
        self.diagonal: tuple[tuple[int, ...], ...] = tuple(
            tuple(
                at[(x + dx, y + dy)]
                for dx, dy in ((-1, -1), (1, -1), (-1, 1), (1, 1))
                if (x + dx, y + dy) in at
            )
            for x, y in self.cells
        )

    @property
    def params(self) -> dict[str, Any]:
        """The full, normalised parameter dict (a copy)."""
        return dict(self._params)

    def num_players(self) -> int:
        return self.players

    def num_distinct_actions(self) -> int:
        return NUM_DISTINCT_ACTIONS

    def max_chance_outcomes(self) -> int:
        return MAX_CHANCE_OUTCOMES

    def max_game_length(self) -> int:
        """§8: ``55 + 3 n + 56 x (19 + 21 n)``."""
        n = self.players
        return 55 + 3 * n + 56 * (19 + 21 * n)

    def observation_shape(self) -> tuple[int, ...]:
        """§9.1: ``(787 + 40 n,)``."""
        return (787 + 40 * self.players,)

    def new_initial_state(self) -> ForbiddenIslandState:
        """§5.1: nothing placed, the flood pile one layer of all 24 cards, the treasure pile all 28 cards."""
        return ForbiddenIslandState(
            game=self,
            tiles=[-1] * NUM_POSITIONS,
            status=["none"] * NUM_POSITIONS,
            seats=[Seat() for _ in range(self.players)],
            # READING: the level is the difficulty's start level from the first state on; §5.1 step 5 sets
            # it again, which changes nothing (the contract gives no other value to the setup phases).
            level=self.start_level,
            treasure_pile=list(KIND_COUNTS),
            treasure_discard=[0] * NUM_KINDS,
            flood_pile=[set(range(NUM_TILES))],
            flood_discard=set(),
        )

    def deserialize_state(self, text: object) -> ForbiddenIslandState:
        """The inverse of ``serialize``; anything malformed or inconsistent (§10) raises
        ``InvalidStateError``."""
        return _deserialize(self, text)

    def __str__(self) -> str:
        return game_string(GAME_NAME, self._params)

    def __repr__(self) -> str:
        return f"ForbiddenIslandGame({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ForbiddenIslandGame) and other._params == self._params

    def __hash__(self) -> int:
        return hash(str(self))


# ---------------------------------------------------------------------------------------------------------
# The state
# ---------------------------------------------------------------------------------------------------------


@dataclass
class Seat:
    """One seat (§3): its role (-1 before the roles are dealt), its pawn's position (-1 likewise) and its
    hand as counts of the kinds 0..5."""

    role: int = -1
    pawn: int = -1
    hand: list[int] = field(default_factory=lambda: [0] * HELD_KINDS)

    def cards(self) -> int:
        return sum(self.hand)

    def copy(self) -> Seat:
        return Seat(self.role, self.pawn, list(self.hand))


@dataclass(eq=False)
class ForbiddenIslandState:
    """A position of Forbidden Island (§3)."""

    game: ForbiddenIslandGame
    tiles: list[int]  # position -> tile id, or -1 before it is placed
    status: list[str]  # position -> dry / flooded / sunk, or none before it is placed
    seats: list[Seat]
    level: int
    treasure_pile: list[int]  # counts of the 7 kinds (a pile has no order)
    treasure_discard: list[int]
    flood_pile: list[set[int]]  # layers, top first; each an unordered set of tile ids
    flood_discard: set[int]
    captured: list[bool] = field(default_factory=lambda: [False] * len(TREASURE_KEYS))
    outcome: str = "none"
    turn: int = 0
    stage: str = "setup"
    actions_left: int = 0
    pilot_flown: bool = False
    treasure_left: int = 0
    flood_left: int = 0
    phase: str = "layout"
    window: str = "none"
    pending: list[int] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)

    # ----- the board -----

    def _exists(self, q: int) -> bool:
        """A position a pawn may stand on: a placed tile that has not sunk."""
        return self.status[q] in ("dry", "flooded")

    def _position_of_tile(self, tile: int) -> int | None:
        return self.tiles.index(tile) if tile in self.tiles else None

    def _steps(self, q: int, role: int) -> tuple[int, ...]:
        """The positions one step away: orthogonal, and diagonal too for the Explorer."""
        if role == EXPLORER:
            return self.game.orthogonal[q] + self.game.diagonal[q]
        return self.game.orthogonal[q]

    def _seat_order(self, start: int) -> list[int]:
        """Every seat in seat order starting at ``start``."""
        n = self.game.players
        return [(start + i) % n for i in range(n)]

    # ----- who acts -----

    def _discarding_seat(self) -> int | None:
        """§5.7: the seat over the hand limit. READING: should a (hand-built) state have several, the first
        in seat order from the turn seat."""
        for s in self._seat_order(self.turn):
            if self.seats[s].cards() > HAND_LIMIT:
                return s
        return None

    def _stranded(self) -> list[int]:
        """The seats whose pawn is on a sunk position (§5.5, §5.6), in seat order from the turn seat."""
        return [
            s
            for s in self._seat_order(self.turn)
            if self.seats[s].pawn >= 0 and self.status[self.seats[s].pawn] == "sunk"
        ]

    def _acting_seat(self) -> int | None:
        """The seat that decides now (§4), or None at chance and terminal nodes."""
        if self.phase in ("actions", "engineer"):
            return self.turn
        if self.phase == "discard":
            return self._discarding_seat()
        if self.phase == "swim":
            stranded = self._stranded()
            return stranded[0] if stranded else None
        if self.phase == "window":
            return self.pending[0] if self.pending else None
        return None

    def current_player(self) -> int:
        if self.phase == "over":
            return TERMINAL
        if self.phase in CHANCE_PHASES:
            return CHANCE
        seat = self._acting_seat()
        # A hand-built state may name no acting seat (the deserializer refuses those it lists); seat 0 then.
        return 0 if seat is None else seat

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def is_chance_node(self) -> bool:
        return self.phase in CHANCE_PHASES

    # ----- chance (§5.1, §5.4, §5.5) -----

    def _next_layout_position(self) -> int | None:
        return self.tiles.index(-1) if -1 in self.tiles else None

    def _next_role_seat(self) -> int | None:
        return next((s for s in range(self.game.players) if self.seats[s].role == -1), None)

    def _next_deal_seat(self) -> int | None:
        return next((s for s in range(self.game.players) if self.seats[s].cards() < CARDS_PER_PLAYER), None)

    def chance_weights(self) -> list[tuple[int, int]]:
        if self.phase == "layout":
            placed = set(self.tiles)
            return [(x, 1) for x in range(NUM_TILES) if x not in placed]
        if self.phase in ("setup_flood", "flood"):
            if not self.flood_pile:
                return []
            return [(x, 1) for x in sorted(self.flood_pile[0])]
        if self.phase == "roles":
            dealt = {seat.role for seat in self.seats}
            return [(r, 1) for r in range(len(ROLE_NAMES)) if r not in dealt]
        if self.phase == "deal":
            # Waters Rise! is never dealt (interp. 9): the weights leave it out.
            return [(k, self.treasure_pile[k]) for k in range(HELD_KINDS) if self.treasure_pile[k] > 0]
        if self.phase == "treasure":
            return [(k, self.treasure_pile[k]) for k in range(NUM_KINDS) if self.treasure_pile[k] > 0]
        return []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        weights = self.chance_weights()
        total = sum(weight for _, weight in weights)
        return [(action, weight / total) for action, weight in weights]

    def random_step(self, rng: RngLike) -> int:
        """DESIGN's random step with ``rng`` (either engine's Rng), applied; returns the action taken."""
        return random_step(self, rng)

    # ----- where pawns may go (§7) -----

    def _diver_moves(self, start: int) -> set[int]:
        """§7.1: positions reachable by orthogonal steps through layout positions, every position strictly
        between being flooded or sunk ("may move through one or more adjacent missing and/or flooded
        tiles")."""
        reached: set[int] = set()
        seen = {start}
        frontier = deque([start])
        while frontier:
            here = frontier.popleft()
            for there in self.game.orthogonal[here]:
                if there in seen:
                    continue
                seen.add(there)
                reached.add(there)
                if self.status[there] in ("flooded", "sunk"):
                    frontier.append(there)  # the Diver may go on through it
        return {q for q in reached if self._exists(q) and q != start}

    def _move_targets(self, seat: int) -> set[int]:
        """§7.1: where ``seat``'s pawn may move now (the Pilot's flight included while unused)."""
        pawn, role = self.seats[seat].pawn, self.seats[seat].role
        if pawn < 0:
            return set()
        if role == DIVER:
            return self._diver_moves(pawn)
        targets = {q for q in self._steps(pawn, role) if self._exists(q)}
        if role == PILOT and not self.pilot_flown:
            targets |= {q for q in range(NUM_POSITIONS) if self._exists(q) and q != pawn}
        return targets

    def _is_flight(self, seat: int, q: int) -> bool:
        """§5.3, interp. 3: a Pilot's move that is not orthogonally adjacent is the flight."""
        return self.seats[seat].role == PILOT and q not in self.game.orthogonal[self.seats[seat].pawn]

    def _shore_targets(self, seat: int) -> set[int]:
        """§5.3: flooded positions at the pawn or one step away (the Explorer's diagonal step included)."""
        pawn, role = self.seats[seat].pawn, self.seats[seat].role
        if pawn < 0:
            return set()
        around = {pawn, *self._steps(pawn, role)}
        return {q for q in around if self.status[q] == "flooded"}

    def _navigate_targets(self, moved: int) -> set[int]:
        """§7.2, interp. 4: one or two of the moved pawn's own steps (never a flight); the middle position
        must not be sunk, except for a Diver."""
        pawn, role = self.seats[moved].pawn, self.seats[moved].role
        if pawn < 0:
            return set()
        targets = {q for q in self._steps(pawn, role) if self._exists(q)}
        for middle in self._steps(pawn, role):
            status = self.status[middle]
            if status == "none" or (status == "sunk" and role != DIVER):
                continue
            targets |= {q for q in self._steps(middle, role) if self._exists(q)}
        targets.discard(pawn)
        return targets

    def _swim_targets(self, seat: int) -> set[int]:
        """§7.3, interp. 5: where a stranded pawn may swim."""
        pawn, role = self.seats[seat].pawn, self.seats[seat].role
        if pawn < 0:
            return set()
        if role == PILOT:
            return {q for q in range(NUM_POSITIONS) if self._exists(q)}
        if role != DIVER:
            return {q for q in self._steps(pawn, role) if self._exists(q)}
        # The Diver: the nearest standing positions, distance in orthogonal steps through any position.
        distance = {pawn: 0}
        frontier = deque([pawn])
        while frontier:
            here = frontier.popleft()
            for there in self.game.orthogonal[here]:
                if there not in distance:
                    distance[there] = distance[here] + 1
                    frontier.append(there)
        standing = [q for q in distance if self._exists(q)]
        if not standing:
            return set()
        nearest = min(distance[q] for q in standing)
        return {q for q in standing if distance[q] == nearest}

    # ----- legal actions -----

    def _special_plays(self, seat: int) -> list[int]:
        """§5.8: the Sandbags and Helicopter Lift plays ``seat`` can make from its own hand now."""
        hand = self.seats[seat].hand
        plays: list[int] = []
        if hand[CARD_SANDBAGS] > 0:
            plays += [SANDBAG + q for q in range(NUM_POSITIONS) if self.status[q] == "flooded"]
        if hand[CARD_HELI] > 0:
            n = self.game.players
            for mask in range(1, 1 << n):
                pawns = {self.seats[s].pawn for s in mask_seats(mask)}
                if len(pawns) != 1:
                    continue
                (start,) = pawns
                if start < 0:
                    continue
                # The start may be sunk only while its pawns are stranded: that is the rescue (§5.8); no
                # pawn stands on a sunk position at any other time.
                plays += [
                    HELI + 24 * (mask - 1) + q for q in range(NUM_POSITIONS) if q != start and self._exists(q)
                ]
            if self._liftoff_ready():
                plays.append(LIFTOFF)
        return plays

    def _liftoff_ready(self) -> bool:
        """§5.8 liftoff: all four treasures captured and every pawn on Fools' Landing (flooded or not)."""
        landing = self._position_of_tile(FOOLS_LANDING)
        if landing is None or not all(self.captured):
            return False
        return all(seat.pawn == landing for seat in self.seats)

    def _capture_treasure(self, seat: int) -> int | None:
        """§5.3 capture: the treasure the pawn's tile holds, if uncaptured and 4 cards of it are in hand."""
        pawn = self.seats[seat].pawn
        if pawn < 0 or self.tiles[pawn] < 0:
            return None
        treasure = TILE_TREASURE[self.tiles[pawn]]
        if treasure is None or self.captured[treasure] or self.seats[seat].hand[treasure] < 4:
            return None
        return treasure

    def _turn_actions(self) -> list[int]:
        """§5.3: the turn seat's actions (each costs 1), its special plays and ``pass``."""
        c = self.turn
        me = self.seats[c]
        n = self.game.players
        actions: list[int] = []
        if self.actions_left >= 1:
            actions += [MOVE + q for q in self._move_targets(c)]
            actions += [SHORE + q for q in self._shore_targets(c)]
            for s in range(n):
                if s == c:
                    continue
                if me.role == MESSENGER or (me.pawn >= 0 and self.seats[s].pawn == me.pawn):
                    actions += [GIVE + 4 * s + k for k in range(len(TREASURE_KEYS)) if me.hand[k] > 0]
            if self._capture_treasure(c) is not None:
                actions.append(CAPTURE)
            if me.role == NAVIGATOR:
                for s in range(n):
                    if s != c:
                        actions += [NAVIGATE + 24 * s + q for q in self._navigate_targets(s)]
        actions += self._special_plays(c)
        actions.append(PASS)
        return sorted(actions)

    def legal_actions(self) -> list[int]:
        if self.phase == "over":
            return []
        if self.is_chance_node():
            return [action for action, _ in self.chance_weights()]
        if self.phase == "actions":
            return self._turn_actions()
        if self.phase == "engineer":
            # §5.3.1: the second tile, free, or pass; no special play in between (interp. 6).
            return sorted(SHORE + q for q in self._shore_targets(self.turn)) + [PASS]
        seat = self._acting_seat()
        if seat is None:
            return []
        if self.phase == "discard":
            hand = self.seats[seat].hand
            discards = [DISCARD + k for k in range(HELD_KINDS) if hand[k] > 0]
            return sorted(discards + self._special_plays(seat))
        if self.phase == "swim":
            return sorted(SWIM + q for q in self._swim_targets(seat))
        # window
        return sorted(self._special_plays(seat)) + [PASS]

    def legal_actions_mask(self) -> npt.NDArray[np.int8]:
        size = MAX_CHANCE_OUTCOMES if self.is_chance_node() else NUM_DISTINCT_ACTIONS
        mask = np.zeros(size, dtype=np.int8)
        for action in self.legal_actions():
            mask[action] = 1
        return mask

    # ----- applying -----

    def apply_action(self, action: object) -> None:
        """Apply a legal action or chance outcome; anything else raises ``IllegalActionError`` and changes
        nothing (legality is checked before anything is touched)."""
        player = self.current_player()
        value = _as_int(action)
        if value is None or value not in self.legal_actions():
            raise IllegalActionError(
                f"{GAME_NAME}: action {action!r} is not legal for seat {player} in this state"
            )
        self.actions.append(value)
        if self.phase == "layout":
            self._place_tile(value)
        elif self.phase in ("setup_flood", "flood"):
            self._resolve_flood(value)
        elif self.phase == "roles":
            self._deal_role(value)
        elif self.phase == "deal":
            self._deal_card(value)
        elif self.phase == "treasure":
            self._resolve_treasure(value)
        elif self.phase == "actions":
            self._apply_turn_action(value)
        elif self.phase == "engineer":
            if value != PASS:
                self.status[value - SHORE] = "dry"  # free: part of the action just taken
            self._after_action()
        elif self.phase == "discard":
            seat = self._acting_seat()
            assert seat is not None
            if DISCARD <= value < SWIM:
                self.seats[seat].hand[value - DISCARD] -= 1
                self.treasure_discard[value - DISCARD] += 1
            else:
                self._special_play(seat, value)
            if self.phase != "over":
                self._after_discard()
        elif self.phase == "swim":
            seat = self._acting_seat()
            assert seat is not None
            self.seats[seat].pawn = value - SWIM
            self._next_swim()
        else:  # window
            if value == PASS:
                self.pending.pop(0)  # not asked again in this window
            else:
                self._special_play(self.pending[0], value)
            if self.phase != "over":
                self._settle_window()

    # ----- setup (§5.1) -----

    def _place_tile(self, tile: int) -> None:
        q = self._next_layout_position()
        assert q is not None
        self.tiles[q] = tile
        self.status[q] = "dry"
        if self._next_layout_position() is None:
            self.phase = "setup_flood"
            self.flood_left = INITIAL_FLOOD_CARDS
            self._flood_draws()

    def _deal_role(self, role: int) -> None:
        seat = self._next_role_seat()
        assert seat is not None
        self.seats[seat].role = role
        start = self._position_of_tile(START_TILE_OF_ROLE[role])
        self.seats[seat].pawn = -1 if start is None else start  # "It's OK to start on a flooded tile."
        if self._next_role_seat() is None:
            self.phase = "deal"

    def _deal_card(self, kind: int) -> None:
        seat = self._next_deal_seat()
        assert seat is not None
        self.treasure_pile[kind] -= 1
        self.seats[seat].hand[kind] += 1
        if self._next_deal_seat() is None:
            self.level = self.game.start_level
            self._begin_turn(0)

    # ----- a turn (§5.2, §5.3) -----

    def _begin_turn(self, seat: int) -> None:
        self.turn = seat
        self.stage = "actions"
        self.actions_left = ACTIONS_PER_TURN
        self.pilot_flown = False
        others = self._seat_order(seat)[1:]
        self._open_window("act", others)

    def _apply_turn_action(self, action: int) -> None:
        c = self.turn
        me = self.seats[c]
        if action == PASS:
            self._end_actions(after_pass=True)
            return
        if SANDBAG <= action <= LIFTOFF:
            self._special_play(c, action)  # free, and no window follows (§5.3 "After an action")
            return
        self.actions_left -= 1
        if action < SHORE:
            q = action - MOVE
            if self._is_flight(c, q):
                self.pilot_flown = True
            me.pawn = q
        elif action < GIVE:
            self.status[action - SHORE] = "dry"
            # "The Engineer may shore up 2 tiles for 1 action": offered at once if another tile can be.
            if me.role == ENGINEER and self._shore_targets(c):
                self.phase = "engineer"
                return
        elif action < CAPTURE:
            s, k = divmod(action - GIVE, 4)
            me.hand[k] -= 1
            self.seats[s].hand[k] += 1
        elif action == CAPTURE:
            treasure = self._capture_treasure(c)
            assert treasure is not None
            me.hand[treasure] -= 4
            self.treasure_discard[treasure] += 4  # interp. 8
            self.captured[treasure] = True
        else:  # navigate
            s, q = divmod(action - NAVIGATE, 24)
            self.seats[s].pawn = q
        self._after_action()

    def _after_action(self) -> None:
        """§5.3 "After an action": the hand limit first, then the next action or the end of the actions."""
        if self._discarding_seat() is not None:
            self.phase = "discard"
            return
        if self.actions_left > 0:
            self._open_window("act", self._seat_order(self.turn)[1:])
        else:
            self._end_actions(after_pass=False)

    def _end_actions(self, after_pass: bool) -> None:
        """§5.3 End of the actions. READING: ``actions_left`` is left as it is after a ``pass`` (the contract
        does not zero it); it is reset when the next turn begins."""
        self.stage = "treasure"
        self.treasure_left = TREASURE_CARDS_PER_TURN
        seats = self._seat_order(self.turn)
        # After a pass, that pass was the turn seat's pass of this window.
        self._open_window("end", seats[1:] if after_pass else seats)

    # ----- treasure draws (§5.4) -----

    def _treasure_draws(self) -> None:
        while self.treasure_left > 0:
            if sum(self.treasure_pile) == 0:
                self._reshuffle_treasure()  # the fallback (interp. 2)
            if sum(self.treasure_pile) == 0:
                self.treasure_left -= 1  # nothing to draw: the draw is skipped
                continue
            self.phase = "treasure"
            return
        self.stage = "flood"
        self.flood_left = flood_cards_at(self.level)
        self._flood_draws()

    def _reshuffle_treasure(self) -> None:
        """The treasure discard becomes the pile (an unordered multiset: nothing to shuffle)."""
        for k in range(NUM_KINDS):
            self.treasure_pile[k] += self.treasure_discard[k]
            self.treasure_discard[k] = 0

    def _resolve_treasure(self, kind: int) -> None:
        self.treasure_pile[kind] -= 1
        self.treasure_left -= 1
        # "When the last card of the Treasure deck is drawn, immediately shuffle the Treasure discard pile":
        # the card just drawn is not in it.
        if sum(self.treasure_pile) == 0:
            self._reshuffle_treasure()
        if kind == CARD_WATERS_RISE:
            self.level += 1
            # READING: the card goes to the treasure discard on the losing rise too (the serialized end state
            # must conserve every card, §10).
            self.treasure_discard[CARD_WATERS_RISE] += 1
            if self.level >= SKULL_LEVEL:
                self._end("lost")
                return
            # "shuffled and placed on top of the Flood draw pile": a new top layer. A second Waters Rise!
            # in a row finds the discard empty and only raises the level.
            if self.flood_discard:
                self.flood_pile.insert(0, self.flood_discard)
                self.flood_discard = set()
        else:
            self.seats[self.turn].hand[kind] += 1
            if self.seats[self.turn].cards() > HAND_LIMIT:
                self.phase = "discard"
                return
        self._open_window("treasure", self._seat_order(self.turn))

    # ----- flood draws (§5.5) -----

    def _flood_draws(self) -> None:
        setup = self.stage == "setup"
        while self.flood_left > 0:
            if not self.flood_pile:
                self._reshuffle_flood()  # the fallback (interp. 2)
            if not self.flood_pile:
                self.flood_left -= 1  # nothing to draw: the draw is skipped
                continue
            self.phase = "setup_flood" if setup else "flood"
            return
        if setup:
            self.phase = "roles"
        else:
            self._begin_turn((self.turn + 1) % self.game.players)

    def _reshuffle_flood(self) -> None:
        """The flood discard becomes the pile's only layer (layers are never empty)."""
        if self.flood_discard:
            self.flood_pile = [self.flood_discard]
            self.flood_discard = set()

    def _resolve_flood(self, tile: int) -> None:
        setup = self.stage == "setup"
        top = self.flood_pile[0]
        top.remove(tile)
        if not top:
            self.flood_pile.pop(0)
        self.flood_left -= 1
        # "If the Flood draw pile ever runs out, immediately shuffle the Flood discard pile": the card just
        # drawn is not in it.
        if not self.flood_pile:
            self._reshuffle_flood()
        q = self._position_of_tile(tile)
        if q is None or self.status[q] == "dry":
            if q is not None:
                self.status[q] = "flooded"
            self.flood_discard.add(tile)
        else:
            # "If the matching Island tile is already flooded, it sinks into the abyss! Remove it and the
            # matching Flood card from the game."
            self.status[q] = "sunk"
            if tile == FOOLS_LANDING:
                self._end("lost")
                return
            treasure = TILE_TREASURE[tile]
            if treasure is not None and not self.captured[treasure]:
                others = [self._position_of_tile(x) for x in TREASURE_TILES[treasure] if x != tile]
                if all(p is not None and self.status[p] == "sunk" for p in others):
                    self._end("lost")
                    return
            if not setup and self._stranded():
                self._open_window("rescue", self._seat_order(self.turn))
                return
        if setup:
            self._flood_draws()  # no windows during setup
            return
        self._open_window("flood", self._seat_order(self.turn))

    # ----- swimming (§5.6) -----

    def _start_swims(self) -> None:
        """The rescue window closed: every pawn still on the sunk tile swims, or the game is lost."""
        stranded = self._stranded()
        if any(not self._swim_targets(s) for s in stranded):
            self._end("lost")  # "it sinks into the abyss and everyone loses the game!"
            return
        self._next_swim()

    def _next_swim(self) -> None:
        if self._stranded():
            self.phase = "swim"
            return
        self._open_window("flood", self._seat_order(self.turn))  # step 4 of §5.5

    # ----- the hand limit (§5.7) -----

    def _after_discard(self) -> None:
        """Repeated while a seat is over the limit; then play goes on where it was."""
        if self._discarding_seat() is not None:
            self.phase = "discard"
            return
        if self.stage == "actions":
            self._after_action()
        elif self.stage == "flood":
            self._open_window("flood", self._seat_order(self.turn))  # never reached by play
        else:
            self._open_window("treasure", self._seat_order(self.turn))  # step 4 of §5.4

    # ----- special plays (§5.8) -----

    def _special_play(self, seat: int, action: int) -> None:
        hand = self.seats[seat].hand
        if action < HELI:
            hand[CARD_SANDBAGS] -= 1
            self.treasure_discard[CARD_SANDBAGS] += 1
            self.status[action - SANDBAG] = "dry"
            return
        hand[CARD_HELI] -= 1
        self.treasure_discard[CARD_HELI] += 1
        if action == LIFTOFF:
            self._end("won")
            return
        m, q = divmod(action - HELI, 24)
        for s in mask_seats(m + 1):
            self.seats[s].pawn = q

    # ----- windows (§6) -----

    def _open_window(self, kind: str, seats: list[int]) -> None:
        self.window = kind
        self.pending = list(seats)
        self._settle_window()

    def _settle_window(self) -> None:
        """§6 Settle: drop the first pending seat while it has no special play; close an empty window."""
        while self.pending and not self._special_plays(self.pending[0]):
            self.pending.pop(0)
        if self.pending:
            self.phase = "window"
            return
        kind = self.window
        self.window = "none"
        if kind == "act":
            self.phase = "actions"
        elif kind in ("end", "treasure"):
            self._treasure_draws()
        elif kind == "rescue":
            self._start_swims()
        else:  # flood
            self._flood_draws()

    def _end(self, outcome: str) -> None:
        """§5.9: the game ends at once."""
        self.outcome = outcome
        self.phase = "over"
        self.window = "none"
        self.pending = []

    # ----- results (§5.9) -----

    def returns(self) -> list[float]:
        n = self.game.players
        if self.phase != "over":
            return [0.0] * n
        return [1.0 if self.outcome == "won" else 0.0] * n

    def scores(self) -> list[float]:
        """``10 x (treasures captured) + (10 - level) + (50 if won)``, the same for every seat."""
        value = 10 * sum(self.captured) + (10 - self.level) + (50 if self.outcome == "won" else 0)
        return [float(value)] * self.game.players

    def history(self) -> list[int]:
        return list(self.actions)

    def clone(self) -> ForbiddenIslandState:
        return ForbiddenIslandState(
            game=self.game,
            tiles=list(self.tiles),
            status=list(self.status),
            seats=[seat.copy() for seat in self.seats],
            level=self.level,
            treasure_pile=list(self.treasure_pile),
            treasure_discard=list(self.treasure_discard),
            flood_pile=[set(layer) for layer in self.flood_pile],
            flood_discard=set(self.flood_discard),
            captured=list(self.captured),
            outcome=self.outcome,
            turn=self.turn,
            stage=self.stage,
            actions_left=self.actions_left,
            pilot_flown=self.pilot_flown,
            treasure_left=self.treasure_left,
            flood_left=self.flood_left,
            phase=self.phase,
            window=self.window,
            pending=list(self.pending),
            actions=list(self.actions),
        )

    def resample_from_infostate(self, player: object, rng: object = None) -> ForbiddenIslandState:
        """§9.3: nothing is hidden, so a clone; ``rng`` is not used."""
        self._check_seat(player)
        return self.clone()

    # ----- notation (§8) -----

    def _position_text(self, q: int) -> str:
        return self.game.position_names[q]

    def action_to_string(self, action: object) -> str:
        value = _as_int(action)
        if self.is_chance_node():
            return self._chance_text(action, value)
        if value is None or not 0 <= value < NUM_DISTINCT_ACTIONS:
            raise IllegalActionError(
                f"{GAME_NAME}: action {action!r} is out of range 0..{NUM_DISTINCT_ACTIONS - 1} "
                f"(seat {self.current_player()})"
            )
        pos = self._position_text
        if value < SHORE:
            return f"move {pos(value - MOVE)}"
        if value < GIVE:
            return f"shore {pos(value - SHORE)}"
        if value < CAPTURE:
            s, k = divmod(value - GIVE, 4)
            return f"give {s} {KIND_NAMES[k]}"
        if value == CAPTURE:
            return "capture"
        if value < SANDBAG:
            s, q = divmod(value - NAVIGATE, 24)
            return f"navigate {s} {pos(q)}"
        if value < HELI:
            return f"sandbag {pos(value - SANDBAG)}"
        if value < LIFTOFF:
            m, q = divmod(value - HELI, 24)
            return "heli " + "+".join(str(s) for s in mask_seats(m + 1)) + f" {pos(q)}"
        if value == LIFTOFF:
            return "liftoff"
        if value < SWIM:
            return f"discard {KIND_NAMES[value - DISCARD]}"
        if value < PASS:
            return f"swim {pos(value - SWIM)}"
        return "pass"

    def _chance_range(self) -> tuple[str, tuple[str, ...]]:
        """The chance text's word and its arguments (indexed by outcome id) in this phase."""
        if self.phase == "layout":
            return "tile", TILE_KEYS
        if self.phase in ("setup_flood", "flood"):
            return "flood", TILE_KEYS
        if self.phase == "roles":
            return "role", ROLE_NAMES
        return "card", KIND_NAMES  # deal, treasure

    def _chance_text(self, action: object, value: int | None) -> str:
        word, names = self._chance_range()
        if value is None or not 0 <= value < len(names):
            raise IllegalActionError(
                f"{GAME_NAME}: chance outcome {action!r} is out of range 0..{len(names) - 1} ({self.phase})"
            )
        return f"{word} {names[value]}"

    def string_to_action(self, text: object) -> int:
        if not isinstance(text, str):
            raise InvalidNotationError(
                f"{GAME_NAME}: an action text must be a str, not {type(text).__name__}"
            )
        folded = fold_white_space(text)
        if self.is_chance_node():
            word, names = self._chance_range()
            argument = folded[len(word) + 1 :] if folded.startswith(word + " ") else folded
            if argument not in names:
                raise InvalidNotationError(f"{GAME_NAME}: cannot read chance outcome {text!r} ({self.phase})")
            return names.index(argument)
        action = self._read_decision(folded)
        if action is None:
            raise InvalidNotationError(f"{GAME_NAME}: cannot read action {text!r}")
        return action

    def _read_decision(self, folded: str) -> int | None:
        """The id of a decision text (already folded), or None."""
        simple = {"capture": CAPTURE, "liftoff": LIFTOFF, "pass": PASS}
        if folded in simple:
            return simple[folded]
        words = folded.split(" ")
        positions = self.game.position_of_name
        if len(words) == 2:
            verb, argument = words
            if verb in ("move", "shore", "sandbag", "swim"):
                if argument not in positions:
                    return None
                base = {"move": MOVE, "shore": SHORE, "sandbag": SANDBAG, "swim": SWIM}[verb]
                return base + positions[argument]
            if verb == "discard":
                kinds = KIND_NAMES[:HELD_KINDS]
                return DISCARD + kinds.index(argument) if argument in kinds else None
            return None
        if len(words) == 3:
            verb, first, last = words
            if verb == "give":
                seat = _read_seat(first)
                kinds = KIND_NAMES[: len(TREASURE_KEYS)]
                if seat is None or last not in kinds:
                    return None
                return GIVE + 4 * seat + kinds.index(last)
            if verb == "navigate":
                seat = _read_seat(first)
                if seat is None or last not in positions:
                    return None
                return NAVIGATE + 24 * seat + positions[last]
            if verb == "heli":
                mask = _read_mask(first)
                if mask is None or last not in positions:
                    return None
                return HELI + 24 * (mask - 1) + positions[last]
        return None

    # ----- observations (§9) -----

    def _check_seat(self, player: object) -> int:
        value = _as_int(player)
        if value is None or not 0 <= value < self.game.players:
            raise InvalidStateError(f"seat {player!r} out of range 0..{self.game.players - 1}")
        return value

    def _flood_card_place(self, tile: int) -> list[float]:
        """§9.1: in the flood pile; cards in the layers above its layer; cards in its layer; in the
        discard."""
        above = 0
        for layer in self.flood_pile:
            if tile in layer:
                return [1.0, float(above), float(len(layer)), 0.0]
            above += len(layer)
        if tile in self.flood_discard:
            return [0.0, 0.0, 0.0, 1.0]
        return [0.0, 0.0, 0.0, 0.0]  # sunk: out of the game

    def observation_tensor(self, player: object) -> npt.NDArray[np.float32]:
        """§9.1, seats relative to the observer."""
        observer = self._check_seat(player)
        n = self.game.players

        def relative(seat: int) -> int:
            return (seat - observer) % n

        def seat_vector(seats: list[int]) -> list[float]:
            vector = [0.0] * n
            for s in seats:
                vector[relative(s)] = 1.0
            return vector

        values: list[float] = []
        # 1. Positions.
        for q in range(NUM_POSITIONS):
            tile = self.tiles[q]
            values += [float(tile == x) for x in range(NUM_TILES)]
            values += [float(self.status[q] == status) for status in STATUSES]
            values += seat_vector([s for s in range(n) if self.seats[s].pawn == q])
            values += self._flood_card_place(tile) if tile >= 0 else [0.0] * 4
        # 2. Seats.
        for i in range(n):
            seat = self.seats[(observer + i) % n]
            values += [float(seat.role == r) for r in range(len(ROLE_NAMES))]
            values += [float(count) for count in seat.hand]
        # 3. Global.
        values.append(float(self.level))
        values.append(float(flood_cards_at(self.level)))
        values += [float(c) for c in self.captured]
        values += [float(c) for c in self.treasure_pile]
        values += [float(c) for c in self.treasure_discard]
        values.append(float(self.actions_left))
        values.append(float(self.pilot_flown))
        values += [float(self.phase == phase) for phase in PHASES]
        values += [float(self.phase == "window" and self.window == kind) for kind in WINDOWS]
        values.append(float(self.treasure_left))
        values.append(float(self.flood_left))
        values.append(float(self.outcome == "won"))
        values.append(float(self.outcome == "lost"))
        values += seat_vector([self.turn])
        acting = self._acting_seat()
        values += seat_vector([] if acting is None else [acting])
        values += seat_vector(self.pending if self.phase == "window" else [])
        # READING: "the stranded seats still to swim" are the pawns on a sunk position (only in the rescue
        # window and the swims).
        values += seat_vector(self._stranded())
        tensor = np.asarray(values, dtype=np.float32)
        assert tensor.shape == self.game.observation_shape(), (tensor.shape, self.game.observation_shape())
        return tensor

    def observation_string(self, player: object) -> str:
        """§9.2: a readable picture of the whole (public) state, seats from the observer on."""
        observer = self._check_seat(player)
        game = self.game
        n = game.players
        mover = self.current_player()
        who = "chance" if mover == CHANCE else "terminal" if mover == TERMINAL else f"seat {mover}"
        lines = [
            f"Forbidden Island ({game.layout}, {game.difficulty}), seen by seat {observer}: "
            f"phase {self.phase}"
            + (f" ({self.window} window, pending {self.pending})" if self.phase == "window" else "")
            + f", turn of seat {self.turn} ({self.stage}), to move: {who}"
        ]
        lines.append(
            f"water level {self.level} ({flood_cards_at(self.level)} flood cards a turn); actions left "
            f"{self.actions_left}; pilot flown {self.pilot_flown}; treasure draws left {self.treasure_left}; "
            f"flood draws left {self.flood_left}; outcome {self.outcome}"
        )
        width = max(x for x, _ in game.cells)
        height = max(y for _, y in game.cells)
        at = {cell: q for q, cell in enumerate(game.cells)}
        mark = {"dry": " ", "flooded": "~", "sunk": "X", "none": "?"}
        for y in range(1, height + 1):
            row = []
            for x in range(1, width + 1):
                q = at.get((x, y))
                if q is None:
                    row.append(" " * 16)
                    continue
                tile = self.tiles[q]
                label = TILE_KEYS[tile][:9] if tile >= 0 else "?"
                pawns = "".join(str(s) for s in range(n) if self.seats[s].pawn == q)
                row.append(
                    f"{game.position_names[q]}{mark[self.status[q]]}{label:<9}{pawns:<4}"[:16].ljust(16)
                )
            lines.append("|".join(row).rstrip())
        lines.append("(~ flooded, X sunk; digits are the pawns of those seats)")
        captured = [TREASURE_KEYS[t] for t in range(len(TREASURE_KEYS)) if self.captured[t]]
        lines.append("captured: " + (", ".join(captured) or "none"))
        for i in range(n):
            s = (observer + i) % n
            seat = self.seats[s]
            role = ROLE_NAMES[seat.role] if seat.role >= 0 else "?"
            where = game.position_names[seat.pawn] if seat.pawn >= 0 else "-"
            hand = (
                ", ".join(f"{KIND_NAMES[k]} {seat.hand[k]}" for k in range(HELD_KINDS) if seat.hand[k]) or "-"
            )
            lines.append(f"seat {s}: {role} on {where}; hand: {hand}")

        def counts(pile: list[int]) -> str:
            return ", ".join(f"{KIND_NAMES[k]} {pile[k]}" for k in range(NUM_KINDS) if pile[k]) or "empty"

        lines.append(f"treasure pile: {counts(self.treasure_pile)}")
        lines.append(f"treasure discard: {counts(self.treasure_discard)}")
        layers = " / ".join(" ".join(TILE_KEYS[x] for x in sorted(layer)) for layer in self.flood_pile)
        lines.append(f"flood pile (top layer first): {layers or 'empty'}")
        lines.append(
            "flood discard: " + (" ".join(TILE_KEYS[x] for x in sorted(self.flood_discard)) or "empty")
        )
        if self.phase == "over":
            lines.append(f"returns {self.returns()}")
        return "\n".join(lines)

    def information_state_string(self, player: object) -> str:
        """§9.2: ``seat=<p> history=<ids joined by ",">``: every action and outcome is public."""
        observer = self._check_seat(player)
        return f"seat={observer} history=" + ",".join(str(action) for action in self.actions)

    # ----- serialization (§10) -----

    def to_json_object(self) -> dict[str, object]:
        return {
            "actions_left": self.actions_left,
            "captured": list(self.captured),
            "flood_discard": sorted(self.flood_discard),
            "flood_left": self.flood_left,
            "flood_pile": [sorted(layer) for layer in self.flood_pile],
            "game": GAME_NAME,
            "history": list(self.actions),
            "level": self.level,
            "outcome": self.outcome,
            "params": self.game.params,
            "pending": list(self.pending),
            "phase": self.phase,
            "pilot_flown": self.pilot_flown,
            "seats": [{"hand": list(s.hand), "pawn": s.pawn, "role": s.role} for s in self.seats],
            "stage": self.stage,
            "status": list(self.status),
            "tiles": list(self.tiles),
            "treasure_discard": list(self.treasure_discard),
            "treasure_left": self.treasure_left,
            "treasure_pile": list(self.treasure_pile),
            "turn": self.turn,
            "version": SERIAL_VERSION,
            "window": self.window,
        }

    def serialize(self) -> str:
        return json.dumps(self.to_json_object(), sort_keys=True, separators=(",", ":"))

    def __str__(self) -> str:
        mover = self.current_player()
        return self.observation_string(mover if mover >= 0 else 0)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ForbiddenIslandState) and other.serialize() == self.serialize()

    __hash__ = None  # type: ignore[assignment]  # mutable, so unhashable: typeshed's idiom, no other spelling


# ---------------------------------------------------------------------------------------------------------
# Notation readers (§8)
# ---------------------------------------------------------------------------------------------------------

_SEAT = re.compile(r"[0-9]")


def _read_seat(text: str) -> int | None:
    """``<s>``: one ASCII digit 0..3. READING: no sign and no leading zero (the contract names `0`..`3`)."""
    if not _SEAT.fullmatch(text):
        return None
    seat = int(text)
    return seat if seat < MAX_SEATS else None


def _read_mask(text: str) -> int | None:
    """``<seats>``: seats joined by ``+``, in any order, none twice; the mask 1..15."""
    mask = 0
    for part in text.split("+"):
        seat = _read_seat(part)
        if seat is None or mask >> seat & 1:
            return None
        mask |= 1 << seat
    return mask or None


# ---------------------------------------------------------------------------------------------------------
# Deserialization (§10)
# ---------------------------------------------------------------------------------------------------------

_TOP_KEYS = frozenset(
    {
        "actions_left",
        "captured",
        "flood_discard",
        "flood_left",
        "flood_pile",
        "game",
        "history",
        "level",
        "outcome",
        "params",
        "pending",
        "phase",
        "pilot_flown",
        "seats",
        "stage",
        "status",
        "tiles",
        "treasure_discard",
        "treasure_left",
        "treasure_pile",
        "turn",
        "version",
        "window",
    }
)
_SEAT_KEYS = frozenset({"hand", "pawn", "role"})


_fields = StrictFields(f"{GAME_NAME}: bad serialized state: ")
_bad, _strict_pairs, _check_keys, _int_in, _bool = (
    _fields.bad,
    _fields.pairs,
    _fields.keys,
    _fields.int_in,
    _fields.boolean,
)


def _word(value: object, words: tuple[str, ...], what: str) -> str:
    if not isinstance(value, str) or value not in words:
        raise _bad(f"{what} {value!r} is not one of {words}")
    return value


_list = _fields.list


def _counts(value: object, length: int, what: str) -> list[int]:
    items = _list(value, what, length)
    counts = []
    for item in items:
        if not _is_int(item) or item < 0:
            raise _bad(f"{what} holds {item!r}, not a count")
        counts.append(item)
    return counts


def _tile_set(value: object, what: str) -> set[int]:
    """A list of tile ids, strictly ascending."""
    ids = [_int_in(x, 0, NUM_TILES - 1, f"a tile id in {what}") for x in _list(value, what)]
    if any(a >= b for a, b in zip(ids, ids[1:], strict=False)):
        raise _bad(f"{what} is not in ascending order")
    return set(ids)


def _deserialize(game: ForbiddenIslandGame, text: object) -> ForbiddenIslandState:
    if not isinstance(text, str):
        raise InvalidStateError(f"{GAME_NAME}: a serialized state must be a str, not {type(text).__name__}")
    try:
        obj = json.loads(text, object_pairs_hook=_strict_pairs)
    except InvalidStateError:
        raise
    except Exception as error:  # JSONDecodeError, RecursionError, ...
        raise _bad(f"not valid JSON ({type(error).__name__})") from None
    obj = _check_keys(obj, _TOP_KEYS, "the state")
    if obj["game"] != GAME_NAME:
        raise _bad(f"game {obj['game']!r} is not {GAME_NAME!r}")
    if not _is_int(obj["version"]) or obj["version"] != SERIAL_VERSION:
        raise _bad(f"version {obj['version']!r} is not {SERIAL_VERSION}")
    if not same_params(obj["params"], game.params):
        raise _bad("params are not the game's own")
    n = game.players

    # Types, lengths and ranges.
    phase = _word(obj["phase"], PHASES, "phase")
    stage = _word(obj["stage"], STAGES, "stage")
    window = _word(obj["window"], ("none", *WINDOWS), "window")
    outcome = _word(obj["outcome"], OUTCOMES, "outcome")
    level = _int_in(obj["level"], 1, SKULL_LEVEL, "level")
    actions_left = _int_in(obj["actions_left"], 0, ACTIONS_PER_TURN, "actions_left")
    treasure_left = _int_in(obj["treasure_left"], 0, TREASURE_CARDS_PER_TURN, "treasure_left")
    flood_left = _int_in(obj["flood_left"], 0, INITIAL_FLOOD_CARDS, "flood_left")
    turn = _int_in(obj["turn"], 0, n - 1, "turn")
    pilot_flown = _bool(obj["pilot_flown"], "pilot_flown")
    pending = [_int_in(s, 0, n - 1, "a pending seat") for s in _list(obj["pending"], "pending")]
    captured = [_bool(c, "a captured flag") for c in _list(obj["captured"], "captured", len(TREASURE_KEYS))]
    treasure_pile = _counts(obj["treasure_pile"], NUM_KINDS, "treasure_pile")
    treasure_discard = _counts(obj["treasure_discard"], NUM_KINDS, "treasure_discard")
    tiles = [
        _int_in(x, -1, NUM_TILES - 1, "a tiles entry") for x in _list(obj["tiles"], "tiles", NUM_POSITIONS)
    ]
    status = [
        _word(s, ("none", *STATUSES), "a status") for s in _list(obj["status"], "status", NUM_POSITIONS)
    ]
    flood_discard = _tile_set(obj["flood_discard"], "flood_discard")
    flood_pile = []
    for index, layer in enumerate(_list(obj["flood_pile"], "flood_pile")):
        cards = _tile_set(layer, f"flood_pile layer {index}")
        if not cards:
            raise _bad(f"flood_pile layer {index} is empty")
        flood_pile.append(cards)
    history = [
        _int_in(a, 0, NUM_DISTINCT_ACTIONS - 1, "a history id") for a in _list(obj["history"], "history")
    ]
    seats: list[Seat] = []
    for index, raw in enumerate(_list(obj["seats"], "seats", n)):
        entry = _check_keys(raw, _SEAT_KEYS, f"seat {index}")
        role = _int_in(entry["role"], -1, len(ROLE_NAMES) - 1, f"seat {index} role")
        pawn = _int_in(entry["pawn"], -1, NUM_POSITIONS - 1, f"seat {index} pawn")
        hand = _counts(entry["hand"], HELD_KINDS, f"seat {index} hand")
        seats.append(Seat(role, pawn, hand))

    # Conservation.
    placed = [x for x in tiles if x >= 0]
    if len(placed) != len(set(placed)):
        raise _bad("a tile is placed twice")
    for q in range(NUM_POSITIONS):
        # READING: "status is none exactly for the positions whose tiles entry is -1" (§10) is refused too.
        if (status[q] == "none") != (tiles[q] == -1):
            raise _bad(f"position {q}: status none must go with tile -1, and only with it")
    roles = [seat.role for seat in seats if seat.role >= 0]
    if len(roles) != len(set(roles)):
        raise _bad("a role is dealt twice")
    for index, seat in enumerate(seats):
        # READING: "A pawn and a role are -1 exactly before the roles are dealt to that seat" is refused too.
        if (seat.role == -1) != (seat.pawn == -1):
            raise _bad(f"seat {index}: a pawn without a role or a role without a pawn")
    for k in range(NUM_KINDS):
        held = sum(seat.hand[k] for seat in seats) if k < HELD_KINDS else 0
        if treasure_pile[k] + treasure_discard[k] + held != KIND_COUNTS[k]:
            raise _bad(f"the {KIND_NAMES[k]} cards do not add up to {KIND_COUNTS[k]}")
    places = [flood_discard, *flood_pile]
    sunk_tiles = {tiles[q] for q in range(NUM_POSITIONS) if status[q] == "sunk"}
    layout_complete = -1 not in tiles
    in_pile = set().union(*flood_pile) if flood_pile else set()
    for x in range(NUM_TILES):
        found = sum(1 for place in places if x in place)
        if found > 1:
            raise _bad(f"the flood card of tile {x} is in two places")
        if x in sunk_tiles and found:
            raise _bad(f"the flood card of sunk tile {x} is still in play")
        if x in placed and x not in sunk_tiles and not found:
            raise _bad(f"the flood card of tile {x} is nowhere")
        if not layout_complete and x not in in_pile:
            raise _bad("before the layout is complete every flood card is in the pile")

    # Consistency.
    if (window != "none") != (phase == "window"):
        raise _bad("window must be set exactly in the window phase")
    if (outcome != "none") != (phase == "over"):
        raise _bad("outcome must be set exactly in the over phase")
    # READING: a game lost by a sinking tile (Fools' Landing, a treasure's last tile, a pawn that cannot
    # swim) ends with the pawns still on it, so the end (phase over) is allowed it as well: the contract's
    # rule names only the rescue window and the swims, which would refuse those terminal states.
    rescue = (phase == "window" and window == "rescue") or phase in ("swim", "over")
    for index, seat in enumerate(seats):
        if seat.pawn >= 0 and status[seat.pawn] == "sunk" and not rescue:
            raise _bad(f"seat {index}'s pawn is on a sunk position outside a rescue")

    state = ForbiddenIslandState(
        game=game,
        tiles=tiles,
        status=status,
        seats=seats,
        level=level,
        treasure_pile=treasure_pile,
        treasure_discard=treasure_discard,
        flood_pile=flood_pile,
        flood_discard=flood_discard,
        captured=captured,
        outcome=outcome,
        turn=turn,
        stage=stage,
        actions_left=actions_left,
        pilot_flown=pilot_flown,
        treasure_left=treasure_left,
        flood_left=flood_left,
        phase=phase,
        window=window,
        pending=pending,
        actions=history,
    )
    # Settled: the acting seat of these phases has something to do (pass aside, which is always there).
    if phase == "window" and not (pending and state._special_plays(pending[0])):
        raise _bad("the window's first pending seat has no special play (not settled)")
    if phase == "discard" and state._discarding_seat() is None:
        raise _bad("a discard phase with no seat over the hand limit")
    if phase == "swim" and not (state._stranded() and state._swim_targets(state._stranded()[0])):
        raise _bad("a swim phase with no stranded pawn that can swim")
    if phase == "engineer" and not state._shore_targets(turn):
        raise _bad("an engineer phase with no second tile to shore up (not settled)")
    # §5.3: the actions phase is there only while an action is left; the last one ends the actions at once.
    if phase == "actions" and actions_left == 0:
        raise _bad("an actions phase with no action left (not settled)")
    return state


__all__ = [
    "CAPTURE",
    "DISCARD",
    "GIVE",
    "HELI",
    "LIFTOFF",
    "MOVE",
    "NAVIGATE",
    "NUM_DISTINCT_ACTIONS",
    "PASS",
    "SANDBAG",
    "SHORE",
    "SWIM",
    "ForbiddenIslandGame",
    "ForbiddenIslandState",
    "Seat",
    "flood_cards_at",
    "mask_seats",
]
