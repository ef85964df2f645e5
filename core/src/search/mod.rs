//! Monte-Carlo tree search: UCT with RAVE, priors, playouts (the waterfall
//! by default; the host engine plays the heavy policy), a
//! fixed node pool that prunes when full, and Valkyria's best-move table with
//! iterative deepening (the `003_*` seed).
//!
//! # How to read this module
//!
//! | file | what it is |
//! |---|---|
//! | [`dynkomi`] | the komi the search plays with: handicap compensation and Pachi's ratchet |
//! | [`knowledge`] | the caller's reader and pattern model, lent for one search |
//! | [`node`] | the node pool: contiguous child blocks, bump allocation, pruning by sliding compaction |
//! | [`prior`] | cheap knowledge that seeds new children (captures, atari escapes, self-atari, lines, locality, the table's move), checked by the tactical reader |
//! | `uct` | one playout: descend by UCT-RAVE, expand, play out, back up wins and AMAF |
//! | [`score`] | the playouts' final margins under each root move (the analysis's score fields) |
//! | [`best_move_table`] | per position: 64-bit key, best move, log2 visits, log2 depth |
//! | [`deepening`] | iterations guided by the table; the seed's per-iteration report |
//! | [`time`] | budgets and the caller's clock |
//!
//! # Design
//!
//! * **Storage from the caller.** [`Search`] owns no memory it was not
//!   given: the node array (`[Node; N]` as a `static` on the firmware, a
//!   `Vec<Node>` sized by `--tree-mb` on the host) and, per call, the
//!   best-move table. Two boards, an AMAF map and a path live inside it
//!   (a few tens of KiB on 19x19).
//! * **Selection** (Pachi's `ucb1amaf`, no exploration term): a child's
//!   score is `beta * amaf + (1 - beta) * mean` with
//!   `beta = a / (a + n + a * n / RAVE_EQUIV)`, `n` real and `a` AMAF
//!   playouts. Priors are virtual AMAF playouts, so they fade as real
//!   playouts come in. No logarithm, no square root: the core has no `libm`.
//! * **Expansion** of a node after [`Params::expand_after`] visits (the
//!   root at once): every legal move that does not fill an own eye-like
//!   point, plus pass. The position's key is probed in the table; a hit
//!   gives its best move a gentle prior. With the caller's tactical reader
//!   ([`crate::tactics::Solver`]) the chains short of liberties near the
//!   last moves are read once per expansion ([`prior::read`], within
//!   [`Params::reading`]) and the priors follow the verdicts. With the
//!   caller's move-pattern model ([`Knowledge`], [`crate::pattern`]) the
//!   model's move probabilities replace the hand-made priors
//!   ([`prior::pattern_prior`]).
//! * **Widening** ([`Params::widening`], [`Params::max_children`]; both
//!   off by default): the children are ordered by their priors when they
//!   are made, selection chooses among the first few of them, more as the
//!   node's visits grow, and a node below the root may keep only its
//!   best-rated moves and pass, so a small pool holds a deeper tree and
//!   prunes less.
//! * **Full pool:** before a playout that might not find room for one more
//!   expansion, the tree's best moves go to the table, and the children of
//!   the least visited nodes are dropped (the visit threshold doubles until
//!   at most half of the pool is in use); the search goes on.
//! * **Value** of a playout: 1 won, 0 lost, 0.5 drawn, moved toward the
//!   score margin by [`Params::score_bonus`] (0 by default: wins only). A
//!   line of the tree that ends in two passes is played out from there
//!   ([`Params::dead_removed`]): the referee takes dead stones off before
//!   counting, and a playout is how the search tells which are dead, so a
//!   pass with own dead stones on the board is not valued as won.
//! * **Between moves** the subtree of the new position (found among the
//!   root's children and grandchildren by key) becomes the root.
//! * **Determinism:** one thread, a fixed seed ([`Search::set_seed`]) and a
//!   playouts-only [`Budget`] give the same moves and the same tree every
//!   time; the clock is only read for time budgets.
//!
//! Positional superko is the caller's: it passes the root moves that would
//! repeat a position as `excluded`; inside the tree only simple ko applies.

