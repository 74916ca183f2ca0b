"""Adapters from every registered meeplex game to the standard RL and game-theory interfaces.

Each adapter is its own module with an optional dependency, so importing ``meeplex.envs`` costs nothing and
a missing library is reported only by the adapter that needs it, naming the extra to install:

- ``meeplex.envs.pettingzoo``: ``env(game_id, **params)`` / ``raw_env``, an ``AECEnv`` for games and variants
  with two or more seats (``pip install 'meeplex[pettingzoo]'``);
- ``meeplex.envs.gymnasium``: ``env(game_id, **params)``, ``SoloEnv`` for one-seat variants, ``SeatEnv``
  playing one seat against meeplex agents, and ``VectorGameEnv`` over ``meeplex.VectorGame``
  (``pip install 'meeplex[gymnasium]'``);
- ``meeplex.envs.openspiel``: ``register()`` makes every game loadable with ``pyspiel.load_game``
  (``pip install 'meeplex[openspiel]'``).

All of them are generic over ``meeplex.games()``: a new game needs nothing here. Chance nodes are resolved
inside the adapters (PettingZoo, Gymnasium) with the shared PRNG and DESIGN.md's random step, so a seed
names the same game in every process and on every machine.
"""

from __future__ import annotations

import meeplex

from ._extras import MissingExtraError


def game_label(game: meeplex.Game) -> str:
    """The shortest game string naming ``game``: its id and only the parameters that differ from the
    defaults (``flip_city(max_turns=5)``). Environments use it as their name."""
    defaults = meeplex.make(game.name).params
    changed = {key: value for key, value in game.params.items() if defaults.get(key) != value}
    return meeplex.game_string(game.name, changed)


_SEAT_PROBE = range(1, 13)
_INT_PROBE = (0, 1)  # small values of other int parameters: degenerate and short games find adapter bugs


def _accepted(game_id: str, params: dict[str, object]) -> meeplex.Game | None:
    try:
        return meeplex.make(game_id, **params)
    except meeplex.GameError:
        return None


# The parameters that cap a game's length, by game: Memoir '44 counts turns, Viticulture years.
_LENGTH_KEYS = ("max_turns", "turn_limit", "max_years")


def game_variants(*, min_seats: int = 1, max_turns: int | None = None) -> list[str]:
    """Game strings for every registered game and a generic set of its variants: the defaults, each boolean
    flipped, every accepted seat count (``players``), and 0 and 1 for the other int parameters, keeping what
    the game accepts and has at least ``min_seats`` seats. With ``max_turns``, a game's turn limit (where it
    has one) is cut to at most that, for short games in tests and examples."""
    found: list[str] = []
    for game_id in meeplex.games():
        defaults = meeplex.make(game_id).params
        candidates: list[dict[str, object]] = [{}]
        for key, value in sorted(defaults.items()):
            if isinstance(value, bool):
                candidates.append({key: not value})
            elif isinstance(value, int):
                probe = _SEAT_PROBE if key == "players" else _INT_PROBE
                candidates += [{key: v} for v in probe if v != value]
        for overrides in candidates:
            game = _accepted(game_id, overrides)
            if game is None or game.num_players() < min_seats:
                continue
            length_key = next((k for k in _LENGTH_KEYS if k in game.params), None)
            if max_turns is not None and length_key is not None:
                limit = game.params[length_key]
                assert isinstance(limit, int)
                game = _accepted(game_id, {**game.params, length_key: min(limit, max_turns)})
                assert game is not None, "a shorter turn limit than an accepted one is accepted"
            label = game_label(game)
            if label not in found:
                found.append(label)
    return found


__all__ = ["MissingExtraError", "game_label", "game_variants"]
