"""Flip City: Wilderness: the blind scenarios of /work/blind/flip_city_wilderness.md (WL-01 .. WL-17), written
by a colleague who read only the rulebook, as tests on both engines.  Positions are written in the
family-layout serialization of docs/rules/flip_city_wilderness.md §7, with the position helpers of
tests/test_flip_city_wilderness_rules.py. "Player 1" of a scenario is seat 0. Each docstring names the
scenario and quotes the rulebook sentence it rests on."""

from __future__ import annotations

import meeplex
from test_flip_city_wilderness_rules import (
    AIRPORT,
    ARCH,
    CAMP,
    CR,
    END,
    EXCAVATE,
    FM,
    INTER,
    LOG,
    PLAY,
    RES,
    STOP,
    TP,
    WILDERNESS,
    WIND,
    build_turn,
    buy,
    counts,
    develop,
    flip,
    play_turn,
    recycle,
    remove,
    seat,
    select,
    setup,
    shuffle,
    target,
    view,
)


def apply(state, *actions: int) -> None:
    for action in actions:
        assert action in state.legal_actions(), (action, state.legal_actions())
        state.apply_action(action)


def seat0(state) -> dict:
    return view(state)["seats"][0]


def deck_size(s: dict) -> int:
    return len(s["deck_known"]) + sum(s["deck_unknown"]) + len(s["deck_bottom"])


# --- The limit and the Trailer Park -------------------------------------------------------------------------


def test_wl01_forced_trailer_park_chain_busts(make):
    """WL-01. Trailer Park: "When Trailer Park is the top card of your deck, you must play it." Play Cards 3:
    "if there are 3 or more unhappiness among the cards you played, your turn ends immediately, and your
    played cards are placed into your discard pile." """
    game, state = play_turn(make, deck=[LOG, TP, TP, TP, WIND])
    apply(state, PLAY)
    assert state.legal_actions() == [PLAY]
    apply(state, PLAY, PLAY)
    assert state.legal_actions() == [PLAY]
    apply(state, PLAY)
    v = view(state)
    assert state.current_player() == 1 and v["turn"] == 1
    assert v["seats"][0]["discard"] == counts({LOG: 1, TP: 3})
    assert v["seats"][0]["deck_known"] == [WIND]


def test_wl02_over_the_limit_the_trailer_park_stays_on_top(make):
    """WL-02. Play Cards 3: "If you exceed your limit and there is still a Trailer Park on top of your deck,
    you do not play it, your turn ends immediately." """
    game, state = play_turn(make, deck=[FM, TP, WIND], play_area=[FM, TP], cash=3, unhappiness=2)
    apply(state, PLAY)
    v = view(state)
    assert state.current_player() == 1
    assert v["seats"][0]["deck_known"] == [TP, WIND]
    assert v["seats"][0]["discard"] == counts({FM: 2, TP: 1})


def test_wl03_at_two_unhappiness_a_trailer_park_on_top_cannot_be_stopped(make):
    """WL-03. Trailer Park: "When Trailer Park is the top card of your deck, you must play it." """
    game, state = play_turn(make, deck=[FM, TP, LOG], play_area=[FM, WIND], cash=4, unhappiness=1)
    supply = view(state)["supply"]
    apply(state, PLAY)
    v = view(state)
    assert (v["cash"], v["unhappiness"]) == (6, 2)
    assert state.legal_actions() == [PLAY]
    apply(state, PLAY)
    v = view(state)
    assert state.current_player() == 1 and v["supply"] == supply


# --- Victory ------------------------------------------------------------------------------------------------


