"""Line-it blind scenarios: positions and outcomes written from the game-help page and the facts only, by a
colleague who had read neither the contract nor the code.

The scenarios are kept in the colleague's words in ``tests/blind/lineit.md`` (LI-01 .. LI-25); each test
here is one of them (or one part of one), run on both engines through the ``make`` fixture. Positions are
built as serialized states (docs/rules/lineit.md §8) and read back with ``deserialize_state``, then driven by
actions in the notation of §6. The blind file's colours are BGA's cycle, ``(x - 1) mod 4``, which is the
contract's default (§2), so its numbers are used as they are. Seats: A is seat 0, B seat 1, C seat 2. Each
docstring names the scenario and quotes the page; where the blind reading and the contract differ, the test
says which and why.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from meeplex.errors import IllegalActionError

GAME = "lineit"
BET3, BET4, BET5 = 100, 101, 102
TERMINAL = -4
CHANCE = -1


def K(x: int) -> int:
    """The kind of number card x (§2)."""
    return x - 1


def full_deck() -> list[int]:
    return list(range(100)) + [BET3, BET3, BET4, BET4, BET5, BET5]


def position(
    make,
    players: int = 2,
    *,
    phase: str = "turn",
    round: int | None = None,
    first: int = 0,
    done: int = 0,
    market: list[int] | None = None,
    hands: list[list[int]] | None = None,
    lines: list[list[int]] | None = None,
    jackpot: list[int] | None = None,
    piles: list[int] | None = None,
    tokens: list[list[int]] | None = None,
    taken: bool = False,
    played: bool = False,
    closed: bool = False,
    final_pass: int = 0,
    deck: list[int] | None = None,
):
    """A state of the given facts (§8). Unless given, the deck is filled with the unused cards (number cards
    from 1 up first, then bet cards) to the size the contract requires, in the first round that allows it."""
    game = make(GAME, players=players)
    n = players
    m, rounds = n + 2, 106 // (n + 2)
    market = market or []
    hands = hands or [[] for _ in range(n)]
    lines = lines or [[] for _ in range(n)]
    jackpot = jackpot or []
    piles = piles or [0] * n
    tokens = tokens or [[0] * 6 for _ in range(n)]
    left = Counter(full_deck())
    left.subtract(market + jackpot + [k for h in hands for k in h] + [k for ln in lines for k in ln])
    for bet in (BET3, BET4, BET5):
        left[bet] -= sum(t[bet - 100] + t[bet - 97] for t in tokens)  # a token stands for its bet card
    pool = sorted(left.elements())

    def deck_size(r: int) -> int:
        return {"deal": 106 - m * (r - 1) - len(market), "turn": 106 - m * r}.get(phase, 0)

    if round is None:
        round = next((r for r in range(1, rounds) if deck_size(r) <= len(pool)), rounds)
    if deck is None:
        deck = pool[: deck_size(round)]
    obj = {
        "closed": closed,
        "deck": sorted(deck),
        "done": done,
        "final_pass": final_pass,
        "first": first,
        "game": GAME,
        "history": [],
        "jackpot": sorted(jackpot),
        "market": sorted(market),
        "params": game.params,
        "phase": phase,
        "played": played,
        "round": round,
        "seats": [
            {"hand": sorted(hands[s]), "line": list(lines[s]), "pile": piles[s], "tokens": list(tokens[s])}
            for s in range(n)
        ],
        "taken": taken,
        "version": 1,
    }
    return game.deserialize_state(json.dumps(obj, sort_keys=True, separators=(",", ":")))


def view(state) -> dict:
    return json.loads(state.serialize())


def act(state, *texts: str) -> None:
    """Apply actions given in notation, each of which must be legal now."""
    for text in texts:
        action = state.string_to_action(text)
        assert action in state.legal_actions(), (text, legal_texts(state))
        state.apply_action(action)


def legal_texts(state) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def illegal(state, text: str) -> None:
    """``text`` is not offered, and applying it is refused with the state left unchanged."""
    action = state.string_to_action(text)
    assert action not in state.legal_actions(), (text, legal_texts(state))
    before = state.serialize()
    with pytest.raises(IllegalActionError):
        state.apply_action(action)
    assert state.serialize() == before


def deal(state, *cards: int) -> None:
    """Chance outcomes: the given number cards are dealt to the market."""
    for x in cards:
        assert state.is_chance_node()
        act(state, f"deal {x}")


def seat(state, s: int) -> dict:
    return view(state)["seats"][s]


def line(state, s: int) -> list[int]:
    return seat(state, s)["line"]


def kinds(*xs: int) -> list[int]:
    return [K(x) for x in xs]


def reds(state) -> list[int]:
    """The red jackpot (red: 1, 5, 9, ...; kind k with k mod 4 == 0)."""
    return [k for k in view(state)["jackpot"] if k % 4 == 0]


# --- LI-01 .. LI-02: the market, the rounds, starting a line ------------------------------------------------


@pytest.mark.parametrize(("players", "rounds", "left"), [(2, 26, 2), (3, 21, 1), (4, 17, 4), (5, 15, 1)])
def test_li01_market_size_and_number_of_rounds(make, players, rounds, left):
    """LI-01. Build the market: "At the start of the round, draw as many cards as players plus two." End of
    game: "When there are not enough cards to play a new turn, the game ends." facts: "deck 106 cards, number
    and bet cards shuffled together". Whole games, each seat's decisions drawn at random (seeded)."""
    game = make(GAME, players=players)
    state = game.new_initial_state()
    rng = random.Random(players)
    markets: list[int] = []  # the market's size when each round's turns begin
    takes: list[int] = []  # market cards taken in each round
    dealt = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_weights()
            state.apply_action(rng.choices([a for a, _ in outcomes], [w for _, w in outcomes])[0])
            dealt += 1
            if view(state)["phase"] == "turn":
                markets.append(len(view(state)["market"]))
                takes.append(0)
            continue
        action = rng.choice(state.legal_actions())
        if view(state)["phase"] == "turn" and action < 206:  # `line k` or `hand k`
            takes[-1] += 1
        state.apply_action(action)
        if view(state)["phase"] == "final" and view(state)["final_pass"] == 1 and view(state)["done"] == 0:
            assert view(state)["deck"] == []  # the deck's last cards never reach a market
    assert markets == [players + 2] * rounds
    assert dealt == rounds * (players + 2) and 106 - dealt == left
    # each seat took exactly one market card in each round: 2 were left every time
    assert takes == [players] * rounds


