//! The game layer that the host's and the firmware's GTP share (no `std`,
//! no allocation): so far the clock, `time_settings`, `kgs-time_settings`,
//! `time_left` and the time a move may take.

pub mod timecontrol;

pub use timecontrol::{TimeControl, TimeError};
