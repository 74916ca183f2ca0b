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
    t = state.game.tile_names.index(name)
    assert state.pile[t] > 0 and (x, y) not in state.cells
    state.pile[t] -= 1
    state.board.append((t, x, y, r))
    state.cells[(x, y)] = len(state.board) - 1
    return len(state.board) - 1


def follow(state: CarcassonneState, slot: int, k: int, seat: int) -> None:
    assert all(s != slot for s, _ in state.followers)
    state.followers[(slot, k)] = seat
    state.supply[seat] -= 1


def draw(state: CarcassonneState, name: str) -> None:
    assert state.is_chance_node()
    state.apply_action(state.game.tile_names.index(name))


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
    state.followers[(1, 0)] = 0
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
            assert state.supply[seat] + sum(1 for s in state.followers.values() if s == seat) == 7
        assert len(state.board) + sum(state.set_aside) == g.R + 1
        again = oracle.play_random(g, seed)
        assert again.history() == state.history()


def test_conformance_suite_on_a_short_game() -> None:
    report = run_conformance(oracle.make("carcassonne(tiles=A1B1C1E2L1U2V1,strategic=true)"), seeds=[1])
    assert report.games == 1 and report.terminal == 1


# ----- the expansions (§11): Inns & Cathedrals, Traders & Builders -----
#
# The quoted sentences are the game-help page's (shared/rules/bga_carcassonne.txt). The expansions' tiles are
# always all in the pile (interp. 11.7), so the positions below cut the pile down with ``keep`` to reach the
# end quickly (a test position, as ``put`` is).

IC = {"inns_cathedrals": True}
TB = {"traders_builders": True}
BOTH = {"inns_cathedrals": True, "traders_builders": True}


def keep(state: CarcassonneState, **counts: int) -> None:
    """Leave only these tiles in the pile, the others set aside (a test position, still one that
    deserializes: every tile is accounted for)."""
    for t, name in enumerate(state.game.tile_names):
        left = counts.get(name, 0)
        assert state.pile[t] >= left
        state.set_aside[t] += state.pile[t] - left
        state.pile[t] = left


def figure(state: CarcassonneState, kind: str, slot: int, k: int, seat: int) -> None:
    """Put an expansion figure on the board directly (a test position)."""
    figures, supply = state._figures(kind)
    assert all(
        s != slot for other in ("follower", "large", "builder", "pig") for s, _ in state._figures(other)[0]
    )
    figures[(slot, k)] = seat
    supply[seat] -= 1


def play(state: CarcassonneState, *moves: str) -> None:
    for move in moves:
        state.apply_action(state.string_to_action(move))


def legal_texts(state: CarcassonneState) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def test_sizes_with_the_expansions() -> None:
    """§11.5: num_distinct_actions() = P + 1 + K + T + K (I&C) + 2K (T&B); §11.6 the observation size."""
    for params, blocks in ((IC, 1), (TB, 2), (BOTH, 3)):
        g = game(**params)
        assert g.num_distinct_actions() == g.P + 1 + 12 + g.T + 12 * blocks
        assert g.max_game_length() == 4 * g.R
        n = g.players
        e = (1 if "inns_cathedrals" in params else 0) + (2 if "traders_builders" in params else 0)
        extra = (n if "inns_cathedrals" in params else 0) + (5 * n + 2 if "traders_builders" in params else 0)
        assert g.observation_shape() == ((g.R + 1) * (7 + g.T + 12 + n + e) + 4 * n + 6 + 4 * g.T + extra,)
        assert g.new_initial_state().observation_tensor(0).shape == g.observation_shape()
    ic, tb, both = game(**IC), game(**TB), game(**BOTH)
    assert ic.LARGE == ic.SELECT + ic.T and ic.BUILDER == -1
    assert tb.BUILDER == tb.SELECT + tb.T and tb.PIG == tb.BUILDER + 12
    assert both.LARGE == both.SELECT + both.T and both.BUILDER == both.LARGE + 12


