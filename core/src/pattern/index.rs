//! A model ready for play: its spatial patterns indexed by hash in every
//! orientation, in storage the caller supplies, and the gamma of a move.
//! Or, where RAM is short, a [`Compact`] table read in place from flash
//! ([`Patterns::compact`]): one entry a pattern, the move's neighbourhood
//! hashed in all eight orientations instead.
//!
//! The index is open addressing with linear probing over a power-of-two
//! array of [`Slot`]s, at most half full: each of a model's patterns is
//! entered under its eight orientations' hashes (fewer for a symmetric
//! one), so a move's neighbourhood is hashed once, as it stands
//! ([`super::spatial`]). A move's spatial feature is its largest pattern
//! found in the index (Coulom: "only the largest matching pattern").
//!
//! A model's patterns are *nested*: with each pattern, the same shape cut
//! to the next smaller size is a pattern too (a shape played `n` times
//! contains smaller shapes played at least `n` times, so a count threshold
//! keeps them). [`Patterns::build`] checks it, and a lookup walks the sizes
//! up from 3x3 and stops at the first size not in the index, usually after
//! two or three probes instead of eight.

use super::compact::Compact;
use super::feature::{tactical, GROUPS, OFFSET, TACTICAL_GAMMAS};
use super::model::{Model, ModelError};
use super::spatial::{cell_at, EMPTY, KEY, MIN_SIZE, PERMUTATION, SIZE_KEY, SIZE_POINTS};
use crate::board::Board;
use crate::geometry::{Color, Point};
use crate::tactics::LadderReader;

/// One entry of the index: a pattern hash (0: empty), its gamma, and its
/// record number and size (`record << 8 | size`).
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct Slot {
    key: u64,
    gamma: f32,
    record_size: u32,
}

static_assertions::assert_eq_size!(Slot, [u8; 16]);

impl Slot {
    /// An empty slot.
    pub const EMPTY: Slot = Slot {
        key: 0,
        gamma: 0.0,
        record_size: 0,
    };
}

/// The largest known pattern around a move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Match {
    /// Its gamma.
    pub gamma: f32,
    /// Its size.
    pub size: usize,
    /// Its record number in the model.
    pub record: usize,
}

/// Most patterns a model may hold (record numbers fit in 24 bits).
pub const MAX_PATTERNS: usize = 1 << 24;

/// A model with its patterns indexed: the gamma of any move.
#[derive(Clone, Copy, Debug)]
pub struct Patterns<'a> {
    tactical: [f32; TACTICAL_GAMMAS],
    index: Index<'a>,
}

/// Where the spatial patterns are looked up.
#[derive(Clone, Copy, Debug)]
enum Index<'a> {
    /// A model's patterns under every orientation's hash, in the caller's
    /// slots: one probe a size.
    Probed { model: Model<'a>, slots: &'a [Slot] },
    /// A compact table, each pattern under its canonical hash: eight
    /// hashes and a binary search a size.
    Sorted(Compact<'a>),
}

/// What the model says of one move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The product of the move's feature gammas.
    pub gamma: f32,
    /// The tactical feature values, by group.
    pub features: [u8; GROUPS],
    /// The size of its largest known pattern (0: none).
    pub size: u8,
}

impl<'a> Patterns<'a> {
    /// Return the number of slots the index of a model with `patterns`
    /// patterns needs (eight orientations each, at most half full).
    pub const fn slots_for(patterns: usize) -> usize {
        let n = 16 * patterns;
        if n < 2 {
            2
        } else {
            n.next_power_of_two()
        }
    }

    /// Index `model`'s patterns in `slots` (overwritten; at least
    /// [`Patterns::slots_for`] of them, a power of two).
    ///
    /// # Errors
    /// [`ModelError::IndexTooSmall`] if `slots` cannot hold the index.
    pub fn build(model: Model<'a>, slots: &'a mut [Slot]) -> Result<Self, ModelError> {
        let needed = Self::slots_for(model.patterns());
        if model.patterns() > MAX_PATTERNS || slots.len() < needed || !slots.len().is_power_of_two()
        {
            return Err(ModelError::IndexTooSmall);
        }
        slots.fill(Slot::EMPTY);
        let mask = slots.len() - 1;
        for r in 0..model.patterns() {
            let (size, cells, gamma) = model.pattern(r);
            for t in 0..8 {
                let key = cells.hash_in(size, t);
                if key == 0 {
                    continue;
                }
                let mut i = key as usize & mask;
                while slots[i].key != 0 && slots[i].key != key {
                    i = (i + 1) & mask;
                }
                slots[i] = Slot {
                    key,
                    gamma,
                    record_size: (r as u32) << 8 | size as u32,
                };
            }
        }
        // Nested: every pattern's next smaller size is a pattern too.
        for r in 0..model.patterns() {
            let (size, cells, _) = model.pattern(r);
            if size > MIN_SIZE && find(slots, cells.hash_in(size - 1, 0)).is_none() {
                return Err(ModelError::NotNested(r));
            }
        }
        let mut tactical_gammas = [1.0f32; TACTICAL_GAMMAS];
        for (i, g) in tactical_gammas.iter_mut().enumerate() {
            *g = model.tactical(i);
        }
        Ok(Patterns {
            tactical: tactical_gammas,
            index: Index::Probed { model, slots },
        })
    }

