//! The search's priors checked by the tactical reader: a ladder escape
//! that fails is discouraged, the move that saves a chain from a ladder
//! and a ladder capture are encouraged, chains away from the recent moves
//! are not read; the board is restored; the search asks its reader at
//! expansions, and not with a zero budget.

use kosumi_core::board::Board;
use kosumi_core::geometry::{Color, Point};
use kosumi_core::search::prior::{prior, read, Mark, Prior, Reading};
use kosumi_core::search::{
    Budget as SearchBudget, Knowledge, NoClock, Node, Params, ReadBudget, Search,
};
use kosumi_core::table::{BestMoveCluster, Cluster, Table, TacticCluster};
use kosumi_core::tactics::{Answer, Budget, Problem, Reader, Solver};

/// White D4 in atari; extending at D3 leaves two liberties and a ladder.
const LADDER: &str = "
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . X . . . . .
. . X O X . . . .
. . X . . . . . .
. . . . . . . . .
. . . . . . . . .
";

/// White D4 before black C3 takes a liberty: then D4 has two (E4, D3)
/// and black E4 starts a working ladder.
const BEFORE_C3: &str = "
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . X . . . . .
. . X O . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
";

/// Return the position after black C3 (white to move), and with
/// `far_reply` after a white reply far away (black to move): the chains
/// read are those near the recent moves.
fn two_libs(far_reply: bool) -> Board {
    let mut b = board(BEFORE_C3, Color::Black);
    b.play(v(&b, "C3"), Color::Black).unwrap();
    if far_reply {
        b.play(v(&b, "H8"), Color::White).unwrap();
    }
    b
}

/// No shape bonus: these tests weigh the reading terms alone (a saving
/// move is often a hane, which the shape patterns like anyway).
const SHAPE: f32 = 0.0;

fn board(diagram: &str, to_play: Color) -> Board {
    Board::from_diagram(diagram, to_play).expect("diagram")
}

fn v(b: &Board, s: &str) -> Point {
    b.geometry().parse_vertex(s).unwrap()
}

/// Read `b` for its side to move with a fresh cache and the search's
/// default budget; check the board is unchanged.
fn reading(b: &mut Board) -> Reading {
    let mut cache = Table::new(vec![TacticCluster::EMPTY; 256].into_boxed_slice()).unwrap();
    let mut reader = Reader::new(&mut cache);
    let before = b.clone();
    let c = b.to_play();
    let r = read(b, c, &mut reader, Params::default().reading);
    assert!(b.identical(&before), "reading changed the board");
    r
}

fn value(p: Prior) -> f32 {
    p.wins / p.visits
}

fn marks(b: &Board, r: &Reading, at: &str) -> Vec<Mark> {
    r.of(v(b, at)).collect()
}

#[test]
fn failing_ladder_escape_is_discouraged() {
    let mut b = board(LADDER, Color::White);
    let d3 = v(&b, "D3");
    let r = reading(&mut b);
    assert!(!r.is_empty(), "nothing read");
    let plain = prior(&b, d3, Color::White, None, &Reading::NONE, SHAPE);
    let read = prior(&b, d3, Color::White, None, &r, SHAPE);
    assert!(value(plain) > 0.5, "heuristic escape bonus: {plain:?}");
    assert!(value(read) < 0.5, "read escape into a ladder: {read:?}");
    assert_eq!(marks(&b, &r, "D3"), [Mark::FailsToEscape]);
}

#[test]
fn saving_a_chain_from_a_ladder_is_encouraged() {
    // White to move: D4 has two liberties and black threatens a ladder.
    let mut b = two_libs(false);
    let r = reading(&mut b);
    let saves: Vec<&str> = ["E4", "D3"]
        .into_iter()
        .filter(|at| marks(&b, &r, at) == [Mark::Saves(1)])
        .collect();
    assert_eq!(saves.len(), 1, "one key move saves D4: {r:?}");
    let p = v(&b, saves[0]);
    let plain = prior(&b, p, Color::White, None, &Reading::NONE, SHAPE);
    let read = prior(&b, p, Color::White, None, &r, SHAPE);
    assert!(
        value(plain) <= 0.5 && value(read) > 0.5,
        "saving move {}: {plain:?} -> {read:?}",
        saves[0]
    );
}

#[test]
fn ladder_capture_is_encouraged() {
    let mut b = two_libs(true);
    let (e4, d3) = (v(&b, "E4"), v(&b, "D3"));
    let r = reading(&mut b);
    let plain = prior(&b, e4, Color::Black, None, &Reading::NONE, SHAPE);
    let read = prior(&b, e4, Color::Black, None, &r, SHAPE);
    assert!(
        read.visits > plain.visits && value(read) > value(plain),
        "ladder capture at E4: {plain:?} -> {read:?}"
    );
    assert_eq!(marks(&b, &r, "E4"), [Mark::Captures(1)]);
    // The other atari lets white out: no bonus.
    let other = prior(&b, d3, Color::Black, None, &r, SHAPE);
    assert_eq!(
        other,
        prior(&b, d3, Color::Black, None, &Reading::NONE, SHAPE)
    );
}

#[test]
fn chains_away_from_the_recent_moves_are_not_read() {
    // Black to move after two white moves far from D4: nothing near them.
    let mut b = board(BEFORE_C3, Color::Black);
    b.play(v(&b, "C3"), Color::Black).unwrap();
    b.play(v(&b, "H8"), Color::White).unwrap();
    b.play(v(&b, "J9"), Color::Black).unwrap();
    b.play(v(&b, "H2"), Color::White).unwrap();
    assert!(reading(&mut b).is_empty());
}

/// A reader that counts the problems it is asked.
struct Counting<'a, S: Solver> {
    inner: &'a mut S,
    asked: u32,
}

impl<S: Solver> Solver for Counting<'_, S> {
    fn solve(&mut self, board: &mut Board, problem: Problem, budget: Budget) -> Answer {
        self.asked += 1;
        self.inner.solve(board, problem, budget)
    }
}

fn search_asks(params: Params) -> (u32, Point) {
    let b = board(LADDER, Color::White);
    let mut s = Search::new(vec![Node::EMPTY; 20_000], params).unwrap();
    let mut cache = Table::new(vec![TacticCluster::EMPTY; 256].into_boxed_slice()).unwrap();
    let mut reader = Reader::new(&mut cache);
    let mut counting = Counting {
        inner: &mut reader,
        asked: 0,
    };
    let r = s
        .run::<Vec<BestMoveCluster>, _>(
            &b,
            14,
            &[],
            SearchBudget::playouts(500),
            None,
            Knowledge::tactics(Some(&mut counting)),
            &mut NoClock,
            &mut |_| {},
        )
        .unwrap();
    (counting.asked, r.best)
}

#[test]
fn the_search_reads_at_expansions_within_its_budget() {
    let (asked, _) = search_asks(Params::default());
    assert!(asked > 0, "the search never asked the reader");
    let off = Params {
        reading: ReadBudget { nodes: 0, depth: 0 },
        ..Params::default()
    };
    assert_eq!(search_asks(off).0, 0, "a zero budget still read");
}
