"""Tests of the pure-Python Flip Pick Towers oracle on its own (meeplex.oracle.flip_pick_towers).

The rulebook scenarios live in test_flip_pick_towers_rules.py; this file checks the oracle against the
contract (docs/rules/flip_pick_towers.md, DESIGN.md): parameters and the sheet file, whole random games,
serialization, cloning, refused actions, notation, observations and the hiding of picks.
"""

from __future__ import annotations

import copy
import json
import random

import numpy as np
import pytest

import meeplex.oracle as oracle
from meeplex.errors import IllegalActionError, InvalidNotationError, InvalidStateError
from meeplex.oracle import CHANCE, TERMINAL, Rng
from meeplex.oracle.flip_pick_towers import FlipPickTowersGame, encode_sheet, placeholder_text
from meeplex.testing import check_state

GAME = "flip_pick_towers"
DEFAULTS = {
    "competitive": False,
    "dragon_per_card": False,
    "garden_towers": True,
    "players": 2,
    "sheet": "placeholder",
    "target": "star",
}
PARAM_SETS = [
    {"players": 1},
    {"players": 1, "target": "rosette", "garden_towers": False},
    {"players": 2},
    {"players": 3, "competitive": True},
    {"players": 4, "dragon_per_card": True},
    {"players": 6, "competitive": True, "dragon_per_card": True},
]
PLACEHOLDER = json.loads(placeholder_text())


def walk(game, seed):
    """Every state of the seeded random game (DESIGN "random step"), the initial one first."""
    rng = Rng(seed)
    state = game.new_initial_state()
    yield state.clone()
    while not state.is_terminal():
        oracle.random_step(state, rng)
        yield state.clone()


def builder_policy(state, rnd: random.Random) -> int:
    """A player that builds: it picks a card whose feature fits now (higher floors first), so that games
    reach round 2, royals, decorations and flags far more often than uniform random play."""
    legal = state.legal_actions()
    if state.is_chance_node():
        weights = state.chance_weights()
        return rnd.choices([a for a, _ in weights], weights=[w for _, w in weights])[0]
    if state.step == "pick":
        seat = state.seats[state.seat]
        scores = []
        for slot in (0, 1, 2):
            feature = state.display[slot] // 5
            if feature >= 15:
                fits = seat.gained[feature - 15] + seat.used[feature - 15] < 2
            else:
                fits = bool(state.feature_cells(seat, feature))
            scores.append(10 * fits + (feature if feature < 9 else 4) + 3 * rnd.random())
        return scores.index(max(scores))
    return rnd.choice(legal)


def builder_game(game, seed):
    rnd = random.Random(seed)
    state = game.new_initial_state()
    yield state.clone()
    while not state.is_terminal():
        state.apply_action(builder_policy(state, rnd))
        yield state.clone()


# --------------------------------------------------------------------------------------------------------
# Registry, parameters, sizes
# --------------------------------------------------------------------------------------------------------


def test_registry():
    assert GAME in oracle.games()
    assert oracle.GAMES[GAME] is FlipPickTowersGame


def test_defaults_and_sizes():
    game = oracle.make(GAME)
    assert game.name == GAME
    assert game.params == DEFAULTS
    assert str(game) == (
        "flip_pick_towers(competitive=false,dragon_per_card=false,garden_towers=true,players=2,"
        "sheet=placeholder,target=star)"
    )
    assert str(oracle.make(str(game))) == str(game)
    # §8: 11 + N + S with N = 70 cells, S = 16 stall columns; max(100, M = 33).
    assert game.num_distinct_actions() == 97
    assert game.max_chance_outcomes() == 100
    assert game.observation_shape() == (2 * (14 * 70 + 16 + 21) + 3 * 33 + 210,)
    assert game.max_game_length() == 3 + 42 * (3 + 14 * 2)


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_sizes_per_player_count(players):
    game = oracle.make(GAME, players=players)
    assert game.num_players() == players
    assert game.observation_shape() == (players * 1017 + 99 + 210,)
    assert game.max_game_length() == 3 + 42 * (3 + 14 * players)
    assert game.new_initial_state().observation_tensor(players - 1).shape == game.observation_shape()


