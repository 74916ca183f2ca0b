"""Viticulture Essential Edition blind scenarios: positions and outcomes written from the rulebook, the
game-help page and the facts only, by a colleague who had read neither the contract nor the code.

The scenarios are kept in the colleague's words in ``tests/blind/viticulture.md`` (V01 .. V60); each test here
is one of them (or one part of one), run on both engines through the ``engine`` fixture, through the public
API only: a position is a serialized snapshot written by ``vit_positions.position`` (docs/rules/viticulture.md
§15.4) and read back by ``deserialize_state``; every action is applied by its text (``string_to_action``, §7
and §15.1), chance outcomes too (``draws <card>``); outcomes are read from the snapshot of the next unit
(§15.4), ``legal_actions``, ``IllegalActionError``, ``is_terminal`` and ``returns``. Each docstring quotes the
scenario's expected outcome and the rule it rests on; the outcome asserted is the scenario's,
never the code's.

The blind file's players A, B, C, ... are seats 0, 1, 2, ...; its "left" space of an action is ``plain``, its
"middle" ``bonus``, a grande on a full action ``over`` (§7); its ``draw_vine`` .. ``fill_order`` and
``gain_1_lira`` are the action keys ``vine tour build visit_s sell plant order harvest train visit_w wine
fill`` and ``lira``; its ``r4``/``w3`` grapes and ``R5``/``W3``/``B6``/``S8`` wines are the contract's
``r4``/``w3`` and ``r5``/``w3``/``b6``/``s8``; its ``Order[R3+W3] (3 VP, +1 res)`` is the data file's order of
those needs (here ``order10``). AMBIGUOUS scenarios assert the reading the contract chose (§14, §15); where a
parameter (§3) selects the other reading, a second test runs with it.

Not expressible as written, and how each is run instead:

- V01 "B then tries to move its rooster to row 3" after all four have chosen: a seat chooses once (§6.1), so
  ``wake 3`` is tried at B's (and C's) own decision, after A took row 3.
- V11(b) "On A's next summer turn, A tries to place": after ``pass`` A has no further turn (§15.2); the test
  asserts that the turn never comes back to A, then that A's summer worker is still out in winter.
- V41(d) "B tries to place anything on A's Yoke": ``place yoke`` names the placing seat's own Yoke (§7), so
  the test asserts B (without a Yoke) has no legal ``place yoke``.
- V43: B's "w available" would take the ``fill`` bonus space (+1 VP, 22 not 21) since only two spaces exist;
  the position puts C's worker on the bonus space and B fills with the grande ``over``, so B gets no bonus.
- V45(c): the literal end values (B's crush pad r1, w2) cannot exist after year-end aging (r1 ages to r2).
  The test builds the last winter turn so that aging yields the same comparison (A's grapes 2, B's 3).
- V48(b) "a second Blacksmith": every visitor has one copy (§2), so (b) is its own position.
- V60(c): Negotiator is a summer visitor (data file ``summer-26``), so it is played in summer, not the
  scenario's winter.
- Readings without a parameter (asserted as the contract's choice only): V19 (per colour), V25 (next lower
  slot), V26(b) (ages within its tier, reading 2), V36(c) (several grapes), V40 (no Tasting Room VP),
  V46(b) (VP cost needs vp - cost >= -5), V53 (right = seat - 1), V54(b) (escrow; ``importer=draw`` is a
  third reading, not the scenario's reading 2), V60(a) (residual cost must be paid in full).
"""

from __future__ import annotations

import pytest

from meeplex.errors import IllegalActionError, InvalidStateError
from vit_positions import (
    STRUCTURES,
    Seat,
    act,
    built,
    field_vines,
    grapes,
    hand_names,
    kind,
    load,
    position,
    snap,
    texts,
    wines,
)

S = Seat
VINE_PILE, SUMMER_PILE, ORDER_PILE, WINTER_PILE = range(4)  # §15.4 `discards` order
COSTS = {"trellis": 2, "irrigation": 3, "yoke": 2, "windmill": 5, "tasting_room": 6, "medium_cellar": 4}
COSTS |= {"large_cellar": 6, "cottage": 4}


@pytest.fixture(autouse=True)
def _has_game(engine):
    try:
        engine.make("viticulture")
    except InvalidStateError:
        pytest.skip(f"the {engine.name} engine has no viticulture yet")


# --- Helpers ------------------------------------------------------------------------------------------------


def pos(engine, players, seats=None, **kw):
    """The state of a built position on ``engine``."""
    return load(engine, position(players, seats, **kw))


def seat(state, i):
    return snap(state)["seats"][i]


def illegal(state, text):
    """``text`` reads as an action but is not legal here: not in ``legal_actions`` and refused by
    ``apply_action`` with the state unchanged."""
    action = state.string_to_action(text)
    assert action not in state.legal_actions(), f"{text!r} should be illegal; legal: {texts(state)}"
    before = state.serialize()
    with pytest.raises(IllegalActionError):
        state.apply_action(action)
    assert state.serialize() == before


def legal(state, text):
    assert text in texts(state), f"{text!r} should be legal; legal: {texts(state)}"


def starting(state, word):
    return [t for t in texts(state) if t.startswith(word)]


def finish(state, who):
    """Where the contract leaves open whether an "up to" sequence whose next step has no legal id still asks
    for ``done`` (§7 ``done``; §9.6 Importer, Governor), take that ``done``: never more than that."""
    if not state.is_terminal() and not state.is_chance_node() and state.current_player() == who:
        if texts(state) == ["done"]:
            act(state, "done")


def passed(*seats):
    return [S(passed=True) for _ in seats]


# --- A. Spring ----------------------------------------------------------------------------------------------


def test_v01_rows_1_to_4_and_the_turn_order(engine):
    """V01: "A draws 1 wine order (row 3). B gets nothing (row 1). C gains 1 L and now has 4 L (row 4). D
    draws 1 vine card (row 2). B's move to row 3 is illegal ... Summer, fall and winter turn order is B, D, A,
    C." CARDS rules.spring: "each player puts the rooster on an empty row"."""
    st = pos(engine, 4, [S(lira=3) for _ in range(4)], phase="spring")
    assert st.current_player() == 0
    act(st, "wake 3")
    assert st.is_chance_node()
    act(st, "draws order10")
    assert st.current_player() == 1
    illegal(st, "wake 3")
    act(st, "wake 1")
    assert st.current_player() == 2
    illegal(st, "wake 3")
    illegal(st, "wake 1")
    act(st, "wake 4")
    act(st, "wake 2", "draws syrah")
    s = snap(st)
    assert s["phase"] == "summer"
    assert s["rows"] == [3, 1, 4, 2]
    a, b, c, d = s["seats"]
    assert hand_names(a) == ["order10"] and hand_names(b) == [] and hand_names(d) == ["syrah"]
    assert [a["lira"], b["lira"], c["lira"], d["lira"]] == [3, 3, 4, 3]
    order = []
    for _ in range(4):
        order.append(st.current_player())
        act(st, "pass")
    assert order == [1, 3, 0, 2]


def test_v02_rows_5_6_7(engine):
    """V02: "A draws 1 winter visitor. Picking the summer deck instead would have been equally legal, but A
    may not draw both. B gains 1 VP. C takes the grey temporary worker T for this year. Turn order is A, B,
    C." PAGE: "5th: Gain 1 yellow card or 1 blue card / 6th: Gain 1 point / 7th: Gain an additional
    worker"."""
    st = pos(engine, 3, [S(vp=2), S(), S()], phase="spring", year=2)
    act(st, "wake 5")
    assert texts(st) == ["draw summer", "draw winter"]
    act(st, "draw winter")
    assert st.is_chance_node()
    act(st, "draws merchant")
    assert st.current_player() == 1
    act(st, "wake 6", "wake 7")
    s = snap(st)
    assert s["phase"] == "summer" and s["turn_seat"] == 0
    assert hand_names(s["seats"][0]) == ["merchant"] and s["seats"][0]["vp"] == 2
    assert s["seats"][1]["vp"] == 1
    assert s["temp"] == 2
    order = []
    for _ in range(3):
        order.append(st.current_player())
        act(st, "pass")
    assert order == [0, 1, 2]


def test_v03a_the_temporary_worker_is_one_more_regular_worker(engine):
    """V03(a): "B places T on draw_vine and draws 1 vine ... legal. T acts as one of B's own regular workers,
    so B still has 2w+G to place." PAGE: "this can be used as if it were a worker of your color"."""
    st = pos(engine, 2, [S(row=1, passed=True), S(row=7)], year=3)
    assert snap(st)["temp"] == 1
    act(st, "place vine plain r", "draws syrah")
    assert hand_names(seat(st, 1)) == ["syrah"]
    act(st, "place lira r", "place lira r")
    illegal(st, "place lira r")
    legal(st, "place lira g")


def test_v03bc_the_temporary_worker_goes_back_at_year_end(engine):
    """V03(b, c): "T goes back to row 7 and does not stay with B. In Y4, B has only 2w+G. Nobody has T,
    because nobody chose row 7." CARDS rules.year_end: "temporary worker back to row 7"."""
    st = pos(
        engine, 2, [S(row=1, passed=True), S(row=7, placed=[("vine", "plain", "r")])], phase="winter", year=3
    )
    act(st, "pass")
    s = snap(st)
    assert (s["phase"], s["year"], s["temp"], s["rows"]) == ("spring", 4, -1, [0, 0])
    assert st.current_player() == 1  # the token went from A to B
    legal(st, "wake 7")  # T is back on row 7, free to take
    act(st, "wake 2")
    assert st.current_player() == -1  # row 2's bonus: a vine draw (chance)
    st.apply_action(st.legal_actions()[0])
    act(st, "wake 1")
    s = snap(st)
    assert s["phase"] == "summer" and s["temp"] == -1
    act(st, "pass")  # A
    act(st, "place lira r", "place lira r")
    illegal(st, "place lira r")