def test_li02_a_line_starts_with_any_card_and_need_not_be_started(make):
    """LI-02. "To start a line, you must play a card in front of you (Number or Bet). This card can come from
    the “market” or from your hand." "When you choose a card from the market, you can play it immediately into
    your line or add it to your hand." """
    market = kinds(57, 12, 90) + [BET4]
    state = position(make, market=market)
    act(state, "line 57")
    assert line(state, 0) == kinds(57)
    state = position(make, market=market)
    act(state, "line bet4")
    assert line(state, 0) == [BET4]  # a bet card may be the first card of a line
    state = position(make, market=market)
    act(state, "hand 12", "pass")
    assert line(state, 0) == [] and seat(state, 0)["hand"] == kinds(12)
    assert state.current_player() == 1 and len(view(state)["market"]) == 3


# --- LI-03 .. LI-06: the direction and the bet card ---------------------------------------------------------


def test_li03_the_second_number_card_fixes_a_descending_line(make):
    """LI-03. "When you play a second Number card in your line (the Bet card does not count), this defines
    whether your line is ascending or descending." "Descending: each card played must be lower than the
    previous one." """
    state = position(make, market=kinds(23, 88, 40, 10), lines=[kinds(57), []])
    assert {"line 23", "line 88", "line 40", "line 10"} <= set(legal_texts(state))  # any second card
    act(state, "line 23")
    assert line(state, 0) == kinds(57, 23)
    # A's next turn: a market holding 40 and 10 (the old market's leftovers went to the jackpots)
    state = position(make, market=kinds(40, 10, 3, 4), lines=[kinds(57, 23), []])
    illegal(state, "line 40")
    act(state, "line 10")
    assert line(state, 0) == kinds(57, 23, 10)


