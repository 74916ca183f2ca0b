"""Forbidden Island blind scenarios: positions and outcomes written from the rulebook, the game-help page and
the facts only, by a colleague who had read neither the contract nor the code.

The scenarios are kept in the colleague's words in ``tests/blind/forbidden_island.md`` (FI-01 .. FI-38); each
test here is one of them (or one part of one), run on both engines through the ``make`` fixture. The blind
file's square (column, row), row 1 at the top, is the contract's position of that column letter and row digit
(docs/rules/forbidden_island.md §2: Cliffs of Abandon at (4, 4) is ``d4``); its reference layout is put on the
island through the ``tiles`` field of the serialized state (§10) by ``fi_positions.position``, and the first
test checks that mapping against the contract and the data file. A pile "top first" is built as flood-pile
layers of one card each (§3), so the cards come out in that order; the treasure pile has no order (§3), so a
scenario's treasure deck "top first" is the chance outcomes the test applies. Seats are numbered in the order
each test lists its roles; the active player is the turn seat. Each docstring names the scenario and quotes
the rule; where the blind reading and the contract differ, or the scenario says "rulebook silent", the test
follows the contract and names the interpretation (§11) or section that settles it.
"""

from __future__ import annotations

import itertools

import pytest

from fi_positions import (
    ALL,
    CAPTURE,
    CHANCE,
    COUNTS,
    DISCARD,
    GAME,
    GIVE,
    HELI,
    KINDS,
    LIFTOFF,
    MOVE,
    NAMES,
    NAVIGATE,
    PASS,
    REFERENCE,
    SANDBAG,
    SHORE,
    SWIM,
    TILE_KEYS,
    TILES,
    act,
    end_turn,
    flood_weights,
    hand,
    hands,
    legal_texts,
    pawns,
    position,
    refused,
    settle,
    status_of,
    targets,
    tile,
    treasure_weights,
    view,
    weights,
)
from meeplex.errors import InvalidNotationError


def setup_game(make, roles, six, deal, difficulty="novice"):
    """A new game through its setup chance nodes (§5.1): the reference layout, the six flood cards ``six``
    (positions), the roles in seat order, then the dealt cards seat by seat."""
    state = make(GAME, players=len(roles), difficulty=difficulty).new_initial_state()
    for name in NAMES:
        act(state, f"tile {REFERENCE[name]}")
    for name in six:
        act(state, f"flood {name}")
    for role in roles:
        act(state, f"role {role}")
    for kind in deal:
        act(state, f"card {kind}")
    return state


def test_reference_layout_is_the_contracts_standard_layout(make):
    """Conventions: the blind grid's rows of 2, 4, 6, 6, 4, 2 (row 1 at the top) are the contract's standard
    layout (§2: "c1 d1 / b2 c2 d2 e2 / a3 … f3 / a4 … f4 / b5 … e5 / c6 d6"), and the reference layout's start
    tiles are the data file's (Pilot on Fools' Landing, Engineer on Bronze Gate, Explorer on Copper Gate,
    Navigator on Gold Gate, Diver on Iron Gate, Messenger on Silver Gate)."""
    assert NAMES == "c1 d1 b2 c2 d2 e2 a3 b3 c3 d3 e3 f3 a4 b4 c4 d4 e4 f4 b5 c5 d5 e5 c6 d6".split()
    assert set(REFERENCE) == ALL and sorted(TILES) == list(range(24))
    state = position(make, ["pilot", "engineer"], ["c1", "d1"])
    assert view(state)["tiles"] == TILES
    for q, name in enumerate(NAMES):
        assert state.action_to_string(q) == f"move {name}"
    starts = {
        "pilot": "c1",
        "engineer": "d1",
        "explorer": "d2",
        "navigator": "b3",
        "diver": "c3",
        "messenger": "d3",
    }
    for role, name in starts.items():
        state = setup_game(
            make, [role, "pilot" if role != "pilot" else "diver"], ["a3", "f3", "a4", "f4", "c6", "d6"], []
        )
        assert pawns(state)[0] == name, role
    assert TILE_KEYS[tile("d4")] == "cliffs_abandon"


# --- A. Setup -------------------------------------------------------------------------------------------


def test_fi01_six_flood_cards_at_setup_and_starting_on_a_flooded_tile(make):
    """FI-01. Rulebook, Setup 4: "Draw the top 6 cards (1 at a time) … For each card drawn, flip the
    corresponding Island tile over to its flooded side"; Setup 5: "It's OK to start on a flooded tile." The
    contract's setup (§5.1) draws the six before the roles, as the rulebook orders it."""
    state = make(GAME, players=4).new_initial_state()
    for name in NAMES:
        act(state, f"tile {REFERENCE[name]}")
    six = ["c1", "c3", "a4", "d5", "d6", "e3"]  # Fools' Landing, Iron Gate, Coral Palace, ... Cave of Embers
    for drawn, name in enumerate(six):
        assert view(state)["phase"] == "setup_flood"
        assert weights(state) == flood_weights(*sorted(ALL - set(six[:drawn])))
        act(state, f"flood {name}")
    v = view(state)
    assert v["phase"] == "roles"  # exactly six drawn
    assert {q for q in NAMES if v["status"][NAMES.index(q)] == "flooded"} == set(six)
    assert "sunk" not in v["status"]
    assert v["flood_discard"] == sorted(tile(q) for q in six)
    assert v["flood_pile"] == [sorted(tile(q) for q in ALL - set(six))]
    assert v["level"] == 1
    for role in ("pilot", "engineer", "diver", "messenger"):
        act(state, f"role {role}")
    assert pawns(state) == ["c1", "d1", "c3", "d3"]
    for kind in ("earth", "wind", "fire", "ocean") * 2:
        act(state, f"card {kind}")
    v = view(state)
    assert v["phase"] == "actions" and v["turn"] == 0
    assert pawns(state) == ["c1", "d1", "c3", "d3"]  # no pawn moved; none on Copper Gate or Gold Gate
    assert status_of(state, "c1", "c3") == ["flooded", "flooded"]
    assert v["level"] == 1
    assert len(v["flood_discard"]) == 6 and len(v["flood_pile"][0]) == 18


def test_fi02_a_waters_rise_is_never_dealt(make):
    """FI-02. Rulebook, Setup 6: "deal 2 cards to each player … If anyone gets a Waters Rise! card, give them
    a replacement card and shuffle the Waters Rise! card back into the Treasure deck." The contract models the
    replacement as deal weights that leave Waters Rise! out (§5.1 step 4, interp. 9), which also settles the
    silent case of a replacement that is itself a Waters Rise!: the Explorer's dealt Waters Rise! cannot be
    drawn, and his second card is the replacement."""
    state = setup_game(make, ["explorer", "navigator"], ["c1", "c3", "a4", "d5", "d6", "e3"], [])
    before = view(state)
    assert before["phase"] == "deal"
    full = [(k, COUNTS[k]) for k in range(6)]
    assert weights(state) == full  # never kind 6 (waters_rise)
    refused(state, KINDS.index("waters_rise"))
    act(state, "card earth")
    assert weights(state) == [(k, COUNTS[k] - (k == 0)) for k in range(6)]
    refused(state, KINDS.index("waters_rise"))
    act(state, "card wind", "card fire", "card sandbags")
    v = view(state)
    assert hands(state) == [hand("earth", "wind"), hand("fire", "sandbags")]
    assert sum(v["treasure_pile"]) == 24 and v["treasure_pile"][6] == 3
    assert v["treasure_discard"] == [0] * 7
    assert v["level"] == 1
    assert v["flood_pile"] == before["flood_pile"] and v["flood_discard"] == before["flood_discard"]


