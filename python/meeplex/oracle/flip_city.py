"""Flip City (base set, Office expansion, solo variant): the pure-Python reference implementation.

Written from the rulebook (``shared/rules/flip_city.txt``) and the contract ``docs/rules/flip_city.md``;
section numbers (§) refer to that contract, "interp. N" to its numbered interpretations, and rulebook
sections by their headings (Preparation, A: Play Cards Phase, B: Building Phase, Solo Variant, FAQ).

Plain and slow on purpose: every rule is one readable step, so that this file can be checked by eye
against the rules and used to catch the Rust core disagreeing with them.

Places where the contract had to be read one way among several are marked ``READING:`` in comments.
"""

from __future__ import annotations

import copy
import json
import operator
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from meeplex._params import game_string
from meeplex.errors import IllegalActionError, InvalidNotationError, InvalidStateError

GAME_NAME = "flip_city"
SERIAL_VERSION = 1

# current_player() at a chance node / once the game is over (DESIGN.md; OpenSpiel's ids). The same values
# are exported by meeplex.oracle; they are repeated here so that this module imports nothing from its package.
CHANCE = -1
TERMINAL = -4

# ---------------------------------------------------------------------------------------------------------
# §2 Components: the face table
# ---------------------------------------------------------------------------------------------------------

NUM_FACES = 12

# Face ids: a card's two faces are 2k (front) and 2k+1 (back); flipping a card is ``face ^ 1``.
RESIDENTIAL_AREA = 0
APARTMENT = 1
CONVENIENCE_STORE = 2
SHOPPING_MALL = 3
CENTRAL_PARK = 4
STATION = 5
HOSPITAL = 6
CHURCH = 7
OFFICE = 8
TRADE_CENTER = 9
FACTORY = 10
POWER_PLANT = 11

# Recycle bonuses (back faces only, §2 last column).
RECYCLE_CASH = "cash"  # Shopping Mall: +1 cash (interp. 5, if mall_recycle)
RECYCLE_POINT = "point"  # Station: +1 point (interp. 5, if station_recycle)
RECYCLE_LIMIT = "limit"  # Church, Trade Center: +1 unhappiness limit
RECYCLE_TOP = "top"  # Power Plant: turns over to Factory and goes on top of the deck


@dataclass(frozen=True)
class Face:
    """One side of a card, as printed (§2). ``None`` means "not printed": no cost, no flip fee, no recycle."""

    name: str
    cost: int | None
    cash: int
    points: int
    unhappiness: int
    flip_fee: int | None
    recycle: str | None


# The table of §2 with the default parameters; the parameter-dependent entries are marked and resolved per
# game by ``face_table(params)``.
BASE_FACES: tuple[Face, ...] = (
    #    name                 cost  cash pts unh  fee   recycle
    Face("Residential Area", None, 1, 0, 1, 1, None),
    Face("Apartment", None, 1, 0, 1, 8, None),  # unhappiness = apartment_unhappiness (interp. 3)
    Face("Convenience Store", 2, 1, 0, 0, 3, None),
    Face("Shopping Mall", None, 2, 1, 0, None, RECYCLE_CASH),  # recycle only if mall_recycle (interp. 5)
    Face("Central Park", 7, 0, 2, 0, 5, None),
    Face("Station", None, 0, 2, 0, None, RECYCLE_POINT),  # recycle only if station_recycle (interp. 5)
    Face("Hospital", 4, 1, 0, 1, 4, None),  # cash = hospital_cash (interp. 1)
    Face("Church", None, 0, 0, 0, None, RECYCLE_LIMIT),  # provides nothing (interp. 7)
    Face("Office", 3, 1, 0, 0, 4, None),
    Face("Trade Center", None, 0, 0, 0, None, RECYCLE_LIMIT),
    Face("Factory", 5, 2, 0, 0, 6, None),
    Face("Power Plant", None, 1, 2, 0, None, RECYCLE_TOP),
)

FACE_NAMES: tuple[str, ...] = tuple(face.name for face in BASE_FACES)

# Rulebook, Preparation 1: each seat's starting deck (per face).
# 4 Residential Area, 1 Apartment, 1 Convenience Store, 1 Central Park, 1 Hospital, 1 Factory.
STARTING_DECK: tuple[int, ...] = (4, 1, 1, 0, 1, 0, 1, 0, 0, 0, 1, 0)


def face_table(params: dict) -> tuple[Face, ...]:
    """The §2 table with this game's parameters applied."""
    faces = list(BASE_FACES)
    faces[APARTMENT] = _replace(faces[APARTMENT], unhappiness=params["apartment_unhappiness"])
    faces[HOSPITAL] = _replace(faces[HOSPITAL], cash=params["hospital_cash"])
    if not params["mall_recycle"]:
        faces[SHOPPING_MALL] = _replace(faces[SHOPPING_MALL], recycle=None)
    if not params["station_recycle"]:
        faces[STATION] = _replace(faces[STATION], recycle=None)
    return tuple(faces)


def _replace(face: Face, **changes: object) -> Face:
    values = {name: getattr(face, name) for name in Face.__dataclass_fields__}
    values.update(changes)
    return Face(**values)  # type: ignore[arg-type]


def starting_supply(params: dict) -> list[int]:
    """Rulebook, Preparation 2 and Solo 1: the general supply per face."""
    solo = params["players"] == 1
    supply = [0] * NUM_FACES
    supply[CONVENIENCE_STORE] = 4 if solo else 12
    supply[HOSPITAL] = 4 if solo else 12
    supply[FACTORY] = 4 if solo else 8
    supply[CENTRAL_PARK] = 4 if solo else 8
    if params["office"]:
        supply[OFFICE] = 4 if solo else 10
    return supply


def cards_per_type(params: dict) -> list[int]:
    """§2 card conservation: cards of each double-sided type k (faces 2k, 2k+1) in the whole game."""
    supply = starting_supply(params)
    players = params["players"]
    return [players * (STARTING_DECK[2 * k] + STARTING_DECK[2 * k + 1]) + supply[2 * k] for k in range(6)]


