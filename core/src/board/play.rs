//! Making moves: legality, stone placement, chain merging, captures, ko.

use super::journal::{set, Journal, JournalFull, NoLog, Recorder, Write};
use super::{ix, Board, Libs, MoveError, NBR_SHIFT, NBR_UNIT, NOT_LISTED};
use crate::geometry::{Cell, Color, Point, MAX_POINTS};
use crate::zobrist;

impl Board {
    /// Query whether `c` may play at `p` now (simple ko, no suicide). Pass is
    /// always legal. Positional superko is the caller's (see
    /// [`crate::history`]).
    #[inline]
    pub fn is_legal(&self, p: Point, c: Color) -> bool {
        self.check_move(p, c).is_ok()
    }

    /// Return why `c` may not play at `p`, or `Ok` if it may.
    ///
    /// # Errors
    /// The [`MoveError`] that forbids the move.
    pub fn check_move(&self, p: Point, c: Color) -> Result<(), MoveError> {
        if p.is_pass() {
            return Ok(());
        }
        if !self.geo.on_board(p) {
            return Err(MoveError::OffBoard);
        }
        if self.cell[p.idx()] != Cell::Empty {
            return Err(MoveError::Occupied);
        }
        if p == self.ko && c == self.to_play {
            return Err(MoveError::Ko);
        }
        if self.is_legal_empty(p, c) {
            Ok(())
        } else {
            Err(MoveError::Suicide)
        }
    }

    /// Query whether playing `c` at the empty point `p` is not suicide.
    #[inline(always)]
    pub(crate) fn is_legal_empty(&self, p: Point, c: Color) -> bool {
        if self.neighbour_count(p, Cell::Empty) > 0 {
            return true;
        }
        let own = Cell::stone(c);
        // Every neighbour is a stone or off the board. A friendly chain
        // needs a second liberty, an enemy one must be in atari (its last
        // liberty is `p`, so the move captures); `p` is a liberty of each,
        // so the cheap atari test applies. All four are tested without
        // branches (an off-board cell's chain 0 gives an ignored answer).
        let unit = Libs::unit(p);
        let mut legal = false;
        for n in self.geo.neighbours(p) {
            let cell = self.cell[n.idx()];
            let in_atari = self.libs[ix(self.chain[n.idx()])].in_atari_at(unit);
            legal |= (cell != Cell::Off) & ((cell == own) != in_atari);
        }
        legal
    }

    /// Play `c` at `p` (or pass) after checking legality.
    ///
    /// # Errors
    /// The [`MoveError`] that forbids the move; the board is unchanged then.
    pub fn play(&mut self, p: Point, c: Color) -> Result<(), MoveError> {
        self.check_move(p, c)?;
        self.play_legal(p, c);
        Ok(())
    }

    /// Play a move known to be legal (checked with [`Board::is_legal`]); the
    /// fast path of playouts and search. Keeps the lists of chains in atari.
    #[inline]
    pub fn play_legal(&mut self, p: Point, c: Color) {
        self.play_impl::<true, NoLog>(p, c, &mut NoLog);
    }

    /// Like [`Board::play_legal`] but without keeping the lists of chains in
    /// atari (light playouts never read them); the next
    /// [`Board::refresh_ataris`] rebuilds them.
    #[inline]
    pub fn play_legal_untracked(&mut self, p: Point, c: Color) {
        self.ataris_valid = false;
        self.play_impl::<false, NoLog>(p, c, &mut NoLog);
    }

    /// Play a legal move and note in `journal` how to take it back with
    /// [`Board::undo`] (tactical reading plays and takes back many moves).
    ///
    /// # Errors
    /// [`JournalFull`] if the journal may not hold the move's changes; the
    /// board is unchanged then.
    pub fn play_undoable<const N: usize, const D: usize>(
        &mut self,
        p: Point,
        c: Color,
        journal: &mut Journal<N, D>,
    ) -> Result<(), JournalFull> {
        let max = self.max_writes(p, c);
        journal.begin(self, max)?;
        let before = journal.writes();
        self.play_impl::<true, Journal<N, D>>(p, c, journal);
        debug_assert!(
            journal.writes() - before <= max,
            "move {p:?} wrote {} slots, bound {max}",
            journal.writes() - before
        );
        Ok(())
    }

