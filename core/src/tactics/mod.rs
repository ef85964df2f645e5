//! Tactical reading: "can this chain be captured?" and "can it be saved?",
//! with results cached forever under position-independent keys (the `000_*`
//! seed).
//!
//! # Map
//!
//! One search core per kind of problem, the candidate generators in files
//! of their own beside it, and one cache both searches share:
//!
//! | file | what it is |
//! |---|---|
//! | `search/mod.rs` | the capture reader's core: [`Reader`], the root's cache lookups, values and ko, trying candidates and playing them, the tuning constants |
//! | `search/attack.rs` | the attack node and the attacker's own candidates (nets, rescue by capture, reinforcement, ataris on the chains the prey would join) |
//! | `search/defend.rs` | the defend node and the defender's own candidates (extensions, counter-ataris, partner rescue, net breakers, tenuki) |
//! | `search/candidates.rs` | the candidate list and the generators both sides use (chains in atari next to the prey, ko retakes, second-order liberties, the liberties of neighbour chains) |
//! | `connect/mod.rs` | connection reading over the capture reader: [`Connector`], its two nodes, its table of interior nodes, the tuning constants |
//! | `connect/moves.rs` | the candidates of the connect and disconnect nodes |
//! | `connect/paths.rs` | the shortest paths between two chains (the path candidates) |
//! | `cache.rs` | packing results and hints into the table's payloads |
//! | `key.rs` | cache keys: problem hashes, the points a search read, a box's hash |
//! | `digest.rs` | SHA-1 at compile time: the digests of the readers' assumptions that every problem hash reads |
//! | `ladder.rs` | a plain ladder read for the pattern features |
//! | `owl/mod.rs` | life and death of a dragon (GNU Go's `owl_attack` / `owl_defend`): the dragon, its area, the root and its cache |
//! | `owl/search.rs` | the owl's attack and defend nodes, ko levels and threats |
//! | `owl/moves.rs` | the owl's candidates |
//! | `owl/table.rs` | the owl's table of one search's interior nodes |
//! | `owl/eyes.rs` | the owl's static view: the dragon, its domain, eye spaces and their values, vital points |
//!
//! # The reader ([`search`])
//!
//! A depth-first boolean search with make/unmake through the board's undo
//! journal ([`Board::play_undoable`] / [`Board::undo`]). Two node kinds,
//! both seen from the attacker (the opponent of the target chain, the
//! *prey*): the **attack node** (attacker to move, `search/attack.rs`) and
//! the **defend node** (defender to move, `search/defend.rs`). Each tries
//! a short ordered list of candidates read off the position by the prey's
//! liberties and the ply: a prey in atari is taken or extended; one with
//! two liberties is read as a ladder, with nets, counter-ataris and moves
//! for the chains the prey would join in the first plies of a line; three
//! liberties are read on (GNU Go's `attack3`, bounded) only in the first
//! [`THREE_LIB_DEPTH`] plies; four, in the first [`FOUR_LIB_DEPTH`] plies,
//! like three; more are safe. The files' notes give each list in order.
//!
//! A node's value is an interval of levels `LOSE < KO_B < KO_A < WIN`
//! (GNU Go's codes) that the attacker maximises and the defender
//! minimises; ko follows GNU Go's conventions (a simplified komaster, one
//! ko threat per line). Both are described in [`search`], with what the
//! search marks as read (the region of its cache entry) and its memory.
//!
//! # Results and bounds ([`cache`])
//!
//! A root result is stored as `alpha` = (winner of the lower bound, plies
//! reached) and `beta` = (winner of the upper bound, deepest budget the
//! result holds for), with the two levels and the key move in the move
//! field. `plies` is the deepest ply the evaluated tree reached. Reuse
//! rules, for a search with depth budget `d`:
//! * proven and no line was cut by the depth budget: valid for every
//!   `d >= plies` (such a search walks exactly the same tree);
//! * proven, but some line was cut: valid only for `d == plies == budget`;
//! * unproven (depth-cut, not node-cut): valid for `d <= budget`, answered
//!   "unproven" — a shallower search cannot prove more (values only move
//!   from unknown to known as the budget grows), a deeper one searches again;
//! * stopped by the node budget or a full journal: not stored.
//!
//! So, whenever no node budget runs out, a cached answer is the answer the
//! search itself would give, key move and plies included.
//!
//! # The cache key ([`key`])
//!
//! `key = region ^ ko ^ side ^ problem`, the seed's scheme:
//! * `problem`: the first 8 bytes (little-endian) of SHA-1 over the class
//!   code (8 bytes LE) followed by a serialisation of the problem: goal,
//!   board size (the edge is part of the shape), the chain's canonical id
//!   (its lowest point, so "save A3" and "save B3" of one chain hash alike)
//!   and the reader's assumptions (safe-liberty count, 3-liberty, net and
//!   defend-3 depths, the root's four-liberty reading, version).
//!   Computed once per root search.
//! * `region`: the XOR, over every point of a bounding box, of the stone
//!   key or the nonzero "empty and relevant" key. The box is a margin of one
//!   around every point the search *read* (chains whose liberties or atari
//!   status it looked at, every point it considered playing), so the search
//!   cannot tell apart two positions that agree inside the box, and a hit is
//!   sound whatever is outside.
//! * The region is known only after searching, so the root looks up twice:
//!   a *hint* entry (class [`key::CLASS_HINT`]) keyed by the problem and the
//!   hash of the prey, its liberties and its adjacent chains records the box
//!   the last search of that problem read; the *result* entry is keyed by
//!   the hash of that box. A stale hint only costs a miss. Both live in the
//!   one global [`TacticCluster`] table, which is never flushed.
//! * `ko`: the board's ko-ban point, keyed apart for a ban on the mover
//!   and a ban on the other side (the attacker's first pass of a save
//!   problem moves at the root, so a ban on it changes what is read).
//!
//! Interior nodes are not cached in the global table: their region would be
//! needed before searching them too, and ladders have almost no
//! transpositions.
//!
//! # Connections ([`connect`])
//!
//! "Can these two chains be joined / cut apart?" (GNU Go's `connect` /
//! `disconnect`): a search of its own over the reader's capture reads
//! ("can either chain be captured", "can the cutting stone be captured"),
//! cached in the same table under classes of its own.
//!
//! # Ladders ([`ladder`])
//!
//! A plain ladder read (extend or capture, the attacker ataris) with no
//! cache, for the move patterns' ladder features ([`crate::pattern`]).
//!
//! [`Board::play_undoable`]: crate::board::Board::play_undoable
//! [`Board::undo`]: crate::board::Board::undo
//! [`TacticCluster`]: crate::table::TacticCluster

