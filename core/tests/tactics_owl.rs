//! Life and death (`owl_attack` / `owl_defend`): the classic eye shapes on
//! the edge and a ko, each answer checked against GNU Go 3.8's commands of
//! those names on the same position, and the board restored after each
//! search.

mod common;

use common::eye_shapes::{FOUR, THREE, TWO};
use kosumi_core::board::Board;
use kosumi_core::geometry::{Color, Point};
use kosumi_core::table::{Cluster, Table, TacticCluster};
use kosumi_core::tactics::owl::READ_ON_FROM;
use kosumi_core::tactics::{Answer, Budget, Owl, OwlGoal, OwlProblem, Reader, Verdict, OWL_BUDGET};

fn board(diagram: &str) -> Board {
    Board::from_diagram(diagram, Color::Black).expect("diagram")
}

fn name(b: &Board, p: Point) -> String {
    let mut buf = [0u8; 4];
    b.geometry().vertex_str(p, &mut buf).to_uppercase()
}

/// Read `goal` for the dragon at `at` without a cache and with one
/// (twice); check the board is restored, the answers agree, the second
/// comes from the cache, the answer is proven and its code and move are as
/// expected (`moves`: the acceptable moves separated by `|`).
fn check(diagram: &str, goal: OwlGoal, at: &str, code: u8, moves: &str) -> Answer {
    check_cached(diagram, goal, at, code, moves, true)
}

/// [`check`], but the answer need be neither stored nor proven (`cached`
/// false: a capture read of the search, or the owl's own budget, ran out,
/// so the result is not kept; it must agree with and without a cache all
/// the same).
fn check_cached(
    diagram: &str,
    goal: OwlGoal,
    at: &str,
    code: u8,
    moves: &str,
    cached: bool,
) -> Answer {
    let before = board(diagram);
    let mut b = before.clone();
    let target = b.geometry().parse_vertex(at).unwrap();
    let problem = OwlProblem { goal, target };
    let mut owl: Box<Owl> = Box::default();
    let ans = owl.solve(&mut Reader::without_cache(), &mut b, problem, OWL_BUDGET);
    assert!(b.identical(&before), "board not restored");
    let mut table: Table<TacticCluster, Box<[TacticCluster]>> =
        Table::new(vec![TacticCluster::EMPTY; 1 << 12].into_boxed_slice()).unwrap();
    let mut reader = Reader::new(&mut table);
    let mut owl: Box<Owl> = Box::default();
    assert_eq!(owl.solve(&mut reader, &mut b, problem, OWL_BUDGET), ans);
    assert_eq!(owl.solve(&mut reader, &mut b, problem, OWL_BUDGET), ans);
    assert_eq!(
        owl.stats().hits,
        u64::from(cached),
        "{goal:?} {at}: the second answer is the cache's"
    );
    assert!(b.identical(&before), "board not restored");
    assert!(ans.proven || !cached, "{goal:?} {at}: not proven: {ans:?}");
    assert_eq!(ans.verdict.code(), code, "{goal:?} {at}: {ans:?}");
    if code > 0 {
        let got = name(&b, ans.key_move);
        assert!(
            moves.split('|').any(|m| m == got),
            "{goal:?} {at}: {got}, want {moves}"
        );
    }
    ans
}

/// Bent three in the corner: the vital point is the bend.
const BENT_THREE: &str = "
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
O O O O . . . . .
X X X O . . . . .
. . X O . . . . .
. X X O . . . . .";

/// Two separate eyes.
const TWO_EYES: &str = "
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
O O O O O O O . .
X X X X X X O . .
. X . X . X O . .
X X X X X X O . .";

/// The corner's second eye hangs on a ko (GNU Go's `marginal_ko.sgf`,
/// cut down): the defender lives only by taking it first.
const KO_EYE: &str = "
. X X . X . O . .
X O X X X . O . .
O . O . . O O . .
O O O O O O . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .";

#[test]
fn an_eye_that_hangs_on_a_ko_is_a_ko() {
    check(KO_EYE, OwlGoal::Live, "B9", 2, "B7");
    check(KO_EYE, OwlGoal::Kill, "B9", 1, "A9|B7");
}

/// Two eyes on the edge, but the chain that walls one of them is short
/// of liberties (GNU Go's `owl47.sgf`, the corner on a small board): the
/// attacker's hane takes them, the defender's connection keeps them.
const SHAKY: &str = "
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . X X X X .
. . . . X . . X X
. . . X . O O . O
. . . X . O . O O
. . . X . O . X O
. . . . . O . X X";

