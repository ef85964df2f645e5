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
use kosumi_core::search::Node;
use kosumi_core::table::{BestMoveCluster, Cluster, Table as HashTable, TacticCluster};
use kosumi_core::tactics::Reader;

/// Default playouts per move: what an 80 MHz Cortex-M4 runs in about 2 s.
/// The bench mode measures a full search at about 181,000 guest
/// instructions per playout; at 1.25 cycles per instruction 2 s is 128 M
/// instructions, so about 700 playouts (BENCHMARKS.md has the figures).
const PLAYOUTS: u32 = 700;

/// Nodes of the search tree, sized for the board's RAM. On the
/// lm3s6965evb (64 KiB): 640 nodes of 40 bytes (25,600 bytes), the 4 KiB
/// best-move table, the tactical cache and reader (about 5 KiB) and about
/// 15 KiB of engine statics make 50.3 KB of statics; with the stack's
/// measured peak near 4.7 KB (tactical reads included) that leaves over
/// 10 KiB spare of the 64 KiB (the issue asks for 8; BENCHMARKS.md).
#[cfg(not(feature = "mps2-an386"))]
const NODES: usize = 640;
#[cfg(feature = "mps2-an386")]
const NODES: usize = 40_000;

/// Clusters of the best-move table (64 bytes, 8 entries each; a power of
/// two): 512 entries, 4 KiB, on the lm3s6965evb.
#[cfg(not(feature = "mps2-an386"))]
const CLUSTERS: usize = 64;
#[cfg(feature = "mps2-an386")]
const CLUSTERS: usize = 4096;

/// Clusters of the tactical cache (3 entries each, 32 bytes).
#[cfg(not(feature = "mps2-an386"))]
const TACTIC_CLUSTERS: usize = 16;
#[cfg(feature = "mps2-an386")]
const TACTIC_CLUSTERS: usize = 4096;

/// Slot writes and plies of the tactical reader's undo journal: enough for
/// a read of `engine::READ_DEPTH` plies (a line that does not fit is left
/// unproven).
const JOURNAL_WRITES: usize = 192;
const JOURNAL_MOVES: usize = engine::READ_DEPTH as usize + 4;

/// The tactical cache: the one global table, never flushed.
type TacticTable = HashTable<TacticCluster, [TacticCluster; TACTIC_CLUSTERS]>;
/// The tactical reader over it.
type TacticReader =
    Reader<'static, [TacticCluster; TACTIC_CLUSTERS], JOURNAL_WRITES, JOURNAL_MOVES>;

/// The node pool, the best-move table, the tactical cache and its reader:
/// statics built at compile time (the zeroed ones in `.bss`).
static mut NODE_POOL: [Node; NODES] = [Node::EMPTY; NODES];
static mut TABLE_CLUSTERS: [BestMoveCluster; CLUSTERS] = [BestMoveCluster::EMPTY; CLUSTERS];
static mut TACTICS: TacticTable = HashTable::new_static();
static mut READER: TacticReader = Reader::with_journal(None);

/// The engine, built at compile time over the pool and the table (its
/// boards and record are in `.data`): start-up puts nothing on the stack.
// SAFETY: only the addresses of the two statics are taken here, and the
// engine holds the only references to them (nothing else names them).
static mut ENGINE: Engine = Engine::new(
    PLAYOUTS,
    unsafe { &mut *core::ptr::addr_of_mut!(NODE_POOL) },
    unsafe { &mut *core::ptr::addr_of_mut!(TABLE_CLUSTERS) },
);

#[entry]
fn main() -> ! {
    #[cfg(feature = "mps2-an386")]
    let mut serial = uart::Cmsdk::new(0x4000_4000);
    #[cfg(not(feature = "mps2-an386"))]
    let mut serial = uart::Pl011::new(0x4000_C000);
    defmt::info!("kosumi firmware up");
    // SAFETY: `main` runs once and no interrupt handler touches `ENGINE`,
    // so this is the only reference to it.
    let engine: &'static mut Engine = unsafe { &mut *core::ptr::addr_of_mut!(ENGINE) };
    // Hide the engine's address from the optimiser: with it known, LLVM
    // turns every board and node access in the search into an absolute
    // address built in two instructions, which costs 4% (light playouts
    // 12%) of guest instructions under QEMU.
    let engine = core::hint::black_box(engine);
    // SAFETY: as for `ENGINE`: `main` runs once, nothing else names these
    // two statics, and the references go to the engine for good.
    let (tactics, reader) = unsafe {
        (
            &mut *core::ptr::addr_of_mut!(TACTICS),
            &mut *core::ptr::addr_of_mut!(READER),
        )
    };
    reader.attach(tactics);
    engine.set_tactics(reader);
    #[cfg(feature = "bench")]
    {
        let mut core = cortex_m::Peripherals::take().unwrap_or_else(|| unreachable!("taken once"));
        bench::run(&mut core.SYST, engine);
        stack::report(stack::high_water());
        debug::exit(debug::EXIT_SUCCESS);
    }
    engine.clear(0);
    let boot = stack::high_water();
    defmt::info!("stack after start-up: {=usize} bytes", boot);
    stack::report_as("boot", boot);
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
