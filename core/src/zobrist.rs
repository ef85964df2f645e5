//! Zobrist keys, generated at compile time.
//!
//! One 64-bit key for each (point, colour), one for each point as the ko-ban
//! point, and one for "white to move". The keys come from splitmix64 with a
//! fixed seed in a `const fn`, so they are the same on every platform and in
//! every build, cost no start-up time and live in flash on the firmware.
//! Keys are indexed by the padded array index, whose stride depends on the
//! board size: a key belongs to one (board size, point) pair.
//!
//! The tactical cache (`000_*` seed) hashes only a region of the board and
//! marks relevant empty points, so an "empty and relevant" key per point is
//! provided too.

use crate::geometry::{Color, Point, MAX_POINTS};

/// Return the next splitmix64 output and advance `state`.
pub const fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The table of Zobrist keys.
pub struct Keys {
    stone: [[u64; 2]; MAX_POINTS],
    ko: [u64; MAX_POINTS],
    empty: [u64; MAX_POINTS],
    white_to_move: u64,
}

impl Keys {
    const fn generate(seed: u64) -> Keys {
        let mut s = seed;
        let mut stone = [[0u64; 2]; MAX_POINTS];
        let mut ko = [0u64; MAX_POINTS];
        let mut empty = [0u64; MAX_POINTS];
        let mut i = 0;
        while i < MAX_POINTS {
            stone[i][0] = splitmix64(&mut s);
            stone[i][1] = splitmix64(&mut s);
            ko[i] = splitmix64(&mut s);
            empty[i] = splitmix64(&mut s);
            i += 1;
        }
        let white_to_move = splitmix64(&mut s);
        Keys {
            stone,
            ko,
            empty,
            white_to_move,
        }
    }
}

/// The keys every kosumi build uses.
pub static KEYS: Keys = Keys::generate(0x6b6f_7375_6d69_2d31); // "kosumi-1"

/// Return the key of a stone of colour `c` at `p`.
#[inline(always)]
pub fn stone(p: Point, c: Color) -> u64 {
    KEYS.stone[p.idx()][c.idx()]
}

/// Return the key of `p` as the ko-ban point.
#[inline(always)]
pub fn ko(p: Point) -> u64 {
    KEYS.ko[p.idx()]
}

/// Return the key of `p` as an empty point inside a hashed region.
#[inline(always)]
pub fn empty(p: Point) -> u64 {
    KEYS.empty[p.idx()]
}

/// Return the key XORed in when white is to move.
#[inline(always)]
pub fn white_to_move() -> u64 {
    KEYS.white_to_move
}
