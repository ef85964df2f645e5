//! Game-information filters: players, event, dates, result, and the games
//! of an earlier search (`--save` then `--within`), alone (a search of the
//! game information) or combined with a position or pattern search, which
//! then looks only at the games they keep.
//!
//! Text filters match any part of the field in any case (`--player lee`
//! finds "Lee Sedol" as black or white). Dates compare on the date's first
//! `YYYY[-MM[-DD]]` with the bound's precision: `--from 2004 --to 2006-06`
//! keeps 2004-01-01 to 2006-06-30; a game without a date is dropped by a
//! date bound. A saved list names the database's build, and a list saved
//! from another build is refused (game numbers differ between builds).

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};

use crate::record::Winner;
use crate::store::Db;

/// A result to keep.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum ResultFilter {
    /// Black won.
    B,
    /// White won.
    W,
    /// A draw.
    Draw,
    /// No winner recorded (void, unknown, missing).
    None,
}

/// The filters of `db search`.
#[derive(Args, Debug, Clone, Default)]
pub struct FilterArgs {
    /// Games with this player, as black or white (any part of the name, any case).
    #[arg(long)]
    pub player: Option<String>,
    /// Games with this black player.
    #[arg(long)]
    pub black: Option<String>,
    /// Games with this white player.
    #[arg(long)]
    pub white: Option<String>,
    /// Games of this event.
    #[arg(long)]
    pub event: Option<String>,
    /// Games played on or after this date (YYYY, YYYY-MM or YYYY-MM-DD).
    #[arg(long)]
    pub from: Option<String>,
    /// Games played on or before this date (YYYY, YYYY-MM or YYYY-MM-DD).
    #[arg(long)]
    pub to: Option<String>,
    /// Games with this result.
    #[arg(long, value_enum)]
    pub result: Option<ResultFilter>,
    /// Only the games of an earlier search, saved there with `--save FILE`.
    #[arg(long)]
    pub within: Option<PathBuf>,
}

/// The filters, ready to test games.
#[derive(Debug, Default)]
pub struct Filter {
    args: FilterArgs,
    within: Option<Vec<bool>>,
}

/// The first line of a saved list of games.
const SAVED: &str = "# kosumi-db games of build";

impl Filter {
    /// Check `args` and read the `--within` list for `db`.
    ///
    /// # Errors
    /// A message for a date that is no date, or a list that cannot be
    /// read or was saved from another database.
    pub fn new(args: &FilterArgs, db: &Db) -> Result<Filter, String> {
        for d in [&args.from, &args.to].into_iter().flatten() {
            if date_prefix(d).map(str::len) != Some(d.len()) {
                return Err(format!("{d}: a date is YYYY, YYYY-MM or YYYY-MM-DD"));
            }
        }
        let within = match &args.within {
            None => None,
            Some(path) => Some(read_saved(path, db)?),
        };
        Ok(Filter {
            args: args.clone(),
            within,
        })
    }

    /// Return whether any filter is set.
    pub fn active(&self) -> bool {
        let a = &self.args;
        a.player.is_some()
            || a.black.is_some()
            || a.white.is_some()
            || a.event.is_some()
            || a.from.is_some()
            || a.to.is_some()
            || a.result.is_some()
            || self.within.is_some()
    }

    /// Return whether game `g` passes every filter.
    pub fn keeps(&self, db: &Db, g: usize) -> bool {
        if let Some(w) = &self.within {
            if !w.get(g).copied().unwrap_or(false) {
                return false;
            }
        }
        let a = &self.args;
        if let Some(r) = a.result {
            let want = match r {
                ResultFilter::B => Winner::Black,
                ResultFilter::W => Winner::White,
                ResultFilter::Draw => Winner::Draw,
                ResultFilter::None => Winner::Unknown,
            };
            if db.winner(g) != want {
                return false;
            }
        }
        let text_filters = a.player.is_some()
            || a.black.is_some()
            || a.white.is_some()
            || a.event.is_some()
            || a.from.is_some()
            || a.to.is_some();
        if !text_filters {
            return true;
        }
        let info = db.info(g);
        let has = |field: &str, want: &Option<String>| {
            want.as_ref()
                .is_none_or(|w| field.to_lowercase().contains(&w.to_lowercase()))
        };
        let player_ok = a
            .player
            .as_ref()
            .is_none_or(|_| has(&info.black, &a.player) || has(&info.white, &a.player));
        if !(player_ok
            && has(&info.black, &a.black)
            && has(&info.white, &a.white)
            && has(&info.event, &a.event))
        {
            return false;
        }
        let date = date_prefix(&info.date);
        let after = |bound: &str| date.is_some_and(|d| cut(d, bound.len()) >= bound);
        let before = |bound: &str| date.is_some_and(|d| cut(d, bound.len()) <= bound);
        a.from.as_deref().is_none_or(after) && a.to.as_deref().is_none_or(before)
    }

