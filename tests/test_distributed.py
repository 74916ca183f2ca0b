"""Issue 22: arena, selfplay and fuzz on local processes and on Ray, with the same results for the same seeds.

One local Ray with 2 CPUs is started for the whole module and shut down at its end; games are short.
"""

from __future__ import annotations

import itertools
import json
import logging
import os
import sys
from pathlib import Path

import numpy as np
import pytest

import meeplex
from meeplex import cli
from meeplex.agents import MCTSAgent
from meeplex.cli import arena, fuzz, parallel, selfplay
from meeplex.cli.arena import ArenaResult
from meeplex.cli.records import GameRecord

GAME = "flip_city(max_turns=3)"
FOUR = ["random", "mcts:sims=4", "mcts:sims=8,rollout=5", "random"]


@pytest.fixture(scope="module")
def ray_local(tmp_path_factory):
    ray = pytest.importorskip("ray")
    fault_dir = tmp_path_factory.mktemp("fault")
    # The workers inherit the environment of the Ray started here: the fault hook's directory.
    os.environ["MEEPLEX_FAULT_DIR"] = str(fault_dir)
    ray.init(
        address="local", num_cpus=2, include_dashboard=False, logging_level=logging.ERROR, log_to_driver=False
    )
    try:
        yield fault_dir
    finally:
        ray.shutdown()
        os.environ.pop("MEEPLEX_FAULT_DIR", None)


def _arena(tmp_path: Path, name: str, *args: str) -> tuple[dict, bytes]:
    summary, games = tmp_path / f"{name}.json", tmp_path / f"{name}.jsonl"
    argv = ["arena", GAME, "players=2", "--agents", ",".join(FOUR), "--games", "12", "--seed", "3"]
    assert cli.main([*argv, *args, "--json", str(summary), "--out", str(games)]) == 0
    result = json.loads(summary.read_text())
    for key in ("seconds", "wall_seconds"):
        result.pop(key)
    return result, games.read_bytes()


# ---------------------------------------------------------------------------------------------------------
# The schedule and the ratings (no Ray)


@pytest.mark.parametrize("agents,seats", [(4, 2), (5, 3), (6, 4), (3, 3)])
def test_schedule_meets_every_agent_with_every_other_in_every_seat(agents, seats):
    cycle = arena.schedule(agents, seats)
    seen = set()
    for seating in cycle:
        assert len(set(seating)) == seats
        for (s1, a), (_, b) in itertools.permutations(enumerate(seating), 2):
            seen.add((a, b, s1))
    assert seen == {(a, b, s) for a, b in itertools.permutations(range(agents), 2) for s in range(seats)}
    # every agent takes every seat equally often over a cycle
    counts = {(a, s): 0 for a in range(agents) for s in range(seats)}
    for seating in cycle:
        for s, a in enumerate(seating):
            counts[(a, s)] += 1
    assert len(set(counts.values())) == 1
    if agents == seats:
        assert [list(c) for c in cycle] == [cli.seating(i, agents) for i in range(agents)]


def test_ratings_follow_the_results():
    result = ArenaResult(game="g", seed=0, agents=["strong", "weak", "middle"], seats=2)
    base = dict(game="g", seed=0, history=[], scores=[0, 0], length=1)
    for i in range(30):
        seating = [list(s) for s in arena.schedule(3, 2)][i % 6]
        strength = {0: 2, 2: 1, 1: 0}
        returns = [1.0, 0.0] if strength[seating[0]] > strength[seating[1]] else [0.0, 1.0]
        agents = [result.agents[a] for a in seating]
        result.record(GameRecord(index=i, agents=agents, seating=seating, returns=returns, **base))
    assert result.agent_games == [20, 20, 20]
    assert result.rating_mu[0] > result.rating_mu[2] > result.rating_mu[1]
    assert all(sigma < 8.3 for sigma in result.rating_sigma)
    summary = result.summary()
    assert summary["win_rate"] == [1.0, 0.0, 0.5]
    assert len(summary["rating_ordinal"]) == 3


def test_arena_more_agents_than_seats_needs_players(capsys):
    assert cli.main(["arena", "flip_city", "--agents", ",".join(["random"] * 9), "--games", "1"]) == 2
    assert "players=K" in capsys.readouterr().err


def test_arena_prints_ratings_and_games_per_agent(tmp_path, capsys):
    result, _ = _arena(tmp_path, "one")
    assert result["games"] == 12 and result["seats"] == 2
    assert sum(result["agent_games"]) == 24
    assert len(result["rating_mu"]) == len(result["rating_sigma"]) == 4
    out = capsys.readouterr().out
    assert "ratings (OpenSkill, Plackett-Luce)" in out and "a schedule of 12 seatings" in out


