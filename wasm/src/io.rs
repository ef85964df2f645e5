//! The output buffer as a [`Write`]: text is written until the buffer is
//! full, then every write fails (and the call answers [`ERR_FULL`]).

use core::fmt::{self, Write};

use crate::{ERR_FULL, OUTPUT};

/// A writer over the output buffer.
pub struct Cursor<'a> {
    buf: &'a mut [u8; OUTPUT],
    len: usize,
    full: bool,
}

impl<'a> Cursor<'a> {
    /// Return a writer at the start of `buf`.
    pub fn new(buf: &'a mut [u8; OUTPUT]) -> Self {
        Cursor {
            buf,
            len: 0,
            full: false,
        }
    }

    /// Return what an exported function returns: the length written, or
    /// [`ERR_FULL`] when the buffer overflowed or `ok` is false.
    pub fn result(&self, ok: bool) -> i32 {
        if ok && !self.full {
            self.len as i32
        } else {
            ERR_FULL
        }
    }
}

impl Write for Cursor<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        match self.buf.get_mut(self.len..end) {
            Some(dst) if !self.full => {
                dst.copy_from_slice(s.as_bytes());
                self.len = end;
                Ok(())
            }
            _ => {
                self.full = true;
                Err(fmt::Error)
            }
        }
    }
}
