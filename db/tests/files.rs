//! `kosumi-db` (`kosumi db`) from the command line: build with its summary, info,
//! searches with `--json`, the atomic replacement of a database, and
//! damaged files refused with a clear error.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

/// Run `kosumi-db` (the same commands as `kosumi db`).
fn kosumi_db(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kosumi-db"))
        .args(args)
        .output()
        .expect("kosumi-db runs")
}

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/games")
}

fn build(out: &Path) -> String {
    let o = kosumi_db(&[
        "build",
        data().to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--quiet",
        "--threads",
        "2",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

fn json(o: &Output) -> Value {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

/// Run `db info` and return its error text (the command must fail).
fn refused(db: &Path) -> String {
    let o = kosumi_db(&["info", db.to_str().unwrap()]);
    assert!(!o.status.success(), "a damaged database was read");
    assert!(o.stdout.is_empty());
    String::from_utf8(o.stderr).unwrap()
}

#[test]
fn build_reports_bad_records_and_duplicates_and_keeps_the_good_games() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("games.db");
    let summary = build(&out);
    for (file, why) in [
        ("bad/broken.sgf", "broken SGF"),
        ("bad/garbage.sgf", "broken SGF"),
        ("bad/not-go.sgf", "broken SGF"),
        ("bad/mixed.sgf#1", "broken SGF"),
        ("bad/illegal.sgf", "illegal move 3"),
        ("goban/M-65-5.sgf", "illegal move 228"),
        ("bad/nine.sgf", "unsupported size 9x9"),
    ] {
        assert!(
            summary.lines().any(|l| l.contains(file) && l.contains(why)),
            "{file}: {why} missing from\n{summary}"
        );
    }
    assert!(summary.contains("skipped: 7"), "{summary}");
    assert!(summary.contains("duplicates: 2"), "{summary}");
    let info = json(&kosumi_db(&["info", out.to_str().unwrap(), "--json"]));
    // 90 goban files less one illegal and two duplicates (one of them the
    // copy in bad/), 20 of kosumi's, the good two of mixed.sgf, and the
    // duplicate's first copy.
    assert_eq!(info["games"], 88 + 20 + 2);
    assert_eq!(info["build"]["skipped"], 7);
    assert!(info["positions"].as_u64().unwrap() > 20_000);
    assert!(info["db_bytes"].as_u64().unwrap() > 100_000);
}

#[test]
fn searches_answer_in_json_and_text() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("games.db");
    build(&out);
    let db = out.to_str().unwrap();
    let game = data().join("goban/Hon-50-3.sgf");
    let q = format!("{}:30", game.display());
    let v = json(&kosumi_db(&["search", db, "--position", &q, "--json"]));
    assert!(v["games_matched"].as_u64().unwrap() >= 1);
    let first = &v["games"][0];
    assert!(first["file"].as_str().unwrap().ends_with("Hon-50-3.sgf"));
    assert_eq!(first["moves"][0], 30);
    assert_eq!(v["continuations"][0]["label"], "A");
    // The empty board: every game, move 0.
    let empty = tmp.path().join("empty.sgf");
    fs::write(&empty, "(;GM[1]SZ[19])").unwrap();
    let v = json(&kosumi_db(&[
        "search",
        db,
        "--position",
        empty.to_str().unwrap(),
        "--json",
        "--limit",
        "0",
    ]));
    assert!(v["games_matched"].as_u64().unwrap() >= 100);
    // A 3-3 invasion shape in the corner, as text.
    let pat = tmp.path().join("corner.txt");
    fs::write(
        &pat,
        "# 3-3 under a 4-4\n.....\n.....\n..O..\n...X.\n.....\n",
    )
    .unwrap();
    let o = kosumi_db(&[
        "search",
        db,
        "--pattern",
        pat.to_str().unwrap(),
        "--anchor",
        "corner",
    ]);
    assert!(o.status.success());
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.starts_with("pattern search (4 variants)"), "{text}");
    let v = json(&kosumi_db(&[
        "search",
        db,
        "--pattern",
        pat.to_str().unwrap(),
        "--anchor",
        "corner",
        "--json",
    ]));
    assert!(v["games_matched"].as_u64().unwrap() >= 1, "{v}");
    // Bad pattern text is an error, not a search.
    fs::write(&pat, "XQ\n").unwrap();
    let o = kosumi_db(&["search", db, "--pattern", pat.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown character"));
}

#[test]
fn damaged_files_are_refused_with_a_clear_error() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("games.db");
    build(&out);
    let shard = out.join("index-3c.kdb");
    let good = fs::read(&shard).unwrap();

    fs::write(&shard, &good[..good.len() - 3]).unwrap();
    assert!(refused(&out).contains("truncated"));

    let mut flipped = good.clone();
    let mid = flipped.len() / 2;
    flipped[mid] ^= 0x10;
    fs::write(&shard, &flipped).unwrap();
    assert!(refused(&out).contains("checksum mismatch"));

    fs::write(&shard, b"(;GM[1]SZ[19];B[pd])").unwrap();
    assert!(refused(&out).contains("not a kosumi database file"));

    let mut newer = good.clone();
    newer[8] = 99;
    fs::write(&shard, &newer).unwrap();
    assert!(refused(&out).contains("version 99"));

    fs::remove_file(&shard).unwrap();
    assert!(refused(&out).contains("index-3c.kdb"));

    fs::write(&shard, &good).unwrap();
    let games = out.join("games.kdb");
    let g = fs::read(&games).unwrap();
    let mut bad = g.clone();
    bad[100] ^= 1;
    fs::write(&games, &bad).unwrap();
    assert!(refused(&out).contains("games.kdb: checksum mismatch"));
    fs::write(&games, &g).unwrap();

    let corners = out.join("corners.kdb");
    let c = fs::read(&corners).unwrap();
    let mut bad = c.clone();
    bad[c.len() - 5] ^= 4;
    fs::write(&corners, &bad).unwrap();
    assert!(refused(&out).contains("corners.kdb: checksum mismatch"));
    fs::remove_file(&corners).unwrap();
    assert!(refused(&out).contains("corners.kdb"));
    fs::write(&corners, &c).unwrap();
    assert!(kosumi_db(&["info", out.to_str().unwrap()]).status.success());
}

#[test]
fn a_swapped_or_foreign_shard_is_refused_by_name() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("a.db"), tmp.path().join("b.db"));
    build(&a);
    build(&b);
    // Two intact shards of one database in each other's place: each has a
    // valid checksum, and a search would quietly miss games.
    let (ed, c3) = (a.join("index-ed.kdb"), a.join("index-c3.kdb"));
    let (bytes_ed, bytes_c3) = (fs::read(&ed).unwrap(), fs::read(&c3).unwrap());
    fs::write(&ed, &bytes_c3).unwrap();
    fs::write(&c3, &bytes_ed).unwrap();
    let why = refused(&a);
    assert!(
        why.contains("index-") && why.contains("holds the part") && why.contains("rebuild it"),
        "{why}"
    );
    fs::write(&ed, &bytes_ed).unwrap();
    fs::write(&c3, &bytes_c3).unwrap();
    assert!(kosumi_db(&["info", a.to_str().unwrap()]).status.success());
    // Another build's corner index.
    let own = fs::read(a.join("corners.kdb")).unwrap();
    fs::copy(b.join("corners.kdb"), a.join("corners.kdb")).unwrap();
    assert!(refused(&a).contains("corners.kdb: written by build"));
    fs::write(a.join("corners.kdb"), own).unwrap();
    // The same shard from another build of the same games.
    fs::copy(b.join("index-58.kdb"), a.join("index-58.kdb")).unwrap();
    let why = refused(&a);
    assert!(why.contains("index-58.kdb: written by build"), "{why}");
    // And another build's game table (read before the shards).
    fs::copy(b.join("games.kdb"), a.join("games.kdb")).unwrap();
    assert!(refused(&a).contains("games.kdb: written by build"));
}

#[test]
fn a_rebuild_replaces_the_database_whole_and_other_folders_are_left_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("games.db");
    build(&out);
    build(&out);
    assert!(kosumi_db(&["info", out.to_str().unwrap()]).status.success());
    let names: Vec<String> = fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, vec!["games.db".to_string()], "left-overs: {names:?}");

    let other = tmp.path().join("photos");
    fs::create_dir(&other).unwrap();
    fs::write(other.join("keep.txt"), "mine").unwrap();
    let o = kosumi_db(&[
        "build",
        data().to_str().unwrap(),
        "--out",
        other.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(!o.status.success());
    assert_eq!(fs::read_to_string(other.join("keep.txt")).unwrap(), "mine");
}
