//! Root parallelism (`--threads N`): N - 1 helper searchers search the same
//! position on threads of their own while the main searcher searches it on
//! the caller's; the root moves' visits and wins are then summed and the
//! most visited move is played.
//!
//! A helper shares nothing it writes: it has its own tree (`--tree-mb`),
//! tactical cache (`--tactics-mb`), last-good-reply table and seed, and no
//! best-move table (the table, and so the book, is the main searcher's),
//! so the threads take no locks. It reads the main searcher's move-pattern
//! model and learned local answers, and plays the same playouts.
//! The playouts of a budget are split between the threads (the same total
//! as one thread; deterministic for a fixed seed without a time limit); a
//! time limit is every thread's. Analysis output (`lz-analyze`) shows the
//! main searcher's tree.

use std::collections::BTreeMap;

use kosumi_core::board::Board;
use kosumi_core::geometry::{Point, MAX_POINTS};
use kosumi_core::pattern::Patterns;
use kosumi_core::playout::LocalAnswers;
use kosumi_core::search::{Budget, MoveInfo, Params, ScoreSum, SearchResult};

use super::searcher::Searcher;
use super::tactics::{TacticTable, Tactics};

/// One helper: a searcher and its own tactical cache.
pub struct Helper {
    searcher: Searcher,
    tactics: Option<TacticTable>,
}

/// What the helpers were built from; a change rebuilds them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Shape {
    /// Helper count (threads - 1).
    pub helpers: usize,
    /// Tree MiB of each.
    pub tree_mb: usize,
    /// Tactical cache MiB of each (0: no reading).
    pub tactics_mb: usize,
    /// The main searcher's seed; helper `k` uses a seed derived from it.
    pub seed: u64,
}

/// The helpers of the main searcher.
#[derive(Default)]
pub struct Helpers {
    list: Vec<Helper>,
    shape: Shape,
}

impl Helpers {
    /// Make the helpers match `shape` (building them on first use or after
    /// a change) and give them `params` and the main searcher's playout
    /// aids: last good replies (each helper its own table) if `replies`,
    /// and the shared learned `local` answers.
    ///
    /// # Errors
    /// A message if a helper's tree is too small.
    pub fn prepare(
        &mut self,
        shape: Shape,
        params: Params,
        replies: bool,
        local: Option<&'static LocalAnswers<'static>>,
    ) -> Result<(), String> {
        if shape != self.shape || self.list.len() != shape.helpers {
            self.list.clear();
            for k in 1..=shape.helpers as u64 {
                // Any distinct seeds do; spread them over the word.
                let seed = shape.seed ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15);
                // No table of its own: the smallest storage Searcher takes (one cluster).
                let mut searcher = Searcher::new(shape.tree_mb, 0, params, seed)?;
                searcher.use_table = false;
                let tactics = if shape.tactics_mb > 0 {
                    Some(Tactics::new(shape.tactics_mb)?.cache)
                } else {
                    None
                };
                self.list.push(Helper { searcher, tactics });
            }
            self.shape = shape;
        }
        for h in &mut self.list {
            h.searcher.search.set_params(params);
            h.searcher.use_replies(replies);
            h.searcher.local = local;
        }
        Ok(())
    }

    /// Return the number of helpers.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Return `true` when there are no helpers (one thread).
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
}

/// Split `budget` for `threads` threads: the playouts are shared (the
/// main thread takes the remainder), the time limit is everyone's.
pub fn split(budget: Budget, threads: usize) -> (Budget, Budget) {
    let t = threads.max(1) as u32;
    let share = budget.playouts / t;
    let main = Budget {
        playouts: budget.playouts - share * (t - 1),
        ..budget
    };
    let helper = Budget {
        playouts: share.max(1),
        ..budget
    };
    (main, helper)
}

/// Run the main searcher through `main` (it searches with its table and
/// the engine's tactical cache) and every helper with `helper_budget` and
/// the shared model `patterns` on threads of their own; return the main
/// result with the summed root statistics (most visited first) and its
/// best move, win rate, visits and playouts taken from the sum.
///
/// # Errors
/// The first searcher's error.
#[allow(clippy::too_many_arguments)]
pub fn run(
    main: &mut Searcher,
    helpers: &mut Helpers,
    board: &Board,
    komi2: i16,
    excluded: &[Point],
    patterns: Option<&Patterns>,
    (main_budget, helper_budget): (Budget, Budget),
    main_run: impl FnOnce(&mut Searcher, Budget) -> Result<SearchResult, String>,
) -> Result<(SearchResult, Vec<MoveInfo>), String> {
    let (result, helper_results) = std::thread::scope(|s| {
        let handles: Vec<_> = helpers
            .list
            .iter_mut()
            .map(|h| {
                s.spawn(move || {
                    let r = h.searcher.run(
                        board,
                        komi2,
                        excluded,
                        helper_budget,
                        h.tactics.as_mut(),
                        patterns,
                        false,
                    );
                    r.map(|r| (r, root_moves(&h.searcher)))
                })
            })
            .collect();
        let result = main_run(main, main_budget);
        let helper_results: Vec<_> = handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err("a search thread panicked".into()))
            })
            .collect();
        (result, helper_results)
    });
    let mut result = result?;
    let mut lists = vec![root_moves(main)];
    for r in helper_results {
        let (r, moves) = r?;
        result.playouts += r.playouts;
        lists.push(moves);
    }
    let merged = merge(&lists);
    if let Some(best) = merged.first() {
        result.best = best.mv;
        result.win_rate = best.win_rate;
        result.visits = best.visits;
    }
    Ok((result, merged))
}

