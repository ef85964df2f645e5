//! Splitting a 64-bit key into a cluster index and stored check bits.
//!
//! The index is the key's top `log2(clusters)` bits (a shift, because
//! cluster counts are powers of two); the check bits are its low bits, as
//! many as the entry holds but never reaching into the index bits. So the
//! two never overlap, and keys that differ in any index bit land in
//! different clusters while keys that differ in any check bit never hit
//! each other. [`KeySplit::new`] asserts the disjointness; in a `const`
//! context (a static table) a failure is a build error.

/// Fewest check bits a table accepts; more clusters than leave this many
/// key bits below the index is [`TableError::TooLarge`].
pub const MIN_CHECK_BITS: u32 = 16;

/// Why a table cannot be built over some storage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableError {
    /// The storage holds no cluster.
    Empty,
    /// The number of clusters is not a power of two.
    NotPowerOfTwo,
    /// The index would leave fewer than [`MIN_CHECK_BITS`] check bits.
    TooLarge,
}

impl core::fmt::Display for TableError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            TableError::Empty => "table storage holds no cluster",
            TableError::NotPowerOfTwo => "table cluster count is not a power of two",
            TableError::TooLarge => "table has too many clusters for 64-bit keys",
        })
    }
}

/// How a table splits keys: top bits pick the cluster, low bits are checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeySplit {
    index_bits: u32,
    check_bits: u32,
    /// `63 - index_bits`: the index is `key >> shift >> 1`, which is 0 for
    /// a single cluster without an out-of-range shift.
    shift: u32,
    check_mask: u64,
}

impl KeySplit {
    /// Return the split for `clusters` clusters of entries with
    /// `entry_check_bits` check bits.
    ///
    /// # Errors
    /// [`TableError::Empty`] for 0 clusters, [`TableError::NotPowerOfTwo`],
    /// and [`TableError::TooLarge`] if the index would take more than
    /// `64 - MIN_CHECK_BITS` bits.
    ///
    /// # Panics
    /// Panics if `entry_check_bits` is 0 or above 64, or if the index and
    /// check masks overlap (an arithmetic bug; a build error in `const`).
    pub const fn new(clusters: usize, entry_check_bits: u32) -> Result<Self, TableError> {
        assert!(
            entry_check_bits >= 1 && entry_check_bits <= 64,
            "check bits out of 1..=64"
        );
        if clusters == 0 {
            return Err(TableError::Empty);
        }
        if !clusters.is_power_of_two() {
            return Err(TableError::NotPowerOfTwo);
        }
        let index_bits = clusters.trailing_zeros();
        if index_bits > 64 - MIN_CHECK_BITS {
            return Err(TableError::TooLarge);
        }
        let room = 64 - index_bits;
        let check_bits = if entry_check_bits < room {
            entry_check_bits
        } else {
            room
        };
        let check_mask = if check_bits == 64 {
            u64::MAX
        } else {
            (1u64 << check_bits) - 1
        };
        let split = KeySplit {
            index_bits,
            check_bits,
            shift: 63 - index_bits,
            check_mask,
        };
        assert!(
            split.index_mask() & split.check_mask == 0,
            "index and check bits overlap"
        );
        Ok(split)
    }

    /// Return the cluster index of `key`.
    #[inline(always)]
    pub const fn index(&self, key: u64) -> usize {
        // Fits in usize: it is below the cluster count, itself a usize.
        ((key >> self.shift) >> 1) as usize
    }

    /// Return the check bits of `key`, as an entry stores them.
    #[inline(always)]
    pub const fn check(&self, key: u64) -> u64 {
        key & self.check_mask
    }

    /// Return the key bits that select the cluster.
    pub const fn index_mask(&self) -> u64 {
        if self.index_bits == 0 {
            0
        } else {
            u64::MAX << (64 - self.index_bits)
        }
    }

    /// Return the key bits stored in an entry.
    pub const fn check_mask(&self) -> u64 {
        self.check_mask
    }

    /// Return the number of index bits, `log2(clusters)`.
    pub const fn index_bits(&self) -> u32 {
        self.index_bits
    }

    /// Return the number of check bits actually stored.
    pub const fn check_bits(&self) -> u32 {
        self.check_bits
    }

    /// Return the number of key bits a hit agrees on (index + check).
    pub const fn effective_bits(&self) -> u32 {
        self.index_bits + self.check_bits
    }
}
