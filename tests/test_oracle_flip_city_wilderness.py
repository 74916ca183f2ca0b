"""Tests of the pure-Python oracle for Flip City: Wilderness and mixed Flip City supplies on its own.

The contract is docs/rules/flip_city_wilderness.md (§n) on top of docs/rules/flip_city.md (FC §n): parameters
and the supply-colour rule, the two layouts, whole random games, serialization, cloning, illegal actions,
notation and observations.
"""

from __future__ import annotations

import itertools
import json
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import meeplex.oracle as oracle
from meeplex.errors import IllegalActionError, InvalidNotationError, InvalidStateError
from meeplex.oracle import CHANCE, TERMINAL, Rng
from meeplex.oracle.flip_city import FlipCityGame, FlipCityWildernessGame
from meeplex.oracle.flip_city_cards import COLOURS, PILES

WILDERNESS = "flip_city_wilderness"
F = 22

FC_DEFAULTS = {
    "players": 2,
    "office": False,
    "max_turns": 100,
    "apartment_unhappiness": 1,
    "hospital_cash": 1,
    "mall_recycle": False,
    "station_recycle": False,
}
# §1: the printed card text's defaults (Trailer Park with no cash, a Water Reservoir's both fragments, the
# Archaeology Site's 20-for-3 as a Building-phase recycle).
EXTENSION_DEFAULTS = {
    "colours": "cost",
    "trailer_cash": 0,
    "resort_unhappiness": 0,
    "logging_text": "proposed",
    "interchange_cash": 1,
    "airport_points": 2,
    "reservoir_points": 2,
    "reservoir_recycle": "both",
    "dig": "recycle",
}
# FC interp. 20 and 14: in flip_city listed only when not default; flip_city_wilderness lists every key.
RULE_DEFAULTS = {"stop_before_play": False, "station_stack": True}
WILDERNESS_DEFAULTS = {
    **FC_DEFAULTS,
    **RULE_DEFAULTS,
    **EXTENSION_DEFAULTS,
    "supply": "log+market+wind+camp",
}

# A spread of games in the family layout (short max_turns keeps the suite quick).
GAME_STRINGS = [
    "flip_city_wilderness(max_turns=20)",
    "flip_city_wilderness(players=1,max_turns=30)",
    "flip_city_wilderness(players=3,max_turns=10,trailer_cash=0,resort_unhappiness=1)",
    "flip_city_wilderness(players=4,max_turns=8,logging_text=printed,reservoir_recycle=both)",
    "flip_city_wilderness(players=2,max_turns=12,reservoir_recycle=cash,interchange_cash=0,airport_points=0)",
    "flip_city_wilderness(supply=log+off+hosp+fac+park,max_turns=10,players=3)",
    "flip_city(supply=cs+park+market+wind+camp,max_turns=12)",
    "flip_city(supply=cs+park+off+fac+camp,max_turns=10,players=1)",
    "flip_city_wilderness(colours=none,supply=cs+park+hosp+off+fac+log+market+wind+camp,max_turns=8,players=4)",
]


def walk(game, seed):
    """Every state of the seeded random game (DESIGN "random step"), the initial one first."""
    rng = Rng(seed)
    state = game.new_initial_state()
    yield state.clone()
    while not state.is_terminal():
        oracle.random_step(state, rng)
        yield state.clone()


def biased_game(game, seed, steps=3000):
    """A game favouring play and building over stop and end, to reach the rarer rules; yields every state."""
    rnd = random.Random(seed)
    state = game.new_initial_state()
    yield state.clone()
    for _ in range(steps):
        if state.is_terminal():
            return
        if state.is_chance_node():
            outcomes = state.chance_weights()
            action = rnd.choices([a for a, _ in outcomes], weights=[w for _, w in outcomes])[0]
        else:
            legal = state.legal_actions()
            busy = [a for a in legal if a not in (1, 2)]
            action = rnd.choice(busy) if busy and rnd.random() < 0.85 else rnd.choice(legal)
        state.apply_action(action)
        yield state.clone()


# --------------------------------------------------------------------------------------------------------
# Registry, parameters, the supply and its colours
# --------------------------------------------------------------------------------------------------------


