"""Tests of the pure-Python Carcassonne oracle with The Princess and the Dragon (§12 of
docs/rules/carcassonne.md): the dragon tiles held back until a volcano, the volcano, the dragon's move, the
princess, the magic portal, the fairy, orphans, ids, notation, observation and serialization.

Positions are built with the helpers of the oracle's own tests: tiles put on the board directly, the pile cut
down to the tiles a test needs (the others set aside, so that every position still deserializes).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from meeplex.errors import IllegalActionError, InvalidNotationError, InvalidStateError
from meeplex.oracle import Rng
from meeplex.oracle.carcassonne import CarcassonneGame, CarcassonneState
from test_oracle_carcassonne import draw, follow, game, keep, play, put

PD = {"princess_dragon": True}


def legal_texts(state: CarcassonneState) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def road_line(g: CarcassonneGame, east: int, **pile: int) -> CarcassonneState:
    """D at 0,0 and U (a straight road E-W) at 1,0 .. east,0 (slots 1..east); the pile cut to ``pile``."""
    state = g.new_initial_state()
    for x in range(1, east + 1):
        put(state, "U", x, 0, 0)
    keep(state, **pile)
    return state


def volcano_west(state: CarcassonneState) -> int:
    """Seat ``current`` draws and places the volcano pd_rfr_v at -1,0 (no follower); returns its slot."""
    draw(state, "pd_rfr_v")
    play(state, "place -1,0 r0")
    slot = len(state.board) - 1
    assert state.dragon == slot  # §12.2: the dragon appears on the volcano at once
    play(state, "no follower")
    return slot


# ----- §12.1 sizes and ids, §12.8, §12.9 -----


def test_sizes_and_id_blocks() -> None:
    for params, large in ((PD, False), ({**PD, "inns_cathedrals": True}, True)):
        g = game(**params)
        base = game(**{k: v for k, v in params.items() if k != "princess_dragon"})
        assert g.T == base.T + 29 and g.R == base.R + 30 and g.S == g.R + 1
        blocks = 4 if large else 3
        end = g.P + 1 + 12 + g.T + (12 if large else 0)
        assert g.PF == end and g.num_distinct_actions() == end + blocks * g.S * 12 + 4
        assert g.PL == (g.PF + g.S * 12 if large else -1)
        assert g.FA == g.PR + g.S * 12 and g.DR == g.FA + g.S * 12
        assert g.max_game_length() == 4 * g.R + 72
        n, T, K = g.players, g.T, 12
        e, glob = (1, n) if large else (0, 0)
        size = (g.R + 1) * (7 + T + K + n + e + 3) + 4 * n + 6 + 4 * T + glob + 3 + n + K + 6 * (3 + K + n)
        assert g.observation_shape() == (size,) and g.slot_size() == 7 + T + K + n + e + 3
        assert g.new_initial_state().observation_tensor(0).shape == g.observation_shape()
    plain = game()
    assert plain.PF == -1 and plain.max_game_length() == 4 * plain.R  # nothing of §12 without the parameter
    assert game(princess_dragon=False).params == plain.params


def test_tile_marks_counts() -> None:
    g = game(**PD)
    pd_types = [t for t in range(g.T) if g.tiles[t].set == "princess_dragon"]
    assert sum(g.tiles[t].count for t in pd_types) == 30 and len(pd_types) == 29
    assert sum(g.tiles[t].count for t in g.volcano_types) == 6
    assert sum(g.tiles[t].count for t in g.dragon_types) == 12
    assert sum(g.tiles[t].count for t in pd_types if g.tiles[t].portal) == 6
    assert sum(1 for t in pd_types for f in g.tiles[t].features if f.princess) == 6


# ----- §12.1 the dragon tiles are not drawn before the volcano -----


def test_dragon_tiles_are_not_drawn_before_a_volcano() -> None:
    g = game(**PD)
    state = g.new_initial_state()
    outcomes = {t for t, _ in state.chance_outcomes()}
    assert outcomes and not outcomes & g.dragon_types
    assert outcomes >= g.volcano_types
    with pytest.raises(IllegalActionError):
        state.apply_action(g.tile_names.index("pd_rfr_d"))
    state = road_line(g, 1, pd_rfr_v=1, pd_rfr_d=1, B=1)
    assert {g.tile_names[t] for t, _ in state.chance_weights()} == {"pd_rfr_v", "B"}
    volcano_west(state)
    assert {g.tile_names[t] for t, _ in state.chance_weights()} == {"pd_rfr_d", "B"}


def test_only_dragon_tiles_left_are_drawn_and_move_nothing() -> None:
    g = game(**PD)
    state = road_line(g, 1, pd_rfr_d=1)
    assert [g.tile_names[t] for t, _ in state.chance_weights()] == ["pd_rfr_d"]
    draw(state, "pd_rfr_d")
    play(state, "place 2,0 r0", "no follower")
    assert state.is_terminal() and state.dragon == -1  # no dragon on the board: no move


def test_strategic_deal_and_resample_hold_no_dragon_tile_before_the_volcano() -> None:
    g = game(**PD, strategic=True, players=3)
    state = g.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert not any(state.hands[s][t] for s in range(3) for t in g.dragon_types)
    rng = Rng(7)
    for _ in range(20):
        twin = state.resample_from_infostate(0, rng)
        assert not any(twin.hands[s][t] for s in (1, 2) for t in g.dragon_types)
        assert twin.hands[0] == state.hands[0]
        for t in range(g.T):  # every tile accounted for: the dragon tiles stay in the pile
            assert (
                sum(h[t] for h in twin.hands) + twin.pile[t] == sum(h[t] for h in state.hands) + state.pile[t]
            )


# ----- §12.2 the volcano -----


def test_no_figure_on_a_volcano_and_the_dragon_jumps_to_a_new_volcano() -> None:
    g = game(**PD, traders_builders=True)
    state = road_line(g, 1, pd_rfr_v=1, pd_rr_v=1, B=1)
    follow(state, 1, 1, 0)  # seat 0's farmer on U, so that the fairy has somewhere to go
    draw(state, "pd_rfr_v")
    play(state, "place -1,0 r0")
    assert legal_texts(state) == ["no follower", "fairy 1,0 field NL"]  # nothing on the volcano itself
    play(state, "no follower")
    first = state.dragon
    draw(state, "pd_rr_v")  # seat 1: a second volcano, the road S-W turned to W-N: r90
    play(state, "place 2,0 r90")
    assert state.dragon == len(state.board) - 1 != first
    assert legal_texts(state) == ["no follower"]


# ----- §12.3 the dragon's move -----


def test_a_six_step_move_removes_every_figure_it_visits() -> None:
    g = game(**PD)
    state = road_line(g, 7, pd_rfr_v=1, pd_rfr_d=1, B=1)
    follow(state, 2, 0, 1)  # seat 1's thief on U at 2,0
    follow(state, 4, 1, 0)  # seat 0's farmer at 4,0
    follow(state, 6, 2, 1)  # seat 1's farmer at 6,0: out of reach
    volcano_west(state)  # seat 0
    draw(state, "pd_rfr_d")  # seat 1 places the dragon tile west of the volcano
    play(state, "place -2,0 r0", "no follower")
    assert state.phase == "dragon" and state.current == 1
    assert legal_texts(state) == ["dragon E", "dragon W"]
    choosers = []
    for _ in range(6):
        choosers.append(state.current)
        play(state, "dragon E")
    assert choosers == [1, 0, 1, 0, 1, 0]  # the placer first, then each seat in turn
    _, x, y, _ = state.board[state.dragon]
    assert (x, y) == (5, 0)
    assert state.followers == {(6, 2): 1} and state.supply == [7, 6]
    assert state.phase == "draw" and state.current == 0 and state.dragon_visited == []


def test_a_move_that_blocks_itself_ends_early_and_scoring_follows() -> None:
    g = game(**PD)
    state = road_line(g, 2, pd_rfr_v=1, pd_rfr_d=1, E=1)
    volcano_west(state)  # slot 3 at -1,0
    draw(state, "pd_rfr_d")  # seat 1 west of the volcano, its farmer on the north field
    play(state, "place -2,0 r0", "follower field NL")
    play(state, "dragon W")  # onto the tile just placed: the farmer goes home before it scores
    assert state.followers == {} and state.supply == [7, 7]
    # a dead end: the volcano is visited and -3,0, -2,1, -2,-1 are empty
    assert state.phase == "draw" and state.current == 0


def test_a_move_with_no_step_at_all_asks_nothing() -> None:
    g = game(**PD)
    state = road_line(g, 0, pd_rfr_v=1, pd_rfr_d=1, B=1)
    volcano_west(state)
    follow(state, 0, 0, 1)
    state.fairy = (0, 0)  # the fairy on D, the volcano's only neighbour
    draw(state, "pd_rfr_d")
    play(state, "place 1,0 r0", "no follower")  # east of D: the dragon cannot move at all
    assert state.phase == "draw" and state.current == 0 and state.dragon_visited == []


# ----- §12.4 the princess, §12.7 orphans -----


def princess_position(g: CarcassonneGame, seat_on_city: int) -> CarcassonneState:
    """D's city N with a follower of ``seat_on_city``; seat 0 draws pd_cc_p and joins the city at 0,1."""
    state = g.new_initial_state()
    keep(state, pd_cc_p=1, B=1)
    follow(state, 0, 0, seat_on_city)
    draw(state, "pd_cc_p")
    play(state, "place 0,1 r180")  # its city faces S (D's city) and E
    return state


