//! The candidate list of a node and the generators both sides use: the
//! liberties of attacker chains in atari next to the prey (the attacker's
//! rescue, the defender's capture), the retake of a ko just taken, the
//! atari that makes a ko capture of a lone stone a plain capture (and the
//! extension that keeps it a ko), the prey's liberties while three
//! liberties are read on, second-order liberties, the liberties of
//! the chains next to the prey's liberties, and the test for a prey
//! crawling along the edge (read on past the three-liberty rules).
//!
//! Generators push their moves in a fixed order (sorted by a rank, then by
//! point) into a [`Cands`] list of at most sixteen distinct moves, and
//! mark what they read (see [`super`]): the order is part of the search's
//! behaviour, so node counts and key moves are reproducible.

use core::cmp::Reverse;

use crate::board::{Board, PointSet};
use crate::geometry::{Cell, Color, Geometry, Point};
use crate::table::TacticCluster;
use crate::tactics::cache::level::LOSE;

use super::{Reader, Value, CRAWL_DEPTH, FOUR_LIB_DEPTH};

/// Most candidate moves per node.
const MAX_CANDS: usize = 16;

/// A fixed list of distinct candidate moves.
pub(super) struct Cands {
    pts: [Point; MAX_CANDS],
    len: usize,
}

impl Cands {
    pub(super) fn new() -> Self {
        Cands {
            pts: [Point::PASS; MAX_CANDS],
            len: 0,
        }
    }

    pub(super) fn push(&mut self, p: Point) {
        if self.len < MAX_CANDS && !self.pts[..self.len].contains(&p) {
            self.pts[self.len] = p;
            self.len += 1;
        }
    }

    /// Push `p` even if the list is full: it takes the last place.
    pub(super) fn push_forced(&mut self, p: Point) {
        if self.len == MAX_CANDS && !self.pts.contains(&p) {
            self.len -= 1;
        }
        self.push(p);
    }

    /// Push the points of `pts` in point order (the order of a generator
    /// whose moves share one rank).
    pub(super) fn push_in_order<const N: usize>(&mut self, mut pts: PointSet<N>) {
        pts.sort();
        for &q in pts.as_slice() {
            self.push(q);
        }
    }

    pub(super) fn as_slice(&self) -> &[Point] {
        &self.pts[..self.len]
    }
}

/// Which neighbour chains [`Reader::neighbour_liberties`] takes in.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Reach {
    /// Two to `most` liberties; the mover's stone keeps two.
    Near,
    /// Three or four liberties of which one to `most` are outside the
    /// prey's (the ones a connection adds); the stone keeps two.
    Wide,
    /// As `Near`, the stone keeps one (a sacrifice that ataris).
    Sacrifice,
}

