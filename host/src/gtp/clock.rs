//! The search budget of a move: from the game's clock (`time_settings`,
//! `time_left`, read by the core's [`TimeControl`]) and the options
//! (`--time`, `--playouts`); and the engine's own CPU time (`cputime`).

use kosumi_core::game::TimeControl;
use kosumi_core::geometry::Color;
use kosumi_core::search::Budget;

use super::options::SearchArgs;
use super::reply::{exactly, Reply};
use super::Engine;

/// Most playouts of a time-limited search.
const MAX_PLAYOUTS: u32 = 50_000_000;

/// Return the budget of the next search for `c` on a board with
/// `empty` points, under `clock`.
pub fn budget(opts: &SearchArgs, clock: &TimeControl, c: Color, empty: usize) -> Budget {
    let tc = clock.budget(c.idx(), empty);
    let secs = match (tc, opts.time, opts.playouts) {
        (Some(t), Some(cap), _) => Some(t.min(cap)),
        (Some(t), None, _) => Some(t),
        (None, Some(t), _) => Some(t),
        (None, None, Some(_)) => None,
        (None, None, None) => Some(1.0),
    };
    match secs {
        Some(s) => Budget {
            early_stop: tc.is_none() || clock.keeps_saved_time(c.idx()),
            ..Budget::time(
                (s.max(0.0) * 1000.0) as u64,
                opts.playouts.unwrap_or(MAX_PLAYOUTS),
            )
        },
        None => Budget::playouts(opts.playouts.unwrap_or(10_000)),
    }
}

/// `cputime`: the CPU seconds the engine has used so far, all its threads,
/// user and system time (GoGui's and `gogui-twogtp`'s extension, which
/// they read before and after a move).
pub fn cputime(_engine: &mut Engine, args: &[String]) -> Reply {
    exactly::<0>(args)?;
    // SAFETY: `rusage` is plain data that `getrusage` fills; the zeroed
    // value is a valid one if it fails.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: a valid pointer to a `rusage` of our own.
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    Ok(format!("{:.3}", cpu_seconds(&usage)))
}

/// Return the CPU seconds, user and system, of a resource-use record
/// (`getrusage`'s here, `wait4`'s in `kosumi match`).
pub fn cpu_seconds(usage: &libc::rusage) -> f64 {
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    secs(usage.ru_utime) + secs(usage.ru_stime)
}
