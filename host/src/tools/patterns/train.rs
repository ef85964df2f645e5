//! `kosumi patterns train`: learn a move-pattern model from game records.
//!
//! 1. Take the training games (all but the test part, see
//!    [`super::games`]), in an order shuffled by `--seed`, at most
//!    `--max-games` of them.
//! 2. Harvest the shapes played: the orientation-free hash of every size
//!    of every move's neighbourhood. Shapes played at least `--min-count`
//!    times become the model's patterns.
//! 3. Replay the games again: every candidate move of every position
//!    becomes its tactical feature values and its largest pattern, found
//!    through the core's own index (so training and play match moves the
//!    same way).
//! 4. Minorization-maximization ([`super::mm`]) and the model file, written
//!    atomically.

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use kosumi_core::pattern::feature::{self, GROUPS, NAMES, OFFSET, VALUES};
use kosumi_core::pattern::spatial::{Neighbourhood, MAX_SIZE, MIN_SIZE, SIZES};
use kosumi_core::pattern::{model, Model, Patterns, Slot};
use kosumi_core::rng;
use kosumi_core::tactics::Ladder;

use super::games::{self, GameText, Part};
use super::mm::{Cand, Data, Gammas, Position, NO_PATTERN};
use super::replay::{candidates, records, replay};
use kosumi_sgf::Record;

/// Arguments of `kosumi patterns train`.
#[derive(clap::Args, Debug)]
pub struct TrainArgs {
    /// SGF files, directories of them, or `.tar.gz` archives.
    #[arg(required = true)]
    pub games: Vec<PathBuf>,
    /// The model file to write.
    #[arg(long)]
    pub out: PathBuf,
    /// Training games to use at most (default: the whole training part).
    #[arg(long)]
    pub max_games: Option<usize>,
    /// One game in SPLIT is a test game, never trained on (by a hash of its
    /// file name; `kosumi patterns test` uses the same rule).
    #[arg(long, default_value_t = 10)]
    pub split: u64,
    /// Shapes played fewer times are not patterns of the model.
    #[arg(long, default_value_t = 10)]
    pub min_count: u32,
    /// Rounds of minorization-maximization.
    #[arg(long, default_value_t = 20)]
    pub iterations: usize,
    /// Largest pattern size kept (3: 3x3 shapes only, a model small
    /// enough for a firmware's flash; up to 10).
    #[arg(long, default_value_t = MAX_SIZE, value_parser = pattern_size)]
    pub max_size: usize,
    /// Seed of the order the training games are taken in.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// No progress bars.
    #[arg(long)]
    pub quiet: bool,
}

/// Parse a pattern size (3 to 10).
pub(crate) fn pattern_size(text: &str) -> Result<usize, String> {
    text.parse::<usize>()
        .ok()
        .filter(|d| (MIN_SIZE..=MAX_SIZE).contains(d))
        .ok_or_else(|| format!("{text}: not a pattern size ({MIN_SIZE} to {MAX_SIZE})"))
}

/// Return a progress bar over `len` items (hidden when `quiet`).
pub fn bar(len: u64, what: &str, quiet: bool) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    let template = format!("{{elapsed_precise}} [{{bar:40}}] {{pos}}/{{len}} {what} {{msg}}");
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

/// Return the records of the games of `part`, shuffled by `seed` (when
/// given), at most `max` games.
///
/// # Errors
/// A message for games that cannot be read.
pub fn game_records(
    paths: &[PathBuf],
    part: Part,
    split: u64,
    seed: Option<u64>,
    max: Option<usize>,
) -> Result<Vec<Record>, String> {
    let mut texts: Vec<GameText> = games::read_all(paths)?
        .into_iter()
        .filter(|g| games::in_part(&g.name, part, split))
        .collect();
    if let Some(seed) = seed {
        let mut r = rng::seeded(seed);
        for i in (1..texts.len()).rev() {
            let j = rng::below(&mut r, i as u32 + 1) as usize;
            texts.swap(i, j);
        }
    }
    texts.truncate(max.unwrap_or(usize::MAX));
    Ok(texts
        .par_iter()
        .flat_map_iter(|g| records(&g.text))
        .collect())
}

/// Games replayed at a time by the passes over the training games, so
/// their per-game results are never held for all games at once.
const CHUNK: usize = 256;

