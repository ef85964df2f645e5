//! Ladders: can a chain kept in atari run away? (Pachi's `is_ladder`, the
//! "ladder status" of Coulom's move patterns.)
//!
//! A plain ladder read, narrower than the [`Reader`](super::Reader): the
//! defender of a chain in atari extends at its last liberty or captures an
//! attacker chain in atari next to it; with three or more liberties it has
//! escaped, with one it is caught, with two the attacker tries both
//! liberties. No nets, no ko, no cache: the answer depends on the position
//! only, so the pattern features it feeds are the same in training and in
//! play. A read that outgrows its node or journal budget counts as an
//! escape (no ladder claimed without a proof).
//!
//! Moves are played and taken back through the board's undo journal, which
//! the [`Ladder`] owns (its size is two const generics, like the reader's).

use crate::board::{Board, Journal};
use crate::geometry::{Cell, Color, Point};

/// Slot writes of a [`Ladder`]'s journal by default, as many as the
/// tactical reader's: a ladder across a 19x19 board fits (a 9x9 one of
/// fourteen plies takes about 500).
pub const LADDER_WRITES: usize = 2048;
/// Plies of a [`Ladder`]'s journal by default.
pub const LADDER_MOVES: usize = 64;

/// Nodes one ladder read may visit before it gives up (an escape).
pub const LADDER_NODES: u32 = 400;

/// A ladder reader with an undo journal of `W` writes over `M` plies.
pub struct Ladder<const W: usize = LADDER_WRITES, const M: usize = LADDER_MOVES> {
    journal: Journal<W, M>,
}

impl<const W: usize, const M: usize> Default for Ladder<W, M> {
    fn default() -> Self {
        Self::new()
    }
}

/// A question about ladders ([`LadderReader`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Question {
    /// Is the chain at `prey`, in atari with its owner to move, caught in
    /// a ladder?
    InAtari(Point),
    /// Is the chain at `prey`, with two liberties and its opponent to
    /// move, caught in a ladder?
    WithTwo(Point),
    /// Does `c` playing at the empty point `p` make a chain the opponent
    /// catches (one liberty, or two and a working ladder)?
    After(Point, Color),
    /// Is the opponent's chain at `target`, which `c` playing at `p` puts
    /// in atari, then caught in a ladder?
    AfterAtari(Point, Color, Point),
}

/// What the pattern features and the heavy playouts ask of ladders. A
/// [`Ladder`] answers with its own journal; the tactical
/// [`Reader`](super::Reader) answers with its journal between its own
/// reads, so an engine short of RAM keeps one journal for both
/// ([`super::Solver::ladders`]). Both run the same read, so their answers
/// differ only where a journal is too small for a line (an escape, as
/// when the node budget runs out). The board is restored.
pub trait LadderReader {
    /// Answer `question` on `board`.
    fn answer(&mut self, board: &mut Board, question: Question) -> bool;

    /// See [`Question::InAtari`].
    fn caught_in_atari(&mut self, board: &mut Board, prey: Point) -> bool {
        self.answer(board, Question::InAtari(prey))
    }

    /// See [`Question::WithTwo`].
    fn caught_with_two(&mut self, board: &mut Board, prey: Point) -> bool {
        self.answer(board, Question::WithTwo(prey))
    }

    /// See [`Question::After`].
    fn caught_after(&mut self, board: &mut Board, p: Point, c: Color) -> bool {
        self.answer(board, Question::After(p, c))
    }

    /// See [`Question::AfterAtari`].
    fn caught_after_atari(&mut self, board: &mut Board, p: Point, c: Color, target: Point) -> bool {
        self.answer(board, Question::AfterAtari(p, c, target))
    }
}

/// The reader of an engine with no journal to spare: it reads no ladder
/// (a question that needs a read answers `false`, as a read out of budget
/// does); a chain left with one liberty is still caught.
pub struct NoLadders;

impl LadderReader for NoLadders {
    fn answer(&mut self, board: &mut Board, question: Question) -> bool {
        match question {
            Question::After(p, c) => board.liberties_after::<2>(p, c) < 2,
            _ => false,
        }
    }
}

impl<const W: usize, const M: usize> Ladder<W, M> {
    /// Return a ladder reader (a `const fn`: it may live in a `static`).
    pub const fn new() -> Self {
        Ladder {
            journal: Journal::new(),
        }
    }
}

impl<const W: usize, const M: usize> LadderReader for Ladder<W, M> {
    fn answer(&mut self, board: &mut Board, question: Question) -> bool {
        Read::answer(&mut self.journal, board, question)
    }
}

