//! The best-move table on disk (`--book FILE`, `kosumi-savebook`).
//!
//! Format, version 1, all integers little-endian:
//!
//! ```text
//!   magic    8 bytes  "KOSUMIBK"
//!   version  u32      1
//!   ways     u32      entries per cluster (8)
//!   clusters u64      power of two: the table size the book was written from
//!   gen      u8       the table's generation
//!   count    u64      number of entry records
//!   records  count x (cluster u32, way u8, check u64, move u16, visits u8, depth u8, gen u8)
//!   checksum u64      FNV-1a 64 of every byte before it
//! ```
//!
//! Only non-empty entries are written. Loading checks the magic, the
//! version, the exact length, the checksum, the table's size (at most
//! [`MAX_TABLE_MB`], and room for the records) and every record before it
//! touches the table, so a truncated, corrupt or crafted file is refused
//! whole, and the table is allocated fallibly: never an abort.
//! Writing goes to `FILE.tmp.PID`, is flushed to the disk, and is renamed
//! over `FILE` (atomic on POSIX): a crash leaves the old book or the new
//! one, and two processes saving one book at once each rename a whole
//! file of their own (the last rename wins). Opening a book removes the
//! temporaries that killed processes left next to it.

use std::fs;
use std::path::{Path, PathBuf};

use kosumi_core::table::{BestMove, BestMoveCluster, BestMoveEntry, Cluster, Entry};

use super::reply::{Failure, Refusal, Reply};
use super::searcher::MAX_TABLE_MB;
use super::Engine;

const MAGIC: &[u8; 8] = b"KOSUMIBK";
const VERSION: u32 = 1;
const HEADER: usize = 8 + 4 + 4 + 8 + 1 + 8;
const RECORD: usize = 4 + 1 + 8 + 2 + 1 + 1 + 1;

/// Return the FNV-1a 64-bit hash of `bytes` (the book's checksum).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// Serialise the table.
pub fn encode(table: &[BestMoveCluster], generation: u8) -> Vec<u8> {
    let ways = BestMoveCluster::EMPTY.entries().len();
    let mut records = Vec::new();
    let mut count = 0u64;
    for (ci, c) in table.iter().enumerate() {
        for (w, e) in c.entries().iter().enumerate() {
            if e.is_empty() {
                continue;
            }
            let d = e.data();
            records.extend_from_slice(&(ci as u32).to_le_bytes());
            records.push(w as u8);
            records.extend_from_slice(&e.check().to_le_bytes());
            records.extend_from_slice(&d.mv.to_le_bytes());
            records.push(d.visits_log2);
            records.push(d.depth_log2);
            records.push(e.generation());
            count += 1;
        }
    }
    let mut out = Vec::with_capacity(HEADER + records.len() + 8);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(ways as u32).to_le_bytes());
    out.extend_from_slice(&(table.len() as u64).to_le_bytes());
    out.push(generation);
    out.extend_from_slice(&count.to_le_bytes());
    out.extend_from_slice(&records);
    let sum = fnv1a(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// Read a `u64` at `at` (the caller checked the length).
fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(a)
}

/// Read a `u32` at `at` (the caller checked the length).
fn u32_at(b: &[u8], at: usize) -> u32 {
    let mut a = [0u8; 4];
    a.copy_from_slice(&b[at..at + 4]);
    u32::from_le_bytes(a)
}

/// Parse a book; return the table and its generation.
///
/// # Errors
/// A message saying what is wrong; nothing is returned half-built.
pub fn decode(b: &[u8]) -> Result<(Vec<BestMoveCluster>, u8), String> {
    if b.len() < HEADER + 8 {
        return Err(format!(
            "truncated: {} bytes, a book has at least {}",
            b.len(),
            HEADER + 8
        ));
    }
    if &b[..8] != MAGIC {
        return Err("not a kosumi book (bad magic)".into());
    }
    let version = u32_at(b, 8);
    if version != VERSION {
        return Err(format!(
            "book version {version}, this kosumi reads version {VERSION}"
        ));
    }
    let ways = u32_at(b, 12) as usize;
    if ways != BestMoveCluster::EMPTY.entries().len() {
        return Err(format!("book has {ways} entries per cluster, expected 8"));
    }
    let clusters = u64_at(b, 16);
    let most = (MAX_TABLE_MB << 20) / std::mem::size_of::<BestMoveCluster>();
    if clusters == 0 || !clusters.is_power_of_two() || clusters > most as u64 {
        return Err(format!(
            "bad cluster count {clusters} (a power of two up to {most}: a table of at most {MAX_TABLE_MB} MiB)"
        ));
    }
    let generation = b[24];
    let count = u64_at(b, 25);
    let expected = (count as u128) * RECORD as u128 + (HEADER + 8) as u128;
    if b.len() as u128 != expected {
        return Err(format!(
            "truncated or padded: {} bytes, the header announces {expected}",
            b.len()
        ));
    }
    let body = b.len() - 8;
    if fnv1a(&b[..body]) != u64_at(b, body) {
        return Err("checksum mismatch (corrupt book)".into());
    }
    // A count of records over the table's slots is a lie.
    if count > clusters.saturating_mul(ways as u64) {
        return Err(format!("{count} records for {clusters} clusters of {ways}"));
    }
    let mut table = crate::memory::filled(clusters as usize, BestMoveCluster::EMPTY, "book table")?;
    for i in 0..count as usize {
        let at = HEADER + i * RECORD;
        let ci = u32_at(b, at) as usize;
        let way = b[at + 4] as usize;
        let check = u64_at(b, at + 5);
        let mv = u16::from_le_bytes([b[at + 13], b[at + 14]]);
        let (visits, depth, gen) = (b[at + 15], b[at + 16], b[at + 17]);
        if ci >= table.len() || way >= ways || gen == 0 || gen > 31 {
            return Err(format!("bad record {i}"));
        }
        let data = BestMove {
            mv,
            visits_log2: visits,
            depth_log2: depth,
        };
        table[ci].entries_mut()[way] = BestMoveEntry::pack(check, data, gen);
    }
    Ok((table, generation))
}

