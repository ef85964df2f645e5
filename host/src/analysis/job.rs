//! One turn of a query, analysed: the position rebuilt, a fresh search of
//! at most `maxVisits` playouts (and `maxTime` seconds), partial results
//! every `reportDuringSearchEvery` seconds, and the final result.
//!
//! The search runs in slices: one slice for the whole budget, or one per
//! report interval. A slice also ends when the input thread counts a
//! `terminate` line ([`Link::stop`]); the loop then reads the waiting lines
//! ([`Link::interrupted`]) and the search goes on unless one of them ended
//! this turn. The tree is cleared before the turn (as KataGo clears its
//! tree for each query) and kept from slice to slice; the best-move table
//! is kept from query to query (`clear_cache` empties it).

use std::io;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

use kosumi_core::geometry::{Color, Point};
use kosumi_core::search::{Budget, MoveInfo};

use super::query::Query;
use super::response::{self, Analysis, MoveReport, RootReport};
use crate::gtp::analyze;
use crate::gtp::analyze::superko_moves;
use crate::gtp::Engine;

/// Playouts per turn when neither the query nor `--playouts` says
/// (KataGo's example analysis config has `maxVisits = 500`).
pub const DEFAULT_VISITS: u64 = 500;

/// Most moves of a final result given an ownership map of the position
/// after them (`includeMovesOwnership`; partial results have none): the
/// most visited ones.
pub const MOVES_OWNERSHIP: usize = 10;

/// A slice's time limit when nothing else limits it: long enough to be
/// no limit, short enough that the stopped clock's reading passes it.
const FOREVER_MS: u64 = 1 << 50;

/// One turn of a query, waiting in the queue.
#[derive(Clone, Debug)]
pub struct Job {
    /// The query.
    pub query: Arc<Query>,
    /// The turn.
    pub turn: usize,
    /// Its priority (higher first).
    pub priority: i64,
    /// Its arrival (earlier first among equal priorities).
    pub seq: u64,
}

/// What a running turn needs from the loop around it.
pub trait Link {
    /// Write one response line and flush it.
    ///
    /// # Errors
    /// An I/O error of the output.
    fn send(&mut self, line: &str) -> io::Result<()>;

    /// Return the count of `terminate` lines that arrived; the search
    /// stops while it is above zero.
    fn stop(&self) -> Arc<AtomicUsize>;

    /// Handle the lines that arrived; return whether one of them ended the
    /// running turn.
    ///
    /// # Errors
    /// An I/O error of the output.
    fn interrupted(&mut self, engine: &mut Engine) -> io::Result<bool>;
}

/// Analyse `job` on `engine`, sending its results through `link`.
///
/// # Errors
/// An I/O error of the output.
pub fn run(engine: &mut Engine, job: &Job, link: &mut impl Link) -> io::Result<()> {
    let q = &*job.query;
    let game = match q.position.game(job.turn) {
        Ok(game) => game,
        // Checked when the query was read: cannot happen.
        Err(e) => return link.send(&failure(q, &format!("{e:?}"))),
    };
    engine.game = game;
    let c = engine.game.to_play();
    let mut excluded = q.excluded(c, engine.game.board());
    excluded.extend(superko_moves(&engine.game, c));
    let opts = &engine.player.play.opts;
    let max = q
        .max_visits
        .or(opts.playouts.map(u64::from))
        .unwrap_or(DEFAULT_VISITS)
        .min(u64::from(u32::MAX));
    let max_ms = q.max_time.or(opts.time).map(ms);
    let play = &mut engine.player.play;
    play.new_game();
    match play.searcher_mut() {
        Ok(s) => s.search.clear_tree(),
        Err(e) => return link.send(&failure(q, &e)),
    }
    let priors = analyze::priors(engine, c);
    let mut extras = Extras::default();
    let start = Instant::now();
    let mut next_report = q.first_report.map(ms);
    let mut done = 0u64;
    let stop = link.stop();
    loop {
        let now = start.elapsed().as_millis() as u64;
        if done >= max || max_ms.is_some_and(|m| now >= m) {
            break;
        }
        let end = [max_ms, next_report].into_iter().flatten().min();
        let slice = end.map_or(FOREVER_MS, |e| e.saturating_sub(now).clamp(1, FOREVER_MS));
        let budget = Budget {
            playouts: (max - done) as u32,
            time_ms: Some(slice),
            early_stop: false,
        };
        let searched =
            engine
                .player
                .analyse(&engine.game, c, &excluded, budget, Some(Arc::clone(&stop)));
        match searched {
            Ok(r) => done += u64::from(r.playouts),
            Err(e) => return link.send(&failure(q, &e)),
        }
        if stop.load(Ordering::SeqCst) > 0 && link.interrupted(engine)? {
            break;
        }
        let now = start.elapsed().as_millis() as u64;
        if next_report.is_some_and(|due| now >= due && done < max) {
            let line = result(engine, job, c, &priors, true, &mut extras);
            link.send(&line)?;
            // Only a first report without `reportDuringSearchEvery`.
            next_report = q.report_every.map(|every| now + ms(every).max(1));
        }
    }
    let line = result(engine, job, c, &priors, false, &mut extras);
    link.send(&line)
}

