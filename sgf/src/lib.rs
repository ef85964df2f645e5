//! The one SGF reader of the program: every game tree of a collection, its
//! main line, setup stones and game information, read with the `sgf-parse`
//! crate. The game database (`kosumi db`), the pattern learner and the GTP
//! engine's `loadsgf` all read records here; `printsgf` writes the game
//! information back with [`GameInfo::write`].
//!
//! This is the record side only (no board): the caller replays the moves and
//! decides what is legal. Coordinates are SGF's: `x` from the left, `y` from
//! the top, both from 0. `tt` on boards up to 19x19 is a pass (FF\[3\]).
//! Setup (`AB`/`AW`/`AE`) and `PL` in the nodes before the first move make
//! the starting position; in a later node they are kept apart
//! ([`Record::later`]): `loadsgf` starts the game there, the database
//! refuses such a record. A move value with whitespace inside (`W[oq` and
//! a line break, in old records) is read without it. The other lines of the
//! tree are listed as [`Variation`]s (moves only). When `sgf-parse`
//! refuses a whole collection, the text is split into its top-level game
//! trees and each is parsed alone, so one broken game does not lose its
//! neighbours in the same file.

use std::collections::BTreeMap;
use std::fmt;

use kosumi_core::geometry::Color;
use sgf_parse::go::{self, Move, Prop};
use sgf_parse::SgfNode;

/// A point in SGF coordinates: `(x, y)`, `y` from the top.
pub type SgfPoint = (u8, u8);

/// One game of a collection: its size, setup, main line and header.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Record {
    /// Board width and height (`SZ`, default 19).
    pub size: (u8, u8),
    /// Setup stones before the first move, sorted by point.
    pub setup: Vec<(SgfPoint, Color)>,
    /// The side to move before the first move (`PL`), if set.
    pub to_play: Option<Color>,
    /// The main line: colour and point (`None` for a pass).
    pub moves: Vec<(Color, Option<SgfPoint>)>,
    /// Setup and `PL` in nodes after the first move, in order.
    pub later: Vec<Later>,
    /// The game information.
    pub info: GameInfo,
    /// The other lines of play of the tree (variations), in the tree's order.
    pub variations: Vec<Variation>,
}

/// A line of play other than the main line: from the root to a leaf that
/// is not the main line's. Lines with setup or `PL` in their own nodes
/// (off the main line), or with a bad move value, are left out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Variation {
    /// Moves at the start of the line that an earlier line (the main line
    /// or an earlier variation) plays too: where it branches off.
    pub branch: usize,
    /// The whole line, from the first move.
    pub moves: Vec<(Color, Option<SgfPoint>)>,
}

/// Setup or side to move in a node after some moves of the main line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Later {
    /// Moves of the main line before the node.
    pub after: usize,
    /// Points set to a colour or emptied (`None`), in the node's order.
    pub changes: Vec<(SgfPoint, Option<Color>)>,
    /// The side to move (`PL`), if set.
    pub to_play: Option<Color>,
}

/// A game's information properties (empty text: absent).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameInfo {
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
    /// Rules (`RU`).
    pub rules: String,
    /// Komi (`KM`), if given and a number.
    pub komi: Option<f64>,
    /// Handicap stones (`HA`), if given.
    pub handicap: Option<u32>,
}

