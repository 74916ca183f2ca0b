"""Carcassonne, The Princess and the Dragon: the blind scenarios of
``tests/blind/carcassonne_princess_dragon.md`` (V1-V3, D1-D9, F1-F8, P1-P5, G1-G6, X1-X5), written by a
colleague who read only the game-help page, as tests on both engines (docs/rules/carcassonne.md §12).

The tiles of each layout are placed **by play** from the initial state (draw / place, the dragon steps where a
layout needs an earlier dragon move). The figures of a scenario's setup belong to given seats and it names who
has the turn; reaching each such combination by play would take many filler turns per scenario, so
``setup`` places the layout by play and then writes the figures, the dragon's slot (where the scenario puts it
without a move), the scores and the seat to move into the serialization (``edit``, §9, §11.7, §12.10). The
figures are named by their texts (``follower``/``princess`` ``x,y kind where``), read by the engine itself.
Every scenario's action is then played move by move.

Where a scenario's ``open`` default differs from the contract's interpretation (§12.11) the test follows the
contract and its docstring quotes the scenario's alternative.
"""

from __future__ import annotations

import pytest

from test_blind_carcassonne import legal, place_and_check, supply, turn
from test_blind_carcassonne_expansions import edit, snap, start

PD = {"princess_dragon": True}
K = 12

LINE = [("U", -1, 0, 0), ("U", 1, 0, 0), ("F", 0, 1, 90), ("pd_rfr_v", -2, 0, 0)]
LINE_TILES = "F1U2"
GRID = [
    ("U", -1, 0, 0),
    ("U", 1, 0, 0),
    ("F", 0, 1, 90),
    ("B", -1, 1, 0),
    ("E", 1, 1, 0),
    ("E", -1, -1, 180),
    ("B", 0, -1, 0),
    ("pd_f_v", 1, -1, 0),
]
GRID_TILES = "B2E2F1U2"
RING = [("U", -1, 0, 0), ("N", 0, 1, 180), ("N", 1, 1, 270)]
JOIN = [("U", 1, 0, 0), ("U", 2, 0, 0), ("N", 0, 1, 180), ("E", 2, 1, 270)]


def act(state, text: str) -> None:
    state.apply_action(state.string_to_action(text))


def moves(state) -> set[str]:
    return {state.action_to_string(a) for a in state.legal_actions()}


def slot_of(state, x: int, y: int) -> int:
    return next(i for i, (_, bx, by, _) in enumerate(snap(state)["board"]) if (bx, by) == (x, y))


def feature(state, text: str) -> tuple[int, int]:
    """(slot, k) of ``x,y kind where`` (read through the princess notation of §12.8, at a decision node)."""
    a = state.string_to_action(f"princess {text}")
    x, y = (int(v) for v in text.split()[0].split(","))
    s = slot_of(state, x, y)
    base = state.string_to_action(f"princess @{s} #0")
    return s, a - base


def setup(make, tiles, layout, figures=(), *, cur=0, scores=None, dragon=None, players=2, steps=(), **kw):
    """Play ``layout`` (the last tile then ``steps``, if it is a dragon tile), then write ``figures``
    (``(seat, "x,y kind where", kind)`` with kind ``follower``/``large``/``builders``/``pigs``), the dragon's
    cell, the scores and the seat to move."""
    params = {**PD, **kw.pop("params", {})}
    game, state = start(make, tiles, params, players=players, **kw)
    for tile, x, y, r in layout[:-1]:
        turn(state, tile, x, y, r)
    tile, x, y, r = layout[-1]
    place_and_check(state, tile, x, y, r)
    found = [(seat, *feature(state, where), kind) for seat, where, kind in figures]
    dslot = slot_of(state, *dragon) if dragon else None
    act(state, "no follower")
    for step in steps:
        act(state, step)
    obj = snap(state)
    changes = {"current": cur, "turn": cur}
    lists: dict[str, list] = {"followers": [], "large": [], "builders": [], "pigs": []}
    for seat, s, k, kind in found:
        lists["followers" if kind == "follower" else kind].append([s, k, seat])
    n = players
    changes["followers"] = sorted(lists["followers"])
    changes["supply"] = [7 - sum(f[2] == p for f in lists["followers"]) for p in range(n)]
    for key, sup in (("large", "large_supply"), ("builders", "builder_supply"), ("pigs", "pig_supply")):
        if key in obj:
            changes[key] = sorted(lists[key])
            changes[sup] = [1 - sum(f[2] == p for f in lists[key]) for p in range(n)]
    if scores is not None:
        changes["scores"] = scores
    if dslot is not None:
        changes["dragon"] = dslot
    return game, edit(game, state, **changes)


