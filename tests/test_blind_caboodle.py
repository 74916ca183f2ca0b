"""Caboodle blind scenarios: positions and outcomes written from the game-help page and the facts only, by a
colleague who had read neither the contract nor the code.

The scenarios are kept in the colleague's words in ``tests/blind/caboodle.md`` (CB-01 .. CB-18); each test
here is one of them (or one part of one), run on both engines through the ``make`` fixture. Positions are
built from the initial state by actions in the notation of docs/rules/caboodle.md §7 (``draw 5``, ``tile 1``,
``place 0,1 r90``, ``pass``): the setup chance nodes are chosen, then the seats play the board into place.

Translation of the blind file. Its ``ph#k`` is the placeholder facts' tile k, which is contract tile id k - 1
(§3); its ``rK`` (K quarter turns clockwise, "the old W side now faces N") is the contract's rotation of 90 x
K degrees (§4: board side d shows file side (d - r) mod 4). Its axes (x east, y north) are the contract's, so
positions are used as written, except that the contract's start tile lies at (0, 0) with rotation 0 (§5.1): a
board whose (0, 0) is empty (CB-06) is shifted, and a board whose (0, 0) tile is turned (CB-09) uses the
placeholder file with that tile's face written turned (the same game, §3.1: "any choice gives the same game,
since tiles rotate"). Synthetic tiles (all one shape) come in custom tile files through the ``tiles``
parameter (§3.1, ``encode_tiles``). Seats: P1 is seat 0, P2 seat 1, P3 seat 2.

The blind file's absolute scores (P1 on 10, 20 to 18 to 25, ...) would need long, unrelated play to reach; the
tests assert the change the scenario predicts, or, where the scenario is about the end, build the end with
tiles whose every placement scores exactly 2 (``links: none``) and assert the exact final scores that follow.
"""

from __future__ import annotations

import json

import pytest

from meeplex.errors import GameError, IllegalActionError, InvalidNotationError
from meeplex.games.caboodle import PASS, SELECT, encode_tiles, placeholder_text

GAME = "caboodle"
PLACEHOLDER = json.loads(placeholder_text())


@pytest.fixture
def mk(make):
    try:
        make(GAME)
    except GameError:
        pytest.skip("this engine has no caboodle yet")
    return make


# --- helpers ------------------------------------------------------------------------------------------------


def ph(k: int) -> int:
    """The contract tile id of the placeholder facts' tile k (the blind file's ``ph#k``)."""
    return k - 1


def turned(face: list[str], r: int) -> list[str]:
    """The shapes (N, E, S, W) a face shows at r quarter turns clockwise (§4)."""
    return [face[(d - r) % 4] for d in range(4)]


def tile_file(faces: list[list[str]], shapes: list[str], links: str = "adjacent", name: str = "blind") -> str:
    """The ``tiles`` parameter of a custom tile file (§3, §3.1)."""
    assert len(faces) == 40
    text = json.dumps(
        {
            "format": "meeplex caboodle tiles",
            "version": 1,
            "name": name,
            "verified": False,
            "notes": ["blind scenario test"],
            "shapes": shapes,
            "links": links,
            "tiles": faces,
        }
    )
    return encode_tiles(text)


def play(state, *moves: str):
    for move in moves:
        state.apply_action(state.string_to_action(move))
    return state


def draws(*tiles: int) -> list[str]:
    return [f"draw {t}" for t in tiles]


def legal_texts(state) -> set[str]:
    return {state.action_to_string(a) for a in state.legal_actions()}


def placements_at(state, x: int, y: int) -> set[str]:
    """The legal placements of the selected tile into cell (x, y), any rotation."""
    return {t for t in legal_texts(state) if t.startswith(f"place {x},{y} ")}


def serial(state) -> dict:
    return json.loads(state.serialize())


def hand_sizes(state) -> list[int]:
    return [len(h) for h in serial(state)["hands"]]


def gained(state, seat: int, *moves: str) -> float:
    """Play the moves and return what they changed in ``seat``'s score."""
    before = state.scores()[seat]
    play(state, *moves)
    return state.scores()[seat] - before


