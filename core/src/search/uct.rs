//! One playout of the search: walk down the tree by UCT-RAVE, expand the
//! leaf if it has been visited enough, play the position out with the
//! waterfall policy, and back the result up the path (wins) and to the
//! siblings along it (AMAF).
//!
//! AMAF bookkeeping: `amaf[p]` holds `(index + 1) << 1 | colour` of the
//! first move at `p` in this playout's move sequence (tree moves first,
//! then playout moves), 0 if none. The children of the path node at depth
//! `k` are updated for the moves their colour played first at index `k`
//! or later.

use super::best_move_table::BestMoveTable;
use super::knowledge::Knowledge;
use super::prior::{pattern_prior, prior, read, Prior, Reading};
use super::{Search, MAX_MOVES, MAX_PATH};
use crate::geometry::{Color, Point};
use crate::playout::playout_replying;
use crate::table::BestMoveCluster;
use crate::tactics::NoLadders;

use super::node::Node;

/// The value of a finished playout for black: 1 win, 0 loss, 0.5 draw,
/// moved toward the margin by `score` (Fuego's score modification): a
/// win is worth `1 - score` plus up to `score` more as the margin grows to
/// [`SCORE_SPAN2`] half points, a loss up to `score`, so that among lost
/// (or won) lines the search prefers the closer (or wider) ones.
#[inline(always)]
fn black_value(margin2: i32, score: f32) -> f32 {
    let win = if margin2 > 0 {
        1.0
    } else if margin2 < 0 {
        0.0
    } else {
        0.5
    };
    let margin = (margin2 as f32 / SCORE_SPAN2).clamp(-1.0, 1.0);
    win * (1.0 - score) + score * 0.5 * (1.0 + margin)
}

/// The margin, in half points, at which the score modification is full.
const SCORE_SPAN2: f32 = 80.0;

/// `value` (black's) for `c`.
#[inline(always)]
fn value_for(value: f32, c: Color) -> f32 {
    match c {
        Color::Black => value,
        Color::White => 1.0 - value,
    }
}

impl<P: AsRef<[Node]> + AsMut<[Node]>> Search<P> {
    /// Run one playout from the root.
    pub(super) fn playout<T>(
        &mut self,
        mut table: Option<&mut BestMoveTable<T>>,
        mut knowledge: Knowledge<'_>,
    ) where
        T: AsRef<[BestMoveCluster]> + AsMut<[BestMoveCluster]>,
    {
        self.board.copy_from(&self.root);
        let cells = self.root.geometry().cells();
        self.amaf[..cells].fill(0);
        let root_color = self.root.to_play();
        if let Some(r) = knowledge.replies() {
            let last = self.root.last_move().unwrap_or(Point::PASS);
            let before = self.root.second_last_move().unwrap_or(Point::PASS);
            r.start(root_color, before, last);
        }
        let mut node = 0u32;
        let mut depth = 0usize;
        self.path[0] = 0;
        let mut color = root_color;
        loop {
            if self.board.passes() >= 2 {
                break;
            }
            let n = &self.pool.nodes()[node as usize];
            if !n.is_expanded() {
                let ripe = node == 0 || n.visits >= self.params.expand_after.max(1);
                if !ripe || !self.expand(node, table.as_deref_mut(), knowledge.reborrow()) {
                    break;
                }
            }
            let child = self.select(node, depth == 0);
            let mv = Point(self.pool.nodes()[child as usize].mv);
            self.board.play_legal(mv, color);
            if let Some(r) = knowledge.replies() {
                r.record(mv);
            }
            if !mv.is_pass() && self.amaf[mv.idx()] == 0 {
                self.amaf[mv.idx()] = ((depth as u32 + 1) << 1) | color.idx() as u32;
            }
            color = color.opponent();
            node = child;
            depth += 1;
            self.path[depth] = child;
            if depth + 1 >= MAX_PATH {
                break;
            }
        }
        if depth as u32 > self.counters.max_depth {
            self.counters.max_depth = depth as u32;
        }
        if self.board.passes() >= 2 && self.params.dead_removed {
            // The game ended in the tree: dead stones come off first.
            self.board.reopen();
        }
        // Play out; the sequence index continues after the tree moves.
        let mut seq = depth as u32;
        let amaf = &mut self.amaf;
        let outcome = playout_replying(
            &mut self.board,
            self.params.policy,
            self.komi2,
            &mut self.rng,
            &mut self.stats,
            knowledge.playout_aids(),
            |p, c| {
                if !p.is_pass() && amaf[p.idx()] == 0 {
                    amaf[p.idx()] = ((seq + 1) << 1) | c.idx() as u32;
                }
                seq += 1;
            },
        );
        if let Some(r) = knowledge.replies() {
            r.learn(outcome.score.winner());
        }
        let margin2 = outcome.score.margin2();
        #[cfg(feature = "scores")]
        if depth > 0 {
            let first = Point(self.pool.nodes()[self.path[1] as usize].mv);
            let black = margin2 as f32 * 0.5;
            let margin = if root_color == Color::Black {
                black
            } else {
                -black
            };
            self.scores.add(first, margin);
        }
        let value = black_value(margin2, self.params.score_bonus);
        self.back_up(depth, root_color, value);
    }

