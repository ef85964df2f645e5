//! Killing eye shapes: the enclosed spaces of three to six points that
//! make one eye only if the side that encloses them gets to play their
//! vital point first (the straight and bent three, the pyramid four, the
//! bulky and the crossed five, the rabbity six), as Pachi's
//! `nakade_point` and the classic tables have them. The owl's eye values
//! and the playouts' nakade check both read them here.

use crate::geometry::{Geometry, Point};

/// Return the vital point of the closed space `points` (3 to 6 connected
/// points, empty or not), or `None` when the space is no killing shape
/// (the square four is already one eye; the other shapes of four or more
/// points make two eyes whoever plays first).
pub fn vital_point(geo: Geometry, points: &[Point]) -> Option<Point> {
    // How many points of each degree (neighbours inside the space), and
    // one point of each degree.
    let mut count = [0usize; 5];
    let mut one = [Point::PASS; 5];
    for &p in points {
        let d = geo
            .neighbours(p)
            .iter()
            .filter(|n| points.contains(n))
            .count();
        count[d] += 1;
        one[d] = p;
    }
    let vital = match points.len() {
        3 => one[2],
        4 if count[3] == 1 => one[3],
        5 if count[3] == 1 && count[1] == 1 => one[3],
        5 if count[4] == 1 => one[4],
        6 if count[4] == 1 && count[2] == 3 => one[4],
        _ => Point::PASS,
    };
    (!vital.is_pass()).then_some(vital)
}

/// Query whether the closed space `points` of four is the square (one eye
/// whoever plays first).
pub fn is_square_four(geo: Geometry, points: &[Point]) -> bool {
    points.len() == 4
        && points.iter().all(|&p| {
            geo.neighbours(p)
                .iter()
                .filter(|n| points.contains(n))
                .count()
                == 2
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    /// The `+` points of a diagram and its vital point `*` (also a point
    /// of the space), if any.
    fn space(rows: &[&str]) -> (Geometry, [Point; 8], usize, Option<Point>) {
        let geo = Board::new(9).expect("9x9").geometry();
        let mut pts = [Point::PASS; 8];
        let mut n = 0;
        let mut vital = None;
        for (y, row) in rows.iter().enumerate() {
            for (x, ch) in row.chars().enumerate() {
                if ch == '+' || ch == '*' {
                    let p = geo.point(x, y);
                    pts[n] = p;
                    n += 1;
                    if ch == '*' {
                        vital = Some(p);
                    }
                }
            }
        }
        (geo, pts, n, vital)
    }

    #[test]
    fn killing_shapes_have_their_vital_points() {
        let shapes: [&[&str]; 10] = [
            &["+*+"],               // straight three
            &["+*", ".+"],          // bent three
            &["+*+", ".+."],        // pyramid four
            &["++", "+*", ".+"],    // bulky five (the square's point with three)
            &[".+.", "+*+", ".+."], // crossed five
            &[".+.", "+*+", ".++"], // rabbity six
            &["++++"],              // straight four: two eyes
            &["++", "++"],          // the square: one eye already
            &["+++", "+.+"],        // the "U" of five: two eyes
            &["+++", "++.", "+.."], // six with a square: not rabbity
        ];
        for rows in shapes {
            let (geo, pts, n, vital) = space(rows);
            assert_eq!(vital_point(geo, &pts[..n]), vital, "{rows:?}");
        }
        let (geo, pts, n, _) = space(&["++", "++"]);
        assert!(is_square_four(geo, &pts[..n]));
        let (geo, pts, n, _) = space(&["+++", ".+."]);
        assert!(!is_square_four(geo, &pts[..n]));
    }
}
