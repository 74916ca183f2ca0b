"""Tests of the pure-Python Flipology oracle on its own (meeplex.oracle.flipology).

The rulebook scenarios live in test_flipology_rules.py (both engines); this file checks the oracle against the
contract (docs/rules/flipology.md, DESIGN.md): the card data against the rulebook's totals, parameters, whole
random games, serialization, cloning, refused actions, notation, observations and, above all, hidden
information: the no-leak property and ``resample_from_infostate``.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import numpy as np
import pytest

import meeplex.oracle as oracle
from meeplex.errors import GameError, IllegalActionError, InvalidNotationError, InvalidStateError
from meeplex.oracle import CHANCE, TERMINAL, Rng
from meeplex.oracle.flipology import CARDS, FlipologyGame
from meeplex.testing import check_state, run_conformance
from test_flipology_rules import (
    CAT4,
    CAT5,
    CAT6,
    DOG5,
    GOLDB,
    GOLDC,
    GOLDD,
    GOLDE,
    GOLDF,
    KEEP,
    PLACE,
    PLAIN,
    PLAIN_B,
    QUOKKA,
    REGROW,
    SUN,
    P,
    nature,
    play,
    view,
)

PARAM_SETS = [
    {},
    {"players": 3, "moon": True},
    {"players": 6},
    {"players": 4, "variant": 1, "max_rounds": 3},
    {"players": 2, "variant": 1, "target": 30},
    {"players": 2, "variant": 2},
    {"players": 4, "variant": 2, "moon": True},
]


def _ids(params: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in sorted(params.items())) or "defaults"


def walk(game, seed):
    """Every state of the seeded random game (DESIGN "random step"), the initial one first."""
    rng = Rng(seed)
    state = game.new_initial_state()
    yield state.clone()
    while not state.is_terminal():
        oracle.random_step(state, rng)
        yield state.clone()


# --------------------------------------------------------------------------------------------------------
# §2 card data: only the rulebook's totals are facts
# --------------------------------------------------------------------------------------------------------


def test_card_table_matches_the_rulebook_totals():
    """ "There are 82 cards in total. 76 of these represent an animal or an environmental element ... There
    are also 6 Clearing cards"; "six unique animal cards with gold borders ... 8 or 9 points"; "the Rain
    card", "the Moon card"."""
    dealable = CARDS[:30]
    assert sum(card.copies for card in dealable) == 76
    assert CARDS[30].kind == "Clearing" and CARDS[30].copies == 6
    assert sum(card.copies for card in CARDS) == 82
    gold = [card for card in CARDS if card.kind == "Gold"]
    assert len(gold) == 6 and all(card.copies == 1 and card.value in (8, 9) for card in gold)
    assert "Quokka 8" in [card.name for card in gold]
    by_kind = Counter()
    for card in CARDS:
        by_kind[card.kind] += card.copies
    assert by_kind["Rain"] == 1 and by_kind["Moon"] == 1
    printed = {
        "Dog": {5, 6}, "Snake": {3, 4}, "Frog": {4, 5}, "Monkey": {2, 3}, "Hawk": {3, 4}, "Mole": {1, 2},
        "Parrot": {4}, "Hunter": {2}, "Cat": {4, 5, 6}, "Sloth": {6, 7, 8}, "Rain": {3}, "Sun": {3},
        "Wind": {3}, "Moon": {7},
    }  # fmt: skip
    for card in CARDS:
        if card.kind in printed:
            assert card.value in printed[card.kind], card
    assert len({card.name for card in CARDS}) == len(CARDS)


def test_decks_per_variant():
    assert sum(oracle.make("flipology").deck) == 75
    assert sum(oracle.make("flipology", moon=True).deck) == 76
    assert sum(oracle.make("flipology", variant=1).deck) == 75
    assert sum(oracle.make("flipology", variant=2).deck) == 74
    assert sum(oracle.make("flipology", variant=2, moon=True).deck) == 75


# --------------------------------------------------------------------------------------------------------
# §1 parameters
# --------------------------------------------------------------------------------------------------------


