"""Flip City: every rulebook example and FAQ answer (docs/rules/flip_city.md §9) as a scenario, both engines.

Each test builds a position in the serialization format (``flip_city_positions.position``), applies the
actions of the example and checks the outcome the rulebook states. The docstring quotes the rulebook.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import meeplex
from flip_city_positions import (
    APT,
    CHURCH,
    CS,
    DEFAULT_PARAMS,
    END,
    FACTORY,
    HOSP,
    MALL,
    OFFICE,
    PARK,
    PLANT,
    PLAY,
    RA,
    STATION,
    STOP,
    TRADE,
    buy,
    counts,
    develop,
    flip,
    load,
    position,
    positions,
    recycle,
    remove,
    seat,
    shuffle,
    target,
    view,
)
from meeplex.errors import IllegalActionError
from meeplex.testing import random_action


# §6: the index of the unhappiness limit in the observation tensor (after the seats' 36 values each, the
# supply and play area, the current-seat one-hot, cash, points and unhappiness).
def limit_index(players: int) -> int:
    return 36 * players + 24 + players + 3


def play_turn(players: int = 2, deck=(), **fields) -> dict:
    """Seat 0 in its Play Cards phase with ``deck`` as its known deck; seat 1 has a known card on top so that
    the next turn starts without a chance node."""
    seats = [seat(deck_known=deck)] + [seat(deck_known=[CS]) for _ in range(players - 1)]
    return position(players, seats=seats, **fields)


def build_turn(players: int = 2, discard=(), **fields) -> dict:
    """Seat 0 in its Building phase, main action available, with ``discard`` as its discard pile."""
    seats = [seat(discard=discard)] + [seat(deck_known=[CS]) for _ in range(players - 1)]
    fields.setdefault("main", True)
    return position(players, seats=seats, phase="build", **fields)


# --- A: Play Cards Phase -----------------------------------------------------------------------------------


def test_shopping_mall_provides_cash_and_point(make):
    """Play Cards 1: "Example: A Shopping Mall provides 2 cash and 1 point when played." and its card text
    "If your deck is not empty, you must play an additional card."."""
    game, state = load(make, play_turn(deck=[MALL, CS]))
    state.apply_action(PLAY)
    v = view(state)
    assert (v["cash"], v["points"], v["unhappiness"]) == (2, 1, 0)
    assert v["forced"] is True
    assert state.legal_actions() == [PLAY]  # the obligation: no stop
    state.apply_action(PLAY)
    v = view(state)
    assert (v["cash"], v["points"], v["forced"]) == (3, 1, False)
    assert state.legal_actions() == [STOP]  # deck and discard pile empty


def test_shopping_mall_as_last_card_forces_nothing(make):
    """Shopping Mall: "If your deck is not empty, you must play an additional card." (it is empty here)."""
    game, state = load(make, play_turn(deck=[MALL]))
    state.apply_action(PLAY)
    assert view(state)["forced"] is False
    assert state.legal_actions() == [STOP]


def test_residential_area_on_top_must_be_played(make):
    """Residential Area: "When Residential Area is the top card of your deck, you must play it.", though a
    recycle may come first (interpretation 12)."""
    game, state = load(make, play_turn(deck=[RA, CS]))
    assert state.legal_actions() == [PLAY]
    pos = play_turn(deck=[RA, CS])
    pos["seats"][0]["discard"] = counts({CHURCH: 1})
    pos["supply"][HOSP] -= 1
    game, state = load(make, pos)
    assert state.legal_actions() == [PLAY, recycle(CHURCH)]


@pytest.mark.parametrize(
    ("hospital_cash", "deck", "cash_after"),
    [
        (1, [HOSP, HOSP], [2, 5]),  # FAQ Q1: 2 cash, then 3 more
        (0, [HOSP, HOSP], [1, 3]),  # interpretation 1, the card list read literally
        (1, [RA, HOSP], [1, 4]),  # an unhappiness before: 1 printed + 2 counted
    ],
)
def test_faq1_hospital_cash(make, hospital_cash, deck, cash_after):
    """FAQ Q1: "Simply count how many unhappiness you have when you play the Hospital, including the one on
    the Hospital itself. If there's no unhappiness before the Hospital, the first Hospital you play gives
    you 2 cash, the second gives you 3 more cash, etc." """
    game, state = load(make, play_turn(deck=deck + [CS], params={"hospital_cash": hospital_cash}))
    for expected in cash_after:
        state.apply_action(PLAY)
        assert view(state)["cash"] == expected
    assert view(state)["unhappiness"] == 2
    assert state.current_player() == 0


