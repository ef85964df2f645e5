//! GTP v2 answers out (GTP v2 §3), written as they are made.
//!
//! An answer is `=` (success) or `?` (failure), the id if the command had
//! one, a space and the text, and ends with a blank line; the text
//! therefore never holds an empty line of its own. [`Answer`] writes that
//! frame around whatever a command writes into it, with no buffer: the
//! mark is written with the first text (a command writes only once it
//! cannot fail any more) or by [`Answer::finish`], which writes a failure
//! as `?` and its text when nothing was written. Empty lines and trailing
//! spaces are dropped as they pass, a leading line break is kept
//! (multi-line answers such as `showboard` start on the next line), and an
//! empty text gives `=` alone.

use core::fmt::{self, Write};

use super::Failure;

/// A writer of one answer into `out`.
pub struct Answer<'w, 'i, W: Write + ?Sized> {
    out: &'w mut W,
    id: Option<&'i str>,
    /// Nothing of the text written yet (the mark and its space are due).
    fresh: bool,
    /// Line breaks held back: written only before more text.
    newlines: bool,
    /// Spaces held back: written only before more text on the same line.
    spaces: usize,
}

impl<'w, 'i, W: Write + ?Sized> Answer<'w, 'i, W> {
    /// Return the writer of the answer to the command with `id`.
    pub fn new(out: &'w mut W, id: Option<&'i str>) -> Self {
        Answer {
            out,
            id,
            fresh: true,
            newlines: false,
            spaces: 0,
        }
    }

    /// End the answer: a success with the text written so far, or the
    /// failure `result` holds if no text was written.
    ///
    /// # Errors
    /// The output's error.
    pub fn finish(self, result: Result<(), Failure>) -> fmt::Result {
        match result {
            Err(f) if self.fresh => Self::failed(self.out, self.id, f.text()),
            _ => {
                if self.fresh {
                    self.out.write_char('=')?;
                    self.out.write_str(self.id.unwrap_or(""))?;
                }
                self.out.write_str("\n\n")
            }
        }
    }

    /// Write the failure answer `?id text`.
    ///
    /// # Errors
    /// The output's error.
    pub fn failed(out: &mut W, id: Option<&str>, text: &str) -> fmt::Result {
        write!(out, "?{} {text}\n\n", id.unwrap_or(""))
    }

    /// Write a whole answer: the success `text`, or the failure.
    ///
    /// # Errors
    /// The output's error.
    pub fn write(out: &'w mut W, id: Option<&'i str>, reply: Result<&str, Failure>) -> fmt::Result {
        let mut a = Answer::new(out, id);
        match reply {
            Ok(text) => {
                a.write_str(text)?;
                a.finish(Ok(()))
            }
            Err(f) => a.finish(Err(f)),
        }
    }
}

impl<W: Write + ?Sized> Write for Answer<'_, '_, W> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        for c in s.chars() {
            match c {
                '\n' => {
                    self.newlines = true;
                    self.spaces = 0;
                }
                ' ' => self.spaces += 1,
                c => {
                    if self.fresh {
                        self.out.write_char('=')?;
                        self.out.write_str(self.id.unwrap_or(""))?;
                        self.out.write_char(' ')?;
                        self.fresh = false;
                    }
                    if self.newlines {
                        self.out.write_char('\n')?;
                        self.newlines = false;
                    }
                    for _ in 0..self.spaces {
                        self.out.write_char(' ')?;
                    }
                    self.spaces = 0;
                    self.out.write_char(c)?;
                }
            }
        }
        Ok(())
    }
}
