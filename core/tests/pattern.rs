//! Move patterns: tactical features read from Go diagrams, spatial hashes
//! under the board's symmetries, the model file refused when damaged, and
//! the search with and without a model (a 19x19 opening on lines 3 to 5).
//!
//! `X` is black, `O` white, `.` empty; lower-case letters mark points the
//! test talks about. `A1` is the bottom-left corner.

use std::collections::BTreeMap;

use kosumi_core::board::Board;
use kosumi_core::geometry::{Color, Point};
use kosumi_core::pattern::compact::{self, Compact};
use kosumi_core::pattern::feature::{self, atari, capture, escape, Group, TACTICAL_GAMMAS};
use kosumi_core::pattern::model::{self, crc32, encoded_len, Model, ModelError};
use kosumi_core::pattern::spatial::{Neighbourhood, MAX_SIZE, MIN_SIZE};
use kosumi_core::pattern::{Patterns, Slot};
use kosumi_core::rng;
use kosumi_core::search::{Budget, Knowledge, NoClock, Node, Params, PatternPrior, Search};
use kosumi_core::table::BestMoveCluster;
use kosumi_core::tactics::Ladder;

use Color::{Black, White};

/// The model the host engine has built in.
const BUILT_IN: &[u8] = include_bytes!("../../models/kgs-6d.kpm");
/// The 3x3-only model, small enough for a firmware's flash.
const SMALL: &[u8] = include_bytes!("../../models/kgs-6d-3x3.kpm");

fn setup(diagram: &str, to_play: Color) -> (Board, BTreeMap<char, Point>) {
    let mut marks = BTreeMap::new();
    let board = Board::from_diagram_marked(diagram, to_play, |p, ch| {
        marks.insert(ch, p);
    })
    .unwrap_or_else(|e| panic!("bad diagram {e:?}:\n{diagram}"));
    (board, marks)
}

/// The tactical features of `c` playing `p`; the board is restored.
fn features(b: &mut Board, p: Point, c: Color) -> [u8; feature::GROUPS] {
    let before = b.clone();
    let mut ladder: Box<Ladder> = Box::default();
    let f = feature::tactical(b, p, c, &mut *ladder);
    assert!(b.identical(&before), "board restored");
    f
}

/// A ladder from D4 to the upper right; with `breaker`, a black stone on
/// its path.
fn ladder(breaker: bool) -> (Board, BTreeMap<char, Point>) {
    let d = if breaker {
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . X . .
        . . . . . . . . .
        . . O . . . . . .
        . . O X a . . . .
        . . . O . . . . .
        . . . . . . . . .
        . . . . . . . . .
        "
    } else {
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . O . . . . . .
        . . O X a . . . .
        . . . O . . . . .
        . . . . . . . . .
        . . . . . . . . .
        "
    };
    setup(d, White)
}

#[test]
fn an_atari_that_starts_a_working_ladder_is_a_ladder_atari() {
    let (mut b, m) = ladder(false);
    let f = features(&mut b, m[&'a'], White);
    assert_eq!(f[Group::Atari as usize], atari::LADDER);
    let (mut b, m) = ladder(true);
    let f = features(&mut b, m[&'a'], White);
    assert_eq!(f[Group::Atari as usize], atari::OTHER);
}

#[test]
fn running_from_a_fresh_atari_is_caught_unless_a_stone_breaks_the_ladder() {
    for (breaker, want) in [(false, escape::NEW_CAUGHT), (true, escape::NEW_SAFE)] {
        let (mut b, m) = ladder(breaker);
        b.play(m[&'a'], White).unwrap();
        let run = b.geometry().parse_vertex("D5").unwrap();
        let f = features(&mut b, run, Black);
        assert_eq!(f[Group::Escape as usize], want, "breaker {breaker}");
        assert_eq!(f[Group::LastDistance as usize], 3, "D5 is diagonal to E4");
    }
}

