//! Files written whole or not at all: write `FILE.tmp.PID`, flush it to
//! the disk, rename it over `FILE`. A crash leaves the old file (or none),
//! never half a new one, and two processes writing one file do not share a
//! temporary file.

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
