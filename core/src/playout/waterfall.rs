//! The waterfall policy of the `001_*` seed: save, capture, else random.

use rand_core::RngCore;

use super::stats::count;
use super::{light_move, RuleStats};
use crate::board::Board;
use crate::geometry::{Color, Point};
use crate::rng;

/// Return the waterfall move for the side to move; `capture` is the chance
/// of rule 2 as a threshold out of 2^32.
#[inline(always)]
pub fn waterfall_move<R: RngCore>(
    board: &mut Board,
    capture: u32,
    rng: &mut R,
    stats: &mut RuleStats,
) -> Point {
    match waterfall_rules(board, capture, rng, stats, |_, _, _, _| true) {
        Some(p) => p,
        None => light_move(board, board.to_play(), rng, stats),
    }
}

/// Return the move of rule 1 (save) or rule 2 (capture) for the side to
/// move, or `None` when neither applies (the caller's random rule then
/// moves). Rule 1 extends only where `extend_ok(board, liberty, mover,
/// stats)` agrees: the heavy policy refuses an extension into a ladder.
#[inline(always)]
pub(super) fn waterfall_rules<R: RngCore>(
    board: &mut Board,
    capture: u32,
    rng: &mut R,
    stats: &mut RuleStats,
    extend_ok: impl FnMut(&mut Board, Point, Color, &mut RuleStats) -> bool,
) -> Option<Point> {
    let c = board.to_play();
    // Rule 2's chance is drawn before rule 1 looks (the draws are
    // independent, so the policy is the same), and the rules' common case,
    // nothing to save and no capture to try, is one test without inner
    // branches (`|`, `&`): one branch taken a third of the time predicts
    // better than several random ones.
    let roll = rng::chance(rng, capture);
    let to_save = !board.new_ataris().is_empty();
    let to_capture = roll & !board.chains_in_atari(c.opponent()).is_empty();
    if to_save | to_capture {
        if to_save {
            if let Some(p) = save_from_atari(board, c, stats, extend_ok) {
                count!(stats.moves);
                return Some(p);
            }
        }
        if roll {
            count!(stats.capture_tries);
        }
        if to_capture {
            if let Some(p) = worthwhile_capture(board, c, rng, stats) {
                count!(stats.moves);
                return Some(p);
            }
        }
    } else if roll {
        count!(stats.capture_tries);
    }
    None
}

/// Rule 1: if the last move put a chain of `c` in atari, return a move that
/// saves it: a capture of an adjacent enemy chain in atari, else an extension
/// that leaves it two or more liberties and that `extend_ok` takes.
fn save_from_atari(
    board: &mut Board,
    c: Color,
    stats: &mut RuleStats,
    mut extend_ok: impl FnMut(&mut Board, Point, Color, &mut RuleStats) -> bool,
) -> Option<Point> {
    // The list is copied: `extend_ok` may read ahead on the board.
    let new_ataris = board.new_ataris();
    let mut chains = [Point::PASS; 4];
    let n = new_ataris.len().min(chains.len());
    chains[..n].copy_from_slice(&new_ataris[..n]);
    for &chain in &chains[..n] {
        count!(stats.new_ataris);
        if let Some(p) = capture_adjacent(board, chain, c) {
            count!(stats.atari_captures);
            return Some(p);
        }
        let lib = board.last_liberty(chain);
        count!(stats.atari_extend_tries);
        // An extension that leaves two liberties is no suicide: only the
        // ko ban may forbid it.
        if board.ko() != Some(lib)
            && board.escapes_atari_at(lib, c)
            && extend_ok(board, lib, c, stats)
        {
            count!(stats.atari_extends);
            return Some(lib);
        }
    }
    None
}

/// Return a legal move of `c` capturing an enemy chain in atari next to the
/// chain at `prey`. The enemy chains in atari are few and small, so each
/// is walked for a stone touching `prey`.
fn capture_adjacent(board: &Board, prey: Point, c: Color) -> Option<Point> {
    for &enemy in board.chains_in_atari(c.opponent()) {
        if board.chains_touch(enemy, prey) {
            let lib = board.last_liberty(enemy);
            // A capture is no suicide: only the ko ban may forbid it.
            if board.ko() != Some(lib) {
                return Some(lib);
            }
        }
    }
    None
}

/// Rule 2: pick a random enemy chain in atari; capture it if the capture is
/// worthwhile, that is, if the opponent extending at the liberty would have
/// got two or more liberties.
fn worthwhile_capture<R: RngCore>(
    board: &Board,
    c: Color,
    rng: &mut R,
    stats: &mut RuleStats,
) -> Option<Point> {
    let list = board.chains_in_atari(c.opponent());
    if list.is_empty() {
        return None;
    }
    count!(stats.captures_found);
    let prey = list[rng::below(rng, list.len() as u32) as usize];
    let lib = board.last_liberty(prey);
    // A capture is no suicide: only the ko ban may forbid it.
    if board.ko() != Some(lib) && board.escapes_atari_at(lib, c.opponent()) {
        count!(stats.captures_played);
        return Some(lib);
    }
    None
}
