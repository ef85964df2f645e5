//! `genmove` and friends, driven through the `kosumi` binary: legal moves,
//! bad input, determinism (one and two threads), time control, handicap,
//! the book file, and a whole game against GNU Go when it is installed.

mod common;

use std::process::{Command, Stdio};
use std::time::Instant;

use common::Gtp;

const FAST: &[&str] = &[
    "--size",
    "9",
    "--komi",
    "7",
    "--playouts",
    "300",
    "--tree-mb",
    "8",
    "--hash-mb",
    "1",
];

#[test]
fn genmove_plays_legal_moves_and_refuses_bad_input() {
    let mut g = Gtp::start(FAST);
    for _ in 0..10 {
        for c in ["b", "w"] {
            let mv = g.ok(&format!("genmove {c}"));
            assert!(mv == "pass" || mv == "resign" || mv.len() >= 2, "{mv}");
            if mv != "pass" && mv != "resign" {
                // The move is on the board: playing it again is illegal.
                assert_eq!(g.ok(&format!("is_legal {c} {mv}")), "0");
            }
        }
    }
    for bad in [
        "genmove",
        "genmove purple",
        "genmove b w",
        "reg_genmove",
        "time_settings 1 2",
        "time_settings -1 2 3",
        "time_left b x 0",
        "time_left q 1 1",
        "kgs-time_settings weird",
        "kgs-time_settings byoyomi 1 2",
        "kosumi-setoption bogus 1",
        "kosumi-setoption playouts -5",
        "kosumi-setoption tree_mb 0",
        "kosumi-setoption tactics_mb 0",
        "kosumi-setoption tactics maybe",
        "kosumi-setoption shape_prior -1",
        "kosumi-setoption patterns maybe",
        "kosumi-setoption pattern_prior -3",
        "kosumi-setoption tromp_taylor 7",
        "kosumi-setoption replies 2",
        "kosumi-setoption playout_fights 2",
        "kosumi-setoption playout_fights none",
        "kosumi-setoption owl_dragons 9",
        "kosumi-setoption owl_dragons -1",
        "kosumi-setoption owl_budget 0",
        "final_status_list maybe",
        "lz-analyze b nonsense",
        "kosumi-loadbook /nonexistent/book",
        "kgs-genmove_cleanup",
        "kosumi-setoption hash_mb 65536",
    ] {
        g.err(bad);
    }
    // Refusals that say what is wrong: the unknown option and every known
    // one (the listing's names), the missing book file.
    let said = g.err("kosumi-setoption frobnicate 1");
    let known: Vec<&str> = said
        .strip_prefix("unknown option frobnicate; the options: ")
        .unwrap_or_else(|| panic!("{said}"))
        .split(' ')
        .collect();
    let listing = g.ok("kosumi-setoption");
    let listed: Vec<&str> = listing
        .lines()
        .map(|l| l.split(' ').next().unwrap())
        .collect();
    assert_eq!(known, listed);
    assert_eq!(
        g.err("kosumi-savebook"),
        "no book file: give one or start with --book"
    );
    g.ok("kosumi-setoption playouts 200");
    g.ok("kosumi-setoption tactics_mb 2");
    g.ok("kosumi-setoption shape_prior 5");
    g.ok("kosumi-setoption pattern_prior 150");
    g.ok("kosumi-setoption tromp_taylor on");
    assert!(g.ok("kosumi-setoption").contains("playout_fights 0\n"));
    g.ok("kosumi-setoption playout_fights 0.5");
    g.ok("kosumi-setoption owl_dragons 4");
    g.ok("kosumi-setoption owl_budget 2000");
    // The owl at the root: the engine plays with it.
    assert!(!g.ok("reg_genmove b").is_empty());
    let opts = g.ok("kosumi-setoption");
    assert!(
        opts.contains("playout_fights 0.5")
            && opts.contains("tactics_mb 2")
            && opts.contains("tactics true")
            && opts.contains("shape_prior 5")
            && opts.contains("patterns true")
            && opts.contains("pattern_prior 150")
            && opts.contains("tromp_taylor true")
            && opts.contains("owl_dragons 4\n")
            && opts.contains("owl_budget 2000\n"),
        "{opts}"
    );
    // The model off and on again: the engine plays either way.
    g.ok("kosumi-setoption patterns off");
    assert!(g.ok("kosumi-setoption").contains("patterns false"));
    assert!(!g.ok("reg_genmove b").is_empty());
    g.ok("kosumi-setoption patterns on");
    assert!(g.ok("kosumi-setoption").contains("patterns true"));
    // Last good replies in the playouts: on by default, and off.
    assert!(g.ok("kosumi-setoption").contains("replies true"));
    g.ok("kosumi-setoption replies off");
    assert!(g.ok("kosumi-setoption").contains("replies false"));
    assert!(!g.ok("reg_genmove w").is_empty());
    g.ok("kosumi-setoption replies on");
    let mv = g.ok("reg_genmove b");
    assert!(!mv.is_empty());
    let analysis = g.ok("lz-genmove_analyze b 10");
    assert!(
        analysis.contains("info move") && analysis.contains("play "),
        "{analysis}"
    );
    let commands = g.ok("gogui-analyze_commands");
    for line in commands.lines() {
        // GoGui's own types only.
        let kind = line.split('/').next().unwrap();
        assert!(
            ["gfx", "dboard", "plist", "param", "string", "none"].contains(&kind),
            "{line}"
        );
        // Every listed command answers.
        let cmd = line.rsplit('/').next().unwrap().replace("%c", "b");
        if !cmd.contains("savebook") {
            g.ok(&cmd);
        }
    }
    let gfx = g.ok("kosumi-best_moves w");
    let lines: Vec<&str> = gfx.lines().collect();
    assert!(
        lines[0].starts_with("LABEL ") && lines[1].starts_with("VAR w "),
        "{gfx}"
    );
    assert!(
        lines[2].starts_with("TEXT ") && lines[2].ends_with(" visits"),
        "{gfx}"
    );
    let params = g.ok("kosumi-param");
    assert!(
        params.contains("[bool] ponder 0") && params.contains("[string] playouts "),
        "{params}"
    );
    g.ok("kosumi-param ponder 1");
    assert!(g.ok("kosumi-param").contains("[bool] ponder 1"));
    g.ok("kosumi-param ponder 0");
    g.ok("final_status_list dead");
    g.ok("kgs-genmove_cleanup w");
    g.quit();
}

