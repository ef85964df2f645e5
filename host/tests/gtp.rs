//! GTP end to end: the `kosumi` binary driven through stdin/stdout pipes.
//!
//! Each test starts an engine, sends commands one at a time and reads the
//! answer up to its blank line. Board contents are checked through
//! `showboard` rows and `is_legal` probes. SGF files live in
//! `tests/data/sgf/` of the workspace.

mod common;

use std::path::PathBuf;
use std::process::Command;

use common::Gtp;

impl Gtp {
    /// Play a list of `(colour, vertex)` moves that must be legal.
    fn play_all(&mut self, moves: &[(&str, &str)]) {
        for (c, v) in moves {
            self.ok(&format!("play {c} {v}"));
        }
    }

    /// Return the `showboard` row of board row `row`, as its points
    /// (`X`, `O`, `.`), last-move marks removed.
    fn row(&mut self, row: usize) -> String {
        let board = self.ok("showboard");
        let label = format!("{row:>3}");
        let line = board
            .lines()
            .find(|l| l.starts_with(&label))
            .unwrap_or_else(|| panic!("no row {row} in\n{board}"));
        line[3..]
            .chars()
            .filter(|c| matches!(c, 'X' | 'O' | '.'))
            .collect()
    }

    /// Query `is_legal`.
    fn legal(&mut self, c: &str, v: &str) -> bool {
        match self.ok(&format!("is_legal {c} {v}")).as_str() {
            "1" => true,
            "0" => false,
            other => panic!("is_legal answered {other}"),
        }
    }
}

/// Return the path of a test SGF file.
fn sgf(name: &str) -> String {
    let p: PathBuf = [
        env!("CARGO_MANIFEST_DIR"),
        "..",
        "tests",
        "data",
        "sgf",
        name,
    ]
    .iter()
    .collect();
    p.to_string_lossy().into_owned()
}

#[test]
fn lizzie_reads_a_version_it_accepts() {
    // Lizzie's check: the answer's first word split at dots, the second
    // part a number of at least 15 (else its "requires Leela Zero 0.15"
    // dialog).
    let minor =
        |answer: &str| -> Option<u32> { answer.split(' ').next()?.split('.').nth(1)?.parse().ok() };
    let mut g = Gtp::start(&["--lizzie"]);
    let version = g.ok("version");
    assert!(minor(&version).is_some_and(|m| m >= 15), "{version}");
    assert!(version.contains(env!("CARGO_PKG_VERSION")), "{version}");
    g.quit();
    let mut g = Gtp::new();
    assert!(minor(&g.ok("version")).is_none_or(|m| m < 15));
    g.quit();
}

#[test]
fn administrative_commands() {
    let mut g = Gtp::new();
    assert_eq!(g.ok("protocol_version"), "2");
    assert_eq!(g.ok("name"), "kosumi");
    assert_eq!(g.ok("version"), env!("CARGO_PKG_VERSION"));
    assert_eq!(g.ok("known_command play"), "true");
    assert_eq!(g.ok("known_command genmove"), "true");
    assert_eq!(g.ok("known_command frobnicate"), "false");
    assert_eq!(g.ok("known_command frobnicate"), "false");
    assert_eq!(g.err("known_command"), "syntax error");
    let list = g.ok("list_commands");
    for cmd in [
        "protocol_version",
        "name",
        "version",
        "known_command",
        "list_commands",
        "quit",
        "boardsize",
        "clear_board",
        "komi",
        "play",
        "undo",
        "showboard",
        "loadsgf",
        "printsgf",
        "final_score",
        "is_legal",
        "fixed_handicap",
        "place_free_handicap",
        "set_free_handicap",
    ] {
        assert!(list.lines().any(|l| l == cmd), "{cmd} not listed");
        assert_eq!(g.ok(&format!("known_command {cmd}")), "true");
    }
    assert!(list.lines().any(|l| l == "genmove"));
    // GoGui's `cputime`: the engine's CPU seconds, growing with a search.
    let cpu = |g: &mut Gtp| g.ok("cputime").parse::<f64>().expect("seconds");
    let before = cpu(&mut g);
    g.ok("genmove b");
    let after = cpu(&mut g);
    assert!(before > 0.0 && after > before, "{before} then {after}");
    assert_eq!(g.err("cputime 1"), "syntax error");
    assert_eq!(g.err("frobnicate"), "unknown command");
    assert_eq!(g.err("NAME"), "unknown command");
    assert_eq!(g.err("name extra"), "syntax error");
    g.quit();
}

