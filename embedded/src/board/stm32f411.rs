//! STM32F411CE (the WeAct "Black Pill" and its kin): Cortex-M4F at 96 MHz
//! from the PLL and the board's 25 MHz crystal (the 16 MHz internal
//! oscillator if the crystal does not start), 512 KiB flash, 128 KiB SRAM;
//! GTP on USART1 (PA9 TX, PA10 RX) at 115200 8N1, for a USB serial adapter.
//! The independent watchdog resets a hung chip.
//!
//! Built in CI, never run here: this machine has no such board and QEMU
//! models none (README, "Real boards").

use crate::uart::{reg_read, reg_write, Stm32Usart};

/// The board size at power-on (`boardsize` takes up to the core's
/// `MAX_SIZE`, 9 in the firmware's build).
pub const SIZE: usize = 9;

/// Nodes of the search tree: 1,664 nodes of 40 bytes (65 KiB); with the
/// 16 KiB best-move table, the tactical cache and about 24 KiB of engine
/// statics (the reader's journal for reads of 20 plies among them), about
/// 108 KiB of the 128 KiB.
pub const NODES: usize = 1664;

/// Clusters of the best-move table (64 bytes, 8 entries each; a power of
/// two): 2,048 entries, 16 KiB.
pub const CLUSTERS: usize = 256;

/// Clusters of the tactical cache (3 entries each, 32 bytes).
pub const TACTIC_CLUSTERS: usize = 64;

/// Reset and clock control (reference manual RM0383, section 6.3).
const RCC: usize = 0x4002_3800;
const RCC_CR: usize = RCC;
const RCC_PLLCFGR: usize = RCC + 0x04;
const RCC_CFGR: usize = RCC + 0x08;
const RCC_AHB1ENR: usize = RCC + 0x30;
const RCC_APB2ENR: usize = RCC + 0x44;
/// CR: the crystal oscillator on and ready, the PLL on and locked.
const CR_HSEON: u32 = 1 << 16;
const CR_HSERDY: u32 = 1 << 17;
const CR_PLLON: u32 = 1 << 24;
const CR_PLLRDY: u32 = 1 << 25;
/// PLLCFGR for 96 MHz from the 25 MHz crystal: /25 to 1 MHz, x192, /2 for
/// the system clock (PLLP = 0), /4 for USB's 48 MHz, the crystal as source;
/// the fields' mask (the reserved bits keep their reset values).
const PLLCFGR_96MHZ: u32 = 25 | (192 << 6) | (1 << 22) | (4 << 24);
const PLLCFGR_FIELDS: u32 = 0x3F | (0x1FF << 6) | (0b11 << 16) | (1 << 22) | (0xF << 24);
/// CFGR: the PLL as system clock (SW = 0b10, read back in SWS), APB1 at
/// half the system clock (its maximum is 50 MHz), APB2 undivided.
const CFGR_SW_PLL: u32 = 0b10;
const CFGR_SWS: u32 = 0b11 << 2;
const CFGR_SWS_PLL: u32 = 0b10 << 2;
const CFGR_PPRE1_DIV2: u32 = 0b100 << 10;

/// Flash access control: three wait states at 96 MHz (2.7-3.6 V), with
/// prefetch and the instruction and data caches.
const FLASH_ACR: usize = 0x4002_3C00;
const ACR_96MHZ: u32 = 3 | (1 << 8) | (1 << 9) | (1 << 10);

/// GPIO port A: mode and alternate function (high half) registers.
const GPIOA: usize = 0x4002_0000;
const GPIO_MODER: usize = 0x00;
const GPIO_AFRH: usize = 0x24;

/// USART1, on APB2.
const USART1: usize = 0x4001_1000;

/// Independent watchdog: key, prescaler and reload registers; it runs from
/// the 32 kHz internal oscillator and cannot be stopped once started.
const IWDG_KR: usize = 0x4000_3000;
const IWDG_PR: usize = 0x4000_3004;
const IWDG_RLR: usize = 0x4000_3008;

/// Polls of a ready flag before giving up on the crystal or the PLL (each
/// starts within 2 ms; the core runs at 16 MHz meanwhile).
const READY_POLLS: u32 = 200_000;

/// The internal oscillator the chip starts on.
const RESET_HZ: u32 = 16_000_000;

/// Baud rate of the GTP UART.
const BAUD: u32 = 115_200;

/// The GTP serial port.
pub type Uart = Stm32Usart;

/// Set the system clock to 96 MHz (16 MHz if the crystal or the PLL fails
/// to start), clock port A and USART1, give PA9/PA10 to USART1 (alternate
/// function 7) and enable it at 115200 8N1. Return the UART and the system
/// clock in Hz.
pub fn init() -> (Uart, u32) {
    let hz = start_clock();
    reg_write(RCC_AHB1ENR, reg_read(RCC_AHB1ENR) | 1);
    reg_write(RCC_APB2ENR, reg_read(RCC_APB2ENR) | (1 << 4));
    // Two peripheral clocks before the first access (RM0383 6.3.9).
    cortex_m::asm::delay(4);
    let moder = reg_read(GPIOA + GPIO_MODER) & !(0b1111 << 18);
    reg_write(GPIOA + GPIO_MODER, moder | (0b1010 << 18));
    let afrh = reg_read(GPIOA + GPIO_AFRH) & !(0xFF << 4);
    reg_write(GPIOA + GPIO_AFRH, afrh | (0x77 << 4));
    (Stm32Usart::new(USART1, hz, BAUD, feed_watchdog), hz)
}

/// Start the crystal, lock the PLL at 96 MHz and switch to it, with the
/// flash's wait states raised first; return the system clock in Hz.
fn start_clock() -> u32 {
    let ready = |bit: u32| (0..READY_POLLS).any(|_| reg_read(RCC_CR) & bit != 0);
    reg_write(RCC_CR, reg_read(RCC_CR) | CR_HSEON);
    if !ready(CR_HSERDY) {
        return RESET_HZ;
    }
    let pllcfgr = reg_read(RCC_PLLCFGR) & !PLLCFGR_FIELDS;
    reg_write(RCC_PLLCFGR, pllcfgr | PLLCFGR_96MHZ);
    reg_write(RCC_CR, reg_read(RCC_CR) | CR_PLLON);
    if !ready(CR_PLLRDY) {
        return RESET_HZ;
    }
    reg_write(FLASH_ACR, ACR_96MHZ);
    let cfgr = reg_read(RCC_CFGR) & !(0b11 | (0b111 << 10));
    reg_write(RCC_CFGR, cfgr | CFGR_PPRE1_DIV2 | CFGR_SW_PLL);
    if (0..READY_POLLS).any(|_| reg_read(RCC_CFGR) & CFGR_SWS == CFGR_SWS_PLL) {
        96_000_000
    } else {
        RESET_HZ
    }
}

/// Start the independent watchdog: 32 kHz / 64 counted down from 2,000, a
/// reset about four seconds after the last feed. `hz` is not needed: the
/// watchdog has its own oscillator.
pub fn start_watchdog(_hz: u32) {
    reg_write(IWDG_KR, 0x5555);
    reg_write(IWDG_PR, 4);
    reg_write(IWDG_RLR, 2000);
    reg_write(IWDG_KR, 0xCCCC);
}

/// Feed the watchdog: reload its counter (harmless before it starts).
pub fn feed_watchdog() {
    reg_write(IWDG_KR, 0xAAAA);
}
