//! `kosumi patterns local`: learn the playouts' answers to the last move
//! ([`kosumi_core::playout::local`]) from game records. In every position
//! of the training games after a move on the board, each empty point next
//! to that move (its eight neighbours) where the side to move may play is
//! *offered*; the one the player chose is *taken*. A neighbourhood's
//! chance is `taken / (offered + SMOOTHING)`, so that shapes seen a few
//! times count for little. The figures are measured on the test games.

use std::path::PathBuf;
use std::time::Instant;

use rayon::prelude::*;

use kosumi_core::board::Board;
use kosumi_core::geometry::{Cell, Color, Point};
use kosumi_core::playout::local::{code_for, encode, LocalAnswers, BYTES, CODES};

use super::games::Part;
use super::replay::replay;
use super::train::{bar, game_records};
use kosumi_sgf::Record;

/// Arguments of `kosumi patterns local`.
#[derive(clap::Args, Debug)]
pub struct LocalArgs {
    /// SGF files, directories of them, or `.tar.gz` archives.
    #[arg(required = true)]
    pub games: Vec<PathBuf>,
    /// The table file to write.
    #[arg(long)]
    pub out: PathBuf,
    /// Training games to use at most (default: the whole training part).
    #[arg(long)]
    pub max_games: Option<usize>,
    /// Test games the figures are measured on, at most.
    #[arg(long, default_value_t = 1000)]
    pub test_games: usize,
    /// One game in SPLIT is a test game, never trained on (as in `train`).
    #[arg(long, default_value_t = 10)]
    pub split: u64,
    /// Seed of the order the training games are taken in.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Multiply every chance by this (at most 1 after): playouts may
    /// answer locally more often than strong players do.
    #[arg(long, default_value_t = 1.0)]
    pub scale: f64,
    /// No progress bars.
    #[arg(long)]
    pub quiet: bool,
}

/// Offers added to every neighbourhood's count: a shape taken once in
/// two offers gets 1/6, not 1/2.
pub const SMOOTHING: f64 = 4.0;

/// Games counted at a time (each thread's counts are 1 MiB).
const CHUNK: usize = 256;

/// Offers and takes of each neighbourhood code.
struct Counts {
    offered: Vec<u64>,
    taken: Vec<u64>,
}

impl Counts {
    fn new() -> Counts {
        Counts {
            offered: vec![0; CODES],
            taken: vec![0; CODES],
        }
    }

    fn add(mut self, o: Counts) -> Counts {
        for (a, b) in self.offered.iter_mut().zip(&o.offered) {
            *a += b;
        }
        for (a, b) in self.taken.iter_mut().zip(&o.taken) {
            *a += b;
        }
        self
    }
}

/// Call `at(points, codes, played)` for every position of `record` after
/// a move on the board: the empty points next to it where the side to move
/// may play, their codes, and the move played.
fn offers(record: &Record, mut at: impl FnMut(&[Point], &[u16], Point)) {
    let mut points = Vec::with_capacity(8);
    let mut codes = Vec::with_capacity(8);
    replay(record, |board: &mut Board, c: Color, played, _| {
        let Some(last) = board.last_move().filter(|m| !m.is_pass()) else {
            return;
        };
        let geo = board.geometry();
        points.clear();
        codes.clear();
        for q in geo.around(last) {
            if board.at(q) == Cell::Empty && board.is_playout_move(q, c) {
                points.push(q);
                codes.push(code_for(board, q, c));
            }
        }
        at(&points, &codes, played);
    });
}

/// Count the offers and takes of `records`.
fn count(records: &[Record], quiet: bool) -> Counts {
    let bar = bar(records.len() as u64, "games", quiet);
    let mut total = Counts::new();
    for chunk in records.chunks(CHUNK) {
        let part = chunk
            .par_iter()
            .fold(Counts::new, |mut counts, record| {
                offers(record, |points, codes, played| {
                    for &k in codes {
                        counts.offered[usize::from(k)] += 1;
                    }
                    if let Some(i) = points.iter().position(|&q| q == played) {
                        counts.taken[usize::from(codes[i])] += 1;
                    }
                });
                counts
            })
            .reduce(Counts::new, Counts::add);
        total = total.add(part);
        bar.inc(chunk.len() as u64);
    }
    bar.finish_and_clear();
    total
}

/// The chance of each code times `scale`, out of 255.
fn chances(counts: &Counts, scale: f64) -> Vec<u8> {
    counts
        .offered
        .iter()
        .zip(&counts.taken)
        .map(|(&offered, &taken)| {
            let p = scale * taken as f64 / (offered as f64 + SMOOTHING);
            (p * 255.0).round().clamp(0.0, 255.0) as u8
        })
        .collect()
}

/// What the table does on test games, summed over positions.
#[derive(Clone, Copy, Default)]
struct Figures {
    positions: f64,
    /// The player answered next to the last move.
    local: f64,
    /// The table answers at all (the chance that some point is accepted).
    answers: f64,
    /// The table answers at the point the player chose.
    same: f64,
}

