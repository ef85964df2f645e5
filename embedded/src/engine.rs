//! The firmware's engine: the core's [`PoolEngine`] (the MCTS over a node
//! pool, a best-move table and a tactical reader with its cache, in statics
//! sized at compile time for the board's RAM) under the core's GTP session,
//! as the browser's module has it. What is the firmware's own: its search
//! parameters, playouts, seed and resignation rule, and the board size at
//! power-on. The game, its record, undo, superko, the move choice with its
//! fall-backs, resignation and every standard command are the core's
//! ([`kosumi_core::gtp::Session`]), as on the host.
//!
//! The session holds no reference that cannot be absent, so its `static`
//! starts as zero bytes (in `.bss`: no image in flash) and [`start`] sets
//! every part of it up in place (the core's `reset`s), so start-up builds
//! nothing on the stack.

use kosumi_core::game::ResignRule;
use kosumi_core::gtp::{PoolEngine, Session, Setup};
use kosumi_core::playout::{Heavy, Policy};
use kosumi_core::search::{Node, Params, ReadBudget};
use kosumi_core::table::BestMoveCluster;

/// Moves a game may hold (three times the points: enough for any real game).
pub const MAX_MOVES: usize = 3 * 81;

/// Setup stones a game may hold: a handicap (GTP `fixed_handicap`,
/// `place_free_handicap`, `set_free_handicap` of at most nine stones).
pub const SETUP: usize = kosumi_core::game::handicap::MAX_STONES;

/// The board size at power-on: the board's (`boardsize` changes it).
pub const SIZE: usize = crate::board::SIZE;
static_assertions::const_assert!(SIZE <= kosumi_core::geometry::MAX_SIZE);

/// The firmware's engine, over its static pool and table.
pub type Engine = PoolEngine<'static>;

/// The firmware's GTP session.
pub type Firmware = Session<Engine, MAX_MOVES, SETUP>;

/// What the firmware chooses of its engine: [`PARAMS`], `playouts` a move,
/// an ownership estimate of 64 playouts, a fixed base seed (a game's seed
/// mixes in the games started and the UART's idle polls).
pub const fn setup(playouts: u32) -> Setup {
    Setup {
        version: env!("CARGO_PKG_VERSION"),
        params: PARAMS,
        playouts,
        ownership_playouts: 64,
        seed: 0x6b6f_7375_6d69,
    }
}

/// Make `session` the firmware's at power-on, in place, whatever it held:
/// an empty board of [`SIZE`], komi 7.5, no clock, the firmware's
/// resignation rule, the engine of [`setup`]`(playouts)` over `nodes` and
/// `clusters` (used as they are: pass empty ones).
pub fn start(
    session: &mut Firmware,
    playouts: u32,
    nodes: &'static mut [Node],
    clusters: &'static mut [BestMoveCluster],
) {
    let set_up = session.restart(SIZE, 15, RESIGN, |player| {
        player.reset(setup(playouts), nodes, clusters)
    });
    if set_up.is_err() {
        unreachable!("the board's size is supported");
    }
}

/// Resign below the host's 5%, after 500 playouts: the firmware's moves
/// are 700 (with the host's 2,000 it played lost games out, invading
/// until it had no stone left).
pub const RESIGN: ResignRule = ResignRule {
    min_playouts: 500,
    ..ResignRule::DEFAULT
};

/// The search parameters of the firmware: the core's defaults, but the
/// host's heavy playouts (the waterfall, then shapes next to the last move
/// and no self-atari: 1.27 times the instructions a playout, and against
/// GNU Go level 1 47.5% at 700 playouts where the waterfall won 30%,
/// BENCHMARKS.md), a node expanded only after 8 visits, so the small pool
/// holds a deeper tree instead of pruning every few playouts, and
/// tactical reads stopped at [`READ_DEPTH`] plies (the reader's journal
/// and stack are small here).
pub const PARAMS: Params = Params {
    expand_after: 8,
    policy: Policy::Heavy(Heavy::DEFAULT),
    reading: ReadBudget {
        nodes: 100,
        depth: READ_DEPTH,
    },
    ..Params::DEFAULT
};

/// Deepest tactical read at an expansion, in plies: 20, where 8 could not
/// read a ladder of more than four moves each (against GNU Go level 1,
/// 9x9, 60 games each: 65.8% against 43.3% at 8; BENCHMARKS.md).
pub const READ_DEPTH: u8 = 20;
