//! SGF in and out: `loadsgf` reads a game's main line with the `sgf-parse`
//! crate, `printsgf` writes the current game.
//!
//! Loading follows GNU Go: `SZ` (square, default 19) sets the board, `KM`
//! the komi (rounded to half points; absent, the engine's komi stays),
//! `AB`/`AW`/`AE` set stones up, `PL` the side to move, `HA` with setup
//! stones and no `PL` gives white the move. Moves are played as recorded;
//! a repeated position is accepted (records under other rules hold them),
//! a move the board refuses makes the file unloadable. `B[tt]` is a pass
//! on boards up to 19x19, as FF\[3\] had it. Setup in a later node makes
//! that position the start of the game (undo stops there). With a move
//! number `n`, moves `1..n` are played and the colour of move `n` is to
//! move; a number past the end loads the whole game. A move value with
//! whitespace inside (`W[oq` and a line break, in old records) is read as
//! the game database reads it ([`sgf_game`]'s lenient rule).

use std::collections::HashSet;

use kosumi_core::geometry::{Color, Geometry, Point};
use sgf_parse::go::{self, Move, Prop};

use super::Game;
use crate::sgf_game;

/// Why a record was not loaded.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum LoadError {
    /// The text is no SGF collection, or holds no Go game.
    Parse,
    /// The board is not square or its size is not supported.
    Size,
    /// A point lies off the board or a property value is malformed.
    BadValue,
    /// Setup stones leave a chain without liberties.
    BadSetup,
    /// A recorded move is refused by the board.
    IllegalMove,
}

/// Return the game of the first tree in `text`, up to before move `until`
/// (counted from 1) if given; `komi2` is kept when the record has no `KM`.
///
/// # Errors
/// A [`LoadError`] for anything that is not a loadable Go game.
pub fn load(text: &str, until: Option<usize>, komi2: i16) -> Result<Game, LoadError> {
    let trees = go::parse(text).map_err(|_| LoadError::Parse)?;
    let root = trees.first().ok_or(LoadError::Parse)?;
    let size = match root.get_property("SZ") {
        None => 19,
        Some(Prop::SZ((w, h))) if w == h => *w as usize,
        Some(_) => return Err(LoadError::Size),
    };
    let komi2 = match root.get_property("KM") {
        Some(Prop::KM(k)) if k.is_finite() && k.abs() < 1000.0 => (k * 2.0).round() as i16,
        _ => komi2,
    };
    let mut game = Game::new(size, komi2).map_err(|_| LoadError::Size)?;
    let geo = game.board().geometry();
    let mut played = 0usize;
    for node in root.main_variation() {
        let mut changes = Vec::new();
        let (mut to_play, mut mv) = (None, None);
        let mut handicap = None;
        for prop in node.properties() {
            match prop {
                Prop::AB(ps) => add_changes(geo, ps, Some(Color::Black), &mut changes)?,
                Prop::AW(ps) => add_changes(geo, ps, Some(Color::White), &mut changes)?,
                Prop::AE(ps) => add_changes(geo, ps, None, &mut changes)?,
                Prop::PL(c) => to_play = Some(color(*c)),
                Prop::HA(n) => handicap = Some(*n),
                Prop::B(m) => mv = Some((Color::Black, to_point(geo, m)?)),
                Prop::W(m) => mv = Some((Color::White, to_point(geo, m)?)),
                // A line break inside a move value (`W[oq\n]`), as some
                // old records have: read as the database reads it.
                Prop::Invalid(id, values) if matches!(id.as_str(), "B" | "W") => {
                    let c = if id == "B" {
                        Color::Black
                    } else {
                        Color::White
                    };
                    let point = match sgf_game::lenient_move(size as u8, values) {
                        Ok(None) => Point::PASS,
                        Ok(Some((x, y))) => sgf_point(geo, go::Point { x, y })?,
                        Err(_) => return Err(LoadError::BadValue),
                    };
                    mv = Some((c, point));
                }
                Prop::Invalid(id, _) if matches!(id.as_str(), "AB" | "AW" | "AE" | "PL") => {
                    return Err(LoadError::BadValue)
                }
                _ => {}
            }
        }
        if !changes.is_empty() {
            game.apply_setup(&changes)
                .map_err(|_| LoadError::BadSetup)?;
        }
        if let Some(n) = handicap {
            game.set_handicap_count(u32::try_from(n).unwrap_or(0));
            if to_play.is_none() && !game.board_is_empty() && game.moves().is_empty() {
                game.set_to_play(Color::White);
            }
        }
        if let Some(c) = to_play {
            game.set_to_play(c);
        }
        if let Some((c, p)) = mv {
            played += 1;
            if until == Some(played) {
                game.set_to_play(c);
                break;
            }
            game.play_record(c, p).map_err(|_| LoadError::IllegalMove)?;
        }
    }
    Ok(game)
}

