//! Handicap stone placement (GTP v2 §4.1.1).
//!
//! Fixed placement puts the stones on the star points, 4th line on boards
//! of 13 and up, 3rd line from 7 to 12, in the order of the GTP table
//! (for 19x19: D4 Q16 D16 Q4, then K10 for an odd count, D10 Q10, K4 K16).
//! Odd boards from 9 up take 2 to 9 stones, even boards and 7x7 2 to 4,
//! boards under 7 none. Free placement uses the same points (so it may
//! place fewer stones than asked, as the protocol allows); on boards under
//! 7 it falls back to points two lines apart, none touching.

use kosumi_core::game::SetupError;
use kosumi_core::geometry::{Geometry, Point};

use super::reply::{exactly, parse_vertex, vertex_list, Failure, Reply};
use super::Engine;

/// Return the largest fixed handicap on `geo`'s board (0 for none).
pub fn max_fixed(geo: Geometry) -> usize {
    match geo.size() {
        n if n < 7 => 0,
        7 => 4,
        n if n % 2 == 0 => 4,
        _ => 9,
    }
}

/// Return the fixed handicap points for `n` stones, or `None` if `n` is not
/// allowed on this board.
pub fn fixed(geo: Geometry, n: usize) -> Option<Vec<Point>> {
    if n < 2 || n > max_fixed(geo) {
        return None;
    }
    let size = geo.size();
    let lo = if size >= 13 { 3 } else { 2 };
    let (hi, mid) = (size - 1 - lo, size / 2);
    let mut xy = vec![(lo, lo), (hi, hi)];
    if n >= 3 {
        xy.push((lo, hi));
    }
    if n >= 4 {
        xy.push((hi, lo));
    }
    if n >= 6 {
        xy.extend([(lo, mid), (hi, mid)]);
    }
    if n >= 8 {
        xy.extend([(mid, lo), (mid, hi)]);
    }
    if n >= 5 && n % 2 == 1 {
        xy.push((mid, mid));
    }
    Some(xy.into_iter().map(|(x, y)| geo.point(x, y)).collect())
}

/// Return the points for a free handicap of `n` stones (possibly fewer),
/// or `None` if `n` is below 2 or would fill the board.
pub fn free(geo: Geometry, n: usize) -> Option<Vec<Point>> {
    let size = geo.size();
    if n < 2 || n >= size * size {
        return None;
    }
    let max = max_fixed(geo);
    if max > 0 {
        return fixed(geo, n.min(max));
    }
    let points: Vec<Point> = (0..size * size)
        .map(|i| (i % size, i / size))
        .filter(|&(x, y)| x % 2 == 1 && y % 2 == 1)
        .map(|(x, y)| geo.point(x, y))
        .take(n)
        .collect();
    (points.len() >= 2).then_some(points)
}

// ---- the commands ---------------------------------------------------------

/// Parse a handicap stone count.
fn stone_count(text: &str) -> Result<usize, Failure> {
    match text.parse::<i64>() {
        Ok(n) => usize::try_from(n).map_err(|_| Failure::BadStoneCount),
        Err(_) if text.bytes().all(|b| b.is_ascii_digit()) => Err(Failure::BadStoneCount),
        Err(_) => Err(Failure::Syntax),
    }
}

fn setup_failure(e: SetupError) -> Failure {
    match e {
        SetupError::BoardNotEmpty => Failure::BoardNotEmpty,
        SetupError::BadStones => Failure::BadVertexList,
    }
}

/// `fixed_handicap N`
pub fn fixed_handicap(engine: &mut Engine, args: &[String]) -> Reply {
    let [n] = exactly::<1>(args)?;
    let n = stone_count(n)?;
    if !engine.game.board_is_empty() {
        return Err(Failure::BoardNotEmpty.into());
    }
    let geo = engine.game.board().geometry();
    let points = fixed(geo, n).ok_or(Failure::BadStoneCount)?;
    engine.game.place_handicap(&points).map_err(setup_failure)?;
    Ok(vertex_list(engine, &points))
}

/// `place_free_handicap N`
pub fn place_free_handicap(engine: &mut Engine, args: &[String]) -> Reply {
    let [n] = exactly::<1>(args)?;
    let n = stone_count(n)?;
    if !engine.game.board_is_empty() {
        return Err(Failure::BoardNotEmpty.into());
    }
    let geo = engine.game.board().geometry();
    let points = free(geo, n).ok_or(Failure::BadStoneCount)?;
    engine.game.place_handicap(&points).map_err(setup_failure)?;
    Ok(vertex_list(engine, &points))
}

/// `set_free_handicap V...`
pub fn set_free_handicap(engine: &mut Engine, args: &[String]) -> Reply {
    if !engine.game.board_is_empty() {
        return Err(Failure::BoardNotEmpty.into());
    }
    let size = engine.game.size();
    if args.len() < 2 || args.len() >= size * size {
        return Err(Failure::BadVertexList.into());
    }
    let mut points = Vec::with_capacity(args.len());
    for a in args {
        match parse_vertex(engine, a) {
            Ok(p) if !p.is_pass() => points.push(p),
            _ => return Err(Failure::BadVertexList.into()),
        }
    }
    engine.game.place_handicap(&points).map_err(setup_failure)?;
    Ok(String::new())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(geo: Geometry, points: &[Point]) -> String {
        let mut buf = [0u8; 4];
        let v: Vec<String> = points
            .iter()
            .map(|&p| geo.vertex_str(p, &mut buf).to_string())
            .collect();
        v.join(" ")
    }

    #[test]
    fn gtp_table_on_19x19() {
        let geo = Geometry::new(19).unwrap();
        let expect = [
            (2, "D4 Q16"),
            (3, "D4 Q16 D16"),
            (4, "D4 Q16 D16 Q4"),
            (5, "D4 Q16 D16 Q4 K10"),
            (6, "D4 Q16 D16 Q4 D10 Q10"),
            (7, "D4 Q16 D16 Q4 D10 Q10 K10"),
            (8, "D4 Q16 D16 Q4 D10 Q10 K4 K16"),
            (9, "D4 Q16 D16 Q4 D10 Q10 K4 K16 K10"),
        ];
        for (n, want) in expect {
            assert_eq!(names(geo, &fixed(geo, n).unwrap()), want);
        }
        assert!(fixed(geo, 1).is_none());
        assert!(fixed(geo, 10).is_none());
    }

    #[test]
    fn small_boards() {
        let nine = Geometry::new(9).unwrap();
        assert_eq!(names(nine, &fixed(nine, 4).unwrap()), "C3 G7 C7 G3");
        let ten = Geometry::new(10).unwrap();
        assert!(fixed(ten, 5).is_none());
        let five = Geometry::new(5).unwrap();
        assert!(fixed(five, 2).is_none());
        assert_eq!(names(five, &free(five, 9).unwrap()), "B2 D2 B4 D4");
    }
}
