//! The corner index: in which games each content of a 7x7 corner occurs,
//! hashed at build time (Kombilo's hashed corner search).
//!
//! A corner pattern scan ([`crate::pattern`]) reads every game's filters,
//! and a 7x7 corner cut from a real game passes the end-position filter in
//! many games: its points held stones of both colours in most of them. So
//! the build also replays each game's stream through the hashes of the
//! top-left 7x7 of the position's eight images ([`CornerHash`]); each
//! board corner is seen there in its two orientations, and its key is the
//! least of the two hashes, mixed. Every key a game's corners ever take is
//! one entry `(key, game)`; the entries are laid out as the position index
//! is ([`crate::index`]: 256 shards by the top key bits, a bucket table,
//! 4-byte entries of check bits and game number), all in `corners.kdb`:
//!
//! | field | meaning |
//! |---|---|
//! | `offset64[257]` | where each shard starts, from the end of this table |
//! | shard payloads | as `index-XX.kdb`'s, game numbers for positions |
//!
//! A pattern anchored in a corner whose top-left 7x7 is all `X`, `O` or `.`
//! then looks its key up (and the colour-swapped key, if asked) and scans
//! only the games found, with the same exact matching as any pattern; a
//! game listed by a key collision simply does not match. Any other pattern
//! scans every game.

use kosumi_core::geometry::Color;

use crate::format::u64_at;
use crate::index::{encode_shard, Layout, Shard, SHARDS};
use crate::pattern::{Pattern, Variant, B, E, W};
use crate::record::{self, Event, Step};
use crate::store::Db;
use crate::symmetry::{apply, mix, KEYS, MAP, N, SYMS};

/// Side of the hashed corner.
pub const SIZE: usize = 7;

/// For each symmetry, the board corner (0..4) it takes to the top left.
const CORNER_OF: [usize; SYMS] = corner_of();

const fn corner_of() -> [usize; SYMS] {
    let corners = [(0, 0), (N - 1, 0), (0, N - 1), (N - 1, N - 1)];
    let mut out = [0; SYMS];
    let mut t = 0;
    while t < SYMS {
        let mut k = 0;
        while k < 4 {
            let (x, y) = apply(t, corners[k].0, corners[k].1);
            if x == 0 && y == 0 {
                out[t] = k;
            }
            k += 1;
        }
        t += 1;
    }
    out
}

/// The hashes of the top-left 7x7 of a position's eight images.
#[derive(Clone, Copy, Debug, Default)]
pub struct CornerHash([u64; SYMS]);

impl CornerHash {
    /// Add or remove a stone of colour `c` (0 black, 1 white) at `p`.
    #[inline]
    pub fn toggle(&mut self, p: usize, c: usize) {
        for (t, (h, map)) in self.0.iter_mut().zip(&MAP).enumerate() {
            let q = map[p] as usize;
            if q % N < SIZE && q / N < SIZE {
                *h ^= KEYS.get(t, p, c);
            }
        }
    }

    /// Return the key of each board corner: the least hash of its two
    /// orientations, mixed.
    pub fn keys(&self) -> [u64; 4] {
        let mut k = [u64::MAX; 4];
        for (t, &h) in self.0.iter().enumerate() {
            k[CORNER_OF[t]] = k[CORNER_OF[t]].min(h);
        }
        k.map(mix)
    }
}

/// Put in `out` every key the corners of a game take (the events of its
/// stream), masked, sorted and without repeats.
pub fn game_keys(events: &[Event], mask: u64, out: &mut Vec<u64>) {
    let mut h = CornerHash::default();
    let mut last = [None; 4];
    let mut note = |h: &CornerHash, out: &mut Vec<u64>| {
        for (k, last) in h.keys().into_iter().zip(&mut last) {
            if *last != Some(k) {
                *last = Some(k);
                out.push(k & mask);
            }
        }
    };
    out.clear();
    record::walk(events, |step| match step {
        Step::Toggle(p, c) => h.toggle(p, c.idx()),
        Step::Position => note(&h, out),
    });
    out.sort_unstable();
    out.dedup();
    out.shrink_to_fit();
}

/// Return the payload of `corners.kdb` and its layout for `keys[g]`, the
/// keys of game `g`.
pub fn encode(keys: &[Vec<u64>]) -> Result<(Vec<u8>, Layout), String> {
    let entries: u64 = keys.iter().map(|k| k.len() as u64).sum();
    let layout = Layout::new(entries, keys.len() as u64)
        .ok_or_else(|| format!("{} games: more than this format holds", keys.len()))?;
    let mut shards: Vec<Vec<u64>> = vec![Vec::new(); SHARDS];
    for (g, ks) in keys.iter().enumerate() {
        for &k in ks {
            let (s, e) = layout.key(k, g as u32);
            shards[s].push(e);
        }
    }
    let payloads: Vec<Vec<u8>> = shards
        .iter_mut()
        .map(|s| {
            s.sort_unstable();
            encode_shard(layout, s)
        })
        .collect();
    let mut out = Vec::new();
    let mut off = 0u64;
    for p in &payloads {
        out.extend_from_slice(&off.to_le_bytes());
        off += p.len() as u64;
    }
    out.extend_from_slice(&off.to_le_bytes());
    for p in &payloads {
        out.extend_from_slice(p);
    }
    Ok((out, layout))
}

