"""Flip Pick Towers: the rulebook's FAQ answers and examples (docs/rules/flip_pick_towers.md §12).

Each test writes a position in the serialization format (§10) on the placeholder sheet (10 rows; columns a, c,
e, g are tower columns and b, d, f garden columns), applies the example's actions and checks what the rulebook
says. Docstrings quote the rulebook passage each test checks. Both engines run every scenario (the ``make``
fixture). At the end: both engines in lockstep from positions edited to be near the end of a round (random
games rarely reach round 2), the hidden picks' no-leak test on both engines, and the deserializer's
interpretations 31 and 32.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import assume, event, given, note, settings
from hypothesis import strategies as st

import meeplex
import meeplex.oracle
from meeplex.testing import effort
from meeplex.testing.differential import Lockstep
from meeplex.testing.strategies import action_choices, pick

GAME = "flip_pick_towers"
WIDTH, ROWS = 7, 10

# §8 action ids on the placeholder sheet (N = 70 cells, S = 16 stall columns).
PICK1, PICK2, PICK3 = 0, 1, 2
NO_MAGIC = 3
MAGIC = {"Derwen": 4, "Bwca": 5, "Ji-Ji": 6, "Sosban": 7, "Mab": 8}
STABILITY_MINUS, STABILITY_PLUS = 9, 10
RESOURCES = ("fabric", "beans", "gold", "glass", "wild")
STALL_SIZES = {"fabric": [2, 2, 3, 3], "beans": [2, 3, 3, 4], "gold": [2, 2, 3, 3], "glass": [2, 2, 3, 3]}


def cell_id(name: str) -> int:
    return (int(name[1:]) - 1) * WIDTH + "abcdefg".index(name[0])


def at(name: str) -> int:
    """The cell action for ``a1`` .. ``g10``."""
    return 11 + cell_id(name)


def cells(*names: str) -> list[int]:
    return sorted(at(n) for n in names)


def box(resource: str, number: int) -> int:
    """The box action ``<resource> <number>``: stall columns fabric's, beans', gold's, glass's."""
    offset = 0
    for res in RESOURCES[:4]:
        if res == resource:
            return 11 + WIDTH * ROWS + offset + number - 1
        offset += len(STALL_SIZES[res])
    raise ValueError(resource)


def boxes(resource: str) -> list[int]:
    return [box(resource, k + 1) for k in range(len(STALL_SIZES[resource]))]


ALL_BOXES = [b for res in RESOURCES[:4] for b in boxes(res)]

# §2.1 card kinds = 5 x feature + resource.
FEATURES = [f"floor {v}" for v in range(1, 10)] + [
    "bridge", "roof", "Queen", "King", "Princess", "dragon", "Derwen", "Bwca", "Ji-Ji", "Sosban", "Mab",
]  # fmt: skip


def kind(feature: str, resource: str = "fabric") -> int:
    if feature in ("Derwen", "Bwca", "Ji-Ji", "Sosban", "Mab"):
        resource = "wild"
    return 5 * FEATURES.index(feature) + RESOURCES.index(resource)


# The three creature cards: picking one changes no cell, and with full stalls its wild resource is lost, so a
# turn with this display leaves the grids as they were.
QUIET = [kind("Derwen"), kind("Bwca"), kind("Ji-Ji")]


def card_index(name: str) -> int:
    text = meeplex.oracle.flip_pick_towers.placeholder_text()
    return [card["name"] for card in json.loads(text)["scoring_cards"]].index(name)


@pytest.fixture(params=["rust", "oracle"])
def make(request):
    """``make`` of each engine; the Rust core is skipped until it registers the game."""
    if request.param == "rust":
        if GAME not in meeplex.games():
            pytest.skip("the Rust core does not register flip_pick_towers yet")
        return meeplex.make
    return meeplex.oracle.make


# --- positions ---------------------------------------------------------------------------------------------


def grid(layout: dict[str, str] | None = None) -> list[list[str]]:
    rows = [["."] * WIDTH for _ in range(ROWS)]
    for name, token in (layout or {}).items():
        rows[int(name[1:]) - 1]["abcdefg".index(name[0])] = token
    return rows


def full_stalls() -> list[list[int]]:
    return [list(STALL_SIZES[res]) for res in RESOURCES[:4]]


def seat(layout=None, stalls=None, creatures=None, crest=0, round_scores=(0, 0)) -> dict:
    return {
        "creatures": [list(pair) for pair in (creatures or [[0, 0]] * 5)],
        "crest": crest,
        "flagged": False,
        "grid": grid(layout),
        "pick": -1,
        "roof": -1,
        "round_scores": list(round_scores),
        "stalls": [list(s) for s in (stalls or [[0] * len(STALL_SIZES[r]) for r in RESOURCES[:4]])],
    }


def load(make, display, seats=None, players=1, params=None, royal_cards=(0, 1, 2), round=1, turn=0, **fields):
    """A position just after ``display`` is flipped (its last card through the chance node): the turn's
    dragon step or Pick."""
    params = dict(params or {})
    game = make(GAME, players=players, **params)
    state = game.new_initial_state()
    for card in (0, 1, 2):
        state.apply_action(card)  # deal the first three scoring cards (replaced below)
    obj = json.loads(state.serialize())
    deck = obj["deck"]
    for k in display:
        deck[k] -= 1
    # Cards already discarded this round: taken from the deck in kind order.
    gone = 3 * turn
    for k in range(len(deck)):
        take = min(gone, deck[k])
        deck[k] -= take
        gone -= take
    deck[display[2]] += 1  # the third card is flipped below, through the chance node
    obj.update(
        display=list(display[:2]),
        deck=deck,
        royal_cards=list(royal_cards),
        round=round,
        turn=turn,
        step="flip",
        seats=seats or [seat() for _ in range(players)],
    )
    obj.update(fields)
    state = game.deserialize_state(json.dumps(obj))
    state.apply_action(display[2])
    return game, state


def view(state) -> dict:
    return json.loads(state.serialize())


def token(state, name: str, player: int = 0) -> str:
    r, c = int(name[1:]) - 1, "abcdefg".index(name[0])
    return view(state)["seats"][player]["grid"][r][c]


def play_out(state) -> None:
    """To the end: the first legal action (or chance outcome) each time."""
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])


def final_turn(make, seats, players=None, **kwargs):
    """The last turn of round 2 (deck empty, QUIET display, full stalls): after every seat picks slot 1 the
    game ends and scores the grids exactly as given."""
    players = players or len(seats)
    for s in seats:
        s["stalls"] = full_stalls()
    game, state = load(make, QUIET, seats=seats, players=players, round=2, turn=20, **kwargs)
    for _ in range(players):
        state.apply_action(PICK1)
    assert state.is_terminal()
    return state


# --- FAQ ----------------------------------------------------------------------------------------------------


def test_faq1_duplicate_royals_all_score(make):
    """FAQ 1: "Can I have more than one king, queen, and/or princess in my towers? Yes!" Both queens score by
    the queen's card (placeholder "High Society": 1 point per row of height)."""
    layout = {"a1": "F9q", "a2": "F8q"}
    state = final_turn(make, [seat(layout)], royal_cards=(card_index("High Society"), 1, 2))
    # Highest floor a2 (row 2): 2 points; queens at heights 1 and 2: 3 points.
    assert state.scores() == [5.0]
    # A second queen may be added when one is already in the castle.
    game, state = load(
        make, [kind("Queen"), kind("King"), kind("Princess")], seats=[seat({"a1": "F9q", "a2": "F8-"})]
    )
    state.apply_action(PICK1)
    assert state.legal_actions() == cells("a2")


def test_faq2_must_add_the_feature_when_able(make):
    """FAQ 2: "Can I choose to scribble in my family crest instead of adding a feature from a card? No. You
    must add a feature if you are able." Only cells are offered; with no cell, the crest is scribbled."""
    display = [kind("floor 5", "fabric"), kind("floor 5", "beans"), kind("floor 5", "gold")]
    game, state = load(make, display)
    state.apply_action(PICK1)
    assert state.legal_actions() == cells("a1", "c1", "e1", "g1")  # the foundations only
    state.apply_action(at("a1"))
    assert token(state, "a1") == "F5-"
    assert state.legal_actions() == boxes("fabric")
    # Every foundation holds a stability 3 floor: a stability 5 floor fits nowhere.
    blocked = {name: "F3-" for name in ("a1", "c1", "e1", "g1")}
    game, state = load(make, display, seats=[seat(blocked)])
    state.apply_action(PICK1)
    assert view(state)["seats"][0]["crest"] == 1
    assert state.legal_actions() == boxes("fabric")  # the resource is still gained


def test_faq3_market_boxes_in_any_order(make):
    """FAQ 3: "Do I have to fill out the boxes in the market stall in any particular order? No." And: "A
    creature's resource always counts as wild"."""
    game, state = load(make, [kind("floor 5", "glass"), kind("Derwen"), kind("roof")])
    state.apply_action(PICK1)
    state.apply_action(at("a1"))
    assert state.legal_actions() == boxes("glass")
    state.apply_action(box("glass", 4))
    assert view(state)["seats"][0]["stalls"][3] == [0, 0, 0, 1]
    game, state = load(make, [kind("Derwen"), kind("floor 5"), kind("roof")])
    state.apply_action(PICK1)
    assert view(state)["seats"][0]["creatures"][0] == [1, 0]
    assert state.legal_actions() == ALL_BOXES


