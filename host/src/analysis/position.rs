//! The game a query describes: board size, komi, initial stones, the side
//! to move first and the moves; the position of any turn is rebuilt from
//! them.
//!
//! As in KataGo, the moves are played tolerantly: either colour may move
//! at any turn, and a move that repeats an earlier position is accepted
//! (a record under other rules may hold one). A move the board refuses
//! (occupied point, suicide, simple ko) makes the query illegal. Superko
//! applies to the analysed side's moves: those that would repeat a
//! position are not searched ([`crate::gtp::analyze::superko_moves`]).

use kosumi_core::game::PlayError;
use kosumi_core::geometry::{Color, Point};

use crate::gtp::Game;

/// A query's game record.
#[derive(Clone, Debug, PartialEq)]
pub struct Position {
    /// Board size.
    pub size: usize,
    /// Twice the komi the search counts with (handicap bonus included).
    pub komi2: i16,
    /// Stones on the board before the first move.
    pub setup: Vec<(Point, Color)>,
    /// The side to move at turn 0.
    pub first: Color,
    /// The moves, in order.
    pub moves: Vec<(Color, Point)>,
}

/// Why a query's game cannot be built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    /// The board size is not supported.
    Size,
    /// The initial stones repeat a point or leave a chain without liberties.
    Setup,
    /// The board refused a move: its index in the moves (turn `index` is
    /// the position before it), and why.
    Move {
        /// Index of the move.
        index: usize,
        /// Why it was refused.
        why: PlayError,
    },
}

impl Position {
    /// Return the game after the first `turn` moves (all of them if
    /// `turn` is larger).
    ///
    /// # Errors
    /// What the board refuses: the size, the setup or the first bad move.
    pub fn game(&self, turn: usize) -> Result<Game, Refused> {
        let mut game = Game::new(self.size, self.komi2).map_err(|_| Refused::Size)?;
        let changes: Vec<(Point, Option<Color>)> =
            self.setup.iter().map(|&(p, c)| (p, Some(c))).collect();
        game.apply_setup(&changes).map_err(|_| Refused::Setup)?;
        game.set_to_play(self.first);
        for (index, &(c, p)) in self.moves.iter().take(turn).enumerate() {
            game.play_record(c, p)
                .map_err(|why| Refused::Move { index, why })?;
        }
        Ok(game)
    }
}

/// Return the handicap stones of `setup` as KataGo counts them: the black
/// stones when there is no white one and at least two black ones, else 0.
pub fn handicap_stones(setup: &[(Point, Color)]) -> u32 {
    if setup.iter().any(|&(_, c)| c == Color::White) || setup.len() < 2 {
        0
    } else {
        setup.len() as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kosumi_core::geometry::Geometry;

    fn position(setup: &[(&str, Color)], moves: &[(Color, &str)]) -> Position {
        let geo = Geometry::new(9).unwrap();
        let v = |s: &str| geo.parse_vertex(s).unwrap();
        Position {
            size: 9,
            komi2: 15,
            setup: setup.iter().map(|&(s, c)| (v(s), c)).collect(),
            first: Color::Black,
            moves: moves.iter().map(|&(c, s)| (c, v(s))).collect(),
        }
    }

    #[test]
    fn turns_replay_the_first_moves() {
        let pos = position(
            &[("C3", Color::Black)],
            &[(Color::Black, "E5"), (Color::White, "D4")],
        );
        let g = pos.game(1).unwrap();
        assert_eq!(g.to_play(), Color::White);
        assert_eq!(g.board().empty_count(), 79);
        assert_eq!(pos.game(2).unwrap().to_play(), Color::Black);
        assert_eq!(pos.game(0).unwrap().to_play(), Color::Black);
    }

    #[test]
    fn either_colour_may_move_twice() {
        let pos = position(&[], &[(Color::Black, "E5"), (Color::Black, "D4")]);
        assert_eq!(pos.game(2).unwrap().to_play(), Color::White);
    }

    #[test]
    fn an_occupied_point_is_illegal_at_its_index() {
        let pos = position(&[], &[(Color::Black, "E5"), (Color::White, "E5")]);
        assert!(matches!(pos.game(2), Err(Refused::Move { index: 1, .. })));
        assert!(pos.game(1).is_ok());
    }

    #[test]
    fn a_repeated_setup_point_is_refused() {
        let pos = position(&[("C3", Color::Black), ("C3", Color::White)], &[]);
        assert!(matches!(pos.game(0), Err(Refused::Setup)));
    }

    #[test]
    fn handicap_needs_two_black_stones_and_no_white_one() {
        let geo = Geometry::new(9).unwrap();
        let p = |s| geo.parse_vertex(s).unwrap();
        assert_eq!(handicap_stones(&[(p("C3"), Color::Black)]), 0);
        let two = [(p("C3"), Color::Black), (p("G7"), Color::Black)];
        assert_eq!(handicap_stones(&two), 2);
        let mixed = [(p("C3"), Color::Black), (p("G7"), Color::White)];
        assert_eq!(handicap_stones(&mixed), 0);
    }
}
