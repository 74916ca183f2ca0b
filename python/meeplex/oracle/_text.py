"""Text folding shared by the oracle's notation readers (docs/architecture.md, "Input policy").

White space is Unicode's White_Space property, which is what Rust's ``char::is_whitespace`` tests. Python's
``str.split()`` also splits on U+001C..U+001F (file/group/record/unit separators), so it is not used: the
two engines must refuse and accept the same texts.
"""

from __future__ import annotations

import re

_WHITE_SPACE = re.compile("[\t\n\x0b\x0c\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+")


def fold_white_space(text: str) -> str:
    """``text`` trimmed, each inner run of white space one space, and ASCII letters lower-cased (only ASCII:
    ``str.lower`` would also fold letters no engine writes)."""
    lowered = "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in text)
    return " ".join(part for part in _WHITE_SPACE.split(lowered) if part)
