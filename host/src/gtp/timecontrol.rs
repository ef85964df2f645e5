//! Time control: `time_settings`, `kgs-time_settings`, `time_left`, and the
//! time a move may take.
//!
//! Rules, chosen to never lose on time:
//! * byo-yomi / Canadian, in the overtime period: the period's time divided
//!   by the stones left in it, times 0.85, minus a latency margin;
//! * in main time: the main time left divided by the moves we still expect
//!   to play (a third of the empty points, at least 10), plus half the
//!   overtime allowance per stone when there is overtime;
//! * absolute time: main time left over (expected moves + 10);
//! * every budget keeps [`LATENCY`] seconds in reserve for the pipes and
//!   the controller, and is at least [`MIN_MOVE`];
//! * a search stops early when its move is settled, except in a byo-yomi
//!   period of one stone, where the time it would save is lost.

/// Seconds kept back per move for the transport and the controller.
pub const LATENCY: f64 = 0.1;
/// Shortest budget a move gets, in seconds.
pub const MIN_MOVE: f64 = 0.02;

/// The clock of one game, as the controller told it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TimeControl {
    /// Main time in seconds (0: none).
    pub main: f64,
    /// Overtime period length in seconds (0: absolute time).
    pub byo_time: f64,
    /// Stones per overtime period (0 with `byo_time > 0`: no time limit).
    pub byo_stones: u32,
    /// Periods (Japanese byo-yomi); informative.
    pub byo_periods: u32,
    /// Whether any time control was set.
    pub set: bool,
    /// Last `time_left` per colour: seconds and stones (0 stones: main time).
    pub left: [Option<(f64, u32)>; 2],
}

impl TimeControl {
    /// Return the seconds the next move of colour index `c` may take, or
    /// `None` if the game has no time limit.
    pub fn budget(&self, c: usize, empty_points: usize) -> Option<f64> {
        if !self.set || (self.main == 0.0 && self.byo_time > 0.0 && self.byo_stones == 0) {
            return None;
        }
        if self.main == 0.0 && self.byo_time == 0.0 {
            // "0 0 0": no limit per GTP's absolute-time reading is odd; treat as none.
            return None;
        }
        let (time, stones) = self.left[c].unwrap_or(if self.main > 0.0 {
            (self.main, 0)
        } else {
            (self.byo_time, self.byo_stones)
        });
        let moves = (empty_points / 3).max(10) as f64;
        let t = if stones > 0 {
            time / f64::from(stones) * 0.85 - LATENCY
        } else if self.byo_time > 0.0 && self.byo_stones > 0 {
            let per_stone = self.byo_time / f64::from(self.byo_stones);
            time / moves + 0.5 * per_stone - LATENCY
        } else {
            time / (moves + 10.0) - LATENCY
        };
        Some(t.max(MIN_MOVE))
    }

    /// Query whether time the next move of colour index `c` saves is kept
    /// for later moves. It is not in a byo-yomi period of one stone: what
    /// the move leaves unused is lost, so the search should use it all.
    pub fn keeps_saved_time(&self, c: usize) -> bool {
        match self.left[c] {
            Some((_, stones)) => stones != 1,
            None => !(self.main == 0.0 && self.byo_stones == 1),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::TimeControl;

    fn byo_yomi(secs: f64, stones: u32) -> TimeControl {
        TimeControl {
            byo_time: secs,
            byo_stones: stones,
            set: true,
            ..TimeControl::default()
        }
    }

    /// 19x19 at 20 minutes sudden death: every move spends its whole
    /// budget and 10% more (a search overshoots its check interval), the
    /// game lasts 200 moves a side; time never runs out, the opening and
    /// the middle game get several seconds a move, and what is left shrinks
    /// by a twentieth a move at most in a long endgame.
    #[test]
    fn sudden_death_on_19x19_lasts_a_long_game() {
        let mut tc = TimeControl {
            main: 1200.0,
            set: true,
            ..TimeControl::default()
        };
        let mut left = 1200.0;
        for k in 0..200 {
            tc.left[0] = Some((left, 0));
            let empty = (361usize).saturating_sub(2 * k).max(40);
            let t = tc.budget(0, empty).unwrap();
            if k == 0 {
                assert!((8.0..10.0).contains(&t), "first move {t:.2} s");
            }
            if k == 100 {
                assert!(t > 4.0, "move 100: {t:.2} s");
            }
            left -= 1.1 * t;
            assert!(left > 0.0, "out of time at move {k}");
        }
        assert!(left > 5.0, "{left:.0} s left after 200 moves");
    }

    /// 5 s byo-yomi: a move takes at most 85% of the period.
    #[test]
    fn byo_yomi_moves_stay_inside_the_period() {
        let tc = byo_yomi(5.0, 1);
        let t = tc.budget(0, 300).unwrap();
        assert!(t <= 5.0 * 0.85 && t > 4.0, "{t}");
    }

    #[test]
    fn saved_time_is_kept_except_in_a_one_stone_period() {
        assert!(!byo_yomi(1.0, 1).keeps_saved_time(0));
        assert!(byo_yomi(60.0, 25).keeps_saved_time(0));
        let mut main_time = byo_yomi(30.0, 1);
        main_time.main = 600.0;
        assert!(main_time.keeps_saved_time(0));
        // In the period, `time_left` says how many stones are left.
        main_time.left[0] = Some((30.0, 1));
        assert!(!main_time.keeps_saved_time(0));
        main_time.left[1] = Some((200.0, 0));
        assert!(main_time.keeps_saved_time(1));
    }
}
