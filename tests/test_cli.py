"""The ``meeplex`` command and the random agent: run ``main([...])`` as a user would and check the output."""

from __future__ import annotations

import json

import pytest

import meeplex
from meeplex import cli
from meeplex.agents import RandomAgent, agent_names, make_agent, random_legal_action, resolve_chance

GAME = "flip_city"


def _arena(tmp_path, *args: str, name: str = "arena.json") -> dict:
    out = tmp_path / name
    assert cli.main(["arena", *args, "--json", str(out)]) == 0
    return json.loads(out.read_text())


# ---------------------------------------------------------------------------------------------------------
# agents


def test_agent_registry():
    assert "random" in agent_names()
    assert isinstance(make_agent("random", 3), RandomAgent)
    with pytest.raises(ValueError, match="unknown agent"):
        make_agent("no_such_agent", 0)


@pytest.mark.parametrize("name", meeplex.games())
def test_random_step_reproduces_play_random(name):
    """resolve_chance + random_legal_action with one Rng is DESIGN's random step: the same game as Rust's."""
    game = meeplex.make(name)
    for seed in range(3):
        rng = meeplex.Rng(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            step = resolve_chance if state.is_chance_node() else random_legal_action
            state.apply_action(step(state, rng))
        assert state.history() == meeplex.play_random(game, seed).history()


def test_random_agent_draws_from_the_shared_rng():
    state = meeplex.make(GAME).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    legal = state.legal_actions()
    for seed in range(20):
        agent, rng = RandomAgent(seed), meeplex.Rng(seed)
        for _ in range(3):
            assert agent.step(state) == legal[rng.below(len(legal))]


def test_seating_rotates_fairly():
    assert cli.seating(0, 3) == [0, 1, 2]
    assert cli.seating(1, 3) == [1, 2, 0]
    counts = [[0] * 3 for _ in range(3)]
    for i in range(6):
        for seat, agent in enumerate(cli.seating(i, 3)):
            counts[agent][seat] += 1
    assert counts == [[2, 2, 2]] * 3


# ---------------------------------------------------------------------------------------------------------
# meeplex list


def test_list_shows_games_and_params(capsys):
    assert cli.main(["list"]) == 0
    out = capsys.readouterr().out
    for name in meeplex.games():
        assert name in out
        for key in meeplex.make(name).params:
            assert key in out


# ---------------------------------------------------------------------------------------------------------
# meeplex arena


def test_arena_numbers_add_up(tmp_path, capsys):
    result = _arena(tmp_path, GAME, "--agents", "random,random", "--games", "10", "--seed", "1")
    assert result["games"] == 10
    assert sum(result["agent_wins"]) + result["no_winner"] == pytest.approx(10)
    assert sum(result["seat_wins"]) == pytest.approx(sum(result["agent_wins"]))
    assert result["decisive"] + result["shared"] + result["no_winner"] == 10
    assert result["total_length"] > 0
    out = capsys.readouterr().out
    assert "no winner" in out and "wins by seat" in out and "time per game" in out


def test_arena_is_deterministic(tmp_path):
    args = (GAME, "--agents", "random,random", "--games", "6", "--seed", "7")
    first = _arena(tmp_path, *args, name="a.json")
    second = _arena(tmp_path, *args, name="b.json")
    first.pop("seconds")
    second.pop("seconds")
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


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["arena", "no_such_game"], "unknown game"),
        (["arena", GAME, "players=99"], "players"),
        (["arena", GAME, "no_such_param=1"], "no_such_param"),
        (["arena", GAME, "office=maybe"], "office"),
        (["arena", GAME, "office"], "key=value"),
        (["arena", GAME, "--agents", "random,no_such_agent"], "unknown agent"),
        (["arena", GAME, "--agents", "random,random", "players=3"], "agents"),
        (["fuzz", "no_such_game", "--games", "1"], "unknown game"),
        (["fuzz", "all", "players=2"], "single game"),
    ],
)
def test_errors_are_one_red_line(capsys, args, message):
    assert cli.main(args) == 2
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    assert message in captured.err
    assert captured.err.strip().count("\n") == 0


def test_usage_error_exits_2(capsys):
    assert cli.main(["arena"]) == 2
    assert cli.main(["no_such_command"]) == 2
    assert "Traceback" not in capsys.readouterr().err


# ---------------------------------------------------------------------------------------------------------
# meeplex fuzz


def test_variants_are_generic():
    for name in meeplex.games():
        found = cli.variants(name)
        assert found[0] == name
        assert len(found) == len(set(found))
        for text in found:
            meeplex.make(text)  # every variant is a game the engine accepts
        params = meeplex.make(name).params
        for key, value in params.items():
            if isinstance(value, bool):
                assert meeplex.game_string(name, {key: not value}) in found


def test_fuzz_short_run(capsys):
    assert cli.main(["fuzz", GAME, "max_turns=3", "--games", "3", "--seed", "11"]) == 0
    out = capsys.readouterr().out
    assert "disagreements" in out
    assert "flip_city(max_turns=3)" in out


def test_fuzz_all_covers_every_game_and_variant(monkeypatch, capsys):
    """``fuzz all`` walks the variants of every game in turn with seeds seed, seed+1, ... (the comparison
    itself is replaced by a recorder: the real one is exercised by test_fuzz_short_run)."""
    from meeplex.testing import differential

    calls = []
    monkeypatch.setattr(differential, "compare_random_game", lambda g, seed: calls.append((g, seed)))
    expected = [text for name in meeplex.games() for text in cli.variants(name)]
    assert cli.main(["fuzz", "all", "--games", str(len(expected) + 1), "--seed", "40"]) == 0
    assert calls == [(expected[i % len(expected)], 40 + i) for i in range(len(expected) + 1)]
    out = capsys.readouterr().out
    assert "flip_city(office=true)" in out and "flip_city(players=1)" in out


def test_fuzz_reports_a_disagreement(monkeypatch, capsys):
    from meeplex.testing import differential

    def fake_compare(game_string, seed):
        actions = meeplex.play_random(meeplex.make(game_string), seed).history()[:30]
        return differential.Divergence(game_string, seed, actions, "a planted difference", 1, 2)

    monkeypatch.setattr(differential, "compare_random_game", fake_compare)
    monkeypatch.setattr(differential, "shrink", lambda game_string, actions: actions[:5])
    assert cli.main(["fuzz", GAME, "--games", "10"]) == 1
    out = capsys.readouterr().out
    assert "a planted difference" in out
    assert "shrunk history (5 of 30 actions)" in out
