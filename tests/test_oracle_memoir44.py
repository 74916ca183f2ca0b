"""Tests of the pure-Python Memoir '44 oracle (meeplex.oracle.memoir44), the game of docs/rules/memoir44.md
§6.

Positions are built as serialized states edited from an initial state and read back with
``deserialize_state``, so every position a test starts from has also passed the deserializer's checks. Most
rule tests play on a small home-made scenario passed as ``b64_`` data (open ground unless the test lays
terrain); seat 0 is the bottom side (the Allies, retreating toward row 8), seat 1 the top side (the Axis).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import meeplex.oracle as oracle
from meeplex.errors import IllegalActionError, InvalidNotationError, InvalidStateError
from meeplex.games import memoir44 as m
from meeplex.oracle import CHANCE, Rng
from meeplex.oracle._datafile import encode_data_file
from meeplex.oracle.memoir44 import Hex, Memoir44Game, Memoir44State

INF, ARMOR, GRENADE, STAR, FLAG = range(5)
K = m.CARD_IDS


def hexagon(row: int, col: int, **fields: object) -> dict[str, object]:
    out: dict[str, object] = {"row": row, "col": col}
    for key, value in fields.items():
        out[key] = {"name": value} if key in ("terrain", "obstacle", "unit", "rect_terrain") else value
    return out


def custom(hexes: list[dict[str, object]] | None = None, **info: object) -> Memoir44Game:
    """A home-made scenario: the given hexes plus one unit a side in the far corners."""
    game_info: dict[str, object] = {
        "starting": "PLAYER2",
        "side_player1": "AXIS",
        "side_player2": "ALLIES",
        "cards_player1": 4,
        "cards_player2": 4,
        "victory_player1": 4,
        "victory_player2": 4,
    }
    game_info.update(info)
    cells = [hexagon(0, 0, unit="infger"), hexagon(8, 24, unit="infus")] + list(hexes or [])
    text = json.dumps(
        {"game_info": game_info, "board": {"type": "STANDARD", "face": "COUNTRY", "hexagons": cells}}
    )
    game = oracle.make("memoir44", scenario=encode_data_file(text))
    assert isinstance(game, Memoir44Game)
    return game


def U(
    where: str, seat: int, kind: str = "infantry", figures: int | None = None, **flags: object
) -> dict[str, object]:
    special = bool(flags.pop("special", False))
    start = {"infantry": 4, "armor": 4 if special else 3, "artillery": 2}[kind]
    out: dict[str, object] = {
        "hex": where,
        "seat": seat,
        "kind": kind,
        "special": special,
        "figures": start if figures is None else figures,
        "start": start,
        "ordered": False,
        "moved": 0,
        "battles": 0,
        "no_battle": False,
        "overrun": False,
    }
    out.update(flags)
    return out


def _index(where: str) -> int:
    r, c = (int(x) for x in where.split(","))
    return m.hex_index(r, c)


def position(
    game: Memoir44Game,
    units: list[dict[str, object]],
    hand0: dict[str, int] | None = None,
    hand1: dict[str, int] | None = None,
    **fields: object,
) -> Memoir44State:
    """A play-phase state of ``game`` (seat 0 active in its turn 1 unless ``fields`` say otherwise) with these
    units and hands; the deck takes every other card."""
    obj = json.loads(game.new_initial_state().serialize())
    obj.update({"phase": "play", "active": 0, "turns": [1, 0], "wire": [], "sandbags": []})
    obj["units"] = sorted(units, key=lambda u: _index(str(u["hex"])))
    hands = [[0] * 30, [0] * 30]
    for seat, given in ((0, hand0 or {"probe_center": 1}), (1, hand1 or {"probe_center": 1})):
        for key, n in given.items():
            hands[seat][K[key]] = n
    obj["hands"] = hands
    obj.update(fields)
    deck = list(m.CARD_COUNTS)
    for k in range(30):
        deck[k] -= obj["hands"][0][k] + obj["hands"][1][k] + obj["discard"][k] + obj["recon"].count(k)
        deck[k] -= int(obj["played"] == k) + int(obj["ambush"] is not None and k == K["ambush"])
    obj["deck"] = deck
    return game.deserialize_state(json.dumps(obj, separators=(",", ":")))


def act(state: Memoir44State, *texts: str) -> None:
    for text in texts:
        state.apply_action(state.string_to_action(text))


def legal_texts(state: Memoir44State) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def roll(state: Memoir44State, *faces: int) -> None:
    """Roll these faces; an Ambush window on the way (open whenever Ambush is out, interpretation 8) is
    passed."""
    if state.phase == "ambush":
        act(state, "pass")
    for face in faces:
        assert state.phase in ("dice", "roll"), state.phase
        state.apply_action(face)


def to_set(state: Memoir44State) -> set[str]:
    return {t[3:] for t in legal_texts(state) if t.startswith("to ")}


# ---------------------------------------------------------------------------------------------------------
# Parameters, setup, ids
# ---------------------------------------------------------------------------------------------------------


def test_parameters_and_sizes():
    game = oracle.make("memoir44")
    assert str(game) == "memoir44(scenario=pegasus_bridge,turn_limit=80)"
    assert game.num_distinct_actions() == 409 and game.max_chance_outcomes() == 30
    assert game.max_game_length() == 6 + 2 + 80 * (40 + 80 * 15)
    assert game.observation_shape() == (3430,)
    for bad in ({"turn_limit": 0}, {"turn_limit": True}, {"scenario": "nowhere"}, {"players": 2}):
        with pytest.raises(InvalidStateError):
            oracle.make("memoir44", **bad)


def test_scenario_refusals():
    with pytest.raises(InvalidStateError, match="bunker"):
        custom([hexagon(4, 4, obstacle="bunker")])
    with pytest.raises(InvalidStateError, match="tag"):
        custom([hexagon(4, 4, tags=[{"name": "medal3"}])])
    text = json.dumps(
        {
            "game_info": {
                "starting": "PLAYER2",
                "side_player1": "AXIS",
                "side_player2": "ALLIES",
                "cards_player1": 4,
                "cards_player2": 4,
                "victory_player1": 4,
                "victory_player2": 4,
            },
            "board": {"type": "STANDARD", "face": "COUNTRY", "hexagons": [hexagon(0, 0, unit="infger")]},
        }
    )
    with pytest.raises(InvalidStateError, match="no unit"):
        oracle.make("memoir44", scenario=encode_data_file(text))


def test_deal_then_first_turn():
    """§6.1: seat 0's whole hand first (6 Allied cards), then seat 1's (2), then seat 0's turn 1."""
    state = oracle.make("memoir44").new_initial_state()
    assert state.phase == "deal" and state.current_player() == CHANCE
    assert dict(state.chance_weights()) == dict(enumerate(m.CARD_COUNTS))
    assert (
        state.action_to_string(0) == "draw recon_left"
        and state.string_to_action(" draw  ambush ") == K["ambush"]
    )
    for key in ("probe_center",) * 5 + ("probe_left",):
        state.apply_action(K[key])
    assert sum(state.hands[0]) == 6 and sum(state.hands[1]) == 0
    state.apply_action(K["attack_left"])
    state.apply_action(K["ambush"])
    assert state.phase == "play" and state.active == 0 and state.turns == [1, 0]
    assert state.hands[1][K["ambush"]] == 1


