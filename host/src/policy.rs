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
    /// the waterfall's rule 2, the heavy policy's ladder rules as `ladders`
    /// says, its fight rules (two liberties, nakade) at the chance `fights`
    /// if given, and its other chances the core's defaults.
    pub fn policy(self, capture: f64, ladders: Ladders, fights: Option<f32>) -> Policy {
        let capture = rng::threshold(capture);
        let fights = fights.map(|f| rng::threshold(f64::from(f)));
        match self {
            PolicyName::Light => Policy::Light,
            PolicyName::Waterfall => Policy::Waterfall { capture },
            PolicyName::Heavy => Policy::Heavy(Heavy {
                capture,
                ladder_escapes: match ladders {
                    Ladders::Off => 0,
                    _ => Heavy::DEFAULT.ladder_escapes,
                },
                ladders: match ladders {
                    Ladders::Off => 0,
                    Ladders::Default => Heavy::DEFAULT.ladders,
                    Ladders::TwoLiberties(chance) => rng::threshold(chance),
                },
                two_liberties: fights.unwrap_or(Heavy::DEFAULT.two_liberties),
                nakade: fights.unwrap_or(Heavy::DEFAULT.nakade),
                ..Heavy::DEFAULT
            }),
        }
    }
}

/// The heavy policy's ladder rules, as the options set them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Ladders {
    /// No ladder reading in the playouts.
    Off,
    /// The core's chances.
    Default,
    /// No escape into a ladder, and the two-liberty reads at this chance.
    TwoLiberties(f64),
}

impl Ladders {
    /// Return the rules the options `--no-playout-ladders` (`off`) and
    /// `--playout-ladders CHANCE` ask for.
    pub fn from_options(off: bool, chance: Option<f32>) -> Ladders {
        match (off, chance) {
            (true, _) => Ladders::Off,
            (false, None) => Ladders::Default,
            (false, Some(c)) => Ladders::TwoLiberties(f64::from(c)),
        }
    }
}
