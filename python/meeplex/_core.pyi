"""Type stubs of the compiled module ``meeplex._core`` (the pyo3 bindings of meeplex-engine).

Every class is a pyo3 class: it cannot be subclassed (``@final``) and is built by ``__new__`` (pyo3 defines no
``__init__``). ``mypy.stubtest meeplex._core`` checks this file against the compiled module.

Arguments typed ``SupportsIndex`` (actions, seats, seeds, counts, indices) take any int as ``operator.index``
reads it (a numpy integer, a 0-d integer array) except a bool (docs/architecture.md, "Input policy").
"""

from collections.abc import Callable
from typing import ClassVar, SupportsIndex, final

import numpy as np
import numpy.typing as npt

__all__ = [
    "__version__",
    "Game",
    "State",
    "Rng",
    "VectorGame",
    "RandomAgent",
    "MctsAgent",
    "game_ids",
    "_restore_state",
]

__version__: str

def game_ids() -> list[str]:
    """The ids of the registered games, sorted."""

def _restore_state(game: Game, text: str) -> State:
    """The inverse of ``State.__reduce__``."""

@final
class Rng:
    """SplitMix64, bit for bit the same as ``meeplex.oracle.Rng``."""

    def __new__(cls, seed: SupportsIndex) -> Rng:
        """Any int, reduced mod 2**64; a value that is not an int is a TypeError."""

    def next_u64(self) -> int: ...
    def below(self, n: SupportsIndex) -> int:
        """``next_u64() % n``; n must be at least 1 (a ValueError otherwise; not an int: a TypeError)."""

    @property
    def state(self) -> int: ...

@final
class Game:
    # Only a dict is accepted (another mapping is a TypeError); a value of another type, or a value the game
    # refuses, is an InvalidStateError.
    def __new__(cls, name: str, params: dict[str, int | bool | str] | None = None) -> Game: ...
    @property
    def name(self) -> str: ...
    @property
    def params(self) -> dict[str, int | bool | str]:
        """The full, normalised parameters (a fresh dict each call)."""

    def num_players(self) -> int: ...
    def num_distinct_actions(self) -> int: ...
    def max_chance_outcomes(self) -> int: ...
    def max_game_length(self) -> int: ...
    def observation_shape(self) -> tuple[int, ...]: ...
    def new_initial_state(self) -> State: ...
    def deserialize_state(self, text: str) -> State: ...
    def play_random(self, seed: SupportsIndex) -> State: ...
    def __reduce__(self) -> tuple[type[Game], tuple[str, dict[str, int | bool | str]]]: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class State:
    """Made by ``Game``; it cannot be constructed directly."""

    # __eq__ without __hash__: states are mutable and unhashable.
    __hash__: ClassVar[None]  # type: ignore[assignment]

    def current_player(self) -> int: ...
    def is_terminal(self) -> bool: ...
    def is_chance_node(self) -> bool: ...
    def legal_actions(self) -> list[int]: ...
    def legal_actions_mask(self, out: npt.NDArray[np.int8] | None = None) -> npt.NDArray[np.int8]: ...
    def chance_outcomes(self) -> list[tuple[int, float]]: ...
    def chance_weights(self) -> list[tuple[int, int]]: ...
    def apply_action(self, action: SupportsIndex) -> None: ...
    def random_step(self, rng: Rng) -> int:
        """DESIGN's random step with ``rng``, applied; returns the action. IllegalActionError at the end."""
    def action_to_string(self, action: SupportsIndex) -> str: ...
    def string_to_action(self, text: str) -> int: ...
    def returns(self) -> list[float]: ...
    def scores(self) -> list[float]:
        """The game's own score per seat, for people and reports, never a reward (``returns()`` is). Before
        the end only what the table can see (no hidden card counts); each game's rules document says what it
        means mid-game."""
    def history(self) -> list[int]: ...
    def clone(self) -> State: ...
    def __copy__(self) -> State: ...
    def __deepcopy__(self, _memo: object) -> State: ...
    def serialize(self) -> str: ...
    def observation_tensor(
        self, player: SupportsIndex, out: npt.NDArray[np.float32] | None = None
    ) -> npt.NDArray[np.float32]: ...
    def observation_string(self, player: SupportsIndex) -> str: ...
    def information_state_string(self, player: SupportsIndex) -> str: ...
    def resample_from_infostate(self, player: SupportsIndex, rng: Rng) -> State: ...
    def rollout(self, rng: Rng) -> None: ...
    def __reduce__(self) -> tuple[Callable[[Game, str], State], tuple[Game, str]]: ...
    def __eq__(self, value: object, /) -> bool: ...

