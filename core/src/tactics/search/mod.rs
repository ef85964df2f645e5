//! The capture reader's core: the root's lookups in the cache, the
//! machinery both nodes share (trying candidates, make/unmake, ko, the
//! values) and the bookkeeping of which points the search read. The
//! nodes and their candidates live in the files below it:
//!
//! | file | what it holds |
//! |---|---|
//! | `mod.rs` | [`Reader`], [`Reader::solve`], trying candidates and playing them (`moves`, `child`), the tuning constants |
//! | `attack.rs` | the attack node and the attacker's own candidates |
//! | `defend.rs` | the defend node and the defender's own candidates |
//! | `candidates.rs` | the candidate list and the generators both sides use |
//!
//! See the module note of [`crate::tactics`] for the design.
//!
//! # Values
//!
//! A node's value is an interval of *levels* (attacker's view, ordered):
//! `LOSE < KO_B < KO_A < WIN` (GNU Go's codes: `KO_A` the attacker wins
//! if he takes the ko first, `KO_B` he needs a ko threat first). The
//! attacker maximises, the defender minimises, both bounds at once, and a
//! node cut by the depth or node budget is `[LOSE, WIN]`; a node is
//! *proven* when its interval is a single level. This is alpha/beta bounds
//! in the seed's sense, and what the cache stores.
//!
//! # Ko
//!
//! GNU Go's conventions, a simplified komaster: capturing the prey
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
//! # What counts as read
//!
//! The search marks points in a bitset; the cached region is a margin of
//! one around them (so neighbours of a marked point are covered: the
//! liberties of a marked chain, the surroundings of a marked move). It
//! keeps this invariant: *a chain on the board has all its stones marked or
//! none*, and the prey and every chain next to it are marked. The root
//! marks the prey and its adjacent chains; before the search looks at a
//! candidate move `p` it marks `p` and every unmarked chain next to `p`
//! (`Reader::mark_around`), which covers everything the legality test,
//! `liberties_after` and the move itself read. A new chain next to the prey
//! can only appear by a move next to it, so the invariant holds along every
//! line, and undo only returns to earlier positions where it held.
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

mod attack;
mod candidates;
mod defend;

use crate::board::{Board, Journal, MoveError};
use crate::geometry::{Cell, Color, Point};
use crate::table::{Bound, Table, TacticCluster};

use super::cache::level::{KO_A, KO_B, LOSE, WIN};
use super::cache::{recall, remember, Stored};
use super::key::{
    ban_key, problem_hash, side_key, PointBits, Rect, CLASS_CAPTURE, CLASS_HINT, CLASS_SAVE,
};
use super::ladder::{LadderReader, Question, Read};
use super::{Answer, Budget, Goal, Problem, ReaderStats, Verdict};
use candidates::{captures, Cands};

