"""Nidavellir: the pure-Python reference implementation of ``nidavellir`` (2 to 5 players).

Written from the rulebook (``borisyankov/rulespal data/rulebooks/nidavellir-rulebook.md``), the game-help page
(``shared/rules/bga_nidavellir.txt``) and the contract ``docs/rules/nidavellir.md`` (cited "§n" for its
sections and "interp. n" for its interpretations). The components are read from
``meeplex/data/nidavellir.json``.

Plain and slow on purpose: piles are lists of counts, columns are lists of entries, and every effect waits in
one ordered queue (§5.4) that ``_settle`` runs until a decision is needed.

With ``thingvellir=true`` it also plays the expansion by ``docs/rules/thingvellir.md`` (cited "TV §n", its
interpretations "Tn"): the camp and its 24 cards, the six heroes, the enlistment. Everything it adds is
guarded by ``game.thingvellir``, so the base game's ids, fields, tensor and texts are unchanged. The places
where the contract leaves a detail open are marked ``READING``.
"""

from __future__ import annotations

import json
import operator
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

GAME_NAME = "nidavellir"
SERIAL_VERSION = 1

CHANCE = -1
TERMINAL = -4

# ---------------------------------------------------------------------------------------------------------
# §2 Components, from the data file
# ---------------------------------------------------------------------------------------------------------


def _load_data() -> dict[str, Any]:
    text = importlib_resources.files("meeplex").joinpath("data/nidavellir.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


_DATA = _load_data()

CLASS_KEYS: tuple[str, ...] = tuple(_DATA["classes"])  # blacksmith hunter explorer miner warrior
BLACKSMITH, HUNTER, EXPLORER, MINER, WARRIOR = range(5)
NUM_CLASSES = 5

KIND_KEYS: tuple[str, ...] = tuple(kind["key"] for kind in _DATA["kinds"])
NUM_KINDS = len(KIND_KEYS)  # 23
NUM_DWARF_KINDS = 21  # kinds 0..20 are Dwarf cards
KIND_CLASS: tuple[int, ...] = tuple(
    CLASS_KEYS.index(kind["class"]) if kind["class"] is not None else -1 for kind in _DATA["kinds"]
)
KIND_POINTS: tuple[int, ...] = tuple(kind["points"] or 0 for kind in _DATA["kinds"])
KIND_OFFERING: tuple[int, ...] = tuple(kind["offering"] or 0 for kind in _DATA["kinds"])

COIN_KEYS: tuple[str, ...] = tuple(coin["key"] for coin in _DATA["coins"])
NUM_COINS = len(COIN_KEYS)  # 27
COIN_VALUE: tuple[int, ...] = tuple(coin["value"] for coin in _DATA["coins"])
B0 = COIN_KEYS.index("b0")
S3 = COIN_KEYS.index("s3")
TRADING_COINS = (B0, S3)
FIRST_TREASURE_CODE = COIN_KEYS.index("t5")  # code = value + 1
TREASURE_LOW, TREASURE_HIGH = 5, 25
NUM_TREASURE_VALUES = TREASURE_HIGH - TREASURE_LOW + 1  # 21
PLAYER_COINS: tuple[int, ...] = tuple(COIN_KEYS.index(key) for key in _DATA["player_coins"])

HERO_KEYS: tuple[str, ...] = tuple(hero["key"] for hero in _DATA["heroes"])
NUM_HEROES = len(HERO_KEYS)  # 17
HERO_CLASS: tuple[int, ...] = tuple(
    CLASS_KEYS.index(hero["class"]) if hero["class"] is not None else -1 for hero in _DATA["heroes"]
)
HERO_RANKS: tuple[tuple[int, ...], ...] = tuple(tuple(hero["ranks"]) for hero in _DATA["heroes"])
HERO_COPIES: tuple[int, ...] = tuple(hero["copies"] for hero in _DATA["heroes"])
HERO_ADVANCED: tuple[bool, ...] = tuple(hero["advanced"] for hero in _DATA["heroes"])
HERO_POINTS: tuple[int, ...] = tuple(hero["points"] or 0 for hero in _DATA["heroes"])
NUM_CLASS_HEROES = 10  # h 0..9
DAGDA = HERO_KEYS.index("dagda")
BONFUR = HERO_KEYS.index("bonfur")
HOURYA = HERO_KEYS.index("hourya")
IDUNN = HERO_KEYS.index("idunn")
DWERG = HERO_KEYS.index("dwerg")
SKAA = HERO_KEYS.index("skaa")
ASTRID = HERO_KEYS.index("astrid")
GRID = HERO_KEYS.index("grid")
ULINE = HERO_KEYS.index("uline")
YLUD = HERO_KEYS.index("ylud")
THRUD = HERO_KEYS.index("thrud")
DWERG_POINTS: tuple[int, ...] = (0, 13, 40, 81, 108, 135)  # §2: 1..5 brothers

TAVERN_KEYS: tuple[str, ...] = tuple(_DATA["taverns"])  # goblin dragon horse

# Column entries (§3).
HERO_ENTRY = 30  # + h, h 0..9
SPECIAL_BLACKSMITH = 40
THRUD_ENTRY = 41
YLUD_ENTRY = 42
YLUD_COLUMN_POINTS = {EXPLORER: 11, WARRIOR: 7, MINER: 1}

# Thrud / Ylud places in the serialization (§8).
IN_HAND = 5
COMMAND_ZONE = 6

# Distinctions, in the order of §5.9 and the serialization: warrior hunter miner blacksmith explorer.
DISTINCTION_CLASSES: tuple[int, ...] = (WARRIOR, HUNTER, MINER, BLACKSMITH, EXPLORER)
NOT_AWARDED = -2
NOBODY = -1

# §6 action ids.
BID = 0  # + c
TAKE = 27  # + k
TRANSFORM_SLOT = 50  # + t
TRANSFORM_HAND = 53  # + c
RECRUIT = 80  # + h
COLUMN = 97  # + j
DISCARD = 102  # + j
KEEP = 107  # + k
SUM = 130  # + c
NUM_DISTINCT_ACTIONS = 157
MAX_CHANCE_OUTCOMES = 23

PHASES: tuple[str, ...] = (
    "gems",
    "fill",
    "bid",
    "uline_bid",
    "take",
    "transform",
    "hero",
    "discard",
    "thrud",
    "ylud",
    "uline_trade",
    "pioneer_draw",
    "pioneer_keep",
    "pioneer_burn",
    "over",
)
CHANCE_PHASES = ("gems", "fill", "pioneer_draw", "pioneer_burn")
QUEUE_WORDS: tuple[str, ...] = (
    "recruit",
    "transform",
    "trade",
    "thrud",
    "discard",
    "ylud",
    "distinction",
    "pioneer",
    "burn",
    "age2",
    "thrud_home",
    "end",
)
SEATLESS_WORDS = ("distinction", "burn", "age2", "thrud_home", "end")

DEFAULT_PARAMS: dict[str, Any] = {"first_game": False, "players": 2, "warrior_bonus_at_zero": False}

# ---------------------------------------------------------------------------------------------------------
# Thingvellir (docs/rules/thingvellir.md, cited "TV §n" and "Tn" for its interpretations)
# ---------------------------------------------------------------------------------------------------------

_TV = _DATA["thingvellir"]
TV_DEFAULT_PARAMS: dict[str, Any] = {
    "thingvellir": False,
    "enlist_each_turn": False,
    "enlist_chooser": "most",
    "two_player_camp_discard": True,
}
ENLIST_CHOOSERS = ("most", "lowest_gem")

#: TV §2: the camp cards m 0..23 (Age I 0..11, Age II 12..23), at most ``CAMP_SIZE`` in the camp.
CAMP_KEYS: tuple[str, ...] = tuple(card["key"] for card in _TV["camp"])
NUM_CAMP = len(CAMP_KEYS)  # 24
CAMP_AGE: tuple[int, ...] = tuple(card["age"] for card in _TV["camp"])
CAMP_SIZE: int = _TV["camp_size"]
DRAUPNIR, FAFNIR, MEGINGJORD, SVALINN, VEGVISIR, VIDOFNIR = range(6)
BRISINGAMENS, GJALLARHORN, HOFUD, HRAFNSMERKI, JARNGLOFI, MJOLLNIR = range(12, 18)
#: The mercenaries: m of the mercenary m' (0..11), and m' of each camp card (-1 for an artefact).
MERCENARIES: tuple[int, ...] = tuple(m for m, card in enumerate(_TV["camp"]) if card["type"] == "mercenary")
MERC_OF_CARD: tuple[int, ...] = tuple(
    MERCENARIES.index(m) if m in MERCENARIES else -1 for m in range(NUM_CAMP)
)
#: Each mercenary's two (class, points in that class), in the card's printed order (o 0, o 1).
MERC_CLASSES: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((CLASS_KEYS.index(cls), points or 0) for cls, points in _TV["camp"][m]["classes"])
    for m in MERCENARIES
)

#: TV §2: the six Thingvellir heroes h 17..22 (neutral), after the base game's 17.
TV_HERO_KEYS: tuple[str, ...] = tuple(hero["key"] for hero in _TV["heroes"])
TV_HERO_POINTS: tuple[int, ...] = tuple(hero["points"] for hero in _TV["heroes"])
ALL_HERO_KEYS: tuple[str, ...] = HERO_KEYS + TV_HERO_KEYS
NUM_ALL_HEROES = len(ALL_HERO_KEYS)  # 23
ANDUMIA, HOLDA, KHRAD, JARIKA, OLWYN, ZOLKUR = range(NUM_HEROES, NUM_ALL_HEROES)

# TV §2 column entries.
VEGVISIR_ENTRY = 43
DOUBLE_ENTRIES = (44, 45)
MERC_ENTRY = 46  # + m'
VEGVISIR_POINTS = 13

# TV §6 action ids.
CAMP = 157  # + m
PICK = 181  # + k
TV_RECRUIT = 204  # + (h - 17)
ENLIST = 210  # + 2 m' + o
ENLIST_FIRST, ENLIST_LAST = 234, 235
DROP = 236  # + k
VIDOFNIR_COIN = 259  # + c
REMOVE = 286  # + e
NUM_ENTRY_IDS = 70
TV_NUM_DISTINCT_ACTIONS = 356
TV_MAX_CHANCE_OUTCOMES = 24

#: TV §7: the phases added, after the base game's 15.
TV_PHASES: tuple[str, ...] = (
    "camp_fill",
    "tavern_discard",
    "enlist_order",
    "enlist",
    "andumia",
    "holda",
    "khrad",
    "olwyn",
    "vidofnir",
    "brisingamens",
    "bris_column",
    "hofud",
)
ALL_PHASES = PHASES + TV_PHASES
TV_QUEUE_WORDS: tuple[str, ...] = (
    "camp_pick",
    "andumia",
    "brisingamens",
    "bris_end",
    "vidofnir",
    "khrad",
    "olwyn",
    "hofud",
    "forced_hero",
    "tavern_drop",
    "enlist_order",
    "enlist",
    "camp_clear",
)
TV_SEATLESS_WORDS = ("enlist_order", "camp_clear")


def _as_int(value: object) -> int | None:
    """An int-like value (Python int or numpy integer) as an int; ``None`` for anything else (bools too)."""
    if isinstance(value, (bool, np.bool_)):
        return None
    try:
        return operator.index(cast(SupportsIndex, value))
    except TypeError:
        return None


def normalize_params(given: Mapping[str, object]) -> dict[str, Any]:
    """§1: ``players`` an int 2..5; ``first_game`` and ``warrior_bonus_at_zero`` bools."""
    for key in given:
        if key not in DEFAULT_PARAMS and key not in TV_DEFAULT_PARAMS:
            raise InvalidStateError(f"{GAME_NAME}: unknown parameter {key!r}")
    players = given.get("players", DEFAULT_PARAMS["players"])
    if not _is_int(players):
        raise InvalidStateError(f"{GAME_NAME}: parameter 'players' must be an int, got {players!r}")
    if not 2 <= players <= 5:
        raise InvalidStateError(f"{GAME_NAME}: players must be in 2..5, got {players}")
    params: dict[str, Any] = {"players": int(players)}
    for key in ("first_game", "warrior_bonus_at_zero"):
        value = given.get(key, DEFAULT_PARAMS[key])
        if not isinstance(value, bool):
            raise InvalidStateError(f"{GAME_NAME}: parameter {key!r} must be a bool, got {value!r}")
        params[key] = value
    # TV §1: the expansion's keys are part of the parameters only with ``thingvellir`` true (READING: a base
    # game given them at their defaults is the base game, with the base game's string).
    tv = {key: given.get(key, default) for key, default in TV_DEFAULT_PARAMS.items()}
    for key in ("thingvellir", "enlist_each_turn", "two_player_camp_discard"):
        if not isinstance(tv[key], bool):
            raise InvalidStateError(f"{GAME_NAME}: parameter {key!r} must be a bool, got {tv[key]!r}")
    if not isinstance(tv["enlist_chooser"], str) or tv["enlist_chooser"] not in ENLIST_CHOOSERS:
        raise InvalidStateError(
            f"{GAME_NAME}: parameter 'enlist_chooser' must be one of {ENLIST_CHOOSERS}, "
            f"got {tv['enlist_chooser']!r}"
        )
    if tv["thingvellir"]:
        params.update(tv)
    else:
        for key, default in TV_DEFAULT_PARAMS.items():
            if tv[key] != default:
                raise InvalidStateError(f"{GAME_NAME}: parameter {key!r} needs thingvellir=true")
    return params


def coin_is_basic(code: int) -> bool:
    return code < S3


def treasure_code(value: int) -> int:
    return value - TREASURE_LOW + FIRST_TREASURE_CODE


