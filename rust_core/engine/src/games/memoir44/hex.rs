//! Hexes of the standard 13 × 9 board in BGA's doubled coordinates, and line-of-sight geometry with exact
//! integer arithmetic (see the module documentation of `memoir44` for the conventions).

use std::cell::Cell;

/// The last row (rows are 0..=MAX_ROW).
pub const MAX_ROW: i8 = 8;
/// The last column (columns are 0..=MAX_COL, doubled: `row + col` even).
pub const MAX_COL: i8 = 24;
/// Hexes on the board: 5 even rows of 13 and 4 odd rows of 12.
pub const NUM_HEXES: usize = 113;

/// Hexes in a pair of rows (one even, one odd).
const PAIR: usize = 25;

/// A hex, as `(row, col)` of the BGA scenario files. Any values may be held (off-board hexes appear in the
/// line-of-sight geometry, along the board's outer edge); [`Hex::on_board`] says which are real.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Hex {
    pub row: i8,
    pub col: i8,
}

/// The six neighbours' offsets `(drow, dcol)`, in the order of the sides of [`Hex::corners`]: upper right,
/// right, lower right, lower left, left, upper left.
const STEPS: [(i8, i8); 6] = [(-1, 1), (0, 2), (1, 1), (1, -1), (0, -2), (-1, -1)];

impl Hex {
    pub const fn new(row: i8, col: i8) -> Hex {
        Hex { row, col }
    }

    /// Whether this is one of the 113 hexes of the board.
    pub fn on_board(self) -> bool {
        (0..=MAX_ROW).contains(&self.row)
            && (0..=MAX_COL).contains(&self.col)
            && (self.row + self.col) % 2 == 0
    }

    /// The on-board neighbours (6 in the middle, fewer at the edges), in the order upper right, right,
    /// lower right, lower left, left, upper left.
    pub fn neighbours(self) -> impl Iterator<Item = Hex> {
        STEPS
            .iter()
            .map(move |&(dr, dc)| Hex::new(self.row + dr, self.col + dc))
            .filter(|h| h.on_board())
    }

    /// The number of steps from `self` to `other` (for two hexes of the doubled grid, on the board or not).
    pub fn distance(self, other: Hex) -> i32 {
        let dr = (i32::from(self.row) - i32::from(other.row)).abs();
        let dc = (i32::from(self.col) - i32::from(other.col)).abs();
        dr + ((dc - dr) / 2).max(0)
    }

    /// The dense index 0..NUM_HEXES of an on-board hex, row by row, left to right; `None` off the board.
    pub fn index(self) -> Option<usize> {
        if !self.on_board() {
            return None;
        }
        let (row, col) = (self.row as usize, self.col as usize);
        let in_row = if row % 2 == 0 { col / 2 } else { 13 + col / 2 };
        Some(row / 2 * PAIR + in_row)
    }

    /// The hex of a dense index; `None` for `i >= NUM_HEXES`.
    pub fn from_index(i: usize) -> Option<Hex> {
        if i >= NUM_HEXES {
            return None;
        }
        let (pair, k) = (i / PAIR, i % PAIR);
        let (row, col) = if k < 13 {
            (2 * pair, 2 * k)
        } else {
            (2 * pair + 1, 2 * (k - 13) + 1)
        };
        Some(Hex::new(row as i8, col as i8))
    }

    /// All hexes of the board, in index order.
    pub fn all() -> impl Iterator<Item = Hex> {
        (0..NUM_HEXES).filter_map(Hex::from_index)
    }

    /// The centre in the integer plane of the line-of-sight geometry: `(X, Y) = (col, 3·row)`.
    pub fn centre(self) -> (i64, i64) {
        (i64::from(self.col), 3 * i64::from(self.row))
    }

    /// The six vertices, clockwise on the screen (Y grows downwards) from the top one; side `i` joins
    /// vertex `i` to vertex `i + 1` and is shared with the neighbour in direction `STEPS[i]`.
    pub fn corners(self) -> [(i64, i64); 6] {
        let (x, y) = self.centre();
        [
            (x, y - 2),
            (x + 1, y - 1),
            (x + 1, y + 1),
            (x, y + 2),
            (x - 1, y + 1),
            (x - 1, y - 1),
        ]
    }

    fn step(self, side: usize) -> Hex {
        let (dr, dc) = STEPS[side];
        Hex::new(self.row + dr, self.col + dc)
    }
}

/// A fraction `num / den` with `den > 0`.
#[derive(Clone, Copy)]
struct Frac(i64, i64);

impl Frac {
    fn new(num: i64, den: i64) -> Frac {
        if den < 0 {
            Frac(-num, -den)
        } else {
            Frac(num, den)
        }
    }
    fn lt(self, o: Frac) -> bool {
        self.0 * o.1 < o.0 * self.1
    }
    fn min(self, o: Frac) -> Frac {
        if o.lt(self) {
            o
        } else {
            self
        }
    }
    fn max(self, o: Frac) -> Frac {
        if self.lt(o) {
            o
        } else {
            self
        }
    }
}

