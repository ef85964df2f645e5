//! Arm MPS2+ with the AN386 FPGA image (QEMU `mps2-an386`): Cortex-M4 at a
//! fixed 25 MHz, 4 MiB code and 4 MiB data SRAM; GTP on UART0, which the
//! board's motherboard configuration controller routes to its USB serial
//! port. Clocks need no setup.

use crate::uart::Cmsdk;

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
    (Cmsdk::new(0x4000_4000, HZ / BAUD), HZ)
}
