//! Allocations whose size comes from outside the program (a file's header,
//! a command-line option, `kosumi-setoption`): made fallibly, so a size the
//! machine cannot hold is an error that says so, never an abort.

/// Return `n` copies of `value`, or a message naming `what` and the size
/// when the memory cannot be had.
///
/// # Errors
/// The allocation failed (or the size overflows).
pub fn filled<T: Clone>(n: usize, value: T, what: &str) -> Result<Vec<T>, String> {
    let bytes = n.saturating_mul(std::mem::size_of::<T>());
    let mut v = Vec::new();
    v.try_reserve_exact(n)
        .map_err(|_| format!("{what}: cannot allocate {} MiB", bytes >> 20))?;
    v.resize(n, value);
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_impossible_size_is_an_error_not_an_abort() {
        let err = filled(usize::MAX / 2, 0u64, "table").unwrap_err();
        assert!(err.starts_with("table: cannot allocate"), "{err}");
        assert_eq!(filled(3, 7u8, "x").unwrap(), vec![7, 7, 7]);
    }
}
