//! The owl's two nodes and the moves between them, with ko.
//!
//! A node's value is a *level*, the attacker's view as in the capture
//! reader: `LOSE < KO_B < KO_A < WIN` (GNU Go's owl codes: `KO_A` the
//! attacker kills if he takes the ko first, `KO_B` he needs a ko threat
//! first). The attacker maximises, the defender minimises, with
//! alpha-beta bounds on the levels.
//!
//! **Ko** follows the capture reader's simplified komaster: a move the
//! ko ban forbids is played after a pass by each side (the mover's ko
//! threat and its answer), once per line, and caps the mover's result at
//! "needs a threat" (`KO_B` for the attacker, `KO_A` for the defender);
//! the side that retook so owns the ko for the rest of the line (its
//! opponent may not take it back). Killing by a ko capture of the last
//! target stone is worth `KO_A`: the defender may retake after a threat.
//! Every other ko capture is valued by the search, which tries the retake.

use super::eyes::{view, List, Status};
use super::moves::candidates;
use super::table::{Entry, Kind};
use super::{Owl, MAX_CANDS, MAX_GEN};
use crate::board::{Board, MoveError};
use crate::geometry::{Cell, Color, Point};
use crate::tactics::cache::level::{KO_A, KO_B, LOSE, WIN};
use crate::tactics::Oracle;

/// The most candidates an attacker's node tries, by its ply (the root's
/// first; the last holds for every deeper ply): narrower deep down, so
/// the search reaches further (GNU Go's owl tries one move past its
/// branch depth).
const WIDTHS: [usize; 10] = [10, 10, 10, 10, 8, 6, 5, 4, 3, 3];
/// The defender's: narrower sooner (a line cut short counts as life
/// anyway, and most of his tries are refuted at once).
const DEFENDER_WIDTHS: [usize; 10] = [10, 10, 8, 6, 5, 4, 3, 3, 2, 2];

/// Plies (from the root) whose candidates are ordered by what one move
/// does to the eyes; deeper, the generators' order stands.
const ORDER_PLIES: usize = 2;

/// Plies from the root through which a side the static view has lost
/// still reads its moves (0 to 3: its first two nodes in either search):
/// the defender of a dragon the view calls dead, the attacker of one it
/// calls alive; only with a budget of [`READ_ON_FROM`] moves or more.
const LOST_PLIES: u8 = 3;
/// The smallest budget (moves) with which a lost side reads on: below
/// it the view's verdict stands (a small budget spent reading lost
/// positions finishes too shallow a search to find the kills it can
/// prove; the owl in play asks with 5,000).
pub const READ_ON_FROM: u32 = 100_000;
// The cache key's assumptions name these (`key::OWL_ASSUMPTIONS`:
// "order-by-eyes=2", "lost-side-reads-3-plies-from-100000").
const _: () = assert!(ORDER_PLIES == 2 && LOST_PLIES == 3 && READ_ON_FROM == 100_000);

/// Plies of the depth budget a move after a ko threat exchange takes
/// (the threat and its answer are free: the journal has room for them).
const THREAT_PLIES: u8 = 1;

impl<const W: usize, const M: usize, const N: usize> Owl<W, M, N> {
    /// Attacker to move, `depth` plies left: the level he reaches (at
    /// least `beta` is enough) and his move.
    pub(super) fn attack(
        &mut self,
        r: &mut dyn Oracle,
        b: &mut Board,
        depth: u8,
        beta: u8,
    ) -> (u8, Point) {
        self.node(r, b, depth, beta, true)
    }

    /// Defender to move, `depth` plies left: the level the attacker is
    /// held to (at most `alpha` is enough) and the defender's move.
    pub(super) fn defend(
        &mut self,
        r: &mut dyn Oracle,
        b: &mut Board,
        depth: u8,
        alpha: u8,
    ) -> (u8, Point) {
        self.node(r, b, depth, alpha, false)
    }

