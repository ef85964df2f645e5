//! `kosumi bench owl`: what life-and-death reading would cost an engine
//! in play. A game record is replayed; every `--every` moves, the owl is
//! asked whether each chain of at least `--min-stones` stones can be
//! killed (its opponent moving) and can live (its owner moving), as a
//! search's root would ask before it chooses a move. Each question is
//! answered twice, with one tactical cache kept over the whole game (the
//! seed's absolute cache: a dragon the last move did not touch is answered
//! from it) and with no cache.
//!
//! Figures: positions, questions, time a question (mean, median, 90th
//! percentile, most) with and without the cache, the owl's moves, the
//! cache's hit rate, how many answers the two runs share, and the
//! verdicts: dragons that can be killed, that can live, and both
//! (critical).

use std::path::PathBuf;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use kosumi_core::board::Board;
use kosumi_core::geometry::Point;
use kosumi_core::table::{clusters_in, Cluster, Table, TacticCluster};
use kosumi_core::tactics::owl::{Owl, OwlGoal, OwlProblem, OWL_BUDGET};
use kosumi_core::tactics::{Answer, Budget, Reader, Verdict};

use crate::tools::patterns::replay::{records, replay};

/// Arguments of `kosumi bench owl`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game record to replay (SGF; its first game's main line).
    pub game: PathBuf,
    /// Ask the questions after every N-th move.
    #[arg(long, default_value_t = 10)]
    pub every: usize,
    /// Ask about chains of at least this many stones.
    #[arg(long, default_value_t = 3)]
    pub min_stones: usize,
    /// Budget of a question in the owl's moves (the GTP commands' by default).
    #[arg(long, default_value_t = OWL_BUDGET.nodes)]
    pub nodes: u32,
    /// Size of the tactical cache in MiB.
    #[arg(long, default_value_t = 16)]
    pub cache_mb: usize,
    /// Print one JSON object instead of a report.
    #[arg(long)]
    pub json: bool,
}

/// A question's answers and times, with and without the cache.
struct Asked {
    goal: OwlGoal,
    cached: Answer,
    uncached: Answer,
    secs_cached: f64,
    secs_uncached: f64,
}

/// The chains of at least `min` stones on `board`, one stone each.
fn chains(board: &Board, min: usize) -> Vec<Point> {
    let mut roots: Vec<Point> = Vec::new();
    for p in board.geometry().points() {
        if let Some(r) = board.chain_root(p) {
            if !roots.contains(&r) && board.chain_stones(p).count() >= min {
                roots.push(r);
            }
        }
    }
    roots
}

/// Return the value at fraction `q` of sorted `xs` (0 when empty).
fn quantile(xs: &[f64], q: f64) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    let i = ((xs.len() - 1) as f64 * q).round() as usize;
    xs[i]
}

