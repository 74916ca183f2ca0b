"""Helpers the reliability suites share to cover a game's parameters generically (from the registry)."""

from __future__ import annotations

import importlib

import meeplex
from meeplex.errors import GameError


def accepts(make, game_id: str, params: dict) -> bool:
    """Whether ``make(game_id, **params)`` accepts the parameters."""
    try:
        make(game_id, **params)
    except GameError:
        return False
    return True


def named_variants(game_id: str) -> list[dict]:
    """``VARIANTS`` (or ``PRESETS``) of ``meeplex.games.<game>``, where the game has such a table."""
    games_function = meeplex.games
    try:
        module = importlib.import_module(f"meeplex.games.{game_id}")
    except ImportError:
        return []
    finally:
        meeplex.games = games_function  # importing the subpackage rebinds the name meeplex.games
    table = getattr(module, "VARIANTS", None) or getattr(module, "PRESETS", None) or {}
    return [dict(v) for v in table.values() if isinstance(v, dict)]