def test_v04_the_temporary_worker_beyond_the_limit(engine):
    """V04(a): "C has 7 workers this year (5w+G+T)." CARDS rules.temporary_worker: "does not count toward the
    worker limit"."""
    st = pos(engine, 3, [S(row=1, passed=True), S(row=2, passed=True), S(regular=5, row=7)], year=5)
    for _ in range(6):
        act(st, "place lira r")
    illegal(st, "place lira r")
    act(st, "place lira g")
    assert seat(st, 2)["lira"] == 7


def test_v04b_no_training_at_the_worker_maximum(engine):
    """V04(b): "C tries train_worker with 10 L ... The training is illegal, because C already has the maximum
    of 5 regular workers plus the grande. T does not count toward that limit." EE workers.max: "5 regular + 1
    grande (+ temporary)"."""
    seats = [S(row=1, passed=True), S(row=2, passed=True), S(regular=5, lira=10, row=7)]
    st = pos(engine, 3, seats, phase="winter", year=5)
    illegal(st, "place train plain r")
    illegal(st, "place train bonus r")


def test_v05_the_first_player_token_rotates(engine):
    """V05: "The token passes counter-clockwise (to the right), so D holds it in Y2. In Y2 spring, D places a
    rooster first, then A, B, C ... all 7 rows are empty when D chooses." PAGE: "Rotate the first player
    token to the right"."""
    seats = [S()] + passed(1, 2, 3)
    st = pos(engine, 4, seats, phase="winter", year=1, first=0)
    act(st, "pass")
    s = snap(st)
    assert (s["phase"], s["year"], s["first"], s["turn_seat"], s["rows"]) == ("spring", 2, 3, 3, [0, 0, 0, 0])
    assert texts(st) == [f"wake {r}" for r in range(1, 8)]
    order = []
    for row in (1, 4, 6, 7):
        order.append(st.current_player())
        act(st, f"wake {row}")
    assert order == [3, 0, 1, 2]


# --- B. Placing workers -------------------------------------------------------------------------------------


def test_v06_two_players_one_space_no_bonus(engine):
    """V06: "A gains 2 L (0 → 2). There is no bonus. B's regular worker is illegal there, because the only
    space is full. B's G is legal: B gains 2 L, with no bonus." PAGE: "In a 2 player game, only one worker can
    be placed on each action"; "the grande worker can be placed even if that action space is otherwise
    full"."""
    st = pos(engine, 2)
    illegal(st, "place tour bonus r")
    illegal(st, "place tour over g")
    act(st, "place tour plain r")
    assert seat(st, 0)["lira"] == 2
    illegal(st, "place tour plain r")
    act(st, "place tour over g")
    assert seat(st, 1)["lira"] == 2


def test_v07_bonus_space_and_grandes_on_a_full_action(engine):
    """V07: "A gains 3 L (the action plus the bonus). B gains 2 L. C's w is illegal, because both spaces are
    full. C's G is legal and gains 2 L, with no bonus. D's G is legal as well ... D gains 2 L." CARDS
    board.space_rules: "grande worker may be placed on an action whose available spaces are all full ... it
    gets no bonus that way"."""
    st = pos(engine, 4)
    illegal(st, "place tour over g")
    act(st, "place tour bonus r")
    act(st, "place tour plain r")
    illegal(st, "place tour plain r")
    illegal(st, "place tour bonus r")
    act(st, "place tour over g")
    act(st, "place tour over g")
    assert [x["lira"] for x in snap(st)["seats"]] == [3, 2, 2, 2]


def test_v08_grande_on_the_free_bonus_space(engine):
    """V08: "A draws 2 orders, because the grande gets the bonus on a free bonus space. B draws 1. Placing on
    the middle space before the left one is legal." CARDS board.space_rules: "placed on a free bonus space it
    gets the bonus". (The contract's second draw is an ``accept``, §9.1; A takes it.)"""
    st = pos(engine, 3, phase="winter")
    act(st, "place order bonus g", "draws order1")
    act(st, "accept", "draws order2")
    act(st, "place order plain r", "draws order3")
    s = snap(st)
    assert hand_names(s["seats"][0]) == ["order1", "order2"]
    assert hand_names(s["seats"][1]) == ["order3"]


def test_v09_six_players_three_spaces_one_bonus(engine):
    """V09: "Only the player on the middle space may plant a second vine. D's regular worker is illegal,
    because all three spaces are full. D may still place G there, planting 1 vine with no bonus." PAGE: "In a
    5 or 6 player game, three workers can be placed on each action, one of which has a bonus"."""
    hands = [["sangiovese"], ["sangiovese", "malvasia"], ["malvasia"], ["malvasia"], [], []]
    st = pos(engine, 6, [S(hand=h) for h in hands])
    act(st, "place plant plain r", "plant sangiovese 5")
    assert snap(st)["turn_seat"] == 1
    act(st, "place plant bonus r", "plant sangiovese 5")
    assert st.current_player() == 1
    legal(st, "done")
    act(st, "plant malvasia 6")
    assert snap(st)["turn_seat"] == 2
    act(st, "place plant plain r", "plant malvasia 5")
    illegal(st, "place plant plain r")
    illegal(st, "place plant bonus r")
    act(st, "place plant over g", "plant malvasia 5")
    s = snap(st)
    assert s["turn_seat"] == 4
    assert field_vines(s["seats"][1], 5) == ["sangiovese"] and field_vines(s["seats"][1], 6) == ["malvasia"]
    assert field_vines(s["seats"][3], 5) == ["malvasia"]


def test_v10_gain_1_lira_unlimited_both_seasons(engine):
    """V10: "Every placement is legal, even in 2p. A ends with 3 L and B with 1 L." PAGE: "Gain 1L ... This
    action can be taken by any number of workers and during any season"."""
    st = pos(engine, 2)
    act(st, "place lira r", "place lira r", "place lira r")
    act(st, "pass", "pass")  # B, then A
    act(st, "draw summer", "draws surveyor", "draw summer", "draws broker")
    s = snap(st)
    assert s["phase"] == "winter" and s["turn_seat"] == 0
    act(st, "place lira g")
    assert [x["lira"] for x in snap(st)["seats"]] == [3, 1]


def test_v11_passing_keeps_workers_for_winter(engine):
    """V11: "Illegal: A passed and may not place again this summer. B keeps placing until B passes. In winter,
    A has the unplaced w and G to place. The w placed in summer stays on its summer space." PAGE: "they may
    pass, and all of their remaining workers are usable in the winter"."""
    st = pos(engine, 2, [S(placed=[("tour", "plain", "r")]), S()])
    act(st, "pass")
    assert st.current_player() == 1
    act(st, "place lira r")
    assert st.current_player() == 1
    act(st, "place lira r", "pass")
    act(st, "draw summer", "draws surveyor", "draw summer", "draws broker")
    s = snap(st)
    assert s["phase"] == "winter" and s["turn_seat"] == 0 and s["seats"][0]["regular_placed"] == 1
    act(st, "place lira r")
    act(st, "pass")  # B
    assert st.current_player() == 0
    illegal(st, "place lira r")
    legal(st, "place lira g")


def test_v12_build_bonus_lira_before_building(engine):
    """V12: "(a) A gains 1 L (total 2), then pays 2 for the Trellis. A ends with 0 L and a Trellis. (b)
    Building the Trellis is illegal, because 1 L < 2." PAGE: "Bonus: Gain 1 lira - this is gained before
    building"."""
    st = pos(engine, 3, [S(lira=1)] + passed(1, 2))
    illegal(st, "place build plain r")
    act(st, "place build bonus r")
    assert starting(st, "build ") == ["build trellis", "build yoke"]
    act(st, "build trellis")
    a = seat(st, 0)
    assert a["lira"] == 0 and built(a) == ["trellis"]


# --- C. Planting --------------------------------------------------------------------------------------------


def test_v13_field_maximum_values(engine):
    """V13: "a) Illegal: 5 + 1 = 6 > 5. b) Legal. c) Legal: 2 + 4 = 6 ≤ 7. d) Legal: 1 + 4 = 5 ≤ 6." PAGE:
    "this can't cause the total value of all vines to exceed the maximum value of the field"."""
    a = S(
        structures=["trellis", "irrigation"],
        fields={5: ["syrah", "merlot"], 7: ["pinot"]},
        hand=["sangiovese", "cabernet_sauvignon", "chardonnay"],
    )
    st = pos(engine, 2, [a, S(passed=True)])
    act(st, "place plant plain r")
    plants = starting(st, "plant ")
    assert "plant sangiovese 5" not in plants
    assert "plant sangiovese 6" in plants
    assert "plant cabernet_sauvignon 7" in plants
    assert "plant chardonnay 5" not in plants
    act(st, "plant sangiovese 6")
    act(st, "place plant over g")
    legal(st, "plant chardonnay 6")
    act(st, "plant chardonnay 6")
    assert field_vines(seat(st, 0), 6) == ["sangiovese", "chardonnay"]


