//! kosumi firmware: the unchanged `kosumi-core` engine on a Cortex-M,
//! speaking GTP over the board's UART.
//!
//! Memory is all static and known at link time: the engine's board, record
//! and tables are `static`s sized for the board's RAM, the stack is painted
//! at reset and its high-water mark is reported on `quit`, and `flip-link`
//! places the stack below the statics so an overflow faults instead of
//! corrupting them. The board (`board`, one Cargo feature) sets up its
//! clocks and UART and sizes the engine.
//!
//! The library holds the firmware's parts and its power-on ([`power_on`]);
//! the binary (`main.rs`) serves GTP with them, and the on-target tests
//! (`tests/on_target.rs`, `defmt-test` under QEMU) check them where they
//! run.
//!
//! Under QEMU (feature `semihosting`, on by default) panics and HardFaults
//! end the run with a non-zero exit status and the stack report goes to
//! the host. On hardware (feature `rtt`, no semihosting: a board without a
//! debugger would fault on the first semihosting call) logs go over RTT,
//! panics through `panic-probe`, and a HardFault resets the chip.
#![no_std]
// The bench build measures the engine and serves no GTP.
#![cfg_attr(feature = "bench", allow(dead_code))]

#[cfg(feature = "bench")]
pub mod bench;
pub mod board;
pub mod clock;
pub mod engine;
pub mod gtp;
mod log;
pub mod stack;
pub mod uart;

#[cfg(all(feature = "semihosting", feature = "rtt"))]
compile_error!("choose one of the features semihosting (QEMU) and rtt (hardware)");
#[cfg(not(any(feature = "semihosting", feature = "rtt")))]
compile_error!("choose the feature semihosting (QEMU) or rtt (hardware)");

use cortex_m_rt::{exception, ExceptionFrame};

use board::{CLUSTERS, NODES, TACTIC_CLUSTERS};
use engine::Firmware;
use kosumi_core::game::Book;
// The tactical reader's journal: the small engine's, enough for its reads
// and a ladder across the board (a line that does not fit is left unproven).
use kosumi_core::gtp::small::{JOURNAL_MOVES, JOURNAL_WRITES};
use kosumi_core::search::Node;
use kosumi_core::table::{BestMoveCluster, Cluster, Table as HashTable, TacticCluster};
use kosumi_core::tactics::Reader;

/// Default playouts per move: what an 80 MHz Cortex-M4 runs in about 2 s.
/// The bench mode measures a full search with the heavy playouts at about
/// 248,000 guest instructions per playout (302,000 with the `patterns`
/// feature's model, progressive widening and capped children); at 1.25
/// cycles per instruction 2 s is 128 M instructions, so about 520
/// playouts (420) (BENCHMARKS.md has the figures).
pub const PLAYOUTS: u32 = if cfg!(feature = "patterns") { 420 } else { 520 };

/// The tactical cache: the one global table, never flushed.
pub type TacticTable = HashTable<TacticCluster, [TacticCluster; TACTIC_CLUSTERS]>;
/// The tactical reader over it.
type TacticReader =
    Reader<'static, [TacticCluster; TACTIC_CLUSTERS], JOURNAL_WRITES, JOURNAL_MOVES>;

/// The node pool, the best-move table, the tactical cache and its reader:
/// statics of zero bytes, in `.bss` with no image in flash (the cache is
/// set up by [`power_on`]).
static mut NODE_POOL: [Node; NODES] = [Node::EMPTY; NODES];
static mut TABLE_CLUSTERS: [BestMoveCluster; CLUSTERS] = [BestMoveCluster::EMPTY; CLUSTERS];
// SAFETY: zero bytes are a valid table (the compiler checks it, as for
// `SESSION` below); `power_on` resets it before use.
static mut TACTICS: TacticTable = unsafe { core::mem::zeroed() };
static mut READER: TacticReader = Reader::with_journal(None);
/// The opening book in flash (`book/9x9.kob`, made on the host by
/// `kosumi book`: deep searches of the first three moves), checked whole
/// when the firmware is compiled; `genmove` plays from it before it
/// searches.
pub static BOOK: Book<'static> = match Book::parse(include_bytes!("../book/9x9.kob")) {
    Ok(book) => book,
    Err(_) => panic!("book/9x9.kob is not an opening book this build reads"),
};

/// With the `patterns` feature, the move-pattern model's compact table in
/// flash (`patterns/kgs-6d-flash.kpc`, made on the host by `kosumi
/// patterns compact` from `models/kgs-6d-flash.kpm`), checked whole when
/// the firmware is compiled and read in place: the search's priors and
/// the playouts' ladder rules, its ladders read on the tactical reader's
/// journal (it needs no RAM of its own).
#[cfg(feature = "patterns")]
pub static PATTERNS: kosumi_core::pattern::Patterns<'static> = {
    use kosumi_core::pattern::{Compact, Patterns};
    match Compact::parse(include_bytes!("../patterns/kgs-6d-flash.kpc")) {
        Ok(table) => Patterns::compact(table),
        Err(_) => panic!("patterns/kgs-6d-flash.kpc is not a pattern table this build reads"),
    }
};

