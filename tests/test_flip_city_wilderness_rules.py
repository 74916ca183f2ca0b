"""Flip City: Wilderness and mixed Flip City supplies: every rulebook example, FAQ answer and card text
(docs/rules/flip_city_wilderness.md §9) as a scenario, on both engines.

Each test builds a position in the family-layout serialization (docs/rules/flip_city_wilderness.md §7) with
``position``, applies the actions of the example and checks the outcome the rulebook states; the docstring
quotes the rulebook. The Rust engine is skipped until it registers ``flip_city_wilderness``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping

import pytest
from hypothesis import assume, event, given, note, settings
from hypothesis import strategies as st

import meeplex
from meeplex.errors import IllegalActionError, InvalidNotationError, InvalidStateError
from meeplex.testing import effort
from meeplex.testing.differential import Lockstep
from meeplex.testing.strategies import action_choices, pick

# §2.1 face ids (family layout, F = 22).
F = 22
(RA, APT, CS, MALL, PARK, STATION, HOSP, CHURCH, OFFICE, TRADE, FACTORY, PLANT,
 TP, CR, LOG, ARCH, FM, INTER, WIND, AIRPORT, CAMP, RES) = range(F)  # fmt: skip

# §5 action ids (family layout).
PLAY, STOP, END = 0, 1, 2
EXCAVATE = 18 + 6 * F


def shuffle(k: int = 0) -> int:
    return 3 + k


def recycle(face: int) -> int:
    return 14 + face


def buy(face: int) -> int:
    return 14 + F + face


def develop(face: int) -> int:
    return 14 + 2 * F + face


def flip(face: int) -> int:
    return 14 + 3 * F + face


def target(seat: int) -> int:
    return 14 + 4 * F + seat


def remove(face: int) -> int:
    return 18 + 4 * F + face


def select(face: int) -> int:
    return 18 + 5 * F + face


# §1.1 piles, §2.3 starting decks.
PILES = {
    "cs": (CS, 12), "park": (PARK, 8), "hosp": (HOSP, 12), "off": (OFFICE, 10), "fac": (FACTORY, 8),
    "log": (LOG, 12), "market": (FM, 12), "wind": (WIND, 8), "camp": (CAMP, 8),
}  # fmt: skip
STARTING = {
    "flip_city": {RA: 4, APT: 1, CS: 1, PARK: 1, HOSP: 1, FACTORY: 1},
    "flip_city_wilderness": {TP: 4, CR: 1, LOG: 1, FM: 1, WIND: 1, CAMP: 1},
}
DEFAULT_PILES = {"flip_city": "cs+park+hosp+fac", "flip_city_wilderness": "log+market+wind+camp"}

WILDERNESS = "flip_city_wilderness"


@pytest.fixture(autouse=True)
def _rust_needs_wilderness(engine):
    if engine.name == "rust" and WILDERNESS not in meeplex.games():
        pytest.skip("the Rust core does not register flip_city_wilderness yet")


def counts(cards: Iterable[int] | Mapping[int, int] = ()) -> list[int]:
    """Counts per face from a list of faces (repeats allowed) or a {face: count} dict."""
    out = [0] * F
    items = cards.items() if isinstance(cards, Mapping) else ((f, 1) for f in cards)
    for face, n in items:
        out[face] += n
    return out


def seat(deck_known=(), deck_unknown=(), discard=(), deck_bottom=(), best=0, limit_next=0) -> dict:
    return {
        "best": best,
        "deck_bottom": list(deck_bottom),
        "deck_known": list(deck_known),
        "deck_unknown": counts(deck_unknown),
        "discard": counts(discard),
        "limit_next": limit_next,
    }


def starting_supply(game) -> list[int]:
    params = game.params
    codes = set(params.get("supply", DEFAULT_PILES[game.name]).split("+"))
    if params["office"]:
        codes.add("off")
    supply = [0] * F
    for code in codes:
        front, size = PILES[code]
        supply[front] = 4 if params["players"] == 1 else size
    return supply


def position(game, *, seats=None, play_area=(), removed=(), supply=None, filler=None, **fields) -> dict:
    """A valid §7 state dict for ``game``. Cards of a type not placed go to the supply (up to its starting
    size), then to the discard pile of ``filler`` (default: the seat after the current one), or in solo to
    ``removed``. ``fields`` override the top-level keys."""
    players = game.params["players"]
    seats = [dict(s) for s in (seats or [seat() for _ in range(players)])]
    assert len(seats) == players
    state = {
        "cash": 0, "chosen": -1, "current": 0, "digs": 0, "discount": False, "extra_buys": 0,
        "extra_flips": 0, "flip_cash": 0, "forced": False, "game": game.name, "history": [], "limit_bonus": 0,
        "main": False, "params": game.params, "pending": "none", "phase": "play",
        "play_area": counts(play_area), "points": 0, "removed": counts(removed), "seats": seats,
        "supply": None, "turn": 0, "unhappiness": 0, "version": 2, "winner": -1,
        "played": sum(counts(play_area)), "store_played": counts(play_area)[CS] > 0, "shuffled": False,
    }  # fmt: skip
    state.update(fields)
    if isinstance(state["discount"], bool):
        state["discount"] = int(state["discount"])  # one Station's "1 less"
    start = starting_supply(game)
    state["supply"] = counts(supply) if supply is not None else [0] * F
    used = [0] * F
    for s in seats:
        for face in s["deck_known"] + s["deck_bottom"]:
            used[face] += 1
        for pile in (s["deck_unknown"], s["discard"]):
            used = [a + b for a, b in zip(used, pile, strict=True)]
    used = [a + b + c for a, b, c in zip(used, state["play_area"], state["removed"], strict=True)]
    if filler is None:
        filler = (state["current"] + 1) % players
    deck = STARTING[game.name]
    for k in range(F // 2):
        front = 2 * k
        total = players * (deck.get(front, 0) + deck.get(front + 1, 0)) + start[front]
        left = total - used[front] - used[front + 1]
        if state["pending"] in ("give_resort",) and front == TP:
            left -= 1  # the card in transit
        if supply is None:
            state["supply"][front] = min(left, start[front])
        left -= state["supply"][front]
        assert left >= 0, f"scenario uses too many cards of face {front}"
        if left and players == 1:
            state["removed"][front] += left
        elif left:
            seats[filler]["discard"][front] += left
    return state


def dump(obj: dict) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def view(state) -> dict:
    return json.loads(state.serialize())


def setup(make, game_id: str = WILDERNESS, params: Mapping | None = None, **kwargs):
    """The game and the state of ``position(game, **kwargs)``."""
    game = make(game_id, **(params or {}))
    return game, game.deserialize_state(dump(position(game, **kwargs)))


def play_turn(make, deck=(), players=2, game_id=WILDERNESS, params=None, discard=(), others=None, **fields):
    """Seat 0 in its Play Cards phase with ``deck`` as its known deck and ``discard`` as its discard pile; the
    other seats have a known card on top, so that no chance node comes first."""
    others = others or [seat(deck_known=[LOG]) for _ in range(players - 1)]
    seats = [seat(deck_known=deck, discard=discard)] + others
    return setup(make, game_id, dict(params or {}, players=players), seats=seats, **fields)


def build_turn(make, discard=(), players=2, game_id=WILDERNESS, params=None, **fields):
    """Seat 0 in its Building phase, main action available, with ``discard`` as its discard pile."""
    seats = [seat(discard=discard)] + [seat(deck_known=[LOG]) for _ in range(players - 1)]
    fields.setdefault("main", True)
    return setup(make, game_id, dict(params or {}, players=players), seats=seats, phase="build", **fields)


def limit_index(players: int) -> int:
    """§6 family layout: the limit's index (after the seats, supply, play area, removed, current one-hot,
    cash, points, unhappiness)."""
    return (4 * F + 1) * players + 3 * F + players + 3


# --- A: Play Cards Phase -----------------------------------------------------------------------------------


def test_wind_farm_provides_two_cash(make):
    """Play Cards 1: "Example: A Wind Farm provides 2 cash when played." """
    game, state = play_turn(make, deck=[WIND, LOG])
    state.apply_action(PLAY)
    v = view(state)
    assert (v["cash"], v["points"], v["unhappiness"]) == (2, 0, 0)
    assert state.legal_actions() == [PLAY, STOP]


def test_trailer_park_on_top_must_be_played(make):
    """Trailer Park: "When Trailer Park is the top card of your deck, you must play it." — a recycle may come
    first (W 3)."""
    game, state = play_turn(make, deck=[TP, LOG])
    assert state.legal_actions() == [PLAY]
    game, state = play_turn(make, deck=[TP, LOG], discard=[RES])
    assert state.legal_actions() == [PLAY, recycle(RES)]
    state.apply_action(PLAY)
    v = view(state)
    # W 2, as printed: "Trailer Park — Building Cost: 1. Provides: 1 unhappiness." (no cash)
    assert (v["cash"], v["unhappiness"]) == (0, 1)
    game, state = play_turn(make, deck=[TP, LOG], params={"trailer_cash": 1})
    state.apply_action(PLAY)
    assert (view(state)["cash"], view(state)["unhappiness"]) == (
        1,
        1,
    )  # trailer_cash=1: the cash-coin reading


@pytest.mark.parametrize(("trailer_cash", "cash"), [(1, 1), (0, 0)])
def test_trailer_park_cash(make, trailer_cash, cash):
    """Trailer Park: "Building Cost: 1. Provides: 1 unhappiness." — the coin is its cash (W 2)."""
    game, state = play_turn(make, deck=[TP, LOG], params={"trailer_cash": trailer_cash})
    state.apply_action(PLAY)
    assert view(state)["cash"] == cash
    assert all(buy(TP) != a for a in state.legal_actions())


def test_a3_trailer_park_at_the_limit_must_be_played_and_ends_the_turn(make):
    """A.3: "if there are 3 or more unhappiness among the cards you played, your turn ends immediately" and
    the Trailer Park must be played (W 3)."""
    game, state = play_turn(make, deck=[TP, LOG], play_area=[TP, FM], cash=3, unhappiness=2)
    assert state.legal_actions() == [PLAY]
    state.apply_action(PLAY)
    v = view(state)
    assert state.current_player() == 1 and v["current"] == 1 and v["turn"] == 1
    assert v["seats"][0]["discard"] == counts({TP: 2, FM: 1})
    assert v["seats"][0]["deck_known"] == [LOG]


def test_a3_trailer_park_not_played_after_exceeding_limit(make):
    """A.3: "If you exceed your limit and there is still a Trailer Park on top of your deck, you do not play
    it, your turn ends immediately." """
    game, state = play_turn(make, deck=[FM, TP, LOG], play_area=[TP, TP], cash=2, unhappiness=2)
    state.apply_action(PLAY)
    v = view(state)
    assert state.current_player() == 1
    assert v["seats"][0]["deck_known"] == [TP, LOG]
    assert v["seats"][0]["discard"] == counts({TP: 2, FM: 1})
    assert state.returns() == [0.0, 0.0]


