"""Line-it: the pure-Python reference implementation of ``lineit`` (2 to 5 players).

Written from the game-help page (``shared/rules/bga_lineit.txt``, "the page") and the contract
``docs/rules/lineit.md`` (cited "§n" for its sections and "interp. n" for its interpretations).

Plain and slow on purpose: every rule is one readable step, so that this file can be checked by eye against
the rules and used to catch the Rust core disagreeing with them.

Places where the contract had to be read one way among several are marked ``READING:`` in comments.
"""

from __future__ import annotations

import copy
import json
import operator
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, SupportsIndex, cast

import numpy as np
import numpy.typing as npt

from meeplex._params import game_string
from meeplex._protocols import RngLike
from meeplex.errors import IllegalActionError, InvalidNotationError, InvalidStateError
from meeplex.oracle._json import StrictFields, same_params
from meeplex.oracle._json import is_int as _is_int
from meeplex.oracle._text import fold_white_space
from meeplex.oracle.rng import random_step

GAME_NAME = "lineit"
SERIAL_VERSION = 1

# current_player() at a chance node / once the game is over (DESIGN.md; OpenSpiel's ids).
CHANCE = -1
TERMINAL = -4

# §2 Components.
NUM_NUMBER_CARDS = 100  # kinds 0..99 are the number cards 1..100
BET_KINDS = (100, 101, 102)  # the bet cards +3, +4, +5
BET_COPIES = 2  # two bet cards of each value
NUM_KINDS = 103
DECK_SIZE = 106
HAND_LIMIT = 2
COLOUR_NAMES = ("red", "blue", "green", "yellow")

# §6 Action ids.
LINE = 0  # 0 + k: take market card k into the line
HAND = 103  # 103 + k: take market card k into the hand
PLAY = 206  # 206 + k: play hand card k into the line
CLOSE = 309
PASS = 310
NUM_DISTINCT_ACTIONS = 311

PHASES = ("deal", "turn", "final", "over")

DEFAULT_PARAMS: dict[str, Any] = {"colour_blocks": False, "players": 2}


def is_bet(kind: int) -> bool:
    """Kinds 100, 101, 102 are the bet cards (§2)."""
    return kind >= NUM_NUMBER_CARDS


def bet_value(kind: int) -> int:
    """The value of a bet kind: ``kind - 97`` (§2)."""
    return kind - 97


def number_of(kind: int) -> int:
    """The number printed on a number card kind."""
    return kind + 1


def card_text(kind: int) -> str:
    """``<card>`` of §6: the number in decimal, or ``bet3`` / ``bet4`` / ``bet5``."""
    if is_bet(kind):
        return f"bet{bet_value(kind)}"
    return str(number_of(kind))


def _as_int(value: object) -> int | None:
    """An int-like value (Python int or numpy integer) as an int; ``None`` for anything else, bools included
    (docs/architecture.md, "Input policy")."""
    if isinstance(value, (bool, np.bool_)):
        return None
    try:
        return operator.index(cast(SupportsIndex, value))
    except TypeError:
        return None


def normalize_params(given: Mapping[str, object]) -> dict[str, Any]:
    """§1: ``players`` an int 2..5, ``colour_blocks`` a bool; unknown keys and wrong types refused."""
    for key in given:
        if key not in DEFAULT_PARAMS:
            raise InvalidStateError(f"{GAME_NAME}: unknown parameter {key!r}")
    params: dict[str, Any] = {}
    for key, default in DEFAULT_PARAMS.items():
        value = given.get(key, default)
        if isinstance(default, bool):
            if not isinstance(value, bool):
                raise InvalidStateError(f"{GAME_NAME}: parameter {key!r} must be a bool, got {value!r}")
        elif not _is_int(value):
            raise InvalidStateError(f"{GAME_NAME}: parameter {key!r} must be an int, got {value!r}")
        params[key] = value
    if not 2 <= params["players"] <= 5:
        raise InvalidStateError(f"{GAME_NAME}: players must be in 2..5, got {params['players']}")
    params["players"] = int(params["players"])
    return params


# ---------------------------------------------------------------------------------------------------------
# Lines (§4, §5.3)
# ---------------------------------------------------------------------------------------------------------


def line_numbers(line: list[int]) -> list[int]:
    """The number cards of a line (as kinds), in line order: the bet card does not count."""
    return [kind for kind in line if not is_bet(kind)]


