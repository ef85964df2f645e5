//! The candidates of the connection search's two nodes: the connector's
//! (a common liberty that joins the chains at once, captures of cutter
//! chains in atari, the defence of a chain that can be captured, attacks
//! on the cutting chains and on the three-liberty cutter chains next to
//! either chain, at the root the liberties of those that stand, ataris on
//! the cutting chains, the path points) and the cutter's (the last common
//! liberty, the defence of the same cutter chains, attacks on the
//! connector's weak chains on a path, at the root ataris on either chain,
//! the path points). See the module note of [`super`] for the order and
//! the rules.

use crate::board::{Board, PointSet};
use crate::geometry::{Cell, Color, Point};
use crate::tactics::{Goal, Verdict};

use super::paths::{Paths, Roots};
use super::{Cands, Connector, NEIGHBOUR_CUTTER_LIBS};
use crate::tactics::Oracle;

impl<const W: usize, const M: usize> Connector<W, M> {
    /// Return the connector's candidates, or `Err` with a common liberty
    /// that joins the chains at once.
    #[inline(never)]
    pub(super) fn connect_moves(
        &mut self,
        r: &mut dyn Oracle,
        b: &mut Board,
        k: u8,
    ) -> Result<Cands, Point> {
        let mut c = Cands::default();
        let common = self.common_liberties(b);
        let mut best: Option<(usize, Point)> = None;
        for &p in common.as_slice() {
            self.mark_around(b, p);
            if b.check_move(p, self.own).is_ok() {
                let n = b.liberties_after::<8>(p, self.own);
                if best.is_none_or(|(m, _)| n > m) {
                    best = Some((n, p));
                }
            } else {
                c.insert(p);
            }
        }
        if let Some((_, p)) = best {
            return Err(p);
        }
        self.atari_captures(b, &mut c);
        // Either chain that can be captured must be saved first.
        for end in [self.a, self.b] {
            if b.liberty_count_capped::<3>(end) <= 2
                && self.sub(r, b, Goal::Capture, end).verdict != Verdict::Fails
            {
                let save = self.sub(r, b, Goal::Save, end);
                if save.verdict != Verdict::Fails && !save.key_move.is_pass() {
                    c.insert(save.key_move);
                }
            }
        }
        // Attack the cutting chains and the weak cutter chains on a path.
        let mut paths = Cands::default();
        let Paths {
            mut opp_on, safe, ..
        } = self.path_points(r, b, self.own, k, false, &mut paths);
        for &e in self.cutting_chains(b).as_slice() {
            opp_on.insert(e);
        }
        let mut near = Roots::default();
        self.neighbour_cutters(b, &mut near);
        for &e in near.as_slice() {
            opp_on.insert(e);
        }
        for &e in opp_on.as_slice() {
            if safe.contains(e) {
                continue;
            }
            let ans = self.sub(r, b, Goal::Capture, e);
            if ans.verdict != Verdict::Fails {
                c.insert(ans.key_move);
            } else if k == 0 && near.contains(e) {
                // A neighbour that stands may still fall later in the
                // line: at the root, approach it from its liberties.
                self.liberties_of(b, e, NEIGHBOUR_CUTTER_LIBS, Some(self.own), &mut c);
            }
        }
        // Ataris on two-liberty cutting chains (a tempo, or a ladder).
        for &e in opp_on.as_slice() {
            self.liberties_of(b, e, 2, Some(self.own), &mut c);
        }
        for &p in paths.as_slice() {
            c.insert(p);
        }
        Ok(c)
    }

