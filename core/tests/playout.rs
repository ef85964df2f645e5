//! Playouts: they end, play only legal moves, never fill the mover's own
//! eye-like points with the light policy, score like the reference, follow
//! the waterfall rules on crafted diagrams, and are deterministic: a
//! recorded signature pins the moves of 400 playouts on every target.

mod reference;

use std::collections::BTreeMap;

use kosumi_core::board::Board;
use kosumi_core::geometry::{Color, Point, MAX_SIZE};
use kosumi_core::playout::{
    heavy_move, light_move, local, playout, playout_observed, policy_move, waterfall_move, Heavy,
    LocalAnswers, Policy, RuleStats,
};
use kosumi_core::rng;
use kosumi_core::shape;
use kosumi_core::tactics::{Ladder, LadderReader};
use reference::{move_name, Pt, RefBoard};

use Color::{Black, White};

/// The signature of 200 light and then 200 waterfall playouts on 9x9 from
/// `rng::seeded(42)`, komi 7.5: every move, the move count, the score margin
/// and the final position hash of each playout folded by [`fold`].
///
/// Board optimizations must not change it. A deliberate change of playout
/// semantics (policy, rng use, empty-list order) does: regenerate with
/// `KOSUMI_PRINT_SIGNATURE=1 CARGO_TARGET_DIR=/work/target-tests cargo test
/// -p kosumi-core --test playout signature -- --nocapture`, run it twice (and
/// with `--target i686-unknown-linux-gnu`) to see that it is stable, and
/// paste the printed value here.
const PLAYOUT_SIGNATURE: u64 = 0x932f_9b6c_3112_7694;

const KOMI2: i16 = 15;

