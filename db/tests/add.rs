//! `kosumi-db add`: games added to a database are found as if it had been
//! built with them; adding the same games again adds none; a search that
//! opened the database before keeps working; an add killed at any moment
//! leaves the old database whole, and the next add cleans up after it.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use kosumi_db::pattern::{self, Anchor, Pattern};
use kosumi_db::store::Db;

fn kosumi_db(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kosumi-db"))
        .args(args)
        .output()
        .expect("kosumi-db runs")
}

fn ok(args: &[&str]) -> String {
    let o = kosumi_db(args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

fn games() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/games")
}

/// The game files, split in two halves (by name) in two directories.
fn halves(dir: &Path) -> (PathBuf, PathBuf) {
    let mut files: Vec<PathBuf> = fs::read_dir(games().join("goban"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let (a, b) = (dir.join("first"), dir.join("second"));
    for (i, f) in files.iter().enumerate() {
        let to = if i % 2 == 0 { &a } else { &b };
        fs::create_dir_all(to).unwrap();
        fs::copy(f, to.join(f.file_name().unwrap())).unwrap();
    }
    (a, b)
}

/// Each game's source and the games every 3x3 corner shape of the
/// database's own games finds, as comparable sets.
fn contents(db: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let d = Db::open(db).unwrap();
    let name = |g: usize| {
        let i = d.info(g);
        let f = Path::new(&i.file)
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        format!("{f}#{}", i.index)
    };
    let mut all: Vec<String> = (0..d.games()).map(name).collect();
    all.sort();
    let mut found = Vec::new();
    for text in [
        "X..\n...\n...\n",
        ".X.\n.O.\n...\n",
        "...\n.X.\n..O\n",
        "..X\n.XO\n..O\n",
    ] {
        let pat = Pattern::parse(text).unwrap();
        let vars = pattern::variants(&pat, Anchor::Anywhere, &pattern::symmetry_set(true), true);
        let mut hits: Vec<String> = pattern::search(&d, &vars)
            .iter()
            .map(|m| name(m.game))
            .collect();
        hits.sort();
        found.push(hits);
    }
    (all, found)
}

#[test]
fn added_games_are_found_as_if_built_with_them() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = halves(tmp.path());
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let whole = tmp.path().join("whole.db");
    ok(&["build", a, b, "--out", whole.to_str().unwrap(), "--quiet"]);
    let grown = tmp.path().join("grown.db");
    let g = grown.to_str().unwrap();
    ok(&["build", a, "--out", g, "--quiet"]);
    let before = Db::open(&grown).unwrap();
    let first = before.games();
    let out = ok(&["add", g, b, "--quiet"]);
    assert!(out.contains("added "), "{out}");

    let (w, g2) = (contents(&whole), contents(&grown));
    assert_eq!(g2.0, w.0, "the same games");
    assert_eq!(g2.1, w.1, "the same search results");
    assert!(w.0.len() > first, "the add added games");

    // A search that opened the database before the add still reads it.
    assert_eq!(before.games(), first);
    let vars = pattern::variants(
        &Pattern::parse("X..\n...\n...\n").unwrap(),
        Anchor::Anywhere,
        &pattern::symmetry_set(true),
        false,
    );
    assert!(!pattern::search(&before, &vars).is_empty());

    // The same games again: all duplicates, none added.
    let again = ok(&["add", g, b, "--quiet"]);
    assert!(again.starts_with("added 0 games"), "{again}");
    assert_eq!(Db::open(&grown).unwrap().games(), w.0.len());
    let info = ok(&["info", g, "--json"]);
    let v: serde_json::Value = serde_json::from_str(&info).unwrap();
    assert_eq!(v["build"]["sources"].as_array().unwrap().len(), 3);
}

#[test]
fn a_killed_add_leaves_the_old_database_whole() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = halves(tmp.path());
    let db = tmp.path().join("games.db");
    let d = db.to_str().unwrap();
    ok(&["build", a.to_str().unwrap(), "--out", d, "--quiet"]);
    let old = Db::open(&db).unwrap().games();
    let mut seen = Vec::new();
    for delay_ms in [1u64, 5, 20, 40, 80, 150, 300] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kosumi-db"))
            .args(["add", d, b.to_str().unwrap(), "--quiet", "--threads", "1"])
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(delay_ms));
        let _ = child.kill();
        let status = child.wait().unwrap();
        // Killed or done, the database opens whole (every file checked).
        seen.push((delay_ms, Db::open(&db).unwrap().games()));
        if status.success() {
            break;
        }
    }
    // The next add finishes (or finds all added) and leaves no temporaries.
    ok(&["add", d, b.to_str().unwrap(), "--quiet"]);
    let new = Db::open(&db).unwrap().games();
    assert!(new > old);
    // Each time it was the old database or the new one, never a mixture
    // (an add killed after its exchange leaves the new one).
    for &(delay_ms, n) in &seen {
        assert!(
            n == old || n == new,
            "after {delay_ms} ms: {n} games, not {old} or {new}"
        );
    }
    let left: Vec<String> = fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("games.db."))
        .collect();
    assert!(left.is_empty(), "left behind: {left:?} (seen {seen:?})");
}

#[test]
fn adding_to_no_database_says_so() {
    let tmp = tempfile::tempdir().unwrap();
    let o = kosumi_db(&[
        "add",
        tmp.path().join("none.db").to_str().unwrap(),
        games().join("goban").to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("none.db"));
}
