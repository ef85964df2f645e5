//! Life and death at the root ([`kosumi_core::search::dragons`]): the weak
//! dragons the owl is asked about, and the marks its answers give the
//! side to move (its defence of an own unsettled dragon, its attack on an
//! enemy one), on diagrams.

mod common;

use common::eye_shapes::{FOUR, THREE, TWO};
use kosumi_core::board::Board;
use kosumi_core::geometry::{Color, Point};
use kosumi_core::search::dragons::{read_dragons, MIN_STONES};
use kosumi_core::search::prior::{prior, Mark, Reading};
use kosumi_core::table::{Cluster, Table, TacticCluster};
use kosumi_core::tactics::owl::{weak_dragons, Dragon};
use kosumi_core::tactics::{Budget, Owl, Reader};

/// The budget of each question, as in play (the host's `--owl-budget`).
const BUDGET: Budget = Budget {
    nodes: 5_000,
    depth: 20,
};

fn board(diagram: &str, to_play: Color) -> Board {
    Board::from_diagram(diagram, to_play).expect("diagram")
}

fn at(b: &Board, v: &str) -> Point {
    b.geometry().parse_vertex(v).unwrap()
}

/// Return the marks of `to_play` on `diagram`, as `(vertex, mark)`, and
/// check the board is restored.
fn marks(diagram: &str, to_play: Color) -> Vec<(String, Mark)> {
    let before = board(diagram, to_play);
    let mut b = before.clone();
    let mut table: Table<TacticCluster, Box<[TacticCluster]>> =
        Table::new(vec![TacticCluster::EMPTY; 1 << 12].into_boxed_slice()).unwrap();
    let mut reader = Reader::new(&mut table);
    let mut owl: Box<Owl> = Box::default();
    let d = read_dragons(&mut b, to_play, &mut owl, &mut reader, BUDGET, 8);
    assert!(b.identical(&before), "board not restored");
    let mut buf = [0u8; 4];
    d.marks
        .iter()
        .map(|(p, m)| (b.geometry().vertex_str(p, &mut buf).to_uppercase(), m))
        .collect()
}

#[test]
fn black_lives_at_the_middle_of_a_straight_three_and_white_kills_there() {
    assert_eq!(
        marks(THREE, Color::Black),
        [("B1".to_string(), Mark::Lives(5))]
    );
    assert_eq!(
        marks(THREE, Color::White),
        [("B1".to_string(), Mark::Kills(5))]
    );
}

#[test]
fn settled_dragons_get_no_mark() {
    // Alive whoever plays (not even asked), and dead whoever plays.
    for diagram in [FOUR, TWO] {
        for c in [Color::Black, Color::White] {
            assert_eq!(marks(diagram, c), [], "{diagram}");
        }
    }
}

#[test]
fn the_weak_dragons_come_largest_first_and_alive_ones_are_left_out() {
    // Black: the straight three's five stones (weak), a three-stone
    // chain in the open (weak: no eyes yet), two stones (too few); white's
    // wall of nine with the right side open.
    let b = board(
        "
. . . . . . . . .
. . . . . . . . .
. X X X . . . X .
. . . . . . . X .
. . . . . . . . .
. . . . . . . . .
O O O O O . . . .
X X X X O . . . .
. . . X O . . . .",
        Color::Black,
    );
    let mut out = [Dragon {
        stone: Point::PASS,
        stones: 0,
    }; 8];
    let n = weak_dragons(&b, MIN_STONES, &mut out);
    let found: Vec<(Color, u16)> = out[..n]
        .iter()
        .map(|d| (b.at(d.stone).color().unwrap(), d.stones))
        .collect();
    assert!(found.contains(&(Color::Black, 5)), "{found:?}");
    assert!(found.contains(&(Color::Black, 3)), "{found:?}");
    assert!(!found.iter().any(|&(_, s)| s < MIN_STONES as u16));
    assert!(found.windows(2).all(|w| w[0].1 >= w[1].1), "{found:?}");
    // Room for one: the largest.
    let mut one = [out[0]];
    assert_eq!(weak_dragons(&b, MIN_STONES, &mut one), 1);
    assert_eq!(one[0].stones, found[0].1);
    // A living dragon is left out.
    let alive = board(FOUR, Color::Black);
    let n = weak_dragons(&alive, MIN_STONES, &mut out);
    assert!(
        !out[..n]
            .iter()
            .any(|d| alive.at(d.stone).color() == Some(Color::Black)),
        "the straight four is alive"
    );
}

#[test]
fn a_move_that_decides_a_dragon_gets_a_larger_prior() {
    let b = board(THREE, Color::Black);
    let p = at(&b, "B1");
    let mut reading = Reading::NONE;
    let plain = prior(&b, p, Color::Black, None, &reading, 0.0);
    reading.push(p, Mark::Lives(5));
    let marked = prior(&b, p, Color::Black, None, &reading, 0.0);
    assert!(marked.visits > plain.visits);
    assert!(marked.wins / marked.visits > plain.wins / plain.visits);
    // Another move keeps its prior.
    let q = at(&b, "A1");
    assert_eq!(
        prior(&b, q, Color::Black, None, &reading, 0.0),
        prior(&b, q, Color::Black, None, &Reading::NONE, 0.0)
    );
}
