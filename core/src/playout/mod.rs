//! Playouts: play a position out to the end with a fast random policy and
//! score it.
//!
//! Two policies, from the `001_*` seed:
//! - [`Policy::Light`]: a uniformly random legal move that does not fill the
//!   mover's own eye-like point; pass when there is none.
//! - [`Policy::Waterfall`]: (1) if the last move put one of the mover's
//!   chains in atari, save it by capturing an adjacent enemy chain in atari,
//!   else by extending at its last liberty if that gives it two or more
//!   liberties; (2) with probability `p`, pick an enemy chain in atari
//!   anywhere and capture it if the capture is worthwhile (extending would
//!   have saved it); (3) else a light move.
//! - [`Policy::Heavy`] (the host engine's search): the waterfall's rules 1
//!   and 2, then (if its chances are set) the fights next to the last
//!   move (`fights`: Pachi's two-liberty and nakade checks), then (with a
//!   reply memory, [`replies`]) the last good reply to the last moves, then
//!   a 3x3 shape pattern next to the last move (or, with a table lent, a
//!   learned answer next to it: [`local`]), then a random move that is
//!   not a self-atari of two or more stones ([`Heavy`]).
//!
//! A playout ends after two passes in a row or after `3 * size * size` moves
//! and is scored by area. [`ownership`] plays a position out many times to
//! tell dead stones from live ones. [`RuleStats`] counts what each rule did; the
//! counting is compiled in only with the `stats` feature.

#[cfg(feature = "fights")]
mod fights;
mod heavy;
mod light;
pub mod local;
mod ownership;
pub mod replies;
mod stats;
mod waterfall;

pub use heavy::{heavy_move, Heavy};
pub use light::light_move;
pub use local::LocalAnswers;
pub use ownership::{estimated_margin2, ownership};
pub use replies::{Replies, ReplyMemory};
pub use stats::RuleStats;
pub use waterfall::waterfall_move;

use rand_core::RngCore;

use crate::board::{Board, Score};
use crate::geometry::{Color, Point};
use crate::tactics::LadderReader;

/// The move policy of a playout.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Policy {
    /// Uniformly random moves that do not fill own eyes.
    Light,
    /// The seed's waterfall; `capture` is the chance of rule 2 as a
    /// threshold out of 2^32 (see [`crate::rng::threshold`]).
    Waterfall {
        /// Threshold for trying a capture anywhere.
        capture: u32,
    },
    /// The waterfall with shape patterns and self-atari refusal.
    Heavy(Heavy),
}

impl Policy {
    /// Return the waterfall policy with the seed's 75% capture chance.
    pub const fn waterfall() -> Policy {
        Policy::Waterfall {
            capture: 3 << 30, // 0.75 * 2^32
        }
    }
}

/// How a playout ended.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Outcome {
    /// The area score of the final position.
    pub score: Score,
    /// Moves played in the playout (passes included).
    pub moves: u32,
}

/// Return the policy's move for the side to move.
#[inline]
pub fn policy_move<R: RngCore>(
    board: &mut Board,
    policy: Policy,
    rng: &mut R,
    stats: &mut RuleStats,
) -> Point {
    match policy {
        Policy::Light => light_move(board, board.to_play(), rng, stats),
        Policy::Waterfall { capture } => waterfall_move(board, capture, rng, stats),
        Policy::Heavy(h) => heavy_move(board, h, rng, stats, None, None, None),
    }
}

/// Play `board` out with `policy` and score it with komi `komi2 / 2`.
pub fn playout<R: RngCore>(
    board: &mut Board,
    policy: Policy,
    komi2: i16,
    rng: &mut R,
    stats: &mut RuleStats,
) -> Outcome {
    playout_observed(board, policy, komi2, rng, stats, |_, _| {})
}

/// Like [`playout`], calling `on_move(point, colour)` for every move played
/// (for AMAF statistics).
pub fn playout_observed<R: RngCore>(
    board: &mut Board,
    policy: Policy,
    komi2: i16,
    rng: &mut R,
    stats: &mut RuleStats,
    on_move: impl FnMut(Point, Color),
) -> Outcome {
    playout_replying(board, policy, komi2, rng, stats, Aids::default(), on_move)
}

/// What the heavy policy may use beyond the board, lent by the caller.
#[derive(Default)]
pub struct Aids<'a> {
    /// A reply memory: the policy plays its last good replies, and every
    /// move is recorded in it (the caller calls [`ReplyMemory::learn`] with
    /// the outcome).
    pub replies: Option<&'a mut dyn ReplyMemory>,
    /// A ladder reader for the ladder rules ([`Heavy::ladder_escapes`],
    /// [`Heavy::ladders`]).
    pub ladder: Option<&'a mut dyn LadderReader>,
    /// Learned answers to the last move, in place of the hand-made shapes
    /// ([`local`]).
    pub local: Option<&'a LocalAnswers<'a>>,
}

/// Like [`playout_observed`], with the heavy policy's aids.
pub fn playout_replying<R: RngCore>(
    board: &mut Board,
    policy: Policy,
    komi2: i16,
    rng: &mut R,
    stats: &mut RuleStats,
    aids: Aids<'_>,
    mut on_move: impl FnMut(Point, Color),
) -> Outcome {
    let Aids {
        mut replies,
        mut ladder,
        local,
    } = aids;
    // One loop per policy, each compiled on its own: only the waterfall
    // and the heavy policy read the atari lists, so light playouts skip
    // keeping them.
    let moves = match policy {
        Policy::Light => play_out::<false, R>(board, rng, stats, &mut on_move, |b, rng, stats| {
            light_move(b, b.to_play(), rng, stats)
        }),
        Policy::Waterfall { capture } => {
            board.refresh_ataris();
            play_out::<true, R>(board, rng, stats, &mut on_move, |b, rng, stats| {
                waterfall_move(b, capture, rng, stats)
            })
        }
        Policy::Heavy(h) => {
            board.refresh_ataris();
            play_out::<true, R>(board, rng, stats, &mut on_move, |b, rng, stats| {
                let ladder: Option<&mut dyn LadderReader> = match &mut ladder {
                    Some(l) => Some(&mut **l),
                    None => None,
                };
                match replies.as_deref_mut() {
                    None => heavy_move(b, h, rng, stats, None, ladder, local),
                    Some(m) => {
                        let last = b.last_move().unwrap_or(Point::PASS);
                        let before = b.second_last_move().unwrap_or(Point::PASS);
                        let reply = m.reply(b.to_play(), before, last);
                        let p = heavy_move(b, h, rng, stats, reply, ladder, local);
                        m.record(p);
                        p
                    }
                }
            })
        }
    };
    stats::count!(stats.playouts);
    Outcome {
        score: board.score(komi2),
        moves: moves as u32,
    }
}

/// Play moves chosen by `pick` until two passes in a row or the move
/// limit; return the number of moves. `TRACK`: keep the atari lists.
#[inline(always)]
fn play_out<const TRACK: bool, R: RngCore>(
    board: &mut Board,
    rng: &mut R,
    stats: &mut RuleStats,
    on_move: &mut impl FnMut(Point, Color),
    mut pick: impl FnMut(&mut Board, &mut R, &mut RuleStats) -> Point,
) -> usize {
    let limit = 3 * board.size() * board.size();
    let mut moves = 0;
    while board.passes() < 2 && moves < limit {
        let c = board.to_play();
        let p = pick(board, rng, stats);
        if TRACK {
            board.play_legal(p, c);
        } else {
            board.play_legal_untracked(p, c);
        }
        on_move(p, c);
        moves += 1;
    }
    moves
}
