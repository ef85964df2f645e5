//! kosumi-wasm: the unchanged `kosumi-core` engine as a WebAssembly module
//! for the browser (`wasm32-unknown-unknown`), speaking GTP to the same
//! core session as the host and the firmware.
//!
//! # Memory
//! As on the firmware, everything is a `static` sized at compile time: the
//! node pool ([`NODES`] nodes of 40 bytes, 20 MiB), the best-move table
//! ([`CLUSTERS`] clusters of 64 bytes, 1 MiB), the tactical reader and its
//! cache ([`TACTIC_CLUSTERS`] clusters of 32 bytes), the move-pattern
//! model ([`MODEL`], in the module's data) with its index
//! ([`PATTERN_SLOTS`] slots of 16 bytes, 4 MiB; its ladders read on the reader's journal), the
//! last-good-reply tables ([`REPLY_ENTRIES`] of 2 bytes), the session (a
//! 19x19 game) and two byte buffers. The module has no allocator and its linear
//! memory never grows: its size is fixed when it is instantiated
//! ([`kosumi_memory_bytes`]).
//!
//! # The interface
//! A small hand-written C ABI (`#[no_mangle] extern "C"` functions over
//! byte buffers in linear memory), not `wasm-bindgen`: it needs no CLI
//! tool or generated JavaScript glue, the module stays small and imports
//! one function only (the clock, `env.kosumi_now_ms`: the page's
//! `performance.now()`), and the page's worker calls it with a few lines of
//! plain JavaScript (`web/worker.js`). Text goes in through the input
//! buffer ([`kosumi_input`], [`kosumi_input_capacity`]) and comes out
//! through the output buffer ([`kosumi_output`]); each call returns the
//! output's length, or a negative error code (errors are values, the
//! module never traps on bad input).
//!
//! | function | what it does |
//! |---|---|
//! | [`kosumi_init`] | seed the engine (the page's seed; games from one seed are the same) and start a new game |
//! | [`kosumi_gtp`] | answer one GTP line (the core's session: `boardsize`, `komi`, `play`, `genmove`, `undo`, `final_score`, `final_status_list`, ...) |
//! | [`kosumi_set_playouts`] | the playouts a `genmove` searches |
//! | [`kosumi_analyze`] | search the position further and answer JSON ([`analysis`]) |
//! | [`kosumi_memory_bytes`] | the linear memory's size |
//!
//! A move's budget is playouts (`kosumi-playouts N`) or, after GTP
//! `time_settings`, the time the core's clock gives it, read from the
//! imported clock between playouts. The module is single-threaded (a Web
//! Worker runs it) and no call re-enters another.
#![no_std]
#![warn(missing_docs)]

pub mod analysis;
pub mod engine;
mod io;

use engine::{Engine, Web};
use kosumi_core::pattern::{Model, Patterns, Slot};
use kosumi_core::playout::Replies;
use kosumi_core::search::Node;
use kosumi_core::table::{BestMoveCluster, Cluster, Table as HashTable, TacticCluster};
use kosumi_core::tactics::Reader;

/// Nodes of the search tree: 2^19 nodes of 40 bytes, 20 MiB (a
/// 10,000-playout search of 19x19 expands far fewer; the pool is pruned
/// when full).
pub const NODES: usize = 1 << 19;

/// Clusters of the best-move table (64 bytes, 8 entries each): 1 MiB.
pub const CLUSTERS: usize = 1 << 14;

/// Clusters of the tactical cache (32 bytes, 3 entries each): 512 KiB.
pub const TACTIC_CLUSTERS: usize = 1 << 14;

/// The move-pattern model built into the module: `models/kgs-6d-2k.kpm`,
/// learned from 2,000 KGS games (14,975 patterns, 38% of expert moves
/// first on the test games; the host's full model is 4.9 MB). Checked at
/// compile time.
pub const MODEL: Model<'static> = match Model::parse(include_bytes!("../../models/kgs-6d-2k.kpm")) {
    Ok(model) => model,
    Err(_) => panic!("models/kgs-6d-2k.kpm is a model of this build's layout"),
};

/// Slots of the model's index (16 bytes each: 4 MiB).
pub const PATTERN_SLOTS: usize = Patterns::slots_for(MODEL.patterns());

/// Entries of the last-good-reply tables (2 bytes each: 1 MiB and 2 KiB).
pub const REPLY_ENTRIES: usize = Replies::<&mut [u16]>::ENTRIES;

