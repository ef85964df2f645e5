//! Board rules as Go diagrams: a position in, the answer out.
//!
//! `X` is black, `O` white, `.` empty; a lower-case letter marks an empty
//! point the test talks about. The top row is printed first, `A1` is the
//! bottom-left corner.

use std::collections::BTreeMap;

use kosumi_core::board::{Board, DiagramError, MoveError};
use kosumi_core::geometry::{Cell, Color, Geometry, GeometryError, Point, MAX_SIZE};
use kosumi_core::history::History;
use kosumi_core::zobrist;

use Color::{Black, White};

/// Read a diagram; return the board and its marked points by letter.
fn setup(diagram: &str, to_play: Color) -> (Board, BTreeMap<char, Point>) {
    let mut marks = BTreeMap::new();
    let board = Board::from_diagram_marked(diagram, to_play, |p, ch| {
        assert!(marks.insert(ch, p).is_none(), "mark {ch} used twice");
    })
    .unwrap_or_else(|e| panic!("bad diagram {e:?}:\n{diagram}"));
    (board, marks)
}

/// The point named by a GTP vertex on `b`.
fn v(b: &Board, name: &str) -> Point {
    b.geometry().parse_vertex(name).expect("a vertex")
}

/// The stones of `b` as a diagram (no coordinates), top row first.
fn stones(b: &Board) -> String {
    let geo = b.geometry();
    let n = geo.size();
    let mut s = String::new();
    for y in (0..n).rev() {
        let row: Vec<&str> = (0..n)
            .map(|x| match b.at(geo.point(x, y)) {
                Cell::Black => "X",
                Cell::White => "O",
                _ => ".",
            })
            .collect();
        s.push_str(&row.join(" "));
        s.push('\n');
    }
    s
}

/// Assert that `b` holds the stones of `diagram` (coordinates ignored).
#[track_caller]
fn assert_stones(b: &Board, diagram: &str) {
    let want = Board::from_diagram(diagram, Black).expect("a diagram");
    assert_eq!(stones(b), stones(&want), "board:\n{b}");
    assert_eq!(b.position_hash(), want.position_hash());
    assert_eq!(b.hash(), b.recompute_hash());
}

// ---------------------------------------------------------------- captures

#[test]
fn capture_one_stone_in_the_centre() {
    let (mut b, m) = setup(
        r#"
        . . . . .
        . . X . .
        . X O a .
        . . X . .
        . . . . .
        "#,
        Black,
    );
    assert!(b.in_atari(v(&b, "C3")));
    assert_eq!(b.play(m[&'a'], Black), Ok(()));
    assert_stones(
        &b,
        r#"
        . . . . .
        . . X . .
        . X . X .
        . . X . .
        . . . . .
        "#,
    );
    assert_eq!(b.captures(Black), 1);
    assert_eq!(b.captures(White), 0);
    assert_eq!(
        b.ko(),
        None,
        "the capturing stone has four liberties: no ko"
    );
}

#[test]
fn capture_one_stone_on_the_edge() {
    let (mut b, m) = setup(
        r#"
        . . . . .
        . . . . .
        . . . . .
        . . X . .
        . X O a .
        "#,
        Black,
    );
    assert_eq!(b.play(m[&'a'], Black), Ok(()));
    assert_eq!(b.at(v(&b, "C1")), Cell::Empty);
    assert_eq!(b.captures(Black), 1);
    assert_eq!(b.empty_count(), 25 - 3);
}

#[test]
fn capture_one_stone_in_the_corner() {
    let (mut b, m) = setup(
        r#"
        . . . . .
        . . . . .
        . . . . .
        X . . . .
        O a . . .
        "#,
        Black,
    );
    assert_eq!(b.atari_liberty(v(&b, "A1")), Some(m[&'a']));
    assert_eq!(b.play(m[&'a'], Black), Ok(()));
    assert_eq!(b.at(v(&b, "A1")), Cell::Empty);
    assert_eq!(b.captures(Black), 1);
    assert_eq!(b.liberty_count_capped::<4>(v(&b, "B1")), 3);
}

