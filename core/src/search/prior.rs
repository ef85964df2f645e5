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
//! - a move that makes a 3x3 shape pattern ([`crate::shape`]: hane, cut,
//!   katatsuke, edge moves) gets `shape` virtual wins (Michi's `PRIOR_PAT3`);
//! - the best move the best-move table stored for this position gets a
//!   gentle bonus growing with its stored visits (the seed's "gentle prior");
//! - pass is bad unless the opponent just passed.
//!
//! With a tactical reader ([`read`], once per expansion, not per move),
//! the capture and escape terms are checked by reading:
//! - a move the reader names as saving an own chain in atari, or an own
//!   chain with two liberties next to the last move that the opponent
//!   could capture, is good (the escape bonus);
//! - extending an own chain in atari that the reader says cannot be saved
//!   (a working ladder) is bad instead of good;
//! - a move the reader names as capturing an enemy chain with two
//!   liberties next to the last two moves (a ladder, a net) is good (the
//!   capture bonus).
//!
//! Unproven reads (a node or depth budget ran out) change nothing.
//!
//! At the root, with the owl's reading of the weak dragons
//! ([`super::dragons`]), a move that decides an unsettled dragon (makes
//! an own one live, kills an enemy one) is good, the more so the larger
//! the dragon, with or without a model.
//!
//! With a move-pattern model ([`crate::pattern`]), [`pattern_prior`] keeps
//! the even prior, the table's bonus, the pass rule and the reader's
//! verdicts, and replaces the rest by the model: a move it gives
//! probability `p` among the node's moves gets `weight * sqrt(p)` virtual
//! wins ([`super::Params::pattern_prior`], Pachi's `pattern_eqex`).

use crate::board::Board;
use crate::geometry::{Cell, Color, Point};
use crate::shape;
use crate::tactics::{self, Goal, Problem, Solver, Verdict};

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
    /// No virtual playouts.
    pub const NONE: Prior = Prior {
        visits: 0.0,
        wins: 0.0,
    };

    #[inline]
    fn add(&mut self, visits: f32, value: f32) {
        self.visits += visits;
        self.wins += visits * value;
    }
}

/// Most chains read per expansion.
pub const MAX_READS: usize = 8;

/// Most marks at a node: two a chain read, one a dragon the owl read.
const MARKS: usize = 2 * MAX_READS + super::dragons::MAX_DRAGONS;

/// What the reader said about one move of the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// Saves an own chain of this many stones.
    Saves(u16),
    /// Extends an own chain in atari that cannot be saved.
    FailsToEscape,
    /// Captures an enemy chain of this many stones.
    Captures(u16),
    /// Makes an unsettled own dragon of this many stones live (the owl,
    /// [`super::dragons`]).
    Lives(u16),
    /// Kills an unsettled enemy dragon of this many stones (the owl).
    Kills(u16),
}

/// The reader's verdicts at one node: marked moves of the side to move.
#[derive(Clone, Copy, Debug)]
pub struct Reading {
    marks: [(Point, Mark); MARKS],
    len: usize,
}

impl Reading {
    /// No reading (no reader, or nothing to read).
    pub const NONE: Reading = Reading {
        marks: [(Point::PASS, Mark::FailsToEscape); MARKS],
        len: 0,
    };

    /// Add a mark (none once full).
    pub fn push(&mut self, p: Point, m: Mark) {
        if self.len < self.marks.len() {
            self.marks[self.len] = (p, m);
            self.len += 1;
        }
    }

    /// Add the marks of `other` (as many as fit).
    pub fn merge(&mut self, other: &Reading) {
        for &(p, m) in &other.marks[..other.len] {
            self.push(p, m);
        }
    }

    /// Iterate over the marks.
    pub fn iter(&self) -> impl Iterator<Item = (Point, Mark)> + '_ {
        self.marks[..self.len].iter().copied()
    }

    /// Iterate over the marks of `p`.
    pub fn of(&self, p: Point) -> impl Iterator<Item = Mark> + '_ {
        self.iter().filter(move |(q, _)| *q == p).map(|(_, m)| m)
    }

    /// Return the number of marks.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Query whether there are no marks.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// Read, for `c` to move on `board`, chains with one or two liberties (at