// The layout claims above, checked.
const _: () = assert!(NODES * core::mem::size_of::<Node>() == 20 << 20);
const _: () = assert!(CLUSTERS * core::mem::size_of::<BestMoveCluster>() == 1 << 20);
const _: () = assert!(TACTIC_CLUSTERS * core::mem::size_of::<TacticCluster>() == 512 << 10);
const _: () = assert!(PATTERN_SLOTS * core::mem::size_of::<Slot>() == 4 << 20);
const _: () = assert!(REPLY_ENTRIES * 2 == (1 << 20) + (2 << 10));

/// Bytes of the input buffer: the longest GTP line.
pub const INPUT: usize = 4096;

/// Bytes of the output buffer: an answer or an analysis (a 19x19 one is
/// under 5 KB).
pub const OUTPUT: usize = 64 * 1024;

/// The output buffer was too small for the answer.
pub const ERR_FULL: i32 = -1;
/// The line was longer than the input buffer.
pub const ERR_INPUT: i32 = -2;
/// The search could not run.
pub const ERR_SEARCH: i32 = -3;
/// A bad argument.
pub const ERR_ARGUMENT: i32 = -4;

type TacticTable = HashTable<TacticCluster, [TacticCluster; TACTIC_CLUSTERS]>;
type TacticReader = Reader<'static, [TacticCluster; TACTIC_CLUSTERS]>;

/// The node pool, the best-move table, the tactical cache and its reader,
/// the two buffers: statics built at compile time (the zeroed ones need no
/// bytes in the module).
static mut NODE_POOL: [Node; NODES] = [Node::EMPTY; NODES];
static mut TABLE_CLUSTERS: [BestMoveCluster; CLUSTERS] = [BestMoveCluster::EMPTY; CLUSTERS];
static mut TACTICS: TacticTable = HashTable::new_static();
static mut READER: TacticReader = Reader::with_journal(None);
static mut PATTERN_INDEX: [Slot; PATTERN_SLOTS] = [Slot::EMPTY; PATTERN_SLOTS];
static mut PATTERNS: Option<Patterns<'static>> = None;
static mut REPLY_TABLE: [u16; REPLY_ENTRIES] = [0; REPLY_ENTRIES];
static mut REPLIES: Option<Replies<&'static mut [u16]>> = None;
static mut INPUT_BUFFER: [u8; INPUT] = [0; INPUT];
static mut OUTPUT_BUFFER: [u8; OUTPUT] = [0; OUTPUT];
/// Whether the reader is attached to its cache and the engine.
static mut READY: bool = false;

/// The GTP session and its engine, built at compile time over the pool
/// and the table.
// SAFETY: only the addresses of the two statics are taken here, and the
// engine holds the only references to them (nothing else names them).
static mut SESSION: Web = engine::session(Engine::new(
    engine::SETUP_ENGINE,
    unsafe { &mut *core::ptr::addr_of_mut!(NODE_POOL) },
    unsafe { &mut *core::ptr::addr_of_mut!(TABLE_CLUSTERS) },
));

/// What an exported function works on.
struct Module {
    session: &'static mut Web,
    input: &'static mut [u8; INPUT],
    output: &'static mut [u8; OUTPUT],
}

/// Return the module's session and buffers, lending the engine the
/// tactical reader, the model, the reply tables and the clock on first
/// use.
fn module() -> Module {
    // SAFETY: the module is single-threaded, its one import (the clock)
    // does not call back into it, and its exported functions never call
    // one another: each takes these references once, for the length of
    // its call, and nothing else names these statics.
    let (session, input, output, ready) = unsafe {
        (
            &mut *core::ptr::addr_of_mut!(SESSION),
            &mut *core::ptr::addr_of_mut!(INPUT_BUFFER),
            &mut *core::ptr::addr_of_mut!(OUTPUT_BUFFER),
            &mut *core::ptr::addr_of_mut!(READY),
        )
    };
    if !*ready {
        // SAFETY: as above; this runs once, and from then on the reader
        // holds the only reference to the cache, the model the only one to
        // its index, the reply tables the only one to theirs, and the
        // engine the only ones to the rest.
        let (tactics, reader, index, patterns, table, replies) = unsafe {
            (
                &mut *core::ptr::addr_of_mut!(TACTICS),
                &mut *core::ptr::addr_of_mut!(READER),
                &mut *core::ptr::addr_of_mut!(PATTERN_INDEX),
                &mut *core::ptr::addr_of_mut!(PATTERNS),
                &mut *core::ptr::addr_of_mut!(REPLY_TABLE),
                &mut *core::ptr::addr_of_mut!(REPLIES),
            )
        };
        reader.attach(tactics);
        session.player.set_tactics(reader);
        // The index and the reply tables fit by the checks above: the
        // hand-made priors and plain playouts only if they did not.
        if let Ok(p) = Patterns::build(MODEL, index) {
            // Ladders are read on the reader's journal, free between its
            // reads and as large as a ladder's own.
            session.player.set_patterns(patterns.insert(p), None);
        }
        if let Ok(r) = Replies::new(&mut table[..]) {
            session.player.set_replies(replies.insert(r));
        }
        session.player.set_clock(now_ms);
        *ready = true;
    }
    Module {
        session,
        input,
        output,
    }
}

