"""Game strings and parameter dicts: ``"flip_city(players=2,office=true)"`` <-> ``("flip_city", {...})``.

Shared by the Rust-backed ``meeplex.make`` and ``meeplex.oracle.make``: this is framework, not rules,
so both engines see exactly the same parameters. Each game validates its own values.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from .errors import InvalidNotationError, InvalidStateError

ParamValue = int | bool | str

_GAME_STRING = re.compile(r"^\s*([a-z_][a-z0-9_]*)\s*(?:\((.*)\))?\s*$", re.DOTALL)
_KEY = re.compile(r"^[a-z_][a-z0-9_]*$")


_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_.+-]*")


# More significant digits than any parameter range needs (every range fits in 64 bits), and well under
# Python's int-parsing limit (4300 digits by default, 640 at the least), which would raise a plain ValueError.
_MAX_DIGITS = 100


class _TooLong:
    """An int literal of more than ``_MAX_DIGITS`` significant digits: out of every parameter's range."""

    def __init__(self, key: str, digits: int) -> None:
        self.key, self.digits = key, digits


def _parse_value(text: str, whole: str, key: str) -> ParamValue | _TooLong:
    value = text.strip()
    low = value.lower()
    if low in ("true", "false"):
        return low == "true"
    if re.fullmatch(r"[+-]?\d+", low):
        digits = low.lstrip("+-").lstrip("0")
        if len(digits) > _MAX_DIGITS:
            return _TooLong(key, len(digits))
        return int(low)
    if _WORD.fullmatch(value):
        return value
    raise InvalidNotationError(f"bad parameter value {value!r} in game string {whole!r}")


def parse_game_string(text: str) -> tuple[str, dict[str, ParamValue]]:
    """Split ``"name(key=value,...)"`` into the name and a dict of typed values."""
    if not isinstance(text, str):
        raise InvalidNotationError(f"a game string must be a str, not {type(text).__name__}")
    match = _GAME_STRING.match(text)
    if match is None:
        raise InvalidNotationError(f"not a game string: {text!r} (expected 'name' or 'name(key=value,...)')")
    name, body = match.group(1), match.group(2)
    params: dict[str, ParamValue] = {}
    too_long: _TooLong | None = None
    if body and body.strip():
        for item in body.split(","):
            key, sep, value = item.partition("=")
            key = key.strip()
            if not sep or not _KEY.match(key):
                raise InvalidNotationError(f"bad parameter {item.strip()!r} in game string {text!r}")
            if key in params or (too_long is not None and key == too_long.key):
                raise InvalidNotationError(f"parameter {key!r} given twice in {text!r}")
            parsed = _parse_value(value, text, key)
            if isinstance(parsed, _TooLong):
                too_long = too_long or parsed
            else:
                params[key] = parsed
    # The text parses (notation errors come first); an int too long for any range is a bad value.
    if too_long is not None:
        raise InvalidStateError(
            f"{name}: parameter {too_long.key} has a value of {too_long.digits} digits, out of range"
        )
    return name, params


def merge_params(
    name: str, from_string: Mapping[str, ParamValue], keywords: Mapping[str, object]
) -> dict[str, object]:
    """Combine a game string's parameters with keyword arguments; a key given both ways is an error."""
    merged: dict[str, object] = dict(from_string)
    for key, value in keywords.items():
        if key in merged:
            raise InvalidStateError(f"{name}: parameter {key!r} given both in the game string and as keyword")
        merged[key] = value
    return merged


def game_string(name: str, params: Mapping[str, object]) -> str:
    """The canonical game string: parameters sorted by key, booleans as true/false."""

    def show(value: object) -> str:
        if isinstance(value, bool):
            return "true" if value else "false"
        return str(value)

    if not params:
        return name
    return name + "(" + ",".join(f"{k}={show(params[k])}" for k in sorted(params)) + ")"
