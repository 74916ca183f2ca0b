"""Tests of the pure-Python Caboodle oracle on its own (meeplex.oracle.caboodle).

Written from the BGA game-help page (shared/rules/bga_caboodle.txt) and the contract
docs/rules/caboodle.md (§ numbers refer to it): parameters and the tile file, removals and the deal,
placement (full-side contact, every touching side matching), forced passes, the scoring of connected groups,
both ends of the game, both rule sets, ties, hidden hands, resampling, serialization and notation, and whole
random games. Where a check needs the rules themselves (placements, group sizes) it recomputes them here from
the tile faces, independently of the oracle's code (a union-find instead of the oracle's flood fill).
"""

from __future__ import annotations

import base64
import json
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import meeplex.oracle as oracle
from meeplex.errors import IllegalActionError, InvalidNotationError, InvalidStateError
from meeplex.oracle import CHANCE, TERMINAL, Rng
from meeplex.oracle.caboodle import CaboodleGame, encode_tiles, placeholder_text
from meeplex.testing import check_state
from meeplex.testing.strategies import bad_ints, junk, states

GAME = "caboodle"
P = 79 * 79 * 4  # placements (§7)
PASS = P + 40
PLACEHOLDER = json.loads(placeholder_text())
VARIANTS = [
    {},
    {"rules": 2023},
    {"players": 3},
    {"players": 3, "rules": 2023},
    {"players": 4},
    {"players": 4, "rules": 2023},
]


# --- helpers ----------------------------------------------------------------------------------------------


def tile_text(faces, shapes=("a", "b"), links="adjacent", **overrides) -> str:
    """A tile file (§3) with these faces (lists of 4 shape names, N E S W)."""
    obj = {
        "format": "meeplex caboodle tiles",
        "version": 1,
        "name": "test",
        "verified": False,
        "notes": [],
        "shapes": list(shapes),
        "links": links,
        "tiles": [list(face) for face in faces],
    }
    obj.update(overrides)
    return json.dumps(obj)


def game_with(faces, players=2, rules=2024, shapes=("a", "b"), links="adjacent"):
    return oracle.make(
        GAME, players=players, rules=rules, tiles=encode_tiles(tile_text(faces, shapes, links))
    )


A4 = ["a", "a", "a", "a"]
B4 = ["b", "b", "b", "b"]


def play(state, *texts):
    """Apply actions written in notation."""
    for text in texts:
        state.apply_action(state.string_to_action(text))
    return state


def setup(game, removed=(), start=0, hands=()):
    """Apply the setup chance nodes: the removals, the start tile, then each seat's six tiles."""
    state = game.new_initial_state()
    play(state, *[f"draw {t}" for t in removed], f"draw {start}")
    for hand in hands:
        play(state, *[f"draw {t}" for t in hand])
    return state


def walk(game, seed):
    """Every state of the seeded random game (DESIGN's random step), the initial one first."""
    rng = Rng(seed)
    state = game.new_initial_state()
    yield state.clone()
    while not state.is_terminal():
        oracle.random_step(state, rng)
        yield state.clone()


def faces_of(game):
    return game.tiles.faces


def shown(faces, tile, rotation, side):
    return faces[tile][(side - rotation) % 4]


STEP = ((0, 1), (1, 0), (0, -1), (-1, 0))


def expected_placements(board, faces, tile):
    """§5.2 from scratch: the placement ids of every empty in-window cell with a neighbour and rotation
    whose touching sides all match."""
    cells = {(x, y): (t, r) for t, x, y, r in board}
    out = []
    for y in range(-39, 40):
        for x in range(-39, 40):
            if (x, y) in cells:
                continue
            for r in range(4):
                touching, ok = 0, True
                for d, (dx, dy) in enumerate(STEP):
                    if (x + dx, y + dy) in cells:
                        touching += 1
                        nt, nr = cells[(x + dx, y + dy)]
                        ok &= shown(faces, tile, r, d) == shown(faces, nt, nr, (d + 2) % 4)
                if touching and ok:
                    out.append(((y + 39) * 79 + (x + 39)) * 4 + r)
    return sorted(out)


def expected_points(board, faces, links):
    """§6 from scratch with a union-find: the points of the last tile of ``board``."""
    parent: dict = {}

    def find(a):
        parent.setdefault(a, a)
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    def union(a, b):
        parent[find(a)] = find(b)

    cells = {(x, y): (t, r) for t, x, y, r in board}
    for (x, y), (t, r) in cells.items():
        for d in range(4):
            find((x, y, d))
            for e in range(d + 1, 4):
                same = shown(faces, t, r, d) == shown(faces, t, r, e)
                if same and (links == "all" or (links == "adjacent" and e - d in (1, 3))):
                    union((x, y, d), (x, y, e))
            dx, dy = STEP[d]
            if (x + dx, y + dy) in cells:
                union((x, y, d), (x + dx, y + dy, (d + 2) % 4))
    sizes: dict = {}
    for region in list(parent):
        sizes[find(region)] = sizes.get(find(region), 0) + 1
    _, x, y, _ = board[-1]
    roots = {find((x, y, d)) for d, (dx, dy) in enumerate(STEP) if (x + dx, y + dy) in cells}
    return sum(sizes[root] for root in roots)


def serial(state) -> dict:
    return json.loads(state.serialize())


# --- parameters and the tile file (§1, §3) ----------------------------------------------------------------


