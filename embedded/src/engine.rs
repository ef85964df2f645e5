//! The firmware's engine under the core's GTP session: the search the
//! session asks for a move (the core's MCTS over a node pool, a best-move
//! table and a tactical reader with its cache, in statics sized at compile
//! time for the board's RAM), its budget from the clock, and how it scores
//! the end of a game. The game, its record, undo, superko, the move choice
//! with its fall-backs, resignation and every standard command are the
//! core's ([`kosumi_core::gtp::Session`]), as on the host.
//!
//! [`Engine::new`] and [`Session::new`] are `const fn`s: the session is a
//! `static` whose board, record, history and searcher are laid out at
//! compile time (in `.data`), so start-up builds nothing on the stack.

use kosumi_core::board::Board;
use kosumi_core::game::{Game, Outcome, Player, ResignRule, Scorer, TimeControl, RANKED};
use kosumi_core::geometry::{Color, Point};
use kosumi_core::gtp::{self, Session};
use kosumi_core::playout::{Heavy, Policy};
use kosumi_core::search::{
    BestMoveTable, Budget, Clock, Knowledge, MoveInfo, NoClock, Node, Params, ReadBudget, Search,
    SearchError,
};
use kosumi_core::table::BestMoveCluster;
use kosumi_core::tactics::Solver;

/// Moves a game may hold (three times the points: enough for any real game).
pub const MAX_MOVES: usize = 3 * 81;

/// Setup stones a game may hold (no handicap or loaded records yet).
pub const SETUP: usize = 0;

/// The board size at power-on: the board's (`boardsize` changes it).
pub const SIZE: usize = crate::board::SIZE;
static_assertions::const_assert!(SIZE <= kosumi_core::geometry::MAX_SIZE);

/// The firmware's GTP session.
pub type Firmware = Session<Engine, MAX_MOVES, SETUP>;

/// Playouts of the ownership estimate behind the pass decision and
/// `final_score`.
const OWNERSHIP_PLAYOUTS: u32 = 64;

/// The search's base seed.
const SEED: u64 = 0x6b6f_7375_6d69;

/// Most playouts of a timed move unless `kosumi-playouts` says otherwise.
const MAX_TIMED_PLAYOUTS: u32 = 10_000_000;

/// The commands the firmware answers itself.
pub const EXTRA_COMMANDS: &[&str] = &["kosumi-playouts"];

/// The searcher over a static node pool.
pub type Tree = Search<&'static mut [Node]>;
/// The best-move table over a static array of clusters.
pub type Table = BestMoveTable<&'static mut [BestMoveCluster]>;

/// The search and its storage.
pub struct Engine {
    /// Playouts a move without a clock; with one, the most a move may use
    /// once set by `kosumi-playouts`.
    playouts: u32,
    /// Whether `kosumi-playouts` set `playouts`.
    playouts_set: bool,
    /// Milliseconds since boot (none: no time source, playouts only).
    now_ms: Option<fn() -> u64>,
    /// Games started, mixed into the search seed so that successive games
    /// differ.
    games: u64,
    /// The UART's idle polls when the last command arrived: mixed into the
    /// next game's seed, so that games against a deterministic opponent in
    /// a fresh emulator still differ.
    pub entropy: u32,
    search: Tree,
    table: Table,
    /// The tactical reader whose never-flushed cache the search's priors
    /// consult (none: no reading).
    tactics: Option<&'static mut dyn Solver>,
}

