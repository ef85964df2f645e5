//! What `printsgf` writes, read by Sabaki's own SGF parser (`@sabaki/sgf`,
//! installed by `npm ci` in `tools/js`): the loaded game's information
//! comes back, escapes survive, passes are `B[]`/`W[]`, and after two
//! passes `RE` is the engine's `final_score`.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::Gtp;

fn tools_js() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tools/js")
}

/// Return whether node and `@sabaki/sgf` are there; with `CI` set, their
/// absence is a failure.
fn have_sabaki() -> bool {
    let node = Command::new("node").arg("--version").output().is_ok();
    let module = tools_js().join("node_modules/@sabaki/sgf").exists();
    if node && module {
        return true;
    }
    let what = if node {
        "@sabaki/sgf: run `npm ci` in tools/js (package `npm`)"
    } else {
        "node: install the package `nodejs`"
    };
    if std::env::var_os("CI").is_some() {
        panic!("missing {what}");
    }
    eprintln!("skipping: missing {what}");
    false
}

/// Return what Sabaki reads in `file`.
fn sabaki_reads(file: &Path) -> serde_json::Value {
    let out = Command::new("node")
        .arg(tools_js().join("sgf-read.cjs"))
        .arg(file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn sabaki_reads_what_printsgf_writes() {
    if !have_sabaki() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("in.sgf");
    std::fs::write(
        &record,
        "(;GM[1]FF[4]SZ[9]KM[6.5]PB[Black \\] player]PW[White]DT[2026-11-24]\
         EV[Test cup]RU[Chinese]RE[W+R];B[ee];W[cc])",
    )
    .unwrap();
    let mut g = Gtp::start(&["--size", "9", "--playouts", "200", "--tree-mb", "16"]);
    g.ok(&format!("loadsgf {}", record.display()));
    let out = dir.path().join("out.sgf");
    g.ok(&format!("printsgf {}", out.display()));
    let seen = sabaki_reads(&out);
    assert_eq!(seen["trees"], 1);
    let root = &seen["root"];
    for (key, value) in [
        ("SZ", "9"),
        ("KM", "6.5"),
        ("PB", "Black ] player"),
        ("PW", "White"),
        ("DT", "2026-11-24"),
        ("EV", "Test cup"),
        ("RU", "Chinese"),
        ("RE", "W+R"),
    ] {
        assert_eq!(root[key][0], value, "{key} in {seen}");
    }
    assert_eq!(seen["moves"], serde_json::json!([["B", "ee"], ["W", "cc"]]));

    // A new move: the recorded result no longer holds. Two passes: the
    // result is the engine's count.
    g.ok("play b pass");
    g.ok(&format!("printsgf {}", out.display()));
    assert!(sabaki_reads(&out)["root"].get("RE").is_none());
    g.ok("play w pass");
    let score = g.ok("final_score");
    g.ok(&format!("printsgf {}", out.display()));
    let seen = sabaki_reads(&out);
    assert_eq!(seen["root"]["RE"][0], score.as_str(), "{seen}");
    assert_eq!(
        seen["moves"],
        serde_json::json!([["B", "ee"], ["W", "cc"], ["B", ""], ["W", ""]])
    );

    // A new game forgets the record's information.
    g.ok("clear_board");
    g.ok(&format!("printsgf {}", out.display()));
    let root = &sabaki_reads(&out)["root"];
    assert!(
        root.get("PB").is_none() && root.get("RE").is_none(),
        "{root}"
    );
    g.quit();
}
