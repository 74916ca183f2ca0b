"""Nidavellir rules of the contract that the blind scenarios do not reach (docs/rules/nidavellir.md), on both
engines: the hidden bids (§3, §7: "place one coin of your choosing face down on each of the three Tavern
locations" and "Turn over only the coins assigned to the tavern currently being resolved"), their resample
(§7.3), the Pioneer's private draws (§5.8, §9 item 13) and the end of an Age's bookkeeping."""

from __future__ import annotations

import json

import numpy as np
import pytest

import meeplex
import meeplex.oracle
from meeplex.games import nidavellir as nid
from nid_positions import act, bid, data_of, edit, fill, set_coins, start, texts

TAVERNS = (
    ["warrior7", "hunter", "blacksmith"],
    ["explorer5", "miner1", "offering3"],
    ["warrior3", "warrior4", "miner0"],
)


@pytest.fixture(autouse=True)
def _has_game(engine):
    registry = meeplex.games() if engine.name == "rust" else meeplex.oracle.games()
    if "nidavellir" not in registry:
        pytest.skip(f"the {engine.name} engine has no nidavellir")


def _views(state, seat: int) -> tuple:
    return (
        np.asarray(state.observation_tensor(seat)).tobytes(),
        state.observation_string(seat),
        state.information_state_string(seat),
    )


def _after_bids(engine, seat0: list[str], seat1: list[str]):
    state = fill(start(engine, 2), *TAVERNS)
    return bid(state, seat0, seat1)


def test_a_seats_bids_are_hidden_until_their_tavern_is_revealed(engine):
    """Two games that differ only in seat 0's bids look the same to seat 1 until the Laughing Goblin is
    revealed, then differ only by the revealed coin."""
    state = fill(start(engine, 2), *TAVERNS)
    one, two = state.clone(), state.clone()
    bid(one, ["b5", "b0", "b3"])
    bid(two, ["b3", "b0", "b5"])  # the same Dancing Dragon coin, the other two swapped
    assert _views(one, 1) == _views(two, 1)  # seat 1 is bidding now: it sees nothing of seat 0's
    assert _views(one, 0) != _views(two, 0)
    for s in (one, two):
        bid(s, ["b4", "b2", "b0"])
    # Tavern 0 is revealed: seat 0's goblin coin (b5 or b3) is now seen; the order differs too.
    assert _views(one, 1) != _views(two, 1)
    # Same goblin coin, the dragon and horse coins swapped: seat 1 cannot tell before the Dancing Dragon.
    three = bid(state.clone(), ["b5", "b3", "b0"], ["b4", "b2", "b0"])
    four = bid(state.clone(), ["b5", "b0", "b3"], ["b4", "b2", "b0"])
    assert _views(three, 1) == _views(four, 1)
    assert _views(three, 0) != _views(four, 0)


def test_information_state_hides_the_unrevealed_bids(engine):
    """§7.2: the other seats' bids on taverns not yet revealed are written ``?``."""
    state = _after_bids(engine, ["b5", "b0", "b3"], ["b4", "b2", "b0"])
    tokens = state.information_state_string(1).split("history=")[1].split(",")
    # the six bids close the history: seat 0's, then seat 1's; the goblin coins are revealed now
    assert tokens[-6:-3] == [str(nid.bid("b5")), "?", "?"] and "?" not in tokens[-3:]
    mine = state.information_state_string(0).split("history=")[1].split(",")
    assert mine[-6:] == [str(nid.bid(c)) for c in ("b5", "b0", "b3", "b4")] + ["?", "?"]
    act(state, texts(state)[0])  # seat 0 (b5 beats b4) takes at the goblin
    act(state, texts(state)[0])  # seat 1 takes
    assert state.information_state_string(1).count("?") == 1  # the dragon is revealed


def test_a_resample_redeals_only_the_hidden_coins(engine):
    """§7.3: for seat 1, seat 0's coins on unrevealed taverns are redealt (and only those); seat 1's own
    coins and every revealed coin stay."""
    state = _after_bids(engine, ["b5", "b0", "b3"], ["b4", "b2", "b0"])
    before = data_of(state)
    seen = set()
    for k in range(12):
        other = data_of(state.resample_from_infostate(1, engine.Rng(k)))
        assert other["seats"][1] == before["seats"][1]
        assert other["seats"][0]["bids"][0] == before["seats"][0]["bids"][0]  # the goblin coin is revealed
        hidden = other["seats"][0]["bids"][1:] + other["seats"][0]["hand"]
        assert sorted(hidden) == sorted(before["seats"][0]["bids"][1:] + before["seats"][0]["hand"])
        seen.add(tuple(other["seats"][0]["bids"]))
    assert len(seen) > 1  # the hidden coins do move


