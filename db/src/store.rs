//! The database directory on disk and its reader.
//!
//! A database is a directory: `meta.kdb` (build parameters, JSON),
//! `games.kdb` (the games), 256 index shards `index-XX.kdb` (see
//! [`crate::index`]) and the corner index `corners.kdb` (see
//! [`crate::corner`]). Every file carries the header of [`crate::format`]
//! with the build's id and its role; opening checks that every file is of
//! `meta.kdb`'s build and in its own place.
//!
//! `games.kdb` payload (little-endian; `n` games):
//!
//! | field | meaning |
//! |---|---|
//! | `games32`, `files32`, `positions64` | counts |
//! | `mask64[n][12]` | end-position filter: points that ever held black (words 0..6), white (6..12) |
//! | `pos_start32[n + 1]` | global number of each game's first position |
//! | `stream_off64[n + 1]` | each game's stream in the stream blob |
//! | `info_off64[n + 1]` | each game's text in the info blob |
//! | `winner8[n]` | [`Winner`] per game |
//! | `first16[n]` | each game's first indexed position: 0, or for a variation the first after it branched off |
//! | stream blob, info blob | see [`crate::record`]; an info starts with its `file32` |
//! | `file_off64[files + 1]`, file blob | the source file names, once each |
//!
//! Game `g` has positions `pos_start[g] ..= pos_start[g + 1] - 1`: the
//! position after setup (move 0) and after each of its moves. A variation
//! (`db build --variations`) is stored as a game of its own, the whole
//! line; the positions it shares with the line it branched off are in the
//! index and in search results once, under that line (`first16`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::Value;

use crate::format::{
    u32_at, u64_at, DbError, Identity, Kind, MappedFile, ROLE_CORNERS, ROLE_GAMES, ROLE_META,
};
use crate::index::{Layout, Shard, SHARDS};
use crate::record::{Info, Winner};

/// Words of one game's end-position filter.
pub const MASK_WORDS: usize = 12;

/// Return the file name of shard `s`.
pub fn shard_name(s: usize) -> String {
    format!("index-{s:02x}.kdb")
}

/// The parts of `games.kdb`, for writing.
#[derive(Default)]
pub struct GamesWriter {
    masks: Vec<u64>,
    pos_start: Vec<u32>,
    stream_off: Vec<u64>,
    info_off: Vec<u64>,
    winners: Vec<u8>,
    firsts: Vec<u16>,
    streams: Vec<u8>,
    infos: Vec<u8>,
    files: Vec<String>,
    file_ids: std::collections::HashMap<String, u32>,
}

impl GamesWriter {
    /// Add a game with `positions` positions, the first indexed `first`;
    /// return its id.
    pub fn add(
        &mut self,
        masks: &[u64; MASK_WORDS],
        positions: u32,
        first: u16,
        stream: &[u8],
        info: &Info,
        winner: Winner,
    ) -> u32 {
        if self.pos_start.is_empty() {
            self.pos_start.push(0);
            self.stream_off.push(0);
            self.info_off.push(0);
        }
        let id = self.winners.len() as u32;
        self.masks.extend_from_slice(masks);
        let last = *self.pos_start.last().unwrap_or(&0);
        self.pos_start.push(last + positions);
        self.streams.extend_from_slice(stream);
        self.stream_off.push(self.streams.len() as u64);
        let next = self.files.len() as u32;
        let file = *self.file_ids.entry(info.file.clone()).or_insert(next);
        if file == next {
            self.files.push(info.file.clone());
        }
        self.infos.extend_from_slice(&file.to_le_bytes());
        info.encode(&mut self.infos);
        self.info_off.push(self.infos.len() as u64);
        self.winners.push(winner as u8);
        self.firsts.push(first);
        id
    }

    /// Return the number of positions so far.
    pub fn positions(&self) -> u64 {
        u64::from(*self.pos_start.last().unwrap_or(&0))
    }

