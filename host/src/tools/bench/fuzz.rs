//! `kosumi bench fuzz`: mutation fuzzing on stable Rust of the entry points
//! that read outside input, with a seed corpus from `tests/data`:
//!
//! | target | entry point | what counts as a failure |
//! |---|---|---|
//! | `gtp` | one GTP line into the engine's answer ([`kosumi::gtp::answer_line`]) | a panic; an answer that is not `=`/`?`, id, text, blank line |
//! | `sgf` | the SGF reader ([`kosumi_sgf::read_collection`]) and `loadsgf`'s replay | a panic |
//! | `book` | the book decoder ([`kosumi::gtp::book::decode`]) | a panic |
//! | `db` | a database with one file mutated, read from memory ([`kosumi_db::store::Db::from_memory`], the checks of [`kosumi_db::store::Db::open`]), then every game's information and a lookup | a panic |
//!
//! The mutator flips bits, overwrites, inserts and deletes bytes, copies
//! ranges, splices two inputs and inserts tokens of the target's language;
//! for the book and the database files it then makes the checksums valid
//! again most of the time, so the decoders behind them are reached. A
//! panic is caught, its input saved under `--crashes` and counted; the
//! command fails if any target failed. Not coverage-guided: a blunt,
//! dependency-free fuzzer that runs anywhere `cargo` does. GTP lines that
//! write files, resize the engine's memory, lift its search budget (5 ms
//! or 30 playouts a move) or start threads are skipped.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use rand_core::RngCore;

use kosumi_core::gtp::line as gtp_line;

use kosumi::gtp;
use kosumi_db as db;

/// Arguments of `kosumi bench fuzz`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The target: gtp, sgf, book, db, or all.
    #[arg(long, default_value = "all")]
    target: String,
    /// Seconds per target.
    #[arg(long, default_value_t = 10.0)]
    seconds: f64,
    /// Executions per target (stops at whichever comes first).
    #[arg(long, default_value_t = u64::MAX)]
    execs: u64,
    /// Random seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Where inputs that failed are saved.
    #[arg(long, default_value = "fuzz-crashes")]
    crashes: PathBuf,
    /// Print every input to stderr before it runs (to find one that
    /// hangs), and a failure's backtrace.
    #[arg(long)]
    trace: bool,
}

/// The targets, in the order `all` runs them.
const TARGETS: &[&str] = &["gtp", "sgf", "book", "db"];

/// Run the fuzzer.
///
/// # Errors
/// A message for an unknown target, a corpus that cannot be read, or any
/// failure found.
pub fn run(args: &Args) -> Result<(), String> {
    let targets: Vec<&str> = match args.target.as_str() {
        "all" => TARGETS.to_vec(),
        t if TARGETS.contains(&t) => vec![t],
        t => return Err(format!("unknown target {t} (gtp, sgf, book, db, all)")),
    };
    let mut failed = 0;
    for (i, t) in targets.iter().enumerate() {
        let seed = args.seed.wrapping_add(i as u64);
        let r = fuzz(t, args, seed)?;
        println!(
            "{t:>5}: {} executions in {:.1} s ({:.0}/s), {} failures",
            r.execs,
            r.seconds,
            r.execs as f64 / r.seconds.max(1e-9),
            r.failures
        );
        failed += r.failures;
    }
    if failed > 0 {
        return Err(format!(
            "{failed} failing inputs, saved in {}",
            args.crashes.display()
        ));
    }
    Ok(())
}

/// What one target's run did.
struct Outcome {
    execs: u64,
    seconds: f64,
    failures: u64,
}

/// Run one target.
fn fuzz(target: &str, args: &Args, seed: u64) -> Result<Outcome, String> {
    let mut rng = kosumi_core::rng::seeded(seed);
    let mut t: Box<dyn Target> = match target {
        "gtp" => Box::new(Gtp::new()?),
        "sgf" => Box::new(Sgf::new()?),
        "book" => Box::new(Book::new()),
        _ => Box::new(Database::new()?),
    };
    let corpus = t.corpus();
    let dict = t.tokens();
    let start = Instant::now();
    let (mut execs, mut failures) = (0u64, 0u64);
    let quiet = std::panic::take_hook();
    // The panic's message and place, kept for the report instead of printed.
    let last_panic = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    let slot = std::sync::Arc::clone(&last_panic);
    let trace = args.trace;
    std::panic::set_hook(Box::new(move |info| {
        if let Ok(mut s) = slot.lock() {
            *s = info.to_string();
            if trace {
                *s += &format!("\n{}", std::backtrace::Backtrace::force_capture());
            }
        }
    }));
    while execs < args.execs && start.elapsed().as_secs_f64() < args.seconds {
        let mut input = corpus[rng.next_u32() as usize % corpus.len()].clone();
        let other = &corpus[rng.next_u32() as usize % corpus.len()];
        let rounds = 1 + rng.next_u32() % 4;
        for _ in 0..rounds {
            mutate(&mut input, other, dict, &mut rng);
        }
        t.fix(&mut input, &mut rng);
        if args.trace {
            eprintln!("{execs}: {:?}", String::from_utf8_lossy(&input));
        }
        let ok = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| t.run(&input)))
            .unwrap_or_else(|_| Err(last_panic.lock().map_or("panic".into(), |s| s.clone())));
        if let Err(why) = ok {
            failures += 1;
            let _ = fs::create_dir_all(&args.crashes);
            let file = args.crashes.join(format!("{target}-{seed}-{execs}"));
            let _ = fs::write(&file, &input);
            eprintln!("{target}: {why}; input saved in {}", file.display());
            // A panic may leave the target's state half-changed.
            t = match target {
                "gtp" => Box::new(Gtp::new()?),
                _ => t,
            };
        }
        execs += 1;
    }
    std::panic::set_hook(quiet);
    Ok(Outcome {
        execs,
        seconds: start.elapsed().as_secs_f64(),
        failures,
    })
}

