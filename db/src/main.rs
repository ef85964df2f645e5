//! `kosumi-db`: the game database on its own, without the engine (the same
//! commands as `kosumi db`).

use clap::Parser;

/// kosumi's game database: build, search positions and patterns, info.
#[derive(Parser, Debug)]
#[command(name = "kosumi-db", version, about)]
struct Cli {
    #[command(subcommand)]
    command: kosumi_db::DbCommand,
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    kosumi_db::die_on_broken_pipe();
    match kosumi_db::run(cli.command) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("kosumi-db: {msg}");
            std::process::ExitCode::FAILURE
        }
    }
}
