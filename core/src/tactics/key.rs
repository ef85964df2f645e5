//! Cache keys: the problem hash (SHA-1 of a class code and a
//! serialisation, the seed's exact scheme; the serialisation ends with the
//! digests of the readers' assumptions, hashed at compile time by
//! [`super::digest`]), the set of points a search read, and the hash of a
//! bounding box of the board.

use crate::board::Board;
use crate::geometry::{Cell, Color, Geometry, Point, MAX_POINTS};
use crate::zobrist;

use super::digest::sha1_prefix;
use super::{Goal, LinkGoal};

/// Class code of "capture this chain" results. Random, fixed for all time.
pub const CLASS_CAPTURE: u64 = 0x8d2f_61c4_3a9e_57b1;
/// Class code of "save this chain" results.
pub const CLASS_SAVE: u64 = 0x5e07_b3d9_c16a_24f8;
/// Class code of the hint entries (the box the last search of a problem read).
pub const CLASS_HINT: u64 = 0xf1a4_9c27_6be3_0d55;
/// Class code of "connect these two chains" results.
pub const CLASS_CONNECT: u64 = 0x3b96_e2a0_d57c_184f;
/// Class code of "cut these two chains apart" results.
pub const CLASS_DISCONNECT: u64 = 0xa7c1_5f38_09e4_6bd2;

/// Class code of "kill this dragon" results (the owl).
pub const CLASS_OWL_KILL: u64 = 0x6c3e_91d7_2b58_af04;
/// Class code of "make this dragon live" results.
pub const CLASS_OWL_LIVE: u64 = 0xd419_0e7b_c5a2_3f86;

/// The reader's assumptions, hashed into every problem: a change of the
/// search's rules must change every key.
const ASSUMPTIONS: &[u8] = b"kosumi-reader-v8;safe-libs=3;three-lib-depth=7;defence-net-depth=4;\
      net-depth=4;ko-threats=1;attack3-nets;defend3-depth=3;defend3-keep=3;four-lib-depth=3;\
      root-defence-tries-attack-key;attack-rescue-by-capture;ko-retake-tried;\
      ko-cap-at-prey-only;ko-owner;defence-ko-counter-atari;defend3-after-threat;\
      defence-semeai-3libs;ko-free-capture;attack3-ko-capture;\
      no-defence-loses;attack-reinforce;defence-partner-rescue;partner1-depth=3;tenuki-depth=4;\
      atari-counter-atari;partner-reinforce;defend3-partner;net-breakers;partner-ataris;\
      back-captures;crawl-depth=5;defend3-double-approach;defence-eye-shapes;\
      defend3-atari-extensions;defend3-semeai-3libs-past-2;defend3-special-rescues;\
      defend4-net-breakers;reinforce2-depth=2;wide-partner-depth=1;\
      race-neighbours;defence-backfills;secondary-rescues;outside-liberties;defend3-backfills;snapback-fails;throw-in-depth=1;snapback-throw-in-depth=4;snapback-back-capture;backfill-depth=1;special-rescue-self-atari";

/// The connection search's assumptions, hashed (after the capture reader's,
/// which it calls) into every connection problem.
const LINK_ASSUMPTIONS: &[u8] = b"kosumi-connect-v1;joined-is-connected;captured-is-cut;\
      max-distance=5;min-distance=3;reach-shrinks-every=4;slack-depth=2;path-cands=8/5;\
      weak-cutter-cost=libs+standing;sub-budget=100000/60;two-common-liberties-connect;\
      ko-threats=1;ko-owner;save-ends=2libs;atari-cutters;root-longer-paths;lower-bound-answer;\
      cutters-on-path-by-cost;root-moves-read-as-roots;root-ataris-on-the-chains;\
      neighbour-cutters-libs=3;cutter-saves-neighbours;\
      root-cheapest-outright-win;\
      root-approaches-neighbour-cutters";

