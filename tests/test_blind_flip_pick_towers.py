"""Flip Pick Towers: the blind scenarios of /work/blind/flip_pick_towers.md (FPT-01 .. FPT-20), written by a
colleague who read only the rulebook, as tests on both engines.

Positions are written in the serialization format of docs/rules/flip_pick_towers.md §10 on the placeholder
sheet (10 rows; columns a, c, e, g are tower columns, b, d, f garden columns), with the helpers of
tests/test_flip_pick_towers_rules.py. The blind T1, G1, T2, T3 are columns a, b, c, e; "row r" is the sheet's
row r (cell ``a1`` is T1 row 1). Seat 0 is player A. Each docstring names the scenario and quotes the rulebook
sentence it rests on.
"""

from __future__ import annotations

import json

import pytest

from test_flip_pick_towers_rules import (
    MAGIC,
    NO_MAGIC,
    PICK1,
    PICK2,
    PICK3,
    QUIET,
    STABILITY_MINUS,
    at,
    box,
    boxes,
    cells,
    final_turn,
    full_stalls,
    kind,
    load,
    seat,
    token,
    view,
)

STALLS = ("fabric", "beans", "gold", "glass")


def apply(state, *actions: int) -> None:
    for action in actions:
        assert action in state.legal_actions(), (action, state.legal_actions())
        state.apply_action(action)


def full(layout=None, **kwargs) -> dict:
    """A seat whose market stalls are all full: every resource is lost, so a sketch asks only for the cell."""
    return seat(layout, stalls=full_stalls(), **kwargs)


def flip(state, display) -> None:
    """The Flip step's three chance outcomes."""
    for k in display:
        assert state.is_chance_node()
        apply(state, k)


# --- Rounds, the Pick ---------------------------------------------------------------------------------------


def test_fpt01_a_round_is_21_displays_and_round_2_reshuffles_all_63(make):
    """FPT-01. Round Overview: "Each round follows the steps below until the castle deck runs out". "If you
    are unable to flip 3 cards during step 1, move to End of Round." End of Round Scoring: "shuffle the castle
    cards together to reset the castle deck and move to the second round." Components: "63 tremendous castle
    cards"."""
    game = make("flip_pick_towers", players=2)
    state = game.new_initial_state()
    for card in (0, 1, 2):
        state.apply_action(card)
    assert sum(view(state)["deck"]) == 63
    # Turn 20 (the 20th display): 3 cards are left for a 21st.
    game, state = load(make, QUIET, seats=[full(), full()], players=2, turn=19)
    apply(state, PICK1, PICK1)
    v = view(state)
    assert (v["round"], v["turn"], sum(v["deck"])) == (1, 20, 3) and state.is_chance_node()
    # The 21st display ends round 1; round 2 starts with all 63 cards.
    game, state = load(make, QUIET, seats=[full(), full()], players=2, turn=20)
    apply(state, PICK1, PICK1)
    v = view(state)
    assert (v["round"], v["turn"], sum(v["deck"]), v["display"]) == (2, 0, 63, [])
    # Round 2's 21st display ends the game.
    game, state = load(make, QUIET, seats=[full(), full()], players=2, round=2, turn=20)
    apply(state, PICK1, PICK1)
    assert state.is_terminal()


def test_fpt02_simultaneous_picks_of_the_same_card_which_stays(make):
    """FPT-02. Pick: "At the same time, all players pick any one of the castle cards in the display".
    "Multiple players can choose the same card." "Players do not take their chosen cards from the display."
    Refresh: "discard the three castle cards currently in the display into a face-down discard pile"."""
    display = [kind("floor 3", "fabric"), kind("roof", "fabric"), kind("Princess", "fabric")]
    game, state = load(make, display, seats=[seat(), seat(), seat()], players=3)
    apply(state, PICK1, PICK1, PICK1)
    for s in range(3):
        assert view(state)["display"] == display
        assert state.current_player() == s
        apply(state, at("c1"), box("fabric", 1))
    v = view(state)
    assert all(token(state, "c1", s) == "F3-" for s in range(3))
    assert all(seat_["stalls"][0][0] == 1 for seat_ in v["seats"])
    assert v["display"] == [] and v["turn"] == 1 and state.is_chance_node()
    assert sum(v["deck"]) == 63 - 3