def options(state, texts):
    return {t: legal(state, t) for t in texts}


# --- V. The volcano -------------------------------------------------------------------------------


def test_v1_the_dragon_appears_on_the_volcano_and_no_follower_there(make):
    """V1. Page: "The volcano: The dragon appears on it. ... No meeples can be placed on a volcano tile." LINE
    without the volcano; seat 1's thief on (1,0); seat 0 places the volcano at (-2,0)."""
    game, state = setup(make, LINE_TILES, LINE[:3], [(1, "1,0 road E", "follower")], cur=0)
    place_and_check(state, "pd_rfr_v", -2, 0, 0)
    assert snap(state)["dragon"] == slot_of(state, -2, 0)
    assert options(state, ["follower road E", "follower field NL", "follower field SL", "no follower"]) == {
        "follower road E": False,
        "follower field NL": False,
        "follower field SL": False,
        "no follower": True,
    }
    act(state, "no follower")
    obj = snap(state)
    assert obj["phase"] == "draw" and obj["current"] == 1 and state.scores() == [0.0, 0.0]


def test_v2_a_second_volcano_takes_the_dragon_there_touching_nothing(make):
    """V2. Page: "The volcano: The dragon appears on it." GRID with the dragon tile at (2,0), whose move (by
    play: D2's six steps) left the dragon on (1,1); seat 0's thief on (1,0); seat 1 places ``pd_r_v`` at
    (3,0) r90."""
    layout = GRID + [("pd_rfr_d", 2, 0, 0)]
    game, state = setup(
        make,
        GRID_TILES,
        layout,
        [(0, "1,0 road E", "follower")],
        cur=1,
        steps=["dragon W", "dragon W", "dragon N", "dragon N", "dragon E", "dragon E"],
    )
    assert snap(state)["dragon"] == slot_of(state, 1, 1)
    place_and_check(state, "pd_r_v", 3, 0, 90)
    assert snap(state)["dragon"] == slot_of(state, 3, 0)
    assert moves(state) == {"no follower"}
    act(state, "no follower")
    obj = snap(state)
    assert obj["phase"] == "draw" and obj["current"] == 0
    assert [f[0] for f in obj["followers"]] == [slot_of(state, 1, 0)] and supply(state) == [6, 7]


def test_v3_the_fairy_may_be_moved_on_a_volcano_turn(make):
    """V3. Page: "No meeples can be placed on a volcano tile." / the fairy "can be assigned to one of your
    meeples in replace of your placing." Default (a), and §12.2: the fairy stays an option."""
    game, state = setup(make, LINE_TILES, LINE[:3], [(0, "0,1 city N", "follower")], cur=0)
    place_and_check(state, "pd_rfr_v", -2, 0, 0)
    assert legal(state, "fairy 0,1 city N")
    act(state, "fairy 0,1 city N")
    assert snap(state)["fairy"][0] == slot_of(state, 0, 1)
    assert supply(state) == [6, 7]


# --- D. Dragon tiles ------------------------------------------------------------------------------


def test_d1_no_dragon_tile_before_a_volcano(make):
    """D1. Page: "After the dragon appears, dragon tiles can be placed." Default (a), §12.1: not drawn."""
    game, state = setup(make, LINE_TILES + "", LINE[:3], cur=0)
    outs = {state.action_to_string(a) for a, _ in state.chance_outcomes()}
    assert "draw pd_rfr_d" not in outs and "draw pd_rfr_v" in outs
    turn(state, "pd_rfr_v", -2, 0, 0)
    outs = {state.action_to_string(a) for a, _ in state.chance_outcomes()}
    assert "draw pd_rfr_d" in outs


