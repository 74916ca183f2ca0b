"""Bad input on both engines (DESIGN.md, "Errors and bad input"; docs/rules/flip_city.md §1, §5, §7).

Every bad call must raise the documented class (IllegalActionError, InvalidStateError, InvalidNotationError),
never anything else (a TypeError, an OverflowError, a pyo3 PanicException), and leave the state as it was.
"""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import meeplex
import meeplex.oracle
from flip_city_positions import (
    APT,
    CS,
    FACTORY,
    HOSP,
    PARK,
    RA,
    dump,
    position,
    seat,
)
from meeplex.errors import IllegalActionError, InvalidNotationError, InvalidStateError
from meeplex.testing.strategies import bad_ints, game_strings, junk, states


def expect(cls: type, fn, *args, **kwargs) -> BaseException:
    """Call ``fn`` and insist that it raises exactly ``cls`` (or a subclass); anything else is a failure."""
    try:
        fn(*args, **kwargs)
    except cls as exc:
        return exc
    except BaseException as exc:  # noqa: BLE001 - a panic is a BaseException; it must be reported, not raised
        pytest.fail(f"{fn.__name__}{args!r} raised {type(exc).__name__}: {exc} instead of {cls.__name__}")
    pytest.fail(f"{fn.__name__}{args!r} {kwargs or ''} did not raise {cls.__name__}")


def decision_state(make):
    """A mid-game decision state with some actions illegal."""
    game = make("flip_city")
    state = game.new_initial_state()
    while state.is_chance_node() or len(state.history()) < 12:
        state.apply_action(state.legal_actions()[len(state.history()) % len(state.legal_actions())])
    return game, state


def chance_state(make):
    game = make("flip_city")
    return game, game.new_initial_state()


def terminal_state(make):
    game = make("flip_city(max_turns=1)")
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[-1])
    return game, state


OUT_OF_RANGE = [
    78,
    79,
    1000,
    2**31 - 1,
    2**31,
    2**32,
    2**63 - 1,
    2**63,
    2**64,
    2**100,
    -1,
    -(2**31),
    -(2**63),
    -(2**64) - 1,
]
NOT_INTS = [1.0, 0.0, float("nan"), "0", "play", b"0", None, [0], (0,), {0: 0}, 1j, object(), np.float64(0)]
BOOLS = [True, False, np.bool_(True)]
BAD_ACTIONS = OUT_OF_RANGE + NOT_INTS + BOOLS
STATES = {"decision": decision_state, "chance": chance_state, "terminal": terminal_state}


# --- Actions ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("where", ["decision", "chance", "terminal"])
def test_apply_bad_action_refused(make, where):
    game, state = STATES[where](make)
    before = state.serialize()
    limit = game.max_chance_outcomes() if state.is_chance_node() else game.num_distinct_actions()
    illegal = [a for a in range(limit) if a not in state.legal_actions()]
    chance_extra = list(range(12, 78)) if where == "chance" else []  # decision ids are not chance outcomes
    for action in BAD_ACTIONS + illegal + chance_extra:
        expect(IllegalActionError, state.apply_action, action)
        assert state.serialize() == before, f"apply_action({action!r}) changed the state"


def test_illegal_action_message_names_action_and_seat(make):
    """DESIGN: IllegalActionError's "message names the action and the seat"."""
    game, state = decision_state(make)
    seat_id = state.current_player()
    action = next(a for a in range(78) if a not in state.legal_actions())
    message = str(expect(IllegalActionError, state.apply_action, action))
    assert str(action) in message or state.action_to_string(action) in message, message
    assert str(seat_id) in message, message


@pytest.mark.parametrize("where", ["decision", "chance", "terminal"])
def test_action_to_string_out_of_range(make, where):
    """§5: "action_to_string of an id out of range raises IllegalActionError"."""
    game, state = STATES[where](make)
    before = state.serialize()
    for action in BAD_ACTIONS:
        expect(IllegalActionError, state.action_to_string, action)
    assert state.serialize() == before


def test_action_to_string_covers_every_id_in_range(make):
    """§5: canonical text "for any id in range", legal or not, distinct per id."""
    game, state = decision_state(make)
    texts = [state.action_to_string(a) for a in range(game.num_distinct_actions())]
    assert len(set(texts)) == len(texts)
    assert [state.string_to_action(t) for t in texts] == list(range(game.num_distinct_actions()))


