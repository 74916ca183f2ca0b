"""Nidavellir blind scenarios: positions and outcomes written from the rulebook, the game-help page and the
facts only, by a colleague who had read neither the contract nor the code.

The scenarios are kept in the colleague's words in ``tests/blind/nidavellir.md`` (N01 .. N39); each test here
is one of them (or one part of one), run on both engines through the ``engine`` fixture. A position is reached
by legal play (the gem deal, the tavern cards, the bids, the takes, by their notation) up to the phase the
scenario needs, and only then are the armies, coins, heroes or gems the scenario names written into the
serialized state (``nid_positions.edit``), so that the deserializer's reachability checks
(docs/rules/nidavellir.md §8, §9 item 20) hold. The blind file's notation maps onto the contract's (§2, §6):
``b`` coins are ``b0`` .. ``b5``, ``T`` coins ``t5`` .. ``t25``, ``S3`` is ``s3``; LG, DD and SH are the
taverns ``goblin``, ``dragon`` and ``horse``; W7 is the kind ``warrior7``, B ``blacksmith``, and so on. Each
docstring quotes the scenario's expected outcome; the outcome asserted is the scenario's, never the code's."""

from __future__ import annotations

import pytest

import meeplex
import meeplex.oracle
from meeplex.errors import IllegalActionError
from meeplex.games import nidavellir as nid
from nid_positions import (
    COMMAND_ZONE,
    SPECIAL_BLACKSMITH,
    THRUD,
    THRUD_IN_HAND,
    YLUD,
    act,
    bid,
    data_of,
    edit,
    fill,
    give_hero,
    set_army,
    set_coins,
    start,
    texts,
)

TURNS = {2: 4, 3: 4, 4: 3, 5: 3}
CARDS = {2: 3, 3: 3, 4: 4, 5: 5}
BS, HU, EX, MI, WA = range(5)  # the contract's column order (§2)

# Filler cards for a tavern the scenario leaves open: few enough of each kind for three taverns of one turn.
FILLER = (
    ["blacksmith", "blacksmith", "hunter", "miner0", "explorer5"],
    ["blacksmith", "hunter", "blacksmith", "miner1", "explorer6"],
    ["blacksmith", "hunter", "blacksmith", "miner2", "explorer7"],
)


@pytest.fixture(autouse=True)
def _has_game(engine):
    registry = meeplex.games() if engine.name == "rust" else meeplex.oracle.games()
    if "nidavellir" not in registry:
        pytest.skip(f"the {engine.name} engine has no nidavellir")


# --- Helpers ------------------------------------------------------------------------------------------------


def c(key: str) -> int:
    return nid.coin(key)


def k(key: str) -> int:
    return nid.kind(key)


def hero_entry(key: str) -> int:
    return 30 + nid.HEROES.index(key)


def counts(kinds) -> list[int]:
    out = [0] * 23
    for key in kinds:
        out[k(key)] += 1
    return out


def taverns_for(n: int, given) -> list[list[str]]:
    """Three taverns of c cards: the scenario's, the rest filler."""
    out = []
    for t in range(3):
        cards = list(given[t]) if t < len(given) and given[t] is not None else FILLER[t][: CARDS[n]]
        assert len(cards) == CARDS[n]
        out.append(cards)
    return out


def treasure(data, value: int) -> int:
    return data["treasure"][value - 5]


def owned(data, seat: int) -> list[int]:
    me = data["seats"][seat]
    return sorted(me["hand"] + [x for x in me["bids"] if x != -1])


def gems(state) -> list[int]:
    return [seat["gem"] for seat in data_of(state)["seats"]]


def turn_of(engine, n, given=(), bids=(), gem_deal=None, age=1, before_fill=None, before_bids=None):
    """A turn at its first take: the gems dealt, ``age`` set (Age II: the Age I deck spent, the distinctions
    given to nobody unless ``before_fill`` says otherwise), the taverns filled (the scenario's cards, the rest
    filler), ``before_bids`` applied to the state, then every seat's three bids (goblin, dragon, horse)."""
    state = start(engine, n, gem_deal)

    def setup(data):
        if age == 2:
            data["age"] = 2
            data["decks"][0] = [0] * 23
            data["distinctions"] = [-1] * 5
        if before_fill is not None:
            before_fill(data)

    if age == 2 or before_fill is not None:
        state = edit(state, setup)
    fill(state, *taverns_for(n, given))
    if before_bids is not None:
        state = edit(state, before_bids)
    return bid(state, *bids)


def take_all(state, picks=None):
    """Every seat of the current tavern takes (``picks``: seat -> kind, else the first card offered), up to
    the next tavern or the end of the turn."""
    tavern = data_of(state)["tavern"]
    while (
        not state.is_terminal() and data_of(state)["phase"] == "take" and data_of(state)["tavern"] == tavern
    ):
        seat = state.current_player()
        kind = (picks or {}).get(seat)
        act(state, f"take {kind}" if kind else texts(state)[0])
    return state


def columns(**cols):
    """Keyword columns (``warrior="warrior9 warrior8"``) as set_army's lists."""
    return {name: value.split() if isinstance(value, str) else list(value) for name, value in cols.items()}


def last_take(
    engine, n, age, armies, *, last, gem_set=None, coins=None, cz=None, distinctions=None, extra=None
):
    """The last take of the last turn of ``age``, then the take: the turn's other cards are taken through
    legal play, then the armies (``armies``: seat -> set_army columns, every other column empty), the coins
    (seat -> its five coins), the Command Zone heroes (seat -> keys), the gems and ``extra`` are written, and
    ``last``'s top Dwarf card of its first column that has one is left in the Shining Horse for it to take,
    which ends the Age."""
    t_last = TURNS[n] - 1
    cards = taverns_for(n, ())

    def setup(data):
        data["turn"] = t_last
        if age == 2:
            data["age"] = 2
            data["decks"][0] = [0] * 23
            data["distinctions"] = list(distinctions) if distinctions else [-1] * 5
        data["decks"][age - 1] = counts(sum(cards, []))

    state = edit(start(engine, n), setup)
    fill(state, *cards)
    # Distinct Shining Horse values, ``last`` lowest; no 0 bid (no coin trade).
    ranking = [s for s in range(n) if s != last] + [last]
    per_seat = {}
    for place, s in enumerate(ranking):
        horse = ["b5", "b4", "b3", "b2"][place]
        rest = [x for x in ("b2", "b3", "b4", "b5") if x != horse]
        per_seat[s] = [rest[0], rest[1], horse]
    bid(state, *[per_seat[s] for s in range(n)])
    while not (data_of(state)["tavern"] == 2 and data_of(state)["order_pos"] == n - 1):
        act(state, texts(state)[0])
    card = {}

    def position(data):
        for s in range(n):
            data["seats"][s]["army"] = [[], [], [], [], []]
        for s, cols in armies.items():
            set_army(data, s, **columns(**cols))
        army = data["seats"][last]["army"]
        j = next(j for j in range(5) if army[j] and army[j][-1] < 21)
        card["kind"] = nid.KINDS[army[j].pop()]
        data["taverns"][2] = counts([card["kind"]] + ["blacksmith"] * (CARDS[n] - n))
        for s, keys in (cz or {}).items():
            for key in keys:
                give_hero(data, s, key)
        for s, five in (coins or {}).items():
            plain = [x for x in five if x not in ("b0", "s3")]
            set_coins(data, s, [x for x in five if x not in plain[:3]], plain[:3])
        for s, gem in (gem_set or {}).items():
            data["seats"][s]["gem"] = gem
        if extra is not None:
            extra(data)

    state = edit(state, position)
    assert state.current_player() == last
    return act(state, f"take {card['kind']}")


def final(engine, n, setup):
    """A finished game (phase ``over`` after Age II), with ``setup`` writing the armies, heroes and coins."""

    def change(data):
        data.update(phase="over", age=2, turn=TURNS[n] - 1, distinctions=[-1] * 5)
        data["decks"] = [[0] * 23, [0] * 23]
        setup(data)

    state = edit(start(engine, n), change)
    assert state.is_terminal()
    return state


def chance_text(state) -> str:
    return state.action_to_string(state.legal_actions()[0])


# --- A. Turn structure, bid order, gems ---------------------------------------------------------------------


def test_n01_bid_order_by_coin_value_and_tavern_order(engine):
    """N01: "Only the LG coins are revealed. The DD and SH coins stay face down." "The order is seat 1 (5),
    seat 3 (4), seat 0 (3), seat 2 (0). Each seat takes one card, and seat 2 takes the last card left." "the
    gems stay 2/3/4/5." "Seat 2 played 0b, so ... 4b + 5b = 9. The 5b goes to the box and seat 2 takes a 9T,
    so the Treasure's 9s drop from 3 to 2. Seat 2's pouch is now 4b, 9T ... The 0b stays on LG." "The Dancing
    Dragon is resolved next, then the Shining Horse.\""""
    state = turn_of(
        engine,
        4,
        [["warrior7", "explorer10", "miner2", "blacksmith"]],
        [["b3", "b2", "b4"], ["b5", "b0", "b2"], ["b0", "b2", "b3"], ["b4", "b5", "b0"]],
        gem_deal=[2, 3, 4, 5],
    )
    data = data_of(state)
    assert (data["tavern"], data["revealed"]) == (0, 1)
    assert data["order"] == [1, 3, 0, 2]
    # Seat 0 sees the other three bidders' goblin coins, but not their dragon and horse coins.
    assert state.information_state_string(0).split("history=")[1].split(",").count("?") == 6
    for seat, card in ((1, "warrior7"), (3, "explorer10"), (0, "miner2")):
        assert state.current_player() == seat
        act(state, f"take {card}")
    assert state.current_player() == 2 and texts(state) == ["take blacksmith"]
    act(state, "take blacksmith")
    data = data_of(state)
    assert gems(state) == [2, 3, 4, 5]
    assert data["seats"][2]["hand"] == sorted([c("b4"), c("t9")])
    assert treasure(data, 9) == 2
    assert data["seats"][2]["bids"][0] == c("b0")
    assert (data["tavern"], data["revealed"], data["phase"]) == (1, 2, "take")
    take_all(state)
    assert (data_of(state)["tavern"], data_of(state)["revealed"]) == (2, 3)


