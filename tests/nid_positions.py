"""Nidavellir positions for tests on both engines (docs/rules/nidavellir.md §8).

A position is reached by legal play wherever that is short (the gem deal, the tavern cards, the bids, the
takes, all by their notation), and the rest (armies, coins, heroes, decks) is written into the serialized
state, which the engine under test reads back: the edits keep the conservation rules of §8 (every seat owns
five coins, a Treasure coin is either in the Treasure or held, a hero is either left or owned).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

from meeplex.games import nidavellir as nid

State = Any
Json = dict[str, Any]

# Column entries (§3): a Dwarf card is its kind; class heroes 30 + h; the special Blacksmith 40;
# Thrud 41; Ylud 42.
SPECIAL_BLACKSMITH, THRUD, YLUD = 40, 41, 42
THRUD_IN_HAND, COMMAND_ZONE = 5, 6


def act(state: State, *texts: str) -> State:
    """Apply each action by its notation (chance outcomes too), in order."""
    for text in texts:
        state.apply_action(state.string_to_action(text))
    return state


def start(engine, players: int = 2, gems: Iterable[int] | None = None, **params: object) -> State:
    """A new game with the gems dealt (seat 0 first); by default seat s gets the s-th lowest gem."""
    game = engine.make("nidavellir", players=players, **params)
    state = game.new_initial_state()
    low = {2: 4, 3: 3, 4: 2, 5: 1}[players]
    for gem in gems if gems is not None else range(low, low + players):
        act(state, f"gem {gem}")
    return state


def fill(state: State, *taverns: Iterable[str]) -> State:
    """Enter the Dwarves: the kinds of tavern 0, then 1, then 2 (c cards each)."""
    for cards in taverns:
        for kind in cards:
            act(state, f"card {kind}")
    return state


def bid(state: State, *per_seat: Iterable[str]) -> State:
    """Every bidding seat's three coins in seat order (goblin, dragon, horse); Uline's owner is skipped by
    the caller leaving it out."""
    for coins in per_seat:
        for coin in coins:
            act(state, f"bid {coin}")
    return state


def edit(state: State, change: Callable[[Json], None]) -> State:
    """The state with ``change`` applied to its serialized JSON, read back by the same game."""
    data = json.loads(state.serialize())
    change(data)
    return state_game(state).deserialize_state(json.dumps(data, sort_keys=True, separators=(",", ":")))


def state_game(state: State):
    """The game of a state: the oracle's states carry it; a Rust state names it in its pickle recipe."""
    game = getattr(state, "game", None)
    if game is None or not hasattr(game, "deserialize_state"):
        game = state.__reduce__()[1][0]
    return game


def _treasure_index(code: int) -> int | None:
    key = nid.COINS[code]
    return nid.COIN_VALUES[key] - 5 if key.startswith("t") else None


def set_coins(data: Json, seat: int, hand: Iterable[str], bids: Iterable[str | None] = (None, None, None)):
    """Give ``seat`` exactly these coins (hand and bid slots), returning its old Treasure coins to the
    Treasure and taking the new ones from it."""
    me = data["seats"][seat]
    for code in list(me["hand"]) + [c for c in me["bids"] if c != -1]:
        t = _treasure_index(code)
        if t is not None:
            data["treasure"][t] += 1
    new_hand = sorted(nid.coin(c) for c in hand)
    new_bids = [-1 if c is None else nid.coin(c) for c in bids]
    for code in new_hand + [c for c in new_bids if c != -1]:
        t = _treasure_index(code)
        if t is not None:
            assert data["treasure"][t] > 0, f"the Treasure has no {nid.COINS[code]} left"
            data["treasure"][t] -= 1
    me["hand"], me["bids"] = new_hand, new_bids


def entry(card: str) -> int:
    """A column entry from a kind key (``warrior7``), a class hero key (``kraal``), ``special``, ``thrud``
    or ``ylud``."""
    if card == "special":
        return SPECIAL_BLACKSMITH
    if card == "thrud":
        return THRUD
    if card == "ylud":
        return YLUD
    if card in nid.HEROES[:10]:
        return 30 + nid.HEROES.index(card)
    return nid.kind(card)


def set_army(data: Json, seat: int, **columns: Iterable[str]) -> None:
    """Set the columns named (``blacksmith=["blacksmith", "aegur"]``); class heroes, Thrud and Ylud named
    in a column are also made owned (taken from the heroes left)."""
    me = data["seats"][seat]
    for name, cards in columns.items():
        j = nid.CLASSES.index(name)
        entries = [entry(c) for c in cards]
        me["army"][j] = entries
        for c in cards:
            if c in nid.HEROES:
                give_hero(data, seat, c, column=j if c in ("thrud", "ylud") else None)


def give_hero(data: Json, seat: int, key: str, column: int | None = None) -> None:
    """Move hero ``key`` from the heroes left to ``seat`` (a class hero must also be put in its column
    by ``set_army``); Thrud and Ylud go to ``column`` (0..4) or the Command Zone."""
    h = nid.HEROES.index(key)
    assert data["heroes_left"][h] > 0, f"{key} is not left"
    data["heroes_left"][h] -= 1
    data["seats"][seat]["heroes"][h] += 1
    if key in ("thrud", "ylud"):
        data["seats"][seat][key] = COMMAND_ZONE if column is None else column
        if column is not None and entry(key) not in data["seats"][seat]["army"][column]:
            data["seats"][seat]["army"][column].append(entry(key))


def dwarves(cards: str) -> list[str]:
    """``"warrior7 warrior3 hunter"`` as a list (a short way to write columns)."""
    return cards.split()


def texts(state: State) -> list[str]:
    """The legal actions' notation, in id order."""
    return [state.action_to_string(a) for a in state.legal_actions()]


def data_of(state: State) -> Json:
    return json.loads(state.serialize())