@pytest.mark.parametrize(
    ("difficulty", "level", "cards"),
    [("novice", 1, 2), ("normal", 2, 2), ("elite", 3, 3), ("legendary", 4, 3)],
)
def test_fi03_start_level_and_first_flood_step(make, difficulty, level, cards):
    """FI-03. Rulebook, Setup 7: "set it to the appropriate starting difficulty level"; Draw Flood Cards:
    "Draw a number of cards … equal to the current Water Meter level", the number printed at the tick (facts
    flood_cards_per_level; contract §1, §2)."""
    state = setup_game(
        make, ["pilot", "engineer"], ["c1", "c3", "a4", "d5", "d6", "e3"], ["earth", "wind"] * 2, difficulty
    )
    assert view(state)["level"] == level
    act(state, "pass")
    act(state, "card fire", "card ocean")
    v = view(state)
    assert v["phase"] == "flood" and v["flood_left"] == cards
    for name in ["b5", "c5", "c6"][:cards]:
        assert view(state)["turn"] == 0 and view(state)["phase"] == "flood"
        act(state, f"flood {name}")
    v = view(state)
    assert v["turn"] == 1 and v["phase"] == "actions"  # exactly `cards` were drawn


@pytest.mark.parametrize(
    ("level", "cards"), [(1, 2), (2, 2), (3, 3), (4, 3), (5, 3), (6, 4), (7, 4), (8, 5), (9, 5)]
)
def test_fi03_flood_cards_at_every_tick(make, level, cards):
    """FI-03 and the Conventions' table: flood cards per tick 2 2 3 3 3 4 4 5 5 (facts
    flood_cards_per_level; contract §2 water meter)."""
    state = position(
        make, ["pilot", "engineer"], ["c1", "d1"], phase="treasure", treasure_left=1, level=level
    )
    act(state, "card earth")
    v = view(state)
    assert v["phase"] == "flood" and v["flood_left"] == cards


# --- B. Turn order, ordinary movement and shoring up ----------------------------------------------------


def fi04_position(make):
    return position(
        make, ["engineer", "pilot"], ["d1", "c1"], hands=[["earth"], []], flood_top=["c5", "b5", "e5"]
    )


def test_fi04_three_actions_then_two_treasure_cards_then_flood_cards(make):
    """FI-04. Rulebook, Order of Play: "1. Take up to 3 actions. 2. Draw 2 Treasure deck cards. 3. Draw Flood
    cards equal to the water level." and "Draw cards 1 at a time." The flood pile's top three cards are
    layers of one card (Misty Marsh, Lost Lagoon, Phantom Rock)."""
    state = fi04_position(make)
    act(state, "move d2")
    assert view(state)["actions_left"] == 2
    act(state, "move d3", "move d4")
    v = view(state)
    assert v["phase"] == "treasure" and v["stage"] == "treasure" and v["treasure_left"] == 2
    assert v["actions_left"] == 0 and state.current_player() == CHANCE
    refused(state, MOVE("d5"))  # a fourth action
    refused(state, PASS)
    pile = [COUNTS[k] - (k == 0) for k in range(7)]
    assert weights(state) == treasure_weights(pile)
    act(state, "card fire")
    assert view(state)["phase"] == "treasure" and view(state)["treasure_left"] == 1
    act(state, "card wind")
    assert hands(state)[0] == hand("earth", "fire", "wind")
    v = view(state)
    assert v["phase"] == "flood" and v["flood_left"] == 2 and state.current_player() == CHANCE
    refused(state, MOVE("d5"))  # no action after the treasure draw
    assert weights(state) == flood_weights("c5")
    act(state, "flood c5")
    assert weights(state) == flood_weights("b5")
    act(state, "flood b5")
    v = view(state)
    assert status_of(state, "c5", "b5") == ["flooded", "flooded"]
    assert v["flood_discard"] == sorted([tile("c5"), tile("b5")])
    assert v["flood_pile"][0] == [tile("e5")]
    assert v["turn"] == 1 and v["phase"] == "actions" and v["actions_left"] == 3


def test_fi04_variant_no_action_still_draws_in_full(make):
    """FI-04 variant. Rulebook: "You may take up to 3 actions each turn (could be 0, 1, or 2)." and "After
    taking actions, you must draw 2 cards from the top of the Treasure deck"."""
    state = fi04_position(make)
    act(state, "pass")
    v = view(state)
    assert v["phase"] == "treasure" and v["treasure_left"] == 2
    act(state, "card fire", "card wind")
    assert view(state)["flood_left"] == 2
    act(state, "flood c5", "flood b5")
    assert hands(state)[0] == hand("earth", "fire", "wind")
    assert view(state)["turn"] == 1


def test_fi05_ordinary_moves_cross_an_edge_onto_flooded_never_onto_or_over_missing(make):
    """FI-05. Rulebook, Move: "either up, down, left, or right, but never diagonally. You may move onto a
    flooded tile, but may not move onto (or over) the space of a missing tile." """
    state = position(make, ["messenger", "pilot"], ["d3", "c1"], flooded=["d4"], sunk=["e3"])
    assert targets(state, "move") == {"c3", "d2", "d4"}
    refused(state, MOVE("e4"))  # (a) diagonal
    refused(state, MOVE("e3"))  # (b) missing
    refused(state, MOVE("f3"))  # (c) beyond the missing square
    act(state, "move d4")  # (d)
    assert view(state)["actions_left"] == 2
    assert pawns(state)[0] == "d4" and status_of(state, "d4") == ["flooded"]


def test_fi06_shore_up_own_or_adjacent_flooded_tile_one_per_action(make):
    """FI-06. Rulebook, Shore Up: "shore up any adjacent Island tile (up, down, left, right), or the Island
    tile your pawn is on"."""
    state = position(make, ["navigator", "pilot"], ["b3", "c1"], flooded=["b3", "b2", "c3", "c2"])
    assert targets(state, "shore") == {"b3", "b2", "c3"}
    refused(state, SHORE("c2"))  # diagonal
    refused(state, SHORE("b4"))  # dry
    act(state, "shore b3")
    v = view(state)
    assert v["phase"] == "actions" and v["actions_left"] == 2  # one tile, one action: no second tile
    assert status_of(state, "b2", "c3") == ["flooded", "flooded"]
    act(state, "shore b2", "shore c3")
    assert status_of(state, "b3", "b2", "c3", "c2") == ["dry", "dry", "dry", "flooded"]
    v = view(state)
    assert v["actions_left"] == 0 and v["stage"] == "treasure"


# --- C. The six roles -----------------------------------------------------------------------------------


def test_fi07_diver_moves_through_flooded_and_missing_squares_for_one_action(make):
    """FI-07. Rulebook: "The Diver may move through one or more adjacent missing and/or flooded tiles for 1
    action." Page: "must end their movement on a tile"."""
    state = position(make, ["diver", "pilot"], ["c3", "c1"], flooded=["c4"], sunk=["c5"])
    assert targets(state, "move") == {"c2", "b3", "d3", "c4", "b4", "d4", "b5", "d5", "c6"}
    refused(state, MOVE("c5"))  # (b) the missing square
    refused(state, MOVE("d6"))  # (c) every way passes a dry tile
    act(state, "move c6")  # (a)
    assert pawns(state)[0] == "c6" and view(state)["actions_left"] == 2


def test_fi08a_diver_not_through_a_dry_tile(make):
    """FI-08 (a). Rulebook: "through one or more adjacent missing and/or flooded tiles" — a dry tile stops
    the Diver (§7.1: every position strictly between is flooded or sunk)."""
    state = position(make, ["diver", "pilot"], ["c3", "c1"], sunk=["c5"])
    refused(state, MOVE("c6"))
    act(state, "move c4", "move c6")
    assert pawns(state)[0] == "c6" and view(state)["actions_left"] == 1


