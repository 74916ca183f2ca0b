"""Flip City positions written in the serialization format of docs/rules/flip_city.md §7.

``position(...)`` builds a state dict from what a scenario cares about (the seats' piles, the play area,
the turn's counters) and fills in the rest so that the position is valid: the default fields of §7, the
supply, and every card not placed explicitly (card conservation, §2) put back where it changes nothing.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping

# §2 face ids.
RA, APT, CS, MALL, PARK, STATION, HOSP, CHURCH, OFFICE, TRADE, FACTORY, PLANT = range(12)
FACE_NAMES = (
    "Residential Area",
    "Apartment",
    "Convenience Store",
    "Shopping Mall",
    "Central Park",
    "Station",
    "Hospital",
    "Church",
    "Office",
    "Trade Center",
    "Factory",
    "Power Plant",
)

# §5 action ids.
PLAY, STOP, END = 0, 1, 2


def shuffle(k: int = 0) -> int:
    return 3 + k


def recycle(face: int) -> int:
    return 14 + face


def buy(face: int) -> int:
    return 26 + face


def develop(face: int) -> int:
    return 38 + face


def flip(face: int) -> int:
    return 50 + face


def target(seat: int) -> int:
    return 62 + seat


def remove(face: int) -> int:
    return 66 + face


DEFAULT_PARAMS = {
    "apartment_unhappiness": 1,
    "hospital_cash": 1,
    "mall_recycle": False,
    "max_turns": 100,
    "office": False,
    "players": 2,
    "station_recycle": False,
}

# Preparation 1: the starting deck; Preparation 2 / Solo 1: the supply.
STARTING_DECK = {RA: 4, APT: 1, CS: 1, PARK: 1, HOSP: 1, FACTORY: 1}


def starting_supply(params: Mapping) -> list[int]:
    each = 4 if params["players"] == 1 else None
    supply = counts({CS: each or 12, HOSP: each or 12, FACTORY: each or 8, PARK: each or 8})
    if params["office"]:
        supply[OFFICE] = each or 10
    return supply


def counts(cards: Iterable[int] | Mapping[int, int] = ()) -> list[int]:
    """Counts per face from a list of faces (repeats allowed) or a {face: count} dict."""
    out = [0] * 12
    items = cards.items() if isinstance(cards, Mapping) else ((f, 1) for f in cards)
    for face, n in items:
        out[face] += n
    return out


def seat(deck_known=(), deck_unknown=(), discard=(), best: int = 0) -> dict:
    return {
        "best": best,
        "deck_known": list(deck_known),
        "deck_unknown": counts(deck_unknown),
        "discard": counts(discard),
    }


def position(
    players: int = 2,
    *,
    seats: list[dict] | None = None,
    play_area=(),
    removed=(),
    supply=None,
    filler: int | None = None,
    params: Mapping | None = None,
    **fields,
) -> dict:
    """A valid §7 state dict. Cards of a type not placed anywhere go to the supply (up to its starting size),
    then to the discard pile of ``filler`` (default: the seat after the current one), or in solo to
    ``removed``. ``fields`` override the top-level keys (``cash``, ``phase``, ``current``, ...)."""
    full = {**DEFAULT_PARAMS, **(params or {}), "players": players}
    seats = [dict(s) for s in (seats or [seat() for _ in range(players)])]
    assert len(seats) == players
    state = {
        "cash": 0,
        "current": 0,
        "discount": False,
        "extra_buys": 0,
        "extra_flips": 0,
        "forced": False,
        "game": "flip_city",
        "history": [],
        "limit_bonus": 0,
        "main": False,
        "params": full,
        "pending": "none",
        "phase": "play",
        "play_area": counts(play_area),
        "points": 0,
        "removed": counts(removed),
        "seats": seats,
        "supply": None,
        "turn": 0,
        "unhappiness": 0,
        "version": 2,
        "winner": -1,
        # Derived from the play area unless a scenario says otherwise (FC §7).
        "played": sum(counts(play_area)),
        "store_played": counts(play_area)[CS] > 0,
        "shuffled": False,
    }
    state.update(fields)
    if isinstance(state["discount"], bool):
        state["discount"] = int(state["discount"])  # one Station's "1 less"
    start = starting_supply(full)
    state["supply"] = counts(supply) if supply is not None else [0] * 12
    used = [0] * 12
    for s in seats:
        for face in s["deck_known"]:
            used[face] += 1
        for pile in (s["deck_unknown"], s["discard"]):
            used = [a + b for a, b in zip(used, pile, strict=True)]
    used = [a + b + c for a, b, c in zip(used, state["play_area"], state["removed"], strict=True)]
    if filler is None:
        filler = (state["current"] + 1) % players
    for k in range(6):
        front = 2 * k
        total = players * (STARTING_DECK.get(front, 0) + STARTING_DECK.get(front + 1, 0)) + start[front]
        left = total - used[front] - used[front + 1]
        if supply is None:
            state["supply"][front] = min(left, start[front])
        left -= state["supply"][front]
        assert left >= 0, f"scenario uses too many {FACE_NAMES[front]} cards"
        if left and players == 1:
            assert k > 0, "solo scenarios must place every Residential Area/Apartment card"
            state["removed"][front] += left
        elif left:
            seats[filler]["discard"][front] += left
    return state


def dump(obj: dict) -> str:
    """The canonical JSON of §7."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def load(make, pos: dict):
    """The game of ``pos``'s parameters and the state ``pos`` describes, with the engine's ``make``."""
    game = make("flip_city", **pos["params"])
    return game, game.deserialize_state(dump(pos))