@pytest.mark.parametrize("owner", [1, 0])
def test_the_princess_returns_any_seat_s_follower_in_the_city(owner: int) -> None:
    g = game(**PD)
    state = princess_position(g, owner)
    texts = legal_texts(state)
    assert "princess 0,0 city N" in texts
    assert ("follower city S" in texts) is False  # the city is claimed
    play(state, "princess 0,0 city N")
    assert state.followers == {} and state.supply == [7, 7]


def test_no_princess_on_a_city_without_followers_nor_on_another_feature() -> None:
    g = game(**PD)
    state = princess_position(g, 1)
    state.followers = {(0, 1): 1}  # seat 1 on D's road instead
    assert not any(t.startswith("princess") for t in legal_texts(state))


def test_the_princess_leaves_an_orphaned_builder() -> None:
    g = game(**PD, traders_builders=True)
    state = g.new_initial_state()
    put(state, "F", 0, 1, 1)  # slot 1: the city runs north from D
    keep(state, pd_cc_p=1, B=1)
    follow(state, 0, 0, 1)  # seat 1's knight in the city, its builder beside it
    state.builders[(1, 0)] = 1
    state.followers[(1, 2)] = 1  # seat 1's farmer west of the city, its pig beside it
    state.pigs[(1, 1)] = 1
    state.supply[1] -= 1
    state.builder_supply, state.pig_supply = [1, 0], [1, 1]
    draw(state, "pd_cc_p")
    play(state, "place 0,2 r180")
    assert legal_texts(state).count("princess 0,0 city N") == 1
    play(state, "princess 0,0 city N")
    assert state.builders == {} and state.builder_supply == [1, 1]  # §12.7: no knight of seat 1 left
    assert state.followers == {(1, 2): 1}


