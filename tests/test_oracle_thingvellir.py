"""The Nidavellir oracle with the Thingvellir expansion, against the contract ``docs/rules/thingvellir.md``
(cited "TV §n", its interpretations "Tn").

Positions are built from a real state's JSON, changed by hand and read back with ``deserialize_state`` (which
also checks them), then played with legal actions by their canonical texts.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import meeplex
import meeplex.oracle as oracle
from meeplex.errors import IllegalActionError, InvalidNotationError, InvalidStateError
from meeplex.games import nidavellir as helpers
from meeplex.oracle import nidavellir as nid
from meeplex.testing import random_action

K = {key: k for k, key in enumerate(nid.KIND_KEYS)}
C = {key: c for c, key in enumerate(nid.COIN_KEYS)}
H = {key: h for h, key in enumerate(nid.ALL_HERO_KEYS)}
M = {key: m for m, key in enumerate(nid.CAMP_KEYS)}
BS, HU, EX, MI, WA = range(5)


def make(players: int = 2, **params: object) -> nid.NidavellirGame:
    game = oracle.make("nidavellir", players=players, thingvellir=True, **params)
    assert isinstance(game, nid.NidavellirGame)
    return game


def load(game: nid.NidavellirGame, obj: dict) -> nid.NidavellirState:
    """Deserialize a hand-made position; ``current`` is filled in from the phase."""
    obj = json.loads(json.dumps(obj))
    phase = obj["phase"]
    if phase in nid.CHANCE_PHASES or phase in ("over", "camp_fill"):
        obj["current"] = -1
    elif phase == "take":
        obj["current"] = obj["order"][obj["order_pos"]]
    elif phase == "enlist_order":
        obj["current"] = obj["enlist"][0]
    elif obj["queue"]:
        obj["current"] = obj["queue"][0][1]
    return game.deserialize_state(json.dumps(obj))


def play(state: nid.NidavellirState, *texts: str) -> None:
    for text in texts:
        state.apply_action(state.string_to_action(text))


def texts(state: nid.NidavellirState) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def position(
    players: int = 2,
    camp: tuple[str, ...] = (),
    age: int = 1,
    cards: list[str] | None = None,
    bids: list[list[str]] | None = None,
    tavern: int = 0,
    **params: object,
) -> tuple[nid.NidavellirGame, dict]:
    """Tavern ``tavern`` of the first turn of ``age`` being resolved: seat 0 has the highest gem, every seat
    bid b2 b3 b4 (so the order is 0, 1, …) unless ``bids`` says otherwise; the camp holds ``camp``, the rest
    of the Age's camp cards are in its deck."""
    game = make(players, **params)
    state = game.new_initial_state()
    for gem in sorted(game.gems, reverse=True):
        state.apply_action(gem)
    obj = json.loads(state.serialize())
    n = game.players
    c = game.cards_per_tavern
    cards = cards if cards is not None else ["blacksmith"] * c
    obj["taverns"] = [[0] * 23 for _ in range(3)]
    for key in cards:
        obj["taverns"][tavern][K[key]] += 1
    for later in range(tavern + 1, 3):
        obj["taverns"][later][K["blacksmith"]] = c
    bids = bids or [["b2", "b3", "b4"]] * n
    for s in range(n):
        seat = obj["seats"][s]
        seat["bids"] = [C[b] if b != "-" else -1 for b in bids[s]]
        used = {b for b in bids[s] if b != "-"}
        seat["hand"] = sorted(C[key] for key in ("b0", "b2", "b3", "b4", "b5") if key not in used)
    obj["tavern"] = tavern
    obj["revealed"] = tavern + 1
    obj["bid_start"] = len(obj["history"])
    reveal = [nid.COIN_VALUE[obj["seats"][s]["bids"][tavern]] for s in range(n)]
    obj["reveal"] = reveal
    obj["order"] = sorted(range(n), key=lambda s: (-reveal[s], -obj["seats"][s]["gem"]))
    obj["order_pos"] = 0
    obj["phase"] = "take"
    obj["age"] = age
    if age == 2:
        obj["distinctions"] = [-1] * 5
        obj["decks"][0] = [0] * 23
    obj["camp"] = sorted(M[key] for key in camp)
    obj["camp_deck"] = [m for m in range(24) if nid.CAMP_AGE[m] == age and m not in obj["camp"]]
    return game, obj


def own(obj: dict, s: int, *cards: str) -> None:
    """Seat s owns the camp cards (taken out of the camp and the deck)."""
    for key in cards:
        m = M[key]
        for place in (obj["camp"], obj["camp_deck"]):
            if m in place:
                place.remove(m)
        obj["seats"][s]["camp_cards"] = sorted(obj["seats"][s]["camp_cards"] + [m])


def give_hero(obj: dict, s: int, key: str) -> None:
    obj["heroes_left"][H[key]] -= 1
    obj["seats"][s]["heroes"][H[key]] += 1


def coin_values(state: nid.NidavellirState, s: int) -> list[int]:
    return sorted(nid.COIN_VALUE[c] for c in state.seats[s].coins())


# --- Parameters, sizes, the base game untouched (TV §1, §6, §7) --------------------------------------------


def test_parameters_and_sizes():
    game = make(3)
    assert str(game) == (
        "nidavellir(enlist_chooser=most,enlist_each_turn=false,first_game=false,players=3,"
        "thingvellir=true,two_player_camp_discard=true,warrior_bonus_at_zero=false)"
    )
    assert game.num_distinct_actions() == 356 and game.max_chance_outcomes() == 24
    assert game.observation_shape() == (292 + 265 * 3,)
    state = game.new_initial_state()
    assert len(state.heroes_left) == 23 and state.camp_deck == list(range(12))


@pytest.mark.parametrize(
    "key,value",
    [("enlist_each_turn", True), ("enlist_chooser", "lowest_gem"), ("two_player_camp_discard", False)],
)
def test_interpretation_keys_refused_without_thingvellir(key, value):
    """TV §1: "refused (InvalidStateError) when thingvellir is false and given a value other than their
    default"."""
    with pytest.raises(InvalidStateError):
        oracle.make("nidavellir", **{key: value})
    assert oracle.make("nidavellir", **{key: nid.TV_DEFAULT_PARAMS[key]}) == oracle.make("nidavellir")
    with pytest.raises(InvalidStateError):
        oracle.make("nidavellir", thingvellir=True, enlist_chooser="highest")


