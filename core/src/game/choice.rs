//! The move `genmove` plays, around the caller's search: when to pass,
//! which moves the search may not choose, when to resign, and what to
//! play when the search's choice is refused.
//!
//! In four steps: (1) if the opponent just passed, passing now wins by
//! area, as the board stands and with the stones the player calls dead
//! removed, and the game is over (no point left that counts for nobody
//! and no dead stone left on the board: a conservative pass, as KataGo's,
//! after the opponent's first pass only; with `quick_pass`, whenever
//! passing wins), pass; (2) search, with the
//! root moves that would repeat a position (superko) excluded, and the
//! pass too after the opponent's while the game is not over (but with
//! `quick_pass`), or in
//! cleanup mode (`kgs-genmove_cleanup`) while the opponent has dead
//! stones; (3) resign if the best move's win rate is below the
//! [`ResignRule`]'s after enough playouts and moves;
//! (4) check the move against the game once more (board and superko) and
//! fall back to the next most visited legal move, skipping a pass that
//! loses an open game as it stands (a losing engine that passes there
//! hands the board over), then to any legal move that fills no own eye,
//! then pass.

use heapless::Vec;

use crate::board::Board;
use crate::game::record::{Game, PlayError};
use crate::game::scoring::{passing_wins_by, Ownership, Scorer};
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

/// When to resign, and when to pass.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ResignRule {
    /// Resign when the best move's win rate is below this (0: never).
    pub below: f32,
    /// ...and the search ran at least this many playouts (fewer say too
    /// little to give up on).
    pub min_playouts: u32,
    /// ...and the game has at least a quarter of the board's points in
    /// moves (never before the middle game: 90 moves on 19x19).
    pub middle_game: bool,
    /// Pass after the opponent's pass whenever passing wins, even with
    /// points left that count for nobody or dead stones on the board
    /// (off: the conservative pass).
    pub quick_pass: bool,
}

impl ResignRule {
    /// Below 5% after 2,000 playouts, from the middle game on; the
    /// conservative pass.
    pub const DEFAULT: ResignRule = ResignRule {
        below: 0.05,
        min_playouts: 2_000,
        middle_game: true,
        quick_pass: false,
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
    // (1) The opponent passed, passing wins and the game is over: end it.
    // Not over, the search may not pass (unless passes are quick).
    let mut open_after_pass = false;
    if mode == Mode::Normal && opp_passed {
        if resign.quick_pass {
            if player.scorer().passing_wins(board, komi2, c) {
                return Ok(Choice::Move(Point::PASS));
            }
        } else {
            // One estimate for both questions (the same playouts as
            // `passing_wins` would run). The opponent's second pass ends
            // the game as far as it is concerned: play on no longer (a ko
            // left open was retaken and recaptured until the opponent
            // repeated a position).
            let own = player.scorer().ownership(board, komi2);
            let passes = game
                .moves()
                .iter()
                .filter(|m| m.color == c.opponent() && m.point.is_pass())
                .count();
            let over = passes > 1 || is_over(board, komi2, c, own.as_ref());
            if over && passing_wins_by(board, komi2, c, own.as_ref()) {
                return Ok(Choice::Move(Point::PASS));
            }
            open_after_pass = !over;
        }
    }
    // (2) Search without superko repetitions (and the pass, cleaning up).
    let mut excluded = Vec::<Point, MAX_POINTS>::new();
    for p in board.empty_points() {
        if board.is_legal(p, c) && game.check(c, p) == Err(PlayError::Superko) {
            // At most one entry per point: the vector has room.
            let _ = excluded.push(p);
        }
    }
    if open_after_pass
        || (mode == Mode::Cleanup && player.scorer().has_dead(board, komi2, c.opponent()))
    {
        let _ = excluded.push(Point::PASS);
    }
    let mut ranked = [Point::PASS; RANKED];
    let (outcome, n) = player.search(game, clock, c, &excluded, &mut ranked)?;
    // (3) Resign a hopeless game.
    let size = board.size();
    let middle = !resign.middle_game || 4 * game.moves().len() >= size * size;
    if resign.below > 0.0
        && middle
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

/// Query whether the game on `board` is over for `c`: no stone the
/// estimate `own` calls dead is left to capture and every empty point `c`
/// could fill without self-atari is decided, owned by one side in at least
/// [`DECIDED`] of the playouts (a dame is not; the shared liberties of a
/// seki, self-atari to fill, do not count). Without an estimate (the board
/// counted as it stands), every point counts for one side.
pub fn is_over(board: &Board, komi2: i16, c: Color, own: Option<&Ownership>) -> bool {
    let geo = board.geometry();
    match own {
        Some(own) => geo.points().all(|p| match board.at(p).color() {
            Some(_) => !own.is_dead(board, p),
            None => {
                let black = own.black_share(p);
                let fillable = board.is_playout_move(p, c) && board.liberties_after::<2>(p, c) >= 2;
                !fillable || black >= DECIDED || black <= 1.0 - DECIDED
            }
        }),
        None => {
            let s = board.score(komi2);
            let points = (board.size() * board.size()) as u32;
            u32::from(s.black) + u32::from(s.white) == points
        }
    }
}

/// The share of playouts that decides who owns an empty point.
pub const DECIDED: f32 = 0.8;
