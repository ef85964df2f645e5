//! Polled UART drivers: the PL011 of the LM3S6965, the CMSDK APB UART of
//! the MPS2 boards and the USART of the STM32F4. All are byte pipes with
//! blocking `read`/`write`; QEMU connects the first two to `-serial stdio`.

use core::ptr::{read_volatile, write_volatile};

/// A byte-at-a-time serial port.
pub trait Serial {
    /// Block until a byte arrives and return it.
    fn read(&mut self) -> u8;
    /// Block until there is room and send a byte.
    fn write(&mut self, byte: u8);
    /// Return how many times `read` has found no byte waiting (wrapping):
    /// it depends on when the host's bytes arrive, so it seeds what should
    /// differ from one game to the next.
    fn idle_polls(&self) -> u32;
}

/// Read a 32-bit device register.
pub fn reg_read(addr: usize) -> u32 {
    // SAFETY: `addr` is a register of the board's peripherals (a fixed,
    // aligned, always-mapped MMIO address given by the board's datasheet).
    unsafe { read_volatile(addr as *const u32) }
}

/// Write a 32-bit device register.
pub fn reg_write(addr: usize, value: u32) {
    // SAFETY: as in `reg_read`.
    unsafe { write_volatile(addr as *mut u32, value) }
}

/// ARM PL011 (LM3S6965 UART0 at `0x4000_C000`, RP2040 UART0 at
/// `0x4003_4000`), polled.
#[cfg_attr(not(any(feature = "lm3s6965", feature = "rp2040")), allow(dead_code))]
pub struct Pl011 {
    base: usize,
    idle: u32,
    /// Called while `read` waits (the board feeds its watchdog).
    on_idle: fn(),
}

#[cfg_attr(not(any(feature = "lm3s6965", feature = "rp2040")), allow(dead_code))]
impl Pl011 {
    const DR: usize = 0x00;
    const FR: usize = 0x18;
    const IBRD: usize = 0x24;
    const FBRD: usize = 0x28;
    const LCRH: usize = 0x2C;
    const CR: usize = 0x30;
    const FR_RXFE: u32 = 1 << 4;
    /// Line control: 8 bits, FIFOs off. A GTP controller sends one command
    /// and waits for its answer, and QEMU drops the byte it holds when the
    /// FIFO is switched on, which lost a host's first byte at power-on.
    const LINE: u32 = 0b11 << 5;
    const FR_TXFF: u32 = 1 << 5;

    /// Set the UART at `base`, clocked at `hz` (its clock gate open), up for
    /// `baud` 8N1, and return it; `on_idle` runs while `read` waits.
    pub fn new(base: usize, hz: u32, baud: u32, on_idle: fn()) -> Pl011 {
        reg_write(base + Self::CR, 0);
        let (integer, fraction) = Self::divisor(hz, baud);
        reg_write(base + Self::IBRD, integer);
        reg_write(base + Self::FBRD, fraction);
        reg_write(base + Self::LCRH, Self::LINE);
        reg_write(base + Self::CR, (1 << 9) | (1 << 8) | 1); // RXE, TXE, UARTEN
        Pl011 {
            base,
            idle: 0,
            on_idle,
        }
    }

    /// Set the divisor for `baud` from a clock of `hz` (after the clock
    /// changed), keeping the line settings: the UART is disabled while the
    /// divisor is written and latched by a write of the line control.
    #[cfg_attr(not(feature = "lm3s6965"), allow(dead_code))]
    pub fn set_baud(&mut self, hz: u32, baud: u32) {
        let cr = reg_read(self.base + Self::CR);
        reg_write(self.base + Self::CR, 0);
        let (integer, fraction) = Self::divisor(hz, baud);
        reg_write(self.base + Self::IBRD, integer);
        reg_write(self.base + Self::FBRD, fraction);
        reg_write(self.base + Self::LCRH, Self::LINE);
        reg_write(self.base + Self::CR, cr);
    }

    /// Return the baud rate divisor `hz / (16 baud)` as its integer part and
    /// its fraction in 64ths, rounded (50 MHz, 115200: 27 and 8).
    pub const fn divisor(hz: u32, baud: u32) -> (u32, u32) {
        let sixty_fourths = (4 * hz as u64 + baud as u64 / 2) / baud as u64;
        ((sixty_fourths >> 6) as u32, (sixty_fourths & 63) as u32)
    }
}

// The divisors of the datasheets' tables.
static_assertions::const_assert!(Pl011::divisor(50_000_000, 115_200).0 == 27);
static_assertions::const_assert!(Pl011::divisor(50_000_000, 115_200).1 == 8);
static_assertions::const_assert!(Pl011::divisor(8_000_000, 115_200).0 == 4);
static_assertions::const_assert!(Pl011::divisor(8_000_000, 115_200).1 == 22);

impl Serial for Pl011 {
    fn read(&mut self) -> u8 {
        while reg_read(self.base + Self::FR) & Self::FR_RXFE != 0 {
            self.idle = self.idle.wrapping_add(1);
            (self.on_idle)();
        }
        reg_read(self.base + Self::DR) as u8
    }

