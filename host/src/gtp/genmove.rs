//! The move search under the core's GTP session: the playing service
//! ([`Play`]: the searcher, its helpers, the pattern model, dynamic komi)
//! and the search the core's `genmove` asks for (the [`Player`] impl of
//! [`Services`]), also used by analysis.
//!
//! `genmove` and its kin are the core's ([`kosumi_core::gtp::Session`],
//! the firmware's too): the pass after the opponent's, superko, the
//! resignation rule and the fall-backs come from
//! [`kosumi_core::game::choose`]; this module is what it asks to search.

use std::path::PathBuf;

use kosumi_core::game::{Game, Outcome, Player, Scorer, TimeControl, RANKED};
use kosumi_core::geometry::{Color, Point};
use kosumi_core::gtp::args::color_name;
use kosumi_core::pattern::Patterns;
use kosumi_core::playout::LocalAnswers;
use kosumi_core::search::{Budget, DynamicKomi, MoveInfo, Params, SearchResult};

use crate::policy::Ladders;

use super::clock::budget;
use super::options::{SearchArgs, PLAYOUT_CAPTURE, SCORE_BONUS};
use super::parallel::{self, Helpers, Shape};
use super::searcher::{LiveReport, Searcher};
use super::{book, gogui, scoring, Services};

/// The playing service: the searcher, its options and helpers.
#[derive(Default)]
pub struct Play {
    /// The searcher (built by [`Play::new`]; `None` only while a resize
    /// rebuilds it).
    pub searcher: Option<Searcher>,
    /// Current search options.
    pub opts: SearchArgs,
    /// Result of the last search (for analysis and tests).
    pub last: Option<SearchResult>,
    /// The helper searchers of `--threads`.
    pub helpers: Helpers,
    /// The move-pattern model (`None`: `--no-patterns`, or turned off).
    pub patterns: Option<&'static Patterns<'static>>,
    /// The model loaded at start-up, kept when `patterns` is turned off.
    pub loaded: Option<&'static Patterns<'static>>,
    /// The learned local answers of `--local-answers`, read once at
    /// start-up and lent to every searcher.
    pub local: Option<&'static LocalAnswers<'static>>,
    /// The game's dynamic komi.
    pub dynkomi: DynamicKomi,
    /// Each colour's win rate in its last search of this game.
    pub last_rate: [Option<f32>; 2],
    /// The board size of the next search (some defaults depend on it).
    pub size: usize,
    /// The komi the last search added to the game's (dynamic komi), in
    /// half points: its score margins are shifted by as much.
    pub extra2: i32,
}

impl Play {
    /// Return a service with `opts` and its searchers built (the trees are
    /// allocated and written now, not in the first move's time), loading
    /// the book if it names an existing file.
    ///
    /// # Errors
    /// A message for a tree too small, or a book that cannot be read or is
    /// corrupt.
    pub fn new(opts: &SearchArgs) -> Result<Play, String> {
        let loaded = opts.model.load()?;
        let local = match &opts.local_answers {
            Some(path) => Some(super::patterns::load_local(path)?),
            None => None,
        };
        let mut play = Play {
            opts: opts.clone(),
            patterns: loaded,
            loaded,
            local,
            dynkomi: DynamicKomi::new(opts.dynkomi_even),
            ..Play::default()
        };
        play.helpers_ready()?;
        let s = play.searcher_mut()?;
        if let Some(path) = &opts.book {
            // Saves killed half-way (even the first) left temporaries.
            crate::atomic::clean_stale(path);
            if path.exists() {
                let (table, generation) = book::load(path)?;
                s.table = table;
                s.generation = generation;
            }
        }
        Ok(play)
    }

    /// Build the `--threads` helpers the options ask for (if they changed)
    /// and give them the current parameters.
    ///
    /// # Errors
    /// A message for a tree too small.
    fn helpers_ready(&mut self) -> Result<(), String> {
        let opts = &self.opts;
        let shape = Shape {
            helpers: opts.threads.max(1) - 1,
            tree_mb: opts.tree_mb,
            tactics_mb: if opts.no_tactics { 0 } else { opts.tactics_mb },
            seed: opts.seed,
        };
        let params = self.params();
        self.helpers
            .prepare(shape, params, !self.opts.no_replies, self.local)
    }

