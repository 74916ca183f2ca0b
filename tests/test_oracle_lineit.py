"""Tests of the pure-Python Line-it oracle on its own (meeplex.oracle.lineit).

Written from the game-help page (shared/rules/bga_lineit.txt, quoted in the docstrings) and the contract
docs/rules/lineit.md (cited "§n"): the market, the hand limit, the direction, bets, jackpots, the forced
close, closing, the end of a round and of the game, ties, serialization and its refusals, notation,
observations and whole random games.

Positions are built as serialized states and read back with ``deserialize_state``, so every position a test
starts from has also passed the deserializer's checks.
"""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import meeplex.oracle as oracle
from meeplex.errors import GameError, IllegalActionError, InvalidNotationError, InvalidStateError
from meeplex.oracle import CHANCE, TERMINAL, Rng
from meeplex.oracle.lineit import CLOSE, HAND, LINE, PASS, PLAY, LineitGame
from meeplex.testing import run_conformance

BET3, BET4, BET5 = 100, 101, 102


def K(x: int) -> int:
    """The kind of number card x."""
    return x - 1


def make(players: int = 2, **params: object) -> LineitGame:
    game = oracle.make("lineit", players=players, **params)
    assert isinstance(game, LineitGame)
    return game


def full_deck() -> list[int]:
    return list(range(100)) + [BET3, BET3, BET4, BET4, BET5, BET5]


