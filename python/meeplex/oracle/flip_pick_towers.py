"""Flip Pick Towers (1 to 6 players, solo targets, competitive dragons): the pure-Python reference oracle.

Written from the rulebook (``shared/rules/flip_pick_towers.txt``) and the contract
``docs/rules/flip_pick_towers.md``; section numbers (§) refer to that contract, "interp. N" to its numbered
interpretations, and the rulebook by its headings (Set Up, Flip, Pick, Sketch, Dragons, Creature Magic, ...).

Plain and slow on purpose: every rule is one readable step, so that this file can be checked by eye against
the rules and used to catch the Rust core disagreeing with them.

The castle sheet, the resources printed on the cards and the scoring cards are data (§3): the shipped
placeholder ``python/meeplex/data/flip_pick_towers_sheet.json`` (unverified) or a sheet the player supplies
with ``sheet="b64_..."`` (see ``encode_sheet``).

Places where the contract had to be read one way among several are marked ``READING:`` in comments.
"""

from __future__ import annotations

import copy
import functools
import json
import operator
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from importlib import resources as importlib_resources
from typing import Any, SupportsIndex, TypeGuard, cast

import numpy as np

from meeplex._params import game_string
from meeplex._protocols import RngLike
from meeplex.errors import IllegalActionError, InvalidNotationError, InvalidStateError
from meeplex.oracle._datafile import decode_data_file, encode_data_file
from meeplex.oracle._json import same_params
from meeplex.oracle._text import fold_white_space
from meeplex.oracle.rng import random_step

GAME_NAME = "flip_pick_towers"
SERIAL_VERSION = 1
SHEET_FORMAT = "meeplex flip_pick_towers sheet"
SHEET_VERSION = 1
PLACEHOLDER_FILE = "data/flip_pick_towers_sheet.json"

CHANCE = -1
TERMINAL = -4

# Every value in a royal expression, a royal total and a round score is clamped to this (§3.2, §7).
CLAMP = 1_000_000_000

# ---------------------------------------------------------------------------------------------------------
# §2 Components
# ---------------------------------------------------------------------------------------------------------

RESOURCES = ("fabric", "beans", "gold", "glass", "wild")
FABRIC, BEANS, GOLD, GLASS, WILD = range(5)
# §2.2: the decoration each market stall gives (fabric -> banner and glass -> window are proposals).
STALL_DECORATION = ("banner", "beanstalk", "gold", "window")
DECORATIONS = ("banner", "beanstalk", "gold", "window")

FEATURE_NAMES = (
    *(f"floor {v}" for v in range(1, 10)),
    "bridge",
    "roof",
    "Queen",
    "King",
    "Princess",
    "dragon",
    "Derwen",
    "Bwca",
    "Ji-Ji",
    "Sosban",
    "Mab",
)
NUM_FEATURES = 20
BRIDGE = 9
ROOF = 10
QUEEN = 11  # Queen, King, Princess: 11, 12, 13
DRAGON = 14
FIRST_CREATURE = 15
NUM_KINDS = 5 * NUM_FEATURES  # kind = 5 x feature + resource

CREATURES = ("Derwen", "Bwca", "Ji-Ji", "Sosban", "Mab")
DERWEN, BWCA, JIJI, SOSBAN, MAB = range(5)

ROYAL_CONTENTS = ("queen", "king", "princess")

# The sheet file's `resources` keys (§3) and the number of copies of each (§2.1): features 0..14.
RESOURCE_KEYS = (
    *(f"floor {v}" for v in range(1, 10)),
    "bridge",
    "roof",
    "queen",
    "king",
    "princess",
    "dragon",
)
COPIES = (4,) * 14 + (2,)
DECK_SIZE = 63
TURNS_PER_ROUND = DECK_SIZE // 3  # 21

FLAG_BONUSES = (3, 2, 1)  # each round's flag bonus tracker (rulebook, Flags)
CREST_SECTIONS = 3

SHAPES = ("diamond", "star", "rosette")


def is_floor_feature(feature: int) -> bool:
    return 0 <= feature <= 8


def is_creature_feature(feature: int) -> bool:
    return FIRST_CREATURE <= feature < FIRST_CREATURE + 5


# ---------------------------------------------------------------------------------------------------------
# §3 The sheet file
# ---------------------------------------------------------------------------------------------------------

_SHEET_KEYS = frozenset(
    {
        "format",
        "version",
        "name",
        "verified",
        "notes",
        "rows",
        "columns",
        "tower_height_points",
        "beanstalk_points",
        "stalls",
        "bean_heights",
        "creature_spaces",
        "resources",
        "scoring_cards",
    }
)

REGIONS = (
    "self",
    "above",
    "below",
    "left",
    "right",
    "beside",
    "adjacent",
    "around",
    "column",
    "row",
    "higher",
    "lower",
    "castle",
)
KINDS = (
    "empty",
    "any",
    "floor",
    "bare_floor",
    "bridge",
    "roof",
    "dragon",
    "banner",
    "beanstalk",
    "royal",
    "queen",
    "king",
    "princess",
    "window",
    "gold",
    "crossed_gold",
    "flag",
)
MAX_EXPR_DEPTH = 10
MAX_EXPR_NODES = 100


@dataclass(frozen=True)
class Column:
    kind: str  # "tower" or "garden"
    bottom: int
    top: int


@dataclass(frozen=True)
class ScoringCard:
    name: str
    targets: tuple[int, int, int]
    score: object  # the expression, as parsed JSON (lists, str, int)


@dataclass(frozen=True)
class StallColumn:
    """One column of a market stall: its resource, its 1-based number in the stall, its boxes, and (beans) the
    height of the beanstalk it gives."""

    resource: int
    number: int
    boxes: int
    bean_height: int


@dataclass(frozen=True)
class Sheet:
    name: str
    verified: bool
    rows: int
    columns: tuple[Column, ...]
    tower_height_points: tuple[int, ...]
    beanstalk_points: tuple[int, ...]
    stalls: tuple[tuple[int, ...], ...]  # boxes per column, for fabric, beans, gold, glass
    bean_heights: tuple[int, ...]
    creature_spaces: tuple[int, ...]
    resources: tuple[tuple[int, ...], ...]  # per feature 0..14, the resource of each copy
    cards: tuple[ScoringCard, ...]

    @property
    def width(self) -> int:
        return len(self.columns)

    @property
    def num_cells(self) -> int:
        return self.rows * self.width

    def exists(self, r: int, c: int) -> bool:
        if not (0 <= r < self.rows and 0 <= c < self.width):
            return False
        column = self.columns[c]
        return column.bottom <= r <= column.top

    @functools.cached_property
    def stall_columns(self) -> tuple[StallColumn, ...]:
        """Every stall column in box-action order: fabric's, then beans', gold's, glass's (§8)."""
        out = []
        for resource in range(4):
            for index, boxes in enumerate(self.stalls[resource]):
                height = self.bean_heights[index] if resource == BEANS else 0
                out.append(StallColumn(resource, index + 1, boxes, height))
        return tuple(out)

    @functools.cached_property
    def full_deck(self) -> tuple[int, ...]:
        """§2.1: copies per card kind in the 63-card castle deck."""
        deck = [0] * NUM_KINDS
        for feature in range(15):
            for resource in self.resources[feature]:
                deck[5 * feature + resource] += 1
        for creature in range(5):
            deck[5 * (FIRST_CREATURE + creature) + WILD] += 1
        return tuple(deck)


def _sheet_error(message: str) -> InvalidStateError:
    return InvalidStateError(f"{GAME_NAME}: bad sheet file: {message}")


def _strict_pairs(pairs: list[tuple[str, object]]) -> dict[str, object]:
    result: dict[str, object] = {}
    for key, value in pairs:
        if key in result:
            raise _sheet_error(f"key {key!r} given twice")
        result[key] = value
    return result


def _no_float(text: str) -> object:
    raise _sheet_error(f"number {text} is not an integer")


def _no_constant(text: str) -> object:
    raise _sheet_error(f"{text} is not JSON")


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _int_in(value: object, low: int, high: int, what: str) -> int:
    if not _is_int(value) or not low <= value <= high:
        raise _sheet_error(f"{what} must be an int in {low}..{high}, got {value!r}")
    return value


def _int_list(value: object, low: int, high: int, what: str, min_len: int, max_len: int) -> tuple[int, ...]:
    if not isinstance(value, list) or not min_len <= len(value) <= max_len:
        raise _sheet_error(f"{what} must be a list of {min_len}..{max_len} ints")
    return tuple(_int_in(v, low, high, what) for v in value)


def _check_expr(expr: object, is_cond: bool = False) -> tuple[int, int]:
    """§3.2: validate an expression (or a condition); return (depth, nodes)."""
    what = "condition" if is_cond else "expression"
    if not is_cond and _is_int(expr):
        if not -1000 <= expr <= 1000:
            raise _sheet_error(f"literal {expr} is out of -1000..1000")
        return 1, 1
    if not isinstance(expr, list) or not expr or not isinstance(expr[0], str):
        raise _sheet_error(f"not a valid {what}: {expr!r}")
    op, args = expr[0], expr[1:]
    if is_cond:
        if op in ("ge", "le", "eq") and len(args) == 2:
            parts = [_check_expr(a) for a in args]
        elif op in ("and", "or") and len(args) >= 1:
            parts = [_check_expr(a, True) for a in args]
        elif op == "not" and len(args) == 1:
            parts = [_check_expr(args[0], True)]
        else:
            raise _sheet_error(f"not a valid condition: {expr!r}")
        return 1 + max(p[0] for p in parts), 1 + sum(p[1] for p in parts)
    if op == "count":
        if len(args) != 2 or args[0] not in REGIONS or args[1] not in KINDS:
            raise _sheet_error(f"not a valid count: {expr!r}")
        return 1, 1
    if op in ("stability", "height", "tower"):
        if args:
            raise _sheet_error(f"{op} takes no argument: {expr!r}")
        return 1, 1
    if op in ("sum", "mul", "min", "max"):
        if not args:
            raise _sheet_error(f"{op} needs an argument: {expr!r}")
        parts = [_check_expr(a) for a in args]
        return 1 + max(p[0] for p in parts), 1 + sum(p[1] for p in parts)
    if op == "if":
        if len(args) != 3:
            raise _sheet_error(f"not a valid if: {expr!r}")
        parts = [_check_expr(args[0], True), _check_expr(args[1]), _check_expr(args[2])]
        return 1 + max(p[0] for p in parts), 1 + sum(p[1] for p in parts)
    if op == "lookup":
        if len(args) != 2:
            raise _sheet_error(f"not a valid lookup: {expr!r}")
        table = args[1]
        _int_list(table, -1000, 1000, "a lookup table", 1, 32)
        depth, nodes = _check_expr(args[0])
        return 1 + depth, 2 + nodes
    raise _sheet_error(f"unknown {what} {op!r}")


