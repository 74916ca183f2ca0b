"""Carcassonne's strategic resample (docs/rules/carcassonne.md §8.3) in phase select: the seat to move holds
placeable tiles only (every unplaceable one was set aside, §4.3), so a resample for another seat must deal it
such a hand. Before the fix, a resample for a seat other than the one to move could give the mover an
unplaceable tile (both engines), and the state returned was one `deserialize_state` refuses."""

from __future__ import annotations

import pytest

import meeplex
import meeplex.oracle
from conftest import ENGINES
from meeplex.oracle.rng import random_step

# (game, seed of the random game, steps played, seat resampled for, resample seed): positions where the old
# resample dealt the mover an unplaceable tile (found by the sweep below on the unfixed core).
FOUND = [
    ("carcassonne(players=5,strategic=true)", 11, 36, 1, 0),
    ("carcassonne(players=2,princess_dragon=true,strategic=true)", 3, 31, 1, 1),
]


def _position(engine, game_string: str, seed: int, steps: int):
    game = engine.make(game_string)
    rng, state = engine.Rng(seed), game.new_initial_state()
    for _ in range(steps):
        random_step(state, rng) if engine.name == "oracle" else state.random_step(rng)
    return game, state


@pytest.mark.parametrize("case", FOUND, ids=[c[0] for c in FOUND])
def test_resample_deals_the_mover_a_placeable_hand(engine, case):
    game_string, seed, steps, seat, resample_seed = case
    game, state = _position(engine, game_string, seed, steps)
    assert '"phase":"select"' in state.serialize() and state.current_player() != seat
    other = state.resample_from_infostate(seat, engine.Rng(resample_seed))
    again = game.deserialize_state(other.serialize())  # refused before the fix
    assert again.current_player() == state.current_player()
    assert (
        other.legal_actions()
        and other.observation_tensor(seat).tolist() == state.observation_tensor(seat).tolist()
    )


@pytest.mark.parametrize("case", FOUND, ids=[c[0] for c in FOUND])
def test_both_engines_resample_alike(case):
    """The draw order (the mover first, from its placeable types, then the others) is the contract's, so
    both engines deal the same hands."""
    game_string, seed, steps, _, _ = case
    _, state = _position(ENGINES["rust"], game_string, seed, steps)
    twin = meeplex.oracle.make(game_string).deserialize_state(state.serialize())
    for p in range(twin.game.players):
        for k in range(3):
            mine = state.resample_from_infostate(p, meeplex.Rng(k)).serialize()
            assert mine == twin.resample_from_infostate(p, meeplex.oracle.Rng(k)).serialize()


def test_every_select_resample_is_a_valid_state():
    """A sweep on the Rust core: every resample at every select decision of a few five-seat games."""
    game = meeplex.make("carcassonne(players=5,strategic=true)")
    checked = 0
    for seed in (11, 12):
        rng, state = meeplex.Rng(seed), game.new_initial_state()
        while not state.is_terminal():
            if not state.is_chance_node() and '"phase":"select"' in state.serialize():
                for p in range(5):
                    game.deserialize_state(state.resample_from_infostate(p, meeplex.Rng(checked)).serialize())
                    checked += 1
            state.random_step(rng)
    assert checked > 100
