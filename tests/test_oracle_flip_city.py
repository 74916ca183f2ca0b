"""Tests of the pure-Python Flip City oracle on its own (meeplex.oracle.flip_city).

The cross-engine comparison and the rulebook scenarios live in other files; this one checks the oracle
against the contract (docs/rules/flip_city.md, DESIGN.md): the PRNG, parameters and errors, whole random
games, serialization, cloning, notation and observations.
"""

from __future__ import annotations

import functools
import json
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import meeplex.oracle as oracle
from meeplex.errors import GameError, IllegalActionError, InvalidNotationError, InvalidStateError
from meeplex.oracle import CHANCE, TERMINAL, Rng
from meeplex.oracle.flip_city import FACE_NAMES, FlipCityGame

DEFAULTS = {
    "players": 2,
    "office": False,
    "max_turns": 100,
    "apartment_unhappiness": 1,
    "hospital_cash": 1,
    "mall_recycle": False,
    "station_recycle": False,
}

# A spread of parameter sets for the random games (short max_turns keeps the suite quick).
PARAM_SETS = [
    {"players": 1, "max_turns": 30},
    {"players": 1, "office": True, "max_turns": 30},
    {"players": 2, "max_turns": 20},
    {"players": 2, "office": True, "max_turns": 20},
    {"players": 3, "office": True, "max_turns": 12, "apartment_unhappiness": 0, "hospital_cash": 0},
    {"players": 4, "max_turns": 10, "mall_recycle": False, "station_recycle": False},
    {"players": 4, "office": True, "max_turns": 10},
]


def walk(game, seed):
    """Every state of the seeded random game (DESIGN "random step"), the initial one first."""
    rng = Rng(seed)
    state = game.new_initial_state()
    yield state.clone()
    while not state.is_terminal():
        oracle.random_step(state, rng)
        yield state.clone()


def biased_game(game, seed, steps=4000):
    """A game that favours playing and building over stopping, to reach the rarer rules (wins, Trade
    Center, Power Plant, Apartment flips); yields every state."""
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
            busy = [a for a in legal if a not in (1, 2)]  # not stop, not end
            action = rnd.choice(busy) if busy and rnd.random() < 0.85 else rnd.choice(legal)
        state.apply_action(action)
        yield state.clone()


# --------------------------------------------------------------------------------------------------------
# The shared PRNG
# --------------------------------------------------------------------------------------------------------


