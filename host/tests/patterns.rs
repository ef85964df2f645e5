//! `kosumi patterns` from the command line: training is deterministic for
//! a seed, `test` reads what `train` wrote, and damaged model files are
//! refused with a clear error by `test` and by the engine.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn kosumi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kosumi"))
        .args(args)
        .output()
        .expect("kosumi runs")
}

fn games() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/games/goban")
}

/// Start the engine with `option FILE` and check that it refuses to start,
/// saying every one of `said`.
fn refused_at_start_up(option: &str, file: &Path, said: &[&str]) {
    let o = Command::new(env!("CARGO_BIN_EXE_kosumi"))
        .args([option, file.to_str().unwrap()])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(said.iter().all(|w| err.contains(w)), "{said:?}: {err}");
}

/// Train on the professional games with `seed`; return the model's bytes.
fn train(out: &Path, seed: &str, max_games: &str) -> Vec<u8> {
    let o = kosumi(&[
        "patterns",
        "train",
        games().to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--min-count",
        "3",
        "--iterations",
        "4",
        "--max-games",
        max_games,
        "--seed",
        seed,
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains("mean log-likelihood"), "{text}");
    fs::read(out).unwrap()
}

#[test]
fn training_gives_the_same_model_twice_for_a_seed() {
    let tmp = tempfile::tempdir().unwrap();
    let a = train(&tmp.path().join("a.kpm"), "5", "40");
    let b = train(&tmp.path().join("b.kpm"), "5", "40");
    assert_eq!(a, b, "same games, same seed: same weights");
    // Another seed takes another 40 of the training games.
    let c = train(&tmp.path().join("c.kpm"), "6", "40");
    assert_ne!(a, c);
}

#[test]
fn test_reads_the_trained_model_and_predicts_better_than_chance() {
    let tmp = tempfile::tempdir().unwrap();
    let model = tmp.path().join("m.kpm");
    train(&model, "1", "1000");
    // The default split keeps one game in ten for testing: about 9 here.
    let o = kosumi(&[
        "patterns",
        "test",
        games().to_str().unwrap(),
        "--model",
        model.to_str().unwrap(),
        "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let positions = v["positions"].as_f64().unwrap();
    assert!(positions > 500.0, "{v}");
    // About 250 candidates a move: chance is 0.4% top-1.
    assert!(v["top1"].as_f64().unwrap() > 10.0, "{v}");
    assert!(v["top10"].as_f64().unwrap() > v["top1"].as_f64().unwrap());
}

#[test]
fn damaged_models_are_refused_with_a_clear_error() {
    let tmp = tempfile::tempdir().unwrap();
    let model = tmp.path().join("m.kpm");
    let good = train(&model, "1", "30");
    let truncated = tmp.path().join("truncated.kpm");
    fs::write(&truncated, &good[..good.len() - 7]).unwrap();
    let mut flipped = good.clone();
    let last = flipped.len() - 3;
    flipped[last] ^= 0x10;
    let corrupt = tmp.path().join("corrupt.kpm");
    fs::write(&corrupt, &flipped).unwrap();
    let foreign = tmp.path().join("foreign.kpm");
    fs::write(
        &foreign,
        b"this is not a pattern model at all, not even close",
    )
    .unwrap();
    for (file, why) in [
        (&truncated, "truncated"),
        (&corrupt, "corrupt"),
        (&foreign, "not a kosumi pattern model"),
    ] {
        let o = kosumi(&[
            "patterns",
            "test",
            games().to_str().unwrap(),
            "--model",
            file.to_str().unwrap(),
        ]);
        assert!(!o.status.success());
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(why), "{why}: {err}");
        // The engine refuses it at start-up, before reading any command.
        refused_at_start_up("--patterns", file, &[why, "pattern model"]);
    }
}

/// Learn the playouts' local answers from the professional games.
fn learn_local(out: &Path) -> Vec<u8> {
    let o = kosumi(&[
        "patterns",
        "local",
        games().to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--test-games",
        "20",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(
        text.contains("the player answered next to the last move"),
        "{text}"
    );
    fs::read(out).unwrap()
}

/// `patterns local` learns the same table twice; the engine plays with it,
/// and refuses a damaged one at start-up with a clear error.
#[test]
fn local_answers_are_learned_alike_twice_and_damaged_ones_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let good = tmp.path().join("a.kla");
    let a = learn_local(&good);
    let b = learn_local(&tmp.path().join("b.kla"));
    assert_eq!(a, b, "same games: same table");
    assert!(a[16..].iter().any(|&c| c > 0), "some shape is answered");
    let mut engine = Command::new(env!("CARGO_BIN_EXE_kosumi"))
        .args(["--size", "9", "--playouts", "300"])
        .args(["--local-answers", good.to_str().unwrap()])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut input = engine.stdin.take().unwrap();
        input.write_all(b"play b e5\ngenmove w\nquit\n").unwrap();
    }
    let out = engine.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.lines().any(|l| l.starts_with("= ") && l.len() >= 4),
        "{text}"
    );
    let truncated = tmp.path().join("truncated.kla");
    fs::write(&truncated, &a[..a.len() - 9]).unwrap();
    let mut flipped = a.clone();
    flipped[1000] ^= 0x40;
    let corrupt = tmp.path().join("corrupt.kla");
    fs::write(&corrupt, &flipped).unwrap();
    for (file, why) in [(&truncated, "bytes"), (&corrupt, "corrupt")] {
        refused_at_start_up("--local-answers", file, &[why, "local answers"]);
    }
}

/// The firmware's pattern table (`embedded/patterns/kgs-6d-flash.kpc`) is
/// what `kosumi patterns compact` makes of the committed model, and the
/// tool refuses a damaged model with a clear error.
#[test]
fn the_firmwares_pattern_table_is_the_compact_form_of_its_model() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("flash.kpc");
    let model = root.join("models/kgs-6d-flash.kpm");
    let o = kosumi(&[
        "patterns",
        "compact",
        model.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("3649 patterns up to size 10"));
    let committed = fs::read(root.join("embedded/patterns/kgs-6d-flash.kpc")).unwrap();
    assert!(
        fs::read(&out).unwrap() == committed,
        "the committed table is stale"
    );
    let mut bytes = fs::read(&model).unwrap();
    bytes.truncate(bytes.len() - 1);
    let damaged = dir.path().join("damaged.kpm");
    fs::write(&damaged, &bytes).unwrap();
    let o = kosumi(&[
        "patterns",
        "compact",
        damaged.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("truncated"));
}
