//! The search: determinism, legality, pool exhaustion and pruning, tree
//! reuse, the best-move table and iterative deepening.

use kosumi_core::board::Board;
use kosumi_core::geometry::{Color, Point};
use kosumi_core::history::History;
use kosumi_core::search::{
    BestMoveTable, Budget, Clock, DeepeningParams, IterationReport, Knowledge, NoClock, Node,
    Params, Pool, Search, SearchResult,
};
use kosumi_core::table::{BestMoveCluster, Cluster};

type Tbl = BestMoveTable<Vec<BestMoveCluster>>;

fn table(clusters: usize) -> Tbl {
    BestMoveTable::new(vec![BestMoveCluster::EMPTY; clusters]).unwrap()
}

fn search(nodes: usize, params: Params, seed: u64) -> Search<Vec<Node>> {
    let mut s = Search::new(vec![Node::EMPTY; nodes], params).unwrap();
    s.set_seed(seed);
    s
}

fn run(s: &mut Search<Vec<Node>>, b: &Board, t: Option<&mut Tbl>, n: u32) -> SearchResult {
    s.run(
        b,
        14,
        &[],
        Budget::playouts(n),
        t,
        Knowledge::none(),
        &mut NoClock,
        &mut |_| {},
    )
    .unwrap()
}

/// Check the pool's links: every child block's parent is its owner, child
/// blocks follow their parent, and everything in use is reachable once.
fn check_tree<S: AsRef<[Node]> + AsMut<[Node]>>(pool: &Pool<S>) {
    let nodes = pool.nodes();
    let mut seen = vec![0u8; nodes.len()];
    seen[0] = 1;
    for (i, n) in nodes.iter().enumerate() {
        for c in n.children() {
            assert!(c > i, "child {c} before its parent {i}");
            assert!(c < nodes.len());
            seen[c] += 1;
        }
    }
    assert!(
        seen.iter().all(|&s| s == 1),
        "a node is unreachable or shared"
    );
}

#[test]
fn same_seed_same_search() {
    let b = Board::new(9).unwrap();
    let mut t1 = table(1024);
    let mut t2 = table(1024);
    let mut a = search(200_000, Params::default(), 5);
    let mut c = search(200_000, Params::default(), 5);
    let ra = run(&mut a, &b, Some(&mut t1), 5000);
    let rc = run(&mut c, &b, Some(&mut t2), 5000);
    assert_eq!(ra, rc);
    assert_eq!(a.pool().nodes(), c.pool().nodes());
    // A different seed gives a different tree.
    let mut d = search(200_000, Params::default(), 6);
    let mut t3 = table(1024);
    run(&mut d, &b, Some(&mut t3), 5000);
    assert_ne!(a.pool().nodes(), d.pool().nodes());
}

#[test]
fn static_pool_works() {
    static_search::<4096>();
}

fn static_search<const N: usize>() {
    let nodes = [Node::EMPTY; N];
    let mut s = Search::new(nodes, Params::default()).unwrap();
    let b = Board::new(9).unwrap();
    let r = s
        .run::<Vec<BestMoveCluster>, _>(
            &b,
            14,
            &[],
            Budget::playouts(2000),
            None,
            Knowledge::none(),
            &mut NoClock,
            &mut |_| {},
        )
        .unwrap();
    assert!(r.prunes > 0, "4096 nodes must fill on 2000 playouts");
    check_tree(s.pool());
}

#[test]
fn pool_too_small_is_an_error() {
    let mut s = search(100, Params::default(), 1);
    let b = Board::new(9).unwrap();
    let r = s.run::<Vec<BestMoveCluster>, _>(
        &b,
        14,
        &[],
        Budget::playouts(10),
        None,
        Knowledge::none(),
        &mut NoClock,
        &mut |_| {},
    );
    assert!(r.is_err());
}

