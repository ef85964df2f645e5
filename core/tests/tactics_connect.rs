//! Connection reading (`connect` / `disconnect`): hand-drawn shapes whose
//! answers were checked against GNU Go 3.8's commands of those names, cache
//! on / off agreement, and the cache keys of equivalent and different
//! problems.

use kosumi_core::board::Board;
use kosumi_core::geometry::{Color, Point};
use kosumi_core::table::{Cluster, Table, TacticCluster};
use kosumi_core::tactics::key::{link_problem_hash, problem_hash, CLASS_CAPTURE, CLASS_CONNECT};
use kosumi_core::tactics::{
    Answer, Connector, Goal, LinkGoal, LinkProblem, Reader, Verdict, LINK_BUDGET,
};

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
    b.geometry().vertex_str(p, &mut buf).to_uppercase()
}

fn link(b: &Board, goal: LinkGoal, a: &str, c: &str) -> LinkProblem {
    LinkProblem {
        goal,
        a: vertex(b, a),
        b: vertex(b, c),
    }
}

/// Read with and without a cache (twice with); check the board is
/// restored, the answers agree, a proven answer comes from the cache the
/// second time, and the code and move are as expected (`moves`: the
/// acceptable moves separated by `|`). An answer some capture read's node
/// budget stopped is not proven, and not stored.
fn check(diagram_board: &Board, goal: LinkGoal, a: &str, c: &str, code: u8, moves: &str) -> Answer {
    let problem = link(diagram_board, goal, a, c);
    let mut b = diagram_board.clone();
    let mut plain = Reader::without_cache();
    let mut connector: Connector = Connector::new();
    let ans = connector.solve(&mut plain, &mut b, problem, LINK_BUDGET);
    assert!(b.identical(diagram_board), "board not restored");
    let mut table = cache(1 << 12);
    let mut reader = Reader::new(&mut table);
    let mut connector: Connector = Connector::new();
    assert_eq!(
        connector.solve(&mut reader, &mut b, problem, LINK_BUDGET),
        ans
    );
    assert_eq!(
        connector.solve(&mut reader, &mut b, problem, LINK_BUDGET),
        ans,
        "from the cache"
    );
    let one_chain = b.chain_root(problem.a) == b.chain_root(problem.b);
    let hits = u64::from(ans.proven && !one_chain);
    assert_eq!(connector.stats().hits, hits, "{goal:?} {a} {c}: {ans:?}");
    let mv = name(&b, ans.key_move);
    assert_eq!(ans.verdict.code(), code, "{goal:?} {a} {c}: {ans:?} {mv}");
    assert!(
        moves.split('|').any(|m| m == mv),
        "{goal:?} {a} {c}: move {mv}, want {moves}"
    );
    ans
}

/// A one-point jump in the open: the connector joins at the common
/// liberty, the cutter cuts there.
const JUMP: &str = "
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . X . . . .
. . . . . . . . .
. . . . X . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .";

/// A bamboo joint: two common liberties, miai.
const BAMBOO: &str = "
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . X X . . . .
. . . . . . . . .
. . . X X . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .";

/// A diagonal (kosumi), whole and with one side taken.
const DIAGONAL: &str = "
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . X . . . . .
. . . . X . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .";

const DIAGONAL_PUSHED: &str = "
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . X O . . . .
. . . . X . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .";

/// A tiger's mouth: a white stone at E5 would be taken at once.
const TIGER: &str = "
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . X . . . .
. . . X . X . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .";

/// A one-point jump on the second line under white stones: a white stone
/// at D2 has one liberty and is captured, so the jump holds.
const EDGE_JUMP: &str = "
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . O . O . . . .
. . X . X . . . .
. . . . . . . . .";

/// Black C5 is in atari: the cutter captures it, the connector extends to
/// D4's chain at C4.
const ATARI: &str = "
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . O . . . . . .
. O X O . . . . .
. . . X . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .";

/// Cross-cut: D5 and E4 are cut and cannot be joined.
const CROSSCUT: &str = "
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . X O . . . .
. . . O X . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .";