# --- Placement rules ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("stability", "legal"),
    [(5, ["c1", "e1", "g1"]), (6, ["c1", "e1", "g1"]), (4, ["a2", "c1", "e1", "g1"])],
)
def test_fpt03_floors_strictly_decrease_going_up(make, stability, legal):
    """FPT-03. Floors: "You cannot sketch a floor directly on top of a floor of lower or equal stability."
    "'Directly on top of' always means the grid space immediately above." (no scribble while a cell fits)."""
    game, state = load(make, [kind(f"floor {stability}"), *QUIET[:2]], seats=[full({"a1": "F5-"})])
    apply(state, PICK1)
    assert state.legal_actions() == cells(*legal)
    apply(state, at(legal[0]))
    assert view(state)["seats"][0]["crest"] == 0


def test_fpt04_any_floor_on_a_bridge_none_floating(make):
    """FPT-04. Floors: "You may add any floor directly on top of a foundation or a bridge, regardless of the
    new floor's stability." Bridges: "Bridges are the only way for you to add floors to garden columns". Not
    on Floor 1 (9 > 1), not floating at T1 row 6."""
    layout = {"a1": "F9-", "a2": "F7-", "a3": "F2-", "c1": "F1-", "b1": "B"}
    game, state = load(make, [kind("floor 9"), *QUIET[:2]], seats=[full(layout)])
    apply(state, PICK1)
    assert state.legal_actions() == cells("b2", "e1", "g1")


def test_fpt05_roofs_on_any_floor_never_on_a_foundation(make):
    """FPT-05. Roofs: "When you pick a roof, add it directly on top of any existing floor, regardless of
    stability." "Note: You may not add a roof directly on top of a bridge or foundation." "You may not add a
    floor directly on top of a roof." Blind (medium): B still gains the resource; interpretation 29 too."""
    display = [kind("roof", "fabric"), kind("floor 9", "fabric"), kind("floor 8", "fabric")]
    game, state = load(make, display, seats=[seat({"a1": "F1-"}), seat()], players=2)
    apply(state, PICK1, PICK1)
    assert state.legal_actions() == cells("a2")
    apply(state, at("a2"), box("fabric", 1))
    # B: no floor, so the roof fits nowhere: a crest section, and the resource anyway.
    assert state.current_player() == 1 and view(state)["seats"][1]["crest"] == 1
    assert state.legal_actions() == boxes("fabric")
    apply(state, box("fabric", 1))
    assert token(state, "a2") == "R3"
    flip(state, [kind("floor 9", "beans"), kind("floor 7"), kind("floor 6")])
    apply(state, PICK1, PICK1)
    assert at("a3") not in state.legal_actions()


FLAG_SEATS = {"a1": "F9-", "c1": "F9-"}


def _roof_turn(state, roofers: set[int], roof_cell: dict[int, str], floor_cell: dict[int, str], display):
    """One turn of three seats: the ``roofers`` pick the roof (slot 1), the others the floor 5 (slot 2)."""
    flip(state, display)
    for s in range(3):
        apply(state, PICK1 if s in roofers else PICK2)
    for s in range(3):
        apply(state, at(roof_cell[s] if s in roofers else floor_cell[s]))


def _flags_game(make):
    first = [kind("roof", "fabric"), kind("floor 5", "fabric"), kind("floor 6", "fabric")]
    game, state = load(make, first, seats=[full(FLAG_SEATS) for _ in range(3)], players=3)
    for s in range(3):
        apply(state, PICK1 if s == 0 else PICK2)
    apply(state, at("a2"), at("e1"), at("e1"))  # turn "4": A's roof
    assert token(state, "a2", 0) == "R3"
    return state


def test_fpt06_flags_three_then_two_shared(make):
    """FPT-06 (turns 4, 7, 12). Flags: "The first player to add a roof in each round ... adds 3 flags to it."
    "The second player to add a roof in each round adds 2 flags to it." "If multiple players add roofs on the
    same turn, each of those players add the same number of flags." """
    state = _flags_game(make)
    display = [kind("roof", "beans"), kind("floor 5", "beans"), kind("floor 6", "beans")]
    _roof_turn(state, {1, 2}, {1: "a2", 2: "a2"}, {0: "e1"}, display)  # turn "7": B and C
    assert (token(state, "a2", 1), token(state, "a2", 2)) == ("R2", "R2")
    assert view(state)["flags_taken"] == 2


