"""The shared PRNG (DESIGN.md, "The shared PRNG"): SplitMix64 bit for bit in both engines, and the same
random games from the same seed."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import meeplex
import meeplex.oracle
from meeplex.testing import random_action
from meeplex.testing.strategies import combined_variants, games_of_both_engines

MASK = (1 << 64) - 1


def splitmix64(seed: int, n: int) -> list[int]:
    """The reference, straight from DESIGN.md's formula."""
    state, out = seed & MASK, []
    for _ in range(n):
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        out.append(z ^ (z >> 31))
    return out


def test_reference_vectors(engine):
    """DESIGN: seed 0 gives these first three outputs (the published SplitMix64 vectors)."""
    rng = engine.Rng(0)
    assert [rng.next_u64() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


def test_reference_implementation_matches_vectors():
    assert splitmix64(0, 3) == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


@given(seed=st.integers(min_value=0, max_value=MASK))
def test_next_u64_matches_reference(engine, seed):
    rng = engine.Rng(seed)
    assert [rng.next_u64() for _ in range(5)] == splitmix64(seed, 5)


@given(
    seed=st.integers(min_value=0, max_value=MASK),
    bounds=st.lists(st.integers(1, MASK), min_size=1, max_size=8),
)
def test_below_is_next_mod_n(engine, seed, bounds):
    """DESIGN: ``rng.below(n) = next_u64() % n`` (no rejection step)."""
    rng = engine.Rng(seed)
    expected = [x % n for x, n in zip(splitmix64(seed, len(bounds)), bounds, strict=True)]
    assert [rng.below(n) for n in bounds] == expected


def test_below_zero_is_refused(engine):
    """``below(0)`` has no answer; the bindings refuse it rather than return anything."""
    with pytest.raises(ValueError):
        engine.Rng(1).below(0)


def _python_random_history(make, game_string: str, rng_cls, seed: int) -> list[int]:
    """DESIGN's random step, driven from Python through the state API (not the engines' own loops)."""
    state = make(game_string).new_initial_state()
    rng = rng_cls(seed)
    while not state.is_terminal():
        state.apply_action(random_action(state, rng))
    return list(state.history())


GAME_STRINGS = [
    meeplex.game_string(g, dict(variant, max_turns=8) if "max_turns" in meeplex.make(g).params else variant)
    for g in games_of_both_engines()
    for variant in combined_variants(g)
]


@pytest.mark.parametrize("game_string", GAME_STRINGS)
@pytest.mark.parametrize("seed", [0, 1, 12345])
def test_play_random_same_history_in_both_engines(game_string, seed):
    """DESIGN: ``meeplex.play_random(game, seed)`` and ``meeplex.oracle.play_random(game, seed)`` return the
    same history, and it is the history of DESIGN's random step taken one action at a time."""
    rust = meeplex.play_random(meeplex.make(game_string), seed)
    oracle = meeplex.oracle.play_random(meeplex.oracle.make(game_string), seed)
    assert rust.is_terminal() and oracle.is_terminal()
    assert list(rust.history()) == list(oracle.history())
    assert list(rust.history()) == _python_random_history(meeplex.make, game_string, meeplex.Rng, seed)
    assert list(oracle.history()) == _python_random_history(
        meeplex.oracle.make, game_string, meeplex.oracle.Rng, seed
    )


@pytest.mark.parametrize("seed", [-1, -(2**63), 2**64, 2**64 + 7, 2**100 + 3])
def test_seed_reduced_mod_2_64(engine, seed):
    """Seeds outside 0..2**64-1 are reduced mod 2**64 (both engines document it: oracle ``Rng`` docstring,
    ``seed_from`` in the bindings), so any Python int names one of the 2**64 games."""
    rng = engine.Rng(seed)
    assert [rng.next_u64() for _ in range(3)] == splitmix64(seed & MASK, 3)


@pytest.mark.parametrize("seed", [True, False, 1.0, "1", None, b"1", [1]])
def test_non_int_seeds_agree(seed):
    """What a non-int seed does is not in the contract; the two engines must at least do the same."""
    outcomes = []
    for rng_cls in (meeplex.Rng, meeplex.oracle.Rng):
        try:
            rng = rng_cls(seed)
            outcomes.append(("accepted", rng.next_u64()))
        except (TypeError, ValueError) as exc:
            outcomes.append(("refused", type(exc).__name__))
    assert outcomes[0] == outcomes[1], f"rust {outcomes[0]} vs oracle {outcomes[1]}"