def position(
    game: LineitGame,
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
    """A state from the given facts. Unless given, the deck is filled with unused cards (number cards from 1
    up first, then bet cards) to its contract size, and the round is the first whose deck size allows it."""
    n, m = game.players, game.market_size
    market = market or []
    hands = hands or [[] for _ in range(n)]
    lines = lines or [[] for _ in range(n)]
    jackpot = jackpot or []
    piles = piles or [0] * n
    tokens = tokens or [[0] * 6 for _ in range(n)]
    left = Counter(full_deck())
    left.subtract(market + jackpot + [k for h in hands for k in h] + [k for ln in lines for k in ln])
    for bet in (BET3, BET4, BET5):
        left[bet] -= sum(t[bet - 100] + t[bet - 97] for t in tokens)  # tokens take the place of bet cards
    pool = sorted(left.elements())

    def deck_size(r: int) -> int:
        return {"deal": 106 - m * (r - 1) - len(market), "turn": 106 - m * r}.get(phase, 0)

    if round is None:
        round = next((r for r in range(1, game.rounds) if deck_size(r) <= len(pool)), game.rounds)
    if deck is None:
        deck = pool[: deck_size(round)]
    obj = {
        "closed": closed,
        "deck": sorted(deck),
        "done": done,
        "final_pass": final_pass,
        "first": first,
        "game": "lineit",
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
    return game.deserialize_state(json.dumps(obj))


def view(state) -> dict:
    return json.loads(state.serialize())


def act(state, *texts: str) -> None:
    for text in texts:
        state.apply_action(state.string_to_action(text))


def legal_texts(state) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


# --------------------------------------------------------------------------------------------------------
# §1 parameters and sizes
# --------------------------------------------------------------------------------------------------------


def test_registry_and_defaults():
    assert "lineit" in oracle.games()
    assert oracle.GAMES["lineit"] is LineitGame
    game = oracle.make("lineit")
    assert game.params == {"colour_blocks": False, "players": 2}
    assert str(game) == "lineit(colour_blocks=false,players=2)"
    assert oracle.make(str(game)) == game
    assert oracle.make("lineit(players=4,colour_blocks=true)").params == {"colour_blocks": True, "players": 4}


@pytest.mark.parametrize(
    "params",
    [
        {"players": 1},
        {"players": 6},
        {"players": True},
        {"players": "2"},
        {"players": 2.0},
        {"colour_blocks": 1},
        {"colour_blocks": "true"},
        {"colours": True},
    ],
)
def test_bad_parameters(params):
    with pytest.raises(InvalidStateError):
        oracle.make("lineit", **params)


@pytest.mark.parametrize(
    ("players", "rounds", "length", "shape"),
    [(2, 26, 316, 868), (3, 21, 21 * 5 + 4 * 21 * 3 + 6, 1090), (4, 17, 17 * 6 + 4 * 17 * 4 + 8, 1312),
     (5, 15, 15 * 7 + 4 * 15 * 5 + 10, 1534)],
)  # fmt: skip
def test_sizes(players, rounds, length, shape):
    """§1 ``R = 106 div M``; §6 ``max_game_length``; §7.1 ``424 + 222 n``."""
    game = make(players)
    assert game.rounds == rounds and game.market_size == players + 2
    assert game.num_players() == players
    assert game.num_distinct_actions() == 311
    assert game.max_chance_outcomes() == 103
    assert game.max_game_length() == length
    assert game.observation_shape() == (shape,)


def test_colours():
    """BGA's cycle by default (1 red, 2 blue, 3 green, 4 yellow, 5 red ...); blocks of 25 as a parameter; 25
    of each colour either way ("25 cards in each of the 4 colors")."""
    cycle, blocks = make(), make(colour_blocks=True)
    assert [cycle.colour(K(x)) for x in (1, 2, 3, 4, 5, 100)] == [0, 1, 2, 3, 0, 3]
    assert [blocks.colour(K(x)) for x in (1, 25, 26, 50, 51, 75, 76, 100)] == [0, 0, 1, 1, 2, 2, 3, 3]
    for game in (cycle, blocks):
        assert Counter(game.colour(k) for k in range(100)) == {0: 25, 1: 25, 2: 25, 3: 25}


# --------------------------------------------------------------------------------------------------------
# §5.1, §5.2 setup and the market
# --------------------------------------------------------------------------------------------------------


def test_setup_and_building_the_market():
    """ "At the start of the round, draw as many cards as players plus two. Then place the drawn cards face
    up": one chance node per card, each kind weighted by its count in the deck."""
    game = make(3)
    state = game.new_initial_state()
    assert state.current_player() == CHANCE and state.is_chance_node()
    weights = dict(state.chance_weights())
    assert len(weights) == 103 and weights[K(1)] == 1 and weights[BET3] == weights[BET5] == 2
    assert sum(weights.values()) == 106
    assert abs(sum(p for _, p in state.chance_outcomes()) - 1.0) < 1e-12
    assert state.legal_actions_mask().shape == (103,)
    assert state.returns() == [0.0, 0.0, 0.0] and state.scores() == [0.0, 0.0, 0.0]
    act(state, "deal bet4", "deal 17", "bet4", "deal 99")
    assert state.chance_weights()[-2:] == [(BET3, 2), (BET5, 2)]  # no +4 left
    assert state.current_player() == CHANCE
    act(state, "deal 1")  # the fifth card: M = 5
    assert state.current_player() == 0 and not state.is_chance_node()
    assert view(state)["market"] == [K(1), K(17), K(99), BET4, BET4]
    assert len(view(state)["deck"]) == 101
    assert state.legal_actions_mask().shape == (311,)


def test_first_turn_offers_every_market_card():
    """ "Choose a market card (compulsory)": into the line or the hand; no pass before the take; an empty
    line cannot be closed."""
    state = position(make(), market=[K(10), K(20), BET3, BET3])
    assert legal_texts(state) == ["line 10", "line 20", "line bet3", "hand 10", "hand 20", "hand bet3"]


def test_hand_limit():
    """ "Your hand is limited to two cards." """
    state = position(make(), market=[K(10), K(20), K(30), K(40)], hands=[[K(5), K(95)], []])
    texts = legal_texts(state)
    assert not any(t.startswith("hand ") for t in texts)
    assert texts == ["line 10", "line 20", "line 30", "line 40", "play 5", "play 95"]
    act(state, "play 95")
    assert "hand 10" in legal_texts(state)  # the play made room


def test_take_into_the_hand_then_play_it():
    """ "At any time during your turn, you may play one, and only one, card from your hand" - the card just
    taken included; the play may also come before the take (interp. 4)."""
    state = position(make(), market=[K(10), K(20), K(30), K(40)])
    act(state, "hand 20")
    assert legal_texts(state) == ["play 20", "pass"]
    act(state, "play 20")
    # taken, played; close is still possible, so the turn goes on.
    assert state.current_player() == 0 and legal_texts(state) == ["close", "pass"]
    act(state, "pass")
    assert state.current_player() == 1
    assert view(state)["seats"][0]["line"] == [K(20)]

    state = position(make(), market=[K(10), K(20), K(30), K(40)], hands=[[K(50)], []])
    act(state, "play 50")
    assert "play 50" not in legal_texts(state) and "pass" not in legal_texts(state)
    act(state, "hand 40")
    assert legal_texts(state) == ["close", "pass"]  # one play per turn


# --------------------------------------------------------------------------------------------------------
# §5.3 fitting a line: the direction
# --------------------------------------------------------------------------------------------------------


def test_direction_is_set_by_the_second_number_card():
    """ "When you play a second Number card in your line (the Bet card does not count), this defines whether
    your line is ascending or descending." """
    market = [K(10), K(40), K(60), K(90)]
    state = position(make(), market=market, lines=[[K(50)], []])
    assert [t for t in legal_texts(state) if t.startswith("line")] == [
        "line 10",
        "line 40",
        "line 60",
        "line 90",
    ]
    act(state, "line 40")  # 50 then 40: descending
    assert view(state)["seats"][0]["line"] == [K(50), K(40)]
    market = [K(10), K(45), K(70), K(90)]
    state = position(make(), market=market, lines=[[K(50), K(40)], []])
    assert [t for t in legal_texts(state) if t.startswith("line")] == ["line 10"]
    state = position(make(), market=market, lines=[[BET3, K(50), K(60)], []])
    assert [t for t in legal_texts(state) if t.startswith("line")] == ["line 70", "line 90"]
    state = position(make(), market=market, lines=[[K(50), BET3], []])
    assert [t for t in legal_texts(state) if t.startswith("line")] == [f"line {x}" for x in (10, 45, 70, 90)]


def test_one_bet_card_per_line():
    """ "Reminder: you can only have one Bet card in your row." A bet card may start a line (interp. 6)."""
    state = position(make(), market=[K(10), BET3, BET4, BET5])
    assert "line bet3" in legal_texts(state)
    state = position(make(), market=[K(10), BET3, BET4, BET5], lines=[[K(20), BET5], []], hands=[[BET3], []])
    texts = legal_texts(state)
    assert not any(t.startswith("line bet") or t.startswith("play bet") for t in texts)
    assert "hand bet4" in texts  # a bet card can still be taken into the hand


# --------------------------------------------------------------------------------------------------------
# §5.4, interp. 5 the forced close, and the turn ending by itself
# --------------------------------------------------------------------------------------------------------


def test_forced_close():
    """ "If you cannot play a market card or add one to your hand, you must close your line in order to
    play." """
    market = [K(1), K(2), K(3), K(4)]
    state = position(make(), market=market, lines=[[K(50), K(60)], []], hands=[[K(10), K(20)], []])
    assert legal_texts(state) == ["close"]
    act(state, "close")
    assert view(state)["seats"][0]["line"] == [] and state.current_player() == 0
    assert legal_texts(state) == ["line 1", "line 2", "line 3", "line 4", "play 10", "play 20"]
    act(state, "line 3")
    # taken and closed; a hand card fits (10 and 20 go either way after 3): the turn goes on.
    assert legal_texts(state) == ["play 10", "play 20", "pass"]
    act(state, "play 20")  # taken, played, closed: nothing left, the turn ends by itself
    assert state.current_player() == 1
    assert view(state)["seats"][0]["line"] == [K(3), K(20)]


def test_a_fitting_hand_card_avoids_the_forced_close():
    """Interp. 5: playing a hand card first makes room in the hand."""
    market = [K(1), K(2), K(3), K(4)]
    state = position(make(), market=market, lines=[[K(50), K(60)], []], hands=[[K(20), K(70)], []])
    assert legal_texts(state) == ["play 70", "close"]
    act(state, "play 70")
    assert legal_texts(state) == ["hand 1", "hand 2", "hand 3", "hand 4", "close"]


def test_the_turn_ends_by_itself_when_only_pass_is_left():
    state = position(make(), market=[K(10), K(20), K(30), K(40)])
    act(state, "line 20")
    assert legal_texts(state) == ["close", "pass"]
    act(state, "close")  # taken, closed, nothing in hand
    assert state.current_player() == 1
    assert view(state)["taken"] is False and view(state)["done"] == 1


def test_pass_only_after_the_take():
    state = position(make(), market=[K(10), K(20), K(30), K(40)], lines=[[K(5)], []])
    with pytest.raises(IllegalActionError):
        state.apply_action(PASS)
    act(state, "close")
    assert "pass" not in legal_texts(state) and "close" not in legal_texts(state)


# --------------------------------------------------------------------------------------------------------
# §5.3 jackpots
# --------------------------------------------------------------------------------------------------------


def test_third_card_of_a_colour_wins_its_jackpot():
    """ "When you place the third card of the same color in your line, you add all jackpot cards of the
    associated suit to your score pile." Red: 1, 5, 9, 13, 17 ... (BGA's cycle)."""
    jackpot = [K(13), K(17), K(2), K(6)]  # two red, two blue
    state = position(make(), market=[K(9), K(30), K(40), K(60)], lines=[[K(1), K(5)], []], jackpot=jackpot)
    act(state, "line 9")
    seat = view(state)["seats"][0]
    assert seat["pile"] == 2 and view(state)["jackpot"] == [K(2), K(6)]
    assert state.scores() == [2.0, 0.0]


def test_a_jackpot_only_once_per_colour_per_line():
    """ "Important: you can only win each jackpot color once in the same line." A fourth red card wins
    nothing; a new line may win it again."""
    state = position(
        make(), market=[K(21), K(30), K(40), K(60)], lines=[[K(1), K(5), K(9)], []], jackpot=[K(13), K(17)]
    )
    act(state, "line 21")
    assert view(state)["seats"][0]["pile"] == 0 and view(state)["jackpot"] == [K(13), K(17)]
    state = position(
        make(), market=[K(21), K(30), K(40), K(60)], lines=[[K(1), BET3, K(5)], []], hands=[[K(9)], []],
        jackpot=[K(13), K(17)],
    )  # fmt: skip
    act(state, "play 9")  # from the hand, past a bet card: the bet does not count for colours
    assert view(state)["seats"][0]["pile"] == 2 and view(state)["jackpot"] == []


def test_an_empty_jackpot_is_won_for_nothing_and_colour_blocks():
    state = position(make(colour_blocks=True), market=[K(3), K(30), K(40), K(60)], lines=[[K(1), K(2)], []])
    act(state, "line 3")  # 1, 2, 3 are all red by blocks
    assert view(state)["seats"][0]["pile"] == 0
    state = position(
        make(colour_blocks=True), market=[K(3), K(30), K(40), K(60)], lines=[[K(1), K(2)], []],
        jackpot=[K(20), K(25), K(26)],
    )  # fmt: skip
    act(state, "line 3")
    assert view(state)["seats"][0]["pile"] == 2 and view(state)["jackpot"] == [K(26)]
    state = position(make(), market=[K(3), K(30), K(40), K(60)], lines=[[K(1), K(2)], []], jackpot=[K(20)])
    act(state, "line 3")  # by BGA's cycle 1, 2, 3 are three colours
    assert view(state)["seats"][0]["pile"] == 0 and view(state)["jackpot"] == [K(20)]


# --------------------------------------------------------------------------------------------------------
# §5.5 closing and bets
# --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "pile", "tokens", "score"),
    [
        ([K(10), K(20), K(30), K(40), K(50)], 2, [0] * 6, 2),
        ([K(10), K(20)], 0, [0] * 6, 0),
        ([K(10), BET3, K(20), K(30), K(40)], 1, [1, 0, 0, 0, 0, 0], 4),  # 3 after the bet: won
        ([K(10), K(20), BET4, K(30), K(40), K(50)], 2, [0, 0, 0, 0, 1, 0], -2),  # 3 after a +4: lost
        ([BET5, K(90), K(80), K(70), K(60), K(50)], 2, [0, 0, 1, 0, 0, 0], 7),  # exactly 5: won
        ([BET5], 0, [0, 0, 0, 0, 0, 1], -5),  # a lone bet card: lost (interp. 6)
    ],
)
def test_closing_the_line(line, pile, tokens, score):
    """ "To earn the points for a Bet card, you must have, in your line, as many or more Number cards as the
    indicated figure, after your Bet card. If you do not have enough number cards, you lose the same number
    of points." "Then you must discard 3 cards from your row and each remaining card is added to your score
    pile." """
    state = position(make(), market=[K(1), K(2), K(3), K(4)], lines=[line, []])
    act(state, "close")
    seat = view(state)["seats"][0]
    assert seat["line"] == [] and seat["pile"] == pile and seat["tokens"] == tokens
    assert state.scores()[0] == float(score)
    # The line is empty: its direction and bet are gone, any card fits.
    assert "line 4" in legal_texts(state) and "line 1" in legal_texts(state)


def test_close_before_the_take_and_close_only_once():
    """ "You can close your line at any time during your turn." """
    state = position(make(), market=[K(11), K(12), K(13), K(14)], lines=[[K(20), K(30), K(40), K(50)], []])
    act(state, "close", "line 12")  # taken and closed, nothing in hand: the turn ends by itself
    assert state.current_player() == 1
    assert view(state)["seats"][0]["pile"] == 1 and view(state)["seats"][0]["line"] == [K(12)]


# --------------------------------------------------------------------------------------------------------
# §5.6 end of the round
# --------------------------------------------------------------------------------------------------------


def test_end_of_round_feeds_the_jackpots_and_passes_the_first_player():
    """ "each Market Number card that has not been chosen is placed under the Jackpot token corresponding to
    its color. The First Player token is given to the player to the left [...] Note: Bet cards are
    discarded." """
    state = position(make(), done=1, market=[K(30), K(40), BET3], jackpot=[K(7)])
    assert state.current_player() == 1
    act(state, "hand 30", "pass")
    v = view(state)
    assert v["phase"] == "deal" and v["round"] == 2 and v["first"] == 1 and v["done"] == 0
    assert v["market"] == [] and v["jackpot"] == [K(7), K(40)]
    assert len(v["deck"]) == 102 and state.current_player() == CHANCE
    for card in ("deal 90", "deal 91", "deal 92", "deal 93"):
        act(state, card)
    assert state.current_player() == 1  # the new first player starts


# --------------------------------------------------------------------------------------------------------
# §5.7 the end of the game
# --------------------------------------------------------------------------------------------------------


def last_round(piles=(0, 0)):
    """Round 26 of a 2-player game, seat 0 (second in turn order) to take; the deck holds 17 (red) and a
    +5 bet card; seat 1's line holds two reds and its hand a third."""
    game = make()
    return position(
        game, round=26, first=1, done=1, market=[K(50), K(60), K(70)], deck=[K(17), BET5],
        lines=[[], [K(1), K(5)]], hands=[[], [K(9)]], jackpot=[K(13)], piles=list(piles),
    )  # fmt: skip


def test_end_of_game_last_plays_and_closes():
    """ "When there are not enough cards to play a new turn, the game ends. The last cards in the draw pile
    are placed under their Jackpot token. Starting with the first player, you can play a first card of your
    hand. Then you repeat this step with the second. Finally, each player must close their last line" """
    state = last_round()
    act(state, "hand 50", "pass")
    v = view(state)
    assert v["phase"] == "final" and v["final_pass"] == 1 and v["first"] == 1  # not passed on (interp. 10)
    assert v["deck"] == [] and v["market"] == [] and v["jackpot"] == [K(13), K(17), K(60), K(70)]
    assert state.current_player() == 1 and legal_texts(state) == ["play 9", "pass"]
    act(state, "play 9")  # the third red: 13 and 17 (the deck's last card) are won
    assert view(state)["seats"][1]["pile"] == 2
    assert state.current_player() == 0 and legal_texts(state) == ["play 50", "pass"]
    act(state, "pass")
    # Second pass: seat 1 has nothing left in hand and is skipped.
    assert view(state)["final_pass"] == 2 and state.current_player() == 0
    act(state, "play 50")
    assert state.is_terminal() and state.current_player() == TERMINAL
    v = view(state)
    assert v["phase"] == "over" and all(seat["line"] == [] for seat in v["seats"])
    assert state.scores() == [0.0, 2.0] and state.returns() == [0.0, 1.0]
    assert state.legal_actions() == [] and not state.legal_actions_mask().any()


def test_closing_at_the_end_scores_lines_and_bets():
    game = make()
    state = position(
        game, phase="final", round=26, first=0, final_pass=2, done=1,
        lines=[[K(1), K(2), K(3), K(4), K(5)], [BET4, K(50), K(40)]], hands=[[], [K(30), K(99)]],
    )  # fmt: skip
    assert state.current_player() == 1 and legal_texts(state) == ["play 30", "pass"]
    act(state, "play 30")
    assert state.is_terminal()
    assert view(state)["seats"][0]["pile"] == 2 and view(state)["seats"][1]["tokens"] == [0, 0, 0, 0, 1, 0]
    assert state.scores() == [2.0, -4.0] and state.returns() == [1.0, 0.0]


def test_final_plays_skip_seats_that_cannot_play():
    """A seat with no fitting hand card is skipped in both passes; with nobody able the game ends at once."""
    state = position(
        make(), round=26, first=0, done=1, market=[K(50), K(60), K(70)], deck=[K(18), K(19)],
        lines=[[K(40), K(30)], [K(20), K(10)]], hands=[[K(35)], [K(15)]],
    )  # fmt: skip
    assert state.current_player() == 1
    act(state, "hand 70")  # nothing in seat 1's hand fits its line; it may still close
    assert legal_texts(state) == ["close", "pass"]
    act(state, "pass")
    assert state.is_terminal()
    assert view(state)["jackpot"] == [K(18), K(19), K(50), K(60)]


def test_ties_share_the_victory():
    """ "In the event of a tie, the victory is shared." """
    state = last_round(piles=(2, 0))
    act(state, "hand 50", "pass", "play 9", "pass", "play 50")
    assert state.scores() == [2.0, 2.0] and state.returns() == [0.5, 0.5]
    game = make(3)
    over = position(game, phase="over", round=21, piles=[5, 5, 2])
    assert over.is_terminal() and over.returns() == [0.5, 0.5, 0.0]
    over = position(game, phase="over", round=21, piles=[4, 4, 4])
    assert over.returns() == [1 / 3] * 3


def test_returns_are_zero_before_the_end():
    state = position(make(), market=[K(1), K(2), K(3), K(4)], piles=[9, 0])
    assert state.scores() == [9.0, 0.0] and state.returns() == [0.0, 0.0]


# --------------------------------------------------------------------------------------------------------
# Refused actions
# --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "action", [-1, 311, PASS, CLOSE, PLAY + K(1), HAND + K(99), True, 1.0, "line 1", None]
)
def test_illegal_actions_leave_the_state_unchanged(action):
    state = position(make(), market=[K(10), K(20), K(30), K(40)])
    before = state.serialize()
    with pytest.raises(IllegalActionError) as info:
        state.apply_action(action)
    assert isinstance(info.value, GameError) and isinstance(info.value, ValueError)
    assert "seat 0" in str(info.value)
    assert state.serialize() == before