/// Change `input` once: a bit, a byte, an insertion, a deletion, a copy, a
/// splice with `other` or a token of `dict`.
fn mutate(input: &mut Vec<u8>, other: &[u8], dict: &[&[u8]], rng: &mut impl RngCore) {
    let mut pick = |n: usize| {
        if n == 0 {
            0
        } else {
            rng.next_u32() as usize % n
        }
    };
    let len = input.len();
    match pick(7) {
        0 if len > 0 => {
            let i = pick(len);
            input[i] ^= 1 << pick(8);
        }
        1 if len > 0 => {
            let i = pick(len);
            input[i] = pick(256) as u8;
        }
        2 => {
            let i = pick(len + 1);
            let n = 1 + pick(8);
            let bytes: Vec<u8> = (0..n).map(|_| pick(256) as u8).collect();
            input.splice(i..i, bytes);
        }
        3 if len > 0 => {
            let i = pick(len);
            let n = 1 + pick((len - i).min(16));
            input.drain(i..i + n);
        }
        4 if len > 0 => {
            let (a, b) = (pick(len), pick(len));
            let n = 1 + pick((len - a).min(32));
            let piece = input[a..a + n].to_vec();
            input.splice(b..b, piece);
        }
        5 if !other.is_empty() => {
            let cut = pick(len + 1);
            let from = pick(other.len());
            input.truncate(cut);
            input.extend_from_slice(&other[from..]);
        }
        _ if !dict.is_empty() => {
            let i = pick(len + 1);
            let tok = dict[pick(dict.len())];
            input.splice(i..i, tok.iter().copied());
        }
        _ => {}
    }
}

/// One fuzz target.
trait Target {
    /// Return the seed inputs.
    fn corpus(&self) -> Vec<Vec<u8>>;
    /// Return tokens of the input's language.
    fn tokens(&self) -> &'static [&'static [u8]] {
        &[]
    }
    /// Repair what makes every input fail at the door (checksums), most of
    /// the time.
    fn fix(&self, _input: &mut Vec<u8>, _rng: &mut dyn RngCore) {}
    /// Feed one input; an error is a failure.
    fn run(&mut self, input: &[u8]) -> Result<(), String>;
}

/// The test data directory.
fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data")
}

/// Return the bytes of every file under `dir` with extension `ext`.
fn files(dir: &Path, ext: &str) -> Vec<Vec<u8>> {
    walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == ext))
        .filter_map(|e| fs::read(e.path()).ok())
        .collect()
}

/// GTP lines into one engine.
struct Gtp {
    engine: gtp::Engine,
}

impl Gtp {
    fn new() -> Result<Gtp, String> {
        let mut args = gtp::Args {
            size: 9,
            ..gtp::Args::default()
        };
        args.search.playouts = Some(30);
        // A clock the input sets is capped: a move takes a few ms at most.
        args.search.time = Some(0.005);
        args.search.tree_mb = 8;
        args.search.hash_mb = 1;
        args.search.tactics_mb = 1;
        Ok(Gtp {
            engine: gtp::engine(args)?,
        })
    }
}

impl Target for Gtp {
    fn corpus(&self) -> Vec<Vec<u8>> {
        let mut lines: Vec<Vec<u8>> = kosumi_core::gtp::session::COMMANDS
            .iter()
            .chain(gtp::commands::NAMES)
            .map(|c| c.as_bytes().to_vec())
            .collect();
        for l in [
            "play b d4",
            "play w pass",
            "genmove b",
            "boardsize 13",
            "komi 6.5",
            "fixed_handicap 4",
            "set_free_handicap c3 g7",
            "time_settings 300 30 5",
            "kgs-time_settings byoyomi 60 30 3",
            "time_left b 100 0",
            "1 known_command play",
            "loadsgf ../tests/data/sgf/handicap.sgf 3",
            "final_status_list dead",
            "attack e5",
            "kosumi-setoption playouts 40",
            "kata-genmove_analyze w 10 maxmoves 2",
            "undo",
        ] {
            lines.push(l.as_bytes().to_vec());
        }
        lines
    }

