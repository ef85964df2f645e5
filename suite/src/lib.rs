//! kosumi-suite: the tactical problem suite's file format, parsed.
//!
//! The suite lives in `tests/data/tactics/*.txt` (format and conventions in
//! `tests/data/tactics/README.md`). Each file holds problems separated by a
//! line `---`:
//!
//! ```text
//! # comment
//! name: ladder19-long-s0
//! size: 19
//! goal: capture D4
//! expect: 1 E4|E5
//! ko: C3
//!    A B C D ...
//! 19 . . . . ...
//! ```
//!
//! Both the workspace tests (`tests/tests/tactics_suite.rs`) and the
//! benchmark (`kosumi bench tactics`) use this crate, so the format has one
//! parser.

use std::fmt;
use std::fs;
use std::path::Path;

use kosumi_core::board::Board;
use kosumi_core::geometry::{Cell, Color, Geometry, Point};
use kosumi_core::tactics::{Answer, Goal, Problem, Verdict};

/// What a problem expects, in GNU Go's form: a result code and the moves that achieve it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expect {
    /// 0 (fails), 1 (succeeds), 2 (ko, reading side takes first), 3 (ko, needs a threat).
    pub code: u8,
    /// Every acceptable key move when `code != 0` (`Point::PASS` for "no move needed").
    pub moves: Vec<Point>,
}

/// One problem of the suite.
#[derive(Clone, Debug)]
pub struct SuiteProblem {
    /// The problem's name (unique in the suite).
    pub name: String,
    /// The file it came from, without directory (e.g. `ladders.txt`).
    pub file: String,
    /// Board size.
    pub size: usize,
    /// Capture or save.
    pub goal: Goal,
    /// A stone of the target chain.
    pub target: Point,
    /// The expected answer.
    pub expect: Expect,
    /// The ko-ban point, banned for the side that moves first.
    pub ko: Option<Point>,
    /// The diagram as written.
    pub diagram: String,
    /// The comment lines, joined.
    pub comment: String,
}

/// A parse error: file, problem index, message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteError(pub String);

impl fmt::Display for SuiteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SuiteError {}

/// Return `p` as a GTP vertex on a board of `size`.
pub fn vertex(size: usize, p: Point) -> String {
    match Geometry::new(size) {
        Ok(geo) => {
            let mut buf = [0u8; 4];
            geo.vertex_str(p, &mut buf).to_owned()
        }
        Err(_) => "?".to_owned(),
    }
}

fn goal_word(goal: Goal) -> &'static str {
    match goal {
        Goal::Capture => "capture",
        Goal::Save => "save",
    }
}

impl Expect {
    /// Return the expectation in the file's form (`0`, `1 E5|F4`).
    pub fn display(&self, size: usize) -> String {
        if self.code == 0 {
            return "0".to_owned();
        }
        let moves: Vec<String> = self.moves.iter().map(|&m| vertex(size, m)).collect();
        format!("{} {}", self.code, moves.join("|"))
    }
}

impl SuiteProblem {
    /// Return the tactical question.
    pub fn problem(&self) -> Problem {
        Problem {
            goal: self.goal,
            target: self.target,
        }
    }

    /// Return the theme: the file name without `.txt`.
    pub fn theme(&self) -> &str {
        self.file.strip_suffix(".txt").unwrap_or(&self.file)
    }

    /// Return the goal and target as written (`capture D4`).
    pub fn question(&self) -> String {
        format!(
            "{} {}",
            goal_word(self.goal),
            vertex(self.size, self.target)
        )
    }

