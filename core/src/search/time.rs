//! Budgets: how long a search may run. The core has no clock; the caller
//! passes one through the [`Clock`] trait (the host reads
//! `std::time::Instant`, firmware a hardware timer, tests nothing).

/// A source of elapsed time, supplied by the caller. A search reads it
/// every `CLOCK_EVERY` (64) playouts whatever its budget, so it is also the
/// caller's hook between playouts (the firmware feeds its watchdog there).
pub trait Clock {
    /// Return the milliseconds elapsed since the search started.
    fn elapsed_ms(&mut self) -> u64;

    /// Query whether the caller asks the search to stop now, whatever its
    /// budget (a GUI's interrupt, a command waiting); read with the time.
    fn interrupted(&mut self) -> bool {
        false
    }
}

/// A clock that never advances: searches bounded by playouts only.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoClock;

impl Clock for NoClock {
    fn elapsed_ms(&mut self) -> u64 {
        0
    }
}

impl<F: FnMut() -> u64> Clock for F {
    fn elapsed_ms(&mut self) -> u64 {
        self()
    }
}

/// When a search stops: whichever limit comes first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Most playouts to run (in this search, not counting reused ones).
    pub playouts: u32,
    /// Most milliseconds to run, read from the [`Clock`]; `None` for no limit.
    pub time_ms: Option<u64>,
    /// Stop as soon as no other root move can catch up with the most
    /// visited one within the playouts left (a playouts-only budget) or
    /// within the time left at the current speed.
    pub early_stop: bool,
}

impl Budget {
    /// Return a budget of exactly `n` playouts (deterministic for a fixed seed).
    pub const fn playouts(n: u32) -> Budget {
        Budget {
            playouts: n,
            time_ms: None,
            early_stop: false,
        }
    }

    /// Return a budget of `ms` milliseconds with at most `max_playouts`.
    pub const fn time(ms: u64, max_playouts: u32) -> Budget {
        Budget {
            playouts: max_playouts,
            time_ms: Some(ms),
            early_stop: true,
        }
    }
}

/// How often (in playouts) the clock is read.
pub(crate) const CLOCK_EVERY: u32 = 64;
