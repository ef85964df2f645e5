//! The end of a game as a scorer who removes dead stones counts it
//! (`kosumi_core::game::scoring`, shared by the host and the firmware).

use kosumi_core::board::Board;
use kosumi_core::game::{passing_wins, Ownership};
use kosumi_core::geometry::{Color, Point};

/// Black's wall on the D column, white's on the F column, and a lone white
/// stone inside black's side.
const WALLS: &str = "
    . . . X . O . . .
    . . . X . O . . .
    . . . X . O . . .
    . . . X . O . . .
    . O . X . O . . .
    . . . X . O . . .
    . . . X . O . . .
    . . . X . O . . .
    . . . X . O . . .
";

fn walls() -> (Board, Point) {
    let board = Board::from_diagram(WALLS, Color::Black).expect("diagram");
    let lone = board.geometry().parse_vertex("b5").expect("vertex");
    (board, lone)
}

#[test]
fn a_lone_stone_in_the_opponents_area_is_dead_and_comes_off() {
    let (board, lone) = walls();
    let own = Ownership::estimate(&board, 14, 64, 1, &mut board.clone());
    assert!(own.is_dead(&board, lone));
    let wall = board.geometry().parse_vertex("d5").unwrap();
    let other = board.geometry().parse_vertex("f5").unwrap();
    assert!(!own.is_dead(&board, wall) && !own.is_dead(&board, other));
    assert!(own.black_share(board.geometry().parse_vertex("a1").unwrap()) > 0.5);
    // 36 points each, the E column neutral, komi 7: W+7. As the board
    // stands the lone stone makes black's side neutral: W+35.
    assert_eq!(own.final_margin2(&board, 14), -14);
    assert_eq!(board.score(14).margin2(), -70);
}

#[test]
fn passing_wins_when_both_counts_agree() {
    let (board, _) = walls();
    // With komi 7 white wins either way; with black given 8 points of
    // reverse komi black leads once the stone is off (B+8), but the board
    // as it stands (W+20) still favours white: passing does not win for
    // black, who must capture first.
    let mut scratch = board.clone();
    assert!(passing_wins(&board, 14, Color::White, 64, 1, &mut scratch));
    assert!(!passing_wins(
        &board,
        -16,
        Color::Black,
        64,
        1,
        &mut scratch
    ));
}

#[test]
fn one_estimate_gives_the_margin_passing_wins_counts() {
    // The conservative pass asks `passing_wins` and `is_over` of one
    // estimate: its majority margin is the one `estimated_margin2` counts
    // from the same seeded playouts.
    let (board, _) = walls();
    let own = Ownership::estimate(&board, 14, 64, 5, &mut board.clone());
    let rng = &mut kosumi_core::rng::seeded(5);
    let counted = kosumi_core::playout::estimated_margin2(&board, 14, 64, rng, &mut board.clone());
    assert_eq!(own.majority_margin2(&board, 14), counted);
    assert_eq!(
        kosumi_core::game::scoring::passing_wins_by(&board, 14, Color::White, Some(&own)),
        passing_wins(&board, 14, Color::White, 64, 5, &mut board.clone())
    );
}
