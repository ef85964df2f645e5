//! `kosumi gtp`: the Go Text Protocol (GTP v2) engine on stdin/stdout.
//!
//! | module | what it is |
//! |---|---|
//! | [`parse`] | line cleaning, ids, answer formatting (the wire format) |
//! | [`commands`] | the command table and the handlers, one `fn` per command |
//! | [`game`] | setup + move list + board + superko history; undo by replay |
//! | [`handicap`] | fixed and free handicap points |
//! | [`parallel`] | `--threads`: helper searchers, root statistics summed |
//! | [`patterns`] | the move-pattern model: built in, or `--patterns FILE` |
//! | [`scoring`] | the end of a game: dead stones, `final_score`, `final_status_list`, whether passing wins |
//! | [`sgf`] | `loadsgf` / `printsgf` through the `sgf-parse` crate |
//!
//! The loop reads a line, parses it, looks the command up in
//! [`commands::COMMANDS`] and writes `=` or `?` with the handler's text,
//! flushing after every answer. Input errors are values all the way:
//! every malformed, unknown or out-of-range line gets a `?` answer and the
//! loop goes on; non-UTF-8 bytes are replaced, not fatal. `quit` and end of
//! input end the loop; only an I/O error on the pipes ends it early.
//!
//! Extension point: services the handlers need beyond the game (the
//! searcher for `genmove`, the tactical reader for `attack`/`defend`, their
//! tables) are fields of [`Services`], built once in [`Engine::new`] from
//! [`Args`]. A new command is a handler plus a row in the table.

pub mod book;
pub mod commands;
pub mod game;
pub mod genmove;
pub mod handicap;
pub mod parallel;
pub mod parse;
pub mod patterns;
pub mod scoring;
pub mod searcher;
pub mod sgf;
pub mod tactics;

use std::io::{self, BufRead, Write};

use game::Game;
use parse::Line;

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
    /// Search options (`genmove`).
    #[command(flatten)]
    pub search: genmove::SearchArgs,
}

impl Default for Args {
    fn default() -> Self {
        Args {
            size: 19,
            komi: 7.5,
            verbose: false,
            search: genmove::SearchArgs::default(),
        }
    }
}

/// The core services the commands use beyond the game record.
///
/// Empty for now. `genmove` adds its searcher (tree storage, playout
/// policy, seed, time budget), `attack`/`defend` their tactical reader;
/// each is created in [`Engine::new`] and reached by handlers as
/// `engine.services.NAME`.
#[derive(Default)]
pub struct Services {
    /// The tactical reader's cache (`attack`, `defend`).
    pub tactics: tactics::Tactics,
    /// The searcher, its options and the game clock (`genmove`).
    pub play: genmove::Play,
}

/// A GTP session: the game, the services, and the options it started with.
pub struct Engine {
    /// The game being played.
    pub game: Game,
    /// Searcher, reader and their storage (see [`Services`]).
    pub services: Services,
    /// The options given on the command line.
    pub args: Args,
    /// Set by `quit`: the loop stops after answering.
    pub quit: bool,
}

impl Engine {
    /// Return an engine with an empty board of `args.size` and `args.komi`.
    ///
    /// # Errors
    /// A message for an unsupported size or a komi that is no multiple of 0.5.
    pub fn new(args: Args) -> Result<Engine, String> {
        let komi2 = commands::parse_komi(&args.komi.to_string())
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
            tactics: tactics::Tactics::new(args.search.tactics_mb),
        };
        Ok(Engine {
            game,
            services,
            args,
            quit: false,
        })
    }

    /// Answer one raw input line; return `None` for a line with nothing to
    /// answer.
    pub fn answer_line(&mut self, raw: &str) -> Option<String> {
        match parse::parse_line(raw) {
            Line::Empty => None,
            Line::IdOnly(id) => Some(parse::format_answer(
                Some(&id),
                false,
                &commands::Failure::Syntax.to_string(),
            )),
            Line::Request(req) => {
                let reply = commands::dispatch(self, &req.name, &req.args);
                Some(match reply {
                    Ok(text) => parse::format_answer(req.id.as_deref(), true, &text),
                    Err(e) => parse::format_answer(req.id.as_deref(), false, &e.to_string()),
                })
            }
        }
    }

    /// Serve GTP: read commands from `input` until `quit` or end of input,
    /// writing each answer to `output` and flushing it.
    ///
    /// # Errors
    /// An I/O error of `input` or `output`.
    pub fn run(&mut self, mut input: impl BufRead, mut output: impl Write) -> io::Result<()> {
        let mut buf = Vec::new();
        while !self.quit {
            buf.clear();
            if input.read_until(b'\n', &mut buf)? == 0 {
                break;
            }
            let raw = String::from_utf8_lossy(&buf);
            if self.args.verbose {
                // A closed stderr loses the log, never the session.
                let _ = writeln!(io::stderr(), "<< {}", raw.trim_end());
            }
            if let Some(answer) = self.answer_line(&raw) {
                if self.args.verbose {
                    let _ = write!(io::stderr(), ">> {answer}");
                }
                output.write_all(answer.as_bytes())?;
                output.flush()?;
            }
        }
        Ok(())
    }
}

/// Run the GTP engine on stdin and stdout.
///
/// # Errors
/// A message for bad options or an I/O error.
pub fn run(args: Args) -> Result<(), String> {
    let mut engine = Engine::new(args)?;
    let stdin = io::stdin().lock();
    let stdout = io::BufWriter::new(io::stdout().lock());
    match engine.run(stdin, stdout) {
        Ok(()) => Ok(()),
        // The controller went away: nothing left to answer.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(format!("gtp: {e}")),
    }
}
