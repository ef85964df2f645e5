//! Positions from random waterfall games, shared by the tactical tests
//! that check the reader over many positions.

use kosumi_core::board::Board;
use kosumi_core::playout::{policy_move, Policy, RuleStats};
use kosumi_core::rng;

/// Return positions from `games` random waterfall games of at most
/// `moves` moves each, every `every` moves.
pub fn playout_positions(
    size: usize,
    games: u64,
    moves: usize,
    every: usize,
    seed: u64,
) -> Vec<Board> {
    let mut out = Vec::new();
    let mut r = rng::seeded(seed);
    let mut stats = RuleStats::default();
    for _ in 0..games {
        let mut b = Board::new(size).unwrap();
        b.refresh_ataris();
        for m in 0..moves {
            if b.passes() >= 2 {
                break;
            }
            let c = b.to_play();
            let p = policy_move(&mut b, Policy::waterfall(), &mut r, &mut stats);
            b.play_legal(p, c);
            if m % every == every - 1 {
                out.push(b.clone());
            }
        }
    }
    out
}