    fn idle_polls(&self) -> u32 {
        self.idle
    }

    fn write(&mut self, byte: u8) {
        while reg_read(self.base + Self::FR) & Self::FR_TXFF != 0 {}
        reg_write(self.base + Self::DR, byte as u32);
    }
}

/// Arm CMSDK APB UART (MPS2 UART0 at `0x4000_4000`), polled.
#[cfg_attr(not(feature = "mps2-an386"), allow(dead_code))]
pub struct Cmsdk {
    base: usize,
    idle: u32,
    /// Called while `read` waits (the board feeds its watchdog).
    on_idle: fn(),
}

#[cfg_attr(not(feature = "mps2-an386"), allow(dead_code))]
impl Cmsdk {
    const DATA: usize = 0x00;
    const STATE: usize = 0x04;
    const CTRL: usize = 0x08;
    const BAUDDIV: usize = 0x10;

    /// Enable the UART at `base` for transmit and receive with the clock
    /// divided by `bauddiv` (at least 16), and return it; `on_idle` runs
    /// while `read` waits.
    pub fn new(base: usize, bauddiv: u32, on_idle: fn()) -> Cmsdk {
        reg_write(base + Self::BAUDDIV, bauddiv.max(16));
        reg_write(base + Self::CTRL, 0b11);
        Cmsdk {
            base,
            idle: 0,
            on_idle,
        }
    }
}

impl Serial for Cmsdk {
    fn read(&mut self) -> u8 {
        while reg_read(self.base + Self::STATE) & 0b10 == 0 {
            self.idle = self.idle.wrapping_add(1);
            (self.on_idle)();
        }
        reg_read(self.base + Self::DATA) as u8
    }

    fn idle_polls(&self) -> u32 {
        self.idle
    }

    fn write(&mut self, byte: u8) {
        while reg_read(self.base + Self::STATE) & 0b01 != 0 {}
        reg_write(self.base + Self::DATA, byte as u32);
    }
}

/// STM32F4 USART (USART1 at `0x4001_1000`), polled, 8N1.
#[cfg_attr(not(feature = "stm32f411"), allow(dead_code))]
pub struct Stm32Usart {
    base: usize,
    idle: u32,
    /// Called while `read` waits (the board feeds its watchdog).
    on_idle: fn(),
}

#[cfg_attr(not(feature = "stm32f411"), allow(dead_code))]
impl Stm32Usart {
    const SR: usize = 0x00;
    const DR: usize = 0x04;
    const BRR: usize = 0x08;
    const CR1: usize = 0x0C;
    const SR_RXNE: u32 = 1 << 5;
    const SR_TXE: u32 = 1 << 7;
    /// CR1: USART, transmitter and receiver enabled.
    const CR1_ON: u32 = (1 << 13) | (1 << 3) | (1 << 2);

    /// Enable the USART at `base`, clocked at `hz` (its clock gate open),
    /// for `baud` 8N1, and return it; `on_idle` runs while `read` waits.
    pub fn new(base: usize, hz: u32, baud: u32, on_idle: fn()) -> Stm32Usart {
        reg_write(base + Self::BRR, Self::divisor(hz, baud));
        reg_write(base + Self::CR1, Self::CR1_ON);
        Stm32Usart {
            base,
            idle: 0,
            on_idle,
        }
    }

    /// Return BRR for `baud` from `hz` with 16x oversampling: the divisor
    /// `hz / (16 baud)` in 16ths, rounded (96 MHz, 115200: 833 = 52 + 1/16).
    pub const fn divisor(hz: u32, baud: u32) -> u32 {
        (hz + baud / 2) / baud
    }
}

// RM0383's table 73: 115200 baud from 96 MHz is USARTDIV 52.0625.
static_assertions::const_assert!(Stm32Usart::divisor(96_000_000, 115_200) == (52 << 4) | 1);
static_assertions::const_assert!(Stm32Usart::divisor(16_000_000, 115_200) == (8 << 4) | 11);

impl Serial for Stm32Usart {
    fn read(&mut self) -> u8 {
        while reg_read(self.base + Self::SR) & Self::SR_RXNE == 0 {
            self.idle = self.idle.wrapping_add(1);
            (self.on_idle)();
        }
        reg_read(self.base + Self::DR) as u8
    }

    fn idle_polls(&self) -> u32 {
        self.idle
    }

    fn write(&mut self, byte: u8) {
        while reg_read(self.base + Self::SR) & Self::SR_TXE == 0 {}
        reg_write(self.base + Self::DR, byte as u32);
    }
}

/// `core::fmt::Write` over a serial port, so diagrams can be `write!`n.
pub struct Writer<'a, S: Serial>(pub &'a mut S);

impl<S: Serial> core::fmt::Write for Writer<'_, S> {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        for b in s.bytes() {
            self.0.write(b);
        }
        Ok(())
    }
}
