//! Probe and store counters, compiled in with the `stats` feature.
//!
//! [`Table::stats`](super::Table::stats) always exists so callers need no
//! `cfg`; without the feature the counters are a zero-sized type, cost
//! nothing, and the snapshot is all zeros.

/// A snapshot of a table's counters (all zero without the `stats` feature).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Calls to `probe`.
    pub probes: u64,
    /// Probes that found their key.
    pub hits: u64,
    /// Calls to `store`.
    pub stores: u64,
    /// Stores that overwrote a non-empty entry of another key.
    pub replacements: u64,
}

/// The live counters inside a table.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Counters {
    #[cfg(feature = "stats")]
    stats: Stats,
}

impl Counters {
    /// Return zeroed counters.
    pub(crate) const fn new() -> Self {
        Counters {
            #[cfg(feature = "stats")]
            stats: Stats {
                probes: 0,
                hits: 0,
                stores: 0,
                replacements: 0,
            },
        }
    }

    /// Count one probe.
    #[inline(always)]
    pub(crate) fn probe(&mut self, hit: bool) {
        #[cfg(feature = "stats")]
        {
            self.stats.probes += 1;
            self.stats.hits += u64::from(hit);
        }
        #[cfg(not(feature = "stats"))]
        let _ = hit;
    }

    /// Count one store.
    #[inline(always)]
    pub(crate) fn store(&mut self, replaced: bool) {
        #[cfg(feature = "stats")]
        {
            self.stats.stores += 1;
            self.stats.replacements += u64::from(replaced);
        }
        #[cfg(not(feature = "stats"))]
        let _ = replaced;
    }

    /// Return a snapshot.
    pub(crate) fn get(&self) -> Stats {
        #[cfg(feature = "stats")]
        {
            self.stats
        }
        #[cfg(not(feature = "stats"))]
        Stats::default()
    }
}
