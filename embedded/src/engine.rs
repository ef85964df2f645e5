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
use kosumi_core::gtp::{small, PoolEngine, Session, Setup};
use kosumi_core::search::Node;
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

/// What the firmware chooses of its engine: the core's small engine
/// ([`small::setup`]: its parameters, with the model's when the
/// `patterns` feature puts one in flash, an ownership estimate of 64
/// playouts, a fixed base seed; a game's seed mixes in the games started
/// and the UART's idle polls), `playouts` a move.
pub const fn setup(playouts: u32) -> Setup {
    small::setup(
        env!("CARGO_PKG_VERSION"),
        playouts,
        cfg!(feature = "patterns"),
    )
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

/// The firmware's resignation rule: the small engine's (below 5% after
/// 250 playouts, [`small::RESIGN`]).
pub const RESIGN: ResignRule = small::RESIGN;
