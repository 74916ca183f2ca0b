"""Carcassonne: the game-help page's rules as scenarios on both engines (docs/rules/carcassonne.md).

Each test builds its position from the initial state by actions written in the notation of §7 (`draw E`,
`place 0,1 r180`, `follower city S`), mostly on short custom draw piles (the `tiles` parameter), so that the
end of the game comes quickly. Docstrings quote the page (or the facts) for the rule each test checks. The
``make`` fixture runs every test on the Rust core and on the oracle.
"""

from __future__ import annotations

import json
from importlib.resources import files

import pytest

import meeplex

GAME = "carcassonne"


def play(state, *moves: str):
    """Apply each move, given in notation, to ``state``; returns the state."""
    for move in moves:
        action = state.string_to_action(move)
        state.apply_action(action)
    return state


def snapshot(state) -> dict:
    return json.loads(state.serialize())


def legal_texts(state) -> set[str]:
    return {state.action_to_string(a) for a in state.legal_actions()}


# The tile table both engines read (§2): type ids are positions in its list.
TILE_NAMES = [
    t["name"] for t in json.loads((files("meeplex") / "data" / "carcassonne_tiles.json").read_text())["tiles"]
]


def type_id(name: str) -> int:
    return TILE_NAMES.index(name)


# --- placement ------------------------------------------------------------------------------------


def test_edges_must_match(make):
    """Page: "The new tile must be placed in a way that extends features on the tiles it touches: roads must
    connect to roads, fields to fields, and cities to cities." The start tile D shows a city on N, road E and
    W, field S: an E tile (city on its drawn N) above it must turn its city down."""
    state = play(make(GAME, tiles="E1U1").new_initial_state(), "draw E")
    legal = legal_texts(state)
    assert "place 0,1 r180" in legal  # city down onto D's city
    assert "place 0,1 r0" not in legal  # field onto D's city
    assert "place 1,0 r0" not in legal  # E's field W edge onto D's road
    assert "place 1,1 r0" not in legal  # not next to any tile
    assert "place 0,-1 r0" not in legal  # E's city up onto D's field
    assert "place 0,-1 r180" in legal  # E's city down, away from D
    with pytest.raises(meeplex.IllegalActionError):
        state.apply_action(state.string_to_action("place 0,1 r0"))
    assert state.action_to_string(state.legal_actions()[0]).startswith("place ")


def test_two_tile_city_scores_four(make):
    """Facts 1.3: "small (2-tile) city … scores like any other city (4 pts) in current rules"; page: "City …
    2 points per tile + 2 points per pennant", and "all meeples in the completed feature are returned"."""
    state = play(make(GAME, tiles="E1U1").new_initial_state(), "draw E", "place 0,1 r180")
    assert "follower city S" in legal_texts(state)
    play(state, "follower city S")
    assert state.scores() == [4.0, 0.0]
    assert snapshot(state)["supply"] == [7, 7]  # the knight came straight back


def test_pennant_city_completed_by_another_player(make):
    """Page: "When a feature other than a field is completed, all meeples in the completed feature are
    returned … The player(s) with the most meeples in the feature score points immediately": seat 1 closes
    seat 0's city D + F + E, which has one pennant: 2 x 3 + 2 = 8 to seat 0."""
    state = play(
        make(GAME, tiles="E1F1U1").new_initial_state(),
        "draw F",
        "place 0,1 r90",
        "follower city N",
    )
    assert snapshot(state)["supply"] == [6, 7]
    play(state, "draw E", "place 0,2 r180", "no follower")
    assert state.scores() == [8.0, 0.0]
    assert snapshot(state)["supply"] == [7, 7]


def test_incomplete_pennant_city_at_the_end(make):
    """Page table, game end: "City … 1 point per tile + 1 point per pennant": D + F open at the end is 3."""
    state = play(
        make(GAME, tiles="F1U1").new_initial_state(),
        "draw F",
        "place 0,1 r90",
        "follower city N",
        "draw U",
        "place 1,0 r0",
        "no follower",
    )
    assert state.is_terminal()
    assert state.scores() == [3.0, 0.0]
    assert state.returns() == [1.0, 0.0]


