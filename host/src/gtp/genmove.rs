//! The host's search under the core's GTP session: the searcher, its
//! options and helpers, the budget from the clock, and the host's
//! commands around them: `kosumi-setoption`, `kosumi-savebook`,
//! `kosumi-loadbook`; `quit` saves the book.
//!
//! `genmove` and its kin are the core's ([`kosumi_core::gtp::Session`],
//! the firmware's too): the pass after the opponent's, superko, the
//! resignation rule and the fall-backs come from
//! [`kosumi_core::game::choose`]; this module is what it asks to search
//! (the [`Player`] impl of [`Services`]).

use std::path::PathBuf;

use kosumi_core::game::{timecontrol, Game, Outcome, Player, Scorer, TimeControl, RANKED};
use kosumi_core::geometry::{Color, Point};
use kosumi_core::gtp::args::color_name;
use kosumi_core::pattern::Patterns;
use kosumi_core::search::{Budget, DynamicKomi, MoveInfo, Params, SearchResult};

use crate::policy::PolicyName;

use super::commands::{Failure, Refusal, Reply};
use super::parallel::{self, Helpers, Shape};
use super::patterns::ModelArgs;
use super::searcher::Searcher;
use super::{book, scoring, Engine, Services};

/// Search options, on the command line and through `kosumi-setoption`.
#[derive(clap::Args, Debug, Clone, PartialEq)]
pub struct SearchArgs {
    /// Playouts per move (with no --time: exactly this many, deterministic).
    #[arg(long)]
    pub playouts: Option<u32>,
    /// Seconds per move when the controller sets no time control (default 1).
    #[arg(long)]
    pub time: Option<f64>,
    /// Search threads: the main searcher plus helpers with trees of their
    /// own (root parallelism; each thread takes `--tree-mb` and
    /// `--tactics-mb`).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Search tree (node pool) size in MiB.
    #[arg(long, default_value_t = 256)]
    pub tree_mb: usize,
    /// Best-move table size in MiB (a book sets its own size).
    #[arg(long, default_value_t = 16)]
    pub hash_mb: usize,
    /// Tactical cache size in MiB (the reader's one table: `attack`,
    /// `defend` and the search's priors).
    #[arg(long, default_value_t = super::tactics::DEFAULT_MB)]
    pub tactics_mb: usize,
    /// Best-move table file: loaded at start, saved on quit and kosumi-savebook.
    #[arg(long)]
    pub book: Option<PathBuf>,
    /// Resign when the best move's win rate falls below this (0 never
    /// resigns), after 2,000 playouts and from the middle game on.
    #[arg(long, default_value_t = 0.05)]
    pub resign: f64,
    /// After the opponent's pass, pass whenever passing wins (the default,
    /// after its first pass, passes only when the game is over: no point
    /// that counts for nobody, no dead stone on the board).
    #[arg(long)]
    pub quick_pass: bool,
    /// Think on the opponent's time: after each move it plays, search the
    /// position until the next command arrives (the main thread only; the
    /// tree is kept for the next genmove, and prunes itself when full).
    #[arg(long)]
    pub ponder: bool,
    /// Write GoGui's live graphics (`gogui-gfx:` blocks on stderr: the best
    /// move so far) during each search.
    #[arg(long)]
    pub gogui_gfx: bool,
    /// Random seed of the search.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Search without the best-move table.
    #[arg(long)]
    pub no_table: bool,
    /// Search without iterative deepening.
    #[arg(long)]
    pub no_deepening: bool,
    /// Search without the tactical reader in the priors.
    #[arg(long)]
    pub no_tactics: bool,
    /// Prior bonus of a 3x3 shape-pattern move, in virtual playouts (0: off;
    /// default the core's).
    #[arg(long)]
    pub shape_prior: Option<f32>,
    /// Weight of the score margin in a playout's value, 0 to 1 (0: wins
    /// only; default the engine's).
    #[arg(long, value_parser = unit_interval)]
    pub score_bonus: Option<f32>,
    /// The playout policy of the search.
    #[arg(long, value_enum, default_value_t = PolicyName::Heavy)]
    pub playout: PolicyName,
    /// The move-pattern model.
    #[command(flatten)]
    pub model: ModelArgs,
    /// No last good replies with forgetting (LGRF-2) in the playouts (on
    /// by default; BENCHMARKS.md has the matches that chose it).
    #[arg(long)]
    pub no_replies: bool,
    /// Dynamic komi in even games too (Pachi's ratchet: ask more of itself
    /// while winning big); handicap games always have it.
    #[arg(long)]
    pub dynkomi_even: bool,
    /// Value the end of the game by Tromp-Taylor (every stone on the board
    /// counts, as on CGOS) instead of with dead stones removed (GNU Go's
    /// scoring, the GUIs', KGS).
    #[arg(long)]
    pub tromp_taylor: bool,
}

