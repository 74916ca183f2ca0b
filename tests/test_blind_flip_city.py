"""Flip City: the blind scenarios of /work/blind/flip_city.md (FC-01 .. FC-20), written by a colleague who
read only the rulebook, as tests on both engines.  Each test sets the position up in the serialization format
of docs/rules/flip_city.md §7 (through ``flip_city_positions.position``), applies the scenario's actions and
checks the outcome the scenario expects. The scenario's "player 1" is seat 0, "player 2" seat 1, and so on.
Each docstring names the scenario and quotes the rulebook sentence it rests on."""

from __future__ import annotations

import meeplex
from flip_city_positions import (
    APT,
    CHURCH,
    CS,
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
    buy,
    counts,
    develop,
    flip,
    load,
    position,
    recycle,
    remove,
    seat,
    shuffle,
    target,
    view,
)


def start(make, deck=(), discard=(), best: int = 0, players: int = 2, params=None, **fields):
    """Seat 0 in its Play Cards phase with ``deck`` (top first) as its known deck; the other seats have a
    known Convenience Store on top, so that no chance node comes first."""
    seats = [seat(deck_known=deck, discard=discard, best=best)]
    seats += [seat(deck_known=[CS]) for _ in range(players - 1)]
    return load(make, position(players, seats=seats, params=params, **fields))


def apply(state, *actions: int) -> None:
    for action in actions:
        assert action in state.legal_actions(), (action, state.legal_actions())
        state.apply_action(action)


def seat0(state) -> dict:
    return view(state)["seats"][0]


# --- Play Cards phase: the unhappiness limit and forced plays -----------------------------------------------


def test_fc01_forced_residential_chain_busts(make):
    """FC-01. Card Reference: "When Residential Area is the top card of your deck, you must play it." Play
    Cards 3: "if there are 3 or more unhappiness among the cards you played, your turn ends immediately, and
    your played cards are placed into your discard pile." """
    game, state = start(make, deck=[CS, RA, RA, RA, FACTORY])
    apply(state, PLAY)
    assert state.legal_actions() == [PLAY]  # no stop: a Residential Area is on top
    apply(state, PLAY, PLAY)
    assert state.current_player() == 0 and view(state)["unhappiness"] == 2
    assert state.legal_actions() == [PLAY]
    apply(state, PLAY)
    v = view(state)
    assert state.current_player() == 1 and (v["current"], v["phase"], v["turn"]) == (1, "play", 1)
    assert v["seats"][0]["discard"] == counts({CS: 1, RA: 3})
    assert v["seats"][0]["deck_known"] == [FACTORY]
    assert v["supply"][CS] == 12  # nothing was bought: no Building phase


def test_fc02_two_unhappiness_is_safe_and_one_building_action(make):
    """FC-02. Play Cards 3: "You have an unhappiness limit of 2 ... if there are 3 or more unhappiness ...
    your turn ends immediately". Building Phase: "you may choose one (and only one) action". Factory: "If your
    deck is not empty, place the bottom card from your deck into your discard pile." """
    game, state = start(make, deck=[RA, FACTORY, RA, PARK, CS])
    apply(state, PLAY, PLAY)
    assert seat0(state)["discard"] == counts({CS: 1}) and seat0(state)["deck_known"] == [RA, PARK]
    assert state.legal_actions() == [PLAY]
    apply(state, PLAY)
    v = view(state)
    assert (v["cash"], v["unhappiness"]) == (4, 2)
    apply(state, STOP, buy(CS))
    assert seat0(state)["discard"][CS] == 2
    assert buy(CS) not in state.legal_actions()
    apply(state, END)
    v = view(state)
    assert v["seats"][0]["discard"] == counts({CS: 2, RA: 2, FACTORY: 1})
    assert v["seats"][0]["deck_known"] == [PARK] and v["current"] == 1


