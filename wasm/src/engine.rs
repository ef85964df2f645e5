//! The browser's engine: the core's [`PoolEngine`] (the MCTS over a node
//! pool, a best-move table and a tactical reader with its cache, all in
//! statics sized at compile time) under the core's GTP session, as the
//! firmware has it. The game, its record, undo, superko, handicap, the
//! move choice with its fall-backs, resignation and every standard command
//! are the core's ([`kosumi_core::gtp::Session`]).
//!
//! What is the browser's own: a 19x19 build with tens of MB of tree, a
//! move-pattern model of 2,000 games and last good replies (`lib.rs`), the
//! host's ownership estimate, and a seed from the page (JavaScript passes
//! one), since a WebAssembly module has no entropy of its own.

use kosumi_core::board::Board;
use kosumi_core::game::Game;
use kosumi_core::gtp::{PoolEngine, Session, Setup};
use kosumi_core::playout::{Heavy, Policy};
use kosumi_core::search::Params;

/// Moves a game may hold (three times the points of 19x19).
pub const MAX_MOVES: usize = 3 * 361;

/// Setup stones a game may hold: a handicap (GTP `fixed_handicap`,
/// `place_free_handicap`, `set_free_handicap` of at most nine stones).
pub const SETUP: usize = kosumi_core::game::handicap::MAX_STONES;

/// The board size at start-up (`boardsize` changes it).
pub const SIZE: usize = 19;

/// The page's engine, over the module's static pool and table.
pub type Engine = PoolEngine<'static>;

/// The page's GTP session.
pub type Web = Session<Engine, MAX_MOVES, SETUP>;

/// The page's engine until it sets its own playouts and seed: [`PARAMS`],
/// 10,000 playouts a move (about half a second of 9x9 in Chromium, two
/// seconds of 19x19, BENCHMARKS.md), the host's ownership estimate of 400
/// playouts behind the pass decision, `final_score`, `final_status_list`
/// and the analysis's ownership map.
pub const SETUP_ENGINE: Setup = Setup {
    version: env!("CARGO_PKG_VERSION"),
    params: PARAMS,
    playouts: 10_000,
    ownership_playouts: 400,
    seed: 0,
};

/// Return the page's session: an empty board of [`SIZE`], komi 7.5, the
/// core's resignation rule, over `engine`. A `const fn`, for a `static`.
pub const fn session(engine: Engine) -> Web {
    let Ok(board) = Board::new(SIZE) else {
        panic!("the board's size is supported")
    };
    Session::new(Game::on_empty(board, 15), engine)
}

/// The search parameters: the core's defaults with the host's heavy
/// playouts (the module lends the engine a move-pattern model and last
/// good replies, as the host has them; the model's prior weight follows
/// the board's size).
pub const PARAMS: Params = Params {
    policy: Policy::Heavy(Heavy::DEFAULT),
    ..Params::DEFAULT
};
