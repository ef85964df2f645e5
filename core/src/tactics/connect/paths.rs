//! Shortest paths between the two chains, the connection search's path
//! candidates.
//!
//! A breadth-first spread from each chain counting *fills*, the stones
//! the connector must add: his chains cost nothing, an empty point one, a
//! cutter chain of one or two liberties as many as its liberties (its
//! capture; one more if the capture reader, asked by the spread, cannot
//! take it), stronger cutter chains block. `D`, the fills to join the two
//! chains, is the second's distance from the first; a point is on a
//! shortest path when `dA + dB - 1 = D`. Path points are ranked shortest
//! first, then by the number of paths through them (the product of their
//! neighbours one step nearer to each chain: a bottleneck first), then by
//! the liberties of the mover's stone; at most [`PATH_CANDS`] are tried
//! ([`PATH_CANDS_SHALLOW`] in the first [`SLACK_DEPTH`] plies, where the
//! connector also tries the points of paths one fill longer). The spread
//! reaches [`MAX_DISTANCE`] fills at the root and a fill less every four
//! plies, down to [`MIN_DISTANCE`]: chains farther apart have no path
//! candidates, and a cut the connector keeps walking around is a cut.
//!
//! The two distance maps and the spread's point queue live on the frame
//! of [`Connector::path_points`], which is kept out of line (about 2 KB on
//! 19x19).

use crate::board::{Board, PointSet};
use crate::geometry::{Cell, Color, Point, MAX_POINTS};
use crate::tactics::{Goal, Verdict};

use super::{
    Cands, Connector, Oracle, MAX_DISTANCE, MIN_DISTANCE, PATH_CANDS, PATH_CANDS_SHALLOW,
    SLACK_DEPTH,
};

/// What [`Connector::path_points`] found besides the points.
pub(super) struct Paths {
    /// Cutter chains on a shortest path.
    pub(super) opp_on: Roots,
    /// Connector chains (not the two) with two liberties or fewer on one.
    pub(super) own_on: Roots,
    /// Weak cutter chains the capture reader cannot take.
    pub(super) safe: Roots,
}

/// Chain roots.
pub(super) type Roots = PointSet<8>;
/// A distance not reached by the spread.
const FAR: u8 = u8::MAX;

impl<const W: usize, const M: usize> Connector<W, M> {
    /// Push, for `mover`, the empty points on the shortest paths between
    /// the chains when they are at most [`MAX_DISTANCE`] apart (and, for
    /// the connector in the first [`SLACK_DEPTH`] plies, of paths one fill
    /// longer), at most [`PATH_CANDS`] ([`PATH_CANDS_SHALLOW`] in the first
    /// plies): shortest first, then those on most paths (by the product of
    /// their neighbours one step nearer to each chain), then most
    /// liberties for the mover's stone. Return what else lies on the
    /// shortest paths (see [`Paths`]).
    #[inline(never)]
    pub(super) fn path_points(
        &mut self,
        r: &mut dyn Oracle,
        b: &mut Board,
        mover: Color,
        k: u8,
        longer: bool,
        c: &mut Cands,
    ) -> Paths {
        let slack = u8::from(longer || (mover == self.own && k < SLACK_DEPTH));
        let (mut opp_on, mut own_on) = (Roots::default(), Roots::default());
        let mut da = [FAR; MAX_POINTS];
        let mut db = [FAR; MAX_POINTS];
        // A weak cutter chain is a way through only if the capture reader
        // captures it (the connector moving first): spread, read the weak
        // chains passed, spread again with those that stand made dearer.
        // The distance the paths may span shrinks along a line: a cut the
        // connector keeps walking around is a cut.
        let reach = MAX_DISTANCE.saturating_sub(k / 4).max(MIN_DISTANCE);
        let (mut blocked, mut tried) = (Roots::default(), Roots::default());
        for _ in 0..3 {
            let mut weak = Roots::default();
            da = [FAR; MAX_POINTS];
            self.spread(b, self.a, reach, &mut da, &blocked, &mut weak);
            let mut changed = false;
            for &e in weak.as_slice() {
                if tried.insert(e) && self.sub(r, b, Goal::Capture, e).verdict == Verdict::Fails {
                    changed |= blocked.insert(e);
                }
            }
            if !changed {
                break;
            }
        }
        let d = da[self.b.idx()];
        if d == FAR {
            return Paths {
                opp_on,
                own_on,
                safe: blocked,
            };
        }
        self.spread(
            b,
            self.b,
            d + slack,
            &mut db,
            &blocked,
            &mut Roots::default(),
        );
        let (root_a, root_b) = (b.chain_root(self.a), b.chain_root(self.b));
        let mut ranked = [(0usize, 0usize, Point::PASS); 24];
        let mut n = 0;
        for p in b.geometry().points() {
            let (x, y) = (da[p.idx()], db[p.idx()]);
            if x == FAR || y == FAR {
                continue;
            }
            match b.at(p) {
                Cell::Empty if x + y <= d + 1 + slack && n < ranked.len() => {
                    let nbrs = b.geometry().neighbours(p);
                    let near_a = nbrs.iter().filter(|q| da[q.idx()] < x).count();
                    let near_b = nbrs.iter().filter(|q| db[q.idx()] < y).count();
                    self.mark_around(b, p);
                    let libs = b.liberties_after::<4>(p, mover);
                    let rank = usize::from(x + y) << 8 | (255 - near_a * near_b);
                    ranked[n] = (rank, usize::MAX - libs, p);
                    n += 1;
                }
                Cell::Empty => {}
                cell if cell == Cell::stone(self.opp) => {
                    // Both spreads paid the chain's cost (its liberties,
                    // one more if it stands) to enter it.
                    if let Some(r) = b.chain_root(p).filter(|&r| !opp_on.contains(r)) {
                        let libs = b.liberty_count_capped::<3>(p) as u8;
                        let cost = libs + u8::from(blocked.contains(r));
                        if x + y == d + cost {
                            opp_on.insert(r);
                        }
                    }
                }
                _ if x + y == d => {
                    let r = b.chain_root(p);
                    if r != root_a && r != root_b && b.liberty_count_capped::<3>(p) <= 2 {
                        if let Some(r) = r {
                            own_on.insert(r);
                        }
                    }
                }
                _ => {}
            }
        }
        ranked[..n].sort_unstable();
        let most = if k < SLACK_DEPTH {
            PATH_CANDS_SHALLOW
        } else {
            PATH_CANDS
        };
        for &(_, _, q) in ranked[..n].iter().take(most) {
            c.insert(q);
        }
        Paths {
            opp_on,
            own_on,
            safe: blocked,
        }
    }