#[test]
fn ids_comments_and_blank_lines() {
    let mut g = Gtp::new();
    assert_eq!(g.raw("5 name"), "=5 kosumi");
    assert_eq!(g.raw("6 frobnicate"), "?6 unknown command");
    assert_eq!(g.raw("7 play b z99"), "?7 invalid color or coordinate");
    assert_eq!(g.raw("8 boardsize 9"), "=8");
    assert_eq!(g.raw("42"), "?42 syntax error");
    // Blank lines, comments and control characters get no answer of their own.
    g.write("\n   \n# a comment\n\t\n");
    assert_eq!(g.raw("9\tprotocol_version # why not\r"), "=9 2");
    assert_eq!(g.raw("na\x07me"), "= kosumi");
    g.quit();
}

#[test]
fn boardsize_and_clear_board() {
    let mut g = Gtp::new();
    assert_eq!(g.row(19), "...................");
    g.ok("boardsize 9");
    g.ok("play b e5");
    assert_eq!(g.row(5), "....X....");
    g.ok("boardsize 9");
    assert_eq!(g.row(5), ".........", "boardsize clears the board");
    for bad in ["0", "1", "20", "25", "-1", "99999999999999999999"] {
        assert_eq!(
            g.err(&format!("boardsize {bad}")),
            "unacceptable size",
            "boardsize {bad}"
        );
    }
    for bad in ["x", "9.5", "", "9 9"] {
        assert_eq!(
            g.err(&format!("boardsize {bad}")),
            "syntax error",
            "boardsize {bad}"
        );
    }
    assert_eq!(g.row(9), ".........", "a refused boardsize keeps the board");
    g.ok("boardsize 2");
    g.ok("play b a1");
    g.ok("boardsize 19");
    g.ok("play w t19");
    g.ok("play b a1");
    g.ok("clear_board");
    assert_eq!(g.row(19), "...................");
    assert_eq!(g.err("undo"), "cannot undo");
    assert_eq!(g.err("clear_board now"), "syntax error");
    g.quit();
}

#[test]
fn komi_and_final_score() {
    let mut g = Gtp::new();
    g.ok("boardsize 5");
    // Black walls off columns A-C (15 points), white D-E (10 points).
    g.play_all(&[
        ("b", "c1"),
        ("w", "d1"),
        ("b", "c2"),
        ("w", "d2"),
        ("b", "c3"),
        ("w", "d3"),
        ("b", "c4"),
        ("w", "d4"),
        ("b", "c5"),
        ("w", "d5"),
    ]);
    g.ok("komi 0");
    assert_eq!(g.ok("final_score"), "B+5");
    g.ok("komi 7.5");
    assert_eq!(g.ok("final_score"), "W+2.5");
    g.ok("komi 5");
    assert_eq!(g.ok("final_score"), "0");
    g.ok("komi -2");
    assert_eq!(g.ok("final_score"), "B+7");
    g.ok("komi 4.5");
    assert_eq!(g.ok("final_score"), "B+0.5");
    assert_eq!(g.err("komi 6.25"), "komi must be a multiple of 0.5");
    assert_eq!(g.err("komi 1e9"), "komi out of range");
    assert_eq!(g.err("komi -1000.5"), "komi out of range");
    g.ok("komi -1000");
    for bad in ["x", "inf", "NaN", "", "6.5 1"] {
        assert_eq!(g.err(&format!("komi {bad}")), "syntax error", "komi {bad}");
    }
    g.ok("komi 4.5");
    assert_eq!(g.err("komi 4.4"), "komi must be a multiple of 0.5");
    assert_eq!(
        g.ok("final_score"),
        "B+0.5",
        "a refused komi keeps the old one"
    );
    assert_eq!(g.err("final_score now"), "syntax error");
    // A lone black stone in white's area is dead: it is taken off (the
    // area count GNU Go and the GUIs make), or counted as it stands under
    // Tromp-Taylor (its neighbours are then nobody's).
    g.ok("play b e3");
    g.ok("komi 0");
    assert_eq!(g.ok("final_status_list dead"), "E3");
    assert_eq!(g.ok("final_score"), "B+5");
    g.ok("kosumi-setoption tromp_taylor on");
    assert_eq!(g.ok("final_score"), "B+11");
    g.ok("kosumi-setoption tromp_taylor off");
    // After the game ends in two passes it is the same count (the
    // playouts that judge the stones go on from the finished position).
    g.ok("play w pass");
    g.ok("play b pass");
    assert_eq!(g.ok("final_status_list dead"), "E3");
    assert_eq!(g.ok("final_score"), "B+5");
    // The empty board: all komi.
    g.ok("clear_board");
    g.ok("komi 6.5");
    assert_eq!(g.ok("final_score"), "W+6.5");
    g.quit();
}