/// Return the shapes of sizes up to `max_size` played at least `min_count`
/// times in `records`, sorted by size, then by hash. Two passes: count the orientation-free
/// hashes of every size of every move's neighbourhood, then replay again
/// to keep the cells of the shapes that made the count.
fn harvest(
    records: &[Record],
    min_count: u32,
    max_size: usize,
    quiet: bool,
) -> Vec<(usize, Neighbourhood)> {
    let shapes_of = |r: &Record, out: &mut Vec<(u64, usize, Neighbourhood)>| {
        replay(r, |board, c, p, _| {
            if !p.is_pass() {
                let n = Neighbourhood::read(board, p, c);
                for d in MIN_SIZE..=max_size {
                    out.push((n.canonical(d), d, n));
                }
            }
        });
    };
    let bar = bar(2 * records.len() as u64, "games: shapes", quiet);
    let mut counts: HashMap<u64, u32> = HashMap::new();
    for chunk in records.chunks(CHUNK) {
        let hashes: Vec<Vec<u64>> = chunk
            .par_iter()
            .map(|r| {
                let mut out = Vec::new();
                shapes_of(r, &mut out);
                bar.inc(1);
                out.into_iter().map(|(h, _, _)| h).collect()
            })
            .collect();
        for h in hashes.into_iter().flatten() {
            *counts.entry(h).or_insert(0) += 1;
        }
    }
    counts.retain(|_, n| *n >= min_count);
    let mut kept: HashMap<u64, (usize, Neighbourhood)> = HashMap::new();
    for chunk in records.chunks(CHUNK) {
        let found: Vec<Vec<(u64, usize, Neighbourhood)>> = chunk
            .par_iter()
            .map(|r| {
                let mut out = Vec::new();
                shapes_of(r, &mut out);
                bar.inc(1);
                out.retain(|(h, _, _)| counts.contains_key(h));
                out
            })
            .collect();
        for (h, size, n) in found.into_iter().flatten() {
            kept.entry(h).or_insert((size, n));
        }
    }
    bar.finish_and_clear();
    let mut kept: Vec<(u64, (usize, Neighbourhood))> = kept.into_iter().collect();
    kept.sort_by_key(|&(h, (size, _))| (size, h));
    kept.into_iter().map(|(_, shape)| shape).collect()
}

/// Return model bytes with the given gammas (tactical ones, then one per
/// pattern).
fn model_bytes(patterns: &[(usize, Neighbourhood)], tactical: &[f32], spatial: &[f32]) -> Vec<u8> {
    let mut bytes = vec![0u8; model::encoded_len(patterns.len())];
    let records = patterns
        .iter()
        .zip(spatial)
        .map(|(&(size, ref cells), &g)| (size, cells, g));
    model::encode(tactical, records, &mut bytes).expect("the sizes are the model's");
    bytes
}

/// Return the training data of `records`: every position's candidates,
/// matched against `index` (whose record numbers are the patterns).
fn training_data(records: &[Record], index: &Patterns, quiet: bool) -> Data {
    let bar = bar(records.len() as u64, "games: candidates", quiet);
    let mut data = Data {
        patterns: index.patterns(),
        ..Data::default()
    };
    let mut combo_ids: HashMap<u64, u32> = HashMap::new();
    for chunk in records.chunks(CHUNK) {
        let per_game: Vec<GameCandidates> = chunk
            .par_iter()
            .map(|r| {
                let game = game_candidates(r, index);
                bar.inc(1);
                game
            })
            .collect();
        for game in per_game {
            let mut start = data.cands.len() as u64;
            for (len, chosen) in game.positions {
                data.positions.push(Position { start, len, chosen });
                start += u64::from(len);
            }
            for (pattern, key, count) in game.entries {
                let next = data.combos.len() as u32;
                let combo = *combo_ids.entry(key).or_insert_with(|| {
                    data.combos.push(key.to_le_bytes());
                    next
                });
                data.cands.push(Cand::new(pattern, combo, count));
            }
        }
    }
    bar.finish_and_clear();
    data
}

/// One game's training positions: per position its number of candidate
/// entries and the played move's entry; the entries (pattern, tactical
/// values packed in a `u64`, count).
struct GameCandidates {
    positions: Vec<(u32, u32)>,
    entries: Vec<(u32, u64, u32)>,
}

