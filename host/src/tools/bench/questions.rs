//! The harness of `kosumi bench owl` and `kosumi bench connect`: a game
//! record is replayed and, every `--every` moves, a reader is asked the
//! questions a position raises. Each question is answered twice: with one
//! tactical cache kept over the whole game (the seed's absolute cache: a
//! question whose stones and surroundings the last moves did not touch is
//! answered from it) and with no cache. The summary: time a question
//! (mean, median, 90th percentile, most), the search's own moves and the
//! nodes of the capture reads it made, both a second, the cache's probes
//! and hits, how many answers the two runs share, and how many ran out of
//! budget.

use std::path::Path;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use kosumi_core::board::Board;
use kosumi_core::geometry::Point;
use kosumi_core::table::{clusters_in, Cluster, Table, TacticCluster};
use kosumi_core::tactics::{Answer, ReaderStats, Verdict};

use crate::tools::patterns::replay::{records, replay};

/// A reader asked with its cache and without.
pub trait Solvers {
    /// A question about a position.
    type Question: Copy;
    /// The questions to ask of `board`.
    fn questions(&self, board: &Board) -> Vec<Self::Question>;
    /// Answer `q` with the cache kept over the game, or with none.
    fn solve(&mut self, cached: bool, board: &mut Board, q: Self::Question) -> Answer;
    /// The counters of the searches with the cache, and without.
    fn stats(&self) -> (ReaderStats, ReaderStats);
    /// The counters of the capture reader the searches called, with the
    /// cache and without.
    fn reads(&self) -> (ReaderStats, ReaderStats);
}

/// The chains of at least `min` stones on `board`, one stone each (the
/// chain's root), in board order.
pub fn chains(board: &Board, min: usize) -> Vec<Point> {
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

/// Return a tactical cache of `mb` MiB.
///
/// # Errors
/// `mb` is 0, or the table cannot be made.
pub fn cache(mb: usize) -> Result<Table<TacticCluster, Box<[TacticCluster]>>, String> {
    let clusters = clusters_in::<TacticCluster>(mb << 20);
    if clusters == 0 {
        return Err("--cache-mb must be at least 1".into());
    }
    let storage = vec![TacticCluster::EMPTY; clusters].into_boxed_slice();
    Table::new(storage).map_err(|e| format!("cache: {e:?}"))
}

/// A question's answers and times, with and without the cache.
pub struct Asked<Q> {
    pub question: Q,
    pub cached: Answer,
    pub uncached: Answer,
    secs_cached: f64,
    secs_uncached: f64,
}

/// What a replay asked.
pub struct Replayed<Q> {
    /// Moves of the record.
    pub moves: usize,
    /// Positions asked about.
    pub positions: usize,
    /// Every question, in the order asked.
    pub asked: Vec<Asked<Q>>,
}

impl<Q> Replayed<Q> {
    /// Return how many of the questions `pick` keeps succeed (answered
    /// without the cache).
    pub fn succeeded(&self, pick: impl Fn(&Q) -> bool) -> usize {
        self.asked
            .iter()
            .filter(|a| pick(&a.question) && a.uncached.verdict != Verdict::Fails)
            .count()
    }

    /// Return how many pairs of questions (the two asked of one chain or
    /// pair, one after the other) both succeed.
    pub fn both_succeed(&self) -> usize {
        self.asked
            .chunks(2)
            .filter(|pair| pair.iter().all(|a| a.uncached.verdict != Verdict::Fails))
            .count()
    }

    /// Return the replay's figures as a JSON object: the game, its moves,
    /// `every`, the positions asked about, the question's `budget`, then
    /// `summary`'s.
    pub fn json(
        &self,
        game: &Path,
        every: usize,
        budget: u32,
        summary: &Summary,
    ) -> serde_json::Map<String, serde_json::Value> {
        let mut obj = serde_json::Map::new();
        obj.insert("game".into(), game.display().to_string().into());
        obj.insert("moves".into(), self.moves.into());
        obj.insert("every".into(), every.into());
        obj.insert("positions".into(), self.positions.into());
        obj.insert("budget".into(), budget.into());
        summary.add_json(&mut obj);
        obj
    }
}

/// Replay the first game of the record at `game` and ask `solvers` the
/// questions of the position before every `every`-th move (a progress
/// bar on stderr unless `quiet`).
///
/// # Errors
/// The file cannot be read or holds no game this build can replay, or
/// `every` is 0.
pub fn ask_over_game<S: Solvers>(
    game: &Path,
    every: usize,
    quiet: bool,
    solvers: &mut S,
) -> Result<Replayed<S::Question>, String> {
    if every == 0 {
        return Err("--every must be at least 1".into());
    }
    let text = std::fs::read_to_string(game).map_err(|e| format!("{}: {e}", game.display()))?;
    let record = records(&text)
        .into_iter()
        .next()
        .ok_or_else(|| format!("{}: no game this build can replay", game.display()))?;
    let bar = ProgressBar::new(record.moves.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} moves, {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    if quiet {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    let mut asked = Vec::new();
    let mut positions = 0usize;
    replay(&record, |board, _, _, number| {
        bar.set_position(number as u64);
        if number == 1 || (number - 1) % every != 0 {
            return;
        }
        positions += 1;
        for question in solvers.questions(board) {
            let t = Instant::now();
            let cached = solvers.solve(true, board, question);
            let secs_cached = t.elapsed().as_secs_f64();
            let t = Instant::now();
            let uncached = solvers.solve(false, board, question);
            let secs_uncached = t.elapsed().as_secs_f64();
            asked.push(Asked {
                question,
                cached,
                uncached,
                secs_cached,
                secs_uncached,
            });
        }
        bar.set_message(format!("{} questions", asked.len()));
    });
    bar.finish_and_clear();
    Ok(Replayed {
        moves: record.moves.len(),
        positions,
        asked,
    })
}

/// The times of one run (with or without the cache).
struct Times {
    secs: Vec<f64>,
    /// The search's own moves.
    moves: u64,
    /// The nodes of its capture reads.
    reads: u64,
}

impl Times {
    fn new(mut secs: Vec<f64>, moves: u64, reads: u64) -> Times {
        secs.sort_by(f64::total_cmp);
        Times { secs, moves, reads }
    }

    fn total(&self) -> f64 {
        self.secs.iter().sum()
    }

    /// The value at fraction `q` of the sorted times, in ms (0 if none).
    fn ms_at(&self, q: f64) -> f64 {
        if self.secs.is_empty() {
            return 0.0;
        }
        let i = ((self.secs.len() - 1) as f64 * q).round() as usize;
        self.secs[i] * 1e3
    }

    fn mean_ms(&self) -> f64 {
        self.total() * 1e3 / self.secs.len().max(1) as f64
    }

    fn per_second(&self, n: u64) -> f64 {
        n as f64 / self.total().max(1e-9)
    }

    fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "mean_ms": self.mean_ms(),
            "median_ms": self.ms_at(0.5),
            "p90_ms": self.ms_at(0.9),
            "max_ms": self.ms_at(1.0),
            "total_s": self.total(),
            "moves": self.moves,
            "moves_per_s": self.per_second(self.moves),
            "read_nodes": self.reads,
            "read_nodes_per_s": self.per_second(self.reads),
        })
    }

    fn line(&self, name: &str, unit: &str) -> String {
        format!(
            "  [{name}] {:.2} ms a question mean, {:.2} median, {:.2} 90th percentile, {:.1} most; {:.2} s in all; {} {unit} ({:.0} a second), {} capture-read nodes ({:.0} a second)",
            self.mean_ms(),
            self.ms_at(0.5),
            self.ms_at(0.9),
            self.ms_at(1.0),
            self.total(),
            self.moves,
            self.per_second(self.moves),
            self.reads,
            self.per_second(self.reads),
        )
    }
}

