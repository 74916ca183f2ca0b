"""PettingZoo AEC environments for every meeplex game and variant with two or more seats.

>>> from meeplex.envs.pettingzoo import env
>>> e = env("flip_city", players=2, max_turns=5)
>>> e.reset(seed=7)
>>> e.agent_selection
'player_0'

- Agents are ``player_0 .. player_<n-1>``, the game's seats. Observations are dicts
  ``{"observation": float32 observation_tensor(seat), "action_mask": int8}``, the mask all zeros except for
  the agent to move (as in PettingZoo's classic games). Every array is fresh: the caller may keep it.
- Chance nodes never reach the agents: ``reset`` and ``step`` resolve them with the shared PRNG
  (``meeplex.Rng``) and DESIGN.md's random step (outcomes sorted by id, integer weights, ``r = below(W)``).
  ``reset(seed)`` seeds it, so a seed is the same game in every process; ``reset()`` without a seed continues
  the generator (a fresh random one the first time).
- Rewards are the change in ``state.returns()``: the seat's share of the win at the end, 0 before it. Every
  end of the game, the turn limit (``max_turns``) included, is a termination: it is a rule of the game with
  its own returns, not an outside time limit.
- ``env()`` wraps ``raw_env`` as the classic environments do: an illegal action ends the game with
  ``ILLEGAL_REWARD`` for the offender and 0 for the others (``TerminateIllegalWrapper``), out-of-range actions
  are assertion errors and calls out of order are caught. ``raw_env.step`` raises
  ``meeplex.IllegalActionError`` on an illegal action and leaves the game as it was.
- ``render_mode="ansi"``: ``render()`` returns the game's text view (``str(state)``); ``"human"`` prints it
  after every step.
"""

from __future__ import annotations

import operator
import secrets
from typing import Any

import numpy as np
import numpy.typing as npt

import meeplex

from . import game_label
from ._extras import optional_imports

with optional_imports("pettingzoo"):
    from gymnasium import logger, spaces
    from pettingzoo import AECEnv  # type: ignore[import-untyped]  # PettingZoo ships no type information
    from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

ILLEGAL_REWARD = -1.0
"""The reward of a seat whose illegal action ended the game in ``env()`` (PettingZoo's classic value)."""

Observation = dict[str, npt.NDArray[Any]]


def env(game_id: str, *, render_mode: str | None = None, **params: Any) -> AECEnv[str, Observation, int]:
    """The wrapped environment for ``meeplex.make(game_id, **params)`` (a game string works too)."""
    wrapped: AECEnv[str, Observation, int] = raw_env(game_id, render_mode=render_mode, **params)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=ILLEGAL_REWARD)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


def observation_space(game: meeplex.Game) -> spaces.Dict:
    """A fresh space for one agent (fresh, so that seeding one agent's space leaves the others alone).

    The core declares no bounds for observation tensors, so the ``observation`` box is unbounded rather
    than guessed."""
    return spaces.Dict(
        {
            "observation": spaces.Box(-np.inf, np.inf, game.observation_shape(), np.float32),
            "action_mask": spaces.Box(0, 1, (game.num_distinct_actions(),), np.int8),
        }
    )


class raw_env(AECEnv[str, Observation, int]):  # type: ignore[misc]  # lower case: PettingZoo's convention
    """One meeplex game as an ``AECEnv``. ``game_state`` is the live ``meeplex.State`` after ``reset``."""

    metadata: dict[str, Any] = {
        "render_modes": ["ansi", "human"],
        "name": "meeplex",
        "is_parallelizable": False,
    }

    def __init__(self, game_id: str, *, render_mode: str | None = None, **params: Any) -> None:
        super().__init__()
        self.game = meeplex.make(game_id, **params)
        name = game_label(self.game)
        seats = self.game.num_players()
        if seats < 2:
            raise ValueError(
                f"{name} has {seats} seat; PettingZoo needs two or more (use meeplex.envs.gymnasium for solo)"
            )
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} is not one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        # Per instance: the name (what str(env) shows) depends on the game and its parameters.
        self.metadata = {**type(self).metadata, "name": name}
        self.possible_agents = [f"player_{seat}" for seat in range(seats)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.observation_spaces = {agent: observation_space(self.game) for agent in self.possible_agents}
        self.action_spaces = {
            agent: spaces.Discrete(self.game.num_distinct_actions()) for agent in self.possible_agents
        }
        self.agents: list[str] = []
        self.game_state: meeplex.State | None = None
        self.rng: meeplex.Rng | None = None  # the shared PRNG that resolves chance; reset(seed) seeds it
        self._returns = [0.0] * seats

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self.rng = meeplex.Rng(seed)
        elif self.rng is None:
            self.rng = meeplex.Rng(secrets.randbits(64))
        self.game_state = self.game.new_initial_state()
        self._resolve_chance()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._returns = [0.0] * len(self.possible_agents)
        self.agent_selection = self.possible_agents[0]
        self._after_move()

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise TypeError(f"{agent} is to move: None is only for agents whose game is over")
        state = self._state()
        state.apply_action(operator.index(action))  # raises IllegalActionError, leaving the state as it was
        self._cumulative_rewards[agent] = 0.0
        self._resolve_chance()
        self._after_move()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> Observation:
        state = self._state()
        seat = self._seat[agent]
        return {"observation": state.observation_tensor(seat), "action_mask": self._mask(agent, seat)}

    def render(self) -> str | None:
        if self.render_mode is None:
            logger.warn("render() called without a render_mode: pass render_mode='ansi' or 'human'")
            return None
        text = str(self._state())
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        pass

    # -----------------------------------------------------------------------------------------------------

    def _state(self) -> meeplex.State:
        if self.game_state is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game_state

    def _resolve_chance(self) -> None:
        state, rng = self._state(), self.rng
        assert rng is not None  # reset() seeds it before the first state exists
        while state.is_chance_node():
            state.random_step(rng)  # DESIGN's weighted draw, in the engine

    def _after_move(self) -> None:
        """Rewards from the change in returns, then the next agent, or termination for every agent."""
        state = self._state()
        returns = [float(r) for r in state.returns()]
        self._clear_rewards()
        for seat, agent in enumerate(self.possible_agents):
            self.rewards[agent] = returns[seat] - self._returns[seat]
        self._returns = returns
        if state.is_terminal():
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[state.current_player()]
        self._accumulate_rewards()

    def _mask(self, agent: str, seat: int) -> npt.NDArray[np.int8]:
        state = self._state()
        alive = not (self.terminations.get(agent, True) or self.truncations.get(agent, True))
        if alive and agent == self.agent_selection and state.current_player() == seat:
            return state.legal_actions_mask()
        return np.zeros(self.game.num_distinct_actions(), dtype=np.int8)