@pytest.mark.parametrize(("reading", "limit", "flip_cash"), [("limit", 1, 0), ("cash", 0, 3), ("both", 1, 3)])
def test_a3_note_water_reservoir_recycled(make, reading, limit, flip_cash):
    """A.3 Note: "The Water Reservoir increases this limit during a turn in which it is recycled, allowing you
    to safely play more unhappiness."; the card: "Can only be used for Flip and Develop actions" (W 13)."""
    game, state = play_turn(
        make, deck=[TP, LOG], discard=[RES], play_area=[TP, FM], cash=3, unhappiness=2,
        params={"reservoir_recycle": reading},
    )  # fmt: skip
    state.apply_action(recycle(RES))
    v = view(state)
    assert (v["limit_bonus"], v["flip_cash"], v["cash"]) == (limit, flip_cash, 3)
    assert v["seats"][0]["discard"] == counts({CAMP: 1})  # A.4: it stays, turned over
    assert state.observation_tensor(1)[limit_index(2)] == 2 + limit
    state.apply_action(PLAY)
    v = view(state)
    if limit:
        assert state.current_player() == 0 and v["unhappiness"] == 3 and v["phase"] == "play"
    else:
        assert state.current_player() == 1 and v["turn"] == 1


def test_a4_interchange_recycled_stays_in_discard_pile(make):
    """A.4: "you can turn over a recyclable card in your discard pile to gain temporary cash ... the recycled
    card still remains in your discard pile." (Interchange: +1 cash, W 9)"""
    for amount in (1, 0):
        game, state = play_turn(make, deck=[LOG], discard=[INTER], params={"interchange_cash": amount})
        assert recycle(INTER) in state.legal_actions()
        state.apply_action(recycle(INTER))
        v = view(state)
        assert v["cash"] == amount
        assert v["seats"][0]["discard"] == counts({FM: 1})


# --- Card texts ------------------------------------------------------------------------------------------


def test_interchange_left_in_discard_pile_through_a_shuffle(make):
    """Interchange: "You must leave this card in your discard pile when you shuffle." """
    game, state = play_turn(make, deck=[], discard={INTER: 2, LOG: 1, TP: 1})
    assert state.legal_actions() == [STOP, shuffle(0), recycle(INTER)]
    state.apply_action(shuffle(0))
    v = view(state)
    assert v["seats"][0]["discard"] == counts({INTER: 2})
    assert v["seats"][0]["deck_unknown"] == counts({LOG: 1, TP: 1})
    assert state.current_player() == meeplex.CHANCE


def test_shuffle_refused_when_only_interchanges_would_move(make):
    """Interchange stays at a shuffle, so a shuffle of a discard pile of Interchanges changes nothing and is
    not offered (W 9, FC interp. 13)."""
    game, state = play_turn(make, deck=[], discard={INTER: 2})
    assert state.legal_actions() == [STOP, recycle(INTER)]


def test_trade_center_shuffle_leaves_interchanges(make):
    """Trade Center: "shuffle your discard pile into your deck"; Interchange stays (mixed supply)."""
    game, state = play_turn(
        make, deck=[TRADE, LOG], discard={INTER: 1, OFFICE: 1},
        params={"supply": "log+off+hosp+fac+park"},
    )  # fmt: skip
    state.apply_action(PLAY)
    assert state.legal_actions() == [shuffle(0), shuffle(1)]
    state.apply_action(shuffle(1))
    v = view(state)
    assert v["seats"][0]["deck_known"] == [OFFICE]
    assert v["seats"][0]["deck_unknown"] == counts({LOG: 1})
    assert v["seats"][0]["discard"] == counts({INTER: 1})


def test_archaeology_site_recycled_to_the_bottom_of_the_deck(make):
    """Logging Site / Archaeology Site: "Recycle Ability: Return this card to the bottom of your deck." (W 5
    ``proposed``: the Archaeology Site turns back and goes to the bottom, W 6)."""
    seats = [seat(deck_known=[WIND], deck_unknown={TP: 2}, discard=[ARCH]), seat(deck_known=[LOG])]
    game, state = setup(make, seats=seats)
    assert recycle(ARCH) in state.legal_actions() and recycle(LOG) not in state.legal_actions()
    state.apply_action(recycle(ARCH))
    v = view(state)
    assert v["seats"][0]["deck_bottom"] == [LOG]
    assert v["seats"][0]["discard"] == [0] * F
    assert v["cash"] == 0 and v["points"] == 0
    # The deck's counts include the known bottom card (§6).
    assert state.observation_tensor(0)[LOG] == 1


def test_archaeology_site_recycled_into_an_empty_deck_can_be_played(make):
    """W 6: a card recycled "to the bottom" of an empty deck becomes the whole, known deck."""
    game, state = play_turn(make, deck=[], discard=[ARCH])
    assert state.legal_actions() == [STOP, shuffle(0), recycle(ARCH)]
    state.apply_action(recycle(ARCH))
    v = view(state)
    assert v["seats"][0]["deck_known"] == [LOG] and v["seats"][0]["deck_bottom"] == []
    # FC interp. 20: nothing played and no shuffle yet, so the first card must be played before a stop.
    assert state.legal_actions() == [PLAY]


def test_known_bottom_card_joins_the_known_deck_when_the_rest_is_revealed(make):
    """§3: when the unknown part is used up, the known bottom cards follow the revealed card."""
    seats = [seat(deck_known=[WIND], deck_unknown={TP: 1}, deck_bottom=[LOG, ARCH]), seat(deck_known=[LOG])]
    game, state = setup(make, seats=seats)
    state.apply_action(PLAY)
    assert state.current_player() == meeplex.CHANCE
    assert state.chance_weights() == [(TP, 1)]
    state.apply_action(TP)
    v = view(state)
    assert v["seats"][0]["deck_known"] == [TP, LOG, ARCH] and v["seats"][0]["deck_bottom"] == []


def test_factory_takes_the_known_bottom_card(make):
    """Factory: "If your deck is not empty, place the bottom card from your deck into your discard pile." —
    a card recycled to the bottom is the known bottom card (W 6; mixed supply)."""
    seats = [seat(deck_known=[FACTORY], deck_unknown={TP: 2}, deck_bottom=[LOG]), seat(deck_known=[LOG])]
    game, state = setup(make, params={"supply": "log+off+hosp+fac+park"}, seats=seats)
    state.apply_action(PLAY)
    v = view(state)
    assert v["cash"] == 2 and v["pending"] == "none"
    assert v["seats"][0]["discard"] == counts({LOG: 1}) and v["seats"][0]["deck_bottom"] == []
    assert state.current_player() == meeplex.CHANCE and state.chance_weights() == [(TP, 2)]
    assert state.action_to_string(TP) == "reveal Trailer Park"