def _resource_id(name: object, what: str) -> int:
    if not isinstance(name, str) or name not in RESOURCES[:4]:
        raise _sheet_error(f"{what} holds {name!r}, not one of fabric, beans, gold, glass")
    return RESOURCES.index(name)


def parse_sheet(text: str) -> Sheet:
    """Read and validate a sheet file (§3); anything wrong raises ``InvalidStateError``."""
    try:
        obj = json.loads(
            text, object_pairs_hook=_strict_pairs, parse_float=_no_float, parse_constant=_no_constant
        )
    except InvalidStateError:
        raise
    except Exception as error:  # JSONDecodeError, RecursionError, ...
        raise _sheet_error(f"not valid JSON ({type(error).__name__})") from None
    if not isinstance(obj, dict):
        raise _sheet_error("not a JSON object")
    _check_strings(obj)
    if obj.keys() != _SHEET_KEYS:
        raise _sheet_error(f"keys must be exactly {sorted(_SHEET_KEYS)}")
    if obj["format"] != SHEET_FORMAT:
        raise _sheet_error(f"format must be {SHEET_FORMAT!r}")
    if not _is_int(obj["version"]) or obj["version"] != SHEET_VERSION:
        raise _sheet_error(f"version must be {SHEET_VERSION}")
    name = obj["name"]
    if not isinstance(name, str) or not 1 <= len(name) <= 64:
        raise _sheet_error("name must be a str of 1..64 characters")
    if not isinstance(obj["verified"], bool):
        raise _sheet_error("verified must be a bool")
    notes = obj["notes"]
    if not isinstance(notes, list) or not all(isinstance(n, str) for n in notes):
        raise _sheet_error("notes must be a list of str")
    rows = _int_in(obj["rows"], 1, 16, "rows")

    columns_obj = obj["columns"]
    if not isinstance(columns_obj, list) or not 1 <= len(columns_obj) <= 12:
        raise _sheet_error("columns must be a list of 1..12 objects")
    columns = []
    for col in columns_obj:
        if not isinstance(col, dict) or col.keys() != {"kind", "bottom", "top"}:
            raise _sheet_error("a column must be exactly {kind, bottom, top}")
        if col["kind"] not in ("tower", "garden") or not isinstance(col["kind"], str):
            raise _sheet_error(f"column kind {col['kind']!r} is not tower or garden")
        bottom = _int_in(col["bottom"], 0, rows - 1, "a column's bottom")
        top = _int_in(col["top"], bottom, rows - 1, "a column's top")
        columns.append(Column(col["kind"], bottom, top))

    tower_points = _int_list(obj["tower_height_points"], 0, 1000, "tower_height_points", rows, rows)
    bean_points = _int_list(obj["beanstalk_points"], 0, 1000, "beanstalk_points", 1, 16)

    stalls_obj = obj["stalls"]
    if not isinstance(stalls_obj, dict) or stalls_obj.keys() != set(RESOURCES[:4]):
        raise _sheet_error("stalls must have exactly the keys fabric, beans, gold, glass")
    stalls = tuple(_int_list(stalls_obj[r], 1, 9, f"stall {r}", 1, 8) for r in RESOURCES[:4])
    bean_heights = _int_list(
        obj["bean_heights"], 1, len(bean_points), "bean_heights", len(stalls[BEANS]), len(stalls[BEANS])
    )
    spaces = _int_list(obj["creature_spaces"], 1, 9, "creature_spaces", 5, 5)

    res_obj = obj["resources"]
    if not isinstance(res_obj, dict) or res_obj.keys() != set(RESOURCE_KEYS):
        raise _sheet_error(f"resources must have exactly the keys {list(RESOURCE_KEYS)}")
    resources = []
    for key, copies in zip(RESOURCE_KEYS, COPIES, strict=True):
        value = res_obj[key]
        if not isinstance(value, list) or len(value) != copies:
            raise _sheet_error(f"resources[{key!r}] must list {copies} resources")
        resources.append(tuple(_resource_id(v, f"resources[{key!r}]") for v in value))

    cards_obj = obj["scoring_cards"]
    if not isinstance(cards_obj, list) or not 3 <= len(cards_obj) <= 64:
        raise _sheet_error("scoring_cards must be a list of 3..64 cards")
    cards = []
    names: set[str] = set()
    for card in cards_obj:
        if not isinstance(card, dict) or card.keys() != {"name", "targets", "score"}:
            raise _sheet_error("a scoring card must be exactly {name, targets, score}")
        card_name = card["name"]
        if not isinstance(card_name, str) or not 1 <= len(card_name) <= 64 or card_name in names:
            raise _sheet_error(f"scoring card name {card_name!r} is not a new str of 1..64 characters")
        names.add(card_name)
        first, second, third = _int_list(card["targets"], 0, 1000, "a card's targets", 3, 3)
        targets = (first, second, third)
        depth, nodes = _check_expr(card["score"])
        if depth > MAX_EXPR_DEPTH or nodes > MAX_EXPR_NODES:
            raise _sheet_error(f"card {card_name!r}: expression too deep ({depth}) or too big ({nodes})")
        cards.append(ScoringCard(card_name, targets, card["score"]))

    return Sheet(
        name=name,
        verified=obj["verified"],
        rows=rows,
        columns=tuple(columns),
        tower_height_points=tower_points,
        beanstalk_points=bean_points,
        stalls=stalls,
        bean_heights=bean_heights,
        creature_spaces=spaces,
        resources=tuple(resources),
        cards=tuple(cards),
    )


def _check_strings(value: object) -> None:
    """READING (§3): a string escaping a lone surrogate (``"\\ud800"``) is not valid text; strict JSON readers
    (serde_json) refuse it, so the oracle does too."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise _sheet_error("a string holds a lone surrogate") from None
    elif isinstance(value, list):
        for item in value:
            _check_strings(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_strings(key)
            _check_strings(item)


def encode_sheet(text: str) -> str:
    """The ``sheet`` parameter for a sheet file given as text (§3.1): ``"b64_"`` + base64url, no padding."""
    return encode_data_file(text)


def placeholder_text() -> str:
    """The shipped, unverified placeholder sheet file."""
    return importlib_resources.files("meeplex").joinpath(PLACEHOLDER_FILE).read_text(encoding="utf-8")


@functools.lru_cache(maxsize=32)
def load_sheet(value: str) -> Sheet:
    """§3.1: the sheet named by the ``sheet`` parameter."""
    return parse_sheet(decode_data_file(value, f"{GAME_NAME}: sheet", placeholder_text))


# ---------------------------------------------------------------------------------------------------------
# §1 Parameters
# ---------------------------------------------------------------------------------------------------------

DEFAULT_PARAMS: dict[str, object] = {
    "competitive": False,
    "dragon_per_card": False,
    "garden_towers": True,
    "players": 2,
    "sheet": "placeholder",
    "target": "star",
}


def normalize_params(given: Mapping[str, object]) -> dict[str, Any]:
    for key in given:
        if key not in DEFAULT_PARAMS:
            raise InvalidStateError(f"{GAME_NAME}: unknown parameter {key!r}")
    params: dict[str, Any] = {}
    for key, default in DEFAULT_PARAMS.items():
        value = given.get(key, default)
        if isinstance(default, bool):
            if not isinstance(value, bool):
                raise InvalidStateError(f"{GAME_NAME}: parameter {key!r} must be a bool, got {value!r}")
        elif isinstance(default, int):
            if not _is_int(value):
                raise InvalidStateError(f"{GAME_NAME}: parameter {key!r} must be an int, got {value!r}")
            value = int(value)
        elif not isinstance(value, str):
            raise InvalidStateError(f"{GAME_NAME}: parameter {key!r} must be a str, got {value!r}")
        params[key] = value
    if not 1 <= params["players"] <= 6:
        raise InvalidStateError(f"{GAME_NAME}: players must be in 1..6, got {params['players']}")
    if params["target"] not in SHAPES:
        raise InvalidStateError(f"{GAME_NAME}: target must be one of {SHAPES}, got {params['target']!r}")
    if params["competitive"] and params["players"] < 2:
        raise InvalidStateError(f"{GAME_NAME}: the competitive variant needs 2 or more players")
    load_sheet(params["sheet"])  # validates it
    return params


# ---------------------------------------------------------------------------------------------------------
# §8 Actions
# ---------------------------------------------------------------------------------------------------------

PICK = 0  # 0, 1, 2: pick display slot 0, 1, 2
NO_MAGIC = 3
MAGIC = 4  # 4 + creature
STABILITY_MINUS = 9
STABILITY_PLUS = 10
CELL = 11  # 11 + cell id; boxes follow the cells

COLUMN_LETTERS = "abcdefghijkl"


def _normalize_text(text: str) -> str:
    """Relaxed notation (§8): ASCII case folded, surrounding and repeated inner white space ignored."""
    return fold_white_space(text)


def _as_int(value: object) -> int | None:
    """An int-like value as an int; None for anything else, bools included."""
    if isinstance(value, (bool, np.bool_)):
        return None
    try:
        return operator.index(cast(SupportsIndex, value))  # anything else raises the TypeError below
    except TypeError:
        return None


def kind_text(kind: int) -> str:
    """``<feature> <resource>`` of a card kind (§8)."""
    return f"{FEATURE_NAMES[kind // 5]} {RESOURCES[kind % 5]}"


# ---------------------------------------------------------------------------------------------------------
# Cells (§2.2) and their serialized tokens (§10)
# ---------------------------------------------------------------------------------------------------------

MISSING = "missing"
EMPTY = "empty"
FLOOR = "floor"
BRIDGE_EL = "bridge"
ROOF_EL = "roof"
DRAGON_EL = "dragon"
BANNER_TOP = "banner_top"
BANNER_BOTTOM = "banner_bottom"
BEANSTALK = "beanstalk"

CONTENTS = ("none", "queen", "king", "princess", "gold", "crossed", "window")
CONTENT_LETTERS = {
    "none": "-",
    "queen": "q",
    "king": "k",
    "princess": "p",
    "gold": "g",
    "crossed": "x",
    "window": "w",
}
LETTER_CONTENTS = {letter: content for content, letter in CONTENT_LETTERS.items()}
SIMPLE_TOKENS = {
    "#": MISSING,
    ".": EMPTY,
    "B": BRIDGE_EL,
    "D": DRAGON_EL,
    "N": BANNER_TOP,
    "n": BANNER_BOTTOM,
    "S": BEANSTALK,
}
ELEMENT_TOKENS = {element: token for token, element in SIMPLE_TOKENS.items()}
_FLOOR_TOKEN = re.compile(r"^F(10|[0-9])([-qkpgxw])$")
_ROOF_TOKEN = re.compile(r"^R([0-3])$")


@dataclass(slots=True)
class Cell:
    element: str = EMPTY
    stability: int = 0  # floors only
    content: str = "none"  # floors only
    flags: int = 0  # roofs only

    def token(self) -> str:
        if self.element == FLOOR:
            return f"F{self.stability}{CONTENT_LETTERS[self.content]}"
        if self.element == ROOF_EL:
            return f"R{self.flags}"
        return ELEMENT_TOKENS[self.element]

    def copy(self) -> Cell:
        return Cell(self.element, self.stability, self.content, self.flags)

    def features(self) -> list[float]:
        """The cell's 14 observation values (§9.1)."""
        floor = self.element == FLOOR
        values = [0.0] * 14
        if floor:
            values[0] = 1.0
            values[1] = float(self.stability)
            if self.content != "none":
                values[1 + CONTENTS.index(self.content)] = 1.0  # queen..window at 2..7
        elif self.element == BRIDGE_EL:
            values[8] = 1.0
        elif self.element == ROOF_EL:
            values[9] = 1.0
            values[10] = float(self.flags)
        elif self.element == DRAGON_EL:
            values[11] = 1.0
        elif self.element in (BANNER_TOP, BANNER_BOTTOM):
            values[12] = 1.0
        elif self.element == BEANSTALK:
            values[13] = 1.0
        return values

    def is_floor(self) -> bool:
        return self.element == FLOOR