# ---------------------------------------------------------------------------------------------------------
# §1 Parameters
# ---------------------------------------------------------------------------------------------------------

# name -> (type, default, low, high); bounds are for ints only.
PARAMETERS: dict[str, tuple[type, object, int, int]] = {
    "players": (int, 2, 1, 4),
    "office": (bool, False, 0, 0),
    "max_turns": (int, 100, 1, 1000),
    "apartment_unhappiness": (int, 1, 0, 1),
    "hospital_cash": (int, 1, 0, 1),
    "mall_recycle": (bool, True, 0, 0),
    "station_recycle": (bool, True, 0, 0),
}


def normalize_params(given: dict) -> dict:
    """All seven keys with defaults filled in; unknown keys, wrong types, out-of-range values -> error."""
    if not isinstance(given, dict):
        raise InvalidStateError(f"{GAME_NAME}: parameters must be a dict")
    for key in given:
        if key not in PARAMETERS:
            raise InvalidStateError(f"{GAME_NAME}: unknown parameter {key!r}")
    params: dict = {}
    for key, (kind, default, low, high) in PARAMETERS.items():
        value = given.get(key, default)
        if kind is bool:
            if not isinstance(value, bool):  # an int is not a bool
                raise InvalidStateError(f"{GAME_NAME}: parameter {key!r} must be a bool, got {value!r}")
        else:
            if isinstance(value, bool) or not isinstance(value, int):  # a bool is not an int
                raise InvalidStateError(f"{GAME_NAME}: parameter {key!r} must be an int, got {value!r}")
            if not low <= value <= high:
                raise InvalidStateError(
                    f"{GAME_NAME}: parameter {key!r} must be in {low}..{high}, got {value}"
                )
            value = int(value)
        params[key] = value
    return params


# ---------------------------------------------------------------------------------------------------------
# §5 Actions
# ---------------------------------------------------------------------------------------------------------

NUM_DISTINCT_ACTIONS = 78
MAX_CHANCE_OUTCOMES = 12

PLAY = 0
STOP = 1
END = 2
SHUFFLE = 3  # 3 + k: shuffle, setting k Office aside (k = 0..10)
MAX_ASIDE = 10
RECYCLE = 14  # 14 + face
BUY = 26  # 26 + face
DEVELOP = 38  # 38 + face
FLIP = 50  # 50 + face
TARGET = 62  # 62 + seat (0..3)
REMOVE = 66  # 66 + face

PHASES = ("play", "build", "over")
PENDINGS = ("none", "shuffle", "give_apartment", "give_residential", "remove", "bottom")

# Counters in a serialized state may not exceed this (§7).
MAX_COUNTER = 10000


def decision_action_text(action: int) -> str:
    """The canonical text of a decision action id (§5)."""
    if action == PLAY:
        return "play"
    if action == STOP:
        return "stop"
    if action == END:
        return "end"
    if SHUFFLE <= action <= SHUFFLE + MAX_ASIDE:
        k = action - SHUFFLE
        return "shuffle" if k == 0 else f"shuffle aside {k}"
    if RECYCLE <= action < RECYCLE + NUM_FACES:
        return f"recycle {FACE_NAMES[action - RECYCLE]}"
    if BUY <= action < BUY + NUM_FACES:
        return f"buy {FACE_NAMES[action - BUY]}"
    if DEVELOP <= action < DEVELOP + NUM_FACES:
        return f"develop {FACE_NAMES[action - DEVELOP]}"
    if FLIP <= action < FLIP + NUM_FACES:
        return f"flip {FACE_NAMES[action - FLIP]}"
    if TARGET <= action < TARGET + 4:
        return f"target {action - TARGET}"
    if REMOVE <= action < REMOVE + NUM_FACES:
        return f"remove {FACE_NAMES[action - REMOVE]}"
    raise IllegalActionError(f"action {action} is out of range 0..{NUM_DISTINCT_ACTIONS - 1}")


def _normalize_text(text: str) -> str:
    """Relaxed notation (§5): ignore (ASCII) case, surrounding spaces and repeated inner spaces.

    READING: "spaces" is read as the space character only (not tabs or newlines), and case is folded for
    ASCII letters only (the canonical texts are ASCII).
    """
    lowered = "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in text)
    return " ".join(part for part in lowered.split(" ") if part)


_DECISION_TEXT_TO_ID: dict[str, int] = {
    _normalize_text(decision_action_text(a)): a for a in range(NUM_DISTINCT_ACTIONS)
}


def _chance_texts() -> dict[str, int]:
    """Texts accepted at a chance node: ``reveal <Face>``, ``bottom <Face>`` and the bare face name."""
    texts: dict[str, int] = {}
    for face, name in enumerate(FACE_NAMES):
        key = _normalize_text(name)
        texts[key] = face
        texts["reveal " + key] = face
        texts["bottom " + key] = face
    return texts


_CHANCE_TEXT_TO_ID: dict[str, int] = _chance_texts()


def _as_int(value: object) -> int | None:
    """An int-like value (Python int or numpy integer) as an int; ``None`` for anything else, bools included.

    READING: the contract says a bool is not an action; numpy integers (as returned by ``argmax`` on a mask)
    are accepted as their int value, as pyo3 does on the Rust side.
    """
    if isinstance(value, (bool, np.bool_)):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


# ---------------------------------------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------------------------------------


