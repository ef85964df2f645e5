//! The GTP test driver shared by the host's end-to-end tests: the `kosumi`
//! binary behind stdin/stdout pipes, one command and answer at a time.
//! Each test crate uses part of it.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// A running engine.
pub struct Gtp {
    pub child: Child,
    pub stdin: ChildStdin,
    pub stdout: BufReader<ChildStdout>,
}

impl Gtp {
    /// Start `kosumi` with `args`.
    pub fn start(args: &[&str]) -> Gtp {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kosumi"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start kosumi");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Gtp {
            child,
            stdin,
            stdout,
        }
    }

    pub fn new() -> Gtp {
        Gtp::start(&["gtp"])
    }

    /// Send raw text (one or more lines).
    pub fn write(&mut self, text: &str) {
        self.stdin.write_all(text.as_bytes()).unwrap();
        self.stdin.flush().unwrap();
    }

    /// Read one answer: its lines up to the blank line, joined by `\n`.
    pub fn read_answer(&mut self) -> String {
        let mut lines = Vec::new();
        loop {
            let mut line = String::new();
            let n = self.stdout.read_line(&mut line).unwrap();
            assert!(n > 0, "engine closed its output; answer so far: {lines:?}");
            let line = line.trim_end_matches('\n');
            if line.is_empty() {
                return lines.join("\n");
            }
            lines.push(line.to_string());
        }
    }

    /// Send a command line and return its whole answer (`= ...` / `? ...`).
    pub fn raw(&mut self, cmd: &str) -> String {
        self.write(&format!("{cmd}\n"));
        self.read_answer()
    }

    /// Send a command that must succeed; return its text.
    pub fn ok(&mut self, cmd: &str) -> String {
        let a = self.raw(cmd);
        assert!(a.starts_with('='), "`{cmd}` failed: {a}");
        a[1..].trim_start_matches(' ').to_string()
    }

    /// Send a command that must fail; return its error text.
    pub fn err(&mut self, cmd: &str) -> String {
        let a = self.raw(cmd);
        assert!(a.starts_with('?'), "`{cmd}` should fail: {a}");
        a[1..].trim().to_string()
    }

    /// Send `quit` and check the clean exit.
    pub fn quit(mut self) {
        assert_eq!(self.raw("quit"), "=");
        let status = self.child.wait().unwrap();
        assert!(status.success(), "exit status {status}");
    }
}
