//! Connection reading: can two chains of one colour be joined into one, or
//! kept apart? GNU Go's `connect` / `disconnect` (its `readconnect.c` for
//! the ideas, none of its code), a search of its own that asks the capture
//! reader ([`Reader`]) whether a chain can be captured, and caches its root
//! results in the reader's table under classes of their own.
//!
//! # The search
//!
//! Two node kinds, valued from the *connector* (the chains' owner) with the
//! capture reader's levels `LOSE < KO_B < KO_A < WIN`, the connector
//! maximising, the *cutter* minimising, both bounds of an interval at once
//! (a line cut by the depth or node budget is `[LOSE, WIN]`). The answer
//! reads the lower bound: a line the budget stopped counts as cut (GNU
//! Go's convention, the connector fails at its limits), and such an
//! answer is not proven.
//!
//! * The chains are **connected** once they are one chain (whatever its
//!   liberties, GNU Go's convention) and **cut** once either is captured.
//! * **Connect node** (connector to move): a common liberty joins them at
//!   once. Otherwise the candidates are the captures of cutter chains in
//!   atari next to either chain, the defence (the capture reader's key
//!   move) of either chain when it has two liberties or fewer and can be
//!   captured, the capture reader's attack on the cutter chains next to
//!   both chains or on a shortest path and on those of three liberties
//!   next to either chain (a chain the paths cannot pass may still fall:
//!   `connection.tst` 103), and at the root, where such a neighbour
//!   stands, its liberties (an approach: 74, 79), the ataris of those
//!   with two liberties, and the points of the shortest paths (below).
//!   No candidate: cut.
//! * **Disconnect node** (cutter to move): if the capture reader captures
//!   either chain (the cutter moving first) the cut is made; a capture by
//!   ko caps the node at "the cutter wins the ko" (`KO_B`, or `KO_A` if
//!   he needs a threat) and the search looks for better. Two common
//!   liberties: connected (whatever the cutter takes, the connector joins
//!   at the other). One: the cutter must take it. None: the capture
//!   reader's defence of the cutter chains next to both chains, on a
//!   shortest path or of three liberties next to either, its attack on
//!   the connector's other chains of two liberties or fewer on one, at
//!   the root the ataris on either chain of two liberties, and the points
//!   of the shortest paths (at the root, when that finds nothing, of the
//!   paths one fill longer, so a cut is answered with a move). With no
//!   legal candidate the cutter passes and the connector moves again.
//!
//! **Plies count from the root's move.** The rules that depend on the ply
//! (the slack paths, the path candidates' number, the paths' reach, the
//! cutter's longer paths at the root) count in a root move's subtree from
//! the node after that move, so the root's value for a move is the answer
//! to the same question one move later (`connection.tst` 63 → 65: before,
//! 27 and 73 failed on lines that the question one move later reads
//! right).
//!
//! **The root reads every candidate.** Of its moves that win outright it
//! answers the one whose proof took the fewest moves, the plainest win
//! (the first found is often a detour: `connection.tst` 32, 53, 57 and
//! 76 expect the plainer move; 25 and 55 go the other way). Below the
//! root a node stops at its first outright win.
//!
//! **Shortest paths** (`paths.rs`): the empty points on the shortest
//! paths between the chains, counted in the stones the connector must
//! add, are both nodes' last candidates.
//!
//! **Ko** follows the capture reader: a move forbidden by the ko ban is
//! played after a ko threat and its answer (two passes), once per line,
//! and caps the mover's result ("needs a threat"); the side that retook
//! owns that ko for the rest of the line; the retake of a ko just taken
//! is a candidate. Capturing one of the chains by a ko capture is a cut
//! "if the cutter wins the ko" (`KO_B`).
//!
//! **Transpositions.** Interior nodes are kept in a table of the search's
//! own ([`TT_ENTRIES`] entries, cleared at every root) keyed by the
//! position, ko and side to move, the line's use of its ko threat, its
//! ko owner and the ply the rules count from, and reused at the same ply
//! (the candidates and the plies left depend on it).
//!
//! # Cache
//!
//! As the capture reader's (see [`crate::tactics`]): `key = region ^ ko ^
//! side ^ problem`, where the problem hash is SHA-1 over the class
//! ([`CLASS_CONNECT`] / [`CLASS_DISCONNECT`]), the size, the two chains'
//! canonical ids (unordered: `connect A B` is `connect B A`, and any two
//! stones of the chains name them) and the assumptions of both searches
//! ([`link_problem_hash`]), and the region is the box around every point
//! the search read, joined with the box of every capture read it made
//! (each read's own region, what its cache hit or search depended on). A
//! hint entry keyed by the problem and the two chains' surroundings holds
//! the box. A root result is stored unless a node budget stopped the
//! search or one of its capture reads (a capture read with its fixed
//! [`SUB_BUDGET`] that ends unproven counts as "not capturable", GNU Go's
//! reading; one its depth budget alone stopped is the same answer whenever
//! asked, so the result is still stored).
//!
//! # Memory
//!
//! The [`Connector`] owns its undo journal (the capture reader keeps its
//! own: a capture read runs on top of the connection search's moves), its
//! transposition table (16 KB) and a point bitset. Candidate generation
//! runs out of line with two distance maps and a point queue on its frame
//! (about 2 KB on 19x19).
//!
//! # Files
//!
//! | file | what it holds |
//! |---|---|
//! | `mod.rs` | [`Connector`], [`Connector::solve`], the two nodes, the transposition table, trying candidates and playing them (`moves`, `child`), the tuning constants |
//! | `moves.rs` | the candidates of the connect and disconnect nodes |
//! | `paths.rs` | the shortest paths between the chains (the path candidates) |

