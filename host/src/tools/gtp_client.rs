//! A GTP engine in another process (`kosumi match`'s players and referee,
//! `kosumi bench score`'s referee): one command, one answer at a time.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// A GTP engine process.
pub struct Engine {
    /// The command line, for errors.
    cmd: String,
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Engine {
    /// Start `cmd` through `sh -c`, its stderr discarded.
    ///
    /// # Errors
    /// The command cannot be started.
    pub fn start(cmd: &str) -> Result<Engine, String> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(cmd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("{cmd}: {e}"))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = BufReader::new(child.stdout.take().ok_or("no stdout")?);
        Ok(Engine {
            cmd: cmd.to_string(),
            child,
            stdin,
            stdout,
        })
    }

    /// Send a command; return `Ok(text)` for `=`, `Err(text)` for `?` or I/O trouble.
    ///
    /// # Errors
    /// The engine's `?` answer, or the I/O error.
    pub fn send(&mut self, cmd: &str) -> Result<String, String> {
        if let Err(e) = writeln!(self.stdin, "{cmd}").and_then(|()| self.stdin.flush()) {
            return Err(self.gone(&e.to_string()));
        }
        let mut answer = String::new();
        loop {
            let mut line = String::new();
            if self
                .stdout
                .read_line(&mut line)
                .map_err(|e| e.to_string())?
                == 0
            {
                return Err(self.gone("it closed its output"));
            }
            let l = line.trim_end_matches(['\r', '\n']);
            if l.is_empty() {
                if answer.is_empty() {
                    continue;
                }
                break;
            }
            answer.push_str(l);
            answer.push('\n');
        }
        let a = answer.trim_end();
        if let Some(rest) = a.strip_prefix('=') {
            Ok(rest.trim().to_string())
        } else {
            Err(a.to_string())
        }
    }

    /// Describe an engine that stopped answering: its command, `what`
    /// happened, and how it ended if it has.
    fn gone(&mut self, what: &str) -> String {
        // An engine that closed its pipes is usually exiting: give it a
        // second to end so its status can be told.
        let mut status = self.child.try_wait();
        for _ in 0..100 {
            if !matches!(status, Ok(None)) {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
            status = self.child.try_wait();
        }
        let ended = match status {
            Ok(Some(status)) if status.code() == Some(127) => {
                ", exit status 127: command not found".to_string()
            }
            Ok(Some(status)) => format!(", {status}"),
            _ => String::new(),
        };
        format!("engine `{}`: {what}{ended}", self.cmd)
    }

    /// Send one line and do not wait for an answer (a streaming command).
    ///
    /// # Errors
    /// The I/O error.
    pub fn write_line(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| self.gone(&e.to_string()))
    }

    /// Read one line of output, its line break removed.
    ///
    /// # Errors
    /// The engine closed its output, or the I/O error.
    pub fn read_line(&mut self) -> Result<String, String> {
        let mut line = String::new();
        match self.stdout.read_line(&mut line) {
            Ok(0) => Err(self.gone("it closed its output")),
            Ok(_) => Ok(line.trim_end_matches(['\r', '\n']).to_string()),
            Err(e) => Err(self.gone(&e.to_string())),
        }
    }

    /// Send `quit` and wait for the process to end.
    pub fn quit(self) {
        let _ = self.quit_timed();
    }

    /// Like [`Engine::quit`]; return the CPU seconds (user and system) the
    /// process and the children it waited for used, start-up included,
    /// when the system tells them.
    pub fn quit_timed(mut self) -> Option<f64> {
        let _ = self.send("quit");
        cpu_on_exit(&mut self.child)
    }
}

/// Wait for `child` to end; return its CPU seconds (`wait4`'s resource
/// use: the process and its waited-for children, here the engine `sh -c`
/// ran).
#[cfg(unix)]
fn cpu_on_exit(child: &mut Child) -> Option<f64> {
    let pid = libc::pid_t::try_from(child.id()).ok()?;
    let mut status = 0;
    // SAFETY: `rusage` is plain data that `wait4` fills; the zeroed value
    // is a valid one.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `pid` is our own unreaped child (`Child::wait` was not
    // called), and both pointers are to live locals.
    let got = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    if got != pid {
        let _ = child.wait();
        return None;
    }
    Some(kosumi::gtp::clock::cpu_seconds(&usage))
}

/// Wait for `child` to end (no resource figures on this system).
#[cfg(not(unix))]
fn cpu_on_exit(child: &mut Child) -> Option<f64> {
    let _ = child.wait();
    None
}
