//! `kosumi bench owl` and `kosumi bench connect`: life-and-death and
//! connection questions over a professional game, with and without the
//! tactical cache. The answers must agree (the readers' results do not
//! depend on the cache), and bad arguments are refused with a message.

use std::process::Command;

const GAME: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/data/games/goban/Hon-95-1.sgf"
);

/// Run `kosumi bench <kind>` with `args`.
fn bench(kind: &str, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_kosumi"))
        .args(["bench", kind])
        .args(args)
        .output()
        .unwrap()
}

/// Run `kosumi bench <kind>` before moves 71, 141 and 211 of the game at
/// `nodes` a question; check it succeeds, asks in three positions, asks
/// questions in pairs and answers them alike with and without the cache;
/// return its JSON report and its number of questions.
fn over_the_game(kind: &str, nodes: &str) -> (serde_json::Value, u64) {
    let out = bench(kind, &[GAME, "--every", "70", "--nodes", nodes, "--json"]);
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
    assert!(questions.is_multiple_of(2), "{v}");
    assert_eq!(v["same_answers"].as_u64().unwrap(), questions, "{v}");
    (v, questions)
}

#[test]
fn owl_answers_over_a_game_agree_with_and_without_the_cache() {
    let (v, questions) = over_the_game("owl", "2000");
    assert!(questions >= 20, "{v}");
    assert_eq!(v["cache_probes"].as_u64().unwrap(), questions, "{v}");
    // Most chains of a professional game live; some can be killed.
    let chains = questions / 2;
    assert!(v["can_live"].as_u64().unwrap() > chains / 2, "{v}");
    assert!(v["killable"].as_u64().unwrap() < chains, "{v}");
}

#[test]
fn owl_refuses_bad_arguments_with_a_message() {
    let out = bench("owl", &[GAME, "--every", "0"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--every"));
    let out = bench("owl", &["/nonexistent/game.sgf"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/game.sgf"));
}

#[test]
fn connection_answers_over_a_game_agree_with_and_without_the_cache() {
    let (v, questions) = over_the_game("connect", "500");
    assert!(questions >= 40, "{v}");
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
fn connect_refuses_bad_arguments_with_a_message() {
    let out = bench("connect", &[GAME, "--every", "0"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--every"));
    let out = bench("connect", &[GAME, "--cache-mb", "0"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--cache-mb"));
}