    /// Fill `dist` with the distance from the chain at `from` (see the
    /// module note), up to `limit`, passing the weak cutter chains of
    /// `blocked` at a fill more; add the weak cutter chains passed to
    /// `weak`; mark every point reached and every cutter chain whose
    /// liberties were looked at.
    fn spread(
        &mut self,
        b: &Board,
        from: Point,
        limit: u8,
        dist: &mut [u8; MAX_POINTS],
        blocked: &Roots,
        weak: &mut Roots,
    ) {
        let own = Cell::stone(self.own);
        let opp = Cell::stone(self.opp);
        // Points in the order reached; a point is pushed again when its
        // distance falls, and processed at the level it holds.
        let mut queue = [Point::PASS; MAX_POINTS];
        let mut len = 0;
        fn push(queue: &mut [Point; MAX_POINTS], len: &mut usize, p: Point) {
            if *len < MAX_POINTS {
                queue[*len] = p;
                *len += 1;
            }
        }
        for s in b.chain_stones(from) {
            dist[s.idx()] = 0;
            push(&mut queue, &mut len, s);
        }
        for d in 0..=limit {
            let mut i = 0;
            while i < len {
                let p = queue[i];
                i += 1;
                if dist[p.idx()] != d {
                    continue;
                }
                self.read.insert(p);
                for n in b.geometry().neighbours(p) {
                    let cell = b.at(n);
                    let step = if cell == own {
                        0
                    } else if cell == Cell::Empty {
                        1
                    } else if cell == opp && dist[n.idx()] > d + 1 {
                        // A cutter chain with one or two liberties costs
                        // its liberties (its capture), one more if the
                        // capture reader cannot take it; stronger ones
                        // block.
                        self.mark_chain(b, n);
                        let root = b.chain_root(n).unwrap_or(n);
                        match b.liberty_count_capped::<3>(n) as u8 {
                            l @ 1..=2 if !blocked.contains(root) => {
                                weak.insert(root);
                                l
                            }
                            l @ 1..=2 => l + 1,
                            _ => continue,
                        }
                    } else {
                        continue;
                    };
                    let e = d + step;
                    if e > limit || dist[n.idx()] <= e {
                        continue;
                    }
                    if cell == Cell::Empty {
                        dist[n.idx()] = e;
                        push(&mut queue, &mut len, n);
                    } else {
                        for t in b.chain_stones(n) {
                            dist[t.idx()] = e;
                            push(&mut queue, &mut len, t);
                        }
                    }
                }
            }
        }
    }
}