def test_registry():
    assert WILDERNESS in oracle.games() and "flip_city" in oracle.games()
    assert oracle.GAMES[WILDERNESS] is FlipCityWildernessGame
    assert issubclass(FlipCityWildernessGame, FlipCityGame)


def test_wilderness_defaults():
    game = oracle.make(WILDERNESS)
    assert game.name == WILDERNESS
    assert game.params == WILDERNESS_DEFAULTS
    assert str(game) == (
        "flip_city_wilderness(airport_points=2,apartment_unhappiness=1,colours=cost,dig=recycle,"
        "hospital_cash=1,interchange_cash=1,logging_text=proposed,mall_recycle=false,max_turns=100,"
        "office=false,players=2,reservoir_points=2,reservoir_recycle=both,resort_unhappiness=0,"
        "station_recycle=false,station_stack=true,stop_before_play=false,supply=log+market+wind+camp,"
        "trailer_cash=0)"
    )
    assert str(oracle.make(str(game))) == str(game)
    assert game.num_distinct_actions() == 19 + 6 * F == 151
    assert game.max_chance_outcomes() == 22
    cards = 9 * 2 + 40
    # §6: 91 x players + 91 (ten pending steps), then FC §6's deck-order block with F = 22.
    assert game.observation_shape() == (91 * 2 + 91 + 2 * (cards + 1) + 3,)
    assert game.max_game_length() == 2 + 100 * 2 * (40 * cards + 16)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_sizes_per_players(players):
    game = oracle.make(WILDERNESS, players=players)
    supply = 16 if players == 1 else 40
    cards = 9 * players + supply
    order = players * (cards + 1) + 3  # §6: the deck-order block of FC §6, one face code per card
    assert game.observation_shape() == ((4 * F + 3) * players + 3 * F + 25 + order,)
    assert game.max_game_length() == players + 100 * players * (40 * (9 * players + supply) + 16)
    state = game.new_initial_state()
    assert state.observation_tensor(0).shape == game.observation_shape()


@pytest.mark.parametrize(
    "given",
    [
        {},
        {"colours": "cost"},
        {"supply": "hosp+CS+fac+park"},
        {
            "supply": "cs+park+hosp+fac",
            "trailer_cash": 0,
            "logging_text": "proposed",
            "reservoir_recycle": "both",
            "dig": "recycle",
            "stop_before_play": False,
            "station_stack": True,
        },
    ],
)
def test_flip_city_defaults_are_unchanged(given):
    """§1 compatibility: flip_city keeps its seven keys, its game string and FC §5-§7 sizes (keys given at
    their defaults, §1 and FC §1, are not listed)."""
    game = oracle.make("flip_city", **given)
    assert game.params == FC_DEFAULTS
    assert str(game) == str(oracle.make("flip_city"))
    assert game.num_distinct_actions() == 78 and game.max_chance_outcomes() == 12
    assert game.observation_shape() == (37 * 2 + 42 + 2 * (58 + 1) + 3,)  # FC §6, C = 58
    obj = json.loads(game.new_initial_state().serialize())
    assert "deck_bottom" not in obj["seats"][0] and "chosen" not in obj and len(obj["supply"]) == 12


def test_flip_city_office_through_the_supply():
    a = oracle.make("flip_city", supply="cs+park+hosp+fac+off")
    b = oracle.make("flip_city", office=True)
    c = oracle.make("flip_city", office=True, supply="cs+park+hosp+fac")
    assert a.params == b.params == c.params == dict(FC_DEFAULTS, office=True)


def test_flip_city_extension_keys_listed_when_not_default():
    game = oracle.make("flip_city", supply="park+cs+camp+market+wind", trailer_cash=1)  # default 0 (W 2)
    assert game.params == dict(FC_DEFAULTS, supply="cs+park+market+wind+camp", trailer_cash=1)
    assert oracle.make("flip_city", supply="cs+park+market+wind+camp", trailer_cash=0).params == dict(
        FC_DEFAULTS, supply="cs+park+market+wind+camp"
    )
    assert game.num_distinct_actions() == 151  # §2.2: a Wilderness pile puts it in the family layout
    base = oracle.make("flip_city", supply="cs+hosp+fac", reservoir_points=3)
    assert base.params == dict(FC_DEFAULTS, supply="cs+hosp+fac", reservoir_points=3)
    assert base.num_distinct_actions() == 78  # no Wilderness card: the base layout
    assert base.new_initial_state().supply == [0, 0, 12, 0, 0, 0, 12, 0, 0, 0, 8, 0]