@pytest.mark.parametrize(
    "params",
    [
        {"colour": "red"},
        {"players": 0},
        {"players": 7},
        {"players": True},
        {"players": "2"},
        {"competitive": 1},
        {"competitive": True, "players": 1},
        {"dragon_per_card": "yes"},
        {"garden_towers": None},
        {"target": "moon"},
        {"target": 1},
        {"sheet": "real"},
        {"sheet": 3},
        {"sheet": "b64_"},
        {"sheet": "b64_e"},  # length 1 mod 4
        {"sheet": "b64_e30="},  # padding is not part of the alphabet
        {"sheet": "b64_e31"},  # non-zero trailing bits: not canonical
        {"sheet": encode_sheet("{}")},
        {"sheet": encode_sheet("not json")},
    ],
)
def test_bad_parameters(params):
    with pytest.raises(InvalidStateError):
        oracle.make(GAME, **params)


def test_bad_game_strings():
    with pytest.raises(InvalidNotationError):
        oracle.make("flip_pick_towers(target=")
    with pytest.raises(InvalidStateError):
        oracle.make("flip_pick_towers(players=2)", players=3)


# --------------------------------------------------------------------------------------------------------
# The sheet file
# --------------------------------------------------------------------------------------------------------


def test_placeholder_is_marked_unverified():
    assert PLACEHOLDER["verified"] is False
    assert PLACEHOLDER["name"] == "placeholder"
    assert "UNVERIFIED" in " ".join(PLACEHOLDER["notes"])
    sheet = oracle.make(GAME).sheet
    assert sheet.verified is False and len(sheet.cards) == 33


def test_castle_deck_invariants():
    """§2.1: 63 cards: 4 of each stability 1..9, 4 bridges, 4 roofs, 4 of each royal, 2 dragons, 5
    creatures."""
    deck = oracle.make(GAME).sheet.full_deck
    assert sum(deck) == 63
    per_feature = [sum(deck[5 * f : 5 * f + 5]) for f in range(20)]
    assert per_feature == [4] * 9 + [4, 4, 4, 4, 4, 2, 1, 1, 1, 1, 1]
    assert all(deck[5 * f + 4] == 0 for f in range(15))  # only creatures are wild
    assert all(deck[5 * f + 4] == 1 for f in range(15, 20))


def mutated(change) -> str:
    obj = copy.deepcopy(PLACEHOLDER)
    change(obj)
    return encode_sheet(json.dumps(obj))


def test_custom_sheet_equal_to_the_placeholder_plays_the_same():
    custom = oracle.make(GAME, sheet=encode_sheet(placeholder_text()))
    assert custom.params["sheet"].startswith("b64_")
    assert str(oracle.make(str(custom))) == str(custom)  # the sheet travels in the game string
    a = oracle.play_random(oracle.make(GAME), 11)
    b = oracle.play_random(custom, 11)
    assert a.history() == b.history() and a.scores() == b.scores()


def test_custom_sheet_geometry():
    """Any sheet: a 3-row sheet whose only garden column sits left of a short tower column."""

    def small(obj):
        obj["rows"] = 3
        obj["columns"] = [{"kind": "garden", "bottom": 0, "top": 2}, {"kind": "tower", "bottom": 1, "top": 2}]
        obj["tower_height_points"] = [1, 2, 3]

    game = oracle.make(GAME, players=1, sheet=mutated(small))
    assert game.num_distinct_actions() == 11 + 6 + 16
    for seed in range(5):
        state = oracle.play_random(game, seed)
        assert len(state.history()) <= game.max_game_length()
        grid = json.loads(state.serialize())["seats"][0]["grid"]
        assert grid[0][1] == "#"  # the tower column starts in row 2


