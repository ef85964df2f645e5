//! The engine a heap-less embedding puts under its [`Session`]: the core's
//! MCTS over a node pool, a best-move table and a tactical reader with its
//! never-flushed cache, optionally a move-pattern model, last good
//! replies and an opening book, all in storage the caller gives (the
//! firmware's and the browser module's statics), a budget from the clock
//! or a playout count, and the core's scoring of the end of the game.
//!
//! The firmware (`embedded/`) and the WebAssembly module (`wasm/`) differ
//! only in what they pass: sizes, [`Setup`], a time source, a seed. Both
//! answer one command of their own through it, `kosumi-playouts`
//! ([`PoolEngine::command`]).
//!
//! [`PoolEngine::new`] is a `const fn`, so that a session over it can be a
//! `static` laid out at compile time; [`PoolEngine::reset`] sets up in
//! place an engine that starts as zero bytes (the firmware's: a session in
//! `.bss`, with no image in flash). The engine holds no reference that
//! cannot be absent ([`Lent`] storage), so zero bytes are a valid one.
//!
//! [`Session`]: super::Session

use crate::board::Board;
use crate::game::{Book, Game, Outcome, Player, Scorer, TimeControl, RANKED};
use crate::geometry::{Color, Point};
use crate::lent::Lent;
use crate::pattern::Patterns;
use crate::playout::ReplyMemory;
use crate::search::{
    BestMoveTable, Budget, Clock, Knowledge, MoveInfo, NoClock, Node, Params, PatternPrior, Pool,
    Search, SearchError, SearchResult,
};
use crate::table::BestMoveCluster;
use crate::tactics::{LadderReader, Solver};

use super::args::{count, exactly};
use super::Failure;
use super::Request;

/// The commands a [`PoolEngine`] answers itself.
pub const POOL_COMMANDS: &[&str] = &["kosumi-playouts"];

/// Root moves handed to the move choice as fall-backs for an illegal best
/// move (four: a small stack on the firmware).
const FALLBACKS: usize = 4;

/// Most playouts of a timed move unless `kosumi-playouts` says otherwise.
const MAX_TIMED_PLAYOUTS: u32 = 10_000_000;

/// What an embedding chooses of its engine.
#[derive(Clone, Copy, Debug)]
pub struct Setup {
    /// The embedding's version (`version`).
    pub version: &'static str,
    /// The search's parameters.
    pub params: Params,
    /// Playouts a move until `kosumi-playouts` sets them.
    pub playouts: u32,
    /// Playouts of the ownership estimate behind the pass decision,
    /// `final_score` and `final_status_list`.
    pub ownership_playouts: u32,
    /// The search's base seed (the browser's page replaces it,
    /// [`PoolEngine::set_seed`]).
    pub seed: u64,
}

/// The searcher over a pool of caller-given nodes.
pub type Tree<'a> = Search<Lent<'a, Node>>;
/// The best-move table over caller-given clusters.
pub type Table<'a> = BestMoveTable<Lent<'a, BestMoveCluster>>;

/// The search and its storage, under a GTP session.
pub struct PoolEngine<'a> {
    /// The embedding's version (none only in an engine of zero bytes not
    /// yet [`PoolEngine::reset`]).
    version: Option<&'static str>,
    /// Playouts a move without a clock; with one, the most a move may use
    /// once set by `kosumi-playouts`.
    playouts: u32,
    /// Whether `kosumi-playouts` set `playouts`.
    playouts_set: bool,
    ownership_playouts: u32,
    /// Milliseconds since some start (none: no time source, playouts
    /// only).
    now_ms: Option<fn() -> u64>,
    seed: u64,
    /// Games started, mixed into the search seed so that successive games
    /// differ.
    games: u64,
    /// Mixed into the next game's seed: the firmware's UART idle polls,
    /// so that games against a deterministic opponent in a fresh emulator
    /// still differ.
    pub entropy: u32,
    search: Tree<'a>,
    table: Table<'a>,
    /// The tactical reader whose cache the search's priors consult (none:
    /// no reading).
    tactics: Option<&'a mut dyn Solver>,
    /// The move-pattern model and the ladder reader of its features and of
    /// the playouts' ladder rules (none: the hand-made priors).
    patterns: Option<(&'a Patterns<'a>, Option<&'a mut dyn LadderReader>)>,
    /// Last good replies of the playouts, kept from move to move (none:
    /// not used).
    replies: Option<&'a mut dyn ReplyMemory>,
    /// The opening book `genmove` plays from before it searches (none: it
    /// always searches).
    book: Option<&'a Book<'a>>,
}