pub mod cache;
pub mod connect;
mod digest;
pub mod key;
pub mod ladder;
pub mod owl;
pub mod search;

pub use connect::{
    Connector, LinkGoal, LinkProblem, LINK_BUDGET, MAX_DISTANCE, MIN_DISTANCE, SUB_BUDGET,
};
pub use ladder::{Ladder, LadderReader, NoLadders, Question};
pub use owl::{Owl, OwlGoal, OwlProblem, OWL_BUDGET};

pub use search::{
    NoStorage, Reader, Solver, DEFENCE_NET_DEPTH, DEFEND3_DEPTH, FOUR_LIB_DEPTH, JOURNAL_MOVES,
    JOURNAL_WRITES, MAX_DEPTH, NET_DEPTH, TENUKI_DEPTH, THREE_LIB_DEPTH,
};

use crate::board::Board;
use crate::geometry::Point;
use crate::table::TacticCluster;
use key::Rect;

/// What the reading side wants.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Goal {
    /// Capture the chain; the attacker moves first.
    Capture,
    /// Save the chain; its owner moves first.
    Save,
}

/// A tactical question about the chain at `target`. The board's side to
/// move is ignored: the goal says who moves first, as in GNU Go's
/// `attack`/`defend`.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Problem {
    /// Capture or save.
    pub goal: Goal,
    /// A stone of the chain.
    pub target: Point,
}

