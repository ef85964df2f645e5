//! Packing reader results and hints into [`Tactic`] payloads.
//!
//! ```text
//!   result  alpha = (winner of the lower level, plies reached)
//!           beta  = (winner of the upper level, deepest valid budget)
//!           move16: bits 0..10 key move, 10..12 lower level,
//!                   12..14 upper level, 14..16 tag 0b01
//!   hint    alpha = (nobody, y0), beta = (nobody, y1)
//!           move16: bits 0..5 x0, 5..10 x1, 14..16 tag 0b10
//! ```
//!
//! Levels are the attacker's (see [`level`]); a bound's winner is the
//! attacker at `WIN`, the defender at `LOSE` and nobody at a ko level (the
//! move field tells which ko level). The tag tells results from hints, so a
//! false hit of the wrong kind is recognised and ignored.

use crate::board::Board;
use crate::geometry::{Color, Point};
use crate::table::{Bound, Table, Tactic, TacticCluster, Winner};

use super::key::Rect;

/// Levels of a result, seen from the attacker, in increasing order.
pub mod level {
    /// The attacker fails.
    pub const LOSE: u8 = 0;
    /// The attacker wins only if he first finds a ko threat.
    pub const KO_B: u8 = 1;
    /// The attacker wins if he takes the ko first.
    pub const KO_A: u8 = 2;
    /// The attacker wins.
    pub const WIN: u8 = 3;
}

const TAG_SHIFT: u32 = 14;
const TAG_RESULT: u16 = 0b01;
const TAG_HINT: u16 = 0b10;
const MOVE_MASK: u16 = (1 << 10) - 1;
const ONE_BOUND_MAX: u8 = Bound::MAX_PLIES;

/// A root result as the cache holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stored {
    /// Lower level (attacker's view).
    pub lo: u8,
    /// Upper level.
    pub hi: u8,
    /// Deepest ply the search reached.
    pub plies: u8,
    /// Deepest depth budget the result holds for.
    pub valid_to: u8,
    /// The key move.
    pub mv: Point,
}

impl Stored {
    /// Query whether a search with depth budget `depth` may use this result
    /// (the rules of the module note of [`crate::tactics`]).
    pub fn usable(&self, depth: u8) -> bool {
        if self.lo == self.hi {
            self.plies <= depth && depth <= self.valid_to
        } else {
            depth <= self.valid_to
        }
    }

    /// Pack into a payload; `attacker` is the colour of the attacker.
    pub fn pack(&self, attacker: Color) -> Tactic {
        let winner = |l: u8| match l {
            level::WIN => color_winner(attacker),
            level::LOSE => color_winner(attacker.opponent()),
            _ => Winner::Nobody,
        };
        Tactic {
            alpha: bound(winner(self.lo), self.plies),
            beta: bound(winner(self.hi), self.valid_to),
            mv: (self.mv.0 & MOVE_MASK)
                | (u16::from(self.lo & 3) << 10)
                | (u16::from(self.hi & 3) << 12)
                | (TAG_RESULT << TAG_SHIFT),
        }
    }

    /// Unpack a payload; `None` if it is not a result.
    pub fn unpack(t: Tactic) -> Option<Stored> {
        if t.mv >> TAG_SHIFT != TAG_RESULT {
            return None;
        }
        let s = Stored {
            lo: ((t.mv >> 10) & 3) as u8,
            hi: ((t.mv >> 12) & 3) as u8,
            plies: t.alpha.plies(),
            valid_to: t.beta.plies(),
            mv: Point(t.mv & MOVE_MASK),
        };
        (s.lo <= s.hi).then_some(s)
    }
}

/// Return a root result and its box from `cache`: the hint under
/// `hint_key` names the box the last search of the problem read, and the
/// result lies under `fixed` and the stones of that box (every search on
/// the reader's table looks up so: capture, connection, owl).
pub fn recall<S: AsRef<[TacticCluster]> + AsMut<[TacticCluster]>>(
    cache: &mut Table<TacticCluster, S>,
    board: &Board,
    hint_key: u64,
    fixed: u64,
) -> Option<(Stored, Rect)> {
    let rect = cache
        .probe(hint_key)
        .data
        .and_then(|t| unpack_hint(t, board.size()))?;
    let s = cache
        .probe(fixed ^ rect.hash(board))
        .data
        .and_then(Stored::unpack)?;
    Some((s, rect))
}

/// Store a root result `packed` under `fixed` and the stones of `rect`,
/// and the hint naming `rect` under `hint_key` (see [`recall`]).
pub fn remember<S: AsRef<[TacticCluster]> + AsMut<[TacticCluster]>>(
    cache: &mut Table<TacticCluster, S>,
    board: &Board,
    hint_key: u64,
    fixed: u64,
    rect: Rect,
    packed: Tactic,
) {
    let slot = cache.probe(fixed ^ rect.hash(board)).slot;
    cache.store(slot, packed);
    let slot = cache.probe(hint_key).slot;
    cache.store(slot, pack_hint(rect));
}

/// Pack a hint: the box the last search of a problem read.
pub fn pack_hint(r: Rect) -> Tactic {
    Tactic {
        alpha: bound(Winner::Nobody, r.y0),
        beta: bound(Winner::Nobody, r.y1),
        mv: u16::from(r.x0 & 31) | (u16::from(r.x1 & 31) << 5) | (TAG_HINT << TAG_SHIFT),
    }
}

/// Unpack a hint; `None` if the payload is not a hint for a board of `size`.
pub fn unpack_hint(t: Tactic, size: usize) -> Option<Rect> {
    if t.mv >> TAG_SHIFT != TAG_HINT {
        return None;
    }
    let r = Rect {
        x0: (t.mv & 31) as u8,
        x1: ((t.mv >> 5) & 31) as u8,
        y0: t.alpha.plies(),
        y1: t.beta.plies(),
    };
    r.fits(size).then_some(r)
}

fn color_winner(c: Color) -> Winner {
    match c {
        Color::Black => Winner::Black,
        Color::White => Winner::White,
    }
}

fn bound(w: Winner, plies: u8) -> Bound {
    // Callers keep plies <= MAX_PLIES (MAX_DEPTH and board coordinates are smaller).
    Bound::new(w, plies.min(ONE_BOUND_MAX)).unwrap_or_default()
}
