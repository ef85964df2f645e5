//! `kosumi bench analyze`: how a GUI sees a streaming analysis. An engine
//! (kosumi by default) is asked for `lz-analyze` at an interval; the
//! bench times the gaps between its reports and, after a few reports, how
//! long the next command takes to end the stream (from the line written
//! to the blank line that closes the answer, pipes included), round after
//! round, and reports medians and maxima.

use std::time::Instant;

use crate::tools::gtp_client::Engine;

/// Arguments of `kosumi bench analyze`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The engine's command line (default: this kosumi, 19x19).
    #[arg(long)]
    engine: Option<String>,
    /// Board size.
    #[arg(long, default_value_t = 19)]
    size: usize,
    /// Centiseconds between reports asked of the engine.
    #[arg(long, default_value_t = 10)]
    interval_cs: u32,
    /// Reports read before the stream is stopped, each round.
    #[arg(long, default_value_t = 5)]
    reports: usize,
    /// Rounds (one analysis each, a move played between them).
    #[arg(long, default_value_t = 20)]
    rounds: usize,
    /// The analysis command.
    #[arg(long, default_value = "lz-analyze")]
    command: String,
    /// Playouts of each round's `reg_genmove`, timed for the speed without
    /// analysis (0: not measured; needs kosumi's `kosumi-setoption`).
    #[arg(long, default_value_t = 5000)]
    genmove_playouts: u32,
    /// Let the engine ponder this long after each round's `genmove`, then
    /// time the next command's answer (kosumi started with `--ponder`).
    #[arg(long, default_value_t = 0)]
    ponder_ms: u64,
}

/// Run the bench.
///
/// # Errors
/// A message when the engine cannot be started or answers out of turn.
pub fn run(args: &Args) -> Result<(), String> {
    let cmd = match &args.engine {
        Some(c) => c.clone(),
        None => {
            let exe = std::env::current_exe().map_err(|e| e.to_string())?;
            let ponder = if args.ponder_ms > 0 { " --ponder" } else { "" };
            format!("{} gtp --size {}{ponder}", exe.display(), args.size)
        }
    };
    let mut engine = Engine::start(&cmd)?;
    engine.send(&format!("boardsize {}", args.size))?;
    engine.send("clear_board")?;
    let mut stops = Vec::new();
    let mut gaps = Vec::new();
    let (mut analysis_rates, mut genmove_rates, mut ponder_answers) =
        (Vec::new(), Vec::new(), Vec::new());
    if args.genmove_playouts > 0 {
        engine.send(&format!(
            "kosumi-setoption playouts {}",
            args.genmove_playouts
        ))?;
    }
    let colors = ["b", "w"];
    for round in 0..args.rounds {
        let c = colors[round % 2];
        engine.write_line(&format!("{} {c} {}", args.command, args.interval_cs))?;
        let first = engine.read_line()?;
        if first != "=" {
            return Err(format!("`{}` answered {first}", args.command));
        }
        let mut last = Instant::now();
        let mut last_visits = None;
        for _ in 0..args.reports {
            let line = engine.read_line()?;
            if !line.starts_with("info ") {
                return Err(format!("not a report: {line}"));
            }
            let now = Instant::now();
            let dt = now.duration_since(last).as_secs_f64();
            gaps.push(dt * 1000.0);
            last = now;
            let visits = root_visits(&line);
            if let Some(before) = last_visits {
                if visits > before && dt > 0.0 {
                    analysis_rates.push((visits - before) as f64 / dt);
                }
            }
            last_visits = Some(visits);
        }
        let asked = Instant::now();
        engine.write_line("name")?;
        loop {
            let line = engine.read_line()?;
            if line.is_empty() {
                break;
            }
        }
        stops.push(asked.elapsed().as_secs_f64() * 1000.0);
        let name = engine.read_line()?;
        let _ = engine.read_line()?;
        if !name.starts_with('=') {
            return Err(format!("`name` after the stream answered {name}"));
        }
        if args.genmove_playouts > 0 {
            let t = Instant::now();
            engine.send(&format!("reg_genmove {c}"))?;
            genmove_rates.push(f64::from(args.genmove_playouts) / t.elapsed().as_secs_f64());
        }
        // A move, so the next round analyses a new position.
        engine.send(&format!("genmove {c}"))?;
        if args.ponder_ms > 0 {
            std::thread::sleep(std::time::Duration::from_millis(args.ponder_ms));
            let t = Instant::now();
            engine.send("name")?;
            ponder_answers.push(t.elapsed().as_secs_f64() * 1000.0);
        }
        eprint!("\rround {}/{}", round + 1, args.rounds);
    }
    eprintln!();
    engine.quit();
    let (median_stop, max_stop) = median_max(&mut stops);
    let (median_gap, max_gap) = median_max(&mut gaps);
    println!("engine: {cmd}");
    println!(
        "{} rounds of `{} COLOR {}`, {} reports each",
        args.rounds, args.command, args.interval_cs, args.reports
    );
    println!("stop latency (next command to the stream's end): median {median_stop:.1} ms, max {max_stop:.1} ms");
    println!(
        "gap between reports (asked {} ms): median {median_gap:.1} ms, max {max_gap:.1} ms",
        args.interval_cs * 10
    );
    if !analysis_rates.is_empty() && !genmove_rates.is_empty() {
        let (analysis, _) = median_max(&mut analysis_rates);
        let (genmove, _) = median_max(&mut genmove_rates);
        println!(
            "speed: analysis {analysis:.0} playouts/s, reg_genmove {genmove:.0} playouts/s (medians; ratio {:.2})",
            analysis / genmove
        );
    }
    if !ponder_answers.is_empty() {
        let (median, max) = median_max(&mut ponder_answers);
        println!(
            "answer after {} ms of ponder: median {median:.1} ms, max {max:.1} ms",
            args.ponder_ms
        );
    }
    Ok(())
}

/// Return the sum of a report's `visits` fields: the root's playouts.
fn root_visits(line: &str) -> u64 {
    let words: Vec<&str> = line.split_whitespace().collect();
    words
        .windows(2)
        .filter(|w| w[0] == "visits")
        .filter_map(|w| w[1].parse::<u64>().ok())
        .sum()
}

/// Return the median and the maximum of `values` (0 for none).
fn median_max(values: &mut [f64]) -> (f64, f64) {
    if values.is_empty() {
        return (0.0, 0.0);
    }
    values.sort_by(f64::total_cmp);
    (values[values.len() / 2], values[values.len() - 1])
}