@pytest.mark.parametrize("game_id", ["flip_city", WILDERNESS])
@pytest.mark.parametrize(
    "given",
    [
        {"players": 3, "office": True, "supply": "log+hosp+fac+park", "colours": "cost"},
        {"supply": "CAMP+Wind+market+LOG", "colours": "size"},
        {"supply": "cs+park+hosp+off+fac+log+market+wind+camp", "colours": "none", "airport_points": 0},
        {"logging_text": "printed", "reservoir_recycle": "both", "interchange_cash": 0},
    ],
)
def test_normalisation_is_idempotent(game_id, given):
    game = oracle.make(game_id, **given)
    again = oracle.make(game_id, **game.params)
    assert again.params == game.params
    assert oracle.make(str(game)).params == game.params
    supply = game.params.get("supply", "cs+park+hosp+fac")
    order = list(PILES)
    codes = supply.split("+")
    assert codes == sorted(codes, key=order.index)
    assert game.params["office"] == (
        "off" in codes or ("supply" not in game.params and game.params["office"])
    )


@pytest.mark.parametrize(
    "params",
    [
        {"supply": ""},
        {"supply": "cs++hosp"},
        {"supply": "cs+"},
        {"supply": "+cs"},
        {"supply": "mall"},
        {"supply": "log+log"},
        {"supply": "log+LOG"},
        {"supply": "par\u212a"},  # the Kelvin sign is not an ASCII k
        {"supply": 5},
        {"supply": True},
        {"supply": ["log"]},
        {"colours": "red"},
        {"colours": 1},
        {"logging_text": "literal"},
        {"reservoir_recycle": "limits"},
        {"trailer_cash": 2},
        {"trailer_cash": True},
        {"resort_unhappiness": -1},
        {"interchange_cash": "1"},
        {"airport_points": 4},
        {"reservoir_points": -1},
        {"office": True},  # Office and Farmer's Market share a colour (cost)
        {"supply": "log+market+wind+camp+off"},
        {"colour": "cost"},
    ],
)
def test_bad_parameters(params):
    with pytest.raises(InvalidStateError):
        oracle.make(WILDERNESS, **params)


def test_bad_game_strings():
    with pytest.raises(InvalidNotationError):
        oracle.make("flip_city_wilderness(supply=)")
    with pytest.raises(InvalidNotationError):
        oracle.make("flip_city_wilderness(supply=log market)")
    with pytest.raises(InvalidStateError):
        oracle.make("flip_city_wilderness(supply=log+cs)")
    game = oracle.make("flip_city_wilderness(supply=log+market,players=3)")
    assert game.params["supply"] == "log+market" and game.players == 3


@pytest.mark.parametrize("colours", sorted(COLOURS))
def test_supply_colour_rule(colours):
    """§1.2 (FAQ Q4): every pair of piles of one colour is refused; every pair of different colours is fine,
    and both default supplies obey every table."""
    table = COLOURS[colours]
    for a, b in itertools.combinations(PILES, 2):
        supply = f"{a}+{b}"
        if table[a] == table[b]:
            with pytest.raises(InvalidStateError, match="colour"):
                oracle.make(WILDERNESS, supply=supply, colours=colours)
            with pytest.raises(InvalidStateError, match="colour"):
                oracle.make("flip_city", supply=supply, colours=colours)
        else:
            game = oracle.make(WILDERNESS, supply=supply, colours=colours)
            assert sorted(game.piles) == sorted([a, b])
    oracle.make("flip_city", colours=colours)
    oracle.make(WILDERNESS, colours=colours)


def test_colour_tables_cover_every_pile():
    for table in COLOURS.values():
        assert set(table) == set(PILES)
    # the facts file's proposal (B.4): Factory and Wind Farm share a colour; Central Park has its own.
    assert COLOURS["cost"]["fac"] == COLOURS["cost"]["wind"]
    assert list(COLOURS["cost"].values()).count(COLOURS["cost"]["park"]) == 1


