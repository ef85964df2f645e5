//! A game as an SGF record (FF\[4\], one line): the one writer of a game,
//! behind the session's `printsgf` (the firmware's and the browser's) and
//! the host's (which adds the game information of a loaded record,
//! written by the one SGF reader's crate, `kosumi-sgf`).
//!
//! The root holds `GM`, `FF`, `CA`, `AP`, `SZ`, `KM`, `HA` for two stones
//! or more, then what the caller adds (rules, players, result), then the
//! setup stones (`AB`, `AW`) and `PL[W]` when white moves first; a node
//! follows for each move, `B[]`/`W[]` for a pass.

use core::fmt::{self, Write};

use super::args::write_halves;
use crate::game::Game;
use crate::geometry::{Color, Geometry, Point};

/// Write `game` to `out` as an SGF record made by `app`, a name and a
/// version (`AP[name:version]`), with the root properties `root` writes
/// after the board's.
///
/// # Errors
/// When `out` or `root` fails.
pub fn write_record<const MOVES: usize, const SETUP: usize>(
    out: &mut dyn Write,
    game: &Game<MOVES, SETUP>,
    app: (&str, &str),
    root: &mut dyn FnMut(&mut dyn Write) -> fmt::Result,
) -> fmt::Result {
    let geo = game.board().geometry();
    let (name, version) = app;
    write!(
        out,
        "(;GM[1]FF[4]CA[UTF-8]AP[{name}:{version}]SZ[{}]KM[",
        geo.size()
    )?;
    write_halves(out, game.komi2().into())?;
    out.write_char(']')?;
    if game.handicap() >= 2 {
        write!(out, "HA[{}]", game.handicap())?;
    }
    root(out)?;
    for (c, tag) in [(Color::Black, "AB"), (Color::White, "AW")] {
        let mut stones = game.setup().iter().filter(|s| s.1 == c).peekable();
        if stones.peek().is_some() {
            out.write_str(tag)?;
        }
        for &(p, _) in stones {
            out.write_char('[')?;
            point(out, geo, p)?;
            out.write_char(']')?;
        }
    }
    if game.first_to_play() == Color::White {
        out.write_str("PL[W]")?;
    }
    for m in game.moves() {
        out.write_str(if m.color == Color::Black {
            ";B["
        } else {
            ";W["
        })?;
        point(out, geo, m.point)?;
        out.write_char(']')?;
    }
    out.write_char(')')
}

/// Write the SGF name of a board point (`aa` is the top left; nothing for
/// a pass).
fn point(out: &mut dyn Write, geo: Geometry, p: Point) -> fmt::Result {
    if p.is_pass() {
        return Ok(());
    }
    let (x, y) = geo.coords(p);
    let letter = |i: usize| char::from(b'a' + i as u8);
    out.write_char(letter(x))?;
    out.write_char(letter(geo.size() - 1 - y))
}
