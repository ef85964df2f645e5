//! The model file: the gammas of a move-pattern model, versioned and
//! checksummed, read in place from the caller's bytes (a file read into a
//! buffer, or `include_bytes!` in flash) with no copy of the patterns.
//!
//! Layout (little-endian):
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | magic `KOSUMIPM` |
//! | 8..12 | format version ([`VERSION`]) |
//! | 12..16 | CRC-32 (IEEE) of every byte from 16 on |
//! | 16..20 | tactical gammas: [`TACTICAL_GAMMAS`] |
//! | 20..24 | spatial patterns `n` |
//! | 24, 25 | smallest and largest pattern size ([`MIN_SIZE`], [`MAX_SIZE`]) |
//! | 26..32 | zero |
//! | 32.. | the tactical gammas, `f32` each, groups in order |
//! | then | `n` pattern records of [`RECORD`] bytes |
//!
//! A pattern record: its size (byte 0), its cells packed 2 bits each in
//! [`OFFSETS`](super::spatial::OFFSETS) order (bytes 1..19, see
//! [`Neighbourhood::pack`]), a zero byte, and its gamma (`f32`, bytes
//! 20..24). Cells beyond the record's size are zero.
//!
//! [`Model::parse`] is a `const fn`: a model built into the binary with
//! `include_bytes!` can be checked (magic, version, layout, length,
//! checksum, gammas) when the binary is compiled.

use super::feature::TACTICAL_GAMMAS;
use super::spatial::{Neighbourhood, MAX_SIZE, MIN_SIZE, PACKED};

/// The file's first bytes.
pub const MAGIC: [u8; 8] = *b"KOSUMIPM";
/// The format version this build reads and writes.
pub const VERSION: u32 = 1;
/// Bytes of the header.
pub const HEADER: usize = 32;
/// Bytes of one pattern record.
pub const RECORD: usize = 24;

static_assertions::const_assert!(1 + PACKED + 1 + 4 == RECORD);

/// Why bytes are not a model this build can use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelError {
    /// Shorter than a header.
    TooShort,
    /// The magic bytes are wrong: not a kosumi pattern model.
    NotAModel,
    /// A format version this build does not read.
    Version(u32),
    /// The header's feature layout differs from this build's (tactical
    /// gammas, pattern sizes).
    Layout,
    /// The length does not match the header (a truncated or padded file).
    Length {
        /// Bytes the header announces.
        expected: usize,
        /// Bytes given.
        found: usize,
    },
    /// The checksum does not match: the file is corrupt.
    Checksum {
        /// The header's CRC-32.
        expected: u32,
        /// The bytes' CRC-32.
        found: u32,
    },
    /// A gamma is not a positive finite number (tactical gammas first,
    /// then the patterns').
    BadGamma(usize),
    /// A pattern record's size is out of range.
    BadRecord(usize),
    /// The caller's index storage is too small ([`super::Patterns::slots_for`]).
    IndexTooSmall,
    /// A pattern's next smaller size is not in the model (the patterns
    /// must be nested, see [`super::index`]).
    NotNested(usize),
    /// A compact table's entry whose key is not above the one before it
    /// (out of order, or two patterns whose keys clash).
    KeyOrder(usize),
}

impl core::fmt::Display for ModelError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ModelError::TooShort => write!(f, "too short for a pattern model"),
            ModelError::NotAModel => write!(f, "not a kosumi pattern model (bad magic)"),
            ModelError::Version(v) => {
                write!(f, "model format version {v}; this build reads {VERSION}")
            }
            ModelError::Layout => write!(f, "the model's feature layout is not this build's"),
            ModelError::Length { expected, found } => write!(
                f,
                "model length {found} bytes, header says {expected} (truncated?)"
            ),
            ModelError::Checksum { expected, found } => write!(
                f,
                "model checksum {found:08x}, header says {expected:08x} (corrupt)"
            ),
            ModelError::BadGamma(i) => write!(f, "gamma {i} is not a positive number"),
            ModelError::BadRecord(i) => write!(f, "pattern record {i} has a bad size"),
            ModelError::IndexTooSmall => write!(f, "pattern index storage too small"),
            ModelError::KeyOrder(i) => write!(
                f,
                "entry {i}: its key is not above the previous entry's (out of order, or a clash)"
            ),
            ModelError::NotNested(i) => {
                write!(
                    f,
                    "pattern record {i}: its smaller shape is not in the model"
                )
            }
        }
    }
}

