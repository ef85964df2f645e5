//! The firmware, built for the lm3s6965evb and run under QEMU, plays
//! complete 9x9 games through its UART: against GNU Go and against the host
//! engine. Every move is checked for legality (positional superko included)
//! by the core's board, and each game must end properly (two passes in a
//! row or a resignation). A handicap game's start is played too, and
//! after the games the firmware's RAM report must leave 8 KiB spare.
//!
//! Needs `qemu-system-arm` (Debian `qemu-system-arm`), `flip-link`
//! (`cargo install flip-link`) and, for the GNU Go game, `gnugo`. With `CI`
//! set a missing tool fails the test naming what to install; elsewhere the
//! test says what it skipped.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use kosumi_core::board::Board;
use kosumi_core::geometry::{Color, Point};
use kosumi_core::history::History;

use kosumi_tests::{have, workspace};

/// Return whether QEMU and flip-link, which every firmware test needs, run.
fn have_firmware_tools() -> bool {
    have(
        "qemu-system-arm",
        &["--version"],
        "the Debian package qemu-system-arm",
    ) && have(
        "flip-link",
        &["--version"],
        "flip-link (cargo install flip-link)",
    )
}

/// Build the firmware (release, lm3s6965, semihosting for QEMU) once for
/// all the tests of this file and return the ELF's path.
fn build_firmware() -> PathBuf {
    static ELF: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    ELF.get_or_init(|| build_firmware_with(&[], "target"))
        .clone()
}

/// Build the firmware with extra Cargo `args` into `embedded/<target_dir>`
/// and return the ELF's path.
fn build_firmware_with(args: &[&str], target_dir: &str) -> PathBuf {
    let dir = workspace().join("embedded");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(cargo)
        .args(["build", "--release", "--target-dir", target_dir])
        .args(args)
        .current_dir(&dir)
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("CARGO_BUILD_TARGET")
        .env_remove("RUSTFLAGS")
        .status()
        .expect("run cargo for the firmware");
    assert!(status.success(), "the firmware did not build");
    dir.join(target_dir)
        .join("thumbv7m-none-eabi/release/kosumi-firmware")
}

/// A GTP engine in a child process.
struct Gtp {
    name: String,
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

/// A test that fails midway drops its engines: stop them, or a firmware
/// polling its UART keeps QEMU spinning after the test run.
impl Drop for Gtp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Gtp {
    fn spawn(name: &str, program: &str, args: &[&str]) -> Gtp {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("start {name}: {e}"));
        let input = child.stdin.take().expect("stdin");
        let output = BufReader::new(child.stdout.take().expect("stdout"));
        Gtp {
            name: name.into(),
            child,
            input,
            output,
        }
    }

    /// Send a command and return the answer text; panic on `?`.
    fn ask(&mut self, cmd: &str) -> String {
        writeln!(self.input, "{cmd}").expect("write command");
        self.input.flush().expect("flush");
        let mut text = String::new();
        loop {
            let mut line = String::new();
            let n = self.output.read_line(&mut line).expect("read answer");
            assert!(n > 0, "{} closed its output after `{cmd}`", self.name);
            if line.trim().is_empty() && !text.is_empty() {
                break;
            }
            if !line.trim().is_empty() || !text.is_empty() {
                text.push_str(&line);
            }
        }
        let text = text.trim_end().to_string();
        assert!(
            text.starts_with('='),
            "{} refused `{cmd}`: {text}",
            self.name
        );
        text[1..].trim().to_string()
    }

    /// Send a command that must be refused and return its `?` line.
    fn refused(&mut self, cmd: &str) -> String {
        writeln!(self.input, "{cmd}").expect("write command");
        self.input.flush().expect("flush");
        let mut line = String::new();
        self.output.read_line(&mut line).expect("read answer");
        let mut blank = String::new();
        self.output.read_line(&mut blank).expect("read answer");
        line.trim().to_string()
    }

    fn quit(self) -> std::process::ExitStatus {
        self.quit_with_stderr().0
    }

    /// Send `quit`; return the exit status and everything the engine wrote
    /// to stderr (the firmware's semihosting reports).
    fn quit_with_stderr(mut self) -> (std::process::ExitStatus, String) {
        let _ = writeln!(self.input, "quit");
        let _ = self.input.flush();
        let mut err = Vec::new();
        if let Some(mut e) = self.child.stderr.take() {
            let _ = std::io::Read::read_to_end(&mut e, &mut err);
        }
        let status = self.child.wait().expect("wait");
        (status, String::from_utf8_lossy(&err).into_owned())
    }
}

