"""Hypothesis fuzzing of every entry point of both engines with values of every kind (issue 9).

DESIGN.md, "Errors and bad input": no input from Python, however wrong, makes the Rust core panic, and a
failed call leaves the state exactly as it was. Here any int (huge, negative), string, bool, float, None,
numpy scalar, container or object goes to ``make``, ``apply_action``, ``action_to_string``,
``string_to_action``, the observation methods, ``resample_from_infostate``, ``deserialize_state`` (arbitrary
and mutated valid states), ``VectorGame``, the Rust agents and ``Rng``. Only the documented exceptions may
come out:

- ``IllegalActionError``, ``InvalidStateError``, ``InvalidNotationError`` (all ``GameError`` and
  ``ValueError``), each where docs/architecture.md's error table puts it;
- ``TypeError`` only where ``_core.pyi`` types the argument and the value is of another type (``rng`` not an
  ``Rng``, ``state`` not a ``State``, ``game`` not a ``Game``, ``out`` not an array of the stub's dtype, a
  seed or a count that is not an int, a mode that is not a str);
- a plain ``ValueError`` only from ``Rng.below(n)`` with ``n < 1`` (the stub's "n must be at least 1"; both
  engines do so).

Anything else, an ``OverflowError`` or a pyo3 ``PanicException`` included, fails. After every refused call the
state's ``serialize()`` (and a VectorGame's every game) is what it was. For the games both engines implement,
the two must also give the same verdict on the same call: both accept (with equal results) or both raise the
same class. Nothing here names a game: the games come from each engine's registry.
"""

from __future__ import annotations

import json
import operator
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, assume, given, note, settings
from hypothesis import strategies as st

import meeplex
import meeplex.oracle
from meeplex import _core
from meeplex.errors import GameError, IllegalActionError, InvalidNotationError, InvalidStateError
from meeplex.testing import check_state, random_action
from meeplex.testing.differential import compare_states
from meeplex.testing.strategies import states

MAKE = {"rust": meeplex.make, "oracle": meeplex.oracle.make}
RNG = {"rust": meeplex.Rng, "oracle": meeplex.oracle.Rng}
GAMES = {"rust": meeplex.games(), "oracle": meeplex.oracle.games()}
CASES = [(engine, game_id) for engine in ("rust", "oracle") for game_id in GAMES[engine]]
SHARED = sorted(set(GAMES["rust"]) & set(GAMES["oracle"]))
DOCUMENTED = (IllegalActionError, InvalidStateError, InvalidNotationError)
# Each example below builds states by random steps (the oracle's are slow); the data is never too large.
# In the CI profile, a failure is reported as found, without shrinking (the findings below are minimal
# already), to keep the CI time bounded while a finding is open.
_NO_SHRINK = {"phases": [Phase.explicit, Phase.reuse, Phase.generate]}
FUZZ = settings(
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    **(_NO_SHRINK if os.environ.get("HYPOTHESIS_PROFILE") == "ci" else {}),
)


def _ids(case: tuple[str, str]) -> str:
    return "-".join(case)


# --- Values of every kind ---------------------------------------------------------------------------------

_NUMPY_INTS = (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64)


def numpy_scalars() -> st.SearchStrategy[object]:
    ints = st.sampled_from(_NUMPY_INTS).flatmap(
        lambda t: st.integers(int(np.iinfo(t).min), int(np.iinfo(t).max)).map(t)
    )
    floats = st.floats(width=32).map(np.float32) | st.floats().map(np.float64)
    return ints | floats | st.booleans().map(np.bool_)


def anything(near: int = 100) -> st.SearchStrategy[object]:
    """Any Python value a caller could pass: dense small ints (the ids and seats in range among them), huge
    and negative ints, bools, floats, None, strings, bytes, numpy scalars and 0-d arrays, containers,
    objects."""
    return st.one_of(
        st.integers(-3, near),
        st.integers(),
        st.integers(min_value=2**31 - 2, max_value=2**31 + 2),
        st.integers(min_value=2**63 - 2, max_value=2**64 + 2),
        st.integers(min_value=2**64).map(lambda i: i * 7919),
        st.integers(max_value=-(2**63)),
        st.booleans(),
        st.floats(),
        st.none(),
        st.text(max_size=12),
        st.binary(max_size=8),
        numpy_scalars(),
        st.integers(0, near).map(np.array),
        st.lists(st.integers(0, 3), max_size=3),
        st.tuples(st.integers(0, 3)),
        st.dictionaries(st.text(max_size=2), st.integers(0, 3), max_size=2),
        st.complex_numbers(allow_nan=False, max_magnitude=4),
        st.sampled_from([object(), type, Ellipsis, NotImplemented, float("inf"), float("nan"), -0.0]),
    )


def int_like(value: object) -> int | None:
    """The int a value stands for, if it is an int (a numpy integer included) and not a bool."""
    if isinstance(value, (bool, np.bool_)):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


# --- Calling with a verdict -------------------------------------------------------------------------------


