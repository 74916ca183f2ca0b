"""Line-it for Python users: card kinds, action ids and their helpers (docs/rules/lineit.md).

A card *kind* is the id used in actions, chance outcomes, serialized states and the observation: kinds 0..99
are the number cards 1..100, kinds 100, 101, 102 the bet cards +3, +4, +5.
"""

from __future__ import annotations

from enum import IntEnum

NUM_KINDS = 103
BET3, BET4, BET5 = 100, 101, 102

# Action ids (rules doc §6): a base plus a card kind.
LINE, HAND, PLAY = 0, 103, 206
CLOSE, PASS = 309, 310
NUM_ACTIONS = 311


class Colour(IntEnum):
    """The four colours (and their symbols): red heart, blue diamond, green leaf, yellow star."""

    RED = 0
    BLUE = 1
    GREEN = 2
    YELLOW = 3


def number_kind(number: int) -> int:
    """The kind of the number card ``number`` (1..100)."""
    if not 1 <= number <= 100:
        raise ValueError(f"a number card is 1..100, not {number}")
    return number - 1


def bet_kind(value: int) -> int:
    """The kind of the bet card of ``value`` (3, 4 or 5)."""
    if value not in (3, 4, 5):
        raise ValueError(f"a bet card is worth 3, 4 or 5, not {value}")
    return 97 + value


def is_bet(kind: int) -> bool:
    return BET3 <= kind <= BET5


def card_text(kind: int) -> str:
    """The canonical text of a card kind: its number, or ``bet3`` .. ``bet5``."""
    if is_bet(kind):
        return f"bet{kind - 97}"
    if 0 <= kind < 100:
        return str(kind + 1)
    raise ValueError(f"no card kind {kind}")


def colour(kind: int, colour_blocks: bool = False) -> Colour:
    """The colour of a number card kind: ``(n - 1) mod 4`` (BGA), or blocks of 25 with ``colour_blocks``."""
    if not 0 <= kind < 100:
        raise ValueError(f"only number cards have a colour, not kind {kind}")
    return Colour(kind // 25 if colour_blocks else kind % 4)


def line(kind: int) -> int:
    """Take market card ``kind`` into the line."""
    return LINE + kind


def hand(kind: int) -> int:
    """Take market card ``kind`` into the hand."""
    return HAND + kind


def play(kind: int) -> int:
    """Play hand card ``kind`` into the line."""
    return PLAY + kind


# Named variants: parameter sets for `meeplex list` and `meeplex.make("lineit", **VARIANTS[name])`.
VARIANTS: dict[str, dict[str, object]] = {
    "base": {},
    "5p": {"players": 5},
    "colour_blocks": {"colour_blocks": True},
}