/// Play one game; return the number of moves.
fn play_game(black: &mut Gtp, white: &mut Gtp, max_moves: usize) -> usize {
    let mut board = Board::new(9).unwrap();
    let mut history: History<512> = History::new();
    history.push(board.position_hash());
    let geo = board.geometry();
    for p in [&mut *black, &mut *white] {
        p.ask("boardsize 9");
        p.ask("clear_board");
        p.ask("komi 7");
    }
    let mut passes = 0;
    for n in 0..max_moves {
        let c = if n % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let (mover, other) = if c == Color::Black {
            (&mut *black, &mut *white)
        } else {
            (&mut *white, &mut *black)
        };
        let letter = if c == Color::Black { "b" } else { "w" };
        let answer = mover.ask(&format!("genmove {letter}"));
        if answer.eq_ignore_ascii_case("resign") {
            return n;
        }
        let p = geo
            .parse_vertex(&answer)
            .unwrap_or_else(|e| panic!("{} answered `{answer}`: {e:?}", mover.name));
        assert!(
            board.is_legal(p, c) && !history.repeats(&board, p, c),
            "{} played an illegal move {answer} as {c:?} at move {}\n{board}",
            mover.name,
            n + 1
        );
        board.play_legal(p, c);
        history.push(board.position_hash());
        other.ask(&format!("play {letter} {answer}"));
        passes = if p == Point::PASS { passes + 1 } else { 0 };
        if passes == 2 {
            return n + 1;
        }
    }
    panic!("no proper end within {max_moves} moves\n{board}");
}

/// Boot `elf` on QEMU's lm3s6965evb, its UART on the pipes; with
/// `semihosting` the host I/O the QEMU builds use, without it as a board
/// with no debugger attached.
fn qemu(name: &str, elf: &Path, semihosting: bool) -> Gtp {
    let elf = elf.to_str().expect("utf-8 path");
    let mut args = vec![
        "-machine",
        "lm3s6965evb",
        "-cpu",
        "cortex-m3",
        "-display",
        "none",
        "-monitor",
        "none",
        "-serial",
        "stdio",
    ];
    if semihosting {
        args.extend(["-semihosting-config", "enable=on,target=native"]);
    }
    args.extend(["-kernel", elf]);
    Gtp::spawn(name, "qemu-system-arm", &args)
}

fn firmware(elf: &Path) -> Gtp {
    let mut fw = qemu("firmware", elf, true);
    assert_eq!(fw.ask("name"), "kosumi");
    fw.ask("kosumi-playouts 300");
    fw
}

#[test]
fn firmware_plays_a_full_game_against_gnugo_over_its_uart() {
    if !have_firmware_tools()
        || !have(
            "/usr/games/gnugo",
            &["--version"],
            "the Debian package gnugo",
        )
    {
        return;
    }
    let elf = build_firmware();
    let mut fw = firmware(&elf);
    let mut gnugo = Gtp::spawn(
        "gnugo",
        "/usr/games/gnugo",
        &["--mode", "gtp", "--level", "1"],
    );
    let moves = play_game(&mut fw, &mut gnugo, 400);
    println!("firmware (black) vs GNU Go level 1: {moves} moves");
    finish(fw, gnugo, moves);
}

#[test]
fn firmware_plays_a_full_game_against_the_host_engine_over_its_uart() {
    if !have_firmware_tools() {
        return;
    }
    let elf = build_firmware();
    let host = kosumi_tests::build_tool("kosumi", "kosumi");
    let host = host.to_str().expect("utf-8 path");
    let mut fw = firmware(&elf);
    let mut kosumi = Gtp::spawn("host engine", host, &["--size", "9", "--playouts", "300"]);
    // The firmware takes White here (Black against GNU Go).
    let moves = play_game(&mut kosumi, &mut fw, 400);
    println!("host engine (black) vs firmware: {moves} moves");
    finish(fw, kosumi, moves);
}

/// The firmware without the move-pattern model in flash (the `patterns`
/// feature off: hand-made priors, no widening) plays a whole game within
/// its RAM budget.
#[test]
fn firmware_without_the_pattern_table_plays_a_full_game_within_its_ram_budget() {
    if !have_firmware_tools() {
        return;
    }
    let elf = build_firmware_with(
        &[
            "--no-default-features",
            "--features",
            "lm3s6965,semihosting",
        ],
        "target/no-patterns",
    );
    let host = kosumi_tests::build_tool("kosumi", "kosumi");
    let host = host.to_str().expect("utf-8 path");
    let mut fw = firmware(&elf);
    let mut kosumi = Gtp::spawn("host engine", host, &["--size", "9", "--playouts", "300"]);
    let moves = play_game(&mut fw, &mut kosumi, 400);
    println!("firmware without patterns (black) vs host engine: {moves} moves");
    finish(fw, kosumi, moves);
}