def test_numpy_ints_are_actions():
    state = position(make(), market=[K(10), K(20), K(30), K(40)])
    mask = state.legal_actions_mask()
    state.apply_action(np.flatnonzero(mask)[0])
    assert view(state)["seats"][0]["line"] == [K(10)]
    with pytest.raises(IllegalActionError):
        state.apply_action(np.bool_(True))


# --------------------------------------------------------------------------------------------------------
# §6 notation
# --------------------------------------------------------------------------------------------------------


def test_every_action_prints_and_reads_back():
    decision = position(make(), market=[K(10), K(20), K(30), K(40)])
    texts = [decision.action_to_string(a) for a in range(311)]
    assert len(set(texts)) == 311
    assert texts[0] == "line 1" and texts[99] == "line 100" and texts[100] == "line bet3"
    assert texts[103] == "hand 1" and texts[205] == "hand bet5" and texts[206] == "play 1"
    assert texts[308] == "play bet5" and texts[309] == "close" and texts[310] == "pass"
    assert [decision.string_to_action(t) for t in texts] == list(range(311))
    chance = make().new_initial_state()
    deals = [chance.action_to_string(a) for a in range(103)]
    assert deals[0] == "deal 1" and deals[101] == "deal bet4"
    assert [chance.string_to_action(t) for t in deals] == list(range(103))
    assert [chance.string_to_action(t.split()[1]) for t in deals] == list(range(103))
    over = position(make(), phase="over", round=26)
    assert over.action_to_string(309) == "close" and over.string_to_action("line 5") == 4


