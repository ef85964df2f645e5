//! The position index: (canonical hash, position) pairs, sorted and
//! sharded into 256 files by the hash's top 8 bits (`index-XX.kdb`, `XX`
//! the shard in hex), so a lookup touches one small file (the seed's
//! "access files by most-significant bits directly").
//!
//! Shard payload (little-endian):
//!
//! | field | meaning |
//! |---|---|
//! | `bucket_bits32` | `b`: the next `b` hash bits pick a bucket |
//! | `entries32` | number of entries |
//! | `start32[2^b + 1]` | first entry of each bucket (a direct-address table) |
//! | `entry32[entries]` | `check << pos_bits \| position`, sorted |
//!
//! An entry is one `u32`: the low `pos_bits` bits are the global position
//! number (game start + move, see `games.kdb`), the high `32 - pos_bits`
//! bits are the hash bits right after the shard and bucket bits, as a
//! check. Shard, bucket and check bits never overlap (as in Stockfish's
//! table), so the index stores `8 + b + (32 - pos_bits)` bits of the hash
//! for 4 bytes an entry. A lookup is an array read for the bucket and a
//! binary search on the check bits inside it; every hit is then verified by
//! replay, since the index keeps only part of the hash and different
//! positions can share even a whole hash.

use crate::format::u32_at;

/// Hash bits that pick the shard file.
pub const SHARD_BITS: u32 = 8;
/// Number of shard files.
pub const SHARDS: usize = 1 << SHARD_BITS;
/// Average entries per bucket the bucket table aims at.
const PER_BUCKET: u64 = 16;

/// How hash bits are split between shard, bucket and check.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Bits of the bucket number inside a shard.
    pub bucket_bits: u32,
    /// Bits of the position number in an entry.
    pub pos_bits: u32,
}

impl Layout {
    /// Return the layout for `positions` positions.
    ///
    /// # Errors
    /// A message when the positions do not fit 32-bit entries.
    pub fn for_positions(positions: u64) -> Result<Layout, String> {
        Layout::new(positions, positions)
            .ok_or_else(|| format!("{positions} positions: more than this format holds"))
    }

    /// Return the layout for `entries` entries whose numbers are below `ids`
    /// (the position index: one entry a position; the corner index: game
    /// numbers); `None` when the numbers do not fit 32-bit entries.
    pub fn new(entries: u64, ids: u64) -> Option<Layout> {
        let pos_bits = (64 - ids.max(2).saturating_sub(1).leading_zeros()).max(1);
        if pos_bits > 31 {
            return None;
        }
        // Buckets of PER_BUCKET to 2 * PER_BUCKET entries on average.
        let per_shard = entries / SHARDS as u64 / PER_BUCKET;
        let bucket_bits = (63 - per_shard.max(1).leading_zeros()).min(20);
        Some(Layout {
            bucket_bits,
            pos_bits,
        })
    }

    /// Return the bits of the check field.
    pub fn check_bits(self) -> u32 {
        32 - self.pos_bits
    }

    /// Return `(shard, bucket, check)` of a hash.
    #[inline]
    pub fn split(self, h: u64) -> (usize, usize, u32) {
        let shard = (h >> (64 - SHARD_BITS)) as usize;
        let rest = h << SHARD_BITS;
        let bucket = if self.bucket_bits == 0 {
            0
        } else {
            (rest >> (64 - self.bucket_bits)) as usize
        };
        let rest = rest.checked_shl(self.bucket_bits).unwrap_or(0);
        let cb = self.check_bits();
        let check = (rest >> (64 - cb)) as u32;
        (shard, bucket, check)
    }

    /// Return the sort key of an entry inside its shard: bucket, then entry.
    #[inline]
    pub fn key(self, h: u64, pos: u32) -> (usize, u64) {
        let (shard, bucket, check) = self.split(h);
        let entry = (u64::from(check) << self.pos_bits) | u64::from(pos);
        (shard, (bucket as u64) << 32 | entry)
    }
}

