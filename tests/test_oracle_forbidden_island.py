"""Tests of the pure-Python Forbidden Island oracle on its own (meeplex.oracle.forbidden_island).

Written from the rulebook (borisyankov/rulespal data/rulebooks/forbidden-island-rulebook.md, "the rulebook",
quoted in the docstrings), the game-help page (shared/rules/bga_forbidden_island.txt, "the page") and the
contract docs/rules/forbidden_island.md (cited "§n"): each role's moves, giving, capturing, Waters Rise!, the
reshuffles, sinking and swimming, the four losses, the hand limit, the windows, the liftoff, notation,
observations, serialization and its refusals, and whole random games.

Positions are built as serialized states and read back with ``deserialize_state``, so every position a test
starts from has also passed the deserializer's checks. Unless a test says otherwise, tile x lies on position
x (so the standard layout reads: c1 Fools' Landing, d1 Bronze Gate, b2 Copper Gate, c2 Gold Gate, d2 Iron
Gate, e2 Silver Gate, a3 Temple of the Moon, b3 Temple of the Sun, c3 Whispering Garden, d3 Howling Garden,
e3 Cave of Embers, f3 Cave of Shadows, a4 Coral Palace, b4 Tidal Palace, c4 Breakers Bridge, ...).
"""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest

import meeplex.oracle as oracle
from meeplex.errors import IllegalActionError, InvalidNotationError, InvalidStateError
from meeplex.oracle import CHANCE, TERMINAL, Rng
from meeplex.oracle.forbidden_island import (
    CAPTURE,
    DISCARD,
    GIVE,
    HELI,
    LIFTOFF,
    MOVE,
    NAVIGATE,
    PASS,
    SANDBAG,
    SHORE,
    SWIM,
    ForbiddenIslandGame,
)
from meeplex.testing import run_conformance

EARTH, WIND, FIRE, OCEAN, HELI_CARD, SANDBAGS, WATERS_RISE = range(7)
DIVER, ENGINEER, EXPLORER, MESSENGER, NAVIGATOR, PILOT = range(6)
COUNTS = [5, 5, 5, 5, 3, 2, 3]
STANDARD = (
    "c1 d1 b2 c2 d2 e2 a3 b3 c3 d3 e3 f3 a4 b4 c4 d4 e4 f4 b5 c5 d5 e5 c6 d6".split()
)  # position q's name, standard layout
FOOLS_LANDING = 0


def make(players: int = 2, **params: object) -> ForbiddenIslandGame:
    game = oracle.make("forbidden_island", players=players, **params)
    assert isinstance(game, ForbiddenIslandGame)
    return game


def P(name: str) -> int:
    """The standard layout's position of a name."""
    return STANDARD.index(name)


def hand(**cards: int) -> list[int]:
    """A hand as counts of kinds 0..5: ``hand(earth=2, heli=1)``."""
    names = ["earth", "wind", "fire", "ocean", "heli", "sandbags"]
    return [cards.get(name, 0) for name in names]


def position(
    game: ForbiddenIslandGame,
    *,
    roles: list[int],
    pawns: list[str],
    hands: list[list[int]] | None = None,
    flooded: tuple[str, ...] = (),
    sunk: tuple[str, ...] = (),
    tiles: list[int] | None = None,
    phase: str = "actions",
    stage: str | None = None,
    turn: int = 0,
    actions_left: int | None = None,
    pilot_flown: bool = False,
    treasure_left: int = 0,
    flood_left: int = 0,
    level: int | None = None,
    captured: list[bool] | None = None,
    window: str = "none",
    pending: list[int] | None = None,
    outcome: str = "none",
    treasure_pile: list[int] | None = None,
    treasure_discard: list[int] | None = None,
    flood_pile: list[list[int]] | None = None,
    flood_discard: list[int] | None = None,
):
    """A state from the given facts (positions by name in the standard layout). Unless given: the treasure
    cards not in a hand are in the pile; the flood cards of the tiles not sunk are one layer of the pile."""
    n = game.players
    tiles = list(range(24)) if tiles is None else tiles
    hands = hands or [hand() for _ in range(n)]
    names = game.position_names
    status = ["dry"] * 24
    for name in flooded:
        status[names.index(name)] = "flooded"
    for name in sunk:
        status[names.index(name)] = "sunk"
    if treasure_discard is None:
        treasure_discard = [0] * 7
    if treasure_pile is None:
        treasure_pile = [
            COUNTS[k] - treasure_discard[k] - (sum(h[k] for h in hands) if k < 6 else 0) for k in range(7)
        ]
    standing = sorted(tiles[q] for q in range(24) if status[q] != "sunk")
    if flood_pile is None:
        flood_pile = [[x for x in standing if x not in (flood_discard or [])]]
        flood_pile = [layer for layer in flood_pile if layer]
    obj = {
        "actions_left": (3 if stage in (None, "actions") else 0) if actions_left is None else actions_left,
        "captured": captured or [False] * 4,
        "flood_discard": sorted(flood_discard or []),
        "flood_left": flood_left,
        "flood_pile": [sorted(layer) for layer in flood_pile],
        "game": "forbidden_island",
        "history": [],
        "level": game.start_level if level is None else level,
        "outcome": outcome,
        "params": game.params,
        "pending": pending or [],
        "phase": phase,
        "pilot_flown": pilot_flown,
        "seats": [{"hand": hands[s], "pawn": names.index(pawns[s]), "role": roles[s]} for s in range(n)],
        "stage": stage or "actions",
        "status": status,
        "tiles": tiles,
        "treasure_discard": treasure_discard,
        "treasure_left": treasure_left,
        "treasure_pile": treasure_pile,
        "turn": turn,
        "version": 1,
        "window": window,
    }
    return game.deserialize_state(json.dumps(obj))


def view(state) -> dict:
    return json.loads(state.serialize())


def act(state, *texts: str) -> None:
    for text in texts:
        state.apply_action(state.string_to_action(text))


def legal_texts(state) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def texts_of(state, verb: str) -> set[str]:
    """The legal actions of one verb, as texts."""
    return {t for t in legal_texts(state) if t.split(" ")[0] == verb}


def targets(state, verb: str) -> set[str]:
    """The positions of the legal actions of one verb (``move``, ``shore``, ``swim``, ``sandbag``)."""
    return {t.split(" ")[-1] for t in texts_of(state, verb)}


# --------------------------------------------------------------------------------------------------------
# §1 parameters and sizes, §2 positions
# --------------------------------------------------------------------------------------------------------


def test_registry_and_defaults():
    assert "forbidden_island" in oracle.games()
    assert oracle.GAMES["forbidden_island"] is ForbiddenIslandGame
    game = oracle.make("forbidden_island")
    assert game.params == {"difficulty": "novice", "layout": "standard", "players": 2}
    assert str(game) == "forbidden_island(difficulty=novice,layout=standard,players=2)"
    assert oracle.make(str(game)) == game
    other = oracle.make("forbidden_island(players=4,difficulty=legendary,layout=treasure_island)")
    assert other.params == {"difficulty": "legendary", "layout": "treasure_island", "players": 4}


@pytest.mark.parametrize(
    "params",
    [
        {"players": 1},
        {"players": 5},
        {"players": True},
        {"players": "2"},
        {"players": 2.0},
        {"difficulty": "hard"},
        {"difficulty": 1},
        {"layout": "volcano"},
        {"layout": True},
        {"seed": 3},
    ],
)
def test_bad_parameters(params):
    with pytest.raises(InvalidStateError):
        oracle.make("forbidden_island", **params)


@pytest.mark.parametrize(("players", "length", "shape"), [(2, 3477, 867), (3, 4656, 907), (4, 5835, 947)])
def test_sizes(players, length, shape):
    """§8 ``max_game_length() = 55 + 3 n + 56 x (19 + 21 n)`` (2 players: 3,477); §9.1 ``787 + 40 n``."""
    game = make(players)
    assert game.num_players() == players
    assert game.num_distinct_actions() == 577
    assert game.max_chance_outcomes() == 24
    assert game.max_game_length() == length
    assert game.observation_shape() == (shape,)


def test_position_names_and_adjacency():
    """§2: "Standard: rows of 2, 4, 6, 6, 4, 2"; Treasure Island ``a1 b1 f1 g1 / b2 … f2 / c3 d3 e3 / c4 d4
    e4 / b5 … f5 / a6 b6 f6 g6``; the name of position q is its column letter and its row digit."""
    assert list(make().position_names) == STANDARD
    island = make(layout="treasure_island")
    assert " ".join(island.position_names) == (
        "a1 b1 f1 g1 b2 c2 d2 e2 f2 c3 d3 e3 c4 d4 e4 b5 c5 d5 e5 f5 a6 b6 f6 g6"
    )
    game = make()
    assert sorted(STANDARD[q] for q in game.orthogonal[P("c3")]) == ["b3", "c2", "c4", "d3"]
    assert sorted(STANDARD[q] for q in game.diagonal[P("c3")]) == ["b2", "b4", "d2", "d4"]
    assert sorted(STANDARD[q] for q in game.orthogonal[P("c1")]) == ["c2", "d1"]  # b1 is open ocean