def test_archaeology_site_twenty_cash_for_three_points(make):
    """B, Note: "The Archaeology Site allows you to spend 20 cash in order to gain 3 points during the
    Building phase." (W 7: once per Archaeology Site played, not the Building action; the points count)"""
    game, state = play_turn(
        make, params={"dig": "played"}, deck=[], play_area={ARCH: 1, AIRPORT: 2, RES: 1}, cash=24, points=6
    )
    assert EXCAVATE not in state.legal_actions()
    state.apply_action(STOP)
    v = view(state)
    assert v["digs"] == 1
    assert EXCAVATE in state.legal_actions() and buy(LOG) in state.legal_actions()
    state.apply_action(buy(LOG))  # the Building action first
    assert state.legal_actions() == [END, EXCAVATE]
    assert state.action_to_string(EXCAVATE) == "excavate"
    state.apply_action(EXCAVATE)
    v = view(state)
    assert (v["cash"], v["points"], v["digs"], v["main"]) == (2, 9, 0, False)
    assert state.legal_actions() == [END]
    state.apply_action(END)
    assert state.is_terminal() and state.returns() == [1.0, 0.0]
    assert state.scores() == [9.0, 0.0]


def test_archaeology_site_needs_twenty_cash(make):
    """Archaeology Site: "Pay 20 cash to gain 3 points." """
    game, state = build_turn(make, play_area={ARCH: 2}, cash=19, digs=2)
    assert EXCAVATE not in state.legal_actions()


def test_printed_logging_and_archaeology_texts(make):
    """W 5 ``printed``: the Logging Site's recycle sends it (turned over) to the bottom of the deck; the
    Archaeology Site's recycle pays 20 cash for 3 points; the fee 2 is the Archaeology Site's."""
    params = {"logging_text": "printed"}
    seats = [seat(deck_known=[WIND], deck_unknown={TP: 1}, discard={LOG: 1, ARCH: 1}), seat(deck_known=[LOG])]
    game, state = setup(make, params=params, seats=seats, cash=19)
    assert recycle(LOG) in state.legal_actions() and recycle(ARCH) not in state.legal_actions()
    state.apply_action(recycle(LOG))
    v = view(state)
    assert v["seats"][0]["deck_bottom"] == [ARCH] and v["seats"][0]["discard"] == counts({ARCH: 1})
    game, state = setup(make, params=params, seats=seats, cash=21)
    assert recycle(ARCH) not in state.legal_actions()  # W 7: "during the Building phase", not now
    game, state = build_turn(make, params=params, discard={LOG: 1, ARCH: 1}, cash=21)
    state.apply_action(recycle(ARCH))
    v = view(state)
    assert (v["cash"], v["points"]) == (1, 3)
    assert v["seats"][0]["discard"] == counts({LOG: 2})
    game, state = build_turn(make, params=params, discard=[ARCH, LOG], cash=20, play_area={ARCH: 1})
    legal = state.legal_actions()
    assert flip(ARCH) in legal and flip(LOG) not in legal and develop(LOG) not in legal
    assert EXCAVATE not in legal


def test_farmers_market_removes_a_played_card(make):
    """Farmer's Market: "When you Buy or Develop this card: Remove one card you played this turn from the
    game." (W 8)"""
    game, state = build_turn(make, cash=3, play_area={TP: 1, WIND: 1})
    state.apply_action(buy(FM))
    v = view(state)
    assert v["pending"] == "market" and v["seats"][0]["discard"][FM] == 1
    assert state.legal_actions() == [select(TP), select(WIND)]
    assert state.action_to_string(select(TP)) == "select Trailer Park"
    removed_before = v["removed"][TP]
    state.apply_action(select(TP))
    v = view(state)
    assert v["play_area"] == counts({WIND: 1}) and v["removed"][TP] == removed_before + 1
    assert v["pending"] == "none" and state.legal_actions() == [END]


def test_farmers_market_develop_removes_too(make):
    """Farmer's Market: "When you Buy or Develop this card" — Develop (3 + 4) also removes."""
    game, state = build_turn(make, cash=7, play_area={LOG: 1})
    state.apply_action(develop(FM))
    v = view(state)
    assert v["pending"] == "market" and v["seats"][0]["discard"][INTER] == 1
    state.apply_action(select(LOG))
    assert view(state)["play_area"] == [0] * F


def test_farmers_market_with_nothing_played_removes_nothing(make):
    """W 8: the removal needs a played card."""
    game, state = build_turn(make, cash=3)
    state.apply_action(buy(FM))
    assert view(state)["pending"] == "none"


def test_wind_farm_gives_an_extra_flip(make):
    """Wind Farm: "When you Buy or Develop this card: Additionally, you may Flip once during this Building
    Phase." (W 10: even the Wind Farm itself)"""
    game, state = build_turn(make, cash=11)
    state.apply_action(buy(WIND))
    v = view(state)
    assert (v["main"], v["extra_flips"], v["cash"]) == (False, 1, 6)
    assert flip(WIND) in state.legal_actions()
    state.apply_action(flip(WIND))
    v = view(state)
    assert v["seats"][0]["discard"] == counts({AIRPORT: 1}) and v["extra_flips"] == 0 and v["cash"] == 0


def test_camping_grounds_raises_next_turns_limit(make):
    """Camping Grounds: "When you Buy or Develop this card: Add +1 to your unhappiness limit next turn."
    (W 12: the happiness tokens become state)"""
    seats = [seat(deck_known=[TP]), seat(deck_known=[LOG])]
    game, state = setup(make, seats=seats, phase="build", main=True, cash=4)
    state.apply_action(buy(CAMP))
    v = view(state)
    assert v["seats"][0]["limit_next"] == 1 and v["limit_bonus"] == 0
    assert state.observation_tensor(0)[4 * F] == 1  # §6: the seat's limit_next
    state.apply_action(END)
    v = view(state)
    assert (v["current"], v["limit_bonus"], v["seats"][0]["limit_next"]) == (1, 0, 1)
    state.apply_action(PLAY)  # FC interp. 20: a card is played before a stop
    state.apply_action(STOP)
    state.apply_action(END)
    v = view(state)
    assert (v["current"], v["limit_bonus"], v["seats"][0]["limit_next"]) == (0, 1, 0)
    assert state.observation_tensor(0)[limit_index(2)] == 3


def test_country_resort_shuffled_into_an_opponents_deck(make):
    """Country Resort: "Flip Fee: 9. Flip this card and shuffle it into an opponent's deck." (W 4)"""
    others = [seat(deck_known=[LOG]), seat(deck_known=[WIND, CAMP], deck_unknown={TP: 1})]
    seats = [seat(discard=[CR])] + others
    game, state = setup(make, params={"players": 3}, seats=seats, phase="build", main=True, cash=9)
    assert flip(CR) in state.legal_actions()
    state.apply_action(flip(CR))
    v = view(state)
    assert (v["pending"], v["cash"], v["main"]) == ("give_resort", 0, False)
    assert v["seats"][0]["discard"][CR] == 0
    assert state.legal_actions() == [target(1), target(2)]
    state.apply_action(target(2))
    v = view(state)
    assert v["pending"] == "none"
    assert v["seats"][2]["deck_known"] == [] and v["seats"][2]["deck_unknown"] == counts(
        {TP: 2, WIND: 1, CAMP: 1}
    )
    assert state.current_player() == meeplex.CHANCE
    assert state.chance_weights() == [(TP, 2), (WIND, 1), (CAMP, 1)]


def test_country_resort_needs_its_fee(make):
    """Country Resort: "Flip Fee: 9"."""
    game, state = build_turn(make, cash=8, discard=[CR])
    assert flip(CR) not in state.legal_actions()


def test_airport_shuffles_a_card_into_any_players_deck(make):
    """Airport: "Recycle Ability: Choose a card in any discard pile, and shuffle it into that player's deck."
    (W 11)"""
    others = [seat(deck_known=[LOG, CAMP], discard={TP: 2}), seat(deck_known=[LOG])]
    game, state = play_turn(make, players=3, deck=[WIND], discard=[AIRPORT], others=others, filler=2)
    state.apply_action(recycle(AIRPORT))
    v = view(state)
    assert v["pending"] == "airport" and v["seats"][0]["discard"] == counts({WIND: 1})
    assert state.legal_actions() == [target(0), target(1), target(2)]
    state.apply_action(target(1))
    v = view(state)
    assert (v["pending"], v["chosen"]) == ("airport_card", 1)
    assert state.legal_actions() == [select(TP)]
    state.apply_action(select(TP))
    v = view(state)
    assert (v["pending"], v["chosen"]) == ("none", -1)
    assert v["seats"][1]["discard"] == counts({TP: 1})
    assert v["seats"][1]["deck_known"] == [] and v["seats"][1]["deck_unknown"] == counts(
        {TP: 1, LOG: 1, CAMP: 1}
    )
    assert state.current_player() == meeplex.CHANCE


def test_airport_may_choose_its_own_wind_farm(make):
    """W 11: the Airport turns over first, so its Wind Farm may be the card chosen."""
    game, state = play_turn(make, deck=[LOG], discard=[AIRPORT])
    state.apply_action(recycle(AIRPORT))
    state.apply_action(target(0))
    assert state.legal_actions() == [select(WIND)]
    state.apply_action(select(WIND))
    v = view(state)
    assert v["seats"][0]["deck_unknown"] == counts({WIND: 1, LOG: 1}) and v["seats"][0]["deck_known"] == []


