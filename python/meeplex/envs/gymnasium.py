"""Gymnasium environments: one seat of a meeplex game, the other seats played by meeplex agents.

>>> from meeplex.envs.gymnasium import env
>>> e = env("flip_city", players=2, max_turns=5, opponents="random")
>>> obs, info = e.reset(seed=7)
>>> obs.dtype, info["action_mask"].dtype
(dtype('float32'), dtype('int8'))

- ``SoloEnv`` is a solo variant (one seat) as a plain single-agent environment; ``SeatEnv`` plays ``seat``
  of any game while agents from ``meeplex.agents.make_agent`` (``"random"``, or any registered agent spec)
  move for the others; ``env()`` picks the one that fits the game. ``VectorGameEnv`` offers
  ``meeplex.VectorGame`` (many games stepped in Rust, self-play) as a ``gymnasium.vector.VectorEnv``.
- The observation is ``observation_tensor(seat)`` (float32, unbounded box: the core declares no bounds). The
  action space is ``Discrete(num_distinct_actions())``; the legal ones are ``info["action_mask"]`` (int8) and
  ``action_masks()`` (the name sb3-contrib's MaskablePPO calls).
- Chance and the opponents' moves happen inside ``reset`` and ``step``. Chance uses the shared PRNG
  (``meeplex.Rng``) with DESIGN.md's random step; ``reset(seed)`` seeds it, and each opponent is created at
  reset with a seed drawn from it, so a seed is the same game everywhere. ``reset()`` continues the generator.
- The reward is the change in the seat's ``returns()`` (its share of the win, at the end). Every end of the
  game, the turn limit included, is ``terminated``; the game's rules define it and its returns.
- An illegal action ends the episode with ``illegal_reward`` (default -1, as PettingZoo's classic games), with
  ``info["illegal_action"] = True`` and the game left as it was; ``illegal_reward=None`` raises
  ``meeplex.IllegalActionError`` instead.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

import meeplex

from ..agents import Agent, make_agent
from . import game_label
from ._extras import optional_imports

with optional_imports("gymnasium"):
    import gymnasium
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space

ObsType = npt.NDArray[np.float32]
VectorObsType = npt.NDArray[np.float32 | np.uint8]

_RESET_ATTEMPTS = (
    1000  # games that end before the seat moves are redrawn; this bounds a game that always does
)


class SeatEnv(gymnasium.Env[ObsType, np.int64]):
    """Seat ``seat`` of ``meeplex.make(game_id, **params)`` against ``opponents``.

    ``opponents`` is one agent spec for every other seat, or a sequence of specs, one per other seat in seat
    order. ``game_state`` is the live ``meeplex.State``; ``rng`` the shared PRNG that resolves chance.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 4}

    def __init__(
        self,
        game_id: str,
        *,
        seat: int = 0,
        opponents: str | Sequence[str] = "random",
        illegal_reward: float | None = -1.0,
        render_mode: str | None = None,
        **params: Any,
    ) -> None:
        self.game = meeplex.make(game_id, **params)
        seats = self.game.num_players()
        if not 0 <= seat < seats:
            raise ValueError(f"seat {seat} is not a seat of {game_label(self.game)} (0..{seats - 1})")
        others = [s for s in range(seats) if s != seat]
        specs = [opponents] * len(others) if isinstance(opponents, str) else list(opponents)
        if len(specs) != len(others):
            raise ValueError(f"{len(specs)} opponents given for the {len(others)} other seats")
        for spec in specs:
            make_agent(spec, 0)  # a bad spec fails now, not at the first reset
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} is not one of {self.metadata['render_modes']}")
        self.seat = seat
        self.opponent_specs = dict(zip(others, specs, strict=True))
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        self.observation_space = spaces.Box(-np.inf, np.inf, self.game.observation_shape(), np.float32)
        self.action_space = spaces.Discrete(self.game.num_distinct_actions())
        self.game_state: meeplex.State | None = None
        self.rng: meeplex.Rng | None = None
        self._opponents: dict[int, Agent] = {}
        self._done = True

    def __str__(self) -> str:
        return f"<{type(self).__name__} {game_label(self.game)} seat={self.seat}>"

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        super().reset(seed=seed)  # seeds np_random, which only the first unseeded reset draws from
        if seed is not None:
            self.rng = meeplex.Rng(seed)
        elif self.rng is None:
            self.rng = meeplex.Rng(int(self.np_random.integers(0, 2**64, dtype=np.uint64)))
        for _ in range(_RESET_ATTEMPTS):
            # Gymnasium has no way to say "over before your first move"; such a game is redrawn.
            self._opponents = {
                s: make_agent(spec, self.rng.next_u64()) for s, spec in self.opponent_specs.items()
            }
            self.game_state = self.game.new_initial_state()
            self._advance()
            if not self.game_state.is_terminal():
                break
        else:
            raise RuntimeError(
                f"{game_label(self.game)} ended before seat {self.seat} moved, {_RESET_ATTEMPTS} times"
            )
        self._done = False
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[ObsType, float, bool, bool, dict[str, Any]]:
        if self._done:
            raise RuntimeError("the episode is over: call reset()")
        state = self._state()
        before = float(state.returns()[self.seat])
        try:
            state.apply_action(operator.index(action))
        except meeplex.IllegalActionError:
            if self.illegal_reward is None:
                raise
            self._done = True
            info = {
                "action_mask": np.zeros(self.game.num_distinct_actions(), np.int8),
                "illegal_action": True,
            }
            return self._observation(), float(self.illegal_reward), True, False, info
        self._advance()
        terminated = state.is_terminal()
        self._done = terminated
        if self.render_mode == "human":
            self.render()
        reward = float(state.returns()[self.seat]) - before
        return self._observation(), reward, terminated, False, self._info()

    def action_masks(self) -> npt.NDArray[np.int8]:
        """The legal actions now, as ``info["action_mask"]`` (all zeros once the episode is over)."""
        if self._done:
            return np.zeros(self.game.num_distinct_actions(), np.int8)
        return self._state().legal_actions_mask()

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode: pass render_mode='ansi' or 'human'")
            return None
        text = str(self._state())
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    # -----------------------------------------------------------------------------------------------------

    def _state(self) -> meeplex.State:
        if self.game_state is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game_state

    def _advance(self) -> None:
        """Chance and the opponents move until it is the seat's turn or the game is over."""
        state, rng = self._state(), self.rng
        assert rng is not None  # reset() seeds it first
        while not state.is_terminal() and state.current_player() != self.seat:
            if state.is_chance_node():
                state.random_step(rng)  # DESIGN's weighted draw, in the engine
            else:
                state.apply_action(self._opponents[state.current_player()].step(state))

    def _observation(self) -> ObsType:
        return self._state().observation_tensor(self.seat)

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self.action_masks()}
        state = self._state()
        if state.is_terminal():
            info["returns"] = [float(r) for r in state.returns()]
        return info


