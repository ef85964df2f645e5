//! The Go board: stones, chains, liberties, captures, ko and Zobrist hash.
//!
//! Layout (Pachi/libego style): a padded one-dimensional array with an
//! off-board ring ([`crate::geometry`]). Per point the board keeps
//! - `cell`: black, white, empty or off-board;
//! - `nbr`: the counts of black, white and empty neighbours packed in
//!   nibbles, so "has an empty neighbour" and the eye-like test read one
//!   word;
//! - `chain`: the chain id of a stone, the point of the chain's root stone;
//! - `next`: the next stone of the chain in a circular list, so chains merge
//!   in O(smaller chain) and are walked without a search;
//! - `empties` / `empty_at`: the list of empty points and each point's place
//!   in it, for O(1) random picking and removal.
//!
//! Per chain (indexed by its root) it keeps its stone count and its
//! *pseudo-liberties*: the number of (stone, empty neighbour) adjacencies,
//! and the sum and the sum of squares of those empty points' indices, packed
//! in one `u64` so each update is a single add. The pseudo count is only an upper bound of
//! the liberty count, but "all pseudo-liberties are the same point" holds
//! exactly when `count * sum_sq == sum * sum` (equality in Cauchy-Schwarz),
//! so "is the chain in atari" and "where is its last liberty" are exact and
//! O(1). The exact liberty count is a walk over the chain
//! ([`Board::liberties`]).
//!
//! The board also keeps, per colour, the list of chains in atari, with each
//! root's place in it for O(1) removal. [`Board::play_legal`] keeps the
//! lists exact while the chains it touches are in cache: only chains next to
//! the move lose liberties, only chains next to captured stones gain them.
//! Light playouts, which never read the lists, play with
//! [`Board::play_legal_untracked`] and pay nothing; the next
//! [`Board::refresh_ataris`] rebuilds the lists by a scan.

mod diagram;
mod journal;
mod play;
mod query;
mod score;

pub use diagram::DiagramError;
pub use journal::{Journal, JournalFull};
pub use query::{ChainStones, PointSet};
pub use score::Score;

use crate::geometry::{
    Cell, Color, Geometry, GeometryError, Point, MAX_CELLS, MAX_POINTS, MAX_SIZE,
};
use crate::zobrist;

/// Nibble of the black / white / empty neighbour count in `nbr`.
const NBR_SHIFT: [u32; 3] = [0, 4, 8];
const NBR_UNIT: [u16; 3] = [1 << 0, 1 << 4, 1 << 8];

/// Return the array index of a point id held as `u16`, masked into range
/// (see [`Point::idx`]).
#[inline(always)]
const fn ix(v: u16) -> usize {
    Point(v).idx()
}

/// `atari_at` of a chain that is not in an atari list.
const NOT_LISTED: u16 = u16::MAX;

/// Pseudo-liberties of one chain, packed in one word so that adding,
/// removing and merging are one integer add or subtract (see the module
/// note): bits 0..11 count the (stone, empty neighbour) adjacencies, bits
/// 11..31 sum their points' indices, bits 31..60 sum the squares.
#[derive(Copy, Clone, Default, Debug, PartialEq, Eq)]
struct Libs(u64);

const COUNT_BITS: u32 = 11;
const SUM_BITS: u32 = 20;
const SUM_SQ_SHIFT: u32 = COUNT_BITS + SUM_BITS;
/// Most adjacencies a chain can have: four per on-board point.
const MAX_ADJ: u64 = 4 * (MAX_SIZE * MAX_SIZE) as u64;
/// Largest point index.
const MAX_IDX: u64 = MAX_CELLS as u64 - 1;
// No field can overflow into the next on the largest board.
static_assertions::const_assert!(MAX_ADJ < 1 << COUNT_BITS);
static_assertions::const_assert!(MAX_ADJ * MAX_IDX < 1 << SUM_BITS);
static_assertions::const_assert!(MAX_ADJ * MAX_IDX * MAX_IDX < 1 << (64 - SUM_SQ_SHIFT));

