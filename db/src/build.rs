//! `kosumi db build`: read game records, replay them, write the database.
//!
//! 1. Walk the inputs for `.sgf` and `.mgt` files (sorted, so game ids do
//!    not depend on the thread count).
//! 2. In parallel (rayon, with a progress bar), read each file's games
//!    ([`kosumi_sgf`]) and replay each on the core's board: the board
//!    judges legality and captures; the eight symmetry hashes of every
//!    position and the change stream are recorded on the way. A bad game is
//!    a line in the summary, never an abort.
//! 3. Drop duplicates (same setup and moves), number the games, and sort
//!    the index entries into their shards in parallel.
//! 4. Write everything into `OUT.tmp-PID`, sync, and only then put it in
//!    place: exchanged with an old database in one step where the system
//!    can (Linux), else the old one moved aside first and removed last, so
//!    `OUT` is always either the old or the new database, whole.
//!
//! `db add` ([`add`]) takes a database's games from it as they are (their
//! streams replayed for the hashes) and runs steps 2 to 4 with the new
//! files. One writer at a time: a build or add holds `OUT.lock`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use kosumi_core::board::Board;
use kosumi_core::geometry::{Cell, Color, Geometry, Point};
use rayon::prelude::*;
use serde_json::json;

use crate::format::{
    new_build_id, write_file, Identity, Kind, ROLE_CORNERS, ROLE_GAMES, ROLE_META,
};
use crate::index::{encode_shard, Layout, SHARDS};
use crate::record::{Info, Step, StreamWriter, Winner};
use crate::store::{shard_name, Db, GamesWriter, MASK_WORDS};
use crate::symmetry::{SymHash, N, POINTS};
use kosumi_sgf::Record;

/// Longest game accepted, in moves.
pub const MAX_MOVES: usize = 4000;

/// How to build.
#[derive(Clone, Debug)]
pub struct Options {
    /// Worker threads (`None`: one per core).
    pub threads: Option<usize>,
    /// Keep only the top bits of every hash (64: all). A test hook that
    /// forces collisions, which search must weed out by replay.
    pub hash_bits: u32,
    /// Draw a progress bar on stderr.
    pub progress: bool,
    /// Index the variations of each game too, each as a game of its own
    /// (an add keeps the setting of the database it adds to, or turns it on).
    pub variations: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            threads: None,
            hash_bits: 64,
            progress: false,
            variations: false,
        }
    }
}

/// What a build did.
#[derive(Debug, Default)]
pub struct Report {
    /// Files read.
    pub files: usize,
    /// Games written (all of them, after an add).
    pub games: usize,
    /// Games new to the database (all of them, for a build).
    pub added: usize,
    /// Positions indexed.
    pub positions: u64,
    /// Games or files skipped: `(where, why)`.
    pub skipped: Vec<(String, String)>,
    /// Duplicates dropped: `(where, first seen at)`.
    pub duplicates: Vec<(String, String)>,
    /// Wall time in seconds.
    pub seconds: f64,
    /// Size of the database in bytes.
    pub bytes: u64,
}

/// One replayed game.
struct Game {
    info: Info,
    winner: Winner,
    /// The first position indexed (a variation's first after its branch).
    first: u16,
    stream: Vec<u8>,
    masks: [u64; MASK_WORDS],
    /// Canonical hash of each position (move 0 ..= moves).
    hashes: Vec<u64>,
    /// Every key its corners take ([`crate::corner::game_keys`]).
    corners: Vec<u64>,
}

