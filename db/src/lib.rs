//! `kosumi db`: a game database with full-board and pattern search, after
//! the `004_*` seed and Kombilo.
//!
//! # Design
//! - **Games** (19x19 only; other sizes are skipped as unsupported) are
//!   replayed once at build time on the core's board. Each is stored as a
//!   change stream of 9-bit symbols: moves *and* the stones they capture
//!   ([`record`]), so search replays without Go rules, plus the seed's
//!   end-position filter (which points ever held black, white) and the
//!   header text ([`store`]). With `--variations` every other line of a
//!   game tree is stored as a game of its own; the positions it shares
//!   with the line it branched off are indexed and found once, there.
//! - **Positions**: every position of every line (after setup and after
//!   each move) gets the core's Zobrist hash of its stones, made canonical
//!   as the least hash of its eight symmetric images ([`symmetry`]). Colour
//!   swap is not stored: a query asking for it looks the swapped position up
//!   too. The index is the sorted array of (hash, position) split into 256
//!   memory-mapped shard files by the top 8 hash bits, a bucket table per
//!   shard, and 4-byte entries holding the position number and as many
//!   further hash bits as fit ([`index`]). Every candidate is verified by
//!   replaying its game to that move ([`search`]).
//! - **Patterns** ([`pattern`]): the end-position filter on 19-bit rows drops
//!   games and offsets that can never match; the survivors' per-point time
//!   lines (the seed's move ranges) are intersected cell by cell, so only
//!   the moves in which a match is possible are looked at. Both cores.
//!   A corner pattern without wildcards in its 7x7 corner scans only the
//!   games the corner index lists for that corner ([`corner`], built as
//!   Kombilo hashes corners).
//! - **Files** ([`format`](mod@format)): a versioned header with a payload checksum and
//!   a header checksum on every file; a build writes a new directory and
//!   renames it into place.
//!
//! | module | job |
//! |---|---|
//! | [`build`] | walk, read, replay, dedupe, write atomically |
//! | [`format`](mod@format) | file header, checksums, errors |
//! | [`record`] | change streams, winners, header text |
//! | [`store`] | `games.kdb` layout and the open database |
//! | [`index`] | shard layout and look-up |
//! | [`symmetry`] | the 8 symmetries and canonical hashes |
//! | [`corner`] | the 7x7 corners hashed at build time, looked up by corner patterns |
//! | [`search`] | full-board search |
//! | [`filter`] | game-information filters, saved results searched again |
//! | [`pattern`] | pattern parsing, variants, filtered search |
//! | [`output`] | diagrams, continuation tables, JSON |
//! | [`generate`] | kosumi's own game records |
//! | [`serve`] | `db serve`: the page in the browser and its JSON API |

pub mod build;
pub mod corner;
pub mod filter;
pub mod format;
pub mod generate;
pub mod index;
pub mod output;
pub mod pattern;
pub mod record;
pub mod search;
pub mod serve;
pub mod store;
pub mod symmetry;

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{Args, Subcommand, ValueEnum};
use serde_json::{json, Value};

use filter::{Filter, FilterArgs};
use kosumi_core::geometry::Color;
use pattern::{Anchor, Pattern, Region};
use store::Db;
use symmetry::{N, POINTS};

/// Let a closed stdout end a report quietly, as a C tool does
/// (`kosumi db search ... | head`, and the `kosumi` binary's benchmarks and
/// pattern tools): Rust ignores SIGPIPE, so `println!` would
/// panic on the broken pipe instead. The GTP engine keeps Rust's default:
/// its loop ends on the write error; so do `match` and `bench score`, whose
/// writes to an engine that died must be errors that name it, not a
/// silent death of the runner.
pub fn die_on_broken_pipe() {
    #[cfg(unix)]
    // SAFETY: restoring the default action of one signal at start-up,
    // before any thread exists; no handler runs Rust code.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// `kosumi db ...` commands.
#[derive(Subcommand, Debug)]
pub enum DbCommand {
    /// Build a database from SGF files (`.sgf`, `.mgt`) found under DIRs.
    Build(BuildArgs),
    /// Add the games of SGF files to a database (searches keep running).
    Add(AddArgs),
    /// Search a database for a position or a pattern.
    Search(Box<SearchArgs>),
    /// Show a database's size and build parameters.
    Info(InfoArgs),
    /// Serve a database to a page in the browser (a local web server).
    Serve(ServeArgs),
    /// Write games played by kosumi's playouts as SGF.
    Generate(GenerateArgs),
}

/// Arguments of `db build`.
#[derive(Args, Debug)]
pub struct BuildArgs {
    /// Folders or files to read, recursively.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// The database directory to write.
    #[arg(long)]
    pub out: PathBuf,
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
    /// Index every game's variations too (each searched as a line of its own).
    #[arg(long)]
    pub variations: bool,
    /// Print every skipped game (default: the first 20 of each kind).
    #[arg(long)]
    pub verbose: bool,
    /// Test hook: keep only this many top bits of each hash (forces collisions).
    #[arg(long, default_value_t = 64, hide = true)]
    pub debug_hash_bits: u32,
}

/// Arguments of `db add`.
#[derive(Args, Debug)]
pub struct AddArgs {
    /// The database directory.
    pub db: PathBuf,
    /// Folders or files to read, recursively.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
    /// Index the variations of the added games (on anyway if the database
    /// was built with them).
    #[arg(long)]
    pub variations: bool,
}

/// Which symmetries a search uses.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Symmetries {
    /// All eight rotations and reflections.
    All,
    /// The query as given only.
    None,
}