def test_n02_tie_broken_by_gems_and_traded_gems_apply_next_tavern(engine):
    """N02: "LG: seat 0 and seat 1 tie on 4. Seat 1 acts first (gem 5 beats gem 3), then seat 0, then seat 2.
    At the end of LG ... seat 0 now has gem 5 and seat 1 has gem 3. Seat 2 keeps gem 4." "DD: seat 2 acts
    first (5). ... seat 0 now goes before seat 1 ... At the end of DD they trade again: seat 0 has gem 3 and
    seat 1 has gem 5.\""""
    state = turn_of(
        engine, 3, (), [["b4", "b3", "b5"], ["b4", "b3", "b2"], ["b2", "b5", "b3"]], gem_deal=[3, 5, 4]
    )
    assert data_of(state)["order"] == [1, 0, 2]
    take_all(state)
    assert gems(state) == [5, 3, 4]
    assert data_of(state)["order"] == [2, 0, 1]
    take_all(state)
    assert gems(state) == [3, 5, 4]


def _gem_six(data, seat, distinctions=None):
    data["seats"][seat]["gem"] = 6
    data["distinctions"] = [-1, -1, seat, -1, -1]


def test_n03a_gem_six_wins_the_tie_with_no_trade(engine):
    """N03 (a): "The order is seat 0 (gem 6 wins), seat 1, seat 2. There is no gem trade ... Seat 1 keeps gem
    5." "Seat 0 keeps gem 6." (The gem under gem 6 is not modelled: the seat's gem is 6.)"""
    state = turn_of(
        engine,
        3,
        (),
        [["b5", "b4", "b3"], ["b5", "b4", "b2"], ["b2", "b4", "b5"]],
        gem_deal=[3, 5, 4],
        age=2,
        before_fill=lambda d: _gem_six(d, 0),
    )
    assert data_of(state)["order"] == [0, 1, 2]
    take_all(state)
    assert gems(state)[:2] == [6, 5]


def test_n03b_gem_six_left_out_of_a_tie_of_three(engine):
    """N03 (b): "The order is seat 0 (gem 6), seat 1 (gem 5), seat 2 (gem 4). The tie counts as a tie of 2
    without seat 0, so seat 1 and seat 2 trade: seat 1 has gem 4 and seat 2 has gem 5." "Seat 0 keeps gem
    6.\""""
    state = turn_of(
        engine,
        3,
        (),
        [["b5", "b4", "b3"], ["b3", "b4", "b2"], ["b2", "b4", "b5"]],
        gem_deal=[3, 5, 4],
        age=2,
        before_fill=lambda d: _gem_six(d, 0),
    )
    take_all(state)
    assert data_of(state)["order"] == [0, 1, 2]
    take_all(state)
    assert gems(state) == [6, 4, 5]


def test_n04_tie_of_three_middle_gem_stays_and_coin_trade(engine):
    """N04: "The order is seat 1 (5), then seat 4 (3, gem 5), seat 2 (3, gem 3), seat 0 (3, gem 1), then seat
    3 (0)." "Seat 3 makes a coin trade: 2b + 4b = 6. The 4b goes to the box and seat 3 takes a 6T. Its pouch
    is 2b, 6T." "Seat 0 gets gem 5 and seat 4 gets gem 1. Seat 2 keeps gem 3.\""""
    state = turn_of(
        engine,
        5,
        (),
        [["b3", "b2", "b4"], ["b5", "b2", "b3"], ["b3", "b4", "b5"], ["b0", "b3", "b5"], ["b3", "b5", "b4"]],
        gem_deal=[1, 2, 3, 4, 5],
    )
    assert data_of(state)["order"] == [1, 4, 2, 0, 3]
    take_all(state)
    data = data_of(state)
    assert data["seats"][3]["hand"] == sorted([c("b2"), c("t6")])
    assert c("b4") not in owned(data, 3)
    assert gems(state) == [5, 2, 3, 4, 1]


def test_n05a_tie_of_four(engine):
    """N05 (a): "The order is seat 3, seat 2, seat 1, seat 0. ... 2↔5 and 3↔4. The result is seat 0 gem 5,
    seat 1 gem 4, seat 2 gem 3, seat 3 gem 2.\""""
    state = turn_of(
        engine,
        4,
        (),
        [["b0", "b4", "b2"], ["b2", "b4", "b3"], ["b3", "b4", "b5"], ["b5", "b4", "b3"]],
        gem_deal=[2, 3, 4, 5],
    )
    take_all(state)
    assert gems(state) == [2, 3, 4, 5]  # the goblin had no tie
    assert data_of(state)["order"] == [3, 2, 1, 0]
    take_all(state)
    assert gems(state) == [5, 4, 3, 2]


def test_n05b_tie_of_five(engine):
    """N05 (b): "The order is seat 4, seat 3, seat 2, seat 1, seat 0. The swaps are 1↔5 and 2↔4, and gem 3
    stays. The result is seat 0 gem 5, seat 1 gem 4, seat 2 gem 3, seat 3 gem 2, seat 4 gem 1.\""""

    def distinct_coins(data):  # so that the goblin and the dragon have no tie
        set_coins(data, 2, ["b0", "b2", "b3", "b5", "t8"])
        set_coins(data, 3, ["b0", "b2", "b3", "t6", "t9"])
        set_coins(data, 4, ["b0", "b2", "b3", "t7", "t10"])

    state = turn_of(
        engine,
        5,
        (),
        [["b3", "b4", "b2"], ["b4", "b5", "b2"], ["b5", "t8", "b2"], ["t6", "t9", "b2"], ["t7", "t10", "b2"]],
        gem_deal=[1, 2, 3, 4, 5],
        before_bids=distinct_coins,
    )
    take_all(state)
    take_all(state)
    assert gems(state) == [1, 2, 3, 4, 5]
    assert data_of(state)["order"] == [4, 3, 2, 1, 0]
    take_all(state)
    assert gems(state) == [5, 4, 3, 2, 1]


def test_n06a_gem_six_in_a_tie_of_four(engine):
    """N06 (a): "The order is seat 0, seat 4, seat 3, seat 1, seat 2. Without seat 0, three tied seats
    remain, with gems 2, 4 and 5 ... seat 1 gets gem 5 and seat 4 gets gem 2. Seat 3 keeps gem 4." "Seat 0
    keeps gem 6.\""""
    state = turn_of(
        engine,
        5,
        (),
        [["b5", "b4", "b3"], ["b5", "b3", "b4"], ["b2", "b5", "b4"], ["b5", "b2", "b3"], ["b5", "b0", "b2"]],
        gem_deal=[1, 2, 3, 4, 5],
        age=2,
        before_fill=lambda d: _gem_six(d, 0),
    )
    assert data_of(state)["order"] == [0, 4, 3, 1, 2]
    take_all(state)
    assert gems(state) == [6, 5, 3, 4, 2]


def test_n06b_gem_six_in_a_tie_of_five(engine):
    """N06 (b): "The order is seat 0, then seats 4, 3, 2, 1. Four seats remain, with gems 2, 3, 4 and 5, and
    they trade as a tie of 4: 2↔5 and 3↔4. The result is seat 1 gem 5, seat 2 gem 4, seat 3 gem 3, seat 4
    gem 2." "Seat 0 keeps gem 6.\""""

    def setup(data):
        _gem_six(data, 0)
        set_coins(data, 4, ["b0", "b2", "b3", "b4", "t6"])

    state = turn_of(
        engine,
        5,
        (),
        [["b0", "b4", "b5"], ["b2", "b4", "b5"], ["b3", "b4", "b5"], ["b5", "b4", "b3"], ["t6", "b4", "b3"]],
        gem_deal=[1, 2, 3, 4, 5],
        age=2,
        before_fill=setup,
    )
    take_all(state)
    assert gems(state) == [6, 2, 3, 4, 5]
    assert data_of(state)["order"] == [0, 4, 3, 2, 1]
    take_all(state)
    assert gems(state) == [6, 5, 4, 3, 2]


def test_n07_two_separate_ties_trade_separately(engine):
    """N07: "The order is seat 2 (5, gem 4), seat 0 (5, gem 2), seat 3 (2, gem 5), seat 1 (2, gem 3)." "seat
    0↔seat 2 makes seat 0 gem 4 and seat 2 gem 2; seat 1↔seat 3 makes seat 1 gem 5 and seat 3 gem 3.\""""
    state = turn_of(
        engine,
        4,
        (),
        [["b2", "b3", "b5"], ["b5", "b4", "b2"], ["b3", "b0", "b5"], ["b4", "b5", "b2"]],
        gem_deal=[2, 3, 4, 5],
    )
    take_all(state)
    take_all(state)
    assert gems(state) == [2, 3, 4, 5]
    assert data_of(state)["order"] == [2, 0, 3, 1]
    take_all(state)
    assert gems(state) == [4, 5, 2, 3]


