"""The ``meeplex`` command and the agent registry: run ``main([...])`` as a user would and check the output.

``test_cli_play.py``, ``test_cli_arena.py`` and ``test_cli_replay.py`` cover those subcommands.
"""

from __future__ import annotations

import importlib.util
import inspect
from pathlib import Path

import pytest

import meeplex
from meeplex import _bench, agents, cli
from meeplex.agents import (
    RandomAgent,
    agent_names,
    agent_options,
    make_agent,
    parse_agent_spec,
    random_legal_action,
    resolve_chance,
    split_agent_list,
)
from meeplex.cli import catalog, fuzz
from meeplex.cli.common import probe as cli_probe

GAME = "flip_city"
ROOT = Path(__file__).resolve().parents[1]
TINY = _bench.Plan(repeats=1, playout_seeds=2, loop_seeds=1, oracle_seeds=1, clones=10, simulations=20)


# ---------------------------------------------------------------------------------------------------------
# agents


class _Tunable:
    """A stand-in for a search agent with options (the MCTS front end will look like this)."""

    def __init__(self, seed: int, sims: int = 100, c: float = 1.4, rollout: str = "random") -> None:
        self.seed, self.sims, self.c, self.rollout = seed, sims, c, rollout

    def step(self, state):
        return state.legal_actions()[0]


@pytest.fixture
def tunable(monkeypatch):
    monkeypatch.setitem(agents._REGISTRY, "tunable", _Tunable)


def test_agent_registry():
    assert "random" in agent_names()
    assert isinstance(make_agent("random", 3), RandomAgent)
    with pytest.raises(ValueError, match="unknown agent"):
        make_agent("no_such_agent", 0)
    with pytest.raises(ValueError, match="agent 'random' has no option 'sims'"):
        make_agent("random:sims=3", 0)


def test_agent_options_are_typed(tunable):
    agent = make_agent("tunable:sims=200,c=0.5,rollout=heuristic", 7)
    assert (agent.seed, agent.sims, agent.c, agent.rollout) == (7, 200, 0.5, "heuristic")
    assert agent_options("tunable") == {"sims": 100, "c": 1.4, "rollout": "random"}
    assert parse_agent_spec("tunable : sims = 2 , flag=TRUE") == ("tunable", {"sims": 2, "flag": True})
    for bad in ("tunable:sims", "tunable:sims=", "Bad Name", "tunable:sims=1,sims=2"):
        with pytest.raises(ValueError):
            make_agent(bad, 0)
    with pytest.raises(ValueError, match="no option 'depth'.*sims, c, rollout"):
        make_agent("tunable:depth=3", 0)
    assert make_agent("tunable:c=2", 0).c == 2  # an int is a fine float


@pytest.mark.parametrize(
    "spec", ["tunable:sims=40:rollout=300", "tunable:sims=1.5", "tunable:sims=true", "tunable:c=fast"]
)
def test_agent_option_of_the_wrong_type_is_a_usage_error(tunable, spec):
    """A colon where a comma belongs made sims the str '40:rollout=300', which reached the agent as a
    TypeError traceback; it is a ValueError naming the option, which the CLI prints as one line."""
    with pytest.raises(ValueError, match="expected (int|float)"):
        make_agent(spec, 0)


def test_agent_lists_keep_options_together():
    assert split_agent_list("mcts:sims=200,c=1.4,random") == ["mcts:sims=200,c=1.4", "random"]
    assert split_agent_list("random, mcts:sims=5") == ["random", "mcts:sims=5"]
    assert split_agent_list("random,random") == ["random", "random"]
    with pytest.raises(ValueError, match="empty agent"):
        split_agent_list("random,,random")


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


# ---------------------------------------------------------------------------------------------------------
# meeplex list


def test_list_shows_games_params_meanings_and_agents(capsys):
    assert cli.main(["list"]) == 0
    out = capsys.readouterr().out
    for name in meeplex.games():
        assert name in out
        for key in meeplex.make(name).params:
            assert key in out
    # Meanings come from docs/rules/<game>.md: check one per documented game, words not wrapping.
    for name in meeplex.games():
        doc = catalog.game_doc(name)
        for key, param in doc.params.items():
            assert param.meaning.split()[0] in out, (name, key)
    assert "random" in out and "human" in out