mod moves;
mod paths;

use crate::board::{Board, Journal, MoveError, PointSet};
use crate::geometry::{Cell, Color, Point};
use crate::table::{Bound, TacticCluster};

use super::cache::level::{KO_A, KO_B, LOSE, WIN};
use super::cache::Stored;
use super::key::{
    ban_key, link_problem_hash, side_key, PointBits, Rect, CLASS_CONNECT, CLASS_DISCONNECT,
    CLASS_HINT,
};
use super::search::{Reader, JOURNAL_MOVES, JOURNAL_WRITES, MAX_DEPTH};
use super::{Answer, Budget, Goal, Oracle, Problem, ReaderStats, Verdict};

/// Chains farther apart than this many fills have no path candidates.
pub const MAX_DISTANCE: u8 = 5;
/// Deep in a line (a fill less every four plies) paths may span no more
/// than this.
pub const MIN_DISTANCE: u8 = 3;
/// The budget of every capture read the connection search makes (fixed:
/// its results are part of the connection result that is cached).
pub const SUB_BUDGET: Budget = Budget {
    nodes: 100_000,
    depth: 60,
};
/// In the first `SLACK_DEPTH` plies the connector also tries the points
/// of paths one fill longer than the shortest.
pub const SLACK_DEPTH: u8 = 2;
/// The connection search's usual budget: moves of its own search (each
/// capture read has [`SUB_BUDGET`]) and plies. GNU Go's connection reader
/// stops at 20 plies; lines here are a few plies longer for the ko threat
/// exchanges.
pub const LINK_BUDGET: Budget = Budget {
    nodes: 20_000,
    depth: 24,
};
/// Most candidate moves per node.
const MAX_CANDS: usize = 16;
/// Candidate moves of a node.
type Cands = PointSet<MAX_CANDS>;
/// Entries of the search's own table of interior nodes.
pub const TT_ENTRIES: usize = 1024;

/// An interior node's value in the search's own table (cleared at every
/// root: its marks of what the search read are already in the region).
#[derive(Clone, Copy)]
struct TtEntry {
    key: u64,
    lo: u8,
    hi: u8,
    /// The ply it was searched at.
    ply: u8,
    /// Plies its tree went below it.
    used: u8,
    mv: Point,
}

const TT_EMPTY: TtEntry = TtEntry {
    key: 0,
    lo: 0,
    hi: 0,
    ply: 0,
    used: 0,
    mv: Point::PASS,
};

