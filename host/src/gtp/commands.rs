//! The command table: one row per GTP command, name and handler.
//!
//! A handler takes the engine and the arguments and returns the answer's
//! text or a [`Failure`]; it never panics on input. `list_commands` prints
//! the table in order, `known_command` searches it, so a command exists
//! exactly when it has a row. To add one (`genmove`, `attack`, ...): write a
//! `fn(&mut Engine, &[String]) -> Reply` (here, or in a module of its own
//! for anything longer than a screen) and add a row to [`COMMANDS`].

use std::fmt;

use kosumi_core::geometry::{Color, Point, MAX_SIZE, MIN_SIZE};

use super::game::{PlayError, SetupError};
use super::{genmove, handicap, scoring, sgf, Engine};

/// A failed command; its `Display` is the GTP error text.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Failure {
    /// The command is not in the table.
    UnknownCommand,
    /// Wrong number or form of arguments.
    Syntax,
    /// A colour or vertex that does not parse or is off the board.
    BadColorOrVertex,
    /// The move is occupied, suicide, a ko retake or repeats a position.
    IllegalMove,
    /// `boardsize` outside what the core supports.
    UnacceptableSize,
    /// A komi that is no multiple of 0.5.
    BadKomi,
    /// A komi beyond ±1000.
    KomiRange,
    /// `undo` with no move to take back.
    CannotUndo,
    /// Handicap on a board with stones.
    BoardNotEmpty,
    /// A handicap count not allowed on this board.
    BadStoneCount,
    /// `set_free_handicap` with a bad vertex list.
    BadVertexList,
    /// `loadsgf` could not read the file.
    CannotOpen,
    /// `loadsgf` read a file that is no usable game.
    CannotLoad,
    /// `printsgf` could not write the file.
    CannotWrite,
    /// `attack`/`defend` of a point without a stone.
    EmptyVertex,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Failure::UnknownCommand => "unknown command",
            Failure::Syntax => "syntax error",
            Failure::BadColorOrVertex => "invalid color or coordinate",
            Failure::IllegalMove => "illegal move",
            Failure::UnacceptableSize => "unacceptable size",
            Failure::BadKomi => "komi must be a multiple of 0.5",
            Failure::KomiRange => "komi out of range",
            Failure::CannotUndo => "cannot undo",
            Failure::BoardNotEmpty => "board not empty",
            Failure::BadStoneCount => "invalid number of stones",
            Failure::BadVertexList => "bad vertex list",
            Failure::CannotOpen => "cannot open file",
            Failure::CannotLoad => "cannot load file",
            Failure::CannotWrite => "cannot write file",
            Failure::EmptyVertex => "vertex must not be empty",
        })
    }
}

/// What a handler returns: the answer's text, or why it failed.
pub type Reply = Result<String, Failure>;

/// A command handler.
pub type Handler = fn(&mut Engine, &[String]) -> Reply;

/// One row of the command table.
pub struct Command {
    /// The GTP name.
    pub name: &'static str,
    /// What runs it.
    pub handler: Handler,
}

/// Every command the engine knows, in `list_commands` order.
#[rustfmt::skip]
pub const COMMANDS: &[Command] = &[
    // Administrative (GTP v2 §6.3.1).
    Command { name: "protocol_version", handler: protocol_version },
    Command { name: "name", handler: name },
    Command { name: "version", handler: version },
    Command { name: "known_command", handler: known_command },
    Command { name: "list_commands", handler: list_commands },
    Command { name: "quit", handler: genmove::quit },
    // Setup (§6.3.2).
    Command { name: "boardsize", handler: boardsize },
    Command { name: "clear_board", handler: clear_board },
    Command { name: "komi", handler: komi },
    Command { name: "fixed_handicap", handler: fixed_handicap },
    Command { name: "place_free_handicap", handler: place_free_handicap },
    Command { name: "set_free_handicap", handler: set_free_handicap },
    // Core play (§6.3.3). `genmove` joins here with the searcher.
    Command { name: "play", handler: play },
    Command { name: "genmove", handler: genmove::genmove },
    Command { name: "undo", handler: undo },
    // Tournament (§6.3.4).
    Command { name: "final_score", handler: scoring::final_score },
    Command { name: "final_status_list", handler: scoring::final_status_list },
    Command { name: "time_settings", handler: genmove::time_settings },
    Command { name: "time_left", handler: genmove::time_left },
    Command { name: "kgs-time_settings", handler: genmove::kgs_time_settings },
    Command { name: "kgs-genmove_cleanup", handler: genmove::genmove_cleanup },
    // Regression (§6.3.5).
    Command { name: "loadsgf", handler: loadsgf },
    Command { name: "reg_genmove", handler: genmove::reg_genmove },
    // Debug and extensions (GNU Go's names). `attack`/`defend` join here
    // with the tactical reader.
    Command { name: "showboard", handler: showboard },
    Command { name: "printsgf", handler: printsgf },
    Command { name: "is_legal", handler: is_legal },
    // Analysis and kosumi's own (genmove.rs).
    Command { name: "lz-analyze", handler: genmove::lz_analyze },
    Command { name: "lz-genmove_analyze", handler: genmove::lz_genmove_analyze },
    Command { name: "gogui-analyze_commands", handler: genmove::gogui_analyze_commands },
    Command { name: "kosumi-setoption", handler: genmove::setoption },
    Command { name: "kosumi-savebook", handler: genmove::savebook },
    Command { name: "kosumi-loadbook", handler: genmove::loadbook },
    Command { name: "attack", handler: super::tactics::attack },
    Command { name: "defend", handler: super::tactics::defend },
];