def test_fi08b_diver_never_through_open_ocean(make):
    """FI-08 (b). Page: "it does not allow moving through spaces where there was never a tile". Contract §2:
    cells not in the layout do not exist; (2, 1) is no position."""
    state = position(make, ["diver", "pilot"], ["c1", "d1"])
    assert targets(state, "move") == {"d1", "c2"}
    refused(state, MOVE("b2"))
    with pytest.raises(InvalidNotationError):
        state.string_to_action("move b1")
    act(state, "move c2", "move b2")
    assert pawns(state)[0] == "b2" and view(state)["actions_left"] == 1


def test_fi09_engineer_shores_two_tiles_for_one_action(make):
    """FI-09. Rulebook: "The Engineer may shore up 2 tiles for 1 action." Page: "provided they can reach both
    flooded tiles normally." The contract offers the second tile at once (§5.3.1, interp. 6); the blind file's
    silent point (moving in between) does not arise: only a shore or pass is offered there."""
    state = position(make, ["engineer", "pilot"], ["d2", "c1"], flooded=["d2", "c2", "e2", "d3", "e3"])
    assert targets(state, "shore") == {"d2", "c2", "e2", "d3"}
    refused(state, SHORE("e3"))
    act(state, "shore d2")
    v = view(state)
    assert v["phase"] == "engineer" and v["actions_left"] == 2
    assert set(legal_texts(state)) == {"shore c2", "shore e2", "shore d3", "pass"}
    refused(state, SHORE("e3"))
    act(state, "shore c2")
    assert view(state)["phase"] == "actions" and view(state)["actions_left"] == 2
    act(state, "shore e2", "shore d3")
    assert status_of(state, "d2", "c2", "e2", "d3", "e3") == ["dry"] * 4 + ["flooded"]
    assert view(state)["actions_left"] == 1
    refused(state, SHORE("e3"))


def test_fi09_engineer_may_shore_a_single_tile(make):
    """FI-09: "Shoring up a single tile for an action is also legal for him" (§5.3.1: `pass` declines the
    second tile)."""
    state = position(make, ["engineer", "pilot"], ["d2", "c1"], flooded=["d2", "c2"])
    act(state, "shore d2", "pass")
    v = view(state)
    assert v["phase"] == "actions" and v["actions_left"] == 2
    assert status_of(state, "d2", "c2") == ["dry", "flooded"]


def test_fi10_explorer_moves_and_shores_diagonally_one_square_at_a_time(make):
    """FI-10. Rulebook: "The Explorer may also move diagonally." and "The Explorer may also shore up tiles
    diagonally." """
    state = position(make, ["explorer", "pilot"], ["d2", "c1"], flooded=["e3", "c3"], sunk=["d3"])
    assert targets(state, "move") == {"d1", "c2", "e2", "c1", "c3", "e3"}
    assert targets(state, "shore") == {"e3", "c3"}
    act(state, "shore e3")
    assert status_of(state, "e3") == ["dry"]
    refused(state, MOVE("d4"))  # two squares, over the missing one
    with pytest.raises(InvalidNotationError):
        state.string_to_action("move e1")  # (5, 1) is open ocean: no position
    act(state, "move c3", "move b4")
    assert pawns(state)[0] == "b4" and status_of(state, "c3") == ["flooded"]
    assert view(state)["actions_left"] == 0


def test_fi11_messenger_gives_anywhere_one_action_per_card_never_specials(make):
    """FI-11. Rulebook: "It costs 1 action for each card you give away." "You may not give Special Action
    cards." "The Messenger may give cards without having to be on the same tile." A Helicopter Lift has no
    `give` action at all (§8: `give <s> <kind>` for the kinds earth..ocean)."""
    state = position(
        make, ["messenger", "pilot"], ["d3", "d6"], hands=[["fire", "fire", "heli"], ["fire", "fire"]]
    )
    assert {t for t in legal_texts(state) if t.startswith("give")} == {"give 1 fire"}
    act(state, "give 1 fire", "give 1 fire")
    assert hands(state) == [hand("heli"), hand("fire", "fire", "fire", "fire")]
    assert view(state)["actions_left"] == 1
    assert not [t for t in legal_texts(state) if t.startswith("give")]
    with pytest.raises(InvalidNotationError):
        state.string_to_action("give 1 heli")
    # The Pilot's next turn: fly to Cave of Embers, capture the Crystal of Fire.
    end_turn(state, ("earth", "wind"), ("b5", "c5"))
    assert view(state)["turn"] == 1 and view(state)["phase"] == "actions"
    act(state, "move e3")
    assert view(state)["pilot_flown"]
    assert settle(state) == [("act", 0)]  # the Messenger's Helicopter Lift is offered before each action
    act(state, "capture")
    v = view(state)
    assert v["captured"] == [False, False, True, False] and v["actions_left"] == 1


def test_fi12_give_on_the_same_tile_only_no_specials_no_taking(make):
    """FI-12. Rulebook: "You may give 1 or more of your Treasure cards to another player if both of your pawns
    are on the same island tile. … You may not give Special Action cards." Page: "You also cannot *take* a
    card". The Engineer's only gives are his Water to the Navigator; no action moves a card the other way."""
    state = position(
        make,
        ["engineer", "navigator", "diver"],
        ["b4", "b4", "c4"],
        hands=[["ocean", "ocean", "sandbags"], ["ocean", "ocean", "earth"], []],
    )
    assert {t for t in legal_texts(state) if t.startswith("give")} == {"give 1 ocean"}
    refused(state, GIVE(2, "ocean"))  # (b) the Diver is on another tile
    with pytest.raises(InvalidNotationError):
        state.string_to_action("give 1 sandbags")  # (c)
    refused(state, GIVE(0, "earth"))  # (d) the Engineer holds no Earth: nothing can be taken
    act(state, "give 1 ocean", "give 1 ocean")  # (a), (e)
    v = view(state)
    assert hands(state)[:2] == [hand("sandbags"), hand("ocean", "ocean", "ocean", "ocean", "earth")]
    assert v["phase"] == "actions" and v["actions_left"] == 1  # five cards: no discard
    assert state.current_player() == 0 and CAPTURE not in state.legal_actions()
    end_turn(state, ("wind", "fire"), ("f4", "d6"))
    assert view(state)["turn"] == 1 and state.current_player() == 1
    act(state, "capture")
    assert view(state)["captured"] == [False, False, False, True]


def test_fi13_hand_limit_at_once_for_a_receiver_on_another_turn(make):
    """FI-13. Rulebook, Hand Limit: "If you ever find that you have 6 or more cards (for example because you
    … received cards from another player) you must immediately choose and discard the excess" (§5.7,
    interp. 7)."""
    state = position(
        make,
        ["messenger", "diver"],
        ["d3", "a4"],
        hands=[["wind", "wind", "earth"], ["ocean", "ocean", "ocean", "fire", "earth"]],
    )
    act(state, "give 1 earth")
    v = view(state)
    assert v["phase"] == "discard" and state.current_player() == 1
    assert state.legal_actions() == sorted(DISCARD(k) for k in ("earth", "fire", "ocean"))
    act(state, "discard fire")
    v = view(state)
    assert hands(state)[1] == hand("ocean", "ocean", "ocean", "earth", "earth")
    assert v["treasure_discard"][KINDS.index("fire")] == 1
    assert v["phase"] == "actions" and state.current_player() == 0 and v["actions_left"] == 2