/// The CRC-32 (IEEE, reflected) lookup table.
const CRC_TABLE: [u32; 256] = {
    let mut t = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
            k += 1;
        }
        t[i] = c;
        i += 1;
    }
    t
};

/// Return the CRC-32 (IEEE) of `bytes[from..]` (the pattern model's and
/// the opening book's checksum).
pub const fn crc32(bytes: &[u8], from: usize) -> u32 {
    let mut c = !0u32;
    let mut i = from;
    while i < bytes.len() {
        c = CRC_TABLE[((c ^ bytes[i] as u32) & 0xFF) as usize] ^ (c >> 8);
        i += 1;
    }
    !c
}

/// Query whether `bytes` begin with the 8 bytes of `magic` (the files the
/// core reads in place: the pattern model, the opening book, the local
/// answers).
pub(crate) const fn has_magic(bytes: &[u8], magic: &[u8; 8]) -> bool {
    if bytes.len() < 8 {
        return false;
    }
    let mut i = 0;
    while i < 8 {
        if bytes[i] != magic[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Return the little-endian `u32` at `b[i..i + 4]`.
pub(crate) const fn u32_at(b: &[u8], i: usize) -> u32 {
    u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]])
}

/// Return the little-endian `f32` at `b[i..i + 4]`.
pub(crate) const fn f32_at(b: &[u8], i: usize) -> f32 {
    f32::from_bits(u32_at(b, i))
}

/// Query whether `g` is a gamma: a positive finite number.
pub(crate) const fn good_gamma(g: f32) -> bool {
    g.is_finite() && g > 0.0
}

/// Check what the files of a model's family ([`Model`],
/// [`Compact`](super::Compact)) share: at least a `header`, their `magic`,
/// this build's `version` (bytes 8..12), and the count of tactical gammas
/// (bytes 16..20).
pub(crate) const fn check_start(
    bytes: &[u8],
    header: usize,
    magic: &[u8; 8],
    version: u32,
) -> Result<(), ModelError> {
    if bytes.len() < header {
        return Err(ModelError::TooShort);
    }
    if !has_magic(bytes, magic) {
        return Err(ModelError::NotAModel);
    }
    let found = u32_at(bytes, 8);
    if found != version {
        return Err(ModelError::Version(found));
    }
    if u32_at(bytes, 16) as usize != TACTICAL_GAMMAS {
        return Err(ModelError::Layout);
    }
    Ok(())
}

/// Check a file of a model's family is `expected` bytes long and that its
/// CRC-32 (bytes 12..16) is that of every byte from 16 on.
pub(crate) const fn check_whole(bytes: &[u8], expected: usize) -> Result<(), ModelError> {
    if bytes.len() != expected {
        return Err(ModelError::Length {
            expected,
            found: bytes.len(),
        });
    }
    let stored = u32_at(bytes, 12);
    let found = crc32(bytes, 16);
    if stored != found {
        return Err(ModelError::Checksum {
            expected: stored,
            found,
        });
    }
    Ok(())
}

/// Return the bytes of a model with `patterns` spatial patterns.
pub const fn encoded_len(patterns: usize) -> usize {
    HEADER + 4 * TACTICAL_GAMMAS + RECORD * patterns
}

/// A parsed model: a view of the caller's bytes.
#[derive(Clone, Copy, Debug)]
pub struct Model<'a> {
    bytes: &'a [u8],
    patterns: usize,
}