def test_relaxed_reading():
    decision = position(make(), market=[K(10), K(20), K(30), K(40)])
    assert decision.string_to_action("  LINE \t 037 ") == LINE + K(37)
    assert decision.string_to_action("Hand BET4") == HAND + BET4
    assert decision.string_to_action("play 100") == PLAY + K(100)
    assert decision.string_to_action("PASS") == PASS
    assert decision.string_to_action("play 001") == PLAY + K(1)
    chance = make().new_initial_state()
    assert chance.string_to_action(" Deal   Bet5 ") == BET5
    assert chance.string_to_action("007") == K(7)


@pytest.mark.parametrize(
    "text",
    ["line 0", "line 101", "line 0100", "line +5", "line -5", "line bet 3", "line bet6", "line", "line5",
     "take 5", "deal 5", "close 1", "line \uff15", "line \u0665", "", "pass pass", "5", "bet3"],
)  # fmt: skip
def test_decision_notation_refusals(text):
    decision = position(make(), market=[K(10), K(20), K(30), K(40)])
    with pytest.raises(InvalidNotationError):
        decision.string_to_action(text)


@pytest.mark.parametrize("text", ["line 5", "deal 0", "deal 101", "pass", "close", "deal", "bet2", "deal5"])
def test_chance_notation_refusals(text):
    chance = make().new_initial_state()
    with pytest.raises(InvalidNotationError):
        chance.string_to_action(text)