class Raised:
    """A call that raised one of the accepted classes; compared by class name (messages are free text)."""

    def __init__(self, exc: BaseException) -> None:
        self.kind = type(exc).__name__
        self.message = str(exc)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Raised) and other.kind == self.kind

    def __repr__(self) -> str:
        return f"raised {self.kind}({self.message!r})"


def call(fn, *args, allowed: tuple[type, ...] = DOCUMENTED, type_error: bool = False, **kwargs) -> object:
    """``fn(*args, **kwargs)``, or a ``Raised`` if it raised an ``allowed`` class (or a TypeError when the
    value is of a type the stub does not allow: ``type_error``). Anything else fails the test, a panic
    included."""
    try:
        return fn(*args, **kwargs)
    except (KeyboardInterrupt, SystemExit):
        raise
    except allowed as exc:
        return Raised(exc)
    except TypeError as exc:
        if type_error:
            return Raised(exc)
        pytest.fail(f"{_name(fn)}{_show(args, kwargs)} raised TypeError: {exc}")
    except BaseException as exc:  # noqa: BLE001 - a pyo3 PanicException is a BaseException: the main target
        pytest.fail(f"{_name(fn)}{_show(args, kwargs)} raised {type(exc).__name__}: {exc}")


def _name(fn) -> str:
    return getattr(fn, "__qualname__", None) or repr(fn)


def _show(args: tuple, kwargs: dict) -> str:
    inner = [repr(a)[:80] for a in args] + [f"{k}={v!r}"[:80] for k, v in kwargs.items()]
    return "(" + ", ".join(inner) + ")"


def same(a: object, b: object) -> bool:
    """Equal verdicts of the two engines: the same class raised, or equal results (arrays by value)."""
    if isinstance(a, Raised) or isinstance(b, Raised):
        return a == b
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        a, b = np.asarray(a), np.asarray(b)
        return a.shape == b.shape and a.dtype == b.dtype and bool(np.array_equal(a, b))
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b  # type too: True == 1 in Python, not in the contract


# --- make() and parameters --------------------------------------------------------------------------------


def param_dicts(game_id: str) -> st.SearchStrategy[dict]:
    """Parameter dicts: known keys (from the Rust game's, else the oracle's defaults) and arbitrary ones, each
    with a value of any kind, or a valid-looking one."""
    try:
        known = sorted(meeplex.make(game_id).params)
    except GameError:
        known = sorted(meeplex.oracle.make(game_id).params)
    keys = st.sampled_from(known) if known else st.just("players")
    keys = keys | st.text(max_size=10) | st.from_regex(r"[a-z_][a-z0-9_]{0,12}", fullmatch=True)
    values = anything(near=12) | st.sampled_from(["true", "false", "", "x", "0", "1e9", "NaN"])
    return st.dictionaries(keys, values, max_size=4)


@FUZZ
@given(game_id=st.sampled_from(sorted(set(GAMES["rust"]) | set(GAMES["oracle"]))), data=st.data())
def test_make_with_any_parameters(game_id, data):
    """Any parameter dict is either accepted (a normalised dict of int, bool and str) or refused with a
    GameError; the engines that both know the game agree on the verdict and on the normalised dict."""
    params = data.draw(param_dicts(game_id), label="params")
    verdicts = {}
    for engine in ("rust", "oracle"):
        if game_id not in GAMES[engine]:
            continue
        got = call(MAKE[engine], game_id, allowed=(InvalidStateError, InvalidNotationError), **params)
        if not isinstance(got, Raised):
            assert all(isinstance(v, (int, bool, str)) for v in got.params.values()), got.params
            got = dict(got.params)
        verdicts[engine] = got
    if len(verdicts) == 2:
        assert same(verdicts["rust"], verdicts["oracle"]), f"make({game_id!r}, **{params!r}): {verdicts}"


def game_texts() -> st.SearchStrategy[str]:
    """Game strings: arbitrary text, and registered names with junk parameter lists."""
    names = st.sampled_from(sorted(set(GAMES["rust"]) | set(GAMES["oracle"])))
    junk_body = st.text(
        alphabet=st.sampled_from(list("abcdefgprsyt_=,()-+ 0129xTRUEfalse\t\n\x00é")), max_size=30
    )
    return st.one_of(
        st.text(max_size=30),
        st.builds(lambda n, b: f"{n}({b})", names, junk_body),
        st.builds(lambda n, b: f"{n}{b}", names, junk_body),
    )


@FUZZ
@given(text=game_texts() | anything())
def test_make_with_any_game_string(text):
    """``make(x)`` for any x: a game, or InvalidNotationError / InvalidStateError; both engines alike for the
    games both know."""
    rust = call(meeplex.make, text)
    oracle = call(meeplex.oracle.make, text)
    if isinstance(rust, Raised) or isinstance(oracle, Raised):
        name = text.split("(")[0].strip() if isinstance(text, str) else None
        if name not in set(GAMES["rust"]) ^ set(GAMES["oracle"]):
            assert rust == oracle, f"make({text!r}): rust {rust!r}, oracle {oracle!r}"
        return
    assert rust.name == oracle.name and dict(rust.params) == dict(oracle.params), text


