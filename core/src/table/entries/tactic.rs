//! [`TacticEntry`]: the tactical result cache's 10-byte entry.
//!
//! ```text
//!   byte  0..5      5      6        7        8..10
//!       [ key40  ][ gen8 ][ alpha8 ][ beta8  ][ move16 ]
//!   bound byte:  bit 7..6 winner (0 nobody, 1 black, 2 white), bit 5..0 plies
//! ```
//!
//! * `key40`: the key's low 40 check bits, little-endian (39 in a 1 GiB table).
//! * `gen8`: the generation that wrote it, 1..=255; 0 means empty.
//! * `alpha8`, `beta8`: lower and upper bound of the result, each a
//!   [`Bound`]: who wins and in how many plies (0..=63).
//! * `move16`: the key move (e.g. the capturing or escaping move), little-endian.
//!
//! Byte arrays keep the entry 10 bytes with alignment 1 on every target.
//! Worth is the larger ply count: longer readings cost more to redo. Three
//! entries and two bytes of padding make a 32-byte [`TacticCluster`], the
//! seed's and Stockfish's shape.

use core::mem::{align_of, size_of};

use static_assertions::{assert_eq_size, const_assert_eq};

use crate::table::{Cluster32, Entry};

/// Who a bound says wins.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(u8)]
pub enum Winner {
    /// Neither side (unknown, or a draw such as seki).
    #[default]
    Nobody = 0,
    /// Black wins.
    Black = 1,
    /// White wins.
    White = 2,
}

/// One bound of a tactical result: a winner and a ply count, packed in a byte.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bound {
    bits: u8,
}

impl Bound {
    /// Largest storable ply count.
    pub const MAX_PLIES: u8 = 63;

    /// Return the bound "`winner` wins in `plies` plies", or `None` if `plies` exceeds [`Bound::MAX_PLIES`].
    pub const fn new(winner: Winner, plies: u8) -> Option<Self> {
        if plies > Self::MAX_PLIES {
            None
        } else {
            Some(Bound {
                bits: ((winner as u8) << 6) | plies,
            })
        }
    }

    /// Return the winner.
    pub const fn winner(self) -> Winner {
        match self.bits >> 6 {
            1 => Winner::Black,
            2 => Winner::White,
            _ => Winner::Nobody,
        }
    }

    /// Return the ply count.
    pub const fn plies(self) -> u8 {
        self.bits & Self::MAX_PLIES
    }
}

/// A tactical result: the payload of a [`TacticEntry`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tactic {
    /// Lower bound of the result.
    pub alpha: Bound,
    /// Upper bound of the result.
    pub beta: Bound,
    /// The key move, as a point index.
    pub mv: u16,
}

/// Check bits, generation, two bounds and a move in ten bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub struct TacticEntry {
    key40: [u8; 5],
    gen8: u8,
    alpha8: u8,
    beta8: u8,
    move16: [u8; 2],
}

/// Three [`TacticEntry`]s and two bytes of padding in 32 bytes.
pub type TacticCluster = Cluster32<TacticEntry, 3>;

assert_eq_size!(TacticEntry, [u8; 10]);
const_assert_eq!(align_of::<TacticEntry>(), 1);
assert_eq_size!(TacticCluster, [u8; 32]);
const_assert_eq!(align_of::<TacticCluster>(), 32);
const_assert_eq!(32 - 3 * size_of::<TacticEntry>(), 2);

impl Entry for TacticEntry {
    type Data = Tactic;
    const CHECK_BITS: u32 = 40;
    const GENERATION_BITS: u32 = 8;
    const EMPTY: Self = TacticEntry {
        key40: [0; 5],
        gen8: 0,
        alpha8: 0,
        beta8: 0,
        move16: [0; 2],
    };

    #[inline(always)]
    fn pack(check: u64, data: Tactic, generation: u8) -> Self {
        let k = check.to_le_bytes();
        TacticEntry {
            key40: [k[0], k[1], k[2], k[3], k[4]],
            gen8: generation,
            alpha8: data.alpha.bits,
            beta8: data.beta.bits,
            move16: data.mv.to_le_bytes(),
        }
    }

    #[inline(always)]
    fn check(&self) -> u64 {
        let k = self.key40;
        u64::from_le_bytes([k[0], k[1], k[2], k[3], k[4], 0, 0, 0])
    }

    #[inline(always)]
    fn data(&self) -> Tactic {
        Tactic {
            alpha: Bound { bits: self.alpha8 },
            beta: Bound { bits: self.beta8 },
            mv: u16::from_le_bytes(self.move16),
        }
    }

    #[inline(always)]
    fn generation(&self) -> u8 {
        self.gen8
    }

    #[inline(always)]
    fn is_empty(&self) -> bool {
        self.gen8 == 0
    }

    #[inline(always)]
    fn worth(&self) -> i32 {
        let d = self.data();
        i32::from(d.alpha.plies().max(d.beta.plies()))
    }
}
