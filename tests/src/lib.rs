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

/// Return whether `tool` runs (`tool args` starts: some tools, flip-link
/// among them, exit non-zero on `--version`); a missing tool is a
/// failure naming `package` under `CI`, else the test says it skips.
pub fn have(tool: &str, args: &[&str], package: &str) -> bool {
    let ok = Command::new(tool)
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok();
    if !ok {
        missing(&format!("`{tool}` is missing: install {package}"));
    }
    ok
}

/// Fail with `what` under `CI`, else say that the test skips.
///
/// # Panics
/// Under `CI`, always.
pub fn missing(what: &str) {
    if std::env::var_os("CI").is_some() {
        panic!("{what}");
    }
    eprintln!("skipping: {what}");
}
