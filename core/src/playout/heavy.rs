//! The heavy policy the search plays out with: the waterfall's two rules,
//! then MoGo's 3x3 shape patterns next to the last move, then a random move
//! that is not a self-atari of two or more stones.
//!
//! The waterfall alone leaves most moves to chance; MoGo (Gelly et al.,
//! 2006) found that answering the last move locally with a few good shapes
//! (hane, cuts, edge blocks: [`crate::shape`]) makes playouts much better
//! judges of a position, and Michi and Pachi keep random moves from putting
//! their own chains in atari. A lone stone may still self-atari (throw-ins
//! need it), and so may up to three stones whose last liberty is enclosed
//! (a nakade: when they are captured, the space they leave is one eye).
//!
//! Two more rules answer the last move as Pachi's playouts do, each at
//! its own chance (off by default: at equal time against Pachi they did
//! not pay, BENCHMARKS.md): the two-liberty check and the nakade check
//! (`fights.rs`).
//!
//! With a ladder reader lent by the caller, the policy also reads ladders
//! as Pachi's playouts do: it does not run from atari into a ladder
//! ([`Heavy::ladder_escapes`]), so a chain the ladder catches dies in the
//! playout as it would in the game; and, if asked ([`Heavy::ladders`]), it
//! ataris a chain the last move left with two liberties when the ladder
//! catches it, and extends a chain of its own next to the last move that
//! a ladder would catch.

use rand_core::RngCore;

#[cfg(feature = "fights")]
use super::fights::{nakade_move, two_liberty_move};
use super::light::random_move;
use super::stats::count;
use super::waterfall::waterfall_rules;
use super::LocalAnswers;
use super::RuleStats;
use crate::board::Board;
use crate::geometry::{Cell, Color, Point};
use crate::tactics::LadderReader;
use crate::{rng, shape};

/// The chances of the heavy policy's rules, as thresholds out of 2^32 (see
/// [`crate::rng::threshold`]).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Heavy {
    /// The waterfall's rule 2: try a capture anywhere.
    pub capture: u32,
    /// Answer the last move with a shape pattern next to it.
    pub pattern: u32,
    /// Refuse a random move that puts two or more stones in atari.
    pub reject: u32,
    /// With a ladder reader lent, refuse an escape from atari into a
    /// ladder.
    pub ladder_escapes: u32,
    /// With a ladder reader lent, read two-liberty chains next to the
    /// last move: the atari that catches the last move's chain in a
    /// ladder, the extension that saves an own chain from one.
    pub ladders: u32,
    /// Answer the last move in a two-liberty fight next to it
    /// (Pachi's `2lib` check, in `fights.rs`; only with the `fights`
    /// feature).
    pub two_liberties: u32,
    /// Play the vital point of a killing eye shape the last move left
    /// (Pachi's `nakade` check, in `fights.rs`; only with the `fights`
    /// feature).
    pub nakade: u32,
}

impl Heavy {
    /// The defaults: the seed's 75% capture chance, Michi's 95% pattern
    /// chance, self-ataris of random moves refused 90% of the time, no
    /// escape into a ladder, and no two-liberty reads: against Pachi at
    /// equal time they scored as the escape check alone (60.0% and 61.5%
    /// over 100 games, BENCHMARKS.md) at 0.63 of its speed; no fight
    /// checks: at 1 CPU-second against Pachi they scored 35.0% against the
    /// build without them 37.0% (50 games each) at 0.61 of its speed.
    pub const DEFAULT: Heavy = Heavy {
        capture: 3 << 30,
        pattern: 0xF333_3333, // 0.95 * 2^32
        reject: 0xE666_6666,  // 0.9 * 2^32
        ladder_escapes: u32::MAX,
        ladders: 0,
        two_liberties: 0,
        nakade: 0,
    };
}