D2_FIGURES = [
    (1, "0,-1 cloister", "follower"),
    (0, "-1,-1 city S", "follower"),
    (1, "-1,0 road E", "follower"),
    (0, "-1,1 cloister", "follower"),
    (1, "0,1 city N", "follower"),
    (0, "1,1 field EL", "follower"),
]


def d2(make, figures=D2_FIGURES, players=2, cur=0, scores=None):
    return setup(make, GRID_TILES, GRID, figures, cur=cur, players=players, scores=scores)


def test_d2_six_steps_in_turn_every_visited_figure_returns_unscored(make):
    """D2. Page: "Each player take turns to move the dragon until the dragon moves 6 spaces or is unable to
    move. All figures on the spaces it visits returns to their owners without scoring." """
    game, state = d2(make, scores=[5, 5])
    assert supply(state) == [4, 4]
    place_and_check(state, "pd_rfr_d", 2, 0, 0)
    act(state, "no follower")
    expect = [
        (0, "dragon W", [4, 5]),
        (1, "dragon W", [5, 5]),
        (0, "dragon N", [5, 6]),
        (1, "dragon N", [6, 6]),
        (0, "dragon E", [6, 7]),
        (1, "dragon E", [7, 7]),
    ]
    for seat, step, sup in expect:
        assert snap(state)["current"] == seat and legal(state, step)
        act(state, step)
        assert supply(state) == sup
    obj = snap(state)
    assert obj["dragon"] == slot_of(state, 1, 1) and obj["phase"] == "draw" and obj["current"] == 1
    assert state.scores() == [5.0, 5.0]


def test_d3_no_step_onto_a_visited_tile_the_start_included(make):
    """D3. Issue: "never onto a tile it has visited this move". Default (a) = §12.3: the start counts."""
    game, state = d2(make, figures=[])
    place_and_check(state, "pd_rfr_d", 2, 0, 0)
    act(state, "no follower")
    act(state, "dragon W")
    assert moves(state) == {"dragon W", "dragon N"}  # not back E to (1,-1)
    act(state, "dragon W")
    assert moves(state) == {"dragon N"}  # not E to (0,-1)


def test_d4_steps_are_orthogonal_onto_tiles_and_compulsory(make):
    """D4. Page: "... until the dragon moves 6 spaces or is unable to move." From (1,-1): N (1,0) and W
    (0,-1) only; E is an empty cell, no diagonal or pass exists."""
    game, state = d2(make, figures=[])
    place_and_check(state, "pd_rfr_d", 2, 0, 0)
    act(state, "no follower")
    assert moves(state) == {"dragon N", "dragon W"}
    assert not legal(state, "dragon E") and not legal(state, "dragon S") and not legal(state, "no follower")


def d5(make, tiles=LINE_TILES):
    figs = [(0, "-1,0 field SL", "follower"), (1, "0,1 city N", "follower"), (1, "1,0 road E", "follower")]
    return setup(make, tiles, LINE, figs, cur=0)


def test_d5_the_dragon_blocks_itself(make):
    """D5. Page: "... until the dragon moves 6 spaces or is unable to move." LINE, the move ends after 3."""
    game, state = d5(make)
    place_and_check(state, "pd_rfr_d", 2, 0, 0)
    act(state, "no follower")
    assert moves(state) == {"dragon E"}
    act(state, "dragon E")
    assert supply(state) == [7, 5]
    assert moves(state) == {"dragon E"}
    act(state, "dragon E")
    assert moves(state) == {"dragon N", "dragon E"}
    act(state, "dragon N")
    obj = snap(state)
    assert supply(state) == [7, 6] and obj["phase"] == "draw" and obj["current"] == 1
    assert obj["dragon"] == slot_of(state, 0, 1) and state.scores() == [0.0, 0.0]


def test_d5_variant_ends_on_the_dragon_tile(make):
    """D5 variant: step 3 east; the thief returns, s1 -> (2,0) forced, then stuck after 4 steps."""
    game, state = d5(make)
    place_and_check(state, "pd_rfr_d", 2, 0, 0)
    act(state, "no follower")
    act(state, "dragon E")
    act(state, "dragon E")
    act(state, "dragon E")
    assert supply(state) == [7, 6]
    assert moves(state) == {"dragon E"}
    act(state, "dragon E")
    obj = snap(state)
    assert obj["phase"] == "draw" and obj["dragon"] == slot_of(state, 2, 0) and supply(state) == [7, 6]