/// The figures shared by the benchmarks built on [`ask_over_game`].
pub struct Summary {
    questions: usize,
    cached: Times,
    uncached: Times,
    probes: u64,
    hits: u64,
    /// The capture reader's probes and hits (with the cache).
    read_probes: u64,
    read_hits: u64,
    same: usize,
    unproven: usize,
}

impl Summary {
    /// Summarise `r` with the counters of the `solvers` that answered it.
    pub fn of<S: Solvers>(r: &Replayed<S::Question>, solvers: &S) -> Summary {
        let secs = |f: fn(&Asked<S::Question>) -> f64| r.asked.iter().map(f).collect::<Vec<f64>>();
        let ((with, without), (reads, reads_off)) = (solvers.stats(), solvers.reads());
        Summary {
            questions: r.asked.len(),
            cached: Times::new(secs(|a| a.secs_cached), with.nodes, reads.nodes),
            uncached: Times::new(secs(|a| a.secs_uncached), without.nodes, reads_off.nodes),
            probes: with.probes,
            hits: with.hits,
            read_probes: reads.probes,
            read_hits: reads.hits,
            same: r.asked.iter().filter(|a| a.cached == a.uncached).count(),
            unproven: r.asked.iter().filter(|a| !a.uncached.proven).count(),
        }
    }

    fn hit_rate(&self) -> f64 {
        percent(self.hits, self.probes)
    }

    fn read_hit_rate(&self) -> f64 {
        percent(self.read_hits, self.read_probes)
    }

    /// The figures as JSON fields, added to `obj`.
    fn add_json(&self, obj: &mut serde_json::Map<String, serde_json::Value>) {
        obj.insert("questions".into(), self.questions.into());
        obj.insert("cached".into(), self.cached.json());
        obj.insert("uncached".into(), self.uncached.json());
        obj.insert("cache_probes".into(), self.probes.into());
        obj.insert("cache_hits".into(), self.hits.into());
        obj.insert("cache_hit_rate".into(), self.hit_rate().into());
        obj.insert("read_probes".into(), self.read_probes.into());
        obj.insert("read_hits".into(), self.read_hits.into());
        obj.insert("read_hit_rate".into(), self.read_hit_rate().into());
        obj.insert("same_answers".into(), self.same.into());
        obj.insert("unproven".into(), self.unproven.into());
    }

    /// Print the figures' lines; `unit` names the searches' moves.
    pub fn print(&self, unit: &str) {
        println!("{}", self.cached.line("cached  ", unit));
        println!("{}", self.uncached.line("uncached", unit));
        println!(
            "  cache: {} hits of {} probes ({:.1} %), the capture reads' {} of {} ({:.1} %); answers identical {}/{}; unproven (budget out) {}",
            self.hits,
            self.probes,
            self.hit_rate(),
            self.read_hits,
            self.read_probes,
            self.read_hit_rate(),
            self.same,
            self.questions,
            self.unproven
        );
    }
}

/// `part` of `all` in percent (0 of nothing).
fn percent(part: u64, all: u64) -> f64 {
    if all == 0 {
        0.0
    } else {
        100.0 * part as f64 / all as f64
    }
}
