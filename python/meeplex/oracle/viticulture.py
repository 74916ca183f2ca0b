"""Viticulture Essential Edition: the pure-Python reference implementation of ``viticulture`` (2-6 seats).

Written from the contract ``docs/rules/viticulture.md`` (cited "§n"; §15 is binding and overrides earlier
sections), the BGA game-help page and the structured card facts. The components are read from
``meeplex/data/viticulture.json``.

Plain and slow on purpose. The table is one JSON-shaped dict, exactly the snapshot of §15.4. The play between
two snapshot points (a *unit*: a wake, a turn, a fall draw, a hand-limit discard, the winter reservations) is
a Python generator that yields each decision or chance node and receives the chosen id; a clone or a
deserialized state replays the unit's ids from its snapshot. Where the contract was open, the reading is
marked ``READING`` here and was noted in ``docs/rules/viticulture_readings_oracle.md`` (each disagreement with
the Rust core since settled by the rules document's §15.8).
"""

from __future__ import annotations

import json
import operator
from collections.abc import Generator, Mapping
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

GAME_NAME = "viticulture"
SERIAL_VERSION = 1
RESAMPLE_TRIES = 32  # §10: redeals tried before the state itself is returned
CHANCE = -1
TERMINAL = -4

# ---------------------------------------------------------------------------------------------------------
# §2 Components, from the data file
# ---------------------------------------------------------------------------------------------------------


