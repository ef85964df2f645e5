//! The file header every database file starts with, checksums, and the
//! errors of reading a database.
//!
//! Header (32 bytes, little-endian):
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | magic `KOSUMIDB` |
//! | 8..12 | `version32`: format version ([`VERSION`]) |
//! | 12..16 | `kind32`: what the file holds ([`Kind`]) |
//! | 16..24 | `len64`: payload length in bytes |
//! | 24..28 | `crc32`: CRC-32 of the payload |
//! | 28..32 | `hcrc32`: CRC-32 of bytes 0..28 |
//!
//! A file is read only if all of it checks: magic, version, kind, exact
//! length and both checksums; anything else is a [`DbError`] naming the
//! file, never results.

use std::fmt;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use memmap2::Mmap;

/// Magic bytes at the start of every file.
pub const MAGIC: [u8; 8] = *b"KOSUMIDB";
/// Format version written and accepted.
pub const VERSION: u32 = 1;
/// Header length; the payload starts here.
pub const HEADER_LEN: usize = 32;

/// What a database file holds.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[repr(u32)]
pub enum Kind {
    /// Build parameters (JSON).
    Meta = 1,
    /// Game records, filters and metadata.
    Games = 2,
    /// One shard of the position index.
    Shard = 3,
}

/// Why a database could not be read.
#[derive(Debug)]
pub enum DbError {
    /// The file could not be opened or read.
    Io(PathBuf, std::io::Error),
    /// The file does not start with the magic bytes: not a kosumi database.
    Foreign(PathBuf),
    /// The file has another format version.
    Version(PathBuf, u32),
    /// The file holds another kind of data than its name says.
    WrongKind(PathBuf),
    /// The file is shorter or longer than its header says.
    Length(PathBuf, u64, u64),
    /// A checksum does not match: the file is corrupt.
    Checksum(PathBuf),
    /// The payload is inconsistent although its checksum matched.
    Corrupt(PathBuf, &'static str),
}

impl fmt::Display for DbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DbError::Io(p, e) => write!(f, "{}: {e}", p.display()),
            DbError::Foreign(p) => write!(f, "{}: not a kosumi database file", p.display()),
            DbError::Version(p, v) => write!(
                f,
                "{}: database format version {v}, this kosumi reads version {VERSION}; rebuild it",
                p.display()
            ),
            DbError::WrongKind(p) => write!(f, "{}: wrong kind of database file", p.display()),
            DbError::Length(p, want, got) => write!(
                f,
                "{}: truncated or padded: {got} bytes, the header says {want}",
                p.display()
            ),
            DbError::Checksum(p) => {
                write!(f, "{}: checksum mismatch, the file is corrupt", p.display())
            }
            DbError::Corrupt(p, what) => write!(f, "{}: corrupt: {what}", p.display()),
        }
    }
}

/// Return the header and payload of a file.
pub fn encode(kind: Kind, payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER_LEN + payload.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(kind as u32).to_le_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&crc32fast::hash(payload).to_le_bytes());
    let hcrc = crc32fast::hash(&out);
    out.extend_from_slice(&hcrc.to_le_bytes());
    out.extend_from_slice(payload);
    out
}

/// Write a file with its header and flush it to disk.
///
/// # Errors
/// The I/O error, as a message.
pub fn write_file(path: &Path, kind: Kind, payload: &[u8]) -> Result<(), String> {
    let bytes = encode(kind, payload);
    let mut f = File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
    f.write_all(&bytes)
        .and_then(|()| f.sync_all())
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// A checked, memory-mapped database file.
pub struct MappedFile {
    map: Mmap,
}

impl MappedFile {
    /// Map `path` and check its header and checksums.
    ///
    /// # Errors
    /// A [`DbError`] for anything but a whole, intact file of `kind`.
    pub fn open(path: &Path, kind: Kind) -> Result<MappedFile, DbError> {
        let file = File::open(path).map_err(|e| DbError::Io(path.into(), e))?;
        // SAFETY: the database is read-only once built (builds write a new
        // directory and rename it into place); a file changed under the map
        // by another program can give wrong bytes but no unsoundness, since
        // every read goes through bounds-checked slices.
        #[allow(unsafe_code)]
        let map = unsafe { Mmap::map(&file) }.map_err(|e| DbError::Io(path.into(), e))?;
        check(&map, kind, path)?;
        Ok(MappedFile { map })
    }

    /// Return the payload.
    pub fn payload(&self) -> &[u8] {
        &self.map[HEADER_LEN..]
    }

    /// Return the file length in bytes.
    pub fn len(&self) -> u64 {
        self.map.len() as u64
    }
}

/// Check a whole file's bytes.
///
/// # Errors
/// A [`DbError`] naming `path`.
pub fn check(bytes: &[u8], kind: Kind, path: &Path) -> Result<(), DbError> {
    if bytes.len() < MAGIC.len() || bytes[..8] != MAGIC {
        return Err(DbError::Foreign(path.into()));
    }
    if bytes.len() < HEADER_LEN {
        return Err(DbError::Length(
            path.into(),
            HEADER_LEN as u64,
            bytes.len() as u64,
        ));
    }
    let version = u32_at(bytes, 8);
    if version != VERSION {
        return Err(DbError::Version(path.into(), version));
    }
    if crc32fast::hash(&bytes[..28]) != u32_at(bytes, 28) {
        return Err(DbError::Checksum(path.into()));
    }
    if u32_at(bytes, 12) != kind as u32 {
        return Err(DbError::WrongKind(path.into()));
    }
    let len = u64_at(bytes, 16);
    let got = (bytes.len() - HEADER_LEN) as u64;
    if len != got {
        return Err(DbError::Length(
            path.into(),
            len + HEADER_LEN as u64,
            bytes.len() as u64,
        ));
    }
    if crc32fast::hash(&bytes[HEADER_LEN..]) != u32_at(bytes, 24) {
        return Err(DbError::Checksum(path.into()));
    }
    Ok(())
}

/// Return the little-endian `u32` at byte `i` (0 past the end).
#[inline(always)]
pub fn u32_at(b: &[u8], i: usize) -> u32 {
    b.get(i..i + 4)
        .map_or(0, |s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
}

/// Return the little-endian `u64` at byte `i` (0 past the end).
#[inline(always)]
pub fn u64_at(b: &[u8], i: usize) -> u64 {
    b.get(i..i + 8).map_or(0, |s| {
        let mut a = [0u8; 8];
        a.copy_from_slice(s);
        u64::from_le_bytes(a)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_every_damage() {
        let p = Path::new("x");
        let good = encode(Kind::Shard, b"payload bytes");
        assert!(check(&good, Kind::Shard, p).is_ok());
        assert!(matches!(
            check(&good, Kind::Games, p),
            Err(DbError::WrongKind(_))
        ));
        assert!(matches!(
            check(&good[..good.len() - 1], Kind::Shard, p),
            Err(DbError::Length(..))
        ));
        let mut flipped = good.clone();
        *flipped.last_mut().unwrap() ^= 1;
        assert!(matches!(
            check(&flipped, Kind::Shard, p),
            Err(DbError::Checksum(_))
        ));
        assert!(matches!(
            check(b"(;GM[1])", Kind::Shard, p),
            Err(DbError::Foreign(_))
        ));
        let mut v2 = good.clone();
        v2[8] = 2;
        assert!(matches!(
            check(&v2, Kind::Shard, p),
            Err(DbError::Version(_, 2))
        ));
        let mut kind = good.clone();
        kind[12] = 9;
        assert!(matches!(
            check(&kind, Kind::Shard, p),
            Err(DbError::Checksum(_))
        ));
    }
}
