//! The engine of the heap-less embeddings (`kosumi_core::gtp::PoolEngine`,
//! the firmware's and the browser module's): a GTP session over it plays,
//! answers `kosumi-playouts`, replays a game from a seed, keeps to a
//! clock when it has a time source, and set up again in place (the
//! firmware's start) plays as a new one.

use std::sync::atomic::{AtomicU64, Ordering};

use kosumi_core::game::Game;
use kosumi_core::gtp::{PoolEngine, Session, Setup, POOL_COMMANDS};
use kosumi_core::search::{Node, Params};
use kosumi_core::table::{BestMoveCluster, Cluster};

const SETUP: Setup = Setup {
    version: "9.9.9-test",
    params: Params::DEFAULT,
    playouts: 300,
    ownership_playouts: 32,
    seed: 11,
};

type Pooled<'a> = Session<PoolEngine<'a>, 200, 9>;

/// Run `lines` through `session`, its engine answering its own commands
/// as the embeddings do, and return every answer.
fn answers(session: &mut Pooled<'_>, lines: &str) -> String {
    let mut out = String::new();
    for l in lines.lines() {
        let mut buf = l.as_bytes().to_vec();
        session
            .answer_line(&mut buf, &mut out, |s, req, _| s.player.command(req))
            .unwrap();
    }
    out
}

/// Return a session on an empty 9x9 board (komi 7) over `nodes` and
/// `clusters`.
fn session<'a>(nodes: &'a mut [Node], clusters: &'a mut [BestMoveCluster]) -> Pooled<'a> {
    Session::new(
        Game::new(9, 14).unwrap(),
        PoolEngine::new(SETUP, nodes, clusters),
    )
}

/// Return a session as [`session`] does, its playouts the heavy policy's.
fn heavy_session<'a>(nodes: &'a mut [Node], clusters: &'a mut [BestMoveCluster]) -> Pooled<'a> {
    use kosumi_core::playout::{Heavy, Policy};
    let setup = Setup {
        params: Params {
            policy: Policy::Heavy(Heavy::DEFAULT),
            ..Params::DEFAULT
        },
        ..SETUP
    };
    Session::new(
        Game::new(9, 14).unwrap(),
        PoolEngine::new(setup, nodes, clusters),
    )
}

/// Return the moves of `n` `genmove`s, black and white in turn.
fn self_play(s: &mut Pooled<'_>, n: usize) -> Vec<String> {
    (0..n)
        .map(|i| {
            let c = if i % 2 == 0 { "b" } else { "w" };
            answers(s, &format!("genmove {c}")).trim().to_string()
        })
        .collect()
}

#[test]
fn a_session_over_the_pool_engine_plays_and_replays_from_its_seed() {
    let mut nodes = vec![Node::EMPTY; 1 << 14];
    let mut clusters = vec![BestMoveCluster::EMPTY; 1 << 8];
    let mut s = session(&mut nodes, &mut clusters);
    assert_eq!(answers(&mut s, "version"), "= 9.9.9-test\n\n");
    let listed = answers(&mut s, "list_commands");
    for name in POOL_COMMANDS {
        assert!(listed.lines().any(|l| l == *name), "{listed}");
    }
    assert_eq!(
        answers(
            &mut s,
            "kosumi-playouts 0\nkosumi-playouts\nkosumi-playouts x\nkosumi-playouts 99999999999"
        ),
        "? syntax error\n\n".repeat(4)
    );
    assert_eq!(answers(&mut s, "kosumi-playouts 200"), "=\n\n");

    // A first search (a fresh tree) runs the playouts set.
    assert!(answers(&mut s, "genmove b").starts_with("= "));
    assert_eq!(s.player.tree().pool().nodes()[0].visits, 200);

    answers(&mut s, "clear_board");
    s.player.set_seed(5);
    let first = self_play(&mut s, 8);
    for mv in &first {
        assert!(mv.starts_with("= ") && mv.len() > 3, "{first:?}");
    }
    // The same seed from the same start gives the same game; another
    // seed another game.
    answers(&mut s, "clear_board");
    s.player.set_seed(5);
    assert_eq!(self_play(&mut s, 8), first);
    answers(&mut s, "clear_board");
    s.player.set_seed(6);
    assert_ne!(self_play(&mut s, 8), first);
}