    /// Add the result to the path's nodes and the AMAF statistics of their children.
    fn back_up(&mut self, depth: usize, root_color: Color, value: f32) {
        let nodes = self.pool.nodes_mut();
        let amaf = &self.amaf;
        // The side to move at depth k: the root's colour flipped k times.
        let mut to_move = root_color;
        for k in 0..=depth {
            let id = self.path[k] as usize;
            let mover = to_move.opponent();
            let n = &mut nodes[id];
            n.visits += 1;
            n.wins += value_for(value, mover);
            if n.is_expanded() {
                let v = value_for(value, to_move);
                let c = to_move.idx() as u32;
                let range = n.children();
                for ch in &mut nodes[range] {
                    let e = amaf[Point(ch.mv).idx()];
                    if ch.mv != 0 && e & 1 == c && (e >> 1) > k as u32 {
                        ch.amaf_visits += 1.0;
                        ch.amaf_wins += v;
                    }
                }
            }
            to_move = to_move.opponent();
        }
    }

    /// Return the child of `node` with the best UCT-RAVE score.
    #[inline]
    fn select(&self, node: u32, at_root: bool) -> u32 {
        let nodes = self.pool.nodes();
        let parent = &nodes[node as usize];
        let range = parent.children();
        // Progressive widening: the first `open` children (ordered by
        // their priors), not counting excluded ones.
        let mut open = self.params.widening.open(parent.visits, range.len());
        let equiv = self.params.rave_equiv;
        let skip = at_root && self.n_excluded > 0;
        let mut best = range.start;
        let mut best_score = f32::NEG_INFINITY;
        for i in range {
            if open == 0 {
                break;
            }
            let ch = &nodes[i];
            if skip && self.is_excluded(ch.mv) {
                continue;
            }
            open -= 1;
            let n = ch.visits as f32;
            let a = ch.amaf_visits;
            let amaf = if a > 0.0 { ch.amaf_wins / a } else { 0.5 };
            let score = if n == 0.0 {
                amaf
            } else {
                let mean = ch.wins / n;
                let beta = a / (a + n + a * n / equiv);
                beta * amaf + (1.0 - beta) * mean
            };
            if score > best_score {
                best_score = score;
                best = i;
            }
        }
        best as u32
    }

