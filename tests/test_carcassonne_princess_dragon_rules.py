"""The Princess and the Dragon (docs/rules/carcassonne.md §12) on both engines: each rule of the page's
section (quoted in the docstrings) and of the contract's readings, in positions reached by play.

Tiles by their names in ``python/meeplex/data/carcassonne_tiles.json``: base letters, and the expansion's
``pd_...`` types (``pd_f_v`` the all-field volcano, ``pd_c_d`` a one-edge city with the dragon, ``pd_rrr_g``
the road junction with the magic portal, ``pd_cc_p`` the two-edge city with the princess, ``pd_rfr_v`` /
``pd_rfr_d`` the straight road with a volcano / the dragon).
"""

from __future__ import annotations

import json

import pytest

from meeplex.errors import IllegalActionError, InvalidNotationError, InvalidStateError
from meeplex.games import carcassonne as carc
from test_blind_carcassonne import legal, place_and_check, supply, turn
from test_blind_carcassonne_expansions import edit, snap, start

PD = {"princess_dragon": True}


def act(state, text: str) -> None:
    state.apply_action(state.string_to_action(text))


def draws(state) -> set[str]:
    """The tile names a draw can give now."""
    return {state.action_to_string(a).removeprefix("draw ") for a, _ in state.chance_outcomes()}


def dragon_tiles(game) -> set[str]:
    table = {t["name"]: t for t in carc._TABLE}
    return {name for name in carc.tile_names(game) if table[name].get("dragon")}


def test_dragon_tiles_are_not_drawn_before_a_volcano(make):
    """§12.1 (facts §1.4 PROPOSAL, JCZ): "After the dragon appears, dragon tiles can be placed." Before any
    volcano the draw has no dragon tile among its outcomes; once one is placed, all twelve can come."""
    game, state = start(make, "U3", PD)
    dragons = dragon_tiles(game)
    assert len(dragons) == 11  # 12 tiles, pd_rr_d twice
    assert draws(state).isdisjoint(dragons)
    assert "pd_f_v" in draws(state)
    with pytest.raises(IllegalActionError):
        state.apply_action(state.string_to_action("draw pd_c_d"))
    turn(state, "pd_rfr_v", 1, 0, 0)
    assert dragons <= draws(state)


def test_only_dragon_tiles_left_are_drawn_and_move_nothing(make):
    """§12.1: when the land pile holds dragon tiles only and no volcano is on the board, they are drawn; a
    dragon tile with no dragon on the board has no dragon move (the turn goes on)."""
    game, state = start(make, "U1", PD, pile={"pd_rfr_d": 1})
    turn(state, "U", 1, 0, 0)
    assert draws(state) == {"pd_rfr_d"}
    turn(state, "pd_rfr_d", 2, 0, 0)
    assert state.is_terminal()
    assert snap(state)["dragon"] == -1


def test_the_volcano_brings_the_dragon_and_takes_no_meeple(make):
    """Page: "The volcano: The dragon appears on it. ... No meeples can be placed on a volcano tile." The
    dragon stands on the volcano's slot; only `no follower` (and the fairy, with a follower of one's own on
    the board) is offered."""
    game, state = start(make, "U3", PD)
    turn(state, "U", -1, 0, 0, "follower road E")
    act(state, "draw pd_rfr_v")
    act(state, "place 1,0 r0")
    assert not legal(state, "follower road E") and not legal(state, "follower field NL")
    assert state.legal_actions() == [state.string_to_action("no follower")]
    act(state, "no follower")
    assert snap(state)["dragon"] == 2


def _dragon_on_the_volcano(make, params=PD):
    """Seat 0's thief on the road through (-1,0); seat 1's volcano at (0,-1) (slot 2, the dragon there)."""
    game, state = start(make, "U3", params)
    turn(state, "U", -1, 0, 0, "follower road E")
    turn(state, "pd_f_v", 0, -1, 0)
    assert snap(state)["dragon"] == 2
    return game, state


