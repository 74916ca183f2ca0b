"""Flipology (Nature, the Nature variant, the Great Tree): the pure-Python reference implementation.

Written from the rulebook (``shared/rules/flipology.txt``) and the contract ``docs/rules/flipology.md``;
section numbers (§) refer to that contract, "interp. N" to its numbered interpretations.

Plain and slow on purpose: every rule is one readable step, so that this file can be checked by eye
against the rules and used to catch the Rust core disagreeing with them. A state is fully determined by its
parameters and its history (§10): deserializing replays the history.

Places where the contract had to be read one way among several are marked ``READING:`` in comments.
"""

from __future__ import annotations

import json
import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from math import comb
from typing import Any, SupportsIndex, TypeGuard, cast

import numpy as np

from meeplex._params import game_string
from meeplex._protocols import RngLike
from meeplex.errors import IllegalActionError, InvalidNotationError, InvalidStateError
from meeplex.oracle._json import no_duplicate_keys, same_params
from meeplex.oracle._text import fold_white_space
from meeplex.oracle.rng import random_step

GAME_NAME = "flipology"
SERIAL_VERSION = 1

# current_player() at a chance node / once the game is over (DESIGN.md; OpenSpiel's ids).
CHANCE = -1
TERMINAL = -4

# ---------------------------------------------------------------------------------------------------------
# §2 Components: the card table
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Card:
    """One row of the card table of §2: one illustration, with its printed value and (proposed) copies."""

    name: str
    kind: str
    value: int
    copies: int


# The proposal of flip_family.md §C.2 (status P for the copies), as data.
CARDS: tuple[Card, ...] = (
    Card("Dog 5", "Dog", 5, 5),
    Card("Dog 6", "Dog", 6, 5),
    Card("Cat 4", "Cat", 4, 3),
    Card("Cat 5", "Cat", 5, 3),
    Card("Cat 6", "Cat", 6, 3),
    Card("Sloth 6", "Sloth", 6, 3),
    Card("Sloth 7", "Sloth", 7, 3),
    Card("Sloth 8", "Sloth", 8, 3),
    Card("Frog 4", "Frog", 4, 4),
    Card("Frog 5", "Frog", 5, 4),
    Card("Snake 3", "Snake", 3, 3),
    Card("Snake 4", "Snake", 4, 3),
    Card("Monkey 2", "Monkey", 2, 3),
    Card("Monkey 3", "Monkey", 3, 3),
    Card("Hawk 3", "Hawk", 3, 3),
    Card("Hawk 4", "Hawk", 4, 3),
    Card("Mole 1", "Mole", 1, 3),
    Card("Mole 2", "Mole", 2, 3),
    Card("Parrot 4", "Parrot", 4, 4),
    Card("Hunter 2", "Hunter", 2, 2),
    Card("Quokka 8", "Gold", 8, 1),
    Card("GoldB 8", "Gold", 8, 1),
    Card("GoldC 8", "Gold", 8, 1),
    Card("GoldD 9", "Gold", 9, 1),
    Card("GoldE 9", "Gold", 9, 1),
    Card("GoldF 9", "Gold", 9, 1),
    Card("Rain 3", "Rain", 3, 1),
    Card("Sun 3", "Sun", 3, 1),
    Card("Wind 3", "Wind", 3, 1),
    Card("Moon 7", "Moon", 7, 1),
    Card("Clearing 0", "Clearing", 0, 6),
)

NUM_CARD_IDS = len(CARDS)  # 31, the Clearing included
NUM_DEALABLE = 30  # ids 0..29 can be dealt; the Clearing (30) never is
CLEARING = 30
RAIN = 26
MOON = 29
CARD_NAMES: tuple[str, ...] = tuple(card.name for card in CARDS)

ACTIVE_KINDS = frozenset(
    {"Dog", "Snake", "Frog", "Monkey", "Hawk", "Mole", "Parrot", "Hunter", "Rain", "Sun", "Wind"}
)
# The kinds a Parrot may mimic (interp. 12), in the order of their mimic index k.
MIMIC_KINDS: tuple[str, ...] = ("Dog", "Snake", "Frog", "Monkey", "Hawk", "Mole", "Hunter")
ANIMAL_KINDS = frozenset({"Dog", "Cat", "Sloth", "Frog", "Snake", "Monkey", "Hawk", "Mole", "Parrot", "Gold"})
# Effects that apply a flip after which the flipped card may trigger (§5.3).
FLIPPING_KINDS = frozenset({"Dog", "Snake", "Frog", "Hawk"})

# §5.1 and §8.1 one-hot orders.
PHASES = ("deal", "regrow", "redeal", "arrange", "play", "over")
STEPS = ("none", "flip", "target", "monkey", "choose", "mimic", "peek", "sunflip", "rain")
EFFECTS = ("", "Dog", "Snake", "Frog", "Monkey", "Hawk", "Mole", "Parrot", "Hunter", "Rain", "Sun")
OBS_EFFECTS = ("Dog", "Snake", "Frog", "Monkey", "Hawk", "Mole", "Parrot", "Hunter", "Rain", "Sun", "Wind")

# ---------------------------------------------------------------------------------------------------------
# §1 Parameters
# ---------------------------------------------------------------------------------------------------------

NATURE, NATURE_VARIANT, GREAT_TREE = 0, 1, 2

# name -> (type, default, low, high); bounds are for ints only.
PARAMETERS: dict[str, tuple[type, object, int, int]] = {
    "players": (int, 2, 2, 6),
    "variant": (int, 0, 0, 2),
    "moon": (bool, False, 0, 0),
    "target": (int, 50, 1, 1000),
    "max_rounds": (int, 10, 1, 100),
}


def normalize_params(given: dict[str, object]) -> dict[str, Any]:
    """All five keys with defaults filled in; unknown keys, wrong types, out-of-range values -> error."""
    if not isinstance(given, dict):
        raise InvalidStateError(f"{GAME_NAME}: parameters must be a dict")
    for key in given:
        if key not in PARAMETERS:
            raise InvalidStateError(f"{GAME_NAME}: unknown parameter {key!r}")
    params: dict[str, Any] = {}
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
    if params["variant"] == GREAT_TREE and params["players"] > 4:
        raise InvalidStateError(f"{GAME_NAME}: the Great Tree (variant 2) is for 2 to 4 players")
    if params["variant"] == NATURE_VARIANT and params["moon"]:
        raise InvalidStateError(f"{GAME_NAME}: the Nature variant (variant 1) removes the Moon (moon=false)")
    return params