#[test]
fn a_session_reset_in_place_plays_as_a_new_one() {
    use kosumi_core::game::ResignRule;
    // The firmware's start: a session that held anything (here one that
    // played a handicap game on 7x7 with a clock, a time source, another
    // version, seed and playouts, and quit) set up field by field in place
    // over fresh storage.
    let (mut used_nodes, mut used_clusters) = (
        vec![Node::EMPTY; 1 << 12],
        vec![BestMoveCluster::EMPTY; 1 << 6],
    );
    let (mut nodes, mut clusters) = (
        vec![Node::EMPTY; 1 << 14],
        vec![BestMoveCluster::EMPTY; 1 << 8],
    );
    let (mut fresh_nodes, mut fresh_clusters) = (nodes.clone(), clusters.clone());
    let other = Setup {
        version: "other",
        playouts: 50,
        seed: 3,
        ..SETUP
    };
    let mut reset: Pooled<'_> = Session::new(
        Game::new(7, 11).unwrap(),
        PoolEngine::new(other, &mut used_nodes, &mut used_clusters),
    );
    reset.player.set_clock(ticking_ms);
    answers(
        &mut reset,
        "kosumi-playouts 80\nclear_board\ntime_settings 10 1 1\nfixed_handicap 2\ngenmove w\ngenmove b\nquit",
    );
    assert!(reset.quit);
    reset
        .restart(9, 14, ResignRule::DEFAULT, |player| {
            player.reset(SETUP, &mut nodes, &mut clusters)
        })
        .unwrap();

    let mut new = session(&mut fresh_nodes, &mut fresh_clusters);
    let script = "version\nshowboard\nclear_board\nkosumi-playouts 200";
    assert_eq!(answers(&mut reset, script), answers(&mut new, script));
    assert_eq!(self_play(&mut reset, 6), self_play(&mut new, 6));
    let end = "final_score\nprintsgf";
    assert_eq!(answers(&mut reset, end), answers(&mut new, end));
}

/// A time source that advances 5 ms each time it is read.
fn ticking_ms() -> u64 {
    static NOW: AtomicU64 = AtomicU64::new(0);
    NOW.fetch_add(5, Ordering::Relaxed)
}

#[test]
fn with_a_time_source_a_timed_move_stops_on_the_clock() {
    let mut nodes = vec![Node::EMPTY; 1 << 16];
    let mut clusters = vec![BestMoveCluster::EMPTY; 1 << 8];
    let mut s = session(&mut nodes, &mut clusters);
    // No time source: a clock changes nothing, the playouts rule.
    answers(&mut s, "time_settings 0 1 1\nkosumi-playouts 500");
    assert!(answers(&mut s, "genmove b").starts_with("= "));
    assert_eq!(s.player.tree().pool().nodes()[0].visits, 500);

    // With one, a second a move of byo-yomi ends the search long before
    // the cap of a million playouts.
    s.player.set_clock(ticking_ms);
    answers(&mut s, "clear_board\nkosumi-playouts 1000000");
    assert!(answers(&mut s, "genmove b").starts_with("= "));
    let visits = s.player.tree().pool().nodes()[0].visits;
    assert!(visits > 0 && visits < 1_000_000, "{visits}");
}

#[test]
fn with_a_model_and_replies_it_plays_and_weighs_the_model_by_board_size() {
    use kosumi_core::pattern::{Model, Patterns, Slot};
    use kosumi_core::playout::Replies;
    use kosumi_core::tactics::Ladder;

    let model = Model::parse(include_bytes!("../../models/kgs-6d-3x3.kpm")).unwrap();
    let mut slots = vec![Slot::EMPTY; Patterns::slots_for(model.patterns())];
    let patterns = Patterns::build(model, &mut slots).unwrap();
    let mut ladder: Ladder = Ladder::new();
    let mut replies = Replies::new(vec![0u16; Replies::<Vec<u16>>::ENTRIES]).unwrap();
    let mut nodes = vec![Node::EMPTY; 1 << 15];
    let mut clusters = vec![BestMoveCluster::EMPTY; 1 << 8];
    let mut s = heavy_session(&mut nodes, &mut clusters);
    s.player.set_patterns(&patterns, Some(&mut ladder));
    s.player.set_replies(&mut replies);
    answers(&mut s, "kosumi-playouts 200");
    s.player.set_seed(3);
    let first = self_play(&mut s, 6);
    assert!(
        first.iter().all(|m| m.starts_with("= ") && m.len() > 3),
        "{first:?}"
    );
    assert_eq!(
        s.player.tree().params().pattern_prior,
        Params::pattern_prior_for(9)
    );
    answers(&mut s, "boardsize 19");
    assert!(answers(&mut s, "genmove b").starts_with("= "));
    assert_eq!(s.player.tree().params().pattern_prior, 1000.0);
    // A new seed forgets the replies learnt (the heavy playouts use
    // them): the seed replays its game.
    answers(&mut s, "boardsize 9");
    s.player.set_seed(3);
    assert_eq!(self_play(&mut s, 6), first);
}