/// The connector asks the capture reader to take, and the cutter to
/// save, the cutter chains next to either chain that have this many
/// liberties (those of fewer are on the paths, or in atari). Taking those
/// of two as well reads seven times as long and scores 64 on
/// `connection.tst`, not 68.
pub const NEIGHBOUR_CUTTER_LIBS: usize = 3;

/// Path candidates per node in the first [`SLACK_DEPTH`] plies.
pub const PATH_CANDS_SHALLOW: usize = 8;
/// Path candidates per node deeper.
pub const PATH_CANDS: usize = 5;
// The cache key's assumptions name these constants (`key::LINK_ASSUMPTIONS`:
// "max-distance=5", "slack-depth=2", "neighbour-cutters-libs=3", ...): a
// change here must change them, or stale entries stay valid.
const _: () = assert!(
    MAX_DISTANCE == 5
        && MIN_DISTANCE == 3
        && SLACK_DEPTH == 2
        && PATH_CANDS_SHALLOW == 8
        && PATH_CANDS == 5
        && NEIGHBOUR_CUTTER_LIBS == 3
);

/// What the reading side wants of two chains of one colour.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum LinkGoal {
    /// Join them; their owner moves first (GNU Go's `connect`).
    Connect,
    /// Keep them apart; the opponent moves first (GNU Go's `disconnect`).
    Disconnect,
}

/// A connection question about the chains at `a` and `b` (stones of one
/// colour). The board's side to move is ignored: the goal says who moves
/// first.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct LinkProblem {
    /// Connect or disconnect.
    pub goal: LinkGoal,
    /// A stone of the first chain.
    pub a: Point,
    /// A stone of the second chain.
    pub b: Point,
}

/// A node's value: an interval of levels (connector's view), the deepest
/// ply its tree reached, and the move that achieved it.
#[derive(Clone, Copy, Debug)]
struct Value {
    lo: u8,
    hi: u8,
    reached: u8,
    mv: Point,
}

impl Value {
    const fn exact(level: u8, reached: u8, mv: Point) -> Value {
        Value {
            lo: level,
            hi: level,
            reached,
            mv,
        }
    }

    const fn unknown(reached: u8) -> Value {
        Value {
            lo: LOSE,
            hi: WIN,
            reached,
            mv: Point::PASS,
        }
    }
}

/// The connection reader: an undo journal of `W` slot writes over `M`
/// plies and the bookkeeping of one search; the capture reader (and with
/// it the cache) is the caller's, lent to each [`Connector::solve`].
pub struct Connector<const W: usize = JOURNAL_WRITES, const M: usize = JOURNAL_MOVES> {
    journal: Journal<W, M>,
    read: PointBits,
    /// The union of the regions of the capture reads made.
    region: Option<Rect>,
    a: Point,
    b: Point,
    own: Color,
    opp: Color,
    node_limit: u64,
    depth: u8,
    /// The ko point the side that used the line's ko threat retook (see
    /// the capture reader's field of that name).
    ko_won: Point,
    ko_owner: Color,
    limited: bool,
    cut: bool,
    /// The ply of the node the rules count from: 0, or the ply after the
    /// root's move while that move's subtree is read (see `child`).
    base: u8,
    stats: ReaderStats,
    tt: [TtEntry; TT_ENTRIES],
}

impl<const W: usize, const M: usize> Default for Connector<W, M> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const W: usize, const M: usize> Connector<W, M> {
    /// Return a connection reader (a `const fn`: it may live in a `static`).
    pub const fn new() -> Self {
        Connector {
            journal: Journal::new(),
            read: PointBits::new(),
            region: None,
            a: Point::PASS,
            b: Point::PASS,
            own: Color::Black,
            opp: Color::White,
            node_limit: 0,
            depth: 0,
            ko_won: Point::PASS,
            ko_owner: Color::Black,
            limited: false,
            cut: false,
            base: 0,
            stats: ReaderStats::ZERO,
            tt: [TT_EMPTY; TT_ENTRIES],
        }
    }

    /// Return the counters since the connector was made (moves of the
    /// connection search; the capture reads count in the reader's).
    pub fn stats(&self) -> ReaderStats {
        self.stats
    }