class FlipCityGame:
    """Flip City with one set of parameters (§1)."""

    name = GAME_NAME

    def __init__(self, params: dict | None = None, **keywords: object) -> None:
        if params is not None and not isinstance(params, Mapping):
            raise InvalidStateError(f"{GAME_NAME}: parameters must be a mapping, not {type(params).__name__}")
        given = dict(params or {})
        for key, value in keywords.items():
            if key in given:
                raise InvalidStateError(f"{GAME_NAME}: parameter {key!r} given twice")
            given[key] = value
        self._params = normalize_params(given)
        self.faces = face_table(self._params)
        self.players: int = self._params["players"]
        self.solo: bool = self.players == 1
        self.max_turns: int = self._params["max_turns"]
        self.initial_supply: list[int] = starting_supply(self._params)
        self.type_totals: list[int] = cards_per_type(self._params)

    @property
    def params(self) -> dict:
        """The full, normalised parameter dict (a copy)."""
        return dict(self._params)

    def num_players(self) -> int:
        return self.players

    def num_distinct_actions(self) -> int:
        return NUM_DISTINCT_ACTIONS

    def max_chance_outcomes(self) -> int:
        return MAX_CHANCE_OUTCOMES

    def num_cards(self) -> int:
        """C in §5: 9 per seat plus the starting supply."""
        return sum(STARTING_DECK) * self.players + sum(self.initial_supply)

    def max_game_length(self) -> int:
        """§5: ``players + max_turns x players x (12 x C + 16)``."""
        return self.players + self.max_turns * self.players * (12 * self.num_cards() + 16)

    def observation_shape(self) -> tuple[int, ...]:
        """§6: ``(37 x players + 42,)``."""
        return (37 * self.players + 42,)

    def new_initial_state(self) -> FlipCityState:
        """§4 Setup: every starting deck is unknown (shuffled); seat 0 starts; chance reveals top cards."""
        seats = [
            SeatState(deck_known=[], deck_unknown=list(STARTING_DECK), discard=[0] * NUM_FACES, best=0)
            for _ in range(self.players)
        ]
        return FlipCityState(
            game=self,
            seats=seats,
            supply=list(self.initial_supply),
            removed=[0] * NUM_FACES,
            play_area=[0] * NUM_FACES,
        )

    def deserialize_state(self, text: object) -> FlipCityState:
        """The inverse of ``FlipCityState.serialize``; anything malformed or inconsistent (§7) raises
        ``InvalidStateError``."""
        return _deserialize(self, text)

    def __str__(self) -> str:
        return game_string(GAME_NAME, self._params)

    def __repr__(self) -> str:
        return f"FlipCityGame({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FlipCityGame) and other._params == self._params

    def __hash__(self) -> int:
        return hash(str(self))


# ---------------------------------------------------------------------------------------------------------
# The state
# ---------------------------------------------------------------------------------------------------------


@dataclass
class SeatState:
    """One seat's cards (§3). The deck is ``deck_known`` (top first) above ``deck_unknown`` (counts per face,
    in an order nobody knows)."""

    deck_known: list[int]
    deck_unknown: list[int]
    discard: list[int]
    best: int = 0

    def deck_size(self) -> int:
        return len(self.deck_known) + sum(self.deck_unknown)

    def deck_counts(self) -> list[int]:
        counts = list(self.deck_unknown)
        for face in self.deck_known:
            counts[face] += 1
        return counts