BAD_TEXTS = [
    "",
    "   ",
    "fly",
    "playy",
    "pla y",
    "buy",
    "buy Nothing",
    "buy Hospital Hospital",
    "buy Apartment!",
    "shuffle aside",
    "shuffle aside 11",
    "shuffle aside -1",
    "shuffle aside x",
    "target",
    "target 4",
    "target -1",
    "recycle",
    "remove",
    "develop 3",
    "26",
    "\x00",
    "play\x00",
    "ｐｌａｙ",
]


def test_string_to_action_rejects_bad_text(make):
    """§5: "Anything else raises InvalidNotationError"; it "does not check legality"."""
    game, state = decision_state(make)
    before = state.serialize()
    for text in BAD_TEXTS + [None, 0, b"play", ["play"], 1.5, True]:
        expect(InvalidNotationError, state.string_to_action, text)
    assert state.serialize() == before
    # The relaxed forms that must parse, so that the refusals above are not a parser refusing everything.
    assert state.string_to_action("  PLAY ") == 0
    assert state.string_to_action("buy    hospital") == 26 + HOSP
    assert state.string_to_action("target 3") == 65  # a seat that does not exist: not a legality check


def test_string_to_action_at_chance_node(make):
    """§5: at a chance node, the chance form and a bare face name parse; other text does not."""
    game, state = chance_state(make)
    assert state.string_to_action("reveal Hospital") == HOSP
    assert state.string_to_action("hospital") == HOSP
    for text in ["reveal", "reveal Nowhere", "", "Hospitals"]:
        expect(InvalidNotationError, state.string_to_action, text)


@pytest.mark.parametrize(
    "text", ["play\n", "\tplay", "play\t", "buy\tHospital", "buy \n Hospital", "\u00a0play"]
)
def test_string_to_action_other_whitespace_agrees(text):
    """§5 says the parser ignores "surrounding spaces and repeated inner spaces"; whether tabs, newlines or
    other Unicode spaces count is not said. The engines must agree."""
    outcomes = []
    for make in (meeplex.make, meeplex.oracle.make):
        _, state = decision_state(make)
        try:
            outcomes.append(state.string_to_action(text))
        except InvalidNotationError:
            outcomes.append("InvalidNotationError")
    assert outcomes[0] == outcomes[1], f"rust {outcomes[0]!r} vs oracle {outcomes[1]!r}"


# --- Seats -----------------------------------------------------------------------------------------------

BAD_SEATS = [-1, 2, 3, 4, 2**31, 2**64, -(2**70), 1.0, "0", None, True, False, [0]]


@pytest.mark.parametrize("method", ["observation_tensor", "observation_string", "information_state_string"])
def test_bad_seat(make, method):
    """The observation methods take a seat 0..n-1; anything else raises InvalidStateError."""
    game, state = decision_state(make)
    before = state.serialize()
    for seat_id in BAD_SEATS:
        expect(InvalidStateError, getattr(state, method), seat_id)
    assert state.serialize() == before


def test_bad_seat_resample(engine):
    game, state = decision_state(engine.make)
    before = state.serialize()
    for seat_id in BAD_SEATS:
        expect(InvalidStateError, state.resample_from_infostate, seat_id, engine.Rng(1))
    assert state.serialize() == before


# --- Serialized states (§7) ---------------------------------------------------------------------------------


def base_play() -> dict:
    """A valid 2-player position in the Play Cards phase; leftovers go to seat 1's discard pile. The supply
    of Convenience Store is full (12) and seat 0 has one in its discard pile."""
    return position(
        2,
        seats=[
            seat(deck_known=[RA, CS], deck_unknown={RA: 2, HOSP: 1}, discard={CS: 1, FACTORY: 1}),
            seat(deck_known=[PARK]),
        ],
        supply={CS: 12, HOSP: 10, PARK: 8, FACTORY: 8},
        play_area=[HOSP],
        cash=2,
        unhappiness=1,
        history=[1, 0, 0, 2, 6, 0],
    )


def base_build() -> dict:
    pos = base_play()
    pos.update(phase="build", main=True, extra_buys=1, extra_flips=1, discount=1)
    return pos


