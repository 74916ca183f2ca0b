"""Viticulture's resample in the middle of a unit (docs/rules/viticulture.md §10), on both engines: during the
setup deal, during a visitor's steps and after a hidden draw in the middle of a turn, a state resampled for
each seat looks the same to that seat, serializes and reads back as itself with its history, and that
history is the true one with only draws hidden from that seat changed. Both engines redeal alike from the same
seed."""

from __future__ import annotations

import json

import meeplex
import meeplex.oracle

PLAY, FILL, CARD = 242, 318, 121  # the `play <visitor>` ids and the first id above the card kinds (§7)
PARAMS = {"players": 3, "max_years": 2}


def step(state, rng) -> None:
    """DESIGN's random step with the engine's Rng."""
    if state.is_chance_node():
        weights = state.chance_weights()
        r = rng.below(sum(w for _, w in weights))
        action = next(a for i, (a, _) in enumerate(weights) if sum(w for _, w in weights[: i + 1]) > r)
    else:
        legal = state.legal_actions()
        action = legal[rng.below(len(legal))]
    state.apply_action(action)


def kind_of_point(state) -> str | None:
    """Which middle-of-a-unit point this is, from its §15.4 text (None: a unit start, or none of them)."""
    obj = json.loads(state.serialize())
    turn, seen = obj["turn"], obj["seen"][len(obj["history"]) - len(obj["turn"]) :]
    if not turn or state.is_terminal():
        return None
    hidden_draw = any(m and a < CARD for a, m in zip(turn, seen, strict=True))
    if obj["state"] is None:
        return "setup" if hidden_draw else None
    if any(PLAY <= a < FILL for a in turn):
        return "visitor"
    return "draw" if hidden_draw else None


def points(engine, seeds=range(3), per_kind=3):
    """States in the middle of units, a few of each kind, from seeded random games."""
    found: dict[str, list] = {"setup": [], "visitor": [], "draw": []}
    for seed in seeds:
        game = engine.make("viticulture", **PARAMS)
        state, rng = game.new_initial_state(), engine.Rng(seed)
        while not state.is_terminal() and any(len(v) < per_kind * (seed + 1) for v in found.values()):
            kind = kind_of_point(state)
            if kind and len(found[kind]) < per_kind * (seed + 1):
                found[kind].append(state.clone())
            step(state, rng)
    return game, found


def test_resample_in_the_middle_of_a_unit(engine) -> None:
    game, found = points(engine)
    assert all(found.values()), {k: len(v) for k, v in found.items()}
    rewritten = 0
    for kind, states in found.items():
        for i, state in enumerate(states):
            obj = json.loads(state.serialize())
            for seat in range(game.num_players()):
                what = f"{engine.name} {kind} #{i} seat {seat}"
                other = state.resample_from_infostate(seat, engine.Rng(1000 + 10 * i + seat))
                assert other.current_player() == state.current_player(), what
                assert other.observation_tensor(seat).tolist() == state.observation_tensor(seat).tolist(), (
                    what
                )
                assert other.observation_string(seat) == state.observation_string(seat), what
                assert other.information_state_string(seat) == state.information_state_string(seat), what
                text = other.serialize()
                back = game.deserialize_state(text)
                assert back.serialize() == text, what
                assert back.history() == other.history(), what
                assert back.observation_tensor(seat).tolist() == other.observation_tensor(seat).tolist(), what
                assert back.information_state_string(seat) == other.information_state_string(seat), what
                true, drawn = state.history(), other.history()
                assert len(true) == len(drawn), what
                for a, b, mask in zip(true, drawn, obj["seen"], strict=True):
                    if a != b:
                        assert mask and not mask >> seat & 1 and a < CARD and b < CARD, what
                        rewritten += 1
                # the original is untouched
                assert state.serialize() == json.dumps(obj, sort_keys=True, separators=(",", ":")), what
    assert rewritten, "no resample rewrote a hidden draw: the cases test nothing"


def test_resample_in_lockstep() -> None:
    """The Rust core and the oracle, driven by the same ids, redeal alike from the same seed (§10)."""
    rust = meeplex.make("viticulture", **PARAMS)
    ref = meeplex.oracle.make("viticulture", **PARAMS)
    compared = 0
    for seed in range(2):
        a, b, rng = rust.new_initial_state(), ref.new_initial_state(), meeplex.Rng(seed)
        n = 0
        while not a.is_terminal() and n < 240:
            if n % 3 == 0 or kind_of_point(a):
                for seat in range(rust.num_players()):
                    x = a.resample_from_infostate(seat, meeplex.Rng(seed * 1000 + n))
                    y = b.resample_from_infostate(seat, meeplex.oracle.Rng(seed * 1000 + n))
                    assert x.serialize() == y.serialize(), f"seed {seed} after {n} ids, seat {seat}"
                    compared += 1
            before = len(a.history())
            step(a, rng)
            b.apply_action(a.history()[before])
            n += 1
    assert compared > 100


# A six-seat game (seed 100 of the whole-game conformance, max_years 2) stopped in winter at a reservation:
# seat 4 is asked to play the winter visitor it planned, in the reservations' unit.
RESERVATION_GAME = "viticulture(players=6,max_years=2,parents_dealt=1,target_vp=40)"
RESERVATION_HISTORY = [
    int(x)
    for x in (
        "159 121 152 129 147 131 149 136 145 138 146 126 139 0 31 8 26 10 28 15 24 17 25 5 18 2 56 28 62 63 "
        "31 2 32 16 25 108 118 58 35 6 8 12 37 36 36 36 37 36 44 41 39 5 42 118 49 40 43 38 52 47 7 112 61 "
        "255 114 13 100 56 422 66 413 62 253 113 419 55 419 67 413 105 60 259 112 422 421 418 417 420 109 57 "
        "418 71 373 66 411 45 7 109 105 46 6 118 80 118 73 118 46 118 57 118 74 120 84 75 19 77 29 112 87 41 "
        "44 42 120 111 39 0 43 40 30 60 270 92 60 243 114 56 420 53 66 412 47 3 112 109 45 0 67 411 62 254 "
        "113 417 55 417 72 373 51 57 421 109 109 106 107 409 120 97 118 82 118 75 120 88 120 96 120 117 "
    ).split()
]


def test_resample_at_a_reservation_stays_at_that_reservation() -> None:
    """§10: a redeal in the reservations' unit where the asked seat's new hand cannot pay for its
    planned visit makes the unit start resolve by itself into that seat's next turn. Such a try is refused
    (the snapshot is not a unit start, §15.4), so the answer stays at the same node with the same view for
    p. Before, the oracle checked the start against its own moved-on table and the Rust reader did not
    check it, so both could answer with seat 4's regular turn (found by `make test`'s dev profile)."""
    answers = []
    for engine in (meeplex, meeplex.oracle):
        game = engine.make(RESERVATION_GAME)
        state = game.new_initial_state()
        for action in RESERVATION_HISTORY:
            state.apply_action(action)
        assert state.action_to_string(state.legal_actions()[0]).startswith("play ")
        for seed in (100, 101):
            twin = state.resample_from_infostate(0, engine.Rng(seed))
            assert twin.observation_string(0) == state.observation_string(0)
            assert twin.information_state_string(0) == state.information_state_string(0)
            assert all(twin.action_to_string(a).startswith("play ") for a in twin.legal_actions())
            answers.append(twin.serialize())
    assert answers[:2] == answers[2:]
