"""Viticulture Essential Edition for Python users: card kinds, structures, action keys and action ids
(docs/rules/viticulture.md §2, §7, §15.1).

The component tables are read from the data file both engines read (``meeplex/data/viticulture.json``), so
nothing here can drift from them.

>>> from meeplex.games import viticulture as vit
>>> vit.kind("pinot"), vit.kind("order17"), vit.kind("wine_critic"), vit.kind("guest_speaker")
(2, 25, 47, 120)
>>> vit.place("plant", "bonus", "r"), vit.play("wine_critic"), vit.fill(17), vit.plant("pinot", 6)
(72, 244, 334, 361)
>>> vit.make("b", 3, 2), vit.make("s", 4, 3, 2), vit.make("r", 5)
(516, 624, 483)
"""

from __future__ import annotations

import json
from importlib import resources

_DATA = json.loads(resources.files("meeplex").joinpath("data/viticulture.json").read_text())

#: Card kinds 0..120 by name (§2): vines 0..8, orders 9..44 (``order1``..``order36``), summer visitors
#: 45..82, winter visitors 83..120.
VINES: tuple[str, ...] = tuple(v["key"] for v in _DATA["vines"])
ORDERS: tuple[str, ...] = tuple(f"order{i + 1}" for i in range(len(_DATA["orders"])))
SUMMER: tuple[str, ...] = tuple(v["key"] for v in _DATA["summer"])
WINTER: tuple[str, ...] = tuple(v["key"] for v in _DATA["winter"])
KINDS: tuple[str, ...] = VINES + ORDERS + SUMMER + WINTER
MAMAS: tuple[str, ...] = tuple(m["key"] for m in _DATA["mamas"])
PAPAS: tuple[str, ...] = tuple(p["key"] for p in _DATA["papas"])
STRUCTURES: tuple[str, ...] = tuple(s["key"] for s in _DATA["structures"])
FIELDS: tuple[int, ...] = tuple(_DATA["fields"])
#: Action keys 0..11 (§7): six summer actions, then six winter actions.
ACTIONS: tuple[str, ...] = ("vine", "tour", "build", "visit_s", "sell", "plant") + (
    "order",
    "harvest",
    "train",
    "visit_w",
    "wine",
    "fill",
)
SPACES: tuple[str, ...] = ("plain r", "plain g", "bonus r", "bonus g", "over g")
NUM_ACTIONS = 946
OBSERVATION_SIZE = 3002

# Id bases of §7.
MAMA, PAPA, GIFT, LIRA, WAKE, PLACE = 0, 18, 36, 37, 38, 45
PLACE_LIRA, PLACE_YOKE, PASS, DONE, ACCEPT, DECLINE = 105, 107, 109, 110, 111, 112
OPTION, BOTH, DRAW, CARD, PLAY, FILL = 113, 116, 117, 121, 242, 318
PLANT, VINE, HARVEST, SELL_FIELD, BUY_FIELD, BUILD = 354, 381, 408, 411, 414, 417
GRAPE, WINE, MAKE_RED, MAKE_WHITE, MAKE_BLUSH, MAKE_SPARKLING = 425, 443, 479, 488, 497, 578
SEAT, PILE, RETRIEVE, TAKE = 902, 908, 912, 940
DECKS: tuple[str, ...] = ("vine", "summer", "order", "winter")
WINE_TYPES: tuple[str, ...] = ("r", "w", "b", "s")


def kind(name: str) -> int:
    """The card kind of a card name (``pinot``, ``order17``, ``wine_critic``)."""
    return KINDS.index(name)


def place(action: str, space: str, worker: str) -> int:
    """``place <action> <space> <worker>``: space ``plain``, ``bonus`` or ``over``, worker ``r`` or ``g``;
    action ``lira`` and ``yoke`` take no space (pass ``""``)."""
    if action in ("lira", "yoke"):
        return (PLACE_LIRA if action == "lira" else PLACE_YOKE) + ("r", "g").index(worker)
    return PLACE + 5 * ACTIONS.index(action) + SPACES.index(f"{space} {worker}")


def play(visitor: str) -> int:
    """``play <visitor>``: summer visitors first, then winter."""
    return PLAY + (SUMMER + WINTER).index(visitor)


def fill(number: int) -> int:
    """``fill <n>``, the order numbered n = 1..36."""
    return FILL + number - 1


def plant(vine: str, field: int) -> int:
    """``plant <vine> <field>``, the field by its value 5, 6 or 7."""
    return PLANT + 3 * VINES.index(vine) + FIELDS.index(field)


def make(wine: str, *grapes: int) -> int:
    """``make r<v>``, ``make w<v>``, ``make b<r>+<w>`` or ``make s<r1>+<r2>+<w>`` (r1 > r2)."""
    if wine in ("r", "w"):
        (v,) = grapes
        return (MAKE_RED if wine == "r" else MAKE_WHITE) + v - 1
    if wine == "b":
        r, w = grapes
        return MAKE_BLUSH + 9 * (r - 1) + (w - 1)
    r1, r2, w = grapes
    pairs = [(a, b) for a in range(2, 10) for b in range(1, a)]
    return MAKE_SPARKLING + 9 * pairs.index((r1, r2)) + (w - 1)


__all__ = [
    "ACTIONS",
    "FIELDS",
    "KINDS",
    "MAMAS",
    "ORDERS",
    "PAPAS",
    "STRUCTURES",
    "SUMMER",
    "VINES",
    "WINTER",
    "fill",
    "kind",
    "make",
    "place",
    "plant",
    "play",
]
