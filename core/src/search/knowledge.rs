//! What a search knows beyond its playouts, lent by the caller for one
//! [`Search::run`](super::Search::run): the tactical reader that checks
//! the priors, a move-pattern model with the ladder reader its features
//! need, the last good replies of the playouts, and the owl's marks on
//! the root's moves ([`super::dragons`]). All are optional;
//! without a model the priors are the hand-made ones
//! ([`super::prior::prior`]).

use super::prior::Reading;
use crate::pattern::Patterns;
use crate::playout::{Aids, LocalAnswers, ReplyMemory};
use crate::tactics::{LadderReader, Solver};

/// A move-pattern model and the ladder reader for its features.
pub struct PatternPrior<'k> {
    /// The model, indexed.
    pub patterns: &'k Patterns<'k>,
    /// Scratch for the ladder features; `None`: the tactical reader's
    /// journal ([`Solver::ladders`]), free between its reads (an engine
    /// short of RAM keeps one journal). With neither, no ladder is seen.
    pub ladder: Option<&'k mut dyn LadderReader>,
}

/// The caller's knowledge for one search.
#[derive(Default)]
pub struct Knowledge<'k> {
    /// The tactical reader (checks captures and escapes at expansions).
    pub tactics: Option<&'k mut dyn Solver>,
    /// The move-pattern model (priors from its gammas).
    pub patterns: Option<PatternPrior<'k>>,
    /// Last good replies for the heavy playouts (LGRF-2).
    pub replies: Option<&'k mut dyn ReplyMemory>,
    /// Learned answers to the last move for the heavy playouts.
    pub local: Option<&'k LocalAnswers<'k>>,
    /// The owl's marks on the root's moves (its unsettled dragons).
    pub dragons: Option<&'k Reading>,
}

impl<'k> Knowledge<'k> {
    /// Return no knowledge: hand-made priors, no reading.
    pub fn none() -> Self {
        Knowledge {
            tactics: None,
            patterns: None,
            replies: None,
            local: None,
            dragons: None,
        }
    }

    /// Return the reader alone.
    pub fn tactics(tactics: Option<&'k mut dyn Solver>) -> Knowledge<'k> {
        Knowledge {
            tactics,
            patterns: None,
            replies: None,
            local: None,
            dragons: None,
        }
    }

    /// Lend the reply memory for a shorter call.
    pub fn replies(&mut self) -> Option<&mut dyn ReplyMemory> {
        match &mut self.replies {
            Some(r) => Some(&mut **r),
            None => None,
        }
    }

    /// Lend the playouts their aids: the reply memory, and with a pattern
    /// model its ladder reader for the heavy policy's ladder rules (a
    /// scratch reader, free while the playout runs).
    pub fn playout_aids(&mut self) -> Aids<'_> {
        Aids {
            replies: match &mut self.replies {
                Some(r) => Some(&mut **r),
                None => None,
            },
            ladder: ladder_of(&mut self.patterns, &mut self.tactics),
            local: self.local,
        }
    }

    /// Lend the model's ladder reader ([`PatternPrior::ladder`], else the
    /// tactical reader's) and the model; both `None` without a model.
    pub fn ladder_and_model(
        &mut self,
    ) -> (Option<&mut dyn LadderReader>, Option<&'k Patterns<'k>>) {
        let model = self.patterns.as_ref().map(|p| p.patterns);
        (ladder_of(&mut self.patterns, &mut self.tactics), model)
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
                ladder: match &mut p.ladder {
                    Some(l) => Some(&mut **l),
                    None => None,
                },
            }),
            replies: match &mut self.replies {
                Some(r) => Some(&mut **r),
                None => None,
            },
            local: self.local,
            dragons: self.dragons,
        }
    }
}

/// The ladder reader of a model's features and of the playouts' ladder
/// rules: the model's own, else the tactical reader's; none without a
/// model.
fn ladder_of<'s>(
    patterns: &'s mut Option<PatternPrior<'_>>,
    tactics: &'s mut Option<&'_ mut dyn Solver>,
) -> Option<&'s mut dyn LadderReader> {
    let p = patterns.as_mut()?;
    match (&mut p.ladder, tactics) {
        (Some(l), _) => Some(&mut **l),
        (None, Some(t)) => t.ladders(),
        (None, None) => None,
    }
}
