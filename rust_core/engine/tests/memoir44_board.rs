//! Memoir '44 board layer (issue 19): hex coordinates, neighbours, distances, sections, line-of-sight
//! geometry (hand-drawn cases and an independent check by sampling points along the segment), and the
//! Pegasus Bridge scenario file.
//!
//! Geometry of the hand-drawn cases: the centre of hex (row, col) is the point X = col, Y = 3·row (Y grows
//! downwards, as on the screen); a hex has the vertices (X, Y ± 2) and (X ± 1, Y ± 1).

use meeplex_engine::games::memoir44::{
    hexes_crossed, los_clear, pegasus_bridge, sections, sections_for, Face, Hex, ObstacleKind,
    RectKind, Scenario, Side, TerrainKind, UnitKind, CENTER, LEFT, NUM_HEXES, PEGASUS_BRIDGE_TEXT,
    RIGHT,
};
use meeplex_engine::GameError;
use serde_json::Value;
use std::collections::{BTreeSet, HashMap, VecDeque};

fn h(row: i8, col: i8) -> Hex {
    Hex::new(row, col)
}

fn blocks_in(list: &[Hex]) -> impl Fn(Hex) -> bool + '_ {
    move |x| list.contains(&x)
}

// ---------------------------------------------------------------- hexes

#[test]
fn the_board_has_113_hexes_densely_indexed() {
    let all: Vec<Hex> = Hex::all().collect();
    assert_eq!(all.len(), NUM_HEXES);
    assert_eq!(NUM_HEXES, 113);
    for (i, &x) in all.iter().enumerate() {
        assert!(x.on_board());
        assert_eq!(x.index(), Some(i));
        assert_eq!(Hex::from_index(i), Some(x));
    }
    assert_eq!(Hex::from_index(113), None);
    assert_eq!(h(0, 0).index(), Some(0));
    assert_eq!(h(0, 24).index(), Some(12));
    assert_eq!(h(1, 1).index(), Some(13));
    assert_eq!(h(1, 23).index(), Some(24));
    assert_eq!(h(2, 0).index(), Some(25));
    assert_eq!(h(8, 24).index(), Some(112));
    // Off the board: wrong parity, past an edge.
    for x in [
        h(0, 1),
        h(1, 0),
        h(1, 25),
        h(0, 26),
        h(-1, 1),
        h(9, 1),
        h(1, -1),
        h(4, 13),
    ] {
        assert!(!x.on_board(), "{x:?}");
        assert_eq!(x.index(), None);
    }
    // Even rows hold 13 hexes, odd rows 12.
    for row in 0..=8i8 {
        let n = all.iter().filter(|x| x.row == row).count();
        assert_eq!(n, if row % 2 == 0 { 13 } else { 12 }, "row {row}");
    }
}

#[test]
fn neighbour_counts_at_corners_edges_and_middle() {
    let count = |x: Hex| x.neighbours().count();
    // Corners: two neighbours each.
    for c in [h(0, 0), h(0, 24), h(8, 0), h(8, 24)] {
        assert_eq!(count(c), 2, "{c:?}");
    }
    let n: BTreeSet<Hex> = h(0, 0).neighbours().collect();
    assert_eq!(n, [h(0, 2), h(1, 1)].into_iter().collect());
    // Left edge: an even row (the hex juts out) has 3, an odd row (set in) has 5.
    assert_eq!(count(h(2, 0)), 3);
    assert_eq!(count(h(1, 1)), 5);
    let n: BTreeSet<Hex> = h(1, 1).neighbours().collect();
    assert_eq!(
        n,
        [h(0, 0), h(0, 2), h(1, 3), h(2, 0), h(2, 2)]
            .into_iter()
            .collect()
    );
    assert_eq!(count(h(3, 23)), 5);
    assert_eq!(count(h(4, 24)), 3);
    // Top and bottom edges: 4.
    assert_eq!(count(h(0, 10)), 4);
    assert_eq!(count(h(8, 12)), 4);
    // The middle: 6.
    let n: BTreeSet<Hex> = h(4, 12).neighbours().collect();
    assert_eq!(
        n,
        [h(3, 11), h(3, 13), h(4, 10), h(4, 14), h(5, 11), h(5, 13)]
            .into_iter()
            .collect()
    );
    // Adjacency is symmetric, always at distance 1; 6·113 minus the missing ones, counted twice.
    let mut total = 0;
    for a in Hex::all() {
        for b in a.neighbours() {
            assert!(b.on_board());
            assert!(b.neighbours().any(|x| x == a));
            assert_eq!(a.distance(b), 1);
            total += 1;
        }
    }
    // Pairs: within a row 5 × 12 (even rows) + 4 × 11 (odd rows) = 104; between rows, each of the 12
    // hexes of an odd row touches 2 of each even row next to it: 8 gaps × 24 = 192.
    assert_eq!(total, 2 * (104 + 192));
}

