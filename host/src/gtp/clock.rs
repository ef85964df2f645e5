//! The search budget of a move: from the game's clock (`time_settings`,
//! `time_left`, read by the core's [`TimeControl`]) and the options
//! (`--time`, `--playouts`).

use kosumi_core::game::TimeControl;
use kosumi_core::geometry::Color;
use kosumi_core::search::Budget;

use super::options::SearchArgs;

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
