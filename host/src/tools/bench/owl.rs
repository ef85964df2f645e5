//! `kosumi bench owl`: what life-and-death reading would cost an engine
//! in play. A game record is replayed; every `--every` moves, the owl is
//! asked whether each chain of at least `--min-stones` stones can be
//! killed (its opponent moving) and can live (its owner moving), as a
//! search's root would ask before it chooses a move, with the tactical
//! cache kept over the game and with none ([`super::questions`]).
//!
//! Figures: those of [`super::questions::Summary`] (times, the owl's moves
//! and moves a second, the cache's hit rate, answers shared) and the
//! verdicts: dragons that can be killed, that can live, and both
//! (critical).

use std::path::PathBuf;

use kosumi_core::board::Board;
use kosumi_core::table::TacticCluster;
use kosumi_core::tactics::owl::{Owl, OwlGoal, OwlProblem, OWL_BUDGET};
use kosumi_core::tactics::{Answer, Budget, NoStorage, Reader, ReaderStats};

use super::questions::{ask_over_game, cache, chains, Solvers, Summary};

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

/// The owl with a cache kept over the game, and one with none.
struct OwlSolvers<'t> {
    cached: Reader<'t, Box<[TacticCluster]>>,
    uncached: Reader<'static, NoStorage>,
    owl: Box<Owl>,
    owl_off: Box<Owl>,
    budget: Budget,
    min_stones: usize,
}

impl Solvers for OwlSolvers<'_> {
    type Question = OwlProblem;

    fn questions(&self, board: &Board) -> Vec<OwlProblem> {
        chains(board, self.min_stones)
            .into_iter()
            .flat_map(|target| {
                [OwlGoal::Kill, OwlGoal::Live].map(|goal| OwlProblem { goal, target })
            })
            .collect()
    }

    fn solve(&mut self, cached: bool, board: &mut Board, q: OwlProblem) -> Answer {
        if cached {
            self.owl.solve(&mut self.cached, board, q, self.budget)
        } else {
            self.owl_off
                .solve(&mut self.uncached, board, q, self.budget)
        }
    }

    fn stats(&self) -> (ReaderStats, ReaderStats) {
        // The owl counts the nodes of its capture reads among its own; the
        // summary shows them apart.
        let own = |o: ReaderStats, reads: u64| ReaderStats {
            nodes: o.nodes.saturating_sub(reads),
            ..o
        };
        let (reads, reads_off) = self.reads();
        (
            own(self.owl.stats(), reads.nodes),
            own(self.owl_off.stats(), reads_off.nodes),
        )
    }

    fn reads(&self) -> (ReaderStats, ReaderStats) {
        (self.cached.stats(), self.uncached.stats())
    }
}

/// Replay the game and ask every question, with and without a cache.
///
/// # Errors
/// The file cannot be read, holds no game this build can replay, or the
/// arguments are out of range.
pub fn run(args: &Args) -> Result<(), String> {
    let mut table = cache(args.cache_mb)?;
    let mut solvers = OwlSolvers {
        cached: Reader::new(&mut table),
        uncached: Reader::without_cache(),
        owl: Box::default(),
        owl_off: Box::default(),
        budget: Budget {
            nodes: args.nodes,
            depth: OWL_BUDGET.depth,
        },
        min_stones: args.min_stones,
    };
    let r = ask_over_game(&args.game, args.every, args.json, &mut solvers)?;
    let summary = Summary::of(&r, &solvers);
    let works = |goal: OwlGoal| r.succeeded(|q| q.goal == goal);
    let (killable, can_live) = (works(OwlGoal::Kill), works(OwlGoal::Live));
    // Critical: both questions about one chain succeed.
    let critical = r.both_succeed();
    let chains = r.asked.len() / 2;

    if args.json {
        let mut obj = r.json(&args.game, args.every, args.nodes, &summary);
        obj.insert("killable".into(), killable.into());
        obj.insert("can_live".into(), can_live.into());
        obj.insert("critical".into(), critical.into());
        println!("{}", serde_json::Value::Object(obj));
        return Ok(());
    }
    println!(
        "kosumi bench owl: {} ({} moves), every {} moves, chains of {}+ stones, budget {} moves",
        args.game.display(),
        r.moves,
        args.every,
        args.min_stones,
        args.nodes
    );
    println!(
        "  {} positions, {} questions ({chains} chains, kill and live)",
        r.positions,
        r.asked.len()
    );
    summary.print("owl moves");
    println!(
        "  verdicts: {killable} of {chains} chains can be killed, {can_live} can live, {critical} both (critical)"
    );
    Ok(())
}
