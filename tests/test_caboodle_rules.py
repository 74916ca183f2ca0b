"""Caboodle: the game-help page's rules as scenarios on both engines (docs/rules/caboodle.md).

Each test builds its position from the initial state by actions in the notation of §7 (`draw 5`, `tile 1`,
`place 0,1 r90`, `pass`). Docstrings quote the page (or the facts) for the rule each test checks. The ``make``
fixture runs every test on the Rust core and on the oracle (skipped on an engine that has no Caboodle yet).
"""

from __future__ import annotations

import json

import pytest

from meeplex.errors import GameError, IllegalActionError, InvalidStateError
from meeplex.games.caboodle import PASS, encode_tiles

GAME = "caboodle"


@pytest.fixture
def mk(make):
    try:
        make(GAME)
    except GameError:
        pytest.skip("this engine has no caboodle yet")
    return make


def play(state, *moves: str):
    for move in moves:
        state.apply_action(state.string_to_action(move))
    return state


def draws(*tiles: int) -> list[str]:
    return [f"draw {t}" for t in tiles]


def legal_texts(state) -> set[str]:
    return {state.action_to_string(a) for a in state.legal_actions()}


def two_colours() -> str:
    """Tiles 0..19 show `a` on every side, 20..39 `b`: next to an `a` start tile no `b` tile ever fits."""
    tiles = [[("a" if i < 20 else "b")] * 4 for i in range(40)]
    text = json.dumps(
        {
            "format": "meeplex caboodle tiles",
            "version": 1,
            "name": "two colours",
            "verified": False,
            "notes": [],
            "shapes": ["a", "b"],
            "links": "adjacent",
            "tiles": tiles,
        }
    )
    return encode_tiles(text)


# Removal 39, start tile 0, seat 0 gets 1 3 10 11 12 13, seat 1 gets 2 20 21 22 23 24 (2 players).
SETUP = draws(39, 0, 1, 3, 10, 11, 12, 13, 2, 20, 21, 22, 23, 24)


def test_worked_example(mk):
    """Page: "When you place a new tile, all shapes that you connect to will score. You will count the total
    number of each shape in the grouping (contiguously connected)." The placeholder facts' worked example
    (§6.2): 4, then 2, then 4 points."""
    state = play(mk(GAME).new_initial_state(), *SETUP, "tile 1", "place 0,1 r90")
    assert state.scores() == [4.0, 0.0]
    play(state, "draw 30", "tile 2", "place -1,1 r180")
    assert state.scores() == [4.0, 2.0]
    play(state, "draw 31", "tile 3", "place -2,1 r0")
    assert state.scores() == [8.0, 2.0]


def test_all_touching_sides_must_match(mk):
    """Page: "You must match up the shapes on all sides touching other tiles." and "The tiles need to be
    placed with the side touching a full side of another tile.\""""
    state = play(mk(GAME).new_initial_state(), *SETUP, "tile 1")
    legal = legal_texts(state)
    assert "place 0,1 r90" in legal  # circle onto the start's N circle
    assert "place 0,1 r0" not in legal  # square onto circle
    assert "place 1,1 r0" not in legal  # only a corner touches
    with pytest.raises(IllegalActionError):
        state.apply_action(state.string_to_action("place 5,5 r0"))


def test_selecting_needs_a_placement_and_passing_is_forced(mk):
    """Page: "If you are unable to place a tile you will be forced to pass." (2024: a pass costs 4)."""
    game = mk(GAME, rules=2024, tiles=two_colours())
    state = play(game.new_initial_state(), *draws(39, 0, 1, 2, 3, 4, 5, 6, 20, 21, 22, 23, 24, 25))
    assert legal_texts(state) == {f"tile {t}" for t in range(1, 7)}
    play(state, "tile 1", "place 1,0 r0", "draw 26")
    assert state.legal_actions() == [PASS]
    play(state, "pass")
    assert state.scores()[1] == -4.0
    assert state.current_player() == 0


def test_2023_end_penalty_and_nobody_can_place(mk):
    """Page: "any tile still in a players hand is -4 per tile" and "The game also ends if none of the players
    can place a tile." Under 2023 nothing is drawn and passing is free."""
    state = play(
        mk(GAME, rules=2023, tiles=two_colours()).new_initial_state(),
        *draws(39, 0, 1, 2, 3, 4, 5, 6, 20, 21, 22, 23, 24, 25),
    )
    for x in range(1, 7):
        play(state, f"tile {x}", f"place {x},0 r0")
        if x < 6:
            play(state, "pass")
    assert state.is_terminal()
    assert state.scores()[1] == -24.0
    assert state.returns() == [1.0, 0.0]


def test_the_round_is_completed(mk):
    """Page: "When a person plays their last tile, play continues until that round has completed and everyone
    has had an equal number of turns." Seat 0 empties its hand first; seat 1 still plays, then it ends."""
    state = play(
        mk(GAME, rules=2023, tiles=two_colours()).new_initial_state(),
        *draws(39, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12),
    )
    for x in range(1, 7):
        play(state, f"tile {x}", f"place {x},0 r0")
        assert not state.is_terminal()
        play(state, f"tile {x + 6}", f"place {-x},0 r0")
    assert state.is_terminal()
    assert json.loads(state.serialize())["final"] is True


def test_hands_are_hidden(mk):
    """Hands are hidden; removed tiles are seen by nobody; the start tile is public (§8.2)."""
    state = play(mk(GAME).new_initial_state(), *SETUP)
    one = state.information_state_string(1).split("history=")[1].split(",")
    zero = state.information_state_string(0).split("history=")[1].split(",")
    assert one[:2] == ["?", "0"] and one[2:8] == ["?"] * 6 and one[8:] == ["2", "20", "21", "22", "23", "24"]
    assert zero[:2] == ["?", "0"] and zero[8:] == ["?"] * 6


def test_notation_is_relaxed(mk):
    state = play(mk(GAME).new_initial_state(), *SETUP, "tile 1")
    assert state.string_to_action("  PLACE  0 , +1   R90 ") == state.string_to_action("place 0,1 r90")
    assert state.action_to_string(state.string_to_action("place 0,1 r90")) == "place 0,1 r90"


def test_a_tampered_state_is_refused(mk):
    game = mk(GAME)
    state = play(game.new_initial_state(), *SETUP, "tile 1", "place 0,1 r90")
    text = state.serialize()
    assert game.deserialize_state(text).serialize() == text
    with pytest.raises(InvalidStateError):
        game.deserialize_state(text.replace('"scores":[4,0]', '"scores":[5,0]'))
