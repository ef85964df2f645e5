//! The GTP layer the host and the firmware share (`kosumi_core::gtp`,
//! `kosumi_core::game::{record, choice}`): lines, answers, the record with
//! undo and superko, the move choice around a scripted search, and the
//! standard commands.

use kosumi_core::board::{Board, MoveError};
use kosumi_core::game::{
    choose, Choice, Game, Mode, Move, Outcome, PlayError, Player, ResignRule, Scorer, SetupError,
    TimeControl, RANKED,
};
use kosumi_core::geometry::{Color, Point};
use kosumi_core::gtp::{line, Answer, Engine, Failure, Line, Request, Session, COMMANDS};

type G = Game<64, 32>;

/// A player whose search answers what the test scripted.
struct Scripted {
    best: &'static str,
    win_rate: f32,
    playouts: u32,
    ranked: &'static [&'static str],
    /// Ownership playouts (0: count the board as it stands).
    scoring: u32,
    scratch: Board,
    searches: u32,
    excluded: usize,
}

impl Scripted {
    fn new(best: &'static str, ranked: &'static [&'static str]) -> Scripted {
        Scripted {
            best,
            win_rate: 0.5,
            playouts: 10_000,
            ranked,
            scoring: 0,
            scratch: Board::new(9).unwrap(),
            searches: 0,
            excluded: 0,
        }
    }
}

impl Player for Scripted {
    type Error = ();

    fn scorer(&mut self) -> Scorer<'_> {
        Scorer {
            playouts: self.scoring,
            seed: 1,
            scratch: &mut self.scratch,
        }
    }

    fn search<const M: usize, const S: usize>(
        &mut self,
        game: &Game<M, S>,
        _: &TimeControl,
        _: Color,
        excluded: &[Point],
        ranked: &mut [Point; RANKED],
    ) -> Result<(Outcome, usize), ()> {
        self.searches += 1;
        self.excluded = excluded.len();
        let geo = game.board().geometry();
        for (slot, v) in ranked.iter_mut().zip(self.ranked) {
            *slot = geo.parse_vertex(v).unwrap();
        }
        let best = geo.parse_vertex(self.best).unwrap();
        Ok((
            Outcome {
                best,
                win_rate: self.win_rate,
                playouts: self.playouts,
            },
            self.ranked.len(),
        ))
    }
}

impl Engine for Scripted {
    fn version(&self) -> &'static str {
        "test"
    }
    fn new_game(&mut self) {}
    fn extra_commands(&self) -> &'static [&'static str] {
        &["kosumi-extra", "quit"]
    }
}

/// A game whose position is `diagram` (setup stones), `to_play` to move.
fn game(diagram: &str, to_play: Color) -> G {
    let board = Board::from_diagram(diagram, to_play).unwrap();
    let size = board.size();
    let mut g = G::new(size, 14).unwrap();
    g.set_to_play(to_play);
    let stones = board
        .geometry()
        .points()
        .filter_map(|p| board.at(p).color().map(|c| (p, Some(c))))
        .collect::<Vec<_>>();
    g.apply_setup(&stones).unwrap();
    g
}

fn pt(g: &G, v: &str) -> Point {
    g.board().geometry().parse_vertex(v).unwrap()
}

/// Run `lines` through a session and return everything it wrote.
fn session_answers(session: &mut Session<Scripted, 64, 32>, lines: &str) -> String {
    let mut out = String::new();
    for l in lines.lines() {
        let mut buf = l.as_bytes().to_vec();
        session
            .answer_line(&mut buf, &mut out, |s, req, out| {
                (req.name == "kosumi-extra").then(|| {
                    let _ = write!(out, "extra {}", s.game.moves().len());
                    Ok(())
                })
            })
            .unwrap();
    }
    out
}

// ---- lines and answers ----------------------------------------------------

fn parsed(raw: &str) -> (String, Option<(Option<String>, String, String)>) {
    let mut buf = raw.as_bytes().to_vec();
    let cleaned = line::clean(&mut buf).to_string();
    let req = match line::parse(&cleaned) {
        Line::Request(Request { id, name, rest }) => {
            Some((id.map(str::to_string), name.to_string(), rest.to_string()))
        }
        _ => None,
    };
    (cleaned, req)
}

