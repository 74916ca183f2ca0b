"""Viticulture positions for tests on both engines (docs/rules/viticulture.md §15.4).

A position is a serialized state written from a compact description: ``{"game", "params", "version",
"history", "seen", "state", "turn"}`` with ``history``, ``seen`` and ``turn`` empty and ``state`` a snapshot
at the start of a unit (a spring ``wake`` decision, or a summer or winter turn decision), every key of §15.4
present. Every card not placed in a hand, a field or a discard pile is in its deck, so the component counts of
``python/meeplex/data/viticulture.json`` add up (42 vines 4/4/6/5/5/5/5/4/4, 36 orders, 38 + 38 visitors; 37
winter visitors with ``queen=off``).

The builder reads only the data file, never an engine, so the tests that use it collect before the engines
exist. The snapshot details §15.4 leaves open are decided here, each in one place, so that a ruling changes
one line: ``dealt`` is ``[mama indices, papa indices]`` (``_dealt``); ``grande_placed`` is a bool; ``cart``
is per seat ``[regular, grande]`` on ``lira`` and ``yoke`` per seat -1 (empty), 0 (regular) or 1 (grande)
(§15.7); ``placements`` counts the seat's placements this season on the season's actions, the lira cart and
the Yoke (§15.7); ``version`` is 1 (§12);
``end_flag`` is set only under ``end_rule=reached``; the mamas and papas are dealt and kept by seat index,
every papa's lira taken (``gift_taken`` false).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DATA = json.loads(
    (Path(__file__).resolve().parents[1] / "python" / "meeplex" / "data" / "viticulture.json").read_text(
        "utf-8"
    )
)

GAME = "viticulture"
VERSION = 1  # §12 "version (1)"; §15.4 keeps the key and does not restate the value
KINDS = 121
SUMMER_KEYS = ("vine", "tour", "build", "visit_s", "sell", "plant")
WINTER_KEYS = ("order", "harvest", "train", "visit_w", "wine", "fill")
ACTION_KEYS = SUMMER_KEYS + WINTER_KEYS  # a = 0..11 (§7)
SPACES = {"plain": 0, "bonus": 1, "over": 2}
WORKER = {"r": 0, "g": 1}
STRUCTURES = [s["key"] for s in DATA["structures"]]
FIELD_VALUES = list(DATA["fields"])  # [5, 6, 7]
VINES = DATA["vines"]
VINE_KEYS = [v["key"] for v in VINES]
SUMMER = [s["key"] for s in DATA["summer"]]
WINTER = [w["key"] for w in DATA["winter"]]
CARD_NAMES = VINE_KEYS + [f"order{i + 1}" for i in range(36)] + SUMMER + WINTER  # kind k = index (§2)
KIND = {name: k for k, name in enumerate(CARD_NAMES)}
DECK_ORDER = ("vine", "summer", "order", "winter")  # §15.4 `decks` / `discards` order
WINE_TYPES = ("red", "white", "blush", "sparkling")
WINE_LETTER = {"r": "red", "w": "white", "b": "blush", "s": "sparkling"}

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


def kind(name: str) -> int:
    """The card kind of a data-file key (``sangiovese``), ``order<n>`` or a visitor key."""
    return KIND[name]


def card_type(k: int) -> str:
    if k < 9:
        return "vine"
    if k < 45:
        return "order"
    if k < 83:
        return "summer"
    return "winter"


def vine_value(name: str) -> int:
    v = VINES[VINE_KEYS.index(name)]
    return v["red"] + v["white"]


def totals(params: Mapping[str, Any]) -> list[int]:
    """Copies of each kind in the game (the Queen absent with ``queen=off``, §3)."""
    out = [v["count"] for v in VINES] + [1] * (KINDS - 9)
    if params.get("queen", "on") == "off":
        out[kind("queen")] = 0
    return out


def game_string(params: Mapping[str, Any]) -> str:
    """``viticulture(players=3,queen=off,...)``: every parameter, lower case, in §3's order."""

    def word(v: Any) -> str:
        return str(v).lower() if isinstance(v, bool) else str(v)

    return f"{GAME}(" + ",".join(f"{k}={word(params[k])}" for k in DEFAULT_PARAMS) + ")"


