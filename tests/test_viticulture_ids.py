"""Viticulture's action ids and notation (docs/rules/viticulture.md §7, §15.1) on both engines, against the
user-facing table ``meeplex.games.viticulture``, which is written from the contract alone."""

from __future__ import annotations

import pytest

from meeplex.errors import InvalidNotationError, InvalidStateError
from meeplex.games import viticulture as vit


@pytest.fixture
def state(engine):
    try:
        state = engine.make("viticulture").new_initial_state()
    except InvalidStateError:
        pytest.skip(f"the {engine.name} engine has no viticulture yet")
    while state.current_player() < 0:  # chance ids are outcomes: walk to the first decision (keep a mama)
        state.apply_action(state.legal_actions()[0])
    return state


# (canonical text, id from the table module), one or more per block of §7.
CANONICAL = [
    ("mama alanea", vit.MAMA),
    ("papa alan", vit.PAPA + 17),
    ("gift", vit.GIFT),
    ("lira", vit.LIRA),
    ("wake 7", vit.WAKE + 6),
    ("place vine plain r", vit.place("vine", "plain", "r")),
    ("place fill over g", vit.place("fill", "over", "g")),
    ("place plant bonus r", vit.place("plant", "bonus", "r")),
    ("place lira g", vit.place("lira", "", "g")),
    ("place yoke r", vit.place("yoke", "", "r")),
    ("pass", vit.PASS),
    ("done", vit.DONE),
    ("accept", vit.ACCEPT),
    ("decline", vit.DECLINE),
    ("option c", vit.OPTION + 2),
    ("both", vit.BOTH),
    ("draw winter", vit.DRAW + 3),
    ("card sangiovese", vit.CARD),
    ("card order17", vit.CARD + vit.kind("order17")),
    ("card guest_speaker", vit.CARD + 120),
    ("play surveyor", vit.play("surveyor")),
    ("play jack_of_all_trades", vit.play("jack_of_all_trades")),
    ("fill 17", vit.fill(17)),
    ("plant pinot 6", vit.plant("pinot", 6)),
    ("vine chardonnay 7", vit.VINE + 26),
    ("harvest 5", vit.HARVEST),
    ("sell field 7", vit.SELL_FIELD + 2),
    ("buy field 6", vit.BUY_FIELD + 1),
    ("build tasting_room", vit.BUILD + 4),
    ("build cottage", vit.BUILD + 7),
    ("grape r1", vit.GRAPE),
    ("grape w9", vit.GRAPE + 17),
    ("wine r3", vit.WINE + 2),
    ("wine s9", vit.WINE + 35),
    ("make r5", vit.make("r", 5)),
    ("make w1", vit.make("w", 1)),
    ("make b3+2", vit.make("b", 3, 2)),
    ("make s2+1+4", vit.make("s", 2, 1, 4)),
    ("make s9+8+9", vit.make("s", 9, 8, 9)),
    ("seat 5", vit.SEAT + 5),
    ("pile order", vit.PILE + 2),
    ("retrieve vine r", vit.RETRIEVE),
    ("retrieve yoke g", vit.RETRIEVE + 27),
    ("take plant", vit.TAKE + 5),
]


def test_sizes(engine, state) -> None:
    game = engine.make("viticulture")
    assert game.num_distinct_actions() == vit.NUM_ACTIONS == 946
    assert game.max_chance_outcomes() == 163
    assert list(game.observation_shape()) == [vit.OBSERVATION_SIZE]


@pytest.mark.parametrize(("text", "action"), CANONICAL)
def test_canonical_text(state, text: str, action: int) -> None:
    assert state.string_to_action(text) == action
    assert state.action_to_string(action) == text
    # The reader is relaxed about case and white space; the writer is canonical.
    assert state.string_to_action("  " + text.upper().replace(" ", "   ") + " ") == action


def test_every_id_round_trips(state) -> None:
    texts = [state.action_to_string(a) for a in range(vit.NUM_ACTIONS)]
    assert len(set(texts)) == vit.NUM_ACTIONS
    assert [state.string_to_action(t) for t in texts] == list(range(vit.NUM_ACTIONS))


@pytest.mark.parametrize(
    "bad", ["", "plant pinot 8", "make b0+4", "make r10", "fill 37", "card order0", "seat 6"]
)
def test_bad_text_is_refused(state, bad: str) -> None:
    with pytest.raises(InvalidNotationError):
        state.string_to_action(bad)
