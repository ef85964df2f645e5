//! `kosumi bench db DB`: time searches drawn from the database itself.
//!
//! A fixed seed picks the queries, so two runs on the same database time
//! the same searches:
//! - positions: a random game, a random move, a random symmetry of it;
//! - corner patterns: the 7x7 corner of a random game after move 20..150
//!   (a random corner, turned to the top left), at least 5 stones,
//!   `--anchor corner`;
//! - centre patterns: a 5x5 window not touching the edge, after move
//!   30..150, at least 4 stones, `--anchor anywhere`;
//! - edge patterns: a 7x5 window on the top edge of a random orientation,
//!   after move 20..150, at least 4 stones, `--anchor edge`.
//!
//! Every search uses all 8 symmetries and computes the continuations, as
//! `db search` does. Times exclude opening the database (reported apart).
//!
//! `--export-queries DIR` writes the drawn queries as `db search --pattern`
//! files (a position as a 19x19 grid with anchor `corner`) and a
//! `queries.json` list with each query's anchor and kosumi's result, so a
//! peer (Kombilo, `tools/kombilo_bench.py`) can run the same searches.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args as ClapArgs;
use kosumi_core::rng::{self, Rng};
use serde_json::json;

use kosumi_db::pattern::{self, Anchor, Pattern, B, E, W};
use kosumi_db::record;
use kosumi_db::search;
use kosumi_db::store::Db;
use kosumi_db::symmetry::{transform, N, POINTS};

/// Arguments of `bench db`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// The database directory.
    pub db: PathBuf,
    /// Position queries.
    #[arg(long, default_value_t = 200)]
    pub positions: usize,
    /// Queries of each pattern kind.
    #[arg(long, default_value_t = 10)]
    pub patterns: usize,
    /// Seed of the query choice.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Write the queries and kosumi's per-query results to this directory.
    #[arg(long)]
    pub export_queries: Option<PathBuf>,
}

/// The query set of one seed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Queries {
    /// Full-board positions (0 empty, 1 black, 2 white).
    pub positions: Vec<[u8; POINTS]>,
    /// 7x7 corner patterns, anchor `corner`.
    pub corner: Vec<Pattern>,
    /// 5x5 centre patterns, anchor `anywhere`.
    pub centre: Vec<Pattern>,
    /// 7x5 edge patterns, anchor `edge`.
    pub edge: Vec<Pattern>,
}

/// What one query found and how long it took.
#[derive(Copy, Clone, Debug, Default)]
struct Outcome {
    ms: f64,
    games: usize,
    positions: u64,
}

/// Return the board of game `g` after `k` moves.
fn board(db: &Db, g: usize, k: u16) -> [u8; POINTS] {
    let mut ev = Vec::new();
    let _ = record::decode(db.stream(g), &mut ev);
    record::position_at(&ev, k)
}

/// Return a pattern cut out of a board: `w` x `h` at `(x0, y0)`, with its
/// stone count.
fn cut(b: &[u8; POINTS], x0: usize, y0: usize, w: usize, h: usize) -> (Pattern, usize) {
    let mut cells = Vec::with_capacity(w * h);
    let mut stones = 0;
    for y in y0..y0 + h {
        for x in x0..x0 + w {
            cells.push(match b[y * N + x] {
                1 => B,
                2 => W,
                _ => E,
            });
            stones += usize::from(b[y * N + x] != 0);
        }
    }
    (Pattern { w, h, cells }, stones)
}

/// Draw a pattern query, trying up to 200 times for enough stones.
fn draw(
    db: &Db,
    r: &mut Rng,
    moves: (u16, u16),
    shape: (usize, usize),
    min_stones: usize,
    place: impl Fn(&mut Rng) -> (usize, usize),
) -> Option<Pattern> {
    for _ in 0..200 {
        let g = rng::below(r, db.games() as u32) as usize;
        let n = db.moves(g);
        if n < moves.0 {
            continue;
        }
        let k = moves.0 + rng::below(r, u32::from(moves.1.min(n) - moves.0 + 1)) as u16;
        let t = rng::below(r, 8) as usize;
        let b = transform(&board(db, g, k), t);
        let (x0, y0) = place(r);
        let (p, stones) = cut(&b, x0, y0, shape.0, shape.1);
        if stones >= min_stones {
            return Some(p);
        }
    }
    None
}

