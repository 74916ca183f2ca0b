"""Every meeplex game as an OpenSpiel (``pyspiel``) Python game.

>>> import pyspiel
>>> from meeplex.envs import openspiel
>>> names = openspiel.register()
>>> game = pyspiel.load_game("meeplex_flip_city(players=3,max_turns=5)")
>>> game.num_players(), game.get_type().chance_mode.name
(3, 'EXPLICIT_STOCHASTIC')

``register()`` registers ``meeplex_<game id>`` for each game (the prefix keeps meeplex games apart from
OpenSpiel's own), with the game's parameters and defaults as the parameter specification. The meeplex API
already follows ``pyspiel``'s names, so the state is a thin shell around a ``meeplex.State``:

- **Chance** is explicit (``EXPLICIT_STOCHASTIC``) with the core's exact probabilities; a game whose
  ``max_chance_outcomes()`` is 0 is ``DETERMINISTIC``.
- **Information**: perfect information only where the game says so. The core has no such flag yet, so it is
  read from a ``perfect_information`` attribute of the game if the core grows one, else from
  ``PERFECT_INFORMATION`` below, and is imperfect information by default: claiming perfect information for a
  game with hidden facts would let OpenSpiel's perfect-information algorithms see them.
- **Utility**: returns are win shares in [0, 1]. They sum to 1 when someone wins, but to 0 when a game ends
  with no winner (Flip City's turn limit), so a game is ``GENERAL_SUM`` unless ``CONSTANT_SUM`` below lists
  the sum every end shares out. ``min_utility`` 0, ``max_utility`` 1; the reward model is terminal.
- **GameInfo** bounds come from the core: ``num_distinct_actions``, ``max_chance_outcomes``, ``num_players``
  and ``max_game_length`` (a bound on all actions, so also on decisions and on chance nodes).
- **Observations**: the observation tensor and string are ``observation_tensor(p)`` and
  ``observation_string(p)``; the information state string is ``information_state_string(p)`` (perfect
  recall). The core has no information-state tensor, so none is provided.
- ``resample_from_infostate(p, sampler)`` seeds the shared PRNG with one draw of OpenSpiel's sampler, asks the
  core for a consistent state and replays its history, so that ``history()`` is the sampled world's.
- ``clone`` and ``serialize`` work (OpenSpiel deep-copies and pickles a Python state's attributes).
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import numpy.typing as npt

import meeplex

from ._extras import optional_imports

with optional_imports("openspiel"):
    import pyspiel  # type: ignore[import-not-found]  # OpenSpiel ships no type information

PREFIX = "meeplex_"

PERFECT_INFORMATION: dict[str, bool] = {
    # docs/rules/flip_city.md §3: everything is public except the order of shuffled decks, which nobody knows.
    "flip_city": True,
}
"""Game id -> perfect information, for games whose core does not say; absent means imperfect information."""

CONSTANT_SUM: dict[str, float] = {}
"""Game id -> the sum of returns at every end of the game, for games where it never varies (none yet)."""

_SEAT_PROBE = range(1, 13)


def short_name(game_id: str) -> str:
    """The OpenSpiel name of a meeplex game: ``meeplex_<id>``."""
    return PREFIX + game_id


def perfect_information(game: meeplex.Game) -> bool:
    """The game's own claim (a ``perfect_information`` attribute or method), else ``PERFECT_INFORMATION``."""
    claim = getattr(game, "perfect_information", None)
    if callable(claim):
        claim = claim()
    if isinstance(claim, bool):
        return claim
    return PERFECT_INFORMATION.get(game.name, False)


def _seat_counts(game_id: str) -> list[int]:
    default = meeplex.make(game_id)
    if "players" not in default.params:
        return [default.num_players()]
    counts = []
    for seats in _SEAT_PROBE:
        try:
            counts.append(meeplex.make(game_id, players=seats).num_players())
        except meeplex.GameError:
            pass
    return counts


@functools.cache
def game_type(game_id: str) -> pyspiel.GameType:
    """The ``GameType`` registered for ``game_id`` (read from the registry and the tables above)."""
    game = meeplex.make(game_id)
    seats = _seat_counts(game_id)
    kind = pyspiel.GameType
    chance = (
        kind.ChanceMode.EXPLICIT_STOCHASTIC
        if game.max_chance_outcomes() > 0
        else kind.ChanceMode.DETERMINISTIC
    )
    perfect = perfect_information(game)
    information = kind.Information.PERFECT_INFORMATION if perfect else kind.Information.IMPERFECT_INFORMATION
    return pyspiel.GameType(
        short_name=short_name(game_id),
        long_name=f"meeplex {game_id}",
        dynamics=kind.Dynamics.SEQUENTIAL,
        chance_mode=chance,
        information=information,
        utility=kind.Utility.CONSTANT_SUM if game_id in CONSTANT_SUM else kind.Utility.GENERAL_SUM,
        reward_model=kind.RewardModel.TERMINAL,
        max_num_players=max(seats),
        min_num_players=min(seats),
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(game.params),
    )


def register() -> list[str]:
    """Register every meeplex game with OpenSpiel (idempotent); return their OpenSpiel names."""
    names = []
    for game_id in meeplex.games():
        name = short_name(game_id)
        if name not in pyspiel.registered_names():
            pyspiel.register_game(game_type(game_id), game_class(game_id))
        names.append(name)
    return names