# --------------------------------------------------------------------------------------------------------
# §5.1 setup
# --------------------------------------------------------------------------------------------------------


def test_setup_sequence():
    """Rulebook Setup: "Shuffle the 24 Island tiles and randomly place them"; "Draw the top 6 cards (1 at a
    time) ... flip the corresponding Island tile over to its 'flooded' side"; "randomly deal 1 [Adventurer
    card] to each player"; "deal 2 cards to each player"; then the first turn of seat 0 (§5.1)."""
    game = make(3, difficulty="elite")
    state = game.new_initial_state()
    assert state.current_player() == CHANCE and state.is_chance_node()
    assert state.legal_actions_mask().shape == (24,)
    # The layout: 24 chance nodes over the tiles not yet placed.
    for q in range(24):
        assert view(state)["phase"] == "layout"
        assert state.chance_weights() == [(x, 1) for x in range(24) if x not in view(state)["tiles"]]
        state.apply_action(23 - q)  # tile 23 - q on position q
    assert view(state)["tiles"] == list(range(23, -1, -1))
    # Six flood draws: each tile becomes flooded, its card goes to the flood discard.
    assert view(state)["phase"] == "setup_flood" and view(state)["flood_left"] == 6
    for x in (0, 5, 10, 11, 12, 20):
        assert state.action_to_string(x) == f"flood {oracle.forbidden_island.TILE_KEYS[x]}"
        state.apply_action(x)
    v = view(state)
    assert v["phase"] == "roles" and v["flood_discard"] == [0, 5, 10, 11, 12, 20]
    assert [v["status"][23 - x] for x in (0, 5, 10, 11, 12, 20)] == ["flooded"] * 6
    assert v["status"].count("flooded") == 6
    # Roles: each pawn on the tile whose start_of is its role ("It's OK to start on a flooded tile").
    act(state, "role pilot", "diver", "role navigator")
    v = view(state)
    assert [s["role"] for s in v["seats"]] == [PILOT, DIVER, NAVIGATOR]
    assert [s["pawn"] for s in v["seats"]] == [23 - 0, 23 - 4, 23 - 3]  # Fools' Landing, Iron Gate, Gold Gate
    assert v["phase"] == "deal"
    # The deal: Waters Rise! is never dealt (interp. 9).
    assert state.chance_weights() == [(0, 5), (1, 5), (2, 5), (3, 5), (4, 3), (5, 2)]
    act(state, "card earth", "earth", "card heli", "fire", "ocean", "card sandbags")
    v = view(state)
    assert [s["hand"] for s in v["seats"]] == [hand(earth=2), hand(heli=1, fire=1), hand(ocean=1, sandbags=1)]
    # Step 5: the level of the difficulty, seat 0's turn; 30 + 3 n chance nodes in all.
    assert v["level"] == 3 and v["turn"] == 0 and v["stage"] == "actions" and v["actions_left"] == 3
    assert len(state.history()) == 30 + 3 * 3
    assert not state.is_chance_node()


def test_initial_serialization():
    """§10: the canonical JSON of the first state, byte for byte."""
    state = make().new_initial_state()
    expected = (
        '{"actions_left":0,"captured":[false,false,false,false],"flood_discard":[],"flood_left":0,'
        '"flood_pile":[[' + ",".join(str(x) for x in range(24)) + ']],"game":"forbidden_island","history":[],'
        '"level":1,"outcome":"none","params":{"difficulty":"novice","layout":"standard","players":2},'
        '"pending":[],"phase":"layout","pilot_flown":false,'
        '"seats":[{"hand":[0,0,0,0,0,0],"pawn":-1,"role":-1},{"hand":[0,0,0,0,0,0],"pawn":-1,"role":-1}],'
        '"stage":"setup","status":['
        + ",".join(['"none"'] * 24)
        + '],"tiles":['
        + ",".join(["-1"] * 24)
        + "],"
        '"treasure_discard":[0,0,0,0,0,0,0],"treasure_left":0,"treasure_pile":[5,5,5,5,3,2,3],"turn":0,'
        '"version":1,"window":"none"}'
    )
    assert state.serialize() == expected


# --------------------------------------------------------------------------------------------------------
# §7.1 moving, by role
# --------------------------------------------------------------------------------------------------------


def test_ordinary_move_is_orthogonal_and_not_onto_a_sunk_tile():
    """ "You may, for 1 or more actions, move your pawn to an adjacent Island tile: either up, down, left, or
    right, but never diagonally. You may move onto a flooded tile, but may not move onto (or over) the space
    of a missing tile." """
    game = make()
    state = position(game, roles=[MESSENGER, ENGINEER], pawns=["c3", "f4"], flooded=("b3",), sunk=("d3",))
    assert targets(state, "move") == {"c2", "b3", "c4"}
    act(state, "move b3")
    assert view(state)["seats"][0]["pawn"] == P("b3") and view(state)["actions_left"] == 2


def test_diver_moves_through_flooded_and_sunk_but_not_open_ocean():
    """ "The Diver may move through one or more adjacent missing and/or flooded tiles for 1 action"; the page:
    "it does not allow moving through spaces where there was never a tile, such as the open ocean"."""
    game = make()
    # From c1 the only tiles next to him are d1 and c2; b2 lies beyond c2 or beyond open ocean (b1).
    state = position(game, roles=[DIVER, ENGINEER], pawns=["c1", "f4"])
    assert targets(state, "move") == {"d1", "c2"}  # dry tiles stop him
    state = position(game, roles=[DIVER, ENGINEER], pawns=["c1", "f4"], flooded=("c2",), sunk=("c3",))
    # Through the flooded c2: b2, d2; through c2 and the sunk c3: b3, d3, c4; and on through nothing dry.
    assert targets(state, "move") == {"d1", "c2", "b2", "d2", "b3", "d3", "c4"}
    # He must end on a tile: never on the sunk c3.
    assert "c3" not in targets(state, "move")
    act(state, "move c4")
    assert view(state)["seats"][0]["pawn"] == P("c4") and view(state)["actions_left"] == 2


def test_diver_cannot_cross_the_treasure_island_gap():
    """Open ocean is never crossed: on Treasure Island, b1 and f1 are three ocean cells apart; only the
    flooded second row links them."""
    game = make(layout="treasure_island")
    names = game.position_names
    state = position(game, roles=[DIVER, ENGINEER], pawns=["b1", "a6"])
    assert targets(state, "move") == {"a1", "b2"}
    flooded = ("b2", "c2", "d2", "e2")
    state = position(game, roles=[DIVER, ENGINEER], pawns=["b1", "a6"], flooded=flooded)
    assert "f2" in targets(state, "move") and "f1" not in targets(state, "move")  # f2 is dry
    state = position(game, roles=[DIVER, ENGINEER], pawns=["b1", "a6"], flooded=(*flooded, "f2"))
    assert "f1" in targets(state, "move") and "g1" not in targets(state, "move")
    assert "c3" in targets(state, "move") and len(names) == 24


def test_explorer_moves_and_shores_diagonally():
    """ "The Explorer may also move diagonally." "The Explorer may also shore up tiles diagonally." """
    game = make()
    state = position(game, roles=[EXPLORER, ENGINEER], pawns=["c3", "f4"], flooded=("b2", "c3", "d4", "e3"))
    assert targets(state, "move") == {"b2", "c2", "d2", "b3", "d3", "b4", "c4", "d4"}
    assert targets(state, "shore") == {"b2", "c3", "d4"}  # e3 is two away
    act(state, "shore d4")
    assert view(state)["status"][P("d4")] == "dry" and view(state)["actions_left"] == 2
    # An ordinary pawn shores only orthogonally and its own tile.
    state = position(game, roles=[MESSENGER, ENGINEER], pawns=["c3", "f4"], flooded=("b2", "c3", "c4"))
    assert targets(state, "shore") == {"c3", "c4"}


def test_pilot_flies_once_per_turn():
    """ "The Pilot may move to any tile once per turn for 1 action." A move an ordinary pawn could make does
    not use the flight (interp. 3)."""
    game = make()
    state = position(game, roles=[PILOT, ENGINEER], pawns=["c3", "f4"], sunk=("d6",))
    assert targets(state, "move") == set(STANDARD) - {"c3", "d6"}
    act(state, "move c4")  # orthogonally adjacent: no flight
    assert view(state)["pilot_flown"] is False
    act(state, "move f3")  # the flight
    assert view(state)["pilot_flown"] is True and view(state)["actions_left"] == 1
    assert targets(state, "move") == {"e3", "f4"}
    # The next turn gives the flight back.
    state = position(game, roles=[ENGINEER, PILOT], pawns=["a3", "c3"], turn=1, pilot_flown=True)
    assert targets(state, "move") == {"c2", "b3", "d3", "c4"}


