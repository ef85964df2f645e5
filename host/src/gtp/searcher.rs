//! The searcher service: the core's [`Search`] with storage the host
//! allocates once (`--tree-mb` of nodes, `--hash-mb` of best-move table),
//! a wall clock, the seed, and the table's generation between searches.
//!
//! The best-move table lives in a plain `Vec` of clusters that the host
//! owns, so a book can be written from it and read into it; each search
//! wraps it in a [`BestMoveTable`] for the duration of the call. The
//! tactical cache is the caller's (the engine's one global table); each
//! search reads through it with a reader made for the call, and before
//! it asks the owl about the root's weak dragons
//! ([`kosumi_core::search::dragons`]) when [`Searcher::dragons`] says so.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

use kosumi_core::board::Board;
use kosumi_core::geometry::{Color, Geometry, Point};
use kosumi_core::pattern::Patterns;
use kosumi_core::playout::{LocalAnswers, Replies, ReplyMemory};
use kosumi_core::search::dragons::{read_dragons, DragonReading};
use kosumi_core::search::{
    BestMoveTable, Budget, Clock, IterationReport, Knowledge, Node, Params, PatternPrior, Search,
    SearchResult,
};
use kosumi_core::table::{clusters_in, BestMoveCluster, Cluster};
use kosumi_core::tactics::{self, Ladder, Owl, Reader, Solver, OWL_BUDGET};

use super::tactics::TacticTable;

/// Bytes in a MiB.
const MIB: usize = 1 << 20;

/// The largest best-move table, in MiB (`--hash-mb`, a book's header).
pub const MAX_TABLE_MB: usize = 4096;

/// A search's progress as text: the board's geometry, the side to move,
/// the best move so far, its win rate and visits.
pub type LiveReport = fn(Geometry, Color, Point, f32, u32) -> String;

/// A search with its storage, table and options.
pub struct Searcher {
    /// The core search over a node vector.
    pub search: Search<Vec<Node>>,
    /// The best-move table's clusters (a power of two).
    pub table: Vec<BestMoveCluster>,
    /// The table's generation, carried from search to search.
    pub generation: u8,
    /// Use the table (off: the same engine without it).
    pub use_table: bool,
    /// Scratch of the pattern model's ladder features.
    ladder: Box<Ladder>,
    /// Last good replies of the playouts (`None`: not used).
    pub replies: Option<Box<Replies<Vec<u16>>>>,
    /// Learned answers to the last move in the playouts (`None`: the
    /// hand-made shapes).
    pub local: Option<&'static LocalAnswers<'static>>,
    /// Input lines waiting (`analyze`'s input thread): a search with a time
    /// budget stops as soon as the count is above zero (the core reads the
    /// clock only under a time budget, so analyses and ponders give one);
    /// `None`: runs its budget.
    pub stop: Option<Arc<AtomicUsize>>,
    /// What writes a deepening iteration's progress to stderr (GoGui's
    /// live graphics, when the `gogui_gfx` option is on), if anything.
    pub live_gfx: Option<LiveReport>,
    /// The owl at the root: most dragons asked (0: none) and the budget
    /// of each question, in the owl's moves.
    pub dragons: (usize, u32),
    /// The owl's storage (made on first use).
    owl: Option<Box<Owl>>,
    /// What the owl said at the last search's root.
    pub last_dragons: Option<DragonReading>,
}

/// Return `mb` MiB of empty best-move clusters (a power of two, at least one).
///
/// # Errors
/// A message when `mb` is over [`MAX_TABLE_MB`] or cannot be allocated.
pub fn table_storage(mb: usize) -> Result<Vec<BestMoveCluster>, String> {
    if mb > MAX_TABLE_MB {
        return Err(format!("--hash-mb {mb}: at most {MAX_TABLE_MB}"));
    }
    let n = clusters_in::<BestMoveCluster>(mb.saturating_mul(MIB)).max(1);
    crate::memory::filled(n, BestMoveCluster::EMPTY, "best-move table")
}

impl Searcher {
    /// Return a searcher with `tree_mb` MiB of nodes and `hash_mb` MiB of table.
    ///
    /// # Errors
    /// A message if the node pool would be too small for a 19x19 board, or
    /// the tree or the table cannot be allocated.
    pub fn new(tree_mb: usize, hash_mb: usize, params: Params, seed: u64) -> Result<Self, String> {
        let nodes = tree_mb.saturating_mul(MIB) / std::mem::size_of::<Node>();
        let min = Search::<Vec<Node>>::min_nodes(kosumi_core::geometry::MAX_SIZE);
        if nodes < min {
            return Err(format!(
                "--tree-mb {tree_mb}: too small, the tree needs at least {} KiB",
                (min * std::mem::size_of::<Node>()).div_ceil(1024)
            ));
        }
        let pool = crate::memory::filled(nodes, Node::EMPTY, "search tree")?;
        let mut search =
            Search::new(pool, params).ok_or_else(|| "cannot build the search".to_string())?;
        search.set_seed(seed);
        Ok(Searcher {
            search,
            table: table_storage(hash_mb)?,
            generation: 1,
            use_table: true,
            ladder: Box::default(),
            stop: None,
            live_gfx: None,
            replies: None,
            local: None,
            dragons: (0, 0),
            owl: None,
            last_dragons: None,
        })
    }

