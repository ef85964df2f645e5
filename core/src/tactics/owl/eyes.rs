//! The owl's static view of a dragon: which stones it is, its eye spaces
//! and what they are worth, and the points that matter.
//!
//! * The **dragon** is the root dragon's chains still on the board and,
//!   again and again, every chain of the defender's colour sharing a
//!   liberty in the area with one of them (so the stones he adds join it;
//!   a friendly group nearby that is not connected does not lend it its
//!   eyes).
//! * Its **domain** (GNU Go's `make_domains`, simplified) is the empty
//!   points of the area it reaches from its liberties through empty
//!   points none of which touches a *lively* attacker stone (one not in
//!   atari), with the attacker stones in atari next to them (dead inside).
//!   The empty points next to the dragon outside the domain are its
//!   *margin*, where the attacker's stones press on it. The empty points
//!   of the area outside the domain next to two of its points or more
//!   are its *rim*, where he presses on its eye spaces (a block there
//!   may keep one).
//! * Each connected part of the domain is an **eye space**, worth a range
//!   of eyes `(min, max)`: what the attacker leaves it if he plays first,
//!   and what the defender makes of it if he does (the classic shapes: a
//!   true, half or false single eye, two, straight and bent three, the
//!   square, the pyramid four, the bulky and the crossed five, the rabbity
//!   six, the rectangular six on the edge when its walls have one outside
//!   liberty or none; anything bigger is two eyes; a part that runs out of the area
//!   is room: up to two eyes, and one the attacker cannot take if it has
//!   four points in the area or more). A space with `min < max` has a
//!   **vital point**, where both sides want to play. A space the attacker
//!   can reach from outside (it touches the margin or a lively attacker
//!   stone) loses one eye from its `min`: moving first, he presses into
//!   it. So does a closed space of two to [`MAX_EYE`] points that holds
//!   attacker stones: taking them costs the defender a move, and his
//!   taking stone then stands in the space (it may split it). And so does
//!   a space of two points or more next to a dragon chain with two
//!   liberties or fewer: its wall may run short of liberties first. A
//!   *corridor*, a space of two points or more all but one of which the
//!   attacker can reach from outside (a strip along the edge under his
//!   wall), keeps no eye sure: its `min` is 0, since he blocks it
//!   anywhere moving first.
//!
//! The dragon **lives** when the spaces' `min` sum to two or more and is
//! **dead** when their `max` stay below two and no attacker chain next to
//! it is in atari; anything between is read on. The view also lists the
//! chains short of liberties on both sides (two), for the owl to ask the
//! capture reader about: next to the dragon, and the attacker's next to
//! its margin (lunches one point away).

use crate::board::Board;
use crate::eye_shape;
use crate::geometry::{Cell, Color, Point};
use crate::tactics::key::PointBits;

/// Most points of an eye space valued by its shape; a bigger one is two
/// eyes.
pub const MAX_EYE: usize = 8;
/// The smallest space whose `min` a wall chain short of liberties lowers.
const THIN_FROM: usize = 2;
/// The most points a space of two or more may have out of the
/// attacker's reach from outside (its core) and still be a *corridor*,
/// which he blocks moving first: no eye is sure there.
const CORRIDOR_CORE: usize = 1;
// The cache key's assumptions name it (`key::OWL_ASSUMPTIONS`:
// "corridor-core=1").
const _: () = assert!(CORRIDOR_CORE == 1);
/// Most eye spaces a view keeps.
pub const MAX_SPACES: usize = 16;
/// Most points listed per view (dragon liberties, vital points).
pub const MAX_LIST: usize = 64;

/// A fixed-capacity list of points.
#[derive(Clone, Copy, Debug)]
pub struct List<const N: usize> {
    points: [Point; N],
    len: usize,
}

impl<const N: usize> List<N> {
    /// Return an empty list.
    pub const fn new() -> Self {
        List {
            points: [Point::PASS; N],
            len: 0,
        }
    }

