//! The game a GTP session plays: setup stones, the move list, the board
//! and a superko history, in fixed capacity.
//!
//! The record is the truth, the board a cache of it: a game is its setup
//! stones (handicap, SGF `AB`/`AW`), the side to move before each move
//! (usually the opponent of the last mover, but GTP lets either colour play
//! and a loaded record may set it), and the moves. Undo drops the last move
//! and replays the rest from the setup: O(moves) per undo, nothing at GTP
//! rates, and exact by construction (ko point, side to move and captures
//! included), where taking a move back by hand would have to restore
//! captured chains.
//!
//! Positional superko uses the core's [`History`] of stones-only hashes,
//! rebuilt with the board. A move that repeats an earlier position is
//! illegal; passes never are.
//!
//! Capacities are the caller's: `MOVES` moves (and as many positions of
//! superko history), `SETUP` setup stones. The host holds thousands; the
//! firmware three times its points.

use heapless::Vec;

use crate::board::{Board, MoveError};
use crate::geometry::{Color, GeometryError, Point};
use crate::history::History;

/// Why a move was refused.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum PlayError {
    /// The board refuses it: occupied, off the board, suicide or simple ko.
    Board(MoveError),
    /// It would repeat an earlier position (positional superko).
    Superko,
    /// The record holds as many moves as it can.
    RecordFull,
}

/// Why handicap or setup stones were refused.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum SetupError {
    /// Handicap needs an empty board.
    BoardNotEmpty,
    /// A stone is off the board, repeated, or leaves a chain without
    /// liberties, or there are more than the record holds.
    BadStones,
}

/// One move of the record.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Move {
    /// Who played it.
    pub color: Color,
    /// Where (or [`Point::PASS`]).
    pub point: Point,
    /// The side to move before it (GTP lets either colour play).
    to_play: Color,
}

/// A game: setup, moves, and the position they lead to.
#[derive(Clone)]
pub struct Game<const MOVES: usize, const SETUP: usize> {
    komi2: i16,
    handicap: u32,
    setup: Vec<(Point, Color), SETUP>,
    /// The side to move before the first move.
    first_to_play: Color,
    moves: Vec<Move, MOVES>,
    board: Board,
    history: History<MOVES>,
}

impl<const MOVES: usize, const SETUP: usize> Game<MOVES, SETUP> {
    /// Return an empty game on a `size` x `size` board with komi
    /// `komi2 / 2`. A `const fn`, so that a firmware's game is a `static`.
    ///
    /// # Errors
    /// [`GeometryError::UnsupportedSize`] for a size the core does not support.
    pub const fn new(size: usize, komi2: i16) -> Result<Self, GeometryError> {
        match Board::new(size) {
            Ok(board) => Ok(Self::on_empty(board, komi2)),
            Err(e) => Err(e),
        }
    }

    /// Return an empty game on `board`, an empty board from
    /// [`Board::new`], with komi `komi2 / 2`. A `const fn` that cannot
    /// fail, for a `static` (a `Result` holding a game cannot be dropped
    /// at compile time).
    pub const fn on_empty(board: Board, komi2: i16) -> Self {
        Game {
            komi2,
            handicap: 0,
            setup: Vec::new(),
            first_to_play: Color::Black,
            moves: Vec::new(),
            board,
            history: History::new(),
        }
    }