def test_n08_two_seats_three_cards_and_the_leftover_is_discarded(engine):
    """N08: "Seat 1 chooses first, then seat 0." "The third card is discarded. It does not stay in the tavern
    and is not used later." "DD and SH also each received 3 cards at turn preparation." (Gems 4 and 5 only;
    the Treasure holds one each of 7, 9 and 11.)"""
    state = turn_of(engine, 2, [["warrior9", "hunter", "miner1"]], [["b2", "b3", "b4"], ["b3", "b2", "b4"]])
    data = data_of(state)
    assert sorted(gems(state)) == [4, 5]
    assert [treasure(data, v) for v in (7, 9, 11)] == [1, 1, 1]
    assert [sum(t) for t in data["taverns"]] == [3, 3, 3]
    assert data["order"] == [1, 0]
    act(state, "take warrior9", "take hunter")
    data = data_of(state)
    assert data["tavern"] == 1 and sum(data["taverns"][0]) == 0
    assert data["discard"][k("miner1")] == 1


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_n09_turns_per_age_and_cards_per_tavern(engine, n):
    """N09: cards per tavern 3/3/4/5, turns per Age 4/4/3/3, Age 1 deck 36/36/36/45 for 2/3/4/5 seats; "The
    Age 1 deck is empty at the end of the last turn. The Troop Evaluation then happens at once, before Age 2."
    "The Age 2 deck holds 37 cards (46 with 5 seats). The Pioneer (or, when nobody wins it, the card it
    discards) removes one, which leaves 36 (45) for the Age 2 taverns.\""""
    state = start(engine, n)
    data = data_of(state)
    deck1, deck2 = (45, 46) if n == 5 else (36, 37)
    assert (sum(data["decks"][0]), sum(data["decks"][1])) == (deck1, deck2)
    turns, per_tavern = 0, set()
    while data_of(state)["age"] == 1:
        data = data_of(state)
        if (
            data["phase"] == "bid"
            and data["seats"][0]["bids"] == [-1, -1, -1]
            and state.current_player() == 0
        ):
            turns += 1
            per_tavern |= {sum(t) for t in data["taverns"]}
        state.apply_action(state.legal_actions()[0])  # any card, any coin, any choice: the first one
    assert turns == TURNS[n] and per_tavern == {CARDS[n]}
    data = data_of(state)
    assert sum(data["decks"][0]) == 0
    assert all(d != -2 for d in data["distinctions"])  # the Troop Evaluation came before Age II
    assert data["phase"] == "fill" and sum(data["decks"][1]) == deck2 - 1


# --- B. Coin trade and coin transformation ------------------------------------------------------------------


def test_n10_coin_trade_with_basic_coins(engine):
    """N10: "First the card goes into seat 1's army. No Hero is recruited" "2 + 3 = 5. The 3b is discarded to
    the box. Seat 1 takes a 5T, so the Treasure's 5s drop from 2 to 1." "The pouch is now 2b and 5T ... The 0b
    stays on LG" "Seat 1 still owns 5 coins: 0b, 2b, 4b, 5b, 5T.\""""
    state = turn_of(
        engine,
        3,
        [["explorer7", "hunter", "blacksmith"]],
        [["b5", "b2", "b3"], ["b0", "b4", "b5"], ["b4", "b3", "b2"]],
    )
    assert data_of(state)["order"] == [0, 2, 1]
    act(state, "take hunter", "take blacksmith")
    assert state.current_player() == 1
    act(state, "take explorer7")
    data = data_of(state)
    me = data["seats"][1]
    assert me["army"][EX] == [k("explorer7")] and sum(me["heroes"]) == 0
    assert me["hand"] == sorted([c("b2"), c("t5")])
    assert treasure(data, 5) == 1
    assert me["bids"][0] == c("b0")
    assert owned(data, 1) == sorted(c(x) for x in ("b0", "b2", "b4", "b5", "t5"))
    assert (data["phase"], data["tavern"]) == ("take", 1)


def test_n11_coin_trade_higher_treasure_coin_goes_back(engine):
    """N11: "5 + 9 = 14. The 9T goes back to the Treasure, so it now holds 9×3. Seat 0 takes a 14T, leaving
    14×1." "The pouch is now 5b and 14T.\""""
    state = turn_of(
        engine,
        4,
        (),
        [["t12", "b0", "b4"], ["b5", "b4", "b3"], ["b4", "b3", "b2"], ["b3", "b2", "b5"]],
        age=2,
        before_fill=lambda d: set_coins(d, 0, ["b0", "b4", "b5", "t9", "t12"]),
    )
    data = data_of(state)
    assert (treasure(data, 9), treasure(data, 14)) == (2, 2)
    take_all(state)
    take_all(state)
    data = data_of(state)
    assert data["seats"][0]["hand"] == sorted([c("b5"), c("t14")])
    assert (treasure(data, 9), treasure(data, 14)) == (3, 1)


def test_n12_special_three_bids_as_three_and_trades(engine):
    """N12: "The order is seat 1 (5), then seat 2 (3, gem 5), then seat 0 (3, gem 3)." "3 + 7 = 10. The 7T
    goes back to the Treasure and seat 2 takes a 10T. Its pouch is 3b, 10T. The S3 stays on DD and is kept."
    "At the end of DD, seat 0 and seat 2 trade gems: seat 0 has gem 5 and seat 2 has gem 3.\""""

    def setup(data):
        data["distinctions"] = [-1, 2, -1, -1, -1]
        set_coins(data, 2, ["s3", "b2", "b3", "b4", "t7"])

    state = turn_of(
        engine,
        3,
        (),
        [["b5", "b3", "b4"], ["b4", "b5", "b2"], ["b2", "s3", "b4"]],
        age=2,
        before_fill=setup,
    )
    take_all(state)
    assert gems(state) == [3, 4, 5]
    assert data_of(state)["order"] == [1, 2, 0]
    act(state, texts(state)[0])
    assert state.current_player() == 2
    act(state, texts(state)[0])
    data = data_of(state)
    assert data["seats"][2]["hand"] == sorted([c("b3"), c("t10")])
    assert data["seats"][2]["bids"][1] == c("s3")
    assert treasure(data, 7) == 1
    take_all(state)
    assert gems(state) == [5, 4, 3]


def _two_seat_rich(data):
    set_coins(data, 1, ["b0", "t7", "t9", "t10", "t10"])


def test_n13a_trade_sum_unavailable_takes_next_higher(engine):
    """N13 (a): "The sum is 7, and there is no 7, so seat 0 takes the first higher value available: 8T. The 4b
    goes to the box, and the pouch is 3b, 8T.\""""
    state = turn_of(engine, 2, (), [["b0", "b2", "b5"], ["t7", "t9", "t10"]], before_bids=_two_seat_rich)
    data = data_of(state)
    assert [treasure(data, v) for v in (7, 9, 10)] == [0, 0, 0]
    take_all(state)
    data = data_of(state)
    assert data["seats"][0]["hand"] == sorted([c("b3"), c("t8")])
    assert c("b4") not in owned(data, 0)


def test_n13b_transform_sum_unavailable_takes_next_higher(engine):
    """N13 (b): "4 + 5 = 9. There is no 9 and no 10, so seat 0 takes 11T, the Treasure's only 11. The 4b goes
    to the box.\""""
    state = turn_of(
        engine,
        2,
        [["offering5", "blacksmith", "hunter"]],
        [["b5", "b0", "b2"], ["t7", "t9", "t10"]],
        age=2,
        before_fill=_two_seat_rich,
    )
    assert data_of(state)["order"] == [1, 0]
    act(state, "take blacksmith", "take offering5", "transform b4")
    data = data_of(state)
    assert data["seats"][0]["hand"] == sorted([c("b3"), c("t11")])
    assert treasure(data, 11) == 0 and c("b4") not in owned(data, 0)


def _owners_of_the_top(data):
    set_coins(data, 1, ["b0", "b2", "b3", "t18", "t23"])
    set_coins(data, 2, ["b0", "b2", "b3", "t24", "t25"])


def test_n14a_no_higher_coin_takes_the_closest_lower(engine):
    """N14 (a): "13 + 14 = 27. There is nothing at 27 or above, and 23 to 25 are owned, so seat 0 takes 22T.
    The 14T goes back to the Treasure, and the pouch is 13T, 22T.\""""

    def setup(data):
        _owners_of_the_top(data)
        set_coins(data, 0, ["b0", "b2", "b3", "t13", "t14"])

    state = turn_of(
        engine,
        3,
        (),
        [["b0", "b2", "b3"], ["t18", "b2", "b3"], ["t24", "b2", "b3"]],
        age=2,
        before_fill=setup,
    )
    before = treasure(data_of(state), 14)
    take_all(state)
    data = data_of(state)
    assert data["seats"][0]["hand"] == sorted([c("t13"), c("t22")])
    assert treasure(data, 14) == before + 1 and treasure(data, 22) == 0


def test_n14b_the_coin_just_discarded_cannot_be_taken_back(engine):
    """N14 (b): "5 + 22 = 27. The 22T is discarded back to the Treasure. Expected per RB: seat 0 cannot take
    that 22 back, so it takes 21T. The pouch is 5b, 21T.\""""

    def setup(data):
        _owners_of_the_top(data)
        set_coins(data, 0, ["b0", "b2", "b3", "b5", "t22"])

    state = turn_of(
        engine,
        3,
        (),
        [["b0", "b2", "b3"], ["t18", "b2", "b3"], ["t24", "b2", "b3"]],
        age=2,
        before_fill=setup,
    )
    data = data_of(state)
    assert [treasure(data, v) for v in range(15, 26)] == [1, 1, 1, 0, 1, 1, 1, 0, 0, 0, 0]
    take_all(state)
    data = data_of(state)
    assert data["seats"][0]["hand"] == sorted([c("b5"), c("t21")])
    assert treasure(data, 22) == 1 and treasure(data, 21) == 0


