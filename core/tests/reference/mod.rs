//! A deliberately simple reference Go board, to check kosumi's board against.
//!
//! Everything here is done the obvious way: a grid of `Option<Color>`, chains
//! and liberties found by flood fill every time they are asked for, a move
//! tried on a copy of the grid, captures found by searching the enemy chains
//! next to the move. Nothing is cached, so nothing can go stale. The only
//! things taken from kosumi are the `Geometry` (to name points) and the
//! Zobrist keys (to compute the expected hash from scratch).
//!
//! Rules: suicide is illegal; simple ko: when a single stone captures exactly
//! one stone and is left with one liberty, the side to move may not retake at
//! the captured point on the very next move. Area scoring is Tromp-Taylor.
#![allow(dead_code)]

use std::collections::BTreeSet;
use std::fmt;

use kosumi_core::geometry::{Color, Geometry, Point};
use kosumi_core::zobrist;

/// A point as `(x, y)`, `y = 0` the bottom row (as kosumi's `Geometry::point`).
pub type Pt = (usize, usize);

/// Why the reference refuses a move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RefError {
    /// The point holds a stone.
    Occupied,
    /// The point is the ko-ban point of the side to move.
    Ko,
    /// The stone's chain would have no liberty.
    Suicide,
}

/// One chain: its colour, stones and liberties.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chain {
    pub color: Color,
    pub stones: BTreeSet<Pt>,
    pub liberties: BTreeSet<Pt>,
}

/// The reference board with the side to move and simple ko.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefBoard {
    pub size: usize,
    /// `grid[y * size + x]`.
    grid: Vec<Option<Color>>,
    pub to_play: Color,
    /// The point the side to move may not play.
    pub ko: Option<Pt>,
    /// Stones captured by black, by white.
    pub captures: [u32; 2],
    /// Consecutive passes at the end of the move list.
    pub passes: u32,
    /// Moves played, passes included.
    pub moves: u32,
    /// The last move (`Some(None)` is a pass).
    pub last: Option<Option<Pt>>,
}

impl RefBoard {
    /// An empty board, black to move.
    pub fn new(size: usize) -> RefBoard {
        RefBoard {
            size,
            grid: vec![None; size * size],
            to_play: Color::Black,
            ko: None,
            captures: [0, 0],
            passes: 0,
            moves: 0,
            last: None,
        }
    }

    /// A board whose stones are `stone(x, y)`; no legality is checked.
    pub fn from_fn(
        size: usize,
        to_play: Color,
        stone: impl Fn(usize, usize) -> Option<Color>,
    ) -> RefBoard {
        let mut b = RefBoard::new(size);
        for y in 0..size {
            for x in 0..size {
                b.grid[y * size + x] = stone(x, y);
            }
        }
        b.to_play = to_play;
        b
    }

    /// Every point of the board, row by row from the bottom.
    pub fn points(&self) -> Vec<Pt> {
        let n = self.size;
        (0..n * n).map(|i| (i % n, i / n)).collect()
    }

    /// What is at `p`.
    pub fn get(&self, p: Pt) -> Option<Color> {
        self.grid[p.1 * self.size + p.0]
    }

    fn set(&mut self, p: Pt, c: Option<Color>) {
        self.grid[p.1 * self.size + p.0] = c;
    }

    /// The on-board neighbours of `p`.
    pub fn neighbours(&self, p: Pt) -> impl Iterator<Item = Pt> {
        let (x, y) = (p.0 as isize, p.1 as isize);
        let n = self.size as isize;
        [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]
            .into_iter()
            .filter(move |&(a, b)| a >= 0 && b >= 0 && a < n && b < n)
            .map(|(a, b)| (a as usize, b as usize))
    }

    /// The four diagonal points of `p`, `None` for those off the board.
    pub fn diagonals(&self, p: Pt) -> Vec<Option<Pt>> {
        let (x, y) = (p.0 as isize, p.1 as isize);
        [
            (x + 1, y + 1),
            (x - 1, y + 1),
            (x + 1, y - 1),
            (x - 1, y - 1),
        ]
        .into_iter()
        .map(|(a, b)| {
            (a >= 0 && b >= 0 && a < self.size as isize && b < self.size as isize)
                .then_some((a as usize, b as usize))
        })
        .collect()
    }

