//! A GTP session: the game, its clock, the resignation rule and the
//! engine, and the standard commands every kosumi answers, the host's and
//! the firmware's alike.
//!
//! A command is a `match` arm here and a name in [`COMMANDS`] (a test
//! checks they agree); it reads its arguments, fails with a [`Failure`]
//! before it writes anything, and writes its text into the answer. The
//! embedding runs its own commands first ([`Engine::extra_commands`] names
//! them for `list_commands` and `known_command`), then
//! [`Session::execute`].

use core::fmt::Write;

use super::answer::Answer;
use super::args::{self, Args};
use super::line::{self, Line, Request};
use super::sgf;
use super::Failure;
use crate::game::{self, handicap, Choice, Game, Mode, Player, ResignRule, TimeControl};
use crate::geometry::{Color, GeometryError, Point, MAX_SIZE, MIN_SIZE};

/// What the session needs of an engine beyond its search and scoring.
pub trait Engine: Player {
    /// Return the engine's version (`version`).
    fn version(&self) -> &'static str;

    /// Start a new game (`clear_board`, `boardsize`, a loaded record):
    /// forget the search tree, start the next random stream.
    fn new_game(&mut self);

    /// Return the commands the embedding answers itself, listed after the
    /// standard ones.
    fn extra_commands(&self) -> &'static [&'static str];
}

/// The standard commands, in `list_commands` order.
pub const COMMANDS: &[&str] = &[
    // Administrative (GTP v2 §6.3.1).
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    // Setup (§6.3.2).
    "boardsize",
    "clear_board",
    "komi",
    "fixed_handicap",
    "place_free_handicap",
    "set_free_handicap",
    // Core play (§6.3.3).
    "play",
    "genmove",
    "undo",
    // Tournament (§6.3.4).
    "final_score",
    "final_status_list",
    "time_settings",
    "time_left",
    "kgs-time_settings",
    "kgs-genmove_cleanup",
    // Regression (§6.3.5) and debug (GNU Go's names).
    "reg_genmove",
    "showboard",
    "is_legal",
    "printsgf",
    // What GUIs and servers ask (GNU Go's, KGS's): Kigo draws its board
    // from `list_stones` and `captures`.
    "list_stones",
    "captures",
    "kgs-game_over",
    "kgs-rules",
    "kgs-chat",
];

/// A GTP session over the engine `E`, with a record of `MOVES` moves and
/// `SETUP` setup stones.
pub struct Session<E, const MOVES: usize, const SETUP: usize> {
    /// The game being played.
    pub game: Game<MOVES, SETUP>,
    /// Its clock (`time_settings`, `time_left`).
    pub clock: TimeControl,
    /// When `genmove` resigns.
    pub resign: ResignRule,
    /// The engine that searches and scores.
    pub player: E,
    /// Set by `quit`: the loop stops after answering.
    pub quit: bool,
}

impl<E: Engine, const MOVES: usize, const SETUP: usize> Session<E, MOVES, SETUP> {
    /// Return a session playing `game` with `engine`, no clock and the
    /// default resignation rule. A `const fn`, for a firmware's `static`.
    pub const fn new(game: Game<MOVES, SETUP>, player: E) -> Self {
        Session {
            game,
            clock: TimeControl::NONE,
            resign: ResignRule::DEFAULT,
            player,
            quit: false,
        }
    }

    /// Make the session a new one in place, whatever it held: an empty
    /// board of `size` with komi `komi2` half points, no clock, the
    /// resignation rule `resign`, the engine as `player` sets it up. A
    /// firmware's session that starts as zero bytes (in `.bss`) is set up
    /// by this at power-on.
    ///
    /// # Errors
    /// [`GeometryError::UnsupportedSize`]; the session is unchanged then.
    pub fn restart(
        &mut self,
        size: usize,
        komi2: i16,
        resign: ResignRule,
        player: impl FnOnce(&mut E),
    ) -> Result<(), GeometryError> {
        // Every field by name: a field added to the session must be set here.
        let Session {
            game,
            clock,
            resign: own_resign,
            player: engine,
            quit,
        } = self;
        game.reset(size, komi2)?;
        *clock = TimeControl::NONE;
        *own_resign = resign;
        player(engine);
        *quit = false;
        Ok(())
    }