def test_v14_structure_prerequisites(engine):
    """V14: "Syrah (Trellis) is legal. Merlot (Irrigation) is illegal. Cabernet Sauvignon (Trellis +
    Irrigation) is illegal. Pinot (Trellis) is legal. Malvasia (no prerequisite) is legal." PAGE: "You must
    have the building prerequisites listed on the card"."""
    hand = ["syrah", "merlot", "cabernet_sauvignon", "pinot", "malvasia"]
    st = pos(engine, 2, [S(structures=["trellis"], hand=hand), S(passed=True)])
    act(st, "place plant plain r")
    plants = set(starting(st, "plant "))
    for f in (5, 6, 7):
        assert {f"plant syrah {f}", f"plant pinot {f}", f"plant malvasia {f}"} <= plants
        assert f"plant merlot {f}" not in plants and f"plant cabernet_sauvignon {f}" not in plants


def test_v15_plant_bonus_and_the_windmill_once_a_year(engine):
    """V15(a, b): "Both plantings are legal. A gains 1 VP (3 → 4), not 2. (b) Legal, but there is no Windmill
    VP, because it was already used this year. A stays at 4 VP." PAGE: "Windmill (5L): Once per year, whenever
    you plant a new vine, gain 1 point"."""
    a = S(vp=3, structures=["windmill"], hand=["sangiovese", "malvasia", "sangiovese"])
    b = S(passed=True, placed=[("plant", "plain", "r")])
    st = pos(engine, 3, [a, b, S(passed=True)], year=2)
    act(st, "place plant bonus r", "plant sangiovese 5", "plant malvasia 6")
    assert seat(st, 0)["vp"] == 4
    illegal(st, "place plant plain r")
    act(st, "place plant over g", "plant sangiovese 7")
    a = seat(st, 0)
    assert a["vp"] == 4
    assert field_vines(a, 5) == ["sangiovese"] and field_vines(a, 6) == ["malvasia"]
    assert field_vines(a, 7) == ["sangiovese"]


def test_v15c_the_windmill_again_next_year(engine):
    """V15: "In Y3, the first vine A plants gives +1 VP again." CARDS structures Windmill: "+1 VP when you
    plant a vine, at most once per year"."""
    a = S(vp=4, structures=["windmill"], windmill_used=True, hand=["sangiovese"])
    st = pos(engine, 3, [a, S(passed=True), S(passed=True)], phase="winter", year=2)
    act(st, "pass")
    s = snap(st)
    assert s["year"] == 3 and not s["seats"][0]["windmill_used"]
    assert st.current_player() == 2
    act(st, "wake 1", "wake 4", "wake 6")  # C, A, B
    act(st, "pass")  # C
    act(st, "place plant plain r", "plant sangiovese 5")
    assert seat(st, 0)["vp"] == 5


def test_v16_cultivator_over_the_maximum(engine):
    """V16: "a) Legal: F5's value becomes 6, one over its maximum of 5. b) Illegal: Cultivator does not waive
    the Trellis requirement. c) Illegal: the over-limit field accepts no normal planting. Sangiovese on F6 or
    F7 would be legal." CARDS Cultivator notes: "Structure prerequisites still apply; the over-limit field
    cannot receive further normal plantings"."""
    f5 = ["sangiovese", "sangiovese", "sangiovese", "malvasia", "malvasia"]
    a = S(fields={5: f5}, hand=["cultivator", "malvasia", "syrah", "sangiovese"])
    st = pos(engine, 3, [a] + passed(1, 2), year=2)
    act(st, "place visit_s plain r", "play cultivator")
    plants = starting(st, "plant ")
    assert "plant malvasia 5" in plants
    assert not [t for t in plants if t.startswith("plant syrah")]
    act(st, "plant malvasia 5")
    a = seat(st, 0)
    assert a["fields"][0]["over"]
    assert field_vines(a, 5) == ["sangiovese"] * 3 + ["malvasia"] * 3
    act(st, "place plant plain r")
    plants = starting(st, "plant ")
    assert "plant sangiovese 5" not in plants
    assert {"plant sangiovese 6", "plant sangiovese 7"} <= set(plants)


# --- D. Harvesting ------------------------------------------------------------------------------------------


def test_v17_harvest_values_and_the_vines_stay(engine):
    """V17: "A gets r3 (1 + 2) and w2 (1 + 1). All four vine cards stay planted on F7." PAGE: "Add up all red
    vines in your selected field and gain a red grape of that value ... This does not consume green cards"."""
    a = S(structures=["trellis"], fields={7: ["pinot", "syrah", "malvasia"]})
    st = pos(engine, 3, [a] + passed(1, 2), phase="winter")
    act(st, "place harvest plain r", "harvest 7")
    a = seat(st, 0)
    assert grapes(a) == ["r3", "w2"]
    assert field_vines(a, 7) == ["malvasia", "pinot", "syrah"]
    assert a["fields"][2]["harvested"]


@pytest.mark.parametrize(
    ("before", "after"), [(["r3", "r2"], ["r1", "r2", "r3"]), (["r3", "r2", "r1"], ["r1", "r2", "r3"])]
)
def test_v18_crush_pad_collision(engine, before, after):
    """V18: "a) The new red grape would be r3, but r3 and r2 are taken, so it becomes r1 ... b) There is no
    free lower red slot, so the grape is lost. The crush pad stays r3, r2, r1." CARDS
    rules.crush_pad_cellar.slots: "collision -> next lower free slot (lost if none)"."""
    a = S(structures=["irrigation"], fields={6: ["merlot"]}, crush=before)
    st = pos(engine, 2, [a, S(passed=True)], phase="winter", year=2)
    act(st, "place harvest plain r", "harvest 6")
    assert grapes(seat(st, 0)) == after


def test_v19_ambiguous_collision_is_per_colour(engine):
    """V19 (AMBIGUOUS; the contract's reading 1, §9.1 "a token of value R on the red pad ... then W on the
    white pad, each moved down to the next free lower slot"): "Reading 1 (CARDS, per colour): the crush pad
    ends with r3 and w3." Reading 2 (colour-blind, r2) has no parameter."""
    a = S(structures=["irrigation"], fields={6: ["merlot"]}, crush=["w3"])
    st = pos(engine, 2, [a, S(passed=True)], phase="winter", year=2)
    act(st, "place harvest plain r", "harvest 6")
    assert grapes(seat(st, 0)) == ["r3", "w3"]


def test_v20_each_field_once_a_year_and_the_harvest_bonus(engine):
    """V20: "a) The crush pad holds r1 and w1. b) Illegal: F5 was already harvested this year. c) Illegal: the
    second field must be a different one." CARDS step vocabulary harvest: "(once per field per year)"; CARDS
    structures Yoke: "harvest 1 field (field still once/year)"."""
    a = S(structures=["yoke"], fields={5: ["sangiovese"], 6: ["malvasia"]})
    st = pos(engine, 3, [a] + passed(1, 2), phase="winter", year=2)
    act(st, "place harvest bonus r", "harvest 5")
    illegal(st, "harvest 5")
    illegal(st, "harvest 7")  # an empty field is no harvest (§14 item 14)
    act(st, "harvest 6")
    assert grapes(seat(st, 0)) == ["r1", "w1"]
    act(st, "place yoke r")  # legal: the Yoke may still uproot
    assert "harvest 5" not in texts(st) and "harvest 6" not in texts(st)
    legal(st, "vine sangiovese 5")


# --- E. Making wine -----------------------------------------------------------------------------------------


def test_v21a_two_wines_on_the_plain_space(engine):
    """V21(a): "The cellar holds R2, W3. r1 stays on the crush pad, because only 2 tokens may be made." PAGE:
    "Make wine: Make up to two wine tokens"."""
    st = pos(engine, 3, [S(crush=["r2", "w3", "r1"])] + passed(1, 2), phase="winter")
    act(st, "place wine plain r", "make r2", "make w3")
    a = seat(st, 0)
    assert wines(a) == ["r2", "w3"] and grapes(a) == ["r1"]


def test_v21b_a_third_wine_on_the_bonus_space(engine):
    """V21(b): "On the middle space, A may also turn r1 into R1, for 3 tokens in all." PAGE: "(Bonus: Make a
    third wine token.)"."""
    st = pos(engine, 3, [S(crush=["r2", "w3", "r1"])] + passed(1, 2), phase="winter")
    act(st, "place wine bonus r", "make r2", "make w3", "make r1")
    a = seat(st, 0)
    assert wines(a) == ["r1", "r2", "w3"] and grapes(a) == []


@pytest.mark.parametrize(("cellars", "made"), [((), ["r3", "w3"]), (("medium_cellar",), ["r5", "w6"])])
def test_v22_the_cellar_caps_the_value(engine, cellars, made):
    """V22: "a) The cellar holds R3, W3. b) The cellar holds R5, W6." PAGE: "if you attempt to make a wine
    your cellar can't hold, it will be downgraded to the highest value it can accommodate"."""
    st = pos(engine, 2, [S(structures=cellars, crush=["r5", "w7"]), S(passed=True)], phase="winter", year=3)
    act(st, "place wine plain r", "make r5", "make w7")
    assert wines(seat(st, 0)) == made


def test_v23a_blush_needs_the_medium_cellar(engine):
    """V23(a): "Illegal: blush needs the medium cellar." CARDS rules.crush_pad_cellar.blush: "needs medium
    cellar"."""
    st = pos(engine, 2, [S(crush=["r3", "w2"]), S(passed=True)], phase="winter", year=3)
    act(st, "place wine plain r")
    assert "make b3+2" not in texts(st)