def test_navigator_moves_another_pawn_up_to_two_tiles():
    """ "The Navigator may move other players up to 2 adjacent tiles per action." The moved pawn steps with
    its own adjacency (an Explorer diagonally, a Diver over a sunk space), never with a Pilot's flight
    (interp. 4)."""
    game = make(4)
    state = position(
        game, roles=[NAVIGATOR, MESSENGER, EXPLORER, DIVER], pawns=["a4", "c3", "c3", "c6"], sunk=("c2", "d3")
    )
    navigate = texts_of(state, "navigate")

    def to(seat: int) -> set[str]:
        return {t.split(" ")[2] for t in navigate if t.split(" ")[1] == str(seat)}

    # The Messenger on c3: one step b3, c4; two steps over b3 or c4 (c2 and d3 are sunk: no middle there).
    assert to(1) == {"b3", "c4", "a3", "b2", "b4", "d4", "c5"}
    # The Explorer on c3: its steps are diagonal too.
    explorer = to(2)
    assert {"b2", "d2", "b4", "d4", "c1", "d1", "e2", "e4", "a3", "f3"} - explorer == {"f3"}
    assert "e3" in explorer  # over d2 or d4
    # The Diver on c6: one step c5, d6; over c5 to b5, d5, c4.
    assert to(3) == {"c5", "d6", "b5", "d5", "c4"}
    act(state, "navigate 1 b2")
    assert view(state)["seats"][1]["pawn"] == P("b2") and view(state)["actions_left"] == 2
    # A Diver's middle position may be sunk.
    state = position(
        game, roles=[NAVIGATOR, DIVER, EXPLORER, MESSENGER], pawns=["a4", "c4", "f3", "f4"], sunk=("c3", "c5")
    )
    diver = {t.split(" ")[2] for t in texts_of(state, "navigate") if t.split(" ")[1] == "1"}
    assert {"c2", "b3", "d3", "c6", "b5", "d5"} <= diver
    # A Pilot does not fly when moved.
    state = position(game, roles=[NAVIGATOR, PILOT, EXPLORER, MESSENGER], pawns=["a4", "c1", "f3", "f4"])
    pilot = {t.split(" ")[2] for t in texts_of(state, "navigate") if t.split(" ")[1] == "1"}
    assert pilot == {"d1", "c2", "b2", "d2", "c3"}
    # Only the Navigator navigates, and never himself.
    assert all(t.split(" ")[1] != "0" for t in texts_of(state, "navigate"))
    state = position(game, roles=[MESSENGER, NAVIGATOR, EXPLORER, DIVER], pawns=["a4", "c1", "f3", "f4"])
    assert texts_of(state, "navigate") == set()


def test_engineer_shores_two_tiles_for_one_action():
    """ "The Engineer may shore up 2 tiles for 1 action." The second tile is offered at once, free; then play
    goes on as after any action (§5.3.1)."""
    game = make()
    state = position(game, roles=[ENGINEER, MESSENGER], pawns=["c3", "f4"], flooded=("b3", "d3", "f3"))
    act(state, "shore b3")
    v = view(state)
    assert v["phase"] == "engineer" and v["actions_left"] == 2 and v["status"][P("b3")] == "dry"
    assert legal_texts(state) == ["shore d3", "pass"]
    act(state, "shore d3")
    v = view(state)
    assert v["phase"] == "actions" and v["actions_left"] == 2 and v["status"][P("d3")] == "dry"
    # pass: no second tile.
    state = position(game, roles=[ENGINEER, MESSENGER], pawns=["c3", "f4"], flooded=("b3", "d3"))
    act(state, "shore b3", "pass")
    assert view(state)["phase"] == "actions" and view(state)["actions_left"] == 2
    assert view(state)["status"][P("d3")] == "flooded"
    # No second tile to shore: no engineer phase. And on his last action, the second tile is still his.
    state = position(game, roles=[ENGINEER, MESSENGER], pawns=["c3", "f4"], flooded=("b3",))
    act(state, "shore b3")
    assert view(state)["phase"] == "actions"
    state = position(
        game, roles=[ENGINEER, MESSENGER], pawns=["c3", "f4"], flooded=("b3", "c3"), actions_left=1
    )
    act(state, "shore b3")
    assert view(state)["phase"] == "engineer" and view(state)["actions_left"] == 0
    act(state, "shore c3")
    assert view(state)["stage"] == "treasure"
    # Anyone else shores one tile per action.
    state = position(game, roles=[MESSENGER, ENGINEER], pawns=["c3", "f4"], flooded=("b3", "d3"))
    act(state, "shore b3")
    assert view(state)["phase"] == "actions"


# --------------------------------------------------------------------------------------------------------
# §5.3 giving, capturing, passing
# --------------------------------------------------------------------------------------------------------


def test_give_on_the_same_tile_only_and_only_treasure_cards():
    """ "You may give 1 or more of your Treasure cards to another player if both of your pawns are on the
    same island tile. It costs 1 action for each card you give away. ... You may not give Special Action
    cards." """
    game = make(3)
    hands = [hand(earth=1, fire=2, heli=1, sandbags=1), hand(), hand()]
    state = position(game, roles=[ENGINEER, DIVER, PILOT], pawns=["c3", "c3", "d3"], hands=hands)
    assert texts_of(state, "give") == {"give 1 earth", "give 1 fire"}
    act(state, "give 1 fire")
    v = view(state)
    assert v["seats"][0]["hand"] == hand(earth=1, fire=1, heli=1, sandbags=1)
    assert v["seats"][1]["hand"] == hand(fire=1) and v["actions_left"] == 2
    with pytest.raises(InvalidNotationError):
        state.string_to_action("give 1 heli")


def test_messenger_gives_anywhere():
    """ "The Messenger may give cards without having to be on the same tile." """
    game = make(3)
    hands = [hand(ocean=1), hand(), hand()]
    state = position(game, roles=[MESSENGER, DIVER, PILOT], pawns=["c1", "f3", "d6"], hands=hands)
    assert texts_of(state, "give") == {"give 1 ocean", "give 2 ocean"}
    act(state, "give 2 ocean")
    assert view(state)["seats"][2]["hand"] == hand(ocean=1)


def test_capture_on_a_flooded_tile():
    """ "You may, for 1 action, capture a treasure by discarding 4 matching Treasure cards from your hand if
    your pawn is on either corresponding island tile"; "You may capture a treasure on a flooded tile";
    "discard cards to the Treasure discard pile" (interp. 8)."""
    game = make()
    hands = [hand(fire=4, earth=1), hand()]
    state = position(game, roles=[MESSENGER, DIVER], pawns=["f3", "c1"], hands=hands, flooded=("f3",))
    assert CAPTURE in state.legal_actions()
    act(state, "capture")
    v = view(state)
    assert v["captured"] == [False, False, True, False]
    assert v["seats"][0]["hand"] == hand(earth=1) and v["treasure_discard"][FIRE] == 4
    assert v["actions_left"] == 2
    # Not with 3 cards, not on another treasure's tile, not twice.
    for tile, cards in (("f3", hand(fire=3)), ("a3", hand(fire=4)), ("c4", hand(fire=4))):
        state = position(game, roles=[MESSENGER, DIVER], pawns=[tile, "c1"], hands=[cards, hand()])
        assert CAPTURE not in state.legal_actions()
    state = position(
        game,
        roles=[MESSENGER, DIVER],
        pawns=["e3", "c1"],
        hands=[hand(fire=4), hand()],
        captured=[False, False, True, False],
    )
    assert CAPTURE not in state.legal_actions()


def test_fewer_than_three_actions():
    """ "You may take up to 3 actions each turn (could be 0, 1, or 2)": ``pass`` ends the actions at once."""
    game = make()
    state = position(game, roles=[MESSENGER, DIVER], pawns=["c3", "c1"])
    act(state, "pass")
    v = view(state)
    assert v["stage"] == "treasure" and v["phase"] == "treasure" and v["treasure_left"] == 2
    assert state.is_chance_node()