    /// Read a node below the root through the table of nodes: the
    /// attacker's (`attacker`, cut off at `bound` or more) or the
    /// defender's (at `bound` or less).
    fn node(
        &mut self,
        r: &mut dyn Oracle,
        b: &mut Board,
        depth: u8,
        bound: u8,
        attacker: bool,
    ) -> (u8, Point) {
        let root = depth == self.root_depth;
        let key = b.hash() ^ self.threat_key();
        let mut first = Point::PASS;
        if let (false, Some(e)) = (root, self.nodes.get(key)) {
            let settles = match e.kind {
                Kind::Exact => true,
                Kind::Lower => attacker && e.level >= bound,
                Kind::Upper => !attacker && e.level <= bound,
            };
            if settles && e.usable(depth) {
                self.cut |= !e.proven;
                return (e.level, e.mv);
            }
            first = e.mv;
        }
        let outer = core::mem::replace(&mut self.cut, false);
        let (level, mv) = if attacker {
            self.attack_node(r, b, depth, bound, first)
        } else {
            self.defend_node(r, b, depth, bound, first)
        };
        let proven = !self.cut;
        self.cut |= outer;
        if !root {
            let kind = match (attacker, level) {
                (true, l) if l >= bound && l < WIN => Kind::Lower,
                (false, l) if l <= bound && l > LOSE => Kind::Upper,
                _ => Kind::Exact,
            };
            self.nodes
                .put(key, Entry::new(mv, level, kind, depth, proven));
        }
        (level, mv)
    }

    /// Query whether the static view's verdict against the side to move
    /// stands at a node `depth` plies from the horizon (see
    /// [`LOST_PLIES`]).
    fn settled(&self, depth: u8) -> bool {
        !self.read_on || depth == 0 || depth + LOST_PLIES < self.root_depth
    }

    /// Return the key of the line's ko-threat state (0 before a threat).
    fn threat_key(&self) -> u64 {
        if !self.threat_used {
            return 0;
        }
        let owner = u64::from(self.ko_owner == Color::White);
        (0x9e37_79b9_7f4a_7c15 ^ u64::from(self.ko_won.0) << 1 ^ owner)
            .wrapping_mul(0xff51_afd7_ed55_8ccd)
    }

    /// The attacker's node (see [`Self::attack`]); `first` is tried first.
    fn attack_node(
        &mut self,
        r: &mut dyn Oracle,
        b: &mut Board,
        depth: u8,
        beta: u8,
        first: Point,
    ) -> (u8, Point) {
        let (status, v, reads) = self.look(r, b, true);
        // What the attacker gets by passing, where the view's "dead" is
        // checked.
        let mut floor = None;
        match status {
            Status::Captured => return (WIN, Point::PASS),
            // At the root, a dead dragon's answer is still a move that
            // keeps it dead, as GNU Go's.
            Status::Dead if depth < self.root_depth && self.settled(depth) => {
                return (WIN, Point::PASS)
            }
            // Near the root of a long read the view's "dead" is checked:
            // dead if the defender cannot live moving first.
            Status::Dead if depth < self.root_depth => match self.after_pass(r, b, depth) {
                WIN => return (WIN, Point::PASS),
                level => floor = Some(level),
            },
            Status::Dead => {}
            // Near the root the attacker still tries his moves against a
            // dragon alive by the view (see [`LOST_PLIES`]).
            Status::Alive if self.settled(depth) => return (LOSE, Point::PASS),
            Status::Alive => {}
            Status::Unsettled => {}
        }
        if depth == 0 || self.moves >= self.node_limit {
            self.cut = true;
            return (LOSE, Point::PASS);
        }
        let attacker = self.defender.opponent();
        let (mut best, mut mv) = (LOSE, Point::PASS);
        let cands = candidates(&v, &v.rim(b, &self.area), &reads, true);
        let cands = self.order(b, first, cands, depth, attacker);
        for &m in cands.as_slice() {
            let Some(level) = self.child(r, b, m, attacker, depth, best) else {
                continue;
            };
            if level > best {
                (best, mv) = (level, m);
            }
            if best >= beta || best == WIN {
                break;
            }
        }
        if status == Status::Dead && best == LOSE {
            // No move keeps it dead to the horizon: dead anyway if it
            // cannot live with the defender moving first.
            let level = floor.unwrap_or_else(|| self.after_pass(r, b, depth));
            return (level, Point::PASS);
        }
        match floor {
            Some(level) if level > best => (level, Point::PASS),
            _ => (best, mv),
        }
    }