/// Replay a record on the core board; return the game or why it is refused.
pub fn replay(rec: &Record, hash_mask: u64) -> Result<GameData, String> {
    if rec.size != (N as u8, N as u8) {
        return Err(format!(
            "unsupported size {}x{} (the database holds 19x19)",
            rec.size.0, rec.size.1
        ));
    }
    if rec.moves.len() > MAX_MOVES {
        return Err(format!("unsupported: more than {MAX_MOVES} moves"));
    }
    if rec.later.iter().any(|l| !l.changes.is_empty()) {
        return Err("unsupported: setup stones after a move".into());
    }
    let mut board = Board::new(N).map_err(|_| "19x19 unsupported by this build".to_string())?;
    let geo = board.geometry();
    let mut cells = [0u8; POINTS];
    let mut h = SymHash::default();
    let mut stream = StreamWriter::default();
    let mut masks = [0u64; MASK_WORDS];
    let mut hashes = Vec::with_capacity(rec.moves.len() + 1);
    let mark = |masks: &mut [u64; MASK_WORDS], p: usize, c: Color| {
        masks[c.idx() * 6 + p / 64] |= 1 << (p % 64);
    };
    for &((x, y), c) in &rec.setup {
        let p = y as usize * N + x as usize;
        board
            .setup_stone(core_point(geo, p), c)
            .map_err(|e| format!("bad setup stone {}: {e:?}", kosumi_sgf::point_name((x, y))))?;
        cells[p] = 1 + c as u8;
        h.toggle(p, c.idx());
        stream.setup(p as u16, c);
        mark(&mut masks, p, c);
    }
    hashes.push(h.canonical() & hash_mask);
    let mut captured = Vec::new();
    for (i, &(c, mv)) in rec.moves.iter().enumerate() {
        let p = mv.map(|(x, y)| y as usize * N + x as usize);
        let pt = p.map_or(Point::PASS, |p| core_point(geo, p));
        board.play(pt, c).map_err(|e| {
            let at = mv.map_or("pass".into(), kosumi_sgf::point_name);
            format!("illegal move {} ({:?} {at}): {e:?}", i + 1, c)
        })?;
        captured.clear();
        if let Some(p) = p {
            cells[p] = 1 + c as u8;
            h.toggle(p, c.idx());
            mark(&mut masks, p, c);
            let opp = 1 + c.opponent() as u8;
            for q in neighbours(p) {
                if cells[q] == opp && board.at(core_point(geo, q)) == Cell::Empty {
                    flood_remove(&mut cells, q, opp, &mut captured);
                }
            }
            for &q in &captured {
                h.toggle(q as usize, c.opponent().idx());
            }
        }
        debug_assert_eq!(h.0[0], board.position_hash());
        stream.play(c, p.map(|p| p as u16), &captured);
        hashes.push(h.canonical() & hash_mask);
    }
    let stream = stream.finish();
    let mut events = Vec::new();
    crate::record::decode(&stream, &mut events).map_err(|e| format!("stream: {e}"))?;
    let mut corners = Vec::new();
    crate::corner::game_keys(&events, hash_mask, &mut corners);
    Ok(GameData {
        stream,
        masks,
        hashes,
        corners,
    })
}

/// What [`replay`] returns: the stored form of one game.
pub struct GameData {
    /// The change stream.
    pub stream: Vec<u8>,
    /// The end-position filter.
    pub masks: [u64; MASK_WORDS],
    /// Canonical hash of each position.
    pub hashes: Vec<u64>,
    /// Every key its corners take.
    pub corners: Vec<u64>,
}

/// Return the core's point for a database point.
pub fn core_point(geo: Geometry, p: usize) -> Point {
    geo.point(p % N, N - 1 - p / N)
}

/// Return the on-board neighbours of `p`.
pub fn neighbours(p: usize) -> impl Iterator<Item = usize> {
    let (x, y) = (p % N, p / N);
    [
        (x > 0).then(|| p - 1),
        (x + 1 < N).then(|| p + 1),
        (y > 0).then(|| p - N),
        (y + 1 < N).then(|| p + N),
    ]
    .into_iter()
    .flatten()
}

/// Remove the chain of colour `c` at `p` from `cells`, noting its points.
fn flood_remove(cells: &mut [u8; POINTS], p: usize, c: u8, out: &mut Vec<u16>) {
    let mut stack = vec![p];
    cells[p] = 0;
    while let Some(q) = stack.pop() {
        out.push(q as u16);
        for r in neighbours(q) {
            if cells[r] == c {
                cells[r] = 0;
                stack.push(r);
            }
        }
    }
}

/// Return the `.sgf` / `.mgt` files under `inputs`, sorted.
///
/// # Errors
/// A message for an input that does not exist.
pub fn collect_files(inputs: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for input in inputs {
        if !input.exists() {
            return Err(format!("{}: no such file or directory", input.display()));
        }
        for entry in walkdir::WalkDir::new(input).follow_links(true) {
            let entry = entry.map_err(|e| e.to_string())?;
            let ext = entry.path().extension().and_then(|e| e.to_str());
            let ext = ext.map(str::to_ascii_lowercase);
            if entry.file_type().is_file() && matches!(ext.as_deref(), Some("sgf" | "mgt")) {
                files.push(entry.into_path());
            }
        }
    }
    files.sort();
    files.dedup();
    Ok(files)
}

/// The games of one file, and what was skipped: `(where, why)`.
type FileGames = (Vec<Game>, Vec<(String, String)>);