    /// Return the cutter's candidates, or `None` when the chains are
    /// connected (two common liberties).
    #[inline(never)]
    pub(super) fn disconnect_moves(
        &mut self,
        r: &mut dyn Oracle,
        b: &mut Board,
        k: u8,
    ) -> Option<Cands> {
        let mut c = Cands::default();
        let common = self.common_liberties(b);
        match common.len() {
            0 => {}
            1 => {
                c.insert(common.as_slice()[0]);
                return Some(c);
            }
            _ => return None,
        }
        // Save the cutting chains (and the weak cutter chains on a path or
        // of three liberties next to either chain) the connector could
        // capture; attack its weak chains on a path.
        let mut paths = Cands::default();
        let Paths {
            mut opp_on,
            own_on,
            safe,
        } = self.path_points(r, b, self.opp, k, false, &mut paths);
        for &e in self.cutting_chains(b).as_slice() {
            opp_on.insert(e);
        }
        self.neighbour_cutters(b, &mut opp_on);
        for &e in opp_on.as_slice() {
            if safe.contains(e) {
                continue;
            }
            let ans = self.sub(r, b, Goal::Save, e);
            if ans.verdict != Verdict::Fails && !ans.key_move.is_pass() {
                c.insert(ans.key_move);
            }
        }
        for &e in own_on.as_slice() {
            let ans = self.sub(r, b, Goal::Capture, e);
            if ans.verdict != Verdict::Fails {
                c.insert(ans.key_move);
            }
        }
        // At the root, ataris on either chain with two liberties (a
        // tempo, or a ko the connector must win). Deeper they cost more
        // than they find (`connection.tst` 61 instead of 66).
        if k == 0 {
            for end in [self.a, self.b] {
                self.liberties_of(b, end, 2, None, &mut c);
            }
        }
        for &p in paths.as_slice() {
            c.insert(p);
        }
        if c.is_empty() && k == 0 {
            // Nothing to take on the shortest paths (they run through
            // cutter stones that stand): at the root, where a cut is
            // answered with a move, the paths one fill longer.
            self.path_points(r, b, self.opp, k, true, &mut c);
        }
        Some(c)
    }

    /// Return the common liberties of the two chains (at most four).
    fn common_liberties(&mut self, b: &Board) -> PointSet<4> {
        let mut out = PointSet::default();
        let root_b = b.chain_root(self.b);
        for s in b.chain_stones(self.a) {
            for n in b.geometry().neighbours(s) {
                if b.at(n) == Cell::Empty
                    && b.geometry()
                        .neighbours(n)
                        .iter()
                        .any(|&m| b.at(m).color().is_some() && b.chain_root(m) == root_b)
                    && !out.insert(n)
                {
                    return out;
                }
            }
        }
        out
    }

    /// Push the captures of cutter chains in atari next to either chain,
    /// biggest first.
    fn atari_captures(&mut self, b: &Board, c: &mut Cands) {
        let mut found: PointSet<8> = PointSet::default();
        let mut sizes = [(0usize, Point::PASS); 8];
        for &e in b.chains_in_atari(self.opp) {
            if found.is_full() {
                break;
            }
            if b.chains_touch(e, self.a) || b.chains_touch(e, self.b) {
                if let Some(l) = b.atari_liberty(e) {
                    if found.insert(l) {
                        sizes[found.len() - 1] = (b.chain_size(e), l);
                    }
                }
            }
        }
        let n = found.len();
        sizes[..n].sort_unstable_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
        for &(_, l) in &sizes[..n] {
            self.mark_around(b, l);
            c.insert(l);
        }
    }

    /// Insert into `c` the liberties of the chain at `chain` when it has
    /// exactly `count` of them (two: the ataris on it; three: the
    /// approaches to it), marking around each; with `mover`, only those
    /// where its stone keeps two liberties.
    fn liberties_of(
        &mut self,
        b: &Board,
        chain: Point,
        count: usize,
        mover: Option<Color>,
        c: &mut Cands,
    ) {
        let ls: PointSet<4> = b.liberties(chain);
        if ls.len() != count {
            return;
        }
        for &q in ls.as_slice() {
            self.mark_around(b, q);
            if mover.is_none_or(|m| b.liberties_after::<2>(q, m) >= 2) {
                c.insert(q);
            }
        }
    }

    /// Insert into `out` the cutter chains next to either chain with
    /// exactly [`NEIGHBOUR_CUTTER_LIBS`] liberties (roots), marking each.
    fn neighbour_cutters(&mut self, b: &Board, out: &mut Roots) {
        for end in [self.a, self.b] {
            let adj: PointSet<8> = b.adjacent_chains(end);
            for &e in adj.as_slice() {
                if b.liberty_count_capped::<{ NEIGHBOUR_CUTTER_LIBS + 1 }>(e)
                    == NEIGHBOUR_CUTTER_LIBS
                {
                    self.mark_chain(b, e);
                    out.insert(e);
                }
            }
        }
    }

    /// Return the cutter chains next to both chains (roots, at most four).
    fn cutting_chains(&mut self, b: &Board) -> PointSet<4> {
        let mut out = PointSet::default();
        let opp = Cell::stone(self.opp);
        for s in b.chain_stones(self.a) {
            for n in b.geometry().neighbours(s) {
                if b.at(n) == opp && b.chains_touch(n, self.b) {
                    if let Some(r) = b.chain_root(n) {
                        self.mark_chain(b, n);
                        if !out.insert(r) {
                            return out;
                        }
                    }
                }
            }
        }
        out
    }
}
