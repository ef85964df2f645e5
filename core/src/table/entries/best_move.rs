//! [`BestMoveEntry`]: the MCTS best-move table's 8-byte entry.
//!
//! ```text
//!   bit 63          48 47    44 43     39 38   34 33                  0
//!       [ move16      ][depth4 ][visits5 ][ gen5 ][ key34              ]
//! ```
//!
//! * `key34`: the key's low 34 check bits (fewer in tables above 2^30
//!   clusters, see [`KeySplit`](crate::table::KeySplit)).
//! * `gen5`: the generation that wrote it, 1..=31; 0 means empty.
//! * `visits5`: `floor(log2(visits))`, 0..=31.
//! * `depth4`: `floor(log2(depth))`, saturated at 15.
//! * `move16`: the move as a point index.
//!
//! Worth is `2 * visits5 + depth4`: a move backed by twice the visits
//! outweighs twice the depth, and one search of age (8) outweighs 16x the
//! visits. Eight entries make a 64-byte [`BestMoveCluster`].

use core::mem::align_of;

use static_assertions::{assert_eq_size, const_assert_eq};

use crate::table::{Cluster64, Entry};

/// A best move with log-scale confidence: the payload of a [`BestMoveEntry`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BestMove {
    /// The move, as a point index.
    pub mv: u16,
    /// `floor(log2(visits))`; stored saturated at [`BestMove::MAX_VISITS_LOG2`].
    pub visits_log2: u8,
    /// `floor(log2(depth))`; stored saturated at [`BestMove::MAX_DEPTH_LOG2`].
    pub depth_log2: u8,
}

impl BestMove {
    /// Largest storable `visits_log2`.
    pub const MAX_VISITS_LOG2: u8 = 31;
    /// Largest storable `depth_log2`.
    pub const MAX_DEPTH_LOG2: u8 = 15;

    /// Return the payload for `mv` found with `visits` visits at `depth` (0 counts as 1).
    pub const fn new(mv: u16, visits: u32, depth: u32) -> Self {
        let depth_log2 = log2(depth);
        BestMove {
            mv,
            visits_log2: log2(visits),
            depth_log2: if depth_log2 > Self::MAX_DEPTH_LOG2 {
                Self::MAX_DEPTH_LOG2
            } else {
                depth_log2
            },
        }
    }
}

/// Return `floor(log2(x))`, with `log2(0) = 0`.
const fn log2(x: u32) -> u8 {
    if x == 0 {
        0
    } else {
        (31 - x.leading_zeros()) as u8
    }
}

/// Check bits, generation, log2 visits, log2 depth and move in one `u64`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(transparent)]
pub struct BestMoveEntry {
    bits: u64,
}

/// Eight [`BestMoveEntry`]s in 64 bytes.
pub type BestMoveCluster = Cluster64<BestMoveEntry, 8>;

assert_eq_size!(BestMoveEntry, [u8; 8]);
assert_eq_size!(BestMoveCluster, [u8; 64]);
const_assert_eq!(align_of::<BestMoveCluster>(), 64);

const KEY_BITS: u32 = 34;
const GEN_SHIFT: u32 = 34;
const VISITS_SHIFT: u32 = 39;
const DEPTH_SHIFT: u32 = 44;
const MOVE_SHIFT: u32 = 48;
const_assert_eq!(GEN_SHIFT, KEY_BITS);
const_assert_eq!(VISITS_SHIFT, GEN_SHIFT + 5);
const_assert_eq!(DEPTH_SHIFT, VISITS_SHIFT + 5);
const_assert_eq!(MOVE_SHIFT, DEPTH_SHIFT + 4);
const_assert_eq!(MOVE_SHIFT + 16, 64);

impl Entry for BestMoveEntry {
    type Data = BestMove;
    const CHECK_BITS: u32 = KEY_BITS;
    const GENERATION_BITS: u32 = 5;
    const EMPTY: Self = BestMoveEntry { bits: 0 };

    #[inline(always)]
    fn pack(check: u64, data: BestMove, generation: u8) -> Self {
        let visits = data.visits_log2.min(BestMove::MAX_VISITS_LOG2);
        let depth = data.depth_log2.min(BestMove::MAX_DEPTH_LOG2);
        BestMoveEntry {
            bits: (check & ((1 << KEY_BITS) - 1))
                | (u64::from(generation & 0x1f) << GEN_SHIFT)
                | (u64::from(visits) << VISITS_SHIFT)
                | (u64::from(depth) << DEPTH_SHIFT)
                | (u64::from(data.mv) << MOVE_SHIFT),
        }
    }

    #[inline(always)]
    fn check(&self) -> u64 {
        self.bits & ((1 << KEY_BITS) - 1)
    }

    #[inline(always)]
    fn data(&self) -> BestMove {
        BestMove {
            mv: (self.bits >> MOVE_SHIFT) as u16,
            visits_log2: ((self.bits >> VISITS_SHIFT) & 0x1f) as u8,
            depth_log2: ((self.bits >> DEPTH_SHIFT) & 0xf) as u8,
        }
    }

    #[inline(always)]
    fn generation(&self) -> u8 {
        ((self.bits >> GEN_SHIFT) & 0x1f) as u8
    }

    #[inline(always)]
    fn is_empty(&self) -> bool {
        self.generation() == 0
    }

    #[inline(always)]
    fn worth(&self) -> i32 {
        let d = self.data();
        2 * i32::from(d.visits_log2) + i32::from(d.depth_log2)
    }
}