OFFICE_SUPPLY = {"supply": "log+market+wind+camp+off", "colours": "none"}


def test_airport_into_its_own_deck_may_set_an_office_aside(make):
    """Office: "When you would shuffle this card, you may set it aside instead, placing it on top afterwards";
    Airport: "Choose a card in any discard pile, and shuffle it into that player's deck." Choosing its own
    pile, the seat shuffles its own deck, so its Office may be set aside (W 20; issue 14, item 4)."""
    game, state = play_turn(make, deck=[LOG, OFFICE], discard=[AIRPORT], params=OFFICE_SUPPLY)
    state.apply_action(recycle(AIRPORT))
    state.apply_action(target(0))
    state.apply_action(select(WIND))
    v = view(state)
    assert v["pending"] == "airport_aside"
    assert state.current_player() == 0  # the Office is set aside before the new top card is revealed
    assert state.legal_actions() == [shuffle(0), shuffle(1)]
    assert state.action_to_string(shuffle(1)) == "shuffle aside 1"
    state.apply_action(shuffle(1))
    v = view(state)
    assert v["pending"] == "none"
    assert v["seats"][0]["deck_known"] == [OFFICE]
    assert v["seats"][0]["deck_unknown"] == counts({LOG: 1, WIND: 1})
    assert state.current_player() == 0  # the top card is the Office: nothing to reveal


def test_airport_office_kept_in_the_shuffle_reveals_a_card(make):
    """The same choice declined ("you may"): the deck is shuffled with its Office, its top card revealed."""
    game, state = play_turn(make, deck=[OFFICE], discard=[AIRPORT], params=OFFICE_SUPPLY)
    state.apply_action(recycle(AIRPORT))
    state.apply_action(target(0))
    state.apply_action(select(WIND))
    state.apply_action(shuffle(0))
    assert view(state)["pending"] == "none"
    assert state.current_player() == meeplex.CHANCE
    assert state.chance_weights() == [(OFFICE, 1), (WIND, 1)]


def test_airport_into_an_opponents_deck_does_not_set_its_office_aside(make):
    """Office: "When *you* would shuffle this card": an Airport that shuffles another seat's deck is not that
    seat shuffling, so the Office stays in the shuffle (W 20), as with a Country Resort."""
    others = [seat(deck_known=[OFFICE], discard={LOG: 1})]
    game, state = play_turn(make, deck=[LOG], discard=[AIRPORT], others=others, params=OFFICE_SUPPLY)
    state.apply_action(recycle(AIRPORT))
    state.apply_action(target(1))
    state.apply_action(select(LOG))
    v = view(state)
    assert v["pending"] == "none"
    assert v["seats"][1]["deck_known"] == [] and v["seats"][1]["deck_unknown"] == counts({OFFICE: 1, LOG: 1})
    assert state.current_player() == meeplex.CHANCE


def test_airport_aside_needs_a_freshly_shuffled_deck_with_an_office(make):
    """§7: ``airport_aside`` only while the current seat's deck is all unknown and holds an Office."""
    with pytest.raises(InvalidStateError):
        play_turn(make, deck=[LOG], discard=[AIRPORT], params=OFFICE_SUPPLY, pending="airport_aside")


# --- B: Building Phase, Game End ---------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3])
def test_victory_by_eight_points(make, players):
    """B: "After selecting and executing your action for the turn, if you were provided with 8 points, then
    you win!" """
    game, state = build_turn(make, players=players, points=8, play_area={AIRPORT: 2, RES: 2})
    state.apply_action(END)
    assert state.is_terminal() and state.returns() == [1.0] + [0.0] * (players - 1)


def test_seven_points_do_not_win(make):
    """Game End: "Whenever a player gains 8 points or more" — 7 are not enough."""
    game, state = build_turn(make, points=7, play_area={AIRPORT: 2, RES: 1})
    state.apply_action(END)
    assert not state.is_terminal() and state.scores() == [7.0, 0.0]


def test_no_eighteen_card_victory_in_wilderness(make):
    """Game End names only the 8 points (W 14): 18 cards played are no win without a Convenience Store."""
    game, state = build_turn(make, play_area={TP: 6, LOG: 6, WIND: 6})
    state.apply_action(END)
    assert not state.is_terminal()


def test_convenience_store_condition_in_a_mixed_supply(make):
    """Flip City Game End: "or satisfies another victory condition printed on a card they played (such as the
    Convenience Store)" — it holds in a Wilderness game with a Convenience Store pile (W 14)."""
    params = {"supply": "cs+park+market+wind+camp"}
    game, state = build_turn(make, params=params, play_area={CS: 1, TP: 4, LOG: 1, WIND: 6, CAMP: 6})
    state.apply_action(END)
    assert state.is_terminal() and state.returns() == [1.0, 0.0]


def test_faq1_limit_and_eight_points_same_turn_no_win(make):
    """FAQ Q1: "Your turn would end immediately during the Play Cards Phase. You check for victory only at
    the end of the Building Phase, so in this situation you would not win"."""
    game, state = play_turn(make, deck=[TP, LOG], play_area={AIRPORT: 2, RES: 2, FM: 2}, cash=4, points=8,
                            unhappiness=2)  # fmt: skip
    state.apply_action(PLAY)
    v = view(state)
    assert state.current_player() == 1 and not state.is_terminal()
    assert (v["winner"], v["turn"]) == (-1, 1)
    assert state.scores() == [0.0, 0.0]


def test_faq2_empty_supply_cannot_buy(make):
    """FAQ Q2: "What if the general supply is empty? You simply can't buy any cards." """
    game, state = build_turn(make, cash=30, supply=[])
    assert state.legal_actions() == [END]
    before = state.serialize()
    with pytest.raises(IllegalActionError):
        state.apply_action(buy(LOG))
    assert state.serialize() == before


def test_faq3_discard_piles_are_open(make):
    """FAQ Q3: "May I examine my discard pile? Yes" — every seat's observation shows every discard pile."""
    game, state = play_turn(make, deck=[LOG], discard={INTER: 1, AIRPORT: 1})
    for observer in (0, 1):
        offset = ((0 - observer) % 2) * (4 * F + 1)
        tensor = state.observation_tensor(observer)
        assert tensor[offset + 2 * F + INTER] == 1 and tensor[offset + 2 * F + AIRPORT] == 1


@pytest.mark.parametrize(
    ("game_id", "supply", "colours", "ok"),
    [
        ("flip_city", "cs+log+hosp+fac", "cost", False),  # Convenience Store and Logging Site
        ("flip_city", "cs+park+market+wind+camp", "cost", True),
        ("flip_city", "cs+park+hosp+fac+wind", "cost", False),  # Factory and Wind Farm
        (WILDERNESS, "log+market+wind+camp+off", "cost", False),  # Farmer's Market and Office
        (WILDERNESS, "log+market+wind+camp+off", "size", True),
        (WILDERNESS, "log+hosp+fac+park", "size", True),
        (WILDERNESS, "log+market+hosp", "size", False),  # Farmer's Market and Hospital
        (WILDERNESS, "cs+log", "none", True),
    ],
)
def test_faq4_no_two_piles_share_a_title_bar_colour(engine, game_id, supply, colours, ok):
    """FAQ Q4: "you should not have any pile of cards with the same color title bar as any other pile"."""
    if not ok:
        with pytest.raises(InvalidStateError):
            engine.make(game_id, supply=supply, colours=colours)
        return
    game = engine.make(game_id, supply=supply, colours=colours)
    v = view(game.new_initial_state())
    assert v["supply"] == counts({PILES[code][0]: PILES[code][1] for code in supply.split("+")})
    final = engine.play_random(engine.make(game_id, supply=supply, colours=colours, max_turns=3), 1)
    assert final.is_terminal()


def test_faq4_office_parameter_and_supply(make):
    """§1.1: ``office=true`` adds the Office pile; in Wilderness it shares the Farmer's Market's colour."""
    with pytest.raises(InvalidStateError):
        make(WILDERNESS, office=True)
    game = make(WILDERNESS, office=True, supply="log+wind+camp")
    assert game.params["supply"] == "off+log+wind+camp" and game.params["office"] is True


# --- Solo Variant ------------------------------------------------------------------------------------------

SOLO_CARDS = {TP: 4, CR: 1, LOG: 1, FM: 1, WIND: 1, CAMP: 1}


def test_solo_supply_of_four_each(make):
    """Solo 1: "fill the general supply with only 4 of each card (Logging Site, Farmer's Market, Wind Farm,
    and Camping Grounds)." """
    v = view(make(WILDERNESS, players=1).new_initial_state())
    assert v["supply"] == counts({LOG: 4, FM: 4, WIND: 4, CAMP: 4})
    assert v["seats"][0]["deck_unknown"] == counts(SOLO_CARDS)


