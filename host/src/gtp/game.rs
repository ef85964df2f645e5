//! The game a GTP session plays: setup stones, the move list, the board
//! and a superko history.
//!
//! The record is the truth, the board a cache of it: a game is its setup
//! stones (handicap, SGF `AB`/`AW`), the side to move before each move
//! (usually the opponent of the last mover, but GTP lets either colour play
//! and `loadsgf` may set it), and the moves. Undo drops the last move and
//! replays the rest from the setup: O(moves) per undo, nothing at GTP rates,
//! and exact by construction (ko point, side to move and captures included),
//! where taking a move back by hand would have to restore captured chains.
//!
//! Positional superko uses the core's [`History`] of stones-only hashes,
//! rebuilt with the board. A move that repeats an earlier position is
//! illegal; passes never are.

use kosumi_core::board::{Board, MoveError};
use kosumi_core::geometry::{Color, GeometryError, Point};
use kosumi_core::history::History;

/// Positions the superko history remembers: more than any real game has.
pub const HISTORY_LEN: usize = 4096;

/// Why a move was refused.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum PlayError {
    /// The board refuses it: occupied, off the board, suicide or simple ko.
    Board(MoveError),
    /// It would repeat an earlier position (positional superko).
    Superko,
}

/// Why handicap or setup stones were refused.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum SetupError {
    /// Handicap needs an empty board.
    BoardNotEmpty,
    /// A stone is off the board, repeated, or leaves a chain without liberties.
    BadStones,
}

/// One move of the record.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Move {
    /// Who played it.
    pub color: Color,
    /// Where (or [`Point::PASS`]).
    pub point: Point,
}

/// A game: setup, moves, and the position they lead to.
#[derive(Clone)]
pub struct Game {
    komi2: i16,
    handicap: u32,
    setup: Vec<(Point, Color)>,
    moves: Vec<Move>,
    /// Side to move before move `i`; one longer than `moves` (the last entry
    /// is the side to move now).
    to_play: Vec<Color>,
    board: Board,
    /// An empty board of the game's size: every replay starts from a copy,
    /// so a replayed position is the original bit for bit.
    empty: Board,
    history: History<HISTORY_LEN>,
}

impl Game {
    /// Return an empty game on a `size` x `size` board with komi `komi2 / 2`.
    ///
    /// # Errors
    /// [`GeometryError::UnsupportedSize`] for a size the core does not support.
    pub fn new(size: usize, komi2: i16) -> Result<Game, GeometryError> {
        let board = Board::new(size)?;
        let mut game = Game {
            komi2,
            handicap: 0,
            setup: Vec::new(),
            moves: Vec::new(),
            to_play: vec![Color::Black],
            empty: board.clone(),
            board,
            history: History::new(),
        };
        game.history.push(game.board.position_hash());
        Ok(game)
    }

    /// Return the current position.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Return the board size.
    pub fn size(&self) -> usize {
        self.board.size()
    }

    /// Return twice the komi.
    pub fn komi2(&self) -> i16 {
        self.komi2
    }

    /// Set the komi to `komi2 / 2`.
    pub fn set_komi2(&mut self, komi2: i16) {
        self.komi2 = komi2;
    }

    /// Return the number of handicap stones (0 for none).
    pub fn handicap(&self) -> u32 {
        self.handicap
    }

    /// Record the number of handicap stones (a record's `HA`).
    pub fn set_handicap_count(&mut self, n: u32) {
        self.handicap = n;
    }

    /// Return the setup stones, in the order they were placed.
    pub fn setup(&self) -> &[(Point, Color)] {
        &self.setup
    }

    /// Return the moves played since the setup.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Return the side to move before the first move.
    pub fn first_to_play(&self) -> Color {
        self.to_play[0]
    }

    /// Return the side to move.
    pub fn to_play(&self) -> Color {
        self.board.to_play()
    }

    /// Query whether the board holds no stone.
    pub fn board_is_empty(&self) -> bool {
        self.board.empty_count() == self.size() * self.size()
    }

    /// Empty the board and forget the record, keeping size and komi.
    pub fn clear(&mut self) {
        self.handicap = 0;
        self.setup.clear();
        self.moves.clear();
        self.to_play = vec![Color::Black];
        self.rebuild();
    }

    /// Change the board size and clear the game.
    ///
    /// # Errors
    /// [`GeometryError::UnsupportedSize`]; the game is unchanged then.
    pub fn resize(&mut self, size: usize) -> Result<(), GeometryError> {
        self.empty = Board::new(size)?;
        self.clear();
        Ok(())
    }

    /// Return why `c` may not play `p` now, superko included.
    ///
    /// # Errors
    /// The [`PlayError`] that forbids the move.
    pub fn check(&self, c: Color, p: Point) -> Result<(), PlayError> {
        self.board.check_move(p, c).map_err(PlayError::Board)?;
        if self.history.repeats(&self.board, p, c) {
            return Err(PlayError::Superko);
        }
        Ok(())
    }

    /// Play `c` at `p` (or pass), refusing illegal moves and superko.
    ///
    /// # Errors
    /// The [`PlayError`] that forbids the move; the game is unchanged then.
    pub fn play(&mut self, c: Color, p: Point) -> Result<(), PlayError> {
        self.check(c, p)?;
        self.push_move(c, p);
        Ok(())
    }