    /// Answer `problem` on `board` within `budget` (the connection search's
    /// own moves and plies; each capture read has [`SUB_BUDGET`]), reading
    /// captures with `reader` and caching in its table. The board is
    /// restored on return. Stones that are not two of one colour fail at
    /// once; stones of one chain are connected (`1 PASS` for `Connect`).
    pub fn solve<S, const RW: usize, const RM: usize>(
        &mut self,
        reader: &mut Reader<'_, S, RW, RM>,
        board: &mut Board,
        problem: LinkProblem,
        budget: Budget,
    ) -> Answer
    where
        S: AsRef<[TacticCluster]> + AsMut<[TacticCluster]>,
    {
        let geo = board.geometry();
        let (a, b) = (problem.a, problem.b);
        let fails = Answer {
            verdict: Verdict::Fails,
            key_move: Point::PASS,
            plies: 0,
            proven: true,
        };
        let own = match (board.at(a).color(), board.at(b).color()) {
            (Some(x), Some(y)) if x == y && geo.on_board(a) && geo.on_board(b) => x,
            _ => return fails,
        };
        if board.chain_root(a) == board.chain_root(b) {
            return match problem.goal {
                LinkGoal::Connect => Answer {
                    verdict: Verdict::Succeeds,
                    ..fails
                },
                LinkGoal::Disconnect => fails,
            };
        }
        board.refresh_ataris();
        self.journal.clear();
        self.read.clear();
        self.region = None;
        self.a = a;
        self.b = b;
        self.own = own;
        self.opp = own.opponent();
        self.depth = budget.depth.min(MAX_DEPTH);
        self.node_limit = self.stats.nodes + u64::from(budget.nodes);
        self.ko_won = Point::PASS;
        self.limited = false;
        self.cut = false;
        self.base = 0;
        self.tt = [TT_EMPTY; TT_ENTRIES];
        let mover = match problem.goal {
            LinkGoal::Connect => self.own,
            LinkGoal::Disconnect => self.opp,
        };

        let size = board.size();
        let id = |p: Point| board.chain_stones(p).min().unwrap_or(p);
        let (a_id, b_id) = (id(a), id(b));
        let class = match problem.goal {
            LinkGoal::Connect => CLASS_CONNECT,
            LinkGoal::Disconnect => CLASS_DISCONNECT,
        };
        let problem_key = link_problem_hash(class, problem.goal, size, a_id, b_id);
        let hint_problem = link_problem_hash(CLASS_HINT, problem.goal, size, a_id, b_id);
        let fixed = problem_key ^ side_key(mover) ^ ban_key(board, mover);
        let hint_key = hint_problem ^ self.mark_root(board);

        if let Some(cache) = reader.table() {
            self.stats.probes += 1;
            if let Some((s, _)) = super::cache::recall(cache, board, hint_key, fixed) {
                if s.usable(self.depth) {
                    self.stats.hits += 1;
                    return answer(problem.goal, s, self.depth);
                }
            }
        }

        let v = match problem.goal {
            LinkGoal::Connect => self.connect(reader, board, 0, false),
            LinkGoal::Disconnect => self.disconnect(reader, board, 0, false),
        };
        debug_assert_eq!(self.journal.depth(), 0);
        let s = Stored {
            lo: v.lo,
            hi: v.hi,
            plies: v.reached,
            valid_to: if self.cut {
                self.depth
            } else {
                Bound::MAX_PLIES
            },
            mv: v.mv,
        };
        let rect = Rect::union(Rect::around(&self.read, geo), self.region);
        if let (false, Some(cache), Some(rect)) = (self.limited, reader.table(), rect) {
            super::cache::remember(cache, board, hint_key, fixed, rect, s.pack(self.own));
            self.stats.stores += 2;
        }
        let mut ans = answer(problem.goal, s, self.depth);
        ans.proven &= !self.limited;
        ans
    }

    /// Mark both chains and their neighbour chains as read; return the hash
    /// of the chains, their liberties and their neighbour chains (the
    /// hint's region).
    fn mark_root(&mut self, b: &Board) -> u64 {
        self.read.insert_roots(b, &[self.a, self.b])
    }