@pytest.mark.parametrize(
    ("crush", "recipe", "made"), [(["r3", "w2"], "make b3+2", "b5"), (["r4", "w3"], "make b4+3", "b6")]
)
def test_v23bc_blush(engine, crush, recipe, made):
    """V23(b, c): "B5; both grapes are removed." / "7 is over the medium cap of 6, so the wine becomes B6."
    CARDS rules.crush_pad_cellar.blush: "red+white grape, value = sum, >=4, needs medium cellar"."""
    a = S(structures=["medium_cellar"], crush=crush)
    st = pos(engine, 2, [a, S(passed=True)], phase="winter", year=3)
    act(st, "place wine plain r", recipe)
    finish(st, 0)
    a = seat(st, 0)
    assert wines(a) == [made] and grapes(a) == []


def test_v23d_blush_minimum_4(engine):
    """V23(d): "Illegal: 2 is below the blush minimum of 4." EE min_value: "blush": 4."""
    a = S(structures=["medium_cellar"], crush=["r1", "w1", "r3"])
    st = pos(engine, 2, [a, S(passed=True)], phase="winter", year=3)
    act(st, "place wine plain r")
    assert "make b1+1" not in texts(st)
    legal(st, "make b3+1")


def test_v24a_sparkling_needs_the_large_cellar(engine):
    """V24(a): "Illegal: sparkling needs the large cellar." CARDS rules.crush_pad_cellar.sparkling: "needs
    large cellar"."""
    a = S(structures=["medium_cellar"], crush=["r4", "r2", "w1"])
    st = pos(engine, 2, [a, S(passed=True)], phase="winter", year=4)
    act(st, "place wine plain r")
    assert "make s4+2+1" not in texts(st)


@pytest.mark.parametrize(
    ("crush", "recipe", "made"),
    [(["r4", "r2", "w1"], "make s4+2+1", "s7"), (["r5", "r3", "w3"], "make s5+3+3", "s9")],
)
def test_v24bc_sparkling(engine, crush, recipe, made):
    """V24(b, c): "S7." / "11 is over the large cap of 9, so the wine becomes S9." CARDS
    rules.crush_pad_cellar.sparkling: "2 red + 1 white grape, value = sum, >=7, needs large cellar"."""
    a = S(structures=["medium_cellar", "large_cellar"], crush=crush)
    st = pos(engine, 2, [a, S(passed=True)], phase="winter", year=4)
    act(st, "place wine plain r", recipe)
    finish(st, 0)
    a = seat(st, 0)
    assert wines(a) == [made] and grapes(a) == []


def test_v24d_sparkling_minimum_7(engine):
    """V24(d): "Illegal: 4 is below the minimum of 7." EE min_value: "sparkling": 7."""
    a = S(structures=["medium_cellar", "large_cellar"], crush=["r2", "r1", "w1"])
    st = pos(engine, 2, [a, S(passed=True)], phase="winter", year=4)
    act(st, "place wine plain r")
    assert "make s2+1+1" not in texts(st)


def test_v25_ambiguous_duplicate_wine_value(engine):
    """V25 (AMBIGUOUS; the contract's reading 1, §14 item 10: "A made wine whose slot is full goes to the next
    free lower slot of its type"): "Reading 1 ... The cellar ends with R3, R2." Reading 2 (two R3) has no
    parameter; the serialized cellar (one bool per value, §15.4) cannot even hold it."""
    st = pos(engine, 2, [S(cellar=["r3"], crush=["r3"]), S(passed=True)], phase="winter", year=2)
    act(st, "place wine plain r", "make r3")
    finish(st, 0)
    a = seat(st, 0)
    assert wines(a) == ["r2", "r3"] and grapes(a) == []


def test_v26_zymologist_and_its_aging(engine):
    """V26: "a) The cellar holds R5, W4." (b) AMBIGUOUS; the contract's reading 2 (§6.5 step 1: "A Zymologist
    wine above the cellar ages within its tier but not across the next unbuilt boundary"): "they age to R6
    and W5". Reading 1 (stay at 5 and 4) has no parameter. CARDS Zymologist: "Make up to 2 wine of value 4 or
    more even without the cellar upgrade"."""
    a = S(crush=["r5", "w4"], hand=["zymologist"])
    st = pos(engine, 2, [a, S(passed=True)], phase="winter", year=3)
    act(st, "place visit_w plain r", "play zymologist", "make r5", "make w4")
    assert wines(seat(st, 0)) == ["r5", "w4"]
    act(st, "pass")
    s = snap(st)
    assert s["year"] == 4 and wines(s["seats"][0]) == ["r6", "w5"]


# --- F. Year end --------------------------------------------------------------------------------------------


def _year_end(engine, players, seats, **kw):
    """The last winter turn of the year (seat 0's, every other seat passed), passed: the next snapshot is
    after the year end."""
    st = pos(
        engine, players, [seats[0]] + [S(**{**s, "passed": True}) for s in seats[1:]], phase="winter", **kw
    )
    act(st, "pass")
    return st


def test_v27_aging_and_the_cellar_caps(engine):
    """V27: "A: the crush pad becomes r4, w9 ... The cellar becomes R3 (stays, small cap 3) and W3. B: R3 →
    R4. R6 stays (medium cap 6). B6 stays. ... Nothing is lost when aging is blocked." PAGE: "wine can't age
    past what the cellar can hold - in this case, the tokens remain where they are"."""
    a = dict(crush=["r3", "w9"], cellar=["r3", "w2"])
    b = dict(structures=["medium_cellar"], cellar=["r3", "r6", "b6"])
    st = _year_end(engine, 2, [S(**a), b], year=2)
    s = snap(st)
    assert s["phase"] == "spring" and s["year"] == 3
    assert grapes(s["seats"][0]) == ["r4", "w9"] and wines(s["seats"][0]) == ["r3", "w3"]
    assert wines(s["seats"][1]) == ["r4", "r6", "b6"]


def test_v27_aging_in_the_large_cellar(engine):
    """V27 (C, a 3p variant): "large cellar. Cellar R6, S9 ... C: R6 → R7. S9 stays." CARDS rules.year_end:
    "age all grapes and wines by 1 (max 9 ...)"."""
    c = dict(structures=["medium_cellar", "large_cellar"], cellar=["r6", "s9"])
    st = _year_end(engine, 3, [S(), {}, c], year=2)
    assert wines(seat(st, 2)) == ["r7", "s9"]


def test_v28_aging_into_an_occupied_value(engine):
    """V28: "r9 stays at 9. r8 cannot move to 9 ... so it stays at 8. Result: r8, r9. w5 → w6, then w4 → w5.
    Result: w5, w6." PAGE: "Move each to the next highest available space"."""
    st = _year_end(engine, 2, [S(crush=["r8", "r9", "w4", "w5"]), {}], year=2)
    assert grapes(seat(st, 0)) == ["r8", "r9", "w5", "w6"]


def test_v29_residual_payments(engine):
    """V29: "A ends with 5 L, B with 5 L and C with 5 L. The track positions are unchanged." PAGE: "Collect
    residual income."."""
    st = _year_end(engine, 3, [S(residual=3, lira=2), dict(lira=5), dict(residual=5)], year=3)
    s = snap(st)
    assert [x["lira"] for x in s["seats"]] == [5, 5, 5]
    assert [x["residual"] for x in s["seats"]] == [3, 0, 5]


def test_v30_the_hand_limit_of_7(engine):
    """V30: "A discards 2 cards, down to 7. The planted vines do not count. A player with exactly 7 cards
    discards nothing. ... The holder choosing is assumed." PAGE: "Discard down to 7 cards total. This only
    includes cards in your hand, not cards in fields."."""
    a_hand = [
        "sangiovese",
        "malvasia",
        "syrah",
        "order1",
        "order2",
        "surveyor",
        "broker",
        "merchant",
        "crusher",
    ]
    b_hand = ["pinot", "order3", "order4", "wine_critic", "blacksmith", "judge", "oenologist"]
    a = S(hand=a_hand, fields={5: ["sangiovese", "sangiovese"], 7: ["malvasia", "malvasia"]})
    st = _year_end(engine, 2, [a, dict(hand=b_hand)], year=2)
    s = snap(st)
    assert s["phase"] == "year_end" and st.current_player() == 0
    assert texts(st) == [f"card {n}" for n in a_hand]  # kind order: vines, orders, summer, winter
    act(st, "card surveyor")
    assert st.current_player() == 0
    act(st, "card order1")
    s = snap(st)
    assert s["phase"] == "spring"
    assert hand_names(s["seats"][0]) == [n for n in a_hand if n not in ("surveyor", "order1")]
    assert hand_names(s["seats"][1]) == b_hand
    assert s["discards"][SUMMER_PILE] == [kind("surveyor")]
    assert s["discards"][ORDER_PILE] == [kind("order1")]


def test_v31_a_trained_worker_is_usable_next_year(engine):
    """V31: "a) Illegal: the new worker is not usable this year. b) In Y2 summer, A has 3w+G." PAGE: "This
    worker will be available to take actions for the next and all subsequent years."."""
    st = pos(engine, 2, [S(lira=6), S(passed=True)], phase="winter")
    act(st, "place train plain r")
    a = seat(st, 0)
    assert (a["lira"], a["regular"], a["trained"]) == (2, 2, 1)
    act(st, "place lira r")
    illegal(st, "place lira r")
    legal(st, "place lira g")
    act(st, "pass")
    s = snap(st)
    assert s["year"] == 2 and (s["seats"][0]["regular"], s["seats"][0]["trained"]) == (3, 0)
    act(st, "wake 1", "wake 4")  # B (the token moved to B), then A
    act(st, "pass")  # B
    act(st, "place lira r", "place lira r", "place lira r")
    illegal(st, "place lira r")
    legal(st, "place lira g")


