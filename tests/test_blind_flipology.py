"""Flipology: the blind scenarios of /work/blind/flipology.md (FL-01 .. FL-20), written by a colleague who
read only the rulebook, as tests on both engines.  Flipology's serialization is its history
(docs/rules/flipology.md §10: a state is refused unless it is what its history produces), so each position is
reached by actions from the initial state: the deal is a sequence of chance outcomes the test chooses, then
the placements, then earlier turns that turn the scenario's face-up cards up. The blind "Pn-k" is seat n-1,
column k-1 (``P(n - 1, k - 1)``). Each docstring names the scenario and quotes the rulebook sentence it rests
on."""

from __future__ import annotations

import pytest

from test_flipology_rules import (
    CAT4,
    CAT5,
    CAT6,
    CLEARING,
    DOG5,
    DOG6,
    FROG4,
    FROG5,
    GOLDB,
    GOLDC,
    GOLDD,
    GOLDE,
    GOLDF,
    HAWK3,
    HAWK4,
    HUNTER,
    KEEP,
    MIMIC_DOG,
    MOLE1,
    MONKEY2,
    MONKEY3,
    MOON,
    PARROT,
    PASS,
    PLACE,
    QUOKKA,
    RAIN,
    REGROW,
    SLOTH6,
    SLOTH7,
    SLOTH8,
    SNAKE3,
    SNAKE4,
    SUN,
    VALUES,
    WIND,
    G,
    P,
    card,
    great_tree_round,
    nature,
    play,
    record,
    up,
    view,
)


def apply(state, *actions: int) -> None:
    for action in actions:
        assert action in state.legal_actions(), (action, state.legal_actions())
        state.apply_action(action)


def row_score(state, seat: int) -> int:
    """The rulebook's End of Game Scoring over a seat's row, from the serialization."""
    total = 0
    for rec in view(state)["seats"][seat]["row"]:
        if rec is None:
            continue
        value = VALUES[rec[0]]
        if rec[0] in (SLOTH6, SLOTH7, SLOTH8):
            total += -value if rec[3] else value
        elif rec[3]:
            total += value
    return total


# --- Setup, the turn, scoring -------------------------------------------------------------------------------


def test_fl01_four_players_deal_keep_seven_three_turns_each(make):
    """FL-01. Set Up: "Deal each player nine cards face down." "select seven to arrange ... They discard the
    two leftover cards." Overview: "the game ends when every player has had three turns." """
    rows = [[plain] + [DOG5, DOG6, FROG4, FROG5, SNAKE3, MONKEY2] for plain in (CAT4, CAT5, CAT6, GOLDB)]
    rows[1][1:] = [DOG5, DOG6, FROG4, FROG5, SNAKE4, MONKEY3]
    rows[2][1:] = [DOG5, DOG6, FROG4, FROG5, HAWK3, MOLE1]
    rows[3][1:] = [DOG5, DOG6, FROG4, FROG5, HAWK4, MONKEY2]
    game, state = nature(make, rows)
    v = view(state)
    assert len(v["discard"]) == 8 and all(len(s["row"]) == 7 for s in v["seats"])
    assert all(s["hand"] == [] for s in v["seats"])
    for k in range(12):
        assert not state.is_terminal() and state.current_player() == k % 4
        # up, down, up: a plain card turned over, with no effect
        apply(state, P(k % 4, 0))
    assert state.is_terminal()


def _fl02(make):
    row0 = [CAT4, SLOTH7, CAT6, GOLDB, CAT5, GOLDC, GOLDD]
    game, state = nature(make, [row0, [GOLDE, GOLDF, QUOKKA, CAT4, CAT5, CAT6, CAT4]])
    play(state, P(0, 1), P(1, 0), P(0, 4), P(1, 1))  # Sloth 7 and Cat 5 face up
    assert up(state, P(0, 1)) and up(state, P(0, 4))
    return state


