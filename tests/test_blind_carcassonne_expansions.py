"""Carcassonne expansions: the blind scenarios of ``tests/blind/carcassonne_expansions.md`` (IC01..IC11 Inns &
Cathedrals, TB01..TB14 Traders & Builders, X01, X02), written by a colleague who read only the game-help page
and the facts (not the tile data, not the contract), as tests on both engines.

Each position is reached by play from the initial state, with the turn helpers of the base game's mapping
(``test_blind_carcassonne``) and the notation of docs/rules/carcassonne.md §7 and §11.5 (``large ...``,
``builder ...``, ``pig ...``). An expansion's tiles are always all in its pile (interpretation 11.7), so a
scenario that reaches the end ("the last tile") sets the expansion tiles it does not use aside through
``game.deserialize_state`` (§9, §11.7: every tile stays accounted for); the others leave them in the pile and
the game goes on.

The blind file writes an expansion tile as a base shape plus a marker. The tiles of
``python/meeplex/data/carcassonne_tiles.json`` used for them:

* ``U+inn`` is ``ic_rfr_i`` (F R F R, the straight road with an inn, U's fields): exact.
* ``Cath`` is ``ic_cccc_c`` (C C C C, one city with a cathedral, **no pennant**, as the blind file assumes):
  exact.
* ``G+wine`` is ``tb_cfc_w`` (F C F C, the city E-W with wine, no pennant): exact.
* ``G+cloth``: no F C F C tile carries cloth. ``tb_ccc_c`` is the closest: its cloth city runs E-W as G's,
  and it adds a separate one-edge city on its fourth edge (and an inner farm) that the scenario leaves alone.
* ``E+wine`` / ``E+grain``: no goods city has a single edge (every goods city has two or three).
  ``tb_cc_w`` / ``tb_cc_g`` (N's shape, C F F C, with wine / grain) are used, and where the scenario's tile
  closes a city a base E closes its second city edge: the city has one tile more than in the blind file, and
  the docstring gives the total for the tiles actually on the board.
"""

from __future__ import annotations

import json

import pytest

from meeplex.games.carcassonne import tile_names
from test_blind_carcassonne import GAME, legal, place_and_check, supply, turn

IC = {"inns_cathedrals": True}
TB = {"traders_builders": True}
BOTH = {**IC, **TB}


def snap(state) -> dict:
    return json.loads(state.serialize())


def edit(game, state, **changes):
    """The same state with some serialization keys (§9, §11.7) replaced: a value, or a function of the old
    value."""
    obj = snap(state)
    for key, value in changes.items():
        obj[key] = value(obj[key]) if callable(value) else value
    return game.deserialize_state(json.dumps(obj))


def start(make, tiles: str, params: dict, pile: dict[str, int] | None = None, **more):
    """The game and its initial state: the base land tiles ``tiles`` (§1) and the expansions of ``params``.
    With ``pile`` the expansion tiles left in the pile are exactly these counts (the others set aside), so
    that the last tile of the scenario ends the game; without it every expansion tile stays in the pile."""
    game = make(GAME, tiles=tiles, **params, **more)
    state = game.new_initial_state()
    if pile is not None:
        names = tile_names(game)
        base = len(tile_names(make(GAME)))
        assert set(pile) <= set(names[base:]), pile
        obj = snap(state)
        keep = [obj["pile"][t] if t < base else pile.get(name, 0) for t, name in enumerate(names)]
        assert all(0 <= k <= n for k, n in zip(keep, obj["pile"], strict=True))
        aside = [n - k for k, n in zip(keep, obj["pile"], strict=True)]
        state = edit(game, state, pile=keep, set_aside=aside)
    return game, state


def options(state, texts: list[str]) -> dict[str, bool]:
    """Which of these follower-step texts are legal now."""
    return {text: legal(state, text) for text in texts}


def after_follower_step(state) -> tuple[int, bool]:
    """Whose turn it is once the follower step is over, and whether it is a second tile (``current``,
    ``bonus`` of §11.7)."""
    obj = snap(state)
    return obj["current"], obj["bonus"]


