"""Flipology: every rulebook example and rule statement (docs/rules/flipology.md §12) as a scenario.

Each test reaches its position by actions from the initial state (the deal is a sequence of chance outcomes
the test chooses, then each seat's placements), applies the actions of the example and checks the outcome the
rulebook states. The docstring quotes the rulebook. Everything goes through the public state API, so the same
tests run on the Rust core once it registers ``flipology`` (until then its parametrisation is skipped).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import meeplex
import meeplex.oracle
from meeplex.errors import IllegalActionError

RUST_HAS_FLIPOLOGY = "flipology" in meeplex.games()
MAKERS = {"rust": meeplex.make, "oracle": meeplex.oracle.make}


@pytest.fixture(params=["rust", "oracle"])
def make(request):
    """The ``make`` of each engine; the Rust one is skipped while the Rust core lacks flipology."""
    if request.param == "rust" and not RUST_HAS_FLIPOLOGY:
        pytest.skip("the Rust core does not register flipology yet")
    return MAKERS[request.param]


# --- §2 card ids, §7 action ids ----------------------------------------------------------------------------

DOG5, DOG6, CAT4, CAT5, CAT6, SLOTH6, SLOTH7, SLOTH8, FROG4, FROG5 = range(10)
SNAKE3, SNAKE4, MONKEY2, MONKEY3, HAWK3, HAWK4, MOLE1, MOLE2, PARROT, HUNTER = range(10, 20)
QUOKKA, GOLDB, GOLDC, GOLDD, GOLDE, GOLDF, RAIN, SUN, WIND, MOON, CLEARING = range(20, 31)
COPIES = [5, 5, 3, 3, 3, 3, 3, 3, 4, 4, 3, 3, 3, 3, 3, 3, 3, 3, 4, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
VALUES = [5, 6, 4, 5, 6, 6, 7, 8, 4, 5, 3, 4, 2, 3, 3, 4, 1, 2, 4, 2, 8, 8, 8, 9, 9, 9, 3, 3, 3, 7, 0]

# Seven cards without effects, each; PLAIN and PLAIN_B can be dealt together.
PLAIN = [CAT4, CAT5, CAT6, GOLDB, GOLDC, GOLDD, GOLDE]
PLAIN_B = [SLOTH6, SLOTH7, SLOTH8, SLOTH6, SLOTH7, SLOTH8, GOLDF]

PLACE, MIMIC, KEEP, REGROW, PASS = 60, 90, 97, 98, 99
MIMIC_DOG, MIMIC_SNAKE, MIMIC_FROG, MIMIC_MONKEY, MIMIC_HAWK, MIMIC_MOLE, MIMIC_HUNTER = range(90, 97)


def P(seat: int, column: int) -> int:
    """A Nature position id (§3.2)."""
    return 7 * seat + column


def G(seat: int, tier: int, column: int) -> int:
    """A Great Tree position id (§3.2)."""
    return 15 * seat + 5 * tier + column


def view(state) -> dict:
    """The state's fields, decoded from its serialization (§10)."""
    return json.loads(state.serialize())


