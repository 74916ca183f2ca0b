//! Fixed-size bit sets: a set of cell ids of one grid (at most 16 x 12 = 192 cells, §3) and the deck's card
//! counts packed four bits to a kind. Both are plain `Copy` values, so a state holding them stays a memcpy.

use super::sheet::{MAX_CELLS, NUM_KINDS};

const WORDS: usize = MAX_CELLS.div_ceil(64);

/// A set of cell ids `0..MAX_CELLS` (bit `id` of the little-endian words).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Cells(pub [u64; WORDS]);

impl Cells {
    pub const NONE: Cells = Cells([0; WORDS]);

    #[inline]
    pub fn has(&self, id: usize) -> bool {
        self.0
            .get(id >> 6)
            .is_some_and(|w| (w >> (id & 63)) & 1 != 0)
    }

    /// Add or remove `id`; ids past the set's size are ignored.
    #[inline]
    pub fn put(&mut self, id: usize, on: bool) {
        if let Some(w) = self.0.get_mut(id >> 6) {
            let bit = 1u64 << (id & 63);
            if on {
                *w |= bit;
            } else {
                *w &= !bit;
            }
        }
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    #[inline]
    pub fn len(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// `{id + n : id in self}` (the cells `n` ids above the members), for `0 < n < 64`.
    #[inline]
    pub fn up(self, n: usize) -> Cells {
        debug_assert!(n > 0 && n < 64);
        let w = self.0;
        let mut out = [0u64; WORDS];
        out[0] = w[0] << n;
        for i in 1..WORDS {
            out[i] = (w[i] << n) | (w[i - 1] >> (64 - n));
        }
        Cells(out)
    }

    /// `{id - n : id in self, id >= n}`, for `0 < n < 64`.
    #[inline]
    pub fn down(self, n: usize) -> Cells {
        debug_assert!(n > 0 && n < 64);
        let w = self.0;
        let mut out = [0u64; WORDS];
        for i in 0..WORDS - 1 {
            out[i] = (w[i] >> n) | (w[i + 1] << (64 - n));
        }
        out[WORDS - 1] = w[WORDS - 1] >> n;
        Cells(out)
    }

    /// The members in increasing order (the engine hands cell sets over a word at a time; the tests read them
    /// one by one).
    #[cfg(test)]
    pub fn ids(self) -> impl Iterator<Item = usize> {
        self.0.into_iter().enumerate().flat_map(|(i, mut w)| {
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let b = w.trailing_zeros() as usize;
                w &= w - 1;
                Some(64 * i + b)
            })
        })
    }
}

impl std::ops::BitAnd for Cells {
    type Output = Cells;
    #[inline]
    fn bitand(self, o: Cells) -> Cells {
        Cells(std::array::from_fn(|i| self.0[i] & o.0[i]))
    }
}

impl std::ops::BitOr for Cells {
    type Output = Cells;
    #[inline]
    fn bitor(self, o: Cells) -> Cells {
        Cells(std::array::from_fn(|i| self.0[i] | o.0[i]))
    }
}

impl std::ops::Not for Cells {
    type Output = Cells;
    #[inline]
    fn not(self) -> Cells {
        Cells(self.0.map(|w| !w))
    }
}

const DECK_WORDS: usize = (4 * NUM_KINDS).div_ceil(64);
const LOW_NIBBLE_BITS: u64 = 0x1111_1111_1111_1111;

/// The count of each card kind (0..15, §10 allows at most the full deck's count, 4), four bits per kind.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Deck(pub [u64; DECK_WORDS]);

impl Deck {
    pub fn from_counts(counts: &[u8; NUM_KINDS]) -> Deck {
        let mut d = Deck::default();
        for (k, &c) in counts.iter().enumerate() {
            d.set(k, c);
        }
        d
    }

    #[inline]
    pub fn get(&self, kind: usize) -> u8 {
        self.0
            .get(kind / 16)
            .map_or(0, |w| ((w >> (4 * (kind % 16))) & 15) as u8)
    }

    /// Set a count (clamped to 15); kinds past `NUM_KINDS` are ignored.
    #[inline]
    pub fn set(&mut self, kind: usize, count: u8) {
        if kind >= NUM_KINDS {
            return;
        }
        let shift = 4 * (kind % 16);
        let w = &mut self.0[kind / 16];
        *w = (*w & !(15 << shift)) | ((count.min(15) as u64) << shift);
    }

    pub fn counts(&self) -> [u8; NUM_KINDS] {
        std::array::from_fn(|k| self.get(k))
    }