impl Figures {
    fn add(mut self, o: Figures) -> Figures {
        self.positions += o.positions;
        self.local += o.local;
        self.answers += o.answers;
        self.same += o.same;
        self
    }
}

/// Measure `table` on `records`: the chances of answering and of
/// answering where the player did, with the policy's order (the points
/// around the last move in turn, each accepted at its chance) started at
/// each offered point alike (the policy starts at one of the eight
/// around, so this is close, not exact; its self-atari check is left out).
fn figures(records: &[Record], table: &LocalAnswers<'_>) -> Figures {
    records
        .par_iter()
        .fold(Figures::default, |mut f, record| {
            offers(record, |points, codes, played| {
                f.positions += 1.0;
                if points.contains(&played) {
                    f.local += 1.0;
                }
                // Offered points in the policy's order (neighbours, then
                // diagonals, as `offers` lists them).
                let p: Vec<f64> = codes
                    .iter()
                    .map(|&k| f64::from(table.chance(k)) / 255.0)
                    .collect();
                let n = p.len();
                if n == 0 {
                    return;
                }
                for start in 0..n {
                    let mut none = 1.0;
                    for k in 0..n {
                        let i = (start + k) % n;
                        if points[i] == played {
                            f.same += none * p[i] / n as f64;
                        }
                        none *= 1.0 - p[i];
                    }
                    f.answers += (1.0 - none) / n as f64;
                }
            });
            f
        })
        .reduce(Figures::default, Figures::add)
}

/// Run `kosumi patterns local`.
///
/// # Errors
/// Unreadable games, no training position, or the file not written.
pub fn run(args: &LocalArgs) -> Result<(), String> {
    let start = Instant::now();
    let records = game_records(
        &args.games,
        Part::Train,
        args.split,
        Some(args.seed),
        args.max_games,
    )?;
    let counts = count(&records, args.quiet);
    let offered: u64 = counts.offered.iter().sum();
    if offered == 0 {
        return Err("no position with a move on the board in these games".into());
    }
    let taken: u64 = counts.taken.iter().sum();
    let chances = chances(&counts, args.scale);
    let mut bytes = vec![0u8; BYTES];
    encode(
        chances.as_slice().try_into().map_err(|_| "codes")?,
        bytes.as_mut_slice().try_into().map_err(|_| "bytes")?,
    );
    let table = LocalAnswers::parse(&bytes)
        .map_err(|e| format!("the written table does not read back: {e}"))?;
    println!(
        "kosumi patterns local: {} training games, {offered} points offered next to the last move, {taken} taken, {} neighbourhoods seen",
        records.len(),
        counts.offered.iter().filter(|&&n| n > 0).count(),
    );
    let tests = game_records(
        &args.games,
        Part::Test,
        args.split,
        None,
        Some(args.test_games),
    )?;
    let f = figures(&tests, &table);
    if f.positions > 0.0 {
        println!(
            "  {} test games, {} positions: the player answered next to the last move {:.1}%; the table answers {:.1}%, at the player's point {:.1}% ({:.1}% of the local answers)",
            tests.len(),
            f.positions,
            100.0 * f.local / f.positions,
            100.0 * f.answers / f.positions,
            100.0 * f.same / f.positions,
            100.0 * f.same / f.local.max(1.0),
        );
        // The hand-made shapes as a table: every matching point always.
        let mut shapes = [0u8; CODES];
        for (code, chance) in shapes.iter_mut().enumerate() {
            if kosumi_core::shape::PATTERNS[code >> 6] >> (code & 63) & 1 == 1 {
                *chance = 255;
            }
        }
        let mut shape_bytes = vec![0u8; BYTES];
        encode(
            &shapes,
            shape_bytes.as_mut_slice().try_into().map_err(|_| "bytes")?,
        );
        let hand = LocalAnswers::parse(&shape_bytes).map_err(|e| e.to_string())?;
        let h = figures(&tests, &hand);
        println!(
            "  the hand-made shapes (kosumi_core::shape) answer {:.1}%, at the player's point {:.1}% ({:.1}% of the local answers)",
            100.0 * h.answers / h.positions,
            100.0 * h.same / h.positions,
            100.0 * h.same / h.local.max(1.0),
        );
    }
    kosumi::atomic::write(&args.out, &bytes)?;
    println!(
        "  wrote {} ({} bytes) in {:.1} s",
        args.out.display(),
        bytes.len(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same games give the same table, and a shape always answered
    /// gets a high chance, one never answered none.
    #[test]
    fn chances_are_counts_smoothed() {
        let mut counts = Counts::new();
        counts.offered[7] = 100;
        counts.taken[7] = 100;
        counts.offered[9] = 100;
        let c = chances(&counts, 1.0);
        assert_eq!(c[9], 0);
        assert_eq!(c[7], (100.0 / 104.0 * 255.0f64).round() as u8);
        assert_eq!(c[0], 0, "never offered");
    }
}