def shared_city(make):
    """Two knights of different seats in two cities that the fifth tile (R turned 180) joins and closes."""
    return play(
        make(GAME, tiles="E2R1U2").new_initial_state(),
        "draw U",
        "place 1,0 r0",
        "no follower",
        "draw U",
        "place -1,0 r0",
        "no follower",
        "draw E",
        "place 1,1 r270",
        "follower city W",
        "draw E",
        "place -1,1 r90",
        "follower city E",
        "draw R",
        "place 0,1 r180",
    )


def test_follower_refused_on_claimed_joined_city(make):
    """Page: "The placing player may not use a follower to claim any features of the tile that extend or
    connect features already claimed by another player." R joins both claimed cities: no knight on it, but
    its field is free."""
    state = shared_city(make)
    legal = legal_texts(state)
    assert "follower city E" not in legal and "follower city S" not in legal
    assert "no follower" in legal
    assert "follower field NL" in legal
    with pytest.raises(meeplex.IllegalActionError):
        state.apply_action(state.string_to_action("follower city S"))


def test_shared_city_scores_in_full_for_both(make):
    """Page: "it is possible for terrain features claimed by opposing players to become "shared" … If there
    is a tie for the most followers in any given feature, all of the tied players are awarded the full number
    of points." The joined city is D, E, E, R: 4 tiles, no pennant, 8 points to each seat."""
    state = play(shared_city(make), "no follower")
    assert state.scores() == [8.0, 8.0]
    assert snapshot(state)["supply"] == [7, 7]


# --- cloisters ------------------------------------------------------------------------------------

CLOISTER_RING = [
    ("B", "0,-1", "follower cloister"),
    ("U", "1,0", "no follower"),
    ("U", "-1,0", "no follower"),
    ("B", "1,-1", "no follower"),
    ("B", "-1,-1", "no follower"),
    ("B", "-1,-2", "no follower"),
    ("B", "0,-2", "no follower"),
]


def test_cloister_completed_by_its_eighth_neighbour(make):
    """Page: "cloisters when surrounded by eight tiles"; facts 1.3: "complete when 8 neighbours present:
    9 pts" (the page's "Monastery" row omits the cloister itself, facts 1.5). The monk returns."""
    state = make(GAME, tiles="B6U2").new_initial_state()
    for tile, cell, follower in CLOISTER_RING:
        play(state, f"draw {tile}", f"place {cell} r0", follower)
    assert state.scores() == [0.0, 0.0]
    assert snapshot(state)["supply"] == [6, 7]
    play(state, "draw B", "place 1,-2 r0", "no follower")
    assert state.is_terminal()
    assert state.scores() == [9.0, 0.0]


def test_incomplete_cloister_at_the_end(make):
    """Page table, game end: "Cloister … 1 point + 1 point per surrounding tile": B below D has D, and the
    two U beside D diagonally: 1 + 3 = 4."""
    state = make(GAME, tiles="B1U2").new_initial_state()
    for tile, cell, follower in CLOISTER_RING[:3]:
        play(state, f"draw {tile}", f"place {cell} r0", follower)
    assert state.is_terminal()
    assert state.scores() == [4.0, 0.0]


# --- roads ----------------------------------------------------------------------------------------


def test_road_completed_between_two_cloisters(make):
    """Facts 1.3: "road complete: both ends closed (village/junction, city, cloister) … 1 pt/tile": D's road
    closed by an A (road ends at its cloister) on each side is 3 tiles, 3 points."""
    state = play(
        make(GAME, tiles="A2U1").new_initial_state(),
        "draw A",
        "place 1,0 r90",
        "follower road W",
        "draw A",
        "place -1,0 r270",
        "no follower",
    )
    assert state.scores() == [3.0, 0.0]
    assert snapshot(state)["supply"] == [7, 7]


# --- fields ---------------------------------------------------------------------------------------