#[test]
fn one_move_captures_three_chains() {
    let (mut b, m) = setup(
        r#"
        . . . X . . .
        . . X O X . .
        . . X O X . .
        . X O a X . .
        . . X O X . .
        . . . X . . .
        . . . . . . .
        "#,
        Black,
    );
    let roots: Vec<Point> = ["D6", "C4", "D3"]
        .iter()
        .map(|s| b.chain_root(v(&b, s)).expect("stone"))
        .collect();
    assert!(roots[0] != roots[1] && roots[1] != roots[2] && roots[0] != roots[2]);
    assert_eq!(b.chains_in_atari(White).len(), 3);
    assert_eq!(b.liberties_after::<3>(m[&'a'], Black), 3);
    assert_eq!(b.play(m[&'a'], Black), Ok(()));
    assert_stones(
        &b,
        r#"
        . . . X . . .
        . . X . X . .
        . . X . X . .
        . X . X X . .
        . . X . X . .
        . . . X . . .
        . . . . . . .
        "#,
    );
    assert_eq!(b.captures(Black), 4);
    assert_eq!(b.ko(), None);
    assert!(b.chains_in_atari(White).is_empty());
}

#[test]
fn snapback_recaptures_more_stones() {
    let (mut b, m) = setup(
        r#"
        . . . . .
        . . . . .
        X X X X .
        X O O O X
        X O a b X
        "#,
        Black,
    );
    let (a, bb) = (m[&'a'], m[&'b']);
    // Black throws in: the stone is in atari, and so is white.
    assert_eq!(b.liberties_after::<3>(a, Black), 1);
    assert_eq!(b.play(a, Black), Ok(()));
    assert_eq!(b.atari_liberty(a), Some(bb));
    assert_eq!(b.atari_liberty(v(&b, "B2")), Some(bb));
    // White takes one stone and fills its own liberty ...
    assert_eq!(b.liberties_after::<3>(bb, White), 1);
    assert_eq!(b.play(bb, White), Ok(()));
    assert_eq!(b.captures(White), 1);
    assert_eq!(b.ko(), None, "the capturing stone joined a chain: no ko");
    assert_eq!(b.atari_liberty(v(&b, "B2")), Some(a));
    assert_eq!(b.chain_size(bb), 5);
    // ... and black takes five back at once.
    assert_eq!(b.play(a, Black), Ok(()));
    assert_eq!(b.captures(Black), 5);
    assert_stones(
        &b,
        r#"
        . . . . .
        . . . . .
        X X X X .
        X . . . X
        X . X . X
        "#,
    );
}

// ---------------------------------------------------------------------- ko

#[test]
fn ko_bans_the_immediate_retake_only() {
    let (mut b, m) = setup(
        r#"
        . . . . .
        . X O . .
        X O a O .
        . X O . .
        . . . . .
        "#,
        Black,
    );
    let (a, retake) = (m[&'a'], v(&b, "B3"));
    assert_eq!(b.play(a, Black), Ok(()));
    assert_eq!(b.ko(), Some(retake));
    assert_eq!(b.captures(Black), 1);

    // The ko ban is part of the full hash, not of the position hash.
    let no_ban = Board::from_diagram(&b.to_string(), White).expect("reads back");
    assert_eq!(no_ban.ko(), None);
    assert_eq!(b.position_hash(), no_ban.position_hash());
    assert_ne!(b.hash(), no_ban.hash());
    assert_eq!(b.hash(), no_ban.hash() ^ zobrist::ko(retake));
    assert_eq!(b.hash(), b.recompute_hash());

    // White may not retake at once; the refusal changes nothing.
    let before = b.hash();
    assert_eq!(b.check_move(retake, White), Err(MoveError::Ko));
    assert_eq!(b.play(retake, White), Err(MoveError::Ko));
    assert!(!b.is_legal(retake, White));
    assert_eq!(b.hash(), before);
    assert_eq!(b.to_play(), White);

    // A ko threat and its answer; now the retake is legal, and makes a ko
    // for black in turn.
    assert_eq!(b.play(v(&b, "E5"), White), Ok(()));
    assert_eq!(b.ko(), None);
    assert_eq!(b.play(v(&b, "E1"), Black), Ok(()));
    assert_eq!(b.play(retake, White), Ok(()));
    assert_eq!(b.at(a), Cell::Empty);
    assert_eq!(b.ko(), Some(a));
    assert_eq!(b.play(a, Black), Err(MoveError::Ko));
}

