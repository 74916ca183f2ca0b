"""``state.random_step(rng)`` (DESIGN.md, "A random step") on both engines, in lockstep over whole games.

The Rust state draws at a chance node from the game's own counts (``State::sample_chance``) and the oracle
from its ``chance_weights()``; both must take the same action and leave their generators in the same state at
every step, for every registered game and its seeded parameter sets, and both must end in the same state.
"""

from __future__ import annotations

import pytest

import meeplex
import meeplex.oracle
from meeplex.agents import random_legal_action, resolve_chance
from meeplex.testing import effort
from meeplex.testing.differential import compare_states
from meeplex.testing.strategies import games_of_both_engines, seeded_variants

CASES = [
    (meeplex.game_string(g, variant), seed)
    for g in games_of_both_engines()
    for variant in seeded_variants(g, effort())
    for seed in range(1 + effort() // 2)
]


@pytest.mark.parametrize(("game_string", "seed"), CASES)
def test_random_step_agrees_in_lockstep(game_string, seed):
    game, ref_game = meeplex.make(game_string), meeplex.oracle.make(game_string)
    rust, ref = game.new_initial_state(), ref_game.new_initial_state()
    rng, ref_rng = meeplex.Rng(seed), meeplex.oracle.Rng(seed)
    for step in range(game.max_game_length() + 1):
        if rust.is_terminal():
            break
        action = rust.random_step(rng)
        assert ref.random_step(ref_rng) == action, f"step {step}: history {rust.history()}"
        assert rng.state == ref_rng.state, f"step {step}: the generators parted"
        assert compare_states(rust, ref, game.num_players()) is None, f"step {step}: {rust.history()}"
    assert rust.is_terminal() and ref.is_terminal()
    assert rust.history() == meeplex.play_random(game, seed).history()
    # At the end both refuse, and neither draws.
    before = rng.state
    for state, generator in ((rust, rng), (ref, ref_rng)):
        with pytest.raises(meeplex.IllegalActionError):
            state.random_step(generator)
        assert generator.state == before


@pytest.mark.parametrize("name", meeplex.games())
def test_random_step_is_resolve_chance_and_random_legal_action(name):
    """The engine's draw is the Python one: ``resolve_chance`` over ``chance_weights()`` at a chance node,
    ``random_legal_action`` at a decision, on clones drawing from clones of the generator."""
    game = meeplex.make(name)
    for seed in range(3):
        rng = meeplex.Rng(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            twin, twin_rng = state.clone(), _copy(rng)
            pick = resolve_chance if twin.is_chance_node() else random_legal_action
            want = pick(twin, twin_rng)
            assert state.random_step(rng) == want
            assert rng.state == twin_rng.state


def _copy(rng: meeplex.Rng) -> meeplex.Rng:
    """A ``meeplex.Rng`` in the same state (SplitMix64's state is its seed)."""
    return meeplex.Rng(rng.state)


def test_random_step_takes_only_an_rng():
    state = meeplex.make("flipology").new_initial_state()
    with pytest.raises(TypeError):
        state.random_step(meeplex.oracle.Rng(1))  # type: ignore[arg-type]
    ref = meeplex.oracle.make("flipology").new_initial_state()
    # The oracle takes either engine's generator.
    assert ref.random_step(meeplex.Rng(1)) == state.random_step(meeplex.Rng(1))
