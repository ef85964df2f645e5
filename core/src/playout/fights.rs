//! Local fights in the heavy playouts, after Pachi's `moggy` policy: the
//! two-liberty check (`tactics/2lib.c`) and the nakade check
//! (`tactics/nakade.c`), both answers to the last move.
//!
//! * **Two liberties.** When the last move left its own chain, or a chain
//!   next to it, with two liberties, the side to move ataris an enemy
//!   such chain or, if it is its own, extends it or ataris an enemy
//!   chain next to it (a counter-attack in a capturing race), or takes an
//!   enemy neighbour in atari. It does not atari a chain that has a
//!   liberty on each side to connect out by (miai), does not extend where
//!   the extension gains nothing (a hopeless escape), never plays a
//!   self-atari, and prefers the liberty that is not "lumpy" (three of its
//!   neighbours its own stones or off the board).
//! * **Nakade.** When the last move leaves an empty space of three to six
//!   points next to it, enclosed by the last mover's stones alone, in one
//!   of the killing shapes (straight or bent three, the pyramid four, the
//!   bulky and the crossed five, the rabbity six), the side to move plays
//!   its vital point ([`crate::eye_shape::vital_point`]).
//!
//! Without these a playout lets an enclosed group live or a chain short of
//! liberties escape at random, so the search misjudges fights it is in.

use rand_core::RngCore;

use crate::board::Board;
use crate::geometry::{Cell, Color, Point};
use crate::{eye_shape, rng};

/// Most candidate moves the two-liberty check collects.
const MAX_CANDIDATES: usize = 12;

/// A small set of distinct candidate moves.
struct Candidates {
    moves: [Point; MAX_CANDIDATES],
    len: usize,
}

impl Candidates {
    const EMPTY: Candidates = Candidates {
        moves: [Point::PASS; MAX_CANDIDATES],
        len: 0,
    };

    fn add(&mut self, p: Point) {
        if self.len < MAX_CANDIDATES && !self.moves[..self.len].contains(&p) {
            self.moves[self.len] = p;
            self.len += 1;
        }
    }

    fn pick<R: RngCore>(&self, rng: &mut R) -> Option<Point> {
        (self.len > 0).then(|| self.moves[rng::below(rng, self.len as u32) as usize])
    }
}

/// Return the two-liberty check's move for `c` after the opponent's move
/// `last` (a stone on the board), if any.
pub(super) fn two_liberty_move<R: RngCore>(
    board: &Board,
    last: Point,
    c: Color,
    rng: &mut R,
) -> Option<Point> {
    let mut found = Candidates::EMPTY;
    let mut seen = [Point::PASS; 5];
    let mut n_seen = 0;
    let mut check = |p: Point, found: &mut Candidates| {
        let Some(root) = board.chain_root(p) else {
            return;
        };
        if seen[..n_seen].contains(&root) {
            return;
        }
        seen[n_seen] = root;
        n_seen += 1;
        if let &[a, b] = board.liberties::<3>(p).as_slice() {
            chain_check(board, p, [a, b], c, found);
        }
    };
    check(last, &mut found);
    for n in board.geometry().neighbours(last) {
        check(n, &mut found);
    }
    found.pick(rng)
}

/// The check of the chain at `chain` with the liberties `libs`, `c` to
/// move (Pachi's `group_2lib_check`).
fn chain_check(board: &Board, chain: Point, libs: [Point; 2], c: Color, found: &mut Candidates) {
    let Some(owner) = board.at(chain).color() else {
        return;
    };
    if is_miai(board, chain, owner, libs) {
        return;
    }
    atari_or_extend(board, owner, libs, c, found);
    if owner != c {
        return;
    }
    // The defender: take or atari an enemy chain next to its own.
    let enemy = Cell::stone(c.opponent());
    let mut done = [Point::PASS; 8];
    let mut n_done = 0;
    for s in board.chain_stones(chain) {
        for n in board.geometry().neighbours(s) {
            if board.at(n) != enemy {
                continue;
            }
            let Some(root) = board.chain_root(n) else {
                continue;
            };
            if done[..n_done].contains(&root) {
                continue;
            }
            if n_done < done.len() {
                done[n_done] = root;
                n_done += 1;
            }
            if let Some(lib) = board.atari_liberty(n) {
                if board.is_legal_move_on_empty(lib, c) {
                    found.add(lib);
                }
            } else if let &[a, b] = board.liberties::<3>(n).as_slice() {
                atari_or_extend(board, c.opponent(), [a, b], c, found);
            }
        }
    }
}

