//! A journal of board writes, so tactical reading can play a move and take
//! it back without copying the board.
//!
//! [`Board::play_undoable`] logs the old value of every array slot the move
//! writes, and saves the board's few scalar fields once per move;
//! [`Board::undo`] writes them back in reverse. The normal play paths use
//! [`NoLog`], whose `ON` constant is `false`, so the logging compiles away.
//!
//! Capacity is two const generics: `N` writes and `D` moves deep. A move
//! that might not fit is refused before it changes anything
//! ([`JournalFull`]), so a reader with a fixed journal degrades to "unknown"
//! instead of failing.

use super::{Board, Libs};
use crate::geometry::{Cell, Color, Point};

/// The old value of one array slot.
#[derive(Copy, Clone, Debug)]
pub(crate) enum Write {
    Cell(u16, Cell),
    Nbr(u16, u16),
    Chain(u16, u16),
    Next(u16, u16),
    Libs(u16, Libs),
    Stones(u16, u16),
    Empties(u16, u16),
    EmptyAt(u16, u16),
    AtariAt(u16, u16),
    /// An atari list entry: colour, index, old root.
    Atari(u8, u16, Point),
}

/// Something that may log board writes.
pub(crate) trait Recorder {
    /// Whether writes are logged at all.
    const ON: bool;
    /// Log the old value of a slot.
    fn log(&mut self, w: Write);
}

/// The recorder of the normal play paths: logs nothing.
pub(crate) struct NoLog;

impl Recorder for NoLog {
    const ON: bool = false;
    #[inline(always)]
    fn log(&mut self, _: Write) {}
}

/// Write `$value` into `$board.$array[$i]`, logging the old value with the
/// recorder when it logs.
macro_rules! set {
    ($board:ident, $rec:ident, $array:ident, $i:expr, $value:expr) => {{
        let i: usize = $i;
        let v = $value;
        if R::ON {
            $rec.log($crate::board::journal::slot!($array, i, $board.$array[i]));
        }
        $board.$array[i] = v;
    }};
}
pub(crate) use set;

/// The journal entry holding the old value of one slot of `$array`.
macro_rules! slot {
    (cell, $i:expr, $old:expr) => {
        $crate::board::journal::Write::Cell($i as u16, $old)
    };
    (nbr, $i:expr, $old:expr) => {
        $crate::board::journal::Write::Nbr($i as u16, $old)
    };
    (chain, $i:expr, $old:expr) => {
        $crate::board::journal::Write::Chain($i as u16, $old)
    };
    (next, $i:expr, $old:expr) => {
        $crate::board::journal::Write::Next($i as u16, $old)
    };
    (libs, $i:expr, $old:expr) => {
        $crate::board::journal::Write::Libs($i as u16, $old)
    };
    (stones, $i:expr, $old:expr) => {
        $crate::board::journal::Write::Stones($i as u16, $old)
    };
    (empties, $i:expr, $old:expr) => {
        $crate::board::journal::Write::Empties($i as u16, $old)
    };
    (empty_at, $i:expr, $old:expr) => {
        $crate::board::journal::Write::EmptyAt($i as u16, $old)
    };
    (atari_at, $i:expr, $old:expr) => {
        $crate::board::journal::Write::AtariAt($i as u16, $old)
    };
}
pub(crate) use slot;

/// The scalar fields of a board, saved once per move.
#[derive(Copy, Clone, Debug)]
struct Scalars {
    n_empty: u16,
    n_ataris: [u16; 2],
    new_ataris: [Point; 4],
    n_new_ataris: u8,
    to_play: Color,
    ko: Point,
    last: Option<Point>,
    last2: Option<Point>,
    passes: u8,
    moves: u16,
    captures: [u16; 2],
    stones_hash: u64,
}

impl Scalars {
    const ZERO: Scalars = Scalars {
        n_empty: 0,
        n_ataris: [0; 2],
        new_ataris: [Point::PASS; 4],
        n_new_ataris: 0,
        to_play: Color::Black,
        ko: Point::PASS,
        last: None,
        last2: None,
        passes: 0,
        moves: 0,
        captures: [0; 2],
        stones_hash: 0,
    };
}