def entry_ranks(entry: int) -> int:
    """§3: a Dwarf 1, a class hero its ranks, the special Blacksmith 2, Thrud 1, Ylud 1; TV §2: Vegvisir,
    a double and a mercenary 1."""
    if entry < NUM_DWARF_KINDS:
        return 1
    if HERO_ENTRY <= entry < HERO_ENTRY + NUM_CLASS_HEROES:
        return len(HERO_RANKS[entry - HERO_ENTRY])
    if entry == SPECIAL_BLACKSMITH:
        return 2
    return 1  # Thrud, Ylud


def entry_points(entry: int, column: int) -> int:
    """§3: a Dwarf its points, a class hero the sum of its points per rank, Ylud by her column, else 0."""
    if entry < NUM_DWARF_KINDS:
        return KIND_POINTS[entry]
    if HERO_ENTRY <= entry < HERO_ENTRY + NUM_CLASS_HEROES:
        return sum(HERO_RANKS[entry - HERO_ENTRY])
    if entry == YLUD_ENTRY:
        return YLUD_COLUMN_POINTS.get(column, 0)
    if entry == VEGVISIR_ENTRY:
        return VEGVISIR_POINTS if column == EXPLORER else 0
    if entry >= MERC_ENTRY:
        return sum(points for cls, points in MERC_CLASSES[entry - MERC_ENTRY] if cls == column)
    return 0  # Thrud, the special Blacksmith, Olwyn's doubles


def valid_entry(entry: object, thingvellir: bool = False) -> bool:
    return _is_int(entry) and (
        0 <= entry < NUM_DWARF_KINDS
        or HERO_ENTRY <= entry < HERO_ENTRY + NUM_CLASS_HEROES
        or entry in (SPECIAL_BLACKSMITH, THRUD_ENTRY, YLUD_ENTRY)
        or (thingvellir and VEGVISIR_ENTRY <= entry < MERC_ENTRY + len(MERCENARIES))
    )


def discardable(entry: int) -> bool:
    """T9: what Bonfur, Dagda, Hofud and Brisingamens may discard: a Dwarf card, a placed mercenary or one of
    Olwyn's doubles (never a hero, Vegvisir or the special Blacksmith)."""
    return entry < NUM_DWARF_KINDS or entry in DOUBLE_ENTRIES or entry >= MERC_ENTRY


# ---------------------------------------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------------------------------------


class NidavellirGame:
    """Nidavellir with one set of parameters (§1)."""

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
        n: int = self._params["players"]
        self.players = n
        self.first_game: bool = self._params["first_game"]
        self.warrior_bonus_at_zero: bool = self._params["warrior_bonus_at_zero"]
        self.turns_per_age: int = _DATA["turns_per_age"][str(n)]
        self.cards_per_tavern: int = _DATA["cards_per_tavern"][str(n)]
        deck_key = "5" if n == 5 else "2-4"
        self.deck_counts: tuple[tuple[int, ...], tuple[int, ...]] = (
            tuple(_DATA["decks"]["age1"][deck_key]),
            tuple(_DATA["decks"]["age2"][deck_key]),
        )
        self.treasure_counts: tuple[int, ...] = tuple(_DATA["treasure"]["4-5" if n >= 4 else "2-3"])
        self.gems: tuple[int, ...] = tuple(_DATA["gems"][str(n)])
        self.hero_copies: tuple[int, ...] = tuple(
            0 if self.first_game and HERO_ADVANCED[h] else HERO_COPIES[h] for h in range(NUM_HEROES)
        )
        self.thingvellir: bool = bool(self._params.get("thingvellir", False))
        self.enlist_each_turn: bool = bool(self._params.get("enlist_each_turn", False))
        self.enlist_chooser: str = str(self._params.get("enlist_chooser", "most"))
        self.two_player_camp_discard: bool = bool(self._params.get("two_player_camp_discard", True))
        if self.thingvellir:  # TV §2: the six heroes, one each, also in the first game
            self.hero_copies += (1,) * len(TV_HERO_KEYS)
        self.num_heroes = len(self.hero_copies)

    @property
    def params(self) -> dict[str, Any]:
        return dict(self._params)

    def num_players(self) -> int:
        return self.players

    def num_distinct_actions(self) -> int:
        return TV_NUM_DISTINCT_ACTIONS if self.thingvellir else NUM_DISTINCT_ACTIONS

    def max_chance_outcomes(self) -> int:
        return TV_MAX_CHANCE_OUTCOMES if self.thingvellir else MAX_CHANCE_OUTCOMES

    def max_game_length(self) -> int:
        """§6: ``n + 115 + 6T(c + 4n + 3)``; TV §6 (READING, a bound): plus 24 camp fills, 24 enlistments, two
        enlistment orders a turn, a tavern discard per tavern, and 80 + 2n for the artefacts' and the six
        heroes' decisions and the recruits they bring."""
        n, t, c = self.players, self.turns_per_age, self.cards_per_tavern
        base = n + 115 + 6 * t * (c + 4 * n + 3)
        if not self.thingvellir:
            return base
        return base + NUM_CAMP + len(MERCENARIES) + 4 * t + 6 * t + 80 + 2 * n

    def observation_shape(self) -> tuple[int, ...]:
        """§7.1: ``(225 + 216 n,)``; TV §7: ``(292 + 265 n,)``."""
        if self.thingvellir:
            return (292 + 265 * self.players,)
        return (225 + 216 * self.players,)

    def new_initial_state(self) -> NidavellirState:
        """§5.1: basic coins, the Treasure, the decks, the heroes; then the gem deal."""
        n = self.players
        state = NidavellirState(
            game=self,
            seats=[Seat(hand=sorted(PLAYER_COINS), heroes=[0] * self.num_heroes) for _ in range(n)],
            decks=[list(self.deck_counts[0]), list(self.deck_counts[1])],
            treasure=list(self.treasure_counts),
            heroes_left=list(self.hero_copies),
            reveal=[-1] * n,
        )
        if self.thingvellir:
            state.camp_deck = [m for m in range(NUM_CAMP) if CAMP_AGE[m] == 1]
        state._settle()
        return state

    def deserialize_state(self, text: object) -> NidavellirState:
        """The inverse of ``serialize``; anything malformed or inconsistent (§8) raises InvalidStateError."""
        return _deserialize(self, text)

    def __str__(self) -> str:
        return game_string(GAME_NAME, self._params)

    def __repr__(self) -> str:
        return f"NidavellirGame({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NidavellirGame) and other._params == self._params

    def __hash__(self) -> int:
        return hash(str(self))


# ---------------------------------------------------------------------------------------------------------
# The state
# ---------------------------------------------------------------------------------------------------------


@dataclass
class Seat:
    """One Elvaland (§3)."""

    gem: int = 0
    hand: list[int] = field(default_factory=list)  # ascending codes
    bids: list[int] = field(default_factory=lambda: [-1, -1, -1])
    army: list[list[int]] = field(default_factory=lambda: [[] for _ in range(NUM_CLASSES)])
    heroes: list[int] = field(default_factory=lambda: [0] * NUM_HEROES)
    shown_bids: list[bool] = field(default_factory=lambda: [False, False, False])
    shown_hand: list[int] = field(default_factory=list)  # ascending codes
    thrud: int = -1
    ylud: int = -1
    camp_cards: list[int] = field(default_factory=list)  # TV §3: artefacts owned, mercenaries not placed
    zolkur: bool = False  # TV §5: Zolkur recruited and not yet used

    def copy(self) -> Seat:
        return Seat(
            gem=self.gem,
            hand=list(self.hand),
            bids=list(self.bids),
            army=[list(column) for column in self.army],
            heroes=list(self.heroes),
            shown_bids=list(self.shown_bids),
            shown_hand=list(self.shown_hand),
            thrud=self.thrud,
            ylud=self.ylud,
            camp_cards=list(self.camp_cards),
            zolkur=self.zolkur,
        )

    def coins(self) -> list[int]:
        """Every coin owned: the hand and the bid slots."""
        return sorted(self.hand + [code for code in self.bids if code >= 0])

    def highest_coin(self) -> int:
        return max((COIN_VALUE[code] for code in self.coins()), default=0)

    def ranks(self, column: int, with_thrud: bool = True) -> int:
        return sum(entry_ranks(entry) for entry in self.army[column] if with_thrud or entry != THRUD_ENTRY)

    def points(self, column: int) -> int:
        return sum(entry_points(entry, column) for entry in self.army[column])

    def lines(self) -> int:
        return min(self.ranks(j) for j in range(NUM_CLASSES))

    def has_dwarf(self, column: int) -> bool:
        """The column's top card is a Dwarf card: what Dagda and Bonfur may discard (interp. 3); with
        Thingvellir also a placed mercenary or a double (T9)."""
        return bool(self.army[column]) and discardable(self.army[column][-1])

    def unplaced(self) -> list[int]:
        """TV §3: the mercenaries (m) taken and not placed."""
        return [m for m in self.camp_cards if MERC_OF_CARD[m] >= 0]

    def mercenaries_owned(self) -> int:
        """Hrafnsmerki: the mercenaries owned, placed or not."""
        placed = sum(1 for column in self.army for entry in column if entry >= MERC_ENTRY)
        return placed + len(self.unplaced())


def _remove_one(codes: list[int], code: int) -> None:
    codes.remove(code)


def _multiset_minus(codes: list[int], minus: list[int]) -> list[int]:
    rest = list(codes)
    for code in minus:
        if code in rest:
            rest.remove(code)
    return rest


