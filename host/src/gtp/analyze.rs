//! Streaming analysis for GUIs: `lz-analyze` (Leela Zero's format, which
//! Lizzie and Sabaki read), `analyze` (the same, Sabaki's name) and
//! `kata-analyze` (KataGo's, with `ownership true`), as KataGo's
//! `docs/GTP_Extensions.md` describes them.
//!
//! The answer is `=` and a line break, then one `info ...` line every
//! `interval` centiseconds, until the next input line arrives: the search
//! stops within one playout of it (its clock reads the input thread's
//! count of waiting lines), a blank line ends the answer, and the waiting
//! command runs. The tree stays for the next search of the same position,
//! `genmove` included.
//!
//! Per move: `visits`; `winrate` for the side to move (Leela Zero: in
//! ten-thousandths; KataGo: 0 to 1); `prior`, the move's share of the
//! pattern model's gammas (with `--no-patterns`, an even share); `lcb`,
//! the win rate less 1.96 standard errors of its playouts; `order`; `pv`
//! (and with `pvVisits true`, kata, each of its nodes' visits).
//! KataGo's `scoreMean` and `scoreLead` (the same number here) are the
//! mean final margin of the move's playouts under the game's komi, in
//! points for the side to move, `scoreStdev` their spread
//! ([`kosumi_core::search::score`]). `ownership` (kata) is a playout
//! estimate of the position (the one `final_status_list` uses), from the
//! side to move's view, row by row from the top left.
//!
//! `lz-genmove_analyze` and `kata-genmove_analyze` play a `genmove` and
//! answer one `info` line of its search, then `play MOVE`.

use std::fmt::Write as _;
use std::io::{self, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use kosumi_core::board::Board;
use kosumi_core::game::{Mode, PlayError};
use kosumi_core::geometry::{Color, Point};
use kosumi_core::gtp::args::color as parse_color;
use kosumi_core::gtp::{Failure, Request};
use kosumi_core::search::{Budget, MoveInfo, ScoreSum};

use super::reply::Reply;
use super::{scoring, Engine};

/// The analysis commands' output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `lz-analyze`, `analyze`.
    LeelaZero,
    /// `kata-analyze`.
    KataGo,
}

/// The streaming commands and their formats.
pub const COMMANDS: &[(&str, Format)] = &[
    ("lz-analyze", Format::LeelaZero),
    ("analyze", Format::LeelaZero),
    ("kata-analyze", Format::KataGo),
];

/// What an analysis command asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// Whose moves.
    pub color: Color,
    /// Centiseconds between reports.
    pub interval_cs: u32,
    /// Most moves a report lists (0: all).
    pub max_moves: usize,
    /// Root moves not searched (`avoid`, or all but `allow`'s).
    pub excluded: Vec<Point>,
    /// Add the ownership map (kata).
    pub ownership: bool,
    /// Add each move's `pvVisits` (kata).
    pub pv_visits: bool,
}

/// Reports when the command names no interval.
const DEFAULT_INTERVAL_CS: u32 = 100;