#[test]
fn lines_lose_comments_tabs_and_control_characters() {
    assert_eq!(line::parse(""), Line::Empty);
    assert_eq!(line::parse("   "), Line::Empty);
    assert_eq!(parsed("# just a comment").1, None);
    let (_, req) = parsed("play\tb\td4 # comment");
    assert_eq!(req, Some((None, "play".into(), "b d4".into())));
    let (_, req) = parsed("pl\x07ay b d4\r");
    assert_eq!(req, Some((None, "play".into(), "b d4".into())));
    // Bytes that are no UTF-8 become `?`; valid ones stay.
    let mut buf = b"name \xff\xfe \xc3\xa9".to_vec();
    assert_eq!(line::clean(&mut buf), "name ?? \u{e9}");
}

#[test]
fn ids_are_digits_before_the_command() {
    let (_, req) = parsed("12 name");
    assert_eq!(req, Some((Some("12".into()), "name".into(), "".into())));
    assert_eq!(line::parse("007"), Line::IdOnly("007"));
    let (_, req) = parsed("-3 name");
    assert_eq!(req, Some((None, "-3".into(), "name".into())));
}

#[test]
fn answers_drop_empty_lines_and_keep_a_leading_break() {
    let answer = |id, reply| {
        let mut s = String::new();
        Answer::write(&mut s, id, reply).unwrap();
        s
    };
    assert_eq!(answer(None, Ok("")), "=\n\n");
    assert_eq!(answer(Some("4"), Ok("2")), "=4 2\n\n");
    assert_eq!(
        answer(None, Err(Failure::IllegalMove)),
        "? illegal move\n\n"
    );
    assert_eq!(
        answer(Some("7"), Err(Failure::Syntax)),
        "?7 syntax error\n\n"
    );
    assert_eq!(answer(None, Ok("\na\n\nb  \n  \n")), "= \na\nb\n\n");
    assert_eq!(answer(None, Ok("\n")), "=\n\n");
}

// ---- the record -----------------------------------------------------------

/// Play `moves` (colour, vertex or `pass`) on an empty 5x5 board.
fn played(moves: &[(Color, &str)]) -> G {
    let mut g = G::new(5, 0).unwrap();
    for &(c, v) in moves {
        let p = pt(&g, v);
        g.play(c, p).unwrap();
    }
    g
}

/// A ko at C3/D3: black takes at D3, white retakes at C3.
const KO: [(Color, &str); 8] = [
    (Color::Black, "b3"),
    (Color::White, "e3"),
    (Color::Black, "c2"),
    (Color::White, "d2"),
    (Color::Black, "c4"),
    (Color::White, "d4"),
    (Color::Black, "d3"),
    (Color::White, "c3"),
];

#[test]
fn undo_restores_ko_and_side_to_move() {
    // After white's retake at C3, black may not retake at D3.
    let mut g = played(&KO);
    assert_eq!(g.board().ko(), Some(pt(&g, "d3")));
    let before = g.board().clone();
    let a5 = pt(&g, "a5");
    g.play(Color::Black, a5).unwrap();
    assert!(g.undo());
    assert!(g.board().identical(&before));
    let d3 = pt(&g, "d3");
    assert_eq!(
        g.play(Color::Black, d3),
        Err(PlayError::Board(MoveError::Ko))
    );
    assert!(!G::new(9, 15).unwrap().undo());
}

#[test]
fn a_full_record_refuses_the_next_move() {
    let mut g = Game::<2, 0>::new(9, 15).unwrap();
    g.play(Color::Black, Point::PASS).unwrap();
    g.play(Color::White, Point::PASS).unwrap();
    assert_eq!(
        g.play(Color::Black, Point::PASS),
        Err(PlayError::RecordFull)
    );
}

#[test]
fn setup_stones_are_checked_before_the_game_changes() {
    let mut g = G::new(9, 14).unwrap();
    let (a1, b1) = (pt(&g, "a1"), pt(&g, "b1"));
    // Repeated points are refused, and so is more than the record holds.
    assert!(g
        .apply_setup(&[(a1, Some(Color::Black)), (a1, None)])
        .is_err());
    let mut small = Game::<8, 1>::new(9, 14).unwrap();
    let two = [(a1, Some(Color::Black)), (b1, Some(Color::Black))];
    assert!(small.apply_setup(&two).is_err());
    assert!(small.board_is_empty());
    // Handicap goes on an empty board only; white moves next.
    g.place_handicap(&[pt(&g, "c3"), pt(&g, "g7")]).unwrap();
    assert_eq!((g.handicap(), g.to_play()), (2, Color::White));
    assert!(g.place_handicap(&[a1]).is_err());
}