def test_n15_offering_on_a_pouch_coin_then_the_zero_trade(engine):
    """N15: "Step 1, the card: 5 + 3 = 8. The 5b goes to the box and seat 3 takes an 8T ... Step 2, Hero: none
    ... Step 3, the trade (seat 3 played 0): 4 + 8 = 12. The 8T goes back to the Treasure (8×2) and seat 3
    takes a 12T (12×1 left)." "The pouch is 4b, 12T. Seat 3 owns 0b, 2b, 3b, 4b, 12T.\""""
    state = turn_of(
        engine,
        4,
        [["offering3", "blacksmith", "hunter", "miner1"]],
        [["b5", "b2", "b3"], ["b4", "b2", "b3"], ["b3", "b2", "b4"], ["b0", "b2", "b3"]],
        gem_deal=[2, 3, 4, 5],
    )
    assert data_of(state)["order"] == [0, 1, 2, 3]
    act(state, "take blacksmith", "take hunter", "take miner1")
    assert texts(state) == ["take offering3"]
    act(state, "take offering3")
    data = data_of(state)
    # The offering comes first: the pouch is untouched until the coin is chosen.
    assert (data["phase"], state.current_player()) == ("transform", 3)
    assert data["seats"][3]["hand"] == sorted([c("b4"), c("b5")])
    act(state, "transform b5")
    data = data_of(state)
    assert data["seats"][3]["hand"] == sorted([c("b4"), c("t12")])
    assert (treasure(data, 8), treasure(data, 12)) == (2, 1)
    assert owned(data, 3) == sorted(c(x) for x in ("b0", "b2", "b3", "b4", "t12"))


def _n16(engine):
    state = turn_of(
        engine,
        3,
        [None, ["offering3", "blacksmith", "hunter"]],
        [["b3", "b5", "b2"], ["b2", "b3", "b4"], ["b5", "b2", "b3"]],
        gem_deal=[3, 5, 4],
    )
    take_all(state)
    assert data_of(state)["order"] == [0, 1, 2]
    act(state, "take offering3")
    assert data_of(state)["phase"] == "transform" and state.current_player() == 0
    return state


def test_n16a_offering_on_an_unresolved_tavern_coin_changes_the_later_bid(engine):
    """N16 (a): "2 + 3 = 5. The 2b goes to the box, and a 5T is placed face down on SH. At SH the order is
    seat 0 (5), seat 1 (4), seat 2 (3).\""""
    state = _n16(engine)
    act(state, "transform horse")
    data = data_of(state)
    assert data["seats"][0]["bids"][2] == c("t5") and c("b2") not in owned(data, 0)
    assert data["revealed"] == 2  # the Shining Horse is still unrevealed
    take_all(state)
    assert data_of(state)["order"] == [0, 1, 2]


def _hidden_flag(state, observer: int, seat: int, slot: int) -> float:
    """The tensor's "1 if the slot holds a coin p cannot see" value of ``seat``'s bid slot ``slot`` seen by
    ``observer`` (docs/rules/nidavellir.md §7.1: the global block, then 214 values per relative seat: gem 6,
    coins owned 27, then each bid slot a one-hot of 27 and the hidden flag)."""
    n = len(data_of(state)["seats"])
    relative = (seat - observer) % n
    return float(state.observation_tensor(observer)[225 + 2 * n + 214 * relative + 6 + 27 + 28 * slot + 27])


def test_n16a_the_new_coin_on_an_unresolved_tavern_is_public_as_interpretation_21(engine):
    """N16 (a): "a 5T is placed face down on SH" (RB: "face down ... on an unresolved Tavern location").
    docs/rules/nidavellir.md §9 interpretation 21 departs from the face-down placement on purpose: the 5T is
    taken from the open Treasure and laid on seat 0's Shining Horse in view of the table, so every seat knows
    it, and an observation hiding it would forget what the seat saw. Seat 0's 2b was hidden from seat 1
    before; after the transformation seat 1 sees the 5T there, still before the Horse is revealed."""
    state = _n16(engine)
    assert _hidden_flag(state, 1, 0, 2) == 1.0  # seat 0's 2b on the horse is face down for seat 1
    act(state, "transform horse")
    assert data_of(state)["revealed"] == 2
    assert _hidden_flag(state, 1, 0, 2) == 0.0
    n = len(data_of(state)["seats"])
    slot = 225 + 2 * n + 214 * ((0 - 1) % n) + 6 + 27 + 28 * 2
    one_hot = state.observation_tensor(1)[slot : slot + 27]
    assert list(one_hot).index(1.0) == c("t5") and sum(one_hot) == 1.0


def test_n16b_offering_on_a_resolved_tavern_coin_changes_nothing_there(engine):
    """N16 (b): "3 + 3 = 6. The 3b goes to the box, and a 6T is placed face up on LG. LG is already resolved,
    so nothing changes there. At SH the order is seat 1 (4), seat 2 (3), seat 0 (2).\""""
    state = _n16(engine)
    act(state, "transform goblin")
    data = data_of(state)
    assert data["seats"][0]["bids"][0] == c("t6") and c("b3") not in owned(data, 0)
    take_all(state)
    assert data_of(state)["order"] == [1, 2, 0]


def test_n17_offering_on_the_resolving_coin_keeps_the_tie_and_gem_trade(engine):
    """N17: "4 + 5 = 9. The 4b goes to the box, and a 9T is placed face up on DD." "The rest of the order is
    unchanged: seat 1, then seat 2." "At the end of DD, seat 0 and seat 1 still trade gems ...: seat 0 has gem
    3 and seat 1 has gem 5.\""""
    state = turn_of(
        engine,
        3,
        [None, ["offering5", "blacksmith", "hunter"]],
        [["b5", "b4", "b3"], ["b3", "b4", "b5"], ["b4", "b2", "b3"]],
        gem_deal=[5, 3, 4],
        age=2,
    )
    take_all(state)
    assert gems(state) == [5, 3, 4] and data_of(state)["order"] == [0, 1, 2]
    act(state, "take offering5", "transform dragon")
    data = data_of(state)
    assert data["seats"][0]["bids"][1] == c("t9") and c("b4") not in owned(data, 0)
    assert data["order"] == [0, 1, 2] and state.current_player() == 1
    take_all(state)
    assert gems(state) == [3, 5, 4]


def test_n18a_the_zero_can_never_be_transformed(engine):
    """N18 (a): "Choosing the 0b is illegal. The 2b, 3b, 4b and 5b are legal, and they give 5T, 6T, 7T and
    8T." "The Royal Offering is mandatory ... It cannot be skipped while a legal coin exists.\""""
    state = turn_of(
        engine, 2, [["offering3", "blacksmith", "hunter"]], [["b5", "b0", "b2"], ["b4", "b3", "b2"]]
    )
    act(state, "take offering3")
    assert data_of(state)["phase"] == "transform"
    assert sorted(texts(state)) == sorted(
        ["transform goblin", "transform horse", "transform b3", "transform b4"]
    )
    before = state.serialize()
    for illegal in ("transform dragon", "transform b0"):
        with pytest.raises(IllegalActionError):
            state.apply_action(state.string_to_action(illegal))
        assert state.serialize() == before
    for choice, slot, new in (
        ("transform goblin", 0, "t8"),
        ("transform horse", 2, "t5"),
        ("transform b3", None, "t6"),
        ("transform b4", None, "t7"),
    ):
        me = data_of(act(state.clone(), choice))["seats"][0]
        if slot is None:
            assert c(new) in me["hand"]
        else:
            assert me["bids"][slot] == c(new)


def test_n18b_the_special_three_can_never_be_transformed(engine):
    """N18 (b): "Choosing the S3 is illegal. Choosing the 6T is legal: it gives a 9T, and the 6T goes back to
    the Treasure.\""""
    state = turn_of(
        engine,
        2,
        [["offering3", "blacksmith", "hunter"]],
        [["b5", "b0", "b2"], ["t6", "s3", "b2"]],
        before_bids=lambda d: set_coins(d, 1, ["s3", "b2", "b3", "b4", "t6"]),
    )
    assert state.current_player() == 1
    act(state, "take offering3")
    assert sorted(texts(state)) == sorted(
        ["transform goblin", "transform horse", "transform b3", "transform b4"]
    )
    for illegal in ("transform dragon", "transform s3"):
        with pytest.raises(IllegalActionError):
            state.apply_action(state.string_to_action(illegal))
    six = treasure(data_of(state), 6)
    act(state, "transform goblin")
    data = data_of(state)
    assert data["seats"][1]["bids"][0] == c("t9") and treasure(data, 6) == six + 1


# --- C. Heroes ----------------------------------------------------------------------------------------------


def _army_at_bids(seat, **cols):
    return lambda data: set_army(data, seat, **columns(**cols))


def test_n19_first_complete_line_recruits_a_hero_before_the_coin_trade(engine):
    """N19: "Lines = min(1, 2, 1, 2, 1) = 1 ... seat 0 must recruit a Hero now. If it picks Skaa, Skaa goes to
    the CZ. If it picks Tarah, Tarah goes on top of the Warrior column, making W [W5, W8, Tarah]" "Only then
    comes the coin trade: 3 + 5 = 8. The 5b goes to the box and seat 0 takes an 8T.\""""
    state = turn_of(
        engine,
        3,
        [["explorer9", "blacksmith", "hunter"]],
        [["b0", "b2", "b4"], ["b5", "b2", "b3"], ["b4", "b2", "b3"]],
        before_bids=_army_at_bids(
            0, blacksmith="blacksmith", hunter="hunter hunter", miner="miner2", warrior="warrior5 warrior8"
        ),
    )
    act(state, "take blacksmith", "take hunter")
    assert state.current_player() == 0
    act(state, "take explorer9")
    data = data_of(state)
    assert (data["phase"], state.current_player()) == ("hero", 0)
    assert data["seats"][0]["hand"] == sorted([c("b3"), c("b5")])  # no trade yet
    assert {"hero skaa", "hero tarah"} <= set(texts(state))
    skaa = data_of(act(state.clone(), "hero skaa"))
    assert skaa["seats"][0]["heroes"][nid.HEROES.index("skaa")] == 1
    assert skaa["seats"][0]["army"][WA] == [k("warrior5"), k("warrior8")]
    tarah = data_of(act(state.clone(), "hero tarah"))
    assert tarah["seats"][0]["army"][WA] == [k("warrior5"), k("warrior8"), hero_entry("tarah")]
    for after in (skaa, tarah):
        assert after["seats"][0]["hand"] == sorted([c("b3"), c("t8")])
        assert after["phase"] == "take"  # no second hero: lines stay 1


