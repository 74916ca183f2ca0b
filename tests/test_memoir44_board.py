"""Tests of the Memoir '44 board layer of the oracle (meeplex.oracle.memoir44): hexes, neighbours, distances,
sections, line of sight and the scenario reader.

Written from the game-help page (shared/rules/bga_memoir44.txt, "the page"), the facts
(shared/rules/facts/memoir44_core.json, memoir44_pegasus_bridge.json, bga_games.md §7) and the coordinates
fixed in issue 19's board brief: a hex is (row, col), col doubled (row + col even), centres drawn at
X = col, Y = 3 * row, so that a hex's corners are (X, Y -+ 2), (X +- 1, Y -+ 1).

The line-of-sight cases are drawn by hand first (each says what the drawing shows); then every pair of hexes
on the board is checked against a second, independent computation (a walk along the segment that locates
the middle of each piece between two crossings of a side line, with the hex written as |dx| <= 1 and
|dx| + |dy| <= 2) and against the closed form of the three directions along which a line between centres can
run along hex sides.

``python tests/test_memoir44_board.py --regen`` rewrites tests/data/memoir44_los_random.json, the random cases
the Rust engine is checked against; ``test_random_file_matches_the_oracle`` notices a change on either side.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import sys
from collections import Counter, deque
from fractions import Fraction
from pathlib import Path

import pytest

from meeplex.errors import InvalidStateError
from meeplex.oracle.memoir44 import (
    ALL_HEXES,
    ALLIES,
    AXIS,
    Hex,
    blockers_from,
    corners,
    distance,
    hexes_crossed,
    load_scenario,
    los_clear,
    neighbours,
    on_board,
    pegasus_bridge,
    pegasus_bridge_text,
    sections,
    shared_side,
    side_of_line,
)

DATA = Path(__file__).resolve().parent / "data"
RANDOM_FILE = DATA / "memoir44_los_random.json"
BLIND_FILE = DATA / "memoir44_los_cases.json"

H = Hex


def clear_with(a: Hex, b: Hex, *blocking: tuple[int, int]) -> bool:
    return los_clear(a, b, blockers_from(Hex(*x) for x in blocking))


# ---------------------------------------------------------------------------------------------------------
# Hexes, neighbours, distances
# ---------------------------------------------------------------------------------------------------------


def test_the_board_has_113_hexes_in_row_major_order() -> None:
    # 5 rows of 13 (rows 0, 2, 4, 6, 8) and 4 rows of 12.
    assert len(ALL_HEXES) == 5 * 13 + 4 * 12 == 113
    assert list(ALL_HEXES) == sorted(ALL_HEXES)
    assert Counter(h.row for h in ALL_HEXES) == {r: 13 if r % 2 == 0 else 12 for r in range(9)}
    assert ALL_HEXES[0] == H(0, 0) and ALL_HEXES[13] == H(1, 1) and ALL_HEXES[-1] == H(8, 24)
    assert all(on_board(h) for h in ALL_HEXES)
    for off in [H(0, 1), H(1, 0), H(-1, 1), H(9, 1), H(0, 26), H(1, 25), H(1, -1), H(8, -2)]:
        assert not on_board(off)


@pytest.mark.parametrize(
    ("hex_", "expected"),
    [
        (H(0, 0), [H(0, 2), H(1, 1)]),  # top-left corner
        (H(8, 24), [H(7, 23), H(8, 22)]),  # bottom-right corner
        (H(0, 12), [H(0, 10), H(0, 14), H(1, 11), H(1, 13)]),  # top edge
        (H(4, 0), [H(3, 1), H(4, 2), H(5, 1)]),  # a long row's left end
        (H(1, 1), [H(0, 0), H(0, 2), H(1, 3), H(2, 0), H(2, 2)]),  # a short row's left end
        (H(3, 23), [H(2, 22), H(2, 24), H(3, 21), H(4, 22), H(4, 24)]),  # a short row's right end
        (H(4, 12), [H(3, 11), H(3, 13), H(4, 10), H(4, 14), H(5, 11), H(5, 13)]),  # the middle
    ],
)
def test_neighbours(hex_: Hex, expected: list[Hex]) -> None:
    assert neighbours(hex_) == expected


def test_neighbour_counts_over_the_board() -> None:
    # 4 corners with 2; the 22 other hexes of rows 0 and 8 with 4; the ends of rows 2, 4, 6 (6 hexes) with 3;
    # the ends of the short rows 1, 3, 5, 7 (8 hexes) with 5; the 73 others with 6.
    assert Counter(len(neighbours(h)) for h in ALL_HEXES) == {2: 4, 3: 6, 4: 22, 5: 8, 6: 73}
    for h in ALL_HEXES:
        for n in neighbours(h):
            assert h in neighbours(n)
            assert distance(h, n) == 1
            assert len(set(corners(h)) & set(corners(n))) == 2  # neighbours share one side


@pytest.mark.parametrize(
    ("a", "b", "d"),
    [
        (H(0, 0), H(0, 0), 0),
        (H(0, 0), H(0, 2), 1),
        (H(0, 0), H(1, 1), 1),
        (H(0, 0), H(0, 24), 12),  # along the top row
        (H(0, 0), H(8, 0), 8),  # down the left edge, zigzag
        (H(0, 0), H(8, 8), 8),  # down the diagonal
        (H(0, 0), H(8, 24), 16),  # corner to corner: 8 diagonal steps then 8 along the row
        (H(0, 0), H(2, 0), 2),
        (H(4, 4), H(4, 10), 3),
        (H(4, 8), H(5, 11), 2),
        (H(2, 6), H(5, 21), 3 + 6),
    ],
)
def test_distance(a: Hex, b: Hex, d: int) -> None:
    assert distance(a, b) == d
    assert distance(b, a) == d


def test_distance_is_the_shortest_path_on_the_board() -> None:
    for a in ALL_HEXES:
        seen = {a: 0}
        queue = deque([a])
        while queue:
            h = queue.popleft()
            for n in neighbours(h):
                if n not in seen:
                    seen[n] = seen[h] + 1
                    queue.append(n)
        assert len(seen) == len(ALL_HEXES)
        for b, steps in seen.items():
            assert distance(a, b) == steps, (a, b)


# ---------------------------------------------------------------------------------------------------------
# Sections
# ---------------------------------------------------------------------------------------------------------


def test_sections() -> None:
    assert sections(H(0, 0)) == (True, False, False)
    assert sections(H(0, 6)) == (True, False, False)
    assert sections(H(1, 7)) == (True, True, False)  # straddles left and centre
    assert sections(H(0, 8)) == (False, True, False)
    assert sections(H(8, 16)) == (False, True, False)
    assert sections(H(7, 17)) == (False, True, True)  # straddles centre and right
    assert sections(H(0, 18)) == (False, False, True)
    assert sections(H(8, 24)) == (False, False, True)
    left = [h for h in ALL_HEXES if sections(h)[0]]
    centre = [h for h in ALL_HEXES if sections(h)[1]]
    right = [h for h in ALL_HEXES if sections(h)[2]]
    # Long rows: 4 + 5 + 4; short rows: 3 + 4 + 3 and the two straddling hexes.
    assert (len(left), len(centre), len(right)) == (5 * 4 + 4 * 4, 5 * 5 + 4 * 6, 5 * 4 + 4 * 4)
    straddling = [h for h in ALL_HEXES if sum(sections(h)) == 2]
    assert straddling == [H(r, c) for r in (1, 3, 5, 7) for c in (7, 17)]
    assert all(sum(sections(h)) >= 1 for h in ALL_HEXES)


# ---------------------------------------------------------------------------------------------------------
# Line of sight: hand-drawn cases
# ---------------------------------------------------------------------------------------------------------


def test_los_straight_along_a_row() -> None:
    # (4,4) to (4,10): a horizontal line Y = 12 through the centres of (4,6) and (4,8); it crosses each
    # vertical side at its middle, and the hexes of rows 3 and 5 reach only Y = 11 and Y = 13.
    assert hexes_crossed(H(4, 4), H(4, 10)) == ([H(4, 6), H(4, 8)], [])
    assert clear_with(H(4, 4), H(4, 10))
    assert not clear_with(H(4, 4), H(4, 10), (4, 8))  # a unit in the line: blocked
    assert not clear_with(H(4, 4), H(4, 10), (4, 6))
    assert clear_with(H(4, 4), H(4, 10), (3, 5), (3, 7), (3, 9), (5, 5), (5, 7), (5, 9))  # units beside it


def test_los_adjacent_is_always_clear() -> None:
    # Neighbouring centres: the segment crosses their common side at its middle and meets no third hex.
    everything = [(h.row, h.col) for h in ALL_HEXES]
    for a, b in [(H(4, 8), H(4, 10)), (H(4, 8), H(5, 9)), (H(4, 8), H(3, 7)), (H(0, 0), H(1, 1))]:
        assert hexes_crossed(a, b) == ([], [])
        assert clear_with(a, b, *everything)


def test_los_along_a_side_down_and_right() -> None:
    # (4,8) to (5,11): centres (8,12) and (11,15), slope 1. From (8,12) the segment reaches the corner (9,13)
    # of (4,8), runs along the side (9,13)-(10,14) that (4,10) (above-right, centre (10,12)) and (5,9)
    # (below-left, centre (9,15)) share, then from the corner (10,14) enters (5,11). Nothing else is met.
    assert shared_side(H(4, 10), H(5, 9)) == ((9, 13), (10, 14))
    assert hexes_crossed(H(4, 8), H(5, 11)) == ([], [(H(4, 10), H(5, 9))])
    assert clear_with(H(4, 8), H(5, 11))
    assert clear_with(H(4, 8), H(5, 11), (4, 10))  # one side only: clear
    assert clear_with(H(4, 8), H(5, 11), (5, 9))
    assert not clear_with(H(4, 8), H(5, 11), (4, 10), (5, 9))  # both sides: blocked
    # The hexes that only touch the segment at a corner (9,13) and (10,14) are the two ends themselves and
    # the flanks: no other hex counts, so blocking all the others changes nothing.
    others = [(h.row, h.col) for h in ALL_HEXES if h not in (H(4, 8), H(5, 11), H(4, 10), H(5, 9))]
    assert clear_with(H(4, 8), H(5, 11), *others)


def test_los_along_a_side_mirrored() -> None:
    # (4,8) to (5,5): the mirror image, slope -1: along the side of (4,6) and (5,7).
    assert hexes_crossed(H(4, 8), H(5, 5)) == ([], [(H(4, 6), H(5, 7))])
    assert clear_with(H(4, 8), H(5, 5), (4, 6))
    assert not clear_with(H(4, 8), H(5, 5), (4, 6), (5, 7))
    # Upwards: (5,5) to (4,8) is the same segment.
    assert hexes_crossed(H(5, 5), H(4, 8)) == ([], [(H(4, 6), H(5, 7))])


def test_los_straight_down_a_column() -> None:
    # (2,8) to (4,8): a vertical line X = 8 from Y = 6 to Y = 12; (2,8) reaches down to its corner (8,8),
    # then the line runs along the vertical side X = 8, Y 8..10 between (3,7) and (3,9), then (4,8) from
    # its top corner (8,10).
    assert hexes_crossed(H(2, 8), H(4, 8)) == ([], [(H(3, 7), H(3, 9))])
    assert clear_with(H(2, 8), H(4, 8), (3, 7))
    assert clear_with(H(2, 8), H(4, 8), (3, 9))
    assert not clear_with(H(2, 8), H(4, 8), (3, 7), (3, 9))
    # Two rows further: through the centre of (4,8), then along (5,7)/(5,9).
    assert hexes_crossed(H(2, 8), H(6, 8)) == ([H(4, 8)], [(H(3, 7), H(3, 9)), (H(5, 7), H(5, 9))])
    assert not clear_with(H(2, 8), H(6, 8), (4, 8))
    # Both on the left (col 7): one side only, clear.
    assert clear_with(H(2, 8), H(6, 8), (3, 7), (5, 7))
    assert not clear_with(H(2, 8), H(6, 8), (5, 7), (5, 9))
    # READING (the rulebook: "unless the obstructions stand somewhere along both sides of the line
    # segment"): one blocker on the left of the first side and one on the right of the second block together.
    assert not clear_with(H(2, 8), H(6, 8), (3, 7), (5, 9))
    assert side_of_line(H(2, 8), H(6, 8), H(3, 7)) == side_of_line(H(2, 8), H(6, 8), H(5, 7)) != 0
    assert side_of_line(H(2, 8), H(6, 8), H(3, 7)) == -side_of_line(H(2, 8), H(6, 8), H(5, 9))
    assert side_of_line(H(2, 8), H(6, 8), H(4, 8)) == 0


def test_los_down_the_board_rim() -> None:
    # (0,0) to (2,0): X = 0 runs along the left side of (1,1), the board's rim; on the other side is the half
    # hex of the real board where nothing stands, so there is no pair and (1,1) cannot block alone.
    assert hexes_crossed(H(0, 0), H(2, 0)) == ([], [])
    assert clear_with(H(0, 0), H(2, 0), (1, 1))
    assert hexes_crossed(H(4, 24), H(8, 24)) == ([H(6, 24)], [])
    assert clear_with(H(4, 24), H(8, 24), (5, 23), (7, 23))


def test_los_through_corners() -> None:
    # (0,0) to (4,6): centres (0,0) and (6,12), the line Y = 2X. It leaves (0,0) across its lower-right side
    # at (2/3, 4/3), crosses (1,1) and leaves it exactly at its corner (2,4), which (1,3) and (2,2) share;
    # it goes on into (2,2), crosses the side X = 3 into (2,4), leaves that at its corner (4,8), shared with
    # (3,3) and (3,5), then crosses (3,5) into (4,6). (1,3) and (3,3) are touched at a corner only.
    interior, edge_pairs = hexes_crossed(H(0, 0), H(4, 6))
    assert interior == [H(1, 1), H(2, 2), H(2, 4), H(3, 5)]
    assert edge_pairs == []
    assert (2, 4) in corners(H(1, 3)) and (4, 8) in corners(H(3, 3))
    assert clear_with(H(0, 0), H(4, 6), (1, 3), (3, 3))  # corners alone never block
    assert not clear_with(H(0, 0), H(4, 6), (2, 2))


def test_los_long_diagonal_through_centres() -> None:
    # (0,0) to (8,8): slope 3 in the drawing, from centre to centre down the hex axis; it crosses each side
    # at its middle and passes through the seven centres (r, r) between.
    interior, edge_pairs = hexes_crossed(H(0, 0), H(8, 8))
    assert interior == [H(r, r) for r in range(1, 8)]
    assert edge_pairs == []
    assert not clear_with(H(0, 0), H(8, 8), (5, 5))
    assert clear_with(H(0, 0), H(8, 8), (4, 6), (5, 3), (6, 4))


def test_los_corner_to_corner_runs_along_sides_all_the_way() -> None:
    # (0,0) to (8,24): slope 1, eight steps of (+1 row, +3 cols): centre, side, centre, side, ...
    interior, edge_pairs = hexes_crossed(H(0, 0), H(8, 24))
    assert interior == [H(j, 3 * j) for j in range(1, 8)]
    assert edge_pairs == [(H(j, 3 * j + 2), H(j + 1, 3 * j + 1)) for j in range(8)]
    flanks_above = [(j, 3 * j + 2) for j in range(8)]
    flanks_below = [(j + 1, 3 * j + 1) for j in range(8)]
    assert clear_with(H(0, 0), H(8, 24), *flanks_above)
    assert clear_with(H(0, 0), H(8, 24), *flanks_below)
    assert not clear_with(H(0, 0), H(8, 24), (6, 20), (7, 19))
    assert not clear_with(H(0, 0), H(8, 24), (0, 2), (8, 22))  # at the two ends, on opposite sides


def test_los_a_shallow_line() -> None:
    # (0,0) to (1,5): centres (0,0) and (5,3), Y = 3X/5. It crosses the side X = 1 of (0,0) at Y = 3/5, goes
    # through (0,2) (at X = 2, Y = 6/5, inside), through (1,3) (at X = 3, Y = 9/5), and crosses the side
    # X = 4 of (1,3) at Y = 12/5 into (1,5). (0,4) reaches Y = 2 only at X = 4, and the line is at 12/5 there;
    # (1,1)'s corner (2,2) is above the line (at X = 2 it is at 6/5).
    assert hexes_crossed(H(0, 0), H(1, 5)) == ([H(0, 2), H(1, 3)], [])
    assert clear_with(H(0, 0), H(1, 5), (0, 4), (1, 1))
    assert not clear_with(H(0, 0), H(1, 5), (0, 2))


def test_los_pinched_between_two_corners() -> None:
    # (2,6) to (6,12): centres (6,6) and (12,18), Y = 2X - 6. It passes exactly through the corner (8,10)
    # shared by (3,7), (3,9) and (4,8), and the corner (10,14) shared by (4,10), (5,9) and (5,11). It crosses
    # (3,7), (4,8), (4,10) and (5,11); (3,9) lies above-right of the line and (5,9) below-left, each touching
    # it at one corner. READING: neither "crosses this line" (the page), so neither blocks, even both together
    # (BGA's Board.php would block on either corner; the blind case file says the pinch blocks).
    assert hexes_crossed(H(2, 6), H(6, 12)) == ([H(3, 7), H(4, 8), H(4, 10), H(5, 11)], [])
    assert (8, 10) in corners(H(3, 9)) and (10, 14) in corners(H(5, 9))
    assert side_of_line(H(2, 6), H(6, 12), H(3, 9)) == -side_of_line(H(2, 6), H(6, 12), H(5, 9))
    assert clear_with(H(2, 6), H(6, 12), (3, 9), (5, 9))
    assert not clear_with(H(2, 6), H(6, 12), (4, 8))


def test_los_the_ends_never_block() -> None:
    # los_clear never asks about the shooter's and the target's own hexes.
    asked: list[Hex] = []

    def blocks(h: Hex) -> bool:
        asked.append(h)
        return True

    assert not los_clear(H(4, 4), H(4, 10), blocks)
    assert H(4, 4) not in asked and H(4, 10) not in asked
    assert los_clear(H(4, 4), H(4, 6), blocks)


# ---------------------------------------------------------------------------------------------------------
# Line of sight: every pair, against a second computation
# ---------------------------------------------------------------------------------------------------------


def _in_hex(h: Hex, x: Fraction, y: Fraction) -> int:
    """2 if (x, y) is inside ``h``, 1 on its boundary, 0 outside: with dx, dy from the centre, the hex is
    |dx| <= 1 and |dx| + |dy| <= 2 (its corners (0, -+2), (+-1, -+1))."""
    dx, dy = abs(x - h.col), abs(y - 3 * h.row)
    if dx < 1 and dx + dy < 2:
        return 2
    if dx <= 1 and dx + dy <= 2:
        return 1
    return 0


def _walk(a: Hex, b: Hex) -> tuple[list[Hex], list[tuple[Hex, Hex]]]:
    """``hexes_crossed`` computed another way. Every side of every hex lies on a line X = k, X + Y = k or
    X - Y = k with k an integer, so the parameters where the segment meets such a line cut it into pieces
    that each lie inside one hex or along one side. The middle of each piece says which."""
    (ax, ay), (bx, by) = (a.col, 3 * a.row), (b.col, 3 * b.row)
    dx, dy = bx - ax, by - ay
    cuts = {Fraction(0), Fraction(1)}
    for start, rate in [(ax, dx), (ax + ay, dx + dy), (ax - ay, dx - dy)]:
        if rate != 0:
            low, high = sorted((start, start + rate))
            cuts |= {Fraction(k - start, rate) for k in range(low, high + 1)}
    ordered = sorted(cuts)
    interior: set[Hex] = set()
    pairs: set[tuple[Hex, Hex]] = set()
    for t0, t1 in itertools.pairwise(ordered):
        t = (t0 + t1) / 2
        x, y = ax + t * dx, ay + t * dy
        # Only the hexes whose centre is within 1 across and 2 up or down can hold the point.
        rows = range(math.ceil((y - 2) / 3), math.floor((y + 2) / 3) + 1)
        near = [
            H(r, c) for r in rows for c in range(math.ceil(x - 1), math.floor(x + 1) + 1) if on_board(H(r, c))
        ]
        inside = [h for h in near if _in_hex(h, x, y) == 2]
        touching = sorted(h for h in near if _in_hex(h, x, y) == 1)
        if inside:
            assert len(inside) == 1 and not touching
            interior.add(inside[0])
        elif len(touching) == 2:
            pairs.add((touching[0], touching[1]))
        else:
            assert len(touching) == 1  # along the board's rim
    interior -= {a, b}
    return sorted(interior), sorted(pairs)


def _expected_runs(a: Hex, b: Hex) -> list[tuple[Hex, Hex]] | None:
    """The sides a segment between centres runs along, in closed form; ``None`` if it runs along none.

    Sides go in three directions: vertical (X constant) and slope +-1. A line between two centres in one of
    them is (0, +-2k) in (row, col) ... i.e. straight down a column, two rows at a time, flanked at each odd
    row by the hexes one column either side; or (+-k, +-3k), flanked at each step by the hex two columns on
    in the starting row and the hex one column on in the next row."""
    dr, dc = b.row - a.row, b.col - a.col
    pairs = []
    if dc == 0 and dr != 0:
        s = 1 if dr > 0 else -1
        for j in range(abs(dr) // 2):
            row = a.row + s * (2 * j + 1)
            pairs.append((H(row, a.col - 1), H(row, a.col + 1)))
    elif dr != 0 and abs(dc) == 3 * abs(dr):
        sr, sc = (1 if dr > 0 else -1), (1 if dc > 0 else -1)
        for j in range(abs(dr)):
            r, c = a.row + sr * j, a.col + 3 * sc * j
            pairs.append(tuple(sorted((H(r, c + 2 * sc), H(r + sr, c + sc)))))  # type: ignore[arg-type]
    else:
        return None
    return sorted(p for p in pairs if on_board(p[0]) and on_board(p[1]))


def _mirror_col(h: Hex) -> Hex:
    return H(h.row, 24 - h.col)


def _mirror_row(h: Hex) -> Hex:
    return H(8 - h.row, h.col)


def test_los_every_pair_against_the_walk_and_the_closed_form() -> None:
    runs = 0
    for i, a in enumerate(ALL_HEXES):
        for b in ALL_HEXES[i + 1 :]:
            interior, edge_pairs = hexes_crossed(a, b)
            assert (interior, edge_pairs) == hexes_crossed(b, a), (a, b)
            assert a not in interior and b not in interior
            assert all(p[0] < p[1] and p[1] in neighbours(p[0]) for p in edge_pairs)
            assert not set(interior) & {h for p in edge_pairs for h in p}
            expected = _expected_runs(a, b)
            if expected is None:
                assert edge_pairs == [], (a, b)
            else:
                assert edge_pairs == expected, (a, b)
                runs += bool(edge_pairs)
            assert (interior, edge_pairs) == _walk(a, b), (a, b)
            # The drawing is symmetric left-right and top-bottom (checked on a quarter of the pairs: slow).
            sampled = (a.row * 7 + a.col * 3 + b.row * 5 + b.col) % 4 == 0
            for mirror in (_mirror_col, _mirror_row) if sampled else ():
                mi, mp = hexes_crossed(mirror(a), mirror(b))
                assert mi == sorted(map(mirror, interior))
                assert mp == sorted(tuple(sorted(map(mirror, p))) for p in edge_pairs)
    assert runs > 100


def test_los_walk_agrees_on_the_hand_drawn_cases() -> None:
    for a, b in [(H(4, 8), H(5, 11)), (H(2, 8), H(6, 8)), (H(0, 0), H(4, 6)), (H(0, 0), H(8, 24))]:
        assert _walk(a, b) == hexes_crossed(a, b)


# ---------------------------------------------------------------------------------------------------------
# The random cases shared with the Rust engine
# ---------------------------------------------------------------------------------------------------------

RANDOM_SEED = 19044
RANDOM_COUNT = 400
_RUN_STEPS = [(2, 0), (-2, 0), (1, 3), (1, -3), (-1, 3), (-1, -3)]


def _pair(h: Hex) -> list[int]:
    return [h.row, h.col]


def random_los_cases(seed: int = RANDOM_SEED, count: int = RANDOM_COUNT) -> list[dict[str, object]]:
    """``count`` cases from a fixed seed. One in three is aimed along hex sides (straight down a column or at
    slope +-1, where the flanking hexes decide); the others join two random hexes, half of them within
    artillery range (6). Blockers are scattered at a random density; in an aimed case the hexes across the
    line are cleared half of the time and each flanking pair is given none, one or both blockers."""
    rng = random.Random(seed)
    cases: list[dict[str, object]] = []
    while len(cases) < count:
        a = rng.choice(ALL_HEXES)
        kind = len(cases) % 3
        if kind == 0:
            dr, dc = rng.choice(_RUN_STEPS)
            k = rng.randint(1, 4)
            b = H(a.row + k * dr, a.col + k * dc)
            if not on_board(b):
                continue
        elif kind == 1:
            b = rng.choice([h for h in ALL_HEXES if 1 <= distance(a, h) <= 6])
        else:
            b = rng.choice([h for h in ALL_HEXES if h != a])
        interior, edge_pairs = hexes_crossed(a, b)
        density = rng.randrange(5)  # in tenths
        blocking = {h for h in ALL_HEXES if h not in (a, b) and rng.randrange(10) < density}
        if kind == 0:
            if rng.randrange(2) == 0:
                blocking -= set(interior)
            for p in edge_pairs:
                choice = rng.randrange(4)  # none, the first, the second, both
                for i, h in enumerate(p):
                    if choice in (i + 1, 3):
                        blocking.add(h)
                    else:
                        blocking.discard(h)
        cases.append(
            {
                "from": _pair(a),
                "to": _pair(b),
                "blockers": [_pair(h) for h in sorted(blocking)],
                "clear": los_clear(a, b, blocking.__contains__),
                "interior": [_pair(h) for h in interior],
                "edge_pairs": [[_pair(p[0]), _pair(p[1])] for p in edge_pairs],
            }
        )
    return cases


def random_file_text(cases: list[dict[str, object]]) -> str:
    """One case per line, so that a change shows as a readable diff."""
    lines = [json.dumps(case, separators=(",", ":")) for case in cases]
    return "[\n" + ",\n".join(lines) + "\n]\n"


def test_random_file_matches_the_oracle() -> None:
    cases = json.loads(RANDOM_FILE.read_text("utf-8"))
    assert len(cases) == RANDOM_COUNT
    for case in cases:
        assert list(case) == ["from", "to", "blockers", "clear", "interior", "edge_pairs"]
        a, b = H(*case["from"]), H(*case["to"])
        blocking = {H(*x) for x in case["blockers"]}
        interior, edge_pairs = hexes_crossed(a, b)
        assert case["interior"] == [_pair(h) for h in interior], case
        assert case["edge_pairs"] == [[_pair(p[0]), _pair(p[1])] for p in edge_pairs], case
        assert case["clear"] == los_clear(a, b, blocking.__contains__), case
        assert case["blockers"] == sorted(case["blockers"]) and a not in blocking and b not in blocking


def test_random_file_is_what_the_generator_writes() -> None:
    cases = random_los_cases()
    assert RANDOM_FILE.read_text("utf-8") == random_file_text(cases)
    with_runs = [c for c in cases if c["edge_pairs"]]
    assert 0.3 <= len(with_runs) / len(cases) <= 0.45
    # The cases that run along sides are decided both ways, and by the flanks alone.
    decided_by_flanks = [
        c for c in with_runs if not {tuple(x) for x in c["interior"]} & {tuple(x) for x in c["blockers"]}
    ]
    assert {c["clear"] for c in decided_by_flanks} == {True, False}
    assert 0.3 <= sum(c["clear"] is True for c in cases) / len(cases) <= 0.8


# ---------------------------------------------------------------------------------------------------------
# The hand-drawn blind cases of another helper (tests/data/memoir44_los_cases.json), if present
# ---------------------------------------------------------------------------------------------------------


# Cases of that file the oracle answers differently on purpose, with its answer; each is marked ambiguous
# in the file. vertex_touch_both_sides: the line passes exactly through a corner of (3,9) on one side and a
# corner of (5,9) on the other; neither hex "crosses this line" (the page), so the oracle says clear; the file
# extends the both-sides rule to corners and says blocked (and BGA blocks on any corner touch).
BLIND_READINGS = {"vertex_touch_both_sides": True}


def test_blind_los_cases() -> None:
    cases = json.loads(BLIND_FILE.read_text("utf-8"))
    if isinstance(cases, dict):
        cases = cases["cases"]
    assert cases
    failures = []
    for case in cases:
        a, b = H(*case["from"]), H(*case["to"])
        blocking = {H(*x) for x in case.get("blockers", [])}
        got: dict[str, object] = {"clear": los_clear(a, b, blocking.__contains__), "distance": distance(a, b)}
        if case.get("name") in BLIND_READINGS:
            assert case.get("ambiguous") is True, case
            assert got["clear"] == BLIND_READINGS[case["name"]], case
            continue
        interior, edge_pairs = hexes_crossed(a, b)
        if "interior" in case:
            got["interior"] = sorted(_pair(h) for h in interior)
            case = {**case, "interior": sorted(case["interior"])}
        if "edge_pairs" in case:
            got["edge_pairs"] = [[_pair(p[0]), _pair(p[1])] for p in edge_pairs]
            case = {**case, "edge_pairs": sorted(sorted(p) for p in case["edge_pairs"])}
        for key, value in got.items():
            if key in case and case[key] != value:
                failures.append(f"{case.get('name')}: {key} {case[key]!r} expected, oracle says {value!r}")
    assert not failures, "\n".join(failures)


# ---------------------------------------------------------------------------------------------------------
# The scenario reader and Pegasus Bridge
# ---------------------------------------------------------------------------------------------------------


def test_pegasus_bridge_game_info() -> None:
    s = pegasus_bridge()
    assert (s.top_side, s.bottom_side, s.starting_side) == (AXIS, ALLIES, ALLIES)  # Allies move first
    assert s.cards == {AXIS: 2, ALLIES: 6}
    assert s.victory == {AXIS: 4, ALLIES: 4}


def test_pegasus_bridge_hexes() -> None:
    # bga_games.md §7.3, typed from its table.
    s = pegasus_bridge()
    assert len(s.hexes) == 49
    by_terrain: dict[str, list[Hex]] = {}
    for h, setup in s.hexes.items():
        if setup.terrain is not None:
            by_terrain.setdefault(setup.terrain.name, []).append(h)
    assert by_terrain["buildings"] == [H(0, 0), H(0, 2), H(2, 4), H(4, 0)]
    assert by_terrain["woods"] == sorted(
        H(*x) for x in [(0, 10), (0, 12), (1, 11), (3, 19), (4, 10), (7, 17), (7, 21), (8, 16), (8, 22)]
    )
    canal = [(1, 7), (2, 6), (3, 5), (4, 4), (5, 3), (6, 2), (7, 1), (8, 0)]
    orne = [(3, 23), (4, 22), (5, 21), (6, 20), (7, 19), (8, 18)]
    assert by_terrain["river"] == sorted(H(*x) for x in canal + orne)
    assert by_terrain["curve"] == sorted(H(*x) for x in [(0, 8), (2, 24), (5, 11), (5, 13), (6, 10), (6, 12)])
    assert set(by_terrain) == {"buildings", "woods", "river", "curve"}
    assert all(s.setup(h).terrain.kind == "river" for h in by_terrain["curve"])  # type: ignore[union-attr]
    bridges = [h for h, setup in s.hexes.items() if setup.rect_terrain is not None]
    assert bridges == [H(2, 6), H(5, 21)]
    assert all(s.setup(h).rect_terrain.name == "bridge" for h in bridges)  # type: ignore[union-attr]
    assert s.medal_hexes() == bridges  # the two bridge medals
    assert all(s.setup(h).tags == ("medal1",) for h in bridges)
    obstacles = {h: setup.obstacle.kind for h, setup in s.hexes.items() if setup.obstacle is not None}
    assert obstacles == {
        H(2, 10): "wire",
        H(3, 9): "wire",
        H(4, 6): "wire",
        H(4, 8): "wire",
        H(3, 7): "sandbags",
    }
    assert s.setup(H(4, 12)).terrain is None and s.setup(H(4, 12)).unit is None  # open countryside
    assert s.labels[2].hex == H(2, 6) and s.labels[2].text == ("Pegasus", "  Bridge")


def test_pegasus_bridge_units() -> None:
    s = pegasus_bridge()
    assert s.units(AXIS) == sorted(H(*x) for x in [(0, 0), (1, 21), (2, 4), (2, 8), (3, 7), (6, 24)])
    allied = [(5, 5), (6, 4), (6, 6), (7, 9), (7, 11), (7, 15), (8, 10), (8, 14), (8, 16)]
    assert s.units(ALLIES) == sorted(H(*x) for x in allied)
    for h in s.units(AXIS) + s.units(ALLIES):
        unit = s.setup(h).unit
        assert unit is not None and unit.kind == "infantry" and not unit.elite and unit.figures == 4
        assert unit.name == ("infger" if unit.side == AXIS else "infus")


def _edited(edit: object) -> str:
    data = json.loads(pegasus_bridge_text())
    edit(data)  # type: ignore[operator]
    return json.dumps(data)


def test_pegasus_bridge_axis_draws_two_after_its_first_two_turns() -> None:
    # The briefing: "Axis Player: Take 2 command cards ... Draw two cards after turns 1 and 2" (§6.1).
    assert pegasus_bridge().extra_draws == {AXIS: (1, 1), ALLIES: ()}


def test_home_made_scenario_reads_with_hills_hedgerows_and_armor() -> None:
    path = Path(__file__).parents[1] / "python/meeplex/data/memoir44_home_hills.json"
    s = load_scenario(path.read_text())
    terrain = Counter(setup.terrain.kind for setup in s.hexes.values() if setup.terrain is not None)
    assert (terrain["hill"], terrain["hedgerow"]) == (7, 5)
    for side in (AXIS, ALLIES):
        kinds = {s.setup(h).unit.kind for h in s.units(side)}  # type: ignore[union-attr]
        assert {"armor", "artillery"} <= kinds
    assert (len(s.units(AXIS)), len(s.units(ALLIES))) == (8, 9)


def test_an_unedited_copy_reads_the_same() -> None:
    assert load_scenario(_edited(lambda d: None)) == pegasus_bridge()


@pytest.mark.parametrize(
    ("what", "edit"),
    [
        ("unknown top-level field", lambda d: d.update(extra=1)),
        ("unknown game_info field", lambda d: d["game_info"].update(options={"blitz_rules": True})),
        ("missing cards", lambda d: d["game_info"].pop("cards_player1")),
        ("cards as a bool", lambda d: d["game_info"].update(cards_player1=True)),
        ("unknown starting", lambda d: d["game_info"].update(starting="PLAYER3")),
        ("same side twice", lambda d: d["game_info"].update(side_player2="AXIS")),
        ("another victory rule", lambda d: d["game_info"].update(victory_conditions=[{"sudden_death": []}])),
        ("unknown board type", lambda d: d["board"].update(type="OVERLORD")),
        ("unknown board face", lambda d: d["board"].update(face="BEACH")),
        ("unknown board field", lambda d: d["board"].update(extra=[])),
        ("unknown hex field", lambda d: d["board"]["hexagons"][0].update(behavior="X")),
        ("unknown terrain", lambda d: d["board"]["hexagons"][0]["terrain"].update(name="jungle")),
        ("terrain name as obstacle", lambda d: d["board"]["hexagons"][0].update(obstacle={"name": "woods"})),
        ("unknown terrain field", lambda d: d["board"]["hexagons"][0]["terrain"].update(behavior="X")),
        ("orientation 7", lambda d: d["board"]["hexagons"][2]["terrain"].update(orientation=7)),
        ("unknown unit type", lambda d: d["board"]["hexagons"][0]["unit"].update(name="cavger")),
        ("unknown nation", lambda d: d["board"]["hexagons"][0]["unit"].update(name="infxx")),
        ("unknown unit field", lambda d: d["board"]["hexagons"][0]["unit"].update(badge="badge3")),
        ("unknown tag", lambda d: d["board"]["hexagons"][9]["tags"].append({"name": "tag14"})),
        ("hex off the grid", lambda d: d["board"]["hexagons"][0].update(col=1)),
        ("hex off the board", lambda d: d["board"]["hexagons"][0].update(row=9, col=1)),
        ("hex twice", lambda d: d["board"]["hexagons"].append({"row": 0, "col": 0})),
        ("bridge over nothing", lambda d: d["board"]["hexagons"][9].pop("terrain")),
        ("label off the board", lambda d: d["board"]["labels"][0].update(col=25)),
        ("extra draws of 11", lambda d: d["game_info"].update(extra_draws_player2=[1, 11])),
        ("extra draws not a list", lambda d: d["game_info"].update(extra_draws_player2=1)),
    ],
)
def test_load_scenario_refuses(what: str, edit: object) -> None:
    with pytest.raises(InvalidStateError):
        load_scenario(_edited(edit))


def test_load_scenario_refuses_a_duplicate_key_and_non_json() -> None:
    text = pegasus_bridge_text().replace('"front": "WESTERN",', '"front": "WESTERN", "front": "EASTERN",')
    assert text != pegasus_bridge_text()
    with pytest.raises(InvalidStateError):
        load_scenario(text)
    with pytest.raises(InvalidStateError):
        load_scenario("{")
    with pytest.raises(InvalidStateError):
        load_scenario("[]")


def test_load_scenario_reads_other_known_pieces() -> None:
    # A hill with a hedgerow-free armour unit and an artillery unit, as a second scenario would put them.
    def edit(d: dict) -> None:  # type: ignore[type-arg]
        d["board"]["hexagons"].append(
            {"row": 4, "col": 12, "terrain": {"name": "hills"}, "unit": {"name": "tankus"}}
        )
        d["board"]["hexagons"].append(
            {"row": 4, "col": 14, "terrain": {"name": "hedgerow"}, "unit": {"name": "gunger"}}
        )

    s = load_scenario(_edited(edit))
    tank, gun = s.setup(H(4, 12)), s.setup(H(4, 14))
    assert tank.terrain is not None and tank.terrain.kind == "hill"
    assert tank.unit is not None and (tank.unit.kind, tank.unit.side, tank.unit.figures) == (
        "armor",
        ALLIES,
        3,
    )
    assert gun.unit is not None and (gun.unit.kind, gun.unit.side, gun.unit.figures) == ("artillery", AXIS, 2)


def _regen() -> None:
    DATA.mkdir(exist_ok=True)
    RANDOM_FILE.write_text(random_file_text(random_los_cases()), "utf-8")
    print(f"wrote {RANDOM_FILE}")


if __name__ == "__main__":
    if sys.argv[1:] == ["--regen"]:
        _regen()
    else:
        sys.exit("usage: python tests/test_memoir44_board.py --regen")
