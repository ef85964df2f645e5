//! Handicap placement (`kosumi_core::game::handicap`): the GTP table's
//! points and order, and what small boards allow.

use kosumi_core::game::handicap::{fixed, free};
use kosumi_core::geometry::{Geometry, Point};

fn names(geo: Geometry, points: &[Point]) -> String {
    let mut buf = [0u8; 4];
    let v: Vec<String> = points
        .iter()
        .map(|&p| geo.vertex_str(p, &mut buf).to_string())
        .collect();
    v.join(" ")
}

#[test]
fn the_gtp_table_on_19x19() {
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
    // Free placement takes the same points, at most nine.
    assert_eq!(names(geo, &free(geo, 12).unwrap()), expect[7].1);
}

#[test]
fn small_boards() {
    let nine = Geometry::new(9).unwrap();
    assert_eq!(names(nine, &fixed(nine, 4).unwrap()), "C3 G7 C7 G3");
    let ten = Geometry::new(10).unwrap();
    assert!(fixed(ten, 5).is_none());
    assert_eq!(names(ten, &free(ten, 5).unwrap()), "C3 H8 C8 H3");
    let five = Geometry::new(5).unwrap();
    assert!(fixed(five, 2).is_none());
    assert_eq!(names(five, &free(five, 9).unwrap()), "B2 D2 B4 D4");
    let six = Geometry::new(6).unwrap();
    assert_eq!(free(six, 20).unwrap().len(), 9);
    assert!(free(six, 36).is_none());
}
