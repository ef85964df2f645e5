//! The absolute cache's keys over playout positions, for all three readers
//! (capture, connection, life and death): a problem asked by any stone of
//! its chain finds the entry the same problem stored when asked by another
//! stone (same answer, one hit); another problem (the other goal, another
//! chain, the other question of a connection or a dragon) finds nothing;
//! and the problem hashes of all the problems of all the positions are
//! distinct.

mod positions;

use std::collections::HashMap;

use positions::playout_positions;

use kosumi_core::board::Board;
use kosumi_core::geometry::{Color, Point};
use kosumi_core::table::{Cluster, Table, TacticCluster};
use kosumi_core::tactics::key::{
    link_problem_hash, owl_problem_hash, problem_hash, CLASS_CAPTURE, CLASS_CONNECT,
    CLASS_DISCONNECT, CLASS_OWL_KILL, CLASS_OWL_LIVE, CLASS_SAVE,
};
use kosumi_core::tactics::{
    Budget, Connector, Goal, LinkGoal, LinkProblem, Owl, OwlGoal, OwlProblem, Problem, Reader,
};

type Cache = Table<TacticCluster, Box<[TacticCluster]>>;

fn cache() -> Cache {
    Table::new(vec![TacticCluster::EMPTY; 1 << 12].into_boxed_slice()).unwrap()
}

/// The chains of a position: (colour, stones in board order), one entry
/// per chain.
fn chains(b: &Board) -> Vec<(Color, Vec<Point>)> {
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for p in b.geometry().points() {
        let (Some(root), Some(c)) = (b.chain_root(p), b.at(p).color()) else {
            continue;
        };
        if !seen.contains(&root) {
            seen.push(root);
            out.push((c, b.chain_stones(p).collect()));
        }
    }
    out
}

/// Manhattan distance between the nearest stones of two chains.
fn gap(b: &Board, x: &[Point], y: &[Point]) -> usize {
    let geo = b.geometry();
    let xy = |p: Point| geo.coords(p);
    x.iter()
        .flat_map(|&p| y.iter().map(move |&q| (p, q)))
        .map(|(p, q)| {
            let ((a, b), (c, d)) = (xy(p), xy(q));
            a.abs_diff(c) + b.abs_diff(d)
        })
        .min()
        .unwrap_or(usize::MAX)
}

/// What one reader's counters say of a question asked again by another
/// stone, and of a different question asked after it.
#[derive(Default, Debug)]
struct Tally {
    /// Questions whose first answer was stored, asked again by another
    /// stone of the chain (each must hit and answer the same).
    again: usize,
    /// Different questions asked after a stored one (none may hit).
    other: usize,
}

/// Call `each` on every position of the playouts `(size, games, every,
/// seed)` (games of at most size² moves) with the tally it keeps; print
/// the tally and return it.
fn tally(
    playouts: &[(usize, u64, usize, u64)],
    mut each: impl FnMut(&mut Board, &mut Tally),
) -> Tally {
    let mut t = Tally::default();
    for &(size, games, every, seed) in playouts {
        for mut b in playout_positions(size, games, size * size, every, seed) {
            each(&mut b, &mut t);
        }
    }
    println!("{t:?}");
    t
}

#[test]
fn capture_problems_by_any_stone_share_an_entry_and_others_do_not() {
    let budget = Budget {
        nodes: 5_000,
        depth: 40,
    };
    let t = tally(&[(9, 12, 9, 11), (19, 2, 31, 12)], |b, t| {
        let all = chains(b);
        for (i, (_, stones)) in all.iter().enumerate() {
            // Another chain is asked too: two chains at least.
            if all.len() < 2 || stones.len() < 2 || b.liberty_count_capped::<4>(stones[0]) > 3 {
                continue;
            }
            let (first, last) = (stones[0], stones[stones.len() - 1]);
            let mut table = cache();
            let mut r = Reader::new(&mut table);
            let ask = |goal, target| Problem { goal, target };
            let one = r.solve(b, ask(Goal::Capture, first), budget);
            if r.stats().stores == 0 {
                continue;
            }
            let two = r.solve(b, ask(Goal::Capture, last), budget);
            assert_eq!((one, r.stats().hits), (two, 1), "capture again\n{b}");
            t.again += 1;
            r.solve(b, ask(Goal::Save, first), budget);
            let other = all[(i + 1) % all.len()].1[0];
            r.solve(b, ask(Goal::Capture, other), budget);
            assert_eq!(r.stats().hits, 1, "save, or another chain, hit\n{b}");
            t.other += 2;
        }
    });
    assert!(t.again >= 300, "{t:?}");
}

