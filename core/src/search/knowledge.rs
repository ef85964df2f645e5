//! What a search knows beyond its playouts, lent by the caller for one
//! [`Search::run`](super::Search::run): the tactical reader that checks
//! the priors, and a move-pattern model with the ladder reader its
//! features need. Both are optional; without a model the priors are the
//! hand-made ones ([`super::prior::prior`]).

use crate::pattern::Patterns;
use crate::tactics::{Ladder, Solver};

/// A move-pattern model and the ladder reader for its features.
pub struct PatternPrior<'k> {
    /// The model, indexed.
    pub patterns: &'k Patterns<'k>,
    /// Scratch for the ladder features.
    pub ladder: &'k mut Ladder,
}

/// The caller's knowledge for one search.
#[derive(Default)]
pub struct Knowledge<'k> {
    /// The tactical reader (checks captures and escapes at expansions).
    pub tactics: Option<&'k mut dyn Solver>,
    /// The move-pattern model (priors from its gammas).
    pub patterns: Option<PatternPrior<'k>>,
}

impl<'k> Knowledge<'k> {
    /// Return no knowledge: hand-made priors, no reading.
    pub fn none() -> Knowledge<'static> {
        Knowledge {
            tactics: None,
            patterns: None,
        }
    }

    /// Return the reader alone.
    pub fn tactics(tactics: Option<&'k mut dyn Solver>) -> Knowledge<'k> {
        Knowledge {
            tactics,
            patterns: None,
        }
    }

    /// Lend the knowledge for a shorter call.
    pub fn reborrow(&mut self) -> Knowledge<'_> {
        Knowledge {
            tactics: match &mut self.tactics {
                Some(r) => Some(&mut **r),
                None => None,
            },
            patterns: self.patterns.as_mut().map(|p| PatternPrior {
                patterns: p.patterns,
                ladder: &mut *p.ladder,
            }),
        }
    }
}