pub mod best_move_table;
pub mod deepening;
pub mod dragons;
pub mod dynkomi;
pub mod knowledge;
pub mod node;
pub mod prior;
pub mod score;
pub mod time;
mod uct;

pub use best_move_table::BestMoveTable;
pub use deepening::{DeepeningParams, IterationReport};
pub use dynkomi::DynamicKomi;
pub use knowledge::{Knowledge, PatternPrior};
pub use node::{Node, Pool};
pub use score::{RootScores, ScoreSum};
pub use time::{Budget, Clock, NoClock};

use crate::board::Board;
use crate::geometry::{Point, MAX_POINTS, MAX_SIZE};
use crate::lent::Lent;
use crate::playout::{Policy, RuleStats};
use crate::rng::{self, Rng};
use crate::table::BestMoveCluster;
pub use crate::tactics::Budget as ReadBudget;
use deepening::Deepening;

/// Longest path from the root the tree walk follows: a game of three moves
/// per point (the playout limit) cannot go deeper. Sized by the build's
/// largest board, so a 9x9 firmware does not pay for 19x19 paths.
pub const MAX_PATH: usize = 3 * MAX_SIZE * MAX_SIZE + 2;

/// Most moves a node can have: every point, and pass.
pub const MAX_MOVES: usize = MAX_SIZE * MAX_SIZE + 1;

/// Tuning constants of the search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// Real visits before a node other than the root is expanded (at least 1).
    pub expand_after: u32,
    /// RAVE equivalence: the real playouts at which AMAF and mean weigh the same.
    pub rave_equiv: f32,
    /// The playout policy.
    pub policy: Policy,
    /// Iterative deepening.
    pub deepening: DeepeningParams,
    /// Nodes with fewer visits are not written to the best-move table.
    pub store_min_visits: u32,
    /// Write the tree's best moves to the best-move table at the end of
    /// every search, as priors for the searches after it (and for a book).
    /// Off, the table holds what the pool dropped when it was full (the
    /// seed's use: it guides the re-expansion of pruned positions). The
    /// host turns it off unless it keeps a book: against Pachi at 1
    /// CPU-second its searches played better without the stored moves
    /// (BENCHMARKS.md).
    pub store_searches: bool,
    /// The budget of each tactical read at an expansion (0 nodes: no
    /// reading even with a reader).
    pub reading: ReadBudget,
    /// Prior bonus of a move matching a 3x3 shape pattern, in virtual
    /// playouts all won ([`crate::shape`]; 0: no patterns).
    pub shape_prior: f32,
    /// Weight of the score margin in a playout's value (0: wins only; see
    /// Fuego's score modification).
    pub score_bonus: f32,
    /// The rules remove dead stones before counting (GNU Go's referee, the
    /// GUIs, KGS): a line of the tree that ends in two passes is played
    /// out from its position, not counted as it stands. Off: Tromp-Taylor,
    /// every stone on the board counts.
    pub dead_removed: bool,
    /// With a move-pattern model: virtual wins of a move the model gives
    /// probability `p` are `pattern_prior * sqrt(p)` (Pachi's pattern
    /// prior; 0: the model is not used). The default is 9x9's; see
    /// [`Params::pattern_prior_for`].
    pub pattern_prior: f32,
    /// Progressive widening: how many of a node's children (ordered by
    /// their priors when it is expanded) selection may choose from.
    pub widening: Widening,
    /// Most children a node other than the root gets when it is expanded:
    /// its best-rated moves, and pass (0: every move). A small pool holds
    /// a deeper tree with fewer.
    pub max_children: u16,
}

/// Progressive widening (Coulom's and Chaslot's): a node's children are
/// ordered by their priors when it is expanded, and selection looks only
/// at the first `base` of them, one more each time the node's visits pass
/// `start`, then `start` times 1.4, 1.96, ... (CrazyStone's schedule). A
/// node with little search behind it tries its best-rated moves only; the
/// rest join as its visits grow. Selection also scans fewer children, which
/// matters on a core without a floating-point unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Widening {
    /// Children a node may choose from at first (0: no widening, every
    /// child always).
    pub base: u16,
    /// Visits at which the first child joins them.
    pub start: u32,
}

impl Widening {
    /// No widening: every child may be chosen from the first visit.
    pub const OFF: Widening = Widening { base: 0, start: 0 };