    /// Return the level the attacker reaches by passing at a node
    /// `depth` plies from the horizon (the defender moves next); `WIN` if
    /// the pass cannot be played.
    fn after_pass(&mut self, r: &mut dyn Oracle, b: &mut Board, depth: u8) -> u8 {
        let attacker = self.defender.opponent();
        self.child(r, b, Point::PASS, attacker, depth, LOSE)
            .unwrap_or(WIN)
    }

    /// The defender's node (see [`Self::defend`]); `first` is tried
    /// first.
    fn defend_node(
        &mut self,
        r: &mut dyn Oracle,
        b: &mut Board,
        depth: u8,
        alpha: u8,
        first: Point,
    ) -> (u8, Point) {
        let (status, v, reads) = self.look(r, b, false);
        match status {
            Status::Captured => return (WIN, Point::PASS),
            // Near the root (its first [`LOST_PLIES`] plies), a dragon
            // dead by the static view still tries its moves: the view does
            // not see every way out. At the horizon it is dead.
            Status::Dead if self.settled(depth) => return (WIN, Point::PASS),
            Status::Dead => {}
            // At the root of a long read, a dragon alive by the view is
            // read on (a pass first, below): the attacker tries his moves
            // against the view there (see [`LOST_PLIES`]), so it may need
            // a move.
            Status::Alive if depth < self.root_depth || !self.read_on => {
                return (LOSE, Point::PASS)
            }
            Status::Alive => {}
            Status::Unsettled => {}
        }
        if depth == 0 || self.moves >= self.node_limit {
            self.cut = true;
            return (LOSE, Point::PASS);
        }
        let mut tried = false;
        // At the root, a move that lives by proof beats one that lives
        // only to the search's horizon.
        let root = depth == self.root_depth;
        let (mut best, mut mv, mut horizon) = (WIN, Point::PASS, None);
        let me = self.defender;
        let cands = candidates(&v, &v.rim(b, &self.area), &reads, false);
        let cands = self.order(b, first, cands, depth, me);
        // A dragon alive by the view (at the root of a long read) tries a
        // pass first: living after it by proof, it needs no move; living
        // to the horizon, a move that lives by proof still beats it.
        let pass = (status == Status::Alive).then_some(Point::PASS);
        for m in pass.into_iter().chain(cands.as_slice().iter().copied()) {
            let cut_before = core::mem::replace(&mut self.cut, false);
            let Some(level) = self.child(r, b, m, me, depth, best) else {
                self.cut |= cut_before;
                continue;
            };
            tried = true;
            let cut = self.cut;
            self.cut |= cut_before;
            if root && cut && level == LOSE {
                horizon = horizon.or(Some(m));
                continue;
            }
            if level < best {
                (best, mv) = (level, m);
            }
            if best <= alpha || best == LOSE {
                break;
            }
        }
        if let (Some(m), false) = (horizon, best == LOSE) {
            return (LOSE, m);
        }
        if !tried {
            if let Some(level) = self.child(r, b, Point::PASS, me, depth, best) {
                return (level, Point::PASS);
            }
        }
        (best, mv)
    }

    /// Return the candidates to try: `first` (the table's best move),
    /// then `cands` ordered by what one move does to the eyes in the
    /// first [`ORDER_PLIES`] plies, as many as the node's ply allows
    /// ([`WIDTHS`]).
    fn order(
        &mut self,
        b: &mut Board,
        first: Point,
        (cands, main): (List<MAX_GEN>, usize),
        depth: u8,
        me: Color,
    ) -> List<MAX_CANDS> {
        let ply = usize::from(self.root_depth - depth);
        let widths = if me == self.defender {
            &DEFENDER_WIDTHS
        } else {
            &WIDTHS
        };
        let width = widths[ply.min(widths.len() - 1)];
        let mut scored = [(0i32, 0usize, Point::PASS); MAX_GEN];
        let n = cands.as_slice().len();
        for (i, (slot, &m)) in scored.iter_mut().zip(cands.as_slice()).enumerate() {
            let score = if i >= main {
                i32::MAX
            } else if ply < ORDER_PLIES {
                self.score(b, m, me)
            } else {
                0
            };
            *slot = (score, i, m);
        }
        // Ties keep the generators' order.
        scored[..n].sort_unstable_by_key(|&(score, i, _)| (score, i));
        let mut out = List::new();
        if !first.is_pass() {
            out.push(first);
        }
        for &(_, _, m) in &scored[..n] {
            if out.as_slice().len() >= width {
                break;
            }
            out.push(m);
        }
        out
    }

