//! `kosumi bench playouts`: playouts from the empty board on one thread,
//! reported like the `001_*` seed (playouts/s, moves per playout, cost per
//! move, win rate, per-rule statistics).

use std::time::Instant;

use kosumi_core::playout::{playout, RuleStats};
use kosumi_core::rng;

use kosumi::policy::{Ladders, PolicyName};

/// Arguments of `kosumi bench playouts`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Board size.
    #[arg(long, default_value_t = 9)]
    pub size: usize,
    /// Playout policy.
    #[arg(long, value_enum, default_value_t = PolicyName::Light)]
    pub policy: PolicyName,
    /// Number of playouts.
    #[arg(long, default_value_t = 200_000)]
    pub playouts: u64,
    /// Random seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Komi.
    #[arg(long, default_value_t = 7.5)]
    pub komi: f64,
    /// Chance that the waterfall looks for a capture anywhere (rule 2).
    #[arg(long, default_value_t = 0.75)]
    pub capture_chance: f64,
    /// Print one JSON object instead of a report.
    #[arg(long)]
    pub json: bool,
}

/// Convert a komi to the core's half points.
///
/// # Errors
/// A komi that is not a whole number of half points.
pub fn komi2(komi: f64) -> Result<i16, String> {
    let k2 = komi * 2.0;
    if k2.fract() != 0.0 || k2.abs() > 1000.0 {
        return Err(format!("komi {komi} is not a multiple of 0.5"));
    }
    Ok(k2 as i16)
}

/// Run the playout benchmark.
///
/// # Errors
/// Bad size, komi or capture chance.
pub fn run(args: &Args) -> Result<(), String> {
    let empty = super::empty_board(args.size)?;
    let komi2 = komi2(args.komi)?;
    if !(0.0..=1.0).contains(&args.capture_chance) {
        return Err("--capture-chance must be between 0 and 1".into());
    }
    let policy = args
        .policy
        .policy(args.capture_chance, Ladders::Default, None);
    if args.playouts == 0 {
        return Err("--playouts must be at least 1".into());
    }
    let mut rng = rng::seeded(args.seed);
    let mut stats = RuleStats::default();
    let mut board = empty.clone();
    let mut moves = 0u64;
    let mut black_wins = 0u64;
    let start = Instant::now();
    for _ in 0..args.playouts {
        board.copy_from(&empty);
        let out = playout(&mut board, policy, komi2, &mut rng, &mut stats);
        moves += out.moves as u64;
        black_wins += (out.score.margin2() > 0) as u64;
    }
    let secs = start.elapsed().as_secs_f64();
    let n = args.playouts as f64;
    let pps = n / secs;
    let mpp = moves as f64 / n;
    let ns_per_move = secs * 1e9 / moves as f64;
    let bwr = black_wins as f64 / n;
    let policy_name = args.policy.name();
    if args.json {
        let mut obj = serde_json::json!({
            "size": args.size,
            "policy": policy_name,
            "playouts": args.playouts,
            "seed": args.seed,
            "komi": args.komi,
            "seconds": secs,
            "playouts_per_sec": pps,
            "moves_per_playout": mpp,
            "ns_per_move": ns_per_move,
            "black_win_rate": bwr,
            "stats_compiled": RuleStats::enabled(),
        });
        if RuleStats::enabled() {
            obj["rules"] = rules_json(&stats);
        }
        println!("{obj}");
        return Ok(());
    }
    println!(
        "kosumi bench playouts: {}x{} {policy_name}, {} playouts, seed {}, komi {}",
        args.size, args.size, args.playouts, args.seed, args.komi
    );
    println!(
        "  [game]   {:.1} kpps, {:.1} µs/playout",
        pps / 1e3,
        1e6 / pps
    );
    println!("  [moves]  {mpp:.3} per playout, {ns_per_move:.1} ns/move");
    println!("  [win]    black {bwr:.5}");
    if RuleStats::enabled() {
        print_rules(&stats);
    } else {
        println!("  (per-rule statistics not compiled in: build with the `stats` feature)");
    }
    Ok(())
}

fn pct(a: u64, b: u64) -> f64 {
    if b == 0 {
        0.0
    } else {
        100.0 * a as f64 / b as f64
    }
}

fn rules_json(s: &RuleStats) -> serde_json::Value {
    let per = |x: u64| x as f64 / s.playouts.max(1) as f64;
    serde_json::json!({
        "moves_per_playout": per(s.moves),
        "new_ataris_per_playout": per(s.new_ataris),
        "atari_capture_per_playout": per(s.atari_captures),
        "atari_capture_pct": pct(s.atari_captures, s.new_ataris),
        "atari_extend_per_playout": per(s.atari_extends),
        "atari_extend_pct": pct(s.atari_extends, s.new_ataris),
        "capture_tries_per_playout": per(s.capture_tries),
        "capture_found_pct": pct(s.captures_found, s.capture_tries),
        "capture_accepted_pct": pct(s.captures_played, s.captures_found),
        "pattern_per_playout": per(s.pattern_moves),
        "self_atari_rejects_per_playout": per(s.self_atari_rejects),
        "random_per_playout": per(s.random),
        "passes_per_playout": per(s.passes),
    })
}

fn print_rules(s: &RuleStats) {
    let per = |x: u64| x as f64 / s.playouts.max(1) as f64;
    println!("  per-rule statistics (per playout):");
    println!(
        "    [new atari]      {:.2}   (last move put a chain of the mover in atari)",
        per(s.new_ataris)
    );
    println!(
        "    [atari-capture]  {:.2}   ({:.0}% of new ataris)",
        per(s.atari_captures),
        pct(s.atari_captures, s.new_ataris)
    );
    println!(
        "    [atari-extend]   {:.2}   ({:.0}% of new ataris; {:.0}% of extensions tried)",
        per(s.atari_extends),
        pct(s.atari_extends, s.new_ataris),
        pct(s.atari_extends, s.atari_extend_tries)
    );
    println!(
        "    [capture]        {:.2} tried, found {:.0}%, accepted {:.0}% of found ({:.2} played)",
        per(s.capture_tries),
        pct(s.captures_found, s.capture_tries),
        pct(s.captures_played, s.captures_found),
        per(s.captures_played)
    );
    if s.pattern_moves + s.self_atari_rejects > 0 {
        println!(
            "    [pattern]        {:.2}   [self-atari refused] {:.2}",
            per(s.pattern_moves),
            per(s.self_atari_rejects)
        );
    }
    println!(
        "    [random]         {:.2}   [pass] {:.2}",
        per(s.random),
        per(s.passes)
    );
}