def test_defaults_and_sizes():
    game = oracle.make(GAME)
    assert isinstance(game, CaboodleGame)
    assert game.params == {"players": 2, "rules": 2024, "tiles": "placeholder"}
    assert game.num_distinct_actions() == 25_005
    assert game.max_chance_outcomes() == 40
    assert game.max_game_length() == 160
    assert game.observation_shape() == (2656,)  # §8.1: 40 x 63 + 6 + 10 + 120
    assert oracle.make(GAME, players=4).max_game_length() == 240
    assert oracle.make(GAME, players=3).observation_shape() == (40 * 63 + 9 + 10 + 120,)
    assert oracle.make("caboodle(players=3,rules=2023)").params == {
        "players": 3,
        "rules": 2023,
        "tiles": "placeholder",
    }
    assert "caboodle" in oracle.games()


@pytest.mark.parametrize(
    "params",
    [
        {"players": 1},
        {"players": 5},
        {"players": True},
        {"players": "2"},
        {"players": 2.0},
        {"players": np.int64(2)},
        {"rules": 2025},
        {"rules": 2022},
        {"rules": "2024"},
        {"rules": True},
        {"tiles": 0},
        {"tiles": True},
        {"tiles": ""},
        {"tiles": "Placeholder"},
        {"tiles": "b64_"},
        {"tiles": "b64_A"},  # len mod 4 == 1
        {"tiles": "b64_QQ=="},  # padding
        {"tiles": "b64_QR"},  # unused bits not zero
        {"tiles": "b64_Q+"},  # not the url-safe alphabet
        {"tiles": "b64_" + base64.urlsafe_b64encode(b"\xff\xfe{}").rstrip(b"=").decode()},  # not UTF-8
        {"tiles": encode_tiles("{}")},
        {"tiles": "b64_" + base64.urlsafe_b64encode(placeholder_text().encode()).decode().rstrip("=") + "\n"},
        {"no_such": 1},
    ],
)
def test_bad_parameters(params):
    with pytest.raises(InvalidStateError):
        oracle.make(GAME, **params)


def test_owner_tiles_as_given():
    word = encode_tiles(placeholder_text())
    game = oracle.make(GAME, tiles=word)
    assert game.params["tiles"] == word
    assert game.tiles.faces == oracle.make(GAME).tiles.faces
    assert word == "b64_" + base64.urlsafe_b64encode(placeholder_text().encode()).rstrip(b"=").decode()
    assert oracle.make(f"caboodle(tiles={word})").params["tiles"] == word


def _file(**changes):
    obj = dict(PLACEHOLDER)
    obj.update(changes)
    return json.dumps(obj)


