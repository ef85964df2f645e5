//! Last good reply with forgetting (LGRF-2; Baier and Drake, "The Power of
//! Forgetting", 2010): playouts remember, for each side, the reply that
//! won after the opponent's last move (and after the last two moves), and
//! play it again when it is legal; a reply that lost is forgotten.
//!
//! After each playout the sequence of its moves (the tree's, then the
//! playout's) is replayed: every move of the winner becomes the reply to
//! the move before it (and to the two before it), every move of the loser
//! that is the stored reply is removed. A draw teaches nothing.
//!
//! Storage: two tables of points, one indexed by (colour, last move), one
//! by (colour, move before, last move), in the caller's slice of
//! [`Replies::ENTRIES`] `u16`s (about 1 MiB for 19x19); 0 is "no reply"
//! (the pass is never stored).

use crate::geometry::{Color, Point, MAX_POINTS, MAX_SIZE};

/// A reply memory the search lends to its playouts.
pub trait ReplyMemory {
    /// Start a playout's sequence: `first` moves first, after the moves
    /// `before_last` and `last` of the game (passes or none: `PASS`).
    fn start(&mut self, first: Color, before_last: Point, last: Point);
    /// Note the next move of the sequence.
    fn record(&mut self, p: Point);
    /// Return the stored reply of `c` to `before_last`, `last`, if any.
    fn reply(&self, c: Color, before_last: Point, last: Point) -> Option<Point>;
    /// Learn from the sequence: `winner` won it (`None`: a draw).
    fn learn(&mut self, winner: Option<Color>);
    /// Forget every reply.
    fn forget(&mut self);
}

/// Longest sequence recorded: a tree path and a whole playout.
pub const MAX_SEQUENCE: usize = 6 * MAX_SIZE * MAX_SIZE + 4;

/// The reply tables over storage `S` and the current sequence.
pub struct Replies<S> {
    table: S,
    seq: [u16; MAX_SEQUENCE],
    len: usize,
    first: Color,
}

/// Why storage cannot hold the tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooSmall;

impl<S: AsRef<[u16]> + AsMut<[u16]>> Replies<S> {
    /// Entries the storage needs.
    pub const ENTRIES: usize = 2 * MAX_POINTS * MAX_POINTS + 2 * MAX_POINTS;

    /// Return empty reply tables over `table` (cleared).
    ///
    /// # Errors
    /// [`TooSmall`] for fewer than [`Replies::ENTRIES`] entries.
    pub fn new(mut table: S) -> Result<Self, TooSmall> {
        if table.as_ref().len() < Self::ENTRIES {
            return Err(TooSmall);
        }
        table.as_mut().fill(0);
        Ok(Replies {
            table,
            seq: [0; MAX_SEQUENCE],
            len: 0,
            first: Color::Black,
        })
    }

    /// Forget every reply.
    pub fn clear(&mut self) {
        self.table.as_mut().fill(0);
        self.len = 0;
    }

    #[inline(always)]
    fn one(c: Color, last: u16) -> usize {
        c.idx() * MAX_POINTS + Point(last).idx()
    }

    #[inline(always)]
    fn two(c: Color, before_last: u16, last: u16) -> usize {
        2 * MAX_POINTS
            + (c.idx() * MAX_POINTS + Point(before_last).idx()) * MAX_POINTS
            + Point(last).idx()
    }
}

impl<S: AsRef<[u16]> + AsMut<[u16]>> ReplyMemory for Replies<S> {
    fn forget(&mut self) {
        self.clear();
    }

    fn start(&mut self, first: Color, before_last: Point, last: Point) {
        // The game's last two moves open the sequence, so that the first
        // moves have something to reply to; they are not learned.
        self.first = first;
        self.seq[0] = before_last.0;
        self.seq[1] = last.0;
        self.len = 2;
    }

    #[inline]
    fn record(&mut self, p: Point) {
        if self.len < MAX_SEQUENCE {
            self.seq[self.len] = p.0;
            self.len += 1;
        }
    }

    #[inline]
    fn reply(&self, c: Color, before_last: Point, last: Point) -> Option<Point> {
        let t = self.table.as_ref();
        let r = t[Self::two(c, before_last.0, last.0)];
        let r = if r == 0 { t[Self::one(c, last.0)] } else { r };
        (r != 0).then_some(Point(r))
    }

    fn learn(&mut self, winner: Option<Color>) {
        let Some(winner) = winner else {
            return;
        };
        let t = self.table.as_mut();
        // Move `i` of the sequence (from 2 on) is played by `first` when
        // `i` is even.
        let mut c = self.first;
        for i in 2..self.len {
            let (b, l, m) = (self.seq[i - 2], self.seq[i - 1], self.seq[i]);
            if m != 0 {
                let (one, two) = (Self::one(c, l), Self::two(c, b, l));
                if c == winner {
                    t[one] = m;
                    t[two] = m;
                } else {
                    if t[one] == m {
                        t[one] = 0;
                    }
                    if t[two] == m {
                        t[two] = 0;
                    }
                }
            }
            c = c.opponent();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    extern crate std;
    use std::vec;
    use std::vec::Vec;

    #[test]
    fn winners_replies_are_kept_and_losers_forgotten() {
        let mut r = Replies::new(vec![0u16; Replies::<Vec<u16>>::ENTRIES]).unwrap();
        let (a, b, c, d) = (Point(30), Point(31), Point(32), Point(33));
        // Black a, white b, black c: black wins.
        r.start(Color::Black, Point::PASS, Point::PASS);
        for p in [a, b, c] {
            r.record(p);
        }
        r.learn(Some(Color::Black));
        assert_eq!(r.reply(Color::Black, a, b), Some(c));
        assert_eq!(r.reply(Color::Black, d, b), Some(c), "the one-move reply");
        assert_eq!(r.reply(Color::White, Point::PASS, a), None, "the loser's b");
        // The same line lost by black: c is forgotten.
        r.start(Color::Black, Point::PASS, Point::PASS);
        for p in [a, b, c] {
            r.record(p);
        }
        r.learn(Some(Color::White));
        assert_eq!(r.reply(Color::Black, a, b), None);
        assert_eq!(r.reply(Color::White, Point::PASS, a), Some(b));
        assert!(Replies::new(vec![0u16; 10]).is_err());
    }
}