def base_over() -> dict:
    pos = base_play()
    pos["seats"][0]["discard"][HOSP] += pos["play_area"][HOSP]
    pos.update(phase="over", winner=0, play_area=[0] * 12, played=0, cash=0, unhappiness=0, turn=7)
    return pos


def base_solo() -> dict:
    return position(
        1,
        seats=[
            seat(deck_known=[RA], deck_unknown={RA: 3, APT: 1, CS: 1, PARK: 1, HOSP: 1}, discard={FACTORY: 1})
        ],
    )


BASES = {"play": base_play, "build": base_build, "over": base_over, "solo": base_solo}


def _set(path: str, value):
    """A mutation that sets one field (``seats.0.discard.3``-style path)."""

    def mutate(obj: dict) -> None:
        *parents, last = path.split(".")
        for key in parents:
            obj = obj[int(key)] if isinstance(obj, list) else obj[key]
        if isinstance(obj, list):
            obj[int(last)] = value
        else:
            obj[last] = value

    return mutate


def _delete(path: str):
    def mutate(obj: dict) -> None:
        *parents, last = path.split(".")
        for key in parents:
            obj = obj[int(key)] if isinstance(obj, list) else obj[key]
        del obj[last]

    return mutate


def _each(*mutations):
    def mutate(obj: dict) -> None:
        for m in mutations:
            m(obj)

    return mutate


def _store_in_play(flag: bool):
    """Seat 0's discarded Convenience Store moved to the play area (2 cards played); ``store_played``."""
    return _each(
        _set("seats.0.discard.2", 0), _set("play_area.2", 1), _set("played", 2), _set("store_played", flag)
    )


TOP_KEYS = sorted(base_play())
SEAT_KEYS = ["best", "deck_known", "deck_unknown", "discard"]
INT_FIELDS = [
    "cash",
    "current",
    "discount",  # an int since version 2 (FC §7: the fee reduction)
    "extra_buys",
    "extra_flips",
    "limit_bonus",
    "played",
    "points",
    "turn",
    "unhappiness",
    "version",
    "winner",
]
BOOL_FIELDS = ["forced", "main", "shuffled", "store_played"]
COUNT_LISTS = ["play_area", "removed", "supply", "seats.0.deck_unknown", "seats.1.discard"]

