//! Time control: `time_settings`, `kgs-time_settings`, `time_left` (their
//! arguments parsed here, for the host and the firmware alike), and the
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

use crate::search::Budget;

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

/// A clock command's arguments that cannot be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeError;

/// Parse seconds: digits with an optional decimal fraction (read to the
/// millisecond), at most 10^7.
/// Read by hand: `str::parse::<f64>` would bring 30 KB of float-parsing
/// code and tables into the firmware's flash.
///
/// # Errors
/// Anything else (signs, exponents, `inf`, more than 10^7).
pub fn seconds(text: &str) -> Result<f64, TimeError> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    if (whole.is_empty() && fraction.is_empty())
        || !digits(whole)
        || !digits(fraction)
        || whole.len() > 8
    {
        return Err(TimeError);
    }
    // Whole seconds and the first three decimals as integers, one
    // conversion at the end.
    let whole: u32 = whole.bytes().fold(0, |v, d| v * 10 + u32::from(d - b'0'));
    let millis: u32 = fraction
        .bytes()
        .chain(core::iter::repeat(b'0'))
        .take(3)
        .fold(0, |v, d| v * 10 + u32::from(d - b'0'));
    let value = f64::from(whole) + f64::from(millis) / 1000.0;
    if value > 1e7 {
        return Err(TimeError);
    }
    Ok(value)
}

/// Parse a stone or period count.
fn count(text: &str) -> Result<u32, TimeError> {
    text.parse::<u32>().map_err(|_| TimeError)
}

impl TimeControl {
    /// No clock (what [`Default`] gives), as a constant for `static`s.
    pub const NONE: TimeControl = TimeControl {
        main: 0.0,
        byo_time: 0.0,
        byo_stones: 0,
        byo_periods: 0,
        set: false,
        left: [None, None],
    };

    /// Return the search budget of the next move of colour index `c` on a
    /// board with `empty_points` empty points: [`TimeControl::budget`]'s
    /// time with at most `max_playouts`, stopping early when the move is
    /// settled unless the time saved would be lost; `None` without a time
    /// limit.
    pub fn search_budget(
        &self,
        c: usize,
        empty_points: usize,
        max_playouts: u32,
    ) -> Option<Budget> {
        let secs = self.budget(c, empty_points)?;
        Some(Budget {
            early_stop: self.keeps_saved_time(c),
            ..Budget::time((secs * 1000.0 + 0.5) as u64, max_playouts)
        })
    }

    /// Read `time_settings MAIN BYO_TIME BYO_STONES` (GTP 2: Canadian
    /// overtime; `BYO_TIME > 0` with 0 stones means no time limit).
    ///
    /// # Errors
    /// Not three numbers.
    pub fn from_time_settings(args: &[&str]) -> Result<TimeControl, TimeError> {
        let [m, t, s] = args else {
            return Err(TimeError);
        };
        Ok(TimeControl {
            main: seconds(m)?,
            byo_time: seconds(t)?,
            byo_stones: count(s)?,
            byo_periods: 1,
            set: true,
            left: [None, None],
        })
    }

    /// Read `kgs-time_settings none | absolute MAIN | byoyomi MAIN TIME
    /// PERIODS | canadian MAIN TIME STONES`.
    ///
    /// # Errors
    /// An unknown system or bad numbers.
    pub fn from_kgs_time_settings(args: &[&str]) -> Result<TimeControl, TimeError> {
        Ok(match args {
            [k] if k.eq_ignore_ascii_case("none") => TimeControl::default(),
            [k, m] if k.eq_ignore_ascii_case("absolute") => TimeControl {
                main: seconds(m)?,
                set: true,
                ..TimeControl::default()
            },
            [k, m, t, p] if k.eq_ignore_ascii_case("byoyomi") => TimeControl {
                main: seconds(m)?,
                byo_time: seconds(t)?,
                byo_stones: 1,
                byo_periods: count(p)?,
                set: true,
                left: [None, None],
            },
            [k, m, t, s] if k.eq_ignore_ascii_case("canadian") => TimeControl {
                main: seconds(m)?,
                byo_time: seconds(t)?,
                byo_stones: count(s)?.max(1),
                byo_periods: 1,
                set: true,
                left: [None, None],
            },
            _ => return Err(TimeError),
        })
    }