    /// Take back the last move played with [`Board::play_undoable`]; return
    /// `false` if the journal holds no move.
    pub fn undo<const N: usize, const D: usize>(&mut self, journal: &mut Journal<N, D>) -> bool {
        journal.rewind(self)
    }

    /// Return an upper bound of the array writes a move makes, for the
    /// journal: a fixed part, one per stone relabelled by merging, and a
    /// bounded number per captured stone (each neighbouring chain counted
    /// once).
    fn max_writes(&self, p: Point, c: Color) -> usize {
        if p.is_pass() {
            return 0;
        }
        let mut n = 64;
        let mut seen = [u16::MAX; 4];
        for (k, q) in self.geo.neighbours(p).into_iter().enumerate() {
            let Some(qc) = self.cell[q.idx()].color() else {
                continue;
            };
            let r = self.chain[q.idx()];
            if seen.contains(&r) {
                continue;
            }
            seen[k] = r;
            if qc == c {
                n += self.chain_size(q);
            } else if self.libs[ix(r)].in_atari() {
                // In atari, not "one pseudo-liberty": a chain touching `p`
                // with two stones counts it twice and is captured all the same.
                n += 24 * self.chain_size(q);
            }
        }
        n
    }

    #[inline(always)]
    fn play_impl<const TRACK: bool, R: Recorder>(&mut self, p: Point, c: Color, rec: &mut R) {
        self.last2 = self.last;
        self.last = Some(p);
        self.moves = self.moves.wrapping_add(1);
        self.to_play = c.opponent();
        self.ko = Point::PASS;
        self.n_new_ataris = 0;
        if p.is_pass() {
            self.passes = self.passes.saturating_add(1);
            return;
        }
        self.passes = 0;
        debug_assert!(self.cell[p.idx()] == Cell::Empty);

        self.place_stone(p, c, rec);
        set!(self, rec, chain, p.idx(), p.0);
        set!(self, rec, next, p.idx(), p.0);
        set!(self, rec, stones, p.idx(), 1);
        // The neighbour counts, read before the stone changed them.
        let counts = self.nbr[p.idx()];
        // Playouts handle the neighbours' random contents without branches;
        // the journal's users (tactical reading) keep them.
        let (root, captured, last_captured) = if R::ON {
            self.connect_branchy::<TRACK, R>(p, c, counts, rec)
        } else {
            self.connect_branchless::<TRACK, R>(p, c, rec)
        };
        if TRACK && captured > 0 {
            // The captures gave liberties to chains of `c` only: unlist
            // those of them that left atari (the list is short).
            let mut i = self.n_ataris[c.idx()];
            while i > 0 {
                i -= 1;
                let r = self.ataris[c.idx()][ix(i)];
                if !self.libs[r.idx()].in_atari() {
                    self.unlist_atari(r.0, c, rec);
                }
            }
        }
        self.captures[c.idx()] += captured;

        let l = self.libs[ix(root)];
        // Two empty neighbours of `p` are two liberties: no atari test.
        let empty_nbrs = (counts >> NBR_SHIFT[Cell::Empty as usize]) & 0xF;
        if TRACK && empty_nbrs < 2 && l.in_atari() {
            self.list_atari(root, c, rec);
        }
        if captured == 1 && self.stones[ix(root)] == 1 && l.count() == 1 {
            self.ko = last_captured;
        }
    }