impl GameInfo {
    /// Append the text properties that are set (`PB`, `PW`, `DT`, `EV`,
    /// `RU`, `RE`), escaped as SGF wants (`\\` before `]` and `\\`).
    pub fn write(&self, out: &mut String) {
        for (tag, text) in [
            ("PB", &self.black),
            ("PW", &self.white),
            ("DT", &self.date),
            ("EV", &self.event),
            ("RU", &self.rules),
            ("RE", &self.result),
        ] {
            if text.is_empty() {
                continue;
            }
            out.push_str(tag);
            out.push('[');
            for ch in text.chars() {
                if matches!(ch, ']' | '\\') {
                    out.push('\\');
                }
                out.push(ch);
            }
            out.push(']');
        }
    }
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
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Syntax(m) => write!(f, "broken SGF: {m}"),
            RecordError::Size(w, h) if w == h => write!(f, "unsupported size {w}x{h}"),
            RecordError::Size(w, h) => write!(f, "unsupported size {w}x{h} (not square)"),
            RecordError::BadValue(m) => write!(f, "bad value: {m}"),
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
    let mut setup: BTreeMap<SgfPoint, Color> = BTreeMap::new();
    for node in root.main_variation() {
        let mut later = Later {
            after: rec.moves.len(),
            ..Later::default()
        };
        let mv = node_move(n, node)?;
        for prop in node.properties() {
            match prop {
                Prop::AB(ps) | Prop::AW(ps) | Prop::AE(ps) => {
                    let c = match prop {
                        Prop::AB(_) => Some(Color::Black),
                        Prop::AW(_) => Some(Color::White),
                        _ => None,
                    };
                    let mut points = ps
                        .iter()
                        .map(|&p| on_board(n, p))
                        .collect::<Result<Vec<_>, _>>()?;
                    points.sort_unstable();
                    later.changes.extend(points.into_iter().map(|p| (p, c)));
                }
                Prop::PL(c) => later.to_play = Some(color(*c)),
                Prop::PB(t) => rec.info.black.clone_from(&t.text),
                Prop::PW(t) => rec.info.white.clone_from(&t.text),
                Prop::RE(t) => rec.info.result.clone_from(&t.text),
                Prop::DT(t) => rec.info.date.clone_from(&t.text),
                Prop::EV(t) => rec.info.event.clone_from(&t.text),
                Prop::RU(t) => rec.info.rules.clone_from(&t.text),
                Prop::KM(k) if k.is_finite() => rec.info.komi = Some(*k),
                Prop::HA(h) => rec.info.handicap = u32::try_from(*h).ok(),
                Prop::Invalid(id, _) if matches!(id.as_str(), "AB" | "AW" | "AE") => {
                    return Err(RecordError::BadValue("a setup point"))
                }
                Prop::Invalid(id, _) if id == "PL" => return Err(RecordError::BadValue("PL")),
                _ => {}
            }
        }
        if rec.moves.is_empty() {
            for (p, c) in later.changes.drain(..) {
                match c {
                    Some(c) => setup.insert(p, c),
                    None => setup.remove(&p),
                };
            }
            rec.to_play = later.to_play.or(rec.to_play);
        } else if !later.changes.is_empty() || later.to_play.is_some() {
            rec.later.push(later);
        }
        if let Some(m) = mv {
            rec.moves.push(m);
        }
    }
    rec.setup = setup.into_iter().collect();
    variations(root, n, &mut rec.variations);
    Ok(rec)
}

/// Append to `out` every line of the tree under `root` other than the main
/// line, walked depth first with an explicit stack (a tree may be deep).
fn variations(root: &SgfNode<Prop>, n: u8, out: &mut Vec<Variation>) {
    // (node, moves of its line before it, where its line branched off,
    // whether it is on the main line, whether its line is still usable).
    let mut stack = vec![(root, 0usize, 0usize, true, true)];
    let mut line: Vec<(Color, Option<SgfPoint>)> = Vec::new();
    while let Some((node, before, branch, main, mut good)) = stack.pop() {
        line.truncate(before);
        match node_move(n, node) {
            Ok(Some(m)) => line.push(m),
            Ok(None) => {}
            Err(_) => good = false,
        }
        // A line's own nodes (off the main line) may not change the setup.
        good &= main
            || !node
                .properties()
                .any(|p| matches!(p, Prop::AB(_) | Prop::AW(_) | Prop::AE(_) | Prop::PL(_)));
        let children: Vec<&SgfNode<Prop>> = node.children().collect();
        if children.is_empty() {
            if !main && good {
                out.push(Variation {
                    branch,
                    moves: line.clone(),
                });
            }
            continue;
        }
        let here = line.len();
        // Pushed last first, so the first child (the line's continuation)
        // is walked first and later children branch off at `here`.
        for (i, child) in children.iter().enumerate().rev() {
            let (branch, main) = if i == 0 {
                (branch, main)
            } else {
                (here, false)
            };
            stack.push((child, here, branch, main, good));
        }
    }
}

/// Return the move of a node, if it has one.
///
/// # Errors
/// [`RecordError::BadValue`] for a move value off the board.
fn node_move(
    n: u8,
    node: &SgfNode<Prop>,
) -> Result<Option<(Color, Option<SgfPoint>)>, RecordError> {
    let mut mv = None;
    for prop in node.properties() {
        match prop {
            Prop::B(m) => mv = Some((Color::Black, to_move(n, m)?)),
            Prop::W(m) => mv = Some((Color::White, to_move(n, m)?)),
            Prop::Invalid(id, values) if matches!(id.as_str(), "B" | "W") => {
                // Lenient: a line break inside a move value (`W[oq\n]`),
                // as some old records have.
                let c = if id == "B" {
                    Color::Black
                } else {
                    Color::White
                };
                mv = Some((c, lenient_move(n, values)?));
            }
            _ => {}
        }
    }
    Ok(mv)
}