/// Return the table row of the command `name`.
pub fn find(name: &str) -> Option<&'static Command> {
    COMMANDS.iter().find(|c| c.name == name)
}

/// Run the command `name` with `args`.
pub fn dispatch(engine: &mut Engine, name: &str, args: &[String]) -> Reply {
    match find(name) {
        Some(cmd) => (cmd.handler)(engine, args),
        None => Err(Failure::UnknownCommand),
    }
}

// ---- argument helpers -----------------------------------------------------

/// Return the arguments as an array of exactly `N`.
pub fn exactly<const N: usize>(args: &[String]) -> Result<[&str; N], Failure> {
    if args.len() != N {
        return Err(Failure::Syntax);
    }
    Ok(core::array::from_fn(|i| args[i].as_str()))
}

/// Parse a GTP colour: `b`, `black`, `w`, `white`, any case.
pub fn parse_color(text: &str) -> Result<Color, Failure> {
    match text.to_ascii_lowercase().as_str() {
        "b" | "black" => Ok(Color::Black),
        "w" | "white" => Ok(Color::White),
        _ => Err(Failure::BadColorOrVertex),
    }
}

/// Return the GTP name of a colour.
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// Parse a vertex (or `pass`) on the engine's board.
pub fn parse_vertex(engine: &Engine, text: &str) -> Result<Point, Failure> {
    let geo = engine.game.board().geometry();
    geo.parse_vertex(text)
        .map_err(|_| Failure::BadColorOrVertex)
}

/// Parse a `COLOR VERTEX` pair.
fn parse_move(engine: &Engine, args: &[String]) -> Result<(Color, Point), Failure> {
    let [c, v] = exactly::<2>(args)?;
    Ok((parse_color(c)?, parse_vertex(engine, v)?))
}

/// Write the vertices `points` space-separated.
fn vertex_list(engine: &Engine, points: &[Point]) -> String {
    let geo = engine.game.board().geometry();
    let mut buf = [0u8; 4];
    let names: Vec<String> = points
        .iter()
        .map(|&p| geo.vertex_str(p, &mut buf).to_string())
        .collect();
    names.join(" ")
}

/// Write `half / 2` as GTP writes a float (`7.5`, `-3`, `0`).
pub fn halves(half: i32) -> String {
    format!("{}", f64::from(half) / 2.0)
}

// ---- administrative ------------------------------------------------------

fn protocol_version(_: &mut Engine, args: &[String]) -> Reply {
    exactly::<0>(args)?;
    Ok("2".into())
}

fn name(_: &mut Engine, args: &[String]) -> Reply {
    exactly::<0>(args)?;
    Ok("kosumi".into())
}

fn version(_: &mut Engine, args: &[String]) -> Reply {
    exactly::<0>(args)?;
    Ok(env!("CARGO_PKG_VERSION").into())
}

fn known_command(_: &mut Engine, args: &[String]) -> Reply {
    let [name] = exactly::<1>(args)?;
    Ok(if find(name).is_some() {
        "true"
    } else {
        "false"
    }
    .into())
}

fn list_commands(_: &mut Engine, args: &[String]) -> Reply {
    exactly::<0>(args)?;
    let names: Vec<&str> = COMMANDS.iter().map(|c| c.name).collect();
    Ok(names.join("\n"))
}

// ---- setup ---------------------------------------------------------------

fn boardsize(engine: &mut Engine, args: &[String]) -> Reply {
    let [n] = exactly::<1>(args)?;
    let size: i64 = match n.parse() {
        Ok(size) => size,
        Err(_) if n.bytes().all(|b| b.is_ascii_digit()) => i64::MAX,
        Err(_) => return Err(Failure::Syntax),
    };
    if size < MIN_SIZE as i64 || size > MAX_SIZE as i64 {
        return Err(Failure::UnacceptableSize);
    }
    engine
        .game
        .resize(size as usize)
        .map_err(|_| Failure::UnacceptableSize)?;
    engine.services.play.new_game();
    Ok(String::new())
}

fn clear_board(engine: &mut Engine, args: &[String]) -> Reply {
    exactly::<0>(args)?;
    engine.game.clear();
    engine.services.play.new_game();
    Ok(String::new())
}

/// Parse a komi: a float that is a multiple of 0.5; return twice it.
pub fn parse_komi(text: &str) -> Result<i16, Failure> {
    let k: f64 = text.parse().map_err(|_| Failure::Syntax)?;
    if !k.is_finite() {
        return Err(Failure::Syntax);
    }
    let k2 = k * 2.0;
    if k2.abs() > 2000.0 {
        return Err(Failure::KomiRange);
    }
    if k2.fract() != 0.0 {
        return Err(Failure::BadKomi);
    }
    Ok(k2 as i16)
}