# --- A. Inns (Inns & Cathedrals) ------------------------------------------------------------------


def test_ic01_an_inn_doubles_every_tile_of_the_completed_road(make):
    """IC01 (U+inn = ic_rfr_i). Page: "Inns: If a road is completed with one or more inns, each tile scores 2
    points instead of 1." W(-1,0)-D-inn-W(2,0): 4 tiles x 2 = 8 (not 4, not 5)."""
    _, state = start(make, "W2", IC)
    turn(state, "ic_rfr_i", 1, 0, 0, "follower road W")
    turn(state, "W", -1, 0, 180)
    assert state.scores() == [0.0, 0.0]
    turn(state, "W", 2, 0, 0)
    assert state.scores() == [8.0, 0.0]
    assert supply(state) == [7, 7]


def test_ic02_an_inn_road_left_open_at_the_end_scores_nothing(make):
    """IC02 (U+inn = ic_rfr_i). Page: "However, an incompleted road with inns in the end does not score any
    points." End: P1's inn road 0 (not 3), P1's cloister 1 + 3, P2's road without an inn 1."""
    _, state = start(make, "B1W1", IC, pile={"ic_rfr_i": 1})
    turn(state, "ic_rfr_i", 1, 0, 0, "follower road W")
    turn(state, "W", -1, 0, 180, "follower road N")
    turn(state, "B", 0, -1, 0, "follower cloister")
    assert state.is_terminal()
    assert state.scores() == [4.0, 1.0]


def test_ic03_two_inns_still_two_per_tile_when_the_opponent_completes(make):
    """IC03. Page: "If a road is completed with one or more inns, each tile scores 2 points instead of 1."
    The table has one straight inn road (``ic_rfr_i``, count 1), so the second ``U+inn`` is ``ic_rr_i`` (V's
    curve with an inn) at (-1,0) r270 [F R R F], and P2's closing W sits at (-1,-1) r180 [R R F R] instead of
    (-2,0): still 5 tiles with 2 inns, W(-1,-1)-inn-D-inn-W(2,0). P1 +10 (not 15 or 20), P2 nothing."""
    _, state = start(make, "W2", IC)
    turn(state, "ic_rfr_i", 1, 0, 0, "follower road W")
    place_and_check(state, "ic_rr_i", -1, 0, 270)
    assert not legal(state, "follower road E")  # the road is P1's
    state.apply_action(state.string_to_action("no follower"))
    turn(state, "W", 2, 0, 0)
    assert state.scores() == [0.0, 0.0]
    turn(state, "W", -1, -1, 180)
    assert state.scores() == [10.0, 0.0]
    assert supply(state) == [7, 7]


# --- B. Cathedrals (Inns & Cathedrals) ------------------------------------------------------------


def test_ic04_a_cathedral_city_scores_3_per_tile_and_3_per_pennant(make):
    """IC04 (Cath = ic_cccc_c, no coat of arms). Page: "Cathedrals: If a city is completed with one or more
    cathedrals. each tile and cost of arms scores 3 points instead of 2." 6 tiles + F's pennant, x 3 = 21."""
    _, state = start(make, "E3F1", IC)
    turn(state, "ic_cccc_c", 0, 1, 0, "follower city S")
    turn(state, "E", 1, 1, 270)
    turn(state, "E", -1, 1, 90)
    turn(state, "F", 0, 2, 90)
    assert state.scores() == [0.0, 0.0]
    turn(state, "E", 0, 3, 180)
    assert state.scores() == [21.0, 0.0]
    assert supply(state) == [7, 7]