def test_fpt06_a_players_second_roof_is_not_the_third_player(make):
    """FPT-06 (turns 9, 12). Flags: "The first player to add a roof in each round ... The second player to add
    a roof ... The third player to add a roof in each round adds 1 flag". Blind expectation (medium, counting
    roofs): A's second roof, after B and C shared the second tier, gets 1 flag. Read by players, as issue 14
    rules, A is not the third player to add a roof: 0 flags (and B's second roof 0). Both engines used to give
    the next bonus of the tracker to whichever turn added a roof next (1 flag); fixed by issue 14 item 11."""
    state = _flags_game(make)
    display = [kind("roof", "beans"), kind("floor 5", "beans"), kind("floor 6", "beans")]
    _roof_turn(state, {1, 2}, {1: "a2", 2: "a2"}, {0: "e1"}, display)
    display = [kind("roof", "gold"), kind("floor 5", "gold"), kind("floor 6", "gold")]
    _roof_turn(state, {0}, {0: "c2"}, {1: "g1", 2: "g1"}, display)  # turn "9": A's second roof
    assert token(state, "c2", 0) == "R0"
    display = [kind("roof", "glass"), kind("floor 5", "glass"), kind("floor 6", "glass")]
    _roof_turn(state, {1}, {1: "c2"}, {0: "g1", 2: "c2"}, display)  # turn "12": B's second roof
    assert token(state, "c2", 1) == "R0"


def test_fpt07_round_2_tracker_and_round_1_features_scored_again(make):
    """FPT-07. Flags note: "You will use the flag bonus tracker marked Round 1 in the first round, and the
    tracker marked Round 2 in the second." End of Round Scoring: "Remember, anything scored in the first round
    will be scored again in the second!" """
    a, b = full({"a1": "F9-", "a2": "R3"}), full({"c1": "F9-"})
    game, state = load(make, QUIET, seats=[a, b], players=2, turn=20, flags_taken=1)
    apply(state, PICK1, PICK1)  # the last turn of round 1
    v = view(state)
    assert (v["round"], v["flags_taken"]) == (2, 0)
    assert [s["round_scores"] for s in v["seats"]] == [[7, 0], [1, 0]]  # height 1 + 3 flags x 2; height 1
    flip(state, [kind("roof", "fabric"), kind("Sosban"), kind("Mab")])
    apply(state, PICK2, PICK1)
    for s in (0, 1):
        if NO_MAGIC in state.legal_actions():
            apply(state, NO_MAGIC)
        if s == 1:
            apply(state, at("c2"))
    assert token(state, "c2", 1) == "R3"  # the first roof of round 2
    v = view(state)
    seats = v["seats"]
    for s in seats:
        s["creatures"] = [[0, 0]] * 5
    # The round-2 flag bonus seat 1 took stays taken (issue 14 item 11 records it per player).
    state = final_turn(make, seats, flags_taken=v["flags_taken"])
    assert [s["round_scores"] for s in view(state)["seats"]] == [[7, 7], [1, 7]]


def test_fpt08_mab_picks_the_same_card_again_one_roof_gets_flags(make):
    """FPT-08. Creature Magic: "Mab (the Fairy) - Immediately pick the same castle card again." Flags: "If you
    use Mab the fairy to add two roofs in a single turn, only one of those would potentially get flags."
    Creatures: "add a second diagonal line through their X space to mark it as used." """
    mab = [[0, 0]] * 4 + [[1, 0]]
    a = seat({"a1": "F9-", "c1": "F9-"}, creatures=mab)
    game, state = load(make, [kind("roof", "fabric"), *QUIET[:2]], seats=[a, full()], players=2)
    apply(state, PICK1, PICK2)
    apply(state, MAGIC["Mab"], at("a2"), box("fabric", 3), at("c2"), box("fabric", 4))
    v = view(state)
    assert v["seats"][0]["creatures"][4] == [0, 1]
    assert v["seats"][0]["stalls"][0] == [0, 0, 1, 1]  # the resource twice
    assert state.is_chance_node()
    assert sorted([token(state, "a2"), token(state, "c2")]) == ["R0", "R3"]