/// Return the heavy policy's move for the side to move; `reply`, the
/// last good reply to the last moves ([`super::replies`]), is played after
/// the waterfall's rules when it is legal and no bad self-atari. With
/// `ladder`, the ladder rules ([`Heavy::ladder_escapes`],
/// [`Heavy::ladders`]) read with it. With `local`, the answer to the last
/// move is a learned one ([`super::local`]) instead of a hand-made shape
/// (with the feature `local-answers`; without it `local` is not used).
#[inline(always)]
pub fn heavy_move<R: RngCore>(
    board: &mut Board,
    h: Heavy,
    rng: &mut R,
    stats: &mut RuleStats,
    reply: Option<Point>,
    ladder: Option<&mut dyn LadderReader>,
    local: Option<&LocalAnswers<'_>>,
) -> Point {
    let mut ladder = ladder;
    let escapes = ladder.is_some() && rng::chance(rng, h.ladder_escapes);
    let saved = waterfall_rules(board, h.capture, rng, stats, |board, lib, c, stats| {
        // An extension to exactly two liberties may run into a ladder.
        match ladder.as_deref_mut() {
            Some(l) if escapes && board.liberties_after::<3>(lib, c) == 2 => {
                let caught = l.caught_after(board, lib, c);
                if caught {
                    count!(stats.ladder_escapes_refused);
                }
                !caught
            }
            _ => true,
        }
    });
    if let Some(p) = saved {
        return p;
    }
    let c = board.to_play();
    if let (Some(l), Some(last)) = (ladder, board.last_move()) {
        if !last.is_pass() && rng::chance(rng, h.ladders) {
            if let Some(p) = two_liberty_ladders(board, last, c, l) {
                count!(stats.moves);
                count!(stats.ladder_moves);
                return p;
            }
        }
    }
    // Off (the default), the fight rules draw no random number: the
    // playouts are those of the policy without them. Without the `fights`
    // feature they are not compiled in.
    #[cfg(feature = "fights")]
    if let (true, Some(last)) = ((h.two_liberties | h.nakade) != 0, board.last_move()) {
        if !last.is_pass() && board.at(last) != Cell::Empty {
            if rng::chance(rng, h.two_liberties) {
                if let Some(p) = two_liberty_move(board, last, c, rng) {
                    count!(stats.moves);
                    count!(stats.two_liberty_moves);
                    return p;
                }
            }
            if rng::chance(rng, h.nakade) {
                if let Some(p) = nakade_move(board, last, c) {
                    count!(stats.moves);
                    count!(stats.nakade_moves);
                    return p;
                }
            }
        }
    }
    if let Some(r) = reply {
        // A reply learned on another board size may lie off this board.
        if r.idx() < board.geometry().cells()
            && board.at(r) == Cell::Empty
            && board.is_playout_move(r, c)
            && !bad_self_atari(board, r, c)
        {
            count!(stats.moves);
            count!(stats.reply_moves);
            return r;
        }
    }
    if let Some(last) = board.last_move() {
        if !last.is_pass() && rng::chance(rng, h.pattern) {
            let answer = match local {
                #[cfg(feature = "local-answers")]
                Some(table) => super::local::answer(board, last, c, table, rng, |q| {
                    board.is_playout_move(q, c) && !bad_self_atari(board, q, c)
                }),
                _ => pattern_move(board, last, c, rng),
            };
            if let Some(p) = answer {
                count!(stats.moves);
                count!(stats.pattern_moves);
                return p;
            }
        }
    }
    careful_random(board, c, h.reject, rng, stats)
}

/// Return a point next to `last` (the 8 around it, from a random one on)
/// where a shape pattern matches and `c` may play without a self-atari.
#[inline]
fn pattern_move<R: RngCore>(board: &Board, last: Point, c: Color, rng: &mut R) -> Option<Point> {
    let around = board.geometry().around(last);
    let start = rng::below(rng, 8) as usize;
    for k in 0..8 {
        let q = around[(start + k) & 7];
        if board.at(q) == Cell::Empty
            && shape::matches(board, q)
            && board.is_playout_move(q, c)
            && !bad_self_atari(board, q, c)
        {
            return Some(q);
        }
    }
    None
}

