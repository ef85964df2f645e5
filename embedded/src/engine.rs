//! The game the firmware plays: a 9x9 board, the move record for `undo`,
//! positional superko, komi, and move choice by the core's MCTS over a
//! node pool, a best-move table and a tactical reader with its cache that
//! live in statics sized at compile time for the board's RAM.
//!
//! [`Engine::new`] is a `const fn`: the engine is a `static` whose board,
//! record, history and searcher are laid out at compile time (in `.data`),
//! so start-up builds nothing on the stack.

use kosumi_core::board::{Board, MoveError};
use kosumi_core::game::{self, Ownership, TimeControl};
use kosumi_core::geometry::{Color, Point};
use kosumi_core::history::History;
use kosumi_core::search::{
    BestMoveTable, Budget, Clock, Knowledge, MoveInfo, NoClock, Node, Params, ReadBudget, Search,
};
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

/// Most playouts of a timed move unless `kosumi-playouts` says otherwise.
const MAX_TIMED_PLAYOUTS: u32 = 10_000_000;

/// Resign when the best move's win rate falls below this (the host's
/// default), so a lost game ends instead of filling the board.
const RESIGN_BELOW: f32 = 0.05;

/// What `genmove` decided.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// The move (or pass) was played.
    Play(Point),
    /// The game is hopeless: resign.
    Resign,
}

/// Why a move or setting was refused.
#[derive(Copy, Clone, Debug, PartialEq, Eq, defmt::Format)]
pub enum EngineError {
    /// The move is illegal (occupied, suicide, ko or superko).
    Illegal,
    /// The game record is full.
    RecordFull,
}

/// The searcher over a static node pool.
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
    /// Playouts a move without a clock; with one, the most a move may use
    /// once set by `kosumi-playouts`.
    playouts: u32,
    /// Whether `kosumi-playouts` set `playouts`.
    playouts_set: bool,
    /// The game's clock (`time_settings`, `time_left`).
    clock: TimeControl,
    /// Milliseconds since boot (none: no time source, playouts only).
    now_ms: Option<fn() -> u64>,
    /// Games started, mixed into the search seed so that successive games
    /// differ.
    games: u64,
    search: Tree,
    table: Table,
    /// The tactical reader whose never-flushed cache the search's priors
    /// consult (none: no reading).
    tactics: Option<&'static mut dyn Solver>,
}

impl Engine {
    /// Return an engine with an empty 9x9 board, komi 7.5 and `playouts`
    /// playouts per move, searching over `nodes` (used as they are: pass
    /// empty ones) with a best-move table over `clusters` (a power of two
    /// of them). A `const fn`, for a `static` engine; [`Engine::clear`]
    /// starts the first game.
    pub const fn new(
        playouts: u32,
        nodes: &'static mut [Node],
        clusters: &'static mut [BestMoveCluster],
    ) -> Engine {
        let Ok(board) = Board::new(SIZE) else {
            panic!("9x9 is supported")
        };
        let Some(search) = Search::over(nodes, PARAMS) else {
            panic!("a pool of two or more nodes")
        };
        let Ok(table) = BestMoveTable::over(clusters) else {
            panic!("a power of two of clusters")
        };
        Engine {
            board,
            record: [(Color::Black, Point::PASS); MAX_MOVES],
            moves: 0,
            history: History::new(),
            komi2: 15,
            playouts,
            playouts_set: false,
            clock: TimeControl::NONE,
            now_ms: None,
            games: 0,
            search,
            table,
            tactics: None,
        }
    }

    /// Time moves with `now_ms` (milliseconds since boot) when the game has
    /// a clock.
    pub fn set_clock(&mut self, now_ms: fn() -> u64) {
        self.now_ms = Some(now_ms);
    }

    /// Return the game's clock, for `time_settings` and `time_left`.
    pub fn clock_mut(&mut self) -> &mut TimeControl {
        &mut self.clock
    }

    /// Read tactics with `tactics` in the search's priors (its cache is
    /// kept for the life of the firmware, never flushed).
    pub fn set_tactics(&mut self, tactics: &'static mut dyn Solver) {
        self.tactics = Some(tactics);
    }

    /// Return the searcher, its table and the tactical reader (for the
    /// bench).
    #[cfg(feature = "bench")]
    pub fn searcher(&mut self) -> (&mut Tree, &mut Table, Option<&mut dyn Solver>) {
        let tactics = self.tactics.as_mut().map(|t| &mut **t as &mut dyn Solver);
        (&mut self.search, &mut self.table, tactics)
    }