    /// Mark `p` and every chain next to it as read.
    fn mark_around(&mut self, b: &Board, p: Point) {
        self.read.insert_around(b, p);
    }

    /// Mark the chain at the stone `s` as read, unless it is already.
    fn mark_chain(&mut self, b: &Board, s: Point) {
        self.read.insert_chain(b, s);
    }

    /// Query whether the two chains are one.
    fn joined(&self, b: &Board) -> bool {
        b.chain_root(self.a) == b.chain_root(self.b)
    }

    /// Ask the capture reader `goal` about the chain at `target`; note the
    /// region it read, and a read its node budget stopped (the result is
    /// then not stored).
    fn sub(&mut self, r: &mut dyn Oracle, b: &mut Board, goal: Goal, target: Point) -> Answer {
        self.mark_chain(b, target);
        let (ans, region, stopped) = r.read(b, Problem { goal, target }, SUB_BUDGET);
        self.limited |= stopped;
        self.region = Rect::union(self.region, region);
        ans
    }

    /// Connect node: the connector moves.
    fn connect(&mut self, r: &mut dyn Oracle, b: &mut Board, k: u8, threat: bool) -> Value {
        let key = self.node_key(b, threat);
        if let Some(v) = self.recall(key, k) {
            return v;
        }
        let v = self.connect_node(r, b, k, threat);
        self.remember(key, k, v);
        v
    }

    fn connect_node(&mut self, r: &mut dyn Oracle, b: &mut Board, k: u8, threat: bool) -> Value {
        match self.connect_moves(r, b, k - self.base) {
            Ok(mut c) => {
                push_retake(b, threat, self.own, &mut c);
                self.moves(r, b, k, threat, true, c.as_slice())
            }
            Err(p) => Value::exact(WIN, k, p),
        }
    }

    /// Disconnect node: the cutter moves.
    fn disconnect(&mut self, r: &mut dyn Oracle, b: &mut Board, k: u8, threat: bool) -> Value {
        let key = self.node_key(b, threat);
        if let Some(v) = self.recall(key, k) {
            return v;
        }
        let v = self.disconnect_node(r, b, k, threat);
        self.remember(key, k, v);
        v
    }

    /// Return the key of a node for the search's own table: the position
    /// (with ko and side to move), whether the line used its ko threat,
    /// who owns which ko, and the ply the rules count from.
    fn node_key(&self, b: &Board, threat: bool) -> u64 {
        let mut key = b.hash();
        if threat {
            key ^= 0x9e37_79b9_7f4a_7c15;
        }
        key ^= u64::from(self.base).wrapping_mul(0x2545_f491_4f6c_dd1d);
        if !self.ko_won.is_pass() {
            key ^= u64::from(self.ko_won.0).wrapping_mul(0xc2b2_ae3d_27d4_eb4f)
                ^ (self.ko_owner as u64).wrapping_mul(0x1656_67b1_9e37_79f9);
        }
        key | 1
    }

    /// Return the value stored for `key` if it was searched at ply `k`
    /// too (the candidates and the plies left depend on the ply).
    fn recall(&self, key: u64, k: u8) -> Option<Value> {
        if k == 0 {
            return None;
        }
        let e = &self.tt[(key as usize >> 1) % TT_ENTRIES];
        (e.key == key && e.ply == k).then(|| Value {
            lo: e.lo,
            hi: e.hi,
            reached: k + e.used,
            mv: e.mv,
        })
    }

    /// Store the value of the node `key` at ply `k` (not the root's).
    fn remember(&mut self, key: u64, k: u8, v: Value) {
        if k > 0 {
            self.tt[(key as usize >> 1) % TT_ENTRIES] = TtEntry {
                key,
                lo: v.lo,
                hi: v.hi,
                ply: k,
                used: v.reached.saturating_sub(k),
                mv: v.mv,
            };
        }
    }

