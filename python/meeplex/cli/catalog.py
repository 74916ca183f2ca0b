"""``meeplex list``: every registered game with its parameters, their defaults and meanings, and the agents.

The engines expose parameter names and defaults but no descriptions, so the meanings come from the first
table headed ``| name | type | default | meaning |`` in ``docs/rules/<game>.md``, when the source tree is
there (an editable install or a checkout). An installed wheel has no docs: then the defaults alone are shown.
Named variants come from an optional ``VARIANTS`` (or ``PRESETS``) mapping in ``meeplex.games.<game>``.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

import meeplex
from meeplex._params import game_string
from meeplex.agents import agent_names, agent_options

from .common import accepted_players, check_game_name, show_value

_TABLE_HEADER = re.compile(r"^\|\s*name\s*\|\s*type\s*\|\s*default\s*\|\s*meaning\s*\|", re.IGNORECASE)
_TITLE = re.compile(r"^#\s+(.+?)\s*$")
# Every rules page says "— as implemented" in its title; the list wants the game's name only.
_TITLE_SUFFIX = re.compile(r"\s+[—-]+\s+as implemented\s*$", re.IGNORECASE)
_CELL_SPLIT = re.compile(r"(?<!\\)\|")


@dataclass(frozen=True)
class ParamDoc:
    type: str
    default: str
    meaning: str


@dataclass(frozen=True)
class GameDoc:
    title: str | None
    params: dict[str, ParamDoc]


def rules_dir() -> Path:
    """``docs/rules`` of the source tree this package runs from (absent in an installed wheel)."""
    return Path(meeplex.__file__).resolve().parents[2] / "docs" / "rules"


def _cells(line: str) -> list[str]:
    body = line.strip()
    body = body[1:] if body.startswith("|") else body
    body = body[:-1] if body.endswith("|") and not body.endswith("\\|") else body
    return [cell.strip().replace("\\|", "|") for cell in _CELL_SPLIT.split(body)]


def _plain(text: str) -> str:
    """Markdown code spans and bold as plain text: the terminal shows `office` as office."""
    return text.replace("`", "").replace("**", "")


def parse_game_doc(text: str) -> GameDoc:
    """The title and the parameter table of a rules page; a page without them gives empty values."""
    lines = text.splitlines()
    title = None
    for line in lines:
        match = _TITLE.match(line)
        if match:
            title = _TITLE_SUFFIX.sub("", match.group(1)) or None
            break
    params: dict[str, ParamDoc] = {}
    for i, line in enumerate(lines):
        if not _TABLE_HEADER.match(line.strip()):
            continue
        for row in lines[i + 1 :]:
            if not row.strip().startswith("|"):
                break
            cells = _cells(row)
            if all(set(cell) <= set("-: ") for cell in cells):  # the |---|---| separator
                continue
            if len(cells) >= 4 and cells[0]:
                name = _plain(cells[0]).strip()
                params.setdefault(
                    name, ParamDoc(_plain(cells[1]), _plain(cells[2]), _plain(" | ".join(cells[3:])))
                )
        break  # only the first such table: later ones may describe something else
    return GameDoc(title, params)


def game_doc(name: str) -> GameDoc:
    """The rules page's title and parameter table; empty when the page is missing or unreadable."""
    try:
        return parse_game_doc((rules_dir() / f"{name}.md").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        return GameDoc(None, {})


def named_variants(name: str) -> dict[str, str]:
    """``VARIANTS`` / ``PRESETS`` of ``meeplex.games.<name>`` as {variant: game string}, if there is one."""
    games_function = meeplex.games
    try:
        module = importlib.import_module(f"meeplex.games.{name}")
    except Exception:  # an optional nicety: a broken or missing module must not break `meeplex list`
        return {}
    finally:
        # meeplex.games is both a function and the subpackage meeplex/games/: importing the subpackage
        # rebinds the attribute to the module, and meeplex.games() would fail for everyone after us.
        meeplex.games = games_function
    table = getattr(module, "VARIANTS", None) or getattr(module, "PRESETS", None)
    if not isinstance(table, Mapping):
        return {}
    found: dict[str, str] = {}
    for key, value in table.items():
        if isinstance(value, Mapping):
            found[str(key)] = game_string(name, value)
        elif isinstance(value, str):
            found[str(key)] = value
    return found


def _type_of(key: str, value: Any, players: list[int]) -> str:
    if key == "players" and players:
        return f"int {players[0]}..{players[-1]}"
    return type(value).__name__


def game_table(name: str) -> Table:
    """One game: a row per parameter (type, default, meaning) and its variants in the caption."""
    doc = game_doc(name)
    params = meeplex.make(name).params
    players = accepted_players(name)
    title = f"[bold cyan]{escape(name)}[/]" + (f": {escape(doc.title)}" if doc.title else "")
    table = Table(title=title, title_justify="left", expand=False)
    table.add_column("parameter", no_wrap=True)
    table.add_column("type", style="dim", no_wrap=True)
    table.add_column("default", justify="right", no_wrap=True)
    table.add_column("meaning", overflow="fold")
    for key in sorted(params):
        documented = doc.params.get(key)
        kind = documented.type if documented and documented.type else _type_of(key, params[key], players)
        meaning = documented.meaning if documented else ""
        table.add_row(key, escape(kind), show_value(params[key]), escape(meaning))
    if not params:
        table.add_row("-", "", "", "no parameters")
    captions = []
    if players:
        captions.append(f"players: {', '.join(map(str, players))}")
    variants = named_variants(name)
    if variants:
        captions.append("variants: " + "; ".join(f"{k} = {v}" for k, v in variants.items()))
    if not doc.params:
        captions.append(f"(no parameter table in {rules_dir() / (name + '.md')}: meanings unavailable)")
    if captions:
        table.caption = escape("\n".join(captions))
        table.caption_justify = "left"
    return table


def agents_table() -> Table:
    table = Table(title="agents (--agents / --seats; options as name:key=value,...)", title_justify="left")
    table.add_column("agent", style="bold", no_wrap=True)
    table.add_column("options (default)")
    for name in agent_names():
        options = agent_options(name)
        shown = ", ".join(
            f"{key}" if default is inspect.Parameter.empty else f"{key}={show_value(default)}"
            for key, default in options.items()
        )
        table.add_row(name, escape(shown or "-"))
    table.add_row("human", "meeplex play only: you choose the moves", style="dim")
    return table


def cmd_list(args: argparse.Namespace, console: Console) -> int:
    names = meeplex.games()
    if args.game:
        check_game_name(args.game)
        names = [args.game]
    for name in names:
        console.print(game_table(name))
        console.print()
    if not args.game:
        console.print(agents_table())
    return 0