def test_base_game_unchanged():
    """TV: "with thingvellir false every id, field, tensor entry and text of the base game stays as it is"."""
    game = oracle.make("nidavellir", thingvellir=False)
    assert str(game) == "nidavellir(first_game=false,players=2,warrior_bonus_at_zero=false)"
    assert game.num_distinct_actions() == 157 and game.max_chance_outcomes() == 23
    state = game.new_initial_state()
    obj = json.loads(state.serialize())
    assert "camp" not in obj and "camp_cards" not in obj["seats"][0] and len(obj["heroes_left"]) == 17
    with pytest.raises(InvalidNotationError):
        state.string_to_action("camp draupnir")
    with pytest.raises(IllegalActionError):
        state.action_to_string(157) if not state.is_chance_node() else state.action_to_string(23)
    bad = dict(obj, camp=[])
    with pytest.raises(InvalidStateError):
        game.deserialize_state(json.dumps(bad))


# --- The camp (TV §4.1, §4.2, §4.6) ------------------------------------------------------------------------


def test_camp_filled_after_the_taverns():
    """TV §4.1: "one chance node per empty place over the current Age's camp deck, until 5 cards lie
    there"."""
    game = make(2)
    state = game.new_initial_state()
    while state.phase in ("gems", "fill"):
        state.apply_action(state.legal_actions()[0])
    assert state.phase == "camp_fill" and state.is_chance_node()
    assert state.chance_outcomes() == [(m, 1 / 12) for m in range(12)]
    assert state.action_to_string(4) == "camp vegvisir" and state.string_to_action("camp w9e11") == 11
    mask = state.legal_actions_mask()
    assert mask.shape == (24,) and mask.sum() == 12
    play(state, "camp vegvisir", "camp w6b", "camp draupnir", "camp he8", "camp fafnir")
    assert state.phase == "bid" and state.camp == [0, 1, 4, 7, 8] and len(state.camp_deck) == 7


def test_camp_deck_runs_out():
    """T4: "a camp deck that runs out leaves the camp short"."""
    game, obj = position(2, camp=("draupnir",))
    obj["camp_deck"] = [M["fafnir"]]
    obj["phase"] = "camp_fill"
    obj["tavern"], obj["revealed"], obj["bid_start"], obj["order"], obj["reveal"] = -1, 0, -1, [], [-1, -1]
    obj["taverns"] = [[0] * 23 for _ in range(3)]
    for t in range(3):
        obj["taverns"][t][K["blacksmith"]] = 3
    for seat in obj["seats"]:
        seat["hand"], seat["bids"] = [C[k] for k in ("b0", "b2", "b3", "b4", "b5")], [-1, -1, -1]
    state = load(game, obj)
    play(state, "camp fafnir")
    assert state.phase == "bid" and state.camp == [0, 1] and state.camp_deck == []


def test_camp_visit_first_seat_only():
    """TV §4.2: "the first seat of the tavern's order (order_pos 0) may take a camp card instead of a tavern
    card"; anyone else is refused."""
    game, obj = position(3, camp=("draupnir", "w6e8"))
    state = load(game, obj)
    assert "camp draupnir" in texts(state) and "camp w6e8" in texts(state)
    play(state, "take blacksmith")
    assert state.current_player() == 1 and not any(t.startswith("camp") for t in texts(state))
    with pytest.raises(IllegalActionError):
        play(state, "camp draupnir")


def test_camp_visit_fafnir_owner():
    """TV §4.2: "the Fafnir owner may do the same on its own turn in that tavern if the camp has not been
    visited there"."""
    game, obj = position(3, camp=("draupnir", "w6e8"))
    own(obj, 1, "fafnir")
    state = load(game, obj)
    play(state, "take blacksmith")
    assert state.current_player() == 1 and "camp draupnir" in texts(state)
    play(state, "camp draupnir")
    assert state.camp_visited and nid.DRAUPNIR in state.seats[1].camp_cards
    # Visited by the first seat: the owner may not.
    state = load(game, obj)
    play(state, "camp w6e8")
    assert state.camp_visited and state.current_player() == 1
    assert not any(t.startswith("camp") for t in texts(state))


def test_camp_visited_cleared_at_each_tavern():
    game, obj = position(3, camp=("draupnir", "svalinn", "w6e8"))
    state = load(game, obj)
    play(state, "camp draupnir", "take blacksmith", "take blacksmith")
    assert state.tavern == 1 and not state.camp_visited
    assert state.order_pos == 0 and "camp svalinn" in texts(state)  # the gems were traded: seat 2 first


def test_two_player_tavern_discard():
    """T3: "a first seat that took from the camp discards one of the tavern's 3 cards after its turn"."""
    game, obj = position(2, camp=("w6e8",), cards=["blacksmith", "hunter", "warrior3"])
    state = load(game, obj)
    play(state, "camp w6e8")
    assert state.phase == "tavern_discard" and state.current_player() == 0
    assert texts(state) == ["drop blacksmith", "drop hunter", "drop warrior3"]
    play(state, "drop hunter")
    assert state.discard[K["hunter"]] == 1 and state.current_player() == 1
    assert texts(state) == ["take blacksmith", "take warrior3"]
    play(state, "take warrior3")
    # The leftover blacksmith also goes to the discard pile.
    assert state.tavern == 1 and state.discard[K["blacksmith"]] == 1


def test_two_player_tavern_discard_off():
    game, obj = position(2, camp=("w6e8",), two_player_camp_discard=False)
    state = load(game, obj)
    play(state, "camp w6e8")
    assert state.phase == "take" and state.current_player() == 1


def test_leftovers_discarded_at_three_players():
    """TV §4.4: "Cards left in a tavern ... go to the discard pile after the gem trades, at every player
    count"."""
    game, obj = position(3, camp=("w6e8",), cards=["blacksmith", "hunter", "warrior3"])
    state = load(game, obj)
    play(state, "camp w6e8", "take blacksmith", "take hunter")
    assert state.tavern == 1 and state.discard[K["warrior3"]] == 1 and sum(state.discard) == 1