def test_an_inn_on_a_completed_road_scores_2_per_tile() -> None:
    """Page: "If a road is completed with one or more inns, each tile scores 2 points instead of 1." """
    state = game(**IC, tiles="L2").new_initial_state()
    put(state, "L", 1, 0, 0)  # a junction east of D
    put(state, "ic_rfr_i", -1, 0, 0)  # a straight road with an inn west of D
    follow(state, 0, 1, 0)  # seat 0 on D's road
    draw(state, "L")
    play(state, "place -2,0 r0", "no follower")  # the second junction closes L - D - inn - L
    assert state.scores() == [8.0, 0.0]  # 4 tiles x 2
    assert state.supply == [7, 7]


def test_an_inn_on_an_unfinished_road_scores_nothing_at_the_end() -> None:
    """Page: "However, an incompleted road with inns in the end does not score any points." """
    for west, points in (("ic_rfr_i", 0.0), ("U", 3.0)):  # the same road without its inn scores 3
        state = game(**IC, tiles="U2").new_initial_state()
        put(state, west, -1, 0, 0)
        follow(state, 0, 1, 0)  # seat 0 on D's road, which runs through the inn
        keep(state, U=1)
        draw(state, "U")
        play(state, "place 1,0 r0", "no follower")
        assert state.is_terminal()
        assert state.scores() == [points, 0.0]


def _cathedral_city(state: CarcassonneState, centre: str = "ic_cccc_c") -> None:
    """D's city joined by the cathedral tile above it, closed on two of its three open sides."""
    put(state, centre, 0, 1, 0)
    put(state, "E", 0, 2, 2)  # city facing south
    put(state, "E", 1, 1, 3)  # city facing west
    follow(state, 0, 0, 0)  # seat 0 on D's city


def test_a_completed_cathedral_city_scores_3_per_tile_and_pennant() -> None:
    """Page: "If a city is completed with one or more cathedrals. each tile and cost of arms scores 3 points
    instead of 2." """
    state = game(**IC, tiles="E3").new_initial_state()
    _cathedral_city(state)
    draw(state, "E")
    play(state, "place -1,1 r90", "no follower")  # the last side: 5 tiles
    assert state.scores() == [15.0, 0.0]
    assert state.supply == [7, 7]
    # A coat of arms scores 3 too: M (city N and W, a pennant) on the east side, closed by a fourth E.
    state = game(**IC, tiles="E3M1").new_initial_state()
    put(state, "ic_cccc_c", 0, 1, 0)
    put(state, "E", 0, 2, 2)  # city facing south
    put(state, "E", -1, 1, 1)  # city facing east
    put(state, "M", 1, 1, 0)  # its west city meets the cathedral, its north one stays open
    follow(state, 0, 0, 0)
    draw(state, "E")
    play(state, "place 1,2 r180", "no follower")
    assert state.scores() == [21.0, 0.0]  # 6 tiles + 1 pennant, x 3


def test_an_unfinished_cathedral_city_scores_nothing_at_the_end() -> None:
    """Page: "However, an incompleted city with cathedrals in the end does not score any points." """
    # C, the base game's four-sided city (with a pennant), in the cathedral's place scores 4 tiles + 1.
    for centre, points in (("ic_cccc_c", 0.0), ("C", 5.0)):
        state = game(**IC, tiles="C1E3U1").new_initial_state()
        _cathedral_city(state, centre)
        keep(state, U=1)
        draw(state, "U")
        play(state, "place 1,0 r0", "no follower")
        assert state.is_terminal()
        assert state.scores() == [points, 0.0]


def test_a_large_follower_breaks_a_tie_in_a_city() -> None:
    """Page: "A large meeple is worth 2 meeples instead of 1." One follower each would share the city; the
    large follower takes it alone, and returns to its supply with the other."""
    g = game(**IC, tiles="E1F1")
    state = g.new_initial_state()
    figure(state, "large", 0, 0, 0)  # seat 0's large follower on D's city
    e = put(state, "E", 0, 2, 2)
    follow(state, e, 0, 1)  # seat 1 on a separate city facing south
    draw(state, "F")
    play(state, "place 0,1 r90")
    assert "large city N" not in legal_texts(state) and "follower city N" not in legal_texts(state)
    play(state, "no follower")  # F joins and closes both cities: 3 tiles + 1 pennant
    assert state.scores() == [8.0, 0.0]
    assert state.large_supply == [1, 1] and state.supply == [7, 7] and state.large == {}


