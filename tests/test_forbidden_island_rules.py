"""Forbidden Island rule scenarios the issue asks for beyond the blind file, on both engines through the
``make`` fixture, in the blind file's reference layout (``fi_positions``; docs/rules/forbidden_island.md §2,
§10). Each docstring quotes the rulebook and names the contract's section or interpretation (§11).

What the blind tests (tests/test_blind_forbidden_island.py) already cover exactly, and is not repeated here:
- role powers: the Diver's move through flooded and missing squares (FI-07, FI-08) and his nearest-tile swim
  (FI-22); the Engineer's two tiles for one action (FI-09); the Explorer's diagonal move and shore-up (FI-10)
  and diagonal swim (FI-21 a); the Messenger's gift to anyone anywhere (FI-11, FI-13); the Navigator's two
  tiles for another pawn (FI-16) and an Explorer's diagonal steps under him (FI-17); the Pilot's flight once
  per turn (FI-18) and his swim anywhere (FI-23). Added here: what interpretations 3 to 6 add to them.
- Waters Rise!: the next flood draws come only from the new top layer (FI-24, the draw weights at each card);
  added here: the layer outlasts the turn, and a later Waters Rise! stacks a newer layer above what is left.
- the four losses: the water level at the skull (FI-27), Fools' Landing sinking (FI-37), both tiles of an
  uncaptured treasure (FI-38 a), a stranded pawn with no swim (FI-21 b, c); the win (FI-35, FI-36 c).
- a forced discard answered with Sandbags (FI-30); answered with a Helicopter Lift: here.
"""

from __future__ import annotations

import pytest

from fi_positions import (
    ALL,
    DISCARD,
    HELI,
    KINDS,
    SANDBAG,
    act,
    flood_weights,
    hand,
    hands,
    legal_texts,
    pawns,
    position,
    refused,
    status_of,
    targets,
    tile,
    view,
    weights,
)
from meeplex import InvalidStateError

# --- role powers ----------------------------------------------------------------------------------------


def test_pilot_ordinary_move_does_not_use_the_flight(make):
    """Pilot. Rulebook: "The Pilot may move to any tile once per turn for 1 action." Interp. 3: "A Pilot's
    move to an orthogonally adjacent tile is an ordinary move and does not use his flight"; a move to a tile
    that is not (a diagonal neighbour included) is the flight."""
    state = position(make, ["pilot", "engineer"], ["c1", "d1"])
    act(state, "move c2")
    assert not view(state)["pilot_flown"]
    assert targets(state, "move") == ALL - {"c2"}
    act(state, "move d3")  # diagonal: the flight
    assert view(state)["pilot_flown"]
    assert targets(state, "move") == {"d2", "c3", "e3", "d4"}


def test_navigator_moves_a_diver_over_a_sunk_middle_but_not_another_role(make):
    """Navigator. Rulebook: "The Navigator may move other players up to 2 adjacent tiles per action." Interp.
    4 and §7.2: "a moved Diver's middle position may be sunk"; for anyone else it may not."""
    state = position(make, ["navigator", "diver", "engineer"], ["b3", "c4", "c4"], sunk=["c5"])
    assert "navigate 1 c6" in legal_texts(state)
    refused(state, "navigate 2 c6")
    refused(state, "navigate 1 c5")
    act(state, "navigate 1 c6")
    assert pawns(state)[1] == "c6" and view(state)["actions_left"] == 2


def test_navigator_moves_a_pilot_without_his_flight(make):
    """Navigator. Interp. 4: the Navigator moves the other pawn with that pawn's own step, "never with a
    Pilot's flight": two edge steps at most."""
    state = position(make, ["navigator", "pilot"], ["b3", "d1"])
    moved = {t.split(" ")[2] for t in legal_texts(state) if t.startswith("navigate 1 ")}
    assert moved == {"c1", "d2", "c2", "e2", "d3"}
    refused(state, "navigate 1 d6")


def test_engineer_second_tile_offered_only_if_there_is_one_and_no_card_in_between(make):
    """Engineer. Rulebook: "The Engineer may shore up 2 tiles for 1 action." §5.3: phase `engineer` "if
    another shore would be legal for him now"; interp. 6: "Sandbags and Helicopter Lift are not offered
    between the two (they are offered before and after)"."""
    state = position(
        make, ["engineer", "pilot"], ["d2", "c1"], hands=[["sandbags"], []], flooded=["d2", "c2", "a3"]
    )
    act(state, "shore d2")
    assert view(state)["phase"] == "engineer"
    assert set(legal_texts(state)) == {"shore c2", "pass"}
    refused(state, SANDBAG("a3"))
    act(state, "pass")
    assert view(state)["phase"] == "actions" and SANDBAG("a3") in state.legal_actions()
    single = position(make, ["engineer", "pilot"], ["d2", "c1"], flooded=["d2", "a3"])
    act(single, "shore d2")
    v = view(single)
    assert v["phase"] == "actions" and v["actions_left"] == 2  # no second tile within reach


def test_diver_swim_tie_is_his_choice(make):
    """Diver. Rulebook: "The Diver may swim to the nearest tile." Interp. 5: counted in orthogonal steps
    through layout positions, sunk ones included; "ties are his choice"."""
    sunk = ["c4", "d3", "e4", "d5", "b4", "c5", "d2", "e3", "f4", "d6"]
    state = position(
        make,
        ["diver", "pilot"],
        ["d4", "c1"],
        flooded=["d4"],
        sunk=sunk,
        phase="flood",
        flood_left=2,
        flood_top=["d4"],
    )
    act(state, "flood d4")
    assert state.current_player() == 0 and targets(state, "swim") == {"c3", "e5"}
    act(state, "swim e5")
    assert view(state)["outcome"] == "none"