    /// Return how many of `children` children a node of `visits` visits
    /// may choose from.
    #[inline]
    pub fn open(self, visits: u32, children: usize) -> usize {
        if self.base == 0 {
            return children;
        }
        let mut open = usize::from(self.base);
        // Thresholds grow by 1.4 in integers: t + 2t/5, at least one more.
        let mut threshold = self.start.max(1);
        while threshold <= visits && open < children {
            open += 1;
            threshold = threshold.saturating_add(threshold / 5 * 2 + 1);
        }
        open.min(children)
    }
}

impl Params {
    /// The defaults, usable in a `const` context.
    pub const DEFAULT: Params = Params {
        expand_after: 2,
        rave_equiv: 3000.0,
        policy: Policy::waterfall(),
        deepening: DeepeningParams::DEFAULT,
        store_min_visits: 32,
        store_searches: true,
        reading: ReadBudget {
            nodes: 50,
            depth: 24,
        },
        shape_prior: 10.0,
        score_bonus: 0.0,
        pattern_prior: 200.0,
        dead_removed: true,
        widening: Widening::OFF,
        max_children: 0,
    };
}

impl Default for Params {
    fn default() -> Self {
        Params::DEFAULT
    }
}

impl Params {
    /// Return the pattern prior weight for a `size` board: the model's
    /// probabilities spread over more moves on a larger board, and 19x19
    /// searches drifted to the second line from the empty board below a
    /// weight of about 1,000 (`bench search --size 19`, 10,000 playouts).
    pub const fn pattern_prior_for(size: usize) -> f32 {
        if size <= 9 {
            Params::DEFAULT.pattern_prior
        } else if size <= 13 {
            500.0
        } else {
            1000.0
        }
    }
}

/// Why a search could not run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchError {
    /// The node pool cannot hold three full expansions on this board.
    PoolTooSmall {
        /// Nodes needed at least.
        needed: usize,
    },
}

impl core::fmt::Display for SearchError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            SearchError::PoolTooSmall { needed } => {
                write!(f, "node pool too small: at least {needed} nodes needed")
            }
        }
    }
}

/// What a search found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchResult {
    /// The most visited root move (never an excluded one).
    pub best: Point,
    /// Its win rate for the side to move.
    pub win_rate: f32,
    /// Its visits.
    pub visits: u32,
    /// Playouts run by this search.
    pub playouts: u32,
    /// Visits the root had before this search (reused tree).
    pub reused: u32,
    /// Nodes in the pool at the end.
    pub nodes: usize,
    /// Iterations (1 without deepening).
    pub iterations: u32,
    /// Table hits and misses of all expansions.
    pub hits: u32,
    /// See `hits`.
    pub misses: u32,
    /// Times the full pool was pruned.
    pub prunes: u32,
    /// Deepest tree path walked.
    pub max_depth: u32,
}

/// Statistics of one root move, for analysis output.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveInfo {
    /// The move.
    pub mv: Point,
    /// Real playouts through it.
    pub visits: u32,
    /// Its win rate for the side to move at the root.
    pub win_rate: f32,
    /// Its AMAF value (priors included).
    pub amaf: f32,
    /// Its index in the pool (for [`Search::pv`]).
    pub node: u32,
    /// The final margins of its playouts, in points for the side to move
    /// at the root ([`score`]: this search's, since the root last changed).
    pub score: ScoreSum,
}

impl MoveInfo {
    /// A blank entry, to fill arrays that [`Search::root_moves`] writes.
    pub const EMPTY: MoveInfo = MoveInfo {
        mv: Point::PASS,
        visits: 0,
        win_rate: 0.0,
        amaf: 0.0,
        node: 0,
        score: ScoreSum::EMPTY,
    };
}

/// A Monte-Carlo tree search over node storage `P`.
pub struct Search<P> {
    pool: Pool<P>,
    params: Params,
    root: Board,
    board: Board,
    komi2: i16,
    rng: Rng,
    stats: RuleStats,
    amaf: [u32; MAX_POINTS],
    scores: RootScores,
    path: [u32; MAX_PATH],
    excluded: [u16; MAX_MOVES],
    n_excluded: usize,
    deepening: Deepening,
    counters: Counters,
}