def test_a_large_follower_breaks_a_tie_in_a_field() -> None:
    """Facts §1.4 / interp. 11.6: the large meeple "counts as 2, also in fields"."""
    g = game(**IC, tiles="E1U2")
    state = g.new_initial_state()
    east = put(state, "U", 1, 0, 0)
    follow(state, 0, 2, 1)  # seat 1's farmer on D's north field
    figure(state, "large", east, 1, 0)  # seat 0's large farmer on the same field (U's north field joins it)
    keep(state, E=1)
    draw(state, "E")
    play(state, "place 0,1 r180", "no follower")  # closes D's city, which the field touches
    assert state.is_terminal()
    assert state.scores() == [3.0, 0.0]


def test_goods_go_to_the_seat_completing_the_city_without_a_follower() -> None:
    """Page: "The person who finishes a city with goods collects the goods in the city." Seat 1's follower
    takes the points; seat 0, who places the closing tile with no follower there, takes the wine."""
    state = game(**TB, tiles="E1").new_initial_state()
    wine = put(state, "tb_cfc_w", 0, 1, 1)  # its city (wine) runs north-south onto D's city
    follow(state, wine, 0, 1)
    draw(state, "E")
    play(state, "place 0,2 r180", "no follower")
    assert state.scores() == [0.0, 6.0]  # 3 tiles
    assert state.goods == [[1, 0, 0], [0, 0, 0]]
    obj = json.loads(state.serialize())
    assert obj["goods"] == [[1, 0, 0], [0, 0, 0]]


def test_goods_majorities_at_the_end_with_a_tie() -> None:
    """Page: "At the end of the game, the player with the most goods token of a type scores 10 points. If
    multiple players tie, all get the full points." """
    state = game(**TB, players=3, tiles="U1").new_initial_state()
    state.goods = [[2, 1, 0], [2, 0, 0], [1, 0, 0]]  # wine tied 2-2, grain to seat 0, no cloth
    keep(state, U=1)
    draw(state, "U")
    play(state, "place 1,0 r0", "no follower")
    assert state.is_terminal()
    assert state.scores() == [20.0, 10.0, 0.0]


def test_the_builder_s_placement_conditions() -> None:
    """Page: "It can be placed on a road or city with at least one of your meeples." """
    g = game(**BOTH, tiles="U1")

    def after_u(setup: str) -> list[str]:
        state = g.new_initial_state()
        if setup == "own":
            follow(state, 0, 1, 0)  # seat 0 on D's road
        elif setup == "other":
            follow(state, 0, 1, 1)  # seat 1 on D's road
        elif setup == "large":
            figure(state, "large", 0, 1, 0)  # seat 0's large follower on D's road
        elif setup == "none in supply":
            follow(state, 0, 1, 0)
            state.builder_supply[0] = 0
        draw(state, "U")
        play(state, "place 1,0 r0")
        return [text for text in legal_texts(state) if text.startswith("builder")]

    assert after_u("own") == ["builder road E"]  # the road, not U's fields
    assert after_u("large") == ["builder road E"]  # a large follower is one of your meeples
    assert after_u("other") == []
    assert after_u("free") == []
    assert after_u("none in supply") == []
    # A city: seat 0's follower on D's city, E placed on it (completing it: the builder returns at once).
    state = game(**BOTH, tiles="E1U1").new_initial_state()
    follow(state, 0, 0, 0)
    keep(state, E=1, U=1)
    draw(state, "E")
    play(state, "place 0,1 r180")
    assert "builder city S" in legal_texts(state)
    play(state, "builder city S")
    assert state.builder_supply == [1, 1] and state.builders == {}  # scored with the city, back at once
    assert state.scores() == [4.0, 0.0]


