//! Time from SysTick: the core clock counted down in 24-bit periods, the
//! periods counted by the SysTick interrupt (a critical section rather than
//! an atomic add, which thumbv6m lacks). QEMU's DWT cycle counter reads 0,
//! so SysTick serves the bench and the GTP clock alike.

use core::cell::Cell;

use cortex_m::peripheral::syst::SystClkSource;
use cortex_m::peripheral::{SCB, SYST};
use cortex_m_rt::exception;

/// SysTick periods since [`start`].
static WRAPS: critical_section::Mutex<Cell<u32>> = critical_section::Mutex::new(Cell::new(0));
/// The core clock in Hz, as the board set it.
static HZ: critical_section::Mutex<Cell<u32>> = critical_section::Mutex::new(Cell::new(1));

/// SysTick's reload value: the longest period.
pub const RELOAD: u32 = 0x00FF_FFFF;

#[exception]
fn SysTick() {
    critical_section::with(|cs| {
        let w = WRAPS.borrow(cs);
        w.set(w.get().wrapping_add(1));
    });
}

/// Start counting the core clock's ticks, which run at `hz`.
pub fn start(syst: &mut SYST, hz: u32) {
    critical_section::with(|cs| HZ.borrow(cs).set(hz.max(1000)));
    syst.set_clock_source(SystClkSource::Core);
    syst.set_reload(RELOAD);
    syst.clear_current();
    syst.enable_interrupt();
    syst.enable_counter();
    // The first tick reloads the cleared counter without counting a wrap:
    // let it pass before the clock is read.
    while SYST::get_current() == 0 {}
}

/// Return the SysTick periods so far.
pub fn wraps() -> u32 {
    critical_section::with(|cs| WRAPS.borrow(cs).get())
}

/// Return the core clock's ticks since [`start`].
pub fn ticks() -> u64 {
    const PERIOD: u64 = RELOAD as u64 + 1;
    critical_section::with(|cs| {
        let mut w = u64::from(WRAPS.borrow(cs).get());
        let mut v = SYST::get_current();
        // Interrupts are off: a wrap the handler has not counted yet shows
        // as a pending SysTick exception, and the count read again after
        // that is past the wrap. (Reading the count between two reads of
        // the wraps missed this: a wrap pending but not yet taken put the
        // clock a period back, which the on-target test caught under QEMU.)
        if SCB::is_pendst_pending() {
            w += 1;
            v = SYST::get_current();
        }
        w * PERIOD + u64::from(RELOAD - v)
    })
}

/// Return the milliseconds since [`start`].
pub fn now_ms() -> u64 {
    let hz = critical_section::with(|cs| HZ.borrow(cs).get());
    ticks() / u64::from(hz / 1000)
}