# --- CB-01 --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "removed", "bag", "turns_each"), [(2, 1, 26, 19), (3, 0, 21, 13), (4, 3, 12, 9)]
)
@pytest.mark.parametrize("rules", [2023, 2024])
def test_cb01_removals_and_hands_by_player_count(mk, players, removed, bag, turns_each, rules):
    """CB-01. Page (Setup): "There are 40 tiles in the game * 2-player remove 1 tile * 3-player remove 0 tiles
    * 4-player remove 3 tiles. Each player will then draw 6 tiles". With the start tile (interpretation 2) the
    bag holds 26 / 21 / 12; bag and hands together make 19 / 13 / 9 tiles per seat; the removed tiles are
    never dealt, drawn or shown."""
    state = mk(GAME, players=players, rules=rules).new_initial_state()
    gone: list[int] = []
    while serial(state)["phase"] == "remove":
        outcome = state.legal_actions()[-1]
        gone.append(outcome)
        state.apply_action(outcome)
    assert len(gone) == removed == len(serial(state)["removed"])
    while state.is_chance_node():
        assert not set(gone) & set(state.legal_actions())
        probabilities = {p for _, p in state.chance_outcomes()}
        assert len(probabilities) == 1  # uniform over the bag
        state.apply_action(state.legal_actions()[0])
    view = serial(state)
    assert view["phase"] == "select" and state.current_player() == 0
    assert len(view["board"]) == 1
    assert hand_sizes(state) == [6] * players
    assert len(view["bag"]) == bag
    assert (len(view["bag"]) + 6 * players) == turns_each * players
    for seat in range(players):
        tokens = state.information_state_string(seat).split("history=")[1].split(",")
        assert tokens[:removed] == ["?"] * removed
    while not state.is_terminal():  # the whole game: the removed tiles never come back
        state.apply_action(state.legal_actions()[0])
        view = serial(state)
        assert sorted(view["removed"]) == sorted(gone)
        assert not set(gone) & ({b[0] for b in view["board"]} | {t for h in view["hands"] for t in h})


# --- CB-02, CB-03, CB-04, CB-05: placement on the placeholder tiles -----------------------------------------

# Removal 0, start ph#37 = tile 36 (circle, square, triangle, star); seat 0 then seat 1 get six tiles each.
S0 = 36


def cb_setup(mk, seat0, seat1, rules=2023, start=S0, removed=0, tiles="placeholder"):
    game = mk(GAME, rules=rules, tiles=tiles)
    return play(game.new_initial_state(), *draws(removed, start, *seat0, *seat1))


def test_cb02_a_single_matching_contact_scores_that_group(mk):
    """CB-02. Page: "Place a tile so that the shapes on that tile match the other shapes on tiles already
    placed. The tiles need to be placed with the side touching a full side of another tile." and "When you
    place a new tile, all shapes that you connect to will score." A = ph#12 r2 at (1,0): its W square touches
    the start's E square; the square group has 2 sides; nothing else scores."""
    state = cb_setup(mk, [ph(12), 1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 12])
    play(state, f"tile {ph(12)}")
    assert "place 1,0 r180" in legal_texts(state)
    play(state, "place 1,0 r180")
    assert state.scores() == [2.0, 0.0]


def test_cb03_a_tile_without_the_shape_goes_elsewhere_and_may_not_pass(mk):
    """CB-03. Page: "You must match up the shapes on all sides touching other tiles." X = ph#4 (no square)
    cannot go to (1,0) in any rotation; it can go to (0,1) r1 or r2, (-1,0) r2, (0,-1) r2; P1 may not pass."""
    state = cb_setup(mk, [ph(4), 1, 2, 4, 5, 6], [7, 8, 9, 10, 11, 12])
    assert f"tile {ph(4)}" in legal_texts(state)
    assert PASS not in state.legal_actions()
    play(state, f"tile {ph(4)}")
    assert placements_at(state, 1, 0) == set()
    assert legal_texts(state) == {"place 0,1 r90", "place 0,1 r180", "place -1,0 r180", "place 0,-1 r180"}