@dataclass
class FlipCityState:
    """A Flip City position: the fields of the serialization (§7), with the game it belongs to."""

    game: FlipCityGame
    seats: list[SeatState]
    supply: list[int]
    removed: list[int]
    play_area: list[int]
    current: int = 0
    turn: int = 0
    phase: str = "play"
    pending: str = "none"
    # The current turn's counters.
    cash: int = 0
    points: int = 0
    unhappiness: int = 0
    limit_bonus: int = 0
    forced: bool = False
    # Building-phase allowances.
    main: bool = False
    extra_buys: int = 0
    extra_flips: int = 0
    discount: bool = False
    winner: int = -1
    actions: list[int] = field(default_factory=list)

    # ----- whose move (§4 "Whose move it is") -----

    def _reveal_seat(self) -> int | None:
        """The lowest seat whose top card is unknown (empty ``deck_known``, non-empty ``deck_unknown``)."""
        for seat_id, seat in enumerate(self.seats):
            if not seat.deck_known and sum(seat.deck_unknown) > 0:
                return seat_id
        return None

    def current_player(self) -> int:
        if self.phase == "over":
            return TERMINAL
        if self.pending == "bottom":
            return CHANCE
        if self._reveal_seat() is not None:
            return CHANCE
        return self.current

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    # ----- chance -----

    def _chance_pile(self) -> list[int]:
        """The unknown deck a chance outcome is drawn from: the current seat's for the Factory's bottom card,
        otherwise the deck whose top card is being revealed."""
        if self.pending == "bottom":
            return self.seats[self.current].deck_unknown
        seat_id = self._reveal_seat()
        assert seat_id is not None
        return self.seats[seat_id].deck_unknown

    def chance_weights(self) -> list[tuple[int, int]]:
        """Each face left in the unknown deck, weighted by its count; empty when not a chance node."""
        if not self.is_chance_node():
            return []
        pile = self._chance_pile()
        return [(face, pile[face]) for face in range(NUM_FACES) if pile[face] > 0]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        weights = self.chance_weights()
        total = sum(weight for _, weight in weights)
        return [(action, weight / total) for action, weight in weights]

    # ----- legal actions -----

    def legal_actions(self) -> list[int]:
        player = self.current_player()
        if player == TERMINAL:
            return []
        if player == CHANCE:
            return [face for face, _ in self.chance_weights()]
        return sorted(self._decision_actions())

    def legal_actions_mask(self) -> np.ndarray:
        size = MAX_CHANCE_OUTCOMES if self.is_chance_node() else NUM_DISTINCT_ACTIONS
        mask = np.zeros(size, dtype=np.int8)
        for action in self.legal_actions():
            mask[action] = 1
        return mask

    def _limit(self) -> int:
        """Rulebook A.3: the unhappiness limit is 2, raised by Church and Trade Center."""
        return 2 + self.limit_bonus

    def _fee(self, face: int) -> int:
        """Flip fee this turn: a Station in play makes fees 1 less, not below 0, no stacking (interp. 14)."""
        fee = self.game.faces[face].flip_fee
        assert fee is not None
        return max(0, fee - 1) if self.discount else fee

    def _decision_actions(self) -> list[int]:
        seat = self.seats[self.current]
        players = self.game.players

        # §4.2 Pending choices come first, whatever the phase.
        if self.pending == "shuffle":
            return [SHUFFLE + k for k in range(seat.discard[OFFICE] + 1)]
        if self.pending in ("give_apartment", "give_residential"):
            return [TARGET + t for t in range(players) if t != self.current]
        if self.pending == "remove":
            return [REMOVE + f for f in range(NUM_FACES) if self.supply[f] > 0]

        actions: list[int] = []
        if self.phase == "play":
            # §4.1 Play Cards phase.
            deck_size = seat.deck_size()
            if deck_size > 0:
                actions.append(PLAY)
            top_is_residential = bool(seat.deck_known) and seat.deck_known[0] == RESIDENTIAL_AREA
            forced = deck_size > 0 and (top_is_residential or self.forced)
            if not forced:
                actions.append(STOP)
            if deck_size == 0 and sum(seat.discard) > 0:  # interp. 13: nothing to shuffle, no shuffle
                actions.extend(SHUFFLE + k for k in range(seat.discard[OFFICE] + 1))
            for face in range(NUM_FACES):
                if self.game.faces[face].recycle is not None and seat.discard[face] > 0:
                    actions.append(RECYCLE + face)
        elif self.phase == "build":
            # §4.3 Building phase.
            for face in range(NUM_FACES):
                cost = self.game.faces[face].cost
                if self.supply[face] > 0 and cost is not None:
                    if cost <= self.cash and (self.extra_buys > 0 or self.main):
                        actions.append(BUY + face)
                    if self.main and self.game.faces[face].flip_fee is not None:
                        if cost + self._fee(face) <= self.cash:
                            actions.append(DEVELOP + face)
            for face in range(NUM_FACES):
                if seat.discard[face] > 0 and self.game.faces[face].flip_fee is not None:
                    if self._fee(face) <= self.cash and (self.extra_flips > 0 or self.main):
                        actions.append(FLIP + face)
            actions.append(END)
        return actions

    # ----- applying actions -----

    def apply_action(self, action: object) -> None:
        """Apply a legal action or chance outcome; anything else raises ``IllegalActionError`` and changes
        nothing."""
        player = self.current_player()
        value = _as_int(action)
        if value is None or value not in self.legal_actions():
            raise IllegalActionError(
                f"{GAME_NAME}: action {action!r} is not legal for seat {player} "
                f"({_player_label(player)}) in this state"
            )
        if player == CHANCE:
            self._apply_chance(value)
        else:
            self._apply_decision(value)
        self.actions.append(value)

    def _apply_chance(self, face: int) -> None:
        if self.pending == "bottom":
            # Factory: the bottom card of the deck goes to the discard pile (§4 item 2).
            seat = self.seats[self.current]
            seat.deck_unknown[face] -= 1
            seat.discard[face] += 1
            self.pending = "none"
            return
        # The top card of a deck is revealed (§3, interp. 10): it becomes the whole known part.
        seat_id = self._reveal_seat()
        assert seat_id is not None
        seat = self.seats[seat_id]
        seat.deck_unknown[face] -= 1
        seat.deck_known = [face]

    def _apply_decision(self, action: int) -> None:
        seat = self.seats[self.current]
        if action == PLAY:
            self._play_top_card(seat)
        elif action == STOP:
            # §4.1 stop: the Building phase begins.
            self.phase = "build"
            self.main = True
            self.extra_buys = self.play_area[CENTRAL_PARK]  # Central Park: Buy 1 time in addition
            self.extra_flips = self.play_area[STATION]  # Station: Flip 1 time in addition
            self.discount = self.play_area[STATION] > 0  # Station: flip fees 1 less (not stacking)
            # READING: `forced` is cleared too (it cannot be set here in play: stop is illegal while forced
            # with a non-empty deck, and the deck cannot empty without a play, which clears it).
            self.forced = False
        elif SHUFFLE <= action <= SHUFFLE + MAX_ASIDE:
            self._shuffle(seat, action - SHUFFLE)
        elif RECYCLE <= action < RECYCLE + NUM_FACES:
            self._recycle(seat, action - RECYCLE)
        elif BUY <= action < BUY + NUM_FACES:
            self._buy(seat, action - BUY)
        elif DEVELOP <= action < DEVELOP + NUM_FACES:
            self._develop(seat, action - DEVELOP)
        elif FLIP <= action < FLIP + NUM_FACES:
            self._flip(seat, action - FLIP)
        elif TARGET <= action < TARGET + 4:
            self._target(seat, action - TARGET)
        elif REMOVE <= action < REMOVE + NUM_FACES:
            self._remove(action - REMOVE)
        elif action == END:
            self._end_building()
        else:  # pragma: no cover - legal_actions never offers anything else
            raise AssertionError(action)

    def _play_top_card(self, seat: SeatState) -> None:
        """§4.1 play (rulebook A.1, A.3 and the Card Reference)."""
        face = seat.deck_known.pop(0)
        info = self.game.faces[face]
        self.play_area[face] += 1
        self.forced = False  # a Shopping Mall obligation is met by this card (interp. 11)
        self.cash += info.cash
        self.points += info.points
        self.unhappiness += info.unhappiness
        if self.unhappiness > self._limit():
            # Rulebook A.3: over the limit, the turn ends immediately; no effect applies.
            self._end_turn()
            return
        if face == SHOPPING_MALL:
            if seat.deck_size() > 0:
                self.forced = True  # "If your deck is not empty, you must play an additional card."
        elif face == HOSPITAL:
            self.cash += self.unhappiness  # FAQ Q1, interp. 2: this Hospital's unhappiness included
        elif face == CHURCH:
            self.limit_bonus += 1  # "Add +1 to your unhappiness limit this turn."
        elif face == FACTORY:
            # "If your deck is not empty, place the bottom card from your deck into your discard pile."
            if seat.deck_size() > 0:
                if sum(seat.deck_unknown) > 0:
                    self.pending = "bottom"  # the bottom card is unknown: chance decides (interp. 10)
                else:
                    seat.discard[seat.deck_known.pop()] += 1
        elif face == TRADE_CENTER:
            # Interp. 6: the card turns over to Office in the play area, then the discard pile is shuffled
            # into the deck (the seat chooses how many Office to set aside).
            self.play_area[TRADE_CENTER] -= 1
            self.play_area[OFFICE] += 1
            self.pending = "shuffle"
        elif face == POWER_PLANT:
            # Interp. 8: mandatory when possible; the receiver is chosen. Solo: no effect.
            if seat.discard[APARTMENT] > 0 and self.game.players >= 2:
                self.pending = "give_apartment"

    def _shuffle(self, seat: SeatState, aside: int) -> None:
        """§4.1 shuffle k: deck and discard pile become one unknown deck, with k Office set aside on top."""
        pool = seat.deck_counts()
        for face in range(NUM_FACES):
            pool[face] += seat.discard[face]
        pool[OFFICE] -= aside
        seat.deck_unknown = pool
        seat.deck_known = [OFFICE] * aside  # Office: "set it aside instead, placing it on top afterwards"
        seat.discard = [0] * NUM_FACES
        self.pending = "none"
        if self.game.solo:
            self.pending = "remove"  # Solo 2: each time you shuffle, remove a card of the supply

    def _recycle(self, seat: SeatState, face: int) -> None:
        """§4.1 recycle f (rulebook A.4): the card in the discard pile turns over to its front."""
        bonus = self.game.faces[face].recycle
        seat.discard[face] -= 1
        if bonus == RECYCLE_TOP:
            # Power Plant: "After Recycling this card, put it on top of your deck" (as a Factory).
            seat.deck_known.insert(0, face ^ 1)
            return
        seat.discard[face ^ 1] += 1
        if bonus == RECYCLE_CASH:
            self.cash += 1
        elif bonus == RECYCLE_POINT:
            self.points += 1
        elif bonus == RECYCLE_LIMIT:
            self.limit_bonus += 1

    def _buy(self, seat: SeatState, face: int) -> None:
        """§4.3 buy f: an extra Buy (Central Park) is used before the main action."""
        if self.extra_buys > 0:
            self.extra_buys -= 1
        else:
            self.main = False
        cost = self.game.faces[face].cost
        assert cost is not None
        self.cash -= cost
        self.supply[face] -= 1
        seat.discard[face] += 1
        self._check_solo_supply()

    def _develop(self, seat: SeatState, face: int) -> None:
        """§4.3 develop f: pay cost and flip fee, the card goes to the discard pile back side up."""
        self.main = False
        cost = self.game.faces[face].cost
        assert cost is not None
        self.cash -= cost + self._fee(face)
        self.supply[face] -= 1
        seat.discard[face ^ 1] += 1
        self._check_solo_supply()

    def _flip(self, seat: SeatState, face: int) -> None:
        """§4.3 flip f: an extra Flip (Station) is used before the main action."""
        if self.extra_flips > 0:
            self.extra_flips -= 1
        else:
            self.main = False
        self.cash -= self._fee(face)
        seat.discard[face] -= 1
        if face == APARTMENT:
            if self.game.solo:
                self.removed[APARTMENT] += 1  # Solo 4: "When Flipping an Apartment, remove it from the game."
            else:
                # Interp. 9: it becomes a Residential Area on another player's discard pile (chosen next).
                # READING: until the target is chosen, the card is in no pile (see _deserialize).
                self.pending = "give_residential"
        else:
            seat.discard[face ^ 1] += 1

    def _target(self, seat: SeatState, target: int) -> None:
        """§4.2 target t: the Power Plant's Apartment, or a flipped Apartment as a Residential Area."""
        if self.pending == "give_apartment":
            seat.discard[APARTMENT] -= 1
            self.seats[target].discard[APARTMENT] += 1
        else:  # give_residential
            self.seats[target].discard[RESIDENTIAL_AREA] += 1
        self.pending = "none"

    def _remove(self, face: int) -> None:
        """§4.2 remove f (Solo 2); the game is lost if the supply is now empty (Solo 3, interp. 16)."""
        self.supply[face] -= 1
        self.removed[face] += 1
        self.pending = "none"
        self._check_solo_supply()

    def _check_solo_supply(self) -> None:
        """Solo 3, interp. 16: the moment the supply is empty, the solo game is lost (the turn ends)."""
        if self.game.solo and sum(self.supply) == 0:
            self._end_turn(lost=True)

    def _end_building(self) -> None:
        """§4.3 end: best score, victory check (rulebook B, Game End; interp. 17), end of turn."""
        seat = self.seats[self.current]
        seat.best = max(seat.best, self.points)
        played = sum(self.play_area)
        if self.points >= 8 or (self.play_area[CONVENIENCE_STORE] > 0 and played >= 18):
            self.winner = self.current
        self._end_turn()

    def _end_turn(self, lost: bool = False) -> None:
        """§4.4: the played cards go to the discard pile; turn counters reset; next seat or game over."""
        seat = self.seats[self.current]
        for face in range(NUM_FACES):
            seat.discard[face] += self.play_area[face]
        self.play_area = [0] * NUM_FACES
        self.cash = 0
        self.points = 0
        self.unhappiness = 0
        self.limit_bonus = 0
        self.extra_buys = 0
        self.extra_flips = 0
        self.forced = False
        self.main = False
        self.discount = False
        self.pending = "none"
        self.turn += 1
        if self.winner != -1 or lost or self.turn == self.game.max_turns * self.game.players:
            self.phase = "over"  # `current` stays the seat whose turn it was
        else:
            self.current = (self.current + 1) % self.game.players
            self.phase = "play"

    # ----- results -----

    def returns(self) -> list[float]:
        """§4.5: 1.0 to the winner; everyone 0.0 on a solo loss, at the turn limit, and before the end."""
        players = self.game.players
        if self.phase != "over" or self.winner < 0:
            return [0.0] * players
        return [1.0 if seat == self.winner else 0.0 for seat in range(players)]

    def scores(self) -> list[float]:
        """§4.5: the best points of a turn that reached the end of its Building phase, per seat."""
        return [float(seat.best) for seat in self.seats]

    def history(self) -> list[int]:
        return list(self.actions)

    def clone(self) -> FlipCityState:
        twin = copy.copy(self)
        twin.seats = [
            SeatState(list(s.deck_known), list(s.deck_unknown), list(s.discard), s.best) for s in self.seats
        ]
        twin.supply = list(self.supply)
        twin.removed = list(self.removed)
        twin.play_area = list(self.play_area)
        twin.actions = list(self.actions)
        return twin

    def resample_from_infostate(self, player: object, rng: object = None) -> FlipCityState:
        """No private information in Flip City (§3): a clone."""
        self._check_seat(player)
        return self.clone()

    # ----- notation (§5) -----

    def action_to_string(self, action: object) -> str:
        value = _as_int(action)
        if self.is_chance_node():
            # READING: at a chance node the ids in range are the chance outcomes 0..11.
            if value is None or not 0 <= value < MAX_CHANCE_OUTCOMES:
                raise IllegalActionError(
                    f"{GAME_NAME}: chance outcome {action!r} is out of range 0..{MAX_CHANCE_OUTCOMES - 1} "
                    f"(seat {CHANCE}, chance)"
                )
            verb = "bottom" if self.pending == "bottom" else "reveal"
            return f"{verb} {FACE_NAMES[value]}"
        if value is None or not 0 <= value < NUM_DISTINCT_ACTIONS:
            raise IllegalActionError(
                f"{GAME_NAME}: action {action!r} is out of range 0..{NUM_DISTINCT_ACTIONS - 1} "
                f"(seat {self.current_player()})"
            )
        return decision_action_text(value)

    def string_to_action(self, text: object) -> int:
        """Relaxed parsing (§5); legality is not checked.

        READING: at a chance node only the chance forms parse (``reveal <Face>``, ``bottom <Face>`` whichever
        the kind of chance node, or a bare face name); at any other node only the decision forms.
        """
        if not isinstance(text, str):
            raise InvalidNotationError(
                f"{GAME_NAME}: an action text must be a str, not {type(text).__name__}"
            )
        key = _normalize_text(text)
        table = _CHANCE_TEXT_TO_ID if self.is_chance_node() else _DECISION_TEXT_TO_ID
        if key not in table:
            raise InvalidNotationError(f"{GAME_NAME}: cannot parse action {text!r}")
        return table[key]

    # ----- observations (§6) -----

    def _check_seat(self, player: object) -> int:
        value = _as_int(player)
        if value is None or not 0 <= value < self.game.players:
            raise InvalidStateError(f"seat {player!r} out of range 0..{self.game.players - 1}")
        return value

    def observation_tensor(self, player: object) -> np.ndarray:
        observer = self._check_seat(player)
        players = self.game.players
        values: list[float] = []
        for offset in range(players):
            seat = self.seats[(observer + offset) % players]
            values.extend(seat.deck_counts())
            top = [0] * NUM_FACES
            if seat.deck_known:
                top[seat.deck_known[0]] = 1
            values.extend(top)
            values.extend(seat.discard)
        values.extend(self.supply)
        values.extend(self.play_area)
        # READING: "the current seat" is the `current` field (whose turn it is), also at chance nodes.
        current_one_hot = [0] * players
        if self.phase != "over":
            current_one_hot[(self.current - observer) % players] = 1
        values.extend(current_one_hot)
        values.extend(
            [
                self.cash,
                self.points,
                self.unhappiness,
                self._limit(),
                int(self.forced),
                int(self.main),
                self.extra_buys,
                self.extra_flips,
                int(self.discount),
                self.turn,
            ]
        )
        values.extend(int(self.phase == phase) for phase in PHASES)
        values.extend(int(self.pending == pending) for pending in PENDINGS[1:])
        tensor = np.asarray(values, dtype=np.float32)
        assert tensor.shape == self.game.observation_shape()
        return tensor

    def observation_string(self, player: object) -> str:
        observer = self._check_seat(player)
        players = self.game.players
        lines = [f"Flip City, seen by seat {observer}: turn {self.turn}, seat {self.current} to move"]
        lines.append(f"phase {self.phase}, pending {self.pending}")
        for offset in range(players):
            seat_id = (observer + offset) % players
            seat = self.seats[seat_id]
            top = FACE_NAMES[seat.deck_known[0]] if seat.deck_known else "-"
            lines.append(
                f"seat {seat_id}: deck {seat.deck_size()} (top {top}); "
                f"discard {_describe(seat.discard)}; best {seat.best}"
            )
        lines.append(f"supply: {_describe(self.supply)}")
        lines.append(f"play area: {_describe(self.play_area)}")
        lines.append(
            f"cash {self.cash}, points {self.points}, unhappiness {self.unhappiness}/{self._limit()}"
            f"{', must play' if self.forced else ''}"
        )
        if self.phase == "build":
            lines.append(
                f"main action {'available' if self.main else 'used'}, extra buys {self.extra_buys}, "
                f"extra flips {self.extra_flips}{', fees 1 less' if self.discount else ''}"
            )
        if any(self.removed):
            lines.append(f"removed: {_describe(self.removed)}")
        if self.phase == "over":
            lines.append("winner: " + (f"seat {self.winner}" if self.winner >= 0 else "none"))
        return "\n".join(lines)

    def information_state_string(self, player: object) -> str:
        """§6: ``seat=<p> history=<ids joined by ",">`` (perfect information, public history)."""
        observer = self._check_seat(player)
        return f"seat={observer} history=" + ",".join(str(action) for action in self.actions)

    # ----- serialization (§7) -----

    def to_json_object(self) -> dict:
        return {
            "cash": self.cash,
            "current": self.current,
            "discount": self.discount,
            "extra_buys": self.extra_buys,
            "extra_flips": self.extra_flips,
            "forced": self.forced,
            "game": GAME_NAME,
            "history": list(self.actions),
            "limit_bonus": self.limit_bonus,
            "main": self.main,
            "params": self.game.params,
            "pending": self.pending,
            "phase": self.phase,
            "play_area": list(self.play_area),
            "points": self.points,
            "removed": list(self.removed),
            "seats": [
                {
                    "best": seat.best,
                    "deck_known": list(seat.deck_known),
                    "deck_unknown": list(seat.deck_unknown),
                    "discard": list(seat.discard),
                }
                for seat in self.seats
            ],
            "supply": list(self.supply),
            "turn": self.turn,
            "unhappiness": self.unhappiness,
            "version": SERIAL_VERSION,
            "winner": self.winner,
        }

    def serialize(self) -> str:
        return json.dumps(self.to_json_object(), sort_keys=True, separators=(",", ":"))

    # ----- display -----

    def __str__(self) -> str:
        player = self.current_player()
        head = f"[{_player_label(player)}] "
        return head + self.observation_string(self.current)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FlipCityState) and other.serialize() == self.serialize()

    __hash__ = None  # type: ignore[assignment]