impl Engine {
    /// Return an engine of `playouts` playouts per move, searching over
    /// `nodes` (used as they are: pass empty ones) with a best-move table
    /// over `clusters` (a power of two of them). A `const fn`, for a
    /// `static`.
    pub const fn new(
        playouts: u32,
        nodes: &'static mut [Node],
        clusters: &'static mut [BestMoveCluster],
    ) -> Engine {
        let Some(search) = Search::over(nodes, PARAMS) else {
            panic!("a pool of two or more nodes")
        };
        let Ok(table) = BestMoveTable::over(clusters) else {
            panic!("a power of two of clusters")
        };
        Engine {
            playouts,
            playouts_set: false,
            now_ms: None,
            games: 0,
            entropy: 0,
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

    /// `kosumi-playouts N`: the playouts per `genmove` (with a clock: the
    /// most it may use).
    ///
    /// # Errors
    /// [`gtp::Failure::Syntax`] unless one positive number.
    pub fn set_playouts(&mut self, args: &mut gtp::args::Args<'_>) -> Result<(), gtp::Failure> {
        let [n] = gtp::args::exactly::<1>(args)?;
        match gtp::args::count(n)? {
            Some(n @ 1..=0xFFFF_FFFF) => {
                self.playouts = n as u32;
                self.playouts_set = true;
                Ok(())
            }
            _ => Err(gtp::Failure::Syntax),
        }
    }
}

impl Player for Engine {
    type Error = SearchError;

    /// The playouts run on the searcher's scratch board, not on a stack
    /// copy.
    fn scorer(&mut self) -> Scorer<'_> {
        Scorer {
            playouts: OWNERSHIP_PLAYOUTS,
            seed: SEED,
            scratch: self.search.scratch_board(),
        }
    }

    fn search<const M: usize, const S: usize>(
        &mut self,
        game: &Game<M, S>,
        clock: &TimeControl,
        c: Color,
        excluded: &[Point],
        ranked: &mut [Point; RANKED],
    ) -> Result<(Outcome, usize), SearchError> {
        let board = game.board();
        // With a clock and a time source, the clock's budget (capped by
        // `kosumi-playouts` if given); else the fixed playouts.
        let cap = if self.playouts_set {
            self.playouts
        } else {
            MAX_TIMED_PLAYOUTS
        };
        let budget = clock
            .search_budget(c.idx(), board.empty_count(), cap)
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
        let timer: &mut dyn Clock = match self.now_ms {
            Some(now) => {
                let start = now();
                elapsed = move || now().saturating_sub(start);
                &mut elapsed
            }
            None => &mut no_clock,
        };
        let r = self.search.run(
            board,
            game.komi2(),
            excluded,
            budget,
            Some(&mut self.table),
            tactics,
            timer,
            &mut |_| {},
        )?;
        let mut infos = [MoveInfo::EMPTY; 4];
        let n = self.search.root_moves(&mut infos);
        for (slot, info) in ranked.iter_mut().zip(&infos[..n]) {
            *slot = info.mv;
        }
        let outcome = Outcome {
            best: r.best,
            win_rate: r.win_rate,
            playouts: r.playouts,
        };
        Ok((outcome, n))
    }
}

impl gtp::Engine for Engine {
    fn version(&self) -> &'static str {
        env!("CARGO_PKG_VERSION")
    }

    /// Forget the search tree and start the next game's random stream,
    /// seeded by the games started and by the UART's idle polls.
    fn new_game(&mut self) {
        self.search.clear_tree();
        let game = self.games ^ (u64::from(self.entropy) << 32);
        self.search
            .set_seed(SEED ^ game.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        self.games += 1;
    }

    fn extra_commands(&self) -> &'static [&'static str] {
        EXTRA_COMMANDS
    }
}

/// Return the firmware's session: an empty board of [`SIZE`], komi 7.5, the
/// core's resignation rule at the firmware's search size, over `engine`. A
/// `const fn`, for a `static`.
pub const fn session(engine: Engine) -> Firmware {
    let Ok(board) = Board::new(SIZE) else {
        panic!("the board's size is supported")
    };
    let mut session = Session::new(Game::on_empty(board, 15), engine);
    session.resign = RESIGN;
    session
}

/// Resign below the host's 5%, after 500 playouts: the firmware's moves
/// are 700 (with the host's 2,000 it played lost games out, invading
/// until it had no stone left).
pub const RESIGN: ResignRule = ResignRule {
    min_playouts: 500,
    ..ResignRule::DEFAULT
};

/// The search parameters of the firmware: the core's defaults, but the
/// host's heavy playouts (the waterfall, then shapes next to the last move
/// and no self-atari: 1.27 times the instructions a playout, and against
/// GNU Go level 1 47.5% at 700 playouts where the waterfall won 30%,
/// BENCHMARKS.md), a node expanded only after 8 visits, so the small pool
/// holds a deeper tree instead of pruning every few playouts, and
/// tactical reads stopped at [`READ_DEPTH`] plies (the reader's journal
/// and stack are small here).
pub const PARAMS: Params = Params {
    expand_after: 8,
    policy: Policy::Heavy(Heavy::DEFAULT),
    reading: ReadBudget {
        nodes: 100,
        depth: READ_DEPTH,
    },
    ..Params::DEFAULT
};

/// Deepest tactical read at an expansion, in plies.
pub const READ_DEPTH: u8 = 8;