def view(state) -> dict:
    """The state's fields, decoded from its serialization."""
    return json.loads(state.serialize())


# --- Random positions, for differential tests that start where random play never goes ---------------------


def _positions():
    """A hypothesis strategy of valid-looking §7 positions: every card of the game placed somewhere at random
    (supply, any seat's known deck, unknown deck or discard pile, the play area, removed in solo), with
    random turn counters. Random play never wins Flip City; these positions reach wins, empty supplies and
    big turns, so that the engines are compared there too."""
    from hypothesis import strategies as st

    @st.composite
    def positions(draw) -> dict:
        players = draw(st.integers(1, 4))
        params = dict(
            DEFAULT_PARAMS,
            players=players,
            office=draw(st.booleans()),
            max_turns=draw(st.sampled_from([1, 2, 5, 100])),
            apartment_unhappiness=draw(st.integers(0, 1)),
            hospital_cash=draw(st.integers(0, 1)),
            mall_recycle=draw(st.booleans()),
            station_recycle=draw(st.booleans()),
        )
        start = starting_supply(params)
        seats = [seat() for _ in range(players)]
        play_area, removed, supply = [0] * 12, [0] * 12, [0] * 12
        places = [(s, pile) for s in seats for pile in ("deck_known", "deck_unknown", "discard")]
        places += [(None, "play_area")] + ([(None, "removed")] if players == 1 else [])
        for k in range(6):
            front = 2 * k
            left = players * (STARTING_DECK.get(front, 0) + STARTING_DECK.get(front + 1, 0)) + start[front]
            if start[front]:
                # A solo game with an empty supply is over (lost): keep one card so that it goes on.
                low = 1 if players == 1 and front == CS else 0
                supply[front] = draw(st.integers(low, min(start[front], left)))
                left -= supply[front]
            while left:
                n = draw(st.integers(1, left))
                face = front + draw(st.integers(0, 1))
                owner, pile = draw(st.sampled_from(places))
                left -= n
                if pile == "deck_known":
                    owner["deck_known"] += [face] * n
                else:
                    target_pile = owner[pile] if owner else {"play_area": play_area, "removed": removed}[pile]
                    target_pile[face] += n
        for s in seats:
            s["deck_known"] = draw(st.permutations(s["deck_known"]))
        current = draw(st.integers(0, players - 1))
        me = seats[current]
        phase = draw(st.sampled_from(["play", "build"]))
        limit_bonus = draw(st.integers(0, 2))
        fields = dict(
            current=current,
            phase=phase,
            turn=draw(st.integers(0, params["max_turns"] * players - 1)),
            cash=draw(st.integers(0, 25)),
            points=draw(st.integers(0, 10)),
            limit_bonus=limit_bonus,
            unhappiness=draw(st.integers(0, 2 + limit_bonus)),
        )
        deck = me["deck_known"] or any(me["deck_unknown"])
        pendings = ["none"]
        if phase == "play":
            pendings += ["shuffle"] + (["bottom"] if any(me["deck_unknown"]) else [])
            pendings += ["give_apartment"] if players > 1 and me["discard"][APT] else []
            pendings += ["remove"] if players == 1 and any(supply) else []
        else:
            fields.update(
                main=draw(st.booleans()),
                extra_buys=draw(st.integers(0, 2)),
                extra_flips=draw(st.integers(0, 2)),
                discount=draw(st.integers(0, 2)),
            )
        fields["pending"] = draw(st.sampled_from(pendings))
        # The Mall's obligation exists only with cards in the deck and nothing pending (a play clears it).
        if phase == "play" and deck and fields["pending"] == "none":
            fields["forced"] = draw(st.booleans())
        as_dict = lambda c: {f: n for f, n in enumerate(c) if n}  # noqa: E731 - position() reads dicts
        pos = position(
            players,
            seats=seats,
            play_area=as_dict(play_area),
            removed=as_dict(removed),
            supply=as_dict(supply),
            params=params,
            **fields,
        )
        assert pos["supply"] == supply and pos["removed"] == removed  # nothing was left over
        return pos

    return positions()


positions = _positions