def test_d6_three_players_the_placer_steps_first(make):
    """D6. Page: "Each player take turns to move the dragon". Default (a) = §12.3: seats 2, 0, 1, 2, 0, 1."""
    game, state = d2(make, figures=[], players=3, cur=2)
    place_and_check(state, "pd_rfr_d", 2, 0, 0)
    act(state, "no follower")
    for seat, step in zip([2, 0, 1, 2, 0, 1], ["W", "W", "N", "N", "E", "E"], strict=True):
        assert snap(state)["current"] == seat
        act(state, f"dragon {step}")
    assert snap(state)["phase"] == "draw" and snap(state)["current"] == 0


def test_d7_a_follower_on_the_dragon_tile_can_be_eaten(make):
    """D7. Default (a) = §12.11 interpretation 2: follower step, then the dragon."""
    game, state = d5(make)
    place_and_check(state, "pd_rfr_d", 2, 0, 0)
    act(state, "follower field NL")
    assert supply(state) == [5, 5]
    for step, sup in (("E", [6, 5]), ("E", [6, 5]), ("E", [6, 6]), ("E", [7, 6])):
        act(state, f"dragon {step}")
        assert supply(state) == sup
    obj = snap(state)
    assert obj["phase"] == "draw" and obj["dragon"] == slot_of(state, 2, 0) and state.scores() == [0.0, 0.0]


def test_d8_a_road_completed_by_the_dragon_tile_is_scored_after_the_move(make):
    """D8. Default (a) = §12.11 interpretation 2 (dragon, then scoring): 0 : 0, not (b)'s 0 : 4."""
    layout = [("A", -1, 0, 270), ("U", 1, 0, 0), ("pd_f_v", 1, 1, 0)]
    figs = [(1, "1,0 road E", "follower"), (0, "-1,0 cloister", "follower")]
    game, state = setup(make, "A1U1", layout, figs, cur=0)
    place_and_check(state, "pd_rrr_d", 2, 0, 0)
    act(state, "no follower")
    assert moves(state) == {"dragon S"}
    act(state, "dragon S")
    assert supply(state) == [6, 7]
    act(state, "dragon W")
    assert moves(state) == {"dragon W"}
    act(state, "dragon W")
    obj = snap(state)
    assert supply(state) == [7, 7] and obj["phase"] == "draw" and state.scores() == [0.0, 0.0]


def test_d9_an_emptied_city_is_free_again(make):
    """D9. After D5's main line (dragon on (0,1), the city empty), seat 1 extends it with G and claims it. The
    dragon stands on (0,1), not on the new tile, so the knight is allowed."""
    game, state = d5(make, tiles="F1G1U2")
    place_and_check(state, "pd_rfr_d", 2, 0, 0)
    act(state, "no follower")
    for step in ("E", "E", "N"):
        act(state, f"dragon {step}")
    place_and_check(state, "G", 0, 2, 90)
    assert legal(state, "follower city N")


# --- F. The fairy ---------------------------------------------------------------------------------

F1_LAYOUT = [("U", 1, 0, 0), ("F", 0, 1, 90), ("pd_f_v", 1, 1, 0)]


def f1(make, tiles="B1F1U1", more=()):
    """F1's board; a volcano at (1,1) (not in the scenario) makes the P&D options exist with the dragon on a
    tile the scenario does not use."""
    figs = [(0, "1,0 road E", "follower"), (1, "0,1 city N", "follower")]
    return setup(make, tiles, F1_LAYOUT + list(more), figs, cur=0)


def test_f1_the_fairy_instead_of_a_follower_next_to_ones_own(make):
    """F1. Page: "It can be assigned to one of your meeples in replace of your placing." (Board plus a
    volcano at (1,1), which the scenario does not touch.)"""
    game, state = f1(make)
    place_and_check(state, "B", 0, -1, 0)
    assert not legal(state, "fairy 0,1 city N")
    assert not legal(state, "fairy 0,-1 cloister")  # no follower of seat 0 on (0,-1)
    assert legal(state, "fairy 1,0 road E")
    act(state, "fairy 1,0 road E")
    assert supply(state) == [6, 6] and state.scores() == [0.0, 0.0]
    assert snap(state)["phase"] == "draw"  # one option only: no monk as well


