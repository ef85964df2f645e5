//! Pattern search: which positions of which games hold a local shape.
//!
//! A pattern is an ASCII grid: `X` black, `O` white, `.` empty, `*` any,
//! `x` black or empty, `o` white or empty. Its anchor says where it may
//! sit: `corner` (its top-left cell on the board's top-left point), `edge`
//! (its top row on the top edge) or `anywhere`; the symmetries then carry
//! it to every corner or edge. Each symmetry (and colour swap, if asked)
//! gives a *variant*: the transformed grid and a bit set of the top-left
//! offsets it may take, row by row. Identical variants are merged.
//!
//! Per game, two filters from the seed run before any replay:
//! 1. End-position filter: for every offset row, the offsets whose
//!    required black stones all lie on points that ever held black (and
//!    likewise white) are found with a shift and an AND per stone on 19-bit
//!    rows; most games drop out here.
//! 2. Move ranges: the survivors' change streams give every point's time
//!    line (when it gained and lost a stone, [`Timeline`]). For a candidate
//!    placement each cell's time line narrows a window of moves in which a
//!    match can lie: stone cells first (the latest first arrival of a
//!    required stone bounds the window from below, as in the seed's order),
//!    then the other cells, then the stones again; most candidates end
//!    there. The survivors' move ranges are intersected exactly inside the
//!    window. No board is replayed.
//!
//! A corner pattern whose top-left 7x7 has no wildcard first looks up the
//! games that hold its corner at all in the corner index
//! ([`crate::corner`]), as Kombilo hashes corners; only those are scanned.
//!
//! Games are searched in parallel (rayon) in chunks.

use kosumi_core::geometry::Color;
use rayon::prelude::*;

use crate::filter;
use crate::output::Continuation;
use crate::record::{self, Event, Winner};
use crate::store::Db;
use crate::symmetry::{apply, N, POINTS, SYMS};

/// Cell requirement bits: black, white, empty.
pub const B: u8 = 1;
/// White.
pub const W: u8 = 2;
/// Empty.
pub const E: u8 = 4;

/// Where a pattern may sit.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Anchor {
    /// Its top-left cell on a corner point.
    Corner,
    /// Its top row along an edge.
    Edge,
    /// Anywhere on the board.
    Anywhere,
}

/// A parsed pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    /// Width in points.
    pub w: usize,
    /// Height in points.
    pub h: usize,
    /// Requirement bits per cell, row by row from the top.
    pub cells: Vec<u8>,
}

impl Pattern {
    /// Parse a pattern: one row a line; blank lines, spaces and lines
    /// starting with `#` are ignored.
    ///
    /// # Errors
    /// A message for an unknown character, ragged rows or a bad size.
    pub fn parse(text: &str) -> Result<Pattern, String> {
        let mut rows: Vec<Vec<u8>> = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let row = line
                .chars()
                .filter(|c| !c.is_whitespace())
                .map(|c| match c {
                    'X' => Ok(B),
                    'O' => Ok(W),
                    '.' => Ok(E),
                    '*' => Ok(B | W | E),
                    'x' => Ok(B | E),
                    'o' => Ok(W | E),
                    c => Err(format!(
                        "pattern line {}: unknown character {c:?} (use X O . * x o)",
                        i + 1
                    )),
                })
                .collect::<Result<Vec<u8>, String>>()?;
            rows.push(row);
        }
        let h = rows.len();
        let w = rows.first().map_or(0, Vec::len);
        if h == 0 || w == 0 {
            return Err("empty pattern".into());
        }
        if rows.iter().any(|r| r.len() != w) {
            return Err("pattern rows differ in length".into());
        }
        if w > N || h > N {
            return Err(format!("pattern {w}x{h} is larger than the board"));
        }
        let cells: Vec<u8> = rows.concat();
        if cells.iter().all(|&c| c == B | W | E) {
            return Err("pattern has no constrained point".into());
        }
        Ok(Pattern { w, h, cells })
    }

    /// Return the pattern as text.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        for row in self.cells.chunks(self.w) {
            s.extend(row.iter().map(|&c| cell_char(c)));
            s.push('\n');
        }
        s
    }
}