    /// Connect the stone at `p` to its neighbours without branches on what
    /// they hold (liberties, merges, captures, ataris); return the new
    /// chain's root, the stones captured and the last point captured.
    #[inline(always)]
    fn connect_branchless<const TRACK: bool, R: Recorder>(
        &mut self,
        p: Point,
        c: Color,
        rec: &mut R,
    ) -> (u16, u16, Point) {
        let opp = Cell::stone(c.opponent());
        let own = Cell::stone(c);
        let nbrs = self.geo.neighbours(p);
        // One pass over the neighbours, without branches on what they hold
        // (random in a playout, so badly predicted): empty ones are
        // liberties, stones lose `p` as a pseudo-liberty (an off-board or
        // empty cell's stale chain id gets a harmless zero), and two bit
        // masks note the friendly and enemy stones for the loops below.
        let unit_p = Libs::unit(p);
        let mut libs = Libs(0);
        let mut own_mask = 0u32;
        let mut opp_mask = 0u32;
        for (k, n) in nbrs.into_iter().enumerate() {
            let cell = self.cell[n.idx()] as u32;
            // Black is 0, white 1, empty 2, off 3.
            let is_stone = cell < 2;
            libs.0 += Libs::unit(n) & ((cell == Cell::Empty as u32) as u64).wrapping_neg();
            let r = ix(self.chain[n.idx()]);
            if R::ON {
                // The journal logs only real writes.
                if is_stone {
                    set!(self, rec, libs, r, Libs(self.libs[r].0 - unit_p));
                }
            } else {
                self.libs[r].0 -= unit_p & (is_stone as u64).wrapping_neg();
            }
            own_mask |= ((cell == own as u32) as u32) << k;
            opp_mask |= ((cell == opp as u32) as u32) << k;
        }
        set!(self, rec, libs, p.idx(), libs);

        // Merge friendly neighbours into one chain.
        let mut root = p.0;
        let mut m = own_mask;
        while m != 0 {
            let n = nbrs[m.trailing_zeros() as usize & 3];
            m &= m - 1;
            let r = self.chain[n.idx()];
            if r != root {
                if TRACK {
                    self.unlist_atari(r, c, rec);
                }
                root = self.merge(root, r, rec);
            }
        }

        // Capture enemy neighbours left without liberties; the others may be
        // in atari now (only tracked moves look). Untracked moves first mask
        // the enemy neighbours without liberties, again without branches.
        let mut m = opp_mask;
        if !TRACK && m != 0 {
            let mut dead = 0u32;
            for (k, n) in nbrs.into_iter().enumerate() {
                let l = self.libs[ix(self.chain[n.idx()])];
                dead |= ((l.count() == 0) as u32) << k;
            }
            m &= dead;
        }
        let mut taken = (0, Point::PASS);
        while m != 0 {
            let n = nbrs[m.trailing_zeros() as usize & 3];
            m &= m - 1;
            // A stone of a chain captured at an earlier neighbour is gone.
            if self.cell[n.idx()] == opp {
                self.settle_enemy::<TRACK, R>(n, c, rec, &mut taken);
            }
        }
        (root, taken.0, taken.1)
    }

    /// Connect like [`Board::connect_branchless`], but branching on the
    /// neighbours and writing only what the journal must log (tactical
    /// reading repeats its move patterns, so its branches predict well).
    #[inline(always)]
    fn connect_branchy<const TRACK: bool, R: Recorder>(
        &mut self,
        p: Point,
        c: Color,
        counts: u16,
        rec: &mut R,
    ) -> (u16, u16, Point) {
        let opp = Cell::stone(c.opponent());
        let own = Cell::stone(c);
        let nbrs = self.geo.neighbours(p);
        let unit_p = Libs::unit(p);
        let mut libs = Libs(0);
        for n in nbrs {
            match self.cell[n.idx()] {
                Cell::Empty => libs.0 += Libs::unit(n),
                Cell::Off => {}
                _ => {
                    let r = ix(self.chain[n.idx()]);
                    set!(self, rec, libs, r, Libs(self.libs[r].0 - unit_p));
                }
            }
        }
        set!(self, rec, libs, p.idx(), libs);
        let mut root = p.0;
        if (counts >> NBR_SHIFT[c.idx()]) & 0xF != 0 {
            for n in nbrs {
                if self.cell[n.idx()] == own {
                    let r = self.chain[n.idx()];
                    if r != root {
                        if TRACK {
                            self.unlist_atari(r, c, rec);
                        }
                        root = self.merge(root, r, rec);
                    }
                }
            }
        }
        let mut taken = (0, Point::PASS);
        if (counts >> NBR_SHIFT[c.opponent().idx()]) & 0xF != 0 {
            for n in nbrs {
                if self.cell[n.idx()] == opp {
                    self.settle_enemy::<TRACK, R>(n, c, rec, &mut taken);
                }
            }
        }
        (root, taken.0, taken.1)
    }

