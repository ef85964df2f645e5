//! `kosumi analysis`: KataGo's JSON analysis protocol
//! (`docs/Analysis_Engine.md`) on stdin/stdout, a subset, so that KaTrain
//! and scripts written for KataGo's analysis engine can drive kosumi.
//!
//! One JSON query per input line; one JSON response per output line,
//! flushed at once. Every malformed line or bad field gets an error line
//! (`{"error"}`, or `{"id","field","error"}` once the id is known) and
//! the loop goes on; non-UTF-8 bytes are replaced. End of input ends the
//! loop once the queued turns are analysed, as in KataGo.
//!
//! | module | what it is |
//! |---|---|
//! | [`query`] | a line checked into a typed request, with KataGo's messages |
//! | [`rules`] | the `rules` names and objects, reduced to komi and handicap bonus |
//! | [`position`] | the game of a query, rebuilt for any turn |
//! | [`job`] | one turn searched, with partial results |
//! | [`response`] | the response lines |
//!
//! # Supported
//!
//! * Queries: `id`, `moves`, `initialStones`, `initialPlayer`, `rules`
//!   (KataGo's names and rule objects; see [`rules`]), `komi`,
//!   `whiteHandicapBonus`, `boardXSize` = `boardYSize` (2 to 19),
//!   `analyzeTurns`, `maxVisits`, `analysisPVLen`, `includeOwnership`,
//!   `includeMovesOwnership` (the 10 most visited moves of a final result;
//!   KaTrain's "simple ownership" AI needs it), `includePolicy`,
//!   `avoidMoves`, `allowMoves`,
//!   `reportDuringSearchEvery`, `firstReportDuringSearchAfter`,
//!   `priority`, `priorities`, and in `overrideSettings`:
//!   `reportAnalysisWinratesAs`, `maxVisits` (or `maxPlayouts`), `maxTime`.
//! * Results: `id`, `turnNumber`, `isDuringSearch`; per move `move`,
//!   `visits` (= `edgeVisits`), `winrate`, `scoreLead` (= `scoreMean` =
//!   `scoreSelfplay`), `scoreStdev`, `prior`, `lcb`, `utility` (2 x
//!   winrate - 1), `utilityLcb`, `order` (by visits), `pv`; `rootInfo`
//!   with `visits`, `winrate`, `scoreLead`, `scoreMean`, `scoreSelfplay`,
//!   `scoreStdev`, `utility`, `currentPlayer`; `ownership` (and per move);
//!   `policy`.
//! * Actions: `query_version` (`version` is kosumi's, `git_hash` is
//!   `<omitted>`), `clear_cache` (empties the best-move table),
//!   `query_models` (one entry, kosumi), `terminate`, `terminate_all`
//!   (queued turns answer `noResults`; the running one stops within a
//!   few playouts and reports what it found).
//!
//! # What the numbers are
//!
//! kosumi has no neural net. `maxVisits` is a playout budget (default:
//! `--playouts`, else 500, KataGo's example config's; kosumi needs far
//! more playouts than KataGo needs visits for the same strength); `maxTime`
//! defaults to `--time` (else none). Win rates and scores are the playouts'
//! ([`crate::gtp::analyze`], as `kata-analyze` reports them): the score
//! is the mean final area margin under the query's komi (plus the handicap
//! bonus), so `scoreLead`, `scoreMean` and `scoreSelfplay` are one number.
//! `prior` and `policy` are the pattern model's shares (even without
//! one); `policy` has -1 on points the side to move may not play.
//! `ownership` is a 400-playout estimate of the position (the one
//! `final_status_list` uses), not of the search tree; a move's is the
//! same estimate of the position after it. Values are from
//! black's view unless `overrideSettings.reportAnalysisWinratesAs` says
//! `WHITE` or `SIDETOMOVE`: KataGo's default is the side to move, but its
//! example analysis config and KaTrain both set `BLACK`.
//!
//! # Missing
//!
//! Non-square boards; territory scoring (Japanese and Korean rules are
//! counted by area with their komi, with a warning); `untilDepth` beyond 1
//! (applied at the root only, with a warning); per-move ownership beyond
//! the 10 most visited moves and in partial results; `includeOwnershipStdev`,
//! `includeMovesOwnershipStdev`, `includePVVisits`,
//! `includeNoResultValue` (warned, left out);
//! `rootPolicyTemperature`, `rootFpuReductionMax` and other settings
//! (warned, ignored); `humanPolicy` and the `raw*` and `human*` root
//! fields; `thisHash`, `symHash`, `weight`, `edgeWeight`,
//! `playSelectionValue`, `isSymmetryOf`; `(x,y)` coordinates and columns
//! beyond T; handicap counted from initial black moves (only initial
//! stones count). Turns are analysed one at a time, highest priority first
//! (ties in arrival order), on the main search thread only (`--threads`
//! helpers cannot be interrupted); actions and new queries are read between
//! turns, except `terminate` lines, which are read at once.