#[test]
fn eyes_walled_by_a_capturable_chain_are_not_sure() {
    // Not proven within the owl's budget since the view's "dead" near the
    // root is checked by a pass (a subtree more at such nodes).
    check_cached(SHAKY, OwlGoal::Kill, "F4", 1, "H4", false);
    // GNU Go answers G2; after G1 its `owl_attack` finds no kill either.
    check_cached(SHAKY, OwlGoal::Live, "F4", 1, "G2|G1", false);
}

/// A game's corner (GNU Go's `owl.tst` 39 and 40, `incident` of 9x9):
/// the white dragon's eye spaces hold black stones it has yet to take,
/// so its eyes are not sure: G8 kills (GNU Go's answer, and G8 is its
/// defence too, which the owl does not prove within its budget).
const STONES_INSIDE: &str = "
. . . O X X . X .
. . O . O X . O O
. . . . O . X X X
. O . . . . X X O
. X O . O . O X O
. X . . . O . O O
. . X . X X O O .
. . . . . X O X O
. . . . . . X X .";

#[test]
fn eye_spaces_with_stones_to_take_are_not_sure() {
    check(STONES_INSIDE, OwlGoal::Kill, "G7", 1, "G8");
}

/// Five points of eye space on the first line, walled by two chains that
/// share them (GNU Go's `ld1.sgf`, the lower left, on a small board): the
/// stone at A3 is short of liberties, so the space is not two sure eyes,
/// and F2 kills, or F1 (GNU Go's `owl_does_attack` accepts both).
const THIN_WALL: &str = "
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. O . . . . . . .
. O . . . . . . .
X O O O O O O O O
. X X X X . . . O
. . . . . . . . .";

#[test]
fn a_wall_short_of_liberties_makes_eyes_unsure() {
    check_cached(THIN_WALL, OwlGoal::Kill, "B2", 1, "F2|F1", false);
}

/// A straight three in the corner, and beyond a white wall a living black
/// group whose stones are near but not connected: its eyes are not the
/// dragon's, so the three is still decided at its vital point.
const NEIGHBOUR_GROUP: &str = "
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
O O O O O X X X X
X X X X O X . X .
. . . X O X X X X";

#[test]
fn a_friendly_group_nearby_lends_no_eyes() {
    check(NEIGHBOUR_GROUP, OwlGoal::Kill, "A2", 1, "B1");
    check(NEIGHBOUR_GROUP, OwlGoal::Live, "A2", 1, "B1");
}

/// A corner that the static view calls dead, but whose best kill, the
/// throw-in at A2, leaves the defender a ko (GNU Go's `tripod4.sgf`, the
/// lower left, on a small board): the answer is the ko, not a kill.
const DEAD_BUT_KO: &str = "
. . . . . . . . .
. . . . . . . . .
. . O . . . . . .
. . O . . . . . .
O O O . . . . . .
X X O O . . . . .
X . X O O O O . .
. X X X O . . . .
. O . . . . . . .";

#[test]
fn a_dead_looking_corner_may_live_by_ko() {
    check_cached(DEAD_BUT_KO, OwlGoal::Kill, "C3", 3, "A2", false);
    // GNU Go answers C1; after A2 its `owl_attack` finds no kill either.
    check(DEAD_BUT_KO, OwlGoal::Live, "C3", 1, "C1|A2");
}

/// One eye at F2, and a white stone inside with two liberties that
/// cannot get out: taking it is the second eye, so the dragon lives
/// (GNU Go: `owl_attack` 0, `dragon_status` alive).
const LUNCH: &str = "
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
O O O O O O O O .
X X X X X X X O .
X . O . X . X O .
X X X X X X X O .";

#[test]
fn a_lunch_the_attacker_cannot_save_is_an_eye() {
    check(LUNCH, OwlGoal::Kill, "A2", 0, "");
}

/// White's B9 and E9 are in atari inside black's eyes, and black's F9
/// stands outside the dragon in atari: white saves E9 by taking F9 at
/// G9, and black's D9 is no eye (GNU Go's `ld2.sgf`, `ld_owl.tst` 5, a
/// few moves on). Black cannot live moving first either.
const RESCUE: &str = "
. O X . O X . . .
X X X X X O O O .
X O O O O O O . .
. O . . . . . . .
O O . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .";

#[test]
fn the_attacker_saves_a_spoiling_stone_by_capturing_outside() {
    check(RESCUE, OwlGoal::Kill, "A8", 1, "G9");
    check(RESCUE, OwlGoal::Live, "A8", 0, "");
}

