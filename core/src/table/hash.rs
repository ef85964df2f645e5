//! [`Table`]: probe and store over clusters in caller-provided storage.
//!
//! One type serves both capacities: `Table<C, [C; N]>` ([`StaticTable`])
//! is built by the `const fn` [`Table::new_static`] and can be a `static`;
//! `Table<C, &mut [C]>` ([`SliceTable`]) or `Table<C, Box<[C]>>` runs over
//! storage the host allocated once, sized at start-up. Reads and writes are
//! separate: [`Table::probe`] returns a copy of the payload and a [`Slot`],
//! and [`Table::store`] consumes the slot.

use core::marker::PhantomData;

use super::cluster::{assert_layout, Cluster};
use super::entry::Entry;
use super::key::{KeySplit, TableError};
use super::stats::{Counters, Stats};
use crate::lent::Lent;

/// Number of clusters [`Table::hashfull`] samples (Stockfish's 1000).
const HASHFULL_SAMPLE: usize = 1000;

/// A clustered hash table over storage `S` holding clusters `C`.
#[derive(Debug)]
pub struct Table<C, S> {
    storage: S,
    split: KeySplit,
    generation: u8,
    counters: Counters,
    cluster: PhantomData<C>,
}

/// A table whose `N` clusters are part of the value (a `static` on the firmware).
pub type StaticTable<C, const N: usize> = Table<C, [C; N]>;

/// A table over a cluster slice the caller allocated.
pub type SliceTable<'a, C> = Table<C, &'a mut [C]>;

/// Where a [`Table::store`] writes: the entry a probe found or chose to replace.
#[derive(Debug, PartialEq, Eq)]
#[must_use = "a slot is only useful to `Table::store`"]
pub struct Slot {
    cluster: usize,
    way: usize,
    check: u64,
}

impl Slot {
    /// Return the index of the cluster.
    pub fn cluster(&self) -> usize {
        self.cluster
    }

    /// Return the position of the entry inside its cluster.
    pub fn way(&self) -> usize {
        self.way
    }
}

/// What a probe found: the payload on a hit, and where to store in any case.
#[derive(Debug)]
pub struct Probe<D> {
    /// A copy of the payload if the key was found.
    pub data: Option<D>,
    /// The entry holding the key on a hit, the least valuable one on a miss.
    pub slot: Slot,
}

/// Return the first generation of entry kind `E`: 1, or 0 without ageing.
const fn first_generation<E: Entry>() -> u8 {
    if E::GENERATION_BITS == 0 {
        0
    } else {
        1
    }
}

impl<C: Cluster, S> Table<C, S> {
    /// Return a table over `storage` split by `split`, counters at zero and
    /// the first generation: what every constructor builds once it has
    /// checked its storage.
    const fn assembled(storage: S, split: KeySplit) -> Self {
        Table {
            storage,
            split,
            generation: first_generation::<C::Entry>(),
            counters: Counters::new(),
            cluster: PhantomData,
        }
    }
}

impl<C: Cluster, const N: usize> Table<C, [C; N]> {
    /// Return an empty table of `N` clusters, built at compile time if wanted.
    ///
    /// `N` must be a power of two that leaves at least
    /// [`MIN_CHECK_BITS`](super::MIN_CHECK_BITS) check bits; anything else,
    /// or a cluster that does not fill its line, fails to build.
    pub const fn new_static() -> Self {
        Table::assembled([C::EMPTY; N], Self::SPLIT)
    }

    /// The split of `N` clusters, checked when the table type is built.
    const SPLIT: KeySplit = {
        assert_layout::<C>();
        assert!(N.is_power_of_two(), "cluster count must be a power of two");
        match KeySplit::new(N, C::Entry::CHECK_BITS) {
            Ok(split) => split,
            Err(_) => panic!("cluster count does not split a 64-bit key"),
        }
    };

    /// Make this the table [`Table::new_static`] returns, in place: a
    /// table in a `static` that starts as zero bytes (in `.bss`, with no
    /// image in a firmware's flash) is set up by this at run time, with
    /// no table-sized temporary.
    pub fn reset(&mut self) {
        // Every field by name: a field added to `Table` must be set here.
        let Table {
            storage,
            split,
            generation,
            counters,
            cluster: _,
        } = self;
        storage.fill(C::EMPTY);
        *split = Self::SPLIT;
        *generation = first_generation::<C::Entry>();
        *counters = Counters::new();
    }
}

impl<'a, C: Cluster> Table<C, Lent<'a, C>> {
    /// [`Table::new`] over a borrowed slice (held as a [`Lent`] one), as a
    /// `const fn`: a `static` table header over a `static` (zeroed, so
    /// `.bss`) cluster array. The clusters are used as they are.
    ///
    /// # Errors
    /// See [`KeySplit::new`].
    pub const fn over(storage: &'a mut [C]) -> Result<Self, TableError> {
        const { assert_layout::<C>() };
        let split = match KeySplit::new(storage.len(), C::Entry::CHECK_BITS) {
            Ok(split) => split,
            Err(e) => return Err(e),
        };
        Ok(Table::assembled(Lent::new(storage), split))
    }
}