def test_n20_a_class_heros_ranks_complete_a_further_line(engine):
    """N20: "With H [H], Lines = 1, so seat 0 recruits Aral. H becomes [H, Aral (2)], 3 ranks." "Lines = 2 ...
    so seat 0 recruits a second Hero at once. If it picks Lokdur, M becomes [M0, M1, Lokdur] ... Seat 0 now
    owns 2 Heroes and has 2 lines.\""""
    state = turn_of(
        engine,
        2,
        [["hunter", "blacksmith", "miner0"]],
        [["b5", "b4", "b3"], ["b4", "b3", "b2"]],
        before_bids=_army_at_bids(
            0,
            blacksmith="blacksmith blacksmith",
            miner="miner0 miner1",
            warrior="warrior3 warrior6",
            explorer="explorer6 explorer11",
        ),
    )
    act(state, "take hunter")
    assert data_of(state)["phase"] == "hero" and "hero aral" in texts(state)
    act(state, "hero aral")
    data = data_of(state)
    assert data["seats"][0]["army"][HU] == [k("hunter"), hero_entry("aral")]
    assert (data["phase"], state.current_player()) == ("hero", 0)
    act(state, "hero lokdur")
    data = data_of(state)
    assert data["seats"][0]["army"][MI] == [k("miner0"), k("miner1"), hero_entry("lokdur")]
    assert sum(data["seats"][0]["heroes"]) == 2
    assert data["phase"] == "take" and state.current_player() == 1


def test_n21_one_placement_completes_two_lines_two_heroes(engine):
    """N21: "SpB (2 ranks) goes into the Blacksmith column, which then has 3 ranks. Lines = 3, and seat 1 owns
    1 Hero, so it recruits 2 Heroes, one after another." "If it first picks Aëgur, B has 5 ranks and Lines is
    still 3. With 2 Heroes owned, 3 = 2 + 1, so the second recruit happens (say Dwerg, to the CZ)." "Seat 1
    ends with 3 Heroes and 3 lines." "The Armorer card goes to seat 1's CZ.\""""
    armies = {
        0: dict(
            hunter="hunter hunter hunter",
            miner="miner0 miner1 miner2",
            warrior="warrior3 warrior5 warrior6",
            explorer="explorer6 explorer7 explorer9",
        ),
        1: dict(
            blacksmith="blacksmith",
            hunter="hunter hunter hunter",
            miner="miner1 miner2 miner0",
            warrior="warrior4 warrior7 warrior9",
            explorer="explorer5 explorer8 explorer10",
        ),
    }
    state = last_take(engine, 3, 1, armies, last=0, cz={1: ["skaa"]})
    data = data_of(state)
    assert data["distinctions"][:4] == [-1, -1, -1, 1]
    assert data["seats"][1]["army"][BS] == [k("blacksmith"), SPECIAL_BLACKSMITH]
    assert (data["phase"], state.current_player()) == ("hero", 1)
    act(state, "hero aegur")
    data = data_of(state)
    assert data["seats"][1]["army"][BS] == [k("blacksmith"), SPECIAL_BLACKSMITH, hero_entry("aegur")]
    assert (data["phase"], state.current_player()) == ("hero", 1)
    act(state, "hero dwerg")
    data = data_of(state)
    assert sum(data["seats"][1]["heroes"]) == 3
    assert data["phase"] == "pioneer_burn"  # no third hero; the Explorers tie 3-3


def test_n22_after_bonfurs_discard_no_hero_until_a_new_line(engine):
    """N22: "With E5, Lines = 1, so seat 0 recruits Bonfur. B becomes [B, Bonfur (3)], 4 ranks. Discarding E5
    ... is legal, and E is empty again." "After E8: Lines = 1 ... there is no Hero." "After H ... no Hero."
    "After M0 ... no Hero." "After E6: Lines = min(4, 2, 2, 2, 2) = 2 = 1 + 1, so seat 0 recruits its second
    Hero.\""""
    bids = [["b5", "b4", "b3"], ["b4", "b3", "b2"]]
    state = turn_of(
        engine,
        2,
        [
            ["explorer5", "blacksmith", "hunter"],
            ["explorer8", "blacksmith", "miner2"],
            ["hunter", "blacksmith", "warrior4"],
        ],
        bids,
        gem_deal=[5, 4],
        before_bids=_army_at_bids(
            0, blacksmith="blacksmith", hunter="hunter", miner="miner1", warrior="warrior7 warrior3"
        ),
    )
    act(state, "take explorer5", "hero bonfur")
    assert data_of(state)["phase"] == "discard" and "discard explorer" in texts(state)
    act(state, "discard explorer")
    data = data_of(state)
    assert data["seats"][0]["army"][BS] == [k("blacksmith"), hero_entry("bonfur")]
    assert data["seats"][0]["army"][EX] == []
    act(state, "take blacksmith")  # seat 1
    for card in ("explorer8", "hunter"):
        act(state, f"take {card}")
        assert data_of(state)["phase"] == "take" and state.current_player() == 1  # no hero
        act(state, "take blacksmith")
    fill(
        state,
        ["miner0", "blacksmith", "explorer7"],
        ["explorer6", "blacksmith", "warrior5"],
        ["blacksmith", "hunter", "miner1"],
    )
    bid(state, *bids)
    act(state, "take miner0")
    assert data_of(state)["phase"] == "take" and state.current_player() == 1
    act(state, "take blacksmith", "take explorer6")
    assert (data_of(state)["phase"], state.current_player()) == ("hero", 0)


def _n23(engine, **cols):
    state = turn_of(
        engine,
        2,
        [["warrior6", "blacksmith", "hunter"]],
        [["b5", "b4", "b3"], ["b4", "b3", "b2"]],
        before_bids=_army_at_bids(0, **cols),
    )
    act(state, "take warrior6")
    assert data_of(state)["phase"] == "hero"
    return state


def test_n23a_hourya_needs_five_explorer_ranks(engine):
    """N23 (a): "Lines = 1, so seat 0 recruits a Hero. Hourya cannot be chosen, because there are only 4
    Explorer ranks.\""""
    state = _n23(
        engine,
        blacksmith="blacksmith",
        hunter="hunter",
        miner="miner1",
        explorer="explorer5 explorer6 explorer7 explorer9",
    )
    assert "hero hourya" not in texts(state)


def test_n23b_hourya_with_five_explorer_ranks(engine):
    """N23 (b): "Hourya may be chosen. E then has 6 ranks.\""""
    state = _n23(
        engine,
        blacksmith="blacksmith",
        hunter="hunter",
        miner="miner1",
        explorer="explorer5 explorer6 explorer7 explorer9 explorer10",
    )
    assert "hero hourya" in texts(state)
    act(state, "hero hourya")
    assert data_of(state)["seats"][0]["army"][EX][-1] == hero_entry("hourya")
    assert len(data_of(state)["seats"][0]["army"][EX]) == 6


def test_n23c_thruds_rank_counts_for_hourya_and_she_is_never_covered(engine):
    """N23 (c): "W has 2 ranks, so Lines = 2 = 1 + 1 and seat 0 recruits a Hero. Hourya may be chosen: 5
    ranks, Thrud included. ... Thrud is taken in hand, Hourya goes on E9, and Thrud is placed in a column of
    seat 0's choice." "Placed in W, she makes W [W3, W6, Thrud]. Lines = 2 with Heroes = 2, so there is no
    further Hero.\""""
    state = _n23(
        engine,
        blacksmith="blacksmith blacksmith",
        hunter="hunter hunter",
        miner="miner1 miner0",
        warrior="warrior3",
        explorer="explorer5 explorer6 explorer7 explorer9 thrud",
    )
    assert "hero hourya" in texts(state)
    act(state, "hero hourya")
    data = data_of(state)
    assert data["phase"] == "thrud" and data["seats"][0]["thrud"] == THRUD_IN_HAND
    assert data["seats"][0]["army"][EX] == [
        k(x) for x in ("explorer5", "explorer6", "explorer7", "explorer9")
    ] + [hero_entry("hourya")]
    act(state, "column warrior")
    data = data_of(state)
    assert data["seats"][0]["army"][WA] == [k("warrior3"), k("warrior6"), THRUD]
    assert data["phase"] == "take" and state.current_player() == 1