#[test]
fn same_seed_same_game() {
    let play = || {
        let mut args = FAST.to_vec();
        args.extend(["--seed", "3"]);
        let mut g = Gtp::start(&args);
        let moves: Vec<String> = (0..8)
            .map(|i| g.ok(if i % 2 == 0 { "genmove b" } else { "genmove w" }))
            .collect();
        g.quit();
        moves
    };
    assert_eq!(play(), play());
}

/// Root parallelism with a playout budget: each thread's share is fixed,
/// so two threads give the same game every time, and a legal one.
#[test]
fn two_threads_same_seed_same_game() {
    let play = || {
        let mut args = FAST.to_vec();
        args.extend(["--seed", "5", "--threads", "2"]);
        let mut g = Gtp::start(&args);
        let mut moves = Vec::new();
        for i in 0..8 {
            let c = if i % 2 == 0 { "b" } else { "w" };
            let mv = g.ok(&format!("genmove {c}"));
            if mv != "pass" && mv != "resign" {
                assert_eq!(g.ok(&format!("is_legal {c} {mv}")), "0");
            }
            moves.push(mv);
        }
        g.err("kosumi-setoption threads 0");
        g.ok("kosumi-setoption threads 1");
        moves.push(g.ok("genmove b"));
        g.quit();
        moves
    };
    assert_eq!(play(), play());
}

/// Play three moves under a byo-yomi of 1 s a move; each uses most of it.
fn three_byo_yomi_moves(g: &mut Gtp) {
    g.ok("time_settings 0 1 1");
    for c in ["b", "w", "b"] {
        g.ok(&format!("time_left {c} 1 1"));
        let t = Instant::now();
        g.ok(&format!("genmove {c}"));
        let secs = t.elapsed().as_secs_f64();
        assert!(secs < 1.0, "took {secs} s of a 1 s byo-yomi");
        // Time a byo-yomi move leaves unused is lost: it is all used.
        assert!(secs > 0.5, "took only {secs} s of a 1 s byo-yomi");
    }
}