def test_wl04_no_eighteen_card_victory(make):
    """WL-04. Building Phase: "After selecting and executing your action for the turn, if you were provided
    with 8 points, then you win!" Blind deck 10 Logging Site + 10 Wind Farm; all 10 Wind Farm cards of a
    2-player game would leave none to buy, so the deck here is 12 Logging Site, 7 Wind Farm and a Camping
    Grounds (no unhappiness, no points either)."""
    game, state = play_turn(make, deck=[LOG] * 12 + [WIND] * 7 + [CAMP])
    for _ in range(18):
        apply(state, PLAY)
    assert view(state)["points"] == 0
    apply(state, STOP, buy(WIND), END)
    v = view(state)
    assert not state.is_terminal() and v["winner"] == -1 and v["current"] == 1


def test_wl05a_eight_points_win_at_the_end_of_the_building_phase(make):
    """WL-05 (a). FAQ Q1: "You check for victory only at the end of the Building Phase"; Building Phase: "if
    you were provided with 8 points, then you win!" (four Airports at the proposed 2 points)."""
    game, state = play_turn(
        make, deck=[LOG, WIND], play_area=[AIRPORT] * 4 + [TP, TP], cash=2, points=8, unhappiness=2
    )
    apply(state, STOP)
    assert not state.is_terminal()
    apply(state, END)
    assert state.is_terminal() and view(state)["winner"] == 0 and state.returns() == [1.0, 0.0]


def test_wl05b_a_bust_cancels_the_eight_points(make):
    """WL-05 (b). FAQ Q1: "Your turn would end immediately during the Play Cards Phase. You check for victory
    only at the end of the Building Phase, so in this situation you would not win"."""
    game, state = play_turn(
        make, deck=[TP, LOG], play_area=[AIRPORT] * 4 + [TP, TP], cash=2, points=8, unhappiness=2
    )
    assert state.legal_actions() == [PLAY]
    apply(state, PLAY)
    assert not state.is_terminal() and view(state)["winner"] == -1 and state.current_player() == 1


# --- Building phase: on-buy effects -------------------------------------------------------------------------


def test_wl06a_farmers_market_bought_removes_a_played_card(make):
    """WL-06 (a). Farmer's Market: "When you Buy or Develop this card: Remove one card you played this turn
    from the game." """
    game, state = play_turn(make, deck=[CAMP], play_area=[TP, WIND, LOG], cash=4, unhappiness=1)
    before = seat0(state)["discard"]
    apply(state, STOP, buy(FM))
    assert state.legal_actions() == [select(TP), select(LOG), select(WIND)]
    apply(state, select(TP), END)
    v = view(state)
    assert v["removed"][TP] == 1
    gained = [a - b for a, b in zip(v["seats"][0]["discard"], before, strict=True)]
    assert gained == counts({FM: 1, WIND: 1, LOG: 1})


def test_wl06b_farmers_market_developed_removes_a_played_card(make):
    """WL-06 (b). Farmer's Market: "When you Buy or Develop this card: Remove one card you played this turn
    from the game." Develop 3 + 4 = 7, an Interchange."""
    game, state = play_turn(make, deck=[CAMP], play_area=[TP, WIND, LOG], cash=7, unhappiness=1)
    apply(state, STOP, develop(FM))
    assert view(state)["cash"] == 0 and seat0(state)["discard"][INTER] == 1
    apply(state, select(LOG))
    v = view(state)
    assert v["removed"][LOG] == 1 and v["play_area"] == counts({TP: 1, WIND: 1})


def test_wl07_wind_farm_bought_gives_an_extra_flip(make):
    """WL-07. Wind Farm: "When you Buy or Develop this card: Additionally, you may Flip once during this
    Building Phase." Building Phase: "you may choose one (and only one) action"."""
    game, state = build_turn(make, discard=[TP], cash=6)
    apply(state, buy(WIND), flip(TP))
    v = view(state)
    assert v["cash"] == 0 and v["seats"][0]["discard"] == counts({CR: 1, WIND: 1})
    game, state = build_turn(make, discard=[TP], cash=6)
    apply(state, buy(LOG))
    assert flip(TP) not in state.legal_actions()
    game, state = build_turn(make, discard=[TP], cash=12)
    apply(state, develop(WIND), flip(TP))  # 5 + 6 = 11, an Airport, and the extra Flip
    assert seat0(state)["discard"] == counts({CR: 1, AIRPORT: 1})