def test_a_whole_turn_without_windows():
    """ "On every turn, do the following three things in order: 1. Take up to 3 actions. 2. Draw 2 Treasure
    deck cards. 3. Draw Flood cards equal to the water level." """
    game = make(difficulty="elite")  # level 3: 3 flood cards
    state = position(game, roles=[MESSENGER, DIVER], pawns=["c3", "c1"], level=3)
    act(state, "move c4", "move c5", "move c4")
    assert view(state)["phase"] == "treasure"
    act(state, "card earth", "card wind")
    v = view(state)
    assert v["seats"][0]["hand"] == hand(earth=1, wind=1)
    assert v["stage"] == "flood" and v["flood_left"] == 3 and v["phase"] == "flood"
    act(state, "flood watchtower", "flood observatory", "flood misty_marsh")
    v = view(state)
    assert v["turn"] == 1 and v["stage"] == "actions" and v["actions_left"] == 3 and v["phase"] == "actions"
    assert v["flood_discard"] == [19, 20, 23]
    assert [v["status"][q] for q in (19, 20, 23)] == ["flooded"] * 3


# --------------------------------------------------------------------------------------------------------
# §5.4 treasure draws: Waters Rise! and the reshuffle
# --------------------------------------------------------------------------------------------------------


def treasure_draw(game, **facts):
    """A position at the first treasure draw of seat 0's turn."""
    facts.setdefault("roles", [MESSENGER, DIVER])
    facts.setdefault("pawns", ["c3", "c1"])
    return position(game, phase="treasure", stage="treasure", treasure_left=2, **facts)


def test_waters_rise_raises_the_level_and_puts_the_flood_discard_on_top():
    """ "1. Move the Water Level marker up to cover the next tick mark ... 2. Take all of the cards from the
    Flood discard pile, shuffle them, and then place them face down on top of the Flood draw pile. ... 3.
    Discard the Waters Rise! card to the Treasure discard pile." "If you draw a Waters Rise! card, you do not
    get a replacement card." """
    game = make(difficulty="normal")
    state = treasure_draw(game, flooded=("a3", "e4"), flood_discard=[6, 16], level=2)
    act(state, "card waters_rise")
    v = view(state)
    assert v["level"] == 3
    assert v["flood_pile"][0] == [6, 16] and len(v["flood_pile"]) == 2 and v["flood_discard"] == []
    assert v["treasure_discard"][WATERS_RISE] == 1 and v["treasure_pile"][WATERS_RISE] == 2
    assert v["seats"][0]["hand"] == hand() and v["treasure_left"] == 1
    act(state, "card ocean")
    # Level 3: three flood cards; "previously drawn cards will be drawn again soon": from the new top layer.
    v = view(state)
    assert v["flood_left"] == 3
    assert state.chance_weights() == [(6, 1), (16, 1)]
    act(state, "flood temple_moon")  # flooded again: it sinks
    assert view(state)["status"][P("a3")] == "sunk"
    assert state.chance_weights() == [(16, 1)]
    act(state, "flood crimson_forest")
    assert len(view(state)["flood_pile"]) == 1  # the emptied layer is gone
    assert len(state.chance_weights()) == 24 - 2  # the old pile: it never held the two discarded cards


def test_two_waters_rise_in_a_row():
    """ "If you draw 2 Waters Rise! cards in a row, shuffle the Flood discard pile only once but move the
    Water Level marker up 2 tick marks." """
    game = make()
    state = treasure_draw(game, flooded=("a3",), flood_discard=[6])
    act(state, "card waters_rise", "card waters_rise")
    v = view(state)
    assert v["level"] == 3 and v["flood_pile"][0] == [6] and len(v["flood_pile"]) == 2
    assert v["treasure_discard"][WATERS_RISE] == 2 and v["flood_left"] == 3


def test_waters_rise_with_an_empty_flood_discard():
    """ "If you draw a Waters Rise! card but there are no cards in the Flood discard pile, just move the Water
    Level marker up 1 tick mark." """
    game = make()
    state = treasure_draw(game)
    before = view(state)["flood_pile"]
    act(state, "card waters_rise")
    assert view(state)["level"] == 2 and view(state)["flood_pile"] == before


def test_the_treasure_discard_is_reshuffled_when_the_last_card_is_drawn():
    """ "When the last card of the Treasure deck is drawn, immediately shuffle the Treasure discard pile and
    turn it over to form a new Treasure deck": the card just drawn is not in it (interp. 2)."""
    game = make()
    hands = [hand(), hand(earth=2, wind=1)]
    discard = [3, 4, 5, 5, 3, 2, 2]
    pile = [COUNTS[k] - discard[k] - (hands[1][k] if k < 6 else 0) for k in range(7)]
    assert pile == [0, 0, 0, 0, 0, 0, 1]
    state = treasure_draw(
        game, hands=hands, treasure_discard=discard, treasure_pile=pile, flood_discard=[6], flooded=("a3",)
    )
    act(state, "card waters_rise")
    v = view(state)
    # The pile is the old discard; the Waters Rise! just drawn lies alone in the new discard.
    assert v["treasure_pile"] == discard and v["treasure_discard"] == [0, 0, 0, 0, 0, 0, 1]
    assert state.chance_weights() == [(k, discard[k]) for k in range(7)]
    # A treasure card drawn last goes to the hand; the discard becomes the pile.
    discard = [3, 4, 5, 4, 3, 2, 3]
    pile = [COUNTS[k] - discard[k] - (hands[1][k] if k < 6 else 0) for k in range(7)]
    state = treasure_draw(game, hands=hands, treasure_discard=discard, treasure_pile=pile)
    act(state, "card ocean")
    v = view(state)
    assert v["treasure_pile"] == discard and v["treasure_discard"] == [0] * 7
    assert v["seats"][0]["hand"] == hand(ocean=1)


# --------------------------------------------------------------------------------------------------------
# §5.5 flood draws, sinking, §5.6 swimming
# --------------------------------------------------------------------------------------------------------


def flood_draw(game, **facts):
    """A position at a flood draw of seat 0's turn, two cards still to draw."""
    facts.setdefault("roles", [MESSENGER, DIVER])
    facts.setdefault("pawns", ["a4", "c1"])
    facts.setdefault("flood_left", 2)
    return position(game, phase="flood", stage="flood", **facts)


def test_a_flooded_tile_sinks_and_its_card_leaves_the_game():
    """ "If the matching Island tile is un-flooded, flip it over to its flooded side. If the matching
    Island tile is already flooded, it sinks into the abyss! Remove it and the matching Flood card from the
    game." """
    game = make()
    state = flood_draw(game, flooded=("c4",))
    act(state, "flood breakers_bridge")
    v = view(state)
    assert v["status"][P("c4")] == "sunk"
    assert all(14 not in layer for layer in v["flood_pile"]) and 14 not in v["flood_discard"]
    act(state, "flood lost_lagoon")  # dry: flooded, card to the discard
    v = view(state)
    assert v["status"][P("b5")] == "flooded" and v["flood_discard"] == [18]
    assert v["turn"] == 1 and v["phase"] == "actions"
    # A sunk tile cannot be shored, sandbagged or walked on.
    assert "c4" not in targets(state, "move")


def test_the_flood_discard_is_reshuffled_when_the_pile_runs_out():
    """ "If the Flood draw pile ever runs out, immediately shuffle the Flood discard pile and stack the cards
    face down to form a new Flood draw pile. If this happens in the middle of a turn, continue drawing Flood
    cards as necessary from the new pile." """
    game = make()
    others = [x for x in range(24) if x not in (20, 21)]  # d5 (20) has sunk; e5 (21) is the last card
    flooded = tuple(STANDARD[x] for x in others if x != FOOLS_LANDING)
    state = flood_draw(
        game,
        flooded=flooded,
        sunk=("d5",),
        flood_pile=[[21]],
        flood_discard=others,
        flood_left=2,
        pawns=["a4", "c1"],
    )
    act(state, "flood phantom_rock")
    v = view(state)
    # The card just drawn is not in the new pile (interp. 2); it goes to the discard alone.
    assert v["flood_pile"] == [sorted(others)] and v["flood_discard"] == [21]
    assert state.chance_weights() == [(x, 1) for x in sorted(others)]


def stranded(game, role: int, *, sunk: tuple[str, ...] = (), heli: bool = False, where: str = "c3"):
    """Seat 1 (``role``) on ``where``, flooded, whose flood card is drawn next; every treasure captured, so
    no treasure loss gets in the way. Seat 0 holds a Helicopter Lift if ``heli``."""
    hands = [hand(heli=1) if heli else hand(), hand()]
    return flood_draw(
        game,
        roles=[NAVIGATOR, role],
        pawns=["d6", where],
        flooded=(where,),
        sunk=sunk,
        captured=[True] * 4,
        hands=hands,
        flood_pile=[[P(where)], [x for x in range(24) if STANDARD[x] not in (*sunk, where)]],
    )