/// A tiny pool and long searches: the pool prunes, the search goes on, and a
/// whole self-played game consists of legal moves.
#[test]
fn tiny_pool_prunes_and_plays_legal_moves() {
    let mut s = search(Search::<Vec<Node>>::min_nodes(9) * 2, Params::default(), 3);
    let mut t = table(256);
    let mut b = Board::new(9).unwrap();
    let mut h: History<1024> = History::new();
    h.push(b.position_hash());
    let mut prunes = 0;
    for _ in 0..60 {
        let c = b.to_play();
        let excluded: Vec<Point> = b
            .empty_points()
            .filter(|&p| b.is_legal(p, c) && h.repeats(&b, p, c))
            .collect();
        let r = s
            .run(
                &b,
                14,
                &excluded,
                Budget::playouts(3000),
                Some(&mut t),
                Knowledge::none(),
                &mut NoClock,
                &mut |_| {},
            )
            .unwrap();
        check_tree(s.pool());
        prunes += r.prunes;
        assert!(b.is_legal(r.best, c), "illegal move {:?}", r.best);
        assert!(!h.repeats(&b, r.best, c), "superko move {:?}", r.best);
        b.play_legal(r.best, c);
        h.push(b.position_hash());
        if b.passes() >= 2 {
            break;
        }
    }
    assert!(prunes > 10, "only {prunes} prunes");
}

#[test]
fn retain_reroots_and_prunes() {
    let mut s = search(
        100_000,
        Params {
            deepening: DeepeningParams {
                enabled: false,
                ..DeepeningParams::default()
            },
            ..Params::default()
        },
        2,
    );
    let b = Board::new(9).unwrap();
    run(&mut s, &b, None, 3000);
    check_tree(s.pool());
    // Play the best move and its best answer: the tree is reused.
    let r = run(&mut s, &b, None, 1);
    let mut b2 = b.clone();
    b2.play_legal(r.best, Color::Black);
    let r2 = s
        .run::<Vec<BestMoveCluster>, _>(
            &b2,
            14,
            &[],
            Budget::playouts(1),
            None,
            Knowledge::none(),
            &mut NoClock,
            &mut |_| {},
        )
        .unwrap();
    assert!(r2.reused > 100, "reused only {}", r2.reused);
    check_tree(s.pool());
    assert_eq!(s.pool().nodes()[0].key, b2.hash());
}

#[test]
fn excluded_moves_are_never_chosen() {
    let b = Board::new(9).unwrap();
    let mut s = search(100_000, Params::default(), 4);
    let first = run(&mut s, &b, None, 2000).best;
    s.clear_tree();
    let r = s
        .run::<Vec<BestMoveCluster>, _>(
            &b,
            14,
            &[first],
            Budget::playouts(2000),
            None,
            Knowledge::none(),
            &mut NoClock,
            &mut |_| {},
        )
        .unwrap();
    assert_ne!(r.best, first);
}

#[test]
fn takes_an_obvious_capture() {
    // Four white stones in atari at G6; black must take them.
    let b = Board::from_diagram(
        ". . . . . . . . .
         . . . . . . . . .
         . . X X X X . . .
         . X O O O O . . .
         . . X X X X . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .",
        Color::Black,
    )
    .unwrap();
    let mut s = search(200_000, Params::default(), 1);
    let r = run(&mut s, &b, None, 3000);
    let geo = b.geometry();
    assert_eq!(r.best, geo.parse_vertex("G6").unwrap());
}

/// Without `store_searches` a search that never fills its pool leaves the
/// table as it found it: the game is the one searched without a table. A
/// pool that prunes stores what it drops all the same.
#[test]
fn a_search_stores_its_best_moves_only_when_asked_or_pruning() {
    let b = Board::new(9).unwrap();
    let quiet = Params {
        store_searches: false,
        ..Params::default()
    };
    let mut t = table(4096);
    let with = run(&mut search(300_000, quiet, 9), &b, Some(&mut t), 3000);
    assert!(t.get(b.hash()).is_none(), "nothing stored");
    let without = run(&mut search(300_000, quiet, 9), &b, None, 3000);
    assert_eq!(
        (with.best, with.visits, with.nodes),
        (without.best, without.visits, without.nodes)
    );
    let mut small = search(Search::<Vec<Node>>::min_nodes(9) * 2, quiet, 9);
    let r = run(&mut small, &b, Some(&mut t), 3000);
    assert!(r.prunes > 0);
    assert!(
        t.get(b.hash()).is_some(),
        "the pruned tree's best moves are kept"
    );
}

#[test]
fn table_is_written_and_guides_a_new_tree() {
    let b = Board::new(9).unwrap();
    let mut t = table(4096);
    let mut s = search(300_000, Params::default(), 9);
    let r = run(&mut s, &b, Some(&mut t), 4000);
    let stored = t.get(b.hash()).expect("the root's best move is stored");
    assert_eq!(stored.mv, r.best.0);
    s.clear_tree();
    let r2 = run(&mut s, &b, Some(&mut t), 4000);
    assert!(r2.hits > 0, "a new tree over a warm table hits it");
}

