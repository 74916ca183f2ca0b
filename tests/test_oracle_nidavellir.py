"""The Nidavellir oracle against the rulebook (``borisyankov/rulespal data/rulebooks/nidavellir-rulebook.md``)
and the contract ``docs/rules/nidavellir.md``. Each test quotes the sentence it checks.

Positions are built from a real initial state's JSON, changed by hand and read back with ``deserialize_state``
(which also checks them).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import meeplex.oracle as oracle
from meeplex.errors import IllegalActionError, InvalidNotationError, InvalidStateError
from meeplex.oracle import nidavellir as nid

K = {key: k for k, key in enumerate(nid.KIND_KEYS)}
C = {key: c for c, key in enumerate(nid.COIN_KEYS)}
H = {key: h for h, key in enumerate(nid.HERO_KEYS)}
BS, HU, EX, MI, WA = range(5)


def make(players: int = 2, **params: object) -> nid.NidavellirGame:
    game = oracle.make("nidavellir", players=players, **params)
    assert isinstance(game, nid.NidavellirGame)
    return game


def dealt(players: int = 2, **params: object) -> tuple[nid.NidavellirGame, dict]:
    """The game and the JSON of the state after the gem deal: seat 0 the highest gem, and so on."""
    game = make(players, **params)
    state = game.new_initial_state()
    for gem in sorted(game.gems, reverse=True):
        state.apply_action(gem)
    return game, json.loads(state.serialize())


def load(game: nid.NidavellirGame, obj: dict) -> nid.NidavellirState:
    """Deserialize a hand-made position; ``current`` is filled in from the phase."""
    obj = json.loads(json.dumps(obj))
    phase = obj["phase"]
    if phase in nid.CHANCE_PHASES or phase == "over":
        obj["current"] = -1
    elif phase == "take":
        obj["current"] = obj["order"][obj["order_pos"]]
    elif obj["queue"]:
        obj["current"] = obj["queue"][0][1]
    return game.deserialize_state(json.dumps(obj))


def play(state: nid.NidavellirState, *texts: str) -> None:
    for text in texts:
        state.apply_action(state.string_to_action(text))


def fill(state: nid.NidavellirState) -> None:
    """The taverns filled with the first kinds left in the deck."""
    while state.phase == "fill":
        state.apply_action(state.legal_actions()[0])


def take_position(
    game: nid.NidavellirGame,
    obj: dict,
    cards: list[str],
    bids: list[list[str]],
    hands: list[list[str]] | None = None,
    tavern: int = 0,
) -> dict:
    """Tavern ``tavern`` being resolved, holding ``cards``, the taverns after it full of Blacksmiths (a played
    turn leaves them full: §9 item 20); each seat's three bids and hand as given."""
    n = game.players
    obj["taverns"] = [[0] * 23 for _ in range(3)]
    for key in cards:
        obj["taverns"][tavern][K[key]] += 1
    for later in range(tavern + 1, 3):
        obj["taverns"][later][K["blacksmith"]] = game.cards_per_tavern
    for s in range(n):
        seat = obj["seats"][s]
        seat["bids"] = [C[b] if b != "-" else -1 for b in bids[s]]
        used = {b for b in bids[s] if b != "-"}
        hand = hands[s] if hands else [key for key in ("b0", "b2", "b3", "b4", "b5") if key not in used]
        seat["hand"] = sorted(C[key] for key in hand)
    obj["tavern"] = tavern
    obj["revealed"] = tavern + 1
    obj["bid_start"] = len(obj["history"])
    reveal = [nid.COIN_VALUE[obj["seats"][s]["bids"][tavern]] for s in range(n)]
    obj["reveal"] = reveal
    obj["order"] = sorted(range(n), key=lambda s: (-reveal[s], -obj["seats"][s]["gem"]))
    obj["order_pos"] = 0
    obj["phase"] = "take"
    return obj


def army(*columns: list[str | int]) -> list[list[int]]:
    return [[K[e] if isinstance(e, str) else e for e in column] for column in columns]


def give_hero(obj: dict, s: int, key: str, count: int = 1) -> None:
    obj["heroes_left"][H[key]] -= count
    obj["seats"][s]["heroes"][H[key]] += count


# --- Setup and bids ----------------------------------------------------------------------------------------


def test_gem_deal():
    """ "Take the gems corresponding to the number of Elvalands: ... with 3 use 3–5; with 2 use 4–5.
    Distribute one randomly to each player"."""
    state = make(3).new_initial_state()
    assert state.is_chance_node() and state.chance_weights() == [(3, 1), (4, 1), (5, 1)]
    assert state.action_to_string(4) == "gem 4"
    play(state, "gem 4")
    assert state.chance_weights() == [(3, 1), (5, 1)]
    play(state, "3", "gem 5")
    assert [seat.gem for seat in state.seats] == [4, 3, 5]
    assert state.phase == "fill"
    assert make(2).new_initial_state().legal_actions() == [4, 5]


def test_bid_order_with_gem_ties():
    """ "If several Elvalands tie on coin value, the tie is broken by gems: the higher-value gem wins"."""
    game, obj = dealt(3)  # gems 5, 4, 3
    state = load(game, obj)
    fill(state)
    assert state.phase == "bid" and state.current_player() == 0
    # Seat 0 (gem 5) bids 3, seats 1 (gem 4) and 2 (gem 3) bid 4 on the Laughing Goblin.
    play(state, "bid b3", "bid b4", "bid b5")
    play(state, "bid b4", "bid b3", "bid b5")
    assert state.current_player() == 2
    play(state, "bid b4", "bid b3", "bid b5")
    assert state.phase == "take" and state.tavern == 0
    assert state.order == [1, 2, 0]
    assert state.reveal == [3, 4, 4]