@final
class VectorGame:
    """n games stepped together in Rust; chance resolved inside (game i uses ``Rng(seed + i)``).

    ``step`` returns ``(obs, rewards, terminations, truncations, info)``: obs float32 (n, *shape) from the
    seat to move (or, in a game that just ended, the seat that moved last); rewards float32 (n, players), the
    returns of games that ended on this step; terminations and truncations bool (n,) (truncations always
    false); info ``{"action_mask": int8 (n, num_distinct_actions), "current_player": int32 (n,)}``.

    ``copy`` follows Gymnasium's vector environments (``SyncVectorEnv(copy=...)``). ``copy=True`` (the
    default): every ``step`` and ``reset`` returns new arrays. ``copy=False``: they return arrays owned by the
    VectorGame, the same objects on every call, overwritten in place by the next ``step`` or ``reset`` (all
    of them: obs, rewards, terminations, truncations, ``action_mask`` and ``current_player``; the info dict
    itself is new each call); copy what must be kept. This saves allocating and clearing the outputs on
    every step. The owned arrays must stay writeable and not be in use by another thread during a call, else
    InvalidStateError. The GIL is released while the games are stepped and the outputs written.

    ``observation_dtype`` is ``"float32"`` (the default) or ``"uint8"`` (a string or a numpy dtype): uint8
    observations hold exactly the float32 values, a quarter of the bytes to write. Only a game whose every
    observation value is an integer in 0..255 in every reachable state allows it (Flip City solo, Flip City:
    Wilderness with 1-2 seats, with their default cards); asking another raises InvalidStateError.

    ``threads`` (default 1) steps the games on that many threads: the caller's and ``threads - 1`` of the
    VectorGame's own, each taking runs of consecutive games in turn (at most one thread per game). Every
    game draws its chance from its own ``Rng(seed + i)``, so the outputs are the same whatever the number of
    threads.
    """

    def __new__(
        cls,
        game: Game,
        num_envs: SupportsIndex,
        seed: SupportsIndex | None = None,
        autoreset_mode: str = "next_step",
        *,
        copy: bool = True,
        observation_dtype: npt.DTypeLike | None = None,
        threads: SupportsIndex | None = None,
    ) -> VectorGame: ...
    @property
    def num_envs(self) -> int: ...
    @property
    def threads(self) -> int:
        """How many threads step the games (``threads``, at most one per game)."""

    @property
    def copy(self) -> bool:
        """False: ``step`` and ``reset`` return the VectorGame's own arrays, overwritten by the next call."""

    @property
    def observation_dtype(self) -> np.dtype[np.float32 | np.uint8]:
        """The dtype of the observations, ``numpy.float32`` or ``numpy.uint8``."""

    @property
    def game(self) -> Game: ...
    def reset(
        self, seed: SupportsIndex | None = None
    ) -> tuple[npt.NDArray[np.float32 | np.uint8], dict[str, npt.NDArray[np.generic]]]: ...
    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        npt.NDArray[np.float32 | np.uint8],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, npt.NDArray[np.generic]],
    ]:
        """One action per game: a 1-d array of an integer dtype, or a list or tuple of ints. Another dtype (a
        float policy output, bools), a non-int element or an illegal action is an IllegalActionError, and then
        no game changes."""

    def state(self, i: SupportsIndex) -> State: ...

@final
class RandomAgent:
    """Uniform over the legal actions with the shared PRNG: ``legal[rng.below(len(legal))]``."""

    def __new__(cls, seed: SupportsIndex | None = None) -> RandomAgent: ...
    def step(self, state: State) -> int: ...

@final
class MctsAgent:
    """UCT MCTS in Rust (``information_sets=True``: single-observer ISMCTS over resample_from_infostate)."""

    def __new__(
        cls,
        simulations: SupportsIndex = 1000,
        uct_c: float = 1.4,
        max_rollout_steps: SupportsIndex = 100,
        seed: SupportsIndex | None = None,
        information_sets: bool = False,
    ) -> MctsAgent: ...
    @property
    def simulations(self) -> int: ...
    def step(self, state: State) -> int: ...
    def policy(self, state: State) -> npt.NDArray[np.float32]:
        """The root's visit distribution: float32 of length num_distinct_actions, summing to 1 over the legal
        actions. The same search as ``step``: ``int(policy(s).argmax())`` is the action ``step(s)`` takes."""
        ...