def test_camp_cleared_at_age_two():
    """TV §4.6, T13: "removing the camp's leftover cards from the game (not to the discard pile) and
    switching to the Age II camp deck"."""
    state = random_until(2, lambda s: s.age == 2 and s.phase == "fill", seed=3)
    assert state.camp == [] and state.camp_deck == list(range(12, 24))
    assert sum(state.discard) == sum(state.discard)  # nothing of the camp entered the pile
    while state.phase == "fill":
        state.apply_action(state.legal_actions()[0])
    assert state.phase == "camp_fill" and all(m >= 12 for m in state.chance_weights()[0][:1])


def random_until(players: int, predicate, seed: int = 0, **params: object) -> nid.NidavellirState:
    game = make(players, **params)
    state = game.new_initial_state()
    rng = meeplex.Rng(seed)
    while not predicate(state):
        assert not state.is_terminal(), "the predicate never held"
        state.apply_action(random_action(state, rng))
    return state


# --- Artefacts (TV §5) -------------------------------------------------------------------------------------


def test_mercenary_unplaced_until_enlistment():
    game, obj = position(2, camp=("w6e8",))
    state = load(game, obj)
    before = state.bravery(0)
    play(state, "camp w6e8")
    assert state.seats[0].unplaced() == [M["w6e8"]] and state.seats[0].ranks(WA) == 0
    assert state.bravery(0) == before


def test_vegvisir_enters_the_explorer_column():
    """TV §5: "Vegvisir enters the Explorer column (entry 43)"; 1 rank, 13 points."""
    game, obj = position(2, camp=("vegvisir",))
    state = load(game, obj)
    play(state, "camp vegvisir")
    assert state.seats[0].army[EX] == [nid.VEGVISIR_ENTRY] and state.seats[0].camp_cards == []
    assert state.seats[0].ranks(EX) == 1 and state.seats[0].points(EX) == 13
    assert "vegvisir" in state.observation_string(0)


def test_vegvisir_lifts_thrud():
    game, obj = position(2, camp=("vegvisir",))
    give_hero(obj, 0, "thrud")
    obj["seats"][0]["army"][EX] = [nid.THRUD_ENTRY]
    obj["seats"][0]["thrud"] = EX
    state = load(game, obj)
    play(state, "camp vegvisir")
    assert state.phase == "thrud" and state.seats[0].army[EX] == [nid.VEGVISIR_ENTRY]


def test_vidofnir_plus_two_then_plus_three():
    """TV §5 Vidofnir, T11: "one +2, another +3 (s chooses which, one decision each)"; before the trade."""
    game, obj = position(2, camp=("vidofnir",), bids=[["b4", "b0", "b2"], ["b2", "b3", "b4"]])
    state = load(game, obj)  # seat 0's hand: b3 b5
    play(state, "camp vidofnir")
    assert state.phase == "vidofnir" and texts(state) == ["vidofnir b3", "vidofnir b5"]
    play(state, "vidofnir b3")  # 3 + 2 = 5: the t5
    assert state.seats[0].hand == [C["b5"], C["t5"]] and state.queue[0] == ["vidofnir", 0, C["t5"]]
    assert texts(state) == ["vidofnir b5"]
    play(state, "vidofnir b5")  # 5 + 3 = 8
    assert state.seats[0].hand == [C["t5"], C["t8"]]


def test_vidofnir_single_coin_plus_five():
    game, obj = position(2, camp=("vidofnir",), bids=[["b4", "b3", "b2"], ["b2", "b3", "b4"]])
    obj["seats"][0]["hand"] = [C["b0"], C["b5"]]
    state = load(game, obj)
    play(state, "camp vidofnir")
    assert texts(state) == ["vidofnir b5"]
    play(state, "vidofnir b5")
    assert state.seats[0].hand == [C["b0"], C["t10"]] and state.phase == "tavern_discard"


@pytest.mark.parametrize(
    "card,points",
    [
        ("draupnir", 0),
        ("megingjord", 28),
        ("svalinn", 5),
        ("hrafnsmerki", 10),
        ("jarnglofi", 24),
        ("mjollnir", 6),
    ],
)
def test_scoring_artefacts(card, points):
    """TV §5: Draupnir 6 per coin ≥ 15, Megingjord 28, Svalinn 5 per hero, Hrafnsmerki 5 per mercenary,
    Jarnglofi 24, Mjollnir 2 per rank of the best class."""
    age = 1 if nid.CAMP_AGE[M[card]] == 1 else 2
    game, obj = position(2, age=age)
    hero = next(h for h in range(10) if nid.HERO_CLASS[h] == BS and len(nid.HERO_RANKS[h]) == 2)
    give_hero(obj, 0, nid.HERO_KEYS[hero])
    obj["seats"][0]["army"][BS] = [nid.HERO_ENTRY + hero, K["blacksmith"]]  # 3 ranks
    own(obj, 0, "w6e8" if age == 1 else "hb", "w6b" if age == 1 else "w6m1")
    base = load(game, obj).bravery(0)
    own(obj, 0, card)
    if card == "jarnglofi":  # T8: its owner's trading coin is gone for good
        seat = obj["seats"][0]
        seat["hand"], seat["bids"] = (
            [c for c in seat["hand"] if c != C["b0"]],
            [-1 if c == C["b0"] else c for c in seat["bids"]],
        )
    assert load(game, obj).bravery(0) - base == points


def test_draupnir_counts_high_coins():
    game, obj = position(2)
    obj["seats"][0]["hand"] = [C["t15"], C["t20"]]
    obj["treasure"][15 - 5] -= 1
    obj["treasure"][20 - 5] -= 1
    base = load(game, obj).bravery(0)
    own(obj, 0, "draupnir")
    assert load(game, obj).bravery(0) - base == 12


def test_megingjord_stops_heroes_by_lines():
    """TV §5 Megingjord: "s recruits no more heroes by lines"."""
    game, obj = position(2, camp=("megingjord",), cards=["blacksmith", "hunter", "warrior3"])
    obj["seats"][0]["army"] = [[K["blacksmith"]], [K["hunter"]], [K["explorer5"]], [K["miner1"]], []]
    state = load(game, obj)
    play(state, "take warrior3")
    assert state.phase == "hero"  # a line without Megingjord
    own(obj, 0, "megingjord")
    state = load(game, obj)
    play(state, "take warrior3")
    assert state.phase == "take" and state.current_player() == 1