def test_v32_training_on_the_bonus_space_and_the_maximum(engine):
    """V32: "a) A gains 1 L (4), pays 4, and ends with 0 L and a 4th regular worker from Y5. b) Illegal,
    because 3 L < 4. c) Illegal: B has the 6-worker maximum." PAGE: "(Bonus: Gain 1 lira - this functionally
    acts as a discount.)"; EE workers.max: "5 regular + 1 grande"."""
    st = pos(engine, 3, [S(regular=3, lira=3), S(regular=5, lira=10), S(passed=True)], phase="winter", year=4)
    illegal(st, "place train plain r")
    act(st, "place train bonus r")
    a = seat(st, 0)
    assert (a["lira"], a["regular"], a["trained"]) == (0, 3, 1)
    assert st.current_player() == 1
    illegal(st, "place train plain r")
    illegal(st, "place train over g")


# --- G. Wine orders -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("space", "vp"), [("plain", 7), ("bonus", 8)])
def test_v33_filling_an_order(engine, space, vp):
    """V33: "a) The order card and R4 and W3 are discarded. A ends with 7 VP and res 2, and W5 stays. (W5
    could have been spent for the white as well ...) b) A ends with 8 VP and res 2." PAGE: "Fill an order:
    Discard a purple card and wine tokens equal to or higher than the value shown on them ... (Bonus: Gain 1
    point.)"."""
    a = S(vp=4, residual=1, structures=["medium_cellar"], cellar=["r4", "w3", "w5"], hand=["order10"])
    st = pos(engine, 3, [a] + passed(1, 2), phase="winter", year=3)
    act(st, f"place fill {space} r", "fill 10")
    assert starting(st, "wine ") == ["wine r4"]
    act(st, "wine r4")
    assert starting(st, "wine ") == ["wine w3", "wine w5"]
    act(st, "wine w3")
    s = snap(st)
    a = s["seats"][0]
    assert (a["vp"], a["residual"], wines(a), hand_names(a)) == (vp, 2, ["w5"], [])
    assert s["discards"][ORDER_PILE] == [kind("order10")]


@pytest.mark.parametrize("cellar", [["r7"], ["r5", "w6"]])
def test_v34ab_one_token_per_requirement_of_its_type(engine, cellar):
    """V34(a, b): "Illegal: one token cannot meet two requirements." / "Illegal: red and white wine are not
    blush." EE orders: [{red, 3}, {red, 4}] and [{blush, 4}]."""
    a = S(structures=["medium_cellar", "large_cellar"], cellar=cellar, hand=["order6", "order11"])
    st = pos(engine, 2, [a, S(passed=True)], phase="winter", year=3)
    illegal(st, "place fill plain r")


def test_v34c_two_red_requirements(engine):
    """V34(c): "Legal: A gains 3 VP and +1 res." PAGE: "Discard a purple card and wine tokens equal to or
    higher than the value shown on them"."""
    a = S(structures=["medium_cellar"], cellar=["r3", "r4"], hand=["order6", "order11"])
    st = pos(engine, 2, [a, S(passed=True)], phase="winter", year=3)
    act(st, "place fill plain r")
    assert starting(st, "fill ") == ["fill 11"]
    act(st, "fill 11")
    assert starting(st, "wine ") == ["wine r3"]  # r4 first would leave nothing for the 4
    act(st, "wine r3", "wine r4")
    a = seat(st, 0)
    assert (a["vp"], a["residual"], wines(a), hand_names(a)) == (3, 1, [], ["order6"])


def test_v35_the_residual_track_stops_at_5(engine):
    """V35: "A gains 5 VP. The residual goes 4 → 5; the extra step is lost. At year end, A collects 5 L."
    CARDS meta.general_visitor_rules: "Residual track 0..5; extra residual gains are lost at 5"."""
    a = S(residual=4, structures=["medium_cellar"], cellar=["r2", "w2", "b5"], hand=["order25"])
    st = pos(engine, 2, [a, S(passed=True)], phase="winter", year=5)
    act(st, "place fill plain r", "fill 25", "wine r2", "wine w2", "wine b5")
    a = seat(st, 0)
    assert (a["vp"], a["residual"]) == (5, 5)
    act(st, "pass")
    s = snap(st)
    assert s["year"] == 6 and s["seats"][0]["lira"] == 5


# --- H. Selling grapes and fields ---------------------------------------------------------------------------


def test_v36a_selling_a_grape(engine):
    """V36(a): "A gains 2 L, for 2 L in all." EE grape_sale_price: "ceil(value/3): 1-3 -> 1, 4-6 -> 2, 7-9 ->
    3 lira"."""
    st = pos(engine, 3, [S(vp=2, crush=["r4", "w7", "r2"])] + passed(1, 2), year=2)
    act(st, "place sell plain r", "grape r4")
    assert {"done", "grape r2", "grape w7"} <= set(texts(st))
    act(st, "done")
    a = seat(st, 0)
    assert (a["lira"], a["vp"], grapes(a)) == (2, 2, ["r2", "w7"])


def test_v36b_selling_on_the_bonus_space(engine):
    """V36(b): "A gains 3 L and 1 VP (3 VP)." PAGE: "Sell one of your grapes ... (Bonus: Gain 1 point.)"."""
    st = pos(engine, 3, [S(vp=2, crush=["r4", "w7", "r2"])] + passed(1, 2), year=2)
    act(st, "place sell bonus r", "grape w7", "done")
    a = seat(st, 0)
    assert (a["lira"], a["vp"], grapes(a)) == (3, 3, ["r2", "r4"])


def test_v36c_ambiguous_several_grapes_in_one_action(engine):
    """V36(c) (AMBIGUOUS; the contract's reading 1, §9.1 sell: "`grape <c><v>` (sell), then more `grape` or
    `done`"): "Reading 1 (CARDS board, "sell >=1 grape"): legal, for +5 L." Reading 2 (one grape per action)
    has no parameter."""
    st = pos(engine, 3, [S(vp=2, crush=["r4", "w7", "r2"])] + passed(1, 2), year=2)
    act(st, "place sell plain r", "grape r4", "grape w7", "done")
    a = seat(st, 0)
    assert (a["lira"], a["vp"], grapes(a)) == (5, 2, ["r2"])


def test_v37_selling_an_empty_field(engine):
    """V37(a-d): "a) Illegal: F5 is not empty. b) A gains 6 L (7 L). c) Illegal: a sold field cannot be
    planted. d) Only F7 counts as an owned empty field, so A gains 2 L (not 4)." PAGE: "You may only sell a
    field if it is empty, and cannot interact with a sold field unless you buy it back."; CARDS Surveyor
    notes: "Sold fields count for neither option"."""
    a = S(lira=1, fields={5: ["sangiovese"]}, hand=["malvasia", "surveyor"])
    st = pos(engine, 2, [a, S(passed=True)], year=2)
    act(st, "place sell plain r")
    assert "sell field 5" not in texts(st)
    act(st, "sell field 6")
    a = seat(st, 0)
    assert a["lira"] == 7 and not a["fields"][1]["owned"]
    probe = st.clone()
    act(probe, "place plant plain r")
    assert "plant malvasia 6" not in texts(probe)
    legal(probe, "plant malvasia 7")
    act(st, "place visit_s plain r", "play surveyor", "option a")
    assert seat(st, 0)["lira"] == 9


def test_v37e_buying_a_field_back(engine):
    """V37(e): "A pays 6 L and F6 is usable again." PAGE: "or buy a field for its maximum value in lira"."""
    a = S(lira=9, sold=[6], hand=["malvasia"])
    st = pos(engine, 2, [a, S(passed=True)], year=3)
    act(st, "place sell plain r", "buy field 6")
    a = seat(st, 0)
    assert a["lira"] == 3 and a["fields"][1]["owned"]
    act(st, "place plant plain r")
    legal(st, "plant malvasia 6")


# --- I. Structures ------------------------------------------------------------------------------------------


def test_v38_the_large_cellar_needs_the_medium(engine):
    """V38(a-c): "a) Illegal: the Medium Cellar is missing. b) A pays 4 L (16 L). c) A pays 6 L (10 L)." PAGE:
    "Large Cellar (6L) ... You must have the Medium Cellar to build this."."""
    st = pos(engine, 2, [S(lira=20), S(passed=True)], year=2)
    act(st, "place build plain r")
    assert starting(st, "build ") == [f"build {s}" for s in STRUCTURES if s != "large_cellar"]
    act(st, "build medium_cellar")
    assert seat(st, 0)["lira"] == 16
    act(st, "place build over g", "build large_cellar")
    a = seat(st, 0)
    assert a["lira"] == 10 and built(a) == ["medium_cellar", "large_cellar"]


@pytest.mark.parametrize("structure", STRUCTURES)
def test_v38_structure_costs(engine, structure):
    """V38: "The full cost list: Trellis 2, Irrigation 3, Yoke 2, Windmill 5, Tasting Room 6, Medium Cellar 4,
    Large Cellar 6, Cottage 4." EE structures."""
    have = ["medium_cellar"] if structure == "large_cellar" else []
    st = pos(engine, 2, [S(lira=20, structures=have), S(passed=True)], year=2)
    act(st, "place build plain r", f"build {structure}")
    a = seat(st, 0)
    assert a["lira"] == 20 - COSTS[structure] and structure in built(a)