    fn disconnect_node(&mut self, r: &mut dyn Oracle, b: &mut Board, k: u8, threat: bool) -> Value {
        // Either chain captured (the cutter moving first) is a cut; by a
        // ko, the cut "if the cutter wins the ko" bounds the node.
        let (mut bound, mut bound_mv) = (WIN, Point::PASS);
        for end in [self.a, self.b] {
            let ans = self.sub(r, b, Goal::Capture, end);
            let level = match ans.verdict {
                Verdict::Succeeds => LOSE,
                Verdict::KoTakeFirst => KO_B,
                Verdict::KoNeedsThreat => KO_A,
                Verdict::Fails => WIN,
            };
            if level < bound {
                (bound, bound_mv) = (level, ans.key_move);
            }
            if bound == LOSE {
                return Value::exact(LOSE, k, bound_mv);
            }
        }
        let v = match self.disconnect_moves(r, b, k - self.base) {
            Some(mut c) => {
                push_retake(b, threat, self.opp, &mut c);
                self.moves(r, b, k, threat, false, c.as_slice())
            }
            None => Value::exact(WIN, k, Point::PASS),
        };
        if bound < v.hi {
            Value {
                lo: v.lo.min(bound),
                hi: bound,
                reached: v.reached,
                mv: if (bound, bound) < (v.lo, v.hi) {
                    bound_mv
                } else {
                    v.mv
                },
            }
        } else {
            v
        }
    }

    /// Try the candidates for the connector (maximising) or the cutter
    /// (minimising) and combine their values. A connector with no legal
    /// candidate is cut; a cutter with none passes.
    fn moves(
        &mut self,
        r: &mut dyn Oracle,
        b: &mut Board,
        k: u8,
        threat: bool,
        connector: bool,
        c: &[Point],
    ) -> Value {
        let me = if connector { self.own } else { self.opp };
        let (mut lo, mut hi) = if connector { (LOSE, LOSE) } else { (WIN, WIN) };
        let mut mv = Point::PASS;
        let mut reached = k;
        let mut any = false;
        // At the root every candidate is read, and of the moves that win
        // outright the one whose proof took the fewest moves is answered
        // (the plainest; the first found is often a detour).
        let root = k == 0;
        let mut cheapest = u64::MAX;
        for &p in c {
            self.mark_around(b, p);
            if p == self.ko_won && me != self.ko_owner && captures(b, p, me) {
                // The ko the opponent retook after a threat is his.
                continue;
            }
            let before = self.stats.nodes;
            let v = match b.check_move(p, me) {
                Ok(()) => self.child(r, b, k, threat, connector, p, false),
                Err(MoveError::Ko) if !threat => self.child(r, b, k, threat, connector, p, true),
                Err(_) => continue,
            };
            let cost = self.stats.nodes - before;
            reached = reached.max(v.reached);
            let outright = if connector { v.lo == WIN } else { v.hi == LOSE };
            if any && won(connector, lo, hi) {
                // Only at the root: a won node elsewhere stopped.
                if outright && cost < cheapest {
                    (mv, cheapest) = (p, cost);
                }
                continue;
            }
            let better = if connector {
                (v.lo, v.hi) > (lo, hi)
            } else {
                (v.lo, v.hi) < (lo, hi)
            };
            if !any || better {
                (mv, cheapest) = (p, cost);
            }
            if connector {
                lo = lo.max(v.lo);
                hi = hi.max(v.hi);
            } else {
                lo = lo.min(v.lo);
                hi = hi.min(v.hi);
            }
            any = true;
            if !root && won(connector, lo, hi) {
                break;
            }
        }
        if !any {
            if connector {
                return Value::exact(LOSE, k, Point::PASS);
            }
            return self.child(r, b, k, threat, false, Point::PASS, false);
        }
        Value {
            lo,
            hi,
            reached,
            mv,
        }
    }