    /// The empty points.
    pub fn empties(&self) -> Vec<Pt> {
        self.points()
            .into_iter()
            .filter(|&p| self.get(p).is_none())
            .collect()
    }

    /// The chain through the stone at `p` (flood fill), or `None` on an
    /// empty point.
    pub fn chain_at(&self, p: Pt) -> Option<Chain> {
        let color = self.get(p)?;
        let mut stones = BTreeSet::new();
        let mut liberties = BTreeSet::new();
        let mut stack = vec![p];
        stones.insert(p);
        while let Some(q) = stack.pop() {
            for n in self.neighbours(q) {
                match self.get(n) {
                    None => {
                        liberties.insert(n);
                    }
                    Some(c) if c == color => {
                        if stones.insert(n) {
                            stack.push(n);
                        }
                    }
                    Some(_) => {}
                }
            }
        }
        Some(Chain {
            color,
            stones,
            liberties,
        })
    }

    /// Every chain on the board.
    pub fn chains(&self) -> Vec<Chain> {
        let mut seen = BTreeSet::new();
        let mut out = Vec::new();
        for p in self.points() {
            if self.get(p).is_some() && !seen.contains(&p) {
                let ch = self.chain_at(p).expect("a stone");
                seen.extend(ch.stones.iter().copied());
                out.push(ch);
            }
        }
        out
    }

    /// Play `mv` (`None` passes) for `c`; return the captured stones.
    pub fn play(&mut self, mv: Option<Pt>, c: Color) -> Result<Vec<Pt>, RefError> {
        let Some(p) = mv else {
            self.to_play = c.opponent();
            self.ko = None;
            self.passes += 1;
            self.moves += 1;
            self.last = Some(None);
            return Ok(Vec::new());
        };
        if self.get(p).is_some() {
            return Err(RefError::Occupied);
        }
        if self.ko == Some(p) && c == self.to_play {
            return Err(RefError::Ko);
        }
        // Try the move on a copy: place, take enemy chains without liberties,
        // then the own chain must have a liberty.
        let mut after = self.clone();
        after.set(p, Some(c));
        let mut captured = Vec::new();
        for n in self.neighbours(p) {
            if after.get(n) == Some(c.opponent()) {
                let ch = after.chain_at(n).expect("a stone");
                if ch.liberties.is_empty() {
                    for &s in &ch.stones {
                        after.set(s, None);
                        captured.push(s);
                    }
                }
            }
        }
        let own = after.chain_at(p).expect("the new stone");
        if own.liberties.is_empty() {
            return Err(RefError::Suicide);
        }
        after.ko = if captured.len() == 1 && own.stones.len() == 1 && own.liberties.len() == 1 {
            Some(captured[0])
        } else {
            None
        };
        after.captures[c as usize] += captured.len() as u32;
        after.to_play = c.opponent();
        after.passes = 0;
        after.moves += 1;
        after.last = Some(Some(p));
        *self = after;
        captured.sort();
        Ok(captured)
    }

    /// Return the board after `c` plays at `p`, or why it may not.
    pub fn after(&self, p: Pt, c: Color) -> Result<RefBoard, RefError> {
        let mut b = self.clone();
        b.play(Some(p), c)?;
        Ok(b)
    }

    /// Query whether `c` may play at `p`.
    pub fn legal(&self, p: Pt, c: Color) -> Result<(), RefError> {
        self.after(p, c).map(|_| ())
    }

    /// The legal moves of `c` (passes excluded), row by row from the bottom.
    pub fn legal_moves(&self, c: Color) -> Vec<Pt> {
        self.empties()
            .into_iter()
            .filter(|&p| self.legal(p, c).is_ok())
            .collect()
    }

