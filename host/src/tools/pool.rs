//! `kosumi pool`: the heap-less engine of the firmware on the host. The
//! core's [`PoolEngine`] under the core's GTP [`Session`], with the small
//! engine's choices ([`small`]: parameters, resignation rule, ownership
//! estimate, the reader's journal) and storage of the sizes the firmware
//! has (nodes, best-move clusters, tactical clusters), on stdin/stdout.
//!
//! It plays as the firmware plays, at the host's speed: a 9x9 match of
//! hundreds of games takes minutes here where QEMU takes hours, so changes
//! to the firmware's engine are measured over enough games to tell them
//! apart. Options change one choice at a time for such measurements; the
//! defaults are the lm3s6965evb build's (`embedded/src/board/`). What it
//! cannot show is the firmware's speed: playouts a move are given, and
//! their cost on a Cortex-M is `embedded/figures.sh`'s.

use std::io::{self, BufRead, Write};
use std::path::PathBuf;

use kosumi_core::board::Board;
use kosumi_core::game::{Book, Game};
use kosumi_core::gtp::{small, PoolEngine, Session};
use kosumi_core::pattern::{Compact, Patterns};
use kosumi_core::playout::Replies;
use kosumi_core::search::Node;
use kosumi_core::table::{BestMoveCluster, Cluster, Table, TacticCluster};
use kosumi_core::tactics::Reader;

/// Moves a game may hold: three times the points of 19x19.
const MAX_MOVES: usize = 3 * 361;
/// Setup stones a game may hold (a handicap).
const SETUP: usize = kosumi_core::game::handicap::MAX_STONES;

/// Options of `kosumi pool`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Board size at start (`boardsize` changes it).
    #[arg(long, default_value_t = 9)]
    pub size: usize,
    /// Komi at start, a multiple of 0.5.
    #[arg(long, default_value_t = 7.5, allow_negative_numbers = true)]
    pub komi: f64,
    /// Playouts a move (`kosumi-playouts` changes it).
    #[arg(long, default_value_t = 520)]
    pub playouts: u32,
    /// Nodes of the search's pool (the lm3s6965evb's 400).
    #[arg(long, default_value_t = 400)]
    pub nodes: usize,
    /// Clusters of the best-move table, a power of two.
    #[arg(long, default_value_t = 64)]
    pub table_clusters: usize,
    /// Clusters of the tactical cache, a power of two (0: no reading).
    #[arg(long, default_value_t = 16)]
    pub tactic_clusters: usize,
    /// The opening book (the firmware's is `embedded/book/9x9.kob`).
    #[arg(long)]
    pub book: Option<PathBuf>,
    /// A compact pattern table (`.kpc`, the firmware's `patterns` feature)
    /// or a model (`.kpm`), for the priors, with the small engine's
    /// parameters for a model (progressive widening, a cap on a node's
    /// children); its ladders are read on the tactical reader's journal,
    /// as the firmware reads them.
    #[arg(long)]
    pub patterns: Option<PathBuf>,
    /// Last good replies in the playouts (the browser's module has them,
    /// the firmware has not: 1 MiB of table).
    #[arg(long)]
    pub replies: bool,
    /// Base seed of the searches (a game's mixes in the games started).
    #[arg(long, default_value_t = small::SEED)]
    pub seed: u64,
    /// Visits before a node is expanded (default the small engine's).
    #[arg(long)]
    pub expand_after: Option<u32>,
    /// Nodes of each tactical read at an expansion (default the small
    /// engine's).
    #[arg(long)]
    pub read_nodes: Option<u32>,
    /// RAVE equivalence in playouts (default the small engine's).
    #[arg(long)]
    pub rave_equiv: Option<f32>,
    /// Progressive widening: children a node chooses from at first (0:
    /// all).
    #[arg(long)]
    pub widen_base: Option<u16>,
    /// Progressive widening: visits at which the next child joins.
    #[arg(long)]
    pub widen_start: Option<u32>,
    /// Most children of a node other than the root: its best-rated moves
    /// and pass (0: all).
    #[arg(long)]
    pub max_children: Option<u16>,
    /// Do not write each search's best moves to the table (the host's
    /// default; the firmware writes them).
    #[arg(long)]
    pub no_store_searches: bool,
}