/// Counters of one [`Search::run`].
#[derive(Clone, Copy, Debug, Default)]
struct Counters {
    hits: u32,
    misses: u32,
    prunes: u32,
    max_depth: u32,
}

impl Counters {
    const ZERO: Counters = Counters {
        hits: 0,
        misses: 0,
        prunes: 0,
        max_depth: 0,
    };
}

impl<P> Search<P> {
    /// Return a search over `pool`, seeded with 1 (a `const fn`).
    const fn with_pool(pool: Pool<P>, params: Params) -> Self {
        const fn largest() -> Board {
            match Board::new(MAX_SIZE) {
                Ok(b) => b,
                Err(_) => panic!("the largest size is supported"),
            }
        }
        Search {
            pool,
            params,
            root: largest(),
            board: largest(),
            komi2: 0,
            rng: rng::seeded(1),
            stats: RuleStats::ZERO,
            amaf: [0; MAX_POINTS],
            scores: RootScores::EMPTY,
            path: [0; MAX_PATH],
            excluded: [0; MAX_MOVES],
            n_excluded: 0,
            deepening: Deepening::IDLE,
            counters: Counters::ZERO,
        }
    }
}

impl<'a> Search<Lent<'a, Node>> {
    /// Return a search over the borrowed nodes, seeded with 1, built at
    /// compile time if wanted (the browser module's `static` searcher over
    /// its `static` pool: nothing is built on the stack).
    ///
    /// The nodes are used as they are (see [`Pool::over`]): pass
    /// [`Node::EMPTY`]s or call [`Search::clear_tree`] before searching.
    /// Returns `None` if `nodes` holds fewer than two nodes.
    pub const fn over(nodes: &'a mut [Node], params: Params) -> Option<Self> {
        match Pool::over(nodes) {
            Some(pool) => Some(Search::with_pool(pool, params)),
            None => None,
        }
    }
}

impl<P: AsRef<[Node]> + AsMut<[Node]>> Search<P> {
    /// Return a search over the node storage `nodes`, seeded with 1.
    ///
    /// Returns `None` if `nodes` holds fewer than two nodes.
    pub fn new(nodes: P, params: Params) -> Option<Self> {
        Some(Search::with_pool(Pool::new(nodes)?, params))
    }

    /// Make this the search over `pool` (its nodes used as they are, as
    /// [`Search::over`] uses them) with `params`, in place: a search in a
    /// `static` that starts as zero bytes (in `.bss`, with no image in a
    /// firmware's flash) is set up by this at run time, with no
    /// board-sized temporary on the stack.
    pub fn reset(&mut self, pool: Pool<P>, params: Params) {
        // Every field by name: a field added to `Search` must be set here.
        let Search {
            pool: own_pool,
            params: own_params,
            root,
            board,
            komi2,
            rng: own_rng,
            stats,
            amaf,
            scores,
            path,
            excluded,
            n_excluded,
            deepening,
            counters,
        } = self;
        *own_pool = pool;
        *own_params = params;
        // The largest size is supported: these resets succeed.
        let _ = root.reset(MAX_SIZE);
        let _ = board.reset(MAX_SIZE);
        *komi2 = 0;
        *own_rng = rng::seeded(1);
        *stats = RuleStats::ZERO;
        amaf.fill(0);
        scores.clear(MAX_POINTS);
        path.fill(0);
        excluded.fill(0);
        *n_excluded = 0;
        *deepening = Deepening::IDLE;
        *counters = Counters::ZERO;
    }

    /// Reseed the random generator (searches are deterministic per seed).
    pub fn set_seed(&mut self, seed: u64) {
        self.rng = rng::seeded(seed);
    }

    /// Return the parameters.
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// Change the parameters (the tree is kept).
    pub fn set_params(&mut self, params: Params) {
        self.params = params;
    }

    /// Return the key of the position the tree is rooted at (0: none yet),
    /// so a caller can tell whether the tree is of the position it shows.
    pub fn root_key(&self) -> u64 {
        self.pool.nodes()[0].key
    }

    /// Return the final margins of the playouts from the root, in points
    /// for its side to move (this search's, since the root last changed).
    pub fn root_score(&self) -> ScoreSum {
        self.scores.root()
    }

