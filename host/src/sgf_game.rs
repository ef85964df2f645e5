//! Game records from SGF text: every game tree of a collection, its main
//! line, setup stones and the players' names, read with the `sgf-parse`
//! crate.
//!
//! This is the record side only (no board): the caller replays the moves and
//! decides what is legal. Coordinates are SGF's: `x` from the left, `y` from
//! the top, both from 0. `tt` on boards up to 19x19 is a pass (FF\[3\]).
//! Setup (`AB`/`AW`/`AE`) is accepted in any node before the first move;
//! setup after a move is reported as unsupported. When `sgf-parse` refuses a
//! whole collection, the text is split into its top-level game trees and each
//! is parsed alone, so one broken game does not lose its neighbours in the
//! same file. (The GTP engine's `loadsgf` keeps its own loader in
//! `gtp/sgf.rs`, with the game's komi, handicap and side to move, and setup
//! in later nodes; it shares this module's lenient reading of moves. One
//! reader for both is still to do.)

use std::collections::BTreeMap;
use std::fmt;

use kosumi_core::geometry::Color;
use sgf_parse::go::{self, Move, Prop};
use sgf_parse::SgfNode;

/// A point in SGF coordinates: `(x, y)`, `y` from the top.
pub type SgfPoint = (u8, u8);

/// One game of a collection: its size, setup, main line and header.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// Board width and height (`SZ`, default 19).
    pub size: (u8, u8),
    /// Setup stones before the first move, sorted by point.
    pub setup: Vec<(SgfPoint, Color)>,
    /// The main line: colour and point (`None` for a pass).
    pub moves: Vec<(Color, Option<SgfPoint>)>,
    /// Black player (`PB`).
    pub black: String,
    /// White player (`PW`).
    pub white: String,
    /// Result (`RE`).
    pub result: String,
    /// Date (`DT`).
    pub date: String,
    /// Event (`EV`).
    pub event: String,
}

/// Why a game tree is not a usable record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// The text is not SGF, or not a Go game (the parser's message).
    Syntax(String),
    /// The board is not square or too large for SGF points.
    Size(u8, u8),
    /// A point lies off the board or a property value is malformed.
    BadValue(&'static str),
    /// Something the records of this program do not hold (setup mid-game).
    Unsupported(&'static str),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Syntax(m) => write!(f, "broken SGF: {m}"),
            RecordError::Size(w, h) if w == h => write!(f, "unsupported size {w}x{h}"),
            RecordError::Size(w, h) => write!(f, "unsupported size {w}x{h} (not square)"),
            RecordError::BadValue(m) => write!(f, "bad value: {m}"),
            RecordError::Unsupported(m) => write!(f, "unsupported: {m}"),
        }
    }
}

/// Return every game tree of `text`, each as a record or the reason it is
/// not one; an empty or tree-less text gives one error.
pub fn read_collection(text: &str) -> Vec<Result<Record, RecordError>> {
    match go::parse(text) {
        Ok(trees) if !trees.is_empty() => trees.iter().map(record).collect(),
        Ok(_) => vec![Err(RecordError::Syntax("no game tree".into()))],
        Err(e) => {
            let parts = split_trees(text);
            if parts.len() <= 1 {
                return vec![Err(RecordError::Syntax(e.to_string()))];
            }
            parts
                .into_iter()
                .map(|part| match go::parse(part) {
                    Ok(trees) if trees.len() == 1 => record(&trees[0]),
                    Ok(_) => Err(RecordError::Syntax("no game tree".into())),
                    Err(e) => Err(RecordError::Syntax(e.to_string())),
                })
                .collect()
        }
    }
}

/// Split `text` into its top-level `( ... )` game trees, minding property
/// values (`[...]` with `\` escapes); an unclosed tree runs to the end.
fn split_trees(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let (mut out, mut depth, mut start) = (Vec::new(), 0usize, 0usize);
    let (mut in_value, mut escaped) = (false, false);
    for (i, &b) in bytes.iter().enumerate() {
        if in_value {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b']') => in_value = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'[' => in_value = true,
            b'(' => {
                if depth == 0 {
                    start = i;
                }
                depth += 1;
            }
            b')' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    out.push(&text[start..=i]);
                }
            }
            _ => {}
        }
    }
    if depth > 0 {
        out.push(&text[start..]);
    }
    out
}

