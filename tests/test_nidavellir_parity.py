"""Nidavellir: the two engines agree on states neither reached by play (docs/rules/nidavellir.md §8, §9 items
18 and 20).

Random games are stopped at random steps, one fact of their serialization is changed (a number anywhere, a
list entry added or dropped, the phase, a queue item), and both engines must either refuse the result with
InvalidStateError or accept it and then agree step by step. Each engine lists its own
extra refusals (items 18 and 20); this catches the two readings drifting apart. Accepted states are played
for up to 150 random steps: a state that is accepted must also be playable (item 20).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import meeplex
from meeplex.testing import random_action
from meeplex.testing.differential import Lockstep

GAMES = ("nidavellir", "nidavellir(players=3)", "nidavellir(first_game=true,players=5)")
PHASES = (
    "gems fill bid uline_bid take transform hero discard thrud ylud uline_trade pioneer_draw pioneer_keep "
    "pioneer_burn over"
).split()
WORDS = "recruit transform trade thrud discard ylud distinction pioneer burn age2 thrud_home end".split()


def _positions(game_string: str, seed: int, count: int) -> list[str]:
    """Serialized states of one random game, ``count`` of them on average, and every state with a queue."""
    rng = random.Random(seed)
    steps = meeplex.Rng(seed)
    state = meeplex.make(game_string).new_initial_state()
    out: list[str] = []
    while not state.is_terminal():
        text = state.serialize()
        if json.loads(text)["queue"] and rng.random() < 0.3 or rng.random() < count / 250:
            out.append(text)
        state.apply_action(random_action(state, steps))
    return out


def _leaves(obj: Any, path: tuple = ()) -> list[tuple]:
    """Paths to every int (not bool) and every list in ``obj``, the history and params left out."""
    found: list[tuple] = []
    if isinstance(obj, dict):
        for key, value in obj.items():
            if key not in ("history", "params", "game", "version"):
                found += _leaves(value, path + (key,))
    elif isinstance(obj, list):
        found.append(path)
        for i, value in enumerate(obj):
            found += _leaves(value, path + (i,))
    elif isinstance(obj, int) and not isinstance(obj, bool):
        found.append(path)
    return found


def _get(obj: Any, path: tuple) -> Any:
    for key in path:
        obj = obj[key]
    return obj


def _mutate(obj: dict, rng: random.Random) -> str:
    kind = rng.randrange(6)
    if kind == 0:
        obj["phase"] = rng.choice(PHASES)
    elif kind == 1:
        seat = rng.randrange(-1, len(obj["seats"]))
        item = [rng.choice(WORDS), seat, rng.choice([0, 0, 1, 5, 7, -1, 3])]
        obj["queue"].insert(rng.randrange(len(obj["queue"]) + 1), item)
    elif kind == 2 and obj["queue"]:
        obj["queue"].pop(rng.randrange(len(obj["queue"])))
    else:
        path = rng.choice(_leaves(obj))
        parent, last = _get(obj, path[:-1]), path[-1]
        value = parent[last]
        if isinstance(value, list):
            if value and rng.random() < 0.5:
                value.pop(rng.randrange(len(value)))
            else:
                value.append(rng.choice(value) if value and rng.random() < 0.5 else rng.randrange(-1, 30))
        else:
            parent[last] = rng.choice([value + 1, value - 1, -1, 0, rng.randrange(-2, 45)])
    return json.dumps(obj)


@pytest.mark.parametrize("game_string", GAMES)
def test_mutated_states_are_read_alike(game_string: str) -> None:
    rng = random.Random(game_string)
    steps = meeplex.Rng(7)
    checked = accepted = 0
    for seed in range(2):
        for text in _positions(game_string, seed, 8):
            for _ in range(5):
                start = _mutate(json.loads(text), rng)
                lock = Lockstep(game_string, start=start)
                assert lock.divergence is None, f"{lock.divergence}\n{start}"
                checked += 1
                if lock.rejected:
                    continue
                accepted += 1
                for _ in range(150):
                    if not lock.live:
                        break
                    assert lock.rust is not None
                    assert lock.step(random_action(lock.rust, steps)) is None, f"{lock.divergence}\n{start}"
    assert checked > 40 and 0 < accepted < checked  # both outcomes were exercised


def _found() -> list[dict]:
    path = Path(__file__).parent / "data" / "nidavellir_parity_found.json"
    return json.loads(path.read_text())


@pytest.mark.parametrize("case", _found(), ids=lambda case: case["found"][:60])
def test_states_the_fuzz_found_are_read_alike(case: dict) -> None:
    """Mutated states on which the engines once disagreed (each fixed in the engine that was wrong, §9
    items 17 and 20): both now refuse them alike, or accept them and agree on the actions that split them."""
    lock = Lockstep(case["game"], start=json.dumps(case["start"]))
    assert lock.divergence is None
    if not lock.rejected:
        for action in case["actions"]:
            assert lock.step(action) is None, lock.divergence