def test_fl02a_the_turn_may_flip_a_card_face_down(make):
    """FL-02 (a). Taking a Turn: "On your turn you must flip a single card in your row (face up or face
    down)." End of Game Scoring: "plus any points on any facedown sloths in your row"."""
    state = _fl02(make)
    apply(state, P(0, 1))
    assert not up(state, P(0, 1)) and state.current_player() == 1
    apply(state, P(1, 2))
    assert state.is_terminal()
    assert row_score(state, 0) == 7 + 5 and state.scores()[0] == 12.0


def test_fl02b_own_face_up_cat_may_be_turned_face_down(make):
    """FL-02 (b). Cat: "cannot be flipped face down via the effects on other cards" — the turn's own flip is
    not such an effect (the contract's interpretation 9 reads the same)."""
    state = _fl02(make)
    apply(state, P(0, 4))
    assert not up(state, P(0, 4)) and state.current_player() == 1


def test_fl02c_exactly_one_card_of_ones_own_row(make):
    """FL-02 (c). Overview: "On your turn you must flip any one of your cards and apply its effects"."""
    state = _fl02(make)
    assert state.legal_actions() == [P(0, c) for c in range(7)]  # no pass, nothing of seat 1's row


def test_fl03_end_scoring_with_sloths_both_ways(make):
    """FL-03. End of Game Scoring: "Your score is the sum of the points of all faceup cards in your row
    (excluding sloths) plus any points on any facedown sloths in your row. Subtract points on any faceup
    sloths." """
    row0 = [DOG5, SLOTH7, SLOTH6, CAT4, FROG4, MOLE1, QUOKKA]
    row1 = [HAWK3, CAT5, CAT6, GOLDB, GOLDC, GOLDD, GOLDE]
    game, state = nature(make, [row0, row1])
    apply(state, P(0, 0), P(0, 1))  # the Dog turns the Sloth 7 face up
    apply(state, P(1, 0), P(0, 4), P(0, 6))  # seat 1's Hawk flips the Frog, whose effect flips the Quokka
    apply(state, P(0, 3), P(1, 1), P(0, 3), P(1, 1))  # the Cat up and down again; seat 1's Cat 5 up, down
    assert state.is_terminal()
    faceup = [c for c in range(7) if up(state, P(0, c))]
    assert faceup == [0, 1, 4, 6]
    assert state.scores()[0] == 5 + 4 + 8 + 6 - 7 == 16


# --- Effects ------------------------------------------------------------------------------------------------


def test_fl04_dog_flips_an_opponents_snake_and_the_active_seat_uses_it(make):
    """FL-04. Dog: "If you use the dog to flip an opponent's card, you (not the opponent) apply the effect
    described on that card, if any." Snake: "allows you to flip any other card in its row." """
    row0 = [CAT4, CAT5, CAT6, GOLDB, GOLDC, GOLDD, DOG5]
    row1 = [SNAKE3, GOLDE, GOLDF, SLOTH8, CAT4, CAT5, CAT6]
    game, state = nature(make, [row0, row1])
    apply(state, P(0, 6), P(1, 0))
    assert state.current_player() == 0
    assert state.legal_actions() == [P(1, c) for c in range(1, 7)]
    apply(state, P(1, 3))
    assert up(state, P(0, 6)) and up(state, P(1, 0)) and up(state, P(1, 3))
    assert card(state, P(1, 3)) == SLOTH8 and state.current_player() == 1


def test_fl05_monkey_flips_both_neighbours_one_effect_resolves(make):
    """FL-05. Taking a Turn: "The Monkey flips two cards faceup; if they both have active effects, you must
    choose and apply one effect only." Frog: "allows you to flip one card two spaces away." """
    row0 = [CAT4, CAT5, DOG6, MONKEY2, FROG4, CAT6, QUOKKA]
    game, state = nature(make, [row0, [GOLDB, GOLDC, GOLDD, GOLDE, GOLDF, CAT4, CAT5]])
    apply(state, P(0, 3))
    assert up(state, P(0, 2)) and up(state, P(0, 4))
    assert state.legal_actions() == [P(0, 2), P(0, 4)]
    apply(state, P(0, 4))
    assert state.legal_actions() == [P(0, 2), P(0, 6)]
    apply(state, P(0, 6))
    assert state.current_player() == 1  # the Dog's effect is never applied
    assert [c for c in range(7) if up(state, P(0, c))] == [2, 3, 4, 6]