def test_registry_and_defaults():
    assert "flipology" in oracle.games()
    assert oracle.GAMES["flipology"] is FlipologyGame
    game = oracle.make("flipology")
    assert game.params == {"players": 2, "variant": 0, "moon": False, "target": 50, "max_rounds": 10}
    assert str(game) == "flipology(max_rounds=10,moon=false,players=2,target=50,variant=0)"
    assert oracle.make(str(game)) == game
    assert oracle.make("flipology(players=4,variant=2)").params["variant"] == 2


@pytest.mark.parametrize(
    "params",
    [
        {"players": 1},
        {"players": 7},
        {"players": True},
        {"players": "2"},
        {"variant": 3},
        {"variant": -1},
        {"moon": 1},
        {"target": 0},
        {"max_rounds": 101},
        {"colour": "red"},
        {"variant": 2, "players": 5},
        {"variant": 1, "moon": True},
    ],
)
def test_bad_parameters(params):
    with pytest.raises(InvalidStateError):
        oracle.make("flipology", **params)


def test_bad_game_strings():
    with pytest.raises(InvalidStateError):
        oracle.make("flipology(players=two)")
    with pytest.raises(InvalidNotationError):
        oracle.make("flipology(players")


# --------------------------------------------------------------------------------------------------------
# Whole random games
# --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("params", PARAM_SETS, ids=_ids)
def test_random_games_end_and_share_the_win(params):
    game = oracle.make("flipology", **params)
    for seed in range(6):
        state = oracle.play_random(game, seed)
        assert state.is_terminal() and state.current_player() == TERMINAL
        assert len(state.history()) <= game.max_game_length()
        returns = state.returns()
        winners = view(state)["winners"]
        assert winners and returns == [1 / len(winners) if s in winners else 0.0 for s in range(game.players)]
        assert abs(sum(returns) - 1.0) < 1e-12
        scores = state.scores()
        assert scores == [float(seat["total"]) for seat in view(state)["seats"]]
        if params.get("variant") != 1:
            moon_up = any(r and r[0] == 29 and r[3] for seat in view(state)["seats"] for r in seat["row"])
            best = min(scores) if moon_up else max(scores)
            assert all(scores[w] == best for w in winners)


def test_play_random_is_deterministic():
    game = oracle.make("flipology(players=3,variant=2)")
    assert oracle.play_random(game, 11).history() == oracle.play_random(game, 11).history()
    assert oracle.play_random(game, 11).history() != oracle.play_random(game, 12).history()


@pytest.mark.parametrize("params", [{}, {"players": 3, "moon": True}, {"variant": 2}], ids=_ids)
def test_every_state_invariants(params):
    """Returns are zero before the end, chance weights positive and matching the pile, masks agree."""
    game = oracle.make("flipology", **params)
    for state in walk(game, 3):
        player = state.current_player()
        if player != TERMINAL:
            assert state.returns() == [0.0] * game.players
        if player == CHANCE:
            weights = state.chance_weights()
            assert all(w > 0 for _, w in weights)
            assert sum(w for _, w in weights) == sum(view(state)["pile"])
            assert state.legal_actions_mask().shape == (30,)
        elif player >= 0:
            mask = state.legal_actions_mask()
            assert mask.shape == (100,) and np.flatnonzero(mask).tolist() == state.legal_actions()
        obs = state.observation_tensor(0)
        assert obs.shape == game.observation_shape() and obs.dtype == np.float32


@pytest.mark.parametrize(
    "game_string",
    [
        "flipology",
        "flipology(players=3,moon=true)",
        "flipology(variant=1,max_rounds=2)",
        "flipology(variant=2)",
    ],
)
def test_conformance_suite(game_string):
    """The project's conformance suite (resample no-leak included) on whole games."""
    report = run_conformance(oracle.make(game_string), seeds=[1])
    assert report.terminal == 1


def test_conformance_great_tree_four_seats_prefix():
    report = run_conformance(oracle.make("flipology(players=4,variant=2)"), seeds=[2], max_steps=90)
    assert report.games == 1


# --------------------------------------------------------------------------------------------------------
# §10 serialization, cloning, refusals
# --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "params", [{}, {"variant": 1, "max_rounds": 2}, {"variant": 2, "players": 3}], ids=_ids
)
def test_serialize_round_trip(params):
    game = oracle.make("flipology", **params)
    for index, state in enumerate(walk(game, 5)):
        if index % 7:
            continue
        text = state.serialize()
        again = game.deserialize_state(text)
        assert again.serialize() == text
        assert again.history() == state.history()
        for p in range(game.players):
            assert again.information_state_string(p) == state.information_state_string(p)
            assert np.array_equal(again.observation_tensor(p), state.observation_tensor(p))