#[test]
fn pass_lifts_the_ko_ban() {
    let (mut b, m) = setup(
        r#"
        . . . .
        . X O .
        X O a O
        . X O .
        "#,
        Black,
    );
    let h0 = b.hash();
    assert_eq!(b.play(m[&'a'], Black), Ok(()));
    assert!(b.ko().is_some());
    assert_eq!(b.play(Point::PASS, White), Ok(()));
    assert_eq!(b.ko(), None);
    assert_eq!(b.passes(), 1);
    assert_eq!(b.play(Point::PASS, Black), Ok(()));
    assert_eq!(b.passes(), 2);
    assert_eq!(
        b.play(v(&b, "B2"), White),
        Ok(()),
        "the retake after two passes"
    );
    assert_eq!(b.passes(), 0);
    // The same stones as at the start, black to move again, but a ko ban now.
    assert_eq!(b.to_play(), Black);
    assert_eq!(b.hash(), h0 ^ zobrist::ko(m[&'a']));
}

// ----------------------------------------------------------------- suicide

#[test]
fn suicide_of_one_stone_is_refused() {
    let (mut b, m) = setup(
        r#"
        . O . . .
        O a O . .
        . O . . .
        . . . O .
        c . O b O
        "#,
        Black,
    );
    for k in ['a', 'b'] {
        let before = b.hash();
        assert_eq!(b.play(m[&k], Black), Err(MoveError::Suicide), "at {k}");
        assert_eq!(b.hash(), before);
        assert_eq!(b.at(m[&k]), Cell::Empty);
    }
    // White may fill its own eye (legal, if foolish); a corner point with an
    // empty neighbour is no suicide.
    assert_eq!(b.check_move(m[&'a'], White), Ok(()));
    assert_eq!(b.check_move(m[&'c'], Black), Ok(()));
    assert_eq!(b.liberties_after::<3>(m[&'c'], Black), 2);
}

#[test]
fn suicide_of_a_chain_is_refused_but_white_may_capture_there() {
    let (mut b, m) = setup(
        r#"
        . . . . .
        O O O . .
        X X a O .
        O O O . .
        . . . . .
        "#,
        Black,
    );
    let a = m[&'a'];
    assert_eq!(b.atari_liberty(v(&b, "A3")), Some(a));
    assert_eq!(b.play(a, Black), Err(MoveError::Suicide));
    assert_eq!(b.chain_size(v(&b, "A3")), 2);
    assert_eq!(b.liberties_after::<3>(a, White), 3);
    b.set_to_play(White);
    assert_eq!(b.play(a, White), Ok(()));
    assert_eq!(b.captures(White), 2);
    assert_eq!(b.at(v(&b, "A3")), Cell::Empty);
}

#[test]
fn a_move_without_liberties_that_captures_is_legal() {
    let (mut b, m) = setup(
        r#"
        . . . .
        . . . .
        O X . .
        a O X .
        "#,
        Black,
    );
    let a = m[&'a'];
    assert_eq!(b.neighbour_count(a, Cell::Empty), 0);
    assert_eq!(b.check_move(a, Black), Ok(()));
    assert_eq!(b.liberties_after::<3>(a, Black), 1);
    assert_eq!(b.play(a, Black), Ok(()));
    assert_eq!(b.at(v(&b, "B1")), Cell::Empty);
    assert_eq!(b.ko(), Some(v(&b, "B1")), "one stone took one stone: ko");
    assert_eq!(b.atari_liberty(a), Some(v(&b, "B1")));
}

// -------------------------------------------------------------------- eyes

#[test]
fn real_eye_is_eyelike_for_its_owner_only() {
    let (b, m) = setup(
        r#"
        . . . . .
        . X X X .
        . X a X .
        . X X O .
        . . . . .
        "#,
        Black,
    );
    // One enemy diagonal in the centre is allowed.
    assert!(b.is_eyelike(m[&'a'], Black));
    assert!(!b.is_eyelike(m[&'a'], White));
}

#[test]
fn two_enemy_diagonals_make_a_false_eye_in_the_centre() {
    let (b, m) = setup(
        r#"
        . . . . .
        . O X O .
        . X f X .
        . . X . .
        . . . . .
        "#,
        Black,
    );
    assert!(!b.is_eyelike(m[&'f'], Black));
}