/// Return every root move of `s` (most visited first).
fn root_moves(s: &Searcher) -> Vec<MoveInfo> {
    let mut out = vec![MoveInfo::EMPTY; MAX_POINTS + 1];
    let n = s.search.root_moves(&mut out);
    out.truncate(n);
    out
}

/// Sum the visits and wins of each move over `lists`; return the moves
/// most visited first (ties: the earlier list's order).
pub fn merge(lists: &[Vec<MoveInfo>]) -> Vec<MoveInfo> {
    // Per move: (first seen, visits, wins, AMAF weighted by visits, node in
    // the first list that has it), and the score margins.
    let mut sum: BTreeMap<u16, (usize, u64, f64, f64, MoveInfo)> = BTreeMap::new();
    let mut scores: BTreeMap<u16, ScoreSum> = BTreeMap::new();
    let mut order = 0;
    for list in lists {
        for m in list {
            let e = sum.entry(m.mv.0).or_insert_with(|| {
                order += 1;
                (order, 0, 0.0, 0.0, *m)
            });
            e.1 += u64::from(m.visits);
            e.2 += f64::from(m.win_rate) * f64::from(m.visits);
            e.3 += f64::from(m.amaf) * f64::from(m.visits);
            scores
                .entry(m.mv.0)
                .or_insert(ScoreSum::EMPTY)
                .merge(&m.score);
        }
    }
    let mut out: Vec<(usize, MoveInfo)> = sum
        .into_values()
        .map(|(first, visits, wins, amaf, m)| {
            let v = visits.max(1) as f64;
            (
                first,
                MoveInfo {
                    visits: visits.min(u64::from(u32::MAX)) as u32,
                    win_rate: (wins / v) as f32,
                    amaf: (amaf / v) as f32,
                    score: scores[&m.mv.0],
                    ..m
                },
            )
        })
        .collect();
    out.sort_by(|a, b| b.1.visits.cmp(&a.1.visits).then(a.0.cmp(&b.0)));
    out.into_iter().map(|(_, m)| m).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(mv: u16, visits: u32, win_rate: f32) -> MoveInfo {
        MoveInfo {
            mv: Point(mv),
            visits,
            win_rate,
            ..MoveInfo::EMPTY
        }
    }

    #[test]
    fn merge_sums_visits_and_weighs_win_rates() {
        let a = vec![info(10, 60, 0.5), info(20, 40, 0.6)];
        let b = vec![info(20, 50, 0.4), info(30, 10, 0.9)];
        let m = merge(&[a, b]);
        let moves: Vec<_> = m.iter().map(|i| (i.mv.0, i.visits)).collect();
        assert_eq!(moves, vec![(20, 90), (10, 60), (30, 10)]);
        let wr = (0.6 * 40.0 + 0.4 * 50.0) / 90.0;
        assert!((m[0].win_rate - wr).abs() < 1e-6);
    }

    #[test]
    fn playouts_are_shared_and_time_is_not() {
        let (main, helper) = split(Budget::playouts(10_001), 3);
        assert_eq!((main.playouts, helper.playouts), (3_335, 3_333));
        assert_eq!(main.playouts + 2 * helper.playouts, 10_001);
        let (main, helper) = split(Budget::time(500, 1_000_000), 2);
        assert_eq!((main.playouts, helper.playouts), (500_000, 500_000));
        assert_eq!((main.time_ms, helper.time_ms), (Some(500), Some(500)));
    }

    #[test]
    fn helpers_play_the_main_searchers_playouts() {
        let shape = Shape {
            helpers: 2,
            tree_mb: 1,
            tactics_mb: 0,
            seed: 1,
        };
        let mut helpers = Helpers::default();
        helpers
            .prepare(shape, Params::default(), true, None)
            .unwrap();
        assert!(helpers.list.iter().all(|h| h.searcher.replies.is_some()));
        helpers
            .prepare(shape, Params::default(), false, None)
            .unwrap();
        assert!(helpers.list.iter().all(|h| h.searcher.replies.is_none()));
    }
}