def test_starting_decks_follow_the_id():
    """W 15: flip_city deals the base starting deck, flip_city_wilderness the Wilderness one."""
    w = json.loads(oracle.make(WILDERNESS, supply="cs+park+hosp+fac").new_initial_state().serialize())
    assert w["seats"][0]["deck_unknown"] == [0] * 12 + [4, 1, 1, 0, 1, 0, 1, 0, 1, 0]
    assert w["supply"] == [0, 0, 12, 0, 8, 0, 12, 0, 0, 0, 8, 0] + [0] * 10
    m = json.loads(
        oracle.make("flip_city", supply="cs+park+market+wind+camp").new_initial_state().serialize()
    )
    assert m["seats"][0]["deck_unknown"] == [4, 1, 1, 0, 1, 0, 1, 0, 0, 0, 1, 0] + [0] * 10
    assert m["supply"][16] == 12 and m["supply"][18] == 8 and m["supply"][20] == 8


# --------------------------------------------------------------------------------------------------------
# Whole games
# --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("game_string", GAME_STRINGS)
def test_seeded_random_games_end_within_max_game_length(game_string):
    game = oracle.make(game_string)
    for seed in (1, 2):
        final = oracle.play_random(game, seed)
        assert final.is_terminal() and final.current_player() == TERMINAL
        assert len(final.history()) <= game.max_game_length()
        returns = final.returns()
        assert len(returns) == game.num_players() and sum(returns) in (0.0, 1.0)
        assert final.legal_actions() == []


def test_play_random_is_deterministic():
    game = oracle.make("flip_city_wilderness(max_turns=10,players=3)")
    a = oracle.play_random(game, 11)
    b = oracle.play_random(game, 11)
    assert a.history() == b.history() and a.serialize() == b.serialize()
    replay = game.new_initial_state()
    for action in a.history():
        replay.apply_action(action)
    assert replay.serialize() == a.serialize()


@pytest.mark.parametrize("game_string", GAME_STRINGS[:7])
def test_serialize_round_trip_and_clone_at_every_step(game_string):
    game = oracle.make(game_string)
    for state in walk(game, 3):
        text = state.serialize()
        again = game.deserialize_state(text)
        assert again.serialize() == text
        assert again.current_player() == state.current_player()
        assert again.legal_actions() == state.legal_actions()
        np.testing.assert_array_equal(again.observation_tensor(0), state.observation_tensor(0))
        twin = state.clone()
        assert twin == state
        if not twin.is_terminal():
            twin.apply_action(twin.legal_actions()[0])
            assert state.serialize() == text


def test_biased_games_reach_the_wilderness_rules():
    """Favouring play and building reaches the Airport, Farmer's Market, bottom cards, Camping Grounds and the
    solo removals; every state round-trips and is consistent."""
    seen: set[str] = set()
    for game_string in [
        "flip_city_wilderness(max_turns=30)",
        "flip_city_wilderness(players=1,max_turns=30)",
        "flip_city_wilderness(logging_text=printed,reservoir_recycle=both,max_turns=30)",
    ]:
        game = oracle.make(game_string)
        for seed in range(16):
            for step, state in enumerate(biased_game(game, seed)):
                if step % 7 == 0:
                    text = state.serialize()
                    assert game.deserialize_state(text).serialize() == text
                seen.add(state.pending)
                if any(seat.deck_bottom for seat in state.seats):
                    seen.add("deck_bottom")
                if any(seat.limit_next for seat in state.seats):
                    seen.add("limit_next")
                if state.limit_bonus:
                    seen.add("limit_bonus")
                if state.flip_cash:
                    seen.add("flip_cash")
                if any(state.removed) and not game.solo:
                    seen.add("removed")
    assert {"market", "airport", "airport_card", "remove", "deck_bottom", "limit_next"} <= seen
    assert {"limit_bonus", "flip_cash", "removed"} <= seen