# (name, base, mutation): each must be refused with InvalidStateError.
REJECT: list[tuple[str, str, object]] = (
    [(f"missing {k}", "play", _delete(k)) for k in TOP_KEYS]
    + [(f"missing seats.0.{k}", "play", _delete(f"seats.0.{k}")) for k in SEAT_KEYS]
    + [(f"missing params.{k}", "play", _delete(f"params.{k}")) for k in sorted(base_play()["params"])]
    + [
        ("extra key", "play", _set("colour", "red")),
        ("extra seat key", "play", _set("seats.0.hand", [])),
        ("extra params key", "play", _set("params.colour", 1)),
    ]
    + [(f"{f} as bool", "play", _set(f, True)) for f in INT_FIELDS if f != "winner"]
    + [(f"{f} as str", "play", _set(f, "0")) for f in INT_FIELDS]
    + [(f"{f} as float", "play", _set(f, 0.0)) for f in INT_FIELDS]
    + [(f"{f} as null", "play", _set(f, None)) for f in INT_FIELDS]
    + [(f"{f} as int", "play", _set(f, 0)) for f in BOOL_FIELDS]
    + [(f"{f} as str", "play", _set(f, "false")) for f in BOOL_FIELDS]
    + [(f"{f} too short", "play", _set(f, [0] * 11)) for f in COUNT_LISTS]
    + [(f"{f} too long", "play", _set(f, [0] * 13)) for f in COUNT_LISTS]
    + [(f"{f} not a list", "play", _set(f, "0" * 12)) for f in COUNT_LISTS]
    + [
        ("count as bool", "play", _set("seats.1.discard.0", True)),
        ("count as float", "play", _set("seats.1.discard.0", 7.0)),
        ("best as bool", "play", _set("seats.0.best", False)),
        ("best negative", "play", _set("seats.0.best", -1)),
        ("phase as int", "play", _set("phase", 0)),
        ("pending as null", "play", _set("pending", None)),
        ("seats not a list", "play", _set("seats", {})),
        ("seat not an object", "play", _set("seats.1", [])),
        ("one seat too few", "play", lambda o: o["seats"].pop()),
        ("one seat too many", "play", lambda o: o["seats"].append(copy.deepcopy(o["seats"][1]))),
        ("history not a list", "play", _set("history", 0)),
        ("history id 78", "play", _set("history", [0, 78])),
        ("history id -1", "play", _set("history", [-1])),
        ("history id as bool", "play", _set("history", [True])),
        ("history id as str", "play", _set("history", ["0"])),
        ("other game", "play", _set("game", "flip_city_x")),
        ("game as int", "play", _set("game", 0)),
        ("other version", "play", _set("version", 1)),  # FC §7: version 1 had a boolean discount
        ("future version", "play", _set("version", 3)),
        ("other params", "play", _set("params.players", 3)),
        ("params value type", "play", _set("params.office", 0)),
        ("params as str", "play", _set("params", "flip_city")),
        ("negative count", "play", _each(_set("seats.1.discard.0", -1), _set("seats.1.discard.1", 8))),
        ("negative supply", "play", _each(_set("supply.2", -1), _set("seats.1.discard.2", 13))),
        ("face id 12 in deck", "play", _set("seats.0.deck_known", [12, CS])),
        ("face id -1 in deck", "play", _set("seats.0.deck_known", [-1, CS])),
        ("face id as str in deck", "play", _set("seats.0.deck_known", ["0", CS])),
        ("face id as bool in deck", "play", _set("seats.0.deck_known", [False, CS])),
        ("one card too many", "play", _set("seats.1.discard.0", 8)),
        ("one card too few", "play", _set("seats.1.discard.0", 6)),
        ("card flipped into existence", "play", _set("seats.1.discard.1", 1)),
        ("supply on a face with no cost", "play", _each(_set("supply.2", 11), _set("supply.3", 1))),
        ("supply beyond its start", "play", _each(_set("supply.2", 13), _set("seats.0.discard.2", 0))),
        ("office supply without office", "play", _each(_set("supply.8", 1), _set("seats.1.discard.8", 0))),
        ("current = players", "play", _set("current", 2)),
        ("current negative", "play", _set("current", -1)),
        ("winner = players", "over", _set("winner", 2)),
        ("winner -2", "over", _set("winner", -2)),
        ("turn beyond the limit", "play", _set("turn", 201)),
        ("turn negative", "play", _set("turn", -1)),
        ("phase unknown", "play", _set("phase", "Play")),
        ("phase empty", "play", _set("phase", "")),
        ("pending unknown", "play", _set("pending", "Bottom")),
        ("bottom in build", "build", _set("pending", "bottom")),
        ("shuffle in build", "build", _set("pending", "shuffle")),
        ("give_apartment in build", "build", _set("pending", "give_apartment")),
        ("give_residential in play", "play", _set("pending", "give_residential")),
        ("remove outside solo", "play", _set("pending", "remove")),
        ("remove in solo build", "solo", _each(_set("phase", "build"), _set("pending", "remove"))),
        ("main in play", "play", _set("main", True)),
        ("extra_buys in play", "play", _set("extra_buys", 1)),
        ("extra_flips in play", "play", _set("extra_flips", 1)),
        ("discount in play", "play", _set("discount", 1)),
        ("shuffled in build", "build", _set("shuffled", True)),
        ("played below the play area", "build", _set("played", 0)),
        ("played beyond the play area in play", "play", _set("played", 2)),
        ("store_played without a Convenience Store", "play", _set("store_played", True)),
        ("store_played false with one played", "play", _store_in_play(False)),
        ("forced in build", "build", _set("forced", True)),
        ("play area when over", "over", _each(_set("play_area.2", 1), _set("seats.0.discard.2", 0))),
        ("cash when over", "over", _set("cash", 1)),
        ("points when over", "over", _set("points", 1)),
        ("unhappiness when over", "over", _set("unhappiness", 1)),
        ("limit_bonus when over", "over", _set("limit_bonus", 1)),
        ("main when over", "over", _set("main", True)),
        ("forced when over", "over", _set("forced", True)),
        ("discount when over", "over", _set("discount", 1)),
        ("played when over", "over", _set("played", 1)),
        ("store_played when over", "over", _set("store_played", True)),
        ("extra_flips when over", "over", _set("extra_flips", 1)),
        ("extra_buys when over", "over", _set("extra_buys", 1)),
        ("winner while playing", "play", _set("winner", 0)),
        ("cash above 10000", "play", _set("cash", 10001)),
        ("points above 10000", "play", _set("points", 10001)),
        ("unhappiness above 10000", "play", _set("unhappiness", 10001)),
        ("limit_bonus above 10000", "play", _set("limit_bonus", 10001)),
        ("extra_buys above 10000", "build", _set("extra_buys", 10001)),
        ("best above 10000", "play", _set("seats.0.best", 10001)),
        ("cash 2**64", "play", _set("cash", 2**64)),
        ("cash 10**30", "play", _set("cash", 10**30)),
        ("cash -2**63", "play", _set("cash", -(2**63))),
        ("cash negative", "play", _set("cash", -1)),
    ]
    + [(f"{p} outside play", "build", _set("pending", p)) for p in ("bottom", "shuffle", "give_apartment")]
    + [
        (f"{p} when over", "over", _set("pending", p))
        for p in ("shuffle", "give_apartment", "give_residential", "remove", "bottom")
    ]
)