/// A ko: white B4 is in atari, and black's capture at C4 is a ko capture.
/// B5 can be captured by a ko that white starts with a threat.
const KO: &str = "
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. X O . . . . . .
X O . O . . . . .
. X O . . . . . .
. . . . . . . . .
. . . . . . . . .";

#[test]
fn common_liberty_joins_and_cuts() {
    let b = board(JUMP);
    check(&b, LinkGoal::Connect, "E6", "E4", 1, "E5");
    check(&b, LinkGoal::Disconnect, "E6", "E4", 1, "E5");
}

#[test]
fn bamboo_joint_and_diagonal_are_connected() {
    let b = board(BAMBOO);
    assert!(check(&b, LinkGoal::Disconnect, "D6", "E4", 0, "PASS").proven);
    assert!(check(&b, LinkGoal::Connect, "D6", "E4", 1, "D5|E5").proven);
    let b = board(DIAGONAL);
    assert!(check(&b, LinkGoal::Disconnect, "D5", "E4", 0, "PASS").proven);
    assert!(check(&b, LinkGoal::Connect, "D5", "E4", 1, "D4|E5").proven);
}

#[test]
fn diagonal_with_one_side_taken_is_cut_at_the_other() {
    let b = board(DIAGONAL_PUSHED);
    check(&b, LinkGoal::Connect, "D5", "E4", 1, "D4");
    check(&b, LinkGoal::Disconnect, "D5", "E4", 1, "D4");
}

#[test]
fn a_cutting_stone_that_is_captured_does_not_cut() {
    let b = board(TIGER);
    assert!(check(&b, LinkGoal::Disconnect, "D5", "F5", 0, "PASS").proven);
    check(&b, LinkGoal::Disconnect, "D5", "E6", 0, "PASS");
    check(&b, LinkGoal::Connect, "D5", "F5", 1, "E5");
    let b = board(EDGE_JUMP);
    check(&b, LinkGoal::Disconnect, "C2", "E2", 0, "PASS");
    check(&b, LinkGoal::Connect, "C2", "E2", 1, "D2");
}

#[test]
fn a_chain_that_can_be_captured_is_cut() {
    let b = board(ATARI);
    check(&b, LinkGoal::Disconnect, "C5", "D4", 1, "C4");
    check(&b, LinkGoal::Disconnect, "D4", "C5", 1, "C4");
    check(&b, LinkGoal::Connect, "C5", "D4", 1, "C4");
}

/// White links D9 to the wall at G8 through the capture of F9 (GNU Go's
/// connection.tst 42, cut down to 9x9): F8 leaves F9 two liberties, and
/// if Black blocks at E8, E9 takes the last but one (G9 is Black's
/// self-atari) and joins D9 to the captured stone's point. Checked with
/// GNU Go 3.8: F8 is the only connecting move; C9, D8, E8, E9 and F8 cut.
const UNDER_THE_WALL: &str = "
   A B C D E F G H J
 9 X . . O . X . O .
 8 X . . . . . O O O
 7 X X X X X X X O .
 6 . . . . . . X O O
 5 . . . . . . X X X
 4 . . . . . . . . .
 3 . . . . . . . . .
 2 . . . . . . . . .
 1 . . . . . . . . .";

#[test]
fn a_link_through_the_capture_of_a_stone_in_atari_to_be() {
    let b = board(UNDER_THE_WALL);
    check(&b, LinkGoal::Connect, "G8", "D9", 1, "F8");
    check(&b, LinkGoal::Disconnect, "G8", "D9", 1, "C9|D8|E8|E9|F8");
}