fn komi(engine: &mut Engine, args: &[String]) -> Reply {
    let [k] = exactly::<1>(args)?;
    engine.game.set_komi2(parse_komi(k)?);
    Ok(String::new())
}

/// Parse a handicap stone count.
fn stone_count(text: &str) -> Result<usize, Failure> {
    match text.parse::<i64>() {
        Ok(n) => usize::try_from(n).map_err(|_| Failure::BadStoneCount),
        Err(_) if text.bytes().all(|b| b.is_ascii_digit()) => Err(Failure::BadStoneCount),
        Err(_) => Err(Failure::Syntax),
    }
}

fn setup_failure(e: SetupError) -> Failure {
    match e {
        SetupError::BoardNotEmpty => Failure::BoardNotEmpty,
        SetupError::BadStones => Failure::BadVertexList,
    }
}

fn fixed_handicap(engine: &mut Engine, args: &[String]) -> Reply {
    let [n] = exactly::<1>(args)?;
    let n = stone_count(n)?;
    if !engine.game.board_is_empty() {
        return Err(Failure::BoardNotEmpty);
    }
    let geo = engine.game.board().geometry();
    let points = handicap::fixed(geo, n).ok_or(Failure::BadStoneCount)?;
    engine.game.place_handicap(&points).map_err(setup_failure)?;
    Ok(vertex_list(engine, &points))
}

fn place_free_handicap(engine: &mut Engine, args: &[String]) -> Reply {
    let [n] = exactly::<1>(args)?;
    let n = stone_count(n)?;
    if !engine.game.board_is_empty() {
        return Err(Failure::BoardNotEmpty);
    }
    let geo = engine.game.board().geometry();
    let points = handicap::free(geo, n).ok_or(Failure::BadStoneCount)?;
    engine.game.place_handicap(&points).map_err(setup_failure)?;
    Ok(vertex_list(engine, &points))
}

fn set_free_handicap(engine: &mut Engine, args: &[String]) -> Reply {
    if !engine.game.board_is_empty() {
        return Err(Failure::BoardNotEmpty);
    }
    let size = engine.game.size();
    if args.len() < 2 || args.len() >= size * size {
        return Err(Failure::BadVertexList);
    }
    let mut points = Vec::with_capacity(args.len());
    for a in args {
        match parse_vertex(engine, a) {
            Ok(p) if !p.is_pass() => points.push(p),
            _ => return Err(Failure::BadVertexList),
        }
    }
    engine.game.place_handicap(&points).map_err(setup_failure)?;
    Ok(String::new())
}

// ---- play ----------------------------------------------------------------

fn play(engine: &mut Engine, args: &[String]) -> Reply {
    let (c, p) = parse_move(engine, args)?;
    engine
        .game
        .play(c, p)
        .map_err(|_: PlayError| Failure::IllegalMove)?;
    Ok(String::new())
}

fn undo(engine: &mut Engine, args: &[String]) -> Reply {
    exactly::<0>(args)?;
    if engine.game.undo() {
        Ok(String::new())
    } else {
        Err(Failure::CannotUndo)
    }
}

fn is_legal(engine: &mut Engine, args: &[String]) -> Reply {
    let (c, p) = parse_move(engine, args)?;
    Ok(if engine.game.check(c, p).is_ok() {
        "1"
    } else {
        "0"
    }
    .into())
}

// ---- scoring -------------------------------------------------------------

// ---- files ---------------------------------------------------------------

fn loadsgf(engine: &mut Engine, args: &[String]) -> Reply {
    let (file, until) = match args {
        [file] => (file, None),
        [file, n] => match n.parse::<usize>() {
            Ok(n) if n >= 1 => (file, Some(n)),
            _ => return Err(Failure::Syntax),
        },
        _ => return Err(Failure::Syntax),
    };
    let bytes = std::fs::read(file).map_err(|_| Failure::CannotOpen)?;
    let text = String::from_utf8_lossy(&bytes);
    let game = sgf::load(&text, until, engine.game.komi2()).map_err(|_| Failure::CannotLoad)?;
    engine.game = game;
    engine.services.play.new_game();
    Ok(color_name(engine.game.to_play()).into())
}

fn printsgf(engine: &mut Engine, args: &[String]) -> Reply {
    let text = sgf::write(&engine.game);
    match args {
        [] => Ok(text),
        [file] => {
            std::fs::write(file, text + "\n").map_err(|_| Failure::CannotWrite)?;
            Ok(String::new())
        }
        _ => Err(Failure::Syntax),
    }
}

// ---- debug ---------------------------------------------------------------

fn showboard(engine: &mut Engine, args: &[String]) -> Reply {
    exactly::<0>(args)?;
    let g = &engine.game;
    let b = g.board();
    Ok(format!(
        "\n{}{} to play, komi {}, captures black {} white {}, moves {}",
        b,
        color_name(g.to_play()),
        halves(g.komi2().into()),
        b.captures(Color::Black),
        b.captures(Color::White),
        g.moves().len(),
    ))
}