/// Return the point of a move (`None`: a pass; `tt` too on boards up to
/// 19x19).
fn to_move(n: u8, m: &Move) -> Result<Option<SgfPoint>, RecordError> {
    match m {
        Move::Pass => Ok(None),
        Move::Move(go::Point { x: 19, y: 19 }) if n <= 19 => Ok(None),
        Move::Move(p) => on_board(n, *p).map(Some),
    }
}

/// Return the core colour of an SGF colour.
fn color(c: sgf_parse::Color) -> Color {
    match c {
        sgf_parse::Color::Black => Color::Black,
        sgf_parse::Color::White => Color::White,
    }
}

/// Return the move of a value `sgf-parse` refused, read again without
/// whitespace (`None`: a pass).
///
/// # Errors
/// [`RecordError::BadValue`] if it still is no point of an `n` x `n` board.
fn lenient_move(n: u8, values: &[String]) -> Result<Option<SgfPoint>, RecordError> {
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
        assert_eq!(first.info.black, "a");
        assert_eq!(first.moves.len(), 3);
        assert_eq!(first.moves[2], (Color::Black, None));
        assert_eq!(got[1].as_ref().unwrap().size, (9, 9));
        assert!(matches!(got[2], Err(RecordError::BadValue(_))));
        assert!(matches!(got[3], Err(RecordError::Syntax(_))));
    }

    #[test]
    fn setup_before_the_first_move_and_after_it() {
        let ok = read_collection("(;AB[dd][pp];AW[dp]AE[pp]PL[W];W[qd])");
        let rec = ok[0].as_ref().unwrap();
        assert_eq!(
            rec.setup,
            vec![((3, 3), Color::Black), ((3, 15), Color::White)]
        );
        assert_eq!(rec.to_play, Some(Color::White));
        assert!(rec.later.is_empty());
        let later = read_collection("(;B[dd];AB[pp]AE[dd]PL[B])");
        let rec = later[0].as_ref().unwrap();
        assert_eq!(
            rec.later,
            vec![Later {
                after: 1,
                changes: vec![((15, 15), Some(Color::Black)), ((3, 3), None)],
                to_play: Some(Color::Black),
            }]
        );
    }

    #[test]
    fn game_information_is_read_and_written_escaped() {
        let got = read_collection(
            "(;SZ[9]KM[6.5]HA[2]RU[Chinese]PB[Bl\\]ack]PW[W]DT[2026-11-24]EV[Cup]RE[B+R]AB[cc][gg])",
        );
        let info = &got[0].as_ref().unwrap().info;
        assert_eq!(info.komi, Some(6.5));
        assert_eq!(info.handicap, Some(2));
        assert_eq!(info.black, "Bl]ack");
        assert_eq!(info.result, "B+R");
        let mut out = String::new();
        info.write(&mut out);
        assert_eq!(
            out,
            "PB[Bl\\]ack]PW[W]DT[2026-11-24]EV[Cup]RU[Chinese]RE[B+R]"
        );
    }

    #[test]
    fn variations_are_every_other_line_with_where_they_branch() {
        // Main line dd pp dp; at move 2 a variation pd (then qf, or qc),
        // at the root a variation cc; a line that sets up stones is left out.
        let text = "(;SZ[19];B[dd](;W[pp];B[dp])(;W[pd](;B[qf])(;B[qc]))(;W[aa]AB[bb]))";
        let rec = read_collection(text).remove(0).unwrap();
        let b = |x, y| (Color::Black, Some((x, y)));
        let w = |x, y| (Color::White, Some((x, y)));
        assert_eq!(rec.moves, vec![b(3, 3), w(15, 15), b(3, 15)]);
        assert_eq!(
            rec.variations,
            vec![
                Variation {
                    branch: 1,
                    moves: vec![b(3, 3), w(15, 3), b(16, 5)],
                },
                Variation {
                    branch: 2,
                    moves: vec![b(3, 3), w(15, 3), b(16, 2)],
                },
            ]
        );
        let root = read_collection("(;SZ[19](;B[dd])(;B[cc];W[tt]))")
            .remove(0)
            .unwrap();
        assert_eq!(
            root.variations,
            vec![Variation {
                branch: 0,
                moves: vec![b(2, 2), (Color::White, None)],
            }]
        );
        assert!(read_collection("(;B[dd];W[pp])")
            .remove(0)
            .unwrap()
            .variations
            .is_empty());
    }

    #[test]
    fn a_line_break_inside_a_move_is_read() {
        let got = read_collection("(;B[qd];W[o\nq\n];B[])");
        let moves = &got[0].as_ref().unwrap().moves;
        assert_eq!(moves[1], (Color::White, Some((14, 16))));
        assert_eq!(moves[2], (Color::Black, None));
    }
}