def _player_label(player: int) -> str:
    if player == CHANCE:
        return "chance"
    if player == TERMINAL:
        return "terminal"
    return f"seat {player}"


def _describe(counts: list[int]) -> str:
    parts = [f"{count} {FACE_NAMES[face]}" for face, count in enumerate(counts) if count]
    return ", ".join(parts) if parts else "empty"


# ---------------------------------------------------------------------------------------------------------
# Deserialization (§7)
# ---------------------------------------------------------------------------------------------------------

_TOP_KEYS = frozenset(
    {
        "cash",
        "current",
        "discount",
        "extra_buys",
        "extra_flips",
        "forced",
        "game",
        "history",
        "limit_bonus",
        "main",
        "params",
        "pending",
        "phase",
        "play_area",
        "points",
        "removed",
        "seats",
        "supply",
        "turn",
        "unhappiness",
        "version",
        "winner",
    }
)
_SEAT_KEYS = frozenset({"best", "deck_known", "deck_unknown", "discard"})


def _bad(message: str) -> InvalidStateError:
    return InvalidStateError(f"{GAME_NAME}: bad serialized state: {message}")


def _no_duplicate_keys(pairs: list[tuple[str, object]]) -> dict:
    # READING: a JSON object with a key given twice is malformed (rejected, not "last one wins").
    result: dict = {}
    for key, value in pairs:
        if key in result:
            raise _bad(f"key {key!r} given twice")
        result[key] = value
    return result


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _get_int(obj: dict, key: str, low: int, high: int) -> int:
    value = obj[key]
    if not _is_int(value):
        raise _bad(f"{key} must be an int, got {value!r}")
    if not low <= value <= high:
        raise _bad(f"{key} = {value} is out of range {low}..{high}")
    return value


