//! Key split properties: index and check bits never overlap, keys that
//! differ in index bits never share a cluster, keys that differ in check
//! bits never hit each other. Also shows how a new entry kind is defined.

use kosumi_core::table::{
    Cluster, Cluster32, DepthCluster, Entry, KeySplit, SliceTable, TableError, MIN_CHECK_BITS,
};
use proptest::prelude::*;

/// A test entry kind with more check bits than most tables can store:
/// 60 check bits and a 4-bit non-zero tag in one `u64`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Wide {
    key60_tag4: u64,
}

impl Entry for Wide {
    type Data = u8;
    const CHECK_BITS: u32 = 60;
    const GENERATION_BITS: u32 = 0;
    const EMPTY: Self = Wide { key60_tag4: 0 };

    fn pack(check: u64, tag: u8, _generation: u8) -> Self {
        Wide {
            key60_tag4: (check << 4) | u64::from(tag & 0xf),
        }
    }
    fn check(&self) -> u64 {
        self.key60_tag4 >> 4
    }
    fn data(&self) -> u8 {
        (self.key60_tag4 & 0xf) as u8
    }
    fn generation(&self) -> u8 {
        0
    }
    fn is_empty(&self) -> bool {
        self.data() == 0
    }
    fn worth(&self) -> i32 {
        i32::from(self.data())
    }
}

type WideCluster = Cluster32<Wide, 4>;

#[test]
fn effective_bits_match_the_documented_table() {
    // (clusters, entry check bits) -> (index, stored check, effective).
    let cases: &[(u64, u32, (u32, u32, u32))] = &[
        (512, 48, (9, 48, 57)),      // depth, 16 KiB
        (1 << 15, 48, (15, 48, 63)), // depth, 1 MiB
        (1 << 16, 48, (16, 48, 64)), // depth, 2 MiB
        (1 << 25, 48, (25, 39, 64)), // depth, 1 GiB
        (256, 34, (8, 34, 42)),      // best move, 16 KiB
        (1 << 24, 34, (24, 34, 58)), // best move, 1 GiB
        (1 << 25, 40, (25, 39, 64)), // tactic, 1 GiB
        (1, 48, (0, 48, 48)),
    ];
    for &(n, c, want) in cases {
        let Ok(n) = usize::try_from(n) else { continue };
        let s = KeySplit::new(n, c).unwrap();
        assert_eq!(
            (s.index_bits(), s.check_bits(), s.effective_bits()),
            want,
            "{n} clusters"
        );
        assert_eq!(s.index_mask() & s.check_mask(), 0);
        assert_eq!(s.index_mask().count_ones(), s.index_bits());
        assert_eq!(s.check_mask().count_ones(), s.check_bits());
    }
}

#[test]
fn bad_cluster_counts_are_errors() {
    assert_eq!(KeySplit::new(0, 48), Err(TableError::Empty));
    assert_eq!(KeySplit::new(3, 48), Err(TableError::NotPowerOfTwo));
    assert_eq!(KeySplit::new(1000, 48), Err(TableError::NotPowerOfTwo));
    #[cfg(target_pointer_width = "64")]
    {
        let limit = 1usize << (64 - MIN_CHECK_BITS);
        assert_eq!(
            KeySplit::new(limit, 48).unwrap().check_bits(),
            MIN_CHECK_BITS
        );
        assert_eq!(KeySplit::new(limit << 1, 48), Err(TableError::TooLarge));
    }
    #[cfg(target_pointer_width = "32")]
    {
        let _ = MIN_CHECK_BITS;
        assert_eq!(
            KeySplit::new(1usize << 31, 48).unwrap().effective_bits(),
            64
        );
    }
}

/// Return `d` restricted to `mask`, or the lowest bit of `mask` if that is 0.
fn nonzero_within(d: u64, mask: u64) -> u64 {
    let x = d & mask;
    if x == 0 {
        mask & mask.wrapping_neg()
    } else {
        x
    }
}

proptest! {
    #[test]
    fn split_masks_are_disjoint(log2 in 0u32..=(usize::BITS - 1).min(48), check in 1u32..=64, key: u64) {
        let s = KeySplit::new(1usize << log2, check).unwrap();
        prop_assert_eq!(s.index_mask() & s.check_mask(), 0);
        prop_assert!(s.effective_bits() <= 64);
        prop_assert!(s.index(key) < (1usize << log2));
        prop_assert_eq!(s.check(key) & !s.check_mask(), 0);
    }

    #[test]
    fn index_bits_separate_clusters(log2 in 1u32..=(usize::BITS - 1).min(48), check in 1u32..=64, key: u64, d: u64) {
        let s = KeySplit::new(1usize << log2, check).unwrap();
        let other = key ^ nonzero_within(d, s.index_mask());
        prop_assert_ne!(s.index(key), s.index(other));
        prop_assert_eq!(s.check(key), s.check(other));
    }

    #[test]
    fn check_bits_separate_keys(log2 in 0u32..=(usize::BITS - 1).min(48), check in 1u32..=64, key: u64, d: u64) {
        let s = KeySplit::new(1usize << log2, check).unwrap();
        let other = key ^ nonzero_within(d, s.check_mask());
        prop_assert_eq!(s.index(key), s.index(other));
        prop_assert_ne!(s.check(key), s.check(other));
    }
}

/// Store `key` in `table`, then check what probing `other` reports.
fn store_then_probe<C: Cluster>(
    table: &mut SliceTable<'_, C>,
    key: u64,
    data: <C::Entry as Entry>::Data,
    other: u64,
) -> (usize, usize, bool) {
    let p = table.probe(key);
    let home = p.slot.cluster();
    table.store(p.slot, data);
    let q = table.probe(other);
    (home, q.slot.cluster(), q.data.is_some())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn depth_table_keys_differing_in_check_bits_never_hit(key: u64, d: u64) {
        let mut buf = vec![DepthCluster::EMPTY; 512];
        let mut t = SliceTable::new(&mut buf[..]).unwrap();
        let other = key ^ nonzero_within(d, t.split().check_mask());
        let (home, there, hit) = store_then_probe(&mut t, key, 3, other);
        prop_assert_eq!(home, there);
        prop_assert!(!hit);
        prop_assert_eq!(t.probe(key).data, Some(3));
    }

    #[test]
    fn depth_table_keys_differing_in_index_bits_never_share(key: u64, d: u64) {
        let mut buf = vec![DepthCluster::EMPTY; 512];
        let mut t = SliceTable::new(&mut buf[..]).unwrap();
        let other = key ^ nonzero_within(d, t.split().index_mask());
        let (home, there, hit) = store_then_probe(&mut t, key, 3, other);
        prop_assert_ne!(home, there);
        prop_assert!(!hit);
    }

    #[test]
    fn clamped_check_bits_still_separate(key: u64, d: u64, in_index: bool) {
        // 1024 clusters leave 54 of Wide's 60 check bits.
        let mut buf = vec![WideCluster::EMPTY; 1024];
        let mut t = SliceTable::new(&mut buf[..]).unwrap();
        prop_assert_eq!(t.split().check_bits(), 54);
        let mask = if in_index { t.split().index_mask() } else { t.split().check_mask() };
        let other = key ^ nonzero_within(d, mask);
        let (home, there, hit) = store_then_probe(&mut t, key, 5, other);
        prop_assert_eq!(home == there, !in_index);
        prop_assert!(!hit);
        prop_assert_eq!(t.probe(key).data, Some(5));
    }
}