/// Return (median, max) of times in ms.
fn summary(mut t: Vec<f64>) -> (f64, f64) {
    if t.is_empty() {
        return (0.0, 0.0);
    }
    t.sort_by(f64::total_cmp);
    (t[t.len() / 2], t[t.len() - 1])
}

/// Draw the query set of `seed`: `positions` positions and up to
/// `patterns` patterns of each kind.
pub fn draw_queries(db: &Db, seed: u64, positions: usize, patterns: usize) -> Queries {
    let mut r = rng::seeded(seed);
    let positions = (0..positions)
        .map(|_| {
            let g = rng::below(&mut r, db.games() as u32) as usize;
            let k = rng::below(&mut r, u32::from(db.moves(g)) + 1) as u16;
            transform(&board(db, g, k), rng::below(&mut r, 8) as usize)
        })
        .collect();
    // Pattern draws have their own stream: they do not depend on `positions`.
    let mut r = rng::seeded(seed ^ 0x7061_7474_6572_6e73);
    let n = patterns;
    let corner = (0..n)
        .filter_map(|_| draw(db, &mut r, (20, 150), (7, 7), 5, |_| (0, 0)))
        .collect();
    let centre = (0..n)
        .filter_map(|_| {
            draw(db, &mut r, (30, 150), (5, 5), 4, |r| {
                (
                    1 + rng::below(r, 13) as usize,
                    1 + rng::below(r, 13) as usize,
                )
            })
        })
        .collect();
    let edge = (0..n)
        .filter_map(|_| {
            draw(db, &mut r, (20, 150), (7, 5), 4, |r| {
                (rng::below(r, 13) as usize, 0)
            })
        })
        .collect();
    Queries {
        positions,
        corner,
        centre,
        edge,
    }
}

/// Time the position queries.
fn time_positions(db: &Db, queries: &[[u8; POINTS]]) -> Vec<Outcome> {
    let syms = pattern::symmetry_set(true);
    let mut out = Vec::new();
    for q in queries {
        let t = Instant::now();
        let mut stats = search::Stats::default();
        let hits = search::find_position(db, q, &syms, false, &mut stats);
        let _next = kosumi_db::output::tally(search::continuations(db, &hits).into_iter());
        let ms = t.elapsed().as_secs_f64() * 1e3;
        let mut games = hits.iter().map(|h| h.game).collect::<Vec<_>>();
        games.dedup();
        out.push(Outcome {
            ms,
            games: games.len(),
            positions: hits.len() as u64,
        });
    }
    out
}

/// Time one pattern kind.
fn time_patterns(db: &Db, pats: &[Pattern], anchor: Anchor) -> Vec<Outcome> {
    let syms = pattern::symmetry_set(true);
    let mut out = Vec::new();
    for p in pats {
        let t = Instant::now();
        let vars = pattern::variants(p, anchor, &syms, false);
        let found = pattern::find(db, p, &vars, None);
        let _next = kosumi_db::output::tally(pattern::continuations(db, &found).into_iter());
        let ms = t.elapsed().as_secs_f64() * 1e3;
        let positions = found
            .iter()
            .flat_map(|m| m.ranges.iter().map(|r| u64::from(r.1 - r.0) + 1))
            .sum();
        out.push(Outcome {
            ms,
            games: found.len(),
            positions,
        });
    }
    out
}

/// Return a board as a 19x19 pattern (every point constrained).
pub fn board_pattern(b: &[u8; POINTS]) -> Pattern {
    cut(b, 0, 0, N, N).0
}

#[cfg(test)]
/// Return the board a 19x19 pattern of `X`, `O` and `.` describes, or
/// `None` for another size or a looser cell.
pub fn pattern_board(p: &Pattern) -> Option<[u8; POINTS]> {
    if (p.w, p.h) != (N, N) {
        return None;
    }
    let mut b = [0u8; POINTS];
    for (v, &c) in b.iter_mut().zip(&p.cells) {
        *v = match c {
            B => 1,
            W => 2,
            E => 0,
            _ => return None,
        };
    }
    Some(b)
}