def test_the_dragon_leaves_orphans() -> None:
    g = game(**PD, traders_builders=True)
    state = road_line(g, 3, pd_rfr_v=1, pd_rfr_d=1, B=1)
    follow(state, 0, 1, 1)  # seat 1's thief on D's road (the road runs -1..3)
    state.builders[(3, 0)] = 1  # seat 1's builder on the same road, at 3,0
    state.pigs[(3, 2)] = 1
    follow(state, 2, 2, 1)  # seat 1's farmer on the south field of U at 2,0 (the pig's field)
    state.builder_supply, state.pig_supply = [1, 0], [1, 0]
    volcano_west(state)
    draw(state, "pd_rfr_d")
    play(state, "place -2,0 r0", "no follower")
    play(state, "dragon E")  # onto D: the thief returns, the builder is an orphan; the pig keeps its farmer
    assert state.builders == {} and state.builder_supply == [1, 1]
    assert state.pigs == {(3, 2): 1}
    play(state, "dragon E", "dragon E")  # onto 2,0: the farmer returns, the pig follows
    assert state.pigs == {} and state.pig_supply == [1, 1]


# ----- §12.5 the magic portal -----


def portal_position(**params: object) -> tuple[CarcassonneGame, CarcassonneState]:
    """D, E closing D's city (slot 1, 0,1), U at 1,0 (slot 2), the volcano at -1,0 (slot 3); seat 1's
    thief on D's road; seat 0 draws the portal pd_rrr_g and places it at 2,0."""
    g = game(**PD, **params)
    state = g.new_initial_state()
    put(state, "E", 0, 1, 2)
    put(state, "U", 1, 0, 0)
    keep(state, pd_rfr_v=1, pd_rrr_g=1, B=1)
    follow(state, 0, 1, 1)
    state.current = 1
    volcano_west(state)
    draw(state, "pd_rrr_g")
    play(state, "place 2,0 r0")
    return g, state