def test_the_builder_gives_a_second_tile_and_never_a_third() -> None:
    """Page: "If you continue the feature with your builder on it, you get a double turn." (§11.3: once per
    turn, never for a second tile.)"""
    g = game(**TB, tiles="U5V1")
    state = g.new_initial_state()
    follow(state, 0, 1, 0)  # seat 0 on D's road
    u = put(state, "U", 1, 0, 0)
    figure(state, "builder", u, 0, 0)  # and its builder on the same road
    keep(state, U=4, V=1)
    # A tile away from the builder's road: no second tile.
    draw(state, "V")
    play(state, "place 0,-1 r0")
    assert not state.again
    play(state, "no follower")
    assert state.current == 1 and not state.bonus
    # Seat 1 extends seat 0's road: only the builder's owner gets the second tile.
    draw(state, "U")
    play(state, "place 2,0 r0")
    assert not state.again
    play(state, "no follower")
    assert state.current == 0
    # Seat 0 extends its road: a second tile.
    draw(state, "U")
    play(state, "place 3,0 r0")
    assert state.again and not state.bonus
    assert state.observation_tensor(0)[-1] == 1.0  # again, the last value (§11.6)
    play(state, "no follower")
    assert state.phase == "draw" and state.current == 0 and state.bonus and not state.again
    assert state.observation_tensor(1)[-2] == 1.0  # bonus
    # The second tile extends the road again: no third.
    draw(state, "U")
    play(state, "place 4,0 r0")
    assert not state.again
    play(state, "no follower")
    assert state.current == 1 and not state.bonus and state.phase == "draw"


def test_no_second_tile_once_the_pile_is_empty() -> None:
    """§11.3: the second tile is taken "unless the game has ended (empty pile ...)"."""
    state = game(**TB, tiles="U2").new_initial_state()
    follow(state, 0, 1, 0)
    u = put(state, "U", 1, 0, 0)
    figure(state, "builder", u, 0, 0)
    keep(state, U=1)
    draw(state, "U")
    play(state, "place 2,0 r0")
    assert state.again
    play(state, "no follower")
    assert state.is_terminal() and not state.bonus and not state.again


def test_a_second_tile_in_the_strategic_variant_is_a_whole_land_turn() -> None:
    """§11.3: "one more turn (the same steps, §4.1 1-4, or the strategic land turn of §4.3)": the seat draws
    into its hand and selects again."""
    g = game(**TB, strategic=True, tiles="U9")
    state = g.new_initial_state()
    follow(state, 0, 1, 0)
    u = put(state, "U", 1, 0, 0)
    figure(state, "builder", u, 0, 0)
    keep(state, U=8)
    for _ in range(6):
        draw(state, "U")  # the deal: three each
    draw(state, "U")  # seat 0's land draw
    play(state, "tile U", "place 2,0 r0", "no follower")
    assert state.phase == "draw" and state.current == 0 and state.bonus
    draw(state, "U")
    assert state.phase == "select" and sum(state.hands[0]) == 4
    play(state, "tile U", "place 3,0 r0")
    assert not state.again  # never a third
    play(state, "no follower")
    assert state.current == 1 and not state.bonus


def test_a_pig_scores_4_per_city_for_its_winning_owner() -> None:
    """Page: "It can be placed on a field with your farmer. The pig scores 1 point for each completed city in
    the field." The farmers tie 1-1 (the pig does not count in the majority): both win the field, seat 0
    with its pig scores 4, seat 1 scores 3."""
    g = game(**TB, tiles="E1U2")
    state = g.new_initial_state()
    follow(state, 0, 2, 0)  # seat 0's farmer on D's north field
    west = put(state, "U", -1, 0, 0)
    follow(state, west, 1, 1)  # seat 1's farmer on the same field
    keep(state, E=1, U=1)
    draw(state, "U")
    play(state, "place 1,0 r0")
    assert "pig field NL" in legal_texts(state)  # U's north field joins D's, with seat 0's farmer
    assert "pig field ER" not in legal_texts(state)  # the south field holds no farmer of seat 0
    play(state, "pig field NL")
    assert state.pigs == {(2, 1): 0} and state.pig_supply == [0, 1]
    draw(state, "E")
    play(state, "place 0,1 r180", "no follower")  # closes D's city, the field's one city
    assert state.is_terminal()
    assert state.scores() == [4.0, 3.0]
    assert state.pigs == {(2, 1): 0}  # never leaves the board


