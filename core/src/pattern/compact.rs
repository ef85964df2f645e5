//! A model's patterns for flash: one entry a pattern, sorted, read in
//! place (no index in RAM).
//!
//! The play-time index of [`super::index`] enters each pattern under its
//! eight orientations' hashes in a half-empty table of 16-byte slots: 256
//! bytes a pattern, which a microcontroller's RAM cannot hold and its
//! flash would rather not. A compact table keeps each pattern once, under
//! its *canonical* hash (the least of its eight orientations',
//! [`Neighbourhood::canonical`](super::Neighbourhood::canonical)), cut to
//! its high 32 bits, with its gamma: 8 bytes a pattern, sorted by key, so
//! a look-up is a binary search. Play then hashes a move's neighbourhood
//! in all eight orientations and searches for the least hash, one size at
//! a time ([`super::Patterns::compact`]). Two shapes whose canonical
//! hashes agree in 32 bits are one entry: with a few thousand patterns a
//! look-up meets a wrong one about once in a million.
//!
//! The host writes a table from a model (`kosumi patterns compact`): the
//! model's tactical gammas and its patterns up to a size, nested as the
//! model's are (a pattern's next smaller shape is an entry too).
//!
//! Layout (little-endian):
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | magic `KOSUMIPC` |
//! | 8..12 | format version ([`VERSION`]) |
//! | 12..16 | CRC-32 (IEEE) of every byte from 16 on |
//! | 16..20 | tactical gammas: [`TACTICAL_GAMMAS`] |
//! | 20..24 | entries `n` |
//! | 24 | smallest pattern size ([`MIN_SIZE`]) |
//! | 25 | largest pattern size of an entry |
//! | 26..32 | zero |
//! | 32.. | the tactical gammas, `f32` each, groups in order |
//! | then | `n` entries of [`ENTRY`] bytes: key (`u32`), gamma (`f32`), keys strictly rising |
//!
//! [`Compact::parse`] is a `const fn`, as [`Model::parse`](super::Model::parse):
//! a table built into a firmware with `include_bytes!` is checked when
//! the firmware is compiled.

use super::feature::TACTICAL_GAMMAS;
use super::model::{check_start, check_whole, crc32, f32_at, good_gamma, u32_at, ModelError};
use super::spatial::{MAX_SIZE, MIN_SIZE};

/// The file's first bytes.
pub const MAGIC: [u8; 8] = *b"KOSUMIPC";
/// The format version this build reads and writes.
pub const VERSION: u32 = 1;
/// Bytes of the header.
pub const HEADER: usize = 32;
/// Bytes of one entry.
pub const ENTRY: usize = 8;

/// Return the key of a pattern of canonical hash `canonical`.
pub const fn key(canonical: u64) -> u32 {
    (canonical >> 32) as u32
}

/// Return the bytes of a table of `entries` patterns.
pub const fn encoded_len(entries: usize) -> usize {
    HEADER + 4 * TACTICAL_GAMMAS + ENTRY * entries
}

/// A parsed compact table: a view of the caller's bytes.
#[derive(Clone, Copy, Debug)]
pub struct Compact<'a> {
    bytes: &'a [u8],
    entries: usize,
    max_size: usize,
}