    /// Clean the raw line in `buf`, run it, and write its answer (none
    /// for an empty line) to `out`; `extra` runs the embedding's own
    /// commands first (`None`: not one of them).
    ///
    /// # Errors
    /// The output's error.
    pub fn answer_line(
        &mut self,
        buf: &mut [u8],
        out: &mut dyn Write,
        extra: impl FnOnce(&mut Self, &Request<'_>, &mut dyn Write) -> Option<Result<(), Failure>>,
    ) -> core::fmt::Result {
        match line::parse(line::clean(buf)) {
            Line::Empty => Ok(()),
            Line::IdOnly(id) => Answer::failed(out, Some(id), Failure::Syntax.text()),
            Line::Request(req) => {
                let mut answer = Answer::new(out, req.id);
                let result = match extra(self, &req, &mut answer) {
                    Some(result) => result,
                    None => self.execute(&req, &mut answer),
                };
                answer.finish(result)
            }
        }
    }

    /// Query whether `name` is a command of the session or the embedding.
    pub fn knows(&self, name: &str) -> bool {
        COMMANDS.contains(&name) || self.player.extra_commands().contains(&name)
    }

    /// Run the standard command `req`, writing its text into `out`.
    ///
    /// # Errors
    /// The command's [`Failure`] ([`Failure::UnknownCommand`] for one that
    /// is not standard).
    pub fn execute(&mut self, req: &Request<'_>, out: &mut dyn Write) -> Result<(), Failure> {
        let args = &mut req.args();
        let geo = self.game.board().geometry();
        match req.name {
            "protocol_version" => text(args, out, "2"),
            "name" => text(args, out, "kosumi"),
            "version" => text(args, out, self.player.version()),
            "known_command" => {
                let [name] = args::exactly::<1>(args)?;
                put(out, if self.knows(name) { "true" } else { "false" })
            }
            "list_commands" => {
                args::exactly::<0>(args)?;
                let extra = self.player.extra_commands();
                for name in COMMANDS
                    .iter()
                    .chain(extra.iter().filter(|n| !COMMANDS.contains(n)))
                {
                    put(out, name)?;
                    put(out, "\n")?;
                }
                Ok(())
            }
            "quit" => {
                args::exactly::<0>(args)?;
                self.quit = true;
                Ok(())
            }
            "boardsize" => {
                let [n] = args::exactly::<1>(args)?;
                let size = args::count(n)?.ok_or(Failure::UnacceptableSize)?;
                if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
                    return Err(Failure::UnacceptableSize);
                }
                self.game
                    .resize(size)
                    .map_err(|_| Failure::UnacceptableSize)?;
                self.player.new_game();
                Ok(())
            }
            "clear_board" => {
                args::exactly::<0>(args)?;
                self.game.clear();
                self.player.new_game();
                Ok(())
            }
            "komi" => {
                let [k] = args::exactly::<1>(args)?;
                self.game.set_komi2(args::komi2(k)?);
                Ok(())
            }
            "fixed_handicap" | "place_free_handicap" => {
                let [n] = args::exactly::<1>(args)?;
                let n = args::count(n)?.ok_or(Failure::BadStoneCount)?;
                if !self.game.board_is_empty() {
                    return Err(Failure::BoardNotEmpty);
                }
                let points = if req.name == "fixed_handicap" {
                    handicap::fixed(geo, n)
                } else {
                    handicap::free(geo, n)
                }
                .ok_or(Failure::BadStoneCount)?;
                self.game.place_handicap(&points).map_err(setup_failure)?;
                for (i, &p) in points.iter().enumerate() {
                    put(out, if i == 0 { "" } else { " " })?;
                    vertex(out, geo, p)?;
                }
                Ok(())
            }
            "set_free_handicap" => {
                if !self.game.board_is_empty() {
                    return Err(Failure::BoardNotEmpty);
                }
                let mut points = heapless::Vec::<Point, { MAX_SIZE * MAX_SIZE }>::new();
                for a in args {
                    match args::vertex(geo, a) {
                        Ok(p) if !p.is_pass() => {
                            points.push(p).map_err(|_| Failure::BadVertexList)?
                        }
                        _ => return Err(Failure::BadVertexList),
                    }
                }
                if points.len() < 2 || points.len() >= geo.size() * geo.size() {
                    return Err(Failure::BadVertexList);
                }
                self.game.place_handicap(&points).map_err(setup_failure)
            }
            "play" => {
                let (c, p) = args::color_and_vertex(geo, args)?;
                self.game.play(c, p).map_err(play_failure)
            }
            "genmove" => self.genmove(args, out, Mode::Normal, true),
            "kgs-genmove_cleanup" => self.genmove(args, out, Mode::Cleanup, true),
            "reg_genmove" => self.genmove(args, out, Mode::Normal, false),
            "undo" => {
                args::exactly::<0>(args)?;
                if self.game.undo() {
                    Ok(())
                } else {
                    Err(Failure::CannotUndo)
                }
            }
            "is_legal" => {
                let (c, p) = args::color_and_vertex(geo, args)?;
                put(
                    out,
                    if self.game.check(c, p).is_ok() {
                        "1"
                    } else {
                        "0"
                    },
                )
            }
            "final_score" => {
                args::exactly::<0>(args)?;
                let board = self.game.board();
                let margin2 = self.player.scorer().final_margin2(board, self.game.komi2());
                args::write_result(out, margin2).map_err(|_| Failure::Syntax)
            }
            "final_status_list" => {
                let [which] = args::exactly::<1>(args)?;
                let alive = if which.eq_ignore_ascii_case("dead") {
                    false
                } else if which.eq_ignore_ascii_case("alive") {
                    true
                } else if which.eq_ignore_ascii_case("seki") {
                    return Ok(());
                } else {
                    return Err(Failure::Syntax);
                };
                let board = self.game.board();
                let own = self.player.scorer().ownership(board, self.game.komi2());
                let mut first = true;
                for p in geo.points().filter(|&p| board.at(p).color().is_some()) {
                    let dead = own.as_ref().is_some_and(|o| o.is_dead(board, p));
                    if dead != alive {
                        put(out, if first { "" } else { " " })?;
                        vertex(out, geo, p)?;
                        first = false;
                    }
                }
                Ok(())
            }
            "time_settings" | "kgs-time_settings" => {
                let mut words = [""; 5];
                let words = args::collect(args, &mut words)?;
                let tc = if req.name == "time_settings" {
                    TimeControl::from_time_settings(words)
                } else {
                    TimeControl::from_kgs_time_settings(words)
                };
                self.clock = tc.map_err(|_| Failure::Syntax)?;
                Ok(())
            }
            "time_left" => {
                let [c, time, stones] = args::exactly::<3>(args)?;
                let c = args::color(c)?;
                self.clock
                    .time_left(c.idx(), &[time, stones])
                    .map_err(|_| Failure::Syntax)
            }
            "list_stones" => {
                let [c] = args::exactly::<1>(args)?;
                let c = args::color(c)?;
                let board = self.game.board();
                let mut first = true;
                for p in geo.points().filter(|&p| board.at(p).color() == Some(c)) {
                    put(out, if first { "" } else { " " })?;
                    vertex(out, geo, p)?;
                    first = false;
                }
                Ok(())
            }
            "captures" => {
                // The stones `c` has taken (GNU Go's meaning).
                let [c] = args::exactly::<1>(args)?;
                let c = args::color(c)?;
                let _ = write!(out, "{}", self.game.board().captures(c));
                Ok(())
            }
            // KGS: the game ended; the rules of the game (kosumi counts
            // area under any: KGS scores Chinese and AGA games so, and
            // Japanese ones by territory, which area counting plays close
            // to); chat, which kosumi does not answer.
            "kgs-game_over" => args::exactly::<0>(args).map(|_| ()),
            "kgs-rules" => args::exactly::<1>(args).map(|_| ()),
            "kgs-chat" => {
                if args.count() < 3 {
                    return Err(Failure::Syntax);
                }
                Ok(())
            }
            "printsgf" => {
                // The record in the answer (GNU Go's `printsgf` without a
                // file); a file cannot be written here (the host writes
                // one). The result once two passes ended the game.
                match args.count() {
                    0 => {}
                    1 => return Err(Failure::CannotWrite),
                    _ => return Err(Failure::Syntax),
                }
                let moves = self.game.moves();
                let ended =
                    moves.len() >= 2 && moves[moves.len() - 2..].iter().all(|m| m.point.is_pass());
                let margin2 = ended.then(|| {
                    let (board, komi2) = (self.game.board(), self.game.komi2());
                    self.player.scorer().final_margin2(board, komi2)
                });
                let version = self.player.version();
                let mut root = |o: &mut dyn Write| {
                    o.write_str("RU[Chinese]")?;
                    if let Some(m) = margin2 {
                        o.write_str("RE[")?;
                        args::write_result(o, m)?;
                        o.write_char(']')?;
                    }
                    Ok(())
                };
                sgf::write_record(out, &self.game, ("kosumi", version), &mut root)
                    .map_err(|_| Failure::CannotWrite)
            }
            "showboard" => {
                args::exactly::<0>(args)?;
                let g = &self.game;
                let b = g.board();
                let _ = write!(
                    out,
                    "\n{}{} to play, komi ",
                    b,
                    args::color_name(g.to_play())
                );
                let _ = args::write_halves(out, g.komi2().into());
                let _ = write!(
                    out,
                    ", captures black {} white {}, moves {}",
                    b.captures(Color::Black),
                    b.captures(Color::White),
                    g.moves().len()
                );
                Ok(())
            }
            _ => Err(Failure::UnknownCommand),
        }
    }