def f1d(make, **kw):
    game, state = f1(make, **kw)
    turn(state, "B", 0, -1, 0, "fairy 1,0 road E")
    return game, state


def test_f2_one_point_at_the_start_of_ones_turn(make):
    """F2. Page: "If it is still next to you at the start of your turn, you score 1 point." """
    game, state = f1d(make, tiles="B1F1U4")
    assert state.scores() == [0.0, 0.0]
    turn(state, "U", -1, 0, 0)
    assert state.scores() == [1.0, 0.0]
    turn(state, "U", -2, 0, 0)
    assert state.scores() == [1.0, 0.0]
    turn(state, "U", -3, 0, 0)
    assert state.scores() == [2.0, 0.0]


def test_f3a_the_fairy_moved_away_stops_paying(make):
    """F3 (a). Page: "If it is **still** next to you at the start of your turn". Seat 1 moves it to its
    knight: no point to seat 0, 1 to seat 1 at its next turn."""
    game, state = f1d(make, tiles="B1F1U4")
    turn(state, "U", -1, 0, 0, "fairy 0,1 city N")
    assert state.scores() == [0.0, 0.0]
    turn(state, "U", -2, 0, 0)
    assert state.scores() == [0.0, 1.0]


def test_f3b_and_f4_road_scored_with_the_fairy_then_no_point(make):
    """F3 (b) with F4's payout. Page: "You score 3 points when any feature is scored if the fairy is next to
    one of your meeples." A at (-1,0) first (placed by seat 1 in the filler turn); seat 1 closes with W at
    (2,0): 4 + 3 = 7 for seat 0; then no fairy point at seat 0's turn start."""
    game, state = f1(make, tiles="A1B3F1U1W1")
    turn(state, "B", 0, -1, 0, "fairy 1,0 road E")
    turn(state, "A", -1, 0, 270)
    assert state.scores() == [1.0, 0.0]
    turn(state, "B", -1, -1, 0)  # seat 0: a filler tile away from the road
    turn(state, "W", 2, 0, 0)
    assert state.scores() == [1.0 + 7.0, 0.0]  # seat 0: 1 (turn start) + 4 + 3
    assert supply(state) == [7, 6]
    turn(state, "B", -1, 1, 0)  # seat 0's turn: no fairy point at its start
    assert state.scores() == [8.0, 0.0]


def test_f4_ring_city_with_the_fairy_scores_11(make):
    """F4. RING, seat 0's knight on (0,1) with the fairy (written), seat 1 closes with D at (1,0): 11 : 0."""
    game, state = setup(make, "D1N2U1", RING, [(0, "0,1 city S", "follower")], cur=1)
    s, k = snap(state)["followers"][0][:2]
    state = edit(game, state, fairy=[s, k])
    turn(state, "D", 1, 0, 0)
    assert state.scores() == [11.0, 0.0]
    assert supply(state) == [7, 7] and snap(state)["fairy"] == [s, -1]


# --- P. The princess ------------------------------------------------------------------------------

P1_LAYOUT = [("F", 0, 1, 90), ("pd_f_v", -1, 1, 0)]


def p1(make, seat):
    """P1's board (D, F at (0,1)), plus a volcano at (-1,1) that the scenario does not use."""
    figs = [(seat, "0,1 city N", "follower")] if seat is not None else []
    return setup(make, "F1", P1_LAYOUT, figs, cur=0)


@pytest.mark.parametrize("seat", [1, 0])
def test_p1_p2_the_princess_returns_a_knight_of_either_seat(make, seat):
    """P1 (seat 1's knight) and P2 (seat 0's own). Page: "Instead of placing a meeple, you can return a meeple
    in the city to his owner." ``pd_cc_p`` at (0,2) r180; no extra knight (one option)."""
    game, state = p1(make, seat)
    place_and_check(state, "pd_cc_p", 0, 2, 180)
    assert not legal(state, "follower city S")
    act(state, "princess 0,1 city N")
    assert supply(state) == [7, 7] and state.scores() == [0.0, 0.0]
    assert snap(state)["phase"] == "draw"


