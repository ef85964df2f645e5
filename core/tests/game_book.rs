//! The opening book in read-only memory (`kosumi_core::game::book`): a
//! book written and read back finds its positions; a truncated, corrupt or
//! disordered one is refused whole; the pool engine's `genmove` plays the
//! book's move where the book has the position and searches elsewhere.

use kosumi_core::board::Board;
use kosumi_core::game::book::{self, Book, BookError, HEADER, RECORD};
use kosumi_core::game::Game;
use kosumi_core::geometry::{Color, Geometry};
use kosumi_core::gtp::{PoolEngine, Session, Setup};
use kosumi_core::search::{Node, Params};
use kosumi_core::table::{BestMoveCluster, Cluster};

/// Return a 9x9 board with the moves `moves` ("E5 C3 ...") played.
fn board(moves: &str) -> Board {
    let mut b = Board::new(9).unwrap();
    let geo = Geometry::new(9).unwrap();
    for (i, m) in moves.split_whitespace().enumerate() {
        let c = if i % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        b.play(geo.parse_vertex(m).unwrap(), c).unwrap();
    }
    b
}

/// Return a book of three positions: the empty board (black E5), after E5
/// (white C3), after E5 C3 (black G3).
fn three() -> Vec<u8> {
    let mut entries = vec![
        (book::key(&board("E5 C3")), 6, 2),
        (book::key(&board("")), 4, 4),
        (book::key(&board("E5")), 2, 2),
    ];
    let mut out = vec![0u8; book::encoded_len(entries.len())];
    let n = book::write(9, &mut entries, &mut out).unwrap();
    assert_eq!(n, out.len());
    out
}

#[test]
fn a_written_book_finds_its_positions() {
    let bytes = three();
    let b = Book::parse(&bytes).unwrap();
    assert_eq!((b.size(), b.len()), (9, 3));
    let geo = Geometry::new(9).unwrap();
    assert_eq!(b.lookup(&board("")), Some(geo.parse_vertex("E5").unwrap()));
    assert_eq!(
        b.lookup(&board("E5")),
        Some(geo.parse_vertex("C3").unwrap())
    );
    assert_eq!(
        b.lookup(&board("E5 C3")),
        Some(geo.parse_vertex("G3").unwrap())
    );
    // The same stones with the other side to move, another position, a
    // board of another size: not in the book.
    let mut turned = board("E5");
    turned.set_to_play(Color::Black);
    assert_eq!(b.lookup(&turned), None);
    assert_eq!(b.lookup(&board("D4")), None);
    assert_eq!(b.lookup(&Board::new(13).unwrap()), None);
}

#[test]
fn a_damaged_book_is_refused_whole() {
    let good = three();
    assert_eq!(Book::parse(&good[..10]).unwrap_err(), BookError::TooShort);
    assert_eq!(
        Book::parse(&good[..good.len() - 1]).unwrap_err(),
        BookError::Length
    );
    let mut magic = good.clone();
    magic[0] = b'X';
    assert_eq!(Book::parse(&magic).unwrap_err(), BookError::NotABook);
    let mut version = good.clone();
    version[8] = 2;
    assert_eq!(Book::parse(&version).unwrap_err(), BookError::Version(2));
    let mut flipped = good.clone();
    flipped[HEADER + RECORD + 3] ^= 1;
    assert_eq!(Book::parse(&flipped).unwrap_err(), BookError::Checksum);
    // Records swapped (checksum made right): out of order.
    let mut swapped = good.clone();
    let (a, b) = (HEADER, HEADER + RECORD);
    let first: Vec<u8> = swapped[a..b].to_vec();
    swapped.copy_within(b..b + RECORD, a);
    swapped[b..b + RECORD].copy_from_slice(&first);
    let crc = kosumi_core::pattern::model::crc32(&swapped, 16);
    swapped[12..16].copy_from_slice(&crc.to_le_bytes());
    assert_eq!(Book::parse(&swapped).unwrap_err(), BookError::Record(1));
    // A move off the board.
    let mut entries = vec![(7, 9, 0)];
    let mut out = vec![0u8; book::encoded_len(1)];
    assert_eq!(
        book::write(9, &mut entries, &mut out).unwrap_err(),
        BookError::Record(0)
    );
    assert_eq!(
        book::write(9, &mut [(1, 0, 0), (2, 0, 0)], &mut out).unwrap_err(),
        BookError::NoRoom
    );
}

/// A book built into the binary is checked at compile time (a wrong byte
/// here fails the build): an empty 9x9 book, its CRC-32 from Python's zlib.
const EMPTY_BOOK: &[u8] = &[
    b'K', b'O', b'S', b'U', b'M', b'I', b'O', b'B', 1, 0, 0, 0, 0x42, 0xc4, 0x6d, 0x7a, 9, 0, 0, 0,
    0, 0, 0, 0,
];
const _: () = assert!(matches!(Book::parse(EMPTY_BOOK), Ok(b) if b.is_empty()));

#[test]
fn genmove_plays_the_book_move_where_the_book_has_the_position() {
    let bytes = three();
    let b = Book::parse(&bytes).unwrap();
    let mut nodes = vec![Node::EMPTY; 1 << 12];
    let mut clusters = vec![BestMoveCluster::EMPTY; 1 << 6];
    let setup = Setup {
        version: "book-test",
        params: Params::DEFAULT,
        playouts: 200,
        ownership_playouts: 16,
        seed: 3,
    };
    let mut engine = PoolEngine::new(setup, &mut nodes, &mut clusters);
    engine.set_book(&b);
    let mut s: Session<PoolEngine<'_>, 100, 9> = Session::new(Game::new(9, 14).unwrap(), engine);
    let mut say = |line: &str| {
        let mut buf = line.as_bytes().to_vec();
        let mut out = String::new();
        s.answer_line(&mut buf, &mut out, |s, req, _| s.player.command(req))
            .unwrap();
        out
    };
    assert_eq!(say("genmove b"), "= E5\n\n");
    assert_eq!(say("genmove w"), "= C3\n\n");
    assert_eq!(say("genmove b"), "= G3\n\n");
    // Out of the book: a search (not a book move of another position).
    assert!(say("genmove w").starts_with("= "));
    // The book's first move taken by the opponent: the engine searches.
    say("clear_board");
    say("play b D4");
    say("play w E5");
    let answer = say("genmove b");
    assert!(answer.starts_with("= ") && answer != "= E5\n\n", "{answer}");
}