    /// Give `node` (the position on `self.board`) its children; return
    /// `false` if the pool has no room.
    fn expand<T>(
        &mut self,
        node: u32,
        table: Option<&mut BestMoveTable<T>>,
        knowledge: Knowledge<'_>,
    ) -> bool
    where
        T: AsRef<[BestMoveCluster]> + AsMut<[BestMoveCluster]>,
    {
        let board = &self.board;
        let c = board.to_play();
        let mut moves = [0u16; MAX_MOVES];
        let mut n = 0;
        for p in board.empty_points() {
            if n < MAX_MOVES - 1
                && board.is_playout_move(p, c)
                && !(node == 0 && self.is_excluded(p.0))
            {
                moves[n] = p.0;
                n += 1;
            }
        }
        moves[n] = Point::PASS.0;
        n += 1;
        let key = board.hash();
        let stored = match table {
            Some(t) => {
                let hit = t.get(key);
                self.counters.hits += hit.is_some() as u32;
                self.counters.misses += hit.is_none() as u32;
                self.deepening.probe(hit.is_some());
                hit
            }
            None => None,
        };
        // A node other than the root keeps its `max_children` best-rated
        // moves and pass (a small pool then holds a deeper tree).
        let cap = usize::from(self.params.max_children);
        let kept = if node != 0 && cap > 0 {
            n.min(cap + 1)
        } else {
            n
        };
        if self.pool.len() + kept > self.pool.capacity() {
            return false;
        }
        // Read only when the children will be made.
        let budget = self.params.reading;
        let shape = self.params.shape_prior;
        let mut knowledge = knowledge;
        let mut reading = match knowledge.tactics.as_deref_mut() {
            Some(r) if budget.nodes > 0 => read(&mut self.board, c, r, budget),
            _ => Reading::NONE,
        };
        if let (0, Some(d)) = (node, knowledge.dragons) {
            reading.merge(d);
        }
        // With a model: each move's gamma, then its share of their sum.
        let weight = self.params.pattern_prior;
        let mut gammas = [0f32; MAX_MOVES];
        let model = match knowledge.ladder_and_model() {
            (ladder, Some(patterns)) if weight > 0.0 => {
                let ladder = match ladder {
                    Some(l) => l,
                    None => &mut NoLadders,
                };
                let mut total = 0.0;
                for (g, &mv) in gammas.iter_mut().zip(&moves[..n]) {
                    *g = patterns.rate(&mut self.board, Point(mv), c, ladder).gamma;
                    total += *g;
                }
                Some(1.0 / total)
            }
            _ => None,
        };
        let mut priors = [Prior::NONE; MAX_MOVES];
        for (k, &mv) in moves[..n].iter().enumerate() {
            let hint = stored.filter(|s| s.mv == mv).map(|s| s.visits_log2);
            priors[k] = match model {
                Some(scale) => {
                    let p = gammas[k] * scale;
                    pattern_prior(&self.board, Point(mv), hint, &reading, p, weight)
                }
                None => prior(&self.board, Point(mv), c, hint, &reading, shape),
            };
        }
        // The children in the board's order, or best-rated first for
        // progressive widening and the cap.
        let mut order = [0u32; MAX_MOVES];
        for (k, o) in order[..n].iter_mut().enumerate() {
            *o = k as u32;
        }
        if self.params.widening.base > 0 || kept < n {
            by_prior(&priors[..n], &mut order[..n], key);
            if kept < n && !order[..kept].contains(&((n - 1) as u32)) {
                // Pass (the last move) stays a child: a line of the tree
                // must be able to end the game.
                order[kept - 1] = (n - 1) as u32;
            }
        }
        let Some(first) = self.pool.alloc_children(node, kept) else {
            return false;
        };
        let nodes = self.pool.nodes_mut();
        nodes[node as usize].key = key;
        for (ch, &k) in nodes[first as usize..].iter_mut().zip(&order[..kept]) {
            let pr = priors[k as usize];
            ch.mv = moves[k as usize];
            ch.amaf_visits = pr.visits;
            ch.amaf_wins = pr.wins;
        }
        true
    }
}