def test_li04_a_bet_card_sets_no_direction_and_is_not_the_previous_card(make):
    """LI-04. "When you play a second Number card in your line (the Bet card does not count), this defines
    whether your line is ascending or descending." """
    for x in (30, 70):
        state = position(make, market=kinds(30, 70, 3, 4), lines=[[K(50), BET3], []])
        act(state, f"line {x}")
        assert line(state, 0) == [K(50), BET3, K(x)]
    state = position(make, market=kinds(40, 20, 3, 4), lines=[[K(50), BET3, K(30)], []])
    illegal(state, "line 40")
    act(state, "line 20")
    assert line(state, 0) == [K(50), BET3, K(30), K(20)]


def test_li05_ascending_means_higher_than_the_last_card(make):
    """LI-05. "Ascending: each card played must be higher than the previous one." """
    state = position(make, market=kinds(45, 61, 3, 4), lines=[kinds(20, 35, 60), []])
    illegal(state, "line 45")
    act(state, "line 61")
    assert line(state, 0) == kinds(20, 35, 60, 61)


def test_li06_one_bet_card_per_line_a_second_may_wait_in_the_hand(make):
    """LI-06. "A line consists of several number cards and a maximum of one bet card." "Reminder: you can
    only have one Bet card in your row." """
    state = position(make, market=[BET5] + kinds(95, 11, 7), lines=[[BET3, K(20), K(30)], []])
    illegal(state, "line bet5")
    act(state, "hand bet5")
    illegal(state, "play bet5")  # not from the hand either
    act(state, "pass")
    act(state, "line 11", "pass")  # B
    deal(state, 2, 3, 4, 6)  # round 2, B first
    act(state, "line 2", "pass")
    assert state.current_player() == 0
    act(state, "close", "play bet5")  # a new line started with the bet card from the hand
    assert line(state, 0) == [BET5] and seat(state, 0)["hand"] == [] and view(state)["played"] is True
    assert not any(t.startswith("play") for t in legal_texts(state))
    expected = ["line 3", "line 4", "line 6", "hand 3", "hand 4", "hand 6"]
    assert state.current_player() == 0 and legal_texts(state) == expected


# --- LI-07 .. LI-09: the hand, the forced close, one hand play per turn -------------------------------------


def test_li07_forced_close_when_the_taken_card_fits_nowhere(make):
    """LI-07. "Your hand is limited to two cards." "Important: If you cannot play a market card or add one to
    your hand, you must close your line in order to play." "Then you must discard 3 cards from your row and
    each remaining card is added to your score pile, face down." """
    state = position(make, market=kinds(60, 75, 85, 95), lines=[kinds(70, 50), []], hands=[kinds(80, 90), []])
    assert legal_texts(state) == ["close"]  # no take into the hand instead of closing
    act(state, "close")
    assert line(state, 0) == [] and seat(state, 0)["pile"] == 0 and state.scores()[0] == 0.0
    texts = legal_texts(state)
    assert not any(t.startswith("hand") for t in texts)  # the hand is still full
    assert {"line 60", "line 75", "line 85", "line 95"} <= set(texts)
    act(state, "line 75")
    assert {"play 80", "play 90"} <= set(legal_texts(state))
    act(state, "play 80")
    assert line(state, 0) == kinds(75, 80) and state.current_player() == 1


