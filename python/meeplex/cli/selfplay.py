"""``meeplex selfplay``: training data for AlphaZero-style learners, one search agent playing every seat.

For every decision of every game it records the observation of the seat to move, the legal-action mask, the
search policy (the root's visit distribution, ``agent.policy(state)``), the action played and the game's final
returns. Games are cut into shards of ``--shard-games`` games; shard ``j`` holds games ``j*G .. (j+1)*G-1``
and is a pure function of (game string, agent, seed, j), so the backend and the number of workers never change
a byte, and a rerun of the same command skips the shards already on disk (each is written whole, then
renamed). The format is described in docs/cli.md ("selfplay").
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from rich.console import Console
from rich.markup import escape

import meeplex
from meeplex._params import game_string
from meeplex.agents import make_agent, resolve_chance

from .common import (
    CliError,
    agent_seed,
    chance_seed,
    derive_seed,
    game_for_seats,
    progress_bar,
    short_game_string,
)
from .parallel import Task, execute, fault_point, open_backend

FORMAT = "meeplex-selfplay/1"
FORMATS = ("both", "npz", "parquet")
_SAMPLE_STREAM = 1 << 32  # the sub-stream of game i's move sampling (--temperature > 0)
_ROW_ARRAYS = ("game", "step", "ply", "player", "action", "value")
_WIDE_ARRAYS = ("observation", "mask", "policy", "returns")

Shard = dict[str, npt.NDArray[Any]]


def _sample(policy: npt.NDArray[np.float32], temperature: float, rng: meeplex.Rng) -> int:
    """An action drawn from ``policy ** (1 / temperature)`` with the shared PRNG (float64 arithmetic, so
    that every machine draws the same one)."""
    weights = np.power(policy.astype(np.float64), 1.0 / temperature)
    cumulative = np.cumsum(weights)
    r = (rng.next_u64() >> 11) * (1.0 / (1 << 53)) * cumulative[-1]
    return int(min(np.searchsorted(cumulative, r, side="right"), len(policy) - 1))


def play_selfplay_game(
    game: meeplex.Game, spec: str, seed: int, index: int, temperature: float = 0.0
) -> dict[str, list[Any]]:
    """Game ``index`` of a self-play run, as columns of one row per decision."""
    agent: Any = make_agent(spec, agent_seed(seed, index, 0))
    chance = meeplex.Rng(chance_seed(seed, index))
    sampler = meeplex.Rng(derive_seed(seed, index, _SAMPLE_STREAM))
    state = game.new_initial_state()
    rows: dict[str, list[Any]] = {name: [] for name in ("step", "ply", "player", "action", *_WIDE_ARRAYS[:3])}
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(resolve_chance(state, chance))
            continue
        player = state.current_player()
        policy = agent.policy(state)
        # The agent's own choice (most visited, ties to the lowest id) is the policy's first maximum.
        action = int(np.argmax(policy)) if temperature <= 0 else _sample(policy, temperature, sampler)
        rows["step"].append(len(rows["step"]))
        rows["ply"].append(len(state.history()))
        rows["player"].append(player)
        rows["action"].append(action)
        rows["observation"].append(state.observation_tensor(player).reshape(-1))
        rows["mask"].append(state.legal_actions_mask())
        rows["policy"].append(policy)
        state.apply_action(action)
    returns = [float(r) for r in state.returns()]
    rows["returns"] = [returns] * len(rows["step"])
    rows["value"] = [returns[p] for p in rows["player"]]
    rows["game"] = [index] * len(rows["step"])
    return rows


_worker_games: dict[str, meeplex.Game] = {}


def selfplay_shard(text: str, spec: str, seed: int, start: int, stop: int, temperature: float) -> Shard:
    """Games ``start..stop`` as one shard's arrays (one task, on any backend)."""
    game = _worker_games.get(text)
    if game is None:
        game = _worker_games[text] = meeplex.make(text)
    columns: dict[str, list[Any]] = {name: [] for name in _ROW_ARRAYS + _WIDE_ARRAYS}
    for index in range(start, stop):
        if index == (start + stop) // 2:
            fault_point()
        for name, values in play_selfplay_game(game, spec, seed, index, temperature).items():
            columns[name].extend(values)
    actions = game.num_distinct_actions()
    rows = len(columns["step"])
    shape = game.observation_shape()
    return {
        "game": np.asarray(columns["game"], dtype=np.int64),
        "step": np.asarray(columns["step"], dtype=np.int32),
        "ply": np.asarray(columns["ply"], dtype=np.int32),
        "player": np.asarray(columns["player"], dtype=np.int32),
        "action": np.asarray(columns["action"], dtype=np.int32),
        "value": np.asarray(columns["value"], dtype=np.float32),
        "observation": np.asarray(columns["observation"], dtype=np.float32).reshape(rows, *shape),
        "mask": np.asarray(columns["mask"], dtype=np.int8).reshape(rows, actions),
        "policy": np.asarray(columns["policy"], dtype=np.float32).reshape(rows, actions),
        "returns": np.asarray(columns["returns"], dtype=np.float32).reshape(rows, game.num_players()),
    }