/// Fold `v` into the signature `h`.
fn fold(h: u64, v: u64) -> u64 {
    (h.rotate_left(23) ^ v).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

fn pt(b: &Board, p: Point) -> Pt {
    b.geometry().coords(p)
}

/// Read a diagram; return the board and its marked points by letter.
fn setup(diagram: &str, to_play: Color) -> (Board, BTreeMap<char, Point>) {
    let mut marks = BTreeMap::new();
    let board = Board::from_diagram_marked(diagram, to_play, |p, ch| {
        marks.insert(ch, p);
    })
    .unwrap_or_else(|e| panic!("bad diagram {e:?}:\n{diagram}"));
    (board, marks)
}

/// The reference copy of a kosumi position (stones and side to move).
fn reference_of(b: &Board) -> RefBoard {
    let geo = b.geometry();
    let mut r = RefBoard::from_fn(b.size(), b.to_play(), |x, y| b.at(geo.point(x, y)).color());
    r.ko = b.ko().map(|k| geo.coords(k));
    r
}

/// Play `board` out move by move with `policy_move`, as `playout_observed`
/// does, checking each move against the reference before it is played;
/// return the moves.
fn checked_playout(board: &mut Board, policy: Policy, seed: u64) -> Vec<Point> {
    let mut r = reference_of(board);
    let mut rng = rng::seeded(seed);
    let mut stats = RuleStats::default();
    let limit = 3 * board.size() * board.size();
    let track = policy != Policy::Light;
    let mut moves = Vec::new();
    let fail = |what: String, board: &Board, moves: &[Point]| -> ! {
        let list: Vec<String> = moves
            .iter()
            .map(|&p| move_name((!p.is_pass()).then(|| pt(board, p))))
            .collect();
        panic!(
            "{policy:?} seed {seed}: {what}\nmoves: {}\n{board}",
            list.join(" ")
        )
    };
    while board.passes() < 2 && moves.len() < limit {
        let c = board.to_play();
        let p = policy_move(board, policy, &mut rng, &mut stats);
        if p.is_pass() {
            if policy == Policy::Light {
                // Light passes only when every legal move fills an own eye.
                if let Some(m) = r.legal_moves(c).into_iter().find(|&m| !r.is_eyelike(m, c)) {
                    fail(
                        format!("{c:?} passed with {} available", move_name(Some(m))),
                        board,
                        &moves,
                    );
                }
            }
        } else {
            let q = pt(board, p);
            if !board.is_legal(p, c) || r.legal(q, c).is_err() {
                fail(
                    format!(
                        "{c:?} {} is illegal ({:?})",
                        move_name(Some(q)),
                        r.legal(q, c)
                    ),
                    board,
                    &moves,
                );
            }
            if policy == Policy::Light && r.is_eyelike(q, c) {
                fail(
                    format!("{c:?} {} fills its own eye", move_name(Some(q))),
                    board,
                    &moves,
                );
            }
        }
        if track {
            board.play_legal(p, c);
        } else {
            board.play_legal_untracked(p, c);
        }
        r.play((!p.is_pass()).then(|| pt(board, p)), c)
            .expect("legal in the reference");
        moves.push(p);
    }
    assert!(
        board.passes() >= 2 || moves.len() == limit,
        "the loop ends only so"
    );
    // The final position and its score are the reference's.
    let geo = board.geometry();
    for q in r.points() {
        assert_eq!(
            board.at(geo.point(q.0, q.1)).color(),
            r.get(q),
            "at {}\n{board}",
            move_name(Some(q))
        );
    }
    let s = board.score(KOMI2);
    assert_eq!((s.black as u32, s.white as u32), r.area(), "score\n{board}");
    assert_eq!(s.margin2(), r.margin2(KOMI2 as i32));
    moves
}

/// The capture threshold of the default waterfall.
fn default_capture() -> u32 {
    match Policy::waterfall() {
        Policy::Waterfall { capture } => capture,
        _ => unreachable!("the waterfall is a waterfall"),
    }
}

const POLICIES: [Policy; 5] = [
    Policy::Light,
    Policy::waterfall(),
    Policy::Waterfall { capture: u32::MAX },
    Policy::Heavy(Heavy::DEFAULT),
    Policy::Heavy(Heavy {
        capture: u32::MAX,
        pattern: u32::MAX,
        reject: u32::MAX,
        ladder_escapes: u32::MAX,
        ladders: u32::MAX,
        two_liberties: u32::MAX,
        nakade: u32::MAX,
    }),
];

#[test]
fn playouts_are_legal_end_and_score_like_the_reference() {
    for size in [2, 3, 4, 5, 7, 9, 13, 19] {
        let size = size.min(MAX_SIZE);
        let runs = if size >= 13 { 2 } else { 12 };
        for policy in POLICIES {
            for seed in 0..runs {
                let mut b = Board::new(size).unwrap();
                let replayed = checked_playout(&mut b, policy, seed);
                // `playout_observed` plays and reports the very same moves.
                let mut fresh = Board::new(size).unwrap();
                let mut observed = Vec::new();
                let out = playout_observed(
                    &mut fresh,
                    policy,
                    KOMI2,
                    &mut rng::seeded(seed),
                    &mut RuleStats::default(),
                    |p, c| observed.push((p, c)),
                );
                assert_eq!(
                    observed.iter().map(|m| m.0).collect::<Vec<_>>(),
                    replayed,
                    "{policy:?} {size} {seed}"
                );
                assert!(observed
                    .chunks(2)
                    .all(|m| m[0].1 == Black && m.get(1).is_none_or(|w| w.1 == White)));
                assert_eq!(out.moves as usize, replayed.len());
                assert!(out.moves as usize <= 3 * size * size);
                assert_eq!(out.score, b.score(KOMI2));
                assert_eq!(fresh.position_hash(), b.position_hash());
            }
        }
    }
}

#[test]
fn playouts_from_a_ko_respect_the_ban() {
    // Black has just taken the ko at a; white may not retake at b at once.
    let (mut start, m) = setup(
        r#"
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . X O . . . .
        X O a O . . .
        . X O . . . .
        "#,
        Black,
    );
    start.play(m[&'a'], Black).unwrap();
    assert_eq!(
        start.ko(),
        Some(start.geometry().parse_vertex("B2").unwrap())
    );
    for policy in POLICIES {
        for seed in 0..40 {
            let mut b = start.clone();
            checked_playout(&mut b, policy, seed);
        }
    }
}

#[test]
fn playouts_from_positions_part_way_through_a_game() {
    // Start from the positions a light playout passes through.
    let mut b = Board::new(9.min(MAX_SIZE)).unwrap();
    let mut rng = rng::seeded(99);
    let mut stats = RuleStats::default();
    for step in 0..60 {
        let c = b.to_play();
        let p = light_move(&mut b, c, &mut rng, &mut stats);
        b.play_legal(p, c);
        if step % 6 == 5 {
            for policy in POLICIES {
                let mut copy = Board::new(MAX_SIZE).unwrap();
                copy.copy_from(&b);
                checked_playout(&mut copy, policy, step);
            }
        }
    }
}

// ------------------------------------------------------------- waterfall

/// The waterfall's move on `b` for each of `seeds` seeds (the board itself
/// is left alone).
fn waterfall_moves(b: &Board, capture: u32, seeds: u64) -> Vec<Point> {
    (0..seeds)
        .map(|seed| {
            let mut copy = b.clone();
            waterfall_move(
                &mut copy,
                capture,
                &mut rng::seeded(seed),
                &mut RuleStats::default(),
            )
        })
        .collect()
}

#[test]
fn waterfall_saves_by_capturing_an_adjacent_chain_in_atari() {
    // White's w puts C4-D4 in atari (last liberty C3); the white stone B4
    // next to it is in atari too: black takes it at a.
    let (mut b, m) = setup(
        r#"
        . . . . . . .
        . . . . . . .
        . X O O . . .
        a O X X w . .
        . X . O . . .
        . . . . . . .
        . . . . . . .
        "#,
        White,
    );
    b.play(m[&'w'], White).unwrap();
    let geo = b.geometry();
    assert_eq!(
        b.atari_liberty(geo.parse_vertex("C4").unwrap()),
        geo.parse_vertex("C3").ok()
    );
    assert_eq!(
        b.atari_liberty(geo.parse_vertex("B4").unwrap()),
        Some(m[&'a'])
    );
    for capture in [0, default_capture(), u32::MAX] {
        assert!(waterfall_moves(&b, capture, 50)
            .iter()
            .all(|&p| p == m[&'a']));
    }
}

#[test]
fn waterfall_saves_by_extending_to_two_liberties() {
    // No capture: extending at e joins B3 and gives C4-D4 four liberties.
    let (mut b, m) = setup(
        r#"
        . . . . . . .
        . . . . . . .
        . . O O . . .
        . O X X w . .
        . X e O . . .
        . . . . . . .
        . . . . . . .
        "#,
        White,
    );
    b.play(m[&'w'], White).unwrap();
    assert_eq!(
        b.atari_liberty(b.geometry().parse_vertex("D4").unwrap()),
        Some(m[&'e'])
    );
    assert!(b.liberties_after::<2>(m[&'e'], Black) >= 2);
    for capture in [0, u32::MAX] {
        assert!(waterfall_moves(&b, capture, 50)
            .iter()
            .all(|&p| p == m[&'e']));
    }
}

#[test]
fn waterfall_does_not_extend_into_one_liberty() {
    // Extending at e leaves one liberty (C2): rule 1 passes on it, and the
    // random rule picks e only by chance.
    let (mut b, m) = setup(
        r#"
        . . . . . . .
        . . . . . . .
        . . O O . . .
        . O X X w . .
        . O e O . . .
        . . . . . . .
        . . . . . . .
        "#,
        White,
    );
    b.play(m[&'w'], White).unwrap();
    let e = m[&'e'];
    assert_eq!(
        b.atari_liberty(b.geometry().parse_vertex("C4").unwrap()),
        Some(e)
    );
    assert_eq!(b.liberties_after::<3>(e, Black), 1);
    let moves = waterfall_moves(&b, 0, 300);
    let extensions = moves.iter().filter(|&&p| p == e).count();
    assert!(extensions < 60, "e chosen {extensions} times out of 300");
    let distinct: std::collections::BTreeSet<_> = moves.iter().collect();
    assert!(
        distinct.len() > 10,
        "random moves expected, got {distinct:?}"
    );
    assert!(moves.iter().all(|&p| b.is_legal(p, Black)));
}

#[test]
fn waterfall_captures_anywhere_when_worthwhile() {
    // White's last move (w) threatens nothing; the white stone C4 is in
    // atari and would get three liberties by extending at a: with the capture
    // rule always on, black takes it.
    let (mut b, m) = setup(
        r#"
        . . . . . . .
        . . . . . . .
        . . X . . . .
        . X O a . . .
        . . X . . . .
        . . . . . . .
        . . . . . . w
        "#,
        White,
    );
    b.play(m[&'w'], White).unwrap();
    let a = m[&'a'];
    assert!(b.liberties_after::<3>(a, White) >= 2);
    assert!(waterfall_moves(&b, u32::MAX, 50).iter().all(|&p| p == a));
    // Without the capture rule, a is just one random move among many.
    let never = waterfall_moves(&b, 0, 200);
    assert!(never.iter().filter(|&&p| p == a).count() < 40);
}

#[test]
fn waterfall_skips_a_capture_that_is_not_worthwhile() {
    // The white stone C4 is in atari, but extending at a would leave it one
    // liberty: the capture rule lets it be.
    let (mut b, m) = setup(
        r#"
        . . . . . . .
        . . . . . . .
        . . X . . . .
        . X O a X . .
        . . X X . . .
        . . . . . . .
        . . . . . . w
        "#,
        White,
    );
    b.play(m[&'w'], White).unwrap();
    let a = m[&'a'];
    assert_eq!(b.liberties_after::<3>(a, White), 1);
    let moves = waterfall_moves(&b, u32::MAX, 200);
    assert!(moves.iter().filter(|&&p| p == a).count() < 40);
}

// ---------------------------------------------------------- heavy policy

/// The heavy policy's move on `b` for each of `seeds` seeds.
fn heavy_moves(b: &Board, h: Heavy, seeds: u64) -> Vec<Point> {
    heavy_moves_reading(b, h, seeds, None)
}

/// Like [`heavy_moves`], with a ladder reader lent to the policy or not.
fn heavy_moves_reading(b: &Board, h: Heavy, seeds: u64, ladder: Option<&mut Ladder>) -> Vec<Point> {
    heavy_moves_with(b, h, seeds, ladder, None)
}

/// Like [`heavy_moves`], with a ladder reader and learned local answers
/// lent to the policy or not.
fn heavy_moves_with(
    b: &Board,
    h: Heavy,
    seeds: u64,
    mut ladder: Option<&mut Ladder>,
    local: Option<&LocalAnswers<'_>>,
) -> Vec<Point> {
    (0..seeds)
        .map(|seed| {
            let mut copy = b.clone();
            let p = heavy_move(
                &mut copy,
                h,
                &mut rng::seeded(seed),
                &mut RuleStats::default(),
                None,
                ladder.as_deref_mut().map(|l| l as &mut dyn LadderReader),
                local,
            );
            assert_eq!(copy.hash(), b.hash(), "the ladder reads restore the board");
            assert_eq!(copy.last_move(), b.last_move());
            p
        })
        .collect()
}

/// Only the random rule, refusing every bad self-atari.
const CAREFUL: Heavy = Heavy {
    capture: 0,
    pattern: 0,
    reject: u32::MAX,
    ladder_escapes: u32::MAX,
    ladders: 0,
    two_liberties: 0,
    nakade: 0,
};

/// White's hane w between two black stones, just played: the points
/// around it make hane shapes (a, b, c below it, d, e, f above).
fn hane() -> (Board, BTreeMap<char, Point>) {
    let (mut b, m) = setup(
        r#"
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . d e f . . . .
        . . X w X . . . .
        . . a b c . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        "#,
        White,
    );
    b.play(m[&'w'], White).unwrap();
    (b, m)
}

#[test]
fn heavy_answers_the_last_move_with_a_shape_next_to_it() {
    // White's hane w between two black stones: the points around it make
    // hane shapes (a, b, c below it, d, e, f above). With the pattern rule
    // always on, black answers next to w, at one of them.
    let (b, m) = hane();
    let around: Vec<Point> = "abcdef".chars().map(|ch| m[&ch]).collect();
    for &p in &around {
        assert!(shape::matches(&b, p));
    }
    let always = Heavy {
        pattern: u32::MAX,
        ..CAREFUL
    };
    let moves = heavy_moves(&b, always, 200);
    assert!(moves.iter().all(|p| around.contains(p)), "{moves:?}");
    let distinct: std::collections::BTreeSet<_> = moves.iter().collect();
    assert!(
        distinct.len() >= 4,
        "the start point is random: {distinct:?}"
    );
    // Without the rule they are six random points of 76.
    let near = heavy_moves(&b, CAREFUL, 200)
        .iter()
        .filter(|p| around.contains(p))
        .count();
    assert!(
        near < 60,
        "{near} of 200 next to w without the pattern rule"
    );
}

/// Return a table of local answers with chance `chance` at the codes of
/// `codes` and none elsewhere.
fn local_table(codes: &[u16], chance: u8) -> Vec<u8> {
    let mut chances = [0u8; local::CODES];
    for &k in codes {
        chances[usize::from(k)] = chance;
    }
    let mut bytes = [0u8; local::BYTES];
    local::encode(&chances, &mut bytes);
    bytes.to_vec()
}

#[test]
#[cfg(feature = "local-answers")]
fn heavy_answers_where_the_learned_table_says_not_where_the_shapes_do() {
    // The hane of the test above: six hand-made shapes around w. A learned
    // table that answers only at b's neighbourhood (as black, to move,
    // sees it) always answers at b; one that never answers leaves the move
    // to the random rule, hardly ever next to w.
    let (b, m) = hane();
    let at_b = local::code_for(&b, m[&'b'], Black);
    let around: Vec<Point> = "abcdef".chars().map(|ch| m[&ch]).collect();
    for &p in &around {
        assert!(p == m[&'b'] || local::code_for(&b, p, Black) != at_b);
    }
    let always = Heavy {
        pattern: u32::MAX,
        ..CAREFUL
    };
    let only_b = local_table(&[at_b], 255);
    let table = LocalAnswers::parse(&only_b).unwrap();
    let moves = heavy_moves_with(&b, always, 100, None, Some(&table));
    assert!(moves.iter().all(|&p| p == m[&'b']), "{moves:?}");
    let never = local_table(&[], 0);
    let table = LocalAnswers::parse(&never).unwrap();
    let near = heavy_moves_with(&b, always, 200, None, Some(&table))
        .iter()
        .filter(|p| around.contains(p))
        .count();
    assert!(near < 60, "{near} of 200 next to w with no learned answer");
}

#[test]
fn local_answers_see_the_board_from_the_side_to_move() {
    // The same shape with the colours swapped has the same code for the
    // other side: a table learned for both colours at once.
    let diagram =
        |x: char, o: char| format!(". . . . .\n. {x} {o} . .\n. . a . .\n. . {o} . .\n. . . . .\n");
    let (b1, m1) = setup(&diagram('X', 'O'), Black);
    let (b2, m2) = setup(&diagram('O', 'X'), White);
    let a1 = local::code_for(&b1, m1[&'a'], Black);
    assert_eq!(a1, local::code_for(&b2, m2[&'a'], White));
    assert_ne!(a1, local::code_for(&b1, m1[&'a'], White));
}

#[test]
fn damaged_local_answer_tables_are_refused() {
    let good = local_table(&[7], 200);
    assert!(LocalAnswers::parse(&good).is_ok());
    assert_eq!(
        LocalAnswers::parse(&good[..good.len() - 1]).unwrap_err(),
        local::LocalError::Length(local::BYTES - 1)
    );
    let mut corrupt = good.clone();
    corrupt[100] ^= 1;
    assert!(matches!(
        LocalAnswers::parse(&corrupt),
        Err(local::LocalError::Checksum { .. })
    ));
    let mut foreign = good.clone();
    foreign[0] = b'X';
    assert_eq!(
        LocalAnswers::parse(&foreign).unwrap_err(),
        local::LocalError::NotATable
    );
}

#[test]
fn heavy_refuses_a_self_atari_of_three_stones() {
    // Black at s would leave C4-D4-E4 one liberty (t), in the open: refused.
    // Extending at t instead is fine.
    let (b, m) = setup(
        r#"
        . . . . . . .
        . . . . . . .
        . . O O O . .
        . t X X s O .
        . . O O O . .
        . . . . . . .
        . . . . . . .
        "#,
        Black,
    );
    let s = m[&'s'];
    assert!(b.is_self_atari(s, Black) && !b.is_self_atari(m[&'t'], Black));
    let refused = heavy_moves(&b, CAREFUL, 400);
    assert!(!refused.contains(&s));
    assert!(refused.contains(&m[&'t']));
    let anything = Heavy {
        reject: 0,
        ..CAREFUL
    };
    assert!(heavy_moves(&b, anything, 400).contains(&s));
}

#[test]
fn heavy_allows_a_nakade_self_atari() {
    // Black's n joins A1 into two stones in atari, but their last liberty
    // (A2) is enclosed by white: a nakade, which the playout may play. A
    // lone stone's self-atari (a throw-in at t) is allowed too.
    let (b, m) = setup(
        r#"
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        O O O . . . .
        . O O . . . .
        X n O O t O .
        "#,
        Black,
    );
    let (n, t) = (m[&'n'], m[&'t']);
    assert!(b.is_self_atari(n, Black));
    assert!(b.liberties_after::<2>(t, Black) == 1 && !b.is_self_atari(t, Black));
    let moves = heavy_moves(&b, CAREFUL, 400);
    assert!(moves.contains(&n) && moves.contains(&t));
}

/// Only the two-liberty check (and the random rule after it).
#[cfg(feature = "fights")]
const TWO_LIBERTIES: Heavy = Heavy {
    two_liberties: u32::MAX,
    ..CAREFUL
};

#[cfg(feature = "fights")]
#[test]
fn heavy_ataris_a_stone_the_last_move_left_with_two_liberties() {
    // White's w has two liberties, a and b, and no friend to connect to:
    // black ataris it at either.
    let (mut b, m) = setup(
        r#"
        . . . . . . .
        . . . . . . .
        . . . X . . .
        . . X w a . .
        . . . b X . .
        . . . . . . .
        . . . . . . .
        "#,
        White,
    );
    b.play(m[&'w'], White).unwrap();
    let (a, bb) = (m[&'a'], m[&'b']);
    let moves = heavy_moves(&b, TWO_LIBERTIES, 200);
    assert!(moves.iter().all(|&p| p == a || p == bb), "{moves:?}");
    assert!(moves.contains(&a) && moves.contains(&bb));
    // Without the rule, two random points of 44.
    let near = heavy_moves(&b, CAREFUL, 200)
        .iter()
        .filter(|&&p| p == a || p == bb)
        .count();
    assert!(near < 40, "{near} of 200 without the rule");
}

#[cfg(feature = "fights")]
#[test]
fn heavy_extends_a_chain_the_last_move_left_with_two_liberties() {
    // White's w leaves black's two stones the liberties a and b: black
    // extends at either (both gain liberties; no white chain next to
    // them is short of liberties to counter-atari).
    let (mut b, m) = setup(
        r#"
        . . . . . . .
        . . . . . . .
        . . O O . . .
        . a X X O . .
        . . b w . . .
        . . . . . . .
        . . . . . . .
        "#,
        White,
    );
    b.play(m[&'w'], White).unwrap();
    let (a, bb) = (m[&'a'], m[&'b']);
    let moves = heavy_moves(&b, TWO_LIBERTIES, 200);
    assert!(moves.iter().all(|&p| p == a || p == bb), "{moves:?}");
}

#[cfg(feature = "fights")]
#[test]
fn heavy_does_not_extend_where_the_extension_gains_nothing() {
    // White's w leaves black's two stones the liberties a and b. At a
    // the chain would still have two liberties (f and b): hopeless, as in
    // Pachi. Black extends at b only.
    let (mut b, m) = setup(
        r#"
        . . . . . . .
        . . . . . . .
        . . O O O . .
        . b X X a f .
        . . w O O . .
        . . . . . . .
        . . . . . . .
        "#,
        White,
    );
    b.play(m[&'w'], White).unwrap();
    let moves = heavy_moves(&b, TWO_LIBERTIES, 200);
    assert!(moves.iter().all(|&p| p == m[&'b']), "{moves:?}");
}

#[cfg(feature = "fights")]
#[test]
fn heavy_leaves_a_stone_that_connects_either_way() {
    // White's w has two liberties, but each connects it to a white
    // stone with liberties to spare (miai): no atari is forced.
    let (mut b, m) = setup(
        r#"
        . . . . . . .
        . . . . . . .
        . . . X . . .
        . O a w b O .
        . . . X . . .
        . . . . . . .
        . . . . . . .
        "#,
        White,
    );
    b.play(m[&'w'], White).unwrap();
    let (a, bb) = (m[&'a'], m[&'b']);
    let near = heavy_moves(&b, TWO_LIBERTIES, 200)
        .iter()
        .filter(|&&p| p == a || p == bb)
        .count();
    assert!(near < 40, "{near} of 200 at a or b");
}

#[cfg(feature = "fights")]
#[test]
fn heavy_plays_the_vital_point_of_a_straight_three() {
    // White's w closes a straight three in the corner: black plays its
    // middle, v, and white's group has one eye.
    let (mut b, m) = setup(
        r#"
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        O O O O . . .
        a v c w O . .
        "#,
        White,
    );
    b.play(m[&'w'], White).unwrap();
    let nakade = Heavy {
        nakade: u32::MAX,
        ..CAREFUL
    };
    let v = m[&'v'];
    let moves = heavy_moves(&b, nakade, 100);
    assert!(moves.iter().all(|&p| p == v), "{moves:?}");
    assert!(!heavy_moves(&b, CAREFUL, 100).iter().all(|&p| p == v));
}

#[test]
fn heavy_does_not_run_from_atari_into_a_ladder() {
    // White's w ataris the black stone X; extending at e leaves two
    // liberties (B3, C2), and white chases it to the edge. With a ladder
    // reader lent, the save rule does not extend; without one, it does.
    let (mut b, m) = setup(
        r#"
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . O . . . . . .
        . O X w . . . . .
        . . e O . . . . .
        . . . . . . . . .
        . . . . . . . . .
        "#,
        White,
    );
    b.play(m[&'w'], White).unwrap();
    let e = m[&'e'];
    let mut ladder: Box<Ladder> = Box::new(Ladder::new());
    assert!(ladder.caught_after(&mut b.clone(), e, Black));
    assert!(heavy_moves(&b, CAREFUL, 100).iter().all(|&p| p == e));
    // Reading, e is only one random move of about 75.
    let reading = heavy_moves_reading(&b, CAREFUL, 100, Some(&mut ladder));
    assert!(reading.iter().filter(|&&p| p == e).count() < 10);
    let blind = Heavy {
        ladder_escapes: 0,
        ..CAREFUL
    };
    let lent = heavy_moves_reading(&b, blind, 100, Some(&mut ladder));
    assert!(
        lent.iter().all(|&p| p == e),
        "chance 0: the reader is not asked"
    );
}

#[test]
fn heavy_ataris_the_last_move_when_the_ladder_catches_it() {
    // White's w has two liberties, a and c. Black's atari at a drives it
    // into a ladder to the edge: the rule plays an atari that catches.
    let (mut b, m) = setup(
        r#"
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . X . . . . . .
        . X w a . . . . .
        . . c X . . . . .
        . . . . . . . . .
        . . . . . . . . .
        "#,
        White,
    );
    b.play(m[&'w'], White).unwrap();
    let (a, w) = (m[&'a'], m[&'w']);
    let mut ladder: Box<Ladder> = Box::new(Ladder::new());
    assert!(ladder.caught_after_atari(&mut b.clone(), a, Black, w));
    let always = Heavy {
        ladders: u32::MAX,
        ..CAREFUL
    };
    let reading = heavy_moves_reading(&b, always, 100, Some(&mut ladder));
    let catches = |p: Point| {
        let mut fresh: Ladder = Ladder::new();
        fresh.caught_after_atari(&mut b.clone(), p, Black, w)
    };
    assert!(reading.iter().all(|&p| catches(p)), "{reading:?}");
    // Without the reader, a is one random move of many.
    let random = heavy_moves(&b, always, 100);
    assert!(random.iter().filter(|&&p| p == a).count() < 20);
}

#[test]
fn heavy_extends_a_chain_the_last_move_leaves_in_a_ladder() {
    // White's w leaves the black stone X two liberties, a and c. White's
    // atari at a would catch it in a ladder; black extends at a (three
    // liberties), not at c (two).
    let (mut b, m) = setup(
        r#"
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . w . . . . . .
        . O X a . . . . .
        . . c O . . . . .
        . . . . . . . . .
        . . . . . . . . .
        "#,
        White,
    );
    b.play(m[&'w'], White).unwrap();
    let (a, x) = (m[&'a'], m[&'c']);
    let mut ladder: Box<Ladder> = Box::new(Ladder::new());
    let stone = b.geometry().neighbours(a)[0..4]
        .iter()
        .copied()
        .find(|&q| b.at(q) == kosumi_core::geometry::Cell::Black)
        .unwrap();
    assert!(ladder.caught_with_two(&mut b.clone(), stone));
    let always = Heavy {
        ladders: u32::MAX,
        ..CAREFUL
    };
    let reading = heavy_moves_reading(&b, always, 100, Some(&mut ladder));
    assert!(reading.iter().all(|&p| p == a), "{reading:?}");
    assert!(!reading.contains(&x));
    // Off (chance 0), the rule is silent.
    let off = heavy_moves_reading(&b, CAREFUL, 100, Some(&mut ladder));
    assert!(off.iter().filter(|&&p| p == a).count() < 20);
}

// ---------------------------------------------------------- determinism

#[test]
fn same_seed_same_playout_other_seed_other_playout() {
    for size in [9, 13] {
        let size = size.min(MAX_SIZE);
        for policy in POLICIES {
            let run = |seed: u64| {
                let mut b = Board::new(size).unwrap();
                let mut moves = Vec::new();
                let out = playout_observed(
                    &mut b,
                    policy,
                    KOMI2,
                    &mut rng::seeded(seed),
                    &mut RuleStats::default(),
                    |p, _| moves.push(p),
                );
                (moves, out, b.position_hash())
            };
            assert_eq!(run(7), run(7));
            assert_ne!(run(7).0, run(8).0);
        }
    }
}

/// Fold 200 light and 200 waterfall 9x9 playouts from seed 42.
fn signature() -> u64 {
    let mut rng = rng::seeded(42);
    let mut stats = RuleStats::default();
    let mut h = 0;
    for policy in [Policy::Light, Policy::waterfall()] {
        for _ in 0..200 {
            let mut b = Board::new(9).unwrap();
            let out = playout_observed(&mut b, policy, KOMI2, &mut rng, &mut stats, |p, _| {
                h = fold(h, p.0 as u64);
            });
            h = fold(h, out.moves as u64);
            h = fold(h, out.score.margin2() as i64 as u64);
            h = fold(h, b.position_hash());
        }
    }
    h
}

#[test]
fn signature_of_400_playouts_is_recorded() {
    let sig = signature();
    if std::env::var_os("KOSUMI_PRINT_SIGNATURE").is_some() {
        println!("const PLAYOUT_SIGNATURE: u64 = {sig:#018x};");
    }
    assert_eq!(sig, signature(), "two runs differ");
    assert_eq!(
        sig, PLAYOUT_SIGNATURE,
        "playouts changed: {sig:#018x} (see PLAYOUT_SIGNATURE on how to regenerate)"
    );
}

#[test]
fn playout_matches_playout_observed() {
    let mut a = Board::new(9.min(MAX_SIZE)).unwrap();
    let mut b = a.clone();
    let oa = playout(
        &mut a,
        Policy::waterfall(),
        KOMI2,
        &mut rng::seeded(3),
        &mut RuleStats::default(),
    );
    let ob = playout_observed(
        &mut b,
        Policy::waterfall(),
        KOMI2,
        &mut rng::seeded(3),
        &mut RuleStats::default(),
        |_, _| {},
    );
    assert_eq!(oa, ob);
    assert_eq!(a.hash(), b.hash());
}
