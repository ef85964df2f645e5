//! `kosumi db serve`: the database behind a page in the browser, on a
//! local HTTP server (`tiny_http`), one request at a time.
//!
//! | path | answer |
//! |---|---|
//! | `/` | the page (`web/index.html`, `web/app.js`, built into the binary) |
//! | `/api/info` | the database's size and build parameters (JSON) |
//! | `/api/search?q=...&region=x0,y0,x1,y1&swap=1` | a search (JSON): `q` is the board, 361 characters `.`, `X` (black), `O` (white), row by row from the top left; without a region (or with the whole board) the position, with one the stones inside it as a pattern at that place, in all eight symmetries |
//! | `/api/game/N.sgf` | the record game `N` was read from |
//!
//! A bad request gets `400` and a sentence; the server never stops on one.

use std::io::Cursor;
use std::path::Path;

use serde_json::{json, Value};
use tiny_http::{Header, Response, Server};

use crate::output;
use crate::pattern::{self, Pattern, B, E, W};
use crate::search;
use crate::store::Db;
use crate::symmetry::{N, POINTS};

/// Games a search lists at most.
const LISTED: usize = 100;

/// Serve `db` on `addr` (e.g. `127.0.0.1:8080`, port 0 for any) until the
/// process ends; print the address first.
///
/// # Errors
/// A message when the address cannot be bound.
pub fn serve(db: &Db, addr: &str) -> Result<(), String> {
    let server = Server::http(addr).map_err(|e| format!("{addr}: {e}"))?;
    let at = server
        .server_addr()
        .to_ip()
        .map_or_else(|| addr.to_string(), |a| a.to_string());
    println!("serving {} games on http://{at}/", db.games());
    use std::io::Write as _;
    let _ = std::io::stdout().flush();
    for request in server.incoming_requests() {
        let url = request.url().to_string();
        let (status, kind, body) = answer(db, &url);
        let header = Header::from_bytes("Content-Type", kind).map_err(|()| "bad header")?;
        let response = Response::new(
            status.into(),
            vec![header],
            Cursor::new(body.clone()),
            Some(body.len()),
            None,
        );
        let _ = request.respond(response);
    }
    Ok(())
}

/// Return the status, content type and body for `url`.
fn answer(db: &Db, url: &str) -> (u16, &'static str, Vec<u8>) {
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    let text = |status, body: String| (status, "text/plain; charset=utf-8", body.into_bytes());
    let json = |v: Value| (200, "application/json", v.to_string().into_bytes());
    match path {
        "/" | "/index.html" => (200, "text/html; charset=utf-8", PAGE.as_bytes().to_vec()),
        "/app.js" => (200, "text/javascript", APP.as_bytes().to_vec()),
        "/api/info" => {
            json(json!({"games": db.games(), "positions": db.positions(), "build": db.meta()}))
        }
        "/api/search" => match search(db, query) {
            Ok(v) => json(v),
            Err(e) => text(400, e),
        },
        _ => match path
            .strip_prefix("/api/game/")
            .and_then(|g| g.strip_suffix(".sgf"))
            .and_then(|g| g.parse::<usize>().ok())
            .filter(|&g| g < db.games())
        {
            Some(g) => match std::fs::read(&db.info(g).file) {
                Ok(bytes) => (200, "application/x-go-sgf", bytes),
                Err(e) => text(404, format!("{}: {e}", db.info(g).file)),
            },
            None => text(404, format!("{path}: no such page")),
        },
    }
}

