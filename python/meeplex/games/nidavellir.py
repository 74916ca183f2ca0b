"""Nidavellir for Python users: card kinds, coins, heroes, classes, taverns and action ids
(docs/rules/nidavellir.md §2, §6).

The component tables are read from the data file both engines read (``meeplex/data/nidavellir.json``), so
nothing here can drift from them.

>>> from meeplex.games import nidavellir as nid
>>> nid.bid("t12"), nid.take("warrior7"), nid.hero("thrud"), nid.column("explorer")
(13, 44, 96, 99)
"""

from __future__ import annotations

import json
from importlib import resources

_DATA = json.loads(resources.files("meeplex").joinpath("data/nidavellir.json").read_text())

#: Classes 0..4, card kinds 0..22 (0..20 Dwarf cards, 21-22 Royal Offerings), coin codes 0..26, heroes
#: 0..16 and taverns 0..2, each by key in id order (§2).
CLASSES: tuple[str, ...] = tuple(_DATA["classes"])
KINDS: tuple[str, ...] = tuple(kind["key"] for kind in _DATA["kinds"])
COINS: tuple[str, ...] = tuple(coin["key"] for coin in _DATA["coins"])
COIN_VALUES: dict[str, int] = {coin["key"]: coin["value"] for coin in _DATA["coins"]}
HEROES: tuple[str, ...] = tuple(hero["key"] for hero in _DATA["heroes"])
TAVERNS: tuple[str, ...] = tuple(_DATA["taverns"])
DWARF_KINDS = 21
TRADING_COINS = ("b0", "s3")

# Action ids (§6): a base plus a coin code c, a kind k, a tavern t, a hero h or a class j.
BID, TAKE, TRANSFORM_TAVERN, TRANSFORM_COIN, HERO = 0, 27, 50, 53, 80
COLUMN, DISCARD, KEEP, SUM = 97, 102, 107, 130
NUM_ACTIONS = 157

# Thingvellir (docs/rules/thingvellir.md §2, §6): camp cards m 0..23, the mercenaries m' 0..11 (the camp cards
# that are mercenaries, in m order), the six heroes h 17..22 and the ids appended after the base game's 157.
_TV = _DATA["thingvellir"]
CAMP_CARDS: tuple[str, ...] = tuple(card["key"] for card in _TV["camp"])
MERCENARIES: tuple[str, ...] = tuple(card["key"] for card in _TV["camp"] if card["type"] == "mercenary")
MERCENARY_CLASSES: dict[str, tuple[str, str]] = {
    card["key"]: (card["classes"][0][0], card["classes"][1][0])
    for card in _TV["camp"]
    if card["type"] == "mercenary"
}
TV_HEROES: tuple[str, ...] = tuple(hero["key"] for hero in _TV["heroes"])
CAMP, PICK, TV_HERO, ENLIST, ENLIST_FIRST, ENLIST_LAST = 157, 181, 204, 210, 234, 235
DROP, VIDOFNIR, REMOVE = 236, 259, 286
TV_NUM_ACTIONS = 356
#: Column entries Thingvellir adds (§2): Vegvisir, Olwyn's two doubles, then 46 + m' a placed mercenary.
VEGVISIR_ENTRY, DOUBLE_ENTRIES, MERCENARY_ENTRY = 43, (44, 45), 46

# Named variants: parameter sets for `meeplex list` and `meeplex.make("nidavellir", **VARIANTS[name])`.
VARIANTS: dict[str, dict[str, object]] = {
    "first_game": {"first_game": True},
    "three_players": {"players": 3},
    "four_players": {"players": 4},
    "five_players": {"players": 5},
    "thingvellir": {"thingvellir": True},
    "thingvellir_four_players": {"thingvellir": True, "players": 4},
}


def _index(table: tuple[str, ...], key: str, what: str) -> int:
    if key not in table:
        raise ValueError(f"{key!r} is not a {what}: {' '.join(table)}")
    return table.index(key)


