//! The eight symmetries of the 19x19 board and the position hashes built
//! on them.
//!
//! Points are numbered `y * 19 + x` with `y` from the top (SGF order). A
//! symmetry `t` (0..8) transposes when bit 2 is set, then mirrors `x` (bit
//! 0) and `y` (bit 1); `t = 0` is the identity. The hash of a position is
//! the XOR of the core's Zobrist keys ([`kosumi_core::zobrist::stone`]) of
//! its stones; [`KEYS`] holds, for each symmetry, the key of every point
//! *after* the symmetry, so one XOR per symmetry keeps the hashes of all
//! eight transformed positions up to date. The canonical hash is their
//! minimum (mixed by a bijection so its bits are uniform), the same for all
//! eight images of a position. With `t = 0` the
//! hash equals the core board's `position_hash`.

use std::sync::LazyLock;

use kosumi_core::geometry::{Color, Geometry};
use kosumi_core::zobrist;

/// Board size of the database.
pub const N: usize = 19;
/// Points on the board.
pub const POINTS: usize = N * N;
/// Number of symmetries.
pub const SYMS: usize = 8;

/// Return `(x, y)` mapped by symmetry `t`.
pub const fn apply(t: usize, x: usize, y: usize) -> (usize, usize) {
    apply_on(t, N, x, y)
}

/// Return `(x, y)` of a board of `n` lines mapped by symmetry `t`: bit 2
/// swaps the axes, then bit 0 mirrors the columns and bit 1 the rows.
pub const fn apply_on(t: usize, n: usize, x: usize, y: usize) -> (usize, usize) {
    let (mut x, mut y) = if t & 4 != 0 { (y, x) } else { (x, y) };
    if t & 1 != 0 {
        x = n - 1 - x;
    }
    if t & 2 != 0 {
        y = n - 1 - y;
    }
    (x, y)
}

const fn build_map() -> [[u16; POINTS]; SYMS] {
    let mut m = [[0u16; POINTS]; SYMS];
    let mut t = 0;
    while t < SYMS {
        let mut p = 0;
        while p < POINTS {
            let (x, y) = apply(t, p % N, p / N);
            m[t][p] = (y * N + x) as u16;
            p += 1;
        }
        t += 1;
    }
    m
}

/// `MAP[t][p]`: the point `p` goes to under symmetry `t`.
pub static MAP: [[u16; POINTS]; SYMS] = build_map();

/// Return the symmetry that undoes `t`.
pub fn inverse(t: usize) -> usize {
    (0..SYMS)
        .find(|&u| MAP[u][MAP[t][1] as usize] == 1 && MAP[u][MAP[t][N] as usize] == N as u16)
        .unwrap_or(0)
}

/// Zobrist keys per symmetry, point and colour (see the module note).
pub struct Keys(Box<[[[u64; 2]; POINTS]; SYMS]>);

/// The keys, computed once from the core's table.
pub static KEYS: LazyLock<Keys> = LazyLock::new(|| {
    let geo = Geometry::new(N).expect("the core supports 19x19");
    let mut k = Box::new([[[0u64; 2]; POINTS]; SYMS]);
    for (t, row) in k.iter_mut().enumerate() {
        for (p, key) in row.iter_mut().enumerate() {
            let q = MAP[t][p] as usize;
            let pt = geo.point(q % N, N - 1 - q / N);
            *key = [
                zobrist::stone(pt, Color::Black),
                zobrist::stone(pt, Color::White),
            ];
        }
    }
    Keys(k)
});

/// Return `z` mixed by a bijection (SplitMix64's finaliser), so the top
/// bits of a least-of-several hash are uniform again.
pub fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Keys {
    /// Return the key of a stone of colour `c` (0 black, 1 white) at `p`
    /// after symmetry `t`.
    #[inline]
    pub fn get(&self, t: usize, p: usize, c: usize) -> u64 {
        self.0[t][p][c]
    }
}

/// The eight running hashes of one position and its images.
#[derive(Clone, Copy, Debug, Default)]
pub struct SymHash(pub [u64; SYMS]);

impl SymHash {
    /// Add or remove a stone of colour `c` (0 black, 1 white) at `p`.
    #[inline]
    pub fn toggle(&mut self, p: usize, c: usize) {
        let k = &KEYS.0;
        for t in 0..SYMS {
            self.0[t] ^= k[t][p][c];
        }
    }

    /// Return the canonical hash: the least of the eight, mixed (a
    /// bijection) so that its top bits, which pick the shard, are uniform
    /// again; the least of eight keys is small far more often than not.
    #[inline]
    pub fn canonical(&self) -> u64 {
        mix(self.0.iter().copied().min().unwrap_or(0))
    }

    /// Return the hashes of a whole position (`cells`: 0 empty, 1 black, 2 white).
    pub fn of(cells: &[u8; POINTS]) -> SymHash {
        let mut h = SymHash::default();
        for (p, &c) in cells.iter().enumerate() {
            if c == 1 || c == 2 {
                h.toggle(p, c as usize - 1);
            }
        }
        h
    }
}

/// Return `cells` mapped by symmetry `t`.
pub fn transform(cells: &[u8; POINTS], t: usize) -> [u8; POINTS] {
    let mut out = [0u8; POINTS];
    for (p, &c) in cells.iter().enumerate() {
        out[MAP[t][p] as usize] = c;
    }
    out
}

/// Return `cells` with black and white exchanged.
pub fn swap_colours(cells: &[u8; POINTS]) -> [u8; POINTS] {
    cells.map(|c| match c {
        1 => 2,
        2 => 1,
        c => c,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eight_distinct_symmetries_with_inverses() {
        for t in 0..SYMS {
            let u = inverse(t);
            for p in 0..POINTS {
                assert_eq!(MAP[u][MAP[t][p] as usize] as usize, p);
            }
            assert!(MAP[..t].iter().all(|m| *m != MAP[t]));
        }
    }

    #[test]
    fn canonical_hash_is_the_same_for_all_images() {
        let mut cells = [0u8; POINTS];
        cells[3 * N + 3] = 1;
        cells[3 * N + 15] = 2;
        cells[16 * N + 2] = 1;
        let h = SymHash::of(&cells).canonical();
        for t in 0..SYMS {
            assert_eq!(SymHash::of(&transform(&cells, t)).canonical(), h);
        }
        assert_ne!(SymHash::of(&swap_colours(&cells)).canonical(), h);
    }
}
