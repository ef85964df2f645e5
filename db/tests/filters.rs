//! `kosumi-db search` with game-information filters, alone and with a
//! pattern or a position; `--save` then `--within`; `--next`; `--region`;
//! and the continuations' tenuki counts and years, on four games written
//! here so that every expected figure can be read off them.

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

fn kosumi_db(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kosumi-db"))
        .args(args)
        .output()
        .expect("kosumi-db runs")
}

fn json(args: &[&str]) -> Value {
    let o = kosumi_db(args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

/// The games' files, in the order the database numbers them.
fn names(v: &Value) -> Vec<String> {
    v["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            let f = g["file"].as_str().unwrap();
            Path::new(f)
                .file_stem()
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect()
}

/// Four games. In the top-left corner, `a` and `b` open at C17; `a` then
/// plays elsewhere (white at Q16) before black's B17, `b` answers at B18
/// at once. `c` and `d` open on the other side of the board.
const GAMES: &[(&str, &str)] = &[
    (
        "a",
        "(;GM[1]FF[4]SZ[19]PB[Lee Sedol]PW[Gu Li]DT[2004-05-12]EV[Samsung Cup]RE[B+R];B[cc];W[pd];B[bc];W[dp])",
    ),
    (
        "b",
        "(;GM[1]FF[4]SZ[19]PB[Cho Chikun]PW[Lee Changho]DT[2010]EV[Kisei]RE[W+2.5];B[cc];W[bb];B[pp])",
    ),
    (
        "c",
        "(;GM[1]FF[4]SZ[19]PB[Gu Li]PW[Cho Chikun]DT[1998-11]EV[Samsung Cup]RE[0];B[pp];W[dd])",
    ),
    (
        "d",
        "(;GM[1]FF[4]SZ[19]PB[Someone]PW[Another]RE[Void];B[qq];W[dd];B[pd])",
    ),
];

fn build(dir: &Path) -> String {
    let sgf = dir.join("sgf");
    fs::create_dir_all(&sgf).unwrap();
    for (name, text) in GAMES {
        fs::write(sgf.join(format!("{name}.sgf")), text).unwrap();
    }
    let db = dir.join("games.db");
    let o = kosumi_db(&[
        "build",
        sgf.to_str().unwrap(),
        "--out",
        db.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    db.to_str().unwrap().to_string()
}

#[test]
fn game_information_filters_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let db = build(tmp.path());
    let find = |extra: &[&str]| {
        let mut args = vec!["search", db.as_str(), "--json"];
        args.extend_from_slice(extra);
        let mut n = names(&json(&args));
        n.sort();
        n
    };
    assert_eq!(find(&["--player", "gu li"]), ["a", "c"]);
    assert_eq!(find(&["--player", "LEE"]), ["a", "b"]);
    assert_eq!(find(&["--black", "lee"]), ["a"]);
    assert_eq!(find(&["--white", "cho"]), ["c"]);
    assert_eq!(find(&["--event", "samsung"]), ["a", "c"]);
    assert_eq!(find(&["--from", "2004"]), ["a", "b"]);
    assert_eq!(find(&["--from", "2004-06", "--to", "2010-12-31"]), ["b"]);
    assert_eq!(find(&["--to", "2004-05"]), ["a", "c"]);
    assert_eq!(find(&["--result", "b"]), ["a"]);
    assert_eq!(find(&["--result", "w"]), ["b"]);
    assert_eq!(find(&["--result", "draw"]), ["c"]);
    assert_eq!(find(&["--result", "none"]), ["d"]);
    assert_eq!(find(&["--player", "cho", "--event", "kisei"]), ["b"]);
    assert!(find(&["--player", "nobody"]).is_empty());

    let o = kosumi_db(&["search", &db, "--from", "May 2004"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("YYYY"));
    let o = kosumi_db(&["search", &db]);
    assert!(!o.status.success(), "a search of nothing");
}

#[test]
fn a_pattern_with_filters_next_colour_region_tenuki_and_years() {
    let tmp = tempfile::tempdir().unwrap();
    let db = build(tmp.path());
    // Black at C17 with the corner around it empty.
    let pat = tmp.path().join("corner.txt");
    fs::write(&pat, "...\n...\n..X\n").unwrap();
    let pat = pat.to_str().unwrap();
    let search = |extra: &[&str]| {
        let mut args = vec![
            "search",
            db.as_str(),
            "--pattern",
            pat,
            "--symmetries",
            "none",
            "--json",
        ];
        args.extend_from_slice(extra);
        json(&args)
    };
    let all = search(&["--anchor", "corner"]);
    assert_eq!(names(&all), ["a", "b"]);
    let rows = all["continuations"].as_array().unwrap().clone();
    let row = |colour: &str| {
        rows.iter()
            .find(|r| r["colour"] == colour)
            .unwrap_or_else(|| panic!("no {colour} row in {rows:?}"))
    };
    // a: black's B17 (1,2) after white's move elsewhere; b: white's B18 (1,1).
    let (b, w) = (row("B"), row("W"));
    assert_eq!((b["x"].as_u64(), b["y"].as_u64()), (Some(1), Some(2)));
    assert_eq!(
        (b["played"].as_u64(), b["tenuki"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(b["years"], serde_json::json!({"2004": 1}));
    assert_eq!(
        (b["wins"].as_u64(), b["losses"].as_u64()),
        (Some(1), Some(0))
    );
    assert_eq!((w["x"].as_u64(), w["y"].as_u64()), (Some(1), Some(1)));
    assert_eq!(
        (w["played"].as_u64(), w["tenuki"].as_u64()),
        (Some(1), Some(0))
    );
    assert_eq!(w["years"], serde_json::json!({"2010": 1}));
    assert_eq!(
        (w["wins"].as_u64(), w["losses"].as_u64()),
        (Some(1), Some(0))
    );

    // Who plays next.
    let next_w = search(&["--anchor", "corner", "--next", "w"]);
    assert_eq!(names(&next_w), ["b"]);
    assert_eq!(next_w["continuations"].as_array().unwrap().len(), 1);

    // Filters narrow the pattern's games.
    assert_eq!(
        names(&search(&["--anchor", "corner", "--player", "cho"])),
        ["b"]
    );
    assert!(names(&search(&["--anchor", "corner", "--result", "draw"])).is_empty());

    // A region: the top-left cell on A19 only is the corner anchor, the
    // whole board is "anywhere" (black stones with an empty corner up-left
    // of them: every game), and a region of the lower right only finds
    // the games with such a stone there (c at Q4, d at R3).
    assert_eq!(names(&search(&["--region", "A19-A19"])), ["a", "b"]);
    let anywhere = names(&search(&["--anchor", "anywhere"]));
    assert_eq!(names(&search(&["--region", "T1-A19"])), anywhere);
    assert_eq!(anywhere, ["a", "b", "c", "d"]);
    assert_eq!(names(&search(&["--region", "K10-T1"])), ["b", "c", "d"]);
    let o = kosumi_db(&["search", &db, "--pattern", pat, "--region", "Z99-A1"]);
    assert!(!o.status.success());
}

#[test]
fn a_saved_result_is_searched_again_and_refused_by_another_build() {
    let tmp = tempfile::tempdir().unwrap();
    let db = build(tmp.path());
    let saved = tmp.path().join("lee.txt");
    let saved = saved.to_str().unwrap();
    let v = json(&["search", &db, "--player", "lee", "--save", saved, "--json"]);
    assert_eq!(names(&v), ["a", "b"]);
    // Within Lee's games, Gu Li's: game a only.
    let v = json(&[
        "search", &db, "--within", saved, "--player", "gu li", "--json",
    ]);
    assert_eq!(names(&v), ["a"]);

    // A position within the saved games: after black's C17 (game a's
    // first move) games a and b meet it; within the list, both.
    let pos = tmp.path().join("c17.sgf");
    fs::write(&pos, "(;GM[1]FF[4]SZ[19];B[cc])").unwrap();
    let v = json(&[
        "search",
        &db,
        "--position",
        pos.to_str().unwrap(),
        "--within",
        saved,
        "--json",
    ]);
    assert_eq!(names(&v), ["a", "b"]);

    // The same games built again are another database: the list is refused.
    let other = tempfile::tempdir().unwrap();
    let db2 = build(other.path());
    let o = kosumi_db(&["search", &db2, "--within", saved]);
    assert!(!o.status.success());
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("another database"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}