/// Return the file name, anchor name and text of every query, in the order
/// positions, corner, centre, edge.
fn query_files(q: &Queries) -> Vec<(String, &'static str, &'static str, String)> {
    let mut out = Vec::new();
    for (i, b) in q.positions.iter().enumerate() {
        let text = board_pattern(b).to_text();
        out.push((format!("position-{i:03}.txt"), "position", "corner", text));
    }
    for (kind, anchor, pats) in [
        ("corner", "corner", &q.corner),
        ("centre", "anywhere", &q.centre),
        ("edge", "edge", &q.edge),
    ] {
        for (i, p) in pats.iter().enumerate() {
            out.push((format!("{kind}-{i:02}.txt"), kind, anchor, p.to_text()));
        }
    }
    out
}

/// Write the queries and kosumi's outcomes (same order as [`query_files`])
/// to `dir`.
fn export(
    dir: &std::path::Path,
    q: &Queries,
    seed: u64,
    outcomes: &[Outcome],
) -> Result<(), String> {
    let err = |e: std::io::Error| format!("{}: {e}", dir.display());
    std::fs::create_dir_all(dir).map_err(err)?;
    let mut list = Vec::new();
    for ((file, kind, anchor, text), o) in query_files(q).into_iter().zip(outcomes) {
        let head = format!("# kosumi bench db --seed {seed}: {kind}, anchor {anchor}\n");
        std::fs::write(dir.join(&file), head + &text).map_err(err)?;
        list.push(json!({
            "file": file, "kind": kind, "anchor": anchor,
            "kosumi_ms": o.ms, "kosumi_games": o.games, "kosumi_positions": o.positions,
        }));
    }
    let manifest = json!({
        "seed": seed,
        "symmetries": "all",
        "swap_colours": false,
        "queries": list,
    });
    std::fs::write(dir.join("queries.json"), format!("{manifest:#}\n")).map_err(err)
}

#[cfg(test)]
/// Read back the queries [`export`] wrote to `dir`.
///
/// # Errors
/// A message for a missing file or a query that does not parse.
pub fn import(dir: &std::path::Path) -> Result<Queries, String> {
    let read = |f: &str| {
        let p = dir.join(f);
        std::fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))
    };
    let manifest: serde_json::Value =
        serde_json::from_str(&read("queries.json")?).map_err(|e| e.to_string())?;
    let mut q = Queries {
        positions: Vec::new(),
        corner: Vec::new(),
        centre: Vec::new(),
        edge: Vec::new(),
    };
    for e in manifest["queries"]
        .as_array()
        .ok_or("queries.json: no query list")?
    {
        let file = e["file"]
            .as_str()
            .ok_or("queries.json: a query without file")?;
        let p = Pattern::parse(&read(file)?).map_err(|m| format!("{file}: {m}"))?;
        match e["kind"].as_str() {
            Some("position") => q
                .positions
                .push(pattern_board(&p).ok_or_else(|| format!("{file}: not a 19x19 board"))?),
            Some("corner") => q.corner.push(p),
            Some("centre") => q.centre.push(p),
            Some("edge") => q.edge.push(p),
            k => return Err(format!("{file}: unknown kind {k:?}")),
        }
    }
    Ok(q)
}