def test_cb04_corner_contact_detached_occupied_and_offset_are_illegal(mk):
    """CB-04. Page: "The tiles need to be placed with the side touching a full side of another tile. (They
    cannot be offset or staggered)". Board: start at (0,0), ph#12 r2 at (1,0); P2 holds T = ph#19. (a) (-1,1)
    (corner only), (b) (3,0) (touching nothing), (c) (1,0) (occupied) are illegal in every rotation; (d) a
    half-offset cell cannot even be written (the board is the integer grid, §4, §7)."""
    state = cb_setup(mk, [ph(12), 1, 2, 3, 4, 5], [ph(19), 6, 7, 8, 9, 10])
    play(state, f"tile {ph(12)}", "place 1,0 r180", f"tile {ph(19)}")
    assert state.current_player() == 1
    occupied = {(0, 0), (1, 0)}
    for cell in [(-1, 1), (3, 0), (1, 0)]:
        assert placements_at(state, *cell) == set()
    legal = legal_texts(state)
    assert legal  # T has somewhere to go
    for text in legal:
        x, y = map(int, text.split()[1].split(","))
        assert (x, y) not in occupied
        assert any((x + dx, y + dy) in occupied for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0)))
    before = state.serialize()
    for text in ["place 3,0 r0", "place -1,1 r0", "place 1,0 r0"]:
        with pytest.raises(IllegalActionError):
            state.apply_action(state.string_to_action(text))
        assert state.serialize() == before
    for text in ["place 0.5,1 r0", "place 1/2,1 r0"]:
        with pytest.raises(InvalidNotationError):
            state.string_to_action(text)


def test_cb05_every_touching_side_must_match(mk):
    """CB-05. Page: "You must match up the shapes on all sides touching other tiles. This might mean that you
    are unable to place a tile on your turn." Board: start, A = ph#12 r2 at (1,0), B = ph#40 r1 at (1,1); the
    cell (0,1) shows circle below and star to the east. (a) Y = ph#38 fits the circle but never both, so it is
    illegal there (it would be legal without B); (b) Y' = ph#39 r2 is legal and scores circle 2 + star 2 = 4.
    """
    state = cb_setup(mk, [ph(12), ph(38), ph(39), 1, 2, 3], [ph(40), 4, 5, 6, 7, 8])
    without_b = play(state.clone(), f"tile {ph(38)}")
    assert "place 0,1 r180" in legal_texts(without_b)  # before B is there, Y fits (0,1)
    play(state, f"tile {ph(12)}", "place 1,0 r180", f"tile {ph(40)}", "place 1,1 r90")
    assert state.current_player() == 0
    attempt = play(state.clone(), f"tile {ph(38)}")
    assert placements_at(attempt, 0, 1) == set()
    play(state, f"tile {ph(39)}")
    assert placements_at(state, 0, 1) == {"place 0,1 r180"}
    assert gained(state, 0, "place 0,1 r180") == 4.0


# --- CB-06: filling a hole ----------------------------------------------------------------------------------


def test_cb06_filling_a_hole_scores_four_groups(mk):
    """CB-06. Page (Scoring): "If you were able to connect all four of your shapes on your tile, you would
    score for all four of those groups." The blind board (hole at (0,0)) is shifted by (+1,+1) so that its
    (-1,-1) tile, ph#40 r0, is the start tile at (0,0); the hole is (1,1). (a) H' = ph#7 matches N, E and W
    but not the S star, in no rotation all four: illegal there; (b) H = ph#38 r0 is legal and scores four
    groups of 2 = 8."""
    hole = (1, 1)
    seat0 = [ph(4), ph(2), ph(32), ph(38), ph(7), 2]
    seat1 = [ph(6), ph(37), ph(31), 4, 7, 8]
    state = cb_setup(mk, seat0, seat1, start=ph(40))
    play(
        state,
        *[f"tile {ph(4)}", "place 1,0 r90"],  # blind (0,-1) ph#4 r1
        *[f"tile {ph(6)}", "place 0,1 r180"],  # blind (-1,0) ph#6 r2
        *[f"tile {ph(2)}", "place 0,2 r270"],  # blind (-1,1) ph#2 r3
        *[f"tile {ph(37)}", "place 1,2 r180"],  # blind (0,1) ph#37 r2
        *[f"tile {ph(32)}", "place 2,2 r90"],  # blind (1,1) ph#32 r1
        *[f"tile {ph(31)}", "place 2,1 r270"],  # blind (1,0) ph#31 r3
    )
    assert state.current_player() == 0
    attempt = play(state.clone(), f"tile {ph(7)}")
    assert placements_at(attempt, *hole) == set()
    play(state, f"tile {ph(38)}")
    assert "place 1,1 r0" in placements_at(state, *hole)
    assert gained(state, 0, "place 1,1 r0") == 8.0


