"""The pure-Python Viticulture oracle (meeplex.oracle.viticulture) on its own, against the contract
docs/rules/viticulture.md (§ numbers refer to it; §15 is binding): whole random games, the snapshot-and-turn
serialization, clones, refusals, and a few rules of the rulebook checked on hand-made positions."""

from __future__ import annotations

import json

import pytest

import meeplex.oracle as oracle
from meeplex.errors import IllegalActionError, InvalidNotationError, InvalidStateError
from meeplex.oracle import Rng, random_step
from meeplex.oracle import viticulture as vit
from meeplex.testing import check_state


def make(**params: object) -> vit.ViticultureGame:
    game = oracle.make("viticulture", **params)
    assert isinstance(game, vit.ViticultureGame)
    return game


def play_until(state: vit.ViticultureState, rng: Rng, stop: object) -> None:
    while not state.is_terminal() and not stop(state):  # type: ignore[operator]
        random_step(state, rng)


def summer_turn(players: int = 2, seed: int = 0) -> tuple[vit.ViticultureGame, dict]:
    """A state at a summer turn unit (a snapshot point), as JSON."""
    game = make(players=players)
    state = game.new_initial_state()
    play_until(state, Rng(seed), lambda s: s.T["phase"] == "summer" and not s.turn)
    return game, json.loads(state.serialize())


def load(game: vit.ViticultureGame, obj: dict) -> vit.ViticultureState:
    obj = dict(obj)
    obj["history"], obj["seen"], obj["turn"] = [], [], []
    return game.deserialize_state(json.dumps(obj))


def move_from_deck(obj: dict, seat: int, kind: int) -> None:
    deck = vit.kind_deck(kind)
    table = obj["state"]
    if table["decks"][deck][kind] == 0:
        pile = table["discards"][deck]
        pile.remove(kind)
    else:
        table["decks"][deck][kind] -= 1
    table["seats"][seat]["hand"][kind] += 1


def test_game_sizes() -> None:
    game = make()
    assert game.num_distinct_actions() == 946
    assert game.max_chance_outcomes() == 163
    assert game.observation_shape() == (3002,)
    assert game.max_game_length() == 20 * (1700 * 2 + 150) + 30
    assert str(game).startswith("viticulture(")
    with pytest.raises(InvalidStateError):
        make(players=7)
    with pytest.raises(InvalidStateError):
        make(queen="maybe")


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_end(players: int) -> None:
    game = make(players=players)
    for seed in range(2 if players <= 3 else 1):
        state = game.new_initial_state()
        rng = Rng(seed)
        steps = 0
        while not state.is_terminal():
            random_step(state, rng)
            steps += 1
            if state.T["phase"] == "spring" and not any(state.T["rows"]):
                assert all(sum(s["hand"]) <= 7 for s in state.T["seats"])  # §6.5 hand limit 7
        assert steps <= game.max_game_length()
        assert state.current_player() == vit.TERMINAL
        returns = state.returns()
        assert abs(sum(returns) - 1.0) < 1e-9
        assert state.observation_tensor(0).shape == (3002,)


def test_round_trip_and_clone_every_step() -> None:
    game = make(players=3)
    state = game.new_initial_state()
    rng = Rng(5)
    step = 0
    while not state.is_terminal() and step < 300:
        text = state.serialize()
        again = game.deserialize_state(text)
        assert again.serialize() == text
        assert again.legal_actions() == state.legal_actions()
        if step % 5 == 0:
            twin = state.clone()
            assert twin.serialize() == text
            if not twin.is_terminal():
                random_step(twin, Rng(step))
                assert state.serialize() == text  # the clone is independent
        random_step(state, rng)
        step += 1


def test_conformance_sample() -> None:
    game = make()
    state = game.new_initial_state()
    rng = Rng(3)
    step = 0
    while not state.is_terminal():
        if step % 40 == 0:
            check_state(state, game, seed=step)
        random_step(state, rng)
        step += 1
    check_state(state, game)


def test_illegal_ids_leave_the_state_unchanged() -> None:
    game = make()
    state = game.new_initial_state()
    rng = Rng(1)
    for _ in range(200):
        before = state.serialize()
        legal = set(state.legal_actions())
        for bad in (-1, 946, 5000, "x", None, next(a for a in range(946) if a not in legal)):
            with pytest.raises(IllegalActionError):
                state.apply_action(bad)
            assert state.serialize() == before
        random_step(state, rng)