# ---------------------------------------------------------------------------------------------------------
# §7 Actions
# ---------------------------------------------------------------------------------------------------------

NUM_DISTINCT_ACTIONS = 100
MAX_CHANCE_OUTCOMES = 30
NUM_POSITIONS = 60  # ids 0..59
PLACE = 60  # 60 + card id (0..29)
MIMIC = 90  # 90 + mimic index (0..6)
KEEP = 97
REGROW = 98
PASS = 99
POSITION_VERBS = ("flip", "swap", "remove", "peek", "use")


def _as_int(value: object) -> int | None:
    """An int-like value (a Python or numpy integer) as an int; ``None`` for anything else, bools included."""
    if isinstance(value, (bool, np.bool_)):
        return None
    try:
        return operator.index(cast(SupportsIndex, value))  # anything else raises the TypeError below
    except TypeError:
        return None


def _is_rng(value: object) -> TypeGuard[RngLike]:
    """Whether ``value`` draws like the shared PRNG (has a ``below`` method)."""
    return callable(getattr(value, "below", None))


def _normalize_text(text: str) -> str:
    """Relaxed notation (§7): ignore ASCII case, surrounding white space and repeated inner white space."""
    return fold_white_space(text)


# ---------------------------------------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------------------------------------


class FlipologyGame:
    """Flipology with one set of parameters (§1)."""

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
        self.variant: int = self._params["variant"]
        self.great_tree: bool = self.variant == GREAT_TREE
        self.hand_size = 5 if self.great_tree else 9
        self.row_size = 5 if self.great_tree else 7
        self.turns = 2 if self.great_tree else 3
        self.slots = 15 if self.great_tree else 7  # S, positions per seat
        self.all_seats = (1 << self.players) - 1
        # §2 The deck: all 76 cards, without the Moon unless `moon`, without the Rain in the Great Tree.
        deck = [CARDS[c].copies for c in range(NUM_DEALABLE)]
        if not self._params["moon"]:
            deck[MOON] = 0
        if self.great_tree:
            deck[RAIN] = 0
        self.deck: tuple[int, ...] = tuple(deck)

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
        """§7: the bound on the number of actions (chance included)."""
        n = self.players
        if self.great_tree:
            per_round = 5 * n + n + 5 * n + 5 * n + 2 * n * (1 + 15 * n * (n + 4))
            return 3 * per_round
        per_round = 9 * n + 7 * n + 3 * n * (1 + 7 * n * (n + 4))
        if self.variant == NATURE_VARIANT:
            max_rounds: int = self._params["max_rounds"]
            return max_rounds * per_round
        return per_round

    def observation_shape(self) -> tuple[int, ...]:
        """§8.1: ``(36 x n x S + 7n + 91,)``."""
        n = self.players
        return (36 * n * self.slots + 7 * n + 91,)

    def new_initial_state(self) -> FlipologyState:
        """§4.2: round 0, seat 0 starts, the whole deck in the pile, dealing begins."""
        seats = [SeatState(row=[None] * self.slots) for _ in range(self.players)]
        return FlipologyState(game=self, seats=seats, pile=list(self.deck))

    def deserialize_state(self, text: object) -> FlipologyState:
        """The inverse of ``FlipologyState.serialize`` (§10): the history is replayed and every field must be
        what it produces; anything else raises ``InvalidStateError``."""
        return _deserialize(self, text)

    def __str__(self) -> str:
        return game_string(GAME_NAME, self._params)

    def __repr__(self) -> str:
        return f"FlipologyGame({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FlipologyGame) and other._params == self._params

    def __hash__(self) -> int:
        return hash(str(self))

    # ----- positions (§3.2) -----

    def position_text(self, pos: int) -> str:
        if self.great_tree:
            return f"{pos // 15}.{(pos % 15) // 5}.{pos % 5}"
        return f"{pos // 7}.{pos % 7}"

    def parse_position(self, text: str) -> int | None:
        parts = text.split(".")
        if not all(part.isdigit() and part.isascii() for part in parts):
            return None
        numbers = [int(part) for part in parts]
        if self.great_tree:
            if len(numbers) != 3:
                return None
            seat, tier, column = numbers
            if tier > 2 or column > 4:
                return None
            pos = 15 * seat + 5 * tier + column
        else:
            if len(numbers) != 2:
                return None
            seat, column = numbers
            if column > 6:
                return None
            pos = 7 * seat + column
        return pos if pos < NUM_POSITIONS else None


# ---------------------------------------------------------------------------------------------------------
# The state
# ---------------------------------------------------------------------------------------------------------


@dataclass
class Record:
    """A card dealt into the game (§3.1): identity, draw number, who knows it and (in a row) its facing."""

    card: int
    draw: int
    known: int
    up: int = 0

    def copy(self) -> Record:
        return Record(self.card, self.draw, self.known, self.up)


@dataclass
class SeatState:
    """One seat's cards: hand (sorted by draw), row of S positions, banked total, Regrowth (§3.1, §10)."""

    row: list[Record | None]
    hand: list[Record] = field(default_factory=list)
    total: int = 0
    regrown: int = -1
    returned: list[Record] = field(default_factory=list)

    def copy(self) -> SeatState:
        return SeatState(
            row=[r.copy() if r is not None else None for r in self.row],
            hand=[r.copy() for r in self.hand],
            total=self.total,
            regrown=self.regrown,
            returned=[r.copy() for r in self.returned],
        )