def test_v39_tasting_room_and_giving_a_tour(engine):
    """V39: "a) A gains 3 L (5 L) and +1 VP (6 VP). b) B gains 2 L and no VP, because there is no wine in the
    cellar. c) A gains 2 L (7 L) and no VP, because the Tasting Room works once per year. The wine is not
    spent." PAGE: "Tasting Room (6L): Once per year, when you give a tour and you have at least one wine in
    your cellar, gain 1 point"."""
    a = S(lira=2, vp=5, structures=["tasting_room"], cellar=["w2"])
    b = S(lira=0, vp=5, structures=["tasting_room"])
    st = pos(engine, 3, [a, b, S(passed=True)], year=3)
    act(st, "place tour bonus r")
    assert (seat(st, 0)["lira"], seat(st, 0)["vp"]) == (5, 6)
    act(st, "place tour plain r")
    assert (seat(st, 1)["lira"], seat(st, 1)["vp"]) == (2, 5)
    act(st, "place tour over g")
    a = seat(st, 0)
    assert (a["lira"], a["vp"], wines(a)) == (7, 6, ["w2"])


def test_v40_ambiguous_tour_guide_and_the_tasting_room(engine):
    """V40 (AMBIGUOUS; the contract's reading 1, §14 item 15: "Tasting Room only on placing on `tour` ... not
    Tour Guide"): "A gains 4 L in either case. Reading 1 ...: no VP; A stays at 4 VP." Reading 2 (+1 VP) has
    no parameter."""
    a = S(vp=4, structures=["tasting_room"], cellar=["r3"], hand=["tour_guide"])
    st = pos(engine, 2, [a, S(passed=True)], year=3)
    act(st, "place visit_s plain r", "play tour_guide", "option a")
    a = seat(st, 0)
    assert (a["lira"], a["vp"]) == (4, 4)


def test_v41_the_yoke_is_a_private_space_once_a_year(engine):
    """V41(a, b, d): "a) Legal in summer; A gets r2. b) Illegal: the Yoke was already used this year, and the
    grande may not join an occupied private space. d) Illegal: the Yoke is A's private space." CARDS
    structures Yoke: "private action space usable once per year in summer or winter"."""
    a = S(structures=["yoke", "trellis"], fields={5: ["syrah"], 6: ["sangiovese"]})
    st = pos(engine, 2, [a, S()], year=2)
    act(st, "place yoke r", "harvest 5")
    assert grapes(seat(st, 0)) == ["r2"]
    assert st.current_player() == 1
    illegal(st, "place yoke r")
    illegal(st, "place yoke g")
    act(st, "pass", "pass")  # B, A
    act(st, "draw summer", "draws surveyor", "draw summer", "draws broker")
    assert snap(st)["phase"] == "winter" and st.current_player() == 0
    illegal(st, "place yoke g")
    illegal(st, "place yoke r")


def test_v41c_the_yoke_uproots(engine):
    """V41(c): "Legal: Syrah returns to A's hand." PAGE: "Yoke (2L): ... harvest 1 field or uproot and return
    a planted green card to your hand"."""
    a = S(structures=["yoke", "trellis"], fields={5: ["syrah"], 6: ["sangiovese"]})
    st = pos(engine, 2, [a, S(passed=True)], year=3)
    act(st, "place yoke r", "vine syrah 5")
    a = seat(st, 0)
    assert hand_names(a) == ["syrah"] and field_vines(a, 5) == []


def test_v42_the_cottage_in_fall(engine):
    """V42: "In wake-up order, A draws 2 visitor cards, each summer or winter, chosen before looking. B then
    draws 1 and C draws 1." CARDS structures Cottage: "both fall draws are chosen before looking"."""
    seats = [S(row=2, structures=["cottage"]), S(row=4, passed=True), S(row=6, passed=True)]
    st = pos(engine, 3, seats, year=2)
    act(st, "pass")
    s = snap(st)
    assert s["phase"] == "fall" and st.current_player() == 0
    assert texts(st) == ["draw summer", "draw winter"]
    act(st, "draw summer")
    assert not st.is_chance_node() and st.current_player() == 0
    act(st, "draw winter", "draws surveyor", "draws merchant")
    assert st.current_player() == 1
    act(st, "draw summer", "draws broker")
    assert st.current_player() == 2
    act(st, "draw winter", "draws crusher")
    s = snap(st)
    assert s["phase"] == "winter"
    assert [hand_names(x) for x in s["seats"]] == [["surveyor", "merchant"], ["broker"], ["crusher"]]


# --- J. End of the game -------------------------------------------------------------------------------------


def test_v43_20_vp_ends_the_game_after_the_year(engine):
    """V43: "The game does not end when A reaches 21. The other players keep their winter turns, so B's order
    counts. Year-end steps all happen, including residual payments. The game then ends. A and B are tied on 21
    VP, which is settled as in V45" (A 2 + 1 residual = 3 L against B's 1 + 1 = 2 L: A). CARDS
    rules.victory_points.end_trigger: "the game finishes at the end of the current year (after year-end
    steps)"."""
    a = S(vp=18, lira=2, cellar=["r3", "w3"], hand=["order10"])
    b = S(vp=19, lira=1, structures=["medium_cellar"], cellar=["r5"], hand=["order1"])
    c = S(vp=15, passed=True, placed=[("fill", "bonus", "r")])
    st = pos(engine, 3, [a, b, c], phase="winter", year=6)
    act(st, "place fill plain r", "fill 10", "wine r3", "wine w3")
    s = snap(st)
    assert s["seats"][0]["vp"] == 21 and s["end_flag"] and not st.is_terminal()
    assert st.current_player() == 1
    act(st, "place fill over g", "fill 1", "wine r5")
    assert seat(st, 1)["vp"] == 21 and not st.is_terminal()
    act(st, "pass", "pass")
    assert st.is_terminal()
    s = snap(st)
    assert [x["lira"] for x in s["seats"]] == [3, 2, 0]
    assert list(st.scores()) == [21, 21, 15]
    assert list(st.returns()) == [1, 0, 0]


def _reach_20_then_drop(engine, **params):
    """V44's position: A reaches 20 this winter (an order), then plays Uncertified Oenologist option b."""
    a = S(vp=17, cellar=["r3", "w3"], hand=["order10", "uncertified_oenologist"])
    st = pos(engine, 2, [a, S(vp=14, passed=True)], phase="winter", year=5, **params)
    act(st, "place fill plain r", "fill 10", "wine r3", "wine w3")
    assert seat(st, 0)["vp"] == 20
    act(st, "place visit_w plain r", "play uncertified_oenologist", "option b")
    a = seat(st, 0)
    assert a["vp"] == 19 and "medium_cellar" in built(a)
    act(st, "pass")
    return st


def test_v44_ambiguous_20_reached_then_lost_ends_the_game(engine):
    """V44 (AMBIGUOUS; the contract's default reading 1, ``end_rule=reached``, §11: "a flag is set the moment
    any seat's VP ≥ target_vp ... (it stays set if the VP drop)"): "A builds the Medium Cellar for free and is
    at 19 VP. Reading 1 ...: the game ends after this year's year-end steps. A wins with 19 against 14."."""
    st = _reach_20_then_drop(engine)
    assert st.is_terminal()
    assert list(st.scores()) == [19, 14]
    assert list(st.returns()) == [1, 0]


def test_v44_ambiguous_reading_2_end_rule_year_end(engine):
    """V44 reading 2, ``end_rule=year_end`` (§3): "Reading 2 (PAGE Year End, "If any player has 20 or more
    points, the game ends here"): nobody has 20 at the check, so Y6 is played."."""
    st = _reach_20_then_drop(engine, end_rule="year_end")
    assert not st.is_terminal()
    s = snap(st)
    assert (s["phase"], s["year"]) == ("spring", 6)
    assert list(st.returns()) == [0, 0]


@pytest.mark.parametrize(
    ("a", "b", "returns"),
    [
        pytest.param(dict(lira=5), dict(lira=3), [1, 0], id="a-lira"),
        pytest.param(
            dict(lira=4, cellar=["r3", "w1"]),
            dict(lira=4, structures=["medium_cellar"], cellar=["b6"]),
            [0, 1],
            id="b-wine",
        ),
        pytest.param(
            dict(lira=4, cellar=["r3", "w3"], crush=["r1"]),
            dict(lira=4, structures=["medium_cellar"], cellar=["b6"], crush=["r2"]),
            [0, 1],
            id="c-grapes",
        ),
        pytest.param(dict(lira=4), dict(lira=4), [0.5, 0.5], id="d-shared"),
        pytest.param(dict(lira=5), dict(lira=3, residual=3), [0, 1], id="e-lira-after-residual"),
    ],
)
def test_v45_tie_breaks(engine, a, b, returns):
    """V45: "a) A wins. b) B wins. c) B wins. d) A and B share the victory. The lira compared are those after
    year-end residual payments." PAGE: "If there's a tie, the player with the most leftover lira wins. If
    there's still a tie, the player with the highest combined value of all their wines wins. If there's still
    a tie, the player with the highest combined value of all grapes wins. If there's still a tie after that,
    the victory is shared!". The positions are the last winter turn; after aging (b) is A's R3 + W2 = 5
    against B's B6, (c) A's wines 6 and grapes r2 against B's 6 and r3."""
    st = _year_end(engine, 2, [S(vp=22, **a), dict(vp=22, **b)], year=5)
    assert st.is_terminal()
    assert list(st.returns()) == returns