def test_swimming_by_role():
    """ "it must immediately 'swim' to an adjacent tile (up, down, left, or right) that is still part of the
    island (even flooded)." "The Diver may swim to the nearest tile. The Explorer may swim diagonally. The
    Pilot may fly to any tile." """
    game = make()
    for role, swims in [
        (MESSENGER, {"c2", "b3", "d3", "c4"}),
        (EXPLORER, {"c2", "b3", "d3", "c4", "b2", "d2", "b4", "d4"}),
        (PILOT, set(STANDARD) - {"c3"}),
    ]:
        state = stranded(game, role)
        act(state, "flood whispering_garden")
        assert view(state)["phase"] == "swim" and state.current_player() == 1
        assert targets(state, "swim") == swims and set(legal_texts(state)) == {f"swim {q}" for q in swims}
        act(state, "swim " + sorted(swims)[0])
        assert view(state)["seats"][1]["pawn"] == P(sorted(swims)[0])
        assert view(state)["flood_left"] == 1 and view(state)["phase"] == "flood"
    # The Diver: the nearest tiles, counted in orthogonal steps through any space (interp. 5).
    sunk = ("c2", "b3", "d3", "c4", "b2", "d2", "a3")
    state = stranded(game, DIVER, sunk=sunk)
    act(state, "flood whispering_garden")
    assert targets(state, "swim") == {"c1", "e3", "b4", "d4", "c5"}


def test_a_pawn_that_cannot_swim_loses_the_game():
    """ "If a pawn is on a tile that is removed and cannot move to an adjacent tile, it sinks into the abyss
    and everyone loses the game!" An Explorer would get away diagonally."""
    game = make()
    sunk = ("c2", "b3", "d3", "c4")
    state = stranded(game, MESSENGER, sunk=sunk)
    act(state, "flood whispering_garden")
    assert state.is_terminal() and view(state)["outcome"] == "lost" and state.returns() == [0.0, 0.0]
    assert state.current_player() == TERMINAL
    # The end keeps the pawn where it sank, and the serialized end reads back.
    again = game.deserialize_state(state.serialize())
    assert again.serialize() == state.serialize()
    state = stranded(game, EXPLORER, sunk=sunk)
    act(state, "flood whispering_garden")
    assert view(state)["phase"] == "swim"


def test_a_helicopter_lift_rescues_a_stranded_pawn():
    """ "move any number of pawns from a single tile to any other tile" (the page): the rescue window opens
    before the swim (§5.5, §6), and a lifted pawn does not swim. Here nobody could swim: the lift saves the
    game."""
    game = make()
    state = stranded(game, MESSENGER, sunk=("c2", "b3", "d3", "c4"), heli=True)
    act(state, "flood whispering_garden")
    v = view(state)
    assert v["phase"] == "window" and v["window"] == "rescue" and v["pending"] == [0, 1]
    assert state.current_player() == 0
    assert "heli 1 a3" in legal_texts(state)
    act(state, "heli 1 a3")
    v = view(state)
    assert v["seats"][1]["pawn"] == P("a3") and v["seats"][0]["hand"] == hand()
    # No swim; the flood window (nobody holds a card now) and the next flood card.
    assert v["phase"] == "flood" and v["flood_left"] == 1
    # Passing instead leaves the pawn to swim (here: to drown).
    state = stranded(game, MESSENGER, sunk=("c2", "b3", "d3", "c4"), heli=True)
    act(state, "flood whispering_garden", "pass")
    assert view(state)["outcome"] == "lost"


def test_several_stranded_pawns_swim_in_seat_order_from_the_turn_seat():
    """§5.6: "the stranded seats swim one after another in seat order from the turn seat"."""
    game = make(3)
    state = position(
        game,
        roles=[MESSENGER, DIVER, EXPLORER],
        pawns=["c3", "c3", "c3"],
        flooded=("c3",),
        captured=[True] * 4,
        phase="flood",
        stage="flood",
        flood_left=1,
        turn=2,
        actions_left=0,
        flood_pile=[[P("c3")], [x for x in range(24) if x != P("c3")]],
    )
    act(state, "flood whispering_garden")
    assert state.current_player() == 2
    act(state, "swim b2")
    assert state.current_player() == 0
    act(state, "swim c2")
    assert state.current_player() == 1
    obs = state.observation_tensor(0)
    n = 3
    stranded_block = obs[-n:]
    assert list(stranded_block) == [0.0, 1.0, 0.0]
    act(state, "swim d3")
    assert view(state)["turn"] == 0 and view(state)["phase"] == "actions"


# --------------------------------------------------------------------------------------------------------
# §5.9 the four losses
# --------------------------------------------------------------------------------------------------------


def test_lost_when_fools_landing_sinks():
    """ "There are four possible ways to lose: ... 2. If the Fools' Landing tile sinks." """
    game = make()
    state = flood_draw(game, flooded=("c1",), pawns=["a4", "d6"])
    act(state, "flood fools_landing")
    assert state.is_terminal() and view(state)["outcome"] == "lost"
    assert state.scores() == [9.0, 9.0]


def test_lost_when_both_tiles_of_an_uncaptured_treasure_sink():
    """ "1. If both Temples, Caves, Palaces, or Gardens tiles sink before you collect their respective
    treasures." """
    game = make()
    state = flood_draw(game, flooded=("b3",), sunk=("a3",))
    act(state, "flood temple_sun")
    assert state.is_terminal() and view(state)["outcome"] == "lost"
    # A captured treasure's tiles may sink.
    state = flood_draw(game, flooded=("b3",), sunk=("a3",), captured=[True, False, False, False])
    act(state, "flood temple_sun")
    assert not state.is_terminal()
    # One tile of two is not a loss.
    state = flood_draw(game, flooded=("b3",))
    act(state, "flood temple_sun")
    assert not state.is_terminal()


def test_lost_when_the_water_reaches_the_skull():
    """ "4. If the water level reaches the skull and crossbones." """
    game = make(difficulty="legendary")
    state = treasure_draw(game, level=9)
    act(state, "card waters_rise")
    v = view(state)
    assert state.is_terminal() and v["outcome"] == "lost" and v["level"] == 10
    assert state.returns() == [0.0, 0.0] and state.scores() == [0.0, 0.0]
    # The card is discarded (every card is accounted for) and the end reads back.
    assert v["treasure_discard"][WATERS_RISE] == 1
    assert game.deserialize_state(state.serialize()).serialize() == state.serialize()


# --------------------------------------------------------------------------------------------------------
# §5.7 the hand limit
# --------------------------------------------------------------------------------------------------------


def test_hand_limit_forces_a_discard_after_a_draw():
    """ "If you ever find that you have 6 or more cards ... you must immediately choose and discard the excess
    to the Treasure discard pile." """
    game = make()
    state = treasure_draw(game, hands=[hand(earth=2, wind=2, fire=1), hand()])
    act(state, "card ocean")
    v = view(state)
    assert v["phase"] == "discard" and state.current_player() == 0
    assert legal_texts(state) == ["discard earth", "discard wind", "discard fire", "discard ocean"]
    act(state, "discard wind")
    v = view(state)
    assert v["seats"][0]["hand"] == hand(earth=2, wind=1, fire=1, ocean=1)
    assert v["treasure_discard"][WIND] == 1 and v["phase"] == "treasure" and v["treasure_left"] == 1


def test_hand_limit_of_a_receiver_on_anothers_turn():
    """ "(for example because you drew more cards or received cards from another player)" "even if it not on
    their turn" (the page): the receiver discards at once (interp. 7), then play goes on."""
    game = make()
    hands = [hand(earth=1), hand(wind=5)]
    state = position(game, roles=[MESSENGER, DIVER], pawns=["c3", "c1"], hands=hands)
    act(state, "give 1 earth")
    assert view(state)["phase"] == "discard" and state.current_player() == 1
    act(state, "discard earth")
    v = view(state)
    assert v["phase"] == "actions" and v["actions_left"] == 2 and v["seats"][1]["hand"] == hand(wind=5)


def test_a_special_card_played_instead_of_discarding():
    """ "If you choose to discard a Special Action card, you may use its action before discarding"; the page:
    "a player may instead immediately play a special action card instead of discarding"."""
    game = make()
    state = treasure_draw(game, hands=[hand(earth=2, wind=2, heli=1), hand()], flooded=("e4",))
    act(state, "card sandbags")
    assert view(state)["phase"] == "discard"
    assert "sandbag e4" in legal_texts(state) and "heli 0 c4" in legal_texts(state)
    assert "heli 0+1 c4" not in legal_texts(state)  # the two pawns are on different tiles
    act(state, "heli 0 f4")
    v = view(state)
    assert v["seats"][0]["pawn"] == P("f4") and v["seats"][0]["hand"] == hand(earth=2, wind=2, sandbags=1)
    assert v["treasure_discard"][HELI_CARD] == 1
    # Down to five: the treasure window follows and asks seat 0, who still holds the Sandbags.
    assert v["phase"] == "window" and v["window"] == "treasure" and v["pending"] == [0, 1]
    act(state, "sandbag e4")
    assert view(state)["status"][P("e4")] == "dry" and view(state)["phase"] == "treasure"