def line_direction(line: list[int]) -> str:
    """``undefined`` while fewer than 2 number cards; else ``ascending`` if the second number card is greater
    than the first, ``descending`` otherwise (page: "When you play a second Number card ...")."""
    numbers = line_numbers(line)
    if len(numbers) < 2:
        return "undefined"
    return "ascending" if numbers[1] > numbers[0] else "descending"


def line_bet(line: list[int]) -> tuple[int, int] | None:
    """The line's bet as (value, before), ``before`` the number cards placed before it; None if no bet."""
    before = 0
    for kind in line:
        if is_bet(kind):
            return bet_value(kind), before
        before += 1
    return None


def fits(line: list[int], kind: int) -> bool:
    """§5.3: may ``kind`` be placed at the end of ``line``?"""
    if is_bet(kind):
        return line_bet(line) is None  # "you can only have one Bet card in your row"
    numbers = line_numbers(line)
    if len(numbers) < 2:
        return True  # the second number card fixes the direction, any way it goes
    if line_direction(line) == "ascending":
        return kind > numbers[-1]
    return kind < numbers[-1]


# ---------------------------------------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------------------------------------


class LineitGame:
    """Line-it with one set of parameters (§1)."""

    name = GAME_NAME

    def __init__(self, params: Mapping[str, object] | None = None, **keywords: object) -> None:
        if params is not None and not isinstance(params, Mapping):
            raise InvalidStateError(f"{GAME_NAME}: parameters must be a mapping, not {type(params).__name__}")
        given = dict(params or {})
        for key, value in keywords.items():
            if key in given:
                raise InvalidStateError(f"{GAME_NAME}: parameter {key!r} given twice")
            given[key] = value
        self._params = normalize_params(given)
        self.players: int = self._params["players"]
        self.colour_blocks: bool = self._params["colour_blocks"]
        self.market_size: int = self.players + 2  # M
        self.rounds: int = DECK_SIZE // self.market_size  # R

    @property
    def params(self) -> dict[str, Any]:
        """The full, normalised parameter dict (a copy)."""
        return dict(self._params)

    def colour(self, kind: int) -> int:
        """§2: the colour index of a number card kind: ``(x - 1) mod 4``, or ``(x - 1) div 25`` by blocks."""
        return kind // 25 if self.colour_blocks else kind % 4

    def num_players(self) -> int:
        return self.players

    def num_distinct_actions(self) -> int:
        return NUM_DISTINCT_ACTIONS

    def max_chance_outcomes(self) -> int:
        return NUM_KINDS

    def max_game_length(self) -> int:
        """§6: ``R x M + 4 x R x n + 2 x n``."""
        n, m, r = self.players, self.market_size, self.rounds
        return r * m + 4 * r * n + 2 * n

    def observation_shape(self) -> tuple[int, ...]:
        """§7.1: ``(424 + 222 n,)``."""
        return (424 + 222 * self.players,)

    def full_deck(self) -> list[int]:
        """Every card of the game as kinds, ascending: the numbers once, each bet kind twice (§2)."""
        return list(range(NUM_NUMBER_CARDS)) + [kind for kind in BET_KINDS for _ in range(BET_COPIES)]

    def new_initial_state(self) -> LineitState:
        """§5.1 Setup."""
        return LineitState(
            game=self,
            deck=self.full_deck(),
            seats=[SeatState() for _ in range(self.players)],
        )

    def deserialize_state(self, text: object) -> LineitState:
        """The inverse of ``serialize``; anything malformed or inconsistent (§8) raises
        ``InvalidStateError``."""
        return _deserialize(self, text)

    def __str__(self) -> str:
        return game_string(GAME_NAME, self._params)

    def __repr__(self) -> str:
        return f"LineitGame({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LineitGame) and other._params == self._params

    def __hash__(self) -> int:
        return hash(str(self))


# ---------------------------------------------------------------------------------------------------------
# The state
# ---------------------------------------------------------------------------------------------------------


@dataclass
class SeatState:
    """One seat (§4): its hand (ascending kinds), its line (play order), its score pile (a count) and its bet
    tokens won (counts of +3, +4, +5, -3, -4, -5)."""

    hand: list[int] = field(default_factory=list)
    line: list[int] = field(default_factory=list)
    pile: int = 0
    tokens: list[int] = field(default_factory=lambda: [0] * 6)

    def token_points(self) -> int:
        """``3 (t+3 - t-3) + 4 (t+4 - t-4) + 5 (t+5 - t-5)``."""
        return sum((3 + i) * (self.tokens[i] - self.tokens[3 + i]) for i in range(3))

    def copy(self) -> SeatState:
        return SeatState(list(self.hand), list(self.line), self.pile, list(self.tokens))


