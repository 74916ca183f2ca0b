"""``meeplex play``: a whole game driven through a real pseudo-terminal, plus in-process checks of the input
handling, hot seat, save/load and what may be told to a seat in a hidden-information game."""

from __future__ import annotations

import fcntl
import io
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time

import pytest
from rich.console import Console
from rich.text import Text

import meeplex
from meeplex import cli
from meeplex.cli.play import PlaySession
from meeplex.cli.telling import move_line, seat_can_tell

GAME = "flip_city"
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[=>()][0-9A-Za-z]?")


class Terminal:
    """A child process on a pseudo-terminal of a fixed size: what a person's terminal is to the program."""

    def __init__(self, argv: list[str], cols: int = 100, rows: int = 40) -> None:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": str(cols), "LINES": str(rows)}
        env.pop("NO_COLOR", None)
        self.process = subprocess.Popen(
            argv, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True, close_fds=True
        )
        os.close(slave)
        self.master = master
        self.screen = ""  # everything shown so far, escape sequences removed
        self.seen = 0  # how much of it the last expect() consumed

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return True
        try:
            data = os.read(self.master, 65536)
        except OSError:  # EIO: the child closed the terminal
            return False
        if not data:
            return False
        self.screen += _ANSI.sub("", data.decode("utf-8", "replace")).replace("\r", "")
        return True

    def expect(self, pattern: str, timeout: float = 10.0) -> re.Match:
        """Wait until ``pattern`` appears in what was shown since the previous match."""
        deadline = time.monotonic() + timeout
        regex = re.compile(pattern)
        while True:
            match = regex.search(self.screen, self.seen)
            if match:
                self.seen = match.end()
                return match
            if time.monotonic() > deadline or not self._read(0.2) and self.process.poll() is not None:
                raise AssertionError(f"no {pattern!r} on screen; it ends with:\n{self.screen[-2000:]}")

    def send(self, line: str) -> None:
        os.write(self.master, (line + "\r").encode())

    def finish(self, timeout: float = 10.0) -> int:
        """Read the rest of the output until the child closes the terminal; its exit code."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self._read(0.1):
            pass
        os.close(self.master)
        return self.process.wait(timeout=5)

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def _play_argv(*args: str) -> list[str]:
    return [sys.executable, "-m", "meeplex.cli", "play", *args]


def test_a_whole_game_in_a_real_terminal(tmp_path):
    save = tmp_path / "game.json"
    # Seed 7: seat 0 starts with a Convenience Store on top (not a forced play), and after it a Central Park.
    term = Terminal(_play_argv(GAME, "max_turns=2", "--seed", "7", "--seats", "human,random"))
    try:
        term.expect(r"seed 7 \(seats: 0 you, 1 random\)")
        term.expect(r"chance: reveal \w+")  # chance is drawn by the shared PRNG and shown as a line
        term.expect(r"you are seat 0")  # the human seat's own view
        # The legal moves, numbered and named: the first card of a turn is played (FC interp. 20), no stop.
        term.expect(r"1 play\s+seat 0 > ")
        term.send("help")
        term.expect(r"save FILE")
        term.expect(r"seat 0 > ")
        term.send("no such move")
        term.expect(r"not a move here: 'no such move'")
        term.expect(r"seat 0 > ")
        term.send("7")
        term.expect(r"no move 7: choose 1\.\.1")
        term.expect(r"seat 0 > ")
        term.send("stop")  # good notation, not legal before a card is played
        term.expect(r"'stop' is not legal now")
        term.expect(r"seat 0 > ")
        term.send(f"save {save}")
        term.expect(r"saved to")
        term.expect(r"seat 0 > ")
        term.send("play")  # by notation
        term.expect(r"seat 0 \(you\): play")
        term.expect(r"1 play\s+2 stop")  # a card played: now play or stop
        term.expect(r"seat 0 > ")
        term.send("7")
        term.expect(r"no move 7: choose 1\.\.2")
        term.expect(r"seat 0 > ")
        term.send(f"load {save}")
        term.expect(r"loaded[\s\S]*2 actions played")
        for _ in range(200):  # the first legal move every time, until the game ends
            if term.expect(r"seat 0 > |game over").group(0) == "game over":
                break
            term.send("1")
        else:
            raise AssertionError("the game did not end")
        term.expect(r"final view")  # the end is drawn from the human seat's point of view too
        term.expect(r"seat\s.*player\s.*return\s.*score")  # the result table: returns and scores
        term.expect(r"1\s*│\s*random")
        term.expect(r"no winner|wins|shared victory")
        assert term.finish() == 0
    finally:
        term.close()
    screen = term.screen
    assert "Traceback" not in screen
    assert meeplex.make(GAME, max_turns=2).deserialize_state(save.read_text().strip()).history()


def test_quit_and_end_of_input_leave_quietly():
    term = Terminal(_play_argv(GAME, "max_turns=2", "--seed", "1"))
    try:
        term.expect(r"seat 0 > ")
        term.send("quit")
        term.expect("game abandoned")
        assert term.finish() == 0
    finally:
        term.close()
    assert "Traceback" not in term.screen


# ---------------------------------------------------------------------------------------------------------
# In process: a scripted reader stands in for the person


class Script:
    """Answers prompts from a list, then '1' (the first legal move) forever; records the prompts."""

    def __init__(self, *lines: str, then: str = "1", limit: int = 500) -> None:
        self.lines = list(lines)
        self.then = then
        self.prompts: list[str] = []
        self.limit = limit

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if len(self.prompts) > self.limit:
            return "quit"
        return self.lines.pop(0) if self.lines else self.then


def _session(game, seats, seed, script):
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None)
    return PlaySession(game, seats, seed, console, script), out


def _short(name: str) -> meeplex.Game:
    params = meeplex.make(name).params
    return meeplex.make(name, max_turns=2) if "max_turns" in params else meeplex.make(name)


@pytest.mark.parametrize("name", meeplex.games())
def test_every_game_is_playable_by_a_person(name):
    game = _short(name)
    seats = ["human"] + ["random"] * (game.num_players() - 1)
    script = Script(limit=60)  # long games are left with "quit": the loop, not the length, is under test
    session, out = _session(game, seats, 5, script)
    assert session.run() == 0
    text = out.getvalue()
    assert "seat 0 >" in "".join(script.prompts)
    assert "game over" in text or "game abandoned" in text


def test_agents_only_is_arena_game_zero():
    """``play --seats random,random --seed S`` is game 0 of ``arena --agents random,random --seed S``."""
    game = meeplex.make(GAME, max_turns=4)
    session, _ = _session(game, ["random", "random"], 9, Script())
    assert session.run() == 0
    arena = cli.play_arena_game(game, ["random", "random"], 9, 0)
    assert session.state.history() == arena.history


def test_wrong_inputs_keep_the_prompt_and_the_state():
    game = meeplex.make(GAME, max_turns=2)
    script = Script("", "0", "3", "buy Office", "!play", "quit")
    session, out = _session(game, ["human", "random"], 3, script)
    assert session.run() == 0
    text = out.getvalue()
    assert "no move 0" in text and "no move 3" in text
    assert "'buy Office' is not legal now" in text
    assert "seat 0 (you): play" in text  # "!play" is read as notation
    assert "game abandoned" in text


def test_save_and_load_errors_are_messages(tmp_path):
    game = meeplex.make(GAME, max_turns=2)
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    other = tmp_path / "other.json"
    other.write_text(meeplex.make(GAME, players=3).new_initial_state().serialize())
    script = Script("save", f"load {tmp_path / 'missing.json'}", f"load {bad}", f"load {other}", "quit")
    session, out = _session(game, ["human", "random"], 3, script)
    assert session.run() == 0
    text = out.getvalue()
    assert "save needs a file name" in text
    assert "No such file" in text
    assert text.count("seat 0 >") == 0  # prompts go to the reader, not the console
    assert len(script.prompts) == 5  # every failed command came back to the prompt


def test_load_switches_to_the_saved_variant(tmp_path):
    saved = meeplex.make(GAME, max_turns=3, office=True)
    state = saved.new_initial_state()
    path = tmp_path / "office.json"
    path.write_text(state.serialize())
    script = Script(f"load {path}", "quit")
    session, out = _session(meeplex.make(GAME, max_turns=2), ["human", "random"], 3, script)
    session.run()
    assert session.game.params["office"] is True
    assert "loaded" in out.getvalue()


def test_hot_seat_hands_over_between_people():
    game = meeplex.make(GAME, max_turns=1)
    script = Script(then="1", limit=200)
    session, out = _session(game, ["human", "human"], 2, script)
    assert session.run() == 0
    assert any("press enter when only you can see the screen" in p for p in script.prompts)
    assert "seat 1 >" in "".join(script.prompts)
    # The screen is cleared between people, so each one is shown again the moves it has not seen yet.
    first_line = Text.from_markup(session.log[0]).plain
    assert session.read_up_to and out.getvalue().count(first_line) >= 2


def test_play_errors_are_one_line(capsys):
    assert cli.main(["play", GAME, "--seats", "human,robot"]) == 2
    assert cli.main(["play", GAME, "--seats", "human,random,random,random,random"]) == 2
    err = capsys.readouterr().err
    assert "unknown agent 'robot'" in err
    assert "players" in err
    assert "Traceback" not in err


# ---------------------------------------------------------------------------------------------------------
# What a seat may be told: a toy game with one card dealt face down to seat 1


class _Deal:
    """Chance deals seat 1 one of three cards; seat 1 knows it, seat 0 does not; then seat 1 plays it."""

    def __init__(self, history=()):
        self.history = list(history)

    def current_player(self):
        return -1 if not self.history else (1 if len(self.history) == 1 else -4)

    def is_chance_node(self):
        return not self.history

    def legal_actions(self):
        return [0, 1, 2] if len(self.history) < 2 else []

    def clone(self):
        return _Deal(self.history)

    def apply_action(self, action):
        self.history.append(action)

    def information_state_string(self, seat):
        # Seat 1 knows its card; seat 0 sees only that a card was dealt, and then the card played.
        if seat == 1 or len(self.history) == 2:
            return ",".join(map(str, self.history))
        return "dealt" if self.history else ""

    def action_to_string(self, action):
        return ["deal Ace", "deal King", "deal Queen"][action] if not self.history else f"play {action}"


def test_hidden_chance_outcomes_are_not_told():
    state = _Deal()
    assert not seat_can_tell(state, 2, 0)
    assert seat_can_tell(state, 2, 1)
    assert "a hidden outcome" in move_line(state, 2, [0], ["you", "random"])
    assert "deal Queen" in move_line(state, 2, [1], ["random", "you"])
    assert "deal Queen" in move_line(state, 2, [], ["random", "random"])  # nobody at the table: all shown


def test_a_seat_always_knows_its_own_move():
    state = _Deal([2])
    assert "play 1" in move_line(state, 1, [1], ["random", "you"])
    assert "play 1" in move_line(state, 1, [0], ["you", "random"])  # played face up: seat 0 sees it
    state = _Deal()
    state.is_chance_node = lambda: False  # now seat 1 itself picks its card: still hidden from seat 0
    state.current_player = lambda: 1
    assert "deal Queen" in move_line(state, 2, [1], ["human", "human"])
    assert "a hidden" in move_line(state, 2, [0, 1], ["human", "human"])  # hot seat: seat 0 reads it too