impl Default for SearchArgs {
    fn default() -> Self {
        SearchArgs {
            playouts: None,
            time: None,
            threads: 1,
            tree_mb: 256,
            hash_mb: 16,
            tactics_mb: super::tactics::DEFAULT_MB,
            book: None,
            resign: 0.05,
            quick_pass: false,
            ponder: false,
            gogui_gfx: false,
            seed: 1,
            no_table: false,
            no_deepening: false,
            no_tactics: false,
            shape_prior: None,
            score_bonus: None,
            playout: PolicyName::Heavy,
            model: ModelArgs::default(),
            tromp_taylor: false,
            dynkomi_even: false,
            no_replies: false,
        }
    }
}

/// Parse a number from 0 to 1.
fn unit_interval(text: &str) -> Result<f32, String> {
    text.parse::<f32>()
        .ok()
        .filter(|w| (0.0..=1.0).contains(w))
        .ok_or_else(|| format!("{text}: not a number from 0 to 1"))
}

/// The chance of the waterfall's rule 2 in the search's playouts (the
/// seed's).
pub const PLAYOUT_CAPTURE: f64 = 0.75;
/// The engine's weight of the score margin in a playout's value.
pub const SCORE_BONUS: f32 = 0.0;
/// Most playouts of a time-limited search.
const MAX_PLAYOUTS: u32 = 50_000_000;

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
        let mut play = Play {
            opts: opts.clone(),
            patterns: loaded,
            loaded,
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
        self.helpers.prepare(shape, params)
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
        let s = self.searcher.as_mut().ok_or("no searcher")?;
        s.search.set_params(params);
        s.use_table = use_table;
        s.use_replies(replies);
        Ok(s)
    }

    fn params(&self) -> Params {
        let mut p = Params::default();
        p.deepening.enabled = !self.opts.no_deepening;
        if let Some(w) = self.opts.shape_prior {
            p.shape_prior = w;
        }
        p.policy = self.opts.playout.policy(PLAYOUT_CAPTURE);
        p.score_bonus = self.opts.score_bonus.unwrap_or(SCORE_BONUS);
        p.pattern_prior = self
            .opts
            .model
            .pattern_prior
            .unwrap_or(Params::pattern_prior_for(self.size));
        p.dead_removed = !self.opts.tromp_taylor;
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

/// Return the budget of the next search for `c` on a board with
/// `empty` points, under `clock`.
fn budget(opts: &SearchArgs, clock: &TimeControl, c: Color, empty: usize) -> Budget {
    let tc = clock.budget(c.idx(), empty);
    let secs = match (tc, opts.time, opts.playouts) {
        (Some(t), Some(cap), _) => Some(t.min(cap)),
        (Some(t), None, _) => Some(t),
        (None, Some(t), _) => Some(t),
        (None, None, Some(_)) => None,
        (None, None, None) => Some(1.0),
    };
    match secs {
        Some(s) => Budget {
            early_stop: tc.is_none() || clock.keeps_saved_time(c.idx()),
            ..Budget::time(
                (s.max(0.0) * 1000.0) as u64,
                opts.playouts.unwrap_or(MAX_PLAYOUTS),
            )
        },
        None => Budget::playouts(opts.playouts.unwrap_or(10_000)),
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
        let (result, infos) = self.run_search(game, c, excluded, budget, None)?;
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
    /// stopping early when `stop` counts a waiting line; return the result
    /// and the root moves, most visited first.
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
        let live_gfx = play.opts.gogui_gfx;
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
            .map(|&p| patterns.rate(&mut board, p, c, &mut ladder).gamma)
            .collect()
    }
}

impl kosumi_core::gtp::Engine for Services {
    fn version(&self) -> &'static str {
        if self.args.lizzie {
            concat!("0.16 (kosumi ", env!("CARGO_PKG_VERSION"), ")")
        } else {
            env!("CARGO_PKG_VERSION")
        }
    }

    fn new_game(&mut self) {
        self.play.new_game();
        self.loaded = super::sgf::Loaded::default();
    }

    fn extra_commands(&self) -> &'static [&'static str] {
        super::commands::NAMES
    }
}

