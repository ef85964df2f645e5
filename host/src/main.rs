//! `kosumi`: the desktop program around `kosumi-core`: the engine (this
//! package's library), the game database (crate `kosumi-db`) and the
//! tools ([`tools`]: benchmarks, the match runner, the pattern learner).
//!
//! Subcommands are thin: they parse arguments, allocate the storage the core
//! asks for (once), and print results. All Go knowledge lives in the core.
//! Plain `kosumi` (no subcommand) is `kosumi gtp`, so GTP controllers can
//! start the bare binary; its engine options are accepted at both places.

use clap::{Parser, Subcommand};

mod tools;

use kosumi::{analysis, gtp};
use kosumi_db as db;
use tools::{bench, book, matchrun, patterns, pool};

/// kosumi: a small, fast Go engine. Without a subcommand it speaks GTP.
#[derive(Parser, Debug)]
#[command(
    name = "kosumi",
    version,
    about,
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(flatten)]
    gtp: gtp::Args,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run the GTP engine on stdin/stdout (the default).
    Gtp(gtp::Args),
    /// KataGo's JSON analysis protocol on stdin/stdout (a subset).
    Analysis(gtp::Args),
    /// Run a benchmark and print its figures.
    #[command(subcommand)]
    Bench(bench::BenchCommand),
    /// Play a match between two GTP engines (win rate with a 95% interval).
    Match(matchrun::Args),
    /// Game database: build, search positions and patterns, info.
    #[command(subcommand)]
    Db(db::DbCommand),
    /// Move patterns: learn a model from game records, test its predictions.
    #[command(subcommand)]
    Patterns(patterns::PatternsCommand),
    /// Make an opening book for read-only memory (the firmware's flash) by
    /// deep searches of the first moves.
    Book(book::BookArgs),
    /// The firmware's engine (the core's heap-less pool engine with the
    /// small engine's choices) as a GTP engine on stdin/stdout, to measure
    /// its play at the host's speed.
    Pool(pool::Args),
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    if matches!(
        cli.command,
        Some(Command::Bench(_) | Command::Db(_) | Command::Patterns(_))
    ) && !matches!(
        cli.command,
        Some(Command::Bench(bench::BenchCommand::Score(_)))
    ) {
        db::die_on_broken_pipe();
    }
    let result = match cli.command {
        Some(Command::Bench(cmd)) => bench::run(cmd),
        Some(Command::Gtp(args)) => gtp::run(args),
        Some(Command::Analysis(args)) => analysis::run(args),
        Some(Command::Match(args)) => matchrun::run(&args),
        Some(Command::Db(cmd)) => db::run(cmd),
        Some(Command::Patterns(cmd)) => patterns::run(&cmd),
        Some(Command::Book(args)) => book::run(&args),
        Some(Command::Pool(args)) => pool::run(&args),
        None => gtp::run(cli.gtp),
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("kosumi: {msg}");
            std::process::ExitCode::FAILURE
        }
    }
}
