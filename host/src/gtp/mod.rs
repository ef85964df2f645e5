//! `kosumi gtp`: the Go Text Protocol (GTP v2) engine on stdin/stdout.
//!
//! The modules, from the top down (each imports only modules below it):
//!
//! | module | what it is |
//! |---|---|
//! | [`commands`] | the command table: one row per host command, name and handler (the top) |
//! | [`ponder`] | `--ponder`: search on the opponent's time until the next command |
//! | [`analyze`] | streaming `lz-analyze`, `analyze`, `kata-analyze` (stopped by the next input line), `lz-/kata-genmove_analyze` |
//! | [`genmove`] | the move search the core's `genmove` asks for (also analysis's): the playing service |
//! | [`gogui`] | GoGui's analyze commands (`dboard`, `gfx`, `param`) and live `gogui-gfx:` |
//! | [`clock`] | a move's search budget from the game's clock and the options |
//! | [`options`] | the search options: command line and `kosumi-setoption` |
//! | [`book`] | the book file (`--book`), `kosumi-savebook`, `kosumi-loadbook`, `quit` (saves it) |
//! | [`parallel`] | `--threads`: helper searchers, root statistics summed |
//! | [`searcher`] | one search with the storage the host allocates once |
//! | [`sgf`] | `loadsgf` / `printsgf` over the one SGF reader ([`kosumi_sgf`]) |
//! | [`tactics`] | `attack`, `defend`, `connect`, `disconnect`, `owl_attack`, `owl_defend`, `dragon_status` and the reader's cache |
//! | [`patterns`] | the move-pattern model: built in, or `--patterns FILE` |
//! | [`scoring`] | the end of a game: dead stones, `final_score`, whether passing wins |
//! | [`reply`] | what a handler answers, and the argument readers (the bottom) |
//!
//! The GTP layer is the core's ([`kosumi_core::gtp`], the firmware's
//! too): line cleaning, ids, the answer's format, the game record with
//! undo and superko, the standard commands and the move choice around a
//! search. The host adds its search ([`Services`], the core's `Player`)
//! and its std-only commands ([`commands::COMMANDS`], run first). The loop
//! reads a line, hands it to the session and writes the answer, flushing
//! after every one. Input errors are values all the way: every malformed,
//! unknown or out-of-range line gets a `?` answer and the loop goes on;
//! non-UTF-8 bytes are replaced, not fatal. `quit` and end of input end
//! the loop; only an I/O error on the pipes ends it early.
//!
//! Extension point: services the handlers need beyond the game (the
//! searcher for `genmove`, the tactical reader for `attack`/`defend`, their
//! tables) are fields of [`Services`], built once in [`engine`] from
//! [`Args`]. A new host command is a handler plus a row in the table.

pub mod analyze;
pub mod book;
pub mod clock;
pub mod commands;
pub mod genmove;
pub mod gogui;
pub mod options;
pub mod parallel;
pub mod patterns;
pub mod ponder;
pub mod reply;
pub mod scoring;
pub mod searcher;
pub mod sgf;
pub mod tactics;

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};

use kosumi_core::board::Board;
use kosumi_core::geometry::MAX_POINTS;
use kosumi_core::gtp::line as gtp_line;
use kosumi_core::gtp::{Line, Session};

/// Engine options, on `kosumi gtp` and on plain `kosumi`.
#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// Board size at start (GTP's `boardsize` changes it).
    #[arg(long, default_value_t = 19)]
    pub size: usize,
    /// Komi at start, a multiple of 0.5 (GTP's `komi` changes it).
    #[arg(long, default_value_t = 7.5, allow_negative_numbers = true)]
    pub komi: f64,
    /// Log every command and answer to stderr.
    #[arg(long)]
    pub verbose: bool,
    /// Answer `version` as `0.16 (kosumi VERSION)`: Lizzie takes an engine
    /// for Leela Zero, reads the number's minor part, and shows a "requires
    /// Leela Zero 0.15" dialog below 15.
    #[arg(long)]
    pub lizzie: bool,
    /// Search options (`genmove`).
    #[command(flatten)]
    pub search: options::SearchArgs,
}