def test_field_touching_two_completed_cities_and_one_open(make):
    """Page: "fields score based on the number of connected completed cities"; table: "3 points for each
    completed city bordering the field". Seat 1's farmer (on K) shares a field with D's north half, touching
    D's city (closed by E), K's city (closed by E) and E's open city at (2,0): 6 points."""
    state = play(
        make(GAME, tiles="E3K1").new_initial_state(),
        "draw E",
        "place 0,1 r180",
        "no follower",
        "draw K",
        "place 1,0 r0",
        "follower field EL",
        "draw E",
        "place 1,1 r180",
        "no follower",
        "draw E",
        "place 2,0 r0",
        "no follower",
    )
    assert state.is_terminal()
    assert state.scores() == [0.0, 6.0]


def test_tie_for_a_field(make):
    """Page: "two field tiles, each having a follower, can become connected by another terrain tile into a
    single field shared by each follower's player" and "all of the tied players are awarded the full number of
    points". A (road ending at its cloister) joins the fields north and south of D's road: both farmers share
    a field touching D's completed city, 3 points each."""
    state = play(
        make(GAME, tiles="A1E1U2").new_initial_state(),
        "draw U",
        "place 1,0 r0",
        "follower field NL",
        "draw U",
        "place -1,0 r0",
        "follower field ER",
        "draw E",
        "place 0,1 r180",
        "no follower",
        "draw A",
        "place 2,0 r90",
    )
    assert "follower field NL" not in legal_texts(state)  # the joined field is claimed
    play(state, "no follower")
    assert state.is_terminal()
    assert state.scores() == [3.0, 3.0]
    assert state.returns() == [0.5, 0.5]


def test_farmers_stay_on_the_board(make):
    """Facts 1.3: "farms (fields) scored only at game end; farmers stay on the board"."""
    state = play(
        make(GAME, tiles="E1U2").new_initial_state(),
        "draw U",
        "place 1,0 r0",
        "follower field NL",
        "draw E",
        "place 0,1 r180",
        "no follower",
    )
    assert snapshot(state)["supply"] == [6, 7]
    assert state.scores() == [0.0, 0.0]


# --- unplaceable tiles ----------------------------------------------------------------------------


def test_unplaceable_tile_set_aside_and_redrawn(make):
    """Facts 1.3: "unplaceable tile: return it to the box and draw another". After X east of D and W below it,
    every open edge is a road or a city, so a B (all field) fits nowhere."""
    state = play(
        make(GAME, tiles="B1E1W1X1").new_initial_state(),
        "draw X",
        "place 1,0 r0",
        "no follower",
        "draw W",
        "place 0,-1 r0",
        "no follower",
        "draw B",
    )
    assert state.is_chance_node()
    assert snapshot(state)["set_aside"][type_id("B")] == 1
    assert [a for a, _ in state.chance_weights()] == [type_id("E")]
    play(state, "draw E")
    assert state.current_player() == 0  # seat 0 still has its turn, with the new tile


def test_unplaceable_last_tile_ends_the_game(make):
    """docs/rules/carcassonne.md interpretation 7: the last tile set aside ends the game."""
    state = play(
        make(GAME, tiles="B1W1X1").new_initial_state(),
        "draw X",
        "place 1,0 r0",
        "no follower",
        "draw W",
        "place 0,-1 r0",
        "no follower",
        "draw B",
    )
    assert state.is_terminal()


# --- The River ------------------------------------------------------------------------------------


def test_river_turn_twice_the_same_way_refused(make):
    """Page: "The river starts from the source to the lake and cannot turn twice in the same direction." The
    first curve turns right (east to south); a second curve may then only turn left."""
    state = play(make(GAME, river=True, tiles="U1").new_initial_state(), "draw river_curve")
    legal = legal_texts(state)
    assert {"place 1,0 r0", "place 1,0 r90"} <= legal  # right or left
    play(state, "place 1,0 r0", "no follower", "draw river_curve")
    legal = legal_texts(state)
    assert "place 1,-1 r180" in legal  # entering from N, leaving E: a left turn
    assert "place 1,-1 r90" not in legal  # leaving W: a second right turn