def test_illegal_actions_leave_the_state_unchanged():
    game = oracle.make("flip_city_wilderness(max_turns=6,players=3)")
    rnd = random.Random(4)
    for state in walk(game, 5):
        if state.is_terminal():
            with pytest.raises(IllegalActionError):
                state.apply_action(0)
            continue
        before = state.serialize()
        legal = set(state.legal_actions())
        size = game.max_chance_outcomes() if state.is_chance_node() else game.num_distinct_actions()
        candidates = [a for a in range(size) if a not in legal]
        tries = rnd.sample(candidates, min(4, len(candidates))) + [-1, size, 10**20, True, None, "0", 1.0]
        for action in tries:
            with pytest.raises(IllegalActionError):
                state.apply_action(action)
            assert state.serialize() == before


def test_resample_is_a_clone():
    game = oracle.make(WILDERNESS)
    state = game.new_initial_state()
    rng = Rng(2)
    for _ in range(60):
        oracle.random_step(state, rng)
    for p in (0, 1):
        assert state.resample_from_infostate(p, Rng(p)).serialize() == state.serialize()


# --------------------------------------------------------------------------------------------------------
# Notation, masks and observations
# --------------------------------------------------------------------------------------------------------


def test_canonical_notation_round_trips():
    game = oracle.make(WILDERNESS)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    texts = [state.action_to_string(a) for a in range(game.num_distinct_actions())]
    assert len(set(texts)) == len(texts)
    for action, text in enumerate(texts):
        assert state.string_to_action(text) == action
        assert state.string_to_action("  " + text.upper().replace(" ", "   ") + " ") == action
    assert texts[14 + 15] == "recycle Archaeology Site"
    assert texts[14 + 22 + 16] == "buy Farmer's Market"
    assert texts[14 + 44 + 20] == "develop Camping Grounds"
    assert texts[14 + 66 + 13] == "flip Country Resort"
    assert texts[102] == "target 0" and texts[106 + 14] == "remove Logging Site"
    assert texts[128 + 19] == "select Airport" and texts[150] == "excavate"
    with pytest.raises(IllegalActionError):
        state.action_to_string(151)
    with pytest.raises(InvalidNotationError):
        state.string_to_action("reveal Trailer Park")


def test_chance_notation():
    game = oracle.make(WILDERNESS)
    state = game.new_initial_state()
    assert state.is_chance_node()
    names = [state.action_to_string(f) for f in range(22)]
    assert names[12] == "reveal Trailer Park" and names[21] == "reveal Water Reservoir"
    assert state.string_to_action("wind farm") == 18
    assert state.string_to_action("Reveal  Farmer's Market") == 16
    with pytest.raises(IllegalActionError):
        state.action_to_string(22)


@pytest.mark.parametrize("game_string", [GAME_STRINGS[0], GAME_STRINGS[6]])
def test_masks_and_observations(game_string):
    game = oracle.make(game_string)
    players = game.num_players()
    for state in walk(game, 6):
        mask = state.legal_actions_mask()
        size = game.max_chance_outcomes() if state.is_chance_node() else game.num_distinct_actions()
        assert mask.dtype == np.int8 and mask.shape == (size,)
        assert list(np.flatnonzero(mask)) == state.legal_actions()
        views = [state.observation_tensor(p) for p in range(players)]
        for tensor in views:
            assert tensor.dtype == np.float32 and tensor.shape == game.observation_shape()
            assert np.isfinite(tensor).all()
        # The seats' blocks are rotations of one another (no private information).
        block = 4 * F + 1
        for p in range(players):
            for k in range(players):
                seat_view = views[p][k * block : (k + 1) * block]
                np.testing.assert_array_equal(seat_view, views[0][((p + k) % players) * block :][:block])
        if state.current_player() >= 0:
            assert isinstance(state.observation_string(0), str)
            assert state.information_state_string(1).startswith("seat=1 history=")


