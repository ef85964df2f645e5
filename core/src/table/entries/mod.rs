//! The entry kinds kosumi's caches use, one module each.
//!
//! Each module documents its bit layout field by field, in the order a
//! probe reads the fields (check bits, then generation, then worth, then
//! payload), defines the cluster type its table uses, and asserts both
//! sizes at compile time. To add a kind: pack it into a fixed-width integer
//! or byte array (never a `u64` field next to narrower ones: `u64` aligns
//! to 4 on i686 and 8 elsewhere), make all-zero mean empty, implement
//! [`Entry`](super::Entry), and pick `Cluster32<E, K>` or `Cluster64<E, K>`.

pub mod best_move;
pub mod depth;
pub mod tactic;
