//! ASCII diagrams in and out: `X` black, `O` white, `.` or `+` empty.
//!
//! A diagram is read top row first, as Go diagrams are printed. Row numbers
//! and a column-letter header (as [`Board`]'s `Display` prints them) are
//! skipped, so a printed board reads back. Any other letter on a board row
//! is an empty point with a mark, handed to the caller (tests use marks for
//! expected moves). A line of capital letters only, not all `X`/`O`, is a
//! column header.

use core::fmt;

use super::{Board, MoveError};
use crate::geometry::{Cell, Color, Point, COLUMN_LETTERS};

/// Why a diagram was refused.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum DiagramError {
    /// The number of rows is not a supported board size.
    UnsupportedSize,
    /// A row has a different number of points from the number of rows.
    RaggedRow,
    /// A stone would capture or have no liberties.
    DeadStone,
}

impl Board {
    /// Return the board drawn in `text`, with `to_play` to move.
    ///
    /// # Errors
    /// See [`DiagramError`].
    pub fn from_diagram(text: &str, to_play: Color) -> Result<Board, DiagramError> {
        Board::from_diagram_marked(text, to_play, |_, _| {})
    }

    /// Like [`Board::from_diagram`], calling `mark(point, letter)` for each
    /// marked empty point.
    ///
    /// # Errors
    /// See [`DiagramError`].
    pub fn from_diagram_marked(
        text: &str,
        to_play: Color,
        mut mark: impl FnMut(Point, char),
    ) -> Result<Board, DiagramError> {
        // A column header is all capital letters, some not `X`/`O` (from
        // 14x14 up it contains an `O`); a row holds a stone or an empty point.
        let is_header = |line: &str| {
            let mut letters = line.chars().filter(|c| !c.is_whitespace());
            letters.clone().all(|c| c.is_ascii_uppercase()) && letters.any(|c| c != 'X' && c != 'O')
        };
        let is_row = |line: &str| {
            line.chars().any(|c| matches!(c, 'X' | 'O' | '.' | '+')) && !is_header(line)
        };
        let size = text.lines().filter(|l| is_row(l)).count();
        let mut board = Board::new(size).map_err(|_| DiagramError::UnsupportedSize)?;
        let geo = board.geometry();
        for (row, line) in text.lines().filter(|l| is_row(l)).enumerate() {
            let y = size - 1 - row;
            let mut x = 0;
            for ch in line.chars() {
                if ch.is_whitespace() || ch.is_ascii_digit() || matches!(ch, '|' | '(' | ')') {
                    continue;
                }
                if x >= size {
                    return Err(DiagramError::RaggedRow);
                }
                let p = geo.point(x, y);
                match ch {
                    'X' => board
                        .setup_stone(p, Color::Black)
                        .map_err(|_| DiagramError::DeadStone)?,
                    'O' => board
                        .setup_stone(p, Color::White)
                        .map_err(|_| DiagramError::DeadStone)?,
                    '.' | '+' => {}
                    other => mark(p, other),
                }
                x += 1;
            }
            if x != size {
                return Err(DiagramError::RaggedRow);
            }
        }
        board.to_play = to_play;
        Ok(board)
    }

    /// Put a stone on the board as setup (handicap, SGF `AB`/`AW`, diagrams):
    /// the side to move, move count and ko are left alone, and no chain
    /// counts as put in atari by the last move ([`Board::new_ataris`]).
    ///
    /// # Errors
    /// [`MoveError::Occupied`] or [`MoveError::OffBoard`]; [`MoveError::Suicide`]
    /// if the stone would have no liberty or would capture.
    pub fn setup_stone(&mut self, p: Point, c: Color) -> Result<(), MoveError> {
        if p.is_pass() || !self.geo.on_board(p) {
            return Err(MoveError::OffBoard);
        }
        if self.at(p) != Cell::Empty {
            return Err(MoveError::Occupied);
        }
        let opp = Cell::stone(c.opponent());
        let captures = self
            .geo
            .neighbours(p)
            .iter()
            .any(|&n| self.at(n) == opp && self.in_atari(n));
        if captures || !self.is_legal_empty(p, c) {
            return Err(MoveError::Suicide);
        }
        let saved = (
            self.to_play,
            self.ko,
            self.last,
            self.last2,
            self.passes,
            self.moves,
        );
        self.play_legal(p, c);
        (
            self.to_play,
            self.ko,
            self.last,
            self.last2,
            self.passes,
            self.moves,
        ) = saved;
        self.n_new_ataris = 0;
        Ok(())
    }
}

impl fmt::Display for Board {
    /// Draw the board with coordinates, top row first.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.size();
        let header = |f: &mut fmt::Formatter<'_>| {
            write!(f, "   ")?;
            for &c in &COLUMN_LETTERS[..n] {
                write!(f, " {}", c as char)?;
            }
            writeln!(f)
        };
        header(f)?;
        for y in (0..n).rev() {
            write!(f, "{:>3}", y + 1)?;
            for x in 0..n {
                let p = self.geo.point(x, y);
                let ch = match self.at(p) {
                    Cell::Black => 'X',
                    Cell::White => 'O',
                    _ => '.',
                };
                let before = if self.last == Some(p) { '(' } else { ' ' };
                write!(f, "{before}{ch}")?;
            }
            writeln!(f, " {}", y + 1)?;
        }
        header(f)
    }
}
