//! The 3x3 shape patterns of the priors: a pattern drawn once matches at
//! the marked point `*` in all 8 symmetries of the board and with the
//! colours swapped; empty and loose neighbourhoods do not match; the table
//! is closed under colour swap; a matching move gets the shape prior.

use kosumi_core::board::Board;
use kosumi_core::geometry::{Color, Point};
use kosumi_core::search::prior::{prior, Reading};
use kosumi_core::shape::{matches, PATTERNS};

/// Return the rows of `diagram` as grids of letters (spaces dropped).
fn grid(diagram: &str) -> Vec<Vec<char>> {
    diagram
        .lines()
        .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<Vec<_>>())
        .filter(|r| !r.is_empty())
        .collect()
}

/// Return `g` turned a quarter turn clockwise.
fn rotate(g: &[Vec<char>]) -> Vec<Vec<char>> {
    let n = g.len();
    (0..n)
        .map(|r| (0..n).map(|c| g[n - 1 - c][r]).collect())
        .collect()
}

/// Return `g` as a diagram.
fn text(g: &[Vec<char>]) -> String {
    g.iter()
        .map(|r| r.iter().collect::<String>() + "\n")
        .collect()
}

/// Return the 16 variants of `diagram`: 4 rotations, mirrored or not,
/// colours as drawn or swapped.
fn variants(diagram: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut g = grid(diagram);
    for k in 0..8 {
        if k == 4 {
            for row in g.iter_mut() {
                row.reverse();
            }
        }
        let swapped: Vec<Vec<char>> = g
            .iter()
            .map(|r| {
                r.iter()
                    .map(|&c| match c {
                        'X' => 'O',
                        'O' => 'X',
                        c => c,
                    })
                    .collect()
            })
            .collect();
        out.push(text(&g));
        out.push(text(&swapped));
        g = rotate(&g);
    }
    out
}

/// Return the board of `diagram` (black to move) and its point marked `*`.
fn marked(diagram: &str) -> (Board, Point) {
    let mut at = None;
    let board = Board::from_diagram_marked(diagram, Color::Black, |p, ch| {
        if ch == '*' {
            at = Some(p);
        }
    })
    .expect("diagram");
    (board, at.expect("a point marked *"))
}

/// Assert that `*` matches (or not) in every variant of `diagram`, with
/// either colour to move.
fn check(diagram: &str, expect: bool) {
    let all = variants(diagram);
    assert_eq!(all.len(), 16);
    for v in &all {
        let (mut board, p) = marked(v);
        assert_eq!(matches(&board, p), expect, "black to move:\n{v}");
        board.set_to_play(Color::White);
        assert_eq!(matches(&board, p), expect, "white to move:\n{v}");
    }
}

#[test]
fn enclosing_hane_matches_in_every_symmetry_and_colour() {
    // "XOX / ... / ???"
    check(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . X O X . . .
        . . . . * . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        ",
        true,
    );
}

#[test]
fn peeped_cut_matches_in_every_symmetry_and_colour() {
    // "XO? / O.X / ???"
    check(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . X O . . . . .
        . . O * X . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        ",
        true,
    );
}

#[test]
fn sagari_on_the_edge_matches_in_every_symmetry_and_colour() {
    // "?XO / x.x / (edge)": descend to the first line under the stone.
    check(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . X O . . . .
        . . . * . . . . .
        ",
        true,
    );
}

#[test]
fn katatsuke_matches_in_every_symmetry_and_colour() {
    // ".O. / X.. / ...": the diagonal attachment.
    check(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . O . . . .
        . . . X * . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        ",
        true,
    );
}

#[test]
fn empty_and_loose_neighbourhoods_do_not_match() {
    check(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . * . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        ",
        false,
    );
    // One stone next to the point, or two of one colour: no shape.
    check(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . X . . . .
        . . . . * . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        ",
        false,
    );
    check(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . X . X . . .
        . . . . * . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        ",
        false,
    );
}

#[test]
fn the_table_is_closed_under_colour_swap() {
    let hit = |code: usize| PATTERNS[code >> 6] & (1 << (code & 63)) != 0;
    let count = (0..65536).filter(|&c| hit(c)).count();
    assert!(count > 1000, "{count} codes");
    for code in 0..65536usize {
        let swapped = (0..8).fold(0, |acc, i| {
            let v = match (code >> (2 * i)) & 3 {
                0 => 1,
                1 => 0,
                v => v,
            };
            acc | (v << (2 * i))
        });
        assert_eq!(hit(code), hit(swapped), "code {code:#06x}");
    }
}

#[test]
fn a_matching_move_gets_the_shape_prior() {
    let (board, p) = marked(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . X O X . . .
        . . . . * . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        ",
    );
    let without = prior(&board, p, Color::Black, None, &Reading::NONE, 0.0);
    let with = prior(&board, p, Color::Black, None, &Reading::NONE, 10.0);
    assert_eq!(with.visits, without.visits + 10.0);
    assert_eq!(with.wins, without.wins + 10.0);
}
