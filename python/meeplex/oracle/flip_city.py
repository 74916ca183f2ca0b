"""The Flip City family: the pure-Python reference implementation of ``flip_city`` (base set, Office
expansion, solo variant) and ``flip_city_wilderness`` (Wilderness), and of supplies mixing both sets.

Written from the rulebooks (``shared/rules/flip_city.txt``, ``shared/rules/flip_city_wilderness.txt``)
and the contracts ``docs/rules/flip_city.md`` (cited "FC §n", "FC interp. n") and
``docs/rules/flip_city_wilderness.md`` (cited "§n", "W n"). The card tables and parameters are in
``flip_city_cards.py``.

A game is in the *base layout* (12 faces: exactly the contract of flip_city.md, ids, observation and
serialization included) when no Wilderness card is in it, and in the *family layout* (22 faces) otherwise.

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
from typing import Any, SupportsIndex, TypeGuard, cast

import numpy as np

from meeplex._params import game_string
from meeplex._protocols import RngLike
from meeplex.errors import IllegalActionError, InvalidNotationError, InvalidStateError
from meeplex.oracle._json import no_duplicate_keys, same_params
from meeplex.oracle._text import fold_white_space
from meeplex.oracle.rng import random_step

from .flip_city_cards import (
    ALL_FACE_NAMES,
    APARTMENT,
    ARCHAEOLOGY_SITE,
    BASE_FACES,
    BASE_ID,
    CAMPING_GROUNDS,
    CENTRAL_PARK,
    CHURCH,
    CONVENIENCE_STORE,
    COUNTRY_RESORT,
    DIG_POINTS,
    DIG_PRICE,
    EXTENSION_PARAMETERS,
    FACE_NAMES,
    FACTORY,
    FARMERS_MARKET,
    HOSPITAL,
    INTERCHANGE,
    LOGGING_SITE,
    NUM_BASE_FACES,
    NUM_FAMILY_FACES,
    OFFICE,
    PILES,
    POWER_PLANT,
    RECYCLE_AIRPORT,
    RECYCLE_BOTTOM,
    RECYCLE_CASH,
    RECYCLE_INTERCHANGE,
    RECYCLE_LIMIT,
    RECYCLE_POINT,
    RECYCLE_RESERVOIR,
    RECYCLE_TOP,
    RESERVOIR_CASH,
    RESIDENTIAL_AREA,
    SHOPPING_MALL,
    SOLO_PILE_SIZE,
    STARTING_DECKS,
    STATION,
    TRADE_CENTER,
    TRAILER_PARK,
    WILDERNESS_ID,
    WILDERNESS_PILES,
    WIND_FARM,
    Face,
    face_table,
    normalize_params,
    piles_of,
)

GAME_NAME = BASE_ID
SERIAL_VERSION = 2  # 2: discount is an int; played, store_played, shuffled added

# current_player() at a chance node / once the game is over (DESIGN.md; OpenSpiel's ids). The same values
# are exported by meeplex.oracle; they are repeated here so that this module imports nothing from its package.
CHANCE = -1
TERMINAL = -4

# The base layout's constants (FC §2, §5), kept for readers of flip_city.md.
NUM_FACES = NUM_BASE_FACES
STARTING_DECK: tuple[int, ...] = tuple(STARTING_DECKS[BASE_ID].get(f, 0) for f in range(NUM_BASE_FACES))
NUM_DISTINCT_ACTIONS = 78
MAX_CHANCE_OUTCOMES = 12

# Action ids that do not depend on the layout (FC §5, §5).
PLAY = 0
STOP = 1
END = 2
SHUFFLE = 3  # 3 + k: shuffle, setting k Office aside (k = 0..10)
MAX_ASIDE = 10
RECYCLE = 14  # 14 + face

PHASES = ("play", "build", "over")
BASE_PENDINGS = ("none", "shuffle", "give_apartment", "give_residential", "remove", "bottom")
FAMILY_PENDINGS = BASE_PENDINGS + ("give_resort", "market", "airport", "airport_card", "airport_aside")
PENDINGS = BASE_PENDINGS

# Counters in a serialized state may not exceed this (FC §7), so no gain takes a counter past it.
MAX_COUNTER = 10000


def _gain(counter: int, by: int) -> int:
    """``counter + by``, stopping at MAX_COUNTER (FC §7).

    For every counter the reader bounds by MAX_COUNTER that can grow (cash, points, unhappiness, limit_bonus,
    extra_flips, flip_cash, limit_next): a representation limit that no real game comes near, so that every
    state reached from a readable state reads back.
    """
    return min(counter + by, MAX_COUNTER)


def _normalize_text(text: str) -> str:
    """Relaxed notation (FC §5): ASCII case folded, white space runs folded to one space and trimmed,
    apostrophes dropped."""
    return fold_white_space(text).replace("'", "").replace("\u2019", "")


def _as_int(value: object) -> int | None:
    """An int-like value (Python int or numpy integer) as an int; ``None`` for anything else, bools included.

    READING: the contract says a bool is not an action; numpy integers (as returned by ``argmax`` on a mask)
    are accepted as their int value, as pyo3 does on the Rust side.
    """
    if isinstance(value, (bool, np.bool_)):
        return None
    try:
        return operator.index(cast(SupportsIndex, value))  # anything else raises the TypeError below
    except TypeError:
        return None


# ---------------------------------------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------------------------------------


class FlipCityGame:
    """A game of the Flip City family with one set of parameters (FC §1, §1). ``flip_city`` by default;
    ``FlipCityWildernessGame`` is the ``flip_city_wilderness`` id."""

    name = GAME_NAME

    def __init__(self, params: Mapping[str, object] | None = None, **keywords: object) -> None:
        if params is not None and not isinstance(params, Mapping):
            raise InvalidStateError(f"{self.name}: parameters must be a mapping, not {type(params).__name__}")
        given = dict(params or {})
        for key, value in keywords.items():
            if key in given:
                raise InvalidStateError(f"{self.name}: parameter {key!r} given twice")
            given[key] = value
        self._params = normalize_params(self.name, given)
        # Every parameter with its value (flip_city leaves default extension keys out of ``params``).
        self.settings: dict[str, Any] = {key: spec[1] for key, spec in EXTENSION_PARAMETERS.items()}
        self.settings.update(self._params)
        self.players: int = self._params["players"]
        self.solo: bool = self.players == 1
        self.max_turns: int = self._params["max_turns"]

        # §2.2 the layout: 22 faces as soon as a Wilderness card is in the game.
        self.piles: list[str] = piles_of(self.name, self._params)
        self.family: bool = self.name == WILDERNESS_ID or any(code in WILDERNESS_PILES for code in self.piles)
        self.num_faces: int = NUM_FAMILY_FACES if self.family else NUM_BASE_FACES
        F = self.num_faces
        self.faces: tuple[Face, ...] = face_table(self.settings, F)
        self.face_names: tuple[str, ...] = ALL_FACE_NAMES[:F]

        # §2.3 starting decks (by id) and the supply (by pile; solo 4 each).
        self.starting_deck: list[int] = [STARTING_DECKS[self.name].get(f, 0) for f in range(F)]
        self.initial_supply: list[int] = [0] * F
        for code in self.piles:
            front, size = PILES[code]
            self.initial_supply[front] = SOLO_PILE_SIZE if self.solo else size
        self.type_totals: list[int] = [
            self.players * (self.starting_deck[2 * k] + self.starting_deck[2 * k + 1])
            + self.initial_supply[2 * k]
            for k in range(F // 2)
        ]
        # W 8: cards leave the game outside solo only through a Farmer's Market.
        self.has_market: bool = self.family and self.type_totals[FARMERS_MARKET // 2] > 0

        # FC §5 / §5: action ids by layout.
        self.BUY = RECYCLE + F
        self.DEVELOP = RECYCLE + 2 * F
        self.FLIP = RECYCLE + 3 * F
        self.TARGET = RECYCLE + 4 * F
        self.REMOVE = self.TARGET + 4
        self.SELECT = self.REMOVE + F  # family layout only
        self.EXCAVATE = self.SELECT + F  # family layout only
        self._num_actions = self.EXCAVATE + 1 if self.family else self.SELECT
        self.pendings: tuple[str, ...] = FAMILY_PENDINGS if self.family else BASE_PENDINGS
        self._decision_text_to_id = {
            _normalize_text(self.decision_action_text(a)): a for a in range(self._num_actions)
        }
        self._chance_text_to_id: dict[str, int] = {}
        for face, face_name in enumerate(self.face_names):
            key = _normalize_text(face_name)
            self._chance_text_to_id[key] = face
            self._chance_text_to_id["reveal " + key] = face
            self._chance_text_to_id["bottom " + key] = face

    @property
    def params(self) -> dict[str, Any]:
        """The full, normalised parameter dict (a copy)."""
        return dict(self._params)

    def num_players(self) -> int:
        return self.players

    def num_distinct_actions(self) -> int:
        return self._num_actions

    def max_chance_outcomes(self) -> int:
        return self.num_faces

    def num_cards(self) -> int:
        """C: 9 per seat plus the starting supply (FC §5, §2.3)."""
        return sum(self.starting_deck) * self.players + sum(self.initial_supply)

    def max_game_length(self) -> int:
        """FC §5 ``players + max_turns x players x (12 C + 16)``; family layout (§5): ``40 C + 16``."""
        per_card = 40 if self.family else 12
        return self.players + self.max_turns * self.players * (per_card * self.num_cards() + 16)

    def observation_shape(self) -> tuple[int, ...]:
        """FC §6 ``(37 x players + 42 + order,)``; family layout (§6): ``((4F + 3) x players + 3F + 25 +
        order,)``, where ``order = players x (C + 1) + 3`` is the deck-order block (C cards)."""
        F = self.num_faces
        # The deck-order block (FC §6): per seat C slots, one face code each, and its best; played,
        # store_played, shuffled.
        order = self.players * (self.num_cards() + 1) + 3
        if self.family:
            return ((4 * F + 3) * self.players + 3 * F + 25 + order,)
        return ((3 * F + 1) * self.players + 2 * F + 18 + order,)

    def decision_action_text(self, action: int) -> str:
        """The canonical text of a decision action id (FC §5, §5)."""
        F = self.num_faces
        names = self.face_names
        if action == PLAY:
            return "play"
        if action == STOP:
            return "stop"
        if action == END:
            return "end"
        if SHUFFLE <= action <= SHUFFLE + MAX_ASIDE:
            k = action - SHUFFLE
            return "shuffle" if k == 0 else f"shuffle aside {k}"
        if RECYCLE <= action < RECYCLE + F:
            return f"recycle {names[action - RECYCLE]}"
        if self.BUY <= action < self.BUY + F:
            return f"buy {names[action - self.BUY]}"
        if self.DEVELOP <= action < self.DEVELOP + F:
            return f"develop {names[action - self.DEVELOP]}"
        if self.FLIP <= action < self.FLIP + F:
            return f"flip {names[action - self.FLIP]}"
        if self.TARGET <= action < self.TARGET + 4:
            return f"target {action - self.TARGET}"
        if self.REMOVE <= action < self.REMOVE + F:
            return f"remove {names[action - self.REMOVE]}"
        if self.family and self.SELECT <= action < self.SELECT + F:
            return f"select {names[action - self.SELECT]}"
        if self.family and action == self.EXCAVATE:
            return "excavate"
        raise IllegalActionError(f"action {action} is out of range 0..{self._num_actions - 1}")

    def new_initial_state(self) -> FlipCityState:
        """FC §4 Setup: every starting deck is unknown (shuffled); seat 0 starts; chance reveals top cards."""
        F = self.num_faces
        seats = [
            SeatState(deck_known=[], deck_unknown=list(self.starting_deck), discard=[0] * F, best=0)
            for _ in range(self.players)
        ]
        return FlipCityState(
            game=self,
            seats=seats,
            supply=list(self.initial_supply),
            removed=[0] * F,
            play_area=[0] * F,
        )

    def deserialize_state(self, text: object) -> FlipCityState:
        """The inverse of ``FlipCityState.serialize``; anything malformed or inconsistent (FC §7, §7) raises
        ``InvalidStateError``."""
        return _deserialize(self, text)

    def __str__(self) -> str:
        return game_string(self.name, self._params)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FlipCityGame) and other.name == self.name and other._params == self._params

    def __hash__(self) -> int:
        return hash(str(self))


class FlipCityWildernessGame(FlipCityGame):
    """Flip City: Wilderness (``flip_city_wilderness``): its own starting decks and supply (§2.3)."""

    name = WILDERNESS_ID


# ---------------------------------------------------------------------------------------------------------
# The state
# ---------------------------------------------------------------------------------------------------------


@dataclass
class SeatState:
    """One seat's cards (FC §3, §3). The deck is ``deck_known`` (top first), then ``deck_unknown`` (counts per
    face, in an order nobody knows), then ``deck_bottom`` (known, its last card at the very bottom)."""

    deck_known: list[int]
    deck_unknown: list[int]
    discard: list[int]
    best: int = 0
    deck_bottom: list[int] = field(default_factory=list)
    limit_next: int = 0  # Camping Grounds: limit bonus for this seat's next turn (W 12)

    def deck_size(self) -> int:
        return len(self.deck_known) + sum(self.deck_unknown) + len(self.deck_bottom)

    def deck_counts(self) -> list[int]:
        counts = list(self.deck_unknown)
        for face in self.deck_known + self.deck_bottom:
            counts[face] += 1
        return counts

    def copy(self) -> SeatState:
        return SeatState(
            list(self.deck_known),
            list(self.deck_unknown),
            list(self.discard),
            self.best,
            list(self.deck_bottom),
            self.limit_next,
        )


@dataclass
class FlipCityState:
    """A Flip City family position: the fields of the serialization (FC §7, §7), with its game."""

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
    discount: int = 0  # how much less each flip fee is (Stations, FC interp. 14)
    winner: int = -1
    actions: list[int] = field(default_factory=list)
    # Family layout only (§4): Flip/Develop-only cash, Archaeology Site digs left, the Airport's chosen seat.
    flip_cash: int = 0
    digs: int = 0
    chosen: int = -1
    # FC interp. 20, W 8: cards played this turn (removed ones too), a Convenience Store among them, and
    # whether the seat shuffled this Play Cards phase.
    played: int = 0
    store_played: bool = False
    shuffled: bool = False

    # ----- whose move (FC §4 "Whose move it is", §4.0) -----

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
        # W 20: an Office in the deck an Airport shuffled is set aside before the new top card is revealed.
        if self.pending != "airport_aside" and self._reveal_seat() is not None:
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
        return [(face, pile[face]) for face in range(self.game.num_faces) if pile[face] > 0]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        weights = self.chance_weights()
        total = sum(weight for _, weight in weights)
        return [(action, weight / total) for action, weight in weights]

    def random_step(self, rng: RngLike) -> int:
        """DESIGN's random step with ``rng`` (either engine's Rng), applied; returns the action taken."""
        return random_step(self, rng)

    # ----- legal actions -----

    def legal_actions(self) -> list[int]:
        player = self.current_player()
        if player == TERMINAL:
            return []
        if player == CHANCE:
            return [face for face, _ in self.chance_weights()]
        return sorted(self._decision_actions())

    def legal_actions_mask(self) -> np.ndarray:
        size = self.game.max_chance_outcomes() if self.is_chance_node() else self.game.num_distinct_actions()
        mask = np.zeros(size, dtype=np.int8)
        for action in self.legal_actions():
            mask[action] = 1
        return mask

    def _limit(self) -> int:
        """Rulebook A.3: the unhappiness limit is 2, raised by Church, Trade Center, Water Reservoir, Camping
        Grounds (carried from the previous turn)."""
        return 2 + self.limit_bonus

    def _fee(self, face: int) -> int:
        """Flip fee this turn: each Station makes fees 1 less (station_stack), not below 0 (FC interp. 14)."""
        fee = self.game.faces[face].flip_fee
        assert fee is not None
        return max(0, fee - self.discount)

    def _recyclable(self, seat: SeatState, face: int) -> bool:
        """FC §4.1, §4.1: a recyclable face in the discard pile."""
        kind = self.game.faces[face].recycle
        return kind is not None and seat.discard[face] > 0

    def _shuffle_would_move(self, seat: SeatState) -> bool:
        """FC interp. 13, W 9: a deck-empty shuffle needs a card that would move (Interchanges stay)."""
        for face, count in enumerate(seat.discard):
            if count > 0 and not (self.game.family and face == INTERCHANGE):
                return True
        return False

    def _offices_to_shuffle(self, seat: SeatState) -> int:
        """Office among the cards a shuffle takes: the discard pile's and the deck's (FC interp. 6: "When you
        would shuffle this card, you may set it aside instead" holds for the Trade Center's shuffle too)."""
        return seat.discard[OFFICE] + seat.deck_counts()[OFFICE]

    def _decision_actions(self) -> list[int]:
        game = self.game
        F = game.num_faces
        seat = self.seats[self.current]
        players = game.players

        # FC §4.2, §4.4 pending choices come first, whatever the phase.
        if self.pending == "shuffle":
            return [SHUFFLE + k for k in range(self._offices_to_shuffle(seat) + 1)]
        if self.pending in ("give_apartment", "give_residential", "give_resort"):
            return [game.TARGET + t for t in range(players) if t != self.current]
        if self.pending == "remove":
            return [game.REMOVE + f for f in range(F) if self.supply[f] > 0]
        if self.pending == "market":
            return [game.SELECT + f for f in range(F) if self.play_area[f] > 0]
        if self.pending == "airport":
            return [game.TARGET + t for t in range(players) if sum(self.seats[t].discard) > 0]
        if self.pending == "airport_card":
            pile = self.seats[self.chosen].discard
            return [game.SELECT + f for f in range(F) if pile[f] > 0]
        if self.pending == "airport_aside":
            offices = min(seat.deck_counts()[OFFICE], MAX_ASIDE)
            return [SHUFFLE + k for k in range(offices + 1)]

        actions: list[int] = []
        if self.phase == "play":
            # FC §4.1, §4.1 Play Cards phase.
            deck_size = seat.deck_size()
            if deck_size > 0:
                actions.append(PLAY)
            top_must_play = bool(seat.deck_known) and game.faces[seat.deck_known[0]].must_play
            forced = deck_size > 0 and (top_must_play or self.forced)
            # FC interp. 20: "After you play each card, you must decide whether to play an additional card,
            # or stop"; with an empty deck, or after a shuffle, stopping is written too.
            may_stop = deck_size == 0 or self.played > 0 or self.shuffled or game.settings["stop_before_play"]
            if may_stop and not forced:
                actions.append(STOP)
            if deck_size == 0 and self._shuffle_would_move(seat):
                actions.extend(SHUFFLE + k for k in range(self._offices_to_shuffle(seat) + 1))
            for face in range(F):
                if self._recyclable(seat, face):
                    actions.append(RECYCLE + face)
        elif self.phase == "build":
            # FC §4.3, §4.3 Building phase: Flip and Develop may also spend flip_cash.
            spendable = self.cash + self.flip_cash
            for face in range(F):
                info = game.faces[face]
                if self.supply[face] > 0 and info.cost is not None:
                    if info.cost <= self.cash and (self.extra_buys > 0 or self.main):
                        actions.append(game.BUY + face)
                    if self.main and info.flip_fee is not None and info.cost + self._fee(face) <= spendable:
                        actions.append(game.DEVELOP + face)
            for face in range(F):
                if seat.discard[face] > 0 and game.faces[face].flip_fee is not None:
                    if self._fee(face) <= spendable and (self.extra_flips > 0 or self.main):
                        actions.append(game.FLIP + face)
            if game.family and self.digs > 0 and self.cash >= DIG_PRICE:
                actions.append(game.EXCAVATE)
            # W 7 (dig=recycle): the Archaeology Site's "Recycle Ability: Pay 20 cash to gain 3 points",
            # from the discard pile, "during the Building phase".
            if (
                game.family
                and game.settings["dig"] == "recycle"
                and seat.discard[ARCHAEOLOGY_SITE] > 0
                and self.cash >= DIG_PRICE
            ):
                actions.append(RECYCLE + ARCHAEOLOGY_SITE)
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
                f"{self.game.name}: action {action!r} is not legal for seat {player} "
                f"({_player_label(player)}) in this state"
            )
        if player == CHANCE:
            self._apply_chance(value)
        else:
            self._apply_decision(value)
        self.actions.append(value)

    @staticmethod
    def _settle_bottom(seat: SeatState) -> None:
        """§3 invariant: known bottom cards exist only below an unknown part; when the unknown part is used
        up, they join the known top part."""
        if not any(seat.deck_unknown) and seat.deck_bottom:
            seat.deck_known.extend(seat.deck_bottom)
            seat.deck_bottom = []

    def _apply_chance(self, face: int) -> None:
        if self.pending == "bottom":
            # Factory: the (unknown) bottom card of the deck goes to the discard pile (FC §4 item 2).
            seat = self.seats[self.current]
            seat.deck_unknown[face] -= 1
            seat.discard[face] += 1
            self.pending = "none"
            self._settle_bottom(seat)
            return
        # The top card of a deck is revealed (FC §3, interp. 10): it becomes the whole known part.
        seat_id = self._reveal_seat()
        assert seat_id is not None
        seat = self.seats[seat_id]
        seat.deck_unknown[face] -= 1
        seat.deck_known = [face]
        self._settle_bottom(seat)

    def _apply_decision(self, action: int) -> None:
        game = self.game
        F = game.num_faces
        seat = self.seats[self.current]
        if action == PLAY:
            self._play_top_card(seat)
        elif action == STOP:
            # FC §4.1, §4.1 stop: the Building phase begins.
            self.phase = "build"
            self.main = True
            self.extra_buys = self.play_area[CENTRAL_PARK]  # Central Park: Buy 1 time in addition
            self.extra_flips = self.play_area[STATION]  # Station: Flip 1 time in addition
            stations = self.play_area[STATION]  # Station: "Flip fees are 1 less this turn", each one
            self.discount = stations if game.settings["station_stack"] else min(stations, 1)
            self.forced = False
            self.shuffled = False
            if game.family and game.settings["dig"] == "played":
                self.digs = self.play_area[ARCHAEOLOGY_SITE]  # W 7: one dig per Archaeology Site played
        elif SHUFFLE <= action <= SHUFFLE + MAX_ASIDE and self.pending == "airport_aside":
            self._set_aside_after_airport(seat, action - SHUFFLE)
        elif SHUFFLE <= action <= SHUFFLE + MAX_ASIDE:
            self._shuffle(seat, action - SHUFFLE)
        elif RECYCLE <= action < RECYCLE + F and self.phase == "build":
            # W 7 (dig=recycle): the Archaeology Site turns over to a Logging Site in the discard pile.
            seat.discard[ARCHAEOLOGY_SITE] -= 1
            seat.discard[LOGGING_SITE] += 1
            self.cash -= DIG_PRICE
            self.points = _gain(self.points, DIG_POINTS)
        elif RECYCLE <= action < RECYCLE + F:
            self._recycle(seat, action - RECYCLE)
        elif game.BUY <= action < game.BUY + F:
            self._buy(seat, action - game.BUY)
        elif game.DEVELOP <= action < game.DEVELOP + F:
            self._develop(seat, action - game.DEVELOP)
        elif game.FLIP <= action < game.FLIP + F:
            self._flip(seat, action - game.FLIP)
        elif game.TARGET <= action < game.TARGET + 4:
            self._target(seat, action - game.TARGET)
        elif game.REMOVE <= action < game.REMOVE + F:
            self._remove(action - game.REMOVE)
        elif game.family and game.SELECT <= action < game.SELECT + F:
            self._select(action - game.SELECT)
        elif game.family and action == game.EXCAVATE:
            # W 7: pay 20 cash for 3 points; not the Building action.
            self.cash -= DIG_PRICE
            self.points = _gain(self.points, DIG_POINTS)
            self.digs -= 1
        elif action == END:
            self._end_building()
        else:  # pragma: no cover - legal_actions never offers anything else
            raise AssertionError(action)

    def _play_top_card(self, seat: SeatState) -> None:
        """FC §4.1, §4.1 play (rulebook A.1, A.3 and the card texts)."""
        face = seat.deck_known.pop(0)
        info = self.game.faces[face]
        self.play_area[face] += 1
        self.played += 1
        if face == CONVENIENCE_STORE:
            self.store_played = True
        self.forced = False  # a Shopping Mall obligation is met by this card (FC interp. 11)
        self.cash = _gain(self.cash, info.cash)
        self.points = _gain(self.points, info.points)
        self.unhappiness = _gain(self.unhappiness, info.unhappiness)
        if self.unhappiness > self._limit():
            # Rulebook A.3: over the limit, the turn ends immediately; no effect applies (W 3: a Trailer Park
            # or Residential Area now on top is not played).
            self._end_turn()
            return
        if face == SHOPPING_MALL:
            if seat.deck_size() > 0:
                self.forced = True  # "If your deck is not empty, you must play an additional card."
        elif face == HOSPITAL:
            # FAQ Q1, FC interp. 2: this Hospital's unhappiness included.
            self.cash = _gain(self.cash, self.unhappiness)
        elif face == CHURCH:
            self.limit_bonus = _gain(self.limit_bonus, 1)  # "Add +1 to your unhappiness limit this turn."
        elif face == FACTORY:
            # "If your deck is not empty, place the bottom card from your deck into your discard pile."
            if seat.deck_size() > 0:
                if seat.deck_bottom:
                    seat.discard[seat.deck_bottom.pop()] += 1  # §4.1: a known bottom card (W 6)
                elif sum(seat.deck_unknown) > 0:
                    self.pending = "bottom"  # the bottom card is unknown: chance decides (FC interp. 10)
                else:
                    seat.discard[seat.deck_known.pop()] += 1
        elif face == TRADE_CENTER:
            # FC interp. 6: the card turns over to Office in the play area, then the discard pile is shuffled
            # into the deck (the seat chooses how many Office to set aside).
            self.play_area[TRADE_CENTER] -= 1
            self.play_area[OFFICE] += 1
            self.pending = "shuffle"
        elif face == POWER_PLANT:
            # FC interp. 8: mandatory when possible; the receiver is chosen. Solo: no effect.
            if seat.discard[APARTMENT] > 0 and self.game.players >= 2:
                self.pending = "give_apartment"

    def _shuffle(self, seat: SeatState, aside: int) -> None:
        """FC §4.1, §4.1 shuffle k: deck and discard pile become one unknown deck, with k Office set aside on
        top; Interchanges stay in the discard pile (W 9)."""
        F = self.game.num_faces
        stay = [0] * F
        if self.game.family:
            stay[INTERCHANGE] = seat.discard[INTERCHANGE]
        pool = seat.deck_counts()
        for face in range(F):
            pool[face] += seat.discard[face] - stay[face]
        pool[OFFICE] -= aside
        seat.deck_unknown = pool
        seat.deck_known = [OFFICE] * aside  # Office: "set it aside instead, placing it on top afterwards"
        seat.deck_bottom = []
        seat.discard = stay
        self.shuffled = True
        self.pending = "none"
        if self.game.solo:
            self.pending = "remove"  # Solo 2: each time you shuffle, remove a card of the supply

    @staticmethod
    def _shuffle_card_into_deck(seat: SeatState, face: int) -> None:
        """W 4, W 11: a card joins a deck and the whole deck is shuffled (all its cards become unknown)."""
        counts = seat.deck_counts()
        counts[face] += 1
        seat.deck_unknown = counts
        seat.deck_known = []
        seat.deck_bottom = []

    @staticmethod
    def _put_at_bottom(seat: SeatState, face: int) -> None:
        """§3: below an unknown part the card is a known bottom card; otherwise the deck is all known."""
        if any(seat.deck_unknown):
            seat.deck_bottom.append(face)
        else:
            seat.deck_known.append(face)

    def _recycle(self, seat: SeatState, face: int) -> None:
        """FC §4.1, §4.2 recycle f (rulebook A.4): the card in the discard pile turns over."""
        kind = self.game.faces[face].recycle
        seat.discard[face] -= 1
        if kind == RECYCLE_TOP:
            # Power Plant: "After Recycling this card, put it on top of your deck" (as a Factory).
            seat.deck_known.insert(0, face ^ 1)
            return
        if kind == RECYCLE_BOTTOM:
            # W 5, W 6: the card, turned over, goes to the bottom of the deck.
            self._put_at_bottom(seat, face ^ 1)
            return
        seat.discard[face ^ 1] += 1
        settings = self.game.settings
        if kind == RECYCLE_CASH:
            self.cash = _gain(self.cash, 1)
        elif kind == RECYCLE_POINT:
            self.points = _gain(self.points, 1)
        elif kind == RECYCLE_LIMIT:
            self.limit_bonus = _gain(self.limit_bonus, 1)
        elif kind == RECYCLE_INTERCHANGE:
            self.cash = _gain(self.cash, settings["interchange_cash"])  # W 9
        elif kind == RECYCLE_AIRPORT:
            self.pending = "airport"  # W 11: a seat, then a card in its discard pile
        elif kind == RECYCLE_RESERVOIR:
            # W 13: the limit, the Flip/Develop-only cash, or both.
            if settings["reservoir_recycle"] in ("limit", "both"):
                self.limit_bonus = _gain(self.limit_bonus, 1)
            if settings["reservoir_recycle"] in ("cash", "both"):
                self.flip_cash = _gain(self.flip_cash, RESERVOIR_CASH)

    def _pay_flip_price(self, price: int) -> None:
        """§4.3: Flip/Develop-only cash pays first."""
        used = min(self.flip_cash, price)
        self.flip_cash -= used
        self.cash -= price - used

    def _buy(self, seat: SeatState, face: int) -> None:
        """FC §4.3 buy f: an extra Buy (Central Park) is used before the main action."""
        if self.extra_buys > 0:
            self.extra_buys -= 1
        else:
            self.main = False
        cost = self.game.faces[face].cost
        assert cost is not None
        self.cash -= cost
        self.supply[face] -= 1
        seat.discard[face] += 1
        if not self._check_solo_supply():
            self._on_buy(face)

    def _develop(self, seat: SeatState, face: int) -> None:
        """FC §4.3 develop f: pay cost and flip fee, the card goes to the discard pile back side up."""
        self.main = False
        cost = self.game.faces[face].cost
        assert cost is not None
        self._pay_flip_price(cost + self._fee(face))
        self.supply[face] -= 1
        seat.discard[face ^ 1] += 1
        if not self._check_solo_supply():
            self._on_buy(face)

    def _on_buy(self, face: int) -> None:
        """§4.3 "When you Buy or Develop this card" (W 8, W 10, W 12)."""
        if not self.game.family:
            return
        if face == FARMERS_MARKET:
            if any(self.play_area):
                self.pending = "market"
        elif face == WIND_FARM:
            self.extra_flips = _gain(self.extra_flips, 1)
        elif face == CAMPING_GROUNDS:
            seat = self.seats[self.current]
            seat.limit_next = _gain(seat.limit_next, 1)

    def _flip(self, seat: SeatState, face: int) -> None:
        """FC §4.3 flip f: an extra Flip (Station, Wind Farm) is used before the main action."""
        if self.extra_flips > 0:
            self.extra_flips -= 1
        else:
            self.main = False
        self._pay_flip_price(self._fee(face))
        seat.discard[face] -= 1
        if face == APARTMENT:
            if self.game.solo:
                self.removed[APARTMENT] += 1  # Solo 4: "When Flipping an Apartment, remove it from the game."
            else:
                # FC interp. 9: it becomes a Residential Area on another player's discard pile (chosen next).
                # READING: until the target is chosen, the card is in no pile (see _deserialize).
                self.pending = "give_residential"
        elif self.game.family and face == COUNTRY_RESORT:
            if self.game.solo:
                self.removed[COUNTRY_RESORT] += 1  # Wilderness Solo 4
            else:
                self.pending = "give_resort"  # W 4: shuffled into a chosen opponent's deck
        else:
            seat.discard[face ^ 1] += 1

    def _target(self, seat: SeatState, target: int) -> None:
        """FC §4.2, §4.4 target t."""
        if self.pending == "give_apartment":
            seat.discard[APARTMENT] -= 1
            self.seats[target].discard[APARTMENT] += 1
        elif self.pending == "give_residential":
            self.seats[target].discard[RESIDENTIAL_AREA] += 1
        elif self.pending == "give_resort":
            self._shuffle_card_into_deck(self.seats[target], TRAILER_PARK)
        elif self.pending == "airport":
            self.chosen = target
            self.pending = "airport_card"
            return
        else:  # pragma: no cover - target is legal only in the pending steps above
            raise AssertionError(self.pending)
        self.pending = "none"

    def _select(self, face: int) -> None:
        """§4.4 select f: Farmer's Market's removal, or the Airport's card."""
        if self.pending == "market":
            self.play_area[face] -= 1
            self.removed[face] += 1
            self.pending = "none"
            return
        owner = self.seats[self.chosen]
        owner.discard[face] -= 1
        self._shuffle_card_into_deck(owner, face)
        own_deck = self.chosen == self.current
        self.chosen = -1
        if own_deck and owner.deck_counts()[OFFICE] > 0:
            # W 20: "When you would shuffle this card, you may set it aside instead": the seat is shuffling
            # its own deck, so its Office may be set aside.
            self.pending = "airport_aside"
            return
        self.pending = "remove" if self.game.solo else "none"  # W 19: a shuffle of the solo seat's deck

    def _set_aside_after_airport(self, seat: SeatState, aside: int) -> None:
        """W 20: `aside` Office of the deck just shuffled by the Airport go on top ("placing it on top
        afterwards"); the rest of the deck stays shuffled."""
        seat.deck_unknown[OFFICE] -= aside
        seat.deck_known = [OFFICE] * aside
        self.pending = "remove" if self.game.solo else "none"  # W 19: a shuffle of the solo seat's deck

    def _remove(self, face: int) -> None:
        """FC §4.2 remove f (Solo 2); the game is lost if the supply is now empty (Solo 3, FC interp. 16)."""
        self.supply[face] -= 1
        self.removed[face] += 1
        self.pending = "none"
        self._check_solo_supply()

    def _check_solo_supply(self) -> bool:
        """Solo 3, FC interp. 16: the moment the supply is empty, the solo game is lost (the turn ends)."""
        if self.game.solo and sum(self.supply) == 0:
            self._end_turn(lost=True)
            return True
        return False

    def _end_building(self) -> None:
        """FC §4.3, §4.3 end: best score, victory check (W 14), end of turn."""
        seat = self.seats[self.current]
        seat.best = max(seat.best, self.points)
        # "If you play 18 or more cards this turn, you win!": cards played, a removed one too (W 8).
        if self.points >= 8 or (self.store_played and self.played >= 18):
            self.winner = self.current
        self._end_turn()

    def _end_turn(self, lost: bool = False) -> None:
        """FC §4.4, §4.5: the played cards go to the discard pile; turn counters reset; next seat or over."""
        seat = self.seats[self.current]
        for face in range(self.game.num_faces):
            seat.discard[face] += self.play_area[face]
        self.play_area = [0] * self.game.num_faces
        self.cash = 0
        self.points = 0
        self.unhappiness = 0
        self.limit_bonus = 0
        self.extra_buys = 0
        self.extra_flips = 0
        self.forced = False
        self.main = False
        self.discount = 0
        self.played = 0
        self.store_played = False
        self.shuffled = False
        self.flip_cash = 0
        self.digs = 0
        self.chosen = -1
        self.pending = "none"
        self.turn += 1
        if self.winner != -1 or lost or self.turn == self.game.max_turns * self.game.players:
            self.phase = "over"  # `current` stays the seat whose turn it was
        else:
            self.current = (self.current + 1) % self.game.players
            self.phase = "play"
            # W 12: Camping Grounds' bonus for this seat's turn.
            nxt = self.seats[self.current]
            self.limit_bonus = nxt.limit_next
            nxt.limit_next = 0

    # ----- results -----

    def returns(self) -> list[float]:
        """FC §4.5: 1.0 to the winner; everyone 0.0 on a solo loss, at the turn limit, and before the end."""
        players = self.game.players
        if self.phase != "over" or self.winner < 0:
            return [0.0] * players
        return [1.0 if seat == self.winner else 0.0 for seat in range(players)]

    def scores(self) -> list[float]:
        """FC §4.5: the best points of a turn that reached the end of its Building phase, per seat."""
        return [float(seat.best) for seat in self.seats]

    def history(self) -> list[int]:
        return list(self.actions)

    def clone(self) -> FlipCityState:
        twin = copy.copy(self)
        twin.seats = [s.copy() for s in self.seats]
        twin.supply = list(self.supply)
        twin.removed = list(self.removed)
        twin.play_area = list(self.play_area)
        twin.actions = list(self.actions)
        return twin

    def resample_from_infostate(self, player: object, rng: object = None) -> FlipCityState:
        """No private information in the Flip City family (FC §3, §3): a clone."""
        self._check_seat(player)
        return self.clone()

    # ----- notation (FC §5, §5) -----

    def action_to_string(self, action: object) -> str:
        game = self.game
        value = _as_int(action)
        if self.is_chance_node():
            # READING: at a chance node the ids in range are the chance outcomes (face ids).
            if value is None or not 0 <= value < game.max_chance_outcomes():
                raise IllegalActionError(
                    f"{game.name}: chance outcome {action!r} is out of range "
                    f"0..{game.max_chance_outcomes() - 1} (seat {CHANCE}, chance)"
                )
            verb = "bottom" if self.pending == "bottom" else "reveal"
            return f"{verb} {game.face_names[value]}"
        if value is None or not 0 <= value < game.num_distinct_actions():
            raise IllegalActionError(
                f"{game.name}: action {action!r} is out of range 0..{game.num_distinct_actions() - 1} "
                f"(seat {self.current_player()})"
            )
        return game.decision_action_text(value)

    def string_to_action(self, text: object) -> int:
        """Relaxed parsing (FC §5); legality is not checked.

        READING: at a chance node only the chance forms parse (``reveal <Face>``, ``bottom <Face>`` whichever
        the kind of chance node, or a bare face name); at any other node only the decision forms.
        """
        if not isinstance(text, str):
            raise InvalidNotationError(
                f"{self.game.name}: an action text must be a str, not {type(text).__name__}"
            )
        key = _normalize_text(text)
        table = self.game._chance_text_to_id if self.is_chance_node() else self.game._decision_text_to_id
        if key not in table:
            raise InvalidNotationError(f"{self.game.name}: cannot parse action {text!r}")
        return table[key]

    # ----- observations (FC §6, §6) -----

    def _check_seat(self, player: object) -> int:
        value = _as_int(player)
        if value is None or not 0 <= value < self.game.players:
            raise InvalidStateError(f"seat {player!r} out of range 0..{self.game.players - 1}")
        return value

    def observation_tensor(self, player: object) -> np.ndarray:
        observer = self._check_seat(player)
        game = self.game
        F = game.num_faces
        players = game.players
        values: list[float] = []
        for offset in range(players):
            seat = self.seats[(observer + offset) % players]
            values.extend(seat.deck_counts())
            top = [0] * F
            if seat.deck_known:
                top[seat.deck_known[0]] = 1
            values.extend(top)
            values.extend(seat.discard)
            if game.family:
                bottom = [0] * F
                for face in seat.deck_bottom:
                    bottom[face] += 1
                values.extend(bottom)
                values.append(seat.limit_next)
        values.extend(self.supply)
        values.extend(self.play_area)
        if game.family:
            values.extend(self.removed)
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
                self.discount,
                self.turn,
            ]
        )
        if game.family:
            values.extend([self.flip_cash, self.digs])
        values.extend(int(self.phase == phase) for phase in PHASES)
        values.extend(int(self.pending == pending) for pending in game.pendings[1:])
        if game.family:
            chosen_one_hot = [0] * players
            if self.chosen >= 0:
                chosen_one_hot[(self.chosen - observer) % players] = 1
            values.extend(chosen_one_hot)
        # FC §6 deck-order block: each seat's known cards in order (deck_known top first, then deck_bottom
        # top first), C slots, each 1 + the card's face (0 past the last), then its best.
        slots = game.num_cards()
        for offset in range(players):
            seat = self.seats[(observer + offset) % players]
            known = [1 + face for face in (seat.deck_known + seat.deck_bottom)[:slots]]
            values.extend(known + [0] * (slots - len(known)))
            values.append(seat.best)
        values.extend([self.played, int(self.store_played), int(self.shuffled)])
        tensor = np.asarray(values, dtype=np.float32)
        assert tensor.shape == game.observation_shape()
        return tensor

    def observation_string(self, player: object) -> str:
        observer = self._check_seat(player)
        game = self.game
        players = game.players
        title = "Flip City: Wilderness" if game.name == WILDERNESS_ID else "Flip City"
        lines = [f"{title}, seen by seat {observer}: turn {self.turn}, seat {self.current} to move"]
        lines.append(f"phase {self.phase}, pending {self.pending}")
        for offset in range(players):
            seat_id = (observer + offset) % players
            seat = self.seats[seat_id]
            top = game.face_names[seat.deck_known[0]] if seat.deck_known else "-"
            extra = ""
            if len(seat.deck_known) > 1:
                extra += f" (known from the top {', '.join(game.face_names[f] for f in seat.deck_known)})"
            if seat.deck_bottom:
                extra += f" (bottom {', '.join(game.face_names[f] for f in seat.deck_bottom)})"
            if seat.limit_next:
                extra += f"; +{seat.limit_next} limit next turn"
            lines.append(
                f"seat {seat_id}: deck {seat.deck_size()} (top {top}){extra}; "
                f"discard {self._describe(seat.discard)}; best {seat.best}"
            )
        lines.append(f"supply: {self._describe(self.supply)}")
        lines.append(
            f"play area: {self._describe(self.play_area)}; {self.played} cards played this turn"
            f"{', a Convenience Store among them' if self.store_played else ''}"
            f"{', shuffled' if self.shuffled else ''}"
        )
        lines.append(
            f"cash {self.cash}, points {self.points}, unhappiness {self.unhappiness}/{self._limit()}"
            f"{', must play' if self.forced else ''}"
            f"{f', {self.flip_cash} cash for Flip/Develop' if self.flip_cash else ''}"
        )
        if self.phase == "build":
            lines.append(
                f"main action {'available' if self.main else 'used'}, extra buys {self.extra_buys}, "
                f"extra flips {self.extra_flips}, fees {self.discount} less"
                f"{f', digs {self.digs}' if self.digs else ''}"
            )
        if self.chosen >= 0:
            lines.append(f"chosen seat {self.chosen}")
        if any(self.removed):
            lines.append(f"removed: {self._describe(self.removed)}")
        if self.phase == "over":
            lines.append("winner: " + (f"seat {self.winner}" if self.winner >= 0 else "none"))
        return "\n".join(lines)

    def _describe(self, counts: list[int]) -> str:
        parts = [f"{count} {self.game.face_names[face]}" for face, count in enumerate(counts) if count]
        return ", ".join(parts) if parts else "empty"

    def information_state_string(self, player: object) -> str:
        """FC §6: ``seat=<p> history=<ids joined by ",">`` (perfect information, public history)."""
        observer = self._check_seat(player)
        return f"seat={observer} history=" + ",".join(str(action) for action in self.actions)

    # ----- serialization (FC §7, §7) -----

    def to_json_object(self) -> dict[str, object]:
        family = self.game.family
        seats = []
        for seat in self.seats:
            entry: dict[str, object] = {
                "best": seat.best,
                "deck_known": list(seat.deck_known),
                "deck_unknown": list(seat.deck_unknown),
                "discard": list(seat.discard),
            }
            if family:
                entry["deck_bottom"] = list(seat.deck_bottom)
                entry["limit_next"] = seat.limit_next
            seats.append(entry)
        obj = {
            "cash": self.cash,
            "current": self.current,
            "discount": self.discount,
            "extra_buys": self.extra_buys,
            "extra_flips": self.extra_flips,
            "forced": self.forced,
            "game": self.game.name,
            "history": list(self.actions),
            "limit_bonus": self.limit_bonus,
            "main": self.main,
            "params": self.game.params,
            "pending": self.pending,
            "phase": self.phase,
            "play_area": list(self.play_area),
            "played": self.played,
            "store_played": self.store_played,
            "shuffled": self.shuffled,
            "points": self.points,
            "removed": list(self.removed),
            "seats": seats,
            "supply": list(self.supply),
            "turn": self.turn,
            "unhappiness": self.unhappiness,
            "version": SERIAL_VERSION,
            "winner": self.winner,
        }
        if family:
            obj.update(chosen=self.chosen, digs=self.digs, flip_cash=self.flip_cash)
        return obj

    def serialize(self) -> str:
        return json.dumps(self.to_json_object(), sort_keys=True, separators=(",", ":"))

    # ----- display -----

    def __str__(self) -> str:
        player = self.current_player()
        head = f"[{_player_label(player)}] "
        return head + self.observation_string(self.current)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FlipCityState) and other.serialize() == self.serialize()

    __hash__ = None  # type: ignore[assignment]  # mutable, so unhashable: typeshed's idiom, no other spelling