/// The owl's assumptions, hashed (after the capture reader's, which it
/// calls) into every life-and-death problem; the owl checks at compile
/// time that its constants are the ones written here.
pub const OWL_ASSUMPTIONS: &[u8] =
    b"kosumi-owl-v4;attacker-rescues;lunches-next-to-margin;lost-side-reads-3-plies-from-100000;ko-levels;threat-once-costs-1;node-table=4096;widths=10x4,8,6,5,4,3/10,10,8,6,5,4,3,3,2;dead-root-ko;lunch-one-eye-short;lunch-that-falsifies-an-eye;rectangular-six-short-of-libs;\
      shaky-eye-walls;stones-inside-unsure;thin-walls-from-2;budget=moves+10/read;kill-ends-deepening;dragon-by-shared-liberties-at-every-node;order-ties-by-room;gen=16;rim-last;order-by-eyes=2;dragon=shared-liberties;area=5;max-eye=8;\
      cands=10;capture-reads=300/20;margin-presses;room-out-of-area;short-chains-read;\
      root-proven-defence;dead-root-move;alive-root-passes-first;horizon-lives;deepening=2;owl-depth=20;dead-near-root-checked-by-a-pass;walled-diagonal-is-an-eye;corridor-core=1";

/// The digests of the assumptions (the first 8 bytes of their SHA-1),
/// computed by the compiler: a problem hash reads them after the
/// problem's own fields, so a change of any assumption changes every key.
const READER_DIGEST: [u8; 8] = sha1_prefix(ASSUMPTIONS);
const LINK_DIGEST: [u8; 8] = sha1_prefix(LINK_ASSUMPTIONS);
const OWL_DIGEST: [u8; 8] = sha1_prefix(OWL_ASSUMPTIONS);

/// Bytes of the problem's own fields (goal, size, chains), serialised
/// before the assumptions' digests: with the class code, one SHA-1 block.
const FIELD_BYTES: usize = 32;

/// Return the 64-bit problem hash: SHA-1 over `class` (8 bytes LE) and
/// `parts` in order, the first 8 bytes of the digest read little-endian.
pub fn class_hash(class: u64, parts: &[&[u8]]) -> u64 {
    let mut sha = sha1_smol::Sha1::new();
    sha.update(&class.to_le_bytes());
    for part in parts {
        sha.update(part);
    }
    let d = sha.digest().bytes();
    u64::from_le_bytes([d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7]])
}

/// Return the hash of a tactical problem: its class (goal, or the hint
/// class), board size, the chain's canonical id (its lowest point) and the
/// reader's assumptions.
pub fn problem_hash(class: u64, goal: Goal, size: usize, chain_id: Point) -> u64 {
    let goal: &[u8] = match goal {
        Goal::Capture => b"capture;",
        Goal::Save => b"save;",
    };
    let id = chain_id.0.to_le_bytes();
    let (buf, n) = fields(&[goal, b"size=", &[size as u8], b";chain=", &id, b";"]);
    class_hash(class, &[&buf[..n], &READER_DIGEST])
}

/// Return a problem's own fields laid end to end, and their length.
fn fields(parts: &[&[u8]]) -> ([u8; FIELD_BYTES], usize) {
    let mut buf = [0u8; FIELD_BYTES];
    let mut n = 0;
    for part in parts {
        buf[n..n + part.len()].copy_from_slice(part);
        n += part.len();
    }
    (buf, n)
}

/// Return the hash of a connection problem: its class (connect,
/// disconnect, or the hint class), board size, the two chains' canonical
/// ids (each chain's lowest point, the smaller id first, so the problem of
/// `a`, `b` is that of `b`, `a`) and the assumptions of the connection
/// search and of the capture reader it calls.
pub fn link_problem_hash(class: u64, goal: LinkGoal, size: usize, a_id: Point, b_id: Point) -> u64 {
    let (lo, hi) = if a_id.0 <= b_id.0 {
        (a_id, b_id)
    } else {
        (b_id, a_id)
    };
    let goal: &[u8] = match goal {
        LinkGoal::Connect => b"connect;",
        LinkGoal::Disconnect => b"cut;",
    };
    let (lo, hi) = (lo.0.to_le_bytes(), hi.0.to_le_bytes());
    let (buf, n) = fields(&[goal, b"size=", &[size as u8], b";ab=", &lo, &hi]);
    class_hash(class, &[&buf[..n], &READER_DIGEST, &LINK_DIGEST])
}

