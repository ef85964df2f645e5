//! One game as stored: the change stream (moves and captures, 9 bits a
//! symbol), the end-position filter, and the header text.
//!
//! Stream symbols (packed LSB first; the last byte's spare bits are fewer
//! than nine, so they never read as a symbol):
//!
//! | symbol | meaning |
//! |---|---|
//! | 0..=360 | a move at that point (`y * 19 + x`, `y` from the top) |
//! | 361 `PASS` | a pass |
//! | 362 `CAPT n p1..pn` | the preceding move captured these stones |
//! | 363 `SAME` | the next move is by the same colour as the last one |
//! | 364 `WHITE_FIRST` | (first symbol only) white makes the first move |
//! | 365 `SETUP_B n p1..pn`, 366 `SETUP_W n ...` | setup stones (before any move) |
//!
//! Colours alternate unless `SAME` says otherwise, so a normal game costs
//! 9 bits a move plus `2 + n` symbols for each capture. Replaying the
//! stream needs no Go rules: captures are spelled out, which is what lets
//! pattern search build each point's time line in one pass.

use kosumi_core::geometry::Color;

use crate::symmetry::POINTS;

const PASS: u16 = 361;
const CAPT: u16 = 362;
const SAME: u16 = 363;
const WHITE_FIRST: u16 = 364;
const SETUP_B: u16 = 365;
const SETUP_W: u16 = 366;

/// A change of the board, in stream order.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Event {
    /// A setup stone (before move 1).
    Setup(u16, Color),
    /// Move number `n` (from 1) by a colour at a point, `None` for a pass.
    Move(u16, Color, Option<u16>),
    /// A stone removed by the preceding move.
    Capture(u16),
}

/// Writes 9-bit symbols.
#[derive(Default)]
struct Bits {
    out: Vec<u8>,
    acc: u32,
    n: u32,
}

impl Bits {
    fn put(&mut self, sym: u16) {
        self.acc |= u32::from(sym) << self.n;
        self.n += 9;
        while self.n >= 8 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.n -= 8;
        }
    }

    fn finish(mut self) -> Vec<u8> {
        if self.n > 0 {
            self.out.push(self.acc as u8);
        }
        self.out
    }
}

/// Builds the stream of one game while it is replayed.
#[derive(Default)]
pub struct StreamWriter {
    bits: Bits,
    last: Option<Color>,
    setup: [Vec<u16>; 2],
    started: bool,
}

impl StreamWriter {
    /// Note a setup stone (all setup comes before the first move).
    pub fn setup(&mut self, p: u16, c: Color) {
        self.setup[c.idx()].push(p);
    }

    fn start(&mut self, first: Color) {
        if self.started {
            return;
        }
        self.started = true;
        if first == Color::White {
            self.bits.put(WHITE_FIRST);
        }
        for (c, tag) in [(0, SETUP_B), (1, SETUP_W)] {
            if !self.setup[c].is_empty() {
                self.bits.put(tag);
                self.bits.put(self.setup[c].len() as u16);
                for &p in &self.setup[c] {
                    self.bits.put(p);
                }
            }
        }
        self.last = Some(first.opponent());
    }

    /// Note a move (`None`: pass) and the stones it captured.
    pub fn play(&mut self, c: Color, p: Option<u16>, captured: &[u16]) {
        self.start(c);
        if self.last == Some(c) {
            self.bits.put(SAME);
        }
        self.last = Some(c);
        self.bits.put(p.unwrap_or(PASS));
        if !captured.is_empty() {
            self.bits.put(CAPT);
            self.bits.put(captured.len() as u16);
            for &q in captured {
                self.bits.put(q);
            }
        }
    }

    /// Return the stream bytes.
    pub fn finish(mut self) -> Vec<u8> {
        self.start(Color::Black);
        self.bits.finish()
    }
}

/// Bytes of a game's stream or text that no build writes: only a corrupt
/// database holds them.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Malformed;

impl std::fmt::Display for Malformed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("malformed game data (a corrupt database)")
    }
}

/// Decode a stream into `out` (cleared first).
///
/// # Errors
/// [`Malformed`] for a malformed stream (only a corrupt database holds one).
pub fn decode(bytes: &[u8], out: &mut Vec<Event>) -> Result<(), Malformed> {
    decode_until(bytes, u16::MAX, out)
}