def test_fl06_wind_flips_its_row_without_effects_and_a_cat_stays_up(make):
    """FL-06. Wind: "allows you to flip all the other cards in its row. None of the cards' effects can be
    used." Cat: "It can be targeted by a flip effect but remains face up." """
    row0 = [WIND, CAT5, DOG5, SLOTH6, SNAKE4, QUOKKA, FROG5]
    row1 = [HAWK3, CAT4, CAT6, GOLDB, GOLDC, GOLDD, GOLDE]
    game, state = nature(make, [row0, row1])
    apply(state, P(0, 1))  # the Cat face up
    apply(state, P(1, 0), P(0, 5))  # seat 1's Hawk turns the Quokka face up
    apply(state, P(0, 2), P(0, 1))  # the Dog face up; its effect targets the Cat, which stays up
    apply(state, P(1, 1))
    row1_before = view(state)["seats"][1]["row"]
    assert [c for c in range(7) if up(state, P(0, c))] == [1, 2, 5]
    apply(state, P(0, 0))
    assert [c for c in range(7) if up(state, P(0, c))] == [0, 1, 3, 4, 6]
    assert state.current_player() == 1  # no Snake or Frog effect
    assert view(state)["seats"][1]["row"] == row1_before


def test_fl07_rain_flips_one_card_in_every_row_no_effects(make):
    """FL-07. Rain: "allows you to flip one card in every row, your own and all of your opponents'. None of
    the cards' effects can be used." """
    rows = [
        [RAIN, SLOTH7, CAT4, CAT5, CAT6, GOLDB, GOLDC],
        [CAT4, CAT5, CAT6, GOLDD, DOG6, GOLDE, GOLDF],
        [HAWK4, CAT4, CAT5, CAT6, QUOKKA, DOG5, DOG5],
    ]
    game, state = nature(make, rows)
    apply(state, P(0, 1), P(1, 0), P(2, 1))
    apply(state, P(0, 0))
    assert state.legal_actions() == [P(0, c) for c in range(7)]
    apply(state, P(0, 1))
    assert state.legal_actions() == [P(1, c) for c in range(7)]
    apply(state, P(1, 4))
    assert state.legal_actions() == [P(2, c) for c in range(7)]
    apply(state, P(2, 0))
    assert not up(state, P(0, 1)) and up(state, P(1, 4)) and up(state, P(2, 0))
    assert state.current_player() == 1 and view(state)["step"] == "flip"


def _fl08(make):
    row0 = [CAT4, CAT5, CAT6, SUN, GOLDB, GOLDC, GOLDD]
    row1 = [GOLDE, FROG4, SLOTH8, GOLDF, CAT4, MONKEY2, CAT5]
    game, state = nature(make, [row0, row1])
    apply(state, P(0, 3), P(1, 1), P(1, 2))
    assert view(state)["step"] == "peek"
    apply(state, P(1, 5))
    assert sorted(state.legal_actions()) == sorted([P(1, 1), P(1, 2), P(1, 5), PASS])
    assert all(record(state, P(1, c))[2] & 1 for c in (1, 2, 5))  # seat 0 now knows the three
    assert not record(state, P(1, 3))[2] & 1
    return state


def test_fl08a_sun_peeks_at_three_and_flips_one_without_effect(make):
    """FL-08 (a). Sun: "allows you to peek at any three facedown cards. Then you can choose to flip one but
    you cannot use its effect, if any." """
    state = _fl08(make)
    apply(state, P(1, 2))
    assert up(state, P(1, 2)) and card(state, P(1, 2)) == SLOTH8 and state.current_player() == 1


def test_fl08b_the_suns_flip_is_optional(make):
    """FL-08 (b). Sun: "Then you can choose to flip one"."""
    state = _fl08(make)
    apply(state, PASS)
    assert state.current_player() == 1
    assert [c for c in range(7) if up(state, P(0, c))] == [3] and not any(
        up(state, P(1, c)) for c in range(7)
    )


