//! The seed's "rehash" table, the baseline `kosumi bench table` beats.
//!
//! One 8-byte entry per slot (48 check bits from the key's top, 16-bit
//! depth, 0 = empty, the seed's `key_depth`). The home slot is `key & mask`;
//! on a collision the probe moves to `key + REHASH_STEP`, up to
//! [`PROBES`] slots, each in a different cache line. A hit stops the walk,
//! an empty slot ends it (nothing was stored past it), and a miss replaces
//! the shallowest slot seen. A benchmark baseline, not a product.

/// Slots looked at per probe.
pub const PROBES: u64 = 3;

/// Added to the key for each re-probe (odd, so it walks every slot).
const REHASH_STEP: u64 = 0x9E37_79B9_7F4A_7C15;

/// A rehash table over a caller-provided slot array.
pub struct Rehash<'a> {
    slots: &'a mut [u64],
    mask: u64,
}

impl<'a> Rehash<'a> {
    /// Return a table over `slots`, whose length must be a power of two.
    pub fn new(slots: &'a mut [u64]) -> Self {
        assert!(slots.len().is_power_of_two());
        let mask = slots.len() as u64 - 1;
        Rehash { slots, mask }
    }

    /// Probe `key`; on a miss store `depth` in the least valuable slot seen.
    /// Return whether it was a hit.
    #[inline]
    pub fn probe_store(&mut self, key: u64, depth: u16) -> bool {
        let check = key >> 16;
        let mut victim = 0usize;
        let mut victim_depth = u32::MAX;
        for i in 0..PROBES {
            let at = (key.wrapping_add(i.wrapping_mul(REHASH_STEP)) & self.mask) as usize;
            let e = self.slots[at];
            let d = u32::from(e as u16);
            if d == 0 {
                victim = at;
                break;
            }
            if e >> 16 == check {
                return true;
            }
            if d < victim_depth {
                victim = at;
                victim_depth = d;
            }
        }
        self.slots[victim] = (check << 16) | u64::from(depth);
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rehash_finds_stored_keys_and_walks_on_collision() {
        let mut slots = vec![0u64; 16];
        let mut t = Rehash::new(&mut slots);
        let a = 0x1234_5678_0000_0003;
        let b = 0x8765_4321_0000_0003; // same home slot
        assert!(!t.probe_store(a, 5));
        assert!(!t.probe_store(b, 6));
        assert!(t.probe_store(a, 5));
        assert!(t.probe_store(b, 6));
        assert_eq!(slots.iter().filter(|&&e| e != 0).count(), 2);
    }
}