#[test]
fn one_enemy_diagonal_makes_a_false_eye_on_the_edge_and_in_the_corner() {
    let (b, m) = setup(
        r#"
        . . . . . .
        . . . . . .
        . . . . . .
        . . . . . .
        X O O X X X
        f X X e X g
        "#,
        Black,
    );
    assert!(!b.is_eyelike(m[&'f'], Black), "corner, enemy diagonal");
    assert!(!b.is_eyelike(m[&'e'], Black), "edge, enemy diagonal");
    assert!(b.is_eyelike(m[&'g'], Black), "corner, own diagonal");
}

#[test]
fn edge_eye_without_enemy_diagonals_is_eyelike() {
    let (b, m) = setup(
        r#"
        . . . . .
        . . . . .
        . . . . .
        . X X X .
        . X e X .
        "#,
        Black,
    );
    assert!(b.is_eyelike(m[&'e'], Black));
}

#[test]
fn points_with_an_empty_or_enemy_neighbour_are_not_eyes() {
    let (b, m) = setup(
        r#"
        . . . . .
        . X X X .
        . X e . .
        X X X X .
        n O . . .
        "#,
        Black,
    );
    assert!(!b.is_eyelike(m[&'e'], Black), "empty neighbour");
    assert!(!b.is_eyelike(m[&'n'], Black), "enemy neighbour");
    assert!(!b.is_eyelike(m[&'n'], White), "enemy neighbour");
}

// --------------------------------------------------------------- liberties

#[test]
fn liberties_on_the_edges_and_in_the_corners() {
    let (b, _) = setup(
        r#"
        X . . . . . X
        . . . . . . .
        . . . . . . .
        X . . X . . .
        . . . . . . .
        . . . . . . .
        . . O O O . .
        "#,
        Black,
    );
    let libs = |s: &str| b.liberty_count_capped::<8>(v(&b, s));
    assert_eq!(libs("A7"), 2, "corner");
    assert_eq!(libs("G7"), 2, "corner");
    assert_eq!(libs("A4"), 3, "edge");
    assert_eq!(libs("D4"), 4, "centre");
    assert_eq!(libs("C1"), 5, "three stones on the edge");
    assert_eq!(b.liberty_count_capped::<4>(v(&b, "C1")), 4, "capped");
    let set = b.liberties::<4>(v(&b, "A7"));
    let mut got = set.as_slice().to_vec();
    got.sort();
    let mut want = vec![v(&b, "B7"), v(&b, "A6")];
    want.sort();
    assert_eq!(got, want);
    assert_eq!(b.chain_stones(v(&b, "D1")).count(), 3);
}

#[test]
fn atari_is_one_distinct_liberty_however_many_stones_touch_it() {
    let (b, m) = setup(
        r#"
        . . . . .
        O O O . .
        X X O . .
        a X O . .
        O O . . .
        "#,
        Black,
    );
    let chain = v(&b, "A3");
    assert!(b.in_atari(chain));
    assert_eq!(b.atari_liberty(v(&b, "B2")), Some(m[&'a']));
    assert_eq!(b.pseudo_liberties(chain), 2, "A2 touches two stones");
    assert_eq!(b.liberty_count_capped::<4>(chain), 1);
    assert_eq!(b.chains_in_atari(Black), &[b.chain_root(chain).unwrap()]);
    // Filling the last liberty is suicide for black (A1-B1 keeps C1), and a
    // capture for white.
    assert_eq!(b.check_move(m[&'a'], Black), Err(MoveError::Suicide));
    assert_eq!(b.liberties_after::<8>(m[&'a'], White), 3, "A3 B2 C1");
    // No white chain is in atari: the big one has seven liberties, A1-B1 two.
    assert!(!b.in_atari(v(&b, "C3")));
    assert_eq!(b.atari_liberty(v(&b, "C3")), None);
    assert_eq!(b.liberty_count_capped::<8>(v(&b, "C2")), 7);
    assert!(b.chains_in_atari(White).is_empty());
    let mut corner = b.liberties::<4>(v(&b, "A1")).as_slice().to_vec();
    corner.sort();
    assert_eq!(corner, vec![v(&b, "C1"), m[&'a']]);
}

