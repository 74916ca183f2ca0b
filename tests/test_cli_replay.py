"""``meeplex replay``: stepping through a recorded game, and every way a file can be wrong."""

from __future__ import annotations

import io
import json

import pytest
from rich.console import Console

import meeplex
from meeplex import cli
from meeplex.cli.records import read_record
from meeplex.cli.replay import Replay

GAME = "flip_city"


@pytest.fixture(scope="module")
def games_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("replay") / "games.jsonl"
    assert cli.main(["arena", GAME, "players=1", "max_turns=3", "--games", "3", "--out", str(path)]) == 0
    return path


def _replay(path, index=0):
    out = io.StringIO()
    return Replay(read_record(str(path), index), str(path), Console(file=out, width=120)), out


def test_to_end_prints_the_final_state_and_result(games_file, capsys):
    assert cli.main(["replay", str(games_file), "--index", "2", "--to-end"]) == 0
    out = capsys.readouterr().out
    record = json.loads(games_file.read_text().splitlines()[2])
    state = meeplex.play_random(meeplex.make(record["game"]), 0)  # any finished game, for its wording
    assert "game over" in out or state.is_terminal()
    last = len(record["history"])
    assert f"step {last} of {last}" in out
    assert "result" in out and "return" in out and "score" in out


def test_stepping_forwards_and_backwards(games_file):
    replay, out = _replay(games_file)
    last = replay.last
    keys = iter(["n", "", "p", "p", "p", f"g {last}", "n", "g 1", f"g {last + 5}", "x", "q"])
    prompts = []

    def read(prompt):
        prompts.append(prompt)
        return next(keys)

    replay.interact(read)
    assert prompts == [f"step {s}/{last} > " for s in (0, 1, 2, 1, 0, 0, last, last, 1, 1, 1)]
    text = out.getvalue()
    assert "already at the start" in text and "already at the end" in text
    assert f"no step {last + 5}" in text and "unknown command 'x'" in text
    assert "chance: reveal" in text  # the action that led to each step


def test_end_of_input_quits(games_file):
    replay, _ = _replay(games_file)

    def read(prompt):
        raise EOFError

    replay.interact(read)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("", "holds no game records"),
        ("{nope\n", "line 1: not valid JSON"),
        ("[1, 2]\n", "expected a JSON object"),
        ('{"game": "flip_city"}\n', "missing history"),
        ('{"game": "flip_city", "history": [1, "x"]}\n', "list of action ids"),
        ('{"game": "no_such_game", "history": []}\n', "bad game"),
        ('{"game": "flip_city", "history": [999]}\n', "action 999 at step 1 does not replay"),
    ],
)
def test_bad_files_are_one_line(tmp_path, capsys, content, message):
    path = tmp_path / "bad.jsonl"
    path.write_text(content)
    assert cli.main(["replay", str(path), "--to-end"]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert err.strip().count("\n") == 0 and "Traceback" not in err


def test_index_out_of_range(games_file, capsys):
    assert cli.main(["replay", str(games_file), "--index", "3"]) == 2
    assert "holds 3 games: --index must be in 0..2" in capsys.readouterr().err


def test_a_record_that_no_longer_matches_the_engine_is_reported(games_file, tmp_path, capsys):
    record = json.loads(games_file.read_text().splitlines()[0])
    record["scores"] = [record["scores"][0] + 1]
    path = tmp_path / "edited.jsonl"
    path.write_text(json.dumps(record) + "\n")
    assert cli.main(["replay", str(path), "--to-end"]) == 1
    assert "recorded scores" in capsys.readouterr().out
