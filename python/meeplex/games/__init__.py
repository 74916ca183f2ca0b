"""Per-game Python objects (``meeplex.games.flip_city``: faces, action ids, named variants).

``meeplex.games`` is also callable: ``meeplex.games()`` lists the registered game ids (DESIGN.md names both
the function and this package, so the package is made callable rather than one of them renamed).
"""

from __future__ import annotations

import sys
import types

from .. import _core


class _CallableGamesModule(types.ModuleType):
    def __call__(self) -> list[str]:
        """The ids of every registered game, sorted."""
        return sorted(_core.game_ids())


sys.modules[__name__].__class__ = _CallableGamesModule
