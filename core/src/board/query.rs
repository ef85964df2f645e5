//! Read-only questions about chains, liberties and eyes that playouts and
//! tactics ask.

use super::{ix, Board, Libs, NBR_SHIFT};
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

    /// Put the points in point order.
    #[inline]
    pub fn sort(&mut self) {
        self.points[..self.len].sort_unstable();
    }
}

/// For each four diagonal cells (two bits each, as [`Cell`] numbers them),
/// bit `c` is set when they allow an eye of colour `c`: the opponent holds
/// fewer than two, or none when a diagonal is off the board.
static EYE_DIAGONALS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut key = 0;
    while key < 256 {
        let mut c = 0;
        while c < 2 {
            let (mut bad, mut off) = (0, 0);
            let mut k = 0;
            while k < 4 {
                let cell = (key >> (2 * k)) & 3;
                bad += (cell == 1 - c) as u32;
                off |= (cell == Cell::Off as usize) as u32;
                k += 1;
            }
            if bad + off < 2 {
                t[key] |= 1 << c;
            }
            c += 1;
        }
        key += 1;
    }
    t
};

impl Board {
    /// Return the root stone of the chain at `p` (its id), or `None` if `p`
    /// holds no stone.
    #[inline(always)]
    pub fn chain_root(&self, p: Point) -> Option<Point> {
        self.at(p).color().map(|_| Point(self.chain[p.idx()]))
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

    /// Return the last liberty of the chain at the stone `p`, which must be
    /// in atari (a root from [`Board::chains_in_atari`] or
    /// [`Board::new_ataris`]); skips the atari test of
    /// [`Board::atari_liberty`].
    #[inline(always)]
    pub fn last_liberty(&self, p: Point) -> Point {
        let l = self.libs[ix(self.chain[p.idx()])];
        debug_assert!(l.in_atari(), "last_liberty of a chain not in atari");
        l.atari_point()
    }

    /// Query whether the chain at the stone `a` has a stone next to the
    /// chain at the stone `b`. Walks `a`'s stones with no branch per
    /// neighbour (their contents are random in a playout): walk the
    /// smaller chain.
    #[inline]
    pub fn chains_touch(&self, a: Point, b: Point) -> bool {
        let (rb, cb) = (self.chain[b.idx()], self.cell[b.idx()]);
        let mut touch = false;
        for s in self.chain_stones(a) {
            for n in self.geo.neighbours(s) {
                // An empty point's chain id is stale: the colour decides.
                touch |= (self.chain[n.idx()] == rb) & (self.cell[n.idx()] == cb);
            }
        }
        touch
    }

    /// Collect the roots of the chains of the other colour next to the
    /// chain at the stone `p`, stopping when `N` are found.
    pub fn adjacent_chains<const N: usize>(&self, p: Point) -> PointSet<N> {
        let other = Cell::stone(
            self.cell[p.idx()]
                .color()
                .map_or(Color::Black, Color::opponent),
        );
        let mut out = PointSet::default();
        'walk: for s in self.chain_stones(p) {
            for n in self.geo.neighbours(s) {
                if self.cell[n.idx()] == other && !out.insert(Point(self.chain[n.idx()])) {
                    break 'walk;
                }
            }
        }
        out
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
            // The neighbour counts say how many empty points to look for:
            // none (a stone inside the chain), or stop at the last.
            let mut empties = self.neighbour_count(s, Cell::Empty);
            if empties == 0 {
                continue;
            }
            for n in self.geo.neighbours(s) {
                if self.cell[n.idx()] == Cell::Empty {
                    if !out.insert(n) {
                        break 'walk;
                    }
                    empties -= 1;
                    if empties == 0 {
                        break;
                    }
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
        self.neighbour_count(p, Cell::Empty) == 0
            && self.neighbour_count(p, Cell::stone(c.opponent())) == 0
            && self.eyelike_diagonals(p, c)
    }

    /// Query whether a playout may play `c` at the empty point `p`: the move
    /// is legal and does not fill an eye-like point of `c`. One read of the
    /// neighbour counts settles the common case.
    #[inline(always)]
    pub fn is_playout_move(&self, p: Point, c: Color) -> bool {
        let nb = self.nbr[p.idx()];
        // An empty neighbour: legal (a ko point has none) and no eye.
        if (nb >> NBR_SHIFT[Cell::Empty as usize]) & 0xF != 0 {
            return true;
        }
        if (nb >> NBR_SHIFT[c.opponent().idx()]) & 0xF == 0 && self.eyelike_diagonals(p, c) {
            return false;
        }
        self.is_legal_move_on_empty(p, c)
    }
    /// The diagonal half of the eye-like test (see [`Board::is_eyelike`]):
    /// the four diagonal cells, two bits each, index a table.
    #[inline(always)]
    fn eyelike_diagonals(&self, p: Point, c: Color) -> bool {
        let [a, b, d, e] = self.geo.diagonals(p);
        let key = self.cell[a.idx()] as usize
            | (self.cell[b.idx()] as usize) << 2
            | (self.cell[d.idx()] as usize) << 4
            | (self.cell[e.idx()] as usize) << 6;
        (EYE_DIAGONALS[key] >> c.idx()) & 1 != 0
    }

    /// Return the roots of the chains that the last move put in atari (all
    /// of the side to move). Kept by [`Board::play_legal`]; empty after an
    /// untracked move.
    #[inline]
    pub fn new_ataris(&self) -> &[Point] {
        &self.new_ataris[..self.n_new_ataris as usize]
    }

    /// Return the roots of the chains of colour `c` in atari.
    ///
    /// The lists are current after tracked moves; after
    /// [`Board::play_legal_untracked`] call [`Board::refresh_ataris`] first.
    #[inline]
    pub fn chains_in_atari(&self, c: Color) -> &[Point] {
        debug_assert!(
            self.ataris_valid,
            "refresh_ataris() before chains_in_atari()"
        );
        &self.ataris[c.idx()][..self.n_ataris[c.idx()] as usize]
    }

    /// Query whether the chain of `c` at `p` would have two or more
    /// liberties after `c` plays at the empty point `p` (the waterfall's
    /// "does this extension escape atari"). Same answer as
    /// `liberties_after::<2>(p, c) >= 2`, without a walk on the common
    /// paths: the new chain's pseudo-liberties are added up from its parts
    /// (each friendly chain once, less its adjacencies to `p`; the empty
    /// and captured neighbours) with no branch on what the neighbours hold,
    /// and tested like a chain's.
    #[inline]
    pub fn escapes_atari_at(&self, p: Point, c: Color) -> bool {
        if self.neighbour_count(p, Cell::Empty) >= 2 {
            return true;
        }
        let own = Cell::stone(c);
        let opp = Cell::stone(c.opponent());
        let unit = Libs::unit(p);
        let mask = |b: bool| (b as u64).wrapping_neg();
        // Chain ids of the friendly neighbours seen so far (`u16::MAX`:
        // none; no chain has that id).
        let mut seen = [u16::MAX; 3];
        let mut total = 0u64;
        let mut captures = false;
        for (k, n) in self.geo.neighbours(p).into_iter().enumerate() {
            let cell = self.cell[n.idx()];
            // An empty or off-board cell's chain id is stale: the cell
            // tests below mask what is read through it.
            let r = self.chain[n.idx()];
            let l = self.libs[ix(r)];
            let is_own = cell == own;
            let fresh = is_own & (seen[0] != r) & (seen[1] != r) & (seen[2] != r);
            if k < 3 {
                seen[k] = if is_own { r } else { u16::MAX };
            }
            // An enemy chain whose last liberty is `p` is taken.
            let takes = (cell == opp) & l.in_atari_at(unit);
            total += l.0 & mask(fresh);
            total -= unit & mask(is_own);
            total += Libs::unit(n) & mask((cell == Cell::Empty) | takes);
            captures |= takes;
        }
        let l = Libs(total);
        let two = (l.count() > 0) & !l.in_atari();
        // Rare: captured stones away from `p` may touch the new chain.
        two || (captures && self.liberties_after::<2>(p, c) >= 2)
    }

    /// Query whether `c` playing at the empty point `p` would put two or
    /// more stones in atari: `p` joins a chain of `c` and the chain is left
    /// with one liberty (a lone stone's self-atari, a throw-in, is not
    /// counted).
    #[inline(always)]
    pub fn is_self_atari(&self, p: Point, c: Color) -> bool {
        self.neighbour_count(p, Cell::stone(c)) > 0 && !self.escapes_atari_at(p, c)
    }

    /// Return the number of liberties, counted up to `CAP`, that the chain of
    /// `c` at `p` would have after `c` plays at the empty point `p`, with any
    /// captures that move makes.
    ///
    /// Cheap facts first: empty neighbours, and neighbours captured by the
    /// move, are distinct liberties. Friendly chains in atari add nothing
    /// (their one liberty is `p`). Only then are the other friendly chains
    /// and the captured chains walked.
    pub fn liberties_after<const CAP: usize>(&self, p: Point, c: Color) -> usize {
        if self.neighbour_count(p, Cell::Empty) as usize >= CAP {
            return CAP;
        }
        let own = Cell::stone(c);
        let opp = Cell::stone(c.opponent());
        let mut libs: PointSet<CAP> = PointSet::default();
        let mut roots: PointSet<4> = PointSet::default();
        let mut captured: PointSet<4> = PointSet::default();
        for n in self.geo.neighbours(p) {
            let cell = self.cell[n.idx()];
            if cell == Cell::Empty {
                libs.insert(n);
            } else if cell == own {
                roots.insert(Point(self.chain[n.idx()]));
            } else if cell == opp && self.in_atari(n) {
                // The stone at `n` is taken and becomes a liberty.
                libs.insert(n);
                captured.insert(Point(self.chain[n.idx()]));
            }
        }
        if libs.is_full() {
            return CAP;
        }
        for &r in roots.as_slice() {
            if self.in_atari(r) {
                continue;
            }
            for s in self.chain_stones(r) {
                for n in self.geo.neighbours(s) {
                    if n != p && self.cell[n.idx()] == Cell::Empty && !libs.insert(n) {
                        return CAP;
                    }
                }
            }
        }
        // Other captured stones become liberties where they touch the chain.
        for &r in captured.as_slice() {
            for s in self.chain_stones(r) {
                let touches = self.geo.neighbours(s).iter().any(|&m| {
                    self.cell[m.idx()] == own && roots.contains(Point(self.chain[m.idx()]))
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