def test_bids_hidden_then_revealed():
    """ "place one coin of your choosing face down on each of the three Tavern locations ... Simultaneously
    reveal the coin on the tavern location being resolved (and only that one)"."""
    game, obj = dealt(2)
    state = load(game, obj)
    fill(state)
    play(state, "bid b5", "bid b4", "bid b3")
    text = state.information_state_string(1)
    assert text.endswith("?,?,?")
    assert state.information_state_string(0).endswith(f"{C['b5']},{C['b4']},{C['b3']}")
    play(state, "bid b2", "bid b3", "bid b4")
    # Goblin revealed: seat 0's first bid is shown to seat 1, the two others are not.
    history = state.information_state_string(1).split("history=")[1].split(",")
    assert history[-6:] == [str(C["b5"]), "?", "?", str(C["b2"]), str(C["b3"]), str(C["b4"])]
    twin = state.resample_from_infostate(1, oracle.Rng(3))
    assert sorted(twin.seats[0].coins()) == sorted(state.seats[0].coins())
    assert twin.seats[0].bids[0] == C["b5"] and twin.seats[1].bids == state.seats[1].bids
    assert np.array_equal(twin.observation_tensor(1), state.observation_tensor(1))


# --- Gems ------------------------------------------------------------------------------------------------


def _resolve_all_bidding_b5(players: int, gem_six: int | None = None) -> nid.NidavellirState:
    game, obj = dealt(players)
    if gem_six is not None:
        obj["seats"][gem_six]["gem"] = 6
    n = players
    cards = ["hunter"] * game.cards_per_tavern
    obj = take_position(game, obj, cards, [["b5", "b4", "b3"]] * n)
    state = load(game, obj)
    while state.tavern == 0:
        state.apply_action(state.legal_actions()[0])
    return state


def test_gem_trade_two():
    """ "Tie between 2 Elvalands: the two gems are traded between them"."""
    state = _resolve_all_bidding_b5(2)
    assert [seat.gem for seat in state.seats] == [4, 5]


def test_gem_trade_three():
    """ "Tie between 3 Elvalands: only the lowest and highest gems are traded; the medium gem is not
    traded"."""
    state = _resolve_all_bidding_b5(3)
    assert [seat.gem for seat in state.seats] == [3, 4, 5]


def test_gem_trade_four():
    """ "Tie between 4 Elvalands: the smallest and highest gems trade, and the other two gems trade between
    themselves"."""
    state = _resolve_all_bidding_b5(4)
    assert [seat.gem for seat in state.seats] == [2, 3, 4, 5]


def test_gem_trade_five_and_gem_six():
    """ "Tie between 5 Elvalands: as for 4 Elvalands; the medium gem is not traded" and "Special value gem 6
    ... cannot be traded. During a gem trade, do not count the Elvaland who owns this gem"."""
    state = _resolve_all_bidding_b5(5)
    assert [seat.gem for seat in state.seats] == [1, 2, 3, 4, 5]
    state = _resolve_all_bidding_b5(3, gem_six=1)  # gems 5, 6, 3
    assert [seat.gem for seat in state.seats] == [3, 6, 5]


def test_gem_six_wins_ties():
    """Crown Jeweler: the gem 6 "lets you win all future tavern-resolution ties"."""
    game, obj = dealt(3)
    obj["seats"][2]["gem"] = 6
    state = load(game, take_position(game, obj, ["hunter"] * 3, [["b5", "b4", "b3"]] * 3))
    assert state.order == [2, 0, 1]


# --- Coins -------------------------------------------------------------------------------------------------


def test_coin_trade_b0():
    """ "When you play a coin worth 0: Reveal the two coins in your pouch. Add up those two coins. Discard the
    highest-value coin. Take the coin corresponding to the sum from the Royal Treasure"."""
    game, obj = dealt(2)
    obj = take_position(game, obj, ["hunter"] * 3, [["b0", "b2", "b3"], ["b5", "b4", "b3"]])
    state = load(game, obj)
    assert state.order == [1, 0]
    play(state, "take hunter")
    before = list(state.treasure)
    play(state, "take hunter")
    seat = state.seats[0]
    assert seat.hand == [C["b4"], C["t9"]]  # 4 + 5 = 9; the 5 leaves the game
    assert seat.shown_hand == seat.hand
    assert state.treasure[9 - 5] == before[9 - 5] - 1
    assert state.treasure[5 - 5] == before[5 - 5]  # a basic coin is not put in the Treasure
    # Shown to the other seat too.
    assert state.observation_tensor(1)[225 + 4 + 214 + 6 + 27 + 84 + C["t9"]] == 1.0


def test_coin_trade_s3_and_equal_values():
    """Hunting Master: "This special coin keeps its trading properties and cannot be transformed"; a trade of
    equal coins discards the basic one (interp. 4)."""
    game, obj = dealt(2)
    obj["seats"][0]["hand"] = [C["b5"], C["t5"]]
    obj["treasure"][5 - 5] -= 1
    obj = take_position(
        game,
        obj,
        ["hunter"] * 3,
        [["s3", "b2", "b3"], ["b5", "b4", "b3"]],
        hands=[["b5", "t5"], ["b0", "b2"]],
    )
    state = load(game, obj)
    play(state, "take hunter", "take hunter")
    assert state.seats[0].hand == [C["t5"], C["t10"]]
    assert state.seats[0].bids[0] == C["s3"]