    /// Make this the game [`Game::new`] returns, in place: a game in a
    /// `static` that starts as zero bytes (in `.bss`, with no image in a
    /// firmware's flash) is set up by this at run time, with no
    /// board-sized temporary on the stack.
    ///
    /// # Errors
    /// [`GeometryError::UnsupportedSize`]; the game is unchanged then.
    pub fn reset(&mut self, size: usize, komi2: i16) -> Result<(), GeometryError> {
        // Every field by name: a field added to `Game` must be set here.
        let Game {
            komi2: own_komi2,
            handicap,
            setup,
            first_to_play,
            moves,
            board,
            history,
        } = self;
        board.reset(size)?;
        *own_komi2 = komi2;
        *handicap = 0;
        setup.clear();
        *first_to_play = Color::Black;
        moves.clear();
        history.clear();
        Ok(())
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

    /// Return the setup stones, in the board's order of points.
    pub fn setup(&self) -> &[(Point, Color)] {
        &self.setup
    }

    /// Return the moves played since the setup.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Return the side to move before the first move.
    pub fn first_to_play(&self) -> Color {
        self.first_to_play
    }

    /// Return the side to move.
    pub fn to_play(&self) -> Color {
        self.board.to_play()
    }

    /// Query whether the opponent of `c` made the last move, and passed.
    pub fn opponent_passed(&self, c: Color) -> bool {
        self.moves
            .last()
            .is_some_and(|m| m.color == c.opponent() && m.point.is_pass())
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
        self.first_to_play = Color::Black;
        self.rebuild();
    }

    /// Change the board size and clear the game.
    ///
    /// # Errors
    /// [`GeometryError::UnsupportedSize`]; the game is unchanged then.
    pub fn resize(&mut self, size: usize) -> Result<(), GeometryError> {
        self.board.reset(size)?;
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
        if self.moves.is_full() {
            return Err(PlayError::RecordFull);
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
    /// The [`PlayError`] if the board refuses the move or the record is full.
    pub fn play_record(&mut self, c: Color, p: Point) -> Result<(), PlayError> {
        self.board.check_move(p, c).map_err(PlayError::Board)?;
        if self.moves.is_full() {
            return Err(PlayError::RecordFull);
        }
        self.push_move(c, p);
        Ok(())
    }

    /// Play the checked move `c` at `p`; the record has room.
    fn push_move(&mut self, c: Color, p: Point) {
        let to_play = self.board.to_play();
        play_on(&mut self.board, p, c);
        // `check` and `play_record` made sure of the room.
        let _ = self.moves.push(Move {
            color: c,
            point: p,
            to_play,
        });
        self.history.push(self.board.position_hash());
    }

    /// Take back the last move; return `false` if there is none.
    pub fn undo(&mut self) -> bool {
        let Some(last) = self.moves.pop() else {
            return false;
        };
        self.rebuild();
        self.board.set_to_play(last.to_play);
        true
    }

    /// Set the side to move now (a record's `PL`, the colour of the next
    /// move when loading up to a move number, or `genmove`'s colour).
    pub fn set_to_play(&mut self, c: Color) {
        if self.moves.is_empty() {
            self.first_to_play = c;
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
        let geo = self.board.geometry();
        for (i, &p) in points.iter().enumerate() {
            if p.is_pass() || !geo.on_board(p) || points[..i].contains(&p) {
                return Err(SetupError::BadStones);
            }
        }
        let mut setup = Vec::<(Point, Color), SETUP>::new();
        for p in geo.points().filter(|p| points.contains(p)) {
            setup
                .push((p, Color::Black))
                .map_err(|_| SetupError::BadStones)?;
        }
        self.start_from(setup)?;
        self.handicap = points.len() as u32;
        self.set_to_play(Color::White);
        Ok(())
    }

    /// Add (`Some(colour)`) or remove (`None`) stones as setup (SGF `AB`,
    /// `AW`, `AE`). The current position becomes the game's start: moves
    /// played so far can no longer be undone. The side to move stays.
    ///
    /// # Errors
    /// [`SetupError::BadStones`] if a point is off the board or repeated,
    /// the result has a chain without liberties, or holds more stones than
    /// `SETUP`; the game is unchanged then.
    pub fn apply_setup(&mut self, changes: &[(Point, Option<Color>)]) -> Result<(), SetupError> {
        let geo = self.board.geometry();
        for (i, &(p, _)) in changes.iter().enumerate() {
            if p.is_pass() || !geo.on_board(p) || changes[..i].iter().any(|&(q, _)| q == p) {
                return Err(SetupError::BadStones);
            }
        }
        let mut setup = Vec::<(Point, Color), SETUP>::new();
        for p in geo.points() {
            let stone = match changes.iter().find(|&&(q, _)| q == p) {
                Some(&(_, c)) => c,
                None => self.board.at(p).color(),
            };
            if let Some(c) = stone {
                setup.push((p, c)).map_err(|_| SetupError::BadStones)?;
            }
        }
        self.start_from(setup)
    }

    /// Make `setup` the game's start, the side to move kept.
    ///
    /// The stones are tried on the game's own board: a board of their own
    /// on the stack made `place_handicap`'s frame 10,560 bytes on the 9x9
    /// firmware, more stack than its search takes. A refused setup leaves
    /// the record as it was, and the board is rebuilt from it.
    ///
    /// # Errors
    /// [`SetupError::BadStones`] if a chain would have no liberty; the
    /// game is unchanged then.
    fn start_from(&mut self, setup: Vec<(Point, Color), SETUP>) -> Result<(), SetupError> {
        let (next, ko) = (self.board.to_play(), self.board.ko());
        // In place: the size is the board's own, so the reset succeeds.
        let size = self.size();
        let _ = self.board.reset(size);
        if setup
            .iter()
            .any(|&(p, c)| self.board.setup_stone(p, c).is_err())
        {
            self.rebuild();
            // The side to move as it was: the record's, or one set since
            // (which clears the ko, and a ko cleared so stays cleared).
            if self.board.ko() != ko {
                self.board.set_to_play(next.opponent());
            }
            self.board.set_to_play(next);
            return Err(SetupError::BadStones);
        }
        self.setup = setup;
        self.moves.clear();
        self.first_to_play = next;
        self.rebuild();
        Ok(())
    }

    /// Replay the record into the board and the history. Every setup stone
    /// and move was checked when it joined the record, so the replay
    /// accepts them all.
    fn rebuild(&mut self) {
        // In place: the size is the board's own, so the reset succeeds.
        let size = self.size();
        let _ = self.board.reset(size);
        // (A record without setup stones leaves their code out.)
        if SETUP > 0 {
            for &(p, c) in &self.setup {
                // Placed in any order, a position whose chains all have a
                // liberty is accepted stone by stone.
                let _ = self.board.setup_stone(p, c);
            }
        }
        self.board.set_to_play(self.first_to_play);
        self.history.clear();
        self.history.push(self.board.position_hash());
        for m in &self.moves {
            self.board.set_to_play(m.to_play);
            play_on(&mut self.board, m.point, m.color);
            self.history.push(self.board.position_hash());
        }
    }
}

/// Play the checked move `c` at `p` on `board`: one copy of the board's
/// move code for the record's moves and replays (a firmware's flash counts
/// every inlined copy).
#[inline(never)]
fn play_on(board: &mut Board, p: Point, c: Color) {
    board.play_legal(p, c);
}