@pytest.mark.parametrize(
    "change",
    [
        lambda o: o.pop("rows"),
        lambda o: o.update(extra=1),
        lambda o: o.update(format="other"),
        lambda o: o.update(version=2),
        lambda o: o.update(rows=17),
        lambda o: o.update(rows=True),
        lambda o: o.update(columns=[]),
        lambda o: o["columns"][0].update(kind="moat"),
        lambda o: o["columns"][0].update(bottom=5, top=4),
        lambda o: o.update(tower_height_points=[1, 2]),
        lambda o: o.update(beanstalk_points=[]),
        lambda o: o["stalls"].pop("glass"),
        lambda o: o["stalls"].update(gold=[0, 2]),
        lambda o: o.update(bean_heights=[2, 3, 4]),
        lambda o: o.update(bean_heights=[2, 3, 4, 7]),
        lambda o: o.update(creature_spaces=[2, 2, 2, 2]),
        lambda o: o["resources"].update(dragon=["gold"]),
        lambda o: o["resources"].update(roof=["fabric", "beans", "gold", "wild"]),
        lambda o: o.update(scoring_cards=o["scoring_cards"][:2]),
        lambda o: o["scoring_cards"][1].update(name=o["scoring_cards"][0]["name"]),
        lambda o: o["scoring_cards"][0].update(targets=[1, 2]),
        lambda o: o["scoring_cards"][0].update(score=["count", "nowhere", "floor"]),
        lambda o: o["scoring_cards"][0].update(score=["count", "self", "unicorn"]),
        lambda o: o["scoring_cards"][0].update(score=["sum"]),
        lambda o: o["scoring_cards"][0].update(score=["if", 1, 2, 3]),
        lambda o: o["scoring_cards"][0].update(score=["lookup", 1, []]),
        lambda o: o["scoring_cards"][0].update(score=1001),
        lambda o: o["scoring_cards"][0].update(score=True),
        lambda o: o["scoring_cards"][0].update(score=["stability", 1]),
        lambda o: o["scoring_cards"][0].update(score=["sum"] + [1] * 100),  # 101 nodes
        lambda o: o["scoring_cards"][0].update(score=nest(10)),  # 11 levels
    ],
)
def test_bad_sheet_files(change):
    with pytest.raises(InvalidStateError):
        oracle.make(GAME, sheet=mutated(change))


def nest(levels: int):
    expr: object = 1
    for _ in range(levels):
        expr = ["sum", expr]
    return expr


def test_expression_limits_are_inclusive():
    def deep(o):
        o["scoring_cards"][0]["score"] = nest(9)  # 10 levels
        o["scoring_cards"][1]["score"] = ["sum"] + [1] * 99  # 100 nodes

    oracle.make(GAME, sheet=mutated(deep))


@pytest.mark.parametrize(
    "text",
    [
        '{"format": 1, "format": 1}',
        '{"rows": 1.0}',
        "[NaN]",
        "[1e3]",
        '"sheet"',
        "{",
        "\ufeff" + placeholder_text(),  # a byte-order mark
        placeholder_text().replace('"placeholder"', '"\\ud800"', 1),  # a lone surrogate, escaped
    ],
)
def test_sheet_json_is_strict(text):
    with pytest.raises(InvalidStateError):
        oracle.make(GAME, sheet=encode_sheet(text))


# --------------------------------------------------------------------------------------------------------
# Royal expressions (§3.2)
# --------------------------------------------------------------------------------------------------------


def final_score(expr, layout: dict[str, str]) -> int:
    """The round-2 score of a solo sheet ``layout`` whose queen card is ``expr`` (heights included)."""

    def one_card(o):
        o["scoring_cards"][0]["score"] = expr

    game = oracle.make(GAME, players=1, sheet=mutated(one_card))
    state = game.new_initial_state()
    for card in (0, 1, 2):
        state.apply_action(card)
    obj = json.loads(state.serialize())
    rows = [["."] * 7 for _ in range(10)]
    for name, token in layout.items():
        rows[int(name[1:]) - 1]["abcdefg".index(name[0])] = token
    obj["seats"][0]["grid"] = rows
    state = game.deserialize_state(json.dumps(obj))
    return state.royal_points(0, 0)


