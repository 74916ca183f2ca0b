"""Threads (issue 9): the Rust core used from several Python threads at once gives the sequential results.

``play_random``, ``State.rollout``, ``VectorGame.step`` and ``MctsAgent.step`` release the GIL while Rust
works, so their loops really run side by side. Each test computes the results sequentially first, then again
from several threads started together (each thread doing all the work in its own order), and insists on
equality. Objects that are only read (a ``Game``, a state being queried) are shared between threads; a state,
vector or agent that is stepped belongs to one thread, except in the last test, which mutates one shared state
from one thread while others read it: a reader then sees the state before or after, or pyo3's borrow error (a
RuntimeError, never a crash or a torn state), and the state ends as the sequential run leaves it. Nothing
relies on the GIL for safety. Every game of the Rust registry; nothing here names one.
"""

from __future__ import annotations

import hashlib
import random
import threading
from collections.abc import Callable

import numpy as np
import pytest

import meeplex
from meeplex import _core
from meeplex.testing import random_action

GAMES = meeplex.games()
THREADS = 6


def in_threads(work: Callable[[int], object], threads: int = THREADS) -> list[object]:
    """``work(t)`` in ``threads`` threads started together; the results in thread order. An exception in a
    thread is raised here."""
    barrier = threading.Barrier(threads)
    results: list[object] = [None] * threads
    errors: list[BaseException] = []

    def run(t: int) -> None:
        try:
            barrier.wait()
            results[t] = work(t)
        except BaseException as exc:  # noqa: BLE001 - a panic too: re-raised below in the main thread
            errors.append(exc)

    pool = [threading.Thread(target=run, args=(t,)) for t in range(threads)]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join(timeout=300)
    if errors:
        raise errors[0]
    return results


def shuffled(items: list, t: int) -> list:
    order = list(items)
    random.Random(t).shuffle(order)
    return order


@pytest.mark.parametrize("game_id", GAMES)
def test_play_random_from_threads(game_id):
    game = meeplex.make(game_id)
    seeds = list(range(40))
    expected = {seed: meeplex.play_random(game, seed).serialize() for seed in seeds}

    def work(t: int) -> dict[int, str]:
        return {seed: meeplex.play_random(game, seed).serialize() for seed in shuffled(seeds, t)}

    for got in in_threads(work):
        assert got == expected


@pytest.mark.parametrize("game_id", GAMES)
def test_rollout_from_threads(game_id):
    game = meeplex.make(game_id)
    base = game.new_initial_state()
    rng = meeplex.Rng(3)
    for _ in range(10):
        if base.is_terminal():
            break
        base.apply_action(random_action(base, rng))
    seeds = list(range(30))

    def rollout(seed: int) -> str:
        state = base.clone()
        state.rollout(meeplex.Rng(seed))
        return state.serialize()

    expected = {seed: rollout(seed) for seed in seeds}
    for got in in_threads(lambda t: {seed: rollout(seed) for seed in shuffled(seeds, t)}):
        assert got == expected


def _drive_vector(game, seed: int, steps: int) -> str:
    """Step a VectorGame with the first legal action of each game; a digest of everything it returned."""
    vg = meeplex.VectorGame(game, 8, seed=seed)
    obs, info = vg.reset(seed)
    digest = [obs.tobytes()]
    for _ in range(steps):
        actions = np.argmax(info["action_mask"], axis=1).astype(np.int64)
        obs, rewards, terminated, truncated, info = vg.step(actions)
        digest += [obs.tobytes(), rewards.tobytes(), terminated.tobytes(), info["action_mask"].tobytes()]
    return hashlib.sha256(b"".join(digest)).hexdigest()


@pytest.mark.parametrize("game_id", GAMES)
def test_vector_games_from_threads(game_id):
    game = meeplex.make(game_id)
    seeds = list(range(THREADS))
    expected = {seed: _drive_vector(game, seed, 60) for seed in seeds}
    for got in in_threads(lambda t: {seed: _drive_vector(game, seed, 60) for seed in shuffled(seeds, t)}):
        assert got == expected


def _mcts_game(game, seed: int, moves: int, information_sets: bool) -> list[int]:
    """A few moves chosen by an MctsAgent (chance by the seeded random step); the history."""
    agent = _core.MctsAgent(
        simulations=30, max_rollout_steps=30, seed=seed, information_sets=information_sets
    )
    chance = meeplex.Rng(seed)
    state = game.new_initial_state()
    made = 0
    while not state.is_terminal() and made < moves:
        if state.is_chance_node():
            state.apply_action(random_action(state, chance))
        else:
            state.apply_action(agent.step(state))
            made += 1
    return list(state.history())


@pytest.mark.parametrize("game_id", GAMES)
def test_mcts_agents_from_threads(game_id):
    game = meeplex.make(game_id)
    jobs = [(seed, iset) for seed in range(4) for iset in (False, True)]
    expected = {job: _mcts_game(game, job[0], 6, job[1]) for job in jobs}
    for got in in_threads(lambda t: {job: _mcts_game(game, job[0], 6, job[1]) for job in shuffled(jobs, t)}):
        assert got == expected


