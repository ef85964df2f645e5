//! Minorization-maximization for the generalised Bradley-Terry model
//! (Coulom 2007, section 2 and Hunter 2004).
//!
//! Each training position is a competition among its candidate moves; a
//! candidate's strength is the product of its features' gammas, and the
//! move played wins. For one feature `i` the MM update is
//!
//! ```text
//!   gamma_i <- W_i / sum_j C_ij / E_j
//! ```
//!
//! with `W_i` the wins of teams holding `i`, `E_j` the total strength of
//! competition `j`'s candidates and `C_ij` the strength of `j`'s candidates
//! holding `i`, without `i` itself. Features of one group never meet in
//! one team, so a whole group is updated at once; the groups are updated
//! in turn, each on freshly computed strengths (Coulom's schedule). A
//! prior of one virtual win and one virtual loss against a gamma of 1 keeps
//! rare features near 1: `W_i + 1` over `C_i + 2 / (gamma_i + 1)`.
//!
//! Candidates sharing all their tactical features share a *combo*, so a
//! candidate is two numbers: its pattern and its combo; the candidates of
//! a position with the same two numbers are one entry with a count. Sums run over
//! fixed chunks of positions in parallel and are added in chunk order, so
//! the result does not depend on the number of threads.

use rayon::prelude::*;

use kosumi_core::pattern::feature::{GROUPS, OFFSET, TACTICAL_GAMMAS, VALUES};

/// A candidate with no known pattern.
pub const NO_PATTERN: u32 = (1 << 24) - 1;

/// One training position: its candidate entries `start..start + len` and
/// the one holding the move played.
#[derive(Clone, Copy, Debug)]
pub struct Position {
    /// Index of its first candidate.
    pub start: u64,
    /// Number of candidate entries.
    pub len: u32,
    /// The played move's entry among them.
    pub chosen: u32,
}

/// Candidate moves of one position with the same largest known pattern
/// and the same tactical combo (they are the same to the model).
#[derive(Clone, Copy, Debug)]
pub struct Cand {
    /// Pattern number (or [`NO_PATTERN`]) `<< 8`, and how many moves
    /// (1 to 255).
    pub pattern_count: u32,
    /// Index into [`Data::combos`].
    pub combo: u32,
}

impl Cand {
    /// Return `count` moves of `pattern` and `combo`.
    pub fn new(pattern: u32, combo: u32, count: u32) -> Cand {
        debug_assert!(pattern <= NO_PATTERN && (1..256).contains(&count));
        Cand {
            pattern_count: pattern << 8 | count,
            combo,
        }
    }

    /// Return the pattern number, or [`NO_PATTERN`].
    pub fn pattern(self) -> u32 {
        self.pattern_count >> 8
    }

    /// Return the number of moves.
    pub fn count(self) -> u32 {
        self.pattern_count & 0xFF
    }
}

/// The training set.
#[derive(Default)]
pub struct Data {
    /// The competitions.
    pub positions: Vec<Position>,
    /// Their candidates.
    pub cands: Vec<Cand>,
    /// The distinct tactical feature values, by group.
    pub combos: Vec<[u8; GROUPS]>,
    /// Number of patterns.
    pub patterns: usize,
}

/// The learned gammas.
#[derive(Clone, Debug, PartialEq)]
pub struct Gammas {
    /// One per tactical feature value ([`OFFSET`] order).
    pub tactical: Vec<f64>,
    /// One per pattern.
    pub spatial: Vec<f64>,
}

/// Positions summed by one parallel task.
const CHUNKS: usize = 16;

/// Return the tactical feature indices of a combo.
fn features(combo: &[u8; GROUPS]) -> impl Iterator<Item = usize> + '_ {
    combo
        .iter()
        .enumerate()
        .filter(|(_, &v)| v > 0)
        .map(|(g, &v)| OFFSET[g] + usize::from(v) - 1)
}

/// The sums of one pass.
struct Sums {
    /// Per combo: sum over candidates of strength / E_j.
    combo: Vec<f64>,
    /// Per pattern, the same (only when asked).
    spatial: Vec<f64>,
    /// Log-likelihood of the played moves.
    log_likelihood: f64,
}

impl Data {
    /// Return the wins of every tactical feature and pattern.
    fn wins(&self) -> (Vec<f64>, Vec<f64>) {
        let mut t = vec![0.0; TACTICAL_GAMMAS];
        let mut s = vec![0.0; self.patterns];
        for pos in &self.positions {
            let c = self.cands[(pos.start + u64::from(pos.chosen)) as usize];
            for f in features(&self.combos[c.combo as usize]) {
                t[f] += 1.0;
            }
            if c.pattern() != NO_PATTERN {
                s[c.pattern() as usize] += 1.0;
            }
        }
        (t, s)
    }