    /// Return the searcher, building it from the options on first use.
    ///
    /// # Errors
    /// A message for a tree too small.
    pub fn searcher_mut(&mut self) -> Result<&mut Searcher, String> {
        if self.searcher.is_none() {
            let s = Searcher::new(
                self.opts.tree_mb,
                self.opts.hash_mb,
                self.params(),
                self.opts.seed,
            )?;
            self.searcher = Some(s);
        }
        let params = self.params();
        let use_table = !self.opts.no_table;
        let replies = !self.opts.no_replies;
        let local = self.local;
        let dragons = (self.opts.owl_dragons, self.opts.owl_budget);
        let s = self.searcher.as_mut().ok_or("no searcher")?;
        s.search.set_params(params);
        s.dragons = dragons;
        s.use_table = use_table;
        s.use_replies(replies);
        s.local = local;
        Ok(s)
    }

    fn params(&self) -> Params {
        let mut p = Params::default();
        p.deepening.enabled = !self.opts.no_deepening;
        p.deepening.drop_tree = self.opts.drop_tree;
        // Each search's best moves go to the table only to grow a book.
        p.store_searches = self.opts.book.is_some();
        if let Some(w) = self.opts.shape_prior {
            p.shape_prior = w;
        }
        let ladders =
            Ladders::from_options(self.opts.no_playout_ladders, self.opts.playout_ladders);
        p.policy = self
            .opts
            .playout
            .policy(PLAYOUT_CAPTURE, ladders, self.opts.playout_fights);
        p.score_bonus = self.opts.score_bonus.unwrap_or(SCORE_BONUS);
        p.pattern_prior = self
            .opts
            .model
            .pattern_prior
            .unwrap_or(Params::pattern_prior_for(self.size));
        p.dead_removed = !self.opts.tromp_taylor;
        p.widening.base = self.opts.widen_base.unwrap_or(p.widening.base);
        p.widening.start = self.opts.widen_start.unwrap_or(p.widening.start);
        p
    }

    /// Forget what the last game taught (a new game starts).
    pub fn new_game(&mut self) {
        self.dynkomi.reset();
        self.last_rate = [None; 2];
    }

    /// Save the book to `path` (or the `--book` file).
    ///
    /// # Errors
    /// No file named, or an I/O error.
    pub fn save_book(&mut self, path: Option<PathBuf>) -> Result<(), String> {
        let path = path
            .or_else(|| self.opts.book.clone())
            .ok_or("no book file: give one or start with --book")?;
        let s = self.searcher_mut()?;
        book::save(&path, &s.table, s.generation)
    }
}

/// The host's search under the core's move choice
/// ([`kosumi_core::game::choose`]: the pass after the opponent's, superko,
/// resignation and the fall-backs are the core's, as on the firmware):
/// the position at the game's komi plus the dynamic komi of handicap
/// games ([`DynamicKomi`]; `--dynkomi-even` for even games too), over the
/// searcher and the `--threads` helpers.
impl Player for Services {
    type Error = String;

    fn scorer(&mut self) -> Scorer<'_> {
        scoring::scorer(&mut self.scratch, self.play.opts.tromp_taylor)
    }

    fn search<const M: usize, const S: usize>(
        &mut self,
        game: &Game<M, S>,
        clock: &TimeControl,
        c: Color,
        excluded: &[Point],
        ranked: &mut [Point; RANKED],
    ) -> Result<(Outcome, usize), String> {
        let budget = budget(&self.play.opts, clock, c, game.board().empty_count());
        // GoGui's interrupt stops a one-thread search, whatever its budget
        // (the helpers of `--threads` do not read it).
        let stop = self
            .interrupt
            .clone()
            .filter(|_| self.play.opts.threads == 1);
        let (result, infos) = self.run_search(game, c, excluded, budget, stop)?;
        for (slot, info) in ranked.iter_mut().zip(&infos) {
            *slot = info.mv;
        }
        let outcome = Outcome {
            best: result.best,
            win_rate: result.win_rate,
            playouts: result.playouts + result.reused,
        };
        Ok((outcome, infos.len().min(RANKED)))
    }
}