/// Serve GTP with the small engine until `quit` or the end of the input.
///
/// # Errors
/// A message for a bad option or file, or an I/O error on the pipes.
pub fn run(args: &Args) -> Result<(), String> {
    let mut setup = small::setup(
        env!("CARGO_PKG_VERSION"),
        args.playouts,
        args.patterns.is_some(),
    );
    setup.seed = args.seed;
    let params = &mut setup.params;
    params.expand_after = args.expand_after.unwrap_or(params.expand_after).max(1);
    params.reading.nodes = args.read_nodes.unwrap_or(params.reading.nodes);
    params.rave_equiv = args.rave_equiv.unwrap_or(params.rave_equiv);
    params.store_searches = !args.no_store_searches;
    params.widening.base = args.widen_base.unwrap_or(params.widening.base);
    params.widening.start = args.widen_start.unwrap_or(params.widening.start);
    params.max_children = args.max_children.unwrap_or(params.max_children);
    if args.tactic_clusters == 0 {
        params.reading.nodes = 0;
    }
    if args.playouts == 0 {
        return Err("--playouts: at least 1".into());
    }
    if args.nodes < 2 {
        return Err("--nodes: at least 2".into());
    }
    for (name, n) in [
        ("--table-clusters", args.table_clusters),
        ("--tactic-clusters", args.tactic_clusters.max(1)),
    ] {
        if !n.is_power_of_two() {
            return Err(format!("{name} {n}: a power of two"));
        }
    }
    let komi2 = (args.komi * 2.0).round();
    if (komi2 - args.komi * 2.0).abs() > 1e-9 || komi2.abs() > f64::from(i16::MAX) {
        return Err(format!("--komi {}: a multiple of 0.5", args.komi));
    }
    let board = Board::new(args.size).map_err(|_| format!("--size {}: 2 to 19", args.size))?;

    let book = args.book.as_deref().map(read_book).transpose()?;
    let patterns = args.patterns.as_deref().map(read_patterns).transpose()?;
    let mut nodes = vec![Node::EMPTY; args.nodes];
    let mut clusters = vec![BestMoveCluster::EMPTY; args.table_clusters];
    let storage = vec![<TacticCluster as Cluster>::EMPTY; args.tactic_clusters.max(1)];
    let mut cache = Table::new(storage.into_boxed_slice()).map_err(|e| format!("{e:?}"))?;
    let mut reader: Box<
        Reader<'_, Box<[TacticCluster]>, { small::JOURNAL_WRITES }, { small::JOURNAL_MOVES }>,
    > = Box::new(Reader::with_journal(Some(&mut cache)));
    let mut replies = args
        .replies
        .then(|| Replies::new(vec![0u16; Replies::<Vec<u16>>::ENTRIES]))
        .transpose()
        .map_err(|_| "last good replies: no table".to_string())?;

    let mut engine = PoolEngine::new(setup, &mut nodes, &mut clusters);
    // The reader is lent even without reading (0 clusters): the playouts'
    // ladders and the patterns' are read on its journal.
    engine.set_tactics(&mut *reader);
    if let Some(book) = &book {
        engine.set_book(book);
    }
    if let Some(patterns) = patterns {
        engine.set_patterns(patterns, None);
    }
    if let Some(r) = &mut replies {
        engine.set_replies(r);
    }
    let mut session: Box<Session<PoolEngine<'_>, MAX_MOVES, SETUP>> =
        Box::new(Session::new(Game::on_empty(board, komi2 as i16), engine));
    session.resign = small::RESIGN;
    serve(&mut session)
}

/// Answer GTP lines from stdin on stdout until `quit` or the end of input.
fn serve(session: &mut Session<PoolEngine<'_>, MAX_MOVES, SETUP>) -> Result<(), String> {
    let stdin = io::stdin();
    let mut stdout = io::stdout().lock();
    let mut line = Vec::new();
    let mut answer = String::new();
    let mut input = stdin.lock();
    while !session.quit {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => return Err(format!("stdin: {e}")),
        }
        if line.last() == Some(&b'\n') {
            line.pop();
        }
        answer.clear();
        session
            .answer_line(&mut line, &mut answer, |s, req, _| s.player.command(req))
            .map_err(|_| "cannot write an answer".to_string())?;
        stdout
            .write_all(answer.as_bytes())
            .and_then(|()| stdout.flush())
            .map_err(|e| format!("stdout: {e}"))?;
    }
    Ok(())
}

/// Return the opening book in `path`, read and checked (leaked: it lives
/// as long as the engine).
fn read_book(path: &std::path::Path) -> Result<Book<'static>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Book::parse(Vec::leak(bytes)).map_err(|e| format!("{}: {e:?}", path.display()))
}

/// Return the patterns in `path`: a compact table (`.kpc`) read in place,
/// or a model indexed as the host indexes it.
fn read_patterns(path: &std::path::Path) -> Result<&'static Patterns<'static>, String> {
    if path.extension().is_some_and(|e| e == "kpc") {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let table = Compact::parse(Vec::leak(bytes))
            .map_err(|e| format!("pattern table {}: {e}", path.display()))?;
        Ok(Box::leak(Box::new(Patterns::compact(table))))
    } else {
        kosumi::gtp::patterns::load(Some(path))
    }
}