/// most [`MAX_READS`], in board order): save own chains in atari, and own
/// chains with two liberties next to the last move (the opponent's);
/// capture enemy chains with two liberties next to the last two moves.
/// Chains away from the recent moves were read at an ancestor, and their
/// status most likely did not change. The board is restored.
pub fn read(
    board: &mut Board,
    c: Color,
    solver: &mut dyn Solver,
    budget: tactics::Budget,
) -> Reading {
    let mut out = Reading::NONE;
    let mut reads = 0;
    let geo = board.geometry();
    for p in geo.points() {
        let Some(owner) = board.at(p).color() else {
            continue;
        };
        if board.chain_root(p) != Some(p) {
            continue;
        }
        let atari = board.in_atari(p);
        if !atari && board.liberty_count_capped::<3>(p) > 2 {
            continue;
        }
        if owner != c && atari {
            // Taking it needs no reading.
            continue;
        }
        if !atari && !near_recent(board, p, owner != c) {
            // Two liberties away from the recent moves: read at an
            // ancestor already, most likely unchanged.
            continue;
        }
        if reads == MAX_READS {
            break;
        }
        reads += 1;
        let size = board.chain_size(p).min(usize::from(u16::MAX)) as u16;
        let goal = if owner == c {
            Goal::Save
        } else {
            Goal::Capture
        };
        let a = solver.solve(board, Problem { goal, target: p }, budget);
        if !a.proven {
            continue;
        }
        match (goal, a.verdict) {
            (_, Verdict::Succeeds) if !a.key_move.is_pass() => {
                out.push(
                    a.key_move,
                    if goal == Goal::Save {
                        Mark::Saves(size)
                    } else {
                        Mark::Captures(size)
                    },
                );
            }
            (Goal::Save, Verdict::Fails) if atari => {
                if let Some(l) = board.atari_liberty(p) {
                    out.push(l, Mark::FailsToEscape);
                }
            }
            _ => {}
        }
    }
    out
}

/// Query whether a stone or liberty of the chain at `p` is at or next to
/// (8-neighbourhood) the last move, or with `both` the second last move.
fn near_recent(board: &Board, p: Point, both: bool) -> bool {
    let geo = board.geometry();
    let recent = [board.last_move(), board.second_last_move().filter(|_| both)];
    let near = |q: Point| {
        let xy = geo.coords(q);
        recent.iter().flatten().any(|&m| {
            !m.is_pass() && {
                let mxy = geo.coords(m);
                mxy.0.abs_diff(xy.0) <= 1 && mxy.1.abs_diff(xy.1) <= 1
            }
        })
    };
    for s in board.chain_stones(p) {
        if near(s) {
            return true;
        }
        for n in geo.neighbours(s) {
            if board.at(n) == Cell::Empty && near(n) {
                return true;
            }
        }
    }
    false
}