@dataclass
class NidavellirState:
    """A position (§3); the serialization (§8) lists the same fields."""

    game: NidavellirGame
    seats: list[Seat]
    decks: list[list[int]]
    treasure: list[int]
    heroes_left: list[int]
    reveal: list[int]
    age: int = 1
    turn: int = 0
    tavern: int = -1
    revealed: int = 0
    bid_start: int = -1
    pioneer_at: int = -1
    uline_bidder: int = -1
    taverns: list[list[int]] = field(default_factory=lambda: [[0] * NUM_KINDS for _ in range(3)])
    discard: list[int] = field(default_factory=lambda: [0] * NUM_KINDS)
    drawn: list[int] = field(default_factory=lambda: [0] * NUM_KINDS)
    distinctions: list[int] = field(default_factory=lambda: [NOT_AWARDED] * 5)
    order: list[int] = field(default_factory=list)
    order_pos: int = 0
    queue: list[list[Any]] = field(default_factory=list)  # [word, seat, arg]
    phase: str = "gems"
    actions: list[int] = field(default_factory=list)
    # TV §3 (empty and unused without Thingvellir)
    camp: list[int] = field(default_factory=list)  # ascending m
    camp_deck: list[int] = field(default_factory=list)  # ascending m, the current Age's cards not dealt
    camp_visited: bool = False
    enlist: list[int] = field(default_factory=list)  # seats in enlistment order
    enlist_pos: int = 0

    # ----- who acts -----

    def _next_bidder(self) -> tuple[int, int] | None:
        """§5.2 step 2: the first seat (not Uline's owner) with an empty bid slot, and that slot."""
        for s, seat in enumerate(self.seats):
            if s == self.uline_bidder:
                continue
            for t in range(3):
                if seat.bids[t] == -1:
                    return s, t
        return None

    def _uline_seat(self) -> int | None:
        """The seat whose bid slot at the tavern being revealed is empty (§5.3 step 1)."""
        if self.tavern < 0:
            return None
        if self.game.thingvellir:
            # Jarnglofi also empties a slot (T8): only Uline's bidder fills one, at the reveal.
            if self.order or self.uline_bidder < 0 or self.seats[self.uline_bidder].bids[self.tavern] != -1:
                return None
            return self.uline_bidder
        return next((s for s, seat in enumerate(self.seats) if seat.bids[self.tavern] == -1), None)

    def _acting_seat(self) -> int | None:
        if self.phase == "bid":
            bidder = self._next_bidder()
            return bidder[0] if bidder else None
        if self.phase == "uline_bid":
            return self._uline_seat()
        if self.phase == "take":
            return self.order[self.order_pos] if self.order_pos < len(self.order) else None
        if self.phase in ("transform", "hero", "discard", "thrud", "ylud", "uline_trade", "pioneer_keep"):
            return int(self.queue[0][1]) if self.queue else None
        if self.phase == "enlist_order":
            return self.enlist[0] if self.enlist else None
        if self.phase in TV_PHASES and self.phase != "camp_fill":
            return int(self.queue[0][1]) if self.queue else None
        return None

    def current_player(self) -> int:
        if self.phase == "over":
            return TERMINAL
        if self.is_chance_node():
            return CHANCE
        seat = self._acting_seat()
        return 0 if seat is None else seat

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def is_chance_node(self) -> bool:
        return self.phase in CHANCE_PHASES or self.phase == "camp_fill"

    def pioneer(self) -> int:
        """The seat holding the Pioneer of the Kingdom, or -1."""
        return max(self.distinctions[4], -1)

    # ----- chance -----

    def chance_weights(self) -> list[tuple[int, int]]:
        if self.phase == "gems":
            dealt = {seat.gem for seat in self.seats}
            return [(v, 1) for v in sorted(self.game.gems) if v not in dealt]
        if self.phase == "fill":
            deck = self.decks[self.age - 1]
            return [(k, deck[k]) for k in range(NUM_KINDS) if deck[k] > 0]
        if self.phase in ("pioneer_draw", "pioneer_burn"):
            deck = self.decks[1]
            return [(k, deck[k]) for k in range(NUM_KINDS) if deck[k] > 0]
        if self.phase == "camp_fill":  # TV §4.1: each card left in the Age's camp deck alike
            return [(m, 1) for m in self.camp_deck]
        return []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        weights = self.chance_weights()
        total = sum(weight for _, weight in weights)
        return [(action, weight / total) for action, weight in weights]

    def random_step(self, rng: RngLike) -> int:
        return random_step(self, rng)

    # ----- legal actions (§6) -----

    def _recruitable(self, s: int) -> list[int]:
        """§5.4 "Recruitable heroes"; TV §5: Andumia needs a card in the discard pile (T12)."""
        seat = self.seats[s]
        heroes = []
        for h in range(self.game.num_heroes):
            if h == ANDUMIA and self.heroes_left[h] > 0 and sum(self.discard) == 0:
                continue
            if self.heroes_left[h] <= 0:
                continue
            if h == HOURYA and seat.ranks(EXPLORER) < 5:
                continue
            if h == DAGDA and sum(seat.has_dwarf(j) for j in range(NUM_CLASSES) if j != HUNTER) < 2:
                continue
            if h == BONFUR and sum(seat.has_dwarf(j) for j in range(NUM_CLASSES) if j != BLACKSMITH) < 1:
                continue
            heroes.append(h)
        return heroes

    def _can_recruit(self, s: int) -> bool:
        """§5.4 by lines; TV §5: never for Megingjord's owner."""
        seat = self.seats[s]
        if MEGINGJORD in seat.camp_cards:
            return False
        return seat.lines() >= sum(seat.heroes) + 1 and bool(self._recruitable(s))

    def _transform_choices(self, s: int) -> list[int]:
        seat = self.seats[s]
        choices = [
            TRANSFORM_SLOT + t for t in range(3) if seat.bids[t] >= 0 and seat.bids[t] not in TRADING_COINS
        ]
        choices += [TRANSFORM_HAND + c for c in sorted(set(seat.hand)) if c not in TRADING_COINS]
        return choices

    def _discard_columns(self, s: int, mask: int) -> list[int]:
        seat = self.seats[s]
        return [j for j in range(NUM_CLASSES) if not mask >> j & 1 and seat.has_dwarf(j)]

    def _uline_sum_choices(self) -> list[int]:
        _, s, first = self.queue[0]
        hand = list(self.seats[s].hand)
        if first >= 0:
            _remove_one(hand, first)
        return [SUM + c for c in sorted(set(hand))]

    def _may_visit_camp(self, s: int) -> bool:
        """TV §4.2: the first seat of the tavern's order, or Fafnir's owner while the camp is not visited."""
        if not self.game.thingvellir or self.camp_visited:
            return False
        return self.order_pos == 0 or FAFNIR in self.seats[s].camp_cards

    def _khrad_choices(self, s: int) -> list[int]:
        """TV §5 Khrad: the transform ids of the lowest non-trading coins, wherever they are."""
        seat = self.seats[s]
        values = [COIN_VALUE[c] for c in seat.coins() if c not in TRADING_COINS]
        if not values:
            return []
        low = min(values)
        choices = [
            TRANSFORM_SLOT + t
            for t in range(3)
            if seat.bids[t] >= 0 and seat.bids[t] not in TRADING_COINS and COIN_VALUE[seat.bids[t]] == low
        ]
        choices += [
            TRANSFORM_HAND + c
            for c in sorted(set(seat.hand))
            if c not in TRADING_COINS and COIN_VALUE[c] == low
        ]
        return choices

    def _vidofnir_choices(self, s: int, first: int) -> list[int]:
        """TV §5 Vidofnir: the hand's non-trading coins, less the coin that got +2 (``first``, -1 before)."""
        hand = [c for c in self.seats[s].hand if c not in TRADING_COINS]
        if first >= 0 and first in hand:
            hand.remove(first)
        return sorted(set(hand))

    def _removable(self, s: int, column: int) -> list[int]:
        """Hofud / Brisingamens: the distinct discardable entries of the column (T9)."""
        return sorted({entry for entry in self.seats[s].army[column] if discardable(entry)})

    def _hero_id(self, h: int) -> int:
        return RECRUIT + h if h < NUM_HEROES else TV_RECRUIT + h - NUM_HEROES

    def legal_actions(self) -> list[int]:
        if self.phase == "over":
            return []
        if self.is_chance_node():
            return [action for action, _ in self.chance_weights()]
        seat = self._acting_seat()
        if seat is None:
            return []
        if self.phase in ("bid", "uline_bid"):
            return [BID + c for c in sorted(set(self.seats[seat].hand))]
        if self.phase == "take":
            tavern = self.taverns[self.tavern]
            takes = [TAKE + k for k in range(NUM_KINDS) if tavern[k] > 0]
            if self._may_visit_camp(seat):
                takes += [CAMP + m for m in self.camp]
            return takes
        if self.phase == "transform":
            return self._transform_choices(seat)
        if self.phase == "hero":
            return [self._hero_id(h) for h in self._recruitable(seat)]
        if self.game.thingvellir and self.phase in TV_PHASES:
            return self._tv_legal(seat)
        if self.phase in ("thrud", "ylud"):
            return [COLUMN + j for j in range(NUM_CLASSES)]
        if self.phase == "discard":
            return [DISCARD + j for j in self._discard_columns(seat, int(self.queue[0][2]))]
        if self.phase == "pioneer_keep":
            return [KEEP + k for k in range(NUM_KINDS) if self.drawn[k] > 0]
        if self.phase == "uline_trade":
            return self._uline_sum_choices()
        return []

    def _tv_legal(self, s: int) -> list[int]:
        """TV §6: the decisions of the phases Thingvellir adds."""
        phase = self.phase
        arg = int(self.queue[0][2]) if self.queue else 0
        seat = self.seats[s]
        if phase == "tavern_discard":
            tavern = self.taverns[self.tavern]
            return [DROP + k for k in range(NUM_KINDS) if tavern[k] > 0]
        if phase == "enlist_order":
            return [ENLIST_FIRST, ENLIST_LAST]
        if phase == "enlist":
            ids = []
            for m in seat.unplaced():
                ids += [ENLIST + 2 * MERC_OF_CARD[m], ENLIST + 2 * MERC_OF_CARD[m] + 1]
            return sorted(ids)
        if phase in ("andumia", "brisingamens"):
            return [PICK + k for k in range(NUM_KINDS) if self.discard[k] > 0]
        if phase == "holda":
            return [CAMP + m for m in self.camp]
        if phase == "khrad":
            return self._khrad_choices(s)
        if phase == "olwyn":
            return [COLUMN + j for j in range(NUM_CLASSES) if j != arg]
        if phase == "vidofnir":
            return [VIDOFNIR_COIN + c for c in self._vidofnir_choices(s, arg)]
        if phase == "bris_column":
            if arg == 0:
                return [DISCARD + j for j in range(NUM_CLASSES) if self._removable(s, j)]
            return [REMOVE + e for e in self._removable(s, arg - 1)]
        if phase == "hofud":
            return [REMOVE + e for e in self._removable(s, WARRIOR)]
        return []

    def legal_actions_mask(self) -> npt.NDArray[np.int8]:
        if self.game.thingvellir:
            size = TV_MAX_CHANCE_OUTCOMES if self.is_chance_node() else TV_NUM_DISTINCT_ACTIONS
            mask = np.zeros(size, dtype=np.int8)
            for action in self.legal_actions():
                mask[action] = 1
            return mask
        size = MAX_CHANCE_OUTCOMES if self.is_chance_node() else NUM_DISTINCT_ACTIONS
        mask = np.zeros(size, dtype=np.int8)
        for action in self.legal_actions():
            mask[action] = 1
        return mask

    # ----- applying -----

    def apply_action(self, action: object) -> None:
        """Apply a legal action or chance outcome; anything else raises IllegalActionError and changes
        nothing (legality is checked before anything is touched)."""
        player = self.current_player()
        value = _as_int(action)
        if value is None or value not in self.legal_actions():
            raise IllegalActionError(
                f"{GAME_NAME}: action {action!r} is not legal for seat {player} in this state"
            )
        self.actions.append(value)
        phase = self.phase
        if phase in TV_PHASES:
            self._tv_apply(value)
        elif phase == "take" and value >= CAMP:
            self._take_camp(value - CAMP)
        elif phase == "hero" and value >= TV_RECRUIT:
            self._recruit(value - TV_RECRUIT + NUM_HEROES)
        elif phase == "gems":
            s = next(s for s, seat in enumerate(self.seats) if seat.gem == 0)
            self.seats[s].gem = value
        elif phase == "fill":
            t = next(t for t in range(3) if sum(self.taverns[t]) < self.game.cards_per_tavern)
            self.decks[self.age - 1][value] -= 1
            self.taverns[t][value] += 1
        elif phase == "pioneer_draw":
            self.decks[1][value] -= 1
            self.drawn[value] += 1
        elif phase == "pioneer_burn":
            self.decks[1][value] -= 1
            self.discard[value] += 1
            self.queue.pop(0)
        elif phase == "bid":
            bidder = self._next_bidder()
            assert bidder is not None
            self._place_bid(bidder[0], bidder[1], value - BID)
        elif phase == "uline_bid":
            owner = self._uline_seat()
            assert owner is not None
            self._place_bid(owner, self.tavern, value - BID)
        elif phase == "take":
            self._take(value - TAKE)
        elif phase == "transform":
            _, s, x = self.queue.pop(0)
            if value < TRANSFORM_HAND:
                self._transform_slot(s, value - TRANSFORM_SLOT, x)
            else:
                self._transform_hand(s, value - TRANSFORM_HAND, x)
        elif phase == "hero":
            self._recruit(value - RECRUIT)
        elif phase == "thrud":
            _, s, _ = self.queue.pop(0)
            seat = self.seats[s]
            seat.army[value - COLUMN].append(THRUD_ENTRY)
            seat.thrud = value - COLUMN
        elif phase == "ylud":
            self._place_ylud(value - COLUMN)
        elif phase == "discard":
            self._discard(value - DISCARD)
        elif phase == "pioneer_keep":
            self._keep(value - KEEP)
        elif phase == "uline_trade":
            item = self.queue[0]
            if item[2] < 0:
                item[2] = value - SUM
            else:
                self.queue.pop(0)
                self._trade(item[1], item[2], value - SUM)
        self._settle()

    def _place_bid(self, s: int, t: int, code: int) -> None:
        seat = self.seats[s]
        _remove_one(seat.hand, code)
        seat.bids[t] = code

    # ----- the flow (§5.2, §5.3, §5.4) -----

    def _settle(self) -> None:
        """Carry out automatic steps until a decision or a chance node is reached (§5.4)."""
        game = self.game
        while self.phase != "over" or self.queue:
            if self.queue:
                if self._settle_front():
                    return
                continue
            if self.phase == "over":
                return
            if any(seat.gem == 0 for seat in self.seats):
                self.phase = "gems"
                return
            if self.tavern == -1:
                if self.revealed == 0:
                    if any(sum(self.taverns[t]) < game.cards_per_tavern for t in range(3)):
                        self.phase = "fill"
                        return
                    if (
                        game.thingvellir
                        and self.bid_start == -1
                        and len(self.camp) < CAMP_SIZE
                        and self.camp_deck
                    ):
                        self.phase = "camp_fill"  # TV §4.1, after the three taverns
                        return
                    if self.bid_start == -1:
                        self.bid_start = len(self.actions)
                        self.uline_bidder = next(
                            (s for s, seat in enumerate(self.seats) if seat.heroes[ULINE] > 0), -1
                        )
                    if self._next_bidder() is not None:
                        self.phase = "bid"
                        return
                    self._begin_tavern(0)
                elif self.revealed < 3:
                    self._begin_tavern(self.revealed)
                else:
                    self._end_turn()
                continue
            if self._uline_seat() is not None:
                self.phase = "uline_bid"
                return
            if not self.order:
                t = self.tavern
                # T8: a seat whose coin Jarnglofi discarded has no bid here and is left out of the order.
                self.reveal = [COIN_VALUE[seat.bids[t]] if seat.bids[t] >= 0 else -1 for seat in self.seats]
                bidders = [s for s in range(game.players) if self.reveal[s] >= 0]
                self.order = sorted(bidders, key=lambda s: (-self.reveal[s], -self.seats[s].gem))
                self.order_pos = 0
            if self.order_pos < len(self.order):
                self.phase = "take"
                return
            self._end_tavern()

    def _settle_front(self) -> bool:
        """Carry out or drop the front item if it is automatic or does not apply; else set the phase for its
        decision and return True."""
        item = self.queue[0]
        word, s, arg = item[0], int(item[1]), int(item[2])
        if word == "recruit":
            if self._can_recruit(s):
                self.phase = "hero"
                return True
        elif word == "transform":
            if self._transform_choices(s):
                self.phase = "transform"
                return True
        elif word == "trade":
            hand = self.seats[s].hand
            if len(hand) > 2:
                self.phase = "uline_trade"
                return True
            self.queue.pop(0)
            if len(hand) == 2:
                self._trade(s, hand[0], hand[1])
            return False
        elif word == "thrud":
            if self.seats[s].thrud == IN_HAND:  # §9 item 17: else dropped
                self.phase = "thrud"
                return True
        elif word == "discard":
            if self._discard_columns(s, arg):
                self.phase = "discard"
                return True
        elif word == "ylud":
            if self.seats[s].ylud != -1:  # §9 item 17: a seat without Ylud has nothing to move
                self.phase = "ylud"
                return True
        elif word == "pioneer":
            if sum(self.drawn) < 3 and sum(self.decks[1]) > 0:
                if self.pioneer_at == -1:
                    self.pioneer_at = len(self.actions)
                self.phase = "pioneer_draw"
                return True
            if sum(self.drawn) > 0:
                self.phase = "pioneer_keep"
                return True
        elif word == "burn":
            if sum(self.decks[1]) > 0:
                self.phase = "pioneer_burn"
                return True
        elif word == "distinction":
            self.queue.pop(0)
            self._award(arg)
            return False
        elif word == "age2":
            self.queue.pop(0)
            self.age = 2
            self.turn = 0
            self.phase = "fill"
            return False
        elif word == "thrud_home":
            self.queue.pop(0)
            for seat in self.seats:
                if 0 <= seat.thrud < NUM_CLASSES:
                    seat.army[seat.thrud].remove(THRUD_ENTRY)
                    seat.thrud = COMMAND_ZONE
            return False
        elif word == "end":
            self.queue.pop(0)
            self.phase = "over"
            return False
        elif word in TV_QUEUE_WORDS:
            return self._tv_settle_front(word, s, arg)
        self.queue.pop(0)  # an item that does not apply is dropped
        return False

    def _begin_tavern(self, t: int) -> None:
        """§5.3 step 1: the reveal starts; the order is made once every coin is on the tavern."""
        self.tavern = t
        self.revealed = t + 1
        self.camp_visited = False  # TV §4.2: cleared at each tavern's reveal
        self.order = []
        self.order_pos = 0
        self.reveal = [-1] * self.game.players

    def _end_tavern(self) -> None:
        """§5.3 step 4: leftovers to the discard pile, then the gem trade."""
        t = self.tavern
        for k in range(NUM_KINDS):
            self.discard[k] += self.taverns[t][k]
            self.taverns[t][k] = 0
        groups: dict[int, list[int]] = {}
        for s in range(self.game.players):
            if self.reveal[s] >= 0:  # T8: a seat left out by Jarnglofi trades no gem
                groups.setdefault(self.reveal[s], []).append(s)
        for group in groups.values():
            traders = sorted((s for s in group if self.seats[s].gem != 6), key=lambda s: -self.seats[s].gem)
            if len(group) < 2:
                continue
            gems = [self.seats[s].gem for s in traders]
            k = len(traders)
            for i in range(k // 2):
                self.seats[traders[i]].gem = gems[k - 1 - i]
                self.seats[traders[k - 1 - i]].gem = gems[i]
        self.tavern = -1
        self.camp_visited = False  # READING: also cleared at the tavern's end (TV §7 refuses it outside one)
        self.order = []
        self.order_pos = 0
        self.reveal = [-1] * self.game.players

    def _end_turn(self) -> None:
        """§5.2 step 4, and the end of an Age (§5.9, §5.10)."""
        for seat in self.seats:
            seat.hand = sorted(seat.hand + [code for code in seat.bids if code >= 0])
            seat.bids = [-1, -1, -1]
            seat.shown_bids = [False, False, False]
            seat.shown_hand = []
        self.revealed = 0
        self.bid_start = -1
        self.uline_bidder = -1
        tv = self.game.thingvellir
        if self.turn < self.game.turns_per_age - 1:
            self.turn += 1
            if tv and self.game.enlist_each_turn:  # T1: the enlistment at the end of every turn
                self.queue.append(["enlist_order", -1, 0])
            return
        # READING (interp. 11): the turn stays at T - 1 through the end of the Age.
        if tv:  # TV §4.5: the enlistment first
            self.queue.append(["enlist_order", -1, 0])
        if self.age == 1:
            for s, seat in enumerate(self.seats):
                if seat.ylud == COMMAND_ZONE:
                    self.queue.append(["ylud", s, 0])
            for j in DISTINCTION_CLASSES:
                self.queue.append(["distinction", -1, j])
            if tv:
                self.queue.append(["camp_clear", -1, 0])
            self.queue.append(["age2", -1, 0])
        else:
            for s, seat in enumerate(self.seats):
                if seat.ylud != -1:
                    self.queue.append(["ylud", s, 0])
            self.queue.append(["thrud_home", -1, 0])
            if tv:  # TV §4.7: the Brisingamens owner's discard
                for s, seat in enumerate(self.seats):
                    if BRISINGAMENS in seat.camp_cards:
                        self.queue.append(["bris_end", s, 0])
            self.queue.append(["end", -1, 0])

    # ----- effects -----

    def _enter(self, s: int, entry: int, column: int) -> bool:
        """§5.5: the entry goes on top of the column; Thrud on top is taken out first. True if she was."""
        seat = self.seats[s]
        bumped = False
        if seat.thrud == column:
            seat.army[column].remove(THRUD_ENTRY)
            seat.thrud = IN_HAND
            bumped = True
        seat.army[column].append(entry)
        if entry == YLUD_ENTRY:
            seat.ylud = column
        return bumped

    def _take(self, kind: int) -> None:
        """§5.3 step 3: the card, then its recruit or transform, then the trade."""
        t = self.tavern
        s = self.order[self.order_pos]
        self.taverns[t][kind] -= 1
        self.order_pos += 1
        items: list[list[Any]] = []
        if kind < NUM_DWARF_KINDS:
            if self._enter(s, kind, KIND_CLASS[kind]):
                items.append(["thrud", s, 0])
            items.append(["recruit", s, 0])
        else:
            items.append(["transform", s, KIND_OFFERING[kind]])  # the offering is spent (interp. 9)
        if self.seats[s].bids[t] in TRADING_COINS:
            items.append(["trade", s, -1])
        self.queue.extend(items)

    def _recruit(self, h: int) -> None:
        """§5.4 "Recruiting hero h"."""
        _, s, _ = self.queue.pop(0)
        seat = self.seats[s]
        self.heroes_left[h] -= 1
        seat.heroes[h] += 1
        items: list[list[Any]] = []
        if h < NUM_CLASS_HEROES and self._enter(s, HERO_ENTRY + h, HERO_CLASS[h]):
            items.append(["thrud", s, 0])
        if h == DAGDA:
            items += [["discard", s, 1 << HUNTER], ["discard", s, 1 << HUNTER]]
        if h == BONFUR:
            items.append(["discard", s, 1 << BLACKSMITH])
        if h == GRID:
            items.append(["transform", s, 7])
        if h == THRUD:
            seat.thrud = IN_HAND
            items.append(["thrud", s, 0])
        if h == YLUD:
            seat.ylud = COMMAND_ZONE
        if h == ANDUMIA:
            items.append(["andumia", s, 0])
        if h == HOLDA:
            items.append(["camp_pick", s, 0])
        if h == KHRAD:
            items.append(["khrad", s, 0])
        if h == OLWYN:
            items.append(["olwyn", s, -1])
        if h == ZOLKUR:
            seat.zolkur = True
        items.append(["recruit", s, 0])
        self.queue[:0] = items

    def _discard(self, column: int) -> None:
        """Dagda / Bonfur: the column's top card, a Dwarf card (interp. 3)."""
        _, s, _ = self.queue.pop(0)
        self._throw(self.seats[s].army[column].pop())
        if self.queue and self.queue[0][0] == "discard" and self.queue[0][1] == s:
            self.queue[0][2] |= 1 << column

    def _place_ylud(self, column: int) -> None:
        """§5.7: Ylud enters (or moves to) the column; then ``recruit``."""
        _, s, _ = self.queue.pop(0)
        seat = self.seats[s]
        items: list[list[Any]] = []
        if seat.ylud != column:
            if 0 <= seat.ylud < NUM_CLASSES:
                seat.army[seat.ylud].remove(YLUD_ENTRY)
            if self._enter(s, YLUD_ENTRY, column):
                items.append(["thrud", s, 0])
        items.append(["recruit", s, 0])
        self.queue[:0] = items

    def _keep(self, kind: int) -> None:
        """§5.8: the kept card; the other two go back into the Age II deck."""
        _, s, _ = self.queue.pop(0)
        self.drawn[kind] -= 1
        for k in range(NUM_KINDS):
            self.decks[1][k] += self.drawn[k]
            self.drawn[k] = 0
        items: list[list[Any]] = []
        if kind < NUM_DWARF_KINDS:
            if self._enter(s, kind, KIND_CLASS[kind]):
                items.append(["thrud", s, 0])
            items.append(["recruit", s, 0])
        else:
            items.append(["transform", s, KIND_OFFERING[kind]])
        self.queue[:0] = items

    def _award(self, column: int) -> None:
        """§5.9: a strict majority of ranks in the column wins; a tie gives it to nobody."""
        i = DISTINCTION_CLASSES.index(column)
        ranks = [seat.ranks(column) for seat in self.seats]
        best = max(ranks)
        leaders = [s for s in range(self.game.players) if ranks[s] == best]
        winner = leaders[0] if len(leaders) == 1 else NOBODY
        self.distinctions[i] = winner
        if winner == NOBODY:
            if column == EXPLORER:
                self.queue.insert(0, ["burn", -1, 0])
            return
        seat = self.seats[winner]
        if column == WARRIOR:
            self.queue.insert(0, ["transform", winner, 5])
        elif column == HUNTER:
            if B0 in seat.hand:  # §9 item 17: without a b0 nothing is exchanged
                seat.hand.remove(B0)
                seat.hand = sorted(seat.hand + [S3])
        elif column == MINER:
            seat.gem = 6
        elif column == BLACKSMITH:
            items: list[list[Any]] = []
            if self._enter(winner, SPECIAL_BLACKSMITH, BLACKSMITH):
                items.append(["thrud", winner, 0])
            items.append(["recruit", winner, 0])
            self.queue[:0] = items
        else:
            self.queue.insert(0, ["pioneer", winner, 0])

    # ----- Thingvellir (docs/rules/thingvellir.md) -----

    def _tv_settle_front(self, word: str, s: int, arg: int) -> bool:
        """TV §7 queue words: set the phase of a decision and return True, or carry out / drop the item."""
        seat = self.seats[s] if s >= 0 else None
        decide: str | None = None
        if word == "camp_pick" and self.camp:  # T7: Holda with an empty camp does nothing
            decide = "holda"
        elif word == "andumia" and sum(self.discard) > 0:
            decide = "andumia"
        elif word == "brisingamens" and arg > 0 and sum(self.discard) > 0:  # T5
            decide = "brisingamens"
        elif word == "bris_end" and (arg > 0 or any(self._removable(s, j) for j in range(NUM_CLASSES))):
            decide = "bris_column"
        elif word == "vidofnir" and self._vidofnir_choices(s, arg):
            decide = "vidofnir"
        elif word == "khrad" and self._khrad_choices(s):
            decide = "khrad"
        elif word == "olwyn":
            decide = "olwyn"
        elif word == "hofud" and self._removable(s, WARRIOR):  # T14
            decide = "hofud"
        elif word == "forced_hero" and self._recruitable(s):  # T6
            decide = "hero"
        elif word == "tavern_drop" and self.tavern >= 0:  # T3: only while the tavern holds its 3 cards
            if sum(self.taverns[self.tavern]) == self.game.cards_per_tavern:
                decide = "tavern_discard"
        elif word == "enlist_order":
            self.enlist = self._enlistment_order()
            self.enlist_pos = 0
            if self.enlist:
                decide = "enlist_order"
        elif word == "enlist":
            assert seat is not None
            if seat.unplaced():
                decide = "enlist"
            else:  # READING: enlist_pos counts the seats done; the order is emptied after the last
                self.enlist_pos += 1
                if self.enlist_pos >= len(self.enlist):
                    self.enlist, self.enlist_pos = [], 0
        elif word == "camp_clear":  # TV §4.6, T13: the camp's cards leave the game
            self.camp = []
            self.camp_deck = [m for m in range(NUM_CAMP) if CAMP_AGE[m] == 2]
        if decide is not None:
            self.phase = decide
            return True
        self.queue.pop(0)
        return False

    def _enlistment_order(self) -> list[int]:
        """TV §4.5, T2: the seats with unplaced mercenaries, most first (ties: higher gem); with
        ``lowest_gem`` the lowest gem among them leads and the rest follow in that order."""
        seats = [s for s, seat in enumerate(self.seats) if seat.unplaced()]
        order = sorted(seats, key=lambda s: (-len(self.seats[s].unplaced()), -self.seats[s].gem))
        if order and self.game.enlist_chooser == "lowest_gem":
            chooser = min(order, key=lambda s: self.seats[s].gem)
            order = [chooser] + [s for s in order if s != chooser]
        return order

    def _tv_apply(self, value: int) -> None:
        """Apply a decision (or the camp fill's chance outcome) of a Thingvellir phase (TV §4.1, §5, §6)."""
        if self.phase == "camp_fill":
            self.camp_deck.remove(value)
            self.camp = sorted(self.camp + [value])
            return
        phase, item = self.phase, self.queue[0]
        s, arg = int(item[1]), int(item[2])
        if phase == "enlist_order":
            s = self.enlist[0]
            self.queue.pop(0)
            if value == ENLIST_LAST:
                self.enlist = self.enlist[1:] + [s]
            self.enlist_pos = 0
            self.queue[:0] = [["enlist", q, 0] for q in self.enlist]
            return
        seat = self.seats[s]
        if phase == "tavern_discard":
            self.queue.pop(0)
            self.taverns[self.tavern][value - DROP] -= 1
            self.discard[value - DROP] += 1
        elif phase == "enlist":  # the enlist item stays in front while s has mercenaries
            merc, o = divmod(value - ENLIST, 2)
            seat.camp_cards.remove(MERCENARIES[merc])
            items: list[list[Any]] = []
            if self._enter(s, MERC_ENTRY + merc, MERC_CLASSES[merc][o][0]):
                items.append(["thrud", s, 0])
            items.append(["recruit", s, 0])
            self.queue[:0] = items
        elif phase == "andumia":
            self.queue.pop(0)
            self.discard[value - PICK] -= 1
            self.queue[:0] = self._card_items(s, value - PICK)
        elif phase == "brisingamens":
            self.queue.pop(0)
            self.discard[value - PICK] -= 1
            items = self._card_items(s, value - PICK)
            if arg > 1:  # READING: the first card is resolved before the second pick
                items.append(["brisingamens", s, arg - 1])
            self.queue[:0] = items
        elif phase == "holda":  # not the camp visit (TV §4.2)
            self.queue.pop(0)
            self.camp.remove(value - CAMP)
            # READING: the card's items, then ``recruit s`` as after any camp card.
            self.queue[:0] = self._camp_card(s, value - CAMP) + [["recruit", s, 0]]
        elif phase == "khrad":
            self.queue.pop(0)
            if value < TRANSFORM_HAND:
                self._transform_slot(s, value - TRANSFORM_SLOT, 10)
            else:
                self._transform_hand(s, value - TRANSFORM_HAND, 10)
        elif phase == "olwyn":
            self.queue.pop(0)
            column = value - COLUMN
            items = []
            if self._enter(s, DOUBLE_ENTRIES[0 if arg < 0 else 1], column):
                items.append(["thrud", s, 0])
            items.append(["recruit", s, 0])
            if arg < 0:  # READING: the first double's thrud / recruit come before the second double
                items.append(["olwyn", s, column])
            self.queue[:0] = items
        elif phase == "vidofnir":
            code = value - VIDOFNIR_COIN
            single = sum(1 for c in seat.hand if c not in TRADING_COINS) == 1
            if arg < 0 and not single:
                item[2] = self._transform_hand(s, code, 2)  # READING: f is the new coin's code
            else:
                self.queue.pop(0)
                self._transform_hand(s, code, 5 if single and arg < 0 else 3)
        elif phase == "bris_column":
            if arg == 0:  # READING: the item's argument becomes 1 + the chosen column for the ``remove``
                item[2] = 1 + value - DISCARD
            else:
                self.queue.pop(0)
                self._remove_entry(s, arg - 1, value - REMOVE)
        elif phase == "hofud":
            self.queue.pop(0)
            self._remove_entry(s, WARRIOR, value - REMOVE)

    def _card_items(self, s: int, kind: int) -> list[list[Any]]:
        """Andumia / Brisingamens: a card of the discard pile resolved as if recruited (TV §5)."""
        items: list[list[Any]] = []
        if kind < NUM_DWARF_KINDS:
            if self._enter(s, kind, KIND_CLASS[kind]):
                items.append(["thrud", s, 0])
            items.append(["recruit", s, 0])
        else:
            items.append(["transform", s, KIND_OFFERING[kind]])
        return items

    def _remove_entry(self, s: int, column: int, entry: int) -> None:
        """Hofud / Brisingamens: the topmost such entry of the column leaves the army."""
        cards = self.seats[s].army[column]
        cards.pop(len(cards) - 1 - cards[::-1].index(entry))
        self._throw(entry)

    def _throw(self, entry: int) -> None:
        """A discarded army card: a Dwarf card to the discard pile; a mercenary or a double leaves the
        game (READING: the discard pile holds card kinds only)."""
        if entry < NUM_DWARF_KINDS:
            self.discard[entry] += 1

    def _take_camp(self, m: int) -> None:
        """TV §4.2: the camp card instead of a tavern card; then its effect, ``recruit s`` and the trade (and
        with 2 players the first seat's tavern discard, T3)."""
        t = self.tavern
        s = self.order[self.order_pos]
        first = self.order_pos == 0
        self.order_pos += 1
        self.camp_visited = True
        self.camp.remove(m)
        items = self._camp_card(s, m)
        items.append(["recruit", s, 0])
        if self.seats[s].bids[t] in TRADING_COINS:
            items.append(["trade", s, -1])
        # READING: the 2-player discard waits after the seat's trade (its turn is over).
        if first and self.game.players == 2 and self.game.two_player_camp_discard:
            items.append(["tavern_drop", s, 0])
        self.queue.extend(items)

    def _camp_card(self, s: int, m: int) -> list[list[Any]]:
        """TV §5: seat s takes camp card m; the automatic parts happen now, the rest is returned as items."""
        seat = self.seats[s]
        items: list[list[Any]] = []
        if m == VEGVISIR:
            if self._enter(s, VEGVISIR_ENTRY, EXPLORER):
                items.append(["thrud", s, 0])
            return items
        seat.camp_cards = sorted(seat.camp_cards + [m])
        if m == VIDOFNIR:
            items.append(["vidofnir", s, -1])
        elif m == BRISINGAMENS:
            items.append(["brisingamens", s, 2])
        elif m == GJALLARHORN:
            items.append(["forced_hero", s, 0])
        elif m == HOFUD:
            n = self.game.players
            items += [["hofud", (s + i) % n, 0] for i in range(1, n)]
        elif m == JARNGLOFI:
            self._jarnglofi(s)
        return items

    def _jarnglofi(self, s: int) -> None:
        """TV §5, T8: the trading coin is discarded at once, wherever it is; on the current tavern its trade
        is dropped; on an unresolved tavern the seat will not be in that tavern's order."""
        seat = self.seats[s]
        for code in TRADING_COINS:  # READING: the hand is looked at first, then the slots (one coin at most)
            if code in seat.hand:
                seat.hand.remove(code)
                if code in seat.shown_hand:
                    seat.shown_hand.remove(code)
                return
        for t in range(3):
            if seat.bids[t] in TRADING_COINS:
                seat.bids[t] = -1
                seat.shown_bids[t] = False
                if t == self.tavern:
                    self.queue = [item for item in self.queue if not (item[0] == "trade" and item[1] == s)]
                return

    # ----- coins (§5.6) -----

    def _take_from_treasure(self, value: int) -> int:
        """The coin of that value, else the lowest above it that is left, else the highest left."""
        left = [v for v in range(TREASURE_LOW, TREASURE_HIGH + 1) if self.treasure[v - TREASURE_LOW] > 0]
        if not left:
            raise AssertionError("the Royal Treasure is empty")  # pragma: no cover - 5 coins a seat
        above = [v for v in left if v >= value]
        chosen = min(above) if above else max(left)
        self.treasure[chosen - TREASURE_LOW] -= 1
        return treasure_code(chosen)

    def _give_back(self, code: int) -> None:
        """A Treasure coin goes back to the Treasure; a basic coin leaves the game."""
        if code >= FIRST_TREASURE_CODE:
            self.treasure[code - FIRST_TREASURE_CODE] += 1

    def _jarika(self, s: int) -> int:
        """TV §5 Jarika: +2 on every trade and transformation of her owner."""
        return 2 if self.game.thingvellir and self.seats[s].heroes[JARIKA] else 0

    def _transform_slot(self, s: int, t: int, x: int) -> None:
        seat = self.seats[s]
        old = seat.bids[t]
        new = self._take_from_treasure(COIN_VALUE[old] + x + self._jarika(s))
        self._give_back(old)
        seat.bids[t] = new
        seat.shown_bids[t] = True

    def _transform_hand(self, s: int, code: int, x: int) -> int:
        seat = self.seats[s]
        new = self._take_from_treasure(COIN_VALUE[code] + x + self._jarika(s))
        self._give_back(code)
        _remove_one(seat.hand, code)
        seat.hand = sorted(seat.hand + [new])
        # READING (interp. 12): a shown coin that is transformed is no longer in the hand, nor shown.
        if code in seat.shown_hand:
            _remove_one(seat.shown_hand, code)
        seat.shown_hand = sorted(seat.shown_hand + [new])
        return new

    def _trade(self, s: int, a: int, b: int) -> None:
        """§5.6 Trade: the sum is taken first, then the higher coin leaves (interp. 4 on equal values)."""
        seat = self.seats[s]
        new = self._take_from_treasure(COIN_VALUE[a] + COIN_VALUE[b] + self._jarika(s))
        if COIN_VALUE[a] != COIN_VALUE[b]:
            gone = a if COIN_VALUE[a] > COIN_VALUE[b] else b
            if seat.zolkur:  # TV §5 Zolkur: the lower coin leaves, once
                gone = b if gone == a else a
        else:  # READING: on equal values Zolkur changes nothing, and is used up all the same
            gone = b if coin_is_basic(b) and not coin_is_basic(a) else a
        seat.zolkur = False
        seat.hand.append(new)
        _remove_one(seat.hand, gone)
        self._give_back(gone)
        seat.hand.sort()
        seat.shown_hand = list(seat.hand)

    # ----- results (§5.10) -----

    def bravery(self, s: int) -> int:
        """§5.10: the Final Bravery Value of seat s on the position as it stands."""
        seat = self.seats[s]
        total = 0
        r = seat.ranks(BLACKSMITH, with_thrud=False)
        total += r * (r + 5) // 2
        r = seat.ranks(HUNTER, with_thrud=False)
        total += r * r
        total += seat.points(EXPLORER)
        if seat.heroes[IDUNN]:
            total += 2 * seat.ranks(EXPLORER, with_thrud=False)
        total += seat.points(MINER) * seat.ranks(MINER, with_thrud=False)
        total += seat.points(WARRIOR)
        warriors = [other.ranks(WARRIOR, with_thrud=False) for other in self.seats]
        best = max(warriors)
        if warriors[s] == best and (best >= 1 or self.game.warrior_bonus_at_zero):
            total += seat.highest_coin()
        total += DWERG_POINTS[min(seat.heroes[DWERG], 5)]
        for h in (SKAA, GRID, ULINE, THRUD):
            if seat.heroes[h]:
                total += HERO_POINTS[h]
        if seat.heroes[ASTRID]:
            total += seat.highest_coin()
        total += sum(COIN_VALUE[code] for code in seat.coins())
        if seat.gem == 6:
            total += 3
        if self.game.thingvellir:
            total += self._tv_bravery(s)
        return total

    def _tv_bravery(self, s: int) -> int:
        """TV §2, §5: the six heroes' points and the artefacts' (Vegvisir and the mercenaries score in their
        columns above)."""
        seat = self.seats[s]
        total = sum(
            TV_HERO_POINTS[h - NUM_HEROES] for h in range(NUM_HEROES, NUM_ALL_HEROES) if seat.heroes[h]
        )
        cards = seat.camp_cards
        if DRAUPNIR in cards:
            total += 6 * sum(1 for code in seat.coins() if COIN_VALUE[code] >= 15)
        if MEGINGJORD in cards:
            total += 28
        if SVALINN in cards:
            total += 5 * sum(seat.heroes)
        if HRAFNSMERKI in cards:
            total += 5 * seat.mercenaries_owned()
        if JARNGLOFI in cards:
            total += 24
        if MJOLLNIR in cards:  # T10: the best class
            total += 2 * max(seat.ranks(j, with_thrud=False) for j in range(NUM_CLASSES))
        return total

    def scores(self) -> list[float]:
        return [float(self.bravery(s)) for s in range(self.game.players)]

    def returns(self) -> list[float]:
        n = self.game.players
        if self.phase != "over":
            return [0.0] * n
        values = [self.bravery(s) for s in range(n)]
        best = max(values)
        winners = [s for s in range(n) if values[s] == best]
        return [1.0 / len(winners) if s in winners else 0.0 for s in range(n)]

    def history(self) -> list[int]:
        return list(self.actions)

    def clone(self) -> NidavellirState:
        return NidavellirState(
            game=self.game,
            seats=[seat.copy() for seat in self.seats],
            decks=[list(deck) for deck in self.decks],
            treasure=list(self.treasure),
            heroes_left=list(self.heroes_left),
            reveal=list(self.reveal),
            age=self.age,
            turn=self.turn,
            tavern=self.tavern,
            revealed=self.revealed,
            bid_start=self.bid_start,
            pioneer_at=self.pioneer_at,
            uline_bidder=self.uline_bidder,
            taverns=[list(tavern) for tavern in self.taverns],
            discard=list(self.discard),
            drawn=list(self.drawn),
            distinctions=list(self.distinctions),
            order=list(self.order),
            order_pos=self.order_pos,
            queue=[list(item) for item in self.queue],
            phase=self.phase,
            actions=list(self.actions),
            camp=list(self.camp),
            camp_deck=list(self.camp_deck),
            camp_visited=self.camp_visited,
            enlist=list(self.enlist),
            enlist_pos=self.enlist_pos,
        )

    # ----- what is hidden (§3, §7.3) -----

    def _hidden_slots(self, q: int) -> list[int]:
        seat = self.seats[q]
        return [t for t in range(self.revealed, 3) if seat.bids[t] >= 0 and not seat.shown_bids[t]]

    def _slot_visible(self, observer: int, q: int, t: int) -> bool:
        return observer == q or t < self.revealed or self.seats[q].shown_bids[t]

    def resample_from_infostate(self, player: object, rng: object = None) -> NidavellirState:
        """§7.3: the other seats' hidden coins redealt, then the Pioneer's draws if p is not the Pioneer."""
        observer = self._check_seat(player)
        twin = self.clone()
        pioneer_hidden = self.phase in ("pioneer_draw", "pioneer_keep") and self.pioneer() != observer
        needs_rng = pioneer_hidden and sum(self.drawn) > 0
        needs_rng = needs_rng or any(self._hidden_slots(q) for q in range(self.game.players) if q != observer)
        if needs_rng and not callable(getattr(rng, "below", None)):
            raise TypeError("resample_from_infostate needs an Rng to redeal the hidden coins")
        generator = cast(RngLike, rng)
        for q in range(self.game.players):
            if q == observer:
                continue
            seat = twin.seats[q]
            slots = twin._hidden_slots(q)
            hidden_hand = _multiset_minus(seat.hand, seat.shown_hand)
            pool = sorted([seat.bids[t] for t in slots] + hidden_hand)
            for t in slots:
                seat.bids[t] = pool.pop(generator.below(len(pool)))
            seat.hand = sorted(_multiset_minus(seat.hand, hidden_hand) + pool)
        if pioneer_hidden:
            count = sum(twin.drawn)
            for k in range(NUM_KINDS):
                twin.decks[1][k] += twin.drawn[k]
                twin.drawn[k] = 0
            for _ in range(count):
                deck = twin.decks[1]
                r = generator.below(sum(deck))
                running = 0
                for k in range(NUM_KINDS):
                    running += deck[k]
                    if running > r:
                        deck[k] -= 1
                        twin.drawn[k] += 1
                        break
        return twin

    # ----- notation (§6) -----

    def _chance_words(self) -> tuple[str, dict[str, int]]:
        if self.phase == "gems":
            return "gem", {str(v): v for v in range(1, 6)}
        if self.phase == "camp_fill":  # TV §6: the outcome m, ``camp <card>``
            return "camp", {key: m for m, key in enumerate(CAMP_KEYS)}
        return "card", {key: k for k, key in enumerate(KIND_KEYS)}

    def action_to_string(self, action: object) -> str:
        value = _as_int(action)
        if self.is_chance_node():
            word, names = self._chance_words()
            for text, outcome in names.items():
                if outcome == value:
                    return f"{word} {text}"
            raise IllegalActionError(f"{GAME_NAME}: chance outcome {action!r} is out of range ({self.phase})")
        size = self.game.num_distinct_actions()
        if value is None or not 0 <= value < size:
            raise IllegalActionError(
                f"{GAME_NAME}: action {action!r} is out of range 0..{size - 1} (seat {self.current_player()})"
            )
        return _decision_text(value)

    def string_to_action(self, text: object) -> int:
        if not isinstance(text, str):
            raise InvalidNotationError(
                f"{GAME_NAME}: an action text must be a str, not {type(text).__name__}"
            )
        folded = fold_white_space(text)
        if self.is_chance_node():
            word, names = self._chance_words()
            argument = folded[len(word) + 1 :] if folded.startswith(word + " ") else folded
            if argument not in names:
                raise InvalidNotationError(f"{GAME_NAME}: cannot read chance outcome {text!r} ({self.phase})")
            return names[argument]
        ids = _TV_DECISION_IDS if self.game.thingvellir else _DECISION_IDS
        if folded not in ids:
            raise InvalidNotationError(f"{GAME_NAME}: cannot read action {text!r}")
        return ids[folded]

    # ----- observations (§7) -----

    def _check_seat(self, player: object) -> int:
        value = _as_int(player)
        if value is None or not 0 <= value < self.game.players:
            raise InvalidStateError(f"seat {player!r} out of range 0..{self.game.players - 1}")
        return value

    def _deck_seen(self, observer: int) -> list[int]:
        """The Age II deck as ``observer`` knows it: with the Pioneer's drawn cards for anyone but the Pioneer
        (interp. 13)."""
        if self.pioneer() == observer:
            return list(self.decks[1])
        return [self.decks[1][k] + self.drawn[k] for k in range(NUM_KINDS)]

    def observation_tensor(self, player: object) -> npt.NDArray[np.float32]:
        """§7.1, seats relative to the observer."""
        observer = self._check_seat(player)
        n = self.game.players
        values: list[float] = []

        def one_hot(size: int, index: int) -> list[float]:
            return [1.0 if i == index else 0.0 for i in range(size)]

        values += one_hot(len(PHASES), PHASES.index(self.phase) if self.phase in PHASES else -1)
        values += one_hot(2, self.age - 1)
        values += one_hot(4, self.turn)
        values += one_hot(3, self.tavern)
        for tavern in self.taverns:
            values += [float(c) for c in tavern]
        values += [float(c) for c in self.decks[0]]
        values += [float(c) for c in self._deck_seen(observer)]
        values += [float(c) for c in self.discard]
        values += [float(c) for c in self.treasure]
        values += [float(c) for c in self.heroes_left[:NUM_HEROES]]
        values.append(float(self.queue[0][2]) if self.phase == "transform" else 0.0)
        if self.phase == "discard":
            s = self.queue[0][1]
            front = 0
            for item in self.queue:
                if item[0] != "discard" or item[1] != s:
                    break
                front += 1
            values.append(float(front))
        else:
            values.append(0.0)
        if self.pioneer() == observer:
            values += [float(c) for c in self.drawn]
        else:
            values += [0.0] * NUM_KINDS
        acting = -1 if self.is_chance_node() or self.phase == "over" else self.current_player()
        values += one_hot(n, (acting - observer) % n if acting >= 0 else -1)
        taken = {(s - observer) % n for s in self.order[: self.order_pos]}
        values += [1.0 if i in taken else 0.0 for i in range(n)]
        for i in range(n):
            values += self._seat_features(observer, (observer + i) % n)
        if self.game.thingvellir:
            values += self._tv_features(observer)
        return np.asarray(values, dtype=np.float32)

    def _tv_features(self, observer: int) -> list[float]:
        """TV §7 tensor: 67 values, then 49 per relative seat."""
        n = self.game.players
        values = [1.0 if phase == self.phase else 0.0 for phase in TV_PHASES]
        values += [1.0 if m in self.camp else 0.0 for m in range(NUM_CAMP)]
        values += [1.0 if m in self.camp_deck else 0.0 for m in range(NUM_CAMP)]
        values.append(1.0 if self.camp_visited else 0.0)
        values += [float(c) for c in self.heroes_left[NUM_HEROES:]]
        for i in range(n):
            seat = self.seats[(observer + i) % n]
            entries = [entry for column in seat.army for entry in column]
            values += [1.0 if m in seat.camp_cards else 0.0 for m in range(NUM_CAMP)]
            values.append(1.0 if seat.zolkur else 0.0)
            values += [float(c) for c in seat.heroes[NUM_HEROES:]]
            values += [1.0 if MERC_ENTRY + merc in entries else 0.0 for merc in range(len(MERCENARIES))]
            values.append(1.0 if VEGVISIR_ENTRY in entries else 0.0)
            values += [float(sum(1 for e in seat.army[j] if e in DOUBLE_ENTRIES)) for j in range(NUM_CLASSES)]
        return values

    def _seat_features(self, observer: int, q: int) -> list[float]:
        seat = self.seats[q]
        values: list[float] = [1.0 if seat.gem == v else 0.0 for v in range(1, 7)]
        owned = [0.0] * NUM_COINS
        for code in seat.coins():
            owned[code] += 1.0
        values += owned
        for t in range(3):
            slot = [0.0] * (NUM_COINS + 1)
            code = seat.bids[t]
            if code >= 0:
                if self._slot_visible(observer, q, t):
                    slot[code] = 1.0
                else:
                    slot[NUM_COINS] = 1.0
            values += slot
        visible_hand = [0.0] * NUM_COINS
        for code in seat.hand if q == observer else seat.shown_hand:
            visible_hand[code] += 1.0
        values += visible_hand
        values.append(float(len(seat.hand)))
        dwarves = [0.0] * NUM_KINDS
        for column in seat.army:
            for entry in column:
                if entry < NUM_DWARF_KINDS:
                    dwarves[entry] += 1.0
        values += dwarves
        values += [float(seat.ranks(j)) for j in range(NUM_CLASSES)]
        values += [float(seat.points(j)) for j in range(NUM_CLASSES)]
        values += [float(c) for c in seat.heroes[:NUM_HEROES]]
        values.append(1.0 if any(SPECIAL_BLACKSMITH in column for column in seat.army) else 0.0)
        for place in (seat.thrud, seat.ylud):
            spot = [0.0] * 6
            if 0 <= place < NUM_CLASSES:
                spot[place] = 1.0
            elif place == COMMAND_ZONE:
                spot[5] = 1.0
            values += spot
        values += [1.0 if winner == q else 0.0 for winner in self.distinctions]
        values.append(float(self.bravery(q)))
        return values

    def observation_string(self, player: object) -> str:
        """§7.2: a readable picture of what ``player`` knows."""
        observer = self._check_seat(player)
        lines = [
            f"Nidavellir, seen by seat {observer}: age {self.age}, turn {self.turn + 1}, phase {self.phase}"
            + (f", tavern {TAVERN_KEYS[self.tavern]}" if self.tavern >= 0 else ""),
        ]
        if not self.is_terminal() and not self.is_chance_node():
            lines.append(f"to act: seat {self.current_player()}")

        def counts(pile: list[int]) -> str:
            return " ".join(f"{KIND_KEYS[k]}x{pile[k]}" for k in range(NUM_KINDS) if pile[k]) or "-"

        for t in range(3):
            lines.append(f"tavern {TAVERN_KEYS[t]}: {counts(self.taverns[t])}")
        lines.append(f"age 1 deck: {counts(self.decks[0])}")
        lines.append(f"age 2 deck: {counts(self._deck_seen(observer))}")
        lines.append(f"discard: {counts(self.discard)}")
        if self.pioneer() == observer and any(self.drawn):
            lines.append(f"drawn: {counts(self.drawn)}")
        treasure = " ".join(
            f"{v}x{self.treasure[v - TREASURE_LOW]}"
            for v in range(TREASURE_LOW, TREASURE_HIGH + 1)
            if self.treasure[v - TREASURE_LOW]
        )
        lines.append(f"treasure: {treasure or '-'}")
        heroes = " ".join(ALL_HERO_KEYS[h] for h in range(len(self.heroes_left)) if self.heroes_left[h])
        lines.append(f"heroes left: {heroes or '-'}")
        if self.game.thingvellir:  # TV §7
            camp = " ".join(CAMP_KEYS[m] for m in self.camp) or "-"
            visited = ", visited" if self.camp_visited else ""
            lines.append(f"camp: {camp} (deck {len(self.camp_deck)}{visited})")
            if self.enlist:
                lines.append("enlist: " + " ".join(str(q) for q in self.enlist) + f" (at {self.enlist_pos})")
        if self.order:
            lines.append("order: " + " ".join(str(s) for s in self.order) + f" (taken {self.order_pos})")
        for q, seat in enumerate(self.seats):
            bids = []
            for t in range(3):
                code = seat.bids[t]
                if code < 0:
                    bids.append("-")
                elif self._slot_visible(observer, q, t):
                    bids.append(COIN_KEYS[code])
                else:
                    bids.append("?")
            hand = seat.hand if q == observer else seat.shown_hand
            hidden = len(seat.hand) - len(hand)
            hand_text = " ".join(COIN_KEYS[c] for c in hand) + (" ?" * hidden)
            lines.append(
                f"seat {q}: gem {seat.gem}, coins {' '.join(COIN_KEYS[c] for c in seat.coins())}, "
                f"bids {' '.join(bids)}, hand {hand_text.strip() or '-'}, bravery {self.bravery(q)}"
            )
            for j in range(NUM_CLASSES):
                entries = " ".join(_entry_text(entry) for entry in seat.army[j]) or "-"
                lines.append(f"  {CLASS_KEYS[j]} ({seat.ranks(j)} ranks, {seat.points(j)} points): {entries}")
            owned = " ".join(
                f"{ALL_HERO_KEYS[h]}x{seat.heroes[h]}" for h in range(len(seat.heroes)) if seat.heroes[h]
            )
            won = " ".join(CLASS_KEYS[DISTINCTION_CLASSES[i]] for i in range(5) if self.distinctions[i] == q)
            lines.append(f"  heroes: {owned or '-'}; distinctions: {won or '-'}")
            if self.game.thingvellir:
                artefacts = " ".join(CAMP_KEYS[m] for m in seat.camp_cards if MERC_OF_CARD[m] < 0) or "-"
                unplaced = " ".join(CAMP_KEYS[m] for m in seat.unplaced()) or "-"
                zolkur = ", zolkur pending" if seat.zolkur else ""
                lines.append(f"  command zone: artefacts {artefacts}; mercenaries {unplaced}{zolkur}")
        return "\n".join(lines)

    def information_state_string(self, player: object) -> str:
        """§7.2: the history with the hidden bids and the Pioneer's draws written ``?``."""
        observer = self._check_seat(player)
        texts = [str(action) for action in self.actions]
        if self.bid_start >= 0:
            bidders = [s for s in range(self.game.players) if s != self.uline_bidder]
            for k in range(3 * len(bidders)):
                position = self.bid_start + k
                if position >= len(texts):
                    break
                if bidders[k // 3] != observer and k % 3 >= self.revealed:
                    texts[position] = "?"
        if self.pioneer_at >= 0 and self.pioneer() != observer:
            for position in range(self.pioneer_at, min(self.pioneer_at + 3, len(texts))):
                texts[position] = "?"
        return f"seat={observer} history=" + ",".join(texts)

    # ----- serialization (§8) -----

    def to_json_object(self) -> dict[str, object]:
        acting = self._acting_seat() if not self.is_chance_node() and self.phase != "over" else None
        obj: dict[str, object] = {
            "age": self.age,
            "bid_start": self.bid_start,
            "current": -1 if acting is None else acting,
            "decks": [list(deck) for deck in self.decks],
            "discard": list(self.discard),
            "distinctions": list(self.distinctions),
            "drawn": list(self.drawn),
            "game": GAME_NAME,
            "heroes_left": list(self.heroes_left),
            "history": list(self.actions),
            "order": list(self.order),
            "order_pos": self.order_pos,
            "params": self.game.params,
            "phase": self.phase,
            "pioneer_at": self.pioneer_at,
            "queue": [list(item) for item in self.queue],
            "reveal": list(self.reveal),
            "revealed": self.revealed,
            "seats": [
                {
                    "army": [list(column) for column in seat.army],
                    "bids": list(seat.bids),
                    "gem": seat.gem,
                    "hand": list(seat.hand),
                    "heroes": list(seat.heroes),
                    "shown_bids": list(seat.shown_bids),
                    "shown_hand": list(seat.shown_hand),
                    "thrud": seat.thrud,
                    "ylud": seat.ylud,
                }
                for seat in self.seats
            ],
            "tavern": self.tavern,
            "taverns": [list(tavern) for tavern in self.taverns],
            "treasure": list(self.treasure),
            "turn": self.turn,
            "uline_bidder": self.uline_bidder,
            "version": SERIAL_VERSION,
        }
        if self.game.thingvellir:  # TV §7
            obj["camp"] = list(self.camp)
            obj["camp_deck"] = list(self.camp_deck)
            obj["camp_visited"] = self.camp_visited
            obj["enlist"] = list(self.enlist)
            obj["enlist_pos"] = self.enlist_pos
            seats = cast(list[dict[str, object]], obj["seats"])
            for seat_obj, seat in zip(seats, self.seats, strict=True):
                seat_obj["camp_cards"] = list(seat.camp_cards)
                seat_obj["zolkur"] = seat.zolkur
        return obj

    def serialize(self) -> str:
        return json.dumps(self.to_json_object(), sort_keys=True, separators=(",", ":"))

    def __str__(self) -> str:
        mover = self.current_player()
        return self.observation_string(mover if mover >= 0 else 0)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NidavellirState) and other.serialize() == self.serialize()

    __hash__ = None  # type: ignore[assignment]  # mutable, so unhashable


# ---------------------------------------------------------------------------------------------------------
# Notation (§6)
# ---------------------------------------------------------------------------------------------------------


def _decision_text(value: int) -> str:
    if value < TAKE:
        return f"bid {COIN_KEYS[value - BID]}"
    if value < TRANSFORM_SLOT:
        return f"take {KIND_KEYS[value - TAKE]}"
    if value < TRANSFORM_HAND:
        return f"transform {TAVERN_KEYS[value - TRANSFORM_SLOT]}"
    if value < RECRUIT:
        return f"transform {COIN_KEYS[value - TRANSFORM_HAND]}"
    if value < COLUMN:
        return f"hero {HERO_KEYS[value - RECRUIT]}"
    if value < DISCARD:
        return f"column {CLASS_KEYS[value - COLUMN]}"
    if value < KEEP:
        return f"discard {CLASS_KEYS[value - DISCARD]}"
    if value < SUM:
        return f"keep {KIND_KEYS[value - KEEP]}"
    if value < CAMP:
        return f"sum {COIN_KEYS[value - SUM]}"
    return _tv_decision_text(value)


def _tv_decision_text(value: int) -> str:
    """TV §6: the texts of ids 157..355."""
    if value < PICK:
        return f"camp {CAMP_KEYS[value - CAMP]}"
    if value < TV_RECRUIT:
        return f"pick {KIND_KEYS[value - PICK]}"
    if value < ENLIST:
        return f"hero {TV_HERO_KEYS[value - TV_RECRUIT]}"
    if value < ENLIST_FIRST:
        merc, o = divmod(value - ENLIST, 2)
        return f"enlist {CAMP_KEYS[MERCENARIES[merc]]} {CLASS_KEYS[MERC_CLASSES[merc][o][0]]}"
    if value == ENLIST_FIRST:
        return "enlist first"
    if value == ENLIST_LAST:
        return "enlist last"
    if value < VIDOFNIR_COIN:
        return f"drop {KIND_KEYS[value - DROP]}"
    if value < REMOVE:
        return f"vidofnir {COIN_KEYS[value - VIDOFNIR_COIN]}"
    return f"remove {_entry_text(value - REMOVE)}"


def _entry_text(entry: int) -> str:
    """A column entry by name (TV §7: Vegvisir, ``double1`` / ``double2``, a mercenary by its key); an id
    that names no entry (READING: only in ``remove <entry>``) by its number."""
    if entry < NUM_DWARF_KINDS:
        return KIND_KEYS[entry]
    if HERO_ENTRY <= entry < HERO_ENTRY + NUM_CLASS_HEROES:
        return HERO_KEYS[entry - HERO_ENTRY]
    if MERC_ENTRY <= entry < MERC_ENTRY + len(MERCENARIES):
        return CAMP_KEYS[MERCENARIES[entry - MERC_ENTRY]]
    names = {
        SPECIAL_BLACKSMITH: "armorer",
        THRUD_ENTRY: "thrud",
        YLUD_ENTRY: "ylud",
        VEGVISIR_ENTRY: "vegvisir",
        DOUBLE_ENTRIES[0]: "double1",
        DOUBLE_ENTRIES[1]: "double2",
    }
    return names.get(entry, str(entry))


_DECISION_IDS: dict[str, int] = {_decision_text(a): a for a in range(NUM_DISTINCT_ACTIONS)}
_TV_DECISION_IDS: dict[str, int] = {_decision_text(a): a for a in range(TV_NUM_DISTINCT_ACTIONS)}


# ---------------------------------------------------------------------------------------------------------
# Deserialization (§8)
# ---------------------------------------------------------------------------------------------------------

_TOP_KEYS = frozenset(
    {
        "age",
        "bid_start",
        "current",
        "decks",
        "discard",
        "distinctions",
        "drawn",
        "game",
        "heroes_left",
        "history",
        "order",
        "order_pos",
        "params",
        "phase",
        "pioneer_at",
        "queue",
        "reveal",
        "revealed",
        "seats",
        "tavern",
        "taverns",
        "treasure",
        "turn",
        "uline_bidder",
        "version",
    }
)
_SEAT_KEYS = frozenset({"army", "bids", "gem", "hand", "heroes", "shown_bids", "shown_hand", "thrud", "ylud"})
_TV_TOP_KEYS = _TOP_KEYS | {"camp", "camp_deck", "camp_visited", "enlist", "enlist_pos"}
_TV_SEAT_KEYS = _SEAT_KEYS | {"camp_cards", "zolkur"}


_fields = StrictFields(f"{GAME_NAME}: bad serialized state: ")
_bad, _strict_pairs, _check_keys, _int_in, _bool = (
    _fields.bad,
    _fields.pairs,
    _fields.keys,
    _fields.int_in,
    _fields.boolean,
)
_list = _fields.list


def _counts(value: object, length: int, what: str, high: int = 255) -> list[int]:
    # 255: the largest count docs/rules/nidavellir.md §8 lets a pile hold (a byte in the Rust core; the game
    # has fewer than 255 of every component, so a larger count is never a reachable state).
    return [_int_in(item, 0, high, f"a count in {what}") for item in _list(value, what, length)]


def _codes(value: object, what: str) -> list[int]:
    codes = [_int_in(item, 0, NUM_COINS - 1, f"a coin in {what}") for item in _list(value, what)]
    if codes != sorted(codes):
        raise _bad(f"{what} is not in ascending order")
    return codes


def _read_queue_item(value: object, n: int, thingvellir: bool = False) -> list[Any]:
    item = _list(value, "a queue item", 3)
    word = item[0]
    words = QUEUE_WORDS + TV_QUEUE_WORDS if thingvellir else QUEUE_WORDS
    if not isinstance(word, str) or word not in words:
        raise _bad(f"unknown queue word {word!r}")
    if word in TV_QUEUE_WORDS:
        return _read_tv_queue_item(word, item, n)
    if word in SEATLESS_WORDS:
        seat = _int_in(item[1], -1, -1, f"the seat of {word}")
    else:
        seat = _int_in(item[1], 0, n - 1, f"the seat of {word}")
    if word == "transform":
        arg = _int_in(item[2], 1, 25, "the X of transform")
    elif word == "trade":
        arg = _int_in(item[2], -1, NUM_COINS - 1, "the f of trade")
    elif word == "discard":
        arg = _int_in(item[2], 0, (1 << NUM_CLASSES) - 1, "the mask of discard")
    elif word == "distinction":
        arg = _int_in(item[2], 0, NUM_CLASSES - 1, "the class of distinction")
    else:
        arg = _int_in(item[2], 0, 0, f"the argument of {word}")
    return [word, seat, arg]


def _read_tv_queue_item(word: str, item: list[Any], n: int) -> list[Any]:
    """TV §7 queue items: the seat (-1 for the seatless words) and each word's argument."""
    if word in TV_SEATLESS_WORDS:
        seat = _int_in(item[1], -1, -1, f"the seat of {word}")
    else:
        seat = _int_in(item[1], 0, n - 1, f"the seat of {word}")
    ranges = {
        "vidofnir": (-1, NUM_COINS - 1),
        "olwyn": (-1, NUM_CLASSES - 1),
        "brisingamens": (1, 2),
        "bris_end": (0, NUM_CLASSES),
    }
    low, high = ranges.get(word, (0, 0))
    return [word, seat, _int_in(item[2], low, high, f"the argument of {word}")]


def _read_seat_obj(value: object, game: NidavellirGame, index: int) -> Seat:
    tv = game.thingvellir
    obj = _check_keys(value, _TV_SEAT_KEYS if tv else _SEAT_KEYS, f"seat {index}")
    army = []
    for j, column in enumerate(_list(obj["army"], f"seat {index} army", NUM_CLASSES)):
        entries = _list(column, f"seat {index} column {j}")
        for entry in entries:
            if not valid_entry(entry, tv):
                raise _bad(f"seat {index} column {j} holds {entry!r}, not a column entry")
        army.append([cast(int, entry) for entry in entries])
    bids = [_int_in(b, -1, NUM_COINS - 1, f"seat {index} bid") for b in _list(obj["bids"], "bids", 3)]
    shown_bids = [_bool(b, f"seat {index} shown_bids") for b in _list(obj["shown_bids"], "shown_bids", 3)]
    camp_cards: list[int] = []
    zolkur = False
    if tv:
        camp_cards = _camp_list(obj["camp_cards"], f"seat {index} camp_cards")
        zolkur = _bool(obj["zolkur"], f"seat {index} zolkur")
    return Seat(
        camp_cards=camp_cards,
        zolkur=zolkur,
        gem=_int_in(obj["gem"], 0, 6, f"seat {index} gem"),
        hand=_codes(obj["hand"], f"seat {index} hand"),
        bids=bids,
        army=army,
        heroes=_counts(obj["heroes"], game.num_heroes, f"seat {index} heroes", 5),
        shown_bids=shown_bids,
        shown_hand=_codes(obj["shown_hand"], f"seat {index} shown_hand"),
        thrud=_int_in(obj["thrud"], -1, COMMAND_ZONE, f"seat {index} thrud"),
        ylud=_int_in(obj["ylud"], -1, COMMAND_ZONE, f"seat {index} ylud"),
    )


def _camp_list(value: object, what: str) -> list[int]:
    cards = [_int_in(m, 0, NUM_CAMP - 1, f"a camp card in {what}") for m in _list(value, what)]
    if cards != sorted(set(cards)):
        raise _bad(f"{what} is not in strictly ascending order")
    return cards


def _deserialize(game: NidavellirGame, text: object) -> NidavellirState:
    if not isinstance(text, str):
        raise InvalidStateError(f"{GAME_NAME}: a serialized state must be a str, not {type(text).__name__}")
    try:
        obj = json.loads(text, object_pairs_hook=_strict_pairs)
    except InvalidStateError:
        raise
    except Exception as error:  # JSONDecodeError, RecursionError, ...
        raise _bad(f"not valid JSON ({type(error).__name__})") from None
    tv = game.thingvellir
    obj = _check_keys(obj, _TV_TOP_KEYS if tv else _TOP_KEYS, "the state")
    if obj["game"] != GAME_NAME:
        raise _bad(f"game {obj['game']!r} is not {GAME_NAME!r}")
    if not _is_int(obj["version"]) or obj["version"] != SERIAL_VERSION:
        raise _bad(f"version {obj['version']!r} is not {SERIAL_VERSION}")
    if not same_params(obj["params"], game.params):
        raise _bad("params are not the game's own")
    n = game.players
    phase = obj["phase"]
    if not isinstance(phase, str) or phase not in (ALL_PHASES if tv else PHASES):
        raise _bad(f"unknown phase {phase!r}")
    history = [
        _int_in(a, 0, game.num_distinct_actions() - 1, "a history id")
        for a in _list(obj["history"], "history")
    ]
    seats = [_read_seat_obj(value, game, i) for i, value in enumerate(_list(obj["seats"], "seats", n))]
    order = [_int_in(s, 0, n - 1, "a seat in order") for s in _list(obj["order"], "order")]
    state = NidavellirState(
        game=game,
        seats=seats,
        decks=[_counts(d, NUM_KINDS, "a deck") for d in _list(obj["decks"], "decks", 2)],
        treasure=_counts(obj["treasure"], NUM_TREASURE_VALUES, "treasure"),
        heroes_left=_counts(obj["heroes_left"], game.num_heroes, "heroes_left"),
        reveal=[_int_in(v, -1, TREASURE_HIGH, "a reveal value") for v in _list(obj["reveal"], "reveal", n)],
        age=_int_in(obj["age"], 1, 2, "age"),
        turn=_int_in(obj["turn"], 0, game.turns_per_age - 1, "turn"),
        tavern=_int_in(obj["tavern"], -1, 2, "tavern"),
        revealed=_int_in(obj["revealed"], 0, 3, "revealed"),
        bid_start=_int_in(obj["bid_start"], -1, len(history), "bid_start"),
        pioneer_at=_int_in(obj["pioneer_at"], -1, len(history), "pioneer_at"),
        uline_bidder=_int_in(obj["uline_bidder"], -1, n - 1, "uline_bidder"),
        taverns=[_counts(t, NUM_KINDS, "a tavern") for t in _list(obj["taverns"], "taverns", 3)],
        discard=_counts(obj["discard"], NUM_KINDS, "discard"),
        drawn=_counts(obj["drawn"], NUM_KINDS, "drawn"),
        distinctions=[
            _int_in(d, NOT_AWARDED, n - 1, "a distinction")
            for d in _list(obj["distinctions"], "distinctions", 5)
        ],
        order=order,
        order_pos=_int_in(obj["order_pos"], 0, len(order), "order_pos"),
        queue=[_read_queue_item(item, n, tv) for item in _list(obj["queue"], "queue")],
        phase=phase,
        actions=history,
    )
    if tv:
        state.camp = _camp_list(obj["camp"], "camp")
        state.camp_deck = _camp_list(obj["camp_deck"], "camp_deck")
        state.camp_visited = _bool(obj["camp_visited"], "camp_visited")
        state.enlist = [_int_in(q, 0, n - 1, "a seat in enlist") for q in _list(obj["enlist"], "enlist")]
        state.enlist_pos = _int_in(obj["enlist_pos"], 0, max(0, len(state.enlist) - 1), "enlist_pos")
        _check_thingvellir(state)
    current = _int_in(obj["current"], -1, n - 1, "current")
    _check_consistency(state)
    _check_unreachable(state)
    expected = state.clone()
    try:
        expected._settle()
    except Exception:  # noqa: BLE001 - a state the flow cannot run is not a reachable state
        raise _bad("the state cannot be settled") from None
    if expected.serialize() != state.serialize():
        raise _bad("the phase does not match the settled queue front or the main flow")
    acting = state._acting_seat() if not state.is_chance_node() and phase != "over" else None
    if current != (-1 if acting is None else acting):
        raise _bad(f"current {current} is not the acting seat")
    if phase != "over" and not state.legal_actions():
        raise _bad("no legal action (or chance outcome) at a node that is not terminal")
    return state


def _check_consistency(state: NidavellirState) -> None:
    """The coin, hero and Thrud / Ylud refusals of §8."""
    game = state.game
    if state.phase != "over":
        for i, seat in enumerate(state.seats):
            # TV §5 Jarnglofi (T8): its owner's trading coin is discarded at once and for good.
            jarnglofi = JARNGLOFI in seat.camp_cards
            if len(seat.coins()) != (4 if jarnglofi else 5):
                raise _bad(f"seat {i} owns {len(seat.coins())} coins, not {4 if jarnglofi else 5}")
            if jarnglofi and set(TRADING_COINS) & set(seat.coins()):
                raise _bad(f"seat {i} holds a trading coin with Jarnglofi")
    held = [0] * NUM_COINS
    for i, seat in enumerate(state.seats):
        coins = seat.coins()
        for code in range(FIRST_TREASURE_CODE):
            if coins.count(code) > 1:
                raise _bad(f"seat {i} holds {COIN_KEYS[code]} twice")
        for code in coins:
            held[code] += 1
    if held[S3] > 1:
        raise _bad("s3 is held twice")
    for v in range(TREASURE_LOW, TREASURE_HIGH + 1):
        total = state.treasure[v - TREASURE_LOW] + held[treasure_code(v)]
        if total > game.treasure_counts[v - TREASURE_LOW]:
            raise _bad(f"the coin of value {v} is held more often than it exists")
    for h in range(game.num_heroes):
        if state.heroes_left[h] + sum(seat.heroes[h] for seat in state.seats) != game.hero_copies[h]:
            raise _bad(f"hero {ALL_HERO_KEYS[h]}: held and left do not add up to its copies")
    for i, seat in enumerate(state.seats):
        for entry, place, h in ((THRUD_ENTRY, seat.thrud, THRUD), (YLUD_ENTRY, seat.ylud, YLUD)):
            where = [j for j in range(NUM_CLASSES) for e in seat.army[j] if e == entry]
            if (place == -1) != (seat.heroes[h] == 0):
                raise _bad(f"seat {i}: {HERO_KEYS[h]} place does not match the heroes owned")
            if entry == YLUD_ENTRY and place == IN_HAND:
                raise _bad(f"seat {i}: Ylud is never in hand")
            expected = [place] if 0 <= place < NUM_CLASSES else []
            if where != expected:
                raise _bad(f"seat {i}: {HERO_KEYS[h]} is not exactly in the column named")
        if seat.thrud >= 0 and seat.thrud < NUM_CLASSES and seat.army[seat.thrud][-1] != THRUD_ENTRY:
            raise _bad(f"seat {i}: Thrud is covered")
    if state.tavern == -1 and (state.order or any(v != -1 for v in state.reveal)):
        raise _bad("order and reveal must be empty outside a tavern")
    bidders = [s for s in range(game.players) if state.reveal[s] >= 0] if game.thingvellir else None
    if state.order and sorted(state.order) != (bidders or list(range(game.players))):
        raise _bad("order is not a permutation of the seats")


def _check_thingvellir(state: NidavellirState) -> None:
    """TV §7 refusals: each camp card in one place and in its Age's deck, at most 5 in the camp,
    ``camp_visited`` only in a tavern, Vegvisir, the doubles and the mercenaries in their columns."""
    places = [0] * NUM_CAMP
    for m in state.camp + state.camp_deck:
        places[m] += 1
    for i, seat in enumerate(state.seats):
        for m in seat.camp_cards:
            places[m] += 1
            if m == VEGVISIR:
                raise _bad(f"seat {i} holds Vegvisir outside its Explorer column")
        entries = [entry for column in seat.army for entry in column]
        for entry in entries:
            if entry == VEGVISIR_ENTRY:
                places[VEGVISIR] += 1
            elif entry >= MERC_ENTRY:
                places[MERCENARIES[entry - MERC_ENTRY]] += 1
        doubles = [j for j in range(NUM_CLASSES) for e in seat.army[j] if e in DOUBLE_ENTRIES]
        if len(doubles) != len(set(doubles)):
            raise _bad(f"seat {i} has Olwyn's doubles in one column")
        if any(entries.count(e) > 1 for e in DOUBLE_ENTRIES) or (doubles and not seat.heroes[OLWYN]):
            raise _bad(f"seat {i} holds a double it cannot hold")
        if seat.zolkur and not seat.heroes[ZOLKUR]:
            raise _bad(f"seat {i} has the Zolkur flag without Zolkur")
    if any(count > 1 for count in places):
        raise _bad("a camp card is in two places")
    if any(CAMP_AGE[m] != state.age for m in state.camp_deck + state.camp):
        # camp_clear empties the camp of Age I before Age II begins: neither pile holds the other Age's cards.
        raise _bad("the camp or its deck holds a card of the other Age")
    if state.age == 1 and any(CAMP_AGE[m] == 2 for m in range(NUM_CAMP) if places[m]):
        raise _bad("an Age II camp card is out in Age I")
    if len(state.camp) > CAMP_SIZE:
        raise _bad("the camp holds more than 5 cards")
    if state.camp_visited and state.tavern < 0:
        raise _bad("camp_visited outside a tavern")
    if len(set(state.enlist)) != len(state.enlist):
        raise _bad("a seat is twice in the enlistment order")
    if (
        not state.queue
        and state.phase in ("bid", "uline_bid")
        and state.tavern < 0
        and len(state.camp) < CAMP_SIZE
        and state.camp_deck
        and all(bid < 0 for seat in state.seats for bid in seat.bids)
    ):
        raise _bad("the camp has room and cards to deal, but the turn has gone on to its bids")  # TV §4.1


def _column_of(entry: int) -> int | None:
    """The one column an entry may stand in, or None for Thrud and Ylud (any column)."""
    if entry < NUM_DWARF_KINDS:
        return KIND_CLASS[entry]
    if HERO_ENTRY <= entry < HERO_ENTRY + NUM_CLASS_HEROES:
        return HERO_CLASS[entry - HERO_ENTRY]
    if entry == SPECIAL_BLACKSMITH:
        return BLACKSMITH
    if entry == VEGVISIR_ENTRY:
        return EXPLORER
    return None  # Thrud, Ylud, the doubles (any column); a mercenary is checked against its two classes


def _taverns_as_played(state: NidavellirState) -> bool:
    """Each tavern holds what the turn leaves in it: c cards until it is resolved, c less the cards taken
    while it is (2 players: one left over), none once resolved; outside a turn (the gems, an Age's end) none;
    while filling, the taverns are filled in order."""
    c = state.game.cards_per_tavern
    sizes = [sum(tavern) for tavern in state.taverns]
    if state.phase == "fill":
        return sizes == sorted(sizes, reverse=True)
    if state.tavern >= 0:
        t = state.tavern
        if state.game.thingvellir:  # camp takes, the 2-player discard and Jarnglofi leave more or fewer
            return sizes[:t] == [0] * t and 0 <= sizes[t] <= c and sizes[t + 1 :] == [c] * (2 - t)
        return sizes == [0] * t + [c - state.order_pos] + [c] * (2 - t)
    return sizes == ([c] * 3 if state.phase in ("bid", "camp_fill") else [0] * 3)


def _ages_end_queued(state: NidavellirState) -> bool:
    """The end of an Age is all in the queue: ``distinction``, ``pioneer``, ``burn`` and ``age2`` only in
    Age I, ``thrud_home`` and ``end`` only in Age II, ``age2`` and ``end`` last; once Age I's distinctions
    have begun, ``age2`` is queued; ``thrud_home`` comes before an ``end``; outside a tavern a queue holds
    ``age2`` or ``end``. Otherwise the flow would run past an Age's end into a turn that has no cards."""
    words = [item[0] for item in state.queue]
    wrong_age: tuple[str, ...] = ("thrud_home", "end", "bris_end")
    if state.age == 2:
        wrong_age = ("age2", "distinction", "pioneer", "burn", "camp_clear")
    if any(word in wrong_age for word in words):
        return False
    if any(word in ("age2", "end") for word in words[:-1]):
        return False
    if state.age == 1 and any(d != NOT_AWARDED for d in state.distinctions) and "age2" not in words:
        return False
    # Outside a tavern, effects wait only at an Age's end, whose last item is ``age2`` or ``end``.
    if state.tavern == -1 and words and "age2" not in words and "end" not in words:
        if not state.game.enlist_each_turn:  # T1: else a turn's end also enlists
            return False
    if state.game.thingvellir and "age2" in words and "camp_clear" not in words:
        return False  # TV §7: Age I's end clears the camp before Age II
    if state.enlist and not any(word in ("enlist_order", "enlist") for word in words):
        return False  # TV §7: the enlistment order exists only while the enlistment runs
    return "thrud_home" not in words or "end" in words[words.index("thrud_home") :]


def _decks_last(state: NidavellirState) -> bool:
    """The decks hold the cards the rest of the game draws: 3c a turn (the turns not filled yet, and what the
    current fill still places), and in Age I the Age II deck also a card for each Pioneer or burn still to
    come (the explorer distinction not yet awarded, or a queued ``pioneer`` / ``burn``)."""
    game = state.game
    per_turn = 3 * game.cards_per_tavern
    need = (game.turns_per_age - 1 - state.turn) * per_turn
    if state.phase == "gems":
        need += per_turn
    elif state.phase == "fill":
        need += max(0, per_turn - sum(sum(tavern) for tavern in state.taverns))
    if sum(state.decks[state.age - 1]) < need:
        return False
    if state.age == 2:
        return True
    pending = int(state.distinctions[4] == NOT_AWARDED)
    pending += sum(item[0] in ("pioneer", "burn") for item in state.queue)
    return sum(state.decks[1]) + sum(state.drawn) >= game.turns_per_age * per_turn + pending


def _check_unreachable(state: NidavellirState) -> None:
    """§9 item 20: facts no game reaches, refused by both engines alike."""
    game = state.game
    for i, seat in enumerate(state.seats):
        for j, column in enumerate(seat.army):
            for entry in column:
                if _column_of(entry) not in (None, j):
                    raise _bad(f"seat {i} column {j} holds {entry}, which belongs to another column")
                if entry >= MERC_ENTRY and j not in [cls for cls, _ in MERC_CLASSES[entry - MERC_ENTRY]]:
                    raise _bad(f"seat {i} column {j} holds a mercenary of other classes")
        entries = [entry for column in seat.army for entry in column]
        for h in range(NUM_CLASS_HEROES):
            if entries.count(HERO_ENTRY + h) != seat.heroes[h]:
                raise _bad(
                    f"seat {i}: {HERO_KEYS[h]} is owned {seat.heroes[h]} times but stands in the army "
                    f"{entries.count(HERO_ENTRY + h)} times"
                )
        if entries.count(SPECIAL_BLACKSMITH) > 1:
            raise _bad(f"seat {i} holds the special Blacksmith twice")
    if sum(state.drawn) > 3:
        raise _bad("the Pioneer has drawn more than three cards")
    if any(sum(tavern) > game.cards_per_tavern for tavern in state.taverns):
        raise _bad("a tavern holds more cards than it has places")
    if state.revealed != state.tavern + 1:
        raise _bad("revealed must be the current tavern + 1 (0 outside a tavern)")
    if state.phase != "gems" and any(seat.gem == 0 for seat in state.seats):
        raise _bad("a seat has no gem outside the gem deal")
    if (state.bid_start >= 0) != (state.phase == "bid" or state.tavern >= 0):
        raise _bad("bid_start must be set exactly from the turn's bids to its end")
    if state.order:
        # The reveal is not compared with the bids: a Royal Offering may transform a bid coin after it.
        # T8: with Thingvellir a seat without a coin here is out of the order.
        seats = [s for s in range(game.players) if not game.thingvellir or state.reveal[s] >= 0]
        order = sorted(seats, key=lambda s: (-state.reveal[s], -state.seats[s].gem))
        if (not game.thingvellir and min(state.reveal) < 0) or state.order != order:
            raise _bad("order is not the revealed values' order, the gems breaking ties")
    for word, s, arg in state.queue:
        if word == "trade" and arg >= 0 and arg not in state.seats[s].hand:
            raise _bad(f"seat {s}'s trade has chosen coin {arg}, which is not in its hand")
    if not _taverns_as_played(state):
        raise _bad("the taverns do not hold the cards the turn has left in them")
    if not _ages_end_queued(state):
        raise _bad("the queue does not end the Age as the Age's end requires")
    if not _decks_last(state):
        raise _bad("the decks cannot fill the taverns for the rest of the game")
    if state.phase == "over" and (state.age != 2 or state.queue):
        raise _bad("the game is over only at the end of Age II, with nothing left to do")
    if state.phase in ("bid", "uline_bid"):
        bidder = state._acting_seat()
        if bidder is not None and not state.seats[bidder].hand:
            raise _bad(f"seat {bidder} must bid but has no coin in hand")


__all__ = ["NidavellirGame", "NidavellirState", "Seat", "normalize_params"]