def test_gjallarhorn_forces_a_hero_even_with_megingjord():
    """TV §5 Gjallarhorn: "recruit a hero now, whatever the lines"; Megingjord does not stop it."""
    game, obj = position(2, age=2, camp=("gjallarhorn",))
    obj["seats"][0]["camp_cards"] = [M["megingjord"]]
    state = load(game, obj)
    play(state, "camp gjallarhorn")
    assert state.phase == "hero" and state.current_player() == 0
    assert "hero zolkur" in texts(state) and "hero andumia" not in texts(state)  # T12: empty discard pile
    play(state, "hero zolkur")
    assert state.seats[0].heroes[H["zolkur"]] == 1 and state.seats[0].zolkur


def test_gjallarhorn_without_recruitable_hero():
    """T6: "Gjallarhorn with no recruitable hero does nothing"."""
    game, obj = position(2, age=2, camp=("gjallarhorn",))
    for h in range(23):
        while obj["heroes_left"][h]:
            obj["heroes_left"][h] -= 1
            obj["seats"][1]["heroes"][h] += 1
    obj["seats"][1]["army"] = [[nid.HERO_ENTRY + h] * obj["seats"][1]["heroes"][h] for h in range(10)]
    obj["seats"][1]["army"] = [
        [nid.HERO_ENTRY + h for h in range(10) if nid.HERO_CLASS[h] == j] for j in range(5)
    ]
    obj["seats"][1]["army"][HU].append(nid.YLUD_ENTRY)
    obj["seats"][1]["army"][WA].append(nid.THRUD_ENTRY)
    obj["seats"][1]["ylud"], obj["seats"][1]["thrud"] = HU, WA
    obj["seats"][1]["army"][BS].extend(nid.DOUBLE_ENTRIES[:1])
    obj["seats"][1]["army"][MI].extend(nid.DOUBLE_ENTRIES[1:])
    state = load(game, obj)
    play(state, "camp gjallarhorn")
    assert state.phase == "tavern_discard"


def test_hofud_each_other_seat_discards_a_warrior():
    """TV §5 Hofud: "each other seat, in seat order from s's left, discards one non-hero card of its Warrior
    column; a seat without one is skipped" (T14)."""
    game, obj = position(4, age=2, camp=("hofud",))
    aral = next(h for h in range(10) if nid.HERO_CLASS[h] == WA)
    give_hero(obj, 2, nid.HERO_KEYS[aral])  # a Warrior hero is not discardable
    obj["seats"][1]["army"][WA] = [K["warrior3"], K["warrior7"]]
    obj["seats"][2]["army"][WA] = [nid.HERO_ENTRY + aral] * len(nid.HERO_RANKS[aral][:1])
    obj["seats"][3]["army"][WA] = [K["warrior5"], nid.MERC_ENTRY + nid.MERC_OF_CARD[M["w6m1"]]]
    obj["camp_deck"].remove(M["w6m1"])
    state = load(game, obj)
    play(state, "camp hofud")
    assert state.phase == "hofud" and state.current_player() == 1
    assert texts(state) == ["remove warrior3", "remove warrior7"]
    play(state, "remove warrior3")
    assert state.current_player() == 3 and texts(state) == ["remove warrior5", "remove w6m1"]
    play(state, "remove w6m1")
    assert state.seats[3].army[WA] == [K["warrior5"]] and state.seats[1].army[WA] == [K["warrior7"]]
    assert state.discard[K["warrior3"]] == 1 and sum(state.discard) == 1  # the mercenary left the game
    assert state.phase == "take" and state.current_player() == 1


def test_brisingamens_two_picks_and_the_end_discard():
    """TV §5 Brisingamens: two cards of the discard pile, each resolved as if recruited; at the end a
    non-hero card of the army is discarded (``bris_column`` then ``remove``)."""
    game, obj = position(2, age=2, camp=("brisingamens",))
    obj["discard"][K["warrior9"]] = 1
    obj["discard"][K["offering3"]] = 1
    obj["decks"][1][K["warrior9"]] -= 1
    state = load(game, obj)
    play(state, "camp brisingamens")
    assert state.phase == "brisingamens" and texts(state) == ["pick warrior9", "pick offering3"]
    play(state, "pick warrior9")
    assert state.seats[0].army[WA] == [K["warrior9"]] and state.phase == "brisingamens"
    play(state, "pick offering3")
    assert state.phase == "transform" and state.queue[0] == ["transform", 0, 3]


def test_brisingamens_end_of_game_discard():
    game, obj = position(2, age=2)
    own(obj, 0, "brisingamens")
    obj["seats"][0]["army"][WA] = [K["warrior9"], K["warrior3"]]
    obj["seats"][0]["army"][EX] = [K["explorer5"]]
    obj["tavern"], obj["revealed"], obj["order"], obj["reveal"], obj["bid_start"] = -1, 0, [], [-1, -1], -1
    obj["taverns"] = [[0] * 23 for _ in range(3)]
    obj["turn"] = game.turns_per_age - 1
    obj["queue"] = [["bris_end", 0, 0], ["end", -1, 0]]
    for seat in obj["seats"]:
        seat["hand"], seat["bids"] = [C[k] for k in ("b0", "b2", "b3", "b4", "b5")], [-1, -1, -1]
    obj["phase"] = "bris_column"
    obj["decks"][1] = [0] * 23
    state = load(game, obj)
    assert texts(state) == ["discard explorer", "discard warrior"]
    play(state, "discard warrior")
    assert state.phase == "bris_column" and texts(state) == ["remove warrior3", "remove warrior9"]
    play(state, "remove warrior9")
    assert state.is_terminal() and state.seats[0].army[WA] == [K["warrior3"]]


def test_jarnglofi_unresolved_tavern():
    """T8: "a coin on an unresolved tavern leaves s out of that tavern's order (no card, no camp)"."""
    game, obj = position(2, age=2, camp=("jarnglofi",), bids=[["b3", "b2", "b0"], ["b2", "b3", "b4"]])
    state = load(game, obj)
    play(state, "camp jarnglofi")
    assert state.seats[0].bids == [C["b3"], C["b2"], -1] and coin_values(state, 0) == [2, 3, 4, 5]
    play(state, "drop blacksmith", "take blacksmith")
    assert state.tavern == 1
    play(state, "take blacksmith", "take blacksmith")
    assert state.tavern == 2 and state.order == [1] and state.reveal == [-1, 4]
    play(state, "take blacksmith")
    assert state.phase == "bid" or state.tavern == -1 or state.turn == 1