/// Arguments of `db search`.
#[derive(Args, Debug)]
pub struct SearchArgs {
    /// The database directory.
    pub db: PathBuf,
    /// A position: an SGF file, optionally `:N` for the position after move N.
    #[arg(long, conflicts_with = "pattern")]
    pub position: Option<String>,
    /// A pattern file (rows of `X O . * x o`).
    #[arg(long)]
    pub pattern: Option<PathBuf>,
    /// Where the pattern may sit.
    #[arg(long, value_enum, default_value_t = Anchor::Anywhere)]
    pub anchor: Anchor,
    /// Where the pattern's top-left cell may sit: a rectangle given by two
    /// corners, e.g. `A19-G13` (instead of `--anchor`).
    #[arg(long, conflicts_with = "anchor")]
    pub region: Option<String>,
    /// Only positions where this colour plays next (and its moves as
    /// continuations).
    #[arg(long, value_enum)]
    pub next: Option<NextColour>,
    /// Game-information filters.
    #[command(flatten)]
    pub filter: FilterArgs,
    /// Save the matched games to FILE, to search within them later
    /// (`--within FILE`).
    #[arg(long)]
    pub save: Option<PathBuf>,
    /// Symmetries to search under.
    #[arg(long, value_enum, default_value_t = Symmetries::All)]
    pub symmetries: Symmetries,
    /// Also find the position or pattern with the colours exchanged.
    #[arg(long)]
    pub swap_colours: bool,
    /// Games listed at most (0: all).
    #[arg(long, default_value_t = 50)]
    pub limit: usize,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `db serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The database directory.
    pub db: PathBuf,
    /// Address to listen on (port 0: any free port; the address is printed).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: String,
}

/// Arguments of `db info`.
#[derive(Args, Debug)]
pub struct InfoArgs {
    /// The database directory.
    pub db: PathBuf,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `db generate`.
#[derive(Args, Debug)]
pub struct GenerateArgs {
    /// Number of games.
    #[arg(long)]
    pub games: u64,
    /// Seed; game i of a seed is always the same game.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Output folder.
    #[arg(long)]
    pub out: PathBuf,
    /// Games per file.
    #[arg(long, default_value_t = 100)]
    pub per_file: u64,
}

/// Run a `db` command.
///
/// # Errors
/// A message for bad arguments, unreadable input or a damaged database.
pub fn run(cmd: DbCommand) -> Result<(), String> {
    match cmd {
        DbCommand::Build(a) => run_build(&a),
        DbCommand::Add(a) => run_add(&a),
        DbCommand::Search(a) => run_search(&a),
        DbCommand::Info(a) => run_info(&a),
        DbCommand::Serve(a) => serve::run(&a.db, &a.addr),
        DbCommand::Generate(a) => {
            let t = Instant::now();
            let files = generate::generate(a.games, a.seed, &a.out, a.per_file)?;
            println!(
                "wrote {} games in {files} files to {} in {:.1} s",
                a.games,
                a.out.display(),
                t.elapsed().as_secs_f64()
            );
            Ok(())
        }
    }
}

/// Print the games a build or add skipped and the duplicates it dropped
/// (the first 20 of each kind unless `verbose`).
fn print_dropped(r: &build::Report, verbose: bool) {
    let most = if verbose { usize::MAX } else { 20 };
    println!("skipped: {}", r.skipped.len());
    let mut kinds: Vec<(String, usize)> = Vec::new();
    for (_, why) in &r.skipped {
        let kind = reason_kind(why);
        match kinds.iter_mut().find(|k| k.0 == kind) {
            Some(k) => k.1 += 1,
            None => kinds.push((kind, 1)),
        }
    }
    for (kind, n) in &kinds {
        println!("  {n:>6}  {kind}");
        let shown = r.skipped.iter().filter(|s| reason_kind(&s.1) == *kind);
        for (at, why) in shown.take(most) {
            println!("          {at}: {why}");
        }
    }
    println!("duplicates: {}", r.duplicates.len());
    for (at, first) in r.duplicates.iter().take(most) {
        println!("          {at}: same game as {first}");
    }
}

fn run_add(a: &AddArgs) -> Result<(), String> {
    let opts = build::Options {
        threads: a.threads,
        progress: !a.quiet,
        variations: a.variations,
        ..build::Options::default()
    };
    let r = build::add(&a.inputs, &a.db, &opts)?;
    println!(
        "added {} games to {} ({} in all, {} positions) from {} files in {:.1} s, {:.1} MB",
        r.added,
        a.db.display(),
        r.games,
        r.positions,
        r.files,
        r.seconds,
        r.bytes as f64 / 1e6
    );
    print_dropped(&r, false);
    Ok(())
}

fn run_build(a: &BuildArgs) -> Result<(), String> {
    let opts = build::Options {
        threads: a.threads,
        hash_bits: a.debug_hash_bits,
        progress: !a.quiet,
        variations: a.variations,
    };
    let r = build::build(&a.inputs, &a.out, &opts)?;
    println!(
        "built {}: {} games, {} positions from {} files in {:.1} s, {:.1} MB",
        a.out.display(),
        r.games,
        r.positions,
        r.files,
        r.seconds,
        r.bytes as f64 / 1e6
    );
    print_dropped(&r, a.verbose);
    Ok(())
}

/// Return the kind of a skip reason: its words before any detail.
fn reason_kind(why: &str) -> String {
    let end = why
        .find(|c: char| c.is_ascii_digit() || c == ':' || c == '(')
        .unwrap_or(why.len());
    why[..end].trim().to_string()
}

fn open(path: &Path) -> Result<Db, String> {
    Db::open(path).map_err(|e| e.to_string())
}

fn run_info(a: &InfoArgs) -> Result<(), String> {
    let db = open(&a.db)?;
    let sizes = db.shard_sizes();
    let info = json!({
        "db": db.dir().display().to_string(),
        "games": db.games(),
        "positions": db.positions(),
        "db_bytes": db.bytes(),
        "shards": sizes.len(),
        "shard_entries_min": sizes.iter().min(),
        "shard_entries_max": sizes.iter().max(),
        "corner_entries": db.corner_entries(),
        "build": db.meta(),
    });
    if a.json {
        println!("{info}");
        return Ok(());
    }
    println!("database   {}", db.dir().display());
    println!("games      {}", db.games());
    println!("positions  {}", db.positions());
    println!(
        "size       {:.1} MB ({} bytes, {} files)",
        db.bytes() as f64 / 1e6,
        db.bytes(),
        sizes.len() + 3
    );
    println!(
        "shards     {} ({}..{} entries)",
        sizes.len(),
        sizes.iter().min().unwrap_or(&0),
        sizes.iter().max().unwrap_or(&0)
    );
    println!(
        "corners    {} entries (game, 7x7 corner)",
        db.corner_entries()
    );
    if let Value::Object(m) = db.meta() {
        for (k, v) in m {
            println!("  {k:<14} {v}");
        }
    }
    Ok(())
}

/// Return the position of an SGF file's first game after `moves` moves
/// (all of them if `None`).
///
/// # Errors
/// A message when the file holds no usable 19x19 game.
pub fn position_from_sgf(path: &Path, moves: Option<usize>) -> Result<[u8; POINTS], String> {
    let text = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let recs = kosumi_sgf::read_collection(&String::from_utf8_lossy(&text));
    let mut rec = recs
        .into_iter()
        .next()
        .ok_or("no game")?
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if let Some(k) = moves {
        if k > rec.moves.len() {
            return Err(format!(
                "{}: the game has only {} moves",
                path.display(),
                rec.moves.len()
            ));
        }
        rec.moves.truncate(k);
    }
    let data = build::replay(&rec, u64::MAX).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut events = Vec::new();
    record::decode(&data.stream, &mut events).map_err(|_| "internal stream error")?;
    Ok(record::position_at(&events, rec.moves.len() as u16))
}

/// Split `FILE[:MOVE]`.
fn split_position_arg(arg: &str) -> (PathBuf, Option<usize>) {
    if let Some((file, n)) = arg.rsplit_once(':') {
        if let Ok(n) = n.parse::<usize>() {
            return (PathBuf::from(file), Some(n));
        }
    }
    (PathBuf::from(arg), None)
}

/// Which colour's moves `--next` keeps.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum NextColour {
    /// Black plays next.
    B,
    /// White plays next.
    W,
}

impl NextColour {
    fn colour(self) -> Color {
        match self {
            NextColour::B => Color::Black,
            NextColour::W => Color::White,
        }
    }
}

fn run_search(a: &SearchArgs) -> Result<(), String> {
    let db = open(&a.db)?;
    let filter = Filter::new(&a.filter, &db)?;
    let keep = filter.mask(&db);
    let kept = |g: usize| keep.as_ref().is_none_or(|k| k[g]);
    let next = a.next.map(NextColour::colour);
    let limit = if a.limit == 0 { usize::MAX } else { a.limit };
    let games = if let Some(arg) = &a.position {
        search_position(a, &db, arg, &kept, next, limit)?
    } else if let Some(path) = &a.pattern {
        search_pattern(a, &db, path, keep.as_deref(), next, limit)?
    } else if filter.active() {
        search_info(a, &db, &kept, limit)
    } else {
        return Err("give --position, --pattern or a game-information filter (--player, --event, --from, ...)".into());
    };
    if let Some(path) = &a.save {
        filter::save(path, &db, &games)?;
        if !a.json {
            println!("saved {} games to {}", games.len(), path.display());
        }
    }
    Ok(())
}

/// The games the filters keep, listed; return them.
fn search_info(a: &SearchArgs, db: &Db, kept: &dyn Fn(usize) -> bool, limit: usize) -> Vec<usize> {
    let games: Vec<usize> = (0..db.games()).filter(|&g| kept(g)).collect();
    if a.json {
        let list: Vec<Value> = games
            .iter()
            .take(limit)
            .map(|&g| output::game_json(db, g, json!({})))
            .collect();
        let out = json!({
            "query": {"filters": format!("{:?}", a.filter)},
            "games_matched": games.len(),
            "games": list,
            "truncated": games.len() > limit,
        });
        println!("{out}");
        return games;
    }
    println!("game information search: {} games", games.len());
    for &g in games.iter().take(limit) {
        println!("{}", output::game_line(db, g, "-"));
    }
    more(games.len(), limit);
    games
}

fn more(n: usize, limit: usize) {
    if n > limit {
        println!("  ... {} more games (--limit 0 lists all)", n - limit);
    }
}

fn search_position(
    a: &SearchArgs,
    db: &Db,
    arg: &str,
    kept: &dyn Fn(usize) -> bool,
    next_colour: Option<Color>,
    limit: usize,
) -> Result<Vec<usize>, String> {
    let syms = pattern::symmetry_set(a.symmetries == Symmetries::All);
    let (file, k) = split_position_arg(arg);
    let q = position_from_sgf(&file, k)?;
    let t = Instant::now();
    let mut stats = search::Stats::default();
    let mut hits = search::find_position(db, &q, &syms, a.swap_colours, &mut stats);
    hits.retain(|h| {
        kept(h.game) && next_colour.is_none_or(|c| h.next.is_some_and(|(m, _)| m == c))
    });
    let ms = t.elapsed().as_secs_f64() * 1e3;
    let next = output::tally(search::continuations(db, &hits).into_iter());
    let mut games: Vec<(usize, Vec<&search::Hit>)> = Vec::new();
    for h in &hits {
        match games.last_mut() {
            Some((g, v)) if *g == h.game => v.push(h),
            _ => games.push((h.game, vec![h])),
        }
    }
    let ids: Vec<usize> = games.iter().map(|(g, _)| *g).collect();
    let cells: Vec<char> = q
        .iter()
        .map(|&c| match c {
            1 => 'X',
            2 => 'O',
            _ => '.',
        })
        .collect();
    if a.json {
        let list: Vec<Value> = games
            .iter()
            .take(limit)
            .map(|(g, hs)| {
                let moves: Vec<u16> = hs.iter().map(|h| h.moves).collect();
                let syms: Vec<usize> = hs.iter().map(|h| h.sym).collect();
                let sw: Vec<bool> = hs.iter().map(|h| h.swapped).collect();
                output::game_json(
                    db,
                    *g,
                    json!({"moves": moves, "symmetry": syms, "swapped": sw}),
                )
            })
            .collect();
        let out = json!({
            "query": {"position": arg, "symmetries": a.symmetries == Symmetries::All, "swap_colours": a.swap_colours,
                      "filters": format!("{:?}", a.filter), "next": a.next.map(|c| format!("{c:?}"))},
            "games_matched": games.len(),
            "positions_matched": hits.len(),
            "ms": ms,
            "candidates": stats.candidates,
            "rejected": stats.rejected,
            "continuations": output::next_json(&next, true),
            "games": list,
            "truncated": games.len() > limit,
        });
        println!("{out}");
        return Ok(ids);
    }
    println!(
        "position search: {} games, {} positions ({ms:.2} ms; {} index candidates, {} refused by replay)",
        games.len(),
        hits.len(),
        stats.candidates,
        stats.rejected
    );
    print!("{}", output::diagram(&cells, N, &next, true));
    if !next.is_empty() {
        print!("{}", output::next_table(&next, true));
    }
    for (g, hs) in games.iter().take(limit) {
        let at: Vec<String> = hs.iter().map(|h| h.moves.to_string()).collect();
        println!(
            "{}",
            output::game_line(db, *g, &format!("move {}", at.join(", ")))
        );
    }
    more(games.len(), limit);
    Ok(ids)
}

fn search_pattern(
    a: &SearchArgs,
    db: &Db,
    path: &Path,
    keep: Option<&[bool]>,
    next_colour: Option<Color>,
    limit: usize,
) -> Result<Vec<usize>, String> {
    let syms = pattern::symmetry_set(a.symmetries == Symmetries::All);
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let pat = Pattern::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let t = Instant::now();
    let vars = match &a.region {
        Some(r) => {
            let region = Region::parse(r)?;
            let base = region.anchors(pat.w, pat.h);
            if base.is_empty() {
                return Err(format!(
                    "{r}: the {}x{} pattern fits nowhere in it",
                    pat.w, pat.h
                ));
            }
            pattern::variants_at(&pat, &base, &syms, a.swap_colours)
        }
        None => pattern::variants(&pat, a.anchor, &syms, a.swap_colours),
    };
    let mut found = pattern::find(db, &pat, &vars, keep);
    if let Some(c) = next_colour {
        for m in &mut found {
            m.next.retain(|n| n.colour == c);
        }
        found.retain(|m| !m.next.is_empty());
    }
    let ms = t.elapsed().as_secs_f64() * 1e3;
    let next = output::tally(pattern::continuations(db, &found).into_iter());
    let ids: Vec<usize> = found.iter().map(|m| m.game).collect();
    let positions: u64 = found
        .iter()
        .flat_map(|m| m.ranges.iter().map(|r| u64::from(r.1 - r.0) + 1))
        .sum();
    let cells: Vec<char> = pat.cells.iter().map(|&c| pattern::cell_char(c)).collect();
    if a.json {
        let list: Vec<Value> = found
            .iter()
            .take(limit)
            .map(|m| output::game_json(db, m.game, json!({"ranges": m.ranges})))
            .collect();
        let out = json!({
            "query": {"pattern": pat.to_text(), "anchor": format!("{:?}", a.anchor).to_lowercase(),
                      "region": a.region, "symmetries": a.symmetries == Symmetries::All,
                      "swap_colours": a.swap_colours, "variants": vars.len(),
                      "filters": format!("{:?}", a.filter), "next": a.next.map(|c| format!("{c:?}"))},
            "games_matched": found.len(),
            "positions_matched": positions,
            "ms": ms,
            "continuations": output::next_json(&next, false),
            "games": list,
            "truncated": found.len() > limit,
        });
        println!("{out}");
        return Ok(ids);
    }
    println!(
        "pattern search ({} variants): {} games, {positions} positions ({ms:.1} ms)",
        vars.len(),
        found.len()
    );
    print!("{}", output::diagram(&cells, pat.w, &next, false));
    if !next.is_empty() {
        print!("{}", output::next_table(&next, false));
    }
    for m in found.iter().take(limit) {
        println!(
            "{}",
            output::game_line(
                db,
                m.game,
                &format!("moves {}", output::ranges_text(&m.ranges))
            )
        );
    }
    more(found.len(), limit);
    Ok(ids)
}
