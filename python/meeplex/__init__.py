"""meeplex: fast, exact rules engines for tabletop games.

>>> import meeplex
>>> game = meeplex.make("flip_city", players=2)
>>> state = game.new_initial_state()
>>> state.is_chance_node()
True

The engines live in the compiled Rust module ``meeplex._core``; ``meeplex.oracle`` holds the
pure-Python reference implementations of the same games, with the same API.
"""

from __future__ import annotations

from typing import cast

from . import _core
from . import games as _games_package
from ._params import ParamValue, game_string, merge_params, parse_game_string
from .errors import GameError, IllegalActionError, InvalidNotationError, InvalidStateError
from .games import _CallableGamesModule

# ``meeplex.games`` is a package made callable (``meeplex.games()`` lists the ids): the same object, typed
# so that a type checker knows it can be called.
games = cast(_CallableGamesModule, _games_package)
del _games_package, _CallableGamesModule

CHANCE: int = -1
"""``current_player()`` at a chance node (OpenSpiel's kChancePlayerId)."""
TERMINAL: int = -4
"""``current_player()`` once the game is over (OpenSpiel's kTerminalPlayerId)."""

Game = _core.Game
State = _core.State
Rng = _core.Rng
VectorGame = _core.VectorGame

__version__: str = _core.__version__


def make(name: str, /, **params: object) -> Game:
    """A game by id with keyword parameters, or from one game string: ``make("flip_city(players=3)")``.

    Unknown games and bad parameters raise ``InvalidStateError``; a malformed game string raises
    ``InvalidNotationError``.
    ``name`` is positional-only, so a keyword called ``name`` is a parameter like any other (an unknown one,
    ``InvalidStateError``), never Python's TypeError.
    """
    game_id, from_string = parse_game_string(name)
    # The engine checks every value itself (a value of another type is an InvalidStateError too).
    merged = cast("dict[str, ParamValue]", merge_params(game_id, from_string, params))
    return _core.Game(game_id, merged)


def play_random(game: Game, seed: int) -> State:
    """Play one whole game with the shared PRNG (DESIGN: "a random step") and return the final state.

    The loop runs in Rust; ``meeplex.oracle.play_random`` gives the same history.
    """
    return game.play_random(seed)


__all__ = [
    "CHANCE",
    "TERMINAL",
    "Game",
    "GameError",
    "IllegalActionError",
    "InvalidNotationError",
    "InvalidStateError",
    "Rng",
    "State",
    "VectorGame",
    "game_string",
    "games",
    "make",
    "play_random",
]