/// Return the core colour of an SGF colour.
fn color(c: sgf_parse::Color) -> Color {
    match c {
        sgf_parse::Color::Black => Color::Black,
        sgf_parse::Color::White => Color::White,
    }
}

/// Return the board point of an SGF point (`aa` is the top left).
fn sgf_point(geo: Geometry, p: go::Point) -> Result<Point, LoadError> {
    let (x, y, n) = (p.x as usize, p.y as usize, geo.size());
    if x >= n || y >= n {
        return Err(LoadError::BadValue);
    }
    Ok(geo.point(x, n - 1 - y))
}

/// Return the point of an SGF move; `tt` is a pass on boards up to 19x19.
fn to_point(geo: Geometry, m: &Move) -> Result<Point, LoadError> {
    match *m {
        Move::Pass => Ok(Point::PASS),
        Move::Move(go::Point { x: 19, y: 19 }) if geo.size() <= 19 => Ok(Point::PASS),
        Move::Move(p) => sgf_point(geo, p),
    }
}

/// Append the setup changes for the points `ps`.
fn add_changes(
    geo: Geometry,
    ps: &HashSet<go::Point>,
    c: Option<Color>,
    out: &mut Vec<(Point, Option<Color>)>,
) -> Result<(), LoadError> {
    let mut points = ps
        .iter()
        .map(|&p| sgf_point(geo, p))
        .collect::<Result<Vec<_>, _>>()?;
    points.sort();
    out.extend(points.into_iter().map(|p| (p, c)));
    Ok(())
}

/// Return the SGF name of a board point.
fn sgf_name(geo: Geometry, p: Point) -> String {
    if p.is_pass() {
        return String::new();
    }
    let (x, y) = geo.coords(p);
    let letter = |i: usize| char::from(b'a' + i as u8);
    format!("{}{}", letter(x), letter(geo.size() - 1 - y))
}

/// Return the game as a one-line SGF record (setup, then the moves).
pub fn write(game: &Game) -> String {
    let geo = game.board().geometry();
    let mut out = format!(
        "(;GM[1]FF[4]CA[UTF-8]AP[kosumi:{}]SZ[{}]KM[{}]",
        env!("CARGO_PKG_VERSION"),
        geo.size(),
        f64::from(game.komi2()) / 2.0
    );
    if game.handicap() >= 2 {
        out += &format!("HA[{}]", game.handicap());
    }
    for (c, tag) in [(Color::Black, "AB"), (Color::White, "AW")] {
        let stones: Vec<String> = game
            .setup()
            .iter()
            .filter(|s| s.1 == c)
            .map(|&(p, _)| format!("[{}]", sgf_name(geo, p)))
            .collect();
        if !stones.is_empty() {
            out += tag;
            out += &stones.concat();
        }
    }
    if game.first_to_play() == Color::White {
        out += "PL[W]";
    }
    for m in game.moves() {
        let tag = if m.color == Color::Black { 'B' } else { 'W' };
        out += &format!(";{}[{}]", tag, sgf_name(geo, m.point));
    }
    out.push(')');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn write_then_load_is_the_same_game() {
        let mut g = Game::new(9, 13).unwrap();
        let geo = g.board().geometry();
        let v = |s: &str| geo.parse_vertex(s).unwrap();
        g.place_handicap(&[v("c3"), v("g7")]).unwrap();
        for (c, s) in [
            (Color::White, "e5"),
            (Color::Black, "pass"),
            (Color::White, "a9"),
        ] {
            g.play(c, v(s)).unwrap();
        }
        let text = write(&g);
        let back = load(&text, None, 0).unwrap();
        assert_eq!(write(&back), text);
        assert!(back.board().identical(g.board()));
        assert_eq!(back.komi2(), 13);
    }

    #[test]
    fn move_number_sets_the_side_to_move() {
        let text = "(;SZ[5];B[cc];W[dd];B[bb])";
        let g = load(text, Some(2), 15).unwrap();
        assert_eq!(g.moves().len(), 1);
        assert_eq!(g.to_play(), Color::White);
        assert_eq!(g.komi2(), 15);
        let g = load(text, Some(99), 15).unwrap();
        assert_eq!(g.moves().len(), 3);
        assert_eq!(g.to_play(), Color::White);
    }

    #[test]
    fn refusals() {
        assert_eq!(load("(;SZ[5];B[cc", None, 0).err(), Some(LoadError::Parse));
        assert_eq!(load("(;SZ[5:7])", None, 0).err(), Some(LoadError::Size));
        assert_eq!(load("(;SZ[99])", None, 0).err(), Some(LoadError::Size));
        assert_eq!(
            load("(;SZ[5];B[zz])", None, 0).err(),
            Some(LoadError::BadValue)
        );
        assert_eq!(
            load("(;SZ[5];B[cc];W[cc])", None, 0).err(),
            Some(LoadError::IllegalMove)
        );
        assert_eq!(
            load("(;SZ[2]AB[aa]AW[ab][bb][ba])", None, 0).err(),
            Some(LoadError::BadSetup)
        );
    }
}
