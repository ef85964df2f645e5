//! [`DepthEntry`]: the seed's 8-byte entry, 48 check bits and a 16-bit depth.
//!
//! ```text
//!   bit 63                              16 15             0
//!       [ key48: low 48 bits of the key  ][ depth16        ]
//! ```
//!
//! The seed uses it for "no mate within `depth` plies from here". A depth
//! of 0 proves nothing, so depth 0 is the empty entry: storing it leaves an
//! empty slot. There is no generation; the deepest result is kept. Four
//! entries make a 32-byte [`DepthCluster`].

use core::mem::align_of;

use static_assertions::{assert_eq_size, const_assert_eq};

use crate::table::{Cluster32, Entry};

/// 48 check bits and a 16-bit depth in one `u64`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(transparent)]
pub struct DepthEntry {
    key48_depth16: u64,
}

/// Four [`DepthEntry`]s in 32 bytes.
pub type DepthCluster = Cluster32<DepthEntry, 4>;

assert_eq_size!(DepthEntry, [u8; 8]);
assert_eq_size!(DepthCluster, [u8; 32]);
const_assert_eq!(align_of::<DepthCluster>(), 32);

impl Entry for DepthEntry {
    type Data = u16;
    const CHECK_BITS: u32 = 48;
    const GENERATION_BITS: u32 = 0;
    const EMPTY: Self = DepthEntry { key48_depth16: 0 };

    #[inline(always)]
    fn pack(check: u64, depth: u16, _generation: u8) -> Self {
        DepthEntry {
            key48_depth16: (check << 16) | u64::from(depth),
        }
    }

    #[inline(always)]
    fn check(&self) -> u64 {
        self.key48_depth16 >> 16
    }

    #[inline(always)]
    fn data(&self) -> u16 {
        self.key48_depth16 as u16
    }

    #[inline(always)]
    fn generation(&self) -> u8 {
        0
    }

    #[inline(always)]
    fn is_empty(&self) -> bool {
        self.key48_depth16 as u16 == 0
    }

    #[inline(always)]
    fn worth(&self) -> i32 {
        i32::from(self.data())
    }
}