/// Parse `on`/`off`/`true`/`false`/`1`/`0`.
pub fn flag(text: &str) -> Result<bool, Failure> {
    match text.to_ascii_lowercase().as_str() {
        "on" | "true" | "1" | "yes" => Ok(true),
        "off" | "false" | "0" | "no" => Ok(false),
        _ => Err(Failure::Syntax),
    }
}

/// The options `kosumi-setoption` lists and sets, in its listing's order.
pub const OPTIONS: &[&str] = &[
    "playouts",
    "time",
    "threads",
    "tree_mb",
    "hash_mb",
    "tactics_mb",
    "book",
    "resign",
    "quick_pass",
    "ponder",
    "gogui_gfx",
    "seed",
    "table",
    "deepening",
    "tactics",
    "shape_prior",
    "score_bonus",
    "playout",
    "patterns",
    "pattern_prior",
    "tromp_taylor",
    "dynkomi_even",
    "replies",
    "verbose",
];

/// `kosumi-setoption NAME VALUE` (no arguments: list the options).
pub fn setoption(engine: &mut Engine, args: &[String]) -> Reply {
    let o = &mut engine.player.play.opts;
    match args {
        [] => Ok(format!(
                "playouts {}\ntime {}\nthreads {}\ntree_mb {}\nhash_mb {}\ntactics_mb {}\nbook {}\nresign {}\nquick_pass {}\nponder {}\ngogui_gfx {}\nseed {}\ntable {}\ndeepening {}\ntactics {}\nshape_prior {}\nscore_bonus {}\nplayout {}\npatterns {}\npattern_prior {}\ntromp_taylor {}\ndynkomi_even {}\nreplies {}\nverbose {}",
                o.playouts.map_or("none".into(), |p| p.to_string()),
                o.time.map_or("none".into(), |t| t.to_string()),
                o.threads,
                o.tree_mb,
                o.hash_mb,
                o.tactics_mb,
                o.book.as_ref().map_or("none".into(), |b| b.display().to_string()),
                o.resign,
                o.quick_pass,
                o.ponder,
                o.gogui_gfx,
                o.seed,
                !o.no_table,
                !o.no_deepening,
                !o.no_tactics,
                o.shape_prior.unwrap_or(Params::DEFAULT.shape_prior),
                o.score_bonus.unwrap_or(SCORE_BONUS),
                o.playout.name(),
                engine.player.play.patterns.is_some(),
                o.model
                    .pattern_prior
                    .unwrap_or(Params::pattern_prior_for(engine.game.size())),
                o.tromp_taylor,
                o.dynkomi_even,
                !o.no_replies,
                engine.player.args.verbose
        )),
        [name, value] => {
            let v = value.as_str();
            let none = v.eq_ignore_ascii_case("none");
            let mut rebuild = false;
            match name.to_ascii_lowercase().replace('-', "_").as_str() {
                "playouts" => {
                    o.playouts = if none {
                        None
                    } else {
                        Some(v.parse::<u32>().ok().filter(|&p| p > 0).ok_or(Failure::Syntax)?)
                    }
                }
                "time" => {
                    o.time = if none {
                        None
                    } else {
                        Some(timecontrol::seconds(v).map_err(|_| Failure::Syntax)?)
                    }
                }
                "threads" => o.threads = v.parse::<usize>().ok().filter(|&t| (1..=256).contains(&t)).ok_or(Failure::Syntax)?,
                "tree_mb" => {
                    o.tree_mb = v.parse::<usize>().ok().filter(|&m| (1..=65536).contains(&m)).ok_or(Failure::Syntax)?;
                    rebuild = true;
                }
                "hash_mb" => {
                    o.hash_mb = v.parse::<usize>().ok().filter(|&m| (1..=super::searcher::MAX_TABLE_MB).contains(&m)).ok_or(Failure::Syntax)?;
                    rebuild = true;
                }
                "tactics_mb" => {
                    let mb = v.parse::<usize>().ok().filter(|&m| (1..=65536).contains(&m)).ok_or(Failure::Syntax)?;
                    if mb != o.tactics_mb {
                        // Built first: a size that cannot be had keeps the old cache.
                        engine.player.tactics = super::tactics::Tactics::new(mb).map_err(|_| Failure::Syntax)?;
                        engine.player.play.opts.tactics_mb = mb;
                    }
                }
                "tactics" => o.no_tactics = !flag(v)?,
                "shape_prior" => {
                    o.shape_prior = Some(v.parse::<f32>().ok().filter(|w| (0.0..=1000.0).contains(w)).ok_or(Failure::Syntax)?)
                }
                "score_bonus" => o.score_bonus = Some(unit_interval(v).map_err(|_| Failure::Syntax)?),
                "playout" => {
                    o.playout = <PolicyName as clap::ValueEnum>::from_str(v, true).map_err(|_| Failure::Syntax)?
                }
                "book" => o.book = if none { None } else { Some(PathBuf::from(v)) },
                "resign" => {
                    o.resign = v.parse::<f64>().ok().filter(|r| (0.0..=1.0).contains(r)).ok_or(Failure::Syntax)?;
                    engine.resign.below = o.resign as f32;
                }
                "seed" => {
                    o.seed = v.parse::<u64>().map_err(|_| Failure::Syntax)?;
                    let seed = o.seed;
                    if let Some(s) = engine.player.play.searcher.as_mut() {
                        s.search.set_seed(seed);
                        s.search.clear_tree();
                    }
                }
                "quick_pass" => {
                    o.quick_pass = flag(v)?;
                    engine.resign.quick_pass = o.quick_pass;
                }
                "ponder" => o.ponder = flag(v)?,
                "gogui_gfx" => o.gogui_gfx = flag(v)?,
                "table" => o.no_table = !flag(v)?,
                "tromp_taylor" => o.tromp_taylor = flag(v)?,
                "replies" => o.no_replies = !flag(v)?,
                "dynkomi_even" => {
                    o.dynkomi_even = flag(v)?;
                    engine.player.play.dynkomi.adaptive_even = flag(v)?;
                }
                "patterns" => {
                    let on = flag(v)?;
                    let play = &mut engine.player.play;
                    if on && play.loaded.is_none() {
                        // Started with --no-patterns: load the model now.
                        let args = ModelArgs {
                            no_patterns: false,
                            ..play.opts.model.clone()
                        };
                        play.loaded = args.load().map_err(|_| Failure::Syntax)?;
                    }
                    play.patterns = if on { play.loaded } else { None };
                    play.opts.model.no_patterns = !on;
                }
                "pattern_prior" => {
                    o.model.pattern_prior = Some(v.parse::<f32>().ok().filter(|w| (0.0..=100_000.0).contains(w)).ok_or(Failure::Syntax)?)
                }
                "deepening" => o.no_deepening = !flag(v)?,
                "verbose" => engine.player.args.verbose = flag(v)?,
                other => {
                    return Err(Refusal::Said(format!(
                        "unknown option {other}; the options: {}",
                        OPTIONS.join(" ")
                    )))
                }
            }
            if rebuild {
                let old = engine.player.play.searcher.take();
                if let Err(e) = engine.player.play.searcher_mut() {
                    engine.player.play.searcher = old;
                    return Err(Refusal::Said(e));
                }
            }
            Ok(String::new())
        }
        _ => Err(Failure::Syntax.into()),
    }
}