/// Black links R13 to S8 down the edge (GNU Go's connection.tst 30): the
/// white pair S10-S9 has two liberties and lies on the shortest path
/// without touching R13, and taking it (T10 or T9) joins the chains at
/// once, as does Q11, the capture of R11. Checked with GNU Go 3.8: Q11,
/// T10 and T9 connect, each unconditionally (the search once counted
/// only cutter chains in atari as on a path, and answered Q11 with a ko).
const DOWN_THE_EDGE: &str = "
    A B C D E F G H J K L M N O P Q R S T
 19 . . . . . . . . . . . . . . . . . . . 19
 18 . . . . . . . . . . . . . . . . . . . 18
 17 . . X X . X . . . O . . . O O X . . . 17
 16 . . X O O . . . . . . O O X . X . . . 16
 15 . . . . . O . O . . . . X X . . . . . 15
 14 . . . . . . . . . . . . . . . X . . . 14
 13 . X X O O . X . . . . . . . . . X . . 13
 12 . . O . . O X . . . . . . . . O X . . 12
 11 . . . . . X . . . . . . . . O . O X . 11
 10 . . O . X . X . . . . X . O . O X O . 10
  9 . . . . . . . . . . . . . . . . X O . 9
  8 . O X . X . O . . O . X . O . O O X . 8
  7 . . . . . . . . O . . . . . . O X . X 7
  6 . . O X . . . . . . . . X . . . X X . 6
  5 . . . . . X X . O . . X O X O O . . . 5
  4 . O . X . X O . . O . X . . X O O X . 4
  3 . . . X O O O . . . O X . X . X X X . 3
  2 . . O O . . . . . . . . . . . . . . . 2
  1 . . . . . . . . . . . . . . . . . . . 1";

#[test]
fn a_two_liberty_chain_on_the_path_is_captured() {
    let b = board(DOWN_THE_EDGE);
    check(&b, LinkGoal::Connect, "R13", "S8", 1, "Q11|T10|T9");
}

/// Black links L2 to G4 along the first lines (GNU Go's connection.tst
/// 103): K2 first, and the white stone at J2, left with three liberties
/// next to Black's chain, falls to the capture reader (the search once
/// asked it only of cutter chains next to both chains or on a path, and
/// answered 0). Checked with GNU Go 3.8: `connect L2 G4` is `1 K2`, and
/// after K2 `disconnect L2 G4` is 0.
const ALONG_THE_FIRST_LINES: &str = "
    A B C D E F G H J K L M N O P Q R S T
 19 . O . . . . . . O X X X O O O O X . . 19
 18 O . . . . . . O . O O X . X O X . X . 18
 17 X O O . . O O O O O X X X X O O X . . 17
 16 X X . O O . . . O X . . O X . O X . . 16
 15 . . . . X O O O X X X . O X . O X . . 15
 14 . X X X X . X X X O X O O X . O X O . 14
 13 . X O . . . . X O O O X . O O . O O . 13
 12 . O . O X X . O . O X X O . O . O . . 12
 11 . . . O O X . O O . O O X X X O . O . 11
 10 . . . . O X X O . . O . . . . . O X . 10
  9 O . O . . O O . O . O . X . X X X X . 9
  8 . O . X X O . . O . O . . . . . . . . 8
  7 O X X O X O . . O . . O O X . X . . . 7
  6 . X O O O X X X X O O . O X . O X . . 6
  5 . X O X O . . . . . O . O X . O X . . 5
  4 . X X X O . X X X . O . . O O . X . . 4
  3 . . . X O X . O . . O O O . O . . . . 3
  2 . . . . X X . . O . X X X . . O X . . 2
  1 . . . . . . . . . . . . . . O X . . . 1";

#[test]
fn a_three_liberty_cutter_next_to_one_chain_is_attacked() {
    let b = board(ALONG_THE_FIRST_LINES);
    check(&b, LinkGoal::Connect, "L2", "G4", 1, "K2");
}