def _load_data() -> dict[str, Any]:
    text = importlib_resources.files("meeplex").joinpath("data/viticulture.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


_DATA = _load_data()
VINES: list[dict[str, Any]] = _DATA["vines"]
ORDERS: list[dict[str, Any]] = _DATA["orders"]
SUMMER: list[dict[str, Any]] = _DATA["summer"]
WINTER: list[dict[str, Any]] = _DATA["winter"]
MAMAS: list[dict[str, Any]] = _DATA["mamas"]
PAPAS: list[dict[str, Any]] = _DATA["papas"]
STRUCTURES: list[dict[str, Any]] = _DATA["structures"]
FIELD_VALUES: list[int] = _DATA["fields"]
STRUCT_COST = [s["cost"] for s in STRUCTURES]
STRUCT_KEYS = [s["key"] for s in STRUCTURES]
TRELLIS, IRRIGATION, YOKE, WINDMILL, TASTING, MEDIUM, LARGE, COTTAGE = range(8)
VINE_VALUE = [v["red"] + v["white"] for v in VINES]

NUM_KINDS = 121
ORDER0, SUMMER0, WINTER0 = 9, 45, 83
VINE_DECK, SUMMER_DECK, ORDER_DECK, WINTER_DECK = range(4)  # the snapshot's deck order
DECK_WORDS = ("vine", "summer", "order", "winter")
WINE_TYPES = ("red", "white", "blush", "sparkling")
WINE_LETTERS = "rwbs"
COLOURS = ("red", "white")
HAND_LIMIT = 7
TRAIN_COST = 4
SEASON_CAP = 14
QUEEN_W = next(w for w, c in enumerate(WINTER) if c["key"] == "queen")

ACTION_KEYS: tuple[str, ...] = (
    "vine",
    "tour",
    "build",
    "visit_s",
    "sell",
    "plant",
    "order",
    "harvest",
    "train",
    "visit_w",
    "wine",
)
ACTION_KEYS = (*ACTION_KEYS, "fill")
SUMMER_ACTIONS = range(0, 6)
WINTER_ACTIONS = range(6, 12)
A_VINE, A_TOUR, A_BUILD, A_VISIT_S, A_SELL, A_PLANT = range(6)
A_ORDER, A_HARVEST, A_TRAIN, A_VISIT_W, A_WINE, A_FILL = range(6, 12)
PHASES = ("setup", "spring", "summer", "fall", "winter", "year_end", "over")


def kind_key(k: int) -> str:
    if k < ORDER0:
        return str(VINES[k]["key"])
    if k < SUMMER0:
        return f"order{k - ORDER0 + 1}"
    if k < WINTER0:
        return str(SUMMER[k - SUMMER0]["key"])
    return str(WINTER[k - WINTER0]["key"])


def kind_deck(k: int) -> int:
    """The deck (snapshot order vine, summer, order, winter) of card kind k."""
    return _KIND_DECK[k] if 0 <= k < NUM_KINDS else VINE_DECK


def _kind_deck(k: int) -> int:
    if k < ORDER0:
        return VINE_DECK
    if k < SUMMER0:
        return ORDER_DECK
    if k < WINTER0:
        return SUMMER_DECK
    return WINTER_DECK


def _copy_table(table: dict[str, Any]) -> dict[str, Any]:
    """A deep copy of the JSON-shaped table (faster than ``copy.deepcopy``)."""
    result: dict[str, Any] = json.loads(json.dumps(table))
    return result


def visitor_of(k: int) -> dict[str, Any]:
    return SUMMER[k - SUMMER0] if k < WINTER0 else WINTER[k - WINTER0]


_KIND_DECK = [_kind_deck(k) for k in range(NUM_KINDS)]
KINDS_OF_DECK = [[k for k in range(NUM_KINDS) if _KIND_DECK[k] == d] for d in range(4)]
KIND_COPIES = [v["count"] for v in VINES] + [1] * (NUM_KINDS - ORDER0)

# ---------------------------------------------------------------------------------------------------------
# §7 Action ids
# ---------------------------------------------------------------------------------------------------------

MAMA_ID, PAPA_ID, GIFT, LIRA = 0, 18, 36, 37
WAKE = 38
PLACE = 45
PLACE_J = (("plain", 0), ("plain", 1), ("bonus", 0), ("bonus", 1), ("over", 1))  # (space word, kind)
PLACE_LIRA, PLACE_YOKE = 105, 107
PASS, DONE, ACCEPT, DECLINE = 109, 110, 111, 112
OPTION, BOTH, DRAW = 113, 116, 117
CARD, PLAY, FILL, PLANT, VINE, HARVEST = 121, 242, 318, 354, 381, 408
SELL_FIELD, BUY_FIELD, BUILD, GRAPE, WINE = 411, 414, 417, 425, 443
MAKE_R, MAKE_W, MAKE_B, MAKE_S = 479, 488, 497, 578
SEAT, PILE, RETRIEVE, TAKE = 902, 908, 912, 940
NUM_DISTINCT_ACTIONS = 946
MAX_CHANCE_OUTCOMES = 163
DEAL_MAMA, DEAL_PAPA, FIRST = 121, 139, 157
OBS_SIZE = 3002
SEAT_BLOCK = 279

SPARKLING_PAIRS = [(r1, r2) for r1 in range(2, 10) for r2 in range(1, r1)]


def _decision_texts() -> list[str]:
    t: list[str] = []
    t += [f"mama {m['key']}" for m in MAMAS]
    t += [f"papa {p['key']}" for p in PAPAS]
    t += ["gift", "lira"]
    t += [f"wake {r}" for r in range(1, 8)]
    for a in ACTION_KEYS:
        t += [f"place {a} plain r", f"place {a} plain g", f"place {a} bonus r", f"place {a} bonus g"]
        t += [f"place {a} over g"]
    t += ["place lira r", "place lira g", "place yoke r", "place yoke g", "pass", "done", "accept", "decline"]
    t += ["option a", "option b", "option c", "both"]
    t += [f"draw {w}" for w in ("vine", "summer", "order", "winter")]
    t += [f"card {kind_key(k)}" for k in range(NUM_KINDS)]
    t += [f"play {c['key']}" for c in SUMMER] + [f"play {c['key']}" for c in WINTER]
    t += [f"fill {o + 1}" for o in range(36)]
    t += [f"plant {v['key']} {f}" for v in VINES for f in FIELD_VALUES]
    t += [f"vine {v['key']} {f}" for v in VINES for f in FIELD_VALUES]
    t += [f"harvest {f}" for f in FIELD_VALUES]
    t += [f"sell field {f}" for f in FIELD_VALUES]
    t += [f"buy field {f}" for f in FIELD_VALUES]
    t += [f"build {k}" for k in STRUCT_KEYS]
    t += [f"grape {c}{v}" for c in "rw" for v in range(1, 10)]
    t += [f"wine {c}{v}" for c in WINE_LETTERS for v in range(1, 10)]
    t += [f"make r{v}" for v in range(1, 10)] + [f"make w{v}" for v in range(1, 10)]
    t += [f"make b{r}+{w}" for r in range(1, 10) for w in range(1, 10)]
    t += [f"make s{r1}+{r2}+{w}" for r1, r2 in SPARKLING_PAIRS for w in range(1, 10)]
    t += [f"seat {i}" for i in range(6)]
    t += [f"pile {w}" for w in ("vine", "summer", "order", "winter")]
    spaces = [*ACTION_KEYS, "lira", "yoke"]
    t += [f"retrieve {sp} {k}" for sp in spaces for k in "rg"]
    t += [f"take {ACTION_KEYS[a]}" for a in SUMMER_ACTIONS]
    assert len(t) == NUM_DISTINCT_ACTIONS, len(t)
    return t


DECISION_TEXTS = _decision_texts()
_DECISION_IDS = {text: i for i, text in enumerate(DECISION_TEXTS)}
CHANCE_TEXTS = (
    [f"draws {kind_key(k)}" for k in range(NUM_KINDS)]
    + [f"deal mama {m['key']}" for m in MAMAS]
    + [f"deal papa {p['key']}" for p in PAPAS]
    + [f"first {s}" for s in range(6)]
)
_CHANCE_IDS = {text: i for i, text in enumerate(CHANCE_TEXTS)}
# Pile/draw/deck words in id order (vine, summer, order, winter) are the snapshot deck indices.

# ---------------------------------------------------------------------------------------------------------
# §3 Parameters
# ---------------------------------------------------------------------------------------------------------

DEFAULT_PARAMS: dict[str, Any] = {
    "players": 2,
    "parents_dealt": 2,
    "end_rule": "reached",
    "target_vp": 20,
    "max_years": 20,
    "friendly_bonus": False,
    "harvest_expert": "record",
    "promoter": "vp_residual",
    "queen": "on",
    "importer": "escrow",
}
_INT_RANGES = {"players": (2, 6), "parents_dealt": (1, 2), "target_vp": (10, 40), "max_years": (1, 100)}
_WORDS = {
    "end_rule": ("reached", "year_end"),
    "harvest_expert": ("record", "harvest_both"),
    "promoter": ("vp_residual", "vp_only"),
    "queen": ("on", "off"),
    "importer": ("escrow", "draw"),
}


def _as_int(value: object) -> int | None:
    if isinstance(value, (bool, np.bool_)):
        return None
    try:
        return operator.index(cast(SupportsIndex, value))
    except TypeError:
        return None


def normalize_params(given: Mapping[str, object]) -> dict[str, Any]:
    for key in given:
        if key not in DEFAULT_PARAMS:
            raise InvalidStateError(f"{GAME_NAME}: unknown parameter {key!r}")
    params: dict[str, Any] = {}
    for key, (low, high) in _INT_RANGES.items():
        value = given.get(key, DEFAULT_PARAMS[key])
        if not _is_int(value):
            raise InvalidStateError(f"{GAME_NAME}: parameter {key!r} must be an int, got {value!r}")
        if not low <= value <= high:
            raise InvalidStateError(f"{GAME_NAME}: {key} must be in {low}..{high}, got {value}")
        params[key] = int(value)
    value = given.get("friendly_bonus", False)
    if not isinstance(value, bool):
        raise InvalidStateError(f"{GAME_NAME}: parameter 'friendly_bonus' must be a bool, got {value!r}")
    params["friendly_bonus"] = value
    for key, words in _WORDS.items():
        value = given.get(key, DEFAULT_PARAMS[key])
        if not isinstance(value, str) or value not in words:
            raise InvalidStateError(f"{GAME_NAME}: parameter {key!r} must be one of {words}, got {value!r}")
        params[key] = value
    return dict(sorted(params.items()))


# ---------------------------------------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------------------------------------


class ViticultureGame:
    """Viticulture Essential Edition with one set of parameters (§3)."""

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
        p = self._params
        self.players: int = p["players"]
        self.plain_spaces = 2 if self.players >= 5 else 1
        self.bonus_spaces = 0 if self.players == 2 else 1

    @property
    def params(self) -> dict[str, Any]:
        return dict(self._params)

    def num_players(self) -> int:
        return self.players

    def num_distinct_actions(self) -> int:
        return NUM_DISTINCT_ACTIONS

    def max_chance_outcomes(self) -> int:
        return MAX_CHANCE_OUTCOMES

    def max_game_length(self) -> int:
        """§15.6."""
        n = self.players
        return int(self._params["max_years"]) * (1700 * n + 150) + 10 * n + 10

    def observation_shape(self) -> tuple[int, ...]:
        return (OBS_SIZE,)

    def initial_table(self) -> dict[str, Any]:
        n = self.players
        decks = [[0] * NUM_KINDS for _ in range(4)]
        for k in range(NUM_KINDS):
            decks[kind_deck(k)][k] = KIND_COPIES[k]
        if self._params["queen"] == "off":
            decks[WINTER_DECK][WINTER0 + QUEEN_W] = 0
        seats: list[dict[str, Any]] = [
            {
                "vp": 0,
                "lira": 0,
                "residual": 0,
                "regular": 2,
                "trained": 0,
                "grande_placed": False,
                "regular_placed": 0,
                "structures": [False] * 8,
                "fields": [
                    {"owned": True, "vines": [0] * 9, "harvested": False, "over": False} for _ in range(3)
                ],
                "crush": {"red": [False] * 9, "white": [False] * 9},
                "cellar": {t: [False] * 9 for t in WINE_TYPES},
                "hand": [0] * NUM_KINDS,
                "known": [[0] * NUM_KINDS for _ in range(n)],
                "windmill_used": False,
                "tasting_used": False,
                "yoke": -1,
                "dealt": [[], []],
                "mama": -1,
                "papa": -1,
                "gift_taken": None,
            }
            for _ in range(n)
        ]
        return {
            "phase": "setup",
            "year": 1,
            "first": 0,
            "turn_seat": -1,
            "rows": [0] * n,
            "passed": [False] * n,
            "placements": [0] * n,
            "temp": -1,
            "decks": decks,
            "discards": [[], [], [], []],
            "board": [[] for _ in ACTION_KEYS],
            "cart": [[0, 0] for _ in range(n)],
            "planned": [],
            "end_flag": False,
            "seats": seats,
        }

    def new_initial_state(self) -> ViticultureState:
        state = ViticultureState(self, self.initial_table())
        state._begin_unit()
        return state

    def deserialize_state(self, text: object) -> ViticultureState:
        return _deserialize(self, text)

    def __str__(self) -> str:
        return game_string(GAME_NAME, self._params)

    def __repr__(self) -> str:
        return f"ViticultureGame({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ViticultureGame) and other._params == self._params

    def __hash__(self) -> int:
        return hash(str(self))


# ---------------------------------------------------------------------------------------------------------
# The state
# ---------------------------------------------------------------------------------------------------------


class Req:
    """A node: a decision of ``player`` among ``legal`` ids, or a chance node (player -1) with ``weights``.
    ``seen`` is the mask of seats that learn the chosen id (0 = public)."""

    __slots__ = ("legal", "player", "seen", "weights")

    def __init__(
        self, player: int, legal: list[int], weights: list[tuple[int, int]] | None, seen: int
    ) -> None:
        self.player = player
        self.legal = legal
        self.weights = weights
        self.seen = seen


Flow = Generator[Req, int, Any]


class ViticultureState:
    def __init__(self, game: ViticultureGame, table: dict[str, Any]) -> None:
        self.game = game
        self.n = game.players
        self.T = table
        self.snap: dict[str, Any] | None = None
        self.turn: list[int] = []
        self.actions: list[int] = []
        self.seen: list[int] = []
        self.texts: list[str] | None = []  # None: the texts before the snapshot are not known yet
        self.gen: Flow | None = None
        self.req: Req | None = None
        self.in_play: list[int] = []  # visitor kinds being resolved (innermost last)
        self.pending_draws = 0

    # ----- the unit driver -----

    def _begin_unit(self) -> None:
        while True:
            self._check_end_flag()
            t = self.T
            self.snap = None if t["phase"] == "setup" else _copy_table(t)
            self.turn = []
            self.in_play = []
            if t["phase"] == "over":
                self.gen = None
                self.req = None
                return
            self.gen = self._unit()
            try:
                self.req = next(self.gen)
                return
            except StopIteration:
                continue

    def _step(self, action: int) -> None:
        assert self.gen is not None and self.req is not None
        # A hidden decision hides which card is given; declining to give (Importer's `done`) changes no
        # hand, and the hands' type counts are public (§10), so it is seen by all.
        public = self.req.player >= 0 and not CARD <= action < CARD + NUM_KINDS
        self.seen.append(0 if public else self.req.seen)
        if self.texts is not None:
            self.texts.append(self._text(action))
        self.actions.append(action)
        self.turn.append(action)
        try:
            self.req = self.gen.send(action)
            self._check_end_flag()
        except StopIteration:
            self._begin_unit()

    def _check_end_flag(self) -> None:
        if self.game._params["end_rule"] == "reached":
            if any(s["vp"] >= self.game._params["target_vp"] for s in self.T["seats"]):
                self.T["end_flag"] = True

    # ----- node helpers (generators) -----

    def _ask(self, seat: int, legal: list[int], seen: int = 0) -> Flow:
        choice = yield Req(seat, sorted(set(legal)), None, seen)
        return choice

    def _can_draw(self, deck: int, extra: int = 0) -> bool:
        t = self.T
        return bool(sum(t["decks"][deck]) + len(t["discards"][deck]) > extra)

    def _reveal(self, deck: int, seen: int) -> Flow:
        """§8 a deck draw: the chance node, the card leaves the deck; None if nothing can be drawn."""
        t = self.T
        if sum(t["decks"][deck]) == 0:
            if not t["discards"][deck]:
                return None
            for k in t["discards"][deck]:
                t["decks"][deck][k] += 1
            t["discards"][deck] = []
        weights = [(k, c) for k, c in enumerate(t["decks"][deck]) if c > 0]
        k = yield Req(CHANCE, [w[0] for w in weights], weights, seen)
        t["decks"][deck][k] -= 1
        return k

    def _draw(self, s: int, deck: int) -> Flow:
        k = yield from self._reveal(deck, 1 << s)
        if k is not None:
            self.T["seats"][s]["hand"][k] += 1
        return k

    # ----- small rules -----

    def S(self, s: int) -> dict[str, Any]:
        return cast(dict[str, Any], self.T["seats"][s])

    def _vp(self, s: int, delta: int) -> None:
        seat = self.S(s)
        seat["vp"] = max(-5, seat["vp"] + delta)
        self._check_end_flag()

    def _residual(self, s: int, delta: int) -> None:
        seat = self.S(s)
        seat["residual"] = max(0, min(5, seat["residual"] + delta))

    def _wake_order(self) -> list[int]:
        rows = self.T["rows"]
        return sorted(range(self.n), key=lambda s: (rows[s] == 0, rows[s], s))

    def _after(self, s: int) -> list[int]:
        order = self._wake_order()
        i = order.index(s)
        return order[i + 1 :] + order[:i]

    def _clockwise_from_first(self) -> list[int]:
        f = self.T["first"]
        return [(f + i) % self.n for i in range(self.n)]

    def _hand_remove_public(self, s: int, k: int) -> None:
        self.S(s)["hand"][k] -= 1
        for p in range(self.n):
            known = self.S(p)["known"][s]
            if known[k] > 0:
                known[k] -= 1

    def _hand_add_public(self, s: int, k: int) -> None:
        self.S(s)["hand"][k] += 1
        for p in range(self.n):
            if p != s:
                self.S(p)["known"][s][k] += 1

    def _discard(self, k: int) -> None:
        self.T["discards"][kind_deck(k)].append(k)

    def _give(self, giver: int, receiver: int, k: int, to_escrow: bool = False) -> None:
        """A card leaves ``giver``'s hand towards ``receiver``, seen by both only (§15.4 known cards)."""
        self.S(giver)["hand"][k] -= 1
        deck = kind_deck(k)
        for p in range(self.n):
            known = self.S(p)["known"][giver]
            if p in (giver, receiver):
                if known[k] > 0:
                    known[k] -= 1
            else:
                for j in range(NUM_KINDS):
                    if kind_deck(j) == deck:
                        known[j] = 0
        if not to_escrow:
            self.S(receiver)["hand"][k] += 1
            self.S(giver)["known"][receiver][k] += 1

    def _top(self, s: int) -> int:
        st = self.S(s)["structures"]
        return 9 if st[LARGE] else 6 if st[MEDIUM] else 3

    def _wines(self, s: int) -> list[tuple[int, int]]:
        cellar = self.S(s)["cellar"]
        return [(t, v) for t in range(4) for v in range(1, 10) if cellar[WINE_TYPES[t]][v - 1]]

    def _grapes(self, s: int) -> list[tuple[int, int]]:
        crush = self.S(s)["crush"]
        return [(c, v) for c in range(2) for v in range(1, 10) if crush[COLOURS[c]][v - 1]]

    def _place_grape(self, s: int, c: int, v: int) -> None:
        pad = self.S(s)["crush"][COLOURS[c]]
        while v >= 1 and pad[v - 1]:
            v -= 1
        if v >= 1:
            pad[v - 1] = True

    def _workers_left(self, s: int) -> tuple[int, bool]:
        seat = self.S(s)
        regular = seat["regular"] + (1 if self.T["temp"] == s else 0) - seat["regular_placed"]
        return regular, not seat["grande_placed"]

    def _age_tokens(self, slots: list[bool], cap_of: Any) -> None:
        for v in range(8, 0, -1):  # value v (1..8), highest first
            if slots[v - 1] and not slots[v] and v + 1 <= cap_of(v):
                slots[v - 1] = False
                slots[v] = True

    def _age_wines(self, s: int) -> None:
        top = self._top(s)

        def cap(v: int) -> int:
            tier = 3 if v <= 3 else 6 if v <= 6 else 9
            return max(top, tier)

        for t in WINE_TYPES:
            self._age_tokens(self.S(s)["cellar"][t], cap)

    def _field_total(self, s: int, f: int) -> int:
        vines = self.S(s)["fields"][f]["vines"]
        return sum(VINE_VALUE[v] * vines[v] for v in range(9))

    # ----- legality pieces -----

    def _plant_ids(self, s: int, ignore_structures: bool = False, ignore_limit: bool = False) -> list[int]:
        seat = self.S(s)
        ids = []
        for v in range(9):
            if seat["hand"][v] == 0:
                continue
            if not ignore_structures and not all(seat["structures"][r] for r in VINES[v]["requires"]):
                continue
            for f in range(3):
                field = seat["fields"][f]
                if not field["owned"] or field["over"]:
                    continue
                if not ignore_limit and self._field_total(s, f) + VINE_VALUE[v] > FIELD_VALUES[f]:
                    continue
                ids.append(PLANT + 3 * v + f)
        return ids

    def _plant(self, s: int, action: int, ctx: dict[str, Any] | None = None) -> None:
        v, f = divmod(action - PLANT, 3)
        seat = self.S(s)
        self._hand_remove_public(s, v)
        field = seat["fields"][f]
        field["vines"][v] += 1
        if self._field_total(s, f) > FIELD_VALUES[f]:
            field["over"] = True
        if seat["structures"][WINDMILL] and not seat["windmill_used"]:
            seat["windmill_used"] = True
            self._vp(s, 1)
        if ctx is not None:
            ctx["planted"] = (v, f)

    def _uproot_ids(self, s: int) -> list[int]:
        fields = self.S(s)["fields"]
        return [VINE + 3 * v + f for f in range(3) for v in range(9) if fields[f]["vines"][v] > 0]

    def _uproot(self, s: int, action: int) -> None:
        v, f = divmod(action - VINE, 3)
        field = self.S(s)["fields"][f]
        field["vines"][v] -= 1
        if field["over"] and self._field_total(s, f) <= FIELD_VALUES[f]:
            field["over"] = False
        self._hand_add_public(s, v)

    def _harvest_ids(self, s: int) -> list[int]:
        fields = self.S(s)["fields"]
        return [
            HARVEST + f
            for f in range(3)
            if fields[f]["owned"] and not fields[f]["harvested"] and sum(fields[f]["vines"]) > 0
        ]

    def _harvest(self, s: int, action: int) -> None:
        f = action - HARVEST
        field = self.S(s)["fields"][f]
        red = sum(VINES[v]["red"] * field["vines"][v] for v in range(9))
        white = sum(VINES[v]["white"] * field["vines"][v] for v in range(9))
        if red > 0:
            self._place_grape(s, 0, red)
        if white > 0:
            self._place_grape(s, 1, white)
        field["harvested"] = True

    def _build_ids(
        self,
        s: int,
        discount: int = 0,
        free: bool = False,
        allowed: list[int] | None = None,
        extra: int = 0,
    ) -> list[int]:
        seat = self.S(s)
        ids = []
        for i in range(8):
            if seat["structures"][i] or (i == LARGE and not seat["structures"][MEDIUM]):
                continue
            if allowed is not None and STRUCT_COST[i] not in allowed:
                continue
            cost = 0 if free else max(0, STRUCT_COST[i] - discount)
            if cost <= seat["lira"] + extra:
                ids.append(BUILD + i)
        return ids

    def _build(self, s: int, action: int, discount: int = 0, free: bool = False) -> int:
        i = action - BUILD
        seat = self.S(s)
        seat["lira"] -= 0 if free else max(0, STRUCT_COST[i] - discount)
        seat["structures"][i] = True
        return i

    def _wine_slot(self, s: int, t: int, total: int, min_value: int = 1, ignore_cellar: bool = False) -> int:
        cap = 9 if ignore_cellar else self._top(s)
        v = min(total, cap)
        low = max(min_value, 4 if t == 2 else 7 if t == 3 else 1)
        slots = self.S(s)["cellar"][WINE_TYPES[t]]
        while v >= low and slots[v - 1]:
            v -= 1
        return v if v >= low else 0

    def _make_options(self, s: int, min_value: int = 1, ignore_cellar: bool = False) -> dict[int, Any]:
        """Every legal ``make`` id: (wine type, value, grapes used as (colour, value))."""
        seat = self.S(s)
        red = [v for v in range(1, 10) if seat["crush"]["red"][v - 1]]
        white = [v for v in range(1, 10) if seat["crush"]["white"][v - 1]]
        out: dict[int, Any] = {}
        for v in red:
            w = self._wine_slot(s, 0, v, min_value, ignore_cellar)
            if w:
                out[MAKE_R + v - 1] = (0, w, [(0, v)])
        for v in white:
            w = self._wine_slot(s, 1, v, min_value, ignore_cellar)
            if w:
                out[MAKE_W + v - 1] = (1, w, [(1, v)])
        if seat["structures"][MEDIUM]:
            for r in red:
                for wv in white:
                    if r + wv >= 4:
                        w = self._wine_slot(s, 2, r + wv, min_value, ignore_cellar)
                        if w:
                            out[MAKE_B + 9 * (r - 1) + wv - 1] = (2, w, [(0, r), (1, wv)])
        if seat["structures"][LARGE]:
            for i, (r1, r2) in enumerate(SPARKLING_PAIRS):
                if r1 in red and r2 in red:
                    for wv in white:
                        if r1 + r2 + wv >= 7:
                            w = self._wine_slot(s, 3, r1 + r2 + wv, min_value, ignore_cellar)
                            if w:
                                out[MAKE_S + 9 * i + wv - 1] = (3, w, [(0, r1), (0, r2), (1, wv)])
        return out

    def _make(self, s: int, recipe: Any) -> int:
        t, w, grapes = recipe
        seat = self.S(s)
        for c, v in grapes:
            seat["crush"][COLOURS[c]][v - 1] = False
        seat["cellar"][WINE_TYPES[t]][w - 1] = True
        return int(t)

    def _order_picks(self, wines: list[tuple[int, int]], reqs: list[list[int]]) -> bool:
        """Can the requirements be met by distinct wines (type equal, value >= min)?"""
        if not reqs:
            return True
        t, low = reqs[0]
        for i, (wt, wv) in enumerate(wines):
            if wt == t and wv >= low and self._order_picks(wines[:i] + wines[i + 1 :], reqs[1:]):
                return True
        return False

    def _fill_ids(self, s: int) -> list[int]:
        hand = self.S(s)["hand"]
        wines = self._wines(s)
        return [
            FILL + o
            for o in range(36)
            if hand[ORDER0 + o] > 0 and self._order_picks(wines, ORDERS[o]["requires"])
        ]

    def _can_age_any(self, s: int) -> bool:
        return bool(self._wines(s))

    def _count(self, s: int, what: Any, ctx: dict[str, Any]) -> int:
        if isinstance(what, int):
            return what
        seat = self.S(s)
        fields = seat["fields"]
        if what == "2*empty_owned_fields":
            return 2 * sum(1 for f in fields if f["owned"] and sum(f["vines"]) == 0)
        if what == "planted_owned_fields":
            return sum(1 for f in fields if f["owned"] and sum(f["vines"]) > 0)
        if what == "cards_in_hand":
            return int(sum(seat["hand"]))
        if what == "built_structures_cost_eq_4":
            return sum(1 for i in range(8) if seat["structures"][i] and STRUCT_COST[i] == 4)
        if what == "opponents_with_6_workers":
            return sum(
                1 for q in range(self.n) if q != s and self.S(q)["regular"] + self.S(q)["trained"] + 1 == 6
            )
        if what == "sparkling_made":
            return int(ctx.get("types_made", []).count(3))
        if what == "distinct_wine_types_made":
            return len(set(ctx.get("types_made", [])))
        raise AssertionError(what)

    def _condition(self, s: int, cond: str, ctx: dict[str, Any]) -> bool:
        seat = self.S(s)
        if cond == "built_cost_ge_5":
            return any(STRUCT_COST[i] >= 5 for i in ctx.get("built", []))
        if cond == "discarded_wine_strictly_highest":
            return bool(ctx.get("wine_highest", False))
        if cond == "harvested_3":
            return int(ctx.get("harvested", 0)) == 3
        if cond == "vp_negative":
            return bool(seat["vp"] < 0)
        if cond == "vp_nonnegative":
            return bool(seat["vp"] >= 0)
        if cond == "structures_ge_6":
            return bool(sum(seat["structures"]) >= 6)
        if cond == "workers_eq_6":
            return bool(seat["regular"] + seat["trained"] + 1 == 6)
        if cond == "planted_value_4":
            planted = ctx.get("planted")
            return planted is not None and VINE_VALUE[planted[0]] == 4
        if cond == "field_3_kinds":
            planted = ctx.get("planted")
            return planted is not None and sum(1 for c in seat["fields"][planted[1]]["vines"] if c > 0) >= 3
        if cond == "planted_vines_ge_6":
            return sum(sum(f["vines"]) for f in seat["fields"]) >= 6
        raise AssertionError(cond)

    # ----- §15.3 feasibility of a step -----

    def _upgrade_price(self, s: int, price: Any) -> int | None:
        st = self.S(s)["structures"]
        if st[LARGE]:
            return None
        nxt = LARGE if st[MEDIUM] else MEDIUM
        if price == "regular":
            return int(STRUCT_COST[nxt])
        if price == "regular-2":
            return max(0, int(STRUCT_COST[nxt]) - 2)
        return int(price)

    def _switch_pairs(self, s: int) -> list[tuple[int, int]]:
        fields = self.S(s)["fields"]
        out = []
        for f in range(3):
            for v in range(9):
                if fields[f]["vines"][v] == 0:
                    continue
                for g in range(3):
                    if g == f:
                        continue
                    for w in range(9):
                        if fields[g]["vines"][w] == 0:
                            continue
                        tf = self._field_total(s, f) - VINE_VALUE[v] + VINE_VALUE[w]
                        tg = self._field_total(s, g) - VINE_VALUE[w] + VINE_VALUE[v]
                        if tf <= FIELD_VALUES[f] and tg <= FIELD_VALUES[g]:
                            out.append((VINE + 3 * v + f, VINE + 3 * w + g))
        return out

    def _retrievable(self, s: int) -> list[int]:
        t = self.T
        ids = set()
        for a in range(12):
            if a == A_VISIT_S:
                continue
            for kind in range(2):
                if self._free_workers_on(s, a, kind):
                    ids.add(RETRIEVE + 2 * a + kind)
        for kind in range(2):
            if t["cart"][s][kind] > 0:
                ids.add(RETRIEVE + 24 + kind)
        if self.S(s)["yoke"] >= 0:
            ids.add(RETRIEVE + 26 + self.S(s)["yoke"])
        return sorted(ids)

    def _free_workers_on(self, s: int, a: int, kind: int) -> list[int]:
        """Indices in ``board[a]`` of ``s``'s workers of ``kind`` that are not reserved by Planner (§14.12: a
        reserved worker is on a future action), latest placed last. Reserved workers are the seat's earliest
        entries of their space and kind on that action: nothing is placed on a winter action before winter."""
        t = self.T
        entries = [i for i, e in enumerate(t["board"][a]) if e[0] == s and e[2] == kind]
        reserved = sum(1 for e in t["planned"] if e[0] == s and e[1] == ACTION_KEYS[a] and e[3] == kind)
        return entries[reserved:]

    def _plan_ids(self, s: int) -> list[int]:
        regular, grande = self._workers_left(s)
        ids = []
        for a in WINTER_ACTIONS:
            ids += self._space_ids(s, a, regular > 0, grande, check_action=False)
        return ids

    def _step_ok(self, s: int, st: dict[str, Any]) -> bool:
        op = st["op"]
        seat = self.S(s)
        if op in ("gain", "draw", "if", "age_all_wine"):
            return True
        if op == "pay":
            return bool(
                seat["lira"] >= st.get("lira", 0)
                and seat["vp"] - st.get("vp", 0) >= -5
                and seat["residual"] >= st.get("residual", 0)
            )
        if op == "plant":
            if st["min"] == 0:
                return True
            return bool(
                self._plant_ids(s, st.get("ignore_structures", False), st.get("ignore_field_limit", False))
            )
        if op == "build_structure":
            if st.get("optional"):
                return True
            ids = self._build_ids(s, st.get("discount", 0), st.get("free", False), st.get("allowed_costs"))
            if not ids:
                return False
            if st["n"] == 2:
                unbuilt = sum(1 for i in range(8) if not seat["structures"][i])
                return unbuilt >= 2
            return True
        if op == "build_specific":
            return not seat["structures"][st["structure"]] and seat["lira"] >= st["price"]
        if op == "harvest":
            return bool(self._harvest_ids(s))
        if op == "make_wine":
            if st["min"] == 0:
                return True
            return bool(self._make_options(s, st.get("min_value", 1), st.get("ignore_cellar", False)))
        if op == "fill_order":
            return bool(self._fill_ids(s))
        if op == "discard_cards":
            hand = seat["hand"]
            eligible = sum(hand[k] for k in range(NUM_KINDS) if st["kind"] == "any" or k >= SUMMER0)
            return bool(eligible >= st["n"])
        if op == "discard_hand":
            return bool(sum(seat["hand"]) >= 1)
        if op == "discard_wine":
            return any(v >= st.get("min_value", 1) for _, v in self._wines(s))
        if op == "discard_grape":
            return bool(self._grapes(s))
        if op == "discard_grape_or_wine":
            return bool(self._grapes(s) or self._wines(s))
        if op == "place_grape":
            crush = seat["crush"]
            if st["color"] == "choice":
                return not crush["red"][0] or not crush["white"][0]
            return not crush[st["color"]][0]
        if op == "switch_vines":
            return bool(self._switch_pairs(s))
        if op == "uproot_and_discard_vines":
            return bool(sum(sum(f["vines"]) for f in seat["fields"]) >= st["n"])
        if op == "train_worker":
            return bool(seat["regular"] + seat["trained"] < 5 and seat["lira"] >= st["price_lira"])
        if op == "upgrade_cellar_one_level":
            price = self._upgrade_price(s, st["price"])
            return price is not None and seat["lira"] >= price
        if op == "age_wine":
            return bool(self._wines(s))
        if op == "take_discard_tops":
            return sum(1 for pile in self.T["discards"] if pile) >= 2
        if op == "reveal_each_deck_keep":
            return sum(1 for d in range(4) if self._can_draw(d)) >= 2
        if op == "plan_future_action":
            return bool(self._plan_ids(s))
        if op == "retrieve_own_workers":
            return seat["lira"] >= 2 and bool(self._retrievable(s))
        if op == "move_rooster_take_bonus_then_pass":
            return any(r not in self.T["rows"] for r in range(1, 8))
        if op == "take_previous_season_action":
            return any(self._can_take(s, a, False) for a in SUMMER_ACTIONS)
        raise AssertionError(op)

    def _option_ok(self, s: int, option: dict[str, Any]) -> bool:
        return all(self._step_ok(s, st) for st in option["steps"])

    def _playable(self, s: int, k: int) -> bool:
        """§15.3, with the card already out of the hand (it is in play while it resolves)."""
        hand = self.S(s)["hand"]
        hand[k] -= 1
        try:
            return self._playable_out(s, k)
        finally:
            hand[k] += 1

    def _playable_out(self, s: int, k: int) -> bool:
        card = visitor_of(k)
        special = card["special"]
        seat = self.S(s)
        if special == "wedding_party":
            return bool(seat["lira"] >= 2)
        if special == "queen":
            q = self.S((s - 1) % self.n)
            return bool(q["vp"] >= -4 or sum(q["hand"]) >= 2 or q["lira"] >= 3)
        if special is not None:
            return True
        if card["key"] == "harvest_expert" and self.game._params["harvest_expert"] == "harvest_both":
            return bool(self._harvest_ids(s))
        options = card["options"]
        ok = [self._option_ok(s, o) for o in options]
        mode = card["mode"]
        if mode == "all":
            return ok[0]
        if mode == "choose_2_different":
            return sum(ok) >= 2
        return any(ok)

    def _visitor_ids(self, s: int, winter: bool) -> list[int]:
        hand = self.S(s)["hand"]
        low, high = (WINTER0, NUM_KINDS) if winter else (SUMMER0, WINTER0)
        return [PLAY + k - SUMMER0 for k in range(low, high) if hand[k] > 0 and self._playable(s, k)]

    # ----- §9.1 board actions -----

    def _can_take(self, s: int, a: int, bonus: bool) -> bool:
        seat = self.S(s)
        extra = 1 if bonus else 0
        if a == A_VINE:
            return self._can_draw(VINE_DECK)
        if a == A_TOUR:
            return True
        if a == A_BUILD:
            return bool(self._build_ids(s, extra=extra))
        if a == A_VISIT_S:
            return bool(self._visitor_ids(s, False))
        if a == A_SELL:
            return bool(self._sell_ids(s))
        if a == A_PLANT:
            return bool(self._plant_ids(s))
        if a == A_ORDER:
            return self._can_draw(ORDER_DECK)
        if a == A_HARVEST:
            return bool(self._harvest_ids(s))
        if a == A_TRAIN:
            return bool(seat["lira"] + extra >= TRAIN_COST and seat["regular"] + seat["trained"] < 5)
        if a == A_VISIT_W:
            return bool(self._visitor_ids(s, True))
        if a == A_WINE:
            return bool(self._make_options(s))
        return bool(self._fill_ids(s))

    def _sell_ids(self, s: int, grapes_only: bool = False) -> list[int]:
        seat = self.S(s)
        ids = [GRAPE + 9 * c + v - 1 for c, v in self._grapes(s)]
        if grapes_only:
            return ids
        for f in range(3):
            field = seat["fields"][f]
            if field["owned"] and sum(field["vines"]) == 0:
                ids.append(SELL_FIELD + f)
            if not field["owned"] and FIELD_VALUES[f] <= seat["lira"]:
                ids.append(BUY_FIELD + f)
        return ids

    def _occupied(self, a: int, space: int) -> int:
        t = self.T
        return sum(1 for e in t["board"][a] if e[1] == space)

    def _space_ids(self, s: int, a: int, regular: bool, grande: bool, check_action: bool = True) -> list[int]:
        g = self.game
        plain_free = self._occupied(a, 0) < g.plain_spaces
        bonus_free = g.bonus_spaces > 0 and self._occupied(a, 1) < g.bonus_spaces
        if g._params["friendly_bonus"] and plain_free:
            bonus_free = False  # READING: the friendly variant's bonus only once the plain spaces are full

        def ok(bonus: bool, kind: int) -> bool:
            return not check_action or self._can_take_placed(s, a, bonus, kind)

        base = PLACE + 5 * a
        ids = []
        if plain_free:
            ids += [base] if regular and ok(False, 0) else []
            ids += [base + 1] if grande and ok(False, 1) else []
        if bonus_free:
            ids += [base + 2] if regular and ok(True, 0) else []
            ids += [base + 3] if grande and ok(True, 1) else []
        all_full = not plain_free and (g.bonus_spaces == 0 or self._occupied(a, 1) >= g.bonus_spaces)
        if grande and all_full and ok(False, 1):
            ids.append(base + 4)
        return ids

    def _can_take_placed(self, s: int, a: int, bonus: bool, kind: int) -> bool:
        """Can the action be carried out once this worker stands on it (a visitor such as Planner counts the
        workers left after this one)?"""
        if a not in (A_VISIT_S, A_VISIT_W):
            return self._can_take(s, a, bonus)
        seat = self.S(s)
        saved = (seat["regular_placed"], seat["grande_placed"])
        if kind == 1:
            seat["grande_placed"] = True
        else:
            seat["regular_placed"] += 1
        try:
            return self._can_take(s, a, bonus)
        finally:
            seat["regular_placed"], seat["grande_placed"] = saved

    def _yoke_ids(self, s: int) -> list[int]:
        return self._uproot_ids(s) + self._harvest_ids(s)

    def _place_ids(self, s: int) -> list[int]:
        regular, grande = self._workers_left(s)
        seat = self.S(s)
        season = SUMMER_ACTIONS if self.T["phase"] == "summer" else WINTER_ACTIONS
        ids = []
        for a in season:
            ids += self._space_ids(s, a, regular > 0, grande)
        if regular > 0:
            ids.append(PLACE_LIRA)
        if grande:
            ids.append(PLACE_LIRA + 1)
        if seat["structures"][YOKE] and seat["yoke"] < 0 and self._yoke_ids(s):
            if regular > 0:
                ids.append(PLACE_YOKE)
            if grande:
                ids.append(PLACE_YOKE + 1)
        return ids

    # ----- units -----

    def _unit(self) -> Flow:
        t = self.T
        phase = t["phase"]
        if phase == "setup":
            yield from self._setup()
        elif phase == "spring":
            yield from self._wake_unit(t["turn_seat"])
        elif phase in ("summer", "winter") and t["turn_seat"] >= 0:
            yield from self._turn_unit(t["turn_seat"])
        elif phase == "winter":
            yield from self._reservations()
        elif phase == "fall":
            yield from self._fall_unit(t["turn_seat"])
        elif phase == "year_end":
            yield from self._hand_limit_unit(t["turn_seat"])

    def _setup(self) -> Flow:
        """§5."""
        t = self.T
        n, dealt_n = self.n, self.game._params["parents_dealt"]
        first = yield Req(CHANCE, list(range(FIRST, FIRST + n)), [(FIRST + s, 1) for s in range(n)], 0)
        t["first"] = first - FIRST
        order = self._clockwise_from_first()
        used_m: set[int] = set()
        used_p: set[int] = set()
        for s in order:
            for _ in range(dealt_n):
                left = [DEAL_MAMA + m for m in range(18) if m not in used_m]
                m = (yield Req(CHANCE, left, [(x, 1) for x in left], 0)) - DEAL_MAMA
                used_m.add(m)
                self.S(s)["dealt"][0] = sorted([*self.S(s)["dealt"][0], m])
            for _ in range(dealt_n):
                left = [DEAL_PAPA + p for p in range(18) if p not in used_p]
                p = (yield Req(CHANCE, left, [(x, 1) for x in left], 0)) - DEAL_PAPA
                used_p.add(p)
                self.S(s)["dealt"][1] = sorted([*self.S(s)["dealt"][1], p])
        for s in order:
            seat = self.S(s)
            seat["mama"] = (yield from self._ask(s, [MAMA_ID + m for m in seat["dealt"][0]])) - MAMA_ID
            seat["papa"] = (yield from self._ask(s, [PAPA_ID + p for p in seat["dealt"][1]])) - PAPA_ID
        for s in order:
            mama = MAMAS[self.S(s)["mama"]]
            for word, deck in (("vine", VINE_DECK), ("summer", SUMMER_DECK), ("order", ORDER_DECK)):
                for _ in range(mama[word]):
                    yield from self._draw(s, deck)
            for _ in range(mama["winter"]):
                yield from self._draw(s, WINTER_DECK)
            self.S(s)["lira"] += mama["lira"]
        for s in order:  # READING: every papa's base lira before the first choice
            self.S(s)["lira"] += PAPAS[self.S(s)["papa"]]["lira"]
        for s in order:
            seat = self.S(s)
            papa = PAPAS[seat["papa"]]
            choice = yield from self._ask(s, [GIFT, LIRA])
            seat["gift_taken"] = choice == GIFT
            if choice == LIRA:
                seat["lira"] += papa["gift_lira"]
            elif papa["gift"] == "worker":
                seat["regular"] += 1
            elif papa["gift"] == "vp":
                self._vp(s, 1)
            else:
                seat["structures"][papa["gift"]] = True
        t["phase"] = "spring"
        t["turn_seat"] = t["first"]

    def _row_bonus(self, s: int, row: int) -> Flow:
        """§6.1 the wake-up bonus."""
        t = self.T
        if row == 2:
            yield from self._draw(s, VINE_DECK)
        elif row == 3:
            yield from self._draw(s, ORDER_DECK)
        elif row == 4:
            self.S(s)["lira"] += 1
        elif row == 5:
            ids = [DRAW + d for d in (SUMMER_DECK, WINTER_DECK) if self._can_draw(d)]
            if ids:
                choice = yield from self._ask(s, ids)
                yield from self._draw(s, choice - DRAW)
        elif row == 6:
            self._vp(s, 1)
        elif row == 7 and t["temp"] < 0:
            t["temp"] = s

    def _wake_unit(self, s: int) -> Flow:
        t = self.T
        a = yield from self._ask(s, [WAKE + r - 1 for r in range(1, 8) if r not in t["rows"]])
        row = a - WAKE + 1
        t["rows"][s] = row
        yield from self._row_bonus(s, row)
        rest = [q for q in self._clockwise_from_first() if t["rows"][q] == 0]
        if rest:
            t["turn_seat"] = rest[0]
        else:
            self._begin_season("summer")

    def _begin_season(self, phase: str) -> None:
        t = self.T
        t["phase"] = phase
        t["passed"] = [False] * self.n
        t["placements"] = [0] * self.n
        if phase == "winter" and t["planned"]:
            rows = t["rows"]
            t["planned"] = sorted(t["planned"], key=lambda e: rows[e[0]])  # stable: then order placed
            t["turn_seat"] = -1
            return
        self._next_turn(None)

    def _next_turn(self, after: int | None) -> None:
        t = self.T
        order = self._wake_order()
        start = 0 if after is None else order.index(after) + 1
        for i in range(self.n):
            s = order[(start + i) % self.n]
            if t["passed"][s]:
                continue
            regular, grande = self._workers_left(s)
            if (regular <= 0 and not grande) or t["placements"][s] >= SEASON_CAP:
                t["passed"][s] = True
                continue
            t["turn_seat"] = s
            return
        self._end_season()

    def _end_season(self) -> None:
        t = self.T
        if t["phase"] == "summer":
            t["phase"] = "fall"
            t["passed"] = [False] * self.n
            self._next_fall(None)
        else:
            self._year_end()

    def _next_fall(self, after: int | None) -> None:
        t = self.T
        order = self._wake_order()
        start = 0 if after is None else order.index(after) + 1
        for s in order[start:]:
            if self._can_draw(SUMMER_DECK) or self._can_draw(WINTER_DECK):
                t["turn_seat"] = s
                return
        self._begin_season("winter")

    def _fall_unit(self, s: int) -> Flow:
        ids = [DRAW + d for d in (SUMMER_DECK, WINTER_DECK) if self._can_draw(d)]
        first = yield from self._ask(s, ids)
        choices = [first - DRAW]
        if self.S(s)["structures"][COTTAGE]:
            ids = [
                DRAW + d for d in (SUMMER_DECK, WINTER_DECK) if self._can_draw(d, choices.count(d))
            ]  # READING: the second choice needs a second card there
            if ids:
                choices.append((yield from self._ask(s, ids)) - DRAW)
        for d in choices:
            yield from self._draw(s, d)
        self._next_fall(s)

    def _turn_unit(self, s: int) -> Flow:
        t = self.T
        a = yield from self._ask(s, [*self._place_ids(s), PASS])
        if a == PASS:
            t["passed"][s] = True
        else:
            t["placements"][s] += 1
            yield from self._do_place(s, a)
        self._next_turn(s)

    def _put_worker(self, s: int, kind: int) -> None:
        seat = self.S(s)
        if kind == 1:
            seat["grande_placed"] = True
        else:
            seat["regular_placed"] += 1

    def _do_place(self, s: int, a: int) -> Flow:
        t = self.T
        seat = self.S(s)
        if a in (PLACE_LIRA, PLACE_LIRA + 1):
            kind = a - PLACE_LIRA
            self._put_worker(s, kind)
            t["cart"][s][kind] += 1
            seat["lira"] += 1
            return
        if a in (PLACE_YOKE, PLACE_YOKE + 1):
            kind = a - PLACE_YOKE
            self._put_worker(s, kind)
            seat["yoke"] = kind
            choice = yield from self._ask(s, self._yoke_ids(s))
            if choice >= HARVEST:
                self._harvest(s, choice)
            else:
                self._uproot(s, choice)
            return
        act, j = divmod(a - PLACE, 5)
        word, kind = PLACE_J[j]
        space = ("plain", "bonus", "over").index(word)
        self._put_worker(s, kind)
        t["board"][act].append([s, space, kind])
        yield from self._board_action(s, act, space == 1, tour_room=True)

    def _repeat(self, s: int, ids_fn: Any, apply_fn: Any, most: int, least: int) -> Flow:
        """A "then more or done" sequence (§15.7): ``done`` only with at least one more legal id."""
        count = 0
        while count < most:
            ids = ids_fn()
            if not ids:
                break
            if count >= least:
                ids = [*ids, DONE]
            choice = yield from self._ask(s, ids)
            if choice == DONE:
                break
            yield from apply_fn(choice)
            count += 1
        return count

    def _board_action(self, s: int, a: int, bonus: bool, tour_room: bool = False) -> Flow:
        seat = self.S(s)
        if a in (A_VINE, A_ORDER):
            deck = VINE_DECK if a == A_VINE else ORDER_DECK
            yield from self._draw(s, deck)
            if bonus and self._can_draw(deck):
                if (yield from self._ask(s, [ACCEPT, DECLINE])) == ACCEPT:
                    yield from self._draw(s, deck)
        elif a == A_TOUR:
            if bonus:
                seat["lira"] += 1
            seat["lira"] += 2
            if tour_room and seat["structures"][TASTING] and not seat["tasting_used"] and self._wines(s):
                seat["tasting_used"] = True
                self._vp(s, 1)
        elif a == A_BUILD:
            if bonus:
                seat["lira"] += 1
            choice = yield from self._ask(s, self._build_ids(s))
            self._build(s, choice)
        elif a in (A_VISIT_S, A_VISIT_W):
            winter = a == A_VISIT_W
            yield from self._play_one(s, winter)
            if bonus:
                ids = self._visitor_ids(s, winter)
                if ids:
                    choice = yield from self._ask(s, [*ids, DONE])
                    if choice != DONE:
                        yield from self._play_visitor(s, choice)
        elif a == A_SELL:
            choice = yield from self._ask(s, self._sell_ids(s))
            if BUY_FIELD <= choice < BUY_FIELD + 3:
                f = choice - BUY_FIELD
                seat["lira"] -= FIELD_VALUES[f]
                seat["fields"][f]["owned"] = True
            elif SELL_FIELD <= choice < SELL_FIELD + 3:
                f = choice - SELL_FIELD
                seat["lira"] += FIELD_VALUES[f]
                seat["fields"][f]["owned"] = False
            else:
                self._sell_grape(s, choice)
                yield from self._repeat(
                    s, lambda: self._sell_ids(s, True), self._gen(self._sell_grape, s), 99, 0
                )
            if bonus:
                self._vp(s, 1)
        elif a == A_PLANT:
            yield from self._repeat(
                s, lambda: self._plant_ids(s), self._gen(self._plant, s), 2 if bonus else 1, 1
            )
        elif a == A_HARVEST:
            most = 2 if bonus else 1
            yield from self._repeat(s, lambda: self._harvest_ids(s), self._gen(self._harvest, s), most, 1)
        elif a == A_TRAIN:
            if bonus:
                seat["lira"] += 1
            seat["lira"] -= TRAIN_COST
            seat["trained"] += 1
        elif a == A_WINE:
            yield from self._make_seq(s, 3 if bonus else 2, 1, 1, False, {})
        elif a == A_FILL:
            yield from self._fill_seq(s, 0)
            if bonus:
                self._vp(s, 1)

    @staticmethod
    def _gen(fn: Any, s: int) -> Any:
        def run(choice: int) -> Flow:
            fn(s, choice)
            return
            yield  # pragma: no cover

        return run

    def _sell_grape(self, s: int, choice: int) -> None:
        c, v = divmod(choice - GRAPE, 9)
        self.S(s)["crush"][COLOURS[c]][v] = False
        self.S(s)["lira"] += (v + 1 + 2) // 3

    def _make_seq(
        self, s: int, most: int, least: int, min_value: int, ignore: bool, ctx: dict[str, Any]
    ) -> Flow:
        made: list[int] = ctx.setdefault("types_made", [])

        def apply(choice: int) -> Flow:
            made.append(self._make(s, self._make_options(s, min_value, ignore)[choice]))
            return
            yield  # pragma: no cover

        count = yield from self._repeat(
            s, lambda: list(self._make_options(s, min_value, ignore)), apply, most, least
        )
        return count

    def _fill_seq(self, s: int, bonus_vp: int) -> Flow:
        seat = self.S(s)
        choice = yield from self._ask(s, self._fill_ids(s))
        o = choice - FILL
        self._hand_remove_public(s, ORDER0 + o)
        reqs = ORDERS[o]["requires"]
        for i, (t, low) in enumerate(reqs):
            wines = self._wines(s)
            ids = []
            for w in wines:
                if w[0] == t and w[1] >= low:
                    rest = [x for x in wines if x != w]
                    if self._order_picks(rest, reqs[i + 1 :]):
                        ids.append(WINE + 9 * w[0] + w[1] - 1)
            pick = yield from self._ask(s, ids)
            wt, wv = divmod(pick - WINE, 9)
            seat["cellar"][WINE_TYPES[wt]][wv] = False
        self._vp(s, ORDERS[o]["vp"] + bonus_vp)
        self._residual(s, ORDERS[o]["residual"])
        self._discard(ORDER0 + o)

    # ----- visitors (§9.4, §15.3) -----

    def _play_one(self, s: int, winter: bool) -> Flow:
        choice = yield from self._ask(s, self._visitor_ids(s, winter))
        yield from self._play_visitor(s, choice)

    def _play_visitor(self, s: int, choice: int) -> Flow:
        k = choice - PLAY + SUMMER0
        self._hand_remove_public(s, k)
        self.in_play.append(k)
        yield from self._resolve(s, k)
        self.in_play.pop()
        self._discard(k)

    def _resolve(self, s: int, k: int) -> Flow:
        card = visitor_of(k)
        mode = card["mode"]
        options = card["options"]
        ctx: dict[str, Any] = {"card": card["key"]}
        if card["special"] is not None:
            yield from self._special(s, card, ctx)
            return
        if card["key"] == "harvest_expert" and self.game._params["harvest_expert"] == "harvest_both":
            h = yield from self._ask(s, self._harvest_ids(s))
            self._harvest(s, h)
            seat = self.S(s)
            ids = [OPTION]
            if not seat["structures"][YOKE] and seat["lira"] >= 1:
                ids.append(OPTION + 1)
            if (yield from self._ask(s, ids)) == OPTION:
                yield from self._draw(s, VINE_DECK)
            else:
                seat["lira"] -= 1
                seat["structures"][YOKE] = True
            return
        if card["key"] == "overseer":
            yield from self._overseer(s, options[0]["steps"], ctx)
            return
        if mode == "all":
            yield from self._steps(s, options[0]["steps"], ctx)
            return
        ok = [OPTION + i for i, o in enumerate(options) if self._option_ok(s, o)]
        if mode == "choose_1":
            pick = yield from self._ask(s, ok)
            yield from self._steps(s, options[pick - OPTION]["steps"], ctx)
        elif mode == "choose_2_different":
            pick = yield from self._ask(s, ok)
            yield from self._steps(s, options[pick - OPTION]["steps"], ctx)
            rest = [OPTION + i for i, o in enumerate(options) if OPTION + i != pick and self._option_ok(s, o)]
            if rest:  # READING: the second option's feasibility is checked when it is chosen
                second = yield from self._ask(s, rest)
                yield from self._steps(s, options[second - OPTION]["steps"], ctx)
        else:  # choose_1_or_lose_1vp_for_both
            ids = list(ok)
            if len(ok) == 2 and self.S(s)["vp"] - 1 >= -5:
                ids.append(BOTH)
            pick = yield from self._ask(s, ids)
            if pick == BOTH:
                self._vp(s, -1)
                first = yield from self._ask(s, [OPTION, OPTION + 1])
                yield from self._steps(s, options[first - OPTION]["steps"], ctx)
                yield from self._steps(s, options[1 - (first - OPTION)]["steps"], ctx)
            else:
                yield from self._steps(s, options[pick - OPTION]["steps"], ctx)

    def _overseer(self, s: int, steps: list[dict[str, Any]], ctx: dict[str, Any]) -> Flow:
        build_ids = self._build_ids(s) if self._step_ok(s, steps[0]) else []
        plant_ids = self._plant_ids(s) if self._step_ok(s, steps[1]) else []
        choice = yield from self._ask(s, build_ids + plant_ids)
        if PLANT <= choice < PLANT + 27:
            self._plant(s, choice, ctx)
            if self._step_ok(s, steps[0]):
                yield from self._run_step(s, steps[0], ctx)
        else:
            self._build(s, choice)
            ctx.setdefault("built", []).append(choice - BUILD)
            if self._step_ok(s, steps[1]):
                yield from self._run_step(s, steps[1], ctx)
        yield from self._steps(s, steps[2:], ctx)

    def _steps(self, s: int, steps: list[dict[str, Any]], ctx: dict[str, Any]) -> Flow:
        for st in steps:
            if self._reached_ok(s, st):
                yield from self._run_step(s, st, ctx)

    def _reached_ok(self, s: int, st: dict[str, Any]) -> bool:
        """§15.3: a step reached runs unless it has become impossible. Producer's "lira >= 2" stands for its
        own pay step, counted in playability and paid by now, so the retrieve then needs only a worker."""
        if st["op"] == "retrieve_own_workers":
            return bool(self._retrievable(s))
        return self._step_ok(s, st)

    def _run_step(self, s: int, st: dict[str, Any], ctx: dict[str, Any]) -> Flow:
        op = st["op"]
        seat = self.S(s)
        t = self.T
        if op == "gain":
            if "lira" in st:
                seat["lira"] += self._count(s, st["lira"], ctx)
            if "vp" in st:
                self._vp(s, self._count(s, st["vp"], ctx))
            if "residual" in st and not (
                ctx["card"] == "promoter" and self.game._params["promoter"] == "vp_only"
            ):
                self._residual(s, self._count(s, st["residual"], ctx))
        elif op == "pay":
            seat["lira"] -= st.get("lira", 0)
            self._vp(s, -st.get("vp", 0))
            self._residual(s, -st.get("residual", 0))
        elif op == "draw":
            for word, deck in (("vine", VINE_DECK), ("summer", SUMMER_DECK), ("order", ORDER_DECK)):
                for _ in range(st.get(word, 0)):
                    yield from self._draw(s, deck)
            for _ in range(st.get("winter", 0)):
                yield from self._draw(s, WINTER_DECK)
        elif op == "if":
            if self._condition(s, st["condition"], ctx):
                yield from self._steps(s, st["then"], ctx)
        elif op == "plant":
            ign_s, ign_l = st.get("ignore_structures", False), st.get("ignore_field_limit", False)

            def plant(choice: int) -> Flow:
                self._plant(s, choice, ctx)
                return
                yield  # pragma: no cover

            yield from self._repeat(s, lambda: self._plant_ids(s, ign_s, ign_l), plant, st["max"], st["min"])
        elif op == "build_structure":
            for _ in range(st["n"]):
                ids = self._build_ids(
                    s, st.get("discount", 0), st.get("free", False), st.get("allowed_costs")
                )
                if not ids:
                    break
                choice = yield from self._ask(s, ids)
                ctx.setdefault("built", []).append(
                    self._build(s, choice, st.get("discount", 0), st.get("free", False))
                )
        elif op == "build_specific":
            seat["lira"] -= st["price"]
            seat["structures"][st["structure"]] = True
        elif op == "harvest":

            def harvest(choice: int) -> Flow:
                self._harvest(s, choice)
                ctx["harvested"] = ctx.get("harvested", 0) + 1
                return
                yield  # pragma: no cover

            yield from self._repeat(
                s, lambda: self._harvest_ids(s), harvest, st["max_fields"], st["min_fields"]
            )
        elif op == "make_wine":
            yield from self._make_seq(
                s, st["max"], st["min"], st.get("min_value", 1), st.get("ignore_cellar", False), ctx
            )
        elif op == "fill_order":
            yield from self._fill_seq(s, st["bonus_vp"])
        elif op == "discard_cards":
            for _ in range(st["n"]):
                hand = seat["hand"]
                ids = [
                    CARD + k
                    for k in range(NUM_KINDS)
                    if hand[k] > 0 and (st["kind"] == "any" or k >= SUMMER0)
                ]
                if not ids:
                    break
                k = (yield from self._ask(s, ids)) - CARD
                self._hand_remove_public(s, k)
                self._discard(k)
        elif op == "discard_hand":
            for k in range(NUM_KINDS):  # READING: onto the piles in kind order
                while seat["hand"][k] > 0:
                    self._hand_remove_public(s, k)
                    self._discard(k)
        elif op in ("discard_wine", "discard_grape", "discard_grape_or_wine"):
            ids = []
            if op != "discard_wine":
                ids += [GRAPE + 9 * c + v - 1 for c, v in self._grapes(s)]
            if op != "discard_grape":
                low = st.get("min_value", 1)
                ids += [WINE + 9 * w + v - 1 for w, v in self._wines(s) if v >= low]
            choice = yield from self._ask(s, ids)
            if choice >= WINE:
                w, v = divmod(choice - WINE, 9)
                others = [
                    val
                    for q in range(self.n)
                    for (wt, val) in self._wines(q)
                    if not (q == s and wt == w and val == v + 1)
                ]
                ctx["wine_highest"] = all(v + 1 > x for x in others)
                seat["cellar"][WINE_TYPES[w]][v] = False
            else:
                c, v = divmod(choice - GRAPE, 9)
                seat["crush"][COLOURS[c]][v] = False
        elif op == "place_grape":
            if st["color"] == "choice":
                ids = [GRAPE + 9 * c for c in range(2) if not seat["crush"][COLOURS[c]][0]]
                c = ((yield from self._ask(s, ids)) - GRAPE) // 9
            else:
                c = COLOURS.index(st["color"])
            seat["crush"][COLOURS[c]][0] = True
        elif op == "switch_vines":
            pairs = self._switch_pairs(s)
            a = yield from self._ask(s, [p[0] for p in pairs])
            b = yield from self._ask(s, [p[1] for p in pairs if p[0] == a])
            (v, f), (w, g) = divmod(a - VINE, 3), divmod(b - VINE, 3)
            fields = seat["fields"]
            fields[f]["vines"][v] -= 1
            fields[g]["vines"][w] -= 1
            fields[f]["vines"][w] += 1
            fields[g]["vines"][v] += 1
            for x in (f, g):
                fields[x]["over"] = self._field_total(s, x) > FIELD_VALUES[x]
        elif op == "uproot_and_discard_vines":
            for _ in range(st["n"]):
                ids = self._uproot_ids(s)
                if not ids:
                    break
                self._uproot(s, (yield from self._ask(s, ids)))
                v = (yield from self._ask(s, [CARD + k for k in range(9) if seat["hand"][k] > 0])) - CARD
                self._hand_remove_public(s, v)
                self._discard(v)
        elif op == "train_worker":
            seat["lira"] -= st["price_lira"]
            if st["usable_this_year"]:
                seat["regular"] += 1
            else:
                seat["trained"] += 1
        elif op == "upgrade_cellar_one_level":
            price = self._upgrade_price(s, st["price"])
            assert price is not None
            seat["lira"] -= price
            seat["structures"][LARGE if seat["structures"][MEDIUM] else MEDIUM] = True
        elif op == "age_all_wine":
            for _ in range(st["times"]):
                self._age_wines(s)
        elif op == "age_wine":
            choice = yield from self._ask(s, [WINE + 9 * w + v - 1 for w, v in self._wines(s)])
            w, v = divmod(choice - WINE, 9)
            slots = seat["cellar"][WINE_TYPES[w]]
            top = self._top(s)
            tier = 3 if v + 1 <= 3 else 6 if v + 1 <= 6 else 9
            if v + 1 < 9 and not slots[v + 1] and v + 2 <= max(top, tier):
                slots[v] = False
                slots[v + 1] = True
        elif op == "take_discard_tops":
            taken: list[int] = []
            for _ in range(2):
                ids = [PILE + d for d in range(4) if t["discards"][d] and d not in taken]
                d = (yield from self._ask(s, ids)) - PILE
                taken.append(d)
                self._hand_add_public(s, t["discards"][d].pop())
        elif op == "reveal_each_deck_keep":
            revealed: list[int] = []
            for d in range(4):
                k = yield from self._reveal(d, 0)
                if k is not None:
                    revealed.append(k)
            for _ in range(st["keep"]):
                k = (yield from self._ask(s, [CARD + x for x in revealed])) - CARD
                revealed.remove(k)
                self._hand_add_public(s, k)
            for k in revealed:
                self._discard(k)
        elif op == "plan_future_action":
            choice = yield from self._ask(s, self._plan_ids(s))
            act, j = divmod(choice - PLACE, 5)
            word, kind = PLACE_J[j]
            self._put_worker(s, kind)
            space = ("plain", "bonus", "over").index(word)
            # The worker stands on the space from the moment it is reserved (§15.4 `board`); `planned` lists
            # the reservations still to resolve, the action by its key (§15.1).
            t["board"][act].append([s, space, kind])
            t["planned"].append([s, ACTION_KEYS[act], space, kind])
        elif op == "retrieve_own_workers":
            yield from self._repeat(
                s, lambda: self._retrievable(s), self._gen(self._retrieve, s), st["max"], 1
            )
        elif op == "move_rooster_take_bonus_then_pass":
            row = (
                (yield from self._ask(s, [WAKE + r - 1 for r in range(1, 8) if r not in t["rows"]]))
                - WAKE
                + 1
            )
            t["rows"][s] = row
            yield from self._row_bonus(s, row)
            t["passed"][s] = True
        elif op == "take_previous_season_action":
            a = (
                yield from self._ask(s, [TAKE + a for a in SUMMER_ACTIONS if self._can_take(s, a, False)])
            ) - TAKE
            yield from self._board_action(s, a, False)
        else:
            raise AssertionError(op)

    def _retrieve(self, s: int, choice: int) -> None:
        t = self.T
        seat = self.S(s)
        space, kind = divmod(choice - RETRIEVE, 2)
        if space == 12:
            t["cart"][s][kind] -= 1
        elif space == 13:
            seat["yoke"] = -1
        else:
            i = self._free_workers_on(s, space, kind)[-1]  # READING: the latest placed
            del t["board"][space][i]
        if kind == 1:
            seat["grande_placed"] = False
        else:
            seat["regular_placed"] -= 1

    def _special(self, s: int, card: dict[str, Any], ctx: dict[str, Any]) -> Flow:
        """§9.6 the interaction visitors."""
        key = card["special"]
        seat = self.S(s)
        t = self.T
        others = self._after(s)
        if key == "vendor":
            yield from self._steps(s, card["options"][0]["steps"], ctx)
            for q in others:
                ids = [DECLINE] + ([ACCEPT] if self._can_draw(SUMMER_DECK) else [])
                if (yield from self._ask(q, ids)) == ACCEPT:
                    yield from self._draw(q, SUMMER_DECK)
        elif key == "handyman":
            for q in [s, *others]:
                choice = yield from self._ask(q, [*self._build_ids(q, 2), DECLINE])
                if choice != DECLINE:
                    self._build(q, choice, 2)
                    if q != s:
                        self._vp(s, 1)
        elif key == "banker":
            seat["lira"] += 5
            for q in others:
                ids = [DECLINE] + ([ACCEPT] if self.S(q)["vp"] >= -4 else [])
                if (yield from self._ask(q, ids)) == ACCEPT:
                    self._vp(q, -1)
                    self.S(q)["lira"] += 3
        elif key == "swindler":
            for q in others:
                ids = [DECLINE] + ([ACCEPT] if self.S(q)["lira"] >= 2 else [])
                if (yield from self._ask(q, ids)) == ACCEPT:
                    self.S(q)["lira"] -= 2
                    seat["lira"] += 2
                else:
                    self._vp(s, 1)
        elif key == "volunteer_crew":
            for q in [s, *others]:
                choice = yield from self._ask(q, [*self._plant_ids(q), DECLINE])
                if choice != DECLINE:
                    self._plant(q, choice)
                    if q != s:
                        seat["lira"] += 2
        elif key == "wedding_party":
            chosen: list[int] = []

            def pay(choice: int) -> Flow:
                q = choice - SEAT
                chosen.append(q)
                seat["lira"] -= 2
                self.S(q)["lira"] += 2
                self._vp(s, 1)
                return
                yield  # pragma: no cover

            def wedding_ids() -> list[int]:
                return (
                    [SEAT + q for q in range(self.n) if q != s and q not in chosen]
                    if seat["lira"] >= 2
                    else []
                )

            yield from self._repeat(s, wedding_ids, pay, 3, 1)
        elif key == "importer":
            yield from self._importer(s, others)
        elif key == "queen":
            q = (s - 1) % self.n
            other = self.S(q)
            ids = []
            if other["vp"] >= -4:
                ids.append(OPTION)
            if sum(other["hand"]) >= 2:
                ids.append(OPTION + 1)
            if other["lira"] >= 3:
                ids.append(OPTION + 2)
            pick = yield from self._ask(q, ids)
            if pick == OPTION:
                self._vp(q, -1)
            elif pick == OPTION + 1:
                for _ in range(2):
                    k = (
                        yield from self._ask(
                            q,
                            [CARD + x for x in range(NUM_KINDS) if other["hand"][x] > 0],
                            (1 << q) | (1 << s),
                        )
                    ) - CARD
                    self._give(q, s, k)
            else:
                other["lira"] -= 3
                seat["lira"] += 3
        elif key == "mentor":
            made = 0
            for q in [s, *others]:
                opts = self._make_options(q)
                if not opts:
                    # READING: a seat that cannot make wine still answers (decline only)
                    yield from self._ask(q, [DECLINE])
                    continue
                choice = yield from self._ask(q, [*opts, DECLINE])
                if choice == DECLINE:
                    continue
                self._make(q, opts[choice])

                def more(c: int, q: int = q) -> Flow:
                    self._make(q, self._make_options(q)[c])
                    return
                    yield  # pragma: no cover

                yield from self._repeat(q, lambda q=q: list(self._make_options(q)), more, 1, 0)
                if q != s:
                    made += 1
            for _ in range(made):
                ids = [DRAW + d for d in (VINE_DECK, SUMMER_DECK) if self._can_draw(d)]
                if not ids:
                    break
                d = (yield from self._ask(s, ids)) - DRAW
                yield from self._draw(s, d)
        elif key == "motivator":
            for q in [s, *others]:
                if t["passed"][q] or not self._grande_retrievable(q):
                    continue
                if (yield from self._ask(q, [ACCEPT, DECLINE])) == ACCEPT:
                    self._return_grande(q)
                    if q != s:
                        self._vp(s, 1)
        elif key == "governor":
            chosen_g: list[int] = []

            def choose(choice: int) -> Flow:
                chosen_g.append(choice - SEAT)
                return
                yield  # pragma: no cover

            yield from self._repeat(
                s, lambda: [SEAT + q for q in range(self.n) if q != s and q not in chosen_g], choose, 3, 1
            )
            for q in others:
                if q not in chosen_g:
                    continue
                hand = self.S(q)["hand"]
                ids = [CARD + k for k in range(SUMMER0, WINTER0) if hand[k] > 0]
                if ids:
                    k = (yield from self._ask(q, ids, (1 << q) | (1 << s))) - CARD
                    self._give(q, s, k)
                else:
                    self._vp(s, 1)
        elif key == "guest_speaker":
            for q in [s, *others]:
                other = self.S(q)
                ok = other["lira"] >= 1 and other["regular"] + other["trained"] < 5
                if (yield from self._ask(q, [DECLINE] + ([ACCEPT] if ok else []))) == ACCEPT:
                    other["lira"] -= 1
                    other["trained"] += 1
                    if q != s:
                        self._vp(s, 1)
        else:
            raise AssertionError(key)

    def _grande_retrievable(self, q: int) -> bool:
        """Motivator's condition: q's grande stands where it can be taken back from (not a reservation)."""
        t = self.T
        return bool(
            any(self._free_workers_on(q, a, 1) for a in range(12))
            or t["cart"][q][1] > 0
            or self.S(q)["yoke"] == 1
        )

    def _return_grande(self, q: int) -> None:
        t = self.T
        for a in range(12):
            free = self._free_workers_on(q, a, 1)
            if free:
                del t["board"][a][free[-1]]
                self.S(q)["grande_placed"] = False
                return
        if t["cart"][q][1] > 0:
            t["cart"][q][1] -= 1
        elif self.S(q)["yoke"] == 1:
            self.S(q)["yoke"] = -1
        self.S(q)["grande_placed"] = False

    def _importer(self, s: int, others: list[int]) -> Flow:
        if self.game._params["importer"] == "draw":
            for _ in range(3):
                yield from self._draw(s, WINTER_DECK)
            return
        escrow: list[tuple[int, int]] = []
        for q in others:
            if len(escrow) >= 3:
                break
            hand = self.S(q)["hand"]
            first = True
            while len(escrow) < 3:
                ids = [CARD + k for k in range(SUMMER0, NUM_KINDS) if hand[k] > 0]
                if not ids:
                    break
                choice = yield from self._ask(q, [*ids, DONE], (1 << q) | (1 << s))
                first = False
                if choice == DONE:
                    break
                k = choice - CARD
                self._give(q, s, k, to_escrow=True)
                escrow.append((q, k))
            del first
        if len(escrow) == 3:
            for q, k in escrow:
                self.S(s)["hand"][k] += 1
                self.S(q)["known"][s][k] += 1
        else:
            for q, k in escrow:
                self.S(q)["hand"][k] += 1
                self.S(s)["known"][q][k] += 1
            for _ in range(3):
                yield from self._draw(s, WINTER_DECK)

    def _reservations(self) -> Flow:
        """§6.4 step 1: every reservation in order, then the winter turns."""
        t = self.T
        while t["planned"]:
            s, key, space, kind = t["planned"].pop(0)
            act = ACTION_KEYS.index(key)
            if self._can_take(s, act, space == 1):
                yield from self._board_action(s, act, space == 1, tour_room=True)
        self._next_turn(None)

    def _hand_limit_unit(self, s: int) -> Flow:
        seat = self.S(s)
        while sum(seat["hand"]) > HAND_LIMIT:
            k = (yield from self._ask(s, [CARD + x for x in range(NUM_KINDS) if seat["hand"][x] > 0])) - CARD
            self._hand_remove_public(s, k)
            self._discard(k)
        self._next_hand_limit(s)

    def _year_end(self) -> None:
        """§6.5 steps 1-3, then the hand limits."""
        t = self.T
        t["phase"] = "year_end"
        t["passed"] = [False] * self.n
        for s in range(self.n):
            self._age_wines(s)
            for c in COLOURS:
                self._age_tokens(self.S(s)["crush"][c], lambda v: 9)
        for s in range(self.n):
            seat = self.S(s)
            seat["regular_placed"] = 0
            seat["grande_placed"] = False
            seat["yoke"] = -1
            seat["regular"] += seat["trained"]
            seat["trained"] = 0
            t["cart"][s] = [0, 0]
        t["board"] = [[] for _ in ACTION_KEYS]
        t["planned"] = []
        for s in range(self.n):
            self.S(s)["lira"] += self.S(s)["residual"]
        self._next_hand_limit(None)

    def _next_hand_limit(self, after: int | None) -> None:
        t = self.T
        order = self._wake_order()
        start = 0 if after is None else order.index(after) + 1
        for s in order[start:]:
            if sum(self.S(s)["hand"]) > HAND_LIMIT:
                t["turn_seat"] = s
                return
        self._rotate()

    def _rotate(self) -> None:
        t = self.T
        params = self.game._params
        t["first"] = (t["first"] - 1) % self.n
        t["rows"] = [0] * self.n
        t["temp"] = -1
        t["passed"] = [False] * self.n
        t["placements"] = [0] * self.n
        for s in range(self.n):
            seat = self.S(s)
            seat["windmill_used"] = False
            seat["tasting_used"] = False
            for field in seat["fields"]:
                field["harvested"] = False
        over = t["year"] >= params["max_years"]
        if params["end_rule"] == "reached":
            over = over or t["end_flag"]
        else:
            over = over or any(s["vp"] >= params["target_vp"] for s in t["seats"])
        if over:
            t["phase"] = "over"
            t["turn_seat"] = -1
            return
        t["year"] += 1
        t["phase"] = "spring"
        t["turn_seat"] = t["first"]

    # ----- the public API -----

    def current_player(self) -> int:
        if self.req is None:
            return TERMINAL
        return self.req.player

    def is_terminal(self) -> bool:
        return self.req is None

    def is_chance_node(self) -> bool:
        return self.req is not None and self.req.player == CHANCE

    def legal_actions(self) -> list[int]:
        return [] if self.req is None else list(self.req.legal)

    def legal_actions_mask(self) -> npt.NDArray[np.int8]:
        size = MAX_CHANCE_OUTCOMES if self.is_chance_node() else NUM_DISTINCT_ACTIONS
        mask = np.zeros(size, dtype=np.int8)
        for a in self.legal_actions():
            mask[a] = 1
        return mask

    def chance_weights(self) -> list[tuple[int, int]]:
        if self.req is None or self.req.weights is None:
            return []
        return list(self.req.weights)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        weights = self.chance_weights()
        total = sum(w for _, w in weights)
        return [(a, w / total) for a, w in weights]

    def random_step(self, rng: RngLike) -> int:
        return random_step(self, rng)

    def apply_action(self, action: object) -> None:
        value = _as_int(action)
        if self.req is None or value is None or value not in self.req.legal:
            raise IllegalActionError(
                f"{GAME_NAME}: action {action!r} is not legal for seat {self.current_player()} in this state"
            )
        self._step(value)

    def _text(self, action: int) -> str:
        if self.is_chance_node():
            return CHANCE_TEXTS[action]
        return DECISION_TEXTS[action]

    def action_to_string(self, action: object) -> str:
        value = _as_int(action)
        size = MAX_CHANCE_OUTCOMES if self.is_chance_node() else NUM_DISTINCT_ACTIONS
        if value is None or not 0 <= value < size:
            raise IllegalActionError(f"{GAME_NAME}: action {action!r} is out of range 0..{size - 1}")
        return self._text(value)

    def string_to_action(self, text: object) -> int:
        if not isinstance(text, str):
            raise InvalidNotationError(
                f"{GAME_NAME}: an action text must be a str, not {type(text).__name__}"
            )
        folded = fold_white_space(text)
        table = _CHANCE_IDS if self.is_chance_node() else _DECISION_IDS
        if folded not in table:
            raise InvalidNotationError(f"{GAME_NAME}: cannot read action {text!r}")
        return table[folded]

    def scores(self) -> list[float]:
        return [float(s["vp"]) for s in self.T["seats"]]

    def _tie_key(self, s: int) -> tuple[int, int, int, int]:
        seat = self.S(s)
        wine = sum(v for _, v in self._wines(s))
        grape = sum(v for _, v in self._grapes(s))
        return (seat["vp"], seat["lira"], wine, grape)

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.n
        keys = [self._tie_key(s) for s in range(self.n)]
        best = max(keys)
        winners = [s for s in range(self.n) if keys[s] == best]
        return [1.0 / len(winners) if s in winners else 0.0 for s in range(self.n)]

    def history(self) -> list[int]:
        return list(self.actions)

    def _replay_from(self, table: dict[str, Any] | None, turn: list[int]) -> None:
        """Load the snapshot (or the initial table), then apply ``turn`` (raises IllegalActionError)."""
        self.T = _copy_table(table) if table is not None else self.game.initial_table()
        self._begin_unit()
        for a in turn:
            self.apply_action(a)

    def clone(self) -> ViticultureState:
        twin = ViticultureState(self.game, {})
        twin.texts = None
        twin._replay_from(self.snap, self.turn)
        twin.actions = list(self.actions)
        twin.seen = list(self.seen)
        twin.texts = None if self.texts is None else list(self.texts)
        return twin

    # ----- hidden information (§10) -----

    def _check_seat(self, player: object) -> int:
        value = _as_int(player)
        if value is None or not 0 <= value < self.n:
            raise InvalidStateError(f"seat {player!r} out of range 0..{self.n - 1}")
        return value

    def resample_from_infostate(self, player: object, rng: object = None) -> ViticultureState:
        """§10: a state consistent with what p knows, with its history. Each try redeals the live table (per
        deck type, the deck and the cards of that type p does not know in other hands, seats from p + 1, slot
        by slot, a ``below`` pick in kind order), then rewrites the unit's hidden draws backwards so that the
        unit start holds what the redeal implies, and reads that snapshot and turn back as §15.4 does. The
        first try that reads back to the redealt hands and decks, at the same node and with the same
        observation for p, is the answer; after RESAMPLE_TRIES tries, the state itself (a clone)."""
        p = self._check_seat(player)
        generator: RngLike | None = rng if callable(getattr(rng, "below", None)) else None  # type: ignore[assignment]
        want = self.observation_tensor(p).tolist()
        for _ in range(RESAMPLE_TRIES):
            table = self._redeal(p, generator)
            twin = self._rewind_to(p, table)
            if (
                twin is not None
                and twin.current_player() == self.current_player()
                and all(twin.T["seats"][q]["hand"] == table["seats"][q]["hand"] for q in range(self.n))
                and twin.T["decks"] == table["decks"]
                and twin.observation_tensor(p).tolist() == want
            ):
                # the ids before the unit are kept, and so are their texts
                prefix = len(self.actions) - len(self.turn)
                twin.texts = self._all_texts()[:prefix] + twin.clone_texts_of_turn()
                return twin
        return self.clone()

    def _redeal(self, p: int, generator: RngLike | None) -> dict[str, Any]:
        """The §10 redeal of the live table: a copy of its hands and decks only."""
        t: dict[str, Any] = {
            "decks": [list(d) for d in self.T["decks"]],
            "seats": [{"hand": list(seat["hand"]), "known": seat["known"]} for seat in self.T["seats"]],
        }
        seats = t["seats"]
        order = [(p + i) % self.n for i in range(1, self.n)]
        for deck in range(4):
            kinds = KINDS_OF_DECK[deck]
            pool = [0] * NUM_KINDS
            slots: dict[int, int] = {}
            for k in kinds:
                pool[k] += t["decks"][deck][k]
            for q in order:
                known = seats[p]["known"][q]
                unknown = 0
                for k in kinds:
                    hidden = seats[q]["hand"][k] - min(known[k], seats[q]["hand"][k])
                    pool[k] += hidden
                    seats[q]["hand"][k] -= hidden
                    unknown += hidden
                slots[q] = unknown
            if any(slots.values()) and generator is None:
                raise TypeError("resample_from_infostate needs an Rng to redeal the hidden cards")
            for q in order:
                for _ in range(slots[q]):
                    assert generator is not None
                    r = generator.below(sum(pool[k] for k in kinds))
                    running = 0
                    for k in kinds:
                        running += pool[k]
                        if running > r:
                            pool[k] -= 1
                            seats[q]["hand"][k] += 1
                            break
            for k in kinds:
                t["decks"][deck][k] = pool[k]
        return t

    def _rewind_to(self, p: int, table: dict[str, Any]) -> ViticultureState | None:
        """§10: the unit rewritten to reach ``table``'s hands, read back from its text (None if refused).
        ``delta[q][k]`` is how many more k the redealt hand of q holds than the true one. Walking the turn
        backwards, a draw of k hidden from p by q with ``delta[q][k] < 0`` becomes a draw of the lowest kind
        k' of the same deck with ``delta[q][k'] > 0`` (delta[q][k] + 1, delta[q][k'] - 1); other ids are kept.
        The unit start gets hands + delta, decks - the sum of the deltas, and every ``known`` count capped by
        the holder's new hand; during the setup the deltas must come back to zero. The snapshot and the
        rewritten turn are then loaded as ``_deserialize`` loads them."""
        n = self.n
        delta = [
            [table["seats"][q]["hand"][k] - self.T["seats"][q]["hand"][k] for k in range(NUM_KINDS)]
            for q in range(n)
        ]
        prefix = len(self.actions) - len(self.turn)
        turn = list(self.turn)
        for i in range(len(turn) - 1, -1, -1):
            a, mask = turn[i], self.seen[prefix + i]
            if mask == 0 or mask >> p & 1 or a >= CARD:
                continue
            q = mask.bit_length() - 1
            if delta[q][a] < 0:
                other = next(k for k in KINDS_OF_DECK[kind_deck(a)] if delta[q][k] > 0)
                turn[i] = other
                delta[q][a] += 1
                delta[q][other] -= 1
        start: dict[str, Any] | None = None
        if self.snap is None:
            if any(any(row) for row in delta):
                return None
        else:
            start = _copy_table(self.snap)
            seats = start["seats"]
            for q in range(n):
                for k in range(NUM_KINDS):
                    if delta[q][k]:
                        seats[q]["hand"][k] += delta[q][k]
                        start["decks"][kind_deck(k)][k] -= delta[q][k]
            for k in range(NUM_KINDS):
                if start["decks"][kind_deck(k)][k] < 0 or any(s["hand"][k] < 0 for s in seats):
                    return None
            for q in range(n):
                if any(delta[q]):  # the other hands are as they were, their known counts too
                    hand = seats[q]["hand"]
                    for r in range(n):
                        known = seats[r]["known"][q]
                        seats[r]["known"][q] = [min(a, b) for a, b in zip(known, hand, strict=True)]
        # What _deserialize does with that text, without parsing and checking the shape of a snapshot that
        # differs from a valid one only in hands, decks (the same totals) and capped known counts.
        # The twin plays on a copy: it moves its own table on, and `start` must stay the unit start it is
        # checked against below (an unsettled start, such as a planned winter visit that the redealt hand
        # cannot pay for, plays on into a later unit at the same seat).
        twin = ViticultureState(
            self.game, _copy_table(start) if start is not None else self.game.initial_table()
        )
        twin.texts = None
        try:
            twin._begin_unit()
            for a in turn:
                twin.apply_action(a)
        except IllegalActionError:
            return None
        if start is not None and not turn and twin.snap != start:
            return None
        if twin.turn != turn or twin.seen != self.seen[prefix:]:
            return None
        twin.actions = self.actions[:prefix] + turn
        twin.seen = list(self.seen)
        return twin

    # ----- observations (§15.5) -----

    def observation_tensor(self, player: object) -> npt.NDArray[np.float32]:
        p = self._check_seat(player)
        t = self.T
        n = self.n
        out: list[float] = []

        def hot(size: int, index: int) -> list[float]:
            return [1.0 if i == index else 0.0 for i in range(size)]

        for j in range(6):
            if j >= n:
                out += [0.0] * SEAT_BLOCK
                continue
            q = (p + j) % n
            seat = self.S(q)
            regular, grande = self._workers_left(q)
            block: list[float] = [seat["vp"], seat["lira"], seat["residual"]]
            block += [seat["regular"], seat["trained"], float(t["temp"] == q), regular, float(grande)]
            block += [float(b) for b in seat["structures"]]
            for field in seat["fields"]:
                block += [float(field["owned"]), float(field["harvested"]), float(field["over"])]
                block += [float(c) for c in field["vines"]]
            block += [float(b) for c in COLOURS for b in seat["crush"][c]]
            block += [float(b) for w in WINE_TYPES for b in seat["cellar"][w]]
            hand = seat["hand"]
            block += [float(sum(hand[k] for k in KINDS_OF_DECK[d])) for d in range(4)]
            block += hot(7, t["rows"][q] - 1)
            block += [float(t["passed"][q])]
            block += [float(seat["windmill_used"]), float(seat["tasting_used"]), float(seat["yoke"] >= 0)]
            block += hot(18, seat["mama"]) + hot(18, seat["papa"])
            block += [float(c) for c in (hand if q == p else self.S(p)["known"][q])]
            block += [float(t["placements"][q])]  # READING: the 279th number
            out += block
        out += [float(t["year"])]
        out += hot(7, PHASES.index(t["phase"]))
        out += hot(6, (t["first"] - p) % n)
        out += [float(sum(d)) for d in t["decks"]]
        for pile in t["discards"]:
            counts = [0.0] * NUM_KINDS
            for k in pile:
                counts[k] += 1
            out += counts
        for pile in t["discards"]:
            out += hot(NUM_KINDS, pile[-1] if pile else -1)
        for a in range(12):
            for j in range(6):
                q = (p + j) % n if j < n else -1
                for space in range(3):
                    out.append(float(sum(1 for e in t["board"][a] if e[0] == q and e[1] == space)))
        for j in range(6):
            out.append(float(sum(t["cart"][(p + j) % n])) if j < n else 0.0)
        for j in range(6):
            q = (p + j) % n if j < n else -1
            for a in WINTER_ACTIONS:
                out.append(float(sum(1 for e in t["planned"] if e[0] == q and e[1] == ACTION_KEYS[a])))
        mover = self.current_player()
        out += hot(6, (mover - p) % n if mover >= 0 else -1)
        out += [1.0 if mover == CHANCE else 0.0]
        out += hot(76, self.in_play[-1] - SUMMER0 if self.in_play else -1)
        out += [float(t["end_flag"])]
        assert len(out) == OBS_SIZE, len(out)
        return np.array(out, dtype=np.float32)

    def observation_string(self, player: object) -> str:
        p = self._check_seat(player)
        t = self.T
        lines = [
            f"viticulture seat={p} year={t['year']} phase={t['phase']} first={t['first']} "
            f"turn_seat={t['turn_seat']} current={self.current_player()} "
            f"end_flag={str(t['end_flag']).lower()}"
        ]
        for q in range(self.n):
            seat = self.S(q)
            hand = seat["hand"]
            types = ",".join(f"{DECK_WORDS[d]}:{sum(hand[k] for k in KINDS_OF_DECK[d])}" for d in range(4))
            cards = hand if q == p else seat and self.S(p)["known"][q]
            shown = ",".join(f"{kind_key(k)}x{c}" for k, c in enumerate(cards) if c > 0)
            fields = ";".join(
                f"{FIELD_VALUES[f]}:{'o' if fd['owned'] else 's'}{'h' if fd['harvested'] else ''}"
                f"{'!' if fd['over'] else ''}["
                + ",".join(f"{VINES[v]['key']}x{c}" for v, c in enumerate(fd["vines"]) if c)
                + "]"
                for f, fd in enumerate(seat["fields"])
            )
            grapes = ",".join(f"{'rw'[c]}{v}" for c, v in self._grapes(q))
            wines = ",".join(f"{WINE_LETTERS[w]}{v}" for w, v in self._wines(q))
            built = ",".join(STRUCT_KEYS[i] for i in range(8) if seat["structures"][i])
            lines.append(
                f"seat {q}: vp={seat['vp']} lira={seat['lira']} residual={seat['residual']} "
                f"row={t['rows'][q]} "
                f"passed={str(t['passed'][q]).lower()} workers={seat['regular']}+{seat['trained']} "
                f"placed={seat['regular_placed']}{'+g' if seat['grande_placed'] else ''} yoke={seat['yoke']} "
                f"mama={seat['mama']} papa={seat['papa']} dealt={seat['dealt']} built=[{built}] "
                f"fields={fields} "
                f"crush=[{grapes}] cellar=[{wines}] hand={types} cards=[{shown}]"
            )
        lines.append("decks=" + ",".join(str(sum(d)) for d in t["decks"]))
        lines.append("discards=" + ";".join(",".join(kind_key(k) for k in pile) for pile in t["discards"]))
        lines.append("board=" + json.dumps(t["board"], separators=(",", ":")) + f" cart={t['cart']}")
        lines.append(f"planned={t['planned']} temp={t['temp']}")
        if self.in_play:
            lines.append(f"in_play={kind_key(self.in_play[-1])}")
        return "\n".join(lines)

    def _all_texts(self) -> list[str]:
        if self.texts is None:
            prefix_len = len(self.actions) - len(self.turn)
            try:
                prefix = _history_texts(self.game, self.actions[:prefix_len])
            except IllegalActionError:  # a hand-made snapshot whose history does not replay: the ids
                prefix = [str(a) for a in self.actions[:prefix_len]]
            self.texts = prefix + self.clone_texts_of_turn()
        return self.texts

    def clone_texts_of_turn(self) -> list[str]:
        twin = ViticultureState(self.game, {})
        twin._replay_from(self.snap, self.turn)
        assert twin.texts is not None
        return twin.texts

    def information_state_string(self, player: object) -> str:
        p = self._check_seat(player)
        texts = self._all_texts()
        shown = []
        for a, mask, text in zip(self.actions, self.seen, texts, strict=True):
            if mask == 0 or mask >> p & 1:
                shown.append(text)
            elif text.startswith("draws "):
                shown.append(f"draws {DECK_WORDS[kind_deck(a)]}")
            else:
                shown.append(f"gives {DECK_WORDS[kind_deck(a - CARD)]}")
        return self.observation_string(p) + "\nhistory=" + ";".join(shown)

    # ----- serialization (§15.4) -----

    def to_json_object(self) -> dict[str, object]:
        return {
            "game": GAME_NAME,
            "history": list(self.actions),
            "params": self.game.params,
            "seen": list(self.seen),
            "state": self.snap,
            "turn": list(self.turn),
            "version": SERIAL_VERSION,
        }

    def serialize(self) -> str:
        return json.dumps(self.to_json_object(), sort_keys=True, separators=(",", ":"))

    def __str__(self) -> str:
        mover = self.current_player()
        return self.observation_string(mover if mover >= 0 else 0)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ViticultureState) and other.serialize() == self.serialize()

    __hash__ = None  # type: ignore[assignment]