def _get_bool(obj: dict, key: str) -> bool:
    value = obj[key]
    if not isinstance(value, bool):
        raise _bad(f"{key} must be a bool, got {value!r}")
    return value


def _get_counts(obj: dict, key: str) -> list[int]:
    value = obj[key]
    if not isinstance(value, list) or len(value) != NUM_FACES:
        raise _bad(f"{key} must be a list of {NUM_FACES} ints")
    for count in value:
        if not _is_int(count):
            raise _bad(f"{key} holds a non-int {count!r}")
        if not 0 <= count <= MAX_COUNTER:
            raise _bad(f"{key} holds a count {count} out of range 0..{MAX_COUNTER}")
    return list(value)


def _check_keys(obj: object, keys: frozenset, what: str) -> dict:
    if not isinstance(obj, dict):
        raise _bad(f"{what} must be a JSON object")
    missing = keys - obj.keys()
    extra = obj.keys() - keys
    if missing:
        raise _bad(f"{what} lacks {sorted(missing)}")
    if extra:
        raise _bad(f"{what} has unknown keys {sorted(extra)}")
    return obj


def _same_params(given: object, expected: dict) -> bool:
    if not isinstance(given, dict) or given.keys() != expected.keys():
        return False
    return all(type(given[key]) is type(expected[key]) and given[key] == expected[key] for key in expected)