def test_rng_known_vectors():
    rng = Rng(0)
    assert [rng.next_u64() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


def test_rng_seed_is_taken_mod_2_64():
    for seed, same in [(2**64, 0), (-1, 2**64 - 1), (2**64 + 12345, 12345)]:
        a, b = Rng(seed), Rng(same)
        assert [a.next_u64() for _ in range(5)] == [b.next_u64() for _ in range(5)]


def test_rng_outputs_are_64_bit_and_below_is_modulo():
    a, b = Rng(99), Rng(99)
    for n in [1, 2, 3, 7, 10, 1000, 2**63 + 5, 2**64]:
        value = a.below(n)
        assert value == b.next_u64() % n
        assert 0 <= value < n
    for _ in range(100):
        assert 0 <= a.next_u64() < 2**64


@pytest.mark.parametrize("n", [0, -1, -(2**70)])
def test_rng_below_needs_positive_n(n):
    rng = Rng(5)
    with pytest.raises(ValueError):
        rng.below(n)


# --------------------------------------------------------------------------------------------------------
# Registry, parameters and game-level API
# --------------------------------------------------------------------------------------------------------


def test_registry():
    assert "flip_city" in oracle.games()
    assert oracle.games() == sorted(oracle.GAMES)
    assert oracle.GAMES["flip_city"] is FlipCityGame
    assert oracle.CHANCE == CHANCE == -1
    assert oracle.TERMINAL == TERMINAL == -4


def test_defaults_and_game_string():
    """FC §1: the printed Card Reference's defaults (no recycle on the Mall or the Station); the two keys of
    interpretations 20 and 14 are left out of ``params`` at their defaults, so old game strings keep their
    meaning."""
    game = oracle.make("flip_city")
    assert game.name == "flip_city"
    assert game.params == DEFAULTS
    assert str(game) == (
        "flip_city(apartment_unhappiness=1,hospital_cash=1,mall_recycle=false,max_turns=100,"
        "office=false,players=2,station_recycle=false)"
    )
    assert oracle.make("flip_city", stop_before_play=False, station_stack=True).params == DEFAULTS
    house = oracle.make("flip_city", stop_before_play=True, station_stack=False)
    assert house.params == dict(DEFAULTS, stop_before_play=True, station_stack=False)
    assert str(house) == (
        "flip_city(apartment_unhappiness=1,hospital_cash=1,mall_recycle=false,max_turns=100,"
        "office=false,players=2,station_recycle=false,station_stack=false,stop_before_play=true)"
    )
    assert game.num_players() == 2
    assert game.num_distinct_actions() == 78
    assert game.max_chance_outcomes() == 12
    # FC §6: 37 x players + 42, then the deck-order block players x (C + 1) + 3, C = 9 x 2 + 40.
    assert game.observation_shape() == (37 * 2 + 42 + 2 * (58 + 1) + 3,)
    # C = 9 x 2 + 40 supply; players + max_turns x players x (12 C + 16).
    assert game.max_game_length() == 2 + 100 * 2 * (12 * 58 + 16)


@pytest.mark.parametrize(
    ("params", "cards"),
    [
        ({"players": 1}, 9 + 16),
        ({"players": 1, "office": True}, 9 + 20),
        ({"players": 3, "office": True}, 27 + 50),
        ({"players": 4}, 36 + 40),
    ],
)
def test_sizes_per_parameters(params, cards):
    game = oracle.make("flip_city", **params)
    players = params["players"]
    assert game.num_players() == players
    # FC §6, C = the cards of the game (§5): the deck-order block follows the 37 x players + 42 values.
    assert game.observation_shape() == (37 * players + 42 + players * (cards + 1) + 3,)
    assert game.max_game_length() == players + 100 * players * (12 * cards + 16)


def test_game_string_and_keywords_agree():
    a = oracle.make("flip_city(players=3,office=true,max_turns=7)")
    b = oracle.make("flip_city", players=3, office=True, max_turns=7)
    c = oracle.make("flip_city(players=3)", office=True, max_turns=7)
    assert a.params == b.params == c.params
    assert str(a) == str(b) == str(c)
    assert str(oracle.make(str(a))) == str(a)


@pytest.mark.parametrize(
    "params",
    [
        {"colour": "red"},
        {"players": 0},
        {"players": 5},
        {"players": True},
        {"players": 2.0},
        {"players": "2"},
        {"office": 1},
        {"office": "true"},
        {"max_turns": 0},
        {"max_turns": 1001},
        {"max_turns": False},
        {"apartment_unhappiness": 2},
        {"apartment_unhappiness": -1},
        {"hospital_cash": 2},
        {"hospital_cash": True},
        {"mall_recycle": 0},
        {"station_recycle": None},
    ],
)
def test_bad_parameters(params):
    with pytest.raises(InvalidStateError):
        oracle.make("flip_city", **params)


def test_bad_game_strings():
    with pytest.raises(InvalidStateError):
        oracle.make("no_such_game")
    with pytest.raises(InvalidStateError):
        oracle.make("flip_city(players=3)", players=3)  # given twice
    with pytest.raises(InvalidStateError):
        oracle.make("flip_city(players=yes)")
    with pytest.raises(InvalidNotationError):
        oracle.make("flip_city(players")
    with pytest.raises(InvalidNotationError):
        oracle.make(42)  # type: ignore[arg-type]


def test_errors_are_value_errors():
    for cls in (IllegalActionError, InvalidStateError, InvalidNotationError):
        assert issubclass(cls, GameError) and issubclass(cls, ValueError)


# --------------------------------------------------------------------------------------------------------
# The start of the game
# --------------------------------------------------------------------------------------------------------


def test_initial_state_reveals_each_top_card_in_seat_order():
    game = oracle.make("flip_city", players=3)
    state = game.new_initial_state()
    assert state.history() == []
    assert state.returns() == [0.0, 0.0, 0.0]
    assert state.scores() == [0.0, 0.0, 0.0]
    for seat in range(3):
        assert state.is_chance_node() and state.current_player() == CHANCE
        # 4 Residential Area, 1 Apartment, 1 Convenience Store, 1 Central Park, 1 Hospital, 1 Factory.
        assert state.chance_weights() == [(0, 4), (1, 1), (2, 1), (4, 1), (6, 1), (10, 1)]
        outcomes = state.chance_outcomes()
        assert [a for a, _ in outcomes] == state.legal_actions()
        assert outcomes[0][1] == pytest.approx(4 / 9)
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        assert state.action_to_string(10) == "reveal Factory"
        assert list(state.legal_actions_mask()) == [1, 1, 1, 0, 1, 0, 1, 0, 0, 0, 1, 0]
        state.apply_action(10 if seat == 0 else 0)
        obj = json.loads(state.serialize())
        assert obj["seats"][seat]["deck_known"] == [10 if seat == 0 else 0]
    assert state.current_player() == 0
    assert not state.is_chance_node()
    # A Factory on top is not forced, but the first card of a turn is played (FC interp. 20: "After you play
    # each card, you must decide whether to play an additional card, or stop"): play only.
    assert state.legal_actions() == [0]
    assert state.history() == [10, 0, 0]
    # The house reading (stop_before_play) lets the seat stop at once: play or stop.
    house = oracle.make("flip_city", players=3, stop_before_play=True).new_initial_state()
    for action in (10, 0, 0):
        house.apply_action(action)
    assert house.legal_actions() == [0, 1]


def test_initial_serialization_is_canonical():
    game = oracle.make("flip_city")
    text = game.new_initial_state().serialize()
    obj = json.loads(text)
    assert text == json.dumps(obj, sort_keys=True, separators=(",", ":"))
    assert obj["game"] == "flip_city" and obj["version"] == 2
    assert obj["params"] == DEFAULTS
    # Version 2 (FC §7): discount is a number; the turn's played cards, Convenience Store and shuffle.
    assert (obj["discount"], obj["played"], obj["store_played"], obj["shuffled"]) == (0, 0, False, False)
    assert obj["supply"] == [0, 0, 12, 0, 8, 0, 12, 0, 0, 0, 8, 0]
    assert obj["seats"][0] == {
        "best": 0,
        "deck_known": [],
        "deck_unknown": [4, 1, 1, 0, 1, 0, 1, 0, 0, 0, 1, 0],
        "discard": [0] * 12,
    }
    assert (obj["phase"], obj["pending"], obj["winner"], obj["turn"], obj["current"]) == (
        "play",
        "none",
        -1,
        0,
        0,
    )
    solo = json.loads(oracle.make("flip_city", players=1, office=True).new_initial_state().serialize())
    assert solo["supply"] == [0, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0]


# --------------------------------------------------------------------------------------------------------
# Whole random games
# --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("params", PARAM_SETS, ids=lambda p: oracle.make("flip_city", **p).__str__())
def test_seeded_random_games_end_properly(params):
    game = oracle.make("flip_city", **params)
    for seed in range(50):
        state = oracle.play_random(game, seed)
        assert state.is_terminal()
        assert state.current_player() == TERMINAL
        assert state.legal_actions() == []
        assert len(state.history()) <= game.max_game_length()
        returns = state.returns()
        assert len(returns) == game.num_players()
        assert all(r in (0.0, 1.0) for r in returns)
        assert sum(returns) in (0.0, 1.0)
        assert len(state.scores()) == game.num_players()
        obj = json.loads(state.serialize())
        if obj["winner"] == -1:
            assert sum(returns) == 0.0
        else:
            assert returns[obj["winner"]] == 1.0


def test_play_random_is_deterministic_and_matches_random_step():
    game = oracle.make("flip_city", players=3, office=True, max_turns=15)
    for seed in [0, 1, 2, 12345, 2**64 - 1]:
        first = oracle.play_random(game, seed)
        second = oracle.play_random(game, seed)
        assert first.history() == second.history()
        assert first.serialize() == second.serialize()
        rng = Rng(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            oracle.random_step(state, rng)
        assert state.history() == first.history()
    assert oracle.play_random(game, 0).history() != oracle.play_random(game, 1).history()


def test_biased_games_reach_wins_and_rare_rules():
    """Biased play reaches wins and every kind of action, checking the invariants along the way."""
    kinds = set()
    winners = 0
    for seed in range(20):
        params = PARAM_SETS[seed % len(PARAM_SETS)] | {"max_turns": 60}
        game = oracle.make("flip_city", **params)
        last = None
        for step, state in enumerate(biased_game(game, seed, steps=20000)):
            if last is not None:
                kinds.add(last.action_to_string(state.history()[-1]).split(" ")[0])
            if step % 7 == 0:
                text = state.serialize()
                assert game.deserialize_state(text).serialize() == text
            last = state
        assert last.is_terminal()
        assert len(last.history()) <= game.max_game_length()
        winners += max(last.returns()) == 1.0
    assert winners > 0
    assert {
        "play",
        "stop",
        "end",
        "shuffle",
        "recycle",
        "buy",
        "develop",
        "flip",
        "target",
        "remove",
    } <= kinds
    assert {"reveal", "bottom"} <= kinds


# --------------------------------------------------------------------------------------------------------
# Serialization, cloning, illegal actions
# --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("params", PARAM_SETS[:5], ids=range(5))
def test_serialize_round_trip_at_every_step(params):
    game = oracle.make("flip_city", **params)
    for state in walk(game, 7):
        text = state.serialize()
        copy = game.deserialize_state(text)
        assert copy.serialize() == text
        assert copy.history() == state.history()
        assert copy.current_player() == state.current_player()
        assert copy.legal_actions() == state.legal_actions()
        assert copy.chance_weights() == state.chance_weights()
        assert copy.returns() == state.returns()
        for seat in range(game.num_players()):
            assert np.array_equal(copy.observation_tensor(seat), state.observation_tensor(seat))
        # Canonical form: keys sorted, no spaces, ASCII.
        assert text == json.dumps(json.loads(text), sort_keys=True, separators=(",", ":"))
        assert text.isascii()


def test_clone_is_equal_and_independent():
    game = oracle.make("flip_city", players=2, office=True, max_turns=10)
    for state in walk(game, 3):
        if state.is_terminal():
            break
        twin = state.clone()
        assert twin.serialize() == state.serialize()
        before = state.serialize()
        twin.apply_action(twin.legal_actions()[-1])
        assert state.serialize() == before
        assert twin.history() == state.history() + [twin.history()[-1]]
        # history() is a copy.
        state.history().append(999)
        assert state.serialize() == before
        # resample_from_infostate: no hidden information, a clone.
        other = state.resample_from_infostate(0, Rng(1))
        assert other.serialize() == before and other is not state


ILLEGAL_INPUTS = [-1, 78, 10**20, -(10**20), True, False, 1.0, 0.5, "play", None, [0], (0,)]


def test_illegal_actions_leave_the_state_unchanged():
    game = oracle.make("flip_city", players=3, office=True, max_turns=8)
    for index, state in enumerate(walk(game, 11)):
        if index % 3:
            continue
        before = state.serialize()
        legal = set(state.legal_actions())
        width = game.max_chance_outcomes() if state.is_chance_node() else game.num_distinct_actions()
        bad = [a for a in range(-2, width + 2) if a not in legal] + ILLEGAL_INPUTS
        for action in bad:
            if isinstance(action, int) and not isinstance(action, bool) and action in legal:
                continue
            with pytest.raises(IllegalActionError) as info:
                state.apply_action(action)
            assert str(state.current_player()) in str(info.value)
            assert state.serialize() == before
        for action in legal:  # numpy integers are accepted as their value
            twin = state.clone()
            twin.apply_action(np.int64(action))
            assert twin.history()[-1] == action
            assert type(twin.history()[-1]) is int


def test_terminal_state_accepts_nothing():
    state = oracle.play_random(oracle.make("flip_city", max_turns=2), 0)
    before = state.serialize()
    for action in range(78):
        with pytest.raises(IllegalActionError):
            state.apply_action(action)
    assert state.serialize() == before
    assert state.legal_actions_mask().shape == (78,)
    assert not state.legal_actions_mask().any()


def test_turn_limit_ends_the_game_without_winner():
    game = oracle.make("flip_city", players=2, max_turns=1)
    state = game.new_initial_state()
    while not state.is_terminal():
        legal = state.legal_actions()
        # Seat 0 and seat 1 each stop and end at once if they can.
        for preferred in (1, 2):
            if not state.is_chance_node() and preferred in legal:
                state.apply_action(preferred)
                break
        else:
            state.apply_action(legal[0])
    obj = json.loads(state.serialize())
    assert obj["turn"] == 2 and obj["winner"] == -1 and obj["phase"] == "over"
    assert state.returns() == [0.0, 0.0]


# --------------------------------------------------------------------------------------------------------
# Deserialization of bad input
# --------------------------------------------------------------------------------------------------------


def _some_states(game):
    states = list(walk(game, 5))
    return [states[0], states[len(states) // 2], states[-1]]


def _edited(text, edit):
    obj = json.loads(text)
    edit(obj)
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


BAD_EDITS = {
    "missing key": lambda o: o.pop("cash"),
    "extra key": lambda o: o.update(colour="red"),
    "seat missing key": lambda o: o["seats"][0].pop("best"),
    "seat extra key": lambda o: o["seats"][0].update(hand=[]),
    "bool for int": lambda o: o.update(cash=False),
    "int for bool": lambda o: o.update(forced=0),
    "bool discount": lambda o: o.update(discount=bool(o["discount"])),  # FC §7: an int since version 2
    "bool played": lambda o: o.update(played=o["played"] > 0),
    "int for store_played": lambda o: o.update(store_played=int(o["store_played"])),
    "int for shuffled": lambda o: o.update(shuffled=int(o["shuffled"])),
    "float for int": lambda o: o.update(turn=1.0),
    "string for int": lambda o: o.update(points="3"),
    "wrong game": lambda o: o.update(game="flip_city_wilderness"),
    "wrong version": lambda o: o.update(version=1),  # FC §7: version 1 had a boolean discount
    "future version": lambda o: o.update(version=3),
    "bool version": lambda o: o.update(version=True),
    "wrong params": lambda o: o["params"].update(players=3),
    "params type": lambda o: o["params"].update(office=0),
    "params missing": lambda o: o["params"].pop("office"),
    "short supply": lambda o: o.update(supply=o["supply"][:11]),
    "negative count": lambda o: o["seats"][0]["discard"].__setitem__(0, -1),
    "face out of range": lambda o: o["seats"][0].update(deck_known=[12]),
    "negative face": lambda o: o["seats"][0].update(deck_known=[-1]),
    "conservation": lambda o: o["seats"][0]["discard"].__setitem__(2, o["seats"][0]["discard"][2] + 1),
    "supply of a back face": lambda o: o["supply"].__setitem__(3, 1),
    "supply beyond start": lambda o: o["supply"].__setitem__(2, 13),
    "current out of range": lambda o: o.update(current=2),
    "negative current": lambda o: o.update(current=-1),
    "winner out of range": lambda o: o.update(winner=5),
    "turn too large": lambda o: o.update(turn=10**6),
    "phase unknown": lambda o: o.update(phase="setup"),
    "pending unknown": lambda o: o.update(pending="draw"),
    "history id": lambda o: o["history"].append(78),
    "history bool": lambda o: o["history"].append(True),
    "history negative": lambda o: o["history"].append(-1),
    "counter huge": lambda o: o.update(limit_bonus=10001),
    "seats short": lambda o: o["seats"].pop(),
    "seats not list": lambda o: o.update(seats={}),
    "removed not list": lambda o: o.update(removed=None),
    "negative best": lambda o: o["seats"][1].update(best=-1),
}


@pytest.mark.parametrize("name", sorted(BAD_EDITS))
def test_deserialize_rejects_bad_edits(name):
    game = oracle.make("flip_city", players=2, max_turns=6)
    for state in _some_states(game):
        text = _edited(state.serialize(), BAD_EDITS[name])
        with pytest.raises(InvalidStateError):
            game.deserialize_state(text)


def test_deserialize_rejects_inconsistent_phases():
    game = oracle.make("flip_city", players=2)
    base = json.loads(game.new_initial_state().serialize())

    def check(**changes):
        obj = dict(base) | changes
        with pytest.raises(InvalidStateError):
            game.deserialize_state(json.dumps(obj))

    check(phase="build", pending="bottom")
    check(phase="build", pending="shuffle")
    check(phase="build", pending="give_apartment")
    check(phase="play", pending="give_residential")
    check(phase="play", pending="remove")  # not a solo game
    check(phase="over", pending="bottom")
    check(main=True)  # building fields outside build
    check(extra_buys=1)
    check(extra_flips=1)
    check(discount=1)  # version 2: the fee reduction is a number
    check(phase="build", forced=True)
    check(phase="build", shuffled=True)  # shuffled only in play
    check(played=1)  # outside build, played is the play area's cards
    check(store_played=True)  # no Convenience Store in the play area, none taken away
    check(winner=0)  # not over
    check(phase="over", cash=1)
    check(phase="over", points=1)
    check(phase="over", unhappiness=1)
    check(phase="over", limit_bonus=1)
    play_area = [0] * 12
    play_area[0] = 1
    seats = json.loads(json.dumps(base["seats"]))
    seats[0]["deck_unknown"][0] -= 1
    check(phase="over", play_area=play_area, seats=seats, played=1)
    # The same play area is fine while playing (with its card counted as played, FC §7 version 2).
    obj = dict(base) | {"play_area": play_area, "seats": seats, "played": 1}
    game.deserialize_state(json.dumps(obj))
    check(play_area=play_area, seats=seats)  # ... but not with played = 0
    # A finished game with a winner is fine.
    game.deserialize_state(json.dumps(dict(base) | {"phase": "over", "winner": 1}))


@pytest.mark.parametrize(
    "text",
    [
        None,
        0,
        b"{}",
        ["{}"],
        "",
        "   ",
        "{",
        "null",
        "[]",
        "42",
        '"x"',
        "{}",
        "NaN",
        "[" * 5000,
        "{" * 100000,
        '{"cash":' + "9" * 5000 + "}",
    ],
)
def test_deserialize_rejects_garbage(text):
    game = oracle.make("flip_city")
    with pytest.raises(InvalidStateError):
        game.deserialize_state(text)


def test_deserialize_rejects_duplicate_keys():
    game = oracle.make("flip_city")
    text = game.new_initial_state().serialize()
    with pytest.raises(InvalidStateError):
        game.deserialize_state(text[:-1] + ',"cash":0}')


def test_deserialize_accepts_non_canonical_spacing():
    game = oracle.make("flip_city")
    text = game.new_initial_state().serialize()
    again = game.deserialize_state(json.dumps(json.loads(text), indent=2))
    assert again.serialize() == text


@functools.cache
def _fuzz_texts(seed):
    game = oracle.make("flip_city", players=2, office=True, max_turns=5)
    return tuple(state.serialize() for state in walk(game, seed))


_JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=False)
    | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=13) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@settings(deadline=None)  # the number of examples comes from the profile (tests/conftest.py)
@given(data=st.data())
def test_deserialize_fuzzed_states_raise_only_invalid_state(data):
    """A hand-edited state either loads (and then round-trips) or raises InvalidStateError, nothing else."""
    game = oracle.make("flip_city", players=2, office=True, max_turns=5)
    texts = _fuzz_texts(data.draw(st.integers(0, 3)))
    obj = json.loads(texts[data.draw(st.integers(0, len(texts) - 1))])
    target = obj
    seat = data.draw(st.integers(-1, 1))
    if seat >= 0:
        target = obj["seats"][seat]
    key = data.draw(st.sampled_from(sorted(target)))
    if isinstance(target[key], list) and target[key] and data.draw(st.booleans()):
        index = data.draw(st.integers(0, len(target[key]) - 1))
        target[key][index] = data.draw(st.integers(-3, 20) | _JSON_VALUES)
    else:
        target[key] = data.draw(_JSON_VALUES)
    text = json.dumps(obj)
    try:
        loaded = game.deserialize_state(text)
    except InvalidStateError:
        return
    assert game.deserialize_state(loaded.serialize()).serialize() == loaded.serialize()
    loaded.legal_actions()
    loaded.observation_tensor(0)


def test_apartment_in_transit_round_trips():
    """READING (conservation): a flipped Apartment is in no pile until its receiver is chosen."""
    game = oracle.make("flip_city", players=3)
    obj = json.loads(game.new_initial_state().serialize())
    # Seat 1 in its Building phase with 8 cash and its Apartment in the discard pile.
    for seat in obj["seats"]:  # top cards known, so that no chance node comes first
        seat["deck_known"] = [0]
        seat["deck_unknown"][0] -= 1
    obj["seats"][1]["deck_unknown"][1] = 0
    obj["seats"][1]["discard"][1] = 1
    obj |= {"current": 1, "turn": 1, "phase": "build", "main": True, "cash": 8}
    state = game.deserialize_state(json.dumps(obj))
    assert 51 in state.legal_actions()  # flip Apartment
    state.apply_action(51)
    text = state.serialize()
    moved = json.loads(text)
    assert moved["pending"] == "give_residential" and moved["cash"] == 0 and not moved["main"]
    assert moved["seats"][1]["discard"][1] == 0
    assert game.deserialize_state(text).serialize() == text
    assert state.legal_actions() == [62, 64]
    state.apply_action(64)
    assert json.loads(state.serialize())["seats"][2]["discard"][0] == 1
    # Outside that pending step the same shortage breaks conservation.
    broken = json.loads(text) | {"pending": "none"}
    with pytest.raises(InvalidStateError):
        game.deserialize_state(json.dumps(broken))


# --------------------------------------------------------------------------------------------------------
# Notation
# --------------------------------------------------------------------------------------------------------


def _decision_state():
    game = oracle.make("flip_city", players=4, office=True)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    return state


def test_canonical_notation():
    state = _decision_state()
    expected = {
        0: "play",
        1: "stop",
        2: "end",
        3: "shuffle",
        4: "shuffle aside 1",
        13: "shuffle aside 10",
        14: "recycle Residential Area",
        17: "recycle Shopping Mall",
        25: "recycle Power Plant",
        26: "buy Residential Area",
        34: "buy Office",
        38: "develop Residential Area",
        49: "develop Power Plant",
        50: "flip Residential Area",
        51: "flip Apartment",
        62: "target 0",
        65: "target 3",
        66: "remove Residential Area",
        77: "remove Power Plant",
    }
    for action, text in expected.items():
        assert state.action_to_string(action) == text
    texts = [state.action_to_string(a) for a in range(78)]
    assert len(set(texts)) == 78
    for action, text in enumerate(texts):
        assert state.string_to_action(text) == action
        assert state.string_to_action("  " + text.upper().replace(" ", "   ") + "  ") == action
        assert state.string_to_action(text.lower()) == action
    for bad in [-1, 78, True, "play", None, 2.0]:
        with pytest.raises(IllegalActionError):
            state.action_to_string(bad)


def test_chance_notation():
    game = oracle.make("flip_city")
    state = game.new_initial_state()
    assert [state.action_to_string(f) for f in range(12)] == [f"reveal {name}" for name in FACE_NAMES]
    for face, name in enumerate(FACE_NAMES):
        assert state.string_to_action(f"reveal {name}") == face
        assert state.string_to_action(name.lower()) == face
        assert state.string_to_action(f" BOTTOM  {name} ") == face
    with pytest.raises(IllegalActionError):
        state.action_to_string(12)
    with pytest.raises(InvalidNotationError):
        state.string_to_action("play")
    # The Factory's bottom card is written "bottom <Face>".
    for current in walk(oracle.make("flip_city", max_turns=30), 1):
        if json.loads(current.serialize())["pending"] == "bottom":
            assert current.is_chance_node()
            assert current.action_to_string(0) == "bottom Residential Area"
            break
    else:  # pragma: no cover
        pytest.fail("no Factory bottom card in the game")


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "pla y",
        "playy",
        "shuffle aside 0",
        "shuffle aside 11",
        "buy",
        "buy Mansion",
        "target 4",
        "target -1",
        "reveal Factory",
        "Factory",
        None,
        3,
        b"play",
    ],
)
def test_bad_notation(text):
    state = _decision_state()
    with pytest.raises(InvalidNotationError):
        state.string_to_action(text)


