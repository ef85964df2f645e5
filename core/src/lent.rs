//! [`Lent`]: storage a caller lends the core, or none yet.
//!
//! The node pool and the best-move table of a heap-less embedding run
//! over the caller's slices. Held as `&mut [T]`, such a slice makes the
//! struct around it impossible to build from zero bytes (a reference is
//! never null), so a firmware's session that holds it needs an image in
//! flash. Held as a [`Lent`], the slice may be absent: an engine of zero
//! bytes is valid (in `.bss`, no image) and gets its storage when it is
//! set up at run time. Absent storage reads as empty, which the pool and
//! the table treat as too small to use.

/// A slice of `T` a caller lends, or none: then it reads as empty.
pub struct Lent<'a, T>(Option<&'a mut [T]>);

impl<'a, T> Lent<'a, T> {
    /// Return the slice `storage`, lent.
    pub const fn new(storage: &'a mut [T]) -> Self {
        Lent(Some(storage))
    }

    /// Return the number of items lent (0 for none).
    pub const fn len(&self) -> usize {
        match &self.0 {
            Some(s) => s.len(),
            None => 0,
        }
    }

    /// Query whether nothing is lent (no slice or an empty one).
    pub const fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl<T> AsRef<[T]> for Lent<'_, T> {
    #[inline(always)]
    fn as_ref(&self) -> &[T] {
        match &self.0 {
            Some(s) => s,
            None => &[],
        }
    }
}

impl<T> AsMut<[T]> for Lent<'_, T> {
    #[inline(always)]
    fn as_mut(&mut self) -> &mut [T] {
        match &mut self.0 {
            Some(s) => s,
            None => &mut [],
        }
    }
}