/// The GTP session and its engine: zero bytes, in `.bss` with no image
/// in flash (its boards, record and searcher are 15.6 KB), set up in place
/// by [`power_on`] (`engine::start`), so start-up puts nothing on the stack.
// SAFETY: zero bytes are a valid session: the compiler checks a
// `static`'s value when it builds it, and refuses a null reference, an
// enum's invalid tag or a bool other than 0 or 1 anywhere in it (the
// engine's storage is `Lent`, which may be absent). What the zeros mean is
// not relied on: `power_on` sets up every part before use.
static mut SESSION: Firmware = unsafe { core::mem::zeroed() };

/// What [`power_on`] hands over: the board's GTP serial port, its core
/// clock in Hz, and the GTP session over the firmware's statics.
pub struct Powered {
    pub serial: board::Uart,
    pub hz: u32,
    pub session: &'static mut Firmware,
}

/// Set up the board (clocks, UART), the clock, and the GTP session with
/// its engine over the static pool, table, tactical cache and book, at
/// [`PLAYOUTS`] a move. Call it once, at reset: a second call panics.
pub fn power_on() -> Powered {
    // The core peripherals are handed out once: this is what makes a
    // second call panic, before anything is touched.
    let mut core = cortex_m::Peripherals::take().expect("power_on runs once");
    let (serial, hz) = board::init();
    clock::start(&mut core.SYST, hz);
    defmt::info!("kosumi firmware up, clock {=u32} Hz", hz);
    // SAFETY: `power_on` runs once (the peripherals above) and no interrupt
    // handler touches `SESSION`, so this is the only reference to it.
    let session: &'static mut Firmware = unsafe { &mut *core::ptr::addr_of_mut!(SESSION) };
    // Hide the session's address from the optimiser: with it known, LLVM
    // turns every board and node access in the search into an absolute
    // address built in two instructions, which costs 4% (light playouts
    // 12%) of guest instructions under QEMU.
    let session = core::hint::black_box(session);
    // SAFETY: as for `SESSION`: this runs once, nothing else names these
    // four statics, and the references go to the engine for good.
    let (nodes, clusters, tactics, reader) = unsafe {
        (
            &mut *core::ptr::addr_of_mut!(NODE_POOL),
            &mut *core::ptr::addr_of_mut!(TABLE_CLUSTERS),
            &mut *core::ptr::addr_of_mut!(TACTICS),
            &mut *core::ptr::addr_of_mut!(READER),
        )
    };
    engine::start(session, PLAYOUTS, nodes, clusters);
    let engine = &mut session.player;
    tactics.reset();
    reader.attach(tactics);
    engine.set_tactics(reader);
    engine.set_book(&BOOK);
    #[cfg(feature = "patterns")]
    engine.set_patterns(&PATTERNS, None);
    engine.set_clock(fed_now_ms);
    Powered {
        serial,
        hz,
        session,
    }
}

/// The search's clock, read between playouts: it feeds the watchdog.
fn fed_now_ms() -> u64 {
    board::feed_watchdog();
    clock::now_ms()
}

/// End the run: under QEMU with the exit status `success` gives; on
/// hardware (GTP `quit`) reset the chip, ready for the next game.
pub fn exit(success: bool) -> ! {
    #[cfg(feature = "semihosting")]
    {
        use cortex_m_semihosting::debug;
        debug::exit(if success {
            debug::EXIT_SUCCESS
        } else {
            debug::EXIT_FAILURE
        });
        #[allow(clippy::empty_loop)]
        loop {}
    }
    #[cfg(not(feature = "semihosting"))]
    {
        let _ = success;
        cortex_m::peripheral::SCB::sys_reset()
    }
}

#[cfg(feature = "semihosting")]
#[panic_handler]
fn panic(info: &core::panic::PanicInfo) -> ! {
    if let Ok(mut err) = cortex_m_semihosting::hio::hstderr() {
        use core::fmt::Write as _;
        let _ = writeln!(err, "kosumi firmware panic: {info}");
    }
    exit(false)
}

/// On hardware a panic is logged over RTT by `panic-probe`, which then
/// faults: the HardFault below resets the chip.
#[cfg(feature = "rtt")]
use panic_probe as _;

#[exception]
unsafe fn HardFault(frame: &ExceptionFrame) -> ! {
    #[cfg(feature = "semihosting")]
    if let Ok(mut err) = cortex_m_semihosting::hio::hstderr() {
        use core::fmt::Write as _;
        let _ = writeln!(err, "kosumi firmware HardFault at pc {:#010x}", frame.pc());
    }
    #[cfg(not(feature = "semihosting"))]
    defmt::error!("kosumi firmware HardFault at pc {=u32:#010x}", frame.pc());
    exit(false)
}
