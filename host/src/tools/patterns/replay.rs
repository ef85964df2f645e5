//! Replaying a game record into the positions a model learns from: the
//! board before each move, the side to move, the move, and the candidate
//! moves it was chosen among.

use kosumi_core::board::Board;
use kosumi_core::geometry::{Color, Point, MAX_SIZE};

use kosumi_sgf::{read_collection, Record};

/// Return the main line of every game in `text` that this build can
/// replay (square, at most the build's largest size); broken trees are
/// skipped.
pub fn records(text: &str) -> Vec<Record> {
    read_collection(text)
        .into_iter()
        .flatten()
        .filter(|r| usize::from(r.size.0) <= MAX_SIZE)
        .collect()
}

/// Call `at(board, colour, move, move_number)` before each move of
/// `record`'s main line (move numbers from 1), then play the move; stop at
/// the first illegal move (a broken record). The board's side to move is
/// the mover's.
pub fn replay(record: &Record, mut at: impl FnMut(&mut Board, Color, Point, usize)) {
    let size = usize::from(record.size.0);
    let Ok(mut board) = Board::new(size) else {
        return;
    };
    let geo = board.geometry();
    let point = |(x, y): (u8, u8)| geo.point(usize::from(x), size - 1 - usize::from(y));
    for &(p, c) in &record.setup {
        if board.setup_stone(point(p), c).is_err() {
            return;
        }
    }
    for (k, &(c, m)) in record.moves.iter().enumerate() {
        let p = m.map_or(Point::PASS, point);
        board.set_to_play(c);
        at(&mut board, c, p, k + 1);
        if board.play(p, c).is_err() {
            return;
        }
    }
}

/// Write the candidate moves of `c` on `board` into `out`: the moves a
/// search would expand (legal, not filling an own eye-like point) and the
/// pass.
pub fn candidates(board: &Board, c: Color, out: &mut Vec<Point>) {
    out.clear();
    out.extend(
        board
            .empty_points()
            .filter(|&p| board.is_playout_move(p, c)),
    );
    out.push(Point::PASS);
}
