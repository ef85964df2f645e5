//! Points, colours and board sizes.
//!
//! A board of size `n` is stored as a padded one-dimensional array of
//! `(n + 2) * (n + 2)` cells: a ring of off-board cells surrounds the playing
//! area, so every on-board point has four neighbours to look at without a
//! bounds test (Pachi's and libego's layout). The stride is `n + 2`, picked at
//! run time, while every array is sized at compile time for [`MAX_SIZE`], the
//! largest board the build supports (cargo features `size9`, `size13`,
//! `size19`; the largest enabled wins). A 9x9-only firmware build therefore
//! pays for 121 cells, not 441.

/// Largest board size this build supports.
pub const MAX_SIZE: usize = if cfg!(feature = "size19") {
    19
} else if cfg!(feature = "size13") {
    13
} else if cfg!(feature = "size9") {
    9
} else {
    0
};

#[cfg(not(any(feature = "size9", feature = "size13", feature = "size19")))]
compile_error!("enable one of the features size9, size13, size19 of kosumi-core");

/// Smallest board size accepted.
pub const MIN_SIZE: usize = 2;

/// Stride of the padded array on the largest board.
pub const MAX_STRIDE: usize = MAX_SIZE + 2;

/// Cells in the padded array of the largest board.
pub const MAX_CELLS: usize = MAX_STRIDE * MAX_STRIDE;

/// Length of every per-point array: [`MAX_CELLS`] rounded up to a power of
/// two, so that [`Point::idx`] can mask its index into range and the
/// compiler drops every bounds check (safe code, no `get_unchecked`).
pub const MAX_POINTS: usize = MAX_CELLS.next_power_of_two();

static_assertions::const_assert!(MAX_POINTS <= u16::MAX as usize);

/// A cell of the padded board array; also a move, where [`Point::PASS`] is
/// the pass move (index 0 is always an off-board corner).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Point(pub u16);

impl Point {
    /// The pass move.
    pub const PASS: Point = Point(0);

    /// Return the array index of this point, masked into
    /// `0..MAX_POINTS` (a no-op for every valid point).
    #[inline(always)]
    pub const fn idx(self) -> usize {
        self.0 as usize & (MAX_POINTS - 1)
    }

    /// Query whether this is the pass move.
    #[inline(always)]
    pub const fn is_pass(self) -> bool {
        self.0 == 0
    }
}

/// A player, or the colour of a stone.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(u8)]
pub enum Color {
    /// Black, who moves first.
    Black = 0,
    /// White.
    White = 1,
}

impl Color {
    /// Return the other colour.
    #[inline(always)]
    pub const fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// Return 0 for black, 1 for white.
    #[inline(always)]
    pub const fn idx(self) -> usize {
        self as usize
    }

    /// Return the colour's diagram letter: `X` for black, `O` for white.
    pub const fn letter(self) -> char {
        match self {
            Color::Black => 'X',
            Color::White => 'O',
        }
    }
}

/// What a cell of the padded array holds.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(u8)]
pub enum Cell {
    /// A black stone.
    Black = 0,
    /// A white stone.
    White = 1,
    /// An empty on-board point.
    Empty = 2,
    /// Outside the board.
    Off = 3,
}

impl Cell {
    /// Return the cell holding a stone of `c`.
    #[inline(always)]
    pub const fn stone(c: Color) -> Cell {
        match c {
            Color::Black => Cell::Black,
            Color::White => Cell::White,
        }
    }

    /// Return the stone's colour, if the cell holds one.
    #[inline(always)]
    pub const fn color(self) -> Option<Color> {
        match self {
            Cell::Black => Some(Color::Black),
            Cell::White => Some(Color::White),
            _ => None,
        }
    }
}

/// Letters of GTP column names: `A` to `T` without `I`.
pub const COLUMN_LETTERS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// The mapping between coordinates and points for one board size.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Geometry {
    size: u8,
    stride: u8,
}

/// Why a size or a vertex was refused.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum GeometryError {
    /// The board size is outside `MIN_SIZE..=MAX_SIZE`.
    UnsupportedSize,
    /// The vertex text is not a vertex.
    BadVertex,
    /// The vertex lies outside the board.
    OffBoard,
}

impl Geometry {
    /// Return the geometry of an `size` x `size` board.
    ///
    /// # Errors
    /// [`GeometryError::UnsupportedSize`] unless `MIN_SIZE <= size <= MAX_SIZE`.
    pub const fn new(size: usize) -> Result<Geometry, GeometryError> {
        if size < MIN_SIZE || size > MAX_SIZE {
            return Err(GeometryError::UnsupportedSize);
        }
        Ok(Geometry {
            size: size as u8,
            stride: (size + 2) as u8,
        })
    }