/// Return the record of one game tree.
fn record(root: &SgfNode<Prop>) -> Result<Record, RecordError> {
    let (w, h) = match root.get_property("SZ") {
        None => (19, 19),
        Some(Prop::SZ((w, h))) => (*w, *h),
        Some(_) => return Err(RecordError::BadValue("SZ")),
    };
    if w != h || !(2..=25).contains(&w) {
        return Err(RecordError::Size(w, h));
    }
    let n = w;
    let mut rec = Record {
        size: (w, h),
        ..Record::default()
    };
    let text = |p: &Prop| match p {
        Prop::PB(t) | Prop::PW(t) | Prop::RE(t) | Prop::DT(t) | Prop::EV(t) => t.text.clone(),
        _ => String::new(),
    };
    let mut setup: BTreeMap<SgfPoint, Color> = BTreeMap::new();
    for node in root.main_variation() {
        for prop in node.properties() {
            match prop {
                Prop::AB(_) | Prop::AW(_) | Prop::AE(_) if !rec.moves.is_empty() => {
                    return Err(RecordError::Unsupported("setup stones after a move"))
                }
                Prop::AB(ps) | Prop::AW(ps) => {
                    let c = if matches!(prop, Prop::AB(_)) {
                        Color::Black
                    } else {
                        Color::White
                    };
                    for p in ps {
                        setup.insert(on_board(n, *p)?, c);
                    }
                }
                Prop::AE(ps) => {
                    for p in ps {
                        setup.remove(&on_board(n, *p)?);
                    }
                }
                Prop::PB(_) => rec.black = text(prop),
                Prop::PW(_) => rec.white = text(prop),
                Prop::RE(_) => rec.result = text(prop),
                Prop::DT(_) => rec.date = text(prop),
                Prop::EV(_) => rec.event = text(prop),
                Prop::Invalid(id, values) if matches!(id.as_str(), "B" | "W") => {
                    // Lenient: a line break inside a move value (`W[oq\n]`),
                    // as some old records have.
                    let c = if id == "B" {
                        Color::Black
                    } else {
                        Color::White
                    };
                    let m = lenient_move(n, values)?;
                    rec.moves.push((c, m));
                }
                Prop::Invalid(id, _) if matches!(id.as_str(), "AB" | "AW" | "AE") => {
                    return Err(RecordError::BadValue("a setup point"))
                }
                _ => {}
            }
        }
        let mv = match node.get_move() {
            Some(Prop::B(m)) => Some((Color::Black, *m)),
            Some(Prop::W(m)) => Some((Color::White, *m)),
            _ => None,
        };
        if let Some((c, m)) = mv {
            let point = match m {
                Move::Pass => None,
                Move::Move(go::Point { x: 19, y: 19 }) if n <= 19 => None,
                Move::Move(p) => Some(on_board(n, p)?),
            };
            rec.moves.push((c, point));
        }
    }
    rec.setup = setup.into_iter().collect();
    Ok(rec)
}

/// Return the move of a value `sgf-parse` refused, read again without
/// whitespace (`None`: a pass). `loadsgf` reads such values this way too.
///
/// # Errors
/// [`RecordError::BadValue`] if it still is no point of an `n` x `n` board.
pub fn lenient_move(n: u8, values: &[String]) -> Result<Option<SgfPoint>, RecordError> {
    let bad = RecordError::BadValue("a move");
    let [v] = values else { return Err(bad) };
    let v: Vec<u8> = v.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    match v.as_slice() {
        [] => Ok(None),
        [x, y] if x.is_ascii_lowercase() && y.is_ascii_lowercase() => {
            let p = go::Point {
                x: x - b'a',
                y: y - b'a',
            };
            if n <= 19 && (p.x, p.y) == (19, 19) {
                Ok(None)
            } else {
                on_board(n, p).map(Some)
            }
        }
        _ => Err(bad),
    }
}

/// Return the point if it lies on an `n` x `n` board.
fn on_board(n: u8, p: go::Point) -> Result<SgfPoint, RecordError> {
    if p.x < n && p.y < n {
        Ok((p.x, p.y))
    } else {
        Err(RecordError::BadValue("a point off the board"))
    }
}

/// Return the SGF letters of a point.
pub fn point_name((x, y): SgfPoint) -> String {
    format!("{}{}", char::from(b'a' + x), char::from(b'a' + y))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_tree_and_keeps_good_games_next_to_broken_ones() {
        let text = "(;SZ[19]PB[a];B[pd];W[dp];B[tt])(;SZ[9];B[ee])(;B[zz])(;B[aa];W[";
        let got = read_collection(text);
        assert_eq!(got.len(), 4);
        let first = got[0].as_ref().unwrap();
        assert_eq!(first.black, "a");
        assert_eq!(first.moves.len(), 3);
        assert_eq!(first.moves[2], (Color::Black, None));
        assert_eq!(got[1].as_ref().unwrap().size, (9, 9));
        assert!(matches!(got[2], Err(RecordError::BadValue(_))));
        assert!(matches!(got[3], Err(RecordError::Syntax(_))));
    }

    #[test]
    fn setup_before_moves_only() {
        let ok = read_collection("(;AB[dd][pp];AW[dp];B[qd])");
        let rec = ok[0].as_ref().unwrap();
        assert_eq!(rec.setup.len(), 3);
        let bad = read_collection("(;B[dd];AB[pp])");
        assert!(matches!(bad[0], Err(RecordError::Unsupported(_))));
    }

    #[test]
    fn a_line_break_inside_a_move_is_read() {
        let got = read_collection("(;B[qd];W[o\nq\n];B[])");
        let moves = &got[0].as_ref().unwrap().moves;
        assert_eq!(moves[1], (Color::White, Some((14, 16))));
        assert_eq!(moves[2], (Color::Black, None));
    }
}