def test_faq2_limit_and_eight_points_same_turn_no_win(make):
    """FAQ Q2: "Your turn would end immediately during the Play Cards Phase. You check for victory only at
    the end of the Building Phase, so in this situation you would not win and it would be the next player's
    turn." """
    pos = play_turn(
        deck=[RA, CS],
        play_area=[PARK, PARK, PLANT, STATION, RA, RA],
        cash=3,
        points=8,
        unhappiness=2,
    )
    game, state = load(make, pos)
    assert state.legal_actions() == [PLAY]
    state.apply_action(PLAY)
    v = view(state)
    assert state.current_player() == 1
    assert not state.is_terminal()
    assert (v["winner"], v["turn"], v["phase"], v["current"]) == (-1, 1, "play", 1)
    assert (v["cash"], v["points"], v["unhappiness"]) == (0, 0, 0)
    assert v["play_area"] == [0] * 12
    assert v["seats"][0]["discard"] == counts({PARK: 2, PLANT: 1, STATION: 1, RA: 3})
    assert state.returns() == [0.0, 0.0]
    assert state.scores() == [0.0, 0.0]  # the turn never reached the end of its Building phase


def test_a3_residential_area_not_played_after_exceeding_limit(make):
    """A.3: "if there are 3 or more unhappiness among the cards you played, your turn ends immediately ...
    If you exceed your limit and there is still a Residential Area on top of your deck, you do not play
    it." """
    game, state = load(make, play_turn(deck=[RA, RA], play_area=[RA, RA], cash=2, unhappiness=2))
    state.apply_action(PLAY)
    v = view(state)
    assert state.current_player() == 1
    assert v["seats"][0]["deck_known"] == [RA]
    assert v["seats"][0]["discard"][RA] == 3


def test_church_played_raises_limit(make):
    """A.3 Note: "The Church increases this limit during a turn in which it is played or recycled, allowing
    you to safely play more unhappiness." (played)"""
    game, state = load(make, play_turn(deck=[CHURCH, RA], play_area=[RA, RA], cash=2, unhappiness=2))
    state.apply_action(PLAY)
    assert view(state)["limit_bonus"] == 1
    assert state.observation_tensor(0)[limit_index(2)] == 3
    state.apply_action(PLAY)
    v = view(state)
    assert state.current_player() == 0 and v["phase"] == "play"
    assert v["unhappiness"] == 3
    assert state.legal_actions() == [STOP]


def test_church_recycled_raises_limit(make):
    """A.3 Note: "The Church increases this limit during a turn in which it is played or recycled"; A.4:
    "the recycled card still remains in your discard pile"."""
    pos = play_turn(deck=[RA, CS], play_area=[RA, RA], cash=2, unhappiness=2)
    pos["seats"][0]["discard"] = counts({CHURCH: 1})
    pos["supply"][HOSP] -= 1
    game, state = load(make, pos)
    state.apply_action(recycle(CHURCH))
    v = view(state)
    assert v["limit_bonus"] == 1
    assert v["seats"][0]["discard"] == counts({HOSP: 1})
    state.apply_action(PLAY)
    assert state.current_player() == 0 and view(state)["unhappiness"] == 3
    assert state.observation_tensor(1)[limit_index(2)] == 3


@pytest.mark.parametrize(
    ("face", "flag", "field", "gain"),
    [(MALL, "mall_recycle", "cash", 1), (STATION, "station_recycle", "points", 1)],
)
def test_recycle_icons(make, face, flag, field, gain):
    """Card Reference, recycle icons "Gain 1 cash for this turn." / "Gain 1 point for this turn." as assigned
    by interpretation 5, and switched off by their parameter."""
    for enabled in (True, False):
        pos = play_turn(deck=[CS], params={flag: enabled})
        pos["seats"][0]["discard"] = counts({face: 1})
        pos["supply"][face - 1] -= 1
        game, state = load(make, pos)
        assert (recycle(face) in state.legal_actions()) == enabled
        if enabled:
            state.apply_action(recycle(face))
            v = view(state)
            assert v[field] == gain
            assert v["seats"][0]["discard"] == counts({face - 1: 1})


def test_trade_center_recycled_raises_limit(make):
    """Trade Center: "Recycle Ability: Increase your unhappiness limit by 1 until the end of the turn."; A.4:
    "the recycled card still remains in your discard pile" (now an Office)."""
    pos = play_turn(deck=[RA], play_area=[RA, RA], cash=2, unhappiness=2, params={"office": True})
    pos["seats"][0]["discard"] = counts({TRADE: 1})
    pos["supply"][OFFICE] -= 1
    game, state = load(make, pos)
    assert state.legal_actions() == [PLAY, recycle(TRADE)]
    state.apply_action(recycle(TRADE))
    v = view(state)
    assert v["limit_bonus"] == 1 and v["seats"][0]["discard"] == counts({OFFICE: 1})
    state.apply_action(PLAY)
    assert state.current_player() == 0 and view(state)["unhappiness"] == 3