# A few replayed states, so that the texts of a long history are rebuilt incrementally (a deserialized
# state knows its history's ids, not which of them were chance outcomes).
_REPLAYS: list[ViticultureState] = []


def _history_texts(game: ViticultureGame, actions: list[int]) -> list[str]:
    best: ViticultureState | None = None
    for cached in _REPLAYS:
        done = cached.actions
        if cached.game == game and len(done) <= len(actions) and actions[: len(done)] == done:
            if best is None or len(done) > len(best.actions):
                best = cached
    replay = best.clone() if best is not None else game.new_initial_state()
    for a in actions[len(replay.actions) :]:
        replay.apply_action(a)
    _REPLAYS.append(replay)
    del _REPLAYS[:-8]
    assert replay.texts is not None
    return list(replay.texts)


# ---------------------------------------------------------------------------------------------------------
# Deserialization (§15.4)
# ---------------------------------------------------------------------------------------------------------

_PREFIX = f"{GAME_NAME}: bad serialized state: "
_F = StrictFields(_PREFIX)


def _schema(n: int) -> Any:
    """The snapshot's shape: a dict of keys, a list [item, length], or a type."""
    b9 = [bool, 9]
    seat = {
        "vp": int,
        "lira": int,
        "residual": int,
        "regular": int,
        "trained": int,
        "grande_placed": bool,
        "regular_placed": int,
        "structures": [bool, 8],
        "fields": [{"owned": bool, "vines": [int, 9], "harvested": bool, "over": bool}, 3],
        "crush": {"red": b9, "white": b9},
        "cellar": {t: b9 for t in WINE_TYPES},
        "hand": [int, NUM_KINDS],
        "known": [[int, NUM_KINDS], n],
        "windmill_used": bool,
        "tasting_used": bool,
        "yoke": int,
        "dealt": [[int, None], 2],
        "mama": int,
        "papa": int,
        "gift_taken": "bool_or_null",
    }
    return {
        "phase": str,
        "year": int,
        "first": int,
        "turn_seat": int,
        "rows": [int, n],
        "passed": [bool, n],
        "placements": [int, n],
        "temp": int,
        "decks": [[int, NUM_KINDS], 4],
        "discards": [[int, None], 4],
        "board": [[[int, 3], None], 12],
        "cart": [[int, 2], n],
        "planned": ["planned_entry", None],
        "end_flag": bool,
        "seats": [seat, n],
    }


