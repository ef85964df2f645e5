//! Stack high-water mark: `cortex-m-rt`'s `paint-stack` fills the stack
//! region with `0xCCCC_CCCC` at reset; the deepest word no longer painted
//! marks the most stack ever used. With `flip-link` the stack sits at the
//! bottom of RAM (`_stack_end` .. `_stack_start`), below the statics.

use core::ptr::addr_of;

const PAINT: u32 = 0xCCCC_CCCC;

extern "C" {
    static _stack_end: u32;
    static _stack_start: u32;
    static __sdata: u32;
    static __sheap: u32;
}

/// Return the static RAM of the image (.data, .bss and .uninit), in bytes.
pub fn static_ram() -> usize {
    addr_of!(__sheap) as usize - addr_of!(__sdata) as usize
}

/// Return the most stack used since reset, in bytes.
pub fn high_water() -> usize {
    // Only the addresses of the linker's bounds are taken.
    let (low, high) = (
        addr_of!(_stack_end) as usize,
        addr_of!(_stack_start) as usize,
    );
    let mut p = low;
    while p < high {
        // SAFETY: `p` is a word-aligned address inside the stack region,
        // which is ordinary RAM; reading a stale word is harmless.
        if unsafe { core::ptr::read_volatile(p as *const u32) } != PAINT {
            break;
        }
        p += 4;
    }
    high - p
}

/// Return the size of the stack region in bytes.
pub fn region() -> usize {
    addr_of!(_stack_start) as usize - addr_of!(_stack_end) as usize
}

/// Print the high-water mark to the host's stderr (semihosting), in a line
/// the host test reads; on hardware log it.
pub fn report(used: usize) {
    report_as("stack-high-water", used);
    #[cfg(not(feature = "semihosting"))]
    defmt::info!(
        "kosumi-firmware ram static {=usize} stack {=usize}",
        static_ram(),
        used
    );
    #[cfg(feature = "semihosting")]
    if let Ok(mut err) = cortex_m_semihosting::hio::hstderr() {
        use core::fmt::Write as _;
        let _ = writeln!(
            err,
            "kosumi-firmware ram static {} stack {used}",
            static_ram()
        );
    }
}

/// Print `what` and a stack figure to the host's stderr (semihosting); on
/// hardware log it.
pub fn report_as(what: &str, used: usize) {
    #[cfg(not(feature = "semihosting"))]
    defmt::info!(
        "kosumi-firmware {=str} {=usize} of {=usize}",
        what,
        used,
        region()
    );
    #[cfg(feature = "semihosting")]
    if let Ok(mut err) = cortex_m_semihosting::hio::hstderr() {
        use core::fmt::Write as _;
        let _ = writeln!(err, "kosumi-firmware {what} {used} of {}", region());
    }
}