def test_solo_removal_at_each_shuffle(make):
    """Solo 2: "each time you shuffle your deck, you must choose a card in the supply and remove it from the
    game" """
    game, state = setup(make, params={"players": 1}, seats=[seat(discard=SOLO_CARDS)])
    state.apply_action(shuffle(0))
    assert view(state)["pending"] == "remove" and state.current_player() == meeplex.CHANCE
    state.apply_action(LOG)
    assert state.legal_actions() == [remove(LOG), remove(FM), remove(WIND), remove(CAMP)]
    state.apply_action(remove(WIND))
    v = view(state)
    assert (v["removed"][WIND], v["supply"][WIND], v["pending"]) == (1, 3, "none")


def test_solo_airport_shuffle_removes_a_card(make):
    """Solo 2 "each time you shuffle your deck" — also when an Airport shuffles a card into it (W 19)."""
    seats = [seat(deck_known=[LOG], deck_unknown={TP: 4, CR: 1, FM: 1, CAMP: 1}, discard=[AIRPORT])]
    game, state = setup(make, params={"players": 1}, seats=seats)
    state.apply_action(recycle(AIRPORT))
    assert state.legal_actions() == [target(0)]
    state.apply_action(target(0))
    state.apply_action(select(WIND))
    assert view(state)["pending"] == "remove"
    assert state.current_player() == meeplex.CHANCE  # the new top card first
    state.apply_action(TP)
    assert state.legal_actions() == [remove(LOG), remove(FM), remove(WIND), remove(CAMP)]


def test_solo_loss_when_the_supply_runs_out(make):
    """Solo 3: "the player must achieve it BEFORE the supply runs out of cards. When the supply is empty, you
    lose." """
    game, state = setup(make, params={"players": 1}, seats=[seat(discard=SOLO_CARDS)], supply={CAMP: 1})
    state.apply_action(shuffle(0))
    state.apply_action(TP)
    state.apply_action(remove(CAMP))
    assert state.is_terminal() and state.returns() == [0.0]


def test_solo_loss_buying_the_last_card_before_its_effect(make):
    """Solo 3 and W 22: buying the last card of the supply loses at once, Camping Grounds' effect unused."""
    seats = [seat(deck_known=[TP], deck_unknown={TP: 3, CR: 1, FM: 1, WIND: 1, CAMP: 1})]
    game, state = setup(make, params={"players": 1}, seats=seats, supply={CAMP: 1}, phase="build", main=True,
                        cash=4, points=8, play_area={LOG: 1})  # fmt: skip
    state.apply_action(buy(CAMP))
    v = view(state)
    assert state.is_terminal() and state.returns() == [0.0]
    assert v["seats"][0]["limit_next"] == 0


def test_solo_country_resort_flipped_is_removed(make):
    """Solo 4: "When Flipping a Country Resort, remove it from the game." """
    seats = [seat(deck_known=[TP], deck_unknown={TP: 3, LOG: 1, FM: 1, WIND: 1, CAMP: 1}, discard=[CR])]
    game, state = setup(make, params={"players": 1}, seats=seats, phase="build", main=True, cash=9)
    state.apply_action(flip(CR))
    v = view(state)
    assert v["removed"][CR] == 1 and v["seats"][0]["discard"][CR] == 0
    assert (v["pending"], v["cash"], v["main"]) == ("none", 0, False)


def test_solo_win(make):
    """Solo 3: "The winning condition is the same as the regular game"."""
    seats = [seat(deck_known=[TP], deck_unknown={TP: 3, CR: 1, FM: 1, WIND: 1, CAMP: 1})]
    game, state = setup(make, params={"players": 1}, seats=seats, phase="build", main=True, points=8,
                        play_area={LOG: 1})  # fmt: skip
    state.apply_action(END)
    assert state.is_terminal() and state.returns() == [1.0]


# --- Rulebook passages line by line (Components, Preparation, Game Sequence, A, B, Turn Ends, Game End,
# Card Anatomy): what the sections above do not cover yet ----------------------------------------------------


