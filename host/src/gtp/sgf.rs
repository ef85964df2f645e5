//! SGF in and out for the GTP engine: `loadsgf` plays a record read by
//! the program's one SGF reader ([`kosumi_sgf`]), `printsgf` writes the
//! current game with its information.
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
//! move; a number past the end loads the whole game. The game information
//! (players, date, event, rules, result) comes back with the game.
//!
//! Writing gives `GM`, `FF`, `CA`, `AP`, `SZ`, `KM`, `HA`, the loaded game's
//! information, `RU` (the loaded rules, else `Chinese`: kosumi counts area),
//! `RE` ([`Loaded::result`]), the setup and the moves.

use kosumi_core::geometry::{Color, Geometry, Point};

use kosumi_core::game::Player;
use kosumi_sgf::{GameInfo, RecordError, SgfPoint};

use super::reply::{color_name, Failure, Reply};
use super::{Engine, Game};

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

/// A game read from a record, with what the record said about it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Loaded {
    /// The record's game information.
    pub info: GameInfo,
    /// Moves in the record when it was loaded (`RE` describes that game).
    pub moves: usize,
}

impl Loaded {
    /// Return the `RE` to write for `game`: the record's as long as the
    /// game is still the recorded one; after two passes, `final_score`'s
    /// answer (`score`); otherwise none.
    pub fn result(&self, game: &Game, score: impl FnOnce() -> String) -> String {
        let moves = game.moves();
        let n = moves.len();
        if n >= 2 && moves[n - 2..].iter().all(|m| m.point.is_pass()) {
            score()
        } else if n == self.moves {
            self.info.result.clone()
        } else {
            String::new()
        }
    }
}

/// Return the game of the first tree in `text`, up to before move `until`
/// (counted from 1) if given, and its information; `komi2` is kept when the
/// record has no `KM`.
///
/// # Errors
/// A [`LoadError`] for anything that is not a loadable Go game.
pub fn load(text: &str, until: Option<usize>, komi2: i16) -> Result<(Game, Loaded), LoadError> {
    let rec = kosumi_sgf::read_collection(text)
        .into_iter()
        .next()
        .ok_or(LoadError::Parse)?
        .map_err(|e| match e {
            RecordError::Syntax(_) => LoadError::Parse,
            RecordError::Size(..) => LoadError::Size,
            RecordError::BadValue(_) => LoadError::BadValue,
        })?;
    let komi2 = match rec.info.komi {
        Some(k) if k.abs() < 1000.0 => (k * 2.0).round() as i16,
        _ => komi2,
    };
    let mut game = Game::new(usize::from(rec.size.0), komi2).map_err(|_| LoadError::Size)?;
    let geo = game.board().geometry();
    let setup: Vec<(Point, Option<Color>)> = rec
        .setup
        .iter()
        .map(|&(p, c)| (point(geo, p), Some(c)))
        .collect();
    if !setup.is_empty() {
        game.apply_setup(&setup).map_err(|_| LoadError::BadSetup)?;
    }
    if let Some(n) = rec.info.handicap {
        game.set_handicap_count(n);
        if rec.to_play.is_none() && !setup.is_empty() {
            game.set_to_play(Color::White);
        }
    }
    if let Some(c) = rec.to_play {
        game.set_to_play(c);
    }
    let mut later = rec.later.iter().peekable();
    for i in 0..=rec.moves.len() {
        while let Some(l) = later.next_if(|l| l.after == i) {
            let changes: Vec<_> = l.changes.iter().map(|&(p, c)| (point(geo, p), c)).collect();
            if !changes.is_empty() {
                game.apply_setup(&changes)
                    .map_err(|_| LoadError::BadSetup)?;
            }
            if let Some(c) = l.to_play {
                game.set_to_play(c);
            }
        }
        let Some(&(c, p)) = rec.moves.get(i) else {
            break;
        };
        if until == Some(i + 1) {
            game.set_to_play(c);
            break;
        }
        let p = p.map_or(Point::PASS, |p| point(geo, p));
        game.play_record(c, p).map_err(|_| LoadError::IllegalMove)?;
    }
    let moves = game.moves().len();
    Ok((
        game,
        Loaded {
            info: rec.info,
            moves,
        },
    ))
}