    /// The number of cards.
    #[inline]
    pub fn total(&self) -> u32 {
        self.0
            .iter()
            .map(|&w| {
                let bytes = (w & 0x0F0F_0F0F_0F0F_0F0F) + ((w >> 4) & 0x0F0F_0F0F_0F0F_0F0F);
                (bytes.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32
            })
            .sum()
    }

    /// The number of kinds with a positive count.
    #[inline]
    pub fn kinds(&self) -> usize {
        self.0
            .iter()
            .map(|&w| {
                ((w | (w >> 1) | (w >> 2) | (w >> 3)) & LOW_NIBBLE_BITS).count_ones() as usize
            })
            .sum()
    }

    /// Write `f(kind, count)` of every kind with a positive count into `out`, in increasing kind order
    /// (`out` is cleared first).
    #[inline]
    pub fn write_present<T: Copy + Default>(&self, out: &mut Vec<T>, f: impl Fn(u32, u8) -> T) {
        out.clear();
        out.resize(self.kinds(), T::default());
        let mut j = 0;
        for (i, &w) in self.0.iter().enumerate() {
            let mut nz = (w | (w >> 1) | (w >> 2) | (w >> 3)) & LOW_NIBBLE_BITS;
            while nz != 0 {
                let b = nz.trailing_zeros();
                nz &= nz - 1;
                if let Some(slot) = out.get_mut(j) {
                    *slot = f(16 * i as u32 + b / 4, ((w >> b) & 15) as u8);
                }
                j += 1;
            }
        }
    }

    /// The kind of the `r`-th card (from 0) when the cards are laid out by increasing kind: the first kind
    /// whose running count exceeds `r`. `None` if `r >= total()`.
    #[inline]
    pub fn nth_card(&self, mut r: u32) -> Option<u32> {
        for (i, &w) in self.0.iter().enumerate() {
            let bytes = (w & 0x0F0F_0F0F_0F0F_0F0F) + ((w >> 4) & 0x0F0F_0F0F_0F0F_0F0F);
            let in_word = (bytes.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32;
            if r >= in_word {
                r -= in_word;
                continue;
            }
            let mut rest = w;
            let mut kind = 16 * i as u32;
            loop {
                let count = (rest & 15) as u32;
                if r < count {
                    return Some(kind);
                }
                r -= count;
                rest >>= 4;
                kind += 1;
            }
        }
        None
    }

    /// `(kind, count)` of every kind with a positive count, in increasing kind order.
    #[inline]
    pub fn present(&self) -> impl Iterator<Item = (u32, u8)> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &w)| {
            let mut nz = (w | (w >> 1) | (w >> 2) | (w >> 3)) & LOW_NIBBLE_BITS;
            std::iter::from_fn(move || {
                if nz == 0 {
                    return None;
                }
                let b = nz.trailing_zeros();
                nz &= nz - 1;
                Some((16 * i as u32 + b / 4, ((w >> b) & 15) as u8))
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_shift_and_iterate() {
        let mut s = Cells::NONE;
        for id in [0, 5, 63, 64, 127, 128, 191] {
            s.put(id, true);
        }
        assert_eq!(
            s.ids().collect::<Vec<_>>(),
            vec![0, 5, 63, 64, 127, 128, 191]
        );
        assert_eq!(
            s.up(7).ids().collect::<Vec<_>>(),
            vec![7, 12, 70, 71, 134, 135]
        );
        assert_eq!(
            s.down(7).ids().collect::<Vec<_>>(),
            vec![56, 57, 120, 121, 184]
        );
        assert_eq!(s.len(), 7);
        s.put(500, true);
        assert!(!s.has(500));
    }

    #[test]
    fn deck_counts() {
        let mut counts = [0u8; NUM_KINDS];
        for (k, c) in counts.iter_mut().enumerate() {
            *c = (k * 7 % 5) as u8;
        }
        let d = Deck::from_counts(&counts);
        assert_eq!(d.counts(), counts);
        assert_eq!(d.total(), counts.iter().map(|&c| c as u32).sum::<u32>());
        let present: Vec<(u32, u8)> = d.present().collect();
        let want: Vec<(u32, u8)> = (0..NUM_KINDS as u32)
            .filter(|&k| counts[k as usize] > 0)
            .map(|k| (k, counts[k as usize]))
            .collect();
        assert_eq!(present, want);
        assert_eq!(d.kinds(), want.len());
        let mut laid_out = Vec::new();
        for (k, c) in want.iter() {
            laid_out.extend(std::iter::repeat_n(*k, *c as usize));
        }
        for (r, &k) in laid_out.iter().enumerate() {
            assert_eq!(d.nth_card(r as u32), Some(k));
        }
        assert_eq!(d.nth_card(laid_out.len() as u32), None);
        let mut out = vec![(7, 7); 3];
        d.write_present(&mut out, |k, c| (k, c));
        assert_eq!(out, want);
    }
}
