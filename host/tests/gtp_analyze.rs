//! Streaming analysis end to end (`lz-analyze`, `analyze`, `kata-analyze`):
//! reports arrive as GUIs parse them, the next command ends the stream
//! and runs, and the game is left as it was.

mod common;

use std::io::BufRead;

use common::Gtp;

/// One move of a report, as Lizzie's and Sabaki's parsers read it: the
/// line split at each `info`, then `key value` pairs up to `pv`, whose
/// value is the rest.
#[derive(Debug)]
struct MoveInfo {
    fields: Vec<(String, String)>,
    pv: Vec<String>,
    /// KataGo's `pvVisits`, after the `pv`, if asked for.
    pv_visits: Vec<u64>,
}

impl MoveInfo {
    fn get(&self, key: &str) -> &str {
        self.fields
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
            .unwrap_or_else(|| panic!("no {key} in {self:?}"))
    }
}

/// Parse a report line; `ownership` values (KataGo) come back apart.
fn parse(line: &str) -> (Vec<MoveInfo>, Vec<f64>) {
    let (moves, ownership) = match line.split_once(" ownership ") {
        Some((m, o)) => (m, o.split(' ').map(|v| v.parse().unwrap()).collect()),
        None => (line, Vec::new()),
    };
    let infos = moves
        .split("info ")
        .filter(|s| !s.trim().is_empty())
        .map(|s| {
            let (head, pv) = s.split_once(" pv ").expect("a pv");
            let (pv, pv_visits) = pv.split_once(" pvVisits ").unwrap_or((pv, ""));
            let words: Vec<&str> = head.split_whitespace().collect();
            assert!(words.len().is_multiple_of(2), "pairs in {head}");
            MoveInfo {
                fields: words
                    .chunks(2)
                    .map(|kv| (kv[0].to_string(), kv[1].to_string()))
                    .collect(),
                pv: pv.split_whitespace().map(str::to_string).collect(),
                pv_visits: pv_visits
                    .split_whitespace()
                    .map(|v| v.parse().unwrap())
                    .collect(),
            }
        })
        .collect();
    (infos, ownership)
}

/// Read report lines until `n` of them arrived.
fn reports(g: &mut Gtp, n: usize) -> Vec<String> {
    let mut lines = Vec::new();
    while lines.len() < n {
        let mut line = String::new();
        assert!(g.stdout.read_line(&mut line).unwrap() > 0, "output closed");
        let line = line.trim_end().to_string();
        assert!(!line.is_empty(), "the stream ended by itself");
        lines.push(line);
    }
    lines
}

fn start() -> Gtp {
    let mut g = Gtp::start(&["--size", "9", "--playouts", "2000", "--tree-mb", "16"]);
    g.ok("play b e5");
    g
}

#[test]
fn lz_analyze_streams_until_the_next_command() {
    let mut g = start();
    let board = g.ok("showboard");
    g.write("lz-analyze w 5\n");
    let mut first = String::new();
    g.stdout.read_line(&mut first).unwrap();
    assert_eq!(first, "=\n");
    for line in reports(&mut g, 3) {
        let (infos, ownership) = parse(&line);
        assert!(!infos.is_empty() && ownership.is_empty(), "{line}");
        for (order, info) in infos.iter().enumerate() {
            assert_eq!(info.get("order"), order.to_string());
            let winrate: u32 = info.get("winrate").parse().unwrap();
            let lcb: u32 = info.get("lcb").parse().unwrap();
            let prior: u32 = info.get("prior").parse().unwrap();
            assert!(
                winrate <= 10_000 && lcb <= winrate && prior <= 10_000,
                "{info:?}"
            );
            assert!(info.get("visits").parse::<u32>().unwrap() > 0);
            assert_eq!(info.pv[0], info.get("move"), "{info:?}");
        }
        let visits: Vec<u32> = infos
            .iter()
            .map(|i| i.get("visits").parse().unwrap())
            .collect();
        assert!(visits.windows(2).all(|w| w[0] >= w[1]), "{visits:?}");
    }
    // The next command ends the stream with a blank line, then runs.
    g.write("name\n");
    loop {
        let mut line = String::new();
        assert!(g.stdout.read_line(&mut line).unwrap() > 0);
        if line.trim().is_empty() {
            break;
        }
        assert!(line.starts_with("info "), "{line}");
    }
    assert_eq!(g.read_answer(), "= kosumi");
    assert_eq!(g.ok("showboard"), board);
    // The analysis tree serves the next move.
    assert!(!g.ok("genmove w").is_empty());
    g.quit();
}