/// Search the empty 9x9 board for 8,000 playouts in iterations of 500
/// and more, dropping the tree at each iteration's end or not; return the
/// result, the iteration reports and the search.
fn deepening_search(
    b: &Board,
    t: &mut Tbl,
    drop_tree: bool,
) -> (SearchResult, Vec<IterationReport>, Search<Vec<Node>>) {
    let params = Params {
        deepening: DeepeningParams {
            enabled: true,
            first: 500,
            keep_going_hits: 0.5,
            drop_tree,
        },
        ..Params::default()
    };
    let mut s = search(300_000, params, 9);
    let mut lines: Vec<IterationReport> = Vec::new();
    let r = s
        .run(
            b,
            14,
            &[],
            Budget::playouts(8000),
            Some(t),
            Knowledge::none(),
            &mut NoClock,
            &mut |r| lines.push(*r),
        )
        .unwrap();
    assert!(lines.len() >= 3, "{lines:?}");
    assert_eq!(lines.len() as u32, r.iterations);
    assert_eq!(lines.iter().map(|l| l.playouts).sum::<u32>(), 8000);
    (r, lines, s)
}

#[test]
fn deepening_reports_iterations() {
    let b = Board::new(9).unwrap();
    let (_, lines, _) = deepening_search(&b, &mut table(4096), true);
    assert!(lines.iter().skip(1).any(|l| l.hits > 0), "{lines:?}");
}

/// Iterations that keep the tree report as those that drop it and end the
/// search with the whole tree (many more nodes): the search one iteration
/// makes, move for move.
#[test]
fn deepening_that_keeps_the_tree_reports_and_keeps_it() {
    let b = Board::new(9).unwrap();
    let mut nodes = [0usize; 2];
    let mut kept = None;
    for (i, drop_tree) in [true, false].into_iter().enumerate() {
        let mut t = table(4096);
        let (r, _, s) = deepening_search(&b, &mut t, drop_tree);
        assert!(t.get(b.hash()).is_some(), "the root's best move is stored");
        check_tree(s.pool());
        nodes[i] = r.nodes;
        kept = Some((r.best, r.visits, r.nodes, r.win_rate));
    }
    let [dropped, kept_nodes] = nodes;
    assert!(
        kept_nodes > 2 * dropped,
        "kept {kept_nodes} nodes, dropped down to {dropped}"
    );
    let params = Params {
        deepening: DeepeningParams {
            enabled: false,
            ..DeepeningParams::default()
        },
        ..Params::default()
    };
    let mut s = search(300_000, params, 9);
    let mut t = table(4096);
    let r = run(&mut s, &b, Some(&mut t), 8000);
    assert_eq!(kept, Some((r.best, r.visits, r.nodes, r.win_rate)));
}

#[test]
fn time_budget_stops() {
    let b = Board::new(9).unwrap();
    let mut s = search(300_000, Params::default(), 9);
    let mut calls = 0u64;
    // A fake clock that advances 1 ms per read: 50 ms is 50 reads.
    let mut clock = || {
        calls += 1;
        calls
    };
    let r = s
        .run::<Vec<BestMoveCluster>, _>(
            &b,
            14,
            &[],
            Budget::time(50, 1_000_000),
            None,
            Knowledge::none(),
            &mut clock,
            &mut |_| {},
        )
        .unwrap();
    assert!(r.playouts <= 64 * 51, "{}", r.playouts);
}

/// The clock is the caller's hook between playouts: read every 64
/// playouts even when the budget is a playout count.
#[test]
fn a_playout_budget_still_reads_the_clock() {
    let b = Board::new(9).unwrap();
    let mut s = search(20_000, Params::default(), 9);
    let mut reads = 0u32;
    let mut clock = || {
        reads += 1;
        0
    };
    let r = s
        .run::<Vec<BestMoveCluster>, _>(
            &b,
            14,
            &[],
            Budget::playouts(640),
            None,
            Knowledge::none(),
            &mut clock,
            &mut |_| {},
        )
        .unwrap();
    assert_eq!(r.playouts, 640);
    assert_eq!(reads, 9, "after 64, 128, ..., 576 playouts");
}