def test_observation_layout_at_the_start():
    game = oracle.make(WILDERNESS)
    state = game.new_initial_state()
    tensor = state.observation_tensor(0)
    block = 4 * F + 1
    deck = tensor[:F]
    assert list(deck[12:]) == [4, 1, 1, 0, 1, 0, 1, 0, 1, 0]
    supply = tensor[2 * block : 2 * block + F]
    assert list(supply[14:]) == [12, 0, 12, 0, 8, 0, 8, 0]
    scalars = tensor[2 * block + 3 * F + 2 :][:12]
    assert list(scalars) == [0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0]
    phase = tensor[2 * block + 3 * F + 2 + 12 :][:3]
    assert list(phase) == [1, 0, 0]
    base = 2 * block + 3 * F + 2 + 12 + 3 + 10 + 2
    cards = 9 * 2 + 40
    seat_order = cards + 1  # FC §6 deck-order block: C slots of face codes, then the seat's best
    assert tensor.shape == (base + 2 * seat_order + 3,)
    assert not tensor[base:].any()  # no card of any deck is known yet; best, played, store_played, shuffled 0
    tops = []
    for _ in range(2):  # reveal each seat's top card
        tops.append(state.legal_actions()[-1])
        state.apply_action(tops[-1])
    for observer in range(2):
        order = state.observation_tensor(observer)[base:]
        for offset in range(2):
            slots = order[seat_order * offset : seat_order * (offset + 1)]
            top = tops[(observer + offset) % 2]
            assert list(slots) == [1 + top] + [0] * (seat_order - 1)  # slot 0: 1 + the top card's face


# --------------------------------------------------------------------------------------------------------
# Deserialization (§7)
# --------------------------------------------------------------------------------------------------------


def _some_states(game, seed=7, every=13):
    return [s for i, s in enumerate(walk(game, seed)) if i % every == 0]


def _edited(text: str, edit) -> str:
    obj = json.loads(text)
    edit(obj)
    return json.dumps(obj)


def _play_position(game):
    """A mid-game decision state in the Play Cards phase with cards in the current seat's deck."""
    for state in walk(game, 9):
        if state.current_player() >= 0 and state.phase == "play" and state.pending == "none":
            seat = state.seats[state.current]
            if sum(seat.deck_unknown) >= 2 and seat.deck_known:
                return state
    raise AssertionError("no play-phase position")


BAD_EDITS = {
    "missing deck_bottom": lambda o: o["seats"][0].pop("deck_bottom"),
    "missing chosen": lambda o: o.pop("chosen"),
    "extra key": lambda o: o.update(tokens=0),
    "supply of 12": lambda o: o.update(supply=o["supply"][:12]),
    "deck_bottom not list": lambda o: o["seats"][1].update(deck_bottom=3),
    "deck_bottom bad face": lambda o: o["seats"][1].update(deck_bottom=[22]),
    "limit_next negative": lambda o: o["seats"][0].update(limit_next=-1),
    "limit_next bool": lambda o: o["seats"][0].update(limit_next=True),
    "flip_cash huge": lambda o: o.update(flip_cash=10001),
    "digs outside build": lambda o: o.update(digs=1) if o["phase"] != "build" else o.update(digs=-1),
    "chosen without airport": lambda o: o.update(chosen=0),
    "chosen out of range": lambda o: o.update(chosen=5),
    "history id": lambda o: o["history"].append(151),
    "pending market in play": lambda o: o.update(pending="market", phase="play"),
    "pending airport in build": lambda o: o.update(pending="airport", phase="build", main=True),
    "unknown pending": lambda o: o.update(pending="give_trailer"),
    "params differ": lambda o: o["params"].update(trailer_cash=1),  # the game's is the default 0
    "params word type": lambda o: o["params"].update(supply=["log"]),
    "game id": lambda o: o.update(game="flip_city"),
    "conservation": lambda o: o["seats"][0]["discard"].__setitem__(17, o["seats"][0]["discard"][17] + 1),
    "supply off pile": lambda o: o["supply"].__setitem__(2, 1),
}


@pytest.mark.parametrize("name", sorted(BAD_EDITS))
def test_deserialize_rejects_bad_edits(name):
    game = oracle.make("flip_city_wilderness(max_turns=6)")
    for state in _some_states(game):
        with pytest.raises(InvalidStateError):
            game.deserialize_state(_edited(state.serialize(), BAD_EDITS[name]))