def test_ic05_a_cathedral_city_left_open_at_the_end_scores_nothing(make):
    """IC05 (Cath = ic_cccc_c). Page: "However, an incompleted city with cathedrals in the end does not score
    any points." End: P1's cathedral city 0 (not 3), P2's 1-tile city 1."""
    _, state = start(make, "D1E1U1", IC, pile={"ic_cccc_c": 1})
    turn(state, "ic_cccc_c", 0, 1, 0, "follower city S")
    turn(state, "D", 1, 0, 0, "follower city N")
    turn(state, "E", -1, 1, 90)
    turn(state, "U", -1, 0, 0)
    assert state.is_terminal()
    assert state.scores() == [0.0, 1.0]


def test_ic06_two_cathedrals_in_one_city_still_3_per_tile(make):
    """IC06 (Cath = ic_cccc_c, both copies). Page: "If a city is completed with one or more cathedrals. each
    tile and cost of arms scores 3 points instead of 2." D, 2 x Cath, 5 x E: 8 x 3 = 24 (not 32, not 16)."""
    _, state = start(make, "E5", IC)
    turn(state, "ic_cccc_c", 0, 1, 0, "follower city S")
    turn(state, "ic_cccc_c", 0, 2, 0)
    turn(state, "E", 1, 1, 270)
    turn(state, "E", 1, 2, 270)
    turn(state, "E", -1, 1, 90)
    turn(state, "E", -1, 2, 90)
    assert state.scores() == [0.0, 0.0]
    turn(state, "E", 0, 3, 180)
    assert state.scores() == [24.0, 0.0]
    assert supply(state) == [7, 7]


# --- C. The large meeple (Inns & Cathedrals) ------------------------------------------------------


def test_ic07_the_large_meeple_outvotes_one_follower_in_a_city(make):
    """IC07. Page: "Large meeple: A large meeple is worth 2 meeples instead of 1." 4 tiles, 8 points: P1
    (2) takes them alone, not doubled (not 16), and P2 (1) nothing."""
    _, state = start(make, "D1N2", IC)
    turn(state, "N", 0, 1, 180, "large city S")
    turn(state, "D", 1, 0, 0, "follower city N")
    turn(state, "N", 1, 1, 270)
    assert state.scores() == [8.0, 0.0]
    assert supply(state) == [7, 7]
    assert snap(state)["large_supply"] == [1, 1] and snap(state)["large"] == []


def test_ic08_the_large_meeple_ties_two_followers_in_a_city(make):
    """IC08. Page: "If there is a tie for the most followers in any given feature, all of the tied players are
    awarded the full number of points." 2 against 2: both +10, every figure back."""
    _, state = start(make, "B1D1E1N1R1", IC)
    turn(state, "N", 0, 1, 180, "large city S")
    turn(state, "D", 1, 0, 0, "follower city N")
    turn(state, "B", 0, 2, 0)
    turn(state, "E", 1, 2, 180, "follower city S")
    turn(state, "R", 1, 1, 270)
    assert state.scores() == [10.0, 10.0]
    assert supply(state) == [7, 7]
    assert snap(state)["large_supply"] == [1, 1]


def test_ic09_the_large_meeple_outvotes_a_follower_on_a_road(make):
    """IC09. Page: "A large meeple is worth 2 meeples instead of 1."; table "Road | 1 point per tile". The
    6-tile road: P1 (2) +6, P2 (1) 0 (not a 6-6 tie)."""
    _, state = start(make, "B1U2V1W2", IC)
    turn(state, "U", -1, 0, 0, "large road E")
    turn(state, "B", 0, -1, 0)
    turn(state, "W", -2, 0, 180)
    turn(state, "U", 1, -1, 90, "follower road N")
    turn(state, "W", 1, -2, 180)
    assert state.scores() == [0.0, 0.0]
    turn(state, "V", 1, 0, 0)
    assert state.scores() == [6.0, 0.0]
    assert supply(state) == [7, 7]
    assert snap(state)["large_supply"] == [1, 1]


