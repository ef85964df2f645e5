//! `kosumi bench db`'s exported queries: each, searched by `kosumi db
//! search`, finds what the benchmark counted.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn kosumi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kosumi"))
        .args(args)
        .output()
        .expect("kosumi runs")
}

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/games")
}

fn build(out: &Path) {
    let o = kosumi(&[
        "db",
        "build",
        data().to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--quiet",
        "--threads",
        "2",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

fn json(o: &Output) -> Value {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

#[test]
fn exported_bench_queries_search_to_the_benched_counts() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("games.db");
    build(&out);
    let dir = tmp.path().join("queries");
    let db = out.to_str().unwrap();
    let bench = json(&kosumi(&[
        "bench",
        "db",
        db,
        "--positions",
        "12",
        "--patterns",
        "3",
        "--json",
        "--export-queries",
        dir.to_str().unwrap(),
    ]));
    let manifest: Value =
        serde_json::from_str(&fs::read_to_string(dir.join("queries.json")).unwrap()).unwrap();
    let list = manifest["queries"].as_array().unwrap();
    let kinds = |k: &str| list.iter().filter(|q| q["kind"] == k).count() as u64;
    assert_eq!(kinds("position"), 12);
    assert_eq!(kinds("corner"), bench["corner_patterns"].as_u64().unwrap());
    assert_eq!(kinds("edge"), bench["edge_patterns"].as_u64().unwrap());
    let positions: u64 = list
        .iter()
        .filter(|q| q["kind"] == "position")
        .map(|q| q["kosumi_positions"].as_u64().unwrap())
        .sum();
    assert_eq!(positions, bench["position_hits"].as_u64().unwrap());
    // Each file, searched by `db search` (positions as a 19x19 pattern in
    // the corner, so by the pattern engine, not the hash index), finds the
    // games and positions the bench found for the query it drew.
    for q in list {
        let file = dir.join(q["file"].as_str().unwrap());
        let v = json(&kosumi(&[
            "db",
            "search",
            db,
            "--pattern",
            file.to_str().unwrap(),
            "--anchor",
            q["anchor"].as_str().unwrap(),
            "--json",
            "--limit",
            "0",
        ]));
        assert_eq!(v["games_matched"], q["kosumi_games"], "{}", q["file"]);
        assert_eq!(
            v["positions_matched"], q["kosumi_positions"],
            "{}",
            q["file"]
        );
        assert!(q["kosumi_games"].as_u64().unwrap() >= 1, "{}", q["file"]);
    }
}
