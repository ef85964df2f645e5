//! The tactical reader: hand-made problems (answers checked against GNU Go
//! 3.8's `attack` / `defend`), cache on / off / warmed identical over
//! thousands of playout positions, relevance of the region key, budgets,
//! memory.

mod positions;

use kosumi_core::board::Board;
use kosumi_core::geometry::{Color, Point};
use kosumi_core::table::{Cluster, Table, TacticCluster};
use kosumi_core::tactics::{Answer, Budget, Goal, Problem, Reader, Verdict, MAX_DEPTH};

type Cache = Table<TacticCluster, Box<[TacticCluster]>>;

fn cache(clusters: usize) -> Cache {
    Table::new(vec![TacticCluster::EMPTY; clusters].into_boxed_slice()).unwrap()
}

fn board(diagram: &str) -> Board {
    Board::from_diagram(diagram, Color::Black).expect("diagram")
}

fn vertex(b: &Board, v: &str) -> Point {
    b.geometry().parse_vertex(v).unwrap()
}

fn name(b: &Board, p: Point) -> String {
    let mut buf = [0u8; 4];
    b.geometry().vertex_str(p, &mut buf).to_string()
}

/// Solve with and without a cache; check the board is restored, the two
/// answers agree, and the verdict and move are as expected (`moves`: the
/// acceptable key moves separated by `|`, empty for none).
fn check(diagram_board: &Board, goal: Goal, target: &str, code: u8, moves: &str) -> Answer {
    let mut b = diagram_board.clone();
    let problem = Problem {
        goal,
        target: vertex(&b, target),
    };
    let mut plain = Reader::without_cache();
    let a = plain.solve(&mut b, problem, Budget::default());
    assert!(b.identical(diagram_board), "board not restored");
    let mut table = cache(1 << 10);
    let mut cached = Reader::new(&mut table);
    assert_eq!(cached.solve(&mut b, problem, Budget::default()), a);
    assert_eq!(
        cached.solve(&mut b, problem, Budget::default()),
        a,
        "from the cache"
    );
    assert_eq!(cached.stats().hits, 1);
    assert!(a.proven, "{goal:?} {target}: unproven {a:?}");
    assert_eq!(
        a.verdict.code(),
        code,
        "{goal:?} {target}: {a:?} {}",
        name(&b, a.key_move)
    );
    let mv = name(&b, a.key_move);
    if moves.is_empty() {
        assert!(a.key_move.is_pass(), "{goal:?} {target}: move {mv}");
    } else {
        assert!(
            moves.split('|').any(|m| m == mv),
            "{goal:?} {target}: move {mv}, want {moves}"
        );
    }
    a
}

const LADDER_2LIBS: &str = "
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . O . . . . .
. . O X . . . . .
. . . . O . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .";

const LADDER_ATARI: &str = "
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . O . . . . .
. . O X . . . . .
. . . O O . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .";

const LADDER_BREAKER: &str = "
. . . . . . . . .
. . . . . . X . .
. . . . . . . . .
. . . O . . . . .
. . O X . . . . .
. . . O O . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .";

const SNAPBACK: &str = "
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
X X X X . . . . .
O O O X . . . . .
. . O X . . . . .";

const CAPTURE_TO_ESCAPE: &str = "
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. O O X . . . . .
O . X O . . . . .
. O O X . . . . .
. . . . . . . . .";

const KO: &str = "
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. X O . . . . . .
X O . O . . . . .
. X O . . . . . .";

#[test]
fn ladder_with_two_liberties_works_either_way() {
    let b = board(LADDER_2LIBS);
    check(&b, Goal::Capture, "D5", 1, "D4|E5");
    check(&b, Goal::Save, "D5", 1, "D4|E5");
}

#[test]
fn ladder_in_atari_works_to_the_edge() {
    let b = board(LADDER_ATARI);
    check(&b, Goal::Capture, "D5", 1, "E5");
    let a = check(&b, Goal::Save, "D5", 0, "");
    assert!(a.plies > 5, "the ladder runs to the edge: {a:?}");
}

