//! The game the firmware plays: a 9x9 board, the move record for `undo`,
//! positional superko, komi, and move choice with a fixed playout budget.

use kosumi_core::board::{Board, MoveError};
use kosumi_core::geometry::{Color, Point};
use kosumi_core::history::History;
use kosumi_core::playout::{playout, Policy, RuleStats};
use kosumi_core::rng::{self, Rng};

/// Moves a game may hold (three times the points: enough for any real game).
pub const MAX_MOVES: usize = 3 * 81;

/// The only board size the firmware plays.
pub const SIZE: usize = 9;

/// Why a move or setting was refused.
#[derive(Copy, Clone, Debug, PartialEq, Eq, defmt::Format)]
pub enum EngineError {
    /// The move is illegal (occupied, suicide, ko or superko).
    Illegal,
    /// The game record is full.
    RecordFull,
}

/// The game state.
pub struct Engine {
    board: Board,
    scratch: Board,
    record: [(Color, Point); MAX_MOVES],
    moves: usize,
    history: History<MAX_MOVES>,
    komi2: i16,
    playouts: u32,
    rng: Rng,
}

impl Engine {
    /// Return an engine with an empty 9x9 board, komi 7.5 and `playouts`
    /// playouts per move.
    pub fn new(playouts: u32, seed: u64) -> Engine {
        let board = Board::new(SIZE).unwrap_or_else(|_| unreachable!("9x9 is supported"));
        let mut e = Engine {
            scratch: board.clone(),
            board,
            record: [(Color::Black, Point::PASS); MAX_MOVES],
            moves: 0,
            history: History::new(),
            komi2: 15,
            playouts,
            rng: rng::seeded(seed),
        };
        e.clear();
        e
    }

    /// Return the current position.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Empty the board.
    pub fn clear(&mut self) {
        self.board.clear();
        self.moves = 0;
        self.history.clear();
        self.history.push(self.board.position_hash());
    }

    /// Set the komi in half points.
    pub fn set_komi2(&mut self, komi2: i16) {
        self.komi2 = komi2;
    }

    /// Set the playouts per `genmove`.
    pub fn set_playouts(&mut self, n: u32) {
        self.playouts = n.max(1);
    }

    /// Play `c` at `p` (or pass).
    ///
    /// # Errors
    /// [`EngineError`] when the move is illegal or the record is full.
    pub fn play(&mut self, c: Color, p: Point) -> Result<(), EngineError> {
        if self.moves == MAX_MOVES {
            return Err(EngineError::RecordFull);
        }
        self.board
            .check_move(p, c)
            .map_err(|_: MoveError| EngineError::Illegal)?;
        if self.history.repeats(&self.board, p, c) {
            return Err(EngineError::Illegal);
        }
        self.board.play_legal(p, c);
        self.history.push(self.board.position_hash());
        self.record[self.moves] = (c, p);
        self.moves += 1;
        Ok(())
    }

    /// Take back the last move; `false` if there is none.
    pub fn undo(&mut self) -> bool {
        if self.moves == 0 {
            return false;
        }
        let moves = self.moves - 1;
        self.board.clear();
        self.history.clear();
        self.history.push(self.board.position_hash());
        for i in 0..moves {
            let (c, p) = self.record[i];
            self.board.play_legal(p, c);
            self.history.push(self.board.position_hash());
        }
        self.moves = moves;
        true
    }

    /// Return twice black's area-score margin with komi.
    pub fn score2(&self) -> i32 {
        self.board.score(self.komi2).margin2()
    }

    /// Choose a move for `c`, play it and return it.
    ///
    /// # Errors
    /// [`EngineError::RecordFull`] when the record is full.
    pub fn genmove(&mut self, c: Color) -> Result<Point, EngineError> {
        self.board.set_to_play(c);
        let p = self.choose(c);
        self.play(c, p).or_else(|_| self.play(c, Point::PASS))?;
        Ok(if self.record[self.moves - 1].1 == p { p } else { Point::PASS })
    }

    /// Flat Monte Carlo: share the playout budget over the acceptable moves
    /// and pick the best average; pass when the opponent passed and passing
    /// wins, or when no move is acceptable.
    fn choose(&mut self, c: Color) -> Point {
        let mut cands = [Point::PASS; 81];
        let mut n = 0;
        for p in self.board.empty_points() {
            if self.board.is_playout_move(p, c) && !self.history.repeats(&self.board, p, c) {
                cands[n] = p;
                n += 1;
            }
        }
        let sign = if c == Color::Black { 1 } else { -1 };
        let opponent_passed = self.board.last_move() == Some(Point::PASS);
        if n == 0 || (opponent_passed && sign * self.score2() > 0) {
            return Point::PASS;
        }
        let per = (self.playouts as usize / n).max(1);
        let mut stats = RuleStats::default();
        let (mut best, mut best_wins) = (cands[0], -1i64);
        for &p in &cands[..n] {
            let mut wins = 0i64;
            for _ in 0..per {
                self.scratch.copy_from(&self.board);
                self.scratch.play_legal(p, c);
                let out = playout(
                    &mut self.scratch,
                    Policy::waterfall(),
                    self.komi2,
                    &mut self.rng,
                    &mut stats,
                );
                wins += (sign * out.score.margin2() > 0) as i64;
            }
            if wins > best_wins {
                best = p;
                best_wins = wins;
            }
        }
        best
    }
}