    /// Play `c` at `p` from a game record: like [`Game::play`] but a repeated
    /// position is allowed (records under other rules may hold one).
    ///
    /// # Errors
    /// The [`MoveError`] if the board refuses the move.
    pub fn play_record(&mut self, c: Color, p: Point) -> Result<(), MoveError> {
        self.board.check_move(p, c)?;
        self.push_move(c, p);
        Ok(())
    }

    fn push_move(&mut self, c: Color, p: Point) {
        self.board.play_legal(p, c);
        self.moves.push(Move { color: c, point: p });
        self.to_play.push(self.board.to_play());
        self.history.push(self.board.position_hash());
    }

    /// Take back the last move; return `false` if there is none.
    pub fn undo(&mut self) -> bool {
        if self.moves.pop().is_none() {
            return false;
        }
        self.to_play.pop();
        self.rebuild();
        true
    }

    /// Set the side to move now (a record's `PL`, or the colour of the next
    /// move when loading up to a move number).
    pub fn set_to_play(&mut self, c: Color) {
        if let Some(last) = self.to_play.last_mut() {
            *last = c;
        }
        self.board.set_to_play(c);
    }

    /// Place black handicap stones on the empty board; white moves next.
    ///
    /// # Errors
    /// [`SetupError::BoardNotEmpty`], or [`SetupError::BadStones`] for
    /// repeated or off-board points; the game is unchanged then.
    pub fn place_handicap(&mut self, points: &[Point]) -> Result<(), SetupError> {
        if !self.board_is_empty() {
            return Err(SetupError::BoardNotEmpty);
        }
        let changes: Vec<_> = points.iter().map(|&p| (p, Some(Color::Black))).collect();
        self.apply_setup(&changes)?;
        self.handicap = points.len() as u32;
        self.set_to_play(Color::White);
        Ok(())
    }

    /// Add (`Some(colour)`) or remove (`None`) stones as setup (SGF `AB`,
    /// `AW`, `AE`). The current position becomes the game's start: moves
    /// played so far can no longer be undone.
    ///
    /// # Errors
    /// [`SetupError::BadStones`] if a point is off the board or repeated, or
    /// the result has a chain without liberties; the game is unchanged then.
    pub fn apply_setup(&mut self, changes: &[(Point, Option<Color>)]) -> Result<(), SetupError> {
        let geo = self.board.geometry();
        let mut stones: Vec<Option<Color>> = vec![None; geo.cells()];
        for p in geo.points() {
            stones[p.idx()] = self.board.at(p).color();
        }
        let mut touched = vec![false; geo.cells()];
        for &(p, c) in changes {
            if p.is_pass() || !geo.on_board(p) || touched[p.idx()] {
                return Err(SetupError::BadStones);
            }
            touched[p.idx()] = true;
            stones[p.idx()] = c;
        }
        let setup: Vec<(Point, Color)> = geo
            .points()
            .filter_map(|p| stones[p.idx()].map(|c| (p, c)))
            .collect();
        let saved = self.clone();
        self.setup = setup;
        self.moves.clear();
        let next = self.board.to_play();
        self.to_play = vec![next];
        if !self.rebuild() {
            *self = saved;
            return Err(SetupError::BadStones);
        }
        Ok(())
    }

    /// Replay the record into the board and the history; return `false` if
    /// a setup stone or a move is refused (the record is inconsistent).
    fn rebuild(&mut self) -> bool {
        let mut ok = true;
        self.board.clone_from(&self.empty);
        for &(p, c) in &self.setup {
            // Placed in any order, a position whose chains all have a
            // liberty is accepted stone by stone.
            ok &= self.board.setup_stone(p, c).is_ok();
        }
        self.history.clear();
        self.history.push(self.board.position_hash());
        for (m, &next) in self.moves.iter().zip(&self.to_play) {
            self.board.set_to_play(next);
            ok &= self.board.play(m.point, m.color).is_ok();
            self.history.push(self.board.position_hash());
        }
        if let Some(&next) = self.to_play.last() {
            self.board.set_to_play(next);
        }
        ok
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(g: &Game, v: &str) -> Point {
        g.board().geometry().parse_vertex(v).unwrap()
    }

    #[test]
    fn undo_restores_ko_and_side_to_move() {
        let mut g = Game::new(5, 0).unwrap();
        // A ko at C3/D3: white takes at C3, black may not retake at D3.
        for (c, v) in [
            (Color::Black, "b3"),
            (Color::White, "e3"),
            (Color::Black, "c2"),
            (Color::White, "d2"),
            (Color::Black, "c4"),
            (Color::White, "d4"),
            (Color::Black, "d3"),
            (Color::White, "c3"),
        ] {
            g.play(c, pt(&g, v)).unwrap();
        }
        assert_eq!(g.board().ko(), Some(pt(&g, "d3")));
        let before = g.board().clone();
        g.play(Color::Black, pt(&g, "a5")).unwrap();
        assert!(g.undo());
        assert!(g.board().identical(&before));
        assert_eq!(
            g.play(Color::Black, pt(&g, "d3")),
            Err(PlayError::Board(MoveError::Ko))
        );
    }

    #[test]
    fn undo_at_start_fails() {
        let mut g = Game::new(9, 15).unwrap();
        assert!(!g.undo());
    }
}