@FUZZ
@given(name=anything() | st.text(max_size=20), params=anything())
def test_core_game_constructor(name, params):
    """``_core.Game(name, params)``: the stub types name as str and params as a mapping; any other type may be
    a TypeError, every other refusal is an InvalidStateError."""
    call(_core.Game, name, params, type_error=True)
    if isinstance(name, str):
        call(_core.Game, name, None)


# --- States: every method, any value -----------------------------------------------------------------------

SEAT_METHODS = ("observation_tensor", "observation_string", "information_state_string")


def check_state_calls(engine: str, game, state, value: object) -> dict[str, object]:
    """Every state method that takes a value, called with ``value``; the state must be unchanged after each.
    Returns the verdicts, for the comparison of the two engines."""
    before, history = state.serialize(), list(state.history())
    legal = list(state.legal_actions())
    verdicts: dict[str, object] = {}

    got = call(state.action_to_string, value, allowed=(IllegalActionError,))
    if not isinstance(got, Raised):
        assert isinstance(got, str) and got, f"action_to_string({value!r}) = {got!r}"
    verdicts["action_to_string"] = got

    got = call(state.string_to_action, value, allowed=(InvalidNotationError,))
    if not isinstance(got, Raised):
        limit = max(game.num_distinct_actions(), game.max_chance_outcomes())
        assert isinstance(got, int) and 0 <= got < limit, f"string_to_action({value!r}) = {got!r}"
    verdicts["string_to_action"] = got

    for method in SEAT_METHODS:
        got = call(getattr(state, method), value, allowed=(InvalidStateError,))
        if not isinstance(got, Raised):
            assert int_like(value) in range(game.num_players()), f"{method}({value!r}) accepted a non-seat"
            # The texts are each engine's own (only the tensor is in the contract): compare the verdict.
            got = got if method == "observation_tensor" else "a str"
        verdicts[method] = got
    got = call(state.resample_from_infostate, value, RNG[engine](7), allowed=(InvalidStateError,))
    verdicts["resample_from_infostate"] = got if isinstance(got, Raised) else got.current_player()
    assert state.serialize() == before and list(state.history()) == history, "a query changed the state"

    got = call(state.apply_action, value, allowed=(IllegalActionError,))
    verdicts["apply_action"] = got
    if isinstance(got, Raised):
        assert state.serialize() == before, f"a refused apply_action({value!r}) changed the state"
        assert list(state.history()) == history
    else:
        assert int_like(value) in legal, f"apply_action({value!r}) accepted an action not in {legal}"
        assert list(state.history()) == history + [int_like(value)]
    return verdicts


@pytest.mark.parametrize("case", CASES, ids=_ids)
@FUZZ
@given(data=st.data())
def test_state_methods_with_any_value(case, data):
    engine, game_id = case
    game = MAKE[engine](game_id)
    state = data.draw(states(game, max_steps=150), label="state")
    for _ in range(4):
        check_state_calls(engine, game, state, data.draw(anything(), label="value"))


@pytest.mark.parametrize("game_id", SHARED)
@FUZZ
@given(data=st.data())
def test_state_methods_agree_between_engines(game_id, data):
    """The same call with the same value on the same state: the same verdict from both engines."""
    rust_game, oracle_game = meeplex.make(game_id), meeplex.oracle.make(game_id)
    rust = data.draw(states(rust_game, max_steps=150), label="state")
    oracle = oracle_game.deserialize_state(rust.serialize())
    for _ in range(4):
        value = data.draw(anything(), label="value")
        a = check_state_calls("rust", rust_game, rust, value)
        b = check_state_calls("oracle", oracle_game, oracle, value)
        for method in a:
            assert same(a[method], b[method]), (
                f"{method}({value!r}): rust {a[method]!r}, oracle {b[method]!r}"
            )
        assert rust.serialize() == oracle.serialize()


def arrays_of_any_kind(length: int) -> st.SearchStrategy[object]:
    dtypes = st.sampled_from([np.int8, np.int32, np.int64, np.uint8, np.float32, np.float64, np.bool_])
    sizes = st.sampled_from([length, length - 1, length + 1, 0, 2 * length])
    flat = st.builds(lambda d, n: np.zeros(max(n, 0), dtype=d), dtypes, sizes)
    strided = st.builds(lambda d: np.zeros(2 * length, dtype=d)[::2], dtypes)
    two_d = st.builds(lambda d: np.zeros((1, length), dtype=d), dtypes)

    def readonly(a: np.ndarray) -> np.ndarray:
        a.setflags(write=False)
        return a

    return st.one_of(flat, strided, two_d, flat.map(readonly), anything())