def test_fl09_hawk_on_an_opponents_row_and_its_cards_action(make):
    """FL-09. Hawk: "allows you to flip a card in an opponent's row and take its action, if applicable. ...
    The hawk can never be used on a card in the row it has come from." """
    row0 = [CAT4, CAT5, CAT6, HAWK3, QUOKKA, GOLDB, GOLDC]
    row1 = [GOLDD, GOLDE, GOLDF, CAT4, CAT5, DOG5, SLOTH6]
    game, state = nature(make, [row0, row1])
    apply(state, P(0, 3))
    assert state.legal_actions() == [P(1, c) for c in range(7)]  # (b): never P1-5, its own row
    apply(state, P(1, 5))
    assert state.legal_actions() == [P(1, 4), P(1, 6)]  # adjacent to the Dog
    apply(state, P(1, 6))
    assert up(state, P(1, 6)) and card(state, P(1, 6)) == SLOTH6


def _fl10(make):
    row0 = [CAT4, MOLE1, CAT5, CAT6, GOLDB, GOLDC, GOLDD]
    row1 = [GOLDE, GOLDF, SLOTH8, CAT4, QUOKKA, CAT5, CAT6]
    game, state = nature(make, [row0, row1])
    apply(state, P(0, 0), P(1, 4))  # seat 0's Cat, seat 1's Quokka face up
    apply(state, P(0, 1))
    assert PASS not in state.legal_actions()
    return state


def test_fl10a_mole_swaps_with_a_face_up_card(make):
    """FL-10 (a). Mole: "you can exchange it for any other card in play, whether faceup or facedown. Decide
    which card you want, then put the mole in its place and put the card where the mole was." Blind: "Quokka
    9"; the Quokka is worth 8 (rulebook, Dog: "will score 8 points")."""
    state = _fl10(make)
    apply(state, P(1, 4))
    assert card(state, P(0, 1)) == QUOKKA and up(state, P(0, 1))
    assert card(state, P(1, 4)) == MOLE1 and up(state, P(1, 4))
    assert state.current_player() == 1  # nothing triggers


def test_fl10b_mole_swapped_for_a_face_down_card(make):
    """FL-10 (b). Mole: "If the mole was swapped for a facedown card, the card remains facedown." Blind: the
    exchange is optional ("you can"); the contract's interpretation 6 reads "If you have flipped a card face
    up and it has an effect, you must apply it" as governing the gentler wordings, so no pass is offered
    (``_fl10`` checks it)."""
    state = _fl10(make)
    apply(state, P(1, 2))
    assert card(state, P(0, 1)) == SLOTH8 and not up(state, P(0, 1))
    assert card(state, P(1, 2)) == MOLE1 and up(state, P(1, 2))
    apply(state, P(1, 5), P(0, 0), P(1, 5))
    assert state.is_terminal()
    assert state.scores()[0] == 8 + 0 == row_score(state, 0)  # the face-down Sloth scores for seat 0
    assert state.scores()[1] == 1 + 8 == row_score(state, 1)


def test_fl11_hunter_removes_a_card_and_leaves_a_clearing(make):
    """FL-11. Hunter: "allows you to remove any card in play (including facedown cards) and put it in the
    discard pile. Put a Clearing card in the empty space." Blind (low confidence): the Clearing face down;
    the contract's interpretation 3 places it face up (worth 0 either way)."""
    row0 = [CAT4, CAT5, CAT6, GOLDB, GOLDC, HUNTER, GOLDD]
    row1 = [GOLDE, GOLDF, SLOTH8, CAT4, CAT5, CAT6, QUOKKA]
    game, state = nature(make, [row0, row1])
    discards = len(view(state)["discard"])
    apply(state, P(0, 5), P(1, 2))
    v = view(state)
    assert card(state, P(1, 2)) == CLEARING and len(v["seats"][1]["row"]) == 7
    assert len(v["discard"]) == discards + 1 and v["discard"][-1][0] == SLOTH8
    assert row_score(state, 1) == 0
    assert state.current_player() == 1
    assert state.legal_actions() == [P(1, c) for c in range(7)]  # the row still has seven positions