#[test]
fn ladder_breaker_saves_the_prey() {
    let b = board(LADDER_BREAKER);
    check(&b, Goal::Capture, "D5", 1, "E5");
    check(&b, Goal::Save, "D5", 1, "E5");
}

#[test]
fn snapback_captures_a_two_liberty_chain() {
    let b = board(SNAPBACK);
    check(&b, Goal::Capture, "C2", 1, "A1|B1");
    check(&b, Goal::Save, "C2", 0, "");
}

#[test]
fn capturing_an_adjacent_chain_escapes() {
    let b = board(CAPTURE_TO_ESCAPE);
    check(&b, Goal::Capture, "C3", 1, "B3");
    check(&b, Goal::Save, "C3", 1, "E3");
}

#[test]
fn ko_is_reported_not_looped_on() {
    let b = board(KO);
    // Taking B2 is a ko capture: succeeds if black takes the ko first.
    check(&b, Goal::Capture, "B2", 2, "C2");
    check(&b, Goal::Save, "B2", 1, "A1|C2");
    // After black takes, white may not retake at once: needs a threat.
    let mut b = b;
    b.play(vertex(&b, "C2"), Color::Black).unwrap();
    assert_eq!(b.ko(), Some(vertex(&b, "B2")));
    check(&b, Goal::Capture, "C2", 3, "B2");
    check(&b, Goal::Save, "C2", 1, "D1");
}

#[test]
fn empty_target_fails_without_searching() {
    let mut b = board(KO);
    let e5 = vertex(&b, "E5");
    let mut r = Reader::without_cache();
    let a = r.solve(
        &mut b,
        Problem {
            goal: Goal::Capture,
            target: e5,
        },
        Budget::default(),
    );
    assert_eq!(a.verdict, Verdict::Fails);
    assert_eq!(r.stats().nodes, 0);
}

/// A 19x19 ladder from the lower left corner across the board, optionally
/// with a breaker on its path.
fn long_ladder(breaker: bool) -> Board {
    let mut b = Board::new(19).unwrap();
    let g = b.geometry();
    for (x, y) in [(3, 4), (2, 3), (3, 2), (4, 2)] {
        b.setup_stone(g.point(x, y), Color::White).unwrap();
    }
    b.setup_stone(g.point(3, 3), Color::Black).unwrap();
    if breaker {
        b.setup_stone(g.point(15, 15), Color::Black).unwrap();
    }
    b
}

#[test]
fn long_ladder_on_19x19() {
    let b = long_ladder(false);
    let a = check(&b, Goal::Save, "D4", 0, "");
    assert!(a.plies >= 20, "{a:?}");
    check(&b, Goal::Capture, "D4", 1, "E4");
    let b = long_ladder(true);
    check(&b, Goal::Save, "D4", 1, "E4");
}

/// Return the problems of a position: capture and save of every chain with
/// one or two liberties (one stone per chain).
fn problems(b: &Board) -> Vec<Problem> {
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for p in b.geometry().points() {
        let Some(root) = b.chain_root(p) else {
            continue;
        };
        if seen.contains(&root) || b.liberty_count_capped::<3>(p) > 2 {
            continue;
        }
        seen.push(root);
        for goal in [Goal::Capture, Goal::Save] {
            out.push(Problem { goal, target: p });
        }
    }
    out
}