/// Return the hash of a life-and-death problem: its class (kill, live,
/// or the hint class), board size, the target chain's canonical id (its
/// lowest point), whether a lost side reads on near the root (the
/// budget's regime) and the assumptions of the owl and of the capture
/// reader it calls.
pub fn owl_problem_hash(
    class: u64,
    goal: super::owl::OwlGoal,
    size: usize,
    chain_id: Point,
    read_on: bool,
) -> u64 {
    let goal: &[u8] = match goal {
        super::owl::OwlGoal::Kill => b"kill;",
        super::owl::OwlGoal::Live => b"live;",
    };
    let id = chain_id.0.to_le_bytes();
    let (buf, n) = fields(&[
        goal,
        b"size=",
        &[size as u8],
        b";dragon=",
        &id,
        b";read-on=",
        &[u8::from(read_on)],
    ]);
    class_hash(class, &[&buf[..n], &READER_DIGEST, &OWL_DIGEST])
}

/// Return the key part of the side to move.
#[inline]
pub fn side_key(mover: Color) -> u64 {
    if mover == Color::White {
        zobrist::white_to_move()
    } else {
        0
    }
}

/// Return the key part of the board's ko ban for a search whose first
/// mover is `mover`. The ban binds the board's side to move: the mover's
/// ban shapes the search from the root, the other side's only his later
/// moves, so the two are keyed apart.
pub fn ban_key(board: &Board, mover: Color) -> u64 {
    let ban = ko_key(board.ko());
    if board.to_play() == mover {
        ban
    } else {
        ban.rotate_left(32)
    }
}

/// Return the key part of a ko-ban point.
#[inline]
pub fn ko_key(ko: Option<Point>) -> u64 {
    ko.map_or(0, zobrist::ko)
}

/// Return the region key of one point: its stone, or "empty and relevant".
#[inline]
pub fn point_key(board: &Board, p: Point) -> u64 {
    match board.at(p) {
        Cell::Black => zobrist::stone(p, Color::Black),
        Cell::White => zobrist::stone(p, Color::White),
        _ => zobrist::empty(p),
    }
}

const WORDS: usize = MAX_POINTS.div_ceil(64);

/// A set of board points as a bitset: one OR per point added.
#[derive(Clone, Copy, Debug)]
pub struct PointBits {
    words: [u64; WORDS],
}

impl Default for PointBits {
    fn default() -> Self {
        Self::new()
    }
}

impl PointBits {
    /// Return the empty set.
    pub const fn new() -> Self {
        PointBits { words: [0; WORDS] }
    }

    /// Empty the set.
    pub fn clear(&mut self) {
        self.words = [0; WORDS];
    }

    /// Add `p`; return whether it was new.
    #[inline(always)]
    pub fn insert(&mut self, p: Point) -> bool {
        let i = p.idx();
        let (w, b) = (i / 64, 1u64 << (i % 64));
        let new = self.words[w] & b == 0;
        self.words[w] |= b;
        new
    }

    /// Query whether `p` is in the set.
    #[inline(always)]
    pub fn contains(&self, p: Point) -> bool {
        let i = p.idx();
        self.words[i / 64] & (1u64 << (i % 64)) != 0
    }

    /// Add the chain at the stone `s`, unless its stones are in already
    /// (a reader's region: a chain whose state a result depends on).
    #[inline]
    pub fn insert_chain(&mut self, b: &Board, s: Point) {
        if !self.contains(s) {
            for t in b.chain_stones(s) {
                self.insert(t);
            }
        }
    }