#[test]
fn liberties_after_counts_captured_stones_that_touch_the_new_chain() {
    let (b, m) = setup(
        r#"
        . . . . .
        . X X X .
        a O O O X
        . X X X .
        . . . . .
        "#,
        Black,
    );
    // A3 takes three stones; only B3 touches the new stone.
    assert_eq!(b.liberties_after::<5>(m[&'a'], Black), 3);
    assert_eq!(b.liberties_after::<4>(m[&'a'], Black), 3);
    assert_eq!(b.liberties_after::<2>(m[&'a'], Black), 2);
    // White extending at A3 would have two liberties.
    assert_eq!(b.liberties_after::<5>(m[&'a'], White), 2);

    let (b, m) = setup(
        r#"
        . . . .
        X X . .
        O O X .
        a X . .
        "#,
        Black,
    );
    // A1 joins B1 and takes A2-B2: A2 touches A1, B2 touches B1.
    assert_eq!(b.liberties_after::<5>(m[&'a'], Black), 3);
    assert_eq!(b.liberties_after::<1>(m[&'a'], Black), 1);
}

#[test]
fn liberties_after_merging_counts_shared_liberties_once() {
    let (b, m) = setup(
        r#"
        . . . . .
        . O X . .
        . X a X .
        . . X . .
        . . . . .
        "#,
        Black,
    );
    // a joins four stones: C5 D4 A3 B2 E3 D2 C1 (B4 is white; D4, B2, D2
    // touch two of the stones each but count once).
    assert_eq!(b.liberties_after::<16>(m[&'a'], Black), 7);
    assert_eq!(b.liberties_after::<7>(m[&'a'], Black), 7);
    assert_eq!(b.liberties_after::<6>(m[&'a'], Black), 6);
    // White at a has no liberty but the ones of its own stone: none empty
    // around it, so it is suicide.
    assert_eq!(b.check_move(m[&'a'], White), Err(MoveError::Suicide));
}

#[test]
fn adjacent_chains_are_the_other_colours_chains_next_to_a_chain() {
    let (b, _) = setup(
        r#"
        . O . . .
        O X X O .
        . X O . .
        . X . X .
        . . . . .
        "#,
        Black,
    );
    // B4 C4 B3 B2 touch A4, B5, D4 (white, one each) and C3; D2 is black
    // and C2 empty.
    let mut roots: Vec<Point> = b.adjacent_chains::<8>(v(&b, "B2")).as_slice().to_vec();
    roots.sort();
    let mut want: Vec<Point> = ["A4", "B5", "D4", "C3"]
        .iter()
        .map(|s| b.chain_root(v(&b, s)).unwrap())
        .collect();
    want.sort();
    assert_eq!(roots, want);
    // Capped at N chains.
    assert_eq!(b.adjacent_chains::<2>(v(&b, "B2")).len(), 2);
    // C3's neighbours: the black chain once, not once per stone.
    assert_eq!(b.adjacent_chains::<8>(v(&b, "C3")).len(), 1);
}

// ------------------------------------------------------------------- score

#[test]
fn area_score_with_dame_and_a_neutral_region() {
    let (b, _) = setup(
        r#"
        . X . O .
        . X O O .
        . X X O .
        X X O O .
        . X O . X
        "#,
        Black,
    );
    // Black: 8 stones + A3-A5 + A1 = 12. White: 7 stones. Neutral: C5 and
    // D1 (dame) and E2-E5 (touching both).
    let s = b.score(15);
    assert_eq!((s.black, s.white, s.komi2), (12, 7, 15));
    assert_eq!(s.margin2(), 2 * (12 - 7) - 15);
    assert_eq!(s.winner(), Some(White));
    assert_eq!(b.score(0).winner(), Some(Black));
    assert_eq!(b.score(10).winner(), None, "komi 5: a draw");
}

#[test]
fn empty_board_scores_nothing_and_one_stone_takes_all() {
    let mut b = Board::new(9.min(MAX_SIZE)).unwrap();
    let s = b.score(15);
    assert_eq!((s.black, s.white), (0, 0));
    assert_eq!(s.winner(), Some(White));
    b.play(v(&b, "E5"), Black).unwrap();
    let n = (b.size() * b.size()) as u16;
    assert_eq!((b.score(15).black, b.score(15).white), (n, 0));
}

// ------------------------------------------------------------ diagrams, I/O

#[test]
fn display_reads_back_on_small_boards() {
    for size in 2..=13.min(MAX_SIZE) {
        display_round_trip(size);
    }
}

#[test]
fn display_reads_back_on_large_boards() {
    for size in 14..=MAX_SIZE {
        display_round_trip(size);
    }
}