def test_li08_a_hand_play_made_first_avoids_the_forced_close(make):
    """LI-08. "At any time during your turn, you may play one, and only one, card from your hand into your
    line." "If you cannot play a market card or add one to your hand, you must close your line in order to
    play." """
    market = kinds(20, 25, 5, 15)
    state = position(make, market=market, lines=[kinds(30, 40), []], hands=[kinds(45, 10), []])
    assert sorted(legal_texts(state)) == ["close", "play 45"]
    illegal(state, "hand 25")  # (b): never a third card in the hand, not even for a moment
    act(state, "play 45", "hand 25")  # (a)
    s = seat(state, 0)
    assert s["hand"] == kinds(10, 25) and s["line"] == kinds(30, 40, 45)
    assert view(state)["played"] is True and view(state)["closed"] is False
    assert legal_texts(state) == ["close", "pass"]


def test_li09_one_hand_play_per_turn_plus_the_market_card(make):
    """LI-09. "At any time during your turn, you may play one, and only one, card from your hand into your
    line." """
    state = position(make, market=kinds(25, 3, 4, 6), lines=[kinds(10), []], hands=[kinds(20, 30), []])
    act(state, "play 20", "line 25")
    illegal(state, "play 30")  # it would fit (30 > 25), but it is a second hand play
    assert line(state, 0) == kinds(10, 20, 25) and seat(state, 0)["hand"] == kinds(30)
    act(state, "pass")
    assert state.current_player() == 1


# --- LI-10 .. LI-14: closing and bets -----------------------------------------------------------------------


def test_li10_closing_three_discarded_the_rest_one_point_each(make):
    """LI-10. "Then you must discard 3 cards from your row and each remaining card is added to your score
    pile, face down." "Each Number card in your score pile is worth 1 point" """
    state = position(make, market=kinds(3, 4, 6, 8), lines=[kinds(12, 25, 33, 47, 58, 61), []], piles=[4, 0])
    act(state, "close")
    assert seat(state, 0)["pile"] == 7 and state.scores()[0] == 7.0 and line(state, 0) == []
    assert {"line 3", "line 8"} <= set(legal_texts(state))  # a new line this turn


def test_li11_a_short_line_scores_zero_a_failed_bet_still_costs(make):
    """LI-11. "If unsuccessful, exchange your Bet card with the corresponding penalty: -3 -4 -5". "Then you
    must discard 3 cards from your row"."""
    state = position(make, market=kinds(3, 4, 6, 8), lines=[kinds(80, 70), []])
    act(state, "close")
    assert seat(state, 0)["pile"] == 0 and state.scores()[0] == 0.0
    state = position(make, done=1, market=kinds(3, 4, 6), lines=[[], [BET3, K(80), K(70)]])
    assert state.current_player() == 1
    act(state, "close")
    assert seat(state, 1)["pile"] == 0 and seat(state, 1)["tokens"] == [0, 0, 0, 1, 0, 0]
    assert state.scores()[1] == -3.0  # no floor at 0


def test_li12_bet_won_exactly_and_the_bet_card_is_not_a_discard(make):
    """LI-12. "To earn the points for a Bet card, you must have, in your line, as many or more Number cards as
    the indicated figure, after your Bet card." "Start by checking if you have played a Bet card [...]
    exchange your Bet card with the corresponding bonus [...] Then you must discard 3 cards from your row" """
    state = position(make, market=kinds(3, 4, 6, 8), lines=[[BET3] + kinds(10, 20, 30), []])
    act(state, "close")
    assert seat(state, 0)["tokens"] == [1, 0, 0, 0, 0, 0] and seat(state, 0)["pile"] == 0
    assert state.scores()[0] == 3.0


def test_li13_a_bet_counts_only_the_number_cards_after_it(make):
    """LI-13. "you must have, in your line, as many or more Number cards as the indicated figure, after your
    Bet card. If you do not have enough number cards, you lose the same number of points." """
    state = position(make, market=kinds(3, 4, 6, 8), lines=[kinds(10, 20) + [BET3] + kinds(30, 40), []])
    act(state, "close")
    assert seat(state, 0)["tokens"] == [0, 0, 0, 1, 0, 0] and seat(state, 0)["pile"] == 1
    assert state.scores()[0] == -2.0