def test_fc03_at_two_unhappiness_the_residential_on_top_forces_the_bust(make):
    """FC-03. "When Residential Area is the top card of your deck, you must play it." and the limit rule."""
    game, state = start(make, deck=[HOSP, RA, PARK], play_area=[RA, CS], cash=2, unhappiness=1)
    apply(state, PLAY)
    assert view(state)["unhappiness"] == 2
    assert state.legal_actions() == [PLAY]
    apply(state, PLAY)
    v = view(state)
    assert state.current_player() == 1 and v["turn"] == 1
    assert v["seats"][0]["deck_known"] == [PARK]
    assert v["seats"][0]["discard"] == counts({RA: 2, CS: 1, HOSP: 1})


def test_fc04_over_the_limit_the_residential_on_top_is_not_played(make):
    """FC-04. Play Cards 3: "If you exceed your limit and there is still a Residential Area on top of your
    deck, you do not play it." """
    game, state = start(make, deck=[HOSP, RA, RA, PARK], play_area=[RA, RA], cash=2, unhappiness=2)
    apply(state, PLAY)
    v = view(state)
    assert state.current_player() == 1
    assert v["seats"][0]["deck_known"] == [RA, RA, PARK]
    assert v["seats"][0]["discard"] == counts({RA: 2, HOSP: 1})
    # Seat 1 takes a turn; then seat 0's first play is the forced Residential Area.
    apply(state, PLAY, STOP, END)
    assert state.current_player() == 0 and state.legal_actions() == [PLAY]


def test_fc05_hospital_cash_follows_the_faq(make):
    """FC-05. FAQ Q1: "If there's no unhappiness before the Hospital, the first Hospital you play gives you 2
    cash, the second gives you 3 more cash, etc." """
    game, state = start(make, deck=[HOSP, HOSP, PARK, RA])
    apply(state, PLAY)
    assert view(state)["cash"] == 2
    apply(state, PLAY)
    v = view(state)
    assert (v["cash"], v["unhappiness"]) == (5, 2)
    apply(state, STOP, buy(FACTORY))
    assert view(state)["cash"] == 0 and seat0(state)["discard"][FACTORY] == 1


def test_fc06_hospital_after_one_residential_area(make):
    """FC-06. FAQ Q1: "Simply count how many unhappiness you have when you play the Hospital, including the
    one on the Hospital itself." (with the printed 1 cash of facts A.3)."""
    game, state = start(make, deck=[RA, HOSP, PARK])
    apply(state, PLAY, PLAY)
    v = view(state)
    assert (v["cash"], v["unhappiness"]) == (4, 2)
    apply(state, STOP)
    assert view(state)["phase"] == "build"


# --- Victory ------------------------------------------------------------------------------------------------


def test_fc07a_eight_points_win_after_the_building_phase(make):
    """FC-07 (a). Building Phase: "After selecting and executing your action for the turn, if you satisfied
    one of the victory conditions (you were provided with 8 points, ...), then you win!" """
    game, state = start(make, deck=[PARK, PARK, PLANT, STATION, CS])
    apply(state, PLAY, PLAY, PLAY, PLAY)
    v = view(state)
    assert (v["points"], v["cash"]) == (8, 1)
    assert not state.is_terminal() and STOP in state.legal_actions()
    apply(state, STOP)
    assert not state.is_terminal() and view(state)["phase"] == "build"
    apply(state, END)
    assert state.is_terminal() and view(state)["winner"] == 0
    assert state.returns() == [1.0, 0.0]


def test_fc07b_points_do_not_carry_over(make):
    """FC-07 (b). Turn Ends: "Cash, points, and unhappiness you gained in a turn don't carry over to
    subsequent turns." """
    game, state = start(make, deck=[PARK, STATION, CS], best=6)
    apply(state, PLAY, PLAY, STOP, END)
    v = view(state)
    assert not state.is_terminal() and v["winner"] == -1 and v["current"] == 1
    assert v["seats"][0]["best"] == 6  # 4 this turn


