//! The final score margins of the playouts under each root move, for the
//! score fields an analysis shows (KataGo's `scoreMean`, `scoreStdev`,
//! `scoreLead`).
//!
//! The tree nodes keep win values only (40 bytes each); the margins are
//! summed beside the tree, one entry per root move (indexed by point, so
//! `MAX_POINTS` entries: 12 bytes each), plus one for the root. They count
//! the playouts since the root last changed (a new root, or the tree
//! dropped); the deepening's iterations keep the root's children and their
//! visits, and the sums with them, so a move's count matches its visits.
//!
//! Without the `scores` feature (the firmware) nothing is counted and
//! every sum is empty.

use crate::geometry::Point;
#[cfg(feature = "scores")]
use crate::geometry::MAX_POINTS;

/// The margins of a set of playouts, in points for the root's side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ScoreSum {
    /// Playouts counted.
    pub n: u32,
    /// Sum of their margins.
    pub sum: f32,
    /// Sum of their squared margins.
    pub sum_sq: f32,
}

impl ScoreSum {
    /// No playouts.
    pub const EMPTY: ScoreSum = ScoreSum {
        n: 0,
        sum: 0.0,
        sum_sq: 0.0,
    };

    /// Count one playout that ended `margin` points up.
    #[inline]
    pub fn add(&mut self, margin: f32) {
        self.n += 1;
        self.sum += margin;
        self.sum_sq += margin * margin;
    }

    /// Count the playouts of `other` too (another searcher's, say).
    pub fn merge(&mut self, other: &ScoreSum) {
        self.n += other.n;
        self.sum += other.sum;
        self.sum_sq += other.sum_sq;
    }

    /// Return the mean margin (0 without playouts).
    pub fn mean(&self) -> f32 {
        if self.n == 0 {
            0.0
        } else {
            self.sum / self.n as f32
        }
    }

    /// Return the margins' variance (0 under two playouts; the core has no
    /// `libm`, the caller takes the square root).
    pub fn variance(&self) -> f32 {
        if self.n < 2 {
            return 0.0;
        }
        let n = self.n as f32;
        let mean = self.sum / n;
        (self.sum_sq / n - mean * mean).max(0.0)
    }
}

/// The margins under each root move and under the root.
#[cfg(feature = "scores")]
#[derive(Clone, Debug)]
pub struct RootScores {
    moves: [ScoreSum; MAX_POINTS],
    root: ScoreSum,
}

/// Nothing counted: a build without the `scores` feature.
#[cfg(not(feature = "scores"))]
#[derive(Clone, Debug)]
pub struct RootScores;

#[cfg(not(feature = "scores"))]
impl RootScores {
    /// No playouts counted.
    pub const EMPTY: RootScores = RootScores;

    /// Do nothing (no storage).
    pub fn clear(&mut self, _cells: usize) {}

    /// Return no playouts.
    pub fn of(&self, _mv: Point) -> ScoreSum {
        ScoreSum::EMPTY
    }

    /// Return no playouts.
    pub fn root(&self) -> ScoreSum {
        ScoreSum::EMPTY
    }
}

#[cfg(feature = "scores")]
impl RootScores {
    /// No playouts counted.
    pub const EMPTY: RootScores = RootScores {
        moves: [ScoreSum::EMPTY; MAX_POINTS],
        root: ScoreSum::EMPTY,
    };

    /// Forget every playout (the first `cells` move entries are the ones in
    /// use on the board).
    pub fn clear(&mut self, cells: usize) {
        self.moves[..cells.min(MAX_POINTS)].fill(ScoreSum::EMPTY);
        self.root = ScoreSum::EMPTY;
    }

    /// Count a playout through root move `mv` that ended `margin` points up
    /// for the root's side to move.
    #[inline]
    pub fn add(&mut self, mv: Point, margin: f32) {
        self.moves[mv.idx()].add(margin);
        self.root.add(margin);
    }

    /// Return the margins under root move `mv`.
    pub fn of(&self, mv: Point) -> ScoreSum {
        self.moves[mv.idx()]
    }

    /// Return the margins of every playout counted.
    pub fn root(&self) -> ScoreSum {
        self.root
    }
}

#[cfg(all(test, feature = "scores"))]
mod tests {
    use super::*;

    #[test]
    fn mean_and_spread_of_the_margins() {
        let mut s = RootScores::EMPTY;
        let a = Point(5);
        for m in [2.0, 4.0, 6.0] {
            s.add(a, m);
        }
        s.add(Point::PASS, -10.0);
        assert_eq!(s.of(a).n, 3);
        assert!((s.of(a).mean() - 4.0).abs() < 1e-6);
        assert!((s.of(a).variance() - 8.0 / 3.0).abs() < 1e-5);
        assert!((s.root().mean() - 0.5).abs() < 1e-6);
        assert_eq!(s.of(Point(6)), ScoreSum::EMPTY);
        s.clear(16);
        assert_eq!(s.root().n, 0);
        assert_eq!(s.of(a).n, 0);
    }
}
