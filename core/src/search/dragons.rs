//! Life and death at the root: the owl ([`crate::tactics::owl`]) asked of
//! the weak dragons of the position to move from, once per search, its
//! answers turned into marks the root's priors read ([`super::prior`]).
//!
//! The dragons are the owl's own (chains that share liberties), of at
//! least [`MIN_STONES`] stones, that its static view does not call alive,
//! the largest first, at most the caller's number. For each, the owl is
//! asked first whether it can be killed, its opponent moving first; only a
//! dragon that can be is asked whether it can live, its owner moving
//! first. A dragon for which both succeed is unsettled: whoever plays
//! first decides it. The side to move gets a mark on its move: the owl's
//! defence of an own dragon ([`Mark::Lives`]), its attack on an enemy one
//! ([`Mark::Kills`]). A dragon that cannot be killed or cannot live gets
//! no mark (the playouts see both). Answers that need a ko count too.
//!
//! The owl's budget is the caller's (its moves, each capture read at a
//! fixed price); an attack found is sound even when the budget ran out,
//! a defence may be one that lives only to the search's horizon. Its
//! results go into the tactical cache, keyed by the stones they read, so
//! a dragon whose surroundings did not change is answered from the cache
//! the next move.

use super::prior::{Mark, Reading};
use crate::board::Board;
use crate::geometry::{Color, Point};
use crate::table::TacticCluster;
use crate::tactics::owl::{weak_dragons, Dragon};
use crate::tactics::{Budget, Owl, OwlGoal, OwlProblem, Reader, Verdict};

/// Most dragons read at one root.
pub const MAX_DRAGONS: usize = 8;
/// Fewest stones of a dragon worth reading.
pub const MIN_STONES: usize = 3;

/// What the owl said of the dragons at one root.
#[derive(Clone, Copy, Debug)]
pub struct DragonReading {
    /// The marks of the side to move.
    pub marks: Reading,
    /// Dragons asked.
    pub asked: u32,
    /// Unsettled dragons found (marks made).
    pub unsettled: u32,
}

/// Ask `owl`, reading captures with `reader` within `budget` a question,
/// about the `most` (at most [`MAX_DRAGONS`]) largest weak dragons of
/// `board`, `c` to move; return the marks of `c`'s moves. The board is
/// restored.
pub fn read_dragons<
    S,
    const RW: usize,
    const RM: usize,
    const W: usize,
    const M: usize,
    const N: usize,
>(
    board: &mut Board,
    c: Color,
    owl: &mut Owl<W, M, N>,
    reader: &mut Reader<'_, S, RW, RM>,
    budget: Budget,
    most: usize,
) -> DragonReading
where
    S: AsRef<[TacticCluster]> + AsMut<[TacticCluster]>,
{
    let mut out = DragonReading {
        marks: Reading::NONE,
        asked: 0,
        unsettled: 0,
    };
    let mut dragons = [Dragon {
        stone: Point::PASS,
        stones: 0,
    }; MAX_DRAGONS];
    let n = weak_dragons(board, MIN_STONES, &mut dragons[..most.min(MAX_DRAGONS)]);
    for d in &dragons[..n] {
        let Some(owner) = board.at(d.stone).color() else {
            continue;
        };
        out.asked += 1;
        let ask = |owl: &mut Owl<W, M, N>, r: &mut Reader<'_, S, RW, RM>, b: &mut Board, goal| {
            let a = owl.solve(
                r,
                b,
                OwlProblem {
                    goal,
                    target: d.stone,
                },
                budget,
            );
            (a.verdict != Verdict::Fails && !a.key_move.is_pass()).then_some(a.key_move)
        };
        let Some(kill) = ask(owl, reader, board, OwlGoal::Kill) else {
            continue;
        };
        let Some(live) = ask(owl, reader, board, OwlGoal::Live) else {
            continue;
        };
        out.unsettled += 1;
        if owner == c {
            out.marks.push(live, Mark::Lives(d.stones));
        } else {
            out.marks.push(kill, Mark::Kills(d.stones));
        }
    }
    out
}
