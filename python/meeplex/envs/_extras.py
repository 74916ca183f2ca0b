"""Import an optional dependency, or fail with the ``pip install`` line that provides it.

The adapters are optional extras of the package (``meeplex[pettingzoo]``, ``[gymnasium]``, ``[openspiel]``,
``[all]``): a bare ``ModuleNotFoundError: No module named 'pyspiel'`` would not tell the user which extra to
install, nor that ``pyspiel`` comes from the ``open_spiel`` distribution.
"""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Iterator
from types import ModuleType


class MissingExtraError(ImportError):
    """An optional dependency of ``meeplex.envs`` is not installed; the message names the extra."""


def missing_extra(extra: str, err: ImportError) -> MissingExtraError:
    """The error to raise when importing the library behind ``meeplex[extra]`` failed with ``err``."""
    module = err.name or "an optional dependency"
    return MissingExtraError(
        f"this meeplex adapter needs {module!r}, which could not be imported ({err}): "
        f"pip install 'meeplex[{extra}]' (or 'meeplex[all]' for every adapter)",
        name=err.name,
    )


@contextlib.contextmanager
def optional_imports(extra: str) -> Iterator[None]:
    """Turn an ``ImportError`` in the block into a ``MissingExtraError`` naming ``meeplex[extra]``.

    A block rather than a function so that the adapters keep plain ``from library import Name`` lines, which
    type checkers and readers follow."""
    try:
        yield
    except ImportError as err:
        raise missing_extra(extra, err) from err


def require(module: str, extra: str) -> ModuleType:
    """``importlib.import_module(module)``, raising ``MissingExtraError`` naming ``meeplex[extra]``."""
    with optional_imports(extra):
        return importlib.import_module(module)
    raise AssertionError("unreachable")  # for type checkers: the block either returns or raises