/// One ladder question read over a borrowed journal and a node budget of
/// its own: the read every [`LadderReader`] with a journal runs.
pub(crate) struct Read<'j, const W: usize, const M: usize> {
    journal: &'j mut Journal<W, M>,
    nodes: u32,
}

impl<'j, const W: usize, const M: usize> Read<'j, W, M> {
    /// Answer `question` on `board`, reading over `journal` (cleared
    /// first).
    pub(crate) fn answer(
        journal: &'j mut Journal<W, M>,
        board: &mut Board,
        question: Question,
    ) -> bool {
        journal.clear();
        let mut read = Read { journal, nodes: 0 };
        match question {
            Question::InAtari(prey) => board.in_atari(prey) && read.defend(board, prey),
            Question::WithTwo(prey) => {
                board.liberty_count_capped::<3>(prey) == 2 && read.attack(board, prey)
            }
            Question::After(p, c) => {
                if board.play_undoable(p, c, read.journal).is_err() {
                    return false;
                }
                let caught = match board.liberty_count_capped::<3>(p) {
                    0 | 1 => true,
                    2 => read.attack(board, p),
                    _ => false,
                };
                board.undo(read.journal);
                caught
            }
            Question::AfterAtari(p, c, target) => {
                if board.play_undoable(p, c, read.journal).is_err() {
                    return false;
                }
                let caught = board.at(target) == Cell::stone(c.opponent())
                    && board.in_atari(target)
                    && read.defend(board, target);
                board.undo(read.journal);
                caught
            }
        }
    }

    /// Count a node; `false` once the budget is spent.
    fn visit(&mut self) -> bool {
        self.nodes += 1;
        self.nodes <= LADDER_NODES
    }

    /// Defender to move, `prey` in atari: is it caught whatever it does?
    fn defend(&mut self, board: &mut Board, prey: Point) -> bool {
        if !self.visit() {
            return false;
        }
        let Some(color) = board.at(prey).color() else {
            return false;
        };
        let Some(lib) = board.atari_liberty(prey) else {
            return false;
        };
        // Candidates: captures of attacker chains in atari next to the
        // prey, then the extension.
        let mut cands = [Point::PASS; 8];
        let mut n = 0;
        let opp = Cell::stone(color.opponent());
        let geo = board.geometry();
        for s in board.chain_stones(prey) {
            for q in geo.neighbours(s) {
                if board.at(q) == opp {
                    if let Some(l) = board.atari_liberty(q) {
                        if n < cands.len() - 1 && !cands[..n].contains(&l) {
                            cands[n] = l;
                            n += 1;
                        }
                    }
                }
            }
        }
        if !cands[..n].contains(&lib) {
            cands[n] = lib;
            n += 1;
        }
        for &m in &cands[..n] {
            if !board.is_legal(m, color) {
                continue;
            }
            if board.play_undoable(m, color, self.journal).is_err() {
                return false;
            }
            let escaped = match board.liberty_count_capped::<3>(prey) {
                0 | 1 => false,
                2 => !self.attack(board, prey),
                _ => true,
            };
            board.undo(self.journal);
            if escaped {
                return false;
            }
        }
        true
    }

    /// Attacker to move, `prey` with two liberties: does an atari catch it?
    fn attack(&mut self, board: &mut Board, prey: Point) -> bool {
        if !self.visit() {
            return false;
        }
        let Some(color) = board.at(prey).color() else {
            return false;
        };
        let att = color.opponent();
        let libs = board.liberties::<2>(prey);
        let [mut a, mut b] = match libs.as_slice() {
            &[a, b] => [a, b],
            _ => return false,
        };
        // Block the wider escape first.
        if board.neighbour_count(b, Cell::Empty) > board.neighbour_count(a, Cell::Empty) {
            core::mem::swap(&mut a, &mut b);
        }
        let geo = board.geometry();
        for (m, other) in [(a, b), (b, a)] {
            // The defender will extend at `other`: three empty points
            // around it besides `m` are three liberties, an escape, so
            // this atari fails without being played.
            let besides = board.neighbour_count(other, Cell::Empty)
                - geo.neighbours(other).contains(&m) as u32;
            if besides >= 3 || !board.is_legal(m, att) {
                continue;
            }
            if board.play_undoable(m, att, self.journal).is_err() {
                return false;
            }
            let caught = board.at(prey).color() != Some(color)
                || (board.in_atari(prey) && self.defend(board, prey));
            board.undo(self.journal);
            if caught {
                return true;
            }
        }
        false
    }
}
