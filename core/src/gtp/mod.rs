//! The Go Text Protocol (GTP v2) that the host and the firmware share, in
//! fixed memory: lines in ([`line`](mod@line)), answers out ([`answer`]), and the
//! session with the standard commands ([`session`]) over an engine that
//! searches ([`crate::game::Player`]). An embedding adds its own commands
//! on top (the host: files, analysis, options; the firmware: its playout
//! count) and names them in [`Engine::extra_commands`].
//!
//! | module | what it is |
//! |---|---|
//! | [`line`](mod@line) | line cleaning, ids, command names and arguments |
//! | [`answer`] | `=`/`?` answers written as they are made |
//! | [`args`] | colours, vertices, komi and counts read from arguments |
//! | [`session`] | the game, the clock, the resignation rule and the standard commands |
//! | [`sgf`] | the game as an SGF record (`printsgf`) |
//! | [`pool_engine`] | the engine of embeddings without a heap (firmware, browser): the search, its table and reader over caller-given storage |
//! | [`small`] | what a pool engine with tens of KiB of RAM chooses (the firmware's, and the host's `kosumi pool`) |

pub mod answer;
pub mod args;
pub mod line;
pub mod pool_engine;
pub mod session;
pub mod sgf;
pub mod small;

pub use answer::Answer;
pub use line::{Line, Request};
pub use pool_engine::{PoolEngine, Setup, POOL_COMMANDS};
pub use session::{Engine, Session, COMMANDS};

use core::fmt;

/// A failed command; its `Display` is the GTP error text.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Failure {
    /// The command is not known.
    UnknownCommand,
    /// Wrong number or form of arguments.
    Syntax,
    /// A colour or vertex that does not parse or is off the board.
    BadColorOrVertex,
    /// The move is occupied, suicide, a ko retake or repeats a position.
    IllegalMove,
    /// The game record holds no more moves.
    RecordFull,
    /// `boardsize` outside what the build supports.
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
    /// A file could not be read.
    CannotOpen,
    /// A file was read that is no usable game.
    CannotLoad,
    /// A file could not be written.
    CannotWrite,
    /// A command about a stone named an empty point.
    EmptyVertex,
    /// A command about stones of one colour named stones of both.
    DifferentColors,
    /// The engine could not search (its storage could not be made).
    CannotSearch,
}

impl Failure {
    /// Return the GTP error text.
    pub const fn text(self) -> &'static str {
        match self {
            Failure::UnknownCommand => "unknown command",
            Failure::Syntax => "syntax error",
            Failure::BadColorOrVertex => "invalid color or coordinate",
            Failure::IllegalMove => "illegal move",
            Failure::RecordFull => "game record full",
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
            Failure::DifferentColors => "vertices must have same color",
            Failure::CannotSearch => "cannot search",
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text())
    }
}
