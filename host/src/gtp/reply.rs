//! What a host command answers, and the argument readers the handlers
//! share: the bottom of the GTP engine's modules (every handler imports
//! it; it imports no handler).

use kosumi_core::geometry::Point;
pub use kosumi_core::gtp::args::color_name;
pub use kosumi_core::gtp::Failure;

use super::Engine;

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
pub fn vertex_list(engine: &Engine, points: &[Point]) -> String {
    let geo = engine.game.board().geometry();
    let mut buf = [0u8; 4];
    let names: Vec<String> = points
        .iter()
        .map(|&p| geo.vertex_str(p, &mut buf).to_string())
        .collect();
    names.join(" ")
}

/// Parse `on`/`off`/`true`/`false`/`1`/`0`.
pub fn flag(text: &str) -> Result<bool, Failure> {
    match text.to_ascii_lowercase().as_str() {
        "on" | "true" | "1" | "yes" => Ok(true),
        "off" | "false" | "0" | "no" => Ok(false),
        _ => Err(Failure::Syntax),
    }
}