# --- CB-07, CB-08, CB-09: groups ----------------------------------------------------------------------------


def test_cb07_cb08_groups_grow_through_a_tile_and_only_touched_groups_score(mk):
    """CB-07. Page: "You will count the total number of each shape in the grouping (contiguously connected)."
    Start Z0 = ph#2; P1 places A = ph#1 r3 at (1,0): 4 (Z0's N and E circles, A's W and N); P2 places B = ph#4
    r1 at (1,1): 6 (the same group plus B's S and E circles). CB-08. Page: "When you place a new tile, all
    shapes that you connect to will score." P1 then places C = ph#33 at (0,-1): only the square group scores,
    2; the 6-side circle group does not score again."""
    state = cb_setup(mk, [ph(1), ph(33), 2, 4, 5, 6], [ph(4), 7, 8, 9, 10, 11], start=ph(2), removed=39)
    assert gained(state, 0, f"tile {ph(1)}", "place 1,0 r270") == 4.0
    assert gained(state, 1, f"tile {ph(4)}", "place 1,1 r90") == 6.0
    assert gained(state, 0, f"tile {ph(33)}", "place 0,-1 r0") == 2.0
    assert state.scores() == [6.0, 6.0]


def placeholder_with_start_turned(tile: int, r: int) -> str:
    """The placeholder file with ``tile``'s face written as it shows at rotation r (the same tile set)."""
    faces = [list(face) for face in PLACEHOLDER["tiles"]]
    faces[tile] = turned(faces[tile], r)
    return tile_file(faces, PLACEHOLDER["shapes"], PLACEHOLDER["links"], name="placeholder, one tile turned")


def test_cb09_joining_two_groups_scores_the_merged_group_once(mk):
    """CB-09. Page: "all shapes that you connect to will score. You will count the total number of each shape
    in the grouping (contiguously connected)." Board: (0,0) ph#37 r1 (the start, written turned), (0,1) ph#28
    r3, (1,1) ph#16 r2. M = ph#1 r3 into (1,0) joins two separate 1-side circle groups through its own
    adjacent N and W circles: one group of 4, scored once (not 8)."""
    tiles = placeholder_with_start_turned(ph(37), 1)
    state = cb_setup(
        mk, [ph(28), ph(1), 1, 2, 3, 4], [ph(16), 5, 6, 7, 8, 9], start=ph(37), removed=39, tiles=tiles
    )
    assert serial(state)["board"] == [[ph(37), 0, 0, 0]]
    play(state, f"tile {ph(28)}", "place 0,1 r270", f"tile {ph(16)}", "place 1,1 r180", f"tile {ph(1)}")
    assert "place 1,0 r270" in legal_texts(state)
    assert gained(state, 0, "place 1,0 r270") == 4.0


# --- CB-10: rotation ----------------------------------------------------------------------------------------


def test_cb10_rotation_decides_whether_a_tile_fits(mk):
    """CB-10. Page: "Place a tile so that the shapes on that tile match the other shapes on tiles already
    placed." (rotation not mentioned; interpretation 4: quarter turns allowed, as the blind reading). G =
    ph#12 next to the start ph#37: legal at (1,0) r2, (0,-1) r1 or r2, (0,1) r2 and nowhere as printed (r0).
    """
    state = cb_setup(mk, [ph(12), 1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 12])
    assert f"tile {ph(12)}" in legal_texts(state)
    play(state, f"tile {ph(12)}")
    legal = legal_texts(state)
    assert legal == {"place 1,0 r180", "place 0,-1 r90", "place 0,-1 r180", "place 0,1 r180"}
    assert not [t for t in legal if t.endswith(" r0")]


# --- CB-11, CB-12, CB-13: passing ---------------------------------------------------------------------------

SHAPES4 = ["circle", "square", "triangle", "star"]
K4 = ["circle"] * 4
Q4 = ["square"] * 4


def kq_tiles() -> str:
    """Tile 0 = K (all circle), tile 7 = ph#37, every other tile Q (all square)."""
    faces = [list(Q4) for _ in range(40)]
    faces[0] = list(K4)
    faces[7] = list(PLACEHOLDER["tiles"][ph(37)])
    return tile_file(faces, SHAPES4)