# --- B: Building Phase -------------------------------------------------------------------------------------


def test_stop_sets_up_building_allowances(make):
    """Central Park: "You may Buy 1 time in addition to your action this Building Phase."; Station: "You may
    Flip 1 time in addition to your action ... Flip fees are 1 less this turn." (two Stations: interp. 14)"""
    game, state = load(make, play_turn(play_area=[PARK, PARK, STATION, STATION], points=8))
    state.apply_action(STOP)
    v = view(state)
    assert (v["phase"], v["main"], v["extra_buys"], v["extra_flips"], v["discount"]) == (
        "build",
        True,
        2,
        2,
        2,  # FC interp. 14, `station_stack`: "Flip fees are 1 less this turn" for each Station
    )


def test_central_park_extra_buy(make):
    """Central Park: "You may Buy 1 time in addition to your action this Building Phase."; B: "you may choose
    one (and only one) action"."""
    game, state = load(make, build_turn(cash=4, extra_buys=1, play_area=[PARK]))
    assert buy(CS) in state.legal_actions() and buy(HOSP) in state.legal_actions()
    state.apply_action(buy(CS))
    v = view(state)
    assert (v["extra_buys"], v["main"], v["cash"]) == (0, True, 2)
    assert v["seats"][0]["discard"][CS] == 1
    state.apply_action(buy(CS))
    v = view(state)
    assert (v["main"], v["cash"]) == (False, 0)
    assert v["seats"][0]["discard"][CS] == 2
    assert state.legal_actions() == [END]


def test_extra_buy_alone_allows_no_develop_or_flip(make):
    """B: "Some cards can provide you with the option to take additional actions" — an extra Buy is a Buy
    only (interpretation 15)."""
    game, state = load(make, build_turn(cash=20, extra_buys=1, main=False, discard=[RA]))
    assert state.legal_actions() == [END, buy(CS), buy(PARK), buy(HOSP), buy(FACTORY)]


def test_station_extra_flip_and_discount(make):
    """Station: "You may Flip 1 time in addition to your action this Building Phase. Flip fees are 1 less
    this turn." """
    game, state = load(make, build_turn(cash=3, extra_flips=1, discount=True, discard=[RA, HOSP]))
    assert {flip(RA), flip(HOSP)} <= set(state.legal_actions())
    state.apply_action(flip(RA))  # fee 1 - 1 = 0, with the extra flip
    v = view(state)
    assert (v["cash"], v["extra_flips"], v["main"]) == (3, 0, True)
    assert v["seats"][0]["discard"] == counts({APT: 1, HOSP: 1})
    state.apply_action(flip(HOSP))  # fee 4 - 1 = 3, the main action
    v = view(state)
    assert (v["cash"], v["main"]) == (0, False)
    assert v["seats"][0]["discard"] == counts({APT: 1, CHURCH: 1})
    assert state.legal_actions() == [END]


@pytest.mark.parametrize("discount", [True, False])
def test_develop_pays_cost_and_fee(make, discount):
    """B: "DEVELOP: Choose a card in the general supply, pay its cost AND its Flip fee, and put it into your
    discard pile with its back side up." (Convenience Store: 2 + 3, or 2 + 2 with a Station.)"""
    game, state = load(make, build_turn(cash=4, discount=discount))
    assert (develop(CS) in state.legal_actions()) == discount
    if discount:
        supply_before = view(state)["supply"][CS]
        state.apply_action(develop(CS))
        v = view(state)
        assert v["seats"][0]["discard"] == counts({MALL: 1})
        assert (v["supply"][CS], v["cash"], v["main"]) == (supply_before - 1, 0, False)


def test_faq3_empty_supply_cannot_buy(make):
    """FAQ Q3: "What if the general supply is empty? You simply can't buy any cards." """
    game, state = load(make, build_turn(cash=20, supply=[]))
    assert state.legal_actions() == [END]
    before = state.serialize()
    with pytest.raises(IllegalActionError):
        state.apply_action(buy(CS))
    assert state.serialize() == before


# --- Card effects ------------------------------------------------------------------------------------------