def cell_from_token(token: object) -> Cell | None:
    if not isinstance(token, str):
        return None
    if token in SIMPLE_TOKENS:
        return Cell(SIMPLE_TOKENS[token])
    match = _FLOOR_TOKEN.match(token)
    if match:
        return Cell(FLOOR, int(match.group(1)), LETTER_CONTENTS[match.group(2)])
    match = _ROOF_TOKEN.match(token)
    if match:
        return Cell(ROOF_EL, flags=int(match.group(1)))
    return None


def _clamp(value: int) -> int:
    return max(-CLAMP, min(CLAMP, value))


# ---------------------------------------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------------------------------------


class FlipPickTowersGame:
    """Flip Pick Towers with one set of parameters (§1) and its sheet file (§3)."""

    name = GAME_NAME

    def __init__(self, params: Mapping[str, object] | None = None, **keywords: object) -> None:
        if params is not None and not isinstance(params, Mapping):
            raise InvalidStateError(f"{GAME_NAME}: parameters must be a mapping, not {type(params).__name__}")
        given = dict(params or {})
        for key, value in keywords.items():
            if key in given:
                raise InvalidStateError(f"{GAME_NAME}: parameter {key!r} given twice")
            given[key] = value
        self._params = normalize_params(given)
        self.sheet: Sheet = load_sheet(self._params["sheet"])
        self.players: int = self._params["players"]
        self.solo: bool = self.players == 1
        self.competitive: bool = self._params["competitive"]
        self.dragon_per_card: bool = self._params["dragon_per_card"]
        self.garden_towers: bool = self._params["garden_towers"]
        self.shape: int = SHAPES.index(self._params["target"])
        sheet = self.sheet
        self.num_cells = sheet.num_cells
        self.box_base = CELL + self.num_cells
        self.num_boxes = len(sheet.stall_columns)
        self._decision_texts = self._make_decision_texts()
        self._text_to_decision = {_normalize_text(t): a for a, t in enumerate(self._decision_texts)}
        self._text_to_deal: dict[str, int] = {}
        for index in range(len(sheet.cards)):
            self._text_to_deal[f"deal {index + 1}"] = index
            self._text_to_deal[f"{index + 1}"] = index
        self._text_to_kind: dict[str, int] = {}
        for kind in range(NUM_KINDS):
            text = _normalize_text(kind_text(kind))
            self._text_to_kind[text] = kind
            self._text_to_kind["reveal " + text] = kind

    def _make_decision_texts(self) -> list[str]:
        texts = ["pick 1", "pick 2", "pick 3", "no magic"]
        texts += [f"magic {name}" for name in CREATURES]
        texts += ["stability -1", "stability +1"]
        texts += [self.cell_name(cell) for cell in range(self.num_cells)]
        texts += [f"{RESOURCES[col.resource]} {col.number}" for col in self.sheet.stall_columns]
        return texts

    def cell_name(self, cell: int) -> str:
        """``a1`` is column 0, row 0 (§8)."""
        r, c = divmod(cell, self.sheet.width)
        return f"{COLUMN_LETTERS[c]}{r + 1}"

    @property
    def params(self) -> dict[str, Any]:
        return dict(self._params)

    def num_players(self) -> int:
        return self.players

    def num_distinct_actions(self) -> int:
        """§8: ``11 + N + S``."""
        return CELL + self.num_cells + self.num_boxes

    def max_chance_outcomes(self) -> int:
        """§8: ``max(100, M)``."""
        return max(NUM_KINDS, len(self.sheet.cards))

    def max_game_length(self) -> int:
        """§8: ``3 + 42 x (3 + 14 x players)``."""
        return 3 + 2 * TURNS_PER_ROUND * (3 + 14 * self.players)

    def per_seat_size(self) -> int:
        return 14 * self.num_cells + self.num_boxes + 19

    def observation_shape(self) -> tuple[int, ...]:
        """§9.1: ``players x (14N + S + 21) + 3M + 210``."""
        return (self.players * (14 * self.num_cells + self.num_boxes + 21) + 3 * len(self.sheet.cards) + 210,)

    def new_initial_state(self) -> FlipPickTowersState:
        """§5.2 Setup."""
        state = FlipPickTowersState(
            game=self,
            seats=[self._empty_seat() for _ in range(self.players)],
            deck=list(self.sheet.full_deck),
        )
        state._settle()
        return state

    def _empty_seat(self) -> SeatState:
        sheet = self.sheet
        grid = []
        for cell in range(self.num_cells):
            r, c = divmod(cell, sheet.width)
            grid.append(Cell(EMPTY if sheet.exists(r, c) else MISSING))
        return SeatState(
            grid=grid,
            stalls=[[0] * len(sheet.stalls[res]) for res in range(4)],
            gained=[0] * 5,
            used=[0] * 5,
        )

    def deserialize_state(self, text: object) -> FlipPickTowersState:
        """The inverse of ``serialize``; anything malformed or inconsistent (§10) raises
        ``InvalidStateError``."""
        return _deserialize(self, text)

    def __str__(self) -> str:
        return game_string(GAME_NAME, self._params)

    def __repr__(self) -> str:
        return f"FlipPickTowersGame({str(self)[:120]!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FlipPickTowersGame) and other._params == self._params

    def __hash__(self) -> int:
        return hash(str(self))


# ---------------------------------------------------------------------------------------------------------
# The state
# ---------------------------------------------------------------------------------------------------------


@dataclass
class SeatState:
    """One castle sheet (§5.1): grid cells by id ``r x C + c``, stall fills, creature spaces, crest,
    scores."""

    grid: list[Cell]
    stalls: list[list[int]]
    gained: list[int]
    used: list[int]
    crest: int = 0
    round_scores: list[int] = field(default_factory=lambda: [0, 0])
    pick: int = -1
    roof: int = -1
    flagged: bool = False  # took one of this round's flag bonuses (§5.7: players, not turns)

    def clone(self) -> SeatState:
        return SeatState(
            grid=[cell.copy() for cell in self.grid],
            stalls=[list(s) for s in self.stalls],
            gained=list(self.gained),
            used=list(self.used),
            crest=self.crest,
            round_scores=list(self.round_scores),
            pick=self.pick,
            roof=self.roof,
            flagged=self.flagged,
        )


STEPS = ("deal", "flip", "dragon", "pick", "sketch", "over")
TASKS = ("none", "magic", "bwca", "feature", "derwen", "box", "decoration")