#[test]
fn distances_by_formula_and_by_breadth_first_search() {
    assert_eq!(h(4, 12).distance(h(4, 12)), 0);
    assert_eq!(h(0, 0).distance(h(0, 24)), 12);
    assert_eq!(h(0, 0).distance(h(8, 0)), 8);
    assert_eq!(h(0, 0).distance(h(8, 24)), 16);
    assert_eq!(h(0, 0).distance(h(8, 8)), 8);
    assert_eq!(h(4, 10).distance(h(5, 13)), 2);
    assert_eq!(h(4, 10).distance(h(2, 10)), 2);
    assert_eq!(h(5, 5).distance(h(2, 8)), 3);
    assert_eq!(h(0, 0).distance(h(1, 9)), 5);
    for a in Hex::all() {
        let mut d = HashMap::from([(a, 0)]);
        let mut q = VecDeque::from([a]);
        while let Some(x) = q.pop_front() {
            for y in x.neighbours() {
                if !d.contains_key(&y) {
                    d.insert(y, d[&x] + 1);
                    q.push_back(y);
                }
            }
        }
        assert_eq!(d.len(), NUM_HEXES);
        for (b, n) in d {
            assert_eq!(a.distance(b), n, "{a:?} {b:?}");
            assert_eq!(b.distance(a), n);
        }
    }
}

#[test]
fn sections_straddle_cols_7_and_17_and_mirror_for_the_top_player() {
    assert_eq!(sections(h(0, 0)), [true, false, false]);
    assert_eq!(sections(h(4, 6)), [true, false, false]);
    assert_eq!(sections(h(3, 7)), [true, true, false]);
    assert_eq!(sections(h(4, 8)), [false, true, false]);
    assert_eq!(sections(h(4, 16)), [false, true, false]);
    assert_eq!(sections(h(7, 17)), [false, true, true]);
    assert_eq!(sections(h(8, 18)), [false, false, true]);
    assert_eq!(sections(h(8, 24)), [false, false, true]);
    // The top player's left is the bottom player's right.
    assert_eq!(sections_for(h(0, 0), true), [false, false, true]);
    assert_eq!(sections_for(h(3, 7), true), [false, true, true]);
    assert_eq!(sections_for(h(7, 17), true), [true, true, false]);
    assert_eq!(sections_for(h(8, 24), true), [true, false, false]);
    for x in Hex::all() {
        let s = sections(x);
        assert_eq!(sections_for(x, false), s);
        let t = sections_for(x, true);
        assert_eq!(
            (t[LEFT], t[CENTER], t[RIGHT]),
            (s[RIGHT], s[CENTER], s[LEFT])
        );
        let n = s.iter().filter(|&&b| b).count();
        assert_eq!(n, if x.col == 7 || x.col == 17 { 2 } else { 1 }, "{x:?}");
    }
    // Hexes per section: left cols 0..=7 hold 4 hexes a row (even rows 0,2,4,6; odd rows 1,3,5,7).
    let left = Hex::all().filter(|&x| sections(x)[LEFT]).count();
    assert_eq!(left, 9 * 4);
    let centre = Hex::all().filter(|&x| sections(x)[CENTER]).count();
    // Cols 7..=17: even rows 8..=16 (5 hexes), odd rows 7..=17 (6 hexes).
    assert_eq!(centre, 5 * 5 + 4 * 6);
}

// ---------------------------------------------------------------- line of sight, hand drawn

#[test]
fn a_shot_along_a_row_is_blocked_by_a_unit_in_the_row_only() {
    // (4,4) -> (4,10): the horizontal segment Y = 12 from X = 4 to X = 10 passes through the centres of
    // (4,6) and (4,8). The hexes of rows 3 and 5 reach only Y = 11 and Y = 13: the segment misses them.
    let (a, b) = (h(4, 4), h(4, 10));
    assert_eq!(a.distance(b), 3);
    assert_eq!(hexes_crossed(a, b), (vec![h(4, 6), h(4, 8)], vec![]));
    assert!(los_clear(a, b, |_| false));
    assert!(!los_clear(a, b, blocks_in(&[h(4, 8)])));
    assert!(!los_clear(a, b, blocks_in(&[h(4, 6)])));
    // Blockers all round the row but not in it.
    let around = [
        h(3, 5),
        h(3, 7),
        h(3, 9),
        h(5, 5),
        h(5, 7),
        h(5, 9),
        h(4, 2),
        h(4, 12),
    ];
    assert!(los_clear(a, b, blocks_in(&around)));
    // The end hexes never block.
    assert!(los_clear(a, b, blocks_in(&[a, b])));
}

#[test]
fn the_classic_edge_case_one_side_blocked_is_clear_both_blocked() {
    // (4,10) -> (5,13): centres (10,12) -> (13,15), the line Y - 12 = X - 10. It leaves (4,10) through its
    // vertex (11,13), runs along the side (11,13)-(12,14) and enters (5,13) through its vertex (12,14). That
    // side is the lower-left side of (4,12) (centre (12,12), up and right of the line: the left side when
    // travelling down-right) and the upper-right side of (5,11) (centre (11,15), the right side).
    let (a, b) = (h(4, 10), h(5, 13));
    assert_eq!(a.distance(b), 2);
    assert_eq!(hexes_crossed(a, b), (vec![], vec![(h(4, 12), h(5, 11))]));
    assert!(los_clear(a, b, |_| false));
    assert!(los_clear(a, b, blocks_in(&[h(4, 12)])));
    assert!(los_clear(a, b, blocks_in(&[h(5, 11)])));
    assert!(!los_clear(a, b, blocks_in(&[h(4, 12), h(5, 11)])));
    // Back the other way: the same side, the pair seen the other way round.
    assert_eq!(hexes_crossed(b, a), (vec![], vec![(h(5, 11), h(4, 12))]));
    assert!(!los_clear(b, a, blocks_in(&[h(4, 12), h(5, 11)])));
    // The mirror image (down-left): (4,10) -> (5,7) runs along the side between (4,8) and (5,9).
    assert_eq!(
        hexes_crossed(h(4, 10), h(5, 7)),
        (vec![], vec![(h(5, 9), h(4, 8))])
    );
    assert!(!los_clear(
        h(4, 10),
        h(5, 7),
        blocks_in(&[h(4, 8), h(5, 9)])
    ));
    assert!(los_clear(
        h(4, 10),
        h(5, 7),
        blocks_in(&[h(4, 8), h(4, 12)])
    ));
}