@dataclass
class FlipologyState:
    """A Flipology position: the fields of the serialization (§10), with the game it belongs to."""

    game: FlipologyGame
    seats: list[SeatState]
    pile: list[int]
    discard: list[Record] = field(default_factory=list)
    phase: str = "deal"
    round: int = 0
    start: int = 0
    current: int = 0
    turn: int = 0
    draws: int = 0
    step: str = "none"
    effect: str = ""
    source: int = -1
    marks: list[int] = field(default_factory=list)
    rain: int = -1
    used: list[int] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    # §8.2 tokens per seat (derived from the history; rebuilt by replay when deserializing).
    tokens: list[list[str]] = field(default_factory=list)
    # Set when a scored round of the Nature variant ended and another follows: the reset happens after the
    # reveal tokens are taken (§8.2 "before a new round ... empties the rows").
    _new_round_pending: bool = False

    def __post_init__(self) -> None:
        if not self.tokens:
            self.tokens = [[] for _ in range(self.game.players)]

    # ----- small helpers -----

    @property
    def n(self) -> int:
        return self.game.players

    def _record_at(self, pos: int) -> Record | None:
        S = self.game.slots
        seat = pos // S
        if not 0 <= pos < S * self.n:
            return None
        return self.seats[seat].row[pos % S]

    def _set_record(self, pos: int, record: Record | None) -> None:
        S = self.game.slots
        self.seats[pos // S].row[pos % S] = record

    def _kind(self, pos: int) -> str:
        record = self._record_at(pos)
        assert record is not None
        return CARDS[record.card].kind

    def _present_positions(self) -> list[int]:
        S = self.game.slots
        return [
            S * seat + slot
            for seat in range(self.n)
            for slot in range(S)
            if self.seats[seat].row[slot] is not None
        ]

    def _row_of(self, pos: int) -> list[int]:
        """The present positions of the row of ``pos`` (§3.2): same seat, and same tier in the Great Tree."""
        S = self.game.slots
        seat = pos // S
        if self.game.great_tree:
            tier = (pos % S) // 5
            slots = range(5 * tier, 5 * tier + 5)
        else:
            slots = range(S)
        return [S * seat + slot for slot in slots if self.seats[seat].row[slot] is not None]

    def _neighbours(self, pos: int, distance: int) -> list[int]:
        """§3.2 ``adjacent`` (distance 1) and ``two_away`` (distance 2): sorted ascending, distinct."""
        n = self.n
        found: set[int] = set()
        if not self.game.great_tree:
            found.add((pos - distance) % (7 * n))
            found.add((pos + distance) % (7 * n))
            return sorted(found)
        seat, slot = divmod(pos, 15)
        tier, column = divmod(slot, 5)
        h = 5 * seat + column
        for delta in (-distance, distance):
            h2 = (h + delta) % (5 * n)
            found.add(15 * (h2 // 5) + 5 * tier + h2 % 5)
        for delta in (-distance, distance):
            tier2 = tier + delta
            if 0 <= tier2 <= 2 and self.seats[seat].row[5 * tier2 + column] is not None:
                found.add(15 * seat + 5 * tier2 + column)
        return sorted(found)

    def _adjacent(self, pos: int) -> list[int]:
        return self._neighbours(pos, 1)

    def _two_away(self, pos: int) -> list[int]:
        return self._neighbours(pos, 2)

    def _current_row_positions(self, seat: int) -> list[int]:
        """The positions a seat may flip on its turn (§4.4): its row (Great Tree: the tier of this round)."""
        S = self.game.slots
        if self.game.great_tree:
            return [S * seat + 5 * self.round + column for column in range(5)]
        return [S * seat + slot for slot in range(S)]

    def _face_up_kinds(self) -> set[str]:
        kinds = set()
        for pos in self._present_positions():
            record = self._record_at(pos)
            assert record is not None
            if record.up:
                kinds.add(CARDS[record.card].kind)
        return kinds

    def _face_down_positions(self) -> list[int]:
        down = []
        for pos in self._present_positions():
            record = self._record_at(pos)
            assert record is not None
            if not record.up:
                down.append(pos)
        return down

    # ----- whose move (§4.1) -----

    def current_player(self) -> int:
        if self.phase == "over":
            return TERMINAL
        if self.phase in ("deal", "redeal"):
            return CHANCE
        return self.current

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    # ----- chance -----

    def chance_weights(self) -> list[tuple[int, int]]:
        """Each card id left in the pile, weighted by its count; empty when not a chance node."""
        if not self.is_chance_node():
            return []
        return [(card, self.pile[card]) for card in range(NUM_DEALABLE) if self.pile[card] > 0]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        weights = self.chance_weights()
        total = sum(weight for _, weight in weights)
        return [(action, weight / total) for action, weight in weights]

    def random_step(self, rng: RngLike) -> int:
        """DESIGN's random step with ``rng`` (either engine's Rng), applied; returns the action taken."""
        return random_step(self, rng)

    # ----- legal actions (§5.4) -----

    def legal_actions(self) -> list[int]:
        player = self.current_player()
        if player == TERMINAL:
            return []
        if player == CHANCE:
            return [card for card, _ in self.chance_weights()]
        return sorted(set(self._decision_actions()))

    def legal_actions_mask(self) -> np.ndarray:
        size = MAX_CHANCE_OUTCOMES if self.is_chance_node() else NUM_DISTINCT_ACTIONS
        mask = np.zeros(size, dtype=np.int8)
        for action in self.legal_actions():
            mask[action] = 1
        return mask

    def _mimic_options(self) -> list[int]:
        kinds = self._face_up_kinds()
        return [k for k, kind in enumerate(MIMIC_KINDS) if kind in kinds]

    def _targets(self) -> list[int]:
        """Legal positions at step ``target`` for the pending effect (§5.4)."""
        src = self.source
        if self.effect == "Dog":
            return self._adjacent(src)
        if self.effect == "Snake":
            return [q for q in self._row_of(src) if q != src]
        if self.effect == "Frog":
            return self._two_away(src)
        if self.effect == "Hawk":
            return self._hawk_targets(src)
        if self.effect == "Mole":
            return [q for q in self._present_positions() if q != src]
        if self.effect == "Hunter":
            return self._present_positions()
        raise AssertionError(self.effect)  # pragma: no cover

    def _hawk_targets(self, src: int) -> list[int]:
        """Interp. 13: outside the Hawk's row ("can never be used on a card in the row it has come from")
        and, in Nature, outside the active seat's row ("a card in an opponent's row"; only "If playing the
        Great Tree variant, you can play the hawk on yourself")."""
        excluded = set(self._row_of(src))
        if not self.game.great_tree:
            excluded |= set(self._current_row_positions(self.current))
        return [q for q in self._present_positions() if q not in excluded]

    def _decision_actions(self) -> list[int]:
        seat = self.seats[self.current]
        if self.phase == "regrow":
            return [KEEP, REGROW]
        if self.phase == "arrange":
            return [PLACE + card for card in sorted({r.card for r in seat.hand})]
        assert self.phase == "play"
        if self.step == "flip":
            return self._current_row_positions(self.current)
        if self.step == "target":
            return self._targets()
        if self.step == "monkey":
            adjacent = self._adjacent(self.source)
            if not self.marks:
                return adjacent[:-1]
            return [q for q in adjacent if q > self.marks[0]]
        if self.step == "choose":
            return list(self.marks)
        if self.step == "mimic":
            return [MIMIC + k for k in self._mimic_options()]
        if self.step == "peek":
            return [q for q in self._face_down_positions() if q not in self.marks]
        if self.step == "sunflip":
            return sorted(self.marks) + [PASS]
        if self.step == "rain":
            S = self.game.slots
            return [S * self.rain + slot for slot in range(S) if self.seats[self.rain].row[slot] is not None]
        raise AssertionError(self.step)  # pragma: no cover

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
        actor = self.current
        is_place = self.phase == "arrange"
        before = self._knowledge_snapshot()
        if player == CHANCE:
            self._apply_chance(value)
        else:
            self._apply_decision(value)
        self.actions.append(value)
        self._append_tokens(value, player, actor, is_place, before)
        if self._new_round_pending:
            self._new_round_pending = False
            self._start_nature_round()

    # §4.2 deal / redeal

    def _apply_chance(self, card: int) -> None:
        seat = self.seats[self.current]
        self.pile[card] -= 1
        seat.hand.append(Record(card, self.draws, 1 << self.current))
        self.draws += 1
        if self.phase == "deal":
            nxt = self._first_in_order(lambda s: len(self.seats[s].hand) < self.game.hand_size)
            if nxt is not None:
                self.current = nxt
                return
            if self.game.great_tree:
                eligible = self._first_in_order(lambda s: self.seats[s].regrown == -1)
                if eligible is not None:
                    self.phase = "regrow"
                    self.current = eligible
                    return
            self._begin_arrange()
        else:  # redeal
            nxt = self._first_in_order(
                lambda s: self.seats[s].regrown == self.round and len(self.seats[s].hand) < 5
            )
            if nxt is not None:
                self.current = nxt
                return
            self._begin_arrange()

    def _first_in_order(self, wanted: Callable[[int], bool], after: int | None = None) -> int | None:
        """The first seat in the order start, start+1, ... (or the seats after ``after`` in that order) that
        satisfies ``wanted``."""
        order = [(self.start + k) % self.n for k in range(self.n)]
        if after is not None:
            order = order[order.index(after) + 1 :]
        for seat in order:
            if wanted(seat):
                return seat
        return None

    def _begin_arrange(self) -> None:
        self.phase = "arrange"
        self.current = self.start

    def _apply_decision(self, action: int) -> None:
        if self.phase == "regrow":
            self._regrow_decision(action)
        elif self.phase == "arrange":
            self._place(action - PLACE)
        else:
            self._play_decision(action)

    def _regrow_decision(self, action: int) -> None:
        """§4.2 regrow, interp. 30: decisions in order, then all given-back hands return, then the redeal."""
        if action == REGROW:
            self.seats[self.current].regrown = self.round
        nxt = self._first_in_order(lambda s: self.seats[s].regrown == -1, after=self.current)
        if nxt is not None:
            self.current = nxt
            return
        regrowers = [
            s
            for s in ((self.start + k) % self.n for k in range(self.n))
            if self.seats[s].regrown == self.round
        ]
        if not regrowers:
            self._begin_arrange()
            return
        for s in regrowers:
            seat = self.seats[s]
            for record in seat.hand:
                self.pile[record.card] += 1
            seat.returned = sorted(seat.hand, key=lambda r: r.draw)
            seat.hand = []
        self.phase = "redeal"
        self.current = regrowers[0]

    def _place(self, card: int) -> None:
        """§4.2 arrange: the hand record of that identity with the lowest draw number goes face down into the
        first empty slot of the row being built."""
        seat = self.seats[self.current]
        record = min((r for r in seat.hand if r.card == card), key=lambda r: r.draw)
        seat.hand.remove(record)
        record.up = 0
        first = 5 * self.round if self.game.great_tree else 0
        slots = range(first, first + self.game.row_size)
        empty = [slot for slot in slots if seat.row[slot] is None]
        seat.row[empty[0]] = record
        if len(empty) > 1:
            return
        # The row is full: Nature's leftovers go to the discard pile, in draw order (interp. 21).
        for leftover in sorted(seat.hand, key=lambda r: r.draw):
            self.discard.append(leftover)
        seat.hand = []
        self.current = (self.current + 1) % self.n
        if self.current == self.start:
            self.phase = "play"
            self.step = "flip"
            self.turn = 0

    # §4.4, §5 play

    def _play_decision(self, action: int) -> None:
        step = self.step
        if step == "flip":
            turned_up = self._flip(action, by_effect=False)
            if turned_up and self._kind(action) in ACTIVE_KINDS:
                self._trigger(action)
            else:
                self._end_turn()
        elif step == "target":
            if self.effect in FLIPPING_KINDS:
                turned_up = self._flip(action, by_effect=True)
                self._continue(action, turned_up)
            elif self.effect == "Mole":
                self._swap(self.source, action)
                self._end_turn()
            elif self.effect == "Hunter":
                self._remove(action)
                self._end_turn()
            else:  # pragma: no cover
                raise AssertionError(self.effect)
        elif step == "monkey":
            if not self.marks:
                self.marks = [action]
            else:
                self._monkey_flip(self.marks[0], action)
        elif step == "choose":
            self.marks = []
            self._trigger(action)
        elif step == "mimic":
            kind = MIMIC_KINDS[action - MIMIC]
            self.effect = kind
            self.marks = []
            self._start(kind, self.source)
        elif step == "peek":
            self.marks.append(action)
            record = self._record_at(action)
            assert record is not None
            record.known |= 1 << self.current
            others = [q for q in self._face_down_positions() if q not in self.marks]
            if len(self.marks) == 3 or not others:
                self.step = "sunflip"
        elif step == "sunflip":
            if action != PASS:
                self._flip(action, by_effect=True)  # face down -> face up, nothing triggers (§5.3)
            self._end_turn()
        elif step == "rain":
            self._flip(action, by_effect=True)  # nothing triggers
            self.rain = (self.rain + 1) % self.n
            if self.rain == self.current:
                self._end_turn()
        else:  # pragma: no cover
            raise AssertionError(step)

    def _flip(self, pos: int, by_effect: bool) -> bool:
        """§5.2: turn the card over; True when it turned face up. A face-up Cat resists effects."""
        record = self._record_at(pos)
        assert record is not None
        if record.up:
            if by_effect and CARDS[record.card].kind == "Cat":
                return False
            record.up = 0
            return False
        record.up = 1
        record.known = self.game.all_seats
        return True

    def _turn_up(self, pos: int) -> bool:
        """The Monkey's flip: face down -> face up (True); a face-up card is left as it is (False)."""
        record = self._record_at(pos)
        assert record is not None
        return not record.up and self._flip(pos, by_effect=True)

    def _triggers(self, pos: int, turned_up: bool) -> bool:
        """§5.3: just turned face up, an active kind, and not yet used this turn (interp. 8)."""
        return turned_up and self._kind(pos) in ACTIVE_KINDS and pos not in self.used

    def _continue(self, pos: int, turned_up: bool) -> None:
        if self._triggers(pos, turned_up):
            self._trigger(pos)
        else:
            self._end_turn()

    def _trigger(self, pos: int) -> None:
        self.used = sorted(set(self.used) | {pos})
        self._start(self._kind(pos), pos)

    def _set_pending(self, step: str, effect: str, source: int) -> None:
        self.step = step
        self.effect = effect
        self.source = source
        self.marks = []
        self.rain = -1

    def _start(self, kind: str, pos: int) -> None:
        """§5.3 the table "start": begin the effect of ``kind`` acting from ``pos``."""
        if kind == "Hawk" and not self._hawk_targets(pos):
            self._end_turn()  # interp. 7: a Hawk with no card in an opponent's row to flip does nothing
        elif kind in ("Dog", "Snake", "Frog", "Hawk", "Mole", "Hunter"):
            self._set_pending("target", kind, pos)
        elif kind == "Monkey":
            adjacent = self._adjacent(pos)
            if len(adjacent) == 2:
                self._set_pending("monkey", "Monkey", pos)
                self._monkey_flip(adjacent[0], adjacent[1])
            else:
                self._set_pending("monkey", "Monkey", pos)
        elif kind == "Parrot":
            if not self._mimic_options():
                self._end_turn()  # interp. 7: nothing to mimic
            else:
                self._set_pending("mimic", "Parrot", pos)
        elif kind == "Sun":
            if not self._face_down_positions():
                self._end_turn()
            else:
                self._set_pending("peek", "Sun", pos)
        elif kind == "Wind":
            for q in self._row_of(pos):
                if q != pos:
                    self._flip(q, by_effect=True)
            self._end_turn()
        elif kind == "Rain":
            self._set_pending("rain", "Rain", pos)
            self.rain = self.current
        else:  # pragma: no cover - passive kinds never start
            raise AssertionError(kind)

    def _monkey_flip(self, a: int, b: int) -> None:
        """Turn a then b face up by effect, then resolve the Monkey (§5.4). The Monkey "flips two cards
        faceup": a card already face up stays face up."""
        up_a = self._turn_up(a)
        up_b = self._turn_up(b)
        candidates = [q for q, up in ((a, up_a), (b, up_b)) if self._triggers(q, up)]
        if not candidates:
            self._end_turn()
        elif len(candidates) == 1:
            self._trigger(candidates[0])
        else:
            self.step = "choose"
            self.marks = [a, b]

    def _swap(self, a: int, b: int) -> None:
        """Mole: swap the two records, each keeping its facing; a seat receiving a face-down card knows it."""
        S = self.game.slots
        record_a, record_b = self._record_at(a), self._record_at(b)
        assert record_a is not None and record_b is not None
        self._set_record(a, record_b)
        self._set_record(b, record_a)
        for pos, record in ((a, record_b), (b, record_a)):
            if not record.up:
                record.known |= 1 << (pos // S)

    def _remove(self, pos: int) -> None:
        """Hunter: the record goes to the discard pile (a Clearing just leaves); a face-up Clearing comes."""
        record = self._record_at(pos)
        assert record is not None
        if record.card != CLEARING:
            self.discard.append(record)
        self._set_record(pos, Record(CLEARING, -1, self.game.all_seats, 1))

    def _end_turn(self) -> None:
        """§4.4 the end of a turn."""
        self.used = []
        self.step = "flip"
        self.effect = ""
        self.source = -1
        self.marks = []
        self.rain = -1
        self.turn += 1
        if self.turn == self.game.turns * self.n:
            self._end_round()
        else:
            self.current = (self.current + 1) % self.n

    # §6 the end of a round

    def row_score(self, seat: int) -> int:
        score = 0
        for record in self.seats[seat].row:
            if record is None:
                continue
            card = CARDS[record.card]
            if card.kind == "Sloth":
                score += -card.value if record.up else card.value
            elif record.up:
                score += card.value
        return score

    def showing(self, seat: int) -> int:
        score = 0
        for record in self.seats[seat].row:
            if record is not None and record.up:
                card = CARDS[record.card]
                score += -card.value if card.kind == "Sloth" else card.value
        return score

    def types(self, seat: int) -> int:
        return len(
            {
                record.card
                for record in self.seats[seat].row
                if record is not None and record.up and CARDS[record.card].kind in ANIMAL_KINDS
            }
        )

    def _end_round(self) -> None:
        variant = self.game.variant
        scored = variant != GREAT_TREE or self.round == 2
        if scored:
            for seat in self.seats:
                for record in seat.row:
                    if record is not None:
                        record.known = self.game.all_seats
            for s in range(self.n):
                self.seats[s].total += self.row_score(s)
        if variant == NATURE:
            self._game_over()
        elif variant == NATURE_VARIANT:
            totals = [seat.total for seat in self.seats]
            if max(totals) >= self.game.params["target"] or self.round == self.game.params["max_rounds"] - 1:
                self._game_over()
            else:
                self._new_round_pending = True  # the reset waits for the reveal tokens (§8.2)
        else:
            if self.round < 2:
                self._start_great_tree_round()
            else:
                self._game_over()

    def _start_nature_round(self) -> None:
        """§6 Nature variant: a fresh deal of the whole deck; the start seat moves one seat clockwise."""
        self.round += 1
        self.start = (self.start + 1) % self.n
        self.pile = list(self.game.deck)
        for seat in self.seats:
            seat.hand = []
            seat.row = [None] * self.game.slots
        self.discard = []
        self.used = []
        self.turn = 0
        self.phase = "deal"
        self.step = "none"
        self.current = self.start

    def _start_great_tree_round(self) -> None:
        """§6 Great Tree: the start seat by the highest showing score (interp. 29); deal the next tier."""
        showing = [self.showing(s) for s in range(self.n)]
        best = max(showing)
        if showing[self.start] != best:
            for k in range(1, self.n):
                seat = (self.start + k) % self.n
                if showing[seat] == best:
                    self.start = seat
                    break
        self.round += 1
        self.turn = 0
        self.phase = "deal"
        self.step = "none"
        self.current = self.start

    def _game_over(self) -> None:
        self.phase = "over"
        self.step = "none"
        self.effect = ""
        self.source = -1
        self.marks = []
        self.rain = -1
        self.used = []
        totals = [seat.total for seat in self.seats]
        moon_up = any(
            record is not None and record.up and record.card == MOON
            for seat in self.seats
            for record in seat.row
        )
        best = min(totals) if moon_up else max(totals)
        candidates = [s for s in range(self.n) if totals[s] == best]
        if len(candidates) > 1:
            most = max(self.types(s) for s in candidates)
            candidates = [s for s in candidates if self.types(s) == most]
        self.winners = candidates

    # ----- results -----

    def returns(self) -> list[float]:
        """§6: the winners split 1.0; all zeros before the end."""
        if self.phase != "over":
            return [0.0] * self.n
        share = 1.0 / len(self.winners)
        return [share if s in self.winners else 0.0 for s in range(self.n)]

    def scores(self) -> list[float]:
        """§6: while the game goes on, what the table can see: the banked totals plus ``showing`` (face-up
        cards only; face-down cards never count before the end). The totals once it is over."""
        if self.phase == "over":
            return [float(seat.total) for seat in self.seats]
        return [float(self.seats[s].total + self.showing(s)) for s in range(self.n)]

    def history(self) -> list[int]:
        return list(self.actions)

    def clone(self) -> FlipologyState:
        return FlipologyState(
            game=self.game,
            seats=[seat.copy() for seat in self.seats],
            pile=list(self.pile),
            discard=[r.copy() for r in self.discard],
            phase=self.phase,
            round=self.round,
            start=self.start,
            current=self.current,
            turn=self.turn,
            draws=self.draws,
            step=self.step,
            effect=self.effect,
            source=self.source,
            marks=list(self.marks),
            rain=self.rain,
            used=list(self.used),
            winners=list(self.winners),
            actions=list(self.actions),
            tokens=[list(t) for t in self.tokens],
        )

    # ----- §8.2 information state tokens -----

    def _all_records(self) -> list[Record]:
        records = [r for seat in self.seats for r in seat.hand]
        records += [r for seat in self.seats for r in seat.row if r is not None and r.card != CLEARING]
        records += list(self.discard)
        return records

    def _knowledge_snapshot(self) -> dict[int, int]:
        """draw number -> known mask of every record in play or held, before an action."""
        return {r.draw: r.known for r in self._all_records()}

    def _append_tokens(
        self, action: int, player: int, actor: int, is_place: bool, before: dict[int, int]
    ) -> None:
        S = self.game.slots
        # Row records whose known mask grew in this action (by position), and the seats that learned them.
        gains: list[tuple[int, int, int]] = []
        for seat in range(self.n):
            for slot, record in enumerate(self.seats[seat].row):
                if record is None or record.card == CLEARING:
                    continue
                gained = record.known & ~before.get(record.draw, 0)
                if gained:
                    gains.append((S * seat + slot, record.card, gained))
        for p in range(self.n):
            if player == CHANCE:
                base = str(action) if actor == p else "?"
            elif is_place and actor != p:
                base = "?"
            else:
                base = str(action)
            learned = "".join(f"/{pos}:{card}" for pos, card, gained in gains if gained >> p & 1)
            self.tokens[p].append(base + learned)

    # ----- resampling (§9) -----

    def _redeal_first_draw(self, round_: int) -> int:
        """``t_r``: the draw number of the first card of round r's redeal (Great Tree)."""
        n = self.n
        earlier = sum(1 for seat in self.seats if 0 <= seat.regrown < round_)
        return 5 * n * (round_ + 1) + 5 * earlier

    def resample_from_infostate(self, player: object, rng: object = None) -> FlipologyState:
        """§9: a state consistent with all that seat ``player`` knows, drawn with the right probabilities."""
        p = self._check_seat(player)
        if rng is None or not _is_rng(rng):
            raise InvalidStateError(f"{GAME_NAME}: resample_from_infostate needs an Rng")
        bit = 1 << p
        live = self._all_records()
        known = [r for r in live if r.known & bit]
        unknown = sorted((r for r in live if not r.known & bit), key=lambda r: r.draw)
        counts = list(self.game.deck)
        for r in known:
            counts[r.card] -= 1
        pool = [card for card in range(NUM_DEALABLE) for _ in range(counts[card])]
        pile_slots = sum(self.pile)
        assert len(pool) == len(unknown) + pile_slots
        slots = len(pool)

        # Step 3: the Regrowth constraint (p's own returned hand).
        own = self.seats[p].returned
        constrained = bool(own)
        if constrained:
            t = self._redeal_first_draw(self.seats[p].regrown)
            s_slot = [r.draw >= t for r in unknown] + [True] * pile_slots
            s_count = sum(s_slot)
            h = [0] * NUM_DEALABLE
            for r in own:
                h[r.card] += 1
            k_s = [0] * NUM_DEALABLE
            for r in known:
                if r.draw >= t:
                    k_s[r.card] += 1
            den = 1
            for c in range(NUM_DEALABLE):
                if h[c]:
                    den *= comb(k_s[c] + min(counts[c], s_count), h[c])

        # Step 4: shuffle until accepted.
        while True:
            assignment = list(pool)
            for i in range(slots - 1, 0, -1):
                j = rng.below(i + 1)
                assignment[i], assignment[j] = assignment[j], assignment[i]
            if not constrained:
                break
            s_c = list(k_s)
            for k, card in enumerate(assignment):
                if s_slot[k]:
                    s_c[card] += 1
            num = 1
            for c in range(NUM_DEALABLE):
                if h[c]:
                    num *= comb(s_c[c], h[c])
            if rng.below(den) < num:
                break

        new_identity: dict[int, int] = {}
        for record, card in zip(unknown, assignment[: len(unknown)], strict=True):
            new_identity[record.draw] = card
        pile_cards = assignment[len(unknown) :]

        # Step 5: the other seats' returned hands.
        if self.game.great_tree:
            for round_ in range(3):
                # Seats that gave a hand back in this round (a `regrow` decision returns it only at the end).
                returners = [q for q in range(self.n) if q != p and self.seats[q].regrown == round_]
                returners = [q for q in returners if self.seats[q].returned]
                if not returners:
                    continue
                t_r = self._redeal_first_draw(round_)
                avail = [0] * NUM_DEALABLE
                for r in live:
                    if r.draw >= t_r:
                        avail[new_identity.get(r.draw, r.card)] += 1
                for card in pile_cards:
                    avail[card] += 1
                if self.seats[p].regrown == round_:
                    for r in own:
                        avail[r.card] -= 1
                for q in returners:
                    drawn = []
                    for _ in range(5):
                        x = rng.below(sum(avail))
                        running = 0
                        for card in range(NUM_DEALABLE):
                            running += avail[card]
                            if running > x:
                                break
                        avail[card] -= 1
                        drawn.append(card)
                    returned = sorted(self.seats[q].returned, key=lambda r: r.draw)
                    for record, card in zip(returned, drawn, strict=True):
                        new_identity[record.draw] = card

        # Step 6: rewrite the history by replaying it, and replay the new history.
        original = self.game.new_initial_state()
        rewritten = self.game.new_initial_state()
        for action in self.actions:
            new_action = action
            if original.is_chance_node():
                new_action = new_identity.get(original.draws, action)
            elif original.phase == "arrange" and original.current != p:
                hand = original.seats[original.current].hand
                record = min((r for r in hand if r.card == action - PLACE), key=lambda r: r.draw)
                if record.draw in new_identity:
                    new_action = PLACE + new_identity[record.draw]
            original.apply_action(action)
            rewritten.apply_action(new_action)
        return rewritten

    # ----- notation (§7) -----

    def _verb(self) -> str:
        if self.step == "target" and self.effect == "Mole":
            return "swap"
        if self.step == "target" and self.effect == "Hunter":
            return "remove"
        if self.step == "choose":
            return "use"
        if self.step == "peek":
            return "peek"
        return "flip"

    def action_to_string(self, action: object) -> str:
        value = _as_int(action)
        if self.is_chance_node():
            if value is None or not 0 <= value < MAX_CHANCE_OUTCOMES:
                raise IllegalActionError(
                    f"{GAME_NAME}: chance outcome {action!r} is out of range 0..{MAX_CHANCE_OUTCOMES - 1} "
                    f"(seat {CHANCE}, chance)"
                )
            return f"deal {CARD_NAMES[value]}"
        if value is None or not 0 <= value < NUM_DISTINCT_ACTIONS:
            raise IllegalActionError(
                f"{GAME_NAME}: action {action!r} is out of range 0..{NUM_DISTINCT_ACTIONS - 1} "
                f"(seat {self.current_player()})"
            )
        if value < NUM_POSITIONS:
            return f"{self._verb()} {self.game.position_text(value)}"
        if value < MIMIC:
            return f"place {CARD_NAMES[value - PLACE]}"
        if value < KEEP:
            return f"mimic {MIMIC_KINDS[value - MIMIC]}"
        return {KEEP: "keep", REGROW: "regrow", PASS: "pass"}[value]

    def string_to_action(self, text: object) -> int:
        """Relaxed parsing (§7); legality is not checked."""
        if not isinstance(text, str):
            raise InvalidNotationError(
                f"{GAME_NAME}: an action text must be a str, not {type(text).__name__}"
            )
        key = _normalize_text(text)
        if self.is_chance_node():
            name = key[len("deal ") :] if key.startswith("deal ") else key
            for card in range(NUM_DEALABLE):
                if _normalize_text(CARD_NAMES[card]) == name:
                    return card
            raise InvalidNotationError(f"{GAME_NAME}: cannot parse chance outcome {text!r}")
        simple = {"keep": KEEP, "regrow": REGROW, "pass": PASS}
        if key in simple:
            return simple[key]
        if key.startswith("place "):
            name = key[len("place ") :]
            for card in range(NUM_DEALABLE):
                if _normalize_text(CARD_NAMES[card]) == name:
                    return PLACE + card
        elif key.startswith("mimic "):
            name = key[len("mimic ") :]
            for k, kind in enumerate(MIMIC_KINDS):
                if kind.lower() == name:
                    return MIMIC + k
        else:
            words = key.split(" ")
            if len(words) == 2 and words[0] in POSITION_VERBS:
                words = words[1:]
            if len(words) == 1:
                pos = self.game.parse_position(words[0])
                if pos is not None:
                    return pos
        raise InvalidNotationError(f"{GAME_NAME}: cannot parse action {text!r}")

    # ----- observations (§8) -----

    def _check_seat(self, player: object) -> int:
        value = _as_int(player)
        if value is None or not 0 <= value < self.n:
            raise InvalidStateError(f"seat {player!r} out of range 0..{self.n - 1}")
        return value

    def _knows(self, record: Record, p: int) -> bool:
        return bool(record.up) or bool(record.known >> p & 1)

    def observation_tensor(self, player: object) -> np.ndarray:
        p = self._check_seat(player)
        n, S = self.n, self.game.slots
        relative = [(p + k) % n for k in range(n)]
        values: list[float] = []
        # 1. positions
        for seat in relative:
            for slot in range(S):
                pos = S * seat + slot
                record = self.seats[seat].row[slot]
                block = [0.0] * 36
                if record is not None:
                    block[0] = 1.0
                    block[1] = float(record.up)
                    if self._knows(record, p):
                        block[2 + record.card] = 1.0
                block[33] = float(pos in self.used)
                block[34] = float(pos == self.source)
                block[35] = float(pos in self.marks)
                values.extend(block)
        # 2. own hand
        hand = [0] * NUM_CARD_IDS
        for record in self.seats[p].hand:
            hand[record.card] += 1
        values.extend(hand)
        # 3. hand sizes
        values.extend(len(self.seats[seat].hand) for seat in relative)
        # 4. known discards, 5. discard size, pile size
        known_discard = [0] * NUM_CARD_IDS
        for record in self.discard:
            if record.known >> p & 1:
                known_discard[record.card] += 1
        values.extend(known_discard)
        values.append(len(self.discard))
        values.append(sum(self.pile))
        # 6. per seat
        for seat in relative:
            values.extend([self.seats[seat].total, self.showing(seat), int(self.seats[seat].regrown >= 0)])
        # 7. current seat, 8. start seat
        values.extend(int(self.phase != "over" and seat == self.current) for seat in relative)
        values.extend(int(seat == self.start) for seat in relative)
        # 9. phase, 10. step, 11. effect, 12. rain seat
        values.extend(int(self.phase == phase) for phase in PHASES)
        values.extend(int(self.step == step) for step in STEPS[1:])
        values.extend(int(self.effect == effect) for effect in OBS_EFFECTS)
        values.extend(int(seat == self.rain) for seat in relative)
        # 13. round, turn
        values.extend([self.round, self.turn])
        tensor = np.asarray(values, dtype=np.float32)
        assert tensor.shape == self.game.observation_shape()
        return tensor

    def _card_text(self, record: Record | None, p: int) -> str:
        if record is None:
            return "  .  "
        name = CARD_NAMES[record.card]
        if record.up:
            return f"[{name}]"
        if record.known >> p & 1:
            return f"({name})"
        return "??"

    def observation_string(self, player: object) -> str:
        p = self._check_seat(player)
        n, S = self.n, self.game.slots
        variant = ("Nature", "Nature variant", "Great Tree")[self.game.variant]
        lines = [
            f"Flipology ({variant}), seen by seat {p}: round {self.round}, phase {self.phase}, "
            f"turn {self.turn}",
            f"start seat {self.start}, current seat {self.current}, pile {sum(self.pile)}, "
            f"discard {len(self.discard)}",
        ]
        for seat in range(n):
            state = self.seats[seat]
            head = f"seat {seat}: total {state.total}, showing {self.showing(seat)}"
            if self.game.great_tree:
                head += ", regrowth used" if state.regrown >= 0 else ", regrowth available"
            lines.append(head + f", hand {len(state.hand)}")
            tiers = 3 if self.game.great_tree else 1
            width = 5 if self.game.great_tree else S
            for tier in reversed(range(tiers)):
                cells = [self._card_text(state.row[width * tier + c], p) for c in range(width)]
                label = f"  tier {tier}: " if self.game.great_tree else "  row: "
                lines.append(label + " ".join(cells))
        own = sorted(CARD_NAMES[r.card] for r in self.seats[p].hand)
        if own:
            lines.append("your hand: " + ", ".join(own))
        known = sorted(CARD_NAMES[r.card] for r in self.discard if r.known >> p & 1)
        if known:
            lines.append("discards you know: " + ", ".join(known))
        if self.phase == "play":
            pending = f"step {self.step}"
            if self.effect:
                pending += f", effect {self.effect} from {self.game.position_text(self.source)}"
            if self.marks:
                pending += ", marked " + " ".join(self.game.position_text(q) for q in self.marks)
            if self.rain >= 0:
                pending += f", rain on seat {self.rain}'s row"
            lines.append(pending)
        if self.phase == "over":
            lines.append("winners: " + ", ".join(f"seat {s}" for s in self.winners))
        return "\n".join(lines)

    def information_state_string(self, player: object) -> str:
        """§8.2: ``seat=<p> history=<tokens>``, a perfect-recall account of what seat p has observed."""
        p = self._check_seat(player)
        return f"seat={p} history=" + ",".join(self.tokens[p])

    # ----- serialization (§10) -----

    def to_json_object(self) -> dict[str, object]:
        def row_entry(record: Record | None) -> list[int] | None:
            return None if record is None else [record.card, record.draw, record.known, record.up]

        return {
            "current": self.current,
            "discard": [[r.card, r.draw, r.known] for r in self.discard],
            "draws": self.draws,
            "effect": self.effect,
            "game": GAME_NAME,
            "history": list(self.actions),
            "marks": list(self.marks),
            "params": self.game.params,
            "phase": self.phase,
            "pile": list(self.pile),
            "rain": self.rain,
            "round": self.round,
            "seats": [
                {
                    "hand": [[r.card, r.draw] for r in seat.hand],
                    "regrown": seat.regrown,
                    "returned": [[r.card, r.draw] for r in seat.returned],
                    "row": [row_entry(r) for r in seat.row],
                    "total": seat.total,
                }
                for seat in self.seats
            ],
            "source": self.source,
            "start": self.start,
            "step": self.step,
            "turn": self.turn,
            "used": list(self.used),
            "version": SERIAL_VERSION,
            "winners": list(self.winners),
        }

    def serialize(self) -> str:
        return json.dumps(self.to_json_object(), sort_keys=True, separators=(",", ":"))

    # ----- display -----

    def __str__(self) -> str:
        return f"[{_player_label(self.current_player())}] " + self.observation_string(self.current)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FlipologyState) and other.serialize() == self.serialize()

    __hash__ = None  # type: ignore[assignment]  # mutable, so unhashable: typeshed's idiom, no other spelling


def _player_label(player: int) -> str:
    if player == CHANCE:
        return "chance"
    if player == TERMINAL:
        return "terminal"
    return f"seat {player}"


# ---------------------------------------------------------------------------------------------------------
# Deserialization (§10): replay the history, compare every field
# ---------------------------------------------------------------------------------------------------------


def _bad(message: str) -> InvalidStateError:
    return InvalidStateError(f"{GAME_NAME}: bad serialized state: {message}")


_no_duplicate_keys = no_duplicate_keys(f"{GAME_NAME}: bad serialized state: ")


def _deserialize(game: FlipologyGame, text: object) -> FlipologyState:
    if not isinstance(text, str):
        raise InvalidStateError(f"{GAME_NAME}: a serialized state must be a str, not {type(text).__name__}")
    try:
        obj = json.loads(text, object_pairs_hook=_no_duplicate_keys)
    except InvalidStateError:
        raise
    except Exception as error:  # JSONDecodeError, huge int literals, deep nesting, ...
        raise _bad(f"not valid JSON ({type(error).__name__})") from None
    if not isinstance(obj, dict):
        raise _bad("not a JSON object")
    if obj.get("game") != GAME_NAME:
        raise _bad(f"game {obj.get('game')!r} is not {GAME_NAME!r}")
    version = obj.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version != SERIAL_VERSION:
        raise _bad(f"version {version!r} is not {SERIAL_VERSION}")
    if not same_params(obj.get("params"), game.params):
        raise _bad(f"params {obj.get('params')!r} differ from the game's {game.params!r}")
    history = obj.get("history")
    if not isinstance(history, list):
        raise _bad("history must be a list")
    if len(history) > game.max_game_length():
        raise _bad("history longer than max_game_length()")
    state = game.new_initial_state()
    for index, action in enumerate(history):
        if isinstance(action, bool) or not isinstance(action, int):
            raise _bad(f"history holds {action!r}, not an action id")
        try:
            state.apply_action(action)
        except IllegalActionError:
            raise _bad(f"history action {index} ({action}) is not legal there") from None
    try:
        given = json.dumps(obj, sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError):  # pragma: no cover - json.loads output always dumps
        raise _bad("unserializable content") from None
    if given != state.serialize():
        raise _bad("its fields are not what its history produces")
    return state


__all__ = [
    "CARDS",
    "CARD_NAMES",
    "Card",
    "FlipologyGame",
    "FlipologyState",
    "MIMIC_KINDS",
    "Record",
    "SeatState",
]