    /// Append `p` unless the list holds it or is full.
    pub fn push(&mut self, p: Point) {
        if self.len < N && !self.as_slice().contains(&p) {
            self.points[self.len] = p;
            self.len += 1;
        }
    }

    /// Return the points.
    pub fn as_slice(&self) -> &[Point] {
        &self.points[..self.len]
    }
}

impl<const N: usize> Default for List<N> {
    fn default() -> Self {
        Self::new()
    }
}

/// One eye space.
#[derive(Clone, Copy, Debug)]
pub struct Space {
    /// Its points (empty, or attacker stones dead inside).
    pub size: usize,
    /// Eyes if the attacker plays first.
    pub min: u8,
    /// Eyes if the defender plays first.
    pub max: u8,
    /// Where both want to play when `min < max` (else `PASS`).
    pub vital: Point,
}

/// What a position is for the dragon.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Status {
    /// The target stone is captured.
    Captured,
    /// Two eyes whoever plays first.
    Alive,
    /// Not two eyes whoever plays first.
    Dead,
    /// To be read on.
    Unsettled,
}

/// The owl's view of one position.
pub struct View {
    /// The dragon's stones.
    pub dragon: PointBits,
    /// Its eye spaces.
    pub spaces: [Space; MAX_SPACES],
    /// How many of `spaces` are filled.
    pub count: usize,
    /// The empty points of the eye spaces.
    pub inside: List<MAX_LIST>,
    /// The margin: empty points of the area next to the dragon, outside
    /// its domain.
    pub margin: List<MAX_LIST>,
    /// The domain: the points of the eye spaces (empty, and the dead
    /// attacker stones inside).
    pub domain: PointBits,
    /// The liberty of each dragon chain in atari.
    pub ataris: List<16>,
    /// The liberty of each attacker chain in atari next to the dragon.
    pub captures: List<16>,
    /// The attacker's rescues of those chains: the liberty of each
    /// defender chain in atari next to one of them (its capture gives
    /// the attacker's stones room; a stone of the defender's outside the
    /// dragon walls the eye they spoil).
    pub rescues: List<8>,
    /// A stone of each attacker chain with two liberties next to the
    /// dragon (which it may still capture to make room).
    pub short: List<8>,
    /// A stone of each dragon chain with two liberties.
    pub weak: List<8>,
}

impl View {
    /// Return the sums of the spaces' `(min, max)` eyes.
    pub fn eyes(&self) -> (u8, u8) {
        self.spaces[..self.count]
            .iter()
            .fold((0, 0), |(a, b), s| (a + s.min, b + s.max))
    }

    /// Return a stone of each chain of `attacker` with two liberties next
    /// to the margin (a lunch one point away, which may still save a
    /// dragon that is dead as it stands). Worked out on demand: only a
    /// dead-looking dragon asks.
    pub fn lunches(&self, b: &Board, attacker: Color) -> List<8> {
        let mut out = List::new();
        for &m in self.margin.as_slice() {
            for n in b.geometry().neighbours(m) {
                if b.at(n) == Cell::stone(attacker) && !b.in_atari(n) {
                    push_short(b, n, &mut out);
                }
            }
        }
        out
    }

    /// Return whether the attacker chain at `c` stands diagonally next to
    /// an empty point of the domain that only the defender's stones and
    /// the edge surround (an eye point it may make false; those stones
    /// share the point as a liberty, so they are the dragon's).
    pub fn falsifies(&self, b: &Board, c: Point) -> bool {
        let root = b.chain_root(c);
        self.inside.as_slice().iter().any(|&p| {
            b.neighbour_count(p, Cell::Empty) == 0
                && b.neighbour_count(p, b.at(c)) == 0
                && b.geometry()
                    .diagonals(p)
                    .iter()
                    .any(|&d| b.chain_root(d) == root)
        })
    }