#[test]
fn a_shot_straight_up_a_column_runs_along_vertical_sides() {
    // (4,10) -> (2,10): the vertical segment X = 10 from Y = 12 up to Y = 6. It leaves (4,10) through its
    // top vertex (10,10), runs along the side X = 10, Y 8..10 between (3,9) (left of the walker going up)
    // and (3,11), and enters (2,10) through its bottom vertex (10,8).
    let (a, b) = (h(4, 10), h(2, 10));
    assert_eq!(a.distance(b), 2);
    assert_eq!(hexes_crossed(a, b), (vec![], vec![(h(3, 9), h(3, 11))]));
    assert!(los_clear(a, b, blocks_in(&[h(3, 9)])));
    assert!(los_clear(a, b, blocks_in(&[h(3, 11)])));
    assert!(!los_clear(a, b, blocks_in(&[h(3, 9), h(3, 11)])));
    // Down column 0 the line runs along the outer edge of the board: the hex outside, (1,-1), holds
    // nothing, so the shot is never blocked there.
    let (a, b) = (h(0, 0), h(2, 0));
    assert_eq!(hexes_crossed(a, b), (vec![], vec![(h(1, 1), h(1, -1))]));
    assert!(los_clear(a, b, |_| true));
}

#[test]
fn a_shot_through_a_vertex_touches_the_third_hex_without_crossing_it() {
    // (0,0) -> (1,9): centres (0,0) -> (9,3), the line Y = X / 3. It leaves (0,0) through its right side
    // (X = 1) into (0,2) and reaches the vertex (3,1) where (0,2), (0,4) and (1,3) meet; it goes on into
    // (0,4) (the side (3,1)-(4,2) between (0,4) and (1,3) is steeper), so (1,3), centre (3,3), below the
    // line, touches it at that vertex only. It leaves (0,4) across the side (5,1)-(4,2) into (1,5) and
    // reaches the vertex (6,2) of (1,5), (0,6) and (1,7); it goes on into (1,7), so (0,6), centre (6,0),
    // above the line, touches it at that vertex only; then across the side X = 8 into (1,9).
    // (BGA's Board::getCellsInLine calls a one-vertex touch LINE_CORNER and blocks with it; vertex-only
    // touches first happen at range 5.)
    let (a, b) = (h(0, 0), h(1, 9));
    assert_eq!(a.distance(b), 5);
    assert_eq!(
        hexes_crossed(a, b),
        (vec![h(0, 2), h(0, 4), h(1, 5), h(1, 7)], vec![])
    );
    assert!(los_clear(a, b, blocks_in(&[h(1, 3)])));
    assert!(los_clear(a, b, blocks_in(&[h(1, 3), h(0, 6)])));
    assert!(!los_clear(a, b, blocks_in(&[h(0, 2)])));
    assert!(!los_clear(a, b, blocks_in(&[h(0, 4)])));
    assert!(!los_clear(a, b, blocks_in(&[h(1, 5)])));
}

#[test]
fn adjacent_hexes_always_see_each_other() {
    for a in Hex::all() {
        assert_eq!(hexes_crossed(a, a), (vec![], vec![]));
        assert!(los_clear(a, a, |_| true));
        for b in a.neighbours() {
            assert_eq!(hexes_crossed(a, b), (vec![], vec![]), "{a:?} {b:?}");
            assert!(los_clear(a, b, |_| true));
        }
    }
}

#[test]
fn a_straight_hex_line_crosses_the_hexes_in_between() {
    // (4,10) -> (1,13): centres (10,12) -> (13,3), the direction (1,-3) of the step to the upper-right
    // neighbour. The line passes through the centres of (3,11) and (2,12) and crosses each side it meets at
    // its midpoint.
    let (a, b) = (h(4, 10), h(1, 13));
    assert_eq!(a.distance(b), 3);
    assert_eq!(hexes_crossed(a, b), (vec![h(3, 11), h(2, 12)], vec![]));
    assert!(!los_clear(a, b, blocks_in(&[h(2, 12)])));
    assert!(los_clear(
        a,
        b,
        blocks_in(&[h(3, 9), h(3, 13), h(2, 10), h(2, 14), h(1, 11)])
    ));
    // The long diagonal corner to corner (8,0) -> (0,8): seven hexes in a row.
    let (interior, edges) = hexes_crossed(h(8, 0), h(0, 8));
    assert_eq!(interior, (1..=7).map(|k| h(8 - k, k)).collect::<Vec<_>>());
    assert!(edges.is_empty());
}

