//! 3x3 shape patterns (Michi's `pat3src`, the "Mogo" patterns Pachi also
//! uses): hane, cuts, katatsuke and edge moves that are usually good.
//!
//! A point's neighbourhood is its 8 neighbours' cells packed 2 bits each
//! (the [`Cell`] values: black 0, white 1, empty 2, off the board 3) into a
//! 16-bit code, top row first:
//!
//! ```text
//!   0 1 2        bits  1..0  3..2  5..4
//!   3 . 4              7..6        9..8
//!   5 6 7             11..10 13..12 15..14
//! ```
//!
//! [`PATTERNS`] is a bitset over all 65,536 codes (8 KiB, in flash on the
//! firmware), computed at compile time from [`SOURCE`]: every pattern in
//! its 8 symmetries and with colours swapped, wildcards expanded. Matching
//! is one load and one bit test. As in Michi the table does not depend on
//! who is to move: a shape is good for either side to play.
//!
//! Pattern letters: `X` and `O` are the two colours, `x` is anything but
//! `X` (`O`, empty or off the board), `o` anything but `O`, `.` empty, ` `
//! off the board, `?` anything. The centre is the (empty) move.

use crate::board::Board;
use crate::geometry::{Cell, Point};

/// The patterns, three rows each (Michi's `pat3src`, one disabled there
/// left out too).
pub const SOURCE: [[&str; 3]; 13] = [
    ["XOX", "...", "???"], // hane: enclosing hane
    ["XO.", "...", "?.?"], // hane: non-cutting hane
    ["XO?", "X..", "x.?"], // hane: magari
    [".O.", "X..", "..."], // katatsuke or diagonal attachment
    ["XO?", "O.o", "?o?"], // cut: unprotected cut
    ["XO?", "O.X", "???"], // cut: peeped cut
    ["?X?", "O.O", "ooo"], // cut: de
    ["OX?", "o.O", "???"], // cut keima
    ["X.?", "O.?", "   "], // edge: chase
    ["OX?", "X.O", "   "], // edge: block the side cut
    ["?X?", "x.O", "   "], // edge: block the side connection
    ["?XO", "x.x", "   "], // edge: sagari
    ["?OX", "X.O", "   "], // edge: cut
];

/// The codes of every neighbourhood some pattern matches, one bit each.
pub static PATTERNS: [u64; 1024] = build();

/// Return the set of cell values (bit `v` for value `v`) `letter` allows.
const fn allowed(letter: u8) -> u8 {
    const B: u8 = 1 << Cell::Black as u8;
    const W: u8 = 1 << Cell::White as u8;
    const E: u8 = 1 << Cell::Empty as u8;
    const OFF: u8 = 1 << Cell::Off as u8;
    match letter {
        b'X' => B,
        b'O' => W,
        b'x' => W | E | OFF,
        b'o' => B | E | OFF,
        b'.' => E,
        b' ' => OFF,
        b'?' => B | W | E | OFF,
        _ => panic!("bad pattern letter"),
    }
}

/// Return the 3x3 grid position (row * 3 + column) that symmetry `t`
/// (bit 0: transpose, bit 1: flip rows, bit 2: flip columns) sends `(r, c)`
/// to.
const fn transform(t: usize, r: usize, c: usize) -> usize {
    let (mut r, mut c) = if t & 1 != 0 { (c, r) } else { (r, c) };
    if t & 2 != 0 {
        r = 2 - r;
    }
    if t & 4 != 0 {
        c = 2 - c;
    }
    r * 3 + c
}

/// Set the bit of every code whose neighbour `i..8` cells lie in `sets`,
/// with the cells of neighbours `..i` already in `code`.
const fn expand(table: &mut [u64; 1024], sets: &[u8; 8], i: usize, code: usize) {
    if i == 8 {
        table[code >> 6] |= 1 << (code & 63);
        return;
    }
    let mut v = 0;
    while v < 4 {
        if sets[i] & (1 << v) != 0 {
            expand(table, sets, i + 1, code | (v << (2 * i)));
        }
        v += 1;
    }
}

/// Compute [`PATTERNS`] from [`SOURCE`].
const fn build() -> [u64; 1024] {
    let mut table = [0u64; 1024];
    let mut p = 0;
    while p < SOURCE.len() {
        let mut t = 0;
        while t < 8 {
            let mut swap = 0;
            while swap < 2 {
                // The allowed cells of each neighbour of this variant.
                let mut sets = [0u8; 8];
                let mut r = 0;
                while r < 3 {
                    let row = SOURCE[p][r].as_bytes();
                    assert!(row.len() == 3, "a pattern row has 3 letters");
                    let mut c = 0;
                    while c < 3 {
                        let at = transform(t, r, c);
                        if at == 4 {
                            assert!(row[c] == b'.', "the centre is the empty move");
                        } else {
                            let mut s = allowed(row[c]);
                            if swap == 1 {
                                // Exchange the black and white bits.
                                s = (s & !3) | ((s & 1) << 1) | ((s >> 1) & 1);
                            }
                            let i = if at < 4 { at } else { at - 1 };
                            sets[i] = s;
                        }
                        c += 1;
                    }
                    r += 1;
                }
                expand(&mut table, &sets, 0, 0);
                swap += 1;
            }
            t += 1;
        }
        p += 1;
    }
    table
}

/// Return the neighbourhood code of `p` (see the module note).
#[inline]
pub fn code(board: &Board, p: Point) -> u16 {
    let s = board.geometry().stride() as u16;
    let (up, down) = (p.0 + s, p.0 - s);
    // Top row first: in the padded array "up" is north.
    let cells = [
        up - 1,
        up,
        up + 1,
        p.0 - 1,
        p.0 + 1,
        down - 1,
        down,
        down + 1,
    ];
    let mut code = 0u16;
    for (i, &q) in cells.iter().enumerate() {
        code |= (board.at(Point(q)) as u16) << (2 * i);
    }
    code
}

/// Query whether a pattern matches the neighbourhood of the empty point `p`.
#[inline]
pub fn matches(board: &Board, p: Point) -> bool {
    let c = usize::from(code(board, p));
    PATTERNS[c >> 6] & (1 << (c & 63)) != 0
}
