"""Strict reading of serialized states, shared by every oracle (docs/architecture.md, decision 2).

Python's ``json`` keeps the last of two equal keys; the contract refuses such a text, so each oracle reads
with ``object_pairs_hook=no_duplicate_keys(prefix)``. ``same_params`` compares a state's ``params`` with the
game's by value and by JSON type (``true`` is not ``1``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

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