#[cfg(target_arch = "wasm32")]
#[link(wasm_import_module = "env")]
extern "C" {
    /// The page's clock in milliseconds (`performance.now()`).
    fn kosumi_now_ms() -> f64;
}

/// Return the page's clock in whole milliseconds (0 off the browser, where
/// the module is only type-checked).
fn now_ms() -> u64 {
    #[cfg(target_arch = "wasm32")]
    {
        // SAFETY: the import takes nothing and returns a number; the
        // worker passes `performance.now`.
        unsafe { kosumi_now_ms() as u64 }
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        0
    }
}

/// Seed the engine with `seed_hi << 32 | seed_lo` (games from the same
/// seed are the same) and forget the tree: a new game's search starts.
#[no_mangle]
pub extern "C" fn kosumi_init(seed_hi: u32, seed_lo: u32) {
    module()
        .session
        .player
        .set_seed(u64::from(seed_hi) << 32 | u64::from(seed_lo));
}

/// Return the address of the input buffer.
#[no_mangle]
pub extern "C" fn kosumi_input() -> *mut u8 {
    module().input.as_mut_ptr()
}

/// Return the size of the input buffer in bytes.
#[no_mangle]
pub extern "C" fn kosumi_input_capacity() -> u32 {
    INPUT as u32
}

/// Return the address of the output buffer.
#[no_mangle]
pub extern "C" fn kosumi_output() -> *const u8 {
    module().output.as_ptr()
}

/// Answer the GTP line in the first `len` bytes of the input buffer: write
/// the answer (`= ...` or `? ...`, with its blank line) to the output
/// buffer and return its length; [`ERR_INPUT`] for a line longer than the
/// buffer, [`ERR_FULL`] for an answer longer than the output buffer.
#[no_mangle]
pub extern "C" fn kosumi_gtp(len: u32) -> i32 {
    let m = module();
    let len = len as usize;
    let Some(line) = m.input.get_mut(..len) else {
        return ERR_INPUT;
    };
    let mut out = io::Cursor::new(m.output);
    let answered = m
        .session
        .answer_line(line, &mut out, |s, req, _| s.player.command(req))
        .is_ok();
    out.result(answered)
}

/// Set the playouts a `genmove` searches; return 0, or [`ERR_ARGUMENT`]
/// for 0.
#[no_mangle]
pub extern "C" fn kosumi_set_playouts(playouts: u32) -> i32 {
    match module().session.player.set_playouts(playouts) {
        Ok(()) => 0,
        Err(_) => ERR_ARGUMENT,
    }
}

/// Search the current position for its side to move with `playouts` more
/// playouts (the tree is kept between calls on the same position) and
/// write the analysis as JSON ([`analysis`]) to the output buffer; return
/// its length, [`ERR_SEARCH`] or [`ERR_FULL`].
#[no_mangle]
pub extern "C" fn kosumi_analyze(playouts: u32) -> i32 {
    let m = module();
    let mut out = io::Cursor::new(m.output);
    match analysis::analyse(m.session, playouts, &mut out) {
        Ok(()) => out.result(true),
        Err(analysis::AnalysisError::Full) => ERR_FULL,
        Err(analysis::AnalysisError::Search(_)) => ERR_SEARCH,
    }
}

/// Return the size of the module's linear memory in bytes: fixed at
/// instantiation (the statics and the stack), it never grows.
#[no_mangle]
pub extern "C" fn kosumi_memory_bytes() -> u32 {
    #[cfg(target_arch = "wasm32")]
    {
        (core::arch::wasm32::memory_size(0) * 65536) as u32
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        0
    }
}

/// A panic cannot happen on any input (every error is a value); should one
/// happen, the module traps and the page reports it.
#[cfg(target_arch = "wasm32")]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    core::arch::wasm32::unreachable()
}
