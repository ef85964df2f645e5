//! `kosumi patterns compact`: a model's patterns as a compact table for a
//! firmware's flash ([`kosumi_core::pattern::compact`]): the model's
//! tactical gammas and its patterns up to `--max-size`, each once under
//! its canonical hash. The model's patterns are nested, and a cut by size
//! keeps them so.

use std::path::{Path, PathBuf};

use kosumi_core::pattern::compact::{encode, encoded_len};
use kosumi_core::pattern::spatial::MAX_SIZE;
use kosumi_core::pattern::{Compact, Model, TACTICAL_GAMMAS};

use super::train::pattern_size;

/// Arguments of `kosumi patterns compact`.
#[derive(clap::Args, Debug)]
pub struct CompactArgs {
    /// The model file (`kosumi patterns train`).
    pub model: PathBuf,
    /// The table file to write.
    #[arg(long)]
    pub out: PathBuf,
    /// Largest pattern size kept (3: 3x3 shapes only; up to 10).
    #[arg(long, default_value_t = MAX_SIZE, value_parser = pattern_size)]
    pub max_size: usize,
}

/// Return the compact table of the model file `bytes` (named `name` in
/// errors) with its patterns up to `max_size`.
///
/// # Errors
/// A message for a model that cannot be read or two patterns of one key.
pub fn table(bytes: &[u8], name: &Path, max_size: usize) -> Result<Vec<u8>, String> {
    let model = Model::parse(bytes).map_err(|e| format!("{}: {e}", name.display()))?;
    let tactical: Vec<f32> = (0..TACTICAL_GAMMAS).map(|i| model.tactical(i)).collect();
    let mut patterns: Vec<(u64, usize, f32)> = model.canonical_patterns(max_size).collect();
    let mut out = vec![0u8; encoded_len(patterns.len())];
    encode(&tactical, &mut patterns, &mut out).map_err(|e| format!("{}: {e}", name.display()))?;
    Ok(out)
}

/// Run `kosumi patterns compact`.
///
/// # Errors
/// A message for a file that cannot be read or written, or a bad model.
pub fn run(args: &CompactArgs) -> Result<(), String> {
    let bytes = std::fs::read(&args.model).map_err(|e| format!("{}: {e}", args.model.display()))?;
    let out = table(&bytes, &args.model, args.max_size)?;
    let parsed = Compact::parse(&out).map_err(|e| format!("the table written: {e}"))?;
    kosumi::atomic::write(&args.out, &out)?;
    eprintln!(
        "{}: {} patterns up to size {}, {} bytes",
        args.out.display(),
        parsed.entries(),
        parsed.max_size(),
        out.len()
    );
    Ok(())
}