impl<'t, S: AsRef<[TacticCluster]> + AsMut<[TacticCluster]>, const W: usize, const M: usize>
    Reader<'t, S, W, M>
{
    /// Push the points of `pts` in point order where `keep` holds,
    /// marking around each point tested (a generator whose moves share
    /// one rank and must pass a test on the board).
    pub(super) fn push_kept_in_order<const N: usize>(
        &mut self,
        b: &Board,
        mut pts: PointSet<N>,
        keep: impl Fn(Point) -> bool,
        out: &mut Cands,
    ) {
        pts.sort();
        for &q in pts.as_slice() {
            self.mark_around(b, q);
            if keep(q) {
                out.push(q);
            }
        }
    }

    /// Push, sorted by (size descending, point), the liberty of every chain
    /// of the attacker in atari next to the prey.
    pub(super) fn attacker_ataris(&self, b: &Board, out: &mut Cands) {
        let mut found: [(Reverse<usize>, Point); 8] = [(Reverse(0), Point::PASS); 8];
        let mut n = 0;
        for &r in b.chains_in_atari(self.att) {
            if n < found.len() && b.chains_touch(r, self.prey) {
                if let Some(l) = b.atari_liberty(r) {
                    found[n] = (Reverse(b.chain_size(r)), l);
                    n += 1;
                }
            }
        }
        push_ranked(&mut found[..n], 0, out);
    }

    /// Push the retake of a ko the opponent just took (played after a ko
    /// threat, see [`Self::child`]) while no threat has been used in the
    /// line: a ko capture is only worth "wins the ko" if the retake matters,
    /// and the search finds out whether it does.
    #[inline(always)]
    pub(super) fn push_retake(b: &Board, threat: bool, mover: Color, c: &mut Cands) {
        // At the root the ban binds the mover only if it is his turn (the
        // cache key holds the ko point only then).
        if let Some(kp) = b.ko().filter(|_| !threat && b.to_play() == mover) {
            c.push_forced(kp);
        }
    }

    /// Push, when taking a one-stone prey at `l` would be a ko capture, the
    /// other liberty of every defender chain (not the prey) with two
    /// liberties next to `l`: for the attacker (`mover`) an atari after
    /// which the capture takes more than one stone, no ko (GNU Go's
    /// back-capturing in `attack1`); for the defender the extension that
    /// keeps the capture a ko. Return whether the capturing stone would be
    /// left with one liberty (a ko, or a snapback if it joins a chain).
    pub(super) fn ko_free_capture(
        &mut self,
        b: &Board,
        l: Point,
        mover: Color,
        c: &mut Cands,
    ) -> bool {
        self.mark_around(b, l);
        if b.liberties_after::<2>(l, self.att) >= 2 {
            return false;
        }
        let prey_root = b.chain_root(self.prey);
        for n in b.geometry().neighbours(l) {
            if b.at(n) != Cell::stone(self.def) || b.chain_root(n) == prey_root {
                continue;
            }
            let ls: PointSet<3> = b.liberties(n);
            if ls.len() == 2 {
                for &q in ls.as_slice() {
                    if q != l {
                        self.mark_around(b, q);
                        if mover == self.att || b.liberties_after::<2>(q, self.def) >= 2 {
                            c.push(q);
                        }
                    }
                }
            }
        }
        true
    }

    /// Return the prey's liberties while the three-liberty nodes read on
    /// (three, or four in the first [`FOUR_LIB_DEPTH`] plies), else the
    /// value of a safe prey.
    pub(super) fn readable_libs(&self, b: &Board, k: u8) -> Result<PointSet<5>, Value> {
        let ls: PointSet<5> = b.liberties(self.prey);
        let most = if k < FOUR_LIB_DEPTH { 4 } else { 3 };
        if ls.len() > most {
            return Err(Value::exact(LOSE, k));
        }
        Ok(ls)
    }

    /// Query whether the prey, at ply `k` (before [`CRAWL_DEPTH`]), is
    /// crawling along the edge: its stones and its three or four liberties
    /// all on the first two lines. Such a prey is read on where the
    /// three-liberty rules would call it safe (four liberties past
    /// [`FOUR_LIB_DEPTH`], a defender past [`DEFEND3_DEPTH`]), with a few candidates
    /// only: GNU Go reads three and four liberties deeper than kosumi, and
    /// a chain that can only crawl along the edge is where it pays.
    ///
    /// [`DEFEND3_DEPTH`]: super::DEFEND3_DEPTH
    pub(super) fn crawling(&self, b: &Board, k: u8) -> bool {
        let geo = b.geometry();
        k < CRAWL_DEPTH && {
            let ls: PointSet<5> = b.liberties(self.prey);
            ls.len() <= 4
                && ls.as_slice().iter().all(|&q| on_low_line(geo, q))
                && b.chain_stones(self.prey).all(|q| on_low_line(geo, q))
        }
    }

    /// Push the empty neighbours of the liberties `ls` (not liberties
    /// themselves) where a stone of `c` would have at least `need`
    /// liberties: nets for the attacker, connecting out for the defender.
    pub(super) fn second_order(
        &mut self,
        b: &Board,
        ls: &[Point],
        c: Color,
        need: usize,
        out: &mut Cands,
    ) {
        for &l in ls {
            for n in b.geometry().neighbours(l) {
                if b.at(n) == Cell::Empty && !ls.contains(&n) {
                    self.mark_around(b, n);
                    if b.liberties_after::<3>(n, c) >= need {
                        out.push(n);
                    }
                }
            }
        }
    }

    /// Push, in point order, the liberties (outside `ls`) of the chains of
    /// `owner` other than the prey next to the points `ls` that `reach`
    /// takes in (by default: two to `most` liberties), where a stone of the
    /// other colour would have two liberties (one for a sacrifice) or
    /// captures; mark around each.
    pub(super) fn neighbour_liberties(
        &mut self,
        b: &Board,
        ls: &[Point],
        owner: Color,
        most: usize,
        reach: Reach,
        out: &mut Cands,
    ) {
        let prey_root = b.chain_root(self.prey);
        let mover = owner.opponent();
        let mut roots: PointSet<8> = PointSet::default();
        let mut pts: PointSet<12> = PointSet::default();
        for &l in ls {
            for m in b.geometry().neighbours(l) {
                if b.at(m) != Cell::stone(owner) {
                    continue;
                }
                let Some(r) = b.chain_root(m).filter(|&r| Some(r) != prey_root) else {
                    continue;
                };
                if roots.contains(r) || !roots.insert(r) {
                    continue;
                }
                let libs: PointSet<5> = b.liberties(r);
                let fits = if reach == Reach::Wide {
                    let outside = libs.as_slice().iter().filter(|q| !ls.contains(q)).count();
                    (3..=4).contains(&libs.len()) && (1..=most).contains(&outside)
                } else {
                    (2..=most).contains(&libs.len())
                };
                if fits {
                    for &q in libs.as_slice() {
                        if !ls.contains(&q) {
                            pts.insert(q);
                        }
                    }
                }
            }
        }
        let need = if reach == Reach::Sacrifice { 1 } else { 2 };
        let keep = |q| b.liberties_after::<2>(q, mover) >= need || captures(b, q, mover);
        self.push_kept_in_order(b, pts, keep, out);
    }
}