    /// The number of liberties of the chain at `p` after `c` plays there.
    pub fn liberties_after(&self, p: Pt, c: Color) -> Result<usize, RefError> {
        let b = self.after(p, c)?;
        Ok(b.chain_at(p).expect("the new stone").liberties.len())
    }

    /// Query whether the empty point `p` is eye-like for `c`: every
    /// on-board neighbour is a stone of `c`, and the opponent holds no
    /// diagonal when `p` is on the edge, at most one otherwise.
    pub fn is_eyelike(&self, p: Pt, c: Color) -> bool {
        if self.get(p).is_some() {
            return false;
        }
        if self.neighbours(p).any(|n| self.get(n) != Some(c)) {
            return false;
        }
        let diagonals = self.diagonals(p);
        let on_edge = diagonals.iter().any(Option::is_none);
        let enemy = diagonals
            .iter()
            .flatten()
            .filter(|&&d| self.get(d) == Some(c.opponent()))
            .count();
        if on_edge {
            enemy == 0
        } else {
            enemy < 2
        }
    }

    /// Area score (stones + empty regions reaching only one colour):
    /// `(black, white)`.
    pub fn area(&self) -> (u32, u32) {
        let mut area = [0u32; 2];
        let mut seen = BTreeSet::new();
        for p in self.points() {
            match self.get(p) {
                Some(c) => area[c as usize] += 1,
                None if !seen.contains(&p) => {
                    // Flood the empty region and note the colours it touches.
                    let mut region = vec![p];
                    let mut stack = vec![p];
                    let mut touches = BTreeSet::new();
                    seen.insert(p);
                    while let Some(q) = stack.pop() {
                        for n in self.neighbours(q) {
                            match self.get(n) {
                                None => {
                                    if seen.insert(n) {
                                        region.push(n);
                                        stack.push(n);
                                    }
                                }
                                Some(c) => {
                                    touches.insert(c as usize);
                                }
                            }
                        }
                    }
                    if touches.len() == 1 {
                        let c = *touches.iter().next().expect("one colour");
                        area[c] += region.len() as u32;
                    }
                }
                None => {}
            }
        }
        (area[0], area[1])
    }

    /// Twice black's margin with komi `komi2 / 2`.
    pub fn margin2(&self, komi2: i32) -> i32 {
        let (b, w) = self.area();
        2 * (b as i32 - w as i32) - komi2
    }

    /// kosumi's name for `p` on this board.
    pub fn point(&self, p: Pt) -> Point {
        self.geometry().point(p.0, p.1)
    }

    /// The kosumi geometry of this board size.
    pub fn geometry(&self) -> Geometry {
        Geometry::new(self.size).expect("a supported size")
    }

    /// The Zobrist hash of the stones, computed from scratch.
    pub fn position_hash(&self) -> u64 {
        let mut h = 0;
        for p in self.points() {
            if let Some(c) = self.get(p) {
                h ^= zobrist::stone(self.point(p), c);
            }
        }
        h
    }

    /// The full Zobrist hash: stones, ko-ban point and side to move.
    pub fn hash(&self) -> u64 {
        let mut h = self.position_hash();
        if let Some(k) = self.ko {
            h ^= zobrist::ko(self.point(k));
        }
        if self.to_play == Color::White {
            h ^= zobrist::white_to_move();
        }
        h
    }
}

/// GTP name of `p` (`A1` bottom left, no `I`).
pub fn vertex(p: Pt) -> String {
    const LETTERS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";
    format!("{}{}", LETTERS[p.0] as char, p.1 + 1)
}

/// GTP name of a move, `pass` for `None`.
pub fn move_name(mv: Option<Pt>) -> String {
    mv.map_or_else(|| "pass".to_string(), vertex)
}

impl fmt::Display for RefBoard {
    /// The stones, top row first, `X` black, `O` white, `.` empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for y in (0..self.size).rev() {
            write!(f, "{:>3} ", y + 1)?;
            for x in 0..self.size {
                let ch = match self.get((x, y)) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                };
                write!(f, " {ch}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