@pytest.mark.parametrize(
    ("after", "tokens", "pile", "total"),
    [((80, 70, 60, 50), [0, 0, 0, 0, 0, 1], 2, -3.0), ((80, 70, 60, 50, 40), [0, 0, 1, 0, 0, 0], 3, 8.0)],
)
def test_li14_bet5_one_card_short_then_exactly_enough(make, after, tokens, pile, total):
    """LI-14. "A Bet card has a number between +3 and +5." "you must have, in your line, as many or more
    Number cards as the indicated figure, after your Bet card. If you do not have enough number cards, you
    lose the same number of points." """
    state = position(make, market=kinds(3, 4, 6, 8), lines=[[K(90), BET5] + kinds(*after), []])
    act(state, "close")
    assert seat(state, 0)["tokens"] == tokens and seat(state, 0)["pile"] == pile
    assert state.scores()[0] == total


# --- LI-15 .. LI-19: jackpots -------------------------------------------------------------------------------


RED_JACKPOT = kinds(9, 41, 77, 93)
BLUE_JACKPOT = kinds(18, 22)


def li15(make):
    state = position(
        make, market=kinds(29, 53, 61, 2), lines=[kinds(5, 14, 21), []], jackpot=RED_JACKPOT + BLUE_JACKPOT
    )
    act(state, "line 29")
    return state


def test_li15_jackpot_on_the_third_card_of_a_colour(make):
    """LI-15. "When you place the third card of the same color in your line, you add all jackpot cards of the
    associated suit to your score pile." """
    state = li15(make)
    assert seat(state, 0)["pile"] == 4 and state.scores()[0] == 4.0
    assert view(state)["jackpot"] == BLUE_JACKPOT  # red emptied, blue untouched
    assert line(state, 0) == kinds(5, 14, 21, 29)


def test_li16_each_colour_once_per_line_a_new_line_resets_it(make):
    """LI-16. "Important: you can only win each jackpot color once in the same line." The rounds are played
    out; B takes cards that are never red, and every market leftover after round 1 is not red."""
    state = li15(make)
    act(state, "pass")
    act(state, "line 2", "pass")  # B; the round ends: 53 and 61 join the red jackpot
    assert view(state)["jackpot"] == BLUE_JACKPOT + kinds(53, 61)
    deal(state, 37, 3, 6, 10)  # B first
    act(state, "line 3", "pass")
    act(state, "line 37")  # A's fourth red
    assert seat(state, 0)["pile"] == 4 and reds(state) == kinds(53, 61)
    act(state, "pass")
    deal(state, 45, 7, 8, 11)  # A first
    act(state, "line 45")  # the fifth red
    assert seat(state, 0)["pile"] == 4 and reds(state) == kinds(53, 61)
    act(state, "close")  # 6 number cards: 3 scored
    assert seat(state, 0)["pile"] == 7 and state.current_player() == 1
    act(state, "line 7", "pass")
    deal(state, 65, 12, 15, 16)  # B first
    act(state, "line 12", "pass")
    act(state, "line 65", "pass")
    deal(state, 69, 19, 20, 23)  # A first
    act(state, "line 69", "pass")
    act(state, "line 19", "pass")
    assert line(state, 0) == kinds(65, 69) and seat(state, 0)["pile"] == 7
    deal(state, 73, 24, 26, 27)  # B first
    act(state, "line 24", "pass")
    assert reds(state) == kinds(53, 61)
    act(state, "line 73")  # the third red of the new line
    assert seat(state, 0)["pile"] == 9
    assert reds(state) == []


def test_li17_jackpot_cards_go_to_the_score_pile_not_into_the_line(make):
    """LI-17. "you add all jackpot cards of the associated suit to your score pile." "Then you must discard 3
    cards from your row and each remaining card is added to your score pile" """
    state = li15(make)
    act(state, "close")
    assert seat(state, 0)["pile"] == 5 and state.scores()[0] == 5.0