/// Parse `[COLOR] [INTERVAL] [interval N] [minmoves N] [maxmoves N]
/// [avoid|allow COLOR VERTICES UNTIL]... [ownership true|false]
/// [pvVisits true|false]`.
///
/// # Errors
/// [`Failure::Syntax`] for anything else.
pub fn parse<S: AsRef<str>>(engine: &Engine, args: &[S]) -> Result<Analysis, Failure> {
    let args: Vec<&str> = args.iter().map(AsRef::as_ref).collect();
    let geo = engine.game.board().geometry();
    let mut req = Analysis {
        color: engine.game.to_play(),
        interval_cs: DEFAULT_INTERVAL_CS,
        max_moves: 0,
        excluded: Vec::new(),
        ownership: false,
        pv_visits: false,
    };
    let mut rest = &args[..];
    if let Some((first, tail)) = rest.split_first() {
        if let Ok(c) = parse_color(first) {
            req.color = c;
            rest = tail;
        }
    }
    if let Some((first, tail)) = rest.split_first() {
        if let Ok(n) = first.parse::<u32>() {
            req.interval_cs = n;
            rest = tail;
        }
    }
    let number = |s: &str| s.parse::<u32>().map_err(|_| Failure::Syntax);
    let flag = |s: &str| match s {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(Failure::Syntax),
    };
    let mut allowed: Option<Vec<Point>> = None;
    while let Some((key, tail)) = rest.split_first() {
        match (*key, tail) {
            ("interval", [n, t @ ..]) => {
                req.interval_cs = number(n)?;
                rest = t;
            }
            ("minmoves", [n, t @ ..]) => {
                number(n)?;
                rest = t;
            }
            ("maxmoves", [n, t @ ..]) => {
                req.max_moves = number(n)? as usize;
                rest = t;
            }
            ("ownership", [v, t @ ..]) => {
                req.ownership = flag(v)?;
                rest = t;
            }
            ("pvVisits", [v, t @ ..]) => {
                req.pv_visits = flag(v)?;
                rest = t;
            }
            ("ownershipStdev" | "movesOwnership" | "rootInfo", [v, t @ ..]) => {
                flag(v)?;
                rest = t;
            }
            (kind @ ("avoid" | "allow"), [c, vertices, until, t @ ..]) => {
                let c = parse_color(c).map_err(|_| Failure::Syntax)?;
                number(until)?;
                let mut points = Vec::new();
                for v in vertices.split(',') {
                    points.push(geo.parse_vertex(v).map_err(|_| Failure::Syntax)?);
                }
                if c == req.color {
                    if kind == "avoid" {
                        req.excluded.extend(points);
                    } else {
                        allowed.get_or_insert_with(Vec::new).extend(points);
                    }
                }
                rest = t;
            }
            _ => return Err(Failure::Syntax),
        }
    }
    req.excluded.extend(superko_moves(&engine.game, req.color));
    if let Some(allowed) = allowed {
        let board = engine.game.board();
        req.excluded.extend(
            board
                .empty_points()
                .chain(std::iter::once(Point::PASS))
                .filter(|p| !allowed.contains(p)),
        );
    }
    Ok(req)
}

/// Return the moves of `c` in `game` that the board allows but that
/// would repeat an earlier position (positional superko, which the search
/// leaves to its caller): an analysis does not show them.
pub fn superko_moves(game: &super::Game, c: Color) -> Vec<Point> {
    let board = game.board();
    board
        .empty_points()
        .filter(|&p| board.is_legal(p, c) && game.check(c, p) == Err(PlayError::Superko))
        .collect()
}

/// Whether the input thread holds lines not yet read: the analysis stops.
pub type Waiting = Arc<AtomicUsize>;

/// Run the analysis command `req` in `format`, streaming its reports to
/// `out` until `waiting` counts a line.
///
/// # Errors
/// An I/O error of `out`.
pub fn stream(
    engine: &mut Engine,
    req: &Request<'_>,
    format: Format,
    out: &mut impl Write,
    waiting: &Waiting,
) -> io::Result<()> {
    let id = req.id.unwrap_or("");
    let args: Vec<&str> = req.args().collect();
    let analysis = match parse(engine, &args) {
        Ok(a) => a,
        Err(f) => {
            write!(out, "?{id} {f}\n\n")?;
            return out.flush();
        }
    };
    writeln!(out, "={id}")?;
    out.flush()?;
    let priors = priors(engine, analysis.color);
    let interval_ms = u64::from(analysis.interval_cs.max(1)) * 10;
    while waiting.load(Ordering::SeqCst) == 0 {
        let searched = engine.player.analyse(
            &engine.game,
            analysis.color,
            &analysis.excluded,
            // The whole interval: an analysis does not stop when its move
            // is settled.
            Budget {
                early_stop: false,
                ..Budget::time(interval_ms, u32::MAX)
            },
            Some(Arc::clone(waiting)),
        );
        if searched.is_err() {
            break;
        }
        let line = report(engine, &analysis, format, &priors);
        if !line.is_empty() {
            writeln!(out, "{line}")?;
            out.flush()?;
        }
    }
    // The blank line that ends the answer.
    writeln!(out)?;
    out.flush()
}

