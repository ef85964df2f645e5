//! Tactical reading: "can this chain be captured?" and "can it be saved?",
//! with results cached forever under position-independent keys (the `000_*`
//! seed).
//!
//! # The reader ([`search`])
//!
//! A depth-first boolean search with make/unmake through the board's undo
//! journal ([`Board::play_undoable`] / [`Board::undo`]). Two node kinds,
//! both seen from the attacker (the opponent of the target chain, the
//! *prey*):
//!
//! * **attack node** (attacker to move): prey with 1 liberty: take it;
//!   if the prey is one stone and taking it would be a ko capture, also
//!   atari a defender chain next to the capturing point (then the capture
//!   takes more than one stone: no ko), which the defender answers by
//!   extending that chain.
//!   4 or more liberties: the prey is *safe* and the attacker fails (at the
//!   root, [`FOUR_LIBS_AT_ROOT`], four liberties are read like three).
//!   Exactly 3 liberties: in the first [`THREE_LIB_DEPTH`] plies of a line
//!   the attacker reads on (GNU Go's `attack3`, bounded): a move at a
//!   liberty where its stone keeps two liberties or captures (a ko
//!   capture) (widest first), the
//!   rescue of own chains in atari next to the prey, the reinforcement of
//!   own chains with two liberties next to it (a liberty where the chain
//!   gets three, so the defender's counter-atari fails) and, in the first
//!   [`NET_DEPTH`] plies, nets (as with two liberties, below); deeper, a
//!   chain that reaches three liberties has escaped (the ladder definition
//!   of issue 4).
//!   2 liberties: branch over
//!   both liberties (the one with more empty neighbours first: block the
//!   wider escape, the standard ladder order), the liberty of any own chain
//!   next to the prey that is in atari (answering a counter-atari) or the
//!   capture of a defender chain in atari next to such a chain (rescue by
//!   capture: a semeai, a ko; also with three liberties), and, in
//!   the first [`NET_DEPTH`] plies of a line, *nets*: empty points next to
//!   a liberty (second-order liberties) where the attacker's stone would
//!   have two liberties, and ataris of two-liberty defender chains next
//!   to a liberty (the chains the prey would connect to); in the first two
//!   plies also the reinforcement of own two-liberty chains (as with three
//!   liberties).
//! * **defend node** (defender to move): prey with 3+ liberties is safe,
//!   except in the first [`DEFEND3_DEPTH`]` + 1` plies (the root and the
//!   answer to the attacker's first move), where the attacker may still
//!   read it on: there the defender tries captures, liberties that keep
//!   three or more liberties, counter-ataris and (shallow) second-order
//!   liberties and moves for a chain the prey would connect to (below), so
//!   a save never answers "no move needed" for a chain its own attack
//!   search captures. At the root of a save the attacker's key
//!   move is tried too (the opponent's vital point). Otherwise
//!   candidates, in order: capture an adjacent attacker chain in atari
//!   (biggest first), extend at a liberty if that gives two or more
//!   liberties (most liberties first), and with two liberties also
//!   counter-ataris on adjacent attacker chains with two liberties (a ko
//!   capture counts, although its stone keeps one liberty) and, in
//!   the first [`DEFENCE_NET_DEPTH`] plies, a liberty of an adjacent
//!   attacker chain with three liberties (a semeai), second-order
//!   liberties where the defender's stone would have three liberties
//!   (connecting out, making room), moves for a *partner* (a defender
//!   chain at a liberty of the prey, which the prey would connect to: the
//!   capture of an attacker chain in atari next to it, or a liberty where
//!   a two-liberty partner gets three) and net breakers (the liberties of
//!   attacker chains with two or three liberties next to the prey's
//!   liberties, whose stones need not touch the prey). With one liberty,
//!   in the first two plies, also the counter-ataris and partner moves.
//!   With two liberties, in the first [`TENUKI_DEPTH`] plies, the last
//!   candidate is a pass (tenuki: the attacker moves again), and with no
//!   candidate at all the defender passes; after a pass, if the attacker
//!   can capture at all, even only by a ko, the attack wins outright (GNU
//!   Go's defender never passes: a node without a defending move is a lost
//!   defence, so a pass defends only a chain that is then safe).
//!
//! A node's value is an interval of *levels* (attacker's view, ordered):
//! `LOSE < KO_B < KO_A < WIN` (GNU Go's codes: `KO_A` the attacker wins
//! if he takes the ko first, `KO_B` he needs a ko threat first). The
//! attacker maximises, the defender minimises, both bounds at once, and a
//! node cut by the depth or node budget is `[LOSE, WIN]`; a node is
//! *proven* when its interval is a single level. This is alpha/beta bounds
//! in the seed's sense, and what the cache stores.
//!
//! Ko (GNU Go's conventions, a simplified komaster): capturing the prey
//! by a ko capture is worth "wins the ko" (`KO_A`), not `WIN`. Any other
//! ko capture is valued by the search: the side it bans gets the retake as
//! a candidate. A candidate forbidden by the ko ban is played after a pass
//! by each side (the ko threat and its answer) and caps the mover's result
//! at "needs a threat" (`KO_B` for the attacker, `KO_A` for the defender);
//! this is allowed once per line, and the side that retook that way owns
//! the ko for the rest of the line (its opponent may not take it back, as
//! GNU Go's komaster), so ko is reported, never looped on. After the
//! threat, a defend node reads a prey with three liberties on in the first
//! [`THREE_LIB_DEPTH`] plies (a semeai won by a ko is not told by
//! liberty counts). A defender ko capture that puts an adjacent attacker
//! chain in atari is a counter-atari although its stone keeps one liberty.
//! Other cycles (double ko, "send two, return one") have no repetition
//! test: the depth budget ends them, and the result is unproven.
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
//! # Memory
//!
//! The reader owns its undo journal ([`JOURNAL_WRITES`] writes over
//! [`JOURNAL_MOVES`] plies by default; a small target picks its own sizes
//! with [`Reader::with_journal`], and a line that does not fit ends
//! unproven) and a 32-entry memo of problem hashes, and never allocates; the depth budget is capped
//! at [`MAX_DEPTH`] plies, so the recursion is at most `MAX_DEPTH + 1`
//! node levels. Measured (`tests/tactics_reader.rs`, a 58-ply ladder on
//! 19x19): the reader is 36.5 KB on x86-64 and 27.8 KB on i686 (almost all
//! journal), and the recursion uses about 380 bytes per ply on x86-64 (310
//! on i686): at most ~23 KB at `MAX_DEPTH`. [`Reader::stack_high_water`]
//! reports the figure at run time. Candidate generation is kept out of
//! line so its scratch arrays are not part of every recursive frame.
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
pub mod key;
pub mod ladder;
pub mod search;

pub use connect::{
    Connector, LinkGoal, LinkProblem, LINK_BUDGET, MAX_DISTANCE, MIN_DISTANCE, SUB_BUDGET,
};
pub use ladder::Ladder;

pub use search::{
    NoStorage, Reader, Solver, DEFENCE_NET_DEPTH, DEFEND3_DEPTH, FOUR_LIBS_AT_ROOT, JOURNAL_MOVES,
    JOURNAL_WRITES, MAX_DEPTH, NET_DEPTH, TENUKI_DEPTH, THREE_LIB_DEPTH,
};

use crate::geometry::Point;

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