def test_fc08_eight_points_then_forced_bust_no_win(make):
    """FC-08. FAQ Q2: "Your turn would end immediately during the Play Cards Phase. You check for victory only
    at the end of the Building Phase, so in this situation you would not win"."""
    game, state = start(make, deck=[PARK, PARK, PARK, PLANT, RA, RA, RA, FACTORY])
    apply(state, PLAY, PLAY, PLAY, PLAY)
    assert view(state)["points"] == 8
    assert state.legal_actions() == [PLAY]
    apply(state, PLAY, PLAY, PLAY)
    v = view(state)
    assert not state.is_terminal() and v["winner"] == -1 and state.current_player() == 1
    assert state.returns() == [0.0, 0.0]


def _play_all_then_build(state) -> None:
    while PLAY in state.legal_actions():
        state.apply_action(PLAY)
    apply(state, STOP)
    if buy(PARK) in state.legal_actions():
        apply(state, buy(PARK))
    apply(state, END)


def test_fc09a_eighteen_cards_with_a_convenience_store_win(make):
    """FC-09 (a). Building Phase: "...or you played a Convenience Store and at least 18 cards during this
    turn". Convenience Store: "If you play 18 or more cards this turn, you win!" """
    game, state = start(make, deck=[CS, OFFICE] * 9, params={"office": True})
    _play_all_then_build(state)
    assert state.is_terminal() and view(state)["winner"] == 0


def test_fc09b_seventeen_cards_do_not_win(make):
    """FC-09 (b). "...you played a Convenience Store and at least 18 cards during this turn" (17 here)."""
    game, state = start(make, deck=[CS, OFFICE] * 8 + [CS], params={"office": True})
    _play_all_then_build(state)
    assert not state.is_terminal() and view(state)["winner"] == -1


def test_fc09c_eighteen_cards_without_a_convenience_store_do_not_win(make):
    """FC-09 (c). Game End: "or satisfies another victory condition printed on a card they played (such as the
    Convenience Store)": 10 Office and 8 Church, no Convenience Store."""
    game, state = start(make, deck=[OFFICE] * 10 + [CHURCH] * 8, params={"office": True})
    _play_all_then_build(state)
    assert not state.is_terminal() and view(state)["winner"] == -1


def test_fc09d_a_shopping_mall_is_not_a_convenience_store(make):
    """FC-09 (c, last sentence). The condition is printed on the Convenience Store side; a Shopping Mall (its
    back) among 18 cards does not win (1 point only)."""
    game, state = start(make, deck=[MALL] + [OFFICE] * 10 + [CHURCH] * 7, params={"office": True})
    _play_all_then_build(state)
    assert not state.is_terminal() and view(state)["winner"] == -1


# --- Empty deck, Factory, Shopping Mall ---------------------------------------------------------------------


def test_fc10a_empty_deck_shuffle_leaves_played_cards_out(make):
    """FC-10 (a). Play Cards 2: "Whenever your deck has no more cards in it, you must decide whether to stop
    and move on to the Building Phase, or to shuffle your discard pile to recreate your deck. After shuffling,
    you again have the option to play an additional card, or stop". FLIP: "Cards you played this turn are not
    yet in your discard pile." """
    game, state = start(make, deck=[CS], discard=[PARK, HOSP, FACTORY])
    apply(state, PLAY)
    assert set(state.legal_actions()) == {STOP, shuffle(0)}
    apply(state, shuffle(0))
    v = view(state)
    assert v["seats"][0]["deck_unknown"] == counts({PARK: 1, HOSP: 1, FACTORY: 1})
    assert v["seats"][0]["deck_known"] == [] and v["seats"][0]["discard"] == counts()
    assert v["play_area"] == counts({CS: 1})
    assert state.current_player() == meeplex.CHANCE
    state.apply_action(HOSP)  # the new top card is revealed
    assert state.legal_actions() == [PLAY, STOP]


def test_fc10b_no_shuffle_while_the_deck_is_not_empty(make):
    """FC-10 (b). The shuffle is offered "Whenever your deck has no more cards in it"."""
    game, state = start(make, deck=[CS, PARK], discard=[PARK, HOSP, FACTORY])
    apply(state, PLAY)
    assert state.legal_actions() == [PLAY, STOP]