#[test]
fn connection_problems_by_any_stones_share_an_entry_and_others_do_not() {
    let budget = Budget {
        nodes: 5_000,
        depth: 40,
    };
    let t = tally(&[(9, 5, 11, 21), (13, 2, 29, 22)], |b, t| {
        let all = chains(b);
        for (x, (cx, sx)) in all.iter().enumerate() {
            let Some((_, sy)) = all[x + 1..]
                .iter()
                .find(|(cy, sy)| cy == cx && gap(b, sx, sy) <= 3)
            else {
                continue;
            };
            if sx.len() < 2 {
                continue;
            }
            let mut table = cache();
            let mut r = Reader::new(&mut table);
            let mut c: Connector = Connector::new();
            let ask = |goal, a, b| LinkProblem { goal, a, b };
            let (a1, a2, b1) = (sx[0], sx[sx.len() - 1], sy[0]);
            let one = c.solve(&mut r, b, ask(LinkGoal::Connect, a1, b1), budget);
            if c.stats().stores == 0 {
                continue;
            }
            // The other stone, and the chains the other way round.
            let two = c.solve(&mut r, b, ask(LinkGoal::Connect, b1, a2), budget);
            assert_eq!((one, c.stats().hits), (two, 1), "connect again\n{b}");
            t.again += 1;
            c.solve(&mut r, b, ask(LinkGoal::Disconnect, a1, b1), budget);
            assert_eq!(c.stats().hits, 1, "disconnect hit connect's entry\n{b}");
            t.other += 1;
        }
    });
    assert!(t.again >= 150, "{t:?}");
}

#[test]
fn owl_problems_by_any_stone_share_an_entry_and_others_do_not() {
    let budget = Budget {
        nodes: 2_000,
        depth: 20,
    };
    let t = tally(&[(9, 16, 13, 31), (13, 3, 37, 32)], |b, t| {
        for (_, stones) in chains(b) {
            if stones.len() < 3 {
                continue;
            }
            let (first, last) = (stones[0], stones[stones.len() - 1]);
            let mut table = cache();
            let mut r = Reader::new(&mut table);
            let mut owl: Box<Owl> = Box::default();
            let ask = |goal, target| OwlProblem { goal, target };
            let one = owl.solve(&mut r, b, ask(OwlGoal::Kill, first), budget);
            if owl.stats().stores == 0 {
                continue;
            }
            let two = owl.solve(&mut r, b, ask(OwlGoal::Kill, last), budget);
            assert_eq!((one, owl.stats().hits), (two, 1), "kill again\n{b}");
            t.again += 1;
            owl.solve(&mut r, b, ask(OwlGoal::Live, first), budget);
            assert_eq!(owl.stats().hits, 1, "live hit kill's entry\n{b}");
            t.other += 1;
        }
    });
    assert!(t.again >= 100, "{t:?}");
}

#[test]
fn the_problem_hashes_of_every_question_on_playout_positions_differ() {
    // Problem hash -> the question it names; a second question under one
    // hash is a collision.
    let mut seen: HashMap<u64, String> = HashMap::new();
    let mut put = |h: u64, q: String| {
        if let Some(before) = seen.insert(h, q.clone()) {
            assert_eq!(before, q, "two problems share the hash {h:#x}");
        }
    };
    for (size, seed) in [(9, 41), (13, 42), (19, 43)] {
        for b in playout_positions(size, 4, size * size, 17, seed) {
            let all = chains(&b);
            for (x, (cx, sx)) in all.iter().enumerate() {
                let id = sx[0];
                let q = |what: &str| format!("{size} {what} {}", id.0);
                put(
                    problem_hash(CLASS_CAPTURE, Goal::Capture, size, id),
                    q("capture"),
                );
                put(problem_hash(CLASS_SAVE, Goal::Save, size, id), q("save"));
                put(
                    owl_problem_hash(CLASS_OWL_KILL, OwlGoal::Kill, size, id, true),
                    q("kill+"),
                );
                put(
                    owl_problem_hash(CLASS_OWL_KILL, OwlGoal::Kill, size, id, false),
                    q("kill"),
                );
                put(
                    owl_problem_hash(CLASS_OWL_LIVE, OwlGoal::Live, size, id, false),
                    q("live"),
                );
                for (cy, sy) in &all[x + 1..] {
                    if cy != cx {
                        continue;
                    }
                    let (a, c) = (id, sy[0]);
                    let link = |what: &str| format!("{size} {what} {} {}", a.0, c.0);
                    // Either order names the same problem.
                    let h = link_problem_hash(CLASS_CONNECT, LinkGoal::Connect, size, a, c);
                    assert_eq!(
                        h,
                        link_problem_hash(CLASS_CONNECT, LinkGoal::Connect, size, c, a)
                    );
                    put(h, link("connect"));
                    put(
                        link_problem_hash(CLASS_DISCONNECT, LinkGoal::Disconnect, size, a, c),
                        link("cut"),
                    );
                }
            }
        }
    }
    assert!(seen.len() >= 5_000, "{} problems", seen.len());
}
