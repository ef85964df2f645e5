//! Printing search results: the games, and the continuations drawn on a
//! diagram with letters as Kombilo does (`A` the most played next move,
//! then `B`, ...), with a table of how often each was played and how the
//! player who played it fared.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

use kosumi_core::geometry::{Color, COLUMN_LETTERS};
use serde_json::{json, Value};

use crate::record::{Info, Outcome, Winner};
use crate::store::Db;

/// Counts for one continuation.
#[derive(Clone, Debug, Default)]
pub struct NextStats {
    /// Point `(x, y)` in the query's frame, `None` for a pass.
    pub at: Option<(u8, u8)>,
    /// Colour of the move.
    pub colour: Option<Color>,
    /// Times played.
    pub count: u32,
    /// Games the mover won afterwards (draws and results naming no
    /// winner count in neither this nor `losses`).
    pub wins: u32,
    /// Games lost by the mover.
    pub losses: u32,
    /// Games drawn.
    pub draws: u32,
    /// Times it came after moves elsewhere (a pattern's continuation is
    /// the first move inside its area; on a full board never).
    pub tenuki: u32,
    /// Times played, by the year of the game (games without a date left out).
    pub years: BTreeMap<u16, u32>,
    /// Diagram label.
    pub label: char,
}

impl NextStats {
    /// The mover's share of the games with a result, a draw counting half
    /// (`None` without any).
    pub fn win_rate(&self) -> Option<f64> {
        let games = self.wins + self.losses + self.draws;
        (games > 0).then(|| (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(games))
    }
}

/// One continuation of a match: the move (in the query's frame, `None`
/// for a pass) and its colour, as seen in the query, the game's winner as
/// seen in the query, the game's year, and whether moves elsewhere came
/// first.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Continuation {
    /// The point `(x, y)`, `None` for a pass.
    pub at: Option<(u8, u8)>,
    /// Who played it.
    pub colour: Color,
    /// Who won the game.
    pub winner: Winner,
    /// The game's year, if its record has a date.
    pub year: Option<u16>,
    /// Whether moves elsewhere came before it.
    pub tenuki: bool,
}

/// Aggregate continuations; the most played points get the first labels.
pub fn tally(items: impl Iterator<Item = Continuation>) -> Vec<NextStats> {
    let mut map: HashMap<(Option<(u8, u8)>, u8), NextStats> = HashMap::new();
    for item in items {
        let (at, c) = (item.at, item.colour);
        let e = map.entry((at, c as u8)).or_default();
        e.at = at;
        e.colour = Some(c);
        e.count += 1;
        match item.winner.outcome(c) {
            Some(Outcome::Won) => e.wins += 1,
            Some(Outcome::Lost) => e.losses += 1,
            Some(Outcome::Drawn) => e.draws += 1,
            None => {}
        }
        e.tenuki += u32::from(item.tenuki);
        if let Some(y) = item.year {
            *e.years.entry(y).or_default() += 1;
        }
    }
    let mut per_point: HashMap<Option<(u8, u8)>, u32> = HashMap::new();
    for s in map.values() {
        *per_point.entry(s.at).or_default() += s.count;
    }
    let mut points: Vec<(Option<(u8, u8)>, u32)> = per_point.into_iter().collect();
    points.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    // `X`, `O`, `x` and `o` are stones in the diagrams: no label.
    let labels: Vec<char> = ('A'..='Z')
        .chain('a'..='z')
        .filter(|c| !matches!(c, 'X' | 'O' | 'x' | 'o'))
        .collect();
    let mut label_of: HashMap<Option<(u8, u8)>, char> = HashMap::new();
    let mut next = 0;
    for (at, _) in &points {
        let l = if at.is_none() {
            '-'
        } else {
            next += 1;
            *labels.get(next - 1).unwrap_or(&'?')
        };
        label_of.insert(*at, l);
    }
    let mut out: Vec<NextStats> = map.into_values().collect();
    for s in &mut out {
        s.label = label_of[&s.at];
    }
    let rank: HashMap<Option<(u8, u8)>, usize> =
        points.iter().enumerate().map(|(i, p)| (p.0, i)).collect();
    out.sort_by_key(|s| (rank[&s.at], s.colour.map(|c| c as u8)));
    out
}