def test_fi14_capture_on_either_tile_even_flooded(make):
    """FI-14. Rulebook: "capture a treasure by discarding 4 matching Treasure cards from your hand if your
    pawn is on either corresponding island tile" and "You may capture a treasure on a flooded tile." """
    state = position(
        make, ["pilot", "engineer"], ["b2", "d1"], hands=[["earth"] * 5, []], flooded=["b2"], sunk=["c2"]
    )
    assert view(state)["outcome"] == "none"  # one Temple sunk, the other standing
    act(state, "capture")
    v = view(state)
    assert v["captured"] == [True, False, False, False] and v["actions_left"] == 2
    assert hands(state)[0] == hand("earth") and v["treasure_discard"][0] == 4
    refused(state, CAPTURE)
    other = position(
        make, ["pilot", "engineer"], ["c3", "d1"], hands=[["earth"] * 5, []], flooded=["b2"], sunk=["c2"]
    )
    refused(other, CAPTURE)


def test_fi15_capture_needs_four_cards_in_the_capturers_own_hand(make):
    """FI-15. Rulebook: "capture a treasure by discarding 4 matching Treasure cards from your hand"; giving is
    one of the active player's actions ("You may take up to 3 actions each turn"); page: "You also cannot
    *take* a card"."""
    state = position(make, ["explorer", "messenger"], ["f3", "f3"], hands=[["fire"] * 3, ["fire", "ocean"]])
    refused(state, CAPTURE)
    assert state.current_player() == 0
    assert {t for t in legal_texts(state) if t.startswith("give")} == {"give 1 fire"}  # no give by seat 1
    end_turn(state, ("earth", "wind"), ("c6", "d6"))
    assert view(state)["turn"] == 1
    act(state, "give 0 fire")
    assert view(state)["phase"] == "discard" and state.current_player() == 0
    act(state, "discard earth")
    end_turn(state, ("ocean", "ocean"), ("b5", "c5"))
    assert view(state)["turn"] == 0
    act(state, "capture")
    assert view(state)["captured"] == [False, False, True, False]


def test_fi16_navigator_moves_another_pawn_up_to_two_tiles(make):
    """FI-16. Rulebook: "The Navigator may move other players up to 2 adjacent tiles per action." The action
    names only the end tile (§8 `navigate <s> <pos>`, §7.2): a diagonal neighbour is two edge steps away, so
    the Engineer can end there; what is refused is anything further than two edge steps, and the Navigator
    moving himself more than one."""
    state = position(make, ["navigator", "engineer", "messenger"], ["b3", "d1", "b5"], flooded=["d2"])
    act(state, "navigate 1 d3")
    assert view(state)["actions_left"] == 2
    act(state, "navigate 2 c5")
    assert view(state)["actions_left"] == 1
    assert targets(state, "move") == {"b2", "a3", "c3", "b4"}
    refused(state, MOVE("d3"))
    refused(state, NAVIGATE(0, "d3"))
    refused(state, NAVIGATE(1, "d6"))  # three tiles
    assert {t.split(" ")[2] for t in legal_texts(state) if t.startswith("navigate 1 ")} == {
        "d2",
        "c3",
        "e3",
        "d4",
        "d1",
        "c2",
        "e2",
        "b3",
        "c4",
        "f3",
        "e4",
        "d5",
    }
    act(state, "move c3")
    assert pawns(state) == ["c3", "d3", "c5"]


def test_fi17_navigator_moves_an_explorer_or_diver_with_its_own_steps(make):
    """FI-17, rulebook silent on whether a moved pawn keeps its own movement. The contract takes the other
    reading (interp. 4, §7.2): "The Navigator moves the other pawn with that pawn's own step (an Explorer
    diagonally, a Diver over one sunk space)". So the Explorer may be moved to Cave of Embers (which two edge
    steps reach too) and two diagonal steps on, to Tidal Palace; the Diver still moves at most two steps, so
    Twilight Hollow (three) is refused, and no move ends on the missing square."""
    state = position(
        make, ["navigator", "explorer", "diver"], ["b3", "d2", "c3"], flooded=["c4"], sunk=["c5"]
    )
    explorer = {t.split(" ")[2] for t in legal_texts(state) if t.startswith("navigate 1 ")}
    assert {"e3", "b4", "f4"} <= explorer  # (a); b4 and f4 only by diagonal steps
    assert "a4" not in explorer and "c5" not in explorer
    diver = {t.split(" ")[2] for t in legal_texts(state) if t.startswith("navigate 2 ")}
    assert diver == {"c2", "b3", "d3", "c4", "c1", "b2", "d2", "a3", "b4", "e3", "d4"}
    refused(state, NAVIGATE(2, "c6"))  # (b)
    refused(state, NAVIGATE(2, "c5"))
    act(state, "navigate 1 e3")
    assert pawns(state)[1] == "e3"


def test_fi18_pilot_flies_anywhere_once_per_turn(make):
    """FI-18. Rulebook: "The Pilot may move to any tile once per turn for 1 action." (§5.3, interp. 3)"""
    state = position(make, ["pilot", "engineer"], ["c1", "d1"], flooded=["d6"], sunk=["c5"])
    act(state, "move d6")
    v = view(state)
    assert v["pilot_flown"] and v["actions_left"] == 2 and status_of(state, "d6") == ["flooded"]
    assert targets(state, "move") == {"c6", "d5"}
    refused(state, MOVE("d1"))
    act(state, "move c6")
    refused(state, MOVE("c5"))
    act(state, "move d6")
    assert view(state)["actions_left"] == 0
    end_turn(state, ("earth", "wind"), ("b5", "e5"))
    end_turn(state, ("earth", "wind"), ("f4", "e4"))
    v = view(state)
    assert v["turn"] == 0 and not v["pilot_flown"]
    assert targets(state, "move") == ALL - {"c5", "d6"}


# --- D. Flooding, sinking and swimming ------------------------------------------------------------------


def test_fi19_dry_floods_flooded_sinks_and_its_card_leaves_the_game(make):
    """FI-19. Rulebook: "If the matching Island tile is un-flooded, flip it over to its flooded side." and
    "If the matching Island tile is already flooded, it sinks into the abyss! Remove it and the matching Flood
    card from the game". The later Waters Rise! puts exactly the discard on top (§5.4 step 3)."""
    state = position(
        make,
        ["engineer", "messenger"],
        ["d1", "d5"],
        flooded=["e4", "e3"],
        phase="flood",
        flood_left=2,
        flood_top=["d5", "e4", "d6"],
        flood_discard=["e3"],
    )
    act(state, "flood d5")
    assert status_of(state, "d5") == ["flooded"] and pawns(state)[1] == "d5"
    act(state, "flood e4")
    v = view(state)
    assert status_of(state, "e4") == ["sunk"] and v["outcome"] == "none"
    assert v["flood_discard"] == sorted([tile("e3"), tile("d5")])
    assert v["flood_pile"][0] == [tile("d6")]
    cards = [x for layer in v["flood_pile"] for x in layer] + v["flood_discard"]
    assert len(cards) == 23 and tile("e4") not in cards
    assert v["turn"] == 1
    act(state, "pass", "card waters_rise")
    v = view(state)
    assert v["flood_pile"][0] == sorted([tile("e3"), tile("d5")]) and v["flood_discard"] == []
    assert tile("e4") not in [x for layer in v["flood_pile"] for x in layer]