def test_deserialize_accepts_noncanonical_text():
    state = oracle.play_random(oracle.make("flipology"), 1)
    obj = json.loads(state.serialize())
    text = json.dumps(obj, indent=2)  # other spacing, other key order
    assert oracle.make("flipology").deserialize_state(text).serialize() == state.serialize()


def _mutations():
    def edit(path, value):
        def mutate(obj):
            target = obj
            for key in path[:-1]:
                target = target[key]
            target[path[-1]] = value

        return mutate

    def delete(key):
        return lambda obj: obj.pop(key)

    return {
        "game": edit(["game"], "flip_city"),
        "version": edit(["version"], 2),
        "version bool": edit(["version"], True),
        "params": edit(["params", "players"], 3),
        "params type": edit(["params", "moon"], 0),
        "missing key": delete("turn"),
        "extra key": lambda obj: obj.update(extra=1),
        "turn": edit(["turn"], 1),
        "turn as float": edit(["turn"], 0.0),
        "pile": edit(["pile", 0], 0),
        "known mask": edit(["seats", 1, "row", 0, 2], 3),
        "facing": edit(["seats", 0, "row", 0, 3], 1),
        "identity": edit(["seats", 0, "row", 0, 0], 29),
        "winners": edit(["winners"], [0]),
        "history illegal": lambda obj: obj["history"].__setitem__(0, 29),
        "history bool": lambda obj: obj["history"].__setitem__(0, True),
        "history not list": edit(["history"], "0,1"),
        "history too long": lambda obj: obj["history"].extend([0] * 1000),
        "history cut": lambda obj: obj["history"].pop(),
    }


@pytest.mark.parametrize("name", sorted(_mutations()))
def test_deserialize_rejects(name):
    game = oracle.make("flipology")
    game_, state = nature(oracle.make, [PLAIN, PLAIN_B])
    obj = json.loads(state.serialize())
    _mutations()[name](obj)
    with pytest.raises(InvalidStateError):
        game.deserialize_state(json.dumps(obj))


@pytest.mark.parametrize("text", ["", "{", "[]", "null", '"flipology"', '{"game":"flipology","game":"x"}', 7])
def test_deserialize_rejects_malformed(text):
    with pytest.raises(InvalidStateError):
        oracle.make("flipology").deserialize_state(text)


def test_clone_is_independent():
    game, state = nature(oracle.make, [PLAIN, PLAIN_B])
    twin = state.clone()
    before = state.serialize()
    twin.apply_action(P(0, 0))
    assert state.serialize() == before and twin.serialize() != before
    assert len(twin.history()) == len(state.history()) + 1
    assert state.information_state_string(0) != twin.information_state_string(0)


@pytest.mark.parametrize("bad", [-1, 100, 10**20, True, None, 1.0, "0", P(1, 0), PLACE + DOG5, KEEP])
def test_illegal_actions_refused_state_unchanged(bad):
    game, state = nature(oracle.make, [PLAIN, PLAIN_B])
    before = state.serialize()
    infos = [state.information_state_string(p) for p in range(2)]
    with pytest.raises(IllegalActionError):
        state.apply_action(bad)
    assert state.serialize() == before
    assert [state.information_state_string(p) for p in range(2)] == infos


def test_illegal_chance_outcome_refused():
    state = oracle.make("flipology").new_initial_state()
    play(state, *[QUOKKA])
    before = state.serialize()
    with pytest.raises(IllegalActionError):
        state.apply_action(QUOKKA)  # the only Quokka is dealt already
    assert state.serialize() == before


def test_errors_are_value_errors():
    assert issubclass(IllegalActionError, (GameError, ValueError))