/// Place handicap stones with the three commands, as a game starts: the
/// last, `fixed_handicap 2`, stays on the board (C3 G7, white to move).
fn place_handicaps(fw: &mut Gtp) {
    fw.ask("boardsize 9");
    fw.ask("komi 0.5");
    fw.ask("set_free_handicap c3 g7 e5");
    assert_eq!(fw.refused("set_free_handicap c3 g7"), "? board not empty");
    fw.ask("clear_board");
    assert_eq!(fw.ask("place_free_handicap 4"), "C3 G7 C7 G3");
    fw.ask("clear_board");
    assert_eq!(fw.ask("fixed_handicap 2"), "C3 G7");
}

/// Return the stack high-water mark of the firmware's RAM report.
fn stack_high_water(stderr: &str) -> usize {
    stderr
        .lines()
        .find_map(|l| l.split("kosumi-firmware stack-high-water ").nth(1))
        .and_then(|l| l.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| panic!("no stack report on stderr: {stderr:?}"))
}

/// A handicap game keeps the RAM budget of an even one, and placing the
/// stones is not what sets the stack's high-water mark: the search is.
/// The three handicap commands alone, then a game from `fixed_handicap 2`
/// with every move checked. (Placing the stones once tried them on a
/// second board on the stack, a 10,560-byte frame: 11,616 bytes of stack
/// for the commands alone, more than the game's search; now about 1,100
/// against the search's 9,700.)
#[test]
fn firmware_plays_a_handicap_game_within_its_ram_budget() {
    if !have_firmware_tools() {
        return;
    }
    let elf = build_firmware();
    let mut fw = firmware(&elf);
    place_handicaps(&mut fw);
    let (status, stderr) = fw.quit_with_stderr();
    assert!(status.success(), "quit must end QEMU with status 0");
    let placing = stack_high_water(&stderr);

    let mut fw = firmware(&elf);
    place_handicaps(&mut fw);
    let mut board = Board::new(9).unwrap();
    let geo = board.geometry();
    for v in ["C3", "G7"] {
        board
            .setup_stone(geo.parse_vertex(v).unwrap(), Color::Black)
            .unwrap();
    }
    let mut history: History<64> = History::new();
    history.push(board.position_hash());
    // White moves first after the handicap.
    for n in 0..8 {
        let c = if n % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let answer = fw.ask(if c == Color::White {
            "genmove w"
        } else {
            "genmove b"
        });
        let p = geo
            .parse_vertex(&answer)
            .unwrap_or_else(|e| panic!("the firmware answered `{answer}`: {e:?}"));
        assert!(
            p != Point::PASS && board.is_legal(p, c) && !history.repeats(&board, p, c),
            "the firmware played {answer} as {c:?} at move {}\n{board}",
            n + 1
        );
        board.play_legal(p, c);
        history.push(board.position_hash());
    }
    let (status, stderr) = fw.quit_with_stderr();
    assert!(status.success(), "quit must end QEMU with status 0");
    check_ram_budget(&stderr);
    let game = stack_high_water(&stderr);
    println!("firmware stack: handicap commands {placing}, handicap game {game}");
    assert!(
        placing < game,
        "placing handicap stones took {placing} bytes of stack, the game {game}"
    );
}

/// Check that a game of `moves` was a real one, ask the firmware for its
/// score, quit both engines (QEMU must exit with status 0) and check the
/// firmware's RAM report.
fn finish(mut fw: Gtp, opponent: Gtp, moves: usize) {
    assert!(moves > 10, "a real game has more than {moves} moves");
    fw.ask("final_score");
    let (status, stderr) = fw.quit_with_stderr();
    assert!(status.success(), "quit must end QEMU with status 0");
    opponent.quit();
    check_ram_budget(&stderr);
}