def test_deserialize_rejects_bottom_cards_below_nothing():
    game = oracle.make(WILDERNESS)
    state = _play_position(game)
    obj = json.loads(state.serialize())
    me = obj["seats"][state.current]
    # One unknown card known to be at the bottom: fine while the unknown part is not empty.
    face = next(f for f, n in enumerate(me["deck_unknown"]) if n)
    me["deck_unknown"][face] -= 1
    me["deck_bottom"] = [face]
    assert any(me["deck_unknown"])
    loaded = game.deserialize_state(json.dumps(obj))
    assert loaded.seats[state.current].deck_bottom
    # ... but not below an empty unknown part (§3 invariant).
    for f, n in enumerate(me["deck_unknown"]):
        me["deck_known"] += [f] * n
        me["deck_unknown"][f] = 0
    with pytest.raises(InvalidStateError):
        game.deserialize_state(json.dumps(obj))
    # A pending unknown bottom card while the bottom card is known.
    obj2 = json.loads(loaded.serialize())
    obj2["pending"] = "bottom"
    with pytest.raises(InvalidStateError):
        game.deserialize_state(json.dumps(obj2))


def test_deserialize_rejects_inconsistent_family_steps():
    game = oracle.make(WILDERNESS)
    base = json.loads(_play_position(game).serialize())

    def check(**changes):
        with pytest.raises(InvalidStateError):
            game.deserialize_state(json.dumps(dict(base) | changes))

    check(pending="give_resort")  # not in play
    check(pending="market", phase="build", main=True)  # nothing played
    check(pending="airport_card", chosen=-1)
    check(phase="over", flip_cash=1)
    check(phase="over", pending="airport")


def test_removed_cards_need_solo_or_a_farmers_market():
    """§7: outside solo, cards leave the game only through a Farmer's Market."""
    no_market = oracle.make("flip_city", supply="cs+park+off+fac+camp")
    assert no_market.family
    obj = json.loads(no_market.new_initial_state().serialize())
    obj["supply"][20] -= 1
    obj["removed"][20] += 1
    with pytest.raises(InvalidStateError):
        no_market.deserialize_state(json.dumps(obj))
    game = oracle.make(WILDERNESS)
    obj = json.loads(game.new_initial_state().serialize())
    obj["supply"][20] -= 1
    obj["removed"][20] += 1
    assert game.deserialize_state(json.dumps(obj)).removed[20] == 1


def test_country_resort_in_transit_round_trips():
    """§2.3: a flipped Country Resort is in no pile until its receiver is chosen."""
    game = oracle.make(WILDERNESS, players=3)
    obj = json.loads(game.new_initial_state().serialize())
    for seat in obj["seats"]:
        seat["deck_known"] = [12]
        seat["deck_unknown"][12] -= 1
    obj["seats"][1]["deck_unknown"][13] = 0
    obj["seats"][1]["discard"][13] = 1
    obj |= {"current": 1, "turn": 1, "phase": "build", "main": True, "cash": 9}
    state = game.deserialize_state(json.dumps(obj))
    state.apply_action(14 + 3 * F + 13)  # flip Country Resort
    text = state.serialize()
    assert json.loads(text)["pending"] == "give_resort"
    assert game.deserialize_state(text).serialize() == text
    assert state.legal_actions() == [102, 104]


_JSON_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 30),
    st.text(max_size=6),
    st.lists(st.integers(-1, 30), max_size=3),
)


@settings(max_examples=150)
@given(data=st.data())
def test_deserialize_fuzzed_states_raise_only_invalid_state(data):
    game = oracle.make("flip_city_wilderness(max_turns=6,players=2)")
    texts = [s.serialize() for s in _some_states(game, seed=data.draw(st.integers(0, 3)), every=29)]
    obj = json.loads(texts[data.draw(st.integers(0, len(texts) - 1))])
    target = obj
    seat = data.draw(st.integers(-1, 1))
    if seat >= 0:
        target = obj["seats"][seat]
    key = data.draw(st.sampled_from(sorted(target)))
    if isinstance(target[key], list) and target[key] and data.draw(st.booleans()):
        index = data.draw(st.integers(0, len(target[key]) - 1))
        target[key][index] = data.draw(st.integers(-3, 25) | _JSON_VALUES)
    else:
        target[key] = data.draw(_JSON_VALUES)
    try:
        loaded = game.deserialize_state(json.dumps(obj))
    except InvalidStateError:
        return
    assert game.deserialize_state(loaded.serialize()).serialize() == loaded.serialize()
    loaded.legal_actions()
    loaded.observation_tensor(0)
    if loaded.current_player() == CHANCE:
        assert sum(w for _, w in loaded.chance_weights()) > 0
