//! `kosumi book`: the opening book for read-only memory, made by searches
//! of a GTP engine (here this program at a few playouts, on 5x5): the file
//! is one the core reads, every position the book promises is in it with
//! a legal move, and the eight images of a position share their move.

use std::process::Command;

use kosumi_core::board::Board;
use kosumi_core::game::Book;
use kosumi_core::geometry::{Color, Geometry};
use kosumi_db::symmetry::{apply_on, SYMS};

/// Return the 5x5 board with black's one stone at (x, y), white to move.
fn one_stone(x: usize, y: usize) -> Board {
    let mut b = Board::new(5).unwrap();
    let geo = Geometry::new(5).unwrap();
    b.play(geo.point(x, y), Color::Black).unwrap();
    b
}

#[test]
fn a_book_of_two_plies_answers_every_first_move_by_symmetry() {
    let dir = std::env::temp_dir().join(format!("kosumi-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("5x5.kob");
    let o = Command::new(env!("CARGO_BIN_EXE_kosumi"))
        .args([
            "book",
            "--size",
            "5",
            "--komi",
            "0",
            "--plies",
            "2",
            "--playouts",
            "300",
            "--quiet",
        ])
        .arg("--out")
        .arg(&out)
        .output()
        .expect("kosumi book runs");
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // Black's first move (one search) and white's answer to each of the
    // 25 first moves: six searches, one for each class of points under
    // the eight symmetries (corner, edge next to it, middle of the edge,
    // the 2-2 point, between it and the centre, the centre).
    assert!(said.contains(": 26 positions (7 searches"), "{said}");
    let bytes = std::fs::read(&out).unwrap();
    let book = Book::parse(&bytes).expect("the core reads the book");
    assert_eq!((book.size(), book.len()), (5, 26));
    let geo = Geometry::new(5).unwrap();
    let first = book
        .lookup(&Board::new(5).unwrap())
        .expect("black's first move");
    assert!(geo.on_board(first));
    for y in 0..5 {
        for x in 0..5 {
            let b = one_stone(x, y);
            let answer = book.lookup(&b).expect("white's answer to every first move");
            assert!(b.is_legal(answer, Color::White), "{x},{y}");
            // The images of the position answer with the images of the move.
            let (ax, ay) = geo.coords(answer);
            for t in 0..SYMS {
                let (ix, iy) = apply_on(t, 5, x, y);
                let image = book.lookup(&one_stone(ix, iy)).unwrap();
                let (jx, jy) = apply_on(t, 5, ax, ay);
                let b2 = one_stone(ix, iy);
                // A position with symmetries of its own may keep another
                // of its equivalent answers: the move's image or one of
                // the position's own images of it.
                let same = (0..SYMS).any(|u| {
                    let (sx, sy) = apply_on(u, 5, jx, jy);
                    apply_on(u, 5, ix, iy) == (ix, iy) && image == geo.point(sx, sy)
                });
                assert!(
                    same && b2.is_legal(image, Color::White),
                    "{x},{y} under {t}"
                );
            }
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}