def _player_label(player: int) -> str:
    if player == CHANCE:
        return "chance"
    if player == TERMINAL:
        return "terminal"
    return f"seat {player}"


# ---------------------------------------------------------------------------------------------------------
# Deserialization (FC §7, §7)
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
        "played",
        "shuffled",
        "store_played",
        "supply",
        "turn",
        "unhappiness",
        "version",
        "winner",
    }
)
_SEAT_KEYS = frozenset({"best", "deck_known", "deck_unknown", "discard"})
_FAMILY_TOP_KEYS = _TOP_KEYS | {"chosen", "digs", "flip_cash"}
_FAMILY_SEAT_KEYS = _SEAT_KEYS | {"deck_bottom", "limit_next"}


class _Reader:
    """Typed field access with the game's name in every message."""

    def __init__(self, game: FlipCityGame) -> None:
        self.game = game

    def bad(self, message: str) -> InvalidStateError:
        return InvalidStateError(f"{self.game.name}: bad serialized state: {message}")

    def get_int(self, obj: dict[str, object], key: str, low: int, high: int) -> int:
        value = obj[key]
        if not _is_int(value):
            raise self.bad(f"{key} must be an int, got {value!r}")
        if not low <= value <= high:
            raise self.bad(f"{key} = {value} is out of range {low}..{high}")
        return value

    def get_bool(self, obj: dict[str, object], key: str) -> bool:
        value = obj[key]
        if not isinstance(value, bool):
            raise self.bad(f"{key} must be a bool, got {value!r}")
        return value

    def get_counts(self, obj: dict[str, object], key: str) -> list[int]:
        size = self.game.num_faces
        value = obj[key]
        if not isinstance(value, list) or len(value) != size:
            raise self.bad(f"{key} must be a list of {size} ints")
        for count in value:
            if not _is_int(count):
                raise self.bad(f"{key} holds a non-int {count!r}")
            if not 0 <= count <= MAX_COUNTER:
                raise self.bad(f"{key} holds a count {count} out of range 0..{MAX_COUNTER}")
        return list(value)

    def get_faces(self, obj: dict[str, object], key: str, what: str) -> list[int]:
        value = obj[key]
        if not isinstance(value, list):
            raise self.bad(f"{what} {key} must be a list")
        for face in value:
            if not _is_int(face) or not 0 <= face < self.game.num_faces:
                raise self.bad(f"{what} {key} holds {face!r}, not a face id")
        return list(value)

    def check_keys(self, obj: object, keys: frozenset[str], what: str) -> dict[str, object]:
        if not isinstance(obj, dict):
            raise self.bad(f"{what} must be a JSON object")
        missing = keys - obj.keys()
        extra = obj.keys() - keys
        if missing:
            raise self.bad(f"{what} lacks {sorted(missing)}")
        if extra:
            raise self.bad(f"{what} has unknown keys {sorted(extra)}")
        return obj