def _check_shape(value: object, schema: Any, where: str) -> None:
    if isinstance(schema, dict):
        obj = _F.keys(value, frozenset(schema), where)
        for key, sub in schema.items():
            _check_shape(obj[key], sub, f"{where}.{key}")
    elif isinstance(schema, list):
        items = _F.list(value, where, schema[1])
        for i, item in enumerate(items):
            _check_shape(item, schema[0], f"{where}[{i}]")
    elif schema == "planned_entry":
        entry = _F.list(value, where, 4)
        if not (_is_int(entry[0]) and isinstance(entry[1], str) and _is_int(entry[2]) and _is_int(entry[3])):
            raise _F.bad(f"{where} must be [seat, action key, space, kind]")
    elif schema == "bool_or_null":
        if value is not None and not isinstance(value, bool):
            raise _F.bad(f"{where} must be a bool or null")
    elif schema is int:
        if not _is_int(value):
            raise _F.bad(f"{where} must be an int, got {value!r}")
    elif schema is bool:
        _F.boolean(value, where)
    elif schema is str:
        if not isinstance(value, str):
            raise _F.bad(f"{where} must be a string")


def _check_snapshot(game: ViticultureGame, t: dict[str, Any]) -> None:
    n = game.players
    bad = _F.bad
    if t["phase"] not in PHASES or t["phase"] == "setup":
        raise bad(f"phase {t['phase']!r} is not a snapshot phase")
    _F.int_in(t["year"], 1, game._params["max_years"], "year")
    _F.int_in(t["first"], 0, n - 1, "first")
    _F.int_in(t["turn_seat"], -1, n - 1, "turn_seat")
    _F.int_in(t["temp"], -1, n - 1, "temp")
    rows = t["rows"]
    for r in rows:
        _F.int_in(r, 0, 7, "rows")
    if len([r for r in rows if r]) != len({r for r in rows if r}):
        raise bad("two roosters on one row")
    for c in t["placements"]:
        _F.int_in(c, 0, SEASON_CAP, "placements")
    for deck in t["decks"]:
        for c in deck:
            if c < 0:
                raise bad("a negative deck count")
    for d, pile in enumerate(t["discards"]):
        for k in pile:
            _F.int_in(k, 0, NUM_KINDS - 1, "discards")
            if kind_deck(k) != d:
                raise bad("a card in another type's discard pile")
    for a, entries in enumerate(t["board"]):
        for s, space, kind in entries:
            _F.int_in(s, 0, n - 1, f"board[{a}] seat")
            _F.int_in(space, 0, 2, f"board[{a}] space")
            _F.int_in(kind, 0, 1, f"board[{a}] kind")
    for s, key, space, kind in t["planned"]:
        _F.int_in(s, 0, n - 1, "planned seat")
        if key not in ACTION_KEYS[6:]:
            raise bad(f"planned action {key!r} is not a winter action key")
        _F.int_in(space, 0, 2, "planned space")
        _F.int_in(kind, 0, 1, "planned kind")
        a = ACTION_KEYS.index(key)
        reserved = sum(1 for e in t["planned"] if e[:2] == [s, key] and e[3] == kind)
        if sum(1 for e in t["board"][a] if e[0] == s and e[2] == kind) < reserved:
            raise bad("a reservation whose worker is not on the board")
    if t["end_flag"] and game._params["end_rule"] != "reached":
        raise bad("end_flag is set under end_rule=year_end")
    totals = [0] * NUM_KINDS
    for d in range(4):
        for k in range(NUM_KINDS):
            totals[k] += t["decks"][d][k]
            if t["decks"][d][k] and kind_deck(k) != d:
                raise bad("a card in another type's deck")
        for k in t["discards"][d]:
            totals[k] += 1
    for s, seat in enumerate(t["seats"]):
        if seat["vp"] < -5:
            raise bad(f"seat {s} vp below -5")
        _F.int_in(seat["residual"], 0, 5, f"seat {s} residual")
        if seat["lira"] < 0:
            raise bad(f"seat {s} lira below 0")
        _F.int_in(seat["regular"], 2, 5, f"seat {s} regular")
        if seat["trained"] < 0 or seat["regular"] + seat["trained"] > 5:
            raise bad(f"seat {s} regular + trained above 5")
        owned_regular = seat["regular"] + (1 if t["temp"] == s else 0)
        _F.int_in(seat["regular_placed"], 0, owned_regular, f"seat {s} regular_placed")
        _F.int_in(seat["yoke"], -1, 1, f"seat {s} yoke")
        for f, field in enumerate(seat["fields"]):
            if any(c < 0 for c in field["vines"]):
                raise bad("a negative vine count")
            if sum(field["vines"]) and not field["owned"]:
                raise bad(f"seat {s} field {FIELD_VALUES[f]} planted but not owned")
            total = sum(VINE_VALUE[v] * field["vines"][v] for v in range(9))
            if total > FIELD_VALUES[f] and not field["over"]:
                raise bad(f"seat {s} field {FIELD_VALUES[f]} over its value without over")
            for v in range(9):
                totals[v] += field["vines"][v]
        for k in range(NUM_KINDS):
            if seat["hand"][k] < 0:
                raise bad("a negative hand count")
            totals[k] += seat["hand"][k]
        for q in range(n):
            for k in range(NUM_KINDS):
                c = seat["known"][q][k]
                if c < 0 or c > t["seats"][q]["hand"][k] or (q == s and c):
                    raise bad(f"seat {s} knows more of seat {q}'s hand than it holds")
        mamas, papas = seat["dealt"]
        for m in mamas:
            _F.int_in(m, 0, 17, "dealt mama")
        for p in papas:
            _F.int_in(p, 0, 17, "dealt papa")
        if mamas != sorted(set(mamas)) or papas != sorted(set(papas)):
            raise bad("dealt lists must be ascending")
        _F.int_in(seat["mama"], -1, 17, "mama")
        _F.int_in(seat["papa"], -1, 17, "papa")
    for s, seat in enumerate(t["seats"]):  # the workers standing somewhere are the ones marked placed
        on = [0, 0]
        for entries in t["board"]:
            for q, _space, kind in entries:
                if q == s:
                    on[kind] += 1
        for kind in range(2):
            on[kind] += t["cart"][s][kind]
        if seat["yoke"] >= 0:
            on[seat["yoke"]] += 1
        if on != [seat["regular_placed"], int(seat["grande_placed"])]:
            raise bad(f"seat {s}'s placed workers do not match the board, cart, Yoke and plans")
    expected = list(KIND_COPIES)
    if game._params["queen"] == "off":
        expected[WINTER0 + QUEEN_W] = 0
    if totals != expected:
        k = next(k for k in range(NUM_KINDS) if totals[k] != expected[k])
        raise bad(f"the copies of {kind_key(k)} add up to {totals[k]}, not {expected[k]}")