@pytest.mark.parametrize("vp", [-5, -4])
def test_v46_the_vp_floor(engine, vp):
    """V46: "a) Illegal, and option "pay 9 lira for 3 VP" is unaffordable too, so Broker cannot be played at
    all." (b) AMBIGUOUS; the contract's reading 1 (§15.3: "a VP *cost* needs vp − cost ≥ −5"): "Reading 1
    ("costs must be fully paid"; the floor blocks paying 2): illegal." Reading 2 (clamped) has no
    parameter."""
    st = pos(engine, 2, [S(vp=vp, hand=["broker"]), S(passed=True)], year=2)
    illegal(st, "place visit_s plain r")


def test_v46b_only_the_lira_option_is_left(engine):
    """V46(b), the same rule seen from a playable Broker: at −4 VP with 9 L only "pay 9 lira for 3 VP" is
    offered. CARDS meta.general_visitor_rules: "a VP-costing option is unavailable at -5"."""
    st = pos(engine, 2, [S(vp=-4, lira=9, hand=["broker"]), S(passed=True)], year=2)
    act(st, "place visit_s plain r", "play broker")
    assert starting(st, "option ") == ["option a"]


# --- K. Visitor cards ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("phase", "space", "ok", "not_ok"),
    [("winter", "visit_w", "teacher", "blacksmith"), ("summer", "visit_s", "blacksmith", "teacher")],
)
def test_v47_visitors_are_tied_to_their_season(engine, phase, space, ok, not_ok):
    """V47: "Both are illegal. Blacksmith is played only in summer and Teacher only in winter." PAGE: "The
    primary difference between these is when they can be played."."""
    st = pos(engine, 2, [S(lira=5, hand=["blacksmith", "teacher"]), S(passed=True)], phase=phase, year=2)
    act(st, f"place {space} plain r")
    plays = starting(st, "play ")
    assert f"play {ok}" in plays and f"play {not_ok}" not in plays


@pytest.mark.parametrize(("structure", "lira", "vp"), [("windmill", 0, 2), ("trellis", 3, 1)])
def test_v48_blacksmith(engine, structure, lira, vp):
    """V48: "a) A pays 3 L (0 L) and gains +1 VP (2 VP). b) A pays 0 L (3 L left) and gets no VP." CARDS
    Blacksmith: "Build one structure 2 lira cheaper; if its printed cost is 5 or 6 lira ... also gain 1
    VP."."""
    st = pos(engine, 3, [S(lira=3, vp=1, hand=["blacksmith"])] + passed(1, 2), year=2)
    act(st, "place visit_s plain r", "play blacksmith", f"build {structure}")
    a = seat(st, 0)
    assert (a["lira"], a["vp"], built(a)) == (lira, vp, [structure])


def test_v49_swindler(engine):
    """V49: "B ends with 3 L. A gains 2 L from B and +1 VP from C's refusal. A ends with 2 L and 4 VP. C still
    has 1 L, and C's VP is unchanged." CARDS Swindler: "Each opponent chooses: give you 2 lira, or let you
    gain 1 VP."; "costs must be fully paid"."""
    st = pos(engine, 3, [S(vp=3, hand=["swindler"]), S(lira=5), S(lira=1)], year=2)
    act(st, "place visit_s plain r", "play swindler")
    assert st.current_player() == 1 and texts(st) == ["accept", "decline"]
    act(st, "accept")
    assert st.current_player() == 2 and texts(st) == ["decline"]
    act(st, "decline")
    a, b, c = snap(st)["seats"]
    assert (a["lira"], a["vp"], b["lira"], c["lira"], c["vp"]) == (2, 4, 3, 1, 0)


def test_v50_banker(engine):
    """V50: "A ends with 5 L. B ends with 3 VP and 3 L; the lira come from the bank, not from A. C is
    unchanged." CARDS Banker: "Gain 5 lira; each opponent may give up 1 VP to take 3 lira from the bank."."""
    st = pos(engine, 3, [S(hand=["banker"]), S(vp=4), S()], year=2)
    act(st, "place visit_s plain r", "play banker")
    assert st.current_player() == 1
    act(st, "accept")
    assert st.current_player() == 2
    act(st, "decline")
    a, b, c = snap(st)["seats"]
    assert (a["lira"], b["vp"], b["lira"], c["vp"], c["lira"]) == (5, 3, 3, 0, 0)


def test_v51_handyman(engine):
    """V51: "A ends with 1 L and B with 1 L. A gains 1 VP, for B only. A's own build earns nothing, and
    neither does C, who declined." CARDS Handyman: "Every player (you too) may build one structure 2 lira
    cheaper; you gain 1 VP for each opponent who builds."."""
    st = pos(engine, 3, [S(lira=2, hand=["handyman"]), S(lira=1), S(vp=6)], year=3)
    act(st, "place visit_s plain r", "play handyman")
    assert st.current_player() == 0
    act(st, "build irrigation")
    assert st.current_player() == 1
    act(st, "build trellis")
    assert st.current_player() == 2
    act(st, "decline")
    a, b, c = snap(st)["seats"]
    assert (a["lira"], a["vp"], built(a)) == (1, 1, ["irrigation"])
    assert (b["lira"], b["vp"], built(b)) == (1, 0, ["trellis"])
    assert (c["vp"], built(c)) == (6, [])


def test_v52_volunteer_crew(engine):
    """V52: "A gains 4 L (2 × 2)." CARDS Volunteer Crew: "Every player (you too) may plant 1 vine; you gain 2
    lira for each opponent who plants."."""
    hands = [["volunteer_crew", "sangiovese"], ["sangiovese"], ["malvasia"], ["sangiovese"]]
    st = pos(engine, 4, [S(hand=h) for h in hands], year=2)
    act(st, "place visit_s plain r", "play volunteer_crew")
    for who, move in (
        (0, "plant sangiovese 5"),
        (1, "plant sangiovese 5"),
        (2, "decline"),
        (3, "plant sangiovese 5"),
    ):
        assert st.current_player() == who
        act(st, move)
    s = snap(st)
    assert s["seats"][0]["lira"] == 4
    assert [field_vines(x, 5) for x in s["seats"]] == [["sangiovese"], ["sangiovese"], [], ["sangiovese"]]


def _queen(engine, **params):
    d = S(vp=5, lira=2, hand=["sangiovese", "order1", "surveyor"])
    st = pos(engine, 4, [S(hand=["queen"]), S(), S(), d], phase="winter", year=3, **params)
    act(st, "place visit_w plain r", "play queen")
    return st


def test_v53_queen_the_right_neighbour_chooses(engine):
    """V53 (AMBIGUOUS "right"; the contract's reading, §4: "the player "to your right" is seat − 1"): "D must
    pick one of these: lose 1 VP ...; give A 2 cards of D's choice ...; pay A 3 L. D has only 2 L, so this
    option is unavailable. B and C are not affected." CARDS Queen: "The player to your right must pick one:
    lose 1 VP, give you 2 cards of their choice, or pay you 3 lira."."""
    st = _queen(engine)
    assert st.current_player() == 3
    assert texts(st) == ["option a", "option b"]
    act(st, "option b")
    assert st.current_player() == 3
    act(st, "card sangiovese", "card surveyor")
    a, b, c, d = snap(st)["seats"]
    assert hand_names(a) == ["sangiovese", "surveyor"] and hand_names(d) == ["order1"]
    assert (d["vp"], d["lira"], b["vp"], c["vp"], hand_names(b), hand_names(c)) == (5, 2, 0, 0, [], [])


def test_v53_queen_lose_1_vp(engine):
    """V53: "lose 1 VP (D at 4 VP; A gains nothing)"."""
    st = _queen(engine)
    act(st, "option a")
    a, _, _, d = snap(st)["seats"]
    assert (d["vp"], a["vp"], hand_names(a)) == (4, 0, [])


def test_v53_queen_off_removes_the_card(engine):
    """§3 ``queen=off``: "`off` removes the Queen from the winter deck (37 cards)" (the Queen reading of BS):
    a game without the Queen has 37 winter visitors, and a state with the Queen in a hand does not add up
    (§15.4 "a component count that does not add up")."""
    game_text, text = position(2, queen="off")
    st = load(engine, (game_text, text))
    assert sum(snap(st)["decks"][3]) == 37
    _, with_queen = position(2, [S(hand=["queen"]), S()])
    with_queen = with_queen.replace('"queen":"on"', '"queen":"off"')
    with pytest.raises(InvalidStateError):
        engine(game_text).deserialize_state(with_queen)


def _importer(engine):
    st = pos(engine, 3, [S(hand=["importer"]), S(hand=["surveyor", "merchant"]), S(hand=["broker"])], year=2)
    act(st, "place visit_s plain r", "play importer")
    assert st.current_player() == 1
    return st


def test_v54a_importer_three_given(engine):
    """V54(a): "A keeps the 3 given cards and draws nothing." CARDS Importer interaction: "if exactly 3 are
    given you keep them and draw nothing"."""
    st = _importer(engine)
    act(st, "card surveyor", "card merchant")
    finish(st, 1)
    assert st.current_player() == 2
    act(st, "card broker")
    s = snap(st)
    assert [hand_names(x) for x in s["seats"]] == [["surveyor", "broker", "merchant"], [], []]
    assert sum(s["decks"][3]) == 38 - 1