_no_duplicate_keys = no_duplicate_keys("bad serialized state: ")


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _deserialize(game: FlipCityGame, text: object) -> FlipCityState:
    read = _Reader(game)
    family = game.family
    F = game.num_faces
    if not isinstance(text, str):
        raise InvalidStateError(f"{game.name}: a serialized state must be a str, not {type(text).__name__}")
    try:
        obj = json.loads(text, object_pairs_hook=_no_duplicate_keys)
    except InvalidStateError as error:
        raise InvalidStateError(f"{game.name}: {error}") from None
    except Exception as error:  # JSONDecodeError, huge int literals, deep nesting, ...
        raise read.bad(f"not valid JSON ({type(error).__name__})") from None
    obj = read.check_keys(obj, _FAMILY_TOP_KEYS if family else _TOP_KEYS, "the state")

    # Identity.
    if obj["game"] != game.name:
        raise read.bad(f"game {obj['game']!r} is not {game.name!r}")
    if not _is_int(obj["version"]) or obj["version"] != SERIAL_VERSION:
        raise read.bad(f"version {obj['version']!r} is not {SERIAL_VERSION}")
    if not same_params(obj["params"], game.params):
        raise read.bad(f"params {obj['params']!r} differ from the game's {game.params!r}")

    players = game.players
    max_turn = game.max_turns * players

    # Types and ranges of every field.
    cash = read.get_int(obj, "cash", 0, MAX_COUNTER)
    points = read.get_int(obj, "points", 0, MAX_COUNTER)
    unhappiness = read.get_int(obj, "unhappiness", 0, MAX_COUNTER)
    limit_bonus = read.get_int(obj, "limit_bonus", 0, MAX_COUNTER)
    extra_buys = read.get_int(obj, "extra_buys", 0, MAX_COUNTER)
    extra_flips = read.get_int(obj, "extra_flips", 0, MAX_COUNTER)
    current = read.get_int(obj, "current", 0, players - 1)
    winner = read.get_int(obj, "winner", -1, players - 1)
    turn = read.get_int(obj, "turn", 0, max_turn)
    discount = read.get_int(obj, "discount", 0, MAX_COUNTER)
    played = read.get_int(obj, "played", 0, MAX_COUNTER)
    store_played = read.get_bool(obj, "store_played")
    shuffled = read.get_bool(obj, "shuffled")
    forced = read.get_bool(obj, "forced")
    main = read.get_bool(obj, "main")
    flip_cash = read.get_int(obj, "flip_cash", 0, MAX_COUNTER) if family else 0
    digs = read.get_int(obj, "digs", 0, MAX_COUNTER) if family else 0
    chosen = read.get_int(obj, "chosen", -1, players - 1) if family else -1
    phase = obj["phase"]
    if not isinstance(phase, str) or phase not in PHASES:
        raise read.bad(f"phase {phase!r} is not one of {PHASES}")
    pending = obj["pending"]
    if not isinstance(pending, str) or pending not in game.pendings:
        raise read.bad(f"pending {pending!r} is not one of {game.pendings}")
    play_area = read.get_counts(obj, "play_area")
    removed = read.get_counts(obj, "removed")
    supply = read.get_counts(obj, "supply")

    history = obj["history"]
    if not isinstance(history, list):
        raise read.bad("history must be a list")
    for action in history:
        if not _is_int(action) or not 0 <= action < game.num_distinct_actions():
            raise read.bad(f"history holds {action!r}, not an action id 0..{game.num_distinct_actions() - 1}")

    seats_obj = obj["seats"]
    if not isinstance(seats_obj, list) or len(seats_obj) != players:
        raise read.bad(f"seats must be a list of {players} objects")
    seats: list[SeatState] = []
    for index, seat_obj in enumerate(seats_obj):
        what = f"seat {index}"
        seat_obj = read.check_keys(seat_obj, _FAMILY_SEAT_KEYS if family else _SEAT_KEYS, what)
        best = read.get_int(seat_obj, "best", 0, MAX_COUNTER)
        deck_known = read.get_faces(seat_obj, "deck_known", what)
        deck_unknown = read.get_counts(seat_obj, "deck_unknown")
        discard = read.get_counts(seat_obj, "discard")
        deck_bottom: list[int] = []
        limit_next = 0
        if family:
            deck_bottom = read.get_faces(seat_obj, "deck_bottom", what)
            limit_next = read.get_int(seat_obj, "limit_next", 0, MAX_COUNTER)
            if deck_bottom and not any(deck_unknown):
                raise read.bad(f"{what} has known bottom cards below no unknown card (§3)")
        seats.append(SeatState(deck_known, deck_unknown, discard, best, deck_bottom, limit_next))

    # The supply holds the front faces of the game's piles, never more than at the start (FC §2, §2.3).
    for face in range(F):
        if game.faces[face].cost is None and supply[face] != 0:
            raise read.bad(f"supply holds {game.face_names[face]}, which is never in the supply")
        if supply[face] > game.initial_supply[face]:
            raise read.bad(
                f"supply holds {supply[face]} {game.face_names[face]}, more than the starting supply"
            )

    # Card conservation per double-sided type (FC §2, §2.3).
    totals = [0] * F
    for face in range(F):
        totals[face] += play_area[face] + removed[face] + supply[face]
    for seat in seats:
        for face, count in enumerate(seat.deck_counts()):
            totals[face] += count
        for face in range(F):
            totals[face] += seat.discard[face]
    for kind in range(F // 2):
        expected = game.type_totals[kind]
        # READING: a flipped Apartment / Country Resort is in no pile until its receiver is chosen.
        if kind == RESIDENTIAL_AREA // 2 and pending == "give_residential":
            expected -= 1
        if family and kind == TRAILER_PARK // 2 and pending == "give_resort":
            expected -= 1
        found = totals[2 * kind] + totals[2 * kind + 1]
        if found != expected:
            names = game.face_names
            raise read.bad(
                f"{names[2 * kind]}/{names[2 * kind + 1]}: {found} cards where there are {expected}"
            )

    # Phases and pending steps (FC §7, §7).
    play_pendings = ("bottom", "shuffle", "give_apartment", "airport", "airport_card", "airport_aside")
    if pending in play_pendings and phase != "play":
        raise read.bad(f"pending {pending!r} outside the play phase")
    if pending in ("give_residential", "give_resort", "market") and phase != "build":
        raise read.bad(f"pending {pending!r} outside the build phase")
    if pending == "remove" and not (phase == "play" and game.solo):
        raise read.bad("pending 'remove' outside the play phase of a solo game")
    if phase == "over" and pending != "none":
        raise read.bad("a pending step in a finished game")
    if phase != "build" and (main or extra_buys != 0 or extra_flips != 0 or discount or digs != 0):
        raise read.bad("building fields set outside the build phase")
    if phase != "play" and forced:
        raise read.bad("forced set outside the play phase")
    if phase != "play" and shuffled:
        raise read.bad("shuffled set outside the play phase")
    # `played` counts the play area and the cards a Farmer's Market took from it (Building phase only).
    on_table = sum(play_area)
    if played < on_table or (phase != "build" and played != on_table) or played - on_table > sum(removed):
        raise read.bad("played does not match the cards played this turn")
    store_on_table = play_area[CONVENIENCE_STORE] > 0
    if (store_on_table and not store_played) or (store_played and not store_on_table and played == on_table):
        raise read.bad("store_played does not match the cards played this turn")
    if phase == "over" and (played or store_played):
        raise read.bad("turn counters set in a finished game")

    if phase == "over":
        # READING: the "turn counters" are cash, points, unhappiness, limit_bonus, extra_buys, extra_flips,
        # and in the family layout flip_cash.
        if any(play_area):
            raise read.bad("cards in the play area of a finished game")
        if cash or points or unhappiness or limit_bonus or extra_buys or extra_flips or flip_cash:
            raise read.bad("turn counters set in a finished game")
    elif winner != -1:
        raise read.bad("a winner while the game is not over")
    if phase != "over" and turn == max_turn:
        raise read.bad("the turn limit is reached but the game goes on")
    if any(removed) and not game.solo and not game.has_market:
        raise read.bad("cards are removed from the game only in solo or by a Farmer's Market")
    if pending in ("give_apartment", "give_residential", "give_resort") and game.solo:
        raise read.bad("nobody to give a card to in solo")
    if pending == "bottom" and not any(seats[current].deck_unknown):
        raise read.bad("a pending bottom card with no unknown card in the deck")
    if pending == "bottom" and seats[current].deck_bottom:
        raise read.bad("a pending bottom card while the bottom card is known")
    if pending == "give_apartment" and seats[current].discard[APARTMENT] == 0:
        raise read.bad("a Power Plant gift with no Apartment in the discard pile")
    if pending == "market" and not any(play_area):
        raise read.bad("a Farmer's Market removal with no played card")
    if pending == "airport" and not any(any(seat.discard) for seat in seats):
        raise read.bad("an Airport with every discard pile empty")
    if (chosen != -1) != (pending == "airport_card"):
        raise read.bad("chosen is set exactly while the Airport's card is chosen")
    if pending == "airport_card" and not any(seats[chosen].discard):
        raise read.bad("an Airport's card from an empty discard pile")
    if pending == "airport_aside":
        deck = seats[current]
        if deck.deck_known or deck.deck_bottom or deck.deck_unknown[OFFICE] == 0:
            raise read.bad("an Office set aside after an Airport needs a freshly shuffled deck holding one")
    if game.solo and phase != "over" and not any(supply):
        raise read.bad("a solo game with an empty supply is lost, so over")

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
        played=played,
        store_played=store_played,
        shuffled=shuffled,
        actions=list(history),
        flip_cash=flip_cash,
        digs=digs,
        chosen=chosen,
    )


__all__ = [
    "ALL_FACE_NAMES",
    "BASE_FACES",
    "FACE_NAMES",
    "Face",
    "FlipCityGame",
    "FlipCityState",
    "FlipCityWildernessGame",
    "SeatState",
]