/// Play a fixed pattern of moves on a `size` board, print it and read it back.
fn display_round_trip(size: usize) {
    let mut b = Board::new(size).unwrap();
    let geo = b.geometry();
    for (i, p) in geo.points().enumerate() {
        if (i * 7) % 5 < 2 && b.is_legal(p, b.to_play()) && !b.is_eyelike(p, b.to_play()) {
            b.play_legal(p, b.to_play());
        }
    }
    let text = b.to_string();
    let back = Board::from_diagram(&text, b.to_play())
        .unwrap_or_else(|e| panic!("{size}x{size} does not read back: {e:?}\n{text}"));
    assert_eq!(stones(&back), stones(&b), "{text}");
    assert_eq!(back.position_hash(), b.position_hash());
    assert_eq!(back.to_string().replace('(', " "), text.replace('(', " "));
}

#[test]
fn header_letter_o_is_not_a_board_row() {
    // The column header of boards from 14x14 up contains the letter O.
    let text = r#"
        A B C D E F G H J K L M N O
     14 . . . . . . . . . . . . . .
     13 . . . . . . . . . . . . . .
     12 . . . . . . . . . . . . . .
     11 . . . . . . . . . . . . . .
     10 . . . . . . . . . . . . . .
      9 . . . . . . . . . . . . . .
      8 . . . . . . . . . . . . . .
      7 . . . . . . . . . . . . . .
      6 . . . . . . . . . . . . . .
      5 . . . . . . . . . . . . . .
      4 . . . . . . . . . . . . . .
      3 . . . . . . . . . . . . . .
      2 . . . . . . . . . . . . . .
      1 X . . . . . . . . . . . . O
        A B C D E F G H J K L M N O
    "#;
    if MAX_SIZE < 14 {
        return;
    }
    let b = Board::from_diagram(text, Black).expect("a 14x14 diagram with its header");
    assert_eq!(b.size(), 14);
    assert_eq!(b.at(v(&b, "A1")), Cell::Black);
    assert_eq!(b.at(v(&b, "O1")), Cell::White);
}

#[test]
fn diagram_marks_and_errors() {
    let (b, m) = setup(
        r#"
        . a .
        X . O
        . . b
        "#,
        White,
    );
    assert_eq!(b.to_play(), White);
    assert_eq!(m[&'a'], v(&b, "B3"));
    assert_eq!(m[&'b'], v(&b, "C1"));
    assert_eq!(b.at(m[&'a']), Cell::Empty);
    assert_eq!(
        Board::from_diagram(". . .\n. . \n. . .", Black).err(),
        Some(DiagramError::RaggedRow)
    );
    assert_eq!(
        Board::from_diagram(". .\nX .\nO X", Black).err(),
        Some(DiagramError::RaggedRow)
    );
    assert_eq!(
        Board::from_diagram(".", Black).err(),
        Some(DiagramError::UnsupportedSize)
    );
    assert_eq!(
        Board::from_diagram("X O .\nO . .\n. . .", Black).err(),
        Some(DiagramError::DeadStone),
        "the O at A2 would take the X in the corner"
    );
}

#[test]
fn board_sizes_out_of_range_are_errors() {
    assert_eq!(Board::new(0).err(), Some(GeometryError::UnsupportedSize));
    assert_eq!(Board::new(1).err(), Some(GeometryError::UnsupportedSize));
    assert_eq!(
        Board::new(MAX_SIZE + 1).err(),
        Some(GeometryError::UnsupportedSize)
    );
    assert!(Board::new(2).is_ok());
    assert_eq!(Board::new(MAX_SIZE).unwrap().size(), MAX_SIZE);
}

