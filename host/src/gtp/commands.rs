//! The host's own commands, on top of the core's standard ones
//! ([`kosumi_core::gtp::Session`], shared with the firmware): one row per
//! command, name and handler.
//!
//! A handler takes the engine and the arguments and returns the answer's
//! text or a refusal ([`Reply`]); it never panics on input. The session
//! runs these first, then its own; `list_commands` prints the core's then
//! [`NAMES`], `known_command` searches both. To add one: write a
//! `fn(&mut Engine, &[String]) -> Reply` in the module of its concern and
//! add a row to [`COMMANDS`] and its name to [`NAMES`] (a test checks they
//! agree). This table is the top of the engine's modules: it imports the
//! handlers, and no handler imports it.

use super::reply::Reply;
use super::{analyze, book, clock, gogui, options, sgf, tactics, Engine};

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
    // `quit` saves the book first (the core's only stops; book.rs).
    Command { name: "quit", handler: book::quit },
    // Regression (§6.3.5).
    Command { name: "loadsgf", handler: sgf::loadsgf },
    // Debug and extensions (GNU Go's names).
    Command { name: "printsgf", handler: sgf::printsgf },
    // Analysis and kosumi's own.
    Command { name: "lz-genmove_analyze", handler: analyze::lz_genmove_analyze },
    Command { name: "kata-genmove_analyze", handler: analyze::kata_genmove_analyze },
    Command { name: "cputime", handler: clock::cputime },
    Command { name: "gogui-analyze_commands", handler: gogui::analyze_commands },
    Command { name: "gogui-interrupt", handler: gogui::interrupt },
    Command { name: "kosumi-ownership", handler: gogui::ownership },
    Command { name: "kosumi-best_moves", handler: gogui::best_moves },
    Command { name: "kosumi-param", handler: gogui::param },
    Command { name: "kosumi-setoption", handler: options::setoption },
    Command { name: "kosumi-savebook", handler: book::savebook },
    Command { name: "kosumi-loadbook", handler: book::loadbook },
    Command { name: "attack", handler: tactics::attack },
    Command { name: "defend", handler: tactics::defend },
    Command { name: "connect", handler: tactics::connect },
    Command { name: "disconnect", handler: tactics::disconnect },
    Command { name: "owl_attack", handler: tactics::owl_attack },
    Command { name: "owl_defend", handler: tactics::owl_defend },
    Command { name: "dragon_status", handler: tactics::dragon_status },
    Command { name: "kosumi-owl_view", handler: tactics::owl_view },
];

/// The names of [`COMMANDS`] and of the streaming analysis commands the
/// loop runs itself ([`super::analyze::COMMANDS`]), for the core's
/// `list_commands`.
pub const NAMES: &[&str] = &[
    "quit",
    "loadsgf",
    "printsgf",
    "lz-genmove_analyze",
    "kata-genmove_analyze",
    "cputime",
    "gogui-analyze_commands",
    "gogui-interrupt",
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
    "owl_attack",
    "owl_defend",
    "dragon_status",
    "kosumi-owl_view",
    "lz-analyze",
    "analyze",
    "kata-analyze",
];

/// Return the table row of the command `name`.
pub fn find(name: &str) -> Option<&'static Command> {
    COMMANDS.iter().find(|c| c.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_list_the_table_and_the_streams() {
        let mut names: Vec<&str> = COMMANDS.iter().map(|c| c.name).collect();
        names.extend(analyze::COMMANDS.iter().map(|c| c.0));
        assert_eq!(names, NAMES);
    }
}