/// Slot writes the reader's undo journal holds (16 bytes each).
pub const JOURNAL_WRITES: usize = 2048;
/// Plies the reader's undo journal holds.
pub const JOURNAL_MOVES: usize = 64;
/// Largest depth budget in plies; a ko threat exchange takes three plies,
/// so lines stay within [`JOURNAL_MOVES`].
pub const MAX_DEPTH: u8 = 60;
/// Nets (second-order liberties) are tried only in the first `NET_DEPTH`
/// plies of a line, or a broken ladder would branch at every step.
pub const NET_DEPTH: u8 = 4;
/// A prey with three liberties is read on (the attacker tries its
/// liberties) only at attack nodes in the first `THREE_LIB_DEPTH` plies;
/// deeper, three liberties are safe.
pub const THREE_LIB_DEPTH: u8 = 7;
/// Against a prey with two liberties, the attacker reinforces its own
/// two-liberty chains next to the prey only in the first
/// `REINFORCE2_DEPTH` plies (against three liberties, wherever those are
/// read).
const REINFORCE2_DEPTH: u8 = 2;
/// In the first `TENUKI_DEPTH` plies a defender with two liberties may
/// also pass, its last resort (the attacker moves again and must then
/// capture outright).
pub const TENUKI_DEPTH: u8 = 4;
/// A defender in atari counter-ataris and captures next to the chain it
/// would connect to only in the first `PARTNER1_DEPTH` plies (with two
/// liberties, in the first [`DEFENCE_NET_DEPTH`]). Three plies instead of
/// two gains `reading.tst` 175 for 1.4% more in-game nodes; four loses an
/// own suite problem.
const PARTNER1_DEPTH: u8 = 3;
/// The defender tries second-order liberties only in the first
/// `DEFENCE_NET_DEPTH` plies of a line.
pub const DEFENCE_NET_DEPTH: u8 = 4;
/// The defender reads on a prey with three liberties (instead of calling
/// it safe) only at defend nodes in the first `DEFEND3_DEPTH + 1` plies:
/// the root (so a save never answers "no move needed" for a chain the
/// attacker can capture) and the replies to the attacker's first moves
/// (so a net against three liberties, or a four-liberty prey the attacker
/// reduced, is read). Deeper, three liberties are safe for the
/// defender, except in a line where a ko threat was used: there the
/// defender reads on while the next attack node would (a semeai won by a
/// ko). At one ply (the first version) `reading.tst` lost 55 86 159 188
/// 221; at four plies (measured before the special rescues) no test more,
/// two suite problems fewer and a third more nodes.
pub const DEFEND3_DEPTH: u8 = 3;
/// In the first `FOUR_LIB_DEPTH` plies a prey with four liberties is read
/// like one with three (GNU Go's `attack4`, read to its `fourlib_depth`
/// of seven plies); deeper, four liberties are safe. Only at the root, with
/// the defender reading three liberties one ply deep, it found no test;
/// with [`DEFEND3_DEPTH`] three it does (two plies: 55 fails).
pub const FOUR_LIB_DEPTH: u8 = 3;
/// Plies (from the root) where the candidates include the liberties of a
/// neighbour chain of three or four liberties that a connection would add
/// to the prey's (the attacker's placement of GNU Go's `reading15`, the
/// defender's attack on a net of three or four liberties). Deeper, they
/// cost more than they find: at two plies `reading.tst` loses test 193.
const WIDE_PARTNER_DEPTH: u8 = 1;
/// Plies (from the root) where the attacker of a prey with three (or
/// four) liberties also tries the liberties where his stone would be in
/// atari itself (throw-ins whose capture is a snapback, or that take a
/// liberty the prey needs to join a neighbour). At the root `reading.tst`
/// gains 209 and 210; read to two plies it also loses 183 (the
/// defence becomes a ko), to four it gains 24 as well.
pub const THROW_IN_DEPTH: u8 = 1;
/// Plies (from the root) where the attacker of a prey with three (or
/// four) liberties tries the throw-ins whose capture is a snapback (past
/// [`THROW_IN_DEPTH`]): `reading.tst` gains 24, the same at seven plies.
pub const SNAPBACK_THROW_IN_DEPTH: u8 = 4;
/// Plies (from the root) where the attacker of a one-stone prey in atari
/// whose capture is a snapback or a ko also backfills (GNU Go's
/// `attack1`): `reading.tst` gains 127 128 212 and loses 125 (after the
/// backfill F3 the defender's ko at G3, found at the root, is missed one
/// ply down); the same to two plies; at every ply 212 is not gained, and
/// the own suite loses two ko problems and gains one.
pub const BACKFILL_DEPTH: u8 = 1;
/// A prey crawling along the edge (its stones and its three or four
/// liberties all on the first two lines) is read on, by both sides and
/// with a few candidates, in the first `CRAWL_DEPTH` plies where the
/// three-liberty rules call it safe. Deeper costs more than it finds: at
/// seven plies `reading.tst` gains 134 152 and loses 222, and the in-game
/// workload reads 47% more nodes; at twelve, 27 times as many.
pub const CRAWL_DEPTH: u8 = 5;
// The cache key's assumptions name every depth above (`key::ASSUMPTIONS`:
// "three-lib-depth=7", "defend3-depth=3", "four-lib-depth=3", ...): a
// change here must change them, or stale entries stay valid.
const _: () = assert!(
    THREE_LIB_DEPTH == 7
        && NET_DEPTH == 4
        && REINFORCE2_DEPTH == 2
        && TENUKI_DEPTH == 4
        && PARTNER1_DEPTH == 3
        && DEFENCE_NET_DEPTH == 4
        && DEFEND3_DEPTH == 3
        && FOUR_LIB_DEPTH == 3
        && WIDE_PARTNER_DEPTH == 1
        && CRAWL_DEPTH == 5
        && THROW_IN_DEPTH == 1
        && SNAPBACK_THROW_IN_DEPTH == 4
        && BACKFILL_DEPTH == 1
);
// The root's throw-ins are read where the snapback ones are.
const _: () = assert!(THROW_IN_DEPTH <= SNAPBACK_THROW_IN_DEPTH);
/// Entries of the reader's memo of problem hashes (a power of two).
const HASH_MEMO: usize = 32;