def test_portal_targets() -> None:
    g, state = portal_position()
    legal = set(state.legal_actions())

    def portal(slot: int, k: int) -> int:
        return g.PF + slot * 12 + k

    assert portal(0, 2) in legal and portal(0, 3) in legal  # D's free fields
    assert portal(2, 1) in legal and portal(1, 1) in legal  # U's and E's fields
    assert portal(0, 0) not in legal and portal(1, 0) not in legal  # D's city is complete
    assert portal(0, 1) not in legal and portal(2, 0) not in legal  # the road holds seat 1's thief
    assert not any(portal(3, k) in legal for k in range(3))  # the volcano
    assert not any(portal(4, k) in legal for k in range(12))  # the tile just placed: ordinary ids only
    assert state.action_to_string(portal(0, 2)) == "follower 0,0 field EL"
    assert state.action_to_string(portal(4, 0)) == "follower @4 #0"
    state.dragon = 2  # the dragon on U (a test position): no figure on the dragon's tile either
    assert portal(2, 1) not in set(state.legal_actions())
    state.dragon = 3
    play(state, "follower 0,0 field SL")
    assert state.followers == {(0, 1): 1, (0, 3): 0} and state.supply == [6, 6]  # two figures on D


def test_portal_cloister_complete_refused_and_large_follower() -> None:
    g, state = portal_position(inns_cathedrals=True)
    assert g.PL + 0 * 12 + 2 in state.legal_actions()
    play(state, "large 0,0 field EL")
    assert state.large == {(0, 2): 0} and state.large_supply == [0, 1]
    # a completed cloister is refused: B with its 8 neighbours
    g2 = game(**PD, tiles="B10")
    st = g2.new_initial_state()
    cells = [(x, y) for x in (-1, 0, 1) for y in (-1, -2, -3) if (x, y) != (0, -2)]
    put(st, "B", 0, -2, 0)
    for x, y in cells:
        put(st, "B", x, y, 0)
    keep(st, pd_rrr_g=1, B=1)
    draw(st, "pd_rrr_g")
    play(st, "place 1,0 r180")  # its W road meets D's road, its field faces the B at 1,-1
    assert g2.PF + 1 * 12 + 0 not in st.legal_actions()  # the complete cloister
    assert g2.PF + 2 * 12 + 0 in st.legal_actions()  # an incomplete one


# ----- §12.6 the fairy -----


def test_the_fairy_point_at_the_start_of_its_owner_s_turn_only() -> None:
    g = game(**PD)
    state = road_line(g, 1, B=4)
    follow(state, 1, 1, 1)  # seat 1's farmer at 1,0
    draw(state, "B")
    play(state, "place 0,-1 r0")
    assert "fairy 1,0 field NL" not in legal_texts(state)  # seat 0 may move it next to its own only
    play(state, "no follower")
    draw(state, "B")
    play(state, "place 1,-1 r0", "fairy 1,0 field NL")  # seat 1
    assert state.fairy == (1, 1) and state.scores_ == [0, 0]
    draw(state, "B")
    play(state, "place 2,-1 r0", "no follower")  # seat 0's turn ends: seat 1's turn begins
    assert state.scores_ == [0, 1]


def test_the_fairy_scores_3_in_play_without_the_majority_then_is_next_to_nobody() -> None:
    g = game(**PD, inns_cathedrals=True)
    state = g.new_initial_state()
    put(state, "F", 0, 1, 1)  # city N-S at 0,1
    keep(state, E=1, B=1)
    follow(state, 0, 0, 0)  # seat 0 on D's city, the fairy next to it
    state.fairy = (0, 0)
    state.large[(1, 0)] = 1  # seat 1's large follower: 2 against 1
    state.large_supply = [1, 0]
    draw(state, "E")
    play(state, "place 0,2 r180", "no follower")
    assert state.scores_ == [3, 8]  # seat 1 wins 3 tiles + F's pennant, x 2; seat 0 only the fairy's 3
    assert state.fairy == (0, -1) and state._fairy_seat() == -1
    assert "fairy" in state.observation_string(0)


