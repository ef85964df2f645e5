//! The engine's move-pattern model: the one built into the binary
//! (`models/kgs-6d.kpm`, learned from KGS 6-dan games by `kosumi patterns
//! train`) or a file given with `--patterns`, read and indexed once at
//! start-up and kept for the life of the process.

use std::path::{Path, PathBuf};

use kosumi_core::pattern::{Model, Patterns, Slot};
use kosumi_core::playout::LocalAnswers;

/// The model built into the binary.
pub static BUILT_IN: &[u8] = include_bytes!("../../../models/kgs-6d.kpm");

/// The model options of the engine and of `bench search`.
#[derive(clap::Args, Debug, Clone, Default, PartialEq)]
pub struct ModelArgs {
    /// Move-pattern model file (default: the one built in).
    #[arg(long)]
    pub patterns: Option<PathBuf>,
    /// Search without a move-pattern model (the hand-made priors).
    #[arg(long)]
    pub no_patterns: bool,
    /// Virtual wins of a move the model gives probability p:
    /// PATTERN_PRIOR * sqrt(p) (default the core's).
    #[arg(long)]
    pub pattern_prior: Option<f32>,
}

impl ModelArgs {
    /// Load the model these options ask for (`None` with `--no-patterns`).
    ///
    /// # Errors
    /// See [`load`].
    pub fn load(&self) -> Result<Option<&'static Patterns<'static>>, String> {
        if self.no_patterns {
            return Ok(None);
        }
        load(self.patterns.as_deref()).map(Some)
    }
}

/// Read, check and index the model in `bytes` (named `name` in errors);
/// the bytes and the index are kept for the life of the process.
///
/// # Errors
/// What the core's [`Model::parse`] or [`Patterns::build`] refuses, naming
/// the model.
pub fn index(bytes: &'static [u8], name: &str) -> Result<&'static Patterns<'static>, String> {
    let model = Model::parse(bytes).map_err(|e| format!("pattern model {name}: {e}"))?;
    let slots: &'static mut [Slot] =
        Box::leak(vec![Slot::EMPTY; Patterns::slots_for(model.patterns())].into_boxed_slice());
    let patterns =
        Patterns::build(model, slots).map_err(|e| format!("pattern model {name}: {e}"))?;
    Ok(Box::leak(Box::new(patterns)))
}

/// Load the model of `--patterns FILE`, or the built-in one.
///
/// # Errors
/// An unreadable, truncated or corrupt file, as a message naming it.
pub fn load(file: Option<&Path>) -> Result<&'static Patterns<'static>, String> {
    match file {
        None => index(BUILT_IN, "(built in)"),
        Some(path) => {
            let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
            index(
                Box::leak(bytes.into_boxed_slice()),
                &path.display().to_string(),
            )
        }
    }
}

/// Load the table of learned local answers in `path` (made by `kosumi
/// patterns local`), kept for the life of the process.
///
/// # Errors
/// An unreadable, truncated or corrupt file, as a message naming it.
pub fn load_local(path: &Path) -> Result<&'static LocalAnswers<'static>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let table = LocalAnswers::parse(Box::leak(bytes.into_boxed_slice()))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(Box::leak(Box::new(table)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_model_reads_and_indexes() {
        let p = load(None).expect("built-in model");
        assert!(p.patterns() > 1000);
    }
}
