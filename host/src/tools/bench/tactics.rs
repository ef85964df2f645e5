//! `kosumi bench tactics`: the tactical reader over the problem suite
//! (`tests/data/tactics`) and over chains with 1-2 liberties taken from
//! random games.
//!
//! Figures:
//! * suite: problems solved / problems, nodes, nodes/s, cache probes, hits
//!   and hit rate, time per problem (mean, median); all problems share one
//!   tactical cache allocated once (`--cache-mb`, default 16 MiB);
//! * random: for `--random N` chains from waterfall playouts stopped midway
//!   (9x9 and 19x19 alternately, `--seed S`), "capture" and "save" each,
//!   with the same cache: nodes, nodes/s, time per question;
//! * in-game: an engine's workload, where the never-flushed cache pays:
//!   a 19x19 waterfall game of `--game-moves` moves, and after every move
//!   "capture" and "save" for every chain with 1-2 liberties. Most chains
//!   are untouched by the last move, so their region (and key) is
//!   unchanged and the answer comes from the cache; reported with the hit
//!   rate, and against the same questions with the cache off;
//! * ladders only: nodes/s over the ladder problems (files whose name
//!   starts with `ladder`) with the cache OFF (cache hits would make nodes/s
//!   meaningless), repeated `--repeat K` times; the best and median rates.

use std::path::PathBuf;
use std::time::Instant;

use kosumi_core::board::Board;
use kosumi_core::geometry::{Cell, Color, Point};
use kosumi_core::playout::{policy_move, Policy, RuleStats};
use kosumi_core::rng;
use kosumi_core::table::{clusters_in, Cluster, Table, TacticCluster};
use kosumi_core::tactics::{Budget, Goal, Problem, Reader};
use kosumi_suite::{load_dir, SuiteProblem};

/// Arguments of `kosumi bench tactics`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Print one JSON object instead of a report.
    #[arg(long)]
    pub json: bool,
    /// Directory of the suite's `*.txt` files (default: the repository's `tests/data/tactics`).
    #[arg(long)]
    pub suite: Option<PathBuf>,
    /// Number of random-game positions to read (each gives a capture and a save question).
    #[arg(long, default_value_t = 200)]
    pub random: u32,
    /// Seed of the random games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Repetitions of the cache-off ladder timing.
    #[arg(long, default_value_t = 5)]
    pub repeat: u32,
    /// Size of the shared tactical cache in MiB.
    #[arg(long, default_value_t = 16)]
    pub cache_mb: usize,
    /// Node budget per question.
    #[arg(long, default_value_t = 200_000)]
    pub nodes: u32,
    /// Depth budget per question (plies).
    #[arg(long, default_value_t = 60)]
    pub depth: u8,
    /// Moves of the in-game workload (0: skip it).
    #[arg(long, default_value_t = 250)]
    pub game_moves: u32,
}

/// Figures of the in-game workload.
struct GameFigures {
    questions: u64,
    nodes: u64,
    probes: u64,
    hits: u64,
    secs: f64,
    nodes_off: u64,
    secs_off: f64,
    agree: bool,
}

