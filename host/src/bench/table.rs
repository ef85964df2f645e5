//! `kosumi bench table`: placeholder, filled in by the clustered-table work.

/// Arguments of `kosumi bench table`.
#[derive(clap::Args, Debug, Default)]
pub struct Args {}

/// Run the table benchmark.
pub fn run(_args: &Args) -> Result<(), String> {
    Err("bench table: not built yet".into())
}