/// Write the book to `path` atomically.
///
/// # Errors
/// The I/O error, as a message.
pub fn save(path: &Path, table: &[BestMoveCluster], generation: u8) -> Result<(), String> {
    crate::atomic::write(path, &encode(table, generation))
}

/// Read the book at `path`.
///
/// # Errors
/// An I/O error or what [`decode`] refuses, as a message naming the file.
pub fn load(path: &Path) -> Result<(Vec<BestMoveCluster>, u8), String> {
    // Saves killed half-way left their temporaries: the book is whole.
    crate::atomic::clean_stale(path);
    let bytes = fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    decode(&bytes).map_err(|e| format!("book {}: {e}", path.display()))
}

// ---- the commands ---------------------------------------------------------

/// `kosumi-savebook [FILE]`
pub fn savebook(engine: &mut Engine, args: &[String]) -> Reply {
    let path = match args {
        [] => None,
        [f] => Some(PathBuf::from(f)),
        _ => return Err(Failure::Syntax.into()),
    };
    engine.player.play.save_book(path).map_err(Refusal::Said)?;
    Ok(String::new())
}

/// `kosumi-loadbook FILE`: replace the table with the book, or change nothing.
pub fn loadbook(engine: &mut Engine, args: &[String]) -> Reply {
    let [f] = args else {
        return Err(Failure::Syntax.into());
    };
    match load(Path::new(f)) {
        Ok((table, generation)) => {
            let s = engine
                .player
                .play
                .searcher_mut()
                .map_err(|_| Failure::CannotLoad)?;
            s.table = table;
            s.generation = generation;
            Ok(String::new())
        }
        Err(e) => {
            if engine.player.args.verbose {
                eprintln!("kosumi: {e}");
            }
            Err(Failure::CannotLoad.into())
        }
    }
}

/// `quit`: save the book if one was named, then stop.
pub fn quit(engine: &mut Engine, _: &[String]) -> Reply {
    engine.quit = true;
    if engine.player.play.opts.book.is_some() && engine.player.play.searcher.is_some() {
        if let Err(e) = engine.player.play.save_book(None) {
            eprintln!("kosumi: saving the book: {e}");
        }
    }
    Ok(String::new())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Return `book` with its header's cluster count set to `clusters`
    /// and its checksum made valid again: what a crafted file looks like.
    fn with_clusters(mut book: Vec<u8>, clusters: u64) -> Vec<u8> {
        book[16..24].copy_from_slice(&clusters.to_le_bytes());
        let body = book.len() - 8;
        let sum = fnv1a(&book[..body]);
        book[body..].copy_from_slice(&sum.to_le_bytes());
        book
    }

    #[test]
    fn a_crafted_table_size_is_refused_before_anything_is_allocated() {
        let mut table = vec![BestMoveCluster::EMPTY; 4];
        table[1].entries_mut()[0] = BestMoveEntry::pack(
            0x1234,
            BestMove {
                mv: 5,
                visits_log2: 3,
                depth_log2: 1,
            },
            1,
        );
        let book = encode(&table, 1);
        let (back, generation) = decode(&book).unwrap();
        assert_eq!((back.len(), generation), (4, 1));
        // The fuzzing campaign's file: 2^30 clusters (64 GiB) and a valid
        // checksum made the engine abort.
        let crafted = with_clusters(book.clone(), 1 << 30);
        let err = decode(&crafted).unwrap_err();
        assert!(err.starts_with("bad cluster count 1073741824"), "{err}");
        // Just over the largest table.
        let most = ((MAX_TABLE_MB << 20) / std::mem::size_of::<BestMoveCluster>()) as u64;
        assert!(decode(&with_clusters(book.clone(), most * 2)).is_err());
        // More records than the table has slots.
        let err = decode(&with_clusters(book, 0)).unwrap_err();
        assert!(err.starts_with("bad cluster count 0"), "{err}");
        let mut two = vec![BestMoveCluster::EMPTY; 2];
        for (i, c) in two.iter_mut().enumerate() {
            for (w, e) in c.entries_mut().iter_mut().enumerate() {
                let data = BestMove {
                    mv: 5,
                    visits_log2: 3,
                    depth_log2: 1,
                };
                *e = BestMoveEntry::pack(0x100 + (i * 8 + w) as u64, data, 1);
            }
        }
        let err = decode(&with_clusters(encode(&two, 1), 1)).unwrap_err();
        assert_eq!(err, "16 records for 1 clusters of 8");
    }
}
