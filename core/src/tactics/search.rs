//! The reader: root lookups in the cache, the attack/defend search, and the
//! bookkeeping of which points the search read (see the module note of
//! [`crate::tactics`] for the design).
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

use core::cmp::Reverse;

use crate::board::{Board, Journal, MoveError, PointSet};
use crate::geometry::{Cell, Color, Point};
use crate::table::{Bound, Table, TacticCluster};

use super::cache::level::{KO_A, KO_B, LOSE, WIN};
use super::cache::{pack_hint, unpack_hint, Stored};
use super::key::{
    ko_key, problem_hash, side_key, PointBits, Rect, CLASS_CAPTURE, CLASS_HINT, CLASS_SAVE,
};
use super::{Answer, Budget, Goal, Problem, ReaderStats, Verdict};

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
/// liberties, in the first [`DEFENCE_NET_DEPTH`]).
const PARTNER1_DEPTH: u8 = 2;
/// The defender tries second-order liberties only in the first
/// `DEFENCE_NET_DEPTH` plies of a line.
pub const DEFENCE_NET_DEPTH: u8 = 4;
/// The defender reads on a prey with three liberties (instead of calling
/// it safe) only at defend nodes in the first `DEFEND3_DEPTH + 1` plies:
/// the root (so a save never answers "no move needed" for a chain the
/// attacker can capture) and the reply to the attacker's first move (so a
/// net against three liberties is read). Deeper, three liberties are safe
/// for the defender, as in the first version, except in a line where a ko
/// threat was used: there the defender reads on while the next attack node
/// would (a semeai won by a ko).
pub const DEFEND3_DEPTH: u8 = 1;
/// At the root only, a prey with four liberties is read like one with
/// three (GNU Go's `attack4`, one ply).
pub const FOUR_LIBS_AT_ROOT: bool = true;
/// Most candidate moves per node.
const MAX_CANDS: usize = 16;
/// Plies (from the root) where the candidates include the liberties of a
/// neighbour chain of three or four liberties that a connection would add
/// to the prey's (the attacker's placement of GNU Go's `reading15`, the
/// defender's attack on a net of three or four liberties). Deeper, they
/// cost more than they find: at two plies `reading.tst` loses test 193.
const WIDE_PARTNER_DEPTH: u8 = 1;
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

/// Which neighbour chains [`Reader::neighbour_liberties`] takes in.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reach {
    /// Two to `most` liberties; the mover's stone keeps two.
    Near,
    /// Three or four liberties of which one to `most` are outside the
    /// prey's (the ones a connection adds); the stone keeps two.
    Wide,
    /// As `Near`, the stone keeps one (a sacrifice that ataris).
    Sacrifice,
}

/// A fixed list of distinct candidate moves.
struct Cands {
    pts: [Point; MAX_CANDS],
    len: usize,
}

impl Cands {
    fn new() -> Self {
        Cands {
            pts: [Point::PASS; MAX_CANDS],
            len: 0,
        }
    }

    fn push(&mut self, p: Point) {
        if self.len < MAX_CANDS && !self.pts[..self.len].contains(&p) {
            self.pts[self.len] = p;
            self.len += 1;
        }
    }

    /// Push `p` even if the list is full: it takes the last place.
    fn push_forced(&mut self, p: Point) {
        if self.len == MAX_CANDS && !self.pts.contains(&p) {
            self.len -= 1;
        }
        self.push(p);
    }