def test_fi20_pawns_on_a_sinking_tile_swim_by_an_edge_each_on_its_own(make):
    """FI-20. Rulebook: "If a pawn is on a tile that must be removed, it must immediately "swim" to an
    adjacent tile (up, down, left, or right) that is still part of the island (even flooded)." The stranded
    seats swim in seat order from the turn seat (§5.6)."""
    state = position(
        make,
        ["pilot", "engineer", "messenger"],
        ["c1", "d4", "d4"],
        flooded=["d4", "e4"],
        sunk=["c4", "d3"],
        phase="flood",
        flood_left=2,
        flood_top=["d4"],
    )
    act(state, "flood d4")
    v = view(state)
    assert v["phase"] == "swim" and state.current_player() == 1
    assert targets(state, "swim") == {"e4", "d5"}
    for diagonal in ("c3", "e3", "c5", "e5"):
        refused(state, SWIM(diagonal))
    act(state, "swim e4")
    assert state.current_player() == 2 and targets(state, "swim") == {"e4", "d5"}
    refused(state, SWIM("e5"))
    act(state, "swim d5")
    v = view(state)
    assert pawns(state) == ["c1", "e4", "d5"]
    assert v["phase"] == "flood" and v["turn"] == 0 and v["flood_left"] == 1 and v["outcome"] == "none"


FI21_STATUS = dict(flooded=["d4"], sunk=["c4", "d3", "e4", "d5", "c3", "e3", "e5"])


@pytest.mark.parametrize(
    ("where", "lost"),
    [(["d4", "c1"], False), (["c1", "d4"], True), (["d4", "d4"], True)],
    ids=["a-explorer", "b-engineer", "c-both"],
)
def test_fi21_explorer_swims_diagonally_another_role_sinks(make, where, lost):
    """FI-21. Rulebook: "If a pawn is on a tile that is removed and cannot move to an adjacent tile, it sinks
    into the abyss and everyone loses the game!" and "The Explorer may swim diagonally." """
    state = position(
        make, ["explorer", "engineer"], where, phase="flood", flood_left=2, flood_top=["d4"], **FI21_STATUS
    )
    act(state, "flood d4")
    if lost:
        v = view(state)
        assert state.is_terminal() and v["outcome"] == "lost" and state.returns() == [0.0, 0.0]
        assert v["flood_left"] == 1 and state.legal_actions() == []
        return
    assert state.current_player() == 0 and targets(state, "swim") == {"c5"}
    act(state, "swim c5")
    assert view(state)["outcome"] == "none" and view(state)["phase"] == "flood"


def test_fi22_diver_swims_to_the_nearest_tile(make):
    """FI-22. Rulebook: "The Diver may swim to the nearest tile." Nearest is counted in orthogonal steps
    through layout positions, sunk ones included (§7.3, interp. 5): Tidal Palace, two steps west."""
    sunk = ["c4", "d3", "e4", "d5", "c3", "e3", "c5", "e5", "d2", "d6", "f4"]
    state = position(
        make,
        ["diver", "pilot"],
        ["d4", "c1"],
        flooded=["d4"],
        sunk=sunk,
        turn=1,
        phase="flood",
        flood_left=2,
        flood_top=["d4"],
    )
    act(state, "flood d4")
    assert state.current_player() == 0 and targets(state, "swim") == {"b4"}
    act(state, "swim b4")
    assert view(state)["outcome"] == "none" and pawns(state)[0] == "b4"


def test_fi23a_pilot_swims_by_flying_anywhere(make):
    """FI-23 (a). Rulebook: "The Pilot may fly to any tile." (§7.3: Pilot, any q not sunk)"""
    state = position(
        make,
        ["engineer", "pilot"],
        ["d1", "e5"],
        flooded=["e5"],
        sunk=["d5", "e4"],
        phase="flood",
        flood_left=2,
        flood_top=["e5"],
    )
    act(state, "flood e5")
    assert state.current_player() == 1 and targets(state, "swim") == ALL - {"d5", "e4", "e5"}
    act(state, "swim c1")
    v = view(state)
    assert v["outcome"] == "none" and pawns(state)[1] == "c1" and v["turn"] == 0


def test_fi23b_pilot_swims_anywhere_after_his_flight(make):
    """FI-23 (b), rulebook silent on whether the once-per-turn limit covers the escape. The contract's swim
    (§7.3: "Pilot: any q") has no such limit; the once per turn is for the flight, a move (§5.3, interp. 3).
    So the Pilot who flew to Phantom Rock this turn still swims anywhere."""
    state = position(
        make, ["pilot", "engineer"], ["c1", "d1"], flooded=["e5"], sunk=["d5", "e4"], flood_top=["e5"]
    )
    act(state, "move e5", "pass", "card earth", "card wind")
    assert view(state)["pilot_flown"]
    act(state, "flood e5")
    assert state.current_player() == 0 and targets(state, "swim") == ALL - {"d5", "e4", "e5"}
    act(state, "swim c1")
    assert view(state)["outcome"] == "none"


# --- E. Waters Rise! ------------------------------------------------------------------------------------


@pytest.mark.parametrize("order", list(itertools.permutations(["b5", "e5", "c6"])), ids="-".join)
def test_fi24_waters_rise_level_up_discard_on_top_no_replacement(make, order):
    """FI-24. Rulebook: "1. Move the Water Level marker up … 2. Take all of the cards from the Flood discard
    pile, shuffle them, and then place them face down on top of the Flood draw pile. … 3. Discard the Waters
    Rise! card" and "If you draw a Waters Rise! card, you do not get a replacement card." The reshuffled cards
    are a new top layer (§3): the three flood draws come only from it, in any order."""
    state = position(
        make,
        ["engineer", "pilot"],
        ["d1", "c1"],
        hands=[["earth", "wind"], []],
        difficulty="normal",
        flooded=["b5", "e5"],
        phase="treasure",
        treasure_left=2,
        flood_top=["d6", "d5"],
        flood_discard=["b5", "e5", "c6"],
    )
    act(state, "card waters_rise")
    v = view(state)
    assert v["level"] == 3 and hands(state)[0] == hand("earth", "wind")
    assert v["flood_pile"][0] == sorted(tile(q) for q in ("b5", "e5", "c6")) and v["flood_pile"][1] == [
        tile("d6")
    ]
    assert v["flood_discard"] == [] and v["treasure_discard"][6] == 1 and v["treasure_left"] == 1
    act(state, "card fire")
    v = view(state)
    assert hands(state)[0] == hand("earth", "wind", "fire") and v["flood_left"] == 3
    for drawn, name in enumerate(order):
        assert weights(state) == flood_weights(*order[drawn:])
        act(state, f"flood {name}")
    v = view(state)
    assert status_of(state, "b5", "e5", "c6") == ["sunk", "sunk", "flooded"]
    assert v["flood_discard"] == [tile("c6")] and v["flood_pile"][0] == [tile("d6")]
    assert v["outcome"] == "none" and v["turn"] == 1


@pytest.mark.parametrize("order", [("a4", "b3"), ("b3", "a4")], ids="-".join)
def test_fi25_two_waters_rise_in_a_row_up_two_one_shuffle(make, order):
    """FI-25. Rulebook: "If you draw 2 Waters Rise! cards in a row, shuffle the Flood discard pile only once
    but move the Water Level marker up 2 tick marks." (§5.4 step 3: the second finds the discard empty.) The
    treasure pile has no order (§3), so "Earth stays on top" reads as: the Earth cards are all still in the
    pile."""
    state = position(
        make,
        ["explorer", "pilot"],
        ["d2", "c1"],
        hands=[["earth", "ocean"], []],
        difficulty="normal",
        flooded=["a4", "b3"],
        phase="treasure",
        treasure_left=2,
        flood_top=["c5", "b5"],
        flood_discard=["a4", "b3"],
    )
    act(state, "card waters_rise")
    after_first = view(state)["flood_pile"]
    assert after_first[0] == sorted([tile("a4"), tile("b3")]) and view(state)["flood_discard"] == []
    act(state, "card waters_rise")
    v = view(state)
    assert v["level"] == 4 and v["flood_left"] == 3 and v["flood_pile"] == after_first
    assert v["treasure_discard"][6] == 2 and hands(state)[0] == hand("earth", "ocean")
    assert v["treasure_pile"][0] == 4
    act(state, *(f"flood {q}" for q in order))
    assert weights(state) == flood_weights("c5")
    act(state, "flood c5")
    v = view(state)
    assert status_of(state, "a4", "b3", "c5") == ["sunk", "sunk", "flooded"]
    assert v["flood_pile"][0] == [tile("b5")] and v["outcome"] == "none"  # Tidal Palace still stands


