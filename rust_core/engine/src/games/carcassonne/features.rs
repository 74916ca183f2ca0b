//! Features across tiles (docs/rules/carcassonne.md §5.2): a union-find over feature segments (one segment per
//! feature of each placed tile), with per-root aggregates kept incrementally: the open edge count of a city or
//! road (complete at 0) and the number of followers. Each root also heads a circular member list, walked only
//! when a feature is scored (to count distinct tiles, pennants and each seat's followers).

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seg {
    pub parent: u16,
    pub next: u16,
    pub size: u16,
    /// At a root: city or road edges facing an empty cell.
    pub open: u16,
    pub slot: u16,
    pub k: u8,
    /// At a root: followers in the component.
    pub nfol: u8,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Segs {
    /// The segments of each slot in turn (a slot's first segment is kept with the slot, `Placed::base`).
    pub segs: Vec<Seg>,
}

impl Segs {
    pub fn with_capacity(tiles: usize) -> Segs {
        Segs {
            segs: Vec::with_capacity(tiles * 4),
        }
    }

    /// Segments for a new slot's features; `open` gives the open edges of each feature. Returns the slot's
    /// first segment.
    pub fn add_slot(&mut self, slot: usize, open: impl Iterator<Item = u16>) -> u16 {
        let base = self.segs.len() as u16;
        for (k, o) in open.enumerate() {
            let id = self.segs.len() as u16;
            self.segs.push(Seg {
                parent: id,
                next: id,
                size: 1,
                open: o,
                slot: slot as u16,
                k: k as u8,
                nfol: 0,
            });
        }
        base
    }

    #[inline]
    pub fn root(&self, mut i: usize) -> usize {
        while self.segs[i].parent as usize != i {
            i = self.segs[i].parent as usize;
        }
        i
    }

    #[inline]
    pub fn find(&mut self, mut i: usize) -> usize {
        while self.segs[i].parent as usize != i {
            let p = self.segs[i].parent as usize;
            let gp = self.segs[p].parent;
            self.segs[i].parent = gp;
            i = p;
        }
        i
    }

    /// Join the components of a and b; returns the root.
    pub fn union(&mut self, a: usize, b: usize) -> usize {
        let (mut ra, mut rb) = (self.find(a), self.find(b));
        if ra == rb {
            return ra;
        }
        if self.segs[ra].size < self.segs[rb].size {
            std::mem::swap(&mut ra, &mut rb);
        }
        let (sb, ob, fb, nb) = {
            let s = &self.segs[rb];
            (s.size, s.open, s.nfol, s.next)
        };
        self.segs[rb].parent = ra as u16;
        let na = self.segs[ra].next;
        self.segs[ra].next = nb;
        self.segs[rb].next = na;
        let r = &mut self.segs[ra];
        r.size = r.size.saturating_add(sb);
        r.open = r.open.saturating_add(ob);
        r.nfol = r.nfol.saturating_add(fb);
        ra
    }

    /// The members of the component of root r (r first).
    pub fn members(&self, r: usize) -> Members<'_> {
        Members {
            segs: self,
            start: r,
            cur: Some(r),
        }
    }
}

pub struct Members<'a> {
    segs: &'a Segs,
    start: usize,
    cur: Option<usize>,
}

impl Iterator for Members<'_> {
    type Item = usize;
    fn next(&mut self) -> Option<usize> {
        let c = self.cur?;
        let n = self.segs.segs[c].next as usize;
        self.cur = if n == self.start { None } else { Some(n) };
        Some(c)
    }
}