/// Add the liberties of `owner`'s chain with the liberties `libs` where
/// `c` may play: an atari by the attacker, an extension by the owner
/// (Pachi's `can_atari_group`).
fn atari_or_extend(
    board: &Board,
    owner: Color,
    libs: [Point; 2],
    c: Color,
    found: &mut Candidates,
) {
    let mut ok = [false; 2];
    let mut preferred = [true; 2];
    for i in 0..2 {
        let (lib, other) = (libs[i], libs[1 - i]);
        if !board.is_playout_move(lib, c) {
            continue;
        }
        if c == owner && is_hopeless(board, lib, other, owner) {
            continue;
        }
        if board.liberties_after::<2>(lib, c) < 2 {
            continue;
        }
        ok[i] = true;
        // Own stones and the edge: 4 less the empty points and the enemy's.
        let lumps = 4
            - board.neighbour_count(lib, Cell::Empty)
            - board.neighbour_count(lib, Cell::stone(c.opponent()));
        preferred[i] = lumps < 3;
    }
    for i in 0..2 {
        let other_better = ok[1 - i] && preferred[1 - i] && !preferred[i];
        if ok[i] && !other_better {
            found.add(libs[i]);
        }
    }
}

/// Query whether extending the owner's chain at `lib` gains nothing: the
/// new stone touches no other own chain and brings one liberty, or two
/// next to the chain's other liberty.
fn is_hopeless(board: &Board, lib: Point, other: Point, owner: Color) -> bool {
    if board.neighbour_count(lib, Cell::stone(owner)) != 1 {
        return false;
    }
    match board.neighbour_count(lib, Cell::Empty) {
        1 => true,
        2 => board.geometry().neighbours(lib).contains(&other),
        _ => false,
    }
}

/// Query whether the chain at `chain` can connect out at either liberty
/// (Pachi's `miai_2lib`): the first touches another chain of `owner`'s
/// with two or more liberties, and the second another such chain or an
/// empty point.
fn is_miai(board: &Board, chain: Point, owner: Color, libs: [Point; 2]) -> bool {
    let root = board.chain_root(chain);
    let own = Cell::stone(owner);
    let geo = board.geometry();
    let friend = |n: Point| {
        board.at(n) == own && board.chain_root(n) != root && board.atari_liberty(n).is_none()
    };
    if !geo.neighbours(libs[0]).into_iter().any(friend) {
        return false;
    }
    geo.neighbours(libs[1])
        .into_iter()
        .any(|n| n != libs[0] && (board.at(n) == Cell::Empty || friend(n)))
}

/// Most points of the space the nakade check looks at.
const NAKADE_MAX: usize = 6;

/// Return the vital point `c` should play after the opponent's move
/// `last` left a killing eye shape next to it (Pachi's `nakade_check`).
pub(super) fn nakade_move(board: &Board, last: Point, c: Color) -> Option<Point> {
    let geo = board.geometry();
    // The empty neighbours of the last move must lie in one small space.
    let mut start = Point::PASS;
    for n in geo.neighbours(last) {
        if board.at(n) != Cell::Empty {
            continue;
        }
        if start.is_pass() {
            start = n;
        } else if !is_near(geo.coords(start), geo.coords(n)) {
            return None;
        }
    }
    if start.is_pass() {
        return None;
    }
    // The space: empty points reached from `start`, walled by the last
    // mover's stones only.
    let wall = Cell::stone(c.opponent());
    let mut space = [Point::PASS; NAKADE_MAX];
    space[0] = start;
    let mut len = 1;
    let mut k = 0;
    while k < len {
        for n in geo.neighbours(space[k]) {
            match board.at(n) {
                Cell::Empty if !space[..len].contains(&n) => {
                    if len == NAKADE_MAX {
                        return None;
                    }
                    space[len] = n;
                    len += 1;
                }
                Cell::Empty | Cell::Off => {}
                cell if cell == wall => {}
                _ => return None,
            }
        }
        k += 1;
    }
    let vital = eye_shape::vital_point(geo, &space[..len])?;
    (board.is_legal_move_on_empty(vital, c)).then_some(vital)
}

/// Query whether two points are 8-neighbours.
fn is_near(a: (usize, usize), b: (usize, usize)) -> bool {
    a.0.abs_diff(b.0) <= 1 && a.1.abs_diff(b.1) <= 1 && a != b
}