/// Return the payload of a shard from its sorted keys (see [`Layout::key`]).
pub fn encode_shard(layout: Layout, keys: &[u64]) -> Vec<u8> {
    let buckets = 1usize << layout.bucket_bits;
    let mut out = Vec::with_capacity(8 + 4 * (buckets + 1) + 4 * keys.len());
    out.extend_from_slice(&layout.bucket_bits.to_le_bytes());
    out.extend_from_slice(&(keys.len() as u32).to_le_bytes());
    let mut i = 0usize;
    for b in 0..=buckets {
        while i < keys.len() && ((keys[i] >> 32) as usize) < b {
            i += 1;
        }
        out.extend_from_slice(&(i as u32).to_le_bytes());
    }
    for &k in keys {
        out.extend_from_slice(&(k as u32).to_le_bytes());
    }
    out
}

/// A shard's payload, checked for shape.
#[derive(Copy, Clone)]
pub struct Shard<'a> {
    bytes: &'a [u8],
    buckets: usize,
    entries: usize,
}

impl<'a> Shard<'a> {
    /// Read a shard payload written with `layout`.
    ///
    /// # Errors
    /// A short description of what is inconsistent.
    pub fn new(bytes: &'a [u8], layout: Layout) -> Result<Shard<'a>, &'static str> {
        if u32_at(bytes, 0) != layout.bucket_bits {
            return Err("shard bucket bits differ from the database's");
        }
        let buckets = 1usize << layout.bucket_bits;
        let entries = u32_at(bytes, 4) as usize;
        if bytes.len() != 8 + 4 * (buckets + 1) + 4 * entries {
            return Err("shard length does not match its counts");
        }
        let s = Shard {
            bytes,
            buckets,
            entries,
        };
        if s.start(buckets) as usize != entries {
            return Err("shard bucket table does not end at its entry count");
        }
        Ok(s)
    }

    /// Return the number of entries.
    pub fn len(&self) -> usize {
        self.entries
    }

    /// Whether the shard holds no entries.
    pub fn is_empty(&self) -> bool {
        self.entries == 0
    }

    #[inline]
    fn start(&self, b: usize) -> u32 {
        u32_at(self.bytes, 8 + 4 * b)
    }

    #[inline]
    fn entry(&self, i: usize) -> u32 {
        u32_at(self.bytes, 8 + 4 * (self.buckets + 1) + 4 * i)
    }

    /// Call `hit(position)` for every entry of `bucket` whose check is `check`.
    pub fn lookup(&self, layout: Layout, bucket: usize, check: u32, mut hit: impl FnMut(u32)) {
        let lo = self.start(bucket) as usize;
        let hi = (self.start(bucket + 1) as usize).min(self.entries);
        let pos_mask = ((1u64 << layout.pos_bits) - 1) as u32;
        let want = |e: u32| (u64::from(e) >> layout.pos_bits) as u32;
        // Binary search for the first entry with this check, then walk.
        let (mut a, mut b) = (lo, hi.max(lo));
        while a < b {
            let m = (a + b) / 2;
            if want(self.entry(m)) < check {
                a = m + 1;
            } else {
                b = m;
            }
        }
        while a < hi && want(self.entry(a)) == check {
            hit(self.entry(a) & pos_mask);
            a += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_what_it_stored() {
        let layout = Layout::for_positions(5000).unwrap();
        let hashes: Vec<u64> = (0..5000u64)
            .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (i << 7))
            .collect();
        let mut shards = vec![Vec::new(); SHARDS];
        for (i, &h) in hashes.iter().enumerate() {
            let (s, k) = layout.key(h, i as u32);
            shards[s].push(k);
        }
        let payloads: Vec<Vec<u8>> = shards
            .iter_mut()
            .map(|k| {
                k.sort_unstable();
                encode_shard(layout, k)
            })
            .collect();
        for (i, &h) in hashes.iter().enumerate() {
            let (s, b, c) = layout.split(h);
            let shard = Shard::new(&payloads[s], layout).unwrap();
            let mut found = Vec::new();
            shard.lookup(layout, b, c, |p| found.push(p));
            assert!(found.contains(&(i as u32)));
        }
    }
}