    /// Return the payload of `games.kdb`.
    pub fn encode(mut self) -> Vec<u8> {
        if self.pos_start.is_empty() {
            self.pos_start.push(0);
            self.stream_off.push(0);
            self.info_off.push(0);
        }
        let n = self.winners.len();
        let mut out = Vec::new();
        out.extend_from_slice(&(n as u32).to_le_bytes());
        out.extend_from_slice(&(self.files.len() as u32).to_le_bytes());
        out.extend_from_slice(&self.positions().to_le_bytes());
        self.masks
            .iter()
            .for_each(|w| out.extend_from_slice(&w.to_le_bytes()));
        self.pos_start
            .iter()
            .for_each(|w| out.extend_from_slice(&w.to_le_bytes()));
        self.stream_off
            .iter()
            .for_each(|w| out.extend_from_slice(&w.to_le_bytes()));
        self.info_off
            .iter()
            .for_each(|w| out.extend_from_slice(&w.to_le_bytes()));
        out.extend_from_slice(&self.winners);
        self.firsts
            .iter()
            .for_each(|w| out.extend_from_slice(&w.to_le_bytes()));
        out.extend_from_slice(&self.streams);
        out.extend_from_slice(&self.infos);
        let mut off = 0u64;
        out.extend_from_slice(&off.to_le_bytes());
        for f in &self.files {
            off += f.len() as u64;
            out.extend_from_slice(&off.to_le_bytes());
        }
        for f in &self.files {
            out.extend_from_slice(f.as_bytes());
        }
        out
    }
}

/// An open database.
pub struct Db {
    dir: PathBuf,
    meta: Value,
    games_file: MappedFile,
    shard_files: Vec<MappedFile>,
    layout: Layout,
    corner_file: MappedFile,
    corner_layout: Layout,
    corner_shards: Vec<(usize, usize)>,
    hash_mask: u64,
    n: usize,
    positions: u64,
    at_masks: usize,
    at_pos: usize,
    at_stream_off: usize,
    at_info_off: usize,
    at_winners: usize,
    at_firsts: usize,
    at_streams: usize,
    at_infos: usize,
    files: Vec<String>,
    bytes: u64,
}

impl Db {
    /// Open the database in `dir`, checking every file.
    ///
    /// # Errors
    /// A [`DbError`] for a missing, foreign, truncated or corrupt file.
    pub fn open(dir: &Path) -> Result<Db, DbError> {
        Db::open_with(dir, &|path, kind| MappedFile::open(path, kind))
    }

    /// Open a database held in memory: `files` maps each file name
    /// (`meta.kdb`, `games.kdb`, [`shard_name`]) to its bytes; `dir` only
    /// names the files in errors. The fuzzer reads damaged databases so,
    /// without a file system in the loop.
    ///
    /// # Errors
    /// As [`Db::open`].
    pub fn from_memory(dir: &Path, files: &HashMap<String, Arc<[u8]>>) -> Result<Db, DbError> {
        Db::open_with(dir, &|path, kind| {
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            let bytes = files
                .get(name.as_ref())
                .ok_or_else(|| DbError::Io(path.into(), std::io::ErrorKind::NotFound.into()))?;
            MappedFile::from_bytes(Arc::clone(bytes), kind, path)
        })
    }