/// Walk the hexes the segment between the centres of `from` and `to` meets (the two end hexes left out):
/// `interior(hex, key)` for each hex whose interior it passes through, `edge(left, right, key)` for each
/// hex side it runs along (with positive length), `left` and `right` as seen travelling from `from` to `to`
/// on the screen. `key` is the projection of the hex's centre (of the side's midpoint, doubled) onto the
/// segment, for ordering. Only the hexes of rows `min..=max` and cols `min - 1..=max + 1` of the two ends can
/// touch the segment, so only those are tested.
fn walk(
    from: Hex,
    to: Hex,
    mut interior: impl FnMut(Hex, i64),
    mut edge: impl FnMut(Hex, Hex, i64),
) {
    if from == to {
        return;
    }
    let (ax, ay) = from.centre();
    let (bx, by) = to.centre();
    let (dx, dy) = (bx - ax, by - ay);
    let len2 = dx * dx + dy * dy;
    // Which side of the line a point is on: < 0 left, > 0 right (Y grows downwards), 0 on the line.
    let side = |(x, y): (i64, i64)| dx * (y - ay) - dy * (x - ax);
    // The projection of a point onto the segment, times len2: 0 at `from`, len2 at `to`.
    let proj = |(x, y): (i64, i64)| dx * (x - ax) + dy * (y - ay);
    let (r0, r1) = (from.row.min(to.row), from.row.max(to.row));
    let (c0, c1) = (from.col.min(to.col) - 1, from.col.max(to.col) + 1);
    for row in r0..=r1 {
        for col in c0..=c1 {
            let h = Hex::new(row, col);
            if (row + col).rem_euclid(2) != 0 || h == from || h == to {
                continue;
            }
            let v = h.corners();
            let s = v.map(side);
            let pos = s.iter().any(|&x| x > 0);
            let neg = s.iter().any(|&x| x < 0);
            if pos && neg {
                // The line crosses the interior: find the chord's parameter interval [lo, hi] (in units of
                // the segment) from the points where the line meets the boundary.
                let (mut lo, mut hi) = (None::<Frac>, None::<Frac>);
                for i in 0..6 {
                    let j = (i + 1) % 6;
                    let t = if s[i] == 0 {
                        Frac::new(proj(v[i]), len2)
                    } else if (s[i] > 0) != (s[j] > 0) && s[j] != 0 {
                        // v_i + (v_j - v_i) * s_i / (s_i - s_j), projected.
                        let step = (v[j].0 - v[i].0, v[j].1 - v[i].1);
                        let num = proj(v[i]) * (s[i] - s[j]) + (dx * step.0 + dy * step.1) * s[i];
                        Frac::new(num, len2 * (s[i] - s[j]))
                    } else {
                        continue;
                    };
                    lo = Some(lo.map_or(t, |x| x.min(t)));
                    hi = Some(hi.map_or(t, |x| x.max(t)));
                }
                // Positive-length overlap of [lo, hi] with [0, 1] (the line crosses the boundary twice).
                let (Some(lo), Some(hi)) = (lo, hi) else {
                    continue;
                };
                if lo.max(Frac(0, 1)).lt(hi.min(Frac(1, 1))) {
                    interior(h, proj(h.centre()));
                }
            } else if s.iter().filter(|&&x| x == 0).count() == 2 {
                // A side lies on the line (two vertices on it, the rest on one side: they are adjacent).
                let i = (0..6).find(|&i| s[i] == 0 && s[(i + 1) % 6] == 0);
                let Some(i) = i else { continue };
                let (p, q) = (proj(v[i]), proj(v[(i + 1) % 6]));
                if p.max(q).min(len2) <= p.min(q).max(0) {
                    continue;
                }
                // Report each side once, when visiting the hex on its left.
                if pos {
                    continue;
                }
                let m = (v[i].0 + v[(i + 1) % 6].0, v[i].1 + v[(i + 1) % 6].1);
                edge(h, h.step(i), proj(m) - dx * ax - dy * ay);
            }
            // Otherwise the hex is apart from the line, or touches it at one vertex only.
        }
    }
}

/// The geometry of the shot from `from` to `to`: the hexes whose interior the segment between the centres
/// passes through, and the pairs `(left, right)` of hexes flanking each side the segment runs along (left
/// and right as seen travelling from `from` to `to` on the screen, row 0 at the top), each list ordered by
/// the projection onto the segment of the hex centres (of the sides' midpoints), ties by `Hex` order. The end hexes are never listed; off-board hexes can be, as one of a pair
/// along the outer edge of the board (a shot straight down column 0 or 24).
pub fn hexes_crossed(from: Hex, to: Hex) -> (Vec<Hex>, Vec<(Hex, Hex)>) {
    let mut interior = Vec::new();
    let mut edges = Vec::new();
    walk(
        from,
        to,
        |h, k| interior.push((k, h)),
        |l, r, k| edges.push((k, l, r)),
    );
    interior.sort();
    edges.sort();
    (
        interior.into_iter().map(|(_, h)| h).collect(),
        edges.into_iter().map(|(_, l, r)| (l, r)).collect(),
    )
}

/// Whether the line of sight from `from` to `to` is clear, `blocks(hex)` saying which hexes hold an
/// obstruction or a unit (it is asked only about on-board hexes other than the two ends): no blocking hex
/// whose interior the segment crosses, and not blocking hexes beside the sides it runs along on both its
/// left and its right (anywhere along it). A hex touched only at a corner never blocks (it does not "cross"
/// the line). Adjacent hexes (and a hex and itself) always see each other.
pub fn los_clear(from: Hex, to: Hex, blocks: impl Fn(Hex) -> bool) -> bool {
    let b = |h: Hex| h.on_board() && blocks(h);
    // The rulebook: "line of sight is not blocked unless the obstructions stand somewhere along both sides
    // of the line segment": the sides are pooled over the whole line, not judged side by side (as BGA's
    // `Board::isInLineOfSight` keeps one left and one right flag).
    let (interior, left, right) = (Cell::new(false), Cell::new(false), Cell::new(false));
    walk(
        from,
        to,
        |h, _| {
            if b(h) {
                interior.set(true);
            }
        },
        |l, r, _| {
            left.set(left.get() || b(l));
            right.set(right.get() || b(r));
        },
    );
    !(interior.get() || (left.get() && right.get()))
}