def test_notation_refuses_non_strings_and_prints_only_ids_in_range():
    decision = position(make(), market=[K(10), K(20), K(30), K(40)])
    chance = make().new_initial_state()
    with pytest.raises(InvalidNotationError):
        decision.string_to_action(5)
    for state, bad in ((decision, [-1, 311, True, "1"]), (chance, [-1, 103, 310, False])):
        for action in bad:
            with pytest.raises(IllegalActionError):
                state.action_to_string(action)


# --------------------------------------------------------------------------------------------------------
# §7 observations
# --------------------------------------------------------------------------------------------------------


def test_observation_tensor_layout():
    """Seats relative to the observer; every fact public (interp. 1)."""
    game = make()
    n = 2
    state = position(
        game, market=[K(10), K(20), K(30), BET3], hands=[[K(5)], [BET4, K(99)]],
        lines=[[K(50), BET5], [K(1), K(6), K(11)]], jackpot=[K(2), K(3), K(7)],
        piles=[4, 1], tokens=[[1, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 1]],
    )  # fmt: skip
    cards = 4 + 2 * n
    bets = 3 + 2 * n
    seat_base = 100 * cards + 3 * bets
    glob = seat_base + 14 * n
    for observer in (0, 1):
        t = state.observation_tensor(observer)
        assert t.shape == (868,) and t.dtype == np.float32

        def where(x, t=t):
            return np.flatnonzero(t[K(x) * cards : (K(x) + 1) * cards]).tolist()

        assert where(10) == [1] and where(2) == [2] and where(100) in ([0], [3])
        assert where(5) == [4 + (0 - observer) % n] and where(99) == [4 + (1 - observer) % n]
        assert where(50) == [4 + n + (0 - observer) % n] and where(6) == [4 + n + (1 - observer) % n]
        # +3: one in the market, the other a token (so out); +4: one in seat 1's hand, the other in the
        # deck or out; +5: one in seat 0's line, the other a token.
        bet3 = t[100 * cards : 100 * cards + bets].tolist()
        assert bet3 == [0.0, 1.0, 1.0] + [0.0] * (2 * n)
        bet4 = t[100 * cards + bets : 100 * cards + 2 * bets].tolist()
        in_deck = view(state)["deck"].count(BET4)
        assert bet4[:3] == [in_deck, 0.0, 1.0 - in_deck] and bet4[3 + (1 - observer) % n] == 1.0
        assert sum(bet4) == 2.0
        bet5 = t[100 * cards + 2 * bets : 100 * cards + 3 * bets].tolist()
        assert bet5[2] == 1.0 and bet5[3 + n + (0 - observer) % n] == 1.0 and sum(bet5) == 2.0
        me = t[seat_base + 14 * ((0 - observer) % n) : seat_base + 14 * ((0 - observer) % n) + 14].tolist()
        assert me == [4, 3, 1, 1, 0, 0, 50, 5, 0, 0, 1, 0, 0, 1]  # 50 is blue
        other = t[seat_base + 14 * ((1 - observer) % n) : seat_base + 14 * ((1 - observer) % n) + 14].tolist()
        assert other == [1, -5, 3, 0, 1, 0, 11, 0, 0, 1, 1, 1, 0, 2]  # red, blue, green
        g = t[glob:].tolist()
        assert len(g) == 15 + 2 * n
        assert g[:4] == [0, 1, 2, 0]  # jackpot: 2, 3 and 7 are blue, green and green
        assert g[4] == len(view(state)["deck"]) and g[5] == view(state)["round"]
        assert g[6:10] == [0, 1, 0, 0]
        assert g[10 : 10 + n] == [1.0 if i == (0 - observer) % n else 0.0 for i in range(n)]
        assert g[10 + n : 10 + 2 * n] == [1.0 if i == (0 - observer) % n else 0.0 for i in range(n)]
        assert g[10 + 2 * n :] == [0, 0, 0, 0, 0]


