//! A database read from memory ([`Db::from_memory`], what the fuzzer reads)
//! is checked as one read from disk: the same games, and the same refusal
//! of a file in another's place.

use std::collections::HashMap;
use std::fs;
use std::path::Path;
use std::sync::Arc;

use kosumi_db::format::DbError;
use kosumi_db::store::Db;

fn build(out: &Path) {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/games");
    let opts = kosumi_db::build::Options {
        threads: Some(1),
        ..kosumi_db::build::Options::default()
    };
    kosumi_db::build::build(&[data], out, &opts).unwrap();
}

fn read_all(dir: &Path) -> HashMap<String, Arc<[u8]>> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let bytes: Arc<[u8]> = fs::read(e.path()).unwrap().into();
            (e.file_name().to_string_lossy().into_owned(), bytes)
        })
        .collect()
}

#[test]
fn a_database_in_memory_reads_and_refuses_as_on_disk() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("games.db");
    build(&out);
    let disk = Db::open(&out).unwrap();
    let mut files = read_all(&out);
    let memory = Db::from_memory(&out, &files).unwrap();
    assert!(disk.games() > 10);
    assert_eq!(memory.games(), disk.games());
    for g in 0..disk.games() {
        assert_eq!(memory.stream(g), disk.stream(g));
        assert_eq!(memory.info(g), disk.info(g));
        assert_eq!(memory.winner(g), disk.winner(g));
    }

    // Two shards swapped: refused, naming the file, on disk and in memory.
    let (a, b) = (files["index-ed.kdb"].clone(), files["index-c3.kdb"].clone());
    files.insert("index-ed.kdb".into(), b.clone());
    files.insert("index-c3.kdb".into(), a.clone());
    let in_memory = Db::from_memory(&out, &files)
        .err()
        .expect("swapped shards are refused");
    fs::write(out.join("index-ed.kdb"), &b).unwrap();
    fs::write(out.join("index-c3.kdb"), &a).unwrap();
    let on_disk = Db::open(&out).err().expect("swapped shards are refused");
    for e in [&in_memory, &on_disk] {
        assert!(matches!(e, DbError::Misplaced(..)), "{e}");
    }
    assert_eq!(in_memory.to_string(), on_disk.to_string());

    // A missing file.
    files.remove("games.kdb");
    let missing = Db::from_memory(&out, &files)
        .err()
        .expect("a missing file is refused");
    assert!(missing.to_string().contains("games.kdb"), "{missing}");
}