def test_list_one_game(capsys):
    assert cli.main(["list", GAME]) == 0
    out = capsys.readouterr().out
    assert "Flip City" in out and "players" in out
    assert "agents" not in out


def test_rules_doc_table_parsing():
    text = """# Some Game — as implemented

| name | type | default | meaning |
|---|---|---|---|
| `players` | int 2..5 | 3 | number of seats |
| `mode` | str | easy | the `easy` or `hard` rules; a \\| pipe |
| broken row |

| name | type | default | meaning |
|---|---|---|---|
| `later` | int | 1 | a second table, not read |
"""
    doc = catalog.parse_game_doc(text)
    assert doc.title == "Some Game"
    assert doc.params["players"] == catalog.ParamDoc("int 2..5", "3", "number of seats")
    assert doc.params["mode"].meaning == "the easy or hard rules; a | pipe"
    assert "later" not in doc.params
    assert catalog.parse_game_doc("no title, no table") == catalog.GameDoc(None, {})


def test_list_without_rules_docs(monkeypatch, tmp_path, capsys):
    """An installed wheel has no docs/: the defaults are still listed, with a note instead of meanings."""
    monkeypatch.setattr(catalog, "rules_dir", lambda: tmp_path)
    assert cli.main(["list"]) == 0
    out = capsys.readouterr().out
    for name in meeplex.games():
        for key in meeplex.make(name).params:
            assert key in out
    assert "meanings unavailable" in out


def test_list_named_variants(monkeypatch, capsys):
    import types

    module = types.ModuleType(f"meeplex.games.{GAME}")
    module.VARIANTS = {"solo": {"players": 1}, "office": f"{GAME}(office=true)", "junk": 3}
    monkeypatch.setitem(__import__("sys").modules, f"meeplex.games.{GAME}", module)
    assert catalog.named_variants(GAME) == {"solo": f"{GAME}(players=1)", "office": f"{GAME}(office=true)"}
    assert cli.main(["list", GAME]) == 0
    assert f"solo = {GAME}(players=1)" in capsys.readouterr().out


# ---------------------------------------------------------------------------------------------------------
# errors and the version


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
        (["arena", GAME, "--agents", "random:depth=2,random"], "no option 'depth'"),
        (["arena", GAME, "--games", "1", "--out", "/no/such/dir/g.jsonl"], "cannot write"),
        (["list", "no_such_game"], "unknown game"),
        (["play", "no_such_game"], "unknown game"),
        (["replay", "/no/such/file.jsonl"], "cannot read"),
        (["bench", "no_such_game"], "unknown game"),
        (["bench", GAME, "players=0"], "players"),
        (["fuzz", "no_such_game", "--games", "1"], "unknown game"),
        (["fuzz", "all", "players=2"], "single game"),
        (["fuzz", "all", "--history", "1,2"], "single game"),
        (["fuzz", GAME, "--history", "1,x"], "bad --history"),
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
    assert cli.main(["arena", GAME, "--jobs", "0"]) == 2
    assert cli.main(["arena", GAME, "--games", "-1"]) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_version(capsys):
    assert cli.main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"meeplex {meeplex.__version__}"


def test_debug_shows_the_traceback(monkeypatch):
    monkeypatch.setenv("MEEPLEX_DEBUG", "1")
    with pytest.raises(ValueError, match="unknown game"):
        cli.main(["list", "no_such_game"])


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
            flipped = meeplex.game_string(name, {key: not value}) if isinstance(value, bool) else None
            # Every flipped boolean the game accepts is covered (some are refused by the game's own rules,
            # e.g. office=true in Wilderness breaks the one-colour-per-pile rule).
            if flipped is not None and cli_probe(name, **{key: not value}) is not None:
                assert flipped in found


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
    expected = [text for name in fuzz.games_to_compare() for text in cli.variants(name)]
    assert cli.main(["fuzz", "all", "--games", str(len(expected) + 1), "--seed", "40"]) == 0
    assert calls == [(expected[i % len(expected)], 40 + i) for i in range(len(expected) + 1)]
    out = capsys.readouterr().out
    assert "flip_city(office=true)" in out and "flip_city(players=1)" in out