def test_an_inner_farm_is_a_field_of_its_tile_touching_its_cities() -> None:
    """§2: a field whose halves are empty "is on no edge, never joins another tile's field, can hold a
    farmer, and counts the cities it touches" (interp. 11.8)."""
    g = game(**IC, tiles="E1")
    state = g.new_initial_state()
    put(state, "E", 0, 2, 2)  # a city facing south, two cells above D
    keep(state, ic_cccc=1)
    draw(state, "ic_cccc")
    play(state, "place 0,1 r0")  # four cities; its south one closes with D's, its north one with E's
    slot = len(state.board) - 1
    assert state.component(slot, 4) == ({(slot, 4)}, False)
    # §11.5: no half to name, so no <where>, as for a cloister
    assert state.action_to_string(g.FOLLOWER + 4) == "follower field"
    assert "follower field" in legal_texts(state) and "large field" in legal_texts(state)
    assert state.string_to_action("follower field") == g.FOLLOWER + 4
    assert state.string_to_action("follower #4") == g.FOLLOWER + 4
    with pytest.raises(InvalidNotationError):
        state.string_to_action("follower field NL")
    play(state, "follower field")
    assert state.is_terminal()
    assert state.scores() == [6.0, 0.0]  # two completed cities touched; the cities had no follower


def test_six_players_with_inns_and_cathedrals() -> None:
    """§11.2 "Players 2..6" (a 6th colour in the box, facts §1.4); without the expansion 2..5."""
    with pytest.raises(InvalidStateError):
        game(players=6)
    with pytest.raises(InvalidStateError):
        game(players=7, **IC)
    with pytest.raises(InvalidStateError):
        game(players=6, **TB)
    g = game(players=6, **IC)
    assert g.params == {
        "inns_cathedrals": True,
        "players": 6,
        "river": False,
        "strategic": False,
        "tiles": "standard",
    }
    state = g.new_initial_state()
    assert state.supply == [7] * 6 and state.large_supply == [1] * 6
    seats = []
    rng = Rng(3)
    while len(seats) < 8:
        if state.current_player() == CHANCE:
            seats.append(state.current)
        oracle.random_step(state, rng)
    assert seats[:7] == [0, 1, 2, 3, 4, 5, 0]
    final = oracle.play_random(g, 1)
    assert final.is_terminal() and len(final.returns()) == 6


def test_the_follower_step_options() -> None:
    """§11.4: no follower; follower k and large k on a free feature; builder k on a road or city with the
    seat's follower; pig k on a field with the seat's farmer. One of them is chosen."""
    g = game(**BOTH, tiles="U3")
    state = g.new_initial_state()
    follow(state, 0, 1, 0)  # seat 0 on D's road
    west = put(state, "U", -1, 0, 0)
    follow(state, west, 2, 0)  # seat 0's farmer on the south field, which D's south field joins
    keep(state, U=2)
    draw(state, "U")
    play(state, "place 1,0 r0")
    # U: road 0 (joins seat 0's road), north field 1 (free), south field 2 (seat 0's farmer).
    assert state.legal_actions() == [
        g.NO_FOLLOWER,
        g.FOLLOWER + 1,
        g.LARGE + 1,
        g.BUILDER + 0,
        g.PIG + 2,
    ]
    assert legal_texts(state) == [
        "no follower",
        "follower field NL",
        "large field NL",
        "builder road E",
        "pig field ER",
    ]
    probe = state.clone()
    probe.large_supply[0] = 0
    assert "large field NL" not in legal_texts(probe)  # only with the large follower in the supply
    play(state, "large field NL")
    assert state.large == {(2, 1): 0} and state.large_supply == [0, 1] and state.supply == [5, 7]
    assert state.current == 1 and state.phase == "draw"
    # Seat 1 may use its own large follower; seat 0's is on the board.
    draw(state, "U")
    play(state, "place 2,0 r0")
    assert "large field ER" not in legal_texts(state)  # D's south field holds seat 0's farmer
    assert "large field NL" not in legal_texts(state)  # joins seat 0's large farmer's field
    assert legal_texts(state) == ["no follower"]


