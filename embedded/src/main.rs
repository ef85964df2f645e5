//! kosumi firmware: the unchanged `kosumi-core` engine on a Cortex-M,
//! speaking GTP over the board's UART.
//!
//! Memory is all static and known at link time: the engine's board, record
//! and tables are `static`s sized for the board's RAM, the stack is painted
//! at reset and its high-water mark is reported on `quit`, and `flip-link`
//! places the stack below the statics so an overflow faults instead of
//! corrupting them. Panics and HardFaults end a QEMU run with a non-zero
//! exit status through semihosting.
#![no_std]
#![no_main]

#[cfg(feature = "bench")]
mod bench;
mod engine;
mod gtp;
mod log;
mod stack;
mod uart;

use cortex_m_rt::{entry, exception, ExceptionFrame};
use cortex_m_semihosting::debug;

use engine::Engine;

/// Default playouts per move.
const PLAYOUTS: u32 = 2_000;

#[entry]
fn main() -> ! {
    #[cfg(feature = "mps2-an386")]
    let mut serial = uart::Cmsdk::new(0x4000_4000);
    #[cfg(not(feature = "mps2-an386"))]
    let mut serial = uart::Pl011::new(0x4000_C000);
    defmt::info!("kosumi firmware up");
    #[cfg(feature = "bench")]
    {
        let mut core = cortex_m::Peripherals::take().unwrap_or_else(|| unreachable!("taken once"));
        bench::run(&mut core.SYST);
        debug::exit(debug::EXIT_SUCCESS);
    }
    // The engine lives in a static (counted in .bss at link time), not on
    // the stack.
    let engine: &'static mut Engine =
        cortex_m::singleton!(: Engine = Engine::new(PLAYOUTS, 0x6b6f_7375_6d69))
            .unwrap_or_else(|| unreachable!("main runs once"));
    gtp::serve(&mut serial, engine);
    let used = stack::high_water();
    defmt::info!("stack high-water mark: {=usize} bytes", used);
    stack::report(used);
    debug::exit(debug::EXIT_SUCCESS);
    #[allow(clippy::empty_loop)]
    loop {}
}

#[panic_handler]
fn panic(info: &core::panic::PanicInfo) -> ! {
    if let Ok(mut err) = cortex_m_semihosting::hio::hstderr() {
        use core::fmt::Write as _;
        let _ = writeln!(err, "kosumi firmware panic: {info}");
    }
    debug::exit(debug::EXIT_FAILURE);
    #[allow(clippy::empty_loop)]
    loop {}
}

#[exception]
unsafe fn HardFault(frame: &ExceptionFrame) -> ! {
    if let Ok(mut err) = cortex_m_semihosting::hio::hstderr() {
        use core::fmt::Write as _;
        let _ = writeln!(err, "kosumi firmware HardFault at pc {:#010x}", frame.pc());
    }
    debug::exit(debug::EXIT_FAILURE);
    #[allow(clippy::empty_loop)]
    loop {}
}
