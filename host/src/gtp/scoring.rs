//! How the host judges the end of a game: the core's scoring
//! ([`kosumi_core::game::scoring`]: dead stones by a playout ownership
//! estimate, the area count without them), with the host's number of
//! playouts; `--tromp-taylor` counts the board as it stands. `final_score`,
//! `final_status_list` and the pass decision are the core's session's, as
//! on the firmware.

use kosumi_core::board::Board;
use kosumi_core::game::Scorer;

/// Playouts of the ownership estimate.
pub const OWNERSHIP_PLAYOUTS: u32 = 400;

/// Seed of the estimate (fixed: the same position gets the same answer).
const SEED: u64 = 7;

/// Return the host's scorer, running its playouts on `scratch`; none
/// under Tromp-Taylor.
pub fn scorer(scratch: &mut Board, tromp_taylor: bool) -> Scorer<'_> {
    Scorer {
        playouts: if tromp_taylor { 0 } else { OWNERSHIP_PLAYOUTS },
        seed: SEED,
        scratch,
    }
}