def test_transform_takes_next_higher_else_highest():
    """ "If the coin of the desired value is unavailable, take the first higher value available in the Royal
    Treasure; if no higher values remain, take the first available lower value"."""
    game, obj = dealt(2)
    obj = take_position(
        game, obj, ["offering3", "hunter", "hunter"], [["b5", "b2", "b3"], ["b4", "b0", "b3"]]
    )
    obj["treasure"][7 - 5] = 0  # no 7 (2 players: one 7 only)
    state = load(game, obj)
    play(state, "take offering3")
    assert state.phase == "transform" and state.current_player() == 0
    assert "transform b0" not in [state.action_to_string(a) for a in state.legal_actions()]
    play(state, "transform b4")
    assert C["t8"] in state.seats[0].hand and C["b4"] not in state.seats[0].hand
    obj["treasure"] = [2, 2] + [0] * 19
    state = load(game, obj)
    play(state, "take offering3", "transform b4")
    assert C["t6"] in state.seats[0].hand


def test_offering_does_not_change_the_tie():
    """ "Transforming a coin placed on a Tavern location being resolved does not change that tavern's tie
    status, and gems must still be traded between the tied Elvalands"; a coin transformed on an unresolved
    location is the coin revealed there later."""
    game, obj = dealt(2)
    obj = take_position(
        game, obj, ["offering3", "hunter", "hunter"], [["b5", "b3", "b2"], ["b5", "b4", "b3"]]
    )
    state = load(game, obj)
    assert state.order == [0, 1]
    play(state, "take offering3", "transform goblin")
    assert state.seats[0].bids[0] == C["t8"]
    assert state.reveal == [5, 5]
    play(state, "take hunter")
    assert [seat.gem for seat in state.seats] == [4, 5]  # the tie stood: gems traded
    # On the unresolved Dancing Dragon: shown at once, and revealed with its new value.
    state = load(game, obj)
    play(state, "take offering3", "transform dragon")
    assert state.seats[0].bids[1] == C["t6"] and state.seats[0].shown_bids[1]
    assert state.observation_tensor(1)[225 + 4 + 214 + 6 + 27 + 28 + C["t6"]] == 1.0


# --- Heroes ------------------------------------------------------------------------------------------------


def test_heroes_by_lines_two_at_once():
    """ "If placing one card (or a Distinction card) completes several lines at once, you recruit that many
    Heroes one after another"."""
    game, obj = dealt(2)
    obj["seats"][0]["army"] = army([], ["hunter", "hunter"], ["explorer5", "explorer6"], ["miner0", "miner1"],
                                   ["warrior3", "warrior4"])  # fmt: skip
    obj = take_position(game, obj, ["blacksmith"] * 3, [["b5", "b2", "b3"], ["b4", "b0", "b3"]])
    state = load(game, obj)
    play(state, "take blacksmith")
    assert state.phase == "hero" and state.current_player() == 0
    play(state, "hero aegur")  # 2 ranks: the blacksmiths have 3, a second line is complete
    assert state.phase == "hero"
    play(state, "hero skaa")
    assert state.phase == "take" and state.current_player() == 1
    assert sum(state.seats[0].heroes) == 2


def test_no_hero_without_a_new_line():
    """ "the number of complete lines in your army must always equal your number of recruited Hero cards
    +1"."""
    game, obj = dealt(2)
    obj["seats"][0]["army"] = army([], ["hunter"], ["explorer5"], ["miner0"], ["warrior3"])
    give_hero(obj, 0, "skaa")
    obj = take_position(game, obj, ["blacksmith"] * 3, [["b5", "b2", "b3"], ["b4", "b0", "b3"]])
    state = load(game, obj)
    play(state, "take blacksmith")
    assert state.phase == "take" and state.current_player() == 1


def test_hourya_needs_five_explorer_ranks():
    """Hourya: "You must have 5 ranks in the Explorer column to recruit her. (The ranks of Thrud and Ylud
    count for her recruitment if placed in the Explorer column.)"."""
    game, obj = dealt(2)
    explorers = ["explorer5", "explorer6", "explorer7", "explorer8"]
    obj["seats"][0]["army"] = army([], ["hunter"], explorers, ["miner0"], ["warrior3"])
    obj = take_position(game, obj, ["blacksmith"] * 3, [["b5", "b2", "b3"], ["b4", "b0", "b3"]])
    state = load(game, obj)
    play(state, "take blacksmith")
    assert state.phase == "hero" and nid.RECRUIT + H["hourya"] not in state.legal_actions()


def test_hourya_with_thrud():
    """ "The ranks of Thrud and Ylud count for her recruitment if placed in the Explorer column"."""
    game, obj = dealt(2)
    seat = obj["seats"][0]
    explorers: list[str | int] = ["explorer5", "explorer6", "explorer7", "explorer8", nid.THRUD_ENTRY]
    seat["army"] = army(["blacksmith"], ["hunter"] * 2, explorers, ["miner0", "miner1"], ["warrior3"] * 2)
    seat["thrud"] = EX
    give_hero(obj, 0, "thrud")
    obj = take_position(game, obj, ["blacksmith"] * 3, [["b5", "b2", "b3"], ["b4", "b0", "b3"]])
    state = load(game, obj)
    play(state, "take blacksmith")
    assert state.phase == "hero" and nid.RECRUIT + H["hourya"] in state.legal_actions()