    /// Return the board size.
    #[inline(always)]
    pub const fn size(self) -> usize {
        self.size as usize
    }

    /// Return the stride of the padded array (`size + 2`).
    #[inline(always)]
    pub const fn stride(self) -> usize {
        self.stride as usize
    }

    /// Return the number of cells of the padded array in use.
    #[inline(always)]
    pub const fn cells(self) -> usize {
        self.stride() * self.stride()
    }

    /// Return the point at column `x` and row `y`, both from 0; row 0 is the
    /// bottom row (GTP row 1).
    #[inline(always)]
    pub const fn point(self, x: usize, y: usize) -> Point {
        Point(((y + 1) * self.stride() + x + 1) as u16)
    }

    /// Return `(x, y)` of an on-board point.
    #[inline(always)]
    pub const fn coords(self, p: Point) -> (usize, usize) {
        let s = self.stride();
        (p.idx() % s - 1, p.idx() / s - 1)
    }

    /// Query whether `p` is on the board.
    pub const fn on_board(self, p: Point) -> bool {
        let s = self.stride();
        let (x, y) = (p.0 as usize % s, p.0 as usize / s);
        x >= 1 && x <= self.size() && y >= 1 && y <= self.size()
    }

    /// Return the four neighbours of `p` (E, W, N, S).
    #[inline(always)]
    pub const fn neighbours(self, p: Point) -> [Point; 4] {
        let s = self.stride;
        [
            Point(p.0 + 1),
            Point(p.0 - 1),
            Point(p.0 + s as u16),
            Point(p.0 - s as u16),
        ]
    }

    /// Return the four diagonal neighbours of `p`.
    #[inline(always)]
    pub const fn diagonals(self, p: Point) -> [Point; 4] {
        let s = self.stride as u16;
        [
            Point(p.0 + s + 1),
            Point(p.0 + s - 1),
            Point(p.0 - s + 1),
            Point(p.0 - s - 1),
        ]
    }

    /// Return the eight points around `p`: its [`Geometry::neighbours`],
    /// then its [`Geometry::diagonals`].
    #[inline(always)]
    pub const fn around(self, p: Point) -> [Point; 8] {
        let [a, b, c, d] = self.neighbours(p);
        let [e, f, g, h] = self.diagonals(p);
        [a, b, c, d, e, f, g, h]
    }

    /// Iterate over the on-board points, row by row from the bottom.
    pub fn points(self) -> impl Iterator<Item = Point> {
        let n = self.size();
        (0..n * n).map(move |i| self.point(i % n, i / n))
    }

    /// Parse a GTP vertex (`D4`, `pass`), case-insensitive.
    ///
    /// # Errors
    /// [`GeometryError::BadVertex`] for text that is no vertex,
    /// [`GeometryError::OffBoard`] for a vertex outside this board.
    pub fn parse_vertex(self, text: &str) -> Result<Point, GeometryError> {
        let t = text.trim().as_bytes();
        if t.eq_ignore_ascii_case(b"pass") {
            return Ok(Point::PASS);
        }
        let (&letter, digits) = t.split_first().ok_or(GeometryError::BadVertex)?;
        let letter = letter.to_ascii_uppercase();
        let x = COLUMN_LETTERS
            .iter()
            .position(|&c| c == letter)
            .ok_or(GeometryError::BadVertex)?;
        if digits.is_empty() || digits.len() > 2 || !digits.iter().all(u8::is_ascii_digit) {
            return Err(GeometryError::BadVertex);
        }
        let row = digits
            .iter()
            .fold(0usize, |a, &d| a * 10 + (d - b'0') as usize);
        if x >= self.size() || row == 0 || row > self.size() {
            return Err(GeometryError::OffBoard);
        }
        Ok(self.point(x, row - 1))
    }

    /// Write `p` as a GTP vertex (`D4`, `pass`) into `buf` and return it.
    pub fn vertex_str(self, p: Point, buf: &mut [u8; 4]) -> &str {
        if p.is_pass() {
            return "pass";
        }
        let (x, y) = self.coords(p);
        let row = y + 1;
        buf[0] = COLUMN_LETTERS[x];
        let len = if row >= 10 {
            buf[1] = b'0' + (row / 10) as u8;
            buf[2] = b'0' + (row % 10) as u8;
            3
        } else {
            buf[1] = b'0' + row as u8;
            2
        };
        core::str::from_utf8(&buf[..len]).unwrap_or("?")
    }
}
