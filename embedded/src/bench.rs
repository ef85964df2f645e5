//! Benchmark mode (`--features bench`): count guest instructions spent on
//! playouts and report playouts per million instructions.
//!
//! Time is taken from SysTick (`clock`), run from the core clock with a
//! wrap counter. Under `qemu-system-arm -icount
//! shift=0` each guest instruction advances virtual time by one
//! nanosecond, so SysTick ticks are proportional to instructions; the ratio
//! is calibrated at start with a loop of known length (two instructions per
//! iteration), which keeps the figures exact whatever clock QEMU models.

use core::fmt::Write as _;

use kosumi_core::board::Board;
use kosumi_core::playout::{playout, Policy, RuleStats};
use kosumi_core::rng;
use kosumi_core::search::Budget;

use crate::clock::{ticks, wraps};
use crate::engine::Engine;

/// Run `n` iterations of a two-instruction loop.
fn known_loop(n: u32) {
    // SAFETY: a register-only countdown loop; it touches no memory.
    unsafe {
        core::arch::asm!(
            "1:",
            "subs {0}, {0}, #1",
            "bne 1b",
            inout(reg) n => _,
            options(nomem, nostack),
        );
    }
}

/// The empty 9x9 board, built at compile time; `&EMPTY` is promoted to a
/// constant in flash, so the bench holds no board on its stack.
const EMPTY: Board = match Board::new(9) {
    Ok(b) => b,
    Err(_) => panic!("9x9 is supported"),
};

/// Run the benchmark, print its figures to the host's stdout and return.
/// The clock runs (`clock::start`, after the board set the core clock:
/// QEMU derives SysTick's rate from that write), and the loop below
/// calibrates against it.
pub fn run(engine: &mut Engine) {
    let (search, _, _) = engine.parts();

    const CAL: u32 = 4_000_000;
    let t0 = ticks();
    known_loop(CAL);
    let t1 = ticks();
    let insns_per_tick = (2 * CAL) as f64 / (t1 - t0) as f64;

    let mut out = cortex_m_semihosting::hio::hstdout().ok();
    let mut say = |args: core::fmt::Arguments| {
        if let Some(o) = out.as_mut() {
            let _ = o.write_fmt(args);
        }
    };
    say(format_args!(
        "kosumi-firmware bench: {insns_per_tick:.2} guest instructions per SysTick tick ({} ticks for {} loop instructions, wraps {})\n",
        t1 - t0,
        2 * CAL,
        wraps()
    ));
    let empty: &'static Board = &EMPTY;
    for (name, policy, n) in [
        ("light", Policy::Light, 200u32),
        ("waterfall", Policy::waterfall(), 200),
        ("heavy", kosumi_core::gtp::small::PARAMS.policy, 200),
    ] {
        let mut r = rng::seeded(1);
        let mut stats = RuleStats::default();
        let mut moves = 0u64;
        let t0 = ticks();
        // The playouts run on the searcher's scratch board.
        let board = search.scratch_board();
        for _ in 0..n {
            board.copy_from(empty);
            moves += playout(board, policy, 15, &mut r, &mut stats).moves as u64;
        }
        let insns = (ticks() - t0) as f64 * insns_per_tick;
        say(format_args!(
            "bench {name}: {n} playouts, {:.1} moves/playout, {:.0} instructions/playout, {:.2} playouts per million instructions\n",
            moves as f64 / n as f64,
            insns / n as f64,
            n as f64 * 1e6 / insns,
        ));
    }

    // Full searches from the empty board as the firmware's genmove runs
    // them: the engine's search with the tactical reader (the opening
    // book answers `genmove` only, so it does not shorten these).
    for n in [1_400u32, 5_000] {
        engine.parts().0.clear_tree();
        let t0 = ticks();
        let r = engine.analyse(empty, 15, &[], Budget::playouts(n));
        let insns = (ticks() - t0) as f64 * insns_per_tick;
        if let Ok(r) = r {
            say(format_args!(
                "bench search: {} playouts, {:.0} instructions/playout, {:.2} playouts per million instructions, best {} of {} visits, {} nodes in a pool of {}, {} prunes, table {} entries\n",
                r.playouts,
                insns / r.playouts.max(1) as f64,
                r.playouts as f64 * 1e6 / insns,
                r.best.0,
                r.visits,
                r.nodes,
                engine.parts().0.pool().capacity(),
                r.prunes,
                engine.parts().1.table().capacity(),
            ));
        }
    }
}
