//! `kosumi bench ...`: benchmark commands. Each prints a human-readable
//! report, or one JSON object with `--json`.

use clap::Subcommand;

pub mod analyze;
pub mod connect;
pub mod db;
pub mod fuzz;
pub mod owl;
pub mod playouts;
mod questions;
pub mod score;
pub mod search;
pub mod sizes;
pub mod table;
pub mod tactics;

#[derive(Subcommand, Debug)]
pub enum BenchCommand {
    /// Playouts from the empty board (light or waterfall policy).
    Playouts(playouts::Args),
    /// Clustered hash table against the rehash alternative.
    Table(table::Args),
    /// Memory taken by the core's types in this build.
    Sizes(sizes::Args),
    /// Tactical reader over the problem suite and random positions.
    Tactics(tactics::Args),
    /// Life-and-death reading over a game record, as play would ask it.
    Owl(owl::Args),
    /// Connection reading over a game record: connect and cut questions.
    Connect(connect::Args),
    /// One full search from the empty board on one thread.
    Search(search::Args),
    /// Game database searches drawn from the database itself.
    Db(db::Args),
    /// kosumi's count of finished games against a referee engine's.
    Score(score::Args),
    /// A streaming analysis as a GUI sees it: report gaps, stop latency.
    Analyze(analyze::Args),
    /// Mutation fuzzing of the GTP line, SGF, book and database readers.
    Fuzz(fuzz::Args),
}

/// Return an empty board of `size`, or the message for a size this build
/// does not support.
///
/// # Errors
/// The size is outside `MIN_SIZE..=MAX_SIZE`.
pub fn empty_board(size: usize) -> Result<kosumi_core::board::Board, String> {
    use kosumi_core::geometry::{MAX_SIZE, MIN_SIZE};
    kosumi_core::board::Board::new(size)
        .map_err(|_| format!("board size {size} is not supported ({MIN_SIZE}..={MAX_SIZE})"))
}

/// Run one benchmark command.
///
/// # Errors
/// Returns a message for bad arguments.
pub fn run(cmd: BenchCommand) -> Result<(), String> {
    match cmd {
        BenchCommand::Playouts(args) => playouts::run(&args),
        BenchCommand::Table(args) => table::run(&args),
        BenchCommand::Sizes(args) => sizes::run(&args),
        BenchCommand::Tactics(args) => tactics::run(&args),
        BenchCommand::Owl(args) => owl::run(&args),
        BenchCommand::Connect(args) => connect::run(&args),
        BenchCommand::Search(args) => search::run(&args),
        BenchCommand::Db(args) => db::run(&args),
        BenchCommand::Score(args) => score::run(&args),
        BenchCommand::Analyze(args) => analyze::run(&args),
        BenchCommand::Fuzz(args) => fuzz::run(&args),
    }
}