def test_jarnglofi_current_tavern_drops_the_trade():
    """T8: "on the current tavern, its trade is dropped"."""
    game, obj = position(
        2,
        age=2,
        camp=("jarnglofi",),
        bids=[["b0", "b2", "b3"], ["b0", "b3", "b4"]],
        two_player_camp_discard=False,
    )
    state = load(game, obj)  # both bid 0: seat 0 first by gem
    play(state, "camp jarnglofi")
    assert state.seats[0].hand == [C["b4"], C["b5"]] and state.seats[0].bids[0] == -1
    assert state.current_player() == 1
    play(state, "take blacksmith")  # seat 1 trades b2 + b5
    assert C["t7"] in state.seats[1].hand


def test_jarnglofi_resolved_tavern():
    """T8: the trading coin is discarded "wherever it is": here on the resolved tavern."""
    bids = [["b0", "b4", "b2"], ["b2", "b3", "b4"], ["b2", "b3", "b4"]]
    game, obj = position(3, age=2, camp=("jarnglofi",), bids=bids, tavern=1)
    state = load(game, obj)
    assert state.order[0] == 0
    play(state, "camp jarnglofi")
    assert state.seats[0].bids == [-1, C["b4"], C["b2"]] and coin_values(state, 0) == [2, 3, 4, 5]
    assert state.current_player() == 1 and state.bravery(0) >= 24


def test_jarnglofi_in_hand():
    game, obj = position(2, age=2, camp=("jarnglofi",))
    state = load(game, obj)  # hand b0 b5
    play(state, "camp jarnglofi")
    assert state.seats[0].hand == [C["b5"]] and state.seats[0].bids == [C["b2"], C["b3"], C["b4"]]


# --- Heroes (TV §5) ----------------------------------------------------------------------------------------


def forced(hero: str, **edits: object) -> nid.NidavellirState:
    """Seat 0 takes Gjallarhorn (Age II) and recruits ``hero``."""
    game, obj = position(3, age=2, camp=("gjallarhorn",))
    for key, value in edits.items():
        obj[key] = value
    state = load(game, obj)
    play(state, "camp gjallarhorn", f"hero {hero}")
    return state


def test_andumia_takes_from_the_discard_pile():
    discard = [0] * 23
    discard[K["hunter"]] = 2
    state = forced("andumia", discard=discard)
    assert state.phase == "andumia" and texts(state) == ["pick hunter"]
    play(state, "pick hunter")
    assert state.seats[0].army[HU] == [K["hunter"]] and state.discard[K["hunter"]] == 1


def test_holda_takes_a_camp_card():
    """TV §5 Holda: "take one camp card (artefact effect at once; mercenary unplaced)"; not the visit."""
    game, obj = position(3, age=2, camp=("gjallarhorn", "hrafnsmerki", "hb"))
    state = load(game, obj)
    play(state, "camp gjallarhorn", "hero holda")
    assert state.phase == "holda" and texts(state) == ["camp hrafnsmerki", "camp hb"]
    play(state, "camp hb")
    assert state.seats[0].unplaced() == [M["hb"]] and state.camp == [M["hrafnsmerki"]]


def test_holda_with_empty_camp():
    """T7: "Holda with an empty camp does nothing"."""
    state = forced("holda")
    assert state.phase == "take" and state.current_player() == 1


def test_khrad_adds_ten_to_the_lowest_coin():
    """TV §5 Khrad: "+10 to s's lowest coin that is not a trading coin, wherever it is"; a decision even
    with one choice."""
    state = forced("khrad")  # seat 0: bids b2 b3 b4, hand b0 b5
    assert state.phase == "khrad" and texts(state) == ["transform goblin"]
    play(state, "transform goblin")
    assert nid.COIN_VALUE[state.seats[0].bids[0]] == 12


def test_jarika_adds_two_to_transformations():
    game, obj = position(2, camp=("vidofnir",), bids=[["b4", "b0", "b2"], ["b2", "b3", "b4"]])
    give_hero(obj, 0, "jarika")
    state = load(game, obj)
    play(state, "camp vidofnir", "vidofnir b3")  # 3 + 2 + 2 = 7
    assert C["t7"] in state.seats[0].hand
    play(state, "vidofnir b5")  # 5 + 3 + 2 = 10
    assert C["t10"] in state.seats[0].hand


def test_jarika_and_zolkur_on_a_trade():
    """Jarika: +2 on the trade; Zolkur: "at s's next coin trade the lower coin is discarded instead of the
    higher", once."""
    game, obj = position(2, bids=[["b0", "b2", "b3"], ["b0", "b3", "b4"]])
    give_hero(obj, 0, "jarika")
    give_hero(obj, 0, "zolkur")
    obj["seats"][0]["zolkur"] = True
    state = load(game, obj)  # seat 0's hand b4 b5
    play(state, "take blacksmith")
    assert state.seats[0].hand == [C["b5"], C["t11"]] and not state.seats[0].zolkur
    assert "zolkur" not in [line for line in state.observation_string(0).splitlines() if "pending" in line]


def test_olwyn_places_two_doubles_in_two_columns():
    """TV §5 Olwyn, T16: "the two doubles in two different columns", each then ``recruit s``."""
    state = forced("olwyn")
    assert state.phase == "olwyn" and len(texts(state)) == 5
    play(state, "column miner")
    assert state.phase == "olwyn" and "column miner" not in texts(state) and len(texts(state)) == 4
    play(state, "column warrior")
    seat = state.seats[0]
    assert seat.army[MI] == [44] and seat.army[WA] == [45] and seat.ranks(MI) == 1 and seat.points(MI) == 0
    assert sum(seat.heroes) == 1  # the doubles are not heroes


def test_tv_hero_points():
    for hero, points in zip(nid.TV_HERO_KEYS, (12, 12, 4, 8, 9, 10), strict=True):
        game, obj = position(2)
        base = load(game, obj).bravery(0)
        give_hero(obj, 0, hero)
        if hero == "zolkur":
            obj["seats"][0]["zolkur"] = True
        assert load(game, obj).bravery(0) - base == points