def test_ic10_a_large_farmer_outvotes_one_farmer(make):
    """IC10. Facts §1.4: "1 large meeple per colour (counts as 2, also in fields)" (interpretation 11.6).
    End: the merged field borders C1, C2 (complete) and C3 (open): P1 (2) +6, P2 (1) 0."""
    _, state = start(make, "A1D1E3", IC, pile={})
    turn(state, "E", 0, 1, 180)
    turn(state, "E", 0, -1, 180, "follower field NL")
    turn(state, "D", -1, 0, 0, "large field EL")
    turn(state, "E", 0, -2, 0)
    turn(state, "A", 1, 0, 90)
    assert state.is_terminal()
    assert state.scores() == [6.0, 0.0]


def test_ic11_a_large_farmer_ties_two_farmers(make):
    """IC11. Page: "If there is a tie … all of the tied players are awarded the full number of points."
    A(1,0) joins every field: 2 against 1 + 1, C1 counted once: 6-6. A farmer on A's field is illegal."""
    _, state = start(make, "A1B1D1E3U1", IC, pile={})
    turn(state, "E", 0, 1, 180)
    turn(state, "E", 0, -1, 180, "follower field NL")
    turn(state, "D", -1, 0, 0, "large field EL")
    turn(state, "E", 0, -2, 0)
    turn(state, "U", -2, 0, 0)
    turn(state, "B", 1, 1, 0, "follower field NL")
    place_and_check(state, "A", 1, 0, 90)
    assert not legal(state, "follower field NL")
    assert not legal(state, "large field NL")
    state.apply_action(state.string_to_action("no follower"))
    assert state.is_terminal()
    assert state.scores() == [6.0, 6.0]


# --- D. Goods (Traders & Builders) ----------------------------------------------------------------


def test_tb01_the_completer_takes_the_goods_with_no_meeple_in_the_city(make):
    """TB01. Page: "Goods tokens: The person who finishes a city with goods collects the goods in the city."
    ``E+wine`` is ``tb_cc_w`` at (0,1) r270 [F F C C]: its S city meets D's, its W city meets an E(-1,1) r90
    placed before (on U(-1,0), so that it is adjacent): the city D + wine + E, 3 tiles instead of 2, is closed
    by P1's wine tile with nobody in it. P1 puts a farmer on the wine tile's field (north of the city), takes
    the wine, scores nothing; the farmer stays."""
    _, state = start(make, "E1U1", TB)
    turn(state, "U", -1, 0, 0)
    turn(state, "E", -1, 1, 90)
    turn(state, "tb_cc_w", 0, 1, 270, "follower field NL")
    assert state.scores() == [0.0, 0.0]
    assert snap(state)["goods"] == [[1, 0, 0], [0, 0, 0]]
    assert supply(state) == [6, 7]


def test_tb02_the_completer_takes_the_goods_the_follower_takes_the_points(make):
    """TB02. Page: "The person who finishes a city with goods collects the goods in the city." and "The
    player(s) with the most meeples in the feature score points immediately". ``G+cloth`` is ``tb_ccc_c``
    at (0,1) r90 [C F C C] (its cloth city N-S, its separate city W left open); ``E+wine`` is ``tb_cc_w`` at
    (0,2) r180 [F C C F], its E city meeting an E(1,2) r270 placed before on B(1,1). The city D, cloth, wine,
    E(1,2) is complete: 4 tiles, P1 +8 (the blind file's 3 tiles gave 6). P2, who completes it, takes the
    cloth and the wine; P1 none, though P1's follower won the city and P1 placed the cloth tile."""
    _, state = start(make, "B1E1", TB)
    turn(state, "tb_ccc_c", 0, 1, 90, "follower city S")
    turn(state, "B", 1, 1, 0)
    turn(state, "E", 1, 2, 270)
    assert state.scores() == [0.0, 0.0]
    turn(state, "tb_cc_w", 0, 2, 180)
    assert state.scores() == [8.0, 0.0]
    assert supply(state) == [7, 7]
    assert snap(state)["goods"] == [[0, 0, 0], [1, 0, 1]]  # wine, grain, cloth


