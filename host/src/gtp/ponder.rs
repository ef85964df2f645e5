//! Pondering (`--ponder`, `kosumi-setoption ponder on`): after a command
//! that played the engine's move, the loop searches the position, the
//! opponent to move, until the next input line arrives.
//!
//! The search is the analysis's ([`super::analyze`]) without its reports:
//! one-second searches of the same root, each stopped within one playout
//! of a waiting line (the input thread's count), so the next command is
//! answered as if there had been no ponder. The tree stays: the next
//! `genmove` finds the opponent's move among the root's children and
//! keeps that subtree ([`kosumi_core::search`]'s tree reuse). A full pool
//! prunes itself as in any long search, so memory never grows. Helper
//! threads (`--threads`) do not ponder. In a handicap game the dynamic
//! komi differs by colour, and a search under another komi starts a new
//! tree: there the ponder only warms the best-move table.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use kosumi_core::search::Budget;

use super::analyze::Waiting;
use super::Engine;

/// The commands after which the engine ponders: the ones that play its move.
pub const AFTER: &[&str] = &[
    "genmove",
    "kgs-genmove_cleanup",
    "lz-genmove_analyze",
    "kata-genmove_analyze",
];

/// Milliseconds of each search of the ponder.
const SLICE_MS: u64 = 1000;

/// Query whether the engine should ponder after answering `command` with
/// `answer`: the option is on, the command played a move (not a
/// resignation) and the game goes on.
pub fn wanted(engine: &Engine, command: &str, answer: &str) -> bool {
    let moves = engine.game.moves();
    let over = moves.len() >= 2 && moves[moves.len() - 2..].iter().all(|m| m.point.is_pass());
    engine.player.play.opts.ponder
        && AFTER.contains(&command)
        && answer.starts_with('=')
        && !answer.contains("resign")
        && !over
}

/// Search the position for its side to move until `waiting` counts a line;
/// return the playouts run.
pub fn ponder(engine: &mut Engine, waiting: &Waiting) -> u64 {
    let c = engine.game.to_play();
    let mut playouts = 0u64;
    while waiting.load(Ordering::SeqCst) == 0 {
        let searched = engine.player.analyse(
            &engine.game,
            c,
            &[],
            Budget {
                early_stop: false,
                ..Budget::time(SLICE_MS, u32::MAX)
            },
            Some(Arc::clone(waiting)),
        );
        match searched {
            Ok(r) => playouts += u64::from(r.playouts),
            Err(_) => break,
        }
    }
    playouts
}
