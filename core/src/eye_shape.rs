//! Killing eye shapes: the enclosed spaces of three to six points that
//! make one eye only if the side that encloses them gets to play their
//! vital point first (the straight and bent three, the pyramid four, the
//! bulky and the crossed five, the rabbity six), as Pachi's
//! `nakade_point` and the classic tables have them. The owl's eye values
//! and the playouts' nakade check both read them here; the owl also
//! reads the rectangular six on the edge, which dies only short of
//! liberties.

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

/// Return the vital point of the rectangular six, the closed space of
/// two by three points with a long side on the edge: alive with outside
/// liberties to spare, but short of them the attacker's stone at the
/// middle of the inner long side (returned here) kills or makes ko. `None`
/// for any other space.
pub fn rectangular_six(geo: Geometry, points: &[Point]) -> Option<Point> {
    if points.len() != 6 {
        return None;
    }
    let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
    for &p in points {
        let (x, y) = geo.coords(p);
        (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
    }
    let last = geo.size() - 1;
    let (w, h) = (x1 - x0 + 1, y1 - y0 + 1);
    // The inner long side: the one off the edge.
    let (x, y) = match (w, h) {
        (3, 2) if y0 == 0 => (x0 + 1, y1),
        (3, 2) if y1 == last => (x0 + 1, y0),
        (2, 3) if x0 == 0 => (x1, y0 + 1),
        (2, 3) if x1 == last => (x0, y0 + 1),
        _ => return None,
    };
    Some(geo.point(x, y))
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
        // The rectangular six on the edge (the diagram's top row is the
        // board's row 1): its vital point is the inner long side's middle.
        let (geo, pts, n, vital) = space(&["+++", "+*+"]);
        assert_eq!(rectangular_six(geo, &pts[..n]), vital);
        let (geo, pts, n, _) = space(&["...", "+++", "+++"]);
        assert_eq!(rectangular_six(geo, &pts[..n]), None);
        let (geo, pts, n, _) = space(&["+++", ".+."]);
        assert!(!is_square_four(geo, &pts[..n]));
    }
}
