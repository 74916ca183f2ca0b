"""``meeplex arena``: fair seating, counts, Wilson intervals, recorded games, parallel runs and the plot."""

from __future__ import annotations

import json
import sys

import pytest

import meeplex
from meeplex import cli
from meeplex.cli.arena import ArenaResult
from meeplex.cli.records import GameRecord

GAME = "flip_city"
SOLO = f"{GAME}(players=1,max_turns=8)"  # short games


def _arena(tmp_path, *args: str, name: str = "arena.json") -> dict:
    out = tmp_path / name
    assert cli.main(["arena", *args, "--json", str(out)]) == 0
    return json.loads(out.read_text())


def test_seating_rotates_fairly():
    assert cli.seating(0, 3) == [0, 1, 2]
    assert cli.seating(1, 3) == [1, 2, 0]
    counts = [[0] * 3 for _ in range(3)]
    for i in range(6):
        for seat, agent in enumerate(cli.seating(i, 3)):
            counts[agent][seat] += 1
    assert counts == [[2, 2, 2]] * 3


def test_wilson_interval():
    low, high = cli.wilson_interval(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert cli.wilson_interval(0, 10)[0] == 0.0
    assert cli.wilson_interval(10, 10)[1] == 1.0
    assert cli.wilson_interval(0, 0) == (0.0, 1.0)
    low, high = cli.wilson_interval(2.5, 5)  # shared victories give fractional wins
    assert 0 < low < 0.5 < high < 1


def test_arena_numbers_add_up(tmp_path, capsys):
    result = _arena(
        tmp_path, GAME, "max_turns=10", "--agents", "random,random", "--games", "10", "--seed", "1"
    )
    assert result["games"] == 10
    assert sum(result["agent_wins"]) + result["no_winner"] == pytest.approx(10)
    assert sum(result["seat_wins"]) == pytest.approx(sum(result["agent_wins"]))
    assert result["decisive"] + result["shared"] + result["no_winner"] == 10
    assert result["total_length"] > 0
    assert len(result["win_ci95"]) == 2 and all(0 <= lo <= hi <= 1 for lo, hi in result["win_ci95"])
    out = capsys.readouterr().out
    for text in (
        "95% CI (Wilson)",
        "mean score",
        "no winner",
        "wins by seat",
        "mean length",
        "time per game",
    ):
        assert text in out


def test_arena_counts_wins_and_shares():
    result = ArenaResult(game=GAME, seed=0, agents=["a", "b"])
    record = dict(game=GAME, seed=0, agents=["a", "b"], history=[], length=4)
    result.record(GameRecord(index=0, seating=[0, 1], returns=[1.0, 0.0], scores=[8, 3], **record))
    result.record(GameRecord(index=1, seating=[1, 0], returns=[0.5, 0.5], scores=[8, 8], **record))
    result.record(GameRecord(index=2, seating=[0, 1], returns=[0.0, 0.0], scores=[1, 2], **record))
    assert result.agent_wins == [1.5, 0.5]
    assert result.seat_wins == [1.5, 0.5]
    assert (result.decisive, result.shared, result.no_winner) == (1, 1, 1)
    assert result.agent_score_lists == [[8, 8, 1], [3, 8, 2]]
    assert result.total_length == 12


def test_arena_is_deterministic(tmp_path):
    args = (SOLO, "--games", "6", "--seed", "7")
    first = _arena(tmp_path, *args, name="a.json")
    second = _arena(tmp_path, *args, name="b.json")
    for result in (first, second):
        result.pop("seconds")
        result.pop("wall_seconds")
    assert first == second


def test_arena_params_anywhere_and_players_from_agents(tmp_path):
    result = _arena(
        tmp_path, GAME, "office=true", "--agents", "random,random,random", "--games", "3", "max_turns=5"
    )
    game = meeplex.make(result["game"])
    assert game.params["office"] is True
    assert game.params["max_turns"] == 5
    assert game.num_players() == 3
    assert len(result["agent_wins"]) == 3


def test_out_records_replay_exactly(tmp_path):
    out = tmp_path / "games.jsonl"
    assert cli.main(["arena", GAME, "max_turns=4", "--games", "4", "--seed", "3", "--out", str(out)]) == 0
    lines = out.read_text().splitlines()
    assert len(lines) == 4
    for index, line in enumerate(lines):
        record = json.loads(line)
        assert record["index"] == index and record["seed"] == 3
        assert record["agents"] == ["random", "random"]
        assert record["seating"] == cli.seating(index, 2)
        state = meeplex.make(record["game"]).new_initial_state()
        for action in record["history"]:
            state.apply_action(action)
        assert state.is_terminal()
        assert state.returns() == record["returns"] and state.scores() == record["scores"]


def test_jobs_give_the_same_results(tmp_path):
    """Parallel processes change the wall time only: the counts and the recorded games are identical."""
    runs = {}
    for jobs in ("1", "2"):
        out = tmp_path / f"games{jobs}.jsonl"
        result = _arena(
            tmp_path,
            SOLO,
            "--games",
            "12",
            "--seed",
            "5",
            "--jobs",
            jobs,
            "--out",
            str(out),
            name=f"{jobs}.json",
        )
        result.pop("seconds")
        result.pop("wall_seconds")
        runs[jobs] = (result, out.read_bytes())
    assert runs["1"] == runs["2"]


def test_plot(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    png = tmp_path / "results.png"
    assert cli.main(["arena", SOLO, "--games", "5", "--plot", str(png)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "plot written" in capsys.readouterr().out


def test_plot_without_matplotlib_is_one_line(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now raises ImportError
    assert cli.main(["arena", SOLO, "--games", "5", "--plot", "x.png"]) == 2
    err = capsys.readouterr().err
    assert "pip install meeplex[plot]" in err
    assert err.strip().count("\n") == 0