def test_fc11_factory_empties_a_one_card_deck(make):
    """FC-11. Factory: "If your deck is not empty, place the bottom card from your deck into your discard
    pile." """
    game, state = start(make, deck=[FACTORY, RA], discard=[PARK])
    apply(state, PLAY)
    v = view(state)
    assert (v["cash"], v["unhappiness"]) == (2, 0)
    assert v["seats"][0]["deck_known"] == [] and v["seats"][0]["discard"] == counts({PARK: 1, RA: 1})
    assert set(state.legal_actions()) == {STOP, shuffle(0)}
    apply(state, STOP, buy(CS), END)
    assert seat0(state)["discard"] == counts({PARK: 1, RA: 1, CS: 1, FACTORY: 1})


def test_fc12a_shopping_mall_forces_another_card(make):
    """FC-12 (a). Shopping Mall: "Provides: 2 cash, 1 point. If your deck is not empty, you must play an
    additional card." """
    game, state = start(make, deck=[MALL, PARK, HOSP])
    apply(state, PLAY)
    assert state.legal_actions() == [PLAY]
    apply(state, PLAY)
    v = view(state)
    assert (v["cash"], v["points"]) == (2, 3)
    assert state.legal_actions() == [PLAY, STOP]


def test_fc12b_shopping_mall_as_last_card_forces_nothing(make):
    """FC-12 (b). Shopping Mall: "If your deck is not empty, you must play an additional card." (empty)."""
    game, state = start(make, deck=[MALL], discard=[RA, PARK])
    apply(state, PLAY)
    assert STOP in state.legal_actions() and shuffle(0) in state.legal_actions()
    apply(state, STOP)
    v = view(state)
    assert (v["phase"], v["cash"], v["points"]) == ("build", 2, 1)


# --- Church, recycling --------------------------------------------------------------------------------------


def test_fc13_church_raises_the_limit_to_three(make):
    """FC-13. Play Cards 3 note: "The Church increases this limit during a turn in which it is played or
    recycled, allowing you to safely play more unhappiness." Church: "Add +1 to your unhappiness limit this
    turn." """
    game, state = start(make, deck=[CHURCH, RA, RA, RA, CS, RA])
    apply(state, PLAY, PLAY, PLAY, PLAY)
    v = view(state)
    assert state.current_player() == 0 and (v["unhappiness"], v["cash"]) == (3, 3)
    assert state.legal_actions() == [PLAY, STOP]  # Convenience Store on top: not forced
    apply(state, PLAY)
    assert state.legal_actions() == [PLAY]
    apply(state, PLAY)  # 4 unhappiness, over the limit of 3
    assert state.current_player() == 1 and view(state)["turn"] == 1


def test_fc14a_church_recycled_before_the_first_play(make):
    """FC-14 (a). Play Cards 4: "Any time during your Play Cards Phase, you can turn over a recyclable card in
    your discard pile ... the recycled card still remains in your discard pile." Church: "Recycle Ability:
    Increase your unhappiness limit by 1 until the end of the turn." """
    game, state = start(make, deck=[RA, RA, RA, CS], discard=[CHURCH])
    apply(state, recycle(CHURCH))
    v = view(state)
    assert v["seats"][0]["discard"] == counts({HOSP: 1}) and v["limit_bonus"] == 1
    apply(state, PLAY, PLAY, PLAY)
    assert state.current_player() == 0 and view(state)["unhappiness"] == 3
    apply(state, STOP)
    v = view(state)
    assert (v["phase"], v["cash"]) == ("build", 3)


def test_fc14b_no_recycle_window_after_the_bust_nor_in_building(make):
    """FC-14 (b). The limit rule: "your turn ends immediately"; recycling is "Any time during your Play Cards
    Phase"."""
    game, state = start(make, deck=[RA, RA, RA, CS], discard=[CHURCH])
    apply(state, PLAY, PLAY, PLAY)
    assert state.current_player() == 1
    assert seat0(state)["discard"][CHURCH] == 1  # never recycled
    game, state = start(make, deck=[CS, PARK], discard=[CHURCH])
    apply(state, PLAY, STOP)
    assert recycle(CHURCH) not in state.legal_actions()


