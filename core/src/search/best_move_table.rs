//! The best-move table of the `003_*` seed, over the clustered table type.
//!
//! Per position: its full 64-bit Zobrist key (index bits + 34 check bits,
//! see [`crate::table`]), the best move found there, `log2` of that move's
//! visits (its quality) and `log2` of the height of the subtree searched
//! below the position (its depth). The table keeps what is worth most: a
//! probe that misses offers the cluster's entry with the lowest
//! `2 * log2 visits + log2 depth - 8 * age`, so entries of low quality and
//! old searches are overwritten first. A hit is overwritten when the new
//! result is backed by at least half the visits of the stored one (newer
//! is better informed), so a deep, well-visited line is not erased by a
//! brief revisit.
//!
//! The table outlives trees, iterations, moves and (through the host's
//! `--book`) processes.

use crate::geometry::Point;
use crate::lent::Lent;
use crate::table::{BestMove, BestMoveCluster, Table, TableError};

/// The best-move table over cluster storage `S`.
pub struct BestMoveTable<S> {
    table: Table<BestMoveCluster, S>,
}

impl<'a> BestMoveTable<Lent<'a, BestMoveCluster>> {
    /// [`BestMoveTable::new`] over a borrowed slice, as a `const fn` (see
    /// [`Table::over`]).
    ///
    /// # Errors
    /// See [`Table::new`].
    pub const fn over(storage: &'a mut [BestMoveCluster]) -> Result<Self, TableError> {
        match Table::over(storage) {
            Ok(table) => Ok(BestMoveTable { table }),
            Err(e) => Err(e),
        }
    }
}

impl<S: AsRef<[BestMoveCluster]> + AsMut<[BestMoveCluster]>> BestMoveTable<S> {
    /// Return a table over `storage` (a power of two of clusters, used as is).
    ///
    /// # Errors
    /// See [`Table::new`].
    pub fn new(storage: S) -> Result<Self, TableError> {
        Ok(BestMoveTable {
            table: Table::new(storage)?,
        })
    }

    /// Return the stored best move of the position `key`.
    #[inline]
    pub fn get(&mut self, key: u64) -> Option<BestMove> {
        self.table.probe(key).data
    }

    /// Record that `mv` is the best move of position `key` with `visits`
    /// visits and a subtree `depth` plies high; return `true` if written.
    pub fn put(&mut self, key: u64, mv: Point, visits: u32, depth: u32) -> bool {
        let probe = self.table.probe(key);
        let new = BestMove::new(mv.0, visits, depth);
        if let Some(old) = probe.data {
            if old.mv == new.mv && old.visits_log2 > new.visits_log2 {
                return false;
            }
            if new.visits_log2 + 1 < old.visits_log2 {
                return false;
            }
        }
        self.table.store(probe.slot, new);
        true
    }

    /// Start a new search (entries written before age by one).
    pub fn new_search(&mut self) {
        self.table.new_search();
    }

    /// Empty the table.
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// Return the underlying clustered table.
    pub fn table(&self) -> &Table<BestMoveCluster, S> {
        &self.table
    }

    /// Return the current generation (saved with a book).
    pub fn generation(&self) -> u8 {
        self.table.generation()
    }

    /// Advance the generation to `generation` (restoring a saved book);
    /// values outside `1..=31` are ignored.
    pub fn set_generation(&mut self, generation: u8) {
        if (1..=31).contains(&generation) {
            while self.table.generation() != generation {
                self.table.new_search();
            }
        }
    }
}