def test_cb11_forced_pass_is_free_in_2023(mk):
    """CB-11. Page: "This might mean that you are unable to place a tile on your turn. If you are unable to
    place a tile you will be forced to pass." 2023: K alone on the board, P1 holds six Q: P1 must pass, keeps
    score and tiles; P2 then places ph#37 r3 at (1,0) and scores 5 (K's four joined circles + its W circle);
    the game goes on."""
    state = cb_setup(mk, [1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12], start=0, removed=39, tiles=kq_tiles())
    assert state.current_player() == 0
    assert state.legal_actions() == [PASS]
    hand = serial(state)["hands"][0]
    assert gained(state, 0, "pass") == 0.0
    assert serial(state)["hands"][0] == hand
    assert state.current_player() == 1 and not state.is_terminal()
    assert gained(state, 1, "tile 7", "place 1,0 r270") == 5.0
    assert not state.is_terminal()


def test_cb12_a_player_who_can_place_may_not_pass(mk):
    """CB-12. Page: "If you are unable to place a tile you will be forced to pass." (interpretation 6: there
    is no voluntary pass). In CB-11's position, P2 holds ph#37, which fits: passing is illegal."""
    for rules in (2023, 2024):
        state = cb_setup(
            mk, [1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12], start=0, removed=39, tiles=kq_tiles(), rules=rules
        )
        play(state, "pass")
        assert state.current_player() == 1
        assert PASS not in state.legal_actions()
        before = state.serialize()
        with pytest.raises(IllegalActionError):
            state.apply_action(PASS)
        assert state.serialize() == before


def moon_tiles() -> str:
    """Tile 0 = ph#37 (the start), tile 1 = ph#12 r2 as written, 7 and 8 all circle, every other tile all moon
    (a shape no board tile shows, so it never fits)."""
    faces = [["moon"] * 4 for _ in range(40)]
    faces[0] = list(PLACEHOLDER["tiles"][ph(37)])
    faces[1] = turned(PLACEHOLDER["tiles"][ph(12)], 2)
    faces[7] = list(K4)
    faces[8] = list(K4)
    return tile_file(faces, [*SHAPES4, "moon"])


@pytest.mark.parametrize(("rules", "after_pass"), [(2024, -2.0), (2023, 2.0)])
def test_cb13_a_2024_pass_costs_4_and_may_go_negative(mk, rules, after_pass):
    """CB-13. Facts §4, 2024 rule: "passing costs 4 points; after placing, draw a tile from the bag;
    end-of-game hand penalty removed". P1 on 2 points (CB-02's placement) must pass: under 2024 it goes to -2
    and draws nothing (the bag and its hand are unchanged); under 2023 the same pass leaves it on 2."""
    state = cb_setup(
        mk, [1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12], start=0, removed=39, tiles=moon_tiles(), rules=rules
    )
    play(state, "tile 1", "place 1,0 r0")
    if rules == 2024:
        play(state, "draw 13")
    play(state, "tile 7", "place 0,1 r0")
    if rules == 2024:
        play(state, "draw 14")
    assert state.current_player() == 0 and state.scores()[0] == 2.0
    assert state.legal_actions() == [PASS]
    before = serial(state)
    play(state, "pass")
    after = serial(state)
    assert state.scores()[0] == after_pass
    assert after["bag"] == before["bag"]
    assert after["hands"][0] == before["hands"][0]
    assert after["phase"] == "select" and state.current_player() == 1  # P2 still holds a circle tile


# --- CB-14: the 2024 draw -----------------------------------------------------------------------------------


def one_shape_tiles() -> str:
    """Every tile all ``a``: any tile fits next to any tile (``links: none``; scoring is not the point)."""
    return tile_file([["a"] * 4 for _ in range(40)], ["a", "b"], links="none")


def place_east(state, x: int) -> None:
    """The current seat places its lowest selectable tile at (x, 0); under 2024 it draws the lowest tile."""
    play(state, state.action_to_string(state.legal_actions()[0]), f"place {x},0 r0")
    if state.is_chance_node():
        state.apply_action(state.legal_actions()[0])