def test_notation_round_trip_and_refusals():
    state = oracle.make("memoir44").new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    for a in range(409):
        text = state.action_to_string(a)
        assert state.string_to_action(text) == a
    assert state.action_to_string(33) == "order 0,0" and state.action_to_string(146) == "done"
    assert state.action_to_string(260 + 112) == "to 8,24" and state.action_to_string(408) == "clear"
    for bad in ("order 0,1", "play nothing", "die flag", "", "to 9,0"):
        with pytest.raises(InvalidNotationError):
            state.string_to_action(bad)
    with pytest.raises(IllegalActionError):
        state.action_to_string(409)


# ---------------------------------------------------------------------------------------------------------
# Cards and orders (§6.3, §6.4 steps 1-3)
# ---------------------------------------------------------------------------------------------------------


def test_ambush_playable_only_when_alone():
    game = custom()
    state = position(game, [U("8,24", 0), U("0,0", 1)], hand0={"ambush": 1, "probe_left": 1})
    assert legal_texts(state) == ["play probe_left"]
    state = position(game, [U("8,24", 0), U("0,0", 1)], hand0={"ambush": 1})
    assert legal_texts(state) == ["play ambush"]
    act(state, "play ambush")  # it does nothing: the turn goes to its end
    assert state.phase == "draw" and state.card == K["ambush"]
    state.apply_action(state.legal_actions()[0])
    assert state.phase == "play" and state.last[0] == (K["ambush"], None) and state.discard[K["ambush"]] == 1