# Positions that are valid though close to the edge: accepted by both engines (so the refusals above are
# refusals of the one broken rule, not of the base).
ACCEPT: list[tuple[str, str, object]] = [("unchanged", base, lambda o: None) for base in BASES] + [
    (
        "counters at 10000",
        "play",
        _each(_set("cash", 10000), _set("points", 10000), _set("unhappiness", 10000)),
    ),
    ("shuffle pending in play", "play", _set("pending", "shuffle")),
    (
        "give_apartment pending in play",
        "play",
        _each(_set("pending", "give_apartment"), _set("seats.0.discard.1", 1), _set("seats.1.discard.0", 6)),
    ),
    ("remove pending in solo play", "solo", _set("pending", "remove")),
    ("turn at the limit minus one", "play", _set("turn", 199)),
    ("empty history", "play", _set("history", [])),
    ("long history", "play", _set("history", list(range(78)) * 3)),
    ("supply of Hospital emptied", "play", _each(_set("supply.6", 0), _set("seats.1.discard.6", 12))),
    ("winner -1 when over (turn limit)", "over", _set("winner", -1)),
    ("shuffled in play", "play", _set("shuffled", True)),
    ("a Convenience Store played", "play", _store_in_play(True)),
    ("two Stations' discount in build", "build", _set("discount", 2)),
]


@pytest.mark.parametrize(("name", "base", "mutate"), REJECT, ids=[r[0] for r in REJECT])
def test_deserialize_rejects(make, name, base, mutate):
    obj = BASES[base]()
    game = make("flip_city", **obj["params"])
    fresh = game.new_initial_state().serialize()
    mutate(obj)
    expect(InvalidStateError, game.deserialize_state, dump(obj))
    assert game.new_initial_state().serialize() == fresh


@pytest.mark.parametrize(("name", "base", "mutate"), ACCEPT, ids=[a[0] for a in ACCEPT])
def test_deserialize_accepts(make, name, base, mutate):
    obj = BASES[base]()
    game = make("flip_city", **obj["params"])
    mutate(obj)
    text = dump(obj)
    assert game.deserialize_state(text).serialize() == text


def test_deserialize_rejects_malformed_text(make):
    game = make("flip_city")
    good = game.new_initial_state().serialize()
    texts = [
        "",
        " ",
        "{",
        "}",
        "[]",
        "null",
        "42",
        '"flip_city"',
        "{}",
        good + "x",
        good + good,
        "\x00" + good,
        good.replace('"', "'"),
        good.replace("false", "False"),
    ]
    texts += [good[:n] for n in range(0, len(good), 17)]
    for text in texts:
        expect(InvalidStateError, game.deserialize_state, text)
    for value in [None, 0, b"{}", good.encode(), json.loads(good), ["{}"]]:
        expect(InvalidStateError, game.deserialize_state, value)


def test_deserialize_rejects_other_players_count(make):
    """§7: ``params`` different from the game's (a 3-player text given to a 2-player game)."""
    text = make("flip_city(players=3)").new_initial_state().serialize()
    expect(InvalidStateError, make("flip_city").deserialize_state, text)