class SoloEnv(SeatEnv):
    """A one-seat (solo) variant as a single-agent environment: ``SeatEnv`` with no opponents."""

    def __init__(
        self,
        game_id: str,
        *,
        illegal_reward: float | None = -1.0,
        render_mode: str | None = None,
        **params: Any,
    ) -> None:
        seats = meeplex.make(game_id, **params).num_players()
        if seats != 1:
            raise ValueError(f"SoloEnv needs a one-seat variant, not {seats} seats: use SeatEnv for those")
        super().__init__(
            game_id, opponents=(), illegal_reward=illegal_reward, render_mode=render_mode, **params
        )


_AUTORESET = {
    AutoresetMode.NEXT_STEP: "next_step",
    AutoresetMode.SAME_STEP: "same_step",
    AutoresetMode.DISABLED: "disabled",
}


def _autoreset_mode(mode: AutoresetMode | str) -> AutoresetMode:
    if isinstance(mode, AutoresetMode):
        return mode
    for member, name in _AUTORESET.items():
        if name == mode.lower():
            return member
    raise ValueError(f"autoreset_mode {mode!r} is not one of {sorted(_AUTORESET.values())}")


class VectorGameEnv(VectorEnv[VectorObsType, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``meeplex.VectorGame`` as a Gymnasium vector environment: ``num_envs`` games of one kind stepped
    together in Rust, chance resolved inside. It is self-play: in each game the caller chooses for whichever
    seat is to move (``info["current_player"]``), with ``info["action_mask"]`` (also ``action_masks()``).

    The reward of game i is the return of the seat that has just moved in it (the core gives every seat's
    return of the games that ended on a step; all of them are in ``info["returns"]``, shape (n, players), with
    ``info["_returns"]`` marking those games). Game i of ``reset(seed=s)`` plays with ``Rng(s + i)``;
    ``reset()`` draws a fresh seed from ``np_random``, so it continues a seeded sequence deterministically.
    ``autoreset_mode`` goes to the core; with ``same_step`` the core keeps no final observation of a game.
    ``copy=False`` (as in Gymnasium's ``SyncVectorEnv``) returns the core's own observation, termination,
    truncation and ``info["returns"]`` arrays, overwritten in place by the next ``step`` or ``reset``.
    ``observation_dtype="uint8"`` (or ``np.uint8``) goes to the core, for a game that allows it: the same
    values as uint8, and the observation space is ``Box(0, 255, shape, uint8)``; a game that does not allow
    it raises ``meeplex.InvalidStateError``. ``threads`` goes to the core: the games are stepped on that many
    threads, with the same outputs whatever their number.
    """

    def __init__(
        self,
        game_id: str,
        num_envs: int,
        *,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        copy: bool = True,
        observation_dtype: npt.DTypeLike | None = None,
        threads: int = 1,
        **params: Any,
    ) -> None:
        mode = _autoreset_mode(autoreset_mode)
        self.game = meeplex.make(game_id, **params)
        self.vector = meeplex.VectorGame(
            self.game,
            num_envs,
            autoreset_mode=_AUTORESET[mode],
            copy=copy,
            observation_dtype=observation_dtype,
            threads=threads,
        )
        self.num_envs = num_envs
        self.metadata = {"autoreset_mode": mode}
        shape = self.game.observation_shape()
        self.single_observation_space: spaces.Box = (
            spaces.Box(0, 255, shape, np.uint8)
            if self.vector.observation_dtype == np.uint8
            else spaces.Box(-np.inf, np.inf, shape, np.float32)
        )
        self.single_action_space = spaces.Discrete(self.game.num_distinct_actions())
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._movers = np.full(num_envs, meeplex.TERMINAL, np.int32)  # the seat to move in each game
        self._mask = np.zeros((num_envs, self.game.num_distinct_actions()), np.int8)

    def reset(
        self, *, seed: int | Sequence[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[VectorObsType, dict[str, Any]]:
        first = self._first_seed(seed)
        super().reset(seed=first)
        if first is None:
            first = int(self.np_random.integers(0, 2**62))  # room for first + i in the core's u64 seeds
        obs, info = self.vector.reset(first)
        self._remember(info)
        return obs, info

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        VectorObsType, npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]
    ]:
        movers = self._movers
        obs, returns, terminations, truncations, info = self.vector.step(np.asarray(actions))
        rewards = np.zeros(self.num_envs, np.float32)
        moved = np.flatnonzero(movers >= 0)
        rewards[moved] = returns[moved, movers[moved]]
        info["returns"], info["_returns"] = returns, terminations.copy()
        self._remember(info)
        return obs, rewards, terminations, truncations, info

    def action_masks(self) -> npt.NDArray[np.int8]:
        """The legal actions of the seat to move in each game, shape (num_envs, num_distinct_actions)."""
        # Named: numpy's stubs type ndarray.copy() as Any when checking for Python 3.10.
        mask: npt.NDArray[np.int8] = self._mask.copy()
        return mask

    def _first_seed(self, seed: int | Sequence[int | None] | None) -> int | None:
        """Game i is seeded ``first + i`` by the core, so a list of seeds must be exactly that."""
        if seed is None or isinstance(seed, int):
            return seed
        seeds = list(seed)
        first = seeds[0] if seeds else None
        if first is None or seeds != [first + i for i in range(self.num_envs)]:
            raise ValueError(f"VectorGame seeds game i with seed + i: give one int, not {seeds}")
        return first

    def _remember(self, info: dict[str, Any]) -> None:
        self._movers = np.asarray(info["current_player"], np.int32).copy()
        self._mask = np.asarray(info["action_mask"], np.int8).copy()


def env(game_id: str, **kwargs: Any) -> SeatEnv:
    """``SoloEnv`` for a one-seat game, else ``SeatEnv``. Keywords: ``seat``, ``opponents``,
    ``illegal_reward``, ``render_mode`` and the game's parameters."""
    parameters = {
        k: v for k, v in kwargs.items() if k not in ("seat", "opponents", "illegal_reward", "render_mode")
    }
    if meeplex.make(game_id, **parameters).num_players() == 1:
        return SoloEnv(game_id, **kwargs)
    return SeatEnv(game_id, **kwargs)


def register() -> list[str]:
    """Register ``meeplex/<game>-v0`` for every game with ``gymnasium.register`` (idempotent) and return the
    ids: ``gymnasium.make("meeplex/flip_city-v0", players=1)`` then works, keywords as for ``env()``."""
    ids = []
    for game_id in meeplex.games():
        env_id = f"meeplex/{game_id}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point=f"{__name__}:env", kwargs={"game_id": game_id})
        ids.append(env_id)
    return ids