def test_p5b_no_knight_the_princess_tile_takes_a_normal_knight(make):
    """P5 (b). With nobody in the city, seat 0 places its knight on ``pd_cc_p`` normally."""
    game, state = p1(make, None)
    place_and_check(state, "pd_cc_p", 0, 2, 180)
    assert legal(state, "follower city S")


def test_p3_several_knights_the_princess_returns_one(make):
    """P3. JOIN, ``pd_ccc_p`` at (1,1) r0 joins both cities; (a) or (b), one only; no knight; a farmer in
    the free S field is allowed."""
    figs = [(1, "0,1 city S", "follower"), (0, "2,1 city W", "follower")]
    game, state = setup(make, "E1N1U2", JOIN, figs, cur=0)
    place_and_check(state, "pd_ccc_p", 1, 1, 0)
    assert legal(state, "princess 0,1 city S") and legal(state, "princess 2,1 city W")
    assert not legal(state, "follower city N") and legal(state, "follower field SL")
    act(state, "princess 0,1 city S")
    assert supply(state) == [6, 7] and snap(state)["phase"] == "draw"


def ring_p4(make):
    figs = [(1, "0,1 city S", "follower"), (1, "-1,0 road E", "follower")]
    return setup(make, "N2U1", RING, figs, cur=0)


def test_p4_the_princess_acts_before_the_city_is_scored(make):
    """P4. Default (§11.4 then §4.1 step 4): the knight returns unscored, the closed city scores for nobody:
    0 : 0. (The W road of ``pd_crrr_p`` joins the road of D and U(-1,0), but that road stays open at the W
    end of (-1,0), so the thief stays and scores nothing.)"""
    game, state = ring_p4(make)
    place_and_check(state, "pd_crrr_p", 1, 0, 0)
    act(state, "princess 0,1 city S")
    assert state.scores() == [0.0, 0.0]
    assert supply(state) == [7, 6]


def test_p5a_the_princess_does_not_take_a_thief(make):
    """P5 (a). "return a meeple in the city": not the thief on the road."""
    game, state = ring_p4(make)
    place_and_check(state, "pd_crrr_p", 1, 0, 0)
    assert not legal(state, "princess -1,0 road E")
    assert legal(state, "princess 0,1 city S")


# --- G. The magic portal --------------------------------------------------------------------------

G1_LAYOUT = [("A", -1, 0, 270), ("U", 1, 0, 0), ("F", 0, 1, 90), ("pd_f_v", 1, 1, 0)]


def g1(make, figs=()):
    """G1's board, plus G4's volcano at (1,1) (in G1-G3 and G6 it only makes the dragon exist); the dragon is
    written on (-1,0) as in G4/G5."""
    return setup(make, "A1F1U1", G1_LAYOUT, list(figs), cur=0, dragon=(-1, 0))


def test_g1_the_portal_places_on_an_earlier_free_feature(make):
    """G1. Page: "You can place a meeple on any previous placed tile instead on the tile you placed." """
    game, state = g1(make)
    place_and_check(state, "pd_rrr_g", 2, 0, 0)
    act(state, "follower 0,0 city N")
    obj = snap(state)
    assert [f[0] for f in obj["followers"]] == [0] and supply(state) == [6, 7]


def test_g2_the_portal_may_not_reach_a_claimed_feature(make):
    """G2. (a) and (b) refused, (c) the free S field of (1,0) allowed."""
    game, state = g1(make, [(1, "0,1 city N", "follower")])
    place_and_check(state, "pd_rrr_g", 2, 0, 0)
    assert not legal(state, "follower 0,0 city N") and not legal(state, "follower 0,1 city N")
    assert legal(state, "follower 1,0 field SL")


def test_g3_the_portal_may_not_reach_a_completed_feature(make):
    """G3. (a) refused; (b) the thief on the portal tile's own W road allowed, 4 points at once."""
    game, state = g1(make)
    place_and_check(state, "pd_rrr_g", 2, 0, 0)
    assert not legal(state, "follower 1,0 road E")
    act(state, "follower road W")
    assert state.scores() == [4.0, 0.0] and supply(state) == [7, 7]