#[test]
fn the_longest_diagonal_alternates_between_sides_and_hexes() {
    // (8,0) -> (0,24): centres (0,24) -> (24,0), the line X + Y = 24, direction (1,-1), parallel to the
    // upper-right sides. It passes through the centres of (7,3), (6,6), .., (1,21) (Y = 3r, X = 24 - 3r) and
    // between them runs along one side each: the side (1+3k, 23-3k)-(2+3k, 22-3k) between
    // (7-k, 1+3k) (left of the walker going up-right) and (8-k, 2+3k).
    let (a, b) = (h(8, 0), h(0, 24));
    assert_eq!(a.distance(b), 16);
    let (interior, edges) = hexes_crossed(a, b);
    assert_eq!(
        interior,
        (1..=7).map(|r| h(8 - r, 3 * r)).collect::<Vec<_>>()
    );
    assert_eq!(
        edges,
        (0..8)
            .map(|k| (h(7 - k, 1 + 3 * k), h(8 - k, 2 + 3 * k)))
            .collect::<Vec<_>>()
    );
    let lefts: Vec<Hex> = edges.iter().map(|e| e.0).collect();
    let rights: Vec<Hex> = edges.iter().map(|e| e.1).collect();
    assert!(los_clear(a, b, blocks_in(&lefts)));
    assert!(los_clear(a, b, blocks_in(&rights)));
    assert!(!los_clear(a, b, blocks_in(&[lefts[5], rights[5]])));
    assert!(!los_clear(a, b, blocks_in(&[h(4, 12)])));
}

#[test]
fn blockers_along_the_line_pool_left_against_right() {
    // (0,0) -> (2,6): centres (0,0) -> (6,6), direction (1,1). Side (1,1)-(2,2) between (0,2) [left] and
    // (1,1); the centre of (1,3); side (4,4)-(5,5) between (1,5) [left] and (2,4). The rulebook: "not
    // blocked unless the obstructions stand somewhere along both sides of the line segment": one blocker on
    // the left of the first side and one on the right of the second block together (as BGA's
    // Board::isInLineOfSight, one left and one right flag); blockers on one side only do not.
    let (a, b) = (h(0, 0), h(2, 6));
    assert_eq!(a.distance(b), 4);
    assert_eq!(
        hexes_crossed(a, b),
        (vec![h(1, 3)], vec![(h(0, 2), h(1, 1)), (h(1, 5), h(2, 4))])
    );
    assert!(!los_clear(a, b, blocks_in(&[h(0, 2), h(2, 4)])));
    assert!(!los_clear(a, b, blocks_in(&[h(1, 5), h(2, 4)])));
    assert!(los_clear(a, b, blocks_in(&[h(0, 2), h(1, 5)])));
    assert!(los_clear(a, b, blocks_in(&[h(1, 1), h(2, 4)])));
    assert!(!los_clear(a, b, blocks_in(&[h(1, 3)])));
}

// ---------------------------------------------------------------- line of sight, independent checks

/// Sign of the cross product (b - a) × (p - a), with p scaled by `n` (a and b are not).
fn orient(a: (i64, i64), b: (i64, i64), p: (i64, i64), n: i64) -> i64 {
    ((b.0 - a.0) * (p.1 - n * a.1) - (b.1 - a.1) * (p.0 - n * a.0)).signum()
}

/// Where the point `p / n` is relative to hex `x`: 2 strictly inside, 1 on a side (not a vertex, and then
/// which side), 0 outside or at a vertex.
fn locate(x: Hex, p: (i64, i64), n: i64) -> (u8, usize) {
    let v = x.corners();
    let s: Vec<i64> = (0..6).map(|i| orient(v[i], v[(i + 1) % 6], p, n)).collect();
    // The corners go clockwise on the screen, so the inside is where every orientation is positive.
    if s.iter().all(|&o| o > 0) {
        return (2, 0);
    }
    let zeros: Vec<usize> = (0..6).filter(|&i| s[i] == 0).collect();
    if zeros.len() == 1 && s.iter().all(|&o| o >= 0) {
        return (1, zeros[0]);
    }
    (0, 0)
}

