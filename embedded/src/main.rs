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

use engine::{Engine, Table, Tree};
use kosumi_core::search::{BestMoveTable, Node, Search};
use kosumi_core::table::{BestMoveCluster, Cluster, Table as HashTable, TacticCluster};
use kosumi_core::tactics::Reader;

/// Default playouts per move: what an 80 MHz Cortex-M4 runs in about 2 s.
/// The bench mode measures a full search at about 181,000 guest
/// instructions per playout; at 1.25 cycles per instruction 2 s is 128 M
/// instructions, so about 700 playouts (BENCHMARKS.md has the figures).
const PLAYOUTS: u32 = 700;

/// Nodes of the search tree, sized for the board's RAM.
#[cfg(not(feature = "mps2-an386"))]
const NODES: usize = 336;
#[cfg(feature = "mps2-an386")]
const NODES: usize = 40_000;

/// Clusters of the best-move table (8 entries each).
#[cfg(not(feature = "mps2-an386"))]
const CLUSTERS: usize = 32;
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

/// The node pool, the best-move table, the tactical cache and reader:
/// statics built at compile time, so they are never built on the stack.
static mut NODE_POOL: [Node; NODES] = [Node::EMPTY; NODES];
static mut TABLE_CLUSTERS: [BestMoveCluster; CLUSTERS] = [BestMoveCluster::EMPTY; CLUSTERS];
static mut TACTICS: TacticTable = HashTable::new_static();
static mut READER: TacticReader = Reader::with_journal(None);

#[entry]
fn main() -> ! {
    #[cfg(feature = "mps2-an386")]
    let mut serial = uart::Cmsdk::new(0x4000_4000);
    #[cfg(not(feature = "mps2-an386"))]
    let mut serial = uart::Pl011::new(0x4000_C000);
    defmt::info!("kosumi firmware up");
    // The engine lives in a static (counted in .bss at link time), not on
    // the stack.
    // SAFETY: `main` runs once and no interrupt handler touches these
    // statics, so these are the only references to them.
    let (nodes, clusters, tactics, reader) = unsafe {
        (
            &mut *core::ptr::addr_of_mut!(NODE_POOL),
            &mut *core::ptr::addr_of_mut!(TABLE_CLUSTERS),
            &mut *core::ptr::addr_of_mut!(TACTICS),
            &mut *core::ptr::addr_of_mut!(READER),
        )
    };
    reader.attach(tactics);
    let search: &'static mut Tree = cortex_m::singleton!(: Tree =
        Search::new(&mut nodes[..], engine::params()).unwrap_or_else(|| unreachable!("pool of two or more nodes")))
    .unwrap_or_else(|| unreachable!("main runs once"));
    let table: &'static mut Table = cortex_m::singleton!(: Table =
        BestMoveTable::new(&mut clusters[..]).unwrap_or_else(|_| unreachable!("power-of-two table")))
    .unwrap_or_else(|| unreachable!("main runs once"));
    #[cfg(feature = "bench")]
    {
        let mut core = cortex_m::Peripherals::take().unwrap_or_else(|| unreachable!("taken once"));
        bench::run(&mut core.SYST, search, table, reader);
        debug::exit(debug::EXIT_SUCCESS);
    }
    let engine: &'static mut Engine =
        cortex_m::singleton!(: Engine = Engine::new(PLAYOUTS, search, table))
            .unwrap_or_else(|| unreachable!("main runs once"));
    engine.set_tactics(reader);
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