/// The tactical reader answers the ladder questions on its own journal as
/// the ladder reader does on its own (an engine short of RAM lends the
/// reader to the model's features), and a journal too small for the line
/// sees an escape, never a ladder.
#[test]
fn the_reader_reads_ladders_as_the_ladder_reader_does() {
    use kosumi_core::tactics::{LadderReader, NoLadders, Reader};
    for breaker in [false, true] {
        let (mut b, m) = ladder(breaker);
        let (a, stone) = (m[&'a'], b.geometry().parse_vertex("D4").unwrap());
        let mut own: Box<Ladder> = Box::default();
        let mut reader = Box::new(Reader::without_cache());
        let mut small: Box<Ladder<64, 8>> = Box::default();
        let want = own.caught_after_atari(&mut b, a, White, stone);
        assert_eq!(want, !breaker);
        assert_eq!(reader.caught_after_atari(&mut b, a, White, stone), want);
        assert!(!small.caught_after_atari(&mut b, a, White, stone));
        assert!(!NoLadders.caught_after_atari(&mut b, a, White, stone));
        b.play(a, White).unwrap();
        let before = b.clone();
        assert_eq!(own.caught_in_atari(&mut b, stone), want);
        assert_eq!(reader.caught_in_atari(&mut b, stone), want);
        let run = b.geometry().parse_vertex("D5").unwrap();
        assert_eq!(own.caught_after(&mut b, run, Black), want);
        assert_eq!(reader.caught_after(&mut b, run, Black), want);
        assert!(b.identical(&before), "the reads restore the board");
    }
}

#[test]
fn captures_are_told_apart() {
    // a: takes the white stone whose atari holds the black pair in atari
    // (a rescue).
    let (mut b, m) = setup(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . X . . . . . .
        . X O a . . . . .
        . O X X O . . . .
        . . O O . . . . .
        ",
        Black,
    );
    let f = features(&mut b, m[&'a'], Black);
    assert_eq!(f[Group::Capture as usize], capture::SAVES);
    assert_eq!(f[Group::Escape as usize], escape::OLD_SAFE);
    // b: takes the lone stone white just played into atari at D2.
    let (mut b, m) = setup(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . X . . . . .
        . . X . X . . . .
        . . . b . . . . .
        ",
        White,
    );
    let o = b.geometry().parse_vertex("D2").unwrap();
    b.play(o, White).unwrap();
    let f = features(&mut b, m[&'b'], Black);
    assert_eq!(f[Group::Capture as usize], capture::LAST);
    assert_eq!(f[Group::Border as usize], 1);
    assert_eq!(f[Group::SelfAtari as usize], 0);
    assert_eq!(f[Group::LastDistance as usize], 2);
}

#[test]
fn self_ataris_lines_and_the_pass() {
    let (mut b, m) = setup(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . O O . . . . . .
        O X X O . c . . .
        O a . . . . . . .
        ",
        Black,
    );
    // a: three black stones left with one liberty (C1).
    let f = features(&mut b, m[&'a'], Black);
    assert_eq!(f[Group::SelfAtari as usize], 2);
    assert_eq!(f[Group::Border as usize], 1);
    let f = features(&mut b, m[&'c'], Black);
    assert_eq!(f[Group::SelfAtari as usize], 0);
    assert_eq!(f[Group::Border as usize], 2);
    assert_eq!(
        features(&mut b, Point::PASS, Black)[Group::Pass as usize],
        1
    );
    b.play(Point::PASS, White).unwrap();
    assert_eq!(
        features(&mut b, Point::PASS, Black)[Group::Pass as usize],
        2
    );
}

/// Return `board` turned by the symmetry `t` (bit 0: transpose, bit 1:
/// mirror x, bit 2: mirror y), with `p`'s image.
fn turned(board: &Board, p: Point, t: usize) -> (Board, Point) {
    let geo = board.geometry();
    let n = board.size();
    let map = |q: Point| {
        let (x, y) = geo.coords(q);
        let (mut x, mut y) = if t & 1 != 0 { (y, x) } else { (x, y) };
        if t & 2 != 0 {
            x = n - 1 - x;
        }
        if t & 4 != 0 {
            y = n - 1 - y;
        }
        geo.point(x, y)
    };
    let mut out = Board::new(n).unwrap();
    for q in geo.points() {
        if let Some(c) = board.at(q).color() {
            out.setup_stone(map(q), c).unwrap();
        }
    }
    (out, map(p))
}

