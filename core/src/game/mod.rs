//! The game layer that the host's and the firmware's GTP share (no `std`,
//! no allocation): the record, handicap placement, the clock
//! (`time_settings`, `kgs-time_settings`, `time_left`, the time a move may
//! take), the end of the game (dead stones, the final score, whether
//! passing wins), the move `genmove` plays around a search and an opening
//! book in read-only memory.

pub mod book;
pub mod choice;
pub mod handicap;
pub mod record;
pub mod scoring;
pub mod timecontrol;

pub use book::{Book, BookError};
pub use choice::{choose, Choice, Mode, Outcome, Player, ResignRule, RANKED};
pub use record::{Game, Move, PlayError, SetupError};
pub use scoring::{passing_wins, Ownership, Scorer};
pub use timecontrol::{TimeControl, TimeError};
