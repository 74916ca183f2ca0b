"""Relaxed readers, canonical writers: every game's ``string_to_action`` on both engines
(docs/architecture.md, "Input policy"). A canonical text read back with its case changed and its spaces
replaced by any Unicode white space (Rust's ``char::is_whitespace``) gives the same action; a separator that
is not white space, such as U+001C (which Python's ``str.split`` would take as one), is refused by both."""

from __future__ import annotations

import pytest

import meeplex
import meeplex.oracle
from meeplex.errors import InvalidNotationError

GAMES = sorted(set(meeplex.games()) & set(meeplex.oracle.games()))
WHITE = ["\t", "\n", "\r\n", "  ", "\u00a0", "\u2003", "\u3000", " \t\x0b\x0c "]
NOT_WHITE = ["\x1c", "\x1f", "\u200b", "_"]


def states(engine, game_id, count=12):
    """Positions along random game 0 (chance nodes included), the same on both engines."""
    history = meeplex.play_random(meeplex.make(game_id), 0).history()
    state = engine.make(game_id).new_initial_state()
    step = max(1, len(history) // count)
    for i, action in enumerate(history):
        if i % step == 0:
            yield state.clone()
        state.apply_action(action)


def read(state, text):
    try:
        return state.string_to_action(text)
    except InvalidNotationError:
        return "refused"


@pytest.mark.parametrize("game_id", GAMES)
def test_white_space_and_case_fold_alike_on_both_engines(game_id):
    pairs = zip(states(meeplex, game_id), states(meeplex.oracle, game_id), strict=True)
    checked = 0
    for rust, oracle in pairs:
        for action in rust.legal_actions()[:6]:
            canonical = rust.action_to_string(action)
            assert oracle.action_to_string(action) == canonical
            for sep in WHITE:
                text = sep + canonical.upper().replace(" ", sep) + sep
                assert read(rust, text) == action, f"rust {text!r}"
                assert read(oracle, text) == action, f"oracle {text!r}"
                checked += 1
            if " " in canonical:
                for sep in NOT_WHITE:
                    text = canonical.replace(" ", sep)
                    assert read(rust, text) == read(oracle, text), f"{text!r}"
                    assert read(rust, text) != action, f"{text!r} read as {canonical!r}"
    assert checked > 0