    /// Search `board` within `budget`, reading tactics through `tactics`
    /// and taking priors from `patterns` if given; with `verbose`, print
    /// the seed's per-iteration line to stderr.
    ///
    /// # Errors
    /// A message if the search cannot run (pool too small for the board).
    #[allow(
        clippy::too_many_arguments,
        reason = "the core's run arguments, the engine's two aids and the log switch"
    )]
    pub fn run(
        &mut self,
        board: &Board,
        komi2: i16,
        excluded: &[Point],
        budget: Budget,
        tactics: Option<&mut TacticTable>,
        patterns: Option<&Patterns>,
        verbose: bool,
    ) -> Result<SearchResult, String> {
        // The reader's journal is tens of KiB: on the heap, not the stack.
        let mut reader = tactics.map(|t| Box::new(Reader::new(t)));
        self.last_dragons = match (reader.as_deref_mut(), self.dragons) {
            (Some(r), (most, nodes)) if most > 0 && nodes > 0 => {
                let owl = self.owl.get_or_insert_with(Box::default);
                let budget = tactics::Budget {
                    nodes,
                    depth: OWL_BUDGET.depth,
                };
                let mut b = board.clone();
                let start = Instant::now();
                let d = read_dragons(&mut b, board.to_play(), owl, r, budget, most);
                if verbose {
                    let geo = board.geometry();
                    let mut buf = [0u8; 4];
                    let marks: Vec<String> = d
                        .marks
                        .iter()
                        .map(|(p, m)| format!("{} {m:?}", geo.vertex_str(p, &mut buf)))
                        .collect();
                    eprintln!(
                        "owl: {} dragons asked, {} unsettled, {} ms: {}",
                        d.asked,
                        d.unsettled,
                        start.elapsed().as_millis(),
                        marks.join(", ")
                    );
                }
                Some(d)
            }
            _ => None,
        };
        let knowledge = Knowledge {
            tactics: reader.as_deref_mut().map(|r| r as &mut dyn Solver),
            patterns: patterns.map(|patterns| PatternPrior {
                patterns,
                ladder: Some(&mut *self.ladder),
            }),
            replies: self
                .replies
                .as_deref_mut()
                .map(|r| r as &mut dyn ReplyMemory),
            local: self.local,
            dragons: self.last_dragons.as_ref().map(|d| &d.marks),
        };
        let mut clock = StopClock {
            start: Instant::now(),
            stop: self.stop.clone(),
        };
        let geo = board.geometry();
        let live_gfx = self.live_gfx;
        let mut report = |r: &IterationReport| {
            if let Some(live) = live_gfx {
                eprint!(
                    "{}",
                    live(geo, board.to_play(), r.best, r.win_rate, r.visits)
                );
            }
            if verbose {
                let mut buf = [0u8; 4];
                eprintln!(
                    "..{}.. <{}/{}/{}> Hits: {} {}/{} Misses: {}",
                    r.iteration,
                    geo.vertex_str(r.best, &mut buf),
                    (r.win_rate * 1000.0).round() as i32,
                    r.visits,
                    r.hits,
                    r.playouts,
                    r.total_playouts,
                    r.misses
                );
            }
        };
        let result = if self.use_table {
            let mut table = BestMoveTable::new(&mut self.table[..])
                .map_err(|e| format!("best-move table: {e}"))?;
            table.set_generation(self.generation);
            let r = self.search.run(
                board,
                komi2,
                excluded,
                budget,
                Some(&mut table),
                knowledge,
                &mut clock,
                &mut report,
            );
            self.generation = table.generation();
            r
        } else {
            self.search.run::<&mut [BestMoveCluster], _>(
                board,
                komi2,
                excluded,
                budget,
                None,
                knowledge,
                &mut clock,
                &mut report,
            )
        };
        result.map_err(|e| e.to_string())
    }

    /// Use last good replies in the playouts (tables allocated on first
    /// use, kept from move to move), or stop using them.
    pub fn use_replies(&mut self, on: bool) {
        if !on {
            self.replies = None;
        } else if self.replies.is_none() {
            let table = vec![0u16; Replies::<Vec<u16>>::ENTRIES];
            self.replies = Replies::new(table).ok().map(Box::new);
        }
    }

    /// Return the number of entries in use in the table.
    pub fn table_used(&self) -> usize {
        self.table
            .iter()
            .flat_map(|c| c.entries())
            .filter(|e| !kosumi_core::table::Entry::is_empty(*e))
            .count()
    }
}

/// The host's clock for a search: the time since `start`, and a stop when
/// `stop` counts a waiting input line or an interrupt, whatever the budget.
struct StopClock {
    start: Instant,
    stop: Option<Arc<AtomicUsize>>,
}

impl Clock for StopClock {
    fn elapsed_ms(&mut self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    fn interrupted(&mut self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::SeqCst) > 0)
    }
}
