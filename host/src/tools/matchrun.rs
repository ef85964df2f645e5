//! `kosumi match`: play games between two GTP engines and report the win
//! rate with a 95% interval, so anyone can reproduce kosumi's figures.
//!
//! Colours alternate (engine A, given as `--black`, takes black in even
//! games and white in odd ones). The runner keeps its own board and
//! superko history and checks every move; an illegal move, a malformed
//! answer or a move slower than `--time-per-move + --grace` loses the game
//! (`--time-per-move 0`: no clock, for engines given fixed playouts).
//! Games end by resignation, two passes or the move limit, and are scored
//! by area (Tromp-Taylor) on the runner's board, or by a referee engine's
//! `final_score` with `--referee CMD` (GNU Go removes dead stones).
//!
//! Matches are meant for area rules, which the SGF records (`RU[Chinese]`).
//! GNU Go counts territory unless it is given `--chinese-rules`, so a GNU
//! Go referee without it is refused (under a territory count, kosumi's
//! moves inside its own area, harmless under area rules, would each cost
//! a point), and a GNU Go player without it gets a warning (it passes
//! early, leaving dame that area counts). The check reads the command
//! line: a command that mentions `gnugo` is taken for GNU Go.
//!
//! Every game is saved as SGF, and each engine's thinking time (mean and
//! maximum of its `genmove`s, and the CPU time its processes used a move,
//! which machine load does not inflate) is printed with the result. `{game}` in an
//! engine's command line is replaced by the game's number (e.g.
//! `kosumi --seed {game}`), so engines that are restarted for every game
//! with a fixed seed still play different games.

use std::path::PathBuf;
use std::time::Instant;

use kosumi_core::board::Board;
use kosumi_core::geometry::{Color, Point};
use kosumi_core::history::History;

use crate::tools::gtp_client::Engine;

/// Arguments of `kosumi match`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Engine A's command line (black in even games); `{game}` is replaced
    /// by the game's number.
    #[arg(long)]
    pub black: String,
    /// Engine B's command line (white in even games); `{game}` as for A.
    #[arg(long)]
    pub white: String,
    /// Board size.
    #[arg(long, default_value_t = 9)]
    pub size: usize,
    /// Komi.
    #[arg(long, default_value_t = 7.0, allow_negative_numbers = true)]
    pub komi: f64,
    /// Games to play.
    #[arg(long, default_value_t = 10)]
    pub games: u32,
    /// Number of the first game (colours, `{game}` and the SGF file names
    /// follow the game's number): resumes a long match where it stopped.
    #[arg(long, default_value_t = 0)]
    pub first_game: u32,
    /// Seconds per move (sent as byo-yomi: `time_settings 0 S 1`); 0 sends
    /// no clock and sets no time limit, for engines given fixed playouts
    /// (GNU Go then plays at its full level: under a clock it lowers its
    /// level whenever a move takes over a quarter of its time).
    #[arg(long, default_value_t = 1.0)]
    pub time_per_move: f64,
    /// Sudden death: seconds of main time for the whole game (sent as
    /// `time_settings S 0 0`, with `time_left` before every move); an
    /// engine whose time runs out loses on time. Instead of
    /// --time-per-move.
    #[arg(long, default_value_t = 0.0)]
    pub main_time: f64,
    /// Which engines --main-time clocks: `a`, `b` or `both` (an engine
    /// without a clock gets none, and no time limit: GNU Go then plays at
    /// its full level).
    #[arg(long, value_enum, default_value_t = Clocked::Both)]
    pub clock: Clocked,
    /// Handicap stones for black on GTP's fixed points (`fixed_handicap
    /// N`, 2 to 9; white moves first). Give the komi with --komi (0.5 is
    /// usual).
    #[arg(long, default_value_t = 0)]
    pub handicap: u32,
    /// Extra seconds a move may take before it loses on time.
    #[arg(long, default_value_t = 1.0)]
    pub grace: f64,
    /// Referee engine for scoring (its `final_score` after replaying the
    /// game); it must count area, e.g. `gnugo --mode gtp --chinese-rules`.
    #[arg(long)]
    pub referee: Option<String>,
    /// Directory for the SGF files.
    #[arg(long, default_value = "match-sgf")]
    pub sgf_dir: PathBuf,
    /// Do not alternate colours (A always black).
    #[arg(long)]
    pub no_alternate: bool,
}

/// The engines a sudden-death clock applies to.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clocked {
    /// Engine A only.
    A,
    /// Engine B only.
    B,
    /// Both engines.
    Both,
}

