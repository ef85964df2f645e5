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

use std::path::PathBuf;
use std::time::Instant;

use clap::Args as ClapArgs;
use kosumi_core::rng::{self, Rng};
use serde_json::json;

use crate::db::pattern::{self, Anchor, Pattern, B, E, W};
use crate::db::record;
use crate::db::search;
use crate::db::store::Db;
use crate::db::symmetry::{transform, N, POINTS};

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

/// Time one pattern kind; return times and matched games.
fn time_patterns(db: &Db, pats: &[Pattern], anchor: Anchor) -> (Vec<f64>, Vec<usize>) {
    let syms = pattern::symmetry_set(true);
    let (mut times, mut games) = (Vec::new(), Vec::new());
    for p in pats {
        let t = Instant::now();
        let vars = pattern::variants(p, anchor, &syms, false);
        let found = pattern::search(db, &vars);
        let _next = crate::db::output::tally(
            found
                .iter()
                .flat_map(|m| m.next.iter().map(|n| (Some(n.at), n.colour, n.winner))),
        );
        times.push(t.elapsed().as_secs_f64() * 1e3);
        games.push(found.len());
    }
    (times, games)
}

/// Run the benchmark.
///
/// # Errors
/// A message for a missing or damaged database.
pub fn run(a: &Args) -> Result<(), String> {
    let t = Instant::now();
    let db = Db::open(&a.db).map_err(|e| e.to_string())?;
    let open_ms = t.elapsed().as_secs_f64() * 1e3;
    if db.games() == 0 {
        return Err("the database holds no games".into());
    }
    let mut r = rng::seeded(a.seed);
    let syms = pattern::symmetry_set(true);

    let mut pos_times = Vec::new();
    let mut pos_hits = 0usize;
    for _ in 0..a.positions {
        let g = rng::below(&mut r, db.games() as u32) as usize;
        let k = rng::below(&mut r, u32::from(db.moves(g)) + 1) as u16;
        let q = transform(&board(&db, g, k), rng::below(&mut r, 8) as usize);
        let t = Instant::now();
        let mut stats = search::Stats::default();
        let hits = search::find_position(&db, &q, &syms, false, &mut stats);
        let _next = crate::db::output::tally(hits.iter().filter_map(|h| {
            let (c, p) = h.next?;
            Some((
                p.map(|p| ((p as usize % N) as u8, (p as usize / N) as u8)),
                c,
                h.winner,
            ))
        }));
        pos_times.push(t.elapsed().as_secs_f64() * 1e3);
        pos_hits += hits.len();
    }

    // Pattern draws have their own stream: they do not depend on --positions.
    let mut r = rng::seeded(a.seed ^ 0x7061_7474_6572_6e73);
    let n = a.patterns;
    let corner: Vec<Pattern> = (0..n)
        .filter_map(|_| draw(&db, &mut r, (20, 150), (7, 7), 5, |_| (0, 0)))
        .collect();
    let centre: Vec<Pattern> = (0..n)
        .filter_map(|_| {
            draw(&db, &mut r, (30, 150), (5, 5), 4, |r| {
                (
                    1 + rng::below(r, 13) as usize,
                    1 + rng::below(r, 13) as usize,
                )
            })
        })
        .collect();
    let edge: Vec<Pattern> = (0..n)
        .filter_map(|_| {
            draw(&db, &mut r, (20, 150), (7, 5), 4, |r| {
                (rng::below(r, 13) as usize, 0)
            })
        })
        .collect();
    let (ct, cg) = time_patterns(&db, &corner, Anchor::Corner);
    let (nt, ng) = time_patterns(&db, &centre, Anchor::Anywhere);
    let (et, eg) = time_patterns(&db, &edge, Anchor::Edge);
    let (pm, px) = summary(pos_times);
    let (cm, cx) = summary(ct);
    let (nm, nx) = summary(nt);
    let (em, ex) = summary(et);
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
        "corner_patterns": corner.len(),
        "corner_pattern_ms_median": cm,
        "corner_pattern_ms_max": cx,
        "corner_pattern_games": cg,
        "center_patterns": centre.len(),
        "center_pattern_ms_median": nm,
        "center_pattern_ms_max": nx,
        "center_pattern_games": ng,
        "edge_patterns": edge.len(),
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
        corner.len()
    );
    println!(
        "5x5 centre pattern anywhere ({}): median {nm:.1} ms, max {nx:.1} ms, games {ng:?}",
        centre.len()
    );
    println!(
        "7x5 edge pattern ({}): median {em:.1} ms, max {ex:.1} ms, games {eg:?}",
        edge.len()
    );
    Ok(())
}