@pytest.mark.parametrize("game_id", GAMES["rust"])
@FUZZ
@given(data=st.data())
def test_rust_out_arrays(game_id, data):
    """``out=`` of ``legal_actions_mask`` and ``observation_tensor``: an array of the stub's dtype and the
    right length is filled with exactly the fresh result, whatever it held; a wrong length, a read-only or a
    strided array is an InvalidStateError; another type or dtype may be a TypeError."""
    game = meeplex.make(game_id)
    state = data.draw(states(game, max_steps=150), label="state")
    before = state.serialize()
    size = len(state.legal_actions_mask())
    out = data.draw(arrays_of_any_kind(size), label="mask out")
    got = call(state.legal_actions_mask, out=out, allowed=(InvalidStateError,), type_error=True)
    if not isinstance(got, Raised):
        assert (got is out or out is None) and np.array_equal(got, state.legal_actions_mask())
    length = int(np.prod(game.observation_shape()))
    out = data.draw(arrays_of_any_kind(length), label="obs out")
    got = call(state.observation_tensor, 0, out=out, allowed=(InvalidStateError,), type_error=True)
    if not isinstance(got, Raised):
        assert (got is out or out is None) and np.array_equal(got, state.observation_tensor(0))
    dirty = np.full(length, 7.5, dtype=np.float32)
    for seat in range(game.num_players()):
        assert np.array_equal(state.observation_tensor(seat, out=dirty), state.observation_tensor(seat))
    assert state.serialize() == before


@pytest.mark.parametrize("case", CASES, ids=_ids)
@FUZZ
@given(data=st.data())
def test_resample_with_any_rng(case, data):
    """``resample_from_infostate(seat, rng)`` with an rng of any kind: an Rng of the engine gives a state that
    looks the same to the seat; anything else may be a TypeError (the stub types it ``Rng``)."""
    engine, game_id = case
    game = MAKE[engine](game_id)
    state = data.draw(states(game, max_steps=150), label="state")
    before = state.serialize()
    rng = data.draw(
        anything() | st.builds(RNG["oracle"], st.integers(0, 9)) | st.builds(RNG["rust"], st.integers())
    )
    for seat in range(game.num_players()):
        got = call(state.resample_from_infostate, seat, rng, type_error=True)
        if not isinstance(got, Raised):
            assert got.observation_string(seat) == state.observation_string(seat)
    assert state.serialize() == before


# --- Serialized states: arbitrary and mutated -------------------------------------------------------------

_PLACEHOLDER = "\u0000leaf\u0000"
JUNK_LEAVES = [
    "null",
    "true",
    "false",
    '"x"',
    '""',
    "1.5",
    "-1",
    "0",
    "1e400",
    "-0",
    str(2**64),
    str(2**63),
    "1" * 5000,  # beyond Python's int-parsing limit, and serde_json's u64
    "NaN",
    "Infinity",
    "[]",
    "{}",
    '"\\ud800"',
]


def _leaves(obj: object, path: tuple = ()) -> list[tuple]:
    if isinstance(obj, dict):
        return [p for k, v in obj.items() for p in _leaves(v, path + (k,))] or [path]
    if isinstance(obj, list):
        return [p for i, v in enumerate(obj) for p in _leaves(v, path + (i,))] or [path]
    return [path]


def _containers(obj: object, path: tuple = ()) -> list[tuple]:
    out = [path] if isinstance(obj, (dict, list)) and obj else []
    children = obj.items() if isinstance(obj, dict) else enumerate(obj) if isinstance(obj, list) else ()
    for k, v in children:
        out += _containers(v, path + (k,))
    return out


def _get(obj: object, path: tuple) -> object:
    for step in path:
        obj = obj[step]
    return obj


def _dump(obj: object) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