/// The packed contribution of one adjacency to each point (a table: one
/// load instead of a 64-bit multiply and shifts on every liberty update).
static UNITS: [u64; MAX_POINTS] = {
    let mut t = [0u64; MAX_POINTS];
    let mut i = 0;
    while i < MAX_POINTS {
        let v = i as u64;
        t[i] = 1 | (v << COUNT_BITS) | ((v * v) << SUM_SQ_SHIFT);
        i += 1;
    }
    t
};

impl Libs {
    /// The packed contribution of one adjacency to the empty point `p`.
    #[inline(always)]
    fn unit(p: Point) -> u64 {
        UNITS[p.idx()]
    }

    #[inline(always)]
    fn count(self) -> u64 {
        self.0 & ((1 << COUNT_BITS) - 1)
    }

    #[inline(always)]
    fn sum(self) -> u64 {
        (self.0 >> COUNT_BITS) & ((1 << SUM_BITS) - 1)
    }

    /// Exactly one distinct liberty: `count * sum_sq == sum^2`.
    #[inline(always)]
    fn in_atari(self) -> bool {
        let (n, sum) = (self.count(), self.sum());
        // `&`, not `&&`: no branch, as playouts test random chains.
        (n > 0) & (n * (self.0 >> SUM_SQ_SHIFT) == sum * sum)
    }

    /// Exactly one distinct liberty, given that `unit` (of [`Libs::unit`])
    /// is the unit of a point known to be a liberty: then the chain is in
    /// atari exactly when every adjacency is to that point. One multiply,
    /// cheaper than [`Libs::in_atari`].
    #[inline(always)]
    fn in_atari_at(self, unit: u64) -> bool {
        self.0 == self.count() * unit
    }

    /// The last liberty, when in atari: the sum divided by the count (a
    /// 32-bit division, skipped when the count is one).
    #[inline(always)]
    fn atari_point(self) -> Point {
        let (n, sum) = (self.count() as u32, self.sum() as u32);
        Point(if n == 1 { sum } else { sum / n.max(1) } as u16)
    }
}

/// Why a move was refused.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum MoveError {
    /// The point is off the board.
    OffBoard,
    /// The point holds a stone.
    Occupied,
    /// The move would retake a ko at once.
    Ko,
    /// The move would leave its own chain without liberties.
    Suicide,
}

/// A Go position with the side to move (see the module note for the layout).
#[derive(Clone)]
pub struct Board {
    geo: Geometry,
    cell: [Cell; MAX_POINTS],
    nbr: [u16; MAX_POINTS],
    chain: [u16; MAX_POINTS],
    next: [u16; MAX_POINTS],
    libs: [Libs; MAX_POINTS],
    /// Stones of each chain, indexed by its root.
    stones: [u16; MAX_POINTS],
    empties: [u16; MAX_POINTS],
    empty_at: [u16; MAX_POINTS],
    n_empty: u16,
    /// Roots of the chains in atari, one list per colour.
    ataris: [[Point; MAX_POINTS]; 2],
    n_ataris: [u16; 2],
    /// Each root's place in its atari list, or `NOT_LISTED`.
    atari_at: [u16; MAX_POINTS],
    /// Whether the atari lists are current (untracked moves clear it).
    ataris_valid: bool,
    /// Roots of the chains the last (tracked) move put in atari.
    new_ataris: [Point; 4],
    n_new_ataris: u8,
    to_play: Color,
    /// The point the side to move may not play (ko), or `PASS` for none.
    ko: Point,
    last: Option<Point>,
    last2: Option<Point>,
    passes: u8,
    moves: u16,
    captures: [u16; 2],
    /// Zobrist hash of the stones only.
    stones_hash: u64,
}