/// Return the character of a requirement.
pub fn cell_char(c: u8) -> char {
    match c {
        B => 'X',
        W => 'O',
        E => '.',
        x if x == B | E => 'x',
        x if x == W | E => 'o',
        _ => '*',
    }
}

/// Exchange the black and white bits of a requirement.
fn swap_bits(c: u8) -> u8 {
    (c & E) | ((c & B) << 1) | ((c & W) >> 1)
}

/// One orientation of a pattern on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variant {
    /// Width on the board.
    pub w: usize,
    /// Height on the board.
    pub h: usize,
    /// Requirements, row by row.
    pub req: Vec<u8>,
    /// For each cell, its `(x, y)` in the pattern as given.
    pub origin: Vec<(u8, u8)>,
    /// Whether the colours are exchanged.
    pub swapped: bool,
    /// `offsets[y]`: bit `x` set when the top-left may sit at `(x, y)`.
    pub offsets: [u32; N],
    /// Cells that need a stone: `(dx, dy, colour index)`.
    stones: Vec<(u8, u8, u8)>,
}

/// Return the variants of `pat` for the symmetries `syms` (with colour
/// swap if `swap`).
pub fn variants(pat: &Pattern, anchor: Anchor, syms: &[usize], swap: bool) -> Vec<Variant> {
    let (w, h) = (pat.w, pat.h);
    let base: Vec<(usize, usize)> = match anchor {
        Anchor::Corner => vec![(0, 0)],
        Anchor::Edge => (0..=N - w).map(|x| (x, 0)).collect(),
        Anchor::Anywhere => (0..=N - h)
            .flat_map(|y| (0..=N - w).map(move |x| (x, y)))
            .collect(),
    };
    variants_at(pat, &base, syms, swap)
}

/// A rectangle of the board, `(x0, y0)` to `(x1, y1)` inclusive, `y` from
/// the top: where a pattern's top-left cell may sit (Kombilo's anchor).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Region {
    /// Left column, from 0.
    pub x0: usize,
    /// Top row, from 0 at the top.
    pub y0: usize,
    /// Right column.
    pub x1: usize,
    /// Bottom row.
    pub y1: usize,
}

impl Region {
    /// Parse `A19-D16` (two GTP vertices, corners of the rectangle in any
    /// order; `I` is skipped as in GTP).
    ///
    /// # Errors
    /// A message for a text that is not two vertices.
    pub fn parse(text: &str) -> Result<Region, String> {
        let bad = || format!("{text}: a region is two corners, e.g. A19-G13");
        let (a, b) = text.split_once(['-', ':']).ok_or_else(bad)?;
        let vertex = |v: &str| -> Option<(usize, usize)> {
            let v = v.trim().to_ascii_uppercase();
            let mut chars = v.chars();
            let col = chars.next()?;
            let x = kosumi_core::geometry::COLUMN_LETTERS[..N]
                .iter()
                .position(|&c| c as char == col)?;
            let row: usize = chars.as_str().parse().ok()?;
            (1..=N).contains(&row).then_some((x, N - row))
        };
        let ((ax, ay), (bx, by)) = (vertex(a).ok_or_else(bad)?, vertex(b).ok_or_else(bad)?);
        Ok(Region {
            x0: ax.min(bx),
            y0: ay.min(by),
            x1: ax.max(bx),
            y1: ay.max(by),
        })
    }

    /// Return the points of the region where a `w` x `h` pattern fits.
    pub fn anchors(&self, w: usize, h: usize) -> Vec<(usize, usize)> {
        (self.y0..=self.y1.min(N - h))
            .flat_map(|y| (self.x0..=self.x1.min(N - w)).map(move |x| (x, y)))
            .collect()
    }
}