#[test]
fn a_pattern_learned_in_one_orientation_is_found_in_all_eight() {
    let (b, m) = setup(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . O . . . .
        . . . X a X . . .
        . . . . O O . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        ",
        Black,
    );
    let a = m[&'a'];
    let n = Neighbourhood::read(&b, a, Black);
    let mut bytes = vec![0u8; encoded_len(2)];
    let shapes = [(MIN_SIZE, n, 3.0f32), (MIN_SIZE + 1, n, 5.0f32)];
    model::encode(
        &[1.0; TACTICAL_GAMMAS],
        shapes.iter().map(|(s, n, g)| (*s, n, *g)),
        &mut bytes,
    )
    .unwrap();
    let model = Model::parse(&bytes).unwrap();
    let mut slots = vec![Slot::EMPTY; Patterns::slots_for(2)];
    let patterns = Patterns::build(model, &mut slots).unwrap();
    for t in 0..8 {
        let (tb, ta) = turned(&b, a, t);
        let nt = Neighbourhood::read(&tb, ta, Black);
        for d in MIN_SIZE..=MAX_SIZE {
            assert_eq!(nt.canonical(d), n.canonical(d), "size {d}, symmetry {t}");
        }
        let found = patterns.spatial_at(&tb, ta, Black).expect("found");
        assert_eq!(
            (found.size, found.gamma),
            (MIN_SIZE + 1, 5.0),
            "symmetry {t}"
        );
        // Colours are the mover's: white sees the other shape.
        let white = patterns.spatial_at(&tb, ta, White);
        assert!(white.is_none(), "symmetry {t}: {white:?}");
    }
}

/// A valid model of one 3x3 pattern.
fn small_model() -> Vec<u8> {
    let (b, m) = setup(
        "
        . . .
        X a O
        . . .
        ",
        Black,
    );
    let n = Neighbourhood::read(&b, m[&'a'], Black);
    let mut bytes = vec![0u8; encoded_len(1)];
    model::encode(
        &[2.0; TACTICAL_GAMMAS],
        [(MIN_SIZE, &n, 4.0)].into_iter(),
        &mut bytes,
    )
    .unwrap();
    bytes
}

#[test]
fn damaged_models_are_refused_as_values() {
    let good = small_model();
    assert!(Model::parse(&good).is_ok());
    assert_eq!(Model::parse(&good[..10]).unwrap_err(), ModelError::TooShort);
    let short = &good[..good.len() - 1];
    assert!(matches!(
        Model::parse(short),
        Err(ModelError::Length { .. })
    ));
    let mut flipped = good.clone();
    flipped[40] ^= 1;
    assert!(matches!(
        Model::parse(&flipped),
        Err(ModelError::Checksum { .. })
    ));
    let mut foreign = good.clone();
    foreign[0] = b'X';
    assert_eq!(Model::parse(&foreign).unwrap_err(), ModelError::NotAModel);
    let mut version = good.clone();
    version[8] = 9;
    assert_eq!(Model::parse(&version).unwrap_err(), ModelError::Version(9));
    // A negative gamma, with a checksum that matches.
    let mut bad = good.clone();
    let at = model::HEADER;
    bad[at..at + 4].copy_from_slice(&(-1.0f32).to_le_bytes());
    let crc = crc32(&bad, 16);
    bad[12..16].copy_from_slice(&crc.to_le_bytes());
    assert_eq!(Model::parse(&bad).unwrap_err(), ModelError::BadGamma(0));
    // A 4-size pattern without its 3x3 core is not nested.
    let (b, m) = setup(
        "
        . . . . .
        . . . . .
        X . a . O
        . . . . .
        . . . . .
        ",
        Black,
    );
    let n = Neighbourhood::read(&b, m[&'a'], Black);
    let mut lonely = vec![0u8; encoded_len(1)];
    model::encode(
        &[1.0; TACTICAL_GAMMAS],
        [(MIN_SIZE + 1, &n, 2.0)].into_iter(),
        &mut lonely,
    )
    .unwrap();
    let model = Model::parse(&lonely).unwrap();
    let mut slots = vec![Slot::EMPTY; Patterns::slots_for(1)];
    assert_eq!(
        Patterns::build(model, &mut slots).unwrap_err(),
        ModelError::NotNested(0)
    );
    let mut few = vec![Slot::EMPTY; 4];
    assert_eq!(
        Patterns::build(Model::parse(&good).unwrap(), &mut few).unwrap_err(),
        ModelError::IndexTooSmall
    );
}

/// A model in the binary is checked when the binary is compiled: a
/// corrupt or truncated `SMALL` would not compile (`Model::parse` is a
/// `const fn`; the 4.9 MB built-in model is checked at start-up instead,
/// its checksum being too long a loop for the compiler's evaluator).
#[test]
fn a_flash_sized_model_checks_at_compile_time() {
    const MODEL: Model<'static> = match Model::parse(SMALL) {
        Ok(m) => m,
        Err(_) => panic!("models/kgs-6d-3x3.kpm is not a valid model"),
    };
    assert!(MODEL.patterns() > 500 && SMALL.len() < 32 * 1024);
    assert!(Model::parse(BUILT_IN).is_ok());
}