/// The caller's stop (a GUI's interrupt) ends a search of a playout
/// budget, which no time limit would: at the third read of the clock.
#[test]
fn an_interrupt_stops_a_playout_budget() {
    struct Interrupt {
        reads: u32,
    }
    impl Clock for Interrupt {
        fn elapsed_ms(&mut self) -> u64 {
            self.reads += 1;
            0
        }
        fn interrupted(&mut self) -> bool {
            self.reads >= 3
        }
    }
    let b = Board::new(9).unwrap();
    let mut s = search(20_000, Params::default(), 9);
    let mut clock = Interrupt { reads: 0 };
    let r = s
        .run::<Vec<BestMoveCluster>, _>(
            &b,
            14,
            &[],
            Budget::playouts(100_000),
            None,
            Knowledge::none(),
            &mut clock,
            &mut |_| {},
        )
        .unwrap();
    assert_eq!(r.playouts, 3 * 64, "stopped at the third read");
    assert!(b.is_legal(r.best, Color::Black) || r.best.is_pass());
}

#[test]
fn table_entry_survives_low_quality_overwrite() {
    let mut t = table(1);
    let key = 0x1234_5678_9abc_def0;
    assert!(t.put(key, Point(30), 1 << 12, 8));
    // A brief revisit with few visits does not erase a deep result.
    assert!(!t.put(key, Point(31), 4, 2));
    assert_eq!(t.get(key).unwrap().mv, 30);
    assert!(t.put(key, Point(31), 1 << 12, 8));
    assert_eq!(t.get(key).unwrap().mv, 31);
    let _ = BestMoveCluster::EMPTY.entries();
}

/// A double pass is valued as the referee will count it: with the big
/// black chain (one liberty, A9: dead) taken off the board under rules
/// that remove dead stones, as it stands under Tromp-Taylor.
#[test]
fn a_pass_with_own_dead_stones_on_the_board_is_not_a_win() {
    let mut b = Board::from_diagram(
        "
        . X X X X X X X X
        X X X X X X X X X
        X X X X X X X X X
        X X X X X X X X X
        X X X X X X X X X
        X X X X X X X X X
        X X X X X O O O O
        X X X X X O . O .
        X X X X X O O O O
        ",
        Color::White,
    )
    .unwrap();
    b.play(Point::PASS, Color::White).unwrap();
    // Black's only legal move is the pass: the value is what differs.
    let value = |dead_removed: bool| {
        let params = Params {
            dead_removed,
            ..Params::default()
        };
        let mut s = search(20_000, params, 5);
        let r = run(&mut s, &b, None, 500);
        assert_eq!(r.best, Point::PASS);
        r.win_rate
    };
    assert!(value(false) > 0.99, "Tromp-Taylor: black's 69 points win");
    assert!(value(true) < 0.4, "the chain comes off: {}", value(true));
}

/// The playouts with last good replies: the search plays legal moves, the
/// same ones for a seed, and the memory holds replies afterwards.
#[test]
fn last_good_replies_are_learned_and_searches_stay_deterministic() {
    use kosumi_core::playout::{Replies, ReplyMemory};
    let b = Board::new(9).unwrap();
    fn run_with(b: &Board, replies: &mut Replies<Vec<u16>>) -> Point {
        let params = Params {
            policy: kosumi_core::playout::Policy::Heavy(kosumi_core::playout::Heavy::DEFAULT),
            ..Params::default()
        };
        let mut s = search(100_000, params, 9);
        let knowledge = Knowledge {
            replies: Some(replies),
            ..Knowledge::none()
        };
        s.run::<Vec<BestMoveCluster>, _>(
            b,
            14,
            &[],
            Budget::playouts(2000),
            None,
            knowledge,
            &mut NoClock,
            &mut |_| {},
        )
        .unwrap()
        .best
    }
    let mut r1 = Replies::new(vec![0u16; Replies::<Vec<u16>>::ENTRIES]).unwrap();
    let mut r2 = Replies::new(vec![0u16; Replies::<Vec<u16>>::ENTRIES]).unwrap();
    let (a, c) = (run_with(&b, &mut r1), run_with(&b, &mut r2));
    assert_eq!(a, c);
    assert!(b.is_legal(a, Color::Black) && !a.is_pass());
    let geo = b.geometry();
    let known = geo
        .points()
        .filter(|&p| r1.reply(Color::White, Point::PASS, p).is_some())
        .count();
    assert!(known > 20, "white knows replies to {known} black moves");
}