/// Return a diagram: `cells` (`w` x `h`, row by row, as characters) with the
/// continuation labels over them; `board` adds coordinates for a full board.
pub fn diagram(cells: &[char], w: usize, next: &[NextStats], board: bool) -> String {
    let mut grid = cells.to_vec();
    for s in next {
        if let Some((x, y)) = s.at {
            if let Some(c) = grid.get_mut(y as usize * w + x as usize) {
                *c = s.label;
            }
        }
    }
    let h = grid.len() / w.max(1);
    let mut out = String::new();
    if board {
        out.push_str("    ");
        for &letter in COLUMN_LETTERS.iter().take(w) {
            let _ = write!(out, "{} ", letter as char);
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
    }
    for y in 0..h {
        if board {
            let _ = write!(out, "{:>3} ", h - y);
        } else {
            out.push_str("  ");
        }
        for x in 0..w {
            out.push(grid[y * w + x]);
            out.push(' ');
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
    }
    out
}

/// Return the name of a point: a GTP vertex on the full board, `(x,y)` in a pattern.
pub fn point_name(at: Option<(u8, u8)>, board: bool) -> String {
    match at {
        None => "pass".into(),
        Some((x, y)) if board => format!("{}{}", COLUMN_LETTERS[x as usize] as char, 19 - y),
        Some((x, y)) => format!("({x},{y})"),
    }
}

/// Return the table of continuations as text.
pub fn next_table(next: &[NextStats], board: bool) -> String {
    let mut out =
        String::from("  label  move    colour  played  wins  losses  draws  win%  tenuki  years\n");
    for s in next {
        let rate = s
            .win_rate()
            .map_or_else(|| "-".into(), |r| format!("{:.1}", 100.0 * r));
        let colour = match s.colour {
            Some(Color::White) => "W",
            _ => "B",
        };
        let _ = writeln!(
            out,
            "  {:<5}  {:<6}  {:<6}  {:>6}  {:>4}  {:>6}  {:>5}  {:>4}  {:>6}  {}",
            s.label,
            point_name(s.at, board),
            colour,
            s.count,
            s.wins,
            s.losses,
            s.draws,
            rate,
            s.tenuki,
            years_text(&s.years)
        );
    }
    out
}

/// Return the continuations as JSON.
pub fn next_json(next: &[NextStats], board: bool) -> Value {
    Value::Array(
        next.iter()
            .map(|s| {
                json!({
                    "label": s.label.to_string(),
                    "move": point_name(s.at, board),
                    "x": s.at.map(|a| a.0),
                    "y": s.at.map(|a| a.1),
                    "colour": if s.colour == Some(Color::White) { "W" } else { "B" },
                    "played": s.count,
                    "wins": s.wins,
                    "losses": s.losses,
                    "draws": s.draws,
                    "win_rate": s.win_rate(),
                    "tenuki": s.tenuki,
                    "years": s.years.iter().map(|(y, n)| (y.to_string(), json!(n))).collect::<serde_json::Map<_, _>>(),
                })
            })
            .collect(),
    )
}

/// Return a date profile in a few characters: the first and last year and
/// the median (`2003-2016, median 2009`), `-` without dates.
pub fn years_text(years: &BTreeMap<u16, u32>) -> String {
    let total: u32 = years.values().sum();
    let (Some(first), Some(last)) = (years.keys().next(), years.keys().next_back()) else {
        return "-".into();
    };
    let mut seen = 0;
    let median = years
        .iter()
        .find(|(_, &n)| {
            seen += n;
            2 * seen >= total
        })
        .map_or(*first, |(y, _)| *y);
    if first == last {
        first.to_string()
    } else {
        format!("{first}-{last}, median {median}")
    }
}

/// Return a game's line of the text listing.
pub fn game_line(db: &Db, g: usize, at: &str) -> String {
    let i = db.info(g);
    let name = game_name(&i);
    format!(
        "  {name}  {} (B) - {} (W)  {}  {}  at {at}",
        or_dash(&i.black),
        or_dash(&i.white),
        or_dash(&i.result),
        or_dash(&i.date)
    )
}

/// Return the name of a game: its file, `#k` for the `k`-th game of a
/// collection, ` variation v` for a line other than the main line.
pub fn game_name(i: &Info) -> String {
    let mut name = i.file.clone();
    if i.index > 0 || i.file.is_empty() {
        let _ = write!(name, "#{}", i.index);
    }
    if i.variation > 0 {
        let _ = write!(name, " variation {}", i.variation);
    }
    name
}

fn or_dash(s: &str) -> &str {
    if s.is_empty() {
        "-"
    } else {
        s
    }
}

/// Return a game as JSON, with `extra` fields added.
pub fn game_json(db: &Db, g: usize, extra: Value) -> Value {
    let i = db.info(g);
    let mut v = json!({
        "id": g,
        "file": i.file,
        "index": i.index,
        "variation": i.variation,
        "black": i.black,
        "white": i.white,
        "result": i.result,
        "date": i.date,
        "moves_total": db.moves(g),
    });
    if let (Some(obj), Value::Object(more)) = (v.as_object_mut(), extra) {
        obj.extend(more);
    }
    v
}

/// Return move ranges as text: `12, 30-34`.
pub fn ranges_text(r: &[(u16, u16)]) -> String {
    r.iter()
        .map(|&(a, b)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a}-{b}")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Labels never look like stones (`X`, `O`, `x`, `o` in the diagrams),
    /// and draws count half in the win rate, in neither wins nor losses.
    #[test]
    fn labels_are_no_stones_and_draws_are_no_losses() {
        let item = |at, winner, year, tenuki| Continuation {
            at: Some(at),
            colour: Color::Black,
            winner,
            year,
            tenuki,
        };
        let items = (0..60u8).map(|i| {
            let w = [Winner::Black, Winner::White, Winner::Draw][usize::from(i % 3)];
            item((i % 19, i / 19), w, None, false)
        });
        let next = tally(items);
        assert_eq!(next.len(), 60);
        for s in &next {
            assert!(
                !matches!(s.label, 'X' | 'O' | 'x' | 'o'),
                "label {}",
                s.label
            );
            assert_eq!(s.wins + s.losses + s.draws, 1);
        }
        let all = tally((0..4).map(|i| {
            let w = [Winner::Black, Winner::White, Winner::Draw, Winner::Unknown][i];
            let year = [Some(2001), Some(2009), None, Some(2009)][i];
            item((3, 3), w, year, i == 1)
        }));
        assert_eq!(
            (all[0].count, all[0].wins, all[0].losses, all[0].draws),
            (4, 1, 1, 1)
        );
        assert_eq!(all[0].win_rate(), Some(0.5));
        assert_eq!(all[0].tenuki, 1);
        assert_eq!(all[0].years, BTreeMap::from([(2001, 1), (2009, 2)]));
        assert_eq!(years_text(&all[0].years), "2001-2009, median 2009");
    }
}