# --------------------------------------------------------------------------------------------------------
# §7 notation
# --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("params", [{}, {"variant": 2}], ids=_ids)
def test_every_id_has_a_text_that_round_trips(params):
    game = oracle.make("flipology", **params)
    state = game.new_initial_state()
    for outcome in range(30):
        text = state.action_to_string(outcome)
        assert text.startswith("deal ") and state.string_to_action(text) == outcome
        assert state.string_to_action(text[len("deal ") :].upper()) == outcome
    with pytest.raises(IllegalActionError):
        state.action_to_string(30)
    decision = next(s for s in walk(game, 1) if s.current_player() >= 0 and view(s)["phase"] == "play")
    texts = [decision.action_to_string(a) for a in range(100)]
    assert len(set(texts)) == 100
    for action, text in enumerate(texts):
        assert decision.string_to_action(text) == action
        assert decision.string_to_action("  " + text.upper().replace(" ", "   ") + " ") == action
    with pytest.raises(IllegalActionError):
        decision.action_to_string(100)


def test_position_texts_and_verbs():
    game, state = nature(oracle.make, [PLAIN[:6] + [SUN], PLAIN_B])
    assert state.action_to_string(P(1, 6)) == "flip 1.6"
    assert state.string_to_action("1.6") == P(1, 6)
    assert state.string_to_action("swap 1.6") == state.string_to_action("use 1.6") == P(1, 6)
    play(state, P(0, 6))
    assert state.action_to_string(P(1, 3)) == "peek 1.3"
    great = oracle.make("flipology", variant=2).new_initial_state()
    assert great.game.position_text(59) == "3.2.4"
    for bad in ["flip 0.7", "1.2.3", "fly 1.2", "place Dragon 9", "mimic Cat", "deal Dog 5", "", "1.-2"]:
        with pytest.raises(InvalidNotationError):
            state.string_to_action(bad)
    with pytest.raises(InvalidNotationError):
        state.string_to_action(7)


# --------------------------------------------------------------------------------------------------------
# §8 observations and hidden information
# --------------------------------------------------------------------------------------------------------


def _views(state, p: int):
    return (
        state.observation_tensor(p).tobytes(),
        state.observation_string(p),
        state.information_state_string(p),
    )


def test_observation_shape_formula():
    for params, shape in [({}, 36 * 2 * 7 + 14 + 91), ({"players": 6}, 36 * 6 * 7 + 42 + 91)]:
        assert oracle.make("flipology", **params).observation_shape() == (shape,)
    assert oracle.make("flipology", players=4, variant=2).observation_shape() == (36 * 4 * 15 + 28 + 91,)


def test_no_leak_states_differing_only_in_hidden_facts():
    """Two games identical but for seat 1's hidden cards (its row and its discards): seat 0 sees the same
    observation, observation string and information state; seat 1 does not."""
    row0 = [CAT4, CAT5, CAT6, GOLDB, GOLDC, GOLDD, DOG5]
    game, a = nature(oracle.make, [row0, PLAIN_B], discards=[[QUOKKA, GOLDE], [CAT4, 16]])
    game, b = nature(
        oracle.make, [row0, [GOLDF, CAT4, CAT5, CAT6, 17, 16, 15]], discards=[[QUOKKA, GOLDE], [5, 6]]
    )
    assert _views(a, 0) == _views(b, 0)
    assert _views(a, 1) != _views(b, 1)
    # A public move that reveals nothing of seat 1's cards keeps them equal for seat 0 ...
    play(a, P(0, 0))
    play(b, P(0, 0))
    assert _views(a, 0) == _views(b, 0)
    # ... and seat 1 turning its card 1.6 face up shows it: Gold F in one game, a Hawk in the other.
    play(a, P(1, 6))
    play(b, P(1, 6))
    assert _views(a, 0) != _views(b, 0)


def test_no_leak_during_setup():
    """During the deal and the arrangement the others see that cards were dealt and placed, never which."""
    game = oracle.make("flipology")
    a, b = game.new_initial_state(), game.new_initial_state()
    hand0 = [CAT4, CAT5, CAT6, GOLDB, GOLDC, GOLDD, GOLDE, GOLDF, QUOKKA]
    play(a, *hand0, *[0, 0, 1, 1, 2, 2, 3, 3, 4])
    play(b, *hand0, *[8, 8, 9, 9, 10, 10, 11, 11, 12])
    assert _views(a, 0) == _views(b, 0)
    play(a, *(PLACE + c for c in hand0[:7]))
    play(b, *(PLACE + c for c in hand0[:7]))
    play(a, PLACE + 0, PLACE + 2)
    play(b, PLACE + 8, PLACE + 10)
    assert _views(a, 0) == _views(b, 0)
    assert "?" in a.information_state_string(0)