/// Answer `lz-genmove_analyze` or `kata-genmove_analyze` (`format`) with
/// the arguments of the analysis commands: play a `genmove`, then answer
/// one `info` line of its search and `play MOVE`.
///
/// # Errors
/// The analysis arguments' syntax error, or `genmove`'s failure.
pub fn genmove_analyze(engine: &mut Engine, args: &[String], format: Format) -> Reply {
    let analysis = parse(engine, args)?;
    let priors = priors(engine, analysis.color);
    let mut searched = engine.game.board().clone();
    searched.set_to_play(analysis.color);
    let key = searched.hash();
    let ch = engine.generate(analysis.color, Mode::Normal)?;
    // No report of a tree of another position: the move may come without
    // a search (a pass that ends the game, a resignation rule).
    let tree_is_this = engine
        .player
        .play
        .searcher
        .as_ref()
        .is_some_and(|s| s.search.root_key() == key);
    let info = if tree_is_this {
        report(engine, &analysis, format, &priors)
    } else {
        String::new()
    };
    let mut mv = String::new();
    engine.write_choice(&mut mv, ch);
    Ok(format!("\n{info}\nplay {mv}"))
}

/// `lz-genmove_analyze [COLOR] [INTERVAL] [KEYWORDS]...`
pub fn lz_genmove_analyze(engine: &mut Engine, args: &[String]) -> Reply {
    genmove_analyze(engine, args, Format::LeelaZero)
}

/// `kata-genmove_analyze [COLOR] [INTERVAL] [KEYWORDS]...`
pub fn kata_genmove_analyze(engine: &mut Engine, args: &[String]) -> Reply {
    genmove_analyze(engine, args, Format::KataGo)
}

/// Return each move's share of the pattern model's gammas for `c` (an
/// even share without a model), indexed by point.
pub fn priors(engine: &mut Engine, c: Color) -> Vec<f32> {
    let board = engine.game.board();
    let geo = board.geometry();
    let mut share = vec![0f32; geo.cells().max(1)];
    let moves: Vec<Point> = board
        .empty_points()
        .filter(|&p| engine.game.check(c, p).is_ok())
        .chain(std::iter::once(Point::PASS))
        .collect();
    let gammas = engine.player.gammas(&engine.game, c, &moves);
    let total: f32 = gammas.iter().sum();
    for (&p, g) in moves.iter().zip(&gammas) {
        share[p.idx()] = if total > 0.0 { g / total } else { 0.0 };
    }
    share
}

/// Return the mean and the spread of the margins `sum` (the last
/// search's, whose komi may have had a dynamic part) under the game's komi,
/// in points for `c`.
pub fn score(engine: &Engine, c: Color, sum: &ScoreSum) -> (f64, f64) {
    let shift = f64::from(engine.player.play.extra2) / 2.0;
    let shift = if c == Color::Black { shift } else { -shift };
    let mean = if sum.n == 0 {
        0.0
    } else {
        f64::from(sum.mean()) + shift
    };
    (mean, f64::from(sum.variance()).sqrt())
}

/// Return the lower confidence bound of a win rate `win_rate` over
/// `visits` playouts: 1.96 standard errors below it, at least 0.
pub fn lcb(win_rate: f64, visits: u32) -> f64 {
    let n = f64::from(visits) + 1.0;
    (win_rate - 1.96 * (win_rate * (1.0 - win_rate) / n).sqrt()).max(0.0)
}

/// Return the playout ownership estimate of the game's position (the one
/// `final_status_list` uses) from black's view, -1 (white's) to 1
/// (black's), row by row from the top left.
pub fn black_ownership(engine: &mut Engine) -> Vec<f64> {
    ownership_map(
        engine.game.board(),
        engine.game.komi2(),
        &mut engine.player.scratch,
    )
}

/// Return the playout ownership estimate of `board` under komi `komi2 /
/// 2`, as [`black_ownership`] does, running the playouts on `scratch`.
pub fn ownership_map(board: &Board, komi2: i16, scratch: &mut Board) -> Vec<f64> {
    let geo = board.geometry();
    let own = scoring::scorer(scratch, false).ownership(board, komi2);
    let size = geo.size();
    let mut out = Vec::with_capacity(size * size);
    for y in (0..size).rev() {
        for x in 0..size {
            let black = own.as_ref().map_or(0.5, |o| o.black_share(geo.point(x, y)));
            out.push(2.0 * f64::from(black) - 1.0);
        }
    }
    out
}