# ---------------------------------------------------------------------------------------------------------
# Files


def shard_name(key: int) -> str:
    return f"shard-{key:05d}"


def _suffixes(fmt: str) -> tuple[str, ...]:
    return {"both": (".npz", ".parquet"), "npz": (".npz",), "parquet": (".parquet",)}[fmt]


def _require_pyarrow(fmt: str) -> None:
    if fmt == "npz":
        return
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        raise CliError(
            "Parquet shards need pyarrow: pip install 'meeplex[selfplay]' (or --format npz)"
        ) from None


def write_shard(directory: Path, key: int, shard: Shard, fmt: str) -> None:
    """The shard's files, each written under a temporary name and renamed: a file that exists is whole."""
    base = directory / shard_name(key)
    if fmt in ("both", "npz"):
        tmp = base.with_name(base.name + ".npz.tmp")
        with open(tmp, "wb") as out:
            savez: Any = np.savez  # its stubs take **kwds as the allow_pickle flag
            savez(out, **shard)
        os.replace(tmp, base.with_suffix(".npz"))
    if fmt in ("both", "parquet"):
        import pyarrow as pa
        import pyarrow.parquet as pq

        columns: dict[str, Any] = {name: shard[name] for name in _ROW_ARRAYS}
        for name in _WIDE_ARRAYS:
            array = shard[name]
            width = int(np.prod(array.shape[1:]))
            flat = pa.array(array.reshape(-1), type=pa.from_numpy_dtype(array.dtype))
            columns[name] = pa.FixedSizeListArray.from_arrays(flat, width)
        tmp = base.with_name(base.name + ".parquet.tmp")
        pq.write_table(pa.table(columns), tmp)
        os.replace(tmp, base.with_suffix(".parquet"))


def _meta(args: argparse.Namespace, game: meeplex.Game) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "game": game_string(game.name, game.params),
        "agent": args.agent,
        "seed": args.seed,
        "games": args.games,
        "shard_games": args.shard_games,
        "temperature": args.temperature,
        "files": args.format,
        "players": game.num_players(),
        "num_distinct_actions": game.num_distinct_actions(),
        "observation_shape": list(game.observation_shape()),
        "shards": (args.games + args.shard_games - 1) // args.shard_games,
    }


def _prepare(directory: Path, meta: dict[str, Any]) -> None:
    """Create the directory and its meta.json, or check that it holds this very run (to resume it)."""
    path = directory / "meta.json"
    if path.exists():
        try:
            found = json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            raise CliError(f"{path} is not a selfplay meta.json") from None
        if found != meta:
            differ = sorted(k for k in meta.keys() | found.keys() if meta.get(k) != found.get(k))
            raise CliError(
                f"{directory} holds another selfplay run (differs in {', '.join(differ)}): use another --out"
            )
        return
    try:
        directory.mkdir(parents=True, exist_ok=True)
        if any(directory.glob("shard-*")):
            raise CliError(f"{directory} holds shards but no meta.json: use another --out")
        path.write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    except OSError as exc:
        raise CliError(f"cannot write {directory}: {exc.strerror or exc}") from None


def _done(directory: Path, key: int, fmt: str) -> bool:
    base = directory / shard_name(key)
    return all(base.with_suffix(suffix).exists() for suffix in _suffixes(fmt))