def test_information_state_is_perfect_recall():
    """A card seen face up and turned face down again stays known (§3.1, §8.2)."""
    game, state = nature(oracle.make, [[CAT6] + PLAIN[3:] + [CAT4, CAT5], PLAIN_B])
    play(state, P(0, 1), P(1, 6))  # seat 1 turns Gold F face up
    play(state, P(0, 2), P(1, 6))  # and face down again
    assert state.information_state_string(0).split(",")[-3].endswith(f"/{P(1, 6)}:{GOLDF}")
    obs = state.observation_tensor(0)
    base = 36 * (7 + 6)
    assert np.flatnonzero(obs[base + 2 : base + 33]).tolist() == [GOLDF]


def test_regrowth_is_seen_by_the_regrowing_seat_only():
    game = oracle.make("flipology", variant=2)
    state = game.new_initial_state()
    play(state, CAT4, CAT5, CAT6, GOLDB, GOLDC, GOLDD, GOLDE, GOLDF, QUOKKA, CAT4, REGROW, KEEP)
    play(state, DOG5, DOG5, 1, 1, 8)
    info1 = state.information_state_string(1)
    assert info1.startswith("seat=1 history=?,?,?,?,?,23,24,25,20,2,98,97,?,?,?,?,?")
    info0 = state.information_state_string(0)
    assert info0.startswith("seat=0 history=2,3,4,21,22,?,?,?,?,?,98,97,0,0,1,1,8")


# --------------------------------------------------------------------------------------------------------
# §9 resample_from_infostate
# --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "params", [{}, {"players": 3, "variant": 1, "max_rounds": 3}, {"variant": 2, "players": 3}]
)
def test_resample_keeps_the_seat_view(params):
    game = oracle.make("flipology", **params)
    for index, state in enumerate(walk(game, 8)):
        if index % 9:
            continue
        before = state.serialize()
        for p in range(game.players):
            sample = state.resample_from_infostate(p, Rng(index))
            assert _views(sample, p) == _views(state, p)
            assert sample.current_player() == state.current_player()
            assert sample.legal_actions() == state.legal_actions() or state.current_player() not in (p,)
            assert len(sample.history()) == len(state.history())
            # the resample is a real state: its history replays to it
            assert game.deserialize_state(sample.serialize()).serialize() == sample.serialize()
        assert state.serialize() == before


def test_resample_is_deterministic_and_varies():
    game, state = nature(oracle.make, [PLAIN, PLAIN_B])
    one = state.resample_from_infostate(0, Rng(4)).serialize()
    assert one == state.resample_from_infostate(0, Rng(4)).serialize()
    others = {state.resample_from_infostate(0, Rng(seed)).serialize() for seed in range(10)}
    assert len(others) > 5
    with pytest.raises(InvalidStateError):
        state.resample_from_infostate(2, Rng(0))
    with pytest.raises(InvalidStateError):
        state.resample_from_infostate(0, None)


def test_resample_of_a_terminal_state():
    state = oracle.play_random(oracle.make("flipology(players=3)"), 4)
    sample = state.resample_from_infostate(1, Rng(0))
    assert sample.is_terminal()
    assert sample.returns() == state.returns()  # the rows were revealed at the scoring


def test_resample_frequencies_match_the_deal():
    """Seat 0 knows its nine cards; seat 1's nine are a uniform draw from the other 66: the Quokka (one copy)
    is in seat 1's hand with probability 9/66."""
    game = oracle.make("flipology")
    state = game.new_initial_state()
    play(state, CAT4, CAT5, CAT6, GOLDB, GOLDC, GOLDD, GOLDE, GOLDF, SUN)
    play(state, *[0, 0, 1, 1, 2, 2, 3, 3, QUOKKA])
    hits = 0
    trials = 2000
    for seed in range(trials):
        sample = state.resample_from_infostate(0, Rng(seed))
        hits += any(c == QUOKKA for c, _ in view(sample)["seats"][1]["hand"])
    assert abs(hits / trials - 9 / 66) < 0.025