/// Return the board point of an SGF point (`aa` is the top left; the
/// reader checked it lies on the board).
fn point(geo: Geometry, (x, y): SgfPoint) -> Point {
    geo.point(usize::from(x), geo.size() - 1 - usize::from(y))
}

/// Return the game as a one-line SGF record (the core's writer) with the
/// game information `info` (its `RE` as given) among the root's
/// properties.
pub fn write(game: &Game, info: &GameInfo) -> String {
    let mut info = info.clone();
    if info.rules.is_empty() {
        info.rules = "Chinese".into();
    }
    let mut out = String::new();
    // A `String` takes every write.
    let _ = kosumi_core::gtp::sgf::write_record(
        &mut out,
        game,
        ("kosumi", env!("CARGO_PKG_VERSION")),
        &mut |o| {
            let mut props = String::new();
            info.write(&mut props);
            o.write_str(&props)
        },
    );
    out
}

// ---- the commands ---------------------------------------------------------

/// `loadsgf FILE [N]`
pub fn loadsgf(engine: &mut Engine, args: &[String]) -> Reply {
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
        load(&text, until, engine.game.komi2()).map_err(|_| Failure::CannotLoad)?;
    engine.game = game;
    engine.player.play.new_game();
    engine.player.loaded = loaded;
    Ok(color_name(engine.game.to_play()).into())
}

/// `printsgf [FILE]`
pub fn printsgf(engine: &mut Engine, args: &[String]) -> Reply {
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
    let text = write(&engine.game, &info);
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
    use kosumi_core::geometry::Cell;

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
        let info = GameInfo {
            black: "kosumi".into(),
            white: "Go[Seigen]".into(),
            date: "2026-11-24".into(),
            ..GameInfo::default()
        };
        let text = write(&g, &info);
        let (back, loaded) = load(&text, None, 0).unwrap();
        assert_eq!(write(&back, &loaded.info), text);
        assert!(back.board().identical(g.board()));
        assert_eq!(back.komi2(), 13);
        assert_eq!(loaded.info.white, "Go[Seigen]");
        assert_eq!(loaded.info.rules, "Chinese");
        assert_eq!(loaded.moves, 3);
    }

    #[test]
    fn the_result_is_the_records_until_the_game_changes_then_the_score() {
        let text = "(;SZ[5]KM[0.5]RE[W+R];B[cc];W[dd])";
        let (mut g, loaded) = load(text, None, 0).unwrap();
        let score = || "B+3.5".to_string();
        assert_eq!(loaded.result(&g, score), "W+R");
        let pass = Point::PASS;
        g.play(Color::Black, pass).unwrap();
        assert_eq!(loaded.result(&g, score), "");
        g.play(Color::White, pass).unwrap();
        assert_eq!(loaded.result(&g, score), "B+3.5");
        let out = write(
            &g,
            &GameInfo {
                result: loaded.result(&g, score),
                ..loaded.info
            },
        );
        assert!(
            out.contains("RE[B+3.5]") && out.ends_with(";B[];W[])"),
            "{out}"
        );
    }

    #[test]
    fn setup_in_a_later_node_starts_the_game_there() {
        let text = "(;SZ[5];B[cc];W[dd];AE[cc]AB[aa]PL[W])";
        let (g, _) = load(text, None, 0).unwrap();
        let geo = g.board().geometry();
        let v = |s: &str| geo.parse_vertex(s).unwrap();
        assert_eq!(g.board().at(v("a5")), Cell::Black);
        assert_eq!(g.board().at(v("c3")), Cell::Empty);
        assert_eq!(g.to_play(), Color::White);
    }

    #[test]
    fn move_number_sets_the_side_to_move() {
        let text = "(;SZ[5];B[cc];W[dd];B[bb])";
        let (g, _) = load(text, Some(2), 15).unwrap();
        assert_eq!(g.moves().len(), 1);
        assert_eq!(g.to_play(), Color::White);
        assert_eq!(g.komi2(), 15);
        let (g, _) = load(text, Some(99), 15).unwrap();
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