/// Run the benchmark.
///
/// # Errors
/// A message for a missing or damaged database, or an export that cannot
/// be written.
pub fn run(a: &Args) -> Result<(), String> {
    let t = Instant::now();
    let db = Db::open(&a.db).map_err(|e| e.to_string())?;
    let open_ms = t.elapsed().as_secs_f64() * 1e3;
    if db.games() == 0 {
        return Err("the database holds no games".into());
    }
    let q = draw_queries(&db, a.seed, a.positions, a.patterns);
    let po = time_positions(&db, &q.positions);
    let co = time_patterns(&db, &q.corner, Anchor::Corner);
    let no = time_patterns(&db, &q.centre, Anchor::Anywhere);
    let eo = time_patterns(&db, &q.edge, Anchor::Edge);
    if let Some(dir) = &a.export_queries {
        let all: Vec<Outcome> = [&po, &co, &no, &eo]
            .into_iter()
            .flatten()
            .copied()
            .collect();
        export(dir, &q, a.seed, &all)?;
    }
    let times = |o: &[Outcome]| summary(o.iter().map(|o| o.ms).collect());
    let games = |o: &[Outcome]| o.iter().map(|o| o.games).collect::<Vec<_>>();
    let pos_hits: u64 = po.iter().map(|o| o.positions).sum();
    let (pm, px) = times(&po);
    let (cm, cx) = times(&co);
    let (nm, nx) = times(&no);
    let (em, ex) = times(&eo);
    let (cg, ng, eg) = (games(&co), games(&no), games(&eo));
    let out = json!({
        "games": db.games(),
        "positions": db.positions(),
        "db_bytes": db.bytes(),
        "open_ms": open_ms,
        "threads": rayon::current_num_threads(),
        "seed": a.seed,
        "position_queries": a.positions,
        "position_ms_median": pm,
        "position_ms_max": px,
        "position_hits": pos_hits,
        "corner_patterns": q.corner.len(),
        "corner_pattern_ms_median": cm,
        "corner_pattern_ms_max": cx,
        "corner_pattern_games": cg,
        "center_patterns": q.centre.len(),
        "center_pattern_ms_median": nm,
        "center_pattern_ms_max": nx,
        "center_pattern_games": ng,
        "edge_patterns": q.edge.len(),
        "edge_pattern_ms_median": em,
        "edge_pattern_ms_max": ex,
        "edge_pattern_games": eg,
    });
    if a.json {
        println!("{out}");
        return Ok(());
    }
    println!(
        "database: {} games, {} positions, {:.1} MB (opened and checked in {open_ms:.0} ms)",
        db.games(),
        db.positions(),
        db.bytes() as f64 / 1e6
    );
    println!("threads: {}", rayon::current_num_threads());
    println!(
        "full-board position ({} queries): median {pm:.3} ms, max {px:.3} ms, {pos_hits} hits",
        a.positions
    );
    println!(
        "7x7 corner pattern ({}): median {cm:.1} ms, max {cx:.1} ms, games {cg:?}",
        q.corner.len()
    );
    println!(
        "5x5 centre pattern anywhere ({}): median {nm:.1} ms, max {nx:.1} ms, games {ng:?}",
        q.centre.len()
    );
    println!(
        "7x5 edge pattern ({}): median {em:.1} ms, max {ex:.1} ms, games {eg:?}",
        q.edge.len()
    );
    if let Some(dir) = &a.export_queries {
        println!("queries written to {}", dir.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exported_queries_read_back_equal() {
        let mut r = rng::seeded(7);
        let mut board = || {
            let mut b = [0u8; POINTS];
            for v in &mut b {
                *v = rng::below(&mut r, 3) as u8;
            }
            b
        };
        let empty = [0u8; POINTS];
        let (b1, b2) = (board(), board());
        let cut7 = cut(&b1, 0, 0, 7, 7).0;
        let q = Queries {
            positions: vec![b1, empty, b2],
            corner: vec![cut7, Pattern::parse("X*\nxo").unwrap()],
            centre: vec![cut(&b2, 3, 4, 5, 5).0],
            edge: vec![cut(&b2, 6, 0, 7, 5).0],
        };
        let dir = tempfile::tempdir().unwrap();
        let outcomes = vec![Outcome::default(); 7];
        export(dir.path(), &q, 1, &outcomes).unwrap();
        assert_eq!(import(dir.path()).unwrap(), q);
        let text = std::fs::read_to_string(dir.path().join("position-001.txt")).unwrap();
        assert_eq!(text.lines().filter(|l| *l == ".".repeat(19)).count(), 19);
        // A damaged file is refused, not read as another query.
        std::fs::write(dir.path().join("edge-00.txt"), "XQ\n").unwrap();
        assert!(import(dir.path()).unwrap_err().contains("edge-00.txt"));
    }
}