    /// Add `p` and every chain next to it.
    pub fn insert_around(&mut self, b: &Board, p: Point) {
        self.insert(p);
        for n in b.geometry().neighbours(p) {
            if b.at(n).color().is_some() {
                self.insert_chain(b, n);
            }
        }
    }

    /// Add the chains at `stones` and their neighbour chains (what a root
    /// reads first); return the region key of those chains, their
    /// liberties and their neighbour chains (a root hint's region).
    pub fn insert_roots(&mut self, b: &Board, stones: &[Point]) -> u64 {
        let mut r0 = PointBits::new();
        for &end in stones {
            for s in b.chain_stones(end) {
                r0.insert(s);
                self.insert(s);
                for n in b.geometry().neighbours(s) {
                    match b.at(n) {
                        Cell::Empty => {
                            r0.insert(n);
                        }
                        Cell::Off => {}
                        _ if r0.contains(n) => {}
                        _ => {
                            for t in b.chain_stones(n) {
                                r0.insert(t);
                                self.insert(t);
                            }
                        }
                    }
                }
            }
        }
        r0.iter().fold(0, |h, p| h ^ point_key(b, p))
    }

    /// Iterate over the points in the set, in index order.
    pub fn iter(&self) -> impl Iterator<Item = Point> + '_ {
        self.words.iter().enumerate().flat_map(|(w, &word)| {
            let mut bits = word;
            core::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                Some(Point((w * 64 + b) as u16))
            })
        })
    }
}

/// An inclusive rectangle of board coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rect {
    /// Leftmost column.
    pub x0: u8,
    /// Bottom row.
    pub y0: u8,
    /// Rightmost column.
    pub x1: u8,
    /// Top row.
    pub y1: u8,
}

impl Rect {
    /// Return the bounding box of the on-board points of `set`, grown by
    /// one point on every side and clipped to the board; `None` for an
    /// empty set.
    pub fn around(set: &PointBits, geo: Geometry) -> Option<Rect> {
        let mut r: Option<Rect> = None;
        let last = geo.size() - 1;
        for p in set.iter().filter(|&p| geo.on_board(p)) {
            let (x, y) = geo.coords(p);
            let (x0, x1) = (x.saturating_sub(1) as u8, (x + 1).min(last) as u8);
            let (y0, y1) = (y.saturating_sub(1) as u8, (y + 1).min(last) as u8);
            r = Some(match r {
                None => Rect { x0, y0, x1, y1 },
                Some(o) => Rect {
                    x0: o.x0.min(x0),
                    y0: o.y0.min(y0),
                    x1: o.x1.max(x1),
                    y1: o.y1.max(y1),
                },
            });
        }
        r
    }

    /// Return the smallest rectangle holding both (either may be absent).
    pub fn union(a: Option<Rect>, b: Option<Rect>) -> Option<Rect> {
        match (a, b) {
            (Some(a), Some(b)) => Some(Rect {
                x0: a.x0.min(b.x0),
                y0: a.y0.min(b.y0),
                x1: a.x1.max(b.x1),
                y1: a.y1.max(b.y1),
            }),
            (r, None) | (None, r) => r,
        }
    }

    /// Query whether the rectangle lies on a board of `size`.
    pub fn fits(self, size: usize) -> bool {
        self.x0 <= self.x1
            && self.y0 <= self.y1
            && (self.x1 as usize) < size
            && (self.y1 as usize) < size
    }

    /// Return the number of points inside.
    pub fn area(self) -> usize {
        (self.x1 - self.x0 + 1) as usize * (self.y1 - self.y0 + 1) as usize
    }

    /// Return the region hash of the rectangle: every point's stone key or
    /// "empty and relevant" key.
    pub fn hash(self, board: &Board) -> u64 {
        let geo = board.geometry();
        let mut h = 0;
        for y in self.y0..=self.y1 {
            for x in self.x0..=self.x1 {
                h ^= point_key(board, geo.point(x as usize, y as usize));
            }
        }
        h
    }
}
