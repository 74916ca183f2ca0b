"""Viticulture's snapshot reader (docs/rules/viticulture.md §15.4) on both engines: a seat's placed workers
are exactly the ones standing on the board (reservations included), in the cart and on the Yoke. A text whose
counts say otherwise is refused by both (the Rust reader used to check only the grande worker; found by
``test_deserialize_verdicts_agree[viticulture]`` under the dev hypothesis profile)."""

from __future__ import annotations

import json

import pytest

import meeplex
from meeplex.errors import InvalidStateError


def _text_with_workers_out(engine) -> str:
    """The serialization of a seeded random 2-player game at the first unit start where seat 1 has workers
    out (as both engines play it: the same ids)."""
    game = engine.make("viticulture", max_years=2)
    state = game.new_initial_state()
    rng = meeplex.Rng(4)
    while not state.is_terminal():
        text = state.serialize()
        snap = json.loads(text)
        seat = snap["state"]["seats"][1] if snap.get("state") else None
        if seat and seat["regular_placed"] and not snap["turn"] and seat["grande_placed"]:
            return text
        state.random_step(rng)
    raise AssertionError("no unit start with seat 1's workers out")


def _with(text: str, key: str, value: object) -> str:
    snap = json.loads(text)
    snap["state"]["seats"][1][key] = value
    return json.dumps(snap)


def test_placed_workers_must_match_the_board_cart_and_yoke(engine) -> None:
    text = _text_with_workers_out(engine)
    game = engine.make("viticulture", max_years=2)
    assert game.deserialize_state(text).serialize() == text
    seat = json.loads(text)["state"]["seats"][1]
    for key, value in [
        ("regular_placed", seat["regular_placed"] - 1),
        ("regular_placed", seat["regular_placed"] + 1),
        ("grande_placed", False),
    ]:
        if isinstance(value, int) and not isinstance(value, bool) and not 0 <= value <= seat["regular"]:
            continue
        with pytest.raises(InvalidStateError, match="placed"):
            game.deserialize_state(_with(text, key, value))
