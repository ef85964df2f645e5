//! The host's own commands, on top of the core's standard ones
//! ([`kosumi_core::gtp::Session`], shared with the firmware): one row per
//! command, name and handler.
//!
//! A handler takes the engine and the arguments and returns the answer's
//! text or a [`Failure`]; it never panics on input. The session runs these
//! first, then its own; `list_commands` prints the core's then [`NAMES`],
//! `known_command` searches both. To add one: write a
//! `fn(&mut Engine, &[String]) -> Reply` (here, or in a module of its own
//! for anything longer than a screen) and add a row to [`COMMANDS`] and its
//! name to [`NAMES`] (a test checks they agree).

use kosumi_core::game::{Player, SetupError};
use kosumi_core::geometry::Point;
pub use kosumi_core::gtp::args::color_name;
pub use kosumi_core::gtp::Failure;

use super::{analyze, genmove, gogui, handicap, sgf, Engine};

/// What a handler returns: the answer's text, or why it failed.
pub type Reply = Result<String, Refusal>;

/// Why a host command failed: one of GTP's standard failures, or a
/// sentence of its own (the option it does not know and the ones it
/// does, the file it misses).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// A standard failure, answered with its text.
    Gtp(Failure),
    /// The answer's text.
    Said(String),
}

impl From<Failure> for Refusal {
    fn from(f: Failure) -> Self {
        Refusal::Gtp(f)
    }
}

/// A command handler.
pub type Handler = fn(&mut Engine, &[String]) -> Reply;

/// One row of the command table.
pub struct Command {
    /// The GTP name.
    pub name: &'static str,
    /// What runs it.
    pub handler: Handler,
}

/// The host's commands, in `list_commands` order (after the core's).
#[rustfmt::skip]
pub const COMMANDS: &[Command] = &[
    // `quit` saves the book first (the core's only stops).
    Command { name: "quit", handler: genmove::quit },
    // Setup (GTP v2 §6.3.2).
    Command { name: "fixed_handicap", handler: fixed_handicap },
    Command { name: "place_free_handicap", handler: place_free_handicap },
    Command { name: "set_free_handicap", handler: set_free_handicap },
    // Regression (§6.3.5).
    Command { name: "loadsgf", handler: loadsgf },
    // Debug and extensions (GNU Go's names).
    Command { name: "printsgf", handler: printsgf },
    // Analysis and kosumi's own (genmove.rs).
    Command { name: "lz-genmove_analyze", handler: analyze::lz_genmove_analyze },
    Command { name: "kata-genmove_analyze", handler: analyze::kata_genmove_analyze },
    Command { name: "gogui-analyze_commands", handler: gogui::analyze_commands },
    Command { name: "kosumi-ownership", handler: gogui::ownership },
    Command { name: "kosumi-best_moves", handler: gogui::best_moves },
    Command { name: "kosumi-param", handler: gogui::param },
    Command { name: "kosumi-setoption", handler: genmove::setoption },
    Command { name: "kosumi-savebook", handler: genmove::savebook },
    Command { name: "kosumi-loadbook", handler: genmove::loadbook },
    Command { name: "attack", handler: super::tactics::attack },
    Command { name: "defend", handler: super::tactics::defend },
    Command { name: "connect", handler: super::tactics::connect },
    Command { name: "disconnect", handler: super::tactics::disconnect },
];

/// The names of [`COMMANDS`] and of the streaming analysis commands the
/// loop runs itself ([`super::analyze::COMMANDS`]), for the core's
/// `list_commands`.
pub const NAMES: &[&str] = &[
    "quit",
    "fixed_handicap",
    "place_free_handicap",
    "set_free_handicap",
    "loadsgf",
    "printsgf",
    "lz-genmove_analyze",
    "kata-genmove_analyze",
    "gogui-analyze_commands",
    "kosumi-ownership",
    "kosumi-best_moves",
    "kosumi-param",
    "kosumi-setoption",
    "kosumi-savebook",
    "kosumi-loadbook",
    "attack",
    "defend",
    "connect",
    "disconnect",
    "lz-analyze",
    "analyze",
    "kata-analyze",
];

