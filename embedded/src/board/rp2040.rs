//! Raspberry Pi Pico (RP2040): Cortex-M0+ (the firmware runs on core 0; core
//! 1 sleeps) at 125 MHz from the PLL and the board's 12 MHz crystal (the
//! crystal's 12 MHz if the PLL does not lock), 2 MiB flash, 264 KiB SRAM;
//! GTP on UART0 (GPIO0 TX, GPIO1 RX: the Pico's pins 1 and 2) at 115200
//! 8N1, for a USB serial adapter or a Raspberry Pi Debug Probe's UART. The
//! watchdog resets a hung chip.
//!
//! Built in CI, never run here: this machine has no such board and QEMU
//! models none (README, "Real boards").

use crate::uart::{reg_read, reg_write, Pl011};

/// The second-stage boot loader for the Pico's W25Q080 flash, in the
/// image's first 256 bytes (`boards/rp2040.x`).
#[link_section = ".boot2"]
#[used]
pub static BOOT2: [u8; 256] = rp2040_boot2::BOOT_LOADER_W25Q080;

/// The board size at power-on (`boardsize` takes up to the core's
/// `MAX_SIZE`, 9 in the firmware's build).
pub const SIZE: usize = 9;

/// Nodes of the search tree: 4,096 nodes of 40 bytes (160 KiB); with the
/// 32 KiB best-move table, the tactical cache and about 20 KiB of engine
/// statics, about 220 KiB of the 256 KiB.
pub const NODES: usize = 4096;

/// Clusters of the best-move table (64 bytes, 8 entries each; a power of
/// two): 4,096 entries, 32 KiB.
pub const CLUSTERS: usize = 512;

/// Clusters of the tactical cache (3 entries each, 32 bytes).
pub const TACTIC_CLUSTERS: usize = 256;

/// Register blocks (RP2040 datasheet, chapter 2). Each has an alias at
/// `+0x3000` whose writes clear the bits written.
const RESETS: usize = 0x4000_C000;
const CLOCKS: usize = 0x4000_8000;
const XOSC: usize = 0x4002_4000;
const PLL_SYS: usize = 0x4002_8000;
const IO_BANK0: usize = 0x4001_4000;
const PSM: usize = 0x4001_0000;
const WATCHDOG: usize = 0x4005_8000;
const UART0: usize = 0x4003_4000;
const CLEAR: usize = 0x3000;

/// RESETS: the reset, and reset-done, bits of the blocks used.
const RESET_DONE: usize = 0x08;
const RESET_IO_BANK0: u32 = 1 << 5;
const RESET_PADS_BANK0: u32 = 1 << 8;
const RESET_PLL_SYS: u32 = 1 << 12;
const RESET_UART0: u32 = 1 << 22;

/// XOSC: 1-15 MHz range, enable, start-up delay (in 256 cycles: 1 ms at
/// 12 MHz), stable flag.
const XOSC_CTRL: usize = XOSC;
const XOSC_STATUS: usize = XOSC + 0x04;
const XOSC_STARTUP: usize = XOSC + 0x0C;
const XOSC_CTRL_ON: u32 = 0xAA0 | (0xFAB << 12);
const XOSC_STABLE: u32 = 1 << 31;

/// CLOCKS: the reference, system and peripheral clocks' controls and the
/// one-hot "selected" registers of the first two.
const CLK_REF_CTRL: usize = CLOCKS + 0x30;
const CLK_REF_SELECTED: usize = CLOCKS + 0x38;
const CLK_SYS_CTRL: usize = CLOCKS + 0x3C;
const CLK_SYS_SELECTED: usize = CLOCKS + 0x44;
const CLK_PERI_CTRL: usize = CLOCKS + 0x48;
/// CLK_REF from the crystal; CLK_SYS from its auxiliary mux (the PLL);
/// CLK_PERI enabled, from CLK_SYS.
const CLK_REF_SRC_XOSC: u32 = 2;
const CLK_SYS_SRC_AUX: u32 = 1;
const CLK_PERI_ENABLE: u32 = 1 << 11;

/// PLL_SYS: 12 MHz / 1 x 125 = 1,500 MHz VCO, / 6 / 2 = 125 MHz.
const PLL_CS: usize = PLL_SYS;
const PLL_PWR: usize = PLL_SYS + 0x04;
const PLL_FBDIV: usize = PLL_SYS + 0x08;
const PLL_PRIM: usize = PLL_SYS + 0x0C;
const PLL_LOCK: u32 = 1 << 31;
const PLL_PWR_PD: u32 = 1;
const PLL_PWR_POSTDIVPD: u32 = 1 << 3;
const PLL_PWR_VCOPD: u32 = 1 << 5;
const PLL_PRIM_6_2: u32 = (6 << 16) | (2 << 12);