impl<C: Cluster, S: AsRef<[C]> + AsMut<[C]>> Table<C, S> {
    /// Return a table over `storage`, which must hold a power of two of clusters.
    ///
    /// The clusters are used as they are: pass [`Cluster::EMPTY`]s (or call
    /// [`Table::clear`]) for an empty table.
    ///
    /// # Errors
    /// See [`KeySplit::new`]: empty storage, a cluster count that is not a
    /// power of two, or one too large for 64-bit keys.
    pub fn new(storage: S) -> Result<Self, TableError> {
        const { assert_layout::<C>() };
        let split = KeySplit::new(storage.as_ref().len(), C::Entry::CHECK_BITS)?;
        Ok(Table::assembled(storage, split))
    }

    /// Return the number of clusters.
    pub fn clusters(&self) -> usize {
        self.storage.as_ref().len()
    }

    /// Return the number of entries (clusters times entries per cluster).
    pub fn capacity(&self) -> usize {
        self.clusters() * C::EMPTY.entries().len()
    }

    /// Return how keys are split into index and check bits.
    pub fn split(&self) -> KeySplit {
        self.split
    }

    /// Return the current generation.
    pub fn generation(&self) -> u8 {
        self.generation
    }

    /// Return a snapshot of the counters (zeros without the `stats` feature).
    pub fn stats(&self) -> Stats {
        self.counters.get()
    }

    /// Reset the counters.
    pub fn reset_stats(&mut self) {
        self.counters = Counters::new();
    }

    /// Start a new search: entries written before now age by one.
    pub fn new_search(&mut self) {
        let bits = C::Entry::GENERATION_BITS;
        if bits > 0 {
            let last = ((1u32 << bits) - 1) as u8;
            // Cycle through 1..=last; 0 is reserved for empty entries.
            self.generation = if self.generation >= last {
                1
            } else {
                self.generation + 1
            };
        }
    }

    /// Empty every entry and restart the generation count.
    pub fn clear(&mut self) {
        self.storage.as_mut().fill(C::EMPTY);
        self.generation = first_generation::<C::Entry>();
    }

    /// Return how many searches ago `entry` was written.
    #[inline(always)]
    fn age(&self, entry: &C::Entry) -> i32 {
        let bits = C::Entry::GENERATION_BITS;
        if bits == 0 {
            return 0;
        }
        let cycle = (1i32 << bits) - 1;
        let d = i32::from(self.generation) - i32::from(entry.generation());
        if d < 0 {
            d + cycle
        } else {
            d
        }
    }

    /// Look `key` up in its cluster.
    ///
    /// On a hit, return a copy of the payload and the entry's slot; on a
    /// miss, no payload and the slot of the cluster's least valuable entry.
    #[inline]
    pub fn probe(&mut self, key: u64) -> Probe<<C::Entry as Entry>::Data> {
        let cluster = self.split.index(key);
        let check = self.split.check(key);
        let entries = self.storage.as_ref()[cluster].entries();
        let mut victim = 0;
        let mut victim_value = i32::MAX;
        for (way, entry) in entries.iter().enumerate() {
            if entry.is_empty() {
                if victim_value != i32::MIN {
                    victim = way;
                    victim_value = i32::MIN;
                }
                continue;
            }
            if entry.check() == check {
                let data = entry.data();
                self.counters.probe(true);
                return Probe {
                    data: Some(data),
                    slot: Slot {
                        cluster,
                        way,
                        check,
                    },
                };
            }
            let value = entry.worth() - C::Entry::AGE_WEIGHT * self.age(entry);
            if value < victim_value {
                victim = way;
                victim_value = value;
            }
        }
        self.counters.probe(false);
        Probe {
            data: None,
            slot: Slot {
                cluster,
                way: victim,
                check,
            },
        }
    }

    /// Write `data` for the key that `slot` was probed with, in the current generation.
    ///
    /// # Panics
    /// Panics if `slot` comes from a larger table.
    #[inline]
    pub fn store(&mut self, slot: Slot, data: <C::Entry as Entry>::Data) {
        let entry = C::Entry::pack(slot.check, data, self.generation);
        let old = &mut self.storage.as_mut()[slot.cluster].entries_mut()[slot.way];
        self.counters
            .store(!old.is_empty() && old.check() != slot.check);
        *old = entry;
    }

    /// Return the permille of sampled entries that are in use and at most `max_age` searches old.
    ///
    /// Samples the first 1000 clusters (all of a smaller table), like
    /// Stockfish's `hashfull`. Entry kinds without generations count every
    /// non-empty entry.
    pub fn hashfull(&self, max_age: u8) -> u32 {
        let sample = &self.storage.as_ref()[..self.clusters().min(HASHFULL_SAMPLE)];
        let mut used = 0usize;
        let mut total = 0usize;
        for cluster in sample {
            for entry in cluster.entries() {
                total += 1;
                if !entry.is_empty() && self.age(entry) <= i32::from(max_age) {
                    used += 1;
                }
            }
        }
        // At most 1000 * 64 entries: no overflow, and the ratio is <= 1000.
        (used * 1000 / total) as u32
    }
}