#[test]
fn cache_on_off_and_warmed_agree_on_playout_positions() {
    let budget = Budget {
        nodes: 5_000,
        depth: 40,
    };
    let mut warm_table = cache(1 << 12);
    let mut warm = Reader::new(&mut warm_table);
    let mut plain = Reader::without_cache();
    let (mut positions, mut solved, mut unproven) = (0, 0, 0);
    for (size, games, every, seed) in [(9, 60, 7, 1), (19, 12, 23, 2)] {
        for mut b in positions::playout_positions(size, games, size * size * 3 / 2, every, seed) {
            let list = problems(&b);
            if list.is_empty() {
                continue;
            }
            positions += 1;
            let before = b.clone();
            let mut fresh_table = cache(1 << 8);
            let mut fresh = Reader::new(&mut fresh_table);
            for &pr in &list {
                let off = plain.solve(&mut b, pr, budget);
                assert!(b.identical(&before), "board not restored");
                let on = fresh.solve(&mut b, pr, budget);
                let again = fresh.solve(&mut b, pr, budget);
                let warmed = warm.solve(&mut b, pr, budget);
                assert_eq!(on, off, "cache on vs off, {pr:?}\n{b}");
                assert_eq!(again, off, "cache hit vs off, {pr:?}\n{b}");
                assert_eq!(warmed, off, "warmed cache vs off, {pr:?}\n{b}");
                solved += 1;
                unproven += usize::from(!off.proven);
            }
            assert!(b.identical(&before));
        }
    }
    let s = warm.stats();
    println!(
        "{positions} positions, {solved} problems ({unproven} unproven); warmed: {} nodes, {} probes, {} hits, {} stores",
        s.nodes, s.probes, s.hits, s.stores
    );
    assert!(
        positions >= 1000 && solved >= 3000,
        "{positions} positions, {solved} problems"
    );
    assert!(s.hits > 0);
}

#[test]
fn same_shape_elsewhere_hits_the_cache() {
    // The capture-to-escape shape in the lower left of a 19x19 board.
    let mut a = Board::new(19).unwrap();
    let g = a.geometry();
    let shape = [
        ("B4", Color::White),
        ("C4", Color::White),
        ("D4", Color::Black),
        ("A3", Color::White),
        ("C3", Color::Black),
        ("D3", Color::White),
        ("B2", Color::White),
        ("C2", Color::White),
        ("D2", Color::Black),
    ];
    for (v, c) in shape {
        a.setup_stone(g.parse_vertex(v).unwrap(), c).unwrap();
    }
    let mut b = a.clone();
    a.setup_stone(g.parse_vertex("Q16").unwrap(), Color::Black)
        .unwrap();
    for v in ["K10", "R3", "C17", "O12"] {
        b.setup_stone(g.parse_vertex(v).unwrap(), Color::White)
            .unwrap();
    }
    let mut table = cache(1 << 10);
    let mut r = Reader::new(&mut table);
    for goal in [Goal::Save, Goal::Capture] {
        let pa = Problem {
            goal,
            target: g.parse_vertex("C3").unwrap(),
        };
        let first = r.solve(&mut a, pa, Budget::default());
        let hits = r.stats().hits;
        // Ask about the same chain by another... its only stone, on the other board.
        let second = r.solve(&mut b, pa, Budget::default());
        assert_eq!(
            r.stats().hits,
            hits + 1,
            "{goal:?}: not answered from the cache"
        );
        assert_eq!(first, second);
        let mut plain = Reader::without_cache();
        assert_eq!(plain.solve(&mut b, pa, Budget::default()), second);
    }
}

#[test]
fn save_a_chain_by_any_of_its_stones_hashes_alike() {
    let b0 = board(LADDER_BREAKER);
    let mut b = b0.clone();
    // Extend the prey so it has two stones: D5 and E5.
    b.play(vertex(&b, "E5"), Color::Black).unwrap();
    let (d5, e5) = (vertex(&b, "D5"), vertex(&b, "E5"));
    let mut table = cache(1 << 10);
    let mut r = Reader::new(&mut table);
    let one = r.solve(
        &mut b,
        Problem {
            goal: Goal::Capture,
            target: d5,
        },
        Budget::default(),
    );
    let two = r.solve(
        &mut b,
        Problem {
            goal: Goal::Capture,
            target: e5,
        },
        Budget::default(),
    );
    assert_eq!(one, two);
    assert_eq!(r.stats().hits, 1);
}

