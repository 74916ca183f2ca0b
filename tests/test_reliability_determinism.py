"""Determinism (issue 9): the same seed gives the same game everywhere.

- across processes: two interpreters with different ``PYTHONHASHSEED`` play the same seeded games (both
  engines, every registered game and variant) and must produce the same histories, serializations, returns,
  scores and observations (tensors, strings, information states) for every seat at points along each game;
- across engines: ``meeplex.play_random`` and ``meeplex.oracle.play_random`` give the same final state for the
  games both implement (seeds beyond 64 bits and negative ones included: both reduce them mod 2**64);
- across APIs: game i of a ``VectorGame`` (seed s) is the single game whose chance is drawn by ``Rng(s + i)``
  (DESIGN's random step), given the same actions, in both autoreset modes.

Nothing here names a game; variants are found from each game's parameters (see ``variants``).
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import meeplex
import meeplex.oracle
from parameter_variants import accepts, named_variants

MAKE = {"rust": meeplex.make, "oracle": meeplex.oracle.make}
GAMES = {"rust": meeplex.games(), "oracle": meeplex.oracle.games()}
SHARED = sorted(set(GAMES["rust"]) & set(GAMES["oracle"]))
_INT_PROBE = (0, 1, 2, 3, 4, 5, 6, 8, 10)


def variants(make, game_id: str) -> list[dict]:
    """Parameter dicts covering a game generically: the defaults; each bool flipped; each int parameter at the
    lowest and highest accepted of a few probes; the game's named variants. Only those the engine accepts."""
    defaults = make(game_id).params
    found: list[dict] = [{}]
    for key, default in sorted(defaults.items()):
        if isinstance(default, bool):
            values = [not default]
        elif isinstance(default, int):
            probes = {*_INT_PROBE, default - 1, default + 1, 2 * default} - {default}
            ok = sorted(v for v in probes if accepts(make, game_id, {key: v}))
            values = sorted({ok[0], ok[-1]}) if ok else []
        else:
            values = []
        found += [{key: v} for v in values if accepts(make, game_id, {key: v})]
    found += [v for v in named_variants(game_id) if accepts(make, game_id, v)]
    unique: dict[str, dict] = {}
    for params in found:
        unique.setdefault(meeplex.game_string(game_id, params), params)
    return list(unique.values())


# --- Across processes ---------------------------------------------------------------------------------------

# The probe each interpreter runs: every engine, game, variant and seed, digested per game so that a
# difference names the game and seed. It imports nothing from the tests.
_PROBE = textwrap.dedent(
    """
    import hashlib, json, sys
    import numpy as np
    import meeplex, meeplex.oracle

    def digest_game(engine, game_string, seed):
        make = meeplex.make if engine == "rust" else meeplex.oracle.make
        game = make(game_string)
        final = (meeplex.play_random if engine == "rust" else meeplex.oracle.play_random)(game, seed)
        history = list(final.history())
        h = hashlib.sha256()
        state = game.new_initial_state()
        every = max(1, len(history) // 6)
        for step, action in enumerate(history + [None]):
            if step % every == 0 or action is None:
                h.update(state.serialize().encode())
                for seat in range(game.num_players()):
                    h.update(np.asarray(state.observation_tensor(seat), dtype=np.float32).tobytes())
                    h.update(state.observation_string(seat).encode())
                    h.update(state.information_state_string(seat).encode())
                views = (list(state.legal_actions()), list(state.returns()), list(state.scores()))
                h.update(repr(views).encode())
            if action is not None:
                state.apply_action(action)
        h.update(repr(history).encode())
        h.update(final.serialize().encode())
        return h.hexdigest()

    cases = json.loads(sys.argv[1])
    print(json.dumps({"|".join(map(str, c)): digest_game(*c) for c in cases}))
    """
)


def _process_cases() -> list[tuple[str, str, int]]:
    cases = []
    for engine in ("rust", "oracle"):
        for game_id in GAMES[engine]:
            for params in variants(MAKE[engine], game_id):
                text = meeplex.game_string(game_id, params)
                cases += [(engine, text, seed) for seed in ((0, 2**64 - 1) if not params else (5,))]
    return cases


