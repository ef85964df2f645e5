//! The end of a game on the host: `final_score` and `final_status_list`
//! over the core's scoring ([`kosumi_core::game::scoring`]: dead stones by
//! a playout ownership estimate, the area count without them), with the
//! host's number of playouts; `--tromp-taylor` counts the board as it
//! stands.

use kosumi_core::board::Board;
use kosumi_core::game::{self, Ownership};
use kosumi_core::geometry::{Color, Point};

use super::commands::{exactly, halves, Failure, Reply};
use super::Engine;

/// Playouts of the ownership estimate.
pub const OWNERSHIP_PLAYOUTS: u32 = 400;

/// Seed of the estimate (fixed: the same position gets the same answer).
const SEED: u64 = 7;

/// Query whether `c` wins the game ended now (see
/// [`kosumi_core::game::passing_wins`]).
pub fn passing_wins(board: &Board, komi2: i16, c: Color) -> bool {
    game::passing_wins(
        board,
        komi2,
        c,
        OWNERSHIP_PLAYOUTS,
        SEED,
        &mut board.clone(),
    )
}

/// Return the ownership estimate of `board`.
fn ownership(board: &Board, komi2: i16) -> Ownership {
    Ownership::estimate(board, komi2, OWNERSHIP_PLAYOUTS, SEED, &mut board.clone())
}

/// Return the stones the ownership estimate calls dead.
pub fn dead_stones(board: &Board, komi2: i16) -> Vec<Point> {
    let own = ownership(board, komi2);
    board
        .geometry()
        .points()
        .filter(|&p| own.is_dead(board, p))
        .collect()
}

/// Return twice black's final margin: the area count with the dead
/// stones removed, or of the board as it stands under Tromp-Taylor.
pub fn final_margin2(board: &Board, komi2: i16, tromp_taylor: bool) -> i32 {
    if tromp_taylor {
        board.score(komi2).margin2()
    } else {
        ownership(board, komi2).final_margin2(board, komi2)
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