def test_fi26_waters_rise_with_an_empty_flood_discard_only_raises_the_level(make):
    """FI-26. Rulebook: "If you draw a Waters Rise! card but there are no cards in the Flood discard pile,
    just move the Water Level marker up 1 tick mark." """
    state = position(
        make,
        ["messenger", "pilot"],
        ["d3", "c1"],
        level=5,
        phase="treasure",
        treasure_left=2,
        flood_top=["d5", "d6", "c5", "b5", "c6"],
    )
    pile = view(state)["flood_pile"]
    act(state, "card waters_rise")
    v = view(state)
    assert v["level"] == 6 and v["flood_pile"] == pile and v["flood_discard"] == []
    act(state, "card wind")
    assert hands(state)[0] == hand("wind") and view(state)["flood_left"] == 4
    for name in ("d5", "d6", "c5", "b5"):
        assert weights(state) == flood_weights(name)
        act(state, f"flood {name}")
    v = view(state)
    assert status_of(state, "d5", "d6", "c5", "b5", "c6") == ["flooded"] * 4 + ["dry"]
    assert v["flood_pile"][0] == [tile("c6")] and v["turn"] == 1


def test_fi27_waters_rise_to_the_skull_loses_at_once(make):
    """FI-27. Rulebook, Losing 4: "If the water level reaches the skull and crossbones." Page: "The game is
    lost immediately"."""
    state = position(make, ["pilot", "engineer"], ["c1", "d1"], level=9, phase="treasure", treasure_left=2)
    act(state, "card waters_rise")
    v = view(state)
    assert state.is_terminal() and v["outcome"] == "lost" and v["level"] == 10
    assert state.returns() == [0.0, 0.0] and state.legal_actions() == []


def test_fi27_contrast_from_tick_eight_the_game_goes_on(make):
    """FI-27 contrast: from tick 8 a Waters Rise! moves the marker to tick 9, still 5 cards."""
    state = position(make, ["pilot", "engineer"], ["c1", "d1"], level=8, phase="treasure", treasure_left=2)
    act(state, "card waters_rise")
    assert not state.is_terminal() and view(state)["level"] == 9
    act(state, "card fire")
    v = view(state)
    assert v["phase"] == "flood" and v["flood_left"] == 5 and v["outcome"] == "none"


# --- F. Decks running out -------------------------------------------------------------------------------


FI28_OTHER = ["earth", "earth", "earth", "wind", "wind"]


def fi28_discard(pile: list[str]) -> list[str]:
    """Every treasure card not held (Earth ×2 and FI28_OTHER) and not in ``pile``."""
    left = [k for k in KINDS for _ in range(COUNTS[KINDS.index(k)])]
    for card in ["earth", "earth", *FI28_OTHER, *pile]:
        left.remove(card)
    return left


@pytest.mark.parametrize("second", ["sandbags", "fire", "ocean", "waters_rise"])
def test_fi28_treasure_deck_runs_out_in_the_middle_of_a_draw(make, second):
    """FI-28. Rulebook: "When the last card of the Treasure deck is drawn, immediately shuffle the Treasure
    discard pile and turn it over to form a new Treasure deck." The blind file's 4-card discard cannot be
    built: no hand holds a Waters Rise!, so all three are in the pile or the discard (the deserializer's
    conservation, §10), and with the deck at one card the discard holds every card not in a hand. So here the
    discard is Sandbags, Fire, Water, Waters Rise! and the rest; the expectations are the scenario's: the
    second card comes from the whole former discard, hands are not reshuffled, and afterwards the new deck is
    the former discard less the card drawn, the discard empty or holding only the Waters Rise!."""
    discard = fi28_discard(["wind"])
    state = position(
        make,
        ["pilot", "engineer"],
        ["c1", "d1"],
        hands=[["earth", "earth"], FI28_OTHER],
        phase="treasure",
        treasure_left=2,
        treasure_discard=discard,
        flood_discard=["b5"],
        flooded=["b5"],
    )
    old = view(state)["treasure_discard"]
    assert view(state)["treasure_pile"] == [0, 1, 0, 0, 0, 0, 0]
    act(state, "card wind")
    v = view(state)
    assert v["treasure_pile"] == old and v["treasure_discard"] == [0] * 7 and v["treasure_left"] == 1
    assert weights(state) == treasure_weights(old)
    act(state, f"card {second}")
    v = view(state)
    k = KINDS.index(second)
    assert v["treasure_pile"] == [c - (i == k) for i, c in enumerate(old)]
    assert hands(state)[1] == hand(*FI28_OTHER)
    if second == "waters_rise":
        assert v["treasure_discard"] == [0, 0, 0, 0, 0, 0, 1] and v["level"] == 2
        assert hands(state)[0] == hand("earth", "earth", "wind")
    else:
        assert v["treasure_discard"] == [0] * 7
        assert hands(state)[0] == hand("earth", "earth", "wind", second)


def test_fi28_silent_last_card_a_waters_rise_starts_the_new_discard(make):
    """FI-28's silent point (the last card of the deck is a Waters Rise!). The contract reshuffles at once
    (§5.4 step 2, interp. 2), before the card's effect (step 3), so the Waters Rise! is not in the new deck:
    it starts the new discard."""
    discard = fi28_discard(["waters_rise"])
    state = position(
        make,
        ["pilot", "engineer"],
        ["c1", "d1"],
        hands=[["earth", "earth"], FI28_OTHER],
        phase="treasure",
        treasure_left=2,
        treasure_discard=discard,
    )
    old = view(state)["treasure_discard"]
    act(state, "card waters_rise")
    v = view(state)
    assert v["treasure_pile"] == old and v["treasure_discard"] == [0, 0, 0, 0, 0, 0, 1] and v["level"] == 2


@pytest.mark.parametrize("pair", list(itertools.permutations(["c5", "b5", "d5"], 2)), ids="-".join)
def test_fi29_flood_pile_runs_out_in_the_middle_of_the_flood_step(make, pair):
    """FI-29. Rulebook: "If the Flood draw pile ever runs out, immediately shuffle the Flood discard pile …
    If this happens in the middle of a turn, continue drawing Flood cards as necessary from the new pile."
    A two-card pile needs every other card out of the game or in the discard (§10 conservation). So here every
    tile but Fools' Landing and the scenario's five has sunk (all four treasures captured, the pawns on Fools'
    Landing), and Fools' Landing's card, which cannot leave the game, is in the discard with the tile dry. The
    new pile is then Misty Marsh, Lost Lagoon, Observatory and Fools' Landing; two of the three flooded ones
    drawn sink, and the pile keeps the third and Fools' Landing's card."""
    standing = {"c1", "d5", "d6", "c5", "b5"}
    state = position(
        make,
        ["pilot", "engineer"],
        ["c1", "c1"],
        flooded=["d6", "c5", "b5"],
        sunk=sorted(ALL - standing),
        captured=("earth", "wind", "fire", "ocean"),
        level=6,
        phase="flood",
        flood_left=4,
        flood_top=["d5", "d6"],
        flood_discard=["c1", "c5", "b5"],
    )
    act(state, "flood d5")
    assert status_of(state, "d5") == ["flooded"]
    act(state, "flood d6")
    v = view(state)
    assert status_of(state, "d6") == ["sunk"]
    assert v["flood_pile"] == [sorted(tile(q) for q in ("c1", "c5", "b5", "d5"))] and v["flood_discard"] == []
    assert weights(state) == flood_weights("c1", "c5", "b5", "d5")
    act(state, *(f"flood {q}" for q in pair))
    v = view(state)
    (third,) = {"c5", "b5", "d5"} - set(pair)
    assert status_of(state, *pair) == ["sunk", "sunk"] and status_of(state, third) == ["flooded"]
    assert v["flood_pile"] == [sorted([tile("c1"), tile(third)])] and v["flood_discard"] == []
    assert tile("d6") not in v["flood_pile"][0]
    assert v["outcome"] == "none" and v["turn"] == 1