def test_fc15_power_plant_recycled_to_the_top_as_a_factory(make):
    """FC-15. Power Plant: "Recycle Ability: After Recycling this card, put it on top of your deck." """
    game, state = start(make, deck=[CS, HOSP, RA], discard=[PLANT, PARK])
    apply(state, recycle(PLANT))
    v = view(state)
    assert v["seats"][0]["deck_known"] == [FACTORY, CS, HOSP, RA]
    assert v["seats"][0]["discard"] == counts({PARK: 1})
    apply(state, PLAY)
    v = view(state)
    assert v["cash"] == 2 and v["seats"][0]["deck_known"] == [CS, HOSP]
    assert v["seats"][0]["discard"] == counts({PARK: 1, RA: 1})
    assert STOP in state.legal_actions()


# --- Building phase -----------------------------------------------------------------------------------------


def test_fc16a_station_extra_flip_and_discount(make):
    """FC-16 (a). Station: "You may Flip 1 time in addition to your action this Building Phase. Flip fees are
    1 less this turn." """
    game, state = start(
        make,
        deck=[HOSP],
        discard=[CS, CS, PARK],
        play_area=[STATION, FACTORY, CS, RA],
        cash=4,
        points=2,
        unhappiness=1,
    )
    apply(state, STOP, flip(CS))
    assert view(state)["cash"] == 2
    apply(state, flip(CS))
    v = view(state)
    assert v["cash"] == 0 and v["seats"][0]["discard"] == counts({MALL: 2, PARK: 1})
    assert (v["main"], v["extra_flips"]) == (False, 0)
    assert state.legal_actions() == [END]


def test_fc16b_cards_played_this_turn_cannot_be_flipped(make):
    """FC-16 (b). FLIP: "Choose a card in your discard pile ... Note: Cards you played this turn are not yet
    in your discard pile." """
    game, state = start(
        make,
        deck=[HOSP],
        discard=[PARK],
        play_area=[STATION, FACTORY, CS, RA],
        cash=4,
        points=2,
        unhappiness=1,
    )
    apply(state, STOP)
    legal = state.legal_actions()
    assert flip(CS) not in legal and flip(PARK) in legal  # the park's fee 5 - 1 = 4
    apply(state, flip(PARK))
    assert view(state)["cash"] == 0


def _park_turn(make, cash: int):
    """Seat 0 with a Central Park played and ``cash``, about to stop."""
    return start(
        make, deck=[HOSP], play_area=[PARK, FACTORY, FACTORY, FACTORY, CS, CS, CS, CS], cash=cash, points=2
    )


def test_fc17a_central_park_extra_buy_after_a_develop(make):
    """FC-17 (a). Central Park: "You may Buy 1 time in addition to your action this Building Phase." DEVELOP:
    "pay its cost AND its Flip fee, and put it into your discard pile with its back side up." """
    game, state = _park_turn(make, 10)
    apply(state, STOP, develop(CS))
    assert view(state)["cash"] == 5
    apply(state, buy(FACTORY))
    v = view(state)
    assert v["cash"] == 0 and v["seats"][0]["discard"] == counts({MALL: 1, FACTORY: 1})


def test_fc17b_the_extra_is_a_buy_not_a_develop(make):
    """FC-17 (b). Central Park: "You may Buy 1 time in addition to your action"; Develop Hospital = 8,
    Develop Central Park = 12."""
    game, state = _park_turn(make, 10)
    apply(state, STOP, develop(CS))
    legal = state.legal_actions()
    assert develop(CS) not in legal and buy(CS) in legal
    game, state = _park_turn(make, 8)
    apply(state, STOP)
    assert develop(HOSP) in state.legal_actions()
    apply(state, develop(HOSP))
    assert view(state)["cash"] == 0 and seat0(state)["discard"] == counts({CHURCH: 1})
    game, state = _park_turn(make, 11)
    apply(state, STOP)
    assert develop(PARK) not in state.legal_actions()
    game, state = _park_turn(make, 12)
    apply(state, STOP, develop(PARK))
    assert seat0(state)["discard"] == counts({STATION: 1})