/// Seven points of room in the corner (GNU Go's `ld14.sgf`, the upper
/// left, `ld_owl.tst` 53, on a small board): critical. Black lives at B8
/// (or A8) only because white's stones played into the space are lunches
/// one point from the dragon: in the lines where the dragon looks dead,
/// their capture is black's way out.
const CORNER_ROOM: &str = "
. . . . . . . . .
. . X O O . . . .
. . X O . . . . .
X X X O . . . . .
O O O O . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .";

#[test]
fn a_lunch_one_point_away_keeps_a_dragon_from_dead() {
    check_cached(CORNER_ROOM, OwlGoal::Live, "C6", 1, "B8|A8", false);
    check_cached(CORNER_ROOM, OwlGoal::Kill, "C6", 1, "B8|B9|C9|A8", true);
}

/// A corner that lives by taking a lunch (GNU Go's `ld9.sgf`, the lower
/// left, `ld_owl.tst` 36, on a small board, six moves into the line after
/// White's placement at B2), White to kill: White's A2 and B2 have two
/// liberties and cannot be saved, and they are what makes the eye at C1
/// false. The static view counted no eye at all, so it called the dragon
/// dead and the attack answered "pass"; taking the lunch gives an eye and
/// makes C1 a real one. GNU Go finds no kill either.
const FALSE_EYE_LUNCH: &str = "
. . . . . . . . .
. . . . . . . . .
. O . . . . . . .
. O O . . . . . .
O X O O . . . . .
. X X O . . . . .
X . X O O . . . .
O O X X O O . . .
. X . X . . . . .";

#[test]
fn a_lunch_that_makes_an_eye_false_keeps_a_dragon_from_dead() {
    check(FALSE_EYE_LUNCH, OwlGoal::Kill, "C4", 0, "");
}

/// A block on the rim of an eye space (GNU Go's `owl13.sgf`, the upper
/// right, `owl.tst` 129, on a small board), White to live: J8 keeps the
/// corner's space from Black's J7 and lives (so GNU Go answers; it also
/// attacks there). J8 touches no White stone, so it is neither the
/// dragon's margin nor in its eye space (J7 presses on it); the owl never
/// tried it and answered that White cannot live. The life is read to the
/// horizon, not proven, so it is not cached.
const RIM_BLOCK: &str = "
. . . X O . . . .
. . . X O . . . .
. . X X . O O O X
. . . X X X X X .
. . . X X . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .";

#[test]
fn a_block_on_the_rim_keeps_an_eye_space() {
    check_cached(RIM_BLOCK, OwlGoal::Live, "E9", 1, "J8", false);
}

/// A corner the static view calls dead as it stands (GNU Go's
/// `tripod5.sgf`, the lower right, `ld_owl.tst` 175, on a small board):
/// critical all the same. Black lives at H2, which the search finds only
/// because a dragon dead by the view still tries its moves near the root.
const DEAD_AS_IT_STANDS: &str = "
. . . . . . . . .
. . . . . . . . .
. . . . . . O . .
. . . . . . O . .
. . . . . . O O .
. . . . . O O X .
. . O O O O X X .
. . . O X X . . O
. . . . O . X . .";

#[test]
fn a_dragon_dead_by_the_view_still_tries_its_moves() {
    check_cached(DEAD_AS_IT_STANDS, OwlGoal::Live, "G3", 1, "H2", false);
    // J3 kills too: GNU Go 3.8's `owl_defend G3` after it answers 0.
    check_cached(DEAD_AS_IT_STANDS, OwlGoal::Kill, "G3", 1, "H2|J4|J3", false);
    // With a small budget (the owl in play) the view's verdict stands.
    let mut b = board(DEAD_AS_IT_STANDS);
    let target = b.geometry().parse_vertex("G3").unwrap();
    let problem = OwlProblem {
        goal: OwlGoal::Live,
        target,
    };
    // Enough to find H2 when reading on (it takes a few thousand moves).
    let small = Budget {
        nodes: 50_000,
        depth: OWL_BUDGET.depth,
    };
    assert!(small.nodes < READ_ON_FROM);
    let mut owl: Box<Owl> = Box::default();
    let ans = owl.solve(&mut Reader::without_cache(), &mut b, problem, small);
    assert_eq!(ans.verdict, Verdict::Fails, "{ans:?}");
}