/// Query whether `p` is on the first or second line.
fn on_low_line(geo: Geometry, p: Point) -> bool {
    let (x, y) = geo.coords(p);
    let last = geo.size() - 1;
    x.min(y).min(last - x).min(last - y) <= 1
}

/// Query whether `c` playing at the empty point `p` captures a chain.
#[inline]
pub(super) fn captures(b: &Board, p: Point, c: Color) -> bool {
    let opp = Cell::stone(c.opponent());
    b.geometry()
        .neighbours(p)
        .iter()
        .any(|&n| b.at(n) == opp && b.in_atari(n))
}

/// Push the points of `ranked` (score, point), best score first and then
/// by point, whose score is at least `min`.
pub(super) fn push_ranked(ranked: &mut [(Reverse<usize>, Point)], min: usize, out: &mut Cands) {
    ranked.sort_unstable();
    for &(Reverse(n), l) in ranked.iter() {
        if n >= min {
            out.push(l);
        }
    }
}

/// Return the liberties (other than `p`, at most three) that a stone of
/// `c` at the empty point `p` would have, captures left out: its empty
/// neighbours and the liberties of the chains of `c` it joins.
pub(super) fn stone_liberties(b: &Board, p: Point, c: Color) -> PointSet<3> {
    let mut out: PointSet<3> = PointSet::default();
    for n in b.geometry().neighbours(p) {
        match b.at(n) {
            Cell::Empty => {
                out.insert(n);
            }
            cell if cell == Cell::stone(c) => {
                let ls: PointSet<4> = b.liberties(n);
                for &q in ls.as_slice() {
                    if q != p {
                        out.insert(q);
                    }
                }
            }
            _ => {}
        }
    }
    out
}