def test_observation_current_player_is_zero_at_chance_and_strings():
    state = make(3).new_initial_state()
    t = state.observation_tensor(2)
    g = t[-(15 + 6) :]
    assert g[10 + 3 : 10 + 6].tolist() == [0, 0, 0] and g[10:13].tolist() == [0, 1, 0]  # first = seat 0
    assert state.information_state_string(1) == "seat=1 history="
    act(state, "deal 5", "deal bet3")
    assert state.information_state_string(2) == f"seat=2 history={K(5)},{BET3}"
    assert "market: 5 bet3" in state.observation_string(0)
    for bad in (-1, 3, True, "0", None):
        for method in (state.observation_tensor, state.observation_string, state.information_state_string):
            with pytest.raises(InvalidStateError):
                method(bad)
        with pytest.raises(InvalidStateError):
            state.resample_from_infostate(bad, Rng(1))


def test_resample_is_a_clone():
    game = make(3)
    state = game.new_initial_state()
    rng = Rng(3)
    for _ in range(60):
        oracle.random_step(state, rng)
    for seat in range(3):
        twin = state.resample_from_infostate(seat, Rng(9))
        assert twin == state and twin is not state and twin.history() == state.history()


# --------------------------------------------------------------------------------------------------------
# §8 serialization
# --------------------------------------------------------------------------------------------------------


def test_serialization_is_canonical_and_round_trips():
    game = make(3)
    state = game.new_initial_state()
    rng = Rng(5)
    while not state.is_terminal():
        text = state.serialize()
        assert text == json.dumps(json.loads(text), sort_keys=True, separators=(",", ":"))
        back = game.deserialize_state(text)
        assert back.serialize() == text and back.legal_actions() == state.legal_actions()
        assert back.history() == state.history()
        oracle.random_step(state, rng)
    assert game.deserialize_state(state.serialize()) == state


def test_initial_serialization():
    text = make().new_initial_state().serialize()
    obj = json.loads(text)
    assert list(obj) == sorted(obj)
    assert obj["deck"] == full_deck() and obj["phase"] == "deal" and obj["version"] == 1
    assert obj["seats"] == [{"hand": [], "line": [], "pile": 0, "tokens": [0] * 6}] * 2
    assert text.startswith('{"closed":false,"deck":[0,1,2,')