def test_li18_only_the_current_line_counts_and_bets_have_no_colour(make):
    """LI-18. "When you place the third card of the same color in your line [...] you can only win each
    jackpot color once in the same line." "You can only have one line in front of you." """
    state = position(
        make,
        market=[BET4] + kinds(2, 3, 4),
        lines=[kinds(1, 5), []],
        hands=[kinds(33), []],
        jackpot=kinds(13),
    )
    act(state, "close", "line bet4", "play 33")  # the closed line held 1 and 5 (red)
    assert line(state, 0) == [BET4, K(33)] and state.current_player() == 1
    act(state, "line 2", "pass")  # B; leftovers 3 (green), 4 (yellow)
    deal(state, 37, 6, 8, 10)  # B first
    act(state, "line 6", "pass")
    act(state, "line 37")
    assert seat(state, 0)["pile"] == 0 and K(13) in view(state)["jackpot"]  # only 2 reds in this line
    act(state, "pass")
    deal(state, 41, 11, 12, 14)  # A first
    act(state, "line 41")  # the third red of this line
    assert seat(state, 0)["pile"] == 1 and K(13) not in view(state)["jackpot"]


def test_li19_two_jackpots_in_one_turn_one_from_a_hand_card(make):
    """LI-19. "When you place the third card of the same color in your line, you add all jackpot cards of the
    associated suit to your score pile." "At any time during your turn, you may play one [...] card from your
    hand" """
    state = position(
        make, market=kinds(10, 3, 4, 8), lines=[kinds(1, 2, 5, 6), []], hands=[kinds(9), []],
        jackpot=kinds(13, 17, 18, 22, 26),
    )  # fmt: skip
    act(state, "play 9")
    assert seat(state, 0)["pile"] == 2 and view(state)["jackpot"] == kinds(18, 22, 26)
    act(state, "line 10")
    assert seat(state, 0)["pile"] == 5 and view(state)["jackpot"] == []
    assert line(state, 0) == kinds(1, 2, 5, 6, 9, 10)


# --- LI-20 .. LI-21: closing at any time, the end of a round -----------------------------------------------


def li20(make):
    return position(
        make, market=kinds(60, 70, 80, 90), lines=[kinds(40, 30, 20), []], hands=[kinds(55), []], piles=[2, 0]
    )


def test_li20_voluntary_close_at_any_point_then_a_new_line_the_same_turn(make):
    """LI-20. "Close your line (optional). You can close your line at any time during your turn." """
    state = li20(make)
    act(state, "close")
    assert seat(state, 0)["pile"] == 2
    act(state, "play 55", "line 60")
    assert line(state, 0) == kinds(55, 60) and seat(state, 0)["hand"] == []
    assert state.current_player() == 1  # take, play and close all used
    # the other order: take 60 into the hand, close, then play
    state = li20(make)
    act(state, "hand 60", "close")
    assert seat(state, 0)["pile"] == 2 and {"play 55", "play 60"} <= set(legal_texts(state))
    act(state, "play 55")
    assert line(state, 0) == kinds(55) and seat(state, 0)["hand"] == kinds(60)


def test_li21_end_of_round_leftovers_to_jackpots_bets_discarded_first_player_left(make):
    """LI-21. "At the end of the round, each Market Number card that has not been chosen is placed under the
    Jackpot token corresponding to its color. The First Player token is given to the player to the left of the
    First Player [...] Note: Bet cards are discarded." """
    state = position(make, 3, market=kinds(17, 18, 60, 83) + [BET4])
    bet4_before = view(state)["deck"].count(BET4)
    act(state, "line 60", "pass")  # A
    act(state, "line 17", "pass")  # B
    act(state, "line 18", "pass")  # C
    v = view(state)
    assert v["jackpot"] == kinds(83)  # green; red, blue, yellow still empty
    assert v["market"] == [] and v["deck"].count(BET4) == bet4_before
    assert all(BET4 not in s["hand"] + s["line"] for s in v["seats"])
    assert v["first"] == 1 and v["phase"] == "deal" and state.is_chance_node()
    deal(state, 2, 3, 4, 6, 7)
    order = []
    for card in (2, 3, 4):
        order.append(state.current_player())
        act(state, f"hand {card}", "pass")
    assert order == [1, 2, 0]