def test_factory_bottom_card_known(make):
    """Factory: "If your deck is not empty, place the bottom card from your deck into your discard pile." """
    game, state = load(make, play_turn(deck=[FACTORY, CS, HOSP]))
    state.apply_action(PLAY)
    v = view(state)
    assert v["cash"] == 2
    assert v["seats"][0]["deck_known"] == [CS]
    assert v["seats"][0]["discard"] == counts({HOSP: 1})


def test_factory_bottom_card_unknown_is_chance(make):
    """Factory: "place the bottom card from your deck into your discard pile" — an unknown bottom card is a
    chance outcome weighted by the counts (interpretation 10), before the next top card is revealed."""
    pos = play_turn(deck=[FACTORY])
    pos["seats"][0]["deck_unknown"] = counts({RA: 2, HOSP: 1})
    pos["seats"][1]["discard"][RA] -= 2
    pos["supply"][HOSP] -= 1
    game, state = load(make, pos)
    state.apply_action(PLAY)
    assert state.current_player() == meeplex.CHANCE
    assert view(state)["pending"] == "bottom"
    assert state.chance_weights() == [(RA, 2), (HOSP, 1)]
    assert state.action_to_string(HOSP) == "bottom Hospital"
    state.apply_action(HOSP)
    v = view(state)
    assert v["seats"][0]["discard"] == counts({HOSP: 1})
    assert v["seats"][0]["deck_unknown"] == counts({RA: 2})
    assert state.current_player() == meeplex.CHANCE and v["pending"] == "none"
    assert state.chance_weights() == [(RA, 2)]
    assert state.action_to_string(RA) == "reveal Residential Area"
    state.apply_action(RA)
    assert view(state)["seats"][0]["deck_known"] == [RA]
    assert state.current_player() == 0


def test_factory_as_last_card(make):
    """Factory: "If your deck is not empty, ..." — the deck is empty once the Factory is played."""
    game, state = load(make, play_turn(deck=[FACTORY]))
    state.apply_action(PLAY)
    v = view(state)
    assert v["cash"] == 2 and v["seats"][0]["discard"] == [0] * 12


def test_power_plant_recycled_to_top(make):
    """Power Plant: "Recycle Ability: After Recycling this card, put it on top of your deck." (as a Factory:
    recycling turns the card over)."""
    pos = play_turn(deck=[CS])
    pos["seats"][0]["discard"] = counts({PLANT: 1})
    pos["supply"][FACTORY] -= 1
    game, state = load(make, pos)
    assert recycle(PLANT) in state.legal_actions()
    state.apply_action(recycle(PLANT))
    v = view(state)
    assert v["seats"][0]["deck_known"] == [FACTORY, CS]
    assert v["seats"][0]["discard"] == [0] * 12
    state.apply_action(PLAY)  # the Factory's effect sends the Convenience Store to the discard pile
    v = view(state)
    assert v["cash"] == 2 and v["seats"][0]["discard"] == counts({CS: 1})


def test_power_plant_gives_apartment(make):
    """Power Plant: "Place an Apartment from your discard pile into another player's discard pile."
    (interpretation 8: mandatory, the player chooses the receiver)."""
    pos = play_turn(players=3, deck=[PLANT, CS])
    pos["seats"][0]["discard"] = counts({APT: 1})
    pos["seats"][1]["discard"][RA] -= 1
    game, state = load(make, pos)
    state.apply_action(PLAY)
    v = view(state)
    assert (v["cash"], v["points"], v["pending"]) == (1, 2, "give_apartment")
    assert state.current_player() == 0
    assert state.legal_actions() == [target(1), target(2)]
    before = [s["discard"][APT] for s in v["seats"]]
    state.apply_action(target(2))
    v = view(state)
    assert [s["discard"][APT] for s in v["seats"]] == [before[0] - 1, before[1], before[2] + 1]
    assert v["pending"] == "none"


def test_apartment_flipped_to_another_player(make):
    """Apartment: "Flip this card and place it on top of another player's discard pile." (Flip Fee: 8)"""
    pos = build_turn(players=3, cash=8, discard=[APT])
    game, state = load(make, pos)
    assert flip(APT) in state.legal_actions()
    state.apply_action(flip(APT))
    assert view(state)["pending"] == "give_residential"
    assert state.current_player() == 0
    assert state.legal_actions() == [target(1), target(2)]
    ra_before = [s["discard"][RA] for s in view(state)["seats"]]
    state.apply_action(target(1))
    v = view(state)
    assert [s["discard"][RA] for s in v["seats"]] == [ra_before[0], ra_before[1] + 1, ra_before[2]]
    assert v["seats"][0]["discard"][APT] == 0
    assert (v["cash"], v["main"], v["pending"]) == (0, False, "none")


