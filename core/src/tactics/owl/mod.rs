//! Life and death of a dragon: can it be killed, can it live? GNU Go's
//! `owl_attack` / `owl_defend` (its `owl.c` for the ideas, none of its
//! code), a first step: a depth-first search over a local area with a
//! static eye count at every node ([`eyes`]).
//!
//! * **The dragon** at the root: the target's chain and the chains of its
//!   colour that share a liberty with it, again and again (GNU Go's
//!   amalgamation, simplified). **The area**: every point within
//!   [`AREA_RADIUS`] (Manhattan distance) of its stones; all moves of the
//!   search are played there. At every node the dragon is found again
//!   the same way from the root dragon's stones, through liberties in the
//!   area: stones the defender adds join it, a friendly group nearby that
//!   shares no liberty with it does not.
//! * **At every node** the view of [`eyes`] decides: the target stone
//!   captured, or eye spaces that cannot give two eyes with no attacker
//!   chain next to the dragon in atari or capturable (dead): the attacker
//!   wins; two eyes whoever plays first (alive): the defender wins,
//!   unless the attacker is to move and a dragon chain with a liberty in
//!   an eye space is in atari or capturable (the eyes it walls are not
//!   sure: its capture is his candidate). In its first two nodes the side
//!   the view has lost (the defender of a dead dragon, the attacker of a
//!   live one) still tries its moves, given a budget of
//!   [`READ_ON_FROM`] moves or more: the view does not see every
//!   way out, nor every way in; there the attacker of a dragon the view
//!   calls dead first lets the defender move (a pass): dead if it still
//!   cannot live, else the attacker must find a move that kills
//!   (`owl.tst` 155 → 157, the defender's shapes the view misjudges, as
//!   in `ld_owl.tst` 45 after B18 A18); at the horizon, and with a
//!   smaller budget, the view stands. A dragon one eye short of two is not
//!   dead while an attacker chain next to it or to its margin with two
//!   liberties cannot be saved even by its owner moving first (a lunch:
//!   its capture is an eye to come); nor is one with no eye at all while
//!   such a lunch stands diagonally next to a point it makes a false eye
//!   (its capture makes that eye real and one of its own).
//! * **Tactics**: the chains short of liberties (two) are asked of the
//!   capture reader the caller lends: an attacker chain next to the
//!   dragon that the defender can capture keeps it from dead, and its
//!   capture is a defender's candidate (one next to the margin only, a
//!   lunch one point away, is asked when the dragon is dead as it stands);
//!   a dragon chain the attacker can capture gives the attacker his.
//! * **Candidates**, in order: the liberties of attacker chains in atari
//!   next to the dragon (captured, or saved), of dragon chains in atari,
//!   the capture reader's moves, the vital points of the eye spaces, the
//!   attacker's captures of defender chains in atari next to his chains
//!   in atari there (his rescues: a stone of the defender's outside the
//!   dragon may be all that keeps a spoiling stone in atari); then
//!   for the attacker the other empty points of the eye spaces (his
//!   placements) before the margin (his ataris and hanes), for the
//!   defender the margin (his extensions) before the eye spaces; in the
//!   first plies they are ordered by the eyes the static view gives after
//!   each (the attacker's fewest first, the defender's most); after them,
//!   unordered, the points of the eye spaces' rim (blocks and pushes from
//!   outside); at most [`MAX_GEN`] in all, of which at most [`MAX_CANDS`]
//!   are tried, fewer deeper down, the defender's sooner
//!   (`search::WIDTHS`). A defender with no legal candidate passes.
//! * **Nodes** below the root go into a table of their own (`table.rs`),
//!   whose best move is tried first the next time (another move order, or
//!   the next iteration).
//! * **Budgets**: iterative deepening, two plies at a time, up to the
//!   depth budget while the node budget lasts: the owl's moves, and each
//!   capture read at a fixed [`READ_COST`] (so a hit in the reader's cache
//!   changes no answer); the answer is the deepest finished search's. A line
//!   cut by the depth counts as lived (GNU Go's owl gives up as "cannot
//!   kill"); such an answer is not proven unless it is a kill (cut lines
//!   only ever help the defender, so a kill found is one, and ends the
//!   deepening), and at the root a defence proven is preferred to one
//!   that lives only to the horizon. A dragon dead already by the static
//!   view is answered with a move that keeps it dead; if the best move
//!   found only wins a ko, that is the answer.
//! * **Ko** (`search.rs`): results are GNU Go's levels (kill, kill if the
//!   attacker takes the ko first, kill if he finds a ko threat, none); a
//!   move the ko ban forbids is played after a threat exchange, once per
//!   line, as in the capture reader.
//! * **Cache**: the root result goes into the reader's table, keyed as
//!   the connection search's ([`Owl::solve`]).
//!
//! | file | what it holds |
//! |---|---|
//! | `mod.rs` | [`Owl`], [`Owl::solve`] (deepening, cache), the dragon and its area |
//! | `search.rs` | the attack and defend nodes, ko |
//! | `moves.rs` | the candidates of a node |
//! | `table.rs` | the table of one search's interior nodes |
//! | `eyes.rs` | the static view: domain, eye spaces, their values |
//!
//! Not yet: escape by running out into open space other than through a
//! big domain, and seki.

