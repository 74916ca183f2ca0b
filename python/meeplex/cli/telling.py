"""What may be told to whom: move lines for a person at the table, and the result of a finished game.

A person playing a hidden-information game must learn no more from the screen than the rules let them see.
A chance outcome (a card dealt face down to another seat) or another seat's move (a simultaneous choice) is
shown by name only if the viewer's information state tells it apart from every other outcome or move possible
at that point; otherwise the line says that something happened, not what. This is generic over the registry:
it relies only on ``information_state_string``, which every game writes to hold exactly what a seat knows.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.markup import escape
from rich.table import Table

from meeplex._protocols import StateLike

from .common import number


def _known_after(state: StateLike, action: int, seat: int) -> str | None:
    after = state.clone()
    after.apply_action(action)
    return after.information_state_string(seat)


def seat_can_tell(state: StateLike, action: int, seat: int) -> bool:
    """Whether ``seat`` learns exactly which of the possible actions at ``state`` is ``action``."""
    options = state.legal_actions()
    if len(options) <= 1:
        return True
    try:
        mine = _known_after(state, action, seat)
        return all(_known_after(state, other, seat) != mine for other in options if other != action)
    except Exception:  # a game that cannot answer for this seat: say nothing rather than leak
        return False


def move_line(state: StateLike, action: int, viewers: Sequence[int], names: Sequence[str]) -> str:
    """The rich-markup line announcing ``action`` at ``state`` to the seats in ``viewers`` (all, if empty):
    ``chance: reveal Church``, ``seat 1 (random): buy Hospital`` or ``seat 1 (random): a hidden move``.

    The mover knows its own move, but with several people at one terminal the others read the line too, so
    it is named only if every other viewer could tell it."""
    mover = state.current_player()
    chance = state.is_chance_node()
    who = "chance" if chance else f"seat {mover} ({escape(names[mover])})"
    others = [seat for seat in viewers if seat != mover]
    if all(seat_can_tell(state, action, seat) for seat in others):
        what = f"[bold]{escape(state.action_to_string(action))}[/]"
    else:
        what = "[italic]a hidden outcome[/]" if chance else "[italic]a hidden move[/]"
    style = "dim" if chance else "cyan"
    return f"[{style}]{who}:[/] {what}"


def outcome_line(state: StateLike, names: Sequence[str]) -> str:
    """Who won, in words: a sole winner, a shared victory, or no winner."""
    returns = state.returns()
    winners = [seat for seat, r in enumerate(returns) if r > 0]
    if not winners:
        return "[bold]no winner[/]"
    listed = ", ".join(f"seat {seat} ({escape(names[seat])})" for seat in winners)
    if len(winners) == 1:
        return f"[bold green]{listed} wins[/]"
    if len(winners) == len(returns):
        return "[bold green]every seat wins[/]" if len(returns) > 1 else f"[bold green]{listed} wins[/]"
    return f"[bold green]shared victory: {listed}[/]"


def result_table(state: StateLike, names: Sequence[str]) -> Table:
    """Returns (share of the win) and the game's own scores, one row per seat."""
    table = Table(title="result", title_justify="left")
    table.add_column("seat", justify="right")
    table.add_column("player")
    table.add_column("return", justify="right")
    table.add_column("score", justify="right")
    returns, scores = state.returns(), state.scores()
    for seat, name in enumerate(names):
        style = "bold green" if returns[seat] > 0 else None
        table.add_row(str(seat), escape(name), number(returns[seat]), number(scores[seat]), style=style)
    return table
