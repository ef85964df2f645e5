//! Probe and store: hits, victims, updates in place, ageing, fill and clear.

use kosumi_core::table::{
    BestMove, BestMoveCluster, Bound, Cluster, DepthCluster, SliceTable, StaticTable, Table,
    TableError, Tactic, TacticCluster, Winner,
};

/// Return a key for cluster `cluster` of a 4-cluster table with check bits `check`.
fn key4(cluster: u64, check: u64) -> u64 {
    (cluster << 62) | check
}

fn store(t: &mut StaticTable<DepthCluster, 4>, key: u64, depth: u16) {
    let p = t.probe(key);
    t.store(p.slot, depth);
}

#[test]
fn miss_then_hit_returns_the_stored_data() {
    let mut t = StaticTable::<DepthCluster, 4>::new_static();
    let k = key4(2, 0x1234);
    let p = t.probe(k);
    assert_eq!(p.data, None);
    assert_eq!((p.slot.cluster(), p.slot.way()), (2, 0));
    t.store(p.slot, 17);
    let p = t.probe(k);
    assert_eq!(p.data, Some(17));
    assert_eq!((p.slot.cluster(), p.slot.way()), (2, 0));
    // Another cluster is untouched.
    assert_eq!(t.probe(key4(1, 0x1234)).data, None);
}

#[test]
fn least_valuable_entry_is_replaced() {
    let mut t = StaticTable::<DepthCluster, 4>::new_static();
    let depths = [5u16, 9, 2, 7];
    for (i, d) in depths.iter().enumerate() {
        let p = t.probe(key4(3, 100 + i as u64));
        assert_eq!(p.slot.way(), i, "empty entries are filled in order");
        t.store(p.slot, *d);
    }
    let p = t.probe(key4(3, 999));
    assert_eq!(p.data, None);
    assert_eq!(p.slot.way(), 2, "depth 2 is the least valuable");
    t.store(p.slot, 4);
    assert_eq!(t.probe(key4(3, 102)).data, None, "the victim is gone");
    for (i, d) in [(0, 5), (1, 9), (3, 7)] {
        assert_eq!(t.probe(key4(3, 100 + i)).data, Some(d));
    }
    assert_eq!(t.probe(key4(3, 999)).data, Some(4));
    // Next victim: depth 4 at way 2 again.
    assert_eq!(t.probe(key4(3, 1000)).slot.way(), 2);
}

#[test]
fn same_key_updates_in_place() {
    let mut t = StaticTable::<DepthCluster, 4>::new_static();
    for i in 0..4 {
        store(&mut t, key4(0, 10 + i), 3);
    }
    let p = t.probe(key4(0, 12));
    assert_eq!((p.data, p.slot.way()), (Some(3), 2));
    t.store(p.slot, 30);
    for i in [10, 11, 13] {
        assert_eq!(t.probe(key4(0, i)).data, Some(3), "other entries survive");
    }
    assert_eq!(t.probe(key4(0, 12)).data, Some(30));
}

#[test]
fn storing_depth_zero_leaves_the_slot_empty() {
    let mut t = StaticTable::<DepthCluster, 4>::new_static();
    store(&mut t, key4(0, 1), 0);
    assert_eq!(t.probe(key4(0, 1)).data, None);
    assert_eq!(t.hashfull(0), 0);
}

fn tactic(plies: u8) -> Tactic {
    let b = Bound::new(Winner::Black, plies).unwrap();
    Tactic {
        alpha: b,
        beta: b,
        mv: u16::from(plies),
    }
}

#[test]
fn aged_entries_go_first() {
    // Three ways; one index bit, so cluster 0 is keys below 2^63.
    let mut t = StaticTable::<TacticCluster, 2>::new_static();
    let (old, young_a, young_b) = (1u64, 2, 3);
    let p = t.probe(old);
    t.store(p.slot, tactic(7));
    t.new_search();
    for k in [young_a, young_b] {
        let p = t.probe(k);
        t.store(p.slot, tactic(1));
    }
    // Old: 7 - 8 * 1 = -1 < 1, so it goes although it is the deepest.
    let p = t.probe(4);
    assert_eq!(p.slot.way(), 0);
    // A deep enough old entry is kept: 20 - 8 = 12 > 1.
    let p = t.probe(old);
    t.store(p.slot, tactic(20));
    t.new_search();
    t.new_search();
    let p = t.probe(young_a);
    t.store(p.slot, tactic(1)); // refresh young_a to the current generation.
                                // Values now: old 20 - 8 * 2 = 4, young_a 1 - 0 = 1, young_b 1 - 16 = -15.
    let p = t.probe(5);
    assert_eq!(p.slot.way(), 2, "young_b is now the oldest and shallowest");
}