# --- Enlistment (TV §4.5, T1, T2) --------------------------------------------------------------------------


def age_end(players: int, mercenaries: dict[int, list[str]], **params: object) -> nid.NidavellirState:
    """The last tavern of Age I's last turn, seat 0 to take; the camp and its deck empty; seats own the
    mercenaries given."""
    # Distinct bids on the last tavern, so that no gem is traded: the gems stay 5, 4, 3 …
    bids = [["b2", "b3", "b5"], ["b2", "b3", "b4"], ["b0", "b2", "b3"]][:players]
    game, obj = position(players, tavern=2, bids=bids, **params)
    obj["turn"] = game.turns_per_age - 1
    need = [0] * 23
    obj["decks"][0] = need
    for s, keys in mercenaries.items():
        own(obj, s, *keys)
    obj["camp"], obj["camp_deck"] = [], []
    return load(game, obj)


def finish_tavern(state: nid.NidavellirState) -> None:
    while state.phase == "take":
        play(state, texts(state)[0])


def test_enlistment_most_first_chooses():
    state = age_end(3, {0: ["w6e8"], 1: ["he8", "hm1"], 2: ["bm1"]})
    finish_tavern(state)
    assert [seat.gem for seat in state.seats] == [5, 4, 3]
    assert state.phase == "enlist_order" and state.enlist == [1, 0, 2] and state.current_player() == 1
    assert texts(state) == ["enlist first", "enlist last"]
    play(state, "enlist last")
    assert state.enlist == [0, 2, 1] and state.phase == "enlist" and state.current_player() == 0
    assert texts(state) == ["enlist w6e8 warrior", "enlist w6e8 explorer"]
    play(state, "enlist w6e8 explorer")
    assert state.seats[0].army[EX] == [nid.MERC_ENTRY + 0] and state.seats[0].points(EX) == 8
    assert state.current_player() == 2 and state.enlist_pos == 1
    play(state, "enlist bm1 miner")
    assert state.current_player() == 1
    play(state, "enlist he8 hunter", "enlist hm1 hunter")
    assert state.seats[1].ranks(HU) == 2 and state.enlist == [] and state.phase != "enlist"


def test_enlistment_first_keeps_the_order():
    state = age_end(3, {0: ["w6e8"], 2: ["he8", "hm1"]})
    finish_tavern(state)
    assert state.enlist == [2, 0] and state.current_player() == 2
    play(state, "enlist first")
    assert state.current_player() == 2


def test_enlistment_lowest_gem_chooses():
    """T2 ``lowest_gem``: "the chooser is the lowest gem among them and the rest follow in the same order"."""
    state = age_end(3, {0: ["w6e8"], 1: ["he8", "hm1"], 2: ["bm1"]}, enlist_chooser="lowest_gem")
    finish_tavern(state)
    assert state.enlist == [2, 1, 0] and state.current_player() == 2


def test_enlistment_mercenary_lifts_thrud():
    game, obj = position(2, tavern=2)
    obj["turn"] = game.turns_per_age - 1
    obj["decks"][0] = [0] * 23
    own(obj, 0, "w6e8")
    obj["camp"], obj["camp_deck"] = [], []
    give_hero(obj, 0, "thrud")
    obj["seats"][0]["army"][WA] = [nid.THRUD_ENTRY]
    obj["seats"][0]["thrud"] = WA
    state = load(game, obj)
    finish_tavern(state)
    play(state, "enlist first", "enlist w6e8 warrior")
    assert state.phase == "thrud" and state.seats[0].army[WA] == [nid.MERC_ENTRY]


def test_enlist_each_turn():
    """T1 ``enlist_each_turn``: the enlistment at the end of every turn."""
    game, obj = position(2, camp=("w6e8",), tavern=2, enlist_each_turn=True)
    state = load(game, obj)
    play(state, "camp w6e8", "drop blacksmith", "take blacksmith")
    assert state.turn == 1 and state.phase == "enlist_order"
    play(state, "enlist first", "enlist w6e8 warrior")
    assert state.phase == "fill" and state.seats[0].ranks(WA) == 1


# --- Serialization, refusals, notation, tensor (TV §6, §7) -------------------------------------------------


def test_serialization_keys_and_round_trip():
    game, obj = position(2, camp=("w6e8", "fafnir"))
    state = load(game, obj)
    play(state, "camp w6e8")
    out = json.loads(state.serialize())
    assert out["camp"] == [M["fafnir"]] and out["camp_visited"] is True and out["enlist"] == []
    assert out["seats"][0]["camp_cards"] == [M["w6e8"]] and out["seats"][0]["zolkur"] is False
    assert len(out["heroes"] if "heroes" in out else out["seats"][0]["heroes"]) == 23
    assert game.deserialize_state(state.serialize()) == state


@pytest.mark.parametrize(
    "edit",
    [
        lambda o: o["camp"].append(o["camp_deck"][0]),  # in two places
        lambda o: o["camp_deck"].append(12),  # a card of the other Age
        lambda o: o.__setitem__("camp", list(range(6))),  # more than 5 in the camp
        lambda o: o["seats"][0]["army"][WA].append(43),  # Vegvisir outside the Explorer column
        lambda o: o["seats"][0]["army"][HU].append(46),  # w6e8 as a Hunter
        lambda o: o["seats"][0].pop("zolkur"),
        lambda o: o.pop("enlist_pos"),
        lambda o: o["queue"].append(["olwyn", 0, 7]),
    ],
)
def test_refusals(edit):
    game, obj = position(2, camp=("fafnir",))
    load(game, obj)
    edit(obj)
    with pytest.raises(InvalidStateError):
        load(game, obj)


def test_doubles_in_one_column_refused():
    game, obj = position(2)
    give_hero(obj, 0, "olwyn")
    obj["seats"][0]["army"][WA] = [44, 45]
    with pytest.raises(InvalidStateError):
        load(game, obj)
    obj["seats"][0]["army"][WA] = [44]
    obj["seats"][0]["army"][MI] = [45]
    assert load(game, obj).seats[0].ranks(MI) == 1