    /// Return the board of the diagram, with the first mover to play and the
    /// ko ban (if any) set for the first mover.
    ///
    /// A ko point is rebuilt by replaying the capture that made it: the
    /// single stone next to the ko point whose only liberty is the ko point is
    /// taken off, the captured stone is put back on the ko point, and the
    /// capture is played, so the board's ko state is exactly what a game
    /// would have left.
    ///
    /// # Errors
    /// An unsupported size, a diagram that is not a legal position, or a ko
    /// point that no single-stone capture explains.
    pub fn board(&self) -> Result<Board, SuiteError> {
        let err = |m: String| SuiteError(format!("{}: {m}", self.name));
        let board = Board::from_diagram(&self.diagram, Color::Black)
            .map_err(|e| err(format!("bad diagram: {e:?}")))?;
        let owner = board.at(self.target).color().ok_or_else(|| {
            err(format!(
                "target {} is empty",
                vertex(self.size, self.target)
            ))
        })?;
        let mover = match self.goal {
            Goal::Capture => owner.opponent(),
            Goal::Save => owner,
        };
        let Some(ko) = self.ko else {
            let mut board = board;
            board.set_to_play(mover);
            return Ok(board);
        };
        let geo = board.geometry();
        if board.at(ko) != Cell::Empty {
            return Err(err("ko point is not empty".into()));
        }
        let capturer = Cell::stone(mover.opponent());
        let candidates: Vec<Point> = geo
            .neighbours(ko)
            .into_iter()
            .filter(|&n| {
                geo.on_board(n)
                    && board.at(n) == capturer
                    && board.chain_size(n) == 1
                    && board.atari_liberty(n) == Some(ko)
            })
            .collect();
        let [capture] = candidates[..] else {
            return Err(err(format!(
                "ko {} is not explained by one capture of the side not moving first",
                vertex(self.size, ko)
            )));
        };
        let mut rebuilt = Board::new(self.size).map_err(|e| err(format!("{e:?}")))?;
        for p in geo.points() {
            if p == capture {
                continue;
            }
            if let Some(c) = board.at(p).color() {
                rebuilt
                    .setup_stone(p, c)
                    .map_err(|e| err(format!("setup: {e:?}")))?;
            }
        }
        rebuilt
            .setup_stone(ko, mover)
            .map_err(|e| err(format!("ko stone: {e:?}")))?;
        rebuilt.set_to_play(mover.opponent());
        rebuilt
            .play(capture, mover.opponent())
            .map_err(|e| err(format!("ko capture: {e:?}")))?;
        if rebuilt.ko() != Some(ko) || rebuilt.to_play() != mover {
            return Err(err(
                "rebuilding the ko capture did not set the ko ban".into()
            ));
        }
        Ok(rebuilt)
    }

    /// Return whether `answer` is what the problem expects: the same code
    /// and, unless the code is 0, a key move among the listed ones.
    pub fn accepts(&self, answer: &Answer) -> bool {
        let code = answer.verdict.code();
        code == self.expect.code && (code == 0 || self.expect.moves.contains(&answer.key_move))
    }
}

/// Return the answer in GNU Go's form (`0`, `1 E5`).
pub fn answer_display(size: usize, answer: &Answer) -> String {
    match answer.verdict {
        Verdict::Fails => "0".to_owned(),
        v => format!("{} {}", v.code(), vertex(size, answer.key_move)),
    }
}

/// Parse the problems of one file's text; `file` names it in errors and in the problems.
///
/// # Errors
/// A missing or malformed field, a diagram of the wrong size, a bad vertex.
pub fn parse_str(text: &str, file: &str) -> Result<Vec<SuiteProblem>, SuiteError> {
    let mut out = Vec::new();
    let mut block = Vec::new();
    let mut index = 0;
    for line in text.lines().chain(std::iter::once("---")) {
        if line.trim() == "---" {
            if let Some(p) = parse_block(&block, file, index)? {
                out.push(p);
                index += 1;
            }
            block.clear();
        } else {
            block.push(line);
        }
    }
    Ok(out)
}

fn parse_block(
    lines: &[&str],
    file: &str,
    index: usize,
) -> Result<Option<SuiteProblem>, SuiteError> {
    let mut name = None;
    let mut size = None;
    let mut goal = None;
    let mut expect = None;
    let mut ko = None;
    let mut comment = Vec::new();
    let mut diagram = Vec::new();
    for line in lines {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if let Some(c) = t.strip_prefix('#') {
            comment.push(c.trim().to_owned());
            continue;
        }
        match t.split_once(':') {
            Some((key, val))
                if matches!(key.trim(), "name" | "size" | "goal" | "expect" | "ko") =>
            {
                let val = val.trim().to_owned();
                match key.trim() {
                    "name" => name = Some(val),
                    "size" => size = Some(val),
                    "goal" => goal = Some(val),
                    "expect" => expect = Some(val),
                    _ => ko = Some(val),
                }
            }
            _ => diagram.push(*line),
        }
    }
    let here = || format!("{file} problem {}", index + 1);
    let Some(goal) = goal else {
        if diagram.is_empty() && name.is_none() && expect.is_none() {
            return Ok(None); // a comment-only block (file header)
        }
        return Err(SuiteError(format!("{}: no `goal:`", here())));
    };
    let name = name.unwrap_or_else(|| format!("{}#{}", file, index + 1));
    let err = |m: String| SuiteError(format!("{file}: {name}: {m}"));
    let rows = diagram
        .iter()
        .filter(|l| l.chars().any(|c| matches!(c, 'X' | 'O' | '.' | '+')))
        .count();
    let size = match size {
        Some(s) => s
            .parse::<usize>()
            .map_err(|_| err(format!("bad size `{s}`")))?,
        None => rows,
    };
    if rows != size {
        return Err(err(format!("diagram has {rows} rows, size is {size}")));
    }
    let geo = Geometry::new(size).map_err(|_| err(format!("unsupported size {size}")))?;
    let vertex_of = |v: &str| {
        geo.parse_vertex(v)
            .map_err(|_| err(format!("bad vertex `{v}`")))
    };
    let (goal_word, target) = goal
        .split_once(char::is_whitespace)
        .ok_or_else(|| err(format!("bad goal `{goal}`")))?;
    let goal_kind = match goal_word.to_ascii_lowercase().as_str() {
        "capture" => Goal::Capture,
        "save" => Goal::Save,
        other => return Err(err(format!("unknown goal `{other}`"))),
    };
    let target = vertex_of(target)?;
    if target.is_pass() {
        return Err(err("the target is a pass".into()));
    }
    let expect = expect.ok_or_else(|| err("no `expect:`".into()))?;
    let mut words = expect.split_whitespace();
    let code = words
        .next()
        .and_then(|c| c.parse::<u8>().ok())
        .filter(|&c| c <= 3)
        .ok_or_else(|| err(format!("bad expect `{expect}`")))?;
    let moves = match words.next() {
        Some(list) => list
            .split('|')
            .map(vertex_of)
            .collect::<Result<Vec<_>, _>>()?,
        None => Vec::new(),
    };
    if words.next().is_some() || (code == 0) != moves.is_empty() {
        return Err(err(format!(
            "bad expect `{expect}`: code 0 takes no move, codes 1-3 need at least one"
        )));
    }
    let ko = ko.map(|k| vertex_of(&k)).transpose()?;
    Ok(Some(SuiteProblem {
        name,
        file: file.to_owned(),
        size,
        goal: goal_kind,
        target,
        expect: Expect { code, moves },
        ko,
        diagram: diagram.join("\n"),
        comment: comment.join("\n"),
    }))
}