/// The lm3s6965evb has 64 KiB of SRAM; statics plus the stack's high-water
/// mark after a whole game must leave at least 8 KiB spare.
fn check_ram_budget(stderr: &str) {
    let line = stderr
        .lines()
        .find_map(|l| l.split("kosumi-firmware ram ").nth(1))
        .unwrap_or_else(|| panic!("no RAM report on stderr: {stderr:?}"));
    let words: Vec<&str> = line.split_whitespace().collect();
    let num = |key: &str| -> usize {
        let i = words.iter().position(|w| *w == key).expect(key);
        words[i + 1].parse().expect("a number")
    };
    let (stat, stack) = (num("static"), num("stack"));
    println!(
        "firmware RAM: static {stat} + stack high-water {stack} = {} of 65536",
        stat + stack
    );
    assert!(
        stat + stack + 8 * 1024 <= 64 * 1024,
        "static {stat} + stack {stack} leaves less than 8 KiB of the 64 KiB"
    );
}

#[test]
fn firmware_refuses_bad_input_and_keeps_serving() {
    if !have_firmware_tools() {
        return;
    }
    let elf = build_firmware();
    let mut fw = firmware(&elf);
    for (cmd, err) in [
        ("boardsize 19", "? unacceptable size"),
        ("play x e5", "? invalid color or coordinate"),
        ("play b z9", "? invalid color or coordinate"),
        ("frobnicate", "? unknown command"),
        // The host's answers: one GTP layer (`kosumi_core::gtp`).
        ("komi abc", "? syntax error"),
        ("komi 7.3", "? komi must be a multiple of 0.5"),
        ("undo", "? cannot undo"),
        ("genmove", "? syntax error"),
        ("kosumi-playouts 0", "? syntax error"),
    ] {
        assert_eq!(fw.refused(cmd), err, "answer to `{cmd}`");
    }
    // A line longer than the firmware's buffer is refused as a whole.
    let long = format!("play b {}", "e".repeat(300));
    assert_eq!(fw.refused(&long), "? line too long");
    fw.ask("play b e5");
    assert!(fw.ask("showboard").contains("X"));
    fw.ask("undo");
    assert!(!fw.ask("showboard").contains(" X "));
    // Boards up to the build's size: a 7x7 game, then 9x9 again.
    fw.ask("boardsize 7");
    assert!(fw.ask("showboard").contains("  7 . . . . . . . 7"));
    assert_ne!(fw.ask("genmove b"), "");
    fw.ask("boardsize 9");
    assert!(fw.ask("showboard").contains("  9 . . . . . . . . . 9"));
    // Handicap, as the host places it: then white moves.
    assert_eq!(
        fw.refused("fixed_handicap 10"),
        "? invalid number of stones"
    );
    assert_eq!(fw.ask("fixed_handicap 5"), "C3 G7 C7 G3 E5");
    assert_eq!(fw.refused("fixed_handicap 2"), "? board not empty");
    assert_ne!(fw.ask("genmove w"), "");
    fw.ask("clear_board");
    assert!(fw.quit().success());
}

/// The hardware build (feature `rtt`) makes no semihosting call, whose
/// breakpoint faults on a board without a debugger: QEMU without
/// semihosting boots it, it serves GTP, and `quit` resets the chip, which
/// boots again and answers.
#[test]
fn hardware_build_boots_without_semihosting_and_quit_resets_it() {
    if !have_firmware_tools() {
        return;
    }
    let elf = build_firmware_with(
        &[
            "--no-default-features",
            "--features",
            "lm3s6965,rtt,patterns",
        ],
        "target/rtt",
    );
    let mut fw = qemu("firmware (rtt)", &elf, false);
    assert_eq!(fw.ask("name"), "kosumi");
    fw.ask("kosumi-playouts 100");
    fw.ask("play b e5");
    assert!(!fw.ask("genmove w").is_empty());
    fw.ask("quit");
    // Reset: a fresh engine, whose board is empty again (E5 is free).
    assert_eq!(fw.ask("name"), "kosumi");
    fw.ask("play b e5");
    let _ = fw.child.kill();
    let _ = fw.child.wait();
}