BAD_FILES = {
    "missing key": json.dumps({k: v for k, v in PLACEHOLDER.items() if k != "notes"}),
    "extra key": _file(extra=1),
    "format": _file(format="meeplex caboodle tile"),
    "version 2": _file(version=2),
    "version bool": _file(version=True),
    "version float": _file().replace('"version": 1', '"version": 1.0'),
    "empty name": _file(name=""),
    "long name": _file(name="x" * 65),
    "verified int": _file(verified=0),
    "notes not str": _file(notes=[1]),
    "one shape": _file(shapes=["circle"], tiles=[["circle"] * 4] * 40),
    "nine shapes": _file(shapes=[f"s{i}" for i in range(9)]),
    "repeated shape": _file(shapes=["circle", "square", "triangle", "circle"]),
    "upper-case shape": _file(shapes=["Circle", "square", "triangle", "star"]),
    "shape starts with digit": _file(shapes=["1circle", "square", "triangle", "star"]),
    "long shape": _file(shapes=["c" * 17, "square", "triangle", "star"]),
    "links": _file(links="some"),
    "39 tiles": _file(tiles=PLACEHOLDER["tiles"][:39]),
    "3 sides": _file(tiles=[t[:3] for t in PLACEHOLDER["tiles"]]),
    "unknown shape": _file(tiles=[["hexagon"] * 4] + PLACEHOLDER["tiles"][1:]),
    "duplicate key": _file()[:-1] + ', "links": "all"}',
    "NaN": _file().replace('"version": 1', '"version": NaN'),
    "BOM": "\ufeff" + _file(),
    "lone surrogate": _file().replace('"name": "placeholder"', '"name": "\\ud800"'),
    "not an object": json.dumps([PLACEHOLDER]),
    "two objects": _file() + _file(),
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_bad_tile_files(name):
    with pytest.raises(InvalidStateError):
        oracle.make(GAME, tiles=encode_tiles(BAD_FILES[name]))


def test_good_tile_files():
    # White space around the object; repeated faces; a shape on no tile; any links.
    for text in ("  \n" + _file() + "\n\t", _file(tiles=[["circle"] * 4] * 40), _file(links="none")):
        assert oracle.make(GAME, tiles=encode_tiles(text)).tiles.name == "placeholder"
    assert oracle.make(GAME, tiles=encode_tiles(_file(name="é" * 64))).tiles.name == "é" * 64


# --- setup (§2, §5.1) -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "removals"), [(2, 1), (3, 0), (4, 3)])
def test_removals_by_player_count(players, removals):
    """Page, Setup: "2-player remove 1 tile, 3-player remove 0 tiles, 4-player remove 3 tiles"."""
    state = oracle.make(GAME, players=players).new_initial_state()
    for i in range(removals):
        assert serial(state)["phase"] == "remove" and state.current_player() == CHANCE
        assert state.chance_weights() == [(t, 1) for t in range(40) if t not in serial(state)["removed"]]
        state.apply_action([7, 3, 20][i])
    assert serial(state)["phase"] == "start"
    assert serial(state)["removed"] == sorted([7, 3, 20][:removals])
    state.apply_action(11)
    data = serial(state)
    assert data["board"] == [[11, 0, 0, 0]] and data["phase"] == "deal" and data["scores"] == [0] * players
    assert len(state.chance_weights()) == 40 - removals - 1


def test_the_deal():
    """Seat 0's six tiles, then seat 1's (interp. 5); current is the receiving seat; play begins at seat 0."""
    game = oracle.make(GAME, players=3)
    state = play(game.new_initial_state(), "draw 0")
    for seat in range(3):
        for k in range(6):
            data = serial(state)
            assert data["phase"] == "deal" and data["current"] == seat
            assert state.current_player() == CHANCE
            state.apply_action(1 + 6 * seat + k)
    data = serial(state)
    assert data["hands"] == [list(range(1 + 6 * s, 7 + 6 * s)) for s in range(3)]
    assert data["phase"] == "select" and state.current_player() == 0
    assert len(data["bag"]) == 40 - 1 - 18


# --- placement (§5.2) -------------------------------------------------------------------------------------


def test_full_side_contact_only():
    """Only the four cells beside the start tile, never a diagonal one ("cannot be offset or staggered")."""
    game = game_with([A4] * 40, rules=2023)
    state = setup(game, removed=[39], start=0, hands=[range(1, 7), range(7, 13)])
    play(state, "tile 1")
    texts = [state.action_to_string(a) for a in state.legal_actions()]
    cells = sorted({t.split()[1] for t in texts})
    assert cells == ["-1,0", "0,-1", "0,1", "1,0"]
    assert len(texts) == 16  # every rotation of a symmetric tile is its own action (§5.2)
    with pytest.raises(IllegalActionError):
        state.apply_action(state.string_to_action("place 1,1 r0"))


def test_touching_side_must_match_placeholder():
    """Tile 1 (circle circle square star) above the start tile (N circle) must show circle on its S."""
    game = oracle.make(GAME, rules=2023)
    state = setup(game, removed=[39], start=0, hands=[[1, 3, 4, 5, 6, 7], [2, 8, 9, 10, 11, 12]])
    play(state, "tile 1")
    legal = set(state.legal_actions())
    assert state.string_to_action("place 0,1 r90") in legal
    assert state.string_to_action("place 0,1 r180") in legal
    assert state.string_to_action("place 0,1 r0") not in legal
    assert state.string_to_action("place 0,1 r270") not in legal
    assert state.legal_actions() == expected_placements(serial(state)["board"], game.tiles.faces, 1)


def test_every_touching_side_must_match():
    """A cell touching two tiles needs both sides to match: with shapes a, b, a rotation matching only one
    of the two neighbours is not legal there."""
    faces = [A4] * 40
    faces[2] = ["a", "b", "b", "a"]  # N a, E b, S b, W a
    faces[3] = ["a", "a", "b", "b"]
    game = game_with(faces, players=3, rules=2023)
    state = setup(game, start=0, hands=[[2, 4, 5, 6, 7, 8], [3, 9, 10, 11, 12, 13], [14, 15, 16, 17, 18, 19]])
    play(state, "tile 2", "place 1,0 r0")  # tile 2's W a against the start's E a
    play(state, "tile 9", "place 0,1 r0")  # above the start
    play(state, "tile 14", "place 0,-1 r0")
    play(state, "tile 4", "place -1,0 r0")
    play(state, "tile 3")
    # Cell (1, 1): its S touches tile 2's N (a), its W touches tile 9's E (a). Tile 3 (N a, E a, S b, W b)
    # shows a on both only at r180 (board side d shows file side d - r); r90 shows S a but W b: refused.
    at_11 = [a for a in state.legal_actions() if a // 4 == (1 + 39) * 79 + (1 + 39)]
    assert [state.action_to_string(a) for a in at_11] == ["place 1,1 r180"]
    # Cell (2, 0) touches tile 2's E (b) only: its W must show b, file side W at r0 or file side S at r90.
    at_20 = [a % 4 for a in state.legal_actions() if a // 4 == (0 + 39) * 79 + (2 + 39)]
    assert at_20 == [0, 1]
    board = serial(state)["board"]
    assert state.legal_actions() == expected_placements(board, faces, 3)


def test_placements_match_independent_check_in_random_games():
    for variant in ({}, {"players": 4, "rules": 2023}):
        game = oracle.make(GAME, **variant)
        checked = 0
        for state in walk(game, 3):
            data = serial(state)
            if data["phase"] == "place" and checked < 12:
                checked += 1
                assert state.legal_actions() == expected_placements(
                    data["board"], game.tiles.faces, data["selected"]
                )
            if data["phase"] == "select" and state.legal_actions() != [PASS]:
                hand = data["hands"][data["current"]]
                able = [P + t for t in hand if expected_placements(data["board"], game.tiles.faces, t)]
                assert state.legal_actions() == able


# --- passing (§5.2, interp. 6, 7, 12) ---------------------------------------------------------------------


def _pass_game(rules):
    """Seat 0 holds only tiles that show b everywhere; the board shows only a: seat 0 must pass."""
    faces = [A4] * 40
    for t in range(1, 7):
        faces[t] = B4
    game = game_with(faces, rules=rules)
    return game, setup(game, removed=[39], start=0, hands=[range(1, 7), range(7, 13)])


@pytest.mark.parametrize("rules", [2023, 2024])
def test_forced_pass(rules):
    game, state = _pass_game(rules)
    assert state.current_player() == 0
    assert state.legal_actions() == [PASS]  # the only action, a decision (interp. 7)
    bag = serial(state)["bag"]
    play(state, "pass")
    data = serial(state)
    assert data["scores"] == ([-4, 0] if rules == 2024 else [0, 0])
    assert data["bag"] == bag and data["hands"][0] == [1, 2, 3, 4, 5, 6]  # a pass draws nothing
    assert state.current_player() == 1 and data["phase"] == "select"
    assert PASS not in state.legal_actions()  # no voluntary pass (interp. 6)
    with pytest.raises(IllegalActionError):
        state.apply_action(PASS)


def test_2024_draw_after_placing():
    game, state = _pass_game(2024)
    play(state, "pass", "tile 7", "place 0,1 r0")
    data = serial(state)
    assert data["phase"] == "draw" and data["current"] == 1 and state.current_player() == CHANCE
    assert data["scores"] == [-4, 8]  # start's four a regions and tile 7's four, one group
    assert state.chance_weights() == [(t, 1) for t in data["bag"]]
    play(state, "draw 20")
    data = serial(state)
    assert 20 in data["hands"][1] and len(data["hands"][1]) == 6 and 20 not in data["bag"]
    assert data["phase"] == "select" and data["current"] == 0


def test_2023_no_draw_after_placing():
    game, state = _pass_game(2023)
    play(state, "pass", "tile 7", "place 0,1 r0")
    data = serial(state)
    assert data["phase"] == "select" and data["current"] == 0 and len(data["hands"][1]) == 5
    assert len(data["bag"]) == 26  # 40 - 1 removed - start - 12 dealt, untouched (interp. 17)


# --- scoring (§6) -----------------------------------------------------------------------------------------


def test_worked_example():
    """§6.2's example on the placeholder tiles: 4, then 2, then 4 points."""
    game = oracle.make(GAME, rules=2023)
    state = setup(game, removed=[39], start=0, hands=[[1, 3, 4, 5, 6, 7], [2, 8, 9, 10, 11, 12]])
    play(state, "tile 1", "place 0,1 r90")
    assert serial(state)["scores"] == [4, 0]
    assert serial(state)["board"][1] == [1, 0, 1, 1]
    play(state, "tile 2", "place -1,1 r180")
    assert serial(state)["scores"] == [4, 2]
    play(state, "tile 3", "place -2,1 r0")
    assert serial(state)["scores"] == [8, 2]
    tensor = state.observation_tensor(0)
    slot = 63  # slot 1 = tile 1 at (0, 1) r90: N star, E circle, S circle, W square
    assert list(tensor[slot : slot + 7]) == [1, 0, 1, 0, 1, 0, 0]
    assert tensor[slot + 7 + 1] == 1
    shapes = tensor[slot + 47 : slot + 63].reshape(4, 4).argmax(axis=1)
    assert list(shapes) == [3, 0, 0, 1]


@pytest.mark.parametrize(("links", "points"), [("adjacent", 16), ("all", 16), ("none", 4)])
def test_each_distinct_group_once(links, points):
    """A tile closing a square touches two sides; with one big group it scores it once (interp. 10), with
    links none it touches two groups of two."""
    game = game_with([A4] * 40, players=3, rules=2023, links=links)
    state = setup(game, start=0, hands=[range(1, 7), range(7, 13), range(13, 19)])
    play(state, "tile 1", "place 1,0 r0", "tile 7", "place 1,1 r0", "tile 13", "place 0,1 r0")
    assert serial(state)["scores"][2] == points
    assert serial(state)["scores"][:2] == ([8, 12] if links != "none" else [2, 2])


def test_regions_facing_empty_cells_count():
    """Two tiles: 'a' on three sides of the new tile joined through adjacent links to its touching side."""
    faces = [A4] * 40
    faces[1] = ["a", "b", "a", "b"]  # adjacent links join nothing (no two adjacent sides alike)
    faces[2] = ["a", "a", "b", "b"]
    game = game_with(faces, players=3, rules=2023)
    state = setup(game, start=0, hands=[[1, 3, 4, 5, 6, 7], [2, 8, 9, 10, 11, 12], range(13, 19)])
    play(state, "tile 1", "place 0,1 r0")  # its S a touches the start's N a: start's 4 + 1
    assert serial(state)["scores"][0] == 5
    play(state, "tile 2", "place 1,0 r270")  # r270: N a, E b, S b, W a: W touches start E; N joins W
    assert serial(state)["scores"][1] == 4 + 1 + 2  # start (4) + tile 1's S (1) + tile 2's N and W


def test_points_match_union_find_in_random_games():
    for variant, seed in (({}, 1), ({"players": 3, "rules": 2023}, 2), ({"players": 4}, 4)):
        game = oracle.make(GAME, **variant)
        previous = None
        for state in walk(game, seed):
            data = serial(state)
            if previous is not None and len(data["board"]) > len(previous["board"]):
                seat = previous["current"]
                gained = data["scores"][seat] - previous["scores"][seat]
                assert gained == expected_points(data["board"], game.tiles.faces, game.tiles.links)
            previous = data


# --- the end (§5.4) ---------------------------------------------------------------------------------------


def test_end_when_last_tile_played_round_completes():
    """3 players, 2023: seat 0 can never place; seat 1 plays its last tile first; seat 2 still has its turn
    and plays its last; the round then ends with seat 2 (interp. 1)."""
    faces = [A4] * 40
    for t in range(1, 7):
        faces[t] = B4
    game = game_with(faces, players=3, rules=2023)
    state = setup(game, start=0, hands=[range(1, 7), range(7, 13), range(13, 19)])
    x = 1
    for turn in range(6):
        play(state, "pass", f"tile {7 + turn}", f"place {x},0 r0")
        x += 1
        data = serial(state)
        assert data["final"] == (turn == 5)
        assert not state.is_terminal()
        play(state, f"tile {13 + turn}", f"place {-turn - 1},0 r0")
    assert state.is_terminal() and state.current_player() == TERMINAL
    data = serial(state)
    assert data["phase"] == "over" and data["current"] == 2 and data["selected"] == -1
    assert data["hands"] == [[1, 2, 3, 4, 5, 6], [], []]
    assert data["scores"][0] == -24  # 2023: -4 per tile left in hand; passes were free
    assert state.returns()[0] == 0.0 and sum(state.returns()) == 1.0


def test_final_round_skips_empty_hands():
    """2 players, 2023: seat 0 empties first (final); seat 1 plays its turn; then the game ends at seat 0."""
    game = game_with([A4] * 40, rules=2023)
    state = setup(game, removed=[39], start=0, hands=[range(1, 7), range(7, 13)])
    for turn in range(6):
        play(state, f"tile {1 + turn}", f"place {turn + 1},0 r0")
        assert not state.is_terminal()
        play(state, f"tile {7 + turn}", f"place {-turn - 1},0 r0")
    assert state.is_terminal() and serial(state)["current"] == 1


@pytest.mark.parametrize("rules", [2023, 2024])
def test_end_when_nobody_can_place_at_start(rules):
    """All hands show only b, the start tile only a: the game ends at once, nobody passes (interp. 12); a tie
    shares the victory (interp. 13)."""
    faces = [B4] * 40
    faces[0] = A4
    game = game_with(faces, rules=rules)
    state = setup(game, removed=[39], start=0, hands=[range(1, 7), range(7, 13)])
    assert state.is_terminal()
    data = serial(state)
    assert data["phase"] == "over" and data["current"] == 0
    assert data["scores"] == ([-24, -24] if rules == 2023 else [0, 0])
    assert state.returns() == [0.5, 0.5]
    assert state.legal_actions() == []
    assert state.history()[-1] == 12


def test_game_goes_on_when_a_draw_makes_a_placement_possible():
    """Seat 0 holds only b tiles against an all-a board and passes; seat 1's tile shows b outward, so seat 0
    can place on its next turn."""
    faces = [B4] * 40
    faces[0] = A4
    faces[7] = ["b", "b", "a", "b"]  # fits above the start (S a); shows b on its other sides
    game = game_with(faces, rules=2024)
    state = setup(game, removed=[39], start=0, hands=[range(1, 7), range(7, 13)])
    play(state, "pass", "tile 7", "place 0,1 r0", "draw 30")
    assert state.current_player() == 0 and state.legal_actions() == [P + t for t in range(1, 7)]


def test_nobody_can_place_ends_before_a_pass():
    faces = [B4] * 40
    faces[0] = A4
    faces[7] = ["a", "a", "a", "a"]
    game = game_with(faces, rules=2024)
    state = setup(game, removed=[39], start=0, hands=[range(1, 7), range(7, 13)])
    play(state, "pass", "tile 7", "place 0,1 r0")
    play(state, "draw 30")  # a b tile: seat 1 holds only b tiles now, the board shows only a
    assert state.is_terminal()
    data = serial(state)
    assert data["scores"] == [-4, 8] and data["current"] == 1  # the last turn was seat 1's
    assert state.returns() == [0.0, 1.0]


def test_2024_no_end_penalty_and_bag_drawn():
    state = oracle.play_random(oracle.make(GAME), 5)
    data = serial(state)
    assert data["bag"] == [] and all(not hand for hand in data["hands"])  # placeholder: every tile fits here
    assert len(data["board"]) == 39


def test_returns_follow_scores():
    for variant in VARIANTS:
        game = oracle.make(GAME, **variant)
        for seed in range(3):
            state = oracle.play_random(game, seed)
            scores = state.scores()
            best = max(scores)
            winners = [s for s in range(game.num_players()) if scores[s] == best]
            assert state.returns() == [1 / len(winners) if s in winners else 0.0 for s in range(len(scores))]


# --- hidden information (§8) ------------------------------------------------------------------------------


def test_hidden_hands():
    """Seat 1's view does not change when seat 0's hand does (and the removed tile is seen by nobody)."""
    game = oracle.make(GAME, rules=2023)
    one = setup(game, removed=[39], start=0, hands=[[1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12]])
    two = setup(game, removed=[20], start=0, hands=[[1, 2, 3, 4, 5, 30], [7, 8, 9, 10, 11, 12]])
    assert np.array_equal(one.observation_tensor(1), two.observation_tensor(1))
    assert one.observation_string(1) == two.observation_string(1)
    assert one.information_state_string(1) == two.information_state_string(1)
    assert not np.array_equal(one.observation_tensor(0), two.observation_tensor(0))
    assert one.information_state_string(0) != two.information_state_string(0)
    assert one.information_state_string(1) == "seat=1 history=?,0," + ",".join(["?"] * 6) + ",7,8,9,10,11,12"
    assert one.information_state_string(0) == "seat=0 history=?,0,1,2,3,4,5,6," + ",".join(["?"] * 6)


def test_observation_layout():
    game = oracle.make(GAME)
    state = setup(game, removed=[39], start=5, hands=[[1, 2, 3, 4, 6, 7], [8, 9, 10, 11, 12, 13]])
    tensor = state.observation_tensor(1)
    board = 40 * 63
    g = tensor[board:]
    assert list(tensor[0:7]) == [1, 0, 0, 1, 0, 0, 0] and tensor[7 + 5] == 1
    assert not tensor[63:board].any()
    assert list(g[0:2]) == [0, 0]  # scores, relative to seat 1
    assert list(g[2:4]) == [6, 6]  # hand sizes
    assert list(g[4:6]) == [0, 1]  # seat 0 to play: position 1 relative to seat 1
    assert list(g[6:13]) == [0, 0, 0, 1, 0, 0, 0]  # phase select
    assert list(g[13:16]) == [0, 1, 40 - 1 - 1 - 12]  # final, rules 2024, bag size
    assert not g[16:56].any()  # nothing selected
    assert [t for t in range(40) if g[56 + t]] == [8, 9, 10, 11, 12, 13]  # seat 1's hand
    assert [t for t in range(40) if g[96 + t]] == [t for t in range(40) if t not in (5, 8, 9, 10, 11, 12, 13)]
    play(state, "tile 1")
    g = state.observation_tensor(0)[board:]
    assert g[16 + 1] == 1 and list(g[2:4]) == [5, 6] and g[6 + 4] == 1 and g[96 + 1] == 0
    chance = state.clone()
    play(chance, chance.action_to_string(chance.legal_actions()[0]))
    assert serial(chance)["phase"] == "draw"
    assert not chance.observation_tensor(0)[board + 4 : board + 6].any()  # no current seat at chance


def test_removed_tile_unseen_by_all():
    game = oracle.make(GAME, players=4)
    state = setup(game, removed=[1, 2, 3], start=0, hands=[range(4 + 6 * s, 10 + 6 * s) for s in range(4)])
    for seat in range(4):
        unseen = state.observation_tensor(seat)[40 * 63 + 12 + 10 + 80 :]
        assert all(unseen[t] == 1 for t in (1, 2, 3))
        assert state.information_state_string(seat).split("=")[2].startswith("?,?,?,0,")


def test_resample_follows_the_procedure():
    """§8.3 in a state right after the deal: the hidden slots (the removal, seat 1's six) get pool[below]."""
    game = oracle.make(GAME, rules=2023)
    state = setup(game, removed=[39], start=0, hands=[[1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12]])
    rng, mirror = Rng(42), Rng(42)
    again = state.resample_from_infostate(0, rng)
    pool = [t for t in range(40) if t not in (0, 1, 2, 3, 4, 5, 6)]
    history = state.history()
    for position in [0, *range(8, 14)]:
        history[position] = pool.pop(mirror.below(len(pool)))
    assert again.history() == history
    assert rng.state == mirror.state
    assert serial(again)["hands"][0] == [1, 2, 3, 4, 5, 6]
    assert np.array_equal(again.observation_tensor(0), state.observation_tensor(0))


def test_resample_keeps_public_selections():
    """A tile seat 1 selected and placed was in its hand: the resample puts it in one of seat 1's slots."""
    game = oracle.make(GAME, rules=2024)
    state = setup(game, removed=[39], start=0, hands=[[1, 3, 4, 5, 6, 7], [2, 8, 9, 10, 11, 12]])
    play(state, "tile 1", "place 0,1 r90", "draw 20", "tile 2")
    for seed in range(20):
        again = state.resample_from_infostate(0, Rng(seed))
        data = serial(again)
        assert data["selected"] == 2 and data["phase"] == "place"
        assert 2 in again.history()[8:14]  # seat 1's deal slots
        assert 20 in data["hands"][0]
        assert again.information_state_string(0) == state.information_state_string(0)
    for seed in range(5):
        assert state.resample_from_infostate(1, Rng(seed)).information_state_string(1) == (
            state.information_state_string(1)
        )


def test_resample_is_uniform_over_hidden_hands():
    game = oracle.make(GAME, rules=2023)
    state = setup(game, removed=[39], start=0, hands=[[1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12]])
    counts = np.zeros(40)
    samples = 660
    rng = Rng(7)
    for _ in range(samples):
        for tile in serial(state.resample_from_infostate(0, rng))["hands"][1]:
            counts[tile] += 1
    pool = [t for t in range(40) if t not in range(7)]
    expected = samples * 6 / 33  # 120 per tile
    assert all(abs(counts[t] - expected) < 45 for t in pool)
    assert counts[:7].sum() == 0


def test_resample_respects_forced_passes_or_gives_up():
    """A pass says seat 1 could not place: every resample keeps a hand that cannot; with only six such tiles
    in the pool the procedure gives up after 100 attempts and returns the state itself (interp. 14)."""
    faces = [A4] * 40
    for t in range(7, 13):
        faces[t] = B4
    game = game_with(faces, rules=2023)
    state = setup(game, removed=[39], start=0, hands=[range(1, 7), range(7, 13)])
    play(state, "tile 1", "place 0,1 r0", "pass")
    again = state.resample_from_infostate(0, Rng(3))
    assert again.serialize() == state.serialize() and again is not state
    # With many b tiles, a resample succeeds and the resampled seat 1 still cannot place.
    faces = [B4] * 40
    faces[0] = faces[1] = faces[2] = A4
    game = game_with(faces, rules=2023)
    state = setup(game, removed=[39], start=0, hands=[range(1, 7), range(7, 13)])
    play(state, "tile 1", "place 0,1 r0", "pass")
    changed = 0
    for seed in range(10):
        again = state.resample_from_infostate(0, Rng(seed))
        assert again.information_state_string(0) == state.information_state_string(0)
        assert all(game.tiles.faces[t] == (1, 1, 1, 1) for t in serial(again)["hands"][1])
        changed += again.serialize() != state.serialize()
    assert changed > 0


def test_resample_bad_arguments():
    state = setup(oracle.make(GAME), removed=[39], start=0, hands=[range(1, 7), range(7, 13)])
    for seat in (-1, 2, True, 1.0, "0", None):
        with pytest.raises(InvalidStateError):
            state.resample_from_infostate(seat, Rng(1))
    with pytest.raises(TypeError):
        state.resample_from_infostate(0, 5)


# --- serialization (§9) -----------------------------------------------------------------------------------


def test_serialization_round_trip_and_format():
    for variant in VARIANTS:
        game = oracle.make(GAME, **variant)
        for index, state in enumerate(walk(game, 11)):
            if index % 7:
                continue
            text = state.serialize()
            again = game.deserialize_state(text)
            assert again.serialize() == text and again.history() == state.history()
            assert json.dumps(json.loads(text), sort_keys=True, separators=(",", ":")) == text
    state = oracle.make(GAME).new_initial_state()
    assert state.serialize() == (
        '{"bag":['
        + ",".join(map(str, range(40)))
        + '],"board":[],"current":0,"final":false,"game":"caboodle",'
        '"hands":[[],[]],"history":[],"params":{"players":2,"rules":2024,"tiles":"placeholder"},'
        '"phase":"remove","removed":[],"scores":[0,0],"selected":-1,"version":1}'
    )


def _midgame():
    game = oracle.make(GAME)
    state = setup(game, removed=[39], start=0, hands=[[1, 3, 4, 5, 6, 7], [2, 8, 9, 10, 11, 12]])
    play(state, "tile 1", "place 0,1 r90", "draw 20", "tile 2")
    return game, state


def _mutated(data, key, value):
    data = json.loads(json.dumps(data))
    data[key] = value
    return json.dumps(data)


def test_deserialize_refusals():
    game, state = _midgame()
    data = serial(state)
    text = state.serialize()
    bad = [
        text[:-1],
        "[]",
        "null",
        text + " {}",
        text.replace('"version":1', '"version":1,"version":1'),
        text.replace('"version":1', '"version":1.0'),
        text.replace('"version":1', '"version":true'),
        text.replace('"current":1', '"current":1e0'),
        text.replace('"final":false', '"final":0'),
        text.replace('"selected":2', '"selected":NaN'),
        _mutated(data, "game", "flip_city"),
        _mutated(data, "version", 2),
        _mutated(data, "params", {"players": 3, "rules": 2024, "tiles": "placeholder"}),
        _mutated(data, "params", {"players": 2, "rules": 2024}),
        _mutated(data, "params", {"players": 2, "rules": 2024, "tiles": encode_tiles(placeholder_text())}),
        _mutated(data, "extra", 1),
        json.dumps({k: v for k, v in data.items() if k != "bag"}),
        _mutated(data, "scores", [4, 1]),
        _mutated(data, "scores", [4.0, 0]),
        _mutated(data, "selected", -1),
        _mutated(data, "phase", "select"),
        _mutated(data, "current", 0),
        _mutated(data, "final", True),
        _mutated(data, "bag", data["bag"][::-1]),
        _mutated(data, "removed", [38]),
        _mutated(data, "hands", data["hands"][::-1]),
        _mutated(data, "board", data["board"][:1]),
        _mutated(data, "history", data["history"][:-1]),
        _mutated(data, "history", data["history"] + [PASS]),
        _mutated(data, "history", [True] + data["history"][1:]),
        _mutated(data, "history", [25_005]),
        _mutated(data, "history", [-1]),
        _mutated(data, "history", [0, 0]),
        _mutated(data, "history", [0] * 161),
        _mutated(data, "history", "0"),
    ]
    for item in bad:
        with pytest.raises(InvalidStateError):
            game.deserialize_state(item)
    for wrong in (None, 5, b"{}", data):
        with pytest.raises(InvalidStateError):
            game.deserialize_state(wrong)
    with pytest.raises(InvalidStateError):
        oracle.make(GAME, players=3).deserialize_state(text)


def test_deserialize_accepts_negative_zero_and_white_space():
    game, state = _midgame()
    text = state.serialize()
    data = serial(state)
    data["history"] = data["history"]  # unchanged
    spaced = json.dumps(data, indent=2)
    assert game.deserialize_state(spaced).serialize() == text
    state = setup(game, removed=[39], start=0, hands=[range(1, 7), range(7, 13)])
    text = state.serialize()
    assert '"current":0' in text
    assert game.deserialize_state(text.replace('"current":0', '"current":-0')).serialize() == text


# --- notation (§7) ----------------------------------------------------------------------------------------


def test_notation_round_trip():
    game = oracle.make(GAME, players=3)
    for index, state in enumerate(walk(game, 2)):
        if index % 3 or state.is_terminal():
            continue
        for action in state.legal_actions():
            text = state.action_to_string(action)
            assert state.string_to_action(text) == action
    state = oracle.make(GAME).new_initial_state()
    assert state.action_to_string(5) == "draw 5"
    _, state = _midgame()
    assert state.action_to_string(0) == "place -39,-39 r0"
    assert state.action_to_string(P - 1) == "place 39,39 r270"
    assert state.action_to_string(P + 17) == "tile 17"
    assert state.action_to_string(PASS) == "pass"
    assert state.action_to_string(((1 + 39) * 79 + (-2 + 39)) * 4 + 1) == "place -2,1 r90"


def test_notation_relaxed_and_refused():
    _, state = _midgame()
    place = ((1 + 39) * 79 + (-2 + 39)) * 4 + 1
    for text in (
        "place -2,1 r90",
        "  PLACE\t-2 , 1   R90 ",
        "place -02,+1 r90",
        "place -2 ,1 r90",
        "place -2, 1 r90",
    ):
        assert state.string_to_action(text) == place
    assert state.string_to_action("place -0,+0 r0") == ((39 * 79) + 39) * 4
    assert state.string_to_action("TILE 007") == P + 7
    assert state.string_to_action("tile " + "0" * 5000 + "7") == P + 7
    assert state.string_to_action(" Pass ") == PASS
    refused = [
        "draw 5",
        "tile -1",
        "tile +1",
        "tile 40",
        "tile 1" + "0" * 5000,
        "place 40,0 r0",
        "place 0,-40 r0",
        "place 0,0 r45",
        "place 0,0 r090",
        "place 0,0r0",
        "place0,0 r0",
        "place 0,0 r 90",
        "place 0 0 r0",
        "place 0,0",
        "place +-1,0 r0",
        "place ١,0 r0",
        "tile ٣",
        "passs",
        "",
        "tile\x1c1",
    ]
    for text in refused:
        with pytest.raises(InvalidNotationError):
            state.string_to_action(text)
    for wrong in (None, 5, b"pass"):
        with pytest.raises(InvalidNotationError):
            state.string_to_action(wrong)
    chance = oracle.make(GAME).new_initial_state()
    assert chance.string_to_action(" DRAW 039 ") == 39
    for text in ("tile 5", "pass", "draw 40", "draw -1", "place 0,0 r0"):
        with pytest.raises(InvalidNotationError):
            chance.string_to_action(text)
    for action in (40, -1, 25_005, True, 1.0, None):
        with pytest.raises(IllegalActionError):
            chance.action_to_string(action)
    for action in (25_005, -1, 2**64, True, "1"):
        with pytest.raises(IllegalActionError):
            state.action_to_string(action)
    terminal = oracle.play_random(oracle.make(GAME), 1)
    assert terminal.action_to_string(PASS) == "pass" and terminal.string_to_action("tile 3") == P + 3


# --- refused actions, clones, whole games -----------------------------------------------------------------


def test_illegal_actions_leave_the_state():
    _, state = _midgame()
    before = state.serialize()
    for action in (P + 2, PASS, P + 5, 25_005, -1, True, 1.5, None, np.int64(-1)):
        with pytest.raises(IllegalActionError):
            state.apply_action(action)
        assert state.serialize() == before
    legal = state.legal_actions()
    state.apply_action(np.int64(legal[0]))  # numpy ints are ints
    assert state.history()[-1] == legal[0]


def test_clone_is_independent():
    _, state = _midgame()
    twin = state.clone()
    twin.apply_action(twin.legal_actions()[0])
    assert twin.serialize() != state.serialize()
    assert len(serial(state)["board"]) == 2


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: json.dumps(v))
def test_whole_random_games(variant):
    game = oracle.make(GAME, **variant)
    n = game.num_players()
    for seed in range(4):
        state = oracle.play_random(game, seed)
        assert state.is_terminal() and len(state.history()) <= game.max_game_length()
        data = serial(state)
        assert data["phase"] == "over"
        tiles = data["bag"] + data["removed"] + [b[0] for b in data["board"]] + sum(data["hands"], [])
        assert sorted(tiles) == list(range(40))
        assert len(data["removed"]) == {2: 1, 3: 0, 4: 3}[n]
        assert abs(sum(state.returns()) - 1.0) < 1e-9
        assert game.deserialize_state(state.serialize()).serialize() == state.serialize()
    check_state(oracle.play_random(game, 9), game)


def test_whole_games_with_passes_and_both_ends():
    """A tile set of mostly one-shape tiles (five shapes): random games with passes, ends by the last tile
    played (some seats keeping tiles) and ends with nobody able to place, all within the bounds."""
    shapes = ("a", "b", "c", "d", "e")
    rnd = random.Random(4)
    faces = [[rnd.choice(shapes) for _ in range(4)] if i % 4 == 0 else [shapes[i % 5]] * 4 for i in range(40)]
    ends = set()
    for rules in (2023, 2024):
        game = oracle.make(GAME, players=3, rules=rules, tiles=encode_tiles(tile_text(faces, shapes)))
        for seed in range(8):
            state = oracle.play_random(game, seed)
            assert len(state.history()) <= game.max_game_length()
            data = serial(state)
            if data["final"]:
                ends.add("final")
            else:  # nobody can place (checked from scratch)
                ends.add("stuck")
                for hand in data["hands"]:
                    assert all(not expected_placements(data["board"], game.tiles.faces, t) for t in hand)
            if PASS in state.history():
                ends.add("pass")
            if data["final"] and any(data["hands"]):
                ends.add("final with tiles left")
            for index, check in enumerate(walk(game, seed)):
                if index % 11 == 0:
                    check_state(check, game)
    assert ends == {"final", "stuck", "pass", "final with tiles left"}


@settings(max_examples=25)
@given(data=st.data())
def test_junk_on_reachable_states(data):
    """Junk and out-of-range ints on random reachable states of every variant: documented errors only, and
    the state unchanged (as test_errors.py does for the registered games)."""
    game = oracle.make(GAME, **data.draw(st.sampled_from(VARIANTS), label="variant"))
    state = data.draw(states(game, max_steps=120), label="state")
    before = state.serialize()
    for value in [data.draw(junk(), label="junk"), data.draw(bad_ints(25_005), label="bad int")]:
        for method, error in (
            (state.apply_action, IllegalActionError),
            (state.action_to_string, IllegalActionError),
            (state.observation_tensor, InvalidStateError),
            (state.observation_string, InvalidStateError),
            (state.information_state_string, InvalidStateError),
        ):
            with pytest.raises(error):
                method(value)
        if not isinstance(value, str):
            with pytest.raises(InvalidNotationError):
                state.string_to_action(value)
    assert state.serialize() == before
