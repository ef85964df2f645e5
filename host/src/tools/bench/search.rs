//! `kosumi bench search`: one full search from the empty board, on one
//! thread unless `--threads` says otherwise (root parallelism, as
//! `genmove` does it: the playouts are shared between the threads), with a
//! fixed seed and playout count (deterministic: the printed signature
//! changes only when search behaviour changes).

use std::time::Instant;

use kosumi_core::playout::RuleStats;
use kosumi_core::search::{Budget, Params};

use super::playouts::komi2;
use kosumi::gtp::parallel::{self, Helpers, Shape};
use kosumi::gtp::patterns::ModelArgs;
use kosumi::gtp::searcher::Searcher;
use kosumi::gtp::tactics::Tactics;
use kosumi::policy::{Ladders, PolicyName};

/// Arguments of `kosumi bench search`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Board size.
    #[arg(long, default_value_t = 9)]
    pub size: usize,
    /// Playouts of the search.
    #[arg(long, default_value_t = 20_000)]
    pub playouts: u32,
    /// Random seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Komi.
    #[arg(long, default_value_t = 7.0, allow_negative_numbers = true)]
    pub komi: f64,
    /// Node pool in MiB.
    #[arg(long, default_value_t = 256)]
    pub tree_mb: usize,
    /// Best-move table in MiB.
    #[arg(long, default_value_t = 16)]
    pub hash_mb: usize,
    /// Search without the best-move table.
    #[arg(long)]
    pub no_table: bool,
    /// Search without iterative deepening.
    #[arg(long)]
    pub no_deepening: bool,
    /// End each deepening iteration by dropping the tree (Valkyria's).
    #[arg(long)]
    pub drop_tree: bool,
    /// Write the search's best moves to the best-move table at its end
    /// (the engine does with a book).
    #[arg(long)]
    pub store_searches: bool,
    /// Tactical cache in MiB.
    #[arg(long, default_value_t = kosumi::gtp::tactics::DEFAULT_MB)]
    pub tactics_mb: usize,
    /// Search without the tactical reader in the priors.
    #[arg(long)]
    pub no_tactics: bool,
    /// The playout policy (the engine's default).
    #[arg(long, value_enum, default_value_t = PolicyName::Heavy)]
    pub playout: PolicyName,
    /// Search threads (the playouts are shared between them).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Print the per-iteration lines to stderr.
    #[arg(long)]
    pub verbose: bool,
    /// The move-pattern model.
    #[command(flatten)]
    pub model: ModelArgs,
    /// No last good replies (LGRF-2) in the playouts (on by default, as in
    /// the engine).
    #[arg(long)]
    pub no_replies: bool,
    /// No ladder reading in the heavy playouts (on by default with a
    /// model, as in the engine).
    #[arg(long)]
    pub no_playout_ladders: bool,
    /// Chance of the playouts' two-liberty ladder reads (default the
    /// core's).
    #[arg(long)]
    pub playout_ladders: Option<f32>,
    /// Chance of the playouts' fight rules: the two-liberty check and the
    /// nakade check (default the core's).
    #[arg(long, value_parser = kosumi::gtp::options::unit_interval)]
    pub playout_fights: Option<f32>,
    /// Learned answers to the last move in the playouts, from this file.
    #[arg(long)]
    pub local_answers: Option<std::path::PathBuf>,
    /// Progressive widening: children a node chooses from at first (0:
    /// all; default the engine's).
    #[arg(long)]
    pub widen_base: Option<u16>,
    /// Progressive widening: visits at which the next child joins.
    #[arg(long)]
    pub widen_start: Option<u32>,
    /// Print one JSON object instead of a report.
    #[arg(long)]
    pub json: bool,
}

