//! A fixed-size ring of position hashes, for positional superko.
//!
//! The board knows simple ko only. A caller that wants positional superko
//! keeps the stones-only hash ([`crate::board::Board::position_hash`]) of
//! every position in a `History` and asks whether a move's result repeats
//! one. With capacity `N` the last `N` positions are remembered; a repetition
//! older than that goes unseen (on the host `N` is chosen to cover a whole
//! game).

use crate::board::Board;
use crate::geometry::{Color, Point};

/// The last `N` position hashes.
#[derive(Clone)]
pub struct History<const N: usize> {
    hashes: [u64; N],
    len: usize,
    head: usize,
}

impl<const N: usize> Default for History<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> History<N> {
    /// Return an empty history.
    pub const fn new() -> Self {
        const { assert!(N > 0, "a history needs room for one position") };
        History {
            hashes: [0; N],
            len: 0,
            head: 0,
        }
    }

    /// Forget every position.
    pub fn clear(&mut self) {
        self.len = 0;
        self.head = 0;
    }

    /// Remember a position hash, forgetting the oldest when full.
    pub fn push(&mut self, hash: u64) {
        self.hashes[self.head] = hash;
        self.head = (self.head + 1) % N;
        self.len = (self.len + 1).min(N);
    }

    /// Forget the most recent position (for undo).
    pub fn pop(&mut self) -> Option<u64> {
        if self.len == 0 {
            return None;
        }
        self.head = (self.head + N - 1) % N;
        self.len -= 1;
        Some(self.hashes[self.head])
    }

    /// Query whether `hash` is remembered.
    pub fn contains(&self, hash: u64) -> bool {
        (0..self.len).any(|i| self.hashes[(self.head + N - 1 - i) % N] == hash)
    }

    /// Return the number of remembered positions.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Query whether no position is remembered.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Query whether `c` playing the legal move `p` on `board` would repeat a
    /// remembered position (positional superko). Passes never repeat. The
    /// board is not copied ([`Board::position_hash_after`]).
    pub fn repeats(&self, board: &Board, p: Point, c: Color) -> bool {
        if p.is_pass() {
            return false;
        }
        self.contains(board.position_hash_after(p, c))
    }
}