impl Services {
    /// Search `game`'s position for `c` without the moves of `excluded`
    /// within `budget` (the main searcher and the `--threads` helpers),
    /// stopping early when `stop` counts a waiting line or an interrupt;
    /// return the result and the root moves, most visited first.
    ///
    /// # Errors
    /// A message when the searcher cannot be built.
    fn run_search<const M: usize, const S: usize>(
        &mut self,
        game: &Game<M, S>,
        c: Color,
        excluded: &[Point],
        budget: Budget,
        stop: Option<std::sync::Arc<std::sync::atomic::AtomicUsize>>,
    ) -> Result<(SearchResult, Vec<MoveInfo>), String> {
        // The game's board, copied only when `c` is not the side to move
        // (an analysis may ask for either colour; `genmove`'s is set).
        let mut turned;
        let board = if game.to_play() == c {
            game.board()
        } else {
            turned = game.board().clone();
            turned.set_to_play(c);
            &turned
        };
        let komi2 = game.komi2();
        let verbose = self.args.verbose;
        let tactics = (!self.play.opts.no_tactics).then_some(&mut self.tactics.cache);
        let play = &mut self.play;
        play.size = board.size();
        play.searcher_mut()?;
        play.helpers_ready()?;
        let extra2 = play.dynkomi.extra2(
            game.size(),
            game.handicap(),
            komi2,
            game.moves().len() as u32,
            c,
            play.last_rate[c.idx()],
        );
        let search_komi2 = (i32::from(komi2) + extra2).clamp(-2000, 2000) as i16;
        play.extra2 = i32::from(search_komi2) - i32::from(komi2);
        let live_gfx = play.opts.gogui_gfx.then_some(gogui::live as LiveReport);
        let Play {
            searcher,
            helpers,
            patterns,
            ..
        } = play;
        let patterns = *patterns;
        let searcher = searcher.as_mut().ok_or("no searcher")?;
        searcher.stop = stop;
        searcher.live_gfx = live_gfx;
        let run_main = |s: &mut Searcher, b| {
            s.run(board, search_komi2, excluded, b, tactics, patterns, verbose)
        };
        // An interrupted analysis searches alone: the helpers do not stop.
        let (result, infos) = if helpers.is_empty() || searcher.stop.is_some() {
            let result = run_main(searcher, budget).map_err(|e| e.to_string());
            searcher.stop = None;
            let result = result?;
            let mut infos = [MoveInfo::EMPTY; RANKED];
            let n = searcher.search.root_moves(&mut infos);
            (result, infos[..n].to_vec())
        } else {
            let budgets = parallel::split(budget, helpers.len() + 1);
            parallel::run(
                searcher,
                helpers,
                board,
                search_komi2,
                excluded,
                patterns,
                budgets,
                run_main,
            )
            .map_err(|e| e.to_string())?
        };
        play.last = Some(result);
        play.last_rate[c.idx()] = Some(result.win_rate);
        if verbose {
            let geo = board.geometry();
            let mut buf = [0u8; 4];
            eprintln!(
                "kosumi: {} {} win {:.3} visits {} playouts {} (+{} reused) nodes {} iters {} hits {} misses {} prunes {} komi {}",
                color_name(c),
                geo.vertex_str(result.best, &mut buf),
                result.win_rate,
                result.visits,
                result.playouts,
                result.reused,
                result.nodes,
                result.iterations,
                result.hits,
                result.misses,
                result.prunes,
                f64::from(search_komi2) / 2.0
            );
        }
        Ok((result, infos))
    }

    /// Search for an analysis report (see [`super::analyze`]).
    ///
    /// # Errors
    /// A message when the searcher cannot be built.
    pub fn analyse<const M: usize, const S: usize>(
        &mut self,
        game: &Game<M, S>,
        c: Color,
        excluded: &[Point],
        budget: Budget,
        stop: Option<std::sync::Arc<std::sync::atomic::AtomicUsize>>,
    ) -> Result<SearchResult, String> {
        self.run_search(game, c, excluded, budget, stop)
            .map(|(r, _)| r)
    }

    /// Return the pattern model's gamma of each of `moves` for `c` in
    /// `game`'s position (1 each without a model).
    pub fn gammas<const M: usize, const S: usize>(
        &mut self,
        game: &Game<M, S>,
        c: Color,
        moves: &[Point],
    ) -> Vec<f32> {
        let Some(patterns) = self.play.patterns else {
            return vec![1.0; moves.len()];
        };
        let mut board = game.board().clone();
        board.set_to_play(c);
        let mut ladder = Box::<kosumi_core::tactics::Ladder>::default();
        moves
            .iter()
            .map(|&p| patterns.rate(&mut board, p, c, &mut *ladder).gamma)
            .collect()
    }
}
