//! GTP v2 lines in, answers out (GTP v2 §2.2–2.3, §3).
//!
//! A line is cleaned before it is read: everything from `#` on is a
//! comment, a tab is a space, every other control character (CR included)
//! is dropped. A line that is then empty gets no answer. Otherwise it is an
//! optional numeric id, a command name and its arguments, separated by
//! spaces. An answer is `=` (success) or `?` (failure), the id if the
//! command had one, a space and the text, and ends with a blank line; the
//! text therefore never holds an empty line of its own.

/// A parsed command line.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Request {
    /// The command's id, echoed in the answer (kept as written).
    pub id: Option<String>,
    /// The command name.
    pub name: String,
    /// The arguments.
    pub args: Vec<String>,
}

/// What one input line holds.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Line {
    /// Nothing to answer (empty, blank or a comment).
    Empty,
    /// A command.
    Request(Request),
    /// An id without a command: answered with a syntax error.
    IdOnly(String),
}

/// Return `raw` without its comment and control characters, tabs turned
/// into spaces.
pub fn clean(raw: &str) -> String {
    let code = raw.split('#').next().unwrap_or("");
    code.chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect()
}

/// Parse one input line.
pub fn parse_line(raw: &str) -> Line {
    let cleaned = clean(raw);
    let mut tokens = cleaned.split_whitespace();
    let Some(first) = tokens.next() else {
        return Line::Empty;
    };
    let (id, name) = if first.bytes().all(|b| b.is_ascii_digit()) {
        match tokens.next() {
            Some(name) => (Some(first.to_string()), name),
            None => return Line::IdOnly(first.to_string()),
        }
    } else {
        (None, first)
    };
    Line::Request(Request {
        id,
        name: name.to_string(),
        args: tokens.map(str::to_string).collect(),
    })
}

/// Format an answer: `=id text` or `?id text`, ending with a blank line.
/// Empty lines inside `text` are dropped (they would end the answer early);
/// a leading line break is kept (multi-line answers such as `showboard`
/// start on the next line).
pub fn format_answer(id: Option<&str>, success: bool, text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    out.push(if success { '=' } else { '?' });
    out.push_str(id.unwrap_or(""));
    let text = text.trim_end();
    if !text.is_empty() {
        out.push(' ');
        let mut lines = text.split('\n');
        out.push_str(lines.next().unwrap_or(""));
        for line in lines.filter(|l| !l.trim().is_empty()) {
            out.push('\n');
            out.push_str(line);
        }
    }
    out.push_str("\n\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(id: Option<&str>, name: &str, args: &[&str]) -> Line {
        Line::Request(Request {
            id: id.map(str::to_string),
            name: name.to_string(),
            args: args.iter().map(|s| s.to_string()).collect(),
        })
    }

    #[test]
    fn comments_tabs_and_control_characters() {
        assert_eq!(parse_line(""), Line::Empty);
        assert_eq!(parse_line("   \t "), Line::Empty);
        assert_eq!(parse_line("# just a comment"), Line::Empty);
        assert_eq!(
            parse_line("play\tb\td4 # comment"),
            req(None, "play", &["b", "d4"])
        );
        assert_eq!(
            parse_line("pl\x07ay b d4\r"),
            req(None, "play", &["b", "d4"])
        );
    }

    #[test]
    fn ids() {
        assert_eq!(parse_line("12 name"), req(Some("12"), "name", &[]));
        assert_eq!(parse_line("007"), Line::IdOnly("007".to_string()));
        assert_eq!(parse_line("-3 name"), req(None, "-3", &["name"]));
    }

    #[test]
    fn answers() {
        assert_eq!(format_answer(None, true, ""), "=\n\n");
        assert_eq!(format_answer(Some("4"), true, "2"), "=4 2\n\n");
        assert_eq!(
            format_answer(None, false, "illegal move"),
            "? illegal move\n\n"
        );
        assert_eq!(format_answer(None, true, "\na\n\nb\n"), "= \na\nb\n\n");
    }
}