/// Return the table row of the command `name`.
pub fn find(name: &str) -> Option<&'static Command> {
    COMMANDS.iter().find(|c| c.name == name)
}

// ---- argument helpers -----------------------------------------------------

/// Return the arguments as an array of exactly `N`.
pub fn exactly<const N: usize>(args: &[String]) -> Result<[&str; N], Failure> {
    if args.len() != N {
        return Err(Failure::Syntax);
    }
    Ok(core::array::from_fn(|i| args[i].as_str()))
}

/// Parse a vertex (or `pass`) on the engine's board.
pub fn parse_vertex(engine: &Engine, text: &str) -> Result<Point, Failure> {
    let geo = engine.game.board().geometry();
    geo.parse_vertex(text)
        .map_err(|_| Failure::BadColorOrVertex)
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
        return Err(Failure::BoardNotEmpty.into());
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
        return Err(Failure::BoardNotEmpty.into());
    }
    let geo = engine.game.board().geometry();
    let points = handicap::free(geo, n).ok_or(Failure::BadStoneCount)?;
    engine.game.place_handicap(&points).map_err(setup_failure)?;
    Ok(vertex_list(engine, &points))
}

fn set_free_handicap(engine: &mut Engine, args: &[String]) -> Reply {
    if !engine.game.board_is_empty() {
        return Err(Failure::BoardNotEmpty.into());
    }
    let size = engine.game.size();
    if args.len() < 2 || args.len() >= size * size {
        return Err(Failure::BadVertexList.into());
    }
    let mut points = Vec::with_capacity(args.len());
    for a in args {
        match parse_vertex(engine, a) {
            Ok(p) if !p.is_pass() => points.push(p),
            _ => return Err(Failure::BadVertexList.into()),
        }
    }
    engine.game.place_handicap(&points).map_err(setup_failure)?;
    Ok(String::new())
}

// ---- files ---------------------------------------------------------------

fn loadsgf(engine: &mut Engine, args: &[String]) -> Reply {
    let (file, until) = match args {
        [file] => (file, None),
        [file, n] => match n.parse::<usize>() {
            Ok(n) if n >= 1 => (file, Some(n)),
            _ => return Err(Failure::Syntax.into()),
        },
        _ => return Err(Failure::Syntax.into()),
    };
    let bytes = std::fs::read(file).map_err(|_| Failure::CannotOpen)?;
    let text = String::from_utf8_lossy(&bytes);
    let (game, loaded) =
        sgf::load(&text, until, engine.game.komi2()).map_err(|_| Failure::CannotLoad)?;
    engine.game = game;
    engine.player.play.new_game();
    engine.player.loaded = loaded;
    Ok(color_name(engine.game.to_play()).into())
}

fn printsgf(engine: &mut Engine, args: &[String]) -> Reply {
    let loaded = engine.player.loaded.clone();
    let result = loaded.result(&engine.game, || {
        let (board, komi2) = (engine.game.board(), engine.game.komi2());
        let margin2 = engine.player.scorer().final_margin2(board, komi2);
        let mut score = String::new();
        // A `String` takes every write.
        let _ = kosumi_core::gtp::args::write_result(&mut score, margin2);
        score
    });
    let info = kosumi_sgf::GameInfo {
        result,
        ..loaded.info
    };
    let text = sgf::write(&engine.game, &info);
    match args {
        [] => Ok(text),
        [file] => {
            std::fs::write(file, text + "\n").map_err(|_| Failure::CannotWrite)?;
            Ok(String::new())
        }
        _ => Err(Failure::Syntax.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_list_the_table_and_the_streams() {
        let mut names: Vec<&str> = COMMANDS.iter().map(|c| c.name).collect();
        names.extend(super::super::analyze::COMMANDS.iter().map(|c| c.0));
        assert_eq!(names, NAMES);
    }
}