# --- Dragons ------------------------------------------------------------------------------------------------


def test_fpt09_dragon_resolved_by_every_player_before_the_pick(make):
    """FPT-09. Dragons: "Whenever one or more of these dastardly dragons is revealed, before the PICK step,
    you must either: A. Add a dragon directly on top of a floor. ... OR B. Reluctantly cross out one of your
    existing bags of gold." "If you have no bag of gold to give and no suitable places to add a dragon,
    instead decorate a section of your family crest." """
    a = full({"a1": "F4g"})
    b = full({"a1": "F4-", "a2": "R0"})
    c = full({"a1": "F5g", "a2": "F4-", "a3": "R0"})
    display = [kind("dragon", "gold"), kind("floor 2", "fabric"), kind("bridge", "fabric")]
    game, state = load(make, display, seats=[a, b, c], players=3)
    assert view(state)["step"] == "dragon" and state.current_player() == 0
    assert state.legal_actions() == cells("a1", "a2")
    apply(state, at("a2"))
    # B has no option: a crest section; C has only its bag of gold.
    assert state.current_player() == 2 and view(state)["seats"][1]["crest"] == 1
    assert state.legal_actions() == cells("a1")
    apply(state, at("a1"))
    v = view(state)
    assert v["step"] == "pick" and token(state, "a2", 0) == "D" and token(state, "a1", 2) == "F5x"


def test_fpt10_crossed_out_gold_blocks_its_floor_and_scores_0(make):
    """FPT-10. Dragons note: "You may not add anything else inside a floor with a crossed out bag of gold in
    it, but the floor is otherwise considered empty. It will not be counted for points." Scoring 4: "Crossed
    out bags of gold (those given to dragons) score 0." """
    layout = {"a1": "F6x", "a2": "F3w"}
    game, state = load(make, [kind("King"), *QUIET[:2]], seats=[full(layout)])
    apply(state, PICK1)
    assert state.is_chance_node() and view(state)["seats"][0]["crest"] == 1
    state = final_turn(make, [seat(layout)])
    assert state.scores() == [2.0 + 3.0]  # height row 2 (the crossed floor still a floor), one window; gold 0


def test_fpt11_third_crest_section_one_more_turn_then_the_end(make):
    """FPT-11. Sketch note: "If a player ever scribbles in the third section of their family crest, FLIP,
    PICK, and SKETCH one final time, then complete End of Round Scoring. Then move to End of Game Scoring."
    """
    a, b = full({"a1": "F9-"}), full(crest=2)
    game, state = load(make, [kind("King"), *QUIET[:2]], seats=[a, b], players=2, turn=11)
    apply(state, PICK2, PICK1)  # B cannot add its King: the third section
    v = view(state)
    assert v["seats"][1]["crest"] == 3 and v["final_turn"] and not state.is_terminal()
    flip(state, [kind("Ji-Ji"), kind("Sosban"), kind("Mab")])
    apply(state, PICK1, PICK1)  # both seats play the final turn
    if not state.is_terminal():
        apply(state, NO_MAGIC)
    assert state.is_terminal()
    v = view(state)
    assert v["round"] == 1 and [s["round_scores"] for s in v["seats"]] == [[1, 0], [0, 0]]
    assert state.returns() == [1.0, 0.0]


def test_fpt12_no_voluntary_crest_scribble(make):
    """FPT-12. Sketch: "You must add a card's feature when you pick it, if able." FAQ 2: "Can I choose to
    scribble in my family crest instead of adding a feature from a card? No." """
    display = [kind("floor 8"), kind("roof"), kind("Queen")]
    game, state = load(make, display, seats=[full({"a1": "F2-"})])
    apply(state, PICK1)
    assert state.legal_actions() == cells("c1", "e1", "g1")


# --- Resources and decorations ------------------------------------------------------------------------------

ONE_GOLD_SHORT = [[2, 2, 3, 3], [2, 3, 3, 4], [1, 2, 3, 3], [2, 2, 3, 3]]