def test_deserialize_agrees_on_noncanonical_text():
    """Whether a non-canonical but equivalent JSON text is accepted is not settled by §7; the engines must at
    least agree, and an accepted text must come back canonical."""
    obj = base_play()
    variants = {
        "spaces": json.dumps(obj, sort_keys=True),
        "unsorted keys": json.dumps(dict(reversed(list(obj.items()))), separators=(",", ":")),
        "indented": json.dumps(obj, sort_keys=True, indent=2),
        "unicode escape": dump(obj).replace('"play"', '"\\u0070lay"'),
        "exponent": dump(obj).replace('"cash":2', '"cash":2e0'),
    }
    for name, text in variants.items():
        outcomes = []
        for make in (meeplex.make, meeplex.oracle.make):
            try:
                outcomes.append(make("flip_city").deserialize_state(text).serialize())
            except InvalidStateError:
                outcomes.append("InvalidStateError")
        assert outcomes[0] == outcomes[1], f"{name}: rust {outcomes[0][:60]!r} vs oracle {outcomes[1][:60]!r}"
        assert outcomes[0] in ("InvalidStateError", dump(obj)), name


def _outcome(make, obj: dict) -> str:
    try:
        make("flip_city", **obj["params"]).deserialize_state(dump(obj))
    except InvalidStateError:
        return "refused"
    return "accepted"


def _agreement_cases() -> dict[str, dict]:
    """Positions whose validity §7 does not settle in its list (its "any inconsistency" may or may not cover
    them). The engines must agree on each; the choice itself is a question for the rules document."""
    two = [seat(deck_known=[CS]), seat(deck_known=[CS])]
    solo_cards = {RA: 4, APT: 1, CS: 1, PARK: 1, HOSP: 1, FACTORY: 1}
    in_transit = position(2, seats=[seat(), seat(deck_known=[CS])], phase="build", pending="give_residential")
    in_transit["seats"][1]["discard"][RA] -= 1
    return {
        "solo, empty supply, not over": position(1, seats=[seat(discard=solo_cards)], supply={}),
        "turn limit reached, game goes on": position(
            2, seats=copy.deepcopy(two), params={"max_turns": 1}, turn=2
        ),
        "removed cards outside solo": position(2, seats=copy.deepcopy(two), removed={HOSP: 1}),
        "give_apartment in solo": position(1, seats=[seat(discard=solo_cards)], pending="give_apartment"),
        "bottom pending, no unknown card": position(2, seats=copy.deepcopy(two), pending="bottom"),
        "give_apartment, no Apartment": position(2, seats=copy.deepcopy(two), pending="give_apartment"),
        "give_residential, flipped card in transit": in_transit,
        "forced with an empty deck": position(2, seats=[seat(), seat(deck_known=[CS])], forced=True),
        "unhappiness above the limit": position(2, seats=copy.deepcopy(two), unhappiness=5),
        "over, no winner, before the turn limit": position(2, seats=copy.deepcopy(two), phase="over", turn=3),
        "over, winner is not the current seat": position(2, seats=copy.deepcopy(two), phase="over", winner=1),
        "best of 9 points, game goes on": position(
            2, seats=[seat(deck_known=[CS], best=9), seat(deck_known=[CS])]
        ),
        "pending shuffle, empty discard pile": position(2, seats=copy.deepcopy(two), pending="shuffle"),
    }


@pytest.mark.parametrize("name", sorted(_agreement_cases()))
def test_deserialize_agrees_beyond_section_7(name):
    obj = _agreement_cases()[name]
    assert _outcome(meeplex.make, obj) == _outcome(meeplex.oracle.make, obj)


def test_deserialize_duplicate_key_agrees():
    """A JSON object with a key given twice: not settled by §7 either (reject, or last one wins); the engines
    must agree."""
    text = dump(base_play()).replace('{"cash":2,', '{"cash":3,"cash":2,', 1)
    outcomes = []
    for make in (meeplex.make, meeplex.oracle.make):
        try:
            outcomes.append(make("flip_city").deserialize_state(text).serialize())
        except InvalidStateError:
            outcomes.append("InvalidStateError")
    assert outcomes[0] == outcomes[1], f"rust: {outcomes[0][:40]}..., oracle: {outcomes[1][:40]}"


