//! Clustered hash tables: the one table type behind every cache in kosumi.
//!
//! # Design
//!
//! A table is an array of *clusters*; a cluster is a handful of small packed
//! *entries* that share one cache line (Stockfish's `tt.h`, the
//! `002_*` seed). A probe reads one cluster, so it costs at most one cache
//! miss: looking at the neighbours of the home slot is free once the line is
//! loaded, unlike "rehash" schemes that re-probe elsewhere on a collision.
//!
//! ```text
//!   key (u64)   63 ...................................................... 0
//!               [ index bits ][ (unused) ][        check bits            ]
//!                \_ cluster number          \_ stored in the entry
//!
//!   cluster     +---------+---------+---------+---------+   32 or 64 bytes,
//!               | entry 0 | entry 1 | entry 2 | entry 3 |   aligned to size
//!               +---------+---------+---------+---------+
//! ```
//!
//! * [`Entry`] is the trait an entry kind implements: what "empty" is, how
//!   the key's check bits and the payload are packed, and how valuable the
//!   entry is when a victim must be chosen.
//! * [`Cluster32`] and [`Cluster64`] group `K` entries into a
//!   `#[repr(C, align(32))]` or `#[repr(C, align(64))]` struct. Their size
//!   and alignment are compile-time assertions, so a cluster that outgrows
//!   its line fails to build.
//! * [`Table`] is generic over its storage: `[C; N]` for a table whose size
//!   is fixed at compile time ([`StaticTable`], a `static` on the firmware),
//!   or any `&mut [C]`, `Box<[C]>`, `Vec<C>` the host allocates once at
//!   start-up ([`SliceTable`]). The core never allocates.
//!
//! # Key split
//!
//! Cluster counts are powers of two. The cluster index is the key's top
//! `log2(clusters)` bits; the check bits stored in an entry are the key's low
//! bits, `min(E::CHECK_BITS, 64 - index bits)` of them, so index and check
//! bits never overlap ([`KeySplit`] asserts it, at compile time for a static
//! table). Two different keys are confused only if they agree on all index
//! and check bits: the *effective* key length is index + check bits, at most
//! 64. A probe for an absent key reports a false hit with probability about
//! `entries per cluster * 2^-check bits`.
//!
//! | entry kind           | cluster    | 16 KiB (L1)  | 1 MiB        | 1 GiB        |
//! |----------------------|------------|--------------|--------------|--------------|
//! | [`DepthEntry`] (48)  | 32 B, 4    | 9 + 48 = 57  | 15 + 48 = 63 | 25 + 39 = 64 |
//! | [`BestMoveEntry`] (34)| 64 B, 8   | 8 + 34 = 42  | 14 + 34 = 48 | 24 + 34 = 58 |
//! | [`TacticEntry`] (40) | 32 B, 3    | 9 + 40 = 49  | 15 + 40 = 55 | 25 + 39 = 64 |
//!
//! (index bits + stored check bits = effective bits; the entry's check
//! width in parentheses.) The seed stores 48 check bits beside a 21-bit
//! index of a 128-bit key and counts 69 bits; with kosumi's 64-bit keys the
//! sum cannot pass 64, so at large sizes an entry stores fewer check bits
//! than it has room for (the top ones would repeat index bits): a 1 GiB depth
//! table keeps 39 check bits, a false hit every ~10^11 probes.
//!
//! # Replacement
//!
//! A probe that finds its check bits in a non-empty entry is a hit and the
//! returned [`Slot`] is that entry (storing updates it in place). Otherwise
//! the slot is the least valuable entry: an empty one if any, else the one
//! with the lowest `worth - AGE_WEIGHT * age`, where age counts the searches
//! ([`Table::new_search`]) since the entry was written, modulo the entry's
//! generation width. Generations run `1..2^bits` and skip 0, so an all-zero
//! entry is empty in every entry kind and zeroed memory (`.bss`, `calloc`)
//! is an empty table.

mod cluster;
mod entry;
mod hash;
mod key;
mod stats;

pub mod entries;

pub use cluster::{clusters_in, Cluster, Cluster32, Cluster64};
pub use entries::best_move::{BestMove, BestMoveCluster, BestMoveEntry};
pub use entries::depth::{DepthCluster, DepthEntry};
pub use entries::tactic::{Bound, Tactic, TacticCluster, TacticEntry, Winner};
pub use entry::Entry;
pub use hash::{Probe, SliceTable, Slot, StaticTable, Table};
pub use key::{KeySplit, TableError, MIN_CHECK_BITS};
pub use stats::Stats;
