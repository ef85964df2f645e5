//! GTP over a serial port, in fixed memory: a line buffer of [`LINE`]
//! bytes (a longer line is read to its end and refused), the commands the
//! firmware supports, `?` answers for everything else.

use core::fmt::Write as _;

use kosumi_core::game::{TimeControl, TimeError};
use kosumi_core::geometry::{Color, Geometry};

use crate::engine::{Decision, Engine, SIZE};
use crate::uart::{Serial, Writer};

/// Longest command line accepted, newline excluded.
pub const LINE: usize = 128;

/// The commands `list_commands` reports.
const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "showboard",
    "final_score",
    "time_settings",
    "time_left",
    "quit",
    "kosumi-playouts",
];

/// What the loop does after a command.
enum Flow {
    Continue,
    Quit,
}

/// Serve GTP on `serial` until `quit`.
pub fn serve<S: Serial>(serial: &mut S, engine: &mut Engine) {
    let mut buf = [0u8; LINE];
    loop {
        let line = match read_line(serial, &mut buf) {
            Some(len) => &buf[..len],
            None => {
                answer(serial, None, Err("line too long"));
                continue;
            }
        };
        let Ok(text) = core::str::from_utf8(line) else {
            answer(serial, None, Err("invalid utf-8"));
            continue;
        };
        let text = text.split('#').next().unwrap_or("");
        let mut words = text.split_ascii_whitespace();
        let Some(mut first) = words.next() else {
            continue;
        };
        let mut id = None;
        if first.bytes().all(|b| b.is_ascii_digit()) {
            id = first.parse::<u32>().ok();
            match words.next() {
                Some(w) => first = w,
                None => {
                    answer(serial, id, Err("no command"));
                    continue;
                }
            }
        }
        if let Flow::Quit = command(serial, engine, id, first, &mut words) {
            return;
        }
    }
}

/// Read one line into `buf`, dropping control characters (tabs become
/// spaces); `None` if it did not fit.
fn read_line<S: Serial>(serial: &mut S, buf: &mut [u8; LINE]) -> Option<usize> {
    let mut len = 0;
    let mut overflow = false;
    loop {
        match serial.read() {
            b'\n' => return (!overflow).then_some(len),
            b'\t' | b' ' => {
                if len < LINE {
                    buf[len] = b' ';
                    len += 1;
                } else {
                    overflow = true;
                }
            }
            b if b < 32 || b == 127 => {}
            b => {
                if len < LINE {
                    buf[len] = b;
                    len += 1;
                } else {
                    overflow = true;
                }
            }
        }
    }
}

/// Write `=id text` or `?id text`, then the blank line that ends an answer.
fn answer<S: Serial>(serial: &mut S, id: Option<u32>, result: Result<&str, &str>) {
    let mut w = Writer(serial);
    let (mark, text) = match result {
        Ok(t) => ('=', t),
        Err(t) => ('?', t),
    };
    let _ = match id {
        Some(id) => write!(w, "{mark}{id} {text}\n\n"),
        None => write!(w, "{mark} {text}\n\n"),
    };
}

fn parse_color(word: Option<&str>) -> Option<Color> {
    let w = word?;
    if w.eq_ignore_ascii_case("b") || w.eq_ignore_ascii_case("black") {
        Some(Color::Black)
    } else if w.eq_ignore_ascii_case("w") || w.eq_ignore_ascii_case("white") {
        Some(Color::White)
    } else {
        None
    }
}