@st.composite
def mutated(draw, text: str) -> str:
    """A valid serialized state after one to three edits: a digit changed, a number moved by one, a unit moved
    between two counts, a leaf replaced by junk, a key dropped or added, a list cut or grown, a key given
    twice, deep nesting, truncation."""
    for _ in range(draw(st.integers(1, 3), label="edits")):
        kind = draw(
            st.sampled_from(
                ["digit", "plus", "transfer", "leaf", "key", "list", "twice", "nest", "cut", "splice"]
            ),
            label="edit",
        )
        try:
            obj = json.loads(text)
        except (ValueError, RecursionError):
            obj = None
        if kind == "digit" or (obj is None and kind not in ("nest", "cut")):
            digits = [i for i, c in enumerate(text) if c.isdigit()]
            if digits:
                i = draw(st.sampled_from(digits))
                text = text[:i] + draw(st.sampled_from("0123456789")) + text[i + 1 :]
        elif kind in ("plus", "transfer"):
            ints = [p for p in _leaves(obj) if p and type(_get(obj, p)) is int]
            if not ints:
                continue
            a = draw(st.sampled_from(ints))
            parent = _get(obj, a[:-1])
            if kind == "plus":
                parent[a[-1]] += draw(st.sampled_from([-1, 1, 2, -2]))
            else:
                b = draw(st.sampled_from(ints))
                if parent[a[-1]] > 0:
                    parent[a[-1]] -= 1
                    _get(obj, b[:-1])[b[-1]] += 1
            text = _dump(obj)
        elif kind == "leaf":
            path = draw(st.sampled_from(_leaves(obj)))
            if not path:
                continue
            _get(obj, path[:-1])[path[-1]] = _PLACEHOLDER
            leaf = draw(st.sampled_from(JUNK_LEAVES))
            text = _dump(obj).replace(json.dumps(_PLACEHOLDER), leaf)
        elif kind == "key":
            dicts = [p for p in _containers(obj) if isinstance(_get(obj, p), dict)]
            if not dicts:
                continue
            d = _get(obj, draw(st.sampled_from(dicts)))
            key = draw(st.sampled_from(sorted(d)))
            if draw(st.booleans()):
                del d[key]
            else:
                d[key + draw(st.sampled_from(["_", "x", "s"]))] = d[key]
            text = _dump(obj)
        elif kind == "list":
            lists = [p for p in _containers(obj) if isinstance(_get(obj, p), list)]
            if not lists:
                continue
            lst = _get(obj, draw(st.sampled_from(lists)))
            i = draw(st.integers(0, len(lst) - 1))
            action = draw(st.sampled_from(["drop", "double", "append", "clear"]))
            if action == "drop":
                del lst[i]
            elif action == "double":
                lst.insert(i, lst[i])
            elif action == "append":
                lst.append(draw(st.sampled_from([0, 1, -1, 255])))
            else:
                lst.clear()
            text = _dump(obj)
        elif kind == "twice":
            if not isinstance(obj, dict) or not obj:
                continue
            key = draw(st.sampled_from(sorted(obj)))
            value = draw(st.sampled_from(["0", "1", "true", "null", _dump(obj[key])]))
            text = "{" + json.dumps(key) + ":" + value + "," + text.lstrip()[1:]
        elif kind == "nest":
            depth = draw(st.sampled_from([1, 2, 127, 128, 129, 1000, 20000]))
            if draw(st.booleans()):
                text = "[" * depth + text + "]" * depth
            else:
                text = '{"a":' * depth + text + "}" * depth
            break  # the last edit: the text is too deep for the JSON edits above
        elif kind == "cut":
            text = text[: draw(st.integers(0, max(len(text) - 1, 0)))]
        else:
            extra = draw(st.text(max_size=8))
            i = draw(st.integers(0, len(text)))
            text = text[:i] + extra + text[i:]
    return text


def check_deserialize(engine: str, game, text: object):
    """``deserialize_state(text)``: refused with InvalidStateError, or a state that re-serializes to a text
    read back as the same state and keeps every conformance rule. Returns the state or the ``Raised``."""
    got = call(game.deserialize_state, text, allowed=(InvalidStateError,))
    if isinstance(got, Raised):
        return got
    again = got.serialize()
    assert game.deserialize_state(again).serialize() == again, "an accepted state does not round-trip"
    check_state(got, game)
    return got


@pytest.mark.parametrize("case", CASES, ids=_ids)
@FUZZ
@given(data=st.data())
def test_deserialize_mutated_states(case, data):
    engine, game_id = case
    game = MAKE[engine](game_id)
    state = data.draw(states(game, max_steps=300), label="state")
    text = data.draw(mutated(state.serialize()), label="text")
    note(f"text: {text[:2000]!r}")
    check_deserialize(engine, game, text)


@pytest.mark.parametrize("case", CASES, ids=_ids)
@FUZZ
@given(text=st.text(max_size=200) | anything() | st.just("{}") | st.just("[]") | st.just("null"))
def test_deserialize_any_value(case, text):
    engine, game_id = case
    check_deserialize(engine, MAKE[engine](game_id), text)


# Thingvellir's keys exist only when it is on (docs/rules/thingvellir.md): its refusals get their own case.
@pytest.mark.parametrize("game_id", [*SHARED, "nidavellir(thingvellir=true)"])
@FUZZ
@given(data=st.data())
def test_deserialize_verdicts_agree(game_id, data):
    """The same text to both engines: both refuse it, or both accept it as the same state (every query)."""
    rust_game, oracle_game = meeplex.make(game_id), meeplex.oracle.make(game_id)
    state = data.draw(states(rust_game, max_steps=300), label="state")
    text = data.draw(mutated(state.serialize()), label="text")
    note(f"text: {text[:2000]!r}")
    rust = check_deserialize("rust", rust_game, text)
    oracle = check_deserialize("oracle", oracle_game, text)
    if isinstance(rust, Raised) or isinstance(oracle, Raised):
        assert rust == oracle, f"rust {rust!r}, oracle {oracle!r}"
        return
    found = compare_states(rust, oracle, rust_game.num_players())
    assert found is None, f"both accept the text but differ: {found}"


# --- VectorGame -----------------------------------------------------------------------------------------


def vector_snapshot(vg) -> list[str]:
    return [vg.state(i).serialize() for i in range(vg.num_envs)]


def action_arrays(n: int, limit: int) -> st.SearchStrategy[object]:
    ints = st.integers(-2, limit + 2) | st.integers(-(2**63), 2**63 - 1)
    return st.one_of(
        st.lists(ints, min_size=n, max_size=n).map(lambda v: np.array(v, dtype=np.int64)),
        st.lists(ints, min_size=0, max_size=n + 2),
        st.lists(anything(near=limit), min_size=n, max_size=n),
        st.sampled_from([np.int8, np.int32, np.uint64, np.float64, np.bool_]).map(
            lambda d: np.zeros(n, dtype=d)
        ),
        st.just(np.zeros((n, 1), dtype=np.int64)),
        st.just(np.zeros(2 * n, dtype=np.int64)[::2]),
        anything(near=limit),
    )