def test_river_straight_does_not_reset_the_turn_rule(make):
    """docs/rules/carcassonne.md interpretation 4: straights between two curves do not count."""
    state = play(
        make(GAME, river=True, tiles="U1").new_initial_state(),
        "draw river_curve",
        "place 1,0 r0",
        "no follower",
        "draw river_straight",
        "place 1,-1 r90",
        "no follower",
        "draw river_curve",
    )
    legal = legal_texts(state)
    assert "place 1,-2 r180" in legal
    assert "place 1,-2 r90" not in legal


def test_river_must_continue_the_river(make):
    """Page: the river "starts from the source to the lake": a river tile continues the river's open end; a
    straight next to the spring's field edge (edges matching) is still refused."""
    state = play(make(GAME, river=True, tiles="U1").new_initial_state(), "draw river_straight")
    legal = legal_texts(state)
    assert legal == {"place 1,0 r0", "place 1,0 r180"}


def test_river_lake_comes_last(engine):
    """Facts 1.4: "River: spring first, lake last"; the land tiles come after."""
    game = engine(GAME, river=True)
    for seed in (1, 2):
        final = engine.play_random(game, seed)
        board = json.loads(final.serialize())["board"]
        names = [TILE_NAMES[t] for t, *_ in board]
        assert names[0] == "river_spring"
        assert names[11] == "river_lake"
        assert all(n.startswith("river_") for n in names[:12])
        assert not any(n.startswith("river_") for n in names[12:])


# --- the strategic variant ------------------------------------------------------------------------


def test_strategic_hands_are_dealt_hidden_and_chosen_from(make):
    """Page: "Each player has 3 tiles at the start. On each turn, a tile is drawn and added to the player's
    hand. They choose which one to place each time." A hand is hidden from the other seat."""
    game = make(GAME, strategic=True, tiles="A1B1E2U2V2")
    state = play(game.new_initial_state(), "draw E", "draw U", "draw V")
    other = play(game.new_initial_state(), "draw A", "draw B", "draw V")
    assert (state.observation_tensor(1) == other.observation_tensor(1)).all()
    assert (state.observation_tensor(0) != other.observation_tensor(0)).any()
    play(state, "draw E", "draw U", "draw V", "draw A")  # seat 1's hand, then seat 0's turn draw
    assert state.current_player() == 0
    assert legal_texts(state) == {"tile A", "tile E", "tile U", "tile V"}
    play(state, "tile A")
    assert all(t.startswith("place ") for t in legal_texts(state))


def test_strategic_replacements_are_checked_once_all_are_drawn(make):
    """§4.3: unplaceable tiles are set aside and replaced; "the check repeats once every replacement is
    drawn". Found by `meeplex fuzz` (the Rust core checked after each replacement): seat 1 sets its two B
    aside; the first replacement, a B again (no more placeable than the others), waits in the hand until the
    second replacement is drawn, and is set aside then (the board has not changed)."""
    state = make(GAME, strategic=True, tiles="B3C3W3X3").new_initial_state()
    history = [23, 22, 2, 1, 2, 23, 22, 2536, 1255, 2501, 23, 2536, 1153, 2505, 22, 2515, 1348, 2501, 1]
    for action in history:
        state.apply_action(action)
    snap = snapshot(state)
    assert (snap["to_draw"], snap["set_aside"][type_id("B")], snap["hands"][1][type_id("B")]) == (2, 2, 0)
    state.apply_action(state.string_to_action("draw B"))
    snap = snapshot(state)
    assert (snap["to_draw"], snap["set_aside"][type_id("B")], snap["hands"][1][type_id("B")]) == (1, 2, 1)
    assert state.is_chance_node()
    state.apply_action(state.chance_weights()[0][0])  # the last replacement: now the hand is checked
    snap = snapshot(state)
    assert snap["set_aside"][type_id("B")] == 3
    assert snap["hands"][1][type_id("B")] == 0
