//! `kosumi`: the desktop shell around `kosumi-core`.
//!
//! Subcommands are thin: they parse arguments, allocate the storage the core
//! asks for (once), and print results. All Go knowledge lives in the core.
//! Plain `kosumi` (no subcommand) is `kosumi gtp`, so GTP controllers can
//! start the bare binary; its engine options are accepted at both places.

use clap::{Parser, Subcommand};

mod analysis;
mod atomic;
mod bench;
mod db;
mod gtp;
mod gtp_client;
mod matchrun;
mod memory;
mod patterns;
mod policy;
mod sgf_game;

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
}

/// Let a closed stdout end a report quietly, as a C tool does
/// (`kosumi bench ... | head`): Rust ignores SIGPIPE, so `println!` would
/// panic on the broken pipe instead. The GTP engine keeps Rust's default:
/// its loop ends on the write error; so do `match` and `bench score`, whose
/// writes to an engine that died must be errors that name it, not a
/// silent death of the runner.
fn die_on_broken_pipe() {
    #[cfg(unix)]
    // SAFETY: restoring the default action of one signal at start-up,
    // before any thread exists; no handler runs Rust code.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
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
        die_on_broken_pipe();
    }
    let result = match cli.command {
        Some(Command::Bench(cmd)) => bench::run(cmd),
        Some(Command::Gtp(args)) => gtp::run(args),
        Some(Command::Analysis(args)) => analysis::run(args),
        Some(Command::Match(args)) => matchrun::run(&args),
        Some(Command::Db(cmd)) => db::run(cmd),
        Some(Command::Patterns(cmd)) => patterns::run(&cmd),
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