def test_cb14_2024_draw_after_placing_until_the_bag_is_empty(mk):
    """CB-14. Facts §4: "after placing, draw a tile from the bag". Page (Setup): "Each player will then draw 6
    tiles". With 2 tiles in the bag: P1 places and draws (6, bag 1), P2 places and draws (6, bag 0), P1 places
    and draws nothing (5); the removed tile is not drawn instead."""
    game = mk(GAME, rules=2024, tiles=one_shape_tiles())
    state = play(game.new_initial_state(), *draws(39, 0, *range(1, 13)))
    x = 1
    while len(serial(state)["bag"]) > 2:
        place_east(state, x)
        x += 1
    assert state.current_player() == 0 and hand_sizes(state) == [6, 6]
    place_east(state, x)
    assert hand_sizes(state) == [6, 6] and len(serial(state)["bag"]) == 1
    place_east(state, x + 1)
    assert hand_sizes(state) == [6, 6] and len(serial(state)["bag"]) == 0
    play(state, state.action_to_string(state.legal_actions()[0]), f"place {x + 2},0 r0")
    assert not state.is_chance_node()
    view = serial(state)
    assert view["phase"] == "select" and state.current_player() == 1
    assert hand_sizes(state) == [5, 6] and view["removed"] == [39]


def test_cb14_2023_nothing_is_drawn(mk):
    """CB-14 (2023 branch). Page (Setup): "Each player will then draw 6 tiles" and no drawing afterwards:
    after P1, P2, P1 place, the hands are 4 and 5 and the bag is as dealt."""
    game = mk(GAME, rules=2023, tiles=one_shape_tiles())
    state = play(game.new_initial_state(), *draws(39, 0, *range(1, 13)))
    bag = serial(state)["bag"]
    for x in (1, 2, 3):
        place_east(state, x)
        assert not state.is_chance_node()
    assert hand_sizes(state) == [4, 5] and serial(state)["bag"] == bag


# --- CB-15, CB-16: the end of the round ---------------------------------------------------------------------

A, B = "a", "b"
START, BRIDGE = 0, 1
B_TILES = range(2, 8)  # all b: they fit only next to the bridge's b side, then next to each other
A_TILES = range(8, 40)  # all a


def round_tiles() -> str:
    """Start all a, tile 1 the bridge (a, b, a, a), tiles 2..7 all b, the rest all a; ``links: none``, so
    every placement below (each touching exactly one tile) scores exactly 2."""
    faces = [[A] * 4 for _ in range(40)]
    faces[BRIDGE] = [A, B, A, A]
    for t in B_TILES:
        faces[t] = [B] * 4
    return tile_file(faces, [A, B], links="none")


class Table:
    """Drives the round-end positions: a tiles go west along y = 0, the bridge to (1,0), b tiles east."""

    def __init__(self, state):
        self.state = state
        self.west = -1
        self.east = 2

    def selectable(self, kinds) -> list[int]:
        return [a - SELECT for a in self.state.legal_actions() if a != PASS and a - SELECT in kinds]

    def draw(self, tile: int | None) -> None:
        if self.state.is_chance_node():
            legal = self.state.legal_actions()
            self.state.apply_action(tile if tile is not None else min(t for t in legal if t in A_TILES))

    def a(self, draw: int | None = None) -> None:
        play(self.state, f"tile {self.selectable(A_TILES)[0]}", f"place {self.west},0 r0")
        self.west -= 1
        self.draw(draw)

    def b(self) -> None:
        play(self.state, f"tile {self.selectable(B_TILES)[0]}", f"place {self.east},0 r0")
        self.east += 1
        self.draw(None)

    def bridge(self) -> None:
        play(self.state, f"tile {BRIDGE}", "place 1,0 r0")
        self.draw(None)

    def forced_pass(self) -> None:
        assert self.state.legal_actions() == [PASS]
        play(self.state, "pass")