def test_policy_is_the_search_of_step():
    game = meeplex.make("flip_city")
    state = game.new_initial_state()
    chance = meeplex.Rng(1)
    while state.is_chance_node() or len(state.legal_actions()) < 2:
        if state.is_chance_node():
            state.apply_action(meeplex.agents.resolve_chance(state, chance))
        else:
            state.apply_action(state.legal_actions()[0])
    policy = MCTSAgent(seed=5, sims=50).policy(state)
    assert policy.dtype == np.float32 and policy.shape == (game.num_distinct_actions(),)
    assert policy.sum() == pytest.approx(1.0)
    mask = state.legal_actions_mask()
    assert np.all(policy[mask == 0] == 0)
    assert int(policy.argmax()) == MCTSAgent(seed=5, sims=50).step(state)
    with pytest.raises(TypeError):
        MCTSAgent().policy(meeplex.oracle.make("flip_city").new_initial_state())


def test_interrupted_arena_reports_what_finished(monkeypatch, capsys):
    real = arena.play_arena_game

    def stop_at_three(game, names, seed, index):
        if index == 3:
            raise KeyboardInterrupt
        return real(game, names, seed, index)

    monkeypatch.setattr(arena, "play_arena_game", stop_at_three)
    assert cli.main(["arena", GAME, "--games", "10"]) == 130
    out = capsys.readouterr().out
    assert "arena: 3 games" in out and "first 3 of 10 games" in out


def test_local_pool_survives_a_killed_worker(tmp_path, monkeypatch):
    clean, clean_games = _arena(tmp_path, "clean")
    monkeypatch.setenv("MEEPLEX_FAULT_DIR", str(tmp_path))
    (tmp_path / "armed").touch()
    faulty, faulty_games = _arena(tmp_path, "faulty", "--jobs", "2", "--chunk", "2")
    assert list(tmp_path.glob("fired-*")), "no worker was killed"
    assert (faulty, faulty_games) == (clean, clean_games)


def test_backend_errors_are_one_line(monkeypatch, capsys):
    for argv, text in [
        (["--backend", "local", "--address", "127.0.0.1:1"], "--address needs --backend ray"),
        (["--backend", "ray", "--address", "nonsense"], "bad --address"),
        (["--backend", "ray", "--address", "127.0.0.1:1"], "cannot reach a Ray cluster at 127.0.0.1:1"),
    ]:
        assert cli.main(["arena", GAME, "--games", "1", *argv]) == 2
        err = capsys.readouterr().err
        assert text in err and err.strip().count("\n") == 0, err
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now raises ImportError
    assert cli.main(["arena", GAME, "--games", "1", "--backend", "ray"]) == 2
    err = capsys.readouterr().err
    assert "pip install 'meeplex[ray]'" in err and err.strip().count("\n") == 0


# ---------------------------------------------------------------------------------------------------------
# On Ray


def test_arena_same_results_on_every_backend(tmp_path, ray_local):
    one = _arena(tmp_path, "one")
    assert _arena(tmp_path, "jobs2", "--jobs", "2") == one
    assert _arena(tmp_path, "ray", "--backend", "ray", "--chunk", "3") == one
    assert _arena(tmp_path, "ray1", "--backend", "ray", "--jobs", "1") == one


def test_ray_worker_killed_mid_run_loses_and_duplicates_no_game(tmp_path, ray_local):
    clean = _arena(tmp_path, "clean")
    (ray_local / "armed").touch()
    faulty = _arena(tmp_path, "faulty", "--backend", "ray", "--chunk", "2")
    fired = list(ray_local.glob("fired-*"))
    assert fired and not (ray_local / "armed").exists(), "no worker was killed"
    for path in fired:
        path.unlink()
    assert faulty == clean
    lines = [json.loads(line) for line in faulty[1].decode().splitlines()]
    assert [record["index"] for record in lines] == list(range(12))


def test_cluster_without_the_package_is_one_line(monkeypatch, capsys, ray_local):
    monkeypatch.setattr(parallel, "_PACKAGE", "meeplex_not_installed_here")
    assert cli.main(["arena", GAME, "--games", "1", "--backend", "ray"]) == 2
    err = capsys.readouterr().err
    assert "cannot import meeplex_not_installed_here" in err and err.strip().count("\n") == 0


def _selfplay(out: Path, *args: str) -> int:
    argv = ["selfplay", GAME, "--agent", "mcts:sims=6,rollout=10", "--games", "6", "--shard-games", "2"]
    return cli.main([*argv, "--seed", "9", "--out", str(out), *args])


def _read(directory: Path) -> dict[str, np.ndarray]:
    return selfplay.load_shards(directory)


