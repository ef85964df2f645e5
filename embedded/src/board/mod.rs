//! The board the firmware is built for, as data: each board is one module
//! (with its memory map in `boards/NAME.x`) that sets up its clocks and its
//! GTP UART and sizes the engine for its RAM. One Cargo feature picks it.

/// Board features enabled: exactly one.
const BOARDS: usize = cfg!(feature = "lm3s6965") as usize
    + cfg!(feature = "mps2-an386") as usize
    + cfg!(feature = "stm32f411") as usize
    + cfg!(feature = "rp2040") as usize;
const _: () = assert!(
    BOARDS == 1,
    "choose exactly one board feature: lm3s6965, mps2-an386, stm32f411 or rp2040"
);

#[cfg(feature = "lm3s6965")]
mod lm3s6965;
#[cfg(feature = "lm3s6965")]
pub use lm3s6965::*;

#[cfg(feature = "mps2-an386")]
mod mps2_an386;
#[cfg(feature = "mps2-an386")]
pub use mps2_an386::*;

#[cfg(feature = "stm32f411")]
mod stm32f411;
#[cfg(feature = "stm32f411")]
pub use stm32f411::*;

#[cfg(feature = "rp2040")]
mod rp2040;
#[cfg(feature = "rp2040")]
pub use rp2040::*;