def _fpt13(make, slot):
    display = [kind("floor 4", "gold"), kind("roof", "gold"), kind("bridge", "glass")]
    layout = {"a1": "F9q", "c1": "F9w"}
    game, state = load(make, display, seats=[seat(layout, stalls=ONE_GOLD_SHORT)])
    apply(state, slot)
    return state


def test_fpt13a_the_feature_first_then_the_bag_of_gold_inside_it(make):
    """FPT-13 (a). Sketch: "After you pick a castle card, add its feature to your castle sheet ... Then add
    the resource gained". "If you complete any column in one of your market stalls, add the decoration gained
    immediately." Bags of Gold: "Add a bag of shiny gold inside any existing empty floor." """
    state = _fpt13(make, PICK1)
    apply(state, at("e1"))
    assert state.legal_actions() == [box("gold", 1)]
    apply(state, box("gold", 1))
    assert state.legal_actions() == cells("e1")
    apply(state, at("e1"))
    assert token(state, "e1") == "F4g"


def test_fpt13b_no_empty_floor_the_bag_is_lost(make):
    """FPT-13 (b). "If there is no space to add a decoration to the castle sheet, it is lost and not added.
    ... Decorations cannot be saved for later." """
    state = _fpt13(make, PICK2)
    apply(state, at("a2"), box("gold", 1))
    assert state.is_chance_node()
    grid = view(state)["seats"][0]["grid"]
    assert not any(t.endswith("g") for row in grid for t in row)


def test_fpt13c_a_full_stall_loses_the_resource(make):
    """FPT-13 (c). Resources: "If there is no space to fill in a box in the market stall, the resource is
    lost." """
    state = _fpt13(make, PICK3)
    apply(state, at("b1"))
    assert state.is_chance_node() and token(state, "b1") == "B"
    assert view(state)["seats"][0]["stalls"] == ONE_GOLD_SHORT


def windows(n: int) -> dict:
    """``n`` windows, each in a floor in row 1 of its own tower column."""
    return {f"{col}1": "F9w" for col in "aceg"[:n]}


@pytest.mark.parametrize(
    ("counts", "expected"),
    [((3, 3, 1), [12, 12, 6]), ((4, 2, 2), [12, 6, 6]), ((4,), [12])],
)
def test_fpt14_windows_majority_and_solo(make, counts, expected):
    """FPT-14. Scoring 5: "The players with the most total windows score 12 points. The players with the
    second most windows score 6 points." Solo: "Windows: Each window scores 3 points." (a): the tie for most
    does not use up the second tier, as the blind writer reads it and as interpretation 13 does."""
    state = final_turn(make, [seat(windows(n)) for n in counts])
    # Each window sits in a floor of row 1 of its own tower: 1 point of height per window.
    assert state.scores() == [float(n + pts) for n, pts in zip(counts, expected, strict=True)]


def _tied(make, b_round1: int):
    a = seat(windows(4))  # round 2: 4 heights + 12
    b = seat({f"a{r}": f"F{10 - r}-" for r in range(1, 9)} | {"c1": "F9-"})  # 12 + 1
    return _final(make, [a, b], [64, b_round1])


def _final(make, seats, round1):
    for s, r1 in zip(seats, round1, strict=True):
        s["round_scores"] = [r1, 0]
    return final_turn(make, seats)


def test_fpt15_the_round_2_tiebreak(make):
    """FPT-15. End of Game Scoring: "Add up your scores from round 1 and round 2. The player with the highest
    total score wins". "In a tie, the player with the highest score in round 2 wins"."""
    state = _tied(make, 67)
    assert [s["round_scores"] for s in view(state)["seats"]] == [[64, 16], [67, 13]]
    assert state.scores() == [80.0, 80.0] and state.returns() == [1.0, 0.0]


def test_fpt15_equal_round_2_is_a_shared_win(make):
    """FPT-15, last sentence: "If round-2 scores are also equal, no further tie-break exists (shared win)"
    (interpretation 19)."""
    a = seat(windows(4))
    b = seat(windows(4))
    state = _final(make, [a, b], [30, 30])
    assert state.returns() == [0.5, 0.5]


