//! `db build --variations`: every line of a game tree is searched, and each
//! node of the tree is found once: the positions a variation shares with
//! the line it branched off belong to that line only. An add keeps the
//! setting; without it only main lines are read.

use std::fs;
use std::path::Path;

use kosumi_db::build::{self, Options};
use kosumi_db::output::game_name;
use kosumi_db::pattern::{self, Pattern};
use kosumi_db::search::{find_position, Stats};
use kosumi_db::store::Db;
use kosumi_db::symmetry::{N, POINTS};

/// Main line pd dp pq qo; after dp a variation dd pp, which goes on with
/// fq or (a variation of the variation) cn; and after dp another, qp.
const TREE: &str =
    "(;SZ[19]RE[B+R];B[pd];W[dp](;B[pq];W[qo])(;B[dd];W[pp](;B[fq])(;B[cn]))(;B[qp]))";

/// Another game, added later.
const OTHER: &str = "(;SZ[19]RE[W+2.5];B[dd];W[pp](;B[dp])(;B[qq]))";

/// The position after `moves` (SGF points, black first, no captures).
fn position(moves: &[&str]) -> [u8; POINTS] {
    let mut cells = [0u8; POINTS];
    for (i, m) in moves.iter().enumerate() {
        let b = m.as_bytes();
        let p = usize::from(b[1] - b'a') * N + usize::from(b[0] - b'a');
        cells[p] = if i % 2 == 0 { 1 } else { 2 };
    }
    cells
}

/// Each hit of a position: (name of its line, moves).
fn hits(db: &Db, moves: &[&str]) -> Vec<(String, u16)> {
    let mut stats = Stats::default();
    let mut out: Vec<(String, u16)> = find_position(db, &position(moves), &[0], false, &mut stats)
        .iter()
        .map(|h| (short_name(db, h.game), h.moves))
        .collect();
    out.sort();
    out
}

fn short_name(db: &Db, g: usize) -> String {
    let name = game_name(&db.info(g));
    let file = Path::new(&name).file_name().unwrap().to_string_lossy();
    file.into_owned()
}

/// Every (line, position) where a black stone sits on pd with its eight
/// neighbours empty.
fn pattern_hits(db: &Db) -> Vec<(String, u16, u16)> {
    let pat = Pattern::parse("...\n.X.\n...").unwrap();
    let vars = pattern::variants_at(&pat, &[(14, 2)], &[0], false);
    let mut out = Vec::new();
    for m in pattern::find(db, &pat, &vars, None) {
        for &(a, b) in &m.ranges {
            out.push((short_name(db, m.game), a, b));
        }
    }
    out.sort();
    out
}

fn build(dir: &Path, variations: bool) -> Db {
    let out = dir.join(if variations { "with" } else { "without" });
    let opts = Options {
        threads: Some(1),
        variations,
        ..Options::default()
    };
    build::build(&[dir.join("games")], &out, &opts).unwrap();
    Db::open(&out).unwrap()
}

#[test]
fn each_node_of_the_tree_is_found_once() {
    let tmp = tempfile::tempdir().unwrap();
    fs::create_dir_all(tmp.path().join("games")).unwrap();
    fs::write(tmp.path().join("games/tree.sgf"), TREE).unwrap();
    let db = build(tmp.path(), true);
    assert_eq!(db.games(), 4, "the main line and three variations");
    let main = "tree.sgf".to_string();
    let var = |k: u16| format!("tree.sgf variation {k}");
    // Shared by all four lines, found in the main line only.
    assert_eq!(hits(&db, &["pd", "dp"]), vec![(main.clone(), 2)]);
    assert_eq!(
        hits(&db, &["pd", "dp", "pq", "qo"]),
        vec![(main.clone(), 4)]
    );
    // Shared by the first variation and the one branching off it.
    assert_eq!(hits(&db, &["pd", "dp", "dd", "pp"]), vec![(var(1), 4)]);
    assert_eq!(
        hits(&db, &["pd", "dp", "dd", "pp", "fq"]),
        vec![(var(1), 5)]
    );
    assert_eq!(
        hits(&db, &["pd", "dp", "dd", "pp", "cn"]),
        vec![(var(2), 5)]
    );
    assert_eq!(hits(&db, &["pd", "dp", "qp"]), vec![(var(3), 3)]);
    // A pattern: the nine nodes after B pd, each once.
    let want = vec![
        (main.clone(), 1, 4),
        (var(1), 3, 5),
        (var(2), 5, 5),
        (var(3), 3, 3),
    ];
    assert_eq!(pattern_hits(&db), want);

    // Without the flag: the main line alone.
    let plain = build(tmp.path(), false);
    assert_eq!(plain.games(), 1);
    assert!(hits(&plain, &["pd", "dp", "dd", "pp"]).is_empty());
    assert_eq!(pattern_hits(&plain), vec![(main.clone(), 1, 4)]);

    // An add keeps the setting: the new game's variation is read, the
    // old lines keep their branch points, and the same file added again
    // adds nothing.
    fs::create_dir_all(tmp.path().join("more")).unwrap();
    fs::write(tmp.path().join("more/other.sgf"), OTHER).unwrap();
    fs::copy(
        tmp.path().join("games/tree.sgf"),
        tmp.path().join("more/tree-again.sgf"),
    )
    .unwrap();
    let out = tmp.path().join("with");
    drop(db);
    let report = build::add(&[tmp.path().join("more")], &out, &Options::default()).unwrap();
    assert_eq!(report.added, 2, "{:?}", report.duplicates);
    assert_eq!(report.duplicates.len(), 4);
    let db = Db::open(&out).unwrap();
    assert_eq!(db.games(), 6);
    assert_eq!(pattern_hits(&db), want);
    assert_eq!(
        hits(&db, &["dd", "pp", "qq"]),
        vec![("other.sgf variation 1".to_string(), 3)]
    );
    assert_eq!(hits(&db, &["dd", "pp"]), vec![("other.sgf".to_string(), 2)]);
}
