//! The light policy: a uniformly random acceptable move.
//!
//! Uniform without rejection bias: draw a random index into the window of
//! untried empty points; if the point is not acceptable (illegal, or the
//! mover's own eye-like point), swap it to the end of the window and shrink
//! the window. Every acceptable point is equally likely, and each point is
//! looked at at most once.

use rand_core::RngCore;

use super::stats::count;
use super::RuleStats;
use crate::board::Board;
use crate::geometry::{Color, Point};
use crate::rng;

/// Return a uniformly random legal move of `c` that does not fill its own
/// eye-like point, or pass when there is none.
#[inline(always)]
pub fn light_move<R: RngCore>(
    board: &mut Board,
    c: Color,
    rng: &mut R,
    stats: &mut RuleStats,
) -> Point {
    random_move(board, c, rng, stats, |_, _, _, _| true)
}

/// Return a uniformly random move of `c` among the legal ones that do not
/// fill its own eye-like point and that `accept` takes (it may draw from
/// the generator and count what it refuses), or pass when there is none.
#[inline(always)]
pub(super) fn random_move<R: RngCore>(
    board: &mut Board,
    c: Color,
    rng: &mut R,
    stats: &mut RuleStats,
    mut accept: impl FnMut(&Board, Point, &mut R, &mut RuleStats) -> bool,
) -> Point {
    count!(stats.moves);
    let mut window = board.empty_count();
    while window > 0 {
        let i = rng::below(rng, window as u32) as usize;
        let p = board.empty_at_index(i);
        if board.is_playout_move(p, c) && accept(board, p, rng, stats) {
            count!(stats.random);
            return p;
        }
        window -= 1;
        board.swap_empties(i, window);
    }
    count!(stats.passes);
    Point::PASS
}
