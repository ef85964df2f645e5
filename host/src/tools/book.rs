//! `kosumi book`: an opening book for read-only memory (the firmware's
//! flash; format [`kosumi_core::game::book`]), made by deep searches of a
//! GTP engine (by default this program at many playouts a move).
//!
//! The book covers both colours up to `--plies` moves: where the book's side
//! is to move it holds the engine's move; where the other side is to move,
//! every legal move is followed. With three plies: black's first move, its
//! answer to each of white's replies, and white's answer to each of black's
//! first moves. A position's eight symmetric images share one search: after
//! a search the answer is entered for every image, and a position already
//! in the book is not searched again. A search answering `pass` or
//! `resign` adds nothing.

use std::collections::BTreeMap;
use std::path::PathBuf;

use kosumi_core::board::Board;
use kosumi_core::game::book;
use kosumi_core::geometry::{Color, Geometry, Point};
use kosumi_db::symmetry::{apply_on, SYMS};

use indicatif::{ProgressBar, ProgressStyle};

use super::gtp_client::Engine;

/// `kosumi book` arguments.
#[derive(clap::Args, Debug)]
pub struct BookArgs {
    /// Board size.
    #[arg(long, default_value_t = 9)]
    pub size: usize,
    /// Komi the engine searches with.
    #[arg(long, default_value_t = 7.0)]
    pub komi: f64,
    /// Moves from the empty board the book covers.
    #[arg(long, default_value_t = 3)]
    pub plies: usize,
    /// Playouts a search of the default engine (this program).
    #[arg(long, default_value_t = 200_000)]
    pub playouts: u32,
    /// Another GTP engine command to search with (instead of this program
    /// at `--playouts`).
    #[arg(long)]
    pub engine: Option<String>,
    /// The book file to write (atomically).
    #[arg(long)]
    pub out: PathBuf,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// A move of a line: colour and (column, row), row 0 at the bottom.
type LineMove = (Color, usize, usize);

/// What the book holds and how it grows.
struct Maker {
    size: usize,
    geo: Geometry,
    plies: usize,
    engine: Engine,
    /// Book key to (column, row).
    entries: BTreeMap<u64, (u8, u8)>,
    searches: u64,
}

/// Make the book.
///
/// # Errors
/// A message when the engine fails or the file cannot be written.
pub fn run(args: &BookArgs) -> Result<(), String> {
    let geo = Geometry::new(args.size).map_err(|e| format!("--size {}: {e:?}", args.size))?;
    let cmd = match &args.engine {
        Some(c) => c.clone(),
        None => {
            let me = std::env::current_exe().map_err(|e| e.to_string())?;
            format!(
                "{} --size {} --komi {} --playouts {} --seed 1",
                me.display(),
                args.size,
                args.komi,
                args.playouts
            )
        }
    };
    let mut engine = Engine::start(&cmd)?;
    engine.send(&format!("boardsize {}", args.size))?;
    engine.send(&format!("komi {}", args.komi))?;
    let mut maker = Maker {
        size: args.size,
        geo,
        plies: args.plies,
        engine,
        entries: BTreeMap::new(),
        searches: 0,
    };
    let progress = spinner(args.quiet);
    for side in [Color::Black, Color::White] {
        maker.grow(&mut Vec::new(), side, &progress)?;
    }
    progress.finish_and_clear();
    let Maker {
        entries,
        searches,
        engine,
        ..
    } = maker;
    engine.quit();
    let mut list: Vec<(u64, u8, u8)> = entries.into_iter().map(|(k, (x, y))| (k, x, y)).collect();
    let mut bytes = vec![0u8; book::encoded_len(list.len())];
    let n = book::write(args.size, &mut list, &mut bytes).map_err(|e| format!("book: {e:?}"))?;
    kosumi::atomic::write(&args.out, &bytes[..n])?;
    println!(
        "{}: {} positions ({} searches by `{cmd}`), {} bytes",
        args.out.display(),
        list.len(),
        searches,
        n
    );
    Ok(())
}

impl Maker {
    /// Add the book's moves for `side` in the positions after `line`.
    fn grow(
        &mut self,
        line: &mut Vec<LineMove>,
        side: Color,
        progress: &ProgressBar,
    ) -> Result<(), String> {
        if line.len() >= self.plies {
            return Ok(());
        }
        let board = self.board(line, 0)?;
        let c = board.to_play();
        if c == side {
            let Some((x, y)) = self.answer(line, &board, progress)? else {
                return Ok(());
            };
            line.push((c, x, y));
            self.grow(line, side, progress)?;
            line.pop();
        } else {
            for p in self.geo.points() {
                if board.is_legal(p, c) {
                    let (x, y) = self.geo.coords(p);
                    line.push((c, x, y));
                    self.grow(line, side, progress)?;
                    line.pop();
                }
            }
        }
        Ok(())
    }

    /// Return the book's move after `line` (position `board`): the book's
    /// entry, or a search entered for all eight images of the position.
    fn answer(
        &mut self,
        line: &[LineMove],
        board: &Board,
        progress: &ProgressBar,
    ) -> Result<Option<(usize, usize)>, String> {
        if let Some(&(x, y)) = self.entries.get(&book::key(board)) {
            return Ok(Some((usize::from(x), usize::from(y))));
        }
        self.engine.send("clear_board")?;
        for &(c, x, y) in line {
            let v = self.vertex(self.geo.point(x, y));
            self.engine.send(&format!("play {} {v}", colour(c)))?;
        }
        let answer = self
            .engine
            .send(&format!("genmove {}", colour(board.to_play())))?;
        self.searches += 1;
        progress.inc(1);
        progress.set_message(format!("{} in the book", self.entries.len()));
        let p = match self.geo.parse_vertex(answer.trim()) {
            Ok(p) if !p.is_pass() && board.is_legal(p, board.to_play()) => p,
            _ => return Ok(None),
        };
        let (x, y) = self.geo.coords(p);
        for t in 0..SYMS {
            let image = self.board(line, t)?;
            let (ix, iy) = apply_on(t, self.size, x, y);
            self.entries
                .entry(book::key(&image))
                .or_insert((ix as u8, iy as u8));
        }
        Ok(Some((x, y)))
    }

    /// Return the board after `line` mapped by symmetry `t`.
    fn board(&self, line: &[LineMove], t: usize) -> Result<Board, String> {
        let mut b = Board::new(self.size).map_err(|e| format!("{e:?}"))?;
        for &(c, x, y) in line {
            let (x, y) = apply_on(t, self.size, x, y);
            b.play(self.geo.point(x, y), c)
                .map_err(|e| format!("a line of the book: {e:?}"))?;
        }
        Ok(b)
    }

    fn vertex(&self, p: Point) -> String {
        let mut buf = [0u8; 4];
        self.geo.vertex_str(p, &mut buf).to_string()
    }
}

fn colour(c: Color) -> &'static str {
    match c {
        Color::Black => "b",
        Color::White => "w",
    }
}

/// Return a spinner counting the searches (their number is not known in
/// advance: symmetric positions share one), hidden when `quiet`.
fn spinner(quiet: bool) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new_spinner();
    if let Ok(style) =
        ProgressStyle::with_template("{elapsed_precise} {spinner} {pos} searches, {msg}")
    {
        bar.set_style(style);
    }
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    bar
}
