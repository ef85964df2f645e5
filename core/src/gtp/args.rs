//! Command arguments read as GTP writes them: colours, vertices, komi,
//! counts, and the check that a command got as many as it takes. Numbers
//! are read by hand: `str::parse::<f64>` would bring float-parsing code and
//! tables into the firmware's flash.

use core::str::SplitAsciiWhitespace;

use super::Failure;
use crate::geometry::{Color, Geometry, Point};

/// A command's arguments.
pub type Args<'a> = SplitAsciiWhitespace<'a>;

/// Return the arguments as an array of exactly `N`.
///
/// # Errors
/// [`Failure::Syntax`] for more or fewer.
pub fn exactly<'a, const N: usize>(args: &mut Args<'a>) -> Result<[&'a str; N], Failure> {
    let mut out = [""; N];
    for slot in &mut out {
        *slot = args.next().ok_or(Failure::Syntax)?;
    }
    match args.next() {
        Some(_) => Err(Failure::Syntax),
        None => Ok(out),
    }
}

/// Put the arguments into `words` and return them.
///
/// # Errors
/// [`Failure::Syntax`] when there are more than fit.
pub fn collect<'a, 'w>(
    args: &mut Args<'a>,
    words: &'w mut [&'a str],
) -> Result<&'w [&'a str], Failure> {
    let mut n = 0;
    for w in args {
        *words.get_mut(n).ok_or(Failure::Syntax)? = w;
        n += 1;
    }
    Ok(&words[..n])
}

/// Parse a GTP colour: `b`, `black`, `w`, `white`, any case.
///
/// # Errors
/// [`Failure::BadColorOrVertex`].
pub fn color(text: &str) -> Result<Color, Failure> {
    if text.eq_ignore_ascii_case("b") || text.eq_ignore_ascii_case("black") {
        Ok(Color::Black)
    } else if text.eq_ignore_ascii_case("w") || text.eq_ignore_ascii_case("white") {
        Ok(Color::White)
    } else {
        Err(Failure::BadColorOrVertex)
    }
}

/// Return the GTP name of a colour.
pub const fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// Parse a vertex (or `pass`) on a board of `geo`.
///
/// # Errors
/// [`Failure::BadColorOrVertex`].
pub fn vertex(geo: Geometry, text: &str) -> Result<Point, Failure> {
    geo.parse_vertex(text)
        .map_err(|_| Failure::BadColorOrVertex)
}

/// Parse a `COLOR VERTEX` pair.
///
/// # Errors
/// [`Failure::Syntax`] for other than two arguments, else as [`color`] and
/// [`vertex`].
pub fn color_and_vertex(geo: Geometry, args: &mut Args<'_>) -> Result<(Color, Point), Failure> {
    let [c, v] = exactly::<2>(args)?;
    Ok((color(c)?, vertex(geo, v)?))
}

/// Parse a komi (`7.5`, `-3`, `+6.0`, `1e1`) into half points.
///
/// # Errors
/// [`Failure::Syntax`] if it is no decimal number, [`Failure::KomiRange`]
/// beyond ±1000, [`Failure::BadKomi`] if it is no multiple of 0.5.
pub fn komi2(text: &str) -> Result<i16, Failure> {
    let (neg, t) = match text.strip_prefix('-') {
        Some(t) => (true, t),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let (mantissa, exponent) = match t.split_once(['e', 'E']) {
        Some((m, e)) => (m, Some(e)),
        None => (t, None),
    };
    let (whole, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if (whole.is_empty() && frac.is_empty()) || !digits(whole) || !digits(frac) {
        return Err(Failure::Syntax);
    }
    let exponent = match exponent {
        None => 0,
        Some(e) => {
            let (eneg, e) = match e.strip_prefix('-') {
                Some(e) => (true, e),
                None => (false, e.strip_prefix('+').unwrap_or(e)),
            };
            if e.is_empty() || !digits(e) {
                return Err(Failure::Syntax);
            }
            // Beyond 10^±9999 every non-zero komi is out of range or no
            // multiple of 0.5, as below.
            let e = e.trim_start_matches('0');
            let e = if e.len() > 4 {
                9999
            } else {
                e.parse::<i32>().unwrap_or(0)
            };
            if eneg {
                -e
            } else {
                e
            }
        }
    };
    // The significant digits `sig` (from the first to the last non-zero
    // one) times 10^power.
    let all = || whole.bytes().chain(frac.bytes());
    let Some(first) = all().position(|b| b != b'0') else {
        return Ok(0);
    };
    let last = all()
        .enumerate()
        .filter(|&(_, b)| b != b'0')
        .last()
        .map_or(first, |(i, _)| i);
    let len = (last - first + 1) as i32;
    let trailing = (whole.len() + frac.len() - 1 - last) as i32;
    let power = exponent - frac.len() as i32 + trailing;
    if power + len > 4 {
        return Err(Failure::KomiRange);
    }
    let last_digit = all().nth(last).unwrap_or(b'0');
    if power < -1 || (power == -1 && last_digit != b'5') {
        return Err(Failure::BadKomi);
    }
    // At most four digits before the point and one after.
    let sig = all()
        .skip(first)
        .take(len as usize)
        .fold(0i32, |v, b| v * 10 + i32::from(b - b'0'));
    let k2 = match power {
        -1 => sig / 5,
        p => 2 * sig * 10i32.pow(p as u32),
    };
    if k2 > 2000 {
        return Err(Failure::KomiRange);
    }
    Ok(if neg { -k2 as i16 } else { k2 as i16 })
}

/// Parse a count (a board size, a number of stones): `None` for a
/// negative number or one too large for a `usize`.
///
/// # Errors
/// [`Failure::Syntax`] if it is no integer.
pub fn count(text: &str) -> Result<Option<usize>, Failure> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Failure::Syntax);
    }
    Ok(text.parse::<usize>().ok())
}

/// Write a game's result from black's margin in half points as GTP's
/// `final_score` and SGF's `RE` write it: `B+3.5`, `W+12`, `0` for a draw.
pub fn write_result(out: &mut dyn core::fmt::Write, margin2: i32) -> core::fmt::Result {
    match margin2 {
        0 => out.write_str("0"),
        m => {
            out.write_str(if m > 0 { "B+" } else { "W+" })?;
            write_halves(out, m.abs())
        }
    }
}

/// Write `half / 2` as GTP writes a float (`7.5`, `-3`, `0`).
pub fn write_halves(out: &mut dyn core::fmt::Write, half: i32) -> core::fmt::Result {
    let sign = if half < 0 { "-" } else { "" };
    let m = half.unsigned_abs();
    if m.is_multiple_of(2) {
        write!(out, "{sign}{}", m / 2)
    } else {
        write!(out, "{sign}{}.5", m / 2)
    }
}