def coin(key: str) -> int:
    """The code of a coin key such as ``b0``, ``s3`` or ``t12``."""
    return _index(COINS, key, "coin")


def kind(key: str) -> int:
    """The id of a card kind such as ``warrior7``, ``blacksmith`` or ``offering3``."""
    return _index(KINDS, key, "card kind")


def bid(coin_key: str) -> int:
    """The id of bidding (or, for Uline's owner, placing) the coin ``coin_key`` on the next tavern."""
    return BID + coin(coin_key)


def take(kind_key: str) -> int:
    """The id of taking a card of kind ``kind_key`` from the tavern being resolved."""
    return TAKE + kind(kind_key)


def transform(where: str) -> int:
    """The id of transforming the coin on a tavern (``goblin``, ``dragon``, ``horse``) or a hand coin
    (``t7``)."""
    if where in TAVERNS:
        return TRANSFORM_TAVERN + TAVERNS.index(where)
    return TRANSFORM_COIN + coin(where)


def hero(key: str) -> int:
    """The id of recruiting the hero ``key`` (``kraal`` … ``thrud``; with Thingvellir also ``andumia`` …
    ``zolkur``, ids 204..209)."""
    if key in TV_HEROES:
        return TV_HERO + TV_HEROES.index(key)
    return HERO + _index(HEROES, key, "hero")


def camp(card_key: str) -> int:
    """Thingvellir: the id of taking the camp card ``card_key`` (``draupnir``, ``w6e8`` …)."""
    return CAMP + _index(CAMP_CARDS, card_key, "camp card")


def pick(kind_key: str) -> int:
    """Thingvellir: the id of taking a card of kind ``kind_key`` from the discard pile (Andumia,
    Brisingamens)."""
    return PICK + kind(kind_key)


def enlist(mercenary_key: str, class_key: str) -> int:
    """Thingvellir: the id of placing the mercenary ``mercenary_key`` in the column of ``class_key``."""
    m = _index(MERCENARIES, mercenary_key, "mercenary")
    classes = MERCENARY_CLASSES[mercenary_key]
    if class_key not in classes:
        raise ValueError(f"{class_key!r} is not a class of {mercenary_key}: {' '.join(classes)}")
    return ENLIST + 2 * m + classes.index(class_key)


def drop(kind_key: str) -> int:
    """Thingvellir, 2 players: the id of discarding a card of kind ``kind_key`` from the tavern."""
    return DROP + kind(kind_key)


def vidofnir(coin_key: str) -> int:
    """Thingvellir: the id of Vidofnir transforming the hand coin ``coin_key``."""
    return VIDOFNIR + coin(coin_key)


def remove(entry: int) -> int:
    """Thingvellir: the id of removing column entry ``entry`` (Hofud, Brisingamens)."""
    if not 0 <= entry < 70:
        raise ValueError(f"column entry {entry} is out of range 0..69")
    return REMOVE + entry


def column(class_key: str) -> int:
    """The id of putting Thrud or Ylud in the column of ``class_key``."""
    return COLUMN + _index(CLASSES, class_key, "class")


def discard(class_key: str) -> int:
    """The id of discarding (Bonfur, Dagda) the last Dwarf card of the column of ``class_key``."""
    return DISCARD + _index(CLASSES, class_key, "class")


def keep(kind_key: str) -> int:
    """The id of the Pioneer of the Kingdom keeping a drawn card of kind ``kind_key``."""
    return KEEP + kind(kind_key)


def sum_coin(coin_key: str) -> int:
    """The id of Uline's owner adding the hand coin ``coin_key`` to a coin trade."""
    return SUM + coin(coin_key)


def blacksmith_value(ranks: int) -> int:
    """The Blacksmiths' Bravery Value: +3, +4, +5 … per rank, r(r+5)/2 (§5.10)."""
    return ranks * (ranks + 5) // 2


def hunter_value(ranks: int) -> int:
    """The Hunters' Bravery Value: the ranks squared (§5.10)."""
    return ranks * ranks