    /// Return the patterns of a compact `table`, read in place (a `const
    /// fn`: a firmware's table and the tactical gammas copied from it can
    /// be a `static` in flash).
    pub const fn compact(table: Compact<'a>) -> Patterns<'a> {
        let mut tactical = [1.0f32; TACTICAL_GAMMAS];
        let mut i = 0;
        while i < TACTICAL_GAMMAS {
            tactical[i] = table.tactical(i);
            i += 1;
        }
        Patterns {
            tactical,
            index: Index::Sorted(table),
        }
    }

    /// Return the model of an index built from one ([`Patterns::build`]);
    /// `None` for a compact table.
    pub fn model(&self) -> Option<&Model<'a>> {
        match &self.index {
            Index::Probed { model, .. } => Some(model),
            Index::Sorted(_) => None,
        }
    }

    /// Return the number of spatial patterns.
    pub fn patterns(&self) -> usize {
        match &self.index {
            Index::Probed { model, .. } => model.patterns(),
            Index::Sorted(table) => table.entries(),
        }
    }

    /// Return the largest pattern of the index around `c` playing `p`, if
    /// any, reading the board one ring of the neighbourhood at a time and
    /// only as far as the patterns go. The patterns are nested (see the
    /// module note), so the search stops at the first size not in the
    /// index. The record of a compact table's pattern is its entry number.
    #[inline]
    pub fn spatial_at(&self, board: &Board, p: Point, c: Color) -> Option<Match> {
        match &self.index {
            Index::Probed { slots, .. } => probed_at(slots, board, p, c),
            Index::Sorted(table) => sorted_at(table, board, p, c),
        }
    }

    /// Return the gamma of tactical feature values `v` (by group).
    #[inline]
    pub fn tactical_gamma(&self, v: &[u8; GROUPS]) -> f32 {
        let mut g = 1.0;
        for (group, &value) in v.iter().enumerate() {
            if value > 0 {
                g *= self.tactical[OFFSET[group] + usize::from(value) - 1];
            }
        }
        g
    }

    /// Rate `c` playing `p` (empty and legal, or the pass) on `board`; the
    /// board is used for ladder reads and restored.
    pub fn rate(
        &self,
        board: &mut Board,
        p: Point,
        c: Color,
        ladder: &mut dyn LadderReader,
    ) -> Rating {
        let features = tactical(board, p, c, ladder);
        let mut gamma = self.tactical_gamma(&features);
        let mut size = 0;
        if !p.is_pass() {
            if let Some(m) = self.spatial_at(board, p, c) {
                gamma *= m.gamma;
                size = m.size as u8;
            }
        }
        Rating {
            gamma,
            features,
            size,
        }
    }
}

/// Return the slot holding `key`, if any.
#[inline]
fn find(slots: &[Slot], key: u64) -> Option<&Slot> {
    let mask = slots.len() - 1;
    let mut i = key as usize & mask;
    loop {
        let slot = &slots[i];
        if slot.key == key {
            return Some(slot);
        }
        if slot.key == 0 {
            return None;
        }
        i = (i + 1) & mask;
    }
}

/// [`Patterns::spatial_at`] over every orientation's hash: the
/// neighbourhood hashed once, as it stands.
#[inline]
fn probed_at(slots: &[Slot], board: &Board, p: Point, c: Color) -> Option<Match> {
    let mut h = 0u64;
    let mut k = 0;
    let mut best = None;
    for (s, &end) in SIZE_POINTS.iter().enumerate() {
        while k < end as usize {
            h ^= KEY[k][cell_at(board, p, c, k) as usize];
            k += 1;
        }
        let Some(slot) = find(slots, h ^ SIZE_KEY[s]) else {
            break;
        };
        best = Some(Match {
            gamma: slot.gamma,
            size: MIN_SIZE + s,
            record: (slot.record_size >> 8) as usize,
        });
    }
    best
}

/// [`Patterns::spatial_at`] over canonical hashes: the neighbourhood
/// hashed in the eight orientations, one ring at a time, the least of the
/// eight looked up.
fn sorted_at(table: &Compact<'_>, board: &Board, p: Point, c: Color) -> Option<Match> {
    let mut h = [0u64; 8];
    let mut k = 0;
    let mut best = None;
    let sizes = table.max_size() + 1 - MIN_SIZE;
    for (s, &end) in SIZE_POINTS.iter().enumerate().take(sizes) {
        while k < end as usize {
            let cell = cell_at(board, p, c, k);
            if cell != EMPTY {
                for (t, h) in h.iter_mut().enumerate() {
                    *h ^= KEY[PERMUTATION[t][k] as usize][cell as usize];
                }
            }
            k += 1;
        }
        let canonical = h.iter().fold(u64::MAX, |m, &h| m.min(h ^ SIZE_KEY[s]));
        let Some((record, gamma)) = table.find(canonical) else {
            break;
        };
        best = Some(Match {
            gamma,
            size: MIN_SIZE + s,
            record,
        });
    }
    best
}
