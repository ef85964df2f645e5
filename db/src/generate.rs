//! `kosumi db generate`: game records played by kosumi's own waterfall
//! playouts, for tests and for a benchmark collection of any size.
//!
//! Game `i` of seed `s` is the same on every machine and for every thread
//! count: its generator is seeded from `(s, i)` alone. Each game is cut at
//! a length drawn from 150..350 moves (about a professional game's length;
//! a full random playout on 19x19 runs to 400+ moves), the rest is played
//! out and scored by area with komi 6.5, and the record says who won as a
//! resignation (`RE[B+R]`). Games are written `per_file` to a file, so the
//! collection also exercises multi-game files.

use std::fmt::Write as _;
use std::path::Path;

use kosumi_core::board::Board;
use kosumi_core::geometry::{Color, Point};
use kosumi_core::playout::{policy_move, Policy, RuleStats};
use kosumi_core::rng;
use rayon::prelude::*;

use crate::symmetry::N;

/// Return game `i` of seed `seed` as one SGF game tree.
pub fn game(seed: u64, i: u64) -> String {
    let mut r = rng::seeded(seed ^ i.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17));
    let mut stats = RuleStats::default();
    let mut board = Board::new(N).expect("19x19 is supported");
    let policy = Policy::waterfall();
    let length = 150 + rng::below(&mut r, 200) as usize;
    let mut moves: Vec<(Color, Point)> = Vec::with_capacity(length);
    let limit = 3 * N * N;
    let mut played = 0;
    while board.passes() < 2 && played < limit {
        let c = board.to_play();
        let p = policy_move(&mut board, policy, &mut r, &mut stats);
        board.play_legal(p, c);
        if moves.len() < length {
            moves.push((c, p));
        }
        played += 1;
    }
    let winner = board.score(13).winner();
    let geo = board.geometry();
    let mut s = format!(
        "(;GM[1]FF[4]CA[UTF-8]AP[kosumi:{}]SZ[19]KM[6.5]PB[kosumi waterfall]\
         PW[kosumi waterfall]DT[2026-11-21]GN[seed {seed} game {i}]RE[{}]",
        env!("CARGO_PKG_VERSION"),
        match winner {
            Some(Color::Black) => "B+R",
            Some(Color::White) => "W+R",
            None => "0",
        }
    );
    for (c, p) in moves {
        let tag = if c == Color::Black { 'B' } else { 'W' };
        if p.is_pass() {
            let _ = write!(s, ";{tag}[]");
        } else {
            let (x, y) = geo.coords(p);
            let _ = write!(
                s,
                ";{tag}[{}{}]",
                char::from(b'a' + x as u8),
                char::from(b'a' + (N - 1 - y) as u8)
            );
        }
    }
    s.push_str(")\n");
    s
}

/// Write `games` games of seed `seed` into `dir`, `per_file` to a file;
/// return the number of files.
///
/// # Errors
/// A message for an I/O error.
pub fn generate(games: u64, seed: u64, dir: &Path, per_file: u64) -> Result<u64, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let per_file = per_file.max(1);
    let files = games.div_ceil(per_file);
    (0..files).into_par_iter().try_for_each(|f| {
        let mut text = String::new();
        for i in f * per_file..((f + 1) * per_file).min(games) {
            text.push_str(&game(seed, i));
        }
        let path = dir.join(format!("kosumi-{seed}-{f:05}.sgf"));
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))
    })?;
    Ok(files)
}