@pytest.mark.parametrize("game_id", GAMES["rust"])
@pytest.mark.filterwarnings("ignore:invalid value encountered in cast:RuntimeWarning")  # numpy, NaN to int
@FUZZ
@given(data=st.data())
def test_vector_game_step_with_any_array(game_id, data):
    """``VectorGame.step`` with arrays of any dtype, shape and content: IllegalActionError (nothing changed)
    or a step of the right shapes."""
    game = meeplex.make(game_id)
    n = data.draw(st.integers(1, 4), label="num_envs")
    vg = meeplex.VectorGame(game, n, seed=data.draw(st.integers(0, 2**64 - 1), label="seed"))
    for _ in range(6):
        before = vector_snapshot(vg)
        actions = data.draw(action_arrays(n, game.num_distinct_actions()), label="actions")
        got = call(vg.step, actions, allowed=(IllegalActionError,))
        if isinstance(got, Raised):
            assert vector_snapshot(vg) == before, f"a refused step({actions!r}) changed a game"
            # A legal step keeps the vector going.
            legal = [vg.state(i).legal_actions() for i in range(n)]
            picks = [a[data.draw(st.integers(0, len(a) - 1))] if a else 0 for a in legal]
            call(vg.step, np.array(picks, dtype=np.int64), allowed=(IllegalActionError,))
            continue
        obs, rewards, terminated, truncated, info = got
        assert obs.shape == (n, *game.observation_shape()) and rewards.shape == (n, game.num_players())
        assert terminated.shape == truncated.shape == (n,)


@pytest.mark.parametrize("game_id", GAMES["rust"])
@FUZZ
@given(
    num_envs=anything(near=5),
    seed=anything() | st.none(),
    mode=st.sampled_from(["next_step", "same_step", "disabled", "NEXT_STEP", "x", ""]) | anything(),
    index=anything(near=5),
)
def test_vector_game_constructor_and_state(game_id, num_envs, seed, mode, index):
    """``VectorGame(game, num_envs, seed, autoreset_mode)``, ``reset(seed)`` and ``state(i)`` with values of
    any kind: a count, a seed or an index out of range is an InvalidStateError; a value of another type than
    the stub's may be a TypeError. (An OverflowError for a negative or huge count or index is a finding.)"""
    game = meeplex.make(game_id)
    vg = call(meeplex.VectorGame, game, num_envs, seed, mode, type_error=True)
    if isinstance(vg, Raised):
        return
    assert vg.num_envs == int_like(num_envs)
    call(vg.reset, seed, type_error=True)
    got = call(vg.state, index, type_error=True)
    if not isinstance(got, Raised):
        assert int_like(index) in range(vg.num_envs)
    call(meeplex.VectorGame, index, 2, type_error=True)


# --- Agents ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", GAMES["rust"])
@FUZZ
@given(data=st.data())
def test_agents_at_every_kind_of_node(game_id, data):
    """``RandomAgent.step`` and ``MctsAgent.step`` (plain and information sets): a legal action at a seat's
    decision, IllegalActionError at a chance node or the end, the state unchanged either way."""
    game = meeplex.make(game_id)
    state = data.draw(states(game, max_steps=400), label="state")
    if data.draw(st.booleans(), label="play to the end"):
        state.rollout(meeplex.Rng(data.draw(st.integers(0, 99))))
    before = state.serialize()
    agents = [
        _core.RandomAgent(seed=data.draw(st.integers(), label="seed")),
        _core.MctsAgent(simulations=8, max_rollout_steps=20, seed=1),
        _core.MctsAgent(simulations=8, max_rollout_steps=20, seed=2, information_sets=True),
    ]
    for agent in agents:
        got = call(agent.step, state, allowed=(IllegalActionError,))
        if state.current_player() < 0:
            assert isinstance(got, Raised), f"{type(agent).__name__} moved at player {state.current_player()}"
        else:
            assert got in state.legal_actions()
        assert state.serialize() == before
        call(agent.step, data.draw(anything(), label="not a state"), type_error=True)


@FUZZ
@given(
    simulations=anything(near=3),
    uct_c=anything() | st.floats(),
    rollout=anything(near=3),
    seed=anything() | st.none(),
    information_sets=anything(),
)
def test_agent_constructors(simulations, uct_c, rollout, seed, information_sets):
    """Agent parameters of any value: accepted, InvalidStateError when out of range, or a TypeError when of a
    type the stub does not allow. (An OverflowError for a negative or huge count is a finding.)"""
    call(_core.MctsAgent, simulations, uct_c, rollout, seed, information_sets, type_error=True)
    call(_core.RandomAgent, seed, type_error=True)


# --- The shared PRNG -----------------------------------------------------------------------------------