@pytest.mark.parametrize("rules", [2023, 2024])
def test_cb15_the_round_is_finished_and_the_hand_penalty_depends_on_the_rules(mk, rules):
    """CB-15. Page (Ending the Game): "When a person plays their last tile, play continues until that round
    has completed and everyone has had an equal number of turns." (Final Scoring): "At the end of the game any
    tile still in a players hand is -4 per tile." Facts: 2024 "end-of-game hand penalty removed". 3 players,
    bag empty, hands 1 / 1 / 2 (P3 passed once): P1 places its last tile, P2 its last, P3 one of two; the game
    ends after P3's turn. 2023: P3 loses 4 for its tile; 2024: no penalty (but its pass cost 4). The blind
    setup's empty bag holds only under 2024: under 2023 nothing is drawn after the deal and "the tiles left in
    the bag stay there, unseen" (interpretation 17), which changes nothing here."""
    game = mk(GAME, players=3, rules=rules, tiles=round_tiles())
    if rules == 2023:
        seats = [[BRIDGE, 8, 9, 10, 11, 12], list(range(13, 19)), list(B_TILES)]
    else:
        seats = [[BRIDGE, 8, 9, 10, 11, 12], list(range(13, 19)), [2, 3, 4, 5, 6, 19]]
    table = Table(play(game.new_initial_state(), *draws(START, *(t for s in seats for t in s))))
    if rules == 2023:
        table.a(), table.a(), table.forced_pass()  # round 1: P3 holds only b tiles
        table.bridge(), table.a(), table.b()  # round 2
        for _ in range(3):  # rounds 3, 4, 5
            table.a(), table.a(), table.b()
    else:
        for turn in range(21):  # rounds 1..7 draw the 21 tiles of the bag; P3's last draw is the sixth b
            table.a(draw=7 if turn == 20 else None)
        assert serial(table.state)["bag"] == []
        table.a(), table.a(), table.forced_pass()  # round 8
        table.bridge(), table.a(), table.b()  # round 9
        for _ in range(3):  # rounds 10, 11, 12
            table.a(), table.a(), table.b()
    state = table.state
    assert state.current_player() == 0 and hand_sizes(state) == [1, 1, 2]
    assert (serial(state)["bag"] == []) == (rules == 2024)  # 2023 never draws: interpretation 17
    before = state.scores()
    table.a()  # P1's last tile
    assert not state.is_terminal() and state.current_player() == 1
    assert serial(state)["final"] is True
    table.a()  # P2's last tile
    assert not state.is_terminal() and state.current_player() == 2
    table.b()  # P3 places one of its two
    assert state.is_terminal()
    assert hand_sizes(state) == [0, 0, 1]
    penalty = 4.0 if rules == 2023 else 0.0
    assert state.scores() == [before[0] + 2, before[1] + 2, before[2] + 2 - penalty]
    expected = {2023: [12.0, 12.0, 6.0], 2024: [26.0, 26.0, 20.0]}[rules]
    assert state.scores() == expected
    assert state.returns() == [0.5, 0.5, 0.0]


@pytest.mark.parametrize("rules", [2023, 2024])
def test_cb16_the_last_seat_playing_its_last_tile_ends_the_game_at_once(mk, rules):
    """CB-16. Page: "play continues until that round has completed and everyone has had an equal number of
    turns." 2 players, bag empty, P1 holds 2 tiles and P2 1: P1 places (1 left), P2 places its last: the round
    is complete, the game ends at once; P1 gets no turn to shed its last tile. 2023: P1 loses 4; 2024: not. As
    in CB-15, the bag is empty only under 2024 (interpretation 17: under 2023 it is never drawn from)."""
    game = mk(GAME, rules=rules, tiles=round_tiles())
    if rules == 2023:
        seats = [list(B_TILES), [BRIDGE, 8, 9, 10, 11, 12]]
    else:
        seats = [[2, 3, 4, 5, 6, 8], [BRIDGE, 9, 10, 11, 12, 13]]
    table = Table(play(game.new_initial_state(), *draws(39, START, *(t for s in seats for t in s))))
    if rules == 2024:
        for turn in range(26):  # rounds 1..13 draw the 26 tiles of the bag; P1's last draw is the sixth b
            table.a(draw=7 if turn == 24 else None)
        assert serial(table.state)["bag"] == []
    table.forced_pass(), table.bridge()  # P1 holds only b tiles
    for _ in range(4):
        table.b(), table.a()
    state = table.state
    assert state.current_player() == 0 and hand_sizes(state) == [2, 1]
    assert (serial(state)["bag"] == []) == (rules == 2024)  # 2023 never draws: interpretation 17
    table.b()
    p1 = state.scores()[0]
    assert not state.is_terminal() and state.current_player() == 1
    table.a()
    assert state.is_terminal() and hand_sizes(state) == [1, 0]
    assert state.scores()[0] == (p1 - 4.0 if rules == 2023 else p1)
    expected = {2023: [6.0, 12.0], 2024: [32.0, 38.0]}[rules]
    assert state.scores() == expected
    assert state.returns() == [0.0, 1.0]


