"""meeplex.oracle: the pure-Python reference implementations of meeplex's games.

Same API as the Rust-backed engines (DESIGN.md, "The state API"), written from the rulebooks for
correctness, never for speed, so that the two can be compared action by action.

>>> import meeplex.oracle as oracle
>>> game = oracle.make("flip_city(players=2,office=true)")
>>> state = oracle.play_random(game, 7)
>>> state.is_terminal()
True

This package imports nothing from the compiled ``meeplex._core``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from meeplex._params import merge_params, parse_game_string
from meeplex._protocols import GameLike, StateLike
from meeplex.errors import GameError, IllegalActionError, InvalidNotationError, InvalidStateError

from .flip_city import FlipCityGame, FlipCityState
from .rng import Rng, random_step

CHANCE: int = -1
"""``current_player()`` at a chance node (OpenSpiel's kChancePlayerId)."""
TERMINAL: int = -4
"""``current_player()`` once the game is over (OpenSpiel's kTerminalPlayerId)."""


class _GameClass(GameLike, Protocol):
    """An oracle game class: built from a parameter mapping, checked by the game itself."""

    def __init__(self, params: Mapping[str, object] | None = None) -> None: ...


# The registry: adding a game is one line.
GAMES: dict[str, type[_GameClass]] = {
    "caboodle": __import__("meeplex.oracle.caboodle", fromlist=["_"]).CaboodleGame,
    "carcassonne": __import__("meeplex.oracle.carcassonne", fromlist=["_"]).CarcassonneGame,
    "flip_city": FlipCityGame,
    "flip_city_wilderness": __import__("meeplex.oracle.flip_city", fromlist=["_"]).FlipCityWildernessGame,
    "flip_pick_towers": __import__("meeplex.oracle.flip_pick_towers", fromlist=["_"]).FlipPickTowersGame,
    "flipology": __import__("meeplex.oracle.flipology", fromlist=["_"]).FlipologyGame,
    "forbidden_island": __import__("meeplex.oracle.forbidden_island", fromlist=["_"]).ForbiddenIslandGame,
    "lineit": __import__("meeplex.oracle.lineit", fromlist=["_"]).LineitGame,
    "memoir44": __import__("meeplex.oracle.memoir44", fromlist=["_"]).Memoir44Game,
    "nidavellir": __import__("meeplex.oracle.nidavellir", fromlist=["_"]).NidavellirGame,
    "viticulture": __import__("meeplex.oracle.viticulture", fromlist=["_"]).ViticultureGame,
}


def games() -> list[str]:
    """The ids of every game the oracle implements, sorted."""
    return sorted(GAMES)


def make(name: str, /, **params: object) -> GameLike:
    """A game by id with keyword parameters, or from one game string: ``make("flip_city(players=3)")``.

    An unknown game or bad parameters raise ``InvalidStateError``; a malformed game string raises
    ``InvalidNotationError``.
    ``name`` is positional-only, so a keyword called ``name`` is a parameter like any other (an unknown one,
    ``InvalidStateError``), never Python's TypeError.
    """
    game_id, from_string = parse_game_string(name)
    found = GAMES.get(game_id)
    if found is None:
        raise InvalidStateError(f"unknown game {game_id!r}; the oracle has {games()}")
    return found(merge_params(game_id, from_string, params))


def play_random(game: GameLike, seed: int) -> StateLike:
    """Play one whole game from the initial state with ``Rng(seed)`` and return the final, terminal state."""
    rng = Rng(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        random_step(state, rng)
    return state


__all__ = [
    "CHANCE",
    "GAMES",
    "TERMINAL",
    "FlipCityGame",
    "FlipCityState",
    "GameError",
    "IllegalActionError",
    "InvalidNotationError",
    "InvalidStateError",
    "Rng",
    "games",
    "make",
    "play_random",
    "random_step",
]
