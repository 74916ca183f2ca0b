"""The Gymnasium adapter, checked by Gymnasium's own ``check_env`` on every game and variant (from the
registry), plus whole episodes from every seat, the shared PRNG, illegal actions and the missing-extra
error."""

from __future__ import annotations

import importlib
import sys

import numpy as np
import pytest

import meeplex

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from meeplex.agents import random_legal_action, resolve_chance  # noqa: E402
from meeplex.envs import MissingExtraError, game_variants  # noqa: E402
from meeplex.envs.gymnasium import SeatEnv, SoloEnv, env, register  # noqa: E402

SHORT_GAME = 5  # turns per seat where a game has max_turns: whole games stay fast enough for CI
CASES = game_variants(max_turns=SHORT_GAME)
SOLO = [game for game in CASES if meeplex.make(game).num_players() == 1]
MULTI = [game for game in CASES if meeplex.make(game).num_players() > 1]

pytestmark = [
    pytest.mark.filterwarnings("error"),
    # The core declares no bounds for observation tensors, so the box is honestly unbounded.
    pytest.mark.filterwarnings("ignore:.*A Box observation space m(in|ax)imum value is"),
    # check_env on an env built without gymnasium.make (the registered ids are checked on their own).
    pytest.mark.filterwarnings("ignore:.*Not able to test alternative render modes"),
]


def _masked_action(env: SeatEnv, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(env.action_masks())))


@pytest.mark.parametrize("game", CASES)
def test_check_env(game: str) -> None:
    check_env(env(game, render_mode="ansi"))