pub mod job;
pub mod position;
pub mod query;
pub mod response;
pub mod rules;

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};

use serde_json::json;

use kosumi_core::table::{BestMoveCluster, Cluster};

use crate::gtp::{self, Engine};
use job::{Job, Link};
use query::Request;

/// Run the analysis engine on stdin and stdout.
///
/// # Errors
/// A message for bad options or an I/O error.
pub fn run(args: gtp::Args) -> Result<(), String> {
    let mut engine = gtp::engine(args)?;
    let stdin = io::BufReader::new(io::stdin());
    let stdout = io::BufWriter::new(io::stdout().lock());
    match serve(&mut engine, stdin, stdout) {
        Ok(()) => Ok(()),
        // The client went away: nothing left to answer.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(format!("analysis: {e}")),
    }
}

/// Serve the protocol: read queries from `input` until its end, writing
/// responses to `output`. Input is read on a thread of its own, which
/// counts `terminate` lines so that a running search stops for them.
///
/// # Errors
/// An I/O error of `input` or `output`.
pub fn serve(
    engine: &mut Engine,
    input: impl BufRead + Send + 'static,
    output: impl Write,
) -> io::Result<()> {
    let stop = Arc::new(AtomicUsize::new(0));
    let (tx, rx) = mpsc::channel();
    let count = Arc::clone(&stop);
    // Detached: it ends with the input or when the loop stops listening.
    std::thread::spawn(move || read_lines(input, &tx, &count));
    let mut server = Server {
        lines: rx,
        stop,
        out: output,
        queue: Vec::new(),
        seq: 0,
        running: None,
        ended: false,
        eof: false,
        verbose: engine.player.args.verbose,
    };
    loop {
        if server.queue.is_empty() {
            if server.eof {
                return Ok(());
            }
            match server.lines.recv() {
                Ok(line) => server.take(engine, &line?)?,
                Err(_) => server.eof = true,
            }
        }
        server.drain(engine)?;
        if let Some(job) = server.next_job() {
            server.running = Some((job.query.id.clone(), job.turn));
            server.ended = false;
            let ran = job::run(engine, &job, &mut server);
            server.running = None;
            ran?;
        }
    }
}

/// Send each line of `input` to `tx`; count in `stop` each one that is a
/// `terminate` or `terminate_all` action (after sending it, so that the
/// loop finds the line when it sees the count).
fn read_lines(mut input: impl BufRead, tx: &mpsc::Sender<io::Result<Vec<u8>>>, stop: &AtomicUsize) {
    loop {
        let mut buf = Vec::new();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) => return,
            Ok(_) => {
                let terminate = is_terminate(&buf);
                if tx.send(Ok(buf)).is_err() {
                    return;
                }
                if terminate {
                    stop.fetch_add(1, Ordering::SeqCst);
                }
            }
            Err(e) => {
                let _ = tx.send(Err(e));
                return;
            }
        }
    }
}

/// Query whether `line` is a `terminate` or `terminate_all` action.
fn is_terminate(line: &[u8]) -> bool {
    serde_json::from_slice::<serde_json::Value>(line).is_ok_and(|v| {
        v.get("action")
            .and_then(|a| a.as_str())
            .is_some_and(|a| a.starts_with("terminate"))
    })
}

/// The loop's state: the input, the output, the queued turns and the
/// running one.
struct Server<W: Write> {
    /// Input lines from the reading thread.
    lines: mpsc::Receiver<io::Result<Vec<u8>>>,
    /// `terminate` lines counted by the reading thread, not yet handled.
    stop: Arc<AtomicUsize>,
    /// The output.
    out: W,
    /// Turns waiting.
    queue: Vec<Job>,
    /// Turns queued so far (the next one's arrival number).
    seq: u64,
    /// The running turn: its query's id and turn number.
    running: Option<(String, usize)>,
    /// A `terminate` ended the running turn.
    ended: bool,
    /// The input ended.
    eof: bool,
    /// Log lines to stderr.
    verbose: bool,
}

