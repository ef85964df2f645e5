//! The search options: on the command line (`--playouts`, `--threads`,
//! ...) and through `kosumi-setoption NAME VALUE`, which lists them
//! without arguments and answers an unknown name with the known ones.

use std::path::PathBuf;

use kosumi_core::game::timecontrol;
use kosumi_core::playout::Heavy;
use kosumi_core::search::dragons::MAX_DRAGONS;
use kosumi_core::search::Params;

use crate::policy::PolicyName;

use super::patterns::ModelArgs;
use super::reply::{flag, Failure, Refusal, Reply};
use super::searcher::MAX_TABLE_MB;
use super::tactics::{self, Tactics};
use super::Engine;

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
    #[arg(long, default_value_t = tactics::DEFAULT_MB)]
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
    /// End each deepening iteration as Valkyria does: best moves to the
    /// table, the tree dropped (off: iterations only report; BENCHMARKS.md
    /// has the matches).
    #[arg(long)]
    pub drop_tree: bool,
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
    /// No ladder reading in the heavy playouts (on by default with a
    /// pattern model, whose ladder reader they borrow: no escape into a
    /// ladder, and the two-liberty reads of --playout-ladders).
    #[arg(long)]
    pub no_playout_ladders: bool,
    /// Chance that a heavy playout move reads the two-liberty chains next
    /// to the last move (the atari that catches the last move's chain in a
    /// ladder, the extension out of one), 0 to 1 (default the core's).
    #[arg(long, value_parser = unit_interval)]
    pub playout_ladders: Option<f32>,
    /// Chance that a heavy playout move looks at the fights next to the
    /// last move: the two-liberty check (atari a chain left with two
    /// liberties, extend or counter-atari an own one) and the nakade check
    /// (the vital point of a killing eye shape), 0 to 1 (default the
    /// core's; BENCHMARKS.md has the matches).
    #[arg(long, value_parser = unit_interval)]
    pub playout_fights: Option<f32>,
    /// Learned answers to the last move in the heavy playouts, from this
    /// file (`kosumi patterns local`), in place of the hand-made 3x3
    /// shapes (BENCHMARKS.md has the matches).
    #[arg(long)]
    pub local_answers: Option<PathBuf>,
    /// Dynamic komi in even games too (Pachi's ratchet: ask more of itself
    /// while winning big); handicap games always have it.
    #[arg(long)]
    pub dynkomi_even: bool,
    /// Value the end of the game by Tromp-Taylor (every stone on the board
    /// counts, as on CGOS) instead of with dead stones removed (GNU Go's
    /// scoring, the GUIs', KGS).
    #[arg(long)]
    pub tromp_taylor: bool,
    /// Progressive widening: children (ordered by their priors) a node
    /// chooses from at first; 0 chooses from all (default the engine's).
    #[arg(long)]
    pub widen_base: Option<u16>,
    /// Progressive widening: visits at which the next child joins, and
    /// then at 1.4 times that, ... (default the engine's).
    #[arg(long)]
    pub widen_start: Option<u32>,
    /// Life and death at the root: the owl reads at most this many weak
    /// dragons before each search, and the move that decides an
    /// unsettled one gets a prior bonus (0: off; needs the tactical
    /// reader).
    #[arg(long, default_value_t = OWL_DRAGONS)]
    pub owl_dragons: usize,
    /// The budget of each of those questions, in the owl's moves.
    #[arg(long, default_value_t = OWL_MOVES)]
    pub owl_budget: u32,
}

/// Dragons the owl reads at the root unless `--owl-dragons` says otherwise
/// (BENCHMARKS.md has the matches that chose it).
pub const OWL_DRAGONS: usize = 8;
/// The owl's moves a question unless `--owl-budget` says otherwise.
pub const OWL_MOVES: u32 = 5_000;

impl Default for SearchArgs {
    fn default() -> Self {
        SearchArgs {
            playouts: None,
            time: None,
            threads: 1,
            tree_mb: 256,
            hash_mb: 16,
            tactics_mb: tactics::DEFAULT_MB,
            book: None,
            resign: 0.05,
            quick_pass: false,
            ponder: false,
            gogui_gfx: false,
            seed: 1,
            no_table: false,
            no_deepening: false,
            drop_tree: false,
            no_tactics: false,
            shape_prior: None,
            score_bonus: None,
            playout: PolicyName::Heavy,
            model: ModelArgs::default(),
            tromp_taylor: false,
            dynkomi_even: false,
            no_replies: false,
            local_answers: None,
            widen_base: None,
            widen_start: None,
            no_playout_ladders: false,
            playout_ladders: None,
            playout_fights: None,
            owl_dragons: OWL_DRAGONS,
            owl_budget: OWL_MOVES,
        }
    }
}

/// Parse a number from 0 to 1.
pub fn unit_interval(text: &str) -> Result<f32, String> {
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
    "playout_ladders",
    "playout_fights",
    "owl_dragons",
    "owl_budget",
    "verbose",
];

/// `kosumi-setoption NAME VALUE` (no arguments: list the options).
pub fn setoption(engine: &mut Engine, args: &[String]) -> Reply {
    let o = &mut engine.player.play.opts;
    match args {
        [] => Ok(format!(
                "playouts {}\ntime {}\nthreads {}\ntree_mb {}\nhash_mb {}\ntactics_mb {}\nbook {}\nresign {}\nquick_pass {}\nponder {}\ngogui_gfx {}\nseed {}\ntable {}\ndeepening {}\ntactics {}\nshape_prior {}\nscore_bonus {}\nplayout {}\npatterns {}\npattern_prior {}\ntromp_taylor {}\ndynkomi_even {}\nreplies {}\nplayout_ladders {}\nplayout_fights {}\nowl_dragons {}\nowl_budget {}\nverbose {}",
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
                !o.no_playout_ladders,
                o.playout_fights
                    .unwrap_or(Heavy::DEFAULT.two_liberties as f32 / 4_294_967_296.0),
                o.owl_dragons,
                o.owl_budget,
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
                    o.hash_mb = v.parse::<usize>().ok().filter(|&m| (1..=MAX_TABLE_MB).contains(&m)).ok_or(Failure::Syntax)?;
                    rebuild = true;
                }
                "tactics_mb" => {
                    let mb = v.parse::<usize>().ok().filter(|&m| (1..=65536).contains(&m)).ok_or(Failure::Syntax)?;
                    if mb != o.tactics_mb {
                        // Built first: a size that cannot be had keeps the old cache.
                        engine.player.tactics = Tactics::new(mb).map_err(|_| Failure::Syntax)?;
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
                "playout_ladders" => o.no_playout_ladders = !flag(v)?,
                "playout_fights" => o.playout_fights = Some(unit_interval(v).map_err(|_| Failure::Syntax)?),
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
                "owl_dragons" => {
                    o.owl_dragons = v.parse::<usize>().ok().filter(|&n| n <= MAX_DRAGONS).ok_or(Failure::Syntax)?
                }
                "owl_budget" => o.owl_budget = v.parse::<u32>().ok().filter(|&n| n > 0).ok_or(Failure::Syntax)?,
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