#[test]
#[cfg(feature = "scores")]
fn root_moves_carry_the_score_margins_of_their_playouts() {
    // White to move with four stones in atari: capturing them or not is
    // worth about ten points either way, and the side to move is White.
    let b = Board::from_diagram(
        ". . . . . . . . .
         . . . . . . . . .
         . . X X X X . . .
         . X O O O O . . .
         . . X X X X . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .",
        Color::White,
    )
    .unwrap();
    for deepening in [false, true] {
        let mut params = Params::default();
        params.deepening.enabled = deepening;
        let mut s = search(400_000, params, 3);
        let mut iterations = 0;
        s.run(
            &b,
            14,
            &[],
            Budget::playouts(20_000),
            Some(&mut table(1024)),
            Knowledge::none(),
            &mut NoClock,
            &mut |_| iterations += 1,
        )
        .unwrap();
        // With the deepening, the sums live through its iterations.
        assert!(!deepening || iterations >= 2, "{iterations} iterations");
        let mut infos = [kosumi_core::search::MoveInfo::EMPTY; 100];
        let n = s.root_moves(&mut infos);
        assert!(n > 1);
        for info in &infos[..n] {
            // One margin per playout through the move, in this tree.
            assert_eq!(info.score.n, info.visits, "deepening {deepening}");
        }
        let counted: u32 = infos[..n].iter().map(|i| i.score.n).sum();
        assert!(counted <= s.root_score().n);
        // White is behind: black surrounds four white stones with six.
        assert!(s.root_score().mean() < 0.0, "{:?}", s.root_score());
        assert!(s.root_score().variance() > 0.0);
    }
}

/// Progressive widening opens `base` children, then one more each time
/// the visits pass `start`, 1.4 times that, and so on; off, all of them.
#[test]
fn widening_opens_children_as_visits_grow() {
    use kosumi_core::search::Widening;
    let w = Widening { base: 3, start: 10 };
    assert_eq!(Widening::OFF.open(0, 82), 82);
    assert_eq!(w.open(0, 82), 3);
    assert_eq!(w.open(9, 82), 3);
    assert_eq!(w.open(10, 82), 4);
    // Thresholds 10, 15, 22, 31, 44, 62, ...: growing by about 1.4.
    assert_eq!(w.open(15, 82), 5);
    assert_eq!(w.open(44, 82), 8);
    assert!(w.open(1_000, 82) < 20);
    assert_eq!(w.open(u32::MAX, 82), 82);
    assert_eq!(w.open(1_000_000, 2), 2);
}

/// With widening, a node's children are ordered by their priors (the
/// capture of four stones first); with a cap, a node other than the root
/// keeps that many of its best-rated moves and pass, and the search still
/// plays legal moves in a small pool and takes the capture.
#[test]
fn capped_children_are_the_best_rated_and_pass() {
    let b = Board::from_diagram(
        ". . . . . . . . .
         . . . . . . . . .
         . . X X X X . . .
         . X O O O O . . .
         . . X X X X . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .",
        Color::Black,
    )
    .unwrap();
    let geo = b.geometry();
    let params = Params {
        widening: kosumi_core::search::Widening { base: 4, start: 10 },
        max_children: 6,
        ..Params::default()
    };
    let mut s = search(Search::<Vec<Node>>::min_nodes(9) * 2, params, 5);
    let r = run(&mut s, &b, None, 3000);
    check_tree(s.pool());
    assert_eq!(r.best, geo.parse_vertex("G6").unwrap());
    let nodes = s.pool().nodes();
    let root = nodes[0].children();
    assert_eq!(
        nodes[root.start].mv,
        geo.parse_vertex("G6").unwrap().0,
        "the best-rated child first"
    );
    assert!(root.len() > 60, "the root keeps every move");
    let mut capped = 0;
    for (i, n) in nodes.iter().enumerate().skip(1) {
        if n.is_expanded() && i < s.pool().len() {
            let children = &nodes[n.children()];
            assert!(children.len() <= 7, "{} children", children.len());
            assert!(children.iter().any(|c| c.mv == Point::PASS.0), "no pass");
            capped += 1;
        }
    }
    assert!(capped > 10, "only {capped} expanded nodes below the root");
}