def record(state, pos: int):
    """The row entry ``[card, draw, known, up]`` at a position (or None)."""
    v = view(state)
    slots = len(v["seats"][0]["row"])
    return v["seats"][pos // slots]["row"][pos % slots]


def up(state, pos: int) -> bool:
    return bool(record(state, pos)[3])


def card(state, pos: int) -> int:
    return record(state, pos)[0]


def play(state, *actions: int) -> None:
    for action in actions:
        state.apply_action(action)


def _deck(params: dict) -> list[int]:
    deck = list(COPIES)
    if not params.get("moon", False):
        deck[MOON] = 0
    if params.get("variant", 0) == 2:
        deck[RAIN] = 0
    return deck


def _spares(deck: list[int], used: list[int], count: int) -> list[int]:
    """``count`` cards still in the deck after ``used``, lowest ids first (discards: identity is moot)."""
    left = list(deck)
    for c in used:
        left[c] -= 1
        assert left[c] >= 0, f"the scenario uses too many copies of card {c}"
    out = []
    for c in range(30):
        while left[c] > 0 and len(out) < count:
            left[c] -= 1
            out.append(c)
    return out


def nature(make, rows: list[list[int]], discards: list[list[int]] | None = None, **params):
    """A Nature game (variant 0 unless given) after the deal and the arrangement: seat s's row is
    ``rows[s]`` (columns 0..6) and it discarded ``discards[s]`` (default: spare cards). Seat 0 is to take its
    first turn."""
    params = {"players": len(rows), **params}
    game = make("flipology", **params)
    state = game.new_initial_state()
    deck = _deck(params)
    used = [c for row in rows for c in row] + [c for d in (discards or []) for c in d]
    extra = _spares(deck, used, 2 * len(rows)) if discards is None else []
    hands = []
    for s, row in enumerate(rows):
        assert len(row) == 7
        hands.append(list(row) + (list(discards[s]) if discards else extra[2 * s : 2 * s + 2]))
    for hand in hands:  # §4.2 deal: seat 0's nine cards, then seat 1's, ...
        play(state, *hand)
    for row in rows:  # §4.2 arrange: seat 0 places its row, then seat 1, ...
        play(state, *(PLACE + c for c in row))
    assert state.current_player() == 0 and view(state)["step"] == "flip"
    return game, state


def great_tree_round(state, rows: dict[int, list[int]], regrow: dict[int, list[int]] | None = None) -> None:
    """Deal and arrange one Great Tree round: ``rows[s]`` is the row seat s builds; a seat in ``regrow`` first
    gets ``regrow[s]``, gives it back and then receives ``rows[s]``."""
    v = view(state)
    n, start = len(v["seats"]), v["start"]
    order = [(start + k) % n for k in range(n)]
    regrow = regrow or {}
    for s in order:
        play(state, *(regrow.get(s) or rows[s]))
    while view(state)["phase"] == "regrow":
        s = state.current_player()
        play(state, REGROW if s in regrow else KEEP)
    for s in order:
        if s in regrow:
            play(state, *rows[s])
    for s in order:
        play(state, *(PLACE + c for c in rows[s]))
    assert view(state)["phase"] == "play"


# --- The rulebook's worked examples -------------------------------------------------------------------------


def test_monkey_snake_frog_sloth_cascade(make):
    """ "The three right-most cards of the active player's row are two facedown cards and a Monkey; she flips
    the Monkey over, at the end of her row. The Monkey flips the cards to its left and right: a Snake on its
    left, and the left-most card of her opponent's row, a Frog, on its right. She must choose whether to use
    the Snake's or the Frog's effect. She uses the Frog to flip another of her opponent's cards, two spaces
    away: a Sloth. Unluckily for her opponent, it is now faceup." """
    game, state = nature(
        make,
        [
            [CAT4, CAT5, CAT6, QUOKKA, GOLDB, SNAKE3, MONKEY2],
            [FROG4, CAT4, SLOTH7, CAT5, CAT6, GOLDC, GOLDD],
        ],
    )
    assert state.action_to_string(P(0, 6)) == "flip 0.6"
    play(state, P(0, 6))
    # Both neighbours are face up, both have effects: seat 0 chooses.
    assert up(state, P(0, 5)) and up(state, P(1, 0))
    assert state.current_player() == 0
    assert state.legal_actions() == [P(0, 5), P(1, 0)]
    assert state.action_to_string(P(1, 0)) == "use 1.0"
    play(state, state.string_to_action("use 1.0"))
    # The Frog (seat 1's card) is used by seat 0: two spaces away are the Snake (0.5) and the Sloth (1.2).
    assert state.current_player() == 0
    assert state.legal_actions() == [P(0, 5), P(1, 2)]
    play(state, P(1, 2))
    assert up(state, P(1, 2)) and card(state, P(1, 2)) == SLOTH7
    assert up(state, P(0, 5))  # the Snake stays face up, its effect unused
    assert state.current_player() == 1  # the turn is over
    # Seat 1's row now: Frog 4 face up, the Sloth face up (it will subtract).
    assert state.scores()[1] == 4 - 7


def test_dog_flips_the_quokka(make):
    """Dog: "The player chooses to flip the card to the Dog's left, a Quokka. It has no effect to apply but
    will score 8 points if it remains faceup." """
    game, state = nature(make, [[CAT4, CAT5, CAT6, GOLDB, QUOKKA, DOG5, GOLDC], PLAIN_B])
    play(state, P(0, 5))
    assert state.legal_actions() == [P(0, 4), P(0, 6)]
    play(state, P(0, 4))
    assert up(state, P(0, 4)) and card(state, P(0, 4)) == QUOKKA
    assert state.current_player() == 1
    assert state.scores()[0] == 5 + 8


def test_great_tree_dog_parrot_snake_hawk_quokka(make):
    """Great Tree: "Alice takes her first turn and flips the right-most Dog, which she uses to flip the
    Parrot. The Parrot mimics her Dog and flips the card to its left, a Snake. She uses the Snake to flip the
    Hawk, which can flip a card in her first row, so she uses it to flip the Quokka." """
    game = make("flipology", players=2, variant=2)
    state = game.new_initial_state()
    # Round 0 (tier 0): Alice = seat 0, Bob = seat 1.
    great_tree_round(state, {0: [CAT6, QUOKKA, CAT5, GOLDB, GOLDC], 1: [CAT4, GOLDD, GOLDE, GOLDF, CAT4]})
    play(state, G(0, 0, 0))  # Alice: Cat 6 face up
    play(state, G(1, 0, 0))  # Bob: Cat 4 face up
    play(state, G(0, 0, 2))  # Alice: Cat 5 face up
    play(state, G(1, 0, 0))  # Bob turns his Cat face down again (interpretation 9)
    # "The player with the highest score showing begins the new round": Alice (11 against 0).
    v = view(state)
    assert (v["round"], v["start"], v["phase"]) == (1, 0, "deal")
    # Round 1 (tier 1): Alice's row, left to right: a Cat, the Hawk, the Snake, the Parrot, the Dog.
    great_tree_round(state, {0: [CAT4, HAWK3, SNAKE3, PARROT, DOG6], 1: [CAT5, CAT6, MOLE1, MOLE2, SLOTH6]})
    assert state.current_player() == 0
    assert state.action_to_string(G(0, 1, 4)) == "flip 0.1.4"
    play(state, G(0, 1, 4))  # the right-most Dog
    # The Dog's adjacent cards: the Parrot to its left, the card below it, Bob's first card of tier 1.
    assert state.legal_actions() == [G(0, 0, 4), G(0, 1, 3), G(1, 1, 0)]
    play(state, G(0, 1, 3))  # the Parrot
    assert state.legal_actions() == [MIMIC_DOG]  # the only face-up animal with an active effect
    assert state.action_to_string(MIMIC_DOG) == "mimic Dog"
    play(state, MIMIC_DOG)
    # The Parrot acts as a Dog from its own position: its left, its right (the Dog), the card below.
    assert state.legal_actions() == [G(0, 0, 3), G(0, 1, 2), G(0, 1, 4)]
    play(state, G(0, 1, 2))  # the Snake
    assert state.legal_actions() == [G(0, 1, 0), G(0, 1, 1), G(0, 1, 3), G(0, 1, 4)]  # its own row only
    play(state, G(0, 1, 1))  # the Hawk
    targets = state.legal_actions()
    assert G(0, 0, 1) in targets  # her first row
    assert not any(G(0, 1, c) in targets for c in range(5))  # never the Hawk's own row
    play(state, G(0, 0, 1))  # the Quokka
    for pos in (G(0, 1, 4), G(0, 1, 3), G(0, 1, 2), G(0, 1, 1), G(0, 0, 1)):
        assert up(state, pos)
    assert card(state, G(0, 0, 1)) == QUOKKA
    assert state.current_player() == 1  # the cascade ended with the Quokka


def test_tiebreak_example(make):
    """Tiebreaker: "Tim has four faceup cards in his row. They total 15 points so he is tied with Rachel. He
    has two unique animals, the parrot and the hawk. Rachel, however, has three unique animals, the dog plus
    two different types of frog, so she is the winner." Reached here by a legal six-turn game (§12)."""
    tim = [PARROT, PARROT, CAT4, HAWK3, PARROT, CAT5, GOLDB]  # 0.0 Pb, 0.1 Pc, 0.3 Hawk, 0.4 Pa, 0.6 GoldB
    rachel = [CAT6, FROG4, CAT4, FROG5, GOLDC, GOLDD, DOG6]  # 1.1 Frog 4, 1.3 Frog 5, 1.6 Dog 6
    game, state = nature(make, [tim, rachel], discards=[[SLOTH6, SLOTH7], [MOLE1, MOLE2]])
    # Turn 1, Tim: his Hawk flips Rachel's Gold D.
    play(state, P(0, 3))
    assert state.legal_actions() == [P(1, c) for c in range(7)]  # "a card in an opponent's row"
    play(state, P(1, 5))
    # Turn 2, Rachel: her Frog 4 flips her Frog 5, which turns Gold D face down again.
    play(state, P(1, 1))
    assert state.legal_actions() == [P(0, 6), P(1, 3)]
    play(state, P(1, 3))
    assert state.legal_actions() == [P(1, 1), P(1, 5)]
    play(state, P(1, 5))
    # Turn 3, Tim: a Parrot mimics the Hawk and flips Rachel's Gold C.
    play(state, P(0, 4))
    assert state.legal_actions() == [MIMIC_FROG, MIMIC_HAWK]
    play(state, MIMIC_HAWK, P(1, 4))
    # Turn 4, Rachel: her Dog flips Tim's Parrot, which mimics a Dog and flips his third Parrot, which mimics
    # a Dog too and turns up Tim's Cat 4.
    play(state, P(1, 6), P(0, 0))
    assert state.legal_actions() == [MIMIC_DOG, MIMIC_FROG, MIMIC_HAWK]
    play(state, MIMIC_DOG, P(0, 1), MIMIC_DOG, P(0, 2))
    # Turns 5 and 6: each turns face down the card the other turned up.
    play(state, P(0, 2), P(1, 4))
    assert state.is_terminal()
    faceup = {s: sorted(card(state, P(s, c)) for c in range(7) if up(state, P(s, c))) for s in (0, 1)}
    assert faceup == {0: [HAWK3, PARROT, PARROT, PARROT], 1: [DOG6, FROG4, FROG5]}
    assert state.scores() == [15.0, 15.0]
    assert state.returns() == [0.0, 1.0]
    assert view(state)["winners"] == [1]


# --- Statements of the rulebook -----------------------------------------------------------------------------


def _identities(obs: np.ndarray, players: int, slots: int, seat_offset: int, slot: int) -> list[int]:
    """The identity one-hot of one position in an observation tensor (§8.1 block 1), as card ids."""
    base = 36 * (seat_offset * slots + slot)
    return np.flatnonzero(obs[base + 2 : base + 33]).tolist()


def test_peek_at_own_facedown_cards(make):
    """ "You may peek at any of your facedown cards at any time." Others see only the backs."""
    game, state = nature(
        make,
        [[DOG5, CAT4, CAT5, CAT6, GOLDB, GOLDC, SLOTH8], [FROG4, SLOTH6, SLOTH7, GOLDD, GOLDE, GOLDF, CAT4]],
    )
    own = state.observation_tensor(0)
    other = state.observation_tensor(1)
    assert _identities(own, 2, 7, 0, 6) == [SLOTH8]  # seat 0 sees its own Sloth
    assert _identities(other, 2, 7, 1, 6) == []  # seat 1 does not (seat 0 is at offset 1 for seat 1)
    assert _identities(other, 2, 7, 0, 0) == [FROG4]


def test_dog_on_opponent_card_active_seat_applies(make):
    """Dog: "If you use the dog to flip an opponent's card, you (not the opponent) apply the effect described
    on that card, if any." """
    game, state = nature(make, [PLAIN[:6] + [DOG5], [SNAKE3] + PLAIN_B[:6]])
    play(state, P(0, 6), P(1, 0))  # the Dog flips seat 1's Snake
    assert view(state)["step"] == "target" and view(state)["effect"] == "Snake"
    assert state.current_player() == 0  # seat 0 decides
    assert state.legal_actions() == [P(1, c) for c in range(1, 7)]  # "any other card in its row"


def test_frog_at_end_of_row_reaches_opponent(make):
    """Frog: "If you position the frog at the end of your row, the card it flips will likely belong to an
    opponent." """
    game, state = nature(make, [PLAIN[:6] + [FROG5], PLAIN_B])
    play(state, P(0, 6))
    assert state.legal_actions() == [P(0, 4), P(1, 1)]


def test_cat_stays_face_up_mole_and_hunter_still_work(make):
    """Cat: "once flipped face up, cannot be flipped face down via the effects on other cards. It can be
    targeted by a flip effect but remains face up. It can still be exchanged for a mole or destroyed by the
    hunter." """
    row0 = [CAT6, DOG5, MOLE1, HUNTER, GOLDB, GOLDC, GOLDD]
    game, state = nature(make, [row0, PLAIN_B])
    play(state, P(0, 0))  # turn 1: the Cat face up
    play(state, P(1, 0))  # seat 1: a plain card
    play(state, P(0, 1), P(0, 0))  # turn 2: the Dog targets the face-up Cat
    assert up(state, P(0, 0)) and card(state, P(0, 0)) == CAT6
    play(state, P(1, 1))
    play(state, P(0, 2))  # turn 3: the Mole swaps with the Cat; both keep their facing
    assert P(0, 0) in state.legal_actions()
    play(state, P(1, 6))  # with seat 1's face-down card instead: it arrives face down in seat 0's row
    assert card(state, P(0, 2)) == GOLDF and not up(state, P(0, 2))
    assert card(state, P(1, 6)) == MOLE1 and up(state, P(1, 6))
    assert record(state, P(0, 2))[2] == 0b11  # seat 0 may now peek at it; seat 1 remembers it


def test_owner_may_turn_own_cat_face_down(make):
    """Interpretation 9: the turn's flip is not an effect: a seat may turn its own face-up Cat face down."""
    game, state = nature(make, [[CAT6] + PLAIN[3:] + [CAT4, CAT5], PLAIN_B])
    play(state, P(0, 0), P(1, 0), P(0, 0))
    assert not up(state, P(0, 0))


def test_mole_keeps_facing_and_receiver_learns(make):
    """Mole: "exchange it for any other card in play, whether faceup or facedown ... If the mole was swapped
    for a facedown card, the card remains facedown." """
    game, state = nature(make, [PLAIN[:6] + [MOLE2], [SLOTH8] + PLAIN_B[:6]])
    play(state, P(0, 6))
    assert state.action_to_string(P(1, 0)) == "swap 1.0"
    assert len(state.legal_actions()) == 13  # every other card in play
    play(state, P(1, 0))
    assert card(state, P(0, 6)) == SLOTH8 and not up(state, P(0, 6))
    assert card(state, P(1, 0)) == MOLE2 and up(state, P(1, 0))
    assert _identities(state.observation_tensor(0), 2, 7, 0, 6) == [SLOTH8]  # seat 0 may peek at it now
    assert state.current_player() == 1


def test_hunter_leaves_a_clearing_and_reveals_nothing(make):
    """Hunter: "remove any card in play (including facedown cards) and put it in the discard pile. Put a
    Clearing card in the empty space." """
    game, state = nature(make, [PLAIN[:6] + [HUNTER], [SLOTH8] + PLAIN_B[:6]])
    play(state, P(0, 6))
    assert state.action_to_string(P(1, 0)) == "remove 1.0"
    assert P(0, 6) in state.legal_actions()  # interpretation 17: itself included
    play(state, P(1, 0))
    assert record(state, P(1, 0)) == [CLEARING, -1, 0b11, 1]
    v = view(state)
    assert v["discard"][-1][0] == SLOTH8 and v["discard"][-1][2] == 0b10  # still known to its owner only
    obs = state.observation_tensor(0)
    assert obs[36 * 14 + 31 + 2 + SLOTH8] == 0  # §8.1 block 4: seat 0 does not know the removed card


def test_parrot_mimics_face_up_animals(make):
    """Parrot: "mimic the active effect of any player's faceup animal or hunter ... If you use it as a mole,
    you exchange it with any other card in play." """
    game, state = nature(make, [[PARROT, MOLE1] + PLAIN[:5], [CAT4, CAT5, CAT6, GOLDD, GOLDE, GOLDF, SLOTH6]])
    play(state, P(0, 0))  # nothing face up to mimic: the Parrot does nothing (interpretation 7)
    assert state.current_player() == 1
    play(state, P(1, 0))
    play(state, P(0, 0))  # the Parrot turned face down again
    play(state, P(1, 1))
    play(state, P(0, 1), P(1, 6))  # the Mole swaps itself with seat 1's Sloth
    assert card(state, P(1, 6)) == MOLE1 and up(state, P(1, 6))
    # A fresh game: the face-up Mole is mimicked by the Parrot, which swaps itself.
    game, state = nature(make, [[MOLE1, PARROT] + PLAIN[:5], PLAIN_B])
    play(state, P(0, 0), P(0, 6))  # the Mole swaps itself with 0.6 (seat 0's own card)
    play(state, P(1, 0))
    play(state, P(0, 1))
    assert state.legal_actions() == [MIMIC_MOLE]
    play(state, MIMIC_MOLE)
    assert view(state)["effect"] == "Mole" and view(state)["source"] == P(0, 1)
    play(state, P(1, 3))
    assert card(state, P(1, 3)) == PARROT and up(state, P(1, 3))


def test_hawk_never_flips_its_own_row(make):
    """Hawk: "allows you to flip a card in an opponent's row ... The hawk can never be used on a card in the
    row it has come from." """
    game, state = nature(make, [PLAIN[:6] + [HAWK4], PLAIN_B])
    play(state, P(0, 6))
    assert state.legal_actions() == [P(1, c) for c in range(7)]


def test_hawk_on_own_other_row_in_great_tree(make):
    """Great Tree: "you can play the hawk on yourself, provided it is used on a card in a different one of
    your rows." """
    game = make("flipology", players=2, variant=2)
    state = game.new_initial_state()
    great_tree_round(state, {0: [CAT4, CAT5, CAT6, GOLDB, GOLDC], 1: [GOLDD, GOLDE, GOLDF, QUOKKA, CAT4]})
    play(state, G(0, 0, 0), G(1, 0, 0), G(0, 0, 0), G(1, 0, 0))  # nothing face up at the end of round 0
    great_tree_round(state, {0: [HAWK3, CAT5, CAT6, SLOTH6, SLOTH7], 1: [SLOTH8, MOLE1, MOLE2, DOG5, DOG6]})
    assert view(state)["start"] == 0  # a tie at 0: the start seat does not change
    play(state, G(0, 1, 0))
    targets = state.legal_actions()
    assert [G(0, 0, c) for c in range(5)] == targets[:5]  # her first row
    assert not set(targets) & {G(0, 1, c) for c in range(5)}
    assert len(targets) == 5 + 10  # and both of the other seat's rows


def test_monkey_with_one_effect_applies_it(make):
    """Monkey: "If you flip up two cards that both have active effects, you must perform one of the effects
    only." With one, it applies at once (interpretation 11)."""
    game, state = nature(make, [[CAT4, CAT5, CAT6, GOLDB, DOG5, MONKEY3, GOLDC], PLAIN_B])
    play(state, P(0, 5))
    assert up(state, P(0, 4)) and up(state, P(0, 6))
    v = view(state)
    assert (v["step"], v["effect"], v["source"]) == ("target", "Dog", P(0, 4))
    assert v["used"] == [P(0, 4), P(0, 5)]


def test_wind_flips_its_row_without_effects(make):
    """Wind: "allows you to flip all the other cards in its row. None of the cards' effects can be used." """
    game, state = nature(make, [[CAT6, DOG5, WIND, HUNTER, GOLDB, MOLE1, SNAKE3], PLAIN_B])
    play(state, P(0, 0), P(1, 0))  # the Cat is face up
    play(state, P(0, 2))  # the Wind
    assert [up(state, P(0, c)) for c in range(7)] == [True] * 7  # the Cat stays up, the others turned up
    assert state.current_player() == 1  # nothing triggered
    assert view(state)["used"] == []


def test_rain_flips_one_card_in_every_row(make):
    """Rain: "allows you to flip one card in every row, your own and all of your opponents'. None of the
    cards' effects can be used." """
    game, state = nature(
        make, [PLAIN[:6] + [RAIN], [DOG5] + PLAIN_B[:6], [HUNTER, CAT4, CAT5, CAT6, CAT4, CAT5, CAT6]]
    )
    play(state, P(0, 6))
    assert view(state)["rain"] == 0 and state.legal_actions() == [P(0, c) for c in range(7)]
    play(state, P(0, 0))
    assert view(state)["rain"] == 1 and state.legal_actions() == [P(1, c) for c in range(7)]
    play(state, P(1, 0))  # a Dog face up: no effect
    assert view(state)["rain"] == 2
    play(state, P(2, 0))  # a Hunter face up: no effect
    assert up(state, P(1, 0)) and up(state, P(2, 0))
    assert state.current_player() == 1


def test_sun_peeks_for_the_active_seat_only(make):
    """Sun: "allows you to peek at any three facedown cards. Then you can choose to flip one but you cannot
    use its effect, if any." """
    game, state = nature(make, [PLAIN[:6] + [SUN], [DOG5, SLOTH8, HUNTER] + PLAIN_B[:4]])
    play(state, P(0, 6))
    for pos in (P(1, 0), P(1, 1), P(1, 2)):
        assert state.action_to_string(pos) == f"peek 1.{pos - 7}"
        play(state, pos)
    assert view(state)["step"] == "sunflip"
    assert state.legal_actions() == [P(1, 0), P(1, 1), P(1, 2), PASS]
    seen = state.observation_tensor(0)
    assert [_identities(seen, 2, 7, 1, c) for c in range(3)] == [[DOG5], [SLOTH8], [HUNTER]]
    # Seat 1 learned nothing new, and seat 0 does not know seat 1's other cards.
    assert _identities(seen, 2, 7, 1, 3) == []
    play(state, P(1, 0))  # the Dog turns face up with no effect
    assert up(state, P(1, 0)) and state.current_player() == 1


def test_scores_before_the_end_show_only_what_the_table_sees(make):
    """Scoring: "Your score is the sum of the points of all faceup cards in your row (excluding sloths) plus
    any points on any facedown sloths in your row" is totalled "when every player has had three turns. Then
    players total the points on their cards." Before that, ``scores()`` counts only what the table can see:
    the face-up cards (sloths negative), never a face-down card's value (§6)."""
    game, state = nature(make, [PLAIN, PLAIN_B])  # seat 1 holds 42 points of face-down sloths
    assert state.scores() == [0.0, 0.0]
    play(state, P(0, 0), P(1, 0), P(0, 1), P(1, 1), P(0, 2))
    assert state.scores() == [4.0 + 5 + 6, -6.0 - 7]
    play(state, P(1, 6))  # the last turn: the rows are totalled
    assert state.is_terminal()
    assert state.scores() == [15.0, -6.0 - 7 + 8 + 6 + 7 + 8 + 9]


def test_sloths_and_scoring(make):
    """Scoring: "the sum of the points of all faceup cards in your row (excluding sloths) plus any points on
    any facedown sloths in your row. Subtract points on any faceup sloths." """
    game, state = nature(
        make,
        [[SLOTH8, SLOTH6, GOLDD, CAT4, CAT5, CAT6, GOLDB], [CAT4, CAT5, CAT6, GOLDE, GOLDF, QUOKKA, GOLDC]],
    )
    play(state, P(0, 0), P(1, 0), P(0, 2), P(1, 1), P(0, 3), P(1, 2))
    assert state.is_terminal()
    # Seat 0: Sloth 8 face up (-8), Sloth 6 face down (+6), Gold D (+9), Cat 4 (+4).
    assert state.scores()[0] == -8 + 6 + 9 + 4
    assert state.scores()[1] == 4 + 5 + 6


def test_moon_lowest_score_wins(make):
    """Moon: "If it finishes the game faceup in a player's row, the winner of the round will be the player
    with the fewest points." """
    game, state = nature(
        make, [[MOON] + PLAIN[:6], [GOLDF, QUOKKA, CAT4, CAT5, CAT6, SLOTH6, SLOTH7]], moon=True
    )
    play(state, P(0, 0), P(1, 0), P(0, 1), P(1, 1), P(0, 2), P(1, 2))
    # Seat 0: Moon 7 + Cat 4 + Cat 5 = 16; seat 1: 9 + 8 + 4 + 6 + 7 = 34 (its sloths face down).
    assert state.scores() == [16.0, 34.0]
    assert state.returns() == [1.0, 0.0]


def test_nature_variant_rounds_until_target(make):
    """Nature Variant: "Play a number of three-turn rounds. Keep a cumulative score. The first player to reach
    50 points is the winner." """
    rows = [[GOLDD, GOLDE, GOLDF, CAT4, CAT5, CAT6, QUOKKA], [SLOTH6, SLOTH7, SLOTH8] + PLAIN[:4]]
    game, state = nature(make, rows, variant=1, target=20)
    play(state, P(0, 0), P(1, 3), P(0, 1), P(1, 4), P(0, 2), P(1, 5))
    # Round 0 scored: seat 0 has 27 face up; seat 1 has 4 + 5 + 6 face up plus 21 in face-down sloths.
    v = view(state)
    assert state.is_terminal()
    assert [s["total"] for s in v["seats"]] == [27, 36]
    assert state.returns() == [0.0, 1.0]


def test_nature_variant_next_round_rotates_start(make):
    """Nature variant: rounds go on while nobody reached ``target``; the start seat moves clockwise
    (interpretation 27), and the rows are revealed at each scoring (interpretation 23)."""
    game, state = nature(make, [PLAIN, [CAT4, CAT5, CAT6, GOLDF, QUOKKA, SLOTH6, SLOTH7]], variant=1)
    play(state, *[P(0, 0), P(1, 0)] * 3)
    v = view(state)
    assert (v["round"], v["start"], v["phase"], v["current"]) == (1, 1, "deal", 1)
    assert [s["total"] for s in v["seats"]] == [4, 4 + 13]
    assert sum(v["pile"]) == 75
    assert state.information_state_string(0).endswith("/13:6")  # the last card revealed at the scoring


def test_great_tree_start_seat_moves_to_highest_showing(make):
    """Great Tree: "The player with the highest score showing begins the new round ... If the previous
    starting player is in a tie for the highest score, the starting player doesn't change." Among others tied,
    the first clockwise from the previous start seat (interpretation 29)."""
    game = make("flipology", players=3, variant=2)
    state = game.new_initial_state()
    great_tree_round(
        state,
        {
            0: [CAT4, CAT5, GOLDB, GOLDC, GOLDD],
            1: [QUOKKA, CAT6, GOLDE, GOLDF, CAT4],
            2: [SLOTH6, SLOTH7, SLOTH8, SLOTH6, SLOTH7],
        },
    )
    # Seat 0 shows Cat 4 + Cat 5 = 9, seat 1 Quokka + Cat 6 = 14, seat 2 turns its Sloth up and down again.
    play(state, G(0, 0, 0), G(1, 0, 0), G(2, 0, 0), G(0, 0, 1), G(1, 0, 1), G(2, 0, 0))
    v = view(state)
    assert (v["round"], v["start"], v["current"]) == (1, 1, 1)
    great_tree_round(
        state,
        {
            0: [DOG5, DOG6, DOG6, FROG4, FROG5],
            1: [SLOTH8, SLOTH6, SLOTH7, MOLE1, MOLE2],
            2: [CAT5, CAT4, CAT6, CAT6, CAT5],
        },
    )
    assert state.current_player() == 1
    play(state, G(1, 1, 0))  # seat 1: Sloth 8 face up (showing 14 - 8)
    play(state, G(2, 1, 0))  # seat 2: Cat 5
    play(state, G(0, 1, 0))  # seat 0: its Dog, which targets the face-up Cat below it: the Cat stays up
    assert state.legal_actions() == [G(0, 0, 0), G(0, 1, 1), G(2, 1, 4)]
    play(state, G(0, 0, 0))
    assert up(state, G(0, 0, 0))
    play(state, G(1, 1, 1))  # seat 1: Sloth 6 face up (showing 0)
    play(state, G(2, 1, 1))  # seat 2: Cat 4 (showing 9)
    play(state, G(0, 1, 0))  # seat 0: the Dog face down again (showing 9)
    v = view(state)
    # Seats 0 and 2 tie at 9 and the previous start seat 1 is not among them: the first clockwise from it, 2.
    assert (v["round"], v["start"], v["current"]) == (2, 2, 2)


def test_regrowth_once_per_game(make):
    """Regrowth: "players may choose to discard their entire hand and draw five new cards, shuffling their
    discards back into the pile. Players can only use this option once per game." """
    game = make("flipology", players=2, variant=2)
    state = game.new_initial_state()
    play(state, *[CAT4, CAT5, CAT6, GOLDB, GOLDC], *[GOLDD, GOLDE, GOLDF, QUOKKA, CAT4])
    assert view(state)["phase"] == "regrow" and state.current_player() == 0
    assert state.legal_actions() == [KEEP, REGROW]
    play(state, REGROW)  # seat 0 regrows
    assert state.current_player() == 1
    play(state, KEEP)
    v = view(state)
    assert v["phase"] == "redeal" and v["seats"][0]["hand"] == [] and v["seats"][0]["regrown"] == 0
    assert [c for c, _ in v["seats"][0]["returned"]] == [CAT4, CAT5, CAT6, GOLDB, GOLDC]
    # The given-back cards are in the pile again: seat 0 may draw its Gold B back.
    assert GOLDB in state.legal_actions()
    play(state, GOLDB, DOG5, DOG5, DOG6, DOG6)
    assert view(state)["phase"] == "arrange"
    play(state, *(PLACE + c for c in [GOLDB, DOG5, DOG5, DOG6, DOG6]))
    play(state, *(PLACE + c for c in [GOLDD, GOLDE, GOLDF, QUOKKA, CAT4]))
    play(state, G(0, 0, 0), G(1, 0, 0), G(0, 0, 0), G(1, 0, 0))
    # Round 1: only seat 1 may still regrow.
    play(state, *[CAT4, CAT5, CAT6, GOLDC, SLOTH6], *[SLOTH7, SLOTH8, MOLE1, MOLE2, HUNTER])
    v = view(state)
    assert v["phase"] == "regrow" and state.current_player() == 1
    play(state, KEEP)
    assert view(state)["phase"] == "arrange"


def test_great_tree_deck_has_no_rain(make):
    """Great Tree: "Set aside the Clearing cards and the Rain card. The Rain card cannot be used in this
    variant." """
    state = make("flipology", players=2, variant=2, moon=True).new_initial_state()
    weights = dict(state.chance_weights())
    assert RAIN not in weights and weights[MOON] == 1 and sum(weights.values()) == 75
    assert sum(dict(make("flipology").new_initial_state().chance_weights()).values()) == 75
    assert sum(dict(make("flipology", moon=True).new_initial_state().chance_weights()).values()) == 76


def test_effect_once_per_turn(make):
    """Interpretation 8: a card applies its effect at most once per turn. The Monkey "flips two cards faceup"
    (interpretation 11), so the Dog that flipped it stays face up and does not apply again; the Snake the
    Monkey turns up applies, and turning the Dog face down ends the cascade."""
    game, state = nature(make, [[CAT4, SNAKE3, DOG5, MONKEY2, CAT5, CAT6, GOLDB], PLAIN_B])
    play(state, P(0, 2), P(0, 3))  # Dog -> Monkey: the Dog stays up, 0.4 (Cat 5) up: nothing triggers
    assert up(state, P(0, 2)) and up(state, P(0, 4)) and state.current_player() == 1
    game, state = nature(make, [[CAT4, DOG5, MONKEY2, SNAKE3, CAT5, CAT6, GOLDB], PLAIN_B])
    play(state, P(0, 1), P(0, 2))  # Dog -> Monkey: the Dog stays up, the Snake up -> the Snake applies
    assert view(state)["effect"] == "Snake" and up(state, P(0, 1))
    assert view(state)["used"] == [P(0, 1), P(0, 2), P(0, 3)]
    play(state, P(0, 1))  # the Snake turns the Dog face down: nothing triggers
    assert not up(state, P(0, 1)) and state.current_player() == 1


def test_monkey_flips_two_cards_faceup(make):
    """ "The Monkey flips two cards faceup; if they both have active effects, you must choose and apply one
    effect only." A neighbour that is already face up stays face up (it is not turned face down) and, not
    having been flipped face up, applies no effect."""
    game, state = nature(make, [[CAT4, CAT5, CAT6, GOLDB, DOG5, MONKEY3, GOLDC], PLAIN_B])
    play(state, P(0, 4), P(0, 3))  # turn 1: the Dog turns Gold B up
    play(state, P(1, 0))
    play(state, P(0, 5))  # turn 2: the Monkey, between the face-up Dog and the face-down Gold C
    assert up(state, P(0, 4)) and up(state, P(0, 6)) and card(state, P(0, 6)) == GOLDC
    assert state.current_player() == 1  # the Dog was not flipped face up: no effect
    assert state.scores()[0] == 5 + 8 + 3 + 8


def test_monkey_mimicked_by_parrot_flips_faceup(make):
    """The Parrot "allows you to mimic the active effect of any player's faceup animal": as a Monkey it
    "flips two cards faceup" from its own place, leaving a face-up neighbour face up."""
    game, state = nature(make, [[CAT4, MONKEY2, GOLDB, CAT5, PARROT, CAT6, GOLDC], PLAIN_B])
    play(state, P(0, 1))  # turn 1: the Monkey turns Cat 4 and Gold B up
    assert up(state, P(0, 0)) and up(state, P(0, 2))
    play(state, P(1, 0))
    play(state, P(0, 3))  # turn 2: Cat 5 up, beside the Parrot
    play(state, P(1, 1))
    play(state, P(0, 4), MIMIC_MONKEY)  # turn 3: the Parrot as a Monkey: Cat 5 stays up, Cat 6 turns up
    assert up(state, P(0, 3)) and up(state, P(0, 5))


def test_hawk_in_nature_flips_only_an_opponents_row(make):
    """Hawk: "A hawk worth 3 or 4 points allows you to flip a card in an opponent's row and take its action,
    if applicable. If playing the Great Tree variant, you can play the hawk on yourself". In Nature a Hawk in
    an opponent's row (turned up by the active seat's Dog) flips a card of another opponent's row, never one
    of the active seat's; with two seats it has no card to flip and does nothing (interpretation 7)."""
    third = [CAT4, CAT5, CAT6, CAT4, CAT5, CAT6, QUOKKA]
    game, state = nature(make, [PLAIN[:6] + [DOG5], [HAWK4] + PLAIN_B[:6], third])
    play(state, P(0, 6), P(1, 0))  # the Dog flips seat 1's Hawk
    assert view(state)["effect"] == "Hawk" and state.current_player() == 0
    assert state.legal_actions() == [P(2, c) for c in range(7)]
    play(state, P(2, 6))
    assert up(state, P(2, 6)) and state.current_player() == 1
    game, state = nature(make, [PLAIN[:6] + [DOG5], [HAWK4] + PLAIN_B[:6]])
    play(state, P(0, 6), P(1, 0))
    assert up(state, P(1, 0))
    v = view(state)
    assert (v["step"], v["current"], v["turn"]) == ("flip", 1, 1)  # the Hawk did nothing
    assert [up(state, P(0, c)) for c in range(6)] == [False] * 6


def test_parrot_as_hawk_in_nature_flips_only_an_opponents_row(make):
    """A Parrot copying a Hawk follows the Hawk's text: "a card in an opponent's row" (Nature), from the
    Parrot's own row ("The hawk can never be used on a card in the row it has come from")."""
    third = [CAT4, CAT5, CAT6, CAT4, CAT5, CAT6, QUOKKA]
    game, state = nature(make, [[HAWK3] + PLAIN[:5] + [DOG5], [PARROT] + PLAIN_B[:6], third])
    play(state, P(0, 0))  # turn 1, seat 0: its own Hawk flips a card of seat 2
    assert state.legal_actions() == [P(1, c) for c in range(7)] + [P(2, c) for c in range(7)]
    play(state, P(2, 0))
    play(state, P(1, 6))  # seat 1: a Sloth up
    play(state, P(2, 0))  # seat 2: its Cat 4 down again
    play(state, P(0, 6), P(1, 0))  # turn 2, seat 0: the Dog flips seat 1's Parrot
    assert state.legal_actions() == [MIMIC_DOG, MIMIC_HAWK]
    play(state, MIMIC_HAWK)
    assert state.legal_actions() == [P(2, c) for c in range(7)]


def test_illegal_actions_refused(make):
    """A flip outside one's own row is refused and leaves the state unchanged."""
    game, state = nature(make, [PLAIN, PLAIN_B])
    before = state.serialize()
    with pytest.raises(IllegalActionError):
        state.apply_action(P(1, 0))
    assert state.serialize() == before
