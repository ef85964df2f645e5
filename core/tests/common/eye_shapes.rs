//! Life-and-death diagrams shared by the owl's tests and the tests of
//! its use at the search's root (black's dragon on the first line).

/// Straight three on the first line: the middle decides.
pub const THREE: &str = "
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
O O O O O . . . .
X X X X O . . . .
. . . X O . . . .";

/// Straight four on the first line: alive whoever plays.
pub const FOUR: &str = "
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
O O O O O O . . .
X X X X X O . . .
. . . . X O . . .";

/// Two points of eye space: dead whoever plays.
pub const TWO: &str = "
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
O O O O . . . . .
X X X O . . . . .
. . X O . . . . .";