@pytest.mark.parametrize(
    ("expr", "points"),
    [
        (["height"], 2 + 3),
        (["stability"], 8 + 7),
        (["tower"], 1 + 1),
        (["count", "castle", "queen"], 2 + 2),
        (["count", "castle", "flag"], 3 + 3),
        (["count", "around", "any"], 4 + 3),  # a2: a1, a3, b1, b2; a3: a2, a4, b2
        (["count", "beside", "banner"], 1 + 0),
        (["count", "higher", "floor"], 1 + 0),
        (["count", "column", "royal"], 2 + 2),
        (["count", "row", "gold"], 1 + 0),
        (["count", "self", "bare_floor"], 0),
        (["count", "adjacent", "empty"], 0 + 1),
        (["if", ["and", ["ge", ["height"], 3], ["not", ["eq", 1, 2]]], 7, -1], -1 + 7),
        (["lookup", ["height"], [0, 10, 20]], 20 + 20),  # the index is clamped to the table
        (["lookup", ["sum", ["height"], -10], [5, 6]], 5 + 5),
        (["min", ["height"], 2], 2 + 2),
        (["max", 4, ["height"]], 4 + 4),
        (["if", ["or", ["le", ["count", "below", "floor"], 0], ["eq", 0, 1]], 1, 0], 0 + 0),
        (["mul", ["sum", 1000, 1000], 1000, 1000, 1000], 1_000_000_000),  # clamped per royal and in total
        (["mul", -1000, 1000, 1000, 1000], -1_000_000_000),
    ],
)
def test_royal_expressions(expr, points):
    """Queens at a2 (height 2, stability 8) and a3 (height 3, stability 7)."""
    layout = {"a1": "F9-", "a2": "F8q", "a3": "F7q", "a4": "R3", "b2": "N", "b1": "n", "c2": "F9g"}
    assert final_score(expr, layout) == points


# --------------------------------------------------------------------------------------------------------
# Whole games
# --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("params", PARAM_SETS, ids=lambda p: str(p))
def test_random_games_end_within_the_bound(params):
    game = oracle.make(GAME, **params)
    for seed in range(6):
        state = oracle.play_random(game, seed)
        assert state.is_terminal()
        assert len(state.history()) <= game.max_game_length()
        returns = state.returns()
        assert len(returns) == game.num_players()
        assert sum(returns) in (0.0, 1.0) or abs(sum(returns) - 1.0) < 1e-9


@pytest.mark.parametrize("params", PARAM_SETS, ids=lambda p: str(p))
def test_builder_games_stay_in_bounds(params):
    game = oracle.make(GAME, **params)
    for seed in range(2):
        *_, final = builder_game(game, seed)
        assert final.is_terminal()
        assert len(final.history()) <= game.max_game_length()


def test_builder_games_reach_round_two():
    game = oracle.make(GAME, players=1)
    for seed in (0, 1):
        *_, final = builder_game(game, seed)
        obj = obj_of(final)
        assert obj["round"] == 2 and obj["seats"][0]["round_scores"][1] != 0


def test_play_random_is_reproducible():
    game = oracle.make(GAME, players=3)
    assert oracle.play_random(game, 5).history() == oracle.play_random(game, 5).history()
    assert oracle.play_random(game, 5).history() != oracle.play_random(game, 6).history()


def test_conformance_on_sampled_states():
    """The generic conformance checks (meeplex.testing.check_state) on a sample of states of varied games."""
    rnd = random.Random(0)
    for params in PARAM_SETS[:4]:
        game = oracle.make(GAME, **params)
        states = list(builder_game(game, 1))
        for state in rnd.sample(states, min(12, len(states))) + [states[-1]]:
            check_state(state, game)


# --------------------------------------------------------------------------------------------------------
# Serialization, cloning, refused actions
# --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("params", PARAM_SETS[1:4], ids=lambda p: str(p))
def test_serialization_round_trips(params):
    game = oracle.make(GAME, **params)
    for state in builder_game(game, 3):
        text = state.serialize()
        again = game.deserialize_state(text)
        assert again.serialize() == text
        assert again.legal_actions() == state.legal_actions()
        assert again.current_player() == state.current_player()
        assert json.dumps(json.loads(text), sort_keys=True, separators=(",", ":")) == text


def test_clone_is_independent():
    game = oracle.make(GAME, players=3)
    for state in list(builder_game(game, 4))[::7]:
        if state.is_terminal():
            continue
        before = state.serialize()
        twin = state.clone()
        twin.apply_action(twin.legal_actions()[-1])
        assert state.serialize() == before
        assert twin.serialize() != before
        assert twin.history()[:-1] == state.history()


