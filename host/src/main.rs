//! `kosumi`: the desktop shell around `kosumi-core`.
//!
//! Subcommands are thin: they parse arguments, allocate the storage the core
//! asks for (once), and print results. All Go knowledge lives in the core.

use clap::{Parser, Subcommand};

mod bench;

/// kosumi: a small, fast Go engine.
#[derive(Parser, Debug)]
#[command(name = "kosumi", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run a benchmark and print its figures.
    #[command(subcommand)]
    Bench(bench::BenchCommand),
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Bench(cmd)) => bench::run(cmd),
        None => bench::run(bench::BenchCommand::default_run()),
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("kosumi: {msg}");
            std::process::ExitCode::FAILURE
        }
    }
}