    fn as_slice(&self) -> &[Point] {
        &self.pts[..self.len]
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
            stats: ReaderStats {
                nodes: 0,
                probes: 0,
                hits: 0,
                stores: 0,
            },
            prey: Point::PASS,
            att: Color::Black,
            def: Color::White,
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
        // The board's ko ban binds its side to move. The mover's ban shapes
        // the search from the root; the other side's shapes the attacker's
        // first pass of a save problem (the attacker moves at the root
        // there, banned or retaking). Both are keyed, apart.
        let ban = ko_key(board.ko());
        let ban = if board.to_play() == mover {
            ban
        } else {
            ban.rotate_left(32)
        };
        let (problem_key, hint_problem) = self.problem_hashes(problem.goal, size, chain_id);
        let fixed = problem_key ^ side_key(mover) ^ ban;
        let r0 = self.mark_root(board);
        let hint_key = hint_problem ^ r0;

        if let Some(cache) = self.cache.as_deref_mut() {
            self.stats.probes += 1;
            if let Some(rect) = cache
                .probe(hint_key)
                .data
                .and_then(|t| unpack_hint(t, size))
            {
                let key = fixed ^ rect.hash(board);
                if let Some(s) = cache.probe(key).data.and_then(Stored::unpack) {
                    if s.usable(self.depth) {
                        self.stats.hits += 1;
                        self.region = Some(rect);
                        return answer(problem.goal, s, self.depth);
                    }
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
                let key = fixed ^ rect.hash(board);
                let slot = cache.probe(key).slot;
                cache.store(slot, s.pack(att));
                let slot = cache.probe(hint_key).slot;
                cache.store(slot, pack_hint(rect));
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

    /// Push, sorted by (size descending, point), the liberty of every chain
    /// of the attacker in atari next to the prey.
    fn attacker_ataris(&self, b: &Board, out: &mut Cands) {
        let mut found: [(Reverse<usize>, Point); 8] = [(Reverse(0), Point::PASS); 8];
        let mut n = 0;
        for &r in b.chains_in_atari(self.att) {
            if n < found.len() && b.chains_touch(r, self.prey) {
                if let Some(l) = b.atari_liberty(r) {
                    found[n] = (Reverse(b.chain_size(r)), l);
                    n += 1;
                }
            }
        }
        push_ranked(&mut found[..n], 0, out);
    }

    /// Push, in point order, the liberties of attacker chains with two
    /// liberties next to the prey where the attacker's stone gives the
    /// chain three or more (or captures): reinforcing a chain the defender
    /// would otherwise counter-atari (GNU Go's attacker defends its own
    /// weak neighbours of the prey).
    fn attacker_reinforce(&mut self, b: &Board, out: &mut Cands) {
        let mut roots: PointSet<8> = PointSet::default();
        let mut pts: PointSet<8> = PointSet::default();
        let geo = b.geometry();
        for s in b.chain_stones(self.prey) {
            for m in geo.neighbours(s) {
                if b.at(m) != Cell::stone(self.att) || b.in_atari(m) {
                    continue;
                }
                let Some(r) = b.chain_root(m) else { continue };
                if roots.contains(r) || !roots.insert(r) {
                    continue;
                }
                let ls: PointSet<3> = b.liberties(r);
                if ls.len() == 2 {
                    for &q in ls.as_slice() {
                        pts.insert(q);
                    }
                }
            }
        }
        pts.sort();
        for &q in pts.as_slice() {
            self.mark_around(b, q);
            if b.liberties_after::<3>(q, self.att) >= 3 || captures(b, q, self.att) {
                out.push(q);
            }
        }
    }

    /// Push, sorted by point, the liberty of every defender chain in atari
    /// (other than the prey) next to an attacker chain in atari next to the
    /// prey: the attacker rescues its chain by capturing (a semeai's ko or
    /// capture). Marks every defender chain next to those attacker chains,
    /// whose atari status this reads.
    fn rescue_by_capture(&mut self, b: &Board, out: &mut Cands) {
        let geo = b.geometry();
        let prey_root = b.chain_root(self.prey);
        let own = Cell::stone(self.def);
        let mut mine: PointSet<8> = PointSet::default();
        for &r in b.chains_in_atari(self.att) {
            let touches = b.chain_stones(r).any(|s| {
                geo.neighbours(s)
                    .iter()
                    .any(|&m| b.chain_root(m) == prey_root)
            });
            if touches {
                mine.insert(r);
            }
        }
        let mut pts: PointSet<8> = PointSet::default();
        for &r in mine.as_slice() {
            for s in b.chain_stones(r) {
                for m in geo.neighbours(s) {
                    if b.at(m) != own || b.chain_root(m) == prey_root {
                        continue;
                    }
                    self.mark_chain(b, m);
                    if let Some(l) = b.atari_liberty(m) {
                        pts.insert(l);
                    }
                }
            }
        }
        pts.sort();
        for &l in pts.as_slice() {
            out.push(l);
        }
    }

    /// Attack node: the attacker moves against the prey.
    fn attack(&mut self, b: &mut Board, k: u8, threat: bool) -> Value {
        self.note_stack();
        match self.attack_moves(b, k) {
            Ok(mut c) => {
                Self::push_retake(b, threat, self.att, &mut c);
                self.moves(b, k, threat, true, &c)
            }
            Err(v) => v,
        }
    }

    /// Push the retake of a ko the opponent just took (played after a ko
    /// threat, see [`Self::child`]) while no threat has been used in the
    /// line: a ko capture is only worth "wins the ko" if the retake matters,
    /// and the search finds out whether it does.
    #[inline(always)]
    fn push_retake(b: &Board, threat: bool, mover: Color, c: &mut Cands) {
        // At the root the ban binds the mover only if it is his turn (the
        // cache key holds the ko point only then).
        if let Some(kp) = b.ko().filter(|_| !threat && b.to_play() == mover) {
            c.push_forced(kp);
        }
    }

    /// Return the attacker's candidates, or the value of a settled node.
    /// Kept out of line so its locals are not part of every recursive frame.
    #[inline(never)]
    fn attack_moves(&mut self, b: &Board, k: u8) -> Result<Cands, Value> {
        let libs = self.prey_libs(b);
        if libs >= 3 {
            if k >= THREE_LIB_DEPTH {
                return Err(Value::exact(LOSE, k));
            }
            return self.attack3_moves(b, k);
        }
        let mut c = Cands::new();
        if libs == 1 {
            let l = b.atari_liberty(self.prey).unwrap_or(Point::PASS);
            c.push(l);
            if b.chain_size(self.prey) == 1 {
                self.ko_free_capture(b, l, self.att, &mut c);
            }
        } else {
            let ls: PointSet<2> = b.liberties(self.prey);
            let (mut l1, mut l2) = (ls.as_slice()[0], ls.as_slice()[1]);
            self.read.insert(l1);
            self.read.insert(l2);
            let rank = |l: Point| (Reverse(b.neighbour_count(l, Cell::Empty)), l);
            if rank(l2) < rank(l1) {
                core::mem::swap(&mut l1, &mut l2);
            }
            c.push(l1);
            c.push(l2);
            self.attacker_ataris(b, &mut c);
            self.rescue_by_capture(b, &mut c);
            if k < NET_DEPTH {
                for l in [l1, l2] {
                    for n in b.geometry().neighbours(l) {
                        if b.at(n) == Cell::Empty && n != l1 && n != l2 {
                            self.mark_around(b, n);
                            if b.liberties_after::<2>(n, self.att) >= 2 {
                                c.push(n);
                            }
                        }
                    }
                }
            }
            if k < NET_DEPTH {
                self.partner_ataris(b, &[l1, l2], &mut c);
            }
            if k < REINFORCE2_DEPTH {
                self.attacker_reinforce(b, &mut c);
            }
            if k < WIDE_PARTNER_DEPTH {
                self.neighbour_liberties(b, &[l1, l2], self.def, 2, Reach::Wide, &mut c);
            }
        }
        Ok(c)
    }

    /// Push, when taking a one-stone prey at `l` would be a ko capture, the
    /// other liberty of every defender chain (not the prey) with two
    /// liberties next to `l`: for the attacker (`mover`) an atari after
    /// which the capture takes more than one stone, no ko (GNU Go's
    /// back-capturing in `attack1`); for the defender the extension that
    /// keeps the capture a ko.
    fn ko_free_capture(&mut self, b: &Board, l: Point, mover: Color, c: &mut Cands) {
        self.mark_around(b, l);
        if b.liberties_after::<2>(l, self.att) >= 2 {
            return;
        }
        let prey_root = b.chain_root(self.prey);
        for n in b.geometry().neighbours(l) {
            if b.at(n) != Cell::stone(self.def) || b.chain_root(n) == prey_root {
                continue;
            }
            let ls: PointSet<3> = b.liberties(n);
            if ls.len() == 2 {
                for &q in ls.as_slice() {
                    if q != l {
                        self.mark_around(b, q);
                        if mover == self.att || b.liberties_after::<2>(q, self.def) >= 2 {
                            c.push(q);
                        }
                    }
                }
            }
        }
    }

    /// Return the prey's liberties while the three-liberty nodes read on
    /// (three, or four at the root, see [`FOUR_LIBS_AT_ROOT`]), else the
    /// value of a safe prey.
    fn readable_libs(&self, b: &Board, k: u8) -> Result<PointSet<5>, Value> {
        let ls: PointSet<5> = b.liberties(self.prey);
        let most = if k == 0 && FOUR_LIBS_AT_ROOT { 4 } else { 3 };
        if ls.len() > most {
            return Err(Value::exact(LOSE, k));
        }
        Ok(ls)
    }

    /// Return the attacker's candidates against a prey with three or more
    /// liberties (read only in the first [`THREE_LIB_DEPTH`] plies): with
    /// exactly three (or four at the root, see [`FOUR_LIBS_AT_ROOT`]), a
    /// move at a liberty where the attacker's stone keeps two liberties (or
    /// captures: a ko capture), the rescue of attacker chains in atari, and
    /// in the first [`NET_DEPTH`] plies a net (a second-order liberty where
    /// the attacker's stone would have two liberties); with more, the prey
    /// is safe.
    #[inline(never)]
    fn attack3_moves(&mut self, b: &Board, k: u8) -> Result<Cands, Value> {
        let ls = self.readable_libs(b, k)?;
        let mut c = Cands::new();
        self.attacker_ataris(b, &mut c);
        self.rescue_by_capture(b, &mut c);
        let mut ext = [(Reverse(0), Point::PASS); 4];
        for (i, &l) in ls.as_slice().iter().enumerate() {
            self.mark_around(b, l);
            let n = if b.liberties_after::<2>(l, self.att) >= 2 || captures(b, l, self.att) {
                1 + b.neighbour_count(l, Cell::Empty) as usize
            } else {
                0
            };
            ext[i] = (Reverse(n), l);
        }
        push_ranked(&mut ext, 1, &mut c);
        if k < NET_DEPTH {
            self.second_order(b, ls.as_slice(), self.att, 2, &mut c);
        }
        self.attacker_reinforce(b, &mut c);
        if k < WIDE_PARTNER_DEPTH {
            // An atari on a chain the prey would join, even by a stone
            // left in atari (reading46's sacrifice).
            self.neighbour_liberties(b, ls.as_slice(), self.def, 2, Reach::Sacrifice, &mut c);
            self.hemming_reinforce(b, ls.as_slice(), &mut c);
        }
        Ok(c)
    }

    /// Defend node: the defender moves to save the prey.
    fn defend(&mut self, b: &mut Board, k: u8, threat: bool) -> Value {
        self.note_stack();
        match self.defend_moves(b, k, threat) {
            Ok(mut c) => {
                if k == 0 && !self.root_hint.is_pass() {
                    c.push(self.root_hint);
                }
                Self::push_retake(b, threat, self.def, &mut c);
                if k < TENUKI_DEPTH && self.prey_libs(b) == 2 {
                    // No move may be the best defence: tenuki, last.
                    c.push(Point::PASS);
                }
                self.moves(b, k, threat, false, &c)
            }
            Err(v) => v,
        }
    }

    /// Return the defender's candidates, or the value of a settled node.
    #[inline(never)]
    fn defend_moves(&mut self, b: &Board, k: u8, threat: bool) -> Result<Cands, Value> {
        let libs = self.prey_libs(b);
        if libs >= 3 {
            // The next attack node reads three liberties on only in the
            // first THREE_LIB_DEPTH plies; past that the prey is safe.
            if (k > DEFEND3_DEPTH && !threat) || k + 1 >= THREE_LIB_DEPTH {
                return Err(Value::exact(LOSE, k));
            }
            return self.defend3_moves(b, k);
        }
        let mut c = Cands::new();
        self.attacker_ataris(b, &mut c);
        if libs == 1 {
            let l = b.atari_liberty(self.prey).unwrap_or(Point::PASS);
            self.mark_around(b, l);
            if b.liberties_after::<2>(l, self.def) >= 2 {
                c.push(l);
            }
            if b.chain_size(self.prey) == 1 {
                self.ko_free_capture(b, l, self.def, &mut c);
            }
            if k < PARTNER1_DEPTH {
                self.counter_ataris(b, 2, &mut c);
                self.partner_rescue(b, &[l], &mut c);
            }
        } else {
            let ls: PointSet<2> = b.liberties(self.prey);
            let mut ext = [(Reverse(0), Point::PASS); 2];
            for (i, &l) in ls.as_slice().iter().enumerate() {
                self.mark_around(b, l);
                ext[i] = (Reverse(b.liberties_after::<4>(l, self.def)), l);
            }
            push_ranked(&mut ext, 2, &mut c);
            self.counter_ataris(b, if k < DEFENCE_NET_DEPTH { 3 } else { 2 }, &mut c);
            if k < DEFENCE_NET_DEPTH {
                // Second-order liberties: a defender stone next to a
                // liberty that would have three liberties (connecting out,
                // making room).
                self.second_order(b, ls.as_slice(), self.def, 3, &mut c);
                self.partner_rescue(b, ls.as_slice(), &mut c);
                self.net_breakers(b, ls.as_slice(), &mut c);
            }
            if k < WIDE_PARTNER_DEPTH {
                self.neighbour_liberties(b, ls.as_slice(), self.att, 3, Reach::Wide, &mut c);
            }
        }
        Ok(c)
    }

    /// Return the defender's candidates for a prey with three liberties
    /// (four at the root, see [`FOUR_LIBS_AT_ROOT`]) that the attacker may
    /// still read on: capture an attacker chain in atari, extend at a
    /// liberty that keeps three or more liberties (most first),
    /// counter-atari, and in the first [`DEFENCE_NET_DEPTH`] plies a
    /// second-order liberty where the defender's stone would have three
    /// liberties. With more liberties the prey is safe.
    #[inline(never)]
    fn defend3_moves(&mut self, b: &Board, k: u8) -> Result<Cands, Value> {
        let ls = self.readable_libs(b, k)?;
        let mut c = Cands::new();
        self.attacker_ataris(b, &mut c);
        let mut ext = [(Reverse(0), Point::PASS); 4];
        for (i, &l) in ls.as_slice().iter().enumerate() {
            self.mark_around(b, l);
            ext[i] = (Reverse(b.liberties_after::<5>(l, self.def)), l);
        }
        push_ranked(&mut ext, 3, &mut c);
        self.counter_ataris(b, 2, &mut c);
        if k < DEFENCE_NET_DEPTH {
            self.second_order(b, ls.as_slice(), self.def, 3, &mut c);
            self.partner_rescue(b, ls.as_slice(), &mut c);
        }
        Ok(c)
    }

    /// Push the empty neighbours of the liberties `ls` (not liberties
    /// themselves) where a stone of `c` would have at least `need`
    /// liberties: nets for the attacker, connecting out for the defender.
    fn second_order(&mut self, b: &Board, ls: &[Point], c: Color, need: usize, out: &mut Cands) {
        for &l in ls {
            for n in b.geometry().neighbours(l) {
                if b.at(n) == Cell::Empty && !ls.contains(&n) {
                    self.mark_around(b, n);
                    if b.liberties_after::<3>(n, c) >= need {
                        out.push(n);
                    }
                }
            }
        }
    }

    /// Push, in point order, the liberties of defender chains (not the
    /// prey) with two liberties next to the prey's liberties `ls` where an
    /// attacker stone would have two liberties or captures: the attacker
    /// ataris the chain the prey would connect to. Marks the chains next to
    /// `ls`, whose liberties this reads.
    fn partner_ataris(&mut self, b: &Board, ls: &[Point], out: &mut Cands) {
        for &l in ls {
            self.mark_around(b, l);
        }
        self.neighbour_liberties(b, ls, self.def, 2, Reach::Near, out);
    }

    /// Push, in point order, the liberties of attacker chains with two or
    /// three liberties next to the prey's liberties `ls` (a net's stones,
    /// which need not touch the prey) where a defender stone would have two
    /// liberties or captures: the defender breaks the net by attacking it.
    /// The chains next to `ls` are marked already (`mark_around`).
    fn net_breakers(&mut self, b: &Board, ls: &[Point], out: &mut Cands) {
        self.neighbour_liberties(b, ls, self.att, 3, Reach::Near, out);
    }

    /// Push, in point order, the liberties (outside `ls`) of the chains of
    /// `owner` other than the prey next to the points `ls` that `reach`
    /// takes in (by default: two to `most` liberties), where a stone of the
    /// other colour would have two liberties (one for a sacrifice) or
    /// captures; mark around each.
    fn neighbour_liberties(
        &mut self,
        b: &Board,
        ls: &[Point],
        owner: Color,
        most: usize,
        reach: Reach,
        out: &mut Cands,
    ) {
        let prey_root = b.chain_root(self.prey);
        let mover = owner.opponent();
        let mut roots: PointSet<8> = PointSet::default();
        let mut pts: PointSet<12> = PointSet::default();
        for &l in ls {
            for m in b.geometry().neighbours(l) {
                if b.at(m) != Cell::stone(owner) {
                    continue;
                }
                let Some(r) = b.chain_root(m).filter(|&r| Some(r) != prey_root) else {
                    continue;
                };
                if roots.contains(r) || !roots.insert(r) {
                    continue;
                }
                let libs: PointSet<5> = b.liberties(r);
                let fits = if reach == Reach::Wide {
                    let outside = libs.as_slice().iter().filter(|q| !ls.contains(q)).count();
                    (3..=4).contains(&libs.len()) && (1..=most).contains(&outside)
                } else {
                    (2..=most).contains(&libs.len())
                };
                if fits {
                    for &q in libs.as_slice() {
                        if !ls.contains(&q) {
                            pts.insert(q);
                        }
                    }
                }
            }
        }
        pts.sort();
        let need = if reach == Reach::Sacrifice { 1 } else { 2 };
        for &q in pts.as_slice() {
            self.mark_around(b, q);
            if b.liberties_after::<2>(q, mover) >= need || captures(b, q, mover) {
                out.push(q);
            }
        }
    }

    /// Push, in point order, the liberties (outside `ls`) of attacker chains
    /// with two or three liberties next to the prey's liberties `ls` where
    /// the attacker's stone gives the chain more: the attacker makes the
    /// stones that hem the prey in strong before the race (reading15's E8).
    fn hemming_reinforce(&mut self, b: &Board, ls: &[Point], out: &mut Cands) {
        let mut roots: PointSet<8> = PointSet::default();
        let mut pts: PointSet<12> = PointSet::default();
        for &l in ls {
            self.mark_around(b, l);
            for m in b.geometry().neighbours(l) {
                if b.at(m) != Cell::stone(self.att) {
                    continue;
                }
                let Some(r) = b.chain_root(m) else { continue };
                if roots.contains(r) || !roots.insert(r) {
                    continue;
                }
                let libs: PointSet<4> = b.liberties(r);
                if (2..=3).contains(&libs.len()) {
                    for &q in libs.as_slice() {
                        if !ls.contains(&q) {
                            pts.insert(q);
                        }
                    }
                }
            }
        }
        pts.sort();
        for &q in pts.as_slice() {
            self.mark_around(b, q);
            if b.liberties_after::<4>(q, self.att) >= 4 {
                out.push(q);
            }
        }
    }

    /// Push, in point order, the capture of every attacker chain in atari
    /// next to a defender chain (not the prey) that touches one of the
    /// prey's liberties `ls`, and the liberties where such a chain with two
    /// liberties would get three: the prey would connect to that chain, and
    /// the move makes the connection (and the chain) safe. Marks the
    /// partner chains and every attacker chain next to them, whose atari
    /// status this reads.
    fn partner_rescue(&mut self, b: &Board, ls: &[Point], out: &mut Cands) {
        let geo = b.geometry();
        let prey_root = b.chain_root(self.prey);
        let (own, opp) = (Cell::stone(self.def), Cell::stone(self.att));
        let mut partners: PointSet<8> = PointSet::default();
        for &l in ls {
            for n in geo.neighbours(l) {
                if b.at(n) == own {
                    if let Some(r) = b.chain_root(n).filter(|&r| Some(r) != prey_root) {
                        partners.insert(r);
                    }
                }
            }
        }
        let mut pts: PointSet<8> = PointSet::default();
        for &r in partners.as_slice() {
            self.mark_chain(b, r);
            for s in b.chain_stones(r) {
                for m in geo.neighbours(s) {
                    if b.at(m) != opp {
                        continue;
                    }
                    self.mark_chain(b, m);
                    if let Some(q) = b.atari_liberty(m) {
                        pts.insert(q);
                    }
                }
            }
        }
        // A partner with two liberties is reinforced (so the prey can
        // connect to it): a liberty where it gets three.
        for &r in partners.as_slice() {
            let ls: PointSet<3> = b.liberties(r);
            if ls.len() == 2 {
                for &q in ls.as_slice() {
                    if !pts.is_full() && !pts.contains(q) {
                        self.mark_around(b, q);
                        if b.liberties_after::<3>(q, self.def) >= 3 {
                            pts.insert(q);
                        }
                    }
                }
            }
        }
        pts.sort();
        for &q in pts.as_slice() {
            out.push(q);
        }
    }

    /// Push, in point order, the liberties of adjacent attacker chains with
    /// two to `most` liberties (counter-ataris, and with three the first
    /// move of a semeai) where a defender stone would have two liberties or
    /// captures (a ko capture).
    fn counter_ataris(&mut self, b: &Board, most: usize, out: &mut Cands) {
        let mut roots: PointSet<8> = PointSet::default();
        let mut pts = [Point::PASS; 12];
        let mut n = 0;
        let geo = b.geometry();
        for s in b.chain_stones(self.prey) {
            for m in geo.neighbours(s) {
                if b.at(m) != Cell::stone(self.att) {
                    continue;
                }
                let Some(r) = b.chain_root(m) else { continue };
                if roots.contains(r) || !roots.insert(r) {
                    continue;
                }
                // Count one liberty past `most` (the common case, two,
                // walks as little as before the semeai moves).
                let mut add = |ls: &[Point]| {
                    for &q in ls {
                        if n < pts.len() {
                            pts[n] = q;
                            n += 1;
                        }
                    }
                };
                if most <= 2 {
                    let ls: PointSet<3> = b.liberties(r);
                    if ls.len() == 2 {
                        add(ls.as_slice());
                    }
                } else {
                    let ls: PointSet<4> = b.liberties(r);
                    if (2..=3).contains(&ls.len()) {
                        add(ls.as_slice());
                    }
                }
            }
        }
        pts[..n].sort_unstable();
        for &q in &pts[..n] {
            self.mark_around(b, q);
            // A ko capture keeps one liberty but is a counter-atari all
            // the same: the attacker must retake after a threat.
            if b.liberties_after::<2>(q, self.def) >= 2 || captures(b, q, self.def) {
                out.push(q);
            }
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
            // defender may retake after a threat.
            Value::exact(if took_ko { KO_A } else { WIN }, k2)
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

/// Query whether `c` playing at the empty point `p` captures a chain.
#[inline]
fn captures(b: &Board, p: Point, c: Color) -> bool {
    let opp = Cell::stone(c.opponent());
    b.geometry()
        .neighbours(p)
        .iter()
        .any(|&n| b.at(n) == opp && b.in_atari(n))
}

/// Push the points of `ranked` (score, point), best score first and then
/// by point, whose score is at least `min`.
fn push_ranked(ranked: &mut [(Reverse<usize>, Point)], min: usize, out: &mut Cands) {
    ranked.sort_unstable();
    for &(Reverse(n), l) in ranked.iter() {
        if n >= min {
            out.push(l);
        }
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
    let verdict = match (goal, s.lo) {
        (Goal::Capture, WIN) | (Goal::Save, LOSE) => Verdict::Succeeds,
        (Goal::Capture, KO_A) | (Goal::Save, KO_B) => Verdict::KoTakeFirst,
        (Goal::Capture, KO_B) | (Goal::Save, KO_A) => Verdict::KoNeedsThreat,
        _ => Verdict::Fails,
    };
    Answer {
        verdict,
        key_move: if verdict == Verdict::Fails {
            Point::PASS
        } else {
            s.mv
        },
        plies: s.plies,
        proven: true,
    }
}

/// A tactical reader behind a trait object, so that its user (the search's
/// priors) is not generic over the reader's cache storage and journal size.
pub trait Solver {
    /// Answer `problem` on `board` within `budget`, restoring the board
    /// (see [`Reader::solve`]).
    fn solve(&mut self, board: &mut Board, problem: Problem, budget: Budget) -> Answer;
}

impl<S: AsRef<[TacticCluster]> + AsMut<[TacticCluster]>, const W: usize, const M: usize> Solver
    for Reader<'_, S, W, M>
{
    fn solve(&mut self, board: &mut Board, problem: Problem, budget: Budget) -> Answer {
        Reader::solve(self, board, problem, budget)
    }
}
