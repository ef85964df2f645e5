//! `kosumi-db serve`: the page and its JSON API over HTTP; a search there
//! finds what `db search` finds; bad requests get 400 and the server goes
//! on. (The page itself is driven in a real browser by `web/test/db.mjs`.)

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};

use serde_json::Value;

/// The server, stopped when dropped.
struct Served {
    child: Child,
    addr: String,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(db: &Path) -> Served {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kosumi-db"))
        .args(["serve", db.to_str().unwrap(), "--addr", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    Served { child, addr }
}

/// GET `path`; return the status and the body.
fn get(addr: &str, path: &str) -> (u16, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    write!(s, "GET {path} HTTP/1.0\r\nHost: {addr}\r\n\r\n").unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    (status, body.to_string())
}

#[test]
fn the_server_answers_as_db_search_does() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("games.db");
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/games");
    let o = Command::new(env!("CARGO_BIN_EXE_kosumi-db"))
        .args([
            "build",
            data.to_str().unwrap(),
            "--out",
            db.to_str().unwrap(),
            "--quiet",
        ])
        .output()
        .unwrap();
    assert!(o.status.success());
    let s = serve(&db);

    let (status, page) = get(&s.addr, "/");
    assert_eq!(status, 200);
    assert!(page.contains("<svg id=\"board\""));
    assert_eq!(get(&s.addr, "/app.js").0, 200);

    // Black Q16, white D4: the server against `db search --position`.
    let mut q = vec![b'.'; 361];
    q[3 * 19 + 15] = b'X';
    q[15 * 19 + 3] = b'O';
    let q = String::from_utf8(q).unwrap();
    let (status, body) = get(&s.addr, &format!("/api/search?q={q}"));
    assert_eq!(status, 200, "{body}");
    let served: Value = serde_json::from_str(&body).unwrap();
    let sgf = tmp.path().join("q.sgf");
    std::fs::write(&sgf, "(;GM[1]FF[4]SZ[19];B[pd];W[dp])").unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_kosumi-db"))
        .args([
            "search",
            db.to_str().unwrap(),
            "--position",
            sgf.to_str().unwrap(),
            "--json",
        ])
        .output()
        .unwrap();
    let cli: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(served["games_matched"].as_u64().unwrap() > 5);
    for key in ["games_matched", "positions_matched", "continuations"] {
        assert_eq!(served[key], cli[key], "{key}");
    }
    // Each listed game links to its record.
    let link = served["games"][0]["sgf"].as_str().unwrap().to_string();
    let (status, record) = get(&s.addr, &link);
    assert_eq!(status, 200);
    assert!(record.contains("SZ[19]"));

    // A region: the upper right quarter as a pattern at its place.
    // (commas as a browser sends them)
    let (status, body) = get(&s.addr, &format!("/api/search?q={q}&region=10%2C0%2C18,8"));
    assert_eq!(status, 200, "{body}");
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["kind"], "pattern");
    assert!(v["games_matched"].as_u64().unwrap() >= served["games_matched"].as_u64().unwrap());
    // Its continuations are on the board, inside the region.
    for c in v["continuations"].as_array().unwrap() {
        let (x, y) = (c["x"].as_u64().unwrap(), c["y"].as_u64().unwrap());
        assert!((10..=18).contains(&x) && y <= 8, "{c}");
    }

    // Bad requests: a sentence and 400, and the server goes on.
    for bad in [
        "/api/search?q=XO",
        "/api/search?q=&region=1,2",
        "/api/search",
    ] {
        let (status, body) = get(&s.addr, bad);
        assert_eq!(status, 400, "{bad}: {body}");
        assert!(!body.is_empty());
    }
    assert_eq!(get(&s.addr, "/api/game/99999.sgf").0, 404);
    assert_eq!(get(&s.addr, "/nothing").0, 404);
    assert_eq!(get(&s.addr, "/").0, 200);
}