def test_n24a_dagda_discards_from_two_different_other_columns(engine):
    """N24 (a): "H becomes [H, Dagda (3)], 4 ranks. Seat 0 must discard the top Dwarf of two different other
    columns. Say it picks W9 and M1: W becomes [W4] and M becomes [M2]. Lines = 1 with Heroes = 1."
    "Discarding W9 and then W4 (the same column twice) is illegal, and so is a card from the Hunter
    column.\""""
    state = turn_of(
        engine,
        2,
        [["hunter", "blacksmith", "miner0"]],
        [["b5", "b4", "b3"], ["b4", "b3", "b2"]],
        before_bids=_army_at_bids(
            0,
            blacksmith="blacksmith blacksmith",
            miner="miner2 miner1",
            warrior="warrior4 warrior9",
            explorer="explorer7",
        ),
    )
    act(state, "take hunter", "hero dagda")
    data = data_of(state)
    assert data["seats"][0]["army"][HU] == [k("hunter"), hero_entry("dagda")]
    assert data["phase"] == "discard" and "discard hunter" not in texts(state)
    act(state, "discard warrior")
    assert data_of(state)["phase"] == "discard"
    assert "discard warrior" not in texts(state) and "discard hunter" not in texts(state)
    act(state, "discard miner")
    data = data_of(state)
    assert data["seats"][0]["army"][WA] == [k("warrior4")] and data["seats"][0]["army"][MI] == [k("miner2")]
    assert data["phase"] == "take" and state.current_player() == 1  # lines 1, heroes 1


def test_n24b_dagda_impossible_bonfur_possible(engine):
    """N24 (b): "Dagda cannot be chosen. Among the other columns (W, M, E, B), only B has a Dwarf on top"
    "Bonfur can be chosen. ... H has a Dwarf on top, the H just placed, and Bonfur discards it. Afterwards B
    has 7 ranks, H has 3, and Lines = 3 with Heroes = 4.\""""
    state = turn_of(
        engine,
        2,
        [["hunter", "blacksmith", "miner0"]],
        [["b4", "b3", "b2"], ["b5", "b4", "b3"]],
        before_bids=_army_at_bids(
            1,
            warrior="warrior3 warrior5 warrior8 tarah",
            miner="miner0 miner1 miner2 lokdur",
            explorer="explorer6 explorer9 explorer10 idunn",
            blacksmith="blacksmith blacksmith blacksmith blacksmith",
            hunter="hunter hunter hunter",
        ),
    )
    assert state.current_player() == 1
    act(state, "take hunter")
    assert data_of(state)["phase"] == "hero"
    assert "hero dagda" not in texts(state) and "hero bonfur" in texts(state)
    act(state, "hero bonfur")
    assert texts(state) == ["discard hunter"]
    act(state, "discard hunter")
    data = data_of(state)
    me = data["seats"][1]
    assert me["army"][BS] == [k("blacksmith")] * 4 + [hero_entry("bonfur")]
    assert me["army"][HU] == [k("hunter")] * 3 and sum(me["heroes"]) == 4
    assert data["phase"] == "take" and state.current_player() == 0


def test_n25_grid_transforms_by_seven_and_is_worth_seven(engine):
    """N25: "Grid goes to the CZ." "5 + 7 = 12. The 5b goes to the box, and a 12T goes face down into the
    pouch." "The 0b would have been an illegal target." "the 6T on LG would become a 13T face up on LG (the 6T
    goes back to the Treasure); the 2b on SH would become a 9T face down on SH." "At the final count, Grid
    adds 7.\""""

    def setup(data):
        set_coins(data, 2, ["b0", "b2", "b4", "b5", "t6"])
        set_army(
            data, 2, **columns(blacksmith="blacksmith", hunter="hunter", miner="miner1", warrior="warrior3")
        )
        set_army(data, 0, warrior=["warrior4", "warrior5"])  # the Warrior majority is seat 0's: no bonus here

    state = turn_of(
        engine,
        3,
        [["blacksmith", "hunter", "miner0"], ["explorer5", "blacksmith", "hunter"]],
        [["b5", "b3", "b4"], ["b4", "b2", "b3"], ["t6", "b4", "b2"]],
        age=2,
        before_fill=setup,
    )
    act(state, "take blacksmith", "take hunter", "take miner0")  # seats 2, 0, 1 at the goblin
    assert state.current_player() == 2
    act(state, "take explorer5")
    assert data_of(state)["phase"] == "hero" and "hero grid" in texts(state)
    score = state.scores()[2]
    act(state, "hero grid")
    data = data_of(state)
    assert data["seats"][2]["heroes"][nid.HEROES.index("grid")] == 1
    assert data["phase"] == "transform"
    assert sorted(texts(state)) == sorted(
        ["transform goblin", "transform dragon", "transform horse", "transform b5"]
    )
    six = treasure(data, 6)
    goblin = data_of(act(state.clone(), "transform goblin"))
    assert goblin["seats"][2]["bids"][0] == c("t13") and treasure(goblin, 6) == six + 1
    horse = data_of(act(state.clone(), "transform horse"))
    assert horse["seats"][2]["bids"][2] == c("t9")
    act(state, "transform b5")
    data = data_of(state)
    assert data["seats"][2]["hand"] == sorted([c("b0"), c("t12")])
    assert state.scores()[2] == score + 7 + (12 - 5)


def _n26(engine):
    state = turn_of(
        engine,
        2,
        [["warrior8", "blacksmith", "hunter"]],
        [["b5", "b4", "b3"], ["b4", "b3", "b2"]],
        before_bids=_army_at_bids(
            0,
            warrior="warrior6 thrud",
            hunter="hunter hunter",
            miner="miner1 miner0",
            blacksmith="blacksmith blacksmith",
            explorer="explorer7",
        ),
    )
    act(state, "take warrior8")
    data = data_of(state)
    assert data["phase"] == "thrud" and data["seats"][0]["thrud"] == THRUD_IN_HAND
    assert data["seats"][0]["army"][WA] == [k("warrior6"), k("warrior8")]
    return state


def test_n26a_thrud_moved_to_explorers_completes_a_line(engine):
    """N26: "Thrud is taken in hand, and W8 goes on W6, making W [W6, W8]." "If seat 0 places Thrud in E, E
    becomes [E7, Thrud]. Lines = 2 = 1 + 1, so seat 0 recruits a Hero.\""""
    state = _n26(engine)
    act(state, "column explorer")
    data = data_of(state)
    assert data["seats"][0]["army"][EX] == [k("explorer7"), THRUD]
    assert (data["phase"], state.current_player()) == ("hero", 0)


def test_n26b_thrud_moved_to_hunters_no_hero_and_her_rank_does_not_score(engine):
    """N26: "If it places her in H instead, H has 3 ranks, Lines stays 1, and there is no Hero." "she is worth
    13. Her rank no longer counts in any column" (at the count: Hunters 2 ranks, 4; and 13 for Thrud)."""
    state = _n26(engine)
    act(state, "column hunter")
    data = data_of(state)
    assert data["seats"][0]["army"][HU] == [k("hunter"), k("hunter"), THRUD]
    assert data["phase"] == "take" and state.current_player() == 1
    # B 3 + 4 = 7, H 2² = 4 (not 9), M (1 + 0) × 2, W 6 + 8 and the majority's 5b, E 7, Thrud 13, coins 14.
    assert state.scores()[0] == 7 + 4 + 2 + 14 + 5 + 7 + 13 + 14


def test_n27a_ylud_recruited_in_age_one_placed_before_the_troop_evaluation(engine):
    """N27 1: "seat 0 places Ylud in E and has 4 Explorer ranks against 3 and 2. This is a strict majority, so
    seat 0 wins the Pioneer. Without Ylud it would be 3–3, and nobody would win it.\""""
    armies = {
        0: dict(explorer="explorer5 explorer8 explorer11"),
        1: dict(explorer="explorer6 explorer7 explorer9"),
        2: dict(explorer="explorer10 explorer6"),
    }
    state = last_take(engine, 3, 1, armies, last=2, cz={0: ["ylud"]})
    data = data_of(state)
    assert (data["phase"], state.current_player()) == ("ylud", 0)
    assert data["distinctions"] == [-2] * 5  # placed before the Troop Evaluation
    with_ylud = act(state.clone(), "column explorer")
    assert data_of(with_ylud)["distinctions"][4] == 0 and data_of(with_ylud)["phase"] == "pioneer_draw"
    # "Without Ylud": she must be placed somewhere (RB), so the closest equivalent is a column other than the
    # Explorers; in the Hunters the Explorers stay 3-3.
    without = act(state.clone(), "column hunter")
    assert data_of(without)["distinctions"][4] == -1 and data_of(without)["phase"] == "pioneer_burn"


def _n27_end_of_age_two(engine):
    armies = {
        0: dict(explorer="explorer5 explorer8 explorer11 ylud explorer9", warrior="warrior4 warrior6"),
        1: dict(warrior="warrior3 warrior5 warrior8"),
        2: dict(warrior="warrior7"),
    }
    coins = {0: ["b0", "b2", "b3", "b4", "t14"], 1: ["b0", "b2", "b3", "b4", "t12"]}
    state = last_take(engine, 3, 2, armies, last=2, coins=coins)
    assert (data_of(state)["phase"], state.current_player()) == ("ylud", 0)
    return state


def test_n27b_ylud_left_in_the_explorers_at_the_end_of_age_two(engine):
    """N27 2: "Ylud left in E: E = 5 + 8 + 11 + 11 + 9 = 44. W = 4 + 6 = 10, with no bonus, because seat 1 has
    the strict majority (3 against 2) and adds 12. Seat 0's E + W = 54.\""""
    state = _n27_end_of_age_two(engine)
    act(state, "column explorer")
    assert state.is_terminal()
    assert data_of(state)["seats"][0]["army"][EX][3] == YLUD
    coins0, coins1 = 0 + 2 + 3 + 4 + 14, 0 + 2 + 3 + 4 + 12
    assert state.scores()[:2] == [44 + 10 + coins0, 16 + 12 + coins1]