def test_apartment_flip_needs_its_fee(make):
    """Apartment: "Flip Fee: 8"."""
    game, state = load(make, build_turn(cash=7, discard=[APT]))
    assert flip(APT) not in state.legal_actions()


def test_office_set_aside_at_shuffle(make):
    """Office: "When you would shuffle this card, you may set it aside instead, placing it on top
    afterwards."; A.2: "you must decide whether to stop ... or to shuffle your discard pile"."""
    pos = play_turn(deck=[], params={"office": True})
    pos["seats"][0]["discard"] = counts({OFFICE: 2, RA: 3})
    pos["seats"][1]["discard"][RA] -= 3
    pos["supply"][OFFICE] -= 2
    game, state = load(make, pos)
    assert state.legal_actions() == [STOP, shuffle(0), shuffle(1), shuffle(2)]
    assert state.action_to_string(shuffle(2)) == "shuffle aside 2"
    assert state.string_to_action("  Shuffle   ASIDE 2 ") == shuffle(2)
    state.apply_action(shuffle(2))
    v = view(state)
    assert v["seats"][0]["deck_known"] == [OFFICE, OFFICE]
    assert v["seats"][0]["deck_unknown"] == counts({RA: 3})
    assert v["seats"][0]["discard"] == [0] * 12
    assert state.current_player() == 0


def test_trade_center_played_shuffles_discard_into_deck(make):
    """Trade Center: "Flip this card, then shuffle your discard pile into your deck." (interpretation 6)"""
    pos = play_turn(deck=[TRADE, HOSP], params={"office": True})
    pos["seats"][0]["discard"] = counts({OFFICE: 1, CS: 1})
    pos["supply"][OFFICE] -= 1
    pos["supply"][CS] -= 1
    game, state = load(make, pos)
    state.apply_action(PLAY)
    v = view(state)
    assert v["play_area"] == counts({OFFICE: 1}) and v["pending"] == "shuffle"
    assert state.legal_actions() == [shuffle(0), shuffle(1)]
    state.apply_action(shuffle(1))
    v = view(state)
    assert v["seats"][0]["deck_known"] == [OFFICE]
    assert v["seats"][0]["deck_unknown"] == counts({CS: 1, HOSP: 1})
    assert v["seats"][0]["discard"] == [0] * 12 and v["pending"] == "none"


# --- Victory -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3])
def test_victory_by_eight_points(make, players):
    """B: "if you satisfied one of the victory conditions (you were provided with 8 points, ...) then you
    win!" """
    pos = build_turn(players=players, points=8, play_area=[PARK, PARK, PLANT, STATION])
    game, state = load(make, pos)
    state.apply_action(END)
    assert state.is_terminal() and state.current_player() == meeplex.TERMINAL
    assert view(state)["winner"] == 0
    assert state.returns() == [1.0] + [0.0] * (players - 1)
    assert state.scores() == [8.0] + [0.0] * (players - 1)
    assert state.legal_actions() == []


def test_seven_points_do_not_win(make):
    """B: "you were provided with 8 points" — 7 are not enough; the best score still counts (§4.5)."""
    game, state = load(make, build_turn(points=7, play_area=[PARK, PARK, PLANT, MALL]))
    state.apply_action(END)
    assert not state.is_terminal() and state.current_player() == 1
    assert state.returns() == [0.0, 0.0]
    assert state.scores() == [7.0, 0.0]


@pytest.mark.parametrize(
    ("play_area", "wins"),
    [
        ({CS: 6, FACTORY: 6, CHURCH: 6}, True),
        ({CS: 6, FACTORY: 6, CHURCH: 5}, False),  # 17 cards
        ({MALL: 6, FACTORY: 6, CHURCH: 6}, False),  # no Convenience Store (interpretation 17)
    ],
)
def test_victory_by_convenience_store_and_eighteen_cards(make, play_area, wins):
    """Convenience Store: "If you play 18 or more cards this turn, you win!"; B: "you played a Convenience
    Store and at least 18 cards during this turn"."""
    points = 6 if MALL in play_area else 0
    game, state = load(make, build_turn(play_area=play_area, points=points))
    state.apply_action(END)
    assert state.is_terminal() == wins
    assert state.returns() == ([1.0, 0.0] if wins else [0.0, 0.0])


def test_turn_limit_ends_without_winner(make):
    """Game End: the rulebook's game can last forever; ``max_turns`` ends it with no winner (interp. 18)."""
    pos = build_turn(params={"max_turns": 1}, current=1, turn=1)
    game, state = load(make, pos)
    assert state.current_player() == 1
    state.apply_action(END)
    assert state.is_terminal()
    assert state.returns() == [0.0, 0.0]
    assert view(state)["winner"] == -1