def test_sandbags_played_instead_of_discarding():
    """ "Note: You may use the power of a Special Action card if you are forced to discard it." """
    game = make()
    hands = [hand(earth=1), hand(wind=4, sandbags=1)]
    state = position(game, roles=[MESSENGER, DIVER], pawns=["c3", "c1"], hands=hands, flooded=("d6",))
    act(state, "give 1 earth")
    assert view(state)["phase"] == "discard" and state.current_player() == 1
    assert legal_texts(state) == ["sandbag d6", "discard earth", "discard wind", "discard sandbags"]
    act(state, "sandbag d6")
    v = view(state)
    assert v["status"][P("d6")] == "dry" and v["seats"][1]["hand"] == hand(earth=1, wind=4)
    assert v["treasure_discard"][SANDBAGS] == 1 and v["phase"] == "actions" and v["actions_left"] == 2


def test_no_sandbags_once_the_card_is_revealed():
    """ "Note: You cannot play a Sandbag card to save a flooded tile once you've revealed the matching Flood
    card": the tile has sunk before anyone can act."""
    game = make()
    state = flood_draw(game, flooded=("c4", "e4"), hands=[hand(), hand(sandbags=1)])
    assert view(state)["phase"] == "flood" and state.is_chance_node()  # nobody is asked before the reveal
    act(state, "flood breakers_bridge")
    v = view(state)
    assert v["window"] == "flood" and v["pending"] == [1]
    assert texts_of(state, "sandbag") == {"sandbag e4"}


# --------------------------------------------------------------------------------------------------------
# §5.8 special plays, §6 windows
# --------------------------------------------------------------------------------------------------------


def test_sandbags_anywhere_and_the_lift_from_one_tile():
    """ "Sandbags ... allows the player to shore up any flooded tile anywhere on the island"; "Helicopter
    Lift ... move any number of pawns from a single tile to any other tile ... you need not move all pawns
    from the start tile"; "Playing a Special Action card does not require an action." """
    game = make(3)
    hands = [hand(sandbags=1, heli=1), hand(), hand()]
    state = position(
        game,
        roles=[MESSENGER, DIVER, PILOT],
        pawns=["c3", "c3", "f4"],
        hands=hands,
        flooded=("d6", "a3"),
        sunk=("b5",),
    )
    assert texts_of(state, "sandbag") == {"sandbag d6", "sandbag a3"}
    helis = texts_of(state, "heli")
    assert {t.split(" ")[1] for t in helis} == {"0", "1", "0+1", "2"}
    assert "heli 0+1 b5" not in helis and "heli 0+1 c3" not in helis and "heli 0+2 a3" not in helis
    act(state, "sandbag a3", "heli 1 e4")
    v = view(state)
    assert (
        v["status"][P("a3")] == "dry"
        and v["seats"][1]["pawn"] == P("e4")
        and v["seats"][0]["pawn"] == P("c3")
    )
    assert v["actions_left"] == 3 and v["phase"] == "actions"  # free, and no window after them
    assert v["treasure_discard"][HELI_CARD] == 1 and v["treasure_discard"][SANDBAGS] == 1


def test_windows_ask_in_seat_order_and_again_after_a_play():
    """ "Special action cards can be played at any time, whether it is that player's turn or not" (the page):
    §6, a window asks its holders in seat order from the turn seat; a play keeps the seat first; a pass
    drops it for good."""
    game = make(3)
    hands = [hand(heli=1), hand(sandbags=2), hand(heli=1)]
    state = position(
        game,
        roles=[MESSENGER, DIVER, PILOT],
        pawns=["c3", "c1", "d6"],
        hands=hands,
        turn=1,
        flooded=("a3", "e4"),
        phase="treasure",
        stage="treasure",
        treasure_left=2,
        actions_left=0,
    )
    act(state, "card earth")  # the treasure window: seats 1, 2, 0
    v = view(state)
    assert v["phase"] == "window" and v["window"] == "treasure" and v["pending"] == [1, 2, 0]
    act(state, "sandbag a3")
    assert view(state)["pending"] == [1, 2, 0] and state.current_player() == 1  # asked again
    act(state, "pass")
    assert view(state)["pending"] == [2, 0] and state.current_player() == 2
    act(state, "pass", "pass")
    assert view(state)["phase"] == "treasure" and view(state)["treasure_left"] == 1
    # After seat 1 played its last usable card it is not asked: there is nothing left to play.
    act(state, "card ocean")
    assert view(state)["pending"] == [1, 2, 0]
    act(state, "sandbag e4")
    assert view(state)["pending"] == [2, 0]


def test_nobody_is_asked_when_nobody_holds_a_usable_card():
    """§6: "a window with no holder of a usable card asks nothing": Sandbags with no flooded tile is not
    usable."""
    game = make()
    state = position(game, roles=[MESSENGER, DIVER], pawns=["c3", "c1"], hands=[hand(), hand(sandbags=1)])
    act(state, "move c4")
    assert view(state)["phase"] == "actions" and state.current_player() == 0
    act(state, "pass")
    assert view(state)["phase"] == "treasure"
    # With a flooded tile it is: the act window before each of seat 0's actions, then the end window.
    state = position(
        game, roles=[MESSENGER, DIVER], pawns=["c3", "c1"], hands=[hand(), hand(sandbags=1)], flooded=("f4",)
    )
    act(state, "move c4")
    v = view(state)
    assert v["phase"] == "window" and v["window"] == "act" and v["pending"] == [1]
    act(state, "pass")
    assert view(state)["phase"] == "actions"
    act(state, "pass")  # seat 0's pass is its pass of the end window: seat 1 is asked
    v = view(state)
    assert v["window"] == "end" and v["pending"] == [1]


def test_end_window_after_a_last_action_asks_every_seat():
    """§5.3: the end window is "for every seat after a last action, for the seats other than c after
    pass"."""
    game = make()
    state = position(
        game, roles=[MESSENGER, DIVER], pawns=["c3", "c1"], hands=[hand(heli=1), hand(heli=1)], actions_left=1
    )
    act(state, "move c4")
    v = view(state)
    assert v["window"] == "end" and v["pending"] == [0, 1] and v["stage"] == "treasure"


def test_a_turn_begins_with_an_act_window_for_the_others():
    """§5.2: "then the window act (§6) for the seats other than t"."""
    game = make(3)
    state = flood_draw(
        game,
        roles=[MESSENGER, DIVER, PILOT],
        pawns=["a4", "c1", "d1"],
        flood_left=1,
        hands=[hand(heli=1), hand(heli=1), hand(heli=1)],
    )
    act(state, "flood watchtower")
    assert view(state)["window"] == "flood" and view(state)["pending"] == [0, 1, 2]
    act(state, "pass", "pass", "pass")
    v = view(state)
    assert v["turn"] == 1 and v["window"] == "act" and v["pending"] == [2, 0] and v["actions_left"] == 3


# --------------------------------------------------------------------------------------------------------
# The win
# --------------------------------------------------------------------------------------------------------


def test_liftoff_wins_also_on_a_flooded_fools_landing():
    """ "Once you have collected all four treasures, everyone must move their pawns to the Fools' Landing
    tile. Then, one player must discard a Helicopter Lift card to lift your team off of Forbidden Island for
    the win! Note: You may win if Fools' Landing is flooded." """
    game = make()
    state = position(
        game,
        roles=[MESSENGER, DIVER],
        pawns=["c1", "c1"],
        hands=[hand(heli=1), hand()],
        captured=[True] * 4,
        flooded=("c1",),
    )
    assert LIFTOFF in state.legal_actions()
    act(state, "liftoff")
    assert state.is_terminal() and view(state)["outcome"] == "won"
    assert state.returns() == [1.0, 1.0] and state.scores() == [99.0, 99.0]
    assert state.legal_actions() == [] and not state.legal_actions_mask().any()
    # Not before every pawn is there, nor before every treasure is captured.
    for pawns, captured in ((["c1", "d1"], [True] * 4), (["c1", "c1"], [True, True, True, False])):
        state = position(
            game, roles=[MESSENGER, DIVER], pawns=pawns, hands=[hand(heli=1), hand()], captured=captured
        )
        assert LIFTOFF not in state.legal_actions()


def test_liftoff_by_another_seat_in_a_window():
    """The page: "someone can play a Helicopter Lift card to win the game, regardless of whose turn it is or
    what phase of play it is"."""
    game = make()
    state = treasure_draw(game, pawns=["c1", "c1"], hands=[hand(), hand(heli=1)], captured=[True] * 4)
    act(state, "card earth")
    assert view(state)["pending"] == [1] and state.current_player() == 1
    act(state, "liftoff")
    assert (
        view(state)["outcome"] == "won" and view(state)["window"] == "none" and view(state)["pending"] == []
    )