def test_illegal_actions_refused_and_state_unchanged():
    game = oracle.make(GAME, players=2)
    for state in list(builder_game(game, 5))[::5]:
        before = state.serialize()
        legal = set(state.legal_actions())
        bound = game.max_chance_outcomes() if state.is_chance_node() else game.num_distinct_actions()
        tries = [a for a in range(bound) if a not in legal][:5] + [
            -1,
            bound,
            10**6,
            True,
            1.0,
            "pick 1",
            None,
        ]
        for action in tries:
            with pytest.raises(IllegalActionError):
                state.apply_action(action)
            assert state.serialize() == before


def obj_of(state) -> dict:
    return json.loads(state.serialize())


def a_decision_state(game, step: str, seed: int = 1):
    for state in builder_game(game, seed):
        if state.step == step and not state.is_chance_node():
            return state
    raise AssertionError(f"no {step} step reached")


@pytest.mark.parametrize(
    ("label", "change"),
    [
        ("extra key", lambda o: o.update(extra=1)),
        ("missing key", lambda o: o.pop("turn")),
        ("bool turn", lambda o: o.update(turn=True)),
        ("bad step", lambda o: o.update(step="nap")),
        ("bad params", lambda o: o["params"].update(players=3)),
        ("bad version", lambda o: o.update(version=2)),
        ("deck too big", lambda o: o["deck"].__setitem__(0, o["deck"][0] + 1)),
        ("deck short", lambda o: o["deck"].__setitem__(o["deck"].index(max(o["deck"])), max(o["deck"]) - 1)),
        ("bad token", lambda o: o["seats"][0]["grid"][0].__setitem__(0, "F11-")),
        ("cell on missing", lambda o: o["seats"][0]["grid"][0].__setitem__(0, "#")),
        ("lone banner", lambda o: o["seats"][0]["grid"][5].__setitem__(3, "N")),
        ("floating beanstalk", lambda o: o["seats"][0]["grid"][5].__setitem__(1, "S")),
        ("beanstalk in tower", lambda o: o["seats"][0]["grid"][0].__setitem__(0, "S")),
        ("crest 4", lambda o: o["seats"][0].update(crest=4)),
        ("stall overfull", lambda o: o["seats"][0]["stalls"][0].__setitem__(0, 3)),
        ("creature marks", lambda o: o["seats"][0]["creatures"].__setitem__(0, [2, 1])),
        ("pick early", lambda o: o["seats"][1].update(pick=0)),
        ("roof bad", lambda o: o["seats"][0].update(roof=0)),
        ("royal twice", lambda o: o.update(royal_cards=[1, 1, 2])),
        ("final no crest", lambda o: o.update(final_turn=True)),
        ("history id", lambda o: o["history"].append(100)),
        ("sketch outside", lambda o: o.update(magic=2)),
        ("seat out of range", lambda o: o.update(seat=2)),
        ("display 4", lambda o: o["display"].append(o["display"][0])),
    ],
)
def test_deserialize_rejects(label, change):
    game = oracle.make(GAME, players=2)
    state = a_decision_state(game, "pick")
    obj = obj_of(state)
    game.deserialize_state(json.dumps(obj))  # the unchanged position is fine
    change(obj)
    with pytest.raises(InvalidStateError):
        game.deserialize_state(json.dumps(obj))


def test_deserialize_rejects_unsettled_states():
    """§10: a state that settle would change is refused (here a box task with nothing left to gain)."""
    game = oracle.make(GAME, players=2)
    for state in builder_game(game, 2):
        obj = obj_of(state)
        if obj["task"] == "box":
            break
    game.deserialize_state(json.dumps(obj))
    obj["queue"] = []
    with pytest.raises(InvalidStateError, match="settled"):
        game.deserialize_state(json.dumps(obj))


@pytest.mark.parametrize("text", ["", "{", "[]", "null", "42", '{"game":"flip_pick_towers"}', 7, None])
def test_deserialize_rejects_garbage(text):
    with pytest.raises(InvalidStateError):
        oracle.make(GAME).deserialize_state(text)


