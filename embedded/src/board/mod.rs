//! The board the firmware is built for, as data: each board is one module
//! (with its memory map in `boards/NAME.x`) that sets up its clocks and its
//! GTP UART and sizes the engine for its RAM. One Cargo feature picks it.

#[cfg(all(feature = "lm3s6965", feature = "mps2-an386"))]
compile_error!("choose one board feature: lm3s6965 or mps2-an386");
#[cfg(not(any(feature = "lm3s6965", feature = "mps2-an386")))]
compile_error!("choose a board feature: lm3s6965 or mps2-an386");

#[cfg(feature = "lm3s6965")]
mod lm3s6965;
#[cfg(feature = "lm3s6965")]
pub use lm3s6965::*;

#[cfg(feature = "mps2-an386")]
mod mps2_an386;
#[cfg(feature = "mps2-an386")]
pub use mps2_an386::*;
