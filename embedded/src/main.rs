//! The firmware's binary: power on ([`kosumi_firmware::power_on`]), then
//! serve GTP over the board's UART until `quit` (or, built with the
//! feature `bench`, measure the engine and end).
#![no_std]
#![no_main]

use cortex_m_rt::entry;

use kosumi_firmware::{exit, power_on, stack};

#[entry]
fn main() -> ! {
    let powered = power_on();
    #[cfg(feature = "bench")]
    {
        kosumi_firmware::bench::run(&mut powered.session.player);
        stack::report(stack::high_water());
        exit(true)
    }
    #[cfg(not(feature = "bench"))]
    play(powered)
}

/// Serve GTP until `quit`, report the stack, and end. The watchdog runs:
/// the search feeds it between playouts and the UART while it waits for a
/// command.
#[cfg(not(feature = "bench"))]
fn play(powered: kosumi_firmware::Powered) -> ! {
    use kosumi_core::gtp::Engine as _;
    use kosumi_firmware::{board, gtp};
    let kosumi_firmware::Powered {
        mut serial,
        hz,
        session,
    } = powered;
    board::start_watchdog(hz);
    session.player.new_game();
    let boot = stack::high_water();
    defmt::info!("stack after start-up: {=usize} bytes", boot);
    stack::report_as("boot", boot);
    gtp::serve(&mut serial, session);
    let used = stack::high_water();
    defmt::info!("stack high-water mark: {=usize} bytes", used);
    stack::report(used);
    exit(true)
}