impl Board {
    /// Return an empty `size` x `size` board with black to move.
    ///
    /// # Errors
    /// [`GeometryError::UnsupportedSize`] for a size this build does not support.
    /// A `const fn`, so a board can be a `static` built at compile time.
    pub const fn new(size: usize) -> Result<Board, GeometryError> {
        let geo = match Geometry::new(size) {
            Ok(geo) => geo,
            Err(e) => return Err(e),
        };
        let mut b = Board {
            geo,
            cell: [Cell::Off; MAX_POINTS],
            nbr: [0; MAX_POINTS],
            chain: [0; MAX_POINTS],
            next: [0; MAX_POINTS],
            libs: [Libs(0); MAX_POINTS],
            stones: [0; MAX_POINTS],
            empties: [0; MAX_POINTS],
            empty_at: [0; MAX_POINTS],
            n_empty: 0,
            ataris: [[Point::PASS; MAX_POINTS]; 2],
            new_ataris: [Point::PASS; 4],
            n_new_ataris: 0,
            n_ataris: [0; 2],
            atari_at: [NOT_LISTED; MAX_POINTS],
            ataris_valid: true,
            to_play: Color::Black,
            ko: Point::PASS,
            last: None,
            last2: None,
            passes: 0,
            moves: 0,
            captures: [0; 2],
            stones_hash: 0,
        };
        b.clear();
        Ok(b)
    }

    /// Make this an empty board of `size` in place, equal in every field
    /// to what [`Board::new`] returns, with no board-sized temporary (a
    /// firmware's stack could not hold one).
    ///
    /// # Errors
    /// [`GeometryError::UnsupportedSize`]; the board is unchanged then.
    pub fn reset(&mut self, size: usize) -> Result<(), GeometryError> {
        self.geo = Geometry::new(size)?;
        self.cell.fill(Cell::Off);
        self.nbr.fill(0);
        self.chain.fill(0);
        self.next.fill(0);
        self.libs.fill(Libs(0));
        self.stones.fill(0);
        self.empties.fill(0);
        self.empty_at.fill(0);
        self.n_empty = 0;
        for list in &mut self.ataris {
            list.fill(Point::PASS);
        }
        self.new_ataris = [Point::PASS; 4];
        self.atari_at.fill(NOT_LISTED);
        self.clear();
        Ok(())
    }

    /// Empty the board, keeping its size; black is to move (a `const fn`:
    /// loops instead of iterators).
    pub const fn clear(&mut self) {
        let geo = self.geo;
        let cells = geo.cells();
        let mut i = 0;
        while i < cells {
            self.cell[i] = Cell::Off;
            self.nbr[i] = 0;
            self.atari_at[i] = NOT_LISTED;
            i += 1;
        }
        self.n_empty = 0;
        let size = geo.size();
        let mut i = 0;
        while i < size * size {
            let p = geo.point(i % size, i / size);
            self.cell[p.idx()] = Cell::Empty;
            self.empty_at[p.idx()] = self.n_empty;
            self.empties[ix(self.n_empty)] = p.0;
            self.n_empty += 1;
            i += 1;
        }
        let mut i = 0;
        while i < size * size {
            let p = geo.point(i % size, i / size);
            let nbrs = geo.neighbours(p);
            let mut k = 0;
            while k < 4 {
                if matches!(self.cell[nbrs[k].idx()], Cell::Empty) {
                    self.nbr[p.idx()] += NBR_UNIT[Cell::Empty as usize];
                }
                k += 1;
            }
            i += 1;
        }
        self.n_ataris = [0; 2];
        self.ataris_valid = true;
        self.n_new_ataris = 0;
        self.to_play = Color::Black;
        self.ko = Point::PASS;
        self.last = None;
        self.last2 = None;
        self.passes = 0;
        self.moves = 0;
        self.captures = [0; 2];
        self.stones_hash = 0;
    }