/// Black links S7 to S4 on the edge (GNU Go's connection.tst 53). Both
/// T5 and S6 connect (checked with GNU Go 3.8: after either,
/// `disconnect S7 S4` is 0, and `connect S7 S4` is `1 T5`). The root
/// reads every candidate and answers the outright win whose proof took
/// the fewest moves: T5 (the search once answered the first win it
/// found, S6).
const TWO_WAYS_ON_THE_EDGE: &str = "
    A B C D E F G H J K L M N O P Q R S T
 19 . . . . . . . . . . . . . . . X X . . 19
 18 . . . O . . . . . . . . . O O X O . . 18
 17 . . . . . . . . . . . . . . X X O . . 17
 16 . . . X . . . . . X . . . . . X O . . 16
 15 . . . . . . . . . . . . . X . . O . . 15
 14 . . . . . . . . . . . . . X O . X X . 14
 13 . . . . . . . . . . . . X O O O O . . 13
 12 . . . . . . . . . . . . X X X X O . . 12
 11 . . . . . . . . . . . . O O . X O . . 11
 10 . . . X . . . . . X . X . . O X O . . 10
  9 . . . . . . . . . . X . X X O X O X . 9
  8 . . . . . . . . . . O X . X O O X . . 8
  7 . . . . . . . . . O . O X X X O . X . 7
  6 . . X . . . . . X . O O O O X O O . . 6
  5 . . . . . . . . . . . . O X O O O O . 5
  4 . . . X . . . O X X X X O X X X O X X 4
  3 . . . . . . . . O O O X X O O X O X . 3
  2 . . . . . . . . X . . O O O X X X . X 2
  1 . . . . . . . . . . . . . . . X X . X 1
    A B C D E F G H J K L M N O P Q R S T";

#[test]
fn the_root_answers_the_plainest_of_two_wins() {
    let b = board(TWO_WAYS_ON_THE_EDGE);
    check(&b, LinkGoal::Connect, "S7", "S4", 1, "T5");
}

/// White links S4 to R7 (GNU Go's connection.tst 79). The black stone at
/// S5 has three liberties next to S4 and cannot be taken at once; S6,
/// one of its liberties, approaches it, and connects (so does R5).
/// Checked with GNU Go 3.8: `connect S4 R7` is `1 S6`, `attack S5` is 0,
/// and after S6 or R5 `disconnect S4 R7` is 0. The search once never
/// tried S6 (on no shortest path, the liberty of no chain of the two).
const APPROACH_ON_THE_EDGE: &str = "
    A B C D E F G H J K L M N O P Q R S T
 19 . . . . . . . . . . . . . . . O X . . 19
 18 . . . . . O . X . . . . X O . . O X . 18
 17 . . . O . . O X . X . X . . O . O X . 17
 16 . . . . . . O X X . . . X X . . O O O 16
 15 . . . O . O X X . O . X . . X . O X . 15
 14 . O . . . . O . . . . . . . . . . X . 14
 13 . X X O O . . . O O . . . . X . X . . 13
 12 . . O . O . O . . . . . X . . . . X . 12
 11 . . . O . O X . . O . . . . . . . X . 11
 10 O O . . X O X . . . . . . . X . O O . 10
  9 O X X . X X O O . O . X . X . . . . . 9
  8 X X . . X O . . . . . . X . . . . . . 8
  7 . . . X O O X X O O . X . . X . O . . 7
  6 . . . X . X O O . . . . . . . . . . . 6
  5 . . . . X X O . . O . . . . . X . X . 5
  4 . . X . . X O . . . . X . X . X . O . 4
  3 . X X O O O X O . O . . . . X X X O . 3
  2 . O O . . O X O . . . O . O X O O . . 2
  1 . . . . O X X X . . . . . . O . . . . 1
    A B C D E F G H J K L M N O P Q R S T";

#[test]
fn the_root_approaches_a_three_liberty_neighbour() {
    let b = board(APPROACH_ON_THE_EDGE);
    check(&b, LinkGoal::Connect, "S4", "R7", 1, "S6");
}

#[test]
fn chains_cut_apart_stay_cut() {
    let b = board(CROSSCUT);
    check(&b, LinkGoal::Connect, "D5", "E4", 0, "PASS");
    let a = check(
        &b,
        LinkGoal::Disconnect,
        "D5",
        "E4",
        1,
        "C4|C5|D3|D6|E3|E6|F4|F5",
    );
    assert!(!a.key_move.is_pass(), "a cut is answered with a move");
}

/// GNU Go's connection.tst 27 (nicklas16, move 38): Black links C3 to
/// B7 down the edge with B4, which also leans on the white stone at C4.
const EDGE_LINK: &str = "
. X O . O O . . .
. X O . O . O X .
. X O O X O X . .
. . X X X O O X .
. . . . O . O O .
. . O . O . . . .
. . X O O X . . .
. . X O X X . X .
. . . X . . . . .";

