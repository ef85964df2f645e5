//! kosumi in the browser: the page (`web/`) with the engine built for
//! WebAssembly (`wasm/`, by `web/build.sh`) plays a complete 9x9 game in
//! a real Chromium, and its analysis draws its overlay
//! (`web/test/play.mjs`: every engine move checked against the page's own
//! record and replayed once more, the final score shown; the saved SGF
//! loaded back, a handicap record loaded and bad records refused; a
//! position counted by hand scored with its dead stones marked;
//! screenshots in `web/test/screenshots/`).
//!
//! Needs Node.js (Debian `nodejs`), Chromium (Debian `chromium`; the test
//! drives the system browser, it never downloads one), `npm ci` in
//! `web/test` (npm `playwright-core`), npm for `web/build.sh`'s SGF
//! reader and the `wasm32-unknown-unknown` target. With `CI` set a missing tool fails the test naming what to
//! install; elsewhere the test says what it skipped.

use std::process::{Command, Stdio};

use kosumi_tests::{have, missing, workspace};

/// The browser the page runs in (`KOSUMI_CHROMIUM` or Debian's).
fn chromium() -> String {
    std::env::var("KOSUMI_CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into())
}

/// Return whether Node.js, Chromium and playwright-core are there.
fn have_browser_tools() -> bool {
    if !have("node", &["--version"], "the Debian package nodejs")
        || !have(&chromium(), &["--version"], "the Debian package chromium")
    {
        return false;
    }
    let module = workspace().join("web/test/node_modules/playwright-core");
    if !module.exists() {
        missing("playwright-core is missing: run `npm ci` in web/test (Debian package npm)");
        return false;
    }
    true
}

/// Build the engine for the browser into `web/kosumi.wasm`.
fn build_wasm() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new("bash")
        .arg(workspace().join("web/build.sh"))
        .env("CARGO", cargo)
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("CARGO_BUILD_TARGET")
        .env_remove("RUSTFLAGS")
        .status()
        .expect("run web/build.sh");
    assert!(
        status.success(),
        "web/build.sh failed: the WebAssembly engine (rustup target add wasm32-unknown-unknown) or the SGF reader (npm, Debian package npm)"
    );
}

#[test]
fn the_page_plays_a_game_and_analyses_in_chromium() {
    if !have_browser_tools() {
        return;
    }
    build_wasm();
    let out = Command::new("node")
        .arg(workspace().join("web/test/play.mjs"))
        .env("KOSUMI_CHROMIUM", chromium())
        .output()
        .expect("run node web/test/play.mjs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("{stdout}");
    assert!(
        out.status.success(),
        "the browser test failed:\n{stdout}\n{stderr}"
    );
    assert!(
        stdout.contains("game over:"),
        "no game was played:\n{stdout}"
    );
    assert!(
        stdout.contains("analysis:"),
        "no analysis was run:\n{stdout}"
    );
    assert!(
        stdout.contains("dead stones:"),
        "no position was scored:\n{stdout}"
    );
}

/// The server, stopped when dropped.
struct Served(std::process::Child);

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `kosumi db serve`'s page in Chromium (`web/test/db.mjs`): stones placed
/// by clicks, a whole-board search, the continuations on the board and in
/// the table, the games with links to their SGF, then a region searched
/// as a pattern.
#[test]
fn the_database_page_searches_in_chromium() {
    use std::io::BufRead;
    if !have_browser_tools() {
        return;
    }
    let tool = kosumi_tests::build_tool("kosumi-db", "kosumi-db");
    let tmp = std::env::temp_dir().join(format!("kosumi-web-db-{}", std::process::id()));
    let db = tmp.join("games.db");
    let games = workspace().join("tests/data/games");
    let built = Command::new(&tool)
        .args([
            "build",
            games.to_str().unwrap(),
            "--out",
            db.to_str().unwrap(),
            "--quiet",
        ])
        .status()
        .expect("run kosumi-db build");
    assert!(built.success());
    let mut child = Command::new(&tool)
        .args(["serve", db.to_str().unwrap(), "--addr", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("run kosumi-db serve");
    let stdout = child.stdout.take().expect("stdout");
    let served = Served(child);
    let mut line = String::new();
    std::io::BufReader::new(stdout)
        .read_line(&mut line)
        .unwrap();
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    let out = Command::new("node")
        .arg(workspace().join("web/test/db.mjs"))
        .arg(&url)
        .env("KOSUMI_CHROMIUM", chromium())
        .output()
        .expect("run node web/test/db.mjs");
    drop(served);
    let _ = std::fs::remove_dir_all(&tmp);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "the database page test failed:\n{stdout}\n{stderr}"
    );
    assert!(stdout.contains("pattern search:"), "{stdout}");
}