def test_fl12a_parrot_mimics_a_dog_from_its_own_position(make):
    """FL-12 (a). Parrot: "allows you to mimic the active effect of any player's faceup animal or hunter. For
    example, the parrot can pretend to be a dog and flip a card adjacent to itself." """
    row0 = [CAT4, CAT5, SLOTH7, PARROT, QUOKKA, GOLDB, GOLDC]
    row1 = [WIND, CAT4, CAT5, CAT6, GOLDD, DOG5, GOLDE]
    game, state = nature(make, [row0, row1])
    apply(state, P(0, 0), P(1, 0))  # seat 1's Wind turns its row face up, the Dog included
    assert up(state, P(1, 5)) and up(state, P(1, 0))
    apply(state, P(0, 3))
    assert state.legal_actions() == [MIMIC_DOG]  # not the Wind
    apply(state, MIMIC_DOG)
    assert state.legal_actions() == [P(0, 2), P(0, 4)]
    apply(state, P(0, 4))
    assert up(state, P(0, 4)) and card(state, P(0, 4)) == QUOKKA


def test_fl12b_parrot_with_nothing_to_mimic(make):
    """FL-12 (b). Parrot: "mimic the active effect of any player's faceup animal or hunter" — a face-up Wind
    is neither."""
    row0 = [CAT4, CAT5, SLOTH7, PARROT, QUOKKA, GOLDB, GOLDC]
    row1 = [WIND, CAT4, CAT5, CAT6, GOLDD, GOLDF, GOLDE]
    game, state = nature(make, [row0, row1])
    apply(state, P(0, 0), P(1, 0), P(0, 3))
    assert state.current_player() == 1
    assert [c for c in range(7) if up(state, P(0, c))] == [0, 3]


def test_fl13_effects_are_mandatory(make):
    """FL-13. Taking a Turn: "If you have flipped a card face up and it has an effect, you must apply it."
    Frog: "flip one card two spaces away." """
    row0 = [SLOTH8, CAT4, FROG4, CAT5, SLOTH7, CAT6, GOLDB]
    game, state = nature(make, [row0, [GOLDC, GOLDD, GOLDE, GOLDF, CAT4, CAT5, CAT6]])
    apply(state, P(0, 2))
    assert state.legal_actions() == [P(0, 0), P(0, 4)]
    apply(state, P(0, 0))
    assert up(state, P(0, 0)) and card(state, P(0, 0)) == SLOTH8


def test_fl14_rulebook_cascade_monkey_frog_sloth(make):
    """FL-14. "she flips the Monkey over, at the end of her row. The Monkey flips the cards to its left and
    right: a Snake on its left, and the left-most card of her opponent's row, a Frog, on its right. ... She
    uses the Frog to flip another of her opponent's cards, two spaces away: a Sloth." """
    row0 = [CAT4, CAT5, CAT6, GOLDB, GOLDC, SNAKE3, MONKEY2]
    row1 = [FROG4, GOLDD, SLOTH6, GOLDE, GOLDF, CAT4, CAT5]
    game, state = nature(make, [row0, row1])
    apply(state, P(0, 6))
    assert up(state, P(0, 5)) and up(state, P(1, 0))
    apply(state, P(1, 0))
    assert state.legal_actions() == [P(0, 5), P(1, 2)]
    apply(state, P(1, 2))
    assert up(state, P(1, 2)) and up(state, P(0, 5)) and state.current_player() == 1


# --- End of the game ----------------------------------------------------------------------------------------

FILL = [DOG5, DOG6, FROG4, FROG5]  # face-down cards that are never flipped: they score 0
FILL3 = FILL[:3]


