"""Game data passed as a parameter (Flip Pick Towers' ``sheet``, Caboodle's ``tiles``): ``placeholder`` names
the shipped file; any other file travels inside the game string as ``b64_`` + base64url without padding, so
that a custom game is still one word (docs/rules/flip_pick_towers.md §3.1, docs/rules/caboodle.md §3.1)."""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable

from meeplex.errors import InvalidStateError

_B64URL = re.compile(r"[A-Za-z0-9_-]+")


def encode_data_file(text: str) -> str:
    """The parameter value for a data file given as text: ``"b64_"`` + base64url, no padding."""
    return "b64_" + base64.urlsafe_b64encode(text.encode("utf-8")).rstrip(b"=").decode("ascii")


def decode_data_file(value: str, what: str, placeholder: Callable[[], str]) -> str:
    """The text of the data file a parameter names; ``what`` (``"flip_pick_towers: sheet"``) leads each
    refusal. Only the canonical encoding is accepted, so one file has one game string."""
    if value == "placeholder":
        return placeholder()
    if not value.startswith("b64_"):
        raise InvalidStateError(f"{what} must be 'placeholder' or 'b64_<base64url>', got {value[:40]!r}")
    body = value[4:]
    if not _B64URL.fullmatch(body) or len(body) % 4 == 1:
        raise InvalidStateError(f"{what} is not valid base64url (alphabet A-Z a-z 0-9 - _)")
    try:
        raw = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    except (binascii.Error, ValueError):
        raise InvalidStateError(f"{what} is not valid base64url") from None
    if base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii") != body:
        raise InvalidStateError(f"{what} is not canonical base64url (unused bits are not zero)")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidStateError(f"{what} is not UTF-8") from None
