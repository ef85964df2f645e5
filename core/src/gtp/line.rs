//! GTP v2 command lines in (GTP v2 §2.2–2.3), in the caller's buffer.
//!
//! A line is cleaned before it is read: everything from `#` on is a
//! comment, a tab is a space, every other control character (CR included)
//! is dropped, and bytes that are no UTF-8 become `?`. A line that is then
//! empty gets no answer. Otherwise it is an optional numeric id, a command
//! name and its arguments, separated by spaces.

/// What one input line holds.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Line<'a> {
    /// Nothing to answer (empty, blank or a comment).
    Empty,
    /// A command.
    Request(Request<'a>),
    /// An id without a command: answered with a syntax error.
    IdOnly(&'a str),
}

/// A parsed command line.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Request<'a> {
    /// The command's id, echoed in the answer (kept as written).
    pub id: Option<&'a str>,
    /// The command name.
    pub name: &'a str,
    /// The arguments, separated by spaces.
    pub rest: &'a str,
}

impl<'a> Request<'a> {
    /// Return the arguments one by one.
    pub fn args(&self) -> core::str::SplitAsciiWhitespace<'a> {
        self.rest.split_ascii_whitespace()
    }
}

/// Clean the raw line in `buf` in place (see the module's rules) and
/// return it as text.
pub fn clean(buf: &mut [u8]) -> &str {
    let code = buf.iter().position(|&b| b == b'#').unwrap_or(buf.len());
    let mut len = 0;
    for i in 0..code {
        match buf[i] {
            b'\t' => {
                buf[len] = b' ';
                len += 1;
            }
            b if b < 32 || b == 127 => {}
            b => {
                buf[len] = b;
                len += 1;
            }
        }
    }
    let text = &mut buf[..len];
    let mut start = 0;
    while let Err(e) = core::str::from_utf8(&text[start..]) {
        let bad = start + e.valid_up_to();
        let end = e.error_len().map_or(text.len(), |n| bad + n);
        text[bad..end].fill(b'?');
        start = end;
    }
    // Every invalid sequence was replaced above.
    core::str::from_utf8(text).unwrap_or("")
}

/// Parse one cleaned line.
pub fn parse(line: &str) -> Line<'_> {
    // Words split with `split_once`, not by index: no slicing panic path
    // (with its formatting code) in a firmware's flash.
    let space = |c: char| c.is_ascii_whitespace();
    let mut rest = line.trim_start_matches(space);
    let mut word = || {
        let (w, r) = rest.split_once(space).unwrap_or((rest, ""));
        rest = r.trim_start_matches(space);
        w
    };
    let first = word();
    if first.is_empty() {
        return Line::Empty;
    }
    let (id, name) = if first.bytes().all(|b| b.is_ascii_digit()) {
        match word() {
            "" => return Line::IdOnly(first),
            name => (Some(first), name),
        }
    } else {
        (None, first)
    };
    Line::Request(Request {
        id,
        name,
        rest: rest.trim_end_matches(space),
    })
}