/// Return the variants of `pat` with its top-left cell at each of `base`,
/// under `syms`, and colour-exchanged too if `swap`.
pub fn variants_at(
    pat: &Pattern,
    base: &[(usize, usize)],
    syms: &[usize],
    swap: bool,
) -> Vec<Variant> {
    let (w, h) = (pat.w, pat.h);
    let mut out: Vec<Variant> = Vec::new();
    for &t in syms {
        // The grid at offset (0, 0) under t, and its bounding box.
        let corners = [apply(t, 0, 0), apply(t, w - 1, h - 1)];
        let (mx, my) = (
            corners[0].0.min(corners[1].0),
            corners[0].1.min(corners[1].1),
        );
        let (vw, vh) = if t & 4 != 0 { (h, w) } else { (w, h) };
        let mut req = vec![0u8; vw * vh];
        let mut origin = vec![(0u8, 0u8); vw * vh];
        for py in 0..h {
            for px in 0..w {
                let (x, y) = apply(t, px, py);
                let i = (y - my) * vw + (x - mx);
                req[i] = pat.cells[py * w + px];
                origin[i] = (px as u8, py as u8);
            }
        }
        let mut offsets = [0u32; N];
        for &(ox, oy) in base {
            let a = apply(t, ox, oy);
            let b = apply(t, ox + w - 1, oy + h - 1);
            offsets[a.1.min(b.1)] |= 1 << a.0.min(b.0);
        }
        for swapped in [false, true] {
            if swapped && !swap {
                continue;
            }
            let req: Vec<u8> = if swapped {
                req.iter().map(|&c| swap_bits(c)).collect()
            } else {
                req.clone()
            };
            let mut stones = Vec::new();
            for (i, &c) in req.iter().enumerate() {
                if c == B || c == W {
                    stones.push(((i % vw) as u8, (i / vw) as u8, c >> 1));
                }
            }
            let v = Variant {
                w: vw,
                h: vh,
                req,
                origin: origin.clone(),
                swapped,
                offsets,
                stones,
            };
            if !out
                .iter()
                .any(|o| o.w == v.w && o.req == v.req && o.offsets == v.offsets)
            {
                out.push(v);
            }
        }
    }
    out
}

/// A point's state over a game: `(move, state)` changes, in order.
#[derive(Default)]
pub struct Timeline {
    start: Vec<u32>,
    changes: Vec<(u16, u8)>,
    /// Moves of the game: `moves[i]` is move `i + 1`.
    pub moves: Vec<(Color, Option<u16>)>,
    /// Number of moves.
    pub n: u16,
    events: Vec<Event>,
    count: Vec<u32>,
}

impl Timeline {
    /// Fill the time lines of a stream.
    ///
    /// # Errors
    /// [`record::Malformed`] for a malformed stream.
    pub fn load(&mut self, stream: &[u8]) -> Result<(), record::Malformed> {
        record::decode(stream, &mut self.events)?;
        record::moves_of(&self.events, &mut self.moves);
        self.n = self.moves.len() as u16;
        self.count.clear();
        self.count.resize(POINTS + 1, 0);
        let point = |e: &Event| match *e {
            Event::Setup(p, _) | Event::Capture(p) | Event::Move(_, _, Some(p)) => Some(p),
            Event::Move(..) => None,
        };
        for e in &self.events {
            if let Some(p) = point(e) {
                self.count[p as usize + 1] += 1;
            }
        }
        for i in 0..POINTS {
            self.count[i + 1] += self.count[i];
        }
        self.start.clear();
        self.start.extend_from_slice(&self.count);
        self.changes.clear();
        self.changes.resize(self.count[POINTS] as usize, (0, 0));
        let mut t = 0u16;
        for e in &self.events {
            let (p, change) = match *e {
                Event::Setup(p, c) => (p, (0, 1 << c.idx())),
                Event::Move(n, c, Some(p)) => {
                    t = n;
                    (p, (n, 1 << c.idx()))
                }
                Event::Move(n, _, None) => {
                    t = n;
                    continue;
                }
                Event::Capture(p) => (p, (t, E)),
            };
            let slot = &mut self.count[p as usize];
            self.changes[*slot as usize] = change;
            *slot += 1;
        }
        Ok(())
    }

    /// Return the changes of point `p`.
    #[inline]
    pub fn of(&self, p: usize) -> &[(u16, u8)] {
        &self.changes[self.start[p] as usize..self.start[p + 1] as usize]
    }
}

