"""Caboodle for Python users: action ids, the tile file and named variants (docs/rules/caboodle.md).

The faces of the 40 tiles are not public: the shipped tile file (``PLACEHOLDER_PATH``) is an unverified
placeholder. An owner of the game can describe the real tiles in the same format (§3) and play with them::

    from meeplex.games.caboodle import encode_tiles
    game = meeplex.make("caboodle", players=3, tiles=encode_tiles(open("my_tiles.json").read()))
"""

from __future__ import annotations

import base64
from importlib import resources
from pathlib import Path

T = 40
"""Tiles in a set; tile ids are ``0..T-1``."""
R = T - 1
"""Every tile lies within ``|x| <= R`` and ``|y| <= R`` (§4)."""
W = 2 * R + 1
P = W * W * 4
"""Placement ids are ``0..P-1``."""
SELECT = P
"""``SELECT + t`` selects tile ``t``."""
PASS = P + T
NUM_ACTIONS = P + T + 1

HAND = 6
REMOVALS: dict[int, int] = {2: 1, 3: 0, 4: 3}
"""Tiles removed unseen at the start, by player count (page, Setup)."""

ROTATIONS = ("r0", "r90", "r180", "r270")

PLACEHOLDER_PATH = Path(str(resources.files("meeplex") / "data" / "caboodle_tiles.json"))

# Named variants: parameter sets for `meeplex list` and `meeplex.make("caboodle", **VARIANTS[name])`.
VARIANTS: dict[str, dict[str, object]] = {
    "bga_2024": {},
    "bga_2023": {"rules": 2023},
    "three_players": {"players": 3},
    "four_players": {"players": 4},
}


def place_id(x: int, y: int, r: int) -> int:
    """The id of ``place x,y r<90 r>`` (r = quarter turns clockwise, 0..3)."""
    if not (-R <= x <= R and -R <= y <= R and 0 <= r <= 3):
        raise ValueError(f"placement {x},{y} r{r} is outside the window")
    return ((y + R) * W + (x + R)) * 4 + r


def decode_place(action: int) -> tuple[int, int, int]:
    """``(x, y, r)`` of a placement id."""
    if not 0 <= action < P:
        raise ValueError(f"{action} is not a placement id")
    cell, r = divmod(action, 4)
    y, x = divmod(cell, W)
    return x - R, y - R, r


def encode_tiles(text: str) -> str:
    """The ``tiles`` parameter value of a tile file's text: ``b64_`` + base64url without padding (§3.1)."""
    return "b64_" + base64.urlsafe_b64encode(text.encode("utf-8")).rstrip(b"=").decode("ascii")


def placeholder_text() -> str:
    """The shipped (unverified) tile file, as both engines read it."""
    return PLACEHOLDER_PATH.read_text(encoding="utf-8")