#[test]
fn command_line_options() {
    let mut g = Gtp::start(&["--size", "9", "--komi", "0.5"]);
    assert_eq!(g.row(9), ".........");
    assert_eq!(g.ok("final_score"), "W+0.5");
    g.quit();
    let mut g = Gtp::start(&["gtp", "--size", "13", "--komi", "-3", "--verbose"]);
    assert_eq!(g.row(13), ".............");
    assert_eq!(g.ok("final_score"), "B+3");
    g.quit();
    let out = Command::new(env!("CARGO_BIN_EXE_kosumi"))
        .args(["--size", "42"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let out = Command::new(env!("CARGO_BIN_EXE_kosumi"))
        .args(["--komi", "0.3"])
        .output()
        .unwrap();
    assert!(!out.status.success());
}

#[test]
fn play_and_bad_moves() {
    let mut g = Gtp::new();
    g.ok("boardsize 9");
    g.ok("play b e5");
    g.ok("play WHITE C3");
    g.ok("play Black pass");
    g.ok("play w PASS");
    g.ok("play B j9");
    g.ok("play white a1");
    assert_eq!(g.row(5), "....X....");
    assert_eq!(g.row(3), "..O......");
    assert_eq!(g.row(9), "........X");
    assert_eq!(g.err("play b e5"), "illegal move", "occupied");
    for bad in [
        "play x e5",
        "play b z1",
        "play b i5",
        "play b a0",
        "play b a10",
        "play b k1",
        "play b e",
        "play b 5e",
        "play black e-5",
        "play b e5e",
    ] {
        assert_eq!(g.err(bad), "invalid color or coordinate", "{bad}");
    }
    for bad in ["play", "play b", "play b e5 e6"] {
        assert_eq!(g.err(bad), "syntax error", "{bad}");
    }
    // Suicide: a white stone at A2 next to black A1... build a one-point eye.
    g.ok("clear_board");
    g.play_all(&[("b", "a2"), ("b", "b1")]);
    assert_eq!(g.err("play w a1"), "illegal move", "suicide");
    assert!(!g.legal("w", "a1"));
    assert!(g.legal("b", "a1"), "filling one's own eye is legal");
    assert!(g.legal("w", "pass"));
    assert_eq!(g.err("is_legal w a0"), "invalid color or coordinate");
    assert_eq!(g.err("is_legal w"), "syntax error");
    g.quit();
}

/// The moves of a ko at C3/D3 on 5x5: after them white has just taken the
/// black stone at D3, and black may not retake at once.
const KO: &[(&str, &str)] = &[
    ("b", "b3"),
    ("w", "e3"),
    ("b", "c2"),
    ("w", "d2"),
    ("b", "c4"),
    ("w", "d4"),
    ("b", "d3"),
    ("w", "c3"),
];

#[test]
fn captures_ko_and_superko() {
    let mut g = Gtp::new();
    g.ok("boardsize 5");
    g.play_all(KO);
    assert_eq!(g.row(3), ".XO.O", "d3 is captured");
    assert!(g.ok("showboard").contains("captures black 0 white 1"));
    assert!(!g.legal("b", "d3"));
    assert_eq!(g.err("play b d3"), "illegal move", "ko retake");
    // After two passes the simple-ko ban is gone, but retaking would
    // recreate the position after black's d3: positional superko.
    g.ok("play b pass");
    g.ok("play w pass");
    assert!(!g.legal("b", "d3"));
    assert_eq!(g.err("play b d3"), "illegal move", "superko");
    // A ko threat and its answer make the retake legal.
    g.play_all(&[("b", "a5"), ("w", "a4")]);
    assert!(g.legal("b", "d3"));
    g.ok("play b d3");
    assert_eq!(g.row(3), ".X.XO", "c3 is captured");
    assert!(g.ok("showboard").contains("captures black 1 white 1"));
    g.quit();
}

#[test]
fn undo_restores_ko_captures_and_side_to_move() {
    let mut g = Gtp::new();
    g.ok("boardsize 5");
    assert_eq!(g.err("undo"), "cannot undo");
    g.play_all(KO);
    let board_with_ko = g.ok("showboard");
    g.ok("play b a5");
    assert!(g.legal("w", "d3"));
    g.ok("undo");
    assert_eq!(g.ok("showboard"), board_with_ko);
    assert!(board_with_ko.contains("black to play"));
    assert!(!g.legal("b", "d3"), "the ko ban is back");
    g.ok("undo");
    assert_eq!(g.row(3), ".X.XO", "the captured stone is back");
    assert!(g.ok("showboard").contains("white to play"));
    for _ in 1..KO.len() {
        g.ok("undo");
    }
    assert_eq!(g.row(3), ".....");
    assert!(g
        .ok("showboard")
        .contains("black to play, komi 7.5, captures black 0 white 0, moves 0"));
    assert_eq!(g.err("undo"), "cannot undo");
    assert_eq!(g.err("undo 1"), "syntax error");
    // Playing out of turn is undone as well.
    g.play_all(&[("w", "c3"), ("w", "d3")]);
    g.ok("undo");
    assert!(g.ok("showboard").contains("black to play"));
    g.quit();
}

#[test]
fn showboard_draws_the_board() {
    let mut g = Gtp::new();
    g.ok("boardsize 3");
    g.play_all(&[("b", "a1"), ("w", "c3")]);
    let a = g.raw("showboard");
    let expect = "= \n    A B C\n  3 . .(O 3\n  2 . . . 2\n  1 X . . 1\n    A B C\n";
    assert!(a.starts_with(expect), "{a:?}");
    assert_eq!(g.err("showboard x"), "syntax error");
    g.quit();
}

#[test]
fn fixed_handicap() {
    let mut g = Gtp::new();
    assert_eq!(g.ok("fixed_handicap 9"), "D4 Q16 D16 Q4 D10 Q10 K4 K16 K10");
    assert_eq!(g.row(4), "...X.....X.....X...");
    assert!(g.ok("showboard").contains("white to play"));
    assert!(g.ok("printsgf").contains("HA[9]RU[Chinese]AB["));
    assert_eq!(g.err("fixed_handicap 2"), "board not empty");
    g.ok("clear_board");
    for bad in ["1", "0", "10", "-3"] {
        assert_eq!(
            g.err(&format!("fixed_handicap {bad}")),
            "invalid number of stones",
            "{bad}"
        );
    }
    assert_eq!(g.err("fixed_handicap x"), "syntax error");
    assert_eq!(g.err("fixed_handicap"), "syntax error");
    g.ok("boardsize 9");
    assert_eq!(g.ok("fixed_handicap 3"), "C3 G7 C7");
    g.ok("boardsize 13");
    assert_eq!(g.ok("fixed_handicap 5"), "D4 K10 D10 K4 G7");
    g.ok("boardsize 10");
    assert_eq!(g.err("fixed_handicap 5"), "invalid number of stones");
    g.ok("boardsize 5");
    assert_eq!(g.err("fixed_handicap 2"), "invalid number of stones");
    // Not on a board with stones, even of a game in progress.
    g.ok("boardsize 9");
    g.ok("play b e5");
    assert_eq!(g.err("fixed_handicap 2"), "board not empty");
    g.quit();
}

#[test]
fn free_handicap() {
    let mut g = Gtp::new();
    assert_eq!(g.ok("place_free_handicap 3"), "D4 Q16 D16");
    assert!(g.ok("showboard").contains("white to play"));
    assert_eq!(g.err("place_free_handicap 3"), "board not empty");
    g.ok("clear_board");
    assert_eq!(
        g.ok("place_free_handicap 20").split(' ').count(),
        9,
        "fewer stones are allowed"
    );
    g.ok("clear_board");
    for bad in ["1", "0", "361", "-1"] {
        assert_eq!(
            g.err(&format!("place_free_handicap {bad}")),
            "invalid number of stones",
            "{bad}"
        );
    }
    g.ok("boardsize 5");
    assert_eq!(g.ok("place_free_handicap 2"), "B2 D2");

    g.ok("boardsize 9");
    assert_eq!(g.ok("set_free_handicap a1 b2 J9"), "");
    assert_eq!(g.row(9), "........X");
    assert_eq!(g.row(1), "X........");
    assert!(g.ok("showboard").contains("white to play"));
    assert_eq!(g.err("set_free_handicap c3 d4"), "board not empty");
    g.ok("clear_board");
    for bad in ["a1", "", "a1 a1", "a1 pass", "a1 z9", "a1 a10"] {
        assert_eq!(
            g.err(&format!("set_free_handicap {bad}")),
            "bad vertex list",
            "{bad:?}"
        );
    }
    // Nothing was placed by the refused lists.
    assert_eq!(g.row(1), ".........");
    g.ok("boardsize 2");
    assert_eq!(
        g.err("set_free_handicap a1 a2 b1 b2"),
        "bad vertex list",
        "fills the board"
    );
    g.quit();
}

#[test]
fn loadsgf_final_position() {
    let mut g = Gtp::new();
    // Eight moves; white's last captured the black stone at A19.
    assert_eq!(g.ok(&format!("loadsgf {}", sgf("short.sgf"))), "black");
    assert_eq!(g.row(19), ".O.................");
    assert_eq!(g.row(18), "O..................");
    assert_eq!(g.row(16), "...O...........X...");
    let board = g.ok("showboard");
    assert!(
        board.contains("black to play, komi 6.5, captures black 0 white 1, moves 8"),
        "{board}"
    );
    assert!(!g.legal("b", "q4"), "pp of the record is occupied");
    assert!(!g.legal("b", "a19"), "suicide in the corner");
    assert!(g.legal("w", "a19"));
    g.ok("undo");
    assert_eq!(
        g.row(19),
        "XO.................",
        "undo brings the captured stone back"
    );

    // The main line of a handicap game with setup stones.
    assert_eq!(g.ok(&format!("loadsgf {}", sgf("handicap.sgf"))), "black");
    assert!(!g.legal("w", "d4") && !g.legal("w", "q16") && !g.legal("b", "k10"));
    assert!(!g.legal("b", "q3"), "main line: the first variation's w q3");
    assert!(g.legal("b", "c17"), "the second variation is not played");
    assert!(g.ok("showboard").contains("komi 0.5"));
    assert!(g
        .ok("printsgf")
        .contains("HA[2]RU[Chinese]AB[dp][pd]AW[jj]PL[W];W[qp];B[dd];W[pq])"));
    // The setup stones are no moves: undo stops before them.
    g.ok("undo");
    g.ok("undo");
    g.ok("undo");
    assert_eq!(g.err("undo"), "cannot undo");
    assert!(!g.legal("b", "d4"));

    // Passes: `B[]`, and FF[3]'s `W[tt]` on 9x9.
    assert_eq!(g.ok(&format!("loadsgf {}", sgf("passes.sgf"))), "white");
    assert_eq!(g.row(7), "..X......");
    assert_eq!(g.row(5), "....X....");
    assert!(g.ok("showboard").contains("moves 5"));

    assert_eq!(g.ok(&format!("loadsgf {}", sgf("nine.sgf"))), "black");
    assert_eq!(g.row(4), "....OO...");
    assert!(g
        .ok("showboard")
        .contains("komi 7, captures black 0 white 0, moves 30"));
    // The board as loaded, counted as it stands.
    g.ok("kosumi-setoption tromp_taylor on");
    assert_eq!(g.ok("final_score"), "W+8");
    g.quit();
}

#[test]
fn loadsgf_up_to_a_move_number() {
    let mut g = Gtp::new();
    let short = sgf("short.sgf");
    // Before move 8 (w b18): the black stone at A19 still stands.
    assert_eq!(g.ok(&format!("loadsgf {short} 8")), "white");
    assert_eq!(g.row(19), "XO.................");
    assert!(g.ok("showboard").contains("moves 7"));
    assert_eq!(g.ok(&format!("loadsgf {short} 1")), "black");
    assert_eq!(g.row(16), "...................");
    assert_eq!(g.ok(&format!("loadsgf {short} 2")), "white");
    assert_eq!(g.row(16), "...............X...");
    // Past the end: the whole game.
    assert_eq!(g.ok(&format!("loadsgf {short} 100")), "black");
    assert!(g.ok("showboard").contains("moves 8"));
    // Move 1 of the handicap game is white's.
    assert_eq!(g.ok(&format!("loadsgf {} 1", sgf("handicap.sgf"))), "white");
    assert!(g.ok("showboard").contains("moves 0"));
    assert_eq!(g.ok(&format!("loadsgf {} 12", sgf("nine.sgf"))), "white");
    assert!(g.ok("showboard").contains("moves 11"));
    for bad in ["0", "-1", "x", "1 2"] {
        assert_eq!(
            g.err(&format!("loadsgf {short} {bad}")),
            "syntax error",
            "{bad}"
        );
    }
    g.quit();
}

#[test]
fn loadsgf_failures_keep_the_game() {
    let mut g = Gtp::new();
    g.ok("boardsize 9");
    g.ok("play b e5");
    let before = g.ok("showboard");
    assert_eq!(
        g.err(&format!("loadsgf {}", sgf("broken.sgf"))),
        "cannot load file"
    );
    assert_eq!(
        g.err(&format!("loadsgf {}", sgf("too_big.sgf"))),
        "cannot load file"
    );
    assert_eq!(
        g.err(&format!("loadsgf {}", sgf("no_such_file.sgf"))),
        "cannot open file"
    );
    assert_eq!(
        g.err(&format!("loadsgf {}", sgf(""))),
        "cannot open file",
        "a directory"
    );
    assert_eq!(g.err("loadsgf"), "syntax error");
    assert_eq!(g.ok("showboard"), before);
    g.quit();
}

#[test]
fn printsgf_loadsgf_round_trip() {
    let dir = std::env::temp_dir().join(format!("kosumi-gtp-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("round_trip.sgf");
    let file = file.to_string_lossy();
    let mut g = Gtp::new();
    g.ok("boardsize 5");
    g.ok("komi 3.5");
    g.play_all(KO);
    g.play_all(&[("b", "pass"), ("w", "a1")]);
    let board = g.ok("showboard");
    let record = g.ok("printsgf");
    assert!(
        record.starts_with("(;GM[1]FF[4]") && record.contains("SZ[5]KM[3.5]"),
        "{record}"
    );
    assert!(record.contains(";B[]"), "pass as B[]: {record}");
    assert_eq!(g.ok(&format!("printsgf {file}")), "");
    g.ok("clear_board");
    g.ok("komi 0");
    assert_eq!(g.ok(&format!("loadsgf {file}")), "black");
    assert_eq!(g.ok("showboard"), board);
    assert_eq!(g.ok("printsgf"), record);
    // The record ends before white's capture: the ko ban comes back.
    assert_eq!(g.ok(&format!("loadsgf {file} 8")), "white");
    g.ok("play w c3");
    assert!(!g.legal("b", "d3"));
    // A handicap game round trips with its setup.
    g.ok("boardsize 9");
    g.ok("fixed_handicap 4");
    g.ok("play w e5");
    let record = g.ok("printsgf");
    let board = g.ok("showboard");
    assert_eq!(g.ok(&format!("printsgf {file}")), "");
    assert_eq!(g.ok(&format!("loadsgf {file}")), "black");
    assert_eq!(g.ok("showboard"), board);
    assert_eq!(g.ok("printsgf"), record);
    assert_eq!(g.ok(&format!("loadsgf {file} 1")), "white");
    assert_eq!(
        g.err(&format!(
            "printsgf {}",
            dir.join("no/such/dir.sgf").to_string_lossy()
        )),
        "cannot write file"
    );
    assert_eq!(g.err("printsgf a b"), "syntax error");
    g.quit();
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn end_of_input_is_quit() {
    let mut g = Gtp::new();
    assert_eq!(g.ok("name"), "kosumi");
    drop(g.stdin);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut g.stdout, &mut rest).unwrap();
    assert_eq!(rest, "");
    assert!(g.child.wait().unwrap().success());
}

#[test]
fn quit_stops_reading() {
    let mut g = Gtp::new();
    g.write("1 quit\nname\n");
    assert_eq!(g.read_answer(), "=1");
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut g.stdout, &mut rest).unwrap();
    assert_eq!(rest, "", "nothing is answered after quit");
    assert!(g.child.wait().unwrap().success());
}

/// A small xorshift generator, so the garbage is the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

/// Return a random line: GTP-like tokens, numbers, vertices and garbage.
fn garbage_line(rng: &mut Rng) -> String {
    const WORDS: &[&str] = &[
        "protocol_version",
        "name",
        "version",
        "known_command",
        "list_commands",
        "boardsize",
        "clear_board",
        "komi",
        "play",
        "undo",
        "showboard",
        "final_score",
        "is_legal",
        "fixed_handicap",
        "place_free_handicap",
        "set_free_handicap",
        "loadsgf",
        "genmove",
        "attack",
        "b",
        "w",
        "black",
        "WHITE",
        "pass",
        "PASS",
        "resign",
        "#",
        "\t",
        "\r",
        "=",
        "?",
        "-",
        "1",
        "2",
        "5",
        "9",
        "19",
        "25",
        "-1",
        "0",
        "7.5",
        "0.5",
        "1e400",
        "nan",
        "-0",
        "99999999999999999999",
        "a1",
        "t19",
        "j9",
        "i5",
        "e5",
        "E5",
        "z0",
        "aa",
        "",
        " ",
    ];
    let mut line = String::new();
    for _ in 0..rng.below(6) {
        match rng.below(4) {
            0 => {
                let n = rng.below(12);
                line.extend((0..n).map(|_| char::from(b' ' + rng.below(95) as u8)));
            }
            1 => {
                let col = char::from(b'A' + rng.below(26) as u8);
                line += &format!("{col}{}", rng.below(30));
            }
            2 => line += &rng.below(1000).to_string(),
            _ => line += rng.pick(WORDS),
        }
        line.push(if rng.below(8) == 0 { '\t' } else { ' ' });
    }
    line
}

#[test]
fn garbage_never_stops_the_engine() {
    let mut g = Gtp::new();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut answered = 0;
    for i in 0..3000 {
        let line = garbage_line(&mut rng);
        let words: Vec<&str> = line.split_whitespace().collect();
        // Keep the engine alive and the file system untouched.
        if words
            .iter()
            .any(|w| w.contains("quit") || w.contains("printsgf"))
        {
            continue;
        }
        if i % 500 == 0 {
            g.ok("boardsize 9");
        }
        // The probe's answer marks where the garbage's answer (if any) ends.
        g.write(&format!("{line}\n99999 protocol_version\n"));
        loop {
            let a = g.read_answer();
            if a == "=99999 2" {
                break;
            }
            assert!(
                a.starts_with('=') || a.starts_with('?'),
                "line {line:?} got {a:?}"
            );
            answered += 1;
        }
    }
    assert!(answered > 1500, "only {answered} answers");
    g.quit();
}

#[test]
fn owl_commands_answer_in_gnu_go_format() {
    let mut g = Gtp::new();
    g.ok("boardsize 9");
    // Straight three on the first line (black A2 B2 C2 D2 D1, eye space
    // A1 B1 C1) in a white wall: the middle point decides.
    let black = ["a2", "b2", "c2", "d2", "d1"];
    let white = ["a3", "b3", "c3", "d3", "e3", "e2", "e1"];
    for (b, w) in black.iter().zip(white) {
        g.ok(&format!("play b {b}"));
        g.ok(&format!("play w {w}"));
    }
    g.ok("play w e2");
    g.ok("play w e1");
    assert_eq!(g.ok("owl_attack a2"), "1 B1");
    assert_eq!(g.ok("owl_defend a2"), "1 B1");
    assert_eq!(g.ok("dragon_status a2"), "critical B1 B1");
    g.ok("play b b1");
    assert_eq!(g.ok("owl_attack a2"), "0");
    assert_eq!(g.ok("dragon_status a2"), "alive");
    assert_eq!(g.err("owl_attack a1"), "vertex must not be empty");
    assert_eq!(g.err("owl_defend"), "syntax error");
    assert_eq!(g.err("dragon_status z99"), "invalid color or coordinate");
    g.quit();
}

#[test]
fn attack_and_defend_answer_in_gnu_go_format() {
    let mut g = Gtp::new();
    g.ok("boardsize 9");
    // A black stone in atari-to-be: white to capture by ladder at D3.
    g.play_all(&[("b", "d4"), ("w", "d5"), ("w", "e4"), ("w", "c4")]);
    assert_eq!(g.ok("attack d4"), "1 D3");
    assert_eq!(g.ok("defend d4"), "1 D3");
    // A lone white stone with four liberties cannot be captured.
    assert_eq!(g.ok("attack e4"), "0");
    assert_eq!(g.err("attack a1"), "vertex must not be empty");
    assert_eq!(g.err("attack"), "syntax error");
    assert_eq!(g.err("defend z99"), "invalid color or coordinate");
    // The cache is never flushed: asking again, after undo and replay, agrees.
    g.ok("undo");
    g.ok("play w c4");
    assert_eq!(g.ok("attack d4"), "1 D3");
    g.quit();
}

#[test]
fn connect_and_disconnect_answer_in_gnu_go_format() {
    let mut g = Gtp::new();
    g.ok("boardsize 9");
    // A one-point jump (E6, E4): joined or cut at E5.
    g.play_all(&[("b", "e6"), ("b", "e4")]);
    assert_eq!(g.ok("connect e6 e4"), "1 E5");
    assert_eq!(g.ok("disconnect E4 E6"), "1 E5");
    // A bamboo joint (D6-E6, D4-E4) is connected.
    g.play_all(&[("b", "d6"), ("b", "d4")]);
    assert_eq!(g.ok("disconnect d6 e4"), "0");
    // Stones of one chain: already connected.
    assert_eq!(g.ok("connect d6 e6"), "1 PASS");
    assert_eq!(g.ok("disconnect d6 e6"), "0");
    // Bad input is an error, and the engine keeps going.
    g.play_all(&[("w", "c5")]);
    assert_eq!(g.err("connect d6 c5"), "vertices must have same color");
    assert_eq!(g.err("disconnect d6 a1"), "vertex must not be empty");
    assert_eq!(g.err("connect a1 d6"), "vertex must not be empty");
    assert_eq!(g.err("connect d6"), "syntax error");
    assert_eq!(g.err("connect d6 e4 f4"), "syntax error");
    assert_eq!(g.err("disconnect d6 z99"), "invalid color or coordinate");
    assert_eq!(g.err("connect pass d6"), "vertex must not be empty");
    // Asked again (from the cache), the answer is the same.
    assert_eq!(g.ok("disconnect d6 e4"), "0");
    g.quit();
}

#[test]
fn loadsgf_reads_a_line_break_inside_a_move_as_the_database_does() {
    // `W[oq` and a line break, as in old records (hon-50-2.mgt of
    // goban-original-games): the database always read it; now loadsgf too.
    let mut g = Gtp::new();
    assert_eq!(g.ok(&format!("loadsgf {}", sgf("linebreak.sgf"))), "white");
    assert!(g.ok("printsgf").ends_with(";B[pd];W[oq];B[dc])"));
    g.quit();
}
