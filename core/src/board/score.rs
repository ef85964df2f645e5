//! Area scoring (Tromp-Taylor): a player's score is their stones plus the
//! empty points that reach only their stones. [`Board::score_removing`]
//! counts the same way after taking stones the caller calls dead off the
//! board (a scorer's count after the players agree on dead stones).

use super::Board;
use crate::geometry::{Cell, Color, Point, MAX_POINTS};

/// The result of area scoring.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Score {
    /// Black's stones and territory.
    pub black: u16,
    /// White's stones and territory.
    pub white: u16,
    /// Twice the komi (komi in half points, so 7.5 is 15).
    pub komi2: i16,
}

impl Score {
    /// Return twice black's margin (black - white - komi): positive when black wins.
    pub fn margin2(&self) -> i32 {
        2 * (self.black as i32 - self.white as i32) - self.komi2 as i32
    }

    /// Return the winner, or `None` for a draw.
    pub fn winner(&self) -> Option<Color> {
        match self.margin2() {
            m if m > 0 => Some(Color::Black),
            m if m < 0 => Some(Color::White),
            _ => None,
        }
    }
}

/// Return the flood's arrays: the points seen and the stack.
fn empty_flood() -> ([bool; MAX_POINTS], [u16; MAX_POINTS]) {
    ([false; MAX_POINTS], [0; MAX_POINTS])
}

impl Board {
    /// Score the position by area (Tromp-Taylor) with komi `komi2 / 2`.
    pub fn score(&self, komi2: i16) -> Score {
        self.area::<false>(komi2, |_| false)
    }

    /// Score the position by area with komi `komi2 / 2` after taking the
    /// stones where `dead` holds off the board: they count for nobody,
    /// and their points are empty points of the region around them.
    pub fn score_removing(&self, komi2: i16, dead: impl Fn(Point) -> bool) -> Score {
        self.area::<true>(komi2, dead)
    }

    /// The area count; with `REMOVE`, stones where `dead` holds are empty.
    #[inline(always)]
    fn area<const REMOVE: bool>(&self, komi2: i16, dead: impl Fn(Point) -> bool) -> Score {
        // The cell as the count sees it.
        let cell = |p: Point| {
            let c = self.cell[p.idx()];
            if REMOVE && c.color().is_some() && dead(p) {
                Cell::Empty
            } else {
                c
            }
        };
        let mut area = [0u16; 2];
        let (n, stride) = (self.geo.size(), self.geo.stride());
        for y in 1..=n {
            let row = y * stride + 1..y * stride + 1 + n;
            for (i, c) in self.cell[row.clone()].iter().enumerate() {
                if let Some(c) = c.color() {
                    if !REMOVE || !dead(Point((row.start + i) as u16)) {
                        area[c.idx()] += 1;
                    }
                }
            }
        }
        // The flood's arrays, set up only for the first region of two or
        // more points (a finished playout has few).
        let mut flood: Option<([bool; MAX_POINTS], [u16; MAX_POINTS])> = None;
        // With `REMOVE`, the dead stones' points start regions too.
        let removed = self
            .geo
            .points()
            .take(if REMOVE { usize::MAX } else { 0 })
            .filter(|&p| cell(p) != self.cell[p.idx()]);
        for start in self.empty_points().chain(removed) {
            // Fast path: a point without empty neighbours is its own region.
            if !REMOVE && self.neighbour_count(start, Cell::Empty) == 0 {
                let b = self.neighbour_count(start, Cell::Black) > 0;
                let w = self.neighbour_count(start, Cell::White) > 0;
                if b != w {
                    area[w as usize] += 1;
                }
                continue;
            }
            let (seen, stack) = flood.get_or_insert_with(empty_flood);
            if seen[start.idx()] {
                continue;
            }
            // Flood the empty region, noting which colours it reaches.
            let mut reach = 0u8;
            let mut region = 0u16;
            let mut top = 0;
            stack[top] = start.0;
            top += 1;
            seen[start.idx()] = true;
            while top > 0 {
                top -= 1;
                let p = Point(stack[top]);
                region += 1;
                for n in self.geo.neighbours(p) {
                    match cell(n) {
                        Cell::Empty if !seen[n.idx()] => {
                            seen[n.idx()] = true;
                            stack[top] = n.0;
                            top += 1;
                        }
                        Cell::Black => reach |= 1,
                        Cell::White => reach |= 2,
                        _ => {}
                    }
                }
            }
            match reach {
                1 => area[0] += region,
                2 => area[1] += region,
                _ => {}
            }
        }
        Score {
            black: area[0],
            white: area[1],
            komi2,
        }
    }
}