def test_section_limits_and_straddling():
    """Probe Left: up to 2 units of the left section, cols 0..7; col 7 also belongs to the centre."""
    game = custom()
    units = [U("8,0", 0), U("7,5", 0), U("7,7", 0), U("6,8", 0), U("0,0", 1)]
    state = position(game, units, hand0={"probe_left": 1})
    act(state, "play probe_left")
    assert legal_texts(state) == ["order 7,5", "order 7,7", "order 8,0", "done"]
    act(state, "order 7,7", "order 8,0")
    assert state.phase == "move"  # the limit is reached: done was alone and applied
    # Seat 1's left is seat 0's right (cols 17..24 in seat 0's view).
    state = position(
        game, [U("8,24", 0), U("1,1", 1), U("1,23", 1)], hand1={"probe_left": 1}, active=1, turns=[1, 1]
    )
    act(state, "play probe_left")
    assert legal_texts(state) == ["order 1,23", "done"]


def test_per_section_assignment():
    """Pincer Move 2/0/2: a unit on col 7 may use a left order; a centre-only unit never."""
    game = custom()
    units = [U("8,2", 0), U("8,4", 0), U("7,7", 0), U("8,12", 0), U("8,20", 0), U("0,0", 1)]
    state = position(game, units, hand0={"pincer_move": 1})
    act(state, "play pincer_move")
    assert "order 8,12" not in legal_texts(state) and "order 7,7" in legal_texts(state)
    act(state, "order 8,2", "order 8,4")
    assert "order 7,7" not in legal_texts(state)  # both left orders used; its centre has none


def test_fallback_move_out_without_infantry():
    game = custom()
    state = position(
        game, [U("8,2", 0, "armor"), U("8,4", 0, "artillery"), U("0,0", 1)], hand0={"move_out": 1}
    )
    act(state, "play move_out")
    assert state.fallback
    act(state, "order 8,2")
    assert state.phase == "move"


def test_infantry_assault_sections_and_counter_attack_mirror():
    game = custom()
    units = [U("8,2", 0), U("8,20", 0, "armor"), U("0,0", 1), U("0,22", 1)]
    state = position(game, units, hand0={"infantry_assault": 1})
    act(state, "play infantry_assault")
    assert legal_texts(state) == ["section left"]
    act(state, "section left", "order 8,2")
    assert state.phase == "move"
    act(state, "done")  # no move; no target, so the battle's lone done is automatic
    while state.phase == "draw":
        state.apply_action(state.legal_actions()[0])
    assert state.last[0] == (K["infantry_assault"], 0)
    assert state.active == 1 and state.phase == "play"
    # Seat 1 counter-attacks: Infantry Assault in section 2 - 0 = right, its own right (seat 0's left).
    state.hands[1] = [0] * 30
    state.hands[1][K["counter_attack"]] = 1
    state.deck[K["counter_attack"]] -= 1
    state.deck[K["probe_center"]] += 1
    act(state, "play counter_attack")
    assert state.card == K["infantry_assault"] and state.section == 2 and state.phase == "order"
    assert legal_texts(state) == ["order 0,0", "done"]


def test_counter_attack_mirrors_flank_cards():
    game = custom()
    state = position(
        game, [U("8,20", 0), U("0,0", 1)], hand0={"counter_attack": 1}, last=[None, [K["probe_left"], None]]
    )
    act(state, "play counter_attack")
    assert state.card == K["probe_right"] and legal_texts(state) == ["order 8,20", "done"]
    state = position(game, [U("8,20", 0), U("0,0", 1)], hand0={"counter_attack": 1})
    act(state, "play counter_attack")
    assert state.card is None and state.phase == "draw"


def test_close_assault_and_firefight_orders():
    game = custom()
    units = [U("5,5", 0), U("8,2", 0), U("8,4", 0, "artillery"), U("4,4", 1), U("0,0", 1)]
    state = position(game, units, hand0={"close_assault": 1})
    act(state, "play close_assault")
    assert legal_texts(state) == ["order 5,5", "done"]
    state = position(game, units, hand0={"firefight": 1})
    act(state, "play firefight")
    assert legal_texts(state) == ["order 8,2", "order 8,4", "done"]