/// Read and replay every game of one file.
fn read_file(path: &Path, hash_mask: u64, variations: bool) -> FileGames {
    let name = path.display().to_string();
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => return (Vec::new(), vec![(name, format!("unreadable: {e}"))]),
    };
    let text = String::from_utf8_lossy(&bytes);
    let (mut games, mut skipped) = (Vec::new(), Vec::new());
    let records = kosumi_sgf::read_collection(&text);
    let many = records.len() > 1;
    for (i, rec) in records.into_iter().enumerate() {
        let at = if many {
            format!("{name}#{i}")
        } else {
            name.clone()
        };
        let mut rec = match rec {
            Ok(r) => r,
            Err(e) => {
                skipped.push((at, e.to_string()));
                continue;
            }
        };
        let game = |data: GameData, variation: usize, first: usize| Game {
            info: Info {
                file: name.clone(),
                index: i.min(u16::MAX as usize) as u16,
                variation: variation as u16,
                black: rec.info.black.clone(),
                white: rec.info.white.clone(),
                result: rec.info.result.clone(),
                date: rec.info.date.clone(),
                event: rec.info.event.clone(),
            },
            winner: Winner::from_result(&rec.info.result),
            first: first as u16,
            stream: data.stream,
            masks: data.masks,
            hashes: data.hashes,
            corners: data.corners,
        };
        match replay(&rec, hash_mask) {
            Ok(data) => games.push(game(data, 0, 0)),
            Err(why) => {
                skipped.push((at, why));
                continue;
            }
        }
        if !variations {
            continue;
        }
        // Each other line as a game of its own, from the root: its moves
        // are at most MAX_MOVES and fit a u16, as the main line's.
        let mut lines = std::mem::take(&mut rec.variations);
        lines.truncate(usize::from(u16::MAX));
        for (k, var) in lines.into_iter().enumerate() {
            let line = kosumi_sgf::Record {
                moves: var.moves,
                ..rec.clone()
            };
            match replay(&line, hash_mask) {
                Ok(data) => games.push(game(data, k + 1, var.branch + 1)),
                Err(why) => skipped.push((format!("{at} variation {}", k + 1), why)),
            }
        }
    }
    (games, skipped)
}

/// Build the database `out` from `inputs`.
///
/// # Errors
/// A message when no database could be written (no input, I/O); bad games
/// only go into the report.
pub fn build(inputs: &[PathBuf], out: &Path, opts: &Options) -> Result<Report, String> {
    in_pool(opts, || build_in_pool(inputs, out, opts))
}

/// Run `work` on a thread pool of `opts.threads` threads.
fn in_pool(
    opts: &Options,
    work: impl FnOnce() -> Result<Report, String> + Send,
) -> Result<Report, String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads.unwrap_or(0))
        .build()
        .map_err(|e| e.to_string())?;
    pool.install(work)
}

fn build_in_pool(inputs: &[PathBuf], out: &Path, opts: &Options) -> Result<Report, String> {
    let start = Instant::now();
    if out.exists() && !out.join("meta.kdb").exists() {
        return Err(format!(
            "{}: exists and is not a kosumi database; not replacing it",
            out.display()
        ));
    }
    let _lock = WriteLock::take(out)?;
    let files = collect_files(inputs)?;
    let hash_mask = u64::MAX << (64 - opts.hash_bits.clamp(1, 64));
    let per_file = read_files(&files, hash_mask, opts);
    let sources: Vec<String> = inputs.iter().map(|p| p.display().to_string()).collect();
    write_database(
        per_file,
        out,
        opts,
        Base::default(),
        files.len(),
        sources,
        start,
    )
}

/// Add the games of `inputs` to the database `out`: the database's games
/// are taken from it as they are (their streams replayed for the hashes,
/// no SGF read again), the new ones read and replayed, duplicates of
/// either dropped, and a new database written beside the old one and
/// exchanged with it in one step. A search running meanwhile keeps
/// reading the old files it opened; a killed add leaves the old database
/// whole (its temporary directory is removed by the next build or add).
///
/// # Errors
/// A message for a missing or damaged database, or when nothing could be
/// written.
pub fn add(inputs: &[PathBuf], out: &Path, opts: &Options) -> Result<Report, String> {
    in_pool(opts, || add_in_pool(inputs, out, opts))
}