/// Return the prior of `c` playing `p` on `board`; `table_visits_log2` is
/// `Some` when the best-move table names `p` for this position; `reading`
/// holds the reader's verdicts at this node; `shape` is the bonus of a
/// shape pattern (virtual playouts, all won; 0 turns patterns off).
pub fn prior(
    board: &Board,
    p: Point,
    c: Color,
    table_visits_log2: Option<u8>,
    reading: &Reading,
    shape: f32,
) -> Prior {
    let mut pr = even_and_table(table_visits_log2);
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
    let (saves, fails, takes) = marks(reading, p);
    if takes > 0 && captured == 0 {
        pr.add(if takes > 1 { 60.0 } else { 40.0 }, 0.9);
    }
    let libs = board.liberties_after::<2>(p, c);
    if saves > 0 {
        pr.add(if saves > 1 { 50.0 } else { 40.0 }, 0.9);
    } else if fails && captured == 0 {
        pr.add(30.0, 0.1);
    } else if own_in_atari && libs >= 2 {
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
    // Shape.
    if shape > 0.0 && shape::matches(board, p) {
        pr.add(shape, 1.0);
    }
    add_dragon(&mut pr, reading, p);
    pr
}

/// Return the even prior, with the table's bonus when the best-move table
/// names the move (`Some` of its log2 visits).
fn even_and_table(table_visits_log2: Option<u8>) -> Prior {
    let mut pr = Prior {
        visits: EVEN,
        wins: EVEN * 0.5,
    };
    if let Some(v) = table_visits_log2 {
        pr.add(4.0 + f32::from(v.min(20)), 1.0);
    }
    pr
}

/// Return what the reader said of `p`: the largest own chain it saves, if
/// it fails to escape, the largest enemy chain it captures.
fn marks(reading: &Reading, p: Point) -> (u16, bool, u16) {
    let (mut saves, mut fails, mut takes) = (0u16, false, 0u16);
    for m in reading.of(p) {
        match m {
            Mark::Saves(n) => saves = saves.max(n),
            Mark::FailsToEscape => fails = true,
            Mark::Captures(n) => takes = takes.max(n),
            Mark::Lives(_) | Mark::Kills(_) => {}
        }
    }
    (saves, fails, takes)
}

/// Add the owl's term for `p` to `pr`: a move that decides an unsettled
/// dragon (makes an own one live, kills an enemy one) gets
/// [`DRAGON_VISITS`] virtual playouts and one more for each stone up to
/// 30, at 90%.
fn add_dragon(pr: &mut Prior, reading: &Reading, p: Point) {
    let stones = reading
        .of(p)
        .map(|m| match m {
            Mark::Lives(n) | Mark::Kills(n) => n,
            _ => 0,
        })
        .max()
        .unwrap_or(0);
    if stones > 0 {
        pr.add(DRAGON_VISITS + f32::from(stones.min(30)), 0.9);
    }
}

/// Virtual playouts of a move that decides an unsettled dragon, before its
/// size's.
pub const DRAGON_VISITS: f32 = 30.0;

/// Return the prior of playing `p` on `board` when a move-pattern
/// model gives the move probability `prob` among the node's moves: the
/// even prior, the table's and the reader's terms as in [`prior`], and
/// `weight * sqrt(prob)` virtual wins (Pachi's pattern prior) instead of
/// the hand-made captures, escapes, self-ataris, lines, locality and
/// shapes, which the model's features cover. The pass keeps its rule.
pub fn pattern_prior(
    board: &Board,
    p: Point,
    table_visits_log2: Option<u8>,
    reading: &Reading,
    prob: f32,
    weight: f32,
) -> Prior {
    let mut pr = even_and_table(table_visits_log2);
    if p.is_pass() {
        if board.last_move() != Some(Point::PASS) {
            pr.add(20.0, 0.0);
        }
        return pr;
    }
    let (saves, fails, takes) = marks(reading, p);
    if takes > 0 {
        pr.add(if takes > 1 { 60.0 } else { 40.0 }, 0.9);
    }
    if saves > 0 {
        pr.add(if saves > 1 { 50.0 } else { 40.0 }, 0.9);
    } else if fails {
        pr.add(30.0, 0.1);
    }
    add_dragon(&mut pr, reading, p);
    pr.add(weight * sqrt(prob), 1.0);
    pr
}

/// Return the square root of `x >= 0` to about six digits (the core has
/// no `libm`): a guess from the exponent bits, then three Newton steps.
pub fn sqrt(x: f32) -> f32 {
    if x <= 0.0 || !x.is_finite() {
        return 0.0;
    }
    let mut y = f32::from_bits((x.to_bits() >> 1) + 0x1FBD_1DF5);
    for _ in 0..3 {
        y = 0.5 * (y + x / y);
    }
    y
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