/// Run the search benchmark.
///
/// # Errors
/// Bad size, komi or pool size.
pub fn run(args: &Args) -> Result<(), String> {
    let board = super::empty_board(args.size)?;
    let komi2 = komi2(args.komi)?;
    if args.playouts == 0 {
        return Err("--playouts must be at least 1".into());
    }
    if args
        .playout_ladders
        .is_some_and(|c| !(0.0..=1.0).contains(&c))
    {
        return Err("--playout-ladders must be between 0 and 1".into());
    }
    let mut params = Params::default();
    params.deepening.enabled = !args.no_deepening;
    params.deepening.drop_tree = args.drop_tree;
    params.store_searches = args.store_searches;
    params.policy = args.playout.policy(
        kosumi::gtp::options::PLAYOUT_CAPTURE,
        Ladders::from_options(args.no_playout_ladders, args.playout_ladders),
        args.playout_fights,
    );
    params.pattern_prior = args
        .model
        .pattern_prior
        .unwrap_or(Params::pattern_prior_for(args.size));
    params.widening.base = args.widen_base.unwrap_or(params.widening.base);
    params.widening.start = args.widen_start.unwrap_or(params.widening.start);
    let patterns = args.model.load()?;
    let mut s = Searcher::new(args.tree_mb, args.hash_mb, params, args.seed)?;
    s.use_table = !args.no_table;
    s.use_replies(!args.no_replies);
    let local = match &args.local_answers {
        Some(path) => Some(kosumi::gtp::patterns::load_local(path)?),
        None => None,
    };
    s.local = local;
    let mut tactics = Tactics::new(args.tactics_mb)?;
    if !(1..=256).contains(&args.threads) {
        return Err("--threads must be 1..=256".into());
    }
    let mut helpers = Helpers::default();
    let shape = Shape {
        helpers: args.threads - 1,
        tree_mb: args.tree_mb,
        tactics_mb: if args.no_tactics { 0 } else { args.tactics_mb },
        seed: args.seed,
    };
    helpers.prepare(shape, params, !args.no_replies, local)?;
    let budgets = parallel::split(Budget::playouts(args.playouts), args.threads);
    let tactics = (!args.no_tactics).then_some(&mut tactics.cache);
    let start = Instant::now();
    let (r, _) = parallel::run(
        &mut s,
        &mut helpers,
        &board,
        komi2,
        &[],
        patterns,
        budgets,
        |s, b| s.run(&board, komi2, &[], b, tactics, patterns, args.verbose),
    )?;
    let secs = start.elapsed().as_secs_f64();
    let pps = f64::from(r.playouts) / secs;
    let mut buf = [0u8; 4];
    let best = board.geometry().vertex_str(r.best, &mut buf).to_string();
    if args.json {
        let obj = serde_json::json!({
            "size": args.size,
            "playouts": r.playouts,
            "seed": args.seed,
            "threads": args.threads,
            "komi": args.komi,
            "seconds": secs,
            "playouts_per_sec": pps,
            "nodes": r.nodes,
            "best_move": best,
            "win_rate": r.win_rate,
            "best_visits": r.visits,
            "iterations": r.iterations,
            "table_hits": r.hits,
            "table_misses": r.misses,
            "table_entries": s.table_used(),
            "prunes": r.prunes,
            "max_depth": r.max_depth,
            "table": !args.no_table,
            "deepening": !args.no_deepening,
            "tactics": !args.no_tactics,
            "patterns": patterns.is_some(),
        });
        println!("{obj}");
        return Ok(());
    }
    println!(
        "kosumi bench search: {}x{}, {} playouts, {} thread(s), seed {}, komi {}, table {}, deepening {}, tactics {}, patterns {}",
        args.size,
        args.size,
        r.playouts,
        args.threads,
        args.seed,
        args.komi,
        if args.no_table { "off" } else { "on" },
        if args.no_deepening { "off" } else { "on" },
        if args.no_tactics { "off" } else { "on" },
        if patterns.is_some() { "on" } else { "off" },
    );
    println!("  [speed]  {:.1} kpps ({secs:.3} s)", pps / 1e3);
    println!(
        "  [best]   {best}, win rate {:.3}, {} visits",
        r.win_rate, r.visits
    );
    println!(
        "  [tree]   {} nodes, depth {}, {} prunes, {} iterations",
        r.nodes, r.max_depth, r.prunes, r.iterations
    );
    println!(
        "  [table]  {} hits, {} misses, {} entries",
        r.hits,
        r.misses,
        s.table_used()
    );
    if RuleStats::enabled() {
        // The main thread's playouts (`--features stats`).
        let st = s.search.rule_stats();
        let per = |n: u64| n as f64 / st.playouts.max(1) as f64;
        println!(
            "  [rules]  a playout: {:.1} moves, {:.2} shape, {:.2} replies, {:.3} ladder escapes refused, {:.3} ladder moves, {:.3} two-liberty moves, {:.3} nakade moves",
            per(st.moves),
            per(st.pattern_moves),
            per(st.reply_moves),
            per(st.ladder_escapes_refused),
            per(st.ladder_moves),
            per(st.two_liberty_moves),
            per(st.nakade_moves)
        );
    }
    Ok(())
}