pub mod eyes;
mod moves;
mod search;
mod table;

use crate::board::{Board, Journal};
use crate::geometry::{Cell, Color, Point};
use crate::table::{Bound, TacticCluster};
use crate::tactics::cache::level::{LOSE, WIN};
use crate::tactics::cache::{recall, remember, Stored};
use crate::tactics::key::{
    ban_key, owl_problem_hash, side_key, PointBits, Rect, CLASS_HINT, CLASS_OWL_KILL,
    CLASS_OWL_LIVE,
};
use crate::tactics::search::{Reader, JOURNAL_MOVES, JOURNAL_WRITES};
use crate::tactics::{Answer, Budget, Goal, Oracle, Problem, ReaderStats, Verdict};
use eyes::{view, List, Status, View};
pub use moves::candidates;
pub use search::READ_ON_FROM;

/// Manhattan distance from the root dragon's stones that the area reaches.
pub const AREA_RADIUS: usize = 5;
/// Most candidates tried at a node.
pub const MAX_CANDS: usize = 10;
/// Most candidates generated at a node (ordered, then cut to its width).
pub const MAX_GEN: usize = 16;
/// Most chains of the root dragon.
const MAX_CHAINS: usize = 12;
// The constants the cache key's assumptions name (`key::OWL_ASSUMPTIONS`).
const _: () = assert!(
    AREA_RADIUS == 5
        && MAX_CANDS == 10
        && eyes::MAX_EYE == 8
        && CAPTURE_BUDGET.nodes == 300
        && CAPTURE_BUDGET.depth == 20
);

/// What each capture read costs of the owl's budget, in moves (a fixed
/// price, so that a cache hit changes no answer).
pub const READ_COST: u64 = 10;
/// The budget of each capture read the owl makes.
pub const CAPTURE_BUDGET: Budget = Budget {
    nodes: 300,
    depth: 20,
};
/// The budget of a GTP `owl_attack` / `owl_defend` (its moves, each
/// capture read counted as [`READ_COST`] moves).
pub const OWL_BUDGET: Budget = Budget {
    nodes: 500_000,
    depth: 20,
};

/// What the owl is asked.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum OwlGoal {
    /// Kill the dragon, its opponent moving first (`owl_attack`).
    Kill,
    /// Make it live, its owner moving first (`owl_defend`).
    Live,
}

/// A life-and-death question about the dragon at `target`.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct OwlProblem {
    /// What is asked.
    pub goal: OwlGoal,
    /// A stone of the dragon.
    pub target: Point,
}

/// The owl: an undo journal of `W` slot writes over `M` plies, a table of
/// `N` interior nodes (a power of two) and the bookkeeping of one search;
/// the capture reader (and with it the cache) is the caller's, lent to
/// each [`Owl::solve`].
pub struct Owl<
    const W: usize = JOURNAL_WRITES,
    const M: usize = JOURNAL_MOVES,
    const N: usize = { table::NODES },