impl<'a> Model<'a> {
    /// Check `bytes` and return the model they hold.
    ///
    /// # Errors
    /// A [`ModelError`] saying what is wrong: a short, foreign, other
    /// version or other layout file, a truncated or corrupt one, a gamma
    /// that is not a positive number, a record with a bad size.
    pub const fn parse(bytes: &'a [u8]) -> Result<Model<'a>, ModelError> {
        if let Err(e) = check_start(bytes, HEADER, &MAGIC, VERSION) {
            return Err(e);
        }
        if bytes[24] as usize != MIN_SIZE || bytes[25] as usize != MAX_SIZE {
            return Err(ModelError::Layout);
        }
        let patterns = u32_at(bytes, 20) as usize;
        if let Err(e) = check_whole(bytes, encoded_len(patterns)) {
            return Err(e);
        }
        let mut g = 0;
        while g < TACTICAL_GAMMAS {
            if !good_gamma(f32_at(bytes, HEADER + 4 * g)) {
                return Err(ModelError::BadGamma(g));
            }
            g += 1;
        }
        let model = Model { bytes, patterns };
        let mut r = 0;
        while r < patterns {
            let at = model.record_at(r);
            let size = bytes[at] as usize;
            if size < MIN_SIZE || size > MAX_SIZE {
                return Err(ModelError::BadRecord(r));
            }
            if !good_gamma(f32_at(bytes, at + 20)) {
                return Err(ModelError::BadGamma(TACTICAL_GAMMAS + r));
            }
            r += 1;
        }
        Ok(model)
    }

    /// Return the model's bytes.
    pub const fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// Return the number of spatial patterns.
    pub const fn patterns(&self) -> usize {
        self.patterns
    }

    /// Return tactical gamma `i` ([`super::feature::OFFSET`] order).
    pub const fn tactical(&self, i: usize) -> f32 {
        f32_at(self.bytes, HEADER + 4 * i)
    }

    const fn record_at(&self, r: usize) -> usize {
        HEADER + 4 * TACTICAL_GAMMAS + RECORD * r
    }

    /// Iterate over the patterns up to `max_size` as a compact table
    /// ([`super::compact`]) keeps them: canonical hash, size, gamma.
    pub fn canonical_patterns(
        &self,
        max_size: usize,
    ) -> impl Iterator<Item = (u64, usize, f32)> + '_ {
        (0..self.patterns)
            .map(|r| self.pattern(r))
            .filter(move |&(size, _, _)| size <= max_size)
            .map(|(size, cells, gamma)| (cells.canonical(size), size, gamma))
    }

    /// Return pattern `r`: its size, cells and gamma.
    pub fn pattern(&self, r: usize) -> (usize, Neighbourhood, f32) {
        let at = self.record_at(r);
        let mut packed = [0u8; PACKED];
        packed.copy_from_slice(&self.bytes[at + 1..at + 1 + PACKED]);
        (
            usize::from(self.bytes[at]),
            Neighbourhood::unpack(&packed),
            f32_at(self.bytes, at + 20),
        )
    }
}

/// Write a model of `tactical` gammas and `patterns` (size, cells, gamma)
/// into `out`, which must be [`encoded_len`] bytes long; the header's
/// checksum is filled in last.
///
/// # Errors
/// [`ModelError::Layout`] for a wrong number of tactical gammas or a
/// pattern size out of range, [`ModelError::Length`] for an `out` of the
/// wrong length.
pub fn encode<'p>(
    tactical: &[f32],
    patterns: impl ExactSizeIterator<Item = (usize, &'p Neighbourhood, f32)>,
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
    out.fill(0);
    out[..8].copy_from_slice(&MAGIC);
    out[8..12].copy_from_slice(&VERSION.to_le_bytes());
    out[16..20].copy_from_slice(&(TACTICAL_GAMMAS as u32).to_le_bytes());
    out[20..24].copy_from_slice(&(n as u32).to_le_bytes());
    out[24] = MIN_SIZE as u8;
    out[25] = MAX_SIZE as u8;
    for (i, g) in tactical.iter().enumerate() {
        let at = HEADER + 4 * i;
        out[at..at + 4].copy_from_slice(&g.to_le_bytes());
    }
    for (r, (size, cells, gamma)) in patterns.enumerate() {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(ModelError::Layout);
        }
        let at = HEADER + 4 * TACTICAL_GAMMAS + RECORD * r;
        out[at] = size as u8;
        out[at + 1..at + 1 + PACKED].copy_from_slice(&cells.pack(size));
        out[at + 20..at + 24].copy_from_slice(&gamma.to_le_bytes());
    }
    let crc = crc32(out, 16);
    out[12..16].copy_from_slice(&crc.to_le_bytes());
    Ok(())
}