# --- CB-17, CB-18: nobody can place; ties -------------------------------------------------------------------


def circle_square_tiles() -> str:
    """Tiles 0..9 all circle (tile 0 is K, the start), tiles 10..39 all square (Q); ``links: none``."""
    faces = [list(K4) if t < 10 else list(Q4) for t in range(40)]
    return tile_file(faces, SHAPES4, links="none")


def test_cb17_nobody_can_place_ends_the_game_2023(mk):
    """CB-17. Page: "The game also ends if none of the players can place a tile." K alone, then circle tiles
    along y = 0; P1 ends with 3 Q, P2 with 2 Q (P1 was forced to pass once while P2 could still place).
    Adjusted to interpretation 12: "Nobody can place is checked at the start of every turn (§5.4), so the game
    ends without anyone having to pass" (the blind file allows this: "an engine may instead detect it at
    once"). 2023: -4 per tile left: P1 6 - 12 = -6, P2 8 - 8 = 0, P2 wins."""
    state = cb_setup(
        mk, [1, 2, 3, 10, 11, 12], [4, 5, 6, 7, 13, 14], start=0, removed=39, tiles=circle_square_tiles()
    )
    for x in range(1, 7):
        play(state, state.action_to_string(state.legal_actions()[0]), f"place {x},0 r0")
    assert state.current_player() == 0 and state.legal_actions() == [PASS]
    play(state, "pass", "tile 7", "place 7,0 r0")
    assert state.is_terminal()
    assert state.history()[-1] == state.string_to_action("place 7,0 r0")  # nobody passed to end it
    assert hand_sizes(state) == [3, 2]
    assert state.scores() == [-6.0, 0.0]
    assert state.returns() == [0.0, 1.0]


def test_cb17_nobody_can_place_ends_the_game_2024_with_tiles_in_the_bag(mk):
    """CB-17 (2024 branch). Page: "The game also ends if none of the players can place a tile." "Also check
    that under V2024, with tiles still in the bag, 'nobody can place' ends the game the same way: no one
    draws, because nobody placed." P1 and P2 each place their one circle tile and draw a Q: the game is over,
    the bag still holds tiles, nobody passes or pays, and there is no hand penalty."""
    seat0, seat1 = [1, 10, 11, 12, 13, 14], [2, 15, 16, 17, 18, 19]
    state = cb_setup(mk, seat0, seat1, start=0, removed=39, rules=2024, tiles=circle_square_tiles())
    play(state, "tile 1", "place 1,0 r0", "draw 20", "tile 2", "place 2,0 r0", "draw 21")
    assert state.is_terminal()
    view = serial(state)
    assert len(view["bag"]) == 40 - 1 - 1 - 12 - 2
    assert PASS not in state.history()
    assert hand_sizes(state) == [6, 6]
    assert state.scores() == [2.0, 2.0]


def test_cb18_tied_highest_scores_share_the_win(mk):
    """CB-18. Page (Final Scoring): "The player with the highest score wins." (no tie-break; interpretation
    13: tied highest scores share the victory). 3 players, 2023: P1 and P2 each place one circle tile (2
    points), then nobody can place: P1 2 - 20, P2 2 - 20, P3 0 - 24. P1 and P2 share the win; neither seat
    order nor the seat that ended the game (P2) is favoured."""
    tiles = circle_square_tiles()
    state = play(
        mk(GAME, players=3, rules=2023, tiles=tiles).new_initial_state(),
        *draws(0, 1, 10, 11, 12, 13, 14, 2, 15, 16, 17, 18, 19, *range(20, 26)),
    )
    play(state, "tile 1", "place 1,0 r0", "tile 2", "place -1,0 r0")
    assert state.is_terminal()
    assert state.scores() == [-18.0, -18.0, -24.0]
    assert state.returns() == [0.5, 0.5, 0.0]