impl Default for Args {
    fn default() -> Self {
        Args {
            size: 19,
            komi: 7.5,
            verbose: false,
            lizzie: false,
            search: options::SearchArgs::default(),
        }
    }
}

/// A GTP session of the host: the core's session (game, clock,
/// resignation rule and the standard commands, the firmware's too) over
/// the host's [`Services`].
pub type Engine = Session<Services, HISTORY_LEN, MAX_POINTS>;

/// The host's game record: [`HISTORY_LEN`] moves, a setup stone on every
/// point.
pub type Game = kosumi_core::game::Game<HISTORY_LEN, MAX_POINTS>;

/// Moves (and superko positions) a game holds: more than any real game has.
pub const HISTORY_LEN: usize = 4096;

/// What the commands use beyond the game record: the searcher, the
/// tactical reader, their tables, and the options the session started
/// with. The core's session asks it to search and to score
/// ([`kosumi_core::game::Player`], in [`genmove`] and [`scoring`]).
pub struct Services {
    /// The tactical reader's cache (`attack`, `defend`).
    pub tactics: tactics::Tactics,
    /// The searcher and its options (`genmove`).
    pub play: genmove::Play,
    /// The options given on the command line.
    pub args: Args,
    /// The board the end-of-game playouts run on.
    pub scratch: Board,
    /// What the last `loadsgf` read beside the game (empty after
    /// `clear_board` and `boardsize`): `printsgf` writes it back.
    pub loaded: sgf::Loaded,
    /// GoGui's `# interrupt` lines read while a command runs ([`serve`]
    /// counts them): a one-thread `genmove` stops at the first and plays
    /// its best move so far (none: not served, nothing to count).
    pub interrupt: Option<Arc<AtomicUsize>>,
}

/// The core's session asks the host's services for its version, its
/// extra commands, and to forget a game.
impl kosumi_core::gtp::Engine for Services {
    fn version(&self) -> &'static str {
        if self.args.lizzie {
            concat!("0.16 (kosumi ", env!("CARGO_PKG_VERSION"), ")")
        } else {
            env!("CARGO_PKG_VERSION")
        }
    }

    fn new_game(&mut self) {
        self.play.new_game();
        self.loaded = sgf::Loaded::default();
    }

    fn extra_commands(&self) -> &'static [&'static str] {
        commands::NAMES
    }
}

/// Return a session with an empty board of `args.size` and `args.komi`.
///
/// # Errors
/// A message for an unsupported size or a komi that is no multiple of 0.5.
pub fn engine(args: Args) -> Result<Engine, String> {
    let komi2 = kosumi_core::gtp::args::komi2(&args.komi.to_string())
        .map_err(|e| format!("--komi {}: {e}", args.komi))?;
    let game = Game::new(args.size, komi2).map_err(|_| {
        format!(
            "--size {}: unsupported (this build: {}..={})",
            args.size,
            kosumi_core::geometry::MIN_SIZE,
            kosumi_core::geometry::MAX_SIZE
        )
    })?;
    let services = Services {
        play: genmove::Play::new(&args.search)?,
        tactics: tactics::Tactics::new(args.search.tactics_mb)?,
        scratch: game.board().clone(),
        loaded: sgf::Loaded::default(),
        interrupt: None,
        args,
    };
    let mut engine = Session::new(game, services);
    engine.resign.below = engine.player.play.opts.resign as f32;
    engine.resign.quick_pass = engine.player.play.opts.quick_pass;
    Ok(engine)
}

/// Answer one raw input line; return `None` for a line with nothing to
/// answer. The host's own commands ([`commands::COMMANDS`]) run first, then
/// the core's standard ones.
pub fn answer_line(engine: &mut Engine, raw: &str) -> Option<String> {
    let mut buf = raw.as_bytes().to_vec();
    let mut out = String::new();
    // A refusal in a sentence of its own, and the id to answer it with.
    let mut said: Option<(String, String)> = None;
    // A `String` takes every write.
    let _ = engine.answer_line(&mut buf, &mut out, |engine, req, out| {
        let cmd = commands::find(req.name)?;
        let args: Vec<String> = req.args().map(str::to_string).collect();
        Some(match (cmd.handler)(engine, &args) {
            Ok(text) => {
                let _ = out.write_str(&text);
                Ok(())
            }
            Err(reply::Refusal::Gtp(f)) => Err(f),
            Err(reply::Refusal::Said(text)) => {
                said = Some((req.id.unwrap_or("").to_string(), text));
                Err(kosumi_core::gtp::Failure::Syntax)
            }
        })
    });
    if let Some((id, text)) = said {
        out = format!("?{id} {}\n\n", text.replace('\n', " "));
    }
    (!out.is_empty()).then_some(out)
}

