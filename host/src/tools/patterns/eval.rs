//! `kosumi patterns test`: how often a model predicts the move played, on
//! test games it was not trained on (top-1, top-5, top-10, mean
//! log-likelihood, and top-1 by move number).
//!
//! The model is read and indexed by the core, exactly as the engine reads
//! it. Moves of equal gamma are ranked at random: a played move tied with
//! `e - 1` others just after `g` better moves counts `(k - g) / e` for
//! top-k when that lies between 0 and 1.

use std::path::PathBuf;
use std::time::Instant;

use rayon::prelude::*;

use kosumi_core::pattern::{Model, Patterns, Slot};
use kosumi_core::tactics::Ladder;

use super::games::Part;
use super::replay::{candidates, replay};
use super::train::{bar, game_records};

/// Arguments of `kosumi patterns test`.
#[derive(clap::Args, Debug)]
pub struct TestArgs {
    /// SGF files, directories of them, or `.tar.gz` archives.
    #[arg(required = true)]
    pub games: Vec<PathBuf>,
    /// The model file.
    #[arg(long)]
    pub model: PathBuf,
    /// Test games to use at most (the first by file name).
    #[arg(long)]
    pub max_games: Option<usize>,
    /// One game in SPLIT is a test game (as in `train`).
    #[arg(long, default_value_t = 10)]
    pub split: u64,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// Move-number ranges of the per-phase figures.
const PHASES: [(usize, usize); 6] = [
    (1, 20),
    (21, 50),
    (51, 100),
    (101, 150),
    (151, 250),
    (251, usize::MAX),
];

/// Sums over positions.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    positions: f64,
    top1: f64,
    top5: f64,
    top10: f64,
    log_likelihood: f64,
    phase_positions: [f64; PHASES.len()],
    phase_top1: [f64; PHASES.len()],
}

impl Tally {
    fn add(&mut self, o: &Tally) {
        self.positions += o.positions;
        self.top1 += o.top1;
        self.top5 += o.top5;
        self.top10 += o.top10;
        self.log_likelihood += o.log_likelihood;
        for k in 0..PHASES.len() {
            self.phase_positions[k] += o.phase_positions[k];
            self.phase_top1[k] += o.phase_top1[k];
        }
    }
}

/// Return the chance that the played move is among the first `k` when
/// `better` moves rate higher and `equal` (itself included) the same.
fn within(k: usize, better: usize, equal: usize) -> f64 {
    ((k as f64 - better as f64) / equal.max(1) as f64).clamp(0.0, 1.0)
}

/// Run `kosumi patterns test`.
///
/// # Errors
/// A message for an unreadable or corrupt model or unreadable games.
pub fn run(args: &TestArgs) -> Result<(), String> {
    let start = Instant::now();
    let bytes = std::fs::read(&args.model).map_err(|e| format!("{}: {e}", args.model.display()))?;
    let model = Model::parse(&bytes).map_err(|e| format!("model {}: {e}", args.model.display()))?;
    let mut slots = vec![Slot::EMPTY; Patterns::slots_for(model.patterns())];
    let patterns = Patterns::build(model, &mut slots).map_err(|e| e.to_string())?;
    let records = game_records(&args.games, Part::Test, args.split, None, args.max_games)?;
    let bar = bar(records.len() as u64, "test games", args.quiet || args.json);
    let tallies: Vec<Tally> = records
        .par_iter()
        .map(|r| {
            let mut ladder: Box<Ladder> = Box::default();
            let mut t = Tally::default();
            let mut moves = Vec::new();
            let mut gammas = Vec::new();
            replay(r, |board, c, played, number| {
                candidates(board, c, &mut moves);
                if !moves.contains(&played) {
                    return;
                }
                gammas.clear();
                let mut g_played = 0.0f64;
                for &m in &moves {
                    let g = f64::from(patterns.rate(board, m, c, &mut *ladder).gamma);
                    if m == played {
                        g_played = g;
                    }
                    gammas.push(g);
                }
                let total: f64 = gammas.iter().sum();
                let better = gammas.iter().filter(|&&g| g > g_played).count();
                let equal = gammas.iter().filter(|&&g| g == g_played).count();
                let hit = within(1, better, equal);
                t.positions += 1.0;
                t.top1 += hit;
                t.top5 += within(5, better, equal);
                t.top10 += within(10, better, equal);
                t.log_likelihood += (g_played / total).ln();
                if let Some(k) = PHASES.iter().position(|&(a, b)| (a..=b).contains(&number)) {
                    t.phase_positions[k] += 1.0;
                    t.phase_top1[k] += hit;
                }
            });
            bar.inc(1);
            t
        })
        .collect();
    bar.finish_and_clear();
    let mut t = Tally::default();
    for x in &tallies {
        t.add(x);
    }
    let n = t.positions.max(1.0);
    let pct = |x: f64| 100.0 * x / n;
    let phases: Vec<(String, f64, f64)> = PHASES
        .iter()
        .enumerate()
        .map(|(k, &(a, b))| {
            let name = if b == usize::MAX {
                format!("{a}+")
            } else {
                format!("{a}-{b}")
            };
            let p = t.phase_positions[k];
            (name, p, 100.0 * t.phase_top1[k] / p.max(1.0))
        })
        .collect();
    if args.json {
        let phase_json: Vec<serde_json::Value> = phases
            .iter()
            .map(|(name, p, top1)| serde_json::json!({"moves": name, "positions": p, "top1": top1}))
            .collect();
        println!(
            "{}",
            serde_json::json!({
                "model": args.model.display().to_string(),
                "patterns": model.patterns(),
                "games": records.len(),
                "positions": t.positions,
                "top1": pct(t.top1),
                "top5": pct(t.top5),
                "top10": pct(t.top10),
                "mean_log_likelihood": t.log_likelihood / n,
                "by_move_number": phase_json,
                "seconds": start.elapsed().as_secs_f64(),
            })
        );
        return Ok(());
    }
    println!(
        "kosumi patterns test: {} ({} patterns) on {} test games, {} positions",
        args.model.display(),
        model.patterns(),
        records.len(),
        t.positions
    );
    println!(
        "  top-1 {:.2}%  top-5 {:.2}%  top-10 {:.2}%  mean log-likelihood {:.4}",
        pct(t.top1),
        pct(t.top5),
        pct(t.top10),
        t.log_likelihood / n
    );
    for (name, p, top1) in &phases {
        println!("  moves {name:>8}: top-1 {top1:.2}% of {p} positions");
    }
    println!("  {:.1} s", start.elapsed().as_secs_f64());
    Ok(())
}