/// Play a 19x19 waterfall game and, after every move, ask capture and save
/// for every chain with 1-2 liberties: once with `table`, once without a
/// cache; the answers must agree.
fn in_game<S: AsRef<[TacticCluster]> + AsMut<[TacticCluster]>>(
    table: &mut Table<TacticCluster, S>,
    moves: u32,
    seed: u64,
    budget: Budget,
) -> GameFigures {
    let mut rng = rng::seeded(seed);
    let mut stats = RuleStats::default();
    let mut board = Board::new(19).unwrap_or_else(|_| unreachable!("19x19 build"));
    let mut f = GameFigures {
        questions: 0,
        nodes: 0,
        probes: 0,
        hits: 0,
        secs: 0.0,
        nodes_off: 0,
        secs_off: 0.0,
        agree: true,
    };
    let mut cached = Reader::new(table);
    let mut uncached = Reader::without_cache();
    let geo = board.geometry();
    for _ in 0..moves {
        let c = board.to_play();
        let p = policy_move(&mut board, Policy::waterfall(), &mut rng, &mut stats);
        board.play_legal(p, c);
        if board.passes() >= 2 {
            break;
        }
        let mut roots: Vec<Point> = Vec::new();
        for q in geo.points() {
            if let Some(r) = board.chain_root(q) {
                if !roots.contains(&r) && board.liberty_count_capped::<3>(q) <= 2 {
                    roots.push(r);
                }
            }
        }
        for &target in &roots {
            for goal in [Goal::Capture, Goal::Save] {
                let problem = Problem { goal, target };
                let t = Instant::now();
                let a = cached.solve(&mut board, problem, budget);
                f.secs += t.elapsed().as_secs_f64();
                let t = Instant::now();
                let b = uncached.solve(&mut board, problem, budget);
                f.secs_off += t.elapsed().as_secs_f64();
                f.agree &= a == b;
                f.questions += 1;
            }
        }
    }
    let s = cached.stats();
    (f.nodes, f.probes, f.hits) = (s.nodes, s.probes, s.hits);
    f.nodes_off = uncached.stats().nodes;
    f
}

/// The suite directory of this source tree.
fn default_suite() -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/data/tactics"
    ))
}

/// A question ready to solve.
struct Case {
    board: Board,
    problem: Problem,
}

fn mean(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        0.0
    } else {
        xs.iter().sum::<f64>() / xs.len() as f64
    }
}