def test_notation_round_trip() -> None:
    game = make()
    state = game.new_initial_state()
    rng = Rng(2)
    for _ in range(300):
        for a in state.legal_actions():
            text = state.action_to_string(a)
            assert state.string_to_action("  " + text.upper().replace(" ", "   ")) == a
        random_step(state, rng)
    with pytest.raises(InvalidNotationError):
        state.string_to_action("plant nothing")


def test_refusals() -> None:
    game, obj = summer_turn()
    good = json.dumps(obj)
    assert json.loads(game.deserialize_state(good).serialize()) == obj
    cases = []
    extra = json.loads(good)
    extra["state"]["extra"] = 1
    cases.append(extra)
    missing = json.loads(good)
    del missing["state"]["seats"][0]["vp"]
    cases.append(missing)
    low = json.loads(good)
    low["state"]["seats"][0]["vp"] = -6
    cases.append(low)
    count = json.loads(good)
    count["state"]["seats"][0]["hand"][0] += 1
    cases.append(count)
    rows = json.loads(good)
    rows["state"]["rows"] = [3, 3]
    cases.append(rows)
    suffix = json.loads(good)
    suffix["turn"] = [109]
    cases.append(suffix)
    seen = json.loads(good)
    seen["seen"] = seen["seen"][:-1]
    cases.append(seen)
    workers = json.loads(good)
    workers["state"]["seats"][0]["regular"] = 6
    cases.append(workers)
    for case in cases:
        with pytest.raises(InvalidStateError):
            game.deserialize_state(json.dumps(case))
    with pytest.raises(InvalidStateError):
        game.deserialize_state("{not json")


def test_planting_limit() -> None:
    """PAGE: planting "can't cause the total value of all vines to exceed the maximum value of the field"."""
    game, obj = summer_turn()
    s = obj["state"]["turn_seat"]
    seat = obj["state"]["seats"][s]
    seat["structures"][vit.TRELLIS] = seat["structures"][vit.IRRIGATION] = True
    move_from_deck(obj, s, 7)  # cabernet sauvignon, value 4
    seat["fields"][0]["vines"][7] = 1  # the 5 field already holds a cabernet (value 4)
    obj["state"]["decks"][vit.VINE_DECK][7] -= 1
    state = load(game, obj)
    ids = state._plant_ids(s)
    assert vit.PLANT + 3 * 7 + 0 not in ids  # 4 + 4 > 5
    assert vit.PLANT + 3 * 7 + 1 in ids and vit.PLANT + 3 * 7 + 2 in ids


def test_harvest_collision_goes_lower() -> None:
    """RB: the token goes "on the 3-value white icon … (if it's empty; otherwise to the 2-value icon,
    etc)"."""
    game, obj = summer_turn()
    seat = obj["state"]["seats"][0]
    seat["fields"][0]["vines"][4] = 1  # trebbiano: white 2
    obj["state"]["decks"][vit.VINE_DECK][4] -= 1
    seat["crush"]["white"][1] = True  # w2 taken
    state = load(game, obj)
    state._harvest(0, vit.HARVEST + 0)
    assert state.T["seats"][0]["crush"]["white"][:2] == [True, True]
    state.T["seats"][0]["fields"][0]["harvested"] = False
    state._harvest(0, vit.HARVEST + 0)  # w2 and w1 full: lost
    assert sum(state.T["seats"][0]["crush"]["white"]) == 2


