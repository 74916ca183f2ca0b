"""Strict reading of serialized states, shared by every oracle (docs/architecture.md, decision 2).

Python's ``json`` keeps the last of two equal keys; the contract refuses such a text, so each oracle reads
with ``object_pairs_hook=no_duplicate_keys(prefix)``. ``same_params`` compares a state's ``params`` with the
game's by value and by JSON type (``true`` is not ``1``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypeGuard

from meeplex.errors import InvalidStateError


def no_duplicate_keys(prefix: str) -> Callable[[list[tuple[str, object]]], dict[str, object]]:
    """A ``json.loads`` pairs hook that refuses a key given twice, with ``prefix`` leading the message."""

    def hook(pairs: list[tuple[str, object]]) -> dict[str, object]:
        result: dict[str, object] = {}
        for key, value in pairs:
            if key in result:
                raise InvalidStateError(f"{prefix}key {key!r} given twice")
            result[key] = value
        return result

    return hook


def same_params(given: object, expected: Mapping[str, object]) -> bool:
    """``given`` is an object with exactly ``expected``'s keys, each value equal and of the same type."""
    if not isinstance(given, dict) or given.keys() != expected.keys():
        return False
    return all(type(given[key]) is type(expected[key]) and given[key] == expected[key] for key in expected)


def is_int(value: object) -> TypeGuard[int]:
    """An int that is not a bool (JSON's ``true`` is not ``1``)."""
    return isinstance(value, int) and not isinstance(value, bool)


class StrictFields:
    """The field readers of one oracle's deserializer, each refusing with ``InvalidStateError`` led by
    ``prefix`` (``"nidavellir: bad serialized state: "``); shared so that the games read alike."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.pairs = no_duplicate_keys(prefix)

    def bad(self, message: str) -> InvalidStateError:
        return InvalidStateError(f"{self.prefix}{message}")

    def keys(self, obj: object, keys: frozenset[str], what: str) -> dict[str, object]:
        if not isinstance(obj, dict) or obj.keys() != keys:
            raise self.bad(f"{what} must be an object with exactly the keys {sorted(keys)}")
        return obj

    def int_in(self, value: object, low: int, high: int, what: str) -> int:
        if not is_int(value) or not low <= value <= high:
            raise self.bad(f"{what} must be an int in {low}..{high}, got {value!r}")
        return value

    def boolean(self, value: object, what: str) -> bool:
        if not isinstance(value, bool):
            raise self.bad(f"{what} must be a bool, got {value!r}")
        return value

    def list(self, value: object, what: str, length: int | None = None) -> list[object]:
        if not isinstance(value, list):
            raise self.bad(f"{what} must be a list")
        if length is not None and len(value) != length:
            raise self.bad(f"{what} must have {length} entries, not {len(value)}")
        return value