def test_wl08_camping_grounds_raises_the_buyers_next_turn_only(make):
    """WL-08. Camping Grounds: "When you Buy or Develop this card: Add +1 to your unhappiness limit next
    turn." Components: the happiness tokens "may be used to remind you of card effects on your next turn"."""
    seats = [seat(deck_known=[TP, TP, TP, LOG, TP, WIND]), seat(deck_known=[TP, TP, FM, LOG, LOG])]
    game, state = setup(make, seats=seats, phase="build", main=True, cash=4)
    apply(state, buy(CAMP), END)
    # Turn N+1: seat 1 is not helped by seat 0's Camping Grounds.
    apply(state, PLAY, PLAY, PLAY)
    v = view(state)
    assert v["current"] == 0 and v["seats"][1]["deck_known"] == [LOG, LOG]
    # Turn N+2: seat 0's limit is 3.
    assert v["limit_bonus"] == 1
    apply(state, PLAY, PLAY, PLAY)
    assert state.current_player() == 0 and view(state)["unhappiness"] == 3
    assert state.legal_actions() == [PLAY, STOP]
    apply(state, PLAY)
    assert state.legal_actions() == [PLAY]
    apply(state, PLAY)  # 4 unhappiness: over the limit of 3
    v = view(state)
    assert v["current"] == 1 and v["seats"][0]["deck_known"] == [WIND]
    # Turn N+3 (seat 1), then turn N+4: seat 0's limit is 2 again.
    apply(state, PLAY, STOP, END)
    v = view(state)
    assert v["current"] == 0 and v["limit_bonus"] == 0


def test_wl09_water_reservoir_recycled_raises_the_limit(make):
    """WL-09. Play Cards 3 note: "The Water Reservoir increases this limit during a turn in which it is
    recycled, allowing you to safely play more unhappiness." Play Cards 4: "the recycled card still remains in
    your discard pile." """
    game, state = play_turn(make, deck=[TP, TP, FM, LOG], discard=[RES])
    apply(state, recycle(RES))
    v = view(state)
    assert v["seats"][0]["discard"] == counts({CAMP: 1}) and v["limit_bonus"] == 1
    apply(state, PLAY, PLAY, PLAY)
    v = view(state)
    assert state.current_player() == 0 and v["unhappiness"] == 3 and v["cash"] >= 2
    apply(state, STOP)
    assert view(state)["phase"] == "build"
    # With a Camping Grounds bought last turn, the limit would be 4.
    game, state = play_turn(make, deck=[TP, TP, FM, TP, LOG], discard=[RES], limit_bonus=1)
    apply(state, recycle(RES), PLAY, PLAY, PLAY, PLAY)
    assert state.current_player() == 0 and view(state)["unhappiness"] == 4


def test_wl10a_country_resort_flipped_into_an_opponents_deck(make):
    """WL-10 (a). Country Resort: "Flip Fee: 9. Flip this card and shuffle it into an opponent's deck." """
    others = [seat(deck_known=[LOG]), seat(deck_known=[LOG, WIND, CAMP, FM, LOG])]
    game, state = setup(
        make, params={"players": 3}, seats=[seat(discard=[CR])] + others, phase="build", main=True, cash=9
    )
    discard2 = view(state)["seats"][2]["discard"]
    apply(state, flip(CR))
    assert state.legal_actions() == [target(1), target(2)]
    apply(state, target(2))
    v = view(state)
    assert deck_size(v["seats"][2]) == 6 and v["seats"][2]["deck_unknown"][TP] == 1
    assert v["seats"][2]["discard"] == discard2
    assert v["seats"][0]["discard"][CR] == 0