/// Decode a stream into `out` up to and including move `last` (and its
/// captures).
///
/// # Errors
/// [`Malformed`] for a malformed stream.
pub fn decode_until(bytes: &[u8], last: u16, out: &mut Vec<Event>) -> Result<(), Malformed> {
    out.clear();
    let total = bytes.len() * 8;
    let mut pos = 0usize;
    let mut next = || -> Option<u16> {
        if pos + 9 > total {
            return None;
        }
        let (byte, shift) = (pos / 8, pos % 8);
        let lo = u32::from(bytes[byte]);
        let hi = u32::from(*bytes.get(byte + 1).unwrap_or(&0));
        pos += 9;
        Some((((lo | hi << 8) >> shift) & 0x1FF) as u16)
    };
    let point = |s: Option<u16>| s.filter(|&p| (p as usize) < POINTS).ok_or(Malformed);
    let mut colour = Color::Black;
    let mut first = true;
    let mut same = false;
    let mut moves = 0u16;
    while let Some(sym) = next() {
        match sym {
            WHITE_FIRST if first => colour = Color::White,
            SETUP_B | SETUP_W if moves == 0 => {
                let c = if sym == SETUP_B {
                    Color::Black
                } else {
                    Color::White
                };
                let n = next().ok_or(Malformed)?;
                for _ in 0..n {
                    out.push(Event::Setup(point(next())?, c));
                }
            }
            SAME => same = true,
            CAPT if moves > 0 => {
                let n = next().ok_or(Malformed)?;
                for _ in 0..n {
                    out.push(Event::Capture(point(next())?));
                }
            }
            s if (s as usize) <= POINTS => {
                if moves == last {
                    break;
                }
                if moves > 0 && !same {
                    colour = colour.opponent();
                }
                same = false;
                moves = moves.checked_add(1).ok_or(Malformed)?;
                let p = (s != PASS).then_some(s);
                out.push(Event::Move(moves, colour, p));
            }
            _ => return Err(Malformed),
        }
        first = false;
    }
    Ok(())
}

/// Return the position after `k` moves of a decoded game (0 empty, 1
/// black, 2 white).
pub fn position_at(events: &[Event], k: u16) -> [u8; POINTS] {
    let mut cells = [0u8; POINTS];
    for e in events {
        match *e {
            Event::Setup(p, c) => cells[p as usize] = 1 + c as u8,
            Event::Move(n, _, _) if n > k => break,
            Event::Move(_, c, Some(p)) => cells[p as usize] = 1 + c as u8,
            Event::Move(..) => {}
            Event::Capture(p) => cells[p as usize] = 0,
        }
    }
    cells
}

/// One step of [`walk`].
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Step {
    /// A stone of this colour put on or taken off this point.
    Toggle(usize, Color),
    /// A position is complete: before each move (after the last one's
    /// captures, or the setup), and once after the last.
    Position,
}

/// Replay a decoded game on bare cells, calling `step` for every stone put
/// or taken and every complete position.
pub fn walk(events: &[Event], mut step: impl FnMut(Step)) {
    let mut cells = [0u8; POINTS];
    for e in events {
        match *e {
            Event::Setup(p, c) => {
                cells[p as usize] = 1 + c as u8;
                step(Step::Toggle(p as usize, c));
            }
            Event::Move(_, c, p) => {
                step(Step::Position);
                if let Some(p) = p {
                    cells[p as usize] = 1 + c as u8;
                    step(Step::Toggle(p as usize, c));
                }
            }
            Event::Capture(p) => {
                let c = cells[p as usize];
                if c != 0 {
                    cells[p as usize] = 0;
                    let colour = if c == 1 { Color::Black } else { Color::White };
                    step(Step::Toggle(p as usize, colour));
                }
            }
        }
    }
    step(Step::Position);
}

/// Return the moves of a decoded game: `moves[i]` is move `i + 1`.
pub fn moves_of(events: &[Event], out: &mut Vec<(Color, Option<u16>)>) {
    out.clear();
    out.extend(events.iter().filter_map(|e| match *e {
        Event::Move(_, c, p) => Some((c, p)),
        _ => None,
    }));
}

/// Who won a game, as far as its `RE` says.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[repr(u8)]
pub enum Winner {
    /// No result, or one that names no winner (void, unknown).
    Unknown = 0,
    /// Black won.
    Black = 1,
    /// White won.
    White = 2,
    /// A draw (jigo).
    Draw = 3,
}

