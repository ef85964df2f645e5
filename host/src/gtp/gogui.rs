//! GoGui's analyze commands, of GoGui's own types: `gogui-analyze_commands`
//! lists them, `kosumi-ownership` is a `dboard` (the playout ownership
//! estimate), `kosumi-best_moves` a `gfx` (the search's best moves with
//! their win rates and the principal variation), `kosumi-param` a `param`
//! (the search options in GoGui's dialog: `[bool]` for switches, `[string]`
//! for the rest, set through `kosumi-setoption`).
//!
//! `gogui-interrupt` tells GoGui that a `# interrupt` line stops the
//! running `genmove` (the loop, `super::serve`, counts those lines).
//!
//! Live graphics: with the option `gogui_gfx` on, a search writes a
//! `gogui-gfx:` block to stderr at the end of every deepening iteration
//! (the best move so far, its win rate and visits), which GoGui draws while
//! `genmove` runs.

use std::fmt::Write as _;

use kosumi_core::geometry::{Color, Geometry, Point};
use kosumi_core::search::{Budget, MoveInfo};

use kosumi_core::gtp::args::color as parse_color;

use super::reply::{Failure, Reply};
use super::{options, scoring, Engine};

/// Moves `kosumi-best_moves` labels.
const LABELLED: usize = 8;

/// `gogui-analyze_commands`
pub fn analyze_commands(_: &mut Engine, args: &[String]) -> Reply {
    if !args.is_empty() {
        return Err(Failure::Syntax.into());
    }
    Ok([
        "gfx/Best moves/kosumi-best_moves %c",
        "dboard/Ownership/kosumi-ownership",
        "plist/Dead stones/final_status_list dead",
        "param/Search options/kosumi-param",
        "string/Best move/reg_genmove %c",
        "none/Save book/kosumi-savebook",
    ]
    .join("\n"))
}

/// `gogui-interrupt`: answered empty; listing it tells GoGui to send
/// `# interrupt` to stop a running command.
pub fn interrupt(_: &mut Engine, args: &[String]) -> Reply {
    if !args.is_empty() {
        return Err(Failure::Syntax.into());
    }
    Ok(String::new())
}

/// `kosumi-ownership`: the playout ownership estimate of the position
/// (the one `final_status_list` uses), from black's view (1: black's, -1:
/// white's), one row of the board per line from the top: GoGui's `dboard`.
pub fn ownership(engine: &mut Engine, args: &[String]) -> Reply {
    if !args.is_empty() {
        return Err(Failure::Syntax.into());
    }
    let board = engine.game.board();
    let komi2 = engine.game.komi2();
    let geo = board.geometry();
    let own = scoring::scorer(&mut engine.player.scratch, false).ownership(board, komi2);
    let size = geo.size();
    let mut out = String::new();
    for y in (0..size).rev() {
        let row: Vec<String> = (0..size)
            .map(|x| {
                let black = own.as_ref().map_or(0.5, |o| o.black_share(geo.point(x, y)));
                format!("{:.2}", 2.0 * f64::from(black) - 1.0)
            })
            .collect();
        out.push('\n');
        out.push_str(&row.join(" "));
    }
    Ok(out)
}

/// `kosumi-best_moves COLOR`: search the position for `COLOR` with the
/// move's budget (one second without one), then answer GoGui `gfx`: the
/// best moves labelled with their win rates in percent, the principal
/// variation of the best, and a line of text.
pub fn best_moves(engine: &mut Engine, args: &[String]) -> Reply {
    let [c] = args else {
        return Err(Failure::Syntax.into());
    };
    let c = parse_color(c).map_err(|_| Failure::Syntax)?;
    let o = &engine.player.play.opts;
    let budget = match (o.playouts, o.time) {
        (Some(n), None) => Budget::playouts(n),
        (_, t) => Budget::time((t.unwrap_or(1.0) * 1000.0) as u64, u32::MAX),
    };
    engine
        .player
        .analyse(&engine.game, c, &[], budget, None)
        .map_err(|_| Failure::Syntax)?;
    let Some(searcher) = engine.player.play.searcher.as_ref() else {
        return Err(Failure::Syntax.into());
    };
    let mut infos = [MoveInfo::EMPTY; LABELLED];
    let n = searcher.search.root_moves(&mut infos);
    let geo = engine.game.board().geometry();
    let mut pv = [Point::PASS; 24];
    let len = infos[..n]
        .first()
        .map_or(0, |best| searcher.search.pv(best.node, &mut pv));
    Ok(gfx(geo, c, &infos[..n], &pv[..len]))
}

