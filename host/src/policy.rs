//! The playout policies by the names the options spell (`--playout` of
//! the engine and `bench search`, `--policy` of `bench playouts`).

use kosumi_core::playout::{Heavy, Policy};
use kosumi_core::rng;

/// Which playout policy to run.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PolicyName {
    /// Uniformly random moves that do not fill own eyes.
    #[default]
    Light,
    /// Save from atari, capture, else random (the seed's waterfall).
    Waterfall,
    /// The waterfall, then shape patterns next to the last move, then
    /// random moves without self-atari (the GTP engine's policy).
    Heavy,
}

impl PolicyName {
    /// Return the name as options spell it.
    pub fn name(self) -> &'static str {
        match self {
            PolicyName::Light => "light",
            PolicyName::Waterfall => "waterfall",
            PolicyName::Heavy => "heavy",
        }
    }

    /// Return the core's policy of this name, with `capture` the chance of
    /// the waterfall's rule 2 and the heavy policy's other chances the
    /// core's defaults.
    pub fn policy(self, capture: f64) -> Policy {
        let capture = rng::threshold(capture);
        match self {
            PolicyName::Light => Policy::Light,
            PolicyName::Waterfall => Policy::Waterfall { capture },
            PolicyName::Heavy => Policy::Heavy(Heavy {
                capture,
                ..Heavy::DEFAULT
            }),
        }
    }
}