def test_g4_no_portal_follower_on_a_volcano(make):
    """G4. Default = §12.2: refused on the volcano (1,1) although the dragon has left it."""
    game, state = g1(make)
    place_and_check(state, "pd_rrr_g", 2, 0, 0)
    assert not legal(state, "follower 1,1 field NL")


def test_g5_the_portal_and_the_dragons_tile(make):
    """G5. The scenario's default (a) allows a monk on the dragon's tile (-1,0); the contract (§12.2, §12.5,
    interpretation 4, JCZ ``isDeployAllowed``) takes the scenario's alternative (b): refused."""
    game, state = g1(make)
    place_and_check(state, "pd_rrr_g", 2, 0, 0)
    assert not legal(state, "follower -1,0 cloister")


def test_g6_one_placement_and_fields_are_never_complete(make):
    """G6. Page: "... **instead** on the tile you placed." (b) the farmer in the N field of (1,0) is allowed;
    after it the turn is over, so (a)'s thief never comes."""
    game, state = g1(make)
    place_and_check(state, "pd_rrr_g", 2, 0, 0)
    assert legal(state, "follower 1,0 field NL")
    act(state, "follower 1,0 field NL")
    assert snap(state)["phase"] == "draw" and supply(state) == [6, 7]


def test_f5_the_fairy_pays_3_without_the_majority(make):
    """F5. Page: "You score 3 points when any feature is scored if the fairy is next to one of your meeples."
    Default (a) = §12.6 ("whether or not it wins the majority"): 3 : 10."""
    layout = JOIN + [("B", 0, 2, 0), ("E", 1, 2, 180)]
    figs = [(1, "0,1 city S", "follower"), (1, "1,2 city S", "follower"), (0, "2,1 city W", "follower")]
    game, state = setup(make, "B1E2N1R1U2", layout, figs, cur=1)
    s = slot_of(state, 2, 1)
    k = next(f[1] for f in snap(state)["followers"] if f[0] == s)
    state = edit(game, state, fairy=[s, k])
    turn(state, "R", 1, 1, 0)
    assert state.scores() == [3.0, 10.0]
    assert supply(state) == [7, 7]


def test_f6_the_fairy_pays_3_in_the_final_scoring(make):
    """F6. Default = §12.6 (final scoring included). F1 after (d) with only seat 0's thief on the board; the
    fairy's turn was the last tile: the road D-U scores 2 + 3, so 5 (S = 0). Known pending: the oracle still
    skips the fairy in the final scoring."""
    figs = [(0, "1,0 road E", "follower")]
    game, state = setup(make, "B1F1U1", F1_LAYOUT, figs, cur=0, pile={"pd_f_v": 1})
    turn(state, "B", 0, -1, 0, "fairy 1,0 road E")
    assert state.is_terminal()
    assert state.scores() == [5.0, 0.0]


def test_f7_another_feature_scored_pays_no_fairy_bonus(make):
    """F7. Default ("its feature", §12.6): seat 1's city 3 tiles + pennant = 8, seat 0 no 3 (not 3 : 8).
    Seat 0's 1 point is the fairy's turn-start point, as the turn passes to seat 0 right after: 1 : 8."""
    game, state = f1d(make, tiles="B1E1F1U1")
    turn(state, "E", 0, 2, 180)
    assert state.scores() == [1.0, 8.0]


def test_f8_the_fairy_tile_stops_the_dragon_and_protects_every_figure(make):
    """F8. Page: "All figures on it are protected from the dragon." The move ends after 4 steps."""
    figs = [
        (1, "0,-1 cloister", "follower"),
        (0, "0,-1 field NL", "follower"),
        (1, "-1,0 road E", "follower"),
        (0, "-1,-1 city S", "follower"),
    ]
    game, state = d2(make, figures=figs)
    s = slot_of(state, 0, -1)
    k = min(f[1] for f in snap(state)["followers"] if f[0] == s and f[2] == 1)
    state = edit(game, state, fairy=[s, k])
    place_and_check(state, "pd_rfr_d", 2, 0, 0)
    act(state, "no follower")
    assert moves(state) == {"dragon N"}
    for step, sup in (("N", [5, 5]), ("W", [5, 5]), ("W", [5, 6]), ("S", [6, 6])):
        act(state, f"dragon {step}")
        assert supply(state) == sup
    obj = snap(state)
    assert obj["phase"] == "draw" and obj["dragon"] == slot_of(state, -1, -1)
    assert sorted(f[2] for f in obj["followers"] if f[0] == s) == [0, 1]