/// What a refused setup must leave as it was: the stones, the side to
/// move and the ko (in the hash), and the record.
#[derive(Debug, PartialEq)]
struct State {
    diagram: String,
    hash: u64,
    moves: Vec<Move>,
    setup: Vec<(Point, Color)>,
    first_to_play: Color,
    handicap: u32,
}

fn state(g: &G) -> State {
    State {
        diagram: g.board().to_string(),
        hash: g.board().hash(),
        moves: g.moves().to_vec(),
        setup: g.setup().to_vec(),
        first_to_play: g.first_to_play(),
        handicap: g.handicap(),
    }
}

#[test]
fn a_refused_setup_leaves_the_game_as_it_was() {
    // White's B2 takes C2: black may not retake at C2 (ko).
    //   3 . X O
    //   2 X . X O
    //   1 . X O
    let ko_game = || {
        let mut g = G::new(9, 14).unwrap();
        let stones = [
            ("a2", Color::Black),
            ("b1", Color::Black),
            ("b3", Color::Black),
            ("c2", Color::Black),
            ("c1", Color::White),
            ("c3", Color::White),
            ("d2", Color::White),
        ];
        let setup: Vec<_> = stones.iter().map(|&(v, c)| (pt(&g, v), Some(c))).collect();
        g.apply_setup(&setup).unwrap();
        g.play(Color::White, pt(&g, "b2")).unwrap();
        g
    };
    // A white stone at A1 has no liberty: refused, the ko kept.
    let mut g = ko_game();
    let (a1, c2) = (pt(&g, "a1"), pt(&g, "c2"));
    let before = state(&g);
    let no_liberty = [(a1, Some(Color::White))];
    assert_eq!(g.apply_setup(&no_liberty), Err(SetupError::BadStones));
    assert_eq!(state(&g), before);
    assert_eq!(g.board().ko(), Some(c2));
    // A side to move set since clears the ko, and it stays cleared.
    let mut g = ko_game();
    g.set_to_play(Color::White);
    g.set_to_play(Color::Black);
    let before = state(&g);
    assert_eq!(g.apply_setup(&no_liberty), Err(SetupError::BadStones));
    assert_eq!(state(&g), before);
    assert_eq!(g.board().ko(), None);
    // Handicap stones filling a board leave a chain without liberty: the
    // game (one pass, white to move) stays.
    let mut g = G::new(2, 14).unwrap();
    g.play(Color::Black, Point::PASS).unwrap();
    let all = ["a1", "b1", "a2", "b2"].map(|v| pt(&g, v));
    let before = state(&g);
    assert_eq!(g.place_handicap(&all), Err(SetupError::BadStones));
    assert_eq!(state(&g), before);
    assert_eq!(g.to_play(), Color::White);
    g.place_handicap(&all[..3]).unwrap();
    assert_eq!((g.handicap(), g.moves().len()), (3, 0));
}

// ---- the move choice ------------------------------------------------------

const OPEN: &str = "
    . . . . . . . . .
    . . . . . . . . .
    . . X . . . O . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . X . . . O . .
    . . . . . . . . .
    . . . . . . . . .
";

/// The default rules, but resigning from the first move (the tests'
/// positions are openings).
const RULE: ResignRule = ResignRule {
    middle_game: false,
    ..ResignRule::DEFAULT
};

fn choice(g: &mut G, player: &mut Scripted, mode: Mode) -> Choice {
    choice_with(g, player, mode, RULE)
}

fn choice_with(g: &mut G, player: &mut Scripted, mode: Mode, rule: ResignRule) -> Choice {
    let c = g.to_play();
    choose(g, &TimeControl::NONE, c, mode, rule, player).unwrap()
}

#[test]
fn a_hopeless_search_resigns_only_after_enough_playouts() {
    let mut g = game(OPEN, Color::Black);
    let mut p = Scripted::new("e5", &[]);
    p.win_rate = 0.01;
    assert_eq!(choice(&mut g, &mut p, Mode::Normal), Choice::Resign);
    let e5 = pt(&g, "e5");
    // Not in the opening (before a quarter of the points in moves).
    let opening = choice_with(&mut g, &mut p, Mode::Normal, ResignRule::DEFAULT);
    assert_eq!(opening, Choice::Move(e5));
    p.playouts = ResignRule::DEFAULT.min_playouts - 1;
    assert_eq!(choice(&mut g, &mut p, Mode::Normal), Choice::Move(e5));
}