def test_camp_visited_outside_a_tavern_refused():
    state = random_until(2, lambda s: s.phase == "bid", seed=1)
    obj = json.loads(state.serialize())
    obj["camp_visited"] = True
    with pytest.raises(InvalidStateError):
        state.game.deserialize_state(json.dumps(obj))


def test_action_texts_round_trip():
    """TV §6: every id 157..355 has its text, read back to the same id."""
    state = make(2).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    for a in range(356):
        assert state.string_to_action(state.action_to_string(a)) == a
    assert state.action_to_string(157) == "camp draupnir"
    assert state.action_to_string(181 + K["offering5"]) == "pick offering5"
    assert state.action_to_string(204) == "hero andumia" and state.action_to_string(209) == "hero zolkur"
    assert (
        state.action_to_string(210) == "enlist w6e8 warrior"
        and state.action_to_string(233) == "enlist w9e11b explorer"
    )
    assert state.action_to_string(234) == "enlist first" and state.action_to_string(235) == "enlist last"
    assert state.action_to_string(236) == "drop blacksmith" and state.action_to_string(259) == "vidofnir b0"
    assert (
        state.action_to_string(286 + 13) == "remove warrior3"
        and state.action_to_string(286 + 46) == "remove w6e8"
    )
    assert state.action_to_string(286 + 44) == "remove double1"
    with pytest.raises(IllegalActionError):
        state.action_to_string(356)


def test_helpers_match_the_oracle():
    assert helpers.camp("mjollnir") == 157 + 17 and helpers.pick("hunter") == 182
    assert helpers.hero("olwyn") == 208 and helpers.hero("thrud") == 96
    assert helpers.enlist("w6h", "hunter") == 210 + 2 * 9 + 1
    assert helpers.drop("offering3") == 257 and helpers.vidofnir("t25") == 285 and helpers.remove(46) == 332
    with pytest.raises(ValueError):
        helpers.enlist("w6h", "miner")


def test_tensor_layout():
    """TV §7: after the base game's 225 + 216 n values, 12 phases, camp 24, deck 24, visited 1, heroes 6,
    then 49 per relative seat."""
    game, obj = position(3, camp=("fafnir", "w6e8"))
    give_hero(obj, 1, "olwyn")
    obj["seats"][1]["army"][MI] = [44]
    obj["seats"][1]["army"][WA] = [45]
    own(obj, 2, "draupnir")
    state = load(game, obj)
    play(state, "camp w6e8")
    x = state.observation_tensor(1)
    base = 225 + 216 * 3
    assert x.shape == (292 + 265 * 3,) and x[:15].sum() == 1  # "take" in the base one-hot
    tv = x[base:]
    assert tv[:12].sum() == 0
    assert tv[12 + M["fafnir"]] == 1 and tv[12:36].sum() == 1
    assert tv[36:60].sum() == 12 - 3 and tv[60] == 1
    assert list(tv[61:67]) == [1, 1, 1, 1, 0, 1]
    me, left, right = tv[67:116], tv[116:165], tv[165:214]
    assert list(me[31:43]) == [0] * 12 and list(me[44:49]) == [0, 0, 0, 1, 1] and me[25 + 4] == 1
    assert right[M["w6e8"]] == 1 and left[M["draupnir"]] == 1


def test_phase_one_hot_in_new_phases():
    game, obj = position(2, camp=("w6e8",))
    state = load(game, obj)
    play(state, "camp w6e8")
    x = state.observation_tensor(0)
    assert x[:15].sum() == 0 and x[225 + 216 * 2 + nid.TV_PHASES.index("tavern_discard")] == 1


def test_observation_string_shows_the_camp():
    game, obj = position(2, camp=("w6e8", "fafnir"))
    own(obj, 1, "draupnir")
    state = load(game, obj)
    text = state.observation_string(0)
    assert "camp: fafnir w6e8" in text and "artefacts draupnir" in text


# --- Random games (TV §9) ----------------------------------------------------------------------------------

VARIANTS = [
    {},
    {"enlist_each_turn": True},
    {"enlist_chooser": "lowest_gem"},
    {"two_player_camp_discard": False},
    {"first_game": True},
]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_random_games_finish(players, variant):
    game = make(players, **VARIANTS[variant])
    for seed in range(3):
        state = game.new_initial_state()
        rng = meeplex.Rng(1000 * players + 10 * variant + seed)
        length = 0
        while not state.is_terminal():
            legal = state.legal_actions()
            assert legal
            mask = state.legal_actions_mask()
            assert mask.sum() == len(legal)
            action = random_action(state, rng)
            assert action in legal
            state.apply_action(action)
            length += 1
            text = state.serialize()
            assert game.deserialize_state(text).serialize() == text
            if length % 9 == 0:
                assert state.observation_tensor(length % players).shape == game.observation_shape()
                assert np.isfinite(state.observation_tensor(0)).all()
                for a in state.legal_actions():
                    assert state.string_to_action(state.action_to_string(a)) == a
        assert length <= game.max_game_length()
        assert sum(state.returns()) == pytest.approx(1.0)
        for seat in state.seats:
            assert seat.unplaced() == []  # everything enlisted
        assert state.camp_deck == [] or all(m >= 12 for m in state.camp_deck)


# --- Some of the blind scenarios (tests/blind/thingvellir.md) ----------------------------------------------


def test_blind_tv21_mercenary_placement_recruits_a_hero():
    """TV21: the mercenary waits in the CZ, counts for no line, and its placement as a Hunter recruits."""
    state = age_end(2, {0: ["hm1"]})
    obj = json.loads(state.serialize())
    obj["seats"][0]["army"] = [[K["blacksmith"]], [], [K["explorer7"]], [K["miner2"]], [K["warrior4"]]]
    state = load(state.game, obj)
    play(state, "take blacksmith")
    assert state.phase == "take" and state.seats[0].lines() == 0  # no Hero: the CZ's card is no Hunter
    finish_tavern(state)
    play(state, "enlist first", "enlist hm1 hunter")
    assert state.seats[0].army[HU] == [nid.MERC_ENTRY + nid.MERC_OF_CARD[M["hm1"]]]
    assert state.phase == "hero" and state.current_player() == 0