# --------------------------------------------------------------------------------------------------------
# Errors, notation
# --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("action", [-1, 577, 10**30, True, 1.0, "move c2", None, MOVE + P("d4")])
def test_illegal_actions_leave_the_state_unchanged(action):
    game = make()
    state = position(game, roles=[MESSENGER, DIVER], pawns=["c3", "c1"])
    before = state.serialize()
    with pytest.raises(IllegalActionError):
        state.apply_action(action)
    assert state.serialize() == before


def test_numpy_ints_are_actions():
    game = make()
    state = position(game, roles=[MESSENGER, DIVER], pawns=["c3", "c1"])
    state.apply_action(np.int64(MOVE + P("c4")))
    assert view(state)["seats"][0]["pawn"] == P("c4") and view(state)["history"] == [MOVE + P("c4")]


def test_every_action_prints_and_reads_back():
    """§8: every id prints at a decision node; each text reads back to its id."""
    game = make()
    state = position(game, roles=[MESSENGER, DIVER], pawns=["c3", "c1"])
    texts = [state.action_to_string(a) for a in range(577)]
    assert len(set(texts)) == 577
    assert [state.string_to_action(t) for t in texts] == list(range(577))
    assert texts[P("d3")] == "move d3" and texts[SHORE] == "shore c1"
    assert texts[GIVE + 4 * 1 + FIRE] == "give 1 fire" and texts[CAPTURE] == "capture"
    assert texts[NAVIGATE + 24 * 3 + 23] == "navigate 3 d6" and texts[SANDBAG + 6] == "sandbag a3"
    assert texts[HELI + 24 * (5 - 1)] == "heli 0+2 c1" and texts[544] == "heli 0+1+2+3 d6"
    assert texts[LIFTOFF] == "liftoff" and texts[DISCARD + 5] == "discard sandbags"
    assert texts[SWIM + 1] == "swim d1" and texts[PASS] == "pass"
    for bad in (-1, 577, True, None):
        with pytest.raises(IllegalActionError):
            state.action_to_string(bad)


def test_chance_texts():
    """§8: ``tile <tile>``, ``flood <tile>``, ``role <role>``, ``card <kind>``; the bare argument reads
    too."""
    game = make()
    state = game.new_initial_state()
    assert (
        state.action_to_string(0) == "tile fools_landing" and state.action_to_string(23) == "tile watchtower"
    )
    assert (
        state.string_to_action("  TILE   Cave_Embers ") == 10 and state.string_to_action("cave_embers") == 10
    )
    for bad in (24, -1, True):
        with pytest.raises(IllegalActionError):
            state.action_to_string(bad)
    for text in ("flood cave_embers", "tile", "tile cave", "card earth", "10"):
        with pytest.raises(InvalidNotationError):
            state.string_to_action(text)
    roles = position(
        game,
        roles=[MESSENGER, DIVER],
        pawns=["c3", "c1"],
        phase="treasure",
        stage="treasure",
        treasure_left=1,
    )
    assert roles.action_to_string(6) == "card waters_rise" and roles.string_to_action("waters_rise") == 6
    with pytest.raises(IllegalActionError):
        roles.action_to_string(7)


def test_relaxed_reading_and_refusals():
    """§8: case folded, white space trimmed and collapsed; mask seats in any order but not twice; unknown
    positions (this layout's), seats outside 0..3 and unknown words refused; legality not checked."""
    game = make()
    state = position(game, roles=[MESSENGER, DIVER], pawns=["c3", "c1"])
    assert state.string_to_action("  Heli\t2+0   C1 ") == HELI + 24 * 4
    assert state.string_to_action("GIVE 3 OCEAN") == GIVE + 15
    assert state.string_to_action("navigate 3 d6") == NAVIGATE + 24 * 3 + 23
    for text in (
        "move a1",  # not in the standard layout
        "move",
        "move c3 c4",
        "give 4 earth",
        "give 1 heli",
        "give -1 earth",
        "heli 0+0 c1",
        "heli 0+4 c1",
        "heli  c1",
        "heli 0++1 c1",
        "discard waters_rise",
        "fly c1",
        "card earth",
        "swim",
        "",
    ):
        with pytest.raises(InvalidNotationError):
            state.string_to_action(text)
    island = position(make(layout="treasure_island"), roles=[MESSENGER, DIVER], pawns=["a1", "g6"])
    assert island.string_to_action("move a1") == 0
    with pytest.raises(InvalidNotationError):
        island.string_to_action("move c1")
    with pytest.raises(InvalidNotationError):
        state.string_to_action(3)


# --------------------------------------------------------------------------------------------------------
# §9 observations
# --------------------------------------------------------------------------------------------------------


def test_observation_tensor_layout():
    """§9.1, block by block, for the observer seat 1 of 3."""
    game = make(3)
    n = 3
    hands = [hand(earth=1), hand(heli=1, fire=2), hand()]
    state = position(
        game,
        roles=[MESSENGER, DIVER, PILOT],
        pawns=["c3", "c3", "d6"],
        hands=hands,
        flooded=("a3", "d6"),
        sunk=("f4",),
        flood_pile=[[6], [x for x in range(24) if x not in (6, 17, 23)]],
        flood_discard=[23],
        level=2,
        actions_left=2,
        pilot_flown=True,
        treasure_discard=[0, 0, 0, 1, 0, 0, 1],
        captured=[False, True, False, False],
    )
    obs = state.observation_tensor(1)
    assert obs.shape == (787 + 40 * n,) and obs.dtype == np.float32
    block = 31 + n
    c3 = obs[block * P("c3") : block * (P("c3") + 1)]
    assert c3[8] == 1.0 and c3[:24].sum() == 1.0  # tile 8
    assert list(c3[24:27]) == [1.0, 0.0, 0.0]  # dry
    assert list(c3[27:30]) == [1.0, 0.0, 1.0]  # seat 1 (relative 0) and seat 0 (relative 2)
    assert list(c3[30:34]) == [1.0, 1.0, 21.0, 0.0]  # in the pile, 1 card above, a layer of 21
    a3 = obs[block * P("a3") : block * (P("a3") + 1)]
    assert list(a3[24:27]) == [0.0, 1.0, 0.0] and list(a3[30:34]) == [1.0, 0.0, 1.0, 0.0]
    d6 = obs[block * P("d6") : block * (P("d6") + 1)]
    assert list(d6[27:30]) == [0.0, 1.0, 0.0] and list(d6[30:34]) == [0.0, 0.0, 0.0, 1.0]
    f4 = obs[block * P("f4") : block * (P("f4") + 1)]
    assert list(f4[24:27]) == [0.0, 0.0, 1.0] and list(f4[30:34]) == [0.0] * 4
    seats = obs[24 * block : 24 * block + 12 * n]
    assert list(seats[:12]) == [1, 0, 0, 0, 0, 0] + hand(heli=1, fire=2)  # seat 1: Diver
    assert list(seats[12:24]) == [0, 0, 0, 0, 0, 1] + hand()  # seat 2: Pilot
    assert list(seats[24:36]) == [0, 0, 0, 1, 0, 0] + hand(earth=1)  # seat 0: Messenger
    g = obs[24 * block + 12 * n :]
    assert len(g) == 43 + 4 * n
    assert g[0] == 2.0 and g[1] == 2.0 and list(g[2:6]) == [0, 1, 0, 0]
    assert list(g[6:13]) == [4, 5, 3, 4, 2, 2, 2] and list(g[13:20]) == [0, 0, 0, 1, 0, 0, 1]
    assert g[20] == 2.0 and g[21] == 1.0
    assert list(g[22:34]) == [0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]  # phase actions
    assert list(g[34:39]) == [0] * 5 and g[39] == 0 and g[40] == 0 and g[41] == 0 and g[42] == 0
    assert list(g[43:46]) == [0, 0, 1]  # turn seat 0 is relative 2
    assert list(g[46:49]) == [0, 0, 1]  # acting seat 0
    assert list(g[49:52]) == [0, 0, 0] and list(g[52:55]) == [0, 0, 0]
    assert state.observation_string(1)  # a picture, not compared
    with pytest.raises(InvalidStateError):
        state.observation_tensor(3)


def test_observation_at_chance_and_in_windows():
    game = make()
    state = treasure_draw(game, hands=[hand(heli=1), hand(heli=1)])
    g = state.observation_tensor(0)[24 * 33 + 24 :]  # n = 2: turn 43:45, acting 45:47, pending 47:49
    assert list(g[22:34]) == [0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0] and list(g[45:47]) == [0, 0]
    assert list(g[43:45]) == [1, 0]
    act(state, "card earth")
    g = state.observation_tensor(1)[24 * 33 + 24 :]
    assert list(g[34:39]) == [0, 0, 1, 0, 0]  # the treasure window
    assert list(g[43:45]) == [0, 1]  # the turn seat 0, seen by seat 1
    assert list(g[45:47]) == [0, 1] and list(g[47:49]) == [1, 1]  # seat 0 acting; both pending


