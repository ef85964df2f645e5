//! Iterative deepening after Valkyria (the `003_*` seed).
//!
//! A search runs in *iterations*. Every node expanded during an iteration
//! looks its position up in the best-move table: a *hit* means an earlier
//! iteration (or an earlier move, or the book) searched it. An iteration
//! runs at least its budget of playouts, which doubles from one iteration to
//! the next (the seed's own runs show roughly this schedule); past that it
//! goes on while the expansions of the last window mostly hit the table,
//! and ends as soon as they mostly miss.
//!
//! With [`DeepeningParams::drop_tree`] (Valkyria's way, off by default), at
//! the end of an iteration every well-visited node's best move is written
//! to the table and the tree below the root's children is dropped; the next
//! iteration re-expands the positions it revisits with the stored best move
//! as a gentle prior, so it searches old lines quickly and is free to find
//! different ones. Valkyria did this to search deep in a memory its tree
//! could not fill; the engine's pool prunes itself when full and stores its
//! best moves then, and against Pachi at one CPU-second dropping a tree the
//! memory could hold lost (BENCHMARKS.md). By default an iteration's end is
//! a report (GoGui's live graphics, the seed's line) and the search is the
//! one a single iteration makes.
//!
//! Unlike Valkyria, the root's own children and their statistics survive an
//! iteration, so a search cut short by the clock still chooses from all the
//! playouts it ran.

/// Parameters of iterative deepening.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DeepeningParams {
    /// Run iterations at all (off: one iteration, the tree is never dropped).
    pub enabled: bool,
    /// Playouts of the first iteration.
    pub first: u32,
    /// Fraction of hits (of hits + misses) over a window that keeps an
    /// iteration going past its budget.
    pub keep_going_hits: f32,
    /// End an iteration as Valkyria does: write the tree's best moves to
    /// the table and drop the tree below the root's children. Otherwise
    /// (the default) an iteration's end only reports: the tree goes on
    /// (pruned when the pool is full, its best moves then stored), and the
    /// search is the one a single iteration makes. Against Pachi at 1
    /// CPU-second, dropping the tree lost (BENCHMARKS.md).
    pub drop_tree: bool,
}

impl DeepeningParams {
    /// The defaults, usable in a `const` context.
    pub const DEFAULT: DeepeningParams = DeepeningParams {
        enabled: true,
        first: 4096,
        keep_going_hits: 0.5,
        drop_tree: false,
    };
}

impl Default for DeepeningParams {
    fn default() -> Self {
        DeepeningParams::DEFAULT
    }
}

/// One iteration's figures, reported when it ends (the seed's line).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IterationReport {
    /// Iteration number, from 0.
    pub iteration: u32,
    /// Most visited root move so far.
    pub best: crate::geometry::Point,
    /// Its win rate for the side to move.
    pub win_rate: f32,
    /// Its visits.
    pub visits: u32,
    /// Table hits of the expansions of this iteration.
    pub hits: u32,
    /// Table misses of the expansions of this iteration.
    pub misses: u32,
    /// Playouts of this iteration.
    pub playouts: u32,
    /// Playouts of the whole search so far.
    pub total_playouts: u32,
}

/// The iteration state of one search.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Deepening {
    pub iteration: u32,
    pub playouts: u32,
    pub budget: u32,
    pub hits: u32,
    pub misses: u32,
    window_hits: u32,
    window_misses: u32,
    next_check: u32,
}

impl Deepening {
    /// No iteration started (what a new search holds).
    pub const IDLE: Deepening = Deepening {
        iteration: 0,
        playouts: 0,
        budget: 0,
        hits: 0,
        misses: 0,
        window_hits: 0,
        window_misses: 0,
        next_check: 0,
    };

    /// Start the first iteration.
    pub fn start(params: &DeepeningParams) -> Deepening {
        let first = params.first.max(64);
        Deepening {
            budget: first,
            next_check: first,
            ..Deepening::default()
        }
    }

    /// Count an expansion's table probe.
    #[inline]
    pub fn probe(&mut self, hit: bool) {
        if hit {
            self.hits += 1;
            self.window_hits += 1;
        } else {
            self.misses += 1;
            self.window_misses += 1;
        }
    }

    /// Count a playout; return `true` if the iteration should end now.
    #[inline]
    pub fn playout(&mut self, params: &DeepeningParams) -> bool {
        self.playouts += 1;
        if !params.enabled || self.playouts < self.next_check {
            return false;
        }
        let probes = self.window_hits + self.window_misses;
        let hitting =
            probes > 0 && self.window_hits as f32 >= params.keep_going_hits * probes as f32;
        self.window_hits = 0;
        self.window_misses = 0;
        if hitting {
            self.next_check = self.playouts + (self.budget / 4).max(64);
            false
        } else {
            true
        }
    }

    /// Start the next iteration with twice the budget.
    pub fn next(&mut self) {
        let budget = self.budget.saturating_mul(2);
        *self = Deepening {
            iteration: self.iteration + 1,
            budget,
            next_check: budget,
            ..Deepening::default()
        };
    }
}