# --- LI-22 .. LI-25: the end of the game --------------------------------------------------------------------


@pytest.mark.skip(
    reason="LI-22 (a) cannot be set up: from 106 cards the deck after round r holds 106 - (n + 2) r cards, "
    "never exactly n + 2 for any n (2p: 6 then 2; 3p: 6 then 1; 4p: 10 then 4; 5p: 8 then 1), and the "
    "deserializer refuses a deck of any other size (§8)"
)
def test_li22a_exactly_players_plus_two_cards_still_allow_a_round(make):
    """LI-22 (a). "When there are not enough cards to play a new turn, the game ends." """


def test_li22b_the_last_deck_cards_go_to_the_jackpots_bets_discarded(make):
    """LI-22 (b). "When there are not enough cards to play a new turn, the game ends. The last cards in the
    draw pile are placed under their Jackpot token." facts: "remaining deck number cards → jackpots (bet cards
    discarded)". The blind setup is 3 players ending with 4 cards in the deck; a 3-player game always ends
    with 1 (106 = 21 x 5 + 1), so the same 4 cards are set up in a 4-player game, which ends with exactly 4
    (106 = 17 x 6 + 4). The market's leftovers are red, so green and yellow hold only the deck's cards."""
    deck = kinds(7, 44, 91) + [BET3]
    state = position(
        make, 4, round=17, done=3, market=kinds(5, 9, 13), deck=deck, hands=[kinds(30), [], [], []]
    )
    act(state, "line 5", "pass")  # the last seat of the last round
    v = view(state)
    assert v["deck"] == [] and v["market"] == []
    assert v["jackpot"] == kinds(7, 9, 13, 44, 91)  # green 7, 91; yellow 44; red: the market's 9, 13
    assert v["phase"] == "final" and state.current_player() == 0  # the final plays follow
    on_table = v["market"] + [k for s in v["seats"] for k in s["hand"] + s["line"]]
    assert BET3 not in on_table + v["jackpot"]


def li23(make, first: int):
    """The last round of a 2-player game, the seat after ``first`` to take; the deck's last cards are 21 (red)
    and 70 (blue); the red jackpot holds 1. After the take, the hands and lines are the scenario's."""
    if first == 1:  # A takes 50 into the hand
        market, hands = kinds(50, 3, 4), [kinds(13), kinds(49)]
    else:  # B takes 49 into the hand
        market, hands = kinds(49, 3, 4), [kinds(13, 50), []]
    state = position(
        make, round=26, first=first, done=1, market=market, deck=kinds(21, 70), jackpot=kinds(1),
        lines=[kinds(5, 9), kinds(29, 45)], hands=hands,
    )  # fmt: skip
    act(state, "hand 50" if first == 1 else "hand 49", "pass")
    v = view(state)
    assert v["phase"] == "final" and v["jackpot"] == kinds(1, 3, 4, 21, 70)
    assert [s["hand"] for s in v["seats"]] == [kinds(13, 50), kinds(49)]
    return state


def test_li23_final_hand_plays_one_card_each_in_turn_order(make):
    """LI-23. "The last cards in the draw pile are placed under their Jackpot token. Starting with the first
    player, you can play a first card of your hand. Then you repeat this step with the second. Finally, each
    player must close their last line and you count the points." The final plays start with B, as the blind
    scenario sets: B held the first-player token in the last round (which interpretation 10 leaves with B;
    see the next test for the other case)."""
    state = li23(make, first=1)
    assert state.current_player() == 1
    act(state, "play 49")  # B's third red: 1 and 21 (the deck's last red card)
    assert seat(state, 1)["pile"] == 2 and reds(state) == []
    assert state.current_player() == 0
    act(state, "play 13")  # also a third red, but the jackpot is empty
    assert seat(state, 0)["pile"] == 0
    assert state.current_player() == 0  # second pass: B has no card left and is skipped
    act(state, "play 50")
    assert state.is_terminal() and state.current_player() == TERMINAL
    assert state.scores() == [1.0, 2.0] and state.returns() == [0.0, 1.0]
    assert K(70) in view(state)["jackpot"]  # blue stays unclaimed