/// Return the training positions of one game: every candidate move's
/// largest pattern and tactical values, equal ones merged.
fn game_candidates(record: &Record, index: &Patterns) -> GameCandidates {
    let mut ladder: Box<Ladder> = Box::default();
    let mut game = GameCandidates {
        positions: Vec::new(),
        entries: Vec::new(),
    };
    let mut moves = Vec::new();
    let mut rated: Vec<(u32, u64)> = Vec::new();
    replay(record, |board, c, played, _| {
        candidates(board, c, &mut moves);
        let Some(chosen) = moves.iter().position(|&m| m == played) else {
            return;
        };
        rated.clear();
        for &m in &moves {
            let f = feature::tactical(board, m, c, &mut *ladder);
            let pattern = if m.is_pass() {
                NO_PATTERN
            } else {
                index
                    .spatial_at(board, m, c)
                    .map_or(NO_PATTERN, |s| s.record as u32)
            };
            rated.push((pattern, u64::from_le_bytes(f)));
        }
        let played = rated[chosen];
        rated.sort_unstable();
        let first = game.entries.len();
        let mut chosen_entry = 0;
        for &r in &rated {
            let fresh = game.entries.len() == first;
            match game.entries.last_mut() {
                Some(e) if !fresh && (e.0, e.1) == r && e.2 < 255 => e.2 += 1,
                _ => game.entries.push((r.0, r.1, 1)),
            }
            if r == played {
                chosen_entry = game.entries.len() - 1 - first;
            }
        }
        game.positions
            .push(((game.entries.len() - first) as u32, chosen_entry as u32));
    });
    game
}

/// Run `kosumi patterns train`.
///
/// # Errors
/// A message for unreadable games, no training position, or a model file
/// that cannot be written.
pub fn run(args: &TrainArgs) -> Result<(), String> {
    let start = Instant::now();
    let records = game_records(
        &args.games,
        Part::Train,
        args.split,
        Some(args.seed),
        args.max_games,
    )?;
    let patterns = harvest(&records, args.min_count, args.max_size, args.quiet);
    let ones = vec![1.0f32; patterns.len()];
    let provisional = model_bytes(&patterns, &[1.0; feature::TACTICAL_GAMMAS], &ones);
    let model = Model::parse(&provisional).map_err(|e| e.to_string())?;
    let mut slots = vec![Slot::EMPTY; Patterns::slots_for(patterns.len())];
    let index = Patterns::build(model, &mut slots).map_err(|e| e.to_string())?;
    let data = training_data(&records, &index, args.quiet);
    if data.positions.is_empty() {
        return Err("no training position in these games".into());
    }
    println!(
        "kosumi patterns train: {} games, {} positions, {} candidates in {} entries, {} tactical combos, {} patterns ({})",
        records.len(),
        data.positions.len(),
        data.cands.iter().map(|c| u64::from(c.count())).sum::<u64>(),
        data.cands.len(),
        data.combos.len(),
        patterns.len(),
        sizes_summary(&patterns),
    );
    let bar = bar(args.iterations as u64, "MM rounds", args.quiet);
    let gammas = data.solve(args.iterations, |it, ll| {
        bar.set_position(it as u64);
        bar.set_message(format!("log-likelihood {ll:.4}"));
        if args.quiet {
            println!("  round {it}: mean log-likelihood {ll:.4}");
        }
    });
    bar.finish_and_clear();
    println!(
        "  mean log-likelihood of the played moves: {:.4} (uniform choice: {:.4})",
        data.log_likelihood(&gammas),
        data.log_likelihood(&Gammas {
            tactical: vec![1.0; feature::TACTICAL_GAMMAS],
            spatial: vec![1.0; patterns.len()],
        })
    );
    print_tactical(&gammas.tactical);
    let tactical: Vec<f32> = gammas.tactical.iter().map(|&g| g as f32).collect();
    let spatial: Vec<f32> = gammas.spatial.iter().map(|&g| g as f32).collect();
    let bytes = model_bytes(&patterns, &tactical, &spatial);
    Model::parse(&bytes).map_err(|e| format!("the written model does not read back: {e}"))?;
    kosumi::atomic::write(&args.out, &bytes)?;
    println!(
        "  wrote {} ({} bytes) in {:.1} s",
        args.out.display(),
        bytes.len(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Return "size: count" for each pattern size.
fn sizes_summary(patterns: &[(usize, Neighbourhood)]) -> String {
    let mut counts = [0usize; SIZES];
    for &(size, _) in patterns {
        counts[size - MIN_SIZE] += 1;
    }
    counts
        .iter()
        .enumerate()
        .map(|(s, n)| format!("{}: {n}", MIN_SIZE + s))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Print the tactical gammas by group.
fn print_tactical(tactical: &[f64]) {
    for g in 0..GROUPS {
        let values: Vec<String> = (1..VALUES[g] as usize)
            .map(|v| format!("{v}:{:.2}", tactical[OFFSET[g] + v - 1]))
            .collect();
        println!("  {:<16} {}", NAMES[g], values.join(" "));
    }
}
