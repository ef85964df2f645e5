//! `kosumi bench connect`: connection questions over a professional game,
//! with and without the tactical cache. The answers must agree (the
//! connector's results do not depend on the cache), and bad arguments are
//! refused with a message.

use std::process::Command;

const GAME: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/data/games/goban/Hon-95-1.sgf"
);

fn bench(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_kosumi"))
        .args(["bench", "connect"])
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn connection_answers_over_a_game_agree_with_and_without_the_cache() {
    let out = bench(&[GAME, "--every", "70", "--nodes", "500", "--json"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    // 220 moves: asked before moves 71, 141 and 211.
    assert_eq!(v["positions"], 3, "{v}");
    let questions = v["questions"].as_u64().unwrap();
    assert!(questions >= 40 && questions.is_multiple_of(2), "{v}");
    assert_eq!(v["same_answers"].as_u64().unwrap(), questions, "{v}");
    // Chains already joined are answered without a search or a probe.
    assert!(v["cache_probes"].as_u64().unwrap() <= questions, "{v}");
    // Near chains of a professional game are mostly connected; few of
    // them can be both joined and cut.
    let pairs = questions / 2;
    assert!(v["connectable"].as_u64().unwrap() > pairs / 2, "{v}");
    assert!(v["both"].as_u64().unwrap() < pairs / 2, "{v}");
    assert!(v["cached"]["read_nodes"].as_u64().unwrap() > 0, "{v}");
}

#[test]
fn bad_arguments_are_refused_with_a_message() {
    let out = bench(&[GAME, "--every", "0"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--every"));
    let out = bench(&[GAME, "--cache-mb", "0"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--cache-mb"));
}