def test_same_games_in_two_processes_with_different_hash_seeds():
    cases = _process_cases()
    procs = []
    for hash_seed in ("0", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        procs.append(
            subprocess.Popen(
                [sys.executable, "-c", _PROBE, json.dumps(cases)],
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
        )
    outputs = []
    for proc in procs:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
        outputs.append(json.loads(out))
    first, second = outputs
    assert first.keys() == second.keys()
    differ = [key for key in first if first[key] != second[key]]
    print(f"determinism: {len(first)} seeded games digested in two processes, {len(differ)} differ")
    assert not differ, f"different in two processes (PYTHONHASHSEED 0 and 4242): {differ}"
    # The probe is a real probe: different seeds give different games.
    assert len(set(first.values())) > len(first) // 2


# --- Across engines ---------------------------------------------------------------------------------------

SEEDS = (0, 7, 2**64 - 1, -1, 2**70 + 11)  # the defaults; each other variant plays one seed


def _final_view(state, num_players: int) -> tuple:
    return (
        list(state.history()),
        state.serialize(),
        list(state.returns()),
        list(state.scores()),
        [np.asarray(state.observation_tensor(s)).tolist() for s in range(num_players)],
    )


@pytest.mark.parametrize("game_id", SHARED)
def test_play_random_is_the_same_game_in_both_engines(game_id):
    compared = 0
    for params in variants(meeplex.make, game_id):
        text = meeplex.game_string(game_id, params)
        rust_game, oracle_game = meeplex.make(text), meeplex.oracle.make(text)
        for seed in SEEDS if not params else (3,):
            rust = _final_view(meeplex.play_random(rust_game, seed), rust_game.num_players())
            oracle = _final_view(meeplex.oracle.play_random(oracle_game, seed), oracle_game.num_players())
            assert rust[0] == oracle[0], f"{text} seed {seed}: the histories differ"
            assert rust == oracle, f"{text} seed {seed}: same history, different final state"
            compared += 1
    print(f"determinism: {game_id}: {compared} seeded games equal in Rust and the oracle")


@pytest.mark.parametrize("game_id", SHARED)
def test_seeds_are_reduced_mod_2_64_alike(game_id):
    game = meeplex.make(game_id)
    for seed in (-1, 2**64 + 3, 2**70 + 11):
        reduced = seed % 2**64
        assert meeplex.play_random(game, seed).history() == meeplex.play_random(game, reduced).history()
        assert meeplex.Rng(seed).next_u64() == meeplex.oracle.Rng(seed).next_u64()


# --- VectorGame against single games ----------------------------------------------------------------------


def _without_history(text: str) -> object:
    """A serialized state without its history (a VectorGame's ``state(i)`` does not keep one)."""
    obj = json.loads(text)
    if isinstance(obj, dict):
        obj.pop("history", None)
    return obj


class Single:
    """One game stepped the way a VectorGame steps game i: chance drawn by DESIGN's random step with its own
    ``Rng(seed + i)``, the observation taken for the seat to move (at the end, the seat that moved last)."""

    def __init__(self, game, seed: int) -> None:
        self.game = game
        self.rng = meeplex.Rng(seed)
        self.viewer = 0
        self.needs_reset = False
        self.reset()

    def reset(self) -> None:
        self.state = self.game.new_initial_state()
        self.needs_reset = False
        self.settle()

    def settle(self) -> None:
        from meeplex.testing import random_action

        while self.state.is_chance_node():
            self.state.apply_action(random_action(self.state, self.rng))
        if self.state.current_player() >= 0:
            self.viewer = self.state.current_player()

    def step(self, action: int, mode: str) -> tuple[bool, list[float]]:
        if self.needs_reset:
            self.reset()
            return False, [0.0] * self.game.num_players()
        self.state.apply_action(action)
        self.settle()
        if not self.state.is_terminal():
            return False, [0.0] * self.game.num_players()
        returns = list(self.state.returns())
        if mode == "next_step":
            self.needs_reset = True
        else:
            self.reset()
        return True, returns


def _check_env(vg, i: int, single: Single, obs, info) -> None:
    game = single.game
    want_obs = single.state.observation_tensor(single.viewer)
    assert np.array_equal(obs[i], np.asarray(want_obs).reshape(obs[i].shape)), f"env {i}: observation"
    assert info["current_player"][i] == single.state.current_player(), f"env {i}: current player"
    mask = np.zeros(game.num_distinct_actions(), np.int8)
    if single.state.current_player() >= 0:
        mask[single.state.legal_actions()] = 1
    assert np.array_equal(info["action_mask"][i], mask), f"env {i}: action mask"
    assert _without_history(vg.state(i).serialize()) == _without_history(single.state.serialize()), f"env {i}"


def _shortest_variant(game_id: str) -> dict:
    """The variant with the shortest random game, so that games end (and reset) within the test."""
    options = variants(meeplex.make, game_id)
    return min(options, key=lambda p: len(meeplex.play_random(meeplex.make(game_id, **p), 0).history()))


@pytest.mark.parametrize("mode", ["next_step", "same_step"])
@pytest.mark.parametrize("game_id", GAMES["rust"])
def test_vector_game_env_i_is_the_single_game_with_rng_seed_plus_i(game_id, mode):
    params = _shortest_variant(game_id)
    game = meeplex.make(game_id, **params)
    n, seed, steps = 3, 2**64 - 2, 250  # seed + i wraps past 2**64 for i = 2
    vg = meeplex.VectorGame(game, n, seed=seed, autoreset_mode=mode)
    singles = [Single(game, (seed + i) % 2**64) for i in range(n)]
    obs, info = vg.reset(seed)
    for i in range(n):
        _check_env(vg, i, singles[i], obs, info)
    policy = meeplex.Rng(99)
    endings = 0
    for _ in range(steps):
        actions = []
        for single in singles:
            legal = single.state.legal_actions() if single.state.current_player() >= 0 else [0]
            actions.append(legal[policy.below(len(legal))])
        obs, rewards, terminated, truncated, info = vg.step(np.array(actions, dtype=np.int64))
        for i, single in enumerate(singles):
            ended, returns = single.step(actions[i], mode)
            assert bool(terminated[i]) == ended, f"env {i}: terminated"
            assert not truncated[i]
            assert np.allclose(rewards[i], returns), f"env {i}: rewards {rewards[i]} vs {returns}"
            endings += ended
            _check_env(vg, i, single, obs, info)
    print(f"determinism: VectorGame {game_id} {mode}: {n} envs x {steps} steps equal, {endings} games ended")
    assert endings > 0, "no game ended: the test did not reach an autoreset"


def test_probe_digests_are_stable_within_a_process():
    """The cross-process probe itself is deterministic in one process (a sanity check of the probe)."""
    namespace: dict = {}
    code = _PROBE.split("cases = json.loads")[0]
    exec(compile(code, "<probe>", "exec"), namespace)  # noqa: S102 - our own probe text
    game_id = GAMES["rust"][0]
    a = namespace["digest_game"]("rust", game_id, 5)
    b = namespace["digest_game"]("rust", game_id, 5)
    assert a == b and len(a) == len(hashlib.sha256().hexdigest())
