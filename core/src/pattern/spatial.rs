//! Spatial patterns: the stones around a move, in nested neighbourhoods
//! from 3x3 up to 72 points, hashed with Zobrist keys (Pachi's
//! `patterns_mm.spat`, Coulom's concentric shapes).
//!
//! Neighbourhoods are balls of the *gridcular* distance
//! `d(dx, dy) = |dx| + |dy| + max(|dx|, |dy|)`: `d <= 3` is the 3x3
//! square, `d <= 10` 72 points. [`OFFSETS`] lists the points by distance,
//! so the pattern of size `d` is a prefix of it ([`size_points`]).
//!
//! A cell is seen from the side to move: empty 0, own stone 1, enemy
//! stone 2, off the board 3 ([`Cell4`]). The hash of a pattern XORs one key
//! per non-empty cell ([`KEY`], by offset and value) and one key for its
//! size, so the pattern of each size has its own hash even where the ring
//! that makes it larger is empty.
//!
//! The eight symmetries of the square map the offsets onto each other
//! ([`PERMUTATION`]): a pattern's hash seen in orientation `t` XORs
//! `KEY[PERMUTATION[t][k]][cell k]`. A model stores one orientation of a
//! pattern and indexes all eight, so play hashes each neighbourhood once,
//! as it stands.

use crate::board::Board;
use crate::geometry::{Cell, Color, Point};
use crate::zobrist::splitmix64;

/// The smallest pattern size: the 3x3 square.
pub const MIN_SIZE: usize = 3;
/// The largest pattern size.
pub const MAX_SIZE: usize = 10;
/// Pattern sizes (`MIN_SIZE..=MAX_SIZE`).
pub const SIZES: usize = MAX_SIZE - MIN_SIZE + 1;
/// Points of the largest pattern (the move's own point not counted).
pub const POINTS: usize = 72;
/// Bytes of a pattern's cells packed 2 bits each.
pub const PACKED: usize = POINTS / 4;

/// A cell seen from the side to move.
pub type Cell4 = u8;
/// An empty point.
pub const EMPTY: Cell4 = 0;
/// A stone of the side to move.
pub const OWN: Cell4 = 1;
/// A stone of the opponent.
pub const ENEMY: Cell4 = 2;
/// Off the board.
pub const OFF: Cell4 = 3;

/// Return the gridcular distance of an offset.
pub const fn distance(dx: i32, dy: i32) -> usize {
    let (ax, ay) = (dx.unsigned_abs() as usize, dy.unsigned_abs() as usize);
    ax + ay + if ax > ay { ax } else { ay }
}

/// The offsets `(dx, dy)` of the largest pattern, by distance, then by
/// `dy`, then by `dx`.
pub static OFFSETS: [(i8, i8); POINTS] = offsets();

const fn offsets() -> [(i8, i8); POINTS] {
    let mut out = [(0i8, 0i8); POINTS];
    let mut n = 0;
    let mut d = 1;
    while d <= MAX_SIZE {
        let mut dy = -(MAX_SIZE as i32);
        while dy <= MAX_SIZE as i32 {
            let mut dx = -(MAX_SIZE as i32);
            while dx <= MAX_SIZE as i32 {
                if (dx != 0 || dy != 0) && distance(dx, dy) == d {
                    out[n] = (dx as i8, dy as i8);
                    n += 1;
                }
                dx += 1;
            }
            dy += 1;
        }
        d += 1;
    }
    assert!(n == POINTS, "72 points within distance 10");
    out
}

/// Return the number of points in the pattern of size `d`.
pub const fn size_points(d: usize) -> usize {
    let mut n = 0;
    while n < POINTS && distance(OFFSETS[n].0 as i32, OFFSETS[n].1 as i32) <= d {
        n += 1;
    }
    n
}

/// Points of each pattern size, `MIN_SIZE` first.
pub static SIZE_POINTS: [u8; SIZES] = {
    let mut out = [0u8; SIZES];
    let mut s = 0;
    while s < SIZES {
        out[s] = size_points(MIN_SIZE + s) as u8;
        s += 1;
    }
    out
};

/// Return the offset symmetry `t` (bit 0: swap x and y, bit 1: negate x,
/// bit 2: negate y) sends `(dx, dy)` to.
pub const fn transform(t: usize, dx: i32, dy: i32) -> (i32, i32) {
    let (mut x, mut y) = if t & 1 != 0 { (dy, dx) } else { (dx, dy) };
    if t & 2 != 0 {
        x = -x;
    }
    if t & 4 != 0 {
        y = -y;
    }
    (x, y)
}

/// `PERMUTATION[t][k]`: the index in [`OFFSETS`] of offset `k` under
/// symmetry `t` (which keeps distances, so sizes map onto themselves).
pub static PERMUTATION: [[u8; POINTS]; 8] = {
    let mut out = [[0u8; POINTS]; 8];
    let mut t = 0;
    while t < 8 {
        let mut k = 0;
        while k < POINTS {
            let (x, y) = transform(t, OFFSETS[k].0 as i32, OFFSETS[k].1 as i32);
            let mut j = 0;
            while OFFSETS[j].0 as i32 != x || OFFSETS[j].1 as i32 != y {
                j += 1;
            }
            out[t][k] = j as u8;
            k += 1;
        }
        t += 1;
    }
    out
};