impl Winner {
    /// Return the winner an SGF `RE` value names (SGF FF\[4\]: `B+`/`W+`
    /// with a score, `R`/`Resign`, `T`/`Time`, `F`/`Forfeit` or nothing;
    /// `0`, `Draw` or `Jigo` for a draw; `Void` and `?` name no winner), in
    /// any case, with spaces anywhere; also spelled out (`White wins by
    /// resignation`, `Black+R`). A draw written as a zero margin (`B+0`)
    /// is a draw; `W+J` / `W+Jigo` is white's win on a jigo (old komi
    /// rules that gave white the tie), not a draw.
    pub fn from_result(re: &str) -> Winner {
        let re: String = re
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .to_ascii_uppercase();
        let zero = |margin: &str| margin.parse::<f64>().is_ok_and(|m| m == 0.0);
        // Spelled out, as some old records have it: "White wins by
        // resignation", "Black+R".
        for (word, winner) in [("BLACK", Winner::Black), ("WHITE", Winner::White)] {
            if let Some(rest) = re.strip_prefix(word) {
                if rest.starts_with('+') || rest.starts_with("WIN") {
                    return winner;
                }
            }
        }
        if let Some(margin) = re.strip_prefix("B+") {
            if zero(margin) {
                Winner::Draw
            } else {
                Winner::Black
            }
        } else if let Some(margin) = re.strip_prefix("W+") {
            if zero(margin) {
                Winner::Draw
            } else {
                Winner::White
            }
        } else if re == "0" || re == "DRAW" || re.starts_with("JIGO") {
            Winner::Draw
        } else {
            Winner::Unknown
        }
    }

    /// Return the winner stored as byte `b`.
    pub fn from_byte(b: u8) -> Winner {
        match b {
            1 => Winner::Black,
            2 => Winner::White,
            3 => Winner::Draw,
            _ => Winner::Unknown,
        }
    }

    /// Return the winner with the colours exchanged.
    pub fn swapped(self) -> Winner {
        match self {
            Winner::Black => Winner::White,
            Winner::White => Winner::Black,
            w => w,
        }
    }

    /// Return what the game's result was for `c` (`None` when it names
    /// no winner).
    pub fn outcome(self, c: Color) -> Option<Outcome> {
        match (self, c) {
            (Winner::Black, Color::Black) | (Winner::White, Color::White) => Some(Outcome::Won),
            (Winner::Black, _) | (Winner::White, _) => Some(Outcome::Lost),
            (Winner::Draw, _) => Some(Outcome::Drawn),
            (Winner::Unknown, _) => None,
        }
    }
}

/// What a game's result was for one colour.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Outcome {
    /// That colour won.
    Won,
    /// That colour lost.
    Lost,
    /// A draw: neither won.
    Drawn,
}

/// The header text of a game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    /// The file the game came from.
    pub file: String,
    /// Which game of the file (from 0).
    pub index: u16,
    /// Which line of the game: 0 the main line, `k` its `k`-th variation.
    pub variation: u16,
    /// Black player.
    pub black: String,
    /// White player.
    pub white: String,
    /// Result as recorded.
    pub result: String,
    /// Date as recorded.
    pub date: String,
    /// Event as recorded.
    pub event: String,
}

/// Longest text field kept, in bytes.
const MAX_TEXT: usize = 400;