def _deserialize(game: ViticultureGame, text: object) -> ViticultureState:
    if not isinstance(text, str):
        raise InvalidStateError(f"{_PREFIX}expected a str, not {type(text).__name__}")
    try:
        obj = json.loads(text, object_pairs_hook=_F.pairs)
    except InvalidStateError:
        raise
    except (ValueError, RecursionError) as exc:
        raise InvalidStateError(f"{_PREFIX}not JSON ({exc})") from None
    root = _F.keys(
        obj, frozenset({"game", "params", "version", "history", "seen", "state", "turn"}), "the state"
    )
    if root["game"] != GAME_NAME:
        raise _F.bad(f"game must be {GAME_NAME!r}")
    if not _is_int(root["version"]) or root["version"] != SERIAL_VERSION:
        raise _F.bad(f"version must be {SERIAL_VERSION}")
    if not same_params(root["params"], game.params):
        raise _F.bad("params differ from the game's")
    history = _F.list(root["history"], "history")
    seen = _F.list(root["seen"], "seen", len(history))
    turn = _F.list(root["turn"], "turn")
    for a in history:
        _F.int_in(a, 0, NUM_DISTINCT_ACTIONS - 1, "history entry")
    for m in seen:
        _F.int_in(m, 0, (1 << game.players) - 1, "seen entry")
    for a in turn:
        _F.int_in(a, 0, NUM_DISTINCT_ACTIONS - 1, "turn entry")
    if len(turn) > len(history) or history[len(history) - len(turn) :] != turn:
        raise _F.bad("turn is not a suffix of history")
    snapshot = root["state"]
    if snapshot is None:
        if turn != history:
            raise _F.bad("a null snapshot needs turn = history (the setup)")
    else:
        _check_shape(snapshot, _schema(game.players), "state")
        table = cast(dict[str, Any], snapshot)
        _check_snapshot(game, table)
        if table["phase"] == "over" and turn:
            raise _F.bad("a terminal snapshot with a non-empty turn")
    state = ViticultureState(game, {})
    state.texts = None
    try:
        state._replay_from(cast(dict[str, Any] | None, snapshot), cast(list[int], turn))
    except IllegalActionError as exc:
        raise _F.bad(f"an illegal action in turn ({exc})") from None
    except (KeyError, IndexError, ValueError, TypeError, AssertionError) as exc:
        raise _F.bad(f"the snapshot is not a unit start ({exc!r})") from None
    if snapshot is not None and state.snap is not None and not turn and state.snap != snapshot:
        raise _F.bad("the snapshot is not at a unit start")
    if snapshot is None and state.T["phase"] != "setup" and turn:
        raise _F.bad("a null snapshot after the setup")
    prefix = len(history) - len(turn)
    if state.turn != turn:
        raise _F.bad("turn spans more than one unit (the snapshot is not the latest unit start)")
    if state.seen != seen[prefix:]:
        raise _F.bad("seen does not match the turn's actions")
    state.actions = cast(list[int], list(history))
    state.seen = cast(list[int], list(seen))
    state.texts = None
    return state


__all__ = ["ViticultureGame", "ViticultureState", "normalize_params"]
