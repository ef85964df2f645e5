//! The attack node: the attacker (the opponent of the prey) moves, and
//! the candidates only the attacker tries. Its candidates, by the prey's
//! liberties (the node adds the retake of a ko just taken, see
//! [`super`]):
//!
//! * **1 liberty**: take it (unless that is a snapback: the capture of a
//!   one-stone prey that leaves the capturing chain of two or more stones
//!   with the prey's point as its one liberty, where the defender's
//!   recapture gets two or more, counts as a failure, as GNU Go's
//!   `attack1` has it); if the prey is one stone and taking it would
//!   be a ko capture, also atari a defender chain next to the capturing
//!   point (then the capture takes more than one stone: no ko), which the
//!   defender answers by extending that chain; if it would be a snapback,
//!   also capture a defender chain in atari next to an own chain in atari
//!   next to the prey (GNU Go's back-capturing in `attack1`: the short
//!   chain gains room, and the capture is no snapback any more); at the
//!   root ([`BACKFILL_DEPTH`]), if it would be a snapback or a ko, also
//!   *backfill*: the liberties the defender's stone there would have,
//!   where the attacker's stone keeps two liberties (GNU Go's `attack1`).
//! * **2 liberties**: branch over both liberties (the one with more empty
//!   neighbours first: block the wider escape, the standard ladder order),
//!   the liberty of any own chain next to the prey that is in atari
//!   (answering a counter-atari) or the capture of a defender chain in
//!   atari next to such a chain (rescue by capture: a semeai, a ko; also
//!   with three liberties), and, in the first [`NET_DEPTH`] plies of a
//!   line, *back-captures* (the capture of a defender chain in atari next
//!   to an own chain with two liberties next to the prey: the short chain
//!   gains the liberty that wins the race; also with three liberties),
//!   *nets*: empty points next to a liberty (second-order
//!   liberties) where the attacker's stone would have two liberties, and
//!   ataris of two-liberty defender chains next to a liberty (the chains
//!   the prey would connect to) and, when both liberties are self-ataris,
//!   *race* moves (the liberties of the defender chains around an own
//!   two-liberty chain next to the prey: shorten them first, GNU Go's
//!   `special_attack4`); in the first two plies also the
//!   reinforcement of own two-liberty chains (as with three liberties);
//!   at the root ([`WIDE_PARTNER_DEPTH`]) also the liberties a connection
//!   to a defender chain of three or four liberties would add.
//! * **Exactly 3 liberties**: in the first [`THREE_LIB_DEPTH`] plies of a
//!   line the attacker reads on (GNU Go's `attack3`, bounded): a move at
//!   a liberty where its stone keeps two liberties or captures (a ko
//!   capture) (widest first), the rescue of own chains in atari next to
//!   the prey, back-captures, the reinforcement of own chains with two liberties next to
//!   it (a liberty where the chain gets three, so the defender's
//!   counter-atari fails) and, in the first [`NET_DEPTH`] plies, nets (as
//!   with two liberties); at the root also an atari on a chain the prey
//!   would join (even by a sacrifice), the reinforcement of the
//!   attacker chains that hem the prey's liberties in and, last, the
//!   liberties where his stone is in atari itself (throw-ins,
//!   [`THROW_IN_DEPTH`]; deeper, to [`SNAPBACK_THROW_IN_DEPTH`], those
//!   whose capture is a snapback). Deeper, a chain
//!   that reaches three liberties has escaped (the ladder definition of
//!   issue 4).
//! * **4 or more liberties**: the prey is *safe* and the attacker fails
//!   (in the first [`FOUR_LIB_DEPTH`] plies four liberties are read like
//!   three).
//! * **Crawling**: a prey whose stones and three or four liberties are
//!   all on the first two lines is read on, in the first [`CRAWL_DEPTH`]
//!   plies, where the rules above call it safe: the rescue of own chains
//!   in atari, then the liberties where the attacker's stone keeps two
//!   (block the crawl).
//!
//! [`FOUR_LIB_DEPTH`]: super::FOUR_LIB_DEPTH
//! [`CRAWL_DEPTH`]: super::CRAWL_DEPTH
//! [`THROW_IN_DEPTH`]: super::THROW_IN_DEPTH
//! [`SNAPBACK_THROW_IN_DEPTH`]: super::SNAPBACK_THROW_IN_DEPTH
//! [`BACKFILL_DEPTH`]: super::BACKFILL_DEPTH

use core::cmp::Reverse;

use crate::board::{Board, PointSet};
use crate::geometry::{Cell, Point};
use crate::table::TacticCluster;
use crate::tactics::cache::level::LOSE;

use super::candidates::{captures, push_ranked, stone_liberties, Cands, Reach};
use super::{
    Reader, Value, BACKFILL_DEPTH, NET_DEPTH, REINFORCE2_DEPTH, SNAPBACK_THROW_IN_DEPTH,
    THREE_LIB_DEPTH, THROW_IN_DEPTH, WIDE_PARTNER_DEPTH,
};