#[test]
fn a_root_move_is_read_as_the_same_question_one_move_later() {
    // The root's answer for B4 is what `disconnect` answers after B4:
    // before the subtrees of root moves were read as roots of their own,
    // `connect` read B4's line with the rules of deeper plies and failed
    // while `disconnect` after B4 failed too.
    let b = board(EDGE_LINK);
    check(&b, LinkGoal::Connect, "C3", "B7", 1, "B4");
    let mut after = b.clone();
    after.play(vertex(&b, "B4"), Color::Black).unwrap();
    check(&after, LinkGoal::Disconnect, "C3", "B7", 0, "PASS");
}

/// GNU Go's connection.tst 125 (`ben9992000-GNU.sgf` at move 189):
/// White's F10 stands in atari between Black's E10 and
/// G10, and Black's capture at F9 would be a ko.
const ATARI_INTO_KO: &str = "
. X X . O X . . O . . . X O O O O O .
O O X X . . X X X O . . . X X X O . .
. . O X X X O O O . . X X . X O O . .
. . O O . O . . X O . . . X O O O O .
. . . . . . O . X O . . . . X O X O O
. . . O . . . . X O . . . X . X X X X
. . . . O O X . X X . . . . . X X O .
. . O . O X . . . . . . . . . X . . .
. O . . . X . . . . . . X O . O X . .
O X X . X O X . . X . . . . O X X . .
O O . X O . O X X O . . X O . O X . X
O X X X O O O . X X X X . O . O O X .
. O X O O . O . . X O O O . . O X X O
. O X X X O X O . X O X . O . . O O .
. X X . . O X O . X X X X O X . . . O
. . X O . O . . O . X O X X O X X . .
. O O . . . . O . X . O O O O O O . .
. . . O . . . . . X . . . . . . . . .
. . . . X . X . . . . . X O . . . . .";

#[test]
fn the_cutter_ataris_a_two_liberty_chain_at_the_root() {
    // White E11 ataris E10: Black saves it by the ko capture at F9 or by
    // D10, and either way White cuts if he finds a ko threat (GNU Go's
    // `3 E11`). The cutter's root candidates had no atari on the two
    // chains, and the cut was read as failing (0).
    let b = board(ATARI_INTO_KO);
    check(&b, LinkGoal::Disconnect, "E10", "G10", 3, "E11");
}

#[test]
fn ko_results() {
    let b = board(KO);
    // White captures B5 (or B3) if he has a ko threat: GNU Go's 3. The
    // atari A5 (or A3) does as well: GNU Go's `connect B5 B3` after A5
    // answers 2 C4, as after B6.
    check(&b, LinkGoal::Disconnect, "B5", "B3", 3, "B6|B2|A5|A3");
    check(&b, LinkGoal::Connect, "B5", "A4", 1, "A5");
    // After black's ko capture at C4, white may not retake at once.
    let mut b = b;
    b.play(vertex(&b, "C4"), Color::Black).unwrap();
    assert_eq!(b.ko(), Some(vertex(&b, "B4")));
    check(&b, LinkGoal::Disconnect, "B5", "B3", 0, "PASS");
    check(&b, LinkGoal::Connect, "B5", "B3", 1, "B4");
}

#[test]
fn one_chain_is_connected_and_bad_input_fails() {
    let b = board(ATARI);
    let a = check(&b, LinkGoal::Connect, "C5", "C5", 1, "PASS");
    assert_eq!(a.plies, 0);
    check(&b, LinkGoal::Disconnect, "D4", "D4", 0, "PASS");
    let mut r = Reader::without_cache();
    let mut c: Connector = Connector::new();
    let mut bb = b.clone();
    for (x, y) in [("C5", "C6"), ("C5", "A1"), ("A1", "A2")] {
        let p = link(&b, LinkGoal::Connect, x, y);
        assert_eq!(
            c.solve(&mut r, &mut bb, p, LINK_BUDGET).verdict,
            Verdict::Fails
        );
    }
    assert_eq!(c.stats().nodes, 0);
}