def test_fpt16_tower_height_ignores_roofs_dragons_and_flags(make):
    """FPT-16. Scoring 1: "For each tower in your castle, find your highest floor." "Note: Bridges, dragons,
    flags, and roofs are not counted towards the height of a tower." """
    layout = {"a1": "F8-", "a2": "F5-", "a3": "F2-", "a4": "R3", "c1": "F9-", "c2": "D"}
    state = final_turn(make, [seat(layout)])
    assert state.scores() == [3.0 + 1.0 + 6.0]  # the tracker's row 3 and row 1 values; 3 flags x 2


BRIDGE_FLOORS = {"a1": "F7-", "a2": "F6-", "c1": "F5-", "c2": "F3-"}


def test_fpt17a_a_bridge_between_two_floors(make):
    """FPT-17 (a). Bridges: "When you pick a bridge, add it to a single empty grid space between two existing
    floors to connect them." """
    game, state = load(make, [kind("bridge"), *QUIET[:2]], seats=[full(BRIDGE_FLOORS)])
    apply(state, PICK1)
    assert state.legal_actions() == cells("b1", "b2")
    apply(state, at("b2"))
    assert token(state, "b2") == "B"


def test_fpt17b_anything_on_a_bridge_but_a_roof(make):
    """FPT-17 (b). "Bridges act as new foundations meaning you can add any new floors directly on top of
    them." "Note: You may not add a roof directly on top of a bridge or foundation." """
    layout = BRIDGE_FLOORS | {"b2": "B"}
    game, state = load(make, [kind("floor 9"), kind("roof"), QUIET[0]], seats=[full(layout)])
    apply(state, PICK1)
    assert at("b3") in state.legal_actions()
    game, state = load(make, [kind("floor 9"), kind("roof"), QUIET[0]], seats=[full(layout)])
    apply(state, PICK2)
    assert at("b3") not in state.legal_actions() and at("a3") in state.legal_actions()
    game, state = load(make, [kind("floor 9"), kind("roof"), QUIET[0]], seats=[full(layout | {"b3": "F9-"})])
    apply(state, PICK2)
    assert at("b4") in state.legal_actions()


def test_fpt17c_no_bridge_beside_a_single_floor(make):
    """FPT-17 (c). Bridges: "between two existing floors"."""
    game, state = load(make, [kind("bridge"), *QUIET[:2]], seats=[full({"a1": "F7-"})])
    apply(state, PICK1)
    assert state.is_chance_node() and view(state)["seats"][0]["crest"] == 1


def test_fpt18_royals_inside_an_empty_floor_one_element_each(make):
    """FPT-18. Royals: "When you pick a royal, add the majestic family member inside an empty floor." "Note:
    Royals may not be added inside bridges or roofs." Sheet: "A floor can only ever contain one of these
    elements." """
    layout = {"a1": "F6w", "a2": "F4-", "a3": "R0", "c1": "F9w", "b1": "B"}
    game, state = load(make, [kind("Princess"), *QUIET[:2]], seats=[full(layout)])
    apply(state, PICK1)
    assert state.legal_actions() == cells("a2")
    apply(state, at("a2"))
    assert token(state, "a2") == "F4p"
    game, state = load(make, [kind("Princess"), *QUIET[:2]], seats=[full(layout | {"a2": "F4p"})])
    apply(state, PICK1)
    assert state.is_chance_node() and view(state)["seats"][0]["crest"] == 1


# --- Creatures ----------------------------------------------------------------------------------------------


def creatures(**gained) -> list[list[int]]:
    names = ["Derwen", "Bwca", "Ji-Ji", "Sosban", "Mab"]
    return [[gained.get(n.replace("-", ""), 0), 0] for n in names]


def test_fpt19a_sosban_gained_then_used(make):
    """FPT-19 (a). Creatures: "When you pick a creature, add a single diagonal line through one of their X
    spaces". "A creature's resource always counts as wild". "Sosban (the Witch) - Add floor picked directly on
    top of any available floor. Ignore stability rules." """
    layout = {"a1": "F3-", "c1": "F5-"}
    game, state = load(make, [kind("Sosban"), *QUIET[:2]], seats=[seat(layout)])
    apply(state, PICK1)
    assert sorted(state.legal_actions()) == sorted(b for r in STALLS for b in boxes(r))  # wild
    apply(state, box("glass", 1))
    v = view(state)
    assert v["seats"][0]["creatures"][3] == [1, 0] and v["seats"][0]["stalls"][3][0] == 1
    game, state = load(
        make, [kind("floor 8"), *QUIET[:2]], seats=[full(layout, creatures=creatures(Sosban=1))]
    )
    apply(state, PICK1, MAGIC["Sosban"])
    assert at("a2") in state.legal_actions()
    apply(state, at("a2"))
    assert token(state, "a2") == "F8-" and view(state)["seats"][0]["creatures"][3] == [0, 1]