/// GNU Go's `ld12.sgf` (`ld_owl.tst` 45, the upper left) after White
/// B18 and Black A18, on a small board: the view calls the black corner
/// dead (White's stone at B8 spoils the eye space), but Black, moving
/// first, takes it and lives; White has no kill (GNU Go 3.8: `owl_attack
/// C6` 0). Before the view's "dead" near the root was checked by letting
/// the defender move first, the owl answered `1 PASS`.
const DEAD_BY_THE_VIEW_ONLY: &str = "
. . X . . . . . .
X O X O O . . . .
. . X O . . . . .
X X X O . . . . .
. O O O . . . . .
. O . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .";

#[test]
fn a_dragon_dead_by_the_view_that_lives_moving_first_is_not_dead() {
    check(DEAD_BY_THE_VIEW_ONLY, OwlGoal::Kill, "C6", 0, "");
}

/// Two one-point eyes diagonal to each other in the corner (GNU Go's
/// `ld12.sgf`, `ld_owl.tst` 45, after the placement is taken): each is
/// the other's empty diagonal, and neither makes the other false, since
/// a stone there is taken at once. Before, the corner eye counted as half
/// an eye and white "killed" at D9.
const DIAGONAL_EYES: &str = "
X X X . O . . . .
X . X O O . . . .
. X X O . . . . .
X X X O . . . . .
. O O O . . . . .
. O . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .";

#[test]
fn two_eyes_diagonal_to_each_other_live() {
    check(DIAGONAL_EYES, OwlGoal::Kill, "A9", 0, "");
}

/// A wall on the edge with a corridor above (GNU Go's `ld1.sgf`, the
/// lower right, `ld_owl.tst` 3, on 13x13): black lives at M1 (or M7).
/// After N5 the corridor N6-N9 is no eye space: white blocks it at any
/// point, since every point of it but N6 touches M7, M8, M9 or N10,
/// empty points next to his wall. Before, it counted as a straight four
/// and black "lived" at N5, which white kills at M1.
const CORRIDOR: &str = "
. . . . . . . . . . . . .
. . . . . . . . . . . . .
. . . . . . . . . . . . .
. . . . . . . . . . O O .
. . . . . . . . . . O . .
. . . . . . . . . . O . .
. . . . . . . . . . O . .
. . . . . . . . . . O X .
. . . . . . . . . . O X .
. . . . . . . . . . O X .
. . . . . . . . . O O X .
. . . . . . . . . O O X .
. . . . . . . . . . . . .";

const CORRIDOR_AFTER_N5: &str = "
. . . . . . . . . . . . .
. . . . . . . . . . . . .
. . . . . . . . . . . . .
. . . . . . . . . . O O .
. . . . . . . . . . O . .
. . . . . . . . . . O . .
. . . . . . . . . . O . .
. . . . . . . . . . O X .
. . . . . . . . . . O X X
. . . . . . . . . . O X .
. . . . . . . . . O O X .
. . . . . . . . . O O X .
. . . . . . . . . . . . .";

#[test]
fn a_corridor_on_the_edge_is_no_eye_space() {
    check_cached(CORRIDOR, OwlGoal::Live, "M2", 1, "M1|M7", false);
    check_cached(CORRIDOR_AFTER_N5, OwlGoal::Kill, "M2", 1, "M1", false);
}

/// A wall on the edge with room below (GNU Go's `ld3.sgf`, the upper
/// right, `ld_owl.tst` 10, on a small board): white kills at J5, and
/// black lives at H4 (or J5, J4), not at J9, which makes a shape the
/// static view calls alive but white still kills: the attacker tries his
/// moves near the root even against a dragon alive by the view.
const ALIVE_BY_THE_VIEW: &str = "
. . . . . . . X .
. . . . . O O X O
. . . . . . O X X
. . . . . . O X .
. . . . . . O X .
. . . . . . O . .
. . . . . . O . .
. . . . . . O O .
. . . . . . . O .";

#[test]
fn a_dragon_alive_by_the_view_is_still_attacked() {
    check_cached(ALIVE_BY_THE_VIEW, OwlGoal::Live, "H8", 1, "H4|J5|J4", false);
    check_cached(ALIVE_BY_THE_VIEW, OwlGoal::Kill, "H8", 1, "J5", false);
}

/// The same wall after Black J9, which takes J8: the view calls it
/// alive, yet White moving first still kills at J5. Black to move answers
/// with the move that keeps it alive, H4 (as GNU Go does), not a pass:
/// at the root the defender tries a pass first, and reads his moves when
/// the dragon dies after it.
const ALIVE_AFTER_J9: &str = "
. . . . . . . X X
. . . . . O O X .
. . . . . . O X X
. . . . . . O X .
. . . . . . O X .
. . . . . . O . .
. . . . . . O . .
. . . . . . O O .
. . . . . . . O .";