    fn tokens(&self) -> &'static [&'static [u8]] {
        &[
            b" ",
            b"\t",
            b"\r",
            b"#",
            b" b",
            b" w",
            b" pass",
            b" a1",
            b" T19",
            b" z99",
            b" 0",
            b" -1",
            b" 4294967296",
            b" 1e309",
            b" nan",
            b" 7.5",
            b" 19",
            b" 25",
        ]
    }

    fn run(&mut self, input: &[u8]) -> Result<(), String> {
        let line = String::from_utf8_lossy(input);
        let line = line.lines().next().unwrap_or("");
        // The command as the engine will read it: after GTP's cleaning,
        // which drops control characters, so that `printsgf\u{1}` is
        // `printsgf` here too.
        let mut buf = line.as_bytes().to_vec();
        let (name, args) = match gtp_line::parse(gtp_line::clean(&mut buf)) {
            gtp_line::Line::Request(req) => (req.name, req.args().collect::<Vec<_>>()),
            _ => ("", Vec::new()),
        };
        if skipped(name, &args) {
            return Ok(());
        }
        let Some(answer) = gtp::answer_line(&mut self.engine, line) else {
            return Ok(());
        };
        let well_formed = (answer.starts_with('=') || answer.starts_with('?'))
            && answer.ends_with("\n\n")
            && !answer[..answer.len() - 2].contains("\n\n");
        if well_formed {
            Ok(())
        } else {
            Err(format!("malformed answer {answer:?} to {line:?}"))
        }
    }
}

/// Whether the GTP target leaves a command out: lines that write files
/// (`printsgf`, `kosumi-savebook`), end the engine, stream analysis, or set
/// options that resize memory, name files, lift the search's budget (a
/// billion playouts is no failure, only slow) or start threads.
fn skipped(name: &str, args: &[&str]) -> bool {
    let option = |i: usize| {
        args.get(i).is_some_and(|w| {
            ["mb", "book", "time", "playouts", "threads", "ponder"]
                .iter()
                .any(|k| w.to_ascii_lowercase().contains(k))
        })
    };
    matches!(name, "printsgf" | "kosumi-savebook" | "quit")
        || (matches!(name, "kosumi-setoption" | "kosumi-param") && (option(0) || option(1)))
        || gtp::analyze::COMMANDS.iter().any(|(c, _)| *c == name)
}

/// SGF text into the reader and `loadsgf`'s replay.
struct Sgf;

impl Sgf {
    fn new() -> Result<Sgf, String> {
        Ok(Sgf)
    }
}

impl Target for Sgf {
    fn corpus(&self) -> Vec<Vec<u8>> {
        let mut c = files(&data().join("sgf"), "sgf");
        c.extend(files(&data().join("games"), "sgf").into_iter().take(40));
        c
    }

    fn tokens(&self) -> &'static [&'static [u8]] {
        &[
            b"(", b")", b";", b"[", b"]", b"\\", b"AB[", b"AW[", b"AE[", b"PL[W]", b"B[", b"W[",
            b"SZ[", b"KM[", b"HA[", b"tt", b"zz", b"aa:cc", b"\n",
        ]
    }

    fn run(&mut self, input: &[u8]) -> Result<(), String> {
        // `load` reads the whole collection, then replays its first game.
        let text = String::from_utf8_lossy(input);
        let _ = gtp::sgf::load(&text, None, 15);
        Ok(())
    }
}

/// Book files into the decoder.
struct Book;

impl Book {
    fn new() -> Book {
        Book
    }
}

impl Target for Book {
    fn corpus(&self) -> Vec<Vec<u8>> {
        use kosumi_core::table::{BestMove, BestMoveCluster, BestMoveEntry, Cluster, Entry};
        let mut table = vec![BestMoveCluster::EMPTY; 8];
        for (i, c) in table.iter_mut().enumerate() {
            let data = BestMove {
                mv: i as u16 * 7,
                visits_log2: 3,
                depth_log2: 1,
            };
            c.entries_mut()[i % 8] = BestMoveEntry::pack(0x9e37 * i as u64 + 1, data, 1);
        }
        vec![
            gtp::book::encode(&table, 1),
            gtp::book::encode(&table[..1], 3),
        ]
    }