# --------------------------------------------------------------------------------------------------------
# Observations
# --------------------------------------------------------------------------------------------------------


def test_observation_layout_at_the_start():
    game = oracle.make("flip_city", players=3)
    state = game.new_initial_state()
    state.apply_action(10)  # seat 0: Factory on top
    state.apply_action(0)  # seat 1: Residential Area on top
    state.apply_action(4)  # seat 2: Central Park on top
    starting = [4, 1, 1, 0, 1, 0, 1, 0, 0, 0, 1, 0]
    tops = {0: 10, 1: 0, 2: 4}
    for observer in range(3):
        obs = state.observation_tensor(observer)
        cards = 9 * 3 + 40
        assert obs.dtype == np.float32 and obs.shape == (37 * 3 + 42 + 3 * (cards + 1) + 3,)
        for offset in range(3):
            seat = (observer + offset) % 3
            block = obs[36 * offset : 36 * offset + 36]
            assert list(block[:12]) == starting
            top = [0] * 12
            top[tops[seat]] = 1
            assert list(block[12:24]) == top
            assert list(block[24:36]) == [0] * 12
        rest = obs[108:]
        assert list(rest[:12]) == [0, 0, 12, 0, 8, 0, 12, 0, 0, 0, 8, 0]  # supply
        assert list(rest[12:24]) == [0] * 12  # play area
        current = [0, 0, 0]
        current[(0 - observer) % 3] = 1
        assert list(rest[24:27]) == current
        # cash, points, unhappiness, limit, forced, main, extra buys, extra flips, discount, turn
        assert list(rest[27:37]) == [0, 0, 0, 2, 0, 0, 0, 0, 0, 0]
        assert list(rest[37:40]) == [1, 0, 0]  # phase play
        assert list(rest[40:45]) == [0] * 5  # no pending step
        # FC §6 deck-order block: per seat C slots (1 + the face of each known card, top first), its best.
        order = obs[153:]
        for offset in range(3):
            seat = (observer + offset) % 3
            block = order[(cards + 1) * offset : (cards + 1) * (offset + 1)]
            assert block[0] == 1 + tops[seat]  # only the top card is known
            assert not block[1:].any()  # no other known card, best 0
        assert list(order[3 * (cards + 1) :]) == [0, 0, 0]  # played, store_played, shuffled
    assert state.information_state_string(1) == "seat=1 history=10,0,4"
    assert game.new_initial_state().information_state_string(0) == "seat=0 history="


