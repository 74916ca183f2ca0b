"""The exceptions of meeplex, shared by the Rust-backed engines and the pure-Python oracle.

Every error is a ``ValueError`` so that code written against python-chess or OpenSpiel habits
(``except ValueError``) keeps working; ``GameError`` lets a caller catch exactly ours.
"""

from __future__ import annotations


class GameError(Exception):
    """Base class of every error meeplex raises on purpose."""


class IllegalActionError(GameError, ValueError):
    """An action that is not legal in this state; the state is left unchanged."""


class InvalidStateError(GameError, ValueError):
    """A serialized state or a parameter set that is malformed or inconsistent."""


class InvalidNotationError(GameError, ValueError):
    """Text that does not parse as an action, a game string or a parameter."""


__all__ = ["GameError", "IllegalActionError", "InvalidStateError", "InvalidNotationError"]