# --- G. Hand limit and special cards --------------------------------------------------------------------


def test_fi30_hand_limit_during_the_draw_and_a_special_card_instead_of_a_discard(make):
    """FI-30. Rulebook, Hand Limit: "You may only have 5 cards in your hand, including Treasure and Special
    Action cards. … If you choose to discard a Special Action card, you may use its action before
    discarding." Page: "a player may instead immediately play a special action card instead of
    discarding." """
    state = position(
        make,
        ["diver", "pilot"],
        ["f4", "c1"],
        hands=[["earth", "earth", "wind", "fire", "sandbags"], []],
        flooded=["a3"],
        phase="treasure",
        treasure_left=2,
    )
    act(state, "card ocean")
    v = view(state)
    assert v["phase"] == "discard" and state.current_player() == 0 and v["treasure_left"] == 1
    kinds = ("earth", "wind", "fire", "ocean", "sandbags")
    assert state.legal_actions() == sorted([DISCARD(k) for k in kinds] + [SANDBAG("a3")])
    act(state, "sandbag a3")
    v = view(state)
    assert status_of(state, "a3") == ["dry"] and v["treasure_discard"][KINDS.index("sandbags")] == 1
    assert v["phase"] == "treasure" and v["treasure_left"] == 1  # down to 5 before the second card
    act(state, "card heli")
    v = view(state)
    assert v["phase"] == "discard" and state.current_player() == 0
    legal = state.legal_actions()
    assert DISCARD("heli") in legal and HELI([0], "c1") in legal
    act(state, "discard fire")
    v = view(state)
    assert hands(state)[0] == hand("earth", "earth", "wind", "ocean", "heli")
    assert v["treasure_discard"] == [0, 0, 1, 0, 0, 1, 0]


def test_fi31_sandbags_anywhere_on_anyones_turn_for_no_action(make):
    """FI-31. Rulebook: "can be played at any time — even on another player's turn. Playing a Special Action
    card does not require an action." Page: "shore up any flooded tile anywhere on the island." The other
    seat's chance is the `act` window before each of the turn seat's actions (§6, interp. 1)."""
    state = position(
        make,
        ["pilot", "messenger"],
        ["c1", "d3"],
        hands=[[], ["sandbags", "sandbags"]],
        flooded=["a3"],
        sunk=["e3"],
    )
    act(state, "move d1")
    v = view(state)
    assert v["phase"] == "window" and v["window"] == "act" and state.current_player() == 1
    assert targets(state, "sandbag") == {"a3"}
    refused(state, SANDBAG("a4"))  # dry
    refused(state, SANDBAG("e3"))  # missing
    act(state, "sandbag a3")
    v = view(state)
    assert status_of(state, "a3") == ["dry"] and hands(state)[1] == hand("sandbags")
    assert v["treasure_discard"][KINDS.index("sandbags")] == 1
    assert v["phase"] == "actions" and state.current_player() == 0 and v["actions_left"] == 2


def test_fi31_the_turn_seat_plays_sandbags_without_spending_an_action(make):
    """FI-31: "The Pilot could also play a Sandbags during his own actions without spending one." (§5.8)"""
    state = position(make, ["pilot", "messenger"], ["c1", "d3"], hands=[["sandbags"], []], flooded=["a3"])
    act(state, "sandbag a3")
    v = view(state)
    assert status_of(state, "a3") == ["dry"] and v["actions_left"] == 3 and v["phase"] == "actions"


def fi32_position(make, **fields):
    return position(
        make,
        ["engineer", "navigator"],
        ["d1", "b3"],
        hands=[[], ["sandbags"]],
        flooded=["a4", "b4"],
        level=3,
        flood_top=["b4", "a4", "d5"],
        **fields,
    )


def test_fi32_no_sandbags_on_a_revealed_tile_but_on_another_before_its_card(make):
    """FI-32. Rulebook: "You cannot play a Sandbag card to save a flooded tile once you've revealed the
    matching Flood card." and "can be played at any time". The contract's `flood` window after each flood card
    (§6) lets the Navigator save Coral Palace before its card comes."""
    state = fi32_position(make, phase="flood", flood_left=3)
    act(state, "flood b4")
    v = view(state)
    assert status_of(state, "b4") == ["sunk"] and v["window"] == "flood" and state.current_player() == 1
    refused(state, SANDBAG("b4"))
    act(state, "sandbag a4")
    assert status_of(state, "a4") == ["dry"] and view(state)["phase"] == "flood"
    act(state, "flood a4", "flood d5")
    v = view(state)
    assert status_of(state, "a4", "d5") == ["flooded", "flooded"]
    assert v["outcome"] == "none" and v["turn"] == 1


def test_fi32_without_the_sandbags_both_palaces_sink_and_the_game_is_lost(make):
    """FI-32: "Without the Sandbags, Coral Palace would sink, both Palaces would be gone, and the game would
    be lost." Rulebook, Losing 1."""
    state = fi32_position(make, phase="flood", flood_left=3)
    act(state, "flood b4", "pass", "flood a4")
    assert state.is_terminal() and view(state)["outcome"] == "lost"


def test_fi32_sandbags_before_the_flood_step_save_the_tile(make):
    """FI-32: "Had the Sandbags been played on Tidal Palace before the flood step (for example during the
    treasure draw), it would have saved that tile." The last `treasure` window (§5.4 step 4)."""
    state = fi32_position(make, phase="window", stage="treasure", window="treasure", pending=[1])
    act(state, "sandbag b4")
    v = view(state)
    assert v["phase"] == "flood" and v["flood_left"] == 3
    act(state, "flood b4")
    assert status_of(state, "b4") == ["flooded"]


def fi33_position(make):
    return position(
        make,
        ["diver", "engineer", "messenger", "explorer"],
        ["c3", "c3", "d3", "d2"],
        hands=[[], [], [], ["heli"]],
        flooded=["f3"],
        sunk=["e3"],
        phase="window",
        window="act",
        pending=[3],
        actions_left=2,
    )