> {
    journal: Journal<W, M>,
    /// The points whose stones the search read (see [`Owl::solve`]).
    read: PointBits,
    /// The union of the regions of the capture reads made.
    region: Option<Rect>,
    /// Whether a capture read's node budget stopped it.
    limited: bool,
    core: PointBits,
    area: PointBits,
    target: Point,
    defender: Color,
    /// The owl's own moves in this search (its budget; the capture reads
    /// have theirs).
    moves: u64,
    node_limit: u64,
    /// The depth of the running iteration: the root's.
    root_depth: u8,
    /// Whether a side the static view has lost reads on near the root
    /// (the budget is [`search::READ_ON_FROM`] or more).
    read_on: bool,
    cut: bool,
    /// Whether the line has used its ko threat.
    threat_used: bool,
    /// The ko point the side that used the line's threat retook: its
    /// opponent may not retake it in the line (`PASS`: none).
    ko_won: Point,
    /// Who retook [`Self::ko_won`].
    ko_owner: Color,
    /// The nodes of this search.
    nodes: table::Nodes<N>,
    stats: ReaderStats,
}

impl<const W: usize, const M: usize, const N: usize> Default for Owl<W, M, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const W: usize, const M: usize, const N: usize> Owl<W, M, N> {
    /// Return an owl (a `const fn`: it may live in a `static`).
    pub const fn new() -> Self {
        Owl {
            journal: Journal::new(),
            read: PointBits::new(),
            region: None,
            limited: false,
            core: PointBits::new(),
            area: PointBits::new(),
            target: Point::PASS,
            defender: Color::Black,
            moves: 0,
            node_limit: 0,
            root_depth: 0,
            read_on: false,
            cut: false,
            threat_used: false,
            ko_won: Point::PASS,
            ko_owner: Color::Black,
            nodes: table::Nodes::new(),
            stats: ReaderStats::ZERO,
        }
    }

    /// Return the counters since the owl was made (moves played).
    pub fn stats(&self) -> ReaderStats {
        self.stats
    }