#[test]
fn a_dragon_alive_by_the_view_answers_with_a_move() {
    check_cached(ALIVE_AFTER_J9, OwlGoal::Live, "H8", 1, "H4", true);
    check_cached(ALIVE_AFTER_J9, OwlGoal::Kill, "H8", 1, "J5", true);
}

/// The rectangular six on the edge, its walls with one outside liberty
/// (H1): short of liberties, it dies at E2 and lives there (GNU Go's
/// `comb1.sgf`, `ld_owl.tst` 305).
const RECTANGULAR_SIX: &str = "
. . . . . . . . .
. . . . . . . . .
. . . X X . X X .
X X X O X X O X .
O X O O X O O X X
O O O O O O O O O
. O X X X X O . O
O O X . . . X O .
O X X . . . X . .";

#[test]
fn a_rectangular_six_short_of_liberties_has_a_vital_point() {
    check(RECTANGULAR_SIX, OwlGoal::Kill, "C3", 1, "E2");
    check(RECTANGULAR_SIX, OwlGoal::Live, "C3", 1, "E2");
}

#[test]
fn straight_and_bent_three_are_decided_at_the_vital_point() {
    check(THREE, OwlGoal::Kill, "A2", 1, "B1");
    check(THREE, OwlGoal::Live, "A2", 1, "B1");
    check(BENT_THREE, OwlGoal::Kill, "C2", 1, "A2");
    check(BENT_THREE, OwlGoal::Live, "C2", 1, "A2");
}

#[test]
fn straight_four_and_two_eyes_live_two_points_die() {
    check(FOUR, OwlGoal::Kill, "A2", 0, "");
    assert_eq!(
        check(FOUR, OwlGoal::Live, "A2", 1, "PASS").key_move,
        Point::PASS
    );
    check(TWO_EYES, OwlGoal::Kill, "A1", 0, "");
    check(TWO, OwlGoal::Live, "A2", 0, "");
    // Dead already: the answer is still a move inside (GNU Go: A1).
    check(TWO, OwlGoal::Kill, "A2", 1, "A1|B1");
}

#[test]
fn an_empty_point_is_no_dragon() {
    let mut b = board(THREE);
    let target = b.geometry().parse_vertex("A1").unwrap();
    let mut owl: Box<Owl> = Box::default();
    let ans = owl.solve(
        &mut Reader::without_cache(),
        &mut b,
        OwlProblem {
            goal: OwlGoal::Kill,
            target,
        },
        OWL_BUDGET,
    );
    assert_eq!(ans.verdict, Verdict::Fails);
}

#[test]
fn two_stones_of_one_dragon_chain_share_the_cache_entry() {
    let mut b = board(THREE);
    let geo = b.geometry();
    let mut table: Table<TacticCluster, Box<[TacticCluster]>> =
        Table::new(vec![TacticCluster::EMPTY; 1 << 12].into_boxed_slice()).unwrap();
    let mut reader = Reader::new(&mut table);
    let mut owl: Box<Owl> = Box::default();
    let ask = |goal, v: &str| OwlProblem {
        goal,
        target: geo.parse_vertex(v).unwrap(),
    };
    let first = owl.solve(&mut reader, &mut b, ask(OwlGoal::Kill, "A2"), OWL_BUDGET);
    let again = owl.solve(&mut reader, &mut b, ask(OwlGoal::Kill, "D1"), OWL_BUDGET);
    assert_eq!((first, owl.stats().hits), (again, 1));
    // Another question about the same dragon is another problem.
    owl.solve(&mut reader, &mut b, ask(OwlGoal::Live, "A2"), OWL_BUDGET);
    assert_eq!(owl.stats().hits, 1);
}

/// The tripod in the corner (GNU Go's `tripod6.sgf`, `ld_owl.tst` 183):
/// White kills it only by a ko he needs a threat to win, starting at B2;
/// a long read, past the budget's old reach.
const TRIPOD_KO: &str = "
. . . . . . . . .
. . . . . . . . .
. . O . . . . . .
. O O . . . . . .
. X O . . . . . .
. X O O . . . . .
O . X O O O O . .
X . X . . . . . .
. . . . . . . . .";

#[test]
fn a_corner_tripod_dies_only_by_ko() {
    check_cached(TRIPOD_KO, OwlGoal::Kill, "C3", 3, "B2", false);
}
