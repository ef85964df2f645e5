//! Files written whole or not at all: write `FILE.tmp.PID`, flush it to
//! the disk, rename it over `FILE`. A crash leaves the old file (or none),
//! never half a new one, and two processes writing one file do not share a
//! temporary file. A process killed between the two leaves its temporary
//! file behind: [`clean_stale`] removes those of dead processes.

use std::fs;
use std::io::Write;
use std::path::Path;

/// Write `bytes` to `path` atomically.
///
/// # Errors
/// The I/O error, as a message naming the file; the temporary file is
/// removed.
pub fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".tmp.{}", std::process::id()));
    let tmp = Path::new(&tmp);
    let write = || -> std::io::Result<()> {
        let mut f = fs::File::create(tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        fs::rename(tmp, path)
    };
    write().map_err(|e| {
        // Nothing half-written is left behind.
        let _ = fs::remove_file(tmp);
        format!("{}: {e}", path.display())
    })
}

/// Remove the temporary files `FILE.tmp.PID` that processes no longer
/// running left next to `path` (killed during a write); return how many.
/// Those of running processes (a save under way) stay.
pub fn clean_stale(path: &Path) -> usize {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return 0;
    };
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let prefix = format!("{}.tmp.", name.to_string_lossy());
    let Ok(entries) = fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for e in entries.flatten() {
        let file = e.file_name();
        let file = file.to_string_lossy();
        let Some(pid) = file
            .strip_prefix(&prefix)
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        if !running(pid) && fs::remove_file(e.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// Query whether process `pid` runs (a process of another user counts as
/// running).
fn running(pid: u32) -> bool {
    if pid == std::process::id() {
        return true;
    }
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    // SAFETY: signal 0 sends nothing; kill only checks that the process
    // exists and may be signalled.
    let alive = unsafe { libc::kill(pid, 0) } == 0;
    alive || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temporaries_of_dead_processes_go_and_live_ones_stay() {
        let dir = tempfile::tempdir().unwrap();
        let book = dir.path().join("my.book");
        // A process that has ended: its id is free.
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let dead = child.id();
        child.wait().unwrap();
        let mine = std::process::id();
        for pid in [dead, mine] {
            fs::write(dir.path().join(format!("my.book.tmp.{pid}")), b"x").unwrap();
        }
        fs::write(dir.path().join("other.book.tmp.1"), b"x").unwrap();
        fs::write(dir.path().join("my.book.tmp.x"), b"x").unwrap();
        assert_eq!(clean_stale(&book), 1);
        assert!(!dir.path().join(format!("my.book.tmp.{dead}")).exists());
        assert!(dir.path().join(format!("my.book.tmp.{mine}")).exists());
        assert!(dir.path().join("other.book.tmp.1").exists());
        write(&book, b"book").unwrap();
        assert_eq!(fs::read(&book).unwrap(), b"book");
    }
}