    /// Settle the enemy chain at the stone `n` next to a move of `c`: take
    /// it if the move left it no liberty (adding the stones to `taken.0` and
    /// noting `n` as the last point taken in `taken.1`), else note it if the
    /// move put it in atari.
    #[inline(always)]
    fn settle_enemy<const TRACK: bool, R: Recorder>(
        &mut self,
        n: Point,
        c: Color,
        rec: &mut R,
        taken: &mut (u16, Point),
    ) {
        let r = self.chain[n.idx()];
        let l = self.libs[ix(r)];
        if l.count() == 0 {
            if TRACK {
                self.unlist_atari(r, c.opponent(), rec);
            }
            taken.0 += self.remove_chain(Point(r), c.opponent(), rec);
            taken.1 = n;
        } else if TRACK && l.in_atari() {
            self.note_new_atari(r, c.opponent(), rec);
        }
    }

    /// List the enemy chain with root `r`, which the move just put in atari
    /// (its last liberty was not `p`), and note it as a new atari.
    #[inline(always)]
    fn note_new_atari<R: Recorder>(&mut self, r: u16, c: Color, rec: &mut R) {
        self.list_atari(r, c, rec);
        let k = self.n_new_ataris as usize;
        if !self.new_ataris[..k].contains(&Point(r)) {
            self.new_ataris[k] = Point(r);
            self.n_new_ataris += 1;
        }
    }

    /// Put a stone of `c` on the empty point `p`: cell, hash, empty list and
    /// neighbour counts.
    #[inline(always)]
    fn place_stone<R: Recorder>(&mut self, p: Point, c: Color, rec: &mut R) {
        set!(self, rec, cell, p.idx(), Cell::stone(c));
        self.stones_hash ^= zobrist::stone(p, c);
        // Remove `p` from the empty list by moving the last entry into its place.
        self.n_empty -= 1;
        let i = self.empty_at[p.idx()];
        let moved = self.empties[ix(self.n_empty)];
        set!(self, rec, empties, ix(i), moved);
        set!(self, rec, empty_at, ix(moved), i);
        let delta = NBR_UNIT[c.idx()].wrapping_sub(NBR_UNIT[Cell::Empty as usize]);
        for n in self.geo.neighbours(p) {
            set!(
                self,
                rec,
                nbr,
                n.idx(),
                self.nbr[n.idx()].wrapping_add(delta)
            );
        }
    }

    /// Merge chains `a` and `b` (roots), relabelling the smaller; return the
    /// root of the result.
    fn merge<R: Recorder>(&mut self, a: u16, b: u16, rec: &mut R) -> u16 {
        let (big, small) = if self.stones[ix(a)] >= self.stones[ix(b)] {
            (a, b)
        } else {
            (b, a)
        };
        let (bi, si) = (ix(big), ix(small));
        set!(self, rec, libs, bi, Libs(self.libs[bi].0 + self.libs[si].0));
        set!(self, rec, stones, bi, self.stones[bi] + self.stones[si]);
        let mut s = small;
        loop {
            set!(self, rec, chain, ix(s), big);
            s = self.next[ix(s)];
            if s == small {
                break;
            }
        }
        // Splice the two circular lists.
        let nb = self.next[bi];
        set!(self, rec, next, bi, self.next[si]);
        set!(self, rec, next, si, nb);
        big
    }

    /// Remove the chain of colour `c` with root `r`; return the number of
    /// stones taken.
    fn remove_chain<R: Recorder>(&mut self, r: Point, c: Color, rec: &mut R) -> u16 {
        let taken = self.stones[r.idx()];
        // First empty every stone, then give liberties to the neighbours, so
        // no liberty is handed to a stone of the dying chain.
        let mut s = r.0;
        loop {
            self.remove_stone(Point(s), c, rec);
            s = self.next[ix(s)];
            if s == r.0 {
                break;
            }
        }
        loop {
            let unit = Libs::unit(Point(s));
            for n in self.geo.neighbours(Point(s)) {
                let cell = self.cell[n.idx()] as u32;
                // Black is 0, white 1: a stone, whose chain gains a liberty.
                let is_stone = cell < 2;
                let nr = self.chain[n.idx()];
                if R::ON {
                    // The journal logs only real writes.
                    if is_stone {
                        set!(self, rec, libs, ix(nr), Libs(self.libs[ix(nr)].0 + unit));
                    }
                } else {
                    // Without a branch on the random neighbour: an empty or
                    // off-board cell's stale chain id gets a harmless zero.
                    self.libs[ix(nr)].0 += unit & (is_stone as u64).wrapping_neg();
                }
            }
            s = self.next[ix(s)];
            if s == r.0 {
                break;
            }
        }
        taken
    }

