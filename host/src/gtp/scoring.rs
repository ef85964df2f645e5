//! The end of a game: which stones are dead (a playout ownership
//! estimate), the score a scorer who removes them would count
//! (`final_score`, `final_status_list`), and whether passing now wins.
//!
//! A stone is dead when the playouts give its point to the opponent more
//! than [`DEAD_SHARE`] of the time (the playouts go on from a finished
//! game's position); `final_score` takes the dead stones
//! off and counts area ([`Board::score_removing`]), as GNU Go's referee and
//! the GUIs do, or counts the board as it stands with `--tromp-taylor`.

use kosumi_core::board::Board;
use kosumi_core::geometry::{Cell, Color, Point, MAX_POINTS};
use kosumi_core::playout;
use kosumi_core::rng;

use super::commands::{exactly, halves, Failure, Reply};
use super::Engine;

/// Playouts of the ownership estimate.
pub const OWNERSHIP_PLAYOUTS: u32 = 400;
/// Share of the playouts in which the opponent owns a stone's point above
/// which it is dead: a majority, as the score estimate counts (0.7 agreed
/// with GNU Go's referee on 78% of 37 finished games, a majority on 95% of
/// 43; `kosumi bench score`, 2026-11-24).
pub const DEAD_SHARE: f32 = 0.5;

/// Return the per-point share of playouts that `Color::Black` owns at the end
/// (indexed by point), from `n` waterfall playouts of `board`.
pub fn ownership(board: &Board, komi2: i16, n: u32, seed: u64) -> Vec<f32> {
    let mut black = [0u16; MAX_POINTS];
    let mut scratch = board.clone();
    playout::ownership(
        board,
        komi2,
        n,
        &mut rng::seeded(seed),
        &mut scratch,
        &mut black,
    );
    black
        .iter()
        .map(|&v| v as f32 / (2 * n.max(1)) as f32)
        .collect()
}

/// Query whether `c` wins the game ended now: by area as the position
/// stands (what a scorer counts for settled regions) and with the stones
/// that playouts call dead removed (what it counts for dead groups).
pub fn passing_wins(board: &Board, komi2: i16, c: Color) -> bool {
    if board.score(komi2).winner() != Some(c) {
        return false;
    }
    let mut scratch = board.clone();
    let margin2 = playout::estimated_margin2(
        board,
        komi2,
        OWNERSHIP_PLAYOUTS,
        &mut rng::seeded(7),
        &mut scratch,
    );
    let sign = if c == Color::Black { 1 } else { -1 };
    sign * margin2 > 0
}

/// Return the stones the ownership estimate calls dead.
pub fn dead_stones(board: &Board, komi2: i16) -> Vec<Point> {
    let own = ownership(board, komi2, OWNERSHIP_PLAYOUTS, 7);
    board
        .geometry()
        .points()
        .filter(|&p| match board.at(p) {
            Cell::Black => own[p.idx()] < 1.0 - DEAD_SHARE,
            Cell::White => own[p.idx()] > DEAD_SHARE,
            _ => false,
        })
        .collect()
}

/// Return twice black's final margin: the area count with the dead
/// stones removed, or of the board as it stands under Tromp-Taylor.
pub fn final_margin2(board: &Board, komi2: i16, tromp_taylor: bool) -> i32 {
    if tromp_taylor {
        board.score(komi2).margin2()
    } else {
        let dead = dead_stones(board, komi2);
        board.score_removing(komi2, |p| dead.contains(&p)).margin2()
    }
}

/// `final_status_list alive|dead|seki`, from a playout ownership estimate.
pub fn final_status_list(engine: &mut Engine, args: &[String]) -> Reply {
    let [which] = args else {
        return Err(Failure::Syntax);
    };
    let board = engine.game.board();
    let geo = board.geometry();
    let dead = dead_stones(board, engine.game.komi2());
    let list: Vec<Point> = match which.to_ascii_lowercase().as_str() {
        "dead" => dead,
        "alive" => geo
            .points()
            .filter(|&p| board.at(p).color().is_some() && !dead.contains(&p))
            .collect(),
        "seki" => Vec::new(),
        _ => return Err(Failure::Syntax),
    };
    let mut buf = [0u8; 4];
    Ok(list
        .iter()
        .map(|&p| geo.vertex_str(p, &mut buf).to_string())
        .collect::<Vec<_>>()
        .join(" "))
}

/// `final_score`: the area count after the stones `final_status_list dead`
/// names are taken off (as GNU Go's and the GUIs' scoring does), or of the
/// board as it stands with `--tromp-taylor`.
pub fn final_score(engine: &mut Engine, args: &[String]) -> Reply {
    exactly::<0>(args)?;
    let board = engine.game.board();
    let komi2 = engine.game.komi2();
    let margin2 = final_margin2(board, komi2, engine.services.play.opts.tromp_taylor);
    Ok(match margin2 {
        0 => "0".into(),
        m if m > 0 => format!("B+{}", halves(m)),
        m => format!("W+{}", halves(-m)),
    })
}
