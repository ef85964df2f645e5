//! Clusters: `K` entries packed into one 32- or 64-byte, aligned line.
//!
//! Rust cannot pick `align(..)` from a const generic, so there are two
//! wrappers, [`Cluster32`] and [`Cluster64`]. Each checks its own size and
//! alignment when its [`Cluster::EMPTY`] is evaluated, and [`Table`]
//! checks them again for any [`Cluster`] it is built over, so a cluster that
//! no longer fits its line is a build error, not a slow table:
//!
//! ```compile_fail
//! use kosumi_core::table::{Cluster, Cluster32, DepthEntry};
//! // Five 8-byte entries do not fit 32 bytes.
//! let _ = <Cluster32<DepthEntry, 5> as Cluster>::EMPTY;
//! ```
//!
//! Padding is implicit: three 10-byte entries make 30 bytes, and
//! `align(32)` rounds the struct up to 32, like Stockfish's `padding[2]`.
//!
//! [`Table`]: super::Table

use core::mem::{align_of, size_of};

use super::entry::Entry;

/// A group of entries that fills exactly one aligned 32- or 64-byte line.
pub trait Cluster: Copy {
    /// The entry kind held.
    type Entry: Entry;

    /// Size and alignment of the cluster in bytes, 32 or 64.
    const LINE: usize;

    /// The cluster with every entry empty.
    const EMPTY: Self;

    /// Return the entries.
    fn entries(&self) -> &[Self::Entry];

    /// Return the entries for writing.
    fn entries_mut(&mut self) -> &mut [Self::Entry];
}

/// Evaluate to `()` if `C` fills exactly its line; fail to build otherwise.
pub(crate) const fn assert_layout<C: Cluster>() {
    assert!(
        C::LINE == 32 || C::LINE == 64,
        "a cluster line is 32 or 64 bytes"
    );
    assert!(
        size_of::<C>() == C::LINE,
        "cluster size differs from its line"
    );
    assert!(
        align_of::<C>() == C::LINE,
        "cluster is not aligned to its line"
    );
}

macro_rules! cluster_type {
    ($(#[$doc:meta])* $name:ident, $line:literal) => {
        $(#[$doc])*
        #[repr(C, align($line))]
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct $name<E, const K: usize> {
            entries: [E; K],
        }

        impl<E: Entry, const K: usize> Cluster for $name<E, K> {
            type Entry = E;
            const LINE: usize = $line;
            const EMPTY: Self = {
                assert!(K >= 1, "a cluster holds at least one entry");
                assert!(size_of::<Self>() == $line, "entries do not fill the line exactly");
                assert!(align_of::<Self>() == $line);
                Self { entries: [E::EMPTY; K] }
            };

            #[inline(always)]
            fn entries(&self) -> &[E] {
                &self.entries
            }

            #[inline(always)]
            fn entries_mut(&mut self) -> &mut [E] {
                &mut self.entries
            }
        }
    };
}

cluster_type!(
    /// `K` entries in one 32-byte line (half a typical cache line).
    Cluster32,
    32
);
cluster_type!(
    /// `K` entries in one 64-byte line (a whole typical cache line).
    Cluster64,
    64
);

/// Return the largest power-of-two number of `C` clusters that fits in `bytes`.
///
/// Returns 0 if not even one cluster fits.
pub const fn clusters_in<C: Cluster>(bytes: usize) -> usize {
    let n = bytes / size_of::<C>();
    if n == 0 {
        0
    } else {
        1 << (usize::BITS - 1 - n.leading_zeros())
    }
}