    /// Answer `problem` on `board` within `budget` (the owl's moves, each
    /// capture read counted as [`READ_COST`]), reading captures with `reader` and
    /// caching the result in its table; the board is restored on return.
    /// An empty target fails at once. A dragon already alive answers
    /// `Live` with `PASS` (with a budget of [`READ_ON_FROM`] moves or more,
    /// only if it lives after a pass, by proof or with no move that lives
    /// by proof: else with the move that keeps it alive); one already
    /// dead answers `Kill` with a move that keeps it dead (GNU Go's way).
    ///
    /// The result is stored as the connection search's are: under the
    /// problem (its class, the dragon's chain), the side to move, the ko
    /// ban and the stones of the box the search read: every chain on or
    /// next to the area with its liberties, and the boxes of the capture
    /// reads. A result that a capture read's node budget stopped is not
    /// stored.
    pub fn solve<S, const RW: usize, const RM: usize>(
        &mut self,
        reader: &mut Reader<'_, S, RW, RM>,
        board: &mut Board,
        problem: OwlProblem,
        budget: Budget,
    ) -> Answer
    where
        S: AsRef<[TacticCluster]> + AsMut<[TacticCluster]>,
    {
        let fail = Answer {
            verdict: Verdict::Fails,
            key_move: Point::PASS,
            plies: 0,
            proven: true,
        };
        let Some(defender) = board.at(problem.target).color() else {
            return fail;
        };
        let geo = board.geometry();
        self.target = problem.target;
        self.defender = defender;
        self.journal.clear();
        self.nodes.clear();
        self.cut = false;
        self.limited = false;
        self.region = None;
        self.moves = 0;
        self.node_limit = u64::from(budget.nodes);
        self.read_on = budget.nodes >= search::READ_ON_FROM;
        self.core = root_dragon(board, problem.target);
        self.area = area_around(board, &self.core);
        let most = budget.depth.min(M as u8);

        // The cache: the hint (the box the last search read) under the
        // problem and the stones around the area, then the result under
        // the problem and the box's stones.
        let size = board.size();
        let chain_id = board
            .chain_stones(problem.target)
            .min()
            .unwrap_or(problem.target);
        let class = match problem.goal {
            OwlGoal::Kill => CLASS_OWL_KILL,
            OwlGoal::Live => CLASS_OWL_LIVE,
        };
        let mover = match problem.goal {
            OwlGoal::Kill => defender.opponent(),
            OwlGoal::Live => defender,
        };
        let fixed = owl_problem_hash(class, problem.goal, size, chain_id, self.read_on)
            ^ side_key(mover)
            ^ ban_key(board, mover);
        self.read.clear();
        for p in self.area.iter() {
            self.read.insert_around(board, p);
        }
        let hint_key = owl_problem_hash(CLASS_HINT, problem.goal, size, chain_id, self.read_on)
            ^ Rect::around(&self.read, geo).map_or(0, |r| r.hash(board));
        if let Some(cache) = reader.table() {
            self.stats.probes += 1;
            if let Some((st, _)) = recall(cache, board, hint_key, fixed) {
                if st.usable(most) {
                    self.stats.hits += 1;
                    return answer(
                        problem.goal,
                        st.lo,
                        st.mv,
                        st.plies,
                        st.valid_to == Bound::MAX_PLIES,
                    );
                }
            }
        }

        // Iterative deepening: the answer of the deepest search that the
        // node budget let finish.
        let (mut level, mut key, mut depth) = (LOSE, Point::PASS, 0);
        let mut d = 2.min(most);
        let stopped = loop {
            self.cut = false;
            self.threat_used = false;
            self.ko_won = Point::PASS;
            self.root_depth = d;
            let (l, k) = match problem.goal {
                OwlGoal::Kill => self.attack(reader, board, d, WIN),
                OwlGoal::Live => self.defend(reader, board, d, LOSE),
            };
            let stopped = self.moves >= self.node_limit;
            if !stopped || depth == 0 || l == WIN {
                (level, key, depth) = (l, k, d);
            }
            // A kill found is sound: a cut line only ever counts as life.
            if stopped || !self.cut || l == WIN && !k.is_pass() || d >= most {
                break stopped;
            }
            d = (d + 2).min(most);
        };
        debug_assert_eq!(self.journal.depth(), 0);
        let proven = !self.cut || level == WIN;
        let rect = Rect::union(Rect::around(&self.read, geo), self.region);
        // A kill found when the budget ran out is still a kill.
        let stopped = stopped && level != WIN;
        if let (false, false, Some(cache), Some(rect)) =
            (self.limited, stopped, reader.table(), rect)
        {
            let st = Stored {
                lo: level,
                hi: level,
                plies: depth,
                valid_to: if proven { Bound::MAX_PLIES } else { depth },
                mv: key,
            };
            remember(
                cache,
                board,
                hint_key,
                fixed,
                rect,
                st.pack(defender.opponent()),
            );
            self.stats.stores += 2;
        }
        answer(problem.goal, level, key, depth, proven)
    }