/// Return where each shard of a `corners.kdb` payload lies, checked.
///
/// # Errors
/// A short description of what is inconsistent.
pub fn shard_ranges(payload: &[u8], layout: Layout) -> Result<Vec<(usize, usize)>, &'static str> {
    let table = 8 * (SHARDS + 1);
    if payload.len() < table {
        return Err("corner index shorter than its table");
    }
    let mut out = Vec::with_capacity(SHARDS);
    for s in 0..SHARDS {
        let (a, b) = (u64_at(payload, 8 * s), u64_at(payload, 8 * (s + 1)));
        let at = |o: u64| {
            usize::try_from(o)
                .ok()
                .and_then(|o| o.checked_add(table))
                .filter(|&o| o <= payload.len())
        };
        let (Some(a), Some(b)) = (at(a), at(b)) else {
            return Err("corner index offsets past the end");
        };
        if a > b || (s == 0 && a != table) {
            return Err("corner index offsets out of order");
        }
        Shard::new(&payload[a..b], layout)?;
        out.push((a, b));
    }
    if out.last().map(|r| r.1) != Some(payload.len()) {
        return Err("corner index does not end at its last shard");
    }
    Ok(out)
}

/// Return the games that may hold `pat` as `vars` place it, from the
/// corner index, in id order; `None` when the index cannot answer (a placement whose
/// top-left cell is not on a board corner, a pattern smaller than 7x7, a
/// wildcard in its top-left 7x7).
pub fn candidates(db: &Db, pat: &Pattern, vars: &[Variant]) -> Option<Vec<usize>> {
    if pat.w < SIZE || pat.h < SIZE || vars.is_empty() {
        return None;
    }
    let cell = |x: usize, y: usize| pat.cells[y * pat.w + x];
    if (0..SIZE).any(|y| (0..SIZE).any(|x| ![B, W, E].contains(&cell(x, y)))) {
        return None;
    }
    let on_corner = |v: &Variant| {
        let i = v.origin.iter().position(|&o| o == (0, 0));
        let Some(i) = i else { return false };
        v.offsets.iter().enumerate().all(|(oy, &row)| {
            (0..N).filter(|&ox| row >> ox & 1 != 0).all(|ox| {
                let (x, y) = (ox + i % v.w, oy + i / v.w);
                (x == 0 || x == N - 1) && (y == 0 || y == N - 1)
            })
        })
    };
    if !vars.iter().all(on_corner) {
        return None;
    }
    let mut listed = Vec::new();
    let swaps: &[bool] = if vars.iter().any(|v| v.swapped) {
        &[false, true]
    } else {
        &[false]
    };
    for &swapped in swaps {
        // The pattern's corner hashed as the build hashes a top-left 7x7:
        // as it is (symmetry 0) and transposed (symmetry 4).
        let (mut h0, mut h4) = (0u64, 0u64);
        for y in 0..SIZE {
            for x in 0..SIZE {
                let c = match cell(x, y) {
                    B => Color::Black,
                    W => Color::White,
                    _ => continue,
                };
                let c = if swapped { c.opponent() } else { c };
                h0 ^= KEYS.get(0, y * N + x, c.idx());
                h4 ^= KEYS.get(4, y * N + x, c.idx());
            }
        }
        db.corner_lookup(mix(h0.min(h4)), |g| {
            if (g as usize) < db.games() {
                listed.push(g as usize);
            }
        });
    }
    listed.sort_unstable();
    listed.dedup();
    Some(listed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_corner_is_seen_by_two_symmetries() {
        let mut count = [0; 4];
        for &c in &CORNER_OF {
            count[c] += 1;
        }
        assert_eq!(count, [2; 4]);
    }

    #[test]
    fn a_corner_and_its_mirror_image_share_a_key() {
        // A stone on the 3-4 point of the top-left corner, and the same
        // shape turned into the bottom-right corner, mirrored.
        let mut a = CornerHash::default();
        a.toggle(2 * N + 3, 0);
        let mut b = CornerHash::default();
        b.toggle((N - 1 - 3) * N + (N - 1 - 2), 0);
        assert_eq!(a.keys()[0], b.keys()[3]);
        assert_ne!(a.keys()[0], a.keys()[3]);
        // A stone outside every corner changes no key.
        let mut c = a;
        c.toggle(9 * N + 9, 1);
        assert_eq!(c.keys(), a.keys());
    }
}