def test_finest_hour_limit_and_reshuffle():
    game = custom()
    units = [U("8,2", 0), U("8,4", 0), U("8,6", 0, "armor"), U("0,0", 1)]
    state = position(game, units, hand0={"their_finest_hour": 1, "probe_left": 1}, discard=[1] + [0] * 29)
    act(state, "play their_finest_hour")
    assert state.phase == "roll" and state.roll == (2, [0] * 5)  # hand of 1 after playing, + 1
    roll(state, INF, STAR)
    assert state.phase == "order"
    act(state, "order 8,2", "order 8,4")  # one by the infantry face, one by the star
    assert state.phase == "move"  # the armor has no face left: done was alone
    act(state, "done")
    assert state.phase == "draw" and sum(state.discard) == 0 and sum(state.deck) == 60 - 1 - 1


def test_dig_in_places_sandbags():
    game = custom()
    state = position(game, [U("8,2", 0), U("8,4", 0), U("0,0", 1)], hand0={"dig_in": 1})
    act(state, "play dig_in", "order 8,2", "done")
    assert state.sandbags == {(8, 2)} and state.phase == "draw"


def test_medics_heal_and_order():
    game = custom()
    state = position(
        game, [U("8,2", 0, figures=1), U("0,0", 1)], hand0={"medics_and_mechanics": 1, "probe_left": 2}
    )
    act(state, "play medics_and_mechanics")
    assert legal_texts(state) == ["order 8,2"]
    act(state, "order 8,2")
    assert state.roll == (3, [0] * 5)
    roll(state, INF, STAR, ARMOR)
    assert state.units[(8, 2)].figures == 3 and state.units[(8, 2)].ordered and state.phase == "move"


# ---------------------------------------------------------------------------------------------------------
# Movement (§6.2, §6.4 step 4)
# ---------------------------------------------------------------------------------------------------------


def test_reach_terrain():
    game = custom(
        [
            hexagon(6, 6, terrain="woods"),
            hexagon(7, 7, terrain="river"),
            hexagon(7, 3, terrain="hedgerow"),
            hexagon(6, 2, terrain="hedgerow"),
        ]
    )
    state = position(game, [U("8,4", 0), U("0,0", 1)], hand0={"probe_left": 1})
    act(state, "play probe_left", "order 8,4", "unit 8,4")
    reach = to_set(state)
    assert "7,7" not in reach  # river
    assert "6,6" in reach and "5,7" not in reach  # the forest stops; 5,7 is three steps otherwise
    assert "7,3" in reach and "6,2" not in reach  # a hedgerow as the first step only, and never left again
    assert "6,4" in reach and "8,8" in reach and "8,0" in reach
    act(state, "to 6,6")
    assert state.units[(6, 6)].no_battle and state.units[(6, 6)].moved == 2


def test_wire_stops_and_armor_removes_it():
    game = custom()
    state = position(game, [U("8,4", 0, "armor"), U("0,0", 1)], hand0={"probe_left": 1}, wire=["7,5"])
    act(state, "play probe_left", "order 8,4", "unit 8,4")
    assert "6,6" in to_set(state) and "6,4" in to_set(state)
    act(state, "to 7,5")
    assert state.wire == set() and state.units[(7, 5)].moved == 1


def test_sandbags_leave_with_their_unit():
    game = custom()
    state = position(game, [U("8,4", 0), U("0,0", 1)], hand0={"probe_left": 1}, sandbags=["8,4"])
    act(state, "play probe_left", "order 8,4", "unit 8,4", "to 7,5")
    assert state.sandbags == set()


def test_temporary_medal_ends_the_game():
    game = custom([hexagon(7, 5, tags=[{"name": "medal1"}])], victory_player2=1)
    state = position(game, [U("8,4", 0), U("0,0", 1)], hand0={"probe_left": 1})
    act(state, "play probe_left", "order 8,4", "unit 8,4", "to 7,5")
    assert state.phase == "over" and state.winner == 0 and state.returns() == [1.0, 0.0]
    assert state.scores() == [1.0, 0.0] and state.card == K["probe_left"]  # only phase and winner change


# ---------------------------------------------------------------------------------------------------------
# Battle (§6.2, §6.4 step 5)
# ---------------------------------------------------------------------------------------------------------


