//! The owl's candidates: which moves a node tries, in which order.

use super::eyes::{List, View, MAX_LIST};
use super::MAX_GEN;

/// Return the candidates of a node for the attacker (`attacker`) or the
/// defender, in order (see the module note), and how many of them come
/// before the rim's (`rim`, which stay last whatever they score); `reads`
/// are the capture reader's moves against the chains short of liberties.
pub fn candidates(
    v: &View,
    rim: &List<MAX_LIST>,
    reads: &List<8>,
    attacker: bool,
) -> (List<MAX_GEN>, usize) {
    let mut out = List::new();
    let (rescues, first, then) = if attacker {
        (
            v.rescues.as_slice(),
            v.inside.as_slice(),
            v.margin.as_slice(),
        )
    } else {
        (&[][..], v.margin.as_slice(), v.inside.as_slice())
    };
    let vitals = v.spaces[..v.count].iter().map(|s| s.vital);
    let urgent = v
        .captures
        .as_slice()
        .iter()
        .chain(v.ataris.as_slice())
        .copied()
        .chain(reads.as_slice().iter().copied())
        .chain(vitals)
        .chain(rescues.iter().copied());
    let lists = urgent
        .chain(first.iter().copied())
        .chain(then.iter().copied());
    for p in lists.filter(|p| !p.is_pass()) {
        out.push(p);
    }
    let main = out.as_slice().len();
    for &p in rim.as_slice() {
        out.push(p);
    }
    (out, main)
}