def test_blind_tv25_enlistment_before_the_troop_evaluation():
    """TV25 (reading A, the contract's §4.5): the mercenary is placed before the distinctions."""
    state = age_end(2, {0: ["w9e11"]})
    obj = json.loads(state.serialize())
    obj["seats"][0]["army"][WA] = [K["warrior3"], K["warrior8"]]
    obj["seats"][1]["army"][WA] = [K["warrior5"], K["warrior6"]]
    state = load(state.game, obj)
    finish_tavern(state)
    play(state, "enlist first", "enlist w9e11 warrior")
    assert state.distinctions[0] == 0  # the King's Hand (Warrior distinction) to s0
    assert state.phase == "transform" and state.queue[0] == ["transform", 0, 5]


def test_blind_tv32_olwyn_doubles_complete_a_line():
    """TV32: Olwyn's doubles in W and E make every column 3 ranks: another Hero is due at once."""
    game, obj = position(2, age=2, cards=["warrior8", "blacksmith", "blacksmith"])
    give_hero(obj, 0, "skaa")
    obj["seats"][0]["army"] = [
        [K["blacksmith"]] * 3,
        [K["hunter"]] * 3,
        [K["explorer5"], K["explorer9"]],
        [K["miner1"], K["miner2"], K["miner0"]],
        [K["warrior4"]],
    ]
    state = load(game, obj)
    play(state, "take warrior8")
    assert state.phase == "hero"
    play(state, "hero olwyn", "column warrior")
    assert state.phase == "olwyn" and "column warrior" not in texts(state)
    play(state, "column explorer")
    seat = state.seats[0]
    assert seat.ranks(WA) == 3 and seat.points(WA) == 12 and seat.points(EX) == 14
    assert state.phase == "hero" and sum(seat.heroes) == 2


def test_olwyn_double_lifts_thrud():
    game, obj = position(3, age=2, camp=("gjallarhorn",))
    give_hero(obj, 0, "thrud")
    obj["seats"][0]["army"][WA] = [nid.THRUD_ENTRY]
    obj["seats"][0]["thrud"] = WA
    state = load(game, obj)
    play(state, "camp gjallarhorn", "hero olwyn", "column warrior")
    assert state.phase == "thrud" and state.seats[0].army[WA] == [44]


def test_blind_tv33_zolkur_once():
    """TV33: 3 + 4 = 7, the lower coin (3b) leaves; the next trade is normal."""
    game, obj = position(2, bids=[["b5", "b0", "b2"], ["b2", "b0", "b3"]], tavern=1)
    give_hero(obj, 0, "zolkur")
    obj["seats"][0]["zolkur"] = True
    obj["seats"][0]["shown_bids"] = [True, False, False]
    state = load(game, obj)  # s0's pouch b3 b4; both bid 0 at the Dancing Dragon, s0 first by gem
    play(state, "take blacksmith")
    assert state.seats[0].hand == [C["b4"], C["t7"]] and not state.seats[0].zolkur
    play(state, "take blacksmith")  # s1: 4 + 5 = 9, the higher leaves as usual
    assert state.seats[1].hand == [C["b4"], C["t9"]]


def test_blind_tv35_khrad_with_jarika():
    """TV35 step 1: the lowest non-trading coin 2b: 2 + 10 + 2 = 14."""
    game, obj = position(3, age=2, camp=("gjallarhorn",))
    give_hero(obj, 0, "jarika")
    state = load(game, obj)
    play(state, "camp gjallarhorn", "hero khrad", "transform goblin")
    assert state.seats[0].bids[0] == C["t14"]


def test_blind_tv19_vidofnir_with_the_trading_coin_in_the_pouch():
    """TV19: pouch 0b 5b: the 5b gets +5 (10T), the 0b is unchanged."""
    game, obj = position(2, camp=("vidofnir",), bids=[["b4", "b3", "b2"], ["b3", "b2", "b4"]])
    state = load(game, obj)
    play(state, "camp vidofnir", "vidofnir b5")
    assert state.seats[0].hand == [C["b0"], C["t10"]] and coin_values(state, 0) == [0, 2, 3, 4, 10]


def test_zolkur_with_ulines_chosen_pair():
    """TV §9: Zolkur on the pair Uline's owner chooses: 2 + 5 = 7, the lower (b2) leaves."""
    game, obj = position(2, bids=[["b0", "-", "-"], ["b2", "b3", "b4"]])
    give_hero(obj, 0, "uline")
    give_hero(obj, 0, "zolkur")
    obj["seats"][0]["zolkur"] = True
    obj["uline_bidder"] = 0
    state = load(game, obj)  # seat 0's hand b2 b3 b4 b5; seat 1 (2) is first
    play(state, "take blacksmith", "take blacksmith")
    assert state.phase == "uline_trade" and state.current_player() == 0
    play(state, "sum b2", "sum b5")
    assert state.seats[0].hand == [C["b3"], C["b4"], C["b5"], C["t7"]] and not state.seats[0].zolkur


def test_jarika_on_a_royal_offering():
    """Jarika: +2 on the offering's transformation: 5 + 3 + 2 = 10."""
    game, obj = position(2, cards=["offering3", "blacksmith", "blacksmith"])
    give_hero(obj, 0, "jarika")
    state = load(game, obj)
    play(state, "take offering3", "transform b5")
    assert state.seats[0].hand == [C["b0"], C["t10"]]


def test_refused_actions_change_nothing():
    """Illegal ids and texts are refused and leave the state as it was."""
    game, obj = position(3, camp=("w6e8",))
    state = load(game, obj)
    before = state.serialize()
    for action in (
        nid.CAMP + M["draupnir"],
        nid.ENLIST,
        nid.ENLIST_FIRST,
        nid.PICK,
        nid.REMOVE + 13,
        356,
        -1,
    ):
        with pytest.raises(IllegalActionError):
            state.apply_action(action)
    with pytest.raises(InvalidNotationError):
        state.string_to_action("enlist w6e8 hunter")
    with pytest.raises(InvalidNotationError):
        state.string_to_action("camp excalibur")
    assert state.serialize() == before
    play(state, "take blacksmith")
    with pytest.raises(IllegalActionError):
        play(state, "camp w6e8")  # the second seat has no Fafnir
    state = load(game, obj)
    play(state, "camp w6e8")
    with pytest.raises(IllegalActionError):
        play(state, "enlist w6e8 warrior")  # not before the Age's end