def test_the_dragon_moves_after_the_follower_step_and_blocks_itself(make):
    """Page: "Dragon tiles: Each player take turns to move the dragon until the dragon moves 6 spaces or is
    unable to move. All figures on the spaces it visits returns to their owners without scoring." §12.3: the
    placer steps first, then the next seat; a visited tile (the start included) cannot be entered again; here
    the dragon is stuck after two steps and the move ends."""
    game, state = _dragon_on_the_volcano(make)
    # Seat 0 places a dragon tile at (-1,-1) (its north and east edges are fields) and a farmer on it.
    act(state, "draw pd_c_d")
    act(state, "place -1,-1 r180")
    act(state, "follower field NL")
    obj = snap(state)
    assert obj["phase"] == "dragon" and obj["current"] == 0 and obj["turn"] == 0
    assert obj["dragon_visited"] == [2]
    moves = {state.action_to_string(a) for a in state.legal_actions()}
    assert moves == {"dragon N", "dragon W"}  # (0,0) and the new tile; nothing east or south
    act(state, "dragon N")  # into D at (0,0): nothing there
    obj = snap(state)
    assert obj["current"] == 1 and obj["dragon_visited"] == [2, 0] and obj["dragon"] == 0
    assert {state.action_to_string(a) for a in state.legal_actions()} == {"dragon W"}
    act(state, "dragon W")  # into (-1,0): seat 0's thief goes home without scoring
    assert supply(state) == [6, 7]  # the farmer on the dragon tile is still out
    assert state.scores() == [0.0, 0.0]
    # From (-1,0) the only neighbour not yet visited is the dragon tile at (-1,-1): seat 0 must step there.
    assert {state.action_to_string(a) for a in state.legal_actions()} == {"dragon S"}
    act(state, "dragon S")  # its own farmer goes home
    # From (-1,-1): north and east visited, nothing west or south: the move ends after 3 steps.
    obj = snap(state)
    assert obj["phase"] == "draw" and obj["current"] == 1 and obj["dragon"] == 3
    assert obj["dragon_visited"] == []
    assert supply(state) == [7, 7]


def test_the_fairy_stops_the_dragon(make):
    """Page: "All figures on it are protected from the dragon." §12.3: the dragon cannot enter the fairy's
    tile. Seat 0 moves the fairy next to its thief at (-1,0); the dragon coming from D cannot go west."""
    game, state = _dragon_on_the_volcano(make)
    act(state, "draw U")
    act(state, "place 1,0 r0")
    assert legal(state, "fairy -1,0 road E")
    act(state, "fairy -1,0 road E")
    assert snap(state)["fairy"] == [1, 0]
    assert supply(state) == [6, 7]  # moving the fairy places no follower
    act(state, "draw pd_c_d")
    act(state, "place -1,-1 r180")
    act(state, "no follower")
    act(state, "dragon N")  # seat 1 into D
    assert {state.action_to_string(a) for a in state.legal_actions()} == {"dragon E"}  # not W: the fairy
    act(state, "dragon E")  # seat 0 into (1,0): empty
    assert supply(state) == [6, 7]


def test_the_fairy_pays_one_at_the_turn_start_three_at_scoring_and_then_nothing(make):
    """Page: "If it is still next to you at the start of your turn, you score 1 point. ... You score 3 points
    when any feature is scored if the fairy is next to one of your meeples." The road W(-2,0)-U-D-U-W(2,0)
    scores 5 for seat 0's thief, + 3 for the fairy; the thief goes home and the fairy, left on its tile, is
    next to nobody: no more points."""
    game, state = start(make, "B1U2W2", PD)
    turn(state, "U", -1, 0, 0, "follower road E")
    turn(state, "U", 1, 0, 0)
    place_and_check(state, "W", 2, 0, 0)
    assert not legal(state, "fairy 1,0 road E")  # no follower there
    assert not legal(state, "fairy 2,0 road W")  # the tile just placed holds nothing yet
    act(state, "fairy -1,0 road E")
    assert state.scores() == [0.0, 0.0]
    turn(state, "B", 0, -1, 0)  # seat 1's turn began: the fairy is not next to seat 1
    assert state.scores() == [1.0, 0.0]  # seat 0's turn has begun
    turn(state, "W", -2, 0, 0)
    assert state.scores() == [1.0 + 5 + 3, 0.0]
    assert snap(state)["fairy"] == [1, -1]
    assert supply(state) == [7, 7]
    turn(state, "pd_f_v", 0, -2, 0)  # seat 1
    assert state.scores() == [9.0, 0.0]