    /// Return the current position.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Empty the board, forget the search tree and start the next game's
    /// random stream, seeded by the games started and by `entropy` (the
    /// UART's idle polls: when the host's commands arrived), so that games
    /// against a deterministic opponent in a fresh emulator still differ.
    pub fn clear(&mut self, entropy: u32) {
        self.board.clear();
        self.moves = 0;
        self.history.clear();
        self.history.push(self.board.position_hash());
        self.search.clear_tree();
        let game = self.games ^ (u64::from(entropy) << 32);
        self.search
            .set_seed(SEED ^ game.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        self.games += 1;
    }

    /// Set the komi in half points.
    pub fn set_komi2(&mut self, komi2: i16) {
        self.komi2 = komi2;
    }

    /// Set the playouts per `genmove` (with a clock: the most it may use).
    pub fn set_playouts(&mut self, n: u32) {
        self.playouts = n.max(1);
        self.playouts_set = true;
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
    /// groups). The playouts run on the searcher's scratch board, not on a
    /// stack copy; not inlined, so its ownership counts do not share a
    /// frame with the search's.
    #[inline(never)]
    fn passing_wins(&mut self, c: Color) -> bool {
        game::passing_wins(
            &self.board,
            self.komi2,
            c,
            OWNERSHIP_PLAYOUTS,
            SEED ^ self.moves as u64,
            self.search.scratch_board(),
        )
    }

    /// Return twice black's final margin with komi: the area count with
    /// the stones the playouts call dead taken off, as the host and GNU
    /// Go's referee count.
    pub fn final_score2(&mut self) -> i32 {
        let own = Ownership::estimate(
            &self.board,
            self.komi2,
            OWNERSHIP_PLAYOUTS,
            SEED ^ self.moves as u64,
            self.search.scratch_board(),
        );
        own.final_margin2(&self.board, self.komi2)
    }

    /// Choose a move for `c`, play it and return it, or resign.
    ///
    /// # Errors
    /// [`EngineError::RecordFull`] when the record is full.
    pub fn genmove(&mut self, c: Color) -> Result<Decision, EngineError> {
        self.board.set_to_play(c);
        let p = match self.choose(c) {
            Decision::Play(p) => p,
            Decision::Resign => return Ok(Decision::Resign),
        };
        match self.play(c, p) {
            Ok(()) => Ok(Decision::Play(p)),
            Err(_) => self
                .play(c, Point::PASS)
                .map(|()| Decision::Play(Point::PASS)),
        }
    }

    /// Pass when the opponent passed and passing wins; otherwise search,
    /// with the moves that would repeat a position excluded. Resign when
    /// the search sees no hope; never pass while the game is open (the
    /// opponent did not pass) and passing loses (a losing engine that passes hands the opponent the
    /// board), but play the most visited real move instead.
    fn choose(&mut self, c: Color) -> Decision {
        if self.board.last_move() == Some(Point::PASS) && self.passing_wins(c) {
            return Decision::Play(Point::PASS);
        }
        let mut excluded = [Point::PASS; 81];
        let mut n = 0;
        for p in self.board.empty_points() {
            if self.board.is_legal(p, c) && self.history.repeats(&self.board, p, c) {
                excluded[n] = p;
                n += 1;
            }
        }
        // With a clock and a time source, the clock's budget (capped by
        // `kosumi-playouts` if given); else the fixed playouts.
        let cap = if self.playouts_set {
            self.playouts
        } else {
            MAX_TIMED_PLAYOUTS
        };
        let budget = self
            .clock
            .search_budget(c.idx(), self.board.empty_count(), cap)
            .filter(|_| self.now_ms.is_some())
            .unwrap_or(Budget::playouts(self.playouts));
        let tactics = Knowledge::tactics(match &mut self.tactics {
            Some(t) => Some(&mut **t),
            None => None,
        });
        // The time source is read between playouts even for a playout
        // budget (main's feeds the watchdog). One `run` for both clocks, as
        // a `dyn Clock`: a second instance of the search would cost flash.
        let mut no_clock = NoClock;
        let mut elapsed;
        let clock: &mut dyn Clock = match self.now_ms {
            Some(now) => {
                let start = now();
                elapsed = move || now().saturating_sub(start);
                &mut elapsed
            }
            None => &mut no_clock,
        };
        let result = self.search.run(
            &self.board,
            self.komi2,
            &excluded[..n],
            budget,
            Some(&mut self.table),
            tactics,
            clock,
            &mut |_| {},
        );
        let Ok(r) = result else {
            return Decision::Play(Point::PASS);
        };
        if r.win_rate < RESIGN_BELOW && !r.best.is_pass() {
            return Decision::Resign;
        }
        let open = self.board.last_move() != Some(Point::PASS);
        if r.best.is_pass() && open && !self.passing_wins(c) {
            if let Some(p) = self.best_real_move(c) {
                return Decision::Play(p);
            }
        }
        Decision::Play(r.best)
    }

    /// Return the most visited root move of the last search that is not a
    /// pass and does not fill an own eye.
    fn best_real_move(&self, c: Color) -> Option<Point> {
        let mut infos = [MoveInfo::EMPTY; 4];
        let n = self.search.root_moves(&mut infos);
        infos[..n]
            .iter()
            .map(|i| i.mv)
            .find(|&p| !p.is_pass() && self.board.is_playout_move(p, c))
    }
}

/// The search parameters of the firmware: the core's defaults, but a node
/// is expanded only after 8 visits, so the small pool holds a deeper tree
/// instead of pruning every few playouts, and tactical reads stop at
/// [`READ_DEPTH`] plies (the reader's journal and stack are small here).
pub const PARAMS: Params = Params {
    expand_after: 8,
    reading: ReadBudget {
        nodes: 100,
        depth: READ_DEPTH,
    },
    ..Params::DEFAULT
};

/// Deepest tactical read at an expansion, in plies.
pub const READ_DEPTH: u8 = 8;