#[test]
fn an_occupied_best_move_falls_back_to_the_next_ranked() {
    let mut g = game(OPEN, Color::Black);
    let mut p = Scripted::new("c3", &["c3", "g3", "e5"]);
    let e5 = pt(&g, "e5");
    assert_eq!(choice(&mut g, &mut p, Mode::Normal), Choice::Move(e5));
}

#[test]
fn no_pass_in_an_open_game_that_passing_loses() {
    // White leads by area and black passed nothing yet: the pass is
    // skipped for the next ranked move.
    let mut g = game(OPEN, Color::Black);
    g.set_komi2(20);
    let mut p = Scripted::new("pass", &["pass", "e5"]);
    let e5 = pt(&g, "e5");
    assert_eq!(choice(&mut g, &mut p, Mode::Normal), Choice::Move(e5));
    // With komi -10 black leads as the board stands: the pass stands.
    g.set_komi2(-20);
    assert_eq!(
        choice(&mut g, &mut p, Mode::Normal),
        Choice::Move(Point::PASS)
    );
}

#[test]
fn after_the_opponents_pass_a_won_open_game_plays_on() {
    // Black leads by area, but the middle points count for nobody yet:
    // the conservative pass plays on, the pass kept from the search.
    let mut g = game(OPEN, Color::White);
    g.set_komi2(-20);
    g.play(Color::White, Point::PASS).unwrap();
    let mut p = Scripted::new("e5", &[]);
    assert_eq!(
        choice(&mut g, &mut p, Mode::Normal),
        Choice::Move(pt(&g, "e5"))
    );
    assert_eq!((p.searches, p.excluded), (1, 1));
    // The quick pass ends it without a search.
    let quick = ResignRule {
        quick_pass: true,
        ..RULE
    };
    assert_eq!(
        choice_with(&mut g, &mut p, Mode::Normal, quick),
        Choice::Move(Point::PASS)
    );
    assert_eq!(p.searches, 1);
    // Cleaning up, the search runs.
    assert_eq!(
        choice(&mut g, &mut p, Mode::Cleanup),
        Choice::Move(pt(&g, "e5"))
    );
    assert_eq!(p.searches, 2);
}

/// Black's wall on the B column, white's on the C column: every point
/// counts for one side.
const OVER: &str = "
    . X O . .
    . X O . .
    . X O . .
    . X O . .
    . X O . .
";

#[test]
fn after_the_opponents_pass_a_won_game_that_is_over_ends_without_a_search() {
    let mut g = game(OVER, Color::Black);
    g.set_komi2(0);
    g.play(Color::Black, Point::PASS).unwrap();
    let mut p = Scripted::new("a1", &[]);
    p.scratch = Board::new(5).unwrap();
    assert_eq!(
        choice(&mut g, &mut p, Mode::Normal),
        Choice::Move(Point::PASS)
    );
    assert_eq!(p.searches, 0);
}

#[test]
fn superko_moves_are_kept_from_the_search() {
    // The ko of the record test: after white's retake at C3, black's D3
    // is simple ko for the board; after a pass pair it would repeat.
    let mut moves = KO.to_vec();
    moves.extend([(Color::Black, "pass"), (Color::White, "pass")]);
    let mut g = played(&moves);
    // D3 retakes the ko: the board allows it, but the position after it
    // was seen (after black's D3 earlier): superko.
    let d3 = pt(&g, "d3");
    assert_eq!(g.check(Color::Black, d3), Err(PlayError::Superko));
    let mut p = Scripted::new("d3", &["d3", "a1"]);
    p.scratch = Board::new(5).unwrap();
    assert_eq!(
        choice(&mut g, &mut p, Mode::Normal),
        Choice::Move(pt(&g, "a1"))
    );
    // D3, and the pass: white passed in a game that is not over.
    assert_eq!(p.excluded, 2);
}

// ---- the session ----------------------------------------------------------

fn session() -> Session<Scripted, 64, 32> {
    Session::new(G::new(9, 14).unwrap(), Scripted::new("e5", &[]))
}