def test_deserialize_rejects_duplicate_keys():
    game = oracle.make(GAME)
    text = game.new_initial_state().serialize()
    with pytest.raises(InvalidStateError):
        game.deserialize_state(text[:-1] + ',"turn":0}')


# --------------------------------------------------------------------------------------------------------
# Notation (§8)
# --------------------------------------------------------------------------------------------------------


def test_decision_notation_round_trips():
    game = oracle.make(GAME)
    state = a_decision_state(game, "pick")
    texts = [state.action_to_string(a) for a in range(game.num_distinct_actions())]
    assert len(set(texts)) == len(texts)
    assert texts[:11] == [
        "pick 1", "pick 2", "pick 3", "no magic", "magic Derwen", "magic Bwca", "magic Ji-Ji", "magic Sosban",
        "magic Mab", "stability -1", "stability +1",
    ]  # fmt: skip
    assert texts[11] == "a1" and texts[11 + 7] == "a2" and texts[11 + 69] == "g10"
    assert texts[81:85] == ["fabric 1", "fabric 2", "fabric 3", "fabric 4"] and texts[96] == "glass 4"
    for action, text in enumerate(texts):
        assert state.string_to_action(text) == action
        assert state.string_to_action("  " + text.upper().replace(" ", "   ") + " ") == action
    for bad in ["", "pick 4", "z1", "a11", "reveal roof gold", "deal 1", "gold 5"]:
        with pytest.raises(InvalidNotationError):
            state.string_to_action(bad)
    with pytest.raises(InvalidNotationError):
        state.string_to_action(3)  # type: ignore[arg-type]
    for bad in [-1, 97, None, True]:
        with pytest.raises(IllegalActionError):
            state.action_to_string(bad)


def test_chance_notation():
    game = oracle.make(GAME)
    state = game.new_initial_state()
    assert state.current_player() == CHANCE
    assert state.chance_weights() == [(i, 1) for i in range(33)]
    assert state.action_to_string(16) == "deal 17"
    assert state.string_to_action("Deal 17") == 16 and state.string_to_action("17") == 16
    with pytest.raises(IllegalActionError):
        state.action_to_string(33)
    for card in (4, 0, 32):
        state.apply_action(card)
    assert obj_of(state)["royal_cards"] == [4, 0, 32]
    assert state.is_chance_node() and obj_of(state)["step"] == "flip"
    weights = dict(state.chance_weights())
    assert sum(weights.values()) == 63
    assert state.action_to_string(5 * 6 + 2) == "reveal floor 7 gold"
    assert state.action_to_string(5 * 17 + 4) == "reveal Ji-Ji wild"
    assert state.string_to_action("reveal QUEEN glass") == 5 * 11 + 3
    assert state.string_to_action("dragon beans") == 5 * 14 + 1
    assert state.action_to_string(99) == "reveal Mab wild"
    with pytest.raises(IllegalActionError):
        state.action_to_string(100)
    with pytest.raises(InvalidNotationError):
        state.string_to_action("pick 1")


# --------------------------------------------------------------------------------------------------------
# Hidden picks: no leak, information states, resampling (§4, §9)
# --------------------------------------------------------------------------------------------------------


def views(state, seat: int) -> tuple:
    return (
        state.observation_tensor(seat).tobytes(),
        state.observation_string(seat),
        state.information_state_string(seat),
    )


def picking_position(players: int = 3, seed: int = 2):
    """A state in the pick step after seats 0 and 1 have picked (seat 2 to pick)."""
    game = oracle.make(GAME, players=players)
    for state in builder_game(game, seed):
        if state.step == "pick" and state.seat == 2:
            return game, state
    raise AssertionError("no such position")


def with_pick(game, state, seat: int, slot: int):
    obj = obj_of(state)
    made = obj["seat"]
    obj["seats"][seat]["pick"] = slot
    obj["history"][len(obj["history"]) - made + seat] = slot
    return game.deserialize_state(json.dumps(obj))


def test_hidden_picks_do_not_leak():
    """Two states differing only in seat 0's hidden pick look the same to seats 1 and 2 (DESIGN: no
    leak)."""
    game, state = picking_position()
    a, b = with_pick(game, state, 0, 0), with_pick(game, state, 0, 2)
    assert a.serialize() != b.serialize()
    for seat in (1, 2):
        assert views(a, seat) == views(b, seat)
    assert views(a, 0) != views(b, 0)  # seat 0 knows its own pick
    # Once every seat has picked, the picks are public.
    a.apply_action(0)
    b.apply_action(0)
    assert views(a, 1) != views(b, 1)