/// Watchdog: control (enable), load, and its tick from CLK_REF; PSM's
/// selection of what a watchdog reset resets (all but the oscillators).
const WDOG_CTRL: usize = WATCHDOG;
const WDOG_LOAD: usize = WATCHDOG + 0x04;
const WDOG_TICK: usize = WATCHDOG + 0x2C;
const WDOG_CTRL_ENABLE: u32 = 1 << 30;
const WDOG_TICK_ENABLE: u32 = 1 << 9;
const PSM_WDSEL: usize = PSM + 0x08;
const PSM_WDSEL_ALL_BUT_OSCILLATORS: u32 = 0x0001_FFFC;
/// Four seconds: the counter counts microseconds twice (erratum RP2040-E1).
const WDOG_LOAD_4S: u32 = 2 * 4_000_000;

/// GPIO0 and GPIO1's control registers: function 2 is UART0.
const GPIO0_CTRL: usize = IO_BANK0 + 0x04;
const GPIO1_CTRL: usize = IO_BANK0 + 0x0C;
const FUNC_UART: u32 = 2;

/// The crystal.
const XOSC_HZ: u32 = 12_000_000;

/// Polls of a ready flag before giving up on the crystal or the PLL.
const READY_POLLS: u32 = 200_000;

/// Baud rate of the GTP UART.
const BAUD: u32 = 115_200;

/// The GTP serial port: the RP2040's UART is an Arm PL011.
pub type Uart = Pl011;

/// Start the crystal and the PLL and run the system and peripheral clocks
/// from them, take the GPIO blocks and UART0 out of reset, give GPIO0/1 to
/// UART0 and enable it at 115200 8N1. Return the UART and the system clock
/// in Hz.
pub fn init() -> (Uart, u32) {
    let hz = start_clock();
    unreset(RESET_IO_BANK0 | RESET_PADS_BANK0 | RESET_UART0);
    reg_write(GPIO0_CTRL, FUNC_UART);
    reg_write(GPIO1_CTRL, FUNC_UART);
    (Pl011::new(UART0, hz, BAUD, feed_watchdog), hz)
}

/// Take the blocks of `mask` out of reset and wait until they are.
fn unreset(mask: u32) {
    reg_write(RESETS + CLEAR, mask);
    while reg_read(RESETS + RESET_DONE) & mask != mask {}
}

/// Poll `addr` until `bit` is set; `false` if it never is.
fn ready(addr: usize, bit: u32) -> bool {
    (0..READY_POLLS).any(|_| reg_read(addr) & bit != 0)
}

/// Run CLK_REF from the crystal and CLK_SYS (and CLK_PERI) from the PLL at
/// 125 MHz, or from the crystal if the PLL does not lock; return CLK_SYS.
/// The chip boots on its ring oscillator (about 6 MHz, too loose for a
/// UART).
fn start_clock() -> u32 {
    reg_write(XOSC_STARTUP, (XOSC_HZ / 1000).div_ceil(256));
    reg_write(XOSC_CTRL, XOSC_CTRL_ON);
    if !ready(XOSC_STATUS, XOSC_STABLE) {
        // On the ring oscillator the UART's rate is a guess; boot anyway.
        reg_write(CLK_PERI_CTRL, CLK_PERI_ENABLE);
        return 6_000_000;
    }
    reg_write(CLK_REF_CTRL, CLK_REF_SRC_XOSC);
    let _ = ready(CLK_REF_SELECTED, 1 << CLK_REF_SRC_XOSC);
    // CLK_SYS from CLK_REF (the crystal) while the PLL starts.
    reg_write(CLK_SYS_CTRL, 0);
    let _ = ready(CLK_SYS_SELECTED, 1);
    let mut hz = XOSC_HZ;
    reg_write(RESETS + 0x2000, RESET_PLL_SYS);
    unreset(RESET_PLL_SYS);
    reg_write(PLL_CS, 1);
    reg_write(PLL_FBDIV, 125);
    reg_write(PLL_PWR + CLEAR, PLL_PWR_PD | PLL_PWR_VCOPD);
    if ready(PLL_CS, PLL_LOCK) {
        reg_write(PLL_PRIM, PLL_PRIM_6_2);
        reg_write(PLL_PWR + CLEAR, PLL_PWR_POSTDIVPD);
        // The auxiliary mux's source 0 is PLL_SYS; then switch to it.
        reg_write(CLK_SYS_CTRL, CLK_SYS_SRC_AUX);
        if ready(CLK_SYS_SELECTED, 1 << 1) {
            hz = 125_000_000;
        }
    }
    reg_write(CLK_PERI_CTRL, CLK_PERI_ENABLE);
    hz
}

/// Start the watchdog: a reset of everything but the oscillators four
/// seconds after the last feed, counted in microseconds of CLK_REF (the
/// 12 MHz crystal). `hz` is not needed: the tick comes from CLK_REF.
pub fn start_watchdog(_hz: u32) {
    reg_write(PSM_WDSEL, PSM_WDSEL_ALL_BUT_OSCILLATORS);
    reg_write(WDOG_TICK, WDOG_TICK_ENABLE | (XOSC_HZ / 1_000_000));
    reg_write(WDOG_LOAD, WDOG_LOAD_4S);
    reg_write(WDOG_CTRL, WDOG_CTRL_ENABLE);
}

/// Feed the watchdog: reload its counter (harmless before it starts).
pub fn feed_watchdog() {
    reg_write(WDOG_LOAD, WDOG_LOAD_4S);
}