def test_the_expansions_notation_round_trips() -> None:
    """§11.5: `large <kind> <where>` / `large #<k>`, `builder ...`, `pig field <where>` / `pig #<k>`; read
    relaxed, `large` only with I&C, `builder`/`pig` only with T&B; the expansions' tile names."""
    g = game(**BOTH)
    state = g.new_initial_state()
    assert state.action_to_string(g.tile_names.index("tb_ccrr_w")) == "draw tb_ccrr_w"
    assert state.string_to_action("DRAW ic_cccc_c") == g.tile_names.index("ic_cccc_c")
    draw(state, "U")
    assert state.action_to_string(g.LARGE + 3) == "large #3"  # not the follower phase
    assert state.string_to_action("large #3") == g.LARGE + 3
    assert state.string_to_action(" Builder  #0 ") == g.BUILDER
    assert state.string_to_action("pig #11") == g.PIG + 11
    assert state.string_to_action(f"tile {TILE_NAMES[40]}") == g.SELECT + 40
    for bad in ("large #12", "pig city N", "builder", "large road E"):
        with pytest.raises(InvalidNotationError):
            state.string_to_action(bad)
    play(state, "place 1,0 r0")
    assert state.action_to_string(g.BUILDER + 0) == "builder road E"
    assert state.string_to_action("builder road w") == g.BUILDER + 0
    assert state.action_to_string(g.PIG + 2) == "pig field ER"
    assert state.string_to_action("pig field SL") == g.PIG + 2
    assert state.action_to_string(g.PIG + 0) == "pig road E"  # never legal, but named as a follower's
    assert state.action_to_string(g.LARGE + 7) == "large #7"  # not a feature of U
    for a in range(g.NO_FOLLOWER, g.num_distinct_actions()):
        assert state.string_to_action(state.action_to_string(a)) == a
    # Without the expansion its words are not notation.
    for params, bad in ((TB, "large #0"), (IC, "builder #0"), (IC, "pig #0"), ({}, "large #0")):
        other = game(**params).new_initial_state()
        draw(other, "U")
        with pytest.raises(InvalidNotationError):
            other.string_to_action(bad)
    with pytest.raises(InvalidNotationError):
        game().new_initial_state().string_to_action("draw ic_cccc_c")
    # Along whole random games.
    for params in ({**BOTH, "tiles": "E1U1"}, {**TB, "river": True, "strategic": True, "tiles": "V1"}):
        g = game(**params)
        state = g.new_initial_state()
        rng = Rng(4)
        while not state.is_terminal():
            for a in state.legal_actions():
                assert state.string_to_action(state.action_to_string(a)) == a
            oracle.random_step(state, rng)


def test_the_expansions_serialization_keys() -> None:
    """§11.7: the extra keys present exactly when the expansion is enabled; `params` has the booleans."""
    base = set(json.loads(game().new_initial_state().serialize()))
    ic = json.loads(game(**IC).new_initial_state().serialize())
    tb = json.loads(game(**TB).new_initial_state().serialize())
    both = json.loads(game(**BOTH, players=3).new_initial_state().serialize())
    assert set(ic) - base == {"large", "large_supply"}
    assert set(tb) - base == {"builders", "pigs", "builder_supply", "pig_supply", "goods", "bonus", "again"}
    assert set(both) - base == (set(ic) | set(tb)) - base
    assert ic["params"] == {
        "inns_cathedrals": True,
        "players": 2,
        "river": False,
        "strategic": False,
        "tiles": "standard",
    }
    assert both["params"]["traders_builders"] is True and both["params"]["inns_cathedrals"] is True
    assert both["large"] == [] and both["large_supply"] == [1, 1, 1]
    assert both["builder_supply"] == [1, 1, 1] and both["pig_supply"] == [1, 1, 1]
    assert both["goods"] == [[0, 0, 0]] * 3 and both["bonus"] is False and both["again"] is False
    assert len(both["pile"]) == 75 and len(tb["pile"]) == 58
    g, obj = _expansion_position()
    assert obj["followers"] == [[0, 1, 0], [2, 1, 1]]
    assert obj["large"] == [[3, 2, 0]] and obj["builders"] == [[1, 0, 0]] and obj["pigs"] == [[4, 2, 0]]
    assert obj["large_supply"] == [0, 1] and obj["builder_supply"] == [0, 1] and obj["pig_supply"] == [0, 1]
    text = json.dumps(obj, sort_keys=True, separators=(",", ":"))
    assert g.deserialize_state(text).serialize() == text


def test_the_expansions_serialization_round_trips_along_random_games() -> None:
    for params in (
        {**BOTH, "players": 3, "tiles": "E1"},
        {**TB, "river": True, "strategic": True, "tiles": "V1"},
    ):
        g = game(**params)
        state = g.new_initial_state()
        rng = Rng(6)
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