def test_the_fairy_scores_at_the_final_scoring_too() -> None:
    g = game(**PD)
    state = road_line(g, 0, B=1)
    follow(state, 0, 0, 0)
    state.fairy = (0, 0)
    draw(state, "B")
    play(state, "place 0,-1 r0", "no follower")
    assert state.is_terminal() and state.scores_ == [1 + 3, 0]  # D's unfinished city: 1, and the fairy's 3


def test_the_fairy_protects_its_tile_from_the_dragon() -> None:
    g = game(**PD)
    state = road_line(g, 3, pd_rfr_v=1, pd_rfr_d=1, B=1)
    follow(state, 2, 1, 0)
    follow(state, 1, 1, 1)
    state.fairy = (2, 1)
    volcano_west(state)
    draw(state, "pd_rfr_d")
    play(state, "place -2,0 r0", "no follower")
    play(state, "dragon E", "dragon E")  # onto D, then onto 1,0; 2,0 holds the fairy: the move ends
    assert state.phase == "draw" and state.followers == {(2, 1): 0}


# ----- §12.8 notation -----


def test_pd_notation_reads_and_writes() -> None:
    g, state = portal_position()
    read = state.string_to_action
    assert read("  FOLLOWER   0 , 0  field  wr ") == g.PF + 2
    assert read("follower 0,0 field EL") == g.PF + 2  # any half of the field
    assert read("follower 2,0 road W") == g.FOLLOWER + 2  # the tile just placed: the ordinary id
    assert read("follower @2 #0") == g.PF + 2 * 12
    assert read("fairy @+3 #11") == g.FA + 3 * 12 + 11
    assert read("princess 0,0 city N") == g.PR + 0
    assert read("dragon w") == g.DR + 3 and state.action_to_string(g.DR + 2) == "dragon S"
    assert state.action_to_string(g.PR + 50 * 12 + 3) == "princess @50 #3"  # an empty slot
    assert state.action_to_string(g.FA + 0 * 12 + 7) == "fairy @0 #7"  # not a feature of D
    for bad in (
        "fairy 9,9 city N",  # no tile there
        "follower 0,0 cloister",  # no such feature
        "large 0,0 city N",  # no large follower without I&C
        f"princess @{g.S} #0",
        "follower @0 #12",
        "dragon X",
        "follower 0,0",
    ):
        with pytest.raises(InvalidNotationError):
            read(bad)
    plain = game().new_initial_state()
    for bad in ("dragon N", "fairy @0 #0", "princess 0,0 city N"):
        with pytest.raises(InvalidNotationError):
            plain.string_to_action(bad)
    for a in state.legal_actions():
        assert read(state.action_to_string(a)) == a


def test_every_pd_id_round_trips_through_its_text() -> None:
    g, state = portal_position(inns_cathedrals=True)
    for a in list(range(g.PF, g.PF + 30)) + list(range(g.PL, g.PL + 60, 7)) + list(range(g.FA, g.DR + 4)):
        assert state.string_to_action(state.action_to_string(a)) == a


# ----- §12.9 observation -----


def test_pd_observation_values() -> None:
    g = game(**PD)
    state = road_line(g, 3, pd_rfr_v=1, pd_rfr_d=1, pd_rrr_g=1, B=1)
    follow(state, 2, 1, 1)
    state.fairy = (2, 1)
    volcano_west(state)  # slot 4
    draw(state, "pd_rrr_g")  # seat 1 puts a second figure on U at 2,0 through the portal
    play(state, "place 4,0 r0", "follower 2,0 field SL")
    draw(state, "pd_rfr_d")
    play(state, "place -2,0 r0", "no follower")
    play(state, "dragon E")  # seat 0 chooses; now seat 1's choice in seat 0's turn
    assert state.current == 1 and state.turn == 0
    obs = state.observation_tensor(1)
    n, T, K = 2, g.T, 12
    size = g.slot_size()
    flag = 7 + T + K + n
    assert obs[0 * size + flag] == 1  # the dragon on D
    assert obs[2 * size + flag + 1] == 1  # the fairy on U at 2,0
    assert obs[4 * size + flag + 2] == 1 and obs[0 * size + flag + 2] == 1  # visited: the volcano and D
    assert obs[2 * size + 7 + T + 1] == 1 and obs[2 * size + 7 + T + 2] == 0  # the slot's lowest figure
    tail = obs[(g.R + 1) * size + 4 * n + 6 + 4 * T :]
    assert list(tail[:3]) == [1, 5, 1]  # phase dragon, 5 steps left, a volcano
    assert list(tail[3 : 3 + n]) == [0, 1]  # the turn's seat 0, relative to observer 1
    assert tail[3 + n + 1] == 1  # the fairy next to feature 1
    entry = tail[3 + n + K :][: 3 + K + n]
    assert list(entry[:3]) == [1, 2, 0] and entry[3 + 2] == 1 and entry[3 + K + 0] == 1  # seat 1 relative 0
    assert not tail[3 + n + K + 3 + K + n :].any()


