"""The runnable examples of the adapter pages (docs/envs/*.md) and of the adapter modules' docstrings.

Each page's ```python blocks run in order in one namespace, like a reader pasting them into one session
(blocks fenced as anything else, such as the install lines, are not run). A page whose library is not
installed is skipped, naming it.
"""

from __future__ import annotations

import doctest
import importlib
import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs" / "envs"
# page -> the module its examples need (the adapter's optional dependency)
PAGES = {"pettingzoo.md": "pettingzoo", "gymnasium.md": "gymnasium", "openspiel.md": "pyspiel"}
MODULES = {
    "meeplex.envs.pettingzoo": "pettingzoo",
    "meeplex.envs.gymnasium": "gymnasium",
    "meeplex.envs.openspiel": "pyspiel",
}

_BLOCK = re.compile(r"^```python\n(.*?)^```$", re.DOTALL | re.MULTILINE)


def python_blocks(text: str) -> list[str]:
    return _BLOCK.findall(text)


def test_every_adapter_page_is_checked() -> None:
    assert sorted(p.name for p in DOCS.glob("*.md")) == sorted(PAGES)


@pytest.mark.parametrize("page", sorted(PAGES))
def test_page_examples_run(page: str, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip(PAGES[page])
    path = DOCS / page
    blocks = python_blocks(path.read_text(encoding="utf-8"))
    assert blocks, f"{page} has no runnable ```python example"
    namespace: dict[str, object] = {"__name__": f"docs_{path.stem}"}
    for number, block in enumerate(blocks, 1):
        code = compile(block, f"{path}:python block {number}", "exec")
        exec(code, namespace)
    capsys.readouterr()


@pytest.mark.parametrize("module", sorted(MODULES))
def test_module_docstring_examples(module: str) -> None:
    pytest.importorskip(MODULES[module])
    result = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
