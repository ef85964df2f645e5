//! Learned answers to the last move (issue 14, item 3: Pachi's moggy with
//! learned patterns). For each 3x3 neighbourhood of an empty point next to
//! the last move, seen by the side to move, the chance that a strong
//! player, with that point free to play, answered there: learned from game
//! records by `kosumi patterns local` (counts, not gammas: the chance is
//! what a playout needs to decide, point by point, whether to answer).
//!
//! The heavy policy with a table lent ([`super::Aids::local`]) visits the
//! eight points around the last move from a random one on and plays the
//! first it accepts at its chance ([`answer`]), in place of the hand-made
//! shapes of [`crate::shape`].
//!
//! File layout (little-endian), read in place from the caller's bytes:
//!
//! | bytes | what |
//! |---|---|
//! | 0..8 | [`MAGIC`] |
//! | 8..12 | format version ([`VERSION`]) |
//! | 12..16 | CRC-32 (IEEE) of every byte from 16 on |
//! | 16.. | [`CODES`] chances, one byte each (255 = always), indexed by the code of [`crate::shape::code`] with the side to move's stones as black |

use rand_core::RngCore;

use crate::board::Board;
use crate::geometry::{Cell, Color, Point};
use crate::pattern::model::{crc32, has_magic, u32_at};
use crate::rng;
use crate::shape;

/// The file's first bytes.
pub const MAGIC: [u8; 8] = *b"KOSUMILA";
/// The format version this build reads and writes.
pub const VERSION: u32 = 1;
/// Bytes before the chances.
pub const HEADER: usize = 16;
/// Neighbourhood codes: 8 cells of 2 bits.
pub const CODES: usize = 1 << 16;
/// Bytes of a file.
pub const BYTES: usize = HEADER + CODES;

/// Why bytes are not a table of local answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LocalError {
    /// Not [`BYTES`] long: truncated or something else.
    Length(usize),
    /// The magic bytes are wrong.
    NotATable,
    /// Another format version.
    Version(u32),
    /// The checksum does not match: the file is corrupt.
    Checksum {
        /// The header's CRC-32.
        expected: u32,
        /// The CRC-32 of the bytes.
        found: u32,
    },
}

impl core::fmt::Display for LocalError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            LocalError::Length(n) => write!(f, "{n} bytes, a table of local answers has {BYTES}"),
            LocalError::NotATable => write!(f, "not a kosumi table of local answers"),
            LocalError::Version(v) => {
                write!(
                    f,
                    "local answers format version {v}; this build reads {VERSION}"
                )
            }
            LocalError::Checksum { expected, found } => write!(
                f,
                "local answers checksum {found:08x}, header says {expected:08x} (corrupt)"
            ),
        }
    }
}

/// A checked table of local answers: a view of the caller's bytes.
#[derive(Clone, Copy, Debug)]
pub struct LocalAnswers<'a> {
    chances: &'a [u8],
}

impl<'a> LocalAnswers<'a> {
    /// Check `bytes` and return the table they hold.
    ///
    /// # Errors
    /// A [`LocalError`]: a wrong length, magic or version, a bad checksum.
    pub const fn parse(bytes: &'a [u8]) -> Result<LocalAnswers<'a>, LocalError> {
        if bytes.len() != BYTES {
            return Err(LocalError::Length(bytes.len()));
        }
        if !has_magic(bytes, &MAGIC) {
            return Err(LocalError::NotATable);
        }
        let version = u32_at(bytes, 8);
        if version != VERSION {
            return Err(LocalError::Version(version));
        }
        let expected = u32_at(bytes, 12);
        let found = crc32(bytes, HEADER);
        if expected != found {
            return Err(LocalError::Checksum { expected, found });
        }
        let (_, chances) = bytes.split_at(HEADER);
        Ok(LocalAnswers { chances })
    }

    /// Return the chance (out of 255) of answering at a point whose
    /// neighbourhood, seen by the side to move, has code `code`.
    #[inline(always)]
    pub fn chance(&self, code: u16) -> u8 {
        self.chances[usize::from(code)]
    }
}

/// Write the file of the chances `chances` (one per code) into `out`.
pub fn encode(chances: &[u8; CODES], out: &mut [u8; BYTES]) {
    out[..8].copy_from_slice(&MAGIC);
    out[8..12].copy_from_slice(&VERSION.to_le_bytes());
    out[HEADER..].copy_from_slice(chances);
    let crc = crc32(out, HEADER);
    out[12..16].copy_from_slice(&crc.to_le_bytes());
}

/// Return the code of `p`'s neighbourhood as `c` sees it: [`shape::code`]
/// with `c`'s stones as black and the opponent's as white.
#[inline(always)]
pub fn code_for(board: &Board, p: Point, c: Color) -> u16 {
    let code = shape::code(board, p);
    match c {
        Color::Black => code,
        // A cell's high bit is clear for a stone (black 0, white 1): flip
        // the low bit of exactly those.
        Color::White => code ^ (!(code >> 1) & 0x5555),
    }
}

/// Return the answer to `last` for `c`: the eight points around it, from a
/// random one on, each empty one accepted at its chance; the first
/// accepted that `ok` allows (legal, no bad self-atari: the caller's
/// checks).
#[inline]
pub fn answer<R: RngCore>(
    board: &Board,
    last: Point,
    c: Color,
    local: &LocalAnswers<'_>,
    rng: &mut R,
    mut ok: impl FnMut(Point) -> bool,
) -> Option<Point> {
    let around = board.geometry().around(last);
    let start = rng::below(rng, 8) as usize;
    for k in 0..8 {
        let q = around[(start + k) & 7];
        if board.at(q) != Cell::Empty {
            continue;
        }
        let chance = u32::from(local.chance(code_for(board, q, c)));
        if chance > 0 && rng::below(rng, 255) < chance && ok(q) {
            return Some(q);
        }
    }
    None
}