def test_dagda_and_bonfur_discards():
    """Dagda: "discard the last Dwarf card of your choosing from two other (different) columns"; Bonfur: "from
    another of your columns"; "You can never discard a Hero card with their power — only Dwarf cards"."""
    game, obj = dealt(2)
    obj["seats"][0]["army"] = army([], ["hunter"], ["explorer5", 30 + H["idunn"]], ["miner0"], ["warrior3"])
    give_hero(obj, 0, "idunn")
    obj["seats"][0]["army"][MI].insert(0, K["miner0"])  # fmt
    obj["seats"][0]["army"][WA].insert(0, K["warrior5"])
    obj["seats"][0]["army"][HU].insert(0, K["hunter"])
    obj["seats"][0]["army"][EX].insert(0, K["explorer9"])
    obj = take_position(game, obj, ["blacksmith"] * 3, [["b5", "b2", "b3"], ["b4", "b0", "b3"]])
    obj["seats"][0]["army"][BS] = [K["blacksmith"]]
    obj["taverns"][0] = [0] * 23
    obj["taverns"][0][K["blacksmith"]] = 3
    state = load(game, obj)
    play(state, "take blacksmith")  # 2 blacksmiths: the second line
    assert nid.RECRUIT + H["dagda"] in state.legal_actions()
    play(state, "hero dagda")
    assert state.phase == "discard"
    choices = [state.action_to_string(a) for a in state.legal_actions()]
    # interp. 3: the Explorers are topped by Idunn, a hero: no card of theirs can go (the top card only)
    assert choices == ["discard blacksmith", "discard miner", "discard warrior"]
    play(state, "discard miner")
    assert state.seats[0].army[MI] == [K["miner0"]]
    assert state.phase == "discard"
    assert "discard miner" not in [state.action_to_string(a) for a in state.legal_actions()]
    play(state, "discard warrior")
    assert state.seats[0].army[WA] == [K["warrior5"]]
    assert state.discard[K["miner0"]] == 1 and state.discard[K["warrior3"]] == 1


def test_dagda_bonfur_feasibility():
    """ "If that is impossible, you cannot choose Dagda or Bonfur"."""
    game, obj = dealt(2)
    # Only heroes outside the Hunters and the Blacksmiths: no Dwarf card to discard there.
    obj["seats"][0]["army"] = army([], ["hunter"], [30 + H["idunn"]], [30 + H["lokdur"]], [30 + H["tarah"]])
    for key in ("idunn", "lokdur", "tarah"):
        give_hero(obj, 0, key)
    obj["seats"][0]["army"][HU] = [K["hunter"]] * 4
    obj["seats"][0]["army"][EX] += [30 + H["hourya"]]
    give_hero(obj, 0, "hourya")
    for column in (MI, WA):
        obj["seats"][0]["army"][column] = [30 + (H["zoral"] if column == MI else H["kraal"])] + [
            obj["seats"][0]["army"][column][0]
        ]
    give_hero(obj, 0, "zoral")
    give_hero(obj, 0, "kraal")
    # Ranks: hunter 4, explorer 2, miner 4, warrior 3; heroes 6 (no line of 7 possible): use Bonfur's check.
    state = load(game, take_position(game, obj, ["blacksmith"] * 3, [["b5", "b2", "b3"], ["b4", "b0", "b3"]]))
    seat = state.seats[0]
    assert not any(seat.has_dwarf(j) for j in (EX, MI, WA))
    assert nid.DAGDA not in state._recruitable(0)  # only the Blacksmiths could lose a Dwarf
    assert nid.BONFUR in state._recruitable(0)  # the Hunters hold Dwarf cards
    seat.army[HU] = [30 + H["aral"]]
    assert nid.BONFUR not in state._recruitable(0)


def test_grid_transforms_seven():
    """Grid: "When you recruit her, immediately add +7 to one of your coins"."""
    game, obj = dealt(2)
    obj["seats"][0]["army"] = army([], ["hunter"], ["explorer5"], ["miner0"], ["warrior3"])
    obj = take_position(game, obj, ["blacksmith"] * 3, [["b5", "b2", "b3"], ["b4", "b0", "b3"]])
    state = load(game, obj)
    play(state, "take blacksmith", "hero grid")
    assert state.phase == "transform"
    play(state, "transform goblin")  # 5 + 7 = 12
    assert state.seats[0].bids[0] == C["t12"]
    # Grid 7; blacksmith 3, hunter 1, explorer 5, miner 0, warrior 3 + the majority's highest coin 12; coins.
    assert state.scores()[0] == 7 + 3 + 1 + 5 + 0 + 3 + 12 + (12 + 2 + 3 + 0 + 4)


def test_thrud_never_covered():
    """ "Thrud must never be covered — if a Dwarf or Hero would be placed on Thrud, take Thrud in hand, place
    the incoming card, and replace Thrud in a column of your choice (which may trigger a Hero
    recruitment)"."""
    game, obj = dealt(2)
    seat = obj["seats"][0]
    seat["army"] = army([], ["hunter"], ["explorer5"], ["miner0"], ["warrior3", nid.THRUD_ENTRY])
    seat["thrud"] = WA
    give_hero(obj, 0, "thrud")
    obj = take_position(game, obj, ["warrior4"] * 3, [["b5", "b2", "b3"], ["b4", "b0", "b3"]])
    state = load(game, obj)
    play(state, "take warrior4")
    assert state.phase == "thrud" and state.seats[0].thrud == nid.IN_HAND
    assert state.seats[0].army[WA] == [K["warrior3"], K["warrior4"]]
    assert state.legal_actions() == [nid.COLUMN + j for j in range(5)]
    play(state, "column blacksmith")  # her rank completes the second line: a hero follows
    assert state.seats[0].army[BS] == [nid.THRUD_ENTRY]
    assert state.phase == "take"  # lines 1 (warrior 2, the others 1), heroes 1: no second hero yet
    state = load(game, obj)
    play(state, "take warrior4", "column warrior")  # back on top of her column (interp. 6)
    assert state.seats[0].army[WA][-1] == nid.THRUD_ENTRY