fn add_in_pool(inputs: &[PathBuf], out: &Path, opts: &Options) -> Result<Report, String> {
    let start = Instant::now();
    let _lock = WriteLock::take(out)?;
    let db = Db::open(out).map_err(|e| e.to_string())?;
    let meta = db.meta();
    let hash_bits = meta
        .get("hash_bits")
        .and_then(serde_json::Value::as_u64)
        .unwrap_or(64) as u32;
    let hash_mask = u64::MAX << (64 - hash_bits.clamp(1, 64));
    let old: Vec<Game> = (0..db.games())
        .into_par_iter()
        .map(|g| stored_game(&db, g, hash_mask))
        .collect::<Result<_, _>>()?;
    let base = Base {
        games: old.len(),
        files: meta
            .get("files")
            .and_then(serde_json::Value::as_u64)
            .unwrap_or(0) as usize,
        skipped: meta
            .get("skipped")
            .and_then(serde_json::Value::as_u64)
            .unwrap_or(0) as usize,
        duplicates: meta
            .get("duplicates")
            .and_then(serde_json::Value::as_u64)
            .unwrap_or(0) as usize,
    };
    let mut sources: Vec<String> = meta
        .get("sources")
        .and_then(serde_json::Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    sources.extend(inputs.iter().map(|p| p.display().to_string()));
    let files = collect_files(inputs)?;
    let mut per_file = vec![(old, Vec::new())];
    let variations = opts.variations
        || meta
            .get("variations")
            .and_then(serde_json::Value::as_bool)
            .unwrap_or(false);
    let opts = Options {
        hash_bits,
        variations,
        ..opts.clone()
    };
    per_file.extend(read_files(&files, hash_mask, &opts));
    // The old files stay mapped until the new database is in place.
    let report = write_database(per_file, out, &opts, base, files.len(), sources, start);
    drop(db);
    report
}

/// Return game `g` of `db` as a build holds it, its position hashes
/// recomputed from its stream.
fn stored_game(db: &Db, g: usize, hash_mask: u64) -> Result<Game, String> {
    let stream = db.stream(g).to_vec();
    let mut events = Vec::new();
    crate::record::decode(&stream, &mut events).map_err(|e| format!("game {g}: {e}"))?;
    let mut h = SymHash::default();
    let mut hashes = Vec::new();
    crate::record::walk(&events, |step| match step {
        Step::Toggle(p, c) => h.toggle(p, c.idx()),
        Step::Position => hashes.push(h.canonical() & hash_mask),
    });
    if hashes.len() != db.moves(g) as usize + 1 {
        return Err(format!("game {g}: its stream does not hold its moves"));
    }
    let mut corners = Vec::new();
    crate::corner::game_keys(&events, hash_mask, &mut corners);
    Ok(Game {
        info: db.info(g),
        winner: db.winner(g),
        first: db.first(g),
        stream,
        masks: db.masks(g),
        hashes,
        corners,
    })
}

/// Read and replay `files` in parallel, with a progress bar if asked.
fn read_files(files: &[PathBuf], hash_mask: u64, opts: &Options) -> Vec<FileGames> {
    let bar = if opts.progress {
        let bar = ProgressBar::new(files.len() as u64);
        if let Ok(style) =
            ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} files {msg}")
        {
            bar.set_style(style.progress_chars("=> "));
        }
        bar
    } else {
        ProgressBar::hidden()
    };
    let per_file: Vec<FileGames> = files
        .par_iter()
        .map(|f| {
            let r = read_file(f, hash_mask, opts.variations);
            bar.inc(1);
            r
        })
        .collect();
    bar.finish_and_clear();
    per_file
}

/// What a database being added to held already.
#[derive(Default)]
struct Base {
    games: usize,
    files: usize,
    skipped: usize,
    duplicates: usize,
}