@pytest.mark.parametrize("moon_up", [True, False])
def test_fl15_the_moon_makes_the_lowest_score_win(make, moon_up):
    """FL-15. Moon: "If it finishes the game faceup in a player's row, the winner of the round will be the
    player with the fewest points." Overview: "The winner is the player with the highest score, unless the
    Moon is faceup in any player's row, then the player with the lowest score wins." """
    first = [MOON, GOLDD, CAT4, DOG5] if moon_up else [CAT4, CAT4, CAT5, MOON]
    rows = [first + FILL3, [CAT5, CAT6, CAT4, GOLDB] + FILL3, [QUOKKA, CAT6, PARROT, GOLDC] + FILL3]
    game, state = nature(make, rows, moon=True)
    for k in range(9):
        apply(state, P(k % 3, k // 3))
    assert state.is_terminal()
    if moon_up:
        assert state.scores() == [20.0, 15.0, 18.0] and state.returns() == [0.0, 1.0, 0.0]
    else:
        assert card(state, P(0, 3)) == MOON and not up(state, P(0, 3))
        assert state.scores() == [13.0, 15.0, 18.0] and state.returns() == [0.0, 0.0, 1.0]


def test_fl16a_tiebreak_most_animal_types(make):
    """FL-16 (a). Tiebreaker: "count the total number of different faceup animals in each player's display.
    The player with the most unique types of animals wins." Three Dog 5 are one type."""
    row0 = [DOG5, GOLDB, DOG5, GOLDC, CAT4, CAT5, DOG5]
    row1 = [SNAKE4, GOLDD, GOLDE, GOLDF, CAT4, FROG5, CAT6]
    game, state = nature(make, [row0, row1])
    apply(state, P(0, 6), P(1, 0), P(1, 6))  # Dog flips the Snake, which flips seat 1's Cat 6
    apply(state, P(1, 5), P(0, 0), P(1, 6))  # seat 1's Frog flips the Dog at 0.0, which targets the Cat
    apply(state, P(0, 2), P(0, 3))  # the third Dog flips Gold C...
    apply(state, P(1, 1), P(0, 3), P(1, 1))  # ...which seat 0 turns down again; seat 1 up and down
    assert state.is_terminal()
    assert [c for c in range(7) if up(state, P(0, c))] == [0, 2, 6]
    assert [c for c in range(7) if up(state, P(1, c))] == [0, 5, 6]
    assert state.scores() == [15.0, 15.0]
    assert state.returns() == [0.0, 1.0]


def test_fl16b_environment_cards_are_not_animals(make):
    """FL-16 (b), reduced: the blind position (nine face-up cards with Rain, Sun, Wind, Hawk, Mole and Hunter,
    all with mandatory effects) does not fit in three turns a seat; the point at issue, that an environment
    card is not an animal for the Tiebreaker ("different faceup animals"), is checked with a face-up Sun:
    seat 0 has Sun, Gold B, Cat 4 (15, two animal types), seat 1 Cat 5, Cat 6, Cat 4 (15, three)."""
    row0 = [SUN, GOLDB, CAT4] + FILL
    row1 = [CAT5, CAT6, CAT4] + FILL
    game, state = nature(make, [row0, row1])
    apply(state, P(0, 0), P(1, 3), P(1, 4), P(1, 5), PASS)  # the Sun peeks at three, flips none
    apply(state, P(1, 0), P(0, 1), P(1, 1), P(0, 2), P(1, 2))
    assert state.is_terminal()
    assert state.scores() == [15.0, 15.0]
    assert state.returns() == [0.0, 1.0]


def _nature_round(state, rows: dict[int, list[int]], flips: list[int]) -> None:
    """One round of the Nature variant: ``rows[s]`` is seat s's nine dealt cards (the first seven its row);
    then the turns' ``flips`` (plain cards only)."""
    v = view(state)
    n, start = len(v["seats"]), v["start"]
    order = [(start + k) % n for k in range(n)]
    for s in order:
        play(state, *rows[s])
    for s in order:
        play(state, *(PLACE + c for c in rows[s][:7]))
    for pos in flips:
        apply(state, pos)


def test_fl17_nature_variant_first_to_fifty(make):
    """FL-17. Nature Variant: "Remove the Moon card. Play a number of three-turn rounds. Keep a cumulative
    score. The first player to reach 50 points is the winner." Two seats here (the blind scenario has three):
    seat 0 banks 22, 22 (44) and then 8 (52)."""
    game = make("flipology", players=2, variant=1)
    state = game.new_initial_state()
    assert MOON not in state.legal_actions()  # no Moon in the deck
    hand0 = [GOLDD, GOLDE, CAT4, DOG5, DOG5, DOG6, DOG6, FROG4, FROG4]
    hand1 = [CAT5, DOG5, DOG5, DOG6, DOG6, FROG5, FROG5, FROG4, FROG4]
    # Round 1 (seat 0 starts): seat 0 turns up 9 + 9 + 4, seat 1 its Cat 5 up, down, up.
    _nature_round(state, {0: hand0, 1: hand1}, [P(0, 0), P(1, 0), P(0, 1), P(1, 0), P(0, 2), P(1, 0)])
    v = view(state)
    assert [s["total"] for s in v["seats"]] == [22, 5] and not state.is_terminal() and v["round"] == 1
    # Round 2 (seat 1 starts, interpretation 27).
    _nature_round(state, {0: hand0, 1: hand1}, [P(1, 0), P(0, 0), P(1, 0), P(0, 1), P(1, 0), P(0, 2)])
    v = view(state)
    assert [s["total"] for s in v["seats"]] == [44, 10] and not state.is_terminal()  # round 3 is dealt
    hand0 = [GOLDB, CAT4, DOG5, DOG5, DOG6, DOG6, FROG4, FROG4, FROG5]
    _nature_round(state, {0: hand0, 1: hand1}, [P(0, 0), P(1, 0), P(0, 1), P(1, 0), P(0, 1), P(1, 0)])
    assert state.is_terminal()
    assert [s["total"] for s in view(state)["seats"]] == [52, 15]
    assert state.returns() == [1.0, 0.0]


# --- The Great Tree -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rows", "new_start"),
    [
        ({0: [GOLDB, CAT6], 1: [GOLDC, CAT6], 2: [CAT5, CAT6]}, 0),  # (a) 14, 14, 11: A keeps the tile
        ({0: [GOLDB, CAT4], 1: [GOLDC, QUOKKA], 2: [CAT5, CAT6]}, 1),  # (b) 12, 16, 11: B
        ({0: [CAT4, CAT6], 1: [GOLDB, CAT6], 2: [GOLDC, CAT6]}, 1),  # (c) 10, 14, 14: the first clockwise
    ],
)
def test_fl18_great_tree_starting_player(make, rows, new_start):
    """FL-18. Great Tree: "The player with the highest score showing begins the new round and takes the
    lioness tile and two counters. If the previous starting player is in a tie for the highest score, the
    starting player doesn't change." (c) is unspecified; the blind guess (B, the first tied player clockwise
    from A) is the contract's interpretation 29."""
    game = make("flipology", players=3, variant=2)
    state = game.new_initial_state()
    fill = [DOG5, DOG6, FROG4]
    great_tree_round(state, {s: rows[s] + fill for s in range(3)})
    for k in range(6):
        apply(state, G(k % 3, 0, k // 3))
    v = view(state)
    assert (v["round"], v["phase"], v["start"]) == (1, "deal", new_start)


def _fl19(make):
    game = make("flipology", players=2, variant=2)
    state = game.new_initial_state()
    great_tree_round(state, {0: [CAT4, SLOTH6, QUOKKA, SNAKE3, CAT5], 1: [CAT6, GOLDB, GOLDC, GOLDD, GOLDE]})
    apply(state, G(0, 0, 0), G(1, 0, 0), G(0, 0, 4), G(1, 0, 0))  # seat 0 shows 9, seat 1 nothing
    assert view(state)["start"] == 0
    great_tree_round(state, {0: [CAT6, GOLDF, DOG5, CAT4, HAWK3], 1: [CAT5, CAT6, DOG6, DOG6, DOG6]})
    assert state.current_player() == 0
    return state


def test_fl19a_only_the_top_row_is_flipped_directly(make):
    """FL-19 (a). Great Tree: "flipping only cards in their current (top-most) row. Effects can cascade
    through previously played rows, however." """
    state = _fl19(make)
    assert state.legal_actions() == [G(0, 1, c) for c in range(5)]


def test_fl19bc_vertical_adjacency_not_diagonal(make):
    """FL-19 (b, c). Great Tree: "Adjacency now counts vertically as well as horizontally (but not
    diagonally)"."""
    state = _fl19(make)
    apply(state, G(0, 1, 2))
    legal = state.legal_actions()
    assert G(0, 0, 2) in legal and G(0, 0, 1) not in legal
    apply(state, G(0, 0, 2))
    assert up(state, G(0, 0, 2)) and card(state, G(0, 0, 2)) == QUOKKA


def test_fl19d_hawk_on_ones_own_lower_row(make):
    """FL-19 (d). Hawk: "you can play the hawk on yourself, provided it is used on a card in a different one
    of your rows." """
    state = _fl19(make)
    apply(state, G(0, 1, 4))
    legal = state.legal_actions()
    assert G(0, 0, 3) in legal and not any(G(0, 1, c) in legal for c in range(5))
    apply(state, G(0, 0, 3))
    assert card(state, G(0, 0, 3)) == SNAKE3 and up(state, G(0, 0, 3))
    assert state.legal_actions() == [G(0, 0, c) for c in (0, 1, 2, 4)]  # the Snake's own row


def test_fl20_great_tree_regrowth_once_per_game_no_rain(make):
    """FL-20. Great Tree: "Set aside the Clearing cards and the Rain card." "Regrowth: ... players may choose
    to discard their entire hand and draw five new cards ... Players can only use this option once per
    game." "Each player is dealt five cards"."""
    game = make("flipology", players=2, variant=2)
    state = game.new_initial_state()
    assert RAIN not in state.legal_actions()
    flips = [G(0, 0, 0), G(1, 0, 0), G(0, 0, 1), G(1, 0, 0)]
    # Round 1: seat 0 regrows.
    great_tree_round(
        state,
        {0: [CAT4, CAT5, GOLDB, DOG6, DOG6], 1: [CAT6, GOLDC, DOG6, DOG6, DOG6]},
        regrow={0: [DOG5] * 5},
    )
    for pos in flips:
        apply(state, pos)
    # Round 2: only seat 1 may still regrow; it does.
    play(state, CAT4, CAT5, GOLDD, FROG4, FROG4, FROG5, FROG5, FROG5, FROG5, HAWK3)
    v = view(state)
    assert (v["phase"], state.current_player()) == ("regrow", 1)
    assert state.legal_actions() == [KEEP, REGROW]
    apply(state, REGROW)
    assert view(state)["seats"][1]["returned"] != []
    play(state, CAT6, GOLDE, FROG4, FROG4, SNAKE3)
    assert all(len(s["hand"]) == 5 for s in view(state)["seats"])
    play(state, *(PLACE + c for c in [CAT4, CAT5, GOLDD, FROG4, FROG4]))
    play(state, *(PLACE + c for c in [CAT6, GOLDE, FROG4, FROG4, SNAKE3]))
    for pos in flips:
        apply(state, pos + 5)
    # Round 3: nobody is asked.
    play(state, CAT4, CAT5, GOLDF, MONKEY2, MONKEY2, CAT6, QUOKKA, MONKEY3, MONKEY3, MONKEY3)
    assert view(state)["phase"] == "arrange"
    play(state, *(PLACE + c for c in [CAT4, CAT5, GOLDF, MONKEY2, MONKEY2]))
    play(state, *(PLACE + c for c in [CAT6, QUOKKA, MONKEY3, MONKEY3, MONKEY3]))
    for pos in flips:
        apply(state, pos + 10)
    assert state.is_terminal()
    assert state.scores() == [27.0, 0.0]  # three rows scored