    /// Return the rim: the empty points of `area` outside the domain next
    /// to an empty point of it and to two of its points or more (where
    /// the attacker presses into an eye space from outside, and the
    /// defender blocks to keep it), in the order the spaces' empty points
    /// are listed. Worked out on demand: only a node generating its
    /// candidates asks.
    pub fn rim(&self, b: &Board, area: &PointBits) -> List<MAX_LIST> {
        let geo = b.geometry();
        let mut out = List::new();
        for &p in self.inside.as_slice() {
            for n in geo.neighbours(p) {
                if b.at(n) == Cell::Empty
                    && area.contains(n)
                    && !self.domain.contains(n)
                    && geo
                        .neighbours(n)
                        .iter()
                        .filter(|&&m| self.domain.contains(m))
                        .count()
                        >= 2
                {
                    out.push(n);
                }
            }
        }
        out
    }

    /// Return the dragon's status.
    pub fn status(&self) -> Status {
        let (min, max) = self.eyes();
        if min >= 2 {
            Status::Alive
        } else if max < 2 && self.captures.as_slice().is_empty() {
            Status::Dead
        } else {
            Status::Unsettled
        }
    }
}

/// Return the view of the dragon of `defender` made of `core` (the root
/// dragon's stones) and its stones in `area`.
pub fn view(b: &Board, defender: Color, core: &PointBits, area: &PointBits) -> View {
    let geo = b.geometry();
    let mut v = View {
        dragon: PointBits::new(),
        spaces: [Space {
            size: 0,
            min: 0,
            max: 0,
            vital: Point::PASS,
        }; MAX_SPACES],
        count: 0,
        inside: List::new(),
        margin: List::new(),
        domain: PointBits::new(),
        ataris: List::new(),
        captures: List::new(),
        rescues: List::new(),
        short: List::new(),
        weak: List::new(),
    };
    let own = Cell::stone(defender);
    let other = Cell::stone(defender.opponent());
    // The dragon: the root dragon's chains still on the board, and again
    // and again the chains of its colour sharing a liberty in the area
    // with one of them (stones the defender added join so).
    let mut chains = List::<MAX_LIST>::new();
    for p in core.iter() {
        if b.at(p) == own && !v.dragon.contains(p) {
            v.dragon.insert_chain(b, p);
            chains.push(p);
        }
    }
    let mut top = 0;
    while top < chains.len {
        let c = chains.points[top];
        top += 1;
        if b.in_atari(c) {
            v.ataris.push(b.last_liberty(c));
        } else if b.liberty_count_capped::<3>(c) == 2 {
            v.weak.push(c);
        }
        for s in b.chain_stones(c) {
            for l in geo.neighbours(s) {
                if b.at(l) != Cell::Empty || !area.contains(l) {
                    continue;
                }
                for n in geo.neighbours(l) {
                    if b.at(n) == own && !v.dragon.contains(n) {
                        v.dragon.insert_chain(b, n);
                        chains.push(n);
                    }
                }
            }
        }
    }
    // A point of the domain: empty, in the area, touching no lively
    // attacker stone.
    let lively = |n: Point| b.at(n) == other && !b.in_atari(n);
    let open = |p: Point| {
        area.contains(p) && b.at(p) == Cell::Empty && !geo.neighbours(p).iter().any(|&n| lively(n))
    };
    let dragon = v.dragon;
    let mut seen = PointBits::new();
    for s in dragon.iter() {
        for n in geo.neighbours(s) {
            if b.at(n) == other {
                if b.in_atari(n) {
                    v.captures.push(b.last_liberty(n));
                    rescues(b, n, &mut v.rescues);
                } else {
                    push_short(b, n, &mut v.short);
                }
            }
            if b.at(n) != Cell::Empty || seen.contains(n) {
                continue;
            }
            if !open(n) {
                if area.contains(n) {
                    v.margin.push(n);
                }
                continue;
            }
            if v.count < MAX_SPACES {
                let space = flood(b, &dragon, area, other, n, &open, &mut seen, &mut v);
                v.spaces[v.count] = space;
                v.count += 1;
            }
        }
    }
    v.domain = seen;
    v
}