@dataclass(eq=False)
class LineitState:
    """A position of Line-it (§4)."""

    game: LineitGame
    deck: list[int]  # kinds, ascending (a multiset: the deck has no order)
    seats: list[SeatState]
    phase: str = "deal"
    round: int = 1
    first: int = 0
    done: int = 0
    final_pass: int = 0
    taken: bool = False
    played: bool = False
    closed: bool = False
    market: list[int] = field(default_factory=list)  # kinds, ascending
    jackpot: list[int] = field(default_factory=list)  # number kinds, ascending
    actions: list[int] = field(default_factory=list)

    # ----- who moves -----

    def current_seat(self) -> int:
        """§4: ``c = (first + done) mod n``."""
        return (self.first + self.done) % self.game.players

    def current_player(self) -> int:
        if self.phase == "deal":
            return CHANCE
        if self.phase == "over":
            return TERMINAL
        return self.current_seat()

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def is_chance_node(self) -> bool:
        return self.phase == "deal"

    # ----- chance (§5.2) -----

    def chance_weights(self) -> list[tuple[int, int]]:
        """The kinds left in the deck, each weighted by its count (1, or 1 or 2 for a bet kind)."""
        if self.phase != "deal":
            return []
        return [(kind, self.deck.count(kind)) for kind in sorted(set(self.deck))]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        weights = self.chance_weights()
        total = sum(weight for _, weight in weights)
        return [(kind, weight / total) for kind, weight in weights]

    def random_step(self, rng: RngLike) -> int:
        """DESIGN's random step with ``rng`` (either engine's Rng), applied; returns the action taken."""
        return random_step(self, rng)

    # ----- legal actions -----

    def _can_play(self, seat: SeatState) -> bool:
        """Some card of the hand fits the line (a seat is "able" in the final plays)."""
        return any(fits(seat.line, kind) for kind in seat.hand)

    def _turn_actions(self) -> list[int]:
        """§5.4: the legal actions of the current seat in a turn."""
        seat = self.seats[self.current_seat()]
        actions: list[int] = []
        if not self.taken:
            for kind in sorted(set(self.market)):
                if fits(seat.line, kind):
                    actions.append(LINE + kind)
                if len(seat.hand) < HAND_LIMIT:
                    actions.append(HAND + kind)
        if not self.played:
            for kind in sorted(set(seat.hand)):
                if fits(seat.line, kind):
                    actions.append(PLAY + kind)
        if not self.closed and seat.line:
            actions.append(CLOSE)
        if self.taken:
            actions.append(PASS)
        return sorted(actions)

    def _final_actions(self) -> list[int]:
        """§5.7: an able seat plays a fitting hand card or passes."""
        seat = self.seats[self.current_seat()]
        plays = [PLAY + kind for kind in sorted(set(seat.hand)) if fits(seat.line, kind)]
        return plays + [PASS]

    def legal_actions(self) -> list[int]:
        if self.phase == "deal":
            return [kind for kind, _ in self.chance_weights()]
        if self.phase == "turn":
            return self._turn_actions()
        if self.phase == "final":
            return self._final_actions()
        return []

    def legal_actions_mask(self) -> npt.NDArray[np.int8]:
        size = NUM_KINDS if self.is_chance_node() else NUM_DISTINCT_ACTIONS
        mask = np.zeros(size, dtype=np.int8)
        for action in self.legal_actions():
            mask[action] = 1
        return mask

    # ----- the rules -----

    def _place(self, seat: SeatState, kind: int) -> None:
        """§5.3: append ``kind`` to the line; the third number card of a colour wins that colour's jackpot."""
        seat.line.append(kind)
        if is_bet(kind):
            return
        colour = self.game.colour(kind)
        same_colour = [k for k in line_numbers(seat.line) if self.game.colour(k) == colour]
        if len(same_colour) == 3:
            won = [k for k in self.jackpot if self.game.colour(k) == colour]
            seat.pile += len(won)
            self.jackpot = [k for k in self.jackpot if self.game.colour(k) != colour]

    def _close(self, seat: SeatState) -> None:
        """§5.5: settle the bet, discard 3 number cards, the rest to the score pile; the line is empty."""
        numbers = len(line_numbers(seat.line))
        bet = line_bet(seat.line)
        if bet is not None:
            value, before = bet
            after = numbers - before
            if after >= value:
                seat.tokens[value - 3] += 1  # the bonus +v
            else:
                seat.tokens[value] += 1  # the penalty -v (index 3 + (v - 3))
        seat.pile += max(0, numbers - 3)
        seat.line = []

    def _end_turn(self) -> None:
        """§5.4 End of the turn."""
        self.taken = self.played = self.closed = False
        self.done += 1
        if self.done == self.game.players:
            self._end_round()

    def _end_round(self) -> None:
        """§5.6: the market's number cards feed the jackpots, its bet cards are discarded; then either a new
        round or, when the deck holds fewer than M cards, the final plays."""
        self.jackpot = sorted(self.jackpot + [k for k in self.market if not is_bet(k)])
        self.market = []
        if len(self.deck) < self.game.market_size:
            self.jackpot = sorted(self.jackpot + [k for k in self.deck if not is_bet(k)])
            self.deck = []
            self.phase = "final"
            self.final_pass = 1
            self.done = 0
            # interp. 10: the first-player token is not passed on.
            self._settle_final()
        else:
            self.first = (self.first + 1) % self.game.players
            self.round += 1
            self.phase = "deal"
            self.done = 0

    def _settle_final(self) -> None:
        """§5.7: skip the seats that cannot play, go on to the second pass, then close every line."""
        n = self.game.players
        while self.phase == "final":
            if self.done == n:
                if self.final_pass == 1:
                    self.final_pass = 2
                    self.done = 0
                else:
                    for seat in self.seats:
                        self._close(seat)
                    self.phase = "over"
                    self.final_pass = 0
                    self.done = 0
            elif not self._can_play(self.seats[self.current_seat()]):
                self.done += 1
            else:
                return

    def _turn_settled(self) -> bool:
        """After a take, the turn ends by itself when neither a play nor a close is legal (§5.4)."""
        if not self.taken:
            return True
        seat = self.seats[self.current_seat()]
        can_play = not self.played and self._can_play(seat)
        can_close = not self.closed and bool(seat.line)
        return can_play or can_close

    def apply_action(self, action: object) -> None:
        """Apply a legal action or chance outcome; anything else raises ``IllegalActionError`` and changes
        nothing."""
        player = self.current_player()
        value = _as_int(action)
        if value is None or value not in self.legal_actions():
            raise IllegalActionError(
                f"{GAME_NAME}: action {action!r} is not legal for seat {player} in this state"
            )
        self.actions.append(value)
        if self.phase == "deal":
            self.deck.remove(value)
            self.market = sorted(self.market + [value])
            if len(self.market) == self.game.market_size:
                self.phase = "turn"
                self.done = 0
            return
        seat = self.seats[self.current_seat()]
        if self.phase == "final":
            if value != PASS:
                kind = value - PLAY
                seat.hand.remove(kind)
                self._place(seat, kind)
            self.done += 1
            self._settle_final()
            return
        # phase == "turn"
        if value == PASS:
            self._end_turn()
            return
        if LINE <= value < HAND:
            kind = value - LINE
            self.market.remove(kind)
            self._place(seat, kind)
            self.taken = True
        elif HAND <= value < PLAY:
            kind = value - HAND
            self.market.remove(kind)
            seat.hand = sorted(seat.hand + [kind])
            self.taken = True
        elif PLAY <= value < CLOSE:
            kind = value - PLAY
            seat.hand.remove(kind)
            self._place(seat, kind)
            self.played = True
        else:  # CLOSE
            self._close(seat)
            self.closed = True
        if not self._turn_settled():
            self._end_turn()

    # ----- results (§5.8) -----

    def scores(self) -> list[float]:
        return [float(seat.pile + seat.token_points()) for seat in self.seats]

    def returns(self) -> list[float]:
        n = self.game.players
        if self.phase != "over":
            return [0.0] * n
        scores = self.scores()
        best = max(scores)
        winners = [s for s in range(n) if scores[s] == best]
        return [1.0 / len(winners) if s in winners else 0.0 for s in range(n)]

    def history(self) -> list[int]:
        return list(self.actions)

    def clone(self) -> LineitState:
        twin = copy.copy(self)
        twin.deck = list(self.deck)
        twin.market = list(self.market)
        twin.jackpot = list(self.jackpot)
        twin.seats = [seat.copy() for seat in self.seats]
        twin.actions = list(self.actions)
        return twin

    def resample_from_infostate(self, player: object, rng: object = None) -> LineitState:
        """§7.3: nothing is hidden, so a clone; ``rng`` is not used."""
        self._check_seat(player)
        return self.clone()

    # ----- notation (§6) -----

    def action_to_string(self, action: object) -> str:
        value = _as_int(action)
        if self.is_chance_node():
            if value is None or not 0 <= value < NUM_KINDS:
                raise IllegalActionError(
                    f"{GAME_NAME}: chance outcome {action!r} is out of range 0..{NUM_KINDS - 1} (chance)"
                )
            return f"deal {card_text(value)}"
        if value is None or not 0 <= value < NUM_DISTINCT_ACTIONS:
            raise IllegalActionError(
                f"{GAME_NAME}: action {action!r} is out of range 0..{NUM_DISTINCT_ACTIONS - 1} "
                f"(seat {self.current_player()})"
            )
        if value < HAND:
            return f"line {card_text(value - LINE)}"
        if value < PLAY:
            return f"hand {card_text(value - HAND)}"
        if value < CLOSE:
            return f"play {card_text(value - PLAY)}"
        return "close" if value == CLOSE else "pass"

    def string_to_action(self, text: object) -> int:
        if not isinstance(text, str):
            raise InvalidNotationError(
                f"{GAME_NAME}: an action text must be a str, not {type(text).__name__}"
            )
        folded = fold_white_space(text)
        if self.is_chance_node():
            match = _CHANCE_TEXT.fullmatch(folded)
            kind = _card_kind(match.group(1)) if match else None
            if kind is None:
                raise InvalidNotationError(f"{GAME_NAME}: cannot read chance outcome {text!r}")
            return kind
        if folded == "close":
            return CLOSE
        if folded == "pass":
            return PASS
        match = _DECISION_TEXT.fullmatch(folded)
        kind = _card_kind(match.group(2)) if match else None
        if match is None or kind is None:
            raise InvalidNotationError(f"{GAME_NAME}: cannot read action {text!r}")
        return {"line": LINE, "hand": HAND, "play": PLAY}[match.group(1)] + kind

    # ----- observations (§7) -----

    def _check_seat(self, player: object) -> int:
        value = _as_int(player)
        if value is None or not 0 <= value < self.game.players:
            raise InvalidStateError(f"seat {player!r} out of range 0..{self.game.players - 1}")
        return value

    def _where(self, kind: int) -> tuple[str, int]:
        """Where a number card is: ``deck``, ``market``, ``jackpot``, ``out``, or ``hand`` / ``line`` and the
        seat."""
        if kind in self.deck:
            return "deck", -1
        if kind in self.market:
            return "market", -1
        if kind in self.jackpot:
            return "jackpot", -1
        for index, seat in enumerate(self.seats):
            if kind in seat.hand:
                return "hand", index
            if kind in seat.line:
                return "line", index
        return "out", -1

    def observation_tensor(self, player: object) -> npt.NDArray[np.float32]:
        """§7.1, seats relative to the observer."""
        observer = self._check_seat(player)
        game = self.game
        n = game.players

        def relative(seat: int) -> int:
            return (seat - observer) % n

        values: list[float] = []
        # 1. Number cards: a one-hot of where each one is.
        for kind in range(NUM_NUMBER_CARDS):
            block = [0.0] * (4 + 2 * n)
            place, seat_index = self._where(kind)
            if place == "hand":
                block[4 + relative(seat_index)] = 1.0
            elif place == "line":
                block[4 + n + relative(seat_index)] = 1.0
            else:
                block[("deck", "market", "jackpot", "out").index(place)] = 1.0
            values.extend(block)
        # 2. Bet cards: counts per place; "out" is what is nowhere else.
        for kind in BET_KINDS:
            in_deck = self.deck.count(kind)
            in_market = self.market.count(kind)
            hands = [0.0] * n
            lines = [0.0] * n
            for index, seat in enumerate(self.seats):
                hands[relative(index)] = float(seat.hand.count(kind))
                lines[relative(index)] = float(seat.line.count(kind))
            out = BET_COPIES - in_deck - in_market - sum(hands) - sum(lines)
            values.extend([float(in_deck), float(in_market), float(out)])
            values.extend(hands)
            values.extend(lines)
        # 3. Seats.
        for offset in range(n):
            seat = self.seats[(observer + offset) % n]
            numbers = line_numbers(seat.line)
            direction = line_direction(seat.line)
            bet = line_bet(seat.line)
            values.append(float(seat.pile))
            values.append(float(seat.token_points()))
            values.append(float(len(numbers)))
            values.extend(float(direction == d) for d in ("undefined", "ascending", "descending"))
            values.append(float(number_of(numbers[-1]) if numbers else 0))
            values.append(float(bet[0] if bet else 0))
            values.append(float(len(numbers) - bet[1] if bet else 0))
            values.extend(float(sum(1 for k in numbers if game.colour(k) == c)) for c in range(4))
            values.append(float(len(seat.hand)))
        # 4. Global.
        values.extend(float(sum(1 for k in self.jackpot if game.colour(k) == c)) for c in range(4))
        values.append(float(len(self.deck)))
        values.append(float(self.round))
        values.extend(float(self.phase == phase) for phase in PHASES)
        first = [0.0] * n
        first[relative(self.first)] = 1.0
        values.extend(first)
        current = [0.0] * n
        if self.phase in ("turn", "final"):
            current[relative(self.current_seat())] = 1.0
        values.extend(current)
        values.extend([float(self.taken), float(self.played), float(self.closed)])
        values.append(float(self.final_pass))
        values.append(float(self.done))
        tensor = np.asarray(values, dtype=np.float32)
        assert tensor.shape == game.observation_shape(), (tensor.shape, game.observation_shape())
        return tensor

    def observation_string(self, player: object) -> str:
        """§7.2: a readable picture of the whole (public) state, seats from the observer on."""
        observer = self._check_seat(player)
        game = self.game
        n = game.players

        def cards(kinds: list[int]) -> str:
            return " ".join(card_text(k) for k in kinds) or "-"

        mover = self.current_player()
        who = "chance" if mover == CHANCE else "terminal" if mover == TERMINAL else f"seat {mover}"
        lines = [
            f"Line-it, seen by seat {observer}: round {self.round}/{game.rounds}, phase {self.phase}"
            + (f" (pass {self.final_pass})" if self.phase == "final" else "")
            + f", first player seat {self.first}, to move: {who}"
        ]
        if self.phase == "turn":
            flags = [name for name, flag in (("taken", self.taken), ("played", self.played)) if flag]
            if self.closed:
                flags.append("closed")
            lines.append("this turn: " + (", ".join(flags) or "nothing done yet"))
        lines.append(f"market: {cards(self.market)}")
        lines.append(f"deck: {len(self.deck)} cards")
        jackpots = []
        for colour, name in enumerate(COLOUR_NAMES):
            jackpots.append(f"{name} {sum(1 for k in self.jackpot if game.colour(k) == colour)}")
        lines.append("jackpots: " + ", ".join(jackpots))
        scores = self.scores()
        for offset in range(n):
            index = (observer + offset) % n
            seat = self.seats[index]
            lines.append(
                f"seat {index}: score {scores[index]:g} (pile {seat.pile}, tokens {seat.token_points():+d}), "
                f"hand [{cards(seat.hand)}], line [{cards(seat.line)}] {line_direction(seat.line)}"
            )
        if self.phase == "over":
            lines.append(f"returns {self.returns()}")
        return "\n".join(lines)

    def information_state_string(self, player: object) -> str:
        """§7.2: ``seat=<p> history=<ids joined by ",">``: every action and outcome is public."""
        observer = self._check_seat(player)
        return f"seat={observer} history=" + ",".join(str(action) for action in self.actions)

    # ----- serialization (§8) -----

    def to_json_object(self) -> dict[str, object]:
        return {
            "closed": self.closed,
            "deck": sorted(self.deck),
            "done": self.done,
            "final_pass": self.final_pass,
            "first": self.first,
            "game": GAME_NAME,
            "history": list(self.actions),
            "jackpot": sorted(self.jackpot),
            "market": sorted(self.market),
            "params": self.game.params,
            "phase": self.phase,
            "played": self.played,
            "round": self.round,
            "seats": [
                {"hand": sorted(s.hand), "line": list(s.line), "pile": s.pile, "tokens": list(s.tokens)}
                for s in self.seats
            ],
            "taken": self.taken,
            "version": SERIAL_VERSION,
        }

    def serialize(self) -> str:
        return json.dumps(self.to_json_object(), sort_keys=True, separators=(",", ":"))

    def __str__(self) -> str:
        mover = self.current_player()
        return self.observation_string(mover if mover >= 0 else 0)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LineitState) and other.serialize() == self.serialize()

    __hash__ = None  # type: ignore[assignment]  # mutable, so unhashable: typeshed's idiom, no other spelling