def test_fi33_helicopter_lift_any_pawns_from_one_tile_to_one_other(make):
    """FI-33. Page: "move any number of pawns from a single tile to any other tile on the board. Note the
    start and end tiles must be the same for all pawns moved, but you need not move all pawns from the start
    tile." A play names one set of seats and one end tile (§8 `heli <seats> <pos>`), so (c) has no action;
    and with one card, after one play the Explorer holds none."""
    state = fi33_position(make)
    assert state.current_player() == 3
    legal = state.legal_actions()
    assert HELI([0, 1], "f3") in legal and HELI([0], "c1") in legal  # (a), (d)
    assert not [a for a in legal if 185 <= a < 545 and (a - 185) // 24 + 1 == 0b0110]  # (b) seats 1 and 2
    refused(state, HELI([1, 2], "f3"))
    for mask in range(1, 16):
        seats = [s for s in range(4) if mask >> s & 1]
        refused(state, HELI(seats, "e3"))  # (e)
    act(state, "heli 0+1 f3")
    v = view(state)
    assert pawns(state) == ["f3", "f3", "d3", "d2"] and hands(state)[3] == hand()
    assert v["treasure_discard"][KINDS.index("heli")] == 1
    assert v["phase"] == "actions" and state.current_player() == 0 and v["actions_left"] == 2
    assert not [a for a in state.legal_actions() if 185 <= a <= 545]
    other = fi33_position(make)
    act(other, "heli 0 c1")
    assert pawns(other) == ["c1", "c3", "d3", "d2"]


FI34_STATUS = dict(flooded=["d4"], sunk=["c4", "d3", "e4", "d5", "c3", "e3", "e5"])


def test_fi34a_helicopter_lift_before_the_flood_step(make):
    """FI-34 (a): the lift before the flood step moves the Engineer to Fools' Landing; Cliffs of Abandon then
    sinks with no pawn on it. ("can be played at any time"; the last `treasure` window, §5.4 step 4)"""
    state = position(
        make,
        ["explorer", "engineer"],
        ["c1", "d4"],
        hands=[["heli"], []],
        **FI34_STATUS,
        phase="window",
        stage="treasure",
        window="treasure",
        pending=[0],
        flood_top=["d4"],
    )
    act(state, "heli 1 c1")
    assert view(state)["phase"] == "flood"
    act(state, "flood d4")
    v = view(state)
    assert status_of(state, "d4") == ["sunk"] and v["outcome"] == "none" and pawns(state) == ["c1", "c1"]


@pytest.mark.parametrize("rescue", [True, False], ids=["lift", "no-lift"])
def test_fi34b_helicopter_rescue_after_the_reveal(make, rescue):
    """FI-34 (b), rulebook silent. The contract allows it: the `rescue` window before the swims (§5.5 step 3,
    §6, interp. 1) and "p may be a sunk position only while its pawns are stranded (§5.5): that is the rescue"
    (§5.8). With the lift the team survives; if the Explorer passes, the Engineer cannot swim and all lose."""
    state = position(
        make,
        ["explorer", "engineer"],
        ["c1", "d4"],
        hands=[["heli"], []],
        **FI34_STATUS,
        phase="flood",
        flood_left=2,
        flood_top=["d4"],
    )
    act(state, "flood d4")
    v = view(state)
    assert v["phase"] == "window" and v["window"] == "rescue" and state.current_player() == 0
    if rescue:
        act(state, "heli 1 c1")
        v = view(state)
        assert v["outcome"] == "none" and pawns(state) == ["c1", "c1"] and v["phase"] == "flood"
    else:
        act(state, "pass")
        assert state.is_terminal() and view(state)["outcome"] == "lost"


# --- H. Winning -----------------------------------------------------------------------------------------


def test_fi35_the_win_at_once_from_anyone_on_a_flooded_fools_landing(make):
    """FI-35. Rulebook: "one player must discard a Helicopter Lift card to lift your team off of Forbidden
    Island for the win!" and "You may win if Fools' Landing is flooded." Page: "regardless of whose turn it is
    or what phase of play it is." The Navigator plays in the `act` window of the Diver's turn (§6)."""
    state = position(
        make,
        ["diver", "navigator", "pilot", "engineer"],
        ["c1"] * 4,
        hands=[[], ["heli"], [], []],
        flooded=["c1"],
        captured=("earth", "wind", "fire", "ocean"),
        phase="window",
        window="act",
        pending=[1],
        actions_left=2,
    )
    act(state, "liftoff")
    assert state.is_terminal() and view(state)["outcome"] == "won"
    assert state.returns() == [1.0] * 4 and state.legal_actions() == []


def test_fi36a_c_a_gathering_lift_is_not_the_escape_and_no_automatic_win(make):
    """FI-36 (a) and (c). Rulebook: "everyone must move their pawns to the Fools' Landing tile. Then, one
    player must discard a Helicopter Lift card". Liftoff needs every pawn already there (§5.8); the team wins
    only when a later Helicopter Lift is played."""
    state = position(
        make,
        ["messenger", "explorer", "pilot", "engineer"],
        ["d1", "d1", "c1", "c1"],
        hands=[["heli"], [], [], []],
        captured=("earth", "wind", "fire", "ocean"),
    )
    refused(state, LIFTOFF)
    act(state, "heli 0+1 c1")  # (a)
    v = view(state)
    assert pawns(state) == ["c1"] * 4 and v["outcome"] == "none" and not state.is_terminal()
    assert LIFTOFF not in state.legal_actions()
    act(state, "pass", "card earth")  # (c) the turn goes on with its draws
    assert view(state)["phase"] == "treasure" and not state.is_terminal()
    act(state, "card heli")
    v = view(state)
    assert v["window"] == "treasure" and state.current_player() == 0 and LIFTOFF in state.legal_actions()
    act(state, "liftoff")
    assert view(state)["outcome"] == "won"


def test_fi36b_three_treasures_are_not_enough(make):
    """FI-36 (b). Page: "it lifts all players off of the sinking island with their treasures, but only if all
    pawns are on the Fool's Landing tile"; rulebook: "Once you have collected all four treasures"."""
    state = position(
        make,
        ["messenger", "explorer"],
        ["c1", "c1"],
        hands=[["heli"], []],
        captured=("earth", "wind", "fire"),
    )
    refused(state, LIFTOFF)
    assert HELI([0, 1], "d1") in state.legal_actions()


# --- I. Losing ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("pilot_there", [True, False], ids=["pilot-on-it", "no-pawn"])
@pytest.mark.parametrize(
    "captured", [(), ("earth", "wind", "fire", "ocean")], ids=["none-captured", "all-captured"]
)
def test_fi37_fools_landing_sinks_lost_at_once(make, pilot_there, captured):
    """FI-37. Rulebook, Losing 2: "If the Fools' Landing tile sinks." Page: "The game is lost immediately"."""
    state = position(
        make,
        ["engineer", "pilot"],
        ["d1", "c1" if pilot_there else "d1"],
        flooded=["c1"],
        captured=captured,
        level=3,
        phase="flood",
        flood_left=3,
        flood_top=["c1", "d5", "d6"],
    )
    act(state, "flood c1")
    v = view(state)
    assert state.is_terminal() and v["outcome"] == "lost" and state.returns() == [0.0, 0.0]
    assert status_of(state, "d5", "d6") == ["dry", "dry"] and v["flood_left"] == 2


@pytest.mark.parametrize(
    ("captured", "sunk", "last", "lost"),
    [((), ["a3"], "e2", True), (("fire",), ["e3"], "f3", False), ((), [], "c2", False)],
    ids=["a-wind-uncaptured", "b-fire-captured", "fi14-one-temple"],
)
def test_fi38_both_tiles_of_an_uncaptured_treasure_sink(make, captured, sunk, last, lost):
    """FI-38. Rulebook, Losing 1: "If both Temples, Caves, Palaces, or Gardens tiles sink before you collect
    their respective treasures." (and FI-14's note: one Temple sinking while the other stands, no loss)."""
    state = position(
        make,
        ["engineer", "pilot"],
        ["d1", "c1"],
        flooded=[last],
        sunk=sunk,
        captured=captured,
        phase="flood",
        flood_left=2,
        flood_top=[last],
    )
    act(state, f"flood {last}")
    v = view(state)
    assert status_of(state, last) == ["sunk"]
    assert v["outcome"] == ("lost" if lost else "none") and state.is_terminal() == lost
    assert v["captured"] == [k in captured for k in KINDS[:4]]