def test_components_76_cards_in_five_types(make):
    """Components: "76 double-sided cards in 6 types" — the counts of Preparation 1 and 2 make 76 cards in
    a four-player game, of five types (W 18): Trailer Park 20, Logging Site 16, Farmer's Market 16, Wind
    Farm 12, Camping Grounds 12."""
    v = view(make(WILDERNESS, players=4).new_initial_state())
    per_face = [0] * F
    for s in v["seats"]:
        for face in s["deck_known"] + s["deck_bottom"]:
            per_face[face] += 1
        per_face = [a + b + c for a, b, c in zip(per_face, s["deck_unknown"], s["discard"], strict=True)]
    per_face = [a + b for a, b in zip(per_face, v["supply"], strict=True)]
    types = {
        k: per_face[2 * k] + per_face[2 * k + 1]
        for k in range(F // 2)
        if per_face[2 * k] + per_face[2 * k + 1]
    }
    assert sum(per_face) == 76
    assert types == {TP // 2: 20, LOG // 2: 16, FM // 2: 16, WIND // 2: 12, CAMP // 2: 12}


# Components, the card list: (face, cash, points, unhappiness) provided when played, with the default
# parameters (the values the list leaves out are the facts' proposals: W 2, W 9, W 11, W 13).
PROVIDES = [
    (TP, 0, 0, 1),  # "Trailer Park — Building Cost: 1. Provides: 1 unhappiness." (W 2: as printed)
    (CR, 1, 0, 0),  # "Country Resort — Provides: 1 cash."
    (LOG, 1, 0, 0),  # "Logging Site — Building Cost: 2. Provides: 1 cash."
    (ARCH, 1, 0, 0),  # "Archaeology Site — Provides: 1 cash."
    (FM, 2, 0, 1),  # "Farmer's Market — Building Cost: 3. Provides: 1 unhappiness, 2 cash."
    (INTER, 0, 0, 0),  # "Interchange" (nothing printed, W 9)
    (WIND, 2, 0, 0),  # "Wind Farm — Building Cost: 5. Provides: 2 cash."
    (AIRPORT, 0, 2, 0),  # "Airport" (W 11: 2 points)
    (CAMP, 0, 0, 0),  # "Camping Grounds — Building Cost: 4."
    (RES, 0, 2, 0),  # "Water Reservoir" (W 13: 2 points)
]


@pytest.mark.parametrize(("face", "cash", "points", "unhappiness"), PROVIDES)
def test_components_what_each_card_provides(make, face, cash, points, unhappiness):
    """Components (the card list) and A.1: "The cards you play provide you with cash, points, unhappiness"."""
    game, state = play_turn(make, deck=[face, LOG])
    state.apply_action(PLAY)
    v = view(state)
    assert (v["cash"], v["points"], v["unhappiness"]) == (cash, points, unhappiness)
    assert v["play_area"] == counts([face])


# Components: "Building Cost" and "Flip Fee" of each pile's front, Develop = cost + fee (B: "pay its cost AND
# its Flip fee").
PRICES = [(LOG, 2, 2), (FM, 3, 4), (WIND, 5, 6), (CAMP, 4, 8)]


@pytest.mark.parametrize(("face", "cost", "fee"), PRICES)
def test_components_building_costs_and_develop_prices(make, face, cost, fee):
    """Components: "Logging Site — Building Cost: 2", "Farmer's Market — Building Cost: 3 ... Flip Fee: 4",
    "Wind Farm — Building Cost: 5 ... Flip Fee: 6", "Camping Grounds — Building Cost: 4. Flip Fee: 8" (the
    Logging Site's fee 2, W 5); B BUY: "pay its cost"; DEVELOP: "pay its cost AND its Flip fee"."""
    game, state = build_turn(make, cash=cost - 1)
    assert buy(face) not in state.legal_actions()
    game, state = build_turn(make, cash=cost)
    assert buy(face) in state.legal_actions() and develop(face) not in state.legal_actions()
    supply = view(state)["supply"][face]
    state.apply_action(buy(face))
    v = view(state)  # BUY: "put it into your discard pile" (front side up)
    assert v["cash"] == 0 and v["seats"][0]["discard"] == counts([face]) and v["supply"][face] == supply - 1
    game, state = build_turn(make, cash=cost + fee - 1)
    assert develop(face) not in state.legal_actions()
    game, state = build_turn(make, cash=cost + fee)
    assert develop(face) in state.legal_actions()
    state.apply_action(develop(face))
    v = view(state)
    assert v["cash"] == 0 and v["seats"][0]["discard"][face ^ 1] == 1  # "with its back side up"


@pytest.mark.parametrize(("face", "fee"), [(TP, 1), (CR, 9), (LOG, 2), (FM, 4), (WIND, 6), (CAMP, 8)])
def test_components_flip_fees(make, face, fee):
    """Components: "Trailer Park — ... Flip Fee: 1 ... Flips into: Country Resort", "Country Resort — Flip
    Fee: 9", and the fronts' fees; B FLIP: "pay its Flip fee, and turn it over to the other side"."""
    game, state = build_turn(make, cash=fee - 1, discard=[face])
    assert flip(face) not in state.legal_actions()
    game, state = build_turn(make, cash=fee, discard=[face])
    assert flip(face) in state.legal_actions()
    state.apply_action(flip(face))
    v = view(state)
    assert v["cash"] == 0
    if face != CR:  # the Country Resort leaves (its own test)
        assert v["seats"][0]["discard"] == counts([face ^ 1])  # "Flipped cards remain in your discard pile."


@pytest.mark.parametrize("face", [ARCH, INTER, AIRPORT, RES])
def test_components_back_sides_have_no_flip_fee(make, face):
    """Components: the back sides (Archaeology Site under W 5 ``proposed``, Interchange, Airport, Water
    Reservoir) print no Flip Fee, so they are never flipped back."""
    game, state = build_turn(make, cash=30, discard=[face])
    assert flip(face) not in state.legal_actions()


def test_happiness_tokens_are_reminders_not_a_cap(make):
    """Components: "9 optional happiness tokens. These may be used to remind you of card effects on your next
    turn." — the +1 limits are state, and the tokens are not a cap (W 12)."""
    seats = [seat(deck_known=[TP], limit_next=9), seat(deck_known=[LOG])]
    game, state = setup(make, seats=seats, phase="build", main=True, cash=4)
    state.apply_action(buy(CAMP))
    assert view(state)["seats"][0]["limit_next"] == 10


@pytest.mark.parametrize("players", [2, 4])
def test_preparation_1_starting_decks(make, players):
    """Preparation 1: "Each player takes the following cards: 4x Trailer Park, 1x Country Resort, 1x Logging
    Site, 1x Farmer's Market, 1x Wind Farm, 1x Camping Grounds. Shuffle yours together" — "keep the named
    side up": the Country Resort is dealt as a Country Resort; every deck is shuffled (unknown)."""
    v = view(make(WILDERNESS, players=players).new_initial_state())
    for s in v["seats"]:
        assert s["deck_unknown"] == counts({TP: 4, CR: 1, LOG: 1, FM: 1, WIND: 1, CAMP: 1})
        assert s["deck_known"] == [] and s["deck_bottom"] == [] and s["discard"] == [0] * F


@pytest.mark.parametrize("players", [2, 3, 4])
def test_preparation_2_general_supply(make, players):
    """Preparation 2: "12x Logging Site, 12x Farmer's Market, 8x Wind Farm, 8x Camping Grounds ... The front
    side of each card ... should be face-up." """
    v = view(make(WILDERNESS, players=players).new_initial_state())
    assert v["supply"] == counts({LOG: 12, FM: 12, WIND: 8, CAMP: 8})


def test_preparation_3_and_game_sequence_clockwise(make):
    """Preparation 3: "Determine Start Player" (W 23: seat 0); Game Sequence: "The start player will take the
    first turn, then play will proceed clockwise." """
    state = make(WILDERNESS, players=3, stop_before_play=True).new_initial_state()
    assert state.is_chance_node()  # the top cards are revealed first
    order = []
    for _ in range(4):
        while state.is_chance_node():
            state.apply_action(state.chance_weights()[-1][0])  # a Camping Grounds on top: no forced play
        order.append(state.current_player())
        state.apply_action(STOP)
        state.apply_action(END)
    assert order == [0, 1, 2, 0]


def test_a1_look_at_the_top_card_before_deciding(make):
    """A.1: "After you play each card, you must decide whether to play an additional card, or stop ... You may
    look at the top card of your deck when making this decision." — the next card is revealed (a chance node)
    before the seat decides, and every observation shows it."""
    seats = [seat(deck_known=[LOG], deck_unknown={WIND: 1, CAMP: 1}), seat(deck_known=[LOG])]
    game, state = setup(make, seats=seats)
    state.apply_action(PLAY)
    assert state.is_chance_node() and state.chance_weights() == [(WIND, 1), (CAMP, 1)]
    state.apply_action(CAMP)
    assert state.current_player() == 0 and state.legal_actions() == [PLAY, STOP]
    top = F  # §6: the one-hot of the top card follows the deck counts
    for observer in (0, 1):
        offset = ((0 - observer) % 2) * (4 * F + 1)
        assert list(state.observation_tensor(observer)[offset + top : offset + 2 * top]) == counts([CAMP])


def test_a2_empty_deck_stop_or_shuffle_then_play_again(make):
    """A.2: "Whenever your deck has no more cards in it, you must decide whether to stop ... or to shuffle
    your discard pile to recreate your deck. After shuffling, you again have the option to play an additional
    card, or stop"."""
    game, state = play_turn(make, deck=[LOG], discard={WIND: 1, CAMP: 1})
    state.apply_action(PLAY)
    assert state.legal_actions() == [STOP, shuffle(0)]
    state.apply_action(shuffle(0))
    v = view(state)
    assert v["seats"][0]["discard"] == [0] * F and v["seats"][0]["deck_unknown"] == counts({WIND: 1, CAMP: 1})
    assert v["play_area"] == counts([LOG])  # the played card is not shuffled in
    state.apply_action(WIND)
    assert state.legal_actions() == [PLAY, STOP]


def test_a3_three_unhappiness_ends_the_turn(make):
    """A.3: "You have an unhappiness limit of 2 ... if there are 3 or more unhappiness among the cards you
    played, your turn ends immediately, and your played cards are placed into your discard pile." — two
    Farmer's Markets are safe, a Trailer Park after them is not."""
    game, state = play_turn(make, deck=[FM, FM, TP, LOG])
    state.apply_action(PLAY)
    state.apply_action(PLAY)
    v = view(state)
    assert (v["unhappiness"], v["cash"], state.current_player()) == (2, 4, 0)
    state.apply_action(PLAY)
    v = view(state)
    assert state.current_player() == 1 and v["turn"] == 1
    assert v["seats"][0]["discard"] == counts({FM: 2, TP: 1}) and v["play_area"] == [0] * F


def test_a4_no_limit_on_recycling_in_a_turn(make):
    """A.4: "Any time during your Play Cards Phase, you can turn over a recyclable card in your discard
    pile ... There is no limit on how many cards you may recycle in a single turn." """
    game, state = play_turn(make, deck=[LOG], discard={INTER: 2, RES: 2})
    for face in (INTER, RES, INTER, RES):
        state.apply_action(recycle(face))
    v = view(state)
    assert (v["cash"], v["limit_bonus"]) == (2, 2)
    assert v["seats"][0]["discard"] == counts({FM: 2, CAMP: 2})
    state.apply_action(PLAY)  # recycling also after a card is played
    assert view(state)["cash"] == 3


def test_a4_recycling_only_from_the_discard_pile_in_the_play_phase(make):
    """A.4: "you can recycle it when it is in your discard pile. Any time during your Play Cards Phase" — not
    a played card, not in the Building phase."""
    game, state = play_turn(make, deck=[INTER, LOG])
    state.apply_action(PLAY)
    assert [a for a in state.legal_actions() if 14 <= a < 14 + F] == []
    game, state = build_turn(make, discard={INTER: 1, RES: 1, AIRPORT: 1, ARCH: 1}, cash=30)
    # W 7: the one Building-phase recycle is the Archaeology Site's "Pay 20 cash to gain 3 points".
    assert [a for a in state.legal_actions() if 14 <= a < 14 + F] == [recycle(ARCH)]
    game, state = build_turn(make, params={"dig": "played"}, discard={INTER: 1, RES: 1, ARCH: 1}, cash=30)
    assert [a for a in state.legal_actions() if 14 <= a < 14 + F] == []


def test_b_one_action_only(make):
    """B: "you may choose one (and only one) action from the following three actions" — after a Buy, no other
    Buy, Flip or Develop."""
    game, state = build_turn(make, cash=30, discard={FM: 1})
    assert {buy(LOG), flip(FM), develop(CAMP)} <= set(state.legal_actions())
    state.apply_action(buy(LOG))
    assert state.legal_actions() == [END]


def test_b_flip_a_card_of_the_discard_pile_not_a_played_card(make):
    """B FLIP: "Choose a card in your discard pile, pay its Flip fee, and turn it over ... Note: Cards you
    played this turn are not yet in your discard pile." """
    game, state = build_turn(make, cash=10, play_area={FM: 1, WIND: 1})
    assert [a for a in state.legal_actions() if flip(0) <= a < flip(F)] == []
    game, state = build_turn(make, cash=10, discard={FM: 1}, play_area={FM: 1})
    state.apply_action(flip(FM))
    v = view(state)
    assert v["seats"][0]["discard"] == counts({INTER: 1}) and v["play_area"] == counts({FM: 1})
    assert v["cash"] == 6


def test_turn_ends_nothing_carries_over(make):
    """Turn Ends: "place the cards you played into your discard pile. Then the player on your left begins
    their turn. Cash, points, and unhappiness you gained in a turn don't carry over"."""
    game, state = build_turn(make, cash=7, points=4, unhappiness=2, play_area={AIRPORT: 2, FM: 2})
    state.apply_action(END)
    v = view(state)
    assert (v["current"], v["cash"], v["points"], v["unhappiness"]) == (1, 0, 0, 0)
    assert v["seats"][0]["discard"] == counts({AIRPORT: 2, FM: 2}) and v["play_area"] == [0] * F
    assert v["seats"][0]["best"] == 4


def test_game_end_eight_points_played_in_one_turn(make):
    """Game End: "Whenever a player gains 8 points or more during a single Play Cards Phase, that player will
    win the game if they make it to the end of that turn's Building Phase." — two Airports and two Water
    Reservoirs played, then a Building phase."""
    game, state = play_turn(make, deck=[AIRPORT, RES, AIRPORT, RES, LOG])
    for _ in range(4):
        state.apply_action(PLAY)
    assert view(state)["points"] == 8
    state.apply_action(STOP)
    assert not state.is_terminal()
    state.apply_action(END)
    assert state.is_terminal() and state.returns() == [1.0, 0.0] and state.scores() == [8.0, 0.0]


@pytest.mark.parametrize("how", ["buy", "develop"])
def test_anatomy_on_buy_effects_also_on_develop(make, how):
    """Card Anatomy: "$ — When you Buy or Develop this card..." — Camping Grounds developed (12) into a Water
    Reservoir still adds +1 to next turn's limit; Wind Farm developed (11) still gives the extra Flip."""
    action = buy if how == "buy" else develop
    game, state = build_turn(make, cash=12)
    state.apply_action(action(CAMP))
    assert view(state)["seats"][0]["limit_next"] == 1
    game, state = build_turn(make, cash=11 + 2, discard=[LOG])
    state.apply_action(action(WIND))
    v = view(state)
    assert v["extra_flips"] == 1 and v["main"] is False
    assert flip(LOG) in state.legal_actions()


def test_anatomy_reservoir_cash_only_for_flip_and_develop(make):
    """Card Anatomy, Recycle Abilities: "Gain 3 cash to use to Flip or Develop this turn."; Water Reservoir:
    "Can only be used for Flip and Develop actions" (W 13 ``cash``): it pays a Flip or a Develop first, never
    a Buy, and is lost at the end of the turn."""
    params = {"reservoir_recycle": "cash"}
    game, state = play_turn(make, deck=[LOG, WIND], discard={RES: 1, FM: 1}, params=params)
    state.apply_action(recycle(RES))
    state.apply_action(PLAY)  # 1 cash, 3 flip-only cash
    state.apply_action(STOP)
    legal = state.legal_actions()
    assert buy(LOG) not in legal  # a Buy of 2 with 1 cash
    assert flip(FM) in legal and develop(LOG) in legal  # 4 <= 1 + 3
    state.apply_action(flip(FM))
    v = view(state)
    assert (v["flip_cash"], v["cash"]) == (0, 0)
    game, state = play_turn(make, deck=[WIND, WIND], discard={RES: 1, CAMP: 1}, params=params)
    state.apply_action(recycle(RES))
    state.apply_action(PLAY)
    state.apply_action(STOP)
    assert buy(CAMP) not in state.legal_actions()  # 2 cash, a Buy of 4
    state.apply_action(develop(LOG))  # 4: the flip-only cash first
    v = view(state)
    assert (v["flip_cash"], v["cash"]) == (0, 1)
    state.apply_action(END)
    assert view(state)["flip_cash"] == 0


# --- B note: the Archaeology Site's 20 cash for 3 points, reached in play ----------------------------------


def test_excavate_reached_by_playing_an_archaeology_site(make):
    """B, Note: "The Archaeology Site allows you to spend 20 cash in order to gain 3 points during the
    Building phase." — an Archaeology Site played this turn, 20 cash gathered by playing, then the Building
    phase."""
    game, state = play_turn(
        make, params={"dig": "played"}, deck=[ARCH, WIND, LOG], play_area={WIND: 9}, cash=18
    )
    state.apply_action(PLAY)
    assert EXCAVATE not in state.legal_actions()  # not in the Play Cards phase
    state.apply_action(PLAY)
    v = view(state)
    assert v["cash"] == 21 and v["digs"] == 0
    state.apply_action(STOP)
    assert view(state)["digs"] == 1 and EXCAVATE in state.legal_actions()
    state.apply_action(EXCAVATE)
    v = view(state)
    assert (v["cash"], v["points"], v["digs"], v["main"]) == (1, 3, 0, True)  # the action is still there
    assert buy(LOG) not in state.legal_actions() and EXCAVATE not in state.legal_actions()
    state.apply_action(END)
    assert view(state)["seats"][0]["best"] == 3


def test_excavate_once_per_archaeology_site(make):
    """W 7: one 20-for-3 per Archaeology Site played: two sites, 45 cash: two digs, then none."""
    game, state = play_turn(make, params={"dig": "played"}, deck=[], play_area={ARCH: 2}, cash=45)
    state.apply_action(STOP)
    state.apply_action(EXCAVATE)
    state.apply_action(EXCAVATE)
    v = view(state)
    assert (v["cash"], v["points"], v["digs"]) == (5, 6, 0)
    assert EXCAVATE not in state.legal_actions()
    assert buy(LOG) in state.legal_actions()  # the Building action is untouched


def test_excavate_pays_with_ordinary_cash_only(make):
    """W 7 and W 13: the Water Reservoir's cash "Can only be used for Flip and Develop actions": 19 cash and
    3 flip-only cash do not pay for 3 points."""
    params = {"dig": "played", "reservoir_recycle": "cash"}
    game, state = build_turn(make, params=params, play_area={ARCH: 1}, cash=19, flip_cash=3, digs=1)
    assert EXCAVATE not in state.legal_actions() and develop(LOG) in state.legal_actions()


def test_excavate_reaches_eight_points_and_wins(make):
    """B: "if you were provided with 8 points, then you win!" — 6 points played and 3 dug."""
    game, state = play_turn(
        make, params={"dig": "played"}, deck=[], play_area={ARCH: 1, AIRPORT: 2, RES: 1}, cash=20, points=6
    )
    state.apply_action(STOP)
    state.apply_action(EXCAVATE)
    state.apply_action(END)
    assert state.is_terminal() and state.returns() == [1.0, 0.0] and state.scores() == [9.0, 0.0]


def test_excavate_kept_when_a_farmers_market_removes_the_site(make):
    """W 7, W 8: a Farmer's Market removing the played Archaeology Site leaves the dig granted at ``stop``."""
    game, state = play_turn(make, params={"dig": "played"}, deck=[], play_area={ARCH: 1}, cash=23)
    state.apply_action(STOP)
    state.apply_action(buy(FM))
    assert view(state)["pending"] == "market" and state.legal_actions() == [select(ARCH)]
    state.apply_action(select(ARCH))
    assert view(state)["play_area"] == [0] * F and state.legal_actions() == [END, EXCAVATE]
    state.apply_action(EXCAVATE)
    assert view(state)["points"] == 3


def test_excavate_not_under_the_printed_reading(make):
    """W 5 ``printed``: the 20-for-3 is the Archaeology Site's recycle, so ``stop`` grants no dig."""
    game, state = play_turn(make, deck=[], play_area={ARCH: 1}, cash=30, params={"logging_text": "printed"})
    state.apply_action(STOP)
    assert view(state)["digs"] == 0 and EXCAVATE not in state.legal_actions()


def test_excavate_in_a_mixed_flip_city_game(make):
    """FAQ Q4 and W 1: the Logging Site pile in a ``flip_city`` game; a developed Logging Site (2 + 2) is an
    Archaeology Site that digs like any other."""
    params = {"supply": "log+park+hosp+fac"}
    game, state = build_turn(make, game_id="flip_city", params={**params, "dig": "played"}, cash=4)
    state.apply_action(develop(LOG))
    assert view(state)["seats"][0]["discard"][ARCH] == 1
    game, state = play_turn(
        make, game_id="flip_city", params={**params, "dig": "played"}, deck=[], play_area={ARCH: 1}, cash=20
    )
    state.apply_action(STOP)
    assert EXCAVATE in state.legal_actions()
    state.apply_action(EXCAVATE)
    assert view(state)["points"] == 3
    assert state.action_to_string(EXCAVATE) == "excavate" and state.string_to_action("excavate") == EXCAVATE


def test_no_excavate_in_the_base_layout(make):
    """§5: the base layout has 78 actions and no ``excavate``."""
    game = make("flip_city")
    assert game.num_distinct_actions() == 78
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_weights()[0][0])
    assert state.string_to_action("stop") == STOP
    with pytest.raises(InvalidNotationError):
        state.string_to_action("excavate")


# --- §7: refused states ------------------------------------------------------------------------------------


def test_deserialize_refuses_a_pending_bottom_with_a_known_deck_bottom(engine):
    """§7: "a pending bottom with a known deck_bottom" is refused: the Factory takes a known bottom card at
    once (§4.1), so its chance node never waits above one. The same position with an unknown bottom loads."""
    game = engine.make(WILDERNESS)
    ok = position(game, seats=[seat(deck_known=[WIND], deck_unknown={TP: 2}), seat(deck_known=[LOG])],
                  pending="bottom", cash=1)  # fmt: skip
    game.deserialize_state(dump(ok))
    bad = position(game, seats=[seat(deck_known=[WIND], deck_unknown={TP: 2}, deck_bottom=[LOG]),
                                seat(deck_known=[LOG])], pending="bottom", cash=1)  # fmt: skip
    with pytest.raises(InvalidStateError):
        game.deserialize_state(dump(bad))
    bad["pending"] = "none"
    game.deserialize_state(dump(bad))


def test_deserialize_refuses_a_known_bottom_below_no_unknown_cards(engine):
    """§3 invariant and §7: "a non-empty `deck_bottom` with an empty `deck_unknown`"."""
    game = engine.make(WILDERNESS)
    bad = position(game, seats=[seat(deck_known=[WIND], deck_bottom=[LOG]), seat(deck_known=[LOG])])
    with pytest.raises(InvalidStateError):
        game.deserialize_state(dump(bad))


# --- Both engines in lockstep from positions where the Archaeology Site's 20-for-3 is legal ---------------

# Random play never gathers 20 cash, so the differential suites never see ``excavate`` (nor the ``printed``
# reading's 20-cash recycle). These start from a random game's position at a decision of the Play Cards phase,
# edited: one or two Archaeology Sites put into the play area (taken from the supply's Logging Sites or from a
# discard pile, so that every card stays in the game), 18 to 45 cash, some points, and either the Building
# phase with its digs (and flip-only cash) or the Play Cards phase (then ``stop`` grants the digs); under
# ``printed`` the sites go to the current seat's discard pile instead. Then both engines follow the same
# choices, compared after every action.

EXCAVATE_GAMES = [
    "flip_city_wilderness",
    "flip_city_wilderness(players=3,reservoir_recycle=both)",
    "flip_city_wilderness(players=1)",
    "flip_city(supply=log+park+hosp+fac)",
    "flip_city_wilderness(colours=size,supply=log+hosp+fac+park+off,players=4)",
    "flip_city_wilderness(logging_text=printed)",
    "flip_city_wilderness(dig=played)",
    "flip_city_wilderness(dig=played,players=3)",
    "flip_city(dig=played,supply=log+park+hosp+fac)",
]


def _take_arch(obj: dict, rnd) -> bool:
    """Take one Logging Site / Archaeology Site card out of the supply or a discard pile (False if none)."""
    if obj["supply"][LOG] > 0 and rnd.random() < 0.7:
        obj["supply"][LOG] -= 1
        return True
    piles = [(s["discard"], f) for s in obj["seats"] for f in (LOG, ARCH) if s["discard"][f] > 0]
    if not piles:
        if obj["supply"][LOG] > 0:
            obj["supply"][LOG] -= 1
            return True
        return False
    pile, face = rnd.choice(piles)
    pile[face] -= 1
    return True


def excavate_position(game_string: str, seed: int, rnd) -> str | None:
    """A serialized position as described above, or None when the seeded game offers no place to edit."""
    from meeplex.testing import random_action

    game = meeplex.make(game_string)
    state = game.new_initial_state()
    rng = meeplex.Rng(seed)
    skip = rnd.randrange(0, 40)
    obj = None
    while not state.is_terminal():
        if not state.is_chance_node():
            v = view(state)
            if v["phase"] == "play" and v["pending"] == "none":
                obj = v
                if skip == 0:
                    break
                skip -= 1
        state.apply_action(random_action(state, rng))
    if obj is None:
        return None
    # W 7: `dig=recycle` (default) digs with an Archaeology Site of the discard pile in the Building phase;
    # `dig=played` with one played this turn (`excavate`).
    printed = game.params.get("dig") != "played"
    sites = rnd.choice([1, 1, 2])
    for _ in range(sites):
        if not _take_arch(obj, rnd):
            return None
        if printed:
            obj["seats"][obj["current"]]["discard"][ARCH] += 1
        else:
            obj["play_area"][ARCH] += 1
            obj["played"] += 1
    obj["cash"] = rnd.randrange(18, 46)
    obj["points"] = rnd.randrange(0, 9)
    if rnd.random() < 0.6:
        play = obj["play_area"]
        obj.update(phase="build", forced=False, shuffled=False, main=rnd.random() < 0.8,
                   extra_buys=play[PARK],
                   extra_flips=play[STATION] + rnd.randrange(0, 2), discount=play[STATION],
                   digs=0 if printed else rnd.randrange(1, sites + 1),
                   flip_cash=rnd.choice([0, 0, 3]))  # fmt: skip
    return json.dumps(obj)


@settings(max_examples=max(12, 6 * effort()))
@given(
    game_string=st.sampled_from(EXCAVATE_GAMES),
    seed=st.integers(0, 2**20),
    edit_seed=st.integers(0, 2**20),
    dig_first=st.booleans(),
    choices=action_choices(max_steps=60, min_steps=10),
)
def test_engines_agree_where_excavate_is_legal(engine, game_string, seed, edit_seed, dig_first, choices):
    """B note / W 7 (and W 5 ``printed``): ``excavate`` and the 20-cash recycle, both engines in lockstep."""
    if engine.name != "rust":
        pytest.skip("the lockstep drives both engines: run once")
    start = excavate_position(game_string, seed, random.Random(edit_seed))
    assume(start is not None)
    note(f"start: {start}")
    lock = Lockstep(game_string, start=start)
    assert not lock.rejected, "an edited position was refused by both engines: fix the editor"
    assert lock.divergence is None, str(lock.divergence)
    obj = json.loads(start)
    if "dig=played" not in game_string:
        if obj["phase"] == "build" and obj["cash"] >= 20 and obj["pending"] == "none":
            assert recycle(ARCH) in lock.rust.legal_actions()
    elif obj["phase"] == "build" and obj["cash"] >= 20:
        assert EXCAVATE in lock.rust.legal_actions()
    if dig_first and obj["phase"] == "play" and STOP in lock.rust.legal_actions():
        lock.step(STOP)
    if dig_first and EXCAVATE in lock.rust.legal_actions():
        lock.step(EXCAVATE)
    if dig_first and obj["phase"] != "play" and recycle(ARCH) in lock.rust.legal_actions():
        lock.step(recycle(ARCH))
    for choice in choices:
        if not lock.live:
            break
        lock.step(pick(lock.rust, choice))
    note(f"history: {lock.actions}")
    if EXCAVATE in lock.actions or recycle(ARCH) in lock.actions:
        event("dug")
    assert lock.divergence is None, str(lock.divergence)


# --- Issue 14 ------------------------------------------------------------------------------------------


def test_farmers_market_does_not_take_back_eighteen_cards(make):
    """Convenience Store: "If you play 18 or more cards this turn, you win!"; base Game End: "you played a
    Convenience Store and at least 18 cards during this turn" — a Farmer's Market removing a played card
    afterwards does not undo the playing (W 8)."""
    params = {"supply": "cs+park+market+wind+camp"}
    game, state = play_turn(make, game_id="flip_city", params=params, deck=[], others=[seat(deck_known=[RA])],
                            play_area={CS: 1, WIND: 8, CAMP: 8, PARK: 1}, cash=3)  # fmt: skip
    state.apply_action(STOP)
    state.apply_action(buy(FM))
    state.apply_action(select(CS))
    v = view(state)
    assert v["played"] == 18 and v["store_played"] is True and sum(v["play_area"]) == 17
    state.apply_action(END)
    assert state.is_terminal() and state.returns() == [1.0, 0.0]


def test_archaeology_site_recycle_in_the_building_phase(make):
    """Archaeology Site: "Recycle Ability: Pay 20 cash to gain 3 points."; B, Note: "The Archaeology Site
    allows you to spend 20 cash in order to gain 3 points during the Building phase." — a recycle of an
    Archaeology Site in the discard pile, in the Building phase, not the Building action (W 7)."""
    game, state = play_turn(make, deck=[WIND, LOG], discard=[ARCH], cash=20)
    assert EXCAVATE not in state.legal_actions()
    state.apply_action(PLAY)
    state.apply_action(STOP)
    assert recycle(ARCH) in state.legal_actions() and view(state)["digs"] == 0
    state.apply_action(recycle(ARCH))
    v = view(state)
    assert (v["cash"], v["points"], v["main"]) == (2, 3, True)
    assert v["seats"][0]["discard"] == counts({LOG: 1})
    assert recycle(ARCH) not in state.legal_actions()


def test_water_reservoir_default_is_its_printed_text(make):
    """Water Reservoir: "Recycle Ability: Can only be used for Flip and Develop actions — Recycling Water
    Reservoir increases your unhappiness limit by 1" with the legend's "Gain 3 cash to use to Flip or Develop
    this turn": both fragments (W 13, reservoir_recycle=both)."""
    game, state = play_turn(make, deck=[LOG], discard=[RES])
    state.apply_action(recycle(RES))
    v = view(state)
    assert (v["limit_bonus"], v["flip_cash"]) == (1, 3)