/// Order the move indices `order` by the prior win rates of `priors`, best
/// first; equal rates in an order scrambled by `salt` (the position's
/// key), so that moves the priors cannot tell apart are not taken in the
/// board's order (one corner first). Each index becomes one integer, the
/// rate's high 16 bits (non-negative `f32` bits order as the numbers do:
/// three digits are enough to rank priors) over the index scrambled by
/// an invertible multiplication: integer sorting in place, cheap without
/// a floating-point unit, with no allocation and no array beside `order`.
fn by_prior(priors: &[Prior], order: &mut [u32], salt: u64) {
    /// Odd, so multiplying by it is invertible modulo 2^16...
    const SCRAMBLE: u32 = 0x9E37;
    /// ...by its inverse: `SCRAMBLE * UNSCRAMBLE % 65536 == 1`.
    const UNSCRAMBLE: u32 = 0x7787;
    const _: () = assert!(SCRAMBLE * UNSCRAMBLE % 0x1_0000 == 1);
    let salt = (salt >> 48) as u32;
    for (o, (k, pr)) in order.iter_mut().zip(priors.iter().enumerate()) {
        let rate = if pr.visits > 0.0 {
            (pr.wins / pr.visits).max(0.0)
        } else {
            0.5
        };
        let scrambled = ((k as u32).wrapping_mul(SCRAMBLE) ^ salt) & 0xFFFF;
        // Best rate first: sort the complement.
        *o = !((rate.to_bits() >> 16) << 16 | scrambled);
    }
    shell_sort(order);
    for o in order.iter_mut() {
        *o = (((!*o & 0xFFFF) ^ salt) & 0xFFFF).wrapping_mul(UNSCRAMBLE) & 0xFFFF;
    }
}

/// Sort `keys` ascending: Shell's sort with Ciura's gaps, a few hundred
/// bytes of code where the core library's `sort_unstable` costs a
/// firmware 5 KB of flash, and fast enough for a node's moves.
fn shell_sort(keys: &mut [u32]) {
    const GAPS: [usize; 8] = [701, 301, 132, 57, 23, 10, 4, 1];
    for gap in GAPS {
        for i in gap..keys.len() {
            let key = keys[i];
            let mut j = i;
            while j >= gap && keys[j - gap] > key {
                keys[j] = keys[j - gap];
                j -= gap;
            }
            keys[j] = key;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{black_value, by_prior, shell_sort, Prior};

    #[test]
    fn shell_sort_sorts() {
        let mut x = 0x1234_5678u32;
        for n in [0usize, 1, 2, 9, 82, 362, 1000] {
            let mut keys = [0u32; 1000];
            for k in &mut keys[..n] {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                *k = x % 500;
            }
            let mut counts = [0u32; 500];
            for &k in &keys[..n] {
                counts[k as usize] += 1;
            }
            shell_sort(&mut keys[..n]);
            assert!(keys[..n].windows(2).all(|w| w[0] <= w[1]), "{n}");
            for &k in &keys[..n] {
                counts[k as usize] -= 1;
            }
            assert!(counts.iter().all(|&c| c == 0), "{n}: the same keys");
        }
    }

    #[test]
    fn by_prior_puts_the_best_rated_first_and_keeps_every_move() {
        let rated = |wins: f32| Prior { visits: 10.0, wins };
        let mut priors = [rated(5.0); 300];
        priors[7] = rated(9.0);
        priors[250] = rated(8.0);
        priors[3] = rated(1.0);
        priors[299] = Prior::NONE;
        for salt in [0u64, 0xDEAD_BEEF_0123_4567, u64::MAX] {
            let mut order = [0u32; 300];
            by_prior(&priors, &mut order, salt);
            assert_eq!(&order[..2], &[7, 250]);
            assert_eq!(order[299], 3, "the worst last");
            let mut seen = order.to_vec();
            seen.sort_unstable();
            assert!(seen.iter().enumerate().all(|(k, &o)| o == k as u32));
        }
    }

    #[test]
    fn score_bonus_orders_margins_but_never_a_loss_above_a_win() {
        // Without the bonus: 1, 0.5, 0.
        assert_eq!(black_value(3, 0.0), 1.0);
        assert_eq!(black_value(0, 0.0), 0.5);
        assert_eq!(black_value(-200, 0.0), 0.0);
        // With it, wider wins and closer losses are worth more.
        let margins = [-500, -80, -20, -1, 0, 1, 20, 80, 500];
        let values: [f32; 9] = margins.map(|m| black_value(m, 0.1));
        for w in values.windows(2) {
            assert!(w[0] <= w[1], "{values:?}");
        }
        assert!(values[1] < values[2] && values[6] < values[7]);
        assert!(values[3] < 0.1 && values[5] > 0.9, "{values:?}");
        // Saturation: 40 points and more weigh the same.
        assert_eq!(values[7], values[8]);
    }
}