def test_selfplay_shards_same_on_every_backend_and_resumable(tmp_path, ray_local, capsys):
    assert _selfplay(tmp_path / "local") == 0
    assert _selfplay(tmp_path / "ray", "--backend", "ray") == 0
    local, on_ray = _read(tmp_path / "local"), _read(tmp_path / "ray")
    assert local.keys() == on_ray.keys()
    for name in local:
        np.testing.assert_array_equal(local[name], on_ray[name], err_msg=name)

    game = meeplex.make(GAME)
    rows = len(local["step"])
    assert local["observation"].shape == (rows, *game.observation_shape())
    assert local["mask"].shape == local["policy"].shape == (rows, game.num_distinct_actions())
    assert np.allclose(local["policy"].sum(axis=1), 1.0)
    assert np.all(local["policy"][local["mask"] == 0] == 0)
    assert np.all(local["mask"][np.arange(rows), local["action"]] == 1)
    assert sorted(set(local["game"].tolist())) == list(range(6))
    assert np.all(local["value"] == local["returns"][np.arange(rows), local["player"]])

    # pandas and pyarrow read the Parquet twins directly.
    pd = pytest.importorskip("pandas")
    frame = pd.read_parquet(tmp_path / "local" / "shard-00000.parquet")
    first = local["game"] < 2
    assert len(frame) == int(first.sum())
    np.testing.assert_array_equal(np.stack(frame["policy"].to_numpy()), local["policy"][first])
    meta = json.loads((tmp_path / "local" / "meta.json").read_text())
    assert meta["format"] == selfplay.FORMAT and meta["shards"] == 3

    # Resumable: a rerun skips the finished shards and writes only the missing one, identically.
    capsys.readouterr()
    before = (tmp_path / "ray" / "shard-00001.parquet").read_bytes()
    (tmp_path / "ray" / "shard-00001.npz").unlink()
    assert _selfplay(tmp_path / "ray", "--backend", "ray") == 0
    out = capsys.readouterr().out
    assert "3 of 3 shards" in out and "1 written now" in out and "2 already there" in out
    np.testing.assert_array_equal(_read(tmp_path / "ray")["policy"], local["policy"])
    assert (tmp_path / "ray" / "shard-00001.parquet").read_bytes() == before

    # Another run into the same directory is refused.
    assert _selfplay(tmp_path / "ray", "--temperature", "1") == 2
    assert "another selfplay run" in capsys.readouterr().err


def test_selfplay_needs_a_search_agent(tmp_path, capsys):
    assert cli.main(["selfplay", GAME, "--agent", "random", "--games", "1", "--out", str(tmp_path)]) == 2
    assert "no search policy" in capsys.readouterr().err


def test_fuzz_on_ray_records_every_seed(tmp_path, ray_local, capsys):
    log = tmp_path / "fuzz.jsonl"
    argv = ["fuzz", GAME, "--games", "6", "--seed", "20", "--backend", "ray", "--out", str(log)]
    assert cli.main(argv) == 0
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert [(r["index"], r["seed"], r["result"]) for r in records] == [(i, 20 + i, "agree") for i in range(6)]
    assert "disagreements" in capsys.readouterr().out


_PLANTED = """
def planted_chunk(targets, seed, start, stop):
    import meeplex
    from meeplex.testing.differential import Divergence
    outcomes = []
    for index in range(start, stop):
        target, game_seed = targets[index % len(targets)], seed + index
        if index == 5:
            actions = meeplex.play_random(meeplex.make(target), game_seed).history()[:20]
            found = Divergence(target, game_seed, actions, "a planted difference", 1, 2)
            outcomes.append((index, target, game_seed, 0, ("disagreement", found)))
            break
        outcomes.append((index, target, game_seed, 1, None))
    return outcomes
"""


def test_fuzz_on_ray_reports_the_first_disagreement_shrunk(tmp_path, ray_local, monkeypatch, capsys):
    from meeplex.testing import differential

    namespace: dict = {}
    exec(_PLANTED, {"__name__": "planted_fuzz"}, namespace)  # shipped to the workers by value
    monkeypatch.setattr(fuzz, "fuzz_chunk", namespace["planted_chunk"])
    monkeypatch.setattr(differential, "shrink", lambda game_string, actions: actions[:5])
    log = tmp_path / "fuzz.jsonl"
    argv = [
        "fuzz",
        GAME,
        "--games",
        "40",
        "--seed",
        "4",
        "--backend",
        "ray",
        "--chunk",
        "2",
        "--out",
        str(log),
    ]
    assert cli.main(argv) == 1
    out = capsys.readouterr().out
    assert "a planted difference" in out and "seed 9" in out
    assert "shrunk history (5 of 20 actions)" in out
    shrunk = meeplex.play_random(meeplex.make(GAME), 9).history()[:5]
    assert f"meeplex fuzz 'flip_city(max_turns=3)' --history {','.join(map(str, shrunk))}" in out
    assert [json.loads(line)["index"] for line in log.read_text().splitlines()] == list(range(6))
