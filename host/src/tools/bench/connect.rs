//! `kosumi bench connect`: what connection reading costs over a game. A
//! game record is replayed; every `--every` moves, the connection reader
//! is asked of each two chains of one colour at most `--gap` points apart
//! (Manhattan distance between their nearest stones) whether they can be
//! connected (their owner moving) and cut (the opponent moving), with the
//! tactical cache kept over the game and with none
//! ([`super::questions`]).
//!
//! Figures: those of [`super::questions::Summary`] (times, the
//! connector's moves and moves a second, the cache's hit rate, answers
//! shared) and the verdicts: pairs that can be connected, that can be
//! cut, and both (the pair's fate is the next move's).

use std::path::PathBuf;

use kosumi_core::board::Board;
use kosumi_core::geometry::Point;
use kosumi_core::table::TacticCluster;
use kosumi_core::tactics::{
    Answer, Budget, Connector, LinkGoal, LinkProblem, NoStorage, Reader, ReaderStats, LINK_BUDGET,
};

use super::questions::{ask_over_game, cache, chains, Solvers, Summary};

/// Arguments of `kosumi bench connect`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game record to replay (SGF; its first game's main line).
    pub game: PathBuf,
    /// Ask the questions after every N-th move.
    #[arg(long, default_value_t = 10)]
    pub every: usize,
    /// Ask about two chains at most this many points apart.
    #[arg(long, default_value_t = 2)]
    pub gap: usize,
    /// Budget of a question in the connector's moves (the GTP commands'
    /// by default).
    #[arg(long, default_value_t = LINK_BUDGET.nodes)]
    pub nodes: u32,
    /// Size of the tactical cache in MiB.
    #[arg(long, default_value_t = 16)]
    pub cache_mb: usize,
    /// Print one JSON object instead of a report.
    #[arg(long)]
    pub json: bool,
}

/// The pairs of chains of one colour at most `gap` points apart, one stone
/// of each.
fn pairs(board: &Board, gap: usize) -> Vec<(Point, Point)> {
    let geo = board.geometry();
    let chains = chains(board, 1);
    let stones: Vec<Vec<(usize, usize)>> = chains
        .iter()
        .map(|&c| board.chain_stones(c).map(|p| geo.coords(p)).collect())
        .collect();
    let near = |x: &[(usize, usize)], y: &[(usize, usize)]| {
        x.iter()
            .any(|&(a, b)| y.iter().any(|&(c, d)| a.abs_diff(c) + b.abs_diff(d) <= gap))
    };
    let mut out = Vec::new();
    for (i, &a) in chains.iter().enumerate() {
        for (j, &b) in chains.iter().enumerate().skip(i + 1) {
            if board.at(a) == board.at(b) && near(&stones[i], &stones[j]) {
                out.push((a, b));
            }
        }
    }
    out
}

/// The connector with a cache kept over the game, and one with none.
struct LinkSolvers<'t> {
    cached: Reader<'t, Box<[TacticCluster]>>,
    uncached: Reader<'static, NoStorage>,
    link: Box<Connector>,
    link_off: Box<Connector>,
    budget: Budget,
    gap: usize,
}

impl Solvers for LinkSolvers<'_> {
    type Question = LinkProblem;

    fn questions(&self, board: &Board) -> Vec<LinkProblem> {
        pairs(board, self.gap)
            .into_iter()
            .flat_map(|(a, b)| {
                [LinkGoal::Connect, LinkGoal::Disconnect].map(|goal| LinkProblem { goal, a, b })
            })
            .collect()
    }

    fn solve(&mut self, cached: bool, board: &mut Board, q: LinkProblem) -> Answer {
        if cached {
            self.link.solve(&mut self.cached, board, q, self.budget)
        } else {
            self.link_off
                .solve(&mut self.uncached, board, q, self.budget)
        }
    }

    fn stats(&self) -> (ReaderStats, ReaderStats) {
        (self.link.stats(), self.link_off.stats())
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
    let mut solvers = LinkSolvers {
        cached: Reader::new(&mut table),
        uncached: Reader::without_cache(),
        link: Box::default(),
        link_off: Box::default(),
        budget: Budget {
            nodes: args.nodes,
            depth: LINK_BUDGET.depth,
        },
        gap: args.gap,
    };
    let r = ask_over_game(&args.game, args.every, args.json, &mut solvers)?;
    let summary = Summary::of(&r, &solvers);
    let works = |goal: LinkGoal| r.succeeded(|q| q.goal == goal);
    let (joinable, cuttable) = (works(LinkGoal::Connect), works(LinkGoal::Disconnect));
    // Both: the two questions about one pair succeed.
    let both = r.both_succeed();
    let pairs = r.asked.len() / 2;

    if args.json {
        let mut obj = r.json(&args.game, args.every, args.nodes, &summary);
        obj.insert("connectable".into(), joinable.into());
        obj.insert("cuttable".into(), cuttable.into());
        obj.insert("both".into(), both.into());
        println!("{}", serde_json::Value::Object(obj));
        return Ok(());
    }
    println!(
        "kosumi bench connect: {} ({} moves), every {} moves, chains at most {} points apart, budget {} moves",
        args.game.display(),
        r.moves,
        args.every,
        args.gap,
        args.nodes
    );
    println!(
        "  {} positions, {} questions ({pairs} pairs, connect and cut)",
        r.positions,
        r.asked.len()
    );
    summary.print("connector moves");
    println!(
        "  verdicts: {joinable} of {pairs} pairs can be connected, {cuttable} can be cut, {both} both"
    );
    Ok(())
}
