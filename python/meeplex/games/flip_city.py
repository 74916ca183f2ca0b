"""Flip City for Python users: face and action ids as enums, and named variants (docs/rules/flip_city.md)."""

from __future__ import annotations

from enum import IntEnum


class Face(IntEnum):
    """Card faces; the two faces of a card are ``2k`` (front) and ``2k + 1`` (back)."""

    RESIDENTIAL_AREA = 0
    APARTMENT = 1
    CONVENIENCE_STORE = 2
    SHOPPING_MALL = 3
    CENTRAL_PARK = 4
    STATION = 5
    HOSPITAL = 6
    CHURCH = 7
    OFFICE = 8
    TRADE_CENTER = 9
    FACTORY = 10
    POWER_PLANT = 11

    @property
    def flipped(self) -> Face:
        return Face(self ^ 1)


# Action ids (rules doc §5): a base plus a face, a seat or a count.
PLAY, STOP, END = 0, 1, 2
SHUFFLE, RECYCLE, BUY, DEVELOP, FLIP, TARGET, REMOVE = 3, 14, 26, 38, 50, 62, 66
NUM_ACTIONS = 78

# Named variants: parameter sets for `meeplex list` and `meeplex.make("flip_city", **VARIANTS[name])`.
VARIANTS: dict[str, dict[str, object]] = {
    "base": {},
    "office": {"office": True},
    "solo": {"players": 1},
    "solo_office": {"players": 1, "office": True},
    "rulebook_literal": {
        "apartment_unhappiness": 0,
        "hospital_cash": 0,
        "mall_recycle": False,
        "station_recycle": False,
    },
}