def test_tb03_goods_of_a_city_open_at_the_end_go_to_nobody(make):
    """TB03 (G+wine = tb_cfc_w). Page: "The person who finishes a city with goods collects the goods in the
    city." and "the player with the most goods token of a type scores 10 points". Interpretation 11.8.4:
    cities left incomplete give no goods; §11.3: a kind scores only "if that most is positive". End: P1's city
    2, no goods, no 10 for anyone."""
    _, state = start(make, "U1", TB, pile={"tb_cfc_w": 1})
    turn(state, "tb_cfc_w", 0, 1, 90, "follower city S")
    turn(state, "U", 1, 0, 0)
    assert state.is_terminal()
    assert state.scores() == [2.0, 0.0]
    assert snap(state)["goods"] == [[0, 0, 0], [0, 0, 0]]


# The goods tiles TB04 puts on the board first (4 wine, 4 grain, 1 cloth symbols), so that the tokens it
# hands out are not above the board's symbols (§11.7).
TB04_TILES = ("tb_cc_w", "tb_ccc_w", "tb_ccrr_w", "tb_ccrx_w", "tb_cc_g", "tb_ccc_g", "tb_ccrc_g", "tb_crc_g")


@pytest.mark.parametrize(
    "cloth, final",
    [(1, [50.0, 35.0, 30.0]), (0, [50.0, 35.0, 20.0])],
    ids=["a", "b_no_cloth"],
)
def test_tb04_goods_majorities_at_the_end(make, cloth, final):
    """TB04. Page: "At the end of the game, the player with the most goods token of a type scores 10 points.
    If multiple players tie, all get the full points." Wine P1 alone, grain P1 and P2 tied, cloth P3's one
    token; (b) nobody holds cloth: nobody scores it (§11.3 "if that most is positive"). The position: goods
    tiles placed with no figure (the first legal placement each), then the scores and tokens of the scenario
    set, then the last tile, U, placed with no figure: the end scores the goods only."""
    game, state = start(make, "U1", TB, pile={name: 1 for name in (*TB04_TILES, "tb_ccc_c")}, players=3)
    for name in (*TB04_TILES, "tb_ccc_c"):
        state.apply_action(state.string_to_action(f"draw {name}"))
        state.apply_action(state.legal_actions()[0])
        state.apply_action(state.string_to_action("no follower"))
    held = [[3, 2, 0], [1, 2, 0], [0, 0, cloth]]
    state = edit(game, state, scores=[30, 25, 20], goods=held)
    state.apply_action(state.string_to_action("draw U"))
    state.apply_action(state.legal_actions()[0])
    state.apply_action(state.string_to_action("no follower"))
    assert state.is_terminal()
    assert state.scores() == final


# --- E. The builder (Traders & Builders) ----------------------------------------------------------


def test_tb05_where_the_builder_may_go(make):
    """TB05. Page: "Builder: Each player has a builder. It can be placed on a road or city with at least one
    of your meeples." (a), (b) P1's road: legal; (c) a field with P1's farmer, (d) P2's road, (e) an empty
    road: illegal. Every placement is legal without the builder; after (a) no second tile, P2's turn, 0-0."""
    _, state = start(make, "B1U4V1", TB)
    turn(state, "U", 1, 0, 0, "follower road W")
    turn(state, "U", 1, -1, 0, "follower road E")
    turn(state, "B", 1, 1, 0, "follower field NL")
    turn(state, "V", 0, -1, 270)
    state.apply_action(state.string_to_action("draw U"))
    choices = {
        "a": ((2, 0, 0), "builder road W", True),
        "b": ((-1, 0, 0), "builder road E", True),
        "c": ((2, 0, 0), "builder field NL", False),
        "d": ((2, -1, 0), "builder road W", False),
        "e": ((2, 1, 90), "builder road N", False),
    }
    for label, ((x, y, rot), text, expected) in choices.items():
        assert legal(state, f"place {x},{y} r{rot}"), label
        trial = state.clone()
        trial.apply_action(trial.string_to_action(f"place {x},{y} r{rot}"))
        assert legal(trial, "no follower"), label
        assert legal(trial, text) is expected, label
    state.apply_action(state.string_to_action("place 2,0 r0"))
    state.apply_action(state.string_to_action("builder road W"))
    assert after_follower_step(state) == (1, False)
    assert state.scores() == [0.0, 0.0]


