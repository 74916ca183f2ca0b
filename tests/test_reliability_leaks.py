"""Leaks (issue 9): a long loop over the whole binding surface keeps resident memory flat.

Per game of the Rust registry, a loop clones states, applies actions (legal ones, and refused ones, so that
the error path runs too), serializes and deserializes (valid and malformed text), asks every observation and
chance query (with and without ``out=`` arrays), resamples, steps a VectorGame and the Rust agents, plays
whole random games and makes games. Resident memory is read from ``/proc/self/statm``; after a warm-up
(allocator pools, numpy caches), its growth over the measured iterations must stay below a generous bound.
RSS moves in pages and the allocator keeps freed memory, so the bytes glibc's malloc has handed out and not
got back (``mallinfo2``, where there is one: every Rust allocation and every large numpy buffer) are checked
too, against a bound a leak of one small state per iteration exceeds. The figures are printed (``pytest -s``
or ``-rA`` shows them).
"""

from __future__ import annotations

import ctypes
import gc
import os
import sys

import numpy as np
import pytest

import meeplex
from meeplex import _core
from meeplex.errors import IllegalActionError, InvalidNotationError, InvalidStateError
from meeplex.testing import random_action

GAMES = meeplex.games()
PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
WARMUP, MEASURED = 150, 1000
RSS_BOUND_MB = 8.0  # generous: pages, allocator caches
HEAP_BOUND_BYTES = 400 * MEASURED  # a lost state is ~2 KB here; one per iteration fails this

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/statm")


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * PAGE / 2**20


class _MallInfo2(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks")
        + ("fordblks", "keepcost")
    ]


def _mallinfo2():
    try:
        fn = ctypes.CDLL(None).mallinfo2
    except (OSError, AttributeError):  # not glibc, or glibc < 2.33
        return None
    fn.restype = _MallInfo2
    return fn


MALLINFO2 = _mallinfo2()


def heap_in_use() -> int | None:
    """Bytes malloc has handed out and not got back (small blocks and mmapped ones), or None."""
    if MALLINFO2 is None:
        return None
    info = MALLINFO2()
    return info.uordblks + info.hblkhd


class Loop:
    """The loop body, walking along random games so that it meets decisions, chance nodes and ends."""

    def __init__(self, game) -> None:
        self.game = game
        self.rng = meeplex.Rng(1)
        self.state = game.new_initial_state()
        self.vector = meeplex.VectorGame(game, 4, seed=3)
        _, self.info = self.vector.reset(3)
        self.agents = [
            _core.RandomAgent(seed=5),
            _core.MctsAgent(simulations=4, max_rollout_steps=10, seed=6),
        ]
        self.obs_out = np.zeros(int(np.prod(game.observation_shape())), np.float32)
        self.bad_text = "{" + game.new_initial_state().serialize()[1:-3]

    def step(self, i: int) -> None:
        game, state = self.game, self.state
        copy = state.clone()
        text = copy.serialize()
        assert game.deserialize_state(text).serialize() == text
        seat = i % game.num_players()
        copy.observation_tensor(seat)
        copy.observation_tensor(seat, out=self.obs_out)
        copy.observation_string(seat)
        copy.information_state_string(seat)
        copy.resample_from_infostate(seat, self.rng)
        copy.legal_actions()
        mask = copy.legal_actions_mask()
        copy.legal_actions_mask(out=np.zeros_like(mask))
        copy.chance_outcomes()
        copy.chance_weights()
        copy.returns()
        copy.scores()
        copy.history()
        str(copy)
        for bad, call, error in (
            (-1, copy.apply_action, IllegalActionError),
            ("no such action text", copy.string_to_action, InvalidNotationError),
            (self.bad_text, game.deserialize_state, InvalidStateError),
            (game.num_players(), copy.observation_tensor, InvalidStateError),
        ):
            try:
                call(bad)
            except error:
                pass
        if not state.is_chance_node() and not state.is_terminal():
            for agent in self.agents:
                assert agent.step(state) in state.legal_actions()
        if state.is_terminal():
            self.state = game.new_initial_state()
        else:
            action = random_action(state, self.rng)
            state.action_to_string(action)
            state.apply_action(action)
        actions = np.argmax(self.info["action_mask"], axis=1).astype(np.int64)
        _, _, _, _, self.info = self.vector.step(actions)
        if i % 50 == 0:
            meeplex.play_random(game, i)
            meeplex.make(meeplex.game_string(game.name, game.params))
            self.vector.state(i % 4)


@pytest.mark.parametrize("game_id", GAMES)
def test_memory_stays_flat(game_id):
    loop = Loop(meeplex.make(game_id))
    for i in range(WARMUP):
        loop.step(i)
    gc.collect()
    start, heap_start = rss_mb(), heap_in_use()
    for i in range(WARMUP, WARMUP + MEASURED):
        loop.step(i)
    gc.collect()
    end, heap_end = rss_mb(), heap_in_use()
    growth = end - start
    heap = "" if heap_start is None else f"; malloc in use {heap_end - heap_start:+d} B"
    print(
        f"leaks: {game_id}: RSS {start:.1f} MB -> {end:.1f} MB ({growth:+.2f} MB) over {MEASURED} iterations "
        f"after {WARMUP} of warm-up{heap}"
    )
    assert growth < RSS_BOUND_MB, (
        f"{game_id}: resident memory grew {growth:.1f} MB over {MEASURED} iterations"
    )
    if heap_start is not None:
        assert heap_end - heap_start < HEAP_BOUND_BYTES, (
            f"{game_id}: malloc'd memory grew {heap_end - heap_start} B"
        )