/// The hexes crossed and the sides run along, found by sampling 2·|d|² + 1 points along the segment
/// (enough to land inside every chord: a chord cut off near a vertex is at least 2/|d| long, as the vertex
/// is at least 1/|d| from the line and no angle of a hex is below 90° in this plane).
fn sampled(a: Hex, b: Hex) -> (BTreeSet<Hex>, BTreeSet<(Hex, Hex)>) {
    let (ax, ay) = a.centre();
    let (bx, by) = b.centre();
    let (dx, dy) = (bx - ax, by - ay);
    let n = 2 * (dx * dx + dy * dy);
    let (mut inside, mut sides) = (BTreeSet::new(), BTreeSet::new());
    for k in 1..n {
        let p = (n * ax + k * dx, n * ay + k * dy);
        let (r0, c0) = ((p.1 / n / 3) as i8, (p.0 / n) as i8);
        for row in r0 - 1..=r0 + 2 {
            for col in c0 - 2..=c0 + 2 {
                if (row + col).rem_euclid(2) != 0 {
                    continue;
                }
                let x = h(row, col);
                match locate(x, p, n) {
                    (2, _) if x != a && x != b => {
                        inside.insert(x);
                    }
                    (1, i) => {
                        let v = x.corners();
                        let e = (v[(i + 1) % 6].0 - v[i].0, v[(i + 1) % 6].1 - v[i].1);
                        let centre = x.centre();
                        let left = dx * (centre.1 - ay) - dy * (centre.0 - ax) < 0;
                        // Only a side parallel to the segment is run along; report it from its left hex.
                        if e.0 * dy - e.1 * dx == 0 && left {
                            let steps = [(-1, 1), (0, 2), (1, 1), (1, -1), (0, -2), (-1, -1)];
                            let (sr, sc) = steps[i];
                            sides.insert((x, h(row + sr, col + sc)));
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    (inside, sides)
}

#[test]
fn the_geometry_matches_sampling_for_every_shot_up_to_range_6() {
    let mut shots = 0;
    for a in Hex::all() {
        for b in Hex::all() {
            let d = a.distance(b);
            if !(2..=6).contains(&d) {
                continue;
            }
            shots += 1;
            let (interior, edges) = hexes_crossed(a, b);
            let (inside, sides) = sampled(a, b);
            assert_eq!(
                interior.iter().copied().collect::<BTreeSet<_>>(),
                inside,
                "{a:?} -> {b:?}"
            );
            assert_eq!(interior.len(), inside.len(), "duplicates {a:?} -> {b:?}");
            assert_eq!(
                edges.iter().copied().collect::<BTreeSet<_>>(),
                sides,
                "{a:?} -> {b:?}"
            );
            // Every hex listed touches the shot's band: no further from either end than the shot is long.
            for &x in interior
                .iter()
                .chain(edges.iter().flat_map(|e| [&e.0, &e.1]))
            {
                assert!(
                    a.distance(x) < d && b.distance(x) < d,
                    "{a:?} -> {b:?}: {x:?}"
                );
            }
        }
    }
    assert!(shots > 5000, "{shots}");
}

#[test]
fn the_geometry_is_symmetric_and_los_follows_the_rule() {
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for a in Hex::all() {
        for b in Hex::all() {
            let (interior, edges) = hexes_crossed(a, b);
            let (back_interior, back_edges) = hexes_crossed(b, a);
            let set = |v: &[Hex]| v.iter().copied().collect::<BTreeSet<_>>();
            assert_eq!(set(&interior), set(&back_interior), "{a:?} {b:?}");
            let swapped: BTreeSet<(Hex, Hex)> = back_edges.iter().map(|&(l, r)| (r, l)).collect();
            assert_eq!(edges.iter().copied().collect::<BTreeSet<_>>(), swapped);
            if a.distance(b) > 8 {
                continue;
            }
            // Random blockers (about one hex in three): los_clear is the rule applied to hexes_crossed,
            // asks only about on-board hexes other than the ends, and is the same both ways.
            let blockers: BTreeSet<Hex> = Hex::all().filter(|_| next() % 3 == 0).collect();
            let asked = std::cell::RefCell::new(Vec::new());
            let blocks = |x: Hex| {
                asked.borrow_mut().push(x);
                blockers.contains(&x)
            };
            let clear = los_clear(a, b, blocks);
            for &x in asked.borrow().iter() {
                assert!(x.on_board() && x != a && x != b, "asked about {x:?}");
            }
            let bl = |x: &Hex| x.on_board() && blockers.contains(x);
            let both_sides = edges.iter().any(|(l, _)| bl(l)) && edges.iter().any(|(_, r)| bl(r));
            let expected = !(interior.iter().any(bl) || both_sides);
            assert_eq!(clear, expected, "{a:?} -> {b:?}");
            assert_eq!(los_clear(b, a, |x| blockers.contains(&x)), clear);
        }
    }
}

// ---------------------------------------------------------------- the Pegasus Bridge scenario

fn pegasus() -> Scenario {
    pegasus_bridge().expect("the shipped Pegasus Bridge file reads")
}

#[test]
fn pegasus_bridge_game_info() {
    let s = pegasus();
    assert_eq!(s.info.sides, [Side::Axis, Side::Allies]);
    assert_eq!(s.top_side(), Side::Axis);
    assert_eq!(s.bottom_side(), Side::Allies);
    assert_eq!(s.player_of(Side::Allies), 1);
    assert_eq!(s.info.cards, [2, 6]);
    assert_eq!(s.info.victory, [4, 4]);
    assert_eq!(s.info.starting, 1);
    assert_eq!(s.starting_side(), Side::Allies);
    assert_eq!(s.face, Face::Country);
    assert_eq!(s.labels.len(), 8);
    assert!(s
        .labels
        .contains(&(h(2, 6), vec!["Pegasus".to_string(), "  Bridge".to_string()])));
}

#[test]
fn pegasus_bridge_terrain() {
    let s = pegasus();
    let with_terrain: Vec<(Hex, TerrainKind)> = s
        .hexes()
        .filter_map(|(x, d)| d.terrain.map(|t| (x, t.kind)))
        .collect();
    assert_eq!(with_terrain.len(), 33);
    let of = |k: TerrainKind| -> Vec<Hex> {
        with_terrain
            .iter()
            .filter(|(_, t)| *t == k)
            .map(|(x, _)| *x)
            .collect()
    };
    assert_eq!(
        of(TerrainKind::Village),
        vec![h(0, 0), h(0, 2), h(2, 4), h(4, 0)]
    );
    assert_eq!(
        of(TerrainKind::Forest),
        vec![
            h(0, 10),
            h(0, 12),
            h(1, 11),
            h(3, 19),
            h(4, 10),
            h(7, 17),
            h(7, 21),
            h(8, 16),
            h(8, 22)
        ]
    );
    assert_eq!(of(TerrainKind::River).len(), 14);
    assert_eq!(
        of(TerrainKind::RiverCurve),
        vec![h(0, 8), h(2, 24), h(5, 11), h(5, 13), h(6, 10), h(6, 12)]
    );
    // The Caen canal runs diagonally from (1,7) to (8,0), the Orne from (3,23) to (8,18).
    for k in 0..8 {
        assert!(of(TerrainKind::River).contains(&h(1 + k, 7 - k)));
    }
    for k in 0..6 {
        assert!(of(TerrainKind::River).contains(&h(3 + k, 23 - k)));
    }
    assert!(with_terrain.iter().all(|(x, _)| x.on_board()));
    let t = s.hex(h(1, 7)).unwrap().terrain.unwrap();
    assert_eq!(t.orientation, Some(2));
    assert_eq!(s.hex(h(0, 10)).unwrap().terrain.unwrap().orientation, None);
    // Bridges over the river, each with an Allied temporary medal.
    let bridges: Vec<Hex> = s
        .hexes()
        .filter(|(_, d)| d.rect_terrain.is_some_and(|r| r.kind == RectKind::Bridge))
        .map(|(x, _)| x)
        .collect();
    assert_eq!(bridges, vec![h(2, 6), h(5, 21)]);
    for &b in &bridges {
        let d = s.hex(b).unwrap();
        assert!(d.terrain.unwrap().kind.is_river());
        assert_eq!(d.rect_terrain.unwrap().orientation, Some(5));
    }
    assert_eq!(
        s.medals(),
        vec![(h(2, 6), Side::Allies), (h(5, 21), Side::Allies)]
    );
    // Obstacles: 4 wire, 1 sandbags (under the Axis unit at (3,7)).
    let obstacles = |k: ObstacleKind| -> Vec<Hex> {
        s.hexes()
            .filter(|(_, d)| d.obstacle.is_some_and(|o| o.kind == k))
            .map(|(x, _)| x)
            .collect()
    };
    assert_eq!(
        obstacles(ObstacleKind::Wire),
        vec![h(2, 10), h(3, 9), h(4, 6), h(4, 8)]
    );
    assert_eq!(obstacles(ObstacleKind::Sandbags), vec![h(3, 7)]);
    assert_eq!(s.hex(h(3, 7)).unwrap().unit.unwrap().side, Side::Axis);
    assert_eq!(s.hex(h(9, 1)), None);
}

#[test]
fn pegasus_bridge_units() {
    let s = pegasus();
    let axis = s.units(Side::Axis);
    let allies = s.units(Side::Allies);
    assert_eq!(axis.len(), 6);
    assert_eq!(allies.len(), 9);
    assert_eq!(
        axis.iter().map(|u| u.0).collect::<Vec<_>>(),
        vec![h(0, 0), h(1, 21), h(2, 4), h(2, 8), h(3, 7), h(6, 24)]
    );
    assert_eq!(
        allies.iter().map(|u| u.0).collect::<Vec<_>>(),
        vec![
            h(5, 5),
            h(6, 4),
            h(6, 6),
            h(7, 9),
            h(7, 11),
            h(7, 15),
            h(8, 10),
            h(8, 14),
            h(8, 16)
        ]
    );
    for (_, u) in axis.iter().chain(&allies) {
        assert_eq!(u.kind, UnitKind::Infantry);
        assert_eq!(u.kind.figures(), 4);
    }
    assert!(axis.iter().all(|(_, u)| u.nation == "ger"));
    assert!(allies.iter().all(|(_, u)| u.nation == "us"));
    // Units by section, from each side's own view: the Axis's left is cols 17..=24.
    let count = |units: &[(Hex, _)], top: bool, sec: usize| {
        units
            .iter()
            .filter(|(x, _)| sections_for(*x, top)[sec])
            .count()
    };
    assert_eq!(count(&axis, true, LEFT), 2); // (1,21), (6,24)
    assert_eq!(count(&axis, true, RIGHT), 3); // (0,0), (2,4), (3,7) straddling
    assert_eq!(count(&axis, true, CENTER), 2); // (2,8), (3,7)
    assert_eq!(count(&allies, false, LEFT), 3); // (5,5), (6,4), (6,6)
    assert_eq!(count(&allies, false, CENTER), 6); // (7,9) .. (8,16)
    assert_eq!(count(&allies, false, RIGHT), 0);
}

#[test]
fn pegasus_bridge_line_of_sight_on_the_board() {
    let s = pegasus();
    // Howard (5,5) -> the Axis unit at (3,7): a straight hex line through (4,6), which holds wire only.
    assert!(s.los_clear(h(5, 5), h(3, 7)));
    // Howard -> (2,8): through (4,6) and (3,7), where the Axis unit on sandbags blocks.
    assert_eq!(hexes_crossed(h(5, 5), h(2, 8)).0, vec![h(4, 6), h(3, 7)]);
    assert!(!s.los_clear(h(5, 5), h(2, 8)));
    // (6,6) -> (3,7): through (5,7) (empty) and (4,6) (wire): clear.
    assert_eq!(hexes_crossed(h(6, 6), h(3, 7)).0, vec![h(5, 7), h(4, 6)]);
    assert!(s.los_clear(h(6, 6), h(3, 7)));
    // (6,4) -> (3,7): through Howard's own unit at (5,5), then (4,6): a friendly unit blocks too.
    assert_eq!(hexes_crossed(h(6, 4), h(3, 7)).0, vec![h(5, 5), h(4, 6)]);
    assert!(!s.los_clear(h(6, 4), h(3, 7)));
    // (7,9) -> (4,12): over the pond (5,11), (6,10): water does not block.
    assert_eq!(hexes_crossed(h(7, 9), h(4, 12)).0, vec![h(6, 10), h(5, 11)]);
    assert!(s.los_clear(h(7, 9), h(4, 12)));
    // The forest at (4,10) stands between (4,8) and (4,12).
    assert!(!s.los_clear(h(4, 8), h(4, 12)));
}

// ---------------------------------------------------------------- reading errors

fn refusal(v: &Value) -> String {
    match Scenario::parse(&v.to_string()) {
        Err(GameError::InvalidState(m)) => m,
        Err(other) => panic!("not InvalidState: {other:?}"),
        Ok(_) => panic!("accepted: {v}"),
    }
}

fn base() -> Value {
    serde_json::from_str(PEGASUS_BRIDGE_TEXT).unwrap()
}

#[test]
fn unknown_names_and_bad_hexes_are_clear_errors() {
    let mut v = base();
    v["board"]["hexagons"][0]["terrain"]["name"] = "swamp".into();
    let m = refusal(&v);
    assert!(
        m.starts_with(
            "memoir44 scenario: board.hexagons[0].terrain.name is an unknown terrain \"swamp\""
        ),
        "{m}"
    );

    let mut v = base();
    v["board"]["hexagons"][9]["rect_terrain"]["name"] = "railbridge".into();
    assert!(refusal(&v).contains("hexagons[9].rect_terrain.name is an unknown rect_terrain"));

    let mut v = base();
    v["board"]["hexagons"][11]["obstacle"]["name"] = "mines".into();
    assert!(refusal(&v).contains("hexagons[11].obstacle.name is an unknown obstacle \"mines\""));

    let mut v = base();
    v["board"]["hexagons"][0]["unit"]["name"] = "infxx".into();
    assert!(refusal(&v).contains("unknown nation in the unit name \"xx\""));
    v["board"]["hexagons"][0]["unit"]["name"] = "planeger".into();
    assert!(refusal(&v).contains("is an unknown unit \"planeger\""));

    let mut v = base();
    v["board"]["hexagons"][9]["tags"][0]["name"] = "medal0".into();
    assert!(refusal(&v).contains("tags[0].name is an unknown tag \"medal0\""));

    let mut v = base();
    v["board"]["hexagons"][1]["col"] = 1.into();
    assert!(refusal(&v).contains("hexagons[1] (0, 1) is not a hex"));

    let mut v = base();
    v["board"]["hexagons"][1]["row"] = 9.into();
    assert!(refusal(&v).contains("hexagons[1].row must be an int in 0..=8"));

    let mut v = base();
    v["board"]["hexagons"][1]["col"] = 0.into();
    assert!(refusal(&v).contains("hexagons[1] gives the hex (0, 0) a second time"));

    let mut v = base();
    v["board"]["hexagons"][1]["terrain"]["orientation"] = 7.into();
    assert!(refusal(&v).contains("hexagons[1].terrain.orientation must be an int in 1..=6"));

    let mut v = base();
    v["board"]["hexagons"][1]["terrain"]["behavior"] = "WIDE_RIVER".into();
    assert!(refusal(&v).contains("hexagons[1].terrain has an unknown key \"behavior\""));

    let mut v = base();
    v["board"]["type"] = "BRKTHRU".into();
    assert!(refusal(&v).contains("only the STANDARD"));

    let mut v = base();
    v["game_info"]["side_player2"] = "AXIS".into();
    assert!(refusal(&v).contains("same side"));

    let mut v = base();
    v["game_info"]["starting"] = "PLAYER3".into();
    assert!(refusal(&v).contains("game_info.starting is an unknown starting player"));

    let mut v = base();
    v["game_info"]["options"] = serde_json::json!({"blitz_rules": true});
    assert!(refusal(&v).contains("game_info has an unknown key \"options\""));

    let mut v = base();
    v["game_info"]
        .as_object_mut()
        .unwrap()
        .remove("cards_player1");
    assert!(refusal(&v).contains("game_info is missing the key \"cards_player1\""));

    let mut v = base();
    v["extra"] = 1.into();
    assert!(refusal(&v).contains("(top) has an unknown key \"extra\""));

    match Scenario::parse("{\"board\": ") {
        Err(GameError::InvalidState(m)) => assert!(m.starts_with("memoir44 scenario: not JSON")),
        other => panic!("{other:?}"),
    }
    // A key given twice is refused by the engine's strict reader.
    assert!(Scenario::parse(r#"{"board": 1, "board": 2, "game_info": {}}"#).is_err());
    // The file round-trips through serde unchanged in meaning.
    assert_eq!(Scenario::parse(&base().to_string()).unwrap(), pegasus());
}

// ---------------------------------------------------------------- the shared case files

const LOS_CASES: &str = include_str!("../../../tests/data/memoir44_los_cases.json");

fn hex_of(v: &Value) -> Hex {
    let a = v.as_array().unwrap();
    h(a[0].as_i64().unwrap() as i8, a[1].as_i64().unwrap() as i8)
}

/// The one case of `memoir44_los_cases.json` (written from the rulebook alone) that this engine reads
/// differently, and which the file itself marks ambiguous: two hexes touched only at a corner, on opposite
/// sides of the line. A corner touch does not "cross" the line and is not a side the line "runs along", so
/// the engine sees clear (docs/rules/memoir44.md, interpretation 1); the file extends the both-sides rule.
const DISPUTED: [&str; 1] = ["vertex_touch_both_sides"];

#[test]
fn the_shared_los_cases() {
    let cases: Value = serde_json::from_str(LOS_CASES).unwrap();
    let cases = cases.as_array().unwrap();
    assert!(cases.len() >= 40, "{}", cases.len());
    let mut disputed = Vec::new();
    for c in cases {
        let name = c["name"].as_str().unwrap();
        let (a, b) = (hex_of(&c["from"]), hex_of(&c["to"]));
        assert!(a.on_board() && b.on_board(), "{name}");
        assert_eq!(
            a.distance(b),
            c["distance"].as_i64().unwrap() as i32,
            "{name}"
        );
        let blockers: Vec<Hex> = c["blockers"]
            .as_array()
            .unwrap()
            .iter()
            .map(hex_of)
            .collect();
        let want = c["clear"].as_bool().unwrap();
        let got = los_clear(a, b, blocks_in(&blockers));
        assert_eq!(
            los_clear(b, a, blocks_in(&blockers)),
            got,
            "{name} reversed"
        );
        if got != want {
            assert_eq!(c["ambiguous"].as_bool(), Some(true), "{name}");
            disputed.push(name);
            // Every disputed case is one where this engine sees clear and blockers stand on both sides.
            assert!(got, "{name}");
        }
    }
    assert_eq!(disputed, DISPUTED);
}

const LOS_RANDOM: &str = include_str!("../../../tests/data/memoir44_los_random.json");

#[test]
fn the_shared_random_los_shots() {
    // Each shot gives the hexes crossed, the pairs flanking the sides run along (on-board pairs only, in
    // either order) and the verdict for its blockers.
    let shots: Value = serde_json::from_str(LOS_RANDOM).unwrap();
    let shots = shots.as_array().unwrap();
    assert!(shots.len() >= 100, "{}", shots.len());
    let unordered = |p: (Hex, Hex)| if p.0 < p.1 { p } else { (p.1, p.0) };
    for c in shots {
        let (a, b) = (hex_of(&c["from"]), hex_of(&c["to"]));
        let (interior, edges) = hexes_crossed(a, b);
        let want_interior: BTreeSet<Hex> = c["interior"]
            .as_array()
            .unwrap()
            .iter()
            .map(hex_of)
            .collect();
        assert_eq!(
            interior.iter().copied().collect::<BTreeSet<_>>(),
            want_interior,
            "{c}"
        );
        let want_edges: BTreeSet<(Hex, Hex)> = c["edge_pairs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| unordered((hex_of(&p[0]), hex_of(&p[1]))))
            .collect();
        let edges: BTreeSet<(Hex, Hex)> = edges
            .into_iter()
            .filter(|e| e.0.on_board() && e.1.on_board())
            .map(unordered)
            .collect();
        assert_eq!(edges, want_edges, "{c}");
        let blockers: Vec<Hex> = c["blockers"]
            .as_array()
            .unwrap()
            .iter()
            .map(hex_of)
            .collect();
        assert_eq!(
            los_clear(a, b, blocks_in(&blockers)),
            c["clear"].as_bool().unwrap(),
            "{c}"
        );
    }
}

// ---------------------------------------------------------------- extra draws and the home-made scenario

#[test]
fn pegasus_bridge_axis_draws_two_after_its_first_two_turns() {
    // The briefing: "Axis Player: Take 2 command cards ... Draw two cards after turns 1 and 2" (§6.1).
    assert_eq!(pegasus().info.extra_draws, [vec![1, 1], vec![]]);
}

#[test]
fn home_made_scenario_reads_with_hills_hedgerows_and_armor() {
    let text = include_str!("../../../python/meeplex/data/memoir44_home_hills.json");
    let s = Scenario::parse(text).expect("the home-made scenario reads");
    let count = |kind: TerrainKind| {
        s.hexes()
            .filter(|(_, d)| d.terrain.map(|t| t.kind) == Some(kind))
            .count()
    };
    assert_eq!(
        (count(TerrainKind::Hill), count(TerrainKind::Hedgerow)),
        (7, 5)
    );
    let kinds = |side| {
        s.units(side)
            .iter()
            .map(|(_, u)| u.kind)
            .collect::<Vec<_>>()
    };
    for side in [Side::Axis, Side::Allies] {
        assert!(kinds(side).contains(&UnitKind::Armor));
        assert!(kinds(side).contains(&UnitKind::Artillery));
    }
    assert_eq!(
        (s.units(Side::Axis).len(), s.units(Side::Allies).len()),
        (8, 9)
    );
}

#[test]
fn extra_draws_out_of_range_are_refused() {
    let mut v = base();
    v["game_info"]["extra_draws_player2"] = serde_json::json!([1, 11]);
    assert!(Scenario::parse(&v.to_string()).is_err());
}