    /// Sum strengths over every position with `gammas`.
    fn pass(&self, gammas: &Gammas, spatial: bool) -> Sums {
        let combo_strength: Vec<f64> = self
            .combos
            .iter()
            .map(|c| features(c).map(|f| gammas.tactical[f]).product())
            .collect();
        let chunk = self.positions.len().div_ceil(CHUNKS).max(1);
        let parts: Vec<Sums> = self
            .positions
            .par_chunks(chunk)
            .map(|positions| {
                let mut sums = Sums {
                    combo: vec![0.0; self.combos.len()],
                    spatial: if spatial {
                        vec![0.0; self.patterns]
                    } else {
                        Vec::new()
                    },
                    log_likelihood: 0.0,
                };
                // The strength of one of the entry's moves.
                let strength = |c: &Cand| {
                    let s = combo_strength[c.combo as usize];
                    if c.pattern() == NO_PATTERN {
                        s
                    } else {
                        s * gammas.spatial[c.pattern() as usize]
                    }
                };
                for pos in positions {
                    let start = pos.start as usize;
                    let cands = &self.cands[start..start + pos.len as usize];
                    let total: f64 = cands
                        .iter()
                        .map(|c| strength(c) * f64::from(c.count()))
                        .sum();
                    let inv = 1.0 / total;
                    for c in cands {
                        let share = strength(c) * f64::from(c.count()) * inv;
                        sums.combo[c.combo as usize] += share;
                        if spatial && c.pattern() != NO_PATTERN {
                            sums.spatial[c.pattern() as usize] += share;
                        }
                    }
                    sums.log_likelihood += (strength(&cands[pos.chosen as usize]) * inv).ln();
                }
                sums
            })
            .collect();
        let mut parts = parts.into_iter();
        let mut total = parts.next().unwrap_or(Sums {
            combo: vec![0.0; self.combos.len()],
            spatial: vec![0.0; if spatial { self.patterns } else { 0 }],
            log_likelihood: 0.0,
        });
        for p in parts {
            for (a, b) in total.combo.iter_mut().zip(&p.combo) {
                *a += b;
            }
            for (a, b) in total.spatial.iter_mut().zip(&p.spatial) {
                *a += b;
            }
            total.log_likelihood += p.log_likelihood;
        }
        total
    }

    /// Run `iterations` rounds of MM from gammas of 1, calling
    /// `progress(iteration, mean log-likelihood)` after each round.
    pub fn solve(&self, iterations: usize, mut progress: impl FnMut(usize, f64)) -> Gammas {
        let (wins_t, wins_s) = self.wins();
        let mut gammas = Gammas {
            tactical: vec![1.0; TACTICAL_GAMMAS],
            spatial: vec![1.0; self.patterns],
        };
        let n = self.positions.len().max(1) as f64;
        for it in 0..iterations {
            let mut ll = 0.0;
            for g in 0..=GROUPS {
                let spatial = g == GROUPS;
                let sums = self.pass(&gammas, spatial);
                ll = sums.log_likelihood;
                if spatial {
                    for (p, gamma) in gammas.spatial.iter_mut().enumerate() {
                        let c = sums.spatial[p] / *gamma;
                        *gamma = (wins_s[p] + 1.0) / (c + 2.0 / (*gamma + 1.0));
                    }
                } else {
                    let mut c = vec![0.0; TACTICAL_GAMMAS];
                    for (k, combo) in self.combos.iter().enumerate() {
                        if combo[g] > 0 {
                            c[OFFSET[g] + usize::from(combo[g]) - 1] += sums.combo[k];
                        }
                    }
                    let values = OFFSET[g]..OFFSET[g] + usize::from(VALUES[g]) - 1;
                    for f in values {
                        let gamma = &mut gammas.tactical[f];
                        let cf = c[f] / *gamma;
                        *gamma = (wins_t[f] + 1.0) / (cf + 2.0 / (*gamma + 1.0));
                    }
                }
            }
            progress(it + 1, ll / n);
        }
        gammas
    }

    /// Return the mean log-likelihood of the played moves under `gammas`.
    pub fn log_likelihood(&self, gammas: &Gammas) -> f64 {
        self.pass(gammas, false).log_likelihood / self.positions.len().max(1) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two features in one group: a move with feature 1 is played twice as
    /// often as one without among two candidates. MM finds gamma near 2.
    #[test]
    fn mm_recovers_a_known_strength() {
        let mut data = Data {
            combos: vec![[0; GROUPS], {
                let mut c = [0; GROUPS];
                c[1] = 1; // capture, value 1
                c
            }],
            ..Data::default()
        };
        for k in 0..3000u64 {
            // Two candidates, combo 1 (with the feature) and combo 0.
            data.cands.push(Cand::new(NO_PATTERN, 1, 1));
            data.cands.push(Cand::new(NO_PATTERN, 0, 1));
            data.positions.push(Position {
                start: 2 * k,
                len: 2,
                chosen: if k % 3 == 2 { 1 } else { 0 },
            });
        }
        let g = data.solve(30, |_, _| {});
        let f = OFFSET[1];
        assert!((g.tactical[f] - 2.0).abs() < 0.05, "{}", g.tactical[f]);
        assert_eq!(g, data.solve(30, |_, _| {}), "deterministic");
    }
}