/// Push a stone of the chain at `c` into `out` if it has two liberties
/// and no stone of it is there yet.
fn push_short(b: &Board, c: Point, out: &mut List<8>) {
    let root = b.chain_root(c);
    if b.liberty_count_capped::<3>(c) == 2
        && !out.as_slice().iter().any(|&s| b.chain_root(s) == root)
    {
        out.push(c);
    }
}

/// Push the liberty of each chain in atari next to the chain at `c`
/// (its captures that save it) into `out`.
fn rescues(b: &Board, c: Point, out: &mut List<8>) {
    let geo = b.geometry();
    let mine = b.at(c);
    for s in b.chain_stones(c) {
        for n in geo.neighbours(s) {
            if b.at(n).color().is_some() && b.at(n) != mine && b.in_atari(n) {
                out.push(b.last_liberty(n));
            }
        }
    }
}

/// Flood the eye space at `start` over the points `open` accepts and the
/// dead attacker stones next to them; mark it in `seen`, list its empty
/// points in the view and return it valued.
#[allow(clippy::too_many_arguments)]
fn flood(
    b: &Board,
    dragon: &PointBits,
    area: &PointBits,
    other: Cell,
    start: Point,
    open: &dyn Fn(Point) -> bool,
    seen: &mut PointBits,
    v: &mut View,
) -> Space {
    let geo = b.geometry();
    let mut pts = List::<MAX_LIST>::new();
    pts.push(start);
    seen.insert(start);
    let mut big = false;
    // Whether the attacker can play next to the space from outside it.
    let mut pressed = false;
    // How many of its points he cannot play next to from outside.
    let mut core = 0;
    // Whether a dragon chain next to it is short of liberties.
    let mut thin = false;
    let mut top = 0;
    while top < pts.len {
        let p = pts.points[top];
        top += 1;
        let mut edge = false;
        for n in geo.neighbours(p) {
            if dragon.contains(n) {
                thin |= b.liberty_count_capped::<3>(n) <= 2;
                continue;
            }
            if b.at(n) == Cell::Off || seen.contains(n) {
                continue;
            }
            let dead = b.at(n) == other && b.in_atari(n);
            let outside = b.at(n) == Cell::Empty && !open(n);
            edge |= outside || b.at(n) == other && !dead;
            if !(open(n) || dead && area.contains(n)) {
                // The space runs on where the owl does not look: room.
                big |= !area.contains(n) && b.at(n) == Cell::Empty;
                continue;
            }
            seen.insert(n);
            if pts.len == MAX_LIST {
                big = true;
                continue;
            }
            pts.push(n);
        }
        pressed |= edge;
        core += usize::from(!edge);
    }
    let points = pts.as_slice();
    for &p in points {
        if b.at(p) == Cell::Empty {
            v.inside.push(p);
        }
    }
    // A space that runs out of the area is room, not yet eyes: the more
    // of it in the area, the more it may give.
    let (mut min, max, vital) = match (big, points.len()) {
        (_, n) if n > MAX_EYE => (2, 2, Point::PASS),
        (true, 0..=3) => (0, 2, Point::PASS),
        (true, _) => (1, 2, Point::PASS),
        (false, _) => value(b, dragon, points),
    };
    if pressed {
        // The attacker moving first plays into it from outside.
        min = min.saturating_sub(1);
    }
    if points.len() >= 2 && core <= CORRIDOR_CORE {
        // A corridor: he may press on nearly every point of it, and
        // blocks it moving first.
        min = 0;
    }
    if thin && points.len() >= THIN_FROM {
        // Its wall may be short of liberties before it has two eyes.
        min = min.saturating_sub(1);
    }
    let stones = points.iter().any(|&p| b.at(p) != Cell::Empty);
    if stones && points.len() > 1 && points.len() <= MAX_EYE {
        // Taking the stones inside costs a move, and the taking stone
        // stands in the space: not sure until read.
        min = min.saturating_sub(1);
    }
    Space {
        size: points.len(),
        min,
        max,
        vital,
    }
}