/// Return `seconds` in milliseconds.
fn ms(seconds: f64) -> u64 {
    (seconds * 1000.0).round() as u64
}

/// Return the error line of a turn whose search could not run.
fn failure(q: &Query, message: &str) -> String {
    response::error(&super::query::Refusal {
        id: Some(q.id.clone()),
        field: None,
        message: format!("search failed: {message}"),
    })
}

/// What a turn reports beyond the search, computed once.
#[derive(Default)]
struct Extras {
    /// The ownership estimate, black's view.
    ownership: Option<Vec<f64>>,
    /// The prior of every point and pass.
    policy: Option<Vec<f64>>,
}

/// Return the result line of the search now: a partial one if `during`.
fn result(
    engine: &mut Engine,
    job: &Job,
    c: Color,
    priors: &[f32],
    during: bool,
    extras: &mut Extras,
) -> String {
    let q = &*job.query;
    let (points, mut moves, root) = reports(engine, q, c, priors);
    if root.visits == 0 && !during {
        return response::no_results(&q.id, job.turn);
    }
    if q.ownership && extras.ownership.is_none() {
        extras.ownership = Some(analyze::black_ownership(engine));
    }
    if q.moves_ownership && !during {
        for (m, &p) in moves.iter_mut().zip(&points).take(MOVES_OWNERSHIP) {
            let mut after = engine.game.clone();
            if after.play_record(c, p).is_ok() {
                let komi2 = after.komi2();
                let own = analyze::ownership_map(after.board(), komi2, &mut engine.player.scratch);
                m.ownership = Some(own);
            }
        }
    }
    if q.policy && extras.policy.is_none() {
        extras.policy = Some(policy(engine, c, priors));
    }
    response::analysis(&Analysis {
        id: &q.id,
        turn: job.turn,
        during,
        moves: &moves,
        root: &root,
        ownership: extras.ownership.as_deref().filter(|_| q.ownership),
        policy: extras.policy.as_deref().filter(|_| q.policy),
        perspective: q.perspective,
    })
}

/// Return the root moves, their statistics and the root's, for `c` to
/// move.
fn reports(
    engine: &Engine,
    q: &Query,
    c: Color,
    priors: &[f32],
) -> (Vec<Point>, Vec<MoveReport>, RootReport) {
    let mut points = Vec::new();
    let mut moves = Vec::new();
    let mut root = RootReport {
        visits: 0,
        winrate: 0.5,
        score: 0.0,
        score_stdev: 0.0,
        to_play: c,
    };
    let Some(searcher) = engine.player.play.searcher.as_ref() else {
        return (points, moves, root);
    };
    let search = &searcher.search;
    let geo = engine.game.board().geometry();
    let mut infos = vec![MoveInfo::EMPTY; kosumi_core::search::MAX_MOVES];
    let n = search.root_moves(&mut infos);
    let mut pv = vec![Point::PASS; q.pv_len + 1];
    let mut buf = [0u8; 4];
    for (order, info) in infos[..n].iter().enumerate() {
        let winrate = f64::from(info.win_rate);
        let (score, score_stdev) = analyze::score(engine, c, &info.score);
        let len = search.pv(info.node, &mut pv);
        points.push(info.mv);
        moves.push(MoveReport {
            mv: geo.vertex_str(info.mv, &mut buf).to_string(),
            visits: info.visits,
            winrate,
            score,
            score_stdev,
            prior: f64::from(priors.get(info.mv.idx()).copied().unwrap_or(0.0)),
            lcb: analyze::lcb(winrate, info.visits),
            order,
            pv: pv[..len]
                .iter()
                .map(|&p| geo.vertex_str(p, &mut buf).to_string())
                .collect(),
            ownership: None,
        });
    }
    let (score, score_stdev) = analyze::score(engine, c, &search.root_score());
    root.visits = search.pool().nodes().first().map_or(0, |n| n.visits);
    root.winrate = f64::from(search.root_win_rate());
    root.score = score;
    root.score_stdev = score_stdev;
    (points, moves, root)
}

/// Return KataGo's `policy`: the prior of every point for `c`, row by row
/// from the top left (-1 where `c` may not play), then pass's.
fn policy(engine: &Engine, c: Color, priors: &[f32]) -> Vec<f64> {
    let game = &engine.game;
    let geo = game.board().geometry();
    let size = geo.size();
    let prior = |p: Point| f64::from(priors.get(p.idx()).copied().unwrap_or(0.0));
    let mut out = Vec::with_capacity(size * size + 1);
    for y in (0..size).rev() {
        for x in 0..size {
            let p = geo.point(x, y);
            out.push(if game.check(c, p).is_ok() {
                prior(p)
            } else {
                -1.0
            });
        }
    }
    out.push(prior(Point::PASS));
    out
}
