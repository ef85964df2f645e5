//! Journaled undo: playing a move with `play_undoable` and taking it back
//! restores the board exactly, over many random games, captures included.

use kosumi_core::board::{Board, Journal};
use kosumi_core::geometry::{Color, Point, MAX_SIZE};
use kosumi_core::rng;

/// Return a random legal move for the side to move (pass if none).
fn random_legal(board: &Board, r: &mut rng::Rng) -> Point {
    let empties: Vec<Point> = board.empty_points().collect();
    let c = board.to_play();
    let legal: Vec<Point> = empties
        .into_iter()
        .filter(|&p| board.is_legal(p, c))
        .collect();
    if legal.is_empty() || rng::below(r, 20) == 0 {
        Point::PASS
    } else {
        legal[rng::below(r, legal.len() as u32) as usize]
    }
}

#[test]
fn undo_restores_every_field_along_random_games() {
    let mut r = rng::seeded(7);
    let mut journal: Box<Journal<40_000, 400>> = Box::default();
    let sizes = [5usize, 7, 9, 9, 13, 19];
    for (game, size) in sizes.into_iter().filter(|&s| s <= MAX_SIZE).enumerate() {
        let mut board = Board::new(size).unwrap();
        let mut history: Vec<Board> = vec![board.clone()];
        journal.clear();
        // Play forward with the journal, keeping a copy of every position.
        for _ in 0..(size * size * 2).min(390) {
            let p = random_legal(&board, &mut r);
            let c = board.to_play();
            board
                .play_undoable(p, c, &mut journal)
                .expect("journal has room");
            let mut direct = history.last().unwrap().clone();
            direct.play_legal(p, c);
            assert!(
                board.identical(&direct),
                "game {game}: journaled play differs from play_legal"
            );
            history.push(board.clone());
        }
        // Take every move back and compare with the saved positions.
        history.pop();
        while let Some(before) = history.pop() {
            assert!(board.undo(&mut journal), "game {game}: undo refused");
            assert!(
                board.identical(&before),
                "game {game}: undo left a different board at depth {}\n{board}\n{before}",
                journal.depth()
            );
        }
        assert!(
            !board.undo(&mut journal),
            "an empty journal has nothing to undo"
        );
    }
}

#[test]
fn a_full_journal_refuses_the_move_and_leaves_the_board_alone() {
    let mut board = Board::new(9).unwrap();
    let mut journal: Journal<200, 2> = Journal::new();
    let g = board.geometry();
    board
        .play_undoable(g.point(2, 2), Color::Black, &mut journal)
        .unwrap();
    board
        .play_undoable(g.point(3, 3), Color::White, &mut journal)
        .unwrap();
    let before = board.clone();
    assert!(board
        .play_undoable(g.point(4, 4), Color::Black, &mut journal)
        .is_err());
    assert!(board.identical(&before));
    assert!(board.undo(&mut journal) && board.undo(&mut journal));
    assert!(board.identical(&Board::new(9).unwrap()));
}

#[test]
fn position_hash_after_matches_playing_every_legal_move() {
    let mut r = rng::seeded(11);
    let mut checked_captures = 0;
    for size in [5usize, 7, 9, 9, 13, 19]
        .into_iter()
        .filter(|&s| s <= MAX_SIZE)
    {
        let mut board = Board::new(size).unwrap();
        for _ in 0..(size * size * 2).min(390) {
            let c = board.to_play();
            for p in board.empty_points().collect::<Vec<_>>() {
                if !board.is_legal(p, c) {
                    continue;
                }
                let mut after = board.clone();
                after.play_legal(p, c);
                assert_eq!(
                    board.position_hash_after(p, c),
                    after.position_hash(),
                    "size {size}: {c:?} at {p:?}\n{board}"
                );
                if after.captures(c) > board.captures(c) {
                    checked_captures += 1;
                }
            }
            let p = random_legal(&board, &mut r);
            board.play_legal(p, c);
        }
    }
    assert!(
        checked_captures > 100,
        "only {checked_captures} captures seen"
    );
}

#[test]
fn reset_in_place_equals_a_new_board_of_any_size() {
    let mut board = Board::new(9).unwrap();
    let mut rng = kosumi_core::rng::seeded(3);
    let mut stats = kosumi_core::playout::RuleStats::default();
    kosumi_core::playout::playout(
        &mut board,
        kosumi_core::playout::Policy::Light,
        15,
        &mut rng,
        &mut stats,
    );
    assert!(board.empty_count() < 81);
    for size in [9, 5, 7, 9] {
        board.reset(size).unwrap();
        assert!(board.identical(&Board::new(size).unwrap()), "size {size}");
    }
    assert!(board.reset(1).is_err() && board.identical(&Board::new(9).unwrap()));
}