/// Return the first and the last position in `lo..=hi` at which a point
/// with `changes` meets `req`, or `None` if it never does there.
#[inline]
fn narrow(changes: &[(u16, u8)], n: u16, req: u8, lo: u16, hi: u16) -> Option<(u16, u16)> {
    let (mut first, mut last) = (None, 0u16);
    let (mut state, mut from) = (E, 0u16);
    let mut seg = |a: u16, b: u16, state: u8| {
        let (a, b) = (a.max(lo), b.min(hi));
        if a <= b && req & state != 0 {
            first.get_or_insert(a);
            last = b;
        }
    };
    for &(t, st) in changes {
        if t > from {
            seg(from, t - 1, state);
        }
        if t > hi {
            return first.map(|f| (f, last));
        }
        from = t;
        state = st;
    }
    seg(from, n, state);
    first.map(|f| (f, last))
}

/// Append to `out` the ranges `[a, b]` of positions `0..=n` in which a point
/// with `changes` meets `req`.
fn ranges(changes: &[(u16, u8)], n: u16, req: u8, out: &mut Vec<(u16, u16)>) {
    out.clear();
    let mut state = E;
    let mut from = 0u16;
    for &(t, s) in changes {
        if t > from && req & state != 0 {
            push_range(out, from, t - 1);
        }
        if t >= from {
            from = t;
        }
        state = s;
    }
    if req & state != 0 && from <= n {
        push_range(out, from, n);
    }
}

fn push_range(out: &mut Vec<(u16, u16)>, a: u16, b: u16) {
    match out.last_mut() {
        Some(last) if last.1 + 1 >= a => last.1 = last.1.max(b),
        _ => out.push((a, b)),
    }
}

/// Keep in `cur` only what is also in `other` (both sorted, disjoint).
fn intersect(cur: &mut Vec<(u16, u16)>, other: &[(u16, u16)], tmp: &mut Vec<(u16, u16)>) {
    tmp.clear();
    let (mut i, mut j) = (0, 0);
    while i < cur.len() && j < other.len() {
        let a = cur[i].0.max(other[j].0);
        let b = cur[i].1.min(other[j].1);
        if a <= b {
            tmp.push((a, b));
        }
        if cur[i].1 < other[j].1 {
            i += 1;
        } else {
            j += 1;
        }
    }
    std::mem::swap(cur, tmp);
}

/// One continuation: the first move after a match inside the pattern's area.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PatternNext {
    /// The point in pattern coordinates.
    pub at: (u8, u8),
    /// The colour as seen in the pattern (exchanged for swapped matches).
    pub colour: Color,
    /// The game's winner as seen in the pattern.
    pub winner: Winner,
    /// Whether moves elsewhere came first (the move after the match was
    /// outside the area, or a pass).
    pub tenuki: bool,
}

/// Matches of a pattern in one game.
#[derive(Clone, Debug, Default)]
pub struct GameMatch {
    /// Game id.
    pub game: usize,
    /// Ranges of matching positions (after move `a` ..= after move `b`).
    pub ranges: Vec<(u16, u16)>,
    /// A continuation for each run of matches that has one.
    pub next: Vec<PatternNext>,
}

/// Per-thread working storage.
#[derive(Default)]
struct Scratch {
    tl: Timeline,
    cur: Vec<(u16, u16)>,
    cell: Vec<(u16, u16)>,
    tmp: Vec<(u16, u16)>,
    found: Vec<(u16, u16)>,
}

/// Search `db` for the variants; return the games that hold them, in id order.
pub fn search(db: &Db, vars: &[Variant]) -> Vec<GameMatch> {
    search_in(db, vars, None)
}

