//! `defmt` logging. Under QEMU the frames go to the host's stderr through
//! semihosting (GTP owns the UART and stdout); decode them with
//! `defmt-print -e FIRMWARE`. On real hardware (feature `rtt`) the frames
//! go over RTT, read by `probe-rs`.

#[cfg(feature = "semihosting")]
mod semihosting {
    use core::sync::atomic::{AtomicBool, Ordering};

    use cortex_m_semihosting::hio::{self, HostStream};

    #[defmt::global_logger]
    struct Logger;

    static TAKEN: AtomicBool = AtomicBool::new(false);
    static mut RESTORE: critical_section::RestoreState = critical_section::RestoreState::invalid();
    static mut ENCODER: defmt::Encoder = defmt::Encoder::new();
    static mut STDERR: Option<HostStream> = None;

    fn emit(bytes: &[u8]) {
        // SAFETY: only called between `acquire` and `release`, inside the
        // critical section that `acquire` entered, so access is exclusive.
        let stream = unsafe { &mut *core::ptr::addr_of_mut!(STDERR) };
        if stream.is_none() {
            *stream = hio::hstderr().ok();
        }
        if let Some(s) = stream {
            let _ = s.write_all(bytes);
        }
    }

    // SAFETY: `acquire`/`release` bracket every frame in a critical section
    // and the `TAKEN` flag rejects re-entrance, as `defmt::Logger` requires.
    unsafe impl defmt::Logger for Logger {
        fn acquire() {
            // SAFETY: paired with the `release` in `Logger::release`.
            let restore = unsafe { critical_section::acquire() };
            if TAKEN.load(Ordering::Relaxed) {
                panic!("defmt logger taken reentrantly");
            }
            TAKEN.store(true, Ordering::Relaxed);
            // SAFETY: inside the critical section, exclusive access.
            unsafe {
                RESTORE = restore;
                (*core::ptr::addr_of_mut!(ENCODER)).start_frame(emit);
            }
        }

        unsafe fn flush() {}

        unsafe fn release() {
            // SAFETY: the caller holds the logger (defmt's contract).
            unsafe {
                (*core::ptr::addr_of_mut!(ENCODER)).end_frame(emit);
                TAKEN.store(false, Ordering::Relaxed);
                critical_section::release(RESTORE);
            }
        }

        unsafe fn write(bytes: &[u8]) {
            // SAFETY: the caller holds the logger (defmt's contract).
            unsafe { (*core::ptr::addr_of_mut!(ENCODER)).write(bytes, emit) }
        }
    }
}

#[cfg(feature = "rtt")]
use defmt_rtt as _;