/// Return the `gfx` of root moves `infos` (most visited first) for `c` and
/// the best one's principal variation `pv`.
fn gfx(geo: Geometry, c: Color, infos: &[MoveInfo], pv: &[Point]) -> String {
    let mut buf = [0u8; 4];
    let mut out = String::new();
    let on_board: Vec<&MoveInfo> = infos.iter().filter(|i| !i.mv.is_pass()).collect();
    if !on_board.is_empty() {
        out.push_str("LABEL");
        for i in &on_board {
            let _ = write!(
                out,
                " {} {}",
                geo.vertex_str(i.mv, &mut buf),
                (i.win_rate * 100.0).round()
            );
        }
        out.push('\n');
    }
    if !pv.is_empty() {
        out.push_str("VAR");
        let mut mover = c;
        for &p in pv {
            let side = if mover == Color::Black { 'b' } else { 'w' };
            let _ = write!(out, " {side} {}", geo.vertex_str(p, &mut buf));
            mover = mover.opponent();
        }
        out.push('\n');
    }
    if let Some(best) = infos.first() {
        let _ = write!(
            out,
            "TEXT {} {:.1}% {} visits",
            geo.vertex_str(best.mv, &mut buf),
            best.win_rate * 100.0,
            best.visits
        );
    }
    out.trim_end().to_string()
}

/// Return the `gogui-gfx:` block of a search's progress: `best` for `c`
/// at `win_rate` after `visits`.
pub fn live(geo: Geometry, c: Color, best: Point, win_rate: f32, visits: u32) -> String {
    let mut buf = [0u8; 4];
    let mv = geo.vertex_str(best, &mut buf).to_string();
    let side = if c == Color::Black { 'b' } else { 'w' };
    let pct = (win_rate * 100.0).round();
    format!(
        "gogui-gfx:\nLABEL {mv} {pct}\nVAR {side} {mv}\nTEXT {mv} {:.1}% {visits} visits\n\n",
        win_rate * 100.0
    )
}

/// `kosumi-param [KEY VALUE]`: the search options as GoGui's `param`
/// lines, or set one (as `kosumi-setoption KEY VALUE`).
pub fn param(engine: &mut Engine, args: &[String]) -> Reply {
    if !args.is_empty() {
        return options::setoption(engine, args);
    }
    let list = options::setoption(engine, &[])?;
    let mut out = String::new();
    for line in list.lines() {
        let Some((key, value)) = line.split_once(' ') else {
            continue;
        };
        let _ = match value {
            "true" => writeln!(out, "[bool] {key} 1"),
            "false" => writeln!(out, "[bool] {key} 0"),
            _ => writeln!(out, "[string] {key} {value}"),
        };
    }
    Ok(out.trim_end().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gfx_labels_the_moves_and_draws_the_variation() {
        let geo = Geometry::new(9).unwrap();
        let v = |s: &str| geo.parse_vertex(s).unwrap();
        let info = |mv, visits, win_rate| MoveInfo {
            mv,
            visits,
            win_rate,
            ..MoveInfo::EMPTY
        };
        let infos = [
            info(v("E5"), 90, 0.614),
            info(Point::PASS, 5, 0.2),
            info(v("C3"), 4, 0.5),
        ];
        let text = gfx(geo, Color::White, &infos, &[v("E5"), v("D4"), v("F6")]);
        assert_eq!(
            text,
            "LABEL E5 61 C3 50\nVAR w E5 b D4 w F6\nTEXT E5 61.4% 90 visits"
        );
        assert_eq!(
            live(geo, Color::Black, v("E5"), 0.5, 10),
            "gogui-gfx:\nLABEL E5 50\nVAR b E5\nTEXT E5 50.0% 10 visits\n\n"
        );
    }
}