    /// Play `p` for the side (after a ko threat exchange if `via_threat`),
    /// evaluate the opponent's node, take the move back.
    #[allow(clippy::too_many_arguments)]
    fn child(
        &mut self,
        r: &mut dyn Oracle,
        b: &mut Board,
        k: u8,
        threat: bool,
        connector: bool,
        p: Point,
        via_threat: bool,
    ) -> Value {
        let (me, other) = if connector {
            (self.own, self.opp)
        } else {
            (self.opp, self.own)
        };
        let plies = if via_threat { 3 } else { 1 };
        if k + plies > self.depth {
            self.cut = true;
            return Value::unknown(k);
        }
        if self.stats.nodes >= self.node_limit {
            self.limited = true;
            return Value::unknown(k);
        }
        if via_threat {
            // The mover plays a ko threat (a pass here), the opponent
            // answers it (a pass), and the ko ban is gone.
            if b.play_undoable(Point::PASS, me, &mut self.journal).is_err() {
                self.limited = true;
                return Value::unknown(k);
            }
            if b.play_undoable(Point::PASS, other, &mut self.journal)
                .is_err()
            {
                b.undo(&mut self.journal);
                self.limited = true;
                return Value::unknown(k);
            }
            self.stats.nodes += 2;
        }
        if b.play_undoable(p, me, &mut self.journal).is_err() {
            if via_threat {
                b.undo(&mut self.journal);
                b.undo(&mut self.journal);
            }
            self.limited = true;
            return Value::unknown(k);
        }
        self.stats.nodes += 1;
        let took_ko = !p.is_pass() && b.ko().is_some();
        if via_threat {
            self.ko_won = b.ko().unwrap_or(Point::PASS);
            self.ko_owner = me;
        }
        let k2 = k + plies;
        let threat = threat || via_threat;
        if k == 0 {
            // The subtree of a root move is read as the root of the same
            // question one move later (its rules count plies from there).
            self.base = k2;
        }
        let mut v = if connector {
            if self.joined(b) {
                Value::exact(WIN, k2, Point::PASS)
            } else {
                self.disconnect(r, b, k2, threat)
            }
        } else if b.at(self.a) == Cell::Empty || b.at(self.b) == Cell::Empty {
            // A chain taken by a ko capture is cut only if the cutter
            // wins the ko.
            Value::exact(if took_ko { KO_B } else { LOSE }, k2, Point::PASS)
        } else {
            self.connect(r, b, k2, threat)
        };
        for _ in 0..plies {
            b.undo(&mut self.journal);
        }
        if k == 0 {
            self.base = 0;
        }
        if via_threat {
            self.ko_won = Point::PASS;
        }
        // A move after a ko threat wins at most "with a threat".
        if via_threat && connector {
            v.lo = v.lo.min(KO_B);
            v.hi = v.hi.min(KO_B);
        } else if via_threat {
            v.lo = v.lo.max(KO_A);
            v.hi = v.hi.max(KO_A);
        }
        v.mv = p;
        v
    }
}

/// Push the retake of a ko the opponent just took while no threat has
/// been used in the line (it takes the last place of a full list).
fn push_retake(b: &Board, threat: bool, mover: Color, c: &mut Cands) {
    if let Some(kp) = b.ko().filter(|_| !threat && b.to_play() == mover) {
        if !c.insert(kp) {
            let mut keep = Cands::default();
            for &p in &c.as_slice()[..MAX_CANDS - 1] {
                keep.insert(p);
            }
            keep.insert(kp);
            *c = keep;
        }
    }
}

/// Query whether the side to move (the connector, or the cutter) has won
/// a node outright with the bounds `lo`..`hi` of the moves read so far.
fn won(connector: bool, lo: u8, hi: u8) -> bool {
    if connector {
        lo == WIN
    } else {
        hi == LOSE
    }
}

/// Query whether `c` playing at the empty point `p` captures a chain.
fn captures(b: &Board, p: Point, c: Color) -> bool {
    let opp = Cell::stone(c.opponent());
    b.geometry()
        .neighbours(p)
        .iter()
        .any(|&n| b.at(n) == opp && b.in_atari(n))
}

/// Turn a result (connector's levels) into the answer for `goal`. An
/// unproven result is read at its lower level: a line the budget stopped
/// counts as cut (GNU Go's reading: the connector fails at its limits).
fn answer(goal: LinkGoal, s: Stored, depth: u8) -> Answer {
    let (plies, proven) = if s.lo == s.hi {
        (s.plies, true)
    } else {
        (depth, false)
    };
    Answer::at_level(goal == LinkGoal::Connect, s.lo, s.mv, plies, proven)
}