/// Serve GTP: read commands from `input` until `quit` or end of input,
/// writing each answer to `output` and flushing it. Input is read on a
/// thread of its own, so that a line arriving during a streaming analysis
/// ([`analyze`]) stops it at once, and GoGui's `# interrupt` (its
/// `gogui-interrupt` protocol) stops a `genmove`.
///
/// # Errors
/// An I/O error of `input` or `output`.
pub fn serve(
    engine: &mut Engine,
    mut input: impl BufRead + Send + 'static,
    mut output: impl Write,
) -> io::Result<()> {
    let waiting: analyze::Waiting = Arc::new(AtomicUsize::new(0));
    let interrupt = Arc::new(AtomicUsize::new(0));
    engine.player.interrupt = Some(Arc::clone(&interrupt));
    let interrupts = Arc::clone(&interrupt);
    let (tx, rx) = mpsc::channel::<io::Result<Vec<u8>>>();
    let count = Arc::clone(&waiting);
    // Detached: it ends with the input or when the loop stops listening.
    std::thread::spawn(move || loop {
        let mut buf = Vec::new();
        let line = input
            .read_until(b'\n', &mut buf)
            .map(|n| (n > 0).then_some(buf));
        let end = !matches!(line, Ok(Some(_)));
        if matches!(&line, Ok(Some(b)) if b.trim_ascii() == b"# interrupt") {
            interrupts.fetch_add(1, Ordering::SeqCst);
        }
        count.fetch_add(1, Ordering::SeqCst);
        let sent = match line {
            Ok(Some(buf)) => tx.send(Ok(buf)),
            Ok(None) => tx.send(Ok(Vec::new())),
            Err(e) => tx.send(Err(e)),
        };
        if end || sent.is_err() {
            break;
        }
    });
    while !engine.quit {
        let Ok(line) = rx.recv() else { break };
        waiting.fetch_sub(1, Ordering::SeqCst);
        let buf = line?;
        if buf.is_empty() {
            break;
        }
        let verbose = engine.player.args.verbose;
        let raw = String::from_utf8_lossy(&buf);
        if verbose {
            // A closed stderr loses the log, never the session.
            let _ = writeln!(io::stderr(), "<< {}", raw.trim_end());
        }
        let mut line = raw.as_bytes().to_vec();
        let mut command = String::new();
        if let Line::Request(req) = gtp_line::parse(gtp_line::clean(&mut line)) {
            if let Some(&(_, format)) = analyze::COMMANDS.iter().find(|(n, _)| *n == req.name) {
                analyze::stream(engine, &req, format, &mut output, &waiting)?;
                continue;
            }
            command.push_str(req.name);
        }
        if let Some(answer) = answer_line(engine, &raw) {
            if verbose {
                let _ = write!(io::stderr(), ">> {answer}");
            }
            output.write_all(answer.as_bytes())?;
            output.flush()?;
            // An interrupt is for the command that was running.
            interrupt.store(0, Ordering::SeqCst);
            if ponder::wanted(engine, &command, &answer) {
                let n = ponder::ponder(engine, &waiting);
                if verbose {
                    let _ = writeln!(io::stderr(), "kosumi: pondered {n} playouts");
                }
            }
        }
    }
    Ok(())
}

/// Run the GTP engine on stdin and stdout.
///
/// # Errors
/// A message for bad options or an I/O error.
pub fn run(args: Args) -> Result<(), String> {
    let mut engine = engine(args)?;
    let stdin = io::BufReader::new(io::stdin());
    let stdout = io::BufWriter::new(io::stdout().lock());
    match serve(&mut engine, stdin, stdout) {
        Ok(()) => Ok(()),
        // The controller went away: nothing left to answer.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(format!("gtp: {e}")),
    }
}
