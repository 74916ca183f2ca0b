"""Test machinery shared by every game (DESIGN.md, "Testing").

- ``conformance``: ``check_state`` / ``run_conformance``, the invariants of the state API;
- ``differential``: the Rust core and the oracle in lockstep (``compare_random_game``, ``replay_and_compare``,
  ``shrink``, ``Divergence``);
- ``strategies``: hypothesis strategies over the registry (imported on its own: hypothesis is a test extra).
"""

from __future__ import annotations

import os

from .conformance import ConformanceError, check_state, random_action, run_conformance
from .differential import Divergence, compare_random_game, replay_and_compare, shrink

_EFFORT = {"ci": 1, "dev": 3, "long": 20}


def effort() -> int:
    """How much work the seeded suites do (seeds, steps, parameter sets), from the hypothesis profile named by
    ``HYPOTHESIS_PROFILE``: 1 for ``ci``, 3 for ``dev`` (the default), 20 for ``long``."""
    return _EFFORT.get(os.environ.get("HYPOTHESIS_PROFILE", "dev"), 3)


__all__ = [
    "ConformanceError",
    "Divergence",
    "check_state",
    "compare_random_game",
    "effort",
    "random_action",
    "replay_and_compare",
    "run_conformance",
    "shrink",
]