def test_thrud_recruited_then_placed():
    """Thrud: "place her in the column of your choice in your army"; "Her rank counts for Age 1 Distinctions"
    and she "adds 13 points"; her rank counts nowhere at the end (she is "placed in the Command Zone")."""
    game, obj = dealt(2)
    obj["seats"][0]["army"] = army([], ["hunter"], ["explorer5"], ["miner0"], ["warrior3"])
    obj = take_position(game, obj, ["blacksmith"] * 3, [["b5", "b2", "b3"], ["b4", "b0", "b3"]])
    state = load(game, obj)
    play(state, "take blacksmith", "hero thrud")
    assert state.phase == "thrud"
    play(state, "column hunter")
    assert state.seats[0].ranks(HU) == 2
    assert state.seats[0].ranks(HU, with_thrud=False) == 1
    # Thrud 13; her rank does not score: hunters 1 (not 4), blacksmith 3, explorer 5, warrior 3 + coin 5.
    assert state.bravery(0) == 13 + 1 + 3 + 5 + 0 + 3 + 5 + 14


def _end_of_age_position(age: int, ylud_place: int) -> tuple[nid.NidavellirGame, dict]:
    """The last take of the last turn of ``age`` (2 players), seat 1 to take at the Shining Horse; seat 0 owns
    Ylud at ``ylud_place``."""
    game, obj = dealt(2)
    obj["decks"][0] = [0] * 23
    if age == 2:
        obj["decks"][1] = [0] * 23
        obj["distinctions"] = [-1] * 5
    obj["age"] = age
    obj["turn"] = game.turns_per_age - 1
    give_hero(obj, 0, "ylud")
    seat = obj["seats"][0]
    seat["ylud"] = ylud_place
    seat["army"] = army([], ["hunter"], [], [], ["warrior3"])
    if 0 <= ylud_place < 5:
        seat["army"][ylud_place].append(nid.YLUD_ENTRY)
    obj = take_position(game, obj, ["miner1", "miner2"], [["b5", "b2", "b3"], ["b4", "b0", "b2"]], tavern=2)
    obj["order_pos"] = 1
    obj["discard"][K["miner0"]] = 1
    return game, obj


def test_ylud_end_of_age_one():
    """Ylud: "If recruited in Age 1, just after the last tavern of Age 1 but before Troop Evaluation, place
    Ylud in the column of your choice in your army; her rank counts as a card of that class for
    Distinctions"."""
    game, obj = _end_of_age_position(1, nid.COMMAND_ZONE)
    state = load(game, obj)
    play(state, "take miner1")
    assert state.phase == "ylud" and state.current_player() == 0
    assert state.distinctions == [nid.NOT_AWARDED] * 5
    assert state.discard[K["miner2"]] == 1  # the 2-player leftover
    play(state, "column miner")  # seat 1 holds one miner: a tie without her
    assert state.seats[0].ylud == MI
    # Warrior: seat 0 (3 vs 0) -> the King's Hand, a transform first.
    assert state.phase == "transform" and state.distinctions[0] == 0
    play(state, "transform b5")
    # Hunter: seat 0; miner: tie 1-1 -> nobody; blacksmith: 0-0 -> nobody; explorer: 0-0 -> nobody (burn).
    assert state.distinctions == [0, 0, nid.NOBODY, nid.NOBODY, nid.NOBODY]
    assert state.phase == "pioneer_burn"


def test_ylud_end_of_age_two_moves():
    """Ylud: "Just after the last tavern of Age 2 but before counting Bravery Values: if she is in your
    Command Zone, place her in a column of your choice; if she is in your army you may leave her or move her
    to another column. ... (Explorer 11, Warrior 7, Miner 1)"."""
    game, obj = _end_of_age_position(2, HU)
    state = load(game, obj)
    play(state, "take miner1")
    assert state.phase == "ylud"
    before = state.bravery(0)
    play(state, "column explorer")
    assert state.is_terminal()
    assert state.seats[0].army[HU] == [K["hunter"]] and state.seats[0].army[EX] == [nid.YLUD_ENTRY]
    assert state.bravery(0) == before - 4 + 1 + 11  # hunters 2 ranks (4) -> 1 (1); explorer 11
    state = load(game, obj)
    play(state, "take miner1", "column hunter")  # she stays
    assert state.is_terminal() and state.seats[0].army[HU] == [K["hunter"], nid.YLUD_ENTRY]


def test_uline_bids_at_reveal_and_chooses_trade():
    """Uline: "during bidding you do NOT place coins on your board ... At Taverns Resolution, wait for the
    other Elvalands to reveal, then place yours on the corresponding Tavern location face up"; "During a coin
    trade you choose ... which coins from your hand you add up"."""
    game, obj = dealt(2)
    give_hero(obj, 1, "uline")
    state = load(game, obj)
    fill(state)
    assert state.uline_bidder == 1
    play(state, "bid b5", "bid b4", "bid b3")
    assert state.phase == "uline_bid" and state.current_player() == 1 and state.tavern == 0
    play(state, "bid b0")
    assert state.order == [0, 1]
    play(state, "take blacksmith", "take blacksmith")
    assert state.phase == "uline_trade" and state.current_player() == 1
    assert [state.action_to_string(a) for a in state.legal_actions()] == [
        "sum b2",
        "sum b3",
        "sum b4",
        "sum b5",
    ]
    play(state, "sum b5", "sum b4")
    assert state.seats[1].hand == [C["b2"], C["b3"], C["b4"], C["t9"]]
    assert state.phase == "uline_bid"  # the Dancing Dragon