    /// Return the view of the dragon now, and the capture reader's moves
    /// against the chains short of liberties next to it: the defender's
    /// (attacker chains he can capture) or, if `attacker`, the attacker's
    /// (dragon chains). A dragon without two eyes next to an attacker
    /// chain it can capture is not dead yet.
    fn look(
        &mut self,
        r: &mut dyn Oracle,
        b: &mut Board,
        attacker: bool,
    ) -> (Status, View, List<8>) {
        let v = view(b, self.defender, &self.core, &self.area);
        // The view read the chains next to every dragon stone.
        let geo = b.geometry();
        for s in v.dragon.iter() {
            self.read.insert_chain(b, s);
            for n in geo.neighbours(s) {
                if b.at(n).color().is_some() {
                    self.read.insert_chain(b, n);
                }
            }
        }
        let mut moves = List::new();
        if b.at(self.target) != Cell::stone(self.defender) {
            return (Status::Captured, v, moves);
        }
        let mut status = v.status();
        if status == Status::Alive && attacker {
            // Eyes walled by a chain the attacker can capture are not
            // sure: he plays there first.
            let status = self.shaky(r, b, &v, &mut moves);
            return (status, v, moves);
        }
        if status == Status::Alive {
            return (status, v, moves);
        }
        let chains = if attacker { v.weak } else { v.short };
        if status == Status::Dead && attacker {
            // A lunch the attacker cannot save even moving first is an
            // eye to come: with one eye more it is not dead yet; with none,
            // if the lunch is what makes an eye point false, its capture
            // is two.
            let (_, max) = v.eyes();
            if max <= 1 {
                let lunches = v.lunches(b, self.defender.opponent());
                for &c in v.short.as_slice().iter().chain(lunches.as_slice()) {
                    if (max == 1 || v.falsifies(b, c)) && !self.saves(r, b, c) {
                        return (Status::Unsettled, v, moves);
                    }
                }
            }
            return (status, v, moves);
        }
        for &c in chains.as_slice() {
            if let Some(p) = self.capture(r, b, c) {
                moves.push(p);
            }
        }
        if status == Status::Dead && !attacker {
            // Dead as it stands: a lunch one point away may still save it.
            if moves.as_slice().is_empty() {
                for &c in v.lunches(b, self.defender.opponent()).as_slice() {
                    if let Some(p) = self.capture(r, b, c) {
                        moves.push(p);
                    }
                }
            }
            if !moves.as_slice().is_empty() {
                status = Status::Unsettled;
            }
        }
        (status, v, moves)
    }

    /// Return `Unsettled` and the attacker's captures in `moves` if a
    /// dragon chain next to an eye space (one of its liberties is in it)
    /// is in atari or the capture reader captures it; else `Alive`.
    fn shaky(
        &mut self,
        r: &mut dyn Oracle,
        b: &mut Board,
        v: &View,
        moves: &mut List<8>,
    ) -> Status {
        let inside = v.inside.as_slice();
        for &l in v.ataris.as_slice() {
            if inside.contains(&l) {
                moves.push(l);
            }
        }
        for &c in v.weak.as_slice() {
            let libs = b.liberties::<2>(c);
            if libs.as_slice().iter().any(|l| inside.contains(l)) {
                if let Some(p) = self.capture(r, b, c) {
                    moves.push(p);
                }
            }
        }
        if moves.as_slice().is_empty() {
            Status::Alive
        } else {
            Status::Unsettled
        }
    }

    /// Query whether the capture reader saves the chain at `c`, its owner
    /// moving first (a read stopped by its budget saves it).
    fn saves(&mut self, r: &mut dyn Oracle, b: &mut Board, c: Point) -> bool {
        let (a, stopped) = self.read_chain(r, b, Goal::Save, c);
        stopped || a.verdict != Verdict::Fails
    }

    /// Return the capture reader's move that captures the chain at `c`
    /// (its opponent moving first), if it finds one.
    fn capture(&mut self, r: &mut dyn Oracle, b: &mut Board, c: Point) -> Option<Point> {
        let (a, _) = self.read_chain(r, b, Goal::Capture, c);
        (a.verdict != Verdict::Fails && !a.key_move.is_pass()).then_some(a.key_move)
    }

    /// Ask the capture reader `goal` of the chain at `c`, counting its
    /// nodes, its price in the owl's budget and the region it read; return
    /// its answer and whether its budget stopped it.
    fn read_chain(
        &mut self,
        r: &mut dyn Oracle,
        b: &mut Board,
        goal: Goal,
        c: Point,
    ) -> (Answer, bool) {
        self.read.insert_chain(b, c);
        let before = r.nodes();
        let (a, region, stopped) = r.read(b, Problem { goal, target: c }, CAPTURE_BUDGET);
        self.stats.nodes += r.nodes() - before;
        self.moves += READ_COST;
        self.limited |= stopped;
        self.region = Rect::union(self.region, region);
        (a, stopped)
    }
}