# --- X. Other expansions --------------------------------------------------------------------------

IC = {"inns_cathedrals": True}
TB = {"traders_builders": True}


def test_x1_the_dragon_takes_a_large_meeple(make):
    """X1. JOIN + volcano (3,1); the dragon, then scoring (§12.11 interpretation 2): 0 : 10."""
    layout = JOIN + [("pd_f_v", 3, 1, 0)]
    figs = [(0, "2,1 city W", "large"), (1, "0,1 city S", "follower")]
    game, state = setup(make, "E1N1U2", layout, figs, cur=1, params=IC)
    place_and_check(state, "pd_cfcp_d", 1, 1, 0)
    act(state, "no follower")
    assert moves(state) == {"dragon W"}
    for step in ("W", "W", "S", "E"):
        act(state, f"dragon {step}")
    obj = snap(state)
    assert obj["phase"] == "draw" and obj["large_supply"] == [1, 1]
    assert state.scores() == [0.0, 10.0]


def test_x2_the_princess_returns_a_large_meeple(make):
    """X2. Page: "... you can return a meeple in the city to his owner." (§12.4: or large follower)."""
    figs = [(1, "0,1 city S", "large"), (0, "2,1 city W", "follower")]
    game, state = setup(make, "E1N1U2", JOIN, figs, cur=0, params=IC)
    place_and_check(state, "pd_ccc_p", 1, 1, 0)
    act(state, "princess 0,1 city S")
    obj = snap(state)
    assert obj["large_supply"] == [1, 1] and supply(state) == [6, 7] and obj["large"] == []


def test_x3_the_dragon_takes_builders_too(make):
    """X3. Page: "All figures on the spaces it visits returns ..." Knight then builder, 4 steps."""
    layout = LINE[:3] + [("G", 0, 2, 90), LINE[3]]
    figs = [(1, "0,1 city N", "follower"), (1, "0,2 city N", "builders")]
    game, state = setup(make, "F1G1U2", layout, figs, cur=0, params=TB)
    place_and_check(state, "pd_rfr_d", 2, 0, 0)
    act(state, "no follower")
    for step in ("E", "E", "N"):
        act(state, f"dragon {step}")
    assert supply(state) == [7, 7]
    act(state, "dragon N")
    obj = snap(state)
    assert obj["builder_supply"] == [1, 1] and obj["phase"] == "draw" and state.scores() == [0.0, 0.0]


def test_x4_a_builder_left_alone_returns(make):
    """X4. Open in the scenario ((a) returns, (b) stays and works, (c) stays idle); the contract (§12.7,
    interpretation 7) takes (a): the builder on (0,2) returns when the dragon eats the knight."""
    layout = GRID[:-1] + [("G", 0, 2, 90), GRID[-1]]
    figs = [(1, "0,1 city N", "follower"), (1, "0,2 city N", "builders")]
    game, state = setup(make, GRID_TILES.replace("F1", "F1G1"), layout, figs, cur=0, params=TB)
    place_and_check(state, "pd_rfr_d", 2, 0, 0)
    act(state, "no follower")
    for step in ("N", "W", "W", "N", "E"):
        act(state, f"dragon {step}")
    obj = snap(state)
    assert supply(state) == [7, 7] and obj["builder_supply"] == [1, 1]
    act(state, "dragon E")
    assert snap(state)["dragon"] == slot_of(state, 1, 1)


def test_x5_a_pig_left_alone_returns(make):
    """X5. Open in the scenario ((a) returns, (b)/(c) stays); the contract (§12.7) takes (a)."""
    figs = [(0, "-1,0 field SL", "follower"), (0, "1,0 field SL", "pigs")]
    game, state = setup(make, LINE_TILES, LINE, figs, cur=0, params=TB)
    place_and_check(state, "pd_rfr_d", 2, 0, 0)
    act(state, "no follower")
    act(state, "dragon E")
    obj = snap(state)
    assert supply(state) == [7, 7] and obj["pig_supply"] == [1, 1]
