"""Tests of the pure-Python Carcassonne oracle on its own (meeplex.oracle.carcassonne).

Scenarios from the contract (docs/rules/carcassonne.md, cited §n) and the game-help page
(shared/rules/bga_carcassonne.txt): placement and edge matching, followers on joined features, scoring during
play and at the end, unplaceable tiles, The River, the strategic variant, serialization, notation and whole
random games with the shared PRNG.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import meeplex.oracle as oracle
from meeplex.errors import IllegalActionError, InvalidNotationError, InvalidStateError
from meeplex.oracle import CHANCE, TERMINAL, Rng
from meeplex.oracle.carcassonne import (
    LAKE,
    RIVER,
    SPRING,
    TILE_NAMES,
    TILES,
    CarcassonneGame,
    CarcassonneState,
    placed,
)
from meeplex.testing import run_conformance


def tid(name: str) -> int:
    return TILE_NAMES.index(name)


def game(**params: object) -> CarcassonneGame:
    made = oracle.make("carcassonne", **params)
    assert isinstance(made, CarcassonneGame)
    return made


def put(state: CarcassonneState, name: str, x: int, y: int, r: int) -> int:
    """Put a tile from the pile on the board directly (a test position), returning its slot."""
    t = tid(name)
    assert state.pile[t] > 0
    state.pile[t] -= 1
    state.board.append((t, x, y, r))
    state.cells[(x, y)] = len(state.board) - 1
    return len(state.board) - 1


def follow(state: CarcassonneState, slot: int, k: int, seat: int) -> None:
    state.followers[slot] = (k, seat)
    state.supply[seat] -= 1


def draw(state: CarcassonneState, name: str) -> None:
    assert state.is_chance_node()
    state.apply_action(tid(name))


def place(state: CarcassonneState, x: int, y: int, r: int) -> None:
    state.apply_action(state.game.place_id(x, y, r))


def follower(state: CarcassonneState, k: int | None) -> None:
    g = state.game
    state.apply_action(g.NO_FOLLOWER if k is None else g.FOLLOWER + k)


# ----- parameters and sizes (§1, §3, §7, §8) -----


def test_sizes_of_the_standard_game() -> None:
    g = game()
    assert g.params == {"players": 2, "river": False, "strategic": False, "tiles": "standard"}
    assert g.R == 71 and g.W == 143
    assert g.num_distinct_actions() == 81843
    assert g.max_chance_outcomes() == 34
    assert g.max_game_length() == 4 * 71
    assert g.observation_shape() == (4110,)
    assert game(river=True).R == 82
    assert sum(TILES[t].count for t in range(24)) == 71  # the start tile, a fourth D, is not in the pile


def test_a_game_s_tile_types_follow_its_expansions() -> None:
    """§2: "A game's types are the entries of the base and river sets and of the enabled expansions' sets, in
    the file's order ... T = 34 + 17 (if inns_cathedrals) + 24 (if traders_builders)"; §3: R grows by 18 and
    24."""
    base, ic, tb, both = (
        game(),
        game(inns_cathedrals=True),
        game(traders_builders=True),
        game(inns_cathedrals=True, traders_builders=True),
    )
    assert (base.T, ic.T, tb.T, both.T) == (34, 51, 58, 75)
    assert base.tile_names == TILE_NAMES[:34]
    assert ic.tile_names[34] == "ic_cccc_c" and both.tile_names[51] == "tb_cc_g"
    assert tb.tile_names[34] == "tb_cc_g"  # with Traders & Builders alone its types are ids 34..57
    assert (ic.R, tb.R, both.R) == (71 + 18, 71 + 24, 71 + 42)
    assert game(river=True, traders_builders=True).R == 71 + 11 + 24
    assert game(tiles="E2", inns_cathedrals=True).R == 2 + 18  # the expansion's tiles in full (interp. 11.7)
    assert tb.max_chance_outcomes() == 58
    # Without the expansions nothing changes (§11): the same params, hence the same serialization.
    assert game(inns_cathedrals=False, traders_builders=False).params == base.params


@pytest.mark.parametrize(
    ("given", "canonical"),
    [
        ("e2u1v3", "E2U1V3"),
        ("STANDARD", "standard"),
        ("B1", "B1"),
        ("A2B4C1D3E5F2G1H3I2J3K3L3M2N3O2P3Q1R3S2T1U8V9W4X1", "standard"),
    ],
)
def test_tiles_parameter_is_normalised(given: str, canonical: str) -> None:
    assert game(tiles=given).params["tiles"] == canonical
    assert oracle.make(f"carcassonne(tiles={given})").params["tiles"] == canonical


@pytest.mark.parametrize(
    "params",
    [
        {"tiles": "E2E1"},
        {"tiles": "U1E2"},
        {"tiles": "E0"},
        {"tiles": "E100"},
        {"tiles": ""},
        {"tiles": "Z1"},
        {"tiles": "E"},
        {"tiles": 3},
        {"players": 1},
        {"players": 6},
        {"players": True},
        {"river": 1},
        {"strategic": "yes"},
        {"colour": "red"},
    ],
)
def test_bad_parameters_are_refused(params: dict[str, object]) -> None:
    with pytest.raises(InvalidStateError):
        oracle.make("carcassonne", **params)


def test_custom_tiles_size_the_window() -> None:
    g = game(tiles="E2U1")
    assert g.R == 3 and g.W == 7
    assert g.num_distinct_actions() == 7 * 7 * 4 + 1 + 12 + 34
    state = g.new_initial_state()
    assert state.board == [(tid("D"), 0, 0, 0)]
    assert state.chance_weights() == [(tid("E"), 2), (tid("U"), 1)]


# ----- placement (§5.1) -----


def test_placement_needs_matching_edges_and_a_neighbour() -> None:
    g = game()
    state = g.new_initial_state()
    assert state.current_player() == CHANCE
    draw(state, "U")  # road east-west, fields north and south
    legal = set(state.legal_actions())
    assert g.place_id(1, 0, 0) in legal and g.place_id(1, 0, 2) in legal  # road meets D's road
    assert g.place_id(-1, 0, 0) in legal
    assert g.place_id(0, -1, 0) in legal  # field meets D's south field
    assert g.place_id(1, 0, 1) not in legal  # field against D's road
    assert not any(g.place_of(a)[:2] == (0, 1) for a in legal)  # D's city on the north: U has none
    assert g.place_id(2, 0, 0) not in legal  # no neighbour
    assert g.place_id(0, 0, 0) not in legal  # taken
    with pytest.raises(IllegalActionError):
        place(state, 0, 1, 0)
    assert state.phase == "place" and len(state.board) == 1  # unchanged
    for action in legal:
        x, y, r = g.place_of(action)
        edges = placed(tid("U"), r).edges
        for d, (dx, dy) in enumerate(((0, 1), (1, 0), (0, -1), (-1, 0))):
            if (x + dx, y + dy) == (0, 0):
                assert edges[d] == placed(tid("D"), 0).edges[(d + 2) % 4]


def test_symmetric_rotations_are_distinct_legal_actions() -> None:
    state = game().new_initial_state()
    draw(state, "X")  # RRRR
    g = state.game
    legal = state.legal_actions()
    assert all(g.place_id(1, 0, r) in legal for r in range(4))


# ----- followers (§4.1 step 3) -----


def test_follower_may_not_join_an_occupied_feature() -> None:
    g = game()
    state = g.new_initial_state()
    follow(state, 0, 1, 1)  # seat 1 on D's road (east-west)
    draw(state, "U")
    place(state, 1, 0, 0)
    legal = state.legal_actions()
    # U's features: road 0, north field 1, south field 2. The road joins seat 1's road.
    assert g.NO_FOLLOWER in legal
    assert g.FOLLOWER + 0 not in legal
    assert g.FOLLOWER + 1 in legal and g.FOLLOWER + 2 in legal
    assert state.action_to_string(g.FOLLOWER + 0) == "follower road E"
    assert state.action_to_string(g.FOLLOWER + 1) == "follower field NL"
    assert state.action_to_string(g.FOLLOWER + 2) == "follower field ER"
    with pytest.raises(IllegalActionError):
        follower(state, 0)


def test_one_s_own_occupied_feature_is_occupied_too() -> None:
    g = game()
    state = g.new_initial_state()
    follow(state, 0, 1, 0)  # seat 0 itself on D's road
    draw(state, "U")
    place(state, 1, 0, 0)
    assert g.FOLLOWER + 0 not in state.legal_actions()


def test_no_follower_in_supply_leaves_only_no_follower() -> None:
    g = game()
    state = g.new_initial_state()
    state.supply[0] = 0
    state.followers = {}
    draw(state, "U")
    place(state, 1, 0, 0)
    assert state.legal_actions() == [g.NO_FOLLOWER]


# ----- scoring during play (§4.1 step 4, §6.1) -----


def test_two_tile_city_scores_4_and_the_follower_returns_at_once() -> None:
    state = game().new_initial_state()
    draw(state, "E")
    place(state, 0, 1, 2)  # E's city faces south onto D's city
    assert state.action_to_string(state.game.FOLLOWER + 0) == "follower city S"
    follower(state, 0)
    assert state.scores() == [4.0, 0.0]
    assert state.supply == [7, 7] and state.followers == {}
    assert state.current == 1 and state.phase == "draw"


def test_city_with_pennant() -> None:
    state = game().new_initial_state()
    draw(state, "F")
    place(state, 0, 1, 1)  # city north-south, pennant
    follower(state, 0)
    assert state.scores() == [0.0, 0.0] and state.supply == [6, 7]
    draw(state, "E")
    place(state, 0, 2, 2)
    follower(state, None)
    assert state.scores() == [8.0, 0.0]  # 3 tiles + 1 pennant, x 2
    assert state.supply == [7, 7]


def test_completed_city_with_no_follower_scores_nothing() -> None:
    state = game().new_initial_state()
    draw(state, "E")
    place(state, 0, 1, 2)
    follower(state, None)
    assert state.scores() == [0.0, 0.0]


def test_road_between_two_junctions() -> None:
    g = game()
    state = g.new_initial_state()
    draw(state, "L")  # city N, roads E S W (a junction)
    place(state, 1, 0, 0)
    assert state.action_to_string(g.FOLLOWER + 3) == "follower road W"
    follower(state, 3)  # on the road joining D's
    draw(state, "L")
    place(state, -1, 0, 0)
    assert g.FOLLOWER + 1 not in state.legal_actions()  # its east road joins seat 0's road
    follower(state, None)
    assert state.scores() == [3.0, 0.0]
    assert state.supply == [7, 7]


def test_cloister_complete_scores_9() -> None:
    g = game(tiles="B9")
    state = g.new_initial_state()
    put(state, "B", 0, -1, 0)
    draw(state, "B")
    place(state, 0, -2, 0)
    follower(state, 0)  # the cloister
    assert state.scores() == [0.0, 0.0] and state.supply == [6, 7]
    cells = [(x, y) for x in (-1, 0, 1) for y in (-1, -2, -3) if (x, y) not in ((0, -2), (0, -1))]
    for x, y in cells[:-1]:
        put(state, "B", x, y, 0)
    draw(state, "B")
    place(state, *cells[-1], 0)
    follower(state, None)
    assert state.scores() == [9.0, 0.0]
    assert state.supply == [7, 7]


def test_a_tie_scores_in_full_for_every_tied_seat() -> None:
    g = game(tiles="E1F1")
    state = g.new_initial_state()
    follow(state, 0, 0, 0)  # seat 0 on D's city
    e = put(state, "E", 0, 2, 2)  # a separate city facing south
    follow(state, e, 0, 1)
    draw(state, "F")
    place(state, 0, 1, 1)  # joins both cities and closes them
    assert g.FOLLOWER + 0 not in state.legal_actions()
    follower(state, None)
    assert state.scores() == [8.0, 8.0]
    assert state.supply == [7, 7]


def test_the_majority_takes_the_points() -> None:
    g = game(tiles="E1F2")
    state = g.new_initial_state()
    follow(state, 0, 0, 0)
    f = put(state, "F", 0, 1, 1)
    follow(state, f, 0, 0)  # a second follower of seat 0 (as after two cities joined)
    e = put(state, "E", 0, 3, 2)
    follow(state, e, 0, 1)
    draw(state, "F")
    place(state, 0, 2, 1)
    follower(state, None)
    assert state.scores() == [12.0, 0.0]  # 4 tiles + 2 pennants
    assert state.supply == [7, 7]


# ----- end of the game (§6.2) -----


def test_end_game_incomplete_road_city_and_cloister() -> None:
    g = game(tiles="A1U1")
    state = g.new_initial_state()
    follow(state, 0, 0, 1)  # seat 1 on D's city (never completed)
    draw(state, "U")
    place(state, 1, 0, 0)
    follower(state, 0)  # seat 0 on the road D-U
    draw(state, "A")  # cloister with a road south
    place(state, 0, -1, 0)
    follower(state, 0)  # seat 1 on the cloister
    assert state.is_terminal() and state.current_player() == TERMINAL
    # road: 2 tiles; city: 1 tile; cloister: 1 + 2 neighbours (D, U)
    assert state.scores() == [2.0, 1.0 + 3.0]
    assert state.returns() == [0.0, 1.0]
    assert state.supply == [6, 5]  # followers stay on the board at the end


def test_fields_score_3_per_completed_city() -> None:
    g = game(tiles="E1")
    state = g.new_initial_state()
    follow(state, 0, 2, 1)  # seat 1 on D's north field (touches D's city)
    draw(state, "E")
    place(state, 0, 1, 2)  # closes the city D-E
    assert state.action_to_string(g.FOLLOWER + 1) == "follower field NL"
    follower(state, 1)  # seat 0 on E's field, touching the same city
    assert state.is_terminal()
    # A city counts for every field it touches: each farmer's field scores 3.
    assert state.scores() == [3.0, 3.0]
    assert state.returns() == [0.5, 0.5]


def test_farmers_majority() -> None:
    g = game(tiles="E1U2")
    state = g.new_initial_state()
    east = put(state, "U", 1, 0, 0)
    west = put(state, "U", -1, 0, 0)
    follow(state, 0, 2, 1)  # seat 1 on D's north field (it touches D's city)
    follow(state, east, 1, 0)  # seat 0 twice in the same field (the U's north fields join D's)
    follow(state, west, 1, 0)
    nodes, _ = state.component(0, 2)
    assert {(east, 1), (west, 1), (0, 2)} <= nodes
    draw(state, "E")
    place(state, 0, 1, 2)  # closes D's city
    follower(state, None)
    assert state.is_terminal()
    assert state.scores() == [3.0, 0.0]
    assert state.returns() == [1.0, 0.0]


def test_an_incomplete_city_gives_nothing_to_fields() -> None:
    state = game(tiles="U1").new_initial_state()
    follow(state, 0, 2, 0)  # seat 0 on D's north field; D's city stays open
    draw(state, "U")
    place(state, 1, 0, 0)
    follower(state, None)
    assert state.is_terminal() and state.scores() == [0.0, 0.0]


# ----- unplaceable tiles (§4.1 step 1, interp. 7) -----


def _closed_board(g: CarcassonneGame) -> CarcassonneState:
    """D with U east and west and E closing its city: no city edge is open anywhere."""
    state = g.new_initial_state()
    put(state, "U", 1, 0, 0)
    put(state, "U", -1, 0, 0)
    put(state, "E", 0, 1, 2)
    return state


def test_an_unplaceable_tile_is_set_aside_and_the_seat_draws_again() -> None:
    g = game(tiles="C1E1U3")
    state = _closed_board(g)
    assert state.placements(tid("C")) == []
    draw(state, "C")
    assert state.set_aside[tid("C")] == 1
    assert state.phase == "draw" and state.current == 0
    assert state.chance_weights() == [(tid("U"), 1)]


def test_an_unplaceable_last_tile_ends_the_game() -> None:
    state = _closed_board(game(tiles="C1E1U2"))
    draw(state, "C")
    assert state.is_terminal() and state.set_aside[tid("C")] == 1
    assert state.returns() == [0.5, 0.5]


# ----- The River (§4.2) -----


def test_river_spring_first_lake_last() -> None:
    g = game(river=True)
    state = g.new_initial_state()
    assert state.board == [(SPRING, 0, 0, 0)]
    weights = dict(state.chance_weights())
    assert set(weights) == set(RIVER) - {SPRING, LAKE}
    assert sum(weights.values()) == 10
    rng = Rng(5)
    seats = []
    while state.pile[LAKE] == 1 and sum(state.pile[t] for t in RIVER) > 1:
        seats.append(state.current)
        oracle.random_step(state, rng)  # draw
        if state.phase == "place":
            assert all(g.place_of(a)[:2] == _front(state) for a in state.legal_actions())
            oracle.random_step(state, rng)
            oracle.random_step(state, rng)
    assert state.chance_weights() == [(LAKE, 1)]
    assert seats[:4] == [0, 1, 0, 1]  # seats alternate, seat 0 first
    draw(state, "river_lake")
    place(state, *g.place_of(state.legal_actions()[0]))
    follower(state, None)
    assert all(t < 24 for t, _ in state.chance_weights())


def _front(state: CarcassonneState) -> tuple[int, int]:
    end, _ = state._river_status()
    assert end is not None
    x, y, d = end
    return x + (0, 1, 0, -1)[d], y + (1, 0, -1, 0)[d]


def _turn(state: CarcassonneState, action: int) -> int:
    g = state.game
    x, y, r = g.place_of(action)
    end, _ = state._river_status()
    assert end is not None
    in_edge = (end[2] + 2) % 4
    edges = placed(state.tile, r).edges
    out = [d for d in range(4) if edges[d] == "W" and d != in_edge][0]
    flow = (in_edge + 2) % 4
    return {(flow + 1) % 4: 1, (flow + 3) % 4: -1}.get(out, 0)


def test_river_never_turns_twice_the_same_way() -> None:
    g = game(river=True)
    state = g.new_initial_state()
    draw(state, "river_curve")
    legal = state.legal_actions()
    turns = {_turn(state, a) for a in legal}
    assert turns == {1, -1}  # the first curve may turn either way
    right = next(a for a in legal if _turn(state, a) == 1)
    state.apply_action(right)
    follower(state, None)
    draw(state, "river_straight")  # straights do not count
    place(state, *g.place_of(state.legal_actions()[0]))
    follower(state, None)
    draw(state, "river_curve")
    legal = state.legal_actions()
    assert legal and {_turn(state, a) for a in legal} == {-1}


def test_river_tiles_must_continue_the_river() -> None:
    g = game(river=True)
    state = g.new_initial_state()
    draw(state, "river_straight")
    assert {g.place_of(a) for a in state.legal_actions()} == {(1, 0, 0), (1, 0, 2)}  # river E-W


# ----- the strategic variant (§4.3, §8) -----


def test_strategic_deal_select_and_hidden_hands() -> None:
    g = game(strategic=True, players=3)
    state = g.new_initial_state()
    assert state.phase == "deal" and state.current_player() == CHANCE
    rng = Rng(11)
    receivers = []
    for _ in range(9):
        assert state.phase == "deal"
        receivers.append(state.current)
        oracle.random_step(state, rng)
    assert receivers == [0, 0, 0, 1, 1, 1, 2, 2, 2]
    assert [sum(h) for h in state.hands] == [3, 3, 3]
    assert state.phase == "draw" and state.current == 0
    oracle.random_step(state, rng)  # seat 0 draws a fourth tile
    assert state.phase == "select" and sum(state.hands[0]) == 4
    assert state.legal_actions() == [g.SELECT + t for t in range(34) if state.hands[0][t]]
    # Hidden: seat 1 sees seat 0's tiles only as unseen; its info string hides them.
    info = state.information_state_string(1)
    assert info.startswith("seat=1 history=?,?,?,")
    mine = state.information_state_string(0).split("=")[2].split(",")
    assert mine[:3] != ["?", "?", "?"] and mine[3:6] == ["?", "?", "?"]
    other = state.clone()
    other.hands[0], other.hands[2] = list(state.hands[2]), list(state.hands[0])
    # Not a legal swap in general, but seat 1 cannot tell hands 0 and 2 apart in the tensor's unseen counts.
    assert np.array_equal(state.observation_tensor(1)[-34:], other.observation_tensor(1)[-34:])
    # Resample: hands keep their sizes, seat p's hand is kept, the pool is conserved.
    twin = state.resample_from_infostate(1, Rng(3))
    assert [sum(h) for h in twin.hands] == [sum(h) for h in state.hands]
    assert twin.hands[1] == state.hands[1]
    assert np.array_equal(twin.observation_tensor(1), state.observation_tensor(1))
    t = next(t for t in range(34) if state.hands[0][t])
    state.apply_action(g.SELECT + t)
    assert state.phase == "place" and state.tile == t
    assert state.action_to_string(g.SELECT + t) == f"tile {TILE_NAMES[t]}"


def test_strategic_game_plays_out_every_hand() -> None:
    g = game(strategic=True, tiles="E3U2V2")
    state = oracle.play_random(g, 4)
    assert isinstance(state, CarcassonneState)
    assert state.is_terminal()
    assert not any(any(h) for h in state.hands)
    assert sum(state.pile) == 0
    placed_or_aside = len(state.board) - 1 + sum(state.set_aside)
    assert placed_or_aside == 7


def test_non_strategic_resample_is_a_clone() -> None:
    state = game().new_initial_state()
    assert state.resample_from_infostate(0, Rng(1)).serialize() == state.serialize()
    with pytest.raises(InvalidStateError):
        state.resample_from_infostate(2, Rng(1))


# ----- notation (§7) -----


def test_notation_examples() -> None:
    g = game()
    state = g.new_initial_state()
    assert state.string_to_action("draw V") == tid("V")
    assert state.string_to_action("  River_Curve ") == tid("river_curve")
    assert state.action_to_string(tid("river_curve")) == "draw river_curve"
    with pytest.raises(InvalidNotationError):
        state.string_to_action("place 1,0 r0")  # not at a chance node
    draw(state, "V")
    a = g.place_id(3, -1, 1)
    assert state.action_to_string(a) == "place 3,-1 r90"
    for text in ("place 3,-1 r90", "  PLACE  3 , -1   R90 ", "place +3,-01 r90"):
        assert state.string_to_action(text) == a
    assert state.string_to_action("no follower") == g.NO_FOLLOWER
    assert state.string_to_action("follower #11") == g.FOLLOWER + 11
    assert state.string_to_action("tile D") == g.SELECT + tid("D")
    for bad in ("place 72,0 r0", "place 0,0 r45", "follower #12", "follower city N", "tile Z", "draw V", ""):
        with pytest.raises(InvalidNotationError):
            state.string_to_action(bad)
    assert state.action_to_string(g.FOLLOWER + 2) == "follower #2"
    with pytest.raises(IllegalActionError):
        state.action_to_string(g.num_distinct_actions())
    with pytest.raises(IllegalActionError):
        state.action_to_string(True)


def test_follower_texts_read_any_edge_of_the_feature() -> None:
    g = game()
    state = g.new_initial_state()
    draw(state, "F")
    place(state, 0, 1, 1)  # city on board N and S
    assert state.action_to_string(g.FOLLOWER + 0) == "follower city N"
    assert state.string_to_action("follower city s") == g.FOLLOWER + 0
    assert state.string_to_action("Follower City N") == g.FOLLOWER + 0
    assert state.string_to_action("follower field ER") == g.FOLLOWER + 1  # board east field
    with pytest.raises(InvalidNotationError):
        state.string_to_action("follower road E")
    with pytest.raises(InvalidNotationError):
        state.string_to_action("follower city")


def test_notation_round_trips_in_random_games() -> None:
    for params in ({"tiles": "A1B1E2L1U2"}, {"river": True, "strategic": True, "tiles": "E2V2"}):
        g = game(**params)
        state = g.new_initial_state()
        rng = Rng(2)
        while not state.is_terminal():
            for a in state.legal_actions():
                assert state.string_to_action(state.action_to_string(a)) == a
            oracle.random_step(state, rng)


# ----- serialization (§9) -----


def test_serialization_round_trips_along_random_games() -> None:
    for params in (
        {"tiles": "A1B1C1E2L1U2"},
        {"river": True, "strategic": True, "players": 3, "tiles": "E3V2"},
    ):
        g = game(**params)
        state = g.new_initial_state()
        rng = Rng(9)
        while True:
            text = state.serialize()
            again = g.deserialize_state(text)
            assert again.serialize() == text
            assert again.legal_actions() == state.legal_actions()
            for p in range(g.players):
                assert again.information_state_string(p) == state.information_state_string(p)
                assert np.array_equal(again.observation_tensor(p), state.observation_tensor(p))
            if state.is_terminal():
                break
            oracle.random_step(state, rng)


def test_serialization_layout() -> None:
    state = game().new_initial_state()
    obj = json.loads(state.serialize())
    assert obj["board"] == [[tid("D"), 0, 0, 0]]
    assert obj["params"] == {"players": 2, "river": False, "strategic": False, "tiles": "standard"}
    assert obj["phase"] == "draw" and obj["tile"] == -1 and obj["to_draw"] == 0 and obj["version"] == 1
    assert state.serialize() == json.dumps(obj, sort_keys=True, separators=(",", ":"))


def _mid_game() -> tuple[CarcassonneGame, dict[str, object]]:
    g = game()
    state = g.new_initial_state()
    draw(state, "F")
    place(state, 0, 1, 1)
    follower(state, 0)
    draw(state, "U")
    return g, json.loads(state.serialize())


def _edited(obj: dict[str, object], **changes: object) -> str:
    copy = json.loads(json.dumps(obj))
    copy.update(changes)
    return json.dumps(copy)


@pytest.mark.parametrize(
    "change",
    [
        lambda o: {"board": []},
        lambda o: {"board": [[tid("E"), 0, 0, 0]] + o["board"][1:]},
        lambda o: {"board": o["board"] + [[tid("U"), 5, 5, 0]]},
        lambda o: {"board": o["board"][:1] + [[o["board"][1][0], 0, 1, 0]]},  # city against nothing
        lambda o: {"board": o["board"][:1] + [[tid("river_curve"), 1, 0, 0]]},
        lambda o: {"followers": [[1, 0, 0], [1, 1, 1]]},
        lambda o: {"followers": [[1, 9, 0]]},
        lambda o: {"followers": [[1, 0, 2]]},
        lambda o: {"supply": [7, 7]},
        lambda o: {"pile": [c + 1 for c in o["pile"]]},
        lambda o: {"scores": [0, 100001]},
        lambda o: {"tile": -1},
        lambda o: {"phase": "play"},
        lambda o: {"phase": "over"},
        lambda o: {"phase": "select"},
        lambda o: {"current": 2},
        lambda o: {"current": True},
        lambda o: {"to_draw": 1},
        lambda o: {"hands": [[1] + [0] * 33, [0] * 34]},
        lambda o: {"version": 2},
        lambda o: {"game": "flip_city"},
        lambda o: {"params": {"players": 2, "river": False, "strategic": False}},
        lambda o: {"history": [-1]},
        lambda o: {"extra": 1},
    ],
)
def test_serialization_refusals(change: object) -> None:
    g, obj = _mid_game()
    assert callable(change)
    text = _edited(obj, **change(obj))
    with pytest.raises(InvalidStateError):
        g.deserialize_state(text)


def test_serialization_refuses_missing_and_duplicate_keys_and_junk() -> None:
    g, obj = _mid_game()
    del obj["pile"]
    with pytest.raises(InvalidStateError):
        g.deserialize_state(json.dumps(obj))
    text = game().new_initial_state().serialize()
    with pytest.raises(InvalidStateError):
        g.deserialize_state(text[:-1] + ',"tile":-1}')
    for junk in ("", "[]", "{", "null", 3):
        with pytest.raises(InvalidStateError):
            g.deserialize_state(junk)


def test_a_follower_on_a_completed_city_is_refused_once_scored() -> None:
    g = game()
    state = g.new_initial_state()
    draw(state, "E")
    place(state, 0, 1, 2)
    state.followers[1] = (0, 0)
    state.supply[0] = 6
    # In phase follower the city is not scored yet: accepted.
    g.deserialize_state(state.serialize())
    obj = json.loads(state.serialize())
    obj["phase"] = "draw"
    with pytest.raises(InvalidStateError):
        g.deserialize_state(json.dumps(obj))


# ----- whole random games (DESIGN "The shared PRNG") -----


@pytest.mark.parametrize(
    "params",
    [
        {},
        {"players": 5},
        {"river": True},
        {"strategic": True, "players": 3},
        {"river": True, "strategic": True},
    ],
)
def test_whole_random_games(params: dict[str, object]) -> None:
    g = game(**params)
    for seed in (1, 2):
        state = oracle.play_random(g, seed)
        assert isinstance(state, CarcassonneState)
        assert state.is_terminal() and state.legal_actions() == []
        assert len(state.history()) <= g.max_game_length()
        assert sum(state.returns()) == pytest.approx(1.0)
        for seat in range(g.players):
            assert state.supply[seat] + sum(1 for _, s in state.followers.values() if s == seat) == 7
        assert len(state.board) + sum(state.set_aside) == g.R + 1
        again = oracle.play_random(g, seed)
        assert again.history() == state.history()


def test_conformance_suite_on_a_short_game() -> None:
    report = run_conformance(oracle.make("carcassonne(tiles=A1B1C1E2L1U2V1,strategic=true)"), seeds=[1])
    assert report.games == 1 and report.terminal == 1
