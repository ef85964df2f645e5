//! The fuzz targets in CI: `kosumi bench fuzz` over the GTP line, SGF,
//! book and database readers, twelve seconds each; any panic or malformed
//! GTP answer fails the run, with the input saved. Longer runs are a
//! documented command (README, BENCHMARKS.md).

use std::process::Command;

#[test]
fn every_fuzz_target_runs_clean_for_a_while() {
    let crashes = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_kosumi"))
        .args([
            "bench",
            "fuzz",
            "--seconds",
            "12",
            "--seed",
            "7",
            "--crashes",
        ])
        .arg(crashes.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for target in ["gtp", "sgf", "book", "db"] {
        let line = stdout
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{target}:")))
            .unwrap_or_else(|| panic!("no {target} line in {stdout}"));
        assert!(line.ends_with(" 0 failures"), "{line}");
        let execs: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
        assert!(execs > 100, "{line}");
    }
}