#[test]
fn vertices_parse_and_print() {
    let g = Geometry::new(MAX_SIZE).unwrap();
    assert_eq!(g.parse_vertex("A1"), Ok(g.point(0, 0)));
    assert_eq!(g.parse_vertex("d4"), Ok(g.point(3, 3)));
    assert_eq!(g.parse_vertex(" D4 "), Ok(g.point(3, 3)));
    assert_eq!(
        g.parse_vertex("J5"),
        Ok(g.point(8, 4)),
        "I is skipped: J is the 9th column"
    );
    assert_eq!(g.parse_vertex("H1"), Ok(g.point(7, 0)));
    assert_eq!(g.parse_vertex("pass"), Ok(Point::PASS));
    assert_eq!(g.parse_vertex("PASS"), Ok(Point::PASS));
    if MAX_SIZE == 19 {
        assert_eq!(g.parse_vertex("T19"), Ok(g.point(18, 18)));
        assert_eq!(g.parse_vertex("K10"), Ok(g.point(9, 9)));
    }
    assert_eq!(g.parse_vertex("I5"), Err(GeometryError::BadVertex));
    assert_eq!(g.parse_vertex(""), Err(GeometryError::BadVertex));
    assert_eq!(g.parse_vertex("5D"), Err(GeometryError::BadVertex));
    assert_eq!(g.parse_vertex("D"), Err(GeometryError::BadVertex));
    assert_eq!(g.parse_vertex("D4x"), Err(GeometryError::BadVertex));
    assert_eq!(g.parse_vertex("Z99"), Err(GeometryError::OffBoard));
    assert!(g.parse_vertex("A0").is_err());
    assert!(g.parse_vertex("D-4").is_err());
    let nine = Geometry::new(9).unwrap();
    assert_eq!(nine.parse_vertex("K1"), Err(GeometryError::OffBoard));
    assert_eq!(nine.parse_vertex("A10"), Err(GeometryError::OffBoard));
    assert_eq!(nine.parse_vertex("J9"), Ok(nine.point(8, 8)));

    let mut buf = [0u8; 4];
    assert_eq!(g.vertex_str(g.point(0, 0), &mut buf), "A1");
    assert_eq!(g.vertex_str(g.point(8, 9), &mut buf), "J10");
    assert_eq!(g.vertex_str(g.point(7, 2), &mut buf), "H3");
    assert_eq!(g.vertex_str(Point::PASS, &mut buf), "pass");
    for p in g.points() {
        let name = g.vertex_str(p, &mut buf).to_string();
        assert!(!name.contains('I'), "{name}");
        assert_eq!(g.parse_vertex(&name), Ok(p), "{name}");
        assert_eq!(g.parse_vertex(&name.to_lowercase()), Ok(p), "{name}");
    }
}

// ----------------------------------------------------------------- history

#[test]
fn history_sees_a_repetition_that_simple_ko_allows() {
    let (mut b, m) = setup(
        r#"
        . . . .
        . X O .
        X O a O
        . X O .
        "#,
        Black,
    );
    let (a, retake) = (m[&'a'], v(&b, "B2"));
    let mut h: History<16> = History::new();
    h.push(b.position_hash());
    assert!(!h.repeats(&b, a, Black));
    b.play(a, Black).unwrap();
    h.push(b.position_hash());
    // Both pass: the ko ban is gone, and white's retake would bring back
    // the first position.
    b.play(Point::PASS, White).unwrap();
    b.play(Point::PASS, Black).unwrap();
    assert!(b.is_legal(retake, White), "simple ko allows it");
    assert!(
        h.repeats(&b, retake, White),
        "positional superko forbids it"
    );
    assert!(!h.repeats(&b, Point::PASS, White));
    assert!(!h.repeats(&b, v(&b, "D4"), White));
    assert_eq!(h.len(), 2);

    // Undo the capture: the repetition is gone from memory.
    let after_capture = h.pop();
    assert!(after_capture.is_some());
    assert_eq!(h.len(), 1);
    let mut first = b.clone();
    first.play(retake, White).unwrap();
    assert!(h.contains(first.position_hash()));
    assert!(!h.contains(after_capture.unwrap()));
    assert_eq!(h.pop(), Some(first.position_hash()));
    assert_eq!(h.pop(), None);
    assert!(h.is_empty());
    assert!(!h.repeats(&b, retake, White));
}

#[test]
fn history_forgets_the_oldest_when_full() {
    let mut h: History<3> = History::new();
    for x in 1..=4u64 {
        h.push(x);
    }
    assert_eq!(h.len(), 3);
    assert!(!h.contains(1));
    assert!(h.contains(2) && h.contains(3) && h.contains(4));
    assert_eq!(h.pop(), Some(4));
    assert_eq!(h.pop(), Some(3));
    h.push(5);
    assert!(h.contains(5) && h.contains(2) && !h.contains(3));
    h.clear();
    assert!(h.is_empty() && !h.contains(2));
}
