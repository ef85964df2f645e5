//! Where handicap stones go (GTP v2 §4.1.1), for `fixed_handicap` and
//! `place_free_handicap`.
//!
//! Fixed placement puts the stones on the star points, 4th line on boards
//! of 13 and up, 3rd line from 7 to 12, in the order of the GTP table
//! (for 19x19: D4 Q16 D16 Q4, then K10 for an odd count, D10 Q10, K4 K16).
//! Odd boards from 9 up take 2 to 9 stones, even boards and 7x7 2 to 4,
//! boards under 7 none. Free placement uses the same points (so it may
//! place fewer stones than asked, as the protocol allows); on boards under
//! 7 it falls back to points two lines apart, none touching.

use heapless::Vec;

use crate::geometry::{Geometry, Point};

/// The most stones a placement here gives.
pub const MAX_STONES: usize = 9;

/// Handicap points, in placement order.
pub type Points = Vec<Point, MAX_STONES>;

/// Return the largest fixed handicap on `geo`'s board (0 for none).
pub fn max_fixed(geo: Geometry) -> usize {
    match geo.size() {
        n if n < 7 => 0,
        7 => 4,
        n if n % 2 == 0 => 4,
        _ => MAX_STONES,
    }
}

/// Return the fixed handicap points for `n` stones, or `None` if `n` is not
/// allowed on this board.
pub fn fixed(geo: Geometry, n: usize) -> Option<Points> {
    if n < 2 || n > max_fixed(geo) {
        return None;
    }
    let size = geo.size();
    let lo = if size >= 13 { 3 } else { 2 };
    let (hi, mid) = (size - 1 - lo, size / 2);
    let mut xy: Vec<(usize, usize), MAX_STONES> = Vec::new();
    let mut add = |points: &[(usize, usize)]| {
        for &p in points {
            let _ = xy.push(p);
        }
    };
    add(&[(lo, lo), (hi, hi)]);
    if n >= 3 {
        add(&[(lo, hi)]);
    }
    if n >= 4 {
        add(&[(hi, lo)]);
    }
    if n >= 6 {
        add(&[(lo, mid), (hi, mid)]);
    }
    if n >= 8 {
        add(&[(mid, lo), (mid, hi)]);
    }
    if n >= 5 && n % 2 == 1 {
        add(&[(mid, mid)]);
    }
    Some(xy.iter().map(|&(x, y)| geo.point(x, y)).collect())
}

/// Return the points for a free handicap of `n` stones (possibly fewer),
/// or `None` if `n` is below 2 or would fill the board.
pub fn free(geo: Geometry, n: usize) -> Option<Points> {
    let size = geo.size();
    if n < 2 || n >= size * size {
        return None;
    }
    let max = max_fixed(geo);
    if max > 0 {
        return fixed(geo, n.min(max));
    }
    // Boards under 7: at most 3x3 points on odd lines.
    let points: Points = (0..size * size)
        .map(|i| (i % size, i / size))
        .filter(|&(x, y)| x % 2 == 1 && y % 2 == 1)
        .map(|(x, y)| geo.point(x, y))
        .take(n.min(MAX_STONES))
        .collect();
    (points.len() >= 2).then_some(points)
}