@dataclass
class Seat:
    """One seat of a position. ``fields``: field value 5/6/7 -> vine keys planted there; ``sold``: field
    values not owned; ``crush``: grapes ``r3`` / ``w2``; ``cellar``: wines ``r3`` / ``w2`` / ``b5`` / ``s8``;
    ``hand``: card names (repeat a vine for copies); ``placed``: workers already out this year, each
    ``(space, where, kind)`` with space an action key, ``lira`` or ``yoke``, where
    ``plain``/``bonus``/``over`` (ignored for ``lira`` and ``yoke``), kind ``r`` (regular or temporary) or
    ``g``."""

    vp: int = 0
    lira: int = 0
    residual: int = 0
    regular: int = 2
    trained: int = 0
    structures: Sequence[str] = ()
    fields: Mapping[int, Sequence[str]] = field(default_factory=dict)
    sold: Sequence[int] = ()
    harvested: Sequence[int] = ()
    crush: Sequence[str] = ()
    cellar: Sequence[str] = ()
    hand: Sequence[str] = ()
    placed: Sequence[tuple[str, str, str]] = ()
    row: int | None = None
    passed: bool = False
    windmill_used: bool = False
    tasting_used: bool = False
    placements: int | None = None
    known: Sequence[Sequence[int]] | None = None


def _bools(tokens: Iterable[str], letter: str) -> list[bool]:
    out = [False] * 9
    for token in tokens:
        if token[0] == letter:
            v = int(token[1:])
            assert not out[v - 1], f"two {token} tokens"
            out[v - 1] = True
    return out


def _dealt(mamas: list[int], papas: list[int]) -> list[list[int]]:
    """§15.4 `dealt`: "mama and papa indices dealt, ascending". Read here as ``[mamas, papas]``, each
    ascending (a flat list could not tell a mama index from a papa index)."""
    return [sorted(mamas), sorted(papas)]


def position(
    players: int = 2,
    seats: Sequence[Seat] | None = None,
    *,
    phase: str = "summer",
    year: int = 1,
    first: int = 0,
    turn_seat: int | None = None,
    temp: int | None = None,
    discards: Mapping[str, Sequence[str]] | None = None,
    end_flag: bool | None = None,
    **params: Any,
) -> tuple[str, str]:
    """(game string, serialized state) of a position at the start of ``turn_seat``'s unit.

    Defaults: every seat a ``Seat()`` (0 VP, 0 lira, 2 regular workers and the grande, fields 5/6/7 owned
    and empty, small cellar, empty hand); in summer and winter seat i on row i + 1 unless rows are given;
    in spring no rows; the turn seat the lowest-row seat not passed (spring: the first seat clockwise from
    ``first`` without a row); the temporary worker with the seat on row 7; ``end_flag`` set when a seat has
    ``target_vp`` (§11, ``end_rule=reached``).
    """
    p = dict(DEFAULT_PARAMS, players=players, **params)
    seats = list(seats) if seats is not None else [Seat() for _ in range(players)]
    assert len(seats) == players
    if phase in ("summer", "winter", "fall", "year_end"):
        for i, s in enumerate(seats):
            if s.row is None:
                s.row = i + 1
    rows = [s.row or 0 for s in seats]
    assert len({r for r in rows if r}) == len([r for r in rows if r]), "two roosters on one row"

    if turn_seat is None:
        if phase == "spring":
            turn_seat = next((first + j) % players for j in range(players) if not rows[(first + j) % players])
        else:
            order = sorted((r, i) for i, r in enumerate(rows) if not seats[i].passed)
            turn_seat = order[0][1]
    if temp is None:
        temp = rows.index(7) if 7 in rows else -1

    count = totals(p)
    used = [0] * KINDS
    piles: dict[str, list[int]] = {t: [] for t in DECK_ORDER}
    for t, names in (discards or {}).items():
        piles[t] = [kind(n) for n in names]
        for n in names:
            assert card_type(kind(n)) == t, f"{n} is not a {t} card"
            used[kind(n)] += 1

    board: list[list[list[int]]] = [[] for _ in ACTION_KEYS]
    cart = [[0, 0] for _ in range(players)]  # §15.7: regular, grande
    out_seats = []
    season_keys = SUMMER_KEYS if phase == "summer" else WINTER_KEYS if phase == "winter" else ()
    for i, s in enumerate(seats):
        hand = [0] * KINDS
        for n in s.hand:
            hand[kind(n)] += 1
            used[kind(n)] += 1
        fields_out = []
        for f in FIELD_VALUES:
            vines = [0] * 9
            for n in s.fields.get(f, ()):
                vines[VINE_KEYS.index(n)] += 1
                used[kind(n)] += 1
            value = sum(vine_value(n) for n in s.fields.get(f, ()))
            owned = f not in s.sold
            assert owned or not s.fields.get(f), f"vines on sold field {f}"
            fields_out.append(
                {"owned": owned, "vines": vines, "harvested": f in s.harvested, "over": value > f}
            )
        regular_placed, grande_placed, yoke, placements = 0, False, -1, 0
        for space, where, k in s.placed:
            if k == "g":
                assert not grande_placed, "one grande per seat"
                grande_placed = True
            else:
                regular_placed += 1
            if space == "lira":
                cart[i][WORKER[k]] += 1
                placements += 1
            elif space == "yoke":
                assert "yoke" in s.structures and yoke < 0
                yoke = WORKER[k]
                placements += 1
            else:
                board[ACTION_KEYS.index(space)].append([i, SPACES[where], WORKER[k]])
                placements += space in season_keys
        known = s.known if s.known is not None else [[0] * KINDS for _ in range(players)]
        out_seats.append(
            {
                "vp": s.vp,
                "lira": s.lira,
                "residual": s.residual,
                "regular": s.regular,
                "trained": s.trained,
                "grande_placed": grande_placed,
                "regular_placed": regular_placed,
                "structures": [name in s.structures for name in STRUCTURES],
                "fields": fields_out,
                "crush": {"red": _bools(s.crush, "r"), "white": _bools(s.crush, "w")},
                "cellar": {t: _bools(s.cellar, t[0]) for t in WINE_TYPES},
                "hand": hand,
                "known": [list(row) for row in known],
                "windmill_used": s.windmill_used,
                "tasting_used": s.tasting_used,
                "yoke": yoke,
                "dealt": _dealt(
                    [p["parents_dealt"] * i + j for j in range(p["parents_dealt"])],
                    [p["parents_dealt"] * i + j for j in range(p["parents_dealt"])],
                ),
                "mama": p["parents_dealt"] * i,
                "papa": p["parents_dealt"] * i,
                "gift_taken": False,
                "_placements": s.placements if s.placements is not None else placements,
            }
        )
    for s in out_seats:
        assert all(c >= 0 for c in s["hand"])
    decks = []
    for t in DECK_ORDER:
        deck = [0] * KINDS
        for k in range(KINDS):
            if card_type(k) == t:
                left = count[k] - used[k]
                assert left >= 0, f"more {CARD_NAMES[k]} placed than the game has"
                deck[k] = left
        decks.append(deck)
    if end_flag is None:
        end_flag = p["end_rule"] == "reached" and any(s.vp >= p["target_vp"] for s in seats)

    snapshot = {
        "phase": phase,
        "year": year,
        "first": first,
        "turn_seat": turn_seat,
        "rows": rows,
        "passed": [s.passed for s in seats],
        "placements": [s.pop("_placements") for s in out_seats],
        "temp": temp,
        "decks": decks,
        "discards": [piles[t] for t in DECK_ORDER],
        "board": board,
        "cart": cart,
        "planned": [],
        "end_flag": end_flag,
        "seats": out_seats,
    }
    data = {
        "game": GAME,
        "params": p,
        "version": VERSION,
        "history": [],
        "seen": [],
        "state": snapshot,
        "turn": [],
    }
    return game_string(p), canonical(data)


