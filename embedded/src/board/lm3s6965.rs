//! TI Stellaris LM3S6965 (the LM3S6965 evaluation board; QEMU
//! `lm3s6965evb`): Cortex-M3 at 50 MHz from the PLL and the board's 8 MHz
//! crystal, 256 KiB flash, 64 KiB SRAM; GTP on UART0 (PA0/PA1, the
//! evaluation board's USB virtual COM port).

use crate::uart::{reg_read, reg_write, Pl011};

/// The board size at power-on (`boardsize` takes up to the core's
/// `MAX_SIZE`, 9 in the firmware's build).
pub const SIZE: usize = 9;

/// Nodes of the search tree: 400 nodes of 40 bytes (16,000 bytes). With
/// the 4 KiB best-move table, the tactical cache and reader (about 9 KiB:
/// its journal holds reads of 20 plies) and about 15 KiB of engine
/// statics, 44.7 KB of statics; the stack's peak in a game near 10 KB
/// (the deeper reads), so over 10 KiB of the 64 KiB stay spare
/// (BENCHMARKS.md). A pool of 40,000 nodes (the mps2-an386 build) played
/// no better at the same playouts.
pub const NODES: usize = 400;

/// Clusters of the best-move table (64 bytes, 8 entries each; a power of
/// two): 512 entries, 4 KiB.
pub const CLUSTERS: usize = 64;

/// Clusters of the tactical cache (3 entries each, 32 bytes).
pub const TACTIC_CLUSTERS: usize = 16;

/// System control: run-mode clock configuration, raw interrupt status, and
/// the clock gates of the peripherals (datasheet, "System Control").
const SYSCTL_RIS: usize = 0x400F_E050;
const SYSCTL_RCC: usize = 0x400F_E060;
const SYSCTL_RCGC0: usize = 0x400F_E100;
const SYSCTL_RCGC1: usize = 0x400F_E104;
const SYSCTL_RCGC2: usize = 0x400F_E108;

/// RCC fields.
const RCC_MOSCDIS: u32 = 1;
const RCC_OSCSRC: u32 = 0b11 << 4;
const RCC_XTAL: u32 = 0b1111 << 6;
const RCC_XTAL_8MHZ: u32 = 0xE << 6;
const RCC_BYPASS: u32 = 1 << 11;
const RCC_PWRDN: u32 = 1 << 13;
const RCC_USESYSDIV: u32 = 1 << 22;
const RCC_SYSDIV: u32 = 0b1111 << 23;
/// The 200 MHz PLL divided by 4.
const RCC_SYSDIV_50MHZ: u32 = 3 << 23;
/// RIS: the PLL has locked.
const RIS_PLLLRIS: u32 = 1 << 6;

/// GPIO port A (APB): alternate function select and digital enable.
const GPIOA: usize = 0x4000_4000;
const GPIO_AFSEL: usize = 0x420;
const GPIO_DEN: usize = 0x51C;

/// UART0.
const UART0: usize = 0x4000_C000;

/// Watchdog timer 0: load value, control, interrupt clear (a write reloads
/// the counter); its clock gate is bit 3 of RCGC0.
const WDT0: usize = 0x4000_0000;
const WDT_LOAD: usize = 0x000;
const WDT_CTL: usize = 0x008;
const WDT_ICR: usize = 0x00C;
/// CTL: count and interrupt (then locked on until reset), reset on the
/// second time-out.
const WDT_CTL_INTEN: u32 = 1;
const WDT_CTL_RESEN: u32 = 1 << 1;

/// Polls of the PLL lock bit before running from the crystal alone (the
/// datasheet gives the PLL at most 0.5 ms to lock: 4,000 cycles at 8 MHz).
const PLL_LOCK_POLLS: u32 = 100_000;

/// The internal oscillator the chip starts on (12 MHz, ± 30%).
const RESET_HZ: u32 = 12_000_000;

/// Baud rate of the GTP UART.
const BAUD: u32 = 115_200;

/// The GTP serial port.
pub type Uart = Pl011;

/// Clock UART0 and port A, enable the UART, give it PA0/PA1, then set the
/// system clock to 50 MHz from the PLL (the crystal's 8 MHz if the PLL does
/// not lock) and the UART's divisor for it: 115200 8N1. Return the UART and
/// the system clock in Hz.
pub fn init() -> (Uart, u32) {
    // Open the clock gates of UART0 and GPIO port A; a peripheral may be
    // touched three clocks after its gate opens.
    reg_write(SYSCTL_RCGC1, reg_read(SYSCTL_RCGC1) | 1);
    reg_write(SYSCTL_RCGC2, reg_read(SYSCTL_RCGC2) | 1);
    cortex_m::asm::delay(3);
    let mut uart = Pl011::new(UART0, RESET_HZ, BAUD, feed_watchdog);
    reg_write(GPIOA + GPIO_AFSEL, reg_read(GPIOA + GPIO_AFSEL) | 0b11);
    reg_write(GPIOA + GPIO_DEN, reg_read(GPIOA + GPIO_DEN) | 0b11);
    let hz = start_clock();
    uart.set_baud(hz, BAUD);
    (uart, hz)
}

/// Switch from the internal oscillator (12 MHz ± 30% at reset, too loose
/// for a UART) to the main oscillator through the PLL, as the datasheet's
/// "Initialization and Configuration" orders it; return the clock in Hz.
/// QEMU derives its model's clock (and SysTick's rate) from these writes.
fn start_clock() -> u32 {
    // Run from the raw source while the PLL is set up.
    let mut rcc = reg_read(SYSCTL_RCC);
    rcc = (rcc | RCC_BYPASS) & !RCC_USESYSDIV;
    reg_write(SYSCTL_RCC, rcc);
    // Main oscillator, 8 MHz crystal, PLL powered.
    rcc &= !(RCC_MOSCDIS | RCC_OSCSRC | RCC_XTAL | RCC_PWRDN);
    rcc |= RCC_XTAL_8MHZ;
    reg_write(SYSCTL_RCC, rcc);
    rcc = (rcc & !RCC_SYSDIV) | RCC_SYSDIV_50MHZ | RCC_USESYSDIV;
    reg_write(SYSCTL_RCC, rcc);
    for _ in 0..PLL_LOCK_POLLS {
        if reg_read(SYSCTL_RIS) & RIS_PLLLRIS != 0 {
            reg_write(SYSCTL_RCC, rcc & !RCC_BYPASS);
            return 50_000_000;
        }
    }
    // No lock: the crystal alone, undivided.
    reg_write(SYSCTL_RCC, rcc & !RCC_USESYSDIV);
    8_000_000
}

/// Start the watchdog: a time-out every two seconds of the system clock
/// `hz`, and a reset at the second one not fed in between (so a hang
/// resets the chip within four seconds).
pub fn start_watchdog(hz: u32) {
    reg_write(SYSCTL_RCGC0, reg_read(SYSCTL_RCGC0) | (1 << 3));
    cortex_m::asm::delay(3);
    reg_write(WDT0 + WDT_LOAD, hz.saturating_mul(2));
    reg_write(WDT0 + WDT_CTL, WDT_CTL_INTEN | WDT_CTL_RESEN);
}

/// Feed the watchdog: reload its counter (harmless before it starts).
pub fn feed_watchdog() {
    reg_write(WDT0 + WDT_ICR, 1);
}