    /// Return how good `m` looks for `me` by the eyes one move leaves
    /// (lower is better; a move that cannot be played now scores last).
    fn score(&mut self, b: &mut Board, m: Point, me: Color) -> i32 {
        if b.check_move(m, me).is_err() || !self.play(b, m, me) {
            return 10_000;
        }
        self.stats.nodes -= 1;
        self.moves -= 1;
        let v = view(b, self.defender, &self.core, &self.area);
        let captured = b.at(self.target) != Cell::stone(self.defender);
        b.undo(&mut self.journal);
        let (min, max) = v.eyes();
        let (min, max) = (i32::from(min.min(2)), i32::from(max.min(2)));
        // Ties go by the room left for eyes: the sizes of the spaces.
        let room = v.spaces[..v.count]
            .iter()
            .map(|s| s.size as i32)
            .sum::<i32>()
            .min(63);
        if me == self.defender {
            match v.status() {
                Status::Alive => -1_000,
                _ => -(64 * (3 * min + max) + room),
            }
        } else if captured {
            -1_000
        } else {
            match v.status() {
                Status::Dead => -500,
                _ => 64 * (3 * max + min) + room,
            }
        }
    }

    /// Play `m` for `me` (after a ko threat exchange if the ko ban
    /// forbids it), read the opponent's node with the bound `bound` (the
    /// mover's best so far), take the move back and return the level;
    /// `None` if the move cannot be played.
    fn child(
        &mut self,
        r: &mut dyn Oracle,
        b: &mut Board,
        m: Point,
        me: Color,
        depth: u8,
        bound: u8,
    ) -> Option<u8> {
        let attacker = me != self.defender;
        let via_threat = match b.check_move(m, me) {
            Ok(()) => false,
            Err(MoveError::Ko) if !self.threat_used => true,
            Err(_) => return None,
        };
        if !m.is_pass() && m == self.ko_won && me != self.ko_owner && captures(b, m, me) {
            // The ko the opponent retook after a threat is his.
            return None;
        }
        let (plies, cost) = if via_threat {
            (3, THREAT_PLIES)
        } else {
            (1, 1)
        };
        if cost > depth {
            self.cut = true;
            return None;
        }
        if via_threat && !self.play(b, Point::PASS, me) {
            return None;
        }
        if via_threat && !self.play(b, Point::PASS, me.opponent()) {
            b.undo(&mut self.journal);
            return None;
        }
        if !self.play(b, m, me) {
            for _ in 1..plies {
                b.undo(&mut self.journal);
            }
            return None;
        }
        let took_ko = !m.is_pass() && b.ko().is_some();
        if via_threat {
            self.threat_used = true;
            self.ko_won = b.ko().unwrap_or(Point::PASS);
            self.ko_owner = me;
        }
        let left = depth - cost;
        let level = if attacker && b.at(self.target) == Cell::Empty {
            // Killing by a ko capture wins the ko, no more: the
            // defender may retake after a threat.
            if took_ko {
                KO_A
            } else {
                WIN
            }
        } else if attacker {
            // After a threat the bounds no longer hold: read it whole.
            self.defend(r, b, left, if via_threat { LOSE } else { bound })
                .0
        } else {
            self.attack(r, b, left, if via_threat { WIN } else { bound })
                .0
        };
        for _ in 0..plies {
            b.undo(&mut self.journal);
        }
        if via_threat {
            self.threat_used = false;
            self.ko_won = Point::PASS;
        }
        Some(match (via_threat, attacker) {
            (false, _) => level,
            (true, true) => level.min(KO_B),
            (true, false) => level.max(KO_A),
        })
    }

    /// Play `p` for `c` through the journal (it is legal); `false` if it
    /// does not fit.
    fn play(&mut self, b: &mut Board, p: Point, c: Color) -> bool {
        if b.play_undoable(p, c, &mut self.journal).is_err() {
            return false;
        }
        self.stats.nodes += 1;
        self.moves += 1;
        true
    }
}

/// Query whether `c` playing `p` captures a stone of the other side.
fn captures(b: &Board, p: Point, c: Color) -> bool {
    let other = Cell::stone(c.opponent());
    b.geometry()
        .neighbours(p)
        .iter()
        .any(|&n| b.at(n) == other && b.in_atari(n))
}