def test_fuzz_all_capped_holds_each_variant_to_the_suites_caps(monkeypatch, capsys):
    """``fuzz all --capped`` plays the same variants, each held to ``CI_CAPS`` (Viticulture at most 3 years,
    a smaller ``max_years`` kept), and ``--capped`` with a single game is refused."""
    from meeplex.testing import differential

    calls = []
    monkeypatch.setattr(differential, "compare_random_game", lambda g, seed: calls.append(g))
    expected = [text for name in fuzz.games_to_compare() for text in cli.variants(name, capped=True)]
    assert len(expected) == len([t for name in fuzz.games_to_compare() for t in cli.variants(name)])
    assert cli.main(["fuzz", "all", "--games", str(len(expected)), "--capped"]) == 0
    assert calls == expected
    vit = [g for g in calls if g.startswith("viticulture")]
    assert "viticulture(max_years=3)" in vit and "viticulture(max_years=3,players=6)" in vit
    assert "viticulture(max_years=1)" in vit
    assert all("max_years=" in g for g in vit)
    capsys.readouterr()
    assert cli.main(["fuzz", "flip_city", "--capped", "--games", "1"]) != 0
    assert "--capped is for 'all'" in capsys.readouterr().err


def test_fuzz_stops_at_the_first_disagreement_and_prints_a_replay(monkeypatch, capsys):
    from meeplex.testing import differential

    calls = []

    def fake_compare(game_string, seed):
        calls.append(seed)
        actions = meeplex.play_random(meeplex.make(game_string), seed).history()[:20]
        return differential.Divergence(game_string, seed, actions, "a planted difference", 1, 2)

    monkeypatch.setattr(differential, "compare_random_game", fake_compare)
    monkeypatch.setattr(differential, "shrink", lambda game_string, actions: actions[:5])
    assert cli.main(["fuzz", f"{GAME}(max_turns=3)", "--games", "10", "--seed", "4"]) == 1
    assert calls == [4]  # the first disagreement ends the run
    out = capsys.readouterr().out
    assert "a planted difference" in out
    assert "shrunk history (5 of 20 actions)" in out
    shrunk = meeplex.play_random(meeplex.make(GAME, max_turns=3), 4).history()[:5]
    command = f"meeplex fuzz 'flip_city(max_turns=3)' --history {','.join(map(str, shrunk))}"
    assert command in out
    # The printed command runs (here on the real engines, which agree on that history).
    monkeypatch.undo()
    assert cli.main(command.split()[1:2] + ["flip_city(max_turns=3)", "--history", command.split()[-1]]) == 0
    assert "the engines agree" in capsys.readouterr().out


def test_fuzz_history_reports_a_divergence(monkeypatch, capsys):
    from meeplex.testing import differential

    planted = differential.Divergence(GAME, None, [2], "a planted difference", 1, 2)
    monkeypatch.setattr(differential, "replay_and_compare", lambda game, actions: planted)
    assert cli.main(["fuzz", GAME, "--history", "2"]) == 1
    assert "a planted difference" in capsys.readouterr().out


def test_replay_command_quotes_for_the_shell():
    assert fuzz.replay_command("g(a=1)", [3, 4]) == "meeplex fuzz 'g(a=1)' --history 3,4"
    assert fuzz.replay_command("g", []) == "meeplex fuzz g --history ''"
    assert fuzz.parse_history("") == [] and fuzz.parse_history("3, 4,5") == [3, 4, 5]


# ---------------------------------------------------------------------------------------------------------
# meeplex bench and benches/bench_python.py


def test_bench_one_game(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(_bench, "QUICK", TINY)
    out = tmp_path / "bench.json"
    assert cli.main(["bench", GAME, "max_turns=5", "--quick", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "flip_city(max_turns=5)" in text and "playout" in text and "yes" in text
    assert '"same_games": true' in out.read_text()


def test_bench_script_is_a_thin_caller(monkeypatch, capsys):
    spec = importlib.util.spec_from_file_location("bench_python", ROOT / "benches" / "bench_python.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    assert "def bench_game" not in inspect.getsource(script)  # the measuring lives in meeplex._bench
    monkeypatch.setattr(script, "QUICK", TINY)
    assert script.main(["--quick", "--game", GAME]) == 0
    assert GAME in capsys.readouterr().out