/// Return the `info` line of the search's root moves now.
pub fn report(engine: &mut Engine, a: &Analysis, format: Format, priors: &[f32]) -> String {
    let Some(searcher) = engine.player.play.searcher.as_ref() else {
        return String::new();
    };
    let geo = engine.game.board().geometry();
    let mut infos = vec![MoveInfo::EMPTY; 400];
    let n = searcher.search.root_moves(&mut infos);
    infos.truncate(n);
    if a.max_moves > 0 {
        infos.truncate(a.max_moves);
    }
    let mut line = String::new();
    let mut pv = [Point::PASS; 24];
    let mut buf = [0u8; 4];
    // Moves off this board cannot be of its tree: nothing to report.
    let on_board = |p: Point| p.is_pass() || geo.on_board(p);
    if !infos.iter().all(|i| on_board(i.mv)) {
        return String::new();
    }
    for (order, info) in infos.iter().enumerate() {
        let wr = f64::from(info.win_rate);
        let lcb = lcb(wr, info.visits);
        let prior = f64::from(priors.get(info.mv.idx()).copied().unwrap_or(0.0));
        let mv = geo.vertex_str(info.mv, &mut buf).to_string();
        if !line.is_empty() {
            line.push(' ');
        }
        let _ = match format {
            Format::LeelaZero => write!(
                line,
                "info move {mv} visits {} winrate {} prior {} lcb {} order {order} pv",
                info.visits,
                (wr * 10000.0).round(),
                (prior * 10000.0).round(),
                (lcb * 10000.0).round()
            ),
            Format::KataGo => {
                let (mean, stdev) = score(engine, a.color, &info.score);
                write!(
                    line,
                    "info move {mv} visits {} utility {:.6} winrate {:.6} scoreMean {mean:.6} scoreStdev {stdev:.6} scoreLead {mean:.6} prior {:.6} lcb {:.6} utilityLcb {:.6} order {order} pv",
                    info.visits,
                    2.0 * wr - 1.0,
                    wr,
                    prior,
                    lcb,
                    2.0 * lcb - 1.0
                )
            }
        };
        let len = searcher.search.pv(info.node, &mut pv);
        let len = pv[..len].iter().take_while(|&&p| on_board(p)).count();
        for &p in &pv[..len] {
            let _ = write!(line, " {}", geo.vertex_str(p, &mut buf));
        }
        if format == Format::KataGo && a.pv_visits {
            let mut visits = [0u32; 24];
            let k = searcher.search.pv_visits(info.node, &mut visits).min(len);
            line.push_str(" pvVisits");
            for v in &visits[..k] {
                let _ = write!(line, " {v}");
            }
        }
    }
    if format == Format::KataGo && a.ownership && !line.is_empty() {
        line.push_str(" ownership");
        let sign = if a.color == Color::Black { 1.0 } else { -1.0 };
        for black in black_ownership(engine) {
            let _ = write!(line, " {:.4}", sign * black);
        }
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_retake_that_repeats_the_position_is_not_analysed() {
        // A ko: black takes at C4, both pass, and white's retake at B4
        // would bring back the starting position.
        let mut g = super::super::Game::new(5, 0).unwrap();
        let geo = g.board().geometry();
        let v = |s: &str| geo.parse_vertex(s).unwrap();
        let mut setup: Vec<(Point, Option<Color>)> = ["b5", "a4", "b3"]
            .iter()
            .map(|s| (v(s), Some(Color::Black)))
            .collect();
        setup.extend(
            ["c5", "b4", "d4", "c3"]
                .iter()
                .map(|s| (v(s), Some(Color::White))),
        );
        setup.sort_by_key(|c| c.0);
        g.apply_setup(&setup).unwrap();
        g.play(Color::Black, v("c4")).unwrap();
        assert!(
            superko_moves(&g, Color::White).is_empty(),
            "the ko ban, not superko"
        );
        g.play(Color::White, Point::PASS).unwrap();
        g.play(Color::Black, Point::PASS).unwrap();
        assert_eq!(superko_moves(&g, Color::White), vec![v("b4")]);
    }
}
