//! The search's priors checked by the tactical reader: a ladder escape
//! that fails is discouraged, the move that saves a chain from a ladder
//! and a ladder capture are encouraged; the board is restored.

use kosumi_core::board::Board;
use kosumi_core::geometry::{Color, Point};
use kosumi_core::search::prior::{prior, read, Mark, Prior, Reading};
use kosumi_core::search::Params;
use kosumi_core::table::{Cluster, Table, TacticCluster};
use kosumi_core::tactics::Reader;

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

/// White D4 with two liberties (E4, D3): black E4 starts a working ladder.
const TWO_LIBS: &str = "
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . X . . . . .
. . X O . . . . .
. . X . . . . . .
. . . . . . . . .
. . . . . . . . .
";

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
    let plain = prior(&b, d3, Color::White, None, &Reading::NONE);
    let read = prior(&b, d3, Color::White, None, &r);
    assert!(value(plain) > 0.5, "heuristic escape bonus: {plain:?}");
    assert!(value(read) < 0.5, "read escape into a ladder: {read:?}");
    assert_eq!(marks(&b, &r, "D3"), [Mark::FailsToEscape]);
}

#[test]
fn saving_a_chain_from_a_ladder_is_encouraged() {
    // White to move: D4 has two liberties and black threatens a ladder.
    let mut b = board(TWO_LIBS, Color::White);
    let r = reading(&mut b);
    let saves: Vec<&str> = ["E4", "D3"]
        .into_iter()
        .filter(|at| marks(&b, &r, at) == [Mark::Saves(1)])
        .collect();
    assert_eq!(saves.len(), 1, "one key move saves D4: {r:?}");
    let p = v(&b, saves[0]);
    let plain = prior(&b, p, Color::White, None, &Reading::NONE);
    let read = prior(&b, p, Color::White, None, &r);
    assert!(
        value(plain) <= 0.5 && value(read) > 0.5,
        "saving move {}: {plain:?} -> {read:?}",
        saves[0]
    );
}

#[test]
fn ladder_capture_is_encouraged() {
    let mut b = board(TWO_LIBS, Color::Black);
    let (e4, d3) = (v(&b, "E4"), v(&b, "D3"));
    let r = reading(&mut b);
    let plain = prior(&b, e4, Color::Black, None, &Reading::NONE);
    let read = prior(&b, e4, Color::Black, None, &r);
    assert!(
        read.visits > plain.visits && value(read) > value(plain),
        "ladder capture at E4: {plain:?} -> {read:?}"
    );
    assert_eq!(marks(&b, &r, "E4"), [Mark::Captures(1)]);
    // The other atari lets white out: no bonus.
    let other = prior(&b, d3, Color::Black, None, &r);
    assert_eq!(other, prior(&b, d3, Color::Black, None, &Reading::NONE));
}
