"""The Flip City family's card tables and parameters: Flip City (with Office) and Flip City: Wilderness.

Written from ``docs/rules/flip_city.md`` (FC §n) and ``docs/rules/flip_city_wilderness.md`` (§n, "W n" for its
interpretations). Everything a card does that is a number or a label lives here; the rules that read these
tables live in ``flip_city.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from meeplex.errors import InvalidStateError

BASE_ID = "flip_city"
WILDERNESS_ID = "flip_city_wilderness"

# ---------------------------------------------------------------------------------------------------------
# Faces (FC §2, §2.1): a card's faces are 2k (front) and 2k+1 (back); flipping is ``face ^ 1``.
# ---------------------------------------------------------------------------------------------------------

NUM_BASE_FACES = 12  # the base layout
NUM_FAMILY_FACES = 22  # the family layout (§2.2)

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
TRAILER_PARK = 12
COUNTRY_RESORT = 13
LOGGING_SITE = 14
ARCHAEOLOGY_SITE = 15
FARMERS_MARKET = 16
INTERCHANGE = 17
WIND_FARM = 18
AIRPORT = 19
CAMPING_GROUNDS = 20
WATER_RESERVOIR = 21

# What recycling a face does (FC §4.1 "recycle f", §4.2).
RECYCLE_CASH = "cash"  # Shopping Mall: +1 cash
RECYCLE_POINT = "point"  # Station: +1 point
RECYCLE_LIMIT = "limit"  # Church, Trade Center: +1 unhappiness limit
RECYCLE_TOP = "top"  # Power Plant: turns over, goes on top of the deck
RECYCLE_BOTTOM = "bottom"  # Archaeology Site (proposed) / Logging Site (printed): turns over, to the bottom
RECYCLE_INTERCHANGE = "interchange"  # Interchange: + interchange_cash cash
RECYCLE_AIRPORT = "airport"  # Airport: choose a card in any discard pile, shuffle it into that deck
RECYCLE_RESERVOIR = "reservoir"  # Water Reservoir: per reservoir_recycle

DIG_PRICE = 20  # Archaeology Site: "Pay 20 cash to gain 3 points"
DIG_POINTS = 3
RESERVOIR_CASH = 3  # the legend's "Gain 3 cash to use to Flip or Develop this turn"


@dataclass(frozen=True)
class Face:
    """One side of a card, as printed (FC §2, §2.1). ``None``: not printed (no cost, no fee, no recycle)."""

    name: str
    cost: int | None
    cash: int
    points: int
    unhappiness: int
    flip_fee: int | None
    recycle: str | None
    must_play: bool = False  # "When ... is the top card of your deck, you must play it."


# FC §2 with the default parameters (the parameter-dependent entries are set by ``face_table``).
BASE_FACES: tuple[Face, ...] = (
    #    name                 cost  cash pts unh  fee   recycle
    Face("Residential Area", None, 1, 0, 1, 1, None, must_play=True),
    Face("Apartment", None, 1, 0, 1, 8, None),  # unhappiness = apartment_unhappiness (FC interp. 3)
    Face("Convenience Store", 2, 1, 0, 0, 3, None),
    Face("Shopping Mall", None, 2, 1, 0, None, RECYCLE_CASH),  # recycle only if mall_recycle
    Face("Central Park", 7, 0, 2, 0, 5, None),
    Face("Station", None, 0, 2, 0, None, RECYCLE_POINT),  # recycle only if station_recycle
    Face("Hospital", 4, 1, 0, 1, 4, None),  # cash = hospital_cash (FC interp. 1)
    Face("Church", None, 0, 0, 0, None, RECYCLE_LIMIT),
    Face("Office", 3, 1, 0, 0, 4, None),
    Face("Trade Center", None, 0, 0, 0, None, RECYCLE_LIMIT),
    Face("Factory", 5, 2, 0, 0, 6, None),
    Face("Power Plant", None, 1, 2, 0, None, RECYCLE_TOP),
)

# §2.1 with the default parameters.
WILDERNESS_FACES: tuple[Face, ...] = (
    Face("Trailer Park", None, 0, 0, 1, 1, None, must_play=True),  # cash = trailer_cash (W 2)
    Face("Country Resort", None, 1, 0, 0, 9, None),  # unhappiness = resort_unhappiness (W 4)
    Face("Logging Site", 2, 1, 0, 0, 2, None),  # logging_text (W 5)
    Face("Archaeology Site", None, 1, 0, 0, None, RECYCLE_BOTTOM),  # logging_text (W 5)
    Face("Farmer's Market", 3, 2, 0, 1, 4, None),
    Face("Interchange", None, 0, 0, 0, None, RECYCLE_INTERCHANGE),
    Face("Wind Farm", 5, 2, 0, 0, 6, None),
    Face("Airport", None, 0, 2, 0, None, RECYCLE_AIRPORT),  # points = airport_points (W 11)
    Face("Camping Grounds", 4, 0, 0, 0, 8, None),
    Face("Water Reservoir", None, 0, 2, 0, None, RECYCLE_RESERVOIR),  # points = reservoir_points (W 13)
)

ALL_FACES: tuple[Face, ...] = BASE_FACES + WILDERNESS_FACES
FACE_NAMES: tuple[str, ...] = tuple(face.name for face in BASE_FACES)  # the base layout's 12 names
ALL_FACE_NAMES: tuple[str, ...] = tuple(face.name for face in ALL_FACES)


def face_table(params: dict[str, Any], num_faces: int) -> tuple[Face, ...]:
    """The face table of a game (``num_faces`` = 12 or 22) with its parameters applied."""
    faces = list(ALL_FACES[:num_faces])
    faces[APARTMENT] = replace(faces[APARTMENT], unhappiness=params["apartment_unhappiness"])
    faces[HOSPITAL] = replace(faces[HOSPITAL], cash=params["hospital_cash"])
    if not params["mall_recycle"]:
        faces[SHOPPING_MALL] = replace(faces[SHOPPING_MALL], recycle=None)
    if not params["station_recycle"]:
        faces[STATION] = replace(faces[STATION], recycle=None)
    if num_faces > NUM_BASE_FACES:
        faces[TRAILER_PARK] = replace(faces[TRAILER_PARK], cash=params["trailer_cash"])
        faces[COUNTRY_RESORT] = replace(faces[COUNTRY_RESORT], unhappiness=params["resort_unhappiness"])
        if params["logging_text"] == "printed":
            # W 5 `printed`: the cards as the rulebook prints them.
            faces[LOGGING_SITE] = replace(faces[LOGGING_SITE], flip_fee=None, recycle=RECYCLE_BOTTOM)
            # Its "Pay 20 cash to gain 3 points" is a Building-phase recycle (W 7), not in this table.
            faces[ARCHAEOLOGY_SITE] = replace(faces[ARCHAEOLOGY_SITE], flip_fee=2, recycle=None)
        faces[AIRPORT] = replace(faces[AIRPORT], points=params["airport_points"])
        faces[WATER_RESERVOIR] = replace(faces[WATER_RESERVOIR], points=params["reservoir_points"])
    return tuple(faces)


# ---------------------------------------------------------------------------------------------------------
# Piles (§1.1) and title-bar colours (§1.2)
# ---------------------------------------------------------------------------------------------------------

# code -> (front face, pile size), in canonical order (the order of the front face ids).
PILES: dict[str, tuple[int, int]] = {
    "cs": (CONVENIENCE_STORE, 12),
    "park": (CENTRAL_PARK, 8),
    "hosp": (HOSPITAL, 12),
    "off": (OFFICE, 10),
    "fac": (FACTORY, 8),
    "log": (LOGGING_SITE, 12),
    "market": (FARMERS_MARKET, 12),
    "wind": (WIND_FARM, 8),
    "camp": (CAMPING_GROUNDS, 8),
}
WILDERNESS_PILES = frozenset({"log", "market", "wind", "camp"})
SOLO_PILE_SIZE = 4

DEFAULT_PILES = {
    BASE_ID: ("cs", "park", "hosp", "fac"),
    WILDERNESS_ID: ("log", "market", "wind", "camp"),
}

COLOURS: dict[str, dict[str, str]] = {
    # facts B.4 proposal: pair the piles by cost.
    "cost": {
        "cs": "cost-2", "log": "cost-2", "off": "cost-3", "market": "cost-3", "hosp": "cost-4",
        "camp": "cost-4", "fac": "cost-5", "wind": "cost-5", "park": "cost-7",
    },
    # the facts' caveat: pair by pile size, then by cost.
    "size": {
        "cs": "A", "log": "A", "hosp": "B", "market": "B", "fac": "C", "wind": "C", "park": "D",
        "camp": "D", "off": "E",
    },
    # no rule: every pile its own colour.
    "none": {code: code for code in PILES},
}  # fmt: skip

# Each seat's starting deck by id (FC §2; §2.3, Wilderness Preparation 1), as {face: count}.
STARTING_DECKS: dict[str, dict[int, int]] = {
    BASE_ID: {
        RESIDENTIAL_AREA: 4, APARTMENT: 1, CONVENIENCE_STORE: 1, CENTRAL_PARK: 1, HOSPITAL: 1, FACTORY: 1,
    },
    WILDERNESS_ID: {
        TRAILER_PARK: 4, COUNTRY_RESORT: 1, LOGGING_SITE: 1, FARMERS_MARKET: 1, WIND_FARM: 1,
        CAMPING_GROUNDS: 1,
    },
}  # fmt: skip

# ---------------------------------------------------------------------------------------------------------
# Parameters (§1)
# ---------------------------------------------------------------------------------------------------------

# name -> (kind, default, low, high or allowed words). Kinds: int, bool, str (a word).
BASE_PARAMETERS: dict[str, tuple[type, object, object, object]] = {
    "players": (int, 2, 1, 4),
    "office": (bool, False, None, None),
    "max_turns": (int, 100, 1, 1000),
    "apartment_unhappiness": (int, 1, 0, 1),
    "hospital_cash": (int, 1, 0, 1),
    "mall_recycle": (bool, False, None, None),
    "station_recycle": (bool, False, None, None),
}
EXTENSION_PARAMETERS: dict[str, tuple[type, object, object, object]] = {
    "supply": (str, None, None, None),  # default per id (DEFAULT_PILES)
    "colours": (str, "cost", None, ("cost", "size", "none")),
    "trailer_cash": (int, 0, 0, 1),
    "resort_unhappiness": (int, 0, 0, 1),
    "logging_text": (str, "proposed", None, ("proposed", "printed")),
    "interchange_cash": (int, 1, 0, 1),
    "airport_points": (int, 2, 0, 3),
    "reservoir_points": (int, 2, 0, 3),
    "reservoir_recycle": (str, "both", None, ("limit", "cash", "both")),
    "stop_before_play": (bool, False, None, None),
    "station_stack": (bool, True, None, None),
    "dig": (str, "recycle", None, ("recycle", "played")),
}
PARAMETERS = {**BASE_PARAMETERS, **EXTENSION_PARAMETERS}


def _ascii_lower(text: str) -> str:
    """ASCII case folding only (``str.lower`` folds other letters too, e.g. the Kelvin sign to ``k``)."""
    return "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in text)


def canonical_supply(piles: set[str]) -> str:
    return "+".join(code for code in PILES if code in piles)


def parse_supply(game_id: str, value: str) -> set[str]:
    """§1.1: pile codes joined by ``+``, ASCII case ignored; empty, unknown or repeated codes are errors."""
    piles: set[str] = set()
    for part in value.split("+"):
        code = _ascii_lower(part)
        if not code:
            raise InvalidStateError(f"{game_id}: supply {value!r} has an empty pile code")
        if code not in PILES:
            raise InvalidStateError(
                f"{game_id}: supply {value!r}: unknown pile code {part!r} (codes: {list(PILES)})"
            )
        if code in piles:
            raise InvalidStateError(f"{game_id}: supply {value!r} names pile {code!r} twice")
        piles.add(code)
    return piles


def check_colours(game_id: str, piles: set[str], colours: str) -> None:
    """§1.2 (FAQ Q4): no two piles of the supply share a title-bar colour."""
    table = COLOURS[colours]
    seen: dict[str, str] = {}
    for code in PILES:
        if code not in piles:
            continue
        colour = table[code]
        if colour in seen:
            raise InvalidStateError(
                f"{game_id}: supply piles {seen[colour]!r} and {code!r} share the title-bar colour "
                f"{colour!r} (colours={colours}); choose one of them"
            )
        seen[colour] = code


def normalize_params(game_id: str, given: object) -> dict[str, Any]:
    """§1: every key checked, defaults filled in, the supply normalised; ``flip_city`` lists an extension key
    only when it differs from its default."""
    if not isinstance(given, dict):
        raise InvalidStateError(f"{game_id}: parameters must be a dict")
    for key in given:
        if key not in PARAMETERS:
            raise InvalidStateError(f"{game_id}: unknown parameter {key!r}")
    params: dict[str, Any] = {}
    for key, (kind, default, low, high) in PARAMETERS.items():
        if key not in given:
            params[key] = default
            continue
        value = given[key]
        if kind is bool:
            if not isinstance(value, bool):  # an int is not a bool
                raise InvalidStateError(f"{game_id}: parameter {key!r} must be a bool, got {value!r}")
        elif kind is int:
            if isinstance(value, bool) or not isinstance(value, int):  # a bool is not an int
                raise InvalidStateError(f"{game_id}: parameter {key!r} must be an int, got {value!r}")
            assert isinstance(low, int) and isinstance(high, int), "an int parameter has int bounds"
            if not low <= value <= high:
                raise InvalidStateError(f"{game_id}: parameter {key!r} must be in {low}..{high}, got {value}")
            value = int(value)
        else:
            if not isinstance(value, str):
                raise InvalidStateError(f"{game_id}: parameter {key!r} must be a word, got {value!r}")
            assert high is None or isinstance(high, tuple), "a word parameter lists its words, if any"
            if high is not None and value not in high:
                raise InvalidStateError(f"{game_id}: parameter {key!r} must be one of {high}, got {value!r}")
            value = str(value)
        params[key] = value

    # §1.1 the piles: the supply's codes (or the id's default), plus the Office pile when office=true.
    if params["supply"] is None:
        piles = set(DEFAULT_PILES[game_id])
    else:
        piles = parse_supply(game_id, params["supply"])
    if params["office"]:
        piles.add("off")
    check_colours(game_id, piles, params["colours"])
    params["office"] = "off" in piles
    params["supply"] = canonical_supply(piles)

    if game_id == WILDERNESS_ID:
        return params
    out = {key: params[key] for key in BASE_PARAMETERS}
    for key, (_, default, _, _) in EXTENSION_PARAMETERS.items():
        if key == "supply":
            if piles - {"off"} != set(DEFAULT_PILES[BASE_ID]):
                out[key] = params[key]
        elif params[key] != default:
            out[key] = params[key]
    return out


def piles_of(game_id: str, params: dict[str, Any]) -> list[str]:
    """The pile codes of a game with normalised ``params``, in canonical order."""
    if "supply" in params:
        piles = set(params["supply"].split("+"))
    else:  # flip_city with the default supply
        piles = set(DEFAULT_PILES[game_id])
    if params["office"]:
        piles.add("off")
    return [code for code in PILES if code in piles]


def param(params: dict[str, Any], key: str) -> object:
    """A parameter's value, its default when ``flip_city`` left it out of ``params``."""
    if key in params:
        return params[key]
    return EXTENSION_PARAMETERS[key][1]


__all__ = [
    "ALL_FACES",
    "ALL_FACE_NAMES",
    "BASE_FACES",
    "COLOURS",
    "FACE_NAMES",
    "Face",
    "PILES",
    "STARTING_DECKS",
    "WILDERNESS_FACES",
    "face_table",
    "normalize_params",
]