def test_wl10b_solo_country_resort_flipped_is_removed(make):
    """WL-10 (b). Solo 4: "When Flipping a Country Resort, remove it from the game." """
    seats = [seat(discard=[CR], deck_known=[LOG], deck_unknown={TP: 4, FM: 1, WIND: 1, CAMP: 1})]
    game, state = setup(make, params={"players": 1}, seats=seats, phase="build", main=True, cash=9)
    removed = view(state)["removed"][CR]
    apply(state, flip(CR))
    v = view(state)
    assert v["removed"][CR] == removed + 1 and v["seats"][0]["discard"][CR] == 0
    assert v["seats"][0]["discard"][TP] == 0 and deck_size(v["seats"][0]) == 8


# --- Recycling and shuffling ------------------------------------------------------------------------------


def test_wl11_interchange_stays_behind_at_a_shuffle(make):
    """WL-11. Interchange: "Recycle Ability: You must leave this card in your discard pile when you
    shuffle." """
    game, state = play_turn(make, deck=[], discard=[INTER, TP, LOG, CAMP], play_area=[WIND], cash=2)
    apply(state, shuffle(0))
    v = view(state)
    assert v["seats"][0]["deck_unknown"] == counts({TP: 1, LOG: 1, CAMP: 1})
    assert v["seats"][0]["discard"] == counts({INTER: 1})
    assert state.current_player() == meeplex.CHANCE
    state.apply_action(TP)  # a Trailer Park on top must be played (the Interchange may be recycled first)
    assert state.legal_actions() == [PLAY, recycle(INTER)]


def test_wl12_airport_shuffles_a_chosen_card_into_its_owners_deck(make):
    """WL-12. Airport: "Recycle Ability: Choose a card in any discard pile, and shuffle it into that player's
    deck." """
    others = [seat(deck_known=[LOG, LOG, CAMP, FM], discard=[CR, WIND])]
    game, state = play_turn(make, deck=[LOG], discard=[AIRPORT], others=others, filler=0)
    before = view(state)["seats"]
    apply(state, recycle(AIRPORT))
    assert target(0) in state.legal_actions()  # one's own discard pile is a choice too
    apply(state, target(1), select(WIND))
    v = view(state)
    assert v["seats"][1]["discard"] == counts({CR: 1})
    assert deck_size(v["seats"][1]) == 5 and v["seats"][1]["deck_unknown"][WIND] == 1
    gained = [a - b for a, b in zip(v["seats"][0]["discard"], before[0]["discard"], strict=True)]
    assert gained == counts({WIND: 1, AIRPORT: -1})


def test_wl13_archaeology_site_in_the_discard_pile_buys_three_points(make):
    """WL-13. Archaeology Site: "Recycle Ability: Pay 20 cash to gain 3 points." DEVELOP note: "The
    Archaeology Site allows you to spend 20 cash in order to gain 3 points during the Building phase." Both
    engines used to offer the 20-for-3 only for an Archaeology Site played this turn, never for one in the
    discard pile, which is what the recycle icon names (fixed by issue 14 item 3)."""
    game, state = play_turn(
        make, deck=[LOG], discard=[ARCH], play_area=[AIRPORT] * 3 + [TP, TP], cash=21, points=6, unhappiness=2
    )
    apply(state, STOP)
    dig = [a for a in (EXCAVATE, recycle(ARCH)) if a in state.legal_actions()]
    assert dig
    apply(state, dig[0])
    v = view(state)
    assert (v["cash"], v["points"]) == (1, 9)
    assert v["seats"][0]["discard"][ARCH] == 0 and v["seats"][0]["discard"][LOG] == 1
    apply(state, END)
    assert state.is_terminal() and view(state)["winner"] == 0