# --- Solo Variant ------------------------------------------------------------------------------------------

SOLO_CARDS = {RA: 4, APT: 1, CS: 1, PARK: 1, HOSP: 1, FACTORY: 1}


def test_solo_removal_at_each_shuffle(make):
    """Solo 2: "During the Play Cards Phase, each time you shuffle your deck, you must choose a card in the
    supply and remove it from the game (place it back in the box)." """
    game, state = load(make, position(1, seats=[seat(discard=SOLO_CARDS)]))
    assert state.legal_actions() == [STOP, shuffle(0)]
    state.apply_action(shuffle(0))
    assert view(state)["pending"] == "remove"
    # §4 "Whose move it is": the new deck's top card is revealed first, then the seat removes a card.
    assert state.current_player() == meeplex.CHANCE
    state.apply_action(CS)
    assert state.current_player() == 0
    assert state.legal_actions() == [remove(CS), remove(PARK), remove(HOSP), remove(FACTORY)]
    state.apply_action(remove(HOSP))
    v = view(state)
    assert (v["removed"][HOSP], v["supply"][HOSP], v["pending"]) == (1, 3, "none")
    assert v["seats"][0]["deck_known"] == [CS]


def test_solo_loss_when_removal_empties_supply(make):
    """Solo 3: "the player must achieve it BEFORE the supply runs out of cards. When the supply is empty,
    you lose." """
    game, state = load(make, position(1, seats=[seat(discard=SOLO_CARDS)], supply={CS: 1}))
    state.apply_action(shuffle(0))
    state.apply_action(RA)  # the new top card
    assert state.legal_actions() == [remove(CS)]
    state.apply_action(remove(CS))
    assert state.is_terminal()
    assert state.returns() == [0.0]
    assert view(state)["winner"] == -1


def test_solo_loss_when_buying_the_last_card_even_with_eight_points(make):
    """Solo 3: "the player must achieve it BEFORE the supply runs out of cards." (interpretation 16)"""
    pos = position(
        1,
        seats=[seat(deck_known=[RA], deck_unknown={RA: 3, APT: 1, PARK: 1, HOSP: 1, FACTORY: 1})],
        supply={CS: 1},
        phase="build",
        main=True,
        cash=2,
        points=8,
        play_area=[CS],
    )
    game, state = load(make, pos)
    state.apply_action(buy(CS))
    assert state.is_terminal()
    assert state.returns() == [0.0]


def test_solo_win(make):
    """Solo 3: "The winning condition is the same as the regular game"."""
    pos = position(
        1,
        seats=[seat(deck_known=[RA], deck_unknown={RA: 3, APT: 1, CS: 1, HOSP: 1, FACTORY: 1})],
        phase="build",
        main=True,
        points=8,
        play_area=[PARK],
    )
    game, state = load(make, pos)
    state.apply_action(END)
    assert state.is_terminal() and state.returns() == [1.0]


def test_solo_apartment_flip_removes_it(make):
    """Solo 4: "When Flipping an Apartment, remove it from the game." """
    pos = position(
        1,
        seats=[seat(discard={APT: 1, RA: 4}, deck_known=[CS], deck_unknown={PARK: 1, HOSP: 1, FACTORY: 1})],
        phase="build",
        main=True,
        cash=8,
    )
    game, state = load(make, pos)
    state.apply_action(flip(APT))
    v = view(state)
    assert v["removed"][APT] == 1 and v["seats"][0]["discard"] == counts({RA: 4})
    assert v["pending"] == "none" and v["cash"] == 0


def test_solo_power_plant_has_no_target(make):
    """Power Plant: "Place an Apartment ... into another player's discard pile." — solo: no other player."""
    pos = position(
        1, seats=[seat(deck_known=[PLANT, CS], discard={APT: 1, RA: 4}, deck_unknown={PARK: 1, HOSP: 1})]
    )
    game, state = load(make, pos)
    state.apply_action(PLAY)
    v = view(state)
    assert v["pending"] == "none" and v["seats"][0]["discard"][APT] == 1


# --- The contract's fixed facts (§1, §5, §6) ----------------------------------------------------------------


def supply_size(players: int, office: bool) -> int:
    return (4 * (5 if office else 4)) if players == 1 else 40 + (10 if office else 0)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("office", [False, True])