/// Number the games of `per_file` (dropping duplicates), index them, and
/// write the database `out` in place of any there.
fn write_database(
    per_file: Vec<FileGames>,
    out: &Path,
    opts: &Options,
    base: Base,
    files: usize,
    sources: Vec<String>,
    start: Instant,
) -> Result<Report, String> {
    let mut report = Report {
        files,
        ..Report::default()
    };
    let mut writer = GamesWriter::default();
    let mut seen: HashMap<u64, Vec<(usize, String)>> = HashMap::new();
    let mut kept: Vec<(u16, Vec<u64>)> = Vec::new();
    let mut corners: Vec<Vec<u64>> = Vec::new();
    let mut streams: Vec<Vec<u8>> = Vec::new();
    for (games, skipped) in per_file {
        report.skipped.extend(skipped);
        for g in games {
            let key = fingerprint(&g.stream);
            let at = crate::output::game_name(&g.info);
            let same = seen.entry(key).or_default();
            if let Some((_, first)) = same.iter().find(|(id, _)| streams[*id] == g.stream) {
                report.duplicates.push((at, first.clone()));
                continue;
            }
            let id = writer.add(
                &g.masks,
                g.hashes.len() as u32,
                g.first,
                &g.stream,
                &g.info,
                g.winner,
            );
            same.push((id as usize, at));
            streams.push(g.stream);
            kept.push((g.first, g.hashes));
            corners.push(g.corners);
        }
    }
    drop(streams);
    report.games = kept.len();
    report.added = kept.len() - base.games;
    report.positions = writer.positions();
    let layout = Layout::for_positions(report.positions)?;

    let mut shards: Vec<Vec<u64>> = vec![Vec::new(); SHARDS];
    let mut pos = 0u32;
    for (first, hashes) in &kept {
        // A variation's positions before its branch are its parent line's.
        for (k, &h) in hashes.iter().enumerate() {
            if k >= usize::from(*first) {
                let (s, key) = layout.key(h, pos);
                shards[s].push(key);
            }
            pos += 1;
        }
    }
    drop(kept);
    let (corner_payload, corner_layout) = crate::corner::encode(&corners)?;
    drop(corners);

    let tmp = tmp_dir(out);
    if tmp.exists() {
        std::fs::remove_dir_all(&tmp).map_err(|e| format!("{}: {e}", tmp.display()))?;
    }
    std::fs::create_dir_all(&tmp).map_err(|e| format!("{}: {e}", tmp.display()))?;
    let totals = Totals {
        files: base.files + report.files,
        skipped: base.skipped + report.skipped.len(),
        duplicates: base.duplicates + report.duplicates.len(),
        sources,
    };
    let index = Index {
        shards,
        layout,
        corners: corner_payload,
        corner_layout,
    };
    let written = write_all(&tmp, writer, index, opts, &totals, &report, start);
    if let Err(e) = written {
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(e);
    }
    report.bytes = dir_bytes(&tmp);
    swap_into_place(&tmp, out)?;
    report.seconds = start.elapsed().as_secs_f64();
    Ok(report)
}

/// The counts `meta.kdb` records over every build and add.
struct Totals {
    files: usize,
    skipped: usize,
    duplicates: usize,
    sources: Vec<String>,
}

/// Return a 64-bit fingerprint of a stream (FNV-1a).
fn fingerprint(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Return the temporary directory a build of `out` writes into.
fn tmp_dir(out: &Path) -> PathBuf {
    let mut name = out.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".tmp-{}", std::process::id()));
    out.with_file_name(name)
}

/// The indexes of a database being written.
struct Index {
    /// Each shard's sort keys ([`Layout::key`]).
    shards: Vec<Vec<u64>>,
    layout: Layout,
    /// The payload of `corners.kdb`.
    corners: Vec<u8>,
    corner_layout: Layout,
}

fn write_all(
    dir: &Path,
    games: GamesWriter,
    index: Index,
    opts: &Options,
    totals: &Totals,
    report: &Report,
    start: Instant,
) -> Result<(), String> {
    let build = new_build_id();
    let id = |role| Identity { build, role };
    let Index {
        mut shards,
        layout,
        corners,
        corner_layout,
    } = index;
    write_file(
        &dir.join("corners.kdb"),
        Kind::Corners,
        id(ROLE_CORNERS),
        &corners,
    )?;
    shards
        .par_iter_mut()
        .enumerate()
        .try_for_each(|(s, keys)| {
            keys.sort_unstable();
            write_file(
                &dir.join(shard_name(s)),
                Kind::Shard,
                id(s as u32),
                &encode_shard(layout, keys),
            )
        })?;
    let n_games = report.games;
    write_file(
        &dir.join("games.kdb"),
        Kind::Games,
        id(ROLE_GAMES),
        &games.encode(),
    )?;
    let built = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let meta = json!({
        "format": crate::format::VERSION,
        "kosumi": env!("CARGO_PKG_VERSION"),
        "board_size": N,
        "games": n_games,
        "positions": report.positions,
        "files": totals.files,
        "skipped": totals.skipped,
        "duplicates": totals.duplicates,
        "sources": totals.sources,
        "threads": rayon::current_num_threads(),
        "shards": SHARDS,
        "bucket_bits": layout.bucket_bits,
        "pos_bits": layout.pos_bits,
        "check_bits": layout.check_bits(),
        "corner_bucket_bits": corner_layout.bucket_bits,
        "corner_game_bits": corner_layout.pos_bits,
        "hash_bits": opts.hash_bits.clamp(1, 64),
        "variations": opts.variations,
        "hash": "stones only, min over the 8 symmetries; colour swap tried at query time",
        "built_unix": built,
        "build_id": format!("{build:016x}"),
        "build_seconds": start.elapsed().as_secs_f64(),
    });
    write_file(
        &dir.join("meta.kdb"),
        Kind::Meta,
        id(ROLE_META),
        meta.to_string().as_bytes(),
    )
}