impl<'a> PoolEngine<'a> {
    /// Return the engine `setup` describes, searching over `nodes` (used
    /// as they are: pass empty ones) with a best-move table over
    /// `clusters` (a power of two of them). A `const fn`, for a `static`.
    ///
    /// # Panics
    /// With fewer than two nodes or clusters not a power of two: at
    /// compile time for a `static`.
    pub const fn new(
        setup: Setup,
        nodes: &'a mut [Node],
        clusters: &'a mut [BestMoveCluster],
    ) -> Self {
        let Some(search) = Search::over(nodes, setup.params) else {
            panic!("a pool of two or more nodes")
        };
        let Ok(table) = BestMoveTable::over(clusters) else {
            panic!("a power of two of clusters")
        };
        PoolEngine {
            version: Some(setup.version),
            playouts: setup.playouts,
            playouts_set: false,
            ownership_playouts: setup.ownership_playouts,
            now_ms: None,
            seed: setup.seed,
            games: 0,
            entropy: 0,
            search,
            table,
            tactics: None,
            patterns: None,
            replies: None,
            book: None,
        }
    }

    /// Make this the engine [`PoolEngine::new`] returns, in place, whatever
    /// it held: an engine in a `static` that starts as zero bytes (in
    /// `.bss`, with no image in a firmware's flash) is set up by this at
    /// run time, with no board-sized temporary on the stack.
    ///
    /// # Panics
    /// As [`PoolEngine::new`]: with fewer than two nodes or clusters not a
    /// power of two.
    pub fn reset(
        &mut self,
        setup: Setup,
        nodes: &'a mut [Node],
        clusters: &'a mut [BestMoveCluster],
    ) {
        let Some(pool) = Pool::over(nodes) else {
            panic!("a pool of two or more nodes")
        };
        let Ok(new_table) = BestMoveTable::over(clusters) else {
            panic!("a power of two of clusters")
        };
        // Every field by name: a field added to the engine must be set here.
        let PoolEngine {
            version,
            playouts,
            playouts_set,
            ownership_playouts,
            now_ms,
            seed,
            games,
            entropy,
            search,
            table,
            tactics,
            patterns,
            replies,
            book,
        } = self;
        *version = Some(setup.version);
        *playouts = setup.playouts;
        *playouts_set = false;
        *ownership_playouts = setup.ownership_playouts;
        *now_ms = None;
        *seed = setup.seed;
        *games = 0;
        *entropy = 0;
        search.reset(pool, setup.params);
        *table = new_table;
        *tactics = None;
        *patterns = None;
        *replies = None;
        *book = None;
    }

    /// Play `book`'s move, when it has the position and the move is
    /// legal, instead of searching (`genmove` only: analyses search).
    pub fn set_book(&mut self, book: &'a Book<'a>) {
        self.book = Some(book);
    }

    /// Time moves with `now_ms` (milliseconds since any fixed start) when
    /// the game has a clock; it is also read between the playouts of
    /// every search (the firmware feeds its watchdog there).
    pub fn set_clock(&mut self, now_ms: fn() -> u64) {
        self.now_ms = Some(now_ms);
    }

    /// Read tactics with `tactics` in the search's priors (its cache is
    /// kept for the life of the engine, never flushed).
    pub fn set_tactics(&mut self, tactics: &'a mut dyn Solver) {
        self.tactics = Some(tactics);
    }

    /// Rate moves with the move-pattern model `patterns` in the search's
    /// priors, its features and the playouts' ladder rules reading ladders
    /// on `ladder`, or with `None` on the tactical reader's journal
    /// ([`PoolEngine::set_tactics`]; the firmware has RAM for one).
    pub fn set_patterns(
        &mut self,
        patterns: &'a Patterns<'a>,
        ladder: Option<&'a mut dyn LadderReader>,
    ) {
        self.patterns = Some((patterns, ladder));
    }

    /// Play the heavy playouts with last good replies kept in `replies`
    /// (LGRF-2), as the host does.
    pub fn set_replies(&mut self, replies: &'a mut dyn ReplyMemory) {
        self.replies = Some(replies);
    }

    /// Start afresh from `seed`: forget the best-move table, the last good
    /// replies and the tree, count games from zero. Games from one seed are
    /// then the same.
    pub fn set_seed(&mut self, seed: u64) {
        self.seed = seed;
        self.games = 0;
        self.table.clear();
        if let Some(r) = &mut self.replies {
            r.forget();
        }
        super::Engine::new_game(self);
    }