/// `kosumi-savebook [FILE]`
pub fn savebook(engine: &mut Engine, args: &[String]) -> Reply {
    let path = match args {
        [] => None,
        [f] => Some(PathBuf::from(f)),
        _ => return Err(Failure::Syntax.into()),
    };
    engine.player.play.save_book(path).map_err(Refusal::Said)?;
    Ok(String::new())
}

/// `kosumi-loadbook FILE`: replace the table with the book, or change nothing.
pub fn loadbook(engine: &mut Engine, args: &[String]) -> Reply {
    let [f] = args else {
        return Err(Failure::Syntax.into());
    };
    match book::load(std::path::Path::new(f)) {
        Ok((table, generation)) => {
            let s = engine
                .player
                .play
                .searcher_mut()
                .map_err(|_| Failure::CannotLoad)?;
            s.table = table;
            s.generation = generation;
            Ok(String::new())
        }
        Err(e) => {
            if engine.player.args.verbose {
                eprintln!("kosumi: {e}");
            }
            Err(Failure::CannotLoad.into())
        }
    }
}

/// `quit`: save the book if one was named, then stop.
pub fn quit(engine: &mut Engine, _: &[String]) -> Reply {
    engine.quit = true;
    if engine.player.play.opts.book.is_some() && engine.player.play.searcher.is_some() {
        if let Err(e) = engine.player.play.save_book(None) {
            eprintln!("kosumi: saving the book: {e}");
        }
    }
    Ok(String::new())
}