@pytest.mark.parametrize("max_turns", [1, 100, 1000])
def test_sizes(make, players, office, max_turns):
    """§5: 78 actions, 12 chance outcomes, max_game_length = players + max_turns x players x (12 C + 16)
    with C = 9 x players + the supply; §6: the observation has 37 x players + 42 values; §1: seven params."""
    game = make("flip_city", players=players, office=office, max_turns=max_turns)
    cards = 9 * players + supply_size(players, office)
    assert game.num_players() == players
    assert game.num_distinct_actions() == 78 and game.max_chance_outcomes() == 12
    assert game.max_game_length() == players + max_turns * players * (12 * cards + 16)
    # §6: and the deck-order block, C slots and the best per seat, then 3 turn values.
    assert tuple(game.observation_shape()) == (37 * players + 42 + players * (cards + 1) + 3,)
    assert game.name == "flip_city"
    assert game.params == dict(DEFAULT_PARAMS, players=players, office=office, max_turns=max_turns)


def expected_observation(pos: dict, observer: int) -> list[float]:
    """§6 computed from the serialized state: what ``observation_tensor(observer)`` must hold."""
    players = pos["params"]["players"]
    out: list[float] = []
    for k in range(players):
        s = pos["seats"][(observer + k) % players]
        deck = [u + s["deck_known"].count(f) for f, u in enumerate(s["deck_unknown"])]
        top = [0] * 12
        if s["deck_known"]:
            top[s["deck_known"][0]] = 1
        out += deck + top + s["discard"]
    out += pos["supply"] + pos["play_area"]
    current = [0] * players
    if pos["phase"] != "over":
        current[(pos["current"] - observer) % players] = 1
    out += current
    out += [pos["cash"], pos["points"], pos["unhappiness"], 2 + pos["limit_bonus"], pos["forced"]]
    out += [pos["main"], pos["extra_buys"], pos["extra_flips"], pos["discount"], pos["turn"]]
    out += [pos["phase"] == p for p in ("play", "build", "over")]
    out += [
        pos["pending"] == p for p in ("shuffle", "give_apartment", "give_residential", "remove", "bottom")
    ]
    # §6 deck-order block: each seat's deck_known in order, 1 + its face per slot (0 after), then its best.
    cards = sum(pos["supply"]) + sum(pos["play_area"]) + sum(pos["removed"])
    cards += sum(len(s["deck_known"]) + sum(s["deck_unknown"]) + sum(s["discard"]) for s in pos["seats"])
    if pos["pending"] == "give_residential":
        cards += 1
    for k in range(players):
        s = pos["seats"][(observer + k) % players]
        order = [0] * cards
        for i, f in enumerate(s["deck_known"]):
            order[i] = 1 + f
        out += order + [s["best"]]
    out += [pos["played"], pos["store_played"], pos["shuffled"]]
    return [float(x) for x in out]