def _tasks(args: argparse.Namespace, text: str, todo: list[int]) -> Iterator[Task]:
    for key in todo:
        start = key * args.shard_games
        stop = min(args.games, start + args.shard_games)
        yield key, (text, args.agent, args.seed, start, stop, args.temperature)


def cmd_selfplay(args: argparse.Namespace, console: Console) -> int:
    game = game_for_seats(args.game, args.params, None)
    probe_agent: Any = make_agent(args.agent, 0)  # an unknown agent or option fails here, before the run
    if not callable(getattr(probe_agent, "policy", None)):
        raise CliError(f"agent {args.agent!r} has no search policy: selfplay needs mcts or ismcts")
    if not args.temperature >= 0:
        raise ValueError("--temperature must be >= 0")
    _require_pyarrow(args.format)
    directory = Path(args.out)
    meta = _meta(args, game)
    _prepare(directory, meta)
    shards = meta["shards"]
    todo = [key for key in range(shards) if not _done(directory, key, args.format)]
    skipped = shards - len(todo)
    text = meta["game"]
    backend = open_backend(args.backend, args.jobs, args.address)
    finished = decisions = 0
    interrupted = False
    try:
        with progress_bar(console) as progress:
            task = progress.add_task(f"selfplay {game.name}", total=args.games)
            progress.advance(task, sum(_games_in(args, key) for key in range(shards) if key not in todo))
            try:
                for key, shard in execute(selfplay_shard, _tasks(args, text, todo), backend):
                    write_shard(directory, key, shard, args.format)
                    finished += 1
                    decisions += len(shard["step"])
                    progress.advance(task, _games_in(args, key))
            except KeyboardInterrupt:
                interrupted = True
    finally:
        backend.close()
    done = skipped + finished
    console.print(
        f"selfplay: {escape(short_game_string(game))}, agent {escape(args.agent)}, seed {args.seed}:"
        f" {done} of {shards} shards"
        f" in {escape(str(directory))} ({finished} written now with {backend.describe()}, {decisions}"
        f" decisions; {skipped} already there)",
        soft_wrap=True,
    )
    if interrupted:
        console.print(
            "[bold red]interrupted:[/] the shards above are whole; rerun the same command to finish"
        )
        return 130
    return 0


def _games_in(args: argparse.Namespace, key: int) -> int:
    games: int = args.games
    size: int = args.shard_games
    start = key * size
    return max(0, min(games, start + size) - start)


def load_shards(directory: str | os.PathLike[str]) -> Shard:
    """Every shard of a selfplay directory (npz files), concatenated in game order: a convenience for
    Python users; the files themselves need nothing but numpy (or pandas/pyarrow for the Parquet ones)."""
    files = sorted(Path(directory).glob("shard-*.npz"))
    if not files:
        raise CliError(f"{directory} holds no npz shards")
    parts = [dict(np.load(f)) for f in files]
    return {name: np.concatenate([p[name] for p in parts]) for name in parts[0]}


def add_selfplay_parser(sub: Any, add_game: Any, add_backend_options: Any) -> None:
    from .common import natural, positive

    p = sub.add_parser("selfplay", help="self-play training data (observations, masks, search policies)")
    add_game(p)
    p.add_argument("--agent", default="mcts", help="the search agent playing every seat (default mcts)")
    p.add_argument("--games", type=positive, default=100, help="number of games (default 100)")
    p.add_argument("--out", required=True, metavar="DIR", help="directory of the shards (created; resumable)")
    p.add_argument("--seed", type=natural, default=0, help="run seed (default 0)")
    p.add_argument(
        "--shard-games", type=positive, default=20, metavar="G", help="games per shard (default 20)"
    )
    p.add_argument(
        "--format",
        choices=FORMATS,
        default="both",
        help="npz (numpy), parquet (pandas/pyarrow) or both (default)",
    )
    p.add_argument(
        "--temperature",
        type=float,
        default=0.0,
        help="0 plays the agent's move (the most visited); T > 0 samples from policy^(1/T) (default 0)",
    )
    add_backend_options(p, "shards")
    p.set_defaults(func=cmd_selfplay)


__all__ = ["FORMAT", "cmd_selfplay", "load_shards", "play_selfplay_game", "selfplay_shard", "write_shard"]