    /// Make this board a copy of `other`, copying only the part of each
    /// array that `other`'s size uses (cheaper than `clone_from` on a board
    /// smaller than the largest size).
    pub fn copy_from(&mut self, other: &Board) {
        let n = other.geo.cells();
        // Cells past a smaller board's are off the board, not what a larger
        // board left there (a move read from a table of the larger board
        // would otherwise find them empty).
        let old = self.geo.cells();
        if old > n {
            self.cell[n..old].fill(Cell::Off);
        }
        self.geo = other.geo;
        self.cell[..n].copy_from_slice(&other.cell[..n]);
        self.nbr[..n].copy_from_slice(&other.nbr[..n]);
        self.chain[..n].copy_from_slice(&other.chain[..n]);
        self.next[..n].copy_from_slice(&other.next[..n]);
        self.libs[..n].copy_from_slice(&other.libs[..n]);
        self.stones[..n].copy_from_slice(&other.stones[..n]);
        self.atari_at[..n].copy_from_slice(&other.atari_at[..n]);
        let e = other.n_empty as usize;
        self.empties[..e].copy_from_slice(&other.empties[..e]);
        self.empty_at[..n].copy_from_slice(&other.empty_at[..n]);
        for c in 0..2 {
            let k = other.n_ataris[c] as usize;
            self.ataris[c][..k].copy_from_slice(&other.ataris[c][..k]);
        }
        self.n_empty = other.n_empty;
        self.n_ataris = other.n_ataris;
        self.new_ataris = other.new_ataris;
        self.n_new_ataris = other.n_new_ataris;
        self.ataris_valid = other.ataris_valid;
        self.to_play = other.to_play;
        self.ko = other.ko;
        self.last = other.last;
        self.last2 = other.last2;
        self.passes = other.passes;
        self.moves = other.moves;
        self.captures = other.captures;
        self.stones_hash = other.stones_hash;
    }

    /// Query whether two boards are identical in every field and every used
    /// array slot (order of the empty-point and atari lists included); for
    /// tests of undo and copying.
    pub fn identical(&self, o: &Board) -> bool {
        let n = self.geo.cells();
        let (e, a) = (self.n_empty as usize, self.n_ataris);
        self.geo == o.geo
            && self.cell[..n] == o.cell[..n]
            && self.nbr[..n] == o.nbr[..n]
            && self.chain[..n] == o.chain[..n]
            && self.next[..n] == o.next[..n]
            && self.libs[..n] == o.libs[..n]
            && self.stones[..n] == o.stones[..n]
            && self.empties[..e] == o.empties[..e]
            && self.empty_at[..n] == o.empty_at[..n]
            && self.atari_at[..n] == o.atari_at[..n]
            && self.ataris[0][..a[0] as usize] == o.ataris[0][..a[0] as usize]
            && self.ataris[1][..a[1] as usize] == o.ataris[1][..a[1] as usize]
            && (self.n_empty, self.n_ataris, self.ataris_valid)
                == (o.n_empty, o.n_ataris, o.ataris_valid)
            && self.new_ataris() == o.new_ataris()
            && (self.to_play, self.ko, self.last, self.last2) == (o.to_play, o.ko, o.last, o.last2)
            && (self.passes, self.moves, self.captures, self.stones_hash)
                == (o.passes, o.moves, o.captures, o.stones_hash)
    }

    /// Return the board's geometry.
    #[inline(always)]
    pub fn geometry(&self) -> Geometry {
        self.geo
    }

    /// Return the board size.
    #[inline(always)]
    pub fn size(&self) -> usize {
        self.geo.size()
    }

    /// Return what is at `p`.
    #[inline(always)]
    pub fn at(&self, p: Point) -> Cell {
        self.cell[p.idx()]
    }

    /// Return the side to move.
    #[inline(always)]
    pub fn to_play(&self) -> Color {
        self.to_play
    }

    /// Set the side to move (a GTP `play` by the other colour, handicap).
    pub fn set_to_play(&mut self, c: Color) {
        if c != self.to_play {
            self.to_play = c;
            self.ko = Point::PASS;
        }
    }