/// Load every `*.txt` file of `dir`, in name order.
///
/// # Errors
/// An unreadable directory or file, a parse error, or two problems with one name.
pub fn load_dir(dir: &Path) -> Result<Vec<SuiteProblem>, SuiteError> {
    let mut files: Vec<_> = fs::read_dir(dir)
        .map_err(|e| SuiteError(format!("{}: {e}", dir.display())))?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    let mut all: Vec<SuiteProblem> = Vec::new();
    for path in files {
        let text = fs::read_to_string(&path)
            .map_err(|e| SuiteError(format!("{}: {e}", path.display())))?;
        let file = path
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default();
        all.extend(parse_str(&text, &file)?);
    }
    let mut names: Vec<&str> = all.iter().map(|p| p.name.as_str()).collect();
    names.sort_unstable();
    if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
        return Err(SuiteError(format!("duplicate problem name `{}`", w[0])));
    }
    Ok(all)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "# header\n---\n# a ladder\nname: t1\ngoal: capture C3\nexpect: 1 D3|D4\n   A B C D E\n 5 . . . . .\n 4 . O . . .\n 3 . O X . .\n 2 . . O . .\n 1 . . . . .\n---\nname: t2\ngoal: save C3\nexpect: 0\n. . . . .\n. O . . .\n. O X O .\n. . O . .\n. . . . .\n";

    #[test]
    fn parses_fields_and_diagram() {
        let ps = parse_str(TEXT, "x.txt").unwrap();
        assert_eq!(ps.len(), 2);
        assert_eq!(ps[0].name, "t1");
        assert_eq!(ps[0].size, 5);
        assert_eq!(ps[0].goal, Goal::Capture);
        assert_eq!(ps[0].expect.code, 1);
        assert_eq!(ps[0].expect.display(5), "1 D3|D4");
        assert_eq!(vertex(5, ps[0].target), "C3");
        assert_eq!(ps[1].expect.display(5), "0");
        let b = ps[1].board().unwrap();
        assert_eq!(b.to_play(), Color::Black);
        assert_eq!(ps[0].board().unwrap().to_play(), Color::White);
        assert_eq!(ps[0].theme(), "x");
    }

    #[test]
    fn rebuilds_a_ko() {
        // White just took the ko at C3 (capturing a Black stone there); Black may not retake at once.
        let text = "name: k\ngoal: capture B3\nexpect: 0\nko: C3\n. . . . .\n. X O . .\nX O . O .\n. X O . .\n. . . . .\n";
        let ps = parse_str(text, "k.txt").unwrap();
        let b = ps[0].board().unwrap();
        let geo = b.geometry();
        assert_eq!(b.to_play(), Color::Black);
        assert_eq!(b.ko(), Some(geo.parse_vertex("C3").unwrap()));
        assert_eq!(b.at(geo.parse_vertex("B3").unwrap()), Cell::White);
    }

    #[test]
    fn rejects_bad_input() {
        assert!(parse_str(
            "name: a\ngoal: eat C3\nexpect: 0\n. . .\n. X .\n. . .\n",
            "b"
        )
        .is_err());
        assert!(parse_str(
            "name: a\ngoal: capture C3\nexpect: 1\n. . .\n. X .\n. . .\n",
            "b"
        )
        .is_err());
        assert!(parse_str(
            "name: a\ngoal: capture B2\nexpect: 0\nsize: 4\n. . .\n. X .\n. . .\n",
            "b"
        )
        .is_err());
    }
}
