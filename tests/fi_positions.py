"""Forbidden Island positions for the scenario tests (tests/test_blind_forbidden_island.py and
tests/test_forbidden_island_rules.py), in the blind file's reference layout.

The blind file (tests/blind/forbidden_island.md) writes squares as (column, row), row 1 at the top, on the
rulebook's island of rows 2, 4, 6, 6, 4, 2; the contract (docs/rules/forbidden_island.md §2) names position q
by its cell's column letter and row digit, so the blind square (4, 4) is the position ``d4``. ``REFERENCE``
is the blind file's reference layout by position name; a position is built with those tiles through the
``tiles`` field of the serialized state (§10) and read back with ``deserialize_state``, so every position a
test starts from has passed the deserializer's checks. Action ids are the contract's table (§8).
"""

from __future__ import annotations

import json
from collections import Counter
from importlib.resources import files

from meeplex.errors import IllegalActionError

GAME = "forbidden_island"
CHANCE = -1
TERMINAL = -4
_DATA = json.loads((files("meeplex") / "data" / "forbidden_island.json").read_text())
TILE_KEYS = [tile["key"] for tile in _DATA["tiles"]]
KINDS = ["earth", "wind", "fire", "ocean", "heli", "sandbags", "waters_rise"]
COUNTS = [card["count"] for card in _DATA["cards"]]
ROLES = ["diver", "engineer", "explorer", "messenger", "navigator", "pilot"]
# §2: position q is the q-th cell of the standard layout; its name is column letter + row digit.
NAMES = [chr(ord("a") + x - 1) + str(y) for x, y in _DATA["layouts"]["standard"]]

# The blind file's reference layout ("Reference layout" table: row 1 at the top, column 1 at the left).
REFERENCE = {
    "c1": "fools_landing",
    "d1": "bronze_gate",
    "b2": "temple_moon",
    "c2": "temple_sun",
    "d2": "copper_gate",
    "e2": "whispering_garden",
    "a3": "howling_garden",
    "b3": "gold_gate",
    "c3": "iron_gate",
    "d3": "silver_gate",
    "e3": "cave_embers",
    "f3": "cave_shadows",
    "a4": "coral_palace",
    "b4": "tidal_palace",
    "c4": "breakers_bridge",
    "d4": "cliffs_abandon",
    "e4": "crimson_forest",
    "f4": "dunes_deception",
    "b5": "lost_lagoon",
    "c5": "misty_marsh",
    "d5": "observatory",
    "e5": "phantom_rock",
    "c6": "twilight_hollow",
    "d6": "watchtower",
}
TILES = [TILE_KEYS.index(REFERENCE[name]) for name in NAMES]  # the serialized ``tiles`` field
ALL = frozenset(NAMES)


START_LEVEL = {"novice": 1, "normal": 2, "elite": 3, "legendary": 4}  # §1


def tile(name: str) -> int:
    """The tile id on the position ``name`` of the reference layout."""
    return TILES[NAMES.index(name)]


# --- §8 action ids ---------------------------------------------------------------------------------------


def pos(name: str) -> int:
    return NAMES.index(name)


def MOVE(name: str) -> int:
    return pos(name)


def SHORE(name: str) -> int:
    return 24 + pos(name)


def GIVE(seat: int, kind: str) -> int:
    return 48 + 4 * seat + KINDS.index(kind)


CAPTURE = 64


def NAVIGATE(seat: int, name: str) -> int:
    return 65 + 24 * seat + pos(name)


def SANDBAG(name: str) -> int:
    return 161 + pos(name)


def HELI(seats: tuple[int, ...] | list[int], name: str) -> int:
    mask = sum(1 << s for s in seats)
    return 185 + 24 * (mask - 1) + pos(name)


LIFTOFF = 545


def DISCARD(kind: str) -> int:
    return 546 + KINDS.index(kind)


def SWIM(name: str) -> int:
    return 552 + pos(name)


PASS = 576


# --- positions ------------------------------------------------------------------------------------------


def hand(*cards: str) -> list[int]:
    """A hand as the six counts of §10: ``hand("earth", "earth", "heli")``."""
    counts = Counter(cards)
    assert set(counts) <= set(KINDS[:6]), cards
    return [counts[k] for k in KINDS[:6]]