def battle_state(game: Memoir44State | Memoir44Game, units, **fields) -> Memoir44State:
    assert isinstance(game, Memoir44Game)
    state = position(game, units, hand0={"assault_left": 1}, **fields)
    act(state, "play assault_left")
    for h in [u["hex"] for u in units if u["seat"] == 0]:
        if f"order {h}" in legal_texts(state):
            act(state, f"order {h}")
    if state.phase == "order":
        act(state, "done")
    if state.phase == "move":
        act(state, "done")
    return state


def test_dice_by_range_and_protection():
    game = custom([hexagon(4, 6, terrain="woods")])
    state = battle_state(game, [U("6,6", 0), U("4,6", 1), U("0,0", 1)])
    assert state._dice(Hex(6, 6), Hex(4, 6), False) == 1  # range 2: 2 dice, forest -1
    state = battle_state(game, [U("6,6", 0, "armor"), U("4,6", 1), U("0,0", 1)])
    assert state._dice(Hex(6, 6), Hex(4, 6), False) == 1  # armor 3, forest -2
    state = battle_state(game, [U("6,6", 0, "artillery"), U("4,6", 1), U("0,0", 1)])
    assert state._dice(Hex(6, 6), Hex(4, 6), False) == 3


def test_adjacent_enemy_forces_close_combat_and_los():
    game = custom([hexagon(5, 5, terrain="woods")])
    state = battle_state(game, [U("6,4", 0), U("5,3", 1), U("4,4", 1), U("0,0", 1)])
    act(state, "unit 6,4")
    assert to_set(state) == {"5,3"}
    state = battle_state(game, [U("6,4", 0), U("4,6", 1), U("4,2", 1), U("0,0", 1)])
    act(state, "unit 6,4")
    assert to_set(state) == {"4,2"}  # 4,6 is behind the forest on 5,5


def test_moved_two_no_battle():
    game = custom()
    state = position(game, [U("8,4", 0), U("4,4", 1), U("0,0", 1)], hand0={"probe_left": 1})
    act(state, "play probe_left", "order 8,4", "unit 8,4", "to 6,4")
    assert state.phase == "draw"  # moved 2: no battle; move and battle had lone dones


def test_hits_retreat_and_elimination():
    game = custom()
    state = battle_state(game, [U("6,4", 0), U("5,5", 1), U("0,0", 1)])
    act(state, "unit 6,4", "to 5,5")
    assert state.phase == "ambush" and state.battle is not None and state.battle.dice == 3
    roll(state, INF, FLAG, FLAG)
    assert state.phase == "retreat" and state.current_player() == 1
    assert to_set(state) == {"4,4", "4,6"}
    act(state, "to 4,6")
    act(state, "to 3,5")
    assert state.units[(3, 5)].figures == 3 and state.phase == "advance"
    act(state, "advance")
    assert (5, 5) in state.units and state.units[(5, 5)].moved == 0 and state.phase == "draw"
    # Elimination by hits: a medal to the attacker.
    state = battle_state(game, [U("6,4", 0), U("5,5", 1, figures=1), U("0,0", 1)])
    act(state, "unit 6,4", "to 5,5")
    roll(state, GRENADE, STAR, STAR)
    assert state.medals == [1, 0] and (5, 5) not in state.units and state.phase == "advance"


def test_no_retreat_loses_a_figure():
    game = custom([hexagon(0, 4, terrain="river")])
    state = battle_state(game, [U("2,4", 0), U("1,3", 1), U("0,2", 1), U("0,0", 1)])
    act(state, "unit 2,4", "to 1,3")
    roll(state, STAR, STAR, FLAG)
    assert state.units[(1, 3)].figures == 3  # 0,2 full, 0,4 a river: a figure instead of the retreat
    assert state.phase == "draw"  # the hex was not left: no take ground


def test_sandbags_ignore_one_flag():
    game = custom()
    state = battle_state(game, [U("6,4", 0), U("5,5", 1), U("0,0", 1)], sandbags=["5,5"])
    act(state, "unit 6,4", "to 5,5")
    assert state.battle.dice == 2
    roll(state, FLAG, STAR)
    assert state.phase == "ignore" and legal_texts(state) == ["ignore", "take"]
    act(state, "ignore")
    assert state.phase == "draw" and (5, 5) in state.sandbags