    #[inline(always)]
    fn remove_stone<R: Recorder>(&mut self, p: Point, c: Color, rec: &mut R) {
        set!(self, rec, cell, p.idx(), Cell::Empty);
        self.stones_hash ^= zobrist::stone(p, c);
        set!(self, rec, empty_at, p.idx(), self.n_empty);
        set!(self, rec, empties, ix(self.n_empty), p.0);
        self.n_empty += 1;
        let delta = NBR_UNIT[Cell::Empty as usize].wrapping_sub(NBR_UNIT[c.idx()]);
        for n in self.geo.neighbours(p) {
            set!(
                self,
                rec,
                nbr,
                n.idx(),
                self.nbr[n.idx()].wrapping_add(delta)
            );
        }
    }

    /// Bring the lists of chains in atari up to date after untracked moves
    /// (a rescan of the board); a no-op when they are current.
    pub fn refresh_ataris(&mut self) {
        if self.ataris_valid {
            return;
        }
        self.n_ataris = [0; 2];
        self.atari_at[..self.geo.cells()].fill(NOT_LISTED);
        for p in self.geo.points() {
            if let Some(c) = self.cell[p.idx()].color() {
                if self.chain[p.idx()] == p.0 && self.libs[p.idx()].in_atari() {
                    self.list_atari(p.0, c, &mut NoLog);
                }
            }
        }
        self.ataris_valid = true;
    }

    /// Add the chain with root `r` and colour `c` to the atari list unless listed.
    #[inline(always)]
    fn list_atari<R: Recorder>(&mut self, r: u16, c: Color, rec: &mut R) {
        if self.atari_at[ix(r)] == NOT_LISTED {
            let n = self.n_ataris[c.idx()];
            if R::ON {
                rec.log(Write::Atari(c as u8, n, self.ataris[c.idx()][ix(n)]));
            }
            self.ataris[c.idx()][ix(n)] = Point(r);
            set!(self, rec, atari_at, ix(r), n);
            self.n_ataris[c.idx()] = n + 1;
        }
    }

    /// Remove the chain with root `r` and colour `c` from the atari list if listed.
    #[inline(always)]
    fn unlist_atari<R: Recorder>(&mut self, r: u16, c: Color, rec: &mut R) {
        let i = self.atari_at[ix(r)];
        if i != NOT_LISTED {
            let n = self.n_ataris[c.idx()] - 1;
            self.n_ataris[c.idx()] = n;
            let moved = self.ataris[c.idx()][ix(n)];
            if R::ON {
                rec.log(Write::Atari(c as u8, i, self.ataris[c.idx()][ix(i)]));
            }
            self.ataris[c.idx()][ix(i)] = moved;
            set!(self, rec, atari_at, moved.idx(), i);
            set!(self, rec, atari_at, ix(r), NOT_LISTED);
        }
    }
}

impl Board {
    /// Query whether `c` may play at the empty point `p` (ko and suicide).
    #[inline(always)]
    pub fn is_legal_move_on_empty(&self, p: Point, c: Color) -> bool {
        debug_assert!(self.cell[p.idx()] == Cell::Empty);
        !(p == self.ko && c == self.to_play) && self.is_legal_empty(p, c)
    }

    /// Return the `i`-th entry of the empty-point list (`i` below
    /// [`Board::empty_count`]; the index is masked, never bounds-checked).
    #[inline(always)]
    pub fn empty_at_index(&self, i: usize) -> Point {
        Point(self.empties[i & (MAX_POINTS - 1)])
    }

    /// Swap two entries of the empty-point list (its order is free).
    #[inline(always)]
    pub fn swap_empties(&mut self, i: usize, j: usize) {
        let (i, j) = (i & (MAX_POINTS - 1), j & (MAX_POINTS - 1));
        let (a, b) = (self.empties[i], self.empties[j]);
        self.empties[i] = b;
        self.empties[j] = a;
        self.empty_at[ix(b)] = i as u16;
        self.empty_at[ix(a)] = j as u16;
    }
}