/// Return the answer to `goal` of a search that reached `level` (the
/// attacker's view) with `key`.
fn answer(goal: OwlGoal, level: u8, key: Point, plies: u8, proven: bool) -> Answer {
    Answer::at_level(goal == OwlGoal::Kill, level, key, plies, proven)
}

/// Return the view of the dragon at `target` that a search from this
/// position starts from, its area and the attacker's and the defender's
/// candidates, or `None` for an empty point.
pub fn root_view(
    b: &Board,
    target: Point,
) -> Option<(View, PointBits, List<MAX_GEN>, List<MAX_GEN>)> {
    let defender = b.at(target).color()?;
    let core = root_dragon(b, target);
    let area = area_around(b, &core);
    let v = view(b, defender, &core, &area);
    let rim = v.rim(b, &area);
    let a = candidates(&v, &rim, &List::new(), true).0;
    let d = candidates(&v, &rim, &List::new(), false).0;
    Some((v, area, a, d))
}

/// A dragon of the board: one of its stones and how many it has.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Dragon {
    /// A stone of the dragon (its first in board order).
    pub stone: Point,
    /// Its stones.
    pub stones: u16,
}

/// Fill `out` with the dragons of `b` (as the owl finds them at its root)
/// of at least `min_stones` stones that the static view does not call
/// alive, the largest first (the first found among equals); return how
/// many it holds. A dragon that does not fit is left out.
pub fn weak_dragons(b: &Board, min_stones: usize, out: &mut [Dragon]) -> usize {
    let geo = b.geometry();
    let mut seen = PointBits::new();
    let mut len = 0;
    for p in geo.points() {
        let Some(owner) = b.at(p).color() else {
            continue;
        };
        if seen.contains(p) {
            continue;
        }
        let core = root_dragon(b, p);
        let mut stones = 0usize;
        for s in core.iter() {
            seen.insert(s);
            stones += 1;
        }
        if stones < min_stones {
            continue;
        }
        if view(b, owner, &core, &area_around(b, &core)).status() == Status::Alive {
            continue;
        }
        let d = Dragon {
            stone: p,
            stones: stones.min(usize::from(u16::MAX)) as u16,
        };
        // Insert in order, dropping the smallest when full.
        let at = out[..len]
            .iter()
            .take_while(|o| o.stones >= d.stones)
            .count();
        if at == out.len() {
            continue;
        }
        len = (len + 1).min(out.len());
        out.copy_within(at..len - 1, at + 1);
        out[at] = d;
    }
    len
}

/// Return the stones of the dragon at `target`: its chain and, again and
/// again, the chains of its colour sharing a liberty with one of them.
fn root_dragon(b: &Board, target: Point) -> PointBits {
    let geo = b.geometry();
    let own = b.at(target);
    let mut stones = PointBits::new();
    let mut chains = [Point::PASS; MAX_CHAINS];
    let (mut len, mut top) = (1, 0);
    chains[0] = target;
    stones.insert_chain(b, target);
    while top < len {
        let c = chains[top];
        top += 1;
        for s in b.chain_stones(c) {
            for l in geo.neighbours(s) {
                if b.at(l) != Cell::Empty {
                    continue;
                }
                for n in geo.neighbours(l) {
                    if b.at(n) == own && !stones.contains(n) && len < MAX_CHAINS {
                        stones.insert_chain(b, n);
                        chains[len] = n;
                        len += 1;
                    }
                }
            }
        }
    }
    stones
}

/// Return the points within [`AREA_RADIUS`] of `stones`.
fn area_around(b: &Board, stones: &PointBits) -> PointBits {
    let geo = b.geometry();
    let mut area = *stones;
    for _ in 0..AREA_RADIUS {
        let ring = area;
        for p in ring.iter() {
            for n in geo.neighbours(p) {
                if b.at(n) != Cell::Off {
                    area.insert(n);
                }
            }
        }
    }
    area
}