def test_fpt19b_bwca_changes_the_stability(make):
    """FPT-19 (b). "Bwca (the Imp) - Apply +/- 1 to a floor's stability before adding it." """
    layout = {"a1": "F3-", "c1": "F5-"}
    game, state = load(make, [kind("floor 5"), *QUIET[:2]], seats=[full(layout, creatures=creatures(Bwca=1))])
    apply(state, PICK1, MAGIC["Bwca"], STABILITY_MINUS, at("c2"))
    assert token(state, "c2") == "F4-" and view(state)["seats"][0]["creatures"][1] == [0, 1]


def test_fpt19c_ji_ji_gains_the_other_resources_one_creature_per_pick(make):
    """FPT-19 (c). "Ji-Ji (the Centaur) - Also gain the other resources in the display." "You may choose to
    use one of your creatures' magic whenever you pick a castle card from the display." """
    layout = {"a1": "F3-", "c1": "F5-"}
    display = [kind("floor 2", "fabric"), kind("Queen", "gold"), kind("roof", "beans")]
    game, state = load(make, display, seats=[seat(layout, creatures=creatures(JiJi=1, Derwen=1))])
    apply(state, PICK1)
    assert state.legal_actions() == [NO_MAGIC, MAGIC["Derwen"], MAGIC["Ji-Ji"]]
    apply(state, MAGIC["Ji-Ji"])
    assert not any(m in state.legal_actions() for m in MAGIC.values())  # only one creature
    apply(state, at("e1"))
    assert state.legal_actions() == boxes("fabric")
    apply(state, box("fabric", 3))
    assert state.legal_actions() == boxes("gold")
    apply(state, box("gold", 3))
    assert state.legal_actions() == boxes("beans")
    apply(state, box("beans", 4))
    assert state.is_chance_node()


def test_fpt20_competitive_the_left_neighbour_resolves_your_dragon(make):
    """FPT-20. Competitive Variant: "When a dragon is revealed, the player to your left decides whether or not
    you add the dragon or cross off a bag of gold to lure it away. If they choose for you to add the dragon,
    they also choose where." """
    a = full({"a1": "F9g", "a2": "F8-", "c1": "F5-"})
    b = full({"a1": "F9-"})
    c = full({"a1": "F9-"})
    display = [kind("dragon", "gold"), kind("floor 2"), kind("bridge")]
    game, state = load(make, display, seats=[a, b, c], players=3, params={"competitive": True})
    assert view(state)["seat"] == 0 and state.current_player() == 1  # B decides for A
    assert state.legal_actions() == cells("a1", "a3", "c2")
    apply(state, at("c2"))
    assert token(state, "c2", 0) == "D"
    assert view(state)["seat"] == 1 and state.current_player() == 2  # C decides for B
    apply(state, at("a2"))
    assert view(state)["seat"] == 2 and state.current_player() == 0  # A decides for C
    apply(state, at("a2"))
    assert view(state)["step"] == "pick"
    # A with no gold and no floor: a crest section, nobody decides.
    game, state = load(make, display, seats=[full(), b, c], players=3, params={"competitive": True})
    assert view(state)["seats"][0]["crest"] == 1 and view(state)["seat"] == 1


def test_fpt_sheet_is_the_placeholder():
    """The placeholder sheet these scenarios assume (10 rows, towers a c e g, tower heights 1 2 3 ...)."""
    import meeplex.oracle

    sheet = json.loads(meeplex.oracle.flip_pick_towers.placeholder_text())
    assert sheet["rows"] == 10 and [c["kind"] for c in sheet["columns"]] == ["tower", "garden"] * 3 + [
        "tower"
    ]
    assert sheet["tower_height_points"][:3] == [1, 2, 3]
