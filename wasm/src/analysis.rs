//! The page's analysis as JSON text: a search of the current position
//! (the tree of the same position is kept, so calls in a row deepen it),
//! then the root's win rate, the best root moves with their visits, win
//! rates, score leads and principal variations ([`Search::root_moves`],
//! [`Search::pv`], as the host's `lz-analyze` and GoGui's best moves), and
//! the ownership estimate the core scores with ([`Scorer::ownership`], as
//! the host's `kata-analyze ownership true`).
//!
//! ```json
//! {"toPlay":"B","visits":1200,"winrate":0.55,"blackWinrate":0.55,
//!  "moves":[{"move":"E5","visits":800,"winrate":0.56,"scoreLead":3.1,"pv":["E5","D4"]}],
//!  "ownership":[0.12,-0.98,...]}
//! ```
//!
//! Win rates of the root and its moves are the side to move's
//! (`blackWinrate` is black's, for a graph over the game); score leads are
//! in points for the side to move; ownership runs row by row from the top
//! left, from -1 (white's) to 1 (black's).
//!
//! [`Search::root_moves`]: kosumi_core::search::Search::root_moves
//! [`Search::pv`]: kosumi_core::search::Search::pv
//! [`Scorer::ownership`]: kosumi_core::game::Scorer::ownership

use core::fmt::{self, Write};

use kosumi_core::game::Player;
use kosumi_core::geometry::{Color, Geometry, Point};
use kosumi_core::search::{Budget, MoveInfo, SearchError};

use crate::engine::Web;

/// Most root moves reported.
pub const MOVES: usize = 10;

/// Longest principal variation reported.
pub const PV: usize = 12;

/// Why an analysis could not be written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnalysisError {
    /// The search could not run.
    Search(SearchError),
    /// The text did not fit the output buffer.
    Full,
}

impl From<fmt::Error> for AnalysisError {
    fn from(_: fmt::Error) -> Self {
        AnalysisError::Full
    }
}

/// Search the session's position for its side to move with `playouts`
/// more playouts and write the analysis as JSON to `out`.
///
/// # Errors
/// [`AnalysisError::Search`] when the search cannot run,
/// [`AnalysisError::Full`] when `out` is full.
pub fn analyse(session: &mut Web, playouts: u32, out: &mut dyn Write) -> Result<(), AnalysisError> {
    let board = session.game.board();
    let komi2 = session.game.komi2();
    let geo = board.geometry();
    let to_play = board.to_play();
    session
        .player
        .analyse(board, komi2, &[], Budget::playouts(playouts))
        .map_err(AnalysisError::Search)?;
    let tree = session.player.tree();
    let root = &tree.pool().nodes()[0];
    let win_rate = tree.root_win_rate();
    let black = if to_play == Color::Black {
        win_rate
    } else {
        1.0 - win_rate
    };
    write!(
        out,
        "{{\"toPlay\":\"{}\",\"visits\":{},\"winrate\":{:.4},\"blackWinrate\":{:.4},\"moves\":[",
        if to_play == Color::Black { 'B' } else { 'W' },
        root.visits,
        win_rate,
        black
    )?;
    let mut infos = [MoveInfo::EMPTY; MOVES];
    let n = tree.root_moves(&mut infos);
    for (i, info) in infos[..n].iter().enumerate() {
        let score = if info.score.n == 0 {
            0.0
        } else {
            info.score.mean()
        };
        write!(
            out,
            "{}{{\"move\":\"{}\",\"visits\":{},\"winrate\":{:.4},\"scoreLead\":{:.1},\"pv\":[",
            if i == 0 { "" } else { "," },
            Vertex(geo, info.mv),
            info.visits,
            info.win_rate,
            score
        )?;
        let mut pv = [Point::PASS; PV];
        let len = tree.pv(info.node, &mut pv);
        for (k, &p) in pv[..len].iter().enumerate() {
            write!(
                out,
                "{}\"{}\"",
                if k == 0 { "" } else { "," },
                Vertex(geo, p)
            )?;
        }
        out.write_str("]}")?;
    }
    out.write_str("],\"ownership\":[")?;
    let own = session.player.scorer().ownership(board, komi2);
    let size = geo.size();
    for y in (0..size).rev() {
        for x in 0..size {
            let share = own.as_ref().map_or(0.5, |o| o.black_share(geo.point(x, y)));
            let sep = if x == 0 && y == size - 1 { "" } else { "," };
            write!(out, "{sep}{:.2}", 2.0 * share - 1.0)?;
        }
    }
    out.write_str("]}")?;
    Ok(())
}

/// A point as GTP names it (`pass` for the pass).
struct Vertex(Geometry, Point);

impl fmt::Display for Vertex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = [0u8; 4];
        f.write_str(self.0.vertex_str(self.1, &mut buf))
    }
}