/// `KEY[k][v]`: the key of value `v` at offset `k` (0 for an empty point).
pub static KEY: [[u64; 4]; POINTS] = {
    let mut s = 0x7061_7474_6572_6e31; // "pattern1"
    let mut out = [[0u64; 4]; POINTS];
    let mut k = 0;
    while k < POINTS {
        out[k][1] = splitmix64(&mut s);
        out[k][2] = splitmix64(&mut s);
        out[k][3] = splitmix64(&mut s);
        k += 1;
    }
    out
};

/// The key of each pattern size, `MIN_SIZE` first.
pub static SIZE_KEY: [u64; SIZES] = {
    let mut s = 0x7369_7a65_6b65_7973; // "sizekeys"
    let mut out = [0u64; SIZES];
    let mut i = 0;
    while i < SIZES {
        out[i] = splitmix64(&mut s);
        i += 1;
    }
    out
};

/// Return the cell at offset `k` ([`OFFSETS`]) from `p`, seen by `c`.
#[inline(always)]
pub fn cell_at(board: &Board, p: Point, c: Color, k: usize) -> Cell4 {
    let geo = board.geometry();
    let n = board.size() as i32;
    let (x, y) = geo.coords(p);
    let (dx, dy) = OFFSETS[k % POINTS];
    let (qx, qy) = (x as i32 + i32::from(dx), y as i32 + i32::from(dy));
    if qx < 0 || qy < 0 || qx >= n || qy >= n {
        return OFF;
    }
    match board.at(geo.point(qx as usize, qy as usize)) {
        Cell::Empty => EMPTY,
        cell if cell == Cell::stone(c) => OWN,
        Cell::Off => OFF,
        _ => ENEMY,
    }
}

/// The cells around a move, [`OFFSETS`] order, from the mover's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Neighbourhood {
    /// One [`Cell4`] per offset.
    pub cells: [Cell4; POINTS],
}

impl Neighbourhood {
    /// Read the cells around `p` for `c` to move.
    pub fn read(board: &Board, p: Point, c: Color) -> Neighbourhood {
        let mut cells = [OFF; POINTS];
        for (k, cell) in cells.iter_mut().enumerate() {
            *cell = cell_at(board, p, c, k);
        }
        Neighbourhood { cells }
    }

    /// Return the hash of each size (`MIN_SIZE` first) as the cells stand.
    pub fn hashes(&self) -> [u64; SIZES] {
        self.hashes_in(0)
    }

    /// Return the hash of each size seen in orientation `t`.
    pub fn hashes_in(&self, t: usize) -> [u64; SIZES] {
        let perm = &PERMUTATION[t & 7];
        let mut out = [0u64; SIZES];
        let mut h = 0u64;
        let mut k = 0;
        for (s, &end) in SIZE_POINTS.iter().enumerate() {
            while k < end as usize {
                h ^= KEY[perm[k] as usize][self.cells[k] as usize & 3];
                k += 1;
            }
            out[s] = h ^ SIZE_KEY[s];
        }
        out
    }

    /// Return the hash of the pattern of size `d` in orientation `t`.
    pub fn hash_in(&self, d: usize, t: usize) -> u64 {
        let perm = &PERMUTATION[t & 7];
        let s = d.clamp(MIN_SIZE, MAX_SIZE) - MIN_SIZE;
        let mut h = SIZE_KEY[s];
        for k in 0..SIZE_POINTS[s] as usize {
            h ^= KEY[perm[k] as usize][self.cells[k] as usize & 3];
        }
        h
    }

    /// Return the orientation-free hash of the pattern of size `d`: the
    /// least of its eight orientations' hashes.
    pub fn canonical(&self, d: usize) -> u64 {
        (0..8).map(|t| self.hash_in(d, t)).min().unwrap_or(0)
    }

    /// Pack the cells 2 bits each, offset `k` at bits `2 * (k % 4)` of
    /// byte `k / 4`; cells beyond size `d` are written as empty.
    pub fn pack(&self, d: usize) -> [u8; PACKED] {
        let n = size_points(d.clamp(MIN_SIZE, MAX_SIZE));
        let mut out = [0u8; PACKED];
        for k in 0..n {
            out[k / 4] |= (self.cells[k] & 3) << (2 * (k % 4));
        }
        out
    }

    /// Unpack cells written by [`Neighbourhood::pack`].
    pub fn unpack(packed: &[u8; PACKED]) -> Neighbourhood {
        let mut cells = [EMPTY; POINTS];
        for (k, cell) in cells.iter_mut().enumerate() {
            *cell = (packed[k / 4] >> (2 * (k % 4))) & 3;
        }
        Neighbourhood { cells }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_nest_from_the_3x3_square() {
        assert_eq!(SIZE_POINTS, [8, 12, 20, 28, 36, 48, 60, 72]);
        for &(dx, dy) in &OFFSETS[..8] {
            assert!(dx.abs() <= 1 && dy.abs() <= 1);
        }
    }

    #[test]
    fn symmetries_are_permutations_that_keep_sizes() {
        for perm in &PERMUTATION {
            let mut seen = [false; POINTS];
            for (k, &j) in perm.iter().enumerate() {
                assert!(!seen[j as usize]);
                seen[j as usize] = true;
                let (a, b) = (OFFSETS[k], OFFSETS[j as usize]);
                assert_eq!(
                    distance(a.0.into(), a.1.into()),
                    distance(b.0.into(), b.1.into())
                );
            }
        }
    }
}