def test_information_state_and_resample():
    """§9.2 ``seat=<p> history=<ids>``; §9.3 a resample is a clone."""
    game = make()
    state = oracle.play_random(game, 3)
    history = state.history()
    assert state.information_state_string(1) == "seat=1 history=" + ",".join(map(str, history))
    twin = state.resample_from_infostate(0, Rng(1))
    assert twin.serialize() == state.serialize() and twin is not state
    with pytest.raises(InvalidStateError):
        state.information_state_string(2)


# --------------------------------------------------------------------------------------------------------
# §10 serialization
# --------------------------------------------------------------------------------------------------------


def test_serialization_round_trips_along_random_games():
    for players in (2, 3, 4):
        game = make(players, layout="treasure_island" if players == 3 else "standard")
        state = game.new_initial_state()
        rng = Rng(players)
        while not state.is_terminal():
            text = state.serialize()
            again = game.deserialize_state(text)
            assert again.serialize() == text
            assert again.legal_actions() == state.legal_actions()
            assert again.current_player() == state.current_player()
            state.random_step(rng)
        assert game.deserialize_state(state.serialize()).serialize() == state.serialize()


def base() -> dict:
    """A valid serialized position (seat 0's actions) to break one rule at a time."""
    game = make()
    state = position(
        game,
        roles=[MESSENGER, DIVER],
        pawns=["c3", "c1"],
        hands=[hand(earth=1), hand(heli=1)],
        flooded=("a3",),
        sunk=("f4",),
        flood_discard=[6],
    )
    return view(state)


def mutated(change) -> str:
    obj = base()
    change(obj)
    return json.dumps(obj)


def _set(path, value):
    def change(obj):
        target = obj
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


REFUSALS = {
    "missing key": lambda o: o.pop("turn"),
    "extra key": _set(["extra"], 1),
    "extra seat key": _set(["seats", 0, "extra"], 1),
    "bool for int": _set(["turn"], False),
    "float for int": _set(["level"], 1.0),
    "wrong game": _set(["game"], "lineit"),
    "wrong version": _set(["version"], 2),
    "other params": _set(["params", "players"], 3),
    "params type": _set(["params", "difficulty"], 1),
    "seats count": lambda o: o["seats"].pop(),
    "hand length": _set(["seats", 0, "hand"], [1, 0, 0, 0, 0]),
    "status length": lambda o: o["status"].pop(),
    "tiles length": lambda o: o["tiles"].append(3),
    "captured length": _set(["captured"], [False] * 3),
    "pile length": _set(["treasure_pile"], [4, 5, 5, 5, 2, 2]),
    "tile id range": _set(["flood_discard"], [24]),
    "tiles range": _set(["tiles", 0], 24),
    "pawn range": _set(["seats", 0, "pawn"], 24),
    "role range": _set(["seats", 0, "role"], 6),
    "negative count": _set(["seats", 0, "hand", 0], -1),
    "level range": _set(["level"], 11),
    "level zero": _set(["level"], 0),
    "actions_left range": _set(["actions_left"], 4),
    "treasure_left range": _set(["treasure_left"], 3),
    "flood_left range": _set(["flood_left"], 7),
    "turn range": _set(["turn"], 2),
    "pending range": _set(["pending"], [2]),
    "phase word": _set(["phase"], "play"),
    "stage word": _set(["stage"], "setup_flood"),
    "window word": _set(["window"], "any"),
    "outcome word": _set(["outcome"], "draw"),
    "status word": _set(["status", 0], "wet"),
    "history range": _set(["history"], [577]),
    "tile placed twice": _set(["tiles", 1], 0),
    "role dealt twice": _set(["seats", 1, "role"], MESSENGER),
    "discard not ascending": lambda o: o.update(
        flood_discard=[6, 0], flood_pile=[[x for x in o["flood_pile"][0] if x != 0]]
    ),
    "layer empty": lambda o: o["flood_pile"].insert(0, []),
    "layer not ascending": lambda o: o["flood_pile"][0].reverse(),
    "cards do not add up": _set(["treasure_pile", 0], 5),
    "waters rise missing": _set(["treasure_pile", 6], 2),
    "flood card twice": lambda o: o["flood_discard"].append(7),
    "sunk card in play": lambda o: o["flood_discard"].append(17),
    "card nowhere": lambda o: o["flood_pile"][0].remove(3),
    "pawn on sunk": _set(["seats", 0, "pawn"], 17),
    "window without phase": _set(["window"], "act"),
    "phase without window": _set(["phase"], "window"),
    "outcome without over": _set(["outcome"], "won"),
    "over without outcome": _set(["phase"], "over"),
    "unsettled window": lambda o: o.update(phase="window", window="act", pending=[0]),
    "empty window": lambda o: o.update(phase="window", window="act", pending=[]),
    "discard without excess": _set(["phase"], "discard"),
    "swim without stranded": _set(["phase"], "swim"),
    "engineer without tile": _set(["phase"], "engineer"),
    "actions with none left": _set(["actions_left"], 0),
    "status none with a tile": _set(["status", 5], "none"),
    "pawn without role": _set(["seats", 0, "role"], -1),
    "not a string": None,
}


@pytest.mark.parametrize("name", sorted(REFUSALS))
def test_deserialization_refusals(name):
    """§10: each listed refusal (and the two format rules ``status`` none exactly with tile -1, pawn and role
    -1 together) raises InvalidStateError."""
    game = make()
    game.deserialize_state(json.dumps(base()))  # the base is valid
    if REFUSALS[name] is None:
        with pytest.raises(InvalidStateError):
            game.deserialize_state(b"{}")
        return
    with pytest.raises(InvalidStateError):
        game.deserialize_state(mutated(REFUSALS[name]))


def test_deserialization_refuses_odd_texts():
    game = make()
    text = json.dumps(base(), sort_keys=True, separators=(",", ":"))
    assert '"turn":0' in text
    for bad in ("", "[]", "nul", text[:-1], text.replace('"turn":0', '"turn":0,"turn":0'), "{" * 200):
        with pytest.raises(InvalidStateError):
            game.deserialize_state(bad)


def test_deserialization_accepts_what_it_should():
    """Positions the rules allow: a pawn on a sunk tile in the rescue window; the layout in progress with
    every card in the pile; a settled window, discard, swim and engineer phase."""
    game = make()
    state = stranded(game, MESSENGER, heli=True)
    act(state, "flood whispering_garden")
    assert view(state)["window"] == "rescue"
    assert game.deserialize_state(state.serialize()).serialize() == state.serialize()
    state = game.new_initial_state()
    act(state, "tile watchtower", "tile fools_landing")
    assert game.deserialize_state(state.serialize()).serialize() == state.serialize()
    obj = view(state)
    obj["flood_pile"] = [[23], [x for x in range(23)]]  # two layers are fine: the pile is still whole
    game.deserialize_state(json.dumps(obj))
    obj["flood_pile"] = [[x for x in range(23)]]
    obj["flood_discard"] = [23]
    with pytest.raises(InvalidStateError):  # before the layout is complete every tile's card is in the pile
        game.deserialize_state(json.dumps(obj))


# --------------------------------------------------------------------------------------------------------
# Whole games
# --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("difficulty", ["novice", "normal", "elite", "legendary"])
@pytest.mark.parametrize("layout", ["standard", "treasure_island"])
def test_random_games_end_within_the_bound(players, difficulty, layout):
    game = make(players, difficulty=difficulty, layout=layout)
    outcomes = Counter()
    for seed in range(8):
        state = oracle.play_random(game, seed)
        assert state.is_terminal() and len(state.history()) <= game.max_game_length()
        outcomes[view(state)["outcome"]] += 1
        total = state.returns()
        assert total in ([0.0] * players, [1.0] * players)
    assert sum(outcomes.values()) == 8


def test_play_random_is_deterministic():
    game = make(3)
    assert oracle.play_random(game, 5).history() == oracle.play_random(game, 5).history()


def test_clone_is_independent():
    game = make()
    state = game.new_initial_state()
    rng = Rng(2)
    for _ in range(80):
        state.random_step(rng)
    twin = state.clone()
    before = state.serialize()
    while not twin.is_terminal():
        twin.random_step(rng)
    assert state.serialize() == before


@pytest.mark.parametrize(
    "game_string", ["forbidden_island", "forbidden_island(players=4,layout=treasure_island)"]
)
def test_conformance_suite(game_string):
    game = oracle.make(game_string)
    report = run_conformance(game, seeds=range(2), perfect_information=True)
    assert report.terminal == 2