    fn fix(&self, input: &mut Vec<u8>, rng: &mut dyn RngCore) {
        if input.len() >= 8 && !rng.next_u32().is_multiple_of(8) {
            let body = input.len() - 8;
            let sum = gtp::book::fnv1a(&input[..body]);
            input[body..].copy_from_slice(&sum.to_le_bytes());
        }
    }

    fn run(&mut self, input: &[u8]) -> Result<(), String> {
        let _ = gtp::book::decode(input);
        Ok(())
    }
}

/// A database with one file replaced by the input (its first byte says
/// which), read from memory ([`db::store::Db::from_memory`]): the same
/// checks as from disk, without a file system in the loop.
struct Database {
    files: HashMap<String, Arc<[u8]>>,
    names: Vec<String>,
    originals: Vec<Arc<[u8]>>,
}

impl Database {
    fn new() -> Result<Database, String> {
        let dir = std::env::temp_dir().join(format!("kosumi-fuzz-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let out = dir.join("db");
        let opts = db::build::Options {
            threads: Some(1),
            ..db::build::Options::default()
        };
        let built = db::build::build(&[data().join("games")], &out, &opts);
        let files = built.and_then(|_| {
            fs::read_dir(&out)
                .and_then(|entries| {
                    entries
                        .map(|e| {
                            let e = e?;
                            let bytes: Arc<[u8]> = fs::read(e.path())?.into();
                            Ok((e.file_name().to_string_lossy().into_owned(), bytes))
                        })
                        .collect::<std::io::Result<HashMap<_, _>>>()
                })
                .map_err(|e| format!("{}: {e}", out.display()))
        });
        let _ = fs::remove_dir_all(&dir);
        let files = files?;
        let names: Vec<String> = ["meta.kdb", "games.kdb", "index-00.kdb", "index-3c.kdb"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let originals = names
            .iter()
            .map(|n| {
                files
                    .get(n)
                    .cloned()
                    .ok_or(format!("the database has no {n}"))
            })
            .collect::<Result<_, _>>()?;
        Ok(Database {
            files,
            names,
            originals,
        })
    }
}

impl Target for Database {
    fn corpus(&self) -> Vec<Vec<u8>> {
        self.originals
            .iter()
            .enumerate()
            .map(|(i, bytes)| {
                let mut v = vec![i as u8];
                v.extend_from_slice(bytes);
                v
            })
            .collect()
    }

    fn fix(&self, input: &mut Vec<u8>, rng: &mut dyn RngCore) {
        use db::format::HEADER_LEN;
        let skip = 1.min(input.len());
        let file = &mut input[skip..];
        if file.len() >= HEADER_LEN && !rng.next_u32().is_multiple_of(8) {
            let payload = file.len() - HEADER_LEN;
            file[16..24].copy_from_slice(&(payload as u64).to_le_bytes());
            let crc = crc32fast::hash(&file[HEADER_LEN..]);
            file[24..28].copy_from_slice(&crc.to_le_bytes());
            let hcrc = crc32fast::hash(&file[..44]);
            file[44..48].copy_from_slice(&hcrc.to_le_bytes());
        }
    }

    fn run(&mut self, input: &[u8]) -> Result<(), String> {
        let Some((&which, file)) = input.split_first() else {
            return Ok(());
        };
        let k = which as usize % self.names.len();
        self.files.insert(self.names[k].clone(), file.into());
        if let Ok(d) = db::store::Db::from_memory(Path::new("fuzz.db"), &self.files) {
            for g in 0..d.games() {
                let _ = d.info(g);
                let _ = d.stream(g);
                let _ = d.winner(g);
            }
            d.lookup(0x0123_4567_89ab_cdef, |_| {});
            let _ = d.locate(3);
        }
        self.files
            .insert(self.names[k].clone(), Arc::clone(&self.originals[k]));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The GTP target must not run a line that writes a file, however the
    /// line hides the command (control characters, an id): an earlier
    /// filter read the raw line and let `printsgf\u{1} 1e` write `1e`.
    #[test]
    fn lines_that_write_files_are_left_out_as_the_engine_reads_them() {
        let mut target = Gtp::new().unwrap();
        let dir = std::env::temp_dir().join(format!("kosumi-fuzz-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let file = dir.join("written.sgf");
        let name = file.to_str().unwrap();
        for line in [
            format!("printsgf\u{1} {name}"),
            format!("7 print\u{7f}sgf {name}"),
            format!("kosumi-save\tbook {name}"),
            format!("\u{2}kosumi-savebook {name}"),
        ] {
            target.run(line.as_bytes()).unwrap();
            assert!(!file.exists(), "{line:?} wrote {name}");
        }
        // The same command, not hidden, is what the filter stops: without
        // the filter it would write (the check above can fail).
        gtp::answer_line(&mut target.engine, &format!("printsgf {name}")).unwrap();
        assert!(file.exists());
        fs::remove_dir_all(&dir).unwrap();
    }
}