#[test]
fn byo_yomi_is_respected() {
    // The helpers of --threads 2 are built at start-up too, not in the
    // first move's time (writing a 512 MiB tree takes about a second).
    let mut two = Gtp::start(&["--size", "9", "--tree-mb", "512", "--threads", "2"]);
    three_byo_yomi_moves(&mut two);
    two.quit();
    let mut g = Gtp::start(&["--size", "9", "--tree-mb", "32"]);
    three_byo_yomi_moves(&mut g);
    g.ok("kgs-time_settings absolute 2");
    let t = Instant::now();
    g.ok("genmove w");
    assert!(t.elapsed().as_secs_f64() < 0.5);
    g.quit();
}

#[test]
fn handicap_then_genmove() {
    let mut g = Gtp::start(FAST);
    g.ok("fixed_handicap 4");
    let mv = g.ok("genmove w");
    assert_ne!(mv, "resign");
    g.ok("undo");
    g.ok("genmove w");
    g.quit();
}

#[test]
fn book_is_saved_loaded_and_corruption_refused() {
    let dir = std::env::temp_dir().join(format!("kosumi-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let book = dir.join("book.bin");
    let book_s = book.to_str().unwrap();
    let args = [
        "--size",
        "9",
        "--playouts",
        "3000",
        "--tree-mb",
        "8",
        "--hash-mb",
        "1",
        "--book",
        book_s,
    ];
    let mut g = Gtp::start(&args);
    g.ok("genmove b");
    g.quit();
    let bytes = std::fs::read(&book).expect("quit saved the book");
    assert!(bytes.starts_with(b"KOSUMIBK"));
    // It loads, and saving again works (atomic: no temp file left).
    let mut g = Gtp::start(&args);
    g.ok("kosumi-savebook");
    g.ok(&format!("kosumi-loadbook {book_s}"));
    // A book that cannot be written is an error, and the engine goes on.
    let nowhere = dir.join("no-such-dir").join("book.bin");
    g.err(&format!("kosumi-savebook {}", nowhere.display()));
    g.ok("name");
    g.quit();
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    // Truncated and bit-flipped books are refused whole.
    let bad = dir.join("bad.bin");
    std::fs::write(&bad, &bytes[..bytes.len() - 5]).unwrap();
    let mut g = Gtp::start(FAST);
    g.err(&format!("kosumi-loadbook {}", bad.display()));
    g.ok("genmove b");
    g.quit();
    let mut flipped = bytes.clone();
    let mid = flipped.len() / 2;
    flipped[mid] ^= 0x40;
    std::fs::write(&bad, &flipped).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_kosumi"))
        .args(["--size", "9", "--book", bad.to_str().unwrap()])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let msg = String::from_utf8_lossy(&out.stderr);
    assert!(msg.contains("book") && msg.contains("checksum"), "{msg}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Run `kosumi match` with `args` and its SGF files in `dir`.
fn kosumi_match(args: &[&str], dir: &std::path::Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_kosumi"))
        .arg("match")
        .args(args)
        .args(["--sgf-dir", dir.to_str().unwrap()])
        .output()
        .unwrap()
}

#[test]
fn full_game_against_gnugo() {
    let gnugo = "/usr/games/gnugo";
    if !std::path::Path::new(gnugo).exists() {
        if std::env::var_os("CI").is_some() {
            panic!("{gnugo} is missing: install the package `gnugo` (apt-get install gnugo)");
        }
        eprintln!(
            "note: {gnugo} not installed (package `gnugo`); skipping the game against GNU Go"
        );
        return;
    }
    let dir = std::env::temp_dir().join(format!("kosumi-match-{}", std::process::id()));
    let me = env!("CARGO_BIN_EXE_kosumi");
    let out = kosumi_match(
        &[
            "--black",
            &format!("{me} --size 9 --playouts 2000 --tree-mb 32 --hash-mb 1"),
            "--white",
            &format!("{gnugo} --mode gtp --level 1 --chinese-rules"),
            "--games",
            "1",
            "--time-per-move",
            "5",
        ],
        &dir,
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("game 0:"), "{text}");
    // A proper end: resignation or a score, never a forfeit.
    assert!(
        !text.contains("Forfeit") && !text.contains("Time"),
        "{text}"
    );
    // Each engine's CPU time a move, from the processes' own accounts.
    for who in ["A's genmoves:", "B's genmoves:"] {
        let line = text.lines().find(|l| l.starts_with(who)).unwrap();
        let cpu: f64 = line
            .split(", CPU ")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no CPU figure: {line}"));
        assert!(cpu > 0.0 && cpu < 5.0, "{line}");
    }
    let sgf = std::fs::read_to_string(dir.join("game-000.sgf")).unwrap();
    assert!(
        sgf.contains("RE[") && sgf.matches(";B[").count() > 10,
        "{sgf}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn match_names_an_engine_that_cannot_start() {
    let dir = std::env::temp_dir().join(format!("kosumi-match-missing-{}", std::process::id()));
    let me = env!("CARGO_BIN_EXE_kosumi");
    let black = format!("{me} --size 9 --playouts 50 --tree-mb 8 --hash-mb 1");
    let players = [
        "--black",
        &black,
        "--white",
        "kosumi-no-such-engine --mode gtp",
        "--games",
        "1",
    ];
    let referee = ["--referee", "kosumi-no-such-referee --mode gtp"];
    let out = kosumi_match(
        &[&players[..], &["--first-game", "7"], &referee].concat(),
        &dir,
    );
    let err = String::from_utf8_lossy(&out.stderr);
    // An error that names the engine, not a runner killed by SIGPIPE; the
    // referee is checked before the first game.
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("referee")
            && err.contains("kosumi-no-such-referee")
            && err.contains("command not found"),
        "{err}"
    );
    let out = kosumi_match(&players, &dir);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("kosumi-no-such-engine") && err.contains("command not found"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn match_resumes_at_a_game_number() {
    let dir = std::env::temp_dir().join(format!("kosumi-match-resume-{}", std::process::id()));
    let me = env!("CARGO_BIN_EXE_kosumi");
    let engine = format!("{me} --size 9 --playouts 30 --tree-mb 8 --hash-mb 1 --seed {{game}}");
    let out = kosumi_match(
        &[
            "--black",
            &engine,
            "--white",
            &engine,
            "--games",
            "1",
            "--first-game",
            "5",
            "--time-per-move",
            "0",
        ],
        &dir,
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Game 5 is odd: engine A plays white; its record has game 5's name.
    assert!(text.contains("game 5: A white"), "{text}");
    assert!(dir.join("game-005.sgf").exists());
    assert!(text.contains("/1 = "), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_pass_in_an_open_game_is_not_answered_by_a_pass() {
    // Black leads by area after one stone, but the game is not over: the
    // conservative pass plays on; with quick_pass it ends the game.
    let mut g = Gtp::start(&["--size", "9", "--playouts", "300", "--tree-mb", "16"]);
    g.ok("play b e5");
    g.ok("play w pass");
    let reply = g.ok("reg_genmove b");
    assert_ne!(reply.to_ascii_lowercase(), "pass");
    g.ok("kosumi-setoption quick_pass on");
    assert!(g.ok("kosumi-setoption").contains("quick_pass true"));
    assert_eq!(g.ok("reg_genmove b").to_ascii_lowercase(), "pass");
    g.quit();
}

#[test]
fn gogui_analyze_commands_use_gogui_types_and_ownership_is_a_dboard() {
    let mut g = Gtp::start(&["--size", "9", "--playouts", "200", "--tree-mb", "16"]);
    // GoGui's analyze command types (its documentation's list).
    let types = [
        "bwboard", "cboard", "dboard", "eplist", "gfx", "hstring", "hpstring", "none", "param",
        "plist", "pspairs", "pstring", "sboard", "string", "var", "vars",
    ];
    let listed = g.ok("gogui-analyze_commands");
    for line in listed.lines() {
        let kind = line.split('/').next().unwrap();
        assert!(types.contains(&kind), "{line}");
        let command = line.rsplit('/').next().unwrap();
        let name = command.split_whitespace().next().unwrap();
        assert_eq!(g.ok(&format!("known_command {name}")), "true", "{line}");
    }
    g.ok("play b e5");
    let board = g.ok("kosumi-ownership");
    let rows: Vec<Vec<f64>> = board
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().map(|v| v.parse().unwrap()).collect())
        .collect();
    assert_eq!(rows.len(), 9);
    assert!(rows
        .iter()
        .all(|r| r.len() == 9 && r.iter().all(|v| (-1.0..=1.0).contains(v))));
    // Black's stone on E5 is black's.
    assert!(rows[4][4] > 0.5, "{board}");
    g.quit();
}

#[test]
fn live_gogui_graphics_go_to_stderr_during_a_search() {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_kosumi"))
        .args([
            "--size",
            "9",
            "--tree-mb",
            "8",
            "--playouts",
            "3000",
            "--gogui-gfx",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"genmove b\nquit\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // GTP stays on stdout; each block is a header, gfx lines, a blank line.
    assert!(!stdout.contains("gogui-gfx"), "{stdout}");
    let blocks: Vec<&str> = stderr.split("gogui-gfx:\n").skip(1).collect();
    assert!(!blocks.is_empty(), "{stderr}");
    for b in blocks {
        let lines: Vec<&str> = b.split('\n').collect();
        assert!(
            lines[0].starts_with("LABEL ") && lines[1].starts_with("VAR b "),
            "{b}"
        );
        assert!(lines[2].starts_with("TEXT ") && lines[3].is_empty(), "{b}");
    }
}

/// GoGui's interrupt: a `genmove` of fifty million playouts (hours) stops
/// at the `# interrupt` line GoGui sends and plays its best move so far;
/// the engine then goes on answering.
#[test]
fn gogui_interrupt_stops_a_genmove() {
    let mut g = Gtp::start(&["--size", "9", "--playouts", "50000000"]);
    assert_eq!(g.ok("known_command gogui-interrupt"), "true");
    assert_eq!(g.ok("gogui-interrupt"), "");
    let start = std::time::Instant::now();
    g.write("genmove b\n");
    std::thread::sleep(std::time::Duration::from_millis(500));
    g.write("# interrupt\n");
    let answer = g.read_answer();
    assert!(answer.starts_with("= ") && answer.len() > 2, "{answer:?}");
    assert!(start.elapsed().as_secs() < 120, "{:?}", start.elapsed());
    g.ok("kosumi-setoption playouts 300");
    let reply = g.ok("genmove w");
    assert!(!reply.is_empty());
    g.quit();
}

/// A handicap game under a sudden-death clock for one side: the stones on
/// GTP's fixed points in the record, white first, and the clocked side's
/// least time left reported; a clock that cannot be kept is a loss on time.
#[test]
fn match_plays_handicap_games_under_a_sudden_death_clock() {
    let dir = std::env::temp_dir().join(format!("kosumi-match-clock-{}", std::process::id()));
    let me = env!("CARGO_BIN_EXE_kosumi");
    let fast = format!("{me} --size 9 --playouts 50 --tree-mb 8 --hash-mb 1 --seed {{game}}");
    let timed = format!("{me} --size 9 --tree-mb 8 --hash-mb 1 --seed {{game}}");
    let out = kosumi_match(
        &[
            "--black",
            &fast,
            "--white",
            &timed,
            "--no-alternate",
            "--games",
            "1",
            "--komi",
            "0.5",
            "--handicap",
            "3",
            "--time-per-move",
            "0",
            "--main-time",
            "20",
            "--clock",
            "b",
        ],
        &dir,
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        !text.contains("Time") && !text.contains("Forfeit"),
        "{text}"
    );
    let b = text
        .lines()
        .find(|l| l.starts_with("B's genmoves:"))
        .unwrap();
    assert!(b.contains("least time left"), "{b}");
    let a = text
        .lines()
        .find(|l| l.starts_with("A's genmoves:"))
        .unwrap();
    assert!(!a.contains("least time left"), "A has no clock: {a}");
    let sgf = std::fs::read_to_string(dir.join("game-000.sgf")).unwrap();
    assert!(sgf.contains("HA[3]AB[cg][cc][gc];W["), "{sgf}");
    // A clock no engine can keep.
    let out = kosumi_match(
        &[
            "--black",
            &timed,
            "--white",
            &fast,
            "--games",
            "1",
            "--time-per-move",
            "0",
            "--main-time",
            "0.001",
            "--grace",
            "0",
            "--clock",
            "a",
        ],
        &dir,
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("game 0: A black loses -> W+Time"), "{text}");
    let out = kosumi_match(
        &["--black", &fast, "--white", &fast, "--handicap", "1"],
        &dir,
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("--handicap 1: 2 to 9"));
    let _ = std::fs::remove_dir_all(&dir);
}
