//! `kosumi bench playouts`: placeholder until the board lands.

/// Arguments of `kosumi bench playouts`.
#[derive(clap::Args, Debug, Default)]
pub struct Args {}

/// Run the playout benchmark.
pub fn run(_args: &Args) -> Result<(), String> {
    Err("bench playouts: not built yet".into())
}