def _turn_object() -> dict:
    """A valid turn position (2 players, round 3, seat 1 to move after seat 0's turn) as a JSON object."""
    state = position(
        make(), round=4, first=0, done=1, market=[K(8), K(9), BET4], hands=[[K(10)], [K(20), BET3]],
        lines=[[K(30), K(40)], [BET5, K(60), K(55)]], jackpot=[K(1)], piles=[3, 0],
        tokens=[[0, 0, 0, 1, 0, 0], [0, 0, 0, 0, 0, 0]],
    )  # fmt: skip
    return view(state)


def _final_object() -> dict:
    state = position(
        make(), phase="final", round=26, final_pass=1, done=0, hands=[[K(70)], []], lines=[[K(60), K(65)], []]
    )
    return view(state)


def _deal_object() -> dict:
    """Round 2 of a 2-player game with three cards of the market dealt."""
    return view(position(make(), phase="deal", round=2, market=[K(3), K(4), BET5]))


def _set(path, value):
    def mutate(obj):
        target = obj
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        return obj

    return mutate


def _del(key):
    def mutate(obj):
        del obj[key]
        return obj

    return mutate


REFUSALS = {
    "missing key": (_turn_object, _del("taken")),
    "extra key": (_turn_object, _set(["extra"], 1)),
    "extra seat key": (_turn_object, _set(["seats", 0, "score"], 1)),
    "game": (_turn_object, _set(["game"], "flip_city")),
    "version": (_turn_object, _set(["version"], 2)),
    "version bool": (_turn_object, _set(["version"], True)),
    "params": (_turn_object, _set(["params"], {"colour_blocks": True, "players": 2})),
    "params int for bool": (_turn_object, _set(["params"], {"colour_blocks": 0, "players": 2})),
    "seats count": (_turn_object, lambda o: {**o, "seats": o["seats"][:1]}),
    "tokens length": (_turn_object, _set(["seats", 0, "tokens"], [0] * 5)),
    "token out of range": (_turn_object, _set(["seats", 1, "tokens"], [3, 0, 0, 0, 0, 0])),
    "hand too long": (_turn_object, _set(["seats", 0, "hand"], [K(10), K(11), K(12)])),
    "market too long": (_turn_object, _set(["market"], [K(8), K(9), K(11), K(12), K(13)])),
    "kind out of range": (_turn_object, _set(["seats", 0, "hand"], [103])),
    "bet kind in the jackpot": (_turn_object, _set(["jackpot"], [K(1), 100])),
    "unsorted market": (_turn_object, _set(["market"], [K(9), K(8), BET4])),
    "unsorted hand": (_turn_object, _set(["seats", 1, "hand"], [BET3, K(20)])),
    "pile out of range": (_turn_object, _set(["seats", 0, "pile"], 101)),
    "pile bool": (_turn_object, _set(["seats", 0, "pile"], False)),
    "round 0": (_turn_object, _set(["round"], 0)),
    "round 27": (_turn_object, _set(["round"], 27)),
    "first": (_turn_object, _set(["first"], 2)),
    "final_pass 3": (_turn_object, _set(["final_pass"], 3)),
    "history id": (_turn_object, _set(["history"], [311])),
    "history bool": (_turn_object, _set(["history"], [True])),
    "flag int": (_turn_object, _set(["taken"], 0)),
    "done float": (_turn_object, _set(["done"], 1.0)),
    "number card twice": (_turn_object, _set(["jackpot"], [K(1), K(8)])),
    "number card twice in one place": (_turn_object, _set(["seats", 0, "line"], [K(30), K(40), K(40)])),
    "too many bet cards": (_turn_object, _set(["seats", 0, "hand"], [K(10), BET3])),
    "bets and tokens": (_turn_object, _set(["seats", 0, "tokens"], [0, 0, 1, 0, 0, 1])),
    "two bets in a line": (_turn_object, _set(["seats", 0, "line"], [K(30), BET4, K(40), BET5])),
    "not monotone": (_turn_object, _set(["seats", 1, "line"], [BET5, K(60), K(55), K(100)])),
    "phase": (_turn_object, _set(["phase"], "play")),
    "flag outside a turn": (_final_object, _set(["played"], True)),
    "final_pass outside final": (_turn_object, _set(["final_pass"], 1)),
    "turn done": (_turn_object, _set(["done"], 2)),
    "turn deck size": (_turn_object, _set(["round"], 3)),
    "turn market size": (_turn_object, _set(["taken"], True)),
    "deal counts": (_turn_object, _set(["phase"], "deal")),
    "deal full market": (
        _deal_object,
        lambda o: {**o, "market": o["market"] + [o["deck"][0]], "deck": o["deck"][1:]},
    ),
    "final deck": (_final_object, _set(["deck"], [K(1)])),
    "final round": (_final_object, _set(["round"], 25)),
    "final pass 0": (_final_object, _set(["final_pass"], 0)),
    "final done": (_final_object, _set(["done"], 2)),
    "final not able": (_final_object, _set(["seats", 0, "hand"], [K(50)])),
    "over line": (_final_object, _set(["phase"], "over")),
}


@pytest.mark.parametrize("name", sorted(REFUSALS))
def test_deserialization_refusals(name):
    build, mutate = REFUSALS[name]
    obj = build()
    make().deserialize_state(json.dumps(obj))  # the unmutated position reads
    bad = mutate(json.loads(json.dumps(obj)))
    with pytest.raises(InvalidStateError):
        make().deserialize_state(json.dumps(bad))