/// Return the compact table of the model file `bytes` with its patterns
/// up to `max_size`, as `kosumi patterns compact` writes it.
fn compact_of(bytes: &[u8], max_size: usize) -> Vec<u8> {
    let model = Model::parse(bytes).unwrap();
    let tactical: Vec<f32> = (0..TACTICAL_GAMMAS).map(|i| model.tactical(i)).collect();
    let mut patterns: Vec<(u64, usize, f32)> = model.canonical_patterns(max_size).collect();
    let mut out = vec![0u8; compact::encoded_len(patterns.len())];
    compact::encode(&tactical, &mut patterns, &mut out).unwrap();
    out
}

/// The model trained on 2,000 games: patterns of every size.
const MODEL_2K: &[u8] = include_bytes!("../../models/kgs-6d-2k.kpm");

#[test]
fn a_compact_table_rates_every_move_as_the_model_index_does() {
    let full = Model::parse(MODEL_2K).unwrap();
    let tactical: Vec<f32> = (0..TACTICAL_GAMMAS).map(|i| full.tactical(i)).collect();
    for max_size in [MIN_SIZE, MIN_SIZE + 2, MAX_SIZE] {
        // The model cut at `max_size`, indexed as the host does.
        let kept: Vec<_> = (0..full.patterns())
            .map(|r| full.pattern(r))
            .filter(|&(size, _, _)| size <= max_size)
            .collect();
        let mut cut = vec![0u8; encoded_len(kept.len())];
        model::encode(
            &tactical,
            kept.iter().map(|(s, n, g)| (*s, n, *g)),
            &mut cut,
        )
        .unwrap();
        let model = Model::parse(&cut).unwrap();
        let mut slots = vec![Slot::EMPTY; Patterns::slots_for(model.patterns())];
        let probed = Patterns::build(model, &mut slots).unwrap();
        let bytes = compact_of(MODEL_2K, max_size);
        let sorted = Patterns::compact(Compact::parse(&bytes).unwrap());
        assert!(sorted.model().is_none());
        let mut ladder: Box<Ladder> = Box::default();
        let (mut seen, mut larger) = (0, 0);
        for (size, seed) in [(9, 1), (13, 2), (19, 3)] {
            let mut r = rng::seeded(seed);
            let mut b = Board::new(size).unwrap();
            for ply in 0..3 * size * size / 2 {
                let empty: Vec<Point> = b.empty_points().collect();
                let c = b.to_play();
                if ply % 7 == 0 {
                    for &p in &empty {
                        if !b.is_legal(p, c) {
                            continue;
                        }
                        let want = probed.spatial_at(&b, p, c);
                        let got = sorted.spatial_at(&b, p, c);
                        assert_eq!(
                            got.map(|m| (m.size, m.gamma)),
                            want.map(|m| (m.size, m.gamma)),
                            "{size}x{size}, ply {ply}, {p:?}, up to size {max_size}"
                        );
                        seen += got.is_some() as usize;
                        larger += got.is_some_and(|m| m.size > MIN_SIZE) as usize;
                        let a = probed.rate(&mut b, p, c, &mut *ladder);
                        let z = sorted.rate(&mut b, p, c, &mut *ladder);
                        assert_eq!((a.gamma, a.size), (z.gamma, z.size));
                    }
                }
                let p = empty[rng::below(&mut r, empty.len() as u32) as usize];
                if b.is_legal(p, c) && b.play(p, c).is_err() {
                    unreachable!("a legal move plays");
                }
            }
        }
        // Not a vacuous pass: shapes were found, larger ones too where kept.
        assert!(seen > 1000, "{seen} patterns found");
        assert_eq!(larger > 0, max_size > MIN_SIZE, "{larger} larger patterns");
    }
}