def _deserialize(game: FlipCityGame, text: object) -> FlipCityState:
    if not isinstance(text, str):
        raise InvalidStateError(f"{GAME_NAME}: a serialized state must be a str, not {type(text).__name__}")
    try:
        obj = json.loads(text, object_pairs_hook=_no_duplicate_keys)
    except InvalidStateError:
        raise
    except Exception as error:  # JSONDecodeError, huge int literals, deep nesting, ...
        raise _bad(f"not valid JSON ({type(error).__name__})") from None
    obj = _check_keys(obj, _TOP_KEYS, "the state")

    # Identity.
    if obj["game"] != GAME_NAME:
        raise _bad(f"game {obj['game']!r} is not {GAME_NAME!r}")
    if not _is_int(obj["version"]) or obj["version"] != SERIAL_VERSION:
        raise _bad(f"version {obj['version']!r} is not {SERIAL_VERSION}")
    if not _same_params(obj["params"], game.params):
        raise _bad(f"params {obj['params']!r} differ from the game's {game.params!r}")

    players = game.players
    max_turn = game.max_turns * players

    # Types and ranges of every field.
    cash = _get_int(obj, "cash", 0, MAX_COUNTER)
    points = _get_int(obj, "points", 0, MAX_COUNTER)
    unhappiness = _get_int(obj, "unhappiness", 0, MAX_COUNTER)
    limit_bonus = _get_int(obj, "limit_bonus", 0, MAX_COUNTER)
    extra_buys = _get_int(obj, "extra_buys", 0, MAX_COUNTER)
    extra_flips = _get_int(obj, "extra_flips", 0, MAX_COUNTER)
    current = _get_int(obj, "current", 0, players - 1)
    winner = _get_int(obj, "winner", -1, players - 1)
    turn = _get_int(obj, "turn", 0, max_turn)
    discount = _get_bool(obj, "discount")
    forced = _get_bool(obj, "forced")
    main = _get_bool(obj, "main")
    phase = obj["phase"]
    if not isinstance(phase, str) or phase not in PHASES:
        raise _bad(f"phase {phase!r} is not one of {PHASES}")
    pending = obj["pending"]
    if not isinstance(pending, str) or pending not in PENDINGS:
        raise _bad(f"pending {pending!r} is not one of {PENDINGS}")
    play_area = _get_counts(obj, "play_area")
    removed = _get_counts(obj, "removed")
    supply = _get_counts(obj, "supply")

    history = obj["history"]
    if not isinstance(history, list):
        raise _bad("history must be a list")
    for action in history:
        if not _is_int(action) or not 0 <= action < NUM_DISTINCT_ACTIONS:
            raise _bad(f"history holds {action!r}, not an action id 0..{NUM_DISTINCT_ACTIONS - 1}")

    seats_obj = obj["seats"]
    if not isinstance(seats_obj, list) or len(seats_obj) != players:
        raise _bad(f"seats must be a list of {players} objects")
    seats: list[SeatState] = []
    for index, seat_obj in enumerate(seats_obj):
        seat_obj = _check_keys(seat_obj, _SEAT_KEYS, f"seat {index}")
        best = _get_int(seat_obj, "best", 0, MAX_COUNTER)
        deck_known = seat_obj["deck_known"]
        if not isinstance(deck_known, list):
            raise _bad(f"seat {index} deck_known must be a list")
        for face in deck_known:
            if not _is_int(face) or not 0 <= face < NUM_FACES:
                raise _bad(f"seat {index} deck_known holds {face!r}, not a face id")
        deck_unknown = _get_counts(seat_obj, "deck_unknown")
        discard = _get_counts(seat_obj, "discard")
        seats.append(SeatState(list(deck_known), deck_unknown, discard, best))

    # The supply holds front faces with a cost only, never more than at the start (§2, §7).
    for face in range(NUM_FACES):
        if game.faces[face].cost is None and supply[face] != 0:
            raise _bad(f"supply holds {FACE_NAMES[face]}, which is never in the supply")
        if supply[face] > game.initial_supply[face]:
            raise _bad(f"supply holds {supply[face]} {FACE_NAMES[face]}, more than the starting supply")

    # Card conservation per double-sided type (§2).
    totals = [0] * NUM_FACES
    for face in range(NUM_FACES):
        totals[face] += play_area[face] + removed[face] + supply[face]
    for seat in seats:
        for face, count in enumerate(seat.deck_counts()):
            totals[face] += count
        for face in range(NUM_FACES):
            totals[face] += seat.discard[face]
    for kind in range(6):
        expected = game.type_totals[kind]
        if kind == RESIDENTIAL_AREA // 2 and pending == "give_residential":
            # READING: a flipped Apartment leaves the discard pile and reaches the chosen seat's discard
            # pile only at `target` (§4.3, §4.2); meanwhile it is in no pile: one card of the type is in
            # transit, so the type counts one card fewer.
            expected -= 1
        found = totals[2 * kind] + totals[2 * kind + 1]
        if found != expected:
            raise _bad(
                f"{FACE_NAMES[2 * kind]}/{FACE_NAMES[2 * kind + 1]}: {found} cards where there are {expected}"
            )

    # Phases and pending steps (§7).
    if pending in ("bottom", "shuffle", "give_apartment") and phase != "play":
        raise _bad(f"pending {pending!r} outside the play phase")
    if pending == "give_residential" and phase != "build":
        raise _bad("pending 'give_residential' outside the build phase")
    if pending == "remove" and not (phase == "play" and game.solo):
        raise _bad("pending 'remove' outside the play phase of a solo game")
    if phase == "over" and pending != "none":
        raise _bad("a pending step in a finished game")
    if phase != "build" and (main or extra_buys != 0 or extra_flips != 0 or discount):
        raise _bad("building fields set outside the build phase")
    if phase != "play" and forced:
        raise _bad("forced set outside the play phase")
    if phase == "over":
        # READING: the "turn counters" are cash, points, unhappiness, limit_bonus, extra_buys, extra_flips.
        if any(play_area):
            raise _bad("cards in the play area of a finished game")
        if cash or points or unhappiness or limit_bonus or extra_buys or extra_flips:
            raise _bad("turn counters set in a finished game")
    elif winner != -1:
        raise _bad("a winner while the game is not over")
    if phase != "over" and turn == max_turn:
        raise _bad("the turn limit is reached but the game goes on")
    if any(removed) and not game.solo:
        raise _bad("cards are removed from the game only in solo")
    if pending in ("give_apartment", "give_residential") and game.solo:
        raise _bad("nobody to give a card to in solo")
    if pending == "bottom" and not any(seats[current].deck_unknown):
        raise _bad("a pending bottom card with no unknown card in the deck")
    if pending == "give_apartment" and seats[current].discard[APARTMENT] == 0:
        raise _bad("a Power Plant gift with no Apartment in the discard pile")
    if game.solo and phase != "over" and not any(supply):
        raise _bad("a solo game with an empty supply is lost, so over")

    return FlipCityState(
        game=game,
        seats=seats,
        supply=supply,
        removed=removed,
        play_area=play_area,
        current=current,
        turn=turn,
        phase=phase,
        pending=pending,
        cash=cash,
        points=points,
        unhappiness=unhappiness,
        limit_bonus=limit_bonus,
        forced=forced,
        main=main,
        extra_buys=extra_buys,
        extra_flips=extra_flips,
        discount=discount,
        winner=winner,
        actions=list(history),
    )


__all__ = ["FlipCityGame", "FlipCityState", "SeatState", "Face", "BASE_FACES", "FACE_NAMES"]