/// Return `(min, max, vital point)` of a closed eye space: one point is
/// an eye of its own kind, two are one eye, the square four is one, a
/// killing shape ([`eye_shape::vital_point`]), or the rectangular six on
/// the edge whose walls have one outside liberty or none, is one or two as
/// its vital point goes, anything else is two.
fn value(b: &Board, dragon: &PointBits, points: &[Point]) -> (u8, u8, Point) {
    let geo = b.geometry();
    let six = eye_shape::rectangular_six(geo, points);
    match points.len() {
        1 => single(b, dragon, points[0]),
        2 => (1, 1, Point::PASS),
        _ if eye_shape::is_square_four(geo, points) => (1, 1, Point::PASS),
        // Short of outside liberties, the rectangular six has a vital
        // point.
        6 if six.is_some_and(|p| b.at(p) == Cell::Empty)
            && outside_liberties(b, dragon, points) <= 1 =>
        {
            (1, 2, six.unwrap_or(Point::PASS))
        }
        _ => match eye_shape::vital_point(geo, points) {
            // The attacker's stone already there spoils the space.
            Some(p) if b.at(p) == Cell::Empty => (1, 2, p),
            Some(_) => (1, 1, Point::PASS),
            None => (2, 2, Point::PASS),
        },
    }
}

/// Return how many liberties the dragon chains walling `points` have
/// outside them (counted up to two).
fn outside_liberties(b: &Board, dragon: &PointBits, points: &[Point]) -> usize {
    let geo = b.geometry();
    let mut walls = PointBits::new();
    let mut outside = List::<2>::new();
    for &p in points {
        for n in geo.neighbours(p) {
            if !dragon.contains(n) || walls.contains(n) {
                continue;
            }
            walls.insert_chain(b, n);
            for l in b.liberties::<8>(n).as_slice() {
                if !points.contains(l) {
                    outside.push(*l);
                }
            }
        }
    }
    outside.as_slice().len()
}

/// Return `(min, max, vital)` of a one-point space: a true eye, a half eye
/// (one diagonal decides) or a false eye, by its diagonals: on the edge
/// none may be the attacker's, in the middle one. An empty diagonal
/// decides nothing when the dragon walls it on every side: it is an eye
/// too, and the attacker's stone there is taken at once.
fn single(b: &Board, dragon: &PointBits, p: Point) -> (u8, u8, Point) {
    let geo = b.geometry();
    if b.at(p) != Cell::Empty {
        // An attacker stone in atari inside: taken, an eye; the attacker
        // may connect it out first only if it is not enclosed, which it is.
        return (0, 1, p);
    }
    let (mut off, mut bad, mut open) = (0, 0, Point::PASS);
    for d in geo.diagonals(p) {
        match b.at(d) {
            Cell::Off => off += 1,
            Cell::Empty if walled(b, dragon, d) => {}
            Cell::Empty => open = d,
            _ if dragon.contains(d) => {}
            _ => bad += 1,
        }
    }
    let allowed = if off > 0 { 0 } else { 1 };
    if bad > allowed {
        (0, 0, Point::PASS)
    } else if bad == allowed && !open.is_pass() {
        (0, 1, open)
    } else {
        (1, 1, Point::PASS)
    }
}

/// Query whether every neighbour of the empty point `p` on the board is a
/// stone of `dragon`.
fn walled(b: &Board, dragon: &PointBits, p: Point) -> bool {
    b.geometry()
        .neighbours(p)
        .iter()
        .all(|&n| b.at(n) == Cell::Off || dragon.contains(n))
}