    /// Open the database whose files `load` checks and returns by path.
    fn open_with(
        dir: &Path,
        load: &dyn Fn(&Path, Kind) -> Result<MappedFile, DbError>,
    ) -> Result<Db, DbError> {
        let meta_path = dir.join("meta.kdb");
        let meta_file = load(&meta_path, Kind::Meta)?;
        let build = meta_file.identity().build;
        if meta_file.identity().role != ROLE_META {
            return Err(DbError::Misplaced(
                meta_path,
                "not a database's meta.kdb".into(),
            ));
        }
        let id = |role| Identity { build, role };
        let meta: Value = serde_json::from_slice(meta_file.payload())
            .map_err(|_| DbError::Corrupt(meta_path.clone(), "build parameters are not JSON"))?;
        let num = |k: &str| meta.get(k).and_then(Value::as_u64);
        let bad = |what| DbError::Corrupt(meta_path.clone(), what);
        let layout = Layout {
            bucket_bits: num("bucket_bits").ok_or_else(|| bad("no bucket_bits"))? as u32,
            pos_bits: num("pos_bits").ok_or_else(|| bad("no pos_bits"))? as u32,
        };
        let corner_layout = Layout {
            bucket_bits: num("corner_bucket_bits").ok_or_else(|| bad("no corner_bucket_bits"))?
                as u32,
            pos_bits: num("corner_game_bits").ok_or_else(|| bad("no corner_game_bits"))? as u32,
        };
        for l in [layout, corner_layout] {
            if l.bucket_bits > 24 || l.pos_bits == 0 || l.pos_bits > 31 {
                return Err(bad("index layout out of range"));
            }
        }
        let hash_bits = num("hash_bits").unwrap_or(64).clamp(1, 64) as u32;
        let hash_mask = u64::MAX << (64 - hash_bits);
        let games_path = dir.join("games.kdb");
        let games_file = load(&games_path, Kind::Games)?.expect(id(ROLE_GAMES), &games_path)?;
        let mut bytes = meta_file.len() + games_file.len();
        let g = games_file.payload();
        let n = u32_at(g, 0) as usize;
        let positions = u64_at(g, 8);
        // Each game takes its filter, three offsets and a winner: a count
        // the payload cannot hold is refused before any offset is summed.
        if n > g.len() / (MASK_WORDS * 8 + 4 + 8 + 8 + 1 + 2) {
            return Err(DbError::Corrupt(
                games_path,
                "more games than the file holds",
            ));
        }
        let at_masks = 16;
        let at_pos = at_masks + n * MASK_WORDS * 8;
        let at_stream_off = at_pos + (n + 1) * 4;
        let at_info_off = at_stream_off + (n + 1) * 8;
        let at_winners = at_info_off + (n + 1) * 8;
        let at_firsts = at_winners + n;
        let at_streams = at_firsts + 2 * n;
        let corrupt = |what| DbError::Corrupt(games_path.clone(), what);
        if g.len() < at_streams {
            return Err(corrupt("shorter than its tables"));
        }
        let n_files = u32_at(g, 4) as usize;
        // Offsets read from the file: summed with overflow checks, so a
        // crafted file is refused, not wrapped round.
        let fits = |a: usize, b: u64| {
            usize::try_from(b)
                .ok()
                .and_then(|b| a.checked_add(b))
                .filter(|&x| x <= g.len())
                .ok_or_else(|| corrupt("offsets past the end"))
        };
        let at_infos = fits(at_streams, u64_at(g, at_stream_off + n * 8))?;
        let at_file_off = fits(at_infos, u64_at(g, at_info_off + n * 8))?;
        let at_file_names = fits(at_file_off, (n_files as u64 + 1) * 8)?;
        let end = fits(at_file_names, u64_at(g, at_file_off + n_files * 8))? as u64;
        // Each game's first position follows the one before's.
        let starts_ascend = (0..n)
            .all(|i| u32_at(g, at_pos + i * 4) <= u32_at(g, at_pos + i * 4 + 4))
            && u32_at(g, at_pos) == 0;
        if end != g.len() as u64
            || !starts_ascend
            || u64::from(u32_at(g, at_pos + n * 4)) != positions
            || num("games") != Some(n as u64)
        {
            return Err(corrupt("counts do not match"));
        }
        let files = (0..n_files)
            .map(|f| {
                let a = at_file_names + u64_at(g, at_file_off + 8 * f) as usize;
                let b = at_file_names + u64_at(g, at_file_off + 8 * (f + 1)) as usize;
                g.get(a..b)
                    .map(|s| String::from_utf8_lossy(s).into_owned())
                    .ok_or_else(|| corrupt("file name table"))
            })
            .collect::<Result<Vec<String>, DbError>>()?;
        let mut shard_files = Vec::with_capacity(SHARDS);
        for s in 0..SHARDS {
            let path = dir.join(shard_name(s));
            let f = load(&path, Kind::Shard)?.expect(id(s as u32), &path)?;
            Shard::new(f.payload(), layout).map_err(|what| DbError::Corrupt(path, what))?;
            bytes += f.len();
            shard_files.push(f);
        }
        let corner_path = dir.join("corners.kdb");
        let corner_file =
            load(&corner_path, Kind::Corners)?.expect(id(ROLE_CORNERS), &corner_path)?;
        let corner_shards = crate::corner::shard_ranges(corner_file.payload(), corner_layout)
            .map_err(|what| DbError::Corrupt(corner_path, what))?;
        if n as u64 > 1u64 << corner_layout.pos_bits {
            return Err(bad("more games than the corner index numbers"));
        }
        bytes += corner_file.len();
        Ok(Db {
            dir: dir.into(),
            meta,
            games_file,
            shard_files,
            layout,
            corner_file,
            corner_layout,
            corner_shards,
            hash_mask,
            n,
            positions,
            at_masks,
            at_pos,
            at_stream_off,
            at_info_off,
            at_winners,
            at_firsts,
            at_streams,
            at_infos,
            files,
            bytes,
        })
    }

    /// Return the database directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Return the build parameters.
    pub fn meta(&self) -> &Value {
        &self.meta
    }

    /// Return the number of games.
    pub fn games(&self) -> usize {
        self.n
    }

    /// Return the number of indexed positions.
    pub fn positions(&self) -> u64 {
        self.positions
    }

    /// Return the size of all files in bytes.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Return the mask applied to hashes (all ones but in test builds).
    pub fn hash_mask(&self) -> u64 {
        self.hash_mask
    }