fn median(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if !n.is_multiple_of(2) {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn rate(n: u64, secs: f64) -> f64 {
    if secs > 0.0 {
        n as f64 / secs
    } else {
        0.0
    }
}

/// Return positions from random games: waterfall playouts stopped after a
/// random number of moves, with every chain of 1-2 liberties asked about.
fn random_cases(count: u32, seed: u64) -> Vec<Case> {
    let mut rng = rng::seeded(seed);
    let mut stats = RuleStats::default();
    let mut cases = Vec::new();
    let mut game = 0u32;
    while cases.len() < 2 * count as usize && game < 100 * count.max(1) {
        let size = if game.is_multiple_of(2) { 9 } else { 19 };
        game += 1;
        let Ok(mut board) = Board::new(size) else {
            continue;
        };
        let area = (size * size) as u32;
        let stop = area / 3 + rng::below(&mut rng, area / 2);
        for _ in 0..stop {
            let c = board.to_play();
            let p = policy_move(&mut board, Policy::waterfall(), &mut rng, &mut stats);
            if p.is_pass() {
                board.play(Point::PASS, c).ok();
            } else {
                board.play_legal(p, c);
            }
            if board.passes() >= 2 {
                break;
            }
        }
        // Chains with 1-2 liberties, one question pair per chain, at most 4 chains a position.
        let geo = board.geometry();
        let mut seen: Vec<Point> = Vec::new();
        let mut picked = 0;
        for p in geo.points() {
            if picked == 4 || cases.len() >= 2 * count as usize {
                break;
            }
            if board.at(p) == Cell::Empty || board.at(p) == Cell::Off {
                continue;
            }
            let Some(root) = board.chain_root(p) else {
                continue;
            };
            if seen.contains(&root) || board.liberty_count_capped::<3>(p) > 2 {
                continue;
            }
            seen.push(root);
            picked += 1;
            for goal in [Goal::Capture, Goal::Save] {
                let mut b = board.clone();
                let owner = b.at(p).color().unwrap_or(Color::Black);
                b.set_to_play(match goal {
                    Goal::Capture => owner.opponent(),
                    Goal::Save => owner,
                });
                cases.push(Case {
                    board: b,
                    problem: Problem { goal, target: p },
                });
            }
        }
    }
    cases
}

/// Run the tactics benchmark.
///
/// # Errors
/// An unreadable suite, a bad cache size.
pub fn run(args: &Args) -> Result<(), String> {
    let dir = args.suite.clone().unwrap_or_else(default_suite);
    let problems: Vec<SuiteProblem> = load_dir(&dir).map_err(|e| e.to_string())?;
    let budget = Budget {
        nodes: args.nodes,
        depth: args.depth,
    };
    let mut suite_cases = Vec::new();
    let mut skipped = 0usize;
    for p in &problems {
        match p.board() {
            Ok(board) => suite_cases.push((p, board)),
            Err(_) => skipped += 1, // e.g. 19x19 problems in a size9 build
        }
    }
    let clusters = clusters_in::<TacticCluster>(args.cache_mb << 20);
    if clusters == 0 {
        return Err("--cache-mb must be at least 1".into());
    }
    let storage = vec![TacticCluster::EMPTY; clusters].into_boxed_slice();
    let mut table = Table::new(storage).map_err(|e| format!("cache: {e:?}"))?;

    // Suite with the shared cache.
    let mut times = Vec::with_capacity(suite_cases.len());
    let mut solved = 0usize;
    let mut failed: Vec<&str> = Vec::new();
    let (suite_nodes, suite_probes, suite_hits, suite_secs);
    {
        let mut reader = Reader::new(&mut table);
        let start = Instant::now();
        for (p, board) in &mut suite_cases {
            let t = Instant::now();
            let answer = reader.solve(board, p.problem(), budget);
            times.push(t.elapsed().as_secs_f64());
            if p.accepts(&answer) {
                solved += 1;
            } else {
                failed.push(&p.name);
            }
        }
        suite_secs = start.elapsed().as_secs_f64();
        let s = reader.stats();
        (suite_nodes, suite_probes, suite_hits) = (s.nodes, s.probes, s.hits);
    }

    // Random-game questions with the same cache.
    let mut random = random_cases(args.random, args.seed);
    let (random_nodes, random_probes, random_hits, random_secs);
    let mut random_proven = 0usize;
    {
        let mut reader = Reader::new(&mut table);
        let start = Instant::now();
        for c in &mut random {
            let a = reader.solve(&mut c.board, c.problem, budget);
            random_proven += usize::from(a.proven);
        }
        random_secs = start.elapsed().as_secs_f64();
        let s = reader.stats();
        (random_nodes, random_probes, random_hits) = (s.nodes, s.probes, s.hits);
    }

    // An engine's in-game workload, with a fresh cache of the same size.
    let game = (args.game_moves > 0).then(|| {
        table.clear();
        in_game(&mut table, args.game_moves, args.seed, budget)
    });
    if let Some(g) = &game {
        if !g.agree {
            return Err("in-game answers differ with and without the cache".into());
        }
    }

    // Ladders only, cache off.
    let mut ladder_rates = Vec::new();
    let mut ladder_nodes = 0u64;
    let ladder_count = suite_cases
        .iter()
        .filter(|(p, _)| p.file.starts_with("ladder"))
        .count();
    for _ in 0..args.repeat.max(1) {
        let mut reader = Reader::without_cache();
        let start = Instant::now();
        for (p, board) in suite_cases
            .iter_mut()
            .filter(|(p, _)| p.file.starts_with("ladder"))
        {
            std::hint::black_box(reader.solve(board, p.problem(), budget));
        }
        let secs = start.elapsed().as_secs_f64();
        ladder_nodes = reader.stats().nodes;
        ladder_rates.push(rate(ladder_nodes, secs));
    }
    let ladder_nps = median(&ladder_rates);
    let ladder_best = ladder_rates.iter().copied().fold(0.0, f64::max);

    let probes = suite_probes + random_probes;
    let hits = suite_hits + random_hits;
    let hit_rate = if probes > 0 {
        hits as f64 / probes as f64
    } else {
        0.0
    };
    let nodes = suite_nodes + random_nodes;
    let nps = rate(nodes, suite_secs + random_secs);
    let mean_us = mean(&times) * 1e6;
    let median_us = median(&times) * 1e6;

    // The headline hit rate is the in-game one: that is the workload the
    // never-flushed cache is for (suite and random questions never repeat).
    let game_hit_rate = game
        .as_ref()
        .map(|g| g.hits as f64 / g.probes.max(1) as f64);
    if args.json {
        let mut obj = serde_json::json!({
            "suite": dir.display().to_string(),
            "problems": suite_cases.len(),
            "skipped": skipped,
            "solved": solved,
            "failed": failed,
            "suite_nodes": suite_nodes,
            "suite_seconds": suite_secs,
            "suite_nodes_per_sec": rate(suite_nodes, suite_secs),
            "problem_us_mean": mean_us,
            "problem_us_median": median_us,
            "random_questions": random.len(),
            "random_proven": random_proven,
            "random_nodes": random_nodes,
            "random_seconds": random_secs,
            "random_nodes_per_sec": rate(random_nodes, random_secs),
            "nodes": nodes,
            "nodes_per_sec": nps,
            "cache_mb": args.cache_mb,
            "cache_probes": probes,
            "cache_hits": hits,
            "cache_hit_rate": game_hit_rate.unwrap_or(hit_rate),
            "suite_random_cache_hit_rate": hit_rate,
            "ladder_problems": ladder_count,
            "ladder_nodes": ladder_nodes,
            "ladder_repeat": args.repeat.max(1),
            "ladder_nodes_per_sec": ladder_nps,
            "ladder_nodes_per_sec_best": ladder_best,
            "budget_nodes": args.nodes,
            "budget_depth": args.depth,
            "seed": args.seed,
        });
        if let Some(g) = &game {
            obj["game"] = serde_json::json!({
                "moves": args.game_moves,
                "questions": g.questions,
                "nodes": g.nodes,
                "probes": g.probes,
                "hits": g.hits,
                "hit_rate": g.hits as f64 / g.probes.max(1) as f64,
                "us_per_question_cached": g.secs * 1e6 / g.questions.max(1) as f64,
                "us_per_question_uncached": g.secs_off * 1e6 / g.questions.max(1) as f64,
                "nodes_uncached": g.nodes_off,
            });
        }
        println!("{obj}");
        return Ok(());
    }
    println!(
        "kosumi bench tactics: suite {} ({} problems{}), cache {} MiB, budget {} nodes / {} plies",
        dir.display(),
        suite_cases.len(),
        if skipped > 0 {
            format!(", {skipped} skipped: board too large for this build")
        } else {
            String::new()
        },
        args.cache_mb,
        args.nodes,
        args.depth
    );
    println!(
        "  [suite]   solved {solved} / {}; {suite_nodes} nodes in {:.3} s = {:.0} nodes/s; per problem {mean_us:.1} µs mean, {median_us:.1} µs median",
        suite_cases.len(),
        suite_secs,
        rate(suite_nodes, suite_secs)
    );
    if !failed.is_empty() {
        println!("  [suite]   wrong: {}", failed.join(", "));
    }
    println!(
        "  [random]  {} questions (seed {}), {random_proven} proven; {random_nodes} nodes in {:.3} s = {:.0} nodes/s",
        random.len(),
        args.seed,
        random_secs,
        rate(random_nodes, random_secs)
    );
    println!(
        "  [all]     {nodes} nodes, {nps:.0} nodes/s; cache {probes} probes, {hits} hits, hit rate {:.1} %",
        100.0 * hit_rate
    );
    if let Some(g) = &game {
        println!(
            "  [game]    19x19, {} moves, {} questions after every move: cache hit rate {:.1} % ({} of {} probes); {:.1} µs per question cached, {:.1} µs uncached; {} nodes vs {} uncached; answers identical",
            args.game_moves,
            g.questions,
            100.0 * g.hits as f64 / g.probes.max(1) as f64,
            g.hits,
            g.probes,
            g.secs * 1e6 / g.questions.max(1) as f64,
            g.secs_off * 1e6 / g.questions.max(1) as f64,
            g.nodes,
            g.nodes_off
        );
    }
    println!(
        "  [ladders] cache off, {ladder_count} problems x {}: {ladder_nodes} nodes per pass, {ladder_nps:.0} nodes/s median, {ladder_best:.0} best",
        args.repeat.max(1)
    );
    Ok(())
}