def test_fc18a_apartment_flipped_to_a_chosen_player(make):
    """FC-18 (a). Apartment: "Flip Fee: 8. Flip this card and place it on top of another player's discard
    pile." """
    seats = [seat(discard=[APT])] + [seat(deck_known=[CS]) for _ in range(2)]
    game, state = load(make, position(3, seats=seats, phase="build", main=True, cash=8))
    before = view(state)["seats"][2]["discard"][RA]
    apply(state, flip(APT))
    assert state.legal_actions() == [target(1), target(2)]
    apply(state, target(2))
    v = view(state)
    assert v["seats"][2]["discard"][RA] == before + 1
    assert v["seats"][0]["discard"][APT] == 0 and v["seats"][0]["discard"][RA] == 0


def test_fc18b_solo_apartment_flip_removes_it(make):
    """FC-18 (b). Solo 4: "When Flipping an Apartment, remove it from the game." """
    pos = position(
        1,
        seats=[seat(discard={APT: 1, RA: 4}, deck_known=[CS], deck_unknown={PARK: 1, HOSP: 1, FACTORY: 1})],
        phase="build",
        main=True,
        cash=8,
    )
    game, state = load(make, pos)
    apply(state, flip(APT))
    v = view(state)
    assert v["removed"][APT] == 1 and v["seats"][0]["discard"] == counts({RA: 4})


def test_fc19_office_set_aside_goes_on_top(make):
    """FC-19. Office: "When you would shuffle this card, you may set it aside instead, placing it on top
    afterwards." """
    game, state = start(
        make, deck=[], discard=[OFFICE, RA, RA, HOSP], play_area=[CS], cash=1, params={"office": True}
    )
    assert set(state.legal_actions()) == {STOP, shuffle(0), shuffle(1)}
    apply(state, shuffle(1))
    v = view(state)
    assert v["seats"][0]["deck_known"] == [OFFICE]
    assert v["seats"][0]["deck_unknown"] == counts({RA: 2, HOSP: 1})
    assert state.legal_actions() == [PLAY, STOP]
    game, state = start(
        make, deck=[], discard=[OFFICE, RA, RA, HOSP], play_area=[CS], cash=1, params={"office": True}
    )
    apply(state, shuffle(0))
    v = view(state)
    assert v["seats"][0]["deck_known"] == [] and v["seats"][0]["deck_unknown"] == counts(
        {OFFICE: 1, RA: 2, HOSP: 1}
    )


SOLO_CARDS = {RA: 4, APT: 1, CS: 1, PARK: 1, HOSP: 1, FACTORY: 1}


def test_fc20a_solo_every_shuffle_removes_a_supply_card(make):
    """FC-20 (a). Solo 1-2: "fill the general supply with only 4 of each card", "each time you shuffle your
    deck, you must choose a card in the supply and remove it from the game"."""
    game = make("flip_city", players=1)
    assert sum(view(game.new_initial_state())["supply"]) == 16
    game, state = load(make, position(1, seats=[seat(discard=SOLO_CARDS)]))
    assert sum(view(state)["supply"]) == 16
    apply(state, shuffle(0))
    state.apply_action(CS)  # the new top card
    assert state.legal_actions() == [remove(CS), remove(PARK), remove(HOSP), remove(FACTORY)]
    apply(state, remove(FACTORY))
    assert sum(view(state)["supply"]) == 15


def test_fc20b_solo_removing_the_last_supply_card_loses(make):
    """FC-20 (b). Solo 3: "the player must achieve it BEFORE the supply runs out of cards. When the supply is
    empty, you lose." """
    pos = position(
        1,
        seats=[seat(discard={RA: 4, APT: 1})],
        play_area=[PARK, PARK, STATION],
        points=6,
        supply={PARK: 1},
        filler=0,
    )
    game, state = load(make, pos)
    assert STOP in state.legal_actions()  # stopping would have avoided it
    apply(state, shuffle(0))
    state.apply_action(RA)
    assert state.legal_actions() == [remove(PARK)]
    apply(state, remove(PARK))
    assert state.is_terminal() and state.returns() == [0.0] and view(state)["winner"] == -1