    fn g(&self) -> &[u8] {
        self.games_file.payload()
    }

    /// Return the end-position filter of game `g`.
    pub fn masks(&self, g: usize) -> [u64; MASK_WORDS] {
        let at = self.at_masks + g * MASK_WORDS * 8;
        let mut m = [0u64; MASK_WORDS];
        for (i, w) in m.iter_mut().enumerate() {
            *w = u64_at(self.g(), at + 8 * i);
        }
        m
    }

    /// Return the global number of game `g`'s first position.
    pub fn pos_start(&self, g: usize) -> u32 {
        u32_at(self.g(), self.at_pos + 4 * g)
    }

    /// Return the number of moves of game `g`.
    pub fn moves(&self, g: usize) -> u16 {
        (self.pos_start(g + 1) - self.pos_start(g)).saturating_sub(1) as u16
    }

    /// Return the stream of game `g`.
    pub fn stream(&self, g: usize) -> &[u8] {
        let a = u64_at(self.g(), self.at_stream_off + 8 * g) as usize;
        let b = u64_at(self.g(), self.at_stream_off + 8 * (g + 1)) as usize;
        self.g()
            .get(self.at_streams + a..self.at_streams + b)
            .unwrap_or(&[])
    }

    /// Return the header text of game `g`.
    pub fn info(&self, g: usize) -> Info {
        let a = u64_at(self.g(), self.at_info_off + 8 * g) as usize;
        let b = u64_at(self.g(), self.at_info_off + 8 * (g + 1)) as usize;
        let bytes = self
            .g()
            .get(self.at_infos + a..self.at_infos + b)
            .unwrap_or(&[]);
        let file = u32_at(bytes, 0) as usize;
        let mut info = Info::decode(bytes.get(4..).unwrap_or(&[])).unwrap_or_default();
        info.file = self.files.get(file).cloned().unwrap_or_default();
        info
    }

    /// Return the winner of game `g`.
    pub fn winner(&self, g: usize) -> Winner {
        Winner::from_byte(*self.g().get(self.at_winners + g).unwrap_or(&0))
    }

    /// Return the first position of game `g` that is indexed and searched:
    /// 0, or for a variation the first after it branched off.
    pub fn first(&self, g: usize) -> u16 {
        let at = self.at_firsts + 2 * g;
        self.g()
            .get(at..at + 2)
            .map_or(0, |w| u16::from_le_bytes([w[0], w[1]]))
    }

    /// Return `(game, move)` of a global position number.
    pub fn locate(&self, pos: u32) -> Option<(usize, u16)> {
        if u64::from(pos) >= self.positions {
            return None;
        }
        // The last game whose start is <= pos.
        let (mut a, mut b) = (0usize, self.n);
        while b - a > 1 {
            let m = (a + b) / 2;
            if self.pos_start(m) <= pos {
                a = m;
            } else {
                b = m;
            }
        }
        let at = pos.checked_sub(self.pos_start(a))?;
        Some((a, u16::try_from(at).ok()?))
    }

    /// Call `hit(position)` for every index entry that may hold canonical hash `h`.
    pub fn lookup(&self, h: u64, hit: impl FnMut(u32)) {
        let h = h & self.hash_mask;
        let (s, b, c) = self.layout.split(h);
        if let Ok(shard) = Shard::new(self.shard_files[s].payload(), self.layout) {
            shard.lookup(self.layout, b, c, hit);
        }
    }

    /// Call `hit(game)` for every corner index entry that may hold corner
    /// key `k` (see [`crate::corner`]).
    pub fn corner_lookup(&self, k: u64, hit: impl FnMut(u32)) {
        let k = k & self.hash_mask;
        let (s, b, c) = self.corner_layout.split(k);
        let (a, e) = self.corner_shards[s];
        let payload = self.corner_file.payload();
        if let Ok(shard) = Shard::new(&payload[a..e], self.corner_layout) {
            shard.lookup(self.corner_layout, b, c, hit);
        }
    }

    /// Return the number of entries of the corner index.
    pub fn corner_entries(&self) -> usize {
        let payload = self.corner_file.payload();
        self.corner_shards
            .iter()
            .map(|&(a, e)| Shard::new(&payload[a..e], self.corner_layout).map_or(0, |s| s.len()))
            .sum()
    }

    /// Return the number of entries of every shard.
    pub fn shard_sizes(&self) -> Vec<usize> {
        self.shard_files
            .iter()
            .map(|f| Shard::new(f.payload(), self.layout).map_or(0, |s| s.len()))
            .collect()
    }
}