@pytest.mark.parametrize("game_id", meeplex.games())
def test_registered_ids_pass_check_env(game_id: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Through ``gymnasium.make``, so that check_env also renders in every declared mode."""
    assert f"meeplex/{game_id}-v0" in register()
    defaults = meeplex.make(game_id).params
    params = {"max_turns": min(defaults["max_turns"], SHORT_GAME)} if "max_turns" in defaults else {}
    made = gymnasium.make(f"meeplex/{game_id}-v0", **params)
    check_env(made.unwrapped)
    made.close()
    capsys.readouterr()  # the "human" render mode printed the game


@pytest.mark.parametrize("game", MULTI)
def test_whole_episodes_from_every_seat(game: str) -> None:
    picker = np.random.default_rng(0)
    for seat in range(meeplex.make(game).num_players()):
        e = SeatEnv(game, seat=seat, opponents="random")
        obs, info = e.reset(seed=seat)
        total, terminated = 0.0, False
        while not terminated:
            assert obs.dtype == np.float32 and obs.shape == e.observation_space.shape
            assert np.array_equal(info["action_mask"], e.action_masks()) and info["action_mask"].any()
            assert e.game_state is not None and e.game_state.current_player() == seat
            obs, reward, terminated, truncated, info = e.step(_masked_action(e, picker))
            assert truncated is False and type(terminated) is bool
            total += reward
        assert total == info["returns"][seat]
        assert not info["action_mask"].any()


@pytest.mark.parametrize("game", SOLO)
def test_solo_replays_play_random(game: str) -> None:
    """With decisions drawn from the env's own generator the episode is ``play_random``'s game: chance is
    resolved with DESIGN.md's random step, from the generator ``reset(seed)`` seeded."""
    e = SoloEnv(game)
    e.reset(seed=9)
    assert e.rng is not None and e.game_state is not None
    terminated = False
    while not terminated:
        _, _, terminated, _, _ = e.step(random_legal_action(e.game_state, e.rng))
    assert e.game_state.history() == meeplex.play_random(e.game, 9).history()


@pytest.mark.parametrize("game", MULTI[:1] + SOLO[:1])
def test_same_seed_same_episode(game: str) -> None:
    def episode(seed: int) -> list[int]:
        e = env(game)
        e.reset(seed=seed)
        picker = np.random.default_rng(1)
        terminated = False
        while not terminated:
            _, _, terminated, _, _ = e.step(_masked_action(e, picker))
        assert e.game_state is not None
        return e.game_state.history()

    assert episode(4) == episode(4)
    assert episode(4) != episode(5)


@pytest.mark.parametrize("game", MULTI[:1] + SOLO[:1])
def test_illegal_action(game: str) -> None:
    e = env(game)
    e.reset(seed=2)
    assert e.game_state is not None
    before = e.game_state.serialize()
    illegal = int(np.flatnonzero(e.action_masks() == 0)[0])
    _, reward, terminated, truncated, info = e.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    assert e.game_state.serialize() == before and not e.action_masks().any()
    with pytest.raises(RuntimeError, match="reset"):
        e.step(illegal)
    strict = env(game, illegal_reward=None)
    strict.reset(seed=2)
    with pytest.raises(meeplex.IllegalActionError):
        strict.step(illegal)


def test_bad_arguments() -> None:
    if MULTI:
        game = MULTI[0]
        seats = meeplex.make(game).num_players()
        with pytest.raises(ValueError, match="opponents"):
            SeatEnv(game, opponents=["random"] * seats)
        with pytest.raises(ValueError, match="unknown agent"):
            SeatEnv(game, opponents="no_such_agent")
        with pytest.raises(ValueError, match="seat"):
            SeatEnv(game, seat=seats)
        with pytest.raises(ValueError, match="SoloEnv needs a one-seat variant"):
            SoloEnv(game)
    with pytest.raises(ValueError, match="render_mode"):
        env(CASES[0], render_mode="rgb_array")


def test_render(capsys: pytest.CaptureFixture[str]) -> None:
    e = env(CASES[0], render_mode="ansi")
    e.reset(seed=1)
    assert e.render() == str(e.game_state)
    human = env(CASES[0], render_mode="human")
    human.reset(seed=1)  # human mode renders on reset and on every step
    assert capsys.readouterr().out == str(human.game_state) + "\n"


# --- VectorGame as a gymnasium.vector.VectorEnv ------------------------------------------------------------

needs_vector = pytest.mark.skipif(not hasattr(meeplex, "VectorGame"), reason="meeplex.VectorGame not built")


def _one_per_seat_count(games: list[str]) -> list[str]:
    """The first variant of each game with each seat count."""
    chosen: dict[tuple[str, int], str] = {}
    for game in games:
        core = meeplex.make(game)
        chosen.setdefault((core.name, core.num_players()), game)
    return list(chosen.values())


VECTOR_CASES = _one_per_seat_count(game_variants(max_turns=2))


def _masked_actions(masks: np.ndarray, picker: np.random.Generator) -> np.ndarray:
    """A legal action for every game (0 where a game has none: it is being reset and ignores it)."""
    return np.array([picker.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks], np.int64)


@needs_vector
@pytest.mark.parametrize("game", VECTOR_CASES)
def test_vector_env_matches_single_games(game: str) -> None:
    """Game i of ``reset(seed=s)`` is the single game with ``Rng(s + i)``: the same observations, and at its
    end the reward of the seat that moved last is that seat's return."""
    from meeplex.envs.gymnasium import VectorGameEnv

    n, seed = 4, 30
    vec = VectorGameEnv(game, n)
    obs, info = vec.reset(seed=seed)
    assert obs in vec.observation_space and obs.dtype == np.float32
    singles, rngs = [], [meeplex.Rng(seed + i) for i in range(n)]
    for i in range(n):
        state = vec.game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(resolve_chance(state, rngs[i]))
        singles.append(state)
    live, picker = set(range(n)), np.random.default_rng(0)
    while live:
        for i in live:
            seat = singles[i].current_player()
            assert info["current_player"][i] == seat
            assert np.array_equal(obs[i], singles[i].observation_tensor(seat))
            assert np.array_equal(info["action_mask"][i], singles[i].legal_actions_mask())
        actions = _masked_actions(info["action_mask"], picker)
        obs, rewards, terminations, truncations, info = vec.step(actions)
        assert rewards.dtype == np.float32 and rewards.shape == (n,) and not truncations.any()
        for i in sorted(live):
            mover = singles[i].current_player()
            singles[i].apply_action(int(actions[i]))
            while singles[i].is_chance_node():
                singles[i].apply_action(resolve_chance(singles[i], rngs[i]))
            assert bool(terminations[i]) == singles[i].is_terminal()
            if singles[i].is_terminal():
                assert rewards[i] == np.float32(singles[i].returns()[mover])
                assert np.array_equal(info["returns"][i], np.float32(singles[i].returns()))
                live.discard(i)


@needs_vector
def test_vector_env_reset_seeds_and_autoreset() -> None:
    from meeplex.envs.gymnasium import VectorGameEnv

    game = VECTOR_CASES[0]
    a, b = VectorGameEnv(game, 3), VectorGameEnv(game, 3)
    assert np.array_equal(a.reset(seed=5)[0], b.reset(seed=[5, 6, 7])[0])
    first, second = a.reset()[0], a.reset()[0]
    b.reset()
    assert np.array_equal(b.reset()[0], second)  # an unseeded reset continues the seeded sequence
    assert not np.array_equal(first, second)  # ... with new games (the core alone would replay its seed)
    with pytest.raises(ValueError, match="seed"):
        a.reset(seed=[5, 9, 2])
    with pytest.raises(ValueError, match="autoreset_mode"):
        VectorGameEnv(game, 2, autoreset_mode="sometimes")
    # next_step: the step after a game ends resets it, with reward 0 and no termination.
    obs, info = a.reset(seed=1)
    picker = np.random.default_rng(2)
    ended = np.zeros(3, bool)
    while not ended.any():
        obs, rewards, ended, _, info = a.step(_masked_actions(a.action_masks(), picker))
    obs, rewards, terminations, _, info = a.step(_masked_actions(a.action_masks(), picker))
    assert not terminations[ended].any() and not rewards[ended].any()


@needs_vector
def test_vector_env_without_copies_plays_the_same_games() -> None:
    """copy=False (Gymnasium's SyncVectorEnv convention) hands out the core's own arrays, the same objects
    every step and overwritten in place; the games and every figure are those of copy=True."""
    from meeplex.envs.gymnasium import VectorGameEnv

    game = VECTOR_CASES[0]
    fresh, owned = VectorGameEnv(game, 4), VectorGameEnv(game, 4, copy=False)
    obs_a, _ = fresh.reset(seed=3)
    obs_b, _ = owned.reset(seed=3)
    assert np.array_equal(obs_a, obs_b)
    picker = np.random.default_rng(4)
    for _ in range(60):
        actions = _masked_actions(fresh.action_masks(), picker)
        assert np.array_equal(fresh.action_masks(), owned.action_masks())
        a, b = fresh.step(actions), owned.step(actions)
        for x, y in zip(a[:4], b[:4], strict=True):
            assert np.array_equal(x, y)
        assert np.array_equal(a[4]["returns"], b[4]["returns"])
        assert b[0] is obs_b  # the same array, overwritten
        assert a[0] is not obs_a
        obs_a = a[0]


@needs_vector
@pytest.mark.parametrize("copy", [True, False])
def test_vector_env_uint8_observations(copy: bool) -> None:
    """observation_dtype="uint8" goes to the core: a Box(0, 255) uint8 space, the float32 env's values; a game
    that does not allow it is refused when the env is made."""
    from gymnasium import spaces

    from meeplex.envs.gymnasium import VectorGameEnv

    wide = VectorGameEnv("flip_city_wilderness", 4)
    small = VectorGameEnv("flip_city_wilderness", 4, copy=copy, observation_dtype="uint8")
    space = small.single_observation_space
    assert isinstance(space, spaces.Box) and space.dtype == np.uint8
    assert space.low.min() == 0 and space.high.max() == 255
    assert space.shape == wide.single_observation_space.shape
    assert small.observation_space.dtype == np.uint8
    obs_w, _ = wide.reset(seed=8)
    obs_s, _ = small.reset(seed=8)
    picker = np.random.default_rng(5)
    for _ in range(80):
        assert obs_s in small.observation_space
        assert np.array_equal(obs_s.astype(np.float32), obs_w)
        actions = _masked_actions(wide.action_masks(), picker)
        assert np.array_equal(wide.action_masks(), small.action_masks())
        obs_w, rewards_w, *_ = wide.step(actions)
        obs_s, rewards_s, *_ = small.step(actions)
        assert np.array_equal(rewards_w, rewards_s)
    with pytest.raises(meeplex.InvalidStateError):
        VectorGameEnv("flipology", 2, observation_dtype=np.uint8)


def test_missing_extra_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "gymnasium", None)  # makes `import gymnasium` fail
    monkeypatch.delitem(sys.modules, "meeplex.envs.gymnasium")
    with pytest.raises(MissingExtraError, match=r"pip install 'meeplex\[gymnasium\]'"):
        importlib.import_module("meeplex.envs.gymnasium")