def test_hill_and_plateau():
    hills = [hexagon(4, 4, terrain="hills"), hexagon(4, 6, terrain="hills"), hexagon(4, 8, terrain="hills")]
    game = custom(hills)
    state = battle_state(game, [U("4,4", 0), U("4,8", 1), U("0,0", 1)])
    act(state, "unit 4,4")
    assert to_set(state) == {"4,8"}  # the plateau: 4,6 does not block, and no hill protection (1 die)
    assert state._dice(Hex(4, 4), Hex(4, 8), False) == 2
    state = battle_state(game, [U("4,2", 0), U("4,8", 1), U("0,0", 1)])
    assert state._dice(Hex(4, 2), Hex(4, 8), False) == 0  # out of range anyway
    game = custom([hexagon(4, 6, terrain="hills")])
    state = battle_state(game, [U("4,4", 0), U("4,8", 1), U("0,0", 1)])
    assert state.phase == "draw"  # 4,6 is a lone hill between: blocked


def test_clear_wire():
    game = custom()
    state = battle_state(game, [U("6,4", 0), U("0,0", 1)], wire=["6,4"])
    act(state, "unit 6,4")
    assert legal_texts(state) == ["clear"]
    act(state, "clear")
    assert state.wire == set() and state.phase == "draw"


def test_armor_overrun():
    game = custom()
    state = battle_state(game, [U("6,4", 0, "armor"), U("5,5", 1, figures=1), U("4,6", 1), U("0,0", 1)])
    act(state, "unit 6,4", "to 5,5")
    roll(state, INF, STAR, STAR)
    act(state, "advance")
    assert state.phase == "overrun" and to_set(state) == {"4,6"}
    act(state, "to 4,6")
    assert state.battle.overrun and state.units[(5, 5)].overrun and state.units[(5, 5)].battles == 1
    roll(state, STAR, STAR, STAR)
    assert state.phase == "draw"


def test_ambush_window_and_play():
    game = custom()
    units = [U("6,4", 0), U("5,5", 1), U("0,0", 1)]
    state = position(game, units, hand0={"assault_left": 1}, hand1={"ambush": 1})
    act(state, "play assault_left", "order 6,4", "done", "unit 6,4", "to 5,5")
    assert (
        state.phase == "ambush" and state.current_player() == 1 and legal_texts(state) == ["ambush", "pass"]
    )
    act(state, "ambush")
    assert state.ambush == 1 and state.battle.kind == "ambush" and state.battle.pending is not None
    roll(state, INF, FLAG, STAR)  # one hit, one flag: the attacker falls back
    act(state, "to 7,5")
    assert state.phase == "draw" and state.drawer == 1  # the attack is void; Ambush's draw first
    state.apply_action(state.legal_actions()[0])
    assert state.discard[K["ambush"]] == 1 and sum(state.hands[1]) == 1
    # With Ambush in the discard pile, no window.
    state = position(game, units, hand0={"assault_left": 1}, discard=[0] * 16 + [1] + [0] * 13)
    act(state, "play assault_left", "order 6,4", "done", "unit 6,4", "to 5,5")
    assert state.phase == "dice"


def test_air_power_and_barrage():
    game = custom()
    units = [U("8,4", 0), U("4,4", 1), U("4,6", 1), U("2,20", 1), U("0,0", 1)]
    state = position(game, units, hand0={"air_power": 1})
    act(state, "play air_power", "to 4,4")
    assert to_set(state) == {"4,6"} and "done" in legal_texts(state)
    act(state, "to 4,6")
    assert state.phase == "dice" and state.battle.kind == "air" and state.battle.dice == 2
    assert [str(h) for h in state.targets] == ["Hex(row=4, col=4)", "Hex(row=4, col=6)"]
    roll(state, STAR, GRENADE)
    assert state.units[(4, 4)].figures == 2 and state.battle.target == (4, 6)
    roll(state, STAR, FLAG)
    act(state, "to 3,5")
    assert state.phase == "draw"
    state = position(game, units, hand0={"barrage": 1})
    act(state, "play barrage", "to 2,20")
    roll(state, STAR, STAR, INF, GRENADE)
    assert state.units[(2, 20)].figures == 2


def test_behind_enemy_lines_moves_again():
    game = custom([hexagon(7, 5, terrain="woods")])
    state = position(game, [U("8,4", 0), U("4,4", 1), U("0,0", 1)], hand0={"behind_enemy_lines": 1})
    act(state, "play behind_enemy_lines", "order 8,4", "unit 8,4")
    assert "5,5" in to_set(state)  # through the forest, 3 hexes
    act(state, "to 5,5", "unit 5,5", "to 4,4")
    assert state.battle.dice == 4  # 3 + 1
    roll(state, STAR, STAR, STAR, STAR)
    assert state.phase == "move_again"
    act(state, "to 8,4")
    assert state.phase == "draw" and state.units[(8, 4)].moved == 6


