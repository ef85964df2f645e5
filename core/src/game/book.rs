//! An opening book in read-only memory: the positions of a game's first
//! moves, each with the move a deep search of the host chose there (the
//! seed's "deeply searched moves near the root stored permanently"), read
//! in place from the caller's bytes: `include_bytes!` in a firmware's
//! flash, checked when the firmware is compiled ([`Book::parse`] is a
//! `const fn`).
//!
//! Layout (little-endian):
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | magic `KOSUMIOB` |
//! | 8..12 | format version ([`VERSION`]) |
//! | 12..16 | CRC-32 (IEEE) of every byte from 16 on |
//! | 16 | board size |
//! | 17..20 | zero |
//! | 20..24 | entries `n` |
//! | 24.. | `n` records of [`RECORD`] bytes, keys strictly ascending |
//!
//! A record: the position's [`key`] (`u64`), then the move's column and
//! row (`u8` each, from 0; row 0 is the bottom row, as in
//! [`Geometry::point`]). The key hashes the board size, the side to move
//! and every point; the ko point is not part of it, so a book move is
//! checked legal before it is played (the caller's record does).

use crate::board::Board;
use crate::geometry::{Cell, Color, Geometry, Point};
use crate::pattern::model::{crc32, has_magic, u32_at};

/// The file's first bytes.
pub const MAGIC: [u8; 8] = *b"KOSUMIOB";
/// The format version this build reads and writes.
pub const VERSION: u32 = 1;
/// Bytes of the header.
pub const HEADER: usize = 24;
/// Bytes of one record.
pub const RECORD: usize = 10;

/// Why bytes are not a book this build can use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BookError {
    /// Shorter than a header.
    TooShort,
    /// The magic bytes are wrong: not a kosumi opening book.
    NotABook,
    /// A format version this build does not read.
    Version(u32),
    /// The length does not match the header (a truncated or padded file).
    Length,
    /// The checksum does not match: the file is corrupt.
    Checksum,
    /// Record `i`'s key is not above the one before it, or its move is off
    /// the board.
    Record(usize),
    /// The output buffer is too small for the book.
    NoRoom,
}

/// An opening book: a view of the caller's bytes.
#[derive(Clone, Copy, Debug)]
pub struct Book<'a> {
    bytes: &'a [u8],
    size: usize,
    len: usize,
}

const fn u64_at(b: &[u8], i: usize) -> u64 {
    let mut v = 0u64;
    let mut k = 8;
    while k > 0 {
        k -= 1;
        v = (v << 8) | b[i + k] as u64;
    }
    v
}

/// Return the bytes of a book of `entries` records.
pub const fn encoded_len(entries: usize) -> usize {
    HEADER + RECORD * entries
}

impl<'a> Book<'a> {
    /// Return the book in `bytes`, checked whole: magic, version, length,
    /// checksum, keys in order and moves on the board.
    ///
    /// # Errors
    /// The [`BookError`] that says what is wrong.
    pub const fn parse(bytes: &'a [u8]) -> Result<Book<'a>, BookError> {
        if bytes.len() < HEADER {
            return Err(BookError::TooShort);
        }
        if !has_magic(bytes, &MAGIC) {
            return Err(BookError::NotABook);
        }
        let version = u32_at(bytes, 8);
        if version != VERSION {
            return Err(BookError::Version(version));
        }
        let len = u32_at(bytes, 20) as usize;
        if bytes.len() != encoded_len(len) {
            return Err(BookError::Length);
        }
        if u32_at(bytes, 12) != crc32(bytes, 16) {
            return Err(BookError::Checksum);
        }
        let size = bytes[16] as usize;
        let mut r = 0;
        while r < len {
            let at = HEADER + RECORD * r;
            if (r > 0 && u64_at(bytes, at) <= u64_at(bytes, at - RECORD))
                || bytes[at + 8] as usize >= size
                || bytes[at + 9] as usize >= size
            {
                return Err(BookError::Record(r));
            }
            r += 1;
        }
        Ok(Book { bytes, size, len })
    }

    /// Return the board size the book is for.
    pub const fn size(&self) -> usize {
        self.size
    }

    /// Return the number of positions in the book.
    pub const fn len(&self) -> usize {
        self.len
    }

    /// Query whether the book holds no position.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Return the book's move in `board`'s position for its side to move,
    /// if the book has the position.
    pub fn lookup(&self, board: &Board) -> Option<Point> {
        if board.size() != self.size {
            return None;
        }
        let k = key(board);
        let (mut lo, mut hi) = (0, self.len);
        while lo < hi {
            let mid = (lo + hi) / 2;
            let at = HEADER + RECORD * mid;
            let found = u64_at(self.bytes, at);
            if found == k {
                let (x, y) = (self.bytes[at + 8], self.bytes[at + 9]);
                return Some(board.geometry().point(usize::from(x), usize::from(y)));
            }
            if found < k {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        None
    }
}

/// Write a book of `entries` (key, column, row) for boards of `size` into
/// `out` and return its length; the entries are sorted by key here.
///
/// # Errors
/// [`BookError::NoRoom`] when `out` is too small; [`BookError::Record`]
/// for two entries of one key or a move off the board.
pub fn write(
    size: usize,
    entries: &mut [(u64, u8, u8)],
    out: &mut [u8],
) -> Result<usize, BookError> {
    let n = encoded_len(entries.len());
    if out.len() < n || size > usize::from(u8::MAX) || entries.len() > u32::MAX as usize {
        return Err(BookError::NoRoom);
    }
    entries.sort_unstable_by_key(|e| e.0);
    let out = &mut out[..n];
    out[..8].copy_from_slice(&MAGIC);
    out[8..12].copy_from_slice(&VERSION.to_le_bytes());
    out[16] = size as u8;
    out[17..20].fill(0);
    out[20..24].copy_from_slice(&(entries.len() as u32).to_le_bytes());
    for (r, &(k, x, y)) in entries.iter().enumerate() {
        let at = HEADER + RECORD * r;
        out[at..at + 8].copy_from_slice(&k.to_le_bytes());
        out[at + 8] = x;
        out[at + 9] = y;
    }
    let crc = crc32(out, 16);
    out[12..16].copy_from_slice(&crc.to_le_bytes());
    match Book::parse(out) {
        Ok(_) => Ok(n),
        Err(e) => Err(e),
    }
}

/// Return the book key of `board`'s position with its side to move:
/// FNV-1a (64 bits) of the size, the side to move and every point, row
/// by row from the bottom (independent of the board's Zobrist keys and
/// of how its points are laid out in memory).
pub fn key(board: &Board) -> u64 {
    let geo: Geometry = board.geometry();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |b: u8| {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    };
    eat(board.size() as u8);
    eat(match board.to_play() {
        Color::Black => 0,
        Color::White => 1,
    });
    for p in geo.points() {
        eat(match board.at(p) {
            Cell::Black => 1,
            Cell::White => 2,
            _ => 0,
        });
    }
    h
}