def test_tb06_the_builder_in_your_city_and_no_second_tile_the_turn_it_is_placed(make):
    """TB06. Page: "If you continue the feature with your builder on it, you get a double turn." §11.3: "The
    builder placed this turn does not count ("before this placement")" (interpretation 11.8.3)."""
    _, state = start(make, "B1G2", TB)
    turn(state, "G", 0, 1, 90, "follower city S")
    turn(state, "B", 0, -1, 0)
    place_and_check(state, "G", 0, 2, 90)
    assert legal(state, "builder city S")
    state.apply_action(state.string_to_action("builder city S"))
    assert after_follower_step(state) == (1, False)
    assert state.scores() == [0.0, 0.0]


def test_tb07_continuing_the_builder_s_city_gives_one_more_tile_and_only_one(make):
    """TB07. Page: "If you continue the feature with your builder on it, you get a double turn." §11.3: "A
    second tile never grants another" (interpretation 11.8.3). A G away from the city gives no second tile."""
    _, state = start(make, "B1G5U1", TB)
    turn(state, "G", 0, 1, 90, "follower city S")
    turn(state, "B", 0, -1, 0)
    turn(state, "G", 0, 2, 90, "builder city S")
    turn(state, "U", 1, 0, 0)
    before = sum(snap(state)["pile"])
    contrast = state.clone()
    turn(state, "G", 0, 3, 90)
    assert after_follower_step(state) == (0, True)  # the double turn
    turn(state, "G", 0, 4, 90)
    assert after_follower_step(state) == (1, False)  # no third tile: P2 plays
    obj = snap(state)
    assert sum(obj["pile"]) == before - 2
    assert state.scores() == [0.0, 0.0]
    assert len(obj["builders"]) == 1 and len(obj["followers"]) == 1
    turn(contrast, "G", -1, 1, 90)  # a new, separate city
    assert after_follower_step(contrast) == (1, False)


def test_tb08_the_builder_is_no_meeple_and_returns_with_its_road(make):
    """TB08. Page: builder "can be placed on a road or city with at least one of your meeples"; "all meeples
    in the completed feature are returned". §11.1: builders "never count in a majority"; §11.3: the builder
    returns with the followers when its component is scored. 1 against 1: 6-6; no tile for P2 ("your
    builder")."""
    _, state = start(make, "B1U2V1W2", TB)
    turn(state, "U", -1, 0, 0, "follower road E")
    turn(state, "B", 0, -1, 0)
    turn(state, "W", -2, 0, 180, "builder road E")
    assert after_follower_step(state) == (1, False)
    turn(state, "U", 1, -1, 90, "follower road N")
    turn(state, "W", 1, -2, 180)
    assert after_follower_step(state) == (1, False)
    turn(state, "V", 1, 0, 0)
    assert state.scores() == [6.0, 6.0]
    assert supply(state) == [7, 7]
    obj = snap(state)
    assert obj["builder_supply"] == [1, 1] and obj["builders"] == []
    assert after_follower_step(state) == (0, False)


def test_tb09_completing_your_builder_s_road_still_gives_the_second_tile(make):
    """TB09. Page: "If you continue the feature with your builder on it, you get a double turn." The blind
    file's literal reading (low/medium confidence, its A8) is the contract's: §11.3 "The bonus is kept even
    if the placement completes the builder's feature (the builder then returns at scoring)". Road 5 tiles:
    P1 +5; then B, and the turn ends."""
    _, state = start(make, "B2U2W2", TB)
    turn(state, "U", 1, 0, 0, "follower road W")
    turn(state, "W", -1, 0, 180)
    turn(state, "U", 2, 0, 0, "builder road W")
    turn(state, "B", 0, -1, 0)
    turn(state, "W", 3, 0, 0)
    assert state.scores() == [5.0, 0.0]
    assert supply(state) == [7, 7]
    assert snap(state)["builder_supply"] == [1, 1]
    assert after_follower_step(state) == (0, True)
    turn(state, "B", 1, -1, 0)
    assert after_follower_step(state) == (1, False)
    assert state.scores() == [5.0, 0.0]