def test_first_game_leaves_out_three_heroes():
    """ "the designer advises not playing with the Heroes Thrud the Headhunter, Ylud the Unpredictable, and
    Uline the Seer"."""
    state = make(2, first_game=True).new_initial_state()
    assert [state.heroes_left[H[k]] for k in ("thrud", "ylud", "uline", "dwerg")] == [0, 0, 0, 5]


# --- Distinctions -------------------------------------------------------------------------------------------


def _troop_evaluation(armies: list[list[list[str | int]]]) -> tuple[nid.NidavellirGame, dict]:
    """Seat 0 about to place Ylud before the Troop Evaluation, with the armies given."""
    game, obj = _end_of_age_position(1, nid.COMMAND_ZONE)
    obj = take_position(game, obj, [], [["-"] * 3, ["-"] * 3], tavern=0)
    for s in range(2):
        obj["seats"][s]["bids"] = [-1, -1, -1]
        obj["seats"][s]["hand"] = [0, 1, 2, 3, 4]
        obj["seats"][s]["army"] = army(*armies[s])
    obj.update(tavern=-1, revealed=0, bid_start=-1, order=[], order_pos=0, reveal=[-1, -1], phase="ylud")
    obj["taverns"] = [[0] * 23 for _ in range(3)]  # the Age's last turn is over
    obj["queue"] = (
        [["ylud", 0, 0]] + [["distinction", -1, j] for j in (WA, HU, MI, BS, EX)] + [["age2", -1, 0]]
    )
    return game, obj


def test_each_distinction_and_ties_give_nobody():
    """ "The Elvaland with the strict majority of ranks in each class wins the corresponding Distinction. On a
    tie, no one takes that Distinction (gems do NOT break ties here)"."""
    game, obj = _troop_evaluation(
        [
            [["blacksmith"], ["hunter", "hunter"], ["explorer5"], [], ["warrior3", "warrior4"]],
            [["blacksmith", "blacksmith"], ["hunter"], ["explorer6"], ["miner0"], ["warrior5"]],
        ]
    )
    state = load(game, obj)
    play(state, "column explorer")  # Ylud makes the Explorers 2 against 1
    assert state.distinctions[0] == 0 and state.phase == "transform"  # King's Hand: +5
    play(state, "transform b5")
    assert C["t10"] in state.seats[0].hand
    assert state.distinctions[1] == 0  # Hunting Master
    assert C["b0"] not in state.seats[0].hand and C["s3"] in state.seats[0].hand
    assert state.distinctions[2] == 1 and state.seats[1].gem == 6  # Crown Jeweler
    assert state.distinctions[3] == 1  # King's Great Armorer
    assert state.seats[1].army[BS][-1] == nid.SPECIAL_BLACKSMITH and state.seats[1].ranks(BS) == 4
    # Its two ranks complete seat 1's first line: a hero before the Explorers are counted (interp. 2).
    assert state.phase == "hero" and state.current_player() == 1 and state.distinctions[4] == nid.NOT_AWARDED
    play(state, "hero skaa")
    assert state.distinctions[4] == 0 and state.phase == "pioneer_draw"  # Pioneer of the Kingdom
    game, obj = _troop_evaluation([[["blacksmith"], [], [], [], []], [["blacksmith"], [], [], [], []]])
    state = load(game, obj)
    play(state, "column hunter")
    assert state.distinctions == [nid.NOBODY, 0, nid.NOBODY, nid.NOBODY, nid.NOBODY]
    assert state.phase == "pioneer_burn"
    play(state, "card warrior7")
    assert state.discard[K["warrior7"]] == 1 and state.age == 2 and state.phase == "fill"


def test_armorer_card_can_recruit():
    """King's Great Armorer: "immediately add the special Blacksmith card (worth 2 ranks) to your army. This
    may trigger a Hero recruitment"."""
    game, obj = _troop_evaluation(
        [
            [["blacksmith"], ["hunter"] * 2, ["explorer5", "explorer6"], ["miner0"] * 2, ["warrior3"] * 2],
            [[], [], [], [], []],
        ]
    )
    state = load(game, obj)  # Ylud is seat 0's one hero: lines 1
    play(state, "column hunter")
    play(state, "transform b5")  # King's Hand to seat 0
    assert state.distinctions[3] == 0 and state.phase == "hero"


def test_pioneer_keeps_one():
    """Pioneer: "draw 3 cards from the Age 2 deck and keep 1. If it is a Dwarf, place it in your army
    immediately ...; Shuffle the two unkept cards back into the Age 2 deck"; the draws are private (interp.
    8)."""
    game, obj = _troop_evaluation(
        [[[], [], ["explorer5"], [], []], [[], [], [], [], []]],
    )
    state = load(game, obj)
    play(state, "column warrior", "transform b5")
    assert state.phase == "pioneer_draw"
    deck_before = list(state.decks[1])
    start = len(state.history())
    play(state, "card explorer11", "card offering5", "card hunter")
    assert state.phase == "pioneer_keep" and state.current_player() == 0
    assert state.information_state_string(1).endswith("?,?,?")
    assert not state.information_state_string(0).endswith("?")
    assert state.pioneer_at == start
    assert np.array_equal(state.observation_tensor(1)[202:225], np.zeros(23))
    twin = state.resample_from_infostate(1, oracle.Rng(5))
    assert np.array_equal(twin.observation_tensor(1), state.observation_tensor(1))
    play(state, "keep explorer11")
    assert state.seats[0].army[EX][-1] == K["explorer11"]
    deck_before[K["explorer11"]] -= 1
    assert state.decks[1] == deck_before
    assert state.age == 2