@settings(max_examples=40)
@given(pos=positions(), steps=st.integers(0, 30), seed=st.integers(0, 2**64 - 1))
def test_observation_layout_and_views(engine, pos, steps, seed):
    """§6 observation layout, §4.5 returns and scores, §6 information_state_string, all read off the
    serialized state of positions reached from random ones."""
    game, state = load(engine.make, pos)
    rng = engine.Rng(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(random_action(state, rng))
    v = view(state)
    players = v["params"]["players"]
    for p in range(players):
        assert state.observation_tensor(p).tolist() == expected_observation(v, p), f"observer {p}"
        history = ",".join(str(a) for a in state.history())
        assert state.information_state_string(p) == f"seat={p} history={history}"
    assert state.scores() == [float(s["best"]) for s in v["seats"]]
    if v["phase"] == "over" and v["winner"] >= 0:
        assert state.returns() == [float(p == v["winner"]) for p in range(players)]
    else:
        assert state.returns() == [0.0] * players
    assert state.is_terminal() == (v["phase"] == "over")


def test_information_state_after_a_random_game(engine):
    """§6: ``information_state_string(p)`` is ``seat=<p> history=<ids joined by ",">``."""
    state = engine.play_random(engine.make("flip_city(max_turns=3)"), 7)
    history = ",".join(map(str, state.history()))
    assert [state.information_state_string(p) for p in (0, 1)] == [
        f"seat={p} history={history}" for p in (0, 1)
    ]


def test_resample_is_a_clone(engine):
    """§3: "The game therefore has no private information: resample_from_infostate returns a clone"."""
    game = engine.make("flip_city")
    state = game.new_initial_state()
    rng = engine.Rng(5)
    for _ in range(40):
        state.apply_action(random_action(state, rng))
    for p in (0, 1):
        again = state.resample_from_infostate(p, engine.Rng(p))
        assert again.serialize() == state.serialize()
        again.apply_action(again.legal_actions()[0])
        assert again.serialize() != state.serialize()  # a separate object


# --- Issue 14: the rulebook's words over the old readings ----------------------------------------------


def test_first_card_must_be_played_before_stopping(make):
    """A.1: "Play cards from the top of your deck onto the table in front of you, one at a time ... After you
    play each card, you must decide whether to play an additional card, or stop" (FC interp. 20)."""
    game, state = load(make, play_turn(deck=[CS, HOSP]))
    assert STOP not in state.legal_actions()
    state.apply_action(PLAY)
    assert STOP in state.legal_actions()
    game, state = load(make, play_turn(deck=[CS, HOSP], params={"stop_before_play": True}))
    assert STOP in state.legal_actions()  # the house reading


def test_empty_deck_may_stop_and_after_shuffling_may_stop(make):
    """A.2: "Whenever your deck has no more cards in it, you must decide whether to stop ... or to shuffle
    your discard pile ... After shuffling, you again have the option to play an additional card, or stop"."""
    pos = play_turn(deck=[])
    pos["seats"][0]["discard"] = counts([CS, HOSP])
    pos["supply"][CS] -= 1
    pos["supply"][HOSP] -= 1
    game, state = load(make, pos)
    assert STOP in state.legal_actions()
    state.apply_action(shuffle(0))
    while state.is_chance_node():
        state.apply_action(state.chance_weights()[0][0])
    assert STOP in state.legal_actions() and PLAY in state.legal_actions()


def test_two_stations_make_fees_two_less(make):
    """Station: "You may Flip 1 time in addition to your action this Building Phase. Flip fees are 1 less
    this turn." — each Station's sentence holds for it (FC interp. 14, station_stack)."""
    for stack, fee in ((True, 1), (False, 2)):
        params = {} if stack else {"station_stack": False}
        pos = play_turn(play_area=[STATION, STATION], params=params, cash=fee)
        pos["seats"][0]["discard"] = counts([CS])
        pos["supply"][CS] -= 1
        game, state = load(make, pos)
        state.apply_action(STOP)
        assert view(state)["discount"] == (2 if stack else 1)
        assert flip(CS) in state.legal_actions()  # Convenience Store fee 3
        state.apply_action(flip(CS))
        assert view(state)["cash"] == fee - (3 - (2 if stack else 1))


def test_trade_center_shuffle_sets_aside_offices_of_the_deck(make):
    """Office: "When you would shuffle this card, you may set it aside instead, placing it on top
    afterwards." — also at a Trade Center's "shuffle your discard pile into your deck" (FC interp. 6)."""
    pos = play_turn(deck=[TRADE, OFFICE, CS], params={"office": True})
    game, state = load(make, pos)
    state.apply_action(PLAY)
    assert view(state)["pending"] == "shuffle"
    assert shuffle(1) in state.legal_actions()  # the Office in the deck
    state.apply_action(shuffle(1))
    assert view(state)["seats"][0]["deck_known"] == [OFFICE]


def test_observation_keeps_the_known_order_of_the_deck(make):
    """FC §6: every public fact is observed. A recycled Power Plant goes "on top of your deck" above a known
    card: the order below the top is public too."""
    a = play_turn(deck=[CS, HOSP, RA])
    b = play_turn(deck=[CS, RA, HOSP])
    game, sa = load(make, a)
    game, sb = load(make, b)
    assert sa.observation_tensor(0).tolist() != sb.observation_tensor(0).tolist()
    assert sa.observation_string(0) != sb.observation_string(0)


# --- FC §7: counters stop at the readers' bound (a fuzz finding: FUZZ_SEED=10 deserialize) -----------------


@pytest.mark.parametrize("start", [9_999, 10_000])
def test_counters_stop_at_the_readers_bound(make, start):
    """FC §7 "Counters stop at 10000": a representation limit, so that every state reached from a readable
    one reads back. A Shopping Mall provides 2 cash and 1 point; from 9,999 or 10,000 both stop at 10,000,
    and so does `best` at the end of the turn."""
    pos = play_turn(deck=[MALL, MALL], play_area=[CS], cash=start, points=start)
    game, state = load(make, pos)
    for _ in range(2):
        state.apply_action(PLAY)
        v = view(state)
        assert (v["cash"], v["points"]) == (10_000, 10_000)
        again = game.deserialize_state(state.serialize())  # refused at 10,001 before the cap
        assert again.serialize() == state.serialize()
    state.apply_action(STOP)
    state.apply_action(END)
    v = view(state)
    assert v["seats"][0]["best"] == 10_000 and v["winner"] == 0
    assert game.deserialize_state(state.serialize()).serialize() == state.serialize()
