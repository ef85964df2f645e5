//! The move `genmove` plays, around the caller's search: when to pass,
//! which moves the search may not choose, when to resign, and what to
//! play when the search's choice is refused.
//!
//! In four steps: (1) if the opponent just passed and passing now wins by
//! area, as the board stands and with the stones the player calls dead
//! removed, pass; (2) search, with the root moves that would repeat a
//! position (superko) excluded, and in cleanup mode (`kgs-genmove_cleanup`)
//! the pass too while the opponent has dead stones; (3) resign if the best
//! move's win rate is below the [`ResignRule`]'s after enough playouts;
//! (4) check the move against the game once more (board and superko) and
//! fall back to the next most visited legal move, skipping a pass that
//! loses an open game as it stands (a losing engine that passes there
//! hands the board over), then to any legal move that fills no own eye,
//! then pass.

use heapless::Vec;

use crate::game::record::{Game, PlayError};
use crate::game::scoring::Scorer;
use crate::game::timecontrol::TimeControl;
use crate::geometry::{Color, Point, MAX_POINTS};

/// What `genmove` decided.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Choice {
    /// Play this move (or pass).
    Move(Point),
    /// The game is hopeless: resign.
    Resign,
}

/// How `genmove` treats the end of the game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// `genmove`: pass when passing wins.
    Normal,
    /// `kgs-genmove_cleanup`: no pass while the opponent has dead stones
    /// (capture them first, as KGS asks after a disputed count).
    Cleanup,
}

/// When to resign.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ResignRule {
    /// Resign when the best move's win rate is below this (0: never).
    pub below: f32,
    /// ...and the search ran at least this many playouts (fewer say too
    /// little to give up on).
    pub min_playouts: u32,
}

impl ResignRule {
    /// Below 5% after 2,000 playouts.
    pub const DEFAULT: ResignRule = ResignRule {
        below: 0.05,
        min_playouts: 2_000,
    };
}

/// What a search found.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The move it chose (or pass).
    pub best: Point,
    /// Its win rate for the side to move.
    pub win_rate: f32,
    /// The playouts behind it (kept from an earlier search included).
    pub playouts: u32,
}

/// Most root moves a search ranks for the fall-backs.
pub const RANKED: usize = 16;

/// The searcher and judge of the end of the game that `choose` asks.
pub trait Player {
    /// Why a search failed.
    type Error;

    /// Return how the player judges the end of a game: the playouts of
    /// its ownership estimate and the board they run on.
    fn scorer(&mut self) -> Scorer<'_>;

    /// Search the game's position for `c` (to move), with the time `clock`
    /// leaves, without the moves of `excluded`; write the root moves, most
    /// visited first, into `ranked` and return the outcome and how many
    /// were written.
    ///
    /// # Errors
    /// The player's, when it could not search.
    fn search<const M: usize, const S: usize>(
        &mut self,
        game: &Game<M, S>,
        clock: &TimeControl,
        c: Color,
        excluded: &[Point],
        ranked: &mut [Point; RANKED],
    ) -> Result<(Outcome, usize), Self::Error>;
}

/// Choose the move of `c` (not played). The game's side to move is `c`
/// during the search and what it was afterwards.
///
/// # Errors
/// The player's, when its search failed.
pub fn choose<P: Player, const M: usize, const S: usize>(
    game: &mut Game<M, S>,
    clock: &TimeControl,
    c: Color,
    mode: Mode,
    resign: ResignRule,
    player: &mut P,
) -> Result<Choice, P::Error> {
    let before = game.to_play();
    game.set_to_play(c);
    let choice = choose_to_play(game, clock, c, mode, resign, player);
    game.set_to_play(before);
    choice
}

fn choose_to_play<P: Player, const M: usize, const S: usize>(
    game: &Game<M, S>,
    clock: &TimeControl,
    c: Color,
    mode: Mode,
    resign: ResignRule,
    player: &mut P,
) -> Result<Choice, P::Error> {
    let board = game.board();
    let komi2 = game.komi2();
    let opp_passed = game.opponent_passed(c);
    // (1) The opponent passed and passing wins: end the game.
    if mode == Mode::Normal && opp_passed && player.scorer().passing_wins(board, komi2, c) {
        return Ok(Choice::Move(Point::PASS));
    }
    // (2) Search without superko repetitions (and the pass, cleaning up).
    let mut excluded = Vec::<Point, MAX_POINTS>::new();
    for p in board.empty_points() {
        if board.is_legal(p, c) && game.check(c, p) == Err(PlayError::Superko) {
            // At most one entry per point: the vector has room.
            let _ = excluded.push(p);
        }
    }
    if mode == Mode::Cleanup && player.scorer().has_dead(board, komi2, c.opponent()) {
        let _ = excluded.push(Point::PASS);
    }
    let mut ranked = [Point::PASS; RANKED];
    let (outcome, n) = player.search(game, clock, c, &excluded, &mut ranked)?;
    // (3) Resign a hopeless game.
    if resign.below > 0.0
        && outcome.playouts >= resign.min_playouts
        && outcome.win_rate < resign.below
        && !outcome.best.is_pass()
    {
        return Ok(Choice::Resign);
    }
    // (4) Only a move the game accepts, and no pass while passing loses an
    // open game (asked once, only when a pass comes up).
    let mut pass_loses = None;
    let candidates = core::iter::once(outcome.best).chain(ranked[..n.min(RANKED)].iter().copied());
    for p in candidates {
        if p.is_pass() {
            if excluded.contains(&Point::PASS) {
                continue;
            }
            let loses = *pass_loses.get_or_insert_with(|| {
                !opp_passed && !player.scorer().passing_wins(board, komi2, c)
            });
            if loses {
                continue;
            }
        }
        if game.check(c, p).is_ok() {
            return Ok(Choice::Move(p));
        }
    }
    // Anything legal that is not an own eye, else pass.
    Ok(Choice::Move(
        board
            .empty_points()
            .find(|&p| board.is_playout_move(p, c) && game.check(c, p).is_ok())
            .unwrap_or(Point::PASS),
    ))
}
