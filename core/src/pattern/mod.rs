//! Move patterns learned from game records: the generalised Bradley-Terry
//! model of Coulom ("Computing Elo Ratings of Move Patterns in the Game of
//! Go", 2007), as Pachi and CrazyStone use it.
//!
//! Each move is a team of features, and the chance that a strong player
//! picks move `i` among the legal moves is `gamma_i / sum_j gamma_j`, where
//! a move's `gamma` is the product of its features' gammas. The gammas are
//! learned by minorization-maximization on game records (the host's
//! `kosumi patterns train`); this module computes the features and reads
//! the learned gammas.
//!
//! | file | what it is |
//! |---|---|
//! | [`feature`] | the tactical features: capture, escape, self-atari, atari (with ladder status), line, distance to the last two moves, pass |
//! | [`spatial`] | the shape around a move in nested neighbourhoods, 3x3 up to 72 points, Zobrist-hashed; the eight symmetries |
//! | [`model`] | the model file: versioned, checksummed, read in place (a `const fn`, so `include_bytes!` models are checked at compile time) |
//! | [`index`] | a model ready for play: patterns indexed by hash in caller storage (or a compact table in place), the gamma of a move |
//! | [`compact`] | a model's patterns for flash: one entry a pattern under its canonical hash, sorted, read in place |
//!
//! Storage: the model's bytes and the index's [`Slot`]s are the caller's
//! ([`Patterns::slots_for`] says how many), or a [`Compact`] table's bytes
//! alone; ladder reads use the caller's
//! [`LadderReader`](crate::tactics::LadderReader).

pub mod compact;
pub mod feature;
pub mod index;
pub mod model;
pub mod spatial;

pub use compact::Compact;
pub use feature::{Group, GROUPS, TACTICAL_GAMMAS};
pub use index::{Match, Patterns, Rating, Slot, MAX_PATTERNS};
pub use model::{Model, ModelError};
pub use spatial::Neighbourhood;