    /// Record `time_left COLOR TIME STONES` for colour index `c` from its
    /// `TIME STONES` arguments. A controller that sends only `time_left`
    /// sets the clock with it.
    ///
    /// # Errors
    /// Not two numbers; the clock is left as it was.
    pub fn time_left(&mut self, c: usize, args: &[&str]) -> Result<(), TimeError> {
        let [t, s] = args else {
            return Err(TimeError);
        };
        let (t, s) = (seconds(t)?, count(s)?);
        if !self.set {
            self.set = true;
            self.main = t;
        }
        self.left[c] = Some((t, s));
        Ok(())
    }

    /// Return the seconds the next move of colour index `c` may take, or
    /// `None` if the game has no time limit: no clock set, or byo-yomi
    /// time with no stones, whatever the main time (GTP's "no time
    /// limits"; q5Go sends `time_settings 1 1 0` for a game without a
    /// clock).
    pub fn budget(&self, c: usize, empty_points: usize) -> Option<f64> {
        if !self.set || (self.byo_time > 0.0 && self.byo_stones == 0) {
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
    use super::{TimeControl, TimeError};

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

    #[test]
    fn a_search_budget_follows_the_clock() {
        assert_eq!(TimeControl::NONE, TimeControl::default());
        assert!(TimeControl::NONE.search_budget(0, 81, 700).is_none());
        let b = byo_yomi(2.0, 1).search_budget(0, 81, 100_000).unwrap();
        // 2 s x 0.85 less 0.1 s of latency; a one-stone period keeps nothing.
        assert_eq!(
            (b.time_ms, b.playouts, b.early_stop),
            (Some(1_600), 100_000, false)
        );
        assert!(
            byo_yomi(60.0, 25)
                .search_budget(0, 81, 10)
                .unwrap()
                .early_stop
        );
    }

    #[test]
    fn byo_yomi_time_without_stones_is_no_limit_whatever_the_main_time() {
        for args in [["0", "1", "0"], ["1", "1", "0"], ["300", "1", "0"]] {
            let tc = TimeControl::from_time_settings(&args).unwrap();
            assert_eq!(tc.budget(0, 300), None, "{args:?}");
        }
        let sudden_death = TimeControl::from_time_settings(&["300", "0", "0"]).unwrap();
        assert!(sudden_death.budget(0, 300).is_some());
    }

    #[test]
    fn clock_commands_are_read_or_refused() {
        let tc = TimeControl::from_time_settings(&["600", "30", "5"]).unwrap();
        assert_eq!(
            (tc.main, tc.byo_time, tc.byo_stones, tc.set),
            (600.0, 30.0, 5, true)
        );
        assert_eq!(
            TimeControl::from_time_settings(&["600", "30"]),
            Err(TimeError)
        );
        assert_eq!(
            TimeControl::from_time_settings(&["-1", "30", "5"]),
            Err(TimeError)
        );
        assert_eq!(
            TimeControl::from_time_settings(&["inf", "30", "5"]),
            Err(TimeError)
        );
        let kgs = TimeControl::from_kgs_time_settings(&["byoyomi", "300", "30", "5"]).unwrap();
        assert_eq!((kgs.byo_stones, kgs.byo_periods), (1, 5));
        assert!(!TimeControl::from_kgs_time_settings(&["none"]).unwrap().set);
        assert_eq!(
            TimeControl::from_kgs_time_settings(&["hourglass", "60"]),
            Err(TimeError)
        );
        let mut tc = TimeControl::default();
        tc.time_left(1, &["42.5", "0"]).unwrap();
        assert!(tc.set && tc.main == 42.5 && tc.left[1] == Some((42.5, 0)));
        assert_eq!(tc.time_left(0, &["x", "0"]), Err(TimeError));
        assert_eq!(tc.left[0], None);
    }
}