    /// Choose the move of `c` ([`game::choose`]), not played.
    ///
    /// # Errors
    /// [`Failure::CannotSearch`] when the search failed.
    pub fn choose(&mut self, c: Color, mode: Mode) -> Result<Choice, Failure> {
        game::choose(
            &mut self.game,
            &self.clock,
            c,
            mode,
            self.resign,
            &mut self.player,
        )
        .map_err(|_| Failure::CannotSearch)
    }

    /// Choose the move of `c` and play it.
    ///
    /// # Errors
    /// [`Failure::CannotSearch`], or [`Failure::RecordFull`] when the record
    /// holds no more moves.
    pub fn generate(&mut self, c: Color, mode: Mode) -> Result<Choice, Failure> {
        let choice = self.choose(c, mode)?;
        if let Choice::Move(p) = choice {
            self.game.play(c, p).map_err(play_failure)?;
        }
        Ok(choice)
    }

    /// Write a choice as GTP answers it: a vertex, `pass` or `resign`.
    pub fn write_choice(&self, out: &mut dyn Write, choice: Choice) {
        match choice {
            Choice::Resign => {
                let _ = put(out, "resign");
            }
            Choice::Move(p) => {
                let _ = vertex(out, self.game.board().geometry(), p);
            }
        }
    }

