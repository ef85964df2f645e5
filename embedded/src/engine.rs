//! The game the firmware plays: a 9x9 board, the move record for `undo`,
//! positional superko, komi, and move choice by the core's MCTS over a
//! node pool, a best-move table and a tactical reader with its cache that
//! live in statics sized at compile time for the board's RAM.

use kosumi_core::board::{Board, MoveError};
use kosumi_core::geometry::{Color, Point};
use kosumi_core::history::History;
use kosumi_core::playout::estimated_margin2;
use kosumi_core::rng;
use kosumi_core::search::{BestMoveTable, Budget, NoClock, Node, Params, ReadBudget, Search};
use kosumi_core::table::BestMoveCluster;
use kosumi_core::tactics::Solver;

/// Moves a game may hold (three times the points: enough for any real game).
pub const MAX_MOVES: usize = 3 * 81;

/// The only board size the firmware plays.
pub const SIZE: usize = 9;

/// Playouts of the ownership estimate behind the pass decision.
const OWNERSHIP_PLAYOUTS: u32 = 64;

/// The search's base seed.
const SEED: u64 = 0x6b6f_7375_6d69;

/// Why a move or setting was refused.
#[derive(Copy, Clone, Debug, PartialEq, Eq, defmt::Format)]
pub enum EngineError {
    /// The move is illegal (occupied, suicide, ko or superko).
    Illegal,
    /// The game record is full.
    RecordFull,
}

/// The search's storage: the node pool and the best-move table.
pub type Tree = Search<&'static mut [Node]>;
/// The best-move table over a static array of clusters.
pub type Table = BestMoveTable<&'static mut [BestMoveCluster]>;

/// The game state and the searcher.
pub struct Engine {
    board: Board,
    record: [(Color, Point); MAX_MOVES],
    moves: usize,
    history: History<MAX_MOVES>,
    komi2: i16,
    playouts: u32,
    /// Games started, mixed into the search seed so that successive games
    /// differ (each one is still reproducible).
    games: u64,
    search: &'static mut Tree,
    table: &'static mut Table,
    tactics: Option<&'static mut dyn Solver>,
}

impl Engine {
    /// Return an engine with an empty 9x9 board, komi 7.5 and `playouts`
    /// playouts per move, searching with `search` and `table`.
    pub fn new(playouts: u32, search: &'static mut Tree, table: &'static mut Table) -> Engine {
        let board = Board::new(SIZE).unwrap_or_else(|_| unreachable!("9x9 is supported"));
        let mut e = Engine {
            board,
            record: [(Color::Black, Point::PASS); MAX_MOVES],
            moves: 0,
            history: History::new(),
            komi2: 15,
            playouts,
            games: 0,
            search,
            table,
            tactics: None,
        };
        e.clear();
        e
    }

    /// Read tactics with `tactics` in the search's priors (its cache is
    /// never flushed).
    pub fn set_tactics(&mut self, tactics: &'static mut dyn Solver) {
        self.tactics = Some(tactics);
    }

    /// Return the current position.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Empty the board, forget the search tree and start the next game's
    /// random stream.
    pub fn clear(&mut self) {
        self.board.clear();
        self.moves = 0;
        self.history.clear();
        self.history.push(self.board.position_hash());
        self.search.clear_tree();
        self.search
            .set_seed(SEED ^ self.games.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        self.games += 1;
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

    /// Query whether `c` wins if the game ends now: by area as the position
    /// stands (what a referee counts for settled regions) and with the
    /// stones that playouts call dead removed (what it counts for dead
    /// groups). Not inlined: its playout board is a stack temporary that
    /// must not share a frame with the search's.
    #[inline(never)]
    fn passing_wins(&self, c: Color) -> bool {
        let sign = if c == Color::Black { 1 } else { -1 };
        if sign * self.score2() <= 0 {
            return false;
        }
        let mut scratch = self.board.clone();
        let mut rng = rng::seeded(SEED ^ self.moves as u64);
        let margin2 = estimated_margin2(
            &self.board,
            self.komi2,
            OWNERSHIP_PLAYOUTS,
            &mut rng,
            &mut scratch,
        );
        sign * margin2 > 0
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
        match self.play(c, p) {
            Ok(()) => Ok(p),
            Err(_) => self.play(c, Point::PASS).map(|()| Point::PASS),
        }
    }

    /// Pass when the opponent passed and passing wins; otherwise search,
    /// with the moves that would repeat a position excluded.
    fn choose(&mut self, c: Color) -> Point {
        if self.board.last_move() == Some(Point::PASS) && self.passing_wins(c) {
            return Point::PASS;
        }
        let mut excluded = [Point::PASS; 81];
        let mut n = 0;
        for p in self.board.empty_points() {
            if self.board.is_legal(p, c) && self.history.repeats(&self.board, p, c) {
                excluded[n] = p;
                n += 1;
            }
        }
        let result = self.search.run(
            &self.board,
            self.komi2,
            &excluded[..n],
            Budget::playouts(self.playouts),
            Some(&mut *self.table),
            match &mut self.tactics {
                Some(t) => Some(&mut **t),
                None => None,
            },
            &mut NoClock,
            &mut |_| {},
        );
        match result {
            Ok(r) => r.best,
            Err(_) => Point::PASS,
        }
    }
}

/// Return the search parameters of the firmware: the core's defaults, but
/// a node is expanded only after 8 visits, so the small pool holds a deeper
/// tree instead of pruning every few playouts, and tactical reads stop at
/// [`READ_DEPTH`] plies (the reader's journal and stack are small here).
pub fn params() -> Params {
    Params {
        expand_after: 8,
        reading: ReadBudget {
            nodes: 100,
            depth: READ_DEPTH,
        },
        ..Params::default()
    }
}

/// Deepest tactical read at an expansion, in plies.
pub const READ_DEPTH: u8 = 8;