#[test]
fn printsgf_writes_the_record_and_its_result_after_two_passes() {
    let mut nodes = vec![Node::EMPTY; 1 << 14];
    let mut clusters = vec![BestMoveCluster::EMPTY; 1 << 8];
    let mut s = session(&mut nodes, &mut clusters);
    answers(&mut s, "boardsize 5\nkomi 0.5\nfixed_handicap 2");
    // No handicap on 5x5: the board stays empty, black to move.
    answers(&mut s, "play b c3\nplay w pass");
    assert_eq!(
        answers(&mut s, "printsgf"),
        "= (;GM[1]FF[4]CA[UTF-8]AP[kosumi:9.9.9-test]SZ[5]KM[0.5]RU[Chinese];B[cc];W[])\n\n"
    );
    // Two passes end the game: the result (black's whole board, less
    // komi) joins the record.
    answers(&mut s, "play b pass");
    let sgf = answers(&mut s, "printsgf");
    assert!(
        sgf.ends_with("RU[Chinese]RE[B+24.5];B[cc];W[];B[])\n\n"),
        "{sgf}"
    );
    assert_eq!(
        answers(&mut s, "printsgf game.sgf"),
        "? cannot write file\n\n"
    );
    assert_eq!(answers(&mut s, "printsgf a b"), "? syntax error\n\n");
    // Handicap: HA, the stones as setup (C3 and G7), white first.
    answers(&mut s, "boardsize 9\nkomi 0.5\nfixed_handicap 2\nplay w e5");
    let sgf = answers(&mut s, "printsgf");
    assert!(
        sgf.contains("SZ[9]KM[0.5]HA[2]RU[Chinese]AB[cg][gc]PL[W];W[ee])"),
        "{sgf}"
    );
}

/// Eight moves of self-play with the 3x3 model, its ladders read on a
/// ladder reader of their own if `own_ladder`, else on the tactical
/// reader's journal.
fn self_play_with_model(own_ladder: bool) -> Vec<String> {
    use kosumi_core::pattern::{Model, Patterns, Slot};
    use kosumi_core::table::{Table, TacticCluster};
    use kosumi_core::tactics::{Ladder, LadderReader, Reader};

    let model = Model::parse(include_bytes!("../../models/kgs-6d-3x3.kpm")).unwrap();
    let mut slots = vec![Slot::EMPTY; Patterns::slots_for(model.patterns())];
    let patterns = Patterns::build(model, &mut slots).unwrap();
    let mut ladder: Box<Ladder> = Box::default();
    let mut cache: Table<TacticCluster, Vec<TacticCluster>> =
        Table::new(vec![TacticCluster::EMPTY; 1 << 10]).unwrap();
    let mut reader = Box::new(Reader::new(&mut cache));
    let mut nodes = vec![Node::EMPTY; 1 << 14];
    let mut clusters = vec![BestMoveCluster::EMPTY; 1 << 6];
    let mut s = heavy_session(&mut nodes, &mut clusters);
    s.player.set_tactics(&mut *reader);
    let own: Option<&mut dyn LadderReader> = if own_ladder { Some(&mut *ladder) } else { None };
    s.player.set_patterns(&patterns, own);
    answers(&mut s, "kosumi-playouts 150");
    s.player.set_seed(5);
    self_play(&mut s, 8)
}

/// An engine with no ladder reader of its own reads the model's ladders on
/// the tactical reader's journal (the firmware's RAM holds one): with
/// journals of one size it plays the same game as an engine with both.
#[test]
fn the_models_ladders_read_on_the_tactical_readers_journal_play_the_same() {
    let shared = self_play_with_model(false);
    assert!(shared.iter().all(|m| m.starts_with("= ")), "{shared:?}");
    assert_eq!(shared, self_play_with_model(true));
}
