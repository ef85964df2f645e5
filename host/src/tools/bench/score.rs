//! `kosumi bench score`: does kosumi count a finished game as the referee
//! does? For every game record that ends in two passes, kosumi's
//! `final_score` (dead stones removed, the host's [`scorer`]) and its score
//! estimate (each point to its majority owner in playouts,
//! [`estimated_margin2`]) are set against the referee engine's
//! `final_score` after `loadsgf` (GNU Go with `--chinese-rules` counts area
//! after removing the stones it finds dead).

use std::path::PathBuf;

use kosumi_core::playout::estimated_margin2;
use kosumi_core::rng;

use crate::tools::gtp_client::Engine;
use kosumi::gtp::scoring::{scorer, OWNERSHIP_PLAYOUTS};
use kosumi::gtp::sgf;

/// Arguments of `kosumi bench score`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// SGF files, or directories of them (match records).
    #[arg(required = true)]
    pub games: Vec<PathBuf>,
    /// The referee: a GTP engine that counts area, e.g. `gnugo --mode gtp
    /// --chinese-rules`.
    #[arg(long)]
    pub referee: String,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Return twice black's margin from a GTP score (`B+3.5`, `W+R`, `0`).
fn parse_score(text: &str) -> Option<i32> {
    let t = text.trim();
    if t == "0" {
        return Some(0);
    }
    let (sign, rest) = match t.get(..2) {
        Some("B+") | Some("b+") => (1, &t[2..]),
        Some("W+") | Some("w+") => (-1, &t[2..]),
        _ => return None,
    };
    let v: f64 = rest.parse().ok()?;
    Some(sign * (v * 2.0).round() as i32)
}

/// Return the files under `paths` (directories walked), sorted.
fn files(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            for e in walkdir::WalkDir::new(p)
                .sort_by_file_name()
                .into_iter()
                .flatten()
            {
                let name = e.path().to_string_lossy().to_ascii_lowercase();
                if e.file_type().is_file() && name.ends_with(".sgf") {
                    out.push(e.path().to_path_buf());
                }
            }
        } else {
            out.push(p.clone());
        }
    }
    out
}

/// Run `kosumi bench score`.
///
/// # Errors
/// A referee that cannot be started.
pub fn run(args: &Args) -> Result<(), String> {
    let mut referee = Engine::start(&args.referee)?;
    let (mut finished, mut skipped) = (0u32, 0u32);
    let (mut exact, mut winner, mut est_winner, mut est_exact) = (0u32, 0u32, 0u32, 0u32);
    let mut diff_sum = 0i64;
    let mut disagree = Vec::new();
    for path in files(&args.games) {
        let Ok(text) = std::fs::read_to_string(&path) else {
            skipped += 1;
            continue;
        };
        let Ok((game, _)) = sgf::load(&text, None, 15) else {
            skipped += 1;
            continue;
        };
        let moves = game.moves();
        let ended = moves.len() >= 2 && moves[moves.len() - 2..].iter().all(|m| m.point.is_pass());
        if !ended {
            skipped += 1;
            continue;
        }
        let loaded = referee.send(&format!("loadsgf {}", path.display()));
        let Some(theirs) = loaded
            .and_then(|_| referee.send("final_score"))
            .ok()
            .and_then(|s| parse_score(&s))
        else {
            skipped += 1;
            continue;
        };
        let board = game.board();
        let komi2 = game.komi2();
        let mut scratch = board.clone();
        let ours = scorer(&mut scratch, false).final_margin2(board, komi2);
        let estimate = estimated_margin2(
            board,
            komi2,
            OWNERSHIP_PLAYOUTS,
            &mut rng::seeded(7),
            &mut scratch,
        );
        finished += 1;
        exact += u32::from(ours == theirs);
        winner += u32::from(ours.signum() == theirs.signum());
        est_exact += u32::from(estimate == theirs);
        est_winner += u32::from(estimate.signum() == theirs.signum());
        diff_sum += i64::from((ours - theirs).abs());
        if ours != theirs {
            disagree.push((path.display().to_string(), ours, theirs));
        }
    }
    referee.quit();
    let pct = |k: u32| 100.0 * f64::from(k) / f64::from(finished.max(1));
    let pts = |m2: i32| f64::from(m2) / 2.0;
    if args.json {
        let list: Vec<serde_json::Value> = disagree
            .iter()
            .map(|(f, o, t)| serde_json::json!({"game": f, "kosumi": pts(*o), "referee": pts(*t)}))
            .collect();
        println!(
            "{}",
            serde_json::json!({
                "finished": finished,
                "skipped": skipped,
                "final_score_exact": exact,
                "final_score_same_winner": winner,
                "estimate_exact": est_exact,
                "estimate_same_winner": est_winner,
                "mean_abs_difference": diff_sum as f64 / 2.0 / f64::from(finished.max(1)),
                "disagreements": list,
            })
        );
        return Ok(());
    }
    println!(
        "kosumi bench score: {finished} games ended by two passes ({skipped} other records skipped), referee {}",
        args.referee
    );
    println!(
        "  final_score: same result {exact} ({:.1}%), same winner {winner} ({:.1}%), mean difference {:.2} points",
        pct(exact),
        pct(winner),
        diff_sum as f64 / 2.0 / f64::from(finished.max(1))
    );
    println!(
        "  estimate:    same result {est_exact} ({:.1}%), same winner {est_winner} ({:.1}%)",
        pct(est_exact),
        pct(est_winner)
    );
    for (f, o, t) in &disagree {
        println!("  {f}: kosumi {:+}, referee {:+}", pts(*o), pts(*t));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::parse_score;

    #[test]
    fn gtp_scores_parse_to_half_points() {
        assert_eq!(parse_score("B+3.5"), Some(7));
        assert_eq!(parse_score("W+12"), Some(-24));
        assert_eq!(parse_score("0"), Some(0));
        assert_eq!(parse_score("W+R"), None);
        assert_eq!(parse_score("?"), None);
    }
}