impl<'a> Compact<'a> {
    /// Check `bytes` and return the table they hold.
    ///
    /// # Errors
    /// A [`ModelError`] saying what is wrong: a short, foreign, other
    /// version or other layout file, a truncated or corrupt one, a gamma
    /// that is not a positive number, keys out of order
    /// ([`ModelError::KeyOrder`]: the first entry out of order).
    pub const fn parse(bytes: &'a [u8]) -> Result<Compact<'a>, ModelError> {
        if let Err(e) = check_start(bytes, HEADER, &MAGIC, VERSION) {
            return Err(e);
        }
        let max_size = bytes[25] as usize;
        if bytes[24] as usize != MIN_SIZE || max_size < MIN_SIZE || max_size > MAX_SIZE {
            return Err(ModelError::Layout);
        }
        let entries = u32_at(bytes, 20) as usize;
        if let Err(e) = check_whole(bytes, encoded_len(entries)) {
            return Err(e);
        }
        let table = Compact {
            bytes,
            entries,
            max_size,
        };
        let mut g = 0;
        while g < TACTICAL_GAMMAS {
            if !good_gamma(table.tactical(g)) {
                return Err(ModelError::BadGamma(g));
            }
            g += 1;
        }
        let mut i = 0;
        while i < entries {
            if !good_gamma(table.gamma(i)) {
                return Err(ModelError::BadGamma(TACTICAL_GAMMAS + i));
            }
            if i > 0 && table.key(i) <= table.key(i - 1) {
                return Err(ModelError::KeyOrder(i));
            }
            i += 1;
        }
        Ok(table)
    }

    /// Return the number of patterns.
    pub const fn entries(&self) -> usize {
        self.entries
    }

    /// Return the largest pattern size of an entry.
    pub const fn max_size(&self) -> usize {
        self.max_size
    }

    /// Return tactical gamma `i` ([`super::feature::OFFSET`] order).
    pub const fn tactical(&self, i: usize) -> f32 {
        f32_at(self.bytes, HEADER + 4 * i)
    }

    const fn entry_at(&self, i: usize) -> usize {
        HEADER + 4 * TACTICAL_GAMMAS + ENTRY * i
    }

    const fn key(&self, i: usize) -> u32 {
        u32_at(self.bytes, self.entry_at(i))
    }

    const fn gamma(&self, i: usize) -> f32 {
        f32_at(self.bytes, self.entry_at(i) + 4)
    }

    /// Return the entry number and gamma of the pattern of canonical hash
    /// `canonical`, if there is one.
    pub fn find(&self, canonical: u64) -> Option<(usize, f32)> {
        let k = key(canonical);
        let entries = &self.bytes[self.entry_at(0)..];
        // One bounds check an entry read, not one a byte.
        let entry = |i: usize| -> [u8; ENTRY] {
            let mut e = [0u8; ENTRY];
            e.copy_from_slice(&entries[i * ENTRY..(i + 1) * ENTRY]);
            e
        };
        let (mut lo, mut hi) = (0, self.entries);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let e = entry(mid);
            let m = u32::from_le_bytes([e[0], e[1], e[2], e[3]]);
            if m < k {
                lo = mid + 1;
            } else if m > k {
                hi = mid;
            } else {
                return Some((mid, f32::from_le_bytes([e[4], e[5], e[6], e[7]])));
            }
        }
        None
    }
}

/// Write a table of `tactical` gammas and `patterns` (canonical hash, size,
/// gamma) into `out`, which must be [`encoded_len`] bytes long; the entries
/// are sorted here, and the header's checksum is filled in last.
///
/// # Errors
/// [`ModelError::Layout`] for a wrong number of tactical gammas or a size
/// out of range, [`ModelError::Length`] for an `out` of the wrong length,
/// [`ModelError::KeyOrder`] for two patterns of one key (the second's
/// number in key order).
pub fn encode(
    tactical: &[f32],
    patterns: &mut [(u64, usize, f32)],
    out: &mut [u8],
) -> Result<(), ModelError> {
    if tactical.len() != TACTICAL_GAMMAS {
        return Err(ModelError::Layout);
    }
    let n = patterns.len();
    if out.len() != encoded_len(n) {
        return Err(ModelError::Length {
            expected: encoded_len(n),
            found: out.len(),
        });
    }
    patterns.sort_unstable_by_key(|&(h, _, _)| key(h));
    let mut max_size = MIN_SIZE;
    for (i, &(h, size, _)) in patterns.iter().enumerate() {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(ModelError::Layout);
        }
        if i > 0 && key(patterns[i - 1].0) == key(h) {
            return Err(ModelError::KeyOrder(i));
        }
        max_size = max_size.max(size);
    }
    out.fill(0);
    out[..8].copy_from_slice(&MAGIC);
    out[8..12].copy_from_slice(&VERSION.to_le_bytes());
    out[16..20].copy_from_slice(&(TACTICAL_GAMMAS as u32).to_le_bytes());
    out[20..24].copy_from_slice(&(n as u32).to_le_bytes());
    out[24] = MIN_SIZE as u8;
    out[25] = max_size as u8;
    for (i, g) in tactical.iter().enumerate() {
        let at = HEADER + 4 * i;
        out[at..at + 4].copy_from_slice(&g.to_le_bytes());
    }
    for (i, &(h, _, gamma)) in patterns.iter().enumerate() {
        let at = HEADER + 4 * TACTICAL_GAMMAS + ENTRY * i;
        out[at..at + 4].copy_from_slice(&key(h).to_le_bytes());
        out[at + 4..at + 8].copy_from_slice(&gamma.to_le_bytes());
    }
    let crc = crc32(out, 16);
    out[12..16].copy_from_slice(&crc.to_le_bytes());
    Ok(())
}