    /// Set the playouts a move (with a clock: the most a move may use).
    ///
    /// # Errors
    /// [`Failure::Syntax`] for 0.
    pub fn set_playouts(&mut self, n: u32) -> Result<(), Failure> {
        if n == 0 {
            return Err(Failure::Syntax);
        }
        self.playouts = n;
        self.playouts_set = true;
        Ok(())
    }

    /// Answer `req` if it is one of [`POOL_COMMANDS`] (for
    /// [`Session::answer_line`]'s `extra`): `kosumi-playouts N` sets the
    /// playouts a move ([`PoolEngine::set_playouts`]); `None` for any other
    /// command.
    ///
    /// [`Session::answer_line`]: super::Session::answer_line
    pub fn command(&mut self, req: &Request<'_>) -> Option<Result<(), Failure>> {
        (req.name == "kosumi-playouts").then(|| {
            let [n] = exactly::<1>(&mut req.args())?;
            let n = count(n)?.ok_or(Failure::Syntax)?;
            self.set_playouts(u32::try_from(n).map_err(|_| Failure::Syntax)?)
        })
    }

    /// Return the searcher (root moves, principal variations).
    pub fn tree(&self) -> &Tree<'a> {
        &self.search
    }

    /// Return the searcher, its table and the tactical reader (for a
    /// benchmark).
    pub fn parts(&mut self) -> (&mut Tree<'a>, &mut Table<'a>, Option<&mut dyn Solver>) {
        let tactics = self.tactics.as_mut().map(|t| &mut **t as &mut dyn Solver);
        (&mut self.search, &mut self.table, tactics)
    }

    /// Search `board` (komi `komi2 / 2`, for its side to move) within
    /// `budget`, never choosing a move of `excluded`; the tree of the same
    /// position is kept, so calls in a row deepen one search.
    ///
    /// # Errors
    /// The core's, for a pool too small for the board.
    pub fn analyse(
        &mut self,
        board: &Board,
        komi2: i16,
        excluded: &[Point],
        budget: Budget,
    ) -> Result<SearchResult, SearchError> {
        // With a model, its prior weight for the board's size (as on the
        // host).
        if self.patterns.is_some() {
            let weight = Params::pattern_prior_for(board.size());
            if self.search.params().pattern_prior != weight {
                let mut params = *self.search.params();
                params.pattern_prior = weight;
                self.search.set_params(params);
            }
        }
        let knowledge = Knowledge {
            tactics: match &mut self.tactics {
                Some(t) => Some(&mut **t),
                None => None,
            },
            patterns: self
                .patterns
                .as_mut()
                .map(|(patterns, ladder)| PatternPrior {
                    patterns,
                    ladder: match ladder {
                        Some(l) => Some(&mut **l),
                        None => None,
                    },
                }),
            replies: match &mut self.replies {
                Some(r) => Some(&mut **r),
                None => None,
            },
            local: None,
            dragons: None,
        };
        // One `run` for both clocks, as a `dyn Clock`: a second instance
        // of the search would cost the firmware flash.
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
        self.search.run(
            board,
            komi2,
            excluded,
            budget,
            Some(&mut self.table),
            knowledge,
            timer,
            &mut |_| {},
        )
    }
}

impl Player for PoolEngine<'_> {
    type Error = SearchError;

    /// The playouts run on the searcher's scratch board, not on a stack
    /// copy.
    fn scorer(&mut self) -> Scorer<'_> {
        Scorer {
            playouts: self.ownership_playouts,
            seed: self.seed,
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
        if let Some(p) = self
            .book
            .and_then(|b| b.lookup(board))
            .filter(|&p| board.to_play() == c && !excluded.contains(&p) && game.check(c, p).is_ok())
        {
            // No playouts behind it: never a resignation.
            let outcome = Outcome {
                best: p,
                win_rate: 0.5,
                playouts: 0,
            };
            return Ok((outcome, 0));
        }
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
        let r = self.analyse(board, game.komi2(), excluded, budget)?;
        let mut infos = [MoveInfo::EMPTY; FALLBACKS];
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

impl super::Engine for PoolEngine<'_> {
    fn version(&self) -> &'static str {
        self.version.unwrap_or_default()
    }

    /// Forget the search tree (the best-move table stays: what it learnt
    /// serves the next game) and start the next game's random stream from
    /// the seed, the games started and the entropy.
    fn new_game(&mut self) {
        self.search.clear_tree();
        let game = self.games ^ (u64::from(self.entropy) << 32);
        self.search
            .set_seed(self.seed ^ game.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        self.games += 1;
    }

    fn extra_commands(&self) -> &'static [&'static str] {
        POOL_COMMANDS
    }
}