impl<'t, S: AsRef<[TacticCluster]> + AsMut<[TacticCluster]>, const W: usize, const M: usize>
    Reader<'t, S, W, M>
{
    /// Attack node: the attacker moves against the prey.
    pub(super) fn attack(&mut self, b: &mut Board, k: u8, threat: bool) -> Value {
        self.note_stack();
        match self.attack_moves(b, k) {
            Ok(mut c) => {
                Self::push_retake(b, threat, self.att, &mut c);
                self.moves(b, k, threat, true, &c)
            }
            Err(v) => v,
        }
    }

    /// Return the attacker's candidates, or the value of a settled node.
    /// Kept out of line so its locals are not part of every recursive frame.
    #[inline(never)]
    fn attack_moves(&mut self, b: &Board, k: u8) -> Result<Cands, Value> {
        let libs = self.prey_libs(b);
        if libs >= 3 {
            let read = if k < THREE_LIB_DEPTH {
                self.attack3_moves(b, k)
            } else {
                Err(Value::exact(LOSE, k))
            };
            return match read {
                Err(_) if self.crawling(b, k) => Ok(self.crawl_attack_moves(b)),
                r => r,
            };
        }
        let mut c = Cands::new();
        if libs == 1 {
            let l = b.atari_liberty(self.prey).unwrap_or(Point::PASS);
            c.push(l);
            if b.chain_size(self.prey) == 1 {
                // The capturing stone is left with one liberty: a ko, or a
                // snapback if it joins an own chain.
                if self.ko_free_capture(b, l, self.att, &mut c) {
                    let joins = b
                        .geometry()
                        .neighbours(l)
                        .iter()
                        .any(|&n| b.at(n) == Cell::stone(self.att));
                    // A back-capture may make room for the chain it joins.
                    if joins {
                        self.rescue_by_capture(b, false, &mut c);
                    }
                    // Fill the liberties the defender's stone there would
                    // have.
                    if k < BACKFILL_DEPTH {
                        for &x in stone_liberties(b, l, self.def).as_slice() {
                            self.mark_around(b, x);
                            if b.liberties_after::<2>(x, self.att) >= 2 {
                                c.push(x);
                            }
                        }
                    }
                }
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
            self.rescue_by_capture(b, k < NET_DEPTH, &mut c);
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
                self.race_neighbours(b, [l1, l2], &mut c);
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

    /// Return the attacker's candidates against a prey with three or more
    /// liberties (read only in the first [`THREE_LIB_DEPTH`] plies): with
    /// exactly three (or four, see [`FOUR_LIB_DEPTH`]), a
    /// move at a liberty where the attacker's stone keeps two liberties (or
    /// captures: a ko capture), the rescue of attacker chains in atari, and
    /// in the first [`NET_DEPTH`] plies a net (a second-order liberty where
    /// the attacker's stone would have two liberties); with more, the prey
    /// is safe.
    ///
    /// [`FOUR_LIB_DEPTH`]: super::FOUR_LIB_DEPTH
    #[inline(never)]
    fn attack3_moves(&mut self, b: &Board, k: u8) -> Result<Cands, Value> {
        let ls = self.readable_libs(b, k)?;
        let mut c = Cands::new();
        self.attacker_ataris(b, &mut c);
        self.rescue_by_capture(b, true, &mut c);
        self.blocks(b, ls.as_slice(), &mut c);
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
        if k < SNAPBACK_THROW_IN_DEPTH {
            // Last, the liberties where the attacker's stone is in atari
            // too, throw-ins: near the root every one (GNU Go's `attack3`
            // tries every liberty), deeper those whose capture is a
            // snapback.
            for &l in ls.as_slice() {
                let throw_in = if k < THROW_IN_DEPTH {
                    b.check_move(l, self.att).is_ok()
                } else {
                    self.snapback_throw_in(b, l)
                };
                if throw_in {
                    c.push(l);
                }
            }
        }
        Ok(c)
    }

    /// Query whether the attacker's lone stone at the empty point `l`
    /// would be a throw-in whose capture is a snapback: it touches no
    /// attacker stone and one empty point, where the defender cannot
    /// capture it, or would be left with one liberty (`l`: the board after
    /// the capture is the board now with his stone added).
    fn snapback_throw_in(&self, b: &Board, l: Point) -> bool {
        let geo = b.geometry();
        if b.neighbour_count(l, Cell::stone(self.att)) > 0
            || b.neighbour_count(l, Cell::Empty) != 1
            || b.check_move(l, self.att).is_err()
        {
            return false;
        }
        let Some(&m) = geo.neighbours(l).iter().find(|&&n| b.at(n) == Cell::Empty) else {
            return false;
        };
        b.check_move(m, self.def).is_err() || b.liberties_after::<2>(m, self.def) <= 1
    }

    /// Return the attacker's few candidates against a prey crawling along
    /// the edge that the three-liberty rules call safe (see
    /// `Reader::crawling`):
    /// the rescue of own chains in atari next to the prey, then a liberty
    /// where the attacker's stone keeps two liberties or captures (widest
    /// first): block the crawl.
    #[inline(never)]
    fn crawl_attack_moves(&mut self, b: &Board) -> Cands {
        let ls: PointSet<4> = b.liberties(self.prey);
        let mut c = Cands::new();
        self.attacker_ataris(b, &mut c);
        self.blocks(b, ls.as_slice(), &mut c);
        c
    }

    /// Push the prey's liberties `ls` (at most four) where the attacker's
    /// stone keeps two liberties or captures, widest first (most empty
    /// neighbours): the blocks of a three-liberty prey.
    fn blocks(&mut self, b: &Board, ls: &[Point], c: &mut Cands) {
        let mut ext = [(Reverse(0), Point::PASS); 4];
        for (e, &l) in ext.iter_mut().zip(ls) {
            self.mark_around(b, l);
            let n = if b.liberties_after::<2>(l, self.att) >= 2 || captures(b, l, self.att) {
                1 + b.neighbour_count(l, Cell::Empty) as usize
            } else {
                0
            };
            *e = (Reverse(n), l);
        }
        push_ranked(&mut ext, 1, c);
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
        let att = self.att;
        let keep = |q| b.liberties_after::<3>(q, att) >= 3 || captures(b, q, att);
        self.push_kept_in_order(b, pts, keep, out);
    }

    /// Push, sorted by point, the liberty of every defender chain in atari
    /// (other than the prey) next to an attacker chain in atari next to the
    /// prey: the attacker rescues its chain by capturing (a semeai's ko or
    /// capture). With `short`, also next to an attacker chain with two
    /// liberties next to the prey: a *back-capture*, the short chain gains
    /// liberties before the race (GNU Go's "backfilling insufficient, need
    /// to back-capture"). Marks every defender chain next to those
    /// attacker chains, whose atari status this reads.
    fn rescue_by_capture(&mut self, b: &Board, short: bool, out: &mut Cands) {
        let geo = b.geometry();
        let prey_root = b.chain_root(self.prey);
        let (own, opp) = (Cell::stone(self.def), Cell::stone(self.att));
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
        if short {
            for s in b.chain_stones(self.prey) {
                for m in geo.neighbours(s) {
                    if b.at(m) != opp || b.in_atari(m) {
                        continue;
                    }
                    let Some(r) = b.chain_root(m) else { continue };
                    if !mine.contains(r) && b.liberty_count_capped::<3>(r) == 2 {
                        mine.insert(r);
                    }
                }
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
        out.push_in_order(pts);
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

    /// Push, when the prey's two liberties `ls` are both self-ataris for
    /// the attacker, the liberties of the defender chains (not the prey)
    /// with two liberties, or three with one shared, next to an attacker
    /// chain with two liberties that shares a liberty with the prey, where
    /// the attacker's stone keeps two liberties and no other liberty gives
    /// the defender's chain four (or more than the attacker's stone has,
    /// unless the chains share one): the attacker wins the race of his
    /// short chain before he fills the prey's liberties (GNU Go's
    /// `special_attack4`, reading02's H2).
    fn race_neighbours(&mut self, b: &Board, ls: [Point; 2], out: &mut Cands) {
        let (att, def) = (self.att, self.def);
        for l in ls {
            self.mark_around(b, l);
        }
        if ls
            .iter()
            .any(|&l| b.liberties_after::<2>(l, att) >= 2 || captures(b, l, att))
        {
            return;
        }
        let prey_root = b.chain_root(self.prey);
        let mut pts: PointSet<12> = PointSet::default();
        for &r in b.adjacent_chains::<8>(self.prey).as_slice() {
            let short: PointSet<3> = b.liberties(r);
            if short.len() != 2 || !ls.iter().any(|&l| short.contains(l)) {
                continue;
            }
            self.mark_chain(b, r);
            for &n in b.adjacent_chains::<8>(r).as_slice() {
                if Some(n) == prey_root {
                    continue;
                }
                self.mark_chain(b, n);
                let libs: PointSet<4> = b.liberties(n);
                let shared = libs.as_slice().iter().any(|&q| short.contains(q));
                if !(libs.len() == 2 || libs.len() == 3 && shared) {
                    continue;
                }
                for &q in libs.as_slice() {
                    self.mark_around(b, q);
                }
                for &d in libs.as_slice() {
                    let mine = b.liberties_after::<3>(d, att);
                    if mine < 2 && !captures(b, d, att) {
                        continue;
                    }
                    let holds = libs.as_slice().iter().filter(|&&e| e != d).all(|&e| {
                        let theirs = b.liberties_after::<4>(e, def);
                        theirs <= 3 && (theirs <= mine || shared)
                    });
                    if holds {
                        pts.insert(d);
                    }
                }
            }
        }
        out.push_in_order(pts);
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
        let att = self.att;
        self.push_kept_in_order(b, pts, |q| b.liberties_after::<4>(q, att) >= 4, out);
    }
}