#[test]
fn damaged_compact_tables_are_refused_as_values() {
    let good = compact_of(SMALL, MIN_SIZE);
    let table = Compact::parse(&good).unwrap();
    assert_eq!(table.entries(), Model::parse(SMALL).unwrap().patterns());
    assert_eq!(good.len(), compact::encoded_len(table.entries()));
    assert_eq!(
        Compact::parse(&good[..10]).unwrap_err(),
        ModelError::TooShort
    );
    assert!(matches!(
        Compact::parse(&good[..good.len() - 1]),
        Err(ModelError::Length { .. })
    ));
    let mut flipped = good.clone();
    flipped[good.len() - 3] ^= 1;
    assert!(matches!(
        Compact::parse(&flipped),
        Err(ModelError::Checksum { .. })
    ));
    // A model is not a compact table, nor the other way round.
    assert_eq!(Compact::parse(SMALL).unwrap_err(), ModelError::NotAModel);
    assert_eq!(Model::parse(&good).unwrap_err(), ModelError::NotAModel);
    // Two entries swapped, with a checksum that matches.
    let mut swapped = good.clone();
    let at = compact::HEADER + 4 * TACTICAL_GAMMAS;
    let (a, b) = (
        at..at + compact::ENTRY,
        at + compact::ENTRY..at + 2 * compact::ENTRY,
    );
    let first = swapped[a.clone()].to_vec();
    swapped.copy_within(b.clone(), a.start);
    swapped[b].copy_from_slice(&first);
    let crc = crc32(&swapped, 16);
    swapped[12..16].copy_from_slice(&crc.to_le_bytes());
    assert_eq!(
        Compact::parse(&swapped).unwrap_err(),
        ModelError::KeyOrder(1)
    );
    // Two patterns of one key are refused when the table is written.
    let empty = Board::new(9).unwrap();
    let n = Neighbourhood::read(&empty, empty.geometry().point(0, 0), Black);
    let mut twice = [(n.canonical(3), 3, 1.0f32), (n.canonical(3), 3, 2.0)];
    let mut out = vec![0u8; compact::encoded_len(2)];
    assert_eq!(
        compact::encode(&[1.0; TACTICAL_GAMMAS], &mut twice, &mut out).unwrap_err(),
        ModelError::KeyOrder(1)
    );
}

/// Search `board` with `playouts`, with the built-in model or without.
fn search(board: &Board, playouts: u32, with_model: bool, seed: u64) -> Point {
    let model = Model::parse(BUILT_IN).unwrap();
    let mut slots = vec![Slot::EMPTY; Patterns::slots_for(model.patterns())];
    let patterns = Patterns::build(model, &mut slots).unwrap();
    let mut ladder: Box<Ladder> = Box::default();
    let params = Params {
        pattern_prior: Params::pattern_prior_for(board.size()),
        ..Params::default()
    };
    let mut s = Search::new(vec![Node::EMPTY; 400_000], params).unwrap();
    s.set_seed(seed);
    let knowledge = Knowledge {
        tactics: None,
        patterns: with_model.then_some(PatternPrior {
            patterns: &patterns,
            ladder: Some(&mut *ladder),
        }),
        replies: None,
        local: None,
        dragons: None,
    };
    s.run::<Vec<BestMoveCluster>, _>(
        board,
        15,
        &[],
        Budget::playouts(playouts),
        None,
        knowledge,
        &mut NoClock,
        &mut |_| {},
    )
    .unwrap()
    .best
}

#[test]
fn the_search_plays_with_and_without_a_model() {
    let b = Board::new(9).unwrap();
    for with_model in [false, true] {
        let p = search(&b, 2000, with_model, 3);
        assert!(b.is_legal(p, Black) && !p.is_pass(), "{with_model}");
        assert_eq!(search(&b, 2000, with_model, 3), p, "deterministic");
    }
}

/// Query whether a stone lies within Manhattan distance 3 of `p`.
fn stones_near(b: &Board, p: Point) -> bool {
    let geo = b.geometry();
    let (x, y) = geo.coords(p);
    geo.points().any(|q| {
        let (qx, qy) = geo.coords(q);
        b.at(q).color().is_some() && qx.abs_diff(x) + qy.abs_diff(y) <= 3
    })
}

/// The first ten moves of self-play with the model (fixed seeds): the
/// four corner moves on lines 3 to 5, and no move on the first two lines
/// away from the stones (the second-line moves of the games, J18,
/// S8, N2, F2 in open areas). A second-line move next to stones is a
/// joseki's (a slide under an approach) and allowed.
#[test]
fn a_19x19_opening_with_the_model_keeps_to_lines_3_to_5() {
    let mut b = Board::new(19).unwrap();
    let geo = b.geometry();
    let mut c = Black;
    let mut moves = Vec::new();
    for k in 0..10 {
        let p = search(&b, 3000, true, 11 + k);
        let (x, y) = geo.coords(p);
        let line = x.min(y).min(18 - x).min(18 - y) + 1;
        let mut buf = [0u8; 4];
        moves.push(format!("{}:{line}", geo.vertex_str(p, &mut buf)));
        let fine = if k < 4 {
            (3..=5).contains(&line)
        } else {
            line >= 3 || (line == 2 && stones_near(&b, p))
        };
        assert!(fine, "move {}: {moves:?}", k + 1);
        b.play(p, c).unwrap();
        c = c.opponent();
    }
}
