//! `kosumi patterns`: learn a move-pattern model from game records
//! (`train`) and measure how well it predicts the moves of games it never
//! saw (`test`). The model's features and file format are the core's
//! ([`kosumi_core::pattern`]); this is the std side: reading archives,
//! harvesting shapes, minorization-maximization, the prediction figures.
//!
//! | file | what it is |
//! |---|---|
//! | [`games`] | SGF files, directories and `.tar.gz` archives; the train/test split by file name |
//! | [`replay`] | a record's positions, moves and candidate moves |
//! | [`mm`] | minorization-maximization for the generalised Bradley-Terry model |
//! | [`train`] | `kosumi patterns train` |
//! | [`eval`] | `kosumi patterns test` |
//! | [`local`] | `kosumi patterns local`: the playouts' learned answers to the last move |
//! | [`compact`] | `kosumi patterns compact`: a model's patterns as a compact table for a firmware's flash |

pub mod compact;
pub mod eval;
pub mod games;
pub mod local;
pub mod mm;
pub mod replay;
pub mod train;

/// `kosumi patterns` subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum PatternsCommand {
    /// Learn a model from game records (the training part of the split).
    Train(train::TrainArgs),
    /// Measure move prediction on the test part of the split.
    Test(eval::TestArgs),
    /// Learn the playouts' answers to the last move (a table of chances
    /// by 3x3 neighbourhood).
    Local(local::LocalArgs),
    /// Write a model's patterns as a compact table for a firmware's flash
    /// (one entry a pattern, read in place).
    Compact(compact::CompactArgs),
}

/// Run a `kosumi patterns` subcommand.
///
/// # Errors
/// The subcommand's message.
pub fn run(cmd: &PatternsCommand) -> Result<(), String> {
    match cmd {
        PatternsCommand::Train(a) => train::run(a),
        PatternsCommand::Test(a) => eval::run(a),
        PatternsCommand::Local(a) => local::run(a),
        PatternsCommand::Compact(a) => compact::run(a),
    }
}
