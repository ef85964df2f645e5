//! The file header every database file starts with, checksums, and the
//! errors of reading a database.
//!
//! Header (48 bytes, little-endian):
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | magic `KOSUMIDB` |
//! | 8..12 | `version32`: format version ([`VERSION`]) |
//! | 12..16 | `kind32`: what the file holds ([`Kind`]) |
//! | 16..24 | `len64`: payload length in bytes |
//! | 24..28 | `crc32`: CRC-32 of the payload |
//! | 28..32 | `role32`: the file's place in its database ([`Identity::role`]) |
//! | 32..40 | `build64`: the id of the build that wrote it, the same in every file of a database |
//! | 40..44 | zero |
//! | 44..48 | `hcrc32`: CRC-32 of bytes 0..44 |
//!
//! A file is read only if all of it checks: magic, version, kind, exact
//! length and both checksums; anything else is a [`DbError`] naming the
//! file, never results. The reader then checks each file's identity:
//! every file of the build of `meta.kdb`, each shard in its own slot, so a
//! swapped shard or one from another build is refused, not searched.

use std::fmt;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use std::sync::Arc;

use memmap2::Mmap;

/// Magic bytes at the start of every file.
pub const MAGIC: [u8; 8] = *b"KOSUMIDB";
/// Format version written and accepted (2: the header names the build and
/// the file's role; 3: the corner index `corners.kdb`).
pub const VERSION: u32 = 3;
/// Header length; the payload starts here.
pub const HEADER_LEN: usize = 48;

/// Which database a file belongs to and where in it.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Identity {
    /// The build's id, shared by all its files.
    pub build: u64,
    /// A shard's number (`index-XX.kdb`: `0xXX`), or [`ROLE_GAMES`] /
    /// [`ROLE_META`].
    pub role: u32,
}

/// The role of `games.kdb`.
pub const ROLE_GAMES: u32 = 0x100;
/// The role of `meta.kdb`.
pub const ROLE_META: u32 = 0x101;
/// The role of `corners.kdb`.
pub const ROLE_CORNERS: u32 = 0x102;

/// Return a new build id: the clock and the process, mixed.
pub fn new_build_id() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(nanos);
    h.write_u32(std::process::id());
    h.finish()
}

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
    /// The corner index.
    Corners = 4,
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
    /// An intact file of another build, or in another file's place.
    Misplaced(PathBuf, String),
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
            DbError::Misplaced(p, what) => write!(
                f,
                "{}: {what}; the database is inconsistent, rebuild it",
                p.display()
            ),
        }
    }
}

/// Return the header and payload of a file.
pub fn encode(kind: Kind, id: Identity, payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER_LEN + payload.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(kind as u32).to_le_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&crc32fast::hash(payload).to_le_bytes());
    out.extend_from_slice(&id.role.to_le_bytes());
    out.extend_from_slice(&id.build.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    let hcrc = crc32fast::hash(&out);
    out.extend_from_slice(&hcrc.to_le_bytes());
    out.extend_from_slice(payload);
    out
}

/// Write a file with its header and flush it to disk.
///
/// # Errors
/// The I/O error, as a message.
pub fn write_file(path: &Path, kind: Kind, id: Identity, payload: &[u8]) -> Result<(), String> {
    let bytes = encode(kind, id, payload);
    let mut f = File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
    f.write_all(&bytes)
        .and_then(|()| f.sync_all())
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// A database file's bytes: mapped from disk, or held in memory (a
/// database read from memory, as the fuzzer does).
enum Bytes {
    Map(Mmap),
    Shared(Arc<[u8]>),
}

impl std::ops::Deref for Bytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            Bytes::Map(m) => m,
            Bytes::Shared(b) => b,
        }
    }
}

/// A checked database file, memory-mapped (or held in memory).
pub struct MappedFile {
    map: Bytes,
    id: Identity,
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
        let id = check(&map, kind, path)?;
        Ok(MappedFile {
            map: Bytes::Map(map),
            id,
        })
    }

    /// Check `bytes` as [`MappedFile::open`] checks a file; `path` names
    /// it in errors.
    ///
    /// # Errors
    /// As [`MappedFile::open`].
    pub fn from_bytes(bytes: Arc<[u8]>, kind: Kind, path: &Path) -> Result<MappedFile, DbError> {
        let id = check(&bytes, kind, path)?;
        Ok(MappedFile {
            map: Bytes::Shared(bytes),
            id,
        })
    }

    /// Return the file if it is the one `want` names, its build and its
    /// role; `path` names it in errors.
    ///
    /// # Errors
    /// [`DbError::Misplaced`] for another build's file or another file's
    /// role.
    pub fn expect(self, want: Identity, path: &Path) -> Result<MappedFile, DbError> {
        if self.id.build != want.build {
            return Err(DbError::Misplaced(
                path.into(),
                format!(
                    "written by build {:016x}, not by this database's {:016x}",
                    self.id.build, want.build
                ),
            ));
        }
        if self.id.role != want.role {
            return Err(DbError::Misplaced(
                path.into(),
                format!("holds the part {:#x}, not {:#x}", self.id.role, want.role),
            ));
        }
        Ok(self)
    }

    /// Return the file's identity.
    pub fn identity(&self) -> Identity {
        self.id
    }

    /// Return the payload.
    pub fn payload(&self) -> &[u8] {
        &self.map[HEADER_LEN..]
    }

    /// Return the file length in bytes.
    pub fn len(&self) -> u64 {
        self.map.len() as u64
    }

    /// Whether the file is empty (never, once opened: it has a header).
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

/// Check a whole file's bytes; return the identity its header gives.
///
/// # Errors
/// A [`DbError`] naming `path`.
pub fn check(bytes: &[u8], kind: Kind, path: &Path) -> Result<Identity, DbError> {
    if bytes.len() < MAGIC.len() || bytes[..8] != MAGIC {
        return Err(DbError::Foreign(path.into()));
    }
    // The version first: an older format's shorter header says so.
    let version = u32_at(bytes, 8);
    if bytes.len() >= 12 && version != VERSION {
        return Err(DbError::Version(path.into(), version));
    }
    if bytes.len() < HEADER_LEN {
        return Err(DbError::Length(
            path.into(),
            HEADER_LEN as u64,
            bytes.len() as u64,
        ));
    }
    if crc32fast::hash(&bytes[..44]) != u32_at(bytes, 44) {
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
    Ok(Identity {
        build: u64_at(bytes, 32),
        role: u32_at(bytes, 28),
    })
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
        let id = Identity {
            build: 7,
            role: 0x3c,
        };
        let good = encode(Kind::Shard, id, b"payload bytes");
        assert_eq!(check(&good, Kind::Shard, p).unwrap(), id);
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
        // A database of the first format: its version, not its length.
        let mut v1 = good.clone();
        v1[8] = 1;
        assert!(matches!(
            check(&v1[..40], Kind::Shard, p),
            Err(DbError::Version(_, 1))
        ));
        let mut kind = good.clone();
        kind[12] = 9;
        assert!(matches!(
            check(&kind, Kind::Shard, p),
            Err(DbError::Checksum(_))
        ));
    }
}