#[test]
fn every_listed_command_is_answered() {
    let mut s = session();
    let listed = session_answers(&mut s, "list_commands");
    let names: Vec<&str> = listed
        .trim_start_matches("= ")
        .lines()
        .filter(|l| !l.is_empty())
        .collect();
    assert_eq!(names.len(), COMMANDS.len() + 1, "{listed}");
    assert_eq!(names.last(), Some(&"kosumi-extra"));
    for name in names {
        let answer = session_answers(&mut session(), name);
        assert!(!answer.contains("unknown command"), "{name}: {answer}");
        assert_eq!(
            session_answers(&mut s, &format!("known_command {name}")),
            "= true\n\n"
        );
    }
    assert_eq!(session_answers(&mut s, "known_command foo"), "= false\n\n");
    assert_eq!(session_answers(&mut s, "3 foo"), "?3 unknown command\n\n");
}

#[test]
fn a_game_through_the_session() {
    let mut s = session();
    let out = session_answers(
        &mut s,
        "1 boardsize 9\n2 komi 6.5\n3 play b c3\n4 play w c3\n5 genmove w\n6 kosumi-extra\n\
         7 undo\n8 is_legal w e5\n9 komi 7.3\n10 komi 5000\n11 boardsize 99\n12 final_score\n\
         13 final_status_list dead\n14 time_settings 10 5 1\n15 time_left white 3 1\n16 quit",
    );
    assert_eq!(
        out,
        "=1\n\n=2\n\n=3\n\n?4 illegal move\n\n=5 E5\n\n=6 extra 2\n\n=7\n\n=8 1\n\n\
         ?9 komi must be a multiple of 0.5\n\n?10 komi out of range\n\n?11 unacceptable size\n\n\
         =12 B+74.5\n\n=13\n\n=14\n\n=15\n\n=16\n\n"
    );
    assert!(s.quit);
    assert!(s.clock.set);
}

#[test]
fn komi_is_read_as_gtp_writes_floats() {
    use kosumi_core::gtp::args::komi2;
    for (text, k2) in [
        ("7.5", 15),
        ("-3", -6),
        ("+6.0", 12),
        ("0", 0),
        ("-0.0", 0),
        ("00.500", 1),
        (".5", 1),
        ("5.", 10),
        ("1e1", 20),
        ("25E-1", 5),
        ("1000", 2000),
        ("-1000", -2000),
        ("0e99999", 0),
    ] {
        assert_eq!(komi2(text), Ok(k2), "{text}");
    }
    for (text, f) in [
        ("6.25", Failure::BadKomi),
        ("1e-1", Failure::BadKomi),
        ("1000.5", Failure::KomiRange),
        ("1e9", Failure::KomiRange),
        ("123456789.25", Failure::KomiRange),
        ("x", Failure::Syntax),
        ("inf", Failure::Syntax),
        ("NaN", Failure::Syntax),
        (".", Failure::Syntax),
        ("1e", Failure::Syntax),
        ("--1", Failure::Syntax),
    ] {
        assert_eq!(komi2(text), Err(f), "{text}");
    }
}

#[test]
fn gui_commands_list_stones_and_captures() {
    let mut s = session();
    let out = session_answers(
        &mut s,
        "play b a2\nplay w a1\nplay b b1\nlist_stones black\nlist_stones w\ncaptures b\n\
         captures white\nkgs-rules chinese\nkgs-game_over\nkgs-chat game alice hello there\n\
         kgs-chat game\nlist_stones purple",
    );
    assert_eq!(
        out,
        "=\n\n=\n\n=\n\n= B1 A2\n\n=\n\n= 1\n\n= 0\n\n=\n\n=\n\n=\n\n\
         ? syntax error\n\n? invalid color or coordinate\n\n"
    );
}

#[test]
fn the_opponents_second_pass_ends_an_open_game_that_passing_wins() {
    // Played on after white's first pass, black passes at the second: a
    // ko left open could otherwise go round until a position repeats.
    let mut g = game(OPEN, Color::White);
    g.set_komi2(-20);
    g.play(Color::White, Point::PASS).unwrap();
    let e5 = pt(&g, "e5");
    g.play(Color::Black, e5).unwrap();
    g.play(Color::White, Point::PASS).unwrap();
    let mut p = Scripted::new("d5", &[]);
    assert_eq!(
        choice(&mut g, &mut p, Mode::Normal),
        Choice::Move(Point::PASS)
    );
    assert_eq!(p.searches, 0);
}