    /// Return, when a filter is set, which games pass (a game number indexes it).
    pub fn mask(&self, db: &Db) -> Option<Vec<bool>> {
        self.active()
            .then(|| (0..db.games()).map(|g| self.keeps(db, g)).collect())
    }
}

/// Return the leading `YYYY[-MM[-DD]]` of a date as written in a record.
pub fn date_prefix(date: &str) -> Option<&str> {
    let date = date.trim();
    let b = date.as_bytes();
    let digits =
        |r: std::ops::Range<usize>| b.get(r).is_some_and(|s| s.iter().all(u8::is_ascii_digit));
    if !digits(0..4) {
        return None;
    }
    let mut len = 4;
    for part in [5..7, 8..10] {
        if b.get(part.start - 1) == Some(&b'-') && digits(part.clone()) {
            len = part.end;
        } else {
            break;
        }
    }
    Some(&date[..len])
}

/// Return the year of a date as written in a record.
pub fn year(date: &str) -> Option<u16> {
    date_prefix(date)?.get(..4)?.parse().ok()
}

fn cut(s: &str, n: usize) -> &str {
    &s[..n.min(s.len())]
}

/// Return the build id a saved list must name for `db`.
fn build_of(db: &Db) -> String {
    db.meta()
        .get("build_id")
        .and_then(serde_json::Value::as_str)
        .unwrap_or("")
        .to_string()
}

/// Write the games `games` of `db` to `path`, for a later `--within`.
///
/// # Errors
/// A message for a file that cannot be written.
pub fn save(path: &Path, db: &Db, games: &[usize]) -> Result<(), String> {
    let mut text = format!("{SAVED} {}\n", build_of(db));
    for g in games {
        text.push_str(&g.to_string());
        text.push('\n');
    }
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Read a list written by [`save`] for `db`: which games it holds.
fn read_saved(path: &Path, db: &Db) -> Result<Vec<bool>, String> {
    let name = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{name}: {e}"))?;
    let mut lines = text.lines();
    let build = lines
        .next()
        .and_then(|l| l.strip_prefix(SAVED))
        .map(str::trim)
        .ok_or_else(|| format!("{name}: not a list of games saved by `db search --save`"))?;
    if build != build_of(db) {
        return Err(format!(
            "{name}: saved from another database (build {build}; this one is {})",
            build_of(db)
        ));
    }
    let mut keep = vec![false; db.games()];
    for (i, line) in lines.enumerate() {
        let g = line
            .trim()
            .parse::<usize>()
            .ok()
            .filter(|&g| g < keep.len())
            .ok_or_else(|| format!("{name}: line {}: no game of this database", i + 2))?;
        keep[g] = true;
    }
    Ok(keep)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_read_to_their_precision() {
        assert_eq!(date_prefix("2004-05-12"), Some("2004-05-12"));
        assert_eq!(date_prefix(" 1962-04-05,06 "), Some("1962-04-05"));
        assert_eq!(date_prefix("2004-5"), Some("2004"));
        assert_eq!(date_prefix("2004"), Some("2004"));
        assert_eq!(date_prefix("May 2004"), None);
        assert_eq!(date_prefix(""), None);
        assert_eq!(year("2017-01-03"), Some(2017));
        assert_eq!(year("?"), None);
    }
}
