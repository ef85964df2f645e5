//! GTP over a serial port, in fixed memory: a line buffer of [`LINE`]
//! bytes (a longer line is read to its end and refused), answered by the
//! core's session ([`kosumi_core::gtp`], the host's GTP layer too) with
//! the firmware's one command of its own, `kosumi-playouts`.

use kosumi_core::gtp::Answer;

use crate::engine::Firmware;
use crate::uart::{Serial, Writer};

/// Longest command line accepted, newline excluded.
pub const LINE: usize = 128;

/// Serve GTP on `serial` until `quit`.
pub fn serve<S: Serial>(serial: &mut S, session: &mut Firmware) {
    let mut buf = [0u8; LINE];
    while !session.quit {
        let line = read_line(serial, &mut buf);
        // What differs from game to game: when the line arrived. The idle
        // polls alone do not (a host that sends `clear_board` right after
        // `boardsize` finds the UART's FIFO full: no idle poll at all, the
        // same game again), so the core clock's ticks are mixed in.
        let ticks = crate::clock::ticks();
        session.player.entropy = serial.idle_polls() ^ ticks as u32 ^ (ticks >> 32) as u32;
        let mut out = Writer(serial);
        let _ = match line {
            Some(len) => {
                session.answer_line(&mut buf[..len], &mut out, |s, req, _| s.player.command(req))
            }
            None => Answer::failed(&mut out, None, "line too long"),
        };
    }
}

/// Read one line into `buf` and return its length; `None` if it did not
/// fit (the rest is read and dropped).
fn read_line<S: Serial>(serial: &mut S, buf: &mut [u8; LINE]) -> Option<usize> {
    let mut len = 0;
    let mut overflow = false;
    loop {
        match serial.read() {
            b'\n' => return (!overflow).then_some(len),
            b => match buf.get_mut(len) {
                Some(slot) => {
                    *slot = b;
                    len += 1;
                }
                None => overflow = true,
            },
        }
    }
}