@pytest.mark.parametrize("game_id", GAMES)
def test_shared_state_read_from_threads(game_id):
    """One state (and one Game) queried from every thread at once: every answer is the sequential one."""
    game = meeplex.make(game_id)
    state = game.new_initial_state()
    rng = meeplex.Rng(11)
    for _ in range(25):
        if state.is_terminal():
            break
        state.apply_action(random_action(state, rng))

    def views() -> tuple:
        seats = range(game.num_players())
        return (
            state.serialize(),
            tuple(state.legal_actions()),
            state.legal_actions_mask().tobytes(),
            tuple(np.asarray(state.observation_tensor(s)).tobytes() for s in seats),
            tuple(state.information_state_string(s) for s in seats),
            state.clone().serialize(),
            tuple(state.resample_from_infostate(s, meeplex.Rng(s)).serialize() for s in seats),
            game.new_initial_state().serialize(),
        )

    expected = views()
    for got in in_threads(lambda t: [views() for _ in range(30)]):
        assert all(v == expected for v in got)


@pytest.mark.parametrize("game_id", GAMES)
def test_one_state_mutated_while_others_read(game_id):
    """One thread rolls a shared state out (the GIL released) while the others read it. A reader sees a
    whole state (before or after the rollout) or pyo3's borrow error; the state ends as the sequential run
    ends it."""
    game = meeplex.make(game_id)
    expected = game.new_initial_state()
    expected.rollout(meeplex.Rng(5))
    final = expected.serialize()
    state = game.new_initial_state()
    initial = state.serialize()
    borrowed = 0

    def work(t: int) -> list[str]:
        nonlocal borrowed
        if t == 0:
            state.rollout(meeplex.Rng(5))
            return []
        seen = []
        for _ in range(200):
            try:
                seen.append(state.serialize())
            except RuntimeError as exc:  # pyo3: "Already mutably borrowed"
                assert "borrow" in str(exc).lower(), exc
                borrowed += 1
        return seen

    for seen in in_threads(work):
        assert set(seen) <= {initial, final}, "a reader saw a state that is neither before nor after"
    assert state.serialize() == final
    print(f"threads: {game_id}: {borrowed} reads refused with the borrow error while the rollout ran")


@pytest.mark.parametrize("game_id", GAMES)
def test_one_vector_game_stepped_while_others_read(game_id):
    """One thread steps a big shared VectorGame (the GIL released in each step) while the others take copies
    of its games: each copy is game i as the sequential run had it before or after some step (never torn), or
    pyo3's borrow error; the vector ends as the sequential run leaves it."""
    game = meeplex.make(game_id)
    n, steps = 256, 8
    snapshots: list[set[str]] = [set() for _ in range(n)]

    def drive(vg, record: bool = False) -> None:
        obs, info = vg.reset(9)
        for step in range(steps + 1):
            if record:
                for i in range(n):
                    snapshots[i].add(vg.state(i).serialize())
            if step < steps:
                obs, _, _, _, info = vg.step(np.argmax(info["action_mask"], axis=1).astype(np.int64))

    expected = meeplex.VectorGame(game, n, seed=9)
    drive(expected, record=True)
    shared = meeplex.VectorGame(game, n, seed=9)
    counts = {"copies": 0, "borrowed": 0}

    def work(t: int) -> None:
        if t == 0:
            drive(shared)
            return
        for i in range(300):
            try:
                copy = shared.state(i % n)
            except RuntimeError as exc:  # pyo3: "Already mutably borrowed"
                assert "borrow" in str(exc).lower(), exc
                counts["borrowed"] += 1
                continue
            assert copy.serialize() in snapshots[i % n], f"game {i % n} copied in a state no step made"
            counts["copies"] += 1

    in_threads(work)
    for i in range(n):
        assert shared.state(i).serialize() == expected.state(i).serialize()
    print(f"threads: {game_id}: {counts} while one thread stepped {n} games {steps} times")


def test_reads_reentered_from_a_collection_do_not_collide():
    """A garbage collection inside a read (allocating the list or the mask) can run Python code that reads
    the same state: the reads share the state (`&self`), so neither fails with pyo3's "Already borrowed"
    (it did, rarely, in test_shared_state_read_from_threads, when a thread switched at such a point)."""
    import gc

    game = meeplex.make("flip_pick_towers")
    state = game.new_initial_state()
    rng = meeplex.Rng(11)
    for _ in range(25):
        state.apply_action(random_action(state, rng))
    expected = (list(state.legal_actions()), state.serialize(), list(state.chance_weights()))
    seen: list[object] = []

    def reenter(phase: str, info: dict) -> None:
        try:
            seen.append((list(state.legal_actions()), state.serialize(), list(state.chance_weights())))
        except RuntimeError as error:  # pyo3's borrow error
            seen.append(error)

    threshold = gc.get_threshold()
    gc.callbacks.append(reenter)
    gc.set_threshold(1)
    try:
        for _ in range(200):
            state.legal_actions()
            state.legal_actions_mask()
            state.chance_outcomes()
    finally:
        gc.set_threshold(*threshold)
        gc.callbacks.remove(reenter)
    assert seen, "no collection ran inside a read: the test proves nothing"
    assert all(view == expected for view in seen), next(v for v in seen if v != expected)
