//! What a [`PoolEngine`] with tens of KiB of RAM chooses: the firmware's
//! 64 KiB board (`embedded/`), and the host's `kosumi pool`, which runs the
//! same engine with the same choices at the host's speed so that the
//! firmware's play can be measured over hundreds of games.
//!
//! The sizes of the storage (nodes, tables) are the embedding's; what is
//! here is what follows from having little of it: a node expanded only
//! after several visits, short tactical reads on a small journal, the
//! resignation rule of short searches and a small ownership estimate.
//!
//! [`PoolEngine`]: super::PoolEngine

use crate::game::ResignRule;
use crate::playout::{Heavy, Policy};
use crate::search::{Params, ReadBudget, Widening};

use super::Setup;

/// Deepest tactical read at an expansion, in plies: 20, where 8 could not
/// read a ladder of more than four moves each (against GNU Go level 1,
/// 9x9, 60 games each: 65.8% against 43.3% at 8; BENCHMARKS.md).
pub const READ_DEPTH: u8 = 20;

/// Slot writes of the tactical reader's undo journal: enough for a read
/// of [`READ_DEPTH`] plies and a ladder across a 9x9 board (a line that
/// does not fit is left unproven).
pub const JOURNAL_WRITES: usize = 384;

/// Plies of the tactical reader's undo journal.
pub const JOURNAL_MOVES: usize = READ_DEPTH as usize + 4;

/// The search parameters without a move-pattern model: the core's
/// defaults, but the host's heavy playouts (the waterfall, then shapes
/// next to the last move and no self-atari: 1.27 times the instructions a
/// playout, and against GNU Go level 1 47.5% at 700 playouts where the
/// waterfall won 30%, BENCHMARKS.md), a node expanded only after 8
/// visits, so a small pool holds a deeper tree instead of pruning every
/// few playouts, and tactical reads stopped at [`READ_DEPTH`] plies.
pub const PARAMS: Params = Params {
    expand_after: 8,
    policy: Policy::Heavy(Heavy::DEFAULT),
    reading: ReadBudget {
        nodes: 100,
        depth: READ_DEPTH,
    },
    ..Params::DEFAULT
};

/// The search parameters with a move-pattern model (the firmware's table
/// in flash): [`PARAMS`], and the model's ranking used twice. Progressive
/// widening: a node chooses among its 4 best-rated moves, one more as its
/// visits pass 10, 14, 20, ... And a node below the root keeps its 12
/// best-rated moves and pass: the pool of a 64 KiB board then holds a
/// deeper tree and prunes about a tenth as often (52 prunes in a search
/// of 5,000 playouts against 684), which also saves the instructions of
/// the expansions a prune makes again. Without a model the hand-made
/// priors cannot rank moves well enough for either: with widening alone
/// the engine fell from 57.5% to 34% against GNU Go level 1
/// (BENCHMARKS.md).
pub const MODEL_PARAMS: Params = Params {
    widening: Widening { base: 4, start: 10 },
    max_children: 12,
    ..PARAMS
};

/// Resign below the host's 5%, after 250 playouts: the firmware's moves
/// are a few hundred playouts (with the host's 2,000 it played lost games
/// out, invading until it had no stone left).
pub const RESIGN: ResignRule = ResignRule {
    min_playouts: 250,
    ..ResignRule::DEFAULT
};

/// Playouts of the ownership estimate behind the pass decision,
/// `final_score` and `final_status_list`.
pub const OWNERSHIP_PLAYOUTS: u32 = 64;

/// The firmware's base seed (a game's seed mixes in the games started and
/// the embedding's entropy).
pub const SEED: u64 = 0x6b6f_7375_6d69;

/// Return the small engine's setup: [`MODEL_PARAMS`] if it will have a
/// move-pattern model, else [`PARAMS`], `playouts` a move,
/// [`OWNERSHIP_PLAYOUTS`], [`SEED`], answering `version` with `version`.
pub const fn setup(version: &'static str, playouts: u32, model: bool) -> Setup {
    Setup {
        version,
        params: if model { MODEL_PARAMS } else { PARAMS },
        playouts,
        ownership_playouts: OWNERSHIP_PLAYOUTS,
        seed: SEED,
    }
}