def test_deserialization_refuses_odd_texts():
    game = make()
    good = game.new_initial_state().serialize()
    for text in [None, 5, "", "[]", "{", good[:-1], good.replace('"done":0', '"done":0,"done":0'), "NaN"]:
        with pytest.raises(InvalidStateError):
            game.deserialize_state(text)
    assert game.deserialize_state(good.replace('"done":0', '"done":-0')).serialize() == good
    with pytest.raises(InvalidStateError):
        make(3).deserialize_state(good)


def test_deserialization_refuses_unsettled_turns():
    game = make()
    # A turn in which only pass would be left (taken, played, closed).
    obj = view(position(game, done=0, market=[K(10), K(20), K(30), K(40)]))
    obj.update(taken=True, played=True, closed=True, market=[K(10), K(20), K(30)])
    obj["seats"][0]["line"] = [K(40)]
    with pytest.raises(InvalidStateError):
        game.deserialize_state(json.dumps(obj))
    obj.update(closed=False)
    game.deserialize_state(json.dumps(obj))  # close is still legal: settled


def test_a_state_refused_in_over_with_done_and_cloning():
    obj = view(position(make(), phase="over", round=26))
    obj["done"] = 1
    with pytest.raises(InvalidStateError):
        make().deserialize_state(json.dumps(obj))
    state = position(make(), market=[K(10), K(20), K(30), K(40)])
    twin = state.clone()
    act(twin, "line 10")
    assert view(state)["market"] == [K(10), K(20), K(30), K(40)] and view(state)["seats"][0]["line"] == []


# --------------------------------------------------------------------------------------------------------
# Whole random games
# --------------------------------------------------------------------------------------------------------

PARAM_SETS = [
    {},
    {"players": 3},
    {"players": 4, "colour_blocks": True},
    {"players": 5},
    {"players": 2, "colour_blocks": True},
]


def _ids(params: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in sorted(params.items())) or "defaults"


def _card_count(state) -> int:
    """Cards still on the table (deck, market, jackpot, hands, lines): never more than 106."""
    v = view(state)
    return (
        len(v["deck"]) + len(v["market"]) + len(v["jackpot"])
        + sum(len(s["hand"]) + len(s["line"]) for s in v["seats"])
    )  # fmt: skip


@pytest.mark.parametrize("params", PARAM_SETS, ids=_ids)
def test_random_games(params):
    game = make(**params)
    n = game.players
    for seed in range(3):
        state = oracle.play_random(game, seed)
        assert state.is_terminal() and state.current_player() == TERMINAL
        assert len(state.history()) <= game.max_game_length()
        scores = state.scores()
        best = max(scores)
        winners = [s for s in range(n) if scores[s] == best]
        assert state.returns() == [1 / len(winners) if s in winners else 0.0 for s in range(n)]
        v = view(state)
        assert v["round"] == game.rounds and v["deck"] == [] and v["market"] == []
        assert game.deserialize_state(state.serialize()) == state
        # R x M cards dealt, one chance node each; the rest went under the jackpots or out at the end.
        replay = game.new_initial_state()
        dealt = 0
        for action in state.history():
            dealt += replay.is_chance_node()
            replay.apply_action(action)
        assert dealt == game.rounds * game.market_size and replay == state


def test_play_random_is_deterministic():
    game = make(4)
    assert oracle.play_random(game, 11).history() == oracle.play_random(game, 11).history()
    assert oracle.play_random(game, 11).history() != oracle.play_random(game, 12).history()


@pytest.mark.parametrize("params", [{}, {"players": 5, "colour_blocks": True}], ids=_ids)
def test_every_state_invariants(params):
    game = make(**params)
    state = game.new_initial_state()
    rng = Rng(8)
    turns_seen = 0
    while True:
        player = state.current_player()
        assert _card_count(state) <= 106
        if player == CHANCE:
            weights = state.chance_weights()
            assert all(w > 0 for _, w in weights)
            assert sum(w for _, w in weights) == len(view(state)["deck"])
        elif player >= 0:
            legal = state.legal_actions()
            assert legal and legal == sorted(legal)
            assert np.flatnonzero(state.legal_actions_mask()).tolist() == legal
            if view(state)["phase"] == "turn":
                turns_seen += 1
                if view(state)["taken"]:
                    assert PASS in legal
        else:
            break
        for p in range(game.players):
            assert state.observation_tensor(p).shape == game.observation_shape()
        oracle.random_step(state, rng)
    assert turns_seen > 0


@pytest.mark.parametrize("game_string", ["lineit", "lineit(players=4,colour_blocks=true)"])
def test_conformance_suite(game_string):
    """The project's conformance suite on a whole game."""
    report = run_conformance(oracle.make(game_string), seeds=[1], check_every=3)
    assert report.terminal == 1


@settings(max_examples=25)
@given(seed=st.integers(0, 2**64 - 1), players=st.integers(2, 5), steps=st.integers(0, 400))
def test_random_prefixes_round_trip(seed, players, steps):
    game = make(players)
    state = game.new_initial_state()
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        oracle.random_step(state, rng)
    back = game.deserialize_state(state.serialize())
    assert back == state and back.legal_actions() == state.legal_actions()
    for p in range(players):
        assert np.array_equal(back.observation_tensor(p), state.observation_tensor(p))