def test_information_state_masks_other_picks():
    game, state = picking_position()
    history = state.history()
    assert state.information_state_string(2) == "seat=2 history=" + ",".join(map(str, history[:-2])) + ",?,?"
    assert state.information_state_string(0).endswith(f",{history[-2]},?")
    assert state.information_state_string(1).endswith(f",?,{history[-1]}")


def test_resample_draws_the_hidden_picks_uniformly_in_seat_order():
    game, state = picking_position()
    rng, check = Rng(77), Rng(77)
    twin = state.resample_from_infostate(2, rng)
    expected = [check.below(3), check.below(3)]
    assert [obj_of(twin)["seats"][s]["pick"] for s in (0, 1)] == expected
    assert twin.history()[-2:] == expected
    assert views(twin, 2) == views(state, 2)
    # Seat 0's own pick stays; only seat 1's is drawn.
    rng, check = Rng(5), Rng(5)
    twin = state.resample_from_infostate(0, rng)
    assert obj_of(twin)["seats"][0]["pick"] == obj_of(state)["seats"][0]["pick"]
    assert obj_of(twin)["seats"][1]["pick"] == check.below(3)
    # Outside the pick step, a clone; the generator is not used.
    game = oracle.make(GAME)
    other = a_decision_state(game, "sketch")
    rng = Rng(9)
    assert other.resample_from_infostate(1, rng).serialize() == other.serialize()
    assert rng.state == Rng(9).state


def test_bad_seats():
    state = oracle.make(GAME).new_initial_state()
    for bad in (-1, 2, True, "0", None):
        for method in (state.observation_tensor, state.observation_string, state.information_state_string):
            with pytest.raises(InvalidStateError):
                method(bad)
        with pytest.raises(InvalidStateError):
            state.resample_from_infostate(bad, Rng(0))


# --------------------------------------------------------------------------------------------------------
# Observations (§9.1)
# --------------------------------------------------------------------------------------------------------


def test_observation_layout_spot_checks():
    game = oracle.make(GAME, players=2)
    state = a_decision_state(game, "sketch", seed=6)
    obj = obj_of(state)
    for observer in (0, 1):
        tensor = state.observation_tensor(observer)
        assert tensor.dtype == np.float32 and np.all(np.isfinite(tensor))
        per_seat = 14 * 70 + 16 + 19
        for offset in range(2):
            seat = (observer + offset) % 2
            base = offset * per_seat
            grid = obj["seats"][seat]["grid"]
            for cell in range(70):
                token = grid[cell // 7][cell % 7]
                assert tensor[base + 14 * cell] == float(token.startswith("F"))
            stalls = [x for fills in obj["seats"][seat]["stalls"] for x in fills]
            assert list(tensor[base + 980 : base + 996]) == stalls
            assert tensor[base + 1006] == obj["seats"][seat]["crest"]
        glob = 2 * per_seat
        display = obj["display"]
        for slot, kind in enumerate(display):
            assert tensor[glob + 25 * slot + kind // 5] == 1.0
            assert tensor[glob + 25 * slot + 20 + kind % 5] == 1.0
        assert list(tensor[glob + 75 : glob + 175]) == obj["deck"]
        steps = glob + 175 + 99 + 5
        assert list(tensor[steps : steps + 6]) == [0, 0, 0, 0, 1, 0]  # sketch
        current = steps + 6 + 2
        assert tensor[current + (state.current_player() - observer) % 2] == 1.0


def test_terminal_state():
    state = oracle.play_random(oracle.make(GAME), 3)
    assert state.current_player() == TERMINAL
    assert state.legal_actions() == []
    assert state.legal_actions_mask().sum() == 0
    assert abs(sum(state.returns()) - 1.0) < 1e-9
    totals = [sum(s["round_scores"]) for s in obj_of(state)["seats"]]
    assert state.scores() == [float(t) for t in totals]