impl Info {
    /// Append the encoded info: index `u16`, variation `u16`, then five
    /// `u16`-length strings (the file name is kept apart, once per file).
    pub fn encode(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.index.to_le_bytes());
        out.extend_from_slice(&self.variation.to_le_bytes());
        for s in [
            &self.black,
            &self.white,
            &self.result,
            &self.date,
            &self.event,
        ] {
            let mut end = s.len().min(MAX_TEXT);
            while !s.is_char_boundary(end) {
                end -= 1;
            }
            out.extend_from_slice(&(end as u16).to_le_bytes());
            out.extend_from_slice(&s.as_bytes()[..end]);
        }
    }

    /// Decode an info written by [`Info::encode`].
    ///
    /// # Errors
    /// [`Malformed`] for malformed bytes.
    pub fn decode(b: &[u8]) -> Result<Info, Malformed> {
        let mut at = 4usize;
        let word = |i: usize| -> Result<u16, Malformed> {
            let w = b.get(i..i + 2).ok_or(Malformed)?;
            Ok(u16::from_le_bytes([w[0], w[1]]))
        };
        let (index, variation) = (word(0)?, word(2)?);
        let mut field = || -> Result<String, Malformed> {
            let len = b.get(at..at + 2).ok_or(Malformed)?;
            let len = u16::from_le_bytes([len[0], len[1]]) as usize;
            let s = b.get(at + 2..at + 2 + len).ok_or(Malformed)?;
            at += 2 + len;
            Ok(String::from_utf8_lossy(s).into_owned())
        };
        Ok(Info {
            index,
            variation,
            file: String::new(),
            black: field()?,
            white: field()?,
            result: field()?,
            date: field()?,
            event: field()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_of_result_names_its_winner() {
        use Winner::{Black, Draw, Unknown, White};
        for (re, want) in [
            ("B+R", Black),
            ("B+Resign", Black),
            ("b+r", Black),
            ("B+T", Black),
            ("B+Time", Black),
            ("B+F", Black),
            ("B+Forfeit", Black),
            ("B+3.5", Black),
            ("B+", Black),
            (" B + 12.5 ", Black),
            ("W+R", White),
            ("w+resign", White),
            ("W+T", White),
            ("W+F", White),
            ("W+0.5", White),
            ("W+J", White),
            ("W+Jigo", White), // white wins a jigo (old komi rules)
            ("W+R (150 moves)", White),
            ("White wins by resignation", White),
            ("Black+R", Black),
            ("black wins", Black),
            ("0", Draw),
            ("Draw", Draw),
            ("draw", Draw),
            ("Jigo", Draw),
            ("jigo", Draw),
            ("B+0", Draw),
            ("W+0.0", Draw),
            ("Void", Unknown),
            ("void", Unknown),
            ("?", Unknown),
            ("", Unknown),
            ("unfinished", Unknown),
        ] {
            assert_eq!(Winner::from_result(re), want, "{re:?}");
        }
    }

    #[test]
    fn a_draw_is_neither_a_win_nor_a_loss() {
        for c in [Color::Black, Color::White] {
            assert_eq!(Winner::Draw.outcome(c), Some(Outcome::Drawn));
            assert_eq!(Winner::Unknown.outcome(c), None);
            assert_eq!(Winner::Black.swapped().outcome(c), Winner::White.outcome(c));
        }
        assert_eq!(Winner::Black.outcome(Color::Black), Some(Outcome::Won));
        assert_eq!(Winner::Black.outcome(Color::White), Some(Outcome::Lost));
        assert_eq!(Winner::White.outcome(Color::White), Some(Outcome::Won));
    }

    #[test]
    fn stream_round_trip() {
        let mut w = StreamWriter::default();
        w.setup(60, Color::Black);
        w.setup(300, Color::Black);
        w.play(Color::White, Some(72), &[]);
        w.play(Color::Black, None, &[]);
        w.play(Color::Black, Some(360), &[0, 1, 2]);
        w.play(Color::White, Some(0), &[]);
        let bytes = w.finish();
        let mut ev = Vec::new();
        decode(&bytes, &mut ev).unwrap();
        assert_eq!(
            ev,
            vec![
                Event::Setup(60, Color::Black),
                Event::Setup(300, Color::Black),
                Event::Move(1, Color::White, Some(72)),
                Event::Move(2, Color::Black, None),
                Event::Move(3, Color::Black, Some(360)),
                Event::Capture(0),
                Event::Capture(1),
                Event::Capture(2),
                Event::Move(4, Color::White, Some(0)),
            ]
        );
        let at3 = position_at(&ev, 3);
        assert_eq!((at3[60], at3[72], at3[360], at3[0]), (1, 2, 1, 0));
        assert_eq!(position_at(&ev, 4)[0], 2);
    }

    #[test]
    fn info_round_trip() {
        let i = Info {
            file: "a/b.sgf".into(),
            index: 3,
            variation: 2,
            black: "Honinbo Shusai".into(),
            white: "Go Seigen".into(),
            result: "W+2".into(),
            date: "1933".into(),
            event: String::new(),
        };
        let mut b = Vec::new();
        i.encode(&mut b);
        let back = Info::decode(&b).unwrap();
        assert_eq!(
            back,
            Info {
                file: String::new(),
                ..i
            }
        );
        assert_eq!(Winner::from_result("w+r"), Winner::White);
    }
}
