//! The waterfall policy of the `001_*` seed: save, capture, else random.

use rand_core::RngCore;

use super::stats::count;
use super::{light_move, RuleStats};
use crate::board::Board;
use crate::geometry::{Cell, Color, Point};
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
    let c = board.to_play();
    // The rules' common case, nothing to save or capture, is tested here so
    // that their functions are only called when they have work.
    if !board.new_ataris().is_empty() {
        if let Some(p) = save_from_atari(board, c, stats) {
            count!(stats.moves);
            return p;
        }
    }
    if rng::chance(rng, capture) {
        count!(stats.capture_tries);
        if !board.chains_in_atari(c.opponent()).is_empty() {
            if let Some(p) = worthwhile_capture(board, c, rng, stats) {
                count!(stats.moves);
                return p;
            }
        }
    }
    light_move(board, c, rng, stats)
}

/// Rule 1: if the last move put a chain of `c` in atari, return a move that
/// saves it: a capture of an adjacent enemy chain in atari, else an extension
/// that leaves it two or more liberties.
fn save_from_atari(board: &Board, c: Color, stats: &mut RuleStats) -> Option<Point> {
    // With no enemy chain in atari anywhere there is none to capture.
    let enemy_in_atari = !board.chains_in_atari(c.opponent()).is_empty();
    for &chain in board.new_ataris() {
        count!(stats.new_ataris);
        if let Some(p) = enemy_in_atari
            .then(|| capture_adjacent(board, chain, c))
            .flatten()
        {
            count!(stats.atari_captures);
            return Some(p);
        }
        let lib = board.last_liberty(chain);
        count!(stats.atari_extend_tries);
        // An extension that leaves two liberties is no suicide: only the
        // ko ban may forbid it.
        if board.ko() != Some(lib) && board.escapes_atari_at(lib, c) {
            count!(stats.atari_extends);
            return Some(lib);
        }
    }
    None
}

/// Return a legal move of `c` capturing an enemy chain in atari next to the
/// chain at `prey`.
fn capture_adjacent(board: &Board, prey: Point, c: Color) -> Option<Point> {
    let opp = Cell::stone(c.opponent());
    let geo = board.geometry();
    for s in board.chain_stones(prey) {
        for n in geo.neighbours(s) {
            if board.at(n) == opp {
                if let Some(lib) = board.atari_liberty(n) {
                    // A capture is no suicide: only the ko ban may forbid it.
                    if board.ko() != Some(lib) {
                        return Some(lib);
                    }
                }
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