# ----- §12.10 serialization -----


def dragon_phase() -> tuple[CarcassonneGame, dict[str, object]]:
    g = game(**PD, traders_builders=True)
    state = road_line(g, 7, pd_rfr_v=1, pd_rfr_d=1, B=1)
    follow(state, 6, 1, 0)
    follow(state, 7, 1, 1)
    state.fairy = (7, 1)
    volcano_west(state)
    draw(state, "pd_rfr_d")
    play(state, "place -2,0 r0", "no follower", "dragon E", "dragon E")
    assert state.phase == "dragon" and state.turn == 1 and state.current == (1 + 2) % 2
    return g, json.loads(state.serialize())


def edited(obj: dict[str, object], **changes: object) -> str:
    return json.dumps({**obj, **changes})


def test_pd_serialization_keys_and_round_trip() -> None:
    g, obj = dragon_phase()
    assert obj["dragon_visited"] == [8, 0, 1] and obj["dragon"] == 1
    assert obj["fairy"] == [7, 1] and obj["turn"] == 1 and obj["current"] == 1 and obj["phase"] == "dragon"
    state = g.deserialize_state(json.dumps(obj))
    assert state.serialize() == json.dumps(obj, sort_keys=True, separators=(",", ":"))
    play(state, "dragon E")
    assert state.current == 0 and json.loads(state.serialize())["turn"] == 1
    assert "dragon" not in game().new_initial_state().serialize()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"dragon": -1}, "exactly when a volcano"),
        ({"dragon": 99}, "out of range"),
        ({"dragon_visited": [8, 0]}, "does not end"),
        ({"dragon_visited": [8, 2, 1]}, "chain"),
        ({"dragon_visited": [8, 0, 1, 0]}, "twice"),
        ({"dragon_visited": []}, "1..6"),
        ({"current": 0}, "current is not"),
        ({"turn": 2}, "out of range"),
        ({"fairy": [-1, 1]}, "on no slot"),
        ({"fairy": [7, 0]}, "holds no follower"),
        ({"fairy": [20, -1]}, "out of range"),
        ({"fairy": [1, -1]}, "dragon's tile"),
        ({"fairy": [0, -1]}, "through the fairy"),
        ({"followers": [[1, 1, 0], [7, 1, 1]], "fairy": [-1, -1]}, "volcano tile or the dragon"),
        ({"followers": [[7, 1, 1], [8, 1, 0]], "fairy": [-1, -1]}, "volcano tile or the dragon"),
        ({"followers": [[6, 1, 0], [6, 1, 0], [7, 1, 1]]}, "not ascending"),
        ({"builders": [[6, 1, 0]], "builder_supply": [0, 1]}, "two figures on feature"),
        ({"again": True, "phase": "draw", "dragon_visited": [], "current": 1}, "again|dragon_visited"),
        ({"extra": 1}, "keys"),
    ],
)
def test_pd_serialization_refusals(change: dict[str, object], message: str) -> None:
    g, obj = dragon_phase()
    g.deserialize_state(json.dumps(obj))
    before = json.dumps(obj)
    with pytest.raises(InvalidStateError, match=message):
        g.deserialize_state(edited(obj, **change))
    assert json.dumps(obj) == before