def test_li23_first_player_of_the_final_plays_is_the_last_rounds(make):
    """LI-23 (who is "the first player"). "The First Player token is given to the player to the left of the
    First Player and the players begin a new round." "Starting with the first player, you can play a first
    card of your hand." Blind expectation: the token is passed at the end of the last round too, so with A
    first in the last round B would start the final plays (B 2, A 1); the blind file flags this as ambiguous
    (its ambiguity 5). The contract's interpretation 10 reads: "The first-player token is passed only when a
    new round begins (BGA-LI passes it only when the game goes on), so "Starting with the first player" is the
    first player of the last round." Adjusted to the contract: A starts and takes the red jackpot, A 3, B 0
    (the blind's own "If A were the first player of this phase" outcome)."""
    state = li23(make, first=0)
    assert view(state)["first"] == 0 and state.current_player() == 0
    act(state, "play 13")  # A's third red wins 1 and 21
    assert seat(state, 0)["pile"] == 2
    act(state, "play 49")  # B's third red: the jackpot is empty
    assert seat(state, 1)["pile"] == 0
    assert state.current_player() == 0  # second pass, B skipped
    act(state, "play 50")
    assert state.is_terminal() and state.scores() == [3.0, 0.0] and state.returns() == [1.0, 0.0]


def test_li24_final_phase_no_new_line_unplayable_hand_cards_score_nothing(make):
    """LI-24. "Starting with the first player, you can play a first card of your hand. Then you repeat this
    step with the second. Finally, each player must close their last line". A (line 50, 40; hand 60, 70)
    has no card that fits and no decision at all; B (so that the final plays have a decision) has one fitting
    card, and is offered only its play or a pass, no close."""
    state = position(
        make, round=26, first=0, done=1, market=kinds(3, 4, 8), deck=kinds(2, 6),
        lines=[kinds(50, 40), kinds(10, 20)], hands=[kinds(60, 70), kinds(30)], piles=[6, 0],
    )  # fmt: skip
    act(state, "hand 3", "pass")  # B's last take (the hand now holds 3 and 30)
    assert view(state)["phase"] == "final" and state.current_player() == 1  # A skipped in the first pass
    assert legal_texts(state) == ["play 30", "pass"]  # no close, no take
    illegal(state, "close")
    illegal(state, "play 60")
    act(state, "pass")
    assert state.current_player() == 1  # second pass: A skipped again
    act(state, "play 30")
    assert state.is_terminal()
    assert state.scores() == [6.0, 0.0]  # A's 2-card line scores 0; 60 and 70 score nothing


def test_li25_final_total_and_a_shared_victory(make):
    """LI-25. "Each Number card in your score pile is worth 1 point, to which you add the bonuses or penalties
    of your Bet tokens. The player with the highest score wins the game! In the event of a tie, the victory is
    shared." The last tokens (A's −3, C's −4) come from the closing at the end."""
    state = position(
        make, 3, phase="final", round=21, final_pass=2, done=2, piles=[14, 10, 16],
        tokens=[[0, 1, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0], [0, 0, 0, 0, 0, 1]],
        lines=[[BET3, K(10), K(20)], [], [BET4, K(30), K(40)]], hands=[[], [], kinds(50)],
    )  # fmt: skip
    assert state.current_player() == 2
    act(state, "pass")
    assert state.is_terminal()
    assert [s["tokens"] for s in view(state)["seats"]] == [
        [0, 1, 0, 1, 0, 0],
        [0, 0, 1, 0, 0, 0],
        [0, 0, 0, 0, 1, 1],
    ]
    assert state.scores() == [15.0, 15.0, 7.0]
    assert state.returns() == [0.5, 0.5, 0.0]  # shared, no tie-break