impl<W: Write> Server<W> {
    /// Handle every line that arrived, without waiting.
    fn drain(&mut self, engine: &mut Engine) -> io::Result<()> {
        self.stop.store(0, Ordering::SeqCst);
        loop {
            match self.lines.try_recv() {
                Ok(line) => self.take(engine, &line?)?,
                Err(mpsc::TryRecvError::Empty) => return Ok(()),
                Err(mpsc::TryRecvError::Disconnected) => {
                    self.eof = true;
                    return Ok(());
                }
            }
        }
    }

    /// Handle one input line: answer an action, queue a query's turns, or
    /// refuse it.
    fn take(&mut self, engine: &mut Engine, raw: &[u8]) -> io::Result<()> {
        let text = String::from_utf8_lossy(raw);
        let line = text.trim();
        if line.is_empty() {
            return Ok(());
        }
        if self.verbose {
            // A closed stderr loses the log, never the session.
            let _ = writeln!(io::stderr(), "<< {line}");
        }
        let parsed = match query::parse(line) {
            Ok(parsed) => parsed,
            Err(refusal) => return self.send(&response::error(&refusal)),
        };
        for w in &parsed.warnings {
            self.send(&response::warning(&parsed.id, w))?;
        }
        match parsed.request {
            Request::Version(echo) => self.send(&response::echo(
                echo,
                vec![
                    ("version", json!(env!("CARGO_PKG_VERSION"))),
                    ("git_hash", json!("<omitted>")),
                ],
            )),
            Request::ClearCache(echo) => {
                if let Some(s) = engine.player.play.searcher.as_mut() {
                    s.table.fill(BestMoveCluster::EMPTY);
                }
                self.send(&response::echo(echo, Vec::new()))
            }
            Request::Models(echo) => self.send(&response::echo(
                echo,
                vec![(
                    "models",
                    json!([{
                        "name": "kosumi",
                        "internalName": "kosumi",
                        "maxBatchSize": 1,
                        "usesHumanSLProfile": false,
                        "version": 0,
                        "usingFP16": "false",
                    }]),
                )],
            )),
            Request::Terminate {
                echo,
                target,
                turns,
            } => {
                self.terminate(target.as_deref(), turns.as_deref())?;
                self.send(&response::echo(echo, Vec::new()))
            }
            Request::Analyse(query) => {
                let query = Arc::new(*query);
                for (&turn, &priority) in query.turns.iter().zip(&query.priorities) {
                    self.queue.push(Job {
                        query: Arc::clone(&query),
                        turn,
                        priority,
                        seq: self.seq,
                    });
                    self.seq += 1;
                }
                Ok(())
            }
        }
    }

    /// End the turns of the query `target` (all queries if `None`) among
    /// `turns` (all if `None`): queued ones answer `noResults`, the
    /// running one stops.
    fn terminate(&mut self, target: Option<&str>, turns: Option<&[usize]>) -> io::Result<()> {
        let hit = |id: &str, turn: usize| {
            target.is_none_or(|t| t == id) && turns.is_none_or(|ts| ts.contains(&turn))
        };
        let (ended, kept): (Vec<Job>, Vec<Job>) = std::mem::take(&mut self.queue)
            .into_iter()
            .partition(|j| hit(&j.query.id, j.turn));
        self.queue = kept;
        for j in ended {
            self.send(&response::no_results(&j.query.id, j.turn))?;
        }
        if let Some((id, turn)) = &self.running {
            self.ended |= hit(id, *turn);
        }
        Ok(())
    }

    /// Take the next turn: the highest priority, the earliest among equals.
    fn next_job(&mut self) -> Option<Job> {
        let best = self
            .queue
            .iter()
            .enumerate()
            .max_by_key(|(_, j)| (j.priority, std::cmp::Reverse(j.seq)))?
            .0;
        Some(self.queue.remove(best))
    }
}

impl<W: Write> Link for Server<W> {
    fn send(&mut self, line: &str) -> io::Result<()> {
        if self.verbose {
            let _ = writeln!(io::stderr(), ">> {line}");
        }
        writeln!(self.out, "{line}")?;
        self.out.flush()
    }

    fn stop(&self) -> Arc<AtomicUsize> {
        Arc::clone(&self.stop)
    }

    fn interrupted(&mut self, engine: &mut Engine) -> io::Result<bool> {
        self.drain(engine)?;
        Ok(self.ended)
    }
}