@functools.cache
def game_class(game_id: str) -> type[MeeplexGame]:
    """The ``MeeplexGame`` subclass for one game id, the creator OpenSpiel calls with the parameters.

    A class rather than a closure: OpenSpiel keeps creators in a C++ registry that outlives the interpreter,
    and releasing a closure there after Python has finalized aborts the process at exit; a class, like the
    ones OpenSpiel's own Python games register, is never released."""
    return type(f"MeeplexGame_{game_id}", (MeeplexGame,), {"game_id": game_id, "__module__": __name__})


class MeeplexGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no type information
    """One meeplex game, parameters included; ``meeplex_game`` is the underlying ``meeplex.Game``.
    Instantiated through a per-game subclass from ``game_class``, which sets ``game_id``."""

    game_id: str

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        game_id = self.game_id
        spec = game_type(game_id)
        game = meeplex.make(game_id, **dict(params or {}))
        info = pyspiel.GameInfo(
            num_distinct_actions=game.num_distinct_actions(),
            max_chance_outcomes=game.max_chance_outcomes(),
            num_players=game.num_players(),
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=CONSTANT_SUM.get(game_id),
            max_game_length=game.max_game_length(),
        )
        super().__init__(spec, info, dict(game.params))
        self.meeplex_game = game
        self.perfect_information = spec.information == pyspiel.GameType.Information.PERFECT_INFORMATION
        self.label = meeplex.game_string(game.name, game.params)  # the full game string, to rebuild the game

    def new_initial_state(self) -> MeeplexState:
        return MeeplexState(self)

    def max_chance_nodes_in_history(self) -> int:
        return self.meeplex_game.max_game_length()  # max_game_length() bounds every action, chance included

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        return _Observer(self, iig_obs_type, params)


class _Box:
    """Carries the ``meeplex.State`` inside a pyspiel state. OpenSpiel clones a Python state by deep-copying
    its attributes and serializes it by pickling them: the core state clones but does not pickle, so the box
    pickles it as the game string and the state's canonical JSON."""

    __slots__ = ("label", "state")

    def __init__(self, label: str, state: meeplex.State) -> None:
        self.label = label
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Box:
        return _Box(self.label, self.state.clone())

    def __reduce__(self) -> tuple[Any, ...]:
        return (_unbox, (self.label, self.state.serialize()))


def _unbox(label: str, text: str) -> _Box:
    return _Box(label, meeplex.make(label).deserialize_state(text))


class MeeplexState(pyspiel.State):  # type: ignore[misc]  # pyspiel ships no type information
    """A pyspiel state over a ``meeplex.State`` (``meeplex_state``); the player ids are the same."""

    def __init__(self, game: MeeplexGame) -> None:
        super().__init__(game)
        self._box = _Box(game.label, game.meeplex_game.new_initial_state())

    @property
    def meeplex_state(self) -> meeplex.State:
        return self._box.state

    def current_player(self) -> int:
        return self._box.state.current_player()  # CHANCE = -1, TERMINAL = -4 in both

    def _legal_actions(self, player: int) -> list[int]:
        return self._box.state.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._box.state.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self._box.state.apply_action(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self._box.state.action_to_string(int(action))

    def is_terminal(self) -> bool:
        return self._box.state.is_terminal()

    def returns(self) -> list[float]:
        return self._box.state.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> MeeplexState:
        game: MeeplexGame = self.get_game()
        if game.perfect_information:
            return self.clone()  # type: ignore[no-any-return]
        # One draw of OpenSpiel's sampler seeds the shared PRNG, so the core draws the world as it specifies.
        rng = meeplex.Rng(int(probability_sampler() * 2**53))
        world = self._box.state.resample_from_infostate(player_id, rng)
        resampled = game.new_initial_state()
        for action in world.history():  # replayed, so that OpenSpiel's own history is the sampled world's
            resampled.apply_action(action)
        return resampled

    def __str__(self) -> str:
        return str(self._box.state)


class _Observer:
    """OpenSpiel's PyObserver protocol (``tensor``, ``dict``, ``set_from``, ``string_from``) over the core's
    views. The core has one view per seat: the seat's own observation, and its information state with perfect
    recall. In a perfect-information game every fact is public, so those views also serve the public-only and
    all-players kinds of observation; in other games those kinds are refused."""

    def __init__(self, game: MeeplexGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"meeplex observers take no parameters; got {params}")
        obs_type = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        own_view = obs_type.public_info and obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        if not (game.perfect_information or own_view):
            raise ValueError(f"{game.label}: meeplex has only the seat's own view, not {obs_type}")
        self._recall = obs_type.perfect_recall
        self._empty = not obs_type.public_info  # a perfect-information game has no private facts to show
        self.tensor: npt.NDArray[np.float32] | None = None
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        if not self._recall and not self._empty:
            shape = game.meeplex_game.observation_shape()
            self.tensor = np.zeros(int(np.prod(shape)), np.float32)
            self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: MeeplexState, player: int) -> None:
        if self.tensor is not None:
            state.meeplex_state.observation_tensor(player, out=self.dict["observation"])

    def string_from(self, state: MeeplexState, player: int) -> str:
        if self._empty:
            return ""
        if self._recall:
            return state.meeplex_state.information_state_string(player)
        return state.meeplex_state.observation_string(player)