def test_n27c_ylud_moved_to_the_warriors_at_the_end_of_age_two(engine):
    """N27 2: "Ylud moved to W: E = 5 + 8 + 11 + 9 = 33. W = 4 + 6 + 7 = 17. There are now 3 Warrior ranks,
    tied with seat 1, so both add their highest coin: seat 0 W = 17 + 14 = 31, and seat 1 adds 12. Seat 0's E
    + W = 64.\""""
    state = _n27_end_of_age_two(engine)
    act(state, "column warrior")
    assert state.is_terminal()
    assert data_of(state)["seats"][0]["army"][WA] == [k("warrior4"), k("warrior6"), YLUD]
    coins0, coins1 = 0 + 2 + 3 + 4 + 14, 0 + 2 + 3 + 4 + 12
    assert state.scores()[:2] == [33 + 31 + coins0, 16 + 12 + coins1]


def _n28(engine):
    armies = {
        0: dict(warrior="warrior3 warrior4 warrior6 warrior7"),
        1: dict(
            blacksmith="blacksmith blacksmith blacksmith",
            hunter="hunter hunter hunter",
            miner="miner1 miner2 miner0",
            warrior="warrior5 warrior9 thrud",
            explorer="explorer6 explorer10",
        ),
    }
    state = last_take(
        engine, 2, 2, armies, last=0, coins={1: ["b0", "b3", "b5", "t9", "t13"]}, cz={1: ["ylud"]}
    )
    assert (data_of(state)["phase"], state.current_player()) == ("ylud", 1)
    return state


def test_n28a_ylud_recruited_in_age_two_recruits_a_hero_before_thrud_leaves(engine):
    """N28: "Ylud in E: E has 3 ranks, so Lines = 3 = 2 + 1 and seat 1 recruits a Hero (say Skaa). This
    happens before Thrud is removed: at that moment W still has 3 ranks." "Then Thrud goes to the CZ, and W
    becomes [W5, W9]." Total 12 + 9 + 9 + 14 + 27 + 13 + 17 + 30 = 131."""
    state = _n28(engine)
    act(state, "column explorer")
    data = data_of(state)
    assert (data["phase"], state.current_player()) == ("hero", 1)
    assert data["seats"][1]["army"][WA] == [k("warrior5"), k("warrior9"), THRUD]
    act(state, "hero skaa")
    assert state.is_terminal()
    data = data_of(state)
    assert data["seats"][1]["thrud"] == COMMAND_ZONE
    assert data["seats"][1]["army"][WA] == [k("warrior5"), k("warrior9")]
    assert state.scores()[1] == 131


def test_n28b_ylud_in_the_hunters_no_hero(engine):
    """N28: "Ylud in H instead: H has 4 ranks, worth 16. E has 2 ranks, Lines stays 2, and there is no Hero.
    The total is 12 + 16 + 9 + 14 + 16 + 13 + 30 = 110.\""""
    state = _n28(engine)
    act(state, "column hunter")
    assert state.is_terminal()
    assert state.scores()[1] == 110


def test_n29_uline_bids_face_up_after_the_reveal_and_chooses_her_trade(engine):
    """N29: "LG: ... Seat 0 then places 5b face up, and the order is seat 0, seat 1, seat 2." "DD: ... Seat 0
    places 0b, and the order is seat 1, seat 2, seat 0." "Its hand is 2b, 7T and 9T, and it picks 7T + 9T =
    16." "The 9T goes back to the Treasure, and the 16T goes to seat 0's pouch." "SH: ... Seat 0 places 2b,
    tying with seat 1. The order is seat 2 (5), seat 1 (2, gem 5), seat 0 (2, gem 4). At the end of SH ...
    seat 0 has gem 5 and seat 1 has gem 4." "At the final count, Uline adds 9.\""""

    def setup(data):
        give_hero(data, 0, "uline")
        set_coins(data, 0, ["b0", "b2", "b5", "t7", "t9"])

    state = turn_of(
        engine,
        3,
        [
            ["blacksmith", "hunter", "miner0"],
            ["hunter", "blacksmith", "explorer5"],
            ["blacksmith", "hunter", "miner1"],
        ],
        [["b4", "b5", "b2"], ["b3", "b2", "b5"]],
        gem_deal=[4, 5, 3],
        age=2,
        before_fill=setup,
    )
    assert (data_of(state)["phase"], state.current_player()) == ("uline_bid", 0)
    act(state, "bid b5")
    assert data_of(state)["order"] == [0, 1, 2]
    act(state, "take blacksmith", "take hunter", "take miner0")
    assert (data_of(state)["phase"], state.current_player()) == ("uline_bid", 0)
    act(state, "bid b0")
    assert data_of(state)["order"] == [1, 2, 0]
    act(state, "take blacksmith", "take explorer5", "take hunter")
    assert (data_of(state)["phase"], state.current_player()) == ("uline_trade", 0)
    assert sorted(texts(state)) == sorted(["sum b2", "sum t7", "sum t9"])
    act(state, "sum t7", "sum t9")
    data = data_of(state)
    assert data["seats"][0]["hand"] == sorted([c("b2"), c("t7"), c("t16")])
    assert treasure(data, 9) == 1 and treasure(data, 16) == 0
    assert data["seats"][0]["bids"][:2] == [c("b5"), c("b0")]
    assert (data["phase"], state.current_player()) == ("uline_bid", 0)
    act(state, "bid b2")
    assert data_of(state)["order"] == [2, 1, 0]
    act(state, "take blacksmith", "take hunter", "take miner1")
    assert gems(state) == [5, 4, 3]
    # B 3, H 1, M 1 × 1, coins 0 + 2 + 5 + 7 + 16, Uline 9.
    assert state.scores()[0] == 3 + 1 + 1 + 30 + 9


# --- D. Troop Evaluation ------------------------------------------------------------------------------------


def test_n30_the_kings_hand_and_the_hunting_master(engine):
    """N30: "King's Hand goes to seat 0: 9 + 5 = 14. The 9T goes back to the Treasure, and seat 0 takes a 14T.
    It owns 0b, 2b, 3b, 4b, 14T." "Hunting Master goes to seat 1: its 0b is replaced by the S3. It owns S3,
    2b, 3b, 5b, 8T.\""""
    armies = {
        0: dict(warrior="warrior3 warrior4 warrior5 warrior6", hunter="hunter hunter"),
        1: dict(warrior="warrior7 warrior8 warrior9", hunter="hunter hunter hunter hunter"),
        2: dict(warrior="warrior3 warrior6", hunter="hunter hunter"),
    }
    coins = {0: ["b0", "b2", "b3", "b4", "t9"], 1: ["b0", "b2", "b3", "b5", "t8"]}
    state = last_take(engine, 3, 1, armies, last=2, coins=coins)
    data = data_of(state)
    assert data["distinctions"][0] == 0 and (data["phase"], state.current_player()) == ("transform", 0)
    assert treasure(data, 14) == 2
    act(state, "transform t9")
    data = data_of(state)
    assert owned(data, 0) == sorted(c(x) for x in ("b0", "b2", "b3", "b4", "t14"))
    assert treasure(data, 9) == 1 and treasure(data, 14) == 1
    assert data["distinctions"][1] == 1
    assert owned(data, 1) == sorted(c(x) for x in ("s3", "b2", "b3", "b5", "t8"))


def test_n31_the_crown_jeweler(engine):
    """N31: "Seat 2 wins the Crown Jeweler. Gem 6 is placed on its gem 3" "At the LG tie, seat 2 acts before
    seat 1, and there is no gem trade" "At the final count, seat 2 adds +3.\""""
    armies = {
        0: dict(miner="miner0 miner1"),
        1: dict(miner="miner2 miner0"),
        2: dict(miner="miner1 miner2 miner0"),
    }
    state = last_take(engine, 3, 1, armies, last=2, gem_set={0: 4, 1: 5, 2: 3})
    data = data_of(state)
    assert data["distinctions"][2] == 2 and gems(state) == [4, 5, 6]
    assert data["phase"] == "pioneer_burn"
    assert state.scores()[2] == (1 + 2 + 0) * 3 + 14 + 3
    act(state, chance_text(state))
    assert data_of(state)["age"] == 2
    fill(state, *taverns_for(3, ()))
    bid(state, ["b2", "b3", "b5"], ["b4", "b3", "b2"], ["b4", "b2", "b3"])
    assert data_of(state)["order"] == [2, 1, 0]
    take_all(state)
    assert gems(state) == [4, 5, 6]


def _n32(engine):
    armies = {
        0: dict(explorer="explorer9 explorer11"),
        1: dict(explorer="explorer5 explorer6 explorer7 explorer8"),
        2: dict(explorer="explorer5 explorer6 explorer7"),
    }
    state = last_take(engine, 3, 1, armies, last=1)
    data = data_of(state)
    assert data["distinctions"][4] == 1 and data["phase"] == "pioneer_draw"
    assert sum(data["decks"][1]) == 37
    act(state, "card warrior9", "card offering5", "card explorer10")
    assert (data_of(state)["phase"], state.current_player()) == ("pioneer_keep", 1)
    assert sorted(texts(state)) == ["keep explorer10", "keep offering5", "keep warrior9"]
    return state


def test_n32a_pioneer_keeps_a_dwarf(engine):
    """N32 (a): "E10 goes into seat 1's Explorer column. A Hero is checked, but none is recruited here." "the
    other two cards are shuffled back into the Age 2 deck, which now holds 36.\""""
    state = _n32(engine)
    act(state, "keep explorer10")
    data = data_of(state)
    assert data["seats"][1]["army"][EX][-1] == k("explorer10")
    assert sum(data["seats"][1]["heroes"]) == 0
    assert sum(data["decks"][1]) == 36
    assert data["decks"][1][k("warrior9")] == 1 and data["decks"][1][k("offering5")] == 2