def test_the_expansions_observation_values() -> None:
    """§11.6: per slot, after the §8.1 values, large (I&C), builder, pig (T&B); globally, large followers,
    builders, pigs in supply, goods seat by seat, bonus, again (relative to the observer)."""
    g, obj = _expansion_position()
    state = g.deserialize_state(json.dumps(obj))
    state.goods = [[1, 2, 3], [4, 5, 6]]
    n, T = 2, g.T
    size = g.slot_size()
    tensor = state.observation_tensor(1)
    board = tensor[: (g.R + 1) * size].reshape(g.R + 1, size)
    flags = 7 + T + 12 + n
    assert list(board[3, flags : flags + 3]) == [1, 0, 0]  # seat 0's large follower
    assert list(board[1, flags : flags + 3]) == [0, 1, 0]  # seat 0's builder
    assert list(board[4, flags : flags + 3]) == [0, 0, 1]  # seat 0's pig
    assert list(board[0, flags : flags + 3]) == [0, 0, 0]  # a normal follower
    assert board[4, 7 + T + 2] == 1 and board[4, 7 + T + 12 + 1] == 1  # the pig's feature, owner (relative)
    tail = list(tensor[-(n + 5 * n + 2) :])
    assert tail == [1, 0, 1, 0, 1, 0, 4, 5, 6, 1, 2, 3, 0, 0]  # seat 1 first


def _expansion_position() -> tuple[CarcassonneGame, dict[str, object]]:
    """Both expansions, by play: seat 0's follower on D's road and builder on U's; seat 1's farmer; seat 0's
    large farmer on the south field, a second tile, its pig beside the large farmer. Phase draw, seat 1."""
    g = game(**BOTH, tiles="U5")
    state = g.new_initial_state()
    keep(state, U=5)
    follow(state, 0, 1, 0)  # seat 0 on D's road
    draw(state, "U")
    play(state, "place 1,0 r0", "builder road E")  # slot 1
    draw(state, "U")
    play(state, "place -1,0 r0", "follower field NL")  # slot 2, seat 1
    draw(state, "U")
    play(state, "place 2,0 r0")  # slot 3 extends seat 0's road: a second tile
    assert state.again
    play(state, "large field ER")
    assert state.bonus and state.current == 0
    draw(state, "U")
    play(state, "place 3,0 r0", "pig field ER")  # slot 4
    assert state.current == 1 and state.phase == "draw"
    return g, json.loads(state.serialize())


def _completed_city_position(phase: str) -> tuple[CarcassonneGame, dict[str, object]]:
    """D's city closed by E (slot 1), seat 0's follower on it; in phase follower (E just placed, not scored
    yet) or phase draw (a test position: the follower should have gone home)."""
    g = game(**BOTH, tiles="E1U1")
    state = g.new_initial_state()
    follow(state, 0, 0, 0)
    draw(state, "E")
    play(state, "place 0,1 r180")
    obj = json.loads(state.serialize())
    if phase == "draw":
        obj["phase"] = "draw"
    return g, obj


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda o: {"pigs": [[1, 2, 0]]}, "two figures"),  # with the builder on slot 1
        (lambda o: {"large": [[3, 9, 0]]}, "not a feature"),
        (lambda o: {"builders": [[1, 1, 0]]}, "not a road or city"),
        (lambda o: {"pigs": [[4, 0, 0]]}, "not a field"),
        (lambda o: {"large_supply": [1, 1]}, "supply of large"),
        (lambda o: {"builder_supply": [0, 0]}, "supply of builders"),
        (lambda o: {"pig_supply": [0, 0]}, "supply of pigs"),
        (
            lambda o: {
                "large": [[3, 2, 0], [4, 2, 0]],
                "pigs": [],
                "pig_supply": [1, 1],
                "large_supply": [-1, 1],
            },
            "more than 1 large",
        ),  # READING: as an eighth follower is refused
        (
            lambda o: {"followers": [[0, 1, 1], [2, 1, 1]], "supply": [7, 5]},
            "builder of seat 0 .* no follower",
        ),
        (lambda o: {"large": [[3, 2, 1]], "large_supply": [1, 0]}, "pig of seat 0 .* no follower"),
        (lambda o: {"goods": [[1, 0, 0], [0, 0, 0]]}, "more tokens than wine"),
        (lambda o: {"goods": [[0, 0, -1], [0, 0, 0]]}, "negative"),  # READING
        (lambda o: {"goods": [[0, 0, 0]]}, "goods must be"),
        (lambda o: {"again": True}, "again is set"),
        (lambda o: {"bonus": 1}, "must be a bool"),
        (lambda o: {"extra": 1}, "keys"),
    ],
)
def test_the_expansions_serialization_refusals(change: object, message: str) -> None:
    """§11.7's refusals, each on a position that is accepted unchanged."""
    g, obj = _expansion_position()
    g.deserialize_state(json.dumps(obj))
    assert callable(change)
    with pytest.raises(InvalidStateError, match=message):
        g.deserialize_state(_edited(obj, **change(obj)))


