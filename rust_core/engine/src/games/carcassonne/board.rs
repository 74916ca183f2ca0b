//! The placed tiles and the open positions (docs/rules/carcassonne.md §3, §5.1): a list of placed tiles in
//! placement order (slots), a small open-addressing table from cell to slot or open position (2 bytes an entry), and the open
//! positions with the edge constraints their placed neighbours impose (kept incrementally, so a legal placement
//! is one mask test per open position and rotation).

use super::tiles::{TileType, POW5};

/// An empty table entry; otherwise an entry is `index + 1`, with OPEN_FLAG for an open position.
const EMPTY: u16 = 0;
const OPEN_FLAG: u16 = 1 << 15;
/// Neighbour offsets in direction order N, E, S, W.
pub const DX: [i32; 4] = [0, 1, 0, -1];
pub const DY: [i32; 4] = [1, 0, -1, 0];

/// A placed tile, with what the rules keep per slot (so that a clone copies one vector for all of it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed {
    pub typ: u8,
    pub rot: u8,
    /// The number of the 8 surrounding cells holding a tile.
    pub nb8: u8,
    /// The figure on it (§11.1: at most one a tile): NONE, or `kind << 6 | k << 3 | seat` for a figure of
    /// `kind` (0 follower, 1 large follower, 2 builder, 3 pig) on feature k (so a follower is `8 k + seat`).
    pub figure: u8,
    pub x: i16,
    pub y: i16,
    /// The first feature segment of this slot.
    pub base: u16,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Open {
    pub cell: u32,
    /// The edge constraints its placed neighbours impose: `Σ c_d 5^d` with c_d 0 where direction d has no
    /// neighbour, else the letter that neighbour shows on the touching edge + 1 (an index of `TileType::fit`).
    pub code: u16,
    pub x: i16,
    pub y: i16,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// R, the half width of the window.
    pub r: i32,
    pub w: i32,
    pub slots: Vec<Placed>,
    pub open: Vec<Open>,
    /// Open addressing from cell to slot or open position: 2 bytes an entry, the key checked against the
    /// coordinates of the slot or open position the entry names.
    table: Box<[u16]>,
}

impl Board {
    pub fn new(r: i32) -> Board {
        let entries = 3 * (r as usize + 1) + 8;
        let cap = (2 * entries).next_power_of_two();
        Board {
            r,
            w: 2 * r + 1,
            slots: Vec::with_capacity(r as usize + 1),
            open: Vec::with_capacity(2 * r as usize + 4),
            table: vec![EMPTY; cap].into_boxed_slice(),
        }
    }

    #[inline]
    pub fn in_window(&self, x: i32, y: i32) -> bool {
        x.abs() <= self.r && y.abs() <= self.r
    }

    #[inline]
    pub fn cell(&self, x: i32, y: i32) -> u32 {
        ((y + self.r) * self.w + (x + self.r)) as u32
    }

    pub fn xy(&self, cell: u32) -> (i32, i32) {
        let c = cell as i32;
        (c % self.w - self.r, c / self.w - self.r)
    }

    /// The table index holding (x, y), or the empty one where it would go.
    #[inline(always)]
    fn find(&self, x: i32, y: i32) -> usize {
        let mask = self.table.len() - 1;
        let cell = self.cell(x, y);
        let (x, y) = (x as i16, y as i16);
        let mut i = (cell.wrapping_mul(0x9E37_79B1) >> 7) as usize & mask;
        loop {
            let e = self.table[i];
            if e == EMPTY {
                return i;
            }
            let at = ((e & !OPEN_FLAG) - 1) as usize;
            let hit = if e & OPEN_FLAG != 0 {
                let o = &self.open[at];
                o.x == x && o.y == y
            } else {
                let p = &self.slots[at];
                p.x == x && p.y == y
            };
            if hit {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    /// The slot of the tile at (x, y), if any.
    #[inline(always)]
    pub fn slot_at(&self, x: i32, y: i32) -> Option<usize> {
        if !self.in_window(x, y) {
            return None;
        }
        let e = self.table[self.find(x, y)];
        if e == EMPTY || e & OPEN_FLAG != 0 {
            None
        } else {
            Some((e - 1) as usize)
        }
    }

    /// The open position at (x, y), if any.
    #[inline]
    pub fn open_at(&self, x: i32, y: i32) -> Option<usize> {
        if !self.in_window(x, y) {
            return None;
        }
        let e = self.table[self.find(x, y)];
        if e & OPEN_FLAG != 0 {
            Some(((e & !OPEN_FLAG) - 1) as usize)
        } else {
            None
        }
    }

    /// Whether tile type `tt` with rotation r fits the open position o (edges only).
    #[inline]
    pub fn fits(o: &Open, tt: &TileType, r: usize) -> bool {
        Board::fitting(o, tt) & (1 << r) != 0
    }

    /// The rotations (bit r) with which tile type `tt` fits the open position o.
    #[inline]
    pub fn fitting(o: &Open, tt: &TileType) -> u32 {
        tt.fit[o.code as usize] as u32
    }

    /// Place a tile (the caller checked legality, or it is the first tile); returns its slot and the slots of
    /// its 4 edge neighbours.
    pub fn place(
        &mut self,
        tt: &TileType,
        typ: u8,
        rot: u8,
        x: i32,
        y: i32,
        base: u16,
    ) -> (usize, [Option<usize>; 4]) {
        let slot = self.slots.len();
        let i = self.find(x, y);
        let e = self.table[i];
        if e & OPEN_FLAG != 0 {
            let o = ((e & !OPEN_FLAG) - 1) as usize;
            let last = self.open.len() - 1;
            if o != last {
                // The last open position moves to o: repoint its entry while the entry still resolves.
                let moved = self.open[last];
                let j = self.find(moved.x as i32, moved.y as i32);
                self.table[j] = OPEN_FLAG | (o as u16 + 1);
            }
            self.open.swap_remove(o);
        }
        self.table[i] = slot as u16 + 1;
        self.slots.push(Placed {
            typ,
            rot,
            nb8: 0,
            figure: super::tiles::NONE,
            x: x as i16,
            y: y as i16,
            base,
        });
        let mut nb = [None; 4];
        for d in 0..4 {
            let (nx, ny) = (x + DX[d], y + DY[d]);
            if !self.in_window(nx, ny) {
                continue;
            }
            let j = self.find(nx, ny);
            let e = self.table[j];
            let back = (d + 2) % 4;
            let letter = tt.edge(rot as usize, d);
            if e == EMPTY {
                self.open.push(Open {
                    cell: self.cell(nx, ny),
                    code: (letter as u16 + 1) * POW5[back],
                    x: nx as i16,
                    y: ny as i16,
                });
                self.table[j] = OPEN_FLAG | self.open.len() as u16;
            } else if e & OPEN_FLAG != 0 {
                let o = &mut self.open[((e & !OPEN_FLAG) - 1) as usize];
                o.code += (letter as u16 + 1) * POW5[back];
            } else {
                nb[d] = Some((e - 1) as usize);
            }
        }
        (slot, nb)
    }
}