@dataclass
class FlipPickTowersState:
    """A Flip Pick Towers position: the fields of §5.1 / §10, with the game it belongs to."""

    game: FlipPickTowersGame
    seats: list[SeatState]
    deck: list[int]
    step: str = "deal"
    round: int = 1
    turn: int = 0
    flags_taken: int = 0
    final_turn: bool = False
    royal_cards: list[int] = field(default_factory=lambda: [-1, -1, -1])
    display: list[int] = field(default_factory=list)
    seat: int = 0
    dragons_left: int = 0
    task: str = "none"
    magic: int = -1
    delta: int = 0
    pass_: int = 0
    queue: list[int] = field(default_factory=list)
    decoration: str = "none"
    bean_height: int = 0
    actions: list[int] = field(default_factory=list)

    # ----- whose move (§5.3) -----

    def current_player(self) -> int:
        if self.step == "over":
            return TERMINAL
        if self.step in ("deal", "flip"):
            return CHANCE
        if self.step == "dragon" and self.game.competitive:
            return (self.seat + 1) % self.game.players  # interp. 20: the seat to the left decides
        return self.seat

    def is_terminal(self) -> bool:
        return self.step == "over"

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    # ----- grid helpers (§6) -----

    def _at(self, seat: SeatState, r: int, c: int) -> Cell | None:
        """The cell (r, c) if it exists on the sheet, else None ("nothing outside the grid")."""
        sheet = self.game.sheet
        if not sheet.exists(r, c):
            return None
        return seat.grid[r * sheet.width + c]

    def _is_floor(self, seat: SeatState, r: int, c: int) -> bool:
        cell = self._at(seat, r, c)
        return cell is not None and cell.is_floor()

    def _cells(self) -> Iterator[tuple[int, int, int]]:
        """Every existing cell as (id, r, c)."""
        sheet = self.game.sheet
        for cell in range(sheet.num_cells):
            r, c = divmod(cell, sheet.width)
            if sheet.exists(r, c):
                yield cell, r, c

    def floor_cells(self, seat: SeatState, stability: int, sosban: bool) -> list[int]:
        """§6: where a floor of this stability may go."""
        sheet = self.game.sheet
        out = []
        for cell, r, c in self._cells():
            if seat.grid[cell].element != EMPTY:
                continue
            column = sheet.columns[c]
            if r == column.bottom:
                ok = column.kind == "tower"  # a foundation (grass never supports a floor)
            else:
                below = seat.grid[cell - sheet.width]
                ok = below.element == BRIDGE_EL or (
                    below.element == FLOOR and (below.stability > stability or sosban)
                )
            if ok:
                out.append(cell)
        return out

    def _on_a_floor_cells(self, seat: SeatState) -> list[int]:
        """Empty cells directly on top of a floor (roofs, dragons: FAQ Q5-Q7)."""
        sheet = self.game.sheet
        out = []
        for cell, r, c in self._cells():
            if seat.grid[cell].element == EMPTY and r > sheet.columns[c].bottom:
                if seat.grid[cell - sheet.width].element == FLOOR:
                    out.append(cell)
        return out

    def _empty_floor_cells(self, seat: SeatState) -> list[int]:
        """Floors with no content (royals, bags of gold, windows)."""
        return [
            cell
            for cell, _, _ in self._cells()
            if seat.grid[cell].is_floor() and seat.grid[cell].content == "none"
        ]

    def feature_cells(self, seat: SeatState, feature: int) -> list[int]:
        """§6 feature_cells."""
        if is_floor_feature(feature):
            stability = feature + 1 + self.delta
            return self.floor_cells(seat, stability, self.magic == SOSBAN and self.pass_ == 1)
        if feature == BRIDGE:
            return [
                cell
                for cell, r, c in self._cells()
                if seat.grid[cell].element == EMPTY
                and self._is_floor(seat, r, c - 1)
                and self._is_floor(seat, r, c + 1)
            ]
        if feature in (ROOF, DRAGON):
            return self._on_a_floor_cells(seat)
        if QUEEN <= feature <= QUEEN + 2:
            return self._empty_floor_cells(seat)
        raise AssertionError(feature)  # pragma: no cover - creatures are not placed in cells

    def decoration_cells(self, seat: SeatState) -> list[int]:
        """§6 decoration_cells for the pending decoration."""
        sheet = self.game.sheet
        if self.decoration == "banner":
            out = []
            for cell, r, c in self._cells():
                if seat.grid[cell].element != EMPTY:
                    continue
                lower = self._at(seat, r - 1, c)
                if lower is None or lower.element != EMPTY:
                    continue
                if self._is_floor(seat, r, c - 1) or self._is_floor(seat, r, c + 1):
                    out.append(cell)
            return out
        if self.decoration in ("gold", "window"):
            return self._empty_floor_cells(seat)
        if self.decoration == "beanstalk":
            out = []
            height = self.bean_height
            for c, column in enumerate(sheet.columns):
                if column.kind != "garden" or column.bottom + height - 1 > column.top:
                    continue
                span = range(column.bottom, column.bottom + height)
                if all(seat.grid[r * sheet.width + c].element == EMPTY for r in span):
                    out.append(column.bottom * sheet.width + c)
            return sorted(out)
        raise AssertionError(self.decoration)  # pragma: no cover

    def dragon_options(self, seat: SeatState) -> list[int]:
        """§5.4: a dragon directly on top of a floor, or a bag of gold to cross out."""
        gold = [
            cell
            for cell, _, _ in self._cells()
            if seat.grid[cell].is_floor() and seat.grid[cell].content == "gold"
        ]
        return sorted(self._on_a_floor_cells(seat) + gold)

    def usable_creatures(self, seat: SeatState) -> list[int]:
        """§5.6 magic: gained and not used; Bwca and Sosban only for a floor (interp. 7)."""
        feature = self._feature()
        out = []
        for creature in range(5):
            if seat.gained[creature] < 1:
                continue
            if creature in (BWCA, SOSBAN) and not is_floor_feature(feature):
                continue
            out.append(creature)
        return out

    def box_options(self, seat: SeatState, resource: int) -> list[int]:
        """Stall columns (global index j) that can take a box of this resource (wild: any stall)."""
        out = []
        for j, column in enumerate(self.game.sheet.stall_columns):
            if resource != WILD and column.resource != resource:
                continue
            if seat.stalls[column.resource][column.number - 1] < column.boxes:
                out.append(j)
        return out

    # ----- the automatic steps (§5.3, §5.6, §5.7, §5.8) -----

    def _bwca_allows(self, delta: int) -> bool:
        """§5.6 bwca: FAQ 2, "You must add a feature if you are able": a sign that leaves the floor no cell is
        refused when the other sign gives it one."""
        seat = self.seats[self.seat]
        stability = self._feature() + 1

        def fits(d: int) -> bool:
            return bool(self.floor_cells(seat, stability + d, False))

        return fits(delta) or not fits(-delta)

    def _feature(self) -> int:
        seat = self.seats[self.seat]
        return self.display[seat.pick] // 5

    def _dragons_per_seat(self) -> int:
        dragons = sum(1 for kind in self.display if kind // 5 == DRAGON)
        if dragons == 0:
            return 0
        return dragons if self.game.dragon_per_card else 1  # interp. 8

    def _scribble(self, seat: SeatState) -> None:
        seat.crest = min(CREST_SECTIONS, seat.crest + 1)  # interp. 21

    def _settle(self) -> None:
        players = self.game.players
        while True:
            if self.step == "over":
                return
            if self.step == "deal":
                if -1 in self.royal_cards:
                    return
                self.step = "flip"
            elif self.step == "flip":
                if not self.display and sum(self.deck) < 3:
                    self._end_round()  # "If you are unable to flip 3 cards ... move to End of Round."
                elif len(self.display) < 3:
                    return
                else:
                    dragons = self._dragons_per_seat()
                    self.seat = 0
                    if dragons == 0:
                        self.step = "pick"
                    else:
                        self.step = "dragon"
                        self.dragons_left = dragons
            elif self.step == "dragon":
                if self.seat == players:
                    self.step = "pick"
                    self.seat = 0
                    self.dragons_left = 0
                elif self.dragons_left == 0:
                    self.seat += 1
                    if self.seat < players:
                        self.dragons_left = self._dragons_per_seat()
                elif self.dragon_options(self.seats[self.seat]):
                    return
                else:
                    # "If you have no bag of gold to give and no suitable places to add a dragon, instead
                    # decorate a section of your family crest."
                    self._scribble(self.seats[self.seat])
                    self.dragons_left -= 1
            elif self.step == "pick":
                if self.seat == players:
                    self.step = "sketch"
                    self.seat = 0
                    self._begin_sketch()
                else:
                    return
            elif self.step == "sketch":
                if self.seat == players:
                    self._end_turn()
                elif self._task_step():
                    return
            else:  # pragma: no cover
                raise AssertionError(self.step)

    def _begin_sketch(self) -> None:
        self.task = "magic"
        self.magic = -1
        self.delta = 0
        self.pass_ = 1
        self.queue = []
        self.decoration = "none"
        self.bean_height = 0

    def _reset_sketch(self) -> None:
        self.task = "none"
        self.magic = -1
        self.delta = 0
        self.pass_ = 0
        self.queue = []
        self.decoration = "none"
        self.bean_height = 0

    def _task_step(self) -> bool:
        """One automatic step of the sketch task machine (§5.6); True when a decision is pending instead."""
        seat = self.seats[self.seat]
        feature = self._feature()
        if self.task == "magic":
            if self.usable_creatures(seat):
                return True
            self.task = "bwca"
        elif self.task == "bwca":
            if self.magic == BWCA:
                return True
            self.task = "feature"
        elif self.task == "feature":
            if is_creature_feature(feature):
                creature = feature - FIRST_CREATURE
                if seat.gained[creature] + seat.used[creature] < self.game.sheet.creature_spaces[creature]:
                    seat.gained[creature] += 1  # a stroke in a blank X space
                else:
                    self._scribble(seat)  # interp. 22
                self._after_feature()
            elif self.feature_cells(seat, feature):
                return True
            else:
                self._scribble(seat)  # "If you are unable to add your chosen card's feature"
                self._after_feature()
        elif self.task == "derwen":
            if self.floor_cells(seat, 1, False):
                return True
            self._load_queue()  # Derwen's floor fits nowhere: lost
            self.task = "box"
        elif self.task == "box":
            if not self.queue:
                if self.pass_ == 1 and self.magic == MAB:
                    self.pass_ = 2  # Mab: "Immediately pick the same castle card again."
                    self.task = "feature"
                else:
                    self.seat += 1
                    if self.seat < self.game.players:
                        self._begin_sketch()
                    else:
                        self._reset_sketch()
            elif self.box_options(seat, self.queue[0]):
                return True
            else:
                self.queue.pop(0)  # "If there is no space ... the resource is lost. Arrggh."
        elif self.task == "decoration":
            if self.decoration_cells(seat):
                return True
            self.decoration = "none"  # "it is lost and not added. Blasted blip!"
            self.bean_height = 0
            self.task = "box"
        else:  # pragma: no cover
            raise AssertionError(self.task)
        return False

    def _after_feature(self) -> None:
        if self.pass_ == 1 and self.magic == DERWEN:
            self.task = "derwen"
        else:
            self._load_queue()
            self.task = "box"

    def _load_queue(self) -> None:
        seat = self.seats[self.seat]
        card = self.display[seat.pick]
        self.queue = [card % 5]
        if self.pass_ == 1 and self.magic == JIJI:
            # Ji-Ji: "Also gain the other resources in the display." (slot order)
            self.queue += [self.display[slot] % 5 for slot in range(3) if slot != seat.pick]

    def _end_turn(self) -> None:
        """§5.7: flags, refresh, the final-turn check."""
        # "The first player to add a roof in each round ... The second player ...": players, not turns, so a
        # seat that took a bonus this round takes no other.
        roofers = [seat for seat in self.seats if seat.roof >= 0 and not seat.flagged]
        if roofers and self.flags_taken < len(FLAG_BONUSES):
            bonus = FLAG_BONUSES[self.flags_taken]
            for seat in roofers:
                seat.grid[seat.roof].flags = bonus  # "each of those players add the same number of flags"
                seat.flagged = True
            self.flags_taken += 1
        self.display = []
        for seat in self.seats:
            seat.pick = -1
            seat.roof = -1
        self.turn += 1
        self.seat = 0
        self._reset_sketch()
        if self.final_turn:
            self._end_round()
            return
        if any(seat.crest == CREST_SECTIONS for seat in self.seats):
            self.final_turn = True  # "FLIP, PICK, and SKETCH one final time" (interp. 17)
        self.step = "flip"

    def _end_round(self) -> None:
        """§5.8."""
        scores = [self.round_score(index) for index in range(self.game.players)]
        for seat, score in zip(self.seats, scores, strict=True):
            seat.round_scores[self.round - 1] = score
        if self.round == 2 or self.final_turn:
            self.step = "over"
            self.display = []
            self.seat = 0
        else:
            self.round = 2
            self.turn = 0
            self.flags_taken = 0
            for seat in self.seats:
                seat.flagged = False
            self.deck = list(self.game.sheet.full_deck)  # "shuffle the castle cards together"
            self.step = "flip"

    # ----- scoring (§7) -----

    def round_score(self, index: int) -> int:
        """End of Round Scoring for one seat, in the rulebook's order."""
        seat = self.seats[index]
        sheet = self.game.sheet
        width = sheet.width
        total = 0
        # 1. Highest Floor.
        for c, column in enumerate(sheet.columns):
            if column.kind == "garden" and not self.game.garden_towers:
                continue
            rows = [r for r in range(column.bottom, column.top + 1) if seat.grid[r * width + c].is_floor()]
            if rows:
                total += sheet.tower_height_points[max(rows)]
        cells = [seat.grid[cell] for cell, _, _ in self._cells()]
        # 2. Flags: 2 points each.
        total += 2 * sum(cell.flags for cell in cells if cell.element == ROOF_EL)
        # 3. Banners: 2 points each.
        total += 2 * sum(1 for cell in cells if cell.element == BANNER_TOP)
        # 4. Bags of gold: 4 points each (crossed out: 0).
        total += 4 * sum(1 for cell in cells if cell.is_floor() and cell.content == "gold")
        # 5. Windows.
        total += self._window_points(index)
        # 6. Beanstalks.
        for c, column in enumerate(sheet.columns):
            if column.kind != "garden":
                continue
            height = 0
            while column.bottom + height <= column.top and (
                seat.grid[(column.bottom + height) * width + c].element == BEANSTALK
            ):
                height += 1
            if height:
                total += sheet.beanstalk_points[height - 1]
        # 7. Royals.
        for royal in range(3):
            total += self.royal_points(index, royal)
        return _clamp(total)

    def _window_points(self, index: int) -> int:
        counts = [self._windows(seat) for seat in self.seats]
        mine = counts[index]
        if self.game.solo:
            return 3 * mine  # Solo: "Each window scores 3 points."
        most = max(counts)
        if mine >= 1 and mine == most:
            return 12
        lower = [w for w in counts if w < most]
        if lower and mine >= 1 and mine == max(lower):  # interp. 13, 14
            return 6
        return 0

    def _windows(self, seat: SeatState) -> int:
        return sum(
            1
            for cell, _, _ in self._cells()
            if seat.grid[cell].is_floor() and seat.grid[cell].content == "window"
        )

    def royal_points(self, index: int, royal: int) -> int:
        """§3.2: the royal tile's card summed over this seat's royals of that type."""
        card_index = self.royal_cards[royal]
        if card_index < 0:
            return 0
        card = self.game.sheet.cards[card_index]
        seat = self.seats[index]
        total = 0
        for cell, r, c in self._cells():
            if seat.grid[cell].is_floor() and seat.grid[cell].content == ROYAL_CONTENTS[royal]:
                total += _RoyalContext(self, seat, r, c).evaluate(card.score)
        return _clamp(total)

    # ----- chance -----

    def chance_weights(self) -> list[tuple[int, int]]:
        if self.step == "deal":
            dealt = set(self.royal_cards)
            return [(i, 1) for i in range(len(self.game.sheet.cards)) if i not in dealt]
        if self.step == "flip":
            return [(kind, count) for kind, count in enumerate(self.deck) if count > 0]
        return []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        weights = self.chance_weights()
        total = sum(w for _, w in weights)
        return [(a, w / total) for a, w in weights]

    def random_step(self, rng: RngLike) -> int:
        """DESIGN's random step with ``rng`` (either engine's Rng), applied; returns the action taken."""
        return random_step(self, rng)

    # ----- legal actions -----

    def legal_actions(self) -> list[int]:
        player = self.current_player()
        if player == TERMINAL:
            return []
        if player == CHANCE:
            return [a for a, _ in self.chance_weights()]
        return sorted(self._decision_actions())

    def _decision_actions(self) -> list[int]:
        seat = self.seats[self.seat]
        if self.step == "dragon":
            return [CELL + cell for cell in self.dragon_options(seat)]
        if self.step == "pick":
            return [PICK, PICK + 1, PICK + 2]
        # sketch
        if self.task == "magic":
            return [NO_MAGIC] + [MAGIC + c for c in self.usable_creatures(seat)]
        if self.task == "bwca":
            return [
                action
                for action, delta in ((STABILITY_MINUS, -1), (STABILITY_PLUS, 1))
                if self._bwca_allows(delta)
            ]
        if self.task == "feature":
            return [CELL + cell for cell in self.feature_cells(seat, self._feature())]
        if self.task == "derwen":
            return [CELL + cell for cell in self.floor_cells(seat, 1, False)]
        if self.task == "box":
            return [self.game.box_base + j for j in self.box_options(seat, self.queue[0])]
        if self.task == "decoration":
            return [CELL + cell for cell in self.decoration_cells(seat)]
        raise AssertionError(self.task)  # pragma: no cover

    def legal_actions_mask(self) -> np.ndarray:
        size = self.game.max_chance_outcomes() if self.is_chance_node() else self.game.num_distinct_actions()
        mask = np.zeros(size, dtype=np.int8)
        for action in self.legal_actions():
            mask[action] = 1
        return mask

    # ----- applying actions -----

    def apply_action(self, action: object) -> None:
        """Apply a legal action or chance outcome; anything else raises ``IllegalActionError`` and changes
        nothing."""
        player = self.current_player()
        value = _as_int(action)
        if value is None or value not in self.legal_actions():
            raise IllegalActionError(
                f"{GAME_NAME}: action {action!r} is not legal for seat {player} in this state"
            )
        if player == CHANCE:
            if self.step == "deal":
                self.royal_cards[self.royal_cards.index(-1)] = value
            else:
                self.deck[value] -= 1
                self.display.append(value)
        else:
            self._apply_decision(value)
        self.actions.append(value)
        self._settle()

    def _apply_decision(self, action: int) -> None:
        seat = self.seats[self.seat]
        if self.step == "dragon":
            cell = seat.grid[action - CELL]
            if cell.element == EMPTY:
                cell.element = DRAGON_EL  # A. "Add a dragon directly on top of a floor."
            else:
                cell.content = "crossed"  # B. "Reluctantly cross out one of your existing bags of gold."
            self.dragons_left -= 1
            return
        if self.step == "pick":
            seat.pick = action - PICK
            self.seat += 1
            return
        if self.task == "magic":
            if action != NO_MAGIC:
                creature = action - MAGIC
                seat.gained[creature] -= 1  # the second diagonal line: used
                seat.used[creature] += 1
                self.magic = creature
            self.task = "bwca"
        elif self.task == "bwca":
            self.delta = -1 if action == STABILITY_MINUS else 1  # Bwca: "Apply +/- 1 to a floor's stability"
            self.task = "feature"
        elif self.task == "feature":
            self._place_feature(seat, self._feature(), action - CELL)
            self._after_feature()
        elif self.task == "derwen":
            cell = seat.grid[action - CELL]
            # Derwen: "Also add a stability 1 floor."
            cell.element, cell.stability, cell.content = FLOOR, 1, "none"
            self._load_queue()
            self.task = "box"
        elif self.task == "box":
            column = self.game.sheet.stall_columns[action - self.game.box_base]
            fills = seat.stalls[column.resource]
            fills[column.number - 1] += 1
            self.queue.pop(0)
            if fills[column.number - 1] == column.boxes:
                # "If you complete a column ... gain the corresponding decoration immediately"
                self.decoration = STALL_DECORATION[column.resource]
                self.bean_height = column.bean_height
                self.task = "decoration"
        elif self.task == "decoration":
            self._place_decoration(seat, action - CELL)
            self.decoration = "none"
            self.bean_height = 0
            self.task = "box"
        else:  # pragma: no cover
            raise AssertionError(self.task)

    def _place_feature(self, seat: SeatState, feature: int, index: int) -> None:
        cell = seat.grid[index]
        if is_floor_feature(feature):
            cell.element, cell.stability, cell.content = FLOOR, feature + 1 + self.delta, "none"
        elif feature == BRIDGE:
            cell.element = BRIDGE_EL
        elif feature == ROOF:
            cell.element, cell.flags = ROOF_EL, 0
            if seat.roof == -1:
                seat.roof = index  # only the first roof of the turn can get flags (interp. 24)
        elif feature == DRAGON:
            cell.element = DRAGON_EL
        else:
            cell.content = ROYAL_CONTENTS[feature - QUEEN]

    def _place_decoration(self, seat: SeatState, index: int) -> None:
        sheet = self.game.sheet
        if self.decoration == "banner":
            seat.grid[index].element = BANNER_TOP
            seat.grid[index - sheet.width].element = BANNER_BOTTOM
        elif self.decoration == "gold":
            seat.grid[index].content = "gold"
        elif self.decoration == "window":
            seat.grid[index].content = "window"
        else:
            for k in range(self.bean_height):
                seat.grid[index + k * sheet.width].element = BEANSTALK

    # ----- results (§5.8) -----

    def total(self, index: int) -> int:
        return sum(self.seats[index].round_scores)

    def target_score(self) -> int:
        """Target Scores: the chosen shape's numbers on the three royal cards, added up."""
        cards = self.game.sheet.cards
        return sum(cards[i].targets[self.game.shape] for i in self.royal_cards if i >= 0)

    def returns(self) -> list[float]:
        players = self.game.players
        if self.step != "over":
            return [0.0] * players
        if self.game.solo:
            return [1.0 if self.total(0) > self.target_score() else 0.0]  # interp. 18: "beat" the target
        totals = [self.total(i) for i in range(players)]
        best = max(totals)
        tied = [i for i in range(players) if totals[i] == best]
        best_round2 = max(self.seats[i].round_scores[1] for i in tied)
        winners = [i for i in tied if self.seats[i].round_scores[1] == best_round2]
        return [1.0 / len(winners) if i in winners else 0.0 for i in range(players)]

    def scores(self) -> list[float]:
        return [float(self.total(i)) for i in range(self.game.players)]

    def history(self) -> list[int]:
        return list(self.actions)

    def clone(self) -> FlipPickTowersState:
        twin = copy.copy(self)
        twin.seats = [seat.clone() for seat in self.seats]
        twin.deck = list(self.deck)
        twin.royal_cards = list(self.royal_cards)
        twin.display = list(self.display)
        twin.queue = list(self.queue)
        twin.actions = list(self.actions)
        return twin

    def resample_from_infostate(self, player: object, rng: object = None) -> FlipPickTowersState:
        """§9.3: the hidden picks of the other seats drawn again, uniformly, in seat order."""
        observer = self._check_seat(player)
        twin = self.clone()
        if self.step != "pick":
            return twin
        made = self.seat
        if not callable(getattr(rng, "below", None)) and made > (1 if observer < made else 0):
            raise TypeError("resample_from_infostate needs an Rng to draw the hidden picks")
        for s in range(made):
            if s == observer:
                continue
            slot = cast(RngLike, rng).below(3)  # checked above: given whenever a pick is hidden
            twin.seats[s].pick = slot
            position = len(twin.actions) - made + s
            if position >= 0:  # a hand-made history may be shorter
                twin.actions[position] = PICK + slot
        return twin

    # ----- notation (§8) -----

    def action_to_string(self, action: object) -> str:
        value = _as_int(action)
        if self.step == "deal":
            if value is None or not 0 <= value < len(self.game.sheet.cards):
                raise IllegalActionError(f"{GAME_NAME}: deal outcome {action!r} is out of range (chance)")
            return f"deal {value + 1}"
        if self.step == "flip":
            if value is None or not 0 <= value < NUM_KINDS:
                raise IllegalActionError(f"{GAME_NAME}: flip outcome {action!r} is out of range (chance)")
            return "reveal " + kind_text(value)
        if value is None or not 0 <= value < self.game.num_distinct_actions():
            raise IllegalActionError(
                f"{GAME_NAME}: action {action!r} is out of range 0..{self.game.num_distinct_actions() - 1} "
                f"(seat {self.current_player()})"
            )
        return self.game._decision_texts[value]

    def string_to_action(self, text: object) -> int:
        if not isinstance(text, str):
            raise InvalidNotationError(
                f"{GAME_NAME}: an action text must be a str, not {type(text).__name__}"
            )
        key = _normalize_text(text)
        if self.step == "deal":
            table = self.game._text_to_deal
        elif self.step == "flip":
            table = self.game._text_to_kind
        else:
            table = self.game._text_to_decision
        if key not in table:
            raise InvalidNotationError(f"{GAME_NAME}: cannot parse action {text!r}")
        return table[key]

    # ----- observations (§9) -----

    def _check_seat(self, player: object) -> int:
        value = _as_int(player)
        if value is None or not 0 <= value < self.game.players:
            raise InvalidStateError(f"seat {player!r} out of range 0..{self.game.players - 1}")
        return value

    def _pick_visible(self, observer: int, index: int) -> bool:
        return index == observer or self.step != "pick"

    def observation_tensor(self, player: object) -> np.ndarray:
        observer = self._check_seat(player)
        game = self.game
        players = game.players
        values: list[float] = []
        for offset in range(players):
            index = (observer + offset) % players
            seat = self.seats[index]
            for cell in seat.grid:
                values.extend(cell.features())
            for column in game.sheet.stall_columns:
                values.append(float(seat.stalls[column.resource][column.number - 1]))
            values.extend(float(x) for x in seat.gained)
            values.extend(float(x) for x in seat.used)
            values.append(float(seat.crest))
            values.extend(float(x) for x in seat.round_scores)
            values.append(float(seat.roof >= 0))
            values.append(float(seat.pick >= 0))
            pick = [0.0, 0.0, 0.0]
            if seat.pick >= 0 and self._pick_visible(observer, index):
                pick[seat.pick] = 1.0
            values.extend(pick)
            values.append(float(seat.flagged))
        for slot in range(3):
            block = [0.0] * 25
            if slot < len(self.display):
                kind = self.display[slot]
                block[kind // 5] = 1.0
                block[20 + kind % 5] = 1.0
            values.extend(block)
        values.extend(float(x) for x in self.deck)
        cards = len(game.sheet.cards)
        for royal in range(3):
            block = [0.0] * cards
            if self.royal_cards[royal] >= 0:
                block[self.royal_cards[royal]] = 1.0
            values.extend(block)
        values.extend([float(self.round == 1), float(self.round == 2)])
        values.extend([float(self.turn), float(self.flags_taken), float(self.final_turn)])
        values.extend(float(self.step == step) for step in STEPS)
        acting = [0.0] * players
        if self.step in ("dragon", "pick", "sketch"):
            acting[(self.seat - observer) % players] = 1.0
        values.extend(acting)
        current = [0.0] * players
        player_now = self.current_player()
        if player_now >= 0:
            current[(player_now - observer) % players] = 1.0
        values.extend(current)
        values.extend(float(self.task == task) for task in TASKS[1:])
        values.extend(float(self.magic == c) for c in range(5))
        values.append(float(self.delta))
        values.append(float(self.pass_))
        values.extend(float(self.queue.count(res)) for res in range(5))
        values.extend(float(self.decoration == d) for d in DECORATIONS)
        values.append(float(self.bean_height))
        values.append(float(self.dragons_left))
        tensor = np.asarray(values, dtype=np.float32)
        assert tensor.shape == game.observation_shape(), (tensor.shape, game.observation_shape())
        return tensor

    def observation_string(self, player: object) -> str:
        observer = self._check_seat(player)
        game = self.game
        sheet = game.sheet
        lines = [
            f"Flip Pick Towers ({sheet.name}{'' if sheet.verified else ', unverified sheet'}), seen by seat "
            f"{observer}: round {self.round}, turn {self.turn}, step {self.step}"
            + (" (final turn)" if self.final_turn else "")
        ]
        royals = []
        for royal, name in enumerate(("Queen", "King", "Princess")):
            index = self.royal_cards[royal]
            royals.append(f"{name}: {sheet.cards[index].name if index >= 0 else '-'}")
        lines.append("royal cards: " + "; ".join(royals))
        lines.append("display: " + (", ".join(kind_text(k) for k in self.display) or "empty"))
        lines.append(f"deck: {sum(self.deck)} cards; flags taken this round: {self.flags_taken}")
        if self.step == "sketch":
            lines.append(
                f"sketching seat {self.seat}: task {self.task}, magic "
                f"{CREATURES[self.magic] if self.magic >= 0 else '-'}, delta {self.delta}, "
                f"pass {self.pass_}, "
                f"queue {[RESOURCES[q] for q in self.queue]}, decoration {self.decoration}"
                + (f" (height {self.bean_height})" if self.bean_height else "")
            )
        elif self.step in ("dragon", "pick"):
            lines.append(
                f"{self.step}: seat {self.seat}"
                + (f", dragons left {self.dragons_left}" if self.step == "dragon" else "")
            )
        for offset in range(game.players):
            index = (observer + offset) % game.players
            seat = self.seats[index]
            if seat.pick < 0:
                pick = "-"
            elif self._pick_visible(observer, index):
                pick = f"slot {seat.pick + 1}"
            else:
                pick = "hidden"
            lines.append(
                f"seat {index}: crest {seat.crest}/3, scores {seat.round_scores}, pick {pick}, "
                + ("flag bonus taken, " if seat.flagged else "")
                + f"creatures gained {seat.gained} used {seat.used}, stalls {seat.stalls}"
            )
            for r in reversed(range(sheet.rows)):
                row = seat.grid[r * sheet.width : (r + 1) * sheet.width]
                lines.append(f"  {r + 1:2d} " + " ".join(f"{cell.token():>4}" for cell in row))
        if self.step == "over":
            lines.append(f"totals {[self.total(i) for i in range(game.players)]}, returns {self.returns()}")
        return "\n".join(lines)

    def information_state_string(self, player: object) -> str:
        """§9.2: the history, with the other seats' picks of this turn hidden while picking goes on."""
        observer = self._check_seat(player)
        tokens = [str(action) for action in self.actions]
        if self.step == "pick":
            made = self.seat
            for s in range(made):
                position = len(tokens) - made + s
                if s != observer and position >= 0:  # a hand-made history may be shorter
                    tokens[position] = "?"
        return f"seat={observer} history=" + ",".join(tokens)

    # ----- serialization (§10) -----

    def to_json_object(self) -> dict[str, object]:
        return {
            "bean_height": self.bean_height,
            "decoration": self.decoration,
            "deck": list(self.deck),
            "delta": self.delta,
            "display": list(self.display),
            "dragons_left": self.dragons_left,
            "final_turn": self.final_turn,
            "flags_taken": self.flags_taken,
            "game": GAME_NAME,
            "history": list(self.actions),
            "magic": self.magic,
            "params": self.game.params,
            "pass": self.pass_,
            "queue": list(self.queue),
            "round": self.round,
            "royal_cards": list(self.royal_cards),
            "seat": self.seat,
            "seats": [
                {
                    "creatures": [[g, u] for g, u in zip(seat.gained, seat.used, strict=True)],
                    "crest": seat.crest,
                    "flagged": seat.flagged,
                    "grid": [
                        [
                            cell.token()
                            for cell in seat.grid[r * self.game.sheet.width : (r + 1) * self.game.sheet.width]
                        ]
                        for r in range(self.game.sheet.rows)
                    ],
                    "pick": seat.pick,
                    "roof": seat.roof,
                    "round_scores": list(seat.round_scores),
                    "stalls": [list(fills) for fills in seat.stalls],
                }
                for seat in self.seats
            ],
            "step": self.step,
            "task": self.task,
            "turn": self.turn,
            "version": SERIAL_VERSION,
        }

    def serialize(self) -> str:
        return json.dumps(self.to_json_object(), sort_keys=True, separators=(",", ":"))

    def __str__(self) -> str:
        player = self.current_player()
        label = "chance" if player == CHANCE else "terminal" if player == TERMINAL else f"seat {player}"
        return f"[{label}] " + self.observation_string(self.seat if self.seat < self.game.players else 0)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FlipPickTowersState) and other.serialize() == self.serialize()

    __hash__ = None  # type: ignore[assignment]  # mutable, so unhashable: typeshed's idiom, no other spelling


# ---------------------------------------------------------------------------------------------------------
# §3.2 Evaluating royal conditions
# ---------------------------------------------------------------------------------------------------------


class _RoyalContext:
    """One royal at (r, c) of one seat's grid, against which a card's expression is evaluated."""

    def __init__(self, state: FlipPickTowersState, seat: SeatState, r: int, c: int) -> None:
        self.state = state
        self.seat = seat
        self.r = r
        self.c = c
        self.sheet = state.game.sheet

    def region(self, name: str) -> list[tuple[int, int]]:
        r, c = self.r, self.c
        sheet = self.sheet
        if name == "self":
            spots = [(r, c)]
        elif name == "above":
            spots = [(r + 1, c)]
        elif name == "below":
            spots = [(r - 1, c)]
        elif name == "left":
            spots = [(r, c - 1)]
        elif name == "right":
            spots = [(r, c + 1)]
        elif name == "beside":
            spots = [(r, c - 1), (r, c + 1)]
        elif name == "adjacent":
            spots = [(r + 1, c), (r - 1, c), (r, c - 1), (r, c + 1)]
        elif name == "around":
            spots = [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]
        elif name == "column":
            spots = [(rr, c) for rr in range(sheet.rows)]
        elif name == "row":
            spots = [(r, cc) for cc in range(sheet.width)]
        elif name == "higher":
            spots = [(rr, c) for rr in range(r + 1, sheet.rows)]
        elif name == "lower":
            spots = [(rr, c) for rr in range(r)]
        elif name == "castle":
            spots = [(rr, cc) for rr in range(sheet.rows) for cc in range(sheet.width)]
        else:  # pragma: no cover - validated with the sheet
            raise AssertionError(name)
        return [(rr, cc) for rr, cc in spots if sheet.exists(rr, cc)]

    @staticmethod
    def weight(cell: Cell, kind: str) -> int:
        element, content = cell.element, cell.content
        floor = element == FLOOR
        if kind == "flag":
            return cell.flags if element == ROOF_EL else 0
        matches = {
            "empty": element == EMPTY,
            "any": element != EMPTY,
            "floor": floor,
            "bare_floor": floor and content == "none",
            "bridge": element == BRIDGE_EL,
            "roof": element == ROOF_EL,
            "dragon": element == DRAGON_EL,
            "banner": element in (BANNER_TOP, BANNER_BOTTOM),
            "beanstalk": element == BEANSTALK,
            "royal": floor and content in ROYAL_CONTENTS,
            "queen": floor and content == "queen",
            "king": floor and content == "king",
            "princess": floor and content == "princess",
            "window": floor and content == "window",
            "gold": floor and content == "gold",
            "crossed_gold": floor and content == "crossed",
        }
        return int(matches[kind])

    def evaluate(self, expr: object) -> int:
        if _is_int(expr):
            return int(expr)
        assert isinstance(expr, list)
        op, args = expr[0], expr[1:]
        if op == "count":
            return sum(
                self.weight(self.seat.grid[rr * self.sheet.width + cc], args[1])
                for rr, cc in self.region(args[0])
            )
        if op == "stability":
            return self.seat.grid[self.r * self.sheet.width + self.c].stability
        if op == "height":
            return self.r + 1
        if op == "tower":
            return int(self.sheet.columns[self.c].kind == "tower")
        if op in ("sum", "mul", "min", "max"):
            value = self.evaluate(args[0])
            for arg in args[1:]:
                other = self.evaluate(arg)
                if op == "sum":
                    value = _clamp(value + other)
                elif op == "mul":
                    value = _clamp(value * other)
                elif op == "min":
                    value = min(value, other)
                else:
                    value = max(value, other)
            return value
        if op == "if":
            return self.evaluate(args[1]) if self.holds(args[0]) else self.evaluate(args[2])
        if op == "lookup":
            table: list[int] = args[1]
            index = max(0, min(len(table) - 1, self.evaluate(args[0])))
            return table[index]
        raise AssertionError(op)  # pragma: no cover - validated with the sheet

    def holds(self, cond: list[Any]) -> bool:
        op, args = cond[0], cond[1:]
        if op == "ge":
            return self.evaluate(args[0]) >= self.evaluate(args[1])
        if op == "le":
            return self.evaluate(args[0]) <= self.evaluate(args[1])
        if op == "eq":
            return self.evaluate(args[0]) == self.evaluate(args[1])
        if op == "and":
            return all([self.holds(a) for a in args])
        if op == "or":
            return any([self.holds(a) for a in args])
        if op == "not":
            return not self.holds(args[0])
        raise AssertionError(op)  # pragma: no cover


# ---------------------------------------------------------------------------------------------------------
# Deserialization (§10)
# ---------------------------------------------------------------------------------------------------------

_TOP_KEYS = frozenset(
    {
        "bean_height",
        "decoration",
        "deck",
        "delta",
        "display",
        "dragons_left",
        "final_turn",
        "flags_taken",
        "game",
        "history",
        "magic",
        "params",
        "pass",
        "queue",
        "round",
        "royal_cards",
        "seat",
        "seats",
        "step",
        "task",
        "turn",
        "version",
    }
)
_SEAT_KEYS = frozenset({"creatures", "crest", "flagged", "grid", "pick", "roof", "round_scores", "stalls"})


def _bad(message: str) -> InvalidStateError:
    return InvalidStateError(f"{GAME_NAME}: bad serialized state: {message}")


def _state_pairs(pairs: list[tuple[str, object]]) -> dict[str, object]:
    result: dict[str, object] = {}
    for key, value in pairs:
        if key in result:
            raise _bad(f"key {key!r} given twice")
        result[key] = value
    return result


def _get_int(obj: dict[str, object], key: str, low: int, high: int) -> int:
    value = obj[key]
    if not _is_int(value) or not low <= value <= high:
        raise _bad(f"{key} must be an int in {low}..{high}, got {value!r}")
    return value


def _int_list_exact(value: object, length: int, low: int, high: int, what: str) -> list[int]:
    if not isinstance(value, list) or len(value) != length:
        raise _bad(f"{what} must be a list of {length} ints")
    for x in value:
        if not _is_int(x) or not low <= x <= high:
            raise _bad(f"{what} holds {x!r}, not an int in {low}..{high}")
    return list(value)


def _check_keys(obj: object, keys: frozenset[str], what: str) -> dict[str, object]:
    if not isinstance(obj, dict):
        raise _bad(f"{what} must be a JSON object")
    if obj.keys() != keys:
        raise _bad(f"{what} must have exactly the keys {sorted(keys)}")
    return obj


def _deserialize(game: FlipPickTowersGame, text: object) -> FlipPickTowersState:
    if not isinstance(text, str):
        raise InvalidStateError(f"{GAME_NAME}: a serialized state must be a str, not {type(text).__name__}")
    try:
        obj = json.loads(text, object_pairs_hook=_state_pairs)
    except InvalidStateError:
        raise
    except Exception as error:
        raise _bad(f"not valid JSON ({type(error).__name__})") from None
    obj = _check_keys(obj, _TOP_KEYS, "the state")
    if obj["game"] != GAME_NAME:
        raise _bad(f"game {obj['game']!r} is not {GAME_NAME!r}")
    if not _is_int(obj["version"]) or obj["version"] != SERIAL_VERSION:
        raise _bad(f"version {obj['version']!r} is not {SERIAL_VERSION}")
    if not same_params(obj["params"], game.params):
        raise _bad("params differ from the game's")

    sheet = game.sheet
    players = game.players
    width = sheet.width
    full = sheet.full_deck
    cards = len(sheet.cards)

    # Scalars.
    step = obj["step"]
    if not isinstance(step, str) or step not in STEPS:
        raise _bad(f"step {step!r} is not one of {STEPS}")
    task = obj["task"]
    if not isinstance(task, str) or task not in TASKS:
        raise _bad(f"task {task!r} is not one of {TASKS}")
    decoration = obj["decoration"]
    if not isinstance(decoration, str) or decoration not in ("none", *DECORATIONS):
        raise _bad(f"decoration {decoration!r} is not valid")
    final_turn = obj["final_turn"]
    if not isinstance(final_turn, bool):
        raise _bad("final_turn must be a bool")
    turn = _get_int(obj, "turn", 0, TURNS_PER_ROUND)
    round_ = _get_int(obj, "round", 1, 2)
    flags_taken = _get_int(obj, "flags_taken", 0, 3)
    seat_index = _get_int(obj, "seat", 0, players - 1)
    dragons_left = _get_int(obj, "dragons_left", 0, 2)
    magic = _get_int(obj, "magic", -1, 4)
    delta = _get_int(obj, "delta", -1, 1)
    pass_ = _get_int(obj, "pass", 0, 2)
    bean_height = _get_int(obj, "bean_height", 0, len(sheet.beanstalk_points))

    deck = _int_list_exact(obj["deck"], NUM_KINDS, 0, 63, "deck")
    display = obj["display"]
    if not isinstance(display, list) or len(display) > 3:
        raise _bad("display must be a list of at most 3 kinds")
    for kind in display:
        if not _is_int(kind) or not 0 <= kind < NUM_KINDS or full[kind] == 0:
            raise _bad(f"display holds {kind!r}, not a card kind of this deck")
    queue = obj["queue"]
    if not isinstance(queue, list) or len(queue) > 3:
        raise _bad("queue must be a list of at most 3 resource ids")
    for res in queue:
        if not _is_int(res) or not 0 <= res <= 4:
            raise _bad(f"queue holds {res!r}, not a resource id")
    royal_cards = _int_list_exact(obj["royal_cards"], 3, -1, cards - 1, "royal_cards")
    history = obj["history"]
    bound = max(game.num_distinct_actions(), game.max_chance_outcomes())
    if not isinstance(history, list):
        raise _bad("history must be a list")
    for action in history:
        if not _is_int(action) or not 0 <= action < bound:
            raise _bad(f"history holds {action!r}, not an action id")

    # The deck.
    for kind in range(NUM_KINDS):
        if deck[kind] + display.count(kind) > full[kind]:
            raise _bad(f"more cards of kind {kind_text(kind)!r} than the deck has")
    if sum(deck) + len(display) != DECK_SIZE - 3 * turn:
        raise _bad("deck and display do not add up to the cards left this round")

    # Royal cards: distinct, dealt in order.
    dealt = [i for i in royal_cards if i >= 0]
    if len(set(dealt)) != len(dealt):
        raise _bad("a scoring card is dealt twice")
    if royal_cards != dealt + [-1] * (3 - len(dealt)):
        raise _bad("royal cards must be dealt in order (queen, king, princess)")
    if step != "deal" and len(dealt) != 3:
        raise _bad("royal cards not all dealt after the deal")

    # Seats.
    seats_obj = obj["seats"]
    if not isinstance(seats_obj, list) or len(seats_obj) != players:
        raise _bad(f"seats must be a list of {players} objects")
    seats = []
    for index, seat_obj in enumerate(seats_obj):
        seat_obj = _check_keys(seat_obj, _SEAT_KEYS, f"seat {index}")
        grid_obj = seat_obj["grid"]
        if not isinstance(grid_obj, list) or len(grid_obj) != sheet.rows:
            raise _bad(f"seat {index} grid must have {sheet.rows} rows")
        grid: list[Cell] = []
        for r, row in enumerate(grid_obj):
            if not isinstance(row, list) or len(row) != width:
                raise _bad(f"seat {index} grid row {r} must have {width} tokens")
            for c, token in enumerate(row):
                cell = cell_from_token(token)
                if cell is None:
                    raise _bad(f"seat {index} grid token {token!r} does not parse")
                if (cell.element == MISSING) == sheet.exists(r, c):
                    raise _bad(f"seat {index} grid cell {r},{c}: {token!r} where the sheet says otherwise")
                grid.append(cell)
        _check_grid(sheet, grid, index)
        stalls_obj = seat_obj["stalls"]
        if not isinstance(stalls_obj, list) or len(stalls_obj) != 4:
            raise _bad(f"seat {index} stalls must be 4 lists")
        stalls = []
        for res in range(4):
            sizes = sheet.stalls[res]
            fills = stalls_obj[res]
            if not isinstance(fills, list) or len(fills) != len(sizes):
                raise _bad(f"seat {index} stall {RESOURCES[res]} must have {len(sizes)} columns")
            for fill, boxes in zip(fills, sizes, strict=True):
                if not _is_int(fill) or not 0 <= fill <= boxes:
                    raise _bad(f"seat {index} stall {RESOURCES[res]} holds {fill!r}")
            stalls.append(list(fills))
        creatures = seat_obj["creatures"]
        if not isinstance(creatures, list) or len(creatures) != 5:
            raise _bad(f"seat {index} creatures must be 5 pairs")
        gained, used = [], []
        for creature, pair in enumerate(creatures):
            if not isinstance(pair, list) or len(pair) != 2 or not all(_is_int(x) and x >= 0 for x in pair):
                raise _bad(f"seat {index} creature {creature} must be [gained, used]")
            if pair[0] + pair[1] > sheet.creature_spaces[creature]:
                raise _bad(f"seat {index} creature {creature} has more marks than X spaces")
            gained.append(pair[0])
            used.append(pair[1])
        crest = _get_int(seat_obj, "crest", 0, CREST_SECTIONS)
        round_scores = _int_list_exact(
            seat_obj["round_scores"], 2, -CLAMP, CLAMP, f"seat {index} round_scores"
        )
        pick = _get_int(seat_obj, "pick", -1, 2)
        roof = _get_int(seat_obj, "roof", -1, sheet.num_cells - 1)
        if roof >= 0 and grid[roof].token() != "R0":
            raise _bad(f"seat {index} roof {roof} does not name a roof without flags")
        flagged = seat_obj["flagged"]
        if not isinstance(flagged, bool):
            raise _bad(f"seat {index} flagged must be a bool")
        if flagged and not any(cell.element == ROOF_EL and cell.flags > 0 for cell in grid):
            raise _bad(f"seat {index} flagged for a flag bonus with no roof holding flags")
        seats.append(SeatState(grid, stalls, gained, used, crest, round_scores, pick, roof, flagged))

    # Steps.
    defaults: tuple[object, ...] = ("none", -1, 0, 0, [], "none", 0)
    sketch_defaults = (task, magic, delta, pass_, queue, decoration, bean_height) == defaults
    if step == "deal" and (display or list(deck) != list(full) or round_ != 1 or turn != 0):
        raise _bad("the deal comes before anything else")
    if step == "flip" and len(display) > 2:
        raise _bad("a full display in the flip step")
    if step in ("dragon", "pick", "sketch") and len(display) != 3:
        raise _bad(f"the {step} step needs a display of 3 cards")
    if step == "over" and display:
        raise _bad("a display in a finished game")
    if step == "dragon":
        dragons = sum(1 for kind in display if kind // 5 == DRAGON)
        limit = dragons if game.dragon_per_card else min(dragons, 1)
        if dragons == 0 or not 1 <= dragons_left <= limit:
            raise _bad("a dragon step without a dragon to resolve")
    elif dragons_left != 0:
        raise _bad("dragons_left set outside the dragon step")
    for index, seat in enumerate(seats):
        if step == "pick":
            if (seat.pick >= 0) != (index < seat_index):
                raise _bad("picks must be made exactly by the seats before the picking seat")
        elif step == "sketch":
            if seat.pick < 0:
                raise _bad("a seat without a pick in the sketch step")
        elif seat.pick >= 0:
            raise _bad(f"a pick in the {step} step")
        if seat.flagged and flags_taken == 0:
            raise _bad(f"seat {index} took a flag bonus but no bonus is crossed out this round")
        if seat.roof >= 0 and (step != "sketch" or index > seat_index):
            raise _bad("a roof of this turn outside the sketch step or for a seat yet to sketch")
    if step == "sketch":
        if task == "none" or pass_ == 0:
            raise _bad("a sketch step without a task")
    elif not sketch_defaults:
        raise _bad("sketch fields set outside the sketch step")
    if (decoration != "none") != (task == "decoration"):
        raise _bad("a decoration exactly when the task is decoration")
    if bean_height > 0 and (decoration != "beanstalk" or bean_height not in sheet.bean_heights):
        raise _bad("a bean height without a beanstalk to place")
    if decoration == "beanstalk" and bean_height == 0:
        raise _bad("a beanstalk without a height")
    if final_turn and not any(seat.crest == CREST_SECTIONS for seat in seats):
        raise _bad("a final turn with no full crest")
    if step == "sketch":
        feature = display[seats[seat_index].pick] // 5
        chosen = task not in ("magic", "bwca")
        if task == "magic" and magic != -1:
            raise _bad("a creature already chosen while choosing the creature")
        if magic >= 0 and seats[seat_index].used[magic] == 0:
            raise _bad("a creature in use that the seat has not used")
        if magic in (BWCA, SOSBAN) and not is_floor_feature(feature):
            raise _bad("Bwca or Sosban in use for a card that is not a floor")
        if (delta != 0) != (magic == BWCA and chosen):
            raise _bad("a stability change exactly when Bwca's sign has been chosen")
        if task == "bwca" and magic != BWCA:
            raise _bad("Bwca's sign to choose without Bwca")
        if pass_ == 2 and magic != MAB:
            raise _bad("a second pass without Mab")
        if task == "derwen" and (magic != DERWEN or pass_ != 1):
            raise _bad("Derwen's floor without Derwen")
        if len(queue) > (3 if magic == JIJI and pass_ == 1 else 1):
            raise _bad("more resources queued than the card and its magic give")

    state = FlipPickTowersState(
        game=game,
        seats=seats,
        deck=deck,
        step=step,
        round=round_,
        turn=turn,
        flags_taken=flags_taken,
        final_turn=final_turn,
        royal_cards=royal_cards,
        display=list(display),
        seat=seat_index,
        dragons_left=dragons_left,
        task=task,
        magic=magic,
        delta=delta,
        pass_=pass_,
        queue=list(queue),
        decoration=decoration,
        bean_height=bean_height,
        actions=list(history),
    )
    # Not settled: the automatic steps would change it.
    before = state.serialize()
    probe = state.clone()
    try:
        probe._settle()
    except Exception:  # noqa: BLE001 - a state the rules cannot run from is malformed
        raise _bad("the state cannot be settled") from None
    if probe.serialize() != before:
        raise _bad("the state is not settled (an automatic step is pending)")
    return state


def _check_grid(sheet: Sheet, grid: list[Cell], index: int) -> None:
    """§10 grid rules: banner halves in pairs, beanstalks as runs from the bottom of garden columns."""
    width = sheet.width
    for cell_id, cell in enumerate(grid):
        r, c = divmod(cell_id, width)
        if cell.element == BANNER_TOP:
            if r == 0 or grid[cell_id - width].element != BANNER_BOTTOM:
                raise _bad(f"seat {index}: a banner top without its bottom half below")
        if cell.element == BANNER_BOTTOM:
            if r + 1 >= sheet.rows or grid[cell_id + width].element != BANNER_TOP:
                raise _bad(f"seat {index}: a banner bottom without its top half above")
    for c, column in enumerate(sheet.columns):
        height = 0
        while (
            column.bottom + height <= column.top
            and grid[(column.bottom + height) * width + c].element == BEANSTALK
        ):
            height += 1
        if column.kind != "garden" and height:
            raise _bad(f"seat {index}: a beanstalk in a tower column")
        if height > len(sheet.beanstalk_points):
            raise _bad(f"seat {index}: a beanstalk taller than the beanstalk tracker")
        for r in range(column.bottom + height, column.top + 1):
            if grid[r * width + c].element == BEANSTALK:
                raise _bad(f"seat {index}: a beanstalk cell not in a run from the bottom of a garden column")


__all__ = [
    "FlipPickTowersGame",
    "FlipPickTowersState",
    "SeatState",
    "Sheet",
    "encode_sheet",
    "load_sheet",
    "parse_sheet",
    "placeholder_text",
]
