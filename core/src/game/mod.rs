//! The game layer that the host's and the firmware's GTP share (no `std`,
//! no allocation): so far the clock (`time_settings`, `kgs-time_settings`,
//! `time_left`, the time a move may take) and the end of the game (dead
//! stones, the final score, whether passing wins).

pub mod choice;
pub mod record;
pub mod scoring;
pub mod timecontrol;

pub use choice::{choose, Choice, Mode, Outcome, Player, ResignRule, RANKED};
pub use record::{Game, Move, PlayError, SetupError};
pub use scoring::{passing_wins, Ownership, Scorer};
pub use timecontrol::{TimeControl, TimeError};
