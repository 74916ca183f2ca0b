"""Recorded games: one JSON object per line, written by ``arena --out`` and read by ``replay``.

A record holds everything needed to replay the game exactly (the full game string and the history, chance
outcomes included) and to re-derive it (the run seed, the game's index in the run and the agents per seat).
Time is left out on purpose: the same run writes the same bytes, whatever ``--jobs`` was.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .common import CliError


@dataclass
class GameRecord:
    game: str  # the canonical game string with every parameter
    seed: int  # the run seed; chance and agent seeds derive from (seed, index)
    index: int
    agents: list[str]  # the agent spec in each seat
    seating: list[int]  # the agent's position in the run's agent list, per seat
    history: list[int]
    returns: list[float]
    scores: list[float]
    length: int = 0  # len(history), kept when the history itself is dropped to save memory
    seconds: float = 0.0  # time spent playing; reported, never written

    def to_json(self) -> str:
        data = {
            "game": self.game,
            "seed": self.seed,
            "index": self.index,
            "agents": self.agents,
            "seating": self.seating,
            "history": self.history,
            "returns": self.returns,
            "scores": self.scores,
        }
        return json.dumps(data, separators=(",", ":"))


def _check(data: Any, where: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise CliError(f"{where}: expected a JSON object, found {type(data).__name__}")
    missing = [key for key in ("game", "history") if key not in data]
    if missing:
        raise CliError(f"{where}: not a meeplex game record (missing {', '.join(missing)})")
    if not isinstance(data["game"], str):
        raise CliError(f"{where}: 'game' must be a game string")
    history = data["history"]
    if not isinstance(history, list) or not all(
        isinstance(a, int) and not isinstance(a, bool) for a in history
    ):
        raise CliError(f"{where}: 'history' must be a list of action ids")
    return data


def read_record(path: str, index: int) -> dict[str, Any]:
    """Record number ``index`` (0-based, blank lines skipped) of a JSON-lines file, checked for shape."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise CliError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise CliError(f"{path} is not a text file") from None
    lines = [(number, line) for number, line in enumerate(text.splitlines(), 1) if line.strip()]
    if not lines:
        raise CliError(f"{path} holds no game records")
    if not 0 <= index < len(lines):
        raise CliError(f"{path} holds {len(lines)} games: --index must be in 0..{len(lines) - 1}")
    number, line = lines[index]
    where = f"{path} line {number}"
    try:
        data = json.loads(line)
    except ValueError as exc:
        # Not every ValueError of json.loads is a JSONDecodeError (an int literal past Python's digit limit).
        detail = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc)
        raise CliError(f"{where}: not valid JSON ({detail})") from None
    return _check(data, where)


__all__ = ["GameRecord", "read_record"]