#[test]
fn kata_analyze_reports_ownership_and_honours_maxmoves_and_avoid() {
    let mut g = start();
    g.write("kata-analyze w interval 5 maxmoves 2 avoid w d4,f6 1 ownership true pvVisits true\n");
    let mut first = String::new();
    g.stdout.read_line(&mut first).unwrap();
    assert_eq!(first, "=\n");
    for line in reports(&mut g, 2) {
        let (infos, ownership) = parse(&line);
        assert!(!infos.is_empty() && infos.len() <= 2, "{line}");
        for info in &infos {
            let wr: f64 = info.get("winrate").parse().unwrap();
            let prior: f64 = info.get("prior").parse().unwrap();
            assert!((0.0..=1.0).contains(&wr) && (0.0..=1.0).contains(&prior));
            // White, komi 7.5 against one black stone on 9x9: not far
            // from even, and never more than the board.
            let mean: f64 = info.get("scoreMean").parse().unwrap();
            assert_eq!(info.get("scoreLead"), info.get("scoreMean"));
            let stdev: f64 = info.get("scoreStdev").parse().unwrap();
            assert!(mean.abs() < 81.0 && stdev > 0.0 && stdev < 81.0, "{info:?}");
            assert!(
                !["D4", "F6"].contains(&info.get("move")),
                "avoided: {info:?}"
            );
            // One count per move of the line, the first the move's own,
            // none larger than its parent's.
            assert_eq!(info.pv_visits.len(), info.pv.len(), "{info:?}");
            assert_eq!(info.pv_visits[0].to_string(), info.get("visits"));
            assert!(info.pv_visits.windows(2).all(|w| w[0] >= w[1]), "{info:?}");
        }
        assert_eq!(ownership.len(), 81);
        assert!(ownership.iter().all(|o| (-1.0..=1.0).contains(o)));
        // Black's stone on E5 is black's: negative from white's side.
        assert!(ownership[4 * 9 + 4] < 0.0, "{ownership:?}");
    }
    g.write("\n");
    // An empty line stops the stream too; nothing else is answered.
    loop {
        let mut line = String::new();
        g.stdout.read_line(&mut line).unwrap();
        if line.trim().is_empty() {
            break;
        }
    }
    assert_eq!(g.err("analyze b 5 interval"), "syntax error");
    assert_eq!(g.err("lz-analyze b avoid b d4"), "syntax error");
    g.quit();
}

#[test]
fn genmove_analyze_answers_one_report_then_the_move() {
    let mut g = start();
    for (cmd, key) in [
        ("lz-genmove_analyze w 10", "lcb"),
        ("kata-genmove_analyze b 10 maxmoves 3", "scoreLead"),
    ] {
        let answer = g.ok(cmd);
        let (info, play) = answer.trim().rsplit_once('\n').expect("two lines");
        let (infos, _) = parse(info);
        assert!(!infos.is_empty(), "{answer}");
        let mv = play.strip_prefix("play ").expect("play MOVE");
        // The move played is the report's first, most visited, and it is on the board.
        assert_eq!(infos[0].get("move"), mv, "{answer}");
        infos[0].get(key);
        // The prior is the pattern share, no longer the AMAF value.
        let prior: f64 = infos[0].get("prior").parse().unwrap();
        assert!(prior <= if key == "lcb" { 10000.0 } else { 1.0 });
    }
    let board = g.ok("showboard");
    assert!(board.contains("moves 3"), "{board}");
    g.quit();
}

/// The visits of the first report of `lz-analyze COLOR 1`, then the stream
/// stopped.
fn visits_at_first_report(g: &mut Gtp, color: &str) -> u64 {
    g.write(&format!("lz-analyze {color} 1\n"));
    let mut first = String::new();
    g.stdout.read_line(&mut first).unwrap();
    assert_eq!(first, "=\n");
    let line = reports(g, 1).remove(0);
    g.write("\n");
    loop {
        let mut rest = String::new();
        g.stdout.read_line(&mut rest).unwrap();
        if rest.trim().is_empty() {
            break;
        }
    }
    let (infos, _) = parse(&line);
    infos
        .iter()
        .map(|i| i.get("visits").parse::<u64>().unwrap())
        .sum()
}

#[test]
fn ponder_thinks_until_the_next_command_and_leaves_its_tree() {
    use std::time::{Duration, Instant};
    let mut counts = Vec::new();
    for ponder in [true, false] {
        let mut args = vec!["--size", "9", "--playouts", "200", "--tree-mb", "16"];
        if ponder {
            args.push("--ponder");
        }
        let mut g = Gtp::start(&args);
        g.ok("genmove b");
        std::thread::sleep(Duration::from_millis(1500));
        // The ponder never answers by itself and stops for the next line.
        let t = Instant::now();
        assert!(g.ok("showboard").contains("moves 1"));
        assert!(
            t.elapsed() < Duration::from_millis(1000),
            "{:?}",
            t.elapsed()
        );
        // White's analysis starts from the pondered tree.
        counts.push(visits_at_first_report(&mut g, "w"));
        assert!(g
            .ok("kosumi-setoption")
            .contains(&format!("ponder {ponder}")));
        g.quit();
    }
    // With the ponder: a second and a half of playouts; without: the
    // genmove's 200 and one centisecond of analysis.
    assert!(counts[0] > 1000 && counts[0] > 2 * counts[1], "{counts:?}");
}