# ---------------------------------------------------------------------------------------------------------
# Notation readers (§6)
# ---------------------------------------------------------------------------------------------------------

_CARD = r"(bet[345]|[0-9]{1,3})"
_CHANCE_TEXT = re.compile(r"(?:deal )?" + _CARD)
_DECISION_TEXT = re.compile(r"(line|hand|play) " + _CARD)


def _card_kind(text: str) -> int | None:
    """``bet3``..``bet5`` or 1 to 3 ASCII digits worth 1..100 (leading zeros allowed) as a kind; else None."""
    if text.startswith("bet"):
        return BET_KINDS[int(text[3]) - 3]
    number = int(text)
    return number - 1 if 1 <= number <= NUM_NUMBER_CARDS else None


# ---------------------------------------------------------------------------------------------------------
# Deserialization (§8)
# ---------------------------------------------------------------------------------------------------------

_TOP_KEYS = frozenset(
    {
        "closed",
        "deck",
        "done",
        "final_pass",
        "first",
        "game",
        "history",
        "jackpot",
        "market",
        "params",
        "phase",
        "played",
        "round",
        "seats",
        "taken",
        "version",
    }
)
_SEAT_KEYS = frozenset({"hand", "line", "pile", "tokens"})


_fields = StrictFields(f"{GAME_NAME}: bad serialized state: ")
_bad, _strict_pairs, _check_keys, _int_in, _bool = (
    _fields.bad,
    _fields.pairs,
    _fields.keys,
    _fields.int_in,
    _fields.boolean,
)


