//! Priors: cheap knowledge that seeds a new child's AMAF statistics with
//! virtual playouts (Fuego/Pachi style), so the first visits go to
//! plausible moves and bad ones are tried late.
//!
//! Every child starts with [`EVEN`] virtual playouts at 50%; then, from the
//! mover's view:
//! - a capture of an enemy chain in atari is good, the more stones the better;
//! - a move at the last liberty of an own chain in atari that leaves it two
//!   or more liberties (an atari escape) is good;
//! - a self-atari (the new chain would have one liberty) that captures
//!   nothing is bad, except a single-stone throw-in;
//! - a move on the first two lines with no stone within two points is bad
//!   (on the first line very bad), one on the third or fourth line there is
//!   mildly good;
//! - a move next to the last move (8-neighbourhood) is mildly good;
//! - the best move the best-move table stored for this position gets a
//!   gentle bonus growing with its stored visits (the seed's "gentle prior");
//! - pass is bad unless the opponent just passed.

use crate::board::Board;
use crate::geometry::{Cell, Color, Point};

/// Virtual playouts at 50% given to every child.
pub const EVEN: f32 = 10.0;

/// Virtual playouts and wins to add to a child.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Prior {
    /// Virtual playouts.
    pub visits: f32,
    /// Virtual wins.
    pub wins: f32,
}

impl Prior {
    #[inline]
    fn add(&mut self, visits: f32, value: f32) {
        self.visits += visits;
        self.wins += visits * value;
    }
}

/// Return the prior of `c` playing `p` on `board`; `table_visits_log2` is
/// `Some` when the best-move table names `p` for this position.
pub fn prior(board: &Board, p: Point, c: Color, table_visits_log2: Option<u8>) -> Prior {
    let mut pr = Prior {
        visits: EVEN,
        wins: EVEN * 0.5,
    };
    if let Some(v) = table_visits_log2 {
        pr.add(4.0 + f32::from(v.min(20)), 1.0);
    }
    if p.is_pass() {
        if board.last_move() == Some(Point::PASS) {
            return pr;
        }
        pr.add(20.0, 0.0);
        return pr;
    }
    let geo = board.geometry();
    let opp = Cell::stone(c.opponent());
    let own = Cell::stone(c);
    // Captures and atari escapes.
    let mut captured = 0usize;
    let mut own_in_atari = false;
    for n in geo.neighbours(p) {
        let cell = board.at(n);
        if cell == opp && board.in_atari(n) {
            captured += board.chain_size(n);
        } else if cell == own && board.in_atari(n) {
            own_in_atari = true;
        }
    }
    if captured > 0 {
        pr.add(if captured > 1 { 60.0 } else { 40.0 }, 0.95);
    }
    let libs = board.liberties_after::<2>(p, c);
    if own_in_atari && libs >= 2 {
        pr.add(40.0, 0.9);
    }
    if libs < 2 && captured == 0 {
        // A lone stone thrown in may be a tesuji; anything bigger is bad.
        let joins = geo.neighbours(p).iter().any(|&n| board.at(n) == own);
        pr.add(if joins { 30.0 } else { 10.0 }, 0.05);
    }
    // Lines, in an empty neighbourhood.
    let size = board.size();
    let (x, y) = geo.coords(p);
    let line = x.min(y).min(size - 1 - x).min(size - 1 - y);
    if size >= 9 && empty_around(board, x, y) {
        match line {
            0 => pr.add(20.0, 0.1),
            1 => pr.add(10.0, 0.25),
            2 | 3 => pr.add(6.0, 0.7),
            _ => {}
        }
    }
    // Locality.
    if let Some(last) = board.last_move() {
        if !last.is_pass() && is_near(geo.coords(last), (x, y)) {
            pr.add(6.0, 0.7);
        }
    }
    pr
}

/// Query whether `a` and `b` are at most one step apart in each direction.
#[inline]
fn is_near(a: (usize, usize), b: (usize, usize)) -> bool {
    a.0.abs_diff(b.0) <= 1 && a.1.abs_diff(b.1) <= 1 && a != b
}

/// Query whether no stone lies within Manhattan distance 2 of `(x, y)`.
fn empty_around(board: &Board, x: usize, y: usize) -> bool {
    let geo = board.geometry();
    let n = board.size() as isize;
    for dy in -2isize..=2 {
        for dx in -2isize..=2 {
            if dx.abs() + dy.abs() > 2 {
                continue;
            }
            let (px, py) = (x as isize + dx, y as isize + dy);
            if px < 0 || py < 0 || px >= n || py >= n {
                continue;
            }
            if board.at(geo.point(px as usize, py as usize)) != Cell::Empty {
                return false;
            }
        }
    }
    true
}