@pytest.mark.parametrize("engine", ["rust", "oracle"])
@FUZZ
@given(seed=anything(), n=anything())
def test_rng_with_any_value(engine, seed, n):
    """``Rng(seed)``: any int is reduced mod 2**64, another type is a TypeError. ``below(n)``: n >= 1 gives a
    value in 0..n; n < 1 a ValueError; a non-int a TypeError."""
    rng = call(RNG[engine], seed, type_error=True)
    if isinstance(rng, Raised):
        assume(False)
    got = call(rng.below, n, allowed=(ValueError,), type_error=True)
    if not isinstance(got, Raised):
        assert 0 <= got < int_like(n)


@FUZZ
@given(seed=anything(), n=anything())
def test_rng_engines_agree(seed, n):
    """Both engines' Rng accept and refuse the same seeds and bounds, and draw the same numbers."""
    a = call(RNG["rust"], seed, type_error=True)
    b = call(RNG["oracle"], seed, type_error=True)
    assert isinstance(a, Raised) == isinstance(b, Raised), f"Rng({seed!r}): rust {a!r}, oracle {b!r}"
    if isinstance(a, Raised):
        return
    assert a.next_u64() == b.next_u64(), f"Rng({seed!r}) draws differ"
    x = call(a.below, n, allowed=(ValueError,), type_error=True)
    y = call(b.below, n, allowed=(ValueError,), type_error=True)
    assert same(x, y), f"Rng({seed!r}).below({n!r}): rust {x!r}, oracle {y!r}"


# --- Findings: minimal reproductions of what the fuzzing above found ----------------------------------------
# Each fails until the engine is fixed (reported in issue 9); the fuzz tests above fail on the same inputs.


def _decision_state(make, game_id: str):
    game = make(game_id)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    return game, state


def test_finding_numpy_int_action_same_verdict():
    """A numpy integer (what ``np.flatnonzero(mask)`` or ``argmax`` gives) as an action or a seat: the oracle
    takes it as its int value, the Rust core refuses it; the contract says the two engines behave alike.

    The seat is checked through ``observation_tensor``, not ``observation_string`` as first written: the
    observation texts are each engine's own (only the tensor is in the contract, as
    test_state_methods_agree_between_engines says), so comparing the two strings failed even once both engines
    took the numpy seat. The tensors must be equal, which checks the seat was read as the same int."""
    differ = []
    for game_id in SHARED:
        verdicts = {}
        for engine in ("rust", "oracle"):
            game, state = _decision_state(MAKE[engine], game_id)
            action = np.int64(state.legal_actions()[0])
            verdicts[engine] = (
                call(state.action_to_string, action),
                call(state.observation_tensor, np.int64(0)),
                call(state.apply_action, action),
            )
        if not all(same(a, b) for a, b in zip(verdicts["rust"], verdicts["oracle"], strict=True)):
            differ.append(f"{game_id}: {verdicts}")
    assert not differ, "\n".join(differ)


OVERFLOW_CASES = [
    ("VectorGame(game, -1)", lambda g: meeplex.VectorGame(g, -1)),
    ("VectorGame(game, 2**64)", lambda g: meeplex.VectorGame(g, 2**64)),
    ("VectorGame.state(-1)", lambda g: meeplex.VectorGame(g, 1).state(-1)),
    ("VectorGame.state(2**64)", lambda g: meeplex.VectorGame(g, 1).state(2**64)),
    ("MctsAgent(simulations=-1)", lambda g: _core.MctsAgent(simulations=-1)),
    ("MctsAgent(simulations=2**32)", lambda g: _core.MctsAgent(simulations=2**32)),
    ("MctsAgent(max_rollout_steps=-1)", lambda g: _core.MctsAgent(max_rollout_steps=-1)),
    ("Rng(0).below(-1)", lambda g: meeplex.Rng(0).below(-1)),
]


def test_finding_no_overflow_error():
    """A negative or huge int where the binding takes an unsigned Rust int comes out as an OverflowError,
    which is not a ValueError (``except ValueError`` misses it) nor a documented class: InvalidStateError
    expected."""
    game = meeplex.make(GAMES["rust"][0])
    overflow = []
    for label, fn in OVERFLOW_CASES:
        try:
            fn(game)
        except (GameError, ValueError):
            pass
        except OverflowError as exc:
            overflow.append(f"{label}: {exc}")
    assert not overflow, "OverflowError from " + "; ".join(overflow)


def test_finding_rng_seed_types_agree():
    """``Rng(True)`` is Rng(1) in Rust but a TypeError in the oracle; ``Rng(np.uint64(3))`` the reverse;
    ``Rng(0).below(2**64)`` works in the oracle and is an OverflowError in Rust."""
    for value in (True, np.uint64(3)):
        a, b = call(meeplex.Rng, value, type_error=True), call(meeplex.oracle.Rng, value, type_error=True)
        assert isinstance(a, Raised) == isinstance(b, Raised), f"Rng({value!r}): rust {a!r}, oracle {b!r}"
    b = meeplex.oracle.Rng(0).below(2**64)
    a = call(meeplex.Rng(0).below, 2**64, allowed=(ValueError,), type_error=True)
    assert same(a, b), f"Rng(0).below(2**64): rust {a!r}, oracle {b!r}"