# --- Games and parameters ---------------------------------------------------------------------------------

BAD_PARAMS = [
    {"players": 0},
    {"players": 5},
    {"players": -1},
    {"players": 2**64},
    {"players": 10**30},
    {"players": "2"},
    {"players": 2.0},
    {"players": True},
    {"players": None},
    {"players": [2]},
    {"office": 1},
    {"office": "true"},
    {"office": None},
    {"office": 1.0},
    {"max_turns": 0},
    {"max_turns": 1001},
    {"max_turns": -5},
    {"max_turns": False},
    {"apartment_unhappiness": 2},
    {"apartment_unhappiness": -1},
    {"apartment_unhappiness": True},
    {"hospital_cash": 2},
    {"hospital_cash": False},
    {"mall_recycle": 0},
    {"station_recycle": "no"},
    {"colour": "red"},
    {"Players": 2},
    {"": 1},
]


@pytest.mark.parametrize("params", BAD_PARAMS, ids=[repr(p) for p in BAD_PARAMS])
def test_bad_parameters(make, params):
    """§1: "Unknown keys, wrong types (a bool is not an int, an int is not a bool) and values out of range
    raise InvalidStateError"."""
    expect(InvalidStateError, make, "flip_city", **params)


@pytest.mark.parametrize(
    "text",
    [
        "flip_city(players=0)",
        "flip_city(players=5)",
        "flip_city(players=two)",
        "flip_city(office=1)",
        "flip_city(players=true)",
        "flip_city(colour=red)",
        "flip_city(max_turns=99999999999999999999999)",
        "no_such_game",
        "no_such_game(players=2)",
    ],
)
def test_bad_game_string_values(make, text):
    """A game string that parses but names an unknown game or bad values: InvalidStateError."""
    expect(InvalidStateError, make, text)


@pytest.mark.parametrize(
    "text",
    [
        "",
        " ",
        "flip_city(",
        "flip_city)",
        "flip_city(players)",
        "flip_city(=2)",
        "flip_city(players=2,players=3)",
        "FLIP_CITY",
        "flip city",
        "(players=2)",
        "flip_city(players=2",
        "flip_city(players=2))",
        "flip_city[]",
        "flip_city(players=2;office=true)",
        "flip_city(players=2.0)",
        "flip_city(players=-)",
        "flip_city(office=[true])",
        "9games",
    ],
)
def test_malformed_game_strings(make, text):
    """A game string that does not parse: InvalidNotationError (docs/architecture.md: game strings "accept
    ints, true/false (any case) and simple words; anything else is an InvalidNotationError")."""
    expect(InvalidNotationError, make, text)


@pytest.mark.parametrize("name", [None, 5, b"flip_city", ["flip_city"]])
def test_game_name_not_a_string(make, name):
    expect(InvalidNotationError, make, name)


def test_parameter_given_twice(make):
    expect(InvalidStateError, make, "flip_city(players=2)", players=3)


def test_good_game_strings(make):
    """The accepted forms, so that the refusals above are refusals of the bad part only."""
    base = make("flip_city").params
    assert make("flip_city()").params == base
    assert make(" flip_city ( players = 3 , office = TRUE ) ").params == dict(base, players=3, office=True)
    assert make("flip_city", players=1).params == dict(base, players=1)
    assert make("flip_city(players=3)").params == dict(base, players=3)


# --- Any reachable state, any junk -------------------------------------------------------------------------


@given(data=st.data())
def test_junk_on_reachable_states(engine, data):
    """Junk and out-of-range ints on random reachable states (any parameters): documented errors only."""
    game = engine.make(data.draw(game_strings(), label="game"))
    state = data.draw(states(game, max_steps=150), label="state")
    before = state.serialize()
    limit = max(game.num_distinct_actions(), game.max_chance_outcomes())
    for value in [data.draw(junk(), label="junk"), data.draw(bad_ints(limit), label="bad int")]:
        expect(IllegalActionError, state.apply_action, value)
        expect(IllegalActionError, state.action_to_string, value)
        expect(InvalidStateError, state.observation_tensor, value)
        expect(InvalidStateError, state.information_state_string, value)
        if not isinstance(value, str):
            expect(InvalidNotationError, state.string_to_action, value)
    assert state.serialize() == before
