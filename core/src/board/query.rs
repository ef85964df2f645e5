//! Read-only questions about chains, liberties and eyes that playouts and
//! tactics ask.

use super::{ix, Board};
use crate::geometry::{Cell, Color, Point};

/// A small set of distinct points, filled up to its capacity `N`.
#[derive(Clone, Copy, Debug)]
pub struct PointSet<const N: usize> {
    points: [Point; N],
    len: usize,
}

impl<const N: usize> Default for PointSet<N> {
    fn default() -> Self {
        PointSet {
            points: [Point::PASS; N],
            len: 0,
        }
    }
}

impl<const N: usize> PointSet<N> {
    /// Add `p` unless present; return `false` when the set is full.
    #[inline]
    pub fn insert(&mut self, p: Point) -> bool {
        if self.contains(p) {
            return true;
        }
        if self.len == N {
            return false;
        }
        self.points[self.len] = p;
        self.len += 1;
        true
    }

    /// Query whether `p` is in the set.
    #[inline]
    pub fn contains(&self, p: Point) -> bool {
        self.points[..self.len].contains(&p)
    }

    /// Return the number of points.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Query whether the set is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Query whether the set is full.
    #[inline]
    pub fn is_full(&self) -> bool {
        self.len == N
    }

    /// Return the points as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Point] {
        &self.points[..self.len]
    }
}

impl Board {
    /// Return the root stone of the chain at `p` (its id), or `None` if `p`
    /// holds no stone.
    #[inline(always)]
    pub fn chain_root(&self, p: Point) -> Option<Point> {
        self.at(p)
            .color()
            .map(|_| Point(self.chain[p.idx()]))
    }

    /// Return the number of stones of the chain at the stone `p`.
    #[inline]
    pub fn chain_size(&self, p: Point) -> usize {
        self.stones[ix(self.chain[p.idx()])] as usize
    }

    /// Iterate over the stones of the chain at the stone `p`.
    pub fn chain_stones(&self, p: Point) -> ChainStones<'_> {
        ChainStones {
            board: self,
            start: p.0,
            next: Some(p.0),
        }
    }

    /// Query whether the chain at the stone `p` has exactly one liberty.
    #[inline(always)]
    pub fn in_atari(&self, p: Point) -> bool {
        self.libs[ix(self.chain[p.idx()])].in_atari()
    }

    /// Return the last liberty of the chain at the stone `p` if it is in atari.
    #[inline(always)]
    pub fn atari_liberty(&self, p: Point) -> Option<Point> {
        let l = self.libs[ix(self.chain[p.idx()])];
        l.in_atari().then(|| l.atari_point())
    }

    /// Return the number of pseudo-liberties of the chain at `p`: an upper
    /// bound of its liberties, zero exactly when it has none.
    #[inline(always)]
    pub fn pseudo_liberties(&self, p: Point) -> u32 {
        self.libs[ix(self.chain[p.idx()])].count() as u32
    }

    /// Collect the distinct liberties of the chain at the stone `p` into
    /// `out`, stopping when `out` is full; return the set.
    pub fn liberties<const N: usize>(&self, p: Point) -> PointSet<N> {
        let mut out = PointSet::default();
        if self.in_atari(p) {
            if let Some(l) = self.atari_liberty(p) {
                out.insert(l);
            }
            return out;
        }
        'walk: for s in self.chain_stones(p) {
            for n in self.geo.neighbours(s) {
                if self.cell[n.idx()] == Cell::Empty && !out.insert(n) {
                    break 'walk;
                }
            }
        }
        out
    }

    /// Return the exact number of liberties of the chain at the stone `p`,
    /// counting at most `cap` (a cap of 3 is what ladders need).
    pub fn liberty_count_capped<const CAP: usize>(&self, p: Point) -> usize {
        self.liberties::<CAP>(p).len()
    }

    /// Query whether `p` is an eye-like point for `c`: every neighbour is a
    /// stone of `c` or off the board, and the opponent holds fewer than two
    /// diagonals (fewer than one on the edge). Filling it is wasteful.
    #[inline]
    pub fn is_eyelike(&self, p: Point, c: Color) -> bool {
        if self.neighbour_count(p, Cell::Empty) != 0
            || self.neighbour_count(p, Cell::stone(c.opponent())) != 0
        {
            return false;
        }
        let opp = Cell::stone(c.opponent());
        let mut bad = 0;
        let mut off = 0;
        for d in self.geo.diagonals(p) {
            match self.cell[d.idx()] {
                Cell::Off => off = 1,
                x if x == opp => bad += 1,
                _ => {}
            }
        }
        bad + off < 2
    }

    /// Return the roots of the chains of colour `c` in atari.
    ///
    /// The lists are current after tracked moves; after
    /// [`Board::play_legal_untracked`] call [`Board::refresh_ataris`] first.
    #[inline]
    pub fn chains_in_atari(&self, c: Color) -> &[u16] {
        debug_assert!(self.ataris_valid, "refresh_ataris() before chains_in_atari()");
        &self.ataris[c.idx()][..self.n_ataris[c.idx()] as usize]
    }

    /// Return the number of liberties, counted up to `CAP`, that the chain of
    /// `c` at `p` would have after `c` plays at the empty point `p`, with any
    /// captures that move makes.
    pub fn liberties_after<const CAP: usize>(&self, p: Point, c: Color) -> usize {
        let own = Cell::stone(c);
        let opp = Cell::stone(c.opponent());
        let mut libs: PointSet<CAP> = PointSet::default();
        let mut roots: PointSet<4> = PointSet::default();
        let mut captured: PointSet<4> = PointSet::default();
        let nbrs = self.geo.neighbours(p);
        for n in nbrs {
            match self.cell[n.idx()] {
                Cell::Empty => {
                    if !libs.insert(n) {
                        return CAP;
                    }
                }
                x if x == own => {
                    roots.insert(Point(self.chain[n.idx()]));
                }
                x if x == opp => {
                    if self.in_atari(n) {
                        captured.insert(Point(self.chain[n.idx()]));
                    }
                }
                _ => {}
            }
        }
        if libs.is_full() {
            return CAP;
        }
        for &r in roots.as_slice() {
            for s in self.chain_stones(r) {
                for n in self.geo.neighbours(s) {
                    if n != p && self.cell[n.idx()] == Cell::Empty && !libs.insert(n) {
                        return CAP;
                    }
                }
            }
        }
        // A captured stone becomes a liberty where it touches the new chain.
        for &r in captured.as_slice() {
            for s in self.chain_stones(r) {
                let touches = self.geo.neighbours(s).iter().any(|&m| {
                    m == p || (self.cell[m.idx()] == own && roots.contains(Point(self.chain[m.idx()])))
                });
                if touches && !libs.insert(s) {
                    return CAP;
                }
            }
        }
        libs.len()
    }
}

/// Iterator over the stones of one chain.
pub struct ChainStones<'a> {
    board: &'a Board,
    start: u16,
    next: Option<u16>,
}

impl Iterator for ChainStones<'_> {
    type Item = Point;

    #[inline]
    fn next(&mut self) -> Option<Point> {
        let s = self.next?;
        let n = self.board.next[ix(s)];
        self.next = (n != self.start).then_some(n);
        Some(Point(s))
    }
}