# ---------------------------------------------------------------------------------------------------------
# The end of the turn (§6.9)
# ---------------------------------------------------------------------------------------------------------


def test_recon_keep_and_extra_draws():
    game = custom(extra_draws_player2=[2])
    state = position(game, [U("8,4", 0), U("0,0", 1)], hand0={"recon_left": 1})
    act(state, "play recon_left", "done")
    assert state.phase == "draw" and state.recon_draws == 2 and state.draws == 2
    for k in (K["probe_left"], K["attack_left"], K["probe_right"], K["probe_right"]):
        state.apply_action(k)
    assert state.phase == "keep" and state.recon == [K["probe_left"], K["attack_left"]]
    assert state.hands[0][K["probe_right"]] == 2  # the extras before the keep (READING in _next_draw)
    assert state.observation_tensor(1)[-32:-2].sum() == 0  # the pair is hidden from seat 1
    act(state, "keep attack_left")
    assert state.phase == "play" and state.active == 1
    assert state.discard[K["probe_left"]] == 1 and state.discard[K["recon_left"]] == 1


def test_pegasus_axis_extra_draws():
    game = oracle.make("memoir44")
    assert game.extra_draws == ((), (1, 1))


def test_turn_limit_draw():
    game = custom()
    game2 = oracle.make(str(game).replace("turn_limit=80", "turn_limit=1"))
    state = position(game2, [U("8,4", 0), U("0,0", 1)])
    act(state, "play probe_center")
    state.apply_action(state.legal_actions()[0])
    assert state.phase == "over" and state.winner == -1 and state.returns() == [0.5, 0.5]


def test_deck_refilled_from_discard():
    game = custom()
    deck_cards = [0] * 30
    hands0 = {"probe_left": 1}
    obj = json.loads(position(game, [U("8,4", 0), U("0,0", 1)], hand0=hands0).serialize())
    obj["discard"] = obj["deck"]
    obj["deck"] = deck_cards
    state = game.deserialize_state(json.dumps(obj, separators=(",", ":")))
    act(state, "play probe_left", "done")
    assert state.phase == "draw" and sum(state.deck) == 59 and sum(state.discard) == 0


# ---------------------------------------------------------------------------------------------------------
# Serialization, observation, hidden information
# ---------------------------------------------------------------------------------------------------------


def test_initial_serialization_shape():
    """§6.6: canonical JSON, keys sorted and no spaces, with the envelope every game's state carries."""
    text = oracle.make("memoir44").new_initial_state().serialize()
    obj = json.loads(text)
    keys = list(obj)
    assert keys == sorted(keys)
    assert set(keys) == set(
        "game params version history phase active turns units wire sandbags hands deck discard played "
        "card section fallback roll last medals ambush unit battle targets recon recon_draws draws drawer "
        "winner".split()
    )
    assert obj["game"] == "memoir44" and obj["version"] == 1 and obj["history"] == []
    assert obj["params"] == {"scenario": "pegasus_bridge", "turn_limit": 80}
    assert obj["units"][0] == {
        "battles": 0, "figures": 4, "hex": "0,0", "kind": "infantry", "moved": 0, "no_battle": False,
        "ordered": False, "overrun": False, "seat": 1, "special": False, "start": 4,
    }  # fmt: skip
    assert '"wire":["2,10","3,9","4,6","4,8"]' in text and '"sandbags":["3,7"]' in text and " " not in text


@pytest.mark.parametrize("scenario", ["pegasus_bridge", "custom"])
def test_random_games_end_and_round_trip(scenario):
    game = (
        oracle.make("memoir44")
        if scenario == "pegasus_bridge"
        else custom(
            [
                hexagon(4, 10, terrain="hills"),
                hexagon(4, 12, terrain="hills"),
                hexagon(6, 8, terrain="hedgerow"),
                hexagon(3, 11, unit="tankger"),
                hexagon(5, 13, unit="tankus"),
                hexagon(7, 13, unit="gunus"),
                hexagon(5, 9, obstacle="sand"),
                hexagon(2, 12, obstacle="wire"),
                hexagon(1, 11, unit="inf2ger"),
            ]
        )
    )
    for seed in range(4):
        rng = Rng(seed)
        state = game.new_initial_state()
        step = 0
        while not state.is_terminal():
            if step % 7 == 0:
                text = state.serialize()
                again = game.deserialize_state(text)
                assert again.serialize() == text and again.legal_actions() == state.legal_actions()
                assert state.observation_tensor(step % 2).shape == (3430,)
            state.random_step(rng)
            step += 1
        assert state.winner is not None and len(state.history()) <= game.max_game_length()


