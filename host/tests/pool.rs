//! `kosumi pool`: the firmware's engine (the core's pool engine with the
//! small engine's choices) as a GTP engine on the host, driven through
//! stdin/stdout pipes.

mod common;

use common::Gtp;

/// The firmware's opening book, in the workspace.
fn book() -> String {
    format!("{}/../embedded/book/9x9.kob", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn the_pool_engine_plays_a_game_from_its_book_and_refuses_bad_input() {
    let book = book();
    let mut gtp = Gtp::start(&["pool", "--book", &book, "--playouts", "200", "--seed", "3"]);
    assert_eq!(gtp.ok("name"), "kosumi");
    assert_eq!(gtp.ok("known_command kosumi-playouts"), "true");
    gtp.ok("boardsize 9");
    gtp.ok("clear_board");
    gtp.ok("komi 7");
    // The book's first move, then searched moves, all legal.
    let first = gtp.ok("genmove b");
    assert_eq!(first, "E5", "the book's first move");
    for c in ["w", "b", "w", "b", "w"] {
        let mv = gtp.ok(&format!("genmove {c}"));
        assert!(
            mv.len() >= 2 && mv.as_bytes()[0].is_ascii_uppercase(),
            "{c}: {mv}"
        );
    }
    assert!(gtp.err("play b E5").contains("illegal"));
    assert!(!gtp.err("genmove purple").is_empty());
    assert!(gtp.err("kosumi-playouts 0").contains("syntax"));
    gtp.ok("kosumi-playouts 100");
    gtp.ok("genmove b");
    assert!(!gtp.ok("final_score").is_empty());
    gtp.quit();
}

#[test]
fn the_pool_engine_refuses_bad_options_with_their_reason() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kosumi"))
        .args(["pool", "--table-clusters", "48"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--table-clusters 48: a power of two"), "{err}");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kosumi"))
        .args(["pool", "--book", "/nonexistent/book.kob"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/book.kob"));
}