def test_v54b_ambiguous_importer_partial_gift_returns(engine):
    """V54(b) (AMBIGUOUS; the contract's reading 1, ``importer=escrow``, §9.6: "3 given → you keep them; else
    all given return and you draw 3 winter visitors"): "the 2 cards go back to B, and A draws 3 winter
    visitors." Reading 2 (a partial gift kept) has no parameter."""
    st = _importer(engine)
    act(st, "card surveyor", "card merchant")
    finish(st, 1)
    act(st, "done")
    act(st, "draws crusher", "draws judge", "draws oenologist")
    s = snap(st)
    assert hand_names(s["seats"][0]) == ["crusher", "judge", "oenologist"]
    assert hand_names(s["seats"][1]) == ["surveyor", "merchant"] and hand_names(s["seats"][2]) == ["broker"]


def test_v54c_importer_nothing_given(engine):
    """V54(c): "A draws 3 winter visitors." CARDS Importer: "Draw 3 winter visitors unless your opponents
    together hand you 3 visitor cards."."""
    st = _importer(engine)
    act(st, "done", "done", "draws crusher", "draws judge", "draws oenologist")
    s = snap(st)
    assert hand_names(s["seats"][0]) == ["crusher", "judge", "oenologist"]
    assert hand_names(s["seats"][1]) == ["surveyor", "merchant"]


@pytest.mark.parametrize(("promoter", "residual"), [("vp_residual", 2), ("vp_only", 1)])
def test_v55_ambiguous_promoter(engine, promoter, residual):
    """V55 (AMBIGUOUS; ``promoter=vp_residual`` the contract's default, ``vp_only`` the other reading, §3):
    "Reading 1 (the CARDS record, BS + MC): 7 VP and res 2. Reading 2 (NY): 7 VP, res stays 1. In both
    readings, w2 leaves the crush pad." CARDS Promoter: "Discard 1 grape or 1 wine; gain 1 VP and move
    residual income up 1."."""
    a = S(vp=6, residual=1, crush=["w2"], hand=["promoter"])
    st = pos(engine, 2, [a, S(passed=True)], phase="winter", year=3, promoter=promoter)
    act(st, "place visit_w plain r", "play promoter", "grape w2")
    a = seat(st, 0)
    assert (a["vp"], a["residual"], grapes(a)) == (7, residual, [])


def _harvest_expert(engine, mode):
    a = S(lira=3, structures=["irrigation"], fields={6: ["merlot"]}, hand=["harvest_expert"])
    st = pos(engine, 2, [a, S(passed=True)], phase="winter", year=3, harvest_expert=mode)
    act(st, "place visit_w plain r", "play harvest_expert")
    return st


def in_any_order(state, who, *moves):
    """Apply ``moves`` in whichever order ``who`` is offered them (the contract does not order them)."""
    left = list(moves)
    while left:
        assert state.current_player() == who, f"{left} not yet taken"
        offered = [m for m in left if m in texts(state)]
        assert offered, f"none of {left} offered; legal: {texts(state)}"
        act(state, offered[0])
        left.remove(offered[0])


@pytest.mark.parametrize("mode", ["record", "harvest_both"])
def test_v56a_harvest_expert_vine_branch(engine, mode):
    """V56(a): "A harvests F6 (r3) and draws 1 vine. Both readings agree." CARDS Harvest Expert: "Harvest 1
    field and draw 1 vine, or pay 1 lira to build a Yoke."."""
    st = _harvest_expert(engine, mode)
    in_any_order(st, 0, "option a", "harvest 6")
    act(st, "draws sangiovese")
    a = seat(st, 0)
    assert (grapes(a), hand_names(a), a["lira"], built(a)) == (["r3"], ["sangiovese"], 3, ["irrigation"])


def test_v56b_ambiguous_harvest_expert_yoke_branch_record(engine):
    """V56(b) (AMBIGUOUS; ``harvest_expert=record`` the contract's default, §3): "Reading 1 (the CARDS record,
    BS/NY): A pays 1 L (2 L) and builds the Yoke. There is no harvest, and the crush pad stays empty."."""
    st = _harvest_expert(engine, "record")
    act(st, "option b")
    a = seat(st, 0)
    assert (grapes(a), a["lira"], built(a)) == ([], 2, ["irrigation", "yoke"])


def test_v56b_ambiguous_harvest_expert_yoke_branch_harvest_both(engine):
    """V56(b) reading 2, ``harvest_expert=harvest_both`` (§3): "Reading 2 (MC + recollection,
    alternative_reading): A harvests F6 (r3) and pays 1 L for the Yoke (2 L)."."""
    st = _harvest_expert(engine, "harvest_both")
    in_any_order(st, 0, "option b", "harvest 6")
    a = seat(st, 0)
    assert (grapes(a), a["lira"], built(a)) == (["r3"], 2, ["irrigation", "yoke"])


def test_v57_guest_speaker(engine):
    """V57: "A and B each have 0 L and a new worker from Y4, not this year. A gains 1 VP (for B)." CARDS Guest
    Speaker: "Every player (you too) may pay 1 lira to train a worker; you gain 1 VP for each opponent who
    does."; notes: "Workers trained this way are usable next year."."""
    seats = [S(lira=1, hand=["guest_speaker"]), S(lira=1, passed=True), S(passed=True)]
    st = pos(engine, 3, seats, phase="winter", year=3)
    act(st, "place visit_w plain r", "play guest_speaker")
    assert st.current_player() == 0
    act(st, "accept")
    assert st.current_player() == 1
    act(st, "accept")
    assert st.current_player() == 2 and texts(st) == ["decline"]
    act(st, "decline")
    a, b, c = snap(st)["seats"]
    assert (a["lira"], a["trained"], a["regular"], a["vp"]) == (0, 1, 2, 1)
    assert (b["lira"], b["trained"], c["trained"]) == (0, 1, 0)
    act(st, "place lira r")
    illegal(st, "place lira r")


def test_v58_motivator(engine):
    """V58: "A may take back its own G, with no VP for that. B's G returns to B and may be placed again this
    winter. C is not eligible. A gains 1 VP." CARDS Motivator notes: "Opponents who already passed this season
    are not eligible (RB)."."""
    seats = [
        S(hand=["motivator"], placed=[("harvest", "plain", "g")]),
        S(placed=[("wine", "plain", "g")]),
        S(passed=True, placed=[("fill", "plain", "g")]),
    ]
    st = pos(engine, 3, seats, phase="winter", year=3)
    act(st, "place visit_w plain r", "play motivator")
    assert st.current_player() == 0 and texts(st) == ["accept", "decline"]
    act(st, "accept")
    assert st.current_player() == 1
    act(st, "accept")
    s = snap(st)
    a, b, c = s["seats"]
    assert a["vp"] == 1 and not a["grande_placed"] and not b["grande_placed"] and c["grande_placed"]
    assert s["turn_seat"] == 1
    legal(st, "place lira g")


def test_v59_governor(engine):
    """V59: "B gives A 1 summer visitor ..., and D gives 1. C has none, so A gains 1 VP. A ends with +2 summer
    visitors and +1 VP." CARDS Governor: "Choose up to 3 opponents; each must give you 1 summer visitor, and
    you gain 1 VP for each chosen opponent who has none."."""
    hands = [["governor"], ["surveyor", "broker"], ["merchant"], ["wine_critic"]]
    st = pos(engine, 4, [S(hand=h) for h in hands], phase="winter", year=4)
    act(st, "place visit_w plain r", "play governor", "seat 1", "seat 2", "seat 3")
    finish(st, 0)
    assert st.current_player() == 1 and texts(st) == ["card surveyor", "card broker"]
    act(st, "card broker")
    assert st.current_player() == 3
    act(st, "card wine_critic")
    a, b, c, d = snap(st)["seats"]
    assert (hand_names(a), a["vp"]) == (["broker", "wine_critic"], 1)
    assert [hand_names(x) for x in (b, c, d)] == [["surveyor"], ["merchant"], []]


def test_v60a_ambiguous_noble_residual_cost(engine):
    """V60(a) (AMBIGUOUS; the contract's reading 1, §15.3: "`pay` ... residual n: residual ≥ n"): "Reading 1
    ("costs must be fully paid"): illegal." Reading 2 (clamped to 0) has no parameter."""
    a = S(residual=1, vp=2, lira=1, cellar=["r2"], crush=["r1"], hand=["noble"])
    st = pos(engine, 2, [a, S(passed=True)], phase="winter", year=3)
    act(st, "place visit_w plain r", "play noble")
    assert starting(st, "option ") == ["option a"]
    illegal(st, "option b")


def test_v60b_noble_pays_for_residual(engine):
    """V60(b): "A ends with 0 L and res 2." CARDS Noble: "Pay 1 lira to move residual income up 1"."""
    a = S(residual=1, vp=2, lira=1, cellar=["r2"], crush=["r1"], hand=["noble"])
    st = pos(engine, 2, [a, S(passed=True)], phase="winter", year=3)
    act(st, "place visit_w plain r", "play noble", "option a")
    a = seat(st, 0)
    assert (a["lira"], a["residual"], a["vp"]) == (0, 2, 2)


def test_v60c_negotiator(engine):
    """V60(c) (played in summer: Negotiator is a summer visitor): "From res 1, R2 is gone and the residual
    rises to res 3." CARDS Negotiator: "Discard 1 grape to move residual income up 1, or discard 1 wine to
    move it up 2."."""
    a = S(residual=1, vp=2, lira=1, cellar=["r2"], crush=["r1"], hand=["negotiator"])
    st = pos(engine, 2, [a, S(passed=True)], year=3)
    act(st, "place visit_s plain r", "play negotiator", "option b", "wine r2")
    a = seat(st, 0)
    assert (a["residual"], wines(a), grapes(a)) == (3, [], ["r1"])