def _regrowth_truth(deck: list[int], first: list[int], redeal: list[int], cards: list[int], samples: int):
    """The exact posterior means, estimated independently of §9 by simulating the real chance process: seat
    1's five cards are drawn from the deck without seat 0's first hand, then seat 0's hand goes back and
    seat 0 draws ``redeal`` in this order: each draw of seat 1 is weighted by the probability of that
    redeal."""
    pool = [c for c in range(30) for _ in range(deck[c])]
    for c in first:
        pool.remove(c)
    base = Counter(pool) + Counter(first)  # the pile after the give-back, before seat 1's cards are taken out
    rnd = random.Random(1)
    total, sums = 0.0, Counter()
    for _ in range(samples):
        hand = rnd.sample(pool, 5)
        size, weight, drawn = sum(base.values()) - 5, 1.0, Counter()
        for c in redeal:
            weight *= (base[c] - hand.count(c) - drawn[c]) / size
            drawn[c] += 1
            size -= 1
        total += weight
        for c in cards:
            sums[c] += weight * hand.count(c)
    return {c: sums[c] / total for c in cards}


def test_resample_respects_own_regrowth():
    """Seat 0 gave its hand (with the Quokka and a Dog 5) back to the pile after seat 1 was dealt: seat 1's
    hand can never hold the Quokka, and its cards follow the exact posterior (§9 step 3), which differs from
    a plain shuffle of the unknown cards."""
    game = oracle.make("flipology", variant=2)
    first, redeal = [QUOKKA, DOG5, CAT6, GOLDB, GOLDC], [8, 8, 9, 9, 10]
    state = game.new_initial_state()
    play(state, *first)  # seat 0's first hand
    play(state, 1, 1, 2, 2, 3)  # seat 1's hand (hidden from seat 0)
    play(state, REGROW, KEEP)
    play(state, *redeal)  # seat 0's new hand: frogs and a snake
    assert view(state)["phase"] == "arrange"
    watched = [DOG5, 8, 10, QUOKKA]
    truth = _regrowth_truth(list(game.deck), first, redeal, watched, 40000)
    counts, trials = Counter(), 2000
    for seed in range(trials):
        hand = [c for c, _ in view(state.resample_from_infostate(0, Rng(seed)))["seats"][1]["hand"]]
        for c in watched:
            counts[c] += hand.count(c)
    assert counts[QUOKKA] == 0 and truth[QUOKKA] == 0
    for c in (DOG5, 8, 10):
        assert abs(counts[c] / trials - truth[c]) < 0.035, (c, counts[c] / trials, truth[c])
    # A plain shuffle would put seat 0's given-back Dog 5 among seat 1's cards too: 5 x 5 / 69 and more.
    assert counts[DOG5] / trials < 5 * 5 / 69 - 0.02


def test_resample_other_seats_returned_hand():
    """Seat 1 regrew: from seat 0's view its given-back hand is any five cards that were in the pile when
    seat 0 could not see them; the resample rewrites those draws and stays a legal history."""
    game = oracle.make("flipology", variant=2)
    state = game.new_initial_state()
    play(state, CAT4, CAT5, CAT6, GOLDB, GOLDC, 1, 1, 2, 2, 3, KEEP, REGROW, 8, 8, 9, 9, 10)
    samples = {
        json.dumps(view(state.resample_from_infostate(0, Rng(s)))["seats"][1]["returned"]) for s in range(8)
    }
    assert len(samples) > 1
    for s in range(8):
        sample = state.resample_from_infostate(0, Rng(s))
        assert _views(sample, 0) == _views(state, 0)
        assert game.deserialize_state(sample.serialize()).serialize() == sample.serialize()


def test_check_state_on_hidden_moments():
    """The conformance checks on states with much hidden: mid-arrangement, after a Sun, after a regrowth."""
    game, state = nature(oracle.make, [PLAIN[:6] + [SUN], PLAIN_B])
    check_state(state, game)
    play(state, P(0, 6), P(1, 0), P(1, 1))
    check_state(state, game)
    great = oracle.make("flipology", variant=2, players=3)
    gstate = great.new_initial_state()
    rng = Rng(3)
    while view(gstate)["phase"] != "arrange":
        if view(gstate)["phase"] == "regrow":
            gstate.apply_action(REGROW)
        else:
            oracle.random_step(gstate, rng)
    check_state(gstate, great)
