//! The end of a game, as a scorer who removes dead stones counts it (GNU
//! Go's referee, the GUIs, KGS): which stones are dead by a playout
//! ownership estimate, the area count with them removed, and whether
//! passing now wins. The host and the firmware score the same way; only
//! the number of playouts differs.
//!
//! A stone is dead when the playouts give its point to the opponent in more
//! than half of them (a majority, as the score estimate counts: it agreed
//! with GNU Go's referee on 41 of 43 finished games, against 29 of 37 at
//! 70%; `kosumi bench score`, 2026-11-24). The playouts go on from the
//! position even after two passes (`Board::reopen`).

use crate::board::Board;
use crate::geometry::{Color, Point, MAX_POINTS};
use crate::playout;
use crate::rng;

/// Where the playouts leave each point: the ownership estimate of a
/// position, in the caller's memory (no allocation).
#[derive(Clone, Debug)]
pub struct Ownership {
    /// Per point: 2 for each playout black owns it in, 1 for each in which
    /// nobody does (from 0, always white's, to `2 n`, always black's).
    black: [u16; MAX_POINTS],
    /// Playouts.
    n: u32,
}

impl Ownership {
    /// Estimate the ownership of `board` from `n` waterfall playouts (at
    /// most 32,767) seeded by `seed`, run on `scratch`.
    pub fn estimate(
        board: &Board,
        komi2: i16,
        n: u32,
        seed: u64,
        scratch: &mut Board,
    ) -> Ownership {
        let n = n.clamp(1, 32_767);
        let mut black = [0u16; MAX_POINTS];
        playout::ownership(board, komi2, n, &mut rng::seeded(seed), scratch, &mut black);
        Ownership { black, n }
    }

    /// Return the share of the playouts in which black owns `p` (an empty
    /// end point counts half), from 0 to 1.
    pub fn black_share(&self, p: Point) -> f32 {
        f32::from(self.black[p.idx()]) / (2 * self.n) as f32
    }

    /// Query whether the stone on `p` is dead: the opponent owns its point
    /// in most playouts. Empty points are not.
    pub fn is_dead(&self, board: &Board, p: Point) -> bool {
        let share = u32::from(self.black[p.idx()]);
        match board.at(p).color() {
            Some(Color::Black) => share < self.n,
            Some(Color::White) => share > self.n,
            None => false,
        }
    }

    /// Return twice black's margin (komi included) with each point given to
    /// the colour owning it in most of the playouts (what
    /// [`playout::estimated_margin2`] counts from the same playouts).
    pub fn majority_margin2(&self, board: &Board, komi2: i16) -> i32 {
        let margin: i32 = board
            .geometry()
            .points()
            .map(|p| match u32::from(self.black[p.idx()]) {
                s if s > self.n => 1,
                s if s < self.n => -1,
                _ => 0,
            })
            .sum();
        2 * margin - i32::from(komi2)
    }

    /// Return twice black's area margin (komi included) with the dead
    /// stones taken off.
    pub fn final_margin2(&self, board: &Board, komi2: i16) -> i32 {
        board
            .score_removing(komi2, |p| self.is_dead(board, p))
            .margin2()
    }
}

/// Query whether `c` wins the game if it ends now: by area as the position
/// stands (what a scorer counts for settled regions) and by the estimate of
/// `n` playouts seeded by `seed` (each point to the colour owning it in
/// most of them: what it counts for dead groups).
pub fn passing_wins(
    board: &Board,
    komi2: i16,
    c: Color,
    n: u32,
    seed: u64,
    scratch: &mut Board,
) -> bool {
    if board.score(komi2).winner() != Some(c) {
        return false;
    }
    let margin2 = playout::estimated_margin2(board, komi2, n, &mut rng::seeded(seed), scratch);
    let sign = if c == Color::Black { 1 } else { -1 };
    sign * margin2 > 0
}

/// Query whether `c` wins if the game ends now, as [`passing_wins`] does,
/// from an estimate already made (`None`: the board as it stands).
pub fn passing_wins_by(board: &Board, komi2: i16, c: Color, own: Option<&Ownership>) -> bool {
    let sign = if c == Color::Black { 1 } else { -1 };
    board.score(komi2).winner() == Some(c)
        && own.is_none_or(|o| sign * o.majority_margin2(board, komi2) > 0)
}

/// How an engine judges the end of a game: the playouts of its ownership
/// estimate (0: count the board as it stands, Tromp-Taylor), their seed,
/// and a board to run them on.
pub struct Scorer<'a> {
    /// Playouts of the estimate (0: no dead stones).
    pub playouts: u32,
    /// Their seed (fixed: the same position gets the same answer).
    pub seed: u64,
    /// The board they run on.
    pub scratch: &'a mut Board,
}

impl Scorer<'_> {
    /// Return the ownership estimate of `board`; `None` when dead stones
    /// are not removed.
    pub fn ownership(&mut self, board: &Board, komi2: i16) -> Option<Ownership> {
        (self.playouts > 0)
            .then(|| Ownership::estimate(board, komi2, self.playouts, self.seed, self.scratch))
    }

    /// Return twice black's final margin with komi: the area count with
    /// the dead stones taken off.
    pub fn final_margin2(&mut self, board: &Board, komi2: i16) -> i32 {
        match self.ownership(board, komi2) {
            Some(own) => own.final_margin2(board, komi2),
            None => board.score(komi2).margin2(),
        }
    }

    /// Query whether `c` wins if the game ends now ([`passing_wins`]).
    pub fn passing_wins(&mut self, board: &Board, komi2: i16, c: Color) -> bool {
        match self.playouts {
            0 => board.score(komi2).winner() == Some(c),
            n => passing_wins(board, komi2, c, n, self.seed, self.scratch),
        }
    }

    /// Query whether any stone of `c` is dead.
    pub fn has_dead(&mut self, board: &Board, komi2: i16, c: Color) -> bool {
        self.ownership(board, komi2).is_some_and(|own| {
            board
                .geometry()
                .points()
                .any(|p| board.at(p).color() == Some(c) && own.is_dead(board, p))
        })
    }
}
