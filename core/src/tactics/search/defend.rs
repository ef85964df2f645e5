//! The defend node: the defender (the prey's owner) moves, and the
//! candidates only the defender tries. Its candidates:
//!
//! * **3 or more liberties**: the prey is safe, except in the first
//!   [`DEFEND3_DEPTH`]` + 1` plies (the root and the answers to the
//!   attacker's first moves), where the attacker may still read it on:
//!   there the defender tries captures, liberties that keep three or more
//!   liberties, counter-ataris (below the first two plies also on attacker
//!   chains with three liberties: a semeai), (shallow) atari extensions (a
//!   liberty that takes an attacker chain, which need not touch the prey,
//!   to one liberty), second-order liberties, *special rescues* (with
//!   three liberties: a point beside a liberty where the attacker's stone
//!   would have two liberties or fewer, even a self-atari if it would
//!   have one) or net breakers (with four), and
//!   moves for a chain the prey would connect to (below), and double
//!   approaches (a liberty of two attacker chains next to the prey, each
//!   with two or three liberties), (shallow) eye shapes, *outside
//!   liberties* (those of an attacker chain that shares two or more with
//!   the prey and has at most one more: a race) and backfills (below), so
//!   a save never answers "no move needed" for a chain its own attack
//!   search captures.
//!   After a ko threat in the line, the defender reads three liberties on
//!   while the next attack node would (a semeai won by a ko). A prey
//!   crawling along the edge (stones and three or four liberties on the
//!   first two lines) is read on in the first [`CRAWL_DEPTH`] plies, with
//!   captures and extensions only.
//!
//! [`CRAWL_DEPTH`]: super::CRAWL_DEPTH
//! * **Otherwise**, in order: capture an adjacent attacker chain in atari
//!   (biggest first), extend at a liberty if that gives two or more
//!   liberties (most liberties first), and with two liberties also
//!   counter-ataris on adjacent attacker chains with two liberties (a ko
//!   capture counts, although its stone keeps one liberty) and, in the
//!   first [`DEFENCE_NET_DEPTH`] plies, a liberty of an adjacent attacker
//!   chain with three liberties (a semeai), second-order liberties where
//!   the defender's stone would have three liberties (connecting out,
//!   making room), moves for a *partner* (a defender chain at a liberty of
//!   the prey, which the prey would connect to: the capture of an attacker
//!   chain in atari next to it, or a liberty where a two-liberty partner
//!   gets three) and net breakers (the liberties of attacker chains with
//!   two or three liberties next to the prey's liberties, whose stones
//!   need not touch the prey), and eye shapes (a stone next to the
//!   liberties whose own liberties are all the prey's), and *secondary
//!   rescues* (the rescue of other defender chains in atari next to an
//!   attacker chain with two liberties next to the prey, one of them the
//!   prey's, which hold that chain in); at every ply *backfills* (when
//!   both liberties of an attacker chain with two liberties next to the
//!   prey are self-ataris for the defender, the liberties an attacker
//!   stone would have there: fill from behind, then atari); at the root
//!   ([`WIDE_PARTNER_DEPTH`]) also the liberties of an attacker chain of
//!   three or four liberties that nets the prey. With one liberty, in the
//!   first three plies, also the counter-ataris and partner moves.
//!
//! The node adds, at the root of a save, the attacker's key move (the
//! opponent's vital point), then the retake of a ko just taken (see
//! [`super`]), and with two liberties, in the first [`TENUKI_DEPTH`]
//! plies, a pass as the last candidate (tenuki: the attacker moves
//! again); with no candidate at all the defender passes. After a pass, if
//! the attacker can capture at all, even only by a ko, the attack wins
//! outright (GNU Go's defender never passes: a node without a defending
//! move is a lost defence, so a pass defends only a chain that is then
//! safe).

use core::cmp::Reverse;

use crate::board::{Board, PointSet};
use crate::geometry::{Cell, Point};
use crate::table::TacticCluster;
use crate::tactics::cache::level::LOSE;

use super::candidates::{captures, push_ranked, stone_liberties, Cands, Reach};
use super::{
    Reader, Value, DEFENCE_NET_DEPTH, DEFEND3_DEPTH, PARTNER1_DEPTH, TENUKI_DEPTH, THREE_LIB_DEPTH,
    WIDE_PARTNER_DEPTH,
};