/// Run one command and answer it.
fn command<'a, S: Serial>(
    serial: &mut S,
    engine: &mut Engine,
    id: Option<u32>,
    name: &str,
    args: &mut impl Iterator<Item = &'a str>,
) -> Flow {
    let geo: Geometry = engine.board().geometry();
    let mut vbuf = [0u8; 4];
    match name {
        "protocol_version" => answer(serial, id, Ok("2")),
        "name" => answer(serial, id, Ok("kosumi")),
        "version" => answer(serial, id, Ok(env!("CARGO_PKG_VERSION"))),
        "known_command" => {
            let known = args.next().is_some_and(|c| COMMANDS.contains(&c));
            answer(serial, id, Ok(if known { "true" } else { "false" }));
        }
        "list_commands" => {
            let mut w = Writer(serial);
            let _ = match id {
                Some(id) => write!(w, "={id} "),
                None => write!(w, "= "),
            };
            for (i, c) in COMMANDS.iter().enumerate() {
                let _ = write!(w, "{}{c}", if i == 0 { "" } else { "\n" });
            }
            let _ = write!(w, "\n\n");
        }
        "boardsize" => match args.next().map(str::parse::<usize>) {
            Some(Ok(SIZE)) => {
                engine.clear(serial.idle_polls());
                answer(serial, id, Ok(""));
            }
            Some(Ok(_)) => answer(serial, id, Err("unacceptable size")),
            _ => answer(serial, id, Err("syntax error")),
        },
        "clear_board" => {
            engine.clear(serial.idle_polls());
            answer(serial, id, Ok(""));
        }
        "komi" => match args.next().map(parse_half_points) {
            Some(Some(k2)) => {
                engine.set_komi2(k2);
                answer(serial, id, Ok(""));
            }
            _ => answer(serial, id, Err("komi must be a multiple of 0.5")),
        },
        "play" => {
            let c = parse_color(args.next());
            let p = args.next().map(|v| geo.parse_vertex(v));
            match (c, p) {
                (Some(c), Some(Ok(p))) => match engine.play(c, p) {
                    Ok(()) => answer(serial, id, Ok("")),
                    Err(_) => answer(serial, id, Err("illegal move")),
                },
                _ => answer(serial, id, Err("invalid color or coordinate")),
            }
        }
        "genmove" => match parse_color(args.next()) {
            Some(c) => match engine.genmove(c) {
                Ok(Decision::Play(p)) => {
                    let v = geo.vertex_str(p, &mut vbuf);
                    answer(serial, id, Ok(v));
                }
                Ok(Decision::Resign) => answer(serial, id, Ok("resign")),
                Err(_) => answer(serial, id, Err("game record full")),
            },
            None => answer(serial, id, Err("invalid color")),
        },
        "undo" => {
            if engine.undo() {
                answer(serial, id, Ok(""));
            } else {
                answer(serial, id, Err("cannot undo"));
            }
        }
        "showboard" => {
            let mut w = Writer(serial);
            let _ = match id {
                Some(id) => write!(w, "={id} \n{}\n", engine.board()),
                None => write!(w, "= \n{}\n", engine.board()),
            };
        }
        "final_score" => {
            let m = engine.final_score2();
            let mut text = [0u8; 16];
            let s = format_score(m, &mut text);
            answer(serial, id, Ok(s));
        }
        "time_settings" => {
            let mut words = [""; 3];
            let tc = match collect(args, &mut words) {
                Some(w) => TimeControl::from_time_settings(w),
                None => Err(TimeError),
            };
            match tc {
                Ok(tc) => {
                    *engine.clock_mut() = tc;
                    answer(serial, id, Ok(""));
                }
                Err(_) => answer(serial, id, Err("syntax error")),
            }
        }
        "time_left" => {
            let c = parse_color(args.next());
            let mut words = [""; 2];
            let left = match (c, collect(args, &mut words)) {
                (Some(c), Some(w)) => engine.clock_mut().time_left(c.idx(), w),
                _ => Err(TimeError),
            };
            match left {
                Ok(()) => answer(serial, id, Ok("")),
                _ => answer(serial, id, Err("syntax error")),
            }
        }
        "kosumi-playouts" => match args.next().map(str::parse::<u32>) {
            Some(Ok(n)) if n > 0 => {
                engine.set_playouts(n);
                answer(serial, id, Ok(""));
            }
            _ => answer(serial, id, Err("syntax error")),
        },
        "quit" => {
            answer(serial, id, Ok(""));
            return Flow::Quit;
        }
        _ => answer(serial, id, Err("unknown command")),
    }
    Flow::Continue
}

/// Put the words of `args` into `words` and return them; `None` when there
/// are more than fit.
fn collect<'a, 'w>(
    args: &mut impl Iterator<Item = &'a str>,
    words: &'w mut [&'a str],
) -> Option<&'w [&'a str]> {
    let mut n = 0;
    for w in args {
        *words.get_mut(n)? = w;
        n += 1;
    }
    Some(&words[..n])
}

/// Parse a komi such as `7.5`, `-3`, `6.0` into half points (no float
/// parsing needed); `None` unless it is a multiple of 0.5 within 1000.
fn parse_half_points(text: &str) -> Option<i16> {
    let (neg, t) = match text.strip_prefix('-') {
        Some(t) => (true, t),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let (whole, frac) = t.split_once('.').unwrap_or((t, ""));
    if whole.is_empty() || !whole.bytes().all(|b| b.is_ascii_digit()) || whole.len() > 4 {
        return None;
    }
    let half = match frac.trim_end_matches('0') {
        "" => 0,
        "5" => 1,
        _ => return None,
    };
    let k2 = whole.parse::<i16>().ok()?.checked_mul(2)? + half;
    (k2 <= 2000).then_some(if neg { -k2 } else { k2 })
}

/// Format twice black's margin as `B+3.5`, `W+0.5` or `0`.
fn format_score(margin2: i32, buf: &mut [u8; 16]) -> &str {
    if margin2 == 0 {
        return "0";
    }
    let (who, m) = if margin2 > 0 {
        ('B', margin2)
    } else {
        ('W', -margin2)
    };
    let mut w = Buf { buf, len: 0 };
    let _ = if m % 2 == 0 {
        write!(w, "{who}+{}", m / 2)
    } else {
        write!(w, "{who}+{}.5", m / 2)
    };
    let len = w.len;
    core::str::from_utf8(&buf[..len]).unwrap_or("?")
}

/// A `fmt::Write` into a fixed byte buffer.
struct Buf<'a> {
    buf: &'a mut [u8; 16],
    len: usize,
}

impl core::fmt::Write for Buf<'_> {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        let end = self.len + s.len();
        if end > self.buf.len() {
            return Err(core::fmt::Error);
        }
        self.buf[self.len..end].copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}