@pytest.mark.parametrize("game_id", GAMES["rust"])
def test_finding_vector_game_state_round_trips(game_id):
    """``VectorGame.state(i)`` is a State like any other, so its serialization must read back. It has no
    history (the vector keeps none), and a game whose reader checks the fields against the history refuses
    it: ``flipology`` at the time of writing, right after ``VectorGame(game, 1, seed=0)``."""
    game = meeplex.make(game_id)
    vg = meeplex.VectorGame(game, 1, seed=0)
    for _ in range(3):
        text = vg.state(0).serialize()
        got = call(game.deserialize_state, text, allowed=(InvalidStateError,))
        assert not isinstance(got, Raised), f"{game_id}: VectorGame.state(0).serialize() is refused: {got!r}"
        vg.step(np.argmax(vg.state(0).legal_actions_mask())[None].astype(np.int64))


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_finding_resampled_state_reads_back(case):
    """A state from ``resample_from_infostate`` is a State like any other: its serialization must read back.
    The Rust ``flipology`` keeps the original history on the resampled state (the oracle rewrites it), so the
    fields no longer follow from the history and its own reader refuses the text (and the kept history still
    holds the real hidden deal). Seed 0, 16 random steps, seat 0 reproduces it."""
    engine, game_id = case
    game = MAKE[engine](game_id)
    for seed in range(3):
        rng = RNG[engine](seed)
        state = game.new_initial_state()
        for step in range(40):
            if state.is_terminal():
                break
            for seat in range(game.num_players()):
                other = state.resample_from_infostate(seat, RNG[engine](seed + 100))
                got = call(game.deserialize_state, other.serialize(), allowed=(InvalidStateError,))
                assert not isinstance(got, Raised), (
                    f"{engine} {game_id} seed {seed} after {step} steps: resample_from_infostate({seat}) "
                    f"gives a state whose serialization is refused: {got!r}"
                )
            state.apply_action(random_action(state, rng))


def test_finding_vector_game_step_takes_only_ints():
    """``VectorGame.step`` casts whatever it is given to int64 (``np.asarray(actions, np.int64)``): a float
    policy output 3.7 silently becomes action 3, True becomes 1 and "3" becomes 3, where
    ``State.apply_action`` refuses all three (docs/architecture.md: "a non-int or bool action" is an
    IllegalActionError)."""
    taken = []
    for game_id in GAMES["rust"]:
        game = meeplex.make(game_id)
        vg = meeplex.VectorGame(game, 1, seed=0)
        legal = vg.state(0).legal_actions()
        values = [np.array([legal[0] + 0.7]), [str(legal[0])]]
        values += [np.array([bool(a)]) for a in (0, 1) if a in legal]
        for value in values:
            before = vector_snapshot(vg)
            if not isinstance(call(vg.step, value, allowed=(IllegalActionError,)), Raised):
                taken.append(f"{game_id}: step({value!r})")
                vg = meeplex.VectorGame(game, 1, seed=0)
            else:
                assert vector_snapshot(vg) == before
    assert not taken, "taken as int actions: " + "; ".join(taken)


def test_finding_parameter_called_name():
    """``make(name, **params)`` cannot take a parameter called ``name`` (Python: "got multiple values for
    argument 'name'", a TypeError), so an unknown key is not always an InvalidStateError; ``def make(name, /,
    **params)`` (positional-only) would fix it, in both engines."""
    raised = []
    for engine in ("rust", "oracle"):
        got = call(MAKE[engine], GAMES[engine][0], allowed=(InvalidStateError,), type_error=True, name=1)
        if isinstance(got, Raised) and got.kind == "TypeError":
            raised.append(f"{engine}: {got!r}")
    assert not raised, "; ".join(raised)


def test_finding_minus_zero_in_a_serialized_state():
    """JSON allows ``-0`` for the integer zero. Given the initial state with its first zero field written
    ``-0``, the oracle (``json.loads`` gives int 0) accepts it; the Rust flip_city, flip_city_wilderness and
    flipology readers refuse it (serde_json keeps -0 apart from 0) while the Rust flip_pick_towers reader
    accepts it. Found by test_deserialize_verdicts_agree; the two engines must give the same verdict."""
    differ = []
    for game_id in SHARED:
        text = meeplex.make(game_id).new_initial_state().serialize()
        obj = json.loads(text)
        key = next((k for k, v in sorted(obj.items()) if type(v) is int and v == 0), None)
        if key is None:
            continue
        text = text.replace(f'"{key}":0', f'"{key}":-0', 1)
        rust = check_deserialize("rust", meeplex.make(game_id), text)
        oracle = check_deserialize("oracle", meeplex.oracle.make(game_id), text)
        if isinstance(rust, Raised) != isinstance(oracle, Raised):
            differ.append(f'{game_id} "{key}":-0: rust {rust!r}, oracle {"accepts" if oracle else oracle!r}')
    assert not differ, "\n".join(differ)
