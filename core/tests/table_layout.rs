//! Layout of every entry and cluster type, and round-trips of every packed
//! field at its limits.

use core::mem::{align_of, size_of};

use kosumi_core::table::{
    BestMove, BestMoveCluster, BestMoveEntry, Bound, Cluster, DepthCluster, DepthEntry, Entry,
    Tactic, TacticCluster, TacticEntry, Winner,
};

fn layout<C: Cluster>() -> (usize, usize, usize, usize) {
    (
        size_of::<C>(),
        align_of::<C>(),
        C::EMPTY.entries().len(),
        size_of::<C::Entry>(),
    )
}

#[test]
fn cluster_sizes_alignments_and_ways() {
    assert_eq!(layout::<DepthCluster>(), (32, 32, 4, 8));
    assert_eq!(layout::<BestMoveCluster>(), (64, 64, 8, 8));
    assert_eq!(layout::<TacticCluster>(), (32, 32, 3, 10));
    assert_eq!(align_of::<TacticEntry>(), 1);
}

#[test]
fn empty_entries_are_empty_and_default() {
    fn check<E: Entry + Default + PartialEq + core::fmt::Debug>() {
        assert!(E::EMPTY.is_empty());
        assert_eq!(E::EMPTY, E::default(), "EMPTY must be all-zero fields");
    }
    check::<DepthEntry>();
    check::<BestMoveEntry>();
    check::<TacticEntry>();
    assert!(DepthCluster::EMPTY.entries().iter().all(Entry::is_empty));
    assert!(BestMoveCluster::EMPTY.entries().iter().all(Entry::is_empty));
    assert!(TacticCluster::EMPTY.entries().iter().all(Entry::is_empty));
}

#[test]
fn depth_fields_round_trip_at_limits() {
    let max_check = (1u64 << 48) - 1;
    for check in [0, 1, 0xAAAA_AAAA_AAAA, max_check] {
        for depth in [1u16, 2, 0x8000, u16::MAX] {
            let e = DepthEntry::pack(check, depth, 0);
            assert_eq!((e.check(), e.data(), e.generation()), (check, depth, 0));
            assert!(!e.is_empty());
            assert_eq!(e.worth(), i32::from(depth));
        }
    }
    // Depth 0 proves nothing: it is the empty entry.
    assert!(DepthEntry::pack(max_check, 0, 0).is_empty());
}

#[test]
fn best_move_fields_round_trip_at_limits() {
    let max_check = (1u64 << 34) - 1;
    for check in [0, 1, max_check] {
        for generation in [1u8, 17, 31] {
            for mv in [0u16, 1, 361, u16::MAX] {
                for visits_log2 in [0u8, 1, 31] {
                    for depth_log2 in [0u8, 1, 15] {
                        let data = BestMove {
                            mv,
                            visits_log2,
                            depth_log2,
                        };
                        let e = BestMoveEntry::pack(check, data, generation);
                        assert_eq!(e.check(), check);
                        assert_eq!(e.generation(), generation);
                        assert_eq!(e.data(), data);
                        assert!(!e.is_empty());
                        assert_eq!(
                            e.worth(),
                            2 * i32::from(visits_log2) + i32::from(depth_log2)
                        );
                    }
                }
            }
        }
    }
    // Out-of-range log2 values saturate instead of spilling into neighbours.
    let e = BestMoveEntry::pack(
        0,
        BestMove {
            mv: 7,
            visits_log2: 200,
            depth_log2: 200,
        },
        1,
    );
    assert_eq!(
        e.data(),
        BestMove {
            mv: 7,
            visits_log2: 31,
            depth_log2: 15
        }
    );
    assert_eq!(
        BestMove::new(5, u32::MAX, u32::MAX),
        BestMove {
            mv: 5,
            visits_log2: 31,
            depth_log2: 15
        }
    );
    assert_eq!(
        BestMove::new(5, 0, 0),
        BestMove {
            mv: 5,
            visits_log2: 0,
            depth_log2: 0
        }
    );
    assert_eq!(
        BestMove::new(5, 1024, 1023),
        BestMove {
            mv: 5,
            visits_log2: 10,
            depth_log2: 9
        }
    );
}

#[test]
fn tactic_fields_round_trip_at_limits() {
    assert_eq!(Bound::new(Winner::Black, 64), None);
    let winners = [Winner::Nobody, Winner::Black, Winner::White];
    let max_check = (1u64 << 40) - 1;
    for w in winners {
        for plies in [0u8, 1, 62, 63] {
            let b = Bound::new(w, plies).unwrap();
            assert_eq!((b.winner(), b.plies()), (w, plies));
        }
    }
    for check in [0, 1, 0x12_3456_789A, max_check] {
        for generation in [1u8, 128, 255] {
            for mv in [0u16, 440, u16::MAX] {
                for (wa, wb) in [
                    (winners[0], winners[2]),
                    (winners[1], winners[1]),
                    (winners[2], winners[0]),
                ] {
                    for (pa, pb) in [(0u8, 63u8), (63, 0), (63, 63)] {
                        let data = Tactic {
                            alpha: Bound::new(wa, pa).unwrap(),
                            beta: Bound::new(wb, pb).unwrap(),
                            mv,
                        };
                        let e = TacticEntry::pack(check, data, generation);
                        assert_eq!(e.check(), check);
                        assert_eq!(e.generation(), generation);
                        assert_eq!(e.data(), data);
                        assert!(!e.is_empty());
                        assert_eq!(e.worth(), i32::from(pa.max(pb)));
                    }
                }
            }
        }
    }
}