/// Search `db` for `pat` as `vars` (made from it) place it, only in the
/// games `keep` marks (all without it): a corner pattern the corner index
/// can answer ([`crate::corner::candidates`]) scans only the games listed
/// there, any other scans them all. Return the games that hold it.
pub fn find(db: &Db, pat: &Pattern, vars: &[Variant], keep: Option<&[bool]>) -> Vec<GameMatch> {
    match crate::corner::candidates(db, pat, vars) {
        Some(mut listed) => {
            if let Some(keep) = keep {
                listed.retain(|&g| keep.get(g).copied().unwrap_or(false));
            }
            listed
                .par_iter()
                .with_min_len(64)
                .map_init(Scratch::default, |s, &g| search_game(db, vars, g, s))
                .flatten()
                .collect()
        }
        None => search_in(db, vars, keep),
    }
}

/// Search as [`search`] does, only the games `keep` marks (all without it).
pub fn search_in(db: &Db, vars: &[Variant], keep: Option<&[bool]>) -> Vec<GameMatch> {
    (0..db.games())
        .into_par_iter()
        .with_min_len(512)
        .filter(|&g| keep.is_none_or(|k| k.get(g).copied().unwrap_or(false)))
        .map_init(Scratch::default, |s, g| search_game(db, vars, g, s))
        .flatten()
        .collect()
}

/// Return the 19-bit rows of a 361-bit mask, padded with empty rows so a
/// pattern row below the board reads zero.
fn rows(words: &[u64]) -> [u32; 2 * N] {
    let mut r = [0u32; 2 * N];
    for (y, row) in r.iter_mut().take(N).enumerate() {
        let bit = y * N;
        let (w, s) = (bit / 64, bit % 64);
        let mut v = words[w] >> s;
        if s + N > 64 && w + 1 < words.len() {
            v |= words[w + 1] << (64 - s);
        }
        *row = (v & ((1 << N) - 1)) as u32;
    }
    r
}

fn search_game(db: &Db, vars: &[Variant], g: usize, s: &mut Scratch) -> Option<GameMatch> {
    let masks = db.masks(g);
    let ever = [rows(&masks[..6]), rows(&masks[6..])];
    let mut loaded = false;
    let mut result = GameMatch {
        game: g,
        ..GameMatch::default()
    };
    s.found.clear();
    for v in vars {
        // The end-position filter for all offset rows at once: one shift
        // and AND per stone cell and row, no branch inside (vectorised).
        let mut acc = v.offsets;
        for &(dx, dy, c) in &v.stones {
            let src = &ever[c as usize][dy as usize..dy as usize + N];
            let mut any = 0;
            for (a, &e) in acc.iter_mut().zip(src) {
                *a &= e >> dx;
                any |= *a;
            }
            if any == 0 {
                break;
            }
        }
        for (oy, &row) in acc.iter().enumerate() {
            let mut bits = row;
            while bits != 0 {
                let ox = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if !loaded {
                    s.tl.load(db.stream(g)).ok()?;
                    loaded = true;
                }
                match_placement(db, v, ox, oy, g, s, &mut result);
            }
        }
    }
    if s.found.is_empty() {
        return None;
    }
    s.found.sort_unstable();
    for &(a, b) in &s.found {
        push_range(&mut result.ranges, a, b);
    }
    Some(result)
}