impl<'t, S: AsRef<[TacticCluster]> + AsMut<[TacticCluster]>, const W: usize, const M: usize>
    Reader<'t, S, W, M>
{
    /// Defend node: the defender moves to save the prey.
    pub(super) fn defend(&mut self, b: &mut Board, k: u8, threat: bool) -> Value {
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
            // first THREE_LIB_DEPTH plies; past that the prey is safe,
            // unless it is crawling along the edge.
            let read = if (k > DEFEND3_DEPTH && !threat) || k + 1 >= THREE_LIB_DEPTH {
                Err(Value::exact(LOSE, k))
            } else {
                self.defend3_moves(b, k)
            };
            return match read {
                Err(_) if self.crawling(b, k + 1) => Ok(self.crawl_defend_moves(b)),
                r => r,
            };
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
                self.eye_shapes(b, ls.as_slice(), &mut c);
            }
            let short = self.short_neighbours(b);
            if k < DEFENCE_NET_DEPTH {
                self.secondary_rescues(b, &short, &mut c);
            }
            self.backfills(b, &short, &mut c);
            if k < WIDE_PARTNER_DEPTH {
                self.neighbour_liberties(b, ls.as_slice(), self.att, 3, Reach::Wide, &mut c);
            }
        }
        Ok(c)
    }

    /// Return the defender's candidates for a prey with three liberties
    /// (four in the first plies, see [`FOUR_LIB_DEPTH`]) that the attacker may
    /// still read on: capture an attacker chain in atari, extend at a
    /// liberty that keeps three or more liberties (most first),
    /// counter-atari (past the second ply also of a chain with three
    /// liberties), in the first [`DEFENCE_NET_DEPTH`] plies an atari
    /// extension, a second-order liberty where the defender's stone would
    /// have three liberties, special rescues (three liberties) or net
    /// breakers (four), moves for a partner and eye shapes, double
    /// approaches, outside liberties and backfills. With more liberties
    /// the prey is safe.
    ///
    /// [`FOUR_LIB_DEPTH`]: super::FOUR_LIB_DEPTH
    #[inline(never)]
    fn defend3_moves(&mut self, b: &Board, k: u8) -> Result<Cands, Value> {
        let ls = self.readable_libs(b, k)?;
        let mut c = Cands::new();
        self.attacker_ataris(b, &mut c);
        self.extensions(b, ls.as_slice(), &mut c);
        self.counter_ataris(b, if k > 1 { 3 } else { 2 }, &mut c);
        if k < DEFENCE_NET_DEPTH {
            self.atari_extensions(b, ls.as_slice(), &mut c);
            self.second_order(b, ls.as_slice(), self.def, 3, &mut c);
            if ls.len() == 3 {
                self.special_rescues(b, ls.as_slice(), &mut c);
            } else {
                self.net_breakers(b, ls.as_slice(), &mut c);
            }
            self.partner_rescue(b, ls.as_slice(), &mut c);
        }
        self.double_approaches(b, &mut c);
        if k < DEFENCE_NET_DEPTH {
            self.eye_shapes(b, ls.as_slice(), &mut c);
        }
        self.outside_liberties(b, ls.as_slice(), &mut c);
        let short = self.short_neighbours(b);
        self.backfills(b, &short, &mut c);
        Ok(c)
    }

    /// Push the empty points (not liberties) next to each of the prey's
    /// liberties `ls` at which an attacker stone would have two liberties
    /// or fewer, where a defender stone has two or more (any, even in
    /// atari, if the attacker's stone would have one: GNU Go's "potential
    /// snapback"): the defender plays beside a liberty the attacker
    /// cannot fill safely (GNU Go's `special_rescue_moves`; `reading.tst`
    /// 218).
    fn special_rescues(&mut self, b: &Board, ls: &[Point], out: &mut Cands) {
        for &l in ls {
            self.mark_around(b, l);
            let other = b.liberties_after::<3>(l, self.att);
            if other > 2 {
                continue;
            }
            for n in b.geometry().neighbours(l) {
                if b.at(n) == Cell::Empty && !ls.contains(&n) {
                    self.mark_around(b, n);
                    if other <= 1 || b.liberties_after::<2>(n, self.def) >= 2 {
                        out.push(n);
                    }
                }
            }
        }
    }

    /// Return the defender's few candidates for a prey crawling along the
    /// edge that the three-liberty rules call safe (see
    /// `Reader::crawling`): capture
    /// an attacker chain in atari next to it, or extend at a liberty that
    /// keeps three or more liberties (most first).
    #[inline(never)]
    fn crawl_defend_moves(&mut self, b: &Board) -> Cands {
        let ls: PointSet<4> = b.liberties(self.prey);
        let mut c = Cands::new();
        self.attacker_ataris(b, &mut c);
        self.extensions(b, ls.as_slice(), &mut c);
        c
    }

    /// Push the prey's liberties `ls` (at most four) where its extension
    /// keeps three liberties or more, most first.
    fn extensions(&mut self, b: &Board, ls: &[Point], c: &mut Cands) {
        let mut ext = [(Reverse(0), Point::PASS); 4];
        for (e, &l) in ext.iter_mut().zip(ls) {
            self.mark_around(b, l);
            *e = (Reverse(b.liberties_after::<5>(l, self.def)), l);
        }
        push_ranked(&mut ext, 3, c);
    }

    /// Push the prey's liberties `ls` that take a liberty of an attacker
    /// chain with two (an atari, the chain need not touch the prey) where
    /// the prey keeps two liberties or more: the extension the attacker
    /// must answer, whose capture gives the prey more room.
    fn atari_extensions(&mut self, b: &Board, ls: &[Point], out: &mut Cands) {
        let geo = b.geometry();
        let opp = Cell::stone(self.att);
        for &l in ls {
            self.mark_around(b, l);
            let atari = geo
                .neighbours(l)
                .iter()
                .any(|&n| b.at(n) == opp && b.liberty_count_capped::<3>(n) == 2);
            if atari && b.liberties_after::<2>(l, self.def) >= 2 {
                out.push(l);
            }
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

    /// Push the empty neighbours of the prey's liberties `ls` (not
    /// liberties themselves) where a defender stone would have two or more
    /// liberties, all of them the prey's: a stone that closes the prey's
    /// space (on the edge, GNU Go's reading12 J9), which the second-order
    /// liberties, wanting three, leave out.
    fn eye_shapes(&mut self, b: &Board, ls: &[Point], out: &mut Cands) {
        let geo = b.geometry();
        for &l in ls {
            for n in geo.neighbours(l) {
                if b.at(n) != Cell::Empty || ls.contains(&n) {
                    continue;
                }
                self.mark_around(b, n);
                let own = geo
                    .neighbours(n)
                    .iter()
                    .all(|&m| b.at(m) != Cell::Empty || ls.contains(&m));
                if own && b.liberties_after::<2>(n, self.def) >= 2 {
                    out.push(n);
                }
            }
        }
    }

    /// Push, in point order, the liberties shared by two attacker chains
    /// next to the prey, each with two or three liberties, where a
    /// defender stone would have two liberties: one move that shortens
    /// two of the chains that hold the prey in (the defender wins one of
    /// the two races).
    fn double_approaches(&mut self, b: &Board, out: &mut Cands) {
        let geo = b.geometry();
        let opp = Cell::stone(self.att);
        let mut roots: PointSet<8> = PointSet::default();
        for s in b.chain_stones(self.prey) {
            for m in geo.neighbours(s) {
                if b.at(m) == opp {
                    if let Some(r) = b.chain_root(m) {
                        roots.insert(r);
                    }
                }
            }
        }
        let mut pts: PointSet<8> = PointSet::default();
        let mut seen: PointSet<16> = PointSet::default();
        for &r in roots.as_slice() {
            let ls: PointSet<4> = b.liberties(r);
            if !(2..=3).contains(&ls.len()) {
                continue;
            }
            for &q in ls.as_slice() {
                if seen.contains(q) {
                    pts.insert(q);
                } else {
                    seen.insert(q);
                }
            }
        }
        let def = self.def;
        self.push_kept_in_order(b, pts, |q| b.liberties_after::<2>(q, def) >= 2, out);
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
        out.push_in_order(pts);
    }

    /// Push, in point order, the liberties of attacker chains with two or
    /// three liberties next to the prey's liberties `ls` (a net's stones,
    /// which need not touch the prey) where a defender stone would have two
    /// liberties or captures: the defender breaks the net by attacking it.
    /// The chains next to `ls` are marked already (`mark_around`).
    fn net_breakers(&mut self, b: &Board, ls: &[Point], out: &mut Cands) {
        self.neighbour_liberties(b, ls, self.att, 3, Reach::Near, out);
    }

    /// Push, in point order, for every attacker chain with two liberties
    /// next to the prey (`short`, from [`Self::short_neighbours`]) whose
    /// liberties are both self-ataris for the
    /// defender, the two liberties an attacker stone would have on either
    /// of them, where the defender's stone is no self-atari: the
    /// defender fills from behind so that he can atari the chain next
    /// (GNU Go's backfilling in `break_chain2_moves`; reading02's B1).
    fn backfills(&mut self, b: &Board, short: &PointSet<8>, out: &mut Cands) {
        let (att, def) = (self.att, self.def);
        let unsafe_for = |q: Point, c| b.liberties_after::<2>(q, c) < 2 && !captures(b, q, c);
        let mut pts: PointSet<8> = PointSet::default();
        for r in short.as_slice() {
            let ls: PointSet<2> = b.liberties(*r);
            if !ls.as_slice().iter().all(|&q| unsafe_for(q, def)) {
                continue;
            }
            for &q in ls.as_slice() {
                if b.liberties_after::<3>(q, att) != 2 {
                    continue;
                }
                for &x in stone_liberties(b, q, att).as_slice() {
                    self.mark_around(b, x);
                    if !unsafe_for(x, def) {
                        pts.insert(x);
                    }
                }
            }
        }
        out.push_in_order(pts);
    }

    /// Push, in point order, for every attacker chain with two liberties
    /// next to the prey (`short`), one of them the prey's (a race), that cannot
    /// reach four, the rescue of the defender's other chains in atari next
    /// to it: the capture of an attacker chain in atari next to one of
    /// them, or its liberty where it gets two (one if the point touches
    /// the short chain). The defender wins the race by saving the stones
    /// that hold the short chain in (GNU Go's
    /// `defend_secondary_chain1_moves`; reading32's E6).
    fn secondary_rescues(&mut self, b: &Board, short: &PointSet<8>, out: &mut Cands) {
        let geo = b.geometry();
        let (att, def) = (self.att, self.def);
        let prey_root = b.chain_root(self.prey);
        let mut pts: PointSet<8> = PointSet::default();
        let prey_libs: PointSet<2> = b.liberties(self.prey);
        for &r in short.as_slice() {
            let ls: PointSet<2> = b.liberties(r);
            let racing = ls.as_slice().iter().any(|&q| prey_libs.contains(q));
            if !racing
                || ls
                    .as_slice()
                    .iter()
                    .any(|&q| b.liberties_after::<4>(q, att) >= 4)
            {
                continue;
            }
            for n in b.adjacent_chains::<8>(r).as_slice() {
                let Some(x) = b
                    .atari_liberty(*n)
                    .filter(|_| b.chain_root(*n) != prey_root)
                else {
                    continue;
                };
                self.mark_chain(b, *n);
                self.mark_around(b, x);
                let touches = geo
                    .neighbours(x)
                    .iter()
                    .any(|&y| b.chain_root(y) == Some(r));
                if b.liberties_after::<2>(x, def) + usize::from(touches) >= 2 {
                    pts.insert(x);
                }
                for &v in b.adjacent_chains::<8>(*n).as_slice() {
                    if let Some(y) = b.atari_liberty(v) {
                        self.mark_chain(b, v);
                        self.mark_around(b, y);
                        pts.insert(y);
                    }
                }
            }
        }
        out.push_in_order(pts);
    }

    /// Push, in point order, the liberties outside the prey's `ls` of the
    /// attacker chains next to them that share two or more liberties with
    /// the prey and have at most one more than it, where the defender's
    /// stone is no self-atari: the defender fills the outside liberties of
    /// a race (GNU Go's `special_rescue5_moves`; reading18's F7).
    fn outside_liberties(&mut self, b: &Board, ls: &[Point], out: &mut Cands) {
        let mut roots: PointSet<8> = PointSet::default();
        for &l in ls {
            self.mark_around(b, l);
            for n in b.geometry().neighbours(l) {
                if b.at(n) == Cell::stone(self.att) {
                    roots.insert(b.chain_root(n).unwrap_or(n));
                }
            }
        }
        let mut pts: PointSet<8> = PointSet::default();
        for &r in roots.as_slice() {
            let libs: PointSet<6> = b.liberties(r);
            let shared = libs.as_slice().iter().filter(|q| ls.contains(q)).count();
            if libs.len() > ls.len() + 1 || shared < 2 {
                continue;
            }
            for &q in libs.as_slice() {
                if ls.contains(&q) {
                    continue;
                }
                self.mark_around(b, q);
                if b.liberties_after::<2>(q, self.def) >= 2 || captures(b, q, self.def) {
                    pts.insert(q);
                }
            }
        }
        out.push_in_order(pts);
    }

    /// Return the roots of the attacker chains with exactly two liberties
    /// next to the prey, with their liberties marked as read.
    fn short_neighbours(&mut self, b: &Board) -> PointSet<8> {
        let mut out: PointSet<8> = PointSet::default();
        for &r in b.adjacent_chains::<8>(self.prey).as_slice() {
            let ls: PointSet<3> = b.liberties(r);
            if ls.len() == 2 {
                for &q in ls.as_slice() {
                    self.mark_around(b, q);
                }
                out.insert(r);
            }
        }
        out
    }
}