def test_tb10_a_builder_left_at_the_end_scores_and_adds_nothing(make):
    """TB10. Page: "At the end of the game, when there are no tiles remaining, all incomplete features are
    scored." The city D+G+G, 3 tiles: P1 +3; the builder is no second follower (§11.3: "It is not scored at
    the end"). P2's tile gives nobody a second tile. What becomes of the builder the page does not say (the
    blind file: "simply removed"); the contract keeps it where it is, as followers (§11.3 "stays there",
    interpretation 8): it is still on the board, out of P1's supply."""
    _, state = start(make, "B1G2U1", TB, pile={})
    turn(state, "G", 0, 1, 90, "follower city S")
    turn(state, "B", 0, -1, 0)
    turn(state, "G", 0, 2, 90, "builder city S")
    place_and_check(state, "U", 1, 0, 0)
    assert snap(state)["again"] is False
    state.apply_action(state.string_to_action("no follower"))
    assert state.is_terminal()
    assert state.scores() == [3.0, 0.0]
    obj = snap(state)
    assert len(obj["builders"]) == 1 and obj["builder_supply"] == [0, 1]


# --- F. The pig (Traders & Builders) --------------------------------------------------------------


def test_tb11_where_the_pig_may_go(make):
    """TB11. Page: "Pig: Each player has a pig. It can be placed on a field with your farmer." (a), (d) a
    field with P1's farmer: legal; (b) P2's field, (c) a road, (e) an empty field: illegal."""
    _, state = start(make, "U3", TB)
    turn(state, "U", 1, 0, 0, "follower field NL")
    turn(state, "U", -1, 0, 0, "follower field SL")
    state.apply_action(state.string_to_action("draw U"))
    choices = {
        "a": ((2, 0, 0), "pig field NL", True),
        "b": ((2, 0, 0), "pig field SL", False),
        "c": ((2, 0, 0), "pig road E", False),
        "d": ((1, 1, 0), "pig field SL", True),
        "e": ((1, 1, 0), "pig field NL", False),
    }
    for label, ((x, y, rot), text, expected) in choices.items():
        trial = state.clone()
        trial.apply_action(trial.string_to_action(f"place {x},{y} r{rot}"))
        assert legal(trial, text) is expected, label
        if expected:
            trial.apply_action(trial.string_to_action(text))
            assert trial.scores() == [0.0, 0.0], label


def test_tb12_the_pig_makes_each_completed_city_worth_4_and_is_no_farmer(make):
    """TB12. Page: "The pig scores 1 point for each completed city in the field."; facts §1.4 "(4 instead of
    3)". Interpretation 11.8.5: the pig does not count in the majority. Farmers 1-1, a tie; C1 and C2
    complete, C3 not: P1 4 x 2 = 8, P2 3 x 2 = 6."""
    _, state = start(make, "A1B1D1E3U1", TB, pile={})
    turn(state, "E", 0, 1, 180)
    turn(state, "E", 0, -1, 180, "follower field NL")
    turn(state, "D", -1, 0, 0, "follower field EL")
    turn(state, "E", 0, -2, 0)
    turn(state, "U", -2, 0, 0, "pig field NL")
    turn(state, "B", -1, -1, 0)
    turn(state, "A", 1, 0, 90)
    assert state.is_terminal()
    assert state.scores() == [8.0, 6.0]