    /// Drop the tree.
    pub fn clear_tree(&mut self) {
        self.pool.clear();
        self.scores.clear(MAX_POINTS);
    }

    /// Return the node pool.
    pub fn pool(&self) -> &Pool<P> {
        &self.pool
    }

    /// Return the board the search plays its playouts on, as scratch for the
    /// caller between searches (every playout starts by overwriting it): a
    /// firmware saves a stack board this way.
    pub fn scratch_board(&mut self) -> &mut Board {
        &mut self.board
    }

    /// Return the playout rule statistics so far.
    pub fn rule_stats(&self) -> &RuleStats {
        &self.stats
    }

    /// Return the smallest pool that can search a `size` x `size` board.
    pub const fn min_nodes(size: usize) -> usize {
        4 * (size * size + 2)
    }

    /// Search `board` (komi `komi2 / 2`) within `budget` and return the best
    /// move, never one of `excluded` (the caller's superko-illegal moves).
    ///
    /// The table, if any, guides expansions and receives the tree's best
    /// moves; the caller's `knowledge` (a tactical reader, a move-pattern
    /// model, both optional) sets the priors of every expansion
    /// ([`prior::read`], [`prior::pattern_prior`]); `on_iteration` hears
    /// of every finished iteration.
    ///
    /// # Errors
    /// [`SearchError::PoolTooSmall`] for a pool that cannot hold three full
    /// expansions of this board.
    #[allow(
        clippy::too_many_arguments,
        reason = "position, rules, budget and the caller's storage, clock and log: each is needed"
    )]
    pub fn run<T, C>(
        &mut self,
        board: &Board,
        komi2: i16,
        excluded: &[Point],
        budget: Budget,
        mut table: Option<&mut BestMoveTable<T>>,
        mut knowledge: Knowledge<'_>,
        clock: &mut C,
        on_iteration: &mut dyn FnMut(&IterationReport),
    ) -> Result<SearchResult, SearchError>
    where
        T: AsRef<[BestMoveCluster]> + AsMut<[BestMoveCluster]>,
        C: Clock + ?Sized,
    {
        let needed = Self::min_nodes(board.size());
        if self.pool.capacity() < needed {
            return Err(SearchError::PoolTooSmall { needed });
        }
        self.n_excluded = 0;
        for &p in excluded.iter().take(MAX_MOVES) {
            self.excluded[self.n_excluded] = p.0;
            self.n_excluded += 1;
        }
        self.reuse_tree(board, komi2);
        self.root.copy_from(board);
        self.komi2 = komi2;
        self.counters = Counters::default();
        self.deepening = Deepening::start(&self.params.deepening);
        if let Some(t) = table.as_deref_mut() {
            t.new_search();
        }
        let reused = self.pool.nodes()[0].visits;
        let mut done = 0u32;
        while done < budget.playouts {
            if done.is_multiple_of(time::CLOCK_EVERY)
                && done > 0
                && self.should_stop(done, &budget, clock)
            {
                break;
            }
            self.make_room(table.as_deref_mut());
            self.playout(table.as_deref_mut(), knowledge.reborrow());
            done += 1;
            if self.deepening.playout(&self.params.deepening) {
                if self.params.deepening.drop_tree {
                    self.end_iteration(done, table.as_deref_mut(), on_iteration);
                    self.pool.retain(0, u32::MAX);
                } else {
                    // The tree goes on: report, and leave the table to the
                    // search's end (or a full pool), so the search is the
                    // one a single iteration makes.
                    self.end_iteration::<T>(done, None, on_iteration);
                }
                self.deepening.next();
            }
        }
        if self.deepening.playouts > 0 || self.deepening.iteration == 0 {
            let table = table.filter(|_| self.params.store_searches);
            self.end_iteration(done, table, on_iteration);
        }
        let best = self.best_child();
        let (mv, win_rate, visits) = match best {
            Some(i) => {
                let n = &self.pool.nodes()[i];
                (Point(n.mv), n.win_rate(), n.visits)
            }
            None => (Point::PASS, 0.5, 0),
        };
        Ok(SearchResult {
            best: mv,
            win_rate,
            visits,
            playouts: done,
            reused,
            nodes: self.pool.len(),
            iterations: self.deepening.iteration + 1,
            hits: self.counters.hits,
            misses: self.counters.misses,
            prunes: self.counters.prunes,
            max_depth: self.counters.max_depth,
        })
    }

    /// Report the iteration that ends and write the tree's best moves to the table.
    fn end_iteration<T>(
        &mut self,
        total: u32,
        table: Option<&mut BestMoveTable<T>>,
        on_iteration: &mut dyn FnMut(&IterationReport),
    ) where
        T: AsRef<[BestMoveCluster]> + AsMut<[BestMoveCluster]>,
    {
        if let Some(t) = table {
            self.store_tree(t);
        }
        let (best, win_rate, visits) = match self.best_child() {
            Some(i) => {
                let n = &self.pool.nodes()[i];
                (Point(n.mv), n.win_rate(), n.visits)
            }
            None => (Point::PASS, 0.5, 0),
        };
        on_iteration(&IterationReport {
            iteration: self.deepening.iteration,
            best,
            win_rate,
            visits,
            hits: self.deepening.hits,
            misses: self.deepening.misses,
            playouts: self.deepening.playouts,
            total_playouts: total,
        });
    }

    /// Query whether the clock or the early-stop rule ends the search after `done` playouts.
    fn should_stop<C: Clock + ?Sized>(
        &mut self,
        done: u32,
        budget: &Budget,
        clock: &mut C,
    ) -> bool {
        let mut left = budget.playouts - done;
        // Read whatever the budget: the caller's hook between playouts,
        // and its stop.
        let now = clock.elapsed_ms();
        if clock.interrupted() {
            return true;
        }
        if let Some(limit) = budget.time_ms {
            if now >= limit {
                return true;
            }
            if now > 0 {
                let rate = f64::from(done) / now as f64;
                let by_time = ((limit - now) as f64 * rate) as u32;
                left = left.min(by_time);
            }
        }
        if !budget.early_stop {
            return false;
        }
        let (mut first, mut second) = (0u32, 0u32);
        for i in self.pool.nodes()[0].children() {
            let v = self.pool.nodes()[i].visits;
            if v > first {
                second = first;
                first = v;
            } else if v > second {
                second = v;
            }
        }
        first > second + left
    }

    /// Return the pool index of the most visited root child that is not excluded.
    fn best_child(&self) -> Option<usize> {
        let nodes = self.pool.nodes();
        let mut best: Option<usize> = None;
        for i in nodes[0].children() {
            let n = &nodes[i];
            if self.is_excluded(n.mv) {
                continue;
            }
            let better = match best {
                None => true,
                Some(b) => {
                    let o = &nodes[b];
                    n.visits > o.visits || (n.visits == o.visits && n.win_rate() > o.win_rate())
                }
            };
            if better {
                best = Some(i);
            }
        }
        best
    }

    #[inline]
    fn is_excluded(&self, mv: u16) -> bool {
        self.excluded[..self.n_excluded].contains(&mv)
    }

    /// Keep the subtree of `board` from the last search if there is one.
    fn reuse_tree(&mut self, board: &Board, komi2: i16) {
        let key = board.hash();
        let nodes = self.pool.nodes();
        if komi2 != self.komi2 || board.size() != self.root.size() || !nodes[0].is_expanded() {
            self.pool.clear();
            self.scores.clear(MAX_POINTS);
            return;
        }
        if nodes[0].key == key {
            return;
        }
        self.scores.clear(MAX_POINTS);
        let mut found = None;
        'outer: for c in nodes[0].children() {
            if nodes[c].is_expanded() && nodes[c].key == key {
                found = Some(c);
                break;
            }
            for g in nodes[c].children() {
                if nodes[g].is_expanded() && nodes[g].key == key {
                    found = Some(g);
                    break 'outer;
                }
            }
        }
        match found {
            Some(i) => {
                self.pool.retain(i as u32, 0);
            }
            None => self.pool.clear(),
        }
    }

    /// Write the best move of every well-visited expanded node to `table`.
    fn store_tree<T>(&mut self, table: &mut BestMoveTable<T>)
    where
        T: AsRef<[BestMoveCluster]> + AsMut<[BestMoveCluster]>,
    {
        self.pool.compute_heights();
        let min = self.params.store_min_visits;
        let nodes = self.pool.nodes();
        for (i, n) in nodes.iter().enumerate() {
            if !n.is_expanded() || n.visits < min {
                continue;
            }
            let mut best = n.first_child as usize;
            for c in n.children() {
                if nodes[c].visits > nodes[best].visits {
                    best = c;
                }
            }
            if nodes[best].visits > 0 {
                table.put(
                    n.key,
                    Point(nodes[best].mv),
                    nodes[best].visits,
                    self.pool.height(i),
                );
            }
        }
    }

    /// Prune the tree if the next playout might not find room for an expansion.
    fn make_room<T>(&mut self, table: Option<&mut BestMoveTable<T>>)
    where
        T: AsRef<[BestMoveCluster]> + AsMut<[BestMoveCluster]>,
    {
        let need = self.root.size() * self.root.size() + 2;
        let cap = self.pool.capacity();
        if cap - self.pool.len() >= need {
            return;
        }
        if let Some(t) = table {
            self.store_tree(t);
        }
        let mut threshold = self.params.expand_after.max(1) * 2;
        while threshold < u32::MAX / 2 && self.pool.count_retained(0, threshold) > cap / 2 {
            threshold *= 2;
        }
        self.pool.retain(0, threshold);
        if cap - self.pool.len() < need {
            self.pool.retain(0, u32::MAX);
        }
        self.counters.prunes += 1;
    }

    /// Write the statistics of the root's moves into `out`, most visited
    /// first; return how many were written.
    pub fn root_moves(&self, out: &mut [MoveInfo]) -> usize {
        let nodes = self.pool.nodes();
        let mut n = 0;
        for i in nodes[0].children() {
            let c = &nodes[i];
            if c.visits == 0 || self.is_excluded(c.mv) {
                continue;
            }
            let info = MoveInfo {
                mv: Point(c.mv),
                visits: c.visits,
                win_rate: c.win_rate(),
                amaf: if c.amaf_visits > 0.0 {
                    c.amaf_wins / c.amaf_visits
                } else {
                    0.5
                },
                node: i as u32,
                score: self.scores.of(Point(c.mv)),
            };
            // Insertion into the sorted prefix.
            let mut k = n.min(out.len());
            if k == out.len() {
                if k == 0 || out[k - 1].visits >= info.visits {
                    continue;
                }
                k -= 1;
            } else {
                n += 1;
            }
            while k > 0 && out[k - 1].visits < info.visits {
                out[k] = out[k - 1];
                k -= 1;
            }
            out[k] = info;
        }
        n
    }

    /// Write the principal variation starting with the pool node `node`
    /// (most visited child at each step) into `out`; return its length.
    pub fn pv(&self, node: u32, out: &mut [Point]) -> usize {
        let mut n = 0;
        self.walk_pv(node, |node| {
            if n == out.len() {
                return false;
            }
            out[n] = Point(node.mv);
            n += 1;
            true
        });
        n
    }

    /// Write the visits of the nodes of [`Search::pv`]'s line from `node`
    /// into `out` (KataGo's `pvVisits`); return how many.
    pub fn pv_visits(&self, node: u32, out: &mut [u32]) -> usize {
        let mut n = 0;
        self.walk_pv(node, |node| {
            if n == out.len() {
                return false;
            }
            out[n] = node.visits;
            n += 1;
            true
        });
        n
    }

    /// Walk the principal variation from `node` (each time the most
    /// visited child) while `each` says go on.
    fn walk_pv(&self, node: u32, mut each: impl FnMut(&Node) -> bool) {
        let nodes = self.pool.nodes();
        let mut i = node as usize;
        while i < nodes.len() && each(&nodes[i]) {
            let mut best: Option<usize> = None;
            for c in nodes[i].children() {
                if nodes[c].visits > 0 && best.is_none_or(|b| nodes[c].visits > nodes[b].visits) {
                    best = Some(c);
                }
            }
            match best {
                Some(b) => i = b,
                None => break,
            }
        }
    }

    /// Return the win rate of the side to move at the root over all playouts.
    pub fn root_win_rate(&self) -> f32 {
        let r = &self.pool.nodes()[0];
        if r.visits == 0 {
            0.5
        } else {
            1.0 - r.wins / r.visits as f32
        }
    }
}