/// GNU Go's result codes.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(u8)]
pub enum Verdict {
    /// The reading side fails (0).
    Fails = 0,
    /// The reading side succeeds (1).
    Succeeds = 1,
    /// Succeeds if the reading side takes the ko first (2).
    KoTakeFirst = 2,
    /// Succeeds only if the reading side first finds a ko threat (3).
    KoNeedsThreat = 3,
}

impl Verdict {
    /// Return GNU Go's numeric code.
    pub const fn code(self) -> u8 {
        self as u8
    }
}

/// The answer to a [`Problem`].
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Answer {
    /// The result for the reading side.
    pub verdict: Verdict,
    /// The capturing / saving move; [`Point::PASS`] when none is needed
    /// (saving a chain that cannot be captured anyway) or when the verdict
    /// is [`Verdict::Fails`].
    pub key_move: Point,
    /// Plies to the result: the deepest ply the proof reached (the depth
    /// budget for an unproven answer).
    pub plies: u8,
    /// False when a node or depth budget stopped the search; the verdict is
    /// then `Fails` with no move.
    pub proven: bool,
}

impl Answer {
    /// Return the answer of a search that reached `level` (the attacker's
    /// levels, [`cache::level`]) with `mv`, for the attacker's side of the
    /// problem when `attacker` and for the defender's otherwise; a failed
    /// verdict carries no move. The capture, connection and owl readers
    /// all answer through it.
    pub(crate) fn at_level(attacker: bool, level: u8, mv: Point, plies: u8, proven: bool) -> Self {
        use cache::level::{KO_A, KO_B, LOSE, WIN};
        let verdict = match (attacker, level) {
            (true, WIN) | (false, LOSE) => Verdict::Succeeds,
            (true, KO_A) | (false, KO_B) => Verdict::KoTakeFirst,
            (true, KO_B) | (false, KO_A) => Verdict::KoNeedsThreat,
            _ => Verdict::Fails,
        };
        let key_move = if verdict == Verdict::Fails {
            Point::PASS
        } else {
            mv
        };
        Answer {
            verdict,
            key_move,
            plies,
            proven,
        }
    }
}

/// The caller's limits for one [`Reader::solve`].
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Budget {
    /// Most moves played (nodes) before giving up.
    pub nodes: u32,
    /// Most plies in a line (capped at [`MAX_DEPTH`]).
    pub depth: u8,
}

impl Default for Budget {
    /// Return a generous budget: 100 000 nodes, depth 60.
    fn default() -> Self {
        Budget {
            nodes: 100_000,
            depth: 60,
        }
    }
}

/// The reader's counters since it was made.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ReaderStats {
    /// Moves played by the search (one per position visited).
    pub nodes: u64,
    /// Result lookups in the cache (one per solve with a cache).
    pub probes: u64,
    /// Lookups answered from the cache.
    pub hits: u64,
    /// Results (and hints) written to the cache.
    pub stores: u64,
}

impl ReaderStats {
    /// No counts yet (a `const`, for readers made in `const fn`s).
    pub const ZERO: ReaderStats = ReaderStats {
        nodes: 0,
        probes: 0,
        hits: 0,
        stores: 0,
    };
}

/// The capture reader as the searches built on it use it (connection
/// reading, the owl): a read within a budget, the box of the board the
/// read depended on, and whether a node budget stopped it (then its
/// answer depends on what the cache held, and a result built on it is
/// not stored).
pub(crate) trait Oracle {
    fn read(&mut self, b: &mut Board, p: Problem, budget: Budget) -> (Answer, Option<Rect>, bool);
    /// Return the moves the reader has played since it was made.
    fn nodes(&self) -> u64;
}

impl<S: AsRef<[TacticCluster]> + AsMut<[TacticCluster]>, const W: usize, const M: usize> Oracle
    for Reader<'_, S, W, M>
{
    fn read(&mut self, b: &mut Board, p: Problem, budget: Budget) -> (Answer, Option<Rect>, bool) {
        let a = self.solve(b, p, budget);
        (a, self.last_region(), !a.proven && self.last_stopped())
    }

    fn nodes(&self) -> u64 {
        self.stats().nodes
    }
}