#[test]
fn equivalent_problems_share_a_cache_entry_and_different_ones_do_not() {
    // D6-E6 is one chain: "connect D6 E4" and "connect E6 E4" are one
    // problem, and so is "connect E4 D6"; "disconnect" is another.
    let b0 = board(BAMBOO);
    let mut b = b0.clone();
    let mut table = cache(1 << 12);
    let mut reader = Reader::new(&mut table);
    let mut c: Connector = Connector::new();
    let budget = LINK_BUDGET;
    let first = c.solve(
        &mut reader,
        &mut b,
        link(&b0, LinkGoal::Connect, "D6", "E4"),
        budget,
    );
    assert_eq!(c.stats().hits, 0);
    for (x, y) in [("E6", "E4"), ("E4", "D6"), ("D4", "E6")] {
        let again = c.solve(
            &mut reader,
            &mut b,
            link(&b0, LinkGoal::Connect, x, y),
            budget,
        );
        assert_eq!(again, first, "connect {x} {y}");
    }
    assert_eq!(c.stats().hits, 3);
    c.solve(
        &mut reader,
        &mut b,
        link(&b0, LinkGoal::Disconnect, "D6", "E4"),
        budget,
    );
    assert_eq!(c.stats().hits, 3, "disconnect is another problem");
    assert!(b.identical(&b0));

    // The problem hashes themselves.
    let (p, q, s) = (vertex(&b0, "D6"), vertex(&b0, "E4"), vertex(&b0, "A1"));
    let h = |goal, x, y| link_problem_hash(CLASS_CONNECT, goal, 9, x, y);
    assert_eq!(h(LinkGoal::Connect, p, q), h(LinkGoal::Connect, q, p));
    assert_ne!(h(LinkGoal::Connect, p, q), h(LinkGoal::Disconnect, p, q));
    assert_ne!(h(LinkGoal::Connect, p, q), h(LinkGoal::Connect, p, s));
    assert_ne!(
        link_problem_hash(CLASS_CONNECT, LinkGoal::Connect, 9, p, q),
        link_problem_hash(CLASS_CONNECT, LinkGoal::Connect, 13, p, q)
    );
    assert_ne!(
        h(LinkGoal::Connect, p, p),
        problem_hash(CLASS_CAPTURE, Goal::Capture, 9, p)
    );
}

/// A 19x19 board with the tiger's mouth of [`TIGER`] in the lower left.
fn tiger19() -> Board {
    let mut rows = vec![". ".repeat(19); 19];
    rows[13] = format!(". . . . X {}", ". ".repeat(14));
    rows[14] = format!(". . . X . X {}", ". ".repeat(13));
    Board::from_diagram(&rows.join("\n"), Color::Black).expect("diagram")
}

#[test]
fn a_far_stone_keeps_the_cache_entry() {
    // The region key holds only what the search read: a stone added far
    // away leaves the problem's key as it was.
    let b0 = tiger19();
    assert_eq!(b0.at(vertex(&b0, "E6")), kosumi_core::geometry::Cell::Black);
    let mut table = cache(1 << 12);
    let mut reader = Reader::new(&mut table);
    let mut c: Connector = Connector::new();
    let p = link(&b0, LinkGoal::Disconnect, "D5", "F5");
    let mut b = b0.clone();
    let first = c.solve(&mut reader, &mut b, p, LINK_BUDGET);
    assert!(first.proven);
    assert_eq!(first.verdict, Verdict::Fails);
    b.play(vertex(&b, "S18"), Color::White).unwrap();
    let second = c.solve(&mut reader, &mut b, p, LINK_BUDGET);
    assert_eq!(first, second);
    assert_eq!(c.stats().hits, 1, "a far stone is outside the region");
    // A stone next to the shape is inside: searched again, same answer.
    b.play(vertex(&b, "C5"), Color::White).unwrap();
    c.solve(&mut reader, &mut b, p, LINK_BUDGET);
    assert_eq!(c.stats().hits, 1);
}