def test_wl14_flip_only_from_the_discard_pile(make):
    """WL-14. FLIP: "Choose a card in your discard pile, pay its Flip fee, and turn it over to the other side
    ... Note: Cards you played this turn are not yet in your discard pile." """
    game, state = play_turn(make, deck=[LOG], discard=[CAMP, TP], play_area=[FM, WIND], cash=4, unhappiness=1)
    apply(state, STOP)
    assert flip(FM) not in state.legal_actions()
    apply(state, flip(TP))
    v = view(state)
    assert v["cash"] == 3 and v["seats"][0]["discard"] == counts({CAMP: 1, CR: 1})
    assert state.legal_actions() == [END]


def test_wl15a_empty_deck_stop(make):
    """WL-15 (a). Play Cards 2: "Whenever your deck has no more cards in it, you must decide whether to stop
    and move on to the Building Phase, or to shuffle your discard pile to recreate your deck." """
    game, state = play_turn(make, deck=[], discard=[CAMP, FM], play_area=[LOG, WIND], cash=3)
    assert set(state.legal_actions()) == {STOP, shuffle(0)}
    apply(state, STOP)
    v = view(state)
    assert (v["phase"], v["cash"]) == ("build", 3)


def test_wl15b_empty_deck_shuffle_leaves_played_cards_out(make):
    """WL-15 (b). Play Cards 2: "... or to shuffle your discard pile to recreate your deck." """
    game, state = play_turn(make, deck=[], discard=[CAMP, FM], play_area=[LOG, WIND], cash=3)
    apply(state, shuffle(0))
    v = view(state)
    assert v["seats"][0]["deck_unknown"] == counts({CAMP: 1, FM: 1}) and v["seats"][0]["discard"] == counts()
    assert v["play_area"] == counts({LOG: 1, WIND: 1})
    state.apply_action(FM)
    assert state.legal_actions() == [PLAY, STOP]


SOLO_CARDS = {TP: 4, CR: 1, LOG: 1, FM: 1, WIND: 1, CAMP: 1}


def test_wl16a_solo_a_shuffle_removes_a_supply_card(make):
    """WL-16 (a). Solo 1-2: "fill the general supply with only 4 of each card (Logging Site, Farmer's Market,
    Wind Farm, and Camping Grounds)", "each time you shuffle your deck, you must choose a card in the supply
    and remove it from the game"."""
    assert sum(view(make(WILDERNESS, players=1).new_initial_state())["supply"]) == 16
    game, state = setup(make, params={"players": 1}, seats=[seat(discard=SOLO_CARDS)])
    apply(state, shuffle(0))
    state.apply_action(LOG)
    assert state.legal_actions() == [remove(LOG), remove(FM), remove(WIND), remove(CAMP)]
    apply(state, remove(CAMP))
    assert sum(view(state)["supply"]) == 15


def test_wl16b_solo_removing_the_last_supply_card_loses(make):
    """WL-16 (b). Solo 3: "When the supply is empty, you lose." """
    game, state = setup(
        make,
        params={"players": 1},
        seats=[seat(discard={TP: 3, LOG: 1, FM: 1, CAMP: 1})],
        play_area=[AIRPORT, AIRPORT],
        points=5,
        supply={LOG: 1},
    )
    apply(state, shuffle(0))
    state.apply_action(TP)
    assert state.legal_actions() == [remove(LOG)]
    apply(state, remove(LOG))
    assert state.is_terminal() and state.returns() == [0.0]


def test_wl17_archaeology_site_recycled_to_the_bottom_as_a_logging_site(make):
    """WL-17. Logging Site: "Recycle Ability: Return this card to the bottom of your deck. Flips into:
    Archaeology Site." (the blind reading, which is the contract's default ``logging_text=proposed``, W 5)."""
    game, state = play_turn(make, deck=[TP, WIND], discard=[ARCH])
    apply(state, recycle(ARCH))
    v = view(state)
    assert v["seats"][0]["deck_known"] == [TP, WIND, LOG]
    assert v["seats"][0]["discard"][ARCH] == 0 and v["seats"][0]["discard"][LOG] == 0