/// Replay the game and ask every question, with and without a cache.
///
/// # Errors
/// The file cannot be read, holds no game this build can replay, or the
/// arguments are out of range.
pub fn run(args: &Args) -> Result<(), String> {
    if args.every == 0 {
        return Err("--every must be at least 1".into());
    }
    let text =
        std::fs::read_to_string(&args.game).map_err(|e| format!("{}: {e}", args.game.display()))?;
    let record = records(&text)
        .into_iter()
        .next()
        .ok_or_else(|| format!("{}: no game this build can replay", args.game.display()))?;
    let clusters = clusters_in::<TacticCluster>(args.cache_mb << 20);
    if clusters == 0 {
        return Err("--cache-mb must be at least 1".into());
    }
    let storage = vec![TacticCluster::EMPTY; clusters].into_boxed_slice();
    let mut table = Table::new(storage).map_err(|e| format!("cache: {e:?}"))?;
    let mut cached = Reader::new(&mut table);
    let mut uncached = Reader::without_cache();
    let mut owl: Box<Owl> = Box::default();
    let mut owl_off: Box<Owl> = Box::default();
    let budget = Budget {
        nodes: args.nodes,
        depth: OWL_BUDGET.depth,
    };

    let bar = ProgressBar::new(record.moves.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} moves, {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    if args.json {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    let mut asked: Vec<Asked> = Vec::new();
    let mut positions = 0usize;
    replay(&record, |board, _, _, number| {
        bar.set_position(number as u64);
        if number == 1 || (number - 1) % args.every != 0 {
            return;
        }
        positions += 1;
        for target in chains(board, args.min_stones) {
            for goal in [OwlGoal::Kill, OwlGoal::Live] {
                let problem = OwlProblem { goal, target };
                let t = Instant::now();
                let a = owl.solve(&mut cached, board, problem, budget);
                let secs_cached = t.elapsed().as_secs_f64();
                let t = Instant::now();
                let b = owl_off.solve(&mut uncached, board, problem, budget);
                let secs_uncached = t.elapsed().as_secs_f64();
                asked.push(Asked {
                    goal,
                    cached: a,
                    uncached: b,
                    secs_cached,
                    secs_uncached,
                });
            }
        }
        bar.set_message(format!("{} questions", asked.len()));
    });
    bar.finish_and_clear();
    let (owl_moves, owl_moves_off) = (owl.stats().nodes, owl_off.stats().nodes);
    let (probes, hits) = (owl.stats().probes, owl.stats().hits);

    let n = asked.len();
    let mut cached_secs: Vec<f64> = asked.iter().map(|a| a.secs_cached).collect();
    let mut uncached_secs: Vec<f64> = asked.iter().map(|a| a.secs_uncached).collect();
    cached_secs.sort_by(f64::total_cmp);
    uncached_secs.sort_by(f64::total_cmp);
    let sum = |xs: &[f64]| xs.iter().sum::<f64>();
    let same = asked.iter().filter(|a| a.cached == a.uncached).count();
    let unproven = asked.iter().filter(|a| !a.uncached.proven).count();
    let works = |goal: OwlGoal| {
        asked
            .iter()
            .filter(|a| a.goal == goal && a.uncached.verdict != Verdict::Fails)
            .count()
    };
    let (killable, can_live) = (works(OwlGoal::Kill), works(OwlGoal::Live));
    // Critical: both questions about one chain succeed (they come in pairs).
    let critical = asked
        .chunks(2)
        .filter(|pair| pair.iter().all(|a| a.uncached.verdict != Verdict::Fails))
        .count();
    let ms = |s: f64| s * 1e3;
    let hit_rate = if probes == 0 {
        0.0
    } else {
        100.0 * hits as f64 / probes as f64
    };

    if args.json {
        let times = |xs: &[f64]| {
            serde_json::json!({
                "mean_ms": ms(sum(xs) / n.max(1) as f64),
                "median_ms": ms(quantile(xs, 0.5)),
                "p90_ms": ms(quantile(xs, 0.9)),
                "max_ms": ms(quantile(xs, 1.0)),
                "total_s": sum(xs),
            })
        };
        let obj = serde_json::json!({
            "game": args.game.display().to_string(),
            "moves": record.moves.len(),
            "every": args.every,
            "positions": positions,
            "questions": n,
            "budget": args.nodes,
            "cached": times(&cached_secs),
            "uncached": times(&uncached_secs),
            "owl_moves": owl_moves,
            "owl_moves_uncached": owl_moves_off,
            "cache_probes": probes,
            "cache_hits": hits,
            "cache_hit_rate": hit_rate,
            "same_answers": same,
            "unproven": unproven,
            "killable": killable,
            "can_live": can_live,
            "critical": critical,
        });
        println!("{obj}");
        return Ok(());
    }
    println!(
        "kosumi bench owl: {} ({} moves), every {} moves, chains of {}+ stones, budget {} moves",
        args.game.display(),
        record.moves.len(),
        args.every,
        args.min_stones,
        args.nodes
    );
    println!(
        "  {positions} positions, {n} questions ({} chains, kill and live)",
        n / 2
    );
    for (name, xs, moves) in [
        ("cached  ", &cached_secs, owl_moves),
        ("uncached", &uncached_secs, owl_moves_off),
    ] {
        println!(
            "  [{name}] {:.2} ms a question mean, {:.2} median, {:.2} 90th percentile, {:.1} most; {:.2} s in all; {moves} owl moves",
            ms(sum(xs) / n.max(1) as f64),
            ms(quantile(xs, 0.5)),
            ms(quantile(xs, 0.9)),
            ms(quantile(xs, 1.0)),
            sum(xs),
        );
    }
    println!(
        "  cache: {hits} hits of {probes} probes ({hit_rate:.1} %); answers identical {same}/{n}; unproven (budget out) {unproven}"
    );
    println!(
        "  verdicts: {killable} of {} chains can be killed, {can_live} can live, {critical} both (critical)",
        n / 2
    );
    Ok(())
}