/// Return the value of `key` in a query string, percent-decoded (`%2C`
/// is a comma, `+` a space, as browsers send them).
fn param(query: &str, key: &str) -> Option<String> {
    let raw = query
        .split('&')
        .filter_map(|kv| kv.split_once('='))
        .find(|(k, _)| *k == key)
        .map(|(_, v)| v)?;
    let b = raw.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = b
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok());
        match (b[i], hex.and_then(|h| u8::from_str_radix(h, 16).ok())) {
            (b'%', Some(v)) => {
                out.push(v);
                i += 3;
            }
            (b'+', _) => {
                out.push(b' ');
                i += 1;
            }
            (c, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    Some(String::from_utf8_lossy(&out).into_owned())
}

/// Run the search a query string asks for.
fn search(db: &Db, query: &str) -> Result<Value, String> {
    let board = param(query, "q").ok_or("no board (q=...)")?;
    let cells: Vec<u8> = board
        .bytes()
        .map(|c| match c {
            b'.' | b'-' => Ok(0),
            b'X' | b'x' | b'B' | b'b' => Ok(1),
            b'O' | b'o' | b'W' | b'w' => Ok(2),
            _ => Err(format!("q: {:?} is no point (. X O)", c as char)),
        })
        .collect::<Result<_, _>>()?;
    let cells: [u8; POINTS] = cells
        .try_into()
        .map_err(|v: Vec<u8>| format!("q: {} points, not {POINTS}", v.len()))?;
    let swap = param(query, "swap").as_deref() == Some("1");
    let region = match param(query, "region").as_deref() {
        None | Some("") => None,
        Some(r) => {
            let v: Vec<usize> = r
                .split(',')
                .map(|n| n.parse::<usize>().map_err(|_| format!("region: {r}")))
                .collect::<Result<_, _>>()?;
            match v[..] {
                [x0, y0, x1, y1] if x0 <= x1 && y0 <= y1 && x1 < N && y1 < N => {
                    Some((x0, y0, x1, y1))
                }
                _ => return Err(format!("region: {r}: x0,y0,x1,y1 on the board")),
            }
        }
    };
    let syms = pattern::symmetry_set(true);
    let t = std::time::Instant::now();
    let (games, positions, mut next, whole) = match region {
        None | Some((0, 0, 18, 18)) => {
            let mut stats = search::Stats::default();
            let hits = search::find_position(db, &cells, &syms, swap, &mut stats);
            let next = output::tally(search::continuations(db, &hits).into_iter());
            let mut games: Vec<usize> = hits.iter().map(|h| h.game).collect();
            games.dedup();
            (games, hits.len() as u64, next, true)
        }
        Some((x0, y0, x1, y1)) => {
            let (w, h) = (x1 - x0 + 1, y1 - y0 + 1);
            let pat = Pattern {
                w,
                h,
                cells: (0..w * h)
                    .map(|i| match cells[(y0 + i / w) * N + x0 + i % w] {
                        1 => B,
                        2 => W,
                        _ => E,
                    })
                    .collect(),
            };
            let vars = pattern::variants_at(&pat, &[(x0, y0)], &syms, swap);
            let found = pattern::find(db, &pat, &vars, None);
            let mut next = output::tally(pattern::continuations(db, &found).into_iter());
            // Continuations in board coordinates.
            for s in &mut next {
                s.at = s.at.map(|(x, y)| (x + x0 as u8, y + y0 as u8));
            }
            let positions = found
                .iter()
                .flat_map(|m| m.ranges.iter().map(|r| u64::from(r.1 - r.0) + 1))
                .sum();
            (
                found.iter().map(|m| m.game).collect(),
                positions,
                next,
                false,
            )
        }
    };
    next.truncate(60);
    let ms = t.elapsed().as_secs_f64() * 1e3;
    let list: Vec<Value> = games
        .iter()
        .take(LISTED)
        .map(|&g| output::game_json(db, g, json!({"sgf": format!("/api/game/{g}.sgf")})))
        .collect();
    Ok(json!({
        "kind": if whole { "position" } else { "pattern" },
        "games_matched": games.len(),
        "positions_matched": positions,
        "ms": ms,
        "continuations": output::next_json(&next, true),
        "games": list,
        "truncated": games.len() > LISTED,
    }))
}

/// The page.
const PAGE: &str = include_str!("../web/index.html");
/// The page's script.
const APP: &str = include_str!("../web/app.js");

/// Open `db` and serve it (the `db serve` command).
///
/// # Errors
/// A message for a database that cannot be opened or an address that
/// cannot be bound.
pub fn run(db: &Path, addr: &str) -> Result<(), String> {
    let db = Db::open(db).map_err(|e| e.to_string())?;
    serve(&db, addr)
}