#[test]
fn equal_worth_entries_lose_to_age() {
    let mut t = StaticTable::<BestMoveCluster, 1>::new_static();
    let bm = BestMove::new(42, 1000, 8);
    for k in 0..8u64 {
        if k == 5 {
            continue;
        }
        let p = t.probe(k);
        t.store(p.slot, bm);
    }
    t.new_search();
    let p = t.probe(5);
    let young_way = p.slot.way();
    assert_eq!(young_way, 7, "the first empty way");
    t.store(p.slot, bm);
    // All full; every entry but key 5 is one search old: the first old one goes.
    assert_eq!(t.probe(100).slot.way(), 0);
    t.new_search();
    for k in 0..8u64 {
        if k != 3 {
            let p = t.probe(k);
            t.store(p.slot, bm);
        }
    }
    assert_eq!(
        t.probe(100).slot.way(),
        3,
        "the only old entry is the victim"
    );
}

#[test]
fn generations_cycle_without_zero() {
    let mut t = StaticTable::<BestMoveCluster, 1>::new_static();
    let mut seen = [false; 32];
    for _ in 0..100 {
        t.new_search();
        seen[usize::from(t.generation())] = true;
        let p = t.probe(1);
        t.store(p.slot, BestMove::new(1, 1, 1));
        assert_eq!(t.probe(1).data, Some(BestMove::new(1, 1, 1)));
    }
    assert!(!seen[0]);
    assert!(seen[1..].iter().all(|s| *s), "all of 1..=31 are used");
}

#[test]
fn hashfull_counts_current_entries_and_clear_empties() {
    let mut t = StaticTable::<DepthCluster, 16>::new_static();
    assert_eq!(t.hashfull(0), 0);
    // Fill exactly: four checks in each of the 16 clusters (4 index bits).
    for c in 0..16u64 {
        for i in 0..4 {
            let p = t.probe((c << 60) | (i + 1));
            assert_eq!(p.data, None);
            t.store(p.slot, 1);
        }
    }
    assert_eq!(t.hashfull(0), 1000);
    t.clear();
    assert_eq!(t.hashfull(0), 0);
    assert_eq!(t.probe(1).data, None);

    let mut b = StaticTable::<BestMoveCluster, 4>::new_static();
    for k in 0..16u64 {
        let p = b.probe(((k & 3) << 62) | k);
        b.store(p.slot, BestMove::new(1, 1, 1));
    }
    assert_eq!(b.hashfull(0), 500);
    b.new_search();
    assert_eq!(b.hashfull(0), 0, "last search's entries are not current");
    assert_eq!(b.hashfull(1), 500);
}

#[test]
fn slice_tables_check_their_storage() {
    let mut none: Vec<DepthCluster> = Vec::new();
    assert_eq!(
        SliceTable::new(&mut none[..]).err(),
        Some(TableError::Empty)
    );
    let mut three = [DepthCluster::EMPTY; 3];
    assert_eq!(
        SliceTable::new(&mut three[..]).err(),
        Some(TableError::NotPowerOfTwo)
    );
    let mut buf = vec![DepthCluster::EMPTY; 1024];
    let mut t = SliceTable::new(&mut buf[..]).unwrap();
    assert_eq!((t.clusters(), t.capacity()), (1024, 4096));
    let p = t.probe(u64::MAX);
    assert_eq!(p.slot.cluster(), 1023);
    t.store(p.slot, 9);
    assert_eq!(t.probe(u64::MAX).data, Some(9));
    // An owned boxed slice works the same way.
    let mut owned: Table<DepthCluster, Box<[DepthCluster]>> =
        Table::new(vec![DepthCluster::EMPTY; 8].into_boxed_slice()).unwrap();
    let p = owned.probe(7);
    owned.store(p.slot, 1);
    assert_eq!(owned.probe(7).data, Some(1));
}

#[cfg(feature = "stats")]
#[test]
fn stats_count_probes_hits_stores_and_replacements() {
    use kosumi_core::table::Stats;
    let mut t = StaticTable::<DepthCluster, 1>::new_static();
    for k in 1..=5u64 {
        let p = t.probe(k);
        t.store(p.slot, 1);
    }
    let p = t.probe(5);
    t.store(p.slot, 2);
    assert_eq!(
        t.stats(),
        Stats {
            probes: 6,
            hits: 1,
            stores: 6,
            replacements: 1
        }
    );
    t.reset_stats();
    assert_eq!(t.stats(), Stats::default());
}

#[cfg(not(feature = "stats"))]
#[test]
fn stats_are_zero_when_compiled_out() {
    let mut t = StaticTable::<DepthCluster, 1>::new_static();
    let p = t.probe(1);
    t.store(p.slot, 1);
    assert_eq!(t.stats(), kosumi_core::table::Stats::default());
}