    /// `genmove COLOR` and its kin: choose (and with `play`, play) a move.
    fn genmove(
        &mut self,
        args: &mut Args<'_>,
        out: &mut dyn Write,
        mode: Mode,
        play: bool,
    ) -> Result<(), Failure> {
        let [c] = args::exactly::<1>(args)?;
        let c = args::color(c)?;
        let choice = if play {
            self.generate(c, mode)?
        } else {
            self.choose(c, mode)?
        };
        self.write_choice(out, choice);
        Ok(())
    }
}

/// The failure of refused handicap stones: the board has stones, or the
/// points are bad or more than the record's setup holds.
fn setup_failure(e: game::SetupError) -> Failure {
    match e {
        game::SetupError::BoardNotEmpty => Failure::BoardNotEmpty,
        game::SetupError::BadStones => Failure::BadVertexList,
    }
}

/// The failure of a refused move.
fn play_failure(e: game::PlayError) -> Failure {
    match e {
        game::PlayError::RecordFull => Failure::RecordFull,
        _ => Failure::IllegalMove,
    }
}

/// Write `s` (an output error is the transport's: the loop sees it).
fn put(out: &mut dyn Write, s: &str) -> Result<(), Failure> {
    let _ = out.write_str(s);
    Ok(())
}

/// Answer a command without arguments with `s`.
fn text(args: &mut Args<'_>, out: &mut dyn Write, s: &str) -> Result<(), Failure> {
    args::exactly::<0>(args)?;
    put(out, s)
}

/// Write the vertex of `p`.
fn vertex(out: &mut dyn Write, geo: crate::geometry::Geometry, p: Point) -> Result<(), Failure> {
    let mut buf = [0u8; 4];
    put(out, geo.vertex_str(p, &mut buf))
}