/// Return the total size of the files in `dir`.
pub fn dir_bytes(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .filter_map(|e| e.metadata().ok())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0)
}

/// Move the finished `tmp` to `out`; an old database is moved aside first
/// and removed only after the new one is in place.
fn swap_into_place(tmp: &Path, out: &Path) -> Result<(), String> {
    let err = |p: &Path, e: std::io::Error| format!("{}: {e}", p.display());
    if out.exists() {
        if !out.join("meta.kdb").exists() {
            return Err(format!(
                "{}: exists and is not a kosumi database; not replacing it (the new one is in {})",
                out.display(),
                tmp.display()
            ));
        }
        // One step where the system can: `out` is never missing.
        if exchange(tmp, out).is_ok() {
            return std::fs::remove_dir_all(tmp).map_err(|e| err(tmp, e));
        }
        let mut old = out.file_name().unwrap_or_default().to_os_string();
        old.push(format!(".old-{}", std::process::id()));
        let old = out.with_file_name(old);
        std::fs::rename(out, &old).map_err(|e| err(out, e))?;
        std::fs::rename(tmp, out).map_err(|e| err(tmp, e))?;
        std::fs::remove_dir_all(&old).map_err(|e| err(&old, e))?;
    } else {
        std::fs::rename(tmp, out).map_err(|e| err(tmp, e))?;
    }
    Ok(())
}

/// Exchange two directories in one step (Linux's `renameat2` with
/// `RENAME_EXCHANGE`); an error where the system or file system cannot.
fn exchange(a: &Path, b: &Path) -> std::io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::ffi::OsStrExt;
        let c = |p: &Path| {
            std::ffi::CString::new(p.as_os_str().as_bytes()).map_err(std::io::Error::other)
        };
        let (ca, cb) = (c(a)?, c(b)?);
        // SAFETY: two NUL-terminated paths that live across the call.
        #[allow(unsafe_code)]
        let r = unsafe {
            libc::renameat2(
                libc::AT_FDCWD,
                ca.as_ptr(),
                libc::AT_FDCWD,
                cb.as_ptr(),
                libc::RENAME_EXCHANGE,
            )
        };
        if r == 0 {
            Ok(())
        } else {
            Err(std::io::Error::last_os_error())
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (a, b);
        Err(std::io::ErrorKind::Unsupported.into())
    }
}

/// One writer of a database at a time: an exclusive lock on `OUT.lock`
/// for the whole build or add (released by the system when the process
/// ends, however it ends). Whoever holds it removes what killed writers
/// left (`OUT.tmp-*`, `OUT.old-*`).
struct WriteLock {
    _file: std::fs::File,
    path: PathBuf,
}

impl Drop for WriteLock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

impl WriteLock {
    fn take(out: &Path) -> Result<WriteLock, String> {
        let name = out
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let path = out.with_file_name(format!("{name}.lock"));
        let dir = out
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        #[cfg(unix)]
        {
            use std::os::unix::io::AsRawFd;
            // SAFETY: flock on a descriptor the `File` owns.
            #[allow(unsafe_code)]
            let r = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
            if r != 0 {
                return Err(format!(
                    "{}: another build or add of this database is running",
                    out.display()
                ));
            }
        }
        let dir = out
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        if let Ok(entries) = std::fs::read_dir(dir) {
            let own = tmp_dir(out);
            for e in entries.filter_map(Result::ok) {
                let n = e.file_name().to_string_lossy().into_owned();
                let left = n
                    .strip_prefix(&name)
                    .is_some_and(|r| r.starts_with(".tmp-") || r.starts_with(".old-"));
                if left && e.path() != own {
                    let _ = std::fs::remove_dir_all(e.path());
                }
            }
        }
        Ok(WriteLock { _file: file, path })
    }
}