def position(
    make,
    roles: list[str],
    pawns: list[str],
    *,
    hands: list[list[str]] | None = None,
    flooded: tuple[str, ...] | list[str] = (),
    sunk: tuple[str, ...] | list[str] = (),
    difficulty: str = "novice",
    phase: str = "actions",
    stage: str | None = None,
    turn: int = 0,
    actions_left: int | None = None,
    pilot_flown: bool = False,
    treasure_left: int = 0,
    flood_left: int = 0,
    level: int | None = None,
    captured: tuple[str, ...] = (),
    window: str = "none",
    pending: tuple[int, ...] | list[int] = (),
    treasure_discard: tuple[str, ...] | list[str] = (),
    flood_top: tuple[str, ...] | list[str] = (),
    flood_layers: list[list[str]] | None = None,
    flood_discard: tuple[str, ...] | list[str] = (),
    outcome: str = "none",
):
    """The reference layout with the given facts, positions by name. Unless given: ``stage`` is ``phase``
    (``actions`` for ``window`` and ``engineer``); ``actions_left`` is 3 in the actions stage, else 0; the
    level is the difficulty's; every treasure card that is neither held nor in ``treasure_discard`` is in the
    treasure pile. The flood pile, top first: a layer of one card for each of ``flood_top`` (so they come
    out in that order), then the layers ``flood_layers``, then one layer of every other card of a tile that
    has not sunk and is not in ``flood_discard``."""
    game = make(GAME, players=len(roles), difficulty=difficulty)
    n = len(roles)
    held = [hand(*h) for h in hands] if hands is not None else [hand() for _ in range(n)]
    status = ["dry"] * 24
    for name in flooded:
        status[pos(name)] = "flooded"
    for name in sunk:
        status[pos(name)] = "sunk"
    discard = Counter(treasure_discard)
    discard_counts = [discard[k] for k in KINDS]
    pile_counts = [COUNTS[k] - discard_counts[k] - sum(h[k] for h in held if k < 6) for k in range(7)]
    assert min(pile_counts) >= 0, pile_counts
    layers = [[tile(name)] for name in flood_top] + [
        sorted(tile(x) for x in layer) for layer in flood_layers or []
    ]
    placed = {x for layer in layers for x in layer} | {tile(name) for name in flood_discard}
    rest = sorted(tile(q) for q in NAMES if status[pos(q)] != "sunk" and tile(q) not in placed)
    if rest:
        layers.append(rest)
    if stage is None:
        stage = "actions" if phase in ("actions", "engineer", "window") else phase
    obj = {
        "actions_left": (3 if stage == "actions" else 0) if actions_left is None else actions_left,
        "captured": [k in captured for k in KINDS[:4]],
        "flood_discard": sorted(tile(name) for name in flood_discard),
        "flood_left": flood_left,
        "flood_pile": layers,
        "game": GAME,
        "history": [],
        "level": START_LEVEL[game.params["difficulty"]] if level is None else level,
        "outcome": outcome,
        "params": game.params,
        "pending": list(pending),
        "phase": phase,
        "pilot_flown": pilot_flown,
        "seats": [{"hand": held[s], "pawn": pos(pawns[s]), "role": ROLES.index(roles[s])} for s in range(n)],
        "stage": stage,
        "status": status,
        "tiles": TILES,
        "treasure_discard": discard_counts,
        "treasure_left": treasure_left,
        "treasure_pile": pile_counts,
        "turn": turn,
        "version": 1,
        "window": window,
    }
    return game.deserialize_state(json.dumps(obj, sort_keys=True, separators=(",", ":")))


# --- reading and driving a state ------------------------------------------------------------------------


def view(state) -> dict:
    return json.loads(state.serialize())


def legal_texts(state) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def targets(state, verb: str) -> set[str]:
    """The positions of the legal actions of one verb (``move``, ``shore``, ``swim``, ``sandbag``)."""
    return {t.split(" ")[-1] for t in legal_texts(state) if t.split(" ")[0] == verb}


def act(state, *texts: str) -> None:
    """Apply actions in notation (§8), each of which must be legal now. A flood outcome may name the
    position (``flood d4``): it is read as the card of the tile there."""
    for text in texts:
        words = text.split(" ")
        if words[0] == "flood" and words[1] in ALL:
            text = "flood " + REFERENCE[words[1]]
        action = state.string_to_action(text)
        assert action in state.legal_actions(), (
            text,
            legal_texts(state) if not state.is_chance_node() else [],
        )
        state.apply_action(action)


def refused(state, action: int | str) -> None:
    """The action is not legal, and applying it raises IllegalActionError and changes nothing."""
    if isinstance(action, str):
        action = state.string_to_action(action)
    before = state.serialize()
    assert action not in state.legal_actions()
    try:
        state.apply_action(action)
    except IllegalActionError:
        pass
    else:
        raise AssertionError(f"action {action} was applied")
    assert state.serialize() == before


def settle(state) -> list[tuple[str, int]]:
    """Pass every window that is open now (nobody plays a card); returns the (window, seat) asked."""
    asked = []
    while view(state)["phase"] == "window":
        asked.append((view(state)["window"], state.current_player()))
        state.apply_action(PASS)
    return asked


def weights(state) -> list[tuple[int, int]]:
    return sorted((int(a), int(w)) for a, w in state.chance_weights())


def flood_weights(*names: str) -> list[tuple[int, int]]:
    """The chance weights of a flood draw whose top layer is the cards of these positions' tiles."""
    return sorted((tile(name), 1) for name in names)


def treasure_weights(counts: list[int]) -> list[tuple[int, int]]:
    return [(k, c) for k, c in enumerate(counts) if c > 0]


def status_of(state, *names: str) -> list[str]:
    status = view(state)["status"]
    return [status[pos(name)] for name in names]


def pawns(state) -> list[str]:
    return [NAMES[seat["pawn"]] for seat in view(state)["seats"]]


def hands(state) -> list[list[int]]:
    return [seat["hand"] for seat in view(state)["seats"]]


def layer_names(layer: list[int]) -> set[str]:
    return {q for q in NAMES if tile(q) in layer}


def end_turn(state, cards: tuple[str, ...] = ("earth", "wind"), floods: tuple[str, ...] = ()) -> None:
    """The rest of a turn with nobody playing a card: ``pass`` if the actions are not over, the treasure
    draws ``cards`` and the flood draws ``floods`` (positions), passing every window on the way. A hand over
    the limit stops it (the caller resolves it)."""
    settle(state)
    if view(state)["phase"] == "actions":
        act(state, "pass")
    settle(state)
    for card in cards:
        act(state, f"card {card}")
        settle(state)
    for name in floods:
        act(state, f"flood {name}")
        settle(state)