def canonical(data: Any) -> str:
    """§15.4: keys sorted at every level, separators ``,`` and ``:``."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


# --- Reading a state back ----------------------------------------------------------------------------------


def load(engine, built: tuple[str, str]):
    """The state of a built position on ``engine`` (the game made from its game string)."""
    text, serialized = built
    return engine(text).deserialize_state(serialized)


def act(state, *texts: str):
    """Apply each action by its text (chance outcomes too: ``draws syrah``), in order."""
    for text in texts:
        state.apply_action(state.string_to_action(text))
    return state


def texts(state) -> list[str]:
    """The legal actions' notation, in id order."""
    return [state.action_to_string(a) for a in state.legal_actions()]


def raw(state) -> dict[str, Any]:
    return json.loads(state.serialize())


def snap(state) -> dict[str, Any]:
    """The snapshot of a state at the start of a unit (its ``turn`` empty, §15.4): the values a scenario
    asserts are read there, after the unit that changed them is over."""
    data = raw(state)
    assert data["turn"] == [], f"not at the start of a unit: turn {data['turn']}"
    return data["state"]


def grapes(seat: Mapping[str, Any]) -> list[str]:
    """A seat's crush pad as sorted texts (``r1``, ``r3``, ``w2``)."""
    return [f"{c[0]}{v + 1}" for c in ("red", "white") for v, on in enumerate(seat["crush"][c]) if on]


def wines(seat: Mapping[str, Any]) -> list[str]:
    """A seat's cellar as texts (``r2``, ``w3``, ``b5``, ``s9``), red first then white, blush, sparkling."""
    return [f"{t[0]}{v + 1}" for t in WINE_TYPES for v, on in enumerate(seat["cellar"][t]) if on]


def hand_names(seat: Mapping[str, Any]) -> list[str]:
    """A seat's hand as card names, one per copy, in kind order."""
    return [CARD_NAMES[k] for k, n in enumerate(seat["hand"]) for _ in range(n)]


def built(seat: Mapping[str, Any]) -> list[str]:
    return [name for name, on in zip(STRUCTURES, seat["structures"], strict=True) if on]


def field_vines(seat: Mapping[str, Any], value: int) -> list[str]:
    f = seat["fields"][FIELD_VALUES.index(value)]
    return [VINE_KEYS[v] for v, n in enumerate(f["vines"]) for _ in range(n)]
