//! The [`Entry`] trait: what one packed table entry must tell the table.
//!
//! An entry kind is a small `Copy` value (8 or 10 bytes here) holding some
//! of the key's check bits, a payload and, optionally, the generation that
//! wrote it. The table never looks inside: it asks for the stored check bits
//! to find a hit, whether the entry is empty, and what it is worth, and asks
//! the entry kind to pack a new one. Entry kinds are expected to be all-zero
//! when empty, so that zeroed memory is an empty table.

/// One packed entry of a clustered table.
pub trait Entry: Copy {
    /// The payload a probe returns and a store writes.
    type Data: Copy;

    /// Number of key check bits the entry can hold, at most 64.
    const CHECK_BITS: u32;

    /// Width of the stored generation in bits, 0 (no ageing) to 8.
    const GENERATION_BITS: u32;

    /// Worth lost per search of age when choosing a victim.
    const AGE_WEIGHT: i32 = 8;

    /// The empty entry; should be all-zero bits.
    const EMPTY: Self;

    /// Pack check bits (already masked to at most `CHECK_BITS`), payload and
    /// generation (already masked to `GENERATION_BITS`, never 0 if that is
    /// non-zero) into an entry.
    fn pack(check: u64, data: Self::Data, generation: u8) -> Self;

    /// Return the stored check bits.
    fn check(&self) -> u64;

    /// Return the payload.
    fn data(&self) -> Self::Data;

    /// Return the stored generation (0 for entry kinds without one).
    fn generation(&self) -> u8;

    /// Query whether the entry holds nothing.
    fn is_empty(&self) -> bool;

    /// Return how valuable the entry is, ignoring age (higher = keep).
    fn worth(&self) -> i32;
}