    /// Return the ko-ban point for the side to move, if any.
    #[inline(always)]
    pub fn ko(&self) -> Option<Point> {
        (!self.ko.is_pass()).then_some(self.ko)
    }

    /// Return the last move played (a pass included), if any.
    #[inline(always)]
    pub fn last_move(&self) -> Option<Point> {
        self.last
    }

    /// Return the move before the last one, if any.
    #[inline(always)]
    pub fn second_last_move(&self) -> Option<Point> {
        self.last2
    }

    /// Return the number of consecutive passes that ended the move list.
    #[inline(always)]
    pub fn passes(&self) -> u32 {
        self.passes as u32
    }

    /// Forget the passes that ended the move list (the position stays): a
    /// playout from here goes on, so that it takes dead stones off the
    /// board as a scorer who removes them would, instead of counting them.
    pub fn reopen(&mut self) {
        self.passes = 0;
    }

    /// Return the number of moves played (passes included).
    #[inline(always)]
    pub fn move_count(&self) -> u32 {
        self.moves as u32
    }

    /// Return how many stones `c` has captured.
    pub fn captures(&self, c: Color) -> u32 {
        self.captures[c.idx()] as u32
    }

    /// Return the empty points, in no particular order.
    #[inline(always)]
    pub fn empty_points(&self) -> impl ExactSizeIterator<Item = Point> + '_ {
        self.empties[..self.n_empty as usize]
            .iter()
            .map(|&p| Point(p))
    }

    /// Return the number of empty points.
    #[inline(always)]
    pub fn empty_count(&self) -> usize {
        self.n_empty as usize
    }

    /// Return the full Zobrist hash: stones, ko-ban point and side to move.
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        let mut h = self.stones_hash;
        if !self.ko.is_pass() {
            h ^= zobrist::ko(self.ko);
        }
        if self.to_play == Color::White {
            h ^= zobrist::white_to_move();
        }
        h
    }

    /// Return the Zobrist hash of the stones alone, the key of positional
    /// superko.
    #[inline(always)]
    pub fn position_hash(&self) -> u64 {
        self.stones_hash
    }

    /// Return the [`Board::position_hash`] after `c` plays the legal move
    /// `p` (not a pass), without playing it: the new stone and the stones of
    /// the enemy chains it captures (those next to `p` in atari) change the
    /// hash. No board copy, for superko checks on a small stack.
    pub fn position_hash_after(&self, p: Point, c: Color) -> u64 {
        let mut h = self.stones_hash ^ zobrist::stone(p, c);
        let opp = c.opponent();
        let mut taken = [Point::PASS; 4];
        let mut n_taken = 0;
        for n in self.geo.neighbours(p) {
            if self.cell[n.idx()] != Cell::stone(opp) || !self.in_atari(n) {
                continue;
            }
            let root = Point(self.chain[n.idx()]);
            if taken[..n_taken].contains(&root) {
                continue;
            }
            taken[n_taken] = root;
            n_taken += 1;
            for s in self.chain_stones(root) {
                h ^= zobrist::stone(s, opp);
            }
        }
        h
    }

    /// Return the full hash recomputed from scratch (for tests: it must
    /// always equal [`Board::hash`]).
    pub fn recompute_hash(&self) -> u64 {
        let mut h = 0;
        for p in self.geo.points() {
            if let Some(c) = self.at(p).color() {
                h ^= zobrist::stone(p, c);
            }
        }
        if !self.ko.is_pass() {
            h ^= zobrist::ko(self.ko);
        }
        if self.to_play == Color::White {
            h ^= zobrist::white_to_move();
        }
        h
    }

    /// Return the number of neighbours of `p` holding `cell` (black, white or
    /// empty; not off-board).
    #[inline(always)]
    pub fn neighbour_count(&self, p: Point, cell: Cell) -> u32 {
        debug_assert!(cell != Cell::Off);
        ((self.nbr[p.idx()] >> NBR_SHIFT[cell as usize]) & 0xF) as u32
    }
}
