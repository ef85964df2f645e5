//! The tactical features of a move (Coulom 2007, section 3.1): what it
//! captures, whether it escapes an atari or makes one, self-atari, its
//! line, and its distance to the last two moves.
//!
//! Each feature *group* takes one value per move; value 0 means "none of
//! this group" and has gamma 1. [`VALUES`] gives each group's number of
//! values, [`NAMES`] their names; a model stores one gamma for every
//! non-zero value, groups in order ([`TACTICAL_GAMMAS`] in all, checked when
//! a model is read). Where several values of a group apply, the first in
//! the group's order wins.
//!
//! Ladder status comes from the plain [`Ladder`](crate::tactics::Ladder) read, so a feature does not
//! depend on what a cache happened to hold.

use crate::board::Board;
use crate::geometry::{Cell, Color, Point};
use crate::tactics::LadderReader;

/// The feature groups.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Group {
    /// The pass move: 1 after a move, 2 after a pass.
    Pass = 0,
    /// A capture ([`capture`] values).
    Capture,
    /// An extension of an own chain in atari ([`escape`] values).
    Escape,
    /// The move's chain is left short of liberties ([`self_atari`] values).
    SelfAtari,
    /// An atari on an enemy chain ([`atari`] values).
    Atari,
    /// The move's line (1 to 4; 0 from the fifth line on).
    Border,
    /// Gridcular distance to the last move (2 to 17, 17 meaning farther).
    LastDistance,
    /// Gridcular distance to the move before it.
    SecondDistance,
}

/// Number of feature groups.
pub const GROUPS: usize = 8;

/// Values of each group, 0 ("none") included.
pub const VALUES: [u8; GROUPS] = [3, 8, 5, 4, 6, 5, 18, 18];

/// Gammas a model stores for the tactical features: one per non-zero value.
pub const TACTICAL_GAMMAS: usize = {
    let mut n = 0;
    let mut g = 0;
    while g < GROUPS {
        n += VALUES[g] as usize - 1;
        g += 1;
    }
    n
};

/// Index of each group's value 1 among the [`TACTICAL_GAMMAS`].
pub const OFFSET: [usize; GROUPS] = {
    let mut out = [0; GROUPS];
    let mut g = 1;
    while g < GROUPS {
        out[g] = out[g - 1] + VALUES[g - 1] as usize - 1;
        g += 1;
    }
    out
};

/// The groups' names.
pub const NAMES: [&str; GROUPS] = [
    "pass",
    "capture",
    "escape",
    "self-atari",
    "atari",
    "border",
    "distance-last",
    "distance-second",
];

/// Values of [`Group::Capture`], in order of precedence.
pub mod capture {
    /// The captured chain touches an own chain in atari (a rescue).
    pub const SAVES: u8 = 1;
    /// It takes the stone just played (or its chain).
    pub const LAST: u8 = 2;
    /// The move is a liberty of the last move's chain (it cuts).
    pub const CUTS: u8 = 3;
    /// A ko capture: one stone taken, the new stone left in atari.
    pub const KO: u8 = 4;
    /// The captured chain was caught in a ladder anyway.
    pub const LADDER: u8 = 5;
    /// One stone.
    pub const ONE: u8 = 6;
    /// Two stones or more.
    pub const MANY: u8 = 7;
}

/// Values of [`Group::Escape`].
pub mod escape {
    /// The last move made the atari; the chain gets away.
    pub const NEW_SAFE: u8 = 1;
    /// The last move made the atari; the chain is caught anyway.
    pub const NEW_CAUGHT: u8 = 2;
    /// An older atari; the chain gets away.
    pub const OLD_SAFE: u8 = 3;
    /// An older atari; the chain is caught anyway.
    pub const OLD_CAUGHT: u8 = 4;
}

/// Values of [`Group::SelfAtari`].
pub mod self_atari {
    /// A lone stone with one liberty (a throw-in, or a blunder).
    pub const ONE: u8 = 1;
    /// Two stones or more with one liberty.
    pub const MANY: u8 = 2;
    /// Two liberties, and the opponent catches the chain in a ladder.
    pub const LADDER: u8 = 3;
}

/// Values of [`Group::Atari`], in order of precedence.
pub mod atari {
    /// Two enemy chains put in atari at once.
    pub const DOUBLE: u8 = 1;
    /// The chain of the last move is put in atari and caught in a ladder.
    pub const LADDER_LAST: u8 = 2;
    /// Another chain is put in atari and caught in a ladder.
    pub const LADDER: u8 = 3;
    /// An atari while a ko is open (a ko threat).
    pub const KO: u8 = 4;
    /// Any other atari.
    pub const OTHER: u8 = 5;
}

/// Largest distance value (farther moves share it).
pub const FAR: u8 = 17;

/// Return the gridcular distance between two points, at most [`FAR`].
fn distance(board: &Board, a: Point, b: Point) -> u8 {
    let geo = board.geometry();
    let (ax, ay) = geo.coords(a);
    let (bx, by) = geo.coords(b);
    let (dx, dy) = (ax.abs_diff(bx), ay.abs_diff(by));
    (dx + dy + dx.max(dy)).min(FAR as usize) as u8
}