def _kinds(value: object, what: str, high: int, max_len: int, ascending: bool) -> list[int]:
    if not isinstance(value, list):
        raise _bad(f"{what} must be a list")
    if len(value) > max_len:
        raise _bad(f"{what} holds more than {max_len} cards")
    kinds = [_int_in(kind, 0, high, f"a kind in {what}") for kind in value]
    if ascending and kinds != sorted(kinds):
        raise _bad(f"{what} is not in ascending order")
    return kinds


def _deserialize(game: LineitGame, text: object) -> LineitState:
    if not isinstance(text, str):
        raise InvalidStateError(f"{GAME_NAME}: a serialized state must be a str, not {type(text).__name__}")
    try:
        obj = json.loads(text, object_pairs_hook=_strict_pairs)
    except InvalidStateError:
        raise
    except Exception as error:  # JSONDecodeError, RecursionError, ...
        raise _bad(f"not valid JSON ({type(error).__name__})") from None
    obj = _check_keys(obj, _TOP_KEYS, "the state")
    if obj["game"] != GAME_NAME:
        raise _bad(f"game {obj['game']!r} is not {GAME_NAME!r}")
    if not _is_int(obj["version"]) or obj["version"] != SERIAL_VERSION:
        raise _bad(f"version {obj['version']!r} is not {SERIAL_VERSION}")
    if not same_params(obj["params"], game.params):
        raise _bad("params are not the game's own")

    n = game.players
    m = game.market_size
    r = game.rounds

    # Types, lengths and ranges.
    phase = obj["phase"]
    if not isinstance(phase, str) or phase not in PHASES:
        raise _bad(f"phase {phase!r} is not one of {PHASES}")
    round_ = _int_in(obj["round"], 1, r, "round")
    first = _int_in(obj["first"], 0, n - 1, "first")
    final_pass = _int_in(obj["final_pass"], 0, 2, "final_pass")
    done = obj["done"]
    if not _is_int(done):
        raise _bad(f"done must be an int, got {done!r}")
    taken = _bool(obj["taken"], "taken")
    played = _bool(obj["played"], "played")
    closed = _bool(obj["closed"], "closed")
    deck = _kinds(obj["deck"], "deck", NUM_KINDS - 1, DECK_SIZE, ascending=True)
    market = _kinds(obj["market"], "market", NUM_KINDS - 1, m, ascending=True)
    jackpot = _kinds(obj["jackpot"], "jackpot", NUM_NUMBER_CARDS - 1, NUM_NUMBER_CARDS, ascending=True)
    history = obj["history"]
    if not isinstance(history, list):
        raise _bad("history must be a list")
    actions = [_int_in(a, 0, NUM_DISTINCT_ACTIONS - 1, "a history id") for a in history]
    raw_seats = obj["seats"]
    if not isinstance(raw_seats, list) or len(raw_seats) != n:
        raise _bad(f"seats must be a list of {n} entries")
    seats: list[SeatState] = []
    for index, raw in enumerate(raw_seats):
        entry = _check_keys(raw, _SEAT_KEYS, f"seat {index}")
        hand = _kinds(entry["hand"], f"seat {index} hand", NUM_KINDS - 1, HAND_LIMIT, ascending=True)
        line = _kinds(entry["line"], f"seat {index} line", NUM_KINDS - 1, DECK_SIZE, ascending=False)
        pile = _int_in(entry["pile"], 0, NUM_NUMBER_CARDS, f"seat {index} pile")
        tokens = entry["tokens"]
        if not isinstance(tokens, list) or len(tokens) != 6:
            raise _bad(f"seat {index} tokens must be a list of 6 counts")
        counts = [_int_in(t, 0, 2, f"seat {index} token count") for t in tokens]
        seats.append(SeatState(hand, line, pile, counts))

    # Cards: every number card in at most one place, once; at most two cards of each bet value in all.
    places = deck + market + jackpot + [k for s in seats for k in s.hand + s.line]
    numbers = [k for k in places if not is_bet(k)]
    if len(numbers) != len(set(numbers)):
        raise _bad("a number card is in two places, or twice in one")
    for kind in BET_KINDS:
        v = bet_value(kind)
        tokens_of_v = sum(s.tokens[v - 3] + s.tokens[v] for s in seats)
        if places.count(kind) + tokens_of_v > BET_COPIES:
            raise _bad(f"more than {BET_COPIES} bet cards and tokens of value {v}")

    # Lines: at most one bet card, number cards strictly monotone in the direction of the first pair.
    for index, seat in enumerate(seats):
        if sum(1 for k in seat.line if is_bet(k)) > 1:
            raise _bad(f"seat {index}'s line holds more than one bet card")
        values = line_numbers(seat.line)
        if len(values) >= 2:
            ascending = values[1] > values[0]
            for a, b in zip(values, values[1:], strict=False):
                if (b > a) != ascending or a == b:
                    raise _bad(f"seat {index}'s line is not monotone")

    # Phases.
    if phase != "turn" and (taken or played or closed):
        raise _bad("a turn flag is set outside a turn")
    if phase != "final" and final_pass != 0:
        raise _bad("final_pass is set outside the final plays")
    state = LineitState(
        game=game,
        deck=deck,
        seats=seats,
        phase=phase,
        round=round_,
        first=first,
        done=done,
        final_pass=final_pass,
        taken=taken,
        played=played,
        closed=closed,
        market=market,
        jackpot=jackpot,
        actions=actions,
    )
    if phase == "deal":
        if len(market) >= m:
            raise _bad("a full market while dealing")
        if len(deck) + len(market) != DECK_SIZE - m * (round_ - 1):
            raise _bad("the deck and the market do not hold the cards left for this round")
        if done != 0:
            raise _bad("done must be 0 while dealing")
    elif phase == "turn":
        if not 0 <= done <= n - 1:
            raise _bad(f"done must be in 0..{n - 1} in a turn")
        if len(deck) != DECK_SIZE - m * round_:
            raise _bad("the deck does not hold the cards left after this round's market")
        if len(market) != m - done - (1 if taken else 0):
            raise _bad("the market does not hold the cards left in this round")
        if not state.legal_actions():
            raise _bad("the current seat has no legal action")
        if not state._turn_settled():
            raise _bad("a turn that should have ended (not settled)")
    elif phase == "final":
        if deck or market:
            raise _bad("the deck and the market must be empty in the final plays")
        if round_ != r:
            raise _bad(f"the final plays come after round {r}")
        if final_pass not in (1, 2):
            raise _bad("final_pass must be 1 or 2 in the final plays")
        if not 0 <= done <= n - 1:
            raise _bad(f"done must be in 0..{n - 1} in the final plays")
        if not state._can_play(seats[state.current_seat()]):
            raise _bad("the current seat cannot play (not settled)")
    else:  # over
        if deck or market:
            raise _bad("the deck and the market must be empty at the end")
        if round_ != r:
            raise _bad(f"the game ends after round {r}")
        if any(seat.line for seat in seats):
            raise _bad("a line is not closed at the end")
        if done != 0:
            raise _bad("done must be 0 at the end")
    return state


__all__ = [
    "BET_KINDS",
    "CLOSE",
    "HAND",
    "LINE",
    "NUM_DISTINCT_ACTIONS",
    "NUM_KINDS",
    "PASS",
    "PLAY",
    "LineitGame",
    "LineitState",
    "SeatState",
    "card_text",
    "fits",
    "line_bet",
    "line_direction",
    "line_numbers",
]