def test_pd_serialization_refusals_outside_the_dragon_phase() -> None:
    g, obj = dragon_phase()
    draw_obj = {**obj, "phase": "draw", "dragon_visited": [], "current": 1}
    g.deserialize_state(json.dumps(draw_obj))
    for change, message in (
        ({"dragon_visited": [1]}, "not empty outside"),
        ({"turn": 0}, "turn is not current"),
        ({"again": True}, "again is set"),
    ):
        with pytest.raises(InvalidStateError, match=message):
            g.deserialize_state(edited(draw_obj, **change))
    # phase dragon when the last tile is not a dragon tile, and without P&D
    state = road_line(game(**PD), 1, B=1)
    obj2 = json.loads(state.serialize())
    with pytest.raises(InvalidStateError, match="not a dragon tile|1..6|exactly when"):
        game(**PD).deserialize_state(edited(obj2, phase="dragon", dragon_visited=[0]))
    plain = road_line(game(), 1, B=1)
    with pytest.raises(InvalidStateError, match="phase"):
        game().deserialize_state(edited(json.loads(plain.serialize()), phase="dragon"))


def test_more_than_six_extra_figures_are_refused() -> None:
    g = game(**PD)
    obj = json.loads(road_line(g, 7, B=1).serialize())
    followers = [[s, k, s % 2] for s in range(1, 8) for k in (1, 2)]  # each U: a farmer north and south
    g.deserialize_state(edited(obj, followers=followers[:13], supply=[1, 0]))  # 6 extra figures
    with pytest.raises(InvalidStateError, match="7 extra figures"):
        g.deserialize_state(edited(obj, followers=followers, supply=[1, -1]))


# ----- whole games -----


@pytest.mark.parametrize(
    "params",
    [PD, {**PD, "river": True, "players": 3}, {**PD, "strategic": True, "inns_cathedrals": True}],
)
def test_random_pd_games_round_trip(params: dict[str, object]) -> None:
    g = game(**params)
    state = g.new_initial_state()
    rng = np.random.default_rng(3)
    seen = set()
    while not state.is_terminal():
        legal = state.legal_actions()
        if not state.is_chance_node():
            for a in legal:
                assert state.string_to_action(state.action_to_string(a)) == a
        text = state.serialize()
        assert g.deserialize_state(text).serialize() == text
        a = int(legal[rng.integers(len(legal))])
        seen.add(state._pd_of(a)[0])
        state.apply_action(a)
    assert "dragon" in seen


def test_a_second_tile_is_kept_when_the_dragon_removes_the_builder() -> None:
    """§12.3: a second tile earned by the placement is kept even if the dragon removes the builder."""
    g = game(**PD, traders_builders=True)
    state = road_line(g, 3, pd_rfr_v=1, pd_rfr_d=1, B=2)
    follow(state, 1, 0, 0)  # seat 0's thief at 1,0 and its builder at 2,0, on D's road
    state.builders[(2, 0)] = 0
    state.builder_supply = [0, 1]
    state.current = 1
    volcano_west(state)  # seat 1
    draw(state, "pd_rfr_d")
    play(state, "place -2,0 r0", "no follower")  # seat 0 extends the builder's road
    assert state.again and state.phase == "dragon"
    play(state, "dragon E", "dragon E")  # onto D, then onto 1,0: the thief goes, the builder is an orphan
    assert state.builders == {} and state.builder_supply == [1, 1]
    play(state, "dragon E", "dragon E")  # onto 2,0 and 3,0: a dead end
    assert state.phase == "draw" and state.current == 0 and state.bonus


def test_illegal_pd_actions_are_refused_and_leave_the_state_untouched() -> None:
    g, obj = dragon_phase()
    state = g.deserialize_state(json.dumps(obj))
    before = state.serialize()
    for bad in (g.DR + 3, g.DR + 0, g.PF, g.FA + 7 * 12 + 1, g.NO_FOLLOWER, g.num_distinct_actions()):
        with pytest.raises(IllegalActionError):
            state.apply_action(bad)  # W and N lead to visited or empty cells; not the follower step
    assert state.serialize() == before
    g2, follower_step = portal_position()
    before = follower_step.serialize()
    for bad in (g2.PF + 0 * 12 + 0, g2.PF + 3 * 12 + 1, g2.PR, g2.DR):
        with pytest.raises(IllegalActionError):
            follower_step.apply_action(bad)
    assert follower_step.serialize() == before