def test_faq4_nothing_outside_the_grid(make):
    """FAQ 4: "Can I sketch outside of the grid if my tower is really high? No. Nothing can be added outside
    of the grid." A tower up to the top row takes no roof; a banner cannot hang below the bottom row."""
    tower = {f"a{r}": f"F{11 - r}-" for r in range(1, 11)}  # stabilities 10 .. 1 up to the top row
    game, state = load(make, [kind("roof"), kind("bridge"), kind("floor 1")], seats=[seat(tower)])
    state.apply_action(PICK1)
    assert view(state)["seats"][0]["crest"] == 1  # no cell for the roof
    # Completing a fabric column next to a floor in the bottom row: the banner is lost.
    stalls = [[1, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4]
    game, state = load(
        make, [kind("Queen", "fabric"), kind("roof"), kind("bridge")], seats=[seat({"a1": "F5-"}, stalls)]
    )
    state.apply_action(PICK1)
    state.apply_action(at("a1"))
    state.apply_action(box("fabric", 1))
    assert state.is_chance_node()  # nothing to place: the banner is lost and the turn is over
    assert "N" not in sum(view(state)["seats"][0]["grid"], [])
    # A banner beside a floor in the second row hangs down to the first.
    game, state = load(
        make,
        [kind("Queen", "fabric"), kind("roof"), kind("bridge")],
        seats=[seat({"a1": "F9-", "a2": "F8-"}, stalls)],
    )
    state.apply_action(PICK1)
    state.apply_action(at("a1"))
    state.apply_action(box("fabric", 1))
    assert state.legal_actions() == cells("b2")
    state.apply_action(at("b2"))
    assert (token(state, "b2"), token(state, "b1")) == ("N", "n")


@pytest.mark.parametrize(
    ("column", "filled", "height", "legal"), [(4, 3, 6, []), (3, 2, 4, ["b1", "d1", "f1"])]
)
def test_faq4_beanstalk_needs_room(make, column, filled, height, legal):
    """Beanstalks: "You must begin the beanstalk at the bottom ... Its height is dictated by the column you
    just filled". Bridges in row 5 of every garden column leave room for 4 cells, not 6 (FAQ 4)."""
    stalls = [[0] * 4, [0, 0, 0, 0], [0] * 4, [0] * 4]
    stalls[1][column - 1] = filled
    layout = {"b5": "B", "d5": "B", "f5": "B"}
    game, state = load(
        make, [kind("floor 9", "beans"), kind("roof"), kind("bridge")], seats=[seat(layout, stalls)]
    )
    state.apply_action(PICK1)
    state.apply_action(at("a1"))
    state.apply_action(box("beans", column))
    if not legal:
        assert state.is_chance_node()  # lost
        return
    assert state.legal_actions() == cells(*legal)
    state.apply_action(at("d1"))
    assert [token(state, f"d{r}") for r in range(1, 6)] == ["S"] * height + ["."] * (4 - height) + ["B"]


def test_faq5_no_roof_or_dragon_on_a_foundation(make):
    """FAQ 5: "Can I add a roof or dragon directly on top of a foundation? No." On an empty sheet the roof
    (and the revealed dragon, and the picked dragon) fit nowhere: each is a crest scribble."""
    game, state = load(make, [kind("roof"), kind("floor 9"), kind("bridge")])
    state.apply_action(PICK1)
    assert view(state)["seats"][0]["crest"] == 1
    game, state = load(make, [kind("dragon", "gold"), kind("floor 9"), kind("bridge")])
    assert view(state)["seats"][0]["crest"] == 1  # the revealed dragon: no floor, no bag of gold
    assert state.legal_actions() == [PICK1, PICK2, PICK3]
    state.apply_action(PICK1)  # the dragon card itself (interpretation 9)
    assert view(state)["seats"][0]["crest"] == 2


def test_faq6_no_roof_or_dragon_on_a_bridge(make):
    """FAQ 6: "Can I add a roof or dragon directly on top of a bridge? No." """
    layout = {"a1": "F9-", "b1": "B", "c1": "F9-"}
    game, state = load(make, [kind("roof"), kind("floor 9"), kind("bridge")], seats=[seat(layout)])
    state.apply_action(PICK1)
    assert state.legal_actions() == cells("a2", "c2")
    game, state = load(make, [kind("dragon", "beans"), kind("floor 9"), kind("bridge")], seats=[seat(layout)])
    assert state.legal_actions() == cells("a2", "c2")  # the revealed dragon


def test_faq7_roof_or_dragon_below_a_bridge(make):
    """FAQ 7: "Can I add a roof, or dragon below a bridge? Yes, as long as it is directly on top of an
    existing floor in an empty grid space." b3 lies between the floor b2 and the bridge b4."""
    layout = {"a1": "F9-", "a2": "F8-", "a3": "F7-", "a4": "F6-", "c1": "F9-", "c2": "F8-", "c3": "F7-"}
    layout.update({"c4": "F6-", "b1": "B", "b2": "F5-", "b4": "B"})
    game, state = load(make, [kind("roof"), kind("floor 9"), kind("bridge")], seats=[seat(layout)])
    state.apply_action(PICK1)
    assert state.legal_actions() == cells("a5", "b3", "c5")
    state.apply_action(at("b3"))
    assert token(state, "b3") == "R0"


def test_faq8_no_floor_on_a_roof_or_dragon(make):
    """FAQ 8: "Can I add a floor directly on top of a roof or a dragon?" (no answer in the text; Roofs: "You
    may not add a floor directly on top of a roof"; Dragons: "Floors cannot be added directly on top of
    dragons")."""
    layout = {"a1": "F9-", "a2": "R0", "c1": "F9-", "c2": "D", "e1": "F9-"}
    game, state = load(make, [kind("floor 1"), kind("floor 9"), kind("bridge")], seats=[seat(layout)])
    state.apply_action(PICK1)
    assert state.legal_actions() == cells("e2", "g1")


# --- Floors and bridges -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("stability", "legal"), [(5, ["a1", "c1", "g1"]), (4, ["a1", "c1", "e2", "g1"])])
def test_stability_falls_strictly_going_up(make, stability, legal):
    """Floors: "You cannot sketch a floor directly on top of a floor of lower or equal stability." """
    game, state = load(
        make, [kind(f"floor {stability}"), kind("roof"), kind("bridge")], seats=[seat({"e1": "F5-"})]
    )
    state.apply_action(PICK1)
    assert state.legal_actions() == cells(*legal)


def test_any_floor_on_a_bridge_and_gardens_only_through_bridges(make):
    """Floors: "You may add any floor directly on top of a foundation or a bridge, regardless of the new
    floor's stability." Bridges: "Bridges are the only way for you to add floors to garden columns"."""
    layout = {"a1": "F1-", "b1": "B", "c1": "F1-"}
    game, state = load(make, [kind("floor 9"), kind("roof"), kind("bridge")], seats=[seat(layout)])
    state.apply_action(PICK1)
    assert state.legal_actions() == cells("b2", "e1", "g1")  # never b1, d1, f1: grass


def test_bridges_only_between_two_floors(make):
    """Bridges: "add it to a single empty grid space between two existing floors to connect them"."""
    layout = {"a1": "F9-", "c1": "F9-", "e1": "F9-", "e2": "F8-"}
    game, state = load(make, [kind("bridge"), kind("roof"), kind("floor 9")], seats=[seat(layout)])
    state.apply_action(PICK1)
    assert state.legal_actions() == cells("b1", "d1")


# --- Resources and decorations ------------------------------------------------------------------------------


def test_completed_gold_column_gives_a_bag_of_gold(make):
    """Resources: "You just completed a gold column. Now you can add a bag of gold to an existing empty
    floor." The floor with a window is not empty."""
    stalls = [[0] * 4, [0] * 4, [1, 0, 0, 0], [0] * 4]
    layout = {"a1": "F9-", "c1": "F8w"}
    game, state = load(
        make, [kind("floor 5", "gold"), kind("roof"), kind("bridge")], seats=[seat(layout, stalls)]
    )
    state.apply_action(PICK1)
    state.apply_action(at("e1"))
    assert state.legal_actions() == boxes("gold")
    state.apply_action(box("gold", 1))
    assert state.legal_actions() == cells("a1", "e1")
    state.apply_action(at("a1"))
    assert token(state, "a1") == "F9g"


def test_resource_lost_when_the_stall_is_full(make):
    """Resources: "If there is no space to fill in a box in the market stall, the resource is lost." """
    stalls = [[0] * 4, [0] * 4, [2, 2, 3, 3], [0] * 4]
    game, state = load(
        make, [kind("floor 5", "gold"), kind("roof"), kind("bridge")], seats=[seat(None, stalls)]
    )
    state.apply_action(PICK1)
    state.apply_action(at("a1"))
    assert state.is_chance_node()  # the turn is over: nothing to fill


def test_decoration_lost_when_there_is_no_room(make):
    """Resources: "If there is no space to add a decoration to the castle sheet, it is lost and not
    added." """
    stalls = [[0] * 4, [0] * 4, [0] * 4, [1, 0, 0, 0]]
    layout = {"a1": "F9q"}
    game, state = load(
        make, [kind("roof", "glass"), kind("floor 9"), kind("bridge")], seats=[seat(layout, stalls)]
    )
    state.apply_action(PICK1)
    state.apply_action(at("a2"))
    state.apply_action(box("glass", 1))
    assert state.is_chance_node()  # no empty floor for the window
    assert view(state)["seats"][0]["stalls"][3] == [2, 0, 0, 0]


# --- Flags --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("taken", "flags"), [(0, 3), (1, 2), (2, 1), (3, 0)])
def test_flags_for_roofs_added_in_the_same_turn(make, taken, flags):
    """Flags: the first player to add a roof in a round adds 3 flags, the second 2, the third 1; "If multiple
    players add roofs on the same turn, each of those players add the same number of flags." """
    layouts = [seat({"a1": "F9-"}), seat({"a1": "F9-"}), seat({"a1": "F9-"})]
    display = [kind("roof", "fabric"), kind("roof", "beans"), kind("floor 9")]
    game, state = load(make, display, seats=layouts, players=3, flags_taken=taken)
    for slot in (PICK1, PICK2, PICK3):
        state.apply_action(slot)
    state.apply_action(at("a2"))
    state.apply_action(box("fabric", 3))
    state.apply_action(at("a2"))
    state.apply_action(box("beans", 3))
    state.apply_action(at("c1"))
    state.apply_action(box("fabric", 3))
    assert state.is_chance_node()
    assert [token(state, "a2", p) for p in (0, 1)] == [f"R{flags}", f"R{flags}"]
    assert view(state)["flags_taken"] == min(3, taken + 1)


def test_flags_go_to_players_not_turns(make):
    """Flags: "The first player to add a roof in each round proudly declares it to the group and adds 3 flags
    to it." "The second player to add a roof in each round adds 2 flags to it. The third player to add a roof
    in each round adds 1 flag to it." The bonuses are counted in players: a seat that has taken one this round
    takes no other, and the next bonus waits for a player who has not."""
    flagged = {**seat({"a1": "F9-", "a2": "R3", "c1": "F9-"}), "flagged": True}
    display = [kind("roof", "fabric"), kind("roof", "beans"), kind("floor 9")]
    # Seat 0, which took the first bonus, roofs again in the same turn as seat 1: seat 1 is the second player.
    game, state = load(make, display, seats=[flagged, seat({"a1": "F9-"})], players=2, flags_taken=1)
    state.apply_action(PICK1)
    state.apply_action(PICK2)
    state.apply_action(at("c2"))
    state.apply_action(box("fabric", 1))
    state.apply_action(at("a2"))
    state.apply_action(box("beans", 1))
    assert state.is_chance_node()
    assert (token(state, "a2", 0), token(state, "c2", 0), token(state, "a2", 1)) == ("R3", "R0", "R2")
    v = view(state)
    assert v["flags_taken"] == 2 and [s["flagged"] for s in v["seats"]] == [True, True]
    # Seat 0 roofs alone: no bonus is crossed out, and the second one is still there for seat 1.
    game, state = load(make, display, seats=[flagged, seat({"a1": "F9-"})], players=2, flags_taken=1)
    state.apply_action(PICK1)
    state.apply_action(PICK3)
    state.apply_action(at("c2"))
    state.apply_action(box("fabric", 1))
    state.apply_action(at("c1"))  # seat 1: the floor 9
    state.apply_action(box("fabric", 1))
    assert token(state, "c2", 0) == "R0"
    v = view(state)
    assert v["flags_taken"] == 1 and [s["flagged"] for s in v["seats"]] == [True, False]
    flip(state, [kind("roof", "gold"), kind("roof", "glass"), kind("floor 9", "beans")])
    state.apply_action(PICK3)  # seat 0: the floor 9
    state.apply_action(PICK1)  # seat 1: a roof
    state.apply_action(at("e1"))
    state.apply_action(box("beans", 1))
    state.apply_action(at("a2"))
    state.apply_action(box("gold", 1))
    assert token(state, "a2", 1) == "R2"
    assert view(state)["flags_taken"] == 2


def test_flagged_seat_needs_a_crossed_out_bonus(make):
    """§10: a seat marked as having taken a flag bonus this round is refused when no bonus is crossed out, or
    when it has no roof holding flags."""
    from meeplex.errors import InvalidStateError

    with pytest.raises(InvalidStateError):
        load(make, QUIET, seats=[{**seat({"a1": "F9-", "a2": "R3"}), "flagged": True}], flags_taken=0)
    with pytest.raises(InvalidStateError):
        load(make, QUIET, seats=[{**seat({"a1": "F9-", "a2": "R0"}), "flagged": True}], flags_taken=1)
    load(make, QUIET, seats=[{**seat({"a1": "F9-", "a2": "R3"}), "flagged": True}], flags_taken=1)


def test_flagged_is_in_the_observation(make):
    """§9.1: a seat's ``flagged`` (§5.7) is public, so it is in the tensor (the last value of the seat's
    block) and in the readable view: two positions differing only in it look different to every seat."""
    roofed = seat({"a1": "F9-", "a2": "R3"})
    views = []
    for flagged in (False, True):
        seats = [seat({"a1": "F9-"}), {**roofed, "flagged": flagged}]
        _, state = load(make, QUIET, seats=seats, players=2, flags_taken=1)
        assert [s["flagged"] for s in view(state)["seats"]] == [False, flagged]
        views.append(state)
    per_seat = 14 * 70 + 16 + 19
    for p in (0, 1):
        a, b = (s.observation_tensor(p) for s in views)
        at_seat1 = ((1 - p) % 2) * per_seat + per_seat - 1
        assert (a[at_seat1], b[at_seat1]) == (0.0, 1.0)
        assert [i for i in range(len(a)) if a[i] != b[i]] == [at_seat1]
        assert views[0].observation_string(p) != views[1].observation_string(p)
        assert "flag bonus taken" in views[1].observation_string(p)
        assert "flag bonus taken" not in views[0].observation_string(p)


def test_mab_two_roofs_only_one_gets_flags(make):
    """Flags: "If you use Mab the fairy to add two roofs in a single turn, only one of those would potentially
    get flags." """
    mab = [[0, 0]] * 4 + [[1, 0]]
    game, state = load(
        make,
        [kind("roof"), kind("floor 9"), kind("bridge")],
        seats=[seat({"a1": "F9-", "c1": "F9-"}, creatures=mab)],
    )
    state.apply_action(PICK1)
    assert state.legal_actions() == [NO_MAGIC, MAGIC["Mab"]]
    state.apply_action(MAGIC["Mab"])
    state.apply_action(at("a2"))
    state.apply_action(box("fabric", 1))
    assert state.legal_actions() == cells("c2")  # the same card again
    state.apply_action(at("c2"))
    state.apply_action(box("fabric", 2))
    assert state.is_chance_node()
    assert (token(state, "a2"), token(state, "c2")) == ("R3", "R0")
    assert view(state)["seats"][0]["creatures"][4] == [0, 1]


# --- Dragons ------------------------------------------------------------------------------------------------


def test_dragon_or_bag_of_gold(make):
    """Dragons: "before the PICK step, you must either: A. Add a dragon directly on top of a floor. OR B.
    Reluctantly cross out one of your existing bags of gold." A crossed-out floor takes nothing more."""
    layout = {"a1": "F9g", "c1": "F9-"}
    display = [kind("dragon", "gold"), kind("Queen"), kind("floor 9")]
    game, state = load(make, display, seats=[seat(layout)])
    assert state.current_player() == 0
    assert state.legal_actions() == cells("a1", "a2", "c2")
    state.apply_action(at("a1"))
    assert token(state, "a1") == "F9x"
    assert state.legal_actions() == [PICK1, PICK2, PICK3]
    state.apply_action(PICK2)  # the Queen
    assert state.legal_actions() == cells("c1")
    game, state = load(make, display, seats=[seat(layout)])
    state.apply_action(at("c2"))
    assert token(state, "c2") == "D"


@pytest.mark.parametrize("per_card", [False, True])
def test_two_dragons_in_one_display(make, per_card):
    """Dragons: "Whenever one or more of these dastardly dragons is revealed": once per display
    (interpretation 8), or once per dragon with ``dragon_per_card``."""
    display = [kind("dragon", "gold"), kind("dragon", "beans"), kind("floor 9")]
    game, state = load(
        make, display, seats=[seat({"a1": "F9-", "c1": "F9-"})], params={"dragon_per_card": per_card}
    )
    state.apply_action(at("a2"))
    if per_card:
        assert state.legal_actions() == cells("c2")
        state.apply_action(at("c2"))
    assert state.legal_actions() == [PICK1, PICK2, PICK3]


def test_competitive_left_neighbour_decides_the_dragon(make):
    """Competitive Variant: "When a dragon is revealed, the player to your left decides whether or not you add
    the dragon or cross off a bag of gold ... they also choose where." """
    seats = [seat({"a1": "F9g"}), seat({"c1": "F9-"}), seat({"e1": "F9g"})]
    display = [kind("dragon", "gold"), kind("floor 9"), kind("roof")]
    game, state = load(make, display, seats=seats, players=3, params={"competitive": True})
    assert state.current_player() == 1  # seat 1 decides for seat 0
    assert state.legal_actions() == cells("a1", "a2")
    state.apply_action(at("a2"))
    assert state.current_player() == 2  # seat 2 for seat 1
    assert state.legal_actions() == cells("c2")
    state.apply_action(at("c2"))
    assert state.current_player() == 0  # seat 0 for seat 2
    state.apply_action(at("e1"))
    assert [token(state, "a2", 0), token(state, "c2", 1), token(state, "e1", 2)] == ["D", "D", "F9x"]
    assert state.current_player() == 0 and state.legal_actions() == [PICK1, PICK2, PICK3]


# --- Creatures ----------------------------------------------------------------------------------------------


def gained(name: str) -> list[list[int]]:
    creatures = [[0, 0] for _ in range(5)]
    creatures[list(MAGIC).index(name)] = [1, 0]
    return creatures


def test_picking_a_creature_and_its_spaces(make):
    """Picking a creature: "add a single diagonal line through one of their X spaces". With every X space
    marked the feature cannot be added: a crest scribble."""
    game, state = load(make, [kind("Mab"), kind("roof"), kind("bridge")])
    state.apply_action(PICK1)
    assert view(state)["seats"][0]["creatures"][4] == [1, 0]
    full = [[0, 0]] * 4 + [[0, 2]]
    game, state = load(make, [kind("Mab"), kind("roof"), kind("bridge")], seats=[seat(creatures=full)])
    state.apply_action(PICK1)
    assert view(state)["seats"][0]["creatures"][4] == [0, 2]
    assert view(state)["seats"][0]["crest"] == 1


def test_derwen_also_adds_a_stability_1_floor(make):
    """Derwen (the Elf): "Also add a stability 1 floor." """
    game, state = load(
        make, [kind("floor 5"), kind("roof"), kind("bridge")], seats=[seat(creatures=gained("Derwen"))]
    )
    state.apply_action(PICK1)
    assert state.legal_actions() == [NO_MAGIC, MAGIC["Derwen"]]
    state.apply_action(MAGIC["Derwen"])
    state.apply_action(at("a1"))
    assert state.legal_actions() == cells("a2", "c1", "e1", "g1")
    state.apply_action(at("a2"))
    assert (token(state, "a1"), token(state, "a2")) == ("F5-", "F1-")
    assert state.legal_actions() == boxes("fabric")
    assert view(state)["seats"][0]["creatures"][0] == [0, 1]  # used: not offered again


def test_bwca_changes_stability_by_one(make):
    """Bwca (the Imp): "Apply +/- 1 to a floor's stability before adding it." A stability 5 floor made 4 fits
    on a stability 5 floor. Bwca is not offered for a roof."""
    layout = {"e1": "F5-"}
    game, state = load(
        make, [kind("floor 5"), kind("roof"), kind("bridge")], seats=[seat(layout, creatures=gained("Bwca"))]
    )
    state.apply_action(PICK1)
    state.apply_action(MAGIC["Bwca"])
    assert state.legal_actions() == [STABILITY_MINUS, STABILITY_PLUS]
    state.apply_action(STABILITY_MINUS)
    assert at("e2") in state.legal_actions()
    state.apply_action(at("e2"))
    assert token(state, "e2") == "F4-"
    game, state = load(
        make, [kind("roof"), kind("floor 5"), kind("bridge")], seats=[seat(layout, creatures=gained("Bwca"))]
    )
    state.apply_action(PICK1)
    assert state.legal_actions() == cells("e2")  # no magic choice at all


def test_bwca_may_not_make_a_placeable_floor_unplaceable(make):
    """FAQ 2: "Can I choose to scribble in my family crest instead of adding a feature from a card? No. You
    must add a feature if you are able." Bwca's "Apply +/- 1 to a floor's stability before adding it" may not
    be used to make a floor that fits somewhere fit nowhere: with every support a stability 5 floor, a floor 4
    made 5 would fit nowhere, so only -1 is offered. When neither sign fits, both are (the seat scribbles)."""
    layout = {"a1": "F5-", "c1": "F5-", "e1": "F5-", "g1": "F5-"}
    display = [kind("floor 4"), kind("roof"), kind("bridge")]
    game, state = load(make, display, seats=[seat(layout, creatures=gained("Bwca"))])
    state.apply_action(PICK1)
    state.apply_action(MAGIC["Bwca"])
    assert state.legal_actions() == [STABILITY_MINUS]
    state.apply_action(STABILITY_MINUS)
    assert state.legal_actions() == cells("a2", "c2", "e2", "g2")
    # Every tower capped by a roof: no floor fits whatever the sign, and either sign may be chosen.
    layout = {f"{c}1": "F5-" for c in "aceg"} | {f"{c}2": "R0" for c in "aceg"}
    game, state = load(make, display, seats=[seat(layout, creatures=gained("Bwca"))])
    state.apply_action(PICK1)
    state.apply_action(MAGIC["Bwca"])
    assert state.legal_actions() == [STABILITY_MINUS, STABILITY_PLUS]
    state.apply_action(STABILITY_PLUS)
    assert view(state)["seats"][0]["crest"] == 1  # "you must scribble in one of the three sections"


def test_jiji_gains_the_other_resources(make):
    """Ji-Ji (the Centaur): "Also gain the other resources in the display." (a creature's is wild)"""
    display = [kind("floor 5", "fabric"), kind("floor 6", "gold"), kind("Derwen")]
    game, state = load(make, display, seats=[seat(creatures=gained("Ji-Ji"))])
    state.apply_action(PICK1)
    state.apply_action(MAGIC["Ji-Ji"])
    state.apply_action(at("a1"))
    assert state.legal_actions() == boxes("fabric")
    state.apply_action(box("fabric", 3))
    assert state.legal_actions() == boxes("gold")
    state.apply_action(box("gold", 3))
    assert state.legal_actions() == ALL_BOXES
    state.apply_action(box("glass", 3))
    assert state.is_chance_node()


def test_sosban_ignores_stability(make):
    """Sosban (the Witch): "Add floor picked directly on top of any available floor. Ignore stability
    rules." """
    layout = {"e1": "F3-"}
    game, state = load(
        make,
        [kind("floor 5"), kind("roof"), kind("bridge")],
        seats=[seat(layout, creatures=gained("Sosban"))],
    )
    state.apply_action(PICK1)
    state.apply_action(NO_MAGIC)
    assert state.legal_actions() == cells("a1", "c1", "g1")
    game, state = load(
        make,
        [kind("floor 5"), kind("roof"), kind("bridge")],
        seats=[seat(layout, creatures=gained("Sosban"))],
    )
    state.apply_action(PICK1)
    state.apply_action(MAGIC["Sosban"])
    assert state.legal_actions() == cells("a1", "c1", "e2", "g1")
    state.apply_action(at("e2"))
    assert token(state, "e2") == "F5-"


def test_mab_picks_the_same_card_again(make):
    """Mab (the Fairy): "Immediately pick the same castle card again." The feature and the resource twice."""
    game, state = load(
        make, [kind("floor 5", "beans"), kind("roof"), kind("bridge")], seats=[seat(creatures=gained("Mab"))]
    )
    state.apply_action(PICK1)
    state.apply_action(MAGIC["Mab"])
    state.apply_action(at("a1"))
    state.apply_action(box("beans", 4))
    assert state.legal_actions() == cells("c1", "e1", "g1")
    state.apply_action(at("g1"))
    state.apply_action(box("beans", 4))
    assert view(state)["seats"][0]["stalls"][1] == [0, 0, 0, 2]
    assert (token(state, "a1"), token(state, "g1")) == ("F5-", "F5-")


# --- Family crest, rounds, scoring --------------------------------------------------------------------------


def test_third_crest_section_gives_one_final_turn(make):
    """Sketch: "If a player ever scribbles in the third section of their family crest, FLIP, PICK, and SKETCH
    one final time, then complete End of Round Scoring. Then move to End of Game Scoring." In round 1 there is
    then no round 2."""
    seats = [seat(crest=2), seat()]
    game, state = load(
        make, [kind("roof", "fabric"), kind("roof", "beans"), kind("bridge")], seats=seats, players=2
    )
    state.apply_action(PICK1)
    state.apply_action(PICK1)
    state.apply_action(box("fabric", 1))
    state.apply_action(box("fabric", 1))
    v = view(state)
    assert [s["crest"] for s in v["seats"]] == [3, 1]
    assert v["final_turn"] is True and v["step"] == "flip" and v["turn"] == 1
    play_out(state)
    v = view(state)
    assert v["turn"] == 2 and v["round"] == 1  # exactly one more turn
    assert state.returns() != [0.0, 0.0]


def test_round_two_reshuffles_the_deck(make):
    """End of Round: "If this is the first round ... shuffle the castle cards together to reset the castle
    deck and move to the second round." Round 1 is scored and kept."""
    layout = {"a1": "F9g"}
    seats = [seat(layout, full_stalls())]
    game, state = load(make, QUIET, seats=seats, turn=20)
    state.apply_action(PICK1)
    v = view(state)
    assert (v["round"], v["turn"], v["step"], sum(v["deck"]), v["flags_taken"]) == (2, 0, "flip", 63, 0)
    assert v["seats"][0]["round_scores"] == [1 + 4, 0]  # tower height 1, one bag of gold
    assert state.is_chance_node() and not state.is_terminal()


def test_end_of_round_scoring_in_order(make):
    """End of Round Scoring: highest floor, flags (2 each), banners (2 each), bags of gold (4 each, crossed
    out 0), windows (solo: 3 each), beanstalks, royals by their cards; "anything scored in the first round
    will be scored again in the second"."""
    layout = {
        "a1": "F9-", "a2": "F8q", "a3": "F7q", "a4": "R3",  # queens at heights 2 and 3, a roof with 3 flags
        "c1": "F9g", "c2": "F6k", "c3": "R1",  # a bag of gold, a king on stability 6
        "e1": "F9x", "e2": "F5w",  # a crossed-out bag, a window
        "d1": "S", "d2": "S", "d3": "S", "d4": "S",  # a beanstalk of height 4
        "f2": "N", "f1": "n",  # a banner beside e2
        "g1": "F7p",
    }  # fmt: skip
    royals = (card_index("High Society"), card_index("Steady Footing"), card_index("Window Shopper"))
    state = final_turn(make, [seat(layout, round_scores=(10, 0))], royal_cards=royals)
    heights = 3 + 2 + 2 + 1  # a3, c2, e2, g1 on the tracker 1 2 3 4 ...
    flags, banners, gold, windows, beanstalk = 2 * 4, 2 * 1, 4 * 1, 3 * 1, 9
    royal = (2 + 3) + 6 + 1
    assert view(state)["seats"][0]["round_scores"] == [
        10,
        heights + flags + banners + gold + windows + beanstalk + royal,
    ]
    assert state.scores() == [10.0 + 46]


@pytest.mark.parametrize(("garden_towers", "points"), [(True, 1 + 1 + 2), (False, 1 + 1)])
def test_garden_columns_as_towers(make, garden_towers, points):
    """Highest Floor: "For each tower in your castle, find your highest floor" (interpretation 16)."""
    layout = {"a1": "F9-", "b1": "B", "c1": "F9-", "b2": "F5-"}
    state = final_turn(make, [seat(layout)], params={"garden_towers": garden_towers})
    assert state.scores() == [float(points)]


@pytest.mark.parametrize(
    ("windows", "points"),
    [((2, 2, 1), (12, 12, 6)), ((3, 1, 1), (12, 6, 6)), ((0, 0, 0), (0, 0, 0)), ((2, 0, 0), (12, 0, 0))],
)
def test_windows_by_majority(make, windows, points):
    """Windows: "The players with the most total windows score 12 points. The players with the second most
    windows score 6 points." (interpretations 13, 14)"""
    seats = [
        seat({name: "F9w" if k < count else "F9-" for k, name in enumerate(("a1", "c1", "e1"))})
        for count in windows
    ]
    state = final_turn(make, seats)
    assert state.scores() == [3.0 + p for p in points]  # three towers of height 1 each


def test_tiebreak_by_round_two(make):
    """End of Game Scoring: "In a tie, the player with the highest score in round 2 wins"."""
    seats = [
        seat({"a1": "F9-", "c1": "F9g"}, round_scores=(10, 0)),
        seat({"a1": "F9-", "c1": "F9-", "e1": "F9-", "g1": "F9-"}, round_scores=(12, 0)),
    ]
    state = final_turn(make, seats)
    assert state.scores() == [16.0, 16.0]
    assert state.returns() == [1.0, 0.0]
    seats = [seat({"a1": "F9-"}, round_scores=(3, 0)), seat({"c1": "F9-"}, round_scores=(3, 0))]
    state = final_turn(make, seats)
    assert state.returns() == [0.5, 0.5]


@pytest.mark.parametrize(
    ("round1", "target", "won"),
    [(59, "diamond", 0.0), (60, "diamond", 1.0), (83, "star", 0.0), (84, "star", 1.0)],
)
def test_solo_target_scores(make, round1, target, won):
    """Target Scores: "add up the three numbers of a single shape from all 3 cards" and "try to beat" it
    (interpretation 18). High Society, Steady Footing, Window Shopper: diamonds 22 + 20 + 22, stars
    30 + 28 + 30."""
    royals = (card_index("High Society"), card_index("Steady Footing"), card_index("Window Shopper"))
    layout = {"a1": "F9w", "c1": "F9-"}  # heights 2, one window 3, Window Shopper 0 (no princess)
    state = final_turn(
        make, [seat(layout, round_scores=(round1, 0))], royal_cards=royals, params={"target": target}
    )
    assert state.scores() == [round1 + 5.0]
    assert state.returns() == [won]


# --- Both engines from positions edited to be near the end of a round ---------------------------------------

# Random games rarely reach round 2, so the differential suites seldom see the end of round 1, the reset into
# round 2, the two-round totals and the tiebreak. These start from a random game's position at the start of
# a turn, edited to be one to three turns from the end of round 1 or round 2 (cards taken from the deck so
# that `sum(deck) + len(display) == 63 - 3 x turn`, crests, flag bonuses and round-1 scores varied), and
# compare the two engines after every action from there (meeplex.testing Lockstep).


def near_the_end(draw_seed: int, params: dict, base_turns: int, turn: int, round_: int, rnd) -> str | None:
    """A serialized position at the start of turn ``turn`` of round ``round_`` (step ``flip``, empty
    display), or None when the random game ended before ``base_turns`` turns."""
    from meeplex.testing import random_action

    game = meeplex.make(GAME, **params)
    state = game.new_initial_state()
    rng = meeplex.Rng(draw_seed)
    while True:
        obj = view(state)
        if obj["step"] == "over":
            return None
        if obj["step"] == "flip" and not obj["display"] and obj["turn"] >= base_turns:
            break
        state.apply_action(random_action(state, rng))
    deck = obj["deck"]
    for _ in range(sum(deck) - (63 - 3 * turn)):
        k = rnd.choices(range(len(deck)), weights=deck)[0]
        deck[k] -= 1
    obj.update(deck=deck, turn=turn, round=round_, flags_taken=rnd.randrange(4))
    for s in obj["seats"]:
        if obj["flags_taken"] == 0:
            s["flagged"] = False  # no seat took a bonus when none is crossed out
        s["crest"] = max(s["crest"], rnd.choice([0, 0, 1, 2]))
        if round_ == 2:
            s["round_scores"] = [rnd.randrange(0, 40), 0]
    return json.dumps(obj)


@settings(max_examples=int(6 * effort() ** 0.5))
@given(
    seed=st.integers(0, 2**20),
    players=st.integers(1, 6),
    variant=st.integers(0, 7),
    base_turns=st.integers(1, 6),
    turn=st.integers(18, 20),
    round_=st.integers(1, 2),
    choices=action_choices(max_steps=300, min_steps=300),
)
def test_engines_agree_near_the_end_of_a_round(seed, players, variant, base_turns, turn, round_, choices):
    """Round 1's end, round 2's start (what resets, what carries over, the flag trackers), the final
    scoring, the two-round totals and the tiebreak by round 2, on both engines in lockstep."""
    params = {
        "players": players,
        "competitive": players > 1 and bool(variant & 1),
        "dragon_per_card": bool(variant & 2),
        "garden_towers": not variant & 4,
    }
    rnd = random.Random(seed)
    start = near_the_end(seed, params, base_turns, turn, round_, rnd)
    assume(start is not None)
    note(f"start: {start}")
    lock = Lockstep(meeplex.game_string(GAME, params), start=start)
    assert not lock.rejected, "an edited position was refused by both engines: fix the editor"
    crossed = False
    for choice in choices:
        if not lock.live:
            break
        before = view(lock.rust)["round"]
        lock.step(pick(lock.rust, choice))
        if lock.divergence is None and before == 1 and view(lock.rust)["round"] == 2:
            crossed = True
            obj = view(lock.rust)
            assert (obj["turn"], obj["flags_taken"], sum(obj["deck"])) == (0, 0, 63)
    note(f"history: {lock.actions}")
    assert lock.divergence is None, str(lock.divergence)
    if round_ == 2 or lock.rust.is_terminal():
        assert lock.rust.is_terminal()
        obj = view(lock.rust)
        totals = [float(sum(s["round_scores"])) for s in obj["seats"]]
        assert lock.rust.scores() == totals
        shared = players > 1 and sorted(lock.rust.returns())[-2:] == [0.5, 0.5]
        event(f"started in round {round_}, ended in round {obj['round']}" + (", shared" if shared else ""))
    event("crossed into round 2" if crossed else "did not cross")


# --- Rounds: the end of round 1, round 2, totals, tiebreak --------------------------------------------------


def flip(state, display) -> None:
    """The next Flip: ``display``'s kinds through the three chance nodes."""
    for k in display:
        assert state.is_chance_node()
        state.apply_action(k)


def test_round_two_resets_the_round_and_keeps_the_castle(make):
    """Round Overview: "If you are unable to flip 3 cards during step 1, move to End of Round." End of Round:
    "If this is the first round ... shuffle the castle cards together to reset the castle deck and move to
    the second round." What is written on the sheet (features, stalls, creature X spaces,
    crest, the round 1 score) carries over; the deck, the turn count and the flag bonus tracker are new: "You
    will use the flag bonus tracker marked Round 1 in the first round, and the tracker marked Round 2 in the
    second." """
    creatures = [[1, 0], [0, 1], [0, 0], [0, 0], [0, 0]]
    stalls = [[1, 0, 0, 0], [2, 3, 3, 4], [2, 2, 3, 3], [2, 2, 3, 3]]
    layout = {"a1": "F9g", "a2": "R3", "c1": "F8-"}
    sheet = seat(layout, stalls, creatures, crest=1)
    game, state = load(make, QUIET, seats=[sheet], turn=20, flags_taken=3)
    state.apply_action(PICK2)  # Bwca: a stroke in its second X space
    assert state.legal_actions() == [NO_MAGIC, MAGIC["Derwen"]]  # Bwca: not for a creature card
    state.apply_action(NO_MAGIC)
    assert state.legal_actions() == boxes("fabric")  # the wild resource: the only stall with room
    state.apply_action(box("fabric", 2))
    v = view(state)
    assert (v["round"], v["turn"], v["step"], v["flags_taken"], v["display"]) == (2, 0, "flip", 0, [])
    assert v["deck"] == view(game.new_initial_state())["deck"]  # all 63 cards again
    assert v["royal_cards"] == [0, 1, 2]  # the same scoring cards
    s = v["seats"][0]
    assert s["grid"] == grid(layout)
    assert s["stalls"] == [[1, 1, 0, 0], *stalls[1:]]
    assert s["creatures"] == [[1, 0], [1, 1], [0, 0], [0, 0], [0, 0]]
    assert s["crest"] == 1
    assert s["round_scores"] == [1 + 1 + 3 * 2 + 4, 0]  # heights a1, c1; three flags; a bag of gold
    assert state.scores() == [12.0] and not state.is_terminal()
    # The first roof of round 2 takes three flags, though round 1's bonuses were all taken.
    flip(state, [kind("roof", "fabric"), kind("floor 9"), kind("bridge")])
    state.apply_action(PICK1)
    state.apply_action(NO_MAGIC)  # Derwen is still usable
    state.apply_action(at("c2"))
    state.apply_action(box("fabric", 3))
    assert token(state, "c2") == "R3"
    assert view(state)["flags_taken"] == 1


@pytest.mark.parametrize(("taken", "flags"), [(0, 3), (1, 2), (2, 1), (3, 0)])
def test_round_two_flags_for_the_first_three_roofs(make, taken, flags):
    """Flags in round 2: "The first player to add a roof in each round proudly declares it to the group and
    adds 3 flags to it. "I'm building a roof with three fantastic flags!"", the second 2, the third 1; then
    none. Two seats roofing in one turn take the same number."""
    seats = [seat({"a1": "F9-"}), seat({"c1": "F9-"})]
    display = [kind("roof", "fabric"), kind("roof", "beans"), kind("floor 9")]
    game, state = load(make, display, seats=seats, players=2, round=2, flags_taken=taken)
    state.apply_action(PICK1)
    state.apply_action(PICK2)
    state.apply_action(at("a2"))
    state.apply_action(box("fabric", 1))
    state.apply_action(at("c2"))
    state.apply_action(box("beans", 1))
    assert (token(state, "a2", 0), token(state, "c2", 1)) == (f"R{flags}", f"R{flags}")
    assert view(state)["flags_taken"] == min(3, taken + 1)


def end_of_round_one(make, seats, players=None, **kwargs):
    """The last turn of round 1 (QUIET display, full stalls): every seat picks slot 1; round 1 is scored."""
    players = players or len(seats)
    for s in seats:
        s["stalls"] = full_stalls()
    game, state = load(make, QUIET, seats=seats, players=players, turn=20, **kwargs)
    for _ in range(players):
        state.apply_action(PICK1)
    assert view(state)["round"] == 2
    return game, state


def skip_to_the_last_turn(game, state):
    """Round 2's last turn, by editing the deck (the sheets as they are): the QUIET cards are all that is
    left, then every seat picks slot 1 and the game ends."""
    obj = view(state)
    obj["deck"] = [0] * 100
    for k in QUIET:
        obj["deck"][k] = 1
    obj["turn"] = 20
    state = game.deserialize_state(json.dumps(obj))
    flip(state, QUIET)
    for _ in range(len(obj["seats"])):
        state.apply_action(PICK1)
    while not state.is_terminal():  # the Derwen gained in round 1 is offered: not used
        assert NO_MAGIC in state.legal_actions()
        state.apply_action(NO_MAGIC)
    return state


def test_two_rounds_added_up(make):
    """End of Round Scoring: "Remember, anything scored in the first round will be scored again in the
    second!" End of Game Scoring: "Add up your scores from round 1 and round 2." The castles do not change
    in round 2 here, so each seat scores the same twice."""
    seats = [seat({"a1": "F9-", "a2": "F8w"}), seat({"c1": "F9g", "e1": "F9w", "e2": "F5w"})]
    game, state = end_of_round_one(make, seats)
    # Seat 0: heights 2, one window (second most: 6). Seat 1: heights 1 + 2, a bag 4, two windows (12).
    assert [s["round_scores"] for s in view(state)["seats"]] == [[8, 0], [19, 0]]
    assert state.scores() == [8.0, 19.0]
    assert state.returns() == [0.0, 0.0]  # not over
    state = skip_to_the_last_turn(game, state)
    assert [s["round_scores"] for s in view(state)["seats"]] == [[8, 8], [19, 19]]
    assert state.scores() == [16.0, 38.0]
    assert state.returns() == [0.0, 1.0]


def test_tiebreak_by_round_two_three_seats(make):
    """End of Game Scoring: "The player with the highest total score wins ... In a tie, the player with the
    highest score in round 2 wins". A higher round 2 score does not help a seat with a lower total."""
    seats = [
        seat({"a1": "F9-"}, round_scores=(20, 0)),  # 20 + 1
        seat({"a1": "F9-", "a2": "F8-", "a3": "F7-", "a4": "F6-"}, round_scores=(0, 0)),  # 0 + 4
        seat({"a1": "F9-", "c1": "F9-"}, round_scores=(19, 0)),  # 19 + 2
    ]
    state = final_turn(make, seats)
    assert state.scores() == [21.0, 4.0, 21.0]
    assert state.returns() == [0.0, 0.0, 1.0]
    assert [s["round_scores"][1] for s in view(state)["seats"]] == [1, 4, 2]


@pytest.mark.parametrize("count", [0, 1, 3])
def test_solo_windows_score_three_each(make, count):
    """Solo: "Windows: Each window scores 3 points." (no majority: 1 window is 3, not 12)"""
    layout = {name: "F9w" if k < count else "F9-" for k, name in enumerate(("a1", "c1", "e1"))}
    state = final_turn(make, [seat(layout)])
    assert state.scores() == [3.0 + 3 * count]


@pytest.mark.parametrize(("round1", "won"), [(107, 0.0), (108, 1.0)])
def test_solo_target_rosettes(make, round1, won):
    """Target Scores: "For a deep, fierce challenge, total the tricky rosettes." (38 + 36 + 38 = 112 for
    High Society, Steady Footing, Window Shopper; a total of 112 does not beat it)"""
    royals = (card_index("High Society"), card_index("Steady Footing"), card_index("Window Shopper"))
    layout = {"a1": "F9w", "c1": "F9-"}
    state = final_turn(
        make, [seat(layout, round_scores=(round1, 0))], royal_cards=royals, params={"target": "rosette"}
    )
    assert state.scores() == [round1 + 5.0]
    assert state.returns() == [won]


# --- The final Flip, Pick and Sketch ------------------------------------------------------------------------


def test_third_crest_section_from_a_dragon(make):
    """Dragons: "If you have no bag of gold to give and no suitable places to add a dragon, instead decorate a
    section of your family crest. Remember! If a player ever scribbles in the third section of their family
    crest, FLIP, PICK, and SKETCH one final time." The dragon comes before this turn's Pick, which is still
    played; then one more Flip, Pick and Sketch for everyone; then the end (round 2 here)."""
    seats = [seat(crest=2), seat({"a1": "F9-"})]
    display = [kind("dragon", "gold"), kind("floor 9", "fabric"), kind("floor 8", "beans")]
    game, state = load(make, display, seats=seats, players=2, round=2)
    v = view(state)
    assert [s["crest"] for s in v["seats"]] == [3, 0]
    assert v["step"] == "dragon" and state.current_player() == 1  # seat 1 can place its dragon
    state.apply_action(at("a2"))
    state.apply_action(PICK2)
    state.apply_action(PICK3)
    state.apply_action(at("a1"))
    state.apply_action(box("fabric", 1))
    state.apply_action(at("c1"))
    state.apply_action(box("beans", 1))
    v = view(state)
    assert (v["final_turn"], v["step"], v["turn"]) == (True, "flip", 1)
    flip(state, [kind("floor 7", "glass"), kind("roof", "gold"), kind("bridge", "glass")])
    state.apply_action(PICK1)
    state.apply_action(PICK1)
    state.apply_action(at("a2"))
    state.apply_action(box("glass", 1))
    state.apply_action(at("e1"))
    state.apply_action(box("glass", 1))
    assert state.is_terminal()
    v = view(state)
    assert v["turn"] == 2 and [s["round_scores"][1] for s in v["seats"]] == [2, 3]


def test_third_crest_section_on_the_last_turn_of_round_one(make):
    """End of Game: "If any player scribbles in the third section of their family crest ... all players FLIP,
    PICK, and SKETCH one final time, then complete End of Round Scoring. Then move to End of Game Scoring."
    On round 1's last turn there is no card left for that final turn: round 1 is scored and the game ends
    (interpretation 17); there is no round 2."""
    seats = [seat(crest=2, stalls=full_stalls()), seat({"a1": "F9-"}, stalls=full_stalls())]
    display = [kind("roof"), kind("Derwen"), kind("Bwca")]
    game, state = load(make, display, seats=seats, players=2, turn=20)
    state.apply_action(PICK1)  # seat 0: a roof with no floor: the third section
    state.apply_action(PICK1)  # seat 1: a roof on a1
    state.apply_action(at("a2"))
    assert state.is_terminal()
    v = view(state)
    assert v["round"] == 1 and [s["crest"] for s in v["seats"]] == [3, 0]
    assert [s["round_scores"] for s in v["seats"]] == [[0, 0], [1 + 6, 0]]
    assert state.returns() == [0.0, 1.0]


def test_scribbles_in_the_final_turn_change_nothing(make):
    """The final turn is played once: a seat scribbling again in it (its crest is full) ends nothing more and
    adds no turn (interpretation 21)."""
    seats = [seat(crest=3), seat()]
    display = [kind("roof", "fabric"), kind("roof", "beans"), kind("floor 9")]
    game, state = load(make, display, seats=seats, players=2, final_turn=True)
    state.apply_action(PICK1)
    state.apply_action(PICK2)
    state.apply_action(box("fabric", 1))
    state.apply_action(box("beans", 1))
    assert state.is_terminal()
    assert [s["crest"] for s in view(state)["seats"]] == [3, 1]


# --- Competitive variant ------------------------------------------------------------------------------------


def test_competitive_neighbour_chooses_the_bag_or_the_dragon(make):
    """Competitive Variant: "the player to your left decides whether or not you add the dragon or cross off a
    bag of gold to lure it away." ("Us dragons loOove your bags of gold. Give them to us to stop us landing
    on your towers!") With two seats each is the other's left neighbour. The card's own dragon,
    when picked, is sketched by the seat itself (only the revealed dragon is decided by the neighbour)."""
    seats = [seat({"a1": "F9g", "c1": "F9-"}), seat({"a1": "F9g"})]
    display = [kind("dragon", "gold"), kind("floor 9"), kind("roof")]
    game, state = load(make, display, seats=seats, players=2, params={"competitive": True})
    assert state.current_player() == 1
    assert state.legal_actions() == cells("a1", "a2", "c2")
    state.apply_action(at("a1"))  # seat 1 takes seat 0's bag of gold
    assert state.current_player() == 0
    assert state.legal_actions() == cells("a1", "a2")
    state.apply_action(at("a2"))  # seat 0 puts the dragon on seat 1's tower
    assert (token(state, "a1", 0), token(state, "a2", 1)) == ("F9x", "D")
    state.apply_action(PICK1)
    state.apply_action(PICK2)
    assert state.current_player() == 0  # seat 0 sketches the dragon card itself
    assert state.legal_actions() == cells("a2", "c2")


def test_competitive_no_option_scribbles(make):
    """Dragons, competitive: a seat with no floor to hold a dragon and no bag of gold scribbles; the
    neighbour has nothing to decide."""
    seats = [seat(), seat({"a1": "F9-"})]
    display = [kind("dragon", "gold"), kind("floor 9"), kind("roof")]
    game, state = load(make, display, seats=seats, players=2, params={"competitive": True})
    assert view(state)["seats"][0]["crest"] == 1
    assert state.current_player() == 0  # seat 0 decides for seat 1
    assert state.legal_actions() == cells("a2")


# --- Creatures: each gained magic used once -----------------------------------------------------------------


def test_creature_magic_once_per_gained_space(make):
    """Picking a creature: "add a single diagonal line through one of their X spaces"; "Whenever you use a
    creature's magic, add a second diagonal line through their X space to mark it as used." Two gained
    spaces give two uses; a used space is not offered again."""
    derwen = [[1, 1], [0, 0], [0, 0], [0, 0], [0, 0]]
    display = [kind("floor 9", "fabric"), kind("floor 8", "beans"), kind("floor 7", "gold")]
    game, state = load(make, display, seats=[seat(creatures=derwen)])
    state.apply_action(PICK1)
    assert state.legal_actions() == [NO_MAGIC, MAGIC["Derwen"]]
    state.apply_action(MAGIC["Derwen"])
    state.apply_action(at("a1"))
    state.apply_action(at("c1"))
    state.apply_action(box("fabric", 1))
    assert view(state)["seats"][0]["creatures"][0] == [0, 2]
    flip(state, [kind("floor 9", "beans"), kind("floor 8", "gold"), kind("floor 7", "glass")])
    state.apply_action(PICK2)
    assert state.legal_actions() == cells("a2", "e1", "g1")  # no magic to choose any more


@pytest.mark.parametrize("name", list(MAGIC))
def test_each_creature_magic_is_used_once(make, name):
    """Creatures: "Whenever you use a creature's magic, add a second diagonal line through their X space to
    mark it as used." Each of the five, gained once: offered for a floor, used, and not offered again."""
    game, state = load(
        make,
        [kind("floor 5", "fabric"), kind("floor 6", "gold"), kind("roof", "beans")],
        seats=[seat(creatures=gained(name))],
    )
    state.apply_action(PICK1)
    assert state.legal_actions() == [NO_MAGIC, MAGIC[name]]
    state.apply_action(MAGIC[name])
    while not state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    assert view(state)["seats"][0]["creatures"][list(MAGIC).index(name)] == [0, 1]
    flip(state, [kind("floor 5", "beans"), kind("floor 6", "glass"), kind("roof", "gold")])
    state.apply_action(PICK1)
    assert not {NO_MAGIC, *MAGIC.values()} & set(state.legal_actions())


def test_creature_gained_this_turn_not_usable_this_turn(make):
    """ "You may choose to use one of your creatures' magic whenever you pick a castle card": a creature is
    gained when its card is sketched, after the choice of magic (interpretation 7), so the Mab just picked
    is not offered; it is offered on the next pick."""
    display = [kind("Mab"), kind("floor 9", "fabric"), kind("roof")]
    game, state = load(make, display)
    state.apply_action(PICK1)
    assert state.legal_actions() == ALL_BOXES  # straight to the wild resource: no magic decision
    state.apply_action(box("beans", 1))
    assert view(state)["seats"][0]["creatures"][4] == [1, 0]
    flip(state, [kind("roof", "beans"), kind("floor 9", "beans"), kind("bridge")])
    state.apply_action(PICK2)
    assert state.legal_actions() == [NO_MAGIC, MAGIC["Mab"]]


def test_one_creature_per_pick(make):
    """ "You may choose to use one of your creatures' magic whenever you pick": with Mab the second pick of
    the same card offers no other creature (interpretation 7)."""
    both = [[1, 0], [0, 0], [1, 0], [0, 0], [1, 0]]
    display = [kind("floor 9", "fabric"), kind("roof"), kind("bridge", "gold")]
    game, state = load(make, display, seats=[seat(creatures=both)])
    state.apply_action(PICK1)
    assert state.legal_actions() == [NO_MAGIC, MAGIC["Derwen"], MAGIC["Ji-Ji"], MAGIC["Mab"]]
    state.apply_action(MAGIC["Mab"])
    state.apply_action(at("a1"))
    state.apply_action(box("fabric", 1))
    assert state.legal_actions() == cells("c1", "e1", "g1")  # the second floor 9: no magic choice first
    state.apply_action(at("c1"))
    state.apply_action(box("fabric", 1))
    assert state.is_chance_node()
    assert view(state)["seats"][0]["creatures"] == [[1, 0], [0, 0], [1, 0], [0, 0], [0, 1]]


def test_jiji_decoration_comes_immediately(make):
    """Resources: "If you complete a column in any one of these market stalls gain the corresponding
    decoration immediately": with Ji-Ji, the window of the first resource is placed before the next
    resource's box."""
    stalls = [[0] * 4, [0] * 4, [0] * 4, [1, 0, 0, 0]]
    display = [kind("floor 9", "glass"), kind("floor 8", "gold"), kind("roof", "beans")]
    game, state = load(make, display, seats=[seat({"c1": "F9-"}, stalls, gained("Ji-Ji"))])
    state.apply_action(PICK1)
    state.apply_action(MAGIC["Ji-Ji"])
    state.apply_action(at("a1"))
    state.apply_action(box("glass", 1))
    assert state.legal_actions() == cells(
        "a1", "c1"
    )  # "Add a stunning window inside any existing empty floor"
    state.apply_action(at("c1"))
    assert token(state, "c1") == "F9w"
    assert state.legal_actions() == boxes("gold")
    state.apply_action(box("gold", 1))
    assert state.legal_actions() == boxes("beans")


# --- Decorations and the sheet's spaces ---------------------------------------------------------------------


def test_bag_of_gold_lost_when_no_empty_floor(make):
    """Resources: "If there is no space to add a decoration to the castle sheet, it is lost and not added.
    ... Decorations cannot be saved for later." The only floor holds a king."""
    stalls = [[0] * 4, [0] * 4, [1, 0, 0, 0], [0] * 4]
    game, state = load(
        make, [kind("roof", "gold"), kind("floor 9"), kind("bridge")], seats=[seat({"a1": "F9k"}, stalls)]
    )
    state.apply_action(PICK1)
    state.apply_action(at("a2"))
    state.apply_action(box("gold", 1))
    assert state.is_chance_node()
    assert view(state)["seats"][0]["stalls"][2] == [2, 0, 0, 0]
    # The next gold column gives a bag again (nothing was saved): still no empty floor.
    assert view(state)["decoration"] == "none"


def test_banner_left_or_right_hanging_down(make):
    """Banners: "Add an elegant banner attached to the left or right of an existing floor, hanging downwards.
    Each banner takes up two vertically adjacent spaces on the grid." The floor c2 offers b2 and d2 (b1 and
    d1 below are empty); beside a1 the banner would leave the grid."""
    stalls = [[1, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4]
    layout = {"c1": "F9-", "c2": "F8-", "e1": "F9-", "f1": "S"}
    game, state = load(
        make, [kind("floor 5", "fabric"), kind("roof"), kind("bridge")], seats=[seat(layout, stalls)]
    )
    state.apply_action(PICK1)
    state.apply_action(at("a1"))
    state.apply_action(box("fabric", 1))
    assert state.legal_actions() == cells("b2", "d2")
    state.apply_action(at("d2"))
    assert (token(state, "d2"), token(state, "d1")) == ("N", "n")


def test_banner_lost_when_no_room(make):
    """Resources: "If there is no space to add a decoration ... it is lost": the cells beside the only
    floors above the bottom row have no empty cell below them."""
    stalls = [[1, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4]
    layout = {"a1": "F9-", "b1": "B", "c1": "F9-", "a2": "F8-", "b2": "R0", "c2": "F8-"}
    layout.update({"d1": "S", "d2": "S"})
    game, state = load(
        make, [kind("roof", "fabric"), kind("floor 9"), kind("bridge")], seats=[seat(layout, stalls)]
    )
    state.apply_action(PICK1)
    state.apply_action(at("a3"))
    state.apply_action(box("fabric", 1))
    assert state.is_chance_node()
    assert "N" not in sum(view(state)["seats"][0]["grid"], [])


def test_one_element_per_space_and_per_floor(make):
    """Castle Sheet Spotlight: "Each individual grid space can only contain one of the following elements"
    and "A floor can only ever contain one of these elements" (a royal, a bag of gold, a window). Royals:
    "Royals may not be added inside bridges or roofs." A crossed-out bag: "You may not add anything else
    inside a floor with a crossed out bag of gold in it"."""
    layout = {"a1": "F9w", "c1": "F9g", "e1": "F9x", "g1": "F9q", "a2": "F8-", "b1": "B", "c2": "R0"}
    game, state = load(make, [kind("King"), kind("floor 9"), kind("bridge")], seats=[seat(layout)])
    state.apply_action(PICK1)
    assert state.legal_actions() == cells("a2")
    # A banner's cells take no floor: a1 holds the banner's bottom half.
    game, state = load(
        make, [kind("floor 9"), kind("King"), kind("bridge")], seats=[seat({"a2": "N", "a1": "n"})]
    )
    state.apply_action(PICK1)
    assert state.legal_actions() == cells("c1", "e1", "g1")


def test_crossed_out_floor_is_still_a_floor(make):
    """Dragons: a floor with a crossed-out bag "is otherwise considered empty. It will not be counted for
    points." It holds up a roof or a floor like any floor, counts for its tower's height, and the bag scores 0
    (interpretation 30)."""
    game, state = load(make, [kind("roof"), kind("floor 5"), kind("bridge")], seats=[seat({"a1": "F9x"})])
    state.apply_action(PICK1)
    assert state.legal_actions() == cells("a2")
    game, state = load(make, [kind("floor 5"), kind("roof"), kind("bridge")], seats=[seat({"a1": "F9x"})])
    state.apply_action(PICK1)
    assert state.legal_actions() == cells("a2", "c1", "e1", "g1")
    state = final_turn(make, [seat({"a1": "F9x", "a2": "F5-"})])
    assert state.scores() == [2.0]


def test_bridge_in_a_tower_column_and_floors_on_it(make):
    """Bridges: "Bridges are the only way for you to add floors to garden columns, but can also be added to
    tower columns." and "Bridges act as new foundations meaning you can add any new floors directly on top of
    them." c2 lies between the floors b2 and d2 (each on a bridge); a stability 9 floor then fits on it."""
    layout = {"a1": "F9-", "b1": "B", "c1": "F9-", "d1": "B", "e1": "F9-", "b2": "F5-", "d2": "F5-"}
    game, state = load(make, [kind("bridge"), kind("floor 9"), kind("roof")], seats=[seat(layout)])
    state.apply_action(PICK1)
    assert state.legal_actions() == cells("c2")
    state.apply_action(at("c2"))
    state.apply_action(box("fabric", 1))
    flip(state, [kind("floor 9", "beans"), kind("roof", "beans"), kind("bridge", "beans")])
    state.apply_action(PICK1)
    assert state.legal_actions() == cells("c3", "g1")


def test_roof_on_any_floor_not_on_a_roof_and_only_directly_above(make):
    """Roofs: "add it directly on top of any existing floor, regardless of stability." Dragons: "You may not
    add a dragon directly on top of a roof". ""Directly on top of" always means the grid space immediately
    above." """
    layout = {"a1": "F9-", "a2": "F1-", "c1": "F9-", "c2": "R0", "e1": "F2-", "e2": "D"}
    game, state = load(make, [kind("roof"), kind("floor 9"), kind("bridge")], seats=[seat(layout)])
    state.apply_action(PICK1)
    assert state.legal_actions() == cells("a3")
    game, state = load(make, [kind("dragon", "beans"), kind("floor 9"), kind("bridge")], seats=[seat(layout)])
    assert state.legal_actions() == cells("a3")  # not c3 on the roof, not e3 on the dragon


def test_highest_floor_ignores_bridges_dragons_flags_and_roofs(make):
    """End of Round Scoring 1: "Bridges, dragons, flags, and roofs are not counted towards the height of a
    tower." a: floor in row 1 under a roof (height 1); c: floor in row 1 under a dragon (1); b: a bridge
    only, no floor (0); the flags score apart (2 each)."""
    layout = {"a1": "F9-", "a2": "R2", "b1": "B", "c1": "F9-", "c2": "D"}
    state = final_turn(make, [seat(layout)])
    assert state.scores() == [1.0 + 1.0 + 2 * 2]


def test_several_players_pick_the_same_card(make):
    """Pick: "Multiple players can choose the same card. Players do not take their chosen cards from the
    display." Refresh: "discard the three castle cards currently in the display into a face-down discard pile
    nearby. "Time to tidy up!"" (the deck is not refilled until round 2)."""
    display = [kind("floor 7", "gold"), kind("roof"), kind("bridge")]
    game, state = load(make, display, seats=[seat(), seat()], players=2, turn=3)
    state.apply_action(PICK1)
    state.apply_action(PICK1)
    assert view(state)["display"] == display
    state.apply_action(at("a1"))
    state.apply_action(box("gold", 1))
    assert view(state)["display"] == display
    state.apply_action(at("a1"))
    state.apply_action(box("gold", 1))
    v = view(state)
    assert [token(state, "a1", p) for p in (0, 1)] == ["F7-", "F7-"]
    assert (v["display"], sum(v["deck"]), v["turn"]) == ([], 63 - 3 * 4, 4)


# --- Hidden picks (§4, §9): nothing of an earlier seat's pick reaches a later seat --------------------------


def test_hidden_picks_do_not_leak_to_later_seats(make):
    """Pick: "At the same time, all players pick" (picks are made seat by seat and hidden until all have
    picked, §4). For every pair of picks of seats 0 and 1, seat 2 sees the same observation tensor,
    observation string and information state string, and its resample serializes identically (what a search
    from seat 2's view starts from). Seat 1 sees its own pick but not seat 0's."""
    from meeplex.testing.conformance import rng_class_for

    display = [kind("floor 9", "fabric"), kind("roof", "beans"), kind("Queen", "gold")]
    seats = [seat({"a1": "F9-"}), seat({"c1": "F8-"}), seat({"e1": "F7g"})]
    views_of: dict[int, set] = {2: set()}
    own: dict[int, set] = {}
    resampled = set()
    for first in (PICK1, PICK2, PICK3):
        for second in (PICK1, PICK2, PICK3):
            game, state = load(make, display, seats=seats, players=3)
            state.apply_action(first)
            state.apply_action(second)
            assert state.current_player() == 2
            rng = rng_class_for(game)(41)
            twin = state.resample_from_infostate(2, rng)
            resampled.add(twin.serialize())
            for p in (1, 2):
                seen = (
                    state.observation_tensor(p).tobytes(),
                    state.observation_string(p),
                    state.information_state_string(p),
                )
                if p == 2:
                    views_of[2].add(seen)
                    assert twin.observation_tensor(2).tobytes() == seen[0]
                    assert twin.information_state_string(2) == seen[2]
                else:
                    own.setdefault(second, set()).add(seen)
    assert len(views_of[2]) == 1, "seat 2 can tell the earlier picks apart"
    assert len(resampled) == 1, "seat 2's resample depends on the hidden picks"
    assert all(len(group) == 1 for group in own.values()), "seat 1 can tell seat 0's pick"
    assert len(own) == 3  # but it knows its own


# --- Contract interpretations 31 and 32 (the deserializer) --------------------------------------------------


def refused(game, obj) -> bool:
    try:
        game.deserialize_state(json.dumps(obj))
    except meeplex.InvalidStateError:
        return True
    return False


def test_seat_outside_the_seat_steps_is_kept_and_has_no_effect(make):
    """Interpretation 31: in ``flip`` (and ``deal``, ``over``) play leaves ``seat = 0``; a hand-made
    position with another seat is accepted, serialized back as given, and changes nothing: the next Pick is
    seat 0's, and the observation is the same."""
    seats = [seat(stalls=full_stalls()), seat(stalls=full_stalls())]
    game, state = load(make, [kind("roof"), kind("floor 9"), kind("bridge")], seats=seats, players=2)
    state.apply_action(PICK1)
    state.apply_action(PICK1)  # both seats: a roof with no floor (a scribble), the resource lost; turn over
    obj = view(state)
    assert (obj["step"], obj["seat"]) == ("flip", 0)
    obj["seat"] = 1
    edited = game.deserialize_state(json.dumps(obj))
    assert view(edited)["seat"] == 1
    for p in (0, 1):
        assert edited.observation_tensor(p).tobytes() == state.observation_tensor(p).tobytes()
    for s in (state, edited):
        flip(s, [kind("floor 9", "beans"), kind("roof", "beans"), kind("bridge", "beans")])
    assert edited.serialize() == state.serialize()
    assert edited.current_player() == 0
    obj["seat"] = 2
    assert refused(game, obj)  # still 0..players-1


def test_a_decoration_is_pending_exactly_in_its_task(make):
    """Interpretation 32 (§10): "add the decoration gained immediately"; "Decorations cannot be saved for
    later". With Ji-Ji's second resource still queued, the window task is edited: a box task without the
    window is a valid state, a box task with it or a decoration task without it is refused; a beanstalk
    needs its height."""
    stalls = [[0] * 4, [0] * 4, [0] * 4, [1, 0, 0, 0]]
    display = [kind("floor 9", "glass"), kind("floor 8", "gold"), kind("roof", "beans")]
    game, state = load(make, display, seats=[seat({"c1": "F9-"}, stalls, gained("Ji-Ji"))])
    for action in (PICK1, MAGIC["Ji-Ji"], at("a1"), box("glass", 1)):
        state.apply_action(action)
    obj = view(state)
    assert (obj["task"], obj["decoration"], obj["queue"]) == ("decoration", "window", [2, 1])
    assert not refused(game, dict(obj, task="box", decoration="none"))
    assert refused(game, dict(obj, task="box"))
    assert refused(game, dict(obj, decoration="none"))
    assert refused(game, dict(obj, decoration="beanstalk"))  # no height
    beanstalk = game.deserialize_state(json.dumps(dict(obj, decoration="beanstalk", bean_height=2)))
    assert beanstalk.legal_actions() == cells("b1", "d1", "f1")
    assert refused(game, dict(obj, decoration="beanstalk", bean_height=5))  # not a bean column's height
    assert refused(game, dict(obj, bean_height=2))  # a height without a beanstalk


# --- Set Up, Components, Pick -------------------------------------------------------------------------------


def test_setup_deals_three_scoring_cards_and_the_castle_deck(make):
    """Set Up: "Shuffle the scoring cards and place 1 face up beside each of the 3 royal tiles." Castle Deck
    Spotlight: "Floors (x4 of each stability)", "Bridges (x4)", "Roofs (x4)", "Royals (x4 of each type)",
    "Dragons (x2)", "Creatures (x5 - 1 of each type)" (63 cards); "A creature's resource always counts as
    wild"."""
    game = make(GAME)
    state = game.new_initial_state()
    dealt = []
    for left in (33, 32, 31):
        outcomes = state.chance_weights()
        assert len(outcomes) == left and {w for _, w in outcomes} == {1}
        assert not set(dealt) & {a for a, _ in outcomes}
        dealt.append(outcomes[-1][0])
        state.apply_action(dealt[-1])
    assert view(state)["royal_cards"] == dealt
    deck = view(state)["deck"]
    per_feature = [sum(deck[5 * f : 5 * f + 5]) for f in range(20)]
    assert per_feature == [4] * 9 + [4, 4, 4, 4, 4, 2] + [1] * 5
    assert all(deck[5 * f + 4] == 1 for f in range(15, 20)) and sum(deck) == 63
    assert all(deck[5 * f + 4] == 0 for f in range(15))


def test_pick_announcement_example(make):
    """Pick: ""Hear ye, hear ye! I am building a stability 3 floor."" The stability 3 floor is written on the
    sheet with its stability ("Write the stability of the floor small in the corner")."""
    game, state = load(
        make, [kind("floor 3", "glass"), kind("roof"), kind("bridge")], seats=[seat({"a1": "F5-"})]
    )
    state.apply_action(PICK1)
    assert state.legal_actions() == cells("a2", "c1", "e1", "g1")
    state.apply_action(at("a2"))
    assert token(state, "a2") == "F3-"