# --- Waters Rise! ---------------------------------------------------------------------------------------


def test_waters_rise_layer_outlasts_the_turn_and_a_later_one_stacks_above_it(make):
    """Rulebook: "Take all of the cards from the Flood discard pile, shuffle them, and then place them face
    down on top of the Flood draw pile." §3: "that is a new top layer, whose cards are known to come before
    all others … flood draws come from the top layer until it is empty". Four cards go on top at level 2 (2
    draws): the next turn's draws still start with the two left, and a second Waters Rise! puts the two drawn
    (now the discard) above them."""
    four = ["b5", "c5", "d5", "c6"]
    state = position(
        make,
        ["pilot", "engineer"],
        ["c1", "d1"],
        phase="treasure",
        treasure_left=2,
        flood_top=["d6"],
        flood_discard=four,
    )
    act(state, "card waters_rise", "card earth")
    assert view(state)["flood_pile"][:2] == [sorted(tile(q) for q in four), [tile("d6")]]
    for drawn, name in enumerate(["b5", "c5"]):
        assert weights(state) == flood_weights(*four[drawn:])
        act(state, f"flood {name}")
    v = view(state)
    assert v["turn"] == 1 and v["flood_discard"] == sorted([tile("b5"), tile("c5")])
    assert v["flood_pile"][:2] == [sorted([tile("d5"), tile("c6")]), [tile("d6")]]
    act(state, "pass", "card waters_rise", "card earth")
    v = view(state)
    assert v["level"] == 3 and v["flood_left"] == 3
    assert v["flood_pile"][:3] == [
        sorted([tile("b5"), tile("c5")]),
        sorted([tile("d5"), tile("c6")]),
        [tile("d6")],
    ]
    assert weights(state) == flood_weights("b5", "c5")
    act(state, "flood c5")
    assert weights(state) == flood_weights("b5")
    act(state, "flood b5")
    assert weights(state) == flood_weights("d5", "c6")
    assert status_of(state, "b5", "c5") == ["sunk", "sunk"]


def test_the_card_that_empties_the_flood_pile_is_not_in_the_new_pile(make):
    """Rulebook: "If the Flood draw pile ever runs out, immediately shuffle the Flood discard pile". §5.5
    step 2 and interp. 2: the reshuffle happens at once, "so the card just drawn is not in the new pile". A
    one-card pile needs every other standing tile's card in the discard, so only Fools' Landing and four
    tiles stand (all treasures captured)."""
    standing = {"c1", "d5", "c5", "b5", "d6"}
    state = position(
        make,
        ["pilot", "engineer"],
        ["c1", "c1"],
        sunk=sorted(ALL - standing),
        captured=("earth", "wind", "fire", "ocean"),
        phase="flood",
        flood_left=2,
        flood_top=["d5"],
        flood_discard=["c1", "c5", "b5", "d6"],
    )
    act(state, "flood d5")
    v = view(state)
    assert status_of(state, "d5") == ["flooded"]
    assert v["flood_pile"] == [sorted(tile(q) for q in ("c1", "c5", "b5", "d6"))] and v["flood_discard"] == [
        tile("d5")
    ]
    assert weights(state) == flood_weights("c1", "c5", "b5", "d6")


# --- the hand limit -------------------------------------------------------------------------------------


def test_forced_discard_answered_with_a_helicopter_lift(make):
    """Rulebook, Hand Limit: "If you choose to discard a Special Action card, you may use its action before
    discarding." §5.7: the seat over the limit may make "the special plays of its hand" instead of a
    `discard`. The Diver, given a sixth card on the Messenger's turn, flies himself to Fools' Landing instead
    of discarding; the Messenger's turn goes on."""
    state = position(
        make,
        ["messenger", "diver"],
        ["d3", "a4"],
        hands=[["earth"], ["ocean", "ocean", "ocean", "fire", "heli"]],
    )
    act(state, "give 1 earth")
    assert view(state)["phase"] == "discard" and state.current_player() == 1
    legal = state.legal_actions()
    assert DISCARD("heli") in legal and HELI([1], "c1") in legal and HELI([0], "c1") in legal
    act(state, "heli 1 c1")
    v = view(state)
    assert pawns(state) == ["d3", "c1"]
    assert hands(state)[1] == hand("ocean", "ocean", "ocean", "fire", "earth")
    assert v["treasure_discard"][KINDS.index("heli")] == 1 and v["treasure_discard"][:4] == [0, 0, 0, 0]
    assert v["phase"] == "actions" and state.current_player() == 0 and v["actions_left"] == 2


def test_an_actions_phase_with_no_action_left_is_refused(make):
    """§5.3: the actions phase holds only while ``actions_left >= 1``; "if ``actions_left == 0``, the end of
    the actions". A text in phase ``actions`` with none left is not a settled state, and both engines refuse
    it (found by the reliability suite's dev profile: the Rust core offered moves there, the oracle only
    ``pass``).
    With one action left the same position reads."""
    state = position(make, ["pilot", "engineer"], ["c1", "d1"], actions_left=1)
    assert "move c2" in legal_texts(state)
    with pytest.raises(InvalidStateError):
        position(make, ["pilot", "engineer"], ["c1", "d1"], actions_left=0)