def test_the_pioneers_draws_are_hidden_from_the_others(engine):
    """§5.8 and §9 item 13: only the Pioneer sees the three cards drawn, and the Age II deck counts the others
    see do not give them away."""
    state = start(engine, 2)
    game = state.__reduce__()[1][0] if engine.name == "rust" else state.game
    data = data_of(state)
    # Straight to the Troop Evaluation's Pioneer item: seat 0 has the only Explorer.
    data.update(phase="pioneer_draw", current=-1, queue=[["pioneer", 0, 0], ["age2", -1, 0]], turn=3)
    data["pioneer_at"] = len(data["history"])
    data["decks"][0] = [0] * 23
    data["seats"][0]["army"][2] = [2]
    data["distinctions"] = [-1, -1, -1, -1, 0]  # seat 0 won the Pioneer of the Kingdom
    state = game.deserialize_state(json.dumps(data))
    one, two = state.clone(), state.clone()
    act(one, "card warrior7", "card hunter", "card blacksmith")
    act(two, "card miner0", "card hunter", "card explorer6")
    assert one.current_player() == 0 and texts(one) == ["keep blacksmith", "keep hunter", "keep warrior7"]
    assert _views(one, 1)[0] == _views(two, 1)[0]  # the tensor of seat 1
    assert _views(one, 1)[2] == _views(two, 1)[2]  # and its information state
    assert _views(one, 0)[0] != _views(two, 0)[0]
    act(one, "keep warrior7")
    assert data_of(one)["seats"][0]["army"][4] == [17]  # warrior7 enters the Warriors


def test_thrud_and_ylud_items_of_a_seat_without_them_are_dropped(engine):
    """§9 item 17: "`thrud` when the seat's Thrud is not in hand, `ylud` for a seat without Ylud" are dropped
    when they reach the front of the queue (the oracle once stopped at them; found by the parity fuzz)."""
    state = _after_bids(engine, ["b5", "b0", "b3"], ["b4", "b2", "b3"])
    act(state, "take warrior7")  # seat 0 (b5) takes; seat 1 is next

    def queue_behind_a_transform(data):
        data.update(phase="transform", current=0)
        data["queue"] = [["transform", 0, 3], ["thrud", 1, 0], ["ylud", 1, 0]]

    state = edit(state, queue_behind_a_transform)
    act(state, "transform b2")
    data = data_of(state)
    assert (data["phase"], data["current"], data["queue"]) == ("take", 1, [])


def test_transforming_one_of_two_equal_coins_does_not_reveal_where_the_other_is(engine):
    """§9 item 12: a transformed hand coin that was shown leaves ``shown_hand`` even when the hand holds
    another coin of its value, since which copy was transformed is not public. Seat 0 owns the same coins in
    two games (so the Treasure and the coin totals match), b5 on the Laughing Goblin, a shown 8 in its pouch
    and the other 8 either in the pouch or on the Dancing Dragon; it transforms an 8 by 5. Seat 1 must see
    the same in both games (the Rust core once kept the 8 shown when the other 8 was in the pouch, which
    told where the Dragon's coin was not; found by the parity fuzz)."""
    views = []
    for pouch, bids in ((["t8", "t8"], ["b5", "b0", "b3"]), (["t8", "b0"], ["b5", "t8", "b3"])):
        state = _after_bids(engine, ["b5", "b0", "b3"], ["b4", "b2", "b3"])
        act(state, "take warrior7")  # seat 0 (b5) takes; seat 1 is next

        def a_pending_offering(data, pouch=pouch, bids=bids):
            set_coins(data, 0, pouch, bids)
            data["seats"][0]["shown_hand"] = [nid.coin("t8")]
            data.update(phase="transform", current=0)
            data["queue"] = [["transform", 0, 5]]

        state = edit(state, a_pending_offering)
        act(state, "transform t8")
        data = data_of(state)
        assert sorted(data["seats"][0]["hand"]) == sorted([nid.coin(pouch[1]), nid.coin("t13")])
        assert data["seats"][0]["shown_hand"] == [nid.coin("t13")]
        views.append(_views(state, 1))
    assert views[0] == views[1]


def test_a_seat_without_a_gem_is_refused_outside_the_gem_deal(engine):
    """§9 item 20: every seat holds a gem from the deal on; a state with a gem 0 mid-turn is refused by both
    engines alike (found by the parity fuzz: the two engines ended the turn in different orders)."""
    state = _after_bids(engine, ["b5", "b0", "b3"], ["b4", "b2", "b3"])

    act(state, "take warrior7")

    def no_gem(data):  # a pending Royal Offering sets the phase, so only the missing gem is wrong
        data.update(phase="transform", current=0)
        data["queue"] = [["transform", 0, 5]]
        data["seats"][1]["gem"] = 0

    edit(state, lambda data: no_gem(data) or data["seats"][1].update(gem=5))  # accepted with the gem

    with pytest.raises(meeplex.InvalidStateError, match="no gem"):
        edit(state, no_gem)
