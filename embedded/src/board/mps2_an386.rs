//! Arm MPS2+ with the AN386 FPGA image (QEMU `mps2-an386`): Cortex-M4 at a
//! fixed 25 MHz, 4 MiB code and 4 MiB data SRAM; GTP on UART0, which the
//! board's motherboard configuration controller routes to its USB serial
//! port. Clocks need no setup.

use crate::uart::{reg_write, Cmsdk};

/// The CMSDK watchdog: load value, control, interrupt clear (a write
/// reloads the counter). Its interrupt is the NMI.
const WATCHDOG: usize = 0x4000_8000;
const WDOG_LOAD: usize = 0x000;
const WDOG_CTRL: usize = 0x008;
const WDOG_INTCLR: usize = 0x00C;
/// CTRL: count and interrupt, reset on the second time-out.
const WDOG_CTRL_INTEN: u32 = 1;
const WDOG_CTRL_RESEN: u32 = 1 << 1;

/// The board size at power-on (`boardsize` takes up to the core's
/// `MAX_SIZE`, 9 in the firmware's build).
pub const SIZE: usize = 9;

/// Nodes of the search tree.
pub const NODES: usize = 40_000;

/// Clusters of the best-move table (a power of two).
pub const CLUSTERS: usize = 4096;

/// Clusters of the tactical cache.
pub const TACTIC_CLUSTERS: usize = 4096;

/// The FPGA's system clock.
const HZ: u32 = 25_000_000;

/// Baud rate of the GTP UART.
const BAUD: u32 = 115_200;

/// The GTP serial port.
pub type Uart = Cmsdk;

/// Return UART0 at 115200 baud, and the system clock in Hz.
pub fn init() -> (Uart, u32) {
    (Cmsdk::new(0x4000_4000, HZ / BAUD, feed_watchdog), HZ)
}

/// Start the watchdog: a time-out every two seconds of `hz`, a reset at
/// the second one not fed in between.
pub fn start_watchdog(hz: u32) {
    reg_write(WATCHDOG + WDOG_LOAD, hz.saturating_mul(2));
    reg_write(WATCHDOG + WDOG_CTRL, WDOG_CTRL_INTEN | WDOG_CTRL_RESEN);
}

/// Feed the watchdog: reload its counter (harmless before it starts).
pub fn feed_watchdog() {
    reg_write(WATCHDOG + WDOG_INTCLR, 1);
}