def test_the_expansions_serialization_refusals_on_completed_features() -> None:
    """§11.7: "a large follower on a completed city, road or cloister (as §9 for followers); a builder on a
    completed road or city (the same exception in phase follower)"."""
    for phase in ("follower", "draw"):
        g, obj = _completed_city_position(phase)
        large = _edited(obj, followers=[], supply=[7, 7], large=[[1, 0, 0]], large_supply=[0, 1])
        builder = _edited(obj, builders=[[1, 0, 0]], builder_supply=[0, 1])
        if phase == "follower":
            g.deserialize_state(large)
            g.deserialize_state(builder)
        else:
            with pytest.raises(InvalidStateError, match="large follower on a completed city"):
                g.deserialize_state(large)
            with pytest.raises(InvalidStateError, match="completed city"):
                g.deserialize_state(builder)


def test_the_expansions_serialization_refusals_of_bonus_and_again() -> None:
    """§11.7: "`again` true outside phase `follower`, or with `bonus` true; `bonus` true in phase `deal` or
    `over`"; and the keys of a disabled expansion."""
    g, obj = _completed_city_position("follower")
    g.deserialize_state(_edited(obj, again=True))
    g.deserialize_state(_edited(obj, bonus=True))
    with pytest.raises(InvalidStateError, match="again is set"):
        g.deserialize_state(_edited(obj, again=True, bonus=True))
    over = oracle.play_random(game(**TB, tiles="E1"), 2)
    assert isinstance(over, CarcassonneState)
    text = over.serialize()
    over.game.deserialize_state(text)
    with pytest.raises(InvalidStateError, match="bonus is set in phase over"):
        over.game.deserialize_state(_edited(json.loads(text), bonus=True))
    strategic = game(**TB, strategic=True)
    deal = json.loads(strategic.new_initial_state().serialize())
    assert deal["phase"] == "deal"
    with pytest.raises(InvalidStateError, match="bonus is set in phase deal"):
        strategic.deserialize_state(_edited(deal, bonus=True))
    # An I&C game refuses Traders & Builders keys, and the reverse.
    ic = json.loads(game(**IC).new_initial_state().serialize())
    with pytest.raises(InvalidStateError, match="keys"):
        game(**IC).deserialize_state(_edited(ic, goods=[[0, 0, 0], [0, 0, 0]]))
    tb = json.loads(game(**TB).new_initial_state().serialize())
    with pytest.raises(InvalidStateError, match="keys"):
        game(**TB).deserialize_state(_edited(tb, large=[]))
    del tb["again"]
    with pytest.raises(InvalidStateError, match="keys"):
        game(**TB).deserialize_state(json.dumps(tb))


@pytest.mark.parametrize(
    "params",
    [
        IC,
        {**TB, "players": 5},
        {**BOTH, "river": True},
        {**BOTH, "strategic": True, "players": 6},
        {**TB, "river": True, "strategic": True},
    ],
)
def test_whole_random_games_with_the_expansions(params: dict[str, object]) -> None:
    g = game(**params)
    state = oracle.play_random(g, 1)
    assert isinstance(state, CarcassonneState)
    assert state.is_terminal() and state.legal_actions() == []
    assert len(state.history()) <= g.max_game_length()
    assert len(state.board) + sum(state.set_aside) == g.R + 1
    assert not state.bonus and not state.again
    for seat in range(g.players):
        assert state.supply[seat] + sum(1 for s in state.followers.values() if s == seat) == 7
        if g.inns_cathedrals:
            assert state.large_supply[seat] + sum(1 for s in state.large.values() if s == seat) == 1
        if g.traders_builders:
            assert state.pig_supply[seat] + sum(1 for s in state.pigs.values() if s == seat) == 1
    assert oracle.play_random(g, 1).history() == state.history()