/// With a clock (`time_settings`, `time_left`) a move takes the time the
/// clock gives it, read from SysTick, not the playout count: here a cap of
/// a million playouts (minutes under QEMU) and a 1 s byo-yomi. The first
/// moves come from the opening book, without a search.
#[test]
fn firmware_keeps_to_its_clock() {
    if !have_firmware_tools() {
        return;
    }
    let elf = build_firmware();
    let mut fw = firmware(&elf);
    assert!(fw.ask("list_commands").contains("time_left"));
    fw.ask("kosumi-playouts 1000000");
    // The opening book in flash answers the first moves at once (a
    // million playouts would take minutes).
    let start = std::time::Instant::now();
    let first = fw.ask("genmove b");
    assert!(
        start.elapsed().as_secs_f64() < 2.0 && first.len() == 2,
        "the book's first move: {first}"
    );
    fw.ask("clear_board");
    fw.ask("time_settings 0 1 1");
    // Past the opening book (the first three moves): a search.
    for m in ["b e5", "w c3", "b g7"] {
        fw.ask(&format!("play {m}"));
    }
    let start = std::time::Instant::now();
    let mv = fw.ask("genmove w");
    let took = start.elapsed().as_secs_f64();
    // 1 s x 0.85 less 0.1 s of latency: 0.75 s, and one check interval.
    assert!((0.5..3.0).contains(&took), "genmove took {took:.2} s");
    assert!(!mv.is_empty());
    fw.ask("time_left b 0.5 1");
    for (cmd, err) in [
        ("time_settings 1 2", "? syntax error"),
        ("time_left b x 0", "? syntax error"),
        ("time_settings 0 1 1 1", "? syntax error"),
    ] {
        assert_eq!(fw.refused(cmd), err, "answer to `{cmd}`");
    }
    assert!(fw.quit().success());
}

/// The watchdog (a reset after four seconds unfed) is fed while the
/// firmware waits for a command: the game survives a pause of five seconds.
/// (Unfed, the chip resets and the board comes back empty.)
#[test]
fn firmware_waits_for_commands_without_a_watchdog_reset() {
    if !have_firmware_tools() {
        return;
    }
    let elf = build_firmware();
    let mut fw = firmware(&elf);
    fw.ask("play b e5");
    std::thread::sleep(std::time::Duration::from_secs(5));
    assert!(fw.ask("showboard").contains("(X"));
    assert!(fw.quit().success());
}

/// `final_score` counts as the host and GNU Go's referee do: the white
/// stone inside black's area is dead and comes off (the board as it stands
/// would count W+35: the stone makes black's side neutral).
#[test]
fn firmware_final_score_takes_dead_stones_off() {
    if !have_firmware_tools() {
        return;
    }
    let elf = build_firmware();
    let mut fw = firmware(&elf);
    fw.ask("komi 7");
    for row in 1..=9 {
        fw.ask(&format!("play b d{row}"));
        fw.ask(&format!("play w f{row}"));
    }
    fw.ask("play w b5");
    assert_eq!(fw.ask("final_score"), "W+7");
    assert!(fw.quit().success());
}

/// The on-target tests (`embedded/tests/on_target.rs`, `defmt-test`) run
/// on QEMU's lm3s6965evb through the firmware's Cargo runner: every test
/// runs and all pass, read from the decoded defmt log (`defmt-print`), and
/// the run ends with success.
#[test]
fn on_target_tests_pass_under_qemu() {
    if !have_firmware_tools()
        || !have(
            "defmt-print",
            &["--version"],
            "defmt-print (cargo install defmt-print)",
        )
    {
        return;
    }
    let dir = workspace().join("embedded");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let run = Command::new(cargo)
        .args(["test", "--release", "--test", "on_target"])
        .current_dir(&dir)
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("CARGO_BUILD_TARGET")
        .env_remove("RUSTFLAGS")
        .output()
        .expect("run cargo test for the firmware");
    // Cargo's own lines are text; the test binary's defmt frames are not.
    let stderr = String::from_utf8_lossy(&run.stderr);
    let elf = stderr
        .lines()
        .find_map(|l| l.trim().strip_prefix("Running tests/on_target.rs ("))
        .and_then(|l| l.strip_suffix(')'))
        .unwrap_or_else(|| panic!("no test binary in cargo's output: {stderr}"));
    let mut decode = Command::new("defmt-print")
        .args(["-e", elf])
        .current_dir(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start defmt-print");
    decode
        .stdin
        .take()
        .expect("stdin")
        .write_all(&run.stderr)
        .expect("feed defmt-print");
    let log = decode.wait_with_output().expect("defmt-print's output");
    let log = String::from_utf8_lossy(&log.stdout);
    println!("{log}");
    assert!(
        run.status.success(),
        "the on-target tests failed:\n{log}\n{stderr}"
    );
    // defmt-test announces each test as `(k/n) running`: the last must be n.
    let last = log
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix('(')?.split_once(") running"))
        .map(|(count, _)| count.to_string())
        .unwrap_or_else(|| panic!("no test ran:\n{log}"));
    let (k, n) = last.split_once('/').expect("k/n");
    assert_eq!(k, n, "not every test ran:\n{log}");
    assert!(log.contains("all tests passed!"), "{log}");
}