/// Return today's date (UTC) as `YYYY-MM-DD`, for the records' `DT`.
fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    civil_date((secs / 86_400) as i64)
}

/// Return the date `days` after 1970-01-01 (Hinnant's `civil_from_days`).
fn civil_date(days: i64) -> String {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// How a game ended.
#[derive(Debug, Clone)]
struct Outcome {
    winner: Option<Color>,
    text: String,
}

/// The thinking time of one engine's `genmove`s, and the CPU time its
/// processes used.
#[derive(Clone, Copy, Default)]
struct Clock {
    total: f64,
    moves: u32,
    max: f64,
    /// CPU seconds of the engine's processes, start-up included (games
    /// whose figure the system gave).
    cpu: f64,
    /// Moves of those games.
    cpu_moves: u32,
    /// The least sudden-death time left after a move (none: no clock).
    least_left: Option<f64>,
}

impl Clock {
    fn add(&mut self, secs: f64) {
        self.total += secs;
        self.moves += 1;
        self.max = self.max.max(secs);
    }

    /// Note the sudden-death time left after a move.
    fn note_left(&mut self, left: f64) {
        self.least_left = Some(self.least_left.map_or(left, |l| l.min(left)));
    }

    fn merge(&mut self, other: Clock) {
        if let Some(left) = other.least_left {
            self.note_left(left);
        }
        self.total += other.total;
        self.moves += other.moves;
        self.max = self.max.max(other.max);
        self.cpu += other.cpu;
        self.cpu_moves += other.cpu_moves;
    }

    /// Note the engine's CPU seconds over this game's moves.
    fn add_cpu(&mut self, cpu: Option<f64>) {
        if let Some(secs) = cpu {
            self.cpu += secs;
            self.cpu_moves = self.moves;
        }
    }

    fn text(self) -> String {
        let cpu = if self.cpu_moves > 0 {
            format!(
                ", CPU {:.3} s a move (start-up included)",
                self.cpu / f64::from(self.cpu_moves)
            )
        } else {
            String::new()
        };
        let left = self
            .least_left
            .map_or(String::new(), |l| format!(", least time left {l:.1} s"));
        format!(
            "{} moves, mean {:.2} s, max {:.2} s{cpu}{left}",
            self.moves,
            self.total / f64::from(self.moves.max(1)),
            self.max
        )
    }
}

/// Return `B` or `W`.
fn letter(c: Color) -> char {
    match c {
        Color::Black => 'B',
        Color::White => 'W',
    }
}

/// Return the SGF coordinate of `p`.
fn sgf_point(board: &Board, p: Point) -> String {
    if p.is_pass() {
        return String::new();
    }
    let (x, y) = board.geometry().coords(p);
    let n = board.size();
    format!(
        "{}{}",
        (b'a' + x as u8) as char,
        (b'a' + (n - 1 - y) as u8) as char
    )
}

/// Return the Wilson 95% interval of `wins` out of `n`.
pub fn wilson(wins: f64, n: f64) -> (f64, f64) {
    if n == 0.0 {
        return (0.0, 1.0);
    }
    let z = 1.96f64;
    let p = wins / n;
    let d = 1.0 + z * z / n;
    let c = (p + z * z / (2.0 * n)) / d;
    let h = z * ((p * (1.0 - p) + z * z / (4.0 * n)) / n).sqrt() / d;
    ((c - h).max(0.0), (c + h).min(1.0))
}

/// Return `cmd` with `{game}` replaced by the game number `g`.
fn for_game(cmd: &str, g: u32) -> String {
    cmd.replace("{game}", &g.to_string())
}

/// Query whether a command runs GNU Go under its default territory rules.
fn gnugo_counts_territory(cmd: &str) -> bool {
    cmd.contains("gnugo") && !cmd.contains("--chinese-rules")
}

/// Place the handicap: `fixed_handicap N` to every engine, the stones
/// black's engine names put on `board`; return them (none without a
/// handicap).
///
/// # Errors
/// An engine that refuses, or stones that differ from engine to engine.
fn place_handicap(
    args: &Args,
    engines: &mut [Engine],
    board: &mut Board,
) -> Result<Vec<Point>, String> {
    if args.handicap == 0 {
        return Ok(Vec::new());
    }
    let mut stones: Option<Vec<String>> = None;
    for e in engines.iter_mut() {
        let named = e.send(&format!("fixed_handicap {}", args.handicap))?;
        let mut named: Vec<String> = named.split_whitespace().map(str::to_uppercase).collect();
        named.sort();
        match &stones {
            Some(s) if *s != named => {
                return Err(format!("handicap stones differ: {s:?} and {named:?}"))
            }
            _ => stones = Some(named),
        }
    }
    let geo = board.geometry();
    let mut points = Vec::new();
    for v in stones.unwrap_or_default() {
        let v = v.as_str();
        let p = geo
            .parse_vertex(v)
            .map_err(|_| format!("bad handicap vertex {v:?}"))?;
        board
            .check_move(p, Color::Black)
            .map_err(|_| format!("handicap stone {v} cannot be placed"))?;
        board.play_legal(p, Color::Black);
        points.push(p);
    }
    // White moves first: the handicap stones were black's turns.
    board.set_to_play(Color::White);
    Ok(points)
}

/// Play one game; `cmds[0]` is black's command, `cmds[1]` white's,
/// `clocked` says which colours have a sudden-death clock, and `clocks`
/// gets each colour's thinking time.
fn play_game(
    args: &Args,
    cmds: [&str; 2],
    clocked: [bool; 2],
    sgf: &mut String,
    clocks: &mut [Clock; 2],
) -> Result<Outcome, String> {
    let mut engines = [Engine::start(cmds[0])?, Engine::start(cmds[1])?];
    let mut board = Board::new(args.size).map_err(|_| "bad size".to_string())?;
    let komi2 = (args.komi * 2.0).round() as i16;
    for (e, &timed) in engines.iter_mut().zip(&clocked) {
        e.send(&format!("boardsize {}", args.size))?;
        e.send("clear_board")?;
        e.send(&format!("komi {}", args.komi))?;
        if args.time_per_move > 0.0 {
            let _ = e.send(&format!("time_settings 0 {} 1", args.time_per_move));
        } else if args.main_time > 0.0 && timed {
            let _ = e.send(&format!("time_settings {} 0 0", args.main_time));
        }
    }
    let handicap = place_handicap(args, &mut engines, &mut board)?;
    let mut history: History<4096> = History::new();
    history.push(board.position_hash());
    // Sudden death: each clocked colour's main time left.
    let mut left = [args.main_time; 2];
    let mut moves: Vec<(Color, Point)> = Vec::new();
    let limit = 3 * args.size * args.size;
    let mut color = board.to_play();
    let outcome = loop {
        if moves.len() >= limit {
            break None;
        }
        let i = color.idx();
        let name = if color == Color::Black { "b" } else { "w" };
        if args.time_per_move > 0.0 {
            let _ = engines[i].send(&format!("time_left {name} {} 1", args.time_per_move));
        } else if args.main_time > 0.0 && clocked[i] {
            let _ = engines[i].send(&format!("time_left {name} {} 0", left[i].max(0.0).floor()));
        }
        let start = Instant::now();
        let answer = engines[i].send(&format!(
            "genmove {}",
            if color == Color::Black { "b" } else { "w" }
        ));
        let secs = start.elapsed().as_secs_f64();
        clocks[i].add(secs);
        let lose = |why: String| Outcome {
            winner: Some(color.opponent()),
            text: format!("{}+{why}", letter(color.opponent())),
        };
        let answer = match answer {
            Ok(a) => a,
            Err(e) => break Some(lose(format!("Forfeit ({e})"))),
        };
        if args.time_per_move > 0.0 && secs > args.time_per_move + args.grace {
            break Some(lose(format!("Time ({secs:.2} s)")));
        }
        if args.main_time > 0.0 && clocked[i] {
            left[i] -= secs;
            clocks[i].note_left(left[i]);
            if left[i] < -args.grace {
                break Some(lose(format!("Time ({:.2} s over)", -left[i])));
            }
        }
        if answer.eq_ignore_ascii_case("resign") {
            break Some(lose("R".into()));
        }
        let p = match board.geometry().parse_vertex(&answer) {
            Ok(p) => p,
            Err(_) => break Some(lose(format!("Forfeit (bad vertex {answer:?})"))),
        };
        if board.check_move(p, color).is_err() || history.repeats(&board, p, color) {
            break Some(lose(format!("Forfeit (illegal {answer})")));
        }
        board.play_legal(p, color);
        history.push(board.position_hash());
        moves.push((color, p));
        let other = &mut engines[color.opponent().idx()];
        if let Err(e) = other.send(&format!(
            "play {} {answer}",
            if color == Color::Black { "b" } else { "w" }
        )) {
            break Some(Outcome {
                winner: Some(color),
                text: format!("{}+Forfeit (refused {answer}: {e})", letter(color)),
            });
        }
        if board.passes() >= 2 {
            break None;
        }
        color = color.opponent();
    };
    let outcome = match outcome {
        Some(o) => o,
        None => score(args, &board, &handicap, &moves, komi2)?,
    };
    for (e, clock) in engines.into_iter().zip(clocks.iter_mut()) {
        clock.add_cpu(e.quit_timed());
    }
    // SGF.
    sgf.clear();
    sgf.push_str(&format!(
        "(;GM[1]FF[4]CA[UTF-8]AP[kosumi match]SZ[{}]KM[{}]RU[Chinese]PB[{}]PW[{}]RE[{}]DT[{}]",
        args.size,
        args.komi,
        cmds[0].replace(']', "\\]"),
        cmds[1].replace(']', "\\]"),
        outcome.text,
        today()
    ));
    let empty = Board::new(args.size).map_err(|_| "bad size".to_string())?;
    if !handicap.is_empty() {
        sgf.push_str(&format!("HA[{}]AB", handicap.len()));
        for p in &handicap {
            sgf.push_str(&format!("[{}]", sgf_point(&empty, *p)));
        }
    }
    for (c, p) in &moves {
        sgf.push_str(&format!(";{}[{}]", letter(*c), sgf_point(&empty, *p)));
    }
    sgf.push_str(")\n");
    Ok(outcome)
}

/// Score a finished game: the referee's `final_score`, else area on our board.
fn score(
    args: &Args,
    board: &Board,
    handicap: &[Point],
    moves: &[(Color, Point)],
    komi2: i16,
) -> Result<Outcome, String> {
    if let Some(cmd) = &args.referee {
        match referee(args, cmd, board, handicap, moves) {
            Ok(o) => return Ok(o),
            Err(e) => eprintln!("referee failed ({e}); scoring by area"),
        }
    }
    let m = board.score(komi2).margin2();
    Ok(Outcome {
        winner: board.score(komi2).winner(),
        text: match m {
            0 => "0".into(),
            m if m > 0 => format!("B+{}", f64::from(m) / 2.0),
            m => format!("W+{}", f64::from(-m) / 2.0),
        },
    })
}

/// Ask the referee engine for the score of the game.
fn referee(
    args: &Args,
    cmd: &str,
    board: &Board,
    handicap: &[Point],
    moves: &[(Color, Point)],
) -> Result<Outcome, String> {
    {
        let mut r = Engine::start(cmd)?;
        r.send(&format!("boardsize {}", args.size))?;
        r.send("clear_board")?;
        r.send(&format!("komi {}", args.komi))?;
        let mut buf = [0u8; 4];
        if !handicap.is_empty() {
            let stones: Vec<String> = handicap
                .iter()
                .map(|p| board.geometry().vertex_str(*p, &mut buf).to_string())
                .collect();
            r.send(&format!("set_free_handicap {}", stones.join(" ")))?;
        }
        for (c, p) in moves {
            let v = board.geometry().vertex_str(*p, &mut buf).to_string();
            r.send(&format!("play {} {v}", letter(*c)))?;
        }
        let s = r.send("final_score")?;
        r.quit();
        let winner = match s.chars().next() {
            Some('B') | Some('b') => Some(Color::Black),
            Some('W') | Some('w') => Some(Color::White),
            _ => None,
        };
        Ok(Outcome { winner, text: s })
    }
}

/// Run the match.
///
/// # Errors
/// An engine that cannot start, or bad arguments.
pub fn run(args: &Args) -> Result<(), String> {
    if args.games == 0 {
        return Err("--games must be at least 1".into());
    }
    if !(args.komi * 2.0).fract().eq(&0.0) {
        return Err("--komi must be a multiple of 0.5".into());
    }
    if args.main_time > 0.0 && args.time_per_move > 0.0 {
        return Err(
            "--main-time and --time-per-move: give one (--time-per-move 0 with --main-time)".into(),
        );
    }
    if args.handicap == 1 || args.handicap > 9 {
        return Err(format!("--handicap {}: 2 to 9 stones, or 0", args.handicap));
    }
    if args.referee.as_deref().is_some_and(gnugo_counts_territory) {
        return Err(
            "the referee counts territory: give GNU Go --chinese-rules (games are played under area rules)"
                .into(),
        );
    }
    if let Some(cmd) = &args.referee {
        // A referee that cannot start would leave every game to the
        // fall-back count: refuse it before the first game.
        let mut r = Engine::start(cmd)?;
        r.send("name").map_err(|e| format!("referee: {e}"))?;
        r.quit();
    }
    for cmd in [&args.black, &args.white] {
        if gnugo_counts_territory(cmd) {
            eprintln!("warning: `{cmd}` plays territory rules; add --chinese-rules for area");
        }
    }
    std::fs::create_dir_all(&args.sgf_dir)
        .map_err(|e| format!("{}: {e}", args.sgf_dir.display()))?;
    let (mut a_wins, mut draws) = (0.0f64, 0u32);
    let mut a_black = (0f64, 0u32);
    let mut a_white = (0f64, 0u32);
    let mut sgf = String::new();
    let (mut a_clock, mut b_clock) = (Clock::default(), Clock::default());
    let last = args
        .first_game
        .checked_add(args.games)
        .ok_or("--first-game + --games is too large")?;
    for (played, g) in (args.first_game..last).enumerate() {
        let a_is_black = args.no_alternate || g % 2 == 0;
        let (a, b) = (for_game(&args.black, g), for_game(&args.white, g));
        let cmds = if a_is_black {
            [a.as_str(), b.as_str()]
        } else {
            [b.as_str(), a.as_str()]
        };
        let mut clocks = [Clock::default(); 2];
        let a_clocked = args.clock != Clocked::B;
        let b_clocked = args.clock != Clocked::A;
        let clocked = if a_is_black {
            [a_clocked, b_clocked]
        } else {
            [b_clocked, a_clocked]
        };
        let out = play_game(args, cmds, clocked, &mut sgf, &mut clocks)?;
        let [black, white] = clocks;
        let (a, b) = if a_is_black {
            (black, white)
        } else {
            (white, black)
        };
        a_clock.merge(a);
        b_clock.merge(b);
        let path = args.sgf_dir.join(format!("game-{g:03}.sgf"));
        std::fs::write(&path, &sgf).map_err(|e| format!("{}: {e}", path.display()))?;
        let a_color = if a_is_black {
            Color::Black
        } else {
            Color::White
        };
        // A's points: 1 a win, 0.5 a draw.
        let points = match out.winner {
            Some(c) if c == a_color => 1.0,
            Some(_) => 0.0,
            None => {
                draws += 1;
                0.5
            }
        };
        a_wins += points;
        let side = if a_is_black {
            &mut a_black
        } else {
            &mut a_white
        };
        side.0 += points;
        side.1 += 1;
        let n = (played + 1) as f64;
        println!(
            "game {g}: A {} {} -> {}  (A {}/{} = {:.1}%)",
            if a_is_black { "black" } else { "white" },
            if out.winner.is_none() {
                "draws"
            } else if points > 0.0 {
                "wins"
            } else {
                "loses"
            },
            out.text,
            a_wins,
            played + 1,
            100.0 * a_wins / n
        );
    }
    let n = f64::from(args.games);
    let (lo, hi) = wilson(a_wins, n);
    println!(
        "A = {}\nB = {}\nA's genmoves: {}\nB's genmoves: {}\nA wins {a_wins}/{} = {:.1}% (95% Wilson interval {:.1}%..{:.1}%), draws {draws} (half a win each); as black {}/{}, as white {}/{}",
        args.black,
        args.white,
        a_clock.text(),
        b_clock.text(),
        args.games,
        100.0 * a_wins / n,
        100.0 * lo,
        100.0 * hi,
        a_black.0,
        a_black.1,
        a_white.0,
        a_white.1
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{civil_date, for_game, gnugo_counts_territory};

    #[test]
    fn record_dates_are_calendar_dates() {
        assert_eq!(civil_date(0), "1970-01-01");
        assert_eq!(civil_date(20_416), "2025-11-24");
        assert_eq!(civil_date(20_781), "2026-11-24");
        assert_eq!(civil_date(11_016), "2000-02-29");
    }

    #[test]
    fn game_number_is_put_into_engine_commands() {
        assert_eq!(for_game("kosumi --seed {game}", 7), "kosumi --seed 7");
        assert_eq!(for_game("gnugo --mode gtp", 7), "gnugo --mode gtp");
    }

    #[test]
    fn gnugo_without_chinese_rules_is_recognised() {
        assert!(gnugo_counts_territory("/usr/games/gnugo --mode gtp"));
        assert!(!gnugo_counts_territory(
            "/usr/games/gnugo --mode gtp --chinese-rules"
        ));
        assert!(!gnugo_counts_territory("kosumi --size 9"));
    }
}