def test_pioneer_keeps_an_offering():
    """ "if it is a Royal Offering, transform one of your coins"."""
    game, obj = _troop_evaluation([[[], [], ["explorer5"], [], []], [[], [], [], [], []]])
    state = load(game, obj)
    play(
        state,
        "column warrior",
        "transform b5",
        "card offering5",
        "card hunter",
        "card hunter",
        "keep offering5",
    )
    assert state.phase == "transform" and state.queue[0] == ["transform", 0, 5]


# --- Final scoring -----------------------------------------------------------------------------------------


def _over(armies: list[list[list[str | int]]], **params: object) -> tuple[nid.NidavellirGame, dict]:
    game, obj = dealt(2, **params)
    for s in range(2):
        obj["seats"][s]["army"] = army(*armies[s])
    obj.update(phase="over", age=2, turn=game.turns_per_age - 1, distinctions=[-1] * 5)
    obj["decks"] = [[0] * 23, [0] * 23]
    return game, obj


def test_final_scoring_classes():
    """ "Hunters: the number of Hunters squared"; "Miners: the sum of their Bravery Points multiplied by the
    number of ranks"; "Blacksmiths: a mathematical sequence (+3, +4, +5, +6, …)"; "Explorers: the sum of their
    Bravery Points"."""
    game, obj = _over(
        [
            [
                ["blacksmith"] * 3,
                ["hunter"] * 3,
                ["explorer5", "explorer7"],
                ["miner2", "miner1", "miner0"],
                [],
            ],
            [[], [], [], [], []],
        ]
    )
    state = load(game, obj)
    coins = 0 + 2 + 3 + 4 + 5
    assert state.bravery(0) == 12 + 9 + 12 + 9 + coins  # 3 + 4 + 5; 3²; 5 + 7; (2 + 1 + 0) × 3
    assert state.bravery(1) == coins
    assert state.returns() == [1.0, 0.0]
    assert [3 * (3 + 5) // 2, 25 * 30 // 2] == [12, 375]  # the board's reference: rank 25 = 375


def test_warrior_bonus_with_ties():
    """ "The Elvaland with the strict majority of ranks in the Warrior column also adds their highest-value
    coin to their Warrior Bravery Value. On a tie for the majority, every tied Elvaland adds their
    highest-value coin"."""
    game, obj = _over([[[], [], [], [], ["warrior3"]], [[], [], [], [], ["warrior10"]]])
    state = load(game, obj)
    assert state.scores() == [14 + 3 + 5, 14 + 10 + 5]
    game, obj = _over([[[], [], [], [], ["warrior3", "warrior3"]], [[], [], [], [], ["warrior10"]]])
    state = load(game, obj)
    assert state.scores() == [14 + 6 + 5, 14 + 10]


def test_warrior_bonus_at_zero():
    """Interp. 1: with nobody holding a Warrior there is no majority ("warrior_bonus_at_zero" false); true
    gives everybody their highest coin."""
    game, obj = _over([[[], [], [], [], []], [[], [], [], [], []]])
    assert load(game, obj).scores() == [14.0, 14.0]
    game, obj = _over([[[], [], [], [], []], [[], [], [], [], []]], warrior_bonus_at_zero=True)
    assert load(game, obj).scores() == [19.0, 19.0]


def test_shared_win():
    """ "On a tie, the tied Elvalands share the victory and face Fafnir together"."""
    game, obj = _over([[[], [], [], [], []], [[], [], [], [], []]])
    assert load(game, obj).returns() == [0.5, 0.5]
    obj["phase"] = "fill"
    obj["age"] = 1
    obj["turn"] = 0
    obj["distinctions"] = [nid.NOT_AWARDED] * 5
    obj["decks"] = [list(counts) for counts in game.deck_counts]
    assert load(game, obj).returns() == [0.0, 0.0]


def test_idunn_dwerg_astrid_gem_six():
    """Idunn: "add 7 points ... plus 2 points per rank present in the column, including her own"; Dwerg "1→13,
    2→40, 3→81, 4→108, 5→135"; Astrid "the value of the largest coin you own"; gem 6 "adds 3 points"."""
    game, obj = _over([[[], [], ["explorer5", 30 + H["idunn"]], [], []], [[], [], [], [], []]])
    give_hero(obj, 0, "idunn")
    give_hero(obj, 1, "dwerg", 3)
    give_hero(obj, 1, "astrid")
    obj["seats"][1]["gem"] = 6
    state = load(game, obj)
    assert state.bravery(0) == 5 + 7 + 2 * 2 + 14
    assert state.bravery(1) == 81 + 5 + 14 + 3
    for brothers, points in enumerate((0, 13, 40, 81, 108, 135)):
        assert nid.DWERG_POINTS[brothers] == points


def test_ylud_points_by_column_and_thrud_rank_nowhere():
    """Ylud takes "that column's value (Blacksmith/Hunter by placement level; Explorer 11, Warrior 7, Miner
    1)"; Thrud "adds 13 points" (her rank counts nowhere at the end)."""
    game, obj = _over([[["blacksmith", nid.YLUD_ENTRY], [], [], [], []], [[], [], [], [], []]])
    give_hero(obj, 0, "ylud")
    give_hero(obj, 1, "thrud")
    obj["seats"][0]["ylud"] = BS
    obj["seats"][1]["thrud"] = nid.COMMAND_ZONE
    state = load(game, obj)
    assert state.bravery(0) == 7 + 14  # 2 blacksmith ranks: 3 + 4
    assert state.bravery(1) == 13 + 14


# --- Serialization and notation ----------------------------------------------------------------------------


def test_round_trip_through_a_whole_game():
    """§8: ``deserialize_state(serialize())`` gives the same state at every step."""
    game = make(3)
    state = game.new_initial_state()
    rng = oracle.Rng(11)
    while not state.is_terminal():
        text = state.serialize()
        again = game.deserialize_state(text)
        assert again.serialize() == text and again.legal_actions() == state.legal_actions()
        state.random_step(rng)
    assert game.deserialize_state(state.serialize()) == state
    assert len(state.history()) <= game.max_game_length()


@pytest.mark.parametrize(
    "change",
    [
        lambda o: o.pop("turn"),
        lambda o: o.update(extra=1),
        lambda o: o.update(game="lineit"),
        lambda o: o.update(version=2),
        lambda o: o.update(age=True),
        lambda o: o["params"].update(players=3),
        lambda o: o["seats"][0]["hand"].pop(),
        lambda o: o["seats"][0]["hand"].reverse(),
        lambda o: o["seats"][0].update(hand=[0, 1, 2, 3, 3]),
        lambda o: o["heroes_left"].__setitem__(0, 0),
        lambda o: o["seats"][0].update(thrud=2),
        lambda o: o["seats"][0]["army"][0].append(25),
        lambda o: o.update(phase="bid"),
        lambda o: o.update(phase="party"),
        lambda o: o.update(queue=[["recruit", 0, 0]]),
        lambda o: o.update(queue=[["dance", 0, 0]]),
        lambda o: o.update(current=1),
        lambda o: o["treasure"].__setitem__(0, 3),
        lambda o: o["decks"][0].__setitem__(0, -1),
    ],
)
def test_deserialize_refuses(change):
    """§8: "refuses with InvalidStateError" the malformed and the inconsistent."""
    game, obj = dealt(2)
    game.deserialize_state(json.dumps(obj))
    change(obj)
    with pytest.raises(InvalidStateError):
        game.deserialize_state(json.dumps(obj))


def test_deserialize_refuses_duplicate_keys_and_junk():
    """§8: "a key missing, extra or given twice (at any level)"."""
    game, obj = dealt(2)
    text = json.dumps(obj)
    with pytest.raises(InvalidStateError):
        game.deserialize_state(text[:-1] + ',"age":1}')
    for junk in ("", "[]", "{", "null", 3):
        with pytest.raises(InvalidStateError):
            game.deserialize_state(junk)


def test_notation():
    """§6: the canonical texts, read back relaxed (case and white space)."""
    game, obj = dealt(2)
    state = load(game, obj)
    assert state.action_to_string(K["warrior7"]) == "card warrior7"
    assert state.string_to_action("  CARD   Warrior7 ") == K["warrior7"]
    assert state.string_to_action("warrior7") == K["warrior7"]
    with pytest.raises(InvalidNotationError):
        state.string_to_action("take warrior7")
    with pytest.raises(IllegalActionError):
        state.action_to_string(23)
    decision = load(game, take_position(game, obj, ["hunter"] * 3, [["b5", "b2", "b3"], ["b4", "b0", "b3"]]))
    texts = {
        0: "bid b0",
        5: "bid s3",
        26: "bid t25",
        27: "take blacksmith",
        49: "take offering5",
        50: "transform goblin",
        52: "transform horse",
        53: "transform b0",
        80: "hero kraal",
        96: "hero thrud",
        97: "column blacksmith",
        101: "column warrior",
        102: "discard blacksmith",
        107: "keep blacksmith",
        129: "keep offering5",
        130: "sum b0",
        156: "sum t25",
    }
    for action, text in texts.items():
        assert decision.action_to_string(action) == text
        assert decision.string_to_action(text.upper()) == action
    with pytest.raises(IllegalActionError):
        decision.action_to_string(157)
    with pytest.raises(InvalidNotationError):
        decision.string_to_action("bid b1")
    gems = make(2).new_initial_state()
    assert gems.action_to_string(5) == "gem 5" and gems.string_to_action("Gem 4") == 4
    with pytest.raises(IllegalActionError):
        gems.action_to_string(0)


def test_parameters():
    """§1: unknown keys, wrong types and values out of range raise InvalidStateError."""
    assert make(2).params == {"first_game": False, "players": 2, "warrior_bonus_at_zero": False}
    for bad in ({"players": 1}, {"players": 6}, {"players": True}, {"first_game": 1}, {"colour": "red"}):
        with pytest.raises(InvalidStateError):
            oracle.make("nidavellir", **bad)
    assert [make(n).max_game_length() for n in (2, 3, 4, 5)] == [453, 550, 533, 624]
    assert [make(n).observation_shape() for n in (2, 5)] == [(657,), (1305,)]


def test_random_games_finish():
    """Whole random games for 2..5 players, with and without the first-game heroes, end within
    max_game_length()."""
    for players in (2, 3, 4, 5):
        for first_game in (False, True):
            game = make(players, first_game=first_game)
            for seed in range(2):
                state = oracle.play_random(game, seed)
                assert state.is_terminal() and len(state.history()) <= game.max_game_length()
                assert abs(sum(state.returns()) - 1.0) < 1e-9