/// A move would not fit in the journal.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct JournalFull;

/// The undo journal: room for `N` slot writes over `D` moves.
pub struct Journal<const N: usize, const D: usize> {
    writes: [Write; N],
    len: usize,
    moves: [(Scalars, u32); D],
    depth: usize,
}

impl<const N: usize, const D: usize> Default for Journal<N, D> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize, const D: usize> Journal<N, D> {
    /// Return an empty journal.
    pub const fn new() -> Self {
        const { assert!(N > 0 && D > 0, "a journal needs room") };
        Journal {
            // All-zero bytes (the first variant, `Cell::Black`), so a
            // journal in a `static` lands in `.bss`, not in flash.
            writes: [Write::Cell(0, Cell::Black); N],
            len: 0,
            moves: [(Scalars::ZERO, 0); D],
            depth: 0,
        }
    }

    /// Return the number of moves that can be taken back.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// Return the number of slot writes held.
    pub(crate) fn writes(&self) -> usize {
        self.len
    }

    /// Forget every move (the board keeps its position).
    pub fn clear(&mut self) {
        self.len = 0;
        self.depth = 0;
    }

    /// Open a move that writes at most `max_writes` slots.
    pub(crate) fn begin(&mut self, board: &Board, max_writes: usize) -> Result<(), JournalFull> {
        if self.depth == D || N - self.len < max_writes {
            return Err(JournalFull);
        }
        let s = Scalars {
            n_empty: board.n_empty,
            n_ataris: board.n_ataris,
            new_ataris: board.new_ataris,
            n_new_ataris: board.n_new_ataris,
            to_play: board.to_play,
            ko: board.ko,
            last: board.last,
            last2: board.last2,
            passes: board.passes,
            moves: board.moves,
            captures: board.captures,
            stones_hash: board.stones_hash,
        };
        self.moves[self.depth] = (s, self.len as u32);
        self.depth += 1;
        Ok(())
    }

    /// Undo the last move on `board`; `false` if there is none.
    pub(crate) fn rewind(&mut self, board: &mut Board) -> bool {
        if self.depth == 0 {
            return false;
        }
        self.depth -= 1;
        let (s, start) = self.moves[self.depth];
        while self.len > start as usize {
            self.len -= 1;
            match self.writes[self.len] {
                Write::Cell(i, v) => board.cell[i as usize] = v,
                Write::Nbr(i, v) => board.nbr[i as usize] = v,
                Write::Chain(i, v) => board.chain[i as usize] = v,
                Write::Next(i, v) => board.next[i as usize] = v,
                Write::Libs(i, v) => board.libs[i as usize] = v,
                Write::Stones(i, v) => board.stones[i as usize] = v,
                Write::Empties(i, v) => board.empties[i as usize] = v,
                Write::EmptyAt(i, v) => board.empty_at[i as usize] = v,
                Write::AtariAt(i, v) => board.atari_at[i as usize] = v,
                Write::Atari(c, i, v) => board.ataris[c as usize & 1][i as usize] = v,
            }
        }
        board.n_empty = s.n_empty;
        board.n_ataris = s.n_ataris;
        board.new_ataris = s.new_ataris;
        board.n_new_ataris = s.n_new_ataris;
        board.to_play = s.to_play;
        board.ko = s.ko;
        board.last = s.last;
        board.last2 = s.last2;
        board.passes = s.passes;
        board.moves = s.moves;
        board.captures = s.captures;
        board.stones_hash = s.stones_hash;
        true
    }
}

impl<const N: usize, const D: usize> Recorder for Journal<N, D> {
    const ON: bool = true;
    #[inline(always)]
    fn log(&mut self, w: Write) {
        // `begin` reserved room for every write of the move.
        if self.len < N {
            self.writes[self.len] = w;
            self.len += 1;
        } else {
            debug_assert!(false, "journal reservation too small");
        }
    }
}
