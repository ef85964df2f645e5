//! The owl's table of interior nodes: one search's positions (keyed by
//! the board's Zobrist hash, side to move and ko ban included, and the
//! line's ko-threat state), with the level found, what kind of bound it
//! is under the alpha-beta window it was read with, the depth left, and
//! the best move, which is tried first when the node comes again (from
//! another order of moves, or in the next iteration of the deepening).
//!
//! A fixed array of `N` entries (a power of two) the owl owns, always
//! replacing, cleared at every solve;
//! a level read to the depth budget's horizon is reused only at the same
//! depth left or less, a proven one at any.

use crate::geometry::Point;

/// Entries of the owl's table unless its type says otherwise.
pub const NODES: usize = 4096;

/// What a stored level is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// The node's value.
    Exact,
    /// At least the value (the attacker's cutoff).
    Lower,
    /// At most the value (the defender's cutoff).
    Upper,
}

/// One node.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    key: u64,
    /// The best move found (`PASS`: none).
    pub mv: Point,
    /// The level (the attacker's view).
    pub level: u8,
    /// What the level is.
    pub kind: Kind,
    /// Plies left when it was read.
    pub depth: u8,
    /// Whether no line below it was cut by the depth or node budget.
    pub proven: bool,
}

const EMPTY: Entry = Entry {
    key: 0,
    mv: Point::PASS,
    level: 0,
    kind: Kind::Exact,
    depth: 0,
    proven: false,
};

/// The table of `N` entries.
pub struct Nodes<const N: usize> {
    entries: [Entry; N],
}

impl<const N: usize> Nodes<N> {
    /// Return an empty table (a `const fn`).
    pub const fn new() -> Self {
        const { assert!(N.is_power_of_two()) };
        Nodes {
            entries: [EMPTY; N],
        }
    }

    /// Forget every node.
    pub fn clear(&mut self) {
        self.entries.fill(EMPTY);
    }

    /// Return the entry stored under `key`, if any.
    pub fn get(&self, key: u64) -> Option<Entry> {
        let e = self.entries[key as usize & (N - 1)];
        (e.key == key && key != 0).then_some(e)
    }

    /// Store `e` under `key`, replacing what was there.
    pub fn put(&mut self, key: u64, e: Entry) {
        self.entries[key as usize & (N - 1)] = Entry { key, ..e };
    }
}

impl Entry {
    /// Return an entry (its key is set by [`Nodes::put`]).
    pub const fn new(mv: Point, level: u8, kind: Kind, depth: u8, proven: bool) -> Self {
        Entry {
            key: 0,
            mv,
            level,
            kind,
            depth,
            proven,
        }
    }

    /// Query whether the entry answers a node with `depth` plies left.
    pub fn usable(&self, depth: u8) -> bool {
        self.proven || self.depth >= depth
    }
}