def test_the_fairy_pays_in_the_final_scoring_too(make):
    """§12.6, interpretation 5 (page: "You score 3 points when any feature is scored if the fairy is next to
    one of your meeples."): the final scoring is a scoring. Seat 0's thief on an open 4-tile road, the fairy
    moved next to it on the last turn: at the end, 4 for the road and 3 for the fairy (no turn begins after
    the last, so no 1)."""
    game, state = start(make, "U3", PD, pile={})
    turn(state, "U", -1, 0, 0, "follower road E")
    turn(state, "U", 1, 0, 0)
    turn(state, "U", 2, 0, 0, "fairy -1,0 road E")
    assert state.is_terminal()
    assert state.scores() == [7.0, 0.0]


def test_the_fairy_next_to_a_farmer_pays_for_a_field_worth_nothing(make):
    """§12.6: in the final scoring "a city, road, cloister or field with followers, whatever its points". Seat
    0's farmer north of the road touches no completed city (0 points); the fairy next to it still pays 3."""
    game, state = start(make, "U3", PD, pile={})
    turn(state, "U", -1, 0, 0, "follower field NL")  # seat 0
    turn(state, "U", 1, 0, 0)  # seat 1
    turn(state, "U", -2, 0, 0, "fairy -1,0 field NL")  # seat 0
    assert state.is_terminal()
    assert state.scores() == [3.0, 0.0]


def test_the_princess_returns_a_knight_of_either_seat(make):
    """Page: "The princess: Instead of placing a meeple, you can return a meeple in the city to his owner."
    Seat 0's knight in the city D-F; seat 1 extends it with the princess tile and sends the knight home (and
    places nothing); seat 0 could do the same to its own knight."""
    for placer in (1, 0):
        game, state = start(make, "F1U3", PD)
        turn(state, "F", 0, 1, 90, "follower city N")
        if placer == 0:
            turn(state, "U", 1, 0, 0)
        act(state, "draw pd_cc_p")
        act(state, "place 0,2 r180")
        assert not legal(state, "follower city S")  # the city is seat 0's
        assert legal(state, "princess 0,1 city N")
        relaxed = state.string_to_action("princess 0 , 1 CITY s")
        assert state.action_to_string(relaxed) == "princess 0,1 city N"
        act(state, "princess 0,1 city N")
        assert supply(state) == [7, 7]
        assert snap(state)["followers"] == []


def test_the_princess_needs_a_knight_in_her_city(make):
    """§12.4: with no follower in the princess's city there is no princess option."""
    game, state = start(make, "F1U3", PD)
    turn(state, "F", 0, 1, 90)
    act(state, "draw pd_cc_p")
    act(state, "place 0,2 r180")
    pr = carc.princess_action(game, 1, 0)
    assert pr not in state.legal_actions()
    assert legal(state, "follower city S")


def test_the_magic_portal_reaches_free_unfinished_features_of_earlier_tiles(make):
    """Page: "The magic portal: You can place a meeple on any previous placed tile instead on the tile you
    placed." §12.5: free and not complete; not on a volcano tile nor the dragon's. Then the dragon takes both
    figures of the tile it enters."""
    game, state = start(make, "E1U3", PD)
    turn(state, "U", -1, 0, 0, "follower road E")  # slot 1, seat 0's thief
    turn(state, "E", 0, 1, 180)  # slot 2: the city D-E is complete (nobody in it)
    turn(state, "pd_f_v", 0, -1, 0)  # slot 3: volcano, the dragon
    act(state, "draw pd_rrr_g")  # seat 1: the portal junction at (1,0), its west road joins the thief's
    act(state, "place 1,0 r0")
    assert not legal(state, "follower road W")  # claimed through D
    assert legal(state, "follower road E")  # its own free road
    assert not legal(state, "follower 0,0 city N")  # completed
    assert not legal(state, "follower -1,0 road E")  # claimed
    assert not legal(state, "follower 0,-1 field NL")  # the volcano, the dragon's tile
    assert legal(state, "follower -1,0 field NL")
    assert state.string_to_action("follower 1,0 road E") == state.string_to_action("follower road E")
    act(state, "follower -1,0 field NL")
    obj = snap(state)
    assert obj["followers"] == [[1, 0, 0], [1, 1, 1]]  # two figures on the slot-1 tile
    assert supply(state) == [6, 6]
    # Seat 0's dragon tile at (-1,-1); the dragon goes N to D (seat 0), W to (-1,0) (seat 1): both figures go.
    act(state, "draw pd_c_d")
    act(state, "place -1,-1 r180")
    act(state, "no follower")
    act(state, "dragon N")
    act(state, "dragon W")
    assert supply(state) == [7, 7]
    assert snap(state)["followers"] == []