def _mutate(text: str, path: list[object], value: object) -> str:
    obj = json.loads(text)
    target = obj
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return json.dumps(obj, separators=(",", ":"))


def test_bad_json_refused():
    game = custom()
    good = position(game, [U("8,4", 0), U("0,0", 1)]).serialize()
    obj = json.loads(good)
    bad_texts = [
        "",
        "[]",
        good[:-1],
        good.replace('"phase"', '"phase":"play","phase"', 1),
        _mutate(good, ["phase"], "nap"),
        _mutate(good, ["units", 0, "hex"], "8,5"),
        _mutate(good, ["units", 0, "figures"], 5),
        _mutate(good, ["units", 0, "seat"], True),
        _mutate(good, ["units"], obj["units"] + [obj["units"][0]]),
        _mutate(good, ["deck", 0], obj["deck"][0] - 1),
        _mutate(good, ["winner"], 0),
        _mutate(good, ["phase"], "move_to"),
        _mutate(good, ["phase"], "dice"),
        _mutate(good, ["phase"], "over"),
        json.dumps({**obj, "extra": 1}),
    ]
    del obj["targets"]
    bad_texts.append(json.dumps(obj))
    for text in bad_texts:
        with pytest.raises(InvalidStateError):
            game.deserialize_state(text)
    river = custom([hexagon(5, 5, terrain="river")])
    with pytest.raises(InvalidStateError):
        river.deserialize_state(_mutate(good, ["units", 0, "hex"], "5,5"))


def test_illegal_action_leaves_state_untouched():
    game = custom()
    state = position(game, [U("8,4", 0), U("0,0", 1)])
    before = state.serialize()
    for action in (-1, 409, K["ambush"], True, "play probe_center", 1.0):
        with pytest.raises(IllegalActionError):
            state.apply_action(action)
    assert state.serialize() == before


def test_no_leak_of_the_other_hand():
    game = custom()
    a = position(game, [U("8,4", 0), U("0,0", 1)], hand1={"ambush": 1, "barrage": 1})
    b = position(game, [U("8,4", 0), U("0,0", 1)], hand1={"dig_in": 1, "air_power": 1})
    assert np.array_equal(a.observation_tensor(0), b.observation_tensor(0))
    assert a.observation_string(0) == b.observation_string(0)
    assert not np.array_equal(a.observation_tensor(1), b.observation_tensor(1))
    assert "ambush" in a.observation_string(1) and "ambush" not in a.observation_string(0)


def test_resample_keeps_sizes_and_own_hand():
    game = oracle.make("memoir44")
    state = game.new_initial_state()
    rng = Rng(3)
    while state.is_chance_node():
        state.random_step(rng)
    twin = state.resample_from_infostate(0, Rng(5))
    assert twin.hands[0] == state.hands[0] and sum(twin.hands[1]) == sum(state.hands[1])
    assert [a + b for a, b in zip(twin.deck, twin.hands[1], strict=True)] == [
        a + b for a, b in zip(state.deck, state.hands[1], strict=True)
    ]
    assert np.array_equal(twin.observation_tensor(0), state.observation_tensor(0))


def test_observation_layout_spots():
    game = oracle.make("memoir44")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    tensor = state.observation_tensor(0)
    per_hex = tensor[: 113 * 24].reshape(113, 24)
    assert per_hex[m.hex_index(0, 0), 0] == 1  # village
    assert per_hex[m.hex_index(2, 6), 5] == 1 and per_hex[m.hex_index(2, 6), 8] == 1  # bridge, Allied medal
    assert per_hex[m.hex_index(0, 0), 15:20].tolist() == [1, 0, 0, 4, 0]  # the other seat's infantry
    phases = tensor[2712 : 2712 + 22]
    assert phases[m.PHASES.index("play")] == 1