/// Return the tactical feature values (by [`Group`]) of `c` playing `p`
/// on `board` (`p` empty and legal, or the pass). The board is used for
/// ladder reads and restored.
pub fn tactical(
    board: &mut Board,
    p: Point,
    c: Color,
    ladder: &mut dyn LadderReader,
) -> [u8; GROUPS] {
    let mut v = [0u8; GROUPS];
    let last = board.last_move();
    if p.is_pass() {
        v[Group::Pass as usize] = if last == Some(Point::PASS) { 2 } else { 1 };
        return v;
    }
    let geo = board.geometry();
    let size = board.size();
    let (x, y) = geo.coords(p);
    let line = x.min(y).min(size - 1 - x).min(size - 1 - y) + 1;
    if line <= 4 {
        v[Group::Border as usize] = line as u8;
    }
    if let Some(m) = last.filter(|m| !m.is_pass()) {
        v[Group::LastDistance as usize] = distance(board, p, m);
    }
    if let Some(m) = board.second_last_move().filter(|m| !m.is_pass()) {
        v[Group::SecondDistance as usize] = distance(board, p, m);
    }
    if board.neighbour_count(p, Cell::Empty) == 4 {
        // No chain next to the move: no capture, atari or escape, and
        // four liberties.
        return v;
    }
    let own = Cell::stone(c);
    let opp = Cell::stone(c.opponent());
    let last_chain = last
        .filter(|m| !m.is_pass() && board.at(*m) == opp)
        .and_then(|m| board.chain_root(m));
    let mut captured = 0usize;
    let mut biggest: Option<Point> = None;
    let mut saves = false;
    let mut takes_last = false;
    let mut own_atari: Option<Point> = None;
    let mut atari_target: Option<Point> = None;
    let mut ataris = 0;
    for n in geo.neighbours(p) {
        let cell = board.at(n);
        if cell == opp {
            if board.in_atari(n) {
                let root = board.chain_root(n);
                let size = board.chain_size(n);
                captured += size;
                if biggest.is_none_or(|b| board.chain_size(b) < size) {
                    biggest = Some(n);
                }
                takes_last |= root.is_some() && root == last_chain;
                saves |= touches_own_atari(board, n, c);
            } else if board.liberty_count_capped::<3>(n) == 2 {
                let root = board.chain_root(n);
                if atari_target.is_none_or(|t| board.chain_root(t) != root) {
                    ataris += 1;
                }
                if atari_target.is_none_or(|t| board.chain_size(t) < board.chain_size(n)) {
                    atari_target = Some(n);
                }
            }
        } else if cell == own && board.in_atari(n) {
            own_atari = Some(n);
        }
    }
    let libs = board.liberties_after::<2>(p, c);
    if let Some(b) = biggest {
        let cuts = last_chain.is_some_and(|r| {
            geo.neighbours(p)
                .iter()
                .any(|&n| board.at(n) == opp && board.chain_root(n) == Some(r))
        });
        v[Group::Capture as usize] = if saves {
            capture::SAVES
        } else if takes_last {
            capture::LAST
        } else if cuts {
            capture::CUTS
        } else if captured == 1 && libs < 2 && board.neighbour_count(p, own) == 0 {
            capture::KO
        } else if ladder.caught_in_atari(board, b) {
            capture::LADDER
        } else if captured == 1 {
            capture::ONE
        } else {
            capture::MANY
        };
    }
    if let Some(a) = own_atari {
        let new = board
            .new_ataris()
            .iter()
            .any(|&r| board.chain_root(a) == Some(r));
        let caught = ladder.caught_after(board, p, c);
        v[Group::Escape as usize] = match (new, caught) {
            (true, false) => escape::NEW_SAFE,
            (true, true) => escape::NEW_CAUGHT,
            (false, false) => escape::OLD_SAFE,
            (false, true) => escape::OLD_CAUGHT,
        };
    }
    if libs < 2 {
        let alone = board.neighbour_count(p, own) == 0;
        v[Group::SelfAtari as usize] = if alone {
            self_atari::ONE
        } else {
            self_atari::MANY
        };
        return v;
    }
    if board.liberties_after::<3>(p, c) == 2 {
        let caught = match v[Group::Escape as usize] {
            0 => ladder.caught_after(board, p, c),
            e => e == escape::NEW_CAUGHT || e == escape::OLD_CAUGHT,
        };
        if caught {
            v[Group::SelfAtari as usize] = self_atari::LADDER;
        }
    }
    if let Some(t) = atari_target {
        v[Group::Atari as usize] = if ataris > 1 {
            atari::DOUBLE
        } else if ladder.caught_after_atari(board, p, c, t) {
            if board.chain_root(t).is_some() && board.chain_root(t) == last_chain {
                atari::LADDER_LAST
            } else {
                atari::LADDER
            }
        } else if board.ko().is_some() {
            atari::KO
        } else {
            atari::OTHER
        };
    }
    v
}

/// Query whether the enemy chain at `q` touches a chain of `c` in atari.
fn touches_own_atari(board: &Board, q: Point, c: Color) -> bool {
    let geo = board.geometry();
    let own = Cell::stone(c);
    board.chain_stones(q).any(|s| {
        geo.neighbours(s)
            .iter()
            .any(|&n| board.at(n) == own && board.in_atari(n))
    })
}