/// A memo entry: the packed problem (0: empty) and its problem and hint
/// hashes (SHA-1 based, so worth keeping: the search's priors ask the same
/// few problems at thousands of expansions).
#[derive(Clone, Copy)]
struct MemoEntry {
    tag: u32,
    problem: u64,
    hint: u64,
}

/// The storage type of a reader without a cache (never used).
pub type NoStorage = [TacticCluster; 1];

/// A node's value: an interval of levels (attacker's view), the deepest
/// ply its tree reached, and the move that achieved it.
#[derive(Clone, Copy, Debug)]
struct Value {
    lo: u8,
    hi: u8,
    reached: u8,
    mv: Point,
}

impl Value {
    const fn exact(level: u8, reached: u8) -> Value {
        Value {
            lo: level,
            hi: level,
            reached,
            mv: Point::PASS,
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

/// The tactical reader: an optional borrowed cache (a clustered table of
/// [`TacticCluster`]s over storage `S`, never flushed) and an owned undo
/// journal of `W` slot writes over `M` plies (a smaller journal fits a
/// small target; a line that does not fit is stopped like one over the
/// node budget). See the module note of [`crate::tactics`].
pub struct Reader<
    't,
    S = NoStorage,
    const W: usize = JOURNAL_WRITES,
    const M: usize = JOURNAL_MOVES,
> {
    cache: Option<&'t mut Table<TacticCluster, S>>,
    journal: Journal<W, M>,
    read: PointBits,
    stats: ReaderStats,
    prey: Point,
    att: Color,
    def: Color,
    node_limit: u64,
    depth: u8,
    root_hint: Point,
    /// The ko point the side that used the line's ko threat retook (the
    /// stone it captured stood there): its opponent may not retake that ko
    /// again in the line (GNU Go's komaster). `PASS` while no threat is used.
    ko_won: Point,
    /// Who retook [`Self::ko_won`].
    ko_owner: Color,
    limited: bool,
    cut: bool,
    /// The box of the board the last [`Self::solve`] depended on (`None`:
    /// the target held no stone, the answer depends on that point alone).
    region: Option<Rect>,
    stack_top: usize,
    stack_used: usize,
    memo: [MemoEntry; HASH_MEMO],
}

impl Reader<'static, NoStorage> {
    /// Return a reader without a cache (for "cache off" comparisons).
    pub fn without_cache() -> Self {
        Reader::with_journal(None)
    }
}

impl<'t, S: AsRef<[TacticCluster]> + AsMut<[TacticCluster]>> Reader<'t, S> {
    /// Return a reader that looks results up in, and stores them to, `cache`.
    pub fn new(cache: &'t mut Table<TacticCluster, S>) -> Self {
        Reader::with_journal(Some(cache))
    }
}

impl<'t, S, const W: usize, const M: usize> Reader<'t, S, W, M> {
    /// Return a reader with its own journal size and an optional cache;
    /// usable in a `static` initialiser (attach the cache later with
    /// [`Reader::attach`]).
    pub const fn with_journal(cache: Option<&'t mut Table<TacticCluster, S>>) -> Self {
        Reader {
            cache,
            journal: Journal::new(),
            read: PointBits::new(),
            stats: ReaderStats::ZERO,
            prey: Point::PASS,
            // Set by every solve; zeros here keep a reader in a `static`
            // in `.bss` (the firmware's), out of flash.
            att: Color::Black,
            def: Color::Black,
            node_limit: 0,
            depth: 0,
            root_hint: Point::PASS,
            ko_won: Point::PASS,
            ko_owner: Color::Black,
            limited: false,
            cut: false,
            region: None,
            stack_top: 0,
            stack_used: 0,
            memo: [MemoEntry {
                tag: 0,
                problem: 0,
                hint: 0,
            }; HASH_MEMO],
        }
    }

    /// Return the problem hash and the hint's problem hash of `goal` on the
    /// chain `chain_id` of a `size` board, from the memo if there.
    fn problem_hashes(&mut self, goal: Goal, size: usize, chain_id: Point) -> (u64, u64) {
        let tag = 1
            | (u32::from(goal == Goal::Save) << 1)
            | ((size as u32) << 2)
            | (u32::from(chain_id.0) << 8);
        let e = &mut self.memo[(chain_id.0 as usize ^ (goal == Goal::Save) as usize) % HASH_MEMO];
        if e.tag != tag {
            let class = match goal {
                Goal::Capture => CLASS_CAPTURE,
                Goal::Save => CLASS_SAVE,
            };
            *e = MemoEntry {
                tag,
                problem: problem_hash(class, goal, size, chain_id),
                hint: problem_hash(CLASS_HINT, goal, size, chain_id),
            };
        }
        (e.problem, e.hint)
    }

    /// Give the reader `cache` (replacing any it had).
    pub fn attach(&mut self, cache: &'t mut Table<TacticCluster, S>) {
        self.cache = Some(cache);
    }
}

impl<'t, S: AsRef<[TacticCluster]> + AsMut<[TacticCluster]>, const W: usize, const M: usize>
    Reader<'t, S, W, M>
{
    /// Return the counters since the reader was made.
    pub fn stats(&self) -> ReaderStats {
        self.stats
    }

    /// Return the most stack the search's recursion has used so far, in
    /// bytes (measured from the root node's frame to the deepest node's).
    pub fn stack_high_water(&self) -> usize {
        self.stack_used
    }

    /// Return the box of the board the last [`Self::solve`] depended on:
    /// a position that agrees with that one inside the box gets the same
    /// answer (`None`: the target held no stone).
    pub(crate) fn last_region(&self) -> Option<Rect> {
        self.region
    }

    /// Query whether the node budget or the journal stopped the last
    /// [`Self::solve`] (an answer unproven by the depth budget alone is
    /// the one the search gives whenever asked).
    pub(crate) fn last_stopped(&self) -> bool {
        self.limited
    }

    /// Return the reader's cache, for problems of other classes that share
    /// the table (connection reading).
    pub(crate) fn table(&mut self) -> Option<&mut Table<TacticCluster, S>> {
        self.cache.as_deref_mut()
    }

    /// Answer `problem` on `board` within `budget`; the board is restored
    /// on return (its lists of chains in atari are refreshed, which changes
    /// no position).
    pub fn solve(&mut self, board: &mut Board, problem: Problem, budget: Budget) -> Answer {
        let geo = board.geometry();
        let target = problem.target;
        self.region = None;
        let def = match board.at(target).color() {
            Some(c) if geo.on_board(target) => c,
            _ => {
                return Answer {
                    verdict: Verdict::Fails,
                    key_move: Point::PASS,
                    plies: 0,
                    proven: true,
                }
            }
        };
        let att = def.opponent();
        let mover = match problem.goal {
            Goal::Capture => att,
            Goal::Save => def,
        };
        board.refresh_ataris();
        debug_assert_eq!(self.journal.depth(), 0);
        self.journal.clear();
        self.prey = target;
        self.att = att;
        self.def = def;
        self.depth = budget.depth.min(MAX_DEPTH);
        self.root_hint = Point::PASS;
        self.ko_won = Point::PASS;
        self.node_limit = self.stats.nodes + u64::from(budget.nodes);
        self.limited = false;
        self.cut = false;
        self.read.clear();
        let top = 0u8;
        self.stack_top = core::ptr::addr_of!(top) as usize;

        let chain_id = board.chain_stones(target).min().unwrap_or(target);
        let size = board.size();
        // The other side's ban shapes the attacker's first pass of a save
        // problem (the attacker moves at the root there, banned or
        // retaking).
        let (problem_key, hint_problem) = self.problem_hashes(problem.goal, size, chain_id);
        let fixed = problem_key ^ side_key(mover) ^ ban_key(board, mover);
        let r0 = self.mark_root(board);
        let hint_key = hint_problem ^ r0;

        if let Some(cache) = self.cache.as_deref_mut() {
            self.stats.probes += 1;
            if let Some((s, rect)) = recall(cache, board, hint_key, fixed) {
                if s.usable(self.depth) {
                    self.stats.hits += 1;
                    self.region = Some(rect);
                    return answer(problem.goal, s, self.depth);
                }
            }
        }

        let v = match problem.goal {
            Goal::Capture => self.attack(board, 0, false),
            Goal::Save => {
                let a = self.attack(board, 0, false);
                if a.lo == LOSE && a.hi == LOSE {
                    Value {
                        mv: Point::PASS,
                        ..a
                    }
                } else {
                    // The attacker's key move is a defender candidate at
                    // the root: the opponent's vital point.
                    self.root_hint = a.mv;
                    let d = self.defend(board, 0, false);
                    self.root_hint = Point::PASS;
                    Value {
                        reached: d.reached.max(a.reached),
                        ..d
                    }
                }
            }
        };
        debug_assert_eq!(self.journal.depth(), 0);
        self.region = Rect::around(&self.read, geo);
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
        if !self.limited {
            if let (Some(cache), Some(rect)) = (self.cache.as_deref_mut(), self.region) {
                remember(cache, board, hint_key, fixed, rect, s.pack(att));
                self.stats.stores += 2;
            }
        }
        answer(problem.goal, s, self.depth)
    }

    /// Mark the prey and its adjacent chains as read; return the hash of
    /// the prey, its liberties and its adjacent chains (the hint's region).
    fn mark_root(&mut self, b: &Board) -> u64 {
        self.read.insert_roots(b, &[self.prey])
    }

    /// Mark `p` and every unmarked chain next to it as read.
    #[inline(never)]
    fn mark_around(&mut self, b: &Board, p: Point) {
        self.read.insert_around(b, p);
    }

    /// Mark the chain at the stone `s` as read, unless it is already.
    #[inline]
    fn mark_chain(&mut self, b: &Board, s: Point) {
        self.read.insert_chain(b, s);
    }

    #[inline(always)]
    fn note_stack(&mut self) {
        let here = 0u8;
        let used = self
            .stack_top
            .saturating_sub(core::ptr::addr_of!(here) as usize);
        if used > self.stack_used {
            self.stack_used = used;
        }
    }

    /// Return the prey's liberty count, capped at 3.
    #[inline]
    fn prey_libs(&self, b: &Board) -> usize {
        if b.in_atari(self.prey) {
            1
        } else {
            b.liberty_count_capped::<3>(self.prey)
        }
    }

    /// Play a move through the journal; `false` if it does not fit.
    #[inline(always)]
    fn play(&mut self, b: &mut Board, p: Point, c: Color) -> bool {
        b.play_undoable(p, c, &mut self.journal).is_ok()
    }

    /// Take back the last move.
    #[inline(always)]
    fn undo(&mut self, b: &mut Board) {
        b.undo(&mut self.journal);
    }

    /// Query whether the attacker's capture at `p` of a one-stone prey is
    /// a snapback: his chain there (more than one stone) is left with the
    /// prey's point as its one liberty, and the defender's recapture there
    /// has two liberties or more (GNU Go's `attack1`: such a capture does
    /// not count).
    fn snapback(&mut self, b: &mut Board, p: Point) -> bool {
        self.mark_around(b, self.prey);
        if b.chain_size(p) < 2 || b.atari_liberty(p) != Some(self.prey) {
            return false;
        }
        if !self.play(b, self.prey, self.def) {
            return false;
        }
        let libs = b.liberty_count_capped::<2>(self.prey);
        self.undo(b);
        libs >= 2
    }

    /// Return whether `c` may play `p`, or why not.
    #[inline(always)]
    fn legality(b: &Board, p: Point, c: Color) -> Result<(), MoveError> {
        b.check_move(p, c)
    }

    /// Try the candidates for the attacker (maximising) or the defender
    /// (minimising) and combine their values.
    fn moves(&mut self, b: &mut Board, k: u8, threat: bool, attacker: bool, c: &Cands) -> Value {
        let me = if attacker { self.att } else { self.def };
        let (mut lo, mut hi) = if attacker { (LOSE, LOSE) } else { (WIN, WIN) };
        let mut mv = Point::PASS;
        let mut reached = k;
        let mut any = false;
        for &p in c.as_slice() {
            if p.is_pass() {
                // Tenuki, the defender's last resort: the attacker moves
                // again, and the prey is safe only if he then fails
                // outright (see `Self::tenuki`).
                let v = self.tenuki(b, k, threat);
                reached = reached.max(v.reached);
                if !any || v.hi < hi {
                    mv = p;
                }
                lo = lo.min(v.lo);
                hi = hi.min(v.hi);
                any = true;
                continue;
            }
            self.mark_around(b, p);
            if p == self.ko_won && me != self.ko_owner && captures(b, p, me) {
                // The ko the opponent retook after a threat is his.
                continue;
            }
            let v = match Self::legality(b, p, me) {
                Ok(()) => self.child(b, k, threat, attacker, p, false),
                Err(MoveError::Ko) if !threat => self.child(b, k, threat, attacker, p, true),
                Err(_) => continue,
            };
            reached = reached.max(v.reached);
            if attacker {
                if !any || v.lo > lo {
                    mv = p;
                }
                lo = lo.max(v.lo);
                hi = hi.max(v.hi);
                any = true;
                if lo == WIN {
                    break;
                }
            } else {
                if !any || v.hi < hi {
                    mv = p;
                }
                lo = lo.min(v.lo);
                hi = hi.min(v.hi);
                any = true;
                if hi == LOSE {
                    break;
                }
            }
        }
        if !any {
            if attacker {
                return Value::exact(LOSE, k);
            }
            // No defence worth trying: the defender passes.
            return self.tenuki(b, k, threat);
        }
        Value {
            lo,
            hi,
            reached,
            mv,
        }
    }

    /// Let the defender pass: if the attacker can then capture at all, even
    /// by a ko he starts, the defence has failed (GNU Go's defender has no
    /// pass: no move that defends means the attack works).
    fn tenuki(&mut self, b: &mut Board, k: u8, threat: bool) -> Value {
        let mut v = self.child(b, k, threat, false, Point::PASS, false);
        if v.lo > LOSE {
            v.lo = WIN;
        }
        if v.hi > LOSE {
            v.hi = WIN;
        }
        v
    }

    /// Play `p` for the side (after a ko threat exchange if `via_threat`),
    /// evaluate the opponent's node, take the move back.
    fn child(
        &mut self,
        b: &mut Board,
        k: u8,
        threat: bool,
        attacker: bool,
        p: Point,
        via_threat: bool,
    ) -> Value {
        let (me, other) = if attacker {
            (self.att, self.def)
        } else {
            (self.def, self.att)
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
            if !self.play(b, Point::PASS, me) {
                self.limited = true;
                return Value::unknown(k);
            }
            if b.play_undoable(Point::PASS, other, &mut self.journal)
                .is_err()
            {
                self.undo(b);
                self.limited = true;
                return Value::unknown(k);
            }
            self.stats.nodes += 2;
        }
        let lone = attacker && b.chain_size(self.prey) == 1;
        if !self.play(b, p, me) {
            if via_threat {
                self.undo(b);
                self.undo(b);
            }
            self.limited = true;
            return Value::unknown(k);
        }
        self.stats.nodes += 1;
        let took_ko = !p.is_pass() && b.ko().is_some();
        if via_threat {
            // Only the mover's retake can set a ko point here.
            self.ko_won = b.ko().unwrap_or(Point::PASS);
            self.ko_owner = me;
        }
        let k2 = k + plies;
        let threat = threat || via_threat;
        let mut v = if !attacker {
            self.attack(b, k2, threat)
        } else if b.at(self.prey) == Cell::Empty {
            // Capturing the prey by a ko capture wins the ko, no more: the
            // defender may retake after a threat; a snapback fails.
            let level = if took_ko {
                KO_A
            } else if lone && self.snapback(b, p) {
                LOSE
            } else {
                WIN
            };
            Value::exact(level, k2)
        } else {
            self.defend(b, k2, threat)
        };
        for _ in 0..plies {
            self.undo(b);
        }
        if via_threat {
            self.ko_won = Point::PASS;
        }
        // A move after a ko threat wins at most "with a threat"; any other
        // ko capture is valued by the search, which tries the retake.
        if via_threat && attacker {
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

/// Turn a result (attacker's levels) into the answer for `goal`.
fn answer(goal: Goal, s: Stored, depth: u8) -> Answer {
    if s.lo != s.hi {
        return Answer {
            verdict: Verdict::Fails,
            key_move: Point::PASS,
            plies: depth,
            proven: false,
        };
    }
    Answer::at_level(goal == Goal::Capture, s.lo, s.mv, s.plies, true)
}

/// A tactical reader behind a trait object, so that its user (the search's
/// priors) is not generic over the reader's cache storage and journal size.
pub trait Solver {
    /// Answer `problem` on `board` within `budget`, restoring the board
    /// (see [`Reader::solve`]).
    fn solve(&mut self, board: &mut Board, problem: Problem, budget: Budget) -> Answer;

    /// Lend the solver as a ladder reader between its own reads, if it
    /// can read ladders (the [`Reader`] does, on its own journal: an
    /// engine short of RAM keeps one journal for both).
    fn ladders(&mut self) -> Option<&mut dyn LadderReader> {
        None
    }
}

impl<S: AsRef<[TacticCluster]> + AsMut<[TacticCluster]>, const W: usize, const M: usize> Solver
    for Reader<'_, S, W, M>
{
    fn solve(&mut self, board: &mut Board, problem: Problem, budget: Budget) -> Answer {
        Reader::solve(self, board, problem, budget)
    }

    fn ladders(&mut self) -> Option<&mut dyn LadderReader> {
        Some(self)
    }
}

/// The plain ladder read ([`super::ladder`]) over the reader's journal,
/// which is free between its reads (each clears it first).
impl<S, const W: usize, const M: usize> LadderReader for Reader<'_, S, W, M> {
    fn answer(&mut self, board: &mut Board, question: Question) -> bool {
        Read::answer(&mut self.journal, board, question)
    }
}