def test_observations_at_every_step_are_finite_and_rotations():
    game = oracle.make("flip_city", players=3, office=True, max_turns=6)
    for state in walk(game, 2):
        tensors = [state.observation_tensor(p) for p in range(3)]
        for tensor in tensors:
            assert tensor.shape == game.observation_shape()
            assert np.isfinite(tensor).all()
        # Perfect information: seat 1's view is seat 0's view with the seat blocks rotated.
        seats0 = tensors[0][:108].reshape(3, 36)
        seats1 = tensors[1][:108].reshape(3, 36)
        assert np.array_equal(np.roll(seats0, -1, axis=0), seats1)
        assert np.array_equal(tensors[0][108:132], tensors[1][108:132])
        assert isinstance(state.observation_string(0), str) and str(state)
        if state.is_terminal():
            assert not tensors[0][132:135].any()
            assert list(tensors[0][145:148]) == [0, 0, 1]


@pytest.mark.parametrize("seat", [-1, 2, 10, True, 1.0, "0", None])
def test_observation_seat_out_of_range(seat):
    state = oracle.make("flip_city").new_initial_state()
    for method in (
        state.observation_tensor,
        state.observation_string,
        state.information_state_string,
    ):
        with pytest.raises(InvalidStateError):
            method(seat)


def test_masks_match_legal_actions():
    game = oracle.make("flip_city", players=2, office=True, max_turns=8)
    for state in walk(game, 9):
        mask = state.legal_actions_mask()
        assert mask.dtype == np.int8
        size = game.max_chance_outcomes() if state.is_chance_node() else game.num_distinct_actions()
        assert mask.shape == (size,)
        assert list(np.flatnonzero(mask)) == state.legal_actions()
        if state.is_chance_node():
            weights = state.chance_weights()
            assert all(w > 0 for _, w in weights)
            total = sum(w for _, w in weights)
            for (a, w), (b, p) in zip(weights, state.chance_outcomes(), strict=True):
                assert a == b and p == pytest.approx(w / total)
        else:
            assert state.chance_weights() == [] and state.chance_outcomes() == []