def test_tb13_a_pig_in_a_field_its_owner_loses_scores_nothing(make):
    """TB13. Page: "The pig scores 1 point for each completed city in the field." Interpretation 11.8.5: "the
    pig changes only its owner's field points, and only when the owner wins (or shares) that field's
    majority" (the blind file's reading, medium confidence). P2's 2 farmers against P1's 1 + pig: P2 6,
    P1 0."""
    _, state = start(make, "A1B1D1E3U1", TB, pile={})
    turn(state, "E", 0, 1, 180)
    turn(state, "E", 0, -1, 180, "follower field NL")
    turn(state, "D", -1, 0, 0, "follower field EL")
    turn(state, "E", 0, -2, 0)
    turn(state, "U", -2, 0, 0, "pig field NL")
    turn(state, "B", 1, 1, 0, "follower field NL")
    turn(state, "A", 1, 0, 90)
    assert state.is_terminal()
    assert state.scores() == [0.0, 6.0]


def test_tb14_pig_and_farmer_stay_when_their_city_completes(make):
    """TB14. Facts §1.3: "farms (fields) | scored only at game end; farmers stay on the board"; §11.3: "The
    pig never leaves the board once placed." The city D+E completes empty; at the end P1's field counts it at
    3 + 1 = 4."""
    _, state = start(make, "E1U3", TB, pile={})
    turn(state, "U", 1, 0, 0, "follower field NL")
    turn(state, "U", -1, 0, 0)
    turn(state, "U", 2, 0, 0, "pig field NL")
    turn(state, "E", 0, 1, 180)
    assert state.is_terminal()
    assert state.scores() == [4.0, 0.0]
    obj = snap(state)
    assert len(obj["followers"]) == 1 and len(obj["pigs"]) == 1


# --- G. Combinations ------------------------------------------------------------------------------


def test_x01_cathedral_city_with_wine_completed_by_the_outvoted_player(make):
    """X01 (Cath = ic_cccc_c). Page: cathedrals "3 points instead of 2"; "A large meeple is worth 2 meeples
    instead of 1."; "The person who finishes a city with goods collects the goods in the city." ``E+wine``
    is ``tb_cc_w`` at (0,2) r270 [F F C C], its W city meeting an E(-1,2) r90: so P2 places E(-1,2) and P1 the
    wine tile (in the blind file P2 places E+wine and P1 a B). P2's N(1,1) closes D, Cath, E(-1,1), E(-1,2),
    wine, N, D(1,0): 7 tiles x 3 = 21 (the blind file's 6 tiles gave 18) to P1 (2 against 1); P2 takes the
    wine."""
    _, state = start(make, "D1E2N1", BOTH)
    turn(state, "ic_cccc_c", 0, 1, 0, "large city S")
    turn(state, "D", 1, 0, 0, "follower city N")
    turn(state, "E", -1, 1, 90)
    turn(state, "E", -1, 2, 90)
    turn(state, "tb_cc_w", 0, 2, 270)
    assert state.scores() == [0.0, 0.0]
    turn(state, "N", 1, 1, 270)
    assert state.scores() == [21.0, 0.0]
    obj = snap(state)
    assert obj["goods"] == [[0, 0, 0], [1, 0, 0]]
    assert obj["supply"] == [7, 7] and obj["large_supply"] == [1, 1]


def test_x02_open_cathedral_city_with_grain_at_the_end(make):
    """X02 (Cath = ic_cccc_c; ``E+grain`` is ``tb_cc_g`` at (1,1) r0 [C F F C]: its W city closes Cath's E
    edge, its N city stays open, which changes nothing: the city is open anyway). Page: "However, an
    incompleted city with cathedrals in the end does not score any points."; interpretation 11.8.4: incomplete
    cities give no goods. End: the city 0, P1's road D-U 2; nobody holds goods."""
    _, state = start(make, "U1", BOTH, pile={"ic_cccc_c": 1, "tb_cc_g": 1})
    turn(state, "ic_cccc_c", 0, 1, 0, "large city S")
    turn(state, "tb_cc_g", 1, 1, 0)
    turn(state, "U", 1, 0, 0, "follower road W")
    assert state.is_terminal()
    assert state.scores() == [2.0, 0.0]
    assert snap(state)["goods"] == [[0, 0, 0], [0, 0, 0]]