def test_a_builder_left_alone_goes_home(make):
    """§12.7: the dragon takes seat 0's thief; its builder further along the road, alone now, goes home."""
    game, state = _dragon_on_the_volcano(make, {**PD, "traders_builders": True})
    turn(state, "U", -2, 0, 0, "builder road E")
    assert snap(state)["builder_supply"] == [0, 1]
    act(state, "draw pd_c_d")  # seat 1
    act(state, "place -1,-1 r180")
    act(state, "no follower")
    act(state, "dragon N")  # seat 1 into D
    act(state, "dragon W")  # seat 0 into (-1,0): its thief
    obj = snap(state)
    assert obj["builders"] == [] and obj["builder_supply"] == [1, 1]


def test_ids_sizes_and_notation(make):
    """§12.8, §12.9: the id blocks, the observation size, the text forms."""
    for params, players in ((PD, 2), ({**PD, "inns_cathedrals": True, "traders_builders": True}, 3)):
        game = make("carcassonne", players=players, **params)
        t = len(carc.tile_names(game))
        r = carc.window(game)
        s, k, n = r + 1, carc.K, players
        blocks = 4 if params.get("inns_cathedrals") else 3
        extra = carc._extra_ids(game)
        assert game.num_distinct_actions() == 4 * (2 * r + 1) ** 2 + 1 + k + t + extra + blocks * s * k + 4
        assert game.max_game_length() == 4 * r + 72
        e = (1 if params.get("inns_cathedrals") else 0) + (2 if params.get("traders_builders") else 0)
        g = (n if params.get("inns_cathedrals") else 0) + (5 * n + 2 if params.get("traders_builders") else 0)
        base = s * (7 + t + k + n + e) + 4 * n + 6 + 4 * t + g
        assert game.observation_shape() == (base + 3 * s + 3 + n + k + 6 * (3 + k + n),)
    standard = make("carcassonne", **PD)
    assert carc.window(standard) == 71 + 30 and len(carc.tile_names(standard)) == 34 + 29
    game, state = start(make, "U3", PD)
    assert carc.window(game) == 3 + 30
    with pytest.raises(InvalidNotationError):
        state.string_to_action("dragon N")  # a chance node reads draws only (§7)
    act(state, "draw U")
    for text in ("dragon n", " DRAGON  w "):
        a = state.string_to_action(text)
        assert state.action_to_string(a) == text.strip().split()[0].lower() + " " + text.split()[-1].upper()
    assert carc.dragon_action(game, "S") == state.string_to_action("dragon S")
    a = carc.fairy_action(game, 5, 2)
    assert state.action_to_string(a) == "fairy @5 #2"
    assert state.string_to_action("fairy @5 #2") == a
    with pytest.raises(InvalidNotationError):
        state.string_to_action("fairy 3,3 road E")  # no tile there
    with pytest.raises(InvalidNotationError):
        state.string_to_action("princess 0,0 cloister")  # D has no cloister
    base_game = make("carcassonne")
    with pytest.raises(InvalidNotationError):
        base_game.new_initial_state().string_to_action("dragon N")


def test_serialization_refuses_broken_dragon_and_fairy_facts(make):
    """§12.10: the extra keys round-trip; a broken one is an InvalidStateError and leaves nothing behind."""
    game, state = _dragon_on_the_volcano(make)
    again = game.deserialize_state(state.serialize())
    assert again.serialize() == state.serialize()
    assert snap(state)["fairy"] == [-1, -1] and snap(state)["turn"] == 0
    assert edit(game, state, dragon=0).serialize() != state.serialize()  # the dragon may stand on any tile
    for bad in (
        {"dragon": -1},  # a volcano is on the board
        {"fairy": [2, -1]},  # on the dragon's tile
        {"fairy": [1, 1]},  # next to a field with no follower
        {"dragon_visited": [2]},  # outside phase dragon
        {"turn": 1},  # != current outside phase dragon
        {"followers": [[1, 0, 0], [2, 0, 1]], "supply": [6, 6]},  # a figure on the volcano / dragon tile
    ):
        with pytest.raises(InvalidStateError):
            edit(game, state, **bad)
    no_pd = make("carcassonne", tiles="U3")
    obj = json.loads(no_pd.new_initial_state().serialize())
    obj["dragon"] = -1
    with pytest.raises(InvalidStateError):
        no_pd.deserialize_state(json.dumps(obj))
