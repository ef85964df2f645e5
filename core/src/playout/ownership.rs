//! Ownership by playouts: who ends up owning each point when the position
//! is played out many times. It tells dead stones from live ones, which
//! area scoring of the position as it stands (Tromp-Taylor) cannot: an
//! engine deciding whether passing wins, or listing dead stones, asks this.

use rand_core::RngCore;

use super::{playout, Policy, RuleStats};
use crate::board::Board;
use crate::geometry::{Cell, Color, Point, MAX_POINTS};

/// Return who owns `p` on a finished playout board: its stone's colour, or
/// for an empty point the only colour around it.
fn owner(b: &Board, p: Point) -> Option<Color> {
    match b.at(p) {
        Cell::Black => Some(Color::Black),
        Cell::White => Some(Color::White),
        _ => match (
            b.neighbour_count(p, Cell::Black) > 0,
            b.neighbour_count(p, Cell::White) > 0,
        ) {
            (true, false) => Some(Color::Black),
            (false, true) => Some(Color::White),
            _ => None,
        },
    }
}

/// Play `board` out `n` times with the waterfall policy, and add to
/// `black[p.idx()]` two for every playout black owns `p` at the end and one
/// for every playout nobody does (so `black / 2n` is black's share).
/// `scratch` is the caller's board to play on. A finished game (two
/// passes) is played on as well ([`Board::reopen`]): the question is what
/// becomes of its stones.
pub fn ownership<R: RngCore>(
    board: &Board,
    komi2: i16,
    n: u32,
    rng: &mut R,
    scratch: &mut Board,
    black: &mut [u16; MAX_POINTS],
) {
    let mut stats = RuleStats::default();
    for _ in 0..n {
        scratch.copy_from(board);
        scratch.reopen();
        playout(scratch, Policy::waterfall(), komi2, rng, &mut stats);
        for p in board.geometry().points() {
            black[p.idx()] = black[p.idx()].saturating_add(match owner(scratch, p) {
                Some(Color::Black) => 2,
                None => 1,
                Some(Color::White) => 0,
            });
        }
    }
}

/// Return twice black's expected area margin (komi `komi2 / 2` included)
/// with dead stones removed: each point goes to the colour that owns it in
/// most of `n` playouts (`n` at most 32767).
pub fn estimated_margin2<R: RngCore>(
    board: &Board,
    komi2: i16,
    n: u32,
    rng: &mut R,
    scratch: &mut Board,
) -> i32 {
    let n = n.clamp(1, 32_767);
    let mut black = [0u16; MAX_POINTS];
    ownership(board, komi2, n, rng, scratch, &mut black);
    let mut margin = 0i32;
    for p in board.geometry().points() {
        let share = black[p.idx()] as u32;
        // `share` runs from 0 (always white's) to 2n (always black's).
        if share > n {
            margin += 1;
        } else if share < n {
            margin -= 1;
        }
    }
    2 * margin - komi2 as i32
}