#[test]
fn an_unproven_result_is_not_reused_by_a_deeper_search() {
    let mut b = long_ladder(false);
    let p = Problem {
        goal: Goal::Save,
        target: vertex(&b, "D4"),
    };
    let mut table = cache(1 << 10);
    let mut r = Reader::new(&mut table);
    let shallow = r.solve(
        &mut b,
        p,
        Budget {
            nodes: 100_000,
            depth: 8,
        },
    );
    assert!(!shallow.proven, "{shallow:?}");
    // Same or smaller depth: the stored bound answers.
    let again = r.solve(
        &mut b,
        p,
        Budget {
            nodes: 100_000,
            depth: 6,
        },
    );
    assert!(!again.proven);
    assert_eq!(r.stats().hits, 1);
    // Deeper: searched again, and proven.
    let deep = r.solve(
        &mut b,
        p,
        Budget {
            nodes: 100_000,
            depth: MAX_DEPTH,
        },
    );
    assert!(deep.proven && deep.verdict == Verdict::Fails, "{deep:?}");
    assert_eq!(r.stats().hits, 1);
    // A proven result serves any budget deep enough for its plies.
    let reuse = r.solve(
        &mut b,
        p,
        Budget {
            nodes: 100_000,
            depth: deep.plies,
        },
    );
    assert_eq!(reuse, deep);
    assert_eq!(r.stats().hits, 2);
    // But not a budget too shallow for it.
    let short = r.solve(
        &mut b,
        p,
        Budget {
            nodes: 100_000,
            depth: deep.plies - 1,
        },
    );
    assert!(!short.proven);
    assert_eq!(r.stats().hits, 2);
}

#[test]
fn node_budget_stops_the_search_and_is_not_stored() {
    let mut b = long_ladder(false);
    let p = Problem {
        goal: Goal::Save,
        target: vertex(&b, "D4"),
    };
    let mut table = cache(1 << 10);
    let mut r = Reader::new(&mut table);
    let a = r.solve(
        &mut b,
        p,
        Budget {
            nodes: 5,
            depth: MAX_DEPTH,
        },
    );
    assert!(!a.proven);
    assert!(r.stats().nodes <= 5);
    assert_eq!(r.stats().stores, 0);
    let full = r.solve(&mut b, p, Budget::default());
    assert!(full.proven);
}

#[test]
fn memory_is_bounded() {
    let size = core::mem::size_of::<Reader<'static>>();
    let mut b = long_ladder(false);
    let d4 = vertex(&b, "D4");
    let mut r = Reader::without_cache();
    let a = r.solve(
        &mut b,
        Problem {
            goal: Goal::Save,
            target: d4,
        },
        Budget::default(),
    );
    let stack = r.stack_high_water();
    println!(
        "Reader: {size} bytes; recursion stack on a 19x19 ladder of {} plies: {stack} bytes",
        a.plies
    );
    assert!(size <= 40 * 1024, "reader is {size} bytes");
    assert!(stack <= 32 * 1024, "stack {stack} bytes");
}

#[test]
#[ignore = "speed measurement; run with --release --ignored --nocapture"]
fn ladder_speed() {
    let mut b = long_ladder(false);
    let p = Problem {
        goal: Goal::Save,
        target: vertex(&b, "D4"),
    };
    let mut r = Reader::without_cache();
    let t = std::time::Instant::now();
    let mut n = 0;
    while t.elapsed().as_secs_f64() < 2.0 {
        for _ in 0..100 {
            r.solve(&mut b, p, Budget::default());
        }
        n += 100;
    }
    let s = t.elapsed().as_secs_f64();
    let nodes = r.stats().nodes;
    println!(
        "{n} solves, {nodes} nodes, {:.0} nodes/s, {:.1} us/solve, {} nodes/solve",
        nodes as f64 / s,
        s * 1e6 / n as f64,
        nodes / n
    );
}
