//! Randomness: the caller seeds, the core draws.
//!
//! Every random choice in the core goes through a caller-supplied
//! `rand_core::RngCore`; the default is `rand_xorshift::XorShiftRng`, which
//! gives the same stream on every platform for the same seed. Only 32-bit
//! draws are used, and ranges are mapped with a multiply-shift (Lemire), so
//! results are identical on 32- and 64-bit targets.

use rand_core::{RngCore, SeedableRng};

/// The engine's default generator.
pub type Rng = rand_xorshift::XorShiftRng;

/// Return a generator seeded from a 64-bit seed.
pub fn seeded(seed: u64) -> Rng {
    Rng::seed_from_u64(seed)
}

/// Return a uniform integer in `0..n` (`n > 0`), by multiply-shift.
#[inline(always)]
pub fn below<R: RngCore + ?Sized>(rng: &mut R, n: u32) -> u32 {
    ((rng.next_u32() as u64 * n as u64) >> 32) as u32
}

/// Return `true` with probability `threshold / 2^32`.
#[inline(always)]
pub fn chance<R: RngCore + ?Sized>(rng: &mut R, threshold: u32) -> bool {
    rng.next_u32() < threshold
}

/// Return the threshold for [`chance`] that gives probability `p` (clamped to 0..=1).
pub fn threshold(p: f64) -> u32 {
    if p <= 0.0 {
        0
    } else if p >= 1.0 {
        u32::MAX
    } else {
        (p * 4_294_967_296.0) as u32
    }
}
