//! Dynamic komi: the komi the search plays its playouts with may differ
//! from the game's, so that a handicap game or a game far ahead does not
//! make the engine play slack moves (Pachi's linear dynkomi with its
//! ratchet, `uct/dynkomi.c`).
//!
//! * **Linear phase** (handicap games): at move 0 the search counts an
//!   extra komi for white worth the handicap (12 points a stone when the
//!   engine is black, 8 when it is white, less the komi), falling linearly
//!   to 0 by move 200 (black) or 150 (white) on 19x19 (15 on 9x9). As
//!   black the engine must win by the handicap's worth, so it keeps
//!   playing real moves; as white it sees itself closer to even, so it
//!   does not throw the game away.
//! * **Adaptive phase** (after the linear one; in even games only when
//!   asked for): while the engine's win rate is above [`GREEN`], it asks
//!   one more point of itself each move; below [`ORANGE`] it gives back
//!   [`DROP`] points and never asks more than that again (the ratchet);
//!   below one half it stops asking anything for the rest of the game.
//!   It never takes komi when behind.
//!
//! Amounts are in half points, positive for white (the game's own komi
//! sign), and whole points, so the search's tree survives most moves.

use crate::geometry::Color;

/// Win rate above which the engine asks one more point of itself.
pub const GREEN: f32 = 0.85;
/// Win rate below which it gives [`DROP`] points back.
pub const ORANGE: f32 = 0.80;
/// Points given back below [`ORANGE`].
pub const DROP: i32 = 4;

/// The dynamic komi of one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DynamicKomi {
    /// What the engine asks of itself in the adaptive phase, half points.
    asked2: i32,
    /// The most it may ask again (`i32::MAX`: no limit yet).
    ratchet2: i32,
    /// Adapt in even games too.
    pub adaptive_even: bool,
}

impl Default for DynamicKomi {
    /// Return the dynamic komi of a new game, adapting in handicap games
    /// only.
    fn default() -> Self {
        DynamicKomi::new(false)
    }
}

impl DynamicKomi {
    /// Return the dynamic komi of a new game.
    pub const fn new(adaptive_even: bool) -> Self {
        DynamicKomi {
            asked2: 0,
            ratchet2: i32::MAX,
            adaptive_even,
        }
    }

    /// Forget the game (a new one starts).
    pub fn reset(&mut self) {
        *self = DynamicKomi::new(self.adaptive_even);
    }

    /// Return the extra komi (half points, positive for white) for `c` to
    /// move at move `moves` (passes included) of a game on a `size` board
    /// with `handicap` stones and komi `komi2`; `win_rate` is `c`'s win
    /// rate in its last search of this game, if any.
    pub fn extra2(
        &mut self,
        size: usize,
        handicap: u32,
        komi2: i16,
        moves: u32,
        c: Color,
        win_rate: Option<f32>,
    ) -> i32 {
        let span = linear_moves(size, c);
        if moves < span {
            if handicap == 0 {
                return 0;
            }
            let value = if c == Color::Black { 12 } else { 8 };
            // Pachi's effective handicap, in half points.
            let base2 = 2 * handicap as i32 * value + 1 - i32::from(komi2);
            let extra2 = base2.max(0) as i64 * i64::from(span - moves) / i64::from(span);
            return (extra2 as i32) & !1;
        }
        if handicap == 0 && !self.adaptive_even {
            return 0;
        }
        if let Some(w) = win_rate {
            if w < 0.5 && self.asked2 > 0 {
                self.asked2 = 0;
                self.ratchet2 = 0;
            } else if w < ORANGE && self.asked2 > 0 {
                self.asked2 = (self.asked2 - 2 * DROP).max(0);
                self.ratchet2 = self.asked2;
            } else if w > GREEN && self.asked2 + 2 <= self.ratchet2 {
                self.asked2 += 2;
            }
        }
        match c {
            Color::Black => self.asked2,
            Color::White => -self.asked2,
        }
    }
}

/// Return the moves of the linear phase for `c` on a `size` board.
fn linear_moves(size: usize, c: Color) -> u32 {
    match (size, c) {
        (0..=9, _) => 15,
        (10..=14, _) => 50,
        (15..=18, _) => 100,
        (_, Color::Black) => 200,
        (_, Color::White) => 150,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handicap_compensation_falls_to_zero() {
        let mut d = DynamicKomi::new(false);
        // Four stones, komi 0.5, engine white: 4 * 8 points at move 0.
        assert_eq!(d.extra2(19, 4, 1, 0, Color::White, None), 2 * 32);
        let mid = d.extra2(19, 4, 1, 75, Color::White, None);
        assert!((30..=34).contains(&mid), "{mid}");
        assert_eq!(d.extra2(19, 4, 1, 150, Color::White, None), 0);
        // As black it asks 12 points a stone of itself.
        assert_eq!(d.extra2(19, 4, 1, 0, Color::Black, None), 2 * 48);
        // Even games: nothing, unless adaptive.
        assert_eq!(d.extra2(19, 0, 15, 0, Color::Black, Some(0.99)), 0);
        assert_eq!(d.extra2(19, 0, 15, 250, Color::Black, Some(0.99)), 0);
    }

    #[test]
    fn adaptive_phase_asks_more_while_winning_and_ratchets_back() {
        let mut d = DynamicKomi::new(true);
        let mut e = 0;
        for _ in 0..5 {
            e = d.extra2(9, 0, 14, 40, Color::White, Some(0.9));
        }
        assert_eq!(e, -10, "white asks 5 points of itself");
        e = d.extra2(9, 0, 14, 41, Color::White, Some(0.75));
        assert_eq!(e, -2, "gives 4 back");
        e = d.extra2(9, 0, 14, 42, Color::White, Some(0.95));
        assert_eq!(e, -2, "the ratchet holds it at 1");
        e = d.extra2(9, 0, 14, 43, Color::White, Some(0.4));
        assert_eq!(e, 0, "losing: nothing asked, ever again");
        e = d.extra2(9, 0, 14, 44, Color::White, Some(0.99));
        assert_eq!(e, 0);
    }
}