def test_wine_caps_blush_sparkling() -> None:
    """§9.3: lowered to the cellar's top; blush needs the medium cellar and >= 4, sparkling the large and
    >= 7."""
    game, obj = summer_turn()
    seat = obj["state"]["seats"][0]
    seat["crush"]["red"][7] = True  # r8
    seat["crush"]["red"][0] = True  # r1
    seat["crush"]["white"][1] = True  # w2
    state = load(game, obj)
    options = state._make_options(0)
    assert options[vit.MAKE_R + 7][1] == 3  # small cellar: 8 -> 3
    assert not any(a >= vit.MAKE_B for a in options)  # no medium cellar: no blush
    state.T["seats"][0]["structures"][vit.MEDIUM] = True
    options = state._make_options(0)
    assert vit.MAKE_B + 9 * 0 + 1 not in options  # r1 + w2 = 3 < 4
    assert options[vit.MAKE_B + 9 * 7 + 1][1] == 6  # r8 + w2 = 10 -> 6
    state.T["seats"][0]["structures"][vit.LARGE] = True
    options = state._make_options(0)
    pair = vit.SPARKLING_PAIRS.index((8, 1))
    assert options[vit.MAKE_S + 9 * pair + 1][1] == 9
    assert options[vit.MAKE_R + 7][1] == 8


def test_year_end_aging() -> None:
    """RB: wine ages past 3 only with the medium cellar; tokens never above 9; blocked tokens stay."""
    game, obj = summer_turn()
    seat = obj["state"]["seats"][0]
    seat["cellar"]["red"][2] = True  # r3, small cellar: stays
    seat["cellar"]["white"][0] = seat["cellar"]["white"][1] = True  # w1 w2 -> w2 w3
    seat["crush"]["red"][8] = True  # r9 grape stays 9
    state = load(game, obj)
    state._age_wines(0)
    cellar = state.T["seats"][0]["cellar"]
    assert cellar["red"][2] and not cellar["red"][3]
    assert cellar["white"][:3] == [False, True, True]
    state._age_tokens(state.T["seats"][0]["crush"]["red"], lambda v: 9)
    assert state.T["seats"][0]["crush"]["red"][8]


def test_end_trigger_and_tie_break() -> None:
    """RB: reaching 20 VP ends the game at the end of the year; ties go to the most lira."""
    game, obj = summer_turn()
    obj["state"]["seats"][0]["vp"] = 20
    obj["state"]["end_flag"] = True
    state = load(game, obj)
    year = state.T["year"]
    play_until(state, Rng(9), lambda s: s.T["phase"] == "spring")
    assert state.is_terminal() and state.T["year"] == year
    final = json.loads(state.serialize())
    final["state"]["seats"][0]["vp"] = final["state"]["seats"][1]["vp"] = 20
    final["state"]["seats"][0]["lira"], final["state"]["seats"][1]["lira"] = 3, 5
    tied = load(game, final)
    assert tied.returns() == [0.0, 1.0]


def test_resample_keeps_own_view() -> None:
    game = make(players=3)
    state = game.new_initial_state()
    play_until(state, Rng(4), lambda s: s.T["phase"] == "fall")
    twin = state.resample_from_infostate(0, Rng(1))
    assert twin.T["seats"][0]["hand"] == state.T["seats"][0]["hand"]
    for q in range(3):
        hand, other = state.T["seats"][q]["hand"], twin.T["seats"][q]["hand"]
        for d in range(4):
            kinds = [k for k in range(121) if vit.kind_deck(k) == d]
            assert sum(hand[k] for k in kinds) == sum(other[k] for k in kinds)
    assert twin.observation_tensor(0).tolist() == state.observation_tensor(0).tolist()


@pytest.mark.parametrize("players", [2, 3])
def test_bonus_spaces_by_player_count(players: int) -> None:
    """RB: "In the 2-player game, only the left action space is available; for the 3 – 4 player game the left
    and middle action spaces are available"."""
    game, obj = summer_turn(players=players)
    state = load(game, obj)
    texts = [state.action_to_string(a) for a in state.legal_actions()]
    assert "place tour plain r" in texts and "place lira r" in texts and "pass" in texts
    assert ("place tour bonus r" in texts) == (players == 3)
    assert not any(text.endswith("over g") for text in texts)  # nothing is full yet


def test_temporary_worker_on_row_7() -> None:
    """§6.1 row 7: "Gain the temporary worker for the year"; it is placed as a regular worker (§6.2)."""
    game, obj = summer_turn()
    table = obj["state"]
    s = table["turn_seat"]
    other = 1 - s
    table["rows"][s], table["rows"][other] = 7, 1
    table["temp"] = s
    table["turn_seat"] = other  # row 1 moves first
    state = load(game, obj)
    assert state._workers_left(s) == (3, True)
    assert state._workers_left(other) == (2, True)
