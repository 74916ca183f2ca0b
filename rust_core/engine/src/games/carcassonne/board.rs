//! The placed tiles and the open positions (docs/rules/carcassonne.md §3, §5.1): a list of placed tiles in
//! placement order (slots), a small open-addressing hash from cell to slot or open position, and the open
//! positions with the edge constraints their placed neighbours impose (kept incrementally, so a legal placement
//! is one mask test per open position and rotation).

use super::tiles::{tile, TileType};

pub const EMPTY: u32 = u32::MAX;
const OPEN_FLAG: u32 = 1 << 31;
/// Neighbour offsets in direction order N, E, S, W.
pub const DX: [i32; 4] = [0, 1, 0, -1];
pub const DY: [i32; 4] = [1, 0, -1, 0];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed {
    pub typ: u8,
    pub rot: u8,
    pub x: i16,
    pub y: i16,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Open {
    pub cell: u32,
    /// Bits 2d..2d+1 set where direction d has a placed neighbour.
    pub mask: u8,
    /// The letters those neighbours show on the touching edge, packed as the mask.
    pub val: u8,
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
    keys: Vec<u32>,
    vals: Vec<u32>,
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
            keys: vec![EMPTY; cap],
            vals: vec![0; cap],
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

    #[inline]
    fn find(&self, cell: u32) -> usize {
        let mask = self.keys.len() - 1;
        let mut i = (cell.wrapping_mul(0x9E37_79B1) >> 7) as usize & mask;
        loop {
            let k = self.keys[i];
            if k == cell || k == EMPTY {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    /// The slot of the tile at (x, y), if any.
    #[inline]
    pub fn slot_at(&self, x: i32, y: i32) -> Option<usize> {
        if !self.in_window(x, y) {
            return None;
        }
        let i = self.find(self.cell(x, y));
        if self.keys[i] == EMPTY || self.vals[i] & OPEN_FLAG != 0 {
            None
        } else {
            Some(self.vals[i] as usize)
        }
    }

    /// The open position at (x, y), if any.
    #[inline]
    pub fn open_at(&self, x: i32, y: i32) -> Option<usize> {
        if !self.in_window(x, y) {
            return None;
        }
        let i = self.find(self.cell(x, y));
        if self.keys[i] != EMPTY && self.vals[i] & OPEN_FLAG != 0 {
            Some((self.vals[i] & !OPEN_FLAG) as usize)
        } else {
            None
        }
    }

    /// Whether tile type `tt` with rotation r fits the open position o (edges only).
    #[inline]
    pub fn fits(o: &Open, tt: &TileType, r: usize) -> bool {
        tt.pattern[r] & o.mask == o.val
    }

    /// Place a tile (the caller checked legality, or it is the first tile); returns its slot and the slots of
    /// its 4 edge neighbours.
    pub fn place(&mut self, typ: u8, rot: u8, x: i32, y: i32) -> (usize, [Option<usize>; 4]) {
        let slot = self.slots.len();
        let cell = self.cell(x, y);
        let i = self.find(cell);
        if self.keys[i] != EMPTY && self.vals[i] & OPEN_FLAG != 0 {
            let o = (self.vals[i] & !OPEN_FLAG) as usize;
            self.open.swap_remove(o);
            if o < self.open.len() {
                let moved = self.open[o].cell;
                let j = self.find(moved);
                self.vals[j] = OPEN_FLAG | o as u32;
            }
        }
        self.keys[i] = cell;
        self.vals[i] = slot as u32;
        self.slots.push(Placed {
            typ,
            rot,
            x: x as i16,
            y: y as i16,
        });
        let tt = tile(typ);
        let mut nb = [None; 4];
        for d in 0..4 {
            let (nx, ny) = (x + DX[d], y + DY[d]);
            if !self.in_window(nx, ny) {
                continue;
            }
            let ncell = self.cell(nx, ny);
            let j = self.find(ncell);
            let back = (d + 2) % 4;
            let letter = tt.edge(rot as usize, d);
            if self.keys[j] == EMPTY {
                self.keys[j] = ncell;
                self.vals[j] = OPEN_FLAG | self.open.len() as u32;
                self.open.push(Open {
                    cell: ncell,
                    mask: 3 << (2 * back),
                    val: letter << (2 * back),
                    x: nx as i16,
                    y: ny as i16,
                });
            } else if self.vals[j] & OPEN_FLAG != 0 {
                let o = &mut self.open[(self.vals[j] & !OPEN_FLAG) as usize];
                o.mask |= 3 << (2 * back);
                o.val |= letter << (2 * back);
            } else {
                nb[d] = Some(self.vals[j] as usize);
            }
        }
        (slot, nb)
    }
}
