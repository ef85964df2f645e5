//! Workspace-level integration tests live in `tests/tests/`; this library
//! holds what several of them share.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Return the workspace's root directory.
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Build the binary `bin` of the workspace's `package` (test profile, as
/// `cargo test` already built it for that package's own tests) and return
/// its path.
///
/// # Panics
/// When cargo cannot run or the package does not build.
pub fn build_tool(package: &str, bin: &str) -> PathBuf {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(cargo)
        .args(["build", "-p", package, "--profile", "test"])
        .current_dir(workspace())
        .status()
        .unwrap_or_else(|e| panic!("run cargo for {package}: {e}"));
    assert!(status.success(), "{package} did not build");
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace().join("target"));
    target.join("debug").join(bin)
}
