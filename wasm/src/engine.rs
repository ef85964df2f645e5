//! The browser's engine under the core's GTP session, shaped as the
//! firmware's (`embedded/src/engine.rs`): the core's MCTS over a node
//! pool, a best-move table and a tactical reader with its cache, all in
//! statics sized at compile time, a playout budget a move, and the core's
//! scoring of the end of the game. The game, its record, undo, superko,
//! the move choice with its fall-backs, resignation and every standard
//! command are the core's ([`kosumi_core::gtp::Session`]).
//!
//! The difference from the firmware is the size: a 19x19 build with tens
//! of MB of tree, and the seed comes from the page (JavaScript passes one),
//! since a WebAssembly module has no entropy of its own.

use kosumi_core::board::Board;
use kosumi_core::game::{Game, Outcome, Player, Scorer, TimeControl, RANKED};
use kosumi_core::geometry::{Color, Point};
use kosumi_core::gtp::{self, Session};
use kosumi_core::playout::{Heavy, Policy};
use kosumi_core::search::{
    BestMoveTable, Budget, Knowledge, MoveInfo, NoClock, Node, Params, Search, SearchError,
    SearchResult,
};
use kosumi_core::table::BestMoveCluster;
use kosumi_core::tactics::Solver;

/// Moves a game may hold (three times the points of 19x19).
pub const MAX_MOVES: usize = 3 * 361;

/// Setup stones a game may hold (the core's session places no handicap).
pub const SETUP: usize = 0;

/// The board size at start-up (`boardsize` changes it).
pub const SIZE: usize = 19;

/// The page's GTP session.
pub type Web = Session<Engine, MAX_MOVES, SETUP>;

/// Playouts of the ownership estimate behind the pass decision,
/// `final_score`, `final_status_list` and the analysis's ownership map:
/// the host's 400.
pub const OWNERSHIP_PLAYOUTS: u32 = 400;

/// The playouts a move until the page sets its own: about half a second
/// of 9x9 in Chromium, two seconds of 19x19 (BENCHMARKS.md).
pub const PLAYOUTS: u32 = 10_000;

/// The commands the page's engine answers itself.
pub const EXTRA_COMMANDS: &[&str] = &["kosumi-playouts"];

/// The searcher over a static node pool.
pub type Tree = Search<&'static mut [Node]>;
/// The best-move table over a static array of clusters.
pub type Table = BestMoveTable<&'static mut [BestMoveCluster]>;

/// The search and its storage.
pub struct Engine {
    /// Playouts a move.
    playouts: u32,
    /// The page's seed, mixed with the games started.
    seed: u64,
    /// Games started, mixed into the search seed so that successive games
    /// differ.
    games: u64,
    search: Tree,
    table: Table,
    /// The tactical reader whose never-flushed cache the search's priors
    /// consult (none until attached).
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
            seed: 0,
            games: 0,
            search,
            table,
            tactics: None,
        }
    }

    /// Read tactics with `tactics` in the search's priors.
    pub fn set_tactics(&mut self, tactics: &'static mut dyn Solver) {
        self.tactics = Some(tactics);
    }

    /// Seed the next games with `seed` and forget the tree.
    pub fn set_seed(&mut self, seed: u64) {
        self.seed = seed;
        self.games = 0;
        gtp::Engine::new_game(self);
    }

    /// Set the playouts a move.
    ///
    /// # Errors
    /// [`gtp::Failure::Syntax`] for 0.
    pub fn set_playouts(&mut self, n: u32) -> Result<(), gtp::Failure> {
        if n == 0 {
            return Err(gtp::Failure::Syntax);
        }
        self.playouts = n;
        Ok(())
    }

    /// `kosumi-playouts N`: the playouts a move.
    ///
    /// # Errors
    /// [`gtp::Failure::Syntax`] unless one positive number below 2^32.
    pub fn playouts_command(&mut self, args: &mut gtp::args::Args<'_>) -> Result<(), gtp::Failure> {
        let [n] = gtp::args::exactly::<1>(args)?;
        let n = gtp::args::count(n)?.ok_or(gtp::Failure::Syntax)?;
        self.set_playouts(u32::try_from(n).map_err(|_| gtp::Failure::Syntax)?)
    }

    /// Search `board` (komi `komi2 / 2`, for its side to move) with
    /// `playouts` more playouts (the tree of the same position is kept, so
    /// calls in a row deepen one search).
    ///
    /// # Errors
    /// The core's, for a pool too small for the board.
    pub fn analyse(
        &mut self,
        board: &Board,
        komi2: i16,
        playouts: u32,
    ) -> Result<SearchResult, SearchError> {
        let tactics = Knowledge::tactics(match &mut self.tactics {
            Some(t) => Some(&mut **t),
            None => None,
        });
        self.search.run(
            board,
            komi2,
            &[],
            Budget::playouts(playouts),
            Some(&mut self.table),
            tactics,
            &mut NoClock,
            &mut |_| {},
        )
    }

    /// Return the searcher (root moves and principal variations).
    pub fn tree(&self) -> &Tree {
        &self.search
    }
}

impl Player for Engine {
    type Error = SearchError;

    /// The playouts run on the searcher's scratch board.
    fn scorer(&mut self) -> Scorer<'_> {
        Scorer {
            playouts: OWNERSHIP_PLAYOUTS,
            seed: self.seed,
            scratch: self.search.scratch_board(),
        }
    }

    fn search<const M: usize, const S: usize>(
        &mut self,
        game: &Game<M, S>,
        _clock: &TimeControl,
        _c: Color,
        excluded: &[Point],
        ranked: &mut [Point; RANKED],
    ) -> Result<(Outcome, usize), SearchError> {
        let tactics = Knowledge::tactics(match &mut self.tactics {
            Some(t) => Some(&mut **t),
            None => None,
        });
        let r = self.search.run(
            game.board(),
            game.komi2(),
            excluded,
            Budget::playouts(self.playouts),
            Some(&mut self.table),
            tactics,
            &mut NoClock,
            &mut |_| {},
        )?;
        let mut infos = [MoveInfo::EMPTY; RANKED];
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

    /// Forget the search tree and the best-move table (so that a game
    /// from a seed replays the same) and start the next game's random
    /// stream from the page's seed and the games started.
    fn new_game(&mut self) {
        self.search.clear_tree();
        self.table.clear();
        self.search
            .set_seed(self.seed ^ self.games.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        self.games += 1;
    }

    fn extra_commands(&self) -> &'static [&'static str] {
        EXTRA_COMMANDS
    }
}

/// Return the page's session: an empty board of [`SIZE`], komi 7.5, the
/// core's resignation rule, over `engine`. A `const fn`, for a `static`.
pub const fn session(engine: Engine) -> Web {
    let Ok(board) = Board::new(SIZE) else {
        panic!("the board's size is supported")
    };
    Session::new(Game::on_empty(board, 15), engine)
}

/// The search parameters: the core's defaults with the host's heavy
/// playouts (no move-pattern model: the host's is 4.9 MB, and its index
/// tens of MB more).
pub const PARAMS: Params = Params {
    policy: Policy::Heavy(Heavy::DEFAULT),
    ..Params::DEFAULT
};
