//! Full-board position search: look the canonical hash up in its shard,
//! then verify every candidate by replaying its game's stream to the move
//! the index names and comparing the whole board with each allowed image
//! of the query. A candidate that matches no image is a hash collision (or
//! shares only the stored hash bits) and is dropped.

use kosumi_core::geometry::Color;

use crate::filter;
use crate::output::Continuation;
use crate::record::{self, Event, Winner};
use crate::store::Db;
use crate::symmetry::{inverse, swap_colours, transform, SymHash, MAP, N, POINTS};

/// One occurrence of the query position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Hit {
    /// Game id.
    pub game: usize,
    /// The position after this many moves.
    pub moves: u16,
    /// The symmetry that maps the query onto the game's board.
    pub sym: usize,
    /// Whether the colours are exchanged.
    pub swapped: bool,
    /// The next move in the query's orientation (`None` at the game's end;
    /// `Some(None)` for a pass), with its colour as seen in the query.
    pub next: Option<(Color, Option<u16>)>,
    /// The game's winner as seen in the query.
    pub winner: Winner,
}

/// What a position search looked at.
#[derive(Debug, Default)]
pub struct Stats {
    /// Index entries read.
    pub candidates: usize,
    /// Candidates refused by replay.
    pub rejected: usize,
}

/// Return the continuation of each hit that has a next move (the game's
/// year read once per game: hits come sorted by game).
pub fn continuations(db: &Db, hits: &[Hit]) -> Vec<Continuation> {
    let mut year = (usize::MAX, None);
    hits.iter()
        .filter_map(|h| {
            let (colour, p) = h.next?;
            if year.0 != h.game {
                year = (h.game, filter::year(&db.info(h.game).date));
            }
            Some(Continuation {
                at: p.map(|p| ((p as usize % N) as u8, (p as usize / N) as u8)),
                colour,
                winner: h.winner,
                year: year.1,
                tenuki: false,
            })
        })
        .collect()
}

/// Return every occurrence of `query` (0 empty, 1 black, 2 white) under
/// the symmetries `syms`, and with colours exchanged if `swap`, sorted by
/// game and move.
pub fn find_position(
    db: &Db,
    query: &[u8; POINTS],
    syms: &[usize],
    swap: bool,
    stats: &mut Stats,
) -> Vec<Hit> {
    let mut hits = Vec::new();
    let mut events: Vec<Event> = Vec::new();
    let mut candidates: Vec<u32> = Vec::new();
    let colourings: &[bool] = if swap { &[false, true] } else { &[false] };
    for &swapped in colourings {
        let q = if swapped { swap_colours(query) } else { *query };
        let h = SymHash::of(&q).canonical() & db.hash_mask();
        let images: Vec<(usize, [u8; POINTS])> =
            syms.iter().map(|&t| (t, transform(&q, t))).collect();
        candidates.clear();
        db.lookup(h, |p| candidates.push(p));
        stats.candidates += candidates.len();
        candidates.sort_unstable();
        for &pos in &candidates {
            let Some((g, k)) = db.locate(pos) else {
                stats.rejected += 1;
                continue;
            };
            // Up to the move after the match: the continuation.
            if record::decode_until(db.stream(g), k.saturating_add(1), &mut events).is_err() {
                stats.rejected += 1;
                continue;
            }
            let board = record::position_at(&events, k);
            let Some(&(t, _)) = images.iter().find(|(_, img)| *img == board) else {
                stats.rejected += 1;
                continue;
            };
            let next = events.iter().find_map(|e| match *e {
                Event::Move(n, c, p) if n == k + 1 => Some((c, p)),
                _ => None,
            });
            let back = inverse(t);
            let next = next.map(|(c, p)| {
                let c = if swapped { c.opponent() } else { c };
                (c, p.map(|p| MAP[back][p as usize]))
            });
            let w = db.winner(g);
            hits.push(Hit {
                game: g,
                moves: k,
                sym: t,
                swapped,
                next,
                winner: if swapped { w.swapped() } else { w },
            });
        }
    }
    hits.sort_by_key(|h| (h.game, h.moves, h.swapped));
    hits.dedup_by_key(|h| (h.game, h.moves));
    hits
}