/// The ladder rules next to the last move `last`, `c` to move: if the
/// last move's chain has two liberties and an atari catches it in a
/// ladder, that atari; else if a chain of `c` touching the last move has
/// two liberties and the opponent could catch it in a ladder, an extension
/// that gives it three or more.
fn two_liberty_ladders(
    board: &mut Board,
    last: Point,
    c: Color,
    ladder: &mut dyn LadderReader,
) -> Option<Point> {
    if board.at(last) != Cell::stone(c.opponent()) {
        return None;
    }
    if let &[a, b] = board.liberties::<3>(last).as_slice() {
        let geo = board.geometry();
        for (m, other) in [(a, b), (b, a)] {
            // The prey will extend at `other`: three more empty points
            // around it are three liberties, an escape (the ladder
            // reader's own first test, made before playing anything).
            let besides = board.neighbour_count(other, Cell::Empty)
                - geo.neighbours(other).contains(&m) as u32;
            if besides < 3
                && board.is_playout_move(m, c)
                && !bad_self_atari(board, m, c)
                && ladder.caught_after_atari(board, m, c, last)
            {
                return Some(m);
            }
        }
    }
    let own = Cell::stone(c);
    let mut seen = [Point::PASS; 4];
    for (k, n) in board.geometry().neighbours(last).into_iter().enumerate() {
        if board.at(n) != own {
            continue;
        }
        let Some(root) = board.chain_root(n) else {
            continue;
        };
        if seen[..k].contains(&root) {
            continue;
        }
        seen[k] = root;
        let &[a, b] = board.liberties::<3>(n).as_slice() else {
            continue;
        };
        if !ladder.caught_with_two(board, n) {
            continue;
        }
        for m in [a, b] {
            if board.liberties_after::<3>(m, c) >= 3 && board.is_playout_move(m, c) {
                return Some(m);
            }
        }
    }
    None
}

/// Query whether `c` playing at the empty point `p` is a self-atari a
/// playout should not make: two or more stones put in atari, unless they
/// are a nakade.
#[inline(always)]
fn bad_self_atari(board: &Board, p: Point, c: Color) -> bool {
    board.is_self_atari(p, c) && !is_nakade(board, p, c)
}

/// Query whether the chain `c` would make at `p`, which has one liberty,
/// has at most three stones and a last liberty with no other empty
/// neighbour: the stones fill a small enclosed space, and their capture
/// leaves the opponent an eye space of at most three points.
fn is_nakade(board: &Board, p: Point, c: Color) -> bool {
    let geo = board.geometry();
    let own = Cell::stone(c);
    let mut size = 1;
    let mut seen = [Point::PASS; 4];
    let mut lib = Point::PASS;
    for (k, n) in geo.neighbours(p).into_iter().enumerate() {
        let cell = board.at(n);
        if cell == Cell::Empty {
            lib = n;
        } else if cell == own {
            let Some(root) = board.chain_root(n) else {
                continue;
            };
            if seen[..k].contains(&root) {
                continue;
            }
            seen[k] = root;
            size += board.chain_size(n);
            if let Some(l) = board.liberties::<2>(n).as_slice().iter().find(|&&l| l != p) {
                lib = *l;
            }
        }
    }
    if size > 3 || lib.is_pass() {
        return false;
    }
    // `p` is still empty: it does not count as an open neighbour.
    let touches_p = geo.neighbours(lib).contains(&p) as u32;
    board.neighbour_count(lib, Cell::Empty) == touches_p
}

/// Like [`super::light_move`], but a bad self-atari ([`bad_self_atari`])
/// is refused with chance `reject`.
#[inline(always)]
fn careful_random<R: RngCore>(
    board: &mut Board,
    c: Color,
    reject: u32,
    rng: &mut R,
    stats: &mut RuleStats,
) -> Point {
    random_move(board, c, rng, stats, |board, p, rng, stats| {
        let refuse = bad_self_atari(board, p, c) && rng::chance(rng, reject);
        if refuse {
            count!(stats.self_atari_rejects);
        }
        !refuse
    })
}