fn match_placement(
    db: &Db,
    v: &Variant,
    ox: usize,
    oy: usize,
    g: usize,
    s: &mut Scratch,
    result: &mut GameMatch,
) {
    let n = s.tl.n;
    let point = |i: usize| (oy + i / v.w) * N + ox + i % v.w;
    // The seed's move ranges, cheaply first: every constrained cell narrows
    // the window [lo, hi] in which a match can lie, stone cells (the most
    // selective) first; most candidates end here without a list.
    let (mut lo, mut hi) = (0u16, n);
    for pass in 0..2 {
        for &(dx, dy, c) in &v.stones {
            let p = (oy + dy as usize) * N + ox + dx as usize;
            match narrow(s.tl.of(p), n, 1 << c, lo, hi) {
                Some(w) => (lo, hi) = w,
                None => return,
            }
        }
        if pass == 1 {
            break;
        }
        for (i, &req) in v.req.iter().enumerate() {
            if req == B || req == W || req == B | W | E {
                continue;
            }
            match narrow(s.tl.of(point(i)), n, req, lo, hi) {
                Some(w) => (lo, hi) = w,
                None => return,
            }
        }
    }
    // Then exactly: intersect every cell's ranges inside the window.
    s.cur.clear();
    s.cur.push((lo, hi));
    for (i, &req) in v.req.iter().enumerate() {
        if req == B | W | E {
            continue;
        }
        ranges(s.tl.of(point(i)), n, req, &mut s.cell);
        intersect(&mut s.cur, &s.cell, &mut s.tmp);
        if s.cur.is_empty() {
            return;
        }
    }
    let winner = db.winner(g);
    // A variation's positions before it branched off are its parent's.
    let first = db.first(g);
    for &(a, b) in &s.cur {
        if b < first {
            continue;
        }
        let a = a.max(first);
        s.found.push((a, b));
        // The first move after position `a` inside the placement's area.
        let inside = s.tl.moves[a as usize..]
            .iter()
            .enumerate()
            .find_map(|(k, &(c, p))| {
                let p = p? as usize;
                let (x, y) = (p % N, p / N);
                (x >= ox && x < ox + v.w && y >= oy && y < oy + v.h)
                    .then(|| (c, v.origin[(y - oy) * v.w + (x - ox)], k > 0))
            });
        if let Some((c, at, tenuki)) = inside {
            let (colour, winner) = if v.swapped {
                (c.opponent(), winner.swapped())
            } else {
                (c, winner)
            };
            result.next.push(PatternNext {
                at,
                colour,
                winner,
                tenuki,
            });
        }
    }
}

/// Return the continuations of the matches (the game's year read once per
/// game).
pub fn continuations(db: &Db, found: &[GameMatch]) -> Vec<Continuation> {
    found
        .iter()
        .flat_map(|m| {
            let year = if m.next.is_empty() {
                None
            } else {
                filter::year(&db.info(m.game).date)
            };
            m.next.iter().map(move |n| Continuation {
                at: Some(n.at),
                colour: n.colour,
                winner: n.winner,
                year,
                tenuki: n.tenuki,
            })
        })
        .collect()
}

/// Return the symmetries to use: all eight, or the identity only.
pub fn symmetry_set(all: bool) -> Vec<usize> {
    if all {
        (0..SYMS).collect()
    } else {
        vec![0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_refuses() {
        let p = Pattern::parse("# corner\nX O .\n* x o\n").unwrap();
        assert_eq!((p.w, p.h), (3, 2));
        assert_eq!(p.to_text(), "XO.\n*xo\n");
        assert!(Pattern::parse("XQ").is_err());
        assert!(Pattern::parse("XX\nX").is_err());
        assert!(Pattern::parse("**\n**").is_err());
    }

    #[test]
    fn corner_variants_reach_all_four_corners() {
        let p = Pattern::parse("X..\n...\n").unwrap();
        let vars = variants(&p, Anchor::Corner, &symmetry_set(true), false);
        assert_eq!(vars.len(), 8);
        let mut corners = Vec::new();
        for v in &vars {
            for (y, &row) in v.offsets.iter().enumerate() {
                if row != 0 {
                    let x = row.trailing_zeros() as usize;
                    let i = v.req.iter().position(|&c| c == B).unwrap();
                    corners.push((x + i % v.w, y + i / v.w));
                }
            }
        }
        corners.sort_unstable();
        corners.dedup();
        assert_eq!(corners, vec![(0, 0), (0, 18), (18, 0), (18, 18)]);
    }

    #[test]
    fn ranges_follow_the_time_line() {
        let mut out = Vec::new();
        // Black at move 3, captured at move 7, white at move 9; game of 12 moves.
        let changes = [(3, B), (7, E), (9, W)];
        ranges(&changes, 12, B, &mut out);
        assert_eq!(out, vec![(3, 6)]);
        ranges(&changes, 12, E, &mut out);
        assert_eq!(out, vec![(0, 2), (7, 8)]);
        ranges(&changes, 12, W | E, &mut out);
        assert_eq!(out, vec![(0, 2), (7, 12)]);
        ranges(&[(0, W)], 4, W, &mut out);
        assert_eq!(out, vec![(0, 4)]);
    }
}