def test_n32b_pioneer_keeps_a_royal_offering(engine):
    """N32 (b): "Seat 1 transforms one of its coins by +5, following the usual rules." "the other two cards
    are shuffled back into the Age 2 deck, which now holds 36.\""""
    state = _n32(engine)
    act(state, "keep offering5")
    assert (data_of(state)["phase"], state.current_player()) == ("transform", 1)
    act(state, "transform b5")
    data = data_of(state)
    assert c("t10") in data["seats"][1]["hand"] and c("b5") not in owned(data, 1)
    assert sum(data["decks"][1]) == 36


def test_n33_ties_give_nobody_ranks_not_points_pioneer_discards(engine):
    """N33: "King's Hand: nobody. It is 3 ranks against 3" "Hunting Master: nobody" "Crown Jeweler: nobody"
    "Armorer: seat 2 ... It gets SpB (2 ranks)" "Pioneer: nobody. The top card of the Age 2 deck is discarded
    with no effect, and 36 cards remain.\""""
    armies = {
        0: dict(warrior="warrior9 warrior8 warrior7", miner="miner0", explorer="explorer5 explorer6"),
        1: dict(warrior="warrior3 kraal", miner="miner1", explorer="explorer7 explorer8"),
        2: dict(warrior="warrior5", miner="miner2", blacksmith="blacksmith"),
    }
    state = last_take(engine, 3, 1, armies, last=2, gem_set={0: 5, 1: 4, 2: 3})
    data = data_of(state)
    assert data["distinctions"] == [-1, -1, -1, 2, -1]
    assert data["seats"][2]["army"][BS] == [k("blacksmith"), SPECIAL_BLACKSMITH]
    assert data["phase"] == "pioneer_burn"
    burnt = chance_text(state)
    discarded = data["discard"][k(burnt.split()[-1])]
    act(state, burnt)
    data = data_of(state)
    assert sum(data["decks"][1]) == 36 and data["discard"][k(burnt.split()[-1])] == discarded + 1
    assert data["age"] == 2


# --- E. Final scoring ---------------------------------------------------------------------------------------

BASIC = 0 + 2 + 3 + 4 + 5


def test_n34_blacksmiths_and_hunters(engine):
    """N34: seat 0 B 5 ranks 25, H 4 ranks 16; seat 1 B 4 ranks 18, H 4 ranks 16; seat 2 B 7 ranks 42, H 7
    ranks 49."""

    def setup(data):
        set_army(data, 0, blacksmith=["blacksmith"] * 3 + ["special"], hunter=["hunter"] * 4)
        set_army(data, 1, blacksmith=["blacksmith", "bonfur"], hunter=["hunter", "aral", "hunter"])
        set_army(
            data, 2, blacksmith=["blacksmith"] * 7, hunter=["hunter", "hunter", "dagda", "hunter", "hunter"]
        )

    state = final(engine, 3, setup)
    assert state.scores() == [25 + 16 + BASIC, 18 + 16 + BASIC, 42 + 49 + BASIC]


def test_n35a_miners_points_times_ranks(engine):
    """N35: seat 0 M [M2, M1, M0, M0] 12; seat 1 M [M1, M2, Zoral] 20; seat 2 M [M0, M2, Lokdur] 15; seat 4
    M [M0, M0] 0. (Zoral and Lokdur exist once, so seat 3's column is scored in a second position.)"""

    def setup(data):
        set_army(data, 0, miner=dwarf_list("miner2 miner1 miner0 miner0"))
        set_army(data, 1, miner=["miner1", "miner2", "zoral"])
        set_army(data, 2, miner=["miner0", "miner2", "lokdur"])
        set_army(data, 4, miner=["miner0", "miner0"])

    state = final(engine, 5, setup)
    assert state.scores() == [12 + BASIC, 20 + BASIC, 15 + BASIC, BASIC, 0 + BASIC]


def test_n35b_miners_with_zoral_and_lokdur_together(engine):
    """N35: seat 3 M [M2, M1, Zoral, Lokdur]: sum 7, ranks 6, score 42."""
    state = final(engine, 5, lambda d: set_army(d, 3, miner=["miner2", "miner1", "zoral", "lokdur"]))
    assert state.scores()[3] == 42 + BASIC


def dwarf_list(text: str) -> list[str]:
    return text.split()


def _n36(engine, seat1_warriors):
    def setup(data):
        set_army(data, 0, warrior=dwarf_list("warrior9 warrior7 warrior6"))
        set_army(data, 1, warrior=seat1_warriors)
        set_army(data, 2, warrior=dwarf_list("warrior3 warrior4"))
        set_army(data, 3, warrior=["warrior5", "tarah"])
        set_coins(data, 0, ["b0", "b2", "b3", "b4", "t21"])
        set_coins(data, 1, ["b0", "b2", "b3", "b4", "t14"])

    return final(engine, 4, setup)


def test_n36a_warrior_majority_tie_every_tied_seat_adds(engine):
    """N36 (a): "Seats 0 and 1 tie on 3 ranks, so both add their highest coin: seat 0: 22 + 21 = 43, seat 1:
    15 + 14 = 29, seat 2: 7, seat 3: 19." "the bonus coin is also counted again in each seat's coin
    total.\""""
    state = _n36(engine, ["warrior8", "kraal"])
    assert state.scores() == [43 + 30, 29 + 23, 7 + BASIC, 19 + BASIC]


def test_n36b_warrior_strict_majority(engine):
    """N36 (b): "Seat 0 alone has the most ranks: 22 + 21 = 43. Seat 1 scores 8.\""""
    state = _n36(engine, ["warrior8"])
    assert state.scores() == [43 + 30, 8 + 23, 7 + BASIC, 19 + BASIC]


def test_n37a_explorers_with_idunn_and_hourya(engine):
    """N37: "Seat 0: 5 + 9 + 11 = 25, plus Idunn's 7 + 2 × 4 ranks = 15. Total 40." "Seat 1: 6 + 7 + 8 + 10 +
    11 = 42, plus Hourya's 20. Total 62." (Idunn and Hourya exist once: seat 2 is a second position.)"""

    def setup(data):
        set_army(data, 0, explorer=["explorer5", "explorer9", "idunn", "explorer11"])
        set_army(
            data, 1, explorer=dwarf_list("explorer6 explorer7 explorer8 explorer10 explorer11") + ["hourya"]
        )

    state = final(engine, 3, setup)
    assert state.scores() == [40 + BASIC, 62 + BASIC, BASIC]


def test_n37b_explorers_with_hourya_and_idunn_together(engine):
    """N37: "Seat 2: 35 + 20 (Hourya) + 7 + 2 × 7 (Idunn) = 76.\""""
    explorers = dwarf_list("explorer5 explorer6 explorer7 explorer8 explorer9") + ["hourya", "idunn"]
    state = final(engine, 3, lambda d: set_army(d, 2, explorer=explorers))
    assert state.scores()[2] == 76 + BASIC


def test_n38_neutral_heroes_dwerg_skaa_astrid(engine):
    """N38: "Seat 0: 13 (one brother) + 17 (Skaa) = 30." "Seat 1: 40 (two brothers) + 23 (Astrid, its largest
    coin) = 63. Its coins, 52, are also counted." "Seat 2: 40 + 7 + 9 = 56.\""""

    def setup(data):
        for seat, keys in (
            (0, ["dwerg", "skaa"]),
            (1, ["dwerg"] * 2 + ["astrid"]),
            (2, ["dwerg"] * 2 + ["grid", "uline"]),
        ):
            for key in keys:
                give_hero(data, seat, key)
        set_coins(data, 1, ["b0", "b4", "t9", "t16", "t23"])

    state = final(engine, 3, setup)
    assert state.scores() == [30 + BASIC, 63 + 52, 56 + BASIC]


@pytest.mark.parametrize(("brothers", "points"), [(3, 81), (4, 108), (5, 135)])
def test_n38_dwerg_three_four_five_brothers(engine, brothers, points):
    """N38: "For reference, 3, 4 and 5 brothers are worth 81, 108 and 135.\""""

    def setup(data):
        for _ in range(brothers):
            give_hero(data, 0, "dwerg")

    assert final(engine, 3, setup).scores()[0] == points + BASIC


def test_n39_full_final_count_and_a_shared_win(engine):
    """N39: seat 0: 12 + 1 + 6 + 37 + 17 + Skaa 17 + coins 41 + gem 6 3 = 134; seat 1: 18 + 9 + 9 + 8 + 28 +
    Astrid 20 + coins 42 = 134. "The seats tie on 134, so both win (a shared victory). Gems do not break this
    tie.\""""

    def setup(data):
        set_army(
            data,
            0,
            blacksmith=["blacksmith"] * 3,
            hunter=["hunter"],
            miner=["miner2", "miner1"],
            warrior=dwarf_list("warrior9 warrior6 warrior4"),
            explorer=["explorer10", "explorer7"],
        )
        give_hero(data, 0, "skaa")
        data["seats"][0]["gem"] = 6
        data["distinctions"] = [-1, -1, 0, -1, -1]
        set_coins(data, 0, ["b0", "b3", "b5", "t15", "t18"])
        set_army(
            data,
            1,
            blacksmith=["blacksmith"] * 4,
            hunter=["hunter"] * 3,
            miner=["miner2", "miner0", "miner1"],
            warrior=["warrior8"],
            explorer=dwarf_list("explorer11 explorer9 explorer8"),
        )
        give_hero(data, 1, "astrid")
        set_coins(data, 1, ["b0", "b2", "b4", "t16", "t20"])

    state = final(engine, 2, setup)
    assert state.scores() == [134, 134]
    returns = state.returns()
    assert returns[0] == returns[1] > 0
